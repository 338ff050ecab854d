"""Head-to-head comparison of two contenders, read from the analyses' per-problem results.

Totals and mean ranks can hide how a pair compares problem by problem: one algorithm may win
most problems while the other leads the total through a few large wins. The head-to-head
states, for a pair (a, b):

- from a U-score analysis (trial-based dominance, Price et al.): the share of trial
  comparisons each wins (``wins_a / (wins_a + wins_b)`` summed over problems) and the number
  of problems on which each is significantly better (the analysis's per-problem Mann–Whitney
  test at its ``alpha``, no multiplicity correction: a count, not a test over problems), per
  dimension when the analysis groups by dimension, and each one's total;
- otherwise, when a problem table tests one of the pair against the other (one is its
  reference): the problems on which each is significantly better by the table's two-sided
  Mann–Whitney U test, corrected over problems (Holm by default) — the table's own W/T/L — and
  the median Vargha–Delaney A12 of ``b`` against ``a``, per dimension where there are several;
- otherwise from the first counted ranking with per-problem scores: the number of problems on
  which each has the better score (no test).

Decisions
---------
- The U-score analysis used is the first in the study whose pairwise table holds the pair
  (plain U-scores before U-scores at cut-points, in study order).
- "Why the methods disagree" is one rule: when the algorithm with more significant problem
  wins (or more trial wins) is behind on the total, the leader on the total wins through
  larger margins on fewer problems, and the sentence says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from reportgen.analyses.problem_table import OVERALL
from reportgen.synthesis.rankings import Ranking


@dataclass(frozen=True)
class HeadToHead:
    """Two contenders compared problem by problem.

    Attributes
    ----------
    a, b : str
        The algorithms (``a`` the leader).
    source : str
        Where the numbers come from: the U-score analysis's id, or the ranking's label.
    share_a : float
        Share of trial comparisons ``a`` wins (NaN without a U-score analysis).
    significant_a, significant_b, problems : int
        Problems on which each is significantly better (or has the better score), of
        ``problems``.
    total_a, total_b : float
        Their totals (U-scores) or mean scores.
    by_group : tuple of (group, share_a, significant_a, significant_b, problems)
        The same per dimension where the analysis groups by dimension.
    tested : bool
        Whether the per-problem counts come from a test.
    test : str
        The per-problem test when it is not a U-score analysis's (a problem table's rank-sum
        test and correction); empty otherwise.
    a12_b : float
        Median A12 of ``b`` against ``a`` over the problems (problem table only; else NaN).
    """

    a: str
    b: str
    source: str
    share_a: float
    significant_a: int
    significant_b: int
    problems: int
    total_a: float
    total_b: float
    tested: bool
    by_group: tuple[tuple[str, float, int, int, int], ...] = field(default_factory=tuple)
    test: str = ""
    a12_b: float = float("nan")


def _from_problem_table(a: str, b: str, analysis_id: str, result: Any) -> HeadToHead | None:
    """The pair from a problem table that tests one of them against the other (its reference).

    W/T/L are from the tested algorithm's side: its wins are its significantly better problems,
    its losses the reference's.
    """
    if not result.tested or result.reference not in (a, b):
        return None
    other = b if result.reference == a else a
    if other not in result.against_reference():
        return None

    def counts(group: str) -> tuple[int, int, int]:
        w = result.win_tie_loss(other, group)
        sig_other, sig_ref, n = w.wins, w.losses, w.wins + w.ties + w.losses
        return (sig_ref, sig_other, n) if other == b else (sig_other, sig_ref, n)

    sig_a, sig_b, n = counts(OVERALL)
    a12 = result.median_a12(other)
    groups = tuple((g, float("nan"), *counts(g)) for g in result.groups if g.startswith("D="))
    correction = {"holm": "Holm", "bonferroni": "Bonferroni", "none": "no"}[result.correction]
    return HeadToHead(
        a=a,
        b=b,
        source=analysis_id,
        share_a=float("nan"),
        significant_a=sig_a,
        significant_b=sig_b,
        problems=n,
        total_a=float("nan"),
        total_b=float("nan"),
        tested=True,
        by_group=groups if len(groups) > 1 else (),
        test=f"two-sided Mann–Whitney U test per problem, {correction} correction over "
        f"problems, α = {result.alpha:g}",
        # A12 of b against a: the table's own where b is tested, its complement where a is.
        a12_b=a12 if other == b else 1.0 - a12,
    )


def _pair_counts(pairwise: Any, a: str, b: str, alpha: float) -> tuple[float, int, int, int]:
    """Share of trial wins of ``a`` and problems significantly won by each, from the rows of
    one U-score pairwise table (either orientation)."""
    forward = pairwise[(pairwise["algorithm_a"] == a) & (pairwise["algorithm_b"] == b)]
    backward = pairwise[(pairwise["algorithm_a"] == b) & (pairwise["algorithm_b"] == a)]
    wins_a = np.r_[forward["wins_a"].to_numpy(float), backward["wins_b"].to_numpy(float)]
    wins_b = np.r_[forward["wins_b"].to_numpy(float), backward["wins_a"].to_numpy(float)]
    p = np.r_[forward["p_value"].to_numpy(float), backward["p_value"].to_numpy(float)]
    significant = p < alpha
    total = wins_a.sum() + wins_b.sum()
    share = float(wins_a.sum() / total) if total else float("nan")
    return (
        share,
        int((significant & (wins_a > wins_b)).sum()),
        int((significant & (wins_b > wins_a)).sum()),
        len(p),
    )


def head_to_head(
    a: str, b: str, outcomes: Sequence[tuple[str, str, Any]], rankings: Sequence[Ranking]
) -> HeadToHead | None:
    """The head-to-head of ``a`` and ``b`` (None when no analysis compares them per problem)."""
    for kind, analysis_id, result in outcomes:
        if kind != "u_scores":
            continue
        pairwise = result.pairwise
        if not len(
            pairwise[pairwise["algorithm_a"].isin([a, b]) & pairwise["algorithm_b"].isin([a, b])]
        ):
            continue
        share, sig_a, sig_b, n = _pair_counts(pairwise, a, b, result.alpha)
        groups = []
        if len(result.groups) > 1:
            for group in result.groups:
                rows = pairwise[pairwise["group"] == group]
                groups.append((str(group), *_pair_counts(rows, a, b, result.alpha)))
        totals = result.totals.set_index("algorithm")[result.ranking_column]
        return HeadToHead(
            a=a,
            b=b,
            source=analysis_id,
            share_a=share,
            significant_a=sig_a,
            significant_b=sig_b,
            problems=n,
            total_a=float(totals[a]),
            total_b=float(totals[b]),
            tested=True,
            by_group=tuple(groups),
        )
    for kind, analysis_id, result in outcomes:
        if kind == "problem_table":
            found = _from_problem_table(a, b, analysis_id, result)
            if found is not None:
                return found
    for ranking in rankings:
        scores = ranking.scores
        if not ranking.counted or scores is None:
            continue
        if a not in scores.algorithms or b not in scores.algorithms:
            continue
        va = scores.values[:, scores.algorithms.index(a)]
        vb = scores.values[:, scores.algorithms.index(b)]
        better_a = va > vb if scores.higher_is_better else va < vb
        better_b = vb > va if scores.higher_is_better else vb < va
        return HeadToHead(
            a=a,
            b=b,
            source=ranking.label,
            share_a=float("nan"),
            significant_a=int(better_a.sum()),
            significant_b=int(better_b.sum()),
            problems=len(va),
            total_a=float(va.mean()),
            total_b=float(vb.mean()),
            tested=False,
        )
    return None
