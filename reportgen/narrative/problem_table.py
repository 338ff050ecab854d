"""Sentences about the per-problem table: the reference, who beats it, who wins most rows.

Finding ids:

- ``reference``: which algorithm the tests compare against, and why;
- ``bold``: who has the best value of the first shown statistic on the most problems;
- ``wtl.best`` / ``wtl.worst``: the best and worst W/T/L balance against the reference;
- ``effects``: how many significant differences are large by Vargha–Delaney's A12;
- ``untested``: published statistics only, so no tests.
"""

from __future__ import annotations

from reportgen.analyses.problem_table import (
    BETTER,
    CENTRAL,
    OVERALL,
    WORSE,
    ProblemTableResult,
    WinTieLoss,
)
from reportgen.present.findings import MAX_NAMED, Finding, join_words
from reportgen.present.labels import Labels

STATISTIC_NAMES = {"mean": "mean", "median": "median", "best": "best run", "worst": "worst run"}


def wtl_text(w: WinTieLoss) -> str:
    """``5/4/3`` — wins, ties, losses."""
    return f"{w.wins}/{w.ties}/{w.losses}"


def findings(result: ProblemTableResult, labels: Labels) -> list[Finding]:
    """The rule-generated sentences of the problem-table section."""
    out: list[Finding] = []
    key = CENTRAL[result.statistics[0]]
    n_problems = len(result.problems)
    label = labels.label
    how = (
        f"the best average rank of the {STATISTIC_NAMES[key]} over the problems"
        if result.reference_rule == "best"
        else "named in the study"
    )
    out.append(
        Finding(
            "reference",
            f"Every algorithm is compared with {label(result.reference)} ({how}).",
            {"reference": result.reference, "rule": result.reference_rule},
        )
    )
    counts = {a: 0 for a in result.algorithms}
    for problem, dimension in result.problems:
        for algorithm in result.best_in_row(problem, dimension, result.statistics[0]):
            counts[algorithm] += 1
    ordered = sorted(counts.items(), key=lambda kv: -kv[1])
    n_top = ordered[0][1]
    # Equal counts are a shared first place, not a first in study order and a "next".
    top = [a for a, n in ordered if n == n_top]
    rest = ordered[len(top) :]
    name = STATISTIC_NAMES[key]
    if len(top) == 1:
        text = f"{label(top[0])} has the best {name} on {n_top} of {n_problems} problems"
    else:
        text = (
            f"{join_words([label(a) for a in top], limit=MAX_NAMED)} have the best {name} equally "
            f"often: on {n_top} of {n_problems} problems each (a tie on a problem counts for "
            "each algorithm tied)"
        )
    if rest and rest[0][1]:
        text += f" (next: {label(rest[0][0])}, {rest[0][1]})"
    out.append(Finding("bold", text + ".", {"best_counts": counts}))
    if not result.tested:
        out.append(
            Finding(
                "untested",
                "The data holds published statistics only, so no rank-sum tests, W/T/L counts or "
                "effect sizes can be given.",
            )
        )
        return out
    overall = [w for w in result.win_tie_loss_counts if w.group == OVERALL]
    if not overall:
        return out
    balance = sorted(overall, key=lambda w: -(w.wins - w.losses))
    best, worst = balance[0], balance[-1]
    better = [w for w in overall if w.wins > w.losses]
    if better:
        text = (
            f"{join_words([label(w.algorithm) for w in better], limit=MAX_NAMED)} "
            f"{'is' if len(better) == 1 else 'are'} significantly better than "
            f"{label(result.reference)} on more problems than worse; the best balance is "
            f"{label(best.algorithm)}'s (W/T/L {wtl_text(best)})."
        )
    else:
        text = (
            f"No algorithm is significantly better than {label(result.reference)} on more "
            f"problems than it is worse; the best balance is {label(best.algorithm)}'s "
            f"(W/T/L {wtl_text(best)})."
        )
    out.append(
        Finding(
            "wtl.best",
            text,
            {
                "algorithm": best.algorithm,
                "wins": best.wins,
                "ties": best.ties,
                "losses": best.losses,
                "better_than_reference": [w.algorithm for w in better],
            },
        )
    )
    if worst.algorithm != best.algorithm and worst.losses:
        out.append(
            Finding(
                "wtl.worst",
                f"{label(worst.algorithm)} loses most often to {label(result.reference)} "
                f"(W/T/L {wtl_text(worst)}).",
                {
                    "algorithm": worst.algorithm,
                    "wins": worst.wins,
                    "ties": worst.ties,
                    "losses": worst.losses,
                },
            )
        )
    out.extend(_group_findings(result, labels))
    significant = [c for c in result.cells if c.marker in (BETTER, WORSE)]
    if significant:
        large = [c for c in significant if c.magnitude == "large"]
        out.append(
            Finding(
                "effects",
                f"Of the {len(significant)} significant differences, {len(large)} "
                f"{'is' if len(large) == 1 else 'are'} large by Vargha–Delaney's A12 "
                "(|A12 − 0.5| ≥ 0.21: a run of one algorithm beats a run of the other at "
                "least 71% of the time).",
                {"significant": len(significant), "large": len(large)},
            )
        )
    return out


def _group_findings(result: ProblemTableResult, labels: Labels) -> list[Finding]:
    """Per dimension and function group: the best W/T/L balance against the reference."""
    out = []
    for group in result.groups:
        if group == OVERALL:
            continue
        counts = [w for w in result.win_tie_loss_counts if w.group == group]
        if not counts:
            continue
        best = max(counts, key=lambda w: w.wins - w.losses)  # first in study order on ties
        n = best.wins + best.ties + best.losses
        where = (
            f"in {group.removeprefix('D=')}-D"
            if group.startswith("D=")
            else f"on the {group} problems"
        )
        if best.wins > best.losses:
            text = (
                f"{where[0].upper() + where[1:]} ({n}), {labels.label(best.algorithm)} fares best "
                f"against {labels.label(result.reference)}: W/T/L {wtl_text(best)}."
            )
        else:
            text = (
                f"{where[0].upper() + where[1:]} ({n}), no algorithm is significantly better than "
                f"{labels.label(result.reference)} more often than worse (best balance: "
                f"{labels.label(best.algorithm)}, W/T/L {wtl_text(best)})."
            )
        out.append(
            Finding(
                f"wtl.group.{group}",
                text,
                {
                    "group": group,
                    "algorithm": best.algorithm,
                    "wins": best.wins,
                    "ties": best.ties,
                    "losses": best.losses,
                },
            )
        )
    return out
