r"""Significance relations from Borda-style award points (Köppen & Ohnishi §II–III).

Every algorithm is reduced to one positive value per problem instance, ``v[x, p]`` (smaller is
better). Two algorithms are compared like two teams in a tournament: the per-problem ratios of
their values are ranked, the ranks are awarded as points to whichever algorithm is better on
that problem, and ``x`` *dominates* ``y`` *by award points* at level σ (the paper's
"significance relation") when its net points ``D(x, y)`` reach σ. σ is a threshold on points,
not a statistical test — no p-value or error rate stands behind it — so the report never calls
such a relation "significant". Raising σ removes relations until no cycle is left; the maximum
set (the algorithms nobody dominates) and the rank layers below it are the result.

Award points (§III, steps 1–4)
------------------------------
For two value vectors ``x, y`` over the ``n`` problems:

.. math::

    r_i = \max(x_i / y_i,\ y_i / x_i), \qquad
    s_i = \begin{cases} +1 & x_i < y_i \\ -1 & x_i > y_i \\ 0 & x_i = y_i \end{cases}, \qquad
    D(x, y) = \sum_{i=1}^{n} a_i\, s_i

where ``a_i`` is the rank of ``r_i`` among ``r_1 … r_n`` (1 for the smallest ratio), tied
ratios sharing the average of the ranks they occupy. ``D(x, y) = −D(y, x)``, every ``D`` is a
multiple of ½ and ``|D| ≤ n(n + 1)/2``.

The relation (§II, Definition 1; §III, step 5)
----------------------------------------------
``x R_σ y`` iff ``D(x, y) ≥ σ``, for σ > 0 (σ = 0 would relate every algorithm to itself and
make ``R_0`` symmetric wherever ``D = 0``; the spec requires σ > 0). For σ > 0 the relation is
asymmetric, so ``P(R_σ) = R_σ`` and a cycle is any directed cycle of its graph. The *maximum
set* is the set of algorithms that are never on the losing side. *Rank layers*: remove the
maximum set, take the maximum set of the rest, and so on.

Decisions (the paper is silent or ambiguous; see docs/methods.md, "Köppen & Ohnishi")
---------------------------------------------------------------------------------
- Orientation: ``s_i = +1`` where ``x`` is *better*, i.e. smaller. The paper's sentence "+1 if
  x_i > y_i" is the maximisation reading; its CEC'05 conclusions (G-CMA-ES the winner) need
  the minimisation reading. The paper's worked example ``x = (2, 8, 6)``, ``y = (4, 2, 3)``
  gives ``D = 3`` with its literal sign and ``D(x, y) = −3`` here (``x`` is worse on two of
  three problems).
- Ties: tied ratios share the average rank (``scipy.stats.rankdata(method="average")``).
  Equal components stay in the ranking with ``s_i = 0``: their ratio 1 is the smallest
  possible, so they take the lowest points and add nothing.
- Tolerance: ratios are compared with a relative tolerance ``tol`` (spec
  ``relative_tolerance``, default 1e-9) so that mathematically equal ratios tie despite
  rounding: sorted ratios ``r_(k) ≤ r_(k−1)·(1 + tol)`` join the previous tie group (a chain
  of near-equal ratios forms one group). A ratio ``≤ 1 + tol`` counts as equal values (sign 0).
- Values must be positive. Zeros and negatives raise :class:`~reportgen.errors.InputError`
  naming the spec options ``value_floor`` (raise values below a positive floor to it) and
  ``value_shift`` (add a constant); one or the other, since a shift changes every ratio. They
  act on the derived values, the ones the ratios compare (for a published table those are all
  there is), not on single runs. An infinite value (a fixed-target cost never reached) loses
  to every finite one with the largest ratio; two infinite values are equal.
- One value per algorithm × problem instance: ``statistic`` is the mean, median, ``accuracy``
  (best run = minimum) or ``robustness`` (worst run = maximum) of the runs' final values
  (trials: ``value``; histories: the last record of each run); for a summary table it names a
  column (``accuracy`` → ``minimum``, ``robustness`` → ``maximum``). A problem instance on
  which some algorithm has no value is left out, with a caveat.
- The σ sweep is exact: the relation changes only where σ passes a distinct positive value
  ``d_1 < … < d_m`` of ``D``; on ``(d_{k−1}, d_k]`` it is ``{D ≥ d_k}``, on ``(d_m, ∞)`` it is
  empty. Every interval is analysed (acyclicity, strongly connected components, maximum set,
  layers) with networkx.
- ``auto`` = the smallest σ at which the relation is cycle-free. Cycle-freeness only improves
  with σ, so it holds on ``σ > a`` for one ``a``; because ``D`` lives on the half-integers,
  every σ in ``(a, a + ½]`` gives the same relation and ``auto`` is reported as ``a + ½``.
  As the paper proposes (§II), the result also gives the smallest non-empty maximum set and
  the σ range on which it holds (maximum sets only grow with σ, so that range is one interval).
- Layers of a relation with cycles (ours; the paper only layers cycle-free relations): the
  layers of the graph of strongly connected components, each component taking one layer,
  so the members of a cycle share a layer. For a cycle-free relation this is exactly the
  paper's repeated removal of the maximum set. Such layers are flagged (``cycle_free``).
- Transitive reduction (spec ``transitive_reduction``, drawing only): an edge is kept when it
  lies inside a strongly connected component or its components are joined in the transitive
  reduction of the component graph; for a cycle-free relation this is
  ``networkx.transitive_reduction``. The tables always list every edge.
- Requested levels are used as given (``D ≥ σ``); two requests resolving to the same σ (e.g.
  ``auto`` and a number) are drawn once.
- Cycles listed for a requested σ: the shortest simple cycles first, at most
  :data:`MAX_LISTED_CYCLES`; the highlighted edges are all edges that lie on any cycle
  (those inside a strongly connected component).

The paper's CEC'05 example (docs/methods.md: trust the recipe)
---------------------------------------------------------
From the printed Table I this recipe gives the paper's σ = 60 layers exactly and four layers
at σ = 100, but not its σ = 10 cycle 1 → 10 → 5 → 4 → 1 (``D(4, 1) = 2`` with the printed
table), and the relation is cycle-free just above σ = 2, not "around 15"; see
``tests/analyses/test_significance_relation.py``.

References
----------
M. Köppen and K. Ohnishi, "Significance relations for the benchmarking of meta-heuristic
algorithms", §II (maximum sets, Definition 1) and §III (award points, worked example, CEC'05
Table I, Figures 1–2).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from scipy.sparse import csr_array
from scipy.sparse.csgraph import connected_components
from scipy.stats import rankdata

from reportgen.analyses.resampling import drawn_runs, filled, run_array
from reportgen.data.frames import (
    KEYS,
    RUN_KEYS,
    AnalysisData,
    Format,
    problem_label,
    with_columns,
)
from reportgen.errors import InputError, Problem, did_you_mean, quote_choices
from reportgen.execution import map_items
from reportgen.present.caveats import Caveat, Naming
from reportgen.present.format import counted, power_of_ten
from reportgen.present.jsonable import json_value
from reportgen.spec.analyses.significance_relation import (
    STATISTICS,
    SignificanceRelationOptions,
)

if TYPE_CHECKING:
    import networkx as nx

# networkx is imported in the functions that use it (≈ 0.2 s of CPU at start-up, which a study
# without this method need not pay; the summary's bootstrap of its layers does not use it).

MAX_LISTED_CYCLES = 20
"""At most this many simple cycles are listed per requested σ (all cyclic edges are marked)."""

SUMMARY_COLUMNS: dict[str, str] = {
    "mean": "mean",
    "median": "median",
    "accuracy": "minimum",
    "robustness": "maximum",
}
"""Which summary column each named statistic reads."""

_RUN_AGGREGATES: dict[str, str] = {
    "mean": "mean",
    "median": "median",
    "accuracy": "min",
    "robustness": "max",
}


# ---------------------------------------------------------------------------------------------
# Result objects
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SweepInterval:
    """The relation on one interval ``sigma_from < σ ≤ sigma_to`` of the exact σ sweep.

    Attributes
    ----------
    sigma_from : float
        Exclusive lower end (0 for the first interval).
    sigma_to : float
        Inclusive upper end: a value of ``D`` (``inf`` for the last, empty relation).
    n_edges : int
        Number of related pairs.
    cycle_free : bool
        Whether the relation has no directed cycle.
    cyclic_components : tuple of tuple of str
        Strongly connected components with more than one member (the algorithms on cycles).
    maximum_set : tuple of str
        Algorithms never on the losing side, in study order (empty when cycles cover the top).
    layers : tuple of tuple of str
        Rank layers, best first (see the module notes for relations with cycles).
    """

    sigma_from: float
    sigma_to: float
    n_edges: int
    cycle_free: bool
    cyclic_components: tuple[tuple[str, ...], ...]
    maximum_set: tuple[str, ...]
    layers: tuple[tuple[str, ...], ...]

    @property
    def sigma(self) -> float:
        """The smallest σ of this interval on the half-integer grid of ``D``."""
        return self.sigma_from + 0.5

    def contains(self, sigma: float) -> bool:
        """Whether ``sigma_from < sigma ≤ sigma_to``."""
        return self.sigma_from < sigma <= self.sigma_to

    def layer_of(self, algorithm: str) -> int:
        """The 1-based rank layer of ``algorithm``."""
        return next(k for k, layer in enumerate(self.layers, 1) if algorithm in layer)


@dataclass(frozen=True)
class RelationEdge:
    """One related pair ``winner R_σ loser``."""

    winner: str
    loser: str
    points: float
    on_cycle: bool
    in_reduction: bool


@dataclass(frozen=True)
class RelationAtSigma:
    """The relation at one requested significance level.

    Attributes
    ----------
    sigma : float
        The level used (``auto`` resolved to a number).
    requested : tuple of str
        How it was asked for: ``("auto",)``, ``("60",)`` or both when they coincide.
    interval : SweepInterval
        The sweep interval containing ``sigma`` (maximum set, layers, cycles).
    edges : tuple of RelationEdge
        Every related pair, by decreasing points, then study order.
    cycles : tuple of tuple of str
        Simple cycles, shortest first, at most :data:`MAX_LISTED_CYCLES`; each starts at its
        first member in study order and lists the members along the arrows.
    cycles_truncated : bool
        Whether more cycles exist than are listed.
    """

    sigma: float
    requested: tuple[str, ...]
    interval: SweepInterval
    edges: tuple[RelationEdge, ...]
    cycles: tuple[tuple[str, ...], ...]
    cycles_truncated: bool

    @property
    def cycle_free(self) -> bool:
        return self.interval.cycle_free

    @property
    def maximum_set(self) -> tuple[str, ...]:
        return self.interval.maximum_set

    @property
    def layers(self) -> tuple[tuple[str, ...], ...]:
        return self.interval.layers

    @property
    def pairs(self) -> frozenset[tuple[str, str]]:
        """The related pairs ``(winner, loser)``: two levels with the same pairs are the same
        relation (no value of D lies between them), with the same layers, cycles and edges."""
        return frozenset((e.winner, e.loser) for e in self.edges)


@dataclass(frozen=True, eq=False)
class SignificanceRelationResult:
    """Award points, the exact σ sweep and the relations at the requested levels.

    Attributes
    ----------
    algorithms : tuple of str
        Study order.
    problems : tuple of (str, int)
        The problem instances compared (those with a value for every algorithm).
    statistic : str
        How one value per algorithm × problem was derived.
    input_format : {"trials", "histories", "summary"}
    values : numpy.ndarray
        ``values[i, p]``: the compared value of ``algorithms[i]`` on ``problems[p]``, after
        ``value_floor`` / ``value_shift``.
    award_points : numpy.ndarray
        ``award_points[i, j] = D(algorithms[i], algorithms[j])``; antisymmetric, zero diagonal.
    relative_tolerance, value_floor, value_shift : float or None
        The options used.
    n_adjusted : int
        How many values the floor raised (or the shift moved).
    sweep : tuple of SweepInterval
        The exact sweep, by increasing σ, covering ``(0, ∞)``.
    auto_index : int
        Index in ``sweep`` of the first cycle-free interval; ``auto`` is its ``sigma``.
    smallest_maximum_set_range : (int, int)
        First and last index in ``sweep`` of the smallest non-empty maximum set.
    relations : tuple of RelationAtSigma
        The requested levels, in the order first asked for.
    order : tuple of str
        Algorithms by their layer at ``auto``, then study order (the display order).
    transitive_reduction : bool
        Whether figures draw only the reduced edges.
    caveats : tuple of Caveat
    """

    algorithms: tuple[str, ...]
    problems: tuple[tuple[str, int], ...]
    statistic: str
    input_format: Format
    values: np.ndarray
    award_points: np.ndarray
    relative_tolerance: float
    value_floor: float | None
    value_shift: float | None
    n_adjusted: int
    sweep: tuple[SweepInterval, ...]
    auto_index: int
    smallest_maximum_set_range: tuple[int, int]
    relations: tuple[RelationAtSigma, ...]
    order: tuple[str, ...]
    transitive_reduction: bool
    caveats: tuple[Caveat, ...]
    runs: pd.DataFrame | None = None
    """Trials or histories: each run's final value (columns cell — ``problem␟dimension`` —,
    algorithm, value) for the run stage of :func:`bootstrap_layers`; ``None`` for a summary."""

    # -- derived views ------------------------------------------------------------------------

    def points(self, x: str, y: str) -> float:
        """``D(x, y)`` by algorithm name."""
        return float(self.award_points[self.algorithms.index(x), self.algorithms.index(y)])

    @property
    def auto(self) -> SweepInterval:
        """The first cycle-free interval of the sweep."""
        return self.sweep[self.auto_index]

    @property
    def sigma_auto(self) -> float:
        """The smallest σ (on the half-integer grid of ``D``) with a cycle-free relation."""
        return self.auto.sigma

    @property
    def smallest_maximum_set(self) -> tuple[str, ...]:
        """The smallest non-empty maximum set over all σ."""
        return self.sweep[self.smallest_maximum_set_range[0]].maximum_set

    @property
    def smallest_maximum_set_sigmas(self) -> tuple[float, float]:
        """``(a, b)``: the smallest non-empty maximum set holds exactly for ``a < σ ≤ b``."""
        first, last = self.smallest_maximum_set_range
        return self.sweep[first].sigma_from, self.sweep[last].sigma_to

    def interval_at(self, sigma: float) -> SweepInterval:
        """The sweep interval containing ``sigma > 0``."""
        return next(iv for iv in self.sweep if iv.contains(sigma))

    def same_relations(self) -> list[tuple[RelationAtSigma, ...]]:
        """The requested relations grouped by their related pairs, each group by increasing
        σ, the groups in the order first requested: one drawing and one account per group
        (two levels with no D between them give the same relation)."""
        groups: dict[frozenset[tuple[str, str]], list[RelationAtSigma]] = {}
        for relation in self.relations:
            groups.setdefault(relation.pairs, []).append(relation)
        return [tuple(sorted(group, key=lambda r: r.sigma)) for group in groups.values()]

    def dominates_all_up_to(self) -> dict[str, float]:
        """Algorithms related to every other one for ``σ ≤ min_y D(x, y)`` (when positive)."""
        return self._extreme(self.award_points)

    def dominated_by_all_up_to(self) -> dict[str, float]:
        """Algorithms every other one is related to, for ``σ ≤ min_y D(y, x)`` (when > 0)."""
        return self._extreme(self.award_points.T)

    def _extreme(self, matrix: np.ndarray) -> dict[str, float]:
        n = len(self.algorithms)
        out = {}
        for i, name in enumerate(self.algorithms):
            worst = min(float(matrix[i, j]) for j in range(n) if j != i)
            if worst > 0:
                out[name] = worst
        return out

    # -- presenters ---------------------------------------------------------------------------

    def tables(self) -> dict[str, pd.DataFrame]:
        """``award_points``, ``sweep``, ``layers``, ``edges`` and ``values``."""
        names = self.algorithms
        pairs = [(x, y) for x, y in itertools.permutations(range(len(names)), 2)]
        award = pd.DataFrame(
            {
                "algorithm_x": [names[i] for i, _ in pairs],
                "algorithm_y": [names[j] for _, j in pairs],
                "D": [float(self.award_points[i, j]) for i, j in pairs],
            }
        )
        sweep = pd.DataFrame(
            {
                "sigma_from": [iv.sigma_from for iv in self.sweep],
                "sigma_to": [iv.sigma_to for iv in self.sweep],
                "cycle_free": [iv.cycle_free for iv in self.sweep],
                "n_layers": [len(iv.layers) for iv in self.sweep],
                "maximum_set": ["; ".join(iv.maximum_set) for iv in self.sweep],
            }
        )
        layers = pd.DataFrame(
            [
                (rel.sigma, k, alg)
                for rel in self.relations
                for k, layer in enumerate(rel.layers, 1)
                for alg in layer
            ],
            columns=["sigma", "layer", "algorithm"],
        )
        edges = pd.DataFrame(
            [
                (rel.sigma, e.winner, e.loser, e.points, e.on_cycle, e.in_reduction)
                for rel in self.relations
                for e in rel.edges
            ],
            columns=["sigma", "winner", "loser", "D", "on_cycle", "in_reduction"],
        )
        values = pd.DataFrame(
            [
                (alg, prob, dim, float(self.values[i, p]))
                for i, alg in enumerate(names)
                for p, (prob, dim) in enumerate(self.problems)
            ],
            columns=["algorithm", "problem", "dimension", "value"],
        )
        return {
            "award_points": award,
            "sweep": sweep,
            "layers": layers,
            "edges": edges,
            "values": values,
        }

    def to_json(self) -> dict[str, Any]:
        """Every number the report shows (∞ as ``"inf"``)."""

        def interval(iv: SweepInterval) -> dict[str, Any]:
            return {
                "sigma_from": json_value(iv.sigma_from),
                "sigma_to": json_value(iv.sigma_to),
                "n_edges": iv.n_edges,
                "cycle_free": iv.cycle_free,
                "cyclic_components": [list(c) for c in iv.cyclic_components],
                "maximum_set": list(iv.maximum_set),
                "layers": [list(layer) for layer in iv.layers],
            }

        low, high = self.smallest_maximum_set_sigmas
        return {
            "algorithms": list(self.algorithms),
            "problems": [problem_label(p, d) for p, d in self.problems],
            "statistic": self.statistic,
            "input_format": self.input_format,
            "relative_tolerance": self.relative_tolerance,
            "value_floor": self.value_floor,
            "value_shift": self.value_shift,
            "n_adjusted": self.n_adjusted,
            "values": [[json_value(v) for v in row] for row in self.values],
            "award_points": [[float(v) for v in row] for row in self.award_points],
            "sigma_auto": self.sigma_auto,
            "cycle_free_above": json_value(self.auto.sigma_from),
            "smallest_maximum_set": list(self.smallest_maximum_set),
            "smallest_maximum_set_sigma_from": json_value(low),
            "smallest_maximum_set_sigma_to": json_value(high),
            "dominates_all_up_to": self.dominates_all_up_to(),
            "dominated_by_all_up_to": self.dominated_by_all_up_to(),
            "order": list(self.order),
            "sweep": [interval(iv) for iv in self.sweep],
            "relations": [
                {
                    "sigma": rel.sigma,
                    "requested": list(rel.requested),
                    **interval(rel.interval),
                    "edges": [
                        {
                            "winner": e.winner,
                            "loser": e.loser,
                            "D": e.points,
                            "on_cycle": e.on_cycle,
                            "in_reduction": e.in_reduction,
                        }
                        for e in rel.edges
                    ],
                    "cycles": [list(c) for c in rel.cycles],
                    "cycles_truncated": rel.cycles_truncated,
                }
                for rel in self.relations
            ],
            "transitive_reduction": self.transitive_reduction,
            "caveats": [c.to_json() for c in self.caveats],
        }


# ---------------------------------------------------------------------------------------------
# Award points (§III, steps 1–4)
# ---------------------------------------------------------------------------------------------


def award_points(x: Sequence[float], y: Sequence[float], *, rtol: float = 1e-9) -> float:
    r"""Net award points ``D(x, y)`` of ``x`` over ``y`` (Köppen & Ohnishi §III, steps 1–4).

    Parameters
    ----------
    x, y : sequence of float
        Positive values of two algorithms on the same ``n`` problems; smaller is better.
        ``inf`` is allowed (a target never reached).
    rtol : float
        Relative tolerance under which two ratios tie and two values count as equal.

    Returns
    -------
    float
        A multiple of ½ in ``[−n(n+1)/2, n(n+1)/2]``; ``D(x, y) = −D(y, x)``.

    Notes
    -----
    .. math::

        r_i = \max(x_i/y_i,\ y_i/x_i), \quad s_i = \operatorname{sign}(y_i - x_i), \quad
        D(x, y) = \sum_i \operatorname{rank}(r_i)\, s_i

    with average ranks for tied ratios and ``s_i = 0`` where ``r_i ≤ 1 + rtol``. The sign is
    the minimisation reading of the paper's "+1 if x_i > y_i" (see the module notes).

    Examples
    --------
    The paper's worked example (§III): ratios (2, 4, 2), ranks (1.5, 3, 1.5). ``x`` is larger,
    i.e. worse, on the second and third problems, so in minimisation ``x`` loses 3 points; the
    paper's literal (maximisation) sign gives ``D = 3``:

    >>> award_points([2, 8, 6], [4, 2, 3])
    -3.0
    >>> award_points([4, 2, 3], [2, 8, 6])
    3.0
    """
    return float(
        _award_rows(np.asarray(x, dtype=float), np.asarray(y, dtype=float)[None, :], rtol)[0]
    )


def _award_rows(x: np.ndarray, others: np.ndarray, rtol: float) -> np.ndarray:
    """``D(x, others[k])`` for every row ``k`` at once (steps 1–4, vectorised over rows; ``x``
    one row for all, or one row per row of ``others``).

    Average ranks of ratios tied within ``rtol``: tied ratios are contiguous once sorted, so a
    tie group at sorted positions ``a … b`` (1-based) gets the rank ``(a + b) / 2`` — what
    ``scipy.stats.rankdata(method="average")`` gives for the group numbers, without a Python
    call per pair (500 algorithms are 124,750 pairs).
    """
    # step 1: ratios (larger over smaller) and signs (+1 where x is smaller, i.e. better)
    with np.errstate(invalid="ignore"):  # inf / inf: both infinite, equal
        ratio = np.maximum(x, others) / np.minimum(x, others)
    ratio[x == others] = 1.0
    sign = (x < others).astype(np.int8) - (x > others)
    sign[ratio <= 1.0 + rtol] = 0
    # steps 2–3: award points = ranks of the ratios; ratios equal within rtol share the average
    order = np.argsort(ratio, axis=1, kind="stable")
    ordered = np.take_along_axis(ratio, order, axis=1)
    rows, n = ordered.shape
    starts = np.ones((rows, n), dtype=bool)
    starts[:, 1:] = ordered[:, 1:] > ordered[:, :-1] * (1.0 + rtol)
    signs = np.take_along_axis(sign, order, axis=1)  # sorted order
    # step 4: signed sum (exact: half-integers); rows without ties have the points 1 … n
    tied = ~starts.all(axis=1)
    if not tied.any():
        return signs @ np.arange(1.0, n + 1.0)
    few = np.count_nonzero(tied) * 4 < rows  # then only the tied rows are regrouped
    if few:
        starts = starts[tied]
    first = np.flatnonzero(starts)  # tie groups, row after row; none spans two rows
    size = np.diff(first, append=starts.size)
    group = np.cumsum(starts.ravel()) - 1
    points = (first % n + (size + 1) / 2.0)[group].reshape(starts.shape)
    if not few:
        return (points * signs).sum(axis=1)
    out = signs @ np.arange(1.0, n + 1.0)
    out[tied] = (points * signs[tied]).sum(axis=1)
    return out


def award_point_matrix(values: np.ndarray, *, rtol: float = 1e-9) -> np.ndarray:
    """``D[i, j] = D(values[i], values[j])`` for all pairs (antisymmetric, zero diagonal).

    Each algorithm's row against the later ones is an independent work item of the current
    executor (:mod:`reportgen.execution`); the numbers do not depend on where it runs.
    """
    values = np.asarray(values, dtype=float)
    n = values.shape[0]
    matrix = np.zeros((n, n))
    rows = map_items(
        functools.partial(_award_row_item, rtol=rtol),
        [(values[i], values[i + 1 :]) for i in range(n - 1)],
    )
    for i, row in enumerate(rows):
        matrix[i, i + 1 :] = row
        matrix[i + 1 :, i] = -row
    return matrix


def _award_row_item(item: tuple[np.ndarray, np.ndarray], *, rtol: float) -> np.ndarray:
    """:func:`_award_rows` of one work item ``(x, others)``."""
    x, others = item
    return _award_rows(x, others, rtol)


# ---------------------------------------------------------------------------------------------
# The relation and its structure (§II)
# ---------------------------------------------------------------------------------------------


def relation_graph(algorithms: Sequence[str], points: np.ndarray, sigma: float) -> nx.DiGraph:
    """The graph of ``R_σ``: an edge ``x → y`` (attribute ``D``) iff ``D(x, y) ≥ σ > 0``."""
    import networkx as nx

    if not sigma > 0:
        raise ValueError(f"σ must be positive, got {sigma}")
    graph = nx.DiGraph()
    graph.add_nodes_from(algorithms)
    graph.add_edges_from(
        (algorithms[i], algorithms[j], {"D": float(points[i, j])})
        for i, j in np.argwhere(points >= sigma)  # row-major: deterministic order
    )
    return graph


def _order_of(algorithms: Sequence[str]) -> dict[str, int]:
    """Study position of each algorithm (a dict: ``list.index`` is O(n) per call)."""
    return {a: i for i, a in enumerate(algorithms)}


def _by_study_order(names: Sequence[str], algorithms: Sequence[str]) -> tuple[str, ...]:
    order = _order_of(algorithms) if len(names) > 8 else None
    return tuple(sorted(names, key=order.__getitem__ if order else algorithms.index))


def _structure(
    graph: nx.DiGraph, algorithms: Sequence[str]
) -> tuple[bool, tuple[tuple[str, ...], ...], tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Cycle-freeness, cyclic components, maximum set and rank layers of a relation graph."""
    import networkx as nx

    components = nx.condensation(graph)
    members = nx.get_node_attributes(components, "members")
    cyclic = sorted(
        (_by_study_order(m, algorithms) for m in members.values() if len(m) > 1),
        key=lambda c: algorithms.index(c[0]),
    )
    maximum = tuple(a for a in algorithms if graph.in_degree(a) == 0)
    # §II: remove the maximum set repeatedly = topological generations (of the components)
    layers = tuple(
        _by_study_order([a for c in generation for a in members[c]], algorithms)
        for generation in nx.topological_generations(components)
    )
    return not cyclic, tuple(cyclic), maximum, layers


