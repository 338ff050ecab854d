"""Profile figures at many algorithms: a curve drawn under an identical one is named."""

from __future__ import annotations

import numpy as np

from reportgen.figures.performance_profiles import coinciding


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
