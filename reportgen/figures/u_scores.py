"""Figures of the U-scores analysis (Price, Kumar & Suganthan).

- ``u_scores_bars``: grouped bars of each algorithm's U-score total per group and overall, best
  first (the paper's Fig. 8, flattened from 3-D to grouped bars).
- ``cutpoint_ranks``: rank against the fraction of the budget, one panel per group and one for
  the total (only with cut-points).
- ``pairwise_<group>``: heat map of the share of trial comparisons the row algorithm wins
  against the column algorithm, per group and overall.

Everything drawn is read from the result; nothing is recomputed.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator, NullLocator

from reportgen.analyses.u_scores import OVERALL, UScoresResult
from reportgen.figures.style import (
    CELL_NUMBER,
    PRINT_WIDTH,
    FigureSpec,
    FigureStyle,
    text_colour_on,
)
from reportgen.present.format import evaluations

_TOTAL_COLOUR = "#333333"


def figures(result: UScoresResult, style: FigureStyle) -> list[FigureSpec]:
    """The bar chart, the cut-point rank plot (with cut-points) and the pairwise heat maps."""
    specs = [
        FigureSpec(
            name="u_scores_bars",
            caption=_bars_caption(result),
            figure=u_scores_bars(result, style),
        )
    ]
    if result.cutpoints is not None:
        specs.append(
            FigureSpec(
                name="cutpoint_ranks",
                caption=(
                    "Rank of each algorithm by its U-score total at each fraction of the budget "
                    "(1 = best; a trial's state at fraction c is its best-so-far error at "
                    "c·budget and a success if it reached the target by then)."
                    + _budget_note(result)
                    + _recorded_fractions(result)
                ),
                figure=cutpoint_ranks(result, style),
            )
        )
    for group in result.pairwise_groups():
        where = "over all problem instances" if group in (OVERALL, "all") else f"at {group}"
        specs.append(
            FigureSpec(
                name=f"pairwise_{_file_token(group)}",
                caption=(
                    f"Share of trial comparisons {where} that the row algorithm wins against "
                    "the column algorithm (ties count half); above 50 % (blue) the row "
                    "algorithm is better by U-scores. Significance per problem is in the "
                    "win/tie/loss table."
                ),
                figure=pairwise_heatmap(result, style, group),
            )
        )
    return specs


def _bars_caption(result: UScoresResult) -> str:
    total = "weighted total" if result.weights is not None else "total"
    groups = ", ".join(result.groups) if len(result.groups) > 1 else ""
    per_group = f"U-score totals per group ({groups}) and the {total}" if groups else "U-scores"
    weights = ""
    if result.weights is not None:
        weights = " Weights: " + ", ".join(f"{g} × {w:g}" for g, w in result.weights.items()) + "."
    return (
        f"{per_group} of each algorithm, best first (a U-score counts the wins of an "
        f"algorithm's trials against every trial of every other algorithm; Price et al. "
        f"Fig. 8).{weights}"
    )


def _budget_note(result: UScoresResult) -> str:
    if not result.budget:
        return ""
    return (
        " Budget: " + ", ".join(f"D={d}: {evaluations(b)}" for d, b in result.budget.items()) + "."
    )


def _file_token(group: str) -> str:
    return group.replace("=", "").replace(" ", "_")


def _rotate(ax: Axes, labels: list[str]) -> None:
    if len(labels) > 6 or max(len(label) for label in labels) > 6:
        for tick in ax.get_xticklabels():
            tick.set_rotation(45)
            tick.set_horizontalalignment("right")
            tick.set_rotation_mode("anchor")


def u_scores_bars(result: UScoresResult, style: FigureStyle) -> Figure:
    """Grouped bars: per algorithm (best first) one bar per group and one for the total."""
    standings = result.standings()
    algorithms = [s.algorithm for s in standings]
    labels = [style.label(a) for a in algorithms]
    series: list[tuple[str, np.ndarray, Any]] = []
    if len(result.groups) > 1:
        ramp = colormaps["Blues"]
        # From 0.62: every shade has 3:1 on white (WCAG 1.4.11; from 0.35 the first group's
        # bars had 1.7:1); to 0.8: the last group's stay apart from the dark total's.
        for i, g in enumerate(result.groups):
            shade = 0.62 + 0.18 * i / max(1, len(result.groups) - 1)
            series.append((g, np.array([s.group_totals[g] for s in standings]), ramp(shade)))
    name = "weighted total" if result.weights is not None else "total"
    series.append((name, np.array([s.score for s in standings]), _TOTAL_COLOUR))

    m = len(algorithms)
    # Wider than ~9 in, the figure is shrunk to the text width and its labels become unreadable.
    width = min(9.0, max(6.0, 0.2 * m * len(series) + 1.5))
    fig = Figure(figsize=(width, 4.2), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(m)
    bar = 0.8 / len(series)
    for k, (name, values, colour) in enumerate(series):
        ax.bar(x + (k - (len(series) - 1) / 2) * bar, values, bar, label=name, color=colour)
    ax.set_xticks(x, labels)
    _rotate(ax, labels)
    ax.set_xlim(-0.6, m - 0.4)
    ax.set_ylabel("U-score (wins)")
    ax.set_xlabel("algorithm (best first)")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
    if len(series) > 1:
        ax.legend(frameon=False, ncols=len(series), loc="upper right")
    return fig


def _recorded_fractions(result: UScoresResult) -> str:
    """The fraction of the budget each cut-point's recorded state holds, where it differs."""
    labels = [result.cutpoint_label(c) for c in result.cutpoint_fractions()]
    shifted = [label for label in labels if "(state " in label]
    if not shifted:
        return ""
    return (
        " The x axis is the nominal fraction; the histories hold records at checkpoints, so "
        f"the state shown is earlier: {'; '.join(shifted)}."
    )


