"""Golden tests of the probabilistic performance profiles (Barreto et al., papers/001).

Sources of the expected numbers:
- the paper's Table 1 (§3) and every statement §3 makes about it and its Figure 1, quoted in
  each test; the numbers are read off Table 1 (all baselines b_j are 1, so ratios = costs);
- the behaviour the paper describes for its Figures 2 and 3 (§5: the Table 1 means with equal,
  then unequal standard deviations), with the numeric criteria stated in the tests and hand
  calculations with scipy.stats.norm written out below;
- the paper's §4 statement that σ = 0 gives the standard profile, as a hypothesis property test;
- small hand calculations for the empirical model, failures, cost_floor and input errors.
The paper's Table 2 (BBOB 2009, 40-D) cannot be checked: its data are not available here.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from scipy.stats import norm

from reportgen.analyses.probabilistic_profiles import (
    ProbabilisticProfilesResult,
    compute,
    normal_profile,
)
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.errors import InputError
from reportgen.figures.probabilistic_profiles import figures
from reportgen.figures.style import make_style
from reportgen.narrative.probabilistic_profiles import findings
from reportgen.render.blocks import TableBlock
from reportgen.render.sections.probabilistic_profiles import build_section
from reportgen.spec.analyses.probabilistic_profiles import ProbabilisticProfilesOptions

INF = math.inf
ROOT = Path(__file__).resolve().parents[2]

TABLE_1 = {
    "a1": [1.0, 1.0, 1.0, 5.0, 3.0],
    "a2": [INF, 5.5, 5.5, 1.0, 1.0],
    "a3": [2.0, 4.0, 4.0, 6.5, 8.0],
}
"""Barreto et al., Table 1: the costs c_ij (rows a_1..a_3, columns p_1..p_5)."""


def options(**kwargs: Any) -> ProbabilisticProfilesOptions:
    return ProbabilisticProfilesOptions(kind="probabilistic_profiles", data="table", **kwargs)


def summary_data(
    means: dict[str, list[float]], stds: dict[str, list[float]] | float = 0.0, n: int = 30
) -> AnalysisData:
    """A published table in the ``summary`` layout, problems p1, p2, ..."""
    rows = []
    for a, row in means.items():
        for j, mean in enumerate(row):
            std = stds if isinstance(stds, float) else stds[a][j]
            rows.append(
                {
                    "algorithm": a,
                    "problem": f"p{j + 1}",
                    "dimension": 0,
                    "mean": mean,
                    "std": std,
                    "n": n,
                }
            )
    n_p = len(next(iter(means.values())))
    return AnalysisData(
        "summary", pd.DataFrame(rows), tuple(means), tuple((f"p{j}", 0) for j in range(1, n_p + 1))
    )


def trials_data(rows: list[dict[str, object]], algorithms: tuple[str, ...]) -> AnalysisData:
    frame = pd.DataFrame(rows)
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    return AnalysisData("trials", frame, algorithms, problems)


def table1(sigma: float = 0.0, **kwargs: object) -> ProbabilisticProfilesResult:
    return compute(summary_data(TABLE_1, sigma), options(**kwargs))


def figure3(noisy: str) -> ProbabilisticProfilesResult:
    """Fig. 3: σ_ij = 0.1, except σ = 5 for algorithm ``noisy``."""
    stds = {a: [5.0 if a == noisy else 0.1] * 5 for a in TABLE_1}
    return compute(summary_data(TABLE_1, stds), options())


def column(result: ProbabilisticProfilesResult, name: str) -> list[float]:
    return [getattr(s, name) for s in result.summary]


def profile(result: ProbabilisticProfilesResult, algorithm: str, which: str) -> np.ndarray:
    i = result.algorithms.index(algorithm)
    return np.asarray((result.rho if which == "rho" else result.rho_bar)[i])


# --------------------------------------------------------------------------------------------
# §3: Table 1 and Figure 1 (standard profiles; σ = 0 so that ρ̄ = ρ as well)
# --------------------------------------------------------------------------------------------


def test_table1_winners_at_1() -> None:
    """ "By looking at the curves ρ_i(τ) at τ = 1, it is clear that algorithm a_1 presented the
    best performance on 60% of the problems, whereas algorithm a_2 was the winner at the
    remaining 40%. Hence, algorithm a_3 was never the best-performing method." """
    result = table1()
    assert column(result, "rho_1") == [0.6, 0.4, 0.0]
    assert column(result, "rho_bar_1") == [0.6, 0.4, 0.0]