def sweep(algorithms: Sequence[str], points: np.ndarray) -> tuple[SweepInterval, ...]:
    """The exact σ sweep: one :class:`SweepInterval` per distinct relation, covering ``(0, ∞)``.

    The relation changes only where σ passes a distinct positive value of ``D``, so the
    intervals are ``(0, d_1], (d_1, d_2], …, (d_m, ∞)``.
    """
    thresholds = sorted({float(v) for v in points.flat if v > 0})
    bounds = [0.0, *thresholds, math.inf]
    intervals = []
    for low, high in itertools.pairwise(bounds):
        graph = relation_graph(algorithms, points, high)
        cycle_free, cyclic, maximum, layers = _structure(graph, algorithms)
        intervals.append(
            SweepInterval(low, high, graph.number_of_edges(), cycle_free, cyclic, maximum, layers)
        )
    return tuple(intervals)


def auto_layers(points: np.ndarray) -> np.ndarray:
    """The rank layer (1 = maximum set) of every algorithm at ``auto``, the smallest σ with a
    cycle-free relation — ``sweep(...)[auto_index].layers`` without the rest of the sweep.

    Examples
    --------
    A beats B and C by 3 points, B beats C by 1: cycle-free from the smallest σ, layers A, B, C.

    >>> auto_layers(np.array([[0, 3, 3], [-3, 0, 1], [-3, -1, 0]], dtype=float)).tolist()
    [1, 2, 3]
    """
    return _auto_layers_of(points[None])[0]


