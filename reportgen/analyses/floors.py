"""A value floor applied to a table of published statistics (the ``summary`` layout).

With the runs, a floor is exact: every value below it is raised to it,
:math:`v \\leftarrow \\max(v, \\text{floor})`, before any statistic is formed. A published
table has no runs, only statistics of them, and the floor commutes with some of them:

- order statistics (``minimum``, ``median``, ``maximum``) are raised exactly, since
  :math:`\\max(\\cdot, \\text{floor})` is monotone;
- when the ``maximum`` is ≤ floor every run was floored: the mean becomes the floor and the
  standard deviation 0, exactly;
- when no run lies below the floor (``minimum`` ≥ floor) nothing changes;
- otherwise (some runs below, some above) the floored mean and standard deviation are unknown:
  the mean is raised to the floor (:math:`\\max(\\hat\\mu, \\text{floor})`, a lower bound of the
  floored mean) and the standard deviation kept. Such entries are *approximate*; the analyses
  list them in a caveat. Without a ``minimum`` column an entry whose mean is below the floor
  counts as approximate too (some run lay below it).

Decision: one function for every analysis that floors a summary table (the problem table's
``value_floor``, the probabilistic profiles' ``cost_floor``), so that the same published table
floored at the same value gives the same statistics in both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

ORDER_STATISTICS: tuple[str, ...] = ("minimum", "median", "maximum")
"""Columns of the summary layout that a floor raises exactly."""


@dataclass(frozen=True)
class FlooredSummary:
    """A summary table after a floor (see the module docstring)."""

    frame: pd.DataFrame
    """The table with ``mean``, ``std`` and the order statistics floored."""
    raised: np.ndarray
    """Per row: whether some statistic of the row was below the floor (and was raised)."""
    approximate: np.ndarray
    """Per row: whether the floored mean and standard deviation are only approximate."""


def floor_summary(frame: pd.DataFrame, floor: float) -> FlooredSummary:
    """Raise the statistics of a summary table below ``floor`` to it.

    Parameters
    ----------
    frame : pandas.DataFrame
        The ``summary`` layout: ``mean`` and ``std``, optionally ``minimum``, ``median``,
        ``maximum``. Infinite or missing means (failed runs) are left as they are.
    floor : float
        The floor.

    Returns
    -------
    FlooredSummary

    Examples
    --------
    >>> table = pd.DataFrame(
    ...     {"mean": [5e-9, 2.0, 0.5], "std": [1e-9, 1.0, 0.9],
    ...      "minimum": [3e-9, 1.0, 1e-9], "maximum": [8e-9, 3.0, 2.0]})
    >>> out = floor_summary(table, 1e-8)
    >>> out.frame["mean"].tolist(), out.frame["std"].tolist()
    ([1e-08, 2.0, 0.5], [0.0, 1.0, 0.9])
    >>> out.approximate.tolist(), out.raised.tolist()
    ([False, False, True], [True, False, True])
    """
    out = frame.copy()
    mean = frame["mean"].to_numpy(dtype=float)
    finite = np.isfinite(mean)
    below = finite & (mean < floor)
    exact = np.zeros(mean.shape, dtype=bool)
    if "maximum" in frame.columns:
        exact = finite & (frame["maximum"].to_numpy(dtype=float) <= floor)
    if "minimum" in frame.columns:
        below |= finite & (frame["minimum"].to_numpy(dtype=float) < floor)
    for column in ORDER_STATISTICS:
        if column in frame.columns:
            out[column] = np.maximum(frame[column].to_numpy(dtype=float), floor)
    out["mean"] = np.where(finite, np.maximum(mean, floor), mean)
    out["std"] = np.where(exact, 0.0, frame["std"].to_numpy(dtype=float))
    return FlooredSummary(out, below | exact, below & ~exact)
