"""The synthesis against independent values: Kendall's τ-b by hand, bootstrap probabilities
by enumeration, a head-to-head from real U-scores with wins on both sides, and the rules
that count evidence by family.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from reportgen.analyses.u_scores import compute as u_scores
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.present.labels import Labels
from reportgen.spec.analyses.u_scores import UScoresOptions
from reportgen.synthesis.agreement import agreement
from reportgen.synthesis.head_to_head import head_to_head
from reportgen.synthesis.rankings import (
    BEST,
    DEGENERATE,
    FAMILY_OF_KIND,
    FINAL_VALUES,
    INCONCLUSIVE_RANKING,
    NOT_SIGNIFICANT,
    PROFILES,
    U_SCORES,
    WORSE,
    Ranking,
    Scores,
)
from reportgen.synthesis.summary import (
    _agreement,
    _bottom_line,
    _challenge,
    _Evidence,
    _findings,
    _head_to_head_finding,
    _percent,
    synthesise,
)
from reportgen.synthesis.uncertainty import uncertainty


def ranking(id: str, ranks: dict[str, float], family: str = U_SCORES, **kw: Any) -> Ranking:
    return Ranking(id=id, analysis_id=id, label=id, ranks=ranks, family=family, **kw)


R1 = {"A": 1.0, "B": 2.0, "C": 3.0, "D": 4.0}


# --- Kendall's τ-b ----------------------------------------------------------------------------
#
# R1 = A < B < C < D. Against R2 = (B, A, D, C): of the 6 pairs, (A, B) and (C, D) are
# discordant, the other 4 concordant: τ = (4 − 2)/6 = 1/3.
# Against R3 = (A, B tied first, C, D): 5 concordant, 0 discordant, no ties in R1, one tie in R3:
# τ_b = (5 − 0)/√(6·5) = 5/√30 ≈ 0.9129. Against R3 reversed (D, C, then A, B tied last)
# every untied pair is discordant: τ_b = −5/√30.


def test_kendall_tau_b_by_hand_with_its_sign() -> None:
    r2 = ranking("r2", {"A": 2.0, "B": 1.0, "C": 4.0, "D": 3.0})
    r3 = ranking("r3", {"A": 1.0, "B": 1.0, "C": 3.0, "D": 4.0})
    r4 = ranking("r4", {"A": 4.0, "B": 4.0, "C": 2.0, "D": 1.0})
    result = agreement([ranking("r1", R1), r2, r3, r4])
    tau = result.tau
    assert tau.loc["r1", "r2"] == pytest.approx(1 / 3)
    assert tau.loc["r1", "r3"] == pytest.approx(5 / math.sqrt(30))
    assert tau.loc["r1", "r4"] == pytest.approx(-5 / math.sqrt(30))
    assert tau.loc["r3", "r4"] == pytest.approx(-1.0)
    flips = result.flips[(result.flips["ranking_a"] == "r1") & (result.flips["ranking_b"] == "r2")]
    assert sorted(zip(flips["algorithm_1"], flips["algorithm_2"], strict=True)) == [
        ("A", "B"),
        ("C", "D"),
    ]


def test_flips_are_every_discordant_pair_of_every_two_rankings() -> None:
    # Random rankings with ties over partly different algorithms: each pair of rankings lists
    # exactly its discordant pairs (counted by brute force), the first named ranked better by
    # ranking_a, in the order of the rankings' pairs; τ symmetric with 1 on the diagonal.
    rng = np.random.default_rng(3)
    names = [f"A{k}" for k in range(9)]
    rankings = [
        ranking(f"r{k}", {a: float(rng.integers(1, 5)) for a in names if rng.random() < 0.9})
        for k in range(5)
    ]
    result = agreement(rankings)
    assert (result.tau.to_numpy() == result.tau.to_numpy().T).all()
    assert (np.diag(result.tau.to_numpy()) == 1.0).all()
    expected = []
    for a, b in itertools.combinations(rankings, 2):
        common = [x for x in a.ranks if x in b.ranks]
        for i, j in itertools.combinations(common, 2):
            da, db = a.ranks[i] - a.ranks[j], b.ranks[i] - b.ranks[j]
            if da * db < 0:
                expected.append((a.id, b.id, i if da < 0 else j, j if da < 0 else i))
    assert list(result.flips.itertuples(index=False, name=None)) == expected


def test_agreement_counts_the_rankings_it_has() -> None:
    # Three rankings: never "the two rankings".
    three = [
        ranking("r1", R1),
        ranking("r2", {"A": 2.0, "B": 1.0, "C": 4.0, "D": 3.0}),
        ranking("r3", {"A": 4.0, "B": 3.0, "C": 2.0, "D": 1.0}),
    ]
    finding = _agreement(three, agreement(three))
    assert finding is not None
    assert "The two rankings" not in finding.text and "Of the 3 counted rankings" in finding.text
    # R1 and R2 agree most (τ = 1/3), R1 and R3 least (τ = −1).
    assert finding.numbers["most"] == {"rankings": ["r1", "r2"], "tau": 0.33}
    assert finding.numbers["least"] == {"rankings": ["r1", "r3"], "tau": -1.0}
    two = three[:2]
    finding = _agreement(two, agreement(two))
    assert finding is not None and finding.text.startswith(
        "The two rankings agree with Kendall's τ = 0.33"
    )


def test_agreement_counts_flipped_pairs_in_words() -> None:
    # Three identical rankings flip no pair; r2 swaps A and B of r1 (one pair, by hand).
    same = [ranking(f"r{i}", R1) for i in (1, 2, 3)]
    finding = _agreement(same, agreement(same))
    assert finding is not None
    assert finding.text.endswith("; no pair of algorithms changes order between any two rankings.")
    swapped = {**R1, "A": R1["B"], "B": R1["A"]}
    one = [ranking("r1", R1), ranking("r2", swapped), ranking("r3", R1)]
    finding = _agreement(one, agreement(one))
    assert finding is not None
    assert finding.text.endswith("; 1 pair of algorithms changes order between some two rankings.")


def test_agreement_within_one_family_is_not_called_confirmation() -> None:
    # cec2017: six rankings of the final values "order the algorithms identically" — rankings
    # of one family, whose agreement the sentence must not leave to read as corroboration.
    same = [ranking(f"r{i}", R1, family=FINAL_VALUES) for i in (1, 2, 3)]
    finding = _agreement(same, agreement(same))
    assert finding is not None
    assert (
        "(Kendall's τ = 1.00 for every pair) — all of one method family (final values), so "
        "their agreement is no independent confirmation; no pair" in finding.text
    )
    # Several families: the most concordant pair says when it is one family's two rankings.
    swapped = {**R1, "C": R1["D"], "D": R1["C"]}
    mixed = [
        ranking("m", R1, family=FINAL_VALUES),
        ranking("l", R1, family=FINAL_VALUES),
        ranking("u", swapped, family=U_SCORES),
    ]
    finding = _agreement(mixed, agreement(mixed))
    assert finding is not None
    assert "m and l agree most (Kendall's τ = 1.00, both final values)" in finding.text
    assert "independent confirmation" not in finding.text


# --- the bootstrap ----------------------------------------------------------------------------
#
# Three problems, higher is better: A scores (1, 1, 0), B (0, 0, 1). In a resample with k
# draws of problem 3, A's mean is (3 − k)/3 and B's k/3: A is first iff k ≤ 1, with
# probability (2/3)³ + 3·(1/3)(2/3)² = 20/27; B otherwise (7/27); no ties are possible.


def _scored(values: list[list[float]], higher: bool = True) -> Ranking:
    scores = Scores(np.asarray(values, dtype=float), ("A", "B"), higher_is_better=higher)
    return ranking("s", {"A": 1.0, "B": 2.0}, scores=scores)


def test_p_first_and_rank_interval_by_enumeration() -> None:
    result = uncertainty([_scored([[1, 0], [1, 0], [0, 1]])], resamples=20000, seed=7)
    table = result.table.set_index("algorithm")
    assert table.loc["A", "p_first"] == pytest.approx(20 / 27, abs=0.015)
    assert table.loc["B", "p_first"] == pytest.approx(7 / 27, abs=0.015)
    assert table["p_first"].sum() == pytest.approx(1.0)
    assert (table.loc["A", "rank_low"], table.loc["A", "rank_high"]) == (1, 2)
    # Lower is better with the scores negated: the same probabilities.
    lower = uncertainty([_scored([[-1, 0], [-1, 0], [0, -1]], higher=False)], 20000, 7)
    assert lower.table["p_first"].tolist() == pytest.approx(table["p_first"].tolist())


def test_a_shared_first_place_is_split_and_the_bootstrap_is_deterministic() -> None:
    # Two problems, A (1, 0), B (0, 1): resamples {1,1} → A, {2,2} → B, mixed → a tie split
    # ½–½; p_first = ¼ + ½·½ = ½ each.
    first = uncertainty([_scored([[1, 0], [0, 1]])], resamples=4000, seed=3)
    assert first.table["p_first"].tolist() == pytest.approx([0.5, 0.5], abs=0.03)
    assert first.table["p_first"].sum() == pytest.approx(1.0)
    again = uncertainty([_scored([[1, 0], [0, 1]])], resamples=4000, seed=3)
    assert again.table.equals(first.table)
    other = uncertainty([_scored([[1, 0], [1, 0], [0, 1]])], resamples=4000, seed=4)
    same_seed = uncertainty([_scored([[1, 0], [1, 0], [0, 1]])], resamples=4000, seed=3)
    assert other.table["p_first"].iloc[0] != same_seed.table["p_first"].iloc[0]


def test_equal_sums_tie_in_the_bootstrap() -> None:
    # 0.1 + 0.2 = 0.30000000000000004 and 0.3 are equal but for the last bit of the float:
    # they tie in every resample, so each algorithm is first with probability exactly ½.
    values = [[0.1 + 0.2, 0.3], [0.1 + 0.2, 0.3]]
    assert values[0][0] != values[0][1]
    result = uncertainty([_scored(values)], resamples=500, seed=1)
    assert result.table["p_first"].tolist() == [0.5, 0.5]
    assert result.table["rank_high"].tolist() == [1, 1]


# --- head-to-head from real U-scores ----------------------------------------------------------
#
# Ten trials each, no trial reaches the target, so trials compare by final value (smaller
# wins). p1: A's values 1…10, B's 101…110: A wins all 100 comparisons (exact Mann–Whitney
# p ≈ 1.1e-5: significant). p2: the reverse: B wins all 100. p3: A 1, 3, …, 19 and B 2, 4, …,
# 20: A's (2i − 1) beats B's 2j iff i ≤ j, 55 of 100 pairs (not significant). Trial wins of A:
# 100 + 0 + 55 = 155 of 300 → 51.7 %; significant problems: A 1, B 1.


def _trials() -> AnalysisData:
    rows = []
    for problem, a_values, b_values in (
        ("p1", range(1, 11), range(101, 111)),
        ("p2", range(101, 111), range(1, 11)),
        ("p3", range(1, 20, 2), range(2, 21, 2)),
    ):
        for algorithm, values in (("A", a_values), ("B", b_values)):
            for run, value in enumerate(values):
                rows.append(
                    {
                        "algorithm": algorithm,
                        "problem": problem,
                        "dimension": 10,
                        "run": run,
                        "value": float(value),
                        "evaluations_to_target": math.inf,
                        "evaluations_used": 1000.0,
                    }
                )
    frame = pd.DataFrame(rows)
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    return AnalysisData("trials", frame, ("A", "B"), problems)


def test_head_to_head_counts_wins_on_both_sides() -> None:
    result = u_scores(_trials(), UScoresOptions(kind="u_scores", data="t", target=1e-8, alpha=0.05))
    h = head_to_head("A", "B", [("u_scores", "u", result)], [])
    assert h is not None and h.tested
    assert h.share_a == pytest.approx(155 / 300)
    assert (h.significant_a, h.significant_b, h.problems) == (1, 1, 3)
    # From B's side the same numbers, mirrored.
    back = head_to_head("B", "A", [("u_scores", "u", result)], [])
    assert back is not None
    assert back.share_a == pytest.approx(145 / 300)
    assert (back.significant_a, back.significant_b) == (1, 1)


def test_head_to_head_sentences_say_the_counts_are_not_corrected() -> None:
    # cec2022 printed "significantly better on 14 of 24" (U-scores) beside a problem table's
    # 4 wins and 7 losses (Holm over problems) with no word on why the counts differ.
    result = u_scores(_trials(), UScoresOptions(kind="u_scores", data="t", target=1e-8, alpha=0.05))
    h = head_to_head("A", "B", [("u_scores", "u", result)], [])
    assert h is not None
    labels = Labels({})
    sentence = _head_to_head_finding(h, labels).text
    # The analysis is named for the reader; its id only when it is not the kind's default.
    assert sentence.startswith("Head to head in the U-scores' trial comparisons (u), A against B")
    assert "significantly better on 1 and B on 1 of 3 problems (per-problem Mann–Whitney U" in (
        sentence
    )
    assert "not corrected over problems" in sentence and "can count fewer). " in sentence
    # Then the problems won, from the summary's head-to-head table.
    # Three problems won: a sign test over them cannot reach α (2·½³ = 0.25).
    assert sentence.endswith(
        "table 'Head to head'): too few problems won to test over all problems (2–1) — the sign "
        "test needs 6 to reach α = 0.05."
    )
    assert "not corrected over problems" in _challenge(h, labels)


# --- families, counting and the bottom line ---------------------------------------------------


def test_families_are_one_vote_each_and_uncounted_rankings_are_left_out() -> None:
    rankings = [
        ranking("u1", {"A": 1.0, "B": 2.0, "C": 3.0}),
        ranking("u2", {"A": 1.0, "B": 2.0, "C": 3.0}),
        ranking("m", {"B": 1.0, "A": 2.0, "C": 3.0}, family=FINAL_VALUES),
        ranking("a", {"B": 1.0, "A": 2.0, "C": 3.0}, family=FINAL_VALUES),
        ranking(
            "ci",
            {"C": 1.0, "A": 2.0, "B": 3.0},
            family=PROFILES,
            status=INCONCLUSIVE_RANKING,
            note="too wide",
        ),
    ]
    counted = [r for r in rankings if r.counted]
    evidence = _Evidence.of(counted, "ABC")
    # A leads 2 U-score rankings and B 2 final-value rankings: one family each — a tie, not
    # "A first by 2 of 4 rankings"; C's inconclusive first place counts for nothing.
    assert evidence.votes == {"A": [U_SCORES], "B": [FINAL_VALUES]}
    assert evidence.leaders == ["A", "B"]
    labels = Labels({})
    sure = uncertainty(rankings, 200, 1)
    bottom = _bottom_line(rankings, evidence, sure, [], labels)
    assert bottom is not None and bottom.text.startswith(
        "Bottom line: no single algorithm is ahead"
    )
    findings = _findings(rankings, evidence, agreement(counted), sure, [], labels)
    texts = [f.text for f in findings]
    assert "Not counted: ci — its test is inconclusive: too wide." in texts
    assert not any("C is first" in t for t in texts)
    tau = next(f for f in findings if f.id == "summary.agreement")
    assert "Of the 4 counted rankings" in tau.text


def test_award_points_and_friedman_ranks_of_the_same_final_values_are_one_vote() -> None:
    """Both rank by the per-problem means of the final values; counted as two families, a
    study with a U-score analysis, perspectives and a significance relation said "A is first
    by 2 of 3 method families" where the two that put A first are one line of evidence."""
    family = FAMILY_OF_KIND["perspectives"]
    assert FAMILY_OF_KIND["significance_relation"] == family
    rankings = [
        ranking("u", {"B": 1.0, "A": 2.0, "C": 3.0}, family=FAMILY_OF_KIND["u_scores"]),
        ranking("accuracy", {"A": 1.0, "B": 2.0, "C": 3.0}, family=family),
        ranking("layers", {"A": 1.0, "B": 2.0, "C": 3.0}, family=family),
    ]
    evidence = _Evidence.of(rankings, "ABC")
    assert evidence.votes == {"A": [family], "B": [U_SCORES]}
    assert evidence.leaders == ["A", "B"]
    bottom = _bottom_line(rankings, evidence, uncertainty(rankings, 100, 1), [], Labels({}))
    assert bottom is not None
    assert bottom.text.startswith("Bottom line: no single algorithm is ahead")


