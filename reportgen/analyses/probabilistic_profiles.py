r"""Standard and probabilistic performance profiles (Barreto, Bernardino & Barbosa, GECCO 2010).

What is computed
----------------
For algorithms :math:`a_i` and problem instances :math:`p_j` (``n_p`` of them) with cost
:math:`C_{ij} > 0` (smaller is better; :math:`\infty` = failure):

* baseline (§4): :math:`b_j = \min_k E[C_{kj}]`, estimated by the smallest mean cost;
* standard profile (§3, Dolan & Moré) of the mean costs :math:`c_{ij} = \hat\mu_{ij}`:
  :math:`\rho_i(x) = \frac{1}{n_p}\sum_j \delta(c_{ij}/b_j \le x)`, a right-continuous step
  function whose breakpoints are the finite ratios :math:`\hat\mu_{ij}/b_j`;
* probabilistic profile (§4, Eq. 2): :math:`\bar\rho_i(x) = \frac{1}{n_p}\sum_j
  P(C_{ij}/b_j \le x)`, with, for ``model="normal"`` (§4.1)
  :math:`P(R_{ij} \le x) = \Phi\big((x - \hat\mu_{ij}/b_j)/(\hat\sigma_{ij}/b_j)\big)`,
  :math:`\hat\sigma` the sample standard deviation (ddof = 1), and for ``model="empirical"``
  the share of the entry's runs with :math:`c/b_j \le x`;
* :math:`\rho_i(1)`, :math:`\bar\rho_i(1)` (expected share of wins), :math:`\rho_i(x_{max})`,
  :math:`\bar\rho_i(x_{max})` (expected share solved within :math:`x_{max}` = τ_max);
* reliability (§3): :math:`\zeta(a_i) = \sup\{\tau : \rho_i(\tau) < 1\}`, i.e. the largest ratio
  :math:`\max_j c_{ij}/b_j`, :math:`\infty` when :math:`a_i` fails somewhere;
  and its probabilistic counterpart :math:`\bar\zeta` (decision 5);
* every point of :math:`[1, x_{max}]` where the order of two algorithms' curves changes.

Decisions (1–3 from docs/methods.md, "Barreto et al."; the paper is silent on the rest)
---------------------------------------------------------------------------------
1. Costs must be positive. ``cost="evaluations_to_target"`` uses evaluations to reach the target
   (∞ = failure); ``cost="value"`` uses the final value, which must be an error ≥ 0 (a negative
   value is an input error, not something to shift silently). A cost of 0 requires
   ``cost_floor``: costs are raised to it, :math:`c \leftarrow \max(c, \text{floor})`, per run
   for ``trials`` data. For ``summary`` data only the mean can be floored,
   :math:`\hat\mu \leftarrow \max(\hat\mu, \text{floor})`; :math:`\hat\sigma` becomes 0 when the
   table's ``maximum`` is ≤ floor (every run floored: exact) and is kept otherwise; entries where
   the floor is only approximate (mean or minimum below it) are listed in a caveat.
2. The standard profile is that of the mean costs (the paper's Fig. 2 uses
   :math:`\hat\mu_{ij}` as the :math:`c_{ij}` of Fig. 1), with the same baseline as
   :math:`\bar\rho`, so that :math:`\sigma = 0` gives :math:`\bar\rho = \rho` exactly.
3. Failures. An entry with a failed run has :math:`E[C_{ij}] = \infty`: it is a failure of the
   standard profile and, in the normal model, contributes 0 to :math:`\bar\rho` (docs/methods.md).
   With partial failures (some runs failed, ``trials`` data) the normal model therefore discards
   the successful runs: such entries are listed in the ``partial_failures`` caveat, never dropped
   silently; the empirical model counts the successful runs and never a failed one.
   A problem on which every algorithm has :math:`\hat\mu = \infty` has no baseline
   (:math:`b_j = \infty`): it stays in :math:`n_p` and counts as unsolved for everybody
   (``no_baseline`` caveat).
4. :math:`\hat\sigma = 0` in the normal model is the degenerate normal: a step at
   :math:`\hat\mu/b_j` (right-continuous, like :math:`\rho`), not :math:`\Phi(0) = 1/2`.
   The normal model needs :math:`\hat\sigma`; with ``trials`` data an entry with a single
   successful run has none and is an input error (use ``model="empirical"``).
5. :math:`\sup\{\tau : \bar\rho(\tau) < 1\}` is ∞ for every σ > 0 (Φ < 1), so the
   probabilistic reliability uses a tolerance ε (``reliability_tolerance``):
   :math:`\bar\zeta = \sup\{x : n_p(1 - \bar\rho(x)) > \varepsilon\}`, the smallest ratio at
   which the expected number of problems not yet solved is at most ε. It is located by
   :func:`scipy.optimize.brentq` on the exact function (normal model) or exactly among the
   run ratios (empirical model); ∞ when some entry has an infinite mean (normal model) or
   the failed runs alone leave more than ε problems unsolved (empirical). As the steps of
   :math:`\rho` are multiples of :math:`1/n_p`, any ε < 1 gives :math:`\bar\zeta = \zeta`
   when σ = 0.
6. Evaluation. :math:`\rho` is evaluated exactly at every breakpoint in :math:`[1, x_{max}]`;
   :math:`\bar\rho` on ``grid_points`` log-spaced points of :math:`[1, x_{max}]` plus every
   breakpoint of either profile (the empirical :math:`\bar\rho` is itself a step function whose
   breakpoints are the run ratios), so the tables and figures are exact for step functions and
   drawn with ``steps-post``.
7. Crossings. For each pair of algorithms and each profile the sign of
   :math:`d = \rho_a - \rho_b` is read on the grid; where it changes from + to − or back,
   the crossing is placed exactly: at the breakpoint for step functions (where |d| ≤ 1e-12,
   rounding of equal fractions, is a tie), by :func:`scipy.optimize.brentq` on the exact
   :math:`d` for the normal profile (computed tail-accurately, see :func:`normal_difference`).
   When the curves coincide in between (e.g. :math:`\rho_2 = \rho_3` on [6.5, 8) in the
   paper's Table 1), the crossing is the interval ``[x, x_end)``. Touching without a change
   of order is not a crossing, and a "tie" narrower than 1e-9·x (ratios equal but for
   rounding, 0.009/0.003 against 0.003/0.001) is a point. Each crossing records its
   ``separation``, the smaller of the largest gaps between the curves on either side (on the
   grid), so that a reader can tell a visible change of order from one between tails that
   differ by 1e-12. Two crossings closer than one grid step can be missed; ``grid_points``
   controls the step. Beyond :data:`EXACT_CROSSINGS_UP_TO` algorithms the normal profile's
   crossings are placed by linear interpolation between grid points (within one grid step)
   and its ties start at the first tied grid point; the step-function crossings stay exact.
8. The analysed interval is :math:`[1, x_{max}]` (§3: restrict the analysis to
   :math:`(0, \tau_{max}]`; below 1 the standard profile is 0).
9. Φ is :func:`scipy.special.ndtr`, the function that :data:`scipy.stats.norm` ``.cdf``
   evaluates, called directly: root finding evaluates it thousands of times and
   ``norm.cdf``'s argument checking costs 70 times the evaluation.

The normal model gives :math:`P(C_{ij} \le 0) = \Phi(-\hat\mu/\hat\sigma) > 0`; entries where
this exceeds 1 % are named in a caveat (skewed costs: prefer ``model="empirical"``).

References
----------
.. [1] A. M. S. Barreto, H. S. Bernardino, H. J. C. Barbosa. Probabilistic performance
   profiles for the experimental evaluation of stochastic algorithms. GECCO 2010,
   §3 (performance profiles, reliability ζ, Table 1, Fig. 1), §4 (Eqs. 1–2), §4.1 (normal
   model), §5 (Figs. 2–3).
.. [2] E. D. Dolan, J. J. Moré. Benchmarking optimization software with performance profiles.
   Math. Programming 91:201–213, 2002.

Examples
--------
The paper's Table 1 (§3) as a published table with σ = 0:

>>> import pandas as pd
>>> from reportgen.data.frames import AnalysisData
>>> from reportgen.spec.analyses.probabilistic_profiles import ProbabilisticProfilesOptions
>>> costs = {"a1": [1, 1, 1, 5, 3], "a2": [float("inf"), 5.5, 5.5, 1, 1],
...          "a3": [2, 4, 4, 6.5, 8]}
>>> rows = [{"algorithm": a, "problem": f"p{j + 1}", "dimension": 0, "mean": c,
...          "std": 0.0, "n": 1} for a, cs in costs.items() for j, c in enumerate(cs)]
>>> data = AnalysisData("summary", pd.DataFrame(rows), tuple(costs),
...                     tuple((f"p{j}", 0) for j in range(1, 6)))
>>> result = compute(data, ProbabilisticProfilesOptions(kind="probabilistic_profiles",
...                                                     data="table1"))
>>> [(s.algorithm, s.rho_1, s.solved, s.zeta) for s in result.summary]
[('a1', 0.6, 1.0, 5.0), ('a2', 0.4, 0.8, inf), ('a3', 0.0, 1.0, 8.0)]
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import brentq
from scipy.special import ndtr
from scipy.stats import norm

from reportgen.analyses.floors import floor_summary
from reportgen.analyses.spread import sample_std
from reportgen.data.frames import (
    KEYS,
    RUN_KEYS,
    AnalysisData,
    by_problem,
    problem_label,
    with_columns,
)
from reportgen.errors import InputError, Problem
from reportgen.present.caveats import Caveat, Naming
from reportgen.present.format import power_of_ten, share
from reportgen.present.jsonable import json_value
from reportgen.spec.analyses.probabilistic_profiles import ProbabilisticProfilesOptions

Profile = Literal["standard", "probabilistic"]
Floats = NDArray[np.float64]

EXACT_CROSSINGS_UP_TO = 50
"""Most algorithms whose crossings are located exactly (decision 7: 1 225 pairs). Beyond, all
pairs of one algorithm are read on the grid at once and a crossing of the smooth normal
profile is placed by linear interpolation between its two grid points: at 500 algorithms
(124 750 pairs, some 90 000 roots) Brent's method takes minutes."""
STEP_TIE_TOLERANCE = 1e-12
"""Values of step profiles closer than this are equal (rounding of sums of equal fractions)."""