def _auto_layers_of(points: np.ndarray) -> np.ndarray:
    """:func:`auto_layers` of a stack ``[m, n, n]`` of award-point matrices at once.

    For each matrix, the candidate relations are ``{D ≥ d_k}`` at its distinct positive values
    ``d_1 < … < d_K`` and the empty relation after the last. Cycle-freeness only improves
    with σ, so ``auto`` is found by bisection over ``k``, every matrix at once: each step puts
    one relation per matrix into one block-diagonal sparse graph, whose strongly connected
    components :func:`scipy.sparse.csgraph.connected_components` finds in one call (a relation
    is cycle-free when each of its components is one algorithm). The layers of the relation
    at ``auto`` are its topological generations (:func:`_generations`).
    """
    m = points.shape[0]
    flat = points.reshape(m, -1)
    thresholds = np.sort(np.where(flat > 0, flat, np.inf), axis=1)
    keep = np.ones_like(thresholds, dtype=bool)
    keep[:, 1:] = thresholds[:, 1:] != thresholds[:, :-1]  # distinct values; ∞ pads
    distinct = keep & np.isfinite(thresholds)
    thresholds = np.sort(np.where(distinct, thresholds, np.inf), axis=1)
    # [low, high]: the first cycle-free k lies here; k = K (the empty relation) always is.
    low = np.zeros(m, dtype=np.intp)
    high = distinct.sum(axis=1)
    thresholds = np.concatenate([thresholds, np.full((m, 1), np.inf)], axis=1)
    while (open_ := low < high).any():
        middle = (low + high) // 2
        free = _cycle_free(points[open_] >= thresholds[open_, middle[open_], None, None])
        high[open_] = np.where(free, middle[open_], high[open_])
        low[open_] = np.where(free, low[open_], middle[open_] + 1)
    return _generations(points >= thresholds[np.arange(m), low, None, None])


