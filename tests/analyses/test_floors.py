"""The floor of a published summary table (reportgen.analyses.floors), by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reportgen.analyses.floors import floor_summary


def test_exact_approximate_and_untouched_rows() -> None:
    """Row 0: every run below the floor (maximum 8e-9 ≤ 1e-8) → mean 1e-8, SD 0, exact.
    Row 1: no run below (minimum 1.0) → unchanged. Row 2: some runs below (minimum 1e-9,
    maximum 2.0) → mean kept (0.5 ≥ floor), SD kept, order statistics raised; approximate.
    Row 3: a failed entry (mean ∞) is left as it is."""
    table = pd.DataFrame(
        {
            "mean": [5e-9, 2.0, 0.5, np.inf],
            "std": [1e-9, 1.0, 0.9, np.nan],
            "minimum": [3e-9, 1.0, 1e-9, 1.0],
            "median": [5e-9, 2.0, 5e-9, np.inf],
            "maximum": [8e-9, 3.0, 2.0, np.inf],
        }
    )
    out = floor_summary(table, 1e-8)
    assert out.frame["mean"].tolist() == [1e-8, 2.0, 0.5, np.inf]
    assert out.frame["std"].tolist()[:3] == [0.0, 1.0, 0.9]
    assert out.frame["minimum"].tolist() == [1e-8, 1.0, 1e-8, 1.0]
    assert out.frame["median"].tolist() == [1e-8, 2.0, 1e-8, np.inf]
    assert out.raised.tolist() == [True, False, True, False]
    assert out.approximate.tolist() == [False, False, True, False]
    assert table["mean"].iloc[0] == 5e-9  # the input is not changed


def test_without_order_statistics_a_mean_below_is_approximate() -> None:
    """No minimum or maximum: a mean below the floor is raised, and approximate (some run
    lay below it, how many is unknown)."""
    out = floor_summary(pd.DataFrame({"mean": [5e-9, 1.0], "std": [1e-9, 0.1]}), 1e-8)
    assert out.frame["mean"].tolist() == [1e-8, 1.0]
    assert out.frame["std"].tolist() == [1e-9, 0.1]
    assert out.approximate.tolist() == [True, False]
