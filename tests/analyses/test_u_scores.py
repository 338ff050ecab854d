"""Golden tests of the U-scores analysis (Price, Kumar & Suganthan, papers/002).

Sources of the expected numbers:
- Tables 2–6 of the paper (its worked example, §3.1), typed from the paper;
- Table 7 (CEC 2022 totals) and Table 8 (critical weights), typed from the paper;
- hand calculations written out below (exact Mann–Whitney p by enumeration, cut-points,
  functional U-scores);
- the identity Σ U = n²·m(m−1)/2 (§5.3) as a property test.
"""

from __future__ import annotations

import json
import math
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from reportgen.analyses.u_scores import (
    TrialStates,
    UScoresResult,
    compute,
    critical_weights,
    dominance_codes,
    u_scores_of,
)
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.errors import InputError
from reportgen.figures.style import make_style
from reportgen.narrative.u_scores import findings
from reportgen.spec.analyses.u_scores import UScoresOptions
from tests.conftest import SHARED_DATA, require_shared

INF = math.inf
CEC2022 = SHARED_DATA / "cec2022-sobo-competition"


def options(**kwargs: Any) -> UScoresOptions:
    return UScoresOptions(kind="u_scores", data="runs", **{"target": 1e-8, **kwargs})


def trials_data(rows: list[dict[str, Any]], algorithms: tuple[str, ...]) -> AnalysisData:
    frame = pd.DataFrame(rows)
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    return AnalysisData("trials", frame, algorithms, problems)


# --------------------------------------------------------------------------------------------
# The paper's worked example, §3.1, Fig. 2 and Tables 2–6
# --------------------------------------------------------------------------------------------

PAPER_ORDER = "prqqrpqprqpr"
"""Fig. 2 / Table 2: the twelve trials from best to worst."""


def paper_example() -> AnalysisData:
    """Trials realising the order ``p r q q r p q p r q p r``: the first seven reach the target
    (EVmin) after 100, 200, ..., 700 evaluations; the last five stop at FEmax = 1000 with errors
    1, 2, ..., 5 ("Five trials terminate when they reach FEmax, while seven trials terminate when
    they reach EVmin")."""
    rows = []
    for place, letter in enumerate(PAPER_ORDER):
        success = place < 7
        rows.append(
            {
                "algorithm": letter.upper(),
                "problem": "f1",
                "dimension": 0,
                "run": place,
                "value": 0.0 if success else float(place - 6),
                "evaluations_to_target": 100.0 * (place + 1) if success else INF,
                "evaluations_used": 100.0 * (place + 1) if success else 1000.0,
            }
        )
    return trials_data(rows, ("P", "Q", "R"))


def test_table_2_u_scores_and_rank_sums() -> None:
    result = compute(paper_example(), options())
    table = result.u_scores.set_index("algorithm")
    # Table 2: SR = 26, 28, 24 (sum of ranks 78); U-score = SR − 4·5/2 = 16, 18, 14.
    assert table["rank_sum"].to_dict() == {"P": 26.0, "Q": 28.0, "R": 24.0}
    assert table["rank_sum"].sum() == 78.0
    assert table["u_score"].to_dict() == {"P": 16.0, "Q": 18.0, "R": 14.0}
    # "Algorithm Q wins with a score of 18."
    assert result.totals.iloc[0]["algorithm"] == "Q"
    assert result.totals.set_index("algorithm")["rank"].to_dict() == {"Q": 1, "P": 2, "R": 3}


def exact_two_sided_p(u: float, n: int) -> float:
    """Hand calculation: exact two-sided Mann–Whitney p for two samples of n untied trials, by
    enumerating every placement of one sample's ranks among 1..2n (C(2n, n) equally likely)."""
    counts = [sum(ranks) - n * (n + 1) / 2 for ranks in combinations(range(1, 2 * n + 1), n)]
    mean = n * n / 2
    extreme = [c for c in counts if abs(c - mean) >= abs(u - mean)]
    return len(extreme) / len(counts)


def test_tables_3_to_5_pairwise_u_scores_and_p_values() -> None:
    result = compute(paper_example(), options())
    pairs = result.pairwise.set_index(["algorithm_a", "algorithm_b"])
    # Table 3: P 7, Q 9 (SR 17, 19); Table 4: P 9, R 7 (SR 19, 17); Table 5: Q 9, R 7 (19, 17).
    expected = {("P", "Q"): (7, 9), ("P", "R"): (9, 7), ("Q", "R"): (9, 7)}
    rank_sums = {("P", "Q"): (17, 19), ("P", "R"): (19, 17), ("Q", "R"): (19, 17)}
    for pair, (wins_a, wins_b) in expected.items():
        row = pairs.loc[pair]
        assert (row["wins_a"], row["wins_b"]) == (wins_a, wins_b)
        correction = 4 * 5 / 2  # n(n+1)/2 for n = 4 trials
        assert (row["wins_a"] + correction, row["wins_b"] + correction) == rank_sums[pair]
        # "None of the differences in this example were significant at the 0.05 level in a
        # two-tailed Mann-Whitney U-test with a sample size of 4"; exact p by enumeration:
        # U = 7 of 16 → 2·P(U ≤ 7) = 2·31/70 ≈ 0.886.
        assert row["test"] == "exact"
        assert row["p_value"] == pytest.approx(exact_two_sided_p(min(wins_a, wins_b), 4))
        assert row["p_value"] == pytest.approx(62 / 70)
        assert row["p_value"] > 0.05
    # Nothing is significant: every pair ties on the one problem.
    assert (result.win_tie_loss[["wins", "ties", "losses"]].to_numpy() == [0, 1, 0]).all()