def _cycle_free(relations: np.ndarray) -> np.ndarray:
    """Whether each relation of a stack ``[m, n, n]`` (``[b, i, j]``: ``i`` related to ``j``)
    has no directed cycle: every strongly connected component is one algorithm."""
    m, n, _ = relations.shape
    block, row, col = np.nonzero(relations)
    size = m * n
    graph = csr_array(
        (np.ones(len(block), dtype=np.int8), (block * n + row, block * n + col)),
        shape=(size, size),
    )
    _, labels = connected_components(graph, directed=True, connection="strong")
    grouped = np.sort(labels.reshape(m, n), axis=1)
    return 1 + (np.diff(grouped, axis=1) != 0).sum(axis=1) == n


def _generations(relations: np.ndarray) -> np.ndarray:
    """Topological generations (1 = no predecessor) of a stack ``[m, n, n]`` of cycle-free
    relations, every relation at once: generation ``k`` is what is left without a predecessor
    once generations ``1 … k − 1`` are removed — what :func:`networkx.topological_generations`
    gives (tested against it), without building a Python object per edge (at 500 algorithms a
    relation has tens of thousands of edges, and the bootstrap one relation per resample).

    Examples
    --------
    A → B → C and A → C: three generations.

    >>> r = np.array([[[0, 1, 1], [0, 0, 1], [0, 0, 0]]], dtype=bool)
    >>> _generations(r).tolist()
    [[1, 2, 3]]
    """
    m, n, _ = relations.shape
    indegree = relations.sum(axis=1, dtype=np.int32)  # [m, n] predecessors left
    layer = np.zeros((m, n), dtype=int)
    left = np.ones((m, n), dtype=bool)
    generation = 0
    while left.any():
        generation += 1
        ready = left & (indegree == 0)
        if not ready.any(axis=1)[left.any(axis=1)].all():
            raise ValueError("a relation with a cycle has no topological generations")
        layer[ready] = generation
        left &= ~ready
        block, node = np.nonzero(ready)  # sorted by block
        blocks, starts = np.unique(block, return_index=True)
        # each removed algorithm's successors lose one predecessor
        indegree[blocks] -= np.add.reduceat(relations[block, node], starts, axis=0, dtype=np.int32)
    return layer


