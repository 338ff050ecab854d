"""Figures of the performance-profile analysis: step profiles on a log axis.

One figure per profile kind and tolerance τ. Without λ it has one panel, the profiles of the
mean curves. With λ values it pairs the mean-curve profiles with one confirmation panel per λ (the
winner's upper bound curve against the others' lower bound curves) — Liu et al.'s Figs. 6/7
and 10/11 side by side, sharing the y axis.

Layout: panels two to a row, so that a figure printed at a page's width keeps readable text;
one legend per figure (in a free cell of the grid, else below or beside the panels), in the
order of the mean-curve profiles (best first); the winner drawn thicker with a dark outline so it
stands out in every panel;
each confirmation panel's title names the algorithms whose difference from the winner is not
significant at that λ; beyond eight algorithms (when colours repeat) every curve carries its
marker at a few evenly spaced places, and the legend shows it.
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from reportgen.analyses.performance_profiles import (
    PerformanceProfilesResult,
)
from reportgen.figures.end_labels import CurveEnd, end_labels
from reportgen.figures.style import (
    PRINT_WIDTH,
    AlgorithmStyle,
    FigureSpec,
    FigureStyle,
    text_width,
)
from reportgen.present.format import evaluations, file_token, power_of_ten

_AXIS_LABEL = {
    "performance": "performance ratio γ = t / min t  (log scale)",
    "data": "budget κ = t / (D + 1) simplex gradients  (log scale)",
}
_Y_LABEL = {"performance": "share of problems solved ρ(γ)", "data": "share of problems solved d(κ)"}
_COLUMNS = 2
"""Panels per row: two keep the text readable when a figure is printed at a page's width."""

Curves = dict[str, tuple[np.ndarray, np.ndarray]]

_MARK_SPACING = 0.12
"""Distance between a curve's markers, as a fraction of the panel's diagonal."""


def coinciding(curves: Curves, order: list[str]) -> list[list[str]]:
    """Groups of algorithms (two or more, in ``order``) whose step curves are identical: drawn
    over each other, only the top one would show without a word in the caption."""
    groups: dict[tuple[bytes, bytes], list[str]] = {}
    for algorithm in order:
        if algorithm in curves:
            x, y = curves[algorithm]
            key = (np.asarray(x, dtype=float).tobytes(), np.asarray(y, dtype=float).tobytes())
            groups.setdefault(key, []).append(algorithm)
    return [group for group in groups.values() if len(group) > 1]


def _decade_label(value: float, _position: object = None) -> str:
    """``1``, ``10``, ``10²``, ``10³``, … (and ``10⁻¹``): powers of ten in one style."""
    if value <= 0:
        return ""
    exponent = round(np.log10(value))
    if exponent in (0, 1):
        return f"{value:g}"
    return "10" + str(exponent).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


def _line_style(look: AlgorithmStyle, is_winner: bool, with_markers: bool) -> dict[str, Any]:
    """How a profile is drawn (the same in the panels and in the legend)."""
    return {
        "color": look.color,
        "linestyle": "-" if is_winner else look.linestyle,
        "linewidth": 2.8 if is_winner else 1.3,
        "marker": look.marker if with_markers else None,
        "markersize": 4.5 if is_winner else 3.5,
        # The winner stands out: thick, solid, with a dark outline.
        "path_effects": (
            [patheffects.Stroke(linewidth=4.6, foreground="#222222"), patheffects.Normal()]
            if is_winner
            else None
        ),
    }


