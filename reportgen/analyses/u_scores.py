r"""U-scores: trial-based dominance of speed and accuracy (Price, Kumar & Suganthan).

Every trial of every algorithm on a problem instance is compared with every trial of every other
algorithm; an algorithm's U-score on the problem is its number of wins (§3, §3.1). It decided the
CEC 2022 single-objective bound-constrained competition (§5.3, Table 7).

Trial order (§1, Fig. 2; docs/methods.md)
------------------------------------
A trial is the tuple (reached the target?, evaluations to target, final error, evaluations used).
Trial :math:`x` beats trial :math:`y` when

1. :math:`x` reached the target and :math:`y` did not;
2. both reached it and :math:`x` needed fewer evaluations to do so;
3. neither reached it and :math:`x` has the smaller final error;
4. neither reached it, the errors are equal, ``failed_tie_break: evaluations_used`` and
   :math:`x` used fewer evaluations (the CEC 2022 organisers' rule);

otherwise the two trials tie and each scores half a point. A trial is a success when its
``value`` (final error) is :math:`\le` ``target``.

U-score of algorithm :math:`j` on problem :math:`k` (§3.1)
-----------------------------------------------------------
Counting wins, with :math:`[\cdot]` the Iverson bracket,

.. math:: U_{j,k} = \sum_{j' \ne j} \sum_{i, i'} \big([t_{i,j,k} \succ t_{i',j',k}]
          + \tfrac12 [t_{i,j,k} \sim t_{i',j',k}]\big),

and, as a cross-check, by rank sums: rank all :math:`\sum_j n_j` trials so that the best gets the
highest rank (average ranks for ties, ``scipy.stats.rankdata``), then

.. math:: U_{j,k} = R_{j,k} - n_j (n_j + 1)/2 .

Both routes are computed for every problem; if they disagree :class:`UScoresConsistencyError`
is raised (a bug, never a user error). With :math:`n` trials each, :math:`\sum_j U_{j,k} = n^2 m (m-1)/2` (§5.3).
Group totals are :math:`\sum_{k \in g} U_{j,k}`; the total is the sum over groups and the weighted
total :math:`\sum_g w_g \sum_{k \in g} U_{j,k}` (§5.3). Ranks: 1 = largest, equal totals share
the smaller rank.

Pairwise comparisons (§3.1, Tables 3–6)
---------------------------------------
For each problem and pair :math:`(a, b)`: ``wins_a`` + ``wins_b`` :math:`= n_a n_b`, and
:math:`U_a = \sum_b` ``wins_a`` (Table 6). Each trial is mapped to its place in the dominance
order of all trials on the problem (any order-preserving score gives the same test), and
``scipy.stats.mannwhitneyu(..., alternative="two-sided")`` is applied to the two algorithms'
places; its statistic equals ``wins_a`` (checked). The p-value is exact (``method="exact"``)
when the pair's trials contain no tie and each algorithm has at most 100 trials, otherwise
asymptotic with tie and continuity correction (column ``test`` says which).
At level ``alpha`` a pair's problem counts as a win for :math:`a` when :math:`p < \alpha` and
``wins_a`` > ``wins_b``, a loss when :math:`p < \alpha` and ``wins_a`` < ``wins_b``, and a tie
otherwise (the layout of Liu et al., Table I).

Critical weights (§5.3, Table 8)
--------------------------------
With every other group's weight fixed, algorithm :math:`a`'s weighted total is linear in the
weight :math:`w` of group :math:`g`: :math:`T_a(w) = C_a + w G_a`. Two algorithms swap ranks at
:math:`w^* = (C_b - C_a)/(G_a - G_b) > 0`. Every such weight is listed, over the whole range
:math:`(0, \infty)`, with the ranking that holds just beyond it (seen from the current weight;
the paper's Table 8 lists those above 1).

Functional U-scores (§3.3)
--------------------------
Roles exchanged: within a group, every trial (of every algorithm) on problem :math:`k` is compared
with every trial on every other problem of the group by the same order; a problem's functional
U-score is its number of wins, and problems are ranked from easiest (rank 1, most wins) to
hardest. ``share`` is the functional U-score divided by the number of comparisons it took part in.
Problems are ranked by ``share``: with equal trial counts that is the paper's order by wins, and
with unequal ones (allowed, with a caveat) a problem with more trials takes part in more
comparisons, so its win count would make it look easier however its trials fare.
Functional U-scores are computed by the rank-sum route alone: counting wins would compare every
pair of a group's trials (quadratic: 11 M comparisons for a CEC 2022 dimension's 4 680 trials),
and the trial order the rank sums use is the one each problem's U-scores already check against
counted wins.

Cut-points (§5.3's suggestion; needs ``histories``)
---------------------------------------------------
At budget fraction :math:`c` a trial's state is its best-so-far value at :math:`c \cdot B`, and
it is a success when its evaluations to target are :math:`\le c \cdot B`. U-scores, totals and
ranks are recomputed at each cut-point.

Decisions where the paper is silent
-----------------------------------
- *Success* is ``value <= target``; the value is authoritative. A ``trials`` row with a finite
  ``evaluations_to_target`` but a value above the target (e.g. a run that stopped early) is a
  failure and is named in a caveat. A success whose ``evaluations_to_target`` is ∞ ranks behind
  every other success (caveat). Without an ``evaluations_to_target`` column all successes tie on
  speed (caveat). ``evaluations_to_target`` above the ``budget`` option or above the trial's
  ``evaluations_used`` is used as given, with a caveat naming the rows.
- ``failed_tie_break: evaluations_used`` needs the ``evaluations_used`` column of ``trials``;
  without it failed ties score half a point each (caveat). With ``histories``, which record
  improvements only, the tie-break quantity is the evaluation count at which the trial first
  reached its final value — whoever reached the shared basin first wins (§5.3).
- Histories: the budget :math:`B` of a dimension is the ``budget`` option, or by default the
  largest evaluation count recorded in that dimension (a lower bound of the true budget; caveat).
  A trial's state at :math:`c` is taken from its records at or before :math:`c \cdot B`; a trial
  with no record yet has error +∞ (behind every trial with a record), and ties with other such
  trials. At the budget itself such trials are named in a caveat (``runs_without_record``), and
  a given budget before the first record of every run of a dimension is an error at ``budget``:
  every trial would tie, and the U-scores would say nothing. Values that increase within a run are replaced by the running minimum (caveat naming
  the runs). Evaluations to target beyond :math:`B` count as a failure (caveat).
- Groups: ``groups: dimension`` groups problem instances by dimension (``D=10``, ...; the label
  ``all`` when the source has no dimension); ``groups: none`` puts every instance into ``all``.
  Functional U-scores are computed within each group only, since budgets differ by dimension.
- Unequal numbers of runs are allowed (U-scores are still win counts), with a caveat: totals
  then weigh algorithms and problems unequally. Every algorithm needs at least one trial on every
  problem instance.
- Significance: :math:`p < \alpha`, no multiplicity correction (the counts are descriptive).
  Exact p-values only up to 100 trials per algorithm: the exact null distribution's cost grows
  steeply with :math:`n`, and the normal approximation is accurate there.
- Critical weights: weights from (0, ∞) are listed on both sides of the current weight; below
  it, a row's ranking holds below that weight. Two algorithms tied at the current weight are not
  listed as a swap (the totals table shows them tied).

Tables
------
``u_scores`` (group, problem, dimension, algorithm, runs, successes, rank_sum, u_score);
``totals`` (algorithm, one column per group, total, [weighted_total], rank, rank_<group>);
``pairwise`` (group, problem, dimension, algorithm_a, algorithm_b, wins_a, wins_b, p_value,
test); ``win_tie_loss`` (group or ``overall``, algorithm_a, algorithm_b, wins, ties, losses);
``critical_weights`` (see :func:`critical_weights`); ``difficulty`` (group, problem, dimension,
functional_u_score, share, success_rate, rank); ``cutpoints`` (cutpoint, then as ``totals``).

References
----------
K. V. Price, A. Kumar, P. N. Suganthan, "Trial-based dominance enables non-parametric tests to
compare both the speed and accuracy of stochastic optimizers", §3 (Eq. for U via rank sums),
§3.3, §5.3, Tables 2–8. H. B. Mann and D. R. Whitney (1947).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy.stats import mannwhitneyu, rankdata

from reportgen.analyses.mann_whitney import constant_pairs_not_different
from reportgen.data.frames import (
    RUN_KEYS,
    AnalysisData,
    by_problem,
    in_run_order,
    natural_key,
    problem_label,
    run_starts,
    with_columns,
)
from reportgen.errors import InputError, Problem
from reportgen.execution import map_items
from reportgen.present.caveats import Caveat, Naming
from reportgen.present.format import counted, power_of_ten
from reportgen.present.jsonable import frame_records, json_value
from reportgen.spec.analyses.u_scores import UScoresOptions

OVERALL = "overall"
"""Label of the aggregate over every group (pairwise matrices, win/tie/loss counts)."""

EXACT_MAX_RUNS = 100
"""Largest number of trials per algorithm for which exact Mann–Whitney p-values are computed
(the exact null distribution costs time growing steeply with n; beyond it the normal
approximation is accurate)."""

_MAX_NAMED_ROWS = 8
_COMPARE_CHUNK = 512  # trials compared with all others at once when counting wins

_PAIRWISE_COLUMNS = [
    "group",
    "problem",
    "dimension",
    "algorithm_a",
    "algorithm_b",
    "wins_a",
    "wins_b",
    "p_value",
    "test",
]
_CRITICAL_COLUMNS = [
    "group",
    "event",
    "weight",
    "side",
    "passing",
    "passed",
    "rank_after",
    "order_by_baseline_rank",
    "ranking",
]
_STATE_COLUMNS = ["success", "speed", "value", "tie"]


class UScoresConsistencyError(RuntimeError):
    """The win-counting and rank-sum routes disagree: an internal error, never a user error."""


# --------------------------------------------------------------------------------------------
# Trials and the dominance order
# --------------------------------------------------------------------------------------------


class TrialStates(NamedTuple):
    """Trials as parallel arrays (one entry per trial).

    Attributes
    ----------
    success : numpy.ndarray of bool
        Reached the target.
    speed : numpy.ndarray of float
        Evaluations to target (compared between successes only).
    value : numpy.ndarray of float
        Final error (compared between failures only; +∞ allowed).
    tie : numpy.ndarray of float
        Failed tie-break quantity, smaller wins (all zeros when disabled).
    """

    success: np.ndarray
    speed: np.ndarray
    value: np.ndarray
    tie: np.ndarray

    def take(self, index: np.ndarray | slice) -> TrialStates:
        return TrialStates(*(a[index] for a in self))


def compare_trials(a: TrialStates, b: TrialStates) -> np.ndarray:
    """Compare every trial of ``a`` with every trial of ``b`` (Price et al. §1, Fig. 2).

    Returns
    -------
    numpy.ndarray of int8, shape (len(a), len(b))
        +1 where the trial of ``a`` is better, −1 where worse, 0 where they tie.
    """
    sa, sb = a.success[:, None], b.success[None, :]
    # Two successes: fewer evaluations to target wins.
    by_speed = _sign_of_difference(a.speed[:, None], b.speed[None, :])
    # Two failures: smaller error wins; equal errors: the tie-break quantity (zeros if disabled).
    by_error = _sign_of_difference(a.value[:, None], b.value[None, :])
    by_tie = _sign_of_difference(a.tie[:, None], b.tie[None, :])
    by_error = np.where(by_error == 0, by_tie, by_error)
    # A success beats a failure.
    return np.where(sa, np.where(sb, by_speed, 1), np.where(sb, -1, by_error)).astype(np.int8)


def _sign_of_difference(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """+1 where x < y (smaller is better), −1 where x > y, 0 where equal (∞ equals ∞)."""
    return (x < y).view(np.int8) - (x > y).view(np.int8)


def dominance_codes(states: TrialStates) -> np.ndarray:
    """Place of each trial in the dominance order: 0 = best; equal trials share a code.

    The order is the lexicographic order of (failed?, speed if success else error, tie-break if
    failed else 0), smaller first — the trial order of the module docstring.
    """
    primary = (~states.success).astype(float)
    secondary = np.where(states.success, states.speed, states.value)
    tertiary = np.where(states.success, 0.0, states.tie)
    order = np.lexsort((tertiary, secondary, primary))
    keys = np.stack([primary, secondary, tertiary], axis=1)[order]
    new_class = np.ones(len(order), dtype=bool)
    if len(order) > 1:
        new_class[1:] = (keys[1:] != keys[:-1]).any(axis=1)
    codes = np.empty(len(order), dtype=np.int64)
    codes[order] = np.cumsum(new_class) - 1
    return codes


@dataclass(frozen=True)
class _Scores:
    """U-scores of labelled trial sets on one problem (or of problems within a group)."""

    u: np.ndarray  # U per label, by counting wins
    rank_sums: np.ndarray  # R per label (best trial = highest rank)
    wins: np.ndarray  # wins[i, j] = wins of label i against label j
    codes: np.ndarray  # dominance code per trial (0 = best)


def u_scores_of(states: TrialStates, labels: np.ndarray, n_labels: int) -> _Scores:
    """U-scores of ``n_labels`` trial sets, by counting wins and by rank sums (§3.1).

    Parameters
    ----------
    states : TrialStates
        All trials.
    labels : numpy.ndarray of int
        The set (algorithm, or problem for functional U-scores) of each trial, 0..n_labels−1.

    Raises
    ------
    UScoresConsistencyError
        When the two routes disagree.
    """
    members = [np.flatnonzero(labels == j) for j in range(n_labels)]
    # Route 1 (§3.1, last paragraph): compare every trial with every trial and count wins, half
    # a point per tie, summed per pair of sets (in chunks of rows to bound the memory);
    # comparisons within a set are dropped at the end. Points are counted doubled, as whole
    # numbers: 2 × (1 for a win, ½ for a tie, 0 for a loss) = outcome + 1. The trials are taken
    # set by set, so that each set's points of a row are one sum; and each pair is compared
    # once, the comparison being antisymmetric: a chunk of rows meets itself and the trials
    # after it, whose points against the chunk are 2 − (outcome + 1) = 1 − outcome.
    order = np.argsort(labels, kind="stable")
    trials, set_of = states.take(order), labels[order]
    doubled = np.zeros((n_labels, n_labels), dtype=np.int64)
    for start in range(0, len(labels), _COMPARE_CHUNK):
        stop = min(start + _COMPARE_CHUNK, len(labels))
        outcome = compare_trials(trials.take(slice(start, stop)), trials.take(slice(start, None)))
        rows = set_of[start:stop, None]
        for first, last in ((start, stop), (stop, len(labels))):
            columns = set_of[first:last]
            if not len(columns):
                continue
            bounds = np.flatnonzero(np.r_[True, columns[1:] != columns[:-1]])
            sets = columns[bounds]
            sizes = np.diff(np.r_[bounds, len(columns)])
            block = outcome[:, first - start : last - start]
            summed = np.add.reduceat(block, bounds, axis=1, dtype=np.int32)
            np.add.at(doubled, (rows, sets[None, :]), summed + sizes)
            if first == stop:  # the later trials' points against the chunk's
                np.add.at(doubled, (sets[None, :], rows), sizes - summed)
    wins = doubled / 2.0
    np.fill_diagonal(wins, 0.0)
    u_counted = wins.sum(axis=1)
    u_ranked, rank_sums, codes = ranked_u_scores(states, members)
    if not np.allclose(u_counted, u_ranked, rtol=0.0, atol=1e-6):
        raise UScoresConsistencyError(
            f"U-scores by counting wins {u_counted.tolist()} differ from those by rank sums "
            f"{u_ranked.tolist()}"
        )
    return _Scores(u=u_counted, rank_sums=rank_sums, wins=wins, codes=codes)


def ranked_u_scores(
    states: TrialStates, members: Sequence[np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """U-scores by rank sums alone (route 2 of :func:`u_scores_of`, §3.1): rank all trials,
    best = highest rank, ties share the average rank; :math:`U = R - n(n+1)/2`.

    Parameters
    ----------
    states : TrialStates
        All trials.
    members : sequence of numpy.ndarray of int
        The positions in ``states`` of each set's trials.

    Returns
    -------
    u, rank_sums : numpy.ndarray
        Per set.
    codes : numpy.ndarray of int
        :func:`dominance_codes` of ``states``.
    """
    codes = dominance_codes(states)
    ranks = rankdata(-codes, method="average")
    sizes = np.array([len(m) for m in members], dtype=float)
    rank_sums = np.array([ranks[m].sum() for m in members])
    return rank_sums - sizes * (sizes + 1) / 2, rank_sums, codes


def mann_whitney(
    samples: Sequence[np.ndarray], pairs: Sequence[tuple[int, int]]
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Two-sided Mann–Whitney U tests of the given pairs of samples (§3.1).

    ``samples[j]`` holds algorithm ``j``'s places in the dominance order, larger = better (the
    negated dominance codes), so the statistic of pair ``(a, b)`` is the number of wins of ``a``.
    A pair whose pooled sample has no tie and at most :data:`EXACT_MAX_RUNS` trials per algorithm
    gets the exact p-value, otherwise the asymptotic one with tie and continuity correction;
    both from :func:`scipy.stats.mannwhitneyu` (see :func:`mann_whitney_tests`).

    Returns
    -------
    statistics, p_values : numpy.ndarray
    methods : list of {"exact", "asymptotic"}
    """
    return mann_whitney_tests([(samples, pairs)])[0]


