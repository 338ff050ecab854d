"""Golden tests of the performance/data profiles and of Liu et al.'s Algorithms 1 and 2.

Every expected number below is worked out by hand in the comments, from the histories given.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from reportgen.analyses.performance_profiles import (
    INCONCLUSIVE,
    NO_SIGNIFICANT_DIFFERENCE,
    SIGNIFICANTLY_WORSE,
    TIED_SHARE,
    WIDE_BOUNDS,
    compute,
)
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.errors import InputError
from reportgen.figures.style import make_style
from reportgen.narrative.performance_profiles import findings
from reportgen.spec.analyses.performance_profiles import PerformanceProfilesOptions


def histories(records: dict[tuple[str, str, int], list[list[tuple[float, float]]]]) -> AnalysisData:
    """Build a histories table from {(algorithm, problem, dim): [run records]}."""
    rows = []
    for (algorithm, problem, dim), runs in records.items():
        for run, points in enumerate(runs):
            rows += [
                {
                    "algorithm": algorithm,
                    "problem": problem,
                    "dimension": dim,
                    "run": run,
                    "evaluations": e,
                    "value": v,
                }
                for e, v in points
            ]
    frame = pd.DataFrame(rows)
    algorithms = tuple(dict.fromkeys(a for a, _, _ in records))
    problems = sorted_problems((p, d) for _, p, d in records)
    return AnalysisData("histories", frame, algorithms, problems)


def options(**kwargs: object) -> PerformanceProfilesOptions:
    return PerformanceProfilesOptions.model_validate(
        {"kind": "performance_profiles", "data": "h", **kwargs}
    )


# Two problems, three algorithms, two runs each.
#
# p1 (D = 2)
#   A: run 0 (1, 10) (4, 2) (10, 0); run 1 (1, 10) (6, 4) (8, 0)
#      mean curve at 1, 4, 6, 8, 10: (10+10)/2 = 10, (2+10)/2 = 6, (2+4)/2 = 3, (2+0)/2 = 1, 0
#   B: run 0 (2, 8) (5, 1); run 1 (1, 12) (3, 5) (9, 3)
#      starts at 2 (the first point where both runs have a record):
#      at 2, 3, 5, 9: (8+12)/2 = 10, (8+5)/2 = 6.5, (1+5)/2 = 3, (1+3)/2 = 2
#   C: both runs (1, 9) then (20, 0.5) / (20, 1.5): mean 9, then 1
# p2 (D = 4)
#   A: (1, 100) (50, 10) / (1, 100) (30, 20): at 1, 30, 50: 100, 60, 15
#   B: (1, 80) (10, 40) (20, 0) / (1, 120) (15, 10): at 1, 10, 15, 20: 100, 80, 25, 5
#   C: (1, 100) (40, 30) / (1, 100) (45, 30): at 1, 40, 45: 100, 65, 30
# Budget: the largest evaluation count, 50.
# f(x0) = largest first mean: p1 max(10, 10, 9) = 10; p2 max(100, 100, 100) = 100.
# f_L = smallest mean: p1 min(0, 2, 1) = 0; p2 min(15, 5, 30) = 5.
# The test f(x0) − f ≥ (1 − τ)(f(x0) − f_L) is f ≤ f_L + τ (f(x0) − f_L):
#   τ = 0.5:  p1 f ≤ 5     → A 6 (3), B 5 (3), C 20 (1)
#             p2 f ≤ 52.5  → A 50 (15), B 15 (25), C 45 (30)
#   τ = 0.25: p1 f ≤ 2.5   → A 8 (1), B 9 (2), C 20 (1)
#             p2 f ≤ 28.75 → A 50 (15), B 15 (25), C ∞ (30 > 28.75)
#   τ = 0.05: p1 f ≤ 0.5   → A 10 (0), B ∞, C ∞
#             p2 f ≤ 9.75  → A ∞, B 20 (5), C ∞
SMALL = {
    ("A", "p1", 2): [[(1, 10), (4, 2), (10, 0)], [(1, 10), (6, 4), (8, 0)]],
    ("B", "p1", 2): [[(2, 8), (5, 1)], [(1, 12), (3, 5), (9, 3)]],
    ("C", "p1", 2): [[(1, 9), (20, 0.5)], [(1, 9), (20, 1.5)]],
    ("A", "p2", 4): [[(1, 100), (50, 10)], [(1, 100), (30, 20)]],
    ("B", "p2", 4): [[(1, 80), (10, 40), (20, 0)], [(1, 120), (15, 10)]],
    ("C", "p2", 4): [[(1, 100), (40, 30)], [(1, 100), (45, 30)]],
}
T_EXPECTED = {
    0.5: {
        ("p1", "A"): 6,
        ("p1", "B"): 5,
        ("p1", "C"): 20,
        ("p2", "A"): 50,
        ("p2", "B"): 15,
        ("p2", "C"): 45,
    },
    0.25: {
        ("p1", "A"): 8,
        ("p1", "B"): 9,
        ("p1", "C"): 20,
        ("p2", "A"): 50,
        ("p2", "B"): 15,
        ("p2", "C"): math.inf,
    },
    0.05: {
        ("p1", "A"): 10,
        ("p1", "B"): math.inf,
        ("p1", "C"): math.inf,
        ("p2", "A"): math.inf,
        ("p2", "B"): 20,
        ("p2", "C"): math.inf,
    },
}


@pytest.fixture(scope="module")
def small_result():
    return compute(histories(SMALL), options(tolerances=[0.5, 0.25, 0.05]))


def test_start_value_and_best_mean_by_hand(small_result):
    table = small_result.problem_table.set_index("problem")
    assert table.loc["p1", "start_value"] == 10 and table.loc["p2", "start_value"] == 100
    assert table.loc["p1", "best_mean"] == 0 and table.loc["p2", "best_mean"] == 5
    assert small_result.budget == 50


def test_t_by_hand(small_result):
    t = small_result.t
    assert set(t["curve"]) == {"mean"}
    got = {(row.tolerance, row.problem, row.algorithm): row.t for row in t.itertuples()}
    expected = {(tau, p, a): v for tau, table in T_EXPECTED.items() for (p, a), v in table.items()}
    assert got == expected


def profile(result, kind: str, tau: float, algorithm: str) -> list[tuple[float, float]]:
    rows = result.profiles
    part = rows[
        (rows["profile"] == kind) & (rows["tolerance"] == tau) & (rows["algorithm"] == algorithm)
    ]
    return [(float(x), float(v)) for x, v in zip(part["x"], part["value"], strict=True)]


def test_performance_profiles_by_hand(small_result):
    # τ = 0.5: p1 t = (6, 5, 20) → ratios (1.2, 1, 4); p2 t = (50, 15, 45) → (10/3, 1, 3).
    np.testing.assert_allclose(
        profile(small_result, "performance", 0.5, "A"), [(1.0, 0.0), (1.2, 0.5), (10 / 3, 1.0)]
    )
    assert profile(small_result, "performance", 0.5, "B") == [(1.0, 1.0)]
    np.testing.assert_allclose(
        profile(small_result, "performance", 0.5, "C"), [(1.0, 0.0), (3.0, 0.5), (4.0, 1.0)]
    )
    # τ = 0.05: p1 only A (ratio 1); p2 only B (ratio 1); C never.
    assert profile(small_result, "performance", 0.05, "A") == [(1.0, 0.5)]
    assert profile(small_result, "performance", 0.05, "C") == [(1.0, 0.0)]


def test_data_profiles_by_hand(small_result):
    # κ = t / (D + 1): p1 (D = 2): 6/3 = 2, 5/3, 20/3; p2 (D = 4): 50/5 = 10, 3, 9.
    # The left end of every data profile is the smallest κ of all algorithms, 5/3.
    np.testing.assert_allclose(
        profile(small_result, "data", 0.5, "A"), [(5 / 3, 0.0), (2.0, 0.5), (10.0, 1.0)]
    )
    np.testing.assert_allclose(profile(small_result, "data", 0.5, "B"), [(5 / 3, 0.5), (3.0, 1.0)])
    np.testing.assert_allclose(
        profile(small_result, "data", 0.5, "C"), [(5 / 3, 0.0), (20 / 3, 0.5), (9.0, 1.0)]
    )


def test_mean_ranking_by_hand(small_result):
    ranking = small_result.mean_ranking
    at = ranking[ranking["tolerance"] == 0.5].set_index("algorithm")
    # All solve both problems; the tie-break mean 1/r: A (1/1.2 + 3/10)/2 = 0.56667,
    # B (1 + 1)/2 = 1, C (1/4 + 1/3)/2 = 0.291667.
    assert at["mean_inverse_ratio"].to_dict() == pytest.approx(
        {"A": (1 / 1.2 + 0.3) / 2, "B": 1.0, "C": (0.25 + 1 / 3) / 2}
    )
    assert at.sort_values("rank").index.tolist() == ["B", "A", "C"]
    assert at.loc["B", "fastest"] == 1.0
    # τ = 0.05: A and B each solve one problem, fastest there: equal in solved and mean 1/r,
    # so study order decides: A, B, then C.
    low = ranking[ranking["tolerance"] == 0.05].sort_values("rank")
    assert low["algorithm"].tolist() == ["A", "B", "C"]
    assert low["solved"].tolist() == [0.5, 0.5, 0.0]


def test_right_end_of_both_profiles_is_the_share_solved(small_result):
    # Remark 3: lim d_s = lim ρ_s.
    rows = small_result.profiles
    ends = (
        rows.groupby(["profile", "tolerance", "algorithm"], observed=True)["value"]
        .last()
        .unstack("profile")
    )
    assert (ends["performance"] == ends["data"]).all()


# --- confidence bounds: Algorithms 1 and 2 ---------------------------------------------------
#
# Every run starts at (1, 100) and drops once, at evaluation E_s, to m − d or m + d (15 runs
# each of 30). Sample SD after the drop: S = d·√(30/29), so λS/√n_r = λ·d/√29; choosing
# d = c·√29 makes the bound curves exactly m ± λ·c. Before the drop all runs are at 100
# (S = 0), so f(x0) = 100 on every problem.


def dropping_runs(
    final_mean: float, c: float, at: float, n_runs: int = 30
) -> list[list[tuple[float, float]]]:
    d = c * math.sqrt(n_runs - 1)
    runs = []
    for r in range(n_runs):
        value = final_mean - d if r % 2 == 0 else final_mean + d
        runs.append([(1.0, 100.0), (at, value)])
    return runs


def test_algorithm_2_three_algorithms_five_problems():
    # Final means m (bound half-width per unit λ c), τ = 0.1:
    #          A         B            C
    #   p1     0 (0)     0 (0)        50 (0)
    #   p2     0 (0)     0 (0)        50 (0)
    #   p3     0 (0)     0 (0)        0 (0)
    #   p4     0 (0)     0 (0)        0 (0)
    #   p5     5 (0)     30 (c = 8)   50 (0)
    # Step 1 (means): f_L = 0 on p1–p4 → test f ≤ 10; on p5 f_L = 5 → f ≤ 5 + 0.1·95 = 14.5.
    #   A solves 5/5, B 4/5 (not p5: 30), C 2/5 (p3, p4). A wins.
    # Step 2, λ = 2: A's upper curve = its mean (c = 0); B's lower curve on p5 = 30 − 2·8 = 14;
    #   f_L on p5 = min(5, 14, 50) = 5 → f ≤ 14.5: A upper (5) and B lower (14) pass.
    #   A 5/5, B 5/5 → no significant difference; C 2/5 < 5/5 → significantly worse.
    # Step 2, λ = 1: B's lower on p5 = 30 − 8 = 22 > 14.5 → B 4/5 → significantly worse.
    # Ranking, λ = 2: {A, B} then {C}.
    # Ranking, λ = 1: {A}; then among {B, C}: step 1 f_L on p5 = 30 → f ≤ 30 + 7 = 37: B 5/5,
    #   C 2/5, B wins; step 2: B's upper on p5 = 38, f_L = min(38, 50) = 38 → f ≤ 44.2: B passes,
    #   C (50) fails; p1: f_L = min(0, 50) = 0 → C fails; C 2/5 < 5/5 → significantly worse.
    #   So A, B, C in three ranks.
    plan = {
        "A": [(0, 0), (0, 0), (0, 0), (0, 0), (5, 0)],
        "B": [(0, 0), (0, 0), (0, 0), (0, 0), (30, 8)],
        "C": [(50, 0), (50, 0), (0, 0), (0, 0), (50, 0)],
    }
    drop_at = {"A": 10.0, "B": 20.0, "C": 5.0}
    records = {
        (alg, f"p{i + 1}", 3): dropping_runs(m, c, drop_at[alg])
        for alg, rows in plan.items()
        for i, (m, c) in enumerate(rows)
    }
    result = compute(histories(records), options(tolerances=[0.1], lambdas=[1, 2]))
    verdicts = result.verdicts[result.verdicts["profile"] == "performance"]
    got = {
        (lam, algorithm): (winner, verdict)
        for lam, algorithm, winner, verdict in zip(
            verdicts["lambda"],
            verdicts["algorithm"],
            verdicts["winner"],
            verdicts["verdict"],
            strict=True,
        )
    }
    assert got == {
        (1.0, "B"): ("A", SIGNIFICANTLY_WORSE),
        (1.0, "C"): ("A", SIGNIFICANTLY_WORSE),
        (2.0, "B"): ("A", NO_SIGNIFICANT_DIFFERENCE),
        (2.0, "C"): ("A", SIGNIFICANTLY_WORSE),
    }
    # Performance and data profiles give the same verdicts (their right ends coincide).
    data_verdicts = (
        result.verdicts[result.verdicts["profile"] == "data"]
        .drop(columns="profile")
        .reset_index(drop=True)
    )
    assert data_verdicts.equals(verdicts.drop(columns="profile").reset_index(drop=True))
    ranking = result.ranking[result.ranking["profile"] == "performance"]
    ranks = {
        lam: part.groupby("rank", observed=True)["algorithm"].apply(list).tolist()
        for lam, part in ranking.groupby("lambda", observed=True)
    }
    assert ranks == {1.0: [["A"], ["B"], ["C"]], 2.0: [["A", "B"], ["C"]]}
    # The mean profiles: solved 5/5, 4/5, 2/5.
    mean_rank = result.mean_ranking.set_index("algorithm")
    assert mean_rank["solved"].to_dict() == {"A": 1.0, "B": 0.8, "C": 0.4}
    # 30 runs everywhere: no "fewer than 30 runs" caveat.
    assert not [c for c in result.caveats if c.code == "few_runs"]
    # The t table holds A's upper curve and the others' lower curves for each λ.
    t = result.t[(result.t["lambda"] == 2.0) & (result.t["problem"] == "p5")].set_index("algorithm")
    assert t.loc["A", "curve"] == "upper" and t.loc["B", "curve"] == "lower"
    assert t.loc["A", "t"] == 10.0 and t.loc["B", "t"] == 20.0 and math.isinf(t.loc["C", "t"])


def test_algorithm_1_winner_flips_between_steps():
    # Two algorithms, τ = 0.1, λ = 2 (bounds m ± 2c):
    #   p1: A m = 0, c = 5 (upper 10);  B m = 30, c = 10 (lower 10)
    #   p2: A m = 5, c = 10 (upper 25); B m = 12, c = 5 (lower 2)
    # Step 1: p1 f_L = 0 → f ≤ 10: A passes, B (30) fails; p2 f_L = 5 → f ≤ 14.5: both pass.
    #   A 2/2 > B 1/2: A wins on the means.
    # Step 2: p1 f_L = min(10, 10) = 10 → f ≤ 19: both pass; p2 f_L = min(25, 2) = 2 →
    #   f ≤ 11.8: A's upper (25) fails, B's lower (2) passes. A 1/2 < B 2/2: the winner loses,
    #   so there is no significant difference (Algorithm 1, second bullet).
    records = {
        ("A", "p1", 2): dropping_runs(0, 5, 10.0),
        ("B", "p1", 2): dropping_runs(30, 10, 10.0),
        ("A", "p2", 2): dropping_runs(5, 10, 10.0),
        ("B", "p2", 2): dropping_runs(12, 5, 10.0),
    }
    result = compute(histories(records), options(tolerances=[0.1], lambdas=[2]))
    assert result.mean_ranking["algorithm"].tolist() == ["A", "B"]
    row = result.verdicts[result.verdicts["profile"] == "performance"].iloc[0]
    assert (row["winner"], row["algorithm"], row["verdict"]) == (
        "A",
        "B",
        NO_SIGNIFICANT_DIFFERENCE,
    )
    confirmation = result.profiles[
        (result.profiles["step"] == "confirmation") & (result.profiles["profile"] == "performance")
    ]
    ends = confirmation.groupby("algorithm", observed=True)["value"].last()
    assert ends.to_dict() == {"A": 0.5, "B": 1.0}


def test_few_runs_caveat_and_bounds_below_best():
    records = {
        ("A", "p1", 2): dropping_runs(1.0, 1.0, 5.0, n_runs=4),
        ("B", "p1", 2): dropping_runs(2.0, 0.0, 5.0, n_runs=4),
    }
    # 4 < 30 runs; A's runs end at 1 ± d with d = √3 ≈ 1.73, S = d·√(4/3) = 2, so its lower
    # bound 1 − 2·2/√4 = −1 falls below its best run 1 − √3 ≈ −0.73.
    unclipped = compute(
        histories(records), options(tolerances=[0.1], lambdas=[2], clip_bounds=False)
    )
    codes = {c.code for c in unclipped.caveats}
    assert "few_runs" in codes and "bound_below_best" in codes
    # Clipped (the default), the lower bound stops at the best run: no such caveat.
    clipped = compute(histories(records), options(tolerances=[0.1], lambdas=[2]))
    assert {c.code for c in clipped.caveats} == {"few_runs"}
    assert clipped.clip_bounds and not unclipped.clip_bounds


def test_clipping_keeps_a_skewed_algorithm_from_solving_what_no_run_solved():
    # One problem, f(x0) = 100, τ = 0.1, λ = 2, 30 runs each.
    # A: every run drops to 5 at evaluation 10 (S = 0: bounds = mean = 5).
    # B: 28 runs drop to 20, 2 runs to 1000 at evaluation 20: mean m = (28·20 + 2·1000)/30
    #    = 85.33; S² = (28·(20 − m)² + 2·(1000 − m)²)/29; lower bound m − 2S/√30 ≈ −5.45,
    #    below B's best run (20) and below the optimum 0.
    # Step 1 (means): f_L = 5, test f ≤ 5 + 0.1·95 = 14.5: A passes, B fails. A wins.
    # Unclipped step 2: f_L = min(5, −5.45) → test f ≤ −5.45 + 0.1·105.45 ≈ 5.09: A's upper
    #   (5) and B's lower (−5.45) both pass: "no significant difference".
    # Clipped: B's lower = max(−5.45, 20) = 20; f_L = 5 → f ≤ 14.5: A passes, B (20) fails:
    #   significantly worse.
    m = (28 * 20 + 2 * 1000) / 30
    s = math.sqrt((28 * (20 - m) ** 2 + 2 * (1000 - m) ** 2) / 29)
    assert m - 2 * s / math.sqrt(30) == pytest.approx(-5.45, abs=0.01)
    records = {
        ("A", "p1", 2): [[(1.0, 100.0), (10.0, 5.0)] for _ in range(30)],
        ("B", "p1", 2): [[(1.0, 100.0), (20.0, 1000.0 if r < 2 else 20.0)] for r in range(30)],
    }
    for clip, expected in ((False, NO_SIGNIFICANT_DIFFERENCE), (True, SIGNIFICANTLY_WORSE)):
        result = compute(
            histories(records), options(tolerances=[0.1], lambdas=[2], clip_bounds=clip)
        )
        assert result.verdicts["verdict"].unique().tolist() == [expected]
    lower = result.t[(result.t["curve"] == "lower")]
    assert math.isinf(lower["t"].iloc[0])


def test_wide_bounds_make_the_verdict_inconclusive():
    # Two problems, τ = 0.1, λ = 2, bounds m ± 2c (dropping_runs), f(x0) = 100.
    # A: m = 0 on both, drops at 10; B: m = 8 on p1 and 12 on p2, c = 1 (lower 6 and 10).
    # Step 1: f_L = 0 → f ≤ 10: A solves 2/2, B 1/2 (12 > 10): A wins on the share solved.
    # Wide A (c = 10, upper 20): step 2 p1 f_L = min(20, 6) = 6 → f ≤ 6 + 0.1·94 = 15.4;
    #   p2 f_L = min(20, 10) = 10 → f ≤ 10 + 0.1·90 = 19: A's upper (20) fails both, B's lower
    #   (6, 10) passes both. A's upper solves 0 of the 2 problems its mean solves (< half):
    #   inconclusive (wide bounds), not "no significant difference". Its half-width 20 exceeds
    #   the tolerance band 0.1·(100 − 0) = 10 on both problems.
    # Narrow A (c = 3, upper 6): f_L = 6 on both → f ≤ 15.4: A (6) and B (6, 10) pass both →
    #   2/2 each: no significant difference, a tested one (B's mean solves fewer than A's).
    for c_a, verdict, reason, conclusive, wide in (
        (10.0, INCONCLUSIVE, WIDE_BOUNDS, False, 1.0),
        (3.0, NO_SIGNIFICANT_DIFFERENCE, "", True, 0.0),
    ):
        records = {
            (alg, p, 2): dropping_runs(m, c, at)
            for p, m_b in (("p1", 8.0), ("p2", 12.0))
            for alg, m, c, at in (("A", 0.0, c_a, 10.0), ("B", m_b, 1.0, 20.0))
        }
        result = compute(
            histories(records), options(tolerances=[0.1], lambdas=[2], profiles=["performance"])
        )
        assert result.verdicts["verdict"].tolist() == [verdict]
        assert result.verdicts["reason"].tolist() == [reason]
        power = result.power.iloc[0]
        assert (power["winner"], power["solved_mean"]) == ("A", 1.0)
        assert power["solved_upper"] == (0.0 if c_a == 10.0 else 1.0)
        assert bool(power["conclusive"]) is conclusive and power["wide_share"] == wide
        assert power["median_half_width"] == pytest.approx(2 * c_a)
        assert result.conclusive(0.1, 2.0) is conclusive
        # Only the tested "no significant difference" makes a shared place.
        expected = [(["A", "B"], "")] if conclusive else [(["A"], ""), (["B"], INCONCLUSIVE)]
        assert result.groups("performance", 0.1, 2.0) == expected


def test_a_tie_in_the_share_solved_is_untested_not_a_shared_place():
    # Two problems, τ = 0.1, λ = 2, f(x0) = 100; A: m = 0, c = 3 (upper 6), drops at 10;
    # B: m = 8, c = 1 (lower 6), drops at 20.
    # Step 1: f_L = 0 → f ≤ 10: both solve 2/2; A wins on the tie-break (r = 1 against 2).
    # Step 2: f_L = 6 → f ≤ 6 + 0.1·94 = 15.4: A's upper (6) and B's lower (6) pass both:
    #   2/2 each. The winner's upper curve solves all its mean solves (the round has power),
    #   but the right ends could not differ whatever the bounds: B's mean already solves as
    #   many as A's, and the speed that made A the winner is not what step 2 compares. The
    #   verdict is inconclusive (tied share solved) and the ranking puts A alone first, B after
    #   it by the mean order only — not "A, B" sharing first place.
    records = {
        (alg, p, 2): dropping_runs(m, c, at)
        for p in ("p1", "p2")
        for alg, m, c, at in (("A", 0.0, 3.0, 10.0), ("B", 8.0, 1.0, 20.0))
    }
    result = compute(
        histories(records), options(tolerances=[0.1], lambdas=[2], profiles=["performance"])
    )
    assert result.mean_ranking["algorithm"].tolist() == ["A", "B"]
    assert result.mean_ranking["solved"].tolist() == [1.0, 1.0]
    assert result.verdicts["verdict"].tolist() == [INCONCLUSIVE]
    assert result.verdicts["reason"].tolist() == [TIED_SHARE]
    assert result.conclusive(0.1, 2.0)
    confirmation = result.confirmation("performance", 0.1, 2.0)
    assert confirmation is not None
    assert confirmation.inconclusive_because(TIED_SHARE) == ["B"]
    assert confirmation.not_significant == []
    assert result.groups("performance", 0.1, 2.0) == [(["A"], ""), (["B"], INCONCLUSIVE)]
    assert result.ranks("performance", 0.1, 2.0) == {"A": 1, "B": 2}


def test_groups_never_lift_an_algorithm_over_a_better_mean():
    # τ = 0.1, λ = 2; bounds m ± 2c; f(x0) = 100. Final means (c):
    #          A (at 10)   B (at 20)   C (at 5)
    #   p1     0           0           0
    #   p2     0           0           50 (25: lower 0)
    #   p3     0           50          50 (25: lower 0)
    # Means: f_L = 0 on every problem → f ≤ 10: A 3/3, B 2/3, C 1/3: order A, B, C.
    # Step 2 (winner A, upper = mean): f_L = 0 → f ≤ 10: A 3/3, B's lower 2/3 → worse; C's
    #   lower (0, 0, 0) 3/3 → no significant difference. The paper's grouping would put C with
    #   A, above B; C follows B in the mean order, so A's group ends at B: {A}.
    # Round 2 on {B, C}: means f_L: p1 0, p2 0, p3 50 (→ f ≤ 55): B 3/3, C 2/3 (fails p2):
    #   B wins. Step 2: f_L p3 = min(B upper 50, C lower 0) = 0 → f ≤ 10: B 2/3 (≥ half of
    #   3/3: conclusive), C's lower 3/3 → no significant difference: {B, C}.
    plan = {
        "A": [(0, 0), (0, 0), (0, 0)],
        "B": [(0, 0), (0, 0), (50, 0)],
        "C": [(0, 0), (50, 25), (50, 25)],
    }
    drop_at = {"A": 10.0, "B": 20.0, "C": 5.0}
    records = {
        (alg, f"p{i + 1}", 3): dropping_runs(m, c, drop_at[alg])
        for alg, rows in plan.items()
        for i, (m, c) in enumerate(rows)
    }
    result = compute(
        histories(records), options(tolerances=[0.1], lambdas=[2], profiles=["performance"])
    )
    verdicts = dict(zip(result.verdicts["algorithm"], result.verdicts["verdict"], strict=True))
    assert verdicts == {"B": SIGNIFICANTLY_WORSE, "C": NO_SIGNIFICANT_DIFFERENCE}
    groups = result.ranking.groupby("rank", observed=True)["algorithm"].apply(list).tolist()
    assert groups == [["A"], ["B", "C"]]


def test_identical_algorithms_share_the_mean_rank():
    records = {
        (alg, p, 2): dropping_runs(1.0, 0.5, 10.0) for alg in ("A", "B", "C") for p in ("p1", "p2")
    }
    result = compute(histories(records), options(tolerances=[0.1]))
    assert result.mean_ranking["rank"].tolist() == [1, 1, 1]
    assert result.mean_ranking["position"].tolist() == [1, 2, 3]
    # With bounds: equal shares solved leave the test nothing to compare (inconclusive), but
    # equals still share their place — study order never ranks them.
    bounded = compute(histories(records), options(tolerances=[0.1], lambdas=[2]))
    assert set(bounded.verdicts["verdict"]) == {INCONCLUSIVE}
    assert set(bounded.verdicts["reason"]) == {TIED_SHARE}
    assert bounded.groups("performance", 0.1, 2.0) == [(["A", "B", "C"], "")]


def test_data_profiles_need_dimensions():
    records = {("A", "p1", 0): [[(1, 2), (2, 1)]], ("B", "p1", 0): [[(1, 2), (3, 1)]]}
    with pytest.raises(InputError, match="data profiles divide by the problem dimension"):
        compute(histories(records), options())
    result = compute(histories(records), options(profiles=["performance"]))
    assert result.t["t"].tolist() == [2.0, 3.0] * 4


def test_bound_curves_are_exact_step_functions():
    # Runs that improve at different points: the mean is evaluated at the union of points.
    records = {
        ("A", "p", 1): [[(1, 8), (3, 2)], [(1, 4), (5, 0)]],  # mean at 1, 3, 5: 6, 3, 1
        ("B", "p", 1): [[(1, 6), (2, 5)], [(1, 6), (4, 5)]],  # mean at 1, 2, 4: 6, 5.5, 5
    }
    # f0 = 6, f_L = 1, τ = 0.5: f ≤ 1 + 2.5 = 3.5 → A at 3; B never.
    result = compute(histories(records), options(tolerances=[0.5], profiles=["performance"]))
    assert result.t.set_index("algorithm")["t"].to_dict() == {"A": 3.0, "B": np.inf}


def test_row_order_does_not_matter():
    # The same records shuffled: groups are found and each run is sorted again.
    data = histories(SMALL)
    shuffled = data.frame.sample(frac=1.0, random_state=7).reset_index(drop=True)
    result = compute(
        AnalysisData("histories", shuffled, data.algorithms, data.problems),
        options(tolerances=[0.5, 0.25, 0.05], lambdas=[2]),
    )
    reference = compute(data, options(tolerances=[0.5, 0.25, 0.05], lambdas=[2]))
    for name, table in reference.tables().items():
        pd.testing.assert_frame_equal(result.tables()[name], table, obj=name)


# --- start_value: f(x0) from a column of the data ---------------------------------------------


def with_start_column(column: str = "x0", values: dict[str, float] | None = None) -> AnalysisData:
    data = histories(SMALL)
    frame = data.frame.copy()
    frame[column] = frame["problem"].map(values or {"p1": 12.0, "p2": 100.0})
    return AnalysisData("histories", frame, data.algorithms, data.problems)


def test_start_value_from_a_column_by_hand():
    # SMALL with f(x0) = 12 on p1 (instead of the worst first mean, 10) and 100 on p2.
    # τ = 0.5, p1: f_L = 0 → 12 − f ≥ 0.5·12 → f ≤ 6: A's mean 10, 6 at 1, 4 → t = 4;
    #   B's mean 10, 6.5, 3 at 2, 3, 5 → t = 5; C's 9, 1 at 1, 20 → t = 20.
    # p2 is unchanged (f(x0) = 100 either way): A 50, B 15, C 45.
    result = compute(with_start_column(), options(tolerances=[0.5], start_value="x0"))
    assert result.problem_table.set_index("problem")["start_value"].to_dict() == {
        "p1": 12.0,
        "p2": 100.0,
    }
    got = {(row.problem, row.algorithm): row.t for row in result.t.itertuples()}
    assert got == {
        ("p1", "A"): 4,
        ("p1", "B"): 5,
        ("p1", "C"): 20,
        ("p2", "A"): 50,
        ("p2", "B"): 15,
        ("p2", "C"): 45,
    }


def test_start_value_column_must_exist():
    with pytest.raises(InputError) as caught:
        compute(with_start_column("fx0"), options(start_value="f_x0"))
    (problem,) = caught.value.problems
    assert problem.where == "start_value"
    assert problem.message == (
        "the data has no column 'f_x0' (did you mean 'fx0'?); start_value must be "
        "'worst_first_mean' or a column giving f(x0) per problem; columns besides the "
        "histories: 'fx0'"
    )
    with pytest.raises(InputError, match="the data has no columns besides the histories"):
        compute(histories(SMALL), options(start_value="x0"))
    with pytest.raises(InputError, match="'value' is a histories column"):
        compute(with_start_column(), options(start_value="value"))


def test_start_value_column_must_be_constant_per_problem():
    data = with_start_column()
    frame = data.frame.copy()
    frame.loc[(frame["problem"] == "p2") & (frame["algorithm"] == "C"), "x0"] = 90.0
    varying = AnalysisData("histories", frame, data.algorithms, data.problems)
    with pytest.raises(InputError) as caught:
        compute(varying, options(start_value="x0"))
    assert caught.value.problems[0].message == (
        "the start-value column 'x0' must be constant per problem (one f(x0) shared by all "
        "algorithms and runs); it varies on p2 (D=4) (90 to 100)"
    )
    frame.loc[0, "x0"] = np.nan
    missing = AnalysisData("histories", frame, data.algorithms, data.problems)
    with pytest.raises(InputError, match="missing, not a number or infinite on p1 \\(D=2\\)"):
        compute(missing, options(start_value="x0"))


def test_start_value_option_accepts_any_column_name():
    assert options(start_value="f_x0").start_value == "f_x0"
    assert options().start_value == "worst_first_mean"
    with pytest.raises(ValueError):
        options(start_value="")


def test_a_start_value_column_from_the_loader_is_used_unless_the_rule_is_set():
    # The loader carries `columns: {start_value: ...}` as the column 'start_value'.
    data = with_start_column("start_value")
    unset = compute(data, options(tolerances=[0.5]))
    assert unset.start_value == "start_value"
    assert unset.problem_table["start_value"].tolist() == [12.0, 100.0]
    rule = compute(data, options(tolerances=[0.5], start_value="worst_first_mean"))
    assert rule.start_value == "worst_first_mean"
    assert rule.problem_table["start_value"].tolist() == [10.0, 100.0]


def test_bootstrap_bounds_follow_skewed_runs_without_clipping():
    # The skewed case of test_clipping_…: A's 30 runs all drop to 5 at evaluation 10; B's 28
    # runs to 20 and 2 to 1000 at evaluation 20; f(x0) = 100, τ = 0.1, λ = 2.
    # Formula, unclipped: B's lower bound 85.33 − 2·S/√30 ≈ −5.45 → "no significant difference".
    # bound: bootstrap (unclipped): a resample's mean is 20 + 980·K/30 with K ~ Binomial(30,
    # 1/15) the number of 1000-runs drawn; P(K = 0) = (14/15)³⁰ ≈ 0.126 > Φ(−2) ≈ 0.023, so the
    # lower bound is 20 (no resample can go below B's best run): step 2 f_L = 5 → f ≤ 14.5, A
    # passes, B (20) fails → significantly worse. A's bounds are 5 (all runs alike).
    assert abs((14 / 15) ** 30 - 0.126) < 0.001
    records = {
        ("A", "p1", 2): [[(1.0, 100.0), (10.0, 5.0)] for _ in range(30)],
        ("B", "p1", 2): [[(1.0, 100.0), (20.0, 1000.0 if r < 2 else 20.0)] for r in range(30)],
    }
    for bound, expected in (
        ("formula", NO_SIGNIFICANT_DIFFERENCE),
        ("bootstrap", SIGNIFICANTLY_WORSE),
    ):
        result = compute(
            histories(records),
            options(tolerances=[0.1], lambdas=[2], clip_bounds=False, bound=bound),
        )
        assert result.verdicts["verdict"].unique().tolist() == [expected], bound
    assert result.bootstrap == (1000, 20260101)
    assert result.to_json()["parameters"]["bound"] == "bootstrap"
    lower = result.t[(result.t["curve"] == "lower")]
    assert math.isinf(lower["t"].iloc[0])
    # The bound is printed in the report where used.
    from reportgen.figures.performance_profiles import bound_formula

    assert bound_formula(result, -1) == "the Φ(−λ) quantile of 1000 bootstrap means over the runs"


def test_thirty_tied_algorithms_are_not_all_named_in_one_sentence():
    """34 identical algorithms: the findings named all 33 contenders in one sentence ('The
    comparison with Alg01, Alg02, … and Alg33 is inconclusive'); a sentence names at most
    MAX_NAMED (12), as the README promises, and the tables hold every name."""
    names = [f"Alg{i:02d}" for i in range(34)]
    records = {(a, p, 2): dropping_runs(1.0, 0.5, 10.0) for a in names for p in ("p1", "p2")}
    result = compute(histories(records), options(tolerances=[0.1], lambdas=[2]))
    tie, verdict = [f.text for f in findings(result, make_style(tuple(names)))]
    assert (
        "Alg00, Alg01, Alg02, Alg03, Alg04, Alg05, Alg06, Alg07, Alg08, Alg09, Alg10, Alg11 "
        "and 22 more tie" in tie
    )
    assert (
        "The comparison with Alg01, " in verdict and "Alg12 and 21 more is inconclusive" in verdict
    )
    assert all(f"Alg{i}" not in tie + verdict for i in range(13, 34))