def test_everything_tied_means_no_algorithm_is_ahead() -> None:
    rankings = [
        ranking("u", {"A": 1.0, "B": 1.0}, status=DEGENERATE, note="every algorithm ties"),
        ranking("m", {"A": 1.0, "B": 1.0}, family=FINAL_VALUES, status=DEGENERATE),
    ]
    evidence = _Evidence.of([], "AB")
    bottom = _bottom_line(rankings, evidence, uncertainty(rankings, 100, 1), [], Labels({}))
    assert bottom is not None
    assert bottom.text.startswith("Bottom line: no algorithm is ahead — every ranking ties")


def test_a_clear_leader_is_recommended_with_its_p_first() -> None:
    scores = Scores(np.array([[3.0, 1.0], [3.0, 2.0], [2.0, 1.0]]), ("A", "B"), True)
    tested = {"A": BEST, "B": WORSE}  # a test of the lead: Friedman + Holm, say
    rankings = [
        ranking("u", {"A": 1.0, "B": 2.0}, scores=scores),
        ranking("m", {"A": 1.0, "B": 2.0}, family=FINAL_VALUES, verdicts=tested),
    ]
    sure = uncertainty(rankings, 500, 1)
    assert sure.p_first("u", "A") == 1.0  # A beats B on every problem
    evidence = _Evidence.of(rankings, "AB")
    bottom = _bottom_line(rankings, evidence, sure, [], Labels({"A": "Alpha"}))
    assert bottom is not None
    assert bottom.text == (
        "Bottom line: Alpha is the recommendation. Every method family puts it first "
        "(2 counted rankings), and it ranks first in 100 % of bootstrap resamples of the problems."
    )
    # One family is not "every" family (cec2005 read "Every method family puts it first").
    alone = rankings[1:]
    bottom = _bottom_line(alone, _Evidence.of(alone, "AB"), sure, [], Labels({"A": "Alpha"}))
    assert bottom is not None
    assert bottom.text.startswith(
        "Bottom line: Alpha is the recommendation. The only method family (final values) puts "
        "it first (1 counted ranking)"
    )