def mann_whitney_tests(
    tasks: Sequence[tuple[Sequence[np.ndarray], Sequence[tuple[int, int]]]],
) -> list[tuple[np.ndarray, np.ndarray, list[str]]]:
    """:func:`mann_whitney` of several sets of samples (one per problem) at once.

    :func:`scipy.stats.mannwhitneyu` is called once per (method, sample sizes) on the stacked
    pairs of every task — a CEC 2022 analysis's 24 problems × 78 pairs in two or three calls
    rather than one or two per problem; each row is tested on its own, so the statistics and
    p-values are those of a call per pair.
    """
    out: list[tuple[np.ndarray, np.ndarray, list[str]]] = []
    batches: dict[tuple[str, int, int], list[tuple[int, int]]] = {}
    for t, (samples, pairs) in enumerate(tasks):
        methods = []
        for a, b in pairs:
            # Ties decide only for small samples (larger ones are tested asymptotically anyway).
            exact = max(len(samples[a]), len(samples[b])) <= EXACT_MAX_RUNS
            if exact:
                pooled = np.concatenate([samples[a], samples[b]])
                exact = len(np.unique(pooled)) == len(pooled)
            methods.append("exact" if exact else "asymptotic")
        out.append((np.empty(len(pairs)), np.empty(len(pairs)), methods))
        for k, ((a, b), method) in enumerate(zip(pairs, methods, strict=True)):
            batches.setdefault((method, len(samples[a]), len(samples[b])), []).append((t, k))
    for (method, _, _), members in batches.items():
        x = np.stack([tasks[t][0][tasks[t][1][k][0]] for t, k in members])
        y = np.stack([tasks[t][0][tasks[t][1][k][1]] for t, k in members])
        res = mannwhitneyu(x, y, alternative="two-sided", method=method, axis=1)
        p_values = constant_pairs_not_different(res.pvalue, x, y)
        for i, (t, k) in enumerate(members):
            out[t][0][k] = res.statistic[i]
            out[t][1][k] = p_values[i]
    return out


# --------------------------------------------------------------------------------------------
# Ranks and critical weights
# --------------------------------------------------------------------------------------------


def competition_ranks(scores: np.ndarray) -> np.ndarray:
    """Ranks with 1 = largest score; equal scores share the smaller rank (1, 2, 2, 4)."""
    return rankdata(-np.asarray(scores, dtype=float), method="min").astype(int)


def _order(scores: np.ndarray) -> np.ndarray:
    """Indices from best to worst; equal scores keep their input (study) order."""
    return np.argsort(-np.asarray(scores, dtype=float), kind="stable")


