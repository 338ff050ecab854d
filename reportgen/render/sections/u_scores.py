"""Report section of the U-scores analysis (Price, Kumar & Suganthan).

Order: intro, findings, the bar chart (Fig. 8), the totals table (Table 7 layout, best per
column in bold), ranks over cut-points (figure and table) when the analysis has cut-points, the
critical weights (Table 8 layout), U-scores per problem, the problem difficulty ranking,
pairwise heat maps, the win/tie/loss matrix and, for a few algorithms, the pairwise U-score
matrix (Table 6 layout). A cut-point analysis prints only up to its cut-point table; the rest,
its full-budget detail, is in the HTML and the files. Cells are formatted here; nothing is
recomputed.

Decision: a caveat is said once in the section. The cut-point table under the rank figure
refers to the figure's caption for the states the cut-points show, and to the findings for the
successes that tie between records, instead of repeating them (see
:func:`_recorded_states_note`).
"""

from __future__ import annotations

import dataclasses
import math

import pandas as pd

from reportgen.analyses.u_scores import UScoresResult
from reportgen.data.frames import problem_label
from reportgen.figures.style import FigureStyle
from reportgen.figures.u_scores import figures
from reportgen.narrative.u_scores import findings, weight_text
from reportgen.present.format import evaluations, power_of_ten, share, u_text
from reportgen.render.blocks import (
    Block,
    FigureBlock,
    Prose,
    Section,
    TableBlock,
    Text,
    figure_blocks,
)
from reportgen.spec.analyses.u_scores import UScoresOptions

MATRIX_MAX_ALGORITHMS = 15
"""Largest number of algorithms for which algorithm × algorithm tables are displayed (the CSV
tables always hold every pair)."""


