"""Sentences about convergence: who has the smallest median value at each fixed budget.

Finding ids: ``budget.D=<d>.<budget>`` — per dimension and fixed budget, the algorithm with the
smallest median value on the most problems, and the runner-up; algorithms that share either
place are named together, never one of them by study order.
"""

from __future__ import annotations

from reportgen.analyses.convergence import ConvergenceResult
from reportgen.present.findings import Finding, most_often, shared_places
from reportgen.present.format import evaluations
from reportgen.present.labels import Labels


def findings(result: ConvergenceResult, labels: Labels) -> list[Finding]:
    """Per dimension and fixed budget: the most frequent smallest median."""
    out: list[Finding] = []
    for dimension, budgets in result.budgets.items():
        problems = [p for p, d in result.problems if d == dimension]
        for budget in budgets:
            counts = dict.fromkeys(result.algorithms, 0)
            shared = 0
            for problem in problems:
                best = result.best_at_budget(problem, dimension, budget)
                shared += len(best) > 1
                for algorithm in best:
                    counts[algorithm] += 1
            where = f" in {dimension}-D" if dimension else ""
            what = "the smallest median value"
            said = most_often(counts, labels.label, what, len(problems))
            text = f"After {evaluations(budget)} evaluations{where}, {said}."
            out.append(
                Finding(
                    f"budget.D={dimension}.{budget:g}",
                    text + shared_places(counts, shared, what),
                    {
                        "dimension": dimension,
                        "budget": budget,
                        "best_counts": counts,
                        "shared_problems": shared,
                    },
                )
            )
    return out
