r"""The per-problem comparison table: statistics, rank-sum markers, W/T/L and A12.

The table nearly every CEC and GECCO paper prints before anything else: for each problem
instance (problem, dimension) and each algorithm, summary statistics of the final values of
the runs (mean ± standard deviation by default; median and interquartile range, best and
worst on request), the best per row in bold, and a marker from a rank-sum test of the
algorithm's runs against a reference algorithm's runs, summed up as wins / ties / losses.

Per problem :math:`f` and algorithm :math:`A \ne R` (the reference), with :math:`x` the
:math:`n` final values of :math:`A` and :math:`y` the :math:`m` of :math:`R` (smaller is
better):

- the two-sided Wilcoxon rank-sum / Mann–Whitney U test
  (:func:`scipy.stats.mannwhitneyu`, ``method="auto"``: exact for small samples without ties,
  otherwise the normal approximation with tie and continuity correction);
- the p-values of one algorithm over the :math:`M` problems are corrected for multiple
  testing: Holm's step-down adjustment (default), Bonferroni's :math:`\min(1, Mp)`, or none.
  Holm's adjusted p-values, with :math:`p_{(1)} \le \dots \le p_{(M)}`, are

  .. math:: \tilde p_{(j)} = \max_{k \le j} \min\bigl(1, (M - k + 1)\, p_{(k)}\bigr),

  and :math:`\tilde p \le \alpha` is exactly Holm's (1979) step-down rejection rule. SciPy
  offers only the Benjamini–Hochberg/Yekutieli adjustments
  (:func:`scipy.stats.false_discovery_control`), so these few lines are ours;
- the Vargha–Delaney effect size

  .. math:: A_{12} = P(x < y) + \tfrac12 P(x = y) = 1 - U_x / (n m),

  with :math:`U_x = \#\{x_i > y_j\} + \frac12 \#\{x_i = y_j\}` the U statistic SciPy returns
  for :math:`x`: the probability that a run of :math:`A` is better than a run of :math:`R`,
  ties counting half. Magnitude words (Vargha & Delaney 2000): negligible below
  :math:`|A_{12} - 0.5| = 0.06` (i.e. 0.44 < A12 < 0.56), small below 0.14 (0.64), medium
  below 0.21 (0.71), large from there on;
- the marker, from the row algorithm's side: ``+`` — :math:`\tilde p \le \alpha` and
  :math:`A_{12} > 0.5` (significantly better than the reference), ``−`` — significant and
  :math:`A_{12} < 0.5` (significantly worse), ``≈`` — no significant difference. W/T/L count
  ``+``, ``≈`` and ``−`` per algorithm.

Decisions (docs/methods.md, "Per-problem comparison tables")
-----------------------------------------------------------
- The standard deviation is the sample one (``ddof = 1``); quartiles are
  :func:`numpy.quantile`'s default (linear, Hyndman–Fan type 7); IQR = Q3 − Q1.
- Best per row: the smallest value of the first shown statistic (mean, median, best or worst);
  equal values are all bold.
- ``reference: best``: the algorithm with the smallest average rank (average ranks for ties)
  of the first shown statistic over the problems; ties go to the first in study order.
- A problem where the algorithm or the reference has no runs gets no test (and does not count
  in :math:`M`).
- Histories are read at ``budget`` (each run's last record at or before it) or, by default,
  at each run's last record; a run with no record up to the budget is left out (caveat), and
  a budget before the first record of every run is an error at ``budget``.
- Published statistics (``summary`` input) give the table without tests, markers, W/T/L or
  A12: a rank-sum test needs the runs. The report says so.
- ``value_floor`` raises smaller values to it first (e.g. CEC's 10⁻⁸ precision), so that runs
  which all reached the optimum tie instead of differing in rounding noise. A published
  table is floored too, as far as its statistics allow (:mod:`reportgen.analyses.floors`,
  shared with the probabilistic profiles' ``cost_floor``); it was once left as printed while
  the report said it was floored.

References
----------
Mann, H. B., Whitney, D. R. (1947) On a test of whether one of two random variables is
stochastically larger than the other. Ann. Math. Statist. 18:50–60. Holm, S. (1979) A simple
sequentially rejective multiple test procedure. Scand. J. Statist. 6:65–70. Vargha, A.,
Delaney, H. D. (2000) A critique and improvement of the CL common language effect size
statistics of McGraw and Wong. J. Educ. Behav. Stat. 25:101–132.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy.stats import mannwhitneyu, rankdata

from reportgen.analyses.floors import floor_summary
from reportgen.analyses.mann_whitney import constant_pairs_not_different
from reportgen.analyses.spread import is_extreme, sample_std
from reportgen.data.frames import (
    KEYS,
    RUN_KEYS,
    AnalysisData,
    in_run_order,
    problem_label,
    with_columns,
)
from reportgen.errors import InputError, Problem, did_you_mean, quote_choices
from reportgen.execution import map_items
from reportgen.present.caveats import Caveat, Naming
from reportgen.present.format import counted, power_of_ten
from reportgen.present.jsonable import frame_records, json_value
from reportgen.spec.analyses.problem_table import ProblemTableOptions

BETTER, SIMILAR, WORSE = "+", "≈", "−"
"""Markers from the row algorithm's side."""

