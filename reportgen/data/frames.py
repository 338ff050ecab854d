"""The canonical in-memory tables every analysis reads.

Loaders turn each data source, whatever its file format, into one of three tidy
:class:`pandas.DataFrame` layouts. Analyses only ever see these layouts; they never read
files and never see the user's column names.

Layouts
-------
Names: ``algorithm`` and ``problem`` hold text; tables loaded from files hold them as pandas
categoricals (sorted categories, only names that occur), which compare, group and sort like
the text at one or two bytes a row.

``trials`` — one row per run:
    ``algorithm`` (str), ``problem`` (str), ``dimension`` (int, 0 when the source gives
    none), ``run`` (int), ``value`` (float, finite: the final value, smaller is better) and,
    when the source has them, ``evaluations_used`` (float, finite, ≥ 0),
    ``evaluations_to_target`` (float ≥ 0, ``inf`` = the target was never reached) and
    ``time_seconds`` (float, finite, ≥ 0).
``histories`` — best-so-far records, one row per improvement:
    ``algorithm``, ``problem``, ``dimension``, ``run``, ``evaluations`` (float, finite,
    ≥ 0), ``value`` (float, finite). Sorted by algorithm, problem, dimension, run,
    evaluations; within a run ``evaluations`` strictly increase and ``value`` never increases.
    The value of a run at evaluation count ``k`` is that of its last record at or before ``k``.
    Optional: ``start_value`` (float, finite; the same on every row of a (problem, dimension)):
    a per-problem ``f(x0)`` given by the source (``columns.start_value``), for analyses that
    need a start value instead of estimating it. Histories read from the platform formats
    (``coco``, ``cec``, ``ioh``) end every run with a record at the evaluations it used (a
    non-improving record when the run's last improvement came earlier), so that the run's
    budget is known; histories read from a CSV or Parquet file keep improvements only.
``summary`` — one row per algorithm × problem (a published table):
    ``algorithm``, ``problem``, ``dimension`` and any of ``mean``, ``std``, ``n``,
    ``median``, ``minimum``, ``maximum`` (float; ``inf`` allowed in ``mean`` only, meaning a
    fixed-target cost that was never reached). A ``wide`` source (one row per problem, one
    column per algorithm) is loaded into this layout with its statistic as the one column.

Orientation: values are always "smaller is better". A study with ``minimize: false`` has its
values negated once, at load time (:mod:`reportgen.data.load`), never inside an analysis.

A *problem instance* is the pair (problem, dimension); analyses treat ``f1`` in 10-D and
``f1`` in 20-D as two problems.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

import numpy as np
import pandas as pd

from reportgen.execution import map_items

Format = Literal["trials", "histories", "summary"]

KEYS: tuple[str, ...] = ("algorithm", "problem", "dimension")
"""Columns identifying an algorithm on a problem instance."""

RUN_KEYS: tuple[str, ...] = (*KEYS, "run")
"""Columns identifying one run."""

TRIALS_OPTIONAL: tuple[str, ...] = ("evaluations_used", "evaluations_to_target", "time_seconds")
SUMMARY_STATISTICS: tuple[str, ...] = ("mean", "std", "n", "median", "minimum", "maximum")

R = TypeVar("R")

PAIR_BLOCK = 1 << 20
"""Neighbouring rows compared per block by the whole-table checks (:func:`pair_blocks`).