def critical_weights(
    group_totals: pd.DataFrame, group: str, weights: Mapping[str, float] | None = None
) -> pd.DataFrame:
    r"""Every weight of one group at which two algorithms swap ranks (Price et al. §5.3, Table 8).

    Parameters
    ----------
    group_totals : pandas.DataFrame
        Index: algorithms (in the order that breaks ties); columns: group labels; values: the
        group totals :math:`\sum_{k \in g} U_{j,k}`.
    group : str
        The group whose weight varies.
    weights : mapping, optional
        Current weight of each group (default 1); the varied group's current weight is the
        baseline row.

    Returns
    -------
    pandas.DataFrame
        One ``baseline`` row and one ``swap`` row per pair of algorithms whose weighted totals
        cross at a weight :math:`w^* = (C_b - C_a)/(G_a - G_b) > 0`, sorted by weight.
        Columns: ``group``, ``event``, ``weight``, ``side`` ("above"/"below" the baseline: the
        ranking shown holds just beyond ``weight`` on that side), ``passing`` (the algorithm
        ahead beyond the weight), ``passed``, ``rank_after`` (the rank ``passing`` takes),
        ``order_by_baseline_rank`` (Table 8's layout: baseline ranks listed in the new order) and
        ``ranking`` (names, best first).

    Notes
    -----
    :math:`T_a(w) = C_a + w G_a` with :math:`G_a` the total of ``group`` and :math:`C_a` the
    weighted total of the other groups. Between two consecutive critical weights the ranking is
    constant; it is evaluated at the midpoint (or at :math:`2w^*`, :math:`w^*/2` beyond the last
    one), so round-off at the crossing itself cannot reorder it.
    """
    weights = dict(weights or {})
    algorithms = [str(a) for a in group_totals.index]
    g_totals = group_totals[group].to_numpy(dtype=float)
    others = [c for c in group_totals.columns if c != group]
    constant = np.zeros(len(algorithms))
    for column in others:
        constant += weights.get(column, 1.0) * group_totals[column].to_numpy(dtype=float)
    base_weight = float(weights.get(group, 1.0))

    def order_at(w: float) -> np.ndarray:
        return _order(constant + w * g_totals)

    baseline = order_at(base_weight)
    baseline_rank = np.empty(len(algorithms), dtype=int)
    baseline_rank[baseline] = np.arange(1, len(algorithms) + 1)

    crossings: list[tuple[float, int, int]] = []
    for a, b in combinations(range(len(algorithms)), 2):
        slope = g_totals[a] - g_totals[b]
        if slope == 0:
            continue
        w_star = (constant[b] - constant[a]) / slope
        if math.isfinite(w_star) and w_star > 0 and not math.isclose(w_star, base_weight):
            crossings.append((float(w_star), a, b))
    crossings.sort(key=lambda c: (c[0], baseline_rank[c[1]], baseline_rank[c[2]]))

    rows: list[dict[str, Any]] = [
        _critical_row(
            group, "baseline", base_weight, "", "", "", 0, baseline, baseline_rank, algorithms
        )
    ]
    above = sorted({w for w, _, _ in crossings if w > base_weight})
    below = sorted({w for w, _, _ in crossings if w < base_weight}, reverse=True)
    for w_star, a, b in crossings:
        side = "above" if w_star > base_weight else "below"
        steps = above if side == "above" else below
        position = steps.index(w_star)
        if position + 1 < len(steps):
            probe = 0.5 * (w_star + steps[position + 1])
        else:
            probe = 2.0 * w_star if side == "above" else 0.5 * w_star
        new_order = order_at(probe)
        place = np.empty(len(algorithms), dtype=int)
        place[new_order] = np.arange(1, len(algorithms) + 1)
        passing, passed = (a, b) if place[a] < place[b] else (b, a)
        rows.append(
            _critical_row(
                group,
                "swap",
                w_star,
                side,
                algorithms[passing],
                algorithms[passed],
                int(place[passing]),
                new_order,
                baseline_rank,
                algorithms,
            )
        )
    frame = pd.DataFrame(rows, columns=_CRITICAL_COLUMNS)
    frame["rank_after"] = frame["rank_after"].astype("Int64")
    return frame.sort_values("weight", kind="stable").reset_index(drop=True)


def _critical_row(
    group: str,
    event: str,
    weight: float,
    side: str,
    passing: str,
    passed: str,
    rank_after: int,
    order: np.ndarray,
    baseline_rank: np.ndarray,
    names: Sequence[str],
) -> dict[str, Any]:
    return {
        "group": group,
        "event": event,
        "weight": weight,
        "side": side,
        "passing": passing,
        "passed": passed,
        "rank_after": rank_after if event == "swap" else None,
        "order_by_baseline_rank": " ".join(str(int(baseline_rank[i])) for i in order),
        "ranking": " > ".join(names[i] for i in order),
    }


# --------------------------------------------------------------------------------------------
# The result
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One algorithm's row of the totals (Price et al. Table 7).

    ``total``: the sum of its U-scores over every problem; ``weighted_total``: with weights,
    :math:`\\sum_g w_g \\sum_{k \\in g} U_{j,k}`, else ``None``; ``rank``: by the weighted total
    with weights, else by the total (1 = largest; equal scores share the smaller rank);
    ``group_totals`` and ``group_ranks``: per group (ranks only with two or more groups).
    """

    algorithm: str
    rank: int
    total: float
    weighted_total: float | None
    group_totals: dict[str, float]
    group_ranks: dict[str, int]

    @property
    def score(self) -> float:
        """What the rank follows: the weighted total with weights, else the total."""
        return self.total if self.weighted_total is None else self.weighted_total


@dataclass(frozen=True)
class PairRecord:
    """Problems on which ``a`` is significantly better (``wins``), not significantly different
    (``ties``) or significantly worse (``losses``) than ``b`` (Liu et al. Table I)."""

    a: str
    b: str
    wins: int
    ties: int
    losses: int

    def flipped(self) -> PairRecord:
        """The same counts seen from ``b``."""
        return PairRecord(self.b, self.a, self.losses, self.ties, self.wins)


@dataclass(frozen=True)
class PairOnProblem:
    """Two algorithms compared on one problem: the wins of ``a``'s trials against ``b``'s and
    of ``b``'s against ``a``'s, and the two-sided Mann–Whitney p-value."""

    group: str
    problem: str
    dimension: int
    wins_a: float
    wins_b: float
    p_value: float


@dataclass(frozen=True)
class CriticalWeight:
    """One row of Price et al. Table 8 (see :func:`critical_weights` for the columns)."""

    weight: float
    baseline: bool
    side: str
    passing: str
    passed: str
    rank_after: int | None
    order_by_baseline_rank: str


@dataclass(frozen=True)
class ProblemDifficulty:
    """One problem's functional U-score within its group (§3.3; rank 1 = easiest)."""

    group: str
    problem: str
    dimension: int
    functional_u_score: float
    share: float
    success_rate: float
    rank: int


