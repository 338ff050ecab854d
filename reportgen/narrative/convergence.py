"""Sentences about convergence: who has the smallest median value at each fixed budget.

Finding ids: ``budget.D=<d>.<budget>`` — per dimension and fixed budget, the algorithm with the
smallest median value on the most problems, and the runner-up.
"""

from __future__ import annotations

from reportgen.analyses.convergence import ConvergenceResult
from reportgen.present.findings import MAX_NAMED, Finding, join_words
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
            n_top = ranked[0][1]
            # Equal counts are a shared first place, not a first in study order and a "next".
            top = [a for a, n in ranked if n == n_top]
            rest = ranked[len(top) :]
            where = f" in {dimension}-D" if dimension else ""
            text = f"After {evaluations(budget)} evaluations{where}, "
            if len(top) == 1:
                text += (
                    f"{labels.label(top[0])} has the smallest median value on {n_top} of "
                    f"{len(problems)} problems"
                )
            else:
                text += (
                    f"{join_words([labels.label(a) for a in top], limit=MAX_NAMED)} have the smallest "
                    f"median value equally often: on {n_top} of {len(problems)} problems each (a "
                    "tie on a problem counts for each algorithm tied)"
                )
            if rest and rest[0][1]:
                text += f" (next: {labels.label(rest[0][0])}, {rest[0][1]})"
            out.append(
                Finding(
                    f"budget.D={dimension}.{budget:g}",
                    text + ".",
                    {"dimension": dimension, "budget": budget, "best_counts": counts},
                )
            )
    return out
