"""The report section of the problem table: the paper-layout tables and the W/T/L summary.

One display table per dimension (and per block of at most :data:`MAX_ALGORITHM_COLUMNS`
algorithms, the reference repeated in each, so a table fits a landscape page): one row per
problem (one line per shown statistic), one column per algorithm, ``mean ± SD`` followed by the
marker, the best per row in bold, and the W/T/L row at the bottom. The pipeline writes each as
booktabs LaTeX (``tables/<id>/report_<name>.tex``).

Decision: a row whose bold value prints like a cell that is not bold gets more significant
digits (up to :data:`MAX_DIGITS`), so that the bold is visibly earned: published_table's F10
(D=10) printed "**100 ± 0.036**" beside "100 ± 0.0239" (means 100.156 and 100.193 at three
digits), a first place the reader could not see. Only the central value (mean, median, best,
worst) gets them: the spread beside it (SD, IQR) keeps the table's digits, which are all a
spread's own sampling error leaves meaningful. A pair of values that even :data:`MAX_DIGITS`
cannot print apart (cec2017's f22: DES's median 100.00000001 against 100) adds no digit:
eight digits that still print alike only cost the row its legibility ("100
(1.7770986×10⁻⁸)").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from reportgen.analyses.problem_table import (
    BETTER,
    CENTRAL,
    OVERALL,
    SIMILAR,
    WORSE,
    Cell,
    ProblemTableResult,
)
from reportgen.figures.style import FigureStyle
from reportgen.narrative.problem_table import findings, wtl_text
from reportgen.present.format import counted, evaluations, fixed, number, power_of_ten
from reportgen.render.blocks import Block, Prose, Section, TableBlock, Text
from reportgen.spec.analyses.problem_table import ProblemTableOptions

MAX_ALGORITHM_COLUMNS = 7
"""Algorithm columns per display table; more algorithms are split over several tables."""

STATISTIC_LABELS = {
    "mean_sd": "mean ± SD",
    "median_iqr": "median (IQR)",
    "best": "best",
    "worst": "worst",
}


NBSP = "\u00a0"
"""Joins the spread and the marker to their number, so a narrow cell wraps only after the mean."""


def _cell_text(cell: Cell, statistic: str, digits: int, spread_digits: int) -> str:
    """The cell's central value at ``digits``, its spread (SD, IQR) at ``spread_digits``."""
    if statistic == "mean_sd":
        if math.isnan(cell.std):
            return number(cell.mean, digits)
        return f"{number(cell.mean, digits)} ±{NBSP}{number(cell.std, spread_digits)}"
    if statistic == "median_iqr":
        return f"{number(cell.median, digits)} ({number(cell.iqr, spread_digits)})"
    return number(cell.statistic(CENTRAL[statistic]), digits)


MAX_DIGITS = 8
"""Most significant digits a row gets to print its best value apart from the others."""


def _row_digits(cells: Sequence[Cell], statistic: str, best: set[str], digits: int) -> int:
    """The significant digits (at least ``digits``) at which every best value of the row
    prints apart from every other value of the row that :data:`MAX_DIGITS` digits can print
    apart from it (see the module docstring)."""
    key = CENTRAL[statistic]
    bold = [c.statistic(key) for c in cells if c.algorithm in best]
    plain = [c.statistic(key) for c in cells if c.algorithm not in best]
    needed = digits
    for a in bold:
        for b in plain:
            apart = next(
                (d for d in range(digits, MAX_DIGITS + 1) if number(a, d) != number(b, d)), None
            )
            if apart is not None:
                needed = max(needed, apart)
    return needed


def _against_the_marker(
    result: ProblemTableResult, problems: Sequence[tuple[str, int]], style: FigureStyle
) -> str:
    """A sentence when a marker points against the shown statistic: cec2017_profiles' f21
    printed PPSO's mean 104 in bold beside the reference's 114 with "−" (significantly worse),
    which reads as a contradiction unless the legend says what the marker compares. Each cell
    says which way it points: "the mean is better and the marker says worse, or the reverse"
    left the reader to work out which (quickstart's only such cell was the reverse)."""
    key = CENTRAL[result.statistics[0]]
    name = STATISTIC_LABELS[result.statistics[0]].split(" ")[0]
    against = []
    for problem, dimension in problems:
        row = {c.algorithm: c for c in result.row(problem, dimension)}
        reference = row.get(result.reference)
        if reference is None:
            continue
        for cell in row.values():
            where = f"{style.label(cell.algorithm)} on {problem}"
            if cell.marker == WORSE and cell.statistic(key) < reference.statistic(key):
                against.append(f"{where}: better {name}, marked worse")
            elif cell.marker == BETTER and cell.statistic(key) > reference.statistic(key):
                against.append(f"{where}: worse {name}, marked better")
    if not against:
        return ""
    return (
        f" A marker tests the runs (by their ranks), not the {name}s, and can point against "
        f"them: in {counted(len(against), 'cell')} the {name} and the marker disagree "
        f"({'; '.join(against[:3])}{'; …' if len(against) > 3 else ''})."
    )