MAGNITUDE_THRESHOLDS: tuple[tuple[float, str], ...] = (
    (0.06, "negligible"),
    (0.14, "small"),
    (0.21, "medium"),
)
"""|A12 − 0.5| below each bound → the word (Vargha & Delaney 2000: 0.56, 0.64, 0.71)."""

CENTRAL: Mapping[str, str] = {
    "mean_sd": "mean",
    "median_iqr": "median",
    "best": "best",
    "worst": "worst",
}
"""The value of each shown statistic that is compared across a row (bold, reference)."""

SUMMARY_COLUMNS: Mapping[str, str] = {
    "n": "n",
    "mean": "mean",
    "std": "std",
    "median": "median",
    "best": "minimum",
    "worst": "maximum",
}
"""Which column of the ``summary`` layout holds each statistic."""

STATISTICS: tuple[str, ...] = ("n", "mean", "std", "median", "q1", "q3", "iqr", "best", "worst")

OVERALL = "all"
"""The name of the group of every problem in W/T/L counts."""


# --------------------------------------------------------------------------------------------
# Result objects
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One algorithm on one problem instance.

    ``p_value``, ``p_adjusted``, ``a12`` are NaN and ``marker``/``magnitude`` empty for the
    reference itself and whenever no test was possible (no runs).
    """

    algorithm: str
    problem: str
    dimension: int
    n: float
    mean: float
    std: float
    median: float
    q1: float
    q3: float
    best: float
    worst: float
    p_value: float = math.nan
    p_adjusted: float = math.nan
    marker: str = ""
    a12: float = math.nan
    magnitude: str = ""

    @property
    def iqr(self) -> float:
        return self.q3 - self.q1

    def statistic(self, name: str) -> float:
        """A statistic by name (``mean``, ``median``, ``best``, ``worst``, ``iqr``, …)."""
        return float(getattr(self, name))


@dataclass(frozen=True)
class WinTieLoss:
    """How often an algorithm is significantly better / not different / worse than the reference.

    ``group`` is :data:`OVERALL` for every problem, ``"D=10"`` for one dimension, or the name
    of a function group.
    """

    algorithm: str
    group: str
    wins: int
    ties: int
    losses: int


@dataclass(frozen=True)
class ProblemTableResult:
    """Everything the problem-table analysis computed.

    Attributes
    ----------
    algorithms : tuple of str
        Study order.
    problems : tuple of (str, int)
        Problem instances, natural order.
    reference : str
        The algorithm every other one is tested against.
    reference_rule : {"given", "best"}
        Named in the spec, or chosen as the best average rank.
    statistics : tuple of str
        The shown statistics (``mean_sd``, ``median_iqr``, ``best``, ``worst``), in order.
    tested : bool
        False for published statistics: no tests, markers, W/T/L or A12.
    correction : {"holm", "bonferroni", "none"}
    alpha : float
    cells : tuple of Cell
        Problem by problem (natural order), algorithms in study order within a problem.
    win_tie_loss_counts : tuple of WinTieLoss
        Per algorithm but the reference, per group: overall first, then per dimension when
        there are several, then per function group (``problems.groups`` of the spec).
    budget : dict
        Dimension → the evaluation count the histories were read at (empty: final values).
    caveats : tuple of Caveat
    """

    algorithms: tuple[str, ...]
    problems: tuple[tuple[str, int], ...]
    reference: str
    reference_rule: Literal["given", "best"]
    statistics: tuple[str, ...]
    tested: bool
    correction: str
    alpha: float
    cells: tuple[Cell, ...]
    win_tie_loss_counts: tuple[WinTieLoss, ...]
    budget: Mapping[int, float]
    caveats: tuple[Caveat, ...] = ()

    # Derived views -------------------------------------------------------------------------

    @functools.cached_property
    def _rows(self) -> dict[tuple[str, int], tuple[Cell, ...]]:
        rows: dict[tuple[str, int], list[Cell]] = {}
        for c in self.cells:
            rows.setdefault((c.problem, c.dimension), []).append(c)
        return {key: tuple(cells) for key, cells in rows.items()}

    def cell(self, algorithm: str, problem: str, dimension: int) -> Cell:
        """The cell of ``algorithm`` on (problem, dimension)."""
        for c in self._rows.get((problem, dimension), ()):
            if c.algorithm == algorithm:
                return c
        raise KeyError((algorithm, problem, dimension))

    def row(self, problem: str, dimension: int) -> tuple[Cell, ...]:
        """The cells of one problem instance, algorithms in study order."""
        return self._rows.get((problem, dimension), ())

    def best_in_row(self, problem: str, dimension: int, statistic: str) -> tuple[str, ...]:
        """The algorithms with the smallest ``statistic`` (a shown one) on the problem; ties all."""
        key = CENTRAL[statistic]
        values = {c.algorithm: c.statistic(key) for c in self.row(problem, dimension)}
        finite = [v for v in values.values() if not math.isnan(v)]
        if not finite:
            return ()
        low = min(finite)
        return tuple(a for a, v in values.items() if v == low)

    def comparisons(self, algorithm: str) -> tuple[Cell, ...]:
        """The tested cells of ``algorithm`` against the reference (empty for the reference)."""
        return tuple(c for c in self.cells if c.algorithm == algorithm and c.marker)

    def win_tie_loss(self, algorithm: str, group: str = OVERALL) -> WinTieLoss:
        """W/T/L of ``algorithm`` against the reference in ``group`` (default: all problems)."""
        for w in self.win_tie_loss_counts:
            if (w.algorithm, w.group) == (algorithm, group):
                return w
        raise KeyError((algorithm, group))

    def against_reference(self, group: str = OVERALL) -> dict[str, WinTieLoss]:
        """W/T/L of every algorithm but the reference in ``group``, in study order (for the
        executive summary: "A is significantly better than R on w of n problems")."""
        return {w.algorithm: w for w in self.win_tie_loss_counts if w.group == group}

    def median_a12(self, algorithm: str) -> float:
        """The median A12 of ``algorithm`` against the reference over the tested problems
        (> 0.5: its runs tend to beat the reference's); NaN without tests."""
        values = [c.a12 for c in self.comparisons(algorithm) if not math.isnan(c.a12)]
        return float(np.median(values)) if values else math.nan

    @property
    def groups(self) -> tuple[str, ...]:
        """The groups W/T/L is counted in, overall first."""
        return tuple(dict.fromkeys(w.group for w in self.win_tie_loss_counts))

    # Presenters ----------------------------------------------------------------------------

    def frame(self) -> pd.DataFrame:
        """One row per (problem, dimension, algorithm): every statistic and test result."""
        rows = [
            {
                "algorithm": c.algorithm,
                "problem": c.problem,
                "dimension": c.dimension,
                "n": c.n,
                "mean": c.mean,
                "std": c.std,
                "median": c.median,
                "q1": c.q1,
                "q3": c.q3,
                "iqr": c.iqr,
                "best": c.best,
                "worst": c.worst,
                "reference": self.reference,
                "p_value": c.p_value,
                "p_adjusted": c.p_adjusted,
                "marker": c.marker,
                "a12": c.a12,
                "magnitude": c.magnitude,
            }
            for c in self.cells
        ]
        return pd.DataFrame(rows)

    def wtl_frame(self) -> pd.DataFrame:
        return pd.DataFrame(
            [
                {
                    "algorithm": w.algorithm,
                    "group": w.group,
                    "reference": self.reference,
                    "wins": w.wins,
                    "ties": w.ties,
                    "losses": w.losses,
                }
                for w in self.win_tie_loss_counts
            ],
            columns=["algorithm", "group", "reference", "wins", "ties", "losses"],
        )

    def tables(self) -> dict[str, pd.DataFrame]:
        tables = {"problem_table": self.frame()}
        if self.tested:
            tables["win_tie_loss"] = self.wtl_frame()
        return tables

    def to_json(self) -> dict[str, Any]:
        return {
            "reference": self.reference,
            "reference_rule": self.reference_rule,
            "statistics": list(self.statistics),
            "tested": self.tested,
            "correction": self.correction,
            "alpha": self.alpha,
            "budget": {str(d): json_value(b) for d, b in self.budget.items()},
            "cells": frame_records(self.frame()),
            "win_tie_loss": frame_records(self.wtl_frame()) if self.tested else [],
        }


# --------------------------------------------------------------------------------------------
# The statistics
# --------------------------------------------------------------------------------------------


def adjust_p_values(p_values: Sequence[float], method: str) -> np.ndarray:
    r"""Multiple-testing adjusted p-values of one family; NaN entries are not in the family.

    ``holm``: :math:`\tilde p_{(j)} = \max_{k \le j} \min(1, (M - k + 1) p_{(k)})` (Holm 1979,
    as adjusted p-values); ``bonferroni``: :math:`\min(1, M p)`; ``none``: :math:`p`.

    Examples
    --------
    >>> adjust_p_values([0.01, 0.04, 0.03], "holm").tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    present = np.flatnonzero(~np.isnan(p))
    m = len(present)
    if m == 0 or method == "none":
        return p.copy()
    if method == "bonferroni":
        out[present] = np.minimum(1.0, m * p[present])
        return out
    if method != "holm":
        raise ValueError(f"unknown correction {method!r}")
    order = present[np.argsort(p[present], kind="stable")]
    factors = m - np.arange(m)  # M, M − 1, …, 1 for p_(1) ≤ … ≤ p_(M)
    out[order] = np.maximum.accumulate(np.minimum(1.0, factors * p[order]))
    return out


def a12_magnitude(a12: float) -> str:
    """Vargha–Delaney's word for an A12 value: negligible, small, medium or large."""
    if math.isnan(a12):
        return ""
    distance = round(abs(a12 - 0.5), 12)  # 0.56 − 0.5 is 0.0600000…05 in binary
    for bound, word in MAGNITUDE_THRESHOLDS:
        if distance < bound:
            return word
    return "large"


def rank_sum(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Two-sided Mann–Whitney U test of ``x`` against ``y`` and A12 (smaller is better).

    Returns
    -------
    p_value, a12 : float
        SciPy's p-value (``method="auto"``) and :math:`A_{12} = 1 - U_x/(nm)`.
    """
    result = mannwhitneyu(x, y, alternative="two-sided", method="auto")
    p_value = float(constant_pairs_not_different(result.pvalue, x, y))
    return p_value, 1.0 - float(result.statistic) / (len(x) * len(y))


def rank_sums(samples: Sequence[np.ndarray], y: np.ndarray) -> list[tuple[float, float]]:
    """:func:`rank_sum` of each of ``samples`` against ``y``, the same numbers in fewer calls.

    Where both samples have more than 8 values SciPy's ``"auto"`` always takes the asymptotic
    test (ties or not), so those samples are tested together, one stacked call per sample
    size (the per-pair call's overhead, not the test, was the cost); the others one by one.
    """
    out: list[tuple[float, float]] = [(math.nan, math.nan)] * len(samples)
    batches: dict[int, list[int]] = {}
    for k, x in enumerate(samples):
        if len(x) > 8 and len(y) > 8:
            batches.setdefault(len(x), []).append(k)
        else:
            out[k] = rank_sum(x, y)
    for size, members in batches.items():
        stacked = np.stack([samples[k] for k in members])
        result = mannwhitneyu(
            stacked,
            np.broadcast_to(y, (len(members), len(y))),
            alternative="two-sided",
            method="asymptotic",
            axis=1,
        )
        p_values = constant_pairs_not_different(
            result.pvalue, stacked, np.broadcast_to(y, (len(members), len(y)))
        )
        for k, statistic, p_value in zip(members, result.statistic, p_values, strict=True):
            out[k] = (float(p_value), 1.0 - float(statistic) / (size * len(y)))
    return out


def marker(p_adjusted: float, a12: float, alpha: float) -> str:
    """``+`` / ``−`` when significant (by the side A12 favours), ``≈`` otherwise."""
    if math.isnan(p_adjusted):
        return ""
    if p_adjusted <= alpha and a12 != 0.5:
        return BETTER if a12 > 0.5 else WORSE
    return SIMILAR


def smallest_p_value(n: int, m: int) -> float:
    """The smallest two-sided exact Mann–Whitney p-value with samples of sizes n and m."""
    return min(1.0, 2.0 / math.comb(n + m, n))


# --------------------------------------------------------------------------------------------
# Input
# --------------------------------------------------------------------------------------------


def _check_input(data: AnalysisData, options: ProblemTableOptions) -> None:
    if data.frame.empty and data.records is None:  # partitioned: the records are in files
        raise InputError(Problem("data", "the data has no rows for the study's selection"))
    needed = {
        "trials": [*RUN_KEYS, "value"],
        "histories": [*RUN_KEYS, "evaluations", "value"],
        "summary": list(KEYS),
    }[data.format]
    missing = [c for c in needed if c not in data.frame.columns]
    if missing:
        raise InputError(
            Problem("data", f"the {data.format} table lacks the column(s) {quote_choices(missing)}")
        )
    if data.format == "summary":
        for statistic in options.statistics:
            wanted = ["mean", "std"] if statistic == "mean_sd" else [CENTRAL[statistic]]
            absent = [SUMMARY_COLUMNS[w] for w in wanted if SUMMARY_COLUMNS[w] not in data.frame]
            if absent:
                present = [c for c in SUMMARY_COLUMNS.values() if c in data.frame.columns]
                raise InputError(
                    Problem(
                        "statistics",
                        f"'{statistic}' needs the summary column(s) {quote_choices(absent)}; "
                        f"the data has {quote_choices(present) or 'none of the statistics'}",
                    )
                )
    if options.reference != "best" and options.reference not in data.algorithms:
        raise InputError(
            Problem(
                "reference",
                f"'{options.reference}' is not an algorithm of this analysis; choose 'best' or "
                f"one of {quote_choices(data.algorithms)}"
                f"{did_you_mean(options.reference, data.algorithms)}",
            )
        )
    if isinstance(options.budget, dict):
        dims = sorted({d for _, d in data.problems})
        absent_dims = [d for d in dims if d not in options.budget]
        if absent_dims:
            raise InputError(
                Problem(
                    "budget",
                    f"no budget for dimension {absent_dims[0]}; budgets are given for "
                    f"{sorted(options.budget)}",
                )
            )


def _runs_at_budget(
    data: AnalysisData, options: ProblemTableOptions, caveats: list[Caveat]
) -> tuple[pd.DataFrame, dict[int, float]]:
    """Histories → each run's value at the budget (or its last record), problem by problem:
    each problem's work item returns one value per run (:meth:`AnalysisData.map_problems`)."""
    budget: dict[int, float] = {}
    if options.budget is not None:
        budget = {
            d: float(options.budget[d] if isinstance(options.budget, dict) else options.budget)
            for d in sorted({d for _, d in data.problems})
        }
    elif data.records is not None:
        # A checked history's value never increases: its last record (kept by the check of
        # a partitioned source) is its smallest, and no file is read again.
        known = data.records.final_values(data.problems)
        if known is not None:
            return known, budget
    parts = data.map_problems(functools.partial(_problem_runs_at_budget, budget=budget))
    lost = sum(part_lost for _, part_lost in parts)
    if lost and not any(len(values) for values, _ in parts):
        # Said at the budget, not later as "'best' needs a problem on which every algorithm
        # has a value", which sent the user to the reference.
        raise InputError(
            Problem(
                "budget",
                f"{_budgets_said(budget)} before the first record of every run: no run has a "
                "value at it",
            )
        )
    if lost:
        caveats.append(
            Caveat(
                "runs_without_record",
                f"{counted(lost, 'run', 'have')} no record at or before the budget and are left out.",
            )
        )
    return in_run_order([values for values, _ in parts]), budget


def _budgets_said(budget: Mapping[int, float]) -> str:
    """``the budget 100 ends`` for one budget, ``the budgets (D=10: 100, D=20: 200) end``."""
    values = set(budget.values())
    if len(values) == 1:
        return f"the budget {values.pop():g} ends"
    return "the budgets (" + ", ".join(f"D={d}: {b:g}" for d, b in budget.items()) + ") end"


def _problem_runs_at_budget(
    frame: pd.DataFrame, *, budget: Mapping[int, float]
) -> tuple[pd.DataFrame, int]:
    """One problem's runs: each run's value at the budget (no budget: its last record), and
    how many runs have no record at or before the budget."""
    keys = list(RUN_KEYS)
    history = frame[[*keys, "evaluations", "value"]]
    lost = 0
    if budget:
        limit = history["dimension"].map(budget).to_numpy(dtype=float)
        kept = history[history["evaluations"].to_numpy(dtype=float) <= limit]
        lost = len(history[keys].drop_duplicates()) - len(kept[keys].drop_duplicates())
        history = kept
    # Within a run records are sorted by evaluations; the value never increases, so the run's
    # value at the budget is its smallest value up to it.
    values = history.groupby(keys, sort=False, observed=True)["value"].min().reset_index()
    return values, lost


# --------------------------------------------------------------------------------------------
# compute
# --------------------------------------------------------------------------------------------


def _statistics(runs: pd.DataFrame) -> pd.DataFrame:
    grouped = runs.groupby(list(KEYS), sort=False, observed=True)["value"]
    frame = grouped.agg(
        n="count",
        mean="mean",
        std="std",
        median="median",
        q1=lambda v: float(np.quantile(v.to_numpy(dtype=float), 0.25)),
        q3=lambda v: float(np.quantile(v.to_numpy(dtype=float), 0.75)),
        best="min",
        worst="max",
    )
    frame["n"] = frame["n"].astype(float)
    # pandas squares the values: beyond 10¹⁵⁴ the SD would print as ∞ (CEC 2017 f2 reaches
    # 10¹⁷⁵). Such groups only are recomputed, scaled (reportgen.analyses.spread).
    if is_extreme(runs["value"].to_numpy(dtype=float)):
        for key, v in grouped:
            values = v.to_numpy(dtype=float)
            if is_extreme(values):
                frame.loc[key, "std"] = sample_std(values)
    return frame


def _floored_summary(
    data: AnalysisData, options: ProblemTableOptions, caveats: list[Caveat]
) -> pd.DataFrame:
    """The published table after ``value_floor`` (:mod:`reportgen.analyses.floors`), with a
    caveat naming the entries it raised and those where it is only approximate."""
    if options.value_floor is None:
        return data.frame
    floored = floor_summary(data.frame, options.value_floor)
    if floored.raised.any():
        rows = data.frame.loc[floored.approximate]
        approximate = [
            f"({a}, {problem_label(p, int(d))})"
            for a, p, d in zip(rows["algorithm"], rows["problem"], rows["dimension"], strict=True)
        ]
        caveats.append(
            Caveat(
                "values_floored",
                f"Published statistics of {counted(int(floored.raised.sum()), 'entry')} "
                f"below {power_of_ten(options.value_floor)} were raised to it (spec value_floor); "
                "they count as equal to each other."
                + (
                    f" For {counted(len(approximate), 'entry')} only some runs lie below "
                    "it: their mean is raised, their standard deviation is the published one."
                    if approximate
                    else ""
                ),
                ", ".join(approximate),
            )
        )
    return floored.frame


def _summary_statistics(table: pd.DataFrame) -> pd.DataFrame:
    frame = table.set_index(list(KEYS))
    out = pd.DataFrame(index=frame.index)
    for name in ("n", "mean", "std", "median", "q1", "q3", "best", "worst"):
        column = SUMMARY_COLUMNS.get(name)
        out[name] = frame[column].astype(float) if column and column in frame else np.nan
    return out


def _choose_reference(
    statistics: pd.DataFrame, data: AnalysisData, options: ProblemTableOptions
) -> tuple[str, list[Caveat]]:
    """``best``: smallest average rank of the first shown statistic over the problems."""
    if options.reference != "best":
        return options.reference, []
    key = CENTRAL[options.statistics[0]]
    table = statistics[key].unstack("algorithm").reindex(columns=list(data.algorithms))
    table = table.dropna(how="any")
    if table.empty:
        raise InputError(
            Problem(
                "reference",
                "'best' needs a problem on which every algorithm has a value; name the "
                "reference instead",
            )
        )
    ranks = rankdata(table.to_numpy(dtype=float), axis=1, method="average").mean(axis=0)
    best = int(np.argmin(ranks))  # first in study order on ties
    caveats = []
    tied = [a for a, r in zip(data.algorithms, ranks, strict=True) if r == ranks[best]]
    if len(tied) > 1:
        named = Naming()
        caveats.append(
            named.caveat(
                "reference_tie",
                f"{' and '.join(map(named, tied))} share the best average rank; the reference is "
                f"{named(data.algorithms[best])}, the first of them in study order.",
            )
        )
    return data.algorithms[best], caveats


def _tests_of_problem(
    item: tuple[str, int, np.ndarray | None, Mapping[str, np.ndarray]],
) -> dict[tuple[str, str, int], tuple[float, float]]:
    """The rank-sum test (p, A12) of every algorithm against the reference on one problem."""
    problem, dimension, reference_values, others = item
    if reference_values is None:
        return {}
    tests = rank_sums(list(others.values()), reference_values)
    return {
        (algorithm, problem, dimension): test for algorithm, test in zip(others, tests, strict=True)
    }


def compute(data: AnalysisData, options: ProblemTableOptions) -> ProblemTableResult:
    """Statistics, tests against the reference, corrected markers, W/T/L and A12."""
    _check_input(data, options)
    caveats: list[Caveat] = []
    budget: dict[int, float] = {}
    runs: pd.DataFrame | None = None
    if data.format == "trials":
        runs = data.per_run(functools.partial(with_columns, columns=(*RUN_KEYS, "value")))
    elif data.format == "histories":
        runs, budget = _runs_at_budget(data, options, caveats)
    if runs is not None and options.value_floor is not None:
        below = runs["value"].to_numpy(dtype=float) < options.value_floor
        if below.any():
            runs = runs.assign(value=np.maximum(runs["value"].to_numpy(float), options.value_floor))
            caveats.append(
                Caveat(
                    "values_floored",
                    f"{counted(int(below.sum()), 'value')} below {power_of_ten(options.value_floor)} were raised to "
                    "it (spec value_floor); they count as equal to each other.",
                )
            )
    if runs is None:
        statistics = _summary_statistics(_floored_summary(data, options, caveats))
        caveats.append(
            Caveat(
                "no_runs",
                "The data holds published statistics only: the table shows them without "
                "rank-sum tests, markers, W/T/L or A12, which need the runs.",
            )
        )
    else:
        statistics = _statistics(runs)
    reference, reference_caveats = _choose_reference(statistics, data, options)
    caveats.extend(reference_caveats)

    # Per problem: the test of every algorithm against the reference.
    samples: dict[tuple[str, str, int], np.ndarray] = {}
    if runs is not None:
        for key, values in runs.groupby(list(KEYS), sort=False, observed=True)["value"]:
            samples[(str(key[0]), str(key[1]), int(key[2]))] = values.to_numpy(dtype=float)
    # Each problem is one independent work item of the current executor (reportgen.execution).
    items = [
        (
            problem,
            dimension,
            samples.get((reference, problem, dimension)),
            {
                a: samples[(a, problem, dimension)]
                for a in data.algorithms
                if a != reference and (a, problem, dimension) in samples
            },
        )
        for problem, dimension in data.problems
    ]
    raw: dict[tuple[str, str, int], tuple[float, float]] = {}
    if runs is not None:
        for tests in map_items(_tests_of_problem, items):
            raw.update(tests)

    # Correction over the problems, one family per algorithm.
    adjusted: dict[tuple[str, str, int], float] = {}
    for algorithm in data.algorithms:
        keys = [(algorithm, p, d) for p, d in data.problems if (algorithm, p, d) in raw]
        if keys:
            family = adjust_p_values([raw[k][0] for k in keys], options.correction)
            adjusted.update(zip(keys, (float(v) for v in family), strict=True))

    cells = []
    index = set(statistics.index)
    for problem, dimension in data.problems:
        for algorithm in data.algorithms:
            key = (algorithm, problem, dimension)
            if key not in index:
                continue
            s = statistics.loc[key]
            p, a12 = raw.get(key, (math.nan, math.nan))
            p_adj = adjusted.get(key, math.nan)
            cells.append(
                Cell(
                    algorithm,
                    problem,
                    dimension,
                    n=float(s["n"]),
                    mean=float(s["mean"]),
                    std=float(s["std"]),
                    median=float(s["median"]),
                    q1=float(s["q1"]),
                    q3=float(s["q3"]),
                    best=float(s["best"]),
                    worst=float(s["worst"]),
                    p_value=p,
                    p_adjusted=p_adj,
                    marker=marker(p_adj, a12, options.alpha),
                    a12=a12,
                    magnitude=a12_magnitude(a12),
                )
            )
    tested = runs is not None
    wtl = _win_tie_loss(cells, data, reference) if tested else ()
    if tested:
        caveats.extend(_power_caveats(samples, data, reference, options))
    return ProblemTableResult(
        algorithms=data.algorithms,
        problems=data.problems,
        reference=reference,
        reference_rule="best" if options.reference == "best" else "given",
        statistics=tuple(options.statistics),
        tested=tested,
        correction=options.correction,
        alpha=options.alpha,
        cells=tuple(cells),
        win_tie_loss_counts=wtl,
        budget=budget,
        caveats=tuple(caveats),
    )


def _win_tie_loss(
    cells: Sequence[Cell], data: AnalysisData, reference: str
) -> tuple[WinTieLoss, ...]:
    """Counts of +, ≈, − per algorithm: overall, then per dimension when there are several,
    then per function group of the spec (``problems.groups``)."""
    groups = [(OVERALL, set(data.problems))]
    groups += [(name, set(members)) for name, members in data.breakdown()]
    out = []
    for name, members in groups:
        for algorithm in data.algorithms:
            if algorithm == reference:
                continue
            markers = [
                c.marker
                for c in cells
                if c.algorithm == algorithm and (c.problem, c.dimension) in members
            ]
            out.append(
                WinTieLoss(
                    algorithm,
                    name,
                    markers.count(BETTER),
                    markers.count(SIMILAR),
                    markers.count(WORSE),
                )
            )
    return tuple(out)


def _power_caveats(
    samples: Mapping[tuple[str, str, int], np.ndarray],
    data: AnalysisData,
    reference: str,
    options: ProblemTableOptions,
) -> list[Caveat]:
    """Problems on which too few runs make a significant difference impossible."""
    hopeless = []
    for algorithm in data.algorithms:
        for problem, dimension in data.problems:
            x = samples.get((algorithm, problem, dimension))
            y = samples.get((reference, problem, dimension))
            if algorithm == reference or x is None or y is None:
                continue
            if smallest_p_value(len(x), len(y)) > options.alpha:
                hopeless.append((algorithm, problem_label(problem, dimension)))
    if not hopeless:
        return []
    named = Naming()
    return [
        named.caveat(
            "too_few_runs",
            f"With so few runs no rank-sum test can reach α = {options.alpha:g} in "
            f"{counted(len(hopeless), 'comparison')}: they are ≈ whatever the data.",
            ", ".join(f"{named(a)} on {where}" for a, where in hopeless[:5])
            + (f" and {len(hopeless) - 5} more" if len(hopeless) > 5 else ""),
        )
    ]