@dataclass(frozen=True)
class UScoresResult:
    """U-scores of a study (see the module docstring for every formula and decision).

    Attributes
    ----------
    algorithms : tuple of str
        Study order.
    groups : tuple of str
        Group labels in order (``D=10``, ``D=20``, ... or ``all``).
    u_scores : pandas.DataFrame
        group, problem, dimension, algorithm, runs, successes, rank_sum, u_score.
    totals : pandas.DataFrame
        algorithm, one column per group, total, [weighted_total], rank, rank_<group>...; rows by
        rank then study order.
    pairwise : pandas.DataFrame
        group, problem, dimension, algorithm_a, algorithm_b, wins_a, wins_b, p_value, test.
    win_tie_loss : pandas.DataFrame
        group (including ``overall`` when there are several groups), algorithm_a,
        algorithm_b, wins, ties, losses — problems on which ``a`` is significantly better,
        not significantly different, significantly worse at ``alpha``.
    critical_weights : pandas.DataFrame
        See :func:`critical_weights`; one block per group (only with two or more groups).
    difficulty : pandas.DataFrame
        group, problem, dimension, functional_u_score, share, success_rate, rank (1 = easiest).
    cutpoints : pandas.DataFrame or None
        cutpoint, algorithm, per-group totals, total, [weighted_total], rank, rank_<group>.
    cutpoint_records : pandas.DataFrame or None
        cutpoint, dimension, budget, evaluations, fraction: the latest evaluation count at or
        below ``cutpoint · budget`` recorded by any run in that dimension, and its share of the
        budget — the state a cut-point actually shows. Histories recorded at fixed checkpoints
        (CEC: 16 per run) make it smaller than the nominal fraction (CEC 2022: 0.5 → 0.40 in
        10-D, 0.30 in 20-D).
    success_times : tuple of int or None
        With histories: (successful trials at the full budget, distinct evaluation counts to
        target among them). Histories time a success only at a record, so successes that differ
        between two records tie on speed; trial data with exact evaluations to target can rank
        differently.
    trial_codes : pandas.DataFrame or None
        problem, dimension, algorithm, code: every trial's place in its problem's dominance
        order at the end of the budget (0 = best, :func:`dominance_codes`), for the run
        bootstrap of the totals (:func:`run_resampled_u_scores`).
    """

    algorithms: tuple[str, ...]
    groups: tuple[str, ...]
    target: float
    failed_tie_break: str
    tie_break_applied: bool
    grouping: str
    weights: dict[str, float] | None
    alpha: float
    input_format: str
    budget: dict[int, float] | None
    u_scores: pd.DataFrame
    totals: pd.DataFrame
    pairwise: pd.DataFrame
    win_tie_loss: pd.DataFrame
    critical_weights: pd.DataFrame
    difficulty: pd.DataFrame
    cutpoints: pd.DataFrame | None
    caveats: tuple[Caveat, ...] = field(default_factory=tuple)
    cutpoint_records: pd.DataFrame | None = None
    success_times: tuple[int, int] | None = None
    trial_codes: pd.DataFrame | None = None

    def cutpoint_label(self, cutpoint: float) -> str:
        """``0.5`` → ``"0.5 (state at 0.40·B in 10-D, 0.30·B in 20-D)"`` where the recorded
        state lies below the nominal fraction (``before any record`` where no run has one by
        then), else ``"0.5"``."""
        if self.cutpoint_records is None:
            return f"{cutpoint:g}"
        rows = self.cutpoint_records[self.cutpoint_records["cutpoint"] == cutpoint]
        actual = [
            (int(d), float(f)) for d, f in zip(rows["dimension"], rows["fraction"], strict=True)
        ]
        if all(math.isclose(f, cutpoint, rel_tol=1e-3) for _, f in actual):
            return f"{cutpoint:g}"
        # NaN: no run of the dimension has a record by c·B yet, so every trial there ties.
        empty = any(math.isnan(f) for _, f in actual)
        where = ", ".join(
            ("before any record" if math.isnan(f) else f"at {f:#.2g}·B" if empty else f"{f:#.2g}·B")
            + (f" in {d}-D" if d else "")
            for d, f in actual
        )
        return f"{cutpoint:g} (state {where})" if empty else f"{cutpoint:g} (state at {where})"

    @functools.cached_property
    def codes_by_problem(self) -> dict[tuple[str, int], tuple[np.ndarray, np.ndarray]]:
        """``trial_codes`` split by (problem, dimension) for :func:`run_resampled_u_scores`:
        each problem's codes grouped by algorithm and its trials per algorithm. Computed once:
        the summary resamples the same result once per dimension group."""
        if self.trial_codes is None:
            raise ValueError("the result keeps no trial codes to resample")
        return _codes_by_problem(self.trial_codes, self.algorithms)

    @property
    def ranking_column(self) -> str:
        """The column the ranks follow: ``weighted_total`` with weights, else ``total``."""
        return "weighted_total" if self.weights is not None else "total"

    def pairwise_groups(self) -> tuple[str, ...]:
        """Groups of the pairwise aggregates: each group, then ``overall`` when several."""
        return (*self.groups, OVERALL) if len(self.groups) > 1 else self.groups

    def wins_matrix(self, group: str) -> pd.DataFrame:
        """Wins of the row algorithm against the column algorithm, summed over the group."""
        rows = self.pairwise if group == OVERALL else self.pairwise[self.pairwise.group == group]
        index = pd.Index(list(self.algorithms))
        a = index.get_indexer(rows["algorithm_a"])
        b = index.get_indexer(rows["algorithm_b"])
        # Wins are whole or half points: their sums are exact in any order.
        matrix = np.zeros((len(index), len(index)))
        np.add.at(matrix, (a, b), rows["wins_a"].to_numpy(dtype=float))
        np.add.at(matrix, (b, a), rows["wins_b"].to_numpy(dtype=float))
        return pd.DataFrame(matrix, index=list(self.algorithms), columns=list(self.algorithms))

    def share_matrix(self, group: str) -> pd.DataFrame:
        """Fraction of trial comparisons the row algorithm wins against the column algorithm
        (NaN on the diagonal)."""
        wins = self.wins_matrix(group).to_numpy()
        with np.errstate(invalid="ignore", divide="ignore"):  # no comparison: NaN
            share = wins / (wins + wins.T)
        np.fill_diagonal(share, np.nan)
        return pd.DataFrame(share, index=list(self.algorithms), columns=list(self.algorithms))

    def pairwise_matrix(self, group: str) -> pd.DataFrame:
        """The paper's Table 6 layout: column = algorithm, row = opponent ("vs."), cell = wins
        of the column algorithm against the row one; the last row ``U-score`` is the column
        sum, the algorithm's U-score (total) in the group."""
        table = self.wins_matrix(group).T
        for a in self.algorithms:
            table.loc[a, a] = np.nan
        table.loc["U-score"] = table.sum(axis=0, skipna=True)
        table.index.name = "vs."
        return table

    # --- views: what presenters read, instead of filtering the long tables ---------------------

    def standings(self) -> tuple[Standing, ...]:
        """Every algorithm's totals and ranks, best first (ties in study order)."""
        several = len(self.groups) > 1
        return tuple(
            Standing(
                algorithm=str(row["algorithm"]),
                rank=int(row["rank"]),
                total=float(row["total"]),
                weighted_total=None if self.weights is None else float(row["weighted_total"]),
                group_totals={g: float(row[g]) for g in self.groups},
                group_ranks={g: int(row[f"rank_{g}"]) for g in self.groups} if several else {},
            )
            for row in self.totals.to_dict(orient="records")
        )

    def headline_group(self) -> str:
        """The group of the headline pairwise aggregates: ``overall`` with several groups."""
        return OVERALL if len(self.groups) > 1 else self.groups[0]

    def pair_records(self, group: str) -> tuple[PairRecord, ...]:
        """Win/tie/loss counts of every tested pair in ``group`` (a group or ``overall``)."""
        rows = self.win_tie_loss[self.win_tie_loss["group"] == group]
        return tuple(
            PairRecord(
                str(r.algorithm_a), str(r.algorithm_b), int(r.wins), int(r.ties), int(r.losses)
            )
            for r in rows.itertuples(index=False)
        )

    def pair_record(self, a: str, b: str, group: str) -> PairRecord:
        """Win/tie/loss counts of ``a`` against ``b`` in ``group`` (``KeyError`` if untested)."""
        for record in self.pair_records(group):
            if (record.a, record.b) == (a, b):
                return record
            if (record.a, record.b) == (b, a):
                return record.flipped()
        raise KeyError((a, b, group))

    def pair_on_problems(self, a: str, b: str) -> tuple[PairOnProblem, ...]:
        """``a`` against ``b`` on every problem they were compared on (``a``'s wins first):
        the table's rows that list ``a`` first, then those that list ``b`` first."""
        pairwise = self.pairwise
        forward = pairwise[(pairwise["algorithm_a"] == a) & (pairwise["algorithm_b"] == b)]
        backward = pairwise[(pairwise["algorithm_a"] == b) & (pairwise["algorithm_b"] == a)]
        out = []
        for rows, ours, theirs in ((forward, "wins_a", "wins_b"), (backward, "wins_b", "wins_a")):
            for r in rows.to_dict(orient="records"):
                out.append(
                    PairOnProblem(
                        str(r["group"]),
                        str(r["problem"]),
                        int(r["dimension"]),
                        float(r[ours]),
                        float(r[theirs]),
                        float(r["p_value"]),
                    )
                )
        return tuple(out)

    def current_weights(self) -> dict[str, float]:
        """Each group's weight (1 without weights)."""
        return self.weights or {g: 1.0 for g in self.groups}

    def critical_groups(self) -> tuple[str, ...]:
        """Groups whose critical weights the report shows: every group when more than two,
        the last of two, none of one."""
        if len(self.groups) < 2:
            return ()
        return self.groups if len(self.groups) > 2 else self.groups[-1:]

    def critical_weights_of(self, group: str) -> tuple[CriticalWeight, ...]:
        """The baseline and every swap of ``group``'s weight, by weight (Table 8)."""
        rows = self.critical_weights[self.critical_weights["group"] == group]
        return tuple(
            CriticalWeight(
                weight=float(r["weight"]),
                baseline=r["event"] == "baseline",
                side=str(r["side"]),
                passing=str(r["passing"]),
                passed=str(r["passed"]),
                rank_after=None if r["event"] == "baseline" else int(r["rank_after"]),
                order_by_baseline_rank=str(r["order_by_baseline_rank"]),
            )
            for r in rows.to_dict(orient="records")
        )

    def difficulties(self, group: str | None = None) -> tuple[ProblemDifficulty, ...]:
        """Problems from easiest to hardest within each group (of ``group`` only, if given)."""
        rows = self.difficulty
        if group is not None:
            rows = rows[rows["group"] == group]
        return tuple(
            ProblemDifficulty(
                str(r.group),
                str(r.problem),
                int(r.dimension),
                float(r.functional_u_score),
                float(r.share),
                float(r.success_rate),
                int(r.rank),
            )
            for r in rows.itertuples(index=False)
        )

    def u_score_matrix(self) -> pd.DataFrame:
        """:math:`U_{j,k}`: problems (index ``problem``, ``dimension``; table order) ×
        algorithms (study order)."""
        return by_problem(self.u_scores, "u_score", self.algorithms)

    def problem_instances(self) -> tuple[tuple[str, int], ...]:
        """The (problem, dimension) pairs in the table's order (group by group)."""
        keys = zip(self.u_scores["problem"], self.u_scores["dimension"], strict=True)
        return tuple(dict.fromkeys((str(p), int(d)) for p, d in keys))

    def run_counts(self) -> tuple[int, ...]:
        """The distinct numbers of runs per (problem, algorithm), increasing."""
        return tuple(sorted({int(n) for n in self.u_scores["runs"]}))

    def cutpoint_fractions(self) -> tuple[float, ...]:
        """The cut-points, increasing (empty without cut-points)."""
        if self.cutpoints is None:
            return ()
        return tuple(float(c) for c in sorted(self.cutpoints["cutpoint"].unique()))

    def ranks_at_cutpoint(self, cutpoint: float, group: str | None = None) -> dict[str, int]:
        """Each algorithm's rank at ``cutpoint`` by the (weighted) total, or within ``group``."""
        assert self.cutpoints is not None
        rows = self.cutpoints[self.cutpoints["cutpoint"] == cutpoint]
        column = "rank" if group is None else f"rank_{group}"
        return {str(a): int(r) for a, r in zip(rows["algorithm"], rows[column], strict=True)}

    def tables(self) -> dict[str, pd.DataFrame]:
        out = {
            "u_scores": self.u_scores.copy(),
            "totals": self.totals.copy(),
            "pairwise": self.pairwise.copy(),
            "win_tie_loss": self.win_tie_loss.copy(),
            "critical_weights": self.critical_weights.copy(),
            "difficulty": self.difficulty.copy(),
        }
        if self.cutpoints is not None:
            out["cutpoints"] = self.cutpoints.copy()
        if self.cutpoint_records is not None:
            out["cutpoint_records"] = self.cutpoint_records.copy()
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "u_scores",
            "parameters": {
                "target": self.target,
                "failed_tie_break": self.failed_tie_break,
                "tie_break_applied": self.tie_break_applied,
                "groups": self.grouping,
                "weights": self.weights,
                "alpha": self.alpha,
                "input_format": self.input_format,
                "budget": (
                    None
                    if self.budget is None
                    else {str(k): json_value(v) for k, v in self.budget.items()}
                ),
            },
            "success_times": (
                None
                if self.success_times is None
                else {"successes": self.success_times[0], "distinct": self.success_times[1]}
            ),
            "algorithms": list(self.algorithms),
            "groups": list(self.groups),
            "tables": {name: frame_records(frame) for name, frame in self.tables().items()},
            "caveats": [c.to_json() for c in self.caveats],
        }