Comparing a table's rows with the rows before them block by block keeps each mask at 1 MB,
reused from block to block, instead of one byte per record (28.8 MB each at 28.8 M
records): memory the process has not touched before costs a page fault per page, which in
a virtual machine costs more CPU than the comparisons themselves (about 3 ms a MB measured
on the benchmark machine, against well under 1 ms a MB for a comparison pass)."""


def category_codes(column: pd.Series) -> np.ndarray:
    """The codes of a categorical column, without a copy (read-only).

    ``Series.cat.codes`` copies them into a new Series: 29–58 MB of memory not touched
    before at 28.8 M records, which costs more than any comparison made with them.
    """
    return np.asarray(column.array.codes)


def pair_blocks(n: int) -> Iterator[tuple[int, int]]:
    """``[lo, hi)`` blocks of the ``n − 1`` pairs of neighbouring rows of an ``n``-row table,
    at most :data:`PAIR_BLOCK` a block; pair ``i`` is row ``i + 1`` against row ``i``, so a
    block compares ``column[lo + 1 : hi + 1]`` with ``column[lo:hi]``."""
    for lo in range(0, max(n - 1, 0), PAIR_BLOCK):
        yield lo, min(lo + PAIR_BLOCK, n - 1)


def natural_key(text: str) -> tuple[object, ...]:
    """Sort key that orders ``f2`` before ``f10``."""
    # isdecimal, not isdigit: "²" is a digit that int() refuses (and that \d does not match).
    return tuple(
        int(part) if part.isdecimal() else part.lower() for part in re.split(r"(\d+)", text)
    )


def sorted_problems(pairs: Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """Problem instances in their natural order: by dimension, then by natural problem name."""
    return tuple(sorted(set(pairs), key=lambda pd_: (pd_[1], natural_key(pd_[0]))))


def by_problem(frame: pd.DataFrame, column: str, algorithms: Sequence[str]) -> pd.DataFrame:
    """One column of a long table (``problem``, ``dimension``, ``algorithm``, ``column``) as
    problems × algorithms: what a per-problem score per algorithm looks like to the synthesis.

    The index (``problem``, ``dimension``) lists the problems in the order they first appear,
    each with its dimensions in the order they first appear (pandas' ``pivot_table`` with
    ``sort=False``; the bootstrap's resamples depend on it); the columns follow
    ``algorithms`` (those the table has)."""
    wide = frame.pivot_table(
        index=["problem", "dimension"],
        columns="algorithm",
        values=column,
        aggfunc="first",
        sort=False,
        observed=True,
    )
    return wide[[a for a in algorithms if a in wide.columns]]


def problem_label(problem: str, dimension: int) -> str:
    """How a problem instance is named in the report: ``f3`` or ``f3 (D=10)``."""
    return problem if dimension == 0 else f"{problem} (D={dimension})"


@dataclass(frozen=True)
class AnalysisData:
    """What one analysis receives: one canonical table and the study's selections.

    Attributes
    ----------
    format : {"trials", "histories", "summary"}
        The layout of ``frame``.
    frame : pandas.DataFrame
        The table, already filtered to the study's algorithms and problems.
    algorithms : tuple of str
        Algorithm names in study order (the order results and figures follow).
    problems : tuple of (str, int)
        Problem instances (problem, dimension) in natural order.
    sources : tuple of str
        Names of the data sources merged into ``frame``.
    groups : dict
        Function groups of the spec (``problems.groups``): group name → problem names, only
        problems of this data, groups in spec order; empty when the spec names none.
    records : Records or None
        A partitioned source's records, left in their files; ``frame`` is then an empty table
        with the columns. An analysis that splits its work by problem reads each problem's
        piece where its work item runs (:meth:`problem_items`, :func:`problem_frame`); any
        other gets the whole table first (:meth:`materialized`).
    """

    format: Format
    frame: pd.DataFrame
    algorithms: tuple[str, ...]
    problems: tuple[tuple[str, int], ...]
    sources: tuple[str, ...] = ()
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    records: Records | None = None

    def materialized(self) -> AnalysisData:
        """The same data with the whole table in ``frame`` (read here if partitioned)."""
        if self.records is None:
            return self
        frame = self.records.read(self.problems)
        return dataclasses.replace(self, frame=frame, records=None)

    def last_evaluations(self) -> dict[int, float]:
        """Per dimension, the largest evaluation count of any record (histories)."""
        if self.records is None:
            largest = self.frame.groupby("dimension", observed=True)["evaluations"].max()
            return {int(d): float(e) for d, e in largest.items()}
        return {
            dimension: self.records.last_evaluation([p for p in self.problems if p[1] == dimension])
            for dimension in sorted({d for _, d in self.problems})
        }

    def problem_items(self) -> list[Any]:
        """One work item per problem instance, in :attr:`problems` order: the problem's rows,
        or, for partitioned data, what reads them (:func:`problem_frame` turns either into
        the rows where the item runs)."""
        if self.records is not None:
            return [self.records.item(key) for key in self.problems]
        # Spans of rows, not pieces: taking every problem's rows here would copy the whole
        # table at once (1 GB more at the paper's scale of 28.8 M records), and grouping it
        # with pandas costs several arrays of one integer per record; an item takes its rows
        # where it runs, so only the problems in work hold a copy.
        spans = problem_spans(self.frame)
        empty = np.zeros((0, 2), dtype=np.int64)
        return [ProblemRows(self.frame, spans.get(key, empty)) for key in self.problems]

    def map_problems(self, function: Callable[[pd.DataFrame], R]) -> list[R]:
        """``function`` of each problem's rows, in :attr:`problems` order, each problem one
        work item of the current executor (:func:`reportgen.execution.map_items`).

        The item reads its rows where it runs (:func:`problem_frame`: a partitioned source's
        files are read there), so only what ``function`` returns travels back: it should be
        small (one row per run, or a few per algorithm). ``function`` must be picklable: a
        module-level function, or a :func:`functools.partial` of one.
        """
        return map_items(functools.partial(_of_problem, function=function), self.problem_items())

    def per_run(self, function: Callable[[pd.DataFrame], pd.DataFrame]) -> pd.DataFrame:
        """A table of one row per run, computed problem by problem (:meth:`map_problems`) and
        put in run order (:func:`in_run_order`), as ``function`` of the whole table would be.

        ``function`` turns one problem's rows into one row per run (with the columns of
        :data:`RUN_KEYS`); for a per-run layout (``trials``) :func:`with_columns` keeps the
        rows, so that the client holds the runs, never a partitioned source's records.
        """
        return in_run_order(self.map_problems(function))

    def restricted(
        self,
        dimensions: Iterable[int] | None = None,
        groups: Iterable[str] | None = None,
        problems: Iterable[str] | None = None,
    ) -> AnalysisData:
        """The same data on a subset of the problem instances (every given filter applies).

        Raises
        ------
        KeyError
            With the first group name that is not one of :attr:`groups` (the caller turns it
            into an input error at the spec key).
        """
        keep = set(self.problems)
        if dimensions is not None:
            wanted = set(dimensions)
            keep = {p for p in keep if p[1] in wanted}
        if groups is not None:
            members: set[str] = set()
            for group in groups:
                members |= set(self.groups[group])
            keep = {p for p in keep if p[0] in members}
        if problems is not None:
            names = set(problems)
            keep = {p for p in keep if p[0] in names}
        if self.records is None:
            instances = pd.MultiIndex.from_arrays([self.frame["problem"], self.frame["dimension"]])
            frame = self.frame[instances.isin(list(keep))].reset_index(drop=True)
        else:
            frame = self.frame  # the problems' pieces are read by problem
        kept_names = {p for p, _ in keep}
        return AnalysisData(
            records=self.records,
            format=self.format,
            frame=frame,
            algorithms=self.algorithms,
            problems=tuple(p for p in self.problems if p in keep),
            sources=self.sources,
            groups={
                g: tuple(m for m in members if m in kept_names)
                for g, members in self.groups.items()
                if any(m in kept_names for m in members)
            },
        )

    def breakdown(self) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
        """The subsets aggregating analyses report besides the total: one per dimension (when
        there are several, named ``D=10``), then one per function group (by its name).

        Returns
        -------
        tuple of (name, problem instances)
            Non-empty subsets only, dimensions increasing, groups in spec order.
        """
        dimensions = sorted({d for _, d in self.problems})
        out: list[tuple[str, tuple[tuple[str, int], ...]]] = []
        if len(dimensions) > 1:
            for dimension in dimensions:
                out.append((f"D={dimension}", tuple(p for p in self.problems if p[1] == dimension)))
        for name, members in self.groups.items():
            subset = tuple(p for p in self.problems if p[0] in members)
            if subset:
                out.append((name, subset))
        return tuple(out)


class Records(Protocol):
    """Records left where they lie (:class:`reportgen.data.partitions.PartitionedRecords`,
    or :class:`~reportgen.data.partitions.CombinedRecords` for sources read together)."""

    @property
    def runs(self) -> pd.DataFrame:
        """One row per run (at least the columns of :data:`RUN_KEYS`)."""
        ...

    def item(self, problem: tuple[str, int]) -> Any:
        """A picklable work item that reads one problem's rows (:func:`problem_frame`)."""
        ...

    def read(self, problems: Sequence[tuple[str, int]] | None = None) -> pd.DataFrame:
        """The records of some problems as one table, read here."""
        ...

    def last_evaluation(self, problems: Sequence[tuple[str, int]]) -> float:
        """The largest evaluation count of any record of these problems (histories)."""
        ...

    def final_values(self, problems: Sequence[tuple[str, int]]) -> pd.DataFrame | None:
        """Each run of these problems with its final ``value`` (histories), in run order, if
        known without reading the records again; else None."""
        ...