def test_table_6_pairwise_matrix() -> None:
    result = compute(paper_example(), options())
    matrix = result.pairwise_matrix("all")
    # Table 6 as printed (cell = wins of the column algorithm against the row one):
    #   vs.  P  Q  R
    #   P    —  9  7
    #   Q    7  —  7
    #   R    9  9  —
    #        16 18 14
    printed = {
        ("P", "Q"): 9,
        ("P", "R"): 7,
        ("Q", "P"): 7,
        ("Q", "R"): 7,
        ("R", "P"): 9,
        ("R", "Q"): 9,
    }
    for (row, column), value in printed.items():
        assert matrix.loc[row, column] == value
    assert matrix.loc["U-score"].to_dict() == {"P": 16.0, "Q": 18.0, "R": 14.0}
    assert all(math.isnan(matrix.loc[a, a]) for a in "PQR")


def test_section_3_2_tie_example() -> None:
    # §3.2: two algorithms, two trials each, ordered p q q p: "the U-score for P is 2 + 0 = 2
    # and the U-score for Q is 1 + 1 = 2".
    rows = [
        {"algorithm": a, "problem": "f", "dimension": 0, "run": i, "value": float(i + 1)}
        for i, a in enumerate("PQQP")
    ]
    result = compute(trials_data(rows, ("P", "Q")), options())
    assert result.u_scores.set_index("algorithm")["u_score"].to_dict() == {"P": 2.0, "Q": 2.0}
    assert result.totals["rank"].tolist() == [1, 1]


# --------------------------------------------------------------------------------------------
# Table 7 and Table 8: the CEC 2022 competition
# --------------------------------------------------------------------------------------------

TABLE_7 = {
    # algorithm: (10-D, 20-D, Total), typed from the paper's Table 7 (rank order)
    "EA4": (92239, 94139.5, 186378.5),
    "NL-LBC": (95230.5, 86685, 181915.5),
    "NL-MID": (80283, 75188.5, 155471.5),
    "S-DP": (65823.5, 78219.5, 144043),
    "jSObin": (65348, 77421, 142769),
    "MTT": (71860.5, 69258.5, 141119),
    "IUMO": (77085.5, 62444, 139529.5),
    "IMPML": (57460, 65457, 122917),
    "NLSOMA": (53927, 59696.5, 113623.5),
    "ZOCMAES": (50027, 57687, 107714),
    "OMCSO": (48571.5, 51877, 100448.5),
    "Co-PPSO": (38092.5, 34195.5, 72288),
    "SPHH": (40337, 14738, 55075),
}

TABLE_8 = [
    # (weight of the 20-D functions, ranks in the new order), typed from the paper's Table 8
    (4.77, "1 2 4 3 5 6 7 8 9 10 11 12 13"),
    (6.51, "1 2 4 3 5 6 8 7 9 10 11 12 13"),
    (6.69, "1 2 4 5 3 6 8 7 9 10 11 12 13"),
]


def test_table_8_critical_weights_from_table_7() -> None:
    totals = pd.DataFrame(
        {"D=10": [v[0] for v in TABLE_7.values()], "D=20": [v[1] for v in TABLE_7.values()]},
        index=list(TABLE_7),
    )
    table = critical_weights(totals, "D=20", {"D=10": 1.0, "D=20": 1.0})
    baseline = table[table["event"] == "baseline"].iloc[0]
    assert baseline["weight"] == 1.0
    assert baseline["order_by_baseline_rank"] == " ".join(str(i) for i in range(1, 14))
    above = table[(table["event"] == "swap") & (table["side"] == "above")]
    assert [round(w, 2) for w in above["weight"]] == [w for w, _ in TABLE_8]
    assert above["order_by_baseline_rank"].tolist() == [ranks for _, ranks in TABLE_8]
    # Hand calculation of the first: S-DP overtakes NL-MID where
    # 65823.5 + 78219.5·w = 80283 + 75188.5·w, i.e. w = 14459.5/3031 = 4.7705...
    first = above.iloc[0]
    assert first["weight"] == pytest.approx(14459.5 / 3031)
    assert (first["passing"], first["passed"], first["rank_after"]) == ("S-DP", "NL-MID", 3)
    # "Any function weight greater than 6.69 and the rankings only depend on the 20-D results."
    by_20d = sorted(TABLE_7, key=lambda a: -TABLE_7[a][1])
    assert above.iloc[-1]["ranking"] == " > ".join(by_20d)
    # Below the baseline: EA4 and NL-LBC swap where 92239 + 94139.5·w = 95230.5 + 86685·w.
    below = table[(table["event"] == "swap") & (table["side"] == "below")]
    swap = below[(below["passing"] == "NL-LBC") & (below["passed"] == "EA4")].iloc[0]
    assert swap["weight"] == pytest.approx(2991.5 / 7454.5)


