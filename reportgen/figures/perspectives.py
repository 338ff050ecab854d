"""Nemenyi critical-difference diagrams, one per perspective (Demšar 2006, Fig. 1 style).

Each diagram shows the mean ranks of the algorithms over the problems on a scale from 1 (best,
left) to k, the critical difference CD as a bar above the scale, and a thick bar under the
scale for each group of algorithms whose mean ranks differ by less than CD (no significant
Nemenyi difference). Markers of equal or nearly equal mean ranks, which would hide one another,
are stacked below the scale on their elbow lines (:func:`marker_levels`), and the caption names
exact ties. The groups, CD and ranks are read from the result; nothing is recomputed.
The control of Holm's procedure is printed in bold and every algorithm Holm's procedure finds
significantly different from it carries an asterisk, so that the diagram shows both tests and the
printed report needs no Holm table beside it (the table, with z and p, is in the HTML report and
the analysis's holm.csv).
"""

from __future__ import annotations

import math

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from reportgen.analyses.perspectives import (
    EFFICIENCY_CAVEAT,
    PerspectiveComparison,
    PerspectivesResult,
)
from reportgen.figures.style import FigureSpec, FigureStyle

PERSPECTIVE_TITLES: dict[str, str] = {
    "mean": "mean final value",
    "median": "median final value",
    "accuracy": "accuracy (sample minimum)",
    "reliability": "reliability (fraction of runs ≤ θ_f)",
    "robustness": "robustness (sample maximum)",
    "efficiency": "efficiency (minimum running time)",
}

_SCALE_IN = 3.6  # width of the rank scale in inches (grows beyond 12 algorithms)
_CHAR_IN = 0.064  # approximate width of one label character at _FONT points
_UNIT_IN = 0.17  # height of one label row in inches (8 pt labels: 0.11 in tall)
_FONT = 8.0
_MARKER_PT = 5.0  # marker size on the rank scale
# Height of the CD bar above the scale, in label rows: the tick labels stand from 0.5 rows up
# to about 1.3 (8 pt with its line gap), so the bar's end marks (±0.15) clear them only from
# about 1.5 (at 1.4 they crossed the "1" and the CD label touched the tick numbers).
_CD_Y = 1.75
_STACK_STEP = 0.45  # rows of _UNIT_IN between stacked markers (5 pt and its edge: 0.45 rows)


def figures(result: PerspectivesResult, style: FigureStyle) -> list[FigureSpec]:
    """One critical-difference diagram per computed perspective (none when disabled)."""
    if not result.critical_difference_diagrams:
        return []
    specs = []
    for comparison in result.comparisons:
        specs.append(
            FigureSpec(
                name=f"cd_{comparison.perspective}",
                caption=_caption(comparison, style),
                figure=critical_difference_diagram(comparison, style),
            )
        )
    return specs


def _caption(c: PerspectiveComparison, style: FigureStyle) -> str:
    """What this diagram shows; how to read it is said once, before the diagrams
    (:func:`reading`), not under each of them."""
    caption = (
        f"Critical-difference diagram, ranking by {PERSPECTIVE_TITLES[c.perspective]}: mean "
        f"ranks over N = {c.n_problems} problems (1 = best), "
        f"CD = {c.q_alpha:.3f} × √({c.n_algorithms}·{c.n_algorithms + 1}/(6·{c.n_problems})) "
        f"= {c.critical_difference:.2f}, Holm's control {style.label(c.control)}"
    )
    conflicts = c.holm_nemenyi_conflicts()
    if conflicts:
        caption += (
            f"; here Holm separates {', '.join(style.label(a) for a in conflicts)} from "
            f"{style.label(c.control)}, which a bar joins"
        )
    caption += "."
    ranks = {str(a): float(r) for a, r in c.mean_ranks.items()}
    ties: dict[float, list[str]] = {}
    for a, r in ranks.items():  # to 9 decimals: equal averages of the same integer ranks
        ties.setdefault(round(r, 9), []).append(style.label(a))
    for rank, tied in sorted(ties.items()):
        if len(tied) > 1:
            caption += f" {', '.join(tied[:-1])} and {tied[-1]} tie at mean rank {rank:.2f}."
    if c.perspective == "efficiency":
        caption += " " + EFFICIENCY_CAVEAT
    return caption