def _no_bold(frame: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(False, index=frame.index, columns=frame.columns)


def _totals_table(result: UScoresResult, style: FigureStyle) -> TableBlock:
    standings = result.standings()
    several = len(result.groups) > 1
    columns: dict[str, list[float]] = {
        g: [s.group_totals[g] for s in standings] for g in (result.groups if several else ())
    }
    columns["Total"] = [s.total for s in standings]
    if result.weights is not None:
        columns["Weighted total"] = [s.score for s in standings]
    cells = pd.DataFrame(
        {
            "Rank": [str(s.rank) for s in standings],
            "Algorithm": [style.label(s.algorithm) for s in standings],
        }
    )
    bold = _no_bold(cells)
    for heading, values in columns.items():
        top = max(values)
        cells[heading] = [u_text(v) for v in values]
        bold[heading] = [v == top for v in values]
        if several and heading in result.groups:
            cells[heading] = [
                f"{text} ({s.group_ranks[heading]})"
                for text, s in zip(cells[heading], standings, strict=True)
            ]
    weights = ""
    if result.weights is not None:
        weights = " Weights: " + ", ".join(f"{g} × {w:g}" for g, w in result.weights.items())
        weights += "; ranks follow the weighted total."
    per_group = " (rank within the group in parentheses)" if len(result.groups) > 1 else ""
    return TableBlock(
        name="totals",
        caption=(
            f"U-score totals per group{per_group} and overall, with ranks; best per column in "
            f"bold (Price et al. Table 7 layout).{weights}"
        ),
        frame=cells,
        bold=bold,
    )


def _critical_tables(result: UScoresResult, style: FigureStyle) -> list[TableBlock]:
    tables = []
    for group in result.critical_groups():
        rows = result.critical_weights_of(group)
        cells = pd.DataFrame(
            {
                f"Weight of {group}": [
                    weight_text(r.weight)
                    if r.baseline
                    else ("≥ " if r.side == "above" else "≤ ") + weight_text(r.weight)
                    for r in rows
                ],
                "Swap": [
                    "(current weights)"
                    if r.baseline
                    else f"{style.label(r.passing)} passes {style.label(r.passed)}"
                    for r in rows
                ],
                "Current ranks in the new order": [r.order_by_baseline_rank for r in rows],
            }
        )
        others = ", ".join(
            f"{g} × {w:g}" for g, w in result.current_weights().items() if g != group
        )
        tables.append(
            TableBlock(
                name=f"critical_weights_{group.replace('=', '')}",
                caption=(
                    f"Critical weights of {group} (other weights fixed: {others}): every weight "
                    "at which two algorithms swap ranks, with the ranking beyond it, written as "
                    "the algorithms' current ranks in the new order (Price et al. Table 8 "
                    "layout)."
                ),
                frame=cells,
                bold=_no_bold(cells),
                notes="Weights below the current one list the ranking below them.",
            )
        )
    return tables


def _problem_table(result: UScoresResult, style: FigureStyle) -> TableBlock:
    instances = result.problem_instances()  # group by group, as the table lists them
    wide = result.u_score_matrix().reindex(index=pd.MultiIndex.from_tuples(instances))
    wide.index = pd.Index([problem_label(p, d) for p, d in instances])
    cells = wide.map(u_text)
    bold = wide.eq(wide.max(axis=1), axis=0)
    cells.columns = [style.label(a) for a in cells.columns]
    bold.columns = cells.columns
    cells.insert(0, "Problem", list(wide.index))
    bold.insert(0, "Problem", False)
    runs = result.run_counts()
    identity = ""
    if len(runs) == 1:
        n, m = runs[0], len(result.algorithms)
        identity = (
            f"; with n = {n} runs each a row sums to n²·m(m−1)/2 = {n * n * m * (m - 1) // 2}"
        )
    return TableBlock(
        name="u_scores",
        caption=(
            "U-score of each algorithm on each problem: its wins against every trial of every "
            f"other algorithm (best per row in bold{identity})."
        ),
        frame=cells.reset_index(drop=True),
        bold=bold.reset_index(drop=True),
        in_print=False,  # a value per problem and algorithm: the totals carry the argument
    )


def _difficulty_table(result: UScoresResult) -> TableBlock:
    rows = result.difficulties()
    cells = pd.DataFrame(
        {
            "Rank": [str(r.rank) for r in rows],
            "Problem": [
                problem_label(r.problem, r.dimension) if r.group == "all" else r.problem
                for r in rows
            ],
            "Functional U-score": [u_text(r.functional_u_score) for r in rows],
            "Comparisons won": [share(r.share) for r in rows],
            "Trials reaching the target": [share(r.success_rate) for r in rows],
        }
    )
    if len(result.groups) > 1:
        cells.insert(0, "Group", [r.group for r in rows])
    return TableBlock(
        name="difficulty",
        caption=(
            "Problems from easiest (rank 1) to hardest for this set of algorithms: functional "
            "U-scores, i.e. the wins of all trials on a problem against all trials on the other "
            "problems of its group (Price et al. §3.3)."
        ),
        frame=cells,
        bold=_no_bold(cells),
    )


def _recorded_states_note(result: UScoresResult, below_figure: bool) -> str:
    """Which state each cut-point really shows, and that successes tie (empty when exact).

    Both are said once in the section, each where it is read first: the states in the rank
    figure's caption (and in the findings' leaders), the ties in the findings. Under that figure
    the table refers to it; the three lists of states and two explanations of the ties on one
    page read as three caveats. Without the figure (too many algorithms to draw) the table
    lists the states itself.
    """
    if result.cutpoints is None:
        return ""
    labels = [result.cutpoint_label(c) for c in result.cutpoint_fractions()]
    shifted = [label for label in labels if "(state " in label]
    note = ""
    if shifted and below_figure:
        note += " Which state each cut-point shows: see the figure's caption."
    elif shifted:
        note += (
            " A cut-point shows each trial's latest record at or below c·B, which lies below "
            f"the nominal fraction where the histories are recorded at checkpoints: "
            f"{'; '.join(shifted)}."
        )
    if result.success_times is not None and result.success_times[1] < result.success_times[0]:
        # The findings say why (narrative.u_scores: success_times), on the same condition.
        note += " Successes between two records tie, as the findings above say."
    return note


def _cutpoint_table(result: UScoresResult, style: FigureStyle, below_figure: bool) -> TableBlock:
    final = [s.algorithm for s in result.standings()]
    ranks = {f"{c:g}": result.ranks_at_cutpoint(c) for c in result.cutpoint_fractions()}
    cells = pd.DataFrame({c: [str(at[a]) for a in final] for c, at in ranks.items()})
    bold = pd.DataFrame({c: [at[a] == 1 for a in final] for c, at in ranks.items()})
    cells.insert(0, "Algorithm", [style.label(a) for a in final])
    bold.insert(0, "Algorithm", False)
    what = "weighted total" if result.weights is not None else "total"
    plotted = ", the ranks the figure above plots" if below_figure else ""
    return TableBlock(
        name="cutpoint_ranks",
        caption=(
            f"Rank by the {what} U-score at each fraction of the budget (columns){plotted}; "
            f"the leader in bold.{_recorded_states_note(result, below_figure)}"
        ),
        frame=cells.reset_index(drop=True),
        bold=bold.reset_index(drop=True),
    )


def _win_tie_loss_table(result: UScoresResult, style: FigureStyle) -> TableBlock | None:
    algorithms = [s.algorithm for s in result.standings()]
    if len(algorithms) > MATRIX_MAX_ALGORITHMS:
        return None
    labels = [style.label(a) for a in algorithms]
    position = {a: i for i, a in enumerate(algorithms)}
    text = [["–"] * len(algorithms) for _ in algorithms]  # filled as lists: no .loc per cell
    for r in result.pair_records(result.headline_group()):
        a, b = position[r.a], position[r.b]
        text[a][b] = f"{r.wins}/{r.ties}/{r.losses}"
        text[b][a] = f"{r.losses}/{r.ties}/{r.wins}"
    cells = pd.DataFrame(text, index=labels, columns=labels)
    cells.insert(0, "Algorithm", labels)
    return TableBlock(
        name="win_tie_loss",
        caption=(
            "Problems on which the row algorithm is significantly better / not significantly "
            "different / significantly worse than the column algorithm, by two-sided "
            f"Mann–Whitney tests on the trials' dominance order at α = {result.alpha:g} "
            "(layout of Liu et al. Table I)."
        ),
        frame=cells.reset_index(drop=True),
        bold=_no_bold(cells).reset_index(drop=True),
        notes="No correction for multiple comparisons; per-problem p-values are in pairwise.csv.",
    )


def _pairwise_matrix_table(result: UScoresResult, style: FigureStyle) -> TableBlock | None:
    if len(result.algorithms) > 8:
        return None
    matrix = result.pairwise_matrix(result.headline_group())
    cells = matrix.map(lambda v: "—" if isinstance(v, float) and math.isnan(v) else u_text(v))
    cells.columns = [style.label(a) for a in matrix.columns]
    cells.insert(0, "vs.", [style.label(str(i)) for i in matrix.index])
    return TableBlock(
        name="pairwise_matrix",
        caption=(
            "Wins of the column algorithm against the row algorithm, summed over problems; the "
            "last row, their sum, is the column algorithm's U-score total (Price et al. "
            "Table 6 layout)."
        ),
        frame=cells.reset_index(drop=True),
        bold=_no_bold(cells).reset_index(drop=True),
    )


def _methods(result: UScoresResult) -> tuple[str, ...]:
    tie_break = (
        "two failures with equal final error: fewer evaluations used wins"
        + (
            " (with histories: the trial that reached that error first)"
            if result.input_format == "histories"
            else ""
        )
        if result.tie_break_applied
        else "two failures with equal final error tie"
    )
    paragraphs = [
        "U-scores (Price, Kumar & Suganthan): on each problem every trial of every algorithm is "
        "compared with every trial of every other algorithm. A trial is a success when its "
        f"final error is ≤ {power_of_ten(result.target)}; a success beats a failure, two "
        "successes compare their evaluations to target (fewer wins), two failures their final "
        f"errors (smaller wins); {tie_break}; otherwise each trial scores half a point.",
        "The U-score of algorithm $j$ on problem $k$ is its number of wins, "
        "$U_{j,k} = \\sum_{j' \\ne j}\\sum_{i,i'} ([t_{ijk} \\succ t_{i'j'k}] + "
        "\\tfrac12[t_{ijk} \\sim t_{i'j'k}])$, computed both by counting and as "
        "$U_{j,k} = R_{j,k} - n_j(n_j+1)/2$ with $R_{j,k}$ the sum of the ranks of its trials "
        "among all trials (best = highest rank, ties averaged); the two agree. With $n$ trials "
        "and $m$ algorithms, $\\sum_j U_{j,k} = n^2 m(m-1)/2$ for every problem. Totals are "
        "sums over the problems of a group and over groups"
        + (
            "; the weighted total is $\\sum_g w_g \\sum_{k \\in g} U_{j,k}$ with "
            + ", ".join(f"$w_{{{g}}} = {w:g}$" for g, w in result.weights.items())
            if result.weights is not None
            else ""
        )
        + ". Ranks: 1 = largest total; equal totals share the smaller rank.",
        "Pairwise tests: each trial is replaced by its place in the dominance order of all "
        "trials on the problem, and the two algorithms' places are compared by the two-sided "
        "Mann–Whitney U test (scipy.stats.mannwhitneyu; exact when the pair has no tied trial "
        "and at most 100 trials each, otherwise the normal approximation with tie and "
        "continuity correction); its statistic equals the pair's win count. At "
        f"$\\alpha = {result.alpha:g}$, $p < \\alpha$ counts as a significant win or loss, "
        "without correction for multiplicity.",
        "Critical weights (Price et al. Table 8): with the other groups' weights fixed, the "
        "weighted total of algorithm $a$ is $T_a(w) = C_a + w\\,G_a$ in the weight $w$ of one "
        "group; two algorithms swap ranks at $w^* = (C_b - C_a)/(G_a - G_b) > 0$. Every such "
        "weight is listed.",
        "Functional U-scores (§3.3): within a group, every trial on a problem is compared by the "
        "same order with every trial on every other problem; the number of wins ranks problems "
        "from easiest to hardest.",
    ]
    if result.cutpoints is not None:
        budget = ", ".join(f"D={d}: {evaluations(b)}" for d, b in (result.budget or {}).items())
        fractions = ", ".join(f"{c:g}" for c in result.cutpoint_fractions())
        paragraphs.append(
            "Cut-points (§5.3): at fraction $c$ of the budget $B$ a trial's state is its "
            "best-so-far error at $c\\,B$ evaluations and it is a success when its evaluations "
            "to target are $\\le c\\,B$; the U-scores and ranks are recomputed at each "
            f"$c \\in \\{{{fractions}\\}}$. "
            f"Budget $B$: {budget}."
        )
    return tuple(paragraphs)


def build_section(result: UScoresResult, options: UScoresOptions, style: FigureStyle) -> Section:
    """Assemble the U-scores section from the result (formatting only)."""
    drawn = figure_blocks(
        len(result.algorithms),
        lambda: figures(result, style),
        what="the U-score bars, rank plots and pairwise heat maps",
        instead="The tables below give the U-scores and ranks; every pair's wins are in "
        f"tables/{options.id or options.kind}/pairwise.csv.",
    )
    figure_of = {b.spec.name: b.spec for b in drawn if isinstance(b, FigureBlock)}
    # A cut-point analysis is about time: in print it shows its totals and its ranks over the
    # cut-points. Its full-budget detail (critical weights, problem difficulty, pairwise maps
    # and counts) repeats what a study's trial-based U-scores show, nearly number for number;
    # it stays in the HTML and the files.
    timed = result.cutpoints is not None
    blocks: list[Block] = [
        Text(
            "U-scores rank algorithms by comparing every trial with every trial: a trial that "
            "reached the target beats one that did not, the faster of two successes wins, and "
            "the more accurate of two failures wins. An algorithm's U-score on a problem is its "
            "number of wins against all other algorithms' trials — the Mann–Whitney U statistic "
            "— so speed and accuracy count without weighing one against the other, and every "
            "problem carries the same maximum score (Price, Kumar & Suganthan; the method that "
            "ranked the CEC 2022 competition)."
            + (
                " Here the trials are compared at fractions of the budget, each by its state "
                "at that point, so that the ranks show who got there first."
                if timed
                else ""
            )
        ),
        Prose(tuple(findings(result, style))),
        *([FigureBlock(figure_of["u_scores_bars"])] if figure_of else drawn),
        _totals_table(result, style),
    ]
    if timed:
        if figure_of:
            blocks.append(FigureBlock(figure_of["cutpoint_ranks"]))
        blocks.append(_cutpoint_table(result, style, below_figure=bool(figure_of)))
    detail: list[FigureBlock | TableBlock] = [
        *_critical_tables(result, style),
        _problem_table(result, style),
    ]
    if any(len(result.difficulties(g)) > 1 for g in result.groups):
        detail.append(_difficulty_table(result))
    # In print the overall map only; the per-dimension maps repeat its layout (HTML, files).
    pairwise = [name for name in figure_of if name.startswith("pairwise_")]
    detail += [
        FigureBlock(figure_of[name], in_print=len(pairwise) == 1 or name == "pairwise_overall")
        for name in pairwise
    ]
    for table in (_win_tie_loss_table(result, style), _pairwise_matrix_table(result, style)):
        if table is not None:
            detail.append(table)
    blocks += [dataclasses.replace(b, in_print=False) if timed else b for b in detail]
    return Section(
        id=options.id or "u_scores",
        title=options.title or "U-scores: trial-based dominance of speed and accuracy",
        blocks=tuple(blocks),
        methods=_methods(result),
    )
