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
- otherwise from the first counted ranking with per-problem scores (equal scores decided by its
  second key where it has one): the number of problems on
  which each has the better score (no test).

Per dimension and per function group (``breakdown``; the table "Head to head" of the
executive summary shows it and the sentences read it): the same counts over each dimension's
problems (where the study has several) and each function group's (``problems.groups``), and
who wins more *problems* — the problems on which one wins more trial comparisons (U-scores)
or has A12 on its side (problem table) — with a two-sided sign test over those problems
(:func:`scipy.stats.binomtest`, p = ½; problems neither wins are left out; Demšar 2006, §3.1.3):
one is *ahead* in a group when it wins more problems and the sign test's p-value is below the
analysis's α, else the two are *indistinguishable* there — unless too few problems are won for
the sign test to reach α at all (``PairGroup.testable``: fewer than 6 at α = 0.05), which the
table and sentences say instead of "indistinguishable".

Decisions
---------
- The U-score analysis used is the first in the study whose pairwise table holds the pair
  (plain U-scores before U-scores at cut-points, in study order).
- "Ahead" counts problems, not their significance: a problem won narrowly counts as one won
  widely, so one large win cannot make a leader (the totals can), and a group of 12 problems
  needs 10 of them for p < 0.05. The per-problem significance counts stay beside it.
- "Why the methods disagree" is one rule: when the algorithm with more significant problem
  wins (or more trial wins) is behind on the total, the leader on the total wins through
  larger margins on fewer problems, and the sentence says so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.stats import binomtest

from reportgen.analyses.problem_table import BETTER, OVERALL, WORSE
from reportgen.analyses.u_scores import PairOnProblem
from reportgen.synthesis.rankings import Ranking


@dataclass(frozen=True)
class PairGroup:
    """The pair over one set of problems (all, a dimension, or a function group).

    Attributes
    ----------
    group : str
        ``"all problems"``, ``"D=10"`` or a function group's name.
    problems : int
    share_a : float
        Share of trial comparisons ``a`` wins (NaN without U-scores).
    wins_a, wins_b : int
        Problems each wins (more trial comparisons; or A12 on its side).
    significant_a, significant_b : int
        Problems on which each is significantly better (the source's per-problem test).
    sign_p : float
        Two-sided sign test over the problems won (1 when neither wins any).
    ahead : str
        The algorithm ahead (sign test below α), or empty: indistinguishable.
    testable : bool
        Whether the sign test could have found one ahead: with n problems won its smallest
        p is 2·½ⁿ (a clean sweep), which reaches α = 0.05 only from n = 6. Below that
        "indistinguishable" would be no result (cec2022's unimodal group: 2 problems, 2–0).
    """

    group: str
    problems: int
    share_a: float
    wins_a: int
    wins_b: int
    significant_a: int
    significant_b: int
    sign_p: float
    ahead: str
    testable: bool = True


def sign_test_can_reject(n: int, alpha: float) -> bool:
    """Whether a two-sided sign test over ``n`` problems won can give p < α: its smallest p,
    a clean sweep's, is 2·½ⁿ (``binomtest``), so at α = 0.05 it needs n ≥ 6."""
    return n > 0 and 2.0 * 0.5**n < alpha


def sign_test_needs(alpha: float) -> int:
    """The fewest problems won with which the sign test can give p < α (6 at α = 0.05)."""
    return next(n for n in range(1, 64) if sign_test_can_reject(n, alpha))


ALL_PROBLEMS = "all problems"
"""The ``group`` of the breakdown row over every problem."""