def reading(result: PerspectivesResult, holm_csv: str, again: bool = False) -> str:
    """How to read the critical-difference diagrams, said once before them.

    ``holm_csv`` is where z and p of Holm's comparisons are (the Holm tables themselves are in
    the HTML report only: the diagrams mark their verdicts). ``again``: a second perspectives
    section of the study (a subset of the problems), whose reader has read the first.
    """
    alpha = result.comparisons[0].alpha if result.comparisons else 0.05
    where = f"z and p of Holm's comparisons: the Holm tables of the HTML report, and {holm_csv}"
    if again:
        return (
            f"The diagrams read as the first perspectives section's: a thick bar joins "
            f"algorithms the Nemenyi test at α = {alpha:g} does not separate; bold: Holm's "
            f"control; asterisk: significantly different from it by Holm's procedure; markers "
            f"of (nearly) equal mean ranks stacked below the scale. {where}."
        )
    return (
        "Reading the critical-difference diagrams: each shows the algorithms' mean ranks over "
        "the problems on a scale from 1 (best, left; markers of equal or nearly equal mean "
        "ranks stacked below it), and above it the critical difference "
        "CD = q_α √(k(k+1)/(6N)) of k algorithms on N problems. Algorithms joined by a thick "
        f"bar do not differ significantly by the Nemenyi test at α = {alpha:g}. The control of "
        "Holm's procedure is in bold; an asterisk marks each algorithm Holm's procedure finds "
        "significantly different from it. Nemenyi tests all pairs with one critical "
        "difference; Holm tests each algorithm against the control only, step-down, and is "
        f"more powerful, so the two can differ. {where}."
    )


def _scale_in(k: int) -> float:
    """Width of the rank scale in inches: wider beyond 12 algorithms."""
    return _SCALE_IN if k <= 12 else _SCALE_IN + 0.08 * (k - 12)


def marker_levels(c: PerspectiveComparison) -> dict[str, int]:
    """How far below the scale each algorithm's rank marker is stacked, in steps.

    Two algorithms with equal (or nearly equal) mean ranks would have their markers drawn on
    top of each other, one hidden: each marker goes on the highest level (0 = on the scale)
    where it keeps a marker's width from every marker already placed, in rank order, so a tie
    shows as markers one under another on the same vertical line.
    """
    ranks = {str(a): float(r) for a, r in c.mean_ranks.items()}
    position = {a: i for i, a in enumerate(ranks)}
    inches_per_rank = _scale_in(c.n_algorithms) / max(c.n_algorithms - 1, 1)
    clearance = (_MARKER_PT + 1.0) / 72 / inches_per_rank  # in ranks: diameter and edges
    placed: list[list[float]] = []
    levels = {}
    for a in sorted(ranks, key=lambda a: (ranks[a], position[a])):
        level = next(
            (i for i, xs in enumerate(placed) if all(abs(ranks[a] - x) >= clearance for x in xs)),
            len(placed),
        )
        if level == len(placed):
            placed.append([])
        placed[level].append(ranks[a])
        levels[a] = level
    return levels


def _levels(groups: tuple[tuple[str, ...], ...], ranks: dict[str, float]) -> list[int]:
    """Stack group bars: each bar on the first level where it does not overlap another."""
    ends: list[float] = []
    levels = []
    for group in groups:
        start, end = ranks[group[0]], ranks[group[-1]]
        for level, last_end in enumerate(ends):
            if start > last_end + 0.15:
                ends[level] = end
                levels.append(level)
                break
        else:
            ends.append(end)
            levels.append(len(ends) - 1)
    return levels


def _tick_step(k: int) -> int:
    if k <= 12:
        return 1
    if k <= 24:
        return 2
    return 5