def cec2022_trials() -> AnalysisData:
    """The organisers' exact U-score inputs (SOURCE.md): final error with errors ≤ 1e-8 set to
    0, and evaluations to target (MaxFES — or a ZOCMAES/SPHH early stop — when never reached)."""
    path = CEC2022 / "tidy" / "official_final_error_fes.csv"
    require_shared(path, "the CEC 2022 competition data")
    raw = pd.read_csv(path)
    success = raw["final_error"].to_numpy() <= 1e-8
    fes = raw["fes_to_target"].to_numpy(dtype=float)
    frame = pd.DataFrame(
        {
            "algorithm": raw["short"].astype(str).to_numpy(),
            "problem": ("f" + raw["function"].astype(str)).to_numpy(),
            "dimension": raw["dim"].to_numpy(dtype=int),
            "run": raw["run"].to_numpy(dtype=int),
            "value": raw["final_error"].to_numpy(dtype=float),
            "evaluations_to_target": np.where(success, fes, INF),
            "evaluations_used": fes,
        }
    )
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    return AnalysisData("trials", frame, tuple(TABLE_7), problems)


@pytest.fixture(scope="module")
def cec2022() -> tuple[AnalysisData, UScoresResult]:
    data = cec2022_trials()
    return data, compute(data, options())


def test_table_7_totals_reproduced_except_co_ppso(
    cec2022: tuple[AnalysisData, UScoresResult],
) -> None:
    _, result = cec2022
    totals = result.totals.set_index("algorithm")
    for algorithm, (d10, d20, total) in TABLE_7.items():
        got = (totals.loc[algorithm, "D=10"], totals.loc[algorithm, "D=20"])
        if algorithm == "Co-PPSO":
            # METHODS.md: the organisers' script overwrote some of Co-PPSO's pairwise scores.
            assert got[0] != d10 and got[1] != d20
            continue
        assert got == (d10, d20), algorithm
        assert totals.loc[algorithm, "total"] == total
    # The ranking of Table 7 (Co-PPSO stays 12th).
    assert result.totals["algorithm"].tolist() == list(TABLE_7)
    # Σ U = n²·m(m−1)/2 = 30²·13·12/2 = 70200 per problem; the published 10-D column violates it
    # by exactly Co-PPSO's deficit, the computed one satisfies it.
    per_problem = result.u_scores.groupby(["problem", "dimension"], observed=True)["u_score"].sum()
    assert (per_problem == 70200).all()
    published_10d = sum(v[0] for v in TABLE_7.values())
    assert published_10d == 12 * 70200 - (totals.loc["Co-PPSO", "D=10"] - 38092.5)
    assert totals["D=10"].sum() == 12 * 70200


def test_table_8_from_the_competition_data(cec2022: tuple[AnalysisData, UScoresResult]) -> None:
    _, result = cec2022
    table = result.critical_weights
    above = table[(table["group"] == "D=20") & (table["side"] == "above")]
    assert [round(w, 2) for w in above["weight"]] == [w for w, _ in TABLE_8]
    assert above["order_by_baseline_rank"].tolist() == [ranks for _, ranks in TABLE_8]


def test_the_organisers_tie_break_is_needed() -> None:
    # Without "fewer evaluations used wins" between failed trials of equal error, NL-LBC's 10-D
    # total is not Table 7's 95230.5 (equal errors at FEmax get half a point each instead).
    data = cec2022_trials()
    ten = data.frame[data.frame["dimension"] == 10]
    problems = tuple(p for p in data.problems if p[1] == 10)
    result = compute(
        AnalysisData("trials", ten, data.algorithms, problems), options(failed_tie_break="none")
    )
    assert result.totals.set_index("algorithm").loc["NL-LBC", "D=10"] != 95230.5


# --------------------------------------------------------------------------------------------
# Property: the rank-sum identity with random ties
# --------------------------------------------------------------------------------------------


@st.composite
def random_trials(draw: st.DrawFn) -> tuple[AnalysisData, int, int]:
    m = draw(st.integers(2, 5))
    n = draw(st.integers(1, 6))
    rows = []
    for problem in ("f1", "f2"):
        for j in range(m):
            for run in range(n):
                success = draw(st.booleans())
                rows.append(
                    {
                        "algorithm": f"A{j}",
                        "problem": problem,
                        "dimension": 10,
                        "run": run,
                        # few distinct values, so trials tie often
                        "value": 0.0 if success else draw(st.sampled_from([0.5, 1.0, 2.0])),
                        "evaluations_to_target": (
                            draw(st.sampled_from([10.0, 20.0, 30.0])) if success else INF
                        ),
                        "evaluations_used": draw(st.sampled_from([50.0, 100.0])),
                    }
                )
    return trials_data(rows, tuple(f"A{j}" for j in range(m))), n, m


@settings(max_examples=30, deadline=None)
@given(random_trials(), st.sampled_from(["evaluations_used", "none"]))
def test_rank_sum_identity(case: tuple[AnalysisData, int, int], tie_break: str) -> None:
    data, n, m = case
    # compute() raises UScoresConsistencyError if counting wins and rank sums disagree.
    result = compute(data, options(failed_tie_break=tie_break))
    per_problem = result.u_scores.groupby("problem", observed=True)["u_score"].sum()
    assert (per_problem == n * n * m * (m - 1) / 2).all()
    assert ((result.pairwise["wins_a"] + result.pairwise["wins_b"]) == n * n).all()
    assert result.totals["total"].sum() == 2 * n * n * m * (m - 1) / 2


