"""Mann–Whitney p-values of pairs whose samples hold one value between them.

SciPy 1.18 returns NaN there (1.17 returned 1); the problem table dropped those problems from
its counts and the U-scores' pairwise tests lost the pair. Both now read p = 1, whatever SciPy.
"""

from __future__ import annotations

import numpy as np

from reportgen.analyses.mann_whitney import constant_pairs_not_different
from reportgen.analyses.problem_table import rank_sum, rank_sums
from reportgen.analyses.u_scores import mann_whitney


def test_a_nan_p_value_of_a_constant_pair_is_one_and_others_are_kept():
    x = np.array([[3.0] * 4, [3.0, 3.0, 3.0, 4.0], [5.0] * 4])
    y = np.array([[3.0] * 5, [3.0] * 5, [3.0] * 5])
    # SciPy 1.18's answer for the first pair; the others as the test gave them.
    got = constant_pairs_not_different(np.array([np.nan, 0.4, 0.01]), x, y)
    assert got.tolist() == [1.0, 0.4, 0.01]  # the third pair is two different constants
    assert float(constant_pairs_not_different(np.float64(np.nan), x[0], y[0])) == 1.0


def test_identical_samples_are_not_different_in_the_problem_table():
    same = np.full(30, 1e-8)
    assert rank_sum(same, same) == (1.0, 0.5)
    assert rank_sums([same, same + 1.0], same)[0] == (1.0, 0.5)


def test_identical_samples_are_not_different_in_the_u_score_tests():
    samples = [np.full(30, 7.0), np.full(30, 7.0), np.arange(30.0)]
    statistics, p_values, methods = mann_whitney(samples, [(0, 1), (0, 2)])
    assert p_values[0] == 1.0 and statistics[0] == 450.0  # half of 30 × 30 wins each
    assert 0 < p_values[1] < 1
    assert methods == ["asymptotic", "asymptotic"]