# --------------------------------------------------------------------------------------------
# compute
# --------------------------------------------------------------------------------------------


def compute(data: AnalysisData, options: UScoresOptions) -> UScoresResult:
    """Compute U-scores, totals, pairwise tests, critical weights, difficulty and cut-points.

    Parameters
    ----------
    data : AnalysisData
        ``trials`` (``value`` = final error; ``evaluations_to_target``, ∞ = not reached;
        optional ``evaluations_used``) or ``histories`` (the target is applied to the curves).
    options : UScoresOptions
        See :mod:`reportgen.spec.analyses.u_scores`.

    Returns
    -------
    UScoresResult

    Raises
    ------
    InputError
        Summary data, cut-points without histories, a missing (algorithm, problem) cell, fewer
        than two algorithms, weights or budgets for dimensions the data lacks.

    Examples
    --------
    The paper's Fig. 2 / Table 2: trials ordered best to worst ``p r q q r p q p r q p r``
    (seven successes, then five failures) give U-scores P 16, Q 18, R 14.

    >>> from reportgen.data.frames import AnalysisData
    >>> order = "prqqrpqprqpr"
    >>> rows = [dict(algorithm=a.upper(), problem="f1", dimension=0, run=i,
    ...              value=0.0 if i < 7 else float(i),
    ...              evaluations_to_target=float(i + 1) if i < 7 else float("inf"))
    ...         for i, a in enumerate(order)]
    >>> data = AnalysisData("trials", pd.DataFrame(rows), ("P", "Q", "R"), (("f1", 0),))
    >>> opts = UScoresOptions(kind="u_scores", data="runs", target=0.0)
    >>> compute(data, opts).u_scores["u_score"].tolist()
    [16.0, 18.0, 14.0]
    """
    caveats: list[Caveat] = []
    _check_input(data, options)
    algorithms = data.algorithms
    problems = tuple(data.problems)
    tie_break = options.failed_tie_break == "evaluations_used"

    # Trial states at the end of the budget (and at each cut-point, with histories).
    budget: dict[int, float] | None = None
    cut_records = None
    if data.format == "trials":
        states, tie_applied = _trial_states(data, options, tie_break, caveats)
        states_at_cuts: dict[float, pd.DataFrame] = {}
    else:
        states, states_at_cuts, budget, cut_records = _histories_states(
            data, options, tie_break, caveats
        )
        tie_applied = tie_break
    states = _restrict(states, algorithms, problems)
    states_at_cuts = {c: _restrict(s, algorithms, problems) for c, s in states_at_cuts.items()}
    _check_design(states, algorithms, problems, caveats)

    group_of = {p: _group_label(p[1], options.groups) for p in problems}
    groups = tuple(dict.fromkeys(group_of[p] for p in problems))
    weights = _resolve_weights(options, problems, group_of)
    user_weights = weights if options.weights is not None else None

    # Per problem: U-scores by both routes, pairwise wins and Mann–Whitney tests (§3.1).
    u_rows, pair_rows, trial_codes = _score_problems(
        states, algorithms, problems, group_of, with_tests=True
    )
    u_frame = pd.DataFrame(u_rows)
    pairwise = pd.DataFrame(pair_rows, columns=_PAIRWISE_COLUMNS)
    _note_ties(pairwise, caveats)

    totals = _totals(u_frame, algorithms, groups, user_weights)
    win_tie_loss = _win_tie_loss(pairwise, groups, options.alpha)

    # Critical weights (§5.3, Table 8), for each group in turn.
    if len(groups) > 1:
        group_totals = totals.set_index("algorithm").loc[list(algorithms), list(groups)]
        critical = pd.concat(
            [critical_weights(group_totals, g, weights) for g in groups], ignore_index=True
        )
    else:
        critical = pd.DataFrame(columns=_CRITICAL_COLUMNS)

    difficulty = _difficulty(states, problems, group_of, groups)

    cut_frame = None
    success_times = None
    if budget is not None:
        successful = states.loc[states["success"].to_numpy(dtype=bool), "speed"]
        success_times = (len(successful), int(successful.nunique()))
    if states_at_cuts:
        frames = []
        for c, cut_states in states_at_cuts.items():
            rows, _, _ = _score_problems(
                cut_states, algorithms, problems, group_of, with_tests=False
            )
            t = _totals(pd.DataFrame(rows), algorithms, groups, user_weights)
            t.insert(0, "cutpoint", c)
            frames.append(t)
        cut_frame = pd.concat(frames, ignore_index=True)

    return UScoresResult(
        algorithms=algorithms,
        groups=groups,
        target=options.target,
        failed_tie_break=options.failed_tie_break,
        tie_break_applied=tie_applied,
        grouping=options.groups,
        weights=user_weights,
        alpha=options.alpha,
        input_format=data.format,
        budget=budget,
        u_scores=u_frame,
        totals=totals,
        pairwise=pairwise,
        win_tie_loss=win_tie_loss,
        critical_weights=critical,
        difficulty=difficulty,
        cutpoints=cut_frame,
        caveats=tuple(caveats),
        cutpoint_records=cut_records,
        success_times=success_times,
        trial_codes=trial_codes,
    )


