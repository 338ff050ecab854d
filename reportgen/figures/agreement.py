"""Heat maps of the executive summary: Kendall's τ-b between the counted rankings, and each
algorithm's probability of ranking first (with its 95 % rank interval) per resampled ranking."""

from __future__ import annotations

import math
import textwrap

import numpy as np
from matplotlib.figure import Figure

from reportgen.figures.style import (
    CELL_NUMBER,
    PRINT_WIDTH,
    FigureSpec,
    FigureStyle,
    text_colour_on,
    text_width,
)
from reportgen.present.format import fixed
from reportgen.synthesis.summary import SynthesisResult
from reportgen.synthesis.uncertainty import ALL, RUNS_MARK, TWO_STAGE

CELL_PT = 7.5
"""Size of the numbers in the cells of the agreement map (points)."""

CELL_WIDTH = text_width("−0.00", CELL_PT) + 0.08
"""Inches a column of the agreement map needs: its widest number, "−0.33", and room either
side (0.39 in). Narrower, the numbers of neighbouring cells ran into each other."""

CELL_HEIGHT = 0.32
"""Inches a row of the agreement map takes when its name is one line."""

BESIDE_MAP = 1.2
"""Inches of the agreement figure beside its map and row names: colour bar, its numbers and
label, margins."""


def row_names(names: list[str], columns: int) -> tuple[list[str], float]:
    """``names`` wrapped so that ``columns`` columns of :data:`CELL_WIDTH` fit the print width
    beside them, and the width (in) of their widest line.

    A name is wrapped only where it must be, on two lines at most (three made the map a page
    tall): the CEC 2022 example's "U-score total (U-scores at fractions of the budget) (2)" is
    2.9 in at 8 pt, which left its eleven columns 0.24 in. "λ = 2" stays on one line.
    """
    names = [name.replace(" = ", "\u00a0=\u00a0") for name in names]
    room = PRINT_WIDTH - BESIDE_MAP - columns * CELL_WIDTH

    space = text_width("a a", 8) - 2 * text_width("a", 8)

    def widest(wrapped: list[str]) -> float:
        # A line as its words and spaces: the words recur from wrap to wrap (measured once).
        return max(
            sum(text_width(word, 8) for word in line.split(" ")) + space * line.count(" ")
            for name in wrapped
            for line in name.splitlines()
        )

    wrapped = names
    for chars in range(max(len(name) for name in names) - 1, 12, -1):
        if widest(wrapped) <= room:
            break
        shorter = [textwrap.fill(name, chars) for name in names]
        if max(name.count("\n") for name in shorter) > 1:
            break
        wrapped = shorter
    return wrapped, widest(wrapped) + 0.1


def agreement_figure(result: SynthesisResult) -> FigureSpec | None:
    """Heat map of Kendall's τ-b between every pair of counted rankings (None with fewer than
    three, or when every pair agrees perfectly).

    With two rankings the one number is in the summary's sentence; a 2 × 2 map adds nothing.
    Nor does a map whose every cell reads 1.00: the summary's sentence says that all rankings
    order the algorithms identically.
    """
    counted = result.counted
    if len(counted) < 3:
        return None
    labels = [r.label for r in counted]
    tau = result.agreement.tau.to_numpy(dtype=float)
    if np.isfinite(tau).all() and bool(np.all(tau == 1.0)):
        return None
    n = len(labels)
    # Columns numbered, rows named with their numbers: the names stand once, horizontally,
    # instead of a second time rotated under the map (which made the map a full page tall).
    names, label_width = row_names([f"{label} ({i + 1})" for i, label in enumerate(labels)], n)
    lines = max(name.count("\n") + 1 for name in names)
    cell = max(CELL_HEIGHT, 0.135 * lines + 0.08)  # a row holds its name's lines, 8 pt each
    width = n * CELL_WIDTH + label_width + BESIDE_MAP
    fig = Figure(
        figsize=(min(PRINT_WIDTH, max(4.0, width)), n * cell + 0.7),
        layout="constrained",
    )
    ax = fig.add_subplot()
    # aspect "auto": a square map next to long row names overflowed the capped width.
    image = ax.imshow(np.ma.masked_invalid(tau), cmap="RdBu", vmin=-1, vmax=1, aspect="auto")
    ax.set_xticks(range(n), [str(i + 1) for i in range(n)], fontsize=8)
    ax.set_yticks(range(n), names, fontsize=8)
    for i in range(n):
        for j in range(n):
            value = tau[i, j]
            text = fixed(value)  # "−0.33" with a minus sign, as the report's text; NaN "–"
            ax.text(
                j,
                i,
                text,
                fontsize=CELL_PT,
                color=text_colour_on(image.to_rgba(value)),
                **CELL_NUMBER,
            )
    colorbar = fig.colorbar(image, ax=ax, shrink=0.9)
    colorbar.set_label("Kendall's τ-b", fontsize=8)
    colorbar.ax.tick_params(labelsize=8)
    return FigureSpec(
        name="kendall_tau",
        caption="Agreement between the counted rankings the analyses produce: Kendall's τ-b (1 = same "
        "order, −1 = reversed, – = undefined); column j is the ranking numbered (j) on the left. "
        "Inconclusive rankings and rankings that tie every algorithm are left out.",
        figure=fig,
    )