def problem_spans(frame: pd.DataFrame) -> dict[tuple[str, int], np.ndarray]:
    """Where each problem instance's rows are: (problem, dimension) → ``[start, stop)`` rows.

    A span is a maximal stretch of neighbouring rows of one instance, found by comparing
    each row's keys with the previous row's (a canonical table, sorted by algorithm, then
    problem, holds one span per algorithm and instance). Spans are listed in row order.
    """
    n = len(frame)
    if n == 0:
        return {}
    problem = frame["problem"]
    if isinstance(problem.dtype, pd.CategoricalDtype):
        codes, names = category_codes(problem), problem.cat.categories
    else:
        codes, names = pd.factorize(problem.to_numpy())
    dims = frame["dimension"].to_numpy()
    change = np.ones(n, dtype=bool)
    np.not_equal(codes[1:], codes[:-1], out=change[1:])
    change[1:] |= dims[1:] != dims[:-1]
    starts = np.flatnonzero(change)
    stops = np.append(starts[1:], n)
    instance, _ = pd.factorize(pd.MultiIndex.from_arrays([codes[starts], dims[starts]]))
    order = np.argsort(instance, kind="stable")
    spans = {}
    for members in np.split(order, np.flatnonzero(np.diff(instance[order])) + 1):
        first = starts[members[0]]
        key = (str(names[codes[first]]), int(dims[first]))
        spans[key] = np.stack([starts[members], stops[members]], axis=1)
    return spans


