"""The bottom line does not recommend a leader over an algorithm that a problem table does not
separate from it, even where the rankings place that algorithm far below (bbob_coco: DIRECT,
first by the runtime ECDF area, was "the recommendation" while the problem table at the common
budget found R-SHADE-10e2 significantly better on 3 problems and worse on 3).

A small study counted by hand (five runs per cell, minimised):

======  ===========  ============  ==============
        R            A             B
======  ===========  ============  ==============
f1      1..5         11..15        21..25
f2      11..15       1..5          21..25
f3      2,4,6,8,10   1,3,5,7,9     21..25
f4      1..5         1..5          21..25
======  ===========  ============  ==============

Against the reference R, complete separation of 5 runs against 5 has the exact two-sided
p = 2/C(10, 5) = 2/252; Holm over four problems multiplies the smallest by 4 (0.032) and the
next by 3: both below 0.05. So A is significantly better on f2, R on f1; f3 (U = 10 of 25) and
f4 (identical runs, p = 1) are ties: A's W/T/L is 1/2/1. B is significantly worse on all four.
A ranking that puts R first, B second and A last (each significantly worse) makes B the
contender of the head-to-head; A, even with R in the table, must still be named.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from reportgen.analyses.problem_table import compute
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.present.labels import Labels
from reportgen.spec.analyses.problem_table import ProblemTableOptions
from reportgen.synthesis.head_to_head import not_separated_by_tables
from reportgen.synthesis.rankings import BEST, FINAL_VALUES, NOT_SIGNIFICANT, WORSE, Ranking
from reportgen.synthesis.summary import SynthesisResult, synthesise

LOW, HIGH, WORST = [1, 2, 3, 4, 5], [11, 12, 13, 14, 15], [21, 22, 23, 24, 25]
RUNS = {
    "R": {"f1": LOW, "f2": HIGH, "f3": [2, 4, 6, 8, 10], "f4": LOW},
    "A": {"f1": HIGH, "f2": LOW, "f3": [1, 3, 5, 7, 9], "f4": LOW},
    "B": {"f1": WORST, "f2": WORST, "f3": WORST, "f4": WORST},
}


def _table(reference: str = "R") -> object:
    frame = pd.DataFrame(
        [
            {"algorithm": a, "problem": p, "dimension": 10, "run": r, "value": float(v)}
            for a, by_problem in RUNS.items()
            for p, values in by_problem.items()
            for r, v in enumerate(values, start=1)
        ]
    )
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    data = AnalysisData("trials", frame, ("R", "A", "B"), problems)
    options = ProblemTableOptions(kind="problem_table", data="runs", reference=reference)
    return compute(data, options)


def _ranking(verdict_of_a: str = WORSE) -> Ranking:
    return Ranking(
        id="p:mean",
        analysis_id="p",
        label="mean",
        family=FINAL_VALUES,
        ranks={"R": 1.0, "B": 2.0, "A": 3.0},
        verdicts={"R": BEST, "B": WORSE, "A": verdict_of_a},
    )


def synthesised(verdict_of_a: str = WORSE, **options: Any) -> SynthesisResult:
    """The summary of the ranking (A's verdict ``verdict_of_a``) and the problem table."""
    return synthesise(
        [_ranking(verdict_of_a)],
        ("R", "A", "B"),
        Labels({}),
        outcomes=[("problem_table", "problem_table", _table())],
        resamples=50,
        **options,
    )


def test_the_table_by_hand() -> None:
    a = _table().win_tie_loss("A")  # type: ignore[attr-defined]
    assert (a.wins, a.ties, a.losses) == (1, 2, 1)
    outcomes = [("problem_table", "problem_table", _table())]
    assert not_separated_by_tables("R", outcomes) == ["A"]
    # From the other side: the table's reference is A, and R is tested against it.
    assert not_separated_by_tables("R", [("problem_table", "t", _table("A"))]) == ["A"]
    assert not_separated_by_tables("A", outcomes) == ["R"]


def test_the_bottom_line_names_an_algorithm_the_table_does_not_separate() -> None:
    result = synthesised()
    assert result.bottom_line is not None
    # It read "Bottom line: R is the recommendation. The only method family (final values)
    # puts it first (1 counted ranking)."
    assert result.bottom_line.text == (
        "Bottom line: R leads, but the problem table does not separate it from A (each "
        "significantly better on 1 of 4 problems; table 'Head to head'). It is first by the "
        "only method family (final values)."
    )
    assert result.bottom_line.numbers["not_separated_by_table"] == ["A"]
    # B, the ranking's second, is still the contender; A's pair comes from the table.
    assert [(h.b, h.significant_a, h.significant_b) for h in result.head_to_heads] == [
        ("B", 4, 0),
        ("A", 1, 1),
    ]


def test_an_algorithm_the_verdict_matrix_already_names_is_not_named_twice() -> None:
    result = synthesised(verdict_of_a=NOT_SIGNIFICANT)
    assert result.bottom_line is not None
    assert result.bottom_line.text == (
        "Bottom line: R leads, but its lead over A is not significant in any test of the "
        "verdict matrix. It is first by the only method family (final values)."
    )
    assert result.bottom_line.numbers["not_separated_by_table"] == []
