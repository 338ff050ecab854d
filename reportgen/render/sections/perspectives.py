"""Report section of the perspectives analysis (Poikolainen et al. §"Perspectives of algorithmic
performance" and its CEC 2008 / BBOB 2010 tables).

Order: intro, findings, the synthesis table ("which algorithm is best, and which are
significantly worse, by each perspective"), mean ranks, the per-problem statistics tables (best
per row in bold), reliability and repeats (∞ printed as "∞"), the Holm tables (in the HTML only
when the critical-difference diagrams, which mark Holm's verdicts, are printed), then how to read
the diagrams, said once, and the diagrams. Cells are formatted here; nothing is recomputed.
"""

from __future__ import annotations

import dataclasses
import math

import pandas as pd

from reportgen.analyses.perspectives import (
    EFFICIENCY_CAVEAT,
    PERSPECTIVE_NAMES,
    PerspectiveComparison,
    PerspectivesResult,
)
from reportgen.figures.perspectives import PERSPECTIVE_TITLES, figures, reading
from reportgen.figures.style import FigureStyle
from reportgen.narrative.perspectives import findings
from reportgen.present.format import format_p, number
from reportgen.render.blocks import (
    Block,
    FigureBlock,
    Prose,
    Section,
    TableBlock,
    Text,
    figure_blocks,
)
from reportgen.spec.analyses.perspectives import PerspectivesOptions

STATISTIC_TABLES: tuple[tuple[str, str, bool], ...] = (
    ("mean", "Mean final value", True),
    ("median", "Median final value", True),
    ("std", "Standard deviation of the final values (not a perspective; not ranked)", False),
    ("accuracy", "Accuracy: the best (smallest) final value of all runs", True),
    ("robustness", "Robustness: the worst (largest) final value of all runs", True),
    (
        "efficiency",
        "Efficiency: the shortest measured running time in seconds. Wall-clock time depends on "
        "the hardware, the language and the stopping rule as much as on the algorithm",
        True,
    ),
)
"""(statistic, caption, best-per-row in bold)."""


def _number(value: float, digits: int = 2) -> str:
    """Scientific notation with ``digits`` decimals, as the paper's tables; ∞ as "∞"."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:.{digits}e}"


def _repeats(value: float) -> str:
    """A whole number of runs; ∞ as "∞"."""
    if math.isnan(value):
        return "–"
    if math.isinf(value):
        return "∞"
    return f"{value:.0f}" if value < 1e6 else number(value, 3)


def _best_mask(values: pd.DataFrame, higher_is_better: bool) -> pd.DataFrame:
    """True where a cell equals the best value of its row (ties all bold)."""
    best = values.max(axis=1) if higher_is_better else values.min(axis=1)
    return values.eq(best, axis=0) & values.notna()


def _with_problem_column(
    cells: pd.DataFrame, bold: pd.DataFrame, style: FigureStyle
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A problems × algorithms table with the problems as its first column and the
    algorithms by their labels (never a raw name of a thousand characters)."""
    cells = cells.rename(columns=style.label)
    bold = bold.rename(columns=style.label)
    cells.insert(0, "Problem", list(cells.index))
    bold.insert(0, "Problem", False)
    return cells.reset_index(drop=True), bold.reset_index(drop=True)


def _statistic_table(
    result: PerspectivesResult, column: str, caption: str, bold: bool, style: FigureStyle
) -> TableBlock | None:
    values = result.statistic(column)
    if values.isna().all().all():
        return None
    cells = values.map(_number)
    mask = _best_mask(values, False) if bold else values.notna() & False
    cells, mask = _with_problem_column(cells, mask, style)
    suffix = " (best per row in bold)." if bold else "."
    # A value per problem and algorithm: read on screen or in the file, not on paper.
    return TableBlock(
        name=f"statistics_{column}",
        caption=caption + suffix,
        frame=cells,
        bold=mask,
        in_print=False,
    )


