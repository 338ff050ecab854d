"""Figures of the ``probabilistic_profiles`` analysis.

One figure overlays both profiles of every algorithm in its colour, the standard profile
:math:`\\rho` dashed and the probabilistic profile :math:`\\bar\\rho` solid, like Barreto et al.'s
Figures 2–3. Line style encodes the profile, so algorithms are told apart by colour and, beyond
eight algorithms, by their markers on both curves (open on ρ, filled on ρ̄; no two algorithms
share colour and marker, :func:`~reportgen.figures.style.make_style`) and each solid curve's
name at its right end
(:mod:`reportgen.figures.end_labels`; the legend then moves below the panel); then a second
figure shows the two profiles in separate panels, each curve named at its end. The x axis is linear up to ``x_max = 20`` (as in the paper) and
logarithmic beyond, where ratios span decades.
"""

from __future__ import annotations

from typing import cast

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter
from matplotlib.typing import LineStyleType

from reportgen.analyses.probabilistic_profiles import ProbabilisticProfilesResult
from reportgen.figures.end_labels import CurveEnd, end_labels
from reportgen.figures.style import COLOUR_ALONE, PRINT_WIDTH, FigureSpec, FigureStyle

LOG_SCALE_ABOVE = 20.0
"""x_max above which the ratio axis is logarithmic."""

_MARKERS_EVERY = 12
"""Markers per curve when there are more algorithms than colours."""


def figures(result: ProbabilisticProfilesResult, style: FigureStyle) -> list[FigureSpec]:
    """The overlay of both profiles and, beyond eight algorithms, a two-panel version."""
    n_a, n_p = len(result.algorithms), len(result.problems)
    many = n_a > COLOUR_ALONE
    scale = "logarithmic" if _log_scale(result) else "linear"
    model = (
        "normal costs N(mean, SD²) (§4.1)"
        if result.model == "normal"
        else "the empirical distribution of the runs"
    )
    what = (
        f"{n_a} algorithms on {n_p} problems; cost: {result.cost.replace('_', ' ')}; "
        f"ratio x = cost / smallest mean cost on the problem, x ∈ [1, {result.x_max:g}], "
        f"{scale} axis"
    )

    figure = Figure(
        figsize=(PRINT_WIDTH, _HEIGHT + _legend_height(n_a, n_a + 2)), layout="constrained"
    )
    ax = figure.add_subplot()
    for i in range(n_a):
        # Beyond eight algorithms colours repeat (the 13th takes the 1st's): the dashed ρ
        # carries its algorithm's marker too, open, else two dashed curves would look alike.
        _draw(ax, result, style, i, standard=True, linestyle="--", markers=many, open_markers=True)
        _draw(ax, result, style, i, standard=False, linestyle="-", markers=many)
    _decorate(ax, result)
    if many:
        # Colours repeat: each probabilistic (solid) curve named where it ends, the legend
        # moves below the panel to leave the right edge to those names.
        _name_ends(ax, result, style, standard=False)
    handles = [_algorithm_handle(style, a, many) for a in result.algorithms]
    handles += [
        Line2D(
            [],
            [],
            color="0.25",
            linestyle="--",
            linewidth=1.2,
            label="standard profile ρ(x)",
            marker="o" if many else None,
            markersize=4,
            markerfacecolor="white",
        ),
        Line2D(
            [],
            [],
            color="0.25",
            linestyle="-",
            linewidth=2.0,
            label="probabilistic (expected) profile",
            marker="o" if many else None,
            markersize=4,
        ),
    ]
    if many:
        figure.legend(handles=handles, loc="outside lower center", ncols=_LEGEND_COLUMNS,
                      fontsize="small", handlelength=3.0, frameon=False)  # fmt: skip
    else:
        ax.legend(
            handles=handles,
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            ncols=1,
            fontsize="small",
            handlelength=3.0,
            frameon=False,
        )
    open_, filled, same = (
        (", open markers", ", filled markers", "colour and marker") if many else ("", "", "colour")
    )
    specs = [
        FigureSpec(
            name="profiles",
            caption=(
                f"Performance profiles of the mean costs ρ(x) (dashed{open_}) and probabilistic "
                f"performance profiles ρ̄(x) with {model} (solid{filled}), same {same} per "
                "algorithm: "
                f"the (expected) share of problems {result.within_words}. {what}. "
                "After Barreto et al. (2010), Figs. 2–3."
            ),
            figure=figure,
        )
    ]
    if many:
        specs.append(_panels(result, style, what, model))
    return specs


_HEIGHT = 4.8
"""Inches of a figure without a legend below it."""
_LEGEND_COLUMNS = 4
_Y_LIMITS = (-0.02, 1.02)


_AXES_HEIGHT_PT = (_HEIGHT - 0.9) * 72
"""About a panel's height in print: the figure's less its axis labels and title (a legend
below adds its own height to the figure)."""


