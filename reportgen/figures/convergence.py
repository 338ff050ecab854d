"""Figures of the convergence analysis: a grid of small multiples, one panel per problem.

Each panel: evaluations on the x axis (logarithmic when they span a decade or more), the
best-so-far value on the y axis (the scale the result chose: log, symmetric log or linear), one
median curve per algorithm in its report colour and line style, the interquartile band lightly
shaded in the same colour, and optionally the mean as a thin, sparsely dotted line. With more than eight
algorithms every curve also carries its algorithm's marker at a few points, so that colours
that repeat stay distinguishable. One legend per figure, below the grid, in study order.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from reportgen.analyses.convergence import ConvergenceResult
from reportgen.data.frames import problem_label
from reportgen.errors import shorten
from reportgen.figures.style import PRINT_WIDTH, FigureSpec, FigureStyle
from reportgen.present.format import number, power_of_ten

MEAN_DASHES = (0, (1, 4))
"""The mean curves' dash pattern: dots spaced wider than the ``":"`` of a median's style."""
BAND_ALPHA = 0.13
"""Opacity of the interquartile bands: overlapping bands of many algorithms stay readable."""

MARKS_PER_CURVE = 5


def _steps(*values: np.ndarray) -> np.ndarray:
    """The points a step curve (``steps-post``) needs: the first, the last, and every point
    where one of ``values`` changes. Dropping the others draws the same curve: a step runs on
    at its value until the next point kept. Late in a run the median and quartiles change
    rarely, and without the repeats a grid of 12 panels is several times smaller to write as
    SVG and for weasyprint to draw into the PDF.
    """
    keep = np.zeros(len(values[0]), dtype=bool)
    keep[[0, -1]] = True
    for v in values:
        # NaN never equals NaN: a missing value is kept, as is the value after it.
        keep[1:] |= v[1:] != v[:-1]
    return np.flatnonzero(keep)


def _panel(
    ax: Axes, result: ConvergenceResult, problem: str, dimension: int, style: FigureStyle
) -> None:
    many = len(result.algorithms) > 8
    curves = result.curves_of(problem, dimension)
    scale = result.scales.get((problem, dimension), "linear")
    floor = result.floors.get((problem, dimension))

    def shown(values: np.ndarray) -> np.ndarray:
        # On a log axis, values at or below 0 (an optimum reached exactly) sit on the floor.
        return values if floor is None else np.maximum(values, floor)

    lowest, highest = math.inf, 0.0
    for curve in curves:
        if len(curve.evaluations) == 0:
            continue
        look = style.of(curve.algorithm)
        x = curve.evaluations
        lowest, highest = min(lowest, float(x[0])), max(highest, float(x[-1]))
        at = _steps(curve.median)
        ax.plot(x[at], shown(curve.median[at]), color=look.color, linestyle=look.linestyle,
                linewidth=1.2, drawstyle="steps-post", label=style.label(curve.algorithm))  # fmt: skip
        if result.band == "iqr":
            at = _steps(curve.q1, curve.q3)
            ax.fill_between(x[at], shown(curve.q1[at]), shown(curve.q3[at]), step="post",
                            color=look.color, alpha=BAND_ALPHA, linewidth=0)  # fmt: skip
        if result.show_mean:
            at = _steps(curve.mean)
            # Sparse dots (1 on, 4 off), thin and without markers: beyond eight algorithms some
            # medians are dotted (":") themselves, and the mean must not pass for one of them.
            ax.plot(x[at], shown(curve.mean[at]), color=look.color, linestyle=MEAN_DASHES,
                    linewidth=0.9, drawstyle="steps-post")  # fmt: skip
        if len(x) == 1:
            # A run set with one record (a histories CSV keeps improvements only) is a point.
            ax.plot(x, shown(curve.median), marker=look.marker, linestyle="none",
                    markersize=4, color=look.color)  # fmt: skip
        elif many:
            # Markers at evenly spaced positions on the (log) x axis, offset per algorithm so
            # that the markers of curves lying on top of each other do not hide one another.
            k = result.algorithms.index(curve.algorithm)
            positions = np.linspace(0, len(x) - 1, MARKS_PER_CURVE + 2)[1:-1]
            offset = (k % 4 - 1.5) * len(x) / (8 * (MARKS_PER_CURVE + 1))
            index = np.clip((positions + offset).astype(int), 0, len(x) - 1)
            ax.plot(x[index], shown(curve.median)[index], marker=look.marker, linestyle="none",
                    markersize=3.2, color=look.color)  # fmt: skip
    if highest > 0 and lowest < math.inf and highest / max(lowest, 1.0) >= 10:
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, numticks=5))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: power_of_ten(v)))
    if scale == "log":
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(base=10, numticks=6))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: power_of_ten(v)))
        if floor is not None:
            ax.set_ylim(bottom=floor)
    else:
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: number(v, 3)))
    ax.tick_params(labelsize=7)
    ax.grid(True, which="major", color="#e3e3e3", linewidth=0.5)
    ax.spines[["top", "right"]].set_visible(False)
    # A panel is a third of the page wide: a long problem name keeps its start and end.
    ax.set_title(shorten(problem_label(problem, dimension), 40, keep_end=12), fontsize=8.5)


def _legend_handle(style: FigureStyle, algorithm: str, many: bool) -> Line2D:
    look = style.of(algorithm)
    line: dict[str, Any] = {"color": look.color, "linestyle": look.linestyle, "linewidth": 1.2}
    if many:
        line |= {"marker": look.marker, "markersize": 3.5}
    return Line2D([], [], **line)


def figures(
    result: ConvergenceResult, style: FigureStyle, *, columns: int = 4, per_figure: int = 16
) -> list[FigureSpec]:
    """Small-multiples grids of the plotted problems, ``per_figure`` panels per figure."""
    out: list[FigureSpec] = []
    plotted = list(result.plotted)
    if not plotted:
        return out
    many = len(result.algorithms) > 8
    chunks = [plotted[i : i + per_figure] for i in range(0, len(plotted), per_figure)]
    legend_columns = min(5, len(result.algorithms))
    legend_rows = math.ceil(len(result.algorithms) / legend_columns)
    for number_, chunk in enumerate(chunks, start=1):
        ncols = min(columns, len(chunk))
        nrows = math.ceil(len(chunk) / ncols)
        # Panels as they printed when the figure was wider and shrunk to the page: the same
        # height on paper, so that a section's intro and its first figure still share a page.
        squeeze = min(1.0, PRINT_WIDTH / max(1.9 * ncols + 0.7, 6.5))
        height = 1.95 * squeeze * nrows + 0.22 * legend_rows + 0.7
        # The print width: wider, the figure would be shrunk and its 7.5 pt labels with it.
        fig = Figure(figsize=(PRINT_WIDTH, height))
        bottom = (0.22 * legend_rows + 0.6) / height
        fig.subplots_adjust(left=0.08, right=0.985, top=1 - 0.3 / height, bottom=bottom,
                            wspace=0.32, hspace=0.55)  # fmt: skip
        axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
        for ax, (problem, dimension) in zip(axes, chunk, strict=False):
            _panel(ax, result, problem, dimension, style)
        for ax in axes[len(chunk) :]:
            ax.set_visible(False)
        for ax in axes[: len(chunk)][-ncols:]:
            ax.set_xlabel("evaluations", fontsize=7.5)
        for ax in axes[: len(chunk)][::ncols]:
            ax.set_ylabel("best-so-far value", fontsize=7.5)
        # Proxy handles: colour, line style and (beyond eight algorithms) marker together.
        drawn = {c.algorithm for c in result.curves if (c.problem, c.dimension) in chunk}
        handles = [_legend_handle(style, a, many) for a in result.algorithms if a in drawn]
        labels = [style.label(a) for a in result.algorithms if a in drawn]
        fig.legend(handles, labels, loc="lower center", ncols=legend_columns, fontsize=7.5,
                   frameon=False, handlelength=2.6)  # fmt: skip
        band = "; shaded: interquartile range of the runs" if result.band == "iqr" else ""
        mean = "; thin, sparsely dotted: mean" if result.show_mean else ""
        part = f" ({number_} of {len(chunks)})" if len(chunks) > 1 else ""
        names = ", ".join(problem_label(p, d) for p, d in (chunk[0], chunk[-1]))
        out.append(
            FigureSpec(
                name=f"convergence_{number_}" if len(chunks) > 1 else "convergence",
                caption=f"Convergence{part}, {names.replace(', ', ' to ', 1) if len(chunk) > 1 else names}: "
                f"the median over the runs of the best-so-far value against evaluations"
                f"{band}{mean}.",
                figure=fig,
            )
        )
    return out