def test_table1_solved_at_10() -> None:
    """ "When we check the performance profiles at τ = 10 we see that both a_1 and a_3 were able
    to solve all the problems, while algorithm a_2 solved only 80% of the test suite (in this
    example, 4 out of 5 problems)." (τ_max = 10, the default x_max.)"""
    result = table1()
    assert result.x_max == 10.0
    assert column(result, "solved") == [1.0, 0.8, 1.0]


def test_table1_reliability() -> None:
    """ "Algorithm a_1 is the most reliable one (ζ(a_1) = 5), followed by algorithm a_3
    (ζ(a_3) = 8). Algorithm a_2 is the least reliable, with ζ(a_2) = ∞." """
    result = table1()
    assert column(result, "zeta") == [5.0, INF, 8.0]
    assert column(result, "zeta_bar") == [5.0, INF, 8.0]


def test_table1_a1_outperforms_the_others() -> None:
    """ "As ρ_1(x) ≥ ρ_i(x) for i = 2, 3 over the interval considered, and since
    ζ(a_1) < τ_max, algorithm a_1 clearly outperforms a_2 and a_3 on the test set P." — exact:
    the profiles are tabulated at every breakpoint, so comparing the tables is comparing the
    step functions everywhere on [1, 10]."""
    result = table1()
    rho_1 = profile(result, "a1", "rho")
    assert (rho_1 >= profile(result, "a2", "rho")).all()
    assert (rho_1 >= profile(result, "a3", "rho")).all()
    assert result.summary_of("a1").zeta < result.x_max
    assert result.crossings_of("a1", "a2", "standard") == ()
    assert result.crossings_of("a1", "a3", "standard") == ()


def test_table1_specialised_versus_reliable() -> None:
    """ "If we are interested in a more specialized method which performs very well on a subset
    of the problems in P, then a_2 is clearly a better choice than a_3. On the other hand, if we
    are looking for a reliable algorithm, a_3 should be the selected one." """
    result = table1()
    a2, a3 = result.summary_of("a2"), result.summary_of("a3")
    assert a2.rho_1 > a3.rho_1
    assert a3.zeta < a2.zeta


def test_table1_discontinuity_points_are_the_entries() -> None:
    """ "ρ_i(x) is a nondecreasing, piecewise constant function, continuous from the right at
    each discontinuity point. The discontinuity points are the entries in Table 1." """
    result = table1()
    x = np.asarray(result.x)
    for algorithm, costs in TABLE_1.items():
        rho = profile(result, algorithm, "rho")
        assert (np.diff(rho) >= 0).all()
        jumps = set(x[1:][np.diff(rho) > 0].tolist()) | ({1.0} if rho[0] > 0 else set())
        assert jumps == {c for c in costs if c <= result.x_max}


def test_table1_a2_preferred_at_6_and_the_crossings_around_it() -> None:
    """ "suppose we are comparing algorithms a_2 and a_3 at τ = 6. By checking the plot shown in
    Figure 1, it is clear that a_2 should be the preferred choice in this case. However, when we
    observe that the curves ρ_2(x) and ρ_3(x) cross each other at x = 5.5 and x = 6.5, this
    seems like a questionable choice."

    From Table 1: ρ_2 − ρ_3 is 0.4 − 0.2 on [2, 4), 0.4 − 0.6 on [4, 5.5), 0.8 − 0.6 on
    [5.5, 6.5), 0.8 − 0.8 on [6.5, 8) and 0.8 − 1 from 8 on. The order therefore changes at 4
    (outside the paper's focus on τ = 6), at 5.5, and at 6.5, where the curves meet and coincide
    until a_3 passes a_2 at 8."""
    result = table1()
    assert result.standard_at("a2", 6.0) == 0.8
    assert result.standard_at("a3", 6.0) == 0.6
    crossings = result.crossings_of("a2", "a3", "standard")
    assert [(c.x, c.x_end) for c in crossings] == [(4.0, 4.0), (5.5, 5.5), (6.5, 8.0)]
    around_6 = [c.x for c in crossings if 5.0 <= c.x <= 7.0]
    assert around_6 == [5.5, 6.5]
    assert [(c.leader_before, c.leader_after) for c in crossings] == [
        ("a2", "a3"),
        ("a3", "a2"),
        ("a2", "a3"),
    ]


