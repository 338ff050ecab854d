"""Partitioned sources: a Parquet dataset read where it lies, one problem at a time.

A ``histories`` or ``trials`` source whose ``path`` is a folder of Parquet files (a
hive-style dataset such as ``algorithm=A01/problem=f001/part-0.parquet``, as written by
pyarrow, Spark or Dask), or whose ``paths`` is a glob of Parquet files, is *partitioned*:
its records are never gathered into one table.

- **Checking.** The files are checked in batches of :data:`FILES_PER_TASK`, one executor
  work item each (:func:`reportgen.execution.map_items`: on a Dask cluster the workers read
  the files themselves). Every file is read and checked exactly as a single file would be
  (:func:`reportgen.data.load.load_files`: cells, duplicates, best-so-far), so messages name
  the file, row and column. What travels back is small: the file's hash and row count, its
  per-run table (one row per run, :func:`~reportgen.data.frames.run_table`) and its largest
  evaluation count.
- **The per-run tables** (a few bytes a run) are what the client keeps: the report's
  overview, run counts, completeness, the spec's algorithm and problem selections and
  aliases all work on them. A run must lie within one file (its records are checked
  together); a run found in two files is an error naming both.
- **Reading for an analysis.** Every analysis splits its work by problem and asks for one
  work item per problem (:meth:`PartitionedRecords.item`); the item names the files that
  hold the problem, and :func:`read_problem` reads and checks them again where the item runs,
  keeping that problem's rows only. Analyses that need one row per run (U-scores' states,
  values at the budget, trials) reduce each problem's rows to them in its item
  (:meth:`reportgen.data.frames.AnalysisData.per_run`). Reading the whole table into the
  client (:meth:`PartitionedRecords.read`) is left for an analysis kind that does not split
  its work (``reportgen.pipeline.READS_BY_PROBLEM``).

Decisions
---------
- ``key=value`` folder names between the dataset's folder (or the spec's folder, for a glob)
  and a file are columns of every row of the file (hive partitioning; values
  percent-decoded); a column the file has itself wins.
- The intended layout puts each problem (or each algorithm and problem) in its own folder;
  a file holding many problems is read once per problem it holds.
- Validation runs twice on the files an analysis reads (once when checking, once when
  reading): the price of never holding all records in one place.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import urllib.parse
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from reportgen.data.frames import (
    RUN_KEYS,
    Format,
    ProblemRows,
    category_codes,
    concat_tables,
    in_run_order,
    problem_frame,
    problem_label,
    problem_spans,
    run_table,
    sorted_problems,
)
from reportgen.data.select import merge_aliases
from reportgen.errors import InputError, Problem
from reportgen.execution import map_items
from reportgen.spec.sources import DataSource

if TYPE_CHECKING:
    from reportgen.data.load import FileRecord, SourceData

FILES_PER_TASK = 32
"""Files checked per work item: enough to outweigh a task's overhead, few enough to spread."""

PARTITIONED_FORMATS = ("histories", "trials")


def partitioned(source: DataSource, files: Sequence[tuple[Path, str]]) -> bool:
    """Whether a source is read partition by partition: a folder, or a glob of Parquet files."""
    if source.format not in PARTITIONED_FORMATS:
        return False
    if any(path.is_dir() for path, _ in files):
        return True
    return isinstance(source.paths, str) and all(
        path.name.lower().endswith(".parquet") for path, _ in files
    )


def hive_columns(shown: str) -> dict[str, str]:
    """``key=value`` folder names of a file's path (as shown), as columns: later ones win."""
    columns: dict[str, str] = {}
    for part in Path(shown).parent.parts:
        name, equals, value = part.partition("=")
        if equals and name:
            columns[urllib.parse.unquote(name)] = urllib.parse.unquote(value)
    return columns