_BOOTSTRAP_CHUNK = 100
"""Resamples whose award points and relations are computed in one vectorised call."""


def bootstrap_layers(
    result: SignificanceRelationResult,
    rng: np.random.Generator,
    resamples: int,
    runs: np.random.Generator | None = None,
) -> np.ndarray:
    """Ranks by the ``auto`` layers recomputed on ``resamples`` resamples of the problems.

    Each resample draws the problem instances with replacement (as many as there are), and
    recomputes the award points ``D`` of every pair on them (a problem drawn twice counts
    twice, its ratio ranked twice), the smallest cycle-free σ and that relation's rank layers
    (:func:`auto_layers`). With ``runs`` (a generator) and runs in the result (trials or
    histories), each drawn problem's values are first recomputed from its own draw of each
    algorithm's runs (with replacement, as many as it has): the statistic of the drawn runs,
    then ``value_shift`` / ``value_floor`` as in the analysis. σ is not held at the full sample's ``auto``: award points are ranks
    among the resample's ratios, and the layers the report shows are those at the smallest
    cycle-free σ.

    Returns
    -------
    numpy.ndarray
        ``[resamples, algorithms]`` ranks, 1 for the maximum set, else one more than the
        number of algorithms in better layers (as the summary ranks layers); algorithms in
        ``result.algorithms`` order.
    """
    values = result.values
    n_alg, n_p = values.shape
    first, second = np.triu_indices(n_alg, 1)
    out = np.empty((resamples, n_alg))
    run_values = counts = None
    if runs is not None and result.runs is not None:
        run_values, counts = run_array(
            result.runs, "value", _cells(result.problems), result.algorithms, key="cell"
        )
    for start in range(0, resamples, _BOOTSTRAP_CHUNK):
        count = min(_BOOTSTRAP_CHUNK, resamples - start)
        slots = rng.integers(0, n_p, size=(count, n_p))
        if run_values is not None and counts is not None and runs is not None:
            drawn = _redrawn_values(result, run_values, counts, slots, runs)
        else:
            drawn = values[:, slots]  # [algorithms, count, n_p]
        x = drawn[first].reshape(-1, n_p)
        y = drawn[second].reshape(-1, n_p)
        d = _award_rows(x, y, result.relative_tolerance).reshape(len(first), count)
        points = np.zeros((count, n_alg, n_alg))
        points[:, first, second] = d.T
        points[:, second, first] = -d.T
        out[start : start + count] = rankdata(_auto_layers_of(points), method="min", axis=1)
    return out