def test_table1_small_fluctuations_change_the_choice_at_6() -> None:
    """ "Looking back at Table 1, one can see that fluctuations of less than 10% in the
    performance of the algorithms could change this scenario completely." — 9.5% more cost for
    a_2 on p_2 and p_3 (5.5 → 6.0225) makes a_3 the better choice at τ = 6."""
    means = {**TABLE_1, "a2": [INF, 5.5 * 1.095, 5.5 * 1.095, 1.0, 1.0]}
    result = compute(summary_data(means), options())
    assert result.standard_at("a2", 6.0) == pytest.approx(0.4)
    assert result.standard_at("a3", 6.0) == pytest.approx(0.6)


# --------------------------------------------------------------------------------------------
# §5: Figure 2 (σ_ij equal for all entries) and Figure 3 (one algorithm's σ = 5)
# --------------------------------------------------------------------------------------------


def test_figure2_hand_calculation_at_4() -> None:
    """ρ̄_2(4) and ρ̄_3(4) for σ = 1, by hand (§4.1, b_j = 1):
    ρ̄_2(4) = (0 + 2Φ(4 − 5.5) + 2Φ(4 − 1))/5, ρ̄_3(4) = (Φ(2) + 2Φ(0) + Φ(−2.5) + Φ(−4))/5."""
    rho_bar_2 = (2 * norm.cdf(-1.5) + 2 * norm.cdf(3.0)) / 5
    rho_bar_3 = (norm.cdf(2.0) + 2 * 0.5 + norm.cdf(-2.5) + norm.cdf(-4.0)) / 5
    result = table1(sigma=1.0)
    k = result.x.index(4.0)  # 4 is a breakpoint (μ_3j/b_j), hence a tabulated point
    assert profile(result, "a2", "rho_bar")[k] == pytest.approx(rho_bar_2, abs=1e-14)
    assert profile(result, "a3", "rho_bar")[k] == pytest.approx(rho_bar_3, abs=1e-14)
    assert rho_bar_2 - rho_bar_3 == pytest.approx(0.0295, abs=1e-4)


def _gap_on_4_7(sigma: float) -> float:
    """max |ρ̄_2 − ρ̄_3| over the tabulated points in [4, 7] plus a dense independent check."""
    result = table1(sigma=sigma)
    x = np.asarray(result.x)
    inside = (x >= 4.0) & (x <= 7.0)
    tabulated = np.abs(profile(result, "a2", "rho_bar") - profile(result, "a3", "rho_bar"))
    dense = np.linspace(4.0, 7.0, 3001)
    s = np.full(5, sigma)
    independent = np.abs(
        normal_profile(TABLE_1["a2"], s, dense) - normal_profile(TABLE_1["a3"], s, dense)
    )
    assert tabulated[inside].max() == pytest.approx(independent.max(), abs=1e-3)
    return float(tabulated[inside].max())


def test_figure2_rho2_and_rho3_nearly_coincide_on_4_7() -> None:
    """ "Observe how the effect of increasing the standard deviation is to progressively smooth
    out and 'disentangle' the performance profile curves. In particular, notice how ρ̄_2(x) and
    ρ̄_3(x) get closer to each other until they almost coincide in the interval [4, 7] when
    σ_ij = 1."

    Criterion: with σ = 1 the largest gap on [4, 7] is at most 0.05, a quarter of the weight of
    one problem (1/n_p = 0.2) — it is 0.0295, at x = 4 (hand calculation above); with σ = 0.1
    (Fig. 2a, the base of Fig. 3) it is a whole problem, 0.2; and the gap shrinks as σ grows
    through 0.1, 0.25, 0.5, 1 (the intermediate levels of Fig. 2 are not given in the text)."""
    gaps = [_gap_on_4_7(sigma) for sigma in (0.1, 0.25, 0.5, 1.0)]
    assert gaps[0] == pytest.approx(0.2, abs=1e-6)
    assert gaps[-1] <= 0.05
    assert gaps[-1] == pytest.approx(0.0295, abs=1e-4)
    assert all(a > b for a, b in itertools.pairwise(gaps))


