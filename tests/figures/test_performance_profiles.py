"""Profile figures at many algorithms: a curve drawn under an identical one is named."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

from reportgen.figures.performance_profiles import _end_labels, coinciding
from reportgen.figures.style import make_style


def test_identical_step_curves_are_grouped_in_the_legend_order() -> None:
    steps = (np.array([1.0, 2.0, 8.0]), np.array([0.25, 0.5, 1.0]))
    curves = {
        "A": steps,
        "B": (np.array([1.0, 4.0]), np.array([0.5, 1.0])),
        "C": (steps[0].copy(), steps[1].copy()),  # equal values, another array
        "D": (np.array([1.0, 4.0]), np.array([0.5, 0.75])),  # same x as B, another y
        "E": (np.array([1.0, 4.0]), np.array([0.5, 1.0])),
    }
    # The caption lists them as the legend orders them (here E before B), absent ones skipped.
    assert coinciding(curves, ["E", "A", "D", "C", "B", "Z"]) == [["E", "B"], ["A", "C"]]
    assert coinciding({"A": steps}, ["A"]) == []


def test_curves_named_at_their_right_ends_ties_on_one_label() -> None:
    """Direct labels (issue 18): beyond eight algorithms every curve is named where it ends;
    curves ending at the same share share a label, and a label that would overlap the one
    above is moved down (by whole lines of 7 pt · 1.15) with a leader line to its curve."""
    x = np.array([1.0, 4.0])
    curves = {
        "A": (x, np.array([0.5, 1.0])),
        "B": (x, np.array([0.25, 1.0])),
        "C": (x, np.array([0.5, 0.99])),  # 0.01 below A and B: 1.5 pt on a 150 pt axes
        "D": (x, np.array([0.1, 0.2])),
    }
    ax = Figure().add_subplot()
    _end_labels(ax, curves, make_style(list(curves)))
    labels = {a.get_text(): a for a in ax.texts}
    assert set(labels) == {"A, B", "C", "D"}
    # "A, B" at its end; C pushed below it: its first line's centre one line (8.05 pt) lower.
    assert labels["A, B"].xyann[1] == pytest.approx(7 * 1.15 / 2)
    assert labels["C"].xyann[1] - 7 * 1.15 / 2 == pytest.approx(1.0 * 150 - 7 * 1.15 - 0.99 * 150)
    assert labels["C"].arrowprops is not None and labels["A, B"].arrowprops is None
    assert labels["D"].xyann[1] == pytest.approx(7 * 1.15 / 2)  # far below: where it ends