def run_resampled_u_scores(
    result: UScoresResult,
    problems: Sequence[tuple[str, int]],
    slots: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    r"""U-scores recomputed on resamples of the trials (the run bootstrap of the totals).

    Each slot (a problem drawn into a bootstrap resample) gets, for every algorithm, its
    :math:`n_j` trials on that problem drawn with replacement; the U-scores of the drawn trials
    follow from their places in the problem's dominance order by the rank-sum route (§3.1):
    with :math:`h(c)` drawn trials at place :math:`c` and :math:`w(c)` drawn trials worse,
    a trial at :math:`c` has the average rank :math:`w(c) + (h(c) + 1)/2` (best = highest),
    and :math:`U_j = R_j - n_j(n_j + 1)/2`. The order of trials is fixed by the problem's
    full sample: drawing trials changes which trials take part, never how two compare.

    Parameters
    ----------
    result : UScoresResult
        With ``trial_codes``.
    problems : sequence of (str, int)
        (problem, dimension) keys, the rows that ``slots`` index.
    slots : numpy.ndarray of int
        ``[B, n]`` rows of ``problems``.
    rng : numpy.random.Generator

    Returns
    -------
    numpy.ndarray
        ``[B, n, algorithms]`` U-scores, algorithms in ``result.algorithms`` order.
    """
    if result.trial_codes is None:
        raise ValueError("the result keeps no trial codes to resample")
    by_problem = result.codes_by_problem
    out = np.empty((*slots.shape, len(result.algorithms)))
    for row, key in enumerate(problems):
        where = np.nonzero(slots == row)
        if not len(where[0]):
            continue
        codes, sizes = by_problem[(key[0], key[1])]
        out[where] = resampled_u_scores(codes, sizes, len(where[0]), rng)
    return out


def _codes_by_problem(
    trial_codes: pd.DataFrame, algorithms: Sequence[str]
) -> dict[tuple[str, int], tuple[np.ndarray, np.ndarray]]:
    """Per (problem, dimension): the dominance codes grouped by algorithm (study order, each
    algorithm's in row order) and the trials per algorithm, as :func:`resampled_u_scores`
    reads them — one sort of every trial by (problem, algorithm)."""
    instance = pd.MultiIndex.from_arrays([trial_codes["problem"], trial_codes["dimension"]])
    problem, keys = instance.factorize()
    label = pd.Index(list(algorithms)).get_indexer(trial_codes["algorithm"])
    # Stable: each algorithm's trials stay in row order within their problem.
    order = np.lexsort((label, problem))
    codes = trial_codes["code"].to_numpy(dtype=np.intp)[order]
    bounds = np.searchsorted(problem[order], np.arange(len(keys) + 1))
    return {
        (str(p), int(d)): (
            codes[bounds[k] : bounds[k + 1]],
            np.bincount(label[order[bounds[k] : bounds[k + 1]]], minlength=len(algorithms)),
        )
        for k, (p, d) in enumerate(keys)
    }


def resampled_u_scores(
    codes: np.ndarray, sizes: np.ndarray, resamples: int, rng: np.random.Generator
) -> np.ndarray:
    """U-scores of ``resamples`` draws of one problem's trials (see :func:`run_resampled_u_scores`).

    Parameters
    ----------
    codes : numpy.ndarray of int
        Dominance codes of the trials, grouped by algorithm (``sizes[j]`` trials of the
        ``j``-th in turn).
    sizes : numpy.ndarray of int
        Trials per algorithm (each at least one).

    Returns
    -------
    numpy.ndarray
        ``[resamples, algorithms]``.

    Examples
    --------
    The paper's Fig. 2 (order ``p r q q r p q p r q p r``, best first, no ties): each
    algorithm's four trials drawn with replacement; the U-scores always sum to
    :math:`n^2 m(m-1)/2 = 48`.

    >>> order = "prqqrpqprqpr"
    >>> codes = np.array([i for a in "pqr" for i, t in enumerate(order) if t == a])
    >>> u = resampled_u_scores(codes, np.array([4, 4, 4]), 5, np.random.default_rng(1))
    >>> u.sum(axis=1).tolist()
    [48.0, 48.0, 48.0, 48.0, 48.0]
    """
    total = len(codes)
    starts = np.cumsum(sizes) - sizes
    labels = np.repeat(np.arange(len(sizes)), sizes)
    # float32 draws: exact enough to pick one of at most 10⁶ trials, half the cost of float64
    uniform = rng.random((resamples, total), dtype=np.float32)
    if (sizes == sizes[0]).all():  # the usual design: one float32 factor, not one per trial
        uniform *= np.float32(sizes[0])
    else:
        uniform *= sizes[labels].astype(np.float32)
    places = int(codes.max()) + 1
    # 32-bit indices where every count fits (always, short of 2³¹ places × resamples): half
    # the memory traffic of the int64 ones in each pass below, and a cheaper conversion.
    small = resamples * places < 2**31
    index: type[np.integer[Any]] = np.int32 if small else np.intp
    draw: np.ndarray = uniform.astype(index)
    if _may_round_up(sizes):  # float32 rounding up to n (not for the usual run counts)
        np.minimum(draw, (sizes - 1)[labels].astype(index), out=draw)
    draw += starts[labels].astype(index)
    # place of each drawn trial, offset per resample: one bincount counts every resample
    flat: np.ndarray = np.take(codes.astype(index), draw)
    flat += (places * np.arange(resamples, dtype=index))[:, None]
    held = np.bincount(flat.ravel(), minlength=resamples * places).reshape(resamples, places)
    # Twice the rank, in integers: 2·worse + held + 1 with worse = total − cumsum(held). The
    # rank sums are then exact integer sums, halved once (the same half-integers as summing
    # the ranks themselves, which are exact in any order, without a floating-point pass).
    twice: np.ndarray = np.cumsum(held, axis=1, dtype=index)
    twice *= -2
    twice += held.astype(index)
    twice += 2 * total + 1
    rank_sums = np.add.reduceat(np.take(twice, flat), starts, axis=1, dtype=np.int64) * 0.5
    return rank_sums - sizes * (sizes + 1) / 2.0


def _may_round_up(sizes: np.ndarray) -> bool:
    """Whether ``floor(u · n)`` in float32 can reach ``n`` for some size ``n`` and some
    ``u < 1`` (the largest float32 below 1 times ``n`` rounding up to ``n``)."""
    largest = np.float32(1.0) - np.float32(2.0**-24)
    return bool((np.floor(largest * sizes.astype(np.float32)) >= sizes).any())


# ----- input ---------------------------------------------------------------------------------


def _check_input(data: AnalysisData, options: UScoresOptions) -> None:
    where = "data"
    if len(data.algorithms) < 2:
        raise InputError(
            Problem(where, f"U-scores need at least two algorithms, got {list(data.algorithms)}")
        )
    needed = {"trials": ["value"], "histories": ["evaluations", "value"]}[data.format]
    missing = [c for c in (*RUN_KEYS, *needed) if c not in data.frame.columns]
    if missing:
        raise InputError(Problem(where, f"the {data.format} table lacks the column(s) {missing}"))


def _group_label(dimension: int, grouping: str) -> str:
    if grouping == "none" or dimension == 0:
        return "all"
    return f"D={dimension}"


def _resolve_weights(
    options: UScoresOptions,
    problems: Sequence[tuple[str, int]],
    group_of: Mapping[tuple[str, int], str],
) -> dict[str, float]:
    dimensions = sorted({d for _, d in problems})
    groups = dict.fromkeys(group_of[p] for p in problems)
    weights = {g: 1.0 for g in groups}
    for dimension, weight in (options.weights or {}).items():
        if dimension not in dimensions:
            raise InputError(
                Problem(
                    "weights",
                    f"weight given for dimension {dimension}, but the data has dimensions "
                    f"{dimensions}",
                )
            )
        weights[_group_label(dimension, options.groups)] = float(weight)
    return weights


def _runs_caveat(code: str, message: str, frame: pd.DataFrame) -> Caveat:
    """A caveat about runs, naming them 'A on f3 (D=10) run 5; …' (the first few, then 'and N
    more'), each algorithm by its label in the report."""
    named = Naming()
    names = [
        f"{named(str(r.algorithm))} on {problem_label(str(r.problem), int(r.dimension))} run {r.run}"
        for r in frame.head(_MAX_NAMED_ROWS).itertuples(index=False)
    ]
    more = len(frame) - len(names)
    return named.caveat(
        code, message, "; ".join(names) + (f"; and {more} more" if more > 0 else "")
    )


def _budget_of(options: UScoresOptions, dimension: int) -> float | None:
    if options.budget is None:
        return None
    if isinstance(options.budget, dict):
        value = options.budget.get(dimension)
        return None if value is None else float(value)
    return float(options.budget)


def _trial_states(
    data: AnalysisData, options: UScoresOptions, tie_break: bool, caveats: list[Caveat]
) -> tuple[pd.DataFrame, bool]:
    """Trials → states (success, speed, value, tie), with the data checks of the issue."""
    # One row per run, gathered problem by problem (a partitioned source is read there).
    frame = data.per_run(
        functools.partial(
            with_columns,
            columns=(*RUN_KEYS, "value", "evaluations_to_target", "evaluations_used"),
        )
    )
    value = frame["value"].to_numpy(dtype=float)
    success = value <= options.target
    has_ett = "evaluations_to_target" in frame.columns
    ett = frame["evaluations_to_target"].to_numpy(dtype=float) if has_ett else np.zeros(len(frame))
    if has_ett:
        claimed = np.isfinite(ett) & ~success
        if claimed.any():
            caveats.append(
                _runs_caveat(
                    "success_above_target",
                    f"{counted(int(claimed.sum()), 'trial', 'report')} evaluations to target but end with "
                    f"an error above the target {power_of_ten(options.target)}; they count as failures.",
                    frame[claimed],
                )
            )
        unreported = success & ~np.isfinite(ett)
        if unreported.any():
            caveats.append(
                _runs_caveat(
                    "success_without_evaluations_to_target",
                    f"{counted(int(unreported.sum()), 'trial', 'reach')} the target but report no "
                    "evaluations to target (∞); they rank behind every other success.",
                    frame[unreported],
                )
            )
        limit = np.full(len(frame), np.inf)
        if options.budget is not None:
            dims = frame["dimension"].to_numpy()
            for d in np.unique(dims):
                b = _budget_of(options, int(d))
                if b is not None:
                    limit[dims == d] = b
        if "evaluations_used" in frame.columns:
            limit = np.minimum(limit, frame["evaluations_used"].to_numpy(dtype=float))
        over = np.isfinite(ett) & (ett > limit)
        if over.any():
            caveats.append(
                _runs_caveat(
                    "evaluations_to_target_above_budget",
                    f"{counted(int(over.sum()), 'trial', 'report')} more evaluations to target than their "
                    "budget (or than the evaluations they used); their values are used as given.",
                    frame[over],
                )
            )
    else:
        caveats.append(
            Caveat(
                "no_evaluations_to_target",
                "The data has no evaluations to target: trials that reach the target all tie "
                "with each other, and U-scores reward accuracy and success only.",
            )
        )
    tie = np.zeros(len(frame))
    tie_applied = False
    if tie_break:
        if "evaluations_used" in frame.columns:
            tie = frame["evaluations_used"].to_numpy(dtype=float)
            tie_applied = True
        else:
            caveats.append(
                Caveat(
                    "tie_break_unavailable",
                    "failed_tie_break is 'evaluations_used' but the data has no evaluations "
                    "used: failed trials with equal errors score half a point each.",
                )
            )
    states = frame[list(RUN_KEYS)].copy()
    states["success"] = success
    states["speed"] = np.where(success, ett, np.inf)
    states["value"] = value
    states["tie"] = np.where(success, 0.0, tie)
    return states.reset_index(drop=True), tie_applied


def _histories_states(
    data: AnalysisData, options: UScoresOptions, tie_break: bool, caveats: list[Caveat]
) -> tuple[pd.DataFrame, dict[float, pd.DataFrame], dict[int, float], pd.DataFrame | None]:
    """Each run's state at the budget and at each cut-point, computed problem by problem.

    The budget of each dimension is resolved first (given, or the largest evaluation count
    recorded in it: a caveat); each problem's work item (:meth:`AnalysisData.map_problems`)
    then enforces best-so-far and returns its runs' states, the runs it found rising or late
    and, per cut-point, its latest record at or below the cut — one row per run at most.

    Returns
    -------
    states, states_at_cuts, budget, cut_records
        The states at the budget and by cut-point (in run order), the budget per dimension,
        and per cut-point and dimension the latest record at or below ``c · B`` (None without
        cut-points).
    """
    budget: dict[int, float] = {}
    inferred = []
    largest: dict[int, float] | None = None
    for d in sorted({d for _, d in data.problems}):
        given = _budget_of(options, d)
        if given is None:
            if isinstance(options.budget, dict):
                raise InputError(
                    Problem(
                        "budget",
                        f"no budget given for dimension {d}; budgets are given for "
                        f"{sorted(options.budget)}",
                    )
                )
            largest = largest if largest is not None else data.last_evaluations()
            given = largest[d]
            inferred.append(f"D={d}: {given:g}")
        budget[d] = given
    cutpoints = list(dict.fromkeys(options.cutpoints or []))
    parts = data.map_problems(
        functools.partial(
            _problem_states,
            budget=budget,
            fractions=(1.0, *cutpoints),
            target=options.target,
            tie_break=tie_break,
            algorithms=tuple(data.algorithms),
        )
    )
    rising = in_run_order([part.rising for part in parts])
    if len(rising):
        records = sum(part.rising_records for part in parts)
        caveats.append(
            _runs_caveat(
                "not_best_so_far",
                f"{counted(len(rising), 'run', 'have')} values that increase within the run "
                f"({records} records); their running minimum is used.",
                rising,
            )
        )
    if inferred:
        caveats.append(
            Caveat(
                "budget_inferred",
                "No budget was given; the budget of each dimension is the largest evaluation "
                "count recorded in it (a lower bound of the true budget): " + ", ".join(inferred),
            )
        )
    late = in_run_order([part.late for part in parts])
    if len(late):
        caveats.append(
            _runs_caveat(
                "evaluations_to_target_above_budget",
                f"{counted(len(late), 'trial', 'reach')} the target only after the budget; they count as "
                "failures.",
                late,
            )
        )
    _check_recorded(parts, data.problems, budget, caveats)
    states, *cut_states = _states_in_run_order(parts, 1 + len(cutpoints))
    at_cuts = dict(zip(cutpoints, cut_states, strict=True))
    cut_records = None
    if cutpoints:
        rows = []
        for k, c in enumerate(cutpoints):
            for dimension, b in budget.items():
                seen = [
                    part.latest[k]
                    for part, (_, d) in zip(parts, data.problems, strict=True)
                    if d == dimension and not math.isnan(part.latest[k])
                ]
                latest = max(seen) if seen else math.nan
                rows.append(
                    {
                        "cutpoint": c,
                        "dimension": int(dimension),
                        "budget": float(b),
                        "evaluations": latest,
                        "fraction": latest / b,
                    }
                )
        cut_records = pd.DataFrame(
            rows, columns=["cutpoint", "dimension", "budget", "evaluations", "fraction"]
        )
    return states, at_cuts, budget, cut_records


def _check_recorded(
    parts: Sequence[_ProblemStates],
    problems: Sequence[tuple[str, int]],
    budget: Mapping[int, float],
    caveats: list[Caveat],
) -> None:
    """Runs without a record at or before the budget have no state there: they count as
    failures without a value (worse than any run with one), with a caveat. A budget before
    every run's first record in a dimension is an error at ``budget``: every trial would tie,
    and the U-scores would rank nothing (a budget of 1 for runs first logged at 100)."""
    unrecorded = in_run_order([part.unrecorded for part in parts])
    if not len(unrecorded):
        return
    for dimension, b in budget.items():
        runs = sum(
            len(part.runs) for part, (_, d) in zip(parts, problems, strict=True) if d == dimension
        )
        mine = unrecorded[unrecorded["dimension"] == dimension]
        if runs and len(mine) == runs:
            raise InputError(
                Problem(
                    "budget",
                    f"the budget {b:g} of dimension {dimension} ends before the first record of "
                    f"every run (the earliest at {mine['evaluations'].min():g} evaluations): no "
                    "trial has a state at it",
                )
            )
    caveats.append(
        _runs_caveat(
            "runs_without_record",
            f"{counted(len(unrecorded), 'run', 'have')} no record at or before the budget; they "
            "count as failures with no value (behind every run that has one).",
            unrecorded,
        )
    )


def _states_in_run_order(parts: Sequence[_ProblemStates], fractions: int) -> list[pd.DataFrame]:
    """Each fraction's states of every problem's runs as one table in run order (the run keys
    sorted as :func:`~reportgen.data.frames.in_run_order` sorts them, then success, speed,
    value, tie): the keys concatenated and sorted once, each fraction's columns put in that
    order, rather than a table per problem and fraction concatenated and sorted again."""
    offsets = np.cumsum([0, *(len(part.runs) for part in parts)])
    keys = in_run_order(
        [
            part.runs.assign(_order=np.arange(offsets[k], offsets[k + 1]))
            for k, part in enumerate(parts)
        ]
    )
    order = keys.pop("_order").to_numpy(dtype=np.intp) if "_order" in keys else np.array([], int)
    tables = []
    for k in range(fractions):
        table = keys.copy()
        for column in ("success", "speed", "value", "tie"):
            values = [part.states[k][column] for part in parts]
            table[column] = np.concatenate(values)[order] if values else np.array([])
        tables.append(table)
    return tables


@dataclass(frozen=True)
class _ProblemStates:
    """One problem's runs reduced to their states (a work item's result: a row per run)."""

    runs: pd.DataFrame
    """The run keys, a row per run."""
    states: tuple[dict[str, np.ndarray], ...]
    """The runs' states at each fraction of the budget (1 first, then the cut-points): success,
    speed, value, tie, in the order of ``runs``."""
    rising: pd.DataFrame
    """Runs whose values increase somewhere (their running minimum is used)."""
    rising_records: int
    late: pd.DataFrame
    """Runs that reach the target only after the budget."""
    latest: tuple[float, ...]
    """Per cut-point: the latest record of the study's algorithms at or below ``c · B``."""
    unrecorded: pd.DataFrame
    """Runs whose first record comes after the budget (``evaluations``: that record's)."""


def _problem_states(
    frame: pd.DataFrame,
    *,
    budget: Mapping[int, float],
    fractions: Sequence[float],
    target: float,
    tie_break: bool,
    algorithms: Sequence[str],
) -> _ProblemStates:
    """Sort one problem's histories, enforce best-so-far, and take its runs' states."""
    keys = list(RUN_KEYS)
    history = frame[[*keys, "evaluations", "value"]].sort_values(
        [*keys, "evaluations"], kind="stable"
    )
    history = history.reset_index(drop=True)
    starts = run_starts(history)
    lengths = np.diff(np.append(starts, len(history)))
    run_of = np.repeat(np.arange(len(starts)), lengths)
    raw = history["value"].to_numpy(dtype=float)
    value = pd.Series(raw).groupby(run_of, sort=False, observed=True).cummin().to_numpy(dtype=float)
    rising = raw > value
    history["value"] = value
    runs = history[keys].iloc[starts].reset_index(drop=True)
    evaluations = history["evaluations"].to_numpy(dtype=float)
    # Best-so-far values never increase within a run (sorted by evaluations), so the records
    # at or below the target are the run's last ones: the first of them is reached first.
    above_target = (
        np.add.reduceat((value > target).astype(np.intp), starts) if len(starts) else starts
    )
    reached = above_target < lengths
    ett = evaluations[np.where(reached, starts + above_target, 0)]
    limit = history["dimension"].iloc[starts].map(budget).to_numpy(dtype=float)
    is_late = reached & (ett > limit)
    late = runs[is_late].reset_index(drop=True)
    late["evaluations"] = ett[is_late]
    first_record = evaluations[starts]
    after = first_record > limit
    unrecorded = runs[after].reset_index(drop=True)
    unrecorded["evaluations"] = first_record[after]
    mine = history["algorithm"].isin(list(algorithms)).to_numpy()
    cut = history["dimension"].map(budget).to_numpy(dtype=float)
    latest = []
    for c in fractions[1:]:
        seen = evaluations[mine & (evaluations <= c * cut)]
        latest.append(float(seen.max()) if len(seen) else math.nan)
    runs_at = _RunRecords(starts, run_of, evaluations, value, above_target, cut[starts])
    return _ProblemStates(
        runs=runs,
        states=tuple(_history_states(runs_at, f, tie_break) for f in fractions),
        rising=history.loc[rising, keys].drop_duplicates() if rising.any() else runs.iloc[:0],
        rising_records=int(rising.sum()),
        late=late,
        latest=tuple(latest),
        unrecorded=unrecorded,
    )


class _RunRecords(NamedTuple):
    """One problem's best-so-far records (sorted by run, then evaluations) as arrays."""

    starts: np.ndarray  # first record of each run
    run_of: np.ndarray  # run of each record (0, 1, … in run order)
    evaluations: np.ndarray
    value: np.ndarray  # best so far: never increases within a run
    above_target: np.ndarray  # records per run with a value above the target (its first ones)
    budget: np.ndarray  # the budget of each run's dimension


def _history_states(
    records: _RunRecords, fraction: float, tie_break: bool
) -> dict[str, np.ndarray]:
    """Each run's state at ``fraction`` of its dimension's budget (best-so-far curves).

    The records seen by the cut are the first ``k`` of each run (evaluations increase), so
    the run's value there is its ``k``-th record's, reached at the first record holding that
    value (the failed tie-break), and it succeeded if a record at or below the target is
    among the ``k``.
    """
    starts = records.starts
    seen = records.evaluations <= records.budget[records.run_of] * fraction
    k = np.add.reduceat(seen.astype(np.intp), starts) if len(starts) else starts
    has = k > 0
    last = np.where(has, records.value[np.maximum(starts + k - 1, 0)], np.inf)
    # Records seen before the run's last value was first reached (the value never increases).
    before = seen & (records.value > last[records.run_of])
    first = starts + (np.add.reduceat(before.astype(np.intp), starts) if len(starts) else starts)
    tie = np.where(has, records.evaluations[np.minimum(first, len(seen) - 1)], np.inf)
    success_row = starts + records.above_target
    reached = records.above_target < k
    speed = np.where(reached, records.evaluations[np.where(reached, success_row, 0)], np.inf)
    success = np.isfinite(speed)
    return {
        "success": success,
        "speed": speed,
        "value": last,
        "tie": np.where(success, 0.0, tie if tie_break else 0.0),
    }


def _restrict(
    states: pd.DataFrame, algorithms: Sequence[str], problems: Sequence[tuple[str, int]]
) -> pd.DataFrame:
    """Only the study's algorithms and problem instances."""
    instance = pd.MultiIndex.from_arrays([states["problem"], states["dimension"]])
    keep = states["algorithm"].isin(list(algorithms)).to_numpy() & instance.isin(list(problems))
    return states[keep].reset_index(drop=True)


def _check_design(
    states: pd.DataFrame,
    algorithms: Sequence[str],
    problems: Sequence[tuple[str, int]],
    caveats: list[Caveat],
) -> None:
    counts = states.groupby(["algorithm", "problem", "dimension"], observed=True).size()
    present = set(counts.index)
    missing = [
        f"{a} on {problem_label(p, d)}"
        for p, d in problems
        for a in algorithms
        if (a, p, d) not in present
    ]
    if missing:
        shown = ", ".join(missing[:_MAX_NAMED_ROWS])
        more = (
            f" and {len(missing) - _MAX_NAMED_ROWS} more" if len(missing) > _MAX_NAMED_ROWS else ""
        )
        raise InputError(
            Problem(
                "data",
                "every algorithm needs trials on every problem instance to be compared; "
                f"no trials for {shown}{more}",
            )
        )
    sizes = sorted({int(n) for n in counts.to_numpy()})
    if len(sizes) > 1:
        caveats.append(
            Caveat(
                "unequal_runs",
                f"Numbers of runs differ ({sizes[0]} to {sizes[-1]}): an algorithm with more "
                "runs takes part in more comparisons, so totals weigh algorithms and problems "
                "unequally.",
            )
        )


# ----- scoring -------------------------------------------------------------------------------


def _states_of(frame: pd.DataFrame) -> TrialStates:
    return TrialStates(
        success=frame["success"].to_numpy(dtype=bool),
        speed=frame["speed"].to_numpy(dtype=float),
        value=frame["value"].to_numpy(dtype=float),
        tie=frame["tie"].to_numpy(dtype=float),
    )


def _score_problems(
    states: pd.DataFrame,
    algorithms: Sequence[str],
    problems: Sequence[tuple[str, int]],
    group_of: Mapping[tuple[str, int], str],
    *,
    with_tests: bool,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], pd.DataFrame]:
    """U-scores per (problem, algorithm) and, if asked, the pairwise tests (§3.1, Tables 2–6);
    and every trial's dominance code (``UScoresResult.trial_codes``: problem by problem, each
    problem's trials in row order), which the rank sums computed anyway.

    Each problem is independent: one work item of the current executor
    (:mod:`reportgen.execution`).
    """
    # Each problem's trials as arrays (algorithm positions and states, in row order): split
    # once by sorting, not a sub-table per problem whose columns are then read one by one.
    instance = pd.MultiIndex.from_arrays([states["problem"], states["dimension"]])
    row = pd.MultiIndex.from_tuples(list(problems)).get_indexer(instance)
    order = np.argsort(row, kind="stable")
    bounds = np.searchsorted(row[order], np.arange(len(problems) + 1))
    labels = pd.Index(list(algorithms)).get_indexer(states["algorithm"])[order]
    trials = _states_of(states).take(order)
    items = [
        (
            p,
            d,
            group_of[(p, d)],
            labels[bounds[k] : bounds[k + 1]],
            trials.take(slice(bounds[k], bounds[k + 1])),
        )
        for k, (p, d) in enumerate(problems)
    ]
    scored = map_items(functools.partial(_score_problem, algorithms=tuple(algorithms)), items)
    names = np.asarray(algorithms, dtype=object)
    trial_codes = pd.DataFrame(
        {
            "problem": np.repeat([p for p, _ in problems], np.diff(bounds)),
            "dimension": np.repeat([d for _, d in problems], np.diff(bounds)),
            "algorithm": names[labels[bounds[0] : bounds[-1]]],
            "code": np.concatenate([s.codes for _, s in scored] or [np.zeros(0, int)]),
        }
    )
    pair_rows = _pair_rows(items, [s for _, s in scored], algorithms) if with_tests else []
    return [row for u_rows, _ in scored for row in u_rows], pair_rows, trial_codes


