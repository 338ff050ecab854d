"""Sentences about runtime ECDFs per dimension: the largest area under the ECDF (the "best" the
figure titles and the summary name), and who reaches the most (function, target) pairs — at the
common budget when the budgets differ widely, since shares at unequal budgets do not compare."""

from __future__ import annotations

from reportgen.analyses.runtime_ecdf import AREA_PLACES, RuntimeEcdfResult
from reportgen.present.findings import MAX_NAMED, Finding, join_words
from reportgen.present.format import ecdf_share, fixed, number
from reportgen.present.labels import Labels


def findings(result: RuntimeEcdfResult, labels: Labels) -> list[Finding]:
    """Per dimension: the largest area (the "best", as in the figure and the summary), the
    most pairs reached at the common budget, and the most reached at each one's own budget."""
    out: list[Finding] = []
    label = labels.label
    for dimension in result.dimensions():
        rows = result.summaries(dimension)
        where = f"In {int(dimension)}-D" if dimension else "Over all dimensions"
        # Stable sorts, largest first: ties keep study order.
        by_area = sorted(rows, key=lambda s: (-s.area, -s.solved))
        best = by_area[0]
        # Equal areas are a shared first place: naming the first in study order alone would
        # let the study's order decide (the summary's ranking ties them too).
        tied = [s.algorithm for s in by_area if s.area == best.area]
        numbers: dict[str, object] = {
            "dimension": int(dimension),
            "best": best.algorithm,
            "area": best.area,
        }
        if len(tied) == 1:
            text = (
                f"{where}, {label(best.algorithm)} has the largest area under the runtime "
                f"ECDF ({fixed(best.area, AREA_PLACES)}): it reaches targets soonest on average "
                "over budgets"
            )
        else:
            numbers["tied"] = tied
            text = (
                f"{where}, {join_words([label(a) for a in tied], limit=MAX_NAMED)} have the same "
                f"largest area under the runtime ECDF ({fixed(best.area, AREA_PLACES)}): by it, "
                "none of them reaches targets sooner on average over budgets"
            )
        if len(tied) < len(rows):
            second = by_area[len(tied)]
            text += f" (next: {label(second.algorithm)}, {fixed(second.area, AREA_PLACES)})"
            numbers["runner_up"] = second.algorithm
            numbers["runner_up_area"] = second.area
        text += "."
        most = sorted(rows, key=lambda s: (-s.solved, -s.area))[0]
        most_tied = [s.algorithm for s in rows if s.solved == most.solved]
        common = result.common_budget(dimension)
        if common is not None:
            leaders = common.leaders
            verb = "reaches" if len(leaders) == 1 else "reach"
            text += (
                f" At the common budget of {number(common.budget)}·D evaluations (the smallest "
                f"algorithm budget), {join_words([label(a) for a in leaders], limit=MAX_NAMED)} {verb} the most "
                f"(function, target) pairs ({ecdf_share(common.share)})."
                f" {label(most.algorithm)} reaches the most at the end of its own budget "
                f"({ecdf_share(most.solved)} within {number(most.max_budget)}·D), "
                f"but the budgets range from {number(common.budget)}·D to "
                f"{number(common.longest)}·D, so those shares are not "
                "comparable."
            )
            numbers["common_budget"] = common.budget
            numbers["most_at_common_budget"] = list(leaders)
            numbers["solved_at_common_budget"] = common.share
        elif len(most_tied) == 1:
            text += (
                f" {label(most.algorithm)} reaches the most (function, target) pairs: "
                f"{ecdf_share(most.solved)} within its budget of up to "
                f"{number(most.max_budget)}·D evaluations."
            )
        else:
            text += (
                f" {join_words([label(a) for a in most_tied], limit=MAX_NAMED)} reach the "
                f"same largest share of (function, target) pairs, {ecdf_share(most.solved)}, "
                f"within budgets of up to "
                f"{number(max(s.max_budget for s in rows if s.algorithm in most_tied))}·D "
                "evaluations."
            )
        numbers["most_reached"] = most.algorithm
        numbers["solved"] = most.solved
        numbers["max_budget"] = most.max_budget
        out.append(Finding(id=f"ecdf.D={int(dimension)}", text=text, numbers=numbers))
    return out
