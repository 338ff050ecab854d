"""Sentences about profiles: who wins per τ, and which wins are significant per λ."""

from __future__ import annotations

from reportgen.analyses.performance_profiles import (
    NO_SIGNIFICANT_DIFFERENCE,
    SIGNIFICANTLY_WORSE,
    PerformanceProfilesResult,
)
from reportgen.present.findings import Finding, join_words
from reportgen.present.format import power_of_ten, share
from reportgen.present.labels import Labels


def findings(result: PerformanceProfilesResult, labels: Labels) -> list[Finding]:
    """Rule-generated findings, each with the numbers it states."""
    out: list[Finding] = []
    ranking = result.mean_ranking
    for tau in result.tolerances:
        rows = ranking[ranking["tolerance"] == tau].sort_values("rank")
        first = rows.iloc[0]
        others = rows.iloc[1:]
        winner = str(first["algorithm"])
        runner = ", ".join(
            f"{labels.label(str(r['algorithm']))} {share(float(r['solved']))}"
            for _, r in others.iterrows()
        )
        text = (
            f"At τ = {power_of_ten(tau)}, {labels.label(winner)} wins on the mean profiles: it solves "
            f"{share(float(first['solved']))} of the problems ({runner}) and is fastest on "
            f"{share(float(first['fastest']))} of them."
        )
        tied = others[(others["solved"] == first["solved"])]
        if len(tied):
            text += (
                f" {join_words([labels.label(str(a)) for a in tied['algorithm']])} solve"
                f"{'s' if len(tied) == 1 else ''} as many; the tie is broken by the area under the performance profile."
            )
        out.append(
            Finding(
                id=f"mean_winner.tau={tau:g}",
                text=text,
                numbers={
                    "tolerance": tau,
                    "winner": winner,
                    "solved": float(first["solved"]),
                    "fastest": float(first["fastest"]),
                },
            )
        )
        for lam in result.lambdas:
            verdicts = result.verdicts[
                (result.verdicts["tolerance"] == tau)
                & (result.verdicts["lambda"] == lam)
                & (result.verdicts["profile"] == result.profile_kinds[0])
            ]
            if verdicts.empty:
                continue
            worse = [
                str(a)
                for a in verdicts.loc[verdicts["verdict"] == SIGNIFICANTLY_WORSE, "algorithm"]
            ]
            same = [
                str(a)
                for a in verdicts.loc[verdicts["verdict"] == NO_SIGNIFICANT_DIFFERENCE, "algorithm"]
            ]
            w = str(verdicts["winner"].iloc[0])
            text = f"At τ = {power_of_ten(tau)} and λ = {lam:g}, {labels.label(w)} wins on the mean profiles"
            if worse:
                text += f" and is significantly better than {join_words([labels.label(a) for a in worse])}"
            if same:
                text += ("; its advantage over " if worse else ", but its advantage over ") + (
                    f"{join_words([labels.label(a) for a in same])} is not significant"
                )
            text += "."
            out.append(
                Finding(
                    id=f"verdict.tau={tau:g}.lambda={lam:g}",
                    text=text,
                    numbers={
                        "tolerance": tau,
                        "lambda": lam,
                        "winner": w,
                        "significantly_worse": worse,
                        "no_significant_difference": same,
                    },
                )
            )
    return out
