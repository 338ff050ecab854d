"""Mean, standard deviation and confidence-bound curves of best-so-far histories.

Liu et al. (§IV-C, Eqs. 9–11) define, for algorithm ``i`` on problem ``j`` after
``k`` evaluations, the sample mean and sample variance over the ``n_r`` runs of the best-so-far
values ``H(k, r, j, i)``, and the bound curves

.. math::

    \\bar H(k) = \\frac{1}{n_r}\\sum_r H(k, r), \\qquad
    S_H^2(k) = \\frac{1}{n_r - 1}\\sum_r \\bigl(H(k, r) - \\bar H(k)\\bigr)^2, \\qquad
    H_{\\text{upper/lower}}(k) = \\bar H(k) \\pm \\lambda S_H(k)/\\sqrt{n_r}.

Each run's history is a step function that changes only where the run improves, so these
curves are step functions too, changing only at the union of the runs' improvement points.
They are evaluated exactly there — and only there — one (problem, algorithm) group at a time;
a dense ``budget × runs × problems × algorithms`` array is never built (docs/methods.md).

Scheme
------
For one group with ``G`` curve points and ``n_r`` runs, the runs' values at the points form an
``n_r × G`` matrix that is built block by block (at most :data:`BLOCK_CELLS` cells, i.e. a
range of points, at a time, so memory stays bounded whatever the group's size):

1. Every record is mapped to its curve point (a lookup table over the evaluation counts when
   they are whole numbers in a span not much larger than the number of records, else sorting
   and binary search; records before the first point map to it). Only the last record of a
   run at each point is kept.
2. Each kept record holds its run's value from its point up to the run's next kept record, so
   one ``numpy.repeat`` of the values by those lengths (clipped to the block) writes the block
   row by row (one row per run): the values are copied, never computed.
3. Per point (a column of the block, one row per run): the mean ``Σ x / n_r`` and the
   standard deviation by the two-pass formula ``sqrt(Σ (x − x̄)² / (n_r − 1))`` on the same
   values. When the group's values are extreme (beyond 10¹⁵⁰ or, non-zero, below 10⁻¹³⁰;
   e.g. CEC 2017 f2, whose early errors reach 10¹⁷⁵), the deviations are divided by their
   largest magnitude before squaring, so the result neither overflows nor underflows.

Cost is ``O(G · n_r)`` per group in a handful of vectorised passes (sums over the ``n_r``
runs are plain sums: their rounding error is at most about ``n_r·ε`` times the sum of the
magnitudes, and nothing cancels across points). No running sums are carried from one point
to the next: an incremental update of the sum or the sum of squares
(adding each improvement's change) loses every significant digit once the values have fallen
by many orders of magnitude (a run going from 10⁵ to 10⁻⁸ leaves rounding errors of about
10⁵·ε ≈ 10⁻¹¹ in the sums, larger than the late spread itself). Every point's statistics are
computed from that point's values alone, so they are as accurate as for a single sample.

Decisions
---------
- A curve starts at the first evaluation count at which *every* run has a record (before it,
  the mean over runs is undefined); its first value is the algorithm's "first recorded mean".
- Records after the budget ``μ_f`` are ignored.
- ``n_r = 1``: the standard deviation is NaN (undefined); bound curves are then NaN.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from reportgen.analyses.spread import is_extreme
from reportgen.data.frames import ProblemRows, category_codes, problem_frame

BLOCK_CELLS = 1 << 19
"""Matrix cells (curve points × runs) evaluated per block: 4 MB of float64."""


@dataclass(frozen=True)
class GroupCurves:
    """The statistics curves of one algorithm on one problem.

    Attributes
    ----------
    evaluations : numpy.ndarray
        The points (evaluation counts, increasing) where some run improves, from the first
        point at which every run has a record up to the budget.
    mean, std : numpy.ndarray
        Sample mean and sample standard deviation (ddof = 1; NaN when ``n_runs == 1`` or when
        not requested) of the runs' best-so-far values at each point.
    n_runs : int
        Number of runs ``n_r``.
    best : float
        The smallest value any run reached within the budget.
    low, high : numpy.ndarray or None
        The smallest and the largest of the runs' best-so-far values at each point (the range
        the data supports there); computed with ``std``, else None.
    """

    evaluations: np.ndarray
    mean: np.ndarray
    std: np.ndarray
    n_runs: int
    best: float = np.nan
    low: np.ndarray | None = None
    high: np.ndarray | None = None
    quantiles: np.ndarray | None = None
    """``[levels, points]``: quantiles of the bootstrap distribution of the mean curve at each
    point (``bootstrap`` of :func:`group_curves`), or None."""

    def bound(self, lam: float, side: int) -> np.ndarray:
        """The upper (``side=+1``) or lower (``side=-1``) bound curve, Eq. 11a/11b."""
        return self.mean + side * lam * self.std / np.sqrt(self.n_runs)


@dataclass(frozen=True)
class HistoryGroups:
    """Where the records of each (problem, algorithm) group of a histories table lie.

    Group ``g`` is ``runs/evaluations/values[lo[g]:hi[g]]``, for problem index ``problem[g]``
    and algorithm index ``algorithm[g]``; groups are listed by problem, then algorithm. When
    the table keeps each group's rows together (the canonical layout does), the arrays are the
    frame's own columns, not copies; otherwise they are gathered once in group order
    (``order``).
    """

    problem: np.ndarray
    algorithm: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    runs: np.ndarray
    evaluations: np.ndarray
    values: np.ndarray
    order: np.ndarray | None

    def take(self, column: np.ndarray) -> np.ndarray:
        """Another column of the table, aligned with ``runs``/``evaluations``/``values``."""
        return column if self.order is None else column[self.order]


def _codes(column: pd.Series) -> np.ndarray:
    """Integer codes of a key column whose equal values get equal codes (no copy if possible)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return category_codes(column)
    if column.dtype.kind in "biuf":
        return column.to_numpy()
    return pd.factorize(column)[0]


