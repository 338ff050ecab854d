"""Convergence sentences: algorithms that share the smallest median are named together."""

from __future__ import annotations

import pandas as pd

from reportgen.analyses.convergence import compute
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.figures.style import make_style
from reportgen.narrative.convergence import findings
from tests.analyses.test_convergence import histories, options


def test_a_shared_smallest_median_names_both() -> None:
    # One problem, one run each: A and B both at 1.0 after 10 evaluations, C at 5.0. The old
    # sentence named A alone ("A has … on 1 of 1 problems (next: B, 1)").
    records = {
        ("A", 1): [(1, 9.0), (10, 1.0)],
        ("B", 1): [(1, 8.0), (10, 1.0)],
        ("C", 1): [(1, 7.0), (10, 5.0)],
    }
    result = compute(histories(records), options(budgets=[10]))
    assert result.best_at_budget("f1", 2, 10.0) == ("A", "B")
    (said,) = findings(result, make_style(["A", "B", "C"]))
    assert said.text == (
        "After 10 evaluations in 2-D, A and B have the smallest median value on the one problem."
    )


def test_shared_problems_are_said_when_one_algorithm_leads() -> None:
    """cec2017_profiles: 'After 10⁵ evaluations in 10-D, EBOwithCMAR has the smallest median
    value on 23 of 30 problems (next: jSO, 17)' — 40 of 30 unless the shared problems are
    said. Here A and B tie on f1 and A alone is smallest on f2: A 2 of 2, B 1."""
    finals = {("A", "f1"): 1.0, ("B", "f1"): 1.0, ("A", "f2"): 1.0, ("B", "f2"): 5.0}
    frame = pd.DataFrame(
        [
            {"algorithm": a, "problem": p, "dimension": 2, "run": 1, "evaluations": e, "value": v}
            for (a, p), final in finals.items()
            for e, v in ((1, 9.0), (10, final))
        ]
    )
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    result = compute(AnalysisData("histories", frame, ("A", "B"), problems), options(budgets=[10]))
    (said,) = findings(result, make_style(["A", "B"]))
    assert said.text == (
        "After 10 evaluations in 2-D, A has the smallest median value on 2 of 2 problems "
        "(next: B, 1). On 1 problem several algorithms share the smallest median value; each "
        "of them counts it."
    )
    assert said.numbers["shared_problems"] == 1
