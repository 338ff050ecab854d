"""Mean, standard deviation and confidence-bound curves of best-so-far histories.

Liu et al. (papers/000, §IV-C, Eqs. 9–11) define, for algorithm ``i`` on problem ``j`` after
``k`` evaluations, the sample mean and sample variance over the ``n_r`` runs of the best-so-far
values ``H(k, r, j, i)``, and the bound curves

.. math::

    \\bar H(k) = \\frac{1}{n_r}\\sum_r H(k, r), \\qquad
    S_H^2(k) = \\frac{1}{n_r - 1}\\sum_r \\bigl(H(k, r) - \\bar H(k)\\bigr)^2, \\qquad
    H_{\\text{upper/lower}}(k) = \\bar H(k) \\pm \\lambda S_H(k)/\\sqrt{n_r}.

Each run's history is a step function that changes only where the run improves, so these
curves are step functions too, changing only at the union of the runs' improvement points.
They are evaluated exactly there — and only there — one (problem, algorithm) group at a time;
a dense ``budget × runs × problems × algorithms`` array is never built (METHODS.md).

Decisions
---------
- A curve starts at the first evaluation count at which *every* run has a record (before it,
  the mean over runs is undefined); its first value is the algorithm's "first recorded mean".
- Records after the budget ``μ_f`` are ignored.
- Mean and standard deviation at each point are computed from the runs' values there by
  numpy's two-pass routines (no running sums, whose cancellation would corrupt the standard
  deviation late in a run, when the spread is tiny compared with the early values).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_BLOCK_ROWS = 2048
"""Curve points evaluated per block: bounds memory at block × runs values per group."""


@dataclass(frozen=True)
class GroupCurves:
    """The statistics curves of one algorithm on one problem.

    Attributes
    ----------
    evaluations : numpy.ndarray
        The points (evaluation counts, increasing) where some run improves, from the first
        point at which every run has a record up to the budget.
    mean, std : numpy.ndarray
        Sample mean and sample standard deviation (ddof = 1; NaN when ``n_runs == 1``) of the
        runs' best-so-far values at each point.
    n_runs : int
        Number of runs ``n_r``.
    """

    evaluations: np.ndarray
    mean: np.ndarray
    std: np.ndarray
    n_runs: int

    def bound(self, lam: float, side: int) -> np.ndarray:
        """The upper (``side=+1``) or lower (``side=-1``) bound curve, Eq. 11a/11b."""
        return self.mean + side * lam * self.std / np.sqrt(self.n_runs)


def group_curves(
    runs: np.ndarray, evaluations: np.ndarray, values: np.ndarray, budget: float, with_std: bool
) -> GroupCurves | None:
    """Curves of one (problem, algorithm) group from its improvement records.

    Parameters
    ----------
    runs : numpy.ndarray of int
        Run codes ``0 … n_r − 1`` of the records, sorted by run, then evaluations.
    evaluations, values : numpy.ndarray
        The records (best-so-far, non-increasing within each run).
    budget : float
        Records after this evaluation count are ignored.
    with_std : bool
        Compute the standard deviation too (needed only for bound curves).

    Returns
    -------
    GroupCurves or None
        None when the group has no point within the budget at which every run has a record.
    """
    n_runs = int(runs.max()) + 1
    starts = np.searchsorted(runs, np.arange(n_runs), side="left")
    start = float(evaluations[starts].max())
    if start > budget:
        return None
    inside = (evaluations >= start) & (evaluations <= budget)
    grid = np.unique(np.concatenate(([start], evaluations[inside])))
    # Value of every run at every grid point: the last record at or before the point.
    ends = np.append(starts[1:], len(runs))
    mean = np.empty(len(grid))
    std = np.full(len(grid), np.nan)
    for lo in range(0, len(grid), _BLOCK_ROWS):
        block = grid[lo : lo + _BLOCK_ROWS]
        matrix = np.empty((len(block), n_runs))
        for r in range(n_runs):
            ev = evaluations[starts[r] : ends[r]]
            matrix[:, r] = values[starts[r] : ends[r]][np.searchsorted(ev, block, side="right") - 1]
        mean[lo : lo + len(block)] = matrix.mean(axis=1)
        if with_std and n_runs > 1:
            std[lo : lo + len(block)] = matrix.std(axis=1, ddof=1)
    return GroupCurves(evaluations=grid, mean=mean, std=std, n_runs=n_runs)


def first_passage(
    evaluations: np.ndarray, curve: np.ndarray, start_value: float, required: np.ndarray
) -> np.ndarray:
    """First evaluation count at which ``start_value − curve ≥ required`` (∞ if never).

    Vectorised over ``required``. The test at a point depends only on the curve's value there,
    so the first passage of a (possibly non-monotone) bound curve is that of its running
    minimum, on which ``start_value − running_min`` is non-decreasing and a binary search is
    exact.
    """
    gained = start_value - np.minimum.accumulate(curve)
    index = np.searchsorted(gained, required, side="left")
    out = np.full(len(required), np.inf)
    found = index < len(gained)
    out[found] = evaluations[index[found]]
    return out
