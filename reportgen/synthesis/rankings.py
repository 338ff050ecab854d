"""The rankings each analysis produces, read from its result tables.

One adapter per analysis kind (bound to its kind in :mod:`reportgen.registry`) turns a result
into :class:`Ranking` objects: the rank of every
algorithm (1 = best; tied algorithms share the best rank of their group), where the method has
one a significance verdict per algorithm, the method *family* it belongs to, whether it can be
counted as evidence, and — where the ranking is an aggregate over problems — the per-problem
scores it aggregates (for the bootstrap of :mod:`reportgen.synthesis.uncertainty`). Adapters
only select and order what the result already holds; they compute no statistic.

Decisions
---------
- Families (rankings of one family are not independent votes): *profiles* (performance
  profiles, probabilistic profiles, runtime ECDFs — all built on the convergence data);
  *U-scores* (every U-score analysis); *final values* (the Friedman mean ranks of the
  perspectives and the award points of significance relations: both aggregate the same
  per-problem means or medians of the final values, see :data:`FAMILY_OF_KIND`).
- Performance profiles contribute one ranking at the τ closest to 10⁻⁵ on a log scale (the
  level Liu et al. report, Remark 2): the order of the mean profiles (equal fraction solved and
  mean 1/r tie). With λ values, the confirmation at the λ closest to 2 (the paper's default)
  annotates it: "best" for the winner, "worse", "n.s." or "inconclusive" for the others. An
  algorithm never moves up by having wider bounds: the verdicts never change the order. When
  the confirmation has no power (the winner's upper-bound curve solves fewer than half the
  problems its mean curve solves) the ranking is *inconclusive*: shown, not counted. With
  fewer than 30 runs on some problem (Liu et al.'s Remark 4) the summary's first sentence
  that states its verdicts ends with a pointer to that caveat (``verdict_pointer``; the order
  itself is the mean profiles', which need no bounds). The caveat is stated in full once, in
  the report's caveat list (the analysis's ``few_runs`` caveat, raised on the same
  condition), and kept whole in the sentence's numbers (``results.json``): the quickstart
  said it three times over in one summary.
- Where the mean-curve profiles put another algorithm first at another of the analysis's
  tolerances, the ranking's caveat says so (Liu et al. report τ = 10⁻⁵ alone because it agreed
  with 10⁻⁷ on their data; on cec2022 S-DP is first at 10⁻⁵ and EA4 at the other three, and
  "S-DP is first by the profiles" unscoped read as the profiles' verdict).
- Probabilistic profiles rank by the expected share solved at ``x_max``, then by ρ̄(1); each
  problem's terms of the two means are its scores.
- U-scores contribute the overall total's ranks; the per-problem U-scores are its scores.
- Perspectives contribute one ranking per computed perspective (mean ranks over problems),
  with Holm's verdicts against the control; the per-problem ranks are its scores. Where Holm
  cannot reject whatever the data (too few problems for the number of algorithms:
  ``PerspectiveComparison.holm_has_power``) the verdicts are "inconclusive" and the ranking is
  *inconclusive*, not counted — its "n.s." would be no test, as with profiles without power.
- The runtime ECDF contributes the order of the areas under the algorithms' ECDFs (pooled over
  dimensions when pooled, else averaged over dimensions); each problem's share of the area
  (``RuntimeEcdfResult.area_scores``) is its score.
- Significance relations contribute each algorithm's rank layer at the smallest σ at which the
  relation is cycle-free (``auto``): layer 1 is the maximum set. Award points rank each
  problem's ratio among all problems, so the layers are not a mean of per-problem scores:
  their bootstrap recomputes award points, ``auto`` and the layers on each resample of the
  problems (:func:`~reportgen.analyses.significance_relation.bootstrap_layers`), up to
  :data:`MAX_LAYER_BOOTSTRAP` algorithms: its cost grows with the square of their number
  (every pair's award points per resample: at the default 2 000 resamples and 3 problems of
  3 runs, 2.8 s of CPU for 100 algorithms, 15 s for 200, some 200 s for 500; it also grows
  with the problems, 20 s for 100 algorithms on 24), so beyond it the layers are shown
  without one and the report says so under the uncertainty table.
- A ranking in which every algorithm ties is *degenerate*: shown, not counted, and no finding
  names a best algorithm by it.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from reportgen.analyses.performance_profiles import MIN_RUNS, PerformanceProfilesResult
from reportgen.analyses.perspectives import (
    PERSPECTIVE_NAMES,
    WALL_CLOCK,
    PerspectivesResult,
    run_resampled_ranks,
)
from reportgen.analyses.probabilistic_profiles import ProbabilisticProfilesResult
from reportgen.analyses.runtime_ecdf import RuntimeEcdfResult, run_resampled_area_scores
from reportgen.analyses.significance_relation import SignificanceRelationResult, bootstrap_layers
from reportgen.analyses.u_scores import UScoresResult, run_resampled_u_scores
from reportgen.errors import shorten
from reportgen.present.caveats import Naming
from reportgen.present.findings import join_words
from reportgen.present.format import (
    ecdf_share,
    format_p,
    number,
    points_text,
    power_of_ten,
    share,
)

BEST, WORSE, NOT_SIGNIFICANT, INCONCLUSIVE = "best", "worse", "n.s.", "inconclusive"
MAX_LAYER_BOOTSTRAP = 100
"""Most algorithms whose award-point layers are bootstrapped (see the module docstring)."""
COUNTED, INCONCLUSIVE_RANKING, DEGENERATE = "counted", "inconclusive", "degenerate"

PROFILES = "profiles"
U_SCORES = "U-scores"
FINAL_VALUES = "final values"
FAMILY_OF_KIND = {
    "performance_profiles": PROFILES,
    "probabilistic_profiles": PROFILES,
    "runtime_ecdf": PROFILES,
    "u_scores": U_SCORES,
    "perspectives": FINAL_VALUES,
    "significance_relation": FINAL_VALUES,
}
"""Method family of each ranking-producing analysis kind (see the module docstring). The
perspectives' Friedman ranks and a significance relation's award points are one family: both
aggregate the same per-problem statistics of the runs' final values (means, medians), only
differently, so they agree by construction far more than two methods on different
information do (Kendall's τ = 0.94 between them in the cec2022 example); counted as two
families, one piece of evidence was two votes."""


@dataclass(frozen=True)
class Scores:
    """Per-problem scores whose mean over problems orders a ranking (for the bootstrap).

    Attributes
    ----------
    values : numpy.ndarray
        ``[problems, algorithms]``.
    algorithms : tuple of str
        The columns.
    higher_is_better : bool
        Whether a larger mean ranks first.
    """

    values: np.ndarray
    algorithms: tuple[str, ...]
    higher_is_better: bool
    groups: tuple[str, ...] = ()
    """Per problem row, its dimension group (``"D=10"``) when the problems span several
    dimensions; empty otherwise."""
    tiebreak: np.ndarray | None = None
    """A second per-problem score (same shape and direction) whose mean orders algorithms whose
    means of ``values`` tie (the probabilistic profile: solved within x_max, then wins)."""
    resample_runs: Callable[[np.ndarray, np.random.Generator], np.ndarray] | None = None
    """Where the analysis keeps the runs behind each score: ``resample_runs(slots, rng)``
    recomputes the per-problem scores of the problem rows ``slots`` (``[B, n]`` row indices,
    a problem drawn twice appearing twice) each from its own resample of the runs, giving
    ``[B, n, algorithms]`` (:mod:`reportgen.synthesis.uncertainty`)."""


def _dimension_groups(index: pd.Index) -> tuple[str, ...]:
    """``D=<d>`` per row of a (problem, dimension) index spanning several dimensions."""
    if "dimension" not in (index.names or []):
        return ()
    dims = index.get_level_values("dimension")
    if len(set(dims)) < 2:
        return ()
    return tuple(f"D={int(d)}" for d in dims)


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
    family : str
        The method family (:data:`FAMILY_OF_KIND`).
    status : str
        ``"counted"``, ``"inconclusive"`` (its test cannot separate the algorithms) or
        ``"degenerate"`` (every algorithm ties); only counted rankings enter agreement
        statistics and the count of first places.
    note : str
        Why the ranking is not counted, with the numbers that caused it.
    caveat : str
        A sentence every summary sentence that ranks by this ranking ends with (wall-clock
        efficiency: time depends on hardware, language and stopping rule; the runtime-ECDF
        area at unequal budgets: who leads at the common budget); empty for most. Algorithms
        it names are placeholders of :class:`~reportgen.present.caveats.Naming`.
    caveat_algorithms : tuple of str
        The algorithms the placeholders of ``caveat`` name, by position.
    scores : Scores or None
        The per-problem scores it aggregates, where it is such an aggregate.
    bootstrap : callable or None
        Where the ranking is not a mean of per-problem scores: ``bootstrap(rng, B)`` gives its
        ranks (1 = best, ties share the best rank) recomputed on ``B`` resamples of the
        problems, ``[B, algorithms]`` with the algorithms in the order of ``ranks``; with
        ``bootstrap_runs``, ``bootstrap(rng, B, runs)`` also redraws each drawn problem's runs
        with the generator ``runs``.
    bootstrap_runs : bool
        Whether ``bootstrap`` redraws the runs too.
    """

    id: str
    analysis_id: str
    label: str
    ranks: dict[str, float]
    verdicts: dict[str, str] = field(default_factory=dict)
    source: str = ""
    significance: str = ""
    family: str = ""
    status: str = COUNTED
    note: str = ""
    scores: Scores | None = None
    caveat: str = ""
    caveat_algorithms: tuple[str, ...] = ()
    verdict_caveat: str = ""
    """Why this ranking's *verdicts* are to be doubted (confidence bounds on fewer runs than
    the method requires), in full; empty for most."""
    verdict_pointer: str = ""
    """The short sentence the summary states instead of :attr:`verdict_caveat`, which the
    report's caveat list holds in full; empty when the caveat is."""
    bootstrap: Callable[..., np.ndarray] | None = None
    bootstrap_runs: bool = False

    @property
    def counted(self) -> bool:
        """Whether the ranking counts as evidence (neither inconclusive nor degenerate)."""
        return self.status == COUNTED

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


def _profile_scores(result: PerformanceProfilesResult, tau: float) -> Scores:
    """Per problem: ``(n_p + 1)·[t finite] + 1/r``, whose mean orders algorithms exactly as
    (fraction solved, mean 1/r) do — the mean-profile order (Σ 1/r ≤ n_p never outweighs one
    more problem solved)."""
    algorithms = tuple(str(a) for a in result.algorithms)
    matrix = result.mean_times(tau)
    values = matrix[list(algorithms)].to_numpy(dtype=float)
    finite = np.isfinite(values)
    best = np.where(finite, values, np.inf).min(axis=1, keepdims=True)
    inverse = np.where(finite, best / np.where(finite, values, 1.0), 0.0)
    return Scores(
        finite * (len(values) + 1.0) + inverse,
        algorithms,
        higher_is_better=True,
        groups=_dimension_groups(matrix.index),
    )


def performance_profiles(analysis_id: str, result: PerformanceProfilesResult) -> list[Ranking]:
    tau = _closest(list(result.tolerances), 1e-5, log=True)
    ranks = {p.algorithm: float(p.rank) for p in result.mean_order(tau)}
    label = f"mean-curve profiles τ = {power_of_ten(tau)}"
    source = f"analyses.{analysis_id}.result.mean_ranking[tolerance={tau:g}]"
    verdicts: dict[str, str] = {}
    significance = status = note = ""
    if result.lambdas:
        lam = _closest(list(result.lambdas), 2.0, log=False)
        kind = result.profile_kinds[0]
        confirmation = result.confirmation(kind, tau, lam)
        mark = {
            "significantly worse": WORSE,
            "no significant difference": NOT_SIGNIFICANT,
            "inconclusive": INCONCLUSIVE,
        }
        if confirmation is not None:
            verdicts[confirmation.winner] = BEST
            for algorithm, verdict in confirmation.verdicts.items():
                verdicts[algorithm] = mark[verdict]
        label = f"profiles τ = {power_of_ten(tau)}, λ = {lam:g}"
        source += f"; verdicts[profile={kind},tolerance={tau:g},lambda={lam:g}]"
        significance = f"confidence-bound profiles, τ = {power_of_ten(tau)}, λ = {lam:g}"
        power = result.power_at(tau, lam)
        if power is not None and not power.conclusive:
            status = INCONCLUSIVE_RANKING
            note = (
                f"the winner's upper-bound curve solves {share(power.solved_upper)} of "
                f"the problems against {share(power.solved_mean)} for its mean curve; "
                f"its half-width λS/√n exceeds the tolerance band on "
                f"{share(power.wide_share)} of them"
            )
    caveat = pointer = ""
    fewest = int(result.runs["n_runs"].min()) if len(result.runs) else MIN_RUNS
    if result.lambdas and fewest < MIN_RUNS:
        # Liu et al.'s Remark 4: the bounds need n_r ≥ 30; the summary must not state their
        # verdicts without it.
        caveat = (
            f"The confidence bounds rest on as few as {fewest} runs per algorithm and problem, "
            f"fewer than the {MIN_RUNS} Liu et al. require (Remark 4), so their verdicts are "
            "indicative only."
        )
        # The analysis raises its few_runs caveat on the same condition, so "see Caveats"
        # always finds it there.
        pointer = (
            f"The confidence-bound verdicts are indicative only (as few as {fewest} runs, "
            "Remark 4: see Caveats)."
        )
    other_caveat, other_named = _other_tolerances_caveat(result, tau)
    return [
        Ranking(
            id=f"{analysis_id}:profiles",
            analysis_id=analysis_id,
            label=label,
            ranks=ranks,
            verdicts=verdicts,
            source=source,
            significance=significance,
            status=status or COUNTED,
            note=note,
            scores=_profile_scores(result, tau),
            verdict_caveat=caveat,
            verdict_pointer=pointer,
            caveat=other_caveat,
            caveat_algorithms=other_named,
        )
    ]


def _other_tolerances_caveat(
    result: PerformanceProfilesResult, tau: float
) -> tuple[str, tuple[str, ...]]:
    """Which algorithms the mean-curve profiles put first at the analysis's other tolerances,
    where that is not the first place at ``tau`` (the one the summary ranks by); a sentence
    with placeholders and the algorithms they name, or ``("", ())`` where every tolerance
    agrees."""
    first = {p.algorithm for p in result.mean_order(tau) if p.rank == 1}
    by_first: dict[tuple[str, ...], list[float]] = {}
    for other in result.tolerances:
        winners = tuple(p.algorithm for p in result.mean_order(other) if p.rank == 1)
        if other != tau and winners and set(winners) != first:
            by_first.setdefault(winners, []).append(other)
    if not by_first:
        return "", ()
    named = Naming()
    parts = [
        f"{join_words([named(a) for a in winners])} "
        f"{'is' if len(winners) == 1 else 'are jointly'} first at τ = "
        f"{join_words([power_of_ten(t) for t in levels])}"
        for winners, levels in by_first.items()
    ]
    return (
        f"The profiles rank at τ = {power_of_ten(tau)}, the level Liu et al. report (Remark 2); "
        f"by the mean-curve profiles {'; '.join(parts)}."
    ), named.names


def probabilistic_profiles(analysis_id: str, result: ProbabilisticProfilesResult) -> list[Ranking]:
    # Order by expected share solved at x_max, then by expected share of wins ρ̄(1).
    score = {s.algorithm: (s.solved_bar, s.rho_bar_1) for s in result.summary}
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
            scores=_expected_profile_scores(result),
        )
    ]


