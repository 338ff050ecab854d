r"""Perspectives of algorithmic performance, each ranked with the Friedman test and Holm's procedure.

Poikolainen, Weber, Äyrämö & Tirronen, "Perspectives of algorithmic performance"
(Poikolainen et al., §"Perspectives of algorithmic performance" and the CEC 2008 / BBOB 2010 study
cases) argue that the sample mean answers no question a user has, and replace it by
perspectives, each a statistic of the sample :math:`S_A` of final values of algorithm
:math:`A` on problem :math:`f` (smaller values are better):

- accuracy :math:`\alpha_{(A,f)} = \min S_A` (the sample minimum, the best result);
- reliability :math:`\Theta_{(A,f)} = |\{s \in S_A : s \le \theta_f\}| / |S_A|`, the
  empirical probability of a result at most the threshold :math:`\theta_f`; and the number of
  repeats needed to reach :math:`\theta_f` at least once with probability THR, the smallest
  whole :math:`t \ge 1` with :math:`1 - (1 - \Theta)^t \ge \mathrm{THR}` (the paper prints the
  unrounded quotient :math:`\log(1 - \mathrm{THR}) / \log(1 - \Theta)`, kept as a column);
- robustness :math:`\max S_A` (the sample maximum, the worst result);
- efficiency: the minimum measured running time.

The mean and the median are kept as perspectives for comparison. For each perspective the
algorithms are ranked on every problem (rank 1 = best), and compared over all problems as in
Derrac et al. (2011), which the paper follows:

- Friedman's :math:`\chi^2_F` with its p-value (:func:`scipy.stats.friedmanchisquare`, with its
  correction for ties);
- the Iman–Davenport statistic
  :math:`F_F = (N - 1)\chi^2_F / (N(k - 1) - \chi^2_F)`, p from the F distribution with
  :math:`(k - 1, (k - 1)(N - 1))` degrees of freedom (:func:`scipy.stats.f`);
- Holm's step-down procedure against a control algorithm 0, with
  :math:`z_i = (R_0 - R_i) / \sqrt{k(k+1)/(6N)}` (:math:`R` the mean ranks), hypotheses
  ordered by p ascending and tested at :math:`\alpha / i`, :math:`i = k-1, \dots, 1`;
- the Nemenyi critical difference :math:`CD = q_\alpha \sqrt{k(k+1)/(6N)}`, with
  :math:`q_\alpha` the :math:`1-\alpha` quantile of the studentized range of :math:`k` means
  with infinite degrees of freedom divided by :math:`\sqrt 2` (Demšar 2006, §3.2.2).

Decisions (docs/methods.md, "Poikolainen, Weber et al."; and where the paper is silent)
---------------------------------------------------------------------------------
- :math:`\theta_f` is the ``threshold_quantile`` (default 0.10) quantile of the union of all
  compared algorithms' results on problem :math:`f`, with the sample-quantile definition
  ``threshold_method`` of :func:`numpy.quantile` (default ``"linear"``, Hyndman–Fan type 7;
  the paper names no definition). A run counts as reaching the threshold when its value is
  ``<=`` :math:`\theta_f`.
- Repeats are a number of independent runs, so a whole number:
  :math:`t = \max(1, \lceil \log(1 - \mathrm{THR}) / \log(1 - \Theta) \rceil)`, the smallest
  :math:`t \ge 1` with :math:`1 - (1 - \Theta)^t \ge \mathrm{THR}`; :math:`t = \infty` when
  :math:`\Theta = 0`. The paper prints the unrounded quotient (0.9 for :math:`\Theta = 0.966`,
  and 1 by convention for :math:`\Theta = 1`), which made :math:`\Theta = 0.966` look better
  than :math:`\Theta = 1`; that quotient is kept as the column ``repeats_quotient`` for
  comparison with the paper. Reliability is ranked by :math:`\Theta` (higher is better), and
  "best" in a reliability or repeats table is the highest :math:`\Theta` (whole repeats tie
  where :math:`\Theta` differs).
- Means of per-run values are computed with exact summation (:func:`math.fsum`, correctly
  rounded), so two samples whose values have the same exact sum have bit-identical means and
  tie (share the average rank) whatever the order of the runs; a plain floating-point sum can
  differ in the last bit depending on summation order and break such a tie arbitrarily.
- Efficiency ranks wall-clock time, which depends on the hardware, the language and
  implementation, and the stopping rule of each run as much as on the algorithm; the report
  says so wherever it ranks by efficiency (a caveat, the finding and the captions).
- Iman–Davenport's :math:`F_F` is :math:`+\infty` (p = 0) when
  :math:`\chi^2_F = N(k - 1)`, i.e. every problem ranks the algorithms in the same order; the
  report writes it as ∞ and says what it means.
- Nemenyi's test (the CD diagram) compares all :math:`k(k-1)/2` pairs with one critical
  difference; Holm's procedure compares :math:`k - 1` algorithms with the control only and
  steps down, so it is more powerful: an algorithm can be significantly worse than the control
  by Holm and still share a Nemenyi bar with it. Captions say which test each shows and
  :meth:`PerspectiveComparison.holm_nemenyi_conflicts` lists such pairs for the narrative.
- Efficiency is the minimum of ``time_seconds`` over the runs (the paper: the smallest of
  repeated time measurements); without a time column it is listed as not available.
- Ranks use average ranks for ties. Ties are exact comparisons of the values given: for
  published statistics (``summary`` input) a tie at printed precision is a real tie (docs/methods.md;
  it is why the paper's robustness table for CEC 2008 cannot be reproduced from its printed
  maxima: on f6 CMA-ES and SA both print 2.00e+01). Such ties are reported as a caveat.
- Sign of :math:`z`: the paper's tables print :math:`z \le 0` for algorithms ranked worse
  than the control, i.e. :math:`z = (R_0 - R_i)/SE` with rank 1 = best (equivalently
  docs/methods.md's :math:`(R_i - R_0)/SE` with ranks counted from the worst). ``one-sided``:
  :math:`p = \Phi(z)`, the alternative "algorithm :math:`i` ranks worse than the control", as
  the paper prints; ``two-sided`` (the default): :math:`p = 2\Phi(-|z|)`.
- Holm: hypotheses sorted by p ascending (ties keep the order of mean ranks, then study order);
  the hypothesis at step :math:`i` (:math:`i` = number of hypotheses still open) is rejected
  when :math:`p \le \alpha/i`; after the first non-rejection no further hypothesis is rejected.
- Power: with few problems Holm's procedure cannot reject whatever the data — its smallest
  possible p (:func:`smallest_holm_p`: one algorithm first and another last on every problem)
  exceeds α/(k − 1), e.g. 2 problems and 3 algorithms (0.0455 > 0.025).
  :attr:`PerspectiveComparison.holm_has_power` says so; the narrative then does not report
  "no significant difference" as a finding, and the summary shows the ranking as inconclusive,
  not counted, as it does profiles whose confirmation has no power.
- Control ``"best"``: the algorithm with the lowest mean rank in that perspective (ties: the
  first in study order, with a caveat), as in the paper's tables.
- Friedman needs complete blocks: a problem on which some algorithm has no value for a
  perspective is left out of that perspective (caveat). A perspective needs at least two
  algorithms and two problems; Friedman and Iman–Davenport need :math:`k \ge 3` and are
  undefined (``None``) when every problem is a complete tie.
- Nemenyi groups (the bars of the CD diagram) are the maximal cliques of the graph joining
  algorithms whose mean ranks differ by less than CD (:func:`networkx.find_cliques`).
- ``summary`` input (published tables) supports the perspectives whose statistic it contains
  (mean, median, accuracy = ``minimum``, robustness = ``maximum``); reliability needs per-run
  values and efficiency per-run times, so they are listed as not available with the reason.

References
----------
Poikolainen, I., Weber, M., Äyrämö, S., Tirronen, V. Perspectives of algorithmic performance
(manuscript for Soft Computing). Derrac, J., García, S., Molina, D., Herrera, F. (2011) A practical tutorial on the
use of nonparametric statistical tests... Swarm Evol. Comput. 1:3–18. Demšar, J. (2006)
Statistical comparisons of classifiers over multiple data sets. JMLR 7:1–30.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import stats

from reportgen.analyses.resampling import all_present, drawn_runs, filled, run_array
from reportgen.analyses.spread import extreme_scale
from reportgen.data.frames import (
    AnalysisData,
    concat_tables,
    in_run_order,
    problem_label,
    with_columns,
)
from reportgen.errors import InputError, Problem, did_you_mean, quote_choices
from reportgen.present.caveats import Caveat, Naming
from reportgen.present.jsonable import json_value
from reportgen.spec.analyses.perspectives import PerspectivesOptions

Alternative = Literal["two-sided", "one-sided"]

STATISTIC_COLUMNS: tuple[str, ...] = (
    "n_runs",
    "mean",
    "median",
    "std",
    "accuracy",
    "robustness",
    "threshold",
    "reliability",
    "repeats",
    "repeats_quotient",
    "efficiency",
)
"""Columns of the per-(problem, algorithm) statistics table, after the keys."""

HIGHER_IS_BETTER: frozenset[str] = frozenset({"reliability"})
"""Perspectives whose statistic is better when larger; all others are better when smaller."""

SUMMARY_COLUMNS: Mapping[str, str] = {
    "n_runs": "n",
    "mean": "mean",
    "median": "median",
    "std": "std",
    "accuracy": "minimum",
    "robustness": "maximum",
}
"""Which column of the ``summary`` layout holds each statistic."""

EFFICIENCY_CAVEAT = (
    "Efficiency ranks measured wall-clock time, which depends on the hardware, the programming "
    "language and implementation, and each algorithm's stopping rule as much as on the "
    "algorithm itself; a fast algorithm may simply stop early. Read it together with the "
    "quality perspectives, and only when all runs were timed on the same machine and software."
)
"""Said wherever the report ranks by efficiency (module docstring, decisions)."""

WALL_CLOCK = (
    " Efficiency is wall-clock time: it depends on the hardware, the language and the stopping "
    "rule as much as on the algorithm (see the caveats)."
)
"""Appended to every sentence that ranks by efficiency (the analysis's findings and the
executive summary's)."""

PERSPECTIVE_NAMES: dict[str, str] = {
    "mean": "mean final value",
    "median": "median final value",
    "accuracy": "accuracy",
    "reliability": "reliability",
    "robustness": "robustness",
    "efficiency": "efficiency",
}
"""Each perspective's name in reader-facing text (sentences, table cells, the summary's
ranking labels): "mean final value", never plain "mean", which a reader would confuse with the
mean-curve profiles of Liu et al. in the same report."""

MIN_PROBLEMS = 2
MIN_ALGORITHMS = 2


# --------------------------------------------------------------------------------------------
# Result objects
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HolmStep:
    """One step of Holm's step-down procedure.

    Attributes
    ----------
    i : int
        Number of hypotheses still open at this step; the step's level is ``alpha / i``.
    index : int
        Position of the hypothesis in the input sequence.
    p_value, alpha_i : float
        The hypothesis' p-value and its level :math:`\\alpha/i`.
    rejected : bool
        Whether the hypothesis is rejected.
    """

    i: int
    index: int
    p_value: float
    alpha_i: float
    rejected: bool


@dataclass(frozen=True)
class HolmRow:
    """One row of a Holm table (the paper's layout: i, Optimizer, z, p, α/i, Hypothesis)."""

    i: int
    algorithm: str
    mean_rank: float
    z: float
    p_value: float
    alpha_i: float
    rejected: bool


@dataclass(frozen=True)
class PerspectiveComparison:
    """The multiple-problem comparison of the algorithms by one perspective.

    Attributes
    ----------
    perspective : str
        ``mean``, ``median``, ``accuracy``, ``reliability``, ``robustness`` or ``efficiency``.
    values : pandas.DataFrame
        The statistic, problems (labels) × algorithms, complete rows only.
    ranks : pandas.DataFrame
        Per-problem ranks, same shape (1 = best, average ranks for ties).
    mean_ranks : pandas.Series
        Mean rank of each algorithm over the problems, in study order.
    control : str
        The control algorithm of Holm's procedure.
    alpha : float
        Family-wise level.
    alternative : {"two-sided", "one-sided"}
    friedman_chi2, friedman_p, iman_davenport_f, iman_davenport_p : float or None
        ``None`` when undefined (fewer than three algorithms, or all problems complete ties).
    holm : tuple of HolmRow
        Sorted by p ascending, as in the paper's tables.
    q_alpha, critical_difference : float
        Nemenyi :math:`q_\\alpha` (studentized range / √2) and :math:`CD`.
    cd_groups : tuple of tuple of str
        Groups of algorithms with no significant Nemenyi difference (≥ 2 members), by rank.
    tied_problems : tuple of str
        Problems on which at least two algorithms tie (they share an average rank).
    excluded_problems : tuple of str
        Problems left out because some algorithm has no value for this statistic.
    """

    perspective: str
    values: pd.DataFrame
    ranks: pd.DataFrame
    mean_ranks: pd.Series
    control: str
    alpha: float
    alternative: Alternative
    friedman_chi2: float | None
    friedman_p: float | None
    iman_davenport_f: float | None
    iman_davenport_p: float | None
    holm: tuple[HolmRow, ...]
    q_alpha: float
    critical_difference: float
    cd_groups: tuple[tuple[str, ...], ...]
    tied_problems: tuple[str, ...] = ()
    excluded_problems: tuple[str, ...] = ()

    @property
    def n_problems(self) -> int:
        return int(self.values.shape[0])

    @property
    def n_algorithms(self) -> int:
        return int(self.values.shape[1])

    @property
    def best(self) -> str:
        """The algorithm with the lowest mean rank (first in study order on ties)."""
        return str(self.mean_ranks.index[int(np.argmin(self.mean_ranks.to_numpy()))])

    @property
    def tied_best(self) -> tuple[str, ...]:
        """Every algorithm that shares the best mean rank, in study order: ``best`` is only the
        first of them, so the report names a tie as a tie."""
        best_rank = float(self.mean_ranks.min())
        return tuple(str(a) for a, r in self.mean_ranks.items() if float(r) == best_rank)

    @property
    def rejected(self) -> tuple[str, ...]:
        """Algorithms significantly different from the control (Holm), by p ascending."""
        return tuple(row.algorithm for row in self.holm if row.rejected)

    @property
    def smallest_holm_p(self) -> float:
        """The smallest p any data can give Holm's comparisons here (:func:`smallest_holm_p`)."""
        return smallest_holm_p(self.n_problems, self.n_algorithms, self.alternative)

    @property
    def holm_has_power(self) -> bool:
        """Whether Holm's procedure can reject anything with these N and k: its first step
        tests the smallest p at α/(k − 1), and no data give a p below :attr:`smallest_holm_p`
        (2 problems, 3 algorithms: 0.0455 > 0.025). Without power "no significant
        difference" says nothing about the algorithms."""
        k = self.n_algorithms
        return k < 2 or self.smallest_holm_p <= self.alpha / (k - 1)

    @property
    def iman_davenport_infinite(self) -> bool:
        """Whether :math:`F_F = \\infty`: every problem ranks the algorithms alike."""
        return self.iman_davenport_f is not None and math.isinf(self.iman_davenport_f)

    def holm_nemenyi_conflicts(self) -> tuple[str, ...]:
        """Algorithms Holm rejects against the control although a Nemenyi bar joins the two.

        Not a contradiction: the two procedures test different families of hypotheses (all
        pairs with one critical difference vs. each algorithm against the control, step-down),
        so Holm can separate what Nemenyi cannot.
        """
        joined = {a for group in self.cd_groups if self.control in group for a in group}
        return tuple(row.algorithm for row in self.holm if row.rejected and row.algorithm in joined)


@dataclass(frozen=True)
class UnavailablePerspective:
    """A requested perspective that the input cannot support, and why."""

    perspective: str
    reason: str


@dataclass(frozen=True)
class PerspectivesResult:
    """Everything the perspectives analysis computed.

    Attributes
    ----------
    statistics : pandas.DataFrame
        One row per (problem, dimension, algorithm): ``n_runs``, mean, median, std, accuracy,
        robustness, threshold θ_f, reliability Θ, repeats t (whole), the paper's unrounded
        ``repeats_quotient`` and efficiency (NaN where the input has no such statistic).
    comparisons : tuple of PerspectiveComparison
        One per computable perspective, in the order requested.
    unavailable : tuple of UnavailablePerspective
        Requested perspectives that could not be computed, with the reason.
    algorithms : tuple of str
        Algorithms compared, in study order.
    input_format : {"trials", "summary"}
    alpha, threshold_quantile, repeat_probability : float
    threshold_method, control_option, alternative : str
    critical_difference_diagrams : bool
        Whether the report draws the CD diagrams (option ``critical_difference``).
    caveats : tuple of Caveat
    runs : pandas.DataFrame or None
        ``trials`` input: the runs behind the statistics — problem (its label, as in the
        comparisons), algorithm, value and, where timed, time_seconds — for the bootstrap of
        the rankings (:func:`run_resampled_ranks`); ``None`` for a summary.
    """

    statistics: pd.DataFrame
    comparisons: tuple[PerspectiveComparison, ...]
    unavailable: tuple[UnavailablePerspective, ...]
    algorithms: tuple[str, ...]
    input_format: str
    alpha: float
    threshold_quantile: float
    threshold_method: str
    repeat_probability: float
    control_option: str
    alternative: Alternative
    critical_difference_diagrams: bool
    caveats: tuple[Caveat, ...] = ()
    runs: pd.DataFrame | None = None

    def comparison(self, perspective: str) -> PerspectiveComparison:
        """The comparison by ``perspective`` (``KeyError`` when it was not computed)."""
        for comparison in self.comparisons:
            if comparison.perspective == perspective:
                return comparison
        raise KeyError(perspective)

    def statistic(self, name: str) -> pd.DataFrame:
        """One column of :attr:`statistics` (``"mean"``, ``"reliability"``, …) as problems
        (labels, in the table's order) × algorithms (study order); NaN where undefined."""
        labels, row, column = self._statistic_cells
        values = self.statistics[name].to_numpy(dtype=float)
        wide = np.full((len(labels), len(self.algorithms)), np.nan)
        # A cell's first value that is not NaN (a pivot's "first"): written last, in reverse.
        put = np.flatnonzero((column >= 0) & ~np.isnan(values))[::-1]
        wide[row[put], column[put]] = values[put]
        return pd.DataFrame(
            wide, index=pd.Index(labels, name="label"), columns=pd.Index(list(self.algorithms))
        )

    @functools.cached_property
    def _statistic_cells(self) -> tuple[list[str], np.ndarray, np.ndarray]:
        """For :meth:`statistic`: the problem labels in the table's order, and each row's
        label and algorithm position (-1: not a study algorithm) — found once, not once per
        statistic the report shows."""
        statistics = self.statistics
        labels = [
            problem_label(p, int(d))
            for p, d in zip(statistics["problem"], statistics["dimension"], strict=True)
        ]
        distinct = list(dict.fromkeys(labels))
        row = pd.Index(distinct).get_indexer(labels)
        column = pd.Index(list(self.algorithms)).get_indexer(statistics["algorithm"])
        return distinct, row, column

    def tables(self) -> dict[str, pd.DataFrame]:
        """statistics, friedman, mean_ranks, ranks, holm and unavailable tables."""
        friedman = pd.DataFrame(
            [
                {
                    "perspective": c.perspective,
                    "n_problems": c.n_problems,
                    "n_algorithms": c.n_algorithms,
                    "chi2": c.friedman_chi2,
                    "p_value": c.friedman_p,
                    "iman_davenport_f": c.iman_davenport_f,
                    "iman_davenport_p": c.iman_davenport_p,
                    "critical_difference": c.critical_difference,
                }
                for c in self.comparisons
            ],
            columns=[
                "perspective",
                "n_problems",
                "n_algorithms",
                "chi2",
                "p_value",
                "iman_davenport_f",
                "iman_davenport_p",
                "critical_difference",
            ],
        )
        mean_ranks = pd.DataFrame(
            [
                {"perspective": c.perspective, "algorithm": a, "mean_rank": float(r)}
                for c in self.comparisons
                for a, r in c.mean_ranks.items()
            ],
            columns=["perspective", "algorithm", "mean_rank"],
        )
        ranks = pd.DataFrame(
            [
                {
                    "perspective": c.perspective,
                    "problem": p,
                    "algorithm": a,
                    "value": float(c.values.loc[p, a]),
                    "rank": float(c.ranks.loc[p, a]),
                }
                for c in self.comparisons
                for p in c.values.index
                for a in c.values.columns
            ],
            columns=["perspective", "problem", "algorithm", "value", "rank"],
        )
        holm = pd.DataFrame(
            [
                {
                    "perspective": c.perspective,
                    "control": c.control,
                    "i": row.i,
                    "algorithm": row.algorithm,
                    "z": row.z,
                    "p_value": row.p_value,
                    "alpha_i": row.alpha_i,
                    "rejected": row.rejected,
                }
                for c in self.comparisons
                for row in c.holm
            ],
            columns=[
                "perspective",
                "control",
                "i",
                "algorithm",
                "z",
                "p_value",
                "alpha_i",
                "rejected",
            ],
        )
        unavailable = pd.DataFrame(
            [{"perspective": u.perspective, "reason": u.reason} for u in self.unavailable],
            columns=["perspective", "reason"],
        )
        return {
            "statistics": self.statistics.copy(),
            "friedman": friedman,
            "mean_ranks": mean_ranks,
            "ranks": ranks,
            "holm": holm,
            "unavailable": unavailable,
        }

    def to_json(self) -> dict[str, Any]:
        """Every number of the analysis; ∞ as ``"inf"``, NaN as ``None``."""
        statistics = [
            {k: json_value(v) for k, v in record.items()}
            for record in self.statistics.to_dict(orient="records")
        ]
        return {
            "parameters": {
                "input_format": self.input_format,
                "alpha": self.alpha,
                "threshold_quantile": self.threshold_quantile,
                "threshold_method": self.threshold_method,
                "repeat_probability": self.repeat_probability,
                "control": self.control_option,
                "alternative": self.alternative,
            },
            "algorithms": list(self.algorithms),
            "statistics": statistics,
            "comparisons": [_comparison_json(c) for c in self.comparisons],
            "unavailable": [
                {"perspective": u.perspective, "reason": u.reason} for u in self.unavailable
            ],
            "caveats": [c.to_json() for c in self.caveats],
        }


def _comparison_json(c: PerspectiveComparison) -> dict[str, Any]:
    return {
        "perspective": c.perspective,
        "n_problems": c.n_problems,
        "n_algorithms": c.n_algorithms,
        "control": c.control,
        "best": c.best,
        "alpha": c.alpha,
        "alternative": c.alternative,
        "mean_ranks": {a: json_value(float(r)) for a, r in c.mean_ranks.items()},
        "friedman": {
            "chi2": json_value(c.friedman_chi2),
            "p_value": json_value(c.friedman_p),
            "iman_davenport_f": json_value(c.iman_davenport_f),
            "iman_davenport_p": json_value(c.iman_davenport_p),
        },
        "holm": [
            {
                "i": row.i,
                "algorithm": row.algorithm,
                "mean_rank": json_value(row.mean_rank),
                "z": json_value(row.z),
                "p_value": json_value(row.p_value),
                "alpha_i": json_value(row.alpha_i),
                "rejected": row.rejected,
            }
            for row in c.holm
        ],
        "nemenyi": {
            "q_alpha": json_value(c.q_alpha),
            "critical_difference": json_value(c.critical_difference),
            "groups": [list(g) for g in c.cd_groups],
        },
        "values": {
            p: {a: json_value(float(c.values.loc[p, a])) for a in c.values.columns}
            for p in c.values.index
        },
        "ranks": {
            p: {a: json_value(float(c.ranks.loc[p, a])) for a in c.ranks.columns}
            for p in c.ranks.index
        },
        "tied_problems": list(c.tied_problems),
        "excluded_problems": list(c.excluded_problems),
    }


# --------------------------------------------------------------------------------------------
# The statistical building blocks
# --------------------------------------------------------------------------------------------


def repeats_quotient(reliability: float, probability: float) -> float:
    r"""The paper's unrounded repeats quotient, for comparison with its tables.

    .. math:: \frac{\log(1 - \mathrm{THR})}{\log(1 - \Theta)}

    ``inf`` when :math:`\Theta = 0` and 1 when :math:`\Theta = 1` (Poikolainen et al., §"Perspectives",
    equation for :math:`t` and its conventions). Not a number of runs: use
    :func:`repeats_needed`.

    Examples
    --------
    >>> round(repeats_quotient(0.966, 0.95), 1)  # Poikolainen et al., CEC 2008 repeats table, f2, CMA-ES
    0.9
    """
    _check_repeats_input(reliability, probability)
    if reliability == 0.0:
        return math.inf
    if reliability == 1.0:
        return 1.0
    return math.log1p(-probability) / math.log1p(-reliability)


def repeats_needed(reliability: float, probability: float) -> float:
    r"""Number of independent runs needed to reach the threshold at least once with probability THR.

    Parameters
    ----------
    reliability : float
        :math:`\Theta \in [0, 1]`.
    probability : float
        THR in (0, 1).

    Returns
    -------
    float
        The smallest whole :math:`t \ge 1` with :math:`1 - (1 - \Theta)^t \ge \mathrm{THR}`,

        .. math:: t = \max\Bigl(1, \Bigl\lceil \frac{\log(1 - \mathrm{THR})}
                  {\log(1 - \Theta)} \Bigr\rceil\Bigr)

        and ``inf`` when :math:`\Theta = 0` (docs/methods.md, repeats). The ceiling is
        taken so that a quotient that is a whole number up to rounding error (e.g.
        :math:`\Theta = 0.9`, THR = 0.99: exactly 2) is not pushed to the next integer.

    Examples
    --------
    >>> repeats_needed(0.966, 0.95)  # the paper prints 0.9; one run is the least one can do
    1.0
    >>> repeats_needed(0.769, 0.95)  # 1 - 0.231**2 = 0.9466 < 0.95; 1 - 0.231**3 = 0.9877
    3.0
    """
    quotient = repeats_quotient(reliability, probability)
    if math.isinf(quotient):
        return math.inf
    whole = max(1, math.floor(quotient))
    # floor(q) runs suffice only when q is whole; compare with a relative tolerance so that
    # a mathematically exact boundary (1 − (1 − Θ)^t = THR) is not lost to rounding.
    if 1.0 - (1.0 - reliability) ** whole >= probability * (1.0 - 1e-12):
        return float(whole)
    return float(whole + 1)


def _check_repeats_input(reliability: float, probability: float) -> None:
    if not 0.0 <= reliability <= 1.0:
        raise ValueError(f"reliability must lie in [0, 1]; got {reliability!r}")
    if not 0.0 < probability < 1.0:
        raise ValueError(f"probability must lie in (0, 1); got {probability!r}")


def holm_step_down(p_values: Sequence[float], alpha: float) -> tuple[HolmStep, ...]:
    r"""Holm's (1979) step-down procedure.

    Sort the :math:`m` p-values ascending, :math:`p_{(1)} \le \dots \le p_{(m)}`; step
    :math:`j` tests :math:`p_{(j)} \le \alpha / i` with :math:`i = m - j + 1` (the number of
    hypotheses still open). Reject until the first step that fails; none after it is rejected.

    Parameters
    ----------
    p_values : sequence of float
        One p-value per hypothesis. Equal p-values keep their input order.
    alpha : float
        Family-wise error rate.

    Returns
    -------
    tuple of HolmStep
        In test order (p ascending), with ``i`` from :math:`m` down to 1.
    """
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    m = len(p)
    steps = []
    still_rejecting = True
    for j, index in enumerate(order):
        i = m - j
        alpha_i = alpha / i
        still_rejecting = still_rejecting and bool(p[index] <= alpha_i)
        steps.append(HolmStep(i, int(index), float(p[index]), alpha_i, still_rejecting))
    return tuple(steps)


def iman_davenport(chi2: float, n_problems: int, n_algorithms: int) -> tuple[float, float]:
    r"""Iman–Davenport's correction of Friedman's statistic.

    .. math:: F_F = \frac{(N - 1)\chi^2_F}{N(k - 1) - \chi^2_F}
              \sim F\bigl(k - 1, (k - 1)(N - 1)\bigr)

    Returns ``(F_F, p)``; ``(inf, 0)`` when :math:`\chi^2_F = N(k-1)` (every problem ranks the
    algorithms identically).
    """
    n, k = n_problems, n_algorithms
    denominator = n * (k - 1) - chi2
    if denominator <= 0:
        return math.inf, 0.0
    f_statistic = (n - 1) * chi2 / denominator
    return float(f_statistic), float(stats.f.sf(f_statistic, k - 1, (k - 1) * (n - 1)))


def nemenyi_critical_difference(
    n_algorithms: int, n_problems: int, alpha: float
) -> tuple[float, float]:
    r"""Nemenyi's critical difference of mean ranks (Demšar 2006, §3.2.2).

    .. math:: CD = q_\alpha \sqrt{\frac{k(k+1)}{6N}}, \qquad
              q_\alpha = \frac{Q_{1-\alpha}(k, \infty)}{\sqrt 2}

    with :math:`Q` the studentized range distribution (:data:`scipy.stats.studentized_range`).
    Returns ``(q_alpha, CD)``.

    Examples
    --------
    >>> round(nemenyi_critical_difference(4, 14, 0.05)[0], 3)  # Demšar 2006, Table 5(a), k=4
    2.569
    """
    k, n = n_algorithms, n_problems
    q_alpha = _studentized_range_quantile(1 - alpha, k) / math.sqrt(2)
    return q_alpha, q_alpha * math.sqrt(k * (k + 1) / (6 * n))


@functools.lru_cache(maxsize=64)
def _studentized_range_quantile(probability: float, k: int) -> float:
    """Quantile of the studentized range of k means, infinite df (cached: it is slow)."""
    return float(stats.studentized_range.ppf(probability, k, np.inf))


def holm_against_control(
    mean_ranks: pd.Series,
    control: str,
    n_problems: int,
    alpha: float,
    alternative: Alternative,
) -> tuple[HolmRow, ...]:
    r"""Compare every algorithm with a control on mean ranks (Derrac et al. 2011, §3.2).

    .. math:: z_i = \frac{R_0 - R_i}{\sqrt{k(k+1)/(6N)}}

    ``one-sided``: :math:`p_i = \Phi(z_i)` (Poikolainen et al., CEC 2008 and BBOB 2010 Holm tables);
    ``two-sided``: :math:`p_i = 2\Phi(-|z_i|)`. Then :func:`holm_step_down`.

    Parameters
    ----------
    mean_ranks : pandas.Series
        Mean rank (1 = best) of each algorithm, in study order.
    control : str
        The control algorithm (an index of ``mean_ranks``).
    n_problems : int
        N, the number of problems the ranks are averaged over.
    alpha : float
        Family-wise level.
    alternative : {"two-sided", "one-sided"}

    Returns
    -------
    tuple of HolmRow
        The paper's table rows: sorted by p ascending, ``i`` from k − 1 down to 1.
    """
    k = len(mean_ranks)
    standard_error = math.sqrt(k * (k + 1) / (6 * n_problems))
    # Others in order of mean rank then study order, so equal p-values list in that order.
    position = {a: i for i, a in enumerate(mean_ranks.index)}
    others = sorted(
        (a for a in mean_ranks.index if a != control),
        key=lambda a: (mean_ranks[a], position[a]),
    )
    z = np.array([(mean_ranks[control] - mean_ranks[a]) / standard_error for a in others])
    if alternative == "one-sided":
        p = stats.norm.cdf(z)  # the paper's tables: p = Φ(z), z ≤ 0 when worse than control
    else:
        p = np.minimum(1.0, 2.0 * stats.norm.sf(np.abs(z)))
    return tuple(
        HolmRow(
            i=step.i,
            algorithm=str(others[step.index]),
            mean_rank=float(mean_ranks[others[step.index]]),
            z=float(z[step.index]),
            p_value=step.p_value,
            alpha_i=step.alpha_i,
            rejected=step.rejected,
        )
        for step in holm_step_down(p, alpha)
    )


def smallest_holm_p(n_problems: int, k: int, alternative: Alternative) -> float:
    r"""The smallest p of Holm's z-test against the control with N problems and k algorithms.

    The mean ranks of two algorithms differ by at most :math:`k - 1` (one first, the other last
    on every problem), so :math:`|z| \le (k - 1)/\sqrt{k(k+1)/(6N)}` and p is at least that
    z's normal tail (twice it, two-sided). With 2 problems and 3 algorithms z ≤ 2, p ≥ 0.0455.
    """
    if k < 2 or n_problems < 1:
        return 1.0
    z = (k - 1) / math.sqrt(k * (k + 1) / (6 * n_problems))
    tail = float(stats.norm.sf(z))
    return tail if alternative == "one-sided" else min(1.0, 2.0 * tail)


def compare(
    values: pd.DataFrame,
    perspective: str,
    *,
    control: str = "best",
    alpha: float = 0.05,
    alternative: Alternative = "two-sided",
    excluded_problems: tuple[str, ...] = (),
) -> PerspectiveComparison:
    """Rank algorithms by one perspective over problems: Friedman, Iman–Davenport, Holm, Nemenyi.

    Parameters
    ----------
    values : pandas.DataFrame
        The perspective's statistic, one row per problem, one column per algorithm (study
        order), no missing values.
    perspective : str
        Its name; ``reliability`` is better when larger, every other statistic when smaller.
    control : str
        ``"best"`` (lowest mean rank, first in column order on ties) or an algorithm (column).
    alpha : float
        Family-wise level of Holm's procedure and of the critical difference.
    alternative : {"two-sided", "one-sided"}
        See the module docstring.
    excluded_problems : tuple of str
        Recorded in the result only.

    Returns
    -------
    PerspectiveComparison
    """
    n, k = values.shape
    matrix = values.to_numpy(dtype=float)
    # Poikolainen et al. §"Perspectives" + Derrac et al. §3: rank per problem, 1 = best, average ties.
    oriented = -matrix if perspective in HIGHER_IS_BETTER else matrix
    rank_matrix = stats.rankdata(oriented, axis=1, method="average")
    ranks = pd.DataFrame(rank_matrix, index=values.index, columns=values.columns)
    mean_ranks = ranks.mean(axis=0)
    tied = tuple(str(p) for p, row in zip(values.index, oriented, strict=True) if len(set(row)) < k)

    # Friedman's χ² (scipy, tie-corrected); undefined for k < 3 or when every problem is a tie.
    chi2 = p_chi2 = f_id = p_id = None
    all_tied = all(len(set(row)) == 1 for row in oriented)
    if k >= 3 and not all_tied:
        result = stats.friedmanchisquare(*matrix.T)
        chi2, p_chi2 = float(result.statistic), float(result.pvalue)
        f_id, p_id = iman_davenport(chi2, n, k)

    if control == "best":
        control_name = str(mean_ranks.index[int(np.argmin(mean_ranks.to_numpy()))])
    else:
        control_name = control
    holm = holm_against_control(mean_ranks, control_name, n, alpha, alternative)
    q_alpha, cd = nemenyi_critical_difference(k, n, alpha)
    return PerspectiveComparison(
        perspective=perspective,
        values=values,
        ranks=ranks,
        mean_ranks=mean_ranks,
        control=control_name,
        alpha=alpha,
        alternative=alternative,
        friedman_chi2=chi2,
        friedman_p=p_chi2,
        iman_davenport_f=f_id,
        iman_davenport_p=p_id,
        holm=holm,
        q_alpha=q_alpha,
        critical_difference=cd,
        cd_groups=_nemenyi_groups(mean_ranks, cd),
        tied_problems=tied,
        excluded_problems=excluded_problems,
    )


def _nemenyi_groups(mean_ranks: pd.Series, cd: float) -> tuple[tuple[str, ...], ...]:
    """Maximal groups of algorithms whose mean ranks pairwise differ by less than CD.

    These are the maximal cliques of the graph "differs by less than CD"; on a line, a set is
    pairwise within CD exactly when its first and last member are, so the cliques are the
    maximal windows of the algorithms sorted by mean rank whose ends differ by less than CD
    (the bars of Demšar's critical-difference diagram). One pass over the sorted ranks — a
    general clique search took minutes for 500 algorithms.
    """
    names = list(mean_ranks.index)
    position = {a: i for i, a in enumerate(names)}
    rank = {a: float(r) for a, r in mean_ranks.items()}
    ordered = sorted(names, key=lambda a: (rank[a], position[a]))
    values = [rank[a] for a in ordered]
    groups = []
    end = 0  # one past the last member of the current window
    previous_end = 0
    for start in range(len(ordered)):
        end = max(end, start + 1)
        while end < len(ordered) and abs(values[end] - values[start]) < cd:
            end += 1
        if end > previous_end and end - start >= 2:  # not inside the previous window
            groups.append(tuple(ordered[start:end]))
        previous_end = max(previous_end, end)
    return tuple(sorted(groups, key=lambda g: (rank[g[0]], rank[g[-1]], position[g[0]])))


# --------------------------------------------------------------------------------------------
# compute()
# --------------------------------------------------------------------------------------------


def compute(data: AnalysisData, options: PerspectivesOptions) -> PerspectivesResult:
    """Per-problem statistics and one Friedman/Holm/Nemenyi comparison per perspective.

    Parameters
    ----------
    data : AnalysisData
        ``trials`` (per-run final values, optionally ``time_seconds``) or ``summary``
        (published statistics ``mean``/``median``/``minimum``/``maximum``/``std``/``n``).
    options : PerspectivesOptions

    Returns
    -------
    PerspectivesResult

    Raises
    ------
    InputError
        For the ``histories`` format, an empty table, a summary without any statistic, or a
        control that is not one of the study's algorithms.
    """
    _check_input(data, options)
    caveats: list[Caveat] = []
    runs = None
    if data.format == "trials":
        statistics, runs = _statistics_from_trials(data, options)
        has_time = "time_seconds" in data.frame.columns
    else:
        statistics = _statistics_from_summary(data)
        has_time = False
    present = set(statistics["algorithm"].astype(str))
    algorithms = tuple(a for a in data.algorithms if a in present)
    missing = [a for a in data.algorithms if a not in algorithms]
    if missing:
        named = Naming()
        caveats.append(
            named.caveat(
                "excluded_algorithms",
                "These algorithms have no data in this analysis's input and are not compared.",
                ", ".join(map(named, missing)),
            )
        )
    if options.control != "best" and options.control not in algorithms:
        raise InputError(
            Problem(
                _where(options, "control"),
                f"'{options.control}' has no data in this analysis; allowed: 'best' or one of "
                f"{quote_choices(algorithms)}{did_you_mean(options.control, algorithms)}",
            )
        )

    comparisons: list[PerspectiveComparison] = []
    unavailable: list[UnavailablePerspective] = []
    for perspective in options.perspectives:
        reason = _unavailable_reason(perspective, data, statistics, has_time)
        if reason is None:
            values, excluded = _perspective_matrix(statistics, perspective, algorithms, data)
            if len(algorithms) < MIN_ALGORITHMS:
                reason = f"fewer than {MIN_ALGORITHMS} algorithms have data"
            elif len(values) < MIN_PROBLEMS:
                reason = (
                    f"fewer than {MIN_PROBLEMS} problems have a {perspective} value for "
                    "every algorithm"
                )
        if reason is not None:
            unavailable.append(UnavailablePerspective(perspective, reason))
            continue
        comparisons.append(
            compare(
                values,
                perspective,
                control=options.control,
                alpha=options.alpha,
                alternative=options.alternative,
                excluded_problems=excluded,
            )
        )

    caveats.extend(_caveats(data, statistics, comparisons))
    return PerspectivesResult(
        statistics=statistics,
        comparisons=tuple(comparisons),
        unavailable=tuple(unavailable),
        algorithms=algorithms,
        input_format=data.format,
        alpha=options.alpha,
        threshold_quantile=options.threshold_quantile,
        threshold_method=options.threshold_method,
        repeat_probability=options.repeat_probability,
        control_option=options.control,
        alternative=options.alternative,
        critical_difference_diagrams=options.critical_difference,
        caveats=tuple(caveats),
        runs=runs,
    )


def _runs(trials: pd.DataFrame) -> pd.DataFrame:
    """The runs' final values (and times) by problem label: what the bootstrap resamples."""
    columns = ["algorithm", "value"] + (["time_seconds"] if "time_seconds" in trials else [])
    runs = trials[columns].reset_index(drop=True)
    runs.insert(
        0,
        "problem",
        [
            problem_label(p, int(d))
            for p, d in zip(trials["problem"], trials["dimension"], strict=True)
        ],
    )
    return runs


# --------------------------------------------------------------------------------------------
# The runs resampled (for the ranking uncertainty of the executive summary)
# --------------------------------------------------------------------------------------------


def run_resampled_ranks(
    result: PerspectivesResult,
    perspective: str,
    problems: Sequence[str],
    slots: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """Per-problem ranks by ``perspective`` recomputed on resamples of the runs.

    Each slot (a problem drawn into a bootstrap resample) gets, for every algorithm, ``n``
    runs drawn with replacement from its ``n`` runs on that problem; the perspective's
    statistic of the drawn runs is ranked among the algorithms as in :func:`compare`
    (1 = best, average ranks for ties). Accuracy, robustness, median and efficiency are order
    statistics of the drawn runs; the mean is compared at 40 significant bits, about 12 digits (equal
    resampled sums tie whatever the order of summation, as :func:`_exact_mean` makes them tie
    in the full sample); reliability keeps each problem's threshold θ_f of the full sample (a
    property of the problem, not of one resample).

    Parameters
    ----------
    result : PerspectivesResult
        With ``runs`` (``trials`` input).
    perspective : str
        A computed perspective.
    problems : sequence of str
        Problem labels, the rows that ``slots`` index.
    slots : numpy.ndarray of int
        ``[B, n]`` rows of ``problems``.
    rng : numpy.random.Generator

    Returns
    -------
    numpy.ndarray
        ``[B, n, algorithms]`` ranks, algorithms in ``result.algorithms`` order.
    """
    if result.runs is None:
        raise ValueError("a summary input has no runs to resample")
    column = "time_seconds" if perspective == "efficiency" else "value"
    values, counts = run_array(result.runs, column, problems, result.algorithms)
    theta = (
        result.statistics.assign(
            label=[
                problem_label(p, int(d))
                for p, d in zip(
                    result.statistics["problem"], result.statistics["dimension"], strict=True
                )
            ]
        )
        .groupby("label", sort=False, observed=True)["threshold"]
        .first()
        .reindex(list(problems))
        .to_numpy(dtype=float)
    )
    out = np.empty((*slots.shape, values.shape[1]))
    for where, rows, drawn, present in drawn_runs(values, counts, slots, rng):
        statistic = _resampled_statistic(perspective, drawn, present, theta[rows], counts[rows])
        key = -statistic if perspective in HIGHER_IS_BETTER else statistic
        out[where] = stats.rankdata(key, method="average", axis=-1)
    return out


def _resampled_statistic(
    perspective: str, drawn: np.ndarray, present: np.ndarray, theta: np.ndarray, count: np.ndarray
) -> np.ndarray:
    """The perspective's statistic over the last axis of ``drawn`` (only where ``present``;
    ``count``: how many are, per cell)."""
    if perspective == "mean":
        return _significant(filled(drawn, present, 0.0).sum(axis=-1) / count)
    if perspective == "median":
        return np.nanmedian(filled(drawn, present, np.nan), axis=-1)
    if perspective in ("accuracy", "efficiency"):
        return filled(drawn, present, np.inf).min(axis=-1)
    if perspective == "robustness":
        return filled(drawn, present, -np.inf).max(axis=-1)
    if perspective == "reliability":
        reached = drawn <= theta[..., None, None]
        return (reached if all_present(present) else reached & present).sum(axis=-1) / count
    raise ValueError(f"unknown perspective {perspective!r}")


def _significant(values: np.ndarray, bits: int = 40) -> np.ndarray:
    """``values`` with their mantissas rounded to ``bits`` bits (about 12 significant digits;
    0 and ±∞ unchanged): means that differ only by the order of summation become equal."""
    mantissa, exponent = np.frexp(values)
    scale = float(2**bits)
    rounded = np.ldexp(np.round(mantissa * scale) / scale, exponent)
    return np.where(np.isfinite(values), rounded, values)


def _where(options: PerspectivesOptions, key: str = "") -> str:
    """The option an input problem concerns; the pipeline places it at the spec's line."""
    return key


def _check_input(data: AnalysisData, options: PerspectivesOptions) -> None:
    """The accepted formats: trials (with value) or summary (with at least one statistic)."""
    where = _where(options, "data")
    if data.frame.empty and data.records is None:  # partitioned: the trials are in files
        raise InputError(Problem(where, "the data has no rows for the study's selection"))
    needed = ["algorithm", "problem", "dimension"]
    if data.format == "trials":
        needed += ["run", "value"]
    absent = [c for c in needed if c not in data.frame.columns]
    if absent:
        raise InputError(Problem(where, f"the {data.format} table lacks column '{absent[0]}'"))
    if data.format == "summary" and not any(
        c in data.frame.columns for c in ("mean", "median", "minimum", "maximum")
    ):
        raise InputError(
            Problem(
                where,
                "the summary has none of the statistics 'mean', 'median', 'minimum', "
                "'maximum'; at least one is needed to rank the algorithms",
            )
        )


def _ordered(statistics: pd.DataFrame, data: AnalysisData) -> pd.DataFrame:
    """Rows in natural problem order, then study algorithm order."""
    problem_position = {p: i for i, p in enumerate(data.problems)}
    algorithm_position = {a: i for i, a in enumerate(data.algorithms)}
    key_problem = [
        problem_position.get((p, int(d)), len(problem_position))
        for p, d in zip(statistics["problem"], statistics["dimension"], strict=True)
    ]
    key_algorithm = [
        algorithm_position.get(a, len(algorithm_position)) for a in statistics["algorithm"]
    ]
    order = np.lexsort((key_algorithm, key_problem))
    return statistics.iloc[order].reset_index(drop=True)


def _statistics_from_trials(
    data: AnalysisData, options: PerspectivesOptions
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per (problem, dimension, algorithm): the sample statistics of Poikolainen et al. §Perspectives;
    and the runs' final values (:func:`_runs`).

    Every statistic (θ_f included) reads one problem's trials only: each problem is an
    independent work item of the current executor (:meth:`AnalysisData.map_problems`), which
    returns its statistics and its runs' values (a partitioned source is read there).
    """
    parts = data.map_problems(functools.partial(_problem_trials, options=options))
    pieces = [statistics for statistics, _ in parts if len(statistics)]
    statistics = (
        concat_tables(pieces) if pieces else _problem_statistics(data.frame, options=options)
    )
    trials = in_run_order([runs for _, runs in parts])
    return _ordered(statistics, data), _runs(trials)


def _problem_trials(
    frame: pd.DataFrame, *, options: PerspectivesOptions
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One problem's statistics (:func:`_problem_statistics`) and its runs' values."""
    columns = ["algorithm", "problem", "dimension", "run", "value", "time_seconds"]
    return _problem_statistics(frame, options=options), with_columns(frame, columns)


def _problem_statistics(frame: pd.DataFrame, *, options: PerspectivesOptions) -> pd.DataFrame:
    """The statistics of :func:`_statistics_from_trials` for the trials in ``frame``.

    One row per (problem, dimension, algorithm) cell, in order of first appearance. Computed
    on arrays (a problem's few hundred trials make pandas' per-call overhead the cost, once per
    problem): each cell's non-NaN values are taken in row order, and every statistic is the
    one pandas' ``groupby`` gives, bit for bit — the median of the sorted values (the middle
    one, or the two middle ones' sum halved), the standard deviation by Welford's update in
    row order (as pandas accumulates it), minimum and maximum.
    """
    keys = ["problem", "dimension", "algorithm"]
    cell, first = _cells(frame, keys)
    n_cells = len(first)
    values = frame["value"].to_numpy(dtype=float)
    counted = ~np.isnan(values)
    # The cells (and problems) are numbered in order of first appearance, the statistics'
    # rows too: per-cell and per-problem values are taken by number, each cell's runs (and
    # each problem's) in row order. The table is built once from its columns.
    columns: dict[str, Any] = {key: frame[key].iloc[first].reset_index(drop=True) for key in keys}
    columns["dimension"] = columns["dimension"].astype(int)
    columns["n_runs"] = np.bincount(cell[counted], minlength=n_cells).astype(float)
    columns["mean"] = [_exact_mean(v) for v in _split(values, cell, n_cells)]
    by_cell = _split(values[counted], cell[counted], n_cells)
    columns["median"] = [_median(v) for v in by_cell]
    columns["std"] = _welford_std(by_cell)
    columns["accuracy"] = [float(v.min()) if len(v) else math.nan for v in by_cell]
    columns["robustness"] = [float(v.max()) if len(v) else math.nan for v in by_cell]
    # θ_f: the threshold_quantile of the union of all algorithms' results on the problem.
    instance, _ = _cells(frame, ["problem", "dimension"])
    instance_of_cell = instance[first]
    thresholds = np.array(
        [
            float(np.quantile(v, options.threshold_quantile, method=options.threshold_method))
            for v in _split(values, instance, int(instance_of_cell.max(initial=-1)) + 1)
        ]
    )
    reached = values <= thresholds[instance]
    columns["threshold"] = thresholds[instance_of_cell]
    reliability = np.bincount(cell, weights=reached, minlength=n_cells) / (
        np.bincount(cell, minlength=n_cells)
    )
    columns["reliability"] = reliability
    columns["repeats"] = [
        repeats_needed(float(theta), options.repeat_probability) for theta in reliability
    ]
    columns["repeats_quotient"] = [
        repeats_quotient(float(theta), options.repeat_probability) for theta in reliability
    ]
    if "time_seconds" in frame.columns:
        times = frame["time_seconds"].to_numpy(dtype=float)
        timed = ~np.isnan(times)
        columns["efficiency"] = [
            float(v.min()) if len(v) else math.nan
            for v in _split(times[timed], cell[timed], n_cells)
        ]
    else:
        columns["efficiency"] = np.full(n_cells, np.nan)
    return pd.DataFrame(
        {c: columns[c] for c in ["problem", "dimension", "algorithm", *STATISTIC_COLUMNS]}
    )


def _cells(frame: pd.DataFrame, keys: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Each row's cell — the distinct ``keys`` numbered in order of first appearance, as
    ``groupby(keys, sort=False).ngroup()`` numbers them (the loader leaves no key missing) —
    and each cell's first row."""
    combined = np.zeros(len(frame), dtype=np.int64)
    for key in keys:
        column = frame[key]
        if isinstance(column.dtype, pd.CategoricalDtype):
            code, size = column.cat.codes.to_numpy(dtype=np.int64), len(column.cat.categories)
        else:
            code, uniques = pd.factorize(column)
            size = len(uniques)
        combined = combined * (size + 1) + code
    cell, _ = pd.factorize(combined)
    cell = np.asarray(cell, dtype=np.intp)
    first = np.empty(int(cell.max(initial=-1)) + 1, dtype=np.intp)
    first[cell[::-1]] = np.arange(len(cell) - 1, -1, -1)  # the last write per cell: its first row
    return cell, first


def _median(values: np.ndarray) -> float:
    """The median as pandas' ``groupby`` gives it: the middle value, or the sum of the two
    middle ones halved (NaN for no value)."""
    n = len(values)
    if not n:
        return math.nan
    ordered = np.sort(values)
    return float(ordered[n // 2]) if n % 2 else float((ordered[n // 2 - 1] + ordered[n // 2]) / 2.0)


def _welford_std(cells: Sequence[np.ndarray]) -> np.ndarray:
    """Sample standard deviation (``ddof = 1``) of each cell's values by Welford's update in
    row order — pandas' ``groupby().std()`` accumulation, so the same bits — for every cell at
    once, one position of the runs at a time (NaN for fewer than two values)."""
    sizes = np.array([len(v) for v in cells], dtype=np.intp)
    out = np.full(len(cells), np.nan)
    if not len(cells) or sizes.max() < 2:
        return out
    width = int(sizes.max())
    table = np.zeros((len(cells), width))
    # Extreme cells (reportgen.analyses.spread) are scaled to magnitudes ≤ 1 so that the
    # squares neither overflow nor underflow; the others divide by 1, which changes no bit.
    scale = np.array([extreme_scale(v) for v in cells])
    for i, v in enumerate(cells):
        table[i, : len(v)] = v if scale[i] == 1.0 else v / scale[i]
    mean = np.zeros(len(cells))
    squares = np.zeros(len(cells))
    with np.errstate(invalid="ignore"):  # ∞ among the values: NaN, as pandas gives
        for k in range(width):
            live = sizes > k
            x = table[live, k]
            old = mean[live]
            new = old + (x - old) / (k + 1)
            mean[live] = new
            squares[live] += (x - new) * (x - old)
    several = sizes > 1
    out[several] = scale[several] * np.sqrt(squares[several] / (sizes[several] - 1))
    return out


def _exact_mean(values: np.ndarray) -> float:
    """Mean by exact summation (NaN left out): equal exact sums give bit-identical means
    (module docstring)."""
    present = values[~np.isnan(values)]
    if not len(present):
        return math.nan
    if not np.isfinite(present).all():  # ±∞ (fsum rejects ∞ − ∞): the ordinary mean's answer
        return float(np.mean(present))
    return math.fsum(present) / len(present)


def _split(values: np.ndarray, group: np.ndarray, groups: int) -> list[np.ndarray]:
    """``values`` by ``group`` (0 … groups − 1), each group's in row order."""
    if groups == 0:
        return []
    order = np.argsort(group, kind="stable")
    sizes = np.bincount(group, minlength=groups)
    return np.split(values[order], np.cumsum(sizes)[:-1])


def _statistics_from_summary(data: AnalysisData) -> pd.DataFrame:
    """The published statistics, renamed to the perspectives' names; the rest NaN."""
    frame = data.frame
    statistics = frame[["problem", "dimension", "algorithm"]].copy()
    for column in STATISTIC_COLUMNS:
        source = SUMMARY_COLUMNS.get(column)
        if source is not None and source in frame.columns:
            statistics[column] = frame[source].to_numpy(dtype=float)
        else:
            statistics[column] = np.nan
    statistics["dimension"] = statistics["dimension"].astype(int)
    return _ordered(statistics.reset_index(drop=True), data)


def _unavailable_reason(
    perspective: str, data: AnalysisData, statistics: pd.DataFrame, has_time: bool
) -> str | None:
    """Why ``perspective`` cannot be computed from this input, or None when it can."""
    if data.format == "summary":
        if perspective == "reliability":
            return (
                "reliability needs the per-run values (the fraction of runs at most θ_f); "
                "the input holds only published statistics"
            )
        if perspective == "efficiency":
            return "efficiency needs per-run running times (a time_seconds column in trials)"
        source = SUMMARY_COLUMNS[perspective]
        if source not in data.frame.columns:
            return f"the published table has no '{source}' column"
    elif perspective == "efficiency" and not has_time:
        return "the trials have no running times (no time_seconds column)"
    if statistics[perspective].isna().all():
        return f"no {perspective} value in the input"
    return None


def _perspective_matrix(
    statistics: pd.DataFrame,
    perspective: str,
    algorithms: tuple[str, ...],
    data: AnalysisData,
) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """Problems × algorithms table of one statistic; problems with a missing value dropped."""
    labelled = statistics.assign(
        label=[
            problem_label(p, int(d))
            for p, d in zip(statistics["problem"], statistics["dimension"], strict=True)
        ]
    )
    wide = labelled.pivot_table(
        index="label",
        columns="algorithm",
        values=perspective,
        aggfunc="first",
        dropna=False,
        observed=True,
    )
    labels = [problem_label(p, d) for p, d in data.problems]
    labels += [lab for lab in dict.fromkeys(labelled["label"]) if lab not in set(labels)]
    wide = wide.reindex(index=labels, columns=list(algorithms))
    wide.index.name = "problem"
    wide.columns.name = None
    complete = wide.notna().all(axis=1)
    present = wide.notna().any(axis=1)
    excluded = tuple(str(p) for p in wide.index[present & ~complete])
    return wide[complete].astype(float), excluded


def _caveats(
    data: AnalysisData,
    statistics: pd.DataFrame,
    comparisons: Sequence[PerspectiveComparison],
) -> list[Caveat]:
    """Ties at printed precision, excluded problems, unequal runs, tied controls, wall clock."""
    caveats: list[Caveat] = []
    for c in comparisons:
        if c.perspective == "efficiency":
            caveats.append(Caveat("wall_clock_efficiency", EFFICIENCY_CAVEAT))
        if c.excluded_problems:
            caveats.append(
                Caveat(
                    "excluded_problems",
                    f"{c.perspective}: problems without a value for every algorithm are left "
                    "out of the Friedman test, which needs complete blocks.",
                    ", ".join(c.excluded_problems),
                )
            )
        if data.format == "summary" and c.tied_problems:
            caveats.append(
                Caveat(
                    "ties_at_precision",
                    f"{c.perspective}: published statistics are rounded; values equal at printed "
                    "precision are treated as ties and share the average rank (docs/methods.md), "
                    "which can change mean ranks and Holm's decisions.",
                    ", ".join(c.tied_problems),
                )
            )
        if c.control == c.best:
            best_rank = float(c.mean_ranks.min())
            tied_best = c.tied_best
            if len(tied_best) > 1:
                named = Naming()
                caveats.append(
                    named.caveat(
                        "tied_control",
                        f"{c.perspective}: {', '.join(map(named, tied_best))} share the best mean "
                        f"rank {best_rank:.3f}; the first in study order is the control.",
                    )
                )
    if data.format == "trials":
        runs = statistics["n_runs"].dropna()
        if runs.nunique() > 1:
            caveats.append(
                Caveat(
                    "unequal_runs",
                    f"The number of runs varies from {int(runs.min())} to {int(runs.max())}. "
                    "Accuracy (minimum) and robustness (maximum) are sample extremes: more runs "
                    "make the minimum smaller and the maximum larger.",
                )
            )
    return caveats