@settings(max_examples=30, deadline=None)
@given(random_trials(), st.sampled_from(["evaluations_used", "none"]))
def test_functional_u_scores_equal_counted_wins(
    case: tuple[AnalysisData, int, int], tie_break: str
) -> None:
    # Functional U-scores come from rank sums alone; counting every pair of trials of
    # different problems (§3.3, route 1 of u_scores_of) must give the same numbers, bit for bit.
    data, _, _ = case
    result = compute(data, options(failed_tie_break=tie_break))
    frame = data.frame
    states = TrialStates(
        success=(frame["value"] <= 1e-8).to_numpy(),
        speed=frame["evaluations_to_target"].to_numpy(dtype=float),
        value=frame["value"].to_numpy(dtype=float),
        tie=frame["evaluations_used"].to_numpy(dtype=float)
        if tie_break == "evaluations_used"
        else np.zeros(len(frame)),
    )
    labels = (frame["problem"] == "f2").to_numpy(dtype=int)
    counted = u_scores_of(states, labels, 2).u
    shown = result.difficulty.set_index("problem")["functional_u_score"]
    assert [shown["f1"], shown["f2"]] == counted.tolist()
    # The trial codes kept for the run bootstrap: each problem's dominance codes of its trials.
    assert result.trial_codes is not None
    for problem in ("f1", "f2"):
        mine = (frame["problem"] == problem).to_numpy()
        kept = result.trial_codes[result.trial_codes["problem"] == problem]
        assert kept["algorithm"].tolist() == frame.loc[mine, "algorithm"].tolist()
        assert kept["code"].tolist() == dominance_codes(states.take(mine)).tolist()


def test_batched_tests_are_scipys_test_of_each_pair() -> None:
    # mann_whitney_tests stacks the pairs of several problems into one scipy call per method
    # and sample sizes; each pair must get what a call of its own gives, bit for bit.
    from scipy.stats import mannwhitneyu

    from reportgen.analyses.u_scores import mann_whitney_tests

    rng = np.random.default_rng(11)
    tasks = []
    for k, sizes in enumerate(([5, 5, 7], [30, 30, 30, 30], [5, 5, 7], [120, 3], [30, 30])):
        if k % 2:  # ties: asymptotic
            samples = [rng.integers(0, 12, n).astype(float) for n in sizes]
        else:  # distinct places: exact up to 100 trials
            places = rng.permutation(sum(sizes)).astype(float)
            samples = np.split(places, np.cumsum(sizes)[:-1])
        tasks.append((samples, list(combinations(range(len(sizes)), 2))))
    for (samples, pairs), (statistics, p_values, methods) in zip(
        tasks, mann_whitney_tests(tasks), strict=True
    ):
        for (a, b), statistic, p_value, method in zip(
            pairs, statistics, p_values, methods, strict=True
        ):
            alone = mannwhitneyu(samples[a], samples[b], alternative="two-sided", method=method)
            assert (statistic, p_value) == (alone.statistic, alone.pvalue)
    assert {m for _, _, methods in mann_whitney_tests(tasks) for m in methods} == {
        "exact",
        "asymptotic",
    }


# --------------------------------------------------------------------------------------------
# Cut-points, functional U-scores, weights (hand calculations)
# --------------------------------------------------------------------------------------------


def basin_histories() -> AnalysisData:
    """Two runs each. A reaches error 1 after 10 evaluations, B after 50; C is at 20, then 5
    after 60, then reaches the target (0) after 80. Budget 100."""
    curves = {
        "A": [(1, 10.0), (10, 1.0)],
        "B": [(1, 10.0), (50, 1.0)],
        "C": [(1, 20.0), (60, 5.0), (80, 0.0)],
    }
    rows = [
        {"algorithm": a, "problem": "f1", "dimension": 2, "run": run, "evaluations": e, "value": v}
        for a, curve in curves.items()
        for run in range(2)
        for e, v in curve
    ]
    return AnalysisData("histories", pd.DataFrame(rows), ("A", "B", "C"), (("f1", 2),))


def test_cutpoints_by_hand() -> None:
    result = compute(basin_histories(), options(cutpoints=[0.05, 0.25, 0.5, 1.0], budget=100))
    assert result.cutpoints is not None
    cut = result.cutpoints.set_index(["cutpoint", "algorithm"])["total"]
    # c = 0.05 (5 evaluations): A = B = 10, C = 20. A–B tie (4 × ½ = 2 each), both beat C (4).
    assert [cut[(0.05, a)] for a in "ABC"] == [6, 6, 0]
    # c = 0.25: A = 1 beats B = 10 and C = 20; B beats C.
    assert [cut[(0.25, a)] for a in "ABC"] == [8, 4, 0]
    # c = 0.5: A and B both at 1; A got there first (10 < 50 evaluations) and wins.
    assert [cut[(0.5, a)] for a in "ABC"] == [8, 4, 0]
    # c = 1: C reached the target (80 ≤ 100) and beats every failure.
    assert [cut[(1.0, a)] for a in "ABC"] == [4, 0, 8]
    assert result.u_scores.set_index("algorithm")["u_score"].to_dict() == {
        "A": 4.0,
        "B": 0.0,
        "C": 8.0,
    }
    # Without the tie-break, A and B share the points at c = 0.5: 2 + 4 = 6 each.
    plain = compute(
        basin_histories(), options(cutpoints=[0.5], budget=100, failed_tie_break="none")
    )
    assert plain.cutpoints is not None
    assert plain.cutpoints.set_index("algorithm")["total"].to_dict() == {
        "A": 6.0,
        "B": 6.0,
        "C": 0.0,
    }


