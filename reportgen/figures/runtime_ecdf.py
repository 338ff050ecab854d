"""Figures of the runtime-ECDF analysis: COCO-style ECDFs of runtimes over function–target pairs.

One figure with a panel per dimension (or one pooled panel): x = evaluations / dimension on a
log axis, y = share of (function, target) pairs reached; one step curve per algorithm, with a
cross at each algorithm's median budget (median evaluations used / D), as COCO draws them. A
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

from reportgen.analyses.runtime_ecdf import RuntimeEcdfResult
from reportgen.figures.style import PRINT_WIDTH, FigureSpec, FigureStyle
from reportgen.present.format import power_of_ten


def _panel(ax: Axes, result: RuntimeEcdfResult, dimension: int, style: FigureStyle) -> None:
    summaries = {s.algorithm: s for s in result.summaries(dimension)}
    many = len(result.algorithms) > 8
    lowest = np.inf
    for algorithm in result.algorithms:
        xs, ys = result.curve(dimension, algorithm)
        if algorithm not in summaries or not len(xs):
            continue
        lowest = min(lowest, float(xs.min()))
        look = style.of(algorithm)
        ax.step(xs, ys, where="post", color=look.color, linestyle=look.linestyle, linewidth=1.5,
                label=style.label(algorithm))  # fmt: skip
        median = summaries[algorithm].median_budget
        at = ys[max(int(np.searchsorted(xs, median, side="right")) - 1, 0)]
        ax.plot([median], [at], marker="x", markersize=8, markeredgewidth=2, color=look.color,
                linestyle="none")  # fmt: skip
        if many:
            step = max(len(xs) // 6, 1)
            ax.plot(xs[::step], ys[::step], marker=look.marker, linestyle="none",
                    markersize=3.5, color=look.color)  # fmt: skip
    ax.set_xscale("log")
    ax.set_xlim(lowest, max(s.max_budget for s in summaries.values()) * 1.5)
    ax.set_ylim(-0.02, 1.02)
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
        f"{where} — largest area: {style.label(best.algorithm)} ({best.area:.2f})",
        fontsize=9,
    )


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
    fig.subplots_adjust(left=0.08, right=0.98, top=1 - 0.35 / height, bottom=bottom,
                        wspace=0.12, hspace=0.45)  # fmt: skip
    axes = fig.subplots(nrows, ncols, sharey=True, squeeze=False).ravel()
    for ax, dimension in zip(axes, dimensions, strict=False):
        _panel(ax, result, dimension, style)
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
    return [FigureSpec(name="ecdf", caption=caption, figure=fig)]