def _draw_panel(
    ax: Axes,
    curves: Curves,
    order: list[str],
    winner: str,
    kind: str,
    x_range: tuple[float, float],
    style: FigureStyle,
) -> None:
    with_markers = len(style.algorithms) > 8
    drawn = [a for a in order if a in curves]
    for position, algorithm in enumerate(drawn):
        x, y = curves[algorithm]
        look = style.of(algorithm)
        # Extend the last step to the right edge: the profile stays at its final value.
        xs = np.r_[x, x_range[1]]
        ys = np.r_[y, y[-1]]
        is_winner = algorithm == winner
        ax.plot(
            xs,
            ys,
            drawstyle="steps-post",
            # Each curve's markers start a little further along (a fraction of the 0.12
            # spacing): where two curves coincide, the markers of the one drawn underneath
            # show between the other's instead of hiding under them.
            markevery=(_MARK_SPACING * position / len(drawn), _MARK_SPACING)
            if with_markers
            else None,
            zorder=4 if is_winner else 2,
            **_line_style(look, is_winner, with_markers),
        )
    if with_markers:
        # Every curve named where it ends (the profile stays at its last value to the edge).
        ends = {style.label(a): CurveEnd(float(curves[a][1][-1])) for a in drawn}
        end_labels(ax, ends, _AXES_HEIGHT_PT, _Y_LIMITS)
    ax.set_xscale("log", base=2 if kind == "performance" else 10)
    ax.set_xlim(*x_range)
    ax.set_ylim(*_Y_LIMITS)
    ax.grid(True, which="major", color="#dddddd", linewidth=0.6)
    ax.set_xlabel(_AXIS_LABEL[kind], fontsize=8.5)
    if kind == "performance":
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    else:
        ax.xaxis.set_major_locator(LogLocator(base=10))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.xaxis.set_major_formatter(FuncFormatter(_decade_label))
    ax.spines[["top", "right"]].set_visible(False)


_AXES_HEIGHT_PT = 150.0
"""About the height of a panel's axes in print (a 3 in row less its title and axis labels):
the end labels are spread in points on this scale."""
_Y_LIMITS = (-0.02, 1.02)


