"""The report section of the performance-profile analysis."""

from __future__ import annotations

import pandas as pd

from reportgen.analyses.performance_profiles import (
    INCONCLUSIVE,
    NO_SIGNIFICANT_DIFFERENCE,
    SIGNIFICANTLY_WORSE,
    PerformanceProfilesResult,
)
from reportgen.figures.performance_profiles import bound_formula, figures, reading_guide
from reportgen.figures.style import FigureStyle
from reportgen.narrative.performance_profiles import findings
from reportgen.present.format import evaluations, power_of_ten, share
from reportgen.render.blocks import (
    Block,
    FigureBlock,
    Prose,
    Section,
    TableBlock,
    Text,
    figure_blocks,
)
from reportgen.spec.analyses.performance_profiles import (
    WORST_FIRST_MEAN,
    PerformanceProfilesOptions,
)

_VERDICT_MARK = {
    SIGNIFICANTLY_WORSE: "worse",
    NO_SIGNIFICANT_DIFFERENCE: "n.s.",
    INCONCLUSIVE: "inconclusive",
}


def _ranking_table(result: PerformanceProfilesResult, style: FigureStyle) -> TableBlock:
    """One row per algorithm, one column per τ: its place in the mean-curve profiles' order with the
    share solved and the share fastest (13 algorithms × 4 τ: 13 rows, not 52). The caption said
    "ties in both shares are broken by the mean inverse ratio", but the share fastest orders
    nothing (cec2022, τ = 0.1: NLSOMA at (100%, 25%) ninth, NL-LBC at (100%, 21%) fifth); it says
    what the order is."""
    places = {tau: {p.algorithm: p for p in result.mean_order(tau)} for tau in result.tolerances}
    first = result.mean_order(result.tolerances[0])
    table = pd.DataFrame({"algorithm": [style.label(p.algorithm) for p in first]})
    bold = pd.DataFrame(False, index=table.index, columns=table.columns)
    for tau in result.tolerances:
        column = f"τ = {power_of_ten(tau)}"
        at = [places[tau].get(p.algorithm) for p in first]
        table[column] = [
            "–" if p is None else f"{p.rank} ({share(p.solved)}, {share(p.fastest)})" for p in at
        ]
        bold[column] = [p is not None and p.rank == 1 for p in at]
    return TableBlock(
        name="mean_ranking",
        caption="Place of each algorithm in the order of the mean-curve profiles per tolerance τ (1 = "
        "first; the first place in bold), with the share of problems solved within the budget "
        "(the profiles' right end) and the share on which it is fastest (ρ(1)): 'place (solved, "
        "fastest)'. Rows in the order at the first τ. Places follow the share solved, then the mean "
        "inverse performance ratio (column mean_inverse_ratio of mean_ranking.csv), not the share "
        "fastest.",
        frame=table,
        bold=bold,
    )


def _verdict_table(result: PerformanceProfilesResult, style: FigureStyle) -> TableBlock:
    """One row per algorithm, one column per (τ, λ): a table as long as the algorithms, not as
    wide (with 13 algorithms the other way round needed a landscape page)."""
    rounds = result.confirmations(result.profile_kinds[0])
    several = len(result.lambdas) > 1
    columns: dict[str, list[str]] = {
        "algorithm": [style.label(a) for a in result.algorithms] + ["winner's upper / mean solves"]
    }
    for c in rounds:
        heading = f"τ = {power_of_ten(c.tolerance)}" + (f", λ = {c.lam:g}" if several else "")
        columns[heading] = [
            "winner" if algorithm == c.winner else _VERDICT_MARK[c.verdicts[algorithm]]
            for algorithm in result.algorithms
        ] + [f"{share(c.power.solved_upper)} / {share(c.power.solved_mean)}" if c.power else "–"]
    table = pd.DataFrame(columns)
    bold = table == "winner"
    return TableBlock(
        name="verdicts",
        caption="Significance verdicts of Algorithm 2 (Liu et al. §IV-E) per tolerance τ"
        + (" and λ" if len(result.lambdas) > 1 else f" (λ = {result.lambdas[0]:g})")
        + ": 'winner' = the round's winner (bold); 'worse' = "
        "significantly worse than the winner (its lower-bound profile ends below the winner's upper-bound "
        "profile); 'n.s.' = no significant difference; 'inconclusive' = not tested: either the algorithm's mean "
        "curve solves as many problems as the winner's, so the winner leads by speed alone, which the "
        "right-end comparison does not test, or the winner's upper-bound curve solves fewer than half the "
        "problems its mean curve solves (last row), so the bounds are too wide at this (τ, λ) to tell the "
        "algorithms apart. Performance and data profiles give the same verdicts "
        "(their right ends coincide, Remark 3).",
        frame=table,
        bold=bold,
    )


