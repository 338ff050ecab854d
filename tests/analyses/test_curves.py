"""The event-based curves against a straightforward dense reference.

The reference evaluates every run's best-so-far value at every curve point by scanning its
records (the definition: the value of its last record at or before the point), then takes
``numpy.mean`` and ``numpy.std(ddof=1)`` of that dense matrix. The fast path
(:func:`reportgen.analyses.curves.group_curves`) must agree on random small cases, whatever
the record order, block size or evaluation-count type.
"""

from __future__ import annotations

import statistics

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.analyses import curves as curves_module
from reportgen.analyses.curves import first_passage, group_curves, history_groups


def dense_reference(
    runs: np.ndarray, evaluations: np.ndarray, values: np.ndarray, budget: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Curve points, mean and sample std by brute force (a points × runs matrix)."""
    labels = sorted(set(runs.tolist()))
    start = max(evaluations[runs == r].min() for r in labels)
    if start > budget:
        return None
    points = sorted({e for e in evaluations.tolist() if start <= e <= budget} | {start})
    matrix = np.empty((len(points), len(labels)))
    for j, r in enumerate(labels):
        mine = runs == r
        for i, k in enumerate(points):
            at_or_before = mine & (evaluations <= k)
            # The last record at or before k (records of a run have distinct counts).
            matrix[i, j] = values[at_or_before][np.argmax(evaluations[at_or_before])]
    std = matrix.std(axis=1, ddof=1) if len(labels) > 1 else np.full(len(points), np.nan)
    return np.asarray(points, dtype=float), matrix.mean(axis=1), std


@st.composite
def histories(draw: st.DrawFn, whole_counts: bool = True) -> tuple[np.ndarray, ...]:
    """Random best-so-far records of 1–6 runs, in random order."""
    n_runs = draw(st.integers(1, 6))
    runs, evaluations, values = [], [], []
    for _ in range(n_runs):
        label = draw(st.integers(-5, 50))  # run identifiers need not be 0 … n − 1
        while label in runs:
            label += 1
        counts = draw(st.lists(st.integers(0, 60), min_size=1, max_size=12, unique=True))
        counts = sorted(counts)
        if not whole_counts:
            counts = [c + draw(st.sampled_from([0.0, 0.25, 0.5])) for c in counts]
            counts = sorted(set(counts))
        level = draw(st.floats(-1e3, 1e6, allow_nan=False))
        drops = draw(
            st.lists(st.floats(0, 1e5, allow_nan=False), min_size=len(counts), max_size=len(counts))
        )
        value = level
        for count, drop in zip(counts, drops, strict=True):
            value -= drop
            runs.append(label)
            evaluations.append(float(count))
            values.append(value)
    order = draw(st.permutations(range(len(runs))))
    return (
        np.asarray(runs)[order],
        np.asarray(evaluations, dtype=float)[order],
        np.asarray(values, dtype=float)[order],
    )


def assert_matches_reference(records: tuple[np.ndarray, ...], budget: float) -> None:
    runs, evaluations, values = records
    expected = dense_reference(runs, evaluations, values, budget)
    got = group_curves(runs, evaluations, values, budget, with_std=True)
    if expected is None:
        assert got is None
        return
    assert got is not None
    points, mean, std = expected
    np.testing.assert_array_equal(got.evaluations, points)
    scale = np.abs(values).max() + 1.0
    np.testing.assert_allclose(got.mean, mean, rtol=1e-12, atol=1e-12 * scale)
    np.testing.assert_allclose(got.std, std, rtol=1e-9, atol=1e-9 * scale)
    assert got.n_runs == len(set(runs.tolist()))


@settings(max_examples=300, deadline=None)
@given(histories(), st.sampled_from([5.0, 20.0, 45.0, 1e9]))
def test_group_curves_match_the_dense_reference(records, budget):
    assert_matches_reference(records, budget)


@settings(max_examples=150, deadline=None)
@given(histories(whole_counts=False), st.sampled_from([20.25, 1e9]))
def test_fractional_counts_take_the_sorting_path(records, budget):
    assert_matches_reference(records, budget)


@settings(max_examples=150, deadline=None)
@given(histories())
def test_small_blocks_carry_values_across_block_edges(records):
    # Blocks of 1–3 curve points: every run's value must continue from one block to the next.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(curves_module, "BLOCK_CELLS", 3)
        assert_matches_reference(records, 1e9)


def test_std_stays_accurate_after_values_fall_by_sixteen_orders():
    # 40 runs from 1e8 down to 1 ± 1e-7·(r − 19.5) after 500 shared improvements: the late
    # spread is 1e-15 of the early values. A running sum of squares would be pure rounding
    # noise there (1e16·ε ≈ 1); the two-pass value per point equals the exact spread.
    n_runs, steps = 40, 500
    runs = np.repeat(np.arange(n_runs), steps + 1)
    evaluations = np.tile(np.arange(1.0, steps + 2), n_runs)
    path = np.logspace(8, 0, steps)
    values = np.concatenate(
        [np.r_[path * (1 + 1e-3 * r), 1.0 + 1e-7 * (r - 19.5)] for r in range(n_runs)]
    )
    got = group_curves(runs, evaluations, values, budget=1e9, with_std=True)
    assert got is not None
    exact = 1e-7 * np.arange(n_runs).std(ddof=1)
    assert got.std[-1] == pytest.approx(exact, rel=1e-6)
    assert got.mean[-1] == pytest.approx(1.0, rel=1e-15)


def test_first_passage_uses_the_running_minimum_of_a_bound_curve():
    # Not monotone: 9, 5, 7, 3 at 1, 2, 3, 4; f0 = 10. Required gains 4 (f ≤ 6) → 2,
    # 6 (f ≤ 4) → 4, 8 → never.
    evaluations = np.array([1.0, 2.0, 3.0, 4.0])
    curve = np.array([9.0, 5.0, 7.0, 3.0])
    got = first_passage(evaluations, curve, 10.0, np.array([4.0, 6.0, 8.0]))
    assert got.tolist() == [2.0, 4.0, np.inf]


def test_history_groups_find_split_groups():
    frame = pd.DataFrame(
        {
            "algorithm": ["B", "A", "B", "A", "B"],
            "problem": ["p", "p", "p", "q", "q"],
            "dimension": [2, 2, 2, 2, 2],
            "run": [0, 0, 1, 0, 0],
            "evaluations": [1.0, 1.0, 1.0, 1.0, 1.0],
            "value": [5.0, 4.0, 3.0, 2.0, 1.0],
        }
    )
    groups = history_groups(frame, (("p", 2), ("q", 2)), ("A", "B"))
    # Groups by problem, then algorithm: (p, A), (p, B) with rows 0 and 2, (q, A), (q, B).
    assert groups.problem.tolist() == [0, 0, 1, 1]
    assert groups.algorithm.tolist() == [0, 1, 0, 1]
    values = [groups.values[lo:hi].tolist() for lo, hi in zip(groups.lo, groups.hi, strict=True)]
    assert values == [[4.0], [5.0, 3.0], [2.0], [1.0]]


@pytest.mark.parametrize("scale", [1e170, 1e-160])
def test_std_of_extreme_values_neither_overflows_nor_underflows(scale):
    # CEC 2017 f2 has errors up to 1e175 early in a run: (x − x̄)² would overflow to ∞.
    # Reference: statistics.stdev, which sums exactly (fractions) and cannot overflow.
    rng = np.random.default_rng(3)
    n_runs = 30
    firsts = scale * rng.uniform(1, 9, n_runs)
    lasts = firsts * rng.uniform(0.01, 0.5, n_runs)
    runs = np.repeat(np.arange(n_runs), 2)
    evaluations = np.tile([1.0, 2.0], n_runs)
    values = np.column_stack([firsts, lasts]).ravel()
    got = group_curves(runs, evaluations, values, budget=10, with_std=True)
    assert got is not None
    assert got.std[0] == pytest.approx(statistics.stdev(firsts.tolist()), rel=1e-12)
    assert got.std[1] == pytest.approx(statistics.stdev(lasts.tolist()), rel=1e-12)


def test_bootstrap_quantiles_of_the_mean_curve_by_hand():
    # Two runs: 8 then 0 at evaluation 3 (run 0), 8 then 10 at evaluation 2 (run 1). At the
    # last point the runs hold 0 and 10; a resample of two runs has mean 0 (both run 0:
    # probability ¼), 5 (one each: ½) or 10 (¼). The Φ(−1) = 0.159 quantile is 0 (¼ > 0.159),
    # Φ(−0.5) = 0.309 and Φ(0.5) = 0.691 are 5, Φ(1) = 0.841 is 10. At the first point both
    # runs hold 8: every quantile is 8. (1000 resamples: the share of mean-0 resamples is
    # 0.25 ± 0.014, four standard errors from either level.)
    from scipy.stats import norm

    from reportgen.analyses.curves import Bootstrap, GroupCurves

    levels = norm.cdf([-1.0, -0.5, 0.5, 1.0])

    def two_runs() -> GroupCurves | None:
        return group_curves(
            np.array([0, 0, 1, 1]),
            np.array([1.0, 3.0, 1.0, 2.0]),
            np.array([8.0, 0.0, 8.0, 10.0]),
            budget=10,
            with_std=True,
            bootstrap=lambda n: Bootstrap.draw(n, 1000, levels, (7,)),
        )

    curve = two_runs()
    assert curve is not None and curve.quantiles is not None
    assert curve.evaluations.tolist() == [1.0, 2.0, 3.0]
    assert curve.quantiles[:, 0].tolist() == [8.0, 8.0, 8.0, 8.0]
    assert curve.quantiles[:, -1].tolist() == [0.0, 5.0, 5.0, 10.0]
    # The same seed gives the same bounds; the formula's λ = 1 bounds at the last point are
    # 5 ± S/√2 = 5 ± 5 (S = √50): equal to the bootstrap's here, its λ = 0.5 ones (2.5, 7.5) not.
    again = two_runs()
    assert again is not None and again.quantiles is not None
    assert np.array_equal(again.quantiles, curve.quantiles)
    assert curve.bound(1.0, -1)[-1] == pytest.approx(0.0)
    assert curve.bound(0.5, -1)[-1] == pytest.approx(2.5)


def _group_records(groups):
    """Each group's (algorithm, runs, evaluations, values), in the groups' order."""
    return [
        (
            int(groups.algorithm[g]),
            groups.runs[lo:hi].tolist(),
            groups.evaluations[lo:hi].tolist(),
            groups.values[lo:hi].tolist(),
        )
        for g, (lo, hi) in enumerate(zip(groups.lo, groups.hi, strict=True))
    ]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_problem_groups_in_place_equal_history_groups_of_the_rows(seed):
    """A problem's groups found in the table's own columns are those of its copied rows,
    for a sorted (canonical) table and for one whose algorithms' rows are interleaved."""
    from reportgen.analyses.curves import problem_groups
    from reportgen.data.frames import AnalysisData, ProblemRows, problem_frame

    rng = np.random.default_rng(seed)
    n = 400
    frame = pd.DataFrame(
        {
            "algorithm": pd.Categorical(rng.choice(["A", "B", "C"], n)),
            "problem": pd.Categorical(rng.choice(["p", "q"], n)),
            "dimension": rng.choice([2, 5], n),
            "run": rng.integers(0, 4, n),
            "evaluations": rng.integers(1, 50, n).astype(float),
            "value": rng.random(n),
        }
    )
    if seed % 2 == 0:  # the canonical layout
        frame = frame.sort_values(["algorithm", "problem", "dimension", "run"], ignore_index=True)
    problems = tuple(
        sorted({(str(p), int(d)) for p, d in zip(frame.problem, frame.dimension, strict=True)})
    )
    data = AnalysisData("histories", frame, ("A", "B", "C"), problems)
    in_place = 0
    for item, problem in zip(data.problem_items(), problems, strict=True):
        assert isinstance(item, ProblemRows)
        groups = problem_groups(item, problem, data.algorithms)
        rows = problem_frame(item)
        expected = history_groups(rows, (problem,), data.algorithms)
        assert _group_records(groups) == _group_records(expected)
        assert groups.problem.tolist() == expected.problem.tolist()
        in_place += len(groups.runs) == len(frame)  # the table's own columns
    assert in_place == (len(problems) if seed % 2 == 0 else 0)