@dataclass(frozen=True)
class ProblemRows:
    """One problem's rows of a table, as a work item: taken when used (:meth:`take`).

    Sent to another process (a Dask worker), it travels as the rows themselves, never as
    the whole table it points into.
    """

    frame: pd.DataFrame
    spans: np.ndarray
    """``[start, stop)`` positions of the rows, one pair per stretch, in row order."""

    def take(self) -> pd.DataFrame:
        """The rows (a copy, in table order, with their labels in the table)."""
        lengths = self.spans[:, 1] - self.spans[:, 0]
        before = np.cumsum(lengths) - lengths
        positions = np.arange(lengths.sum()) + np.repeat(self.spans[:, 0] - before, lengths)
        return self.frame.take(positions)

    def __reduce__(self) -> tuple[Any, ...]:
        return (pd.DataFrame, (self.take(),))


def problem_frame(item: Any) -> pd.DataFrame:
    """The rows of one problem from an item of :meth:`AnalysisData.problem_items` (runs
    where the item runs: reading a partitioned source's files there)."""
    if isinstance(item, ProblemRows):
        return item.take()
    if isinstance(item, pd.DataFrame):
        return item
    from reportgen.data.partitions import CombinedItem, combined_frame, read_problem

    if isinstance(item, CombinedItem):
        return combined_frame(item)
    return read_problem(item)


def _of_problem(item: Any, *, function: Callable[[pd.DataFrame], R]) -> R:
    """``function`` of one problem's rows (:meth:`AnalysisData.map_problems`'s work item)."""
    return function(problem_frame(item))


