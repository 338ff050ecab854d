"""The executive summary section: bottom line, findings, verdict matrix, ranking uncertainty,
agreement between methods."""

from __future__ import annotations

import dataclasses
import math

import pandas as pd

from reportgen.figures.agreement import agreement_figure, uncertainty_figure
from reportgen.figures.style import FigureStyle
from reportgen.present.format import format_p, share
from reportgen.render.blocks import (
    Block,
    FigureBlock,
    Prose,
    Section,
    TableBlock,
    Text,
    figure_blocks,
)
from reportgen.synthesis.head_to_head import sign_test_needs
from reportgen.synthesis.rankings import (
    BEST,
    INCONCLUSIVE,
    MAX_LAYER_BOOTSTRAP,
    NOT_SIGNIFICANT,
    WORSE,
)
from reportgen.synthesis.summary import SynthesisResult
from reportgen.synthesis.uncertainty import ALL, RUNS_MARK, TWO_STAGE

_MARK = {BEST: "best", WORSE: "worse", NOT_SIGNIFICANT: "n.s.", INCONCLUSIVE: "inconclusive"}

TIED_BEST = "tied best"
"""The verdict shown for every algorithm that shares a tested ranking's first place."""


def _rank_text(rank: float) -> str:
    if math.isnan(rank):
        return "–"
    return f"{rank:.0f}" if float(rank).is_integer() else f"{rank:.1f}"


def verdict_matrix(
    result: SynthesisResult, style: FigureStyle, sections: dict[str, str] | None = None
) -> TableBlock:
    """Algorithms × rankings: the rank, with the significance verdict where the method has one."""
    # The first row names each ranking's method family.
    columns: dict[str, list[str]] = {
        "algorithm": ["method family", *(style.label(a) for a in result.algorithms)]
    }
    bold = {"algorithm": [False] * (len(result.algorithms) + 1)}
    tied = False  # whether some cell says TIED_BEST (the caption then defines it)
    for ranking in result.rankings:
        cells, marks = [ranking.family], [False]
        first = ranking.first
        shared_first = len(first) > 1
        for algorithm in result.algorithms:
            rank = ranking.ranks.get(algorithm, math.nan)
            verdict = ranking.verdicts.get(algorithm)
            mark = _MARK[verdict] if verdict else ""
            if verdict in (BEST, NOT_SIGNIFICANT) and shared_first and algorithm in first:
                # perspectives_cec2022, accuracy: JADE '1 (best)' beside NLSHADE-RSP '1 (n.s.)'
                # at equal mean ranks - the test's reference, first in study order, read as
                # the winner. Equals at the top are marked alike.
                mark = TIED_BEST
                tied = True
            cells.append(_rank_text(rank) + (f" ({mark})" if mark else ""))
            # Only a counted ranking has a first place worth marking.
            marks.append(ranking.counted and rank == min(ranking.ranks.values()))
        header = ranking.label
        if not ranking.counted:
            header += f" — {ranking.status}, not counted"
        columns[header] = cells
        bold[header] = marks
    frame = pd.DataFrame(columns)
    sections = sections or {}
    by_analysis: dict[str, list[str]] = {}
    for r in result.rankings:
        if r.analysis_id in sections:
            by_analysis.setdefault(r.analysis_id, []).append(r.label)
    sources = "; ".join(f"{sections[a]}: {', '.join(labels)}" for a, labels in by_analysis.items())
    return TableBlock(
        name="verdict_matrix",
        notes=f"Where each ranking comes from — {sources}." if sources else "",
        caption="Verdict matrix: each algorithm's rank (1 = best; tied algorithms share the best rank of "
        "their group) by every "
        "ranking the analyses produce (first row: its method family), with the significance verdict where the "
        "method tests one ('worse' = significantly worse than the method's best algorithm, 'n.s.' = not "
        "significantly different, "
        + (
            "'tied best' = sharing the best rank (the test's reference is one of them), "
            if tied
            else ""
        )
        + "'inconclusive' = the test cannot tell: its bounds are too wide, or the quantity it compares does "
        "not differ). Rankings marked "
        "'not counted' (inconclusive, or tying every algorithm) are shown but enter neither the first-place "
        "counts nor Kendall's τ. First places of counted rankings in bold.",
        frame=frame,
        bold=pd.DataFrame(bold),
    )