def _legend(
    result: ProblemTableResult, style: FigureStyle, problems: Sequence[tuple[str, int]]
) -> str:
    if not result.tested:
        return "No tests: the data holds published statistics, not runs."
    correction = {
        "holm": "Holm-corrected over the problems",
        "bonferroni": "Bonferroni-corrected over the problems",
        "none": "not corrected for multiple testing",
    }[result.correction]
    return (
        f"Markers from the column algorithm's side against the reference "
        f"{style.label(result.reference)}: {BETTER} significantly better, {WORSE} significantly worse, "
        f"{SIMILAR} no significant difference (two-sided Mann–Whitney U test, {correction}, "
        f"α = {result.alpha:g}). W/T/L: how often +, ≈ and − occur."
        + _against_the_marker(result, problems, style)
    )


def _column_blocks(result: ProblemTableResult) -> list[list[str]]:
    """Algorithms split into tables of at most MAX_ALGORITHM_COLUMNS, reference in each."""
    others = [a for a in result.algorithms if a != result.reference]
    if len(result.algorithms) <= MAX_ALGORITHM_COLUMNS:
        return [list(result.algorithms)]
    size = MAX_ALGORITHM_COLUMNS - 1
    n_blocks = math.ceil(len(others) / size)
    size = math.ceil(len(others) / n_blocks)  # balanced blocks
    return [[result.reference, *others[i : i + size]] for i in range(0, len(others), size)]


def _paper_tables(
    result: ProblemTableResult, options: ProblemTableOptions, style: FigureStyle
) -> list[TableBlock]:
    blocks: list[TableBlock] = []
    dimensions = sorted({d for _, d in result.problems})
    column_blocks = _column_blocks(result)
    several_lines = len(result.statistics) > 1
    for dimension in dimensions:
        problems = [(p, d) for p, d in result.problems if d == dimension]
        group = OVERALL if len(dimensions) == 1 else f"D={dimension}"
        for b, algorithms in enumerate(column_blocks):
            rows: list[dict[str, str]] = []
            bold_rows: list[dict[str, bool]] = []
            for problem, dim in problems:
                for k, statistic in enumerate(result.statistics):
                    best = set(result.best_in_row(problem, dim, statistic))
                    digits = _row_digits(result.row(problem, dim), statistic, best, options.digits)
                    row = {"problem": problem if k == 0 else ""}
                    if several_lines:
                        row["statistic"] = STATISTIC_LABELS[statistic]
                    mask = {c: False for c in row}
                    for algorithm in algorithms:
                        cell = next(
                            (c for c in result.row(problem, dim) if c.algorithm == algorithm),
                            None,
                        )
                        column = style.label(algorithm)
                        if cell is None:
                            row[column], mask[column] = "–", False
                            continue
                        text = _cell_text(cell, statistic, digits, options.digits)
                        if k == 0 and cell.marker:
                            text += f"{NBSP}{cell.marker}"
                        row[column] = text
                        mask[column] = algorithm in best
                    rows.append(row)
                    bold_rows.append(mask)
            if result.tested:
                row = {"problem": "W/T/L"}
                if several_lines:
                    row["statistic"] = ""
                for algorithm in algorithms:
                    row[style.label(algorithm)] = (
                        "reference"
                        if algorithm == result.reference
                        else wtl_text(result.win_tie_loss(algorithm, group))
                    )
                rows.append(row)
                bold_rows.append({c: False for c in row})
            frame = pd.DataFrame(rows)
            bold = pd.DataFrame(bold_rows, columns=frame.columns).fillna(False).astype(bool)
            where = f"{dimension}-D" if dimension else "all problems"
            part = (
                f" (algorithms {b + 1} of {len(column_blocks)} blocks; the reference is in each)"
                if len(column_blocks) > 1
                else ""
            )
            shown = " / ".join(STATISTIC_LABELS[s] for s in result.statistics)
            shown = shown[:1].upper() + shown[1:]  # a caption opens with a capital, as all do
            blocks.append(
                TableBlock(
                    name=f"problem_table_{dimension}D"
                    + (f"_{b + 1}" if len(column_blocks) > 1 else ""),
                    caption=f"{shown} of the final values per problem, {where}{part}; the best "
                    f"{STATISTIC_LABELS[result.statistics[0]].split(' ')[0]} per row in bold.",
                    frame=frame,
                    bold=bold,
                    notes=_legend(result, style, problems),
                    # Split over several column blocks (many algorithms), the tables are pages
                    # of raw numbers: print carries the W/T/L summary, the HTML and the .tex
                    # files every cell. One block, or no test to summarise, prints.
                    in_print=len(column_blocks) == 1 or not result.tested,
                )
            )
    return blocks