def test_no_recommendation_without_a_test_of_the_lead() -> None:
    """published_table read "EA4eig is the recommendation" on one ranking without a test (the
    expected probabilistic profile of a normal model, ρ̄(100) 1.00 against 0.99), first in
    100 % of the resamples of the problems. A bootstrap of problems says how stable the first
    place is, not that the lead exceeds the runs' noise: without a test, or a head-to-head
    sign test putting the leader ahead, the bottom line says so."""
    scores = Scores(np.array([[3.0, 1.0], [3.0, 2.0], [2.0, 1.0]]), ("A", "B"), True)
    rankings = [ranking("expected profile", {"A": 1.0, "B": 2.0}, scores=scores)]
    sure = uncertainty(rankings, 500, 1)
    bottom = _bottom_line(rankings, _Evidence.of(rankings, "AB"), sure, [], Labels({}))
    assert bottom is not None
    assert bottom.text == (
        "Bottom line: A ranks first by the expected profile, the only counted ranking, and in "
        "100 % of bootstrap resamples of the problems; no test measures whether its lead is "
        "significant."
    )
    assert "recommendation" not in bottom.text


def test_lists_of_algorithms_that_are_no_ranking_are_in_study_order() -> None:
    # cec2017_profiles: the bottom line read "its lead over LSHADE-SPACMA, RB-IPOP-CMA-ES and
    # jSO" (sorted by name, upper case first) above "its lead over jSO, LSHADE-SPACMA and
    # RB-IPOP-CMA-ES is not significant" (the verdicts, in study order).
    study = ("EBOwithCMAR", "jSO", "LSHADE-SPACMA", "DES", "RB-IPOP-CMA-ES", "PPSO")
    ns = NOT_SIGNIFICANT
    verdicts = dict(zip(study, [BEST, ns, ns, WORSE, ns, WORSE], strict=True))
    ranks = {a: float(k) for k, a in enumerate(study, 1)}
    rankings = [ranking("pp", ranks, family=PROFILES, verdicts=verdicts, significance="pp")]
    result = synthesise(rankings, study, Labels({}), resamples=20)
    listed = "jSO, LSHADE-SPACMA and RB-IPOP-CMA-ES"
    assert result.bottom_line is not None
    assert f"its lead over {listed} is not significant" in result.bottom_line.text
    assert result.bottom_line.numbers["not_separated"] == ["jSO", "LSHADE-SPACMA", "RB-IPOP-CMA-ES"]
    (significance,) = [f for f in result.findings if "significantly better" in f.text]
    assert f"its lead over {listed} is not significant" in significance.text
    # Tied leaders too: named in study order, not "B and a" for a before B.
    tied = [
        ranking("u", {"a": 2.0, "B": 1.0, "c": 3.0}),
        ranking("m", {"a": 1.0, "B": 2.0, "c": 3.0}, family=FINAL_VALUES),
    ]
    evidence = _Evidence.of(tied, ["c", "a", "B"])
    assert evidence.leaders == ["a", "B"]
    bottom = _bottom_line(tied, evidence, uncertainty(tied, 20, 1), [], Labels({}))
    assert bottom is not None and "ahead — a and B each lead" in bottom.text


