"""Sentences about profiles: who wins per τ, and which wins are significant per λ."""

from __future__ import annotations

from reportgen.analyses.performance_profiles import (
    TIED_SHARE,
    WIDE_BOUNDS,
    PerformanceProfilesResult,
)
from reportgen.present.findings import MAX_NAMED, Finding, join_words
from reportgen.present.format import power_of_ten, share
from reportgen.present.labels import Labels


def findings(result: PerformanceProfilesResult, labels: Labels) -> list[Finding]:
    """Rule-generated findings, each with the numbers it states."""
    out: list[Finding] = []
    for tau in result.tolerances:
        first, *others = result.mean_order(tau)
        winner = first.algorithm
        runner = ", ".join(f"{labels.label(p.algorithm)} {share(p.solved)}" for p in others)
        joint = result.mean_winners(tau)
        if len(joint) > 1:
            # Equal on both criteria: study order is no reason to name one of them.
            names = join_words([labels.label(a) for a in joint], limit=MAX_NAMED)
            text = (
                f"At τ = {power_of_ten(tau)}, no algorithm wins on the mean-curve profiles: {names} "
                f"tie (each solves {share(first.solved)} of the problems, with equal "
                "areas under the performance profile)."
            )
        else:
            text = (
                f"At τ = {power_of_ten(tau)}, {labels.label(winner)} wins on the mean-curve profiles: it solves "
                f"{share(first.solved)} of the problems ({runner}) and is fastest on "
                f"{share(first.fastest)} of them."
            )
        tied = [p.algorithm for p in others if p.solved == first.solved and p.rank != 1]
        if tied:
            text += (
                f" {join_words([labels.label(a) for a in tied], limit=MAX_NAMED)} solve"
                f"{'s' if len(tied) == 1 else ''} as many; the tie is broken by the area under the performance profile."
            )
        out.append(
            Finding(
                id=f"mean_winner.tau={tau:g}",
                text=text,
                numbers={
                    "tolerance": tau,
                    "winner": winner,
                    "solved": first.solved,
                    "fastest": first.fastest,
                },
            )
        )
        for lam in result.lambdas:
            confirmation = result.confirmation(result.profile_kinds[0], tau, lam)
            if confirmation is None:
                continue
            worse = confirmation.significantly_worse
            same = confirmation.not_significant
            unclear = confirmation.inconclusive_because(WIDE_BOUNDS)
            untested = confirmation.inconclusive_because(TIED_SHARE)
            w = confirmation.winner
            power = confirmation.power
            assert power is not None  # every tested round records its power
            at = f"At τ = {power_of_ten(tau)} and λ = {lam:g}"
            if len(joint) > 1:
                # Tied on the means: the reference is one of equals, not a winner.
                found = [
                    *(
                        [
                            f"{join_words([labels.label(a) for a in worse], limit=MAX_NAMED)} significantly worse"
                        ]
                        if worse
                        else []
                    ),
                    *(
                        [
                            f"{join_words([labels.label(a) for a in same], limit=MAX_NAMED)} not significantly different"
                        ]
                        if same
                        else []
                    ),
                ]
                text = (
                    f"{at}, no algorithm leads on the mean-curve profiles; against {labels.label(w)} "
                    "(the reference, first in study order) the confidence bounds find "
                    + (" and ".join(found) if found else "no algorithm significantly worse")
                    + "."
                )
            else:
                text = f"{at}, {labels.label(w)} wins on the mean-curve profiles"
                if worse:
                    text += f" and is significantly better than {join_words([labels.label(a) for a in worse], limit=MAX_NAMED)}"
                if same:
                    text += ("; its advantage over " if worse else ", but its advantage over ") + (
                        f"{join_words([labels.label(a) for a in same], limit=MAX_NAMED)} is not significant"
                    )
                text += "."
            if untested:
                names = join_words([labels.label(a) for a in untested], limit=MAX_NAMED)
                text += (
                    f" The comparison with {names} is inconclusive: "
                    f"{'it solves' if len(untested) == 1 else 'they solve'} as many problems as "
                    f"{labels.label(w)} on the mean-curve profiles, and the test compares only the "
                    "shares of problems solved"
                    + (
                        "."
                        if len(joint) > 1
                        else f", not the speed by which {labels.label(w)} leads."
                    )
                )
            if unclear:
                text += (
                    f" The comparison with {join_words([labels.label(a) for a in unclear], limit=MAX_NAMED)} is "
                    f"inconclusive: {labels.label(w)}'s upper-bound curve solves only "
                    f"{share(power.solved_upper)} of the problems against "
                    f"{share(power.solved_mean)} for its mean curve, because its bound "
                    f"half-width exceeds the tolerance band τ(f(x0) − f_L) on "
                    f"{share(power.wide_share)} of the problems — more runs or a larger τ "
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
                        "inconclusive": unclear + untested,
                        "inconclusive_tied_share": untested,
                        "solved_upper": power.solved_upper,
                        "solved_mean": power.solved_mean,
                        "wide_share": power.wide_share,
                    },
                )
            )
    return out
