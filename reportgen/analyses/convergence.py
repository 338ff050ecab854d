r"""Convergence curves: the median best-so-far value against evaluations, and fixed-budget tables.

The plot every benchmarking paper shows next to its per-problem table, and what cocopp and
IOHanalyzer call fixed-budget results: for each problem instance and algorithm, the runs'
best-so-far values :math:`H(k, r)` after :math:`k` evaluations (each run's last record at or
before :math:`k`), summarised over the runs at every :math:`k` by the median and the first and
third quartiles (and, on request, the mean):

.. math::

    \mathrm{med}(k) = \operatorname{median}_r H(k, r), \qquad
    [Q_1(k), Q_3(k)] \text{ the interquartile band.}

Fixed-budget tables give the same statistics at named evaluation counts ``budgets``.

Decisions (docs/methods.md, "Convergence curves")
-------------------------------------------------
- Curves are evaluated on a grid per problem instance: 80 points spaced evenly on a log scale
  between the smallest positive and the largest evaluation count recorded there (evenly on a
  linear scale when they span less than a decade), plus the fixed budgets. Between records a
  run's value is its last record's (histories are step functions).
- A curve starts at the first grid point at which *every* run of the algorithm has a record
  (before it the median over the runs is undefined) and ends at the largest evaluation count
  any of its runs recorded: for the coco, cec and ioh formats that is the budget used; for a
  histories CSV, which keeps improvements only, the last improvement.
- Quartiles are :func:`numpy.quantile`'s default (linear interpolation, Hyndman–Fan type 7).
- A fixed budget beyond an algorithm's last record reads its runs' last values (for a histories
  CSV, which records improvements only, that is exact); beyond every record of the dimension, a
  caveat says so.
- Value axis (``y_scale: auto``): logarithmic when the positive plotted values of a problem span
  more than two decades and none is negative, else linear. On a log axis, values of 0 (an
  optimum reached exactly) are drawn on the panel's floor, one decade below the smallest
  positive plotted value, and the caption says so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from reportgen.data.frames import RUN_KEYS, AnalysisData, problem_frame, problem_label
from reportgen.errors import InputError, Problem, did_you_mean, quote_choices
from reportgen.execution import map_items
from reportgen.present.caveats import Caveat
from reportgen.present.format import counted
from reportgen.present.jsonable import frame_records, json_value
from reportgen.spec.analyses.convergence import ConvergenceOptions

GRID_POINTS = 80
"""Points of the evaluation grid per problem instance (before the fixed budgets are added)."""

DECADES_FOR_LOG = 2.0
"""A value axis becomes logarithmic when the values span more than this many decades."""

Scale = Literal["log", "linear"]


@dataclass(frozen=True)
class Curve:
    """One algorithm's convergence curve on one problem instance.

    All arrays have one entry per point of ``evaluations`` (increasing).
    """

    algorithm: str
    problem: str
    dimension: int
    n_runs: int
    evaluations: np.ndarray
    median: np.ndarray
    q1: np.ndarray
    q3: np.ndarray
    mean: np.ndarray


@dataclass(frozen=True)
class FixedBudget:
    """The runs' values of one algorithm on one problem instance at one evaluation count."""

    algorithm: str
    problem: str
    dimension: int
    budget: float
    n_runs: int
    median: float
    q1: float
    q3: float
    mean: float