def test_figure2_reliability_of_a3_decreases_as_sigma_grows() -> None:
    """ "Also, notice how the reliability of a_3 decreases as σ_ij grows. This means that by
    using the standard performance profiles to compute ζ(a_3) one would be overestimating the
    real capability of this algorithm."

    ζ̄ (expected unsolved problems ≤ ε = 0.01) grows with σ and exceeds ζ(a_3) = 8; ρ̄_3(10)
    falls. Hand calculation for σ = 0.1: only a_3's entry at 8 has a tail left, so
    ζ̄ = 8 + 0.1·Φ⁻¹(0.99) = 8.2326; likewise ζ̄(a_1) = 5 + 0.1·Φ⁻¹(0.99)."""
    results = [table1(sigma=s) for s in (0.1, 0.25, 0.5, 1.0)]
    zeta_bar = [r.summary_of("a3").zeta_bar for r in results]
    solved_bar = [r.summary_of("a3").solved_bar for r in results]
    assert all(8.0 < a < b for a, b in itertools.pairwise(zeta_bar))
    assert all(a >= b for a, b in itertools.pairwise(solved_bar))
    assert solved_bar[-1] < 1.0
    assert zeta_bar[0] == pytest.approx(8 + 0.1 * norm.ppf(0.99), abs=1e-9)
    assert results[0].summary_of("a1").zeta_bar == pytest.approx(5 + 0.1 * norm.ppf(0.99), abs=1e-9)
    assert results[0].summary_of("a3").zeta == 8.0


def test_figure2_sigma_01_crossing_is_exact() -> None:
    """With σ = 0.1 the standard tie of ρ_2 and ρ_3 on [6.5, 8) becomes a crossing of ρ̄_2 and
    ρ̄_3 where a_3's tails of its entries at 6.5 and 8 balance: by symmetry at x = 7.25. The
    crossing is found by root finding on the exact (tail-accurate) difference, not on the grid
    (7.25 is not a grid point)."""
    result = table1(sigma=0.1)
    assert 7.25 not in result.x
    crossings = result.crossings_of("a2", "a3", "probabilistic")
    assert [c.x for c in crossings] == pytest.approx([4.0, 5.5, 7.25], abs=1e-9)
    assert all(c.x == c.x_end for c in crossings)


def test_figure3a_any_algorithm_can_be_best() -> None:
    """ "Observe in Figure 3a how the performance of algorithm a_1 degenerates when we change
    σ_1j from 0.1 to 5. Now the curve ρ̄_1(x) crosses both ρ̄_2(x) and ρ̄_3(x), leaving room for
    doubt where there was none. In fact, after this change any of the three algorithms could be
    selected as the best one, depending on the region of the x axis we decided to focus our
    analysis." """
    result = figure3("a1")
    assert result.crossings_of("a1", "a2", "probabilistic")
    assert result.crossings_of("a1", "a3", "probabilistic")
    rho_bar = np.array(result.rho_bar)
    assert set(np.argmax(rho_bar, axis=0).tolist()) == {0, 1, 2}
    for crossing in result.crossings_of("a1", "a2", "probabilistic"):  # exact roots
        i = np.array([crossing.x])
        values = [normal_profile(TABLE_1[a], [5.0 if a == "a1" else 0.1] * 5, i) for a in TABLE_1]
        assert values[0][0] == pytest.approx(values[1][0], abs=1e-12)


def test_figure3c_a3_solves_only_about_80_percent() -> None:
    """ "observe in Figure 3c how algorithm a_3, considered as a reliable method so far, solves
    only about 80% of the problems when σ_3j = 5."

    Hand calculation at x = 10 (b_j = 1): (Φ(8/5) + 2Φ(6/5) + Φ(3.5/5) + Φ(2/5))/5 = 0.8257.
    The narrative says it in the issue's words."""
    expected = (norm.cdf(1.6) + 2 * norm.cdf(1.2) + norm.cdf(0.7) + norm.cdf(0.4)) / 5
    result = figure3("a3")
    a3 = result.summary_of("a3")
    assert a3.solved == 1.0
    assert a3.solved_bar == pytest.approx(expected, abs=1e-12)
    assert abs(a3.solved_bar - 0.8) < 0.05
    texts = [f.text for f in findings(result, make_style(result.algorithms))]
    assert (
        "a3 looked as reliable as a1 (ρ(10) = 1.00 for both, on the mean costs), but its "
        "expected share solved at x = 10 is 0.83, against 1.00." in texts
    )


# --------------------------------------------------------------------------------------------
# §4: σ = 0 reduces to the standard profile (property test)
# --------------------------------------------------------------------------------------------

COSTS = st.sampled_from([1.0, 1.5, 2.0, 3.0, 4.0, 7.25, 9.0, 12.0, 150.0, INF])


@st.composite
def cost_tables(draw: st.DrawFn) -> dict[str, list[float]]:
    n_a = draw(st.integers(2, 4))
    n_p = draw(st.integers(1, 6))
    table = {f"A{i}": draw(st.lists(COSTS, min_size=n_p, max_size=n_p)) for i in range(n_a)}
    scale = draw(st.sampled_from([1e-3, 1.0, 37.0]))  # ratios do not depend on the unit
    return {a: [c * scale for c in row] for a, row in table.items()}