def dataset_files(files: Sequence[tuple[Path, str]], where: str) -> list[tuple[Path, str]]:
    """The Parquet files of the source: a folder's, recursively in path order; files as given."""
    found: list[tuple[Path, str]] = []
    problems = []
    for path, shown in files:
        if not path.is_dir():
            found.append((path, shown))
            continue
        inside = sorted(
            p
            for p in path.rglob("*.parquet")
            if p.is_file() and not any(part.startswith((".", "_")) for part in p.parts[-1:])
        )
        if not inside:
            problems.append(
                Problem(
                    where,
                    f"the folder '{shown}' holds no .parquet file (a folder is read as a "
                    f"partitioned Parquet dataset; for other files give a glob such as "
                    f"'{os.path.join(shown, '*.csv')}')",
                )
            )
        found.extend((p, os.path.join(shown, p.relative_to(path).as_posix())) for p in inside)
    if problems:
        raise InputError(problems)
    return found


@dataclass(frozen=True)
class _Reading:
    """What a worker needs to read some files of a source (picklable)."""

    name: str
    source: DataSource
    key: str
    minimize: bool
    files: tuple[tuple[Path, str], ...]


@dataclass(frozen=True)
class _Checked:
    """A batch of files checked: small results only."""

    files: tuple[FileRecord, ...]
    runs: pd.DataFrame | None
    columns: tuple[str, ...]
    problems: tuple[Problem, ...]


def _check_files(reading: _Reading) -> _Checked:
    """Read and check each file of a batch; its per-run table, tagged with the file's number."""
    from reportgen.data.load import load_files

    records: list[FileRecord] = []
    runs = []
    problems: list[Problem] = []
    columns: tuple[str, ...] = ()
    for number, (path, shown) in enumerate(reading.files):
        try:
            data = load_files(
                reading.name,
                reading.source,
                reading.key,
                reading.minimize,
                [(path, shown)],
                constants=[hive_columns(shown)],
            )
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        records.extend(data.files)
        table = data.runs.assign(file=np.int64(number))
        if "evaluations" in data.frame:
            # A run's records are sorted by evaluations: its last one ends its block of rows.
            ends = np.cumsum(table["records"].to_numpy()) - 1
            table["last"] = data.frame["evaluations"].to_numpy()[ends]
            table["final"] = data.frame["value"].to_numpy()[ends]
        runs.append(table)
        columns = tuple(data.frame.columns)
    return _Checked(
        files=tuple(records),
        runs=concat_tables(runs) if runs else None,
        columns=columns,
        problems=tuple(problems),
    )


@dataclass(frozen=True)
class ProblemItem:
    """The work item of one problem of a partitioned source: the files holding it."""

    reading: _Reading
    problem: tuple[str, int]
    algorithms: tuple[str, ...] | None
    aliases: Mapping[str, str] = field(default_factory=dict)


def _keep(
    frame: pd.DataFrame, problems: frozenset[tuple[str, int]] | None, algorithms: frozenset[str]
) -> np.ndarray:
    """Rows of some problems (None: all) and some algorithms (empty: all).

    Names are matched by their categories' codes: turning a column of 10⁵ names into text
    to compare them cost more than reading the file.
    """
    keep = np.ones(len(frame), dtype=bool)
    if algorithms:
        keep &= _named(frame["algorithm"], algorithms)
    if problems is not None:
        by_dimension: dict[int, set[str]] = {}
        for problem, dimension in problems:
            by_dimension.setdefault(int(dimension), set()).add(problem)
        dimensions = frame["dimension"].to_numpy()
        inside = np.zeros(len(frame), dtype=bool)
        for dimension, names in by_dimension.items():
            inside |= (dimensions == dimension) & _named(frame["problem"], names)
        keep &= inside
    return keep


def _named(column: pd.Series, names: Set[str]) -> np.ndarray:
    """Which rows of a name column hold one of ``names``."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        wanted = [i for i, name in enumerate(column.cat.categories) if str(name) in names]
        return np.isin(category_codes(column), wanted)
    return column.astype(str).isin(list(names)).to_numpy()


def read_problem(item: ProblemItem) -> pd.DataFrame:
    """One problem's canonical rows, read and checked from its files where the item runs."""
    return _read(item.reading, frozenset([item.problem]), item.algorithms, item.aliases)