def _breakdown(
    a: str,
    b: str,
    keys: Sequence[tuple[str, int]],
    won: np.ndarray,
    significant: np.ndarray,
    trials: tuple[np.ndarray, np.ndarray] | None,
    groups: Mapping[str, Sequence[str]],
    alpha: float,
) -> tuple[PairGroup, ...]:
    """Rows of :class:`PairGroup` over all problems, each dimension (when several) and each
    function group. ``won``/``significant``: per problem +1 (a), −1 (b) or 0; ``trials``: the
    trial comparisons each wins per problem (U-scores) or None."""
    dims = sorted({d for _, d in keys})
    subsets: list[tuple[str, np.ndarray]] = [(ALL_PROBLEMS, np.ones(len(keys), dtype=bool))]
    if len(dims) > 1:
        subsets += [(f"D={d}", np.array([k[1] == d for k in keys])) for d in dims]
    for name, members in groups.items():
        mask = np.array([k[0] in set(members) for k in keys], dtype=bool)
        if mask.any():
            subsets.append((name, mask))
    rows = []
    for name, mask in subsets:
        wins_a, wins_b = int((won[mask] > 0).sum()), int((won[mask] < 0).sum())
        p = binomtest(wins_a, wins_a + wins_b, 0.5).pvalue if wins_a + wins_b else 1.0
        share = math.nan
        if trials is not None:
            total = trials[0][mask].sum() + trials[1][mask].sum()
            share = float(trials[0][mask].sum() / total) if total else math.nan
        rows.append(
            PairGroup(
                group=name,
                problems=int(mask.sum()),
                share_a=share,
                wins_a=wins_a,
                wins_b=wins_b,
                significant_a=int((significant[mask] > 0).sum()),
                significant_b=int((significant[mask] < 0).sum()),
                sign_p=float(p),
                ahead=(a if wins_a > wins_b else b) if p < alpha else "",
                testable=sign_test_can_reject(wins_a + wins_b, alpha),
            )
        )
    return tuple(rows)


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
    breakdown : tuple of PairGroup
        All problems, each dimension and each function group, with problems won and the sign
        test (empty for a comparison by scores without a test).
    alpha : float
        The level of the sign test (the source analysis's α).
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
    breakdown: tuple[PairGroup, ...] = ()
    alpha: float = 0.05


def _from_problem_table(
    a: str, b: str, analysis_id: str, result: Any, groups: Mapping[str, Sequence[str]]
) -> HeadToHead | None:
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
    cells = result.comparisons(other)
    # Per problem from a's side: +1 where a has A12 (or the significant marker) on its side.
    side = 1.0 if other == a else -1.0
    won = np.array([side * np.sign(c.a12 - 0.5) if not math.isnan(c.a12) else 0.0 for c in cells])
    significant = np.array(
        [side * (1.0 if c.marker == BETTER else -1.0 if c.marker == WORSE else 0.0) for c in cells]
    )
    breakdown = _breakdown(
        a,
        b,
        [(c.problem, c.dimension) for c in cells],
        won,
        significant,
        None,
        groups,
        result.alpha,
    )
    by_dimension = tuple((g, float("nan"), *counts(g)) for g in result.groups if g.startswith("D="))
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
        by_group=by_dimension if len(by_dimension) > 1 else (),
        test=f"two-sided Mann–Whitney U test per problem, {correction} correction over "
        f"problems, α = {result.alpha:g}",
        # A12 of b against a: the table's own where b is tested, its complement where a is.
        a12_b=a12 if other == b else 1.0 - a12,
        breakdown=breakdown,
        alpha=result.alpha,
    )


def from_problem_tables(
    a: str,
    b: str,
    outcomes: Sequence[tuple[str, str, Any]],
    groups: Mapping[str, Sequence[str]] | None = None,
) -> HeadToHead | None:
    """The pair from the first problem table (study order) that tests one of them against the
    other; None when none does."""
    for kind, analysis_id, result in outcomes:
        if kind == "problem_table":
            found = _from_problem_table(a, b, analysis_id, result, groups or {})
            if found is not None:
                return found
    return None