@settings(max_examples=60, deadline=None)
@given(cost_tables())
def test_sigma_zero_gives_the_standard_profile(table: dict[str, list[float]]) -> None:
    """ "If there is no uncertainty regarding the value of R_ij — that is, if R_ij is a constant
    rather than a random variable — the probabilistic performance profile reduces to its
    standard form." (§4, after Eq. 2): with σ = 0, ρ̄ = ρ at every tabulated point, and so are
    ρ̄(1), ρ̄(x_max), ζ̄ and the crossings."""
    result = compute(summary_data(table, 0.0), options(grid_points=50))
    assert result.rho_bar == result.rho
    for s in result.summary:
        assert (s.rho_bar_1, s.solved_bar, s.zeta_bar) == (s.rho_1, s.solved, s.zeta)
    standard = [c for c in result.crossings if c.profile == "standard"]
    expected = [c for c in result.crossings if c.profile == "probabilistic"]
    key = [
        (c.algorithm_a, c.algorithm_b, c.x, c.x_end, c.leader_before, c.leader_after)
        for c in standard
    ]
    assert key == [
        (c.algorithm_a, c.algorithm_b, c.x, c.x_end, c.leader_before, c.leader_after)
        for c in expected
    ]


# --------------------------------------------------------------------------------------------
# Failures, the empirical model, trials input, cost_floor
# --------------------------------------------------------------------------------------------


def runs(
    algorithm: str, problem: str, costs: list[float], column: str = "evaluations_to_target"
) -> list[dict[str, object]]:
    """Trials rows: ``costs`` in ``column`` (the final ``value`` is 1 unless it is the cost)."""
    rows: list[dict[str, object]] = []
    for k, cost in enumerate(costs):
        row: dict[str, object] = {
            "algorithm": algorithm,
            "problem": problem,
            "dimension": 0,
            "run": k,
            "value": 1.0,
        }
        row[column] = cost
        rows.append(row)
    return rows


def test_infinite_mean_contributes_zero() -> None:
    """§4.1/METHODS.md: "an entry with infinite mean contributes 0". a_2 on p_1 (∞ in Table 1)
    adds nothing for any x and any σ: with σ = 1, ρ̄_2(x) ≤ 4/5 everywhere."""
    result = table1(sigma=1.0)
    assert profile(result, "a2", "rho_bar").max() <= 0.8
    one = normal_profile([INF], [1.0], [1.0, 10.0, 1e300])
    assert one.tolist() == [0.0, 0.0, 0.0]


def test_failed_runs_in_both_models() -> None:
    """Trials: A fails every run on p2 (contributes 0), B fails one of four runs on p2.

    Hand calculation. Means: A p1 = 10, B p1 = 20 (runs 15, 25), B p2 = ∞ (a failed run),
    A p2 = ∞: b_1 = 10, and p2 has no baseline (every mean ∞) — unsolved for everybody.
    Normal model: ρ̄_B(x) = Φ((x − 2)/(σ/10))/2 with σ = sd(15, 25) = 7.07; at x = 2: 1/4.
    Empirical model: B's runs on p1 have ratios 1.5 and 2.5 → ρ̄_B(2) = (1/2)/2 = 1/4;
    ρ̄_B(3) = 1/2; p2 contributes 0 even for B's three successful runs (no baseline)."""
    rows = (
        runs("A", "p1", [10.0, 10.0])
        + runs("A", "p2", [INF, INF])
        + runs("B", "p1", [15.0, 25.0])
        + runs("B", "p2", [30.0, INF, 30.0, 30.0])
    )
    data = trials_data(rows, ("A", "B"))
    normal = compute(data, options())
    k = normal.x.index(2.0)
    assert profile(normal, "B", "rho_bar")[k] == pytest.approx(0.25, abs=1e-15)
    assert normal.summary_of("A").solved_bar == 0.5
    codes = {c.code for c in normal.caveats}
    assert {"partial_failures", "no_baseline"} <= codes
    empirical = compute(data, options(model="empirical"))
    assert profile(empirical, "B", "rho_bar")[empirical.x.index(2.0)] == 0.25
    assert profile(empirical, "B", "rho_bar")[empirical.x.index(2.5)] == 0.5
    assert empirical.summary_of("B").zeta_bar == INF