NAME_PT = 8.0
"""Size of the column names of :func:`uncertainty_figure` (points)."""

NAME_ROTATIONS = (30, 45, 60, 90)
"""The angles a column name may be turned by, least first (a steeper one needs more height)."""


def _sin(degrees: float) -> float:
    return math.sin(math.radians(degrees))


def names_thickness(lines: int) -> float:
    """Points across ``lines`` lines of a name at :data:`NAME_PT` (matplotlib's 1.2 line
    spacing; measured: 9.0, 21.2 and 31.8 pt for one to three lines of DejaVu Sans 8 pt)."""
    return NAME_PT * (1.2 + 1.45 * (lines - 1))


def column_names(labels: list[str], pitch: float) -> tuple[list[str], float]:
    """``labels`` wrapped, and the angle to turn them by, for columns ``pitch`` inches apart.

    Names turned by an angle θ and anchored at their columns are parallel strips
    ``pitch · sin θ`` apart: a strip thicker than that (more lines) overlaps its neighbour.
    Names are wrapped at 24 characters (three lines at most: rotated whole, a long name took a
    third of the figure's height) and turned by the least angle of :data:`NAME_ROTATIONS` at
    which their lines fit; where none fits, wrapped wider, on fewer lines, till one does.
    """
    longest = max(len(label) for label in labels)
    for lines in range(3, 0, -1):
        chars = 24 if lines == 3 else max(24, -(-longest // lines))
        names = [textwrap.fill(label, chars) for label in labels]
        while max(n.count("\n") + 1 for n in names) > lines:
            chars += 1
            names = [textwrap.fill(label, chars) for label in labels]
        for rotation in NAME_ROTATIONS:
            if pitch * 72 * _sin(rotation) >= names_thickness(lines):
                return names, rotation
    return labels, 90  # columns under 0.13 in apart (over 40 on a page): none fits


def uncertainty_figure(result: SynthesisResult, style: FigureStyle) -> FigureSpec | None:
    """Algorithms × resampled rankings: ``p_first`` as colour, the 95 % rank interval as text."""
    # Per-dimension rows: in the CSV and the findings.
    table = result.uncertainty.by_ranking(ALL)
    if not table:
        return None
    label = {r.id: r.label for r in result.rankings}
    ids = list(table)
    algorithms = list(result.algorithms)
    p = np.full((len(algorithms), len(ids)), np.nan)
    text = [["" for _ in ids] for _ in algorithms]
    for j, ranking_id in enumerate(ids):
        for row in table[ranking_id].values():
            i = algorithms.index(row.algorithm)
            p[i, j] = row.p_first
            low, high = row.rank_low, row.rank_high
            text[i][j] = f"{row.p_first:.2f}\n{low}" + ("" if low == high else f"–{high}")
    runs = result.uncertainty.runs_resampled()
    # No-break spaces keep "σ = 0.5" on one line and the mark on its name's last line: alone on
    # a line of its own it read as a label of its own.
    mark = RUNS_MARK.replace(" ", "\u00a0")
    full = [label[i].replace(" = ", "\u00a0=\u00a0") + (mark if i in runs else "") for i in ids]
    width = 2.2 + 0.95 * len(ids) + 0.06 * max(len(style.label(a)) for a in algorithms)
    # At most the print width (cells narrow as rankings multiply), so the cells' text prints
    # at 7 pt rather than shrunk with the figure; the columns' names then turn steeper.
    beside_map = width - 0.95 * len(ids)  # row names, colour bar, margins
    names, rotation = column_names(full, (min(PRINT_WIDTH, width) - beside_map) / len(ids))
    longest = max(len(line) for n in names for line in n.splitlines())
    # 0.27 in a row: two lines of 7 pt (0.2 in) with room; 0.045 in a character of a name
    # turned by 55° (0.053 in wide at 8 pt), more turned steeper.
    height = 1.2 + 0.27 * len(algorithms) + 0.045 * longest * max(1.0, _sin(rotation) / _sin(55))
    fig = Figure(figsize=(min(PRINT_WIDTH, max(4.0, width)), height), layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(np.ma.masked_invalid(p), cmap="Blues", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(
        range(len(ids)),
        names,
        rotation=rotation,
        ha="right",
        rotation_mode="anchor",
        fontsize=NAME_PT,
    )
    ax.set_yticks(range(len(algorithms)), [style.label(a) for a in algorithms], fontsize=8)
    for i in range(len(algorithms)):
        for j in range(len(ids)):
            ax.text(
                j,
                i,
                text[i][j] or "–",
                fontsize=7,
                color=text_colour_on(image.to_rgba(p[i, j])),
                **CELL_NUMBER,
            )
    colorbar = fig.colorbar(image, ax=ax, shrink=0.8)
    colorbar.set_label("probability of ranking first", fontsize=8)
    colorbar.ax.tick_params(labelsize=8)
    return FigureSpec(
        name="ranking_uncertainty",
        caption=f"How sure each ranking is: the probability p_first (colour and upper number) that each "
        f"algorithm ranks first over {result.uncertainty.resamples} bootstrap resamples of the problems (seed "
        f"{result.uncertainty.seed}), and the 95 % interval of its rank (lower number)."
        + (f" {TWO_STAGE}" if runs else ""),
        figure=fig,
    )