NEGATIVE_MASS_LIMIT = 0.01
"""Normal-model entries with P(C ≤ 0) above this are named in a caveat."""

_LISTED = 8
"""At most this many entries are named in one caveat."""


# --- result ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """The statistics of one algorithm on one problem instance, and its performance ratio.

    ``mean`` and ``std`` are after ``cost_floor``; ``mean`` is ∞ when a run failed, ``std`` NaN
    when undefined; ``failed`` is the number of failed runs (None for ``summary`` data);
    ``ratio = mean / baseline`` and ``ratio_std = std / baseline``.
    """

    algorithm: str
    problem: str
    dimension: int
    mean: float
    std: float
    n: int
    failed: int | None
    baseline: float
    ratio: float
    ratio_std: float


@dataclass(frozen=True)
class AlgorithmSummary:
    """Key values of both profiles of one algorithm (the columns of ``summary.csv``)."""

    algorithm: str
    rho_1: float
    rho_bar_1: float
    solved: float
    solved_bar: float
    zeta: float
    zeta_bar: float


@dataclass(frozen=True)
class Crossing:
    """A change of order between two algorithms' curves of one profile.

    The order is ``leader_before`` just left of ``x`` and ``leader_after`` from ``x_end`` on;
    on ``[x, x_end)`` the curves coincide (``x_end == x`` for a proper crossing).
    ``separation`` is the smaller of the largest gaps between the curves before and after the
    crossing, up to the neighbouring crossings: how visible the change of order is.
    """

    profile: Profile
    algorithm_a: str
    algorithm_b: str
    x: float
    x_end: float
    leader_before: str
    leader_after: str
    separation: float


JSON_PROFILE_POINTS = 100_000
"""Most curve points (algorithms × points of ``x``, for each profile) ``results.json`` holds:
about 2 MB. Beyond, e.g. 500 algorithms × 1 922 points (32 MB), the curves are in
``profile.csv`` only."""


@dataclass(frozen=True)
class ProbabilisticProfilesResult:
    """Both performance profiles, their key values and crossings (see the module docstring).

    ``rho[i]`` and ``rho_bar[i]`` are the profiles of ``algorithms[i]`` at the points ``x``.
    """

    algorithms: tuple[str, ...]
    problems: tuple[tuple[str, int], ...]
    input_format: str
    cost: str
    model: str
    cost_floor: float | None
    x_max: float
    grid_points: int
    reliability_tolerance: float
    entries: tuple[Entry, ...]
    x: tuple[float, ...]
    rho: tuple[tuple[float, ...], ...]
    rho_bar: tuple[tuple[float, ...], ...]
    summary: tuple[AlgorithmSummary, ...]
    crossings: tuple[Crossing, ...]
    caveats: tuple[Caveat, ...] = field(default=())
    by_problem: pd.DataFrame | None = None
    """problem, dimension, algorithm, at_1, at_x_max: each problem's term
    :math:`P(C_{ij}/b_j \\le x)` of :math:`\\bar\\rho_i` at 1 and at ``x_max``, whose means over
    the problems are ``rho_bar_1`` and ``solved_bar`` (what the summary's bootstrap
    resamples)."""

    @property
    def fixed_target(self) -> bool:
        """Costs are evaluations to a target (a problem is *solved* within ratio x); with
        ``cost="value"`` (final errors, fixed cost) nothing is solved: a problem is *within
        ratio x* of the best mean error, and the report words it so."""
        return self.cost != "value"

    @property
    def within_words(self) -> str:
        """``"solved within ratio x"`` or ``"within ratio x of the best mean final value"``."""
        if self.fixed_target:
            return "solved within ratio x"
        return "with a final value within ratio x of the best mean"

    def summary_of(self, algorithm: str) -> AlgorithmSummary:
        """The :class:`AlgorithmSummary` of ``algorithm``."""
        return self.summary[self.algorithms.index(algorithm)]

    def standard_at(self, algorithm: str, x: float) -> float:
        """:math:`\\rho(x)` for 1 ≤ x ≤ x_max, exact: every breakpoint is a tabulated point."""
        if not 1.0 <= x <= self.x_max:
            raise ValueError(f"x = {x} is outside the analysed interval [1, {self.x_max}]")
        k = int(np.searchsorted(np.asarray(self.x), x, side="right")) - 1
        return self.rho[self.algorithms.index(algorithm)][k]

    def crossings_of(self, a: str, b: str, profile: Profile) -> tuple[Crossing, ...]:
        """The crossings of the curves of ``a`` and ``b`` in ``profile``, by x."""
        pair = {a, b}
        return tuple(
            c
            for c in self.crossings
            if c.profile == profile and {c.algorithm_a, c.algorithm_b} == pair
        )

    def problem_terms(self, at: Literal["at_1", "at_x_max"]) -> pd.DataFrame:
        """Each problem's term of :math:`\\bar\\rho_i` at 1 or at ``x_max``, problems ×
        algorithms (empty without :attr:`by_problem`)."""
        if self.by_problem is None:
            return pd.DataFrame(columns=list(self.algorithms))
        return by_problem(self.by_problem, at, self.algorithms)

    def tables(self) -> dict[str, pd.DataFrame]:
        """``profile``, ``summary``, ``crossings`` and ``entries`` (inputs and ratios)."""
        n = len(self.x)
        profile = pd.DataFrame(
            {
                "algorithm": np.repeat(np.asarray(self.algorithms, dtype=object), n),
                "x": np.tile(np.asarray(self.x), len(self.algorithms)),
                "rho": np.concatenate([np.asarray(r) for r in self.rho]),
                "rho_bar": np.concatenate([np.asarray(r) for r in self.rho_bar]),
            }
        )
        crossing_columns = [
            "profile",
            "algorithm_a",
            "algorithm_b",
            "x",
            "x_end",
            "leader_before",
            "leader_after",
            "separation",
        ]
        return {
            "profile": profile,
            "summary": pd.DataFrame([vars(s) for s in self.summary]),
            "crossings": pd.DataFrame([vars(c) for c in self.crossings], columns=crossing_columns),
            "entries": pd.DataFrame([vars(e) for e in self.entries]),
        }

    def to_json(self) -> dict[str, Any]:
        """Parameters, summary, crossings, entries and both profiles (∞ as "inf", no NaN)."""
        return {
            "parameters": {
                "input_format": self.input_format,
                "cost": self.cost,
                "model": self.model,
                "cost_floor": self.cost_floor,
                "x_max": self.x_max,
                "grid_points": self.grid_points,
                "reliability_tolerance": self.reliability_tolerance,
                "n_problems": len(self.problems),
            },
            "summary": [_jsonable(vars(s)) for s in self.summary],
            "crossings": [_jsonable(vars(c)) for c in self.crossings],
            "entries": [_jsonable(vars(e)) for e in self.entries],
            "profile": self._profile_json(),
            "caveats": [c.to_json() for c in self.caveats],
        }

    def _profile_json(self) -> dict[str, Any]:
        """Both profiles at the points ``x``, or (beyond :data:`JSON_PROFILE_POINTS`) ``x``
        and a note: the curves are in ``profile.csv``."""
        points = len(self.algorithms) * len(self.x)
        if points > JSON_PROFILE_POINTS:
            return {
                "x": list(self.x),
                "rho": {},
                "rho_bar": {},
                "omitted": f"{len(self.algorithms)} curves of {len(self.x)} points each: "
                "in profile.csv",
            }
        return {
            "x": list(self.x),
            "rho": {a: list(r) for a, r in zip(self.algorithms, self.rho, strict=True)},
            "rho_bar": {a: list(r) for a, r in zip(self.algorithms, self.rho_bar, strict=True)},
        }


def _jsonable(row: dict[str, Any]) -> dict[str, Any]:
    return {k: json_value(v) for k, v in row.items()}


# --- the profiles as exact functions ---------------------------------------------------------


def standard_profile(ratios: ArrayLike, x: ArrayLike) -> Floats:
    r"""Performance profile of one algorithm (Barreto et al. §3; Dolan & Moré).

    .. math:: \rho_i(x) = \frac{1}{n_p} \sum_{j=1}^{n_p} \delta(r_{ij} \le x)

    Parameters
    ----------
    ratios : array_like, shape (n_p,)
        Performance ratios :math:`r_{ij} = c_{ij}/b_j` (``inf`` = failure).
    x : array_like, shape (k,)
        Where to evaluate.

    Returns
    -------
    numpy.ndarray, shape (k,)
        The right-continuous step function at ``x``.

    Examples
    --------
    >>> standard_profile([1.0, 1.0, 1.0, 5.0, 3.0], [1.0, 4.9, 5.0]).tolist()
    [0.6, 0.8, 1.0]
    """
    r = np.sort(np.asarray(ratios, dtype=float))
    xs = np.asarray(x, dtype=float)
    return np.searchsorted(r, xs, side="right") / r.size


class NormalCurve:
    r""":math:`n_p \bar\rho_i(x)` of the normal model, split into an exact count and tails.

    :math:`\Phi(z) = 1 - \Phi(-z)` for z > 0 and :math:`\Phi(z)` otherwise: counting the ones
    apart from the tails (summed in sorted order, so the order of the problems does not matter)
    keeps :math:`\bar\rho` and the difference of two profiles accurate where Φ is within
    rounding of 0 or 1 — which is where two nearly equal curves cross. Φ is
    :func:`scipy.special.ndtr`, the function :data:`scipy.stats.norm` evaluates, called
    directly because root finding calls it thousands of times.

    Parameters
    ----------
    ratios, ratio_stds : array_like, shape (n_p,)
        :math:`\mu_{ij}/b_j` (``inf`` = failure: contributes 0) and :math:`\sigma_{ij}/b_j`
        (0: the step :math:`\delta(\mu_{ij}/b_j \le x)`).
    """

    def __init__(self, ratios: ArrayLike, ratio_stds: ArrayLike) -> None:
        m = np.asarray(ratios, dtype=float)
        s = np.asarray(ratio_stds, dtype=float)
        finite = np.isfinite(m)
        smooth = finite & (s > 0)
        self.n_problems = m.size
        self.steps = np.sort(m[finite & ~smooth])
        self.mean = m[smooth][:, None]
        self.std = s[smooth][:, None]

    def parts(self, x: Floats) -> tuple[Floats, Floats]:
        """(count, tails) at ``x``: :math:`n_p\bar\rho(x)` = count + tails."""
        count = np.searchsorted(self.steps, x, side="right").astype(float)
        if not self.mean.size:
            return count, np.zeros(x.shape)
        z = (x[None, :] - self.mean) / self.std
        upper = z > 0
        count += upper.sum(axis=0)
        tail = ndtr(-np.abs(z))  # Φ(z) for z ≤ 0, 1 − Φ(z) for z > 0
        return count, np.sort(np.where(upper, -tail, tail), axis=0).sum(axis=0)

    def __call__(self, x: ArrayLike) -> Floats:
        """:math:`\bar\rho(x)`."""
        count, tails = self.parts(_points(x))
        return (count + tails) / self.n_problems

    def minus(self, other: NormalCurve, x: ArrayLike) -> Floats:
        """:math:`\bar\rho_{self}(x) - \bar\rho_{other}(x)`, counts and tails apart."""
        xs = _points(x)
        ca, ta = self.parts(xs)
        cb, tb = other.parts(xs)
        return ((ca - cb) + (ta - tb)) / self.n_problems


def normal_profile(ratios: ArrayLike, ratio_stds: ArrayLike, x: ArrayLike) -> Floats:
    r"""Probabilistic profile under the normal model (Barreto et al. Eq. 2, §4.1).

    .. math:: \bar\rho_i(x) = \frac{1}{n_p} \sum_{j=1}^{n_p}
              \Phi\left(\frac{x - \mu_{ij}/b_j}{\sigma_{ij}/b_j}\right)

    An entry with infinite mean contributes 0; one with :math:`\sigma = 0` contributes the
    step :math:`\delta(\mu_{ij}/b_j \le x)`.

    Parameters
    ----------
    ratios : array_like, shape (n_p,)
        :math:`\mu_{ij}/b_j` (``inf`` = failure).
    ratio_stds : array_like, shape (n_p,)
        :math:`\sigma_{ij}/b_j` (ignored where the ratio is infinite).
    x : array_like, shape (k,)
        Where to evaluate.

    Returns
    -------
    numpy.ndarray, shape (k,)

    Examples
    --------
    Table 1, algorithm a2, σ = 1 (Fig. 2): :math:`(2\Phi(-1.5) + 2\Phi(3))/5` at x = 4.

    >>> round(float(normal_profile([np.inf, 5.5, 5.5, 1, 1], [1, 1, 1, 1, 1], [4.0])[0]), 6)
    0.426183
    """
    return NormalCurve(ratios, ratio_stds)(x)


def normal_difference(
    ratios_a: ArrayLike,
    ratio_stds_a: ArrayLike,
    ratios_b: ArrayLike,
    ratio_stds_b: ArrayLike,
    x: ArrayLike,
) -> Floats:
    r""":math:`\bar\rho_a(x) - \bar\rho_b(x)` of the normal model, accurate in the tails.

    The counts are subtracted exactly and the tails apart, so the sign is right even where
    both curves are within rounding of the same value (see :func:`normal_profile`).

    >>> float(normal_difference([1.0], [0.1], [1.0], [0.2], [1.0])[0])
    0.0
    """
    return NormalCurve(ratios_a, ratio_stds_a).minus(NormalCurve(ratios_b, ratio_stds_b), x)


def empirical_profile(run_ratios: Sequence[ArrayLike], runs: Sequence[int], x: ArrayLike) -> Floats:
    r"""Distribution-free probabilistic profile (ours; docs/methods.md).

    .. math:: \bar\rho_i(x) = \frac{1}{n_p} \sum_{j=1}^{n_p}
              \frac{\#\{k : c^k_{ij}/b_j \le x\}}{n_{ij}}

    Parameters
    ----------
    run_ratios : sequence of array_like
        Per problem, the ratios :math:`c^k_{ij}/b_j` of the successful runs.
    runs : sequence of int
        Per problem, the number of runs :math:`n_{ij}`, failed ones included.
    x : array_like, shape (k,)

    Returns
    -------
    numpy.ndarray, shape (k,)

    Examples
    --------
    >>> empirical_profile([[1.0, 2.0], [1.5]], [2, 2], [1.0, 2.0]).tolist()
    [0.25, 0.75]
    """
    xs = _points(x)
    total = np.zeros(xs.shape)
    for rr, n in zip(run_ratios, runs, strict=True):
        total += np.searchsorted(np.sort(np.asarray(rr, dtype=float)), xs, side="right") / n
    return total / len(runs)


def _points(x: ArrayLike) -> Floats:
    return np.atleast_1d(np.asarray(x, dtype=float))


def reliability(ratios: ArrayLike) -> float:
    r"""Reliability :math:`\zeta(a_i) = \sup\{\tau : \rho_i(\tau) < 1\}` (Barreto et al. §3).

    Equal to the largest ratio :math:`\max_j r_{ij}`; ∞ when the algorithm fails somewhere.

    >>> reliability([2.0, 4.0, 4.0, 6.5, 8.0]), reliability([np.inf, 1.0])
    (8.0, inf)
    """
    return float(np.max(np.asarray(ratios, dtype=float)))


def normal_reliability(ratios: ArrayLike, ratio_stds: ArrayLike, tolerance: float) -> float:
    r"""Probabilistic reliability :math:`\bar\zeta` of the normal model (decision 5).

    .. math:: \bar\zeta = \sup\{x : \textstyle\sum_j \big(1 - P(R_{ij} \le x)\big) > \varepsilon\}

    Located by :func:`scipy.optimize.brentq` on the exact, nonincreasing expected number of
    unsolved problems; ∞ when some ratio is infinite. With all σ = 0 it equals
    :func:`reliability` exactly.

    >>> normal_reliability([1.0, 3.0], [0.0, 0.0], 0.01)
    3.0
    >>> round(normal_reliability([1.0], [0.1], 0.01), 6)  # 1 + 0.1 Φ⁻¹(0.99)
    1.232635
    """
    m = np.asarray(ratios, dtype=float)
    s = np.asarray(ratio_stds, dtype=float)
    if not np.isfinite(m).all():
        return math.inf
    smooth = s > 0
    if not smooth.any():
        return float(m.max())

    def excess_unsolved(x: float) -> float:
        unsolved = ndtr((m[smooth] - x) / s[smooth]).sum() + np.count_nonzero(m[~smooth] > x)
        return float(unsolved - tolerance)

    # at 0 every entry is unsolved with probability > 1/2 > ε; at hi every tail is < ε/(2 n_p)
    z = float(norm.isf(tolerance / (2 * m.size)))
    hi = float(np.max(m + z * np.where(smooth, s, 0.0))) * (1 + 1e-9) + 1e-12
    root = brentq(excess_unsolved, 0.0, hi, xtol=1e-14, rtol=1e-14)
    return _snap(root, m[~smooth])


def empirical_reliability(
    run_ratios: Sequence[ArrayLike], runs: Sequence[int], tolerance: float
) -> float:
    r"""Probabilistic reliability :math:`\bar\zeta` of the empirical model (decision 5).

    The smallest run ratio at which the expected number of unsolved problems
    :math:`\sum_j (1 - \#\{k: c^k_{ij}/b_j \le x\}/n_{ij})` is at most ε; ∞ when the failed
    runs alone exceed ε.

    >>> empirical_reliability([[1.0, 2.0], [1.5, 3.0]], [2, 2], 0.01)
    3.0
    """
    ratios = [np.asarray(rr, dtype=float) for rr in run_ratios]
    failed = sum((n - rr.size) / n for rr, n in zip(ratios, runs, strict=True))
    if failed > tolerance + STEP_TIE_TOLERANCE:
        return math.inf
    candidates = np.unique(np.concatenate(ratios))
    unsolved = len(runs) * (1.0 - empirical_profile(ratios, runs, candidates))
    return float(candidates[np.argmax(unsolved <= tolerance + STEP_TIE_TOLERANCE)])


def _snap(x: float, breakpoints: Floats) -> float:
    """Put a root found next to a step's breakpoint exactly on it (right-continuity)."""
    if breakpoints.size:
        nearest = breakpoints[np.argmin(np.abs(breakpoints - x))]
        if abs(nearest - x) <= 1e-9 * max(1.0, abs(nearest)):
            return float(nearest)
    return float(x)


# --- crossings -------------------------------------------------------------------------------


def profile_crossings(
    x: Floats,
    d: Floats,
    steps: bool,
    difference: Callable[[Floats], Floats] | None = None,
) -> list[tuple[float, float, int, int, float]]:
    r"""Where :math:`d = \rho_a - \rho_b` changes sign (decision 7).

    Parameters
    ----------
    x : numpy.ndarray
        Sorted evaluation points containing every breakpoint of ``d``.
    d : numpy.ndarray
        :math:`d` at ``x``.
    steps : bool
        ``d`` is piecewise constant between points of ``x``: every change is at a point of
        ``x``, and |d| ≤ ``STEP_TIE_TOLERANCE`` is a tie (rounding of equal fractions).
        Otherwise only d = 0 is a tie and changes are located by :func:`scipy.optimize.brentq`
        on ``difference`` (through a tie: by bisection to 1e-13).
    difference : callable, optional
        The exact :math:`d`, vectorised; needed unless ``steps``.

    Returns
    -------
    list of (x, x_end, sign_before, sign_after, separation)
        ``sign`` is +1 when ``a`` leads; ties span ``[x, x_end)``; ``separation`` is the
        smaller of the largest gaps |d| on the points of ``x`` on either side, up to the
        neighbouring crossings (how visible the change of order is).

    Examples
    --------
    Table 1, :math:`\rho_2 - \rho_3`: the order changes at 4, at 5.5 and, through a tie on
    [6.5, 8), at 6.5.

    >>> grid = np.array([1, 2, 3, 4, 5, 5.5, 6.5, 8, 10])
    >>> d = (standard_profile([np.inf, 5.5, 5.5, 1, 1], grid)
    ...      - standard_profile([2, 4, 4, 6.5, 8], grid))
    >>> [tuple(round(float(v), 6) for v in c) for c in profile_crossings(grid, d, steps=True)]
    [(4.0, 4.0, 1.0, -1.0, 0.2), (5.5, 5.5, -1.0, 1.0, 0.2), (6.5, 8.0, 1.0, -1.0, 0.2)]
    """
    tolerance = STEP_TIE_TOLERANCE if steps else 0.0
    if not steps and difference is None:
        raise ValueError("profile_crossings needs `difference` unless steps=True")
    exact: Callable[[Floats], Floats] = difference if difference is not None else np.asarray

    def sign_of(values: Floats) -> NDArray[np.int64]:
        return np.where(values > tolerance, 1, np.where(values < -tolerance, -1, 0))

    gap = np.abs(d)
    sign = sign_of(d)
    nonzero = np.flatnonzero(sign)
    changes = [
        (int(nonzero[c]), int(nonzero[c + 1]))
        for c in np.flatnonzero(sign[nonzero[1:]] != sign[nonzero[:-1]])
    ]
    found = []
    for c, (k0, k1) in enumerate(changes):
        before, after = int(sign[k0]), int(sign[k1])
        if steps:
            start, end = float(x[k0 + 1]), float(x[k1])
        elif k1 == k0 + 1:
            start = end = _root(exact, float(x[k0]), float(x[k1]))
        else:
            start = _edge(_keeps_sign(exact, sign_of, before), float(x[k0]), float(x[k0 + 1]))
            end = _edge(_lacks_sign(exact, sign_of, after), float(x[k1 - 1]), float(x[k1]))
        if end - start <= 1e-9 * end:  # d = 0 at one point, or between ratios equal but
            end = start  # for rounding (0.009/0.003 vs 0.003/0.001): a crossing, not a tie
        left = changes[c - 1][1] if c > 0 else 0
        right = changes[c + 1][0] if c + 1 < len(changes) else x.size - 1
        separation = min(float(gap[left : k0 + 1].max()), float(gap[k1 : right + 1].max()))
        found.append((start, end, before, after, separation))
    return found


def _root(difference: Callable[[Floats], Floats], a: float, b: float) -> float:
    """The x in (a, b] where ``difference`` changes sign (brentq; a jump at b gives b)."""

    def f(t: float) -> float:
        return float(difference(np.array([t]))[0])

    root = brentq(f, a, b, xtol=1e-13, rtol=1e-14)
    return float(b) if b - root <= 1e-9 * b else float(root)


def _keeps_sign(
    d: Callable[[Floats], Floats], sign_of: Callable[[Floats], NDArray[np.int64]], sign: int
) -> Callable[[Floats], bool]:
    return lambda t: bool(sign_of(d(t))[0] == sign)


def _lacks_sign(
    d: Callable[[Floats], Floats], sign_of: Callable[[Floats], NDArray[np.int64]], sign: int
) -> Callable[[Floats], bool]:
    return lambda t: bool(sign_of(d(t))[0] != sign)


def _edge(holds: Callable[[Floats], bool], a: float, b: float) -> float:
    """Bisection for where ``holds`` stops: it holds at ``a``, not at ``b``."""
    while b - a > 1e-13 * b:
        mid = 0.5 * (a + b)
        if holds(np.array([mid])):
            a = mid
        else:
            b = mid
    return float(b)


# --- input -----------------------------------------------------------------------------------


@dataclass
class _Entries:
    """Per algorithm × problem statistics (arrays of shape (n_a, n_p)) and run costs."""

    mean: Floats
    std: Floats
    n: NDArray[np.int64]
    failed: NDArray[np.int64] | None
    run_costs: list[list[Floats]] | None
    floored: int = 0
    floor_approximate: list[tuple[str, str]] = field(default_factory=list)
    """(algorithm, problem) of the summary entries whose floor is only approximate."""


def _where(options: ProbabilisticProfilesOptions) -> str:
    """Input problems concern the analysis as a whole; the pipeline places them at its line."""
    return ""


def _locate(
    frame: pd.DataFrame, data: AnalysisData, options: ProbabilisticProfilesOptions
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Row → (algorithm index, problem index); every algorithm × problem must have data."""
    alg_index = {a: i for i, a in enumerate(data.algorithms)}
    prob_index = {p: j for j, p in enumerate(data.problems)}
    i = frame["algorithm"].map(alg_index)
    j = pd.Series(
        [
            prob_index.get((p, int(d)), -1)
            for p, d in zip(frame["problem"], frame["dimension"], strict=True)
        ],
        index=frame.index,
    )
    unknown = i.isna() | (j < 0)
    if unknown.any():
        row = frame.loc[unknown].iloc[0]
        raise InputError(
            Problem(
                _where(options),
                f"the data has rows for ({row['algorithm']}, "
                f"{problem_label(row['problem'], int(row['dimension']))}), which is not among "
                "the study's algorithms and problems",
            )
        )
    ii, jj = i.to_numpy(dtype=np.int64), j.to_numpy(dtype=np.int64)
    present = np.zeros((len(data.algorithms), len(data.problems)), dtype=bool)
    present[ii, jj] = True
    if not present.all():
        missing = [
            f"({data.algorithms[a]}, {problem_label(*data.problems[p])})"
            for a, p in zip(*np.nonzero(~present), strict=True)
        ]
        raise InputError(
            Problem(
                _where(options),
                f"performance profiles need a cost for every algorithm on every problem; "
                f"missing: {_listing(missing)}",
            )
        )
    return ii, jj


def _listing(items: Sequence[str]) -> str:
    shown = ", ".join(items[:_LISTED])
    return shown + (f" and {len(items) - _LISTED} more" if len(items) > _LISTED else "")


def _check_costs(
    costs: Floats,
    labels: Callable[[NDArray[np.bool_]], list[str]],
    what: str,
    options: ProbabilisticProfilesOptions,
) -> None:
    """Costs must be numbers, ≥ 0, finite for ``cost="value"``, and > 0 unless floored."""
    where = _where(options)
    problems = []
    nan = np.isnan(costs)
    if nan.any():
        problems.append(Problem(where, f"{what} is missing (NaN) for {_listing(labels(nan))}"))
    negative = costs < 0
    if negative.any():
        problems.append(
            Problem(
                where,
                f"costs must be positive, but {what} is negative for {_listing(labels(negative))};"
                " use errors (f − f*) or evaluation counts",
            )
        )
    if options.cost == "value" and np.isinf(costs).any():
        problems.append(
            Problem(
                where,
                f"cost 'value' must be finite, but {what} is ∞ for "
                f"{_listing(labels(np.isinf(costs)))}; ∞ marks a failure only with cost "
                "'evaluations_to_target'",
            )
        )
    zero = costs == 0
    if zero.any() and options.cost_floor is None:
        problems.append(
            Problem(
                where,
                f"{what} is 0 for {_listing(labels(zero))}, and performance ratios divide by "
                "the best cost: set `cost_floor` (e.g. 1.0e-8 for final errors)",
            )
        )
    if problems:
        raise InputError(problems)


def _from_trials(data: AnalysisData, options: ProbabilisticProfilesOptions) -> _Entries:
    if options.cost not in data.frame.columns:
        raise InputError(
            Problem(
                _where(options),
                f"cost '{options.cost}' needs the column '{options.cost}' in the trials data, "
                f"which has {sorted(map(str, data.frame.columns))}",
            )
        )
    # The runs' costs, gathered problem by problem (a partitioned source is read there).
    frame = data.per_run(functools.partial(with_columns, columns=(*RUN_KEYS, options.cost)))
    ii, jj = _locate(frame, data, options)
    costs = frame[options.cost].to_numpy(dtype=float)

    def labels(mask: NDArray[np.bool_]) -> list[str]:
        rows = frame.loc[mask]
        return [
            f"{a}/{problem_label(p, int(d))} run {r}"
            for a, p, d, r in zip(
                rows["algorithm"], rows["problem"], rows["dimension"], rows["run"], strict=True
            )
        ]

    _check_costs(costs, labels, f"'{options.cost}'", options)
    floored = 0
    if options.cost_floor is not None:
        below = costs < options.cost_floor
        floored = int(np.count_nonzero(below))
        costs = np.where(below, options.cost_floor, costs)

    shape = (len(data.algorithms), len(data.problems))
    mean = np.full(shape, np.inf)
    std = np.full(shape, np.nan)
    n = np.zeros(shape, dtype=np.int64)
    failed = np.zeros(shape, dtype=np.int64)
    run_costs: list[list[Floats]] = [[np.empty(0)] * shape[1] for _ in range(shape[0])]
    order = np.lexsort((jj, ii))
    bounds = np.flatnonzero(np.diff(ii[order] * shape[1] + jj[order])) + 1
    for group in np.split(order, bounds):
        a, p = int(ii[group[0]]), int(jj[group[0]])
        c = costs[group]
        ok = c[np.isfinite(c)]
        n[a, p], failed[a, p] = c.size, c.size - ok.size
        run_costs[a][p] = np.sort(ok)
        if ok.size == c.size:
            mean[a, p] = float(np.mean(ok))
            if ok.size > 1:
                std[a, p] = sample_std(ok)
    single = np.isfinite(mean) & np.isnan(std)
    if options.model == "normal" and single.any():
        names = [
            f"({data.algorithms[a]}, {problem_label(*data.problems[p])})"
            for a, p in zip(*np.nonzero(single), strict=True)
        ]
        raise InputError(
            Problem(
                _where(options),
                "the normal model needs a standard deviation (ddof = 1), i.e. at least two "
                f"runs, but there is one run for {_listing(names)}; use model: empirical",
            )
        )
    return _Entries(mean, std, n, failed, run_costs, floored=floored)


def _from_summary(data: AnalysisData, options: ProbabilisticProfilesOptions) -> _Entries:
    frame = data.frame
    where = _where(options)
    missing = [c for c in ("mean", "std", "n") if c not in frame.columns]
    if missing:
        raise InputError(
            Problem(
                where,
                f"probabilistic profiles from a summary table need the columns 'mean', 'std' "
                f"and 'n'; missing: {', '.join(repr(c) for c in missing)}",
            )
        )
    duplicated = frame.duplicated(list(KEYS))
    if duplicated.any():
        row = frame.loc[duplicated].iloc[0]
        raise InputError(
            Problem(
                where,
                f"the summary table has more than one row for ({row['algorithm']}, "
                f"{problem_label(row['problem'], int(row['dimension']))})",
            )
        )
    ii, jj = _locate(frame, data, options)

    def labels(mask: NDArray[np.bool_]) -> list[str]:
        rows = frame.loc[mask]
        return [
            f"({a}, {problem_label(p, int(d))})"
            for a, p, d in zip(rows["algorithm"], rows["problem"], rows["dimension"], strict=True)
        ]

    mean_in = frame["mean"].to_numpy(dtype=float)
    std_in = frame["std"].to_numpy(dtype=float)
    n_in = frame["n"].to_numpy(dtype=float)
    _check_costs(mean_in, labels, "the mean", options)
    finite = np.isfinite(mean_in)
    bad_std = finite & ~(std_in >= 0)
    bad_n = ~((n_in >= 1) & (n_in == np.floor(n_in)))
    problems = []
    if bad_std.any():
        problems.append(
            Problem(
                where,
                "the normal model needs a standard deviation ≥ 0 for every finite mean; "
                f"invalid for {_listing(labels(bad_std))}",
            )
        )
    if bad_n.any():
        problems.append(
            Problem(where, f"'n' must be a whole number ≥ 1; invalid for {_listing(labels(bad_n))}")
        )
    if problems:
        raise InputError(problems)

    floor_approximate: list[tuple[str, str]] = []
    if options.cost_floor is not None:
        floored = floor_summary(frame, options.cost_floor)
        rows = frame.loc[floored.approximate]
        floor_approximate = [
            (str(a), problem_label(p, int(d)))
            for a, p, d in zip(rows["algorithm"], rows["problem"], rows["dimension"], strict=True)
        ]
        std_in = floored.frame["std"].to_numpy(dtype=float)
        mean_in = floored.frame["mean"].to_numpy(dtype=float)

    shape = (len(data.algorithms), len(data.problems))
    mean = np.full(shape, np.inf)
    std = np.full(shape, np.nan)
    n = np.zeros(shape, dtype=np.int64)
    mean[ii, jj] = mean_in
    std[ii, jj] = np.where(finite, std_in, np.nan)
    n[ii, jj] = n_in.astype(np.int64)
    return _Entries(mean, std, n, None, None, floor_approximate=floor_approximate)


def _validate_input(data: AnalysisData, options: ProbabilisticProfilesOptions) -> _Entries:
    """Check the input format and turn it into per-entry statistics."""
    if not data.algorithms or not data.problems:
        raise InputError(
            Problem(_where(options), "performance profiles need at least one algorithm and problem")
        )
    # The spec admits trials and summaries only (ProbabilisticProfilesOptions.reads).
    if data.format == "trials":
        return _from_trials(data, options)
    return _from_summary(data, options)


# --- the analysis ----------------------------------------------------------------------------


def compute(
    data: AnalysisData, options: ProbabilisticProfilesOptions
) -> ProbabilisticProfilesResult:
    r"""Standard and probabilistic performance profiles, reliabilities and crossings.

    Parameters
    ----------
    data : AnalysisData
        ``trials`` (cost column per run: ``evaluations_to_target`` or ``value``) or
        ``summary`` (``mean``, ``std``, ``n`` per algorithm × problem; normal model only).
    options : ProbabilisticProfilesOptions
        ``cost``, ``cost_floor``, ``model``, ``x_max``, ``grid_points``,
        ``reliability_tolerance``.

    Returns
    -------
    ProbabilisticProfilesResult

    Raises
    ------
    reportgen.errors.InputError
        Wrong data format, missing columns or entries, non-positive costs without
        ``cost_floor``, the empirical model on a summary table, a single run for the normal model.

    Notes
    -----
    See the module docstring for the formulas (Barreto et al. §3, Eqs. 1–2, §4.1) and the
    decisions taken where the paper is silent.
    """
    entries = _validate_input(data, options)
    n_a, n_p = entries.mean.shape

    # §4: b_j = min_k E[C_kj]; r_ij = μ_ij / b_j (∞ for failures and for problems nobody solves)
    baseline = entries.mean.min(axis=0)
    has_baseline = np.isfinite(baseline)
    safe = np.where(has_baseline, baseline, 1.0)
    ratio = np.where(has_baseline & np.isfinite(entries.mean), entries.mean / safe, np.inf)
    ratio_std = np.where(np.isfinite(ratio), entries.std / safe, np.nan)
    run_ratios: list[list[Floats]] | None = None
    if options.model == "empirical":
        assert entries.run_costs is not None
        run_ratios = [
            [c / baseline[j] if has_baseline[j] else np.empty(0) for j, c in enumerate(row)]
            for row in entries.run_costs
        ]

    # Decision 6: the grid, plus every breakpoint of both profiles inside [1, x_max]
    x_max = options.x_max
    grid = np.geomspace(1.0, x_max, options.grid_points)
    grid[0], grid[-1] = 1.0, x_max
    parts = [grid, ratio[np.isfinite(ratio)]]
    if run_ratios is not None:
        parts += [rr for row in run_ratios for rr in row]
    x = np.unique(np.concatenate(parts))
    x = x[(x >= 1.0) & (x <= x_max)]

    # §3 and §4 (Eq. 2): both profiles at every tabulated point (x[0] = 1, x[-1] = x_max)
    rho = np.array([standard_profile(ratio[i], x) for i in range(n_a)])
    curves: list[NormalCurve] | None = None
    parts_on_grid: list[tuple[Floats, Floats]] = []
    if run_ratios is not None:
        rho_bar = np.array([empirical_profile(run_ratios[i], entries.n[i], x) for i in range(n_a)])
        zeta_bar = [
            empirical_reliability(
                run_ratios[i], entries.n[i].tolist(), options.reliability_tolerance
            )
            for i in range(n_a)
        ]
    else:
        curves = [NormalCurve(ratio[i], ratio_std[i]) for i in range(n_a)]
        parts_on_grid = [curve.parts(x) for curve in curves]
        rho_bar = np.array([(count + tails) / n_p for count, tails in parts_on_grid])
        zeta_bar = [
            normal_reliability(ratio[i], ratio_std[i], options.reliability_tolerance)
            for i in range(n_a)
        ]
    summary = [
        AlgorithmSummary(
            algorithm=algorithm,
            rho_1=float(rho[i, 0]),
            rho_bar_1=float(rho_bar[i, 0]),
            solved=float(rho[i, -1]),
            solved_bar=float(rho_bar[i, -1]),
            zeta=reliability(ratio[i]),
            zeta_bar=zeta_bar[i],
        )
        for i, algorithm in enumerate(data.algorithms)
    ]
    crossings = _crossings(data.algorithms, x, rho, rho_bar, curves, parts_on_grid)

    table = tuple(
        Entry(
            algorithm=data.algorithms[i],
            problem=data.problems[j][0],
            dimension=data.problems[j][1],
            mean=float(entries.mean[i, j]),
            std=float(entries.std[i, j]),
            n=int(entries.n[i, j]),
            failed=None if entries.failed is None else int(entries.failed[i, j]),
            baseline=float(baseline[j]),
            ratio=float(ratio[i, j]),
            ratio_std=float(ratio_std[i, j]),
        )
        for i in range(n_a)
        for j in range(n_p)
    )
    return ProbabilisticProfilesResult(
        algorithms=data.algorithms,
        problems=data.problems,
        input_format=data.format,
        cost=options.cost,
        model=options.model,
        cost_floor=options.cost_floor,
        x_max=x_max,
        grid_points=options.grid_points,
        reliability_tolerance=options.reliability_tolerance,
        entries=table,
        x=tuple(x.tolist()),
        rho=tuple(tuple(r) for r in rho.tolist()),
        rho_bar=tuple(tuple(r) for r in rho_bar.tolist()),
        summary=tuple(summary),
        crossings=crossings,
        caveats=_caveats(data, options, entries, table, has_baseline),
        by_problem=_by_problem(data, ratio, ratio_std, run_ratios, entries.n, x_max),
    )


def _by_problem(
    data: AnalysisData,
    ratio: Floats,
    ratio_std: Floats,
    run_ratios: list[list[Floats]] | None,
    runs: NDArray[np.int64],
    x_max: float,
) -> pd.DataFrame:
    """Each problem's term of ρ̄ at 1 and at ``x_max`` (``ProbabilisticProfilesResult.by_problem``):
    the profile of that one problem, by the model's own function."""
    at = np.array([1.0, x_max])
    rows = []
    for i, algorithm in enumerate(data.algorithms):
        for j, (problem, dimension) in enumerate(data.problems):
            term = (
                empirical_profile([run_ratios[i][j]], [int(runs[i, j])], at)
                if run_ratios is not None
                else normal_profile([ratio[i, j]], [ratio_std[i, j]], at)
            )
            rows.append((problem, dimension, algorithm, float(term[0]), float(term[1])))
    return pd.DataFrame(rows, columns=["problem", "dimension", "algorithm", "at_1", "at_x_max"])


def _crossings(
    algorithms: tuple[str, ...],
    x: Floats,
    rho: Floats,
    rho_bar: Floats,
    curves: list[NormalCurve] | None,
    parts: list[tuple[Floats, Floats]],
) -> tuple[Crossing, ...]:
    """Every crossing of every pair in both profiles (decision 7), in study order."""
    if len(algorithms) > EXACT_CROSSINGS_UP_TO:
        return _grid_crossings(algorithms, x, rho, rho_bar, smooth=curves is not None)
    found = []
    for a, b in itertools.combinations(range(len(algorithms)), 2):
        names = {1: algorithms[a], -1: algorithms[b]}
        standard = profile_crossings(x, rho[a] - rho[b], steps=True)
        if curves is None:  # the empirical ρ̄ is a step function, too
            expected = profile_crossings(x, rho_bar[a] - rho_bar[b], steps=True)
        else:
            (count_a, tails_a), (count_b, tails_b) = parts[a], parts[b]
            d = ((count_a - count_b) + (tails_a - tails_b)) / curves[a].n_problems
            expected = profile_crossings(
                x, d, steps=False, difference=functools.partial(curves[a].minus, curves[b])
            )
        both: tuple[tuple[Profile, list[tuple[float, float, int, int, float]]], ...] = (
            ("standard", standard),
            ("probabilistic", expected),
        )
        for profile, changes in both:
            for start, end, before, after, separation in changes:
                found.append(
                    Crossing(
                        profile=profile,
                        algorithm_a=algorithms[a],
                        algorithm_b=algorithms[b],
                        x=start,
                        x_end=end,
                        leader_before=names[before],
                        leader_after=names[after],
                        separation=separation,
                    )
                )
    # standard first, then pairs in study order, then by x
    return tuple(sorted(found, key=lambda c: c.profile != "standard"))


def _grid_crossings(
    algorithms: tuple[str, ...], x: Floats, rho: Floats, rho_bar: Floats, smooth: bool
) -> tuple[Crossing, ...]:
    """Every crossing of every pair, read on the grid for all pairs of one algorithm at once
    (decision 7, beyond :data:`EXACT_CROSSINGS_UP_TO` algorithms).

    The same changes of sign, ties and separations as :func:`profile_crossings`; a crossing of
    the smooth normal profile is placed by linear interpolation of d between its two grid
    points (not by Brent's method), and a tie of it spans from the first tied grid point.
    """
    found: list[Crossing] = []
    nx = x.size
    positions = np.arange(nx)
    curves: tuple[tuple[Profile, Floats, bool], ...] = (
        ("standard", rho, False),
        ("probabilistic", rho_bar, smooth),
    )
    for profile, values, is_smooth in curves:
        tolerance = 0.0 if is_smooth else STEP_TIE_TOLERANCE
        for a in range(len(algorithms) - 1):
            d = values[a] - values[a + 1 :]  # one row per b > a
            sign = np.where(d > tolerance, 1, np.where(d < -tolerance, -1, 0))
            # The previous point with a sign, for every point (−1: none yet).
            last = np.maximum.accumulate(np.where(sign != 0, positions, -1), axis=1)
            previous = np.concatenate([np.full((len(d), 1), -1), last[:, :-1]], axis=1)
            before = np.take_along_axis(sign, np.maximum(previous, 0), axis=1)
            rows, ends = np.nonzero((sign != 0) & (previous >= 0) & (sign != before))
            if not rows.size:
                continue
            gap = np.abs(d)
            starts = previous[rows, ends]
            for row in np.unique(rows):
                mine = np.flatnonzero(rows == row)
                names = {1: algorithms[a], -1: algorithms[a + 1 + int(row)]}
                changes = list(zip(starts[mine].tolist(), ends[mine].tolist(), strict=True))
                for c, (k0, k1) in enumerate(changes):
                    d0, d1 = float(d[row, k0]), float(d[row, k1])
                    if not is_smooth or k1 > k0 + 1:
                        start, end = float(x[k0 + 1]), float(x[k1])
                    else:
                        start = float(x[k0] + (x[k1] - x[k0]) * d0 / (d0 - d1))
                        end = start
                    if end - start <= 1e-9 * end:
                        end = start
                    left = changes[c - 1][1] if c > 0 else 0
                    right = changes[c + 1][0] if c + 1 < len(changes) else nx - 1
                    separation = min(
                        float(gap[row, left : k0 + 1].max()), float(gap[row, k1 : right + 1].max())
                    )
                    found.append(
                        Crossing(
                            profile=profile,
                            algorithm_a=names[1],
                            algorithm_b=names[-1],
                            x=start,
                            x_end=end,
                            leader_before=names[int(sign[row, k0])],
                            leader_after=names[int(sign[row, k1])],
                            separation=separation,
                        )
                    )
    return tuple(found)


def _caveats(
    data: AnalysisData,
    options: ProbabilisticProfilesOptions,
    entries: _Entries,
    table: tuple[Entry, ...],
    has_baseline: NDArray[np.bool_],
) -> tuple[Caveat, ...]:
    caveats = []
    named = Naming()  # one for every caveat below: a placeholder keeps its index

    def label(e: Entry) -> str:
        return f"({named(e.algorithm)}, {problem_label(e.problem, e.dimension)})"

    if options.model == "normal":
        caveats.append(
            Caveat(
                "normality_assumed",
                "The probabilistic profile models each cost as normal with the sample mean and "
                "standard deviation (Barreto et al. §4.1).",
            )
        )
        smooth = [e for e in table if math.isfinite(e.mean) and e.std > 0]
        mass = norm.cdf([-e.mean / e.std for e in smooth])  # P(C ≤ 0) under the model
        negative = [
            f"{label(e)}: {p:.2f}"
            for e, p in zip(smooth, mass, strict=True)
            if p > NEGATIVE_MASS_LIMIT
        ]
        if negative:
            largest = max(float(p) for p in mass)
            caveats.append(
                named.caveat(
                    "normal_negative_mass",
                    f"For {len(negative)} entries the normal model puts more than "
                    f"{share(NEGATIVE_MASS_LIMIT)} (up to {share(largest)}) of the probability on "
                    "costs ≤ 0, which no run can have: costs are positive. ρ̄ counts that mass "
                    "as reached at every ratio x, so it overstates those entries' expected "
                    "share at small x, ρ̄(1) (wins) most. Such mass is a sign of skewed costs; "
                    "the empirical model (from the runs) assumes no shape.",
                    _listing(negative),
                )
            )
    partial = [
        f"{label(e)}: {e.failed} of {e.n} runs failed"
        for e in table
        if e.failed is not None and 0 < e.failed < e.n
    ]
    if partial:
        treatment = (
            "the probabilistic profile counts its successful runs"
            if options.model == "empirical"
            else "the normal model counts the entry as failed (it contributes 0 to ρ̄)"
        )
        caveats.append(
            named.caveat(
                "partial_failures",
                f"{len(partial)} entries have some failed runs, so their expected cost is ∞: "
                f"the standard profile counts them as failures and {treatment}.",
                _listing(partial),
            )
        )
    unsolved = [
        problem_label(*p) for p, ok in zip(data.problems, has_baseline, strict=True) if not ok
    ]
    if unsolved:
        caveats.append(
            Caveat(
                "no_baseline",
                f"On {len(unsolved)} problems every algorithm has an infinite mean cost, so there "
                "is no baseline b_j; these problems count as unsolved for every algorithm.",
                _listing(unsolved),
            )
        )
    # Floored entries exist only with a floor; the floor in the report's notation.
    floor = power_of_ten(options.cost_floor) if options.cost_floor is not None else ""
    if entries.floored:
        caveats.append(
            Caveat(
                "cost_floor",
                f"{entries.floored} run costs below cost_floor = {floor} were "
                "raised to it before ratios were formed.",
            )
        )
    if entries.floor_approximate:
        caveats.append(
            named.caveat(
                "cost_floor_approximate",
                f"For {len(entries.floor_approximate)} entries of the summary table some runs "
                f"lie below cost_floor = {floor}; only the mean could be raised to "
                "it, the standard deviation is the published one.",
                _listing([f"({named(a)}, {p})" for a, p in entries.floor_approximate]),
            )
        )
    return tuple(caveats)
