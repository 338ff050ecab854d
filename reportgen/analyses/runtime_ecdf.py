"""Expected running time (ERT) and runtime ECDFs over function–target pairs, as COCO reports them.

Hansen, Auger, Brockhoff, Tušar, Tušar, "COCO: Performance assessment" (arXiv:1605.03560).

For algorithm ``a`` on a problem (function ``f``, dimension ``D``) with runs ``r = 1 … n`` and a
target precision ``Δf``, run ``r`` reaches the target after ``t_r(Δf)`` evaluations — the
first record with ``f − f_opt ≤ Δf`` — or never (``t_r = ∞``); it used ``T_r`` evaluations in
all. The expected running time (Eq. 1) is

.. math::

    \\mathrm{ERT}(\\Delta f) = \\frac{\\sum_{r:\\,t_r<\\infty} t_r(\\Delta f)
        + \\sum_{r:\\,t_r=\\infty} T_r}{\\#\\{r : t_r(\\Delta f) < \\infty\\}}

(∞ when no run succeeds): the total evaluations of all runs until they reached the target or
stopped, divided by the number of successes.

The runtime ECDF of algorithm ``a`` in dimension ``D`` is, for a budget of ``x·D`` evaluations,
the share of (function, target, run) triples solved within it,

.. math::

    F_a(x) = \\frac{1}{n_f\\, n_t} \\sum_{f} \\sum_{\\Delta f} \\frac{1}{n_{f}^{\\text{runs}}}
        \\#\\{r : t_r(\\Delta f) \\le x D\\},

over COCO's default 51 targets ``Δf = 10^{2 − k/5}``, ``k = 0 … 50`` (10² … 10⁻⁸), plotted
against ``x`` = evaluations / dimension on a log axis, one curve per algorithm.

The targets are the exact decimal levels COCO uses (``10.0 ** round(2 - k/5, 10)``, see
:data:`COCO_TARGETS`), so every ERT on a COCO archive equals ``cocopp``'s cell for cell
(tests/analyses/test_runtime_ecdf.py compares all of them).

Decisions
---------
- ``T_r`` is the evaluation count of the run's last record. The ``coco``, ``cec`` and ``ioh``
  readers end every history with a record at the evaluations the run used (for COCO: the
  largest of the ``.info``, last ``.dat`` and last ``.tdat`` counts), which makes the ERTs
  equal to ``cocopp``'s (tests/analyses/test_runtime_ecdf.py). A histories CSV keeps only
  improvements, so an unsuccessful run's ``T_r`` is then its last improvement — include the
  final record's evaluations as an improvement-free row is not possible there; use a platform
  format or accept the underestimate (stated in the methods).
- Each function weighs the same in the ECDF whatever its number of runs (each run weighs
  ``1/n_f^runs``); COCO's instances play the role of runs.
- No simulated restarts: ``cocopp``'s ECDF bootstraps restarts of unsuccessful runs to extend
  curves beyond the budget; that is random and not done here. The curve ends at the largest
  budget of the algorithm; a cross marks the median ``T_r / D`` (COCO's marker).
- The ECDF is tabulated (and drawn) at ``x = 10^{j/20}`` — 20 points per decade, the
  exact ECDF value at each — from the smallest budget to the largest, plus the largest
  budget itself: the full step function has one step per (function, target, run) triple
  (≈ 10⁵ in a BBOB study), far more than a figure can show, and the grid keeps tables,
  figures and ``results.json`` small. The final value (``solved``) and the area are exact.
- ``per_dimension: false`` pools all dimensions, each run's evaluations divided by its own D.
- A source without dimensions (D = 0) uses ``x`` = evaluations (D taken as 1), stated in a
  caveat.
- Budgets: the share reached at the end of the runs (``solved``) compares each algorithm at
  its own budget, and the area extends each curve flat beyond its budget. When the largest
  budgets of a dimension differ by more than a factor :data:`BUDGET_RATIO_CAVEAT`, a caveat
  names the range, and every summary row also gives ``solved_at_common_budget``: the ECDF at
  the *common budget*, the smallest of the algorithms' largest budgets in that dimension —
  the one like-for-like comparison of shares reached. "Best" in the report's text and figure
  titles is the largest area (the ranking the summary uses); the most pairs reached is named
  with its budget.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from reportgen.analyses.curves import history_groups, sorted_by_run
from reportgen.analyses.resampling import drawn_runs, run_array
from reportgen.data.frames import AnalysisData, by_problem, problem_frame
from reportgen.execution import map_items
from reportgen.present.caveats import Caveat, Naming
from reportgen.present.format import number
from reportgen.present.jsonable import frame_records, json_value
from reportgen.spec.analyses.runtime_ecdf import RuntimeEcdfOptions

COCO_TARGETS: tuple[float, ...] = tuple(float(10.0 ** round(2 - k / 5, 10)) for k in range(51))
"""COCO's default ECDF targets 10^(2 − k/5), k = 0 … 50, as COCO computes them.

