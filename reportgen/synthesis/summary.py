"""The executive summary: verdict matrix and rule-generated findings across all analyses.

Every sentence is produced by a rule from the rankings and verdicts (never from adjectives in
a template) and carries, in its :class:`~reportgen.present.findings.Finding`, the numbers it
states and the rankings it rests on, so each can be checked against ``results.json``.

Rules, in order
---------------
1. Consensus — one algorithm first in every ranking.
2. Firsts — otherwise, each algorithm that some ranking puts first, with those rankings; a
   ranking whose first place is shared by more than two algorithms is one sentence of its own.
3. Significance — for each ranking with verdicts, whether the best algorithm's lead is
   significant over every other algorithm, and over which it is not.
4. Agreement — the most and least concordant pair of rankings (Kendall's τ-b) and the number of
   algorithm pairs whose order flips between some two rankings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from reportgen.present.findings import Finding, join_words
from reportgen.present.jsonable import frame_records
from reportgen.present.labels import Labels
from reportgen.synthesis.agreement import Agreement, agreement
from reportgen.synthesis.rankings import (
    BEST,
    NOT_SIGNIFICANT,
    WORSE,
    Ranking,
    rank_frame,
)


@dataclass(frozen=True)
class SynthesisResult:
    """Everything the executive summary shows."""

    algorithms: tuple[str, ...]
    rankings: tuple[Ranking, ...]
    ranks: pd.DataFrame  # algorithms × ranking ids
    agreement: Agreement
    findings: tuple[Finding, ...]

    def tables(self) -> dict[str, pd.DataFrame]:
        ranks = self.ranks.reset_index(names="algorithm")
        verdicts = pd.DataFrame(
            {
                r.id: [r.verdicts.get(a, "") for a in self.algorithms]
                for r in self.rankings
                if r.verdicts
            },
            index=list(self.algorithms),
        ).reset_index(names="algorithm")
        tau = self.agreement.tau.reset_index(names="ranking")
        return {
            "ranks": ranks,
            "verdicts": verdicts,
            "kendall_tau": tau,
            "flips": self.agreement.flips,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "rankings": [
                {
                    "id": r.id,
                    "analysis_id": r.analysis_id,
                    "label": r.label,
                    "ranks": r.ranks,
                    "verdicts": r.verdicts,
                    "source": r.source,
                }
                for r in self.rankings
            ],
            "kendall_tau": frame_records(self.agreement.tau.reset_index(names="ranking")),
            "flips": frame_records(self.agreement.flips),
            "findings": [f.to_json() for f in self.findings],
        }


def _names(algorithms: Sequence[str], labels: Labels) -> str:
    return join_words([labels.label(a) for a in algorithms])


def synthesise(
    rankings: Sequence[Ranking], algorithms: Sequence[str], labels: Labels
) -> SynthesisResult:
    """Compare every ranking the analyses produce and derive the executive findings.

    Parameters
    ----------
    rankings : sequence of Ranking
        Every analysis's rankings, in study order (each analysis kind's synthesis adapter,
        bound in :mod:`reportgen.registry`, produces them from its result).
    algorithms : sequence of str
        Study order.
    labels : Labels
        Display labels of algorithms.
    """
    rankings = list(rankings)
    ranks = rank_frame(rankings, list(algorithms))
    agree = agreement(rankings)
    findings = _findings(rankings, agree, labels)
    return SynthesisResult(tuple(algorithms), tuple(rankings), ranks, agree, tuple(findings))


def _findings(rankings: list[Ranking], agree: Agreement, labels: Labels) -> list[Finding]:
    out: list[Finding] = []
    if not rankings:
        return out
    ranking_label = {r.id: r.label for r in rankings}
    # Rule 1/2: who is first, and by which rankings.
    firsts: dict[str, list[str]] = {}
    # A ranking that ties every algorithm names no one first (rule 3 reports it); one whose
    # first place is shared by more than two algorithms gets a sentence of its own.
    shared = [r for r in rankings if r.separates and len(r.first) > 2]
    for r in (r for r in rankings if r.separates and len(r.first) <= 2):
        for algorithm in r.first:
            firsts.setdefault(algorithm, []).append(r.id)
    if not firsts:
        pass
    elif len(firsts) == 1 and len(next(iter(firsts.values()))) == len(rankings):
        (algorithm,) = firsts
        text = f"All {len(rankings)} rankings put {labels.label(algorithm)} first."
        if len(rankings) == 1:
            text = f"{labels.label(algorithm)} is first by the {rankings[0].label} ranking."
        out.append(
            Finding(
                "summary.consensus",
                text,
                {"algorithm": algorithm, "rankings": [r.id for r in rankings]},
            )
        )
    else:
        by_id = {r.id: r for r in rankings}
        for algorithm, ids in sorted(firsts.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            shown = [ranking_label[i] + (" (tied)" if len(by_id[i].first) > 1 else "") for i in ids]
            name = labels.label(algorithm)
            if len(ids) > 1:
                text = f"{name} is first by {len(ids)} of {len(rankings)} rankings: {join_words(shown)}."
            else:
                text = f"{name} is first by {join_words(shown)}."
            out.append(
                Finding(
                    f"summary.first.{algorithm}", text, {"algorithm": algorithm, "rankings": ids}
                )
            )
    for r in shared:
        out.append(
            Finding(
                f"summary.shared_first.{r.id}",
                f"{r.label} puts {len(r.first)} algorithms jointly first: {_names(r.first, labels)}.",
                {"ranking": r.id, "algorithms": r.first},
            )
        )
    # Rule 3: significance of the best algorithm's lead.
    for r in rankings:
        if not r.verdicts:
            continue
        best = [a for a, v in r.verdicts.items() if v == BEST]
        if not best:
            continue
        winner = best[0]
        worse = [a for a, v in r.verdicts.items() if v == WORSE]
        same = [a for a, v in r.verdicts.items() if v == NOT_SIGNIFICANT]
        head = f"By {r.significance}, {labels.label(winner)}"
        if worse and not same:
            text = f"{head} is significantly better than every other algorithm."
        elif not worse:
            text = f"{head} is best, but its lead over every other algorithm is not significant."
        else:
            text = (
                f"{head} is significantly better than {len(worse)} of {len(worse) + len(same)} algorithms; "
                f"its lead over {_names(same, labels)} is not significant."
            )
        out.append(
            Finding(
                f"summary.significance.{r.id}",
                text,
                {
                    "ranking": r.id,
                    "best": winner,
                    "significantly_worse": worse,
                    "not_significant": same,
                },
            )
        )
    # Rule 4: agreement between rankings.
    tau = agree.tau
    pairs = [
        (tau.index[i], tau.columns[j], float(tau.iat[i, j]))
        for i in range(len(tau))
        for j in range(i + 1, len(tau))
        if not math.isnan(float(tau.iat[i, j]))
    ]
    if pairs:
        most = max(pairs, key=lambda p: p[2])
        least = min(pairs, key=lambda p: p[2])
        if most == least:
            text = f"The two rankings agree with Kendall's τ = {most[2]:.2f}"
        else:
            text = (
                f"The rankings agree most between {ranking_label[most[0]]} and {ranking_label[most[1]]} "
                f"(Kendall's τ = {most[2]:.2f}) and least between {ranking_label[least[0]]} and "
                f"{ranking_label[least[1]]} (τ = {least[2]:.2f})"
            )
        flipped = (
            agree.flips[["algorithm_1", "algorithm_2"]]
            .apply(lambda row: tuple(sorted(row)), axis=1)
            .nunique()
            if len(agree.flips)
            else 0
        )
        text += f"; {flipped} pair{'s' if flipped != 1 else ''} of algorithms change order between some two rankings."
        out.append(
            Finding(
                "summary.agreement",
                text,
                {
                    "most": {"rankings": [most[0], most[1]], "tau": round(most[2], 2)},
                    "least": {"rankings": [least[0], least[1]], "tau": round(least[2], 2)},
                    "flipped_pairs": int(flipped),
                },
            )
        )
    return out