def _read(
    reading: _Reading,
    problems: frozenset[tuple[str, int]] | None,
    algorithms: tuple[str, ...] | None,
    aliases: Mapping[str, str],
) -> pd.DataFrame:
    from reportgen.data.load import load_files

    # Algorithms are selected under their names in the files (aliases merge after reading).
    wanted = frozenset(algorithms or ()) | {
        a for a, b in aliases.items() if b in (algorithms or ())
    }
    data = load_files(
        reading.name,
        reading.source,
        reading.key,
        reading.minimize,
        list(reading.files),
        constants=[hive_columns(shown) for _, shown in reading.files],
        keep=functools.partial(_keep, problems=problems, algorithms=wanted),
    )
    frame, _clashes = merge_aliases(data.frame, dict(aliases))  # clashes: found when loading
    return _unused_dropped(frame)


def _unused_dropped(frame: pd.DataFrame) -> pd.DataFrame:
    """Names no row uses are no categories (as a whole table read and selected has them)."""
    for column in ("algorithm", "problem"):
        values = frame[column]
        if isinstance(values.dtype, pd.CategoricalDtype):
            # A count per category (pandas' remove_unused_categories sorts every code).
            codes = category_codes(values)
            used = np.bincount(codes[codes >= 0], minlength=len(values.cat.categories)) > 0
            if not used.all():
                renumbered = np.cumsum(used) - 1
                frame[column] = pd.Categorical.from_codes(
                    np.where(codes >= 0, renumbered[codes], -1),
                    categories=values.cat.categories[used],
                )
    return frame


@dataclass(frozen=True)
class PartitionedRecords:
    """A source's records, left in their files; what the client keeps about them.

    Attributes
    ----------
    reading : _Reading
        The source and all its files.
    runs : DataFrame
        One row per run (after the study's selections and aliases), with ``records``, the
        number of the ``file`` that holds it and (histories) its ``last`` evaluation count.
    columns : tuple of str
        The canonical columns of the records.
    aliases : mapping
        Names in the files → the study's algorithm names.
    """

    reading: _Reading
    runs: pd.DataFrame
    columns: tuple[str, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)

    @functools.cached_property
    def holders(self) -> dict[tuple[str, int], tuple[int, ...]]:
        """Problem instance → the numbers of the files that hold it."""
        pairs = self.runs[["problem", "dimension", "file"]].drop_duplicates()
        holders: dict[tuple[str, int], list[int]] = {}
        for problem, dimension, number in pairs.itertuples(index=False):
            holders.setdefault((str(problem), int(dimension)), []).append(int(number))
        return {key: tuple(sorted(numbers)) for key, numbers in holders.items()}

    @functools.cached_property
    def algorithms(self) -> tuple[str, ...]:
        """The algorithms the runs keep (study names)."""
        return tuple(sorted({str(a) for a in self.runs["algorithm"].unique()}))

    def item(self, problem: tuple[str, int]) -> ProblemItem:
        """The work item reading one problem (:func:`read_problem`)."""
        files = tuple(self.reading.files[i] for i in self.holders.get(problem, ()))
        return ProblemItem(
            dataclasses.replace(self.reading, files=files),
            problem,
            self.algorithms,
            dict(self.aliases),
        )

    def read(self, problems: Sequence[tuple[str, int]] | None = None) -> pd.DataFrame:
        """The records of some problems (default: every problem kept) as one canonical table,
        read here (for an analysis that does not split its work by problem)."""
        keys = set(problems) if problems is not None else set(self.holders)
        numbers = sorted({i for key in keys for i in self.holders.get(key, ())})
        reading = dataclasses.replace(
            self.reading, files=tuple(self.reading.files[i] for i in numbers)
        )
        if not numbers:
            return pd.DataFrame(columns=list(self.columns))
        return _read(reading, frozenset(keys), self.algorithms, self.aliases)

    def last_evaluation(self, problems: Sequence[tuple[str, int]]) -> float:
        """The largest evaluation count of any record of these problems (histories)."""
        instances = pd.MultiIndex.from_arrays(
            [self.runs["problem"].astype(str), self.runs["dimension"].astype(int)]
        )
        return float(self.runs["last"].to_numpy()[instances.isin(list(problems))].max())

    def final_values(self, problems: Sequence[tuple[str, int]]) -> pd.DataFrame | None:
        """Each run of these problems with its final ``value`` (the last record of a checked
        history: the smallest), in run order — from the check, no file read again; None for
        trials (their values are the records)."""
        if "final" not in self.runs:
            return None
        runs = self.runs[[*RUN_KEYS, "final"]].rename(columns={"final": "value"})
        instances = pd.MultiIndex.from_arrays(
            [runs["problem"].astype(str), runs["dimension"].astype(int)]
        )
        return in_run_order([runs[instances.isin(list(problems))]])

    def with_runs(
        self, runs: pd.DataFrame, aliases: Mapping[str, str] | None = None
    ) -> PartitionedRecords:
        """The same files with another per-run table (a selection), and aliases if given."""
        return dataclasses.replace(
            self, runs=runs, aliases=self.aliases if aliases is None else dict(aliases)
        )


