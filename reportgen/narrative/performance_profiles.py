"""Sentences about profiles: who wins per τ, and which wins are significant per λ."""

from __future__ import annotations

from reportgen.analyses.performance_profiles import (
    INCONCLUSIVE,
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
        rows = ranking[ranking["tolerance"] == tau].sort_values("position")
        first = rows.iloc[0]
        others = rows.iloc[1:]
        winner = str(first["algorithm"])
        runner = ", ".join(
            f"{labels.label(str(r['algorithm']))} {share(float(r['solved']))}"
            for _, r in others.iterrows()
        )
        joint = rows[rows["rank"] == 1]
        if len(joint) > 1:
            # Equal on both criteria: study order is no reason to name one of them.
            names = join_words([labels.label(str(a)) for a in joint["algorithm"]])
            text = (
                f"At τ = {power_of_ten(tau)}, no algorithm wins on the mean profiles: {names} "
                f"tie (each solves {share(float(first['solved']))} of the problems, with equal "
                "areas under the performance profile)."
            )
        else:
            text = (
                f"At τ = {power_of_ten(tau)}, {labels.label(winner)} wins on the mean profiles: it solves "
                f"{share(float(first['solved']))} of the problems ({runner}) and is fastest on "
                f"{share(float(first['fastest']))} of them."
            )
        tied = others[(others["solved"] == first["solved"]) & (others["rank"] != 1)]
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
            unclear = [
                str(a) for a in verdicts.loc[verdicts["verdict"] == INCONCLUSIVE, "algorithm"]
            ]
            w = str(verdicts["winner"].iloc[0])
            power = result.power[
                (result.power["tolerance"] == tau) & (result.power["lambda"] == lam)
            ].iloc[0]
            at = f"At τ = {power_of_ten(tau)} and λ = {lam:g}"
            if len(joint) > 1:
                # Tied on the means: the reference is one of equals, not a winner.
                text = (
                    f"{at}, no algorithm leads on the mean profiles; against {labels.label(w)} "
                    "(the reference, first in study order) the confidence bounds find "
                    + (
                        f"{join_words([labels.label(a) for a in worse])} significantly worse"
                        if worse
                        else "no significant difference"
                    )
                    + (
                        f" and {join_words([labels.label(a) for a in same])} not significantly different"
                        if worse and same
                        else ""
                    )
                    + "."
                )
            else:
                text = f"{at}, {labels.label(w)} wins on the mean profiles"
                if worse:
                    text += f" and is significantly better than {join_words([labels.label(a) for a in worse])}"
                if same:
                    text += ("; its advantage over " if worse else ", but its advantage over ") + (
                        f"{join_words([labels.label(a) for a in same])} is not significant"
                    )
                text += "."
            if unclear:
                text += (
                    f" The comparison with {join_words([labels.label(a) for a in unclear])} is "
                    f"inconclusive: {labels.label(w)}'s upper-bound curve solves only "
                    f"{share(float(power['solved_upper']))} of the problems against "
                    f"{share(float(power['solved_mean']))} for its mean curve, because its bound "
                    f"half-width exceeds the tolerance band τ(f(x0) − f_L) on "
                    f"{share(float(power['wide_share']))} of the problems — more runs or a larger τ "
                    "are needed to tell them apart."
                )
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
                        "inconclusive": unclear,
                        "solved_upper": float(power["solved_upper"]),
                        "solved_mean": float(power["solved_mean"]),
                        "wide_share": float(power["wide_share"]),
                    },
                )
            )
    return out
