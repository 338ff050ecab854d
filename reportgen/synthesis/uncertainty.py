"""How sure each ranking is: a seeded bootstrap over problems, and over runs where there are runs.

A ranking that aggregates per-problem scores (a sum of U-scores, a mean of Friedman ranks,
the mean-profile order, the runtime-ECDF area as the mean of each problem's share of it, the
expected probabilistic profile as the mean of each problem's term;
:class:`~reportgen.synthesis.rankings.Scores`) is
recomputed on ``B`` resamples of its problems drawn with replacement. Where the analysis has
the runs behind each per-problem score (U-scores: the trials' places in the dominance order;
final-value perspectives: the runs' final values and times; the runtime-ECDF area: each run's
share of it), the bootstrap is two-stage: each
problem drawn into a resample gets its per-problem scores recomputed from its own resample of
the runs of every algorithm (drawn with replacement, each algorithm keeping its number of
runs), so that a problem drawn twice is scored twice, independently. A ranking that is not a
mean of per-problem scores (the award-point layers of a significance relation) carries its
own ``bootstrap``: the whole ranking recomputed on each resample of the problems. For each
algorithm:

.. math::

    p_\\text{first} = \\frac{1}{B}\\sum_{b=1}^{B} \\frac{[\\,r_b(a) = 1\\,]}{|\\{a' : r_b(a') = 1\\}|},

the probability of ranking first, with a first place shared by ``k`` algorithms counted ``1/k``
for each (so ``p_first`` sums to 1 over the algorithms of a ranking), and the 95 % interval of
its rank ``r_b(a)`` (tied algorithms share the best rank of their group), the 2.5 % and 97.5 %
quantiles of the ``B`` ranks (``numpy.quantile``, ``method="inverted_cdf"``: always a rank
that occurred).

Decisions
---------
- Resampling units: problems (the benchmark's sample of the problem space) and, where the
  analysis keeps them, the runs of each algorithm on each drawn problem (the sample of the
  algorithm's random behaviour). The column ``resampled`` says which (``problems`` or
  ``problems and runs``). Problems only for rankings whose per-problem statistic is not
  recomputed from runs here: the mean-profile order (its per-problem value is the time at
  which the mean curve over the runs passes the convergence test against ``f_L``, the lowest point any
  algorithm's mean curve reaches; redrawing runs would mean recomputing every algorithm's mean curve and
  ``f_L`` per drawn problem — not done; the profile's own λ confirmation, confidence
  bounds of the mean curve, is its run-level uncertainty), the probabilistic profile (its normal model reads means and
  deviations, often a published table without runs) and the award-point layers of a published
  table (one value per problem, no runs).
- Award-point layers: each resample recomputes the award points on the drawn problems, the
  smallest cycle-free σ and its layers; σ follows the resample, since the layers the report
  shows are those at the smallest cycle-free σ. With trials or histories each drawn problem's
  value is first recomputed from a draw of the runs (the relation's statistic of the drawn
  runs, then its floor or shift).
- Resampling runs widens the intervals by the run-to-run noise of each per-problem score:
  where two algorithms differ on a problem by less than their runs vary, a problem that
  always went to one of them under the problems-only bootstrap now goes either way.
- Equal aggregates tie exactly: the means of a resample are compared after rounding to 12
  significant digits relative to the largest magnitude, so sums that differ only by
  summation order still tie.
- Deterministic: each ranking's resamples are drawn by its own
  :class:`numpy.random.Generator` (PCG64) seeded with the study's ``summary.seed`` and the
  ranking's position in the report (one stream for the problems, another for the runs). The
  problem indices are drawn once per ranking and group as one ``B × n_p`` array and every
  aggregate is one vectorised mean.
- Per dimension: where the problems span several dimensions (U-scores and profiles), each
  ranking is also resampled within each dimension's problems (``group`` ``D=<d>``; its
  ``rank`` is the order of that dimension's mean scores), so that "ahead at D = 20 but not at
  D = 10" can be said with its probability. Rows over all problems have ``group`` ``all``.
- Every ranking adapter of :mod:`reportgen.synthesis.rankings` provides per-problem scores or
  a bootstrap of its own; a ranking over fewer than two problems has nothing to draw, and
  award-point layers of more than ``MAX_LAYER_BOOTSTRAP`` algorithms are not bootstrapped
  (cost): both are absent from the table (the report names them under the table). Problem tables rank no
  algorithm (each is tested against the reference only), so they have no row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from reportgen.synthesis.rankings import Ranking, Scores

RESAMPLES = 2000
"""Default number of bootstrap resamples."""
SEED = 20260101
"""Default seed of the bootstrap (printed in the provenance)."""

ALL = "all"
"""The ``group`` of the rows that resample every problem."""
PROBLEMS, PROBLEMS_AND_RUNS = "problems", "problems and runs"
"""Values of the ``resampled`` column."""
RUNS_MARK = " †"
"""Appended to the label of a ranking whose runs were resampled too, in the report's table and
figure (their captions say what it means)."""
TWO_STAGE = (
    "† the runs resampled too: every problem drawn gets its per-problem scores recomputed "
    "from a resample of each algorithm's runs on it."
)
"""The sentence the table's and the figure's captions end with where some ranking has a †."""
COLUMNS = [
    "ranking",
    "group",
    "algorithm",
    "rank",
    "p_first",
    "rank_low",
    "rank_high",
    "resampled",
]


@dataclass(frozen=True)
class RankCertainty:
    """How sure one algorithm's place in one ranking is (a row of the table).

    ``rank``: the ranking's own rank (of the group's means within a dimension group);
    ``p_first``: the bootstrap probability of ranking first; ``rank_low``, ``rank_high``: the
    95 % interval of its rank; ``resampled``: what the bootstrap drew.
    """

    ranking: str
    group: str
    algorithm: str
    rank: float
    p_first: float
    rank_low: int
    rank_high: int
    resampled: str
    """``problems`` or ``problems and runs``."""


@dataclass(frozen=True)
class Uncertainty:
    """The bootstrap of every resamplable ranking.

    Attributes
    ----------
    table : pandas.DataFrame
        ranking, group (``all`` or ``D=<d>``), algorithm, rank (the ranking's own), p_first,
        rank_low, rank_high, resampled (``problems`` or ``problems and runs``).
    resamples, seed : int
    """

    table: pd.DataFrame
    resamples: int
    seed: int

    def p_first(self, ranking: str, algorithm: str, group: str = ALL) -> float:
        """``p_first`` of one algorithm in one ranking (NaN when not resampled)."""
        rows = self.table[
            (self.table["ranking"] == ranking)
            & (self.table["algorithm"] == algorithm)
            & (self.table["group"] == group)
        ]
        return float(rows["p_first"].iloc[0]) if len(rows) else float("nan")

    def runs_resampled(self) -> set[str]:
        """The rankings whose bootstrap also resampled the runs (two-stage)."""
        if self.table.empty:
            return set()
        rows = self.table[self.table["resampled"] == PROBLEMS_AND_RUNS]
        return {str(r) for r in rows["ranking"]}

    def by_ranking(self, group: str = ALL) -> dict[str, dict[str, RankCertainty]]:
        """Every resampled ranking's rows in ``group``, by ranking id then algorithm (table
        order); rankings not resampled are absent."""
        out: dict[str, dict[str, RankCertainty]] = {}
        for row in self.table[self.table["group"] == group].itertuples(index=False):
            out.setdefault(str(row.ranking), {})[str(row.algorithm)] = RankCertainty(
                str(row.ranking), str(row.group), str(row.algorithm), float(row.rank),
                float(row.p_first), int(row.rank_low), int(row.rank_high), str(row.resampled),
            )  # fmt: skip
        return out

    def groups(self, ranking: str) -> list[str]:
        """The dimension groups a ranking was also resampled within (none, or two or more)."""
        groups = self.table.loc[self.table["ranking"] == ranking, "group"]
        return [g for g in dict.fromkeys(groups) if g != ALL]


def bootstrap_ranks(
    scores: Scores,
    resamples: int,
    rng: np.random.Generator,
    runs: np.random.Generator | None = None,
    rows: np.ndarray | None = None,
) -> np.ndarray:
    """Ranks (1 = best, ties share the best rank) of every algorithm in every resample.

    Parameters
    ----------
    scores : Scores
        The per-problem scores (``values``: the rows to resample).
    resamples : int
    rng : numpy.random.Generator
        Draws the problems.
    runs : numpy.random.Generator, optional
        Draws the runs, where ``scores.resample_runs`` recomputes the per-problem scores from
        them; without it (or without runs) the problems' own scores are used.
    rows : numpy.ndarray, optional
        The rows of ``scores.resample_runs``'s problems that ``values`` holds (a dimension's
        part of the problems); all rows by default.

    Returns
    -------
    numpy.ndarray
        ``[resamples, algorithms]``.

    Examples
    --------
    Two algorithms, A better on every problem: A is first in every resample.

    >>> s = Scores(np.array([[1.0, 2.0], [3.0, 4.0]]), ("A", "B"), higher_is_better=False)
    >>> bootstrap_ranks(s, 3, np.random.default_rng(0)).tolist() == [[1, 2], [1, 2], [1, 2]]
    True
    """
    values = scores.values
    n_p = values.shape[0]
    index = rng.integers(0, n_p, size=(resamples, n_p))
    if runs is not None and scores.resample_runs is not None:
        slots = index if rows is None else rows[index]
        means = scores.resample_runs(slots, runs).mean(axis=1)
    else:
        means = values[index].mean(axis=1)  # [B, algorithms]
    second = scores.tiebreak[index].mean(axis=1) if scores.tiebreak is not None else None
    return rank_rows(means, scores.higher_is_better, second)


def rank_rows(
    means: np.ndarray, higher_is_better: bool, tiebreak: np.ndarray | None = None
) -> np.ndarray:
    """Ranks per row (1 = best, ties share the best rank) of ``[resamples, algorithms]``
    aggregates; where ``tiebreak`` is given, equal aggregates are ordered by it."""
    key = _key(means, higher_is_better)
    if tiebreak is not None:
        # Lexicographic: dense ranks of the first key, then of the second within its ties.
        first = rankdata(key, method="dense", axis=1)
        second = rankdata(_key(tiebreak, higher_is_better), method="dense", axis=1)
        key = first * (means.shape[1] + 1) + second
    return rankdata(key, method="min", axis=1)


def _key(means: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """``[resamples, algorithms]`` aggregates as an ascending sort key (smaller = better),
    equal up to 12 significant digits of the row's largest magnitude made equal."""
    scale = np.abs(means).max(axis=1, keepdims=True)
    scale[(scale == 0) | ~np.isfinite(scale)] = 1.0
    rounded = np.round(means / scale, 12)
    return -rounded if higher_is_better else rounded