@dataclass(frozen=True)
class CombinedItem:
    """The work item of one problem of sources read together: one item per source holding it."""

    parts: tuple[Any, ...]
    """:class:`ProblemItem` (a partitioned source's files) or :class:`ProblemRows` (a table's
    rows), in the order the analysis lists its sources."""


@dataclass(frozen=True)
class CombinedRecords:
    """Sources an analysis reads together (``data: [a, b]``), at least one of them partitioned.

    Each problem's rows are read (partitioned sources) or taken (tables) where the problem's
    item runs and joined in the order of the analysis's ``data:`` list — the rows the joined
    table would hold for the problem — so that no source is read whole into the client.

    Attributes
    ----------
    parts : tuple
        Per source: its :class:`PartitionedRecords`, or its canonical table.
    """

    parts: tuple[PartitionedRecords | pd.DataFrame, ...]

    @functools.cached_property
    def _spans(self) -> tuple[dict[tuple[str, int], np.ndarray] | None, ...]:
        return tuple(
            None if isinstance(part, PartitionedRecords) else problem_spans(part)
            for part in self.parts
        )

    @functools.cached_property
    def runs(self) -> pd.DataFrame:
        """One row per run of every source (the columns of :data:`RUN_KEYS`)."""
        return concat_tables(
            [
                part.runs[list(RUN_KEYS)]
                if isinstance(part, PartitionedRecords)
                else run_table(part, "histories" if "evaluations" in part else "trials")[
                    list(RUN_KEYS)
                ]
                for part in self.parts
            ]
        )

    def item(self, problem: tuple[str, int]) -> CombinedItem:
        """The work item reading one problem from every source that holds it."""
        items: list[Any] = []
        for part, spans in zip(self.parts, self._spans, strict=True):
            if spans is None:
                assert isinstance(part, PartitionedRecords)
                if problem in part.holders:
                    items.append(part.item(problem))
            elif problem in spans:
                assert isinstance(part, pd.DataFrame)
                items.append(ProblemRows(part, spans[problem]))
        return CombinedItem(tuple(items))

    def read(self, problems: Sequence[tuple[str, int]] | None = None) -> pd.DataFrame:
        """The records of some problems (default: all) as one table, read here."""
        keys = problems
        if keys is None:
            pairs = self.runs[["problem", "dimension"]].drop_duplicates()
            keys = sorted_problems((str(p), int(d)) for p, d in pairs.itertuples(index=False))
        pieces = [problem_frame(self.item(key)) for key in keys]
        return concat_tables(pieces) if pieces else pd.DataFrame()

    def final_values(self, problems: Sequence[tuple[str, int]]) -> pd.DataFrame | None:
        """None: the runs' final values are read from the sources (:meth:`AnalysisData.per_run`)."""
        return None

    def last_evaluation(self, problems: Sequence[tuple[str, int]]) -> float:
        """The largest evaluation count of any record of these problems (histories)."""
        largest = -np.inf
        wanted = set(problems)
        for part, spans in zip(self.parts, self._spans, strict=True):
            if spans is None:
                assert isinstance(part, PartitionedRecords)
                held = [p for p in problems if p in part.holders]
                if held:
                    largest = max(largest, part.last_evaluation(held))
            else:
                assert isinstance(part, pd.DataFrame)
                for key in wanted & set(spans):
                    for start, stop in spans[key]:
                        largest = max(largest, float(part["evaluations"].iloc[start:stop].max()))
        return float(largest)