The exponent is rounded to 10 decimals before the power, as COCO writes its target levels:
``10**(2 - k/5)`` evaluated directly lands one float step below COCO's value for 17 of the 51
targets (e.g. ``2 - 3/5`` is 1.4000000000000001), and a record exactly at COCO's level then
misses the target, so 328 of R-SHADE's 6120 ERTs would differ from ``cocopp``'s.
"""


@dataclass(frozen=True)
class EcdfSummary:
    """One algorithm's runtime ECDF in one dimension (0 = pooled), in numbers.

    ``solved``: the final ECDF value; ``median_budget``/``max_budget``: the median and largest
    run length T_r / D; ``area``: the mean ECDF value over log10 x (larger is better);
    ``common_budget``: the dimension's smallest ``max_budget``, where the ECDF is
    ``solved_at_common_budget``.
    """

    dimension: int
    algorithm: str
    solved: float
    median_budget: float
    max_budget: float
    area: float
    common_budget: float
    solved_at_common_budget: float


@dataclass(frozen=True)
class CommonBudget:
    """Where a dimension's budgets differ more than :data:`BUDGET_RATIO_CAVEAT`-fold: the
    common budget (the smallest algorithm budget, evaluations / D), the largest budget, the
    largest share of (function, target) pairs reached at the common budget and the
    algorithms that reach it (study order), then the next largest share and its algorithms
    (NaN and none with a single algorithm)."""

    budget: float
    longest: float
    share: float
    leaders: tuple[str, ...]
    next_share: float
    next_leaders: tuple[str, ...]


@dataclass(frozen=True)
class RuntimeEcdfResult:
    """Everything the runtime-ECDF analysis computed.

    Attributes
    ----------
    algorithms : tuple of str
        Study order.
    targets : tuple of float
        Targets Δf of the ECDF and ERT table, decreasing.
    table_targets : tuple of float
        Targets of the report's display tables.
    per_dimension : bool
    ert : pandas.DataFrame
        problem, dimension, algorithm, target, ert (∞ = no success), successes, runs — for
        every target and every table target.
    ecdf : pandas.DataFrame
        dimension (0 = pooled), algorithm, x (evaluations / D), value: the ECDF at
        ``x = 10^{j/20}`` from the smallest budget of the group to the algorithm's largest
        budget, which is the last x.
    summary : pandas.DataFrame
        dimension, algorithm, solved (final ECDF value), median_budget (median T_r / D),
        max_budget (largest T_r / D), area (mean ECDF value over log10 x between the smallest
        and largest budget of all algorithms — larger is better), common_budget (the smallest
        max_budget of the dimension) and solved_at_common_budget (the ECDF there).
    caveats : tuple of Caveat
    problem_areas : pandas.DataFrame or None
        ecdf_dimension (the ECDF's dimension, 0 when pooled), problem, dimension, algorithm,
        run (0, 1, …), area: each run's share of the area — the same integral of the ECDF of
        that one run's targets over the group's log-budget window — so that a problem's area
        is the mean over its runs, and the group's ``area`` the sum of its problems' areas
        divided by the number of its functions. The executive summary's bootstrap resamples
        these (:meth:`area_scores`, :func:`run_resampled_area_scores`).
    """

    algorithms: tuple[str, ...]
    targets: tuple[float, ...]
    table_targets: tuple[float, ...]
    per_dimension: bool
    ert: pd.DataFrame
    ecdf: pd.DataFrame
    summary: pd.DataFrame
    caveats: tuple[Caveat, ...] = ()
    problem_areas: pd.DataFrame | None = None

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"ert": self.ert, "ecdf": self.ecdf, "summary": self.summary}

    # --- views: what presenters read, instead of filtering the long tables ---------------------

    def dimensions(self) -> list[int]:
        """The dimensions with an ECDF, increasing (``[0]`` when pooled)."""
        return [int(d) for d in sorted(self.summary["dimension"].unique())]

    def summaries(self, dimension: int) -> list[EcdfSummary]:
        """Every algorithm's ECDF in ``dimension``, in study order."""
        rows = self.summary[self.summary["dimension"] == dimension]
        return [
            EcdfSummary(
                int(r.dimension),
                str(r.algorithm),
                float(r.solved),
                float(r.median_budget),
                float(r.max_budget),
                float(r.area),
                float(r.common_budget),
                float(r.solved_at_common_budget),
            )
            for r in rows.itertuples(index=False)
        ]

    def curve(self, dimension: int, algorithm: str) -> tuple[np.ndarray, np.ndarray]:
        """The ECDF of ``algorithm`` in ``dimension``: x (evaluations / D) and value."""
        rows = self.ecdf[
            (self.ecdf["dimension"] == dimension) & (self.ecdf["algorithm"] == algorithm)
        ]
        return rows["x"].to_numpy(), rows["value"].to_numpy()

    def ert_tables(self, targets: Sequence[float]) -> dict[int, pd.DataFrame]:
        """The ERTs at ``targets``, by problem dimension (increasing): rows (problem, target),
        every problem of the dimension in the table's order with ``targets`` in the given
        order; columns the algorithms (study order, those with ERTs there)."""
        rows = self.ert[self.ert["target"].isin(targets)]
        out = {}
        for d in sorted(rows["dimension"].unique()):
            part = rows[rows["dimension"] == d]
            wide = part.pivot_table(
                index=["problem", "target"],
                columns="algorithm",
                values="ert",
                sort=False,
                observed=True,
            )
            problems = list(dict.fromkeys(part["problem"]))
            wide = wide.reindex(
                pd.MultiIndex.from_tuples([(p, t) for p in problems for t in targets])
            )
            out[int(d)] = wide[[a for a in self.algorithms if a in wide.columns]]
        return out

    def common_budget(self, dimension: int) -> CommonBudget | None:
        """Who reaches the most (function, target) pairs at the common budget of
        ``dimension``, where its budgets differ more than :data:`BUDGET_RATIO_CAVEAT`-fold
        (shares at unequal budgets do not compare); None where they do not."""
        rows = self.summaries(dimension)
        if not rows:
            return None
        common = rows[0].common_budget
        longest = max(s.max_budget for s in rows)
        if not longest > BUDGET_RATIO_CAVEAT * common:
            return None
        shares = sorted({s.solved_at_common_budget for s in rows}, reverse=True)
        top, following = shares[0], (shares[1] if len(shares) > 1 else math.nan)
        return CommonBudget(
            common,
            longest,
            top,
            tuple(s.algorithm for s in rows if s.solved_at_common_budget == top),
            following,
            tuple(s.algorithm for s in rows if s.solved_at_common_budget == following),
        )

    def all_summaries(self) -> list[EcdfSummary]:
        """Every row of the summary: each dimension's algorithms (as :meth:`summaries`), by
        dimension."""
        return [s for d in self.dimensions() for s in self.summaries(d)]

    def areas(self) -> dict[str, float]:
        """The area under each algorithm's ECDF: pooled over dimensions when pooled, else the
        mean over dimensions (what the executive summary ranks)."""
        summary = self.summary
        pooled = (
            summary[summary["dimension"] == 0] if (summary["dimension"] == 0).any() else summary
        )
        area = pooled.groupby("algorithm", sort=False, observed=True)["area"].mean()
        return {str(a): float(v) for a, v in area.items()}

    def area_scores(self) -> pd.DataFrame:
        """Per (problem, dimension, algorithm) a score whose mean over all rows orders the
        algorithms as :meth:`areas` does: the problem's area (the mean over its runs),
        weighted by :meth:`area_weights`."""
        if self.problem_areas is None:
            return pd.DataFrame(columns=["problem", "dimension", "algorithm", "score"])
        keys = ["problem", "dimension", "algorithm"]
        frame = (
            self.problem_areas.groupby(keys, sort=False, observed=True)["area"].mean().reset_index()
        )
        weights = self.area_weights()
        weight = [
            weights[(str(p), int(d))]
            for p, d in zip(frame["problem"], frame["dimension"], strict=True)
        ]
        return frame[keys].assign(score=frame["area"].to_numpy() * np.asarray(weight))

    def area_weights(self) -> dict[tuple[str, int], float]:
        """Per (problem, dimension): ``rows / (groups · functions of its group)``, so that each
        ECDF group (dimension) weighs the same, as in the mean over dimensions (1 with one
        group, or groups of equal size)."""
        if self.problem_areas is None:
            return {}
        keys = self.problem_areas[["ecdf_dimension", "problem", "dimension"]].drop_duplicates()
        size = keys.groupby("ecdf_dimension", observed=True)[
            "problem"
        ].nunique()  # functions per group
        return {
            (str(p), int(d)): len(keys) / (len(size) * int(size[g]))
            for g, p, d in zip(
                keys["ecdf_dimension"], keys["problem"], keys["dimension"], strict=True
            )
        }

    def area_score_matrix(self) -> pd.DataFrame | None:
        """:meth:`area_scores` as problems × algorithms (None without per-problem areas)."""
        if self.problem_areas is None or not len(self.problem_areas):
            return None
        return by_problem(self.area_scores(), "score", self.algorithms)

    def to_json(self) -> dict[str, Any]:
        """ERTs grouped per (problem, dimension, algorithm), one list over ``ert_targets``."""
        ert_targets = list(dict.fromkeys(self.ert["target"]))
        keys = ["problem", "dimension", "algorithm"]
        # Rows are sorted by group, then by target, in the same target order in every group.
        n = len(ert_targets)
        firsts = self.ert.iloc[::n]
        erts = self.ert["ert"].to_numpy().reshape(-1, n)
        successes = self.ert["successes"].to_numpy().reshape(-1, n)
        groups = [
            {
                "problem": problem,
                "dimension": int(dimension),
                "algorithm": algorithm,
                "runs": int(runs),
                "ert": [json_value(v) for v in erts[i]],
                "successes": [int(v) for v in successes[i]],
            }
            for i, (problem, dimension, algorithm, runs) in enumerate(
                zip(*(firsts[k] for k in [*keys, "runs"]), strict=True)
            )
        ]
        return {
            "targets": [json_value(t) for t in self.targets],
            "table_targets": [json_value(t) for t in self.table_targets],
            "per_dimension": self.per_dimension,
            "ert_targets": [json_value(t) for t in ert_targets],
            "ert": groups,
            "summary": frame_records(self.summary),
            "ecdf": frame_records(self.ecdf),
        }


def hitting_times(
    run_codes: np.ndarray, evaluations: np.ndarray, values: np.ndarray, targets: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """First evaluation count at which each run reaches each target, and each run's end.

    Parameters
    ----------
    run_codes : numpy.ndarray of int
        Run codes ``0 … n − 1`` of the records, sorted by run, then evaluations.
    evaluations, values : numpy.ndarray
        Best-so-far records (values non-increasing within a run).
    targets : numpy.ndarray
        Targets Δf.

    Returns
    -------
    hits : numpy.ndarray, shape (n, len(targets))
        ``t_r(Δf)``; ∞ where the run never reaches Δf.
    used : numpy.ndarray, shape (n,)
        ``T_r``: the evaluations of the run's last record.
    """
    n = int(run_codes.max()) + 1
    starts = np.searchsorted(run_codes, np.arange(n), side="left")
    ends = np.r_[starts[1:], len(run_codes)]
    used = evaluations[ends - 1]
    targets = np.asarray(targets, dtype=float)
    rises = (run_codes[1:] == run_codes[:-1]) & (values[1:] > values[:-1])
    if np.isnan(values).any() or np.isnan(targets).any() or rises.any():
        return _hitting_times_by_run(starts, ends, evaluations, values, targets), used
    # All runs in one binary search. A value v reaches Δf (v ≤ Δf) exactly when fewer targets
    # lie below v than below Δf: ``below(v) ≤ below(Δf)``. Within a run ``below`` never
    # increases, so ``run · (T + 1) + T − below`` never decreases over the whole array, and
    # the first record of run r reaching Δf is the first whose key reaches
    # ``r · (T + 1) + T − below(Δf)`` — or the next run's first record when none does.
    ascending = np.sort(targets)
    below = np.searchsorted(ascending, values, side="left")
    width = len(targets) + 1
    key = run_codes * width + (len(targets) - below)
    wanted = np.arange(n)[:, None] * width + (len(targets) - np.searchsorted(ascending, targets))
    first = np.searchsorted(key, wanted, side="left")
    reached = first < ends[:, None]
    hits = np.where(reached, evaluations[np.minimum(first, len(evaluations) - 1)], np.inf)
    return hits, used


def _hitting_times_by_run(
    starts: np.ndarray,
    ends: np.ndarray,
    evaluations: np.ndarray,
    values: np.ndarray,
    targets: np.ndarray,
) -> np.ndarray:
    """:func:`hitting_times` run by run, for records whose values are not non-increasing
    within a run (or hold NaN): the layout forbids them, so this keeps the one-search path's
    result unchanged for data that never reaches an analysis."""
    hits = np.full((len(starts), len(targets)), np.inf)
    for r in range(len(starts)):
        # Values are non-increasing: reversing makes them non-decreasing for a binary search
        # of the first record with value ≤ Δf.
        val = values[starts[r] : ends[r]][::-1]
        ev = evaluations[starts[r] : ends[r]][::-1]
        count = np.searchsorted(val, targets, side="right")  # records with value ≤ Δf
        reached = count > 0
        hits[r, reached] = ev[count[reached] - 1]
    return hits


def expected_running_time(hits: np.ndarray, used: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """ERT per target (COCO Eq. 1) and the number of successful runs.

    ``hits[r, j]`` is ``t_r`` for target ``j`` (∞ = never), ``used[r]`` is ``T_r``.
    """
    success = np.isfinite(hits)
    successes = success.sum(axis=0)
    total = np.where(success, hits, used[:, None]).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ert = np.where(successes > 0, total / np.maximum(successes, 1), np.inf)
    return ert, successes


BUDGET_RATIO_CAVEAT = 10.0
"""Largest/smallest budget ratio in a dimension above which the report warns (Decisions)."""

POINTS_PER_DECADE = 20
"""Resolution of the tabulated ECDF (see Decisions)."""

AREA_PLACES = 3
"""Decimals an area under the ECDF prints with, in the table, the sentences and the figure's
title alike (each quoted the same area with other digits: 0.286, 0.29)."""


def _grid(start: float, end: float) -> np.ndarray:
    """``10^{j/20}`` from the grid point at or below ``start`` to ``end``, and ``end`` itself."""
    low = np.floor(np.log10(start) * POINTS_PER_DECADE)
    high = np.ceil(np.log10(end) * POINTS_PER_DECADE)
    grid = 10.0 ** (np.arange(low, high + 1) / POINTS_PER_DECADE)
    return np.unique(np.r_[grid[grid < end], end])


def _ecdf(times: np.ndarray, weights: np.ndarray, start: float) -> tuple[np.ndarray, np.ndarray]:
    """Breakpoints of the weighted ECDF of ``times`` (∞ never counted), from ``start``."""
    finite = np.isfinite(times)
    order = np.argsort(times[finite], kind="stable")
    x = times[finite][order]
    cumulative = np.cumsum(weights[finite][order])
    if len(x):
        last = np.r_[x[1:] != x[:-1], True]
        x, cumulative = x[last], cumulative[last]
    if not len(x) or x[0] > start:
        x = np.r_[start, x]
        cumulative = np.r_[0.0, cumulative]
    return x, np.minimum(cumulative, 1.0)


@dataclass(frozen=True)
class _GroupRuntimes:
    """One algorithm on one problem: ERT and successes per target, the runs' hitting times
    of the ECDF targets and their budgets (a few numbers per run)."""

    problem: str
    dimension: int
    algorithm: str
    ert: np.ndarray
    successes: np.ndarray
    hits: np.ndarray
    used: np.ndarray


def _problem_runtimes(
    work: tuple[Any, tuple[str, int]],
    targets: np.ndarray,
    in_ecdf: np.ndarray,
    algorithms: tuple[str, ...],
) -> list[_GroupRuntimes]:
    """Hitting times and ERT of every algorithm on one problem (an executor work item: the
    problem's rows, or what reads them where it runs, with the problem's key).

    Groups are found by :func:`~reportgen.analyses.curves.history_groups` (row spans, no
    DataFrame per group: pandas grouping cost more than the hitting times themselves).
    """
    item, (problem, dimension) = work
    groups = history_groups(problem_frame(item), ((problem, dimension),), algorithms)
    out = []
    for g in range(len(groups.lo)):
        lo, hi = groups.lo[g], groups.hi[g]
        codes, evaluations, values = sorted_by_run(
            groups.runs[lo:hi], groups.evaluations[lo:hi], groups.values[lo:hi]
        )
        hits, used = hitting_times(codes, evaluations, values, targets)
        algorithm = algorithms[int(groups.algorithm[g])]
        ert, successes = expected_running_time(hits, used)
        out.append(
            _GroupRuntimes(problem, dimension, algorithm, ert, successes, hits[:, in_ecdf], used)
        )
    return out


ERT_COLUMNS = ("problem", "dimension", "algorithm", "target", "ert", "successes", "runs")
AREA_COLUMNS = ("ecdf_dimension", "problem", "dimension", "algorithm", "run", "area")


def _frame(columns: dict[str, list[Any]]) -> pd.DataFrame:
    """A table from per-group pieces of each column (lists of names, arrays of numbers),
    with the dtypes one dict per row would give it (object columns when it has no rows)."""
    if not any(len(piece) for piece in next(iter(columns.values()))):
        return pd.DataFrame([], columns=list(columns))
    return pd.DataFrame(
        {
            name: (
                [item for piece in pieces for item in piece]
                if isinstance(pieces[0], list)
                else np.concatenate(pieces)
            )
            for name, pieces in columns.items()
        }
    )


def compute(data: AnalysisData, options: RuntimeEcdfOptions) -> RuntimeEcdfResult:
    """ERT table and runtime ECDFs (see the module docstring)."""
    targets = np.array(
        sorted(options.targets if options.targets is not None else COCO_TARGETS, reverse=True)
    )
    table_only = sorted(set(options.table_targets) - set(targets.tolist()), reverse=True)
    all_targets = np.r_[targets, table_only]
    in_ecdf = np.r_[np.ones(len(targets), bool), np.zeros(len(table_only), bool)]
    caveats: list[Caveat] = []
    if any(dimension == 0 for _, dimension in data.problems):
        caveats.append(
            Caveat(
                "no_dimension",
                "Some problems have no dimension; their runtimes are plotted as evaluations "
                "(D taken as 1).",
            )
        )
    # The ERT table's columns, one array of all_targets' length per group (one dict per row
    # cost more than the hitting times: 36,000 rows on the six COCO archives).
    ert_columns: dict[str, list[Any]] = {name: [] for name in ERT_COLUMNS}
    # per (ecdf group, algorithm): lists of (times / D, weights) and budgets / D
    samples: dict[tuple[int, str], list[tuple[np.ndarray, np.ndarray]]] = {}
    # per (ecdf group, algorithm): (problem, dimension, hits / D) of each problem, for the areas
    by_problem: dict[tuple[int, str], list[tuple[str, int, np.ndarray]]] = {}
    budgets: dict[tuple[int, str], list[np.ndarray]] = {}
    functions: dict[int, set[str]] = {}
    per_problem = map_items(
        functools.partial(
            _problem_runtimes, targets=all_targets, in_ecdf=in_ecdf, algorithms=data.algorithms
        ),
        list(zip(data.problem_items(), data.problems, strict=True)),
    )
    # The groups in the canonical table's order (algorithm, problem, dimension; names as
    # sorted text), whatever order the problems ran in: the ECDFs add their samples in it.
    groups = sorted(
        (g for problem in per_problem for g in problem),
        key=lambda g: (str(g.algorithm), str(g.problem), g.dimension),
    )
    for group in groups:
        problem, dimension, algorithm, hits, used = (
            group.problem,
            group.dimension,
            group.algorithm,
            group.hits,
            group.used,
        )
        runs = len(used)
        width = len(all_targets)
        ert_columns["problem"].append([problem] * width)
        ert_columns["dimension"].append(np.full(width, int(dimension), dtype=np.int64))
        ert_columns["algorithm"].append([algorithm] * width)
        ert_columns["target"].append(all_targets.astype(float))
        ert_columns["ert"].append(group.ert.astype(float))
        ert_columns["successes"].append(group.successes.astype(np.int64))
        ert_columns["runs"].append(np.full(width, runs, dtype=np.int64))
        scale = float(max(int(dimension), 1))
        key = (int(dimension) if options.per_dimension else 0, str(algorithm))
        weight = np.full(hits.shape, 1.0 / runs)
        samples.setdefault(key, []).append((hits.ravel() / scale, weight.ravel()))
        by_problem.setdefault(key, []).append((str(problem), int(dimension), hits / scale))
        budgets.setdefault(key, []).append(used / scale)
        functions.setdefault(key[0], set()).add(str(problem))
    order_of = {a: i for i, a in enumerate(data.algorithms)}
    ert_table = _frame(ert_columns)
    problem_rank = {p: i for i, (p, _) in enumerate(data.problems)}
    ert_table = ert_table.sort_values(
        ["dimension", "problem", "algorithm", "target"],
        key=lambda s: (
            s.map(problem_rank)
            if s.name == "problem"
            else s.map(order_of)
            if s.name == "algorithm"
            else -s
            if s.name == "target"
            else s
        ),
        kind="stable",
        ignore_index=True,
    )
    ecdf_rows: list[pd.DataFrame] = []
    summary_rows: list[dict[str, Any]] = []
    area_columns: dict[str, list[Any]] = {name: [] for name in AREA_COLUMNS}
    for group_dimension in sorted(functions):
        keys = [k for k in samples if k[0] == group_dimension]
        n_pairs = len(functions[group_dimension]) * len(targets)
        all_budgets = np.concatenate([np.concatenate(budgets[k]) for k in keys])
        start = float(min(1.0, all_budgets.min()))
        largest = {k: float(np.concatenate(budgets[k]).max()) for k in keys}
        common = min(largest.values())
        low, high = np.log10(max(start, 1e-12)), np.log10(max(all_budgets.max(), start * 10))
        for key in sorted(keys, key=lambda k: order_of.get(k[1], len(order_of))):
            times = np.concatenate([t for t, _ in samples[key]])
            weights = np.concatenate([w for _, w in samples[key]]) / n_pairs
            x, value = _ecdf(times, weights, start)
            budget = np.concatenate(budgets[key])
            end = max(float(budget.max()), float(x[-1]))
            grid = _grid(start, end)
            at_grid = value[np.searchsorted(x, grid, side="right") - 1]
            ecdf_rows.append(
                pd.DataFrame(
                    {"dimension": group_dimension, "algorithm": key[1], "x": grid, "value": at_grid}
                )
            )
            # Area under the ECDF on log10 x over [low, high], normalised to [0, 1].
            # A target reached at evaluation 0 (the first record of a run logged before any
            # evaluation) is at log10 0 = −∞: clipped to the window's start, as it should be.
            with np.errstate(divide="ignore"):
                grid = np.log10(np.r_[x, 10**high])
            inside = np.clip(grid, low, high)
            area = float(np.sum(np.diff(inside) * value) / (high - low)) if high > low else 0.0
            # Each problem's part, run by run: a run reaching a target at t adds
            # (high − log10 t) of the window to the integral, one that never does nothing.
            for problem, dimension, problem_hits in by_problem[key]:
                with np.errstate(divide="ignore"):
                    reach = high - np.clip(np.log10(problem_hits), low, high)
                reach[~np.isfinite(problem_hits)] = 0.0
                share = reach.mean(axis=1) / (high - low) if high > low else 0.0 * reach[:, 0]
                count = len(share)
                area_columns["ecdf_dimension"].append(np.full(count, group_dimension, np.int64))
                area_columns["problem"].append([problem] * count)
                area_columns["dimension"].append(np.full(count, dimension, dtype=np.int64))
                area_columns["algorithm"].append([key[1]] * count)
                area_columns["run"].append(np.arange(count, dtype=np.int64))
                area_columns["area"].append(np.asarray(share, dtype=float))
            summary_rows.append(
                {
                    "dimension": group_dimension,
                    "algorithm": key[1],
                    "solved": float(value[-1]),
                    "median_budget": float(np.median(budget)),
                    "max_budget": float(budget.max()),
                    "area": area,
                    "common_budget": common,
                    "solved_at_common_budget": float(
                        value[np.searchsorted(x, common, side="right") - 1]
                    ),
                }
            )
        if max(largest.values()) > BUDGET_RATIO_CAVEAT * common:
            widest = max(largest, key=lambda k: largest[k])
            narrowest = min(largest, key=lambda k: largest[k])
            where = f"in {group_dimension}-D" if group_dimension else "over all dimensions"
            named = Naming()
            low, high = named(narrowest[1]), named(widest[1])
            caveats.append(
                named.caveat(
                    "unequal_budgets",
                    f"Budgets differ {largest[widest] / common:.0f}-fold {where}: from "
                    f"{number(common)}·D evaluations ({low}) to "
                    f"{number(largest[widest])}·D "
                    f"({high}). The share of (function, target) pairs reached at the end "
                    "of the runs compares the algorithms at different budgets, and the ECDF "
                    "area extends each curve flat beyond its own budget; compare the curves at "
                    f"a common budget (the summary's column at {number(common)}·D).",
                    where=f"{low}, {high}",
                )
            )
    ecdf = (
        pd.concat(ecdf_rows, ignore_index=True)
        if ecdf_rows
        else pd.DataFrame(columns=["dimension", "algorithm", "x", "value"])
    )
    summary = pd.DataFrame(
        summary_rows,
        columns=[
            "dimension",
            "algorithm",
            "solved",
            "median_budget",
            "max_budget",
            "area",
            "common_budget",
            "solved_at_common_budget",
        ],
    )
    return RuntimeEcdfResult(
        algorithms=data.algorithms,
        targets=tuple(float(t) for t in targets),
        table_targets=tuple(float(t) for t in options.table_targets),
        per_dimension=options.per_dimension,
        ert=ert_table,
        ecdf=ecdf,
        summary=summary,
        caveats=tuple(caveats),
        problem_areas=_frame(area_columns),
    )


def run_resampled_area_scores(
    result: RuntimeEcdfResult,
    problems: Sequence[tuple[str, int]],
    slots: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """:meth:`RuntimeEcdfResult.area_scores` recomputed on resamples of the runs.

    Each slot (a problem drawn into a bootstrap resample) gets, for every algorithm, its runs
    (for COCO: its instances) drawn with replacement; its score is the mean of the drawn runs'
    shares of the area, weighted as in :meth:`RuntimeEcdfResult.area_weights`. The window of
    the integral stays that of the full sample.

    Returns
    -------
    numpy.ndarray
        ``[B, n, algorithms]``, algorithms in ``result.algorithms`` order.
    """
    if result.problem_areas is None:
        raise ValueError("the result keeps no per-run areas to resample")
    areas = result.problem_areas
    # Each run's problem as its row in ``problems`` (-1: not among them), by index lookup
    # rather than a string key per run (this runs once per ranking of the summary).
    wanted = pd.MultiIndex.from_tuples([(str(p), int(d)) for p, d in problems])
    found = pd.MultiIndex.from_arrays([areas["problem"].astype(str), areas["dimension"]])
    frame = areas.assign(row=wanted.get_indexer(found))
    values, counts = run_array(frame, "area", range(len(problems)), result.algorithms, key="row")
    weights = result.area_weights()
    weight = np.array([weights[(str(p), int(d))] for p, d in problems])
    out = np.empty((*slots.shape, values.shape[1]))
    n_max = values.shape[-1]
    for where, rows, drawn, present in drawn_runs(values, counts, slots, rng):
        # The mean of each cell's drawn runs: the sum of its first n draws, the draws beyond a
        # short cell's n (DIRECT's 5 runs among others' 15 in the COCO archives) zeroed in
        # place, which leaves every sum as a pass over all n_max draws with those zeros gives
        # it (areas are finite and ≥ 0), one multiplication instead of a second sum over the
        # short cells gathered apart.
        count = counts[rows]
        if not (count == n_max).all():
            np.multiply(drawn, present, out=drawn)
        total = drawn.sum(axis=-1)
        out[where] = total / count * weight[rows][..., None]
    return out
