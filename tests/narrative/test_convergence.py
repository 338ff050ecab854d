"""Convergence sentences: algorithms that share the smallest median are named together."""

from __future__ import annotations

from reportgen.analyses.convergence import compute
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