def test_histories_budget_inferred_and_late_success() -> None:
    # Default budget: largest evaluation count recorded (80). With budget 70, C's success at
    # 80 is beyond the budget: a failure at error 5 (worse than A and B at 1).
    inferred = compute(basin_histories(), options())
    assert "budget_inferred" in {c.code for c in inferred.caveats}
    assert inferred.budget == {2: 80.0}
    late = compute(basin_histories(), options(budget=70))
    codes = {c.code: c for c in late.caveats}
    assert "C on f1 (D=2) run 0" in codes["evaluations_to_target_above_budget"].where
    assert late.u_scores.set_index("algorithm")["u_score"].to_dict() == {
        "A": 8.0,
        "B": 4.0,
        "C": 0.0,
    }


def test_a_budget_before_the_first_records_is_named_not_a_silent_tie() -> None:
    """``budget: 0.5`` for runs first logged after 1 evaluation gave every trial the state
    "no record" (+∞): all three algorithms tied at 3 points each, with only a tied_trials
    caveat. It is an error at ``budget`` now. Runs that start later than a budget others
    reach are failures without a value, named in a caveat: C's runs first log at 5 here."""
    with pytest.raises(InputError) as raised:
        compute(basin_histories(), options(budget=0.5))
    problem = raised.value.problems[0]
    assert problem.where == "budget"
    assert "ends before the first record of every run (the earliest at 1 evaluations)" in str(
        problem
    )
    data = basin_histories()
    frame = data.frame.assign(
        evaluations=np.where(
            (data.frame["algorithm"] == "C") & (data.frame["evaluations"] == 1),
            5.0,
            data.frame["evaluations"],
        )
    )
    result = compute(
        AnalysisData("histories", frame, data.algorithms, data.problems), options(budget=3)
    )
    caveat = {c.code: c for c in result.caveats}["runs_without_record"]
    assert caveat.where == "C on f1 (D=2) run 0; C on f1 (D=2) run 1"
    # A and B (at 10) tie with each other (4 × ½ = 2 each) and beat C (no value): 4 + 2.
    assert result.u_scores.set_index("algorithm")["u_score"].to_dict() == {
        "A": 6.0,
        "B": 6.0,
        "C": 0.0,
    }


def test_not_best_so_far_history_is_named_and_repaired() -> None:
    data = basin_histories()
    # B's run 1 records error 7 after 90 evaluations, worse than its 1 after 50.
    worse = {"algorithm": "B", "problem": "f1", "dimension": 2, "run": 1, "evaluations": 90}
    frame = pd.concat([data.frame, pd.DataFrame([{**worse, "value": 7.0}])], ignore_index=True)
    result = compute(AnalysisData("histories", frame, data.algorithms, data.problems), options())
    caveat = {c.code: c for c in result.caveats}["not_best_so_far"]
    assert caveat.where == "B on f1 (D=2) run 1"
    # The running minimum (1.0) is used, so B scores as before.
    assert result.u_scores.set_index("algorithm").loc["B", "u_score"] == 0.0


def test_functional_u_scores_by_hand() -> None:
    # Two algorithms, one trial each, on two problems in one dimension.
    # "easy": both succeed (after 10 and 30 evaluations); "hard": errors 1 and 2.
    # Every "easy" trial beats every "hard" one: functional U = 2·2 = 4 for easy, 0 for hard.
    # "mid": X succeeds after 20, Y fails with error 0.5 — against easy: X beats the 30-trial
    # (1 win), Y loses both (0); against hard: 2 + 2 = 4 wins. mid = 5; easy = 4 + (2 + 1) = 7;
    # hard = 0. Check: 7 + 5 + 0 = 12 = 3 pairs × 2·2 comparisons.
    rows = [
        {"algorithm": "X", "problem": "easy", "value": 0.0, "evaluations_to_target": 10.0},
        {"algorithm": "Y", "problem": "easy", "value": 0.0, "evaluations_to_target": 30.0},
        {"algorithm": "X", "problem": "hard", "value": 1.0, "evaluations_to_target": INF},
        {"algorithm": "Y", "problem": "hard", "value": 2.0, "evaluations_to_target": INF},
        {"algorithm": "X", "problem": "mid", "value": 0.0, "evaluations_to_target": 20.0},
        {"algorithm": "Y", "problem": "mid", "value": 0.5, "evaluations_to_target": INF},
    ]
    rows = [{**r, "dimension": 5, "run": 1} for r in rows]
    result = compute(trials_data(rows, ("X", "Y")), options())
    table = result.difficulty.set_index("problem")
    assert table["functional_u_score"].to_dict() == {"easy": 7.0, "mid": 5.0, "hard": 0.0}
    assert table["rank"].to_dict() == {"easy": 1, "mid": 2, "hard": 3}
    assert table.loc["easy", "share"] == pytest.approx(7 / 8)
    assert result.difficulty["problem"].tolist() == ["easy", "mid", "hard"]