def _reliability_tables(result: PerspectivesResult, style: FigureStyle) -> list[TableBlock]:
    reliability = result.statistic("reliability")
    if reliability.isna().all().all():
        return []
    threshold = result.statistic("threshold").max(axis=1)  # one θ_f per problem
    repeats = result.statistic("repeats")
    # Best in both tables is the highest Θ (docs/methods.md): whole repeats tie where Θ differs.
    best = _best_mask(reliability, True)
    q, method, thr = result.threshold_quantile, result.threshold_method, result.repeat_probability
    tables = []
    for name, values, fmt, caption in (
        (
            "reliability",
            reliability,
            lambda v: "–" if math.isnan(v) else f"{v:.3f}",
            f"Reliability Θ: fraction of runs with a final value ≤ θ_f, the {q:g}-quantile "
            f"('{method}') of all algorithms' results on the problem (highest Θ per row in "
            "bold).",
        ),
        (
            "repeats",
            repeats,
            _repeats,
            f"Number of independent runs t needed to reach θ_f at least once with probability "
            f"{thr:g}: the smallest whole t ≥ 1 with 1 − (1 − Θ)^t ≥ {thr:g}; ∞ when Θ = 0 "
            "(highest Θ per row in bold). The paper prints the unrounded quotient "
            f"log(1 − {thr:g})/log(1 − Θ) (e.g. 0.9 for Θ = 0.966); it is the column "
            "repeats_quotient of statistics.csv.",
        ),
    ):
        cells = values.map(fmt)
        mask = best.copy()
        cells.insert(0, "θ_f", threshold.map(_number))
        mask.insert(0, "θ_f", False)
        cells, mask = _with_problem_column(cells, mask, style)
        tables.append(
            TableBlock(name=name, caption=caption, frame=cells, bold=mask, in_print=False)
        )
    return tables


def _alternative_words(alternative: str) -> str:
    if alternative == "one-sided":
        return "one-sided p = Φ(z) (alternative: the algorithm ranks worse than the control)"
    return "two-sided p = 2Φ(−|z|)"


def _holm_table(c: PerspectiveComparison, style: FigureStyle, with_diagram: bool) -> TableBlock:
    rows = [
        {
            "i": str(row.i),
            "Algorithm": style.label(row.algorithm),
            "z": f"{row.z:.3g}",
            "p": format_p(row.p_value),
            "α/i": f"{row.alpha_i:.3g}",
            "Hypothesis": "Rejected" if row.rejected else "Not rejected",
        }
        for row in c.holm
    ]
    frame = pd.DataFrame(rows, columns=["i", "Algorithm", "z", "p", "α/i", "Hypothesis"])
    bold = pd.DataFrame(False, index=frame.index, columns=frame.columns)
    bold["Hypothesis"] = [row.rejected for row in c.holm]
    if c.friedman_chi2 is not None and c.iman_davenport_infinite:
        friedman = (
            f"Friedman χ² = {c.friedman_chi2:.3f} (p = {format_p(c.friedman_p)}); "
            "Iman–Davenport F = ∞ (p = 0): every problem ranks the algorithms in the same "
            "order, so no rank variation is left within problems and F's denominator is zero; "
            "the differences between the algorithms are as consistent as they can be."
        )
    elif c.friedman_chi2 is not None:
        friedman = (
            f"Friedman χ² = {c.friedman_chi2:.3f} (p = {format_p(c.friedman_p)}); "
            f"Iman–Davenport F = {c.iman_davenport_f:.3f} (p = {format_p(c.iman_davenport_p)})."
        )
    else:
        friedman = "The Friedman test is undefined for this perspective."
    caption = (
        f"Holm's procedure, ranking by {PERSPECTIVE_TITLES[c.perspective]}: control "
        f"{style.label(c.control)} (mean rank {float(c.mean_ranks[c.control]):.3f}), "
        f"k = {c.n_algorithms} algorithms, N = {c.n_problems} problems; "
        f"z = (R_0 − R_i)/√(k(k+1)/(6N)), {_alternative_words(c.alternative)}, "
        f"rejected while p ≤ α/i with α = {c.alpha:g}. {friedman}"
    )
    if with_diagram:
        caption += (
            " Holm tests each algorithm against the control only; the critical-difference "
            "diagram shows Nemenyi's test of all pairs, which is less powerful, so an algorithm "
            "rejected here can share a bar with the control there."
        )
    if c.perspective == "efficiency":
        caption += " " + EFFICIENCY_CAVEAT
    notes = ""
    if c.tied_problems:
        notes = "Tied values share the average rank on: " + ", ".join(c.tied_problems) + "."
    if c.excluded_problems:
        notes += (
            " Left out (a value missing for some algorithm): "
            + ", ".join(c.excluded_problems)
            + "."
        )
    return TableBlock(
        name=f"holm_{c.perspective}", caption=caption, frame=frame, bold=bold, notes=notes.strip()
    )