def p_first(ranks: np.ndarray) -> np.ndarray:
    """Share of resamples in which each algorithm ranks first, a shared first place split."""
    first = ranks == 1
    return (first / first.sum(axis=1, keepdims=True)).mean(axis=0)


_RUNS_STREAM = 1 << 20
"""Third seed word of a ranking's run stream (the problem streams use 0, 1, …)."""


def uncertainty(rankings: Sequence[Ranking], resamples: int, seed: int) -> Uncertainty:
    """Bootstrap every ranking that has per-problem scores or a bootstrap of its own
    (see the module docstring)."""
    rows: list[dict[str, object]] = []
    for position, ranking in enumerate(rankings):
        scores = ranking.scores
        if scores is None:
            if ranking.bootstrap is not None:
                rng = np.random.default_rng([seed, position, 0])
                if ranking.bootstrap_runs:
                    runs = np.random.default_rng([seed, position, _RUNS_STREAM])
                    ranks = ranking.bootstrap(rng, resamples, runs)
                else:
                    ranks = ranking.bootstrap(rng, resamples)
                algorithms = tuple(ranking.ranks)  # the bootstrap's columns
                resampled = PROBLEMS_AND_RUNS if ranking.bootstrap_runs else PROBLEMS
                rows.extend(_rows(ranking.id, ALL, algorithms, ranking.ranks, ranks, resampled))
            continue
        if scores.values.shape[0] < 2:
            continue
        parts: list[tuple[str, Scores, np.ndarray | None]] = [(ALL, scores, None)]
        for group in dict.fromkeys(scores.groups):
            keep = np.asarray([g == group for g in scores.groups])
            if keep.sum() >= 2:
                tiebreak = scores.tiebreak[keep] if scores.tiebreak is not None else None
                part = replace(scores, values=scores.values[keep], groups=(), tiebreak=tiebreak)
                parts.append((group, part, np.flatnonzero(keep)))
        resampled = PROBLEMS_AND_RUNS if scores.resample_runs is not None else PROBLEMS
        for index, (group, part, part_rows) in enumerate(parts):
            rng = np.random.default_rng([seed, position, index])
            runs = np.random.default_rng([seed, position, _RUNS_STREAM + index])
            own = (
                {a: ranking.ranks.get(a, np.nan) for a in part.algorithms}
                if group == ALL
                else dict(zip(part.algorithms, _ranks_of_means(part), strict=True))
            )
            ranks = bootstrap_ranks(part, resamples, rng, runs, part_rows)
            rows.extend(_rows(ranking.id, group, part.algorithms, own, ranks, resampled))
    return Uncertainty(pd.DataFrame(rows, columns=COLUMNS), resamples, seed)


def _ranks_of_means(scores: Scores) -> np.ndarray:
    """The ranks of the full sample's means (what a group's own ranking is)."""
    second = scores.tiebreak.mean(axis=0)[None] if scores.tiebreak is not None else None
    return rank_rows(scores.values.mean(axis=0)[None], scores.higher_is_better, second)[0]


def _rows(
    ranking: str,
    group: str,
    algorithms: Sequence[str],
    own: dict[str, float],
    ranks: np.ndarray,
    resampled: str,
) -> list[dict[str, object]]:
    shares = p_first(ranks)
    low = np.quantile(ranks, 0.025, axis=0, method="inverted_cdf")
    high = np.quantile(ranks, 0.975, axis=0, method="inverted_cdf")
    return [
        {
            "ranking": ranking,
            "group": group,
            "algorithm": algorithm,
            "rank": float(own[algorithm]),
            "p_first": float(shares[i]),
            "rank_low": int(low[i]),
            "rank_high": int(high[i]),
            "resampled": resampled,
        }
        for i, algorithm in enumerate(algorithms)
    ]