def test_functional_u_scores_rank_by_share_with_unequal_trial_counts() -> None:
    # Unequal runs (allowed with a caveat): "many" and "worst" have 3 trials per algorithm,
    # "few" 1; all fail. Errors: few 0.5 < many 1.0 < worst 2.0. "few" beats every trial it
    # meets: 2·6 + 2·6 = 24 wins of 24 comparisons (share 1). "many" beats the 6 "worst"
    # trials with each of its 6: 36 wins of 6·8 = 48 (0.75). Ranking by wins (the old code)
    # put "many" first as the easiest although "few" beats it in every comparison.
    rows = []
    for problem, error, runs in (("many", 1.0, 3), ("few", 0.5, 1), ("worst", 2.0, 3)):
        for algorithm in ("X", "Y"):
            rows += [
                {"algorithm": algorithm, "problem": problem, "dimension": 5, "run": run,
                 "value": error, "evaluations_to_target": INF}
                for run in range(1, runs + 1)
            ]  # fmt: skip
    result = compute(trials_data(rows, ("X", "Y")), options(failed_tie_break="none"))
    table = result.difficulty.set_index("problem")
    assert table["functional_u_score"].to_dict() == {"few": 24.0, "many": 36.0, "worst": 0.0}
    assert table["share"].to_dict() == {"few": 1.0, "many": 0.75, "worst": 0.0}
    assert table["rank"].to_dict() == {"few": 1, "many": 2, "worst": 3}
    said = {f.id: f.text for f in findings(result, make_style(("X", "Y")))}
    assert "the easiest problem for these algorithms is few" in said["difficulty.D=5"]


def test_equally_hard_problems_are_not_called_easiest_and_hardest() -> None:
    # Two problems with the same trials: each problem's trials win half their comparisons
    # (ties count half). The finding named f1 the easiest and f2 the hardest, both at 50 %.
    rows = [
        {"algorithm": a, "problem": p, "dimension": 5, "run": 1, "value": v,
         "evaluations_to_target": INF}
        for p in ("f1", "f2") for a, v in (("X", 1.0), ("Y", 2.0))
    ]  # fmt: skip
    result = compute(trials_data(rows, ("X", "Y")), options(failed_tie_break="none"))
    said = {f.id: f.text for f in findings(result, make_style(("X", "Y")))}
    text = said["difficulty.D=5"]
    assert "easiest" not in text and "hardest" not in text
    assert text == (
        "At D=5, the 2 problems are equally hard for these algorithms: the trials of each win "
        "50 % of their comparisons with the other problems' trials."
    )


def test_weighted_totals_and_ranks() -> None:
    # One problem in 10-D and one in 20-D, two runs each (errors, no successes).
    # 10-D: A {1, 2} vs B {3, 4}: A wins all four comparisons → A 4, B 0.
    # 20-D: A {2, 4} vs B {1, 3}: only 2 < 3 goes to A → A 1, B 3.
    values = {10: {"A": [1.0, 2.0], "B": [3.0, 4.0]}, 20: {"A": [2.0, 4.0], "B": [1.0, 3.0]}}
    rows = [
        {"algorithm": a, "problem": "f", "dimension": d, "run": run, "value": v}
        for d, by_algorithm in values.items()
        for a, runs in by_algorithm.items()
        for run, v in enumerate(runs)
    ]
    data = trials_data(rows, ("A", "B"))
    plain = compute(data, options()).totals.set_index("algorithm")
    assert plain.loc["A", ["D=10", "D=20", "total", "rank"]].tolist() == [4, 1, 5, 1]
    assert plain.loc["B", ["D=10", "D=20", "total", "rank"]].tolist() == [0, 3, 3, 2]
    # Weight 3 on 20-D: A = 4 + 3·1 = 7, B = 0 + 3·3 = 9 → B first; they cross at w = 2.
    result = compute(data, options(weights={20: 3.0}))
    weighted = result.totals.set_index("algorithm")
    assert weighted["weighted_total"].to_dict() == {"B": 9.0, "A": 7.0}
    assert weighted["rank"].to_dict() == {"B": 1, "A": 2}
    swaps = result.critical_weights[result.critical_weights["event"] == "swap"]
    assert swaps.set_index("group").loc["D=20", "weight"] == pytest.approx(2.0)


# --------------------------------------------------------------------------------------------
# Data checks, input errors, options, JSON
# --------------------------------------------------------------------------------------------


def test_trial_data_checks_name_rows() -> None:
    rows = [
        # claims success (finite evaluations to target) but its error is above the target
        {"algorithm": "A", "value": 3.0, "evaluations_to_target": 50.0, "evaluations_used": 60.0},
        # evaluations to target above the evaluations it used
        {"algorithm": "A", "value": 0.0, "evaluations_to_target": 90.0, "evaluations_used": 80.0},
        {"algorithm": "B", "value": 0.0, "evaluations_to_target": 40.0, "evaluations_used": 40.0},
        {"algorithm": "B", "value": 2.0, "evaluations_to_target": INF, "evaluations_used": 100.0},
    ]
    rows = [{**r, "problem": "f1", "dimension": 10, "run": i % 2} for i, r in enumerate(rows)]
    result = compute(trials_data(rows, ("A", "B")), options())
    caveats = {c.code: c for c in result.caveats}
    assert caveats["success_above_target"].where == "A on f1 (D=10) run 0"
    assert caveats["evaluations_to_target_above_budget"].where == "A on f1 (D=10) run 1"
    # The claimed success counts as a failure at error 3: it loses to B's error 2 and to B's
    # success; A's real success (90) loses to B's (40) and beats B's failure: A = 1, B = 3.
    assert result.u_scores.set_index("algorithm")["u_score"].to_dict() == {"A": 1.0, "B": 3.0}


