"""The rankings each analysis produces, read from its result tables.

One adapter per analysis kind (bound to its kind in :mod:`reportgen.registry`) turns a result
into :class:`Ranking` objects: the rank of every
algorithm (1 = best; tied algorithms share the average rank) and, where the method has one, a
significance verdict per algorithm. Adapters only select and order what the result already
holds; they compute no statistic.

Decisions
---------
- Performance profiles contribute the mean-profile ranking at one tolerance — the τ closest to
  10⁻⁵ on a log scale (the level Liu et al. report, Remark 2) — and, with λ values, the §IV-E
  ranking with its verdicts at the λ closest to 2 (the paper's default) at that τ.
- Probabilistic profiles rank by the expected share solved at ``x_max``, then by ρ̄(1).
- U-scores contribute the overall total's ranks.
- Perspectives contribute one ranking per computed perspective (mean ranks over problems),
  with Holm's verdicts against the control.
- The runtime ECDF contributes the order of the areas under the algorithms' ECDFs (pooled over
  dimensions when pooled, else averaged over dimensions).
- Significance relations contribute each algorithm's rank layer at the smallest σ at which the
  relation is cycle-free (``auto``): layer 1 is the maximum set.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import pandas as pd
from scipy.stats import rankdata

from reportgen.analyses.performance_profiles import PerformanceProfilesResult
from reportgen.analyses.perspectives import PerspectivesResult
from reportgen.analyses.probabilistic_profiles import ProbabilisticProfilesResult
from reportgen.analyses.runtime_ecdf import RuntimeEcdfResult
from reportgen.analyses.significance_relation import SignificanceRelationResult
from reportgen.analyses.u_scores import UScoresResult
from reportgen.present.format import power_of_ten

BEST, WORSE, NOT_SIGNIFICANT = "best", "worse", "n.s."


@dataclass(frozen=True)
class Ranking:
    """One ranking of the algorithms by one method.

    Attributes
    ----------
    id : str
        Stable identifier, ``"<analysis id>:<what>"``.
    analysis_id : str
        The analysis it comes from.
    label : str
        Short column label for the verdict matrix.
    ranks : dict
        Algorithm → rank (1 = best; tied algorithms share the best rank of their group, as in
        "1, 2, 2, 4").
    verdicts : dict
        Algorithm → ``"best"`` / ``"worse"`` / ``"n.s."`` where the method tests significance
        against its best algorithm; empty otherwise.
    source : str
        Where in ``results.json`` the ranks come from.
    significance : str
        How the verdicts were reached (for sentences), e.g. ``"confidence bounds, λ = 2"``.
    """

    id: str
    analysis_id: str
    label: str
    ranks: dict[str, float]
    verdicts: dict[str, str] = field(default_factory=dict)
    source: str = ""
    significance: str = ""

    @property
    def first(self) -> list[str]:
        """The algorithm(s) ranked first."""
        best = min(self.ranks.values())
        return [a for a, r in self.ranks.items() if r == best]

    @property
    def separates(self) -> bool:
        """Whether the ranking orders anything (not every algorithm tied)."""
        return len(set(self.ranks.values())) > 1


def _ranks(order: dict[str, float], higher_is_better: bool = False) -> dict[str, float]:
    """Ranks (1 = best; ties share the best rank of their group) of a score per algorithm."""
    names = list(order)
    scores = [-order[n] if higher_is_better else order[n] for n in names]
    return {n: float(r) for n, r in zip(names, rankdata(scores, method="min"), strict=True)}


def _closest(values: list[float], target: float, log: bool) -> float:
    key = (
        (lambda v: abs(math.log10(v) - math.log10(target))) if log else (lambda v: abs(v - target))
    )
    return min(values, key=key)


def performance_profiles(analysis_id: str, result: PerformanceProfilesResult) -> list[Ranking]:
    tau = _closest(list(result.tolerances), 1e-5, log=True)
    rows = result.mean_ranking[result.mean_ranking["tolerance"] == tau]
    out = [
        Ranking(
            id=f"{analysis_id}:mean_profiles",
            analysis_id=analysis_id,
            label=f"mean profiles τ={power_of_ten(tau)}",
            ranks={str(a): float(r) for a, r in zip(rows["algorithm"], rows["rank"], strict=True)},
            source=f"analyses.{analysis_id}.result.mean_ranking[tolerance={tau:g}]",
        )
    ]
    if result.lambdas:
        lam = _closest(list(result.lambdas), 2.0, log=False)
        kind = result.profile_kinds[0]
        ranking = result.ranking[
            (result.ranking["profile"] == kind)
            & (result.ranking["tolerance"] == tau)
            & (result.ranking["lambda"] == lam)
        ]
        group_rank = {
            str(a): int(r) for a, r in zip(ranking["algorithm"], ranking["rank"], strict=True)
        }
        verdict_rows = result.verdicts[
            (result.verdicts["profile"] == kind)
            & (result.verdicts["tolerance"] == tau)
            & (result.verdicts["lambda"] == lam)
        ]
        verdicts = {str(verdict_rows["winner"].iloc[0]): BEST} if len(verdict_rows) else {}
        for algorithm, verdict in zip(
            verdict_rows["algorithm"], verdict_rows["verdict"], strict=True
        ):
            verdicts[str(algorithm)] = (
                WORSE if verdict == "significantly worse" else NOT_SIGNIFICANT
            )
        out.append(
            Ranking(
                id=f"{analysis_id}:confidence_profiles",
                analysis_id=analysis_id,
                label=f"CI profiles τ={power_of_ten(tau)} λ={lam:g}",
                ranks=_ranks({a: float(r) for a, r in group_rank.items()}),
                verdicts=verdicts,
                source=f"analyses.{analysis_id}.result.ranking[profile={kind},tolerance={tau:g},lambda={lam:g}]",
                significance=f"confidence-bound profiles, τ = {power_of_ten(tau)}, λ = {lam:g}",
            )
        )
    return out


def probabilistic_profiles(analysis_id: str, result: ProbabilisticProfilesResult) -> list[Ranking]:
    summary = result.tables()["summary"]
    # Order by expected share solved at x_max, then by expected share of wins ρ̄(1).
    score = {
        str(a): (float(s), float(w))
        for a, s, w in zip(
            summary["algorithm"], summary["solved_bar"], summary["rho_bar_1"], strict=True
        )
    }
    ordered = sorted(score, key=lambda a: (-score[a][0], -score[a][1]))
    ranks: dict[str, float] = {}
    position = 1
    for i, a in enumerate(ordered):
        if i and score[a] != score[ordered[i - 1]]:
            position = i + 1
        ranks[a] = float(position)
    tied = _ranks({a: ranks[a] for a in ordered})
    return [
        Ranking(
            id=f"{analysis_id}:expected_profile",
            analysis_id=analysis_id,
            label="probabilistic profile ρ̄",
            ranks=tied,
            source=f"analyses.{analysis_id}.result.summary (solved_bar, rho_bar_1)",
        )
    ]


def u_scores(analysis_id: str, result: UScoresResult) -> list[Ranking]:
    totals = result.tables()["totals"]
    return [
        Ranking(
            id=f"{analysis_id}:total",
            analysis_id=analysis_id,
            label="U-score total",
            ranks=_ranks(
                {
                    str(a): float(t)
                    for a, t in zip(totals["algorithm"], totals["total"], strict=True)
                },
                higher_is_better=True,
            ),
            source=f"analyses.{analysis_id}.result.totals (total)",
        )
    ]


def perspectives(analysis_id: str, result: PerspectivesResult) -> list[Ranking]:
    tables = result.tables()
    mean_ranks = tables["mean_ranks"]
    holm = tables["holm"]
    out = []
    for perspective, rows in mean_ranks.groupby("perspective", sort=False):
        tests = holm[holm["perspective"] == perspective]
        verdicts: dict[str, str] = {}
        if len(tests):
            verdicts[str(tests["control"].iloc[0])] = BEST
            for algorithm, rejected in zip(tests["algorithm"], tests["rejected"], strict=True):
                verdicts[str(algorithm)] = WORSE if bool(rejected) else NOT_SIGNIFICANT
        out.append(
            Ranking(
                id=f"{analysis_id}:{perspective}",
                analysis_id=analysis_id,
                label=str(perspective),
                ranks=_ranks(
                    {
                        str(a): float(r)
                        for a, r in zip(rows["algorithm"], rows["mean_rank"], strict=True)
                    }
                ),
                verdicts=verdicts,
                source=f"analyses.{analysis_id}.result.mean_ranks[perspective={perspective}]",
                significance=f"{perspective} (Friedman test, Holm's procedure)" if verdicts else "",
            )
        )
    return out


def significance_relation(analysis_id: str, result: SignificanceRelationResult) -> list[Ranking]:
    auto = result.auto
    layers = {a: float(auto.layer_of(a)) for a in result.algorithms}
    return [
        Ranking(
            id=f"{analysis_id}:layers",
            analysis_id=analysis_id,
            label=f"relation layers σ={auto.sigma:g}",
            ranks=_ranks(layers),
            source=f"analyses.{analysis_id}.result (layers at sigma_auto = {auto.sigma:g})",
        )
    ]


def runtime_ecdf(analysis_id: str, result: RuntimeEcdfResult) -> list[Ranking]:
    summary = result.summary
    pooled = summary[summary["dimension"] == 0] if (summary["dimension"] == 0).any() else summary
    # The area under the runtime ECDF (COCO's aggregate): larger is better.
    area = pooled.groupby("algorithm", sort=False)["area"].mean()
    return [
        Ranking(
            id=f"{analysis_id}:ecdf_area",
            analysis_id=analysis_id,
            label="runtime ECDF area",
            ranks=_ranks({str(a): float(v) for a, v in area.items()}, higher_is_better=True),
            source=f"analyses.{analysis_id}.result.summary (area)",
        )
    ]


def named(rankings: list[Ranking], kind: str, analysis_id: str) -> list[Ranking]:
    """``rankings`` of one analysis, labelled with its id where the study names it otherwise."""
    if analysis_id == kind:
        return rankings
    # Two analyses of one kind: say which one a column is.
    return [dataclasses.replace(r, label=f"{r.label} [{analysis_id}]") for r in rankings]


def rank_frame(rankings: list[Ranking], algorithms: list[str]) -> pd.DataFrame:
    """Algorithms × rankings table of ranks (NaN where a ranking lacks the algorithm)."""
    return pd.DataFrame(
        {r.id: [r.ranks.get(a, math.nan) for a in algorithms] for r in rankings}, index=algorithms
    )
