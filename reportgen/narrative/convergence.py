"""Sentences about convergence: who has the smallest median value at each fixed budget.

Finding ids: ``budget.D=<d>.<budget>`` — per dimension and fixed budget, the algorithm with the
smallest median value on the most problems, and the runner-up.
"""

from __future__ import annotations

from reportgen.analyses.convergence import ConvergenceResult
from reportgen.present.findings import Finding
from reportgen.present.format import evaluations
from reportgen.present.labels import Labels


def findings(result: ConvergenceResult, labels: Labels) -> list[Finding]:
    """Per dimension and fixed budget: the most frequent smallest median."""
    out: list[Finding] = []
    for dimension, budgets in result.budgets.items():
        problems = [p for p, d in result.problems if d == dimension]
        for budget in budgets:
            counts = dict.fromkeys(result.algorithms, 0)
            for problem in problems:
                for algorithm in result.best_at_budget(problem, dimension, budget):
                    counts[algorithm] += 1
            ranked = sorted(counts.items(), key=lambda kv: -kv[1])
            (top, n_top), (second, n_second) = ranked[0], ranked[1] if len(ranked) > 1 else ("", 0)
            where = f" in {dimension}-D" if dimension else ""
            text = (
                f"After {evaluations(budget)} evaluations{where}, {labels.label(top)} has the smallest "
                f"median value on {n_top} of {len(problems)} problems"
            )
            if n_second:
                text += f" (next: {labels.label(second)}, {n_second})"
            out.append(
                Finding(
                    f"budget.D={dimension}.{budget:g}",
                    text + ".",
                    {"dimension": dimension, "budget": budget, "best_counts": counts},
                )
            )
    return out