def test_a_first_place_nothing_measures_is_not_a_recommendation() -> None:
    # One ranking, no verdicts, no per-problem scores (e.g. relation layers): first, but
    # neither a test nor the bootstrap says how sure.
    rankings = [ranking("layers", {"A": 1.0, "B": 2.0}, family="award points")]
    sure = uncertainty(rankings, 100, 1)
    assert sure.table.empty
    bottom = _bottom_line(rankings, _Evidence.of(rankings, "AB"), sure, [], Labels({}))
    assert bottom is not None
    assert bottom.text == (
        "Bottom line: A ranks first by the layers, the only counted ranking; no test or "
        "bootstrap measures how sure that first place is."
    )
    assert "recommendation" not in bottom.text


def test_rankings_are_also_resampled_within_each_dimension() -> None:
    # Two dimensions of two problems each; A wins both problems at D=10, B both at D=20 by a
    # larger margin. Within D=10 A is first in every resample, within D=20 B is.
    values = np.array([[2.0, 1.0], [2.0, 1.0], [0.0, 5.0], [0.0, 5.0]])
    scores = Scores(values, ("A", "B"), True, groups=("D=10", "D=10", "D=20", "D=20"))
    result = uncertainty([ranking("u", {"B": 1.0, "A": 2.0}, scores=scores)], 300, 2)
    assert result.groups("u") == ["D=10", "D=20"]
    assert result.p_first("u", "A", "D=10") == 1.0 and result.p_first("u", "B", "D=20") == 1.0
    ten = result.table[result.table["group"] == "D=10"].set_index("algorithm")
    assert ten["rank"].to_dict() == {"A": 1.0, "B": 2.0}
    for _, rows in result.table.groupby("group", observed=True):
        assert rows["p_first"].sum() == pytest.approx(1.0)


