"""The Mann–Whitney U test's p-value where the two samples hold one value between them.

When every value of both samples is the same, the normal approximation's variance is zero.
SciPy up to 1.17 returned ``p = 1`` for that pair (no evidence of a difference); SciPy 1.18
returns NaN, and a NaN p-value is no verdict: the problem table dropped such problems from its
counts (a W/T/L of 2/5/2 of 9 where it was 2/8/2 of 12) and the U-scores' pairwise tests lost
the pair. :func:`constant_pairs_not_different` restores ``p = 1`` for exactly those pairs, so
the tests read the same under every SciPy the project allows.
"""

from __future__ import annotations

import numpy as np


def constant_pairs_not_different(p_values: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``p_values`` with 1.0 wherever the pair's pooled sample is a single value.

    Parameters
    ----------
    p_values : numpy.ndarray
        ``[pairs]`` (or a scalar for one pair), as :func:`scipy.stats.mannwhitneyu` gave them.
    x, y : numpy.ndarray
        The pairs' samples, ``[pairs, n]`` and ``[pairs, m]`` (or 1-D for one pair).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0, 1.0], [1.0, 2.0]])
    >>> y = np.array([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    >>> constant_pairs_not_different(np.array([np.nan, 0.4]), x, y).tolist()
    [1.0, 0.4]
    """
    x2, y2 = np.atleast_2d(x), np.atleast_2d(y)
    first = x2[:, :1]
    constant = (x2 == first).all(axis=1) & (y2 == first).all(axis=1)
    out = np.array(p_values, dtype=float, copy=True)
    if out.ndim == 0:
        return np.asarray(1.0 if constant[0] else float(out))
    out[constant] = 1.0
    return out