def _synthesis_table(result: PerspectivesResult, style: FigureStyle) -> TableBlock:
    rows = []
    for c in result.comparisons:
        worse = [style.label(r.algorithm) for r in c.holm if r.rejected and r.z < 0]
        better = [style.label(r.algorithm) for r in c.holm if r.rejected and r.z > 0]
        rows.append(
            {
                "Perspective": PERSPECTIVE_NAMES[c.perspective],
                # A tie is shown as one (the study-order first is only the control).
                "Best (mean rank)": ", ".join(style.label(a) for a in c.tied_best)
                + f" ({float(c.mean_ranks[c.best]):.2f}"
                + (
                    f"; control {style.label(c.control)})"
                    if len(c.tied_best) > 1 and result.control_option == "best"
                    else ")"
                ),
                "Control": style.label(c.control),
                "Friedman p": format_p(c.friedman_p),
                "Significantly worse than the control": ", ".join(worse) or "none",
                "Significantly better": ", ".join(better) or "none",
            }
        )
    for u in result.unavailable:
        rows.append(
            {
                "Perspective": PERSPECTIVE_NAMES[u.perspective],
                "Best (mean rank)": "not available",
                "Control": "",
                "Friedman p": "",
                "Significantly worse than the control": "",
                "Significantly better": "",
            }
        )
    frame = pd.DataFrame(rows)
    if not any(r["Significantly better"] not in ("none", "") for r in rows):
        frame = frame.drop(columns="Significantly better")
    if result.control_option == "best":
        frame = frame.drop(columns="Control")
    notes = " ".join(f"{PERSPECTIVE_NAMES[u.perspective]}: {u.reason}." for u in result.unavailable)
    if any(c.perspective == "efficiency" for c in result.comparisons):
        notes = f"{notes} {EFFICIENCY_CAVEAT}".strip()
    return TableBlock(
        name="synthesis",
        caption="Which algorithm is best, and which are significantly worse, by each perspective "
        f"(Holm's procedure against the control, {result.alternative}, α = {result.alpha:g}).",
        frame=frame,
        notes=notes,
    )


def _mean_ranks_table(result: PerspectivesResult, style: FigureStyle) -> TableBlock:
    ranks = pd.DataFrame(
        {PERSPECTIVE_NAMES[c.perspective]: c.mean_ranks for c in result.comparisons},
        index=list(result.algorithms),
    )
    cells = ranks.map(lambda v: "–" if math.isnan(v) else f"{v:.2f}")
    bold = ranks.eq(ranks.min(axis=0), axis=1)
    cells.insert(0, "Algorithm", [style.label(a) for a in ranks.index])
    bold.insert(0, "Algorithm", False)
    return TableBlock(
        name="mean_ranks",
        caption="Mean rank of each algorithm over the problems by each perspective "
        "(1 = best; the best per column in bold).",
        frame=cells.reset_index(drop=True),
        bold=bold.reset_index(drop=True),
    )


def _methods(result: PerspectivesResult) -> tuple[str, ...]:
    alternative = (
        "one-sided, $p = \\Phi(z)$ (as printed in the paper's tables)"
        if result.alternative == "one-sided"
        else "two-sided, $p = 2\\Phi(-|z|)$"
    )
    control = (
        "the algorithm with the best mean rank in each perspective"
        if result.control_option == "best"
        else result.control_option
    )
    return (
        "Perspectives of algorithmic performance (Poikolainen, Weber et al.): for the sample "
        "$S_A$ of final values of algorithm $A$ on problem $f$, accuracy "
        "$\\alpha_{(A,f)} = \\min S_A$, robustness $\\max S_A$, reliability "
        "$\\Theta_{(A,f)} = |\\{s \\in S_A : s \\le \\theta_f\\}|/|S_A|$ and efficiency the "
        "minimum measured running time. The mean and the median are ranked for comparison.",
        f"The threshold $\\theta_f$ is the {result.threshold_quantile:g}-quantile of the union "
        f"of all compared algorithms' results on problem $f$ (numpy.quantile, method "
        f"'{result.threshold_method}'). The number of repeats needed to reach $\\theta_f$ at "
        f"least once with probability THR = {result.repeat_probability:g} is the smallest whole "
        "$t \\ge 1$ with $1 - (1-\\Theta)^t \\ge \\mathrm{THR}$, i.e. "
        "$t = \\max(1, \\lceil\\log(1-\\mathrm{THR})/\\log(1-\\Theta)\\rceil)$, and "
        "$t = \\infty$ when $\\Theta = 0$; the paper prints the unrounded quotient, kept as "
        "a separate column. Means of per-run values use exact summation (math.fsum), so equal "
        "sums tie exactly.",
        "For each perspective the $k$ algorithms are ranked on each of the $N$ problems (1 = "
        "best; reliability: the highest $\\Theta$ is best; ties share the average rank; "
        "published values are compared at their printed precision). Friedman's "
        "$\\chi^2_F$ (scipy.stats.friedmanchisquare, tie-corrected) and the Iman–Davenport "
        "statistic $F_F = (N-1)\\chi^2_F/(N(k-1)-\\chi^2_F)$ with "
        "$(k-1, (k-1)(N-1))$ degrees of freedom test whether the algorithms differ.",
        f"Holm's step-down procedure compares every algorithm with the control ({control}): "
        "$z_i = (R_0 - R_i)/\\sqrt{k(k+1)/(6N)}$ with $R$ the mean ranks, "
        f"{alternative}; hypotheses ordered by $p$ ascending are rejected while "
        f"$p \\le \\alpha/i$ ($i$ = hypotheses still open), $\\alpha$ = {result.alpha:g}.",
        "Critical-difference diagrams: Nemenyi's $CD = q_\\alpha\\sqrt{k(k+1)/(6N)}$ with "
        "$q_\\alpha$ the $1-\\alpha$ quantile of the studentized range of $k$ means "
        "(infinite degrees of freedom) divided by $\\sqrt 2$ (scipy.stats.studentized_range); "
        "algorithms whose mean ranks differ by less than CD are joined by a bar.",
    )