def test_the_bottom_line_says_its_per_dimension_shares_are_within_one_dimension() -> None:
    # A first at D=10 in every resample, B first at D=20, A first over all four problems by
    # its larger margins: the share within D=20 (0 %) is below the share over all problems,
    # and read as contradicting it unless the sentence says where it was measured.
    values = np.array([[9.0, 1.0], [9.0, 1.0], [1.0, 2.0], [1.0, 2.0]])
    scores = Scores(values, ("A", "B"), True, groups=("D=10", "D=10", "D=20", "D=20"))
    u = ranking("u", {"A": 1.0, "B": 2.0}, scores=scores)
    bottom = synthesise([u], ("A", "B"), Labels({}), resamples=300, seed=2).bottom_line
    assert bottom is not None
    assert "of bootstrap resamples of the problems (within one dimension, by u:" in bottom.text
    assert "D=10 100 %, D=20 0 %)" in bottom.text


def test_profile_verdicts_on_fewer_than_30_runs_carry_remark_4() -> None:
    # Two algorithms, one problem, 4 runs each (Liu et al. require n_r ≥ 30 for the bounds):
    # the summary sentence stating the profile verdicts says they are indicative only.
    from reportgen.analyses.performance_profiles import compute as profiles
    from reportgen.spec.analyses.performance_profiles import PerformanceProfilesOptions
    from reportgen.synthesis.rankings import performance_profiles as profile_rankings
    from tests.analyses.test_performance_profiles import dropping_runs, histories

    records = {
        ("A", "p1", 2): dropping_runs(1.0, 0.0, 5.0, n_runs=4),
        ("B", "p1", 2): dropping_runs(9.0, 0.0, 8.0, n_runs=4),
    }

    def ranking_of(**options: object) -> Ranking:
        result = profiles(
            histories(records),
            PerformanceProfilesOptions.model_validate(
                {"kind": "performance_profiles", "data": "h", "tolerances": [0.1], **options}
            ),
        )
        (r,) = profile_rankings("pp", result)
        return r

    bounded = ranking_of(lambdas=[2])
    caveat = bounded.verdict_caveat
    assert "as few as 4 runs" in caveat and "Remark 4" in caveat
    assert ranking_of().verdict_caveat == ""  # without λ there are no bounds to doubt
    sure = uncertainty([bounded], 50, 1)
    findings = _findings(
        [bounded],
        _Evidence.of([bounded], list(bounded.ranks)),
        agreement([bounded]),
        sure,
        [],
        Labels({}),
    )
    # The sentence stating the verdicts points to it (the caveat list states it in full, the
    # sentence's numbers keep it whole); the order (mean profiles) needs no bounds.
    pointer = bounded.verdict_pointer
    assert "indicative only" in pointer and "as few as 4 runs" in pointer
    assert "see Caveats" in pointer and len(pointer) < len(caveat)
    with_pointer = [f.id for f in findings if pointer in f.text]
    assert with_pointer == [f"summary.significance.{bounded.id}"]
    (stating,) = (f for f in findings if f.id == with_pointer[0])
    assert stating.numbers["verdict_caveat"] == caveat
    assert not any(caveat in f.text for f in findings)


