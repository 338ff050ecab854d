"""The run stage of the ranking bootstrap: U-scores and perspectives recomputed on resampled
runs, checked by hand on known draws, and its effect on p_first against the problems-only
bootstrap."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd
import pytest

from reportgen.analyses import perspectives, u_scores
from reportgen.data.frames import AnalysisData
from reportgen.spec.analyses.perspectives import PerspectivesOptions
from reportgen.spec.analyses.u_scores import UScoresOptions
from reportgen.synthesis.rankings import Ranking
from reportgen.synthesis.rankings import perspectives as perspective_rankings
from reportgen.synthesis.rankings import u_scores as u_score_rankings
from reportgen.synthesis.uncertainty import PROBLEMS, PROBLEMS_AND_RUNS, uncertainty


class _Draws:
    """A stand-in generator whose ``random`` returns one fixed value everywhere, so that every
    draw ``floor(u·n)`` picks a known run."""

    def __init__(self, value: float | np.ndarray) -> None:
        self.value = value

    def random(
        self, shape: tuple[int, ...], dtype: type = np.float64, out: np.ndarray | None = None
    ) -> np.ndarray:
        values = np.broadcast_to(np.asarray(self.value, dtype=dtype), shape)
        if out is None:
            return values.copy()
        out[...] = values
        return out


def _trials(values: dict[str, list[list[float]]]) -> AnalysisData:
    """Trials of each algorithm: one list of run values per problem (f1, f2, …, dimension 10)."""
    rows = [
        {"algorithm": a, "problem": f"f{p + 1}", "dimension": 10, "run": r, "value": v}
        for a, problems in values.items()
        for p, runs in enumerate(problems)
        for r, v in enumerate(runs)
    ]
    n_problems = len(next(iter(values.values())))
    return AnalysisData(
        "trials",
        pd.DataFrame(rows),
        tuple(values),
        tuple((f"f{p + 1}", 10) for p in range(n_problems)),
    )


def _perspective(data: AnalysisData, which: str = "mean") -> Ranking:
    options = PerspectivesOptions(kind="perspectives", data="runs", perspectives=[which])
    (ranking,) = perspective_rankings("perspectives", perspectives.compute(data, options))
    return ranking


def _u_score(data: AnalysisData) -> Ranking:
    options = UScoresOptions(kind="u_scores", data="runs", target=-1.0)  # nobody succeeds
    (ranking,) = u_score_rankings("u_scores", u_scores.compute(data, options))
    return ranking


def _problems_only(ranking: Ranking) -> Ranking:
    assert ranking.scores is not None and ranking.scores.resample_runs is not None
    return dataclasses.replace(
        ranking, scores=dataclasses.replace(ranking.scores, resample_runs=None)
    )


# --- U-scores of known draws ------------------------------------------------------------------


def test_resampled_u_scores_of_the_identity_draw_are_the_papers() -> None:
    # Price et al., Fig. 2: trials best to worst p r q q r p q p r q p r (no ties), U-scores
    # P 16, Q 18, R 14. u = (k + ½)/4 at the k-th trial of each algorithm draws every trial once.
    order = "prqqrpqprqpr"
    codes = np.array([i for a in "pqr" for i, t in enumerate(order) if t == a])
    identity = _Draws(np.tile((np.arange(4) + 0.5) / 4, 3))
    u = u_scores.resampled_u_scores(codes, np.array([4, 4, 4]), 2, identity)  # type: ignore[arg-type]
    assert u.tolist() == [[16.0, 18.0, 14.0], [16.0, 18.0, 14.0]]


def test_resampled_u_scores_of_a_repeated_trial_by_hand() -> None:
    # u = 0 draws each algorithm's first trial n times: P's first trial is place 0 (best), Q's
    # place 2, R's place 1. Every drawn P trial beats all 8 drawn Q and R trials: U_P = 4·8 = 32;
    # R's beat the 4 Q's: U_R = 4·4 = 16; U_Q = 0. Sum 48 = n²·m(m−1)/2.
    order = "prqqrpqprqpr"
    codes = np.array([i for a in "pqr" for i, t in enumerate(order) if t == a])
    first = u_scores.resampled_u_scores(codes, np.array([4, 4, 4]), 1, _Draws(0.0))  # type: ignore[arg-type]
    assert first.tolist() == [[32.0, 0.0, 16.0]]
    # u → 1 draws the last trials: P place 10, Q place 9, R place 11 — Q beats P and R
    # (32), P beats R (16), R nothing.
    last = u_scores.resampled_u_scores(codes, np.array([4, 4, 4]), 1, _Draws(0.999))  # type: ignore[arg-type]
    assert last.tolist() == [[16.0, 32.0, 0.0]]


def test_ties_share_half_a_point_in_resampled_u_scores() -> None:
    # Two algorithms, all four trials at one place: every comparison ties, U = 4·4/2 = 8 each.
    u = u_scores.resampled_u_scores(
        np.zeros(8, dtype=np.intp), np.array([4, 4]), 3, np.random.default_rng(0)
    )
    assert u.tolist() == [[8.0, 8.0]] * 3


@pytest.mark.parametrize("sizes", [[30] * 13, [5, 15, 17], [1, 20, 29, 3]])
def test_resampled_u_scores_are_the_rank_sums_of_the_drawn_trials(sizes: list[int]) -> None:
    # The same draws (a copy of the generator) ranked directly: each resample's drawn trials
    # ranked by their places (best = highest, ties averaged, scipy), U = R − n(n+1)/2.
    from scipy.stats import rankdata

    rng = np.random.default_rng(5)
    n = np.array(sizes)
    codes = rng.integers(0, max(2, n.sum() // 3), n.sum())  # many ties
    resamples = 50
    twin = np.random.default_rng(5)
    twin.integers(0, max(2, n.sum() // 3), n.sum())  # the same stream position
    u = u_scores.resampled_u_scores(codes, n, resamples, rng)
    uniform = twin.random((resamples, n.sum()), dtype=np.float32)
    label = np.repeat(np.arange(len(n)), n)
    drawn = (uniform * n[label].astype(np.float32)).astype(np.intp) + (np.cumsum(n) - n)[label]
    for b in range(resamples):
        ranks = rankdata(-codes[drawn[b]], method="average")
        expected = [ranks[label == j].sum() - n[j] * (n[j] + 1) / 2 for j in range(len(n))]
        assert u[b].tolist() == expected


# --- perspectives of known draws --------------------------------------------------------------


def test_run_resampled_ranks_of_the_identity_draw_are_the_comparisons_ranks() -> None:
    data = _trials(
        {
            "A": [[1.0, 5.0, 3.0], [2.0, 2.0, 9.0]],
            "B": [[2.0, 2.0, 2.0], [1.0, 4.0, 4.0]],
            "C": [[0.5, 8.0, 8.0], [3.0, 3.0, 3.0]],
        }
    )
    options = PerspectivesOptions(
        kind="perspectives", data="runs", perspectives=["mean", "accuracy", "robustness"]
    )
    result = perspectives.compute(data, options)
    identity = _Draws((np.arange(3) + 0.5) / 3)
    for comparison in result.comparisons:
        labels = list(comparison.ranks.index)
        slots = np.array([[0, 1], [1, 0]])
        ranks = perspectives.run_resampled_ranks(
            result,
            comparison.perspective,
            labels,
            slots,
            identity,  # type: ignore[arg-type]
        )
        expected = comparison.ranks[list(result.algorithms)].to_numpy()
        assert ranks[0].tolist() == expected.tolist(), comparison.perspective
        assert ranks[1].tolist() == expected[::-1].tolist(), comparison.perspective
    # Drawing each algorithm's first run only: f1 means A 1, B 2, C 0.5 → ranks 2, 3, 1.
    mean = perspectives.run_resampled_ranks(
        result,
        "mean",
        [str(result.comparisons[0].ranks.index[0])],
        np.array([[0]]),
        _Draws(0.0),  # type: ignore[arg-type]
    )
    assert mean[0, 0].tolist() == [2.0, 3.0, 1.0]


# --- the two-stage bootstrap ------------------------------------------------------------------

# A dominates B: every run of A is better than every run of B on every problem.
DOMINATED = {
    "A": [[1.0, 2.0, 3.0, 4.0]] * 5,
    "B": [[5.0, 6.0, 7.0, 8.0]] * 5,
}

# A's mean is lower than B's on each of 6 problems (2.4 against 2.6), but the runs overlap
# almost entirely: a resample of the runs puts B ahead on a problem about as often as A.
OVERLAPPING = {
    "A": [[0.0, 1.0, 2.0, 4.0, 5.0]] * 6,
    "B": [[0.0, 1.0, 3.0, 4.0, 5.0]] * 6,
}


@pytest.mark.parametrize("build", [_perspective, _u_score])
def test_a_dominating_algorithm_is_first_in_every_resample(build: Any) -> None:
    ranking = build(_trials(DOMINATED))
    table = uncertainty([ranking], resamples=400, seed=5).table.set_index("algorithm")
    assert table.loc["A", "p_first"] == 1.0 and table.loc["B", "p_first"] == 0.0
    assert (table.loc["A", ["rank_low", "rank_high"]] == [1, 1]).all()
    assert set(table["resampled"]) == {PROBLEMS_AND_RUNS}


@pytest.mark.parametrize("build", [_perspective, _u_score])
def test_resampling_runs_makes_a_lead_within_the_noise_less_sure(build: Any) -> None:
    ranking = build(_trials(OVERLAPPING))
    assert ranking.ranks == {"A": 1.0, "B": 2.0}
    both = uncertainty([ranking], resamples=2000, seed=11).table.set_index("algorithm")
    problems = uncertainty([_problems_only(ranking)], 2000, 11).table.set_index("algorithm")
    # A is better on every problem: any resample of the problems keeps A first.
    assert problems.loc["A", "p_first"] == 1.0
    assert set(problems["resampled"]) == {PROBLEMS}
    # With the runs resampled the lead is within the run-to-run noise: A is still more often
    # first, but far from always, and B's rank interval reaches 1.
    assert 0.5 < both.loc["A", "p_first"] < 0.9
    assert both.loc["B", "rank_low"] == 1
    assert both["p_first"].sum() == pytest.approx(1.0)


def test_the_run_bootstrap_is_deterministic_and_sums_to_one() -> None:
    data = _trials(
        {
            "A": [[1.0, 3.0, 2.0], [4.0, 1.0, 2.0], [2.0, 2.0, 5.0]],
            "B": [[2.0, 2.0, 2.0], [1.0, 5.0, 3.0], [3.0, 1.0, 1.0]],
            "C": [[3.0, 1.0, 4.0], [2.0, 2.0, 2.0], [1.0, 4.0, 2.0]],
        }
    )
    rankings = [_perspective(data, "mean"), _perspective(data, "median"), _u_score(data)]
    rankings = [dataclasses.replace(r, id=f"{r.id}:{i}") for i, r in enumerate(rankings)]
    first = uncertainty(rankings, resamples=300, seed=2).table
    again = uncertainty(rankings, resamples=300, seed=2).table
    pd.testing.assert_frame_equal(first, again)
    other = uncertainty(rankings, resamples=300, seed=3).table
    assert not first["p_first"].equals(other["p_first"])
    for _, rows in first.groupby("ranking", observed=True):
        assert rows["p_first"].sum() == pytest.approx(1.0)
        assert (rows["rank_low"] <= rows["rank_high"]).all()


# --- rankings that are not a mean of run statistics -------------------------------------------


def test_relation_layers_and_profiles_have_rows_too() -> None:
    from reportgen.analyses import probabilistic_profiles, significance_relation
    from reportgen.spec.analyses.probabilistic_profiles import ProbabilisticProfilesOptions
    from reportgen.spec.analyses.significance_relation import SignificanceRelationOptions
    from reportgen.synthesis.rankings import probabilistic_profiles as profile_rankings
    from reportgen.synthesis.rankings import significance_relation as relation_rankings

    rows = [
        {"algorithm": a, "problem": f"p{j + 1}", "dimension": 0, "mean": m, "std": 0.0, "n": 5}
        for a, means in {"A": [1.0, 1.0, 1.0], "B": [1.2, 2.0, 1.5], "C": [3.0, 1.5, 2.0]}.items()
        for j, m in enumerate(means)
    ]
    data = AnalysisData(
        "summary", pd.DataFrame(rows), ("A", "B", "C"), (("p1", 0), ("p2", 0), ("p3", 0))
    )
    relation = significance_relation.compute(
        data, SignificanceRelationOptions(kind="significance_relation", data="t")
    )
    profile = probabilistic_profiles.compute(
        data, ProbabilisticProfilesOptions(kind="probabilistic_profiles", data="t", x_max=4.0)
    )
    rankings = relation_rankings("r", relation) + profile_rankings("p", profile)
    table = uncertainty(rankings, resamples=500, seed=9).table
    assert set(table["ranking"]) == {"r:layers", "p:expected_profile"}
    assert set(table["resampled"]) == {PROBLEMS}
    for _, part in table.groupby("ranking", observed=True):
        assert part["p_first"].sum() == pytest.approx(1.0)
    # A has the best value on every problem: first in every resample of either. In the profile
    # every algorithm is within ratio 4 on every problem (a tie at x_max); the tie is broken by
    # the wins at ratio 1: A 3 of 3, B and C none (tied second in every resample).
    first = table[table["algorithm"] == "A"].set_index("ranking")["p_first"]
    assert first.to_dict() == {"r:layers": 1.0, "p:expected_profile": 1.0}
    profile_rows = table[table["ranking"] == "p:expected_profile"].set_index("algorithm")
    assert profile_rows[["rank_low", "rank_high"]].to_numpy().tolist() == [[1, 1], [2, 2], [2, 2]]


def test_head_to_head_by_scores_breaks_equal_scores_by_the_second_key() -> None:
    from reportgen.synthesis.head_to_head import head_to_head
    from reportgen.synthesis.rankings import Scores

    # Both reach x_max on all three problems (first key 1, 1, 1); at ratio 1 A's terms are
    # (0.5, 0.5, 0.2) and B's (0.1, 0.5, 0.4): A is ahead on p1, B on p3, p2 ties.
    scores = Scores(
        np.ones((3, 2)),
        ("A", "B"),
        higher_is_better=True,
        tiebreak=np.array([[0.5, 0.1], [0.5, 0.5], [0.2, 0.4]]),
    )
    ranking = Ranking(id="p", analysis_id="p", label="p", ranks={"A": 1.0, "B": 2.0}, scores=scores)
    found = head_to_head("A", "B", [], [ranking])
    assert found is not None and not found.tested
    assert (found.significant_a, found.significant_b, found.problems) == (1, 1, 3)


def test_a_share_short_of_certain_is_never_printed_as_certain() -> None:
    from reportgen.synthesis.summary import _percent

    # 1997 of 2000 resamples is not "100 %"; 3 of 2000 is not "0 %".
    assert [_percent(v) for v in (1.0, 1997 / 2000, 0.994, 3 / 2000, 0.0)] == [
        "100 %",
        "over 99 %",
        "99 %",
        "under 1 %",
        "0 %",
    ]


def test_the_runtime_ecdf_area_resamples_runs() -> None:
    from reportgen.analyses import runtime_ecdf
    from reportgen.spec.analyses.runtime_ecdf import RuntimeEcdfOptions
    from reportgen.synthesis.rankings import runtime_ecdf as ecdf_rankings

    # Three problems, three runs each. A reaches 10⁻⁸ at evaluation 10 in every run (then
    # stops at 100); B improves only to 1 by 100. A is first in every resample, runs and all.
    rows = [
        (a, f"f{p}", 2, r, e, v)
        for p in (1, 2, 3)
        for r in range(3)
        for a, records in {
            "A": [(1, 10.0), (10, 1e-9), (100, 1e-9)],
            "B": [(1, 10.0), (100, 1.0)],
        }.items()
        for e, v in records
    ]
    frame = pd.DataFrame(
        rows, columns=["algorithm", "problem", "dimension", "run", "evaluations", "value"]
    )
    data = AnalysisData("histories", frame, ("A", "B"), (("f1", 2), ("f2", 2), ("f3", 2)))
    options = RuntimeEcdfOptions.model_validate({"kind": "runtime_ecdf", "data": "h"})
    (ranking,) = ecdf_rankings("e", runtime_ecdf.compute(data, options))
    table = uncertainty([ranking], resamples=300, seed=4).table.set_index("algorithm")
    assert table.loc["A", "p_first"] == 1.0 and table.loc["B", "p_first"] == 0.0
    assert set(table["resampled"]) == {PROBLEMS_AND_RUNS}


def _relation(data: AnalysisData) -> Ranking:
    from reportgen.analyses import significance_relation
    from reportgen.spec.analyses.significance_relation import SignificanceRelationOptions
    from reportgen.synthesis.rankings import significance_relation as relation_rankings

    options = SignificanceRelationOptions(kind="significance_relation", data="runs")
    (ranking,) = relation_rankings("r", significance_relation.compute(data, options))
    return ranking


def test_relation_layers_from_runs_resample_the_runs_too() -> None:
    # Mean values: A 2.4 and B 2.6 on each of 6 problems (OVERLAPPING, shifted to be positive):
    # A dominates B by award points in every resample of the problems alone, but a draw of the
    # runs puts B's mean below A's on a problem about as often as not.
    positive = {
        a: [[v + 1.0 for v in runs] for runs in problems] for a, problems in OVERLAPPING.items()
    }
    ranking = _relation(_trials(positive))
    assert ranking.ranks == {"A": 1.0, "B": 2.0} and ranking.bootstrap_runs
    both = uncertainty([ranking], resamples=1000, seed=3).table.set_index("algorithm")
    assert set(both["resampled"]) == {PROBLEMS_AND_RUNS}
    problems_only = dataclasses.replace(ranking, bootstrap_runs=False)
    alone = uncertainty([problems_only], 1000, 3).table.set_index("algorithm")
    assert alone.loc["A", "p_first"] == 1.0 and set(alone["resampled"]) == {PROBLEMS}
    assert 0.5 < both.loc["A", "p_first"] < 0.95
    assert both["p_first"].sum() == pytest.approx(1.0)
    # Every run of A better than every run of B: A first in every resample, runs and all.
    dominated = uncertainty([_relation(_trials(DOMINATED))], 300, 3).table.set_index("algorithm")
    assert dominated.loc["A", "p_first"] == 1.0


def test_the_bottom_line_says_the_runs_were_resampled() -> None:
    from reportgen.present.labels import Labels
    from reportgen.synthesis.rankings import U_SCORES
    from reportgen.synthesis.summary import synthesise

    ranking = dataclasses.replace(_u_score(_trials(DOMINATED)), family=U_SCORES)
    result = synthesise([ranking], ("A", "B"), Labels({}), resamples=200, seed=1)
    assert result.bottom_line is not None
    assert (
        "and in 100 % of bootstrap resamples of the problems and of their runs;"
        in result.bottom_line.text
    )


def test_layers_of_many_algorithms_are_not_bootstrapped() -> None:
    from reportgen.synthesis.rankings import MAX_LAYER_BOOTSTRAP

    # The layer bootstrap's cost grows with the square of the algorithms: beyond the bound the
    # ranking has none (and the report names it under the uncertainty table).
    many = {
        f"a{i}": [[1.0 + i, 2.0 + i], [3.0 + i, 1.0 + i]] for i in range(MAX_LAYER_BOOTSTRAP + 1)
    }
    assert _relation(_trials(many)).bootstrap is None
    few = dict(list(many.items())[:3])
    assert _relation(_trials(few)).bootstrap is not None


# --- the vectorised arithmetic against the plain route ----------------------------------------


def _u_scores_by_float_ranks(
    codes: np.ndarray, sizes: np.ndarray, resamples: int, rng: np.random.Generator
) -> np.ndarray:
    """The same draws scored the plain way: each drawn trial's average rank as a float
    (``worse + (held + 1)/2``), summed per algorithm, ``n(n+1)/2`` subtracted."""
    labels = np.repeat(np.arange(len(sizes)), sizes)
    starts = np.cumsum(sizes) - sizes
    uniform = rng.random((resamples, len(codes)), dtype=np.float32)
    draw = (uniform * sizes[labels].astype(np.float32)).astype(np.intp)
    draw = np.minimum(draw, (sizes - 1)[labels]) + starts[labels]
    out = np.empty((resamples, len(sizes)))
    for b in range(resamples):
        drawn = codes[draw[b]]
        held = np.bincount(drawn, minlength=int(codes.max()) + 1)
        rank = len(codes) - np.cumsum(held) + (held + 1) / 2.0
        for j in range(len(sizes)):
            mine = drawn[starts[j] : starts[j] + sizes[j]]
            out[b, j] = rank[mine].sum() - sizes[j] * (sizes[j] + 1) / 2.0
    return out


def test_resampled_u_scores_equal_the_plain_route_on_random_trials() -> None:
    # Random problems: 2-9 algorithms, unequal run counts, many or few places (ties); the
    # integer rank sums must give exactly the floating-point route's U-scores.
    source = np.random.default_rng(20260101)
    for case in range(40):
        sizes = source.integers(1, 25, size=int(source.integers(2, 10)))
        codes = source.integers(0, int(source.integers(1, sizes.sum() + 1)), size=sizes.sum())
        resamples = int(source.integers(1, 60))
        fast = u_scores.resampled_u_scores(codes, sizes, resamples, np.random.default_rng(case))
        plain = _u_scores_by_float_ranks(codes, sizes, resamples, np.random.default_rng(case))
        assert np.array_equal(fast, plain), case


def test_the_largest_draw_below_one_picks_each_algorithms_last_trial() -> None:
    # u = the largest float32 below 1: floor(u·n) must be n − 1 (the last trial), never n.
    largest = np.float32(1.0) - np.float32(2.0**-24)
    codes = np.arange(37)  # no ties: algorithm 0 holds places 0-29, algorithm 1 places 30-36
    u = u_scores.resampled_u_scores(codes, np.array([30, 7]), 1, _Draws(largest))  # type: ignore[arg-type]
    # Every drawn trial of 0 is its place 29, beating all 7 drawn trials of 1 (place 36).
    assert u.tolist() == [[30.0 * 7.0, 0.0]]


def test_run_resampled_u_scores_split_the_codes_by_problem_and_algorithm() -> None:
    data = _trials(
        {
            "A": [[1.0, 3.0, 2.0], [4.0, 1.0, 2.0]],
            "B": [[2.0, 2.0, 2.0], [1.0, 5.0, 3.0]],
        }
    )
    options = UScoresOptions(kind="u_scores", data="runs", target=-1.0)
    result = u_scores.compute(data, options)
    assert result.trial_codes is not None
    for (problem, dimension), (codes, sizes) in result.codes_by_problem.items():
        rows = result.trial_codes[
            (result.trial_codes["problem"] == problem)
            & (result.trial_codes["dimension"] == dimension)
        ]
        expected = [rows.loc[rows["algorithm"] == a, "code"].tolist() for a in result.algorithms]
        assert codes.tolist() == [c for part in expected for c in part]
        assert sizes.tolist() == [len(part) for part in expected]


def test_all_present_reads_a_broadcast_mask_by_its_one_value() -> None:
    from reportgen.analyses.resampling import all_present, drawn_runs, filled

    values = np.arange(12.0).reshape(2, 2, 3)
    full, short = np.full((2, 2), 3), np.array([[3, 2], [3, 3]])
    slots = np.array([[0, 1], [1, 1]])
    ((_, _, drawn, present),) = drawn_runs(values, full, slots, np.random.default_rng(0))
    assert all_present(present) and filled(drawn, present, np.nan) is drawn
    ((_, _, drawn, present),) = drawn_runs(values, short, slots, np.random.default_rng(0))
    assert not all_present(present)  # the first slot's second algorithm has 2 of 3 runs
    assert np.isnan(filled(drawn, present, np.nan)[0, 0, 1, 2])
    assert not all_present(np.broadcast_to(np.False_, (4, 5)))
    assert all_present(np.ones((0, 3), dtype=bool)) and all_present(np.ones((2, 3), dtype=bool))