def with_columns(frame: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """The table's rows with those of ``columns`` it has (in that order): a per-run table of a
    ``trials`` problem for :meth:`AnalysisData.per_run`."""
    return frame[[c for c in columns if c in frame.columns]]


def in_run_order(tables: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Per-run tables (of problems) as one, sorted by :data:`RUN_KEYS` as a canonical table is.

    The order is what the same per-run rows computed from the whole table would have: a
    loaded table is sorted by algorithm, problem, dimension and run (names as sorted
    categories), whichever problem a row came from.
    """
    kept = [t for t in tables if len(t)] or list(tables[:1])
    if not kept:
        return pd.DataFrame(columns=list(RUN_KEYS))
    table = concat_tables(kept) if len(kept) > 1 else kept[0].reset_index(drop=True)
    return table.sort_values(list(RUN_KEYS), kind="stable", ignore_index=True)


def observed(names: pd.Series) -> list[str]:
    """The distinct names in a column, in order of first appearance (categories: those used).

    For a categorical column this looks at the codes only (a count per category), never at
    one string per row.
    """
    if isinstance(names.dtype, pd.CategoricalDtype):
        codes = category_codes(names)
        used = np.bincount(codes[codes >= 0], minlength=len(names.cat.categories)) > 0
        return [str(n) for n in names.cat.categories[used]]
    return [str(n) for n in pd.unique(names)]


def run_table(frame: pd.DataFrame, layout: Format) -> pd.DataFrame:
    """One row per run of a canonical table, with its number of ``records``.

    For ``histories`` these are the first records of the runs (the table is sorted by run,
    so a run starts wherever a key changes); for ``trials`` the table itself; for
    ``summary`` the (algorithm, problem, dimension) rows. Summaries of a source — the
    report's overview, its data appendix, run counts, completeness — read this table, whose
    size is the number of runs, not the number of records.
    """
    if layout == "summary" or "run" not in frame:
        return frame[list(KEYS)].drop_duplicates(ignore_index=True)
    if layout == "trials":
        runs = frame[list(RUN_KEYS)].reset_index(drop=True)
        runs["records"] = 1
        return runs
    first = run_starts(frame)
    runs = frame[list(RUN_KEYS)].iloc[first].reset_index(drop=True)
    runs["records"] = np.diff(np.append(first, len(frame)))
    return runs


def run_starts(frame: pd.DataFrame) -> np.ndarray:
    """The first row of each run in a table whose runs are contiguous (sorted by run): the
    positions where some key of :data:`RUN_KEYS` differs from the row before.

    Names are compared by their categorical codes (never one string a row), block by block
    (:func:`pair_blocks`: one small mask reused, not a byte a record).
    """
    n = len(frame)
    if n == 0:
        return np.zeros(0, dtype=np.intp)
    keys = [
        category_codes(column)
        if isinstance(column.dtype, pd.CategoricalDtype)
        else column.to_numpy()
        for column in (frame[key] for key in RUN_KEYS)
    ]
    found = [np.zeros(1, dtype=np.intp)]  # the first row starts a run
    changed = np.empty(min(PAIR_BLOCK, n - 1), dtype=bool)
    scratch = np.empty_like(changed)
    for lo, hi in pair_blocks(n):
        block = changed[: hi - lo]
        block[:] = False
        for values in keys:
            block |= np.not_equal(values[lo + 1 : hi + 1], values[lo:hi], out=scratch[: hi - lo])
        found.append(np.flatnonzero(block) + (lo + 1))
    return np.concatenate(found)


def concat_tables(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Canonical tables one under the other, names staying categorical (categories merged)."""
    frames = list(frames)
    for column in ("algorithm", "problem"):
        if all(column in f and isinstance(f[column].dtype, pd.CategoricalDtype) for f in frames):
            names = sorted({str(n) for f in frames for n in f[column].cat.categories})
            # Only tables whose categories differ are re-coded (assign copies the whole table).
            frames = [
                f
                if list(f[column].cat.categories) == names
                else f.assign(**{column: f[column].cat.set_categories(names)})
                for f in frames
            ]
    return pd.concat(frames, ignore_index=True)