def test_empirical_model_hand_calculation() -> None:
    """Two algorithms, two problems, evaluations to target.

    Means: A = (100, 300), B = (200, 150) → b = (100, 150). Run ratios: A p1 (0.8, 1.2),
    A p2 (1.6, 2.4); B p1 (1.5, 2.5), B p2 (0.8, 1.2). Empirical ρ̄_A(x) at x = 1: (1/2 + 0)/2 =
    0.25; at 2: (1 + 1/2)/2 = 0.75; ζ̄_A = 2.4 (the last run ratio). Standard: ρ_A(1) = 1/2,
    ζ_A = 2, ζ_B = 2."""
    rows = (
        runs("A", "p1", [80.0, 120.0])
        + runs("A", "p2", [240.0, 360.0])
        + runs("B", "p1", [150.0, 250.0])
        + runs("B", "p2", [120.0, 180.0])
    )
    result = compute(trials_data(rows, ("A", "B")), options(model="empirical"))
    a = result.summary_of("A")
    assert (a.rho_1, a.rho_bar_1, a.zeta, a.zeta_bar) == (0.5, 0.25, 2.0, pytest.approx(2.4))
    assert profile(result, "A", "rho_bar")[result.x.index(2.0)] == 0.75
    assert result.summary_of("B").zeta == 2.0


def test_trials_and_summary_agree() -> None:
    """§4.1: "the means and the standard deviations are the only two statistics necessary": runs
    with mean μ and sample SD σ (ddof = 1) give the same profiles as the table (μ, σ)."""
    means = {"A": [10.0, 30.0, 5.0], "B": [20.0, 15.0, 6.0]}
    half = {"A": [1.0, 4.0, 0.5], "B": [3.0, 2.0, 0.0]}
    rows = []
    for a in means:
        for j, (m, h) in enumerate(zip(means[a], half[a], strict=True)):
            rows += runs(a, f"p{j + 1}", [m - h, m + h])
    from_runs = compute(trials_data(rows, ("A", "B")), options())
    stds = {a: [h * math.sqrt(2) for h in half[a]] for a in half}
    from_table = compute(summary_data(means, stds, n=2), options())
    assert from_runs.x == from_table.x
    np.testing.assert_allclose(from_runs.rho_bar, from_table.rho_bar, atol=1e-12)
    assert from_runs.rho == from_table.rho


def test_cost_floor() -> None:
    """METHODS.md: final errors of 0 need an explicit cost_floor; costs below it are raised to
    it. With floor 1e-8: A = (1e-8, 2e-8) → mean 1.5e-8; B = (0, 0) → 1e-8: ratio A = 1.5."""
    rows = runs("A", "p1", [1e-8, 2e-8], "value") + runs("B", "p1", [0.0, 0.0], "value")
    data = trials_data(rows, ("A", "B"))
    with pytest.raises(InputError, match="cost_floor"):
        compute(data, options(cost="value"))
    result = compute(data, options(cost="value", cost_floor=1e-8))
    assert result.summary_of("A").zeta == pytest.approx(1.5)
    assert result.summary_of("B").zeta == 1.0
    (caveat,) = [c for c in result.caveats if c.code == "cost_floor"]
    # In the report's notation, as the other caveats and the methods print it (not "1e-08").
    assert "2 run costs below cost_floor = 10⁻⁸ were raised to it" in caveat.message


def test_summary_floor_is_exact_when_every_run_is_below() -> None:
    """Summary input: the maximum ≤ floor means every run was floored, so σ becomes 0."""
    frame = pd.DataFrame(
        [
            {
                "algorithm": "A",
                "problem": "p1",
                "dimension": 0,
                "mean": 5e-9,
                "std": 1e-9,
                "n": 30,
                "maximum": 9e-9,
            },
            {
                "algorithm": "B",
                "problem": "p1",
                "dimension": 0,
                "mean": 2e-8,
                "std": 1e-8,
                "n": 30,
                "maximum": 5e-8,
            },
        ]
    )
    data = AnalysisData("summary", frame, ("A", "B"), (("p1", 0),))
    result = compute(data, options(cost="value", cost_floor=1e-8))
    a = next(e for e in result.entries if e.algorithm == "A")
    assert (a.mean, a.std, a.ratio) == (1e-8, 0.0, 1.0)
    assert result.summary_of("A").rho_bar_1 == 1.0


# --------------------------------------------------------------------------------------------
# Input errors and the spec
# --------------------------------------------------------------------------------------------