def history_groups(
    frame: pd.DataFrame,
    problems: tuple[tuple[str, int], ...],
    algorithms: tuple[str, ...],
) -> HistoryGroups:
    """Find the (problem, algorithm) groups of a histories table without sorting its rows.

    A group starts wherever algorithm, problem or dimension differs from the previous row;
    this costs one comparison per row and key. Only when some group's rows are not contiguous
    is the table sorted (stably, by group) — once, and never by run or evaluations, which
    :func:`group_curves` orders within a group if needed.
    """
    n = len(frame)
    change = np.zeros(n, dtype=bool)
    change[:1] = True
    for name in ("algorithm", "problem", "dimension"):
        codes = _codes(frame[name])
        change[1:] |= codes[1:] != codes[:-1]
        del codes
    starts = np.flatnonzero(change)
    del change
    problem_index = {key: i for i, key in enumerate(problems)}
    algorithm_index = {name: i for i, name in enumerate(algorithms)}
    keys = zip(frame["problem"].iloc[starts], frame["dimension"].iloc[starts], strict=True)
    block_problem = np.fromiter((problem_index[(str(p), int(d))] for p, d in keys), np.intp)
    block_algorithm = np.fromiter(
        (algorithm_index[str(a)] for a in frame["algorithm"].iloc[starts]), np.intp
    )
    ends = np.r_[starts[1:], n]
    block_key = block_problem * len(algorithms) + block_algorithm
    runs = frame["run"].to_numpy()
    evaluations = frame["evaluations"].to_numpy(dtype=float)
    values = frame["value"].to_numpy(dtype=float)
    order = None
    if len(np.unique(block_key)) < len(block_key):
        # Some group's rows are split: gather every group's rows together, once.
        row_key = np.repeat(block_key, ends - starts)
        order = np.argsort(row_key, kind="stable")
        runs, evaluations, values = runs[order], evaluations[order], values[order]
        row_key = row_key[order]
        starts = np.flatnonzero(np.r_[True, row_key[1:] != row_key[:-1]])
        ends = np.r_[starts[1:], n]
        block_key = row_key[starts]
        del row_key
    by_group = np.argsort(block_key, kind="stable")
    return HistoryGroups(
        problem=(block_key // len(algorithms))[by_group],
        algorithm=(block_key % len(algorithms))[by_group],
        lo=starts[by_group],
        hi=ends[by_group],
        runs=runs,
        evaluations=evaluations,
        values=values,
        order=order,
    )


def problem_groups(
    item: Any, problem: tuple[str, int], algorithms: tuple[str, ...]
) -> HistoryGroups:
    """The algorithms' groups of one problem's work item
    (:meth:`~reportgen.data.frames.AnalysisData.problem_items`), as :func:`history_groups`
    of its rows finds them.

    The rows of a table in memory (:class:`~reportgen.data.frames.ProblemRows`) are not
    copied when each algorithm's rows form one stretch of it (the canonical layout): the
    groups are then stretches of the table's own columns, ``lo``/``hi`` positions in the
    whole table (so :meth:`HistoryGroups.take` does not apply to a column of the problem's
    rows). That saves copying each problem's rows (0.4 s of CPU, and 4–5 MB of memory
    touched for the first time per problem, at the paper's 28.8 M records) and comparing
    their keys. Any other item is read (:func:`~reportgen.data.frames.problem_frame`) and
    grouped by :func:`history_groups`.
    """
    if isinstance(item, ProblemRows):
        groups = _groups_in_place(item, algorithms)
        if groups is not None:
            return groups
    return history_groups(problem_frame(item), (problem,), algorithms)


def _groups_in_place(rows: ProblemRows, algorithms: tuple[str, ...]) -> HistoryGroups | None:
    """:func:`problem_groups` of a table's rows in place, or None when some algorithm's
    rows are not one stretch (or the algorithm column is not categorical)."""
    frame, spans = rows.frame, rows.spans
    column = frame["algorithm"]
    if not len(spans) or not isinstance(column.dtype, pd.CategoricalDtype):
        return None
    codes = category_codes(column)
    starts: list[np.ndarray] = []
    for lo, hi in spans:
        # A problem's span may hold several algorithms (a table of one problem is one span).
        part = codes[lo:hi]
        starts.append(np.r_[lo, np.flatnonzero(part[1:] != part[:-1]) + (lo + 1)])
    lo_rows = np.concatenate(starts)
    ends = np.r_[lo_rows[1:], 0]
    # A stretch ends where the next begins, or where its span ends.
    span_ends = np.cumsum([len(s) for s in starts]) - 1
    ends[span_ends] = spans[:, 1]
    index = {name: i for i, name in enumerate(algorithms)}
    names = column.cat.categories
    block_algorithm = np.fromiter((index[str(names[codes[s]])] for s in lo_rows), np.intp)
    if len(np.unique(block_algorithm)) < len(block_algorithm):
        return None  # an algorithm in two stretches: history_groups gathers its rows
    by_group = np.argsort(block_algorithm, kind="stable")
    return HistoryGroups(
        problem=np.zeros(len(lo_rows), dtype=np.intp),
        algorithm=block_algorithm[by_group],
        lo=lo_rows[by_group],
        hi=ends[by_group],
        runs=frame["run"].to_numpy(),
        evaluations=frame["evaluations"].to_numpy(dtype=float),
        values=frame["value"].to_numpy(dtype=float),
        order=None,
    )


def sorted_by_run(
    runs: np.ndarray, evaluations: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The records ordered by run, then evaluations, with runs coded ``0 … n_r − 1``."""
    if len(runs) > 1:
        step = np.diff(runs)
        in_order = bool((step >= 0).all() and (np.diff(evaluations)[step == 0] > 0).all())
    else:
        in_order = True
    if not in_order:
        order = np.lexsort((evaluations, runs))
        runs, evaluations, values = runs[order], evaluations[order], values[order]
    codes = np.empty(len(runs), dtype=np.intp)
    codes[:1] = 0
    np.cumsum(runs[1:] != runs[:-1], out=codes[1:])
    return codes, evaluations, values


def _curve_points(evaluations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct evaluation counts, and each record's index among them.

    Evaluation counts are whole numbers in practice: then, when their span is not much larger
    than the number of records, a lookup table over the span replaces sorting (exact: the
    counts are represented exactly as floats below 2⁵³). Otherwise, sort and binary search.
    """
    low = float(evaluations.min())
    span = float(evaluations.max()) - low
    if span <= 4 * len(evaluations) + 4096:
        offsets = evaluations - low
        whole = offsets.astype(np.intp)
        if np.array_equal(whole, offsets):
            seen = np.zeros(int(span) + 1, dtype=bool)
            seen[whole] = True
            rank = np.cumsum(seen) - 1
            return low + np.flatnonzero(seen), rank[whole]
    points = np.unique(evaluations)
    return points, np.searchsorted(points, evaluations)


@dataclass(frozen=True)
class Bootstrap:
    """A percentile bootstrap of a mean curve over its runs.

    ``weights`` is ``[resamples, n_runs]``: each row the multiplicities of one resample of the
    runs (drawn with replacement, as many as there are) divided by ``n_runs``, so that
    ``weights @ values`` is the resampled mean at every point at once — whole runs are
    resampled, never points of different runs. ``levels`` are the quantile levels wanted.
    """

    weights: np.ndarray
    levels: np.ndarray

    @classmethod
    def draw(
        cls, n_runs: int, resamples: int, levels: np.ndarray, seed: Sequence[int]
    ) -> Bootstrap:
        """Multinomial resample weights from a seeded PCG64 generator (same seed, same
        weights)."""
        rng = np.random.Generator(np.random.PCG64(list(seed)))
        counts = rng.multinomial(n_runs, np.full(n_runs, 1.0 / n_runs), size=resamples)
        return cls(counts / n_runs, np.asarray(levels, dtype=float))


def group_curves(
    runs: np.ndarray,
    evaluations: np.ndarray,
    values: np.ndarray,
    budget: float,
    with_std: bool,
    bootstrap: Callable[[int], Bootstrap] | None = None,
) -> GroupCurves | None:
    """Curves of one (problem, algorithm) group from its improvement records.

    Parameters
    ----------
    runs : numpy.ndarray of int
        Run identifiers of the records (any integers; records in any order).
    evaluations, values : numpy.ndarray
        The records (best-so-far: non-increasing within each run; evaluation counts distinct
        within a run).
    budget : float
        Records after this evaluation count are ignored.
    with_std : bool
        Compute the standard deviation too (needed only for bound curves).
    bootstrap : callable, optional
        Given the number of runs, the :class:`Bootstrap` whose quantiles of the resampled
        mean curves to compute (``GroupCurves.quantiles``).

    Returns
    -------
    GroupCurves or None
        None when the group has no point within the budget at which every run has a record.

    Examples
    --------
    Two runs; run 0 improves at 1 and 3, run 1 at 1 and 5: the curves change at 1, 3 and 5.

    >>> c = group_curves(np.array([0, 0, 1, 1]), np.array([1.0, 3.0, 1.0, 5.0]),
    ...                  np.array([8.0, 2.0, 4.0, 0.0]), budget=10, with_std=True)
    >>> c.evaluations.tolist(), c.mean.tolist(), c.std.round(4).tolist()
    ([1.0, 3.0, 5.0], [6.0, 3.0, 1.0], [2.8284, 1.4142, 1.4142])
    """
    codes, evaluations, values = sorted_by_run(runs, evaluations, values)
    n_runs = int(codes[-1]) + 1
    first = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    start = float(evaluations[first].max())
    if start > budget:
        return None
    inside = evaluations <= budget
    if not inside.all():
        codes, evaluations, values = codes[inside], evaluations[inside], values[inside]
    best = float(values.min())
    extreme = is_extreme(values)
    # Step 1: the curve points; each record's point (records before `start` map to the first).
    grid, position = _curve_points(np.maximum(evaluations, start))
    n_points = len(grid)
    run_ends = np.r_[codes[1:] != codes[:-1], True]
    last_in_cell = run_ends.copy()
    last_in_cell[:-1] |= position[1:] != position[:-1]
    position, values, run_ends = (
        position[last_in_cell],
        values[last_in_cell],
        run_ends[last_in_cell],
    )
    # Each kept record holds its run's value from its point up to the run's next record.
    until = np.empty_like(position)
    until[:-1] = position[1:]
    until[run_ends] = n_points
    mean = np.empty(n_points)
    std = np.full(n_points, np.nan)
    low = np.empty(n_points) if with_std else None
    high = np.empty(n_points) if with_std else None
    boot = bootstrap(n_runs) if bootstrap is not None else None
    quantiles = np.empty((len(boot.levels), n_points)) if boot is not None else None
    width = n_runs if boot is None else max(n_runs, len(boot.weights))
    columns_per_block = max(1, BLOCK_CELLS // width)
    for lo in range(0, n_points, columns_per_block):
        hi = min(lo + columns_per_block, n_points)
        # Step 2: the runs' values at points lo … hi − 1, one row per run (copies only).
        length = np.minimum(until, hi) - np.maximum(position, lo)
        block = np.repeat(values, np.maximum(length, 0)).reshape(n_runs, hi - lo)
        # Step 3: mean and two-pass standard deviation at each point (column).
        column_mean = block.sum(axis=0) / n_runs
        mean[lo:hi] = column_mean
        if low is not None and high is not None:
            low[lo:hi] = block.min(axis=0)
            high[lo:hi] = block.max(axis=0)
        if boot is not None and quantiles is not None:
            # Every resample's mean at every point of the block, then their quantiles.
            quantiles[:, lo:hi] = np.quantile(boot.weights @ block, boot.levels, axis=0)
        if with_std and n_runs > 1:
            block -= column_mean
            if extreme:
                # Scale each column's deviations to at most 1 so that squaring them can
                # neither overflow (values beyond 10¹⁵⁴) nor underflow (below 10⁻¹⁵⁴).
                scale = np.abs(block).max(axis=0)
                scale[scale == 0] = 1.0
                block /= scale
            else:
                scale = 1.0
            std[lo:hi] = scale * np.sqrt(np.einsum("ij,ij->j", block, block) / (n_runs - 1))
    return GroupCurves(
        evaluations=grid,
        mean=mean,
        std=std,
        n_runs=n_runs,
        best=best,
        low=low,
        high=high,
        quantiles=quantiles,
    )


def first_passage(
    evaluations: np.ndarray,
    curve: np.ndarray,
    start_value: float,
    required: np.ndarray,
    *,
    non_increasing: bool = False,
) -> np.ndarray:
    """First evaluation count at which ``start_value − curve ≥ required`` (∞ if never).

    Vectorised over ``required``. The test at a point depends only on the curve's value there,
    so the first passage of a (possibly non-monotone) bound curve is that of its running
    minimum, on which ``start_value − running_min`` is non-decreasing and a binary search is
    exact. ``non_increasing=True`` says that ``curve`` already is its own running minimum.
    """
    running_min = curve if non_increasing else np.minimum.accumulate(curve)
    gained = start_value - running_min
    index = np.searchsorted(gained, required, side="left")
    out = np.full(len(required), np.inf)
    found = index < len(gained)
    out[found] = evaluations[index[found]]
    return out
