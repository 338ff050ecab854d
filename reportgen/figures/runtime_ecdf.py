"""Figures of the runtime-ECDF analysis: COCO-style ECDFs of runtimes over function–target pairs.

One figure with a panel per dimension (or one pooled panel): x = evaluations / dimension on a
log axis, y = share of (function, target) pairs reached; one step curve per algorithm, with a
cross at each algorithm's median budget (median evaluations used / D), as COCO draws them, above
every curve. Beyond eight algorithms each curve carries its marker and its name at its last
point, beside the panel (:mod:`reportgen.figures.end_labels`). A
single legend lists the algorithms in study order; each panel's title names the largest area
under the ECDF, the "best" the narrative and the summary name. One figure, not one per dimension: the panels share the y axis and the legend, and the
report stays short however many dimensions there are.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from reportgen.analyses.runtime_ecdf import AREA_PLACES, RuntimeEcdfResult
from reportgen.figures.end_labels import CurveEnd, end_labels, label_width_in
from reportgen.figures.style import PRINT_WIDTH, FigureSpec, FigureStyle
from reportgen.present.format import fixed, power_of_ten

_MARK_SPACING = 0.12
"""Distance between a curve's markers, as a fraction of the panel's diagonal (as the profiles)."""
_Y_LIMITS = (-0.02, 1.02)


_CROSS_PT = 8.0
"""Size (pt) of the median-budget crosses; two closer than three quarters of it overlap."""


def _panel(
    ax: Axes, result: RuntimeEcdfResult, dimension: int, style: FigureStyle, height_pt: float
) -> list[tuple[str, float, float]]:
    """Draw one panel; returns each drawn algorithm's cross (algorithm, x, y)."""
    crosses = []
    summaries = {s.algorithm: s for s in result.summaries(dimension)}
    many = len(result.algorithms) > 8
    lowest = np.inf
    ends: dict[str, CurveEnd] = {}
    drawn = [a for a in result.algorithms if a in summaries and len(result.curve(dimension, a)[0])]
    for position, algorithm in enumerate(drawn):
        xs, ys = result.curve(dimension, algorithm)
        lowest = min(lowest, float(xs.min()))
        look = style.of(algorithm)
        # Beyond eight algorithms colours repeat: each curve carries its marker, spaced along
        # the drawn curve (not by index: most grid points lie where nothing has been reached
        # yet) and staggered so that the markers of coinciding curves show side by side.
        ax.step(xs, ys, where="post", color=look.color, linestyle=look.linestyle, linewidth=1.5,
                marker=look.marker if many else None, markersize=3.5,
                markevery=(_MARK_SPACING * position / len(drawn), _MARK_SPACING) if many else None,
                label=style.label(algorithm))  # fmt: skip
        median = summaries[algorithm].median_budget
        at = ys[max(int(np.searchsorted(xs, median, side="right")) - 1, 0)]
        # The crosses the caption promises, above every curve (zorder) so none hides them.
        ax.plot([median], [at], marker="x", markersize=_CROSS_PT, markeredgewidth=2,
                color=look.color, linestyle="none", zorder=3)  # fmt: skip
        crosses.append((algorithm, float(median), float(at)))
        ends[style.label(algorithm)] = CurveEnd(float(ys[-1]), float(xs[-1]))
    if many:
        end_labels(ax, ends, height_pt, _Y_LIMITS)
    ax.set_xscale("log")
    ax.set_xlim(lowest, max(s.max_budget for s in summaries.values()) * 1.5)
    ax.set_ylim(*_Y_LIMITS)
    ax.xaxis.set_major_locator(LogLocator(base=10))
    ax.xaxis.set_minor_formatter(NullFormatter())
    # Plain-text tick labels (10³ rather than mathtext): the same look at a fraction of the cost.
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: power_of_ten(v)))
    ax.grid(True, which="major", color="#dddddd", linewidth=0.6)
    ax.spines[["top", "right"]].set_visible(False)
    # "Best" is the largest area, as in the narrative and the summary's ranking.
    best = max(summaries.values(), key=lambda s: (s.area, s.solved))
    where = f"{int(dimension)}-D" if dimension else "all dimensions"
    ax.set_title(
        f"{where} — largest area: {style.label(best.algorithm)} ({fixed(best.area, AREA_PLACES)})",
        fontsize=9,
    )
    return crosses