def test_summary_needs_mean_std_and_n() -> None:
    data = summary_data(TABLE_1)
    data = AnalysisData("summary", data.frame.drop(columns="std"), data.algorithms, data.problems)
    with pytest.raises(InputError, match="missing: 'std'"):
        compute(data, options())


def test_missing_entries() -> None:
    # Wrong layouts are refused by the spec (tests/spec/test_layouts.py).
    data = summary_data(TABLE_1)
    partial = AnalysisData("summary", data.frame.iloc[1:], data.algorithms, data.problems)
    with pytest.raises(InputError, match=r"missing: \(a1, p1\)"):
        compute(partial, options())


def test_normal_model_needs_two_runs() -> None:
    rows = runs("A", "p1", [3.0]) + runs("B", "p1", [4.0, 5.0])
    data = trials_data(rows, ("A", "B"))
    with pytest.raises(InputError, match="at least two runs"):
        compute(data, options())
    assert compute(data, options(model="empirical")).summary_of("A").rho_bar_1 == 1.0


def test_negative_costs_and_infinite_values_are_errors() -> None:
    with pytest.raises(InputError, match="negative"):
        compute(summary_data({"A": [-1.0], "B": [2.0]}), options())
    with pytest.raises(InputError, match="cost 'value' must be finite"):
        compute(summary_data({"A": [INF], "B": [2.0]}), options(cost="value"))


def test_spec_is_strict() -> None:
    for bad in (
        {"x_max": "10"},
        {"x_max": 1.0},
        {"cost_floor": 0.0},
        {"model": "lognormal"},
        {"grid": 10},
        {"reliability_tolerance": 0.5},
    ):
        with pytest.raises(ValidationError):
            options(**bad)
    assert options(x_max=10).x_max == 10.0


# --------------------------------------------------------------------------------------------
# Tables, JSON, figure, narrative, section
# --------------------------------------------------------------------------------------------


def test_tables_and_json() -> None:
    result = table1(sigma=1.0)
    tables = result.tables()
    assert list(tables["profile"].columns) == ["algorithm", "x", "rho", "rho_bar"]
    assert list(tables["summary"].columns) == [
        "algorithm",
        "rho_1",
        "rho_bar_1",
        "solved",
        "solved_bar",
        "zeta",
        "zeta_bar",
    ]
    assert {"x", "x_end", "leader_before", "leader_after"} <= set(tables["crossings"].columns)
    document = json.loads(json.dumps(result.to_json(), allow_nan=False))
    assert document["summary"][1]["zeta"] == "inf"
    assert document["entries"][5]["mean"] == "inf"  # a2 on p1


def test_figure_section_and_findings() -> None:
    """One figure: per algorithm a dashed standard and a solid probabilistic curve in the same
    colour; the section's summary table marks the best of each column."""
    result = figure3("a3")
    style = make_style(result.algorithms)
    (spec,) = figures(result, style)
    lines = spec.figure.axes[0].get_lines()
    assert [line.get_linestyle() for line in lines] == ["--", "-"] * 3
    for i in range(3):
        assert (
            lines[2 * i].get_color()
            == lines[2 * i + 1].get_color()
            == style.of(result.algorithms[i]).color
        )
    section = build_section(result, options(), style)
    (summary,) = [b for b in section.blocks if isinstance(b, TableBlock) and b.name == "summary"]
    assert summary.frame["ρ̄(10)"].tolist() == ["1.00", "0.80", "0.83"]
    assert summary.bold is not None
    assert summary.bold["ζ"].tolist() == [True, False, False]
    assert section.methods


def test_published_table_example() -> None:
    """The example study's data (a published table of means and SDs, CEC 2022) runs with
    cost 'value' and cost_floor 1e-8. F9 in 10-D has σ = 0 for both entrants, so its ratio is the
    ratio of the printed means, 2.2928438e+02 / 1.8550170e+02."""
    path = ROOT / "example_studies" / "published_table" / "data" / "cec2022_basics.csv"
    frame = pd.read_csv(path)
    data = AnalysisData(
        "summary",
        frame,
        ("EA4eig", "jSObinexpEig"),
        sorted_problems(zip(frame["problem"], frame["dimension"], strict=True)),
    )
    result = compute(data, options(cost="value", cost_floor=1e-8, x_max=100.0))
    f9 = next(
        e
        for e in result.entries
        if (e.algorithm, e.problem, e.dimension) == ("jSObinexpEig", "F9", 10)
    )
    assert f9.ratio == pytest.approx(2.2928438e02 / 1.8550170e02, rel=1e-12)
    assert len(result.problems) == 24