@dataclass(frozen=True)
class ConvergenceResult:
    """Everything the convergence analysis computed.

    Attributes
    ----------
    algorithms : tuple of str
        Study order.
    problems : tuple of (str, int)
        Every problem instance (the fixed-budget tables cover them all).
    plotted : tuple of (str, int)
        The problem instances drawn (``problems:`` of the spec).
    curves : tuple of Curve
        By problem instance (natural order), algorithms in study order.
    fixed : tuple of FixedBudget
        By dimension, budget, problem, algorithm.
    budgets : dict
        Dimension → the fixed budgets, increasing.
    scales : dict
        (problem, dimension) → the value axis: ``log`` or ``linear``.
    floors : dict
        (problem, dimension) → where values ≤ 0 are drawn on a log axis (only problems with a
        log axis and such values).
    band : {"iqr", "none"}
    show_mean : bool
    caveats : tuple of Caveat
    """

    algorithms: tuple[str, ...]
    problems: tuple[tuple[str, int], ...]
    plotted: tuple[tuple[str, int], ...]
    curves: tuple[Curve, ...]
    fixed: tuple[FixedBudget, ...]
    budgets: Mapping[int, tuple[float, ...]]
    scales: Mapping[tuple[str, int], Scale]
    floors: Mapping[tuple[str, int], float]
    band: str
    show_mean: bool
    caveats: tuple[Caveat, ...] = ()

    def curves_of(self, problem: str, dimension: int) -> tuple[Curve, ...]:
        """The curves of one problem instance, algorithms in study order."""
        return tuple(c for c in self.curves if (c.problem, c.dimension) == (problem, dimension))

    def at_budget(self, dimension: int, budget: float) -> tuple[FixedBudget, ...]:
        """The fixed-budget values of one dimension at one budget."""
        return tuple(f for f in self.fixed if f.dimension == dimension and f.budget == budget)

    def best_at_budget(self, problem: str, dimension: int, budget: float) -> tuple[str, ...]:
        """The algorithms with the smallest median at ``budget`` on the problem (ties all)."""
        values = {
            f.algorithm: f.median
            for f in self.at_budget(dimension, budget)
            if f.problem == problem and not math.isnan(f.median)
        }
        if not values:
            return ()
        low = min(values.values())
        return tuple(a for a, v in values.items() if v == low)

    def curves_frame(self) -> pd.DataFrame:
        parts = [
            pd.DataFrame(
                {
                    "problem": c.problem,
                    "dimension": c.dimension,
                    "algorithm": c.algorithm,
                    "evaluations": c.evaluations,
                    "median": c.median,
                    "q1": c.q1,
                    "q3": c.q3,
                    "mean": c.mean,
                    "runs": c.n_runs,
                }
            )
            for c in self.curves
        ]
        columns = ["problem", "dimension", "algorithm", "evaluations", "median", "q1", "q3"]
        if not parts:
            return pd.DataFrame(columns=[*columns, "mean", "runs"])
        return pd.concat(parts, ignore_index=True)

    def fixed_frame(self) -> pd.DataFrame:
        return pd.DataFrame(
            [
                {
                    "problem": f.problem,
                    "dimension": f.dimension,
                    "algorithm": f.algorithm,
                    "budget": f.budget,
                    "runs": f.n_runs,
                    "median": f.median,
                    "q1": f.q1,
                    "q3": f.q3,
                    "mean": f.mean,
                }
                for f in self.fixed
            ],
            columns=[
                "problem",
                "dimension",
                "algorithm",
                "budget",
                "runs",
                "median",
                "q1",
                "q3",
                "mean",
            ],
        )

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"curves": self.curves_frame(), "fixed_budget": self.fixed_frame()}

    def to_json(self) -> dict[str, Any]:
        return {
            "band": self.band,
            "show_mean": self.show_mean,
            "plotted": [problem_label(p, d) for p, d in self.plotted],
            "budgets": {str(d): [json_value(b) for b in bs] for d, bs in self.budgets.items()},
            "scales": {problem_label(p, d): s for (p, d), s in self.scales.items()},
            "fixed_budget": frame_records(self.fixed_frame()),
            "curves": [
                {
                    "problem": c.problem,
                    "dimension": c.dimension,
                    "algorithm": c.algorithm,
                    "runs": c.n_runs,
                    "evaluations": [json_value(v) for v in c.evaluations],
                    "median": [json_value(v) for v in c.median],
                    "q1": [json_value(v) for v in c.q1],
                    "q3": [json_value(v) for v in c.q3],
                    "mean": [json_value(v) for v in c.mean],
                }
                for c in self.curves
            ],
        }


# --------------------------------------------------------------------------------------------
# Input
# --------------------------------------------------------------------------------------------


def _check_input(data: AnalysisData, options: ConvergenceOptions) -> None:
    missing = [c for c in (*RUN_KEYS, "evaluations", "value") if c not in data.frame.columns]
    if missing:
        raise InputError(Problem("data", f"the histories table lacks {quote_choices(missing)}"))
    if data.frame.empty and data.records is None:
        raise InputError(Problem("data", "the data has no rows for the study's selection"))
    names = list(dict.fromkeys(p for p, _ in data.problems))
    for name in options.problems or []:
        if name not in names:
            raise InputError(
                Problem(
                    "problems",
                    f"'{name}' is not a problem of this data; it has {quote_choices(names[:12])}"
                    f"{' …' if len(names) > 12 else ''}{did_you_mean(name, names)}",
                )
            )
    if isinstance(options.budgets, dict):
        dims = sorted({d for _, d in data.problems})
        absent = [d for d in dims if d not in options.budgets]
        if absent:
            raise InputError(
                Problem(
                    "budgets",
                    f"no budgets for dimension {absent[0]}; budgets are given for "
                    f"{sorted(options.budgets)}",
                )
            )


# --------------------------------------------------------------------------------------------
# The curves
# --------------------------------------------------------------------------------------------