def combined_frame(item: CombinedItem) -> pd.DataFrame:
    """One problem's rows from every source of a :class:`CombinedItem`, in source order."""
    pieces = [problem_frame(part) for part in item.parts]
    if not pieces:  # a problem no source holds (never one of an analysis's problems)
        return pd.DataFrame(columns=list(RUN_KEYS))
    return concat_tables(pieces) if len(pieces) > 1 else pieces[0]


def load_partitioned(
    name: str,
    source: DataSource,
    key: str,
    minimize: bool,
    files: Sequence[tuple[Path, str]],
    where: str,
) -> SourceData:
    """Check every file of a partitioned source where the executor runs; keep the runs."""
    from reportgen.data.load import SourceData

    found = dataset_files(files, where)
    batches = [
        _Reading(name, source, key, minimize, tuple(found[i : i + FILES_PER_TASK]))
        for i in range(0, len(found), FILES_PER_TASK)
    ]
    checked = map_items(_check_files, batches)
    problems = [p for c in checked for p in c.problems]
    if problems:
        raise InputError(problems)
    runs = concat_tables(
        [
            c.runs.assign(file=c.runs["file"] + index * FILES_PER_TASK)
            for index, c in enumerate(checked)
            if c.runs is not None
        ]
    )
    _check_runs_apart(runs, found, problems)
    if problems:
        raise InputError(problems)
    fmt: Format = "histories" if source.format == "histories" else "trials"
    records = PartitionedRecords(
        reading=_Reading(name, source, key, minimize, tuple(found)),
        runs=runs,
        columns=next(c.columns for c in checked if c.columns),
    )
    return SourceData(
        name=name,
        format=fmt,
        frame=pd.DataFrame(columns=list(records.columns)),
        files=tuple(f for c in checked for f in c.files),
        records=records,
    )


def _check_runs_apart(
    runs: pd.DataFrame, files: Sequence[tuple[Path, str]], problems: list[Problem]
) -> None:
    """A run lies within one file: its records are checked together only there."""
    keys = list(RUN_KEYS)
    twice = runs[runs.duplicated(keys, keep=False)]
    if twice.empty:
        return
    for count, (key, group) in enumerate(twice.groupby(keys, sort=True, observed=True)):
        if count == 10:
            problems.append(Problem("", "... and more runs found in two files"))
            break
        algorithm, problem, dimension, run = key
        shown = [files[int(i)][1] for i in group["file"]]
        problems.append(
            Problem(
                shown[0],
                f"run {run} of {algorithm} on {problem_label(str(problem), int(dimension))} is "
                f"also in {', '.join(shown[1:])}; in a partitioned source each run lies in one file",
            )
        )


def trials_of_problem(
    item: ProblemItem, budget: float, target: float | None, where: str
) -> pd.DataFrame:
    """``trials_at`` of one problem of a partitioned histories source (a work item)."""
    from reportgen.data.derive import trials_at_budget

    return trials_at_budget(read_problem(item), budget, target, where)