def _expected_profile_scores(result: ProbabilisticProfilesResult) -> Scores | None:
    """Per problem: its term of ρ̄ at x_max (ties broken by its term at 1)."""
    if result.by_problem is None or not len(result.by_problem):
        return None
    at_x_max = _matrix_scores(result.problem_terms("at_x_max"), higher_is_better=True)
    at_1 = _matrix_scores(result.problem_terms("at_1"), higher_is_better=True)
    return dataclasses.replace(at_x_max, tiebreak=at_1.values)


def u_scores(analysis_id: str, result: UScoresResult) -> list[Ranking]:
    return [
        Ranking(
            id=f"{analysis_id}:total",
            analysis_id=analysis_id,
            label="U-score total",
            ranks=_ranks({s.algorithm: s.total for s in result.standings()}, higher_is_better=True),
            source=f"analyses.{analysis_id}.result.totals (total)",
            scores=_matrix_scores(
                result.u_score_matrix(),
                higher_is_better=True,
                runs=functools.partial(_u_score_runs, result)
                if result.trial_codes is not None
                else None,
            ),
        )
    ]


def _matrix_scores(
    matrix: pd.DataFrame,
    higher_is_better: bool,
    runs: Callable[[tuple[object, ...], np.ndarray, np.random.Generator], np.ndarray] | None = None,
) -> Scores:
    """Scores of a problems × algorithms table of one per-problem value; ``runs(problems,
    slots, rng)``, where the analysis resamples runs, is bound to the rows' problem keys as
    ``resample_runs``."""
    return Scores(
        matrix.to_numpy(dtype=float),
        tuple(str(a) for a in matrix.columns),
        higher_is_better,
        groups=_dimension_groups(matrix.index),
        resample_runs=functools.partial(runs, tuple(matrix.index)) if runs is not None else None,
    )