def test_the_remark_4_caveat_is_said_once_in_the_summary() -> None:
    # quickstart: CMA-ES-CSA first by the profiles, its lead over the other three not
    # significant, 15 runs. The bottom line and the significance sentence each ended with the
    # same self-contained Remark 4 sentence, and the caveat list said it a third time; now
    # the caveat list states it, the bottom line points to it once and the significance
    # sentence does not point again.
    caveat = (
        "The confidence bounds rest on as few as 15 runs per algorithm and problem, fewer "
        "than the 30 Liu et al. require (Remark 4), so their verdicts are indicative only."
    )
    pointer = "The confidence-bound verdicts are indicative only (as few as 15 runs, Remark 4: see Caveats)."
    profiles = ranking(
        "pp",
        {"CSA": 1.0, "BIPOP": 2.0, "BFGS": 3.0, "DE": 4.0},
        family=PROFILES,
        verdicts={
            "CSA": BEST,
            "BIPOP": NOT_SIGNIFICANT,
            "BFGS": NOT_SIGNIFICANT,
            "DE": NOT_SIGNIFICANT,
        },
        significance="confidence-bound profiles, τ = 10⁻⁵, λ = 2",
        verdict_caveat=caveat,
        verdict_pointer=pointer,
    )
    result = synthesise([profiles], ("BIPOP", "CSA", "BFGS", "DE"), Labels({}), resamples=50)
    assert result.bottom_line is not None
    texts = [result.bottom_line.text, *(f.text for f in result.findings)]
    assert "its lead over BIPOP, BFGS and DE is not significant" in result.bottom_line.text
    assert sum(t.count(pointer) for t in texts) == 1 and pointer in result.bottom_line.text
    assert not any("Remark 4" in t for t in texts[1:])
    assert not any(caveat in t for t in texts)
    # results.json keeps the caveat whole with the sentences that rest on it.
    assert result.bottom_line.numbers["verdict_caveats"] == [caveat]
    (significance,) = (f for f in result.findings if f.id == "summary.significance.pp")
    assert significance.numbers["verdict_caveat"] == caveat