def test_budget_check_for_trials() -> None:
    rows = [
        {"algorithm": "A", "value": 0.0, "evaluations_to_target": 150.0},
        {"algorithm": "B", "value": 0.0, "evaluations_to_target": 40.0},
    ]
    rows = [{**r, "problem": "f1", "dimension": 10, "run": 0} for r in rows]
    result = compute(trials_data(rows, ("A", "B")), options(budget={10: 100.0}))
    assert {c.code for c in result.caveats} >= {"evaluations_to_target_above_budget"}


def test_missing_columns_fall_back_with_caveats() -> None:
    rows = [
        {"algorithm": a, "problem": "f1", "dimension": 0, "run": 0, "value": v}
        for a, v in (("A", 0.0), ("B", 0.0))
    ]
    result = compute(trials_data(rows, ("A", "B")), options())
    codes = {c.code for c in result.caveats}
    assert {"no_evaluations_to_target", "tie_break_unavailable", "tied_trials"} <= codes
    assert result.u_scores["u_score"].tolist() == [0.5, 0.5]
    assert result.tie_break_applied is False


def test_input_errors() -> None:
    rows = [
        {"algorithm": "A", "problem": "f1", "dimension": 0, "run": 0, "value": 1.0},
        {"algorithm": "B", "problem": "f1", "dimension": 0, "run": 0, "value": 2.0},
        {"algorithm": "A", "problem": "f2", "dimension": 0, "run": 0, "value": 2.0},
    ]
    with pytest.raises(InputError, match="no trials for B on f2"):
        compute(trials_data(rows, ("A", "B")), options())
    with pytest.raises(InputError, match="dimension 20"):
        compute(trials_data(rows[:2], ("A", "B")), options(weights={20: 2.0}))


def test_options_validation() -> None:
    with pytest.raises(ValidationError, match="strictly increasing"):
        options(cutpoints=[0.5, 0.1])
    with pytest.raises(ValidationError, match="greater than 0"):
        options(cutpoints=[0.0, 1.0])
    with pytest.raises(ValidationError, match="groups: dimension"):
        options(groups="none", weights={10: 2.0})
    with pytest.raises(ValidationError, match="boolean"):
        options(target=True)
    with pytest.raises(ValidationError, match="alpha"):
        options(alpha=1.5)
    with pytest.raises(ValidationError):
        options(failed_tie_break="fes")
    with pytest.raises(ValidationError, match="Extra inputs"):
        options(weight={10: 1.0})


def test_to_json_is_strict_json() -> None:
    result = compute(basin_histories(), options(cutpoints=[0.5, 1.0], budget=100))
    text = json.dumps(result.to_json(), allow_nan=False)
    payload = json.loads(text)
    assert set(payload["tables"]) == {
        "u_scores",
        "totals",
        "pairwise",
        "win_tie_loss",
        "critical_weights",
        "difficulty",
        "cutpoints",
        "cutpoint_records",
    }


def test_significant_wins_and_losses_by_hand() -> None:
    """Two algorithms, five failed trials each on four problems (values are final errors,
    none reaches 1e-8, so the more accurate trial wins):
      f1, f3: A has errors 1–5, B 6–10 → A wins all 25 comparisons, B none;
      f2:     reversed → B wins 25, A 0;
      f4:     A 1, 3, 5, 7, 9 and B 2, 4, 6, 8, 10 → A wins 5+4+3+2+1 = 15, B 10.
    Exact two-sided Mann–Whitney p (enumerated below): U = 0 of 25 → 2/252 = 0.0079 < 0.05
    (significant); U = 10 → not significant. So A: 2 significant wins (f1, f3), 1 loss (f2),
    1 tie (f4); totals A = 25 + 0 + 25 + 15 = 65, B = 0 + 25 + 0 + 10 = 35."""
    low, high = [1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0]
    values = {
        "f1": (low, high),
        "f2": (high, low),
        "f3": (low, high),
        "f4": ([1.0, 3.0, 5.0, 7.0, 9.0], [2.0, 4.0, 6.0, 8.0, 10.0]),
    }
    rows = [
        {"algorithm": a, "problem": p, "dimension": 0, "run": r, "value": v}
        for p, (a_values, b_values) in values.items()
        for a, vs in (("A", a_values), ("B", b_values))
        for r, v in enumerate(vs)
    ]
    result = compute(trials_data(rows, ("A", "B")), options())
    totals = result.totals.set_index("algorithm")["total"].to_dict()
    assert totals == {"A": 65.0, "B": 35.0}
    pairs = result.pairwise.set_index("problem")
    assert pairs.loc["f2", "wins_a"] == 0 and pairs.loc["f2", "wins_b"] == 25
    assert pairs.loc["f1", "p_value"] == pytest.approx(exact_two_sided_p(0, 5))
    assert pairs.loc["f1", "p_value"] == pytest.approx(2 / 252)
    assert pairs.loc["f4", "p_value"] == pytest.approx(exact_two_sided_p(10, 5))
    assert pairs.loc["f4", "p_value"] > 0.05
    wtl = result.win_tie_loss.set_index(["algorithm_a", "algorithm_b"])
    assert tuple(wtl.loc[("A", "B"), ["wins", "ties", "losses"]]) == (2, 1, 1)
    if ("B", "A") in wtl.index:
        assert tuple(wtl.loc[("B", "A"), ["wins", "ties", "losses"]]) == (1, 1, 2)