def overlapping_crosses(ax: Axes, crosses: list[tuple[str, float, float]]) -> list[list[str]]:
    """Groups of algorithms (two or more) whose crosses overlap in the drawn panel: the one
    drawn last hides the others, so the caption names them."""
    figure = ax.get_figure(root=True)
    assert figure is not None
    reach = 0.75 * _CROSS_PT * figure.dpi / 72  # pixels
    groups: list[list[tuple[str, np.ndarray]]] = []
    for algorithm, x, y in crosses:
        at = ax.transData.transform((x, y))
        group = next((g for g in groups if any(np.hypot(*(at - p)) < reach for _, p in g)), None)
        if group is None:
            groups.append([(algorithm, at)])
        else:
            group.append((algorithm, at))
    return [[a for a, _ in g] for g in groups if len(g) > 1]


def figures(result: RuntimeEcdfResult, style: FigureStyle) -> list[FigureSpec]:
    """One figure: an ECDF panel per dimension (or one pooled panel)."""
    dimensions = result.dimensions()
    if not dimensions:
        return []
    ncols = min(2, len(dimensions))  # two panels fill the print width
    nrows = math.ceil(len(dimensions) / ncols)
    legend_rows = math.ceil(len(result.algorithms) / 3)
    height = 3.1 * nrows + 0.25 * legend_rows + 0.6
    # Fixed margins, not constrained layout: the same look at a third of the drawing time.
    fig = Figure(figsize=(PRINT_WIDTH, height))  # wider would shrink its text in print
    bottom = (0.25 * legend_rows + 0.75) / height
    top = 1 - 0.35 / height
    # Beyond eight algorithms each curve is named at its end, right of its panel: room there.
    room = (
        label_width_in({style.label(a): CurveEnd(0.0) for a in result.algorithms})
        if len(result.algorithms) > 8
        else 0.0
    )
    right = 0.98 - room / PRINT_WIDTH
    gap = 0.33 + room  # inches between two panels
    panel = ((right - 0.08) * PRINT_WIDTH - (ncols - 1) * gap) / ncols
    wspace = gap / panel
    fig.subplots_adjust(left=0.08, right=right, top=top, bottom=bottom, wspace=wspace,
                        hspace=0.45)  # fmt: skip
    # A panel's height in print (pt), on which its end labels are spread.
    height_pt = (top - bottom) * height * 72 / (nrows + 0.45 * (nrows - 1))
    axes = fig.subplots(nrows, ncols, sharey=True, squeeze=False).ravel()
    crosses = {
        dimension: _panel(ax, result, dimension, style, height_pt)
        for ax, dimension in zip(axes, dimensions, strict=False)
    }
    for ax in axes[len(dimensions) :]:
        ax.set_visible(False)
    for ax in axes[::ncols]:
        ax.set_ylabel("fraction of (f, Δf) pairs")
    for ax in axes[: len(dimensions)]:
        ax.set_xlabel("evaluations / D", fontsize=9)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncols=min(3, len(labels)), fontsize=8,
               frameon=False)  # fmt: skip
    targets = (
        f"{len(result.targets)} targets Δf from {power_of_ten(max(result.targets))} to "
        f"{power_of_ten(min(result.targets))}"
    )
    caption = (
        f"Runtime ECDFs{' per dimension' if result.per_dimension else ', all dimensions pooled'}: "
        f"the share of (function, target) pairs — {targets} — reached within a budget of x·D "
        "evaluations, over all runs (each function weighs the same), tabulated at 20 points per "
        "decade. Crosses: median evaluations used / D. Panel titles: the largest normalised area "
        "under the ECDF on the log budget axis (the ranking the summary uses)."
    )
    # Fixed margins: the panels' places are final, and so is where each cross is drawn.
    hidden = []
    for ax, dimension in zip(axes, dimensions, strict=False):
        for group in overlapping_crosses(ax, crosses[dimension]):
            where = f" ({int(dimension)}-D)" if len(dimensions) > 1 and dimension else ""
            names = [style.label(a) for a in group]
            hidden.append(", ".join(names[:-1]) + " and " + names[-1] + where)
    if hidden:
        caption += f" Crosses drawn over each other: {'; '.join(hidden)}."
    return [FigureSpec(name="ecdf", caption=caption, figure=fig)]