@pytest.mark.parametrize(
    ("share", "text"),
    [
        (0.9, "90 %"),
        (0.57, "57 %"),
        # cec2005's leader: first in 1792.5 of 2000 resamples, under the 90 % of a
        # recommendation, so not "90 %".
        (1792.5 / 2000, "89.6 %"),
        (1799.5 / 2000, "89.98 %"),
        (1006 / 2000, "50.3 %"),
        (0.5, "50 %"),
        (1997 / 2000, "over 99 %"),
        (1 / 2000, "under 1 %"),
    ],
)
def test_a_share_is_never_printed_as_a_threshold_it_misses(share: float, text: str) -> None:
    assert _percent(share) == text


def test_contenders_are_ordered_by_the_evidence_not_by_their_names() -> None:
    # L leads both families. The final-value family's best other is "Alpha" (rank 2 in both of
    # its rankings), the U-score family's is "Zeta" (rank 2): one pick each. Zeta's mean rank
    # over the families is (3 + 2)/2 = 2.5, Alpha's (2 + 4)/2 = 3, so Zeta is the nearer
    # contender; the old tie-break sorted by name and put Alpha first (the bottom line of an
    # "X or Y" study names the first challenger).
    final = {"L": 1.0, "Alpha": 2.0, "Zeta": 3.0, "Beta": 4.0}
    rankings = [
        ranking("m", final, family=FINAL_VALUES),
        ranking("r", final, family=FINAL_VALUES),
        ranking("u", {"L": 1.0, "Zeta": 2.0, "Beta": 3.0, "Alpha": 4.0}),
    ]
    evidence = _Evidence.of(rankings, ["L", "Alpha", "Beta", "Zeta"])
    assert evidence.contenders() == ["Zeta", "Alpha"]
    # Three families, each with a different best other and equal mean ranks over the families
    # (2, 3, 4 in some order for each): an exact tie at the second place keeps all three.
    cyclic = [
        ranking("u", {"L": 1.0, "A": 2.0, "B": 3.0, "C": 4.0}),
        ranking("m", {"L": 1.0, "B": 2.0, "C": 3.0, "A": 4.0}, family=FINAL_VALUES),
        ranking("p", {"L": 1.0, "C": 2.0, "A": 3.0, "B": 4.0}, family=PROFILES),
    ]
    assert _Evidence.of(cyclic, ["L", "C", "B", "A"]).contenders() == ["C", "B", "A"]