def test_final_values_are_never_solved_and_impossible_mass_is_a_caveat() -> None:
    """cost: value — ratios of final values say "within x times the best", never "solves".
    Normal model, hand calculation: A on p1 has mean 1, SD 1 → P(C ≤ 0) = Φ(−1) = 0.1587
    (16 %, above the 1 % limit: a caveat naming it); B on p1 (mean 2, SD 0.1) has Φ(−20) ≈ 0."""
    data = summary_data({"A": [1.0, 2.0], "B": [2.0, 1.0]}, {"A": [1.0, 0.1], "B": [0.1, 0.1]})
    result = compute(data, options(cost="value", x_max=10))
    assert not result.fixed_target
    style = make_style(("A", "B"))
    said = [f.text for f in findings(result, style)]
    assert not [t for t in said if "solve" in t]
    assert said[1].startswith(
        "A and B have the largest share of the problems with a mean final value within "
        "x = 10 times the best (ρ(10) = 1.00)"
    )
    (caveat,) = [c for c in result.caveats if c.code == "normal_negative_mass"]
    assert f"(up to {100 * norm.cdf(-1.0):.0f} %)" in caveat.message
    assert "(up to 16 %)" in caveat.message and "which no run can have" in caveat.message
    assert caveat.where == "(A, p1): 0.16"
    section = build_section(result, options(cost="value", x_max=10), style)
    texts = [getattr(b, "text", "") for b in section.blocks] + [
        getattr(b, "caption", "") for b in section.blocks
    ]
    assert not [t for t in texts if "solved" in t or "solves" in t]
    # ζ̄ is said once "beyond" its ratio ("beyond this ratio … expected to remain beyond it").
    (zeta,) = [t for t in said if "ζ̄ = " in t]
    assert "problems are expected to lie)." in zeta and "remain beyond it" not in zeta
    (table,) = [b for b in section.blocks if isinstance(b, TableBlock) and b.name == "summary"]
    assert "the ratio beyond which fewer than ε = 0.01 problems are expected to lie" in (
        table.caption
    )
    (figure, *_) = figures(result, style)
    assert figure.figure.axes[0].get_ylabel() == "share of problems within x of the best"


@pytest.mark.parametrize("model", ["normal", "empirical"])
def test_by_problem_terms_average_to_the_expected_profile(model: str) -> None:
    # The per-problem terms the summary's bootstrap resamples: their means over the problems
    # are ρ̄(1) and ρ̄(x_max). Empirical, by hand (test_empirical_model_hand_calculation):
    # A's terms at 1 are 1/2 (p1: one run of two at ratio ≤ 1) and 0 (p2).
    rows = (
        runs("A", "p1", [80.0, 120.0])
        + runs("A", "p2", [240.0, 360.0])
        + runs("B", "p1", [150.0, 250.0])
        + runs("B", "p2", [120.0, 180.0])
    )
    result = compute(trials_data(rows, ("A", "B")), options(model=model))
    terms = result.by_problem
    assert terms is not None and len(terms) == 4
    for algorithm, rows_of in terms.groupby("algorithm", observed=True):
        summary = result.summary_of(str(algorithm))
        assert rows_of["at_1"].mean() == pytest.approx(summary.rho_bar_1, abs=1e-12)
        assert rows_of["at_x_max"].mean() == pytest.approx(summary.solved_bar, abs=1e-12)
    if model == "empirical":
        assert terms[terms["algorithm"] == "A"]["at_1"].tolist() == [0.5, 0.0]


@pytest.mark.parametrize("model", ["normal", "empirical"])
def test_nothing_solved_is_said_once_instead_of_winners(model: str) -> None:
    """Every run of A and B fails on both problems: every cost is ∞, ρ and ρ̄ are 0. The
    findings said 'A and B win most often, both on the mean costs (ρ(1) = 0.00)' and 'solve
    the largest share of the problems (ρ(10) = 0.00)'."""
    rows = [row for a in ("A", "B") for p in ("p1", "p2") for row in runs(a, p, [INF, INF])]
    result = compute(
        trials_data(rows, ("A", "B")), options(cost="evaluations_to_target", model=model)
    )
    said = findings(result, make_style(("A", "B")))
    assert [f.id for f in said] == ["nothing_solved"]
    assert said[0].text == (
        "No algorithm solves any problem within x = 10, on the mean costs or in expectation "
        "(ρ and ρ̄ are 0 for every algorithm): these profiles cannot separate the algorithms."
    )