def _score_problem(
    item: tuple[str, int, str, np.ndarray, TrialStates], *, algorithms: Sequence[str]
) -> tuple[list[dict[str, Any]], _Scores]:
    """The U-score rows of one problem (``item``: its trials' algorithm positions and states),
    and its scores (pairwise wins and its trials' dominance codes, for the tests)."""
    problem, dimension, group, labels, trial_states = item
    u_rows: list[dict[str, Any]] = []
    scores = u_scores_of(trial_states, labels, len(algorithms))
    for j, algorithm in enumerate(algorithms):
        mine = labels == j
        u_rows.append(
            {
                "group": group,
                "problem": problem,
                "dimension": dimension,
                "algorithm": algorithm,
                "runs": int(mine.sum()),
                "successes": int(trial_states.success[mine].sum()),
                "rank_sum": float(scores.rank_sums[j]),
                "u_score": float(scores.u[j]),
            }
        )
    return u_rows, scores


def _pair_rows(
    items: Sequence[tuple[str, int, str, np.ndarray, TrialStates]],
    scores: Sequence[_Scores],
    algorithms: Sequence[str],
) -> list[dict[str, Any]]:
    """The pairwise-test rows of every problem (§3.1, Tables 3–6): wins and Mann–Whitney
    tests of the trials' places, every problem's tests at once (:func:`mann_whitney_tests`)."""
    pairs = list(combinations(range(len(algorithms)), 2))
    tasks = []
    for (_, _, _, labels, _), score in zip(items, scores, strict=True):
        places = -score.codes.astype(float)
        tasks.append(([places[labels == j] for j in range(len(algorithms))], pairs))
    rows: list[dict[str, Any]] = []
    for (problem, dimension, group, _, _), score, (statistics, p_values, methods) in zip(
        items, scores, mann_whitney_tests(tasks), strict=True
    ):
        for (a, b), statistic, p_value, test in zip(
            pairs, statistics, p_values, methods, strict=True
        ):
            if not math.isclose(statistic, score.wins[a, b], abs_tol=1e-6):
                raise UScoresConsistencyError(
                    f"Mann–Whitney statistic {statistic} differs from the counted wins "
                    f"{score.wins[a, b]} ({algorithms[a]} vs {algorithms[b]} on {problem})"
                )
            rows.append(
                {
                    "group": group,
                    "problem": problem,
                    "dimension": dimension,
                    "algorithm_a": algorithms[a],
                    "algorithm_b": algorithms[b],
                    "wins_a": float(score.wins[a, b]),
                    "wins_b": float(score.wins[b, a]),
                    "p_value": float(p_value),
                    "test": test,
                }
            )
    return rows