def perspectives(analysis_id: str, result: PerspectivesResult) -> list[Ranking]:
    out = []
    for comparison in result.comparisons:
        perspective = comparison.perspective
        verdicts: dict[str, str] = {}
        status, note = COUNTED, ""
        if comparison.holm:
            verdicts[comparison.control] = BEST
            for row in comparison.holm:
                verdicts[row.algorithm] = WORSE if row.rejected else NOT_SIGNIFICANT
            if not comparison.holm_has_power:
                # No data could give a rejection: "n.s." would read as a tested tie.
                k = comparison.n_algorithms
                verdicts.update({row.algorithm: INCONCLUSIVE for row in comparison.holm})
                status = INCONCLUSIVE_RANKING
                note = (
                    f"with {comparison.n_problems} problems and {k} algorithms Holm's procedure "
                    f"cannot reject at α = {comparison.alpha:g} whatever the data: its smallest "
                    f"possible p, {format_p(comparison.smallest_holm_p)}, exceeds α/{k - 1} = "
                    f"{format_p(comparison.alpha / (k - 1))}"
                )
        out.append(
            Ranking(
                id=f"{analysis_id}:{perspective}",
                analysis_id=analysis_id,
                label=PERSPECTIVE_NAMES[perspective],
                ranks=_ranks({str(a): float(r) for a, r in comparison.mean_ranks.items()}),
                verdicts=verdicts,
                source=f"analyses.{analysis_id}.result.mean_ranks[perspective={perspective}]",
                significance=f"{PERSPECTIVE_NAMES[perspective]} (Friedman test, Holm's procedure)"
                if verdicts
                else "",
                status=status,
                note=note,
                caveat=WALL_CLOCK.strip() if perspective == "efficiency" else "",
                scores=_matrix_scores(
                    comparison.ranks[[a for a in result.algorithms if a in comparison.ranks]],
                    higher_is_better=False,
                    runs=functools.partial(_perspective_runs, result, perspective)
                    if result.runs is not None
                    else None,
                )
                if comparison.n_problems
                else None,
            )
        )
    return out