def evaluation_grid(lowest: float, highest: float, extra: Sequence[float] = ()) -> np.ndarray:
    """The evaluation counts a problem's curves are evaluated at (see the module docstring)."""
    lowest = max(lowest, 1.0)
    highest = max(highest, lowest)
    if highest / lowest >= 10:
        grid = np.geomspace(lowest, highest, GRID_POINTS)
    else:
        grid = np.linspace(lowest, highest, GRID_POINTS)
    inside = [b for b in extra if lowest <= b <= highest]
    return np.unique(np.concatenate([grid, inside, [lowest, highest]]))


def values_at(evaluations: np.ndarray, values: np.ndarray, points: np.ndarray) -> np.ndarray:
    """One run's best-so-far value at each point: its last record at or before it (NaN before
    its first record)."""
    index = np.searchsorted(evaluations, points, side="right") - 1
    out = values[np.maximum(index, 0)].astype(float)
    out[index < 0] = np.nan
    return out


def _run_matrix(group: pd.DataFrame, points: np.ndarray) -> np.ndarray:
    """Runs × points matrix of best-so-far values of one (problem, algorithm) group."""
    runs = group["run"].to_numpy()
    evaluations = group["evaluations"].to_numpy(dtype=float)
    values = group["value"].to_numpy(dtype=float)
    # Rows are sorted by run, then evaluations (the canonical layout); split at run changes.
    new_run = np.r_[True, runs[1:] != runs[:-1]]
    starts = np.flatnonzero(new_run)
    run_of = np.cumsum(new_run) - 1
    # values_at for every run at once: evaluations and points replaced by their ranks among
    # both (same order, same ties), so that (run, rank) is one whole-number key to search.
    _, rank = np.unique(np.concatenate([evaluations, points]), return_inverse=True)
    width = int(rank.max(initial=0)) + 1
    keys = run_of * width + rank[: len(evaluations)]
    queries = (np.arange(len(starts))[:, None] * width + rank[len(evaluations) :]).ravel()
    index = np.searchsorted(keys, queries, side="right") - 1
    before = index < np.repeat(starts, len(points))  # before the run's first record
    out = values[np.maximum(index, 0)].astype(float)
    out[before] = np.nan
    return out.reshape(len(starts), len(points))


