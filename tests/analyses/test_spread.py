"""Standard deviations of extreme values: finite and right, the ordinary ones unchanged.

Found by running reportgen on runs whose final values are near 10³⁰⁰: the probabilistic
profile's normal model crashed ('The function value at x=inf is NaN', from scipy's brentq on an
infinite σ), the problem table printed the SD as ∞, the perspectives' SD table as ∞ (with
'RuntimeWarning: overflow encountered in multiply' on the terminal). Values beyond 10¹⁵⁴ square
to ∞; CEC 2017 f2's errors reach 10¹⁷⁵.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from reportgen.analyses import perspectives, probabilistic_profiles, problem_table
from reportgen.analyses.spread import is_extreme, sample_std
from reportgen.data.frames import AnalysisData
from reportgen.spec.analyses.perspectives import PerspectivesOptions
from reportgen.spec.analyses.probabilistic_profiles import ProbabilisticProfilesOptions
from reportgen.spec.analyses.problem_table import ProblemTableOptions

# Runs 1, 2, 3, 4, 5 (SD √2.5) scaled to the edges of the double range.
SCALES = [1e298, 1e160, 1e-150, 1e-300]


@pytest.mark.parametrize("scale", SCALES)
def test_sample_std_of_extreme_values(scale: float) -> None:
    values = scale * np.arange(1.0, 6.0)
    assert is_extreme(values)
    assert sample_std(values) == pytest.approx(math.sqrt(2.5) * scale, rel=1e-12)


def test_ordinary_values_are_computed_as_before() -> None:
    rng = np.random.default_rng(1)
    for values in (rng.normal(size=7), 1e100 * rng.random(30), np.array([0.0, 0.0, 2e-100])):
        assert not is_extreme(values)
        assert sample_std(values) == float(np.std(values, ddof=1))  # the same bits
    assert math.isnan(sample_std([1.0]))


def _trials(scale: float) -> AnalysisData:
    rows = [
        {"algorithm": a, "problem": p, "dimension": 5, "run": r,
         "value": scale * (r + k), "evaluations_to_target": math.inf}
        for p in ("f1", "f2") for k, a in enumerate(("A", "B"), start=1) for r in range(5)
    ]  # fmt: skip
    return AnalysisData("trials", pd.DataFrame(rows), ("A", "B"), (("f1", 5), ("f2", 5)))


@pytest.mark.parametrize("scale", [1e298, 1e160])
def test_analyses_give_the_sd_of_huge_values(scale: float) -> None:
    # Runs of A: scale·(1 … 5), of B: scale·(2 … 6): SD √2.5·scale for both.
    expected = pytest.approx(math.sqrt(2.5) * scale, rel=1e-12)
    data = _trials(scale)
    table = problem_table.compute(data, ProblemTableOptions(kind="problem_table", data="t"))
    assert [c.std for c in table.cells] == [expected] * 4
    views = perspectives.compute(data, PerspectivesOptions(kind="perspectives", data="t"))
    assert views.statistics["std"].tolist() == [expected] * 4
    profile = probabilistic_profiles.compute(
        data, ProbabilisticProfilesOptions(kind="probabilistic_profiles", data="t", cost="value")
    )
    assert [s.algorithm for s in profile.summary] == ["A", "B"]
    assert all(math.isfinite(s.zeta_bar) for s in profile.summary)