def _layout(n_panels: int, n_algorithms: int) -> tuple[Figure, list[Axes], Axes | None]:
    """Panels two to a row (readable at a page's width); the legend in a free cell or below.

    Returns the figure, the panels' axes and the free cell that takes the legend (None: the
    legend goes below the panels).
    """
    if n_panels == 1:
        fig = Figure(figsize=(6.4, 3.9), layout="constrained")
        return fig, [fig.add_subplot()], None
    rows = -(-n_panels // _COLUMNS)
    free_cell = n_panels % _COLUMNS == 1
    legend_rows = 0 if free_cell else -(-n_algorithms // _legend_columns(n_algorithms))
    fig = Figure(figsize=(PRINT_WIDTH, 3.0 * rows + 0.2 * legend_rows + 0.2), layout="constrained")
    grid = fig.subplots(rows, _COLUMNS, sharex=True, sharey=True, squeeze=False).ravel()
    axes = list(grid[:n_panels])
    for ax in axes:
        ax.tick_params(labelbottom=True, labelleft=True, labelsize=7.5)
    spare = grid[n_panels] if free_cell else None
    if spare is not None:
        spare.set_axis_off()
    return fig, axes, spare


def _legend_columns(n_algorithms: int) -> int:
    return 3 if n_algorithms <= 12 else 4


def _legend(
    fig: Figure,
    cell: Axes | None,
    order: list[str],
    winner: str,
    style: FigureStyle,
    paired: bool,
) -> None:
    """One legend for the figure, best mean profile first: in ``cell``, else below the panels."""
    with_markers = len(style.algorithms) > 8
    handles, labels = [], []
    for algorithm in order:
        look = style.of(algorithm)
        is_winner = algorithm == winner
        handle = Line2D([], [], **_line_style(look, is_winner, with_markers))
        handles.append(handle)
        label = style.label(algorithm)
        if is_winner:
            label += " (winner)"
        labels.append(label)
    title = "in the order of the mean-curve profiles" + (
        "; confirmation panels (λ): the winner's upper bound, the others' lower bounds"
        if paired
        else ""
    )
    if cell is not None:
        cell.legend(
            handles,
            labels,
            loc="center",
            fontsize=8,
            ncols=1 if len(labels) <= 12 else 2,
            frameon=False,
            title=textwrap.fill(title, 34),
            title_fontsize=8,
        )
    elif not paired:
        fig.legend(
            handles,
            labels,
            loc="outside right upper",
            fontsize=8,
            ncols=1 if len(labels) <= 16 else 2,
            frameon=False,
            title=textwrap.fill(title, 22),
            title_fontsize=8,
        )
    else:
        # Matplotlib fills a legend column by column; pad the grid with blank entries and
        # transpose it so that it reads row by row in the order of the mean-curve profiles.
        columns = _legend_columns(len(labels))
        rows = -(-len(labels) // columns)
        blank = Line2D([], [], linestyle="none")
        padded = list(zip(handles, labels, strict=True))
        padded += [(blank, "")] * (rows * columns - len(padded))
        by_row = [padded[r * columns + c] for c in range(columns) for r in range(rows)]
        fig.legend(
            [h for h, _ in by_row],
            [label for _, label in by_row],
            loc="outside lower center",
            fontsize=8,
            ncols=columns,
            frameon=False,
            title=title,
            title_fontsize=8,
        )


_TITLE_WIDTH = 2.1
"""Width (in) of a confirmation panel's title lines: a panel's axes are about 2.2 in wide in
print (two panels and their end-label columns across 7 in)."""
_TITLE_FONT = 8.5


def _wrap_to_width(text: str, width: float, max_lines: int | None = None) -> list[str]:
    """``text`` in lines no wider than ``width`` inches at the title font, words kept whole
    (a longer word on a line of its own), the last two lines evened out; beyond ``max_lines``
    the last line ends in " …"."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and text_width(joined, _TITLE_FONT) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    if max_lines is not None and len(lines) > max_lines:
        last = lines[max_lines - 1].split()
        while len(last) > 1 and text_width(" ".join(last) + " …", _TITLE_FONT) > width:
            last.pop()
        return [*lines[: max_lines - 1], " ".join(last) + " …"]
    # Words move down to the last line while that makes the two last lines' wider one
    # narrower: filled greedily, "λ = 2: CMA-ES-CSA upper vs others" left "lower" alone on a
    # line, where it read as a title of its own.
    while len(lines) > 1 and " " in lines[-2]:
        kept, word = lines[-2].rsplit(" ", 1)
        moved = f"{word} {lines[-1]}"
        if text_width(moved, _TITLE_FONT) >= text_width(lines[-2], _TITLE_FONT):
            break
        lines[-2:] = [kept, moved]
    return lines


def _confirmation_title(
    result: PerformanceProfilesResult, kind: str, tau: float, lam: float, style: FigureStyle
) -> str:
    """The panel's title: what is compared, and who is not (or not demonstrably) worse."""
    confirmation = result.confirmation(kind, tau, lam)
    assert confirmation is not None  # a confirmation panel is drawn for a tested round only
    winner = confirmation.winner
    same = [style.label(a) for a in confirmation.not_significant]
    unclear = [style.label(a) for a in confirmation.inconclusive]
    parts = []
    if same:
        parts.append("n.s.: " + ", ".join(same))
    if unclear:
        parts.append("inconclusive: " + ", ".join(unclear))
    summary = "; ".join(parts) if parts else "all others significantly worse"
    # Wrapped to the panel's width: a title reaching past the axes ran into the end labels
    # beside the panel (the label of a curve ending at 1.0 stands just under the title).
    head = f"λ = {lam:g}: {style.label(winner)} upper vs others lower"
    lines = _wrap_to_width(head, _TITLE_WIDTH) + _wrap_to_width(summary, _TITLE_WIDTH, 3)
    return "\n".join(lines)


def _budget_text(result: PerformanceProfilesResult) -> str:
    """``budget μ_f = 10⁶ evaluations``, with the per-dimension ends of the runs when they
    differ (a single μ_f over 10-D runs that stop at 2·10⁵ would misstate their budget)."""
    ends = result.record_ends
    if len(set(ends.values())) <= 1:
        return f"budget μ_f = {evaluations(result.budget)} evaluations"
    parts = [f"{evaluations(e)} in D = {d}" for d, e in sorted(ends.items())]
    parts[0] = parts[0].replace(" in ", " evaluations in ", 1)
    per = ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"budget μ_f = {per} (the runs' last records)"


def bound_formula(result: PerformanceProfilesResult, side: int) -> str:
    """How the upper (``side=+1``) or lower (``-1``) bound curve is computed, for the text:
    the paper's ``mean + λS/√n_r``, or the bootstrap quantile (``bound: bootstrap``)."""
    if result.bootstrap is None:
        return f"mean {'+' if side > 0 else '−'} λS/√n_r"
    level = "Φ(λ)" if side > 0 else "Φ(−λ)"
    return f"the {level} quantile of {result.bootstrap[0]} bootstrap means over the runs"


def reading_guide(result: PerformanceProfilesResult) -> str:
    """How to read every profile figure, said once above them instead of under each one."""
    text = (
        f"How to read the profile figures below ({_budget_text(result)}): the first panel "
        "shows the profiles of the mean curves over runs, the winner drawn thick with a dark "
        "outline."
    )
    if result.lambdas:
        text += (
            " The other panels, one per λ ("
            f"{', '.join(f'{v:g}' for v in result.lambdas)}), test the winner's lead "
            f"(Algorithm 2): the winner's upper confidence-bound curve ({bound_formula(result, 1)}) "
            f"against the others' lower-bound curves ({bound_formula(result, -1)}). An algorithm "
            "whose curve ends "
            "below the winner's is significantly worse; the panel title lists those that are "
            "not (n.s.) and those the test cannot tell apart (inconclusive): their mean curves "
            "solve as many problems as the winner's, which leads by speed alone, or the "
            "winner's upper curve solves fewer than half the problems its mean curve solves."
            + (" Bound curves are clipped to the range of the runs." if result.clip_bounds else "")
        )
    return text + (
        " Curves end at the share of problems solved; each legend lists the algorithms in the "
        "order of the mean-curve profiles, and every algorithm keeps its colour, marker and line style "
        "in every figure of the report."
    )


def figures(result: PerformanceProfilesResult, style: FigureStyle) -> list[FigureSpec]:
    """One figure per profile kind and τ (with confirmation panels per λ)."""
    specs: list[FigureSpec] = []
    curves = result.step_curves()
    for kind in result.profile_kinds:
        for tau in result.tolerances:
            # The axis ends where this figure's curves stop changing (its own τ, all its
            # panels), not at the largest ratio of any τ: a slow solve at τ = 10⁻⁷ would
            # otherwise leave the τ = 0.1 figure four decades of flat lines.
            finite = result.ratios(kind, tau)
            x_left = 1.0 if kind == "performance" else (float(finite.min()) if len(finite) else 1.0)
            # Room to the right of the last step, so that every curve's final value shows.
            x_right = float(finite.max()) * 1.5 if len(finite) else 2.0
            x_right = max(x_right, 2.0 if kind == "performance" else x_left * 10)
            ranked = [place.algorithm for place in result.mean_order(tau)]
            winner = ranked[0]
            panels: list[tuple[str, float | None]] = [("mean", None)]
            panels += [("confirmation", float(lam)) for lam in result.lambdas]
            fig, axes, legend_cell = _layout(len(panels), len(ranked))
            for i, (ax, (step, lam)) in enumerate(zip(axes, panels, strict=False)):
                if step == "mean":
                    title = f"mean-curve profiles, τ = {power_of_ten(tau)}"
                    if len(panels) > 1:
                        title += "\nstep 1: the winner"
                else:
                    # Round 1 of Algorithm 2: its winner is the mean-curve profiles' winner.
                    assert lam is not None
                    title = _confirmation_title(result, kind, tau, lam, style)
                ax.set_title(title, fontsize=_TITLE_FONT, loc="left")
                _draw_panel(
                    ax,
                    curves.get((kind, step, float(tau), lam), {}),
                    ranked,
                    winner,
                    kind,
                    (x_left, x_right),
                    style,
                )
                if i % _COLUMNS == 0:
                    ax.set_ylabel(_Y_LABEL[kind], fontsize=8.5)
            _legend(fig, legend_cell, ranked, winner, style, paired=len(panels) > 1)
            what = (
                "Performance profiles (Dolan–Moré, Liu et al. Eq. 4)"
                if kind == "performance"
                else "Data profiles (Moré–Wild, Liu et al. Eq. 5)"
            )
            joint = result.mean_winners(tau)
            drawn = (
                f"winner {style.label(winner)} (thick, dark outline)"
                if len(joint) == 1
                else f"no winner ({len(joint)} tie); {style.label(winner)}, first in study "
                "order, drawn thick as the reference"
            )
            # The reading guide (panels, bounds, legend, budget) is said once, above the
            # figures (reading_guide); the caption says what differs from figure to figure.
            caption = f"{what} at tolerance τ = {power_of_ten(tau)}: {drawn}."
            same = []
            for step, lam in panels:
                groups = coinciding(curves.get((kind, step, float(tau), lam), {}), ranked)
                if groups:
                    where = "the mean-curve panel" if step == "mean" else f"the λ = {lam:g} panel"
                    pairs = "; ".join(" = ".join(style.label(a) for a in g) for g in groups)
                    same.append(f"in {where} {pairs}")
            if same:
                caption += (
                    " Identical curves, drawn over each other (their markers staggered so that "
                    f"each shows): {'; '.join(same)}."
                )
            specs.append(
                FigureSpec(name=f"{kind}_tau_{file_token(tau)}", caption=caption, figure=fig)
            )
    return specs
