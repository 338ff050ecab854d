"""Sentences about the per-problem table: the reference, who beats it, who wins most rows.

Finding ids:

- ``reference``: which algorithm the tests compare against, and why (only with tests);
- ``bold``: who has the best value of the first shown statistic on the most problems;
- ``wtl.best``: the best W/T/L balance (wins − losses) against the reference;
- ``wtl.worst``: the most losses against the reference;
- ``wtl.group.<group>``: the best balance per dimension and function group;
- ``effects``: how many significant differences are large by Vargha–Delaney's A12;
- ``untested``: published statistics only, so no tests.

Decision: a first place that several algorithms share (the most bold cells, the best balance,
the most losses) names all of them, and so does the runner-up of the bold cells: taking the
first in study order ranked what the table leaves tied (quickstart: "BIPOP-CMA-ES has the best
mean on 8 of 24 problems (next: CMA-ES-CSA, 8)"; perspectives_cec2022: "SSA loses most often
to jSO (W/T/L 0/0/12)" beside GWO's and LBFGSB's 0/0/12).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reportgen.analyses.problem_table import (
    BETTER,
    CENTRAL,
    OVERALL,
    WORSE,
    ProblemTableResult,
    WinTieLoss,
)
from reportgen.present.findings import MAX_NAMED, Finding, join_words, most_often, shared_places
from reportgen.present.format import counted
from reportgen.present.labels import Labels

STATISTIC_NAMES = {"mean": "mean", "median": "median", "best": "best run", "worst": "worst run"}


def wtl_text(w: WinTieLoss) -> str:
    """``5/4/3`` — wins, ties, losses."""
    return f"{w.wins}/{w.ties}/{w.losses}"


def _sentence(text: str) -> str:
    """A clause as a sentence: "no algorithm …" capitalised (an algorithm's label, "jSO", is
    left as it is spelt), a period at the end."""
    return (text[0].upper() + text[1:] if text.startswith("no ") else text) + "."


def _best_balance(rows: Sequence[WinTieLoss]) -> list[WinTieLoss]:
    """Every row with the largest wins − losses, in study order: a balance two algorithms
    share is not decided by which comes first in the study."""
    top = max(w.wins - w.losses for w in rows)
    return [w for w in rows if w.wins - w.losses == top]


def _wtl_names(rows: Sequence[WinTieLoss], label: Callable[[str], str]) -> str:
    """``NL-LBC (W/T/L 1/8/3)``; several: ``NL-LBC (W/T/L 1/8/3), S-DP (2/6/4) and IUMO
    (2/6/4)``, or ``NL-LBC and S-DP (W/T/L 0/2/0 each)`` where their counts are equal."""
    if len({wtl_text(w) for w in rows}) == 1:
        names = join_words([label(w.algorithm) for w in rows], limit=MAX_NAMED)
        return f"{names} (W/T/L {wtl_text(rows[0])}{' each' if len(rows) > 1 else ''})"
    return join_words(
        [
            f"{label(w.algorithm)} ({'W/T/L ' if k == 0 else ''}{wtl_text(w)})"
            for k, w in enumerate(rows)
        ],
        limit=MAX_NAMED,
    )


def _balance_text(best: Sequence[WinTieLoss], label: Callable[[str], str]) -> str:
    """``the best balance is jSO's (W/T/L 2/20/8)``, or shared: ``the best balance is shared
    by NL-LBC (W/T/L 1/8/3) and S-DP (2/6/4)``."""
    if len(best) == 1:
        return f"the best balance is {label(best[0].algorithm)}'s (W/T/L {wtl_text(best[0])})"
    return f"the best balance is shared by {_wtl_names(best, label)}"


def _wtl_numbers(rows: Sequence[WinTieLoss]) -> dict[str, dict[str, int]]:
    return {w.algorithm: {"wins": w.wins, "ties": w.ties, "losses": w.losses} for w in rows}


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
    if result.tested:  # published statistics: no test compares anything with the reference
        out.append(
            Finding(
                "reference",
                f"Every algorithm is compared with {label(result.reference)} ({how}).",
                {"reference": result.reference, "rule": result.reference_rule},
            )
        )
    counts = {a: 0 for a in result.algorithms}
    shared = 0
    for problem, dimension in result.problems:
        in_bold = result.best_in_row(problem, dimension, result.statistics[0])
        shared += len(in_bold) > 1
        for algorithm in in_bold:
            counts[algorithm] += 1
    text = _sentence(most_often(counts, label, f"the best {STATISTIC_NAMES[key]}", n_problems))
    text += shared_places(counts, shared, f"the best {STATISTIC_NAMES[key]}")
    out.append(Finding("bold", text, {"best_counts": counts, "shared_rows": shared}))
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
    best = _best_balance(overall)
    better = [w for w in overall if w.wins > w.losses]
    if better:
        text = (
            f"{join_words([label(w.algorithm) for w in better])} "
            f"{'is' if len(better) == 1 else 'are'} significantly better than "
            f"{label(result.reference)} on more problems than worse; {_balance_text(best, label)}."
        )
    else:
        text = (
            f"No algorithm is significantly better than {label(result.reference)} on more "
            f"problems than it is worse; {_balance_text(best, label)}."
        )
    out.append(
        Finding(
            "wtl.best",
            text,
            {
                "algorithms": [w.algorithm for w in best],
                "wtl": _wtl_numbers(best),
                "better_than_reference": [w.algorithm for w in better],
            },
        )
    )
    # "Loses most often" is said of the most losses (not the worst balance: 5/0/10 loses more
    # often than 0/14/1), every algorithm with that many named.
    most = max(w.losses for w in overall)
    worst = [w for w in overall if w.losses == most]
    if most and {w.algorithm for w in worst} != {w.algorithm for w in best}:
        out.append(
            Finding(
                "wtl.worst",
                f"{_wtl_names(worst, label)} {'loses' if len(worst) == 1 else 'lose'} most "
                f"often to {label(result.reference)}.",
                {"algorithms": [w.algorithm for w in worst], "wtl": _wtl_numbers(worst)},
            )
        )
    out.extend(_group_findings(result, labels))
    significant = [c for c in result.cells if c.marker in (BETTER, WORSE)]
    if significant:
        large = [c for c in significant if c.magnitude == "large"]
        out.append(
            Finding(
                "effects",
                (
                    f"All {len(significant)} significant differences are"
                    if len(large) == len(significant) > 1
                    else f"Of the {counted(len(significant), 'significant difference')}, "
                    f"{len(large)} {'is' if len(large) == 1 else 'are'}"
                )
                + " large by Vargha–Delaney's A12 "
                # "Ties counting half": A12 = P(better) + ½ P(tie). Without the words, runs
                # tied at a value floor (cec2022: 2887 values at 10⁻⁸) read as beating each
                # other half of the time.
                "(|A12 − 0.5| ≥ 0.21: a run of one algorithm beats a run of the other at "
                "least 71 % of the time, ties counting half).",
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
        best = _best_balance(counts)
        n = best[0].wins + best[0].ties + best[0].losses
        where = (
            f"in {group.removeprefix('D=')}-D"
            if group.startswith("D=")
            else f"on the {group} problems"
        )
        if best[0].wins > best[0].losses:
            text = (
                f"{where[0].upper() + where[1:]} ({n}), {_wtl_names(best, labels.label)} "
                f"{'fares' if len(best) == 1 else 'fare'} best against "
                f"{labels.label(result.reference)}."
            )
        else:
            text = (
                f"{where[0].upper() + where[1:]} ({n}), no algorithm is significantly better than "
                f"{labels.label(result.reference)} more often than worse; "
                f"{_balance_text(best, labels.label)}."
            )
        out.append(
            Finding(
                f"wtl.group.{group}",
                text,
                {
                    "group": group,
                    "algorithms": [w.algorithm for w in best],
                    "wtl": _wtl_numbers(best),
                },
            )
        )
    return out