def test_a_ranking_caveat_is_stated_once_and_pointed_to_after() -> None:
    # bbob_coco: DIRECT first by the runtime ECDF area, whose caveat (budgets far apart; who
    # leads at the common budget) ended the bottom line, the first-place finding and the
    # bootstrap finding alike — three times the same three lines in one summary.
    caveat = "The runtime ECDF area compares budgets up to 1655-fold apart."
    values = np.array([[3.0, 1.0, 2.0], [3.0, 2.0, 1.0], [3.0, 1.0, 2.0], [2.0, 3.0, 1.0]])
    area = ranking(
        "area",
        {"DIRECT": 1.0, "RAND": 2.0, "SHADE": 3.0},
        family=PROFILES,
        caveat=caveat,
        scores=Scores(values, ("DIRECT", "RAND", "SHADE"), True),
    )
    result = synthesise([area], ("DIRECT", "RAND", "SHADE"), Labels({}), resamples=200, seed=3)
    assert result.bottom_line is not None
    texts = [result.bottom_line.text, *(f.text for f in result.findings)]
    assert sum(t.count(caveat) for t in texts) == 1 and caveat in result.bottom_line.text
    pointer = "(Caveat on area: see the bottom line.)"
    # Pointed to once, by the next sentence that ranks by it; not after every bullet.
    assert [f.id for f in result.findings if pointer in f.text] == ["summary.consensus"]


def test_a_ranking_caveat_the_bottom_line_omits_is_stated_in_the_first_finding() -> None:
    # perspectives_cec2022: efficiency (wall-clock) puts LBFGSB first, not the leader, so the
    # bottom line never states its caveat; the first finding that ranks by it does, in full.
    final = ranking("final", {"A": 1.0, "B": 2.0}, family=FINAL_VALUES)
    time = ranking(
        "efficiency", {"B": 1.0, "A": 2.0}, family=FINAL_VALUES, caveat="Time is hardware."
    )
    result = synthesise([final, time], ("A", "B"), Labels({}), resamples=20)
    texts = [f.text for f in result.findings]
    stated = [t for t in texts if "Time is hardware." in t]
    assert len(stated) == 1
    assert all("see above" in t for t in texts if "Caveat on efficiency" in t)


def test_a_lead_not_significant_over_several_names_them_in_study_order() -> None:
    # cec2022, mean final value: Holm's table lists the algorithms largest difference first,
    # and the sentence read "its lead over NL-MID, IMPML, jSObin, IUMO, NL-LBC and S-DP" —
    # neither the study order the bottom line uses nor the ranking's. Study order: A, B, C, D.
    verdicts = {"A": BEST, "D": NOT_SIGNIFICANT, "C": NOT_SIGNIFICANT, "B": NOT_SIGNIFICANT}
    mean = ranking(
        "m",
        {"A": 1.0, "B": 4.0, "C": 2.0, "D": 3.0},
        family=FINAL_VALUES,
        verdicts=verdicts,
        significance="mean final value (Friedman test, Holm's procedure)",
    )
    result = synthesise([mean], ("A", "B", "C", "D"), Labels({}), resamples=20)
    (finding,) = [f for f in result.findings if f.id == "summary.significance.m"]
    assert "its lead over every other algorithm is not significant" in finding.text
    mixed = dataclasses.replace(mean, verdicts={**verdicts, "B": WORSE})
    result = synthesise([mixed], ("A", "B", "C", "D"), Labels({}), resamples=20)
    (finding,) = [f for f in result.findings if f.id == "summary.significance.m"]
    assert "its lead over C and D is not significant" in finding.text
    assert finding.numbers["not_significant"] == ["C", "D"]
