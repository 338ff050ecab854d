"""Friedman/Holm on too few problems: no power is said as such, never as 'no difference'.

Hand calculation: Holm's z against the control is (R0 − Ri)/√(k(k+1)/(6N)), and two mean ranks
differ by at most k − 1. With N = 2 problems and k = 3 algorithms, |z| ≤ 2/√(12/12) = 2, so
p ≥ 2·(1 − Φ(2)) = 0.0455 > α/(k − 1) = 0.025: no data can give a rejection. With N = 3,
|z| ≤ 2/√(12/18) = √6 and p ≥ 2·(1 − Φ(√6)) = 0.0143 ≤ 0.025: a rejection is possible.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from reportgen.analyses.perspectives import compute, smallest_holm_p
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.narrative.perspectives import findings
from reportgen.present.labels import Labels
from reportgen.synthesis.rankings import INCONCLUSIVE, INCONCLUSIVE_RANKING, perspectives
from reportgen.synthesis.summary import synthesise
from tests.analyses.test_perspectives import options


def separated(n_problems: int) -> AnalysisData:
    """A beats B beats C by a wide margin on every problem, 5 runs each."""
    rows = [
        {"algorithm": a, "problem": f"p{i}", "dimension": 0, "run": r, "value": base + 0.01 * r}
        for i in range(n_problems)
        for a, base in (("A", 1.0), ("B", 2.0), ("C", 3.0))
        for r in range(5)
    ]
    problems = sorted_problems((f"p{i}", 0) for i in range(n_problems))
    return AnalysisData("trials", pd.DataFrame(rows), ("A", "B", "C"), problems)


def test_smallest_holm_p_by_hand() -> None:
    normal_tail = lambda z: 0.5 * math.erfc(z / math.sqrt(2))  # noqa: E731
    assert smallest_holm_p(2, 3, "two-sided") == pytest.approx(2 * normal_tail(2.0))
    assert smallest_holm_p(2, 3, "two-sided") == pytest.approx(0.0455, abs=5e-5)
    assert smallest_holm_p(3, 3, "two-sided") == pytest.approx(2 * normal_tail(math.sqrt(6)))
    assert smallest_holm_p(2, 3, "one-sided") == pytest.approx(normal_tail(2.0))


def test_two_problems_leave_holm_no_power_and_the_summary_counts_no_ranking() -> None:
    result = compute(separated(2), options(perspectives=["mean", "median"]))
    mean = result.comparisons[0]
    # A is first and C last on both problems: the largest difference any data can give.
    assert mean.mean_ranks.to_dict() == {"A": 1.0, "B": 2.0, "C": 3.0}
    assert not mean.holm_has_power and not mean.rejected
    rankings = perspectives("perspectives", result)
    assert {r.status for r in rankings} == {INCONCLUSIVE_RANKING}
    assert rankings[0].verdicts == {"A": "best", "B": INCONCLUSIVE, "C": INCONCLUSIVE}
    # The old summary: "A leads, but its lead over B and C is not significant in any test" —
    # a test that could not have been significant, read as a tested tie.
    summary = synthesise(rankings, ["A", "B", "C"], Labels({}), resamples=20)
    assert summary.bottom_line is not None
    text = summary.bottom_line.text
    assert text.startswith("Bottom line: no algorithm is ahead — mean final value and median")
    assert text.count("cannot reject") == 1 and "0.0455, exceeds α/2 = 0.025" in text
    said = {f.id: f.text for f in findings(result, Labels({}))}
    assert said["holm.mean"].startswith(
        "By the mean final value, no algorithm can differ significantly from A: with 2 problems"
    )
    assert "no evidence that they perform alike" in said["holm.mean"]


def test_three_problems_can_separate_and_are_counted() -> None:
    result = compute(separated(3), options(perspectives=["mean"]))
    (mean,) = result.comparisons
    assert mean.holm_has_power and mean.rejected == ("C",)
    (ranking,) = perspectives("perspectives", result)
    assert ranking.counted and ranking.verdicts["B"] == "n.s."
