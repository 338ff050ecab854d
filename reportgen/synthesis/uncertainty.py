"""How sure each ranking is: a seeded bootstrap over problems.

A ranking that aggregates per-problem scores (a sum of U-scores, a mean of Friedman ranks,
the mean-profile order; :class:`~reportgen.synthesis.rankings.Scores`) is recomputed on ``B``
resamples of its problems drawn with replacement. For each algorithm:

.. math::

    p_\\text{first} = \\frac{1}{B}\\sum_{b=1}^{B} \\frac{[\\,r_b(a) = 1\\,]}{|\\{a' : r_b(a') = 1\\}|},

the probability of ranking first, with a first place shared by ``k`` algorithms counted ``1/k``
for each (so ``p_first`` sums to 1 over the algorithms of a ranking), and the 95 % interval of
its rank ``r_b(a)`` (tied algorithms share the best rank of their group), the 2.5 % and 97.5 %
quantiles of the ``B`` ranks (``numpy.quantile``, ``method="inverted_cdf"``: always a rank
that occurred).

Decisions
---------
- Resampling unit: problems (the benchmark's sample of the problem space). Runs are not
  resampled: the synthesis reads the analyses' per-problem results, not the runs, and with
  30 runs per problem the run-level noise in a per-problem statistic is small next to the
  variation between problems. The report says so.
- Equal aggregates tie exactly: the means of a resample are compared after rounding to 12
  significant digits relative to the largest magnitude, so sums that differ only by
  summation order still tie.
- Deterministic: each ranking's resamples are drawn by its own
  :class:`numpy.random.Generator` (PCG64) seeded with the study's ``summary.seed`` and the
  ranking's position in the report. The resample indices are drawn once per ranking
  as one ``B × n_p`` array and every aggregate is one vectorised mean.
- Per dimension: where the problems span several dimensions (U-scores and profiles), each
  ranking is also resampled within each dimension's problems (``group`` ``D=<d>``; its
  ``rank`` is the order of that dimension's mean scores), so that "ahead at D = 20 but not at
  D = 10" can be said with its probability. Rows over all problems have ``group`` ``all``.
- Rankings without per-problem scores (significance-relation layers, probabilistic profiles,
  runtime ECDFs) are not resampled and are absent from the table.
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
COLUMNS = ["ranking", "group", "algorithm", "rank", "p_first", "rank_low", "rank_high"]


@dataclass(frozen=True)
class Uncertainty:
    """The bootstrap of every resamplable ranking.

    Attributes
    ----------
    table : pandas.DataFrame
        ranking, group (``all`` or ``D=<d>``), algorithm, rank (the ranking's own), p_first,
        rank_low, rank_high.
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

    def groups(self, ranking: str) -> list[str]:
        """The dimension groups a ranking was also resampled within (none, or two or more)."""
        groups = self.table.loc[self.table["ranking"] == ranking, "group"]
        return [g for g in dict.fromkeys(groups) if g != ALL]


def bootstrap_ranks(scores: Scores, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Ranks (1 = best, ties share the best rank) of every algorithm in every resample.

    Returns
    -------
    numpy.ndarray
        ``[resamples, algorithms]``.

    Examples
    --------
    Two algorithms, A better on every problem: A is first in every resample.

    >>> s = Scores(np.array([[1.0, 2.0], [3.0, 4.0]]), ("A", "B"), higher_is_better=False)
    >>> bootstrap_ranks(s, 3, np.random.default_rng(0)).tolist()
    [[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]
    """
    values = scores.values
    n_p = values.shape[0]
    index = rng.integers(0, n_p, size=(resamples, n_p))
    means = values[index].mean(axis=1)  # [B, algorithms]
    scale = np.abs(means).max(axis=1, keepdims=True)
    scale[scale == 0] = 1.0
    rounded = np.round(means / scale, 12)
    key = -rounded if scores.higher_is_better else rounded
    return rankdata(key, method="min", axis=1)


def p_first(ranks: np.ndarray) -> np.ndarray:
    """Share of resamples in which each algorithm ranks first, a shared first place split."""
    first = ranks == 1
    return (first / first.sum(axis=1, keepdims=True)).mean(axis=0)


def uncertainty(rankings: Sequence[Ranking], resamples: int, seed: int) -> Uncertainty:
    """Bootstrap every ranking that has per-problem scores (see the module docstring)."""
    rows: list[dict[str, object]] = []
    for position, ranking in enumerate(rankings):
        scores = ranking.scores
        if scores is None or scores.values.shape[0] < 2:
            continue
        parts: list[tuple[str, Scores]] = [(ALL, scores)]
        for group in dict.fromkeys(scores.groups):
            keep = np.asarray([g == group for g in scores.groups])
            if keep.sum() >= 2:
                parts.append((group, replace(scores, values=scores.values[keep], groups=())))
        for index, (group, part) in enumerate(parts):
            rng = np.random.default_rng([seed, position, index])
            own = (
                {a: ranking.ranks.get(a, np.nan) for a in part.algorithms}
                if group == ALL
                else dict(zip(part.algorithms, _ranks_of_means(part), strict=True))
            )
            rows.extend(_rows(ranking.id, group, part, own, resamples, rng))
    return Uncertainty(pd.DataFrame(rows, columns=COLUMNS), resamples, seed)


def _ranks_of_means(scores: Scores) -> np.ndarray:
    """The ranks of the full sample's means (what a group's own ranking is)."""
    means = scores.values.mean(axis=0)
    return rankdata(-means if scores.higher_is_better else means, method="min")


def _rows(
    ranking: str,
    group: str,
    scores: Scores,
    own: dict[str, float],
    resamples: int,
    rng: np.random.Generator,
) -> list[dict[str, object]]:
    ranks = bootstrap_ranks(scores, resamples, rng)
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
        }
        for i, algorithm in enumerate(scores.algorithms)
    ]