def _full_ranking_table(result: PerformanceProfilesResult, style: FigureStyle) -> TableBlock:
    rows = []
    for tau in result.tolerances:
        for lam in result.lambdas:
            text = ""
            for members, after in result.groups(result.profile_kinds[0], tau, lam):
                if after:
                    text += "  ≻  " if after == SIGNIFICANTLY_WORSE else "  →  "
                text += ", ".join(style.label(a) for a in members)
            rows.append(
                {
                    "τ": power_of_ten(tau),
                    "λ": f"{lam:g}",
                    "ranking (best first; ties share a rank)": text,
                }
            )
    return TableBlock(
        name="ranking",
        caption="Full ranking by repeating Algorithm 2 without the best algorithm(s) of the previous round "
        "(Liu et al. §IV-E), in the order of the mean-curve profiles: a group is the round's winner and the algorithms "
        "that follow it in that order with a tested 'no significant difference', so no algorithm moves above "
        "another by having wider bounds and no untested comparison makes a shared place. '≻': the next "
        "algorithm in the mean order is significantly worse than the group's winner; '→': the comparison is "
        "inconclusive, and the groups follow each other in the order of the mean-curve profiles only.",
        frame=pd.DataFrame(rows),
    )


def build_section(
    result: PerformanceProfilesResult,
    options: PerformanceProfilesOptions,
    style: FigureStyle,
) -> Section:
    """Text, findings, figures and tables of the profiles section."""
    intro = (
        "Each algorithm's runs are averaged into a mean best-so-far curve per problem. A problem counts as "
        "solved by an algorithm once its mean curve passes the convergence test f(x0) − f ≥ (1 − τ)(f(x0) − f_L) "
        "(Liu et al. Eq. 3); t is the first evaluation count at which it does. Performance profiles show the "
        "share of problems solved within a factor γ of the fastest algorithm, data profiles within a budget of "
        "κ simplex gradients (D + 1 evaluations each)."
    )
    if result.lambdas:
        intro += (
            " Confidence bounds decide whether the winner's lead is significant: its upper-bound curve "
            f"({bound_formula(result, 1)}) must still beat the others' lower-bound curves "
            f"({bound_formula(result, -1)})."
        )
    # The places table right after the findings it tabulates, before the figures: a table
    # may continue on the next page, a figure cannot, so a tall figure that does not fit
    # under the findings leaves the table, not blank paper, above it.
    blocks: list[Block] = [
        Text(intro),
        Prose(tuple(findings(result, style)), as_list=True),
        _ranking_table(result, style),
    ]
    # Data profiles give the same verdicts as the performance profiles (their right ends
    # coincide, Liu et al. Remark 3) on another x-axis: with both, print the performance
    # profiles and leave the data profiles to the HTML and the files.
    both = {"performance", "data"} <= set(result.profile_kinds)
    figures_drawn = [
        FigureBlock(b.spec, in_print=not (both and b.spec.name.startswith("data_")))
        if isinstance(b, FigureBlock)
        else b
        for b in figure_blocks(
            len(result.algorithms),
            lambda: figures(result, style),
            what="the performance and data profiles",
            instead="The tables of this section order the algorithms by their profiles; every "
            "profile's "
            f"steps are in tables/{options.id or options.kind}/profiles.csv.",
        )
    ]
    if any(isinstance(b, FigureBlock) for b in figures_drawn):
        blocks.append(Text(reading_guide(result)))
    blocks.extend(figures_drawn)
    if result.lambdas:
        blocks.append(_verdict_table(result, style))
        blocks.append(_full_ranking_table(result, style))
    methods = [
        "Convergence test (Liu et al. Eq. 3): $f(x_0) - f(x) \\ge (1-\\tau)\\,(f(x_0) - f_L)$; "
        "$t_{p,s}$ is the first evaluation count at which the mean curve of algorithm $s$ on problem $p$ "
        "passes it, $\\infty$ if never within the budget.",
        "Performance profile (Eq. 4): $\\rho_s(\\gamma) = \\frac{1}{n_p}\\,|\\{p : t_{p,s}/\\min_{q} t_{p,q} \\le \\gamma\\}|$; "
        "data profile (Eq. 5): $d_s(\\kappa) = \\frac{1}{n_p}\\,|\\{p : t_{p,s}/(D_p+1) \\le \\kappa\\}|$.",
        "Mean curve (Eq. 9): $\\bar H(k) = \\frac{1}{n_r}\\sum_r H(k, r)$, evaluated exactly at every evaluation count "
        "where some run improves; "
        + (
            "$f(x_0)$ per problem is the largest first mean value of all algorithms; "
            if result.start_value == WORST_FIRST_MEAN
            else f"$f(x_0)$ per problem is taken from the data column '{result.start_value}'; "
        )
        + "$f_L$ is the smallest value of any profiled curve within the budget.",
        f"Parameters: τ ∈ {{{', '.join(power_of_ten(t) for t in result.tolerances)}}}; budget μ_f = {evaluations(result.budget)} "
        f"evaluations{' (given)' if options.budget is not None else ' (the largest evaluation count in the data)'}; "
        f"profiles: {', '.join(result.profile_kinds)}; {len(result.problems)} problems, {len(result.algorithms)} algorithms.",
    ]
    if result.lambdas:
        methods.append(
            (
                "Confidence bounds (Eqs. 6, 10, 11): $H_{\\text{upper/lower}}(k) = \\bar H(k) \\pm \\lambda S_H(k)/\\sqrt{n_r}$ with "
                "$S_H^2$ the sample variance over runs (ddof = 1); "
                if result.bootstrap is None
                else "Confidence bounds (bound: bootstrap, an option of ours in place of the paper's Eq. 6): "
                f"whole runs are resampled with replacement {result.bootstrap[0]} times (numpy PCG64, seed "
                f"{result.bootstrap[1]}, mixed with each problem's and algorithm's identity), and at each "
                "evaluation count the lower and upper bounds are the $\\Phi(-\\lambda)$ and $\\Phi(\\lambda)$ "
                "quantiles of the resampled mean curves (λ = 2: 2.3 % and 97.7 %), which follow skewed "
                "results and stay within the runs' range; "
            )
            + f"λ ∈ {{{', '.join(f'{v:g}' for v in result.lambdas)}}}. λ = 2 corresponds to about 95 % only under normality; "
            "the method requires n_r ≥ 30 (Remark 4). An algorithm is significantly worse than the winner iff the "
            "winner's upper-bound profile ends strictly higher than the algorithm's lower-bound profile. "
            + (
                "Bounds outside the data: each bound curve is clipped to the range of the algorithm's runs at each "
                "evaluation count (clip_bounds: true), since a lower bound below every run — for skewed results "
                "even below the optimum — would let an algorithm 'solve' problems none of its runs solved. "
                if result.clip_bounds
                else "Bounds are used unclipped as in the paper (clip_bounds: false); lower bounds may fall "
                "below every run. "
            )
            + "Power: when the winner's upper-bound curve solves fewer than half the problems its mean curve "
            "solves, equality of the right ends means only that the bounds are wide, and the verdict is "
            "'inconclusive' instead of 'no significant difference'. The same holds for an algorithm whose mean "
            "curve solves as many problems as the winner's: the winner then leads by speed alone (the area "
            "under the performance profile), which the right-end comparison cannot test. The ranking orders "
            "algorithms by their mean-curve profiles; only a tested 'no significant difference' groups neighbours "
            "in that order."
        )
    return Section(
        id=options.id or options.kind,
        title=options.title or "Performance and data profiles",
        blocks=tuple(blocks),
        methods=tuple(methods),
    )