def _redrawn_values(
    result: SignificanceRelationResult,
    run_values: np.ndarray,
    counts: np.ndarray,
    slots: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """``[algorithms, count, n_p]`` values of the problems ``slots`` from drawn runs."""
    out = np.empty((run_values.shape[1], *slots.shape))
    for where, rows, drawn, present in drawn_runs(run_values, counts, slots, rng):
        if result.statistic == "mean":
            value = filled(drawn, present, 0.0).sum(axis=-1) / counts[rows]
        elif result.statistic == "median":
            value = np.nanmedian(filled(drawn, present, np.nan), axis=-1)
        elif result.statistic == "accuracy":
            value = filled(drawn, present, np.inf).min(axis=-1)
        else:  # robustness
            value = filled(drawn, present, -np.inf).max(axis=-1)
        out[:, where] = np.moveaxis(value, -1, 0)
    if result.value_shift is not None:
        out = out + result.value_shift
    if result.value_floor is not None:
        out = np.maximum(out, result.value_floor)
    return out


def _shortest_cycles(
    graph: nx.DiGraph, algorithms: Sequence[str], limit: int
) -> tuple[tuple[tuple[str, ...], ...], bool]:
    """Up to ``limit`` simple cycles, shortest first, each rotated to start at its first member."""
    import networkx as nx

    found: list[tuple[str, ...]] = []
    for length in range(2, graph.number_of_nodes() + 1):
        exact = (c for c in nx.simple_cycles(graph, length_bound=length) if len(c) == length)
        batch = list(itertools.islice(exact, limit + 1 - len(found)))
        for cycle in batch:
            start = min(range(len(cycle)), key=lambda k: algorithms.index(cycle[k]))
            found.append(tuple(cycle[start:] + cycle[:start]))
        if len(found) > limit:
            break
    found.sort(key=lambda c: (len(c), [algorithms.index(a) for a in c]))
    return tuple(found[:limit]), len(found) > limit


def _relation_at(
    sigma: float,
    requested: tuple[str, ...],
    interval: SweepInterval,
    algorithms: Sequence[str],
    points: np.ndarray,
) -> RelationAtSigma:
    import networkx as nx

    graph = relation_graph(algorithms, points, sigma)
    components = nx.condensation(graph)
    component_of = components.graph["mapping"]
    hasse = nx.transitive_reduction(components)
    edges = []
    for winner, loser, d in graph.edges(data="D"):
        same = component_of[winner] == component_of[loser]
        reduced = same or hasse.has_edge(component_of[winner], component_of[loser])
        edges.append(RelationEdge(winner, loser, d, same, reduced))
    order = _order_of(algorithms)
    edges.sort(key=lambda e: (-e.points, order[e.winner], order[e.loser]))
    cycles, truncated = (
        ((), False)
        if interval.cycle_free
        else _shortest_cycles(graph, algorithms, MAX_LISTED_CYCLES)
    )
    return RelationAtSigma(sigma, requested, interval, tuple(edges), cycles, truncated)


# ---------------------------------------------------------------------------------------------
# Input: one value per algorithm × problem instance
# ---------------------------------------------------------------------------------------------


def _where(options: SignificanceRelationOptions) -> str:
    """Input problems concern the analysis as a whole; the pipeline places them at its line."""
    return ""


def _derived_values(
    data: AnalysisData, options: SignificanceRelationOptions, runs: pd.DataFrame | None
) -> pd.Series:
    """One value per (algorithm, problem, dimension), before floor/shift (``runs``: each
    run's final value, :func:`_final_values`; None for a summary)."""
    frame = data.frame
    statistic = options.statistic
    if runs is None:
        column = SUMMARY_COLUMNS.get(statistic, statistic)
        candidates = [c for c in frame.columns if c not in KEYS]
        if column not in candidates:
            raise InputError(
                Problem(
                    _where(options),
                    f"statistic '{statistic}' needs the summary column '{column}', which the "
                    f"data has not; its columns are {quote_choices(candidates)}"
                    f"{did_you_mean(column, candidates)}",
                )
            )
        values = frame.set_index(list(KEYS))[column].astype(float)
        if values.isna().all():
            raise InputError(
                Problem(
                    _where(options),
                    f"statistic '{statistic}' reads the summary column '{column}', which holds "
                    "no values in this data",
                )
            )
        return values
    if statistic not in STATISTICS:
        raise InputError(
            Problem(
                _where(options),
                f"statistic '{statistic}' is not available for {data.format} data; allowed: "
                f"{quote_choices(STATISTICS)}{did_you_mean(statistic, STATISTICS)}",
            )
        )
    return (
        runs.groupby(list(KEYS), observed=True)["value"]
        .agg(_RUN_AGGREGATES[statistic])
        .astype(float)
    )


def _value_matrix(
    data: AnalysisData, options: SignificanceRelationOptions, runs: pd.DataFrame | None
) -> tuple[np.ndarray, tuple[tuple[str, int], ...], list[Caveat]]:
    """The compared values ``algorithm × problem`` (complete problems only) and caveats."""
    if len(data.algorithms) < 2:
        raise InputError(
            Problem(_where(options), "a significance relation needs at least two algorithms")
        )
    series = _derived_values(data, options, runs)
    table = series.unstack(["problem", "dimension"])
    columns = pd.MultiIndex.from_tuples(data.problems, names=["problem", "dimension"])
    table = table.reindex(index=list(data.algorithms), columns=columns)
    complete = ~table.isna().any(axis=0).to_numpy()
    if not complete.any():
        empty = [alg for alg in data.algorithms if table.loc[alg].isna().all()]
        raise InputError(
            Problem(
                _where(options),
                "no problem has a value for every algorithm"
                + (f" ({quote_choices(empty[:5])} have none)" if empty else "")
                + "; award points compare algorithms problem by problem",
            )
        )
    caveats = []
    if not complete.all():
        left_out = [data.problems[p] for p in np.flatnonzero(~complete)]
        caveats.append(
            Caveat(
                "excluded_problems",
                f"{counted(len(left_out), 'problem instance', 'are')} left out because some algorithm has "
                "no value there; award points compare algorithms problem by problem.",
                ", ".join(problem_label(p, d) for p, d in left_out),
            )
        )
    problems = tuple(p for p, keep in zip(data.problems, complete, strict=True) if keep)
    return table.to_numpy(dtype=float)[:, complete], problems, caveats


def _adjusted(
    values: np.ndarray,
    algorithms: Sequence[str],
    problems: Sequence[tuple[str, int]],
    options: SignificanceRelationOptions,
) -> tuple[np.ndarray, int, list[Caveat]]:
    """Apply ``value_shift`` / ``value_floor`` and require positive values."""
    caveats = []
    n_adjusted = 0
    if options.value_shift is not None:
        values = values + options.value_shift
        n_adjusted = values.size
        caveats.append(
            Caveat(
                "values_shifted",
                f"{options.value_shift:g} was added to every value before the "
                "ratios were taken (spec value_shift); award points depend on this choice.",
            )
        )
    if options.value_floor is not None:
        below = values < options.value_floor
        n_adjusted = int(below.sum())
        values = np.maximum(values, options.value_floor)
        if n_adjusted:
            caveats.append(
                Caveat(
                    "values_floored",
                    f"{counted(n_adjusted, 'value')} below {power_of_ten(options.value_floor)} were raised to it "
                    "(spec value_floor); they count as equal to each other.",
                )
            )
    bad = np.argwhere(~(values > 0))
    if len(bad):
        examples = ", ".join(
            f"{algorithms[i]} on {problem_label(*problems[p])} = {values[i, p]:g}"
            for i, p in bad[:3]
        )
        negative = bool((values < 0).any())
        raise InputError(
            Problem(
                _where(options),
                f"award points compare ratios of values, which must be positive; "
                f"{counted(len(bad), 'value', 'are')} zero or negative (e.g. {examples}). Set "
                + (
                    "`value_shift: c` (adds c to every value) so that all values are positive"
                    if negative
                    else "`value_floor: 1e-9` (raises values below it to it, e.g. errors that "
                    "reached the precision target) or `value_shift: c` (adds c to every value)"
                )
                + " in this analysis.",
            )
        )
    return values, n_adjusted, caveats


# ---------------------------------------------------------------------------------------------
# compute
# ---------------------------------------------------------------------------------------------


def compute(data: AnalysisData, options: SignificanceRelationOptions) -> SignificanceRelationResult:
    """Award points, the exact σ sweep and the relations at the requested σ (Köppen & Ohnishi).

    Parameters
    ----------
    data : AnalysisData
        Trials, histories or a summary table.
    options : SignificanceRelationOptions

    Returns
    -------
    SignificanceRelationResult

    Raises
    ------
    InputError
        Fewer than two algorithms, an unknown statistic or summary column, no problem with a
        value for every algorithm, or values that are zero or negative after floor/shift.
    """
    algorithms = data.algorithms
    runs = _final_values(data) if data.format != "summary" else None
    raw, problems, caveats = _value_matrix(data, options, runs)
    values, n_adjusted, adjust_caveats = _adjusted(raw, algorithms, problems, options)
    caveats += adjust_caveats
    rtol = float(options.relative_tolerance)

    # §III steps 1–4 for every ordered pair
    points = award_point_matrix(values, rtol=rtol)

    # §II: the exact sweep, auto, and the smallest non-empty maximum set
    intervals = sweep(algorithms, points)
    auto_index = next(k for k, iv in enumerate(intervals) if iv.cycle_free)
    sizes = [len(iv.maximum_set) for iv in intervals]
    smallest = min(s for s in sizes if s > 0)
    smallest_range = (sizes.index(smallest), len(sizes) - 1 - sizes[::-1].index(smallest))

    # the requested levels, deduplicated by value, in the order first asked for
    requested: dict[float, list[str]] = {}
    for s in options.sigmas:
        value = intervals[auto_index].sigma if s == "auto" else float(s)
        requested.setdefault(value, []).append("auto" if s == "auto" else f"{value:g}")
    relations = []
    for sigma, labels in requested.items():
        interval = next(iv for iv in intervals if iv.contains(sigma))
        relations.append(_relation_at(sigma, tuple(labels), interval, algorithms, points))
        if not interval.cycle_free:
            named = Naming()
            caveats.append(
                named.caveat(
                    "relation_has_cycles",
                    f"At σ = {sigma:g} the relation has cycles; algorithms on a "
                    "cycle share a rank layer (layers of the strongly connected components).",
                    ", ".join(" ".join(map(named, c)) for c in interval.cyclic_components),
                )
            )
    if len(problems) < 5:
        caveats.append(
            Caveat(
                "few_problems",
                f"Only {counted(len(problems), 'problem instance')}: award points take few values, so "
                "many algorithms tie.",
            )
        )
    order = tuple(a for layer in intervals[auto_index].layers for a in layer)
    return SignificanceRelationResult(
        algorithms=algorithms,
        problems=problems,
        statistic=options.statistic,
        input_format=data.format,
        values=values,
        award_points=points,
        relative_tolerance=rtol,
        value_floor=options.value_floor,
        value_shift=options.value_shift,
        n_adjusted=n_adjusted,
        sweep=intervals,
        auto_index=auto_index,
        smallest_maximum_set_range=smallest_range,
        relations=tuple(relations),
        order=order,
        transitive_reduction=options.transitive_reduction,
        caveats=tuple(caveats),
        runs=None
        if runs is None
        else pd.DataFrame(
            {
                "cell": _cells(zip(runs["problem"], runs["dimension"], strict=True)),
                "algorithm": runs["algorithm"].astype(str).to_numpy(),
                "value": runs["value"].to_numpy(dtype=float),
            }
        ),
    )


def _final_values(data: AnalysisData) -> pd.DataFrame:
    """Each run's final value (the last record of a history), in run order: gathered problem
    by problem (:meth:`AnalysisData.per_run`), so a partitioned source stays in its files."""
    if data.format == "histories":
        # A partitioned source's check kept each run's last value: no file is read again.
        known = data.records.final_values(data.problems) if data.records is not None else None
        return known if known is not None else data.per_run(_problem_final_values)
    return data.per_run(functools.partial(with_columns, columns=(*RUN_KEYS, "value")))


def _problem_final_values(frame: pd.DataFrame) -> pd.DataFrame:
    """Each run's last value, for one problem's histories."""
    return (
        frame[[*RUN_KEYS, "evaluations", "value"]]
        .sort_values([*RUN_KEYS, "evaluations"], kind="stable")
        .groupby(list(RUN_KEYS), sort=False, observed=True)["value"]
        .last()
        .reset_index()
    )


def _cells(problems: Iterable[tuple[Any, Any]]) -> list[str]:
    """``problem␟dimension`` keys (one string per problem instance, for the run arrays)."""
    return [f"{p}\x1f{int(d)}" for p, d in problems]