def not_separated_by_tables(a: str, outcomes: Sequence[tuple[str, str, Any]]) -> list[str]:
    """The algorithms that some tested problem table does not find worse than ``a`` on balance:
    significantly better than ``a`` on at least as many problems as ``a`` is significantly
    better than them (the table's own W/T/L over all problems, ``a`` or they its reference).

    The summary compares its leader with the best other algorithm of each ranking; an
    algorithm placed lower by the rankings can still hold its own problem by problem (bbob_coco:
    R-SHADE-10e2, third by the runtime ECDF area, is significantly better than the leader
    DIRECT on 3 of 24 problems and worse on 3 in the problem table at the common budget), and
    the bottom line must not recommend the leader over it without saying so.
    """
    found: list[str] = []
    for kind, _, result in outcomes:
        if kind != "problem_table" or not result.tested:
            continue
        tested = result.against_reference()
        if result.reference == a:
            found += [other for other, w in tested.items() if w.wins >= w.losses]
        elif a in tested and tested[a].losses >= tested[a].wins:
            found.append(result.reference)
    return list(dict.fromkeys(found))


def _pair_counts(problems: Sequence[PairOnProblem], alpha: float) -> tuple[float, int, int, int]:
    """Share of trial wins of ``a`` and problems significantly won by each, from a U-score
    analysis's comparisons of the pair problem by problem."""
    wins_a = np.array([q.wins_a for q in problems], dtype=float)
    wins_b = np.array([q.wins_b for q in problems], dtype=float)
    p = np.array([q.p_value for q in problems], dtype=float)
    significant = p < alpha
    total = wins_a.sum() + wins_b.sum()
    share = float(wins_a.sum() / total) if total else float("nan")
    return (
        share,
        int((significant & (wins_a > wins_b)).sum()),
        int((significant & (wins_b > wins_a)).sum()),
        len(p),
    )


def _u_score_breakdown(
    problems: Sequence[PairOnProblem],
    a: str,
    b: str,
    alpha: float,
    groups: Mapping[str, Sequence[str]],
) -> tuple[PairGroup, ...]:
    """:func:`_breakdown` from a U-score analysis's comparisons of the pair problem by problem."""
    keys = [(q.problem, q.dimension) for q in problems]
    wins_a = np.array([q.wins_a for q in problems], dtype=float)
    wins_b = np.array([q.wins_b for q in problems], dtype=float)
    p = np.array([q.p_value for q in problems], dtype=float)
    won = np.sign(wins_a - wins_b)
    significant = np.where(p < alpha, won, 0.0)
    return _breakdown(a, b, keys, won, significant, (wins_a, wins_b), groups, alpha)


def head_to_head(
    a: str,
    b: str,
    outcomes: Sequence[tuple[str, str, Any]],
    rankings: Sequence[Ranking],
    groups: Mapping[str, Sequence[str]] | None = None,
) -> HeadToHead | None:
    """The head-to-head of ``a`` and ``b`` (None when no analysis compares them per problem);
    ``groups``: the study's function groups (``problems.groups``), name → problem names."""
    groups = groups or {}
    for kind, analysis_id, result in outcomes:
        if kind != "u_scores":
            continue
        problems = result.pair_on_problems(a, b)
        if not problems:
            continue
        share, sig_a, sig_b, n = _pair_counts(problems, result.alpha)
        by_group = []
        if len(result.groups) > 1:
            for group in result.groups:
                in_group = [q for q in problems if q.group == group]
                by_group.append((group, *_pair_counts(in_group, result.alpha)))
        totals = {s.algorithm: s.score for s in result.standings()}
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
            by_group=tuple(by_group),
            breakdown=_u_score_breakdown(problems, a, b, result.alpha, groups),
            alpha=result.alpha,
        )
    found = from_problem_tables(a, b, outcomes, groups)
    if found is not None:
        return found
    for ranking in rankings:
        scores = ranking.scores
        if not ranking.counted or scores is None:
            continue
        if a not in scores.algorithms or b not in scores.algorithms:
            continue
        ia, ib = scores.algorithms.index(a), scores.algorithms.index(b)
        va, vb = scores.values[:, ia], scores.values[:, ib]
        sign = 1.0 if scores.higher_is_better else -1.0
        difference = sign * (va - vb)
        if scores.tiebreak is not None:  # equal scores: the ranking's second key decides
            second = sign * (scores.tiebreak[:, ia] - scores.tiebreak[:, ib])
            difference = np.where(difference == 0, second, difference)
        better_a, better_b = difference > 0, difference < 0
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