def _note_ties(pairwise: pd.DataFrame, caveats: list[Caveat]) -> None:
    """Ties between trials of different algorithms show as half points (§3.2, §5.3)."""
    half = (pairwise["wins_a"] % 1 != 0) | (pairwise["wins_b"] % 1 != 0)
    if half.any():
        tied = pairwise.loc[half, ["problem", "dimension"]].drop_duplicates()
        names = [problem_label(str(p), int(d)) for p, d in tied.itertuples(index=False)]
        caveats.append(
            Caveat(
                "tied_trials",
                f"Trials of different algorithms tie (equal outcome) on {counted(len(names), 'problem')}; "
                "each tie scores half a point. U-scores at earlier cut-points can separate them "
                "(Price et al. §5.3).",
                ", ".join(names),
            )
        )


def _totals(
    u_frame: pd.DataFrame,
    algorithms: Sequence[str],
    groups: Sequence[str],
    weights: Mapping[str, float] | None,
) -> pd.DataFrame:
    """Group totals, total, weighted total and ranks (§5.3, Table 7)."""
    sums = u_frame.groupby(["algorithm", "group"], sort=False, observed=True)["u_score"].sum()
    wide = sums.unstack("group").reindex(index=list(algorithms), columns=list(groups))
    totals = pd.DataFrame({"algorithm": list(algorithms)})
    for g in groups:
        totals[g] = wide[g].to_numpy(dtype=float)
    totals["total"] = wide.sum(axis=1).to_numpy(dtype=float)
    score = totals["total"].to_numpy()
    if weights is not None:
        totals["weighted_total"] = sum(weights[g] * totals[g].to_numpy() for g in groups)
        score = totals["weighted_total"].to_numpy()
    totals["rank"] = competition_ranks(score)
    if len(groups) > 1:
        for g in groups:
            totals[f"rank_{g}"] = competition_ranks(totals[g].to_numpy())
    return totals.iloc[_order(score)].reset_index(drop=True)


def _win_tie_loss(pairwise: pd.DataFrame, groups: Sequence[str], alpha: float) -> pd.DataFrame:
    """Problems on which a is significantly better / not different / worse (Liu et al. Tab. I)."""
    significant = pairwise["p_value"].to_numpy(dtype=float) < alpha
    a_better = pairwise["wins_a"].to_numpy() > pairwise["wins_b"].to_numpy()
    b_better = pairwise["wins_a"].to_numpy() < pairwise["wins_b"].to_numpy()
    flags = pairwise[["group", "algorithm_a", "algorithm_b"]].copy()
    flags["wins"] = (significant & a_better).astype(int)
    flags["losses"] = (significant & b_better).astype(int)
    flags["ties"] = 1 - flags["wins"] - flags["losses"]
    parts = [flags]
    if len(groups) > 1:
        parts.append(flags.assign(group=OVERALL))
    counted = (
        pd.concat(parts)
        .groupby(["group", "algorithm_a", "algorithm_b"], sort=False, observed=True)[
            ["wins", "ties", "losses"]
        ]
        .sum()
        .reset_index()
    )
    return counted[["group", "algorithm_a", "algorithm_b", "wins", "ties", "losses"]]


def _difficulty(
    states: pd.DataFrame,
    problems: Sequence[tuple[str, int]],
    group_of: Mapping[tuple[str, int], str],
    groups: Sequence[str],
) -> pd.DataFrame:
    """Functional U-scores (§3.3): problems compared by all their trials, within each group."""
    instance = pd.MultiIndex.from_arrays([states["problem"], states["dimension"]])
    frames = []
    for group in groups:
        members = [p for p in problems if group_of[p] == group]
        labels_all = pd.MultiIndex.from_tuples(members).get_indexer(instance)
        mask = labels_all >= 0
        labels = labels_all[mask]
        trial_states = _states_of(states[mask])
        sizes = np.bincount(labels, minlength=len(members)).astype(float)
        if len(members) > 1:
            # By rank sums alone: counting wins compares every pair of the group's trials
            # (4 680 in a CEC 2022 dimension: 11 M comparisons), and the order it would check
            # is the one every problem's U-scores already check against counted wins.
            sets = [np.flatnonzero(labels == k) for k in range(len(members))]
            u = ranked_u_scores(trial_states, sets)[0]
            share = u / (sizes * (sizes.sum() - sizes))
            ranks = competition_ranks(share)
        else:
            u, share = np.zeros(1), np.full(1, np.nan)
            ranks = competition_ranks(u)
        order = sorted(range(len(members)), key=lambda i: (ranks[i], natural_key(members[i][0])))
        frames.append(
            pd.DataFrame(
                {
                    "group": group,
                    "problem": [members[i][0] for i in order],
                    "dimension": [members[i][1] for i in order],
                    "functional_u_score": u[order],
                    "share": share[order],
                    "success_rate": [trial_states.success[labels == i].mean() for i in order],
                    "rank": ranks[order],
                }
            )
        )
    return pd.concat(frames, ignore_index=True)
