"""Agreement between rankings: Kendall's τ and the pairs of algorithms whose order flips.

Kendall's τ-b (``scipy.stats.kendalltau``, which accounts for ties) is computed for every pair
of rankings over the algorithms both rank. A pair of algorithms *flips* between two rankings
when one ranking puts a strictly before b and the other puts b strictly before a.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

from reportgen.synthesis.rankings import Ranking


@dataclass(frozen=True)
class Flip:
    """``algorithm_1`` is before ``algorithm_2`` in ``ranking_a`` and after it in ``ranking_b``."""

    ranking_a: str
    ranking_b: str
    algorithm_1: str
    algorithm_2: str


@dataclass(frozen=True)
class FlippedPair:
    """A pair of algorithms (sorted by name), the number of pairs of rankings it flips
    between, and the first of those flips."""

    pair: tuple[str, str]
    rankings: int
    example: Flip


@dataclass(frozen=True)
class Agreement:
    """Pairwise agreement of rankings.

    Attributes
    ----------
    tau : pandas.DataFrame
        Square table of Kendall's τ-b by ranking id (1 on the diagonal; NaN when undefined,
        e.g. a ranking in which every algorithm ties).
    flips : pandas.DataFrame
        ranking_a, ranking_b, algorithm_1, algorithm_2: algorithm_1 is before algorithm_2 in
        ranking_a and after it in ranking_b.
    """

    tau: pd.DataFrame
    flips: pd.DataFrame

    def most_flipped(self, limit: int) -> list[FlippedPair]:
        """The ``limit`` pairs of algorithms that flip between the most pairs of rankings, most
        first (equal counts in the order of their first flip)."""
        flips = self.flips
        first: dict[tuple[str, str], int] = {}
        count: dict[tuple[str, str], int] = {}
        for k, names in enumerate(zip(flips["algorithm_1"], flips["algorithm_2"], strict=True)):
            pair = (str(min(names)), str(max(names)))
            first.setdefault(pair, k)
            count[pair] = count.get(pair, 0) + 1
        out = []
        for pair in sorted(count, key=lambda p: -count[p])[:limit]:  # stable: first flip first
            row = flips.iloc[first[pair]]
            example = Flip(
                str(row["ranking_a"]), str(row["ranking_b"]),
                str(row["algorithm_1"]), str(row["algorithm_2"]),
            )  # fmt: skip
            out.append(FlippedPair(pair, count[pair], example))
        return out


def agreement(rankings: list[Ranking]) -> Agreement:
    """Kendall's τ-b between every pair of rankings, and every flipped pair of algorithms."""
    ids = [r.id for r in rankings]
    # τ filled as an array and the flips gathered as arrays, each table built once at the end
    # (not a pandas cell assignment and a small table per pair of rankings).
    tau = np.ones((len(ids), len(ids)))
    pairs: list[tuple[str, str]] = []
    first: list[np.ndarray] = []
    second: list[np.ndarray] = []
    for (ia, a), (ib, b) in itertools.combinations(enumerate(rankings), 2):
        common = [alg for alg in a.ranks if alg in b.ranks]
        value = math.nan
        if len(common) >= 2:
            x = [a.ranks[c] for c in common]
            y = [b.ranks[c] for c in common]
            if len(set(x)) > 1 and len(set(y)) > 1:
                value = float(kendalltau(x, y).statistic)
        tau[ia, ib] = tau[ib, ia] = value
        # Every pair (first, second) of `common` in order, vectorised (500 algorithms: 124,750
        # pairs per two rankings): it flips when the rank differences have opposite signs.
        ra = np.array([a.ranks[c] for c in common], dtype=float)
        rb = np.array([b.ranks[c] for c in common], dtype=float)
        i, j = np.triu_indices(len(common), k=1)
        da, db = ra[i] - ra[j], rb[i] - rb[j]
        flipped = da * db < 0
        i, j, da = i[flipped], j[flipped], da[flipped]
        if not flipped.any():
            continue
        names = np.array(common, dtype=object)
        pairs.append((a.id, b.id))
        first.append(np.where(da < 0, names[i], names[j]))
        second.append(np.where(da < 0, names[j], names[i]))
    columns = ["ranking_a", "ranking_b", "algorithm_1", "algorithm_2"]
    counts = [len(f) for f in first]
    return Agreement(
        tau=pd.DataFrame(tau, index=ids, columns=ids),
        flips=pd.DataFrame(
            {
                "ranking_a": np.repeat(np.array([p[0] for p in pairs], dtype=object), counts),
                "ranking_b": np.repeat(np.array([p[1] for p in pairs], dtype=object), counts),
                "algorithm_1": np.concatenate(first),
                "algorithm_2": np.concatenate(second),
            }
        )
        if pairs
        else pd.DataFrame(columns=columns),
    )