def checkpoint_histories() -> AnalysisData:
    """Records only at fixed checkpoints, like CEC's: 10-D at 10, 40, 100 evaluations (budget
    100), 20-D at 20, 60, 200 (budget 200). A reaches the target 0 at its 40 / 60 record, B at
    its 100 / 200 record, in both of two runs; C never (error 1)."""
    grid = {10: (10, 40, 100), 20: (20, 60, 200)}
    reach = {"A": 1, "B": 2, "C": None}
    rows = []
    for dimension, points in grid.items():
        for a, at in reach.items():
            for run in range(2):
                for i, e in enumerate(points):
                    value = 0.0 if at is not None and i >= at else 1.0 + (i == 0)
                    rows.append(
                        {"algorithm": a, "problem": "f1", "dimension": dimension, "run": run,
                         "evaluations": e, "value": value}
                    )  # fmt: skip
    frame = pd.DataFrame(rows)
    return AnalysisData("histories", frame, ("A", "B", "C"), (("f1", 10), ("f1", 20)))


def test_cutpoints_state_the_fraction_the_records_hold() -> None:
    # Cut-point 0.5: 10-D → 50 evaluations, the latest record at or below is 40 (0.40 of the
    # budget); 20-D → 100, latest record 60 (0.30). Cut-point 1.0 is a record in both.
    result = compute(
        checkpoint_histories(),
        options(cutpoints=[0.5, 1.0], budget={10: 100, 20: 200}, groups="dimension"),
    )
    records = result.cutpoint_records
    assert records is not None
    half = records[records["cutpoint"] == 0.5].set_index("dimension")
    assert half["evaluations"].to_dict() == {10: 40.0, 20: 60.0}
    assert half["fraction"].to_dict() == {10: 0.4, 20: 0.3}
    assert result.cutpoint_label(0.5) == "0.5 (state at 0.40·B in 10-D, 0.30·B in 20-D)"
    assert result.cutpoint_label(1.0) == "1"
    # Successes: 2 runs × 2 algorithms × 2 dimensions = 8, timed at 4 distinct records
    # (A at 40 and 60, B at 100 and 200).
    assert result.success_times == (8, 4)
    said = {f.id: f.text for f in findings(result, make_style(("A", "B", "C")))}
    assert "0.5 (state at 0.40·B in 10-D, 0.30·B in 20-D): A" in said["cutpoints.leader"]
    assert "the 8 trials that reach the target have just 4 distinct" in said["success_times"]


def test_cutpoint_before_every_record_says_so_instead_of_nan() -> None:
    # Cut-point 0.05: 10-D → 5 evaluations, before the first record (10) of every run, so
    # every trial there ties; 20-D (budget 400) → 20, the first record. The label printed
    # in the findings, the table note and the figure caption said "state at nan·B".
    result = compute(
        checkpoint_histories(),
        options(cutpoints=[0.05, 1.0], budget={10: 100, 20: 400}, groups="dimension"),
    )
    label = result.cutpoint_label(0.05)
    assert label == "0.05 (state before any record in 10-D, at 0.050·B in 20-D)"
    said = {f.id: f.text for f in findings(result, make_style(("A", "B", "C")))}
    assert "nan" not in said["cutpoints.leader"]
    assert label in said["cutpoints.leader"]


def test_cec2022_example_explains_co_ppso_with_the_computed_numbers(
    cec2022: tuple[AnalysisData, UScoresResult],
) -> None:
    """The cec2022 report explains Co-PPSO's published total where the totals appear; every
    number in that note is the computation's or Table 7's (so the note cannot drift)."""
    _, result = cec2022
    spec_path = Path(__file__).resolve().parents[2] / "example_studies/cec2022/study.yaml"
    spec = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
    (note,) = spec["analyses"][0]["notes"]
    row = result.totals.set_index("algorithm").loc["Co-PPSO"]
    computed = (row["D=10"], row["D=20"], row["total"])
    for value in (*computed, *TABLE_7["Co-PPSO"]):
        assert f"{value:g}" in note, value
    deficit = row["D=10"] - TABLE_7["Co-PPSO"][0]
    assert f"falls short by {deficit:g}" in note
    assert sum(v[0] for v in TABLE_7.values()) == 12 * 70200 - deficit
    assert f"12 · 70200 = {12 * 70200}" in note
    assert result.totals["algorithm"].tolist()[11] == "Co-PPSO"  # "stays 12th"


def test_wins_and_share_matrices_sum_the_pairwise_rows(
    cec2022: tuple[AnalysisData, UScoresResult],
) -> None:
    # Every cell is the sum over the group's problems of the row algorithm's wins against the
    # column algorithm (pairwise lists each pair once, either way round); share = wins over
    # the comparisons of the pair, NaN on the diagonal.
    result = cec2022[1]
    for group in result.pairwise_groups():
        expected: dict[tuple[str, str], float] = {}
        for row in result.pairwise.itertuples(index=False):
            if group in ("overall", row.group):
                a, b = str(row.algorithm_a), str(row.algorithm_b)
                expected[(a, b)] = expected.get((a, b), 0.0) + row.wins_a
                expected[(b, a)] = expected.get((b, a), 0.0) + row.wins_b
        wins = result.wins_matrix(group)
        share = result.share_matrix(group)
        for a in result.algorithms:
            assert wins.loc[a, a] == 0.0 and math.isnan(share.loc[a, a])
            for b in result.algorithms:
                if a != b:
                    assert wins.loc[a, b] == expected[(a, b)]
                    assert share.loc[a, b] == expected[(a, b)] / (
                        expected[(a, b)] + expected[(b, a)]
                    )
