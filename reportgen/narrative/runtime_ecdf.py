"""Sentences about runtime ECDFs: who reaches most (function, target) pairs per dimension."""

from __future__ import annotations

from reportgen.analyses.runtime_ecdf import RuntimeEcdfResult
from reportgen.present.findings import Finding
from reportgen.present.format import number, share
from reportgen.present.labels import Labels


def findings(result: RuntimeEcdfResult, labels: Labels) -> list[Finding]:
    """Per dimension: the largest final share, the runner-up, and the largest area."""
    out: list[Finding] = []
    for dimension in sorted(result.summary["dimension"].unique()):
        rows = result.summary[result.summary["dimension"] == dimension].sort_values(
            ["solved", "area"], ascending=False, kind="stable"
        )
        first = rows.iloc[0]
        where = f"In {int(dimension)}-D" if dimension else "Over all dimensions"
        text = (
            f"{where}, {labels.label(str(first['algorithm']))} reaches the most (function, target) pairs: "
            f"{share(float(first['solved']))} within its budget of up to "
            f"{number(float(first['max_budget']))}·D evaluations"
        )
        numbers: dict[str, object] = {
            "dimension": int(dimension),
            "best": str(first["algorithm"]),
            "solved": float(first["solved"]),
            "max_budget": float(first["max_budget"]),
        }
        if len(rows) > 1:
            second = rows.iloc[1]
            text += f" (next: {labels.label(str(second['algorithm']))}, {share(float(second['solved']))})"
            numbers["runner_up"] = str(second["algorithm"])
            numbers["runner_up_solved"] = float(second["solved"])
        text += "."
        fastest = rows.sort_values("area", ascending=False, kind="stable").iloc[0]
        if fastest["algorithm"] != first["algorithm"]:
            text += (
                f" {labels.label(str(fastest['algorithm']))} has the largest area under the ECDF "
                f"({number(float(fastest['area']), 2)}): it reaches targets sooner on average over budgets."
            )
            numbers["largest_area"] = str(fastest["algorithm"])
            numbers["area"] = float(fastest["area"])
        out.append(Finding(id=f"ecdf.D={int(dimension)}", text=text, numbers=numbers))
    return out