def uncertainty_table(result: SynthesisResult, style: FigureStyle) -> TableBlock | None:
    """Algorithms × resampled rankings: ``p_first`` and the 95 % rank interval."""
    # Per-dimension rows: in the CSV and the findings.
    table = result.uncertainty.by_ranking(ALL)
    if not table:
        return None
    runs = result.uncertainty.runs_resampled()
    label = {r.id: r.label + (RUNS_MARK if r.id in runs else "") for r in result.rankings}
    columns: dict[str, list[str]] = {"algorithm": [style.label(a) for a in result.algorithms]}
    bold = {"algorithm": [False] * len(result.algorithms)}
    for ranking_id, rows in table.items():
        top = max(row.p_first for row in rows.values())
        cells, marks = [], []
        for algorithm in result.algorithms:
            if algorithm not in rows:
                cells.append("–")
                marks.append(False)
                continue
            row = rows[algorithm]
            low, high = row.rank_low, row.rank_high
            interval = f"{low}" if low == high else f"{low}–{high}"
            cells.append(f"{row.p_first:.2f} ({interval})")
            marks.append(row.p_first == top)
        columns[label[ranking_id]] = cells
        bold[label[ranking_id]] = marks
    not_resampled = [r.label for r in result.rankings if r.id not in table]
    return TableBlock(
        name="ranking_uncertainty",
        caption=f"How sure each ranking is: over {result.uncertainty.resamples} bootstrap resamples of the "
        f"problems (seed {result.uncertainty.seed}), the probability p_first that the algorithm ranks first (a "
        "first place shared by k algorithms counts 1/k for each) and, in brackets, the 95 % interval of its "
        "rank. Largest p_first per ranking in bold; all values, with the same per dimension where the study "
        "has several, in tables/summary/ranking_uncertainty.csv."
        + (f" {TWO_STAGE}" if runs else ""),
        notes=(
            f"Not resampled (fewer than two problems to draw, or award-point layers of more than "
            f"{MAX_LAYER_BOOTSTRAP} algorithms, whose bootstrap would recompute the award points "
            f"of every pair on every resample): {', '.join(not_resampled)}."
            if not_resampled
            else ""
        ),
        frame=pd.DataFrame(columns),
        bold=pd.DataFrame(bold),
    )


def head_to_head_table(result: SynthesisResult, style: FigureStyle) -> TableBlock | None:
    """The contenders head to head over all problems, per dimension and per function group
    (the rows the summary's head-to-head sentences and bottom line read)."""
    rows = []
    for h in result.head_to_heads:
        a, b = style.label(h.a), style.label(h.b)
        for g in h.breakdown:
            rows.append(
                {
                    # The pair on every row of its breakdown, not once on the first: the HTML
                    # table sorts by any column, a printed table continued on the next page
                    # starts mid-breakdown, and a screen reader names each row by its first
                    # cell — a blank one left those rows without their pair.
                    "pair (a – b)": f"{a} – {b}",
                    "problems": f"{g.group} ({g.problems})",
                    "trial comparisons won": "–"
                    if math.isnan(g.share_a)
                    else f"{share(g.share_a)} – {share(1 - g.share_a)}",
                    "problems won": f"{g.wins_a} – {g.wins_b}",
                    "sign test p": format_p(g.sign_p),
                    "significantly better on": f"{g.significant_a} – {g.significant_b}",
                    "verdict": f"{style.label(g.ahead)} ahead"
                    if g.ahead
                    else "indistinguishable"
                    if g.testable
                    else "too few to test",
                }
            )
    if not rows:
        return None
    alphas = sorted({h.alpha for h in result.head_to_heads})
    # The clause on untestable rows only where there is one: a caption a line longer moved
    # quickstart's first profile figure to the next page and left this one 42 % blank.
    untested = (
        " — or too few to test, where fewer problems are won than the sign test needs to reach α "
        f"at all ({', '.join(str(sign_test_needs(x)) for x in alphas)}: its smallest p is 2·½ⁿ)"
        if any(not g.testable for h in result.head_to_heads for g in h.breakdown)
        else ""
    )
    return TableBlock(
        name="head_to_head",
        caption="Head to head: the leader (a) against each contender (b) over all problems, per dimension and per "
        "function group. Trial comparisons won: the shares of the U-scores' trial comparisons; problems won: "
        "the problems on which each wins more trial comparisons (or, from a problem table, has A12 on its "
        "side), problems neither wins left out; sign test p: the two-sided sign test over the problems won "
        f"(scipy.stats.binomtest, p = ½); verdict: ahead when p < α ({', '.join(f'{x:g}' for x in alphas)}), "
        f"else indistinguishable{untested}. Significantly better on: the problems on which the source's per-problem test "
        "finds each better (U-scores: Mann–Whitney U at α, not corrected over problems; problem table: its "
        "corrected markers).",
        frame=pd.DataFrame(rows),
    )