def critical_difference_diagram(c: PerspectiveComparison, style: FigureStyle) -> Figure:
    """Draw the CD diagram of one perspective (object-oriented matplotlib only)."""
    k = c.n_algorithms
    ranks = {str(a): float(r) for a, r in c.mean_ranks.items()}
    position = {a: i for i, a in enumerate(ranks)}
    ordered = sorted(ranks, key=lambda a: (ranks[a], position[a]))
    n_left = math.ceil(k / 2)
    left, right = ordered[:n_left], ordered[n_left:][::-1]  # right: worst at the top row

    levels = _levels(c.cd_groups, ranks)
    n_levels = max(levels) + 1 if levels else 0
    stacked = marker_levels(c)
    stack = _STACK_STEP * max(stacked.values(), default=0)
    # Stacked markers take their room first from the margins above the CD label and below the
    # last label row and from the gap above the first label row (0.2, 0.3 and 0.2 rows of
    # their 0.3, 0.7 and 0.45): up to two levels of ties barely change the diagram's height,
    # and the report keeps its pages.
    trim = min(stack, 0.7) / 0.7
    group_top = -0.55 - stack
    group_step = 0.4
    first_row = group_top - group_step * n_levels - 0.45 + 0.2 * trim
    row_step = 1.0
    last_row = first_row - row_step * (max(len(left), len(right)) - 1)
    top, bottom = _CD_Y + 0.6 - 0.2 * trim, last_row - 0.7 + 0.3 * trim
    height_in = (top - bottom) * _UNIT_IN

    # Width: the scale plus room for the longest label on each side.
    rejected = set(c.rejected)
    label_text = {
        a: f"{style.label(a)} ({ranks[a]:.2f})" + (" *" if a in rejected else "") for a in ordered
    }
    left_in = _CHAR_IN * max(len(label_text[a]) for a in left) + 0.35
    right_in = _CHAR_IN * max((len(label_text[a]) for a in right), default=0) + 0.35
    scale_in = _scale_in(k)
    width_in = left_in + scale_in + right_in
    figure = Figure(figsize=(width_in, height_in), layout=None)
    ax: Axes = figure.add_axes((left_in / width_in, 0.0, scale_in / width_in, 1.0))
    ax.set_axis_off()
    span = max(k - 1, 1)
    ax.set_xlim(1, 1 + span)
    ax.set_ylim(bottom, top)

    # The rank scale: 1 (best) on the left.
    ax.plot([1, 1 + span], [0, 0], color="black", lw=1.0, clip_on=False)
    step = _tick_step(k)
    for tick in range(1, k + 1):
        labelled = tick == 1 or tick % step == 0 or tick == k
        ax.plot([tick, tick], [0, 0.35 if labelled else 0.2], color="black", lw=0.8)
        if labelled:
            ax.text(tick, 0.5, str(tick), ha="center", va="bottom", fontsize=_FONT)

    # The critical difference above the scale, from rank 1.
    cd_y = _CD_Y
    ax.plot([1, 1 + c.critical_difference], [cd_y, cd_y], color="black", lw=1.2, clip_on=False)
    for x in (1, 1 + c.critical_difference):
        ax.plot([x, x], [cd_y - 0.15, cd_y + 0.15], color="black", lw=1.2, clip_on=False)
    ax.text(
        1 + c.critical_difference + 0.02 * span,
        cd_y,
        f"CD = {c.critical_difference:.2f}",
        ha="left",
        va="center",
        fontsize=_FONT,
    )

    # Each algorithm: marker on the scale, elbow line to its label.
    edge = 0.04 * span
    for side, names in (("left", left), ("right", right)):
        for row, name in enumerate(names):
            rank = ranks[name]
            y = first_row - row_step * row
            x_end = 1 - edge if side == "left" else 1 + span + edge
            ax.plot([rank, rank, x_end], [0, y, y], color="0.35", lw=0.8, clip_on=False)
            algorithm_style = style.of(name)
            ax.plot(
                [rank],
                [-_STACK_STEP * stacked[name]],  # on its own elbow line, below a tied marker
                marker=algorithm_style.marker,
                color=algorithm_style.color,
                markeredgecolor="black",
                markeredgewidth=0.5,
                markersize=_MARKER_PT,
                clip_on=False,
                zorder=3,
            )
            ax.text(
                x_end + (-0.01 if side == "left" else 0.01) * span,
                y,
                label_text[name],
                ha="right" if side == "left" else "left",
                va="center",
                fontsize=_FONT,
                fontweight="bold" if name == c.control else "normal",
                clip_on=False,
            )

    # Groups without significant difference: thick bars under the scale.
    for group, level in zip(c.cd_groups, levels, strict=True):
        y = group_top - group_step * level
        ax.plot(
            [ranks[group[0]] - 0.08, ranks[group[-1]] + 0.08],
            [y, y],
            color="black",
            lw=3.0,
            solid_capstyle="butt",
            clip_on=False,
        )
    return figure