def build_section(
    result: PerspectivesResult, options: PerspectivesOptions, style: FigureStyle
) -> Section:
    """Assemble the perspectives section from the result (formatting only)."""
    intro = (
        "Poikolainen, Weber et al. argue that the sample mean of an optimiser's results "
        "cannot be read as a measure of its performance. This section ranks the algorithms "
        "over all problems by the perspectives they propose instead — accuracy (the best "
        "result), reliability (the chance of a good result, and how many repeats that takes), "
        "robustness (the worst result) and efficiency (running time) — beside the mean and the "
        "median final value, each with the Friedman test and Holm's procedure. Where the "
        "perspectives disagree, the best choice depends on how the algorithm will be used."
    )
    if options.select is not None:
        # A study's second look at a subset: the perspectives were introduced with its first.
        intro = (
            f"The perspectives ({', '.join(options.perspectives)}; "
            "Poikolainen, Weber et al.) on the selected problems only, each with the Friedman "
            "test and Holm's procedure."
        )
    blocks: list[Block] = [
        Text(intro),
        Prose(tuple(findings(result, style)), as_list=True),
        _synthesis_table(result, style),
    ]
    if result.comparisons:
        # The critical-difference diagrams print every mean rank beside its algorithm.
        blocks.append(
            dataclasses.replace(
                _mean_ranks_table(result, style), in_print=not result.critical_difference_diagrams
            )
        )
    for column, caption, bold in STATISTIC_TABLES:
        table = _statistic_table(result, column, caption, bold, style)
        if table is not None:
            blocks.append(table)
    blocks.extend(_reliability_tables(result, style))
    drawn = figure_blocks(
        len(result.algorithms),
        lambda: figures(result, style),
        what="the critical-difference diagrams",
        instead="The Holm tables below give every comparison with the control; all mean ranks "
        f"are in tables/{options.id or options.kind}/mean_ranks.csv.",
    )
    figure_of = {b.spec.name: b.spec for b in drawn if isinstance(b, FigureBlock)}
    if result.comparisons and result.critical_difference_diagrams and not figure_of:
        blocks += [b for b in drawn if not isinstance(b, FigureBlock)]
    # The diagrams mark Holm's verdicts (bold control, asterisks): in print they stand for the
    # Holm tables, whose z and p stay in the HTML and the files. The tables go with the other
    # HTML-only tables above the diagrams, so that print names them all in one sentence, and
    # how to read the diagrams is said once before them rather than under each.
    diagrams: list[Block] = []
    for c in result.comparisons:
        spec = figure_of.get(f"cd_{c.perspective}")
        holm = _holm_table(c, style, bool(figure_of))
        if spec is None:
            blocks.append(holm)
            continue
        blocks.append(dataclasses.replace(holm, in_print=False))
        diagrams.append(FigureBlock(spec))
    if diagrams:
        holm_csv = f"tables/{options.id or options.kind}/holm.csv"
        blocks += [Text(reading(result, holm_csv, again=options.select is not None)), *diagrams]
    return Section(
        id=options.id or "perspectives",
        title=options.title or "Perspectives: accuracy, reliability, robustness, efficiency",
        blocks=tuple(blocks),
        methods=_methods(result),
    )