def _flips_table(result: SynthesisResult, style: FigureStyle) -> TableBlock | None:
    flipped = result.agreement.most_flipped(12)
    if not flipped:
        return None
    label = {r.id: r.label for r in result.rankings}
    rows = []
    for pair in flipped:
        example = pair.example
        rows.append(
            {
                "pair": f"{style.label(pair.pair[0])} / {style.label(pair.pair[1])}",
                "rankings that disagree": str(pair.rankings),
                "for example": f"{style.label(example.algorithm_1)} before {style.label(example.algorithm_2)} by "
                f"{label[example.ranking_a]}, after it by {label[example.ranking_b]}",
            }
        )
    return TableBlock(
        name="flips",
        caption="Pairs of algorithms whose order flips between rankings (most disagreements first; at most 12 shown; "
        "all in tables/summary/flips.csv).",
        frame=pd.DataFrame(rows),
    )


def build_summary_section(
    result: SynthesisResult, style: FigureStyle, sections: dict[str, str] | None = None
) -> Section:
    """The first section of the report.

    ``sections`` maps analysis ids to how the document refers to their sections (``"§2
    Perspectives"``), for the cross-references under the verdict matrix.
    """
    blocks: list[Block] = []
    if result.bottom_line is not None:
        blocks.append(Prose((result.bottom_line,)))
    blocks += [
        Text(
            "What each method concludes, side by side, weighed by method family (profiles; U-scores; "
            "final values, whether ranked by the perspectives or turned into award points): rankings of "
            "one family are one line of evidence, not "
            "independent votes. Every sentence is generated by a rule from the analyses' results and is "
            "stored with the numbers it states in results.json (summary.bottom_line, summary.findings)."
        ),
        Prose(result.findings, as_list=True),
    ]
    if result.rankings:
        blocks.append(verdict_matrix(result, style, sections))
    table = uncertainty_table(result, style)
    if table is not None:
        drawn = figure_blocks(
            len(result.algorithms),
            lambda: [f for f in (uncertainty_figure(result, style),) if f is not None],
            what="the ranking uncertainty of every algorithm",
            instead="The table above gives the same numbers (also in "
            "tables/summary/ranking_uncertainty.csv).",
        )
        heat_map = any(isinstance(b, FigureBlock) for b in drawn)
        # The figure prints the table's numbers in its cells: on paper once is enough.
        blocks.append(dataclasses.replace(table, in_print=not heat_map))
        blocks += drawn
    # The head-to-head table after the uncertainty heat map: a table may continue on the next
    # page, a figure may not, so the table fills the page under the figure instead of a page
    # ending half blank before a figure that does not fit (weasyprint has no floats).
    pairs = head_to_head_table(result, style)
    if pairs is not None:
        blocks.append(pairs)
    figure = agreement_figure(result)
    if figure is not None:
        blocks.append(FigureBlock(figure))
    flips = _flips_table(result, style)
    if flips is not None:
        blocks.append(flips)
    return Section(
        id="summary",
        title="Executive summary",
        blocks=tuple(blocks),
        methods=(
            "Rankings: each analysis contributes the rankings listed in the verdict matrix (tied algorithms "
            "share the best rank of their group), grouped into method families; a family's first place is the "
            "algorithm first in most of its counted rankings, and the bottom line's leader is first in the most "
            "families. A ranking is not counted when its test is inconclusive (confidence-bound profiles whose "
            "winner's upper-bound curve solves fewer than half the problems its mean curve solves) or when it ties "
            "every algorithm. Agreement: Kendall's $\\tau_b$ between every two counted rankings over the algorithms "
            "both rank (scipy.stats.kendalltau); a pair of algorithms flips when one ranking puts it in one order "
            "and another ranking in the other.",
            "Ranking uncertainty: each ranking that aggregates per-problem scores (U-score totals, Friedman mean "
            "ranks, the mean-curve profiles' order, the runtime-ECDF area as each problem's share of it, the expected "
            "probabilistic profile as each problem's term) is recomputed on bootstrap resamples of the problems "
            "drawn with replacement (numpy PCG64, seeded: summary.seed); the award-point layers are recomputed "
            "whole on each resample (award points, the smallest cycle-free σ, its layers); where the analysis keeps the runs (U-scores: each "
            "trial's place in the dominance order; perspectives: the runs' final values and times; runtime ECDF: "
            "each run's share of the area) the bootstrap "
            "is two-stage, each drawn problem's scores recomputed from a resample of each algorithm's runs on it "
            "(drawn with replacement, as many as it has; θ_f and the dominance order stay those of the full "
            "sample). $p_{\\text{first}}$ is the share of resamples in "
            "which the algorithm ranks first, a first place shared by $k$ algorithms counting $1/k$ each, and the "
            "95 % rank interval spans the 2.5 % and 97.5 % quantiles of its ranks. Head-to-head: trial "
            "comparisons won and problems with a significant per-problem Mann–Whitney test (the U-score "
            "analysis's own, at its α, uncorrected: a count, not a test over problems).",
        ),
    )
