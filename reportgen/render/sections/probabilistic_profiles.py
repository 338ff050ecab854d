"""Report section of the ``probabilistic_profiles`` analysis (Barreto et al., GECCO 2010).

Order: intro, findings, the overlay figure (and the two-panel one beyond eight algorithms),
the summary table (best per column in bold), the visible crossings, methods. Cells are formatted
here; nothing is recomputed.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from reportgen.analyses.probabilistic_profiles import ProbabilisticProfilesResult
from reportgen.figures.probabilistic_profiles import figures
from reportgen.figures.style import FigureStyle
from reportgen.narrative.probabilistic_profiles import VISIBLE, findings, share
from reportgen.present.format import number, power_of_ten
from reportgen.render.blocks import Block, Prose, Section, TableBlock, Text, figure_blocks
from reportgen.spec.analyses.probabilistic_profiles import ProbabilisticProfilesOptions

MAX_CROSSING_ROWS = 40
"""Display at most this many crossings (all are in ``crossings.csv``)."""


def _summary_table(result: ProbabilisticProfilesResult, style: FigureStyle) -> TableBlock:
    x = f"{result.x_max:g}"
    values = pd.DataFrame([vars(s) for s in result.summary]).set_index("algorithm")
    columns: dict[str, tuple[str, Callable[[float], str], bool]] = {
        "rho_1": ("ρ(1)", share, True),
        "rho_bar_1": ("ρ̄(1)", share, True),
        "solved": (f"ρ({x})", share, True),
        "solved_bar": (f"ρ̄({x})", share, True),
        "zeta": ("ζ", number, False),
        "zeta_bar": ("ζ̄", number, False),
    }
    cells = pd.DataFrame({"Algorithm": [style.label(a) for a in result.algorithms]})
    bold = pd.DataFrame({"Algorithm": [False] * len(result.algorithms)})
    for column, (title, fmt, larger) in columns.items():
        v = values[column]
        best = v.max() if larger else v.min()
        cells[title] = [fmt(float(e)) for e in v]
        # the best value in bold (ties all bold); an all-∞ column has no best
        bold[title] = ((v == best) & (v != float("inf"))).to_numpy()
    eps = f"{result.reliability_tolerance:g}"
    return TableBlock(
        name="summary",
        caption=(
            "Standard (ρ, from the mean costs) and probabilistic (ρ̄, expected) performance "
            f"profiles at x = 1 (share of wins) and x = {x} (share "
            f"{'solved' if result.fixed_target else 'within that ratio'}), and reliability: "
            "ζ = sup{τ : ρ(τ) < 1}, the worst ratio to the best mean cost, and ζ̄ the ratio "
            f"beyond which fewer than ε = {eps} problems are expected to "
            f"{'remain unsolved' if result.fixed_target else 'lie'} "
            "(∞: some entry fails). Best per column in bold."
        ),
        frame=cells,
        bold=bold,
    )


def _crossings_table(result: ProbabilisticProfilesResult, style: FigureStyle) -> TableBlock | None:
    visible = [c for c in result.crossings if c.separation >= VISIBLE]
    if not visible:
        return None
    shown = visible[:MAX_CROSSING_ROWS]
    frame = pd.DataFrame(
        {
            "Profile": [c.profile for c in shown],
            "Algorithms": [
                f"{style.label(c.algorithm_a)} / {style.label(c.algorithm_b)}" for c in shown
            ],
            "x": [
                number(c.x, 4) if c.x_end == c.x else f"[{number(c.x, 4)}, {number(c.x_end, 4)})"
                for c in shown
            ],
            "Ahead before": [style.label(c.leader_before) for c in shown],
            "Ahead after": [style.label(c.leader_after) for c in shown],
            "Separation": [share(c.separation) for c in shown],
        }
    )
    hidden = len(result.crossings) - len(shown)
    notes = (
        f"{hidden} further crossings (smaller separation or beyond the first "
        f"{MAX_CROSSING_ROWS}) are listed in crossings.csv."
        if hidden
        else ""
    )
    return TableBlock(
        name="crossings",
        caption=(
            "Where two algorithms' curves change order on [1, "
            f"{result.x_max:g}]: exact breakpoints for the standard profile, roots of "
            "ρ̄_a − ρ̄_b (Brent's method) for the probabilistic one; an interval [x, x_end) "
            "where the curves coincide in between. Separation: the smaller of the largest gaps "
            f"between the curves on either side; crossings with separation < {share(VISIBLE)} "
            "are not shown."
        ),
        frame=frame,
        notes=notes,
    )


def _methods(result: ProbabilisticProfilesResult) -> tuple[str, ...]:
    cost = (
        "the number of evaluations to reach the target ($\\infty$ when it is never reached)"
        if result.cost == "evaluations_to_target"
        else "the final error"
    )
    floor = (
        f" Costs below cost_floor = {power_of_ten(result.cost_floor)} are raised to it."
        if result.cost_floor is not None
        else ""
    )
    source = (
        "per algorithm and problem from a published table of means, standard deviations and "
        "numbers of runs"
        if result.input_format == "summary"
        else "per algorithm and problem from the runs: mean and sample standard deviation "
        "(ddof = 1); an entry with a failed run has an infinite mean"
    )
    if result.model == "normal":
        model = (
            "Normal model (§4.1): "
            "$P(R_{ij} \\le x) = \\Phi\\big((x - \\hat\\mu_{ij}/b_j)/(\\hat\\sigma_{ij}/b_j)"
            "\\big)$ (scipy.stats.norm), 0 for an infinite mean, the step "
            "$\\delta(\\hat\\mu_{ij}/b_j \\le x)$ for $\\hat\\sigma_{ij} = 0$."
        )
    else:
        model = (
            "Empirical model (distribution-free): $P(R_{ij} \\le x)$ is the share of the "
            "$n_{ij}$ runs with $c^k_{ij}/b_j \\le x$; a failed run never counts as solved."
        )
    return (
        "Probabilistic performance profiles (Barreto, Bernardino & Barbosa, GECCO 2010). The "
        f"cost $C_{{ij}}$ of algorithm $i$ on problem $j$ is {cost}, summarised {source}."
        f"{floor} The baseline is $b_j = \\min_k E[C_{{kj}}]$ (the smallest mean cost); a "
        "problem on which every mean is infinite counts as unsolved for every algorithm.",
        "Standard profile of the mean costs (§3, Dolan & Moré): "
        "$\\rho_i(x) = \\frac{1}{n_p}\\sum_j \\delta(\\hat\\mu_{ij}/b_j \\le x)$; "
        "probabilistic profile (§4, Eq. 2): "
        "$\\bar\\rho_i(x) = \\frac{1}{n_p}\\sum_j P(C_{ij}/b_j \\le x)$, the expected share of "
        f"problems {result.within_words.replace('ratio x', 'ratio $x$')}. {model}",
        "Reliability (§3): $\\zeta(a_i) = \\sup\\{\\tau : \\rho_i(\\tau) < 1\\}$, the largest "
        "ratio, $\\infty$ when an algorithm fails somewhere. As $\\bar\\rho < 1$ for every "
        "$\\sigma > 0$, the probabilistic reliability is "
        "$\\bar\\zeta = \\sup\\{x : n_p(1 - \\bar\\rho_i(x)) > \\varepsilon\\}$ with "
        f"$\\varepsilon$ = {result.reliability_tolerance:g} (found by Brent's method); with "
        "$\\sigma = 0$ it equals $\\zeta$.",
        f"Both profiles are tabulated on [1, {result.x_max:g}] at {result.grid_points} "
        "log-spaced points plus every breakpoint, so step functions are exact. Crossings of "
        "two curves are located exactly: at the breakpoints of step functions, by Brent's "
        "method (scipy.optimize.brentq) on the exact difference of smooth ones.",
    )


def build_section(
    result: ProbabilisticProfilesResult,
    options: ProbabilisticProfilesOptions,
    style: FigureStyle,
) -> Section:
    """Assemble the probabilistic-profiles section from the result (formatting only)."""
    blocks: list[Block] = [
        Text(
            "A performance profile ρ(x) shows the share of problems on which an algorithm's mean "
            + (
                "cost (evaluations to reach the target) is within x times the best; "
                if result.fixed_target
                else "final value is within x times the best mean final value (a fixed-cost "
                "view of the results, not a count of targets reached); "
            )
            + "it ignores how much the costs vary from run to run. "
            "The probabilistic profile ρ̄(x) (Barreto et al.) treats each cost as a random "
            "variable and shows the expected share instead: small differences between "
            "stochastic algorithms are smoothed out, and an algorithm whose costs scatter "
            "widely is no longer credited with a reliability it has only on average."
        ),
        Prose(tuple(findings(result, style))),
    ]
    blocks += figure_blocks(
        len(result.algorithms),
        lambda: figures(result, style),
        what="the standard and probabilistic profiles",
        instead="The summary table below gives each algorithm's profile values; the curves "
        f"are in tables/{options.id or options.kind}/profile.csv.",
    )
    blocks.append(_summary_table(result, style))
    crossings = _crossings_table(result, style)
    if crossings is not None:
        blocks.append(crossings)
    return Section(
        id=options.id or options.kind,
        title=options.title or "Probabilistic performance profiles",
        blocks=tuple(blocks),
        methods=_methods(result),
    )