def _statistics(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Quartiles and mean over the runs (rows); columns with a missing run are NaN."""
    complete = ~np.isnan(matrix).any(axis=0)
    q = np.full((3, matrix.shape[1]), np.nan)
    mean = np.full(matrix.shape[1], np.nan)
    if complete.any():
        q[:, complete] = np.quantile(matrix[:, complete], [0.25, 0.5, 0.75], axis=0)
        mean[complete] = matrix[:, complete].mean(axis=0)
    return q[1], q[0], q[2], mean


def axis_scale(values: np.ndarray) -> tuple[Scale, float | None]:
    """The value axis and, on a log axis with values ≤ 0, the floor they are drawn at."""
    finite = values[np.isfinite(values)]
    positive = finite[finite > 0]
    if (
        len(positive) == 0
        or (finite < 0).any()
        or positive.max() / positive.min() <= 10**DECADES_FOR_LOG
    ):
        return "linear", None
    return "log", log_floor(values)


def log_floor(values: np.ndarray) -> float | None:
    """Where values ≤ 0 are drawn on a log axis: a decade below the smallest positive value
    (None when there are no such values, or no positive one)."""
    finite = values[np.isfinite(values)]
    positive = finite[finite > 0]
    if len(positive) == 0 or (finite > 0).all():
        return None
    return float(10 ** (math.floor(math.log10(positive.min())) - 1))


def _budgets(
    options: ConvergenceOptions, largest: Mapping[int, float], dimensions: Sequence[int]
) -> dict[int, tuple[float, ...]]:
    if options.budgets is None:
        return {d: (float(largest[d]),) for d in dimensions}
    if isinstance(options.budgets, dict):
        return {d: tuple(sorted(float(b) for b in options.budgets[d])) for d in dimensions}
    return {d: tuple(sorted(float(b) for b in options.budgets)) for d in dimensions}


@dataclass(frozen=True)
class _ProblemCurves:
    """One problem's share of the result: its curves, fixed-budget rows and axis."""

    curves: list[Curve]
    fixed: list[FixedBudget]
    beyond: list[str]
    scale: Scale | None
    floor: float | None


def _problem_curves(
    item: Any,
    problem: tuple[str, int],
    algorithms: tuple[str, ...],
    budgets: tuple[float, ...],
    largest: float,
    plotted: bool,
    options: ConvergenceOptions,
) -> _ProblemCurves:
    """Curves and fixed-budget values of every algorithm on one problem (an executor work
    item: the problem's rows, or what reads them where it runs)."""
    name, dimension = problem
    instance = problem_frame(item)[[*RUN_KEYS, "evaluations", "value"]]
    groups = {str(k): g for k, g in instance.groupby("algorithm", sort=False, observed=True)}
    evaluations = instance["evaluations"].to_numpy(dtype=float)
    positive = evaluations[evaluations > 0]
    grid = evaluation_grid(
        float(positive.min()) if len(positive) else 1.0,
        float(evaluations.max()),
        budgets,
    )
    curves: list[Curve] = []
    fixed: list[FixedBudget] = []
    beyond: list[str] = []
    plotted_values = []
    for algorithm in algorithms:
        group = groups.get(algorithm)
        if group is None:
            continue
        end = float(group["evaluations"].max())
        points = grid[grid <= end]
        at = np.asarray(budgets)
        # One search for the curve's points and the fixed budgets (each value is a lookup of
        # its own point); the two parts copied apart so that their statistics reduce the very
        # arrays they did when searched one by one.
        both = _run_matrix(group, np.concatenate([points, at]))
        matrix = np.ascontiguousarray(both[:, : len(points)])
        median, q1, q3, mean = _statistics(matrix)
        keep = ~np.isnan(median)
        n_runs = matrix.shape[0]
        if plotted:
            curves.append(
                Curve(
                    algorithm,
                    name,
                    dimension,
                    n_runs,
                    points[keep],
                    median[keep],
                    q1[keep],
                    q3[keep],
                    mean[keep],
                )
            )
            plotted_values += [median[keep], q1[keep], q3[keep]]
            if options.show_mean:
                plotted_values.append(mean[keep])
        b_median, b_q1, b_q3, b_mean = _statistics(np.ascontiguousarray(both[:, len(points) :]))
        for j, budget in enumerate(budgets):
            if budget > largest:
                beyond.append(f"{algorithm} on {problem_label(name, dimension)}")
            fixed.append(
                FixedBudget(
                    algorithm,
                    name,
                    dimension,
                    float(budget),
                    n_runs,
                    float(b_median[j]),
                    float(b_q1[j]),
                    float(b_q3[j]),
                    float(b_mean[j]),
                )
            )
    scale: Scale | None = None
    floor: float | None = None
    if plotted:
        values = np.concatenate(plotted_values) if plotted_values else np.array([])
        scale, floor = axis_scale(values)
        if options.y_scale == "linear":
            scale, floor = "linear", None
        elif options.y_scale == "log":
            scale, floor = "log", log_floor(values)
    return _ProblemCurves(curves, fixed, beyond, scale, floor)


def _curves_of_problem(item: tuple[Any, ...]) -> _ProblemCurves:
    """:func:`_problem_curves` of one work item (its arguments as a tuple)."""
    return _problem_curves(*item)


def compute(data: AnalysisData, options: ConvergenceOptions) -> ConvergenceResult:
    """Median/IQR/mean curves per problem instance and algorithm, and fixed-budget values."""
    _check_input(data, options)
    dimensions = sorted({d for _, d in data.problems})
    largest = data.last_evaluations()
    budgets = _budgets(options, largest, dimensions)
    selected = set(options.problems or [p for p, _ in data.problems])
    plotted = tuple((p, d) for p, d in data.problems if p in selected)
    items = [
        (item, key, data.algorithms, budgets[key[1]], largest[key[1]], key in plotted, options)
        for item, key in zip(data.problem_items(), data.problems, strict=True)
    ]
    curves: list[Curve] = []
    fixed: list[FixedBudget] = []
    scales: dict[tuple[str, int], Scale] = {}
    floors: dict[tuple[str, int], float] = {}
    beyond: list[str] = []
    for key, part in zip(data.problems, map_items(_curves_of_problem, items), strict=True):
        curves += part.curves
        fixed += part.fixed
        beyond += part.beyond
        if part.scale is not None:
            scales[key] = part.scale
            if part.floor is not None and part.scale == "log":
                floors[key] = part.floor
    fixed.sort(key=lambda f: (dimensions.index(f.dimension), f.budget))  # stable: keeps order
    caveats = []
    if beyond:
        caveats.append(
            Caveat(
                "budget_beyond_records",
                f"{counted(len(beyond), 'fixed budget', 'lie')} beyond every record of their dimension; the "
                "runs' last values are used.",
                ", ".join(beyond[:5]) + (f" and {len(beyond) - 5} more" if len(beyond) > 5 else ""),
            )
        )
    return ConvergenceResult(
        algorithms=data.algorithms,
        problems=data.problems,
        plotted=plotted,
        curves=tuple(curves),
        fixed=tuple(fixed),
        budgets=budgets,
        scales=scales,
        floors=floors,
        band=options.band,
        show_mean=options.show_mean,
        caveats=tuple(caveats),
    )