def _u_score_runs(
    result: UScoresResult, problems: tuple[object, ...], slots: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """U-scores of trial resamples (the analysis computes them), in ``Scores`` columns."""
    keys = [(str(p[0]), int(p[1])) for p in problems if isinstance(p, tuple)]
    return run_resampled_u_scores(result, keys, slots, rng)


def _area_runs(
    result: RuntimeEcdfResult,
    problems: tuple[object, ...],
    slots: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """Area scores of run resamples (the analysis computes them), in ``Scores`` columns."""
    keys = [(str(p[0]), int(p[1])) for p in problems if isinstance(p, tuple)]
    return run_resampled_area_scores(result, keys, slots, rng)


def _perspective_runs(
    result: PerspectivesResult,
    perspective: str,
    problems: tuple[object, ...],
    slots: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """Per-problem ranks of run resamples (the analysis computes them), in ``Scores`` columns."""
    return run_resampled_ranks(result, perspective, [str(p) for p in problems], slots, rng)


def significance_relation(analysis_id: str, result: SignificanceRelationResult) -> list[Ranking]:
    auto = result.auto
    layers = {a: float(auto.layer_of(a)) for a in result.algorithms}
    return [
        Ranking(
            id=f"{analysis_id}:layers",
            analysis_id=analysis_id,
            # Displayed (the id is the key): "σ = 2.5" as the report writes every level.
            label=f"relation layers σ = {points_text(auto.sigma)}",
            ranks=_ranks(layers),
            source=f"analyses.{analysis_id}.result (layers at sigma_auto = {auto.sigma:g})",
            bootstrap=functools.partial(bootstrap_layers, result)
            if len(result.problems) > 1 and len(result.algorithms) <= MAX_LAYER_BOOTSTRAP
            else None,
            bootstrap_runs=result.runs is not None,
        )
    ]


def runtime_ecdf(analysis_id: str, result: RuntimeEcdfResult) -> list[Ranking]:
    # The area under the runtime ECDF (COCO's aggregate): larger is better.
    area = result.areas()
    matrix = result.area_score_matrix()
    ranks = _ranks(area, higher_is_better=True)
    caveat, named = _common_budget_caveat(result, [a for a, r in ranks.items() if r == 1])
    return [
        Ranking(
            id=f"{analysis_id}:ecdf_area",
            analysis_id=analysis_id,
            label="runtime ECDF area",
            ranks=ranks,
            source=f"analyses.{analysis_id}.result.summary (area)",
            caveat=caveat,
            caveat_algorithms=named,
            scores=None
            if matrix is None
            else _matrix_scores(
                matrix, higher_is_better=True, runs=functools.partial(_area_runs, result)
            ),
        )
    ]


def _common_budget_caveat(
    result: RuntimeEcdfResult, first: list[str]
) -> tuple[str, tuple[str, ...]]:
    """Where budgets differ widely, who reaches the most (function, target) pairs at the common
    budget, and whether that is the area's first (``first``): the area extends each curve flat
    beyond its own budget, so a long budget alone can put an algorithm first (bbob_coco:
    budgets 1655-fold apart). A sentence with placeholders, and the algorithms they name."""
    named = Naming()
    parts, ratio, holds = [], 0.0, True
    for dimension in result.dimensions():
        common = result.common_budget(dimension)
        if common is None:
            continue
        ratio = max(ratio, common.longest / common.budget)
        holds = holds and any(a in common.leaders for a in first)
        where = f" ({dimension}-D)" if dimension else ""
        verb = "reaches" if len(common.leaders) == 1 else "reach"
        parts.append(
            f"at the common budget of {number(common.budget)}·D{where} "
            f"{join_words([named(a) for a in common.leaders])} {verb} the most (function, "
            f"target) pairs ({ecdf_share(common.share)}"
            + (
                f"; next {join_words([named(a) for a in common.next_leaders])}, "
                f"{ecdf_share(common.next_share)})"
                if common.next_leaders
                else ")"
            )
        )
    if not parts:
        return "", ()
    # Named only where said, so that the caveat's algorithms are those its text names.
    ending = "." if holds else f", not {join_words([named(a) for a in first])} as by the area."
    return (
        f"The runtime ECDF area compares budgets up to {ratio:.0f}-fold apart and extends each "
        f"curve flat beyond its own budget; {'; '.join(parts)}{ending}"
    ), named.names


def named(
    rankings: list[Ranking], kind: str, analysis_id: str, title: str | None = None
) -> list[Ranking]:
    """``rankings`` of one analysis with their method family, the status "degenerate" where
    every algorithm ties, and — where the study has several analyses of a kind — labelled with
    the analysis's title (shortened; its id when it has none), which the reader sees as the
    section heading, rather than an internal id such as ``perspectives_10D``."""
    out = [
        dataclasses.replace(r, family=r.family or FAMILY_OF_KIND.get(kind, kind)) for r in rankings
    ]
    out = [
        r
        if r.separates
        else dataclasses.replace(r, status=DEGENERATE, note="every algorithm ties", verdicts={})
        for r in out
    ]
    if analysis_id == kind:
        return out
    # Two analyses of one kind: say which one a column is.
    which = title_in_label(title) if title else analysis_id
    return [
        dataclasses.replace(
            r,
            label=f"{r.label} ({which})",
            significance=_with_aside(r.significance, which) if r.significance else "",
        )
        for r in out
    ]


TITLE_IN_LABEL = 36
"""Most characters of an analysis title inside a ranking's label (:func:`title_in_label`)."""


def title_in_label(title: str, limit: int = TITLE_IN_LABEL) -> str:
    """An analysis title short enough for a ranking's label, cut between words, never inside one.

    A sentence of the executive summary and the rows of its figures name a ranking by its
    label, so a title cut mid-word ("U-scores at fractions of th…") reads as a typo. A title
    longer than ``limit`` first loses a closing aside in parentheses ("U-scores at fractions of
    the budget (who got there first)" → "U-scores at fractions of the budget"), then, if still
    too long, its last words ("…" where they were); a single word longer than ``limit`` is cut
    by :func:`~reportgen.errors.shorten`.
    """
    if len(title) <= limit:
        return title
    without_aside = re.sub(r"\s*\([^()]*\)$", "", title)
    if without_aside and len(without_aside) <= limit:
        return without_aside
    words = (without_aside or title).split()
    kept: list[str] = []
    for word in words:
        if len(" ".join([*kept, word])) > limit - 1:
            break
        kept.append(word)
    return " ".join(kept) + "…" if kept else shorten(title, limit)


def _with_aside(significance: str, which: str) -> str:
    """``significance`` with ``which`` added: inside its closing parenthesis when it ends with one
    ("mean final value (Friedman test, Holm's procedure; Perspectives in 10-D only)"), rather
    than a second parenthesis right after the first."""
    if significance.endswith(")"):
        return f"{significance[:-1]}; {which})"
    return f"{significance} ({which})"


def rank_frame(rankings: list[Ranking], algorithms: list[str]) -> pd.DataFrame:
    """Algorithms × rankings table of ranks (NaN where a ranking lacks the algorithm)."""
    return pd.DataFrame(
        {r.id: [r.ranks.get(a, math.nan) for a in algorithms] for r in rankings}, index=algorithms
    )