def _legend_height(n_algorithms: int, entries: int) -> float:
    """Inches a legend of ``entries`` below the panels takes: none up to eight algorithms, when
    the legend stands beside the panel."""
    if n_algorithms <= COLOUR_ALONE:
        return 0.0
    return 0.22 * -(-entries // _LEGEND_COLUMNS) + 0.1


def _name_ends(
    ax: Axes, result: ProbabilisticProfilesResult, style: FigureStyle, *, standard: bool
) -> None:
    """Each algorithm's curve (ρ or ρ̄) named at x_max, where every curve ends."""
    profiles = result.rho if standard else result.rho_bar
    ends = {
        style.label(a): CurveEnd(float(profiles[i][-1])) for i, a in enumerate(result.algorithms)
    }
    end_labels(ax, ends, _AXES_HEIGHT_PT, _Y_LIMITS)


def _log_scale(result: ProbabilisticProfilesResult) -> bool:
    return result.x_max > LOG_SCALE_ABOVE


def _draw(
    ax: Axes,
    result: ProbabilisticProfilesResult,
    style: FigureStyle,
    i: int,
    *,
    standard: bool,
    linestyle: str,
    markers: bool,
    open_markers: bool = False,
) -> None:
    algorithm_style = style.of(result.algorithms[i])
    x = np.asarray(result.x)
    # the standard profile, and the empirical ρ̄, are step functions tabulated at every
    # breakpoint: drawn as right-continuous steps they are exact
    steps = standard or result.model == "empirical"
    marker_every = max(1, x.size // _MARKERS_EVERY)
    ax.plot(
        x,
        result.rho[i] if standard else result.rho_bar[i],
        drawstyle="steps-post" if steps else "default",
        color=algorithm_style.color,
        linestyle=cast(LineStyleType, linestyle),
        linewidth=1.2 if standard else 2.0,
        alpha=0.85 if standard else 1.0,
        marker=algorithm_style.marker if markers else None,
        # open markers (of ρ in the overlay) sit between the filled ones of ρ̄
        markevery=((i + open_markers * marker_every // 2) % marker_every, marker_every),
        markersize=4,
        markerfacecolor="white" if open_markers else algorithm_style.color,
        zorder=3 if standard else 2,  # the steps stay visible where ρ̄ follows them closely
    )


def _decorate(ax: Axes, result: ProbabilisticProfilesResult) -> None:
    if _log_scale(result):
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlim(1.0, result.x_max)
    ax.set_ylim(*_Y_LIMITS)
    ax.set_xlabel("performance ratio x (cost / smallest mean cost on the problem)")
    ax.set_ylabel(
        "share of problems solved within x"
        if result.fixed_target
        else "share of problems within x of the best"
    )
    ax.grid(True, color="0.9", linewidth=0.6)
    ax.set_axisbelow(True)


def _algorithm_handle(
    style: FigureStyle, algorithm: str, many: bool, linestyle: str = "-"
) -> Line2D:
    algorithm_style = style.of(algorithm)
    return Line2D(
        [],
        [],
        color=algorithm_style.color,
        linestyle=cast(LineStyleType, linestyle),
        linewidth=2.0,
        marker=algorithm_style.marker if many else None,
        markersize=4,
        label=style.label(algorithm),
    )


def _panels(
    result: ProbabilisticProfilesResult, style: FigureStyle, what: str, model: str
) -> FigureSpec:
    n_a = len(result.algorithms)
    figure = Figure(figsize=(PRINT_WIDTH, _HEIGHT + _legend_height(n_a, n_a)), layout="constrained")
    axes = figure.subplots(1, 2, sharey=True)
    for ax, standard, title in (
        (axes[0], True, "standard ρ(x) of the mean costs"),
        (axes[1], False, "probabilistic (expected) profile"),
    ):
        for i, algorithm in enumerate(result.algorithms):
            linestyle = style.of(algorithm).linestyle
            _draw(ax, result, style, i, standard=standard, linestyle=linestyle, markers=True)
        _decorate(ax, result)
        _name_ends(ax, result, style, standard=standard)
        # Half the width: the overlay's long axis label would run into the other panel's.
        ax.set_xlabel("performance ratio x")
        ax.set_title(title, fontsize="medium")
    axes[1].set_ylabel("")
    figure.legend(
        handles=[
            _algorithm_handle(style, a, True, style.of(a).linestyle) for a in result.algorithms
        ],
        loc="outside lower center",
        ncols=_LEGEND_COLUMNS,
        fontsize="small",
        handlelength=3.0,
        frameon=False,
    )
    return FigureSpec(
        name="profiles_panels",
        caption=(
            "The profiles of the overlay figure in separate panels: left the performance "
            f"profiles of the mean costs ρ(x), right the probabilistic profiles ρ̄(x) with "
            f"{model}. {what}."
        ),
        figure=figure,
    )
