"""Sentences about runtime ECDFs per dimension: the largest area under the ECDF (the "best" the
figure titles and the summary name), and who reaches the most (function, target) pairs — at the
common budget when the budgets differ widely, since shares at unequal budgets do not compare."""

from __future__ import annotations

from reportgen.analyses.runtime_ecdf import BUDGET_RATIO_CAVEAT, RuntimeEcdfResult
from reportgen.present.findings import Finding, join_words
from reportgen.present.format import number, share
from reportgen.present.labels import Labels


def findings(result: RuntimeEcdfResult, labels: Labels) -> list[Finding]:
    """Per dimension: the largest area (the "best", as in the figure and the summary), the
    most pairs reached at the common budget, and the most reached at each one's own budget."""
    out: list[Finding] = []
    label = labels.label
    for dimension in sorted(result.summary["dimension"].unique()):
        rows = result.summary[result.summary["dimension"] == dimension]
        where = f"In {int(dimension)}-D" if dimension else "Over all dimensions"
        by_area = rows.sort_values(["area", "solved"], ascending=False, kind="stable")
        best = by_area.iloc[0]
        text = (
            f"{where}, {label(str(best['algorithm']))} has the largest area under the runtime "
            f"ECDF ({number(float(best['area']), 2)}): it reaches targets soonest on average "
            "over budgets"
        )
        numbers: dict[str, object] = {
            "dimension": int(dimension),
            "best": str(best["algorithm"]),
            "area": float(best["area"]),
        }
        if len(rows) > 1:
            second = by_area.iloc[1]
            text += (
                f" (next: {label(str(second['algorithm']))}, {number(float(second['area']), 2)})"
            )
            numbers["runner_up"] = str(second["algorithm"])
            numbers["runner_up_area"] = float(second["area"])
        text += "."
        most = rows.sort_values(["solved", "area"], ascending=False, kind="stable").iloc[0]
        common = float(rows["common_budget"].iloc[0])
        unequal = float(rows["max_budget"].max()) > BUDGET_RATIO_CAVEAT * common
        if unequal:
            top = float(rows["solved_at_common_budget"].max())
            leaders = [
                str(a)
                for a, v in zip(rows["algorithm"], rows["solved_at_common_budget"], strict=True)
                if v == top
            ]
            verb = "reaches" if len(leaders) == 1 else "reach"
            text += (
                f" At the common budget of {number(common)}·D evaluations (the smallest "
                f"algorithm budget), {join_words([label(a) for a in leaders])} {verb} the most "
                f"(function, target) pairs ({share(top)})."
                f" {label(str(most['algorithm']))} reaches the most at the end of its own budget "
                f"({share(float(most['solved']))} within {number(float(most['max_budget']))}·D), "
                f"but the budgets range from {number(common)}·D to "
                f"{number(float(rows['max_budget'].max()))}·D, so those shares are not "
                "comparable."
            )
            numbers["common_budget"] = common
            numbers["most_at_common_budget"] = leaders
            numbers["solved_at_common_budget"] = top
        else:
            text += (
                f" {label(str(most['algorithm']))} reaches the most (function, target) pairs: "
                f"{share(float(most['solved']))} within its budget of up to "
                f"{number(float(most['max_budget']))}·D evaluations."
            )
        numbers["most_reached"] = str(most["algorithm"])
        numbers["solved"] = float(most["solved"])
        numbers["max_budget"] = float(most["max_budget"])
        out.append(Finding(id=f"ecdf.D={int(dimension)}", text=text, numbers=numbers))
    return out