def _summary_table(result: ProblemTableResult, style: FigureStyle) -> TableBlock:
    """Per algorithm: W/T/L per group, the median A12 and the count of large effects."""
    groups = result.groups
    rows = []
    for algorithm in result.algorithms:
        if algorithm == result.reference:
            continue
        cells = result.comparisons(algorithm)
        row = {"algorithm": style.label(algorithm)}
        for group in groups:
            row[f"W/T/L ({group})"] = wtl_text(result.win_tie_loss(algorithm, group))
        row["median A12"] = fixed(result.median_a12(algorithm))
        row["large +"] = str(sum(c.marker == BETTER and c.magnitude == "large" for c in cells))
        row["large −"] = str(sum(c.marker == WORSE and c.magnitude == "large" for c in cells))
        rows.append(row)
    return TableBlock(
        name="win_tie_loss",
        caption=f"Wins, ties and losses against {style.label(result.reference)} per algorithm "
        "(significantly better / no significant difference / significantly worse), the median "
        "Vargha–Delaney A12 over the problems (> 0.5: the algorithm's runs tend to be better), "
        "and the number of significant differences with a large effect in its favour (+) and "
        "against it (−).",
        frame=pd.DataFrame(rows),
    )


def build_section(
    result: ProblemTableResult, options: ProblemTableOptions, style: FigureStyle
) -> Section:
    """Intro, findings, the W/T/L summary and the paper-layout tables."""
    if result.tested:
        intro = (
            "The table papers print first: per problem, each algorithm's statistics over its "
            "runs, the best in bold, and a marker from a rank-sum test of its runs against the "
            f"reference algorithm {style.label(result.reference)}, from the algorithm's side "
            "(+ better, − worse, ≈ no significant difference)."
        )
    else:  # published statistics: no runs, so no test and no reference to test against
        intro = (
            "The table papers print first: per problem, each algorithm's published statistics, "
            "the best in bold. Without the runs there is no rank-sum test, so no markers."
        )
    if result.budget:
        budgets = ", ".join(
            f"{evaluations(b)} (D={d})" if d else evaluations(b) for d, b in result.budget.items()
        )
        intro += f" Each run's value is read at {budgets} evaluations."
    intro += (
        " The table ranks no algorithm among the others — each is compared with the reference "
        "only — so the executive summary's ranking uncertainty has no row for it; how sure each "
        "comparison is, its test says."
        if result.tested
        else " The table ranks no algorithm, so the executive summary's ranking uncertainty "
        "has no row for it."
    )
    blocks: list[Block] = [Text(intro), Prose(tuple(findings(result, style)), as_list=True)]
    if result.tested:
        blocks.append(_summary_table(result, style))
    blocks.extend(_paper_tables(result, options, style))
    correction = {
        "holm": "Holm's step-down adjustment over the problems, per algorithm: with "
        "$p_{(1)} \\le \\dots \\le p_{(M)}$, $\\tilde p_{(j)} = \\max_{k \\le j} "
        "\\min(1, (M-k+1)\\,p_{(k)})$",
        "bonferroni": "Bonferroni's adjustment over the $M$ problems, per algorithm: "
        "$\\tilde p = \\min(1, M p)$",
        "none": "no correction for multiple testing ($\\tilde p = p$)",
    }[result.correction]
    methods = [
        "Per problem, the runs $x$ ($n$ of them) of each algorithm are compared with the runs "
        "$y$ ($m$) of the reference by the two-sided Wilcoxon rank-sum / Mann–Whitney U test "
        "(scipy.stats.mannwhitneyu, method auto: exact without ties for small samples, else "
        f"the normal approximation with tie and continuity correction); {correction}. A "
        f"difference is significant when $\\tilde p \\le \\alpha = {result.alpha:g}$; the marker "
        "is + when the algorithm's runs are the better ones ($A_{12} > 0.5$), − otherwise.",
        "Effect size (Vargha & Delaney 2000): $A_{12} = P(x < y) + \\tfrac12 P(x = y) = "
        "1 - U_x/(nm)$, the probability that a run of the algorithm is better than a run of "
        "the reference, ties counting half; negligible when $|A_{12} - 0.5| < 0.06$, small "
        "below 0.14, medium below 0.21, large above.",
        "Statistics per problem and algorithm: mean, sample standard deviation ($n - 1$), "
        "median, quartiles (linear interpolation), IQR $= Q_3 - Q_1$, best and worst run. "
        + (
            "The reference is the algorithm with the best average rank of the first shown "
            "statistic over the problems."
            if result.reference_rule == "best"
            else f"The reference {result.reference} is named in the study."
        )
        + (
            f" Values below {power_of_ten(options.value_floor)} were raised to it."
            if options.value_floor is not None
            else ""
        ),
    ]
    return Section(
        id=options.id or options.kind,
        title=options.title or "Per-problem comparison",
        blocks=tuple(blocks),
        methods=tuple(methods),
    )
