"""Readers of the formats benchmarking platforms write: ``coco``, ``cec`` and ``ioh``.

Each reader turns the platform's own files into one canonical table of
:mod:`reportgen.data.frames` — ``histories`` (best-so-far records) or ``trials`` (one row per
run), as the source's ``layout`` says — and never unpacks anything to disk. Readers collect
every problem they find (file, line, column, the bad text) instead of raising at the first,
and report irregularities that do not stop the study (non-monotone CEC rows) as caveats.

Shared conventions
------------------
- Values are errors ``f − f_opt`` (smaller is better). A study with ``minimize: false`` cannot
  use these formats.
- A history holds a run's strict improvements and, as its last record, the run's end: the
  evaluations it used with its final best-so-far value (a non-improving record kept on purpose,
  so that analyses such as ``runtime_ecdf`` know how long an unsuccessful run ran). Within a
  run evaluations strictly increase and values never increase, as the layout requires.
- Trials: ``value`` = the final best-so-far error, ``evaluations_used`` = the run's end,
  ``evaluations_to_target`` = the first evaluation count with error ≤ ``target`` (∞ if never).
- Runs are numbered 1, 2, … per (algorithm, problem, dimension) in the order the platform
  lists them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from reportgen.data.checks import MAX_ROWS_PER_PROBLEM
from reportgen.errors import InputError, Problem
from reportgen.present.caveats import Caveat, Naming
from reportgen.present.format import counted
from reportgen.spec.sources import CecOptions, CocoOptions, DataSource, IohOptions


@dataclass(frozen=True)
class InputFile:
    """One file (or archive, or folder) a reader consumed, for provenance."""

    path: Path
    display: str
    rows: int


@dataclass
class ReadResult:
    """What a platform reader returns: the canonical frame, its inputs and its caveats."""

    frame: pd.DataFrame
    files: list[InputFile] = field(default_factory=list)
    caveats: list[Caveat] = field(default_factory=list)


@dataclass
class RunRecords:
    """The records of one run before they become rows: evaluations and error values."""

    algorithm: str
    problem: str
    dimension: int
    evaluations: np.ndarray
    values: np.ndarray
    used: float
    """Evaluations the run used (≥ its last record)."""
    reported_hit: float | None = None
    """Evaluations to target as the platform reports them (CEC's last row), used for trials
    when the final value is ≤ target instead of the first record ≤ target."""
    origin: str = ""
    """Where the records come from (file and run), for caveats about them."""


def unordered_runs(runs: Sequence[RunRecords]) -> list[Problem]:
    """A problem for every run whose evaluation counts go down somewhere (at most
    :data:`~reportgen.data.checks.MAX_ROWS_PER_PROBLEM`, then a count of the rest).

    A platform logs a run's records as the run makes them, so the counts never go down;
    where they do, the file is broken (two runs without a header line between them, a hand
    edit). Such a run cannot be read: its best-so-far value in file order and in evaluation
    order disagree, and :func:`runs_to_frame` (which needs records sorted by evaluations)
    would make a history that gets worse. Equal neighbouring counts are fine (the last
    counts).
    """
    lengths = np.fromiter((len(run.evaluations) for run in runs), dtype=np.int64, count=len(runs))
    evaluations = np.concatenate(
        [np.asarray(run.evaluations, float) for run in runs] or [np.empty(0)]
    )
    owner = np.repeat(np.arange(len(runs)), lengths)
    drops = np.flatnonzero((evaluations[1:] < evaluations[:-1]) & (owner[1:] == owner[:-1]))
    first_drop: dict[int, int] = {}
    for at in drops.tolist():
        first_drop.setdefault(int(owner[at]), at)
    problems = [
        Problem(
            runs[i].origin or f"{runs[i].algorithm} on {runs[i].problem} (D={runs[i].dimension})",
            f"the evaluation counts go down within the run ({evaluations[at + 1]:g} after "
            f"{evaluations[at]:g}); records must be in the order the run made them (two runs "
            "without a header line between them?)",
        )
        for i, at in list(first_drop.items())[:MAX_ROWS_PER_PROBLEM]
    ]
    if len(first_drop) > MAX_ROWS_PER_PROBLEM:
        problems.append(
            Problem("", f"... and {len(first_drop) - MAX_ROWS_PER_PROBLEM} more such runs")
        )
    return problems


def worsening_caveats(runs: Sequence[RunRecords], platform: str) -> list[Caveat]:
    """A caveat naming the runs whose best-so-far column gets worse somewhere.

    COCO logs a best-so-far value, so it never increases within a run (IOHprofiler's
    ``raw_y`` is each logged point's own value and is not checked); where it does
    (a logging bug, a restart logged as a new best), the reader's running minimum silently
    repairs it. The repair is right — the best value reached so far cannot get worse — but
    the reader must be told which file and run it concerns.
    """
    named = Naming()  # a file and run as on disk; an algorithm by its label
    # One comparison of neighbouring records over all runs at once (10⁴ runs in an archive).
    lengths = np.fromiter((len(run.values) for run in runs), dtype=np.int64, count=len(runs))
    values = np.concatenate([np.asarray(run.values, float) for run in runs] or [np.empty(0)])
    owner = np.repeat(np.arange(len(runs)), lengths)
    rises = (values[1:] > values[:-1]) & (owner[1:] == owner[:-1])
    worse = [
        run.origin or f"{named(run.algorithm)} on {run.problem} (D={run.dimension})"
        for run in (runs[i] for i in np.unique(owner[1:][rises]).tolist())
    ]
    if not worse:
        return []
    more = f" and {len(worse) - 10} more" if len(worse) > 10 else ""
    return [
        named.caveat(
            "best_so_far_worsens",
            f"{counted(len(worse), platform + ' run', 'log')} a best-so-far value that gets worse; "
            "reportgen uses the running minimum (the best value reached so far).",
            "; ".join(worse[:10]) + more,
        )
    ]


def runs_to_frame(runs: Sequence[RunRecords], layout: str, target: float) -> pd.DataFrame:
    """Canonical histories or trials rows of parsed runs (see the module notes).

    Vectorised over all runs at once: the best-so-far value is a per-run running minimum
    (``groupby.cummin``); of several records at one evaluation count the last counts; a
    record is kept where the running minimum strictly drops, plus the run's end.

    Parameters
    ----------
    runs : sequence of RunRecords
        Every run, in platform order; records sorted by evaluations, at least one per run.
    layout : {"histories", "trials"}
    target : float
        Trials only: ``evaluations_to_target`` is the first record with value ≤ target.
    """
    counter: dict[tuple[str, str, int], int] = {}
    numbers = np.empty(len(runs), dtype=np.int64)
    for i, run in enumerate(runs):
        key = (run.algorithm, run.problem, run.dimension)
        counter[key] = counter.get(key, 0) + 1
        numbers[i] = counter[key]
    lengths = np.fromiter((len(r.evaluations) for r in runs), dtype=np.int64, count=len(runs))
    owner = np.repeat(np.arange(len(runs)), lengths)
    evaluations = np.concatenate([np.asarray(r.evaluations, dtype=float) for r in runs])
    values = np.concatenate([np.asarray(r.values, dtype=float) for r in runs])
    best = pd.Series(values).groupby(owner, observed=True).cummin().to_numpy()
    ends = np.cumsum(lengths) - 1
    used = np.maximum(
        np.fromiter((r.used for r in runs), dtype=float, count=len(runs)), evaluations[ends]
    )
    algorithms = np.array([r.algorithm for r in runs], dtype=object)
    problems = np.array([r.problem for r in runs], dtype=object)
    dimensions = np.array([r.dimension for r in runs], dtype=np.int64)
    if layout == "trials":
        reached = np.flatnonzero(best <= target)
        first_hit = pd.Series(evaluations[reached]).groupby(owner[reached], observed=True).min()
        hit = np.full(len(runs), np.inf)
        hit[first_hit.index.to_numpy()] = first_hit.to_numpy()
        final = best[ends]
        reported = np.array(
            [np.nan if r.reported_hit is None else r.reported_hit for r in runs], dtype=float
        )
        given = ~np.isnan(reported)
        hit[given] = np.where(final[given] <= target, reported[given], np.inf)
        return pd.DataFrame(
            {
                "algorithm": algorithms,
                "problem": problems,
                "dimension": dimensions,
                "run": numbers,
                "value": final,
                "evaluations_used": used,
                "evaluations_to_target": hit,
            }
        )
    # Of several records at one evaluation count, the last counts.
    same_count_next = np.r_[
        (owner[1:] == owner[:-1]) & (evaluations[1:] == evaluations[:-1]), False
    ]
    owner, evaluations, best = (
        owner[~same_count_next],
        evaluations[~same_count_next],
        best[~same_count_next],
    )
    final = best[np.r_[owner[1:] != owner[:-1], True]]
    # Strict improvements only.
    keep = np.r_[True, (owner[1:] != owner[:-1]) | (best[1:] < best[:-1])]
    owner, evaluations, best = owner[keep], evaluations[keep], best[keep]
    # The run's end, when it comes after the last improvement.
    extend = used > evaluations[np.r_[owner[1:] != owner[:-1], True]]
    owner = np.r_[owner, np.flatnonzero(extend)]
    evaluations = np.r_[evaluations, used[extend]]
    best = np.r_[best, final[extend]]
    order = np.lexsort((evaluations, owner))
    owner, evaluations, best = owner[order], evaluations[order], best[order]
    return pd.DataFrame(
        {
            "algorithm": algorithms[owner],
            "problem": problems[owner],
            "dimension": dimensions[owner],
            "run": numbers[owner],
            "evaluations": evaluations,
            "value": best,
        }
    )


def read_platform(
    name: str, source: DataSource, files: list[tuple[Path, str]], key: str
) -> ReadResult:
    """Dispatch a ``coco``, ``cec`` or ``ioh`` source to its reader.

    Raises
    ------
    InputError
        With every problem found in every file.
    """
    options = source.reader_options()
    if isinstance(options, CocoOptions):
        from reportgen.data.formats.coco import read_coco

        return read_coco(files, options, source.algorithm, key)
    if isinstance(options, CecOptions):
        from reportgen.data.formats.cec import read_cec

        return read_cec(files, options, source, key)
    if isinstance(options, IohOptions):
        from reportgen.data.formats.ioh import read_ioh

        return read_ioh(files, options, source.algorithm, key)
    raise InputError(Problem(key, f"no reader for format {source.format!r}"))  # pragma: no cover