def cutpoint_ranks(result: UScoresResult, style: FigureStyle) -> Figure:
    """Rank (1 at the top) against the budget fraction, per group and for the total."""
    # (title, group): a panel per group by its rank within the group, then the total's ranks.
    panels: list[tuple[str, str | None]] = [("total", None)]
    if len(result.groups) > 1:
        panels = [(g, g) for g in result.groups] + [("total", None)]
    if result.weights is not None:
        panels[-1] = ("weighted total", None)
    fractions = list(result.cutpoint_fractions())
    ranks = {(c, g): result.ranks_at_cutpoint(c, g) for c in fractions for _, g in panels}
    last = ranks[fractions[-1], None]
    order = sorted(last, key=last.__getitem__)  # stable: equal ranks keep the table's order
    m = len(result.algorithms)
    height = max(3.2, 0.22 * m + 1.4)
    # At most the print width (panels narrow as they multiply), so the legend prints at 8 pt.
    fig = Figure(figsize=(min(PRINT_WIDTH, 1.9 * len(panels) + 1.7), height), layout="constrained")
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    log_x = fractions[0] > 0 and fractions[-1] / fractions[0] >= 20
    for ax, (title, group) in zip(axes, panels, strict=True):
        for algorithm in order:
            s = style.of(algorithm)
            ax.plot(
                fractions,
                [ranks[c, group][algorithm] for c in fractions],
                color=s.color,
                marker=s.marker,
                linestyle=s.linestyle,
                markersize=4,
                linewidth=1.4,
                label=style.label(algorithm),
            )
        ax.set_title(title, fontsize=10)
        ax.tick_params(labelsize=7.5)
        if log_x:
            ax.set_xscale("log")
        ax.xaxis.set_major_locator(FixedLocator(fractions))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        # Many fractions, or three narrow panels on a print-width figure: turn the labels so
        # that neighbours on the log axis (0.5 and 1) do not run into each other.
        rotation = 90 if len(fractions) > 6 else 45 if len(panels) >= 3 else 0
        for tick in ax.get_xticklabels():
            tick.set_rotation(rotation)
        ax.grid(alpha=0.3)
    # One axis label under all panels: narrow panels cannot each hold it.
    fig.supxlabel("fraction of the budget (nominal)", fontsize=9)
    step = 1 if m <= 15 else math.ceil(m / 15)
    axes[0].set_yticks(range(1, m + 1, step))
    axes[0].set_ylim(m + 0.5, 0.5)
    axes[0].set_ylabel("rank (1 = best)")
    handles, labels = axes[-1].get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="outside right center",
        frameon=False,
        fontsize=8,
        ncols=1 if m <= 20 else 2,
        title="final rank order",
        title_fontsize=8,
    )
    return fig


def pairwise_heatmap(result: UScoresResult, style: FigureStyle, group: str) -> Figure:
    """Share of comparisons won by the row algorithm against the column one (diagonal blank)."""
    algorithms = [s.algorithm for s in result.standings()]  # best first
    share = result.share_matrix(group).loc[algorithms, algorithms].to_numpy(dtype=float)
    labels = [style.label(a) for a in algorithms]
    m = len(algorithms)
    # At most the print width with the colour bar: a wider map would print its text below 7 pt.
    # 0.3 in a cell holds its 7 pt number with room; a larger map pushed itself off the page
    # that the table before it left half empty (cec2022, 13 algorithms).
    side = min(PRINT_WIDTH - 1.2, max(4.0, 0.3 * m + 1.1))
    fig = Figure(figsize=(side + 1.2, side), layout="constrained")
    ax = fig.add_subplot()
    cmap = colormaps["RdBu"].with_extremes(bad="#eeeeee")
    image = ax.imshow(np.ma.masked_invalid(share), cmap=cmap, vmin=0.0, vmax=1.0)
    ax.set_xticks(range(m), labels)
    ax.set_yticks(range(m), labels)
    ax.tick_params(length=0)
    longest = max(len(label) for label in labels)
    if m > 8 or longest > 10:
        ax.tick_params(axis="x", labelrotation=90)
    elif longest > 3:
        for tick in ax.get_xticklabels():
            tick.set_rotation(45)
            tick.set_horizontalalignment("right")
            tick.set_rotation_mode("anchor")
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("algorithm (row)")
    if m <= 16:  # beyond, cells too small for 7 pt numbers: the colour and the CSV tell
        fontsize = 8 if m <= 10 else 7
        for i in range(m):
            for j in range(m):
                if i == j or math.isnan(share[i, j]):
                    continue
                value = share[i, j]
                ax.text(
                    j,
                    i,
                    f"{100 * value:.0f}",
                    fontsize=fontsize,
                    color=text_colour_on(image.to_rgba(value)),
                    **CELL_NUMBER,
                )
    bar = fig.colorbar(image, ax=ax, shrink=0.8)
    bar.set_label("% of comparisons won by the row")
    bar.ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{100 * v:.0f}"))
    return fig
