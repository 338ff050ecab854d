"""Load every data source of a study into canonical tables, checking as it goes.

The order of work: resolve files → read → map columns → check cells → check the table
(duplicates, best-so-far histories) → orient (``minimize: false`` negates once) → select
algorithms and problems → check completeness. Every problem found is collected; loading
raises one :class:`~reportgen.errors.InputError` with all of them, so ``reportgen validate``
lists everything at once.

Decisions
---------
- Problem and algorithm names are text; a numeric problem column (``1, 2, …``) keeps its
  numbers as names (``"1"``), ordered naturally.
- A source without a dimension column and without ``dimension:`` gets dimension 0 ("not
  given"); analyses that need it (data profiles) say so.
- Histories: records that do not improve on the previous one are redundant and dropped; a
  record that is *worse* than an earlier one of the same run is an error (the values must be
  best-so-far); two records of one run at the same evaluation count are an error.
- Maximisation (``minimize: false``): ``value``, ``mean``, ``median`` (and a histories
  source's ``start_value``) are negated and
  ``minimum``/``maximum`` are negated and swapped, so that everything downstream minimises.
- A problem that some selected algorithm has no data for is an error, unless
  ``problems.incomplete: exclude`` drops it (listed as a caveat in the report).
- Unequal run counts across algorithms on a problem are a caveat, not an error.
- A summary row's statistics must be in the order one sample's are (minimum ≤ median, mean ≤
  maximum, within the rounding of printed digits: :func:`~reportgen.data.checks.
  statistics_in_order`): a column mapped to the wrong statistic is an error at its cell.
- Sources merged for one analysis (``data: [a, b]``) must hold different runs: one listed
  twice, or two holding the same run (two sources of one file), is an error at the analysis's
  ``data``, as a duplicated row of one file is; merged, each such run would count twice.
- A problem filter (``problems``) that leaves no problem of a source an analysis reads is an
  error at ``problems`` (``problems.incomplete`` when that setting dropped the last ones),
  not one per analysis about too few algorithms.
- A ``problems.groups`` member must be a problem the study keeps: one the data lacks is an
  unknown name ("did you mean"), one the study's own filters dropped is named as excluded by
  the key that dropped it (``problems.exclude[0]``, ``problems.include``, …). Except a member
  that only ``problems.incomplete: exclude`` dropped: it leaves its group (the
  ``excluded_problems`` caveat names it), since that setting exists so that a scheduled run
  goes on when an algorithm lacks a problem, and the spec could not name it in advance; a
  group left with no member is an error.
- ``coco``, ``cec`` and ``ioh`` sources are read by :mod:`reportgen.data.formats` (no column
  mapping; a ``coco``/``ioh`` path may be a folder); their irregularities that do not stop the
  study (non-monotone CEC rows) become caveats of the source. Their values are errors
  ``f − f_opt``, so they cannot be used with ``minimize: false``.
- A histories source may map ``columns.start_value``: a per-problem ``f(x0)`` carried through
  as an extra ``start_value`` column; it must be finite and the same on every row of a
  (problem, dimension).
- A ``histories`` or ``trials`` source that is a folder of Parquet files or a glob of them
  is partitioned (:mod:`reportgen.data.partitions`): its files are checked one by one by
  :func:`load_files` as executor work items, the client keeps its per-run table
  (``SourceData.records``, ``frame`` empty) and selects on it; analyses read each
  problem's files in their own work items.
- Big files are read in pieces (:func:`reportgen.data.read.iter_tables`: pyarrow's CSV and
  Parquet readers, text never turned into Python strings row by row) and each piece is
  checked and reduced to its canonical typed columns before the next is read, so memory
  follows the canonical table, not the text.

Performance (columnar loading)
------------------------------
Names stay integer codes from the file to the analysis: a Parquet dictionary or a CSV
column is factorised per piece, the checks work on the distinct names, and the table holds
``algorithm`` and ``problem`` as categoricals whose categories are sorted (so codes order
like names). The pieces are gathered into one array per column — allocated once when the
row count is known (Parquet), otherwise joined one column at a time. Rows are located for
messages by their position (file starts, not a row-number column). The table is sorted at
most once, and only when it is not in order already (one pass of comparisons decides); the
best-so-far, duplicate and completeness checks are vectorised comparisons of neighbouring
rows or queries of the per-run table (:func:`reportgen.data.frames.run_table`), which is
also what the report's overview and data appendix read. For the benchmark's 28.8 M records
this loads in about the CPU time of a bare DuckDB read with a best-so-far check and holds
23 bytes per record: run numbers and dimensions in 16 bits while they fit (else 32, else
64), the evaluations and values in 64 (see ``benchmarks/README.md``). Memory matters for
time as well: each MB the process touches for the first time costs a page fault per page,
about 0.3–3 ms of system CPU a MB on the benchmark's virtual machine.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import importlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.data.checks import (
    MAX_PROBLEM_NAME_LENGTH,
    MAX_ROWS_PER_PROBLEM,
    MAX_WHOLE,
    code_dtype,
    lookalikes,
    number_column,
    numbers_clean,
    same_numbers,
    statistics_in_order,
    text_column,
)
from reportgen.data.derive import trials_at_budget
from reportgen.data.formats import read_platform
from reportgen.data.frames import (
    KEYS,
    PAIR_BLOCK,
    RUN_KEYS,
    SUMMARY_STATISTICS,
    TRIALS_OPTIONAL,
    AnalysisData,
    Format,
    Records,
    category_codes,
    concat_tables,
    natural_key,
    observed,
    pair_blocks,
    problem_label,
    run_table,
    sorted_problems,
)
from reportgen.data.partitions import (
    CombinedRecords,
    PartitionedRecords,
    load_partitioned,
    partitioned,
    trials_of_problem,
)
from reportgen.data.read import (
    RawTable,
    csv_header,
    fast_separator,
    iter_tables,
    parquet_batches,
    parquet_piece,
    reading,
    repeated_columns,
    resolve_paths,
    typed_csv_batches,
)
from reportgen.data.select import merge_aliases
from reportgen.errors import InputError, Problem, did_you_mean, quote_choices
from reportgen.execution import map_items
from reportgen.present.caveats import Caveat, Naming
from reportgen.present.findings import join_words
from reportgen.present.format import counted
from reportgen.spec.base import ProblemSelection
from reportgen.spec.load import LoadedSpec, frame_path
from reportgen.spec.sources import PLATFORM_FORMATS, DataSource


@dataclass(frozen=True)
class FileRecord:
    """One input file, for the data appendix and provenance."""

    source: str
    display: str
    sha256: str
    rows: int
    path: Path | None = field(default=None, compare=False, repr=False)
    """The file (or folder) read; for the supplement bundle, never shown in the report."""


@dataclass(frozen=True)
class SourceData:
    """One source in canonical form."""

    name: str
    format: Format
    frame: pd.DataFrame
    files: tuple[FileRecord, ...]
    caveats: tuple[Caveat, ...] = ()
    records: PartitionedRecords | None = None
    """A partitioned source's records, left in their files (``frame`` is then empty):
    :mod:`reportgen.data.partitions`."""
    let_go: tuple[pd.DataFrame, int] | None = field(default=None, compare=False, repr=False)
    """After :meth:`without_records`: the per-run table and the number of records."""

    @cached_property
    def runs(self) -> pd.DataFrame:
        """One row per run (per algorithm × problem for a summary): :func:`run_table`."""
        if self.let_go is not None:
            return self.let_go[0]
        if self.records is not None:
            return self.records.runs.drop(columns=["file", "last", "final"], errors="ignore")
        return run_table(self.frame, self.format)

    def without_records(self) -> SourceData:
        """The source without its records, but with what the report says of them (the
        per-run table, the number of records): once the analyses are done, the memory of
        the records (1 GB for 28.8 M) is free for drawing and writing the report."""
        if self.records is not None or self.let_go is not None:
            return self
        # A copy of no rows: a slice would keep the records' arrays alive.
        return replace(self, frame=self.frame.iloc[:0].copy(), let_go=(self.runs, self.rows))

    def run_range(self) -> tuple[int, int] | None:
        """The fewest and the most runs of an algorithm on a problem (None without run
        numbers: a summary)."""
        runs = self.runs
        if "run" not in runs:
            return None
        per = runs.groupby(["algorithm", "problem", "dimension"], observed=True)["run"].nunique()
        return int(per.min()), int(per.max())

    @property
    def rows(self) -> int:
        """The number of records (rows of the canonical table), also of a partitioned source."""
        if self.records is not None:
            return int(self.records.runs["records"].sum())
        if self.let_go is not None:
            return self.let_go[1]
        return len(self.frame)

    @cached_property
    def algorithms(self) -> list[str]:
        """The source's algorithms in natural order (from the per-run table, not the records)."""
        return sorted(observed(self.runs["algorithm"]), key=natural_key)


@dataclass(frozen=True)
class StudyData:
    """All data of a study, checked and oriented.

    Attributes
    ----------
    sources : dict
        Canonical tables by source name.
    algorithms : tuple of str
        The study's algorithms in report order.
    caveats : tuple of Caveat
        Things the report must mention (unequal run counts, excluded problems).
    """

    sources: dict[str, SourceData]
    algorithms: tuple[str, ...]
    caveats: tuple[Caveat, ...] = ()
    excluded: tuple[tuple[str, str, int], ...] = field(default_factory=tuple)
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Function groups of the spec (``problems.groups``), in spec order."""

    @property
    def files(self) -> tuple[FileRecord, ...]:
        return tuple(f for s in self.sources.values() for f in s.files)

    def without_records(self) -> StudyData:
        """The study's data with every source's records let go
        (:meth:`SourceData.without_records`)."""
        return replace(self, sources={n: s.without_records() for n, s in self.sources.items()})

    def for_analysis(
        self, names: str | Sequence[str], selection: ProblemSelection | None = None
    ) -> AnalysisData:
        """The merged table of the named sources, as one analysis sees it.

        ``selection`` (an analysis's ``select:``) restricts it to some dimensions, function
        groups or problems; a name or dimension the data lacks is an input error at ``select``.
        """
        data = self._merged(names)
        if selection is None:
            return data
        dimensions = sorted({d for _, d in data.problems})
        problem_names = sorted({p for p, _ in data.problems}, key=natural_key)
        issues = [
            Problem("select", f"no problem of dimension {d} in this data; it has {dimensions}")
            for d in selection.dimensions or []
            if d not in dimensions
        ]
        issues += [
            Problem(
                "select",
                f"no function group '{g}' (problems.groups names "
                f"{quote_choices(data.groups) or 'none'}){did_you_mean(g, list(data.groups))}",
            )
            for g in selection.groups or []
            if g not in data.groups
        ]
        issues += [
            Problem(
                "select",
                f"no problem named '{p}' in this data{did_you_mean(p, problem_names)}",
            )
            for p in selection.problems or []
            if p not in problem_names
        ]
        if issues:
            raise InputError(issues)
        subset = data.restricted(selection.dimensions, selection.groups, selection.problems)
        if not subset.problems:
            raise InputError(Problem("select", "the selection leaves no problem"))
        return subset

    def _merged(self, names: str | Sequence[str]) -> AnalysisData:
        names = [names] if isinstance(names, str) else list(names)
        parts = [self.sources[n] for n in names]
        if len(parts) > 1:
            _refuse_shared_runs(names, parts)
        records: Records | None = parts[0].records
        frame = parts[0].frame
        if len(parts) > 1 and all(p.records is None for p in parts):
            frame = concat_tables([p.frame for p in parts])  # sources read together, joined
        elif len(parts) > 1:
            # With a partitioned source, each problem's rows are joined where its item runs.
            records = CombinedRecords(
                tuple(p.frame if p.records is None else p.records for p in parts)
            )
            frame = concat_tables([p.frame.iloc[0:0] for p in parts])
        present = {a for p in parts for a in p.algorithms}
        algorithms = tuple(a for a in self.algorithms if a in present)
        # From the per-run tables: a histories table has millions of rows, a study a few hundred problems.
        pairs = pd.concat([p.runs[["problem", "dimension"]] for p in parts]).drop_duplicates()
        problems = sorted_problems(
            zip(pairs["problem"].astype(str), pairs["dimension"].astype(int), strict=True)
        )
        names_present = {p for p, _ in problems}
        groups = {
            group: tuple(p for p in members if p in names_present)
            for group, members in self.groups.items()
        }
        return AnalysisData(
            format=parts[0].format,
            frame=frame,
            algorithms=algorithms,
            problems=problems,
            sources=tuple(names),
            groups={g: m for g, m in groups.items() if m},
            records=records,
        )


def _refuse_shared_runs(names: Sequence[str], parts: Sequence[SourceData]) -> None:
    """Sources merged for one analysis must not hold the same run (the same algorithm,
    problem, dimension and run; for a summary, the same entry): merged, it would count twice.
    ``data: [runs, runs]``, or two sources reading one file, doubled every run without a word
    (U-score totals four times as large), where a file with a duplicated row is refused."""
    repeated = [f"'{n}'" for n in dict.fromkeys(names) if names.count(n) > 1]
    if repeated:
        raise InputError(
            Problem(
                "data",
                f"{join_words(repeated)} listed more than once: merged, every run of it would "
                "count twice",
            )
        )
    keys = [k for k in RUN_KEYS if all(k in p.runs for p in parts)]
    runs = pd.concat(
        [p.runs[keys].assign(_source=name) for name, p in zip(names, parts, strict=True)],
        ignore_index=True,
    )
    shared = runs[runs.duplicated(keys, keep=False)]
    if not len(shared):
        return
    first = shared.iloc[0]
    what = f"{first['algorithm']} on {problem_label(first['problem'], int(first['dimension']))}"
    if "run" in keys:
        what = f"run {first['run']} of {what}"
    holders = shared[shared[keys].eq(first[keys]).all(axis=1)]["_source"]
    sources = join_words([f"'{n}'" for n in dict.fromkeys(holders)])
    count = len(shared.drop_duplicates(keys))
    raise InputError(
        Problem(
            "data",
            f"the sources {sources} both hold "
            f"{what}"
            + (f" and {counted(count - 1, 'other')}" if count > 1 else "")
            + ": merged, each would count twice; give each source other runs",
        )
    )


# --- one source -------------------------------------------------------------------------------

_REQUIRED: dict[str, tuple[str, ...]] = {
    "trials": ("problem", "run", "value"),
    "histories": ("problem", "run", "evaluations", "value"),
    "summary": ("problem",),
    "wide": ("problem",),
}
_OPTIONAL: dict[str, tuple[str, ...]] = {
    "trials": TRIALS_OPTIONAL,
    "histories": ("start_value",),
    "summary": SUMMARY_STATISTICS,
    "wide": (),
}


def _sha256(path: Path) -> str:
    """SHA-256 of a file; of a folder, of its files' relative paths and contents in order."""
    digest = hashlib.sha256()
    files = sorted(f for f in path.rglob("*") if f.is_file()) if path.is_dir() else [path]
    for file in files:
        if path.is_dir():
            digest.update(file.relative_to(path).as_posix().encode() + b"\0")
        with file.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def _column_names(
    source: DataSource, raw: RawTable, key: str, problems: list[Problem]
) -> dict[str, str]:
    """Map canonical names to the file's columns; complain about missing ones."""
    mapping: dict[str, str] = {}
    available = list(raw.frame.columns)
    explicit = source.columns.model_dump(exclude_none=True)
    wanted = list(_REQUIRED[source.format])
    if source.algorithm is None and source.format != "wide":
        wanted.insert(0, "algorithm")
    optional = (
        ["dimension", *_OPTIONAL[source.format]]
        if source.dimension is None
        else list(_OPTIONAL[source.format])
    )
    other = next((c for c in ";\t|" if c in available[0]), None) if len(available) == 1 else None
    if other is None and len(available) == 1 and len(available[0].split()) > 1:
        other = r"\s+"  # names separated by spaces: the documented whitespace separator
    if other is not None and source.separator is None:
        # One column whose name holds another separator: not a comma-separated file, and
        # every column would be reported missing.
        problems.append(
            Problem(
                raw.display,
                f"the header is one column, {available[0]!r}: the file looks separated by "
                f"{other!r}; set {key}.separator: {json.dumps(other)}",
            )
        )
        return mapping
    for name in wanted + optional:
        column = explicit.get(name, name)
        if column in available:
            mapping[name] = column
        elif name in wanted or name in explicit:
            mapped = f" (mapped from '{name}' in {key}.columns)" if name in explicit else ""
            hint = did_you_mean(column, available)
            fix = "" if name in explicit else f"; map it with {key}.columns.{name}"
            problems.append(
                Problem(
                    raw.display,
                    f"missing column '{column}'{mapped}{hint}{fix}; the file has: {quote_choices(available)}",
                )
            )
    for name in explicit:
        if name not in wanted and name not in optional:
            problems.append(
                Problem(
                    raw.display,
                    f"{key}.columns.{name}: a '{source.format}' source has no column '{name}'",
                )
            )
    # A CSV's header was checked as it was read (csv_header: pandas renames a repeated name);
    # a DataFrame or a Parquet file keeps repeated names, which are caught here.
    problems.extend(Problem(raw.display, m) for m in repeated_columns(available, mapping))
    if source.format == "summary" and not any(s in mapping for s in SUMMARY_STATISTICS):
        problems.append(
            Problem(
                raw.display,
                f"a summary table needs at least one of {quote_choices(SUMMARY_STATISTICS)}; "
                f"the file has: {quote_choices(available)}",
            )
        )
    return mapping


def _canonical(
    source: DataSource, raw: RawTable, key: str, problems: list[Problem]
) -> pd.DataFrame | None:
    """One file's rows in the canonical layout, or None when columns are missing."""
    before = len(problems)
    mapping = _column_names(source, raw, key, problems)
    if len(problems) > before:
        return None
    out = pd.DataFrame(index=raw.frame.index)
    if source.format == "wide":
        return _wide(source, raw, key, mapping, problems)
    out["algorithm"] = (
        pd.Categorical.from_codes(np.zeros(len(raw.frame), int), [source.algorithm])
        if source.algorithm is not None
        else text_column(raw, mapping["algorithm"], problems)
    )
    out["problem"] = text_column(raw, mapping["problem"], problems, MAX_PROBLEM_NAME_LENGTH)
    out["dimension"] = _dimension(source, raw, mapping, problems)
    for name, options in _number_checks(source, mapping).items():
        out[name] = number_column(raw, mapping[name], problems, **options)
    if source.format == "summary":
        statistics_in_order(raw, mapping, out, problems)
    return out


def _number_checks(source: DataSource, mapping: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """The canonical number columns (besides ``dimension``) that ``mapping`` gives the source,
    in table order, each with the options :func:`number_column` checks it with."""
    checks: dict[str, dict[str, Any]] = {}
    if "run" in mapping:
        checks["run"] = {"integer": True, "minimum": 0}
    if source.format == "histories":
        checks["evaluations"] = {"integer": True, "minimum": 0}
    for name in ("value", "start_value"):
        if name in mapping:
            checks[name] = {}
    for name in ("evaluations_used", "evaluations_to_target", "time_seconds"):
        if name in mapping:
            checks[name] = {
                "allow_inf": name == "evaluations_to_target",
                "empty_as_inf": source.empty_cells == "not_reached",
                "inf_meaning": "inf means the target was never reached",
                "integer": name != "time_seconds",
                "minimum": 0,
            }
    for name in SUMMARY_STATISTICS:
        if source.format == "summary" and name in mapping:
            checks[name] = _statistic_checks(source, name)
    return checks


def _statistic_checks(source: DataSource, statistic: str) -> dict[str, Any]:
    """The :func:`number_column` options of a summary statistic, in a ``summary`` column or
    in a ``wide`` table's cells alike: a count of runs is a whole number ≥ 1 (a mean over no
    run is no result), a standard deviation ≥ 0, only a mean may be ∞ (never reached)."""
    return {
        "allow_inf": statistic == "mean",
        "empty_as_inf": source.empty_cells == "not_reached",
        "inf_meaning": "inf means a cost that was never reached",
        "minimum": {"std": 0, "n": 1}.get(statistic),
        "integer": statistic == "n",
    }


_DIMENSION_CHECKS: dict[str, Any] = {"integer": True, "minimum": 1}


def _dimension(
    source: DataSource, raw: RawTable, mapping: dict[str, str], problems: list[Problem]
) -> pd.Series | int:
    if source.dimension is not None:
        return source.dimension
    if "dimension" in mapping:
        column = number_column(raw, mapping["dimension"], problems, **_DIMENSION_CHECKS)
        # Bad cells (NaN, ±inf, too large) are already problems; 0 keeps the cast safe.
        return column.where(np.isfinite(column) & (column.abs() <= MAX_WHOLE), 0).astype(int)
    return 0


def _wide(
    source: DataSource, raw: RawTable, key: str, mapping: dict[str, str], problems: list[Problem]
) -> pd.DataFrame:
    """A published table, one column per algorithm, into the summary layout."""
    key_columns = [mapping["problem"], *([mapping["dimension"]] if "dimension" in mapping else [])]
    algorithm_columns = source.algorithm_columns or [
        c for c in raw.frame.columns if c not in key_columns
    ]
    # Each a problem of the table's shape, not of its cells: said once, before the cells
    # of a key column are read as numbers or one column is read as two algorithms.
    shape = [
        f"{key}.algorithm_columns names '{c}', which is the "
        f"{'problem' if c == mapping['problem'] else 'dimension'} column"
        for c in dict.fromkeys(algorithm_columns)
        if c in key_columns
    ] + [
        f"{key}.algorithm_columns names '{c}' {algorithm_columns.count(c)} times"
        for c in dict.fromkeys(algorithm_columns)
        if algorithm_columns.count(c) > 1
    ]
    if not algorithm_columns:
        shape.append(
            f"no algorithm columns: a wide table has one column per algorithm besides "
            f"{quote_choices(key_columns)}; the file has: {quote_choices(list(raw.frame.columns))}"
        )
    if shape:
        problems.extend(Problem(raw.display, message) for message in shape)
        return _no_wide_rows(source)
    missing = [c for c in algorithm_columns if c not in raw.frame.columns]
    for column in missing:
        problems.append(
            Problem(
                raw.display,
                f"missing algorithm column '{column}'{did_you_mean(column, list(raw.frame.columns))}",
            )
        )
    parts = []
    names = text_column(raw, mapping["problem"], problems, MAX_PROBLEM_NAME_LENGTH)
    dimension = _dimension(source, raw, mapping, problems)
    for column in algorithm_columns:
        if column in missing:
            continue
        assert source.statistic is not None  # checked by the spec model
        part = pd.DataFrame(
            {
                "algorithm": pd.Categorical.from_codes(np.zeros(len(names), int), [column]),
                "problem": names,
                "dimension": dimension,
            }
        )
        part[source.statistic] = number_column(
            raw, column, problems, **_statistic_checks(source, source.statistic)
        )
        part["_row"] = raw.first_row + np.arange(len(raw.frame))
        parts.append(part)
    return pd.concat(parts, ignore_index=True) if parts else _no_wide_rows(source)


def _no_wide_rows(source: DataSource) -> pd.DataFrame:
    """A wide table's canonical frame without rows (its columns missing or misnamed: the
    problems say why), with the columns the caller sorts and checks by."""
    return pd.DataFrame(columns=["algorithm", "problem", "dimension", source.statistic, "_row"])


@dataclass(frozen=True)
class _Locations:
    """Where the rows of a source's canonical table came from, without a column per row.

    Rows are appended file by file and piece by piece, so canonical row ``i`` is row
    ``i − starts[f]`` of file ``f`` (the last start ≤ i); a ``wide`` table, whose rows are
    expanded per algorithm, carries its file rows in ``rows``.
    """

    starts: np.ndarray
    files: tuple[RawTable, ...]
    rows: np.ndarray | None = None

    def file(self, position: int) -> RawTable:
        return self.files[int(np.searchsorted(self.starts, position, side="right")) - 1]

    def where(self, position: int) -> str:
        index = int(np.searchsorted(self.starts, position, side="right")) - 1
        row = (
            int(self.rows[position])
            if self.rows is not None
            else position - int(self.starts[index])
        )
        return self.files[index].where(row)


def _check_duplicates(
    frame: pd.DataFrame, keys: list[str], locations: _Locations, problems: list[Problem]
) -> None:
    """Two rows with the same key (the index holds each row's position as read)."""
    duplicated = frame.duplicated(keys, keep=False)
    if not duplicated.any():
        return
    groups = frame[duplicated].groupby(keys, sort=True, observed=True)
    for count, (key, group) in enumerate(groups):
        if count == MAX_ROWS_PER_PROBLEM:
            problems.append(Problem("", f"... and {groups.ngroups - count} more duplicated keys"))
            break
        rows = [locations.where(int(position)) for position in group.index]
        values = [
            int(v) if isinstance(v, float) and v.is_integer() else v
            for v in (key if isinstance(key, tuple) else (key,))
        ]
        described = ", ".join(f"{k}={v!r}" for k, v in zip(keys, values, strict=True))
        problems.append(
            Problem(rows[0], f"duplicate rows for {described}; also at {'; '.join(rows[1:])}")
        )


def _codes(column: pd.Series | pd.Categorical | np.ndarray) -> np.ndarray:
    """A key column as numbers that order like it: category codes (categories sorted)."""
    if isinstance(column, pd.Categorical):
        return np.asarray(column.codes)
    if isinstance(column, pd.Series):
        if isinstance(column.dtype, pd.CategoricalDtype):
            return category_codes(column)
        return column.to_numpy()
    return column


def _sort_order(keys: Sequence[np.ndarray]) -> np.ndarray | None:
    """The stable order of rows by ``keys``, or None when they are in that order already.

    Files are mostly written in order; checking that is one pass of comparisons, so the
    sort (one ``lexsort`` of integer codes and numbers) runs only when it changes something.
    The comparisons go block by block (:func:`~reportgen.data.frames.pair_blocks`) and
    reuse three small masks; the first block out of order ends them.
    """
    n = len(keys[0])
    if n < 2:
        return None
    size = min(PAIR_BLOCK, n - 1)
    after, tied, scratch = (np.empty(size, dtype=bool) for _ in range(3))
    for lo, hi in pair_blocks(n):
        m = hi - lo
        later, same, spare = after[:m], tied[:m], scratch[:m]
        later[:] = False
        same[:] = True
        for key in keys:
            np.greater(key[lo:hi], key[lo + 1 : hi + 1], out=spare)
            spare &= same
            later |= spare
            same &= np.equal(key[lo:hi], key[lo + 1 : hi + 1], out=spare)
        if later.any():
            return np.lexsort(tuple(reversed(keys)))
    return None


def _check_histories(
    columns: dict[str, Any],
    locations: _Locations,
    problems: list[Problem],
    sign: float = 1.0,
) -> dict[str, Any]:
    """Sort records; reject repeated evaluation counts and worsening values; drop non-improvements.

    ``columns`` are the source's canonical columns (names as categoricals with sorted
    categories, numbers as arrays), already oriented (smaller is better); ``sign`` (−1 for
    a maximisation study) turns values back into the file's own numbers for messages.
    Everything is vectorised over the records, block by block of neighbouring rows
    (:func:`~reportgen.data.frames.pair_blocks`: four small masks reused, and a mask of the
    records kept only when some record is dropped); only the few reported rows are looked
    at one by one.
    """
    keys = [_codes(columns[k]) for k in RUN_KEYS]
    order = _sort_order([*keys, columns["evaluations"]])
    if order is not None:
        for name in list(columns):
            columns[name] = columns[name][order]
        keys = [_codes(columns[k]) for k in RUN_KEYS]
    evaluations, value = columns["evaluations"], columns["value"]
    n = len(value)
    checks: tuple[tuple[str, list[int]], ...] = (
        ("two records of the same run at the same evaluation count", []),
        ("the value gets worse within a run (histories must be best-so-far values)", []),
    )
    found = [0, 0]  # rows of each check (only the first MAX_ROWS_PER_PROBLEM are kept)
    improving: np.ndarray | None = None  # made when the first record to drop is met
    size = min(PAIR_BLOCK, max(n - 1, 0))
    same_run, same_evaluations, worse, scratch = (np.empty(size, dtype=bool) for _ in range(4))
    for lo, hi in pair_blocks(n):
        m = hi - lo
        run, repeated, worsens, spare = same_run[:m], same_evaluations[:m], worse[:m], scratch[:m]
        run[:] = True
        for key in keys:
            run &= np.equal(key[lo + 1 : hi + 1], key[lo:hi], out=spare)
        np.equal(evaluations[lo + 1 : hi + 1], evaluations[lo:hi], out=repeated)
        repeated &= run
        np.greater(value[lo + 1 : hi + 1], value[lo:hi], out=worsens)
        worsens &= run
        worsens &= np.logical_not(repeated, out=spare)
        for c, mask in enumerate((repeated, worsens)):
            hits = np.flatnonzero(mask)
            if len(hits):
                room = MAX_ROWS_PER_PROBLEM - len(checks[c][1])
                checks[c][1].extend((hits[:room] + (lo + 1)).tolist())
                found[c] += len(hits)
        # A record improves on the one before, or starts a run.
        kept = np.less(value[lo + 1 : hi + 1], value[lo:hi], out=spare)
        kept |= np.logical_not(run, out=run)
        if improving is None and not kept.all():
            improving = np.ones(n, dtype=bool)
        if improving is not None:
            improving[lo + 1 : hi + 1] = kept
    del same_run, same_evaluations, worse, scratch
    for (message, rows), count in zip(checks, found, strict=True):
        for i in rows:
            position = int(order[i]) if order is not None else int(i)
            run_name = (
                f"run {int(columns['run'][i])} of {columns['algorithm'][i]} on "
                f"{problem_label(columns['problem'][i], int(columns['dimension'][i]))}"
            )
            problems.append(
                Problem(
                    locations.where(position),
                    f"{message}: {run_name}, evaluation {evaluations[i]:g}, value "
                    f"{sign * float(value[i])!r} after {sign * float(value[i - 1])!r}",
                )
            )
        if count > MAX_ROWS_PER_PROBLEM:
            problems.append(Problem("", f"... {message}: {count - MAX_ROWS_PER_PROBLEM} more rows"))
    if improving is not None:
        for name in list(columns):
            columns[name] = columns[name][improving]
    return columns


def _give_back_memory() -> None:
    """Return freed heap memory to the system (glibc only; elsewhere nothing happens).

    glibc's ``malloc`` keeps freed blocks of the heap for reuse, and it serves most arrays
    of a few MB from the heap, so the pieces freed while a big table is read and joined
    would stay in the process's resident memory (about 1 GB for 28.8 M records) although
    nothing uses them; ``malloc_trim`` hands them back.
    """
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).malloc_trim(0)


@contextlib.contextmanager
def _system_allocator() -> Iterator[None]:
    """pyarrow allocates from the C library's heap while files are read.

    Its default allocator (mimalloc or jemalloc) keeps the memory of every piece read for
    later use; the system allocator gives it back (:func:`_give_back_memory`), which keeps
    the peak at the size of the table (about 0.3 GB less for 28.8 M records). Buffers keep
    a reference to their allocator, so switching back afterwards is safe.
    """
    previous = pa.default_memory_pool()
    pa.set_memory_pool(pa.system_memory_pool())
    try:
        yield
    finally:
        pa.set_memory_pool(previous)


def _huge_page_switch() -> Callable[[bool], bool] | None:
    """numpy's switch for asking the kernel for huge pages (it returns the previous
    setting), or None where this numpy has none."""
    for module in ("numpy._core.multiarray", "numpy.core.multiarray"):  # numpy 2, then 1.x
        with contextlib.suppress(ImportError, AttributeError):
            switch: Callable[[bool], bool] = importlib.import_module(module)._set_madvise_hugepage
            return switch
    return None


@contextlib.contextmanager
def _small_pages() -> Iterator[None]:
    """numpy's arrays of 4 MB or more get ordinary (4 kB) pages while the data are loaded.

    On Linux numpy asks the kernel for transparent huge pages for such arrays
    (``madvise``). Where the kernel then compacts memory on a fault (``defrag`` set to
    ``madvise``, a common default), each first touch of a 2 MB page can wait for that: on
    the benchmark's virtual machine loading 28.8 M records spent 1.6–2.5 s of system CPU
    with huge pages against 0.7–0.9 s without (the columns are written once and read a few
    times, so the fewer TLB misses of huge pages gain nothing measurable back). The
    previous setting is restored afterwards.
    """
    switch = _huge_page_switch()
    previous = switch(False) if switch is not None else None
    try:
        yield
    finally:
        if switch is not None and previous is not None:
            switch(previous)


INTEGRAL = ("dimension", "run")
"""Canonical columns held as integers (their cells are checked whole and ≤ 2⁵³)."""

NARROW_TYPES = (np.int16, np.int32)
"""A histories table holds an :data:`INTEGRAL` column in the first of these types whose
:func:`narrow_limit` exceeds every value's magnitude (else 64-bit): 16 bits for run numbers
and dimensions below 16 384, 0.46 GB less than 64 bits at 28.8 M records (and 0.12 GB less
than 32), which is also less memory touched for the first time, i.e. less system CPU."""


def narrow_limit(kind: type[np.signedinteger]) -> int:
    """The values an integer type holds for an :data:`INTEGRAL` column: magnitudes below
    2^(bits − 2) (2¹⁴ for 16 bits, 2³⁰ for 32). The margin keeps the difference, and the
    sum, of any two values within the type too (run boundaries are found by subtracting
    neighbouring run numbers; a count one past the largest run number must fit)."""
    return 1 << (np.iinfo(kind).bits - 2)


def _integers(data: np.ndarray, narrow: bool) -> np.ndarray:
    """Whole numbers (checked, ≤ 2⁵³) as integers: with ``narrow``, in the first of
    :data:`NARROW_TYPES` whose :func:`narrow_limit` they fit within, else 64-bit (exact
    either way)."""
    if narrow and len(data):
        low, high = data.min(), data.max()
        for kind in NARROW_TYPES:
            limit = narrow_limit(kind)
            if low > -limit and high < limit:
                return data if data.dtype == kind else data.astype(kind)
    return data if data.dtype == np.int64 else data.astype(np.int64)


class _Pieces:
    """A source's canonical columns, gathered piece by piece as the files are read.

    When the number of rows is known in advance (Parquet files state it), each column is
    one array allocated once and filled piece by piece, so the table is never held twice;
    otherwise the pieces are kept and joined at the end, one column at a time. Names are
    kept as codes into one list of names per column (each distinct name once) and turned
    into a categorical with sorted categories at the end, so that codes order like names.
    The :data:`INTEGRAL` columns are converted to integers piece by piece (with ``narrow``,
    16- or 32-bit ones while the values allow, :func:`_integers`; a column widens when a
    piece needs it).
    """

    def __init__(self, rows: int | None, narrow: bool = False) -> None:
        self.rows = rows
        self.narrow = narrow
        self.filled = 0
        self.arrays: dict[str, np.ndarray] = {}
        self.lists: dict[str, list[np.ndarray]] = {}
        self.names: dict[str, dict[str, int]] = {}
        self.lookups: dict[str, tuple[pd.Index, np.ndarray, bool]] = {}
        """Per name column: the last categories met, with :meth:`_lookup`'s answer."""

    def add(self, piece: pd.DataFrame | Mapping[str, Any]) -> None:
        """Append a piece: a canonical frame, or its columns (arrays and categoricals)."""
        items = list(piece.items())
        n = len(items[0][1]) if items else 0
        if self.rows is not None and self.filled + n > self.rows:
            # More rows than announced: keep what is filled as the first piece.
            self.lists = {c: [a[: self.filled]] for c, a in self.arrays.items()}
            self.arrays, self.rows = {}, None
        for column, values in items:
            if isinstance(values, pd.Series):
                categorical = isinstance(values.dtype, pd.CategoricalDtype)
                values = values.array if categorical else values.to_numpy()
            dtype: np.dtype[Any] | None = None  # the type a piece's codes are held in
            if isinstance(values, pd.Categorical):
                lookup, identity = self._lookup(column, values.categories)
                dtype = lookup.dtype
                # A code −1 (a rejected cell) stays −1: the lookup's last entry.
                data = values.codes if identity else lookup.take(values.codes)
            else:
                data = np.asarray(values)
                if column in INTEGRAL:
                    data = _integers(data, self.narrow)
            kind = dtype if dtype is not None else data.dtype
            held = self.arrays.get(column)
            if held is not None and not np.can_cast(kind, held.dtype):
                wider = np.empty(len(held), dtype=kind)
                wider[: self.filled] = held[: self.filled]
                self.arrays[column] = wider
            if self.rows is not None:
                if column not in self.arrays:
                    self.arrays[column] = np.empty(self.rows, dtype=kind)
                self.arrays[column][self.filled : self.filled + n] = data
            else:
                # A copy that owns its memory: a view would keep the piece's whole block
                # of columns (or the file's batch) alive until the last of them is joined.
                self.lists.setdefault(column, []).append(
                    data.astype(kind) if data.base is not None or data.dtype != kind else data
                )
        self.filled += n

    def _lookup(self, column: str, categories: pd.Index) -> tuple[np.ndarray, bool]:
        """A piece's categories → the column's codes (a code per category, then −1 for a
        code −1), and whether that maps every code to itself.

        The pieces of one dictionary share their categories, so the lookup is made once
        for them; and when the first dictionary holds every name, the lookup is the
        identity and the pieces' codes are taken as they are (gathering 131 072 codes
        through a lookup costs 0.5–1 ms: ≈ 0.4 s for the 28.8 M records' two name
        columns).
        """
        last = self.lookups.get(column)
        if last is not None and last[0] is categories:
            return last[1], last[2]
        known = self.names.setdefault(column, {})
        codes = [known.setdefault(str(c), len(known)) for c in categories]
        # Codes as small as the names so far allow (1 byte a row for ≤ 127 names).
        lookup = np.asarray([*codes, -1], dtype=code_dtype(len(known)))
        identity = codes == list(range(len(codes)))
        self.lookups[column] = (categories, lookup, identity)
        return lookup, identity

    def columns(self) -> dict[str, Any]:
        """The columns, each as one array (names: a categorical); the pieces are freed."""
        out: dict[str, Any] = {}
        for column in [*self.arrays, *self.lists]:
            if column in self.arrays:
                data = self.arrays.pop(column)[: self.filled]
            else:
                data = np.concatenate(self.lists.pop(column))
            _give_back_memory()
            out[column] = _names(data, self.names[column]) if column in self.names else data
        return out


def _names(codes: np.ndarray, known: dict[str, int]) -> pd.Categorical:
    """Codes into names in order of appearance → a categorical with sorted, used categories."""
    names = sorted(known)
    used = np.zeros(len(known) + 1, dtype=bool)
    used[codes] = True  # no copy of the codes (−1, a rejected cell, marks the extra slot)
    kept = [n for n in names if used[known[n]]]
    rank = np.full(len(known) + 1, -1, dtype=code_dtype(len(kept)))
    for position, name in enumerate(kept):
        rank[known[name]] = position
    if rank.dtype == codes.dtype and (rank[:-1] == np.arange(len(known))).all():
        return pd.Categorical.from_codes(codes, categories=kept)  # names met in sorted order
    return pd.Categorical.from_codes(rank[codes], categories=kept)


def _orient(columns: dict[str, Any]) -> dict[str, Any]:
    """Turn a maximisation table into the equivalent minimisation table."""
    for column in ("value", "mean", "median", "start_value"):
        if column in columns:
            columns[column] = -columns[column]
    low = -columns.pop("maximum") if "maximum" in columns else None
    high = -columns.pop("minimum") if "minimum" in columns else None
    if low is not None:
        columns["minimum"] = low
    if high is not None:
        columns["maximum"] = high
    return columns


def _announced_rows(files: Sequence[tuple[Path, str]]) -> int | None:
    """The total number of rows when every file is Parquet (its metadata says), else None."""
    total = 0
    for path, _shown in files:
        if not path.name.lower().endswith(".parquet"):
            return None
        try:
            total += pq.read_metadata(path).num_rows
        except (OSError, pa.ArrowException):
            return None  # reading it reports the problem
    return total


def load_source(name: str, source: DataSource, spec: LoadedSpec, minimize: bool) -> SourceData:
    """Read, check and orient one data source.

    Pieces of each file are checked cell by cell (:mod:`reportgen.data.checks`) and kept as
    typed arrays — names as category codes, numbers as floats — joined once at the end;
    then the table is sorted at most once and checked as a whole by vectorised comparisons.
    """
    key = f"data.{name}"
    where = spec.where(("data", name, "path" if source.path is not None else "paths"))
    patterns = (
        [source.path]
        if source.path is not None
        else ([source.paths] if isinstance(source.paths, str) else list(source.paths or []))
    )
    in_memory = spec.frames.get(name)
    if in_memory is not None and source.format in PLATFORM_FORMATS:
        raise InputError(
            Problem(key, f"a DataFrame cannot stand for '{source.format}' files; give their path")
        )
    if in_memory is not None:  # the Python API's DataFrame: read like a file of the format
        files = [(Path(frame_path(name)), f"DataFrame '{name}'")]
    else:
        files = resolve_paths(
            patterns,
            spec.base_dir,
            where,
            # coco/ioh: output folders; histories/trials: a partitioned Parquet dataset
            allow_folders=source.format in ("coco", "ioh", "histories", "trials"),
        )
    if source.format in PLATFORM_FORMATS:
        return _load_platform(name, source, spec, minimize, files, key)
    if in_memory is None and partitioned(source, files):
        return load_partitioned(name, source, key, minimize, files, where)
    return load_files(name, source, key, minimize, files, in_memory)


def load_files(
    name: str,
    source: DataSource,
    key: str,
    minimize: bool,
    files: Sequence[tuple[Path, str]],
    in_memory: pd.DataFrame | None = None,
    constants: Sequence[Mapping[str, str]] | None = None,
    keep: Callable[[pd.DataFrame], np.ndarray] | None = None,
) -> SourceData:
    """Read, check and orient the files of one (tabular) source into its canonical table.

    Parameters
    ----------
    name, source, key, minimize
        The source's name, its spec entry, its spec key (``data.<name>``) and the direction.
    files : sequence of (path, shown)
        The files, with how messages name them.
    in_memory : DataFrame, optional
        The Python API's table standing for the one file.
    constants : sequence of mappings, optional
        Per file: columns every row of it has, with their text (a partitioned dataset's
        ``key=value`` folder names), added to the file's own columns.
    keep : callable, optional
        Canonical piece → which of its rows to keep (a partitioned source read for some
        problems only); the checks run on the rows kept.
    """
    problems: list[Problem] = []
    pieces = _Pieces(
        _announced_rows(files) if source.format != "wide" else None,
        narrow=source.format == "histories",
    )
    records: list[FileRecord] = []
    tables: list[RawTable] = []
    starts: list[int] = []
    total = 0
    with _system_allocator():
        for index, (path, shown) in enumerate(files):
            added = dict(constants[index]) if constants else {}
            rows = 0
            mapped = True
            starts.append(total)
            tables.append(RawTable(path, shown, pd.DataFrame(), header_lines=0))
            try:
                with reading(shown):
                    wanted = _wanted_columns(source, list(added))
                    pieces_read: Iterable[RawTable | _CheckedPiece] = (
                        [RawTable(path, shown, in_memory.reset_index(drop=True), header_lines=0)]
                        if in_memory is not None
                        else _pieces_in_bulk(source, path, shown, key, wanted)
                        if _checked_in_bulk(source, added, keep)
                        else iter_tables(path, shown, source.separator, wanted)
                    )
                    for raw in pieces_read:
                        if isinstance(raw, _CheckedPiece):
                            tables[-1] = raw.file
                            rows += raw.rows
                            total += raw.rows
                            if not problems:
                                pieces.add(raw.columns)
                            del raw
                            continue
                        if added:
                            raw = _with_constants(raw, added)
                        tables[-1] = raw.whole()
                        frame = _canonical(source, raw, key, problems)
                        if frame is None:
                            mapped = False
                            break
                        rows += len(raw.frame)
                        total += len(frame)
                        if problems or not len(frame):
                            continue  # the source will be rejected: check the rest, keep nothing
                        if keep is not None:
                            frame = frame[keep(frame)]
                        pieces.add(frame)
                        del frame, raw
                        _give_back_memory()
                    digest = _sha256(path) if in_memory is None else _frame_sha256(in_memory)
            except InputError as exc:
                problems.extend(exc.problems)
                continue
            records.append(FileRecord(name, shown, digest, rows, path))
            if rows == 0 and mapped:
                what = "file" if in_memory is None else "DataFrame"
                problems.append(Problem(shown, f"the {what} has no data rows"))
    if problems:
        raise InputError(problems)
    fmt: Format = (
        "summary"
        if source.format == "wide"
        else "trials"
        if source.format == "trials"
        else ("histories" if source.format == "histories" else "summary")
    )
    columns = pieces.columns()
    locations = _Locations(
        np.asarray(starts, dtype=np.int64), tuple(tables), columns.pop("_row", None)
    )
    # Orient first: best-so-far means non-increasing only once larger-is-better is negated.
    if not minimize:
        columns = _orient(columns)
    if fmt == "histories":
        columns = _check_histories(columns, locations, problems, sign=1.0 if minimize else -1.0)
        frame = pd.DataFrame(columns, copy=False)
        del columns
        if "start_value" in frame:
            _check_start_values(frame, lambda _: locations.files[0].display, problems)
    else:
        frame = pd.DataFrame(columns, copy=False)  # index: each row's position as read
        keys = list(RUN_KEYS if fmt == "trials" else KEYS)
        frame = frame.sort_values(keys, kind="stable")
        _check_duplicates(frame, keys, locations, problems)
        frame = frame.reset_index(drop=True)
    if problems:
        raise InputError(problems)
    _give_back_memory()  # what the checks' masks left in the heap (0.08 GB for 28.8 M records)
    return SourceData(name=name, format=fmt, frame=frame, files=tuple(records))


@dataclass(frozen=True)
class _CheckedPiece:
    """A piece of a file whose cells all passed the checks in bulk (:func:`_bulk_columns`)."""

    file: RawTable
    """The file, without cells (row numbers of later messages count from its start)."""
    columns: dict[str, Any]
    """The canonical columns: arrays, names as categoricals."""
    rows: int


def _checked_in_bulk(
    source: DataSource,
    added: Mapping[str, str],
    keep: Callable[[pd.DataFrame], np.ndarray] | None,
) -> bool:
    """Whether a file's pieces may be checked in bulk: a file of a histories or trials
    source, read whole and without columns added from folder names."""
    return source.format in ("histories", "trials") and not added and keep is None


def _pieces_in_bulk(
    source: DataSource,
    path: Path,
    shown: str,
    key: str,
    wanted: Callable[[list[str]], list[str] | None],
) -> Iterator[RawTable | _CheckedPiece]:
    """A Parquet or CSV file's pieces, checked in bulk where every cell passes."""
    name = path.name.lower()
    if name.endswith(".parquet"):
        return _parquet_pieces(source, path, shown, key, wanted)
    if name.endswith((".csv", ".csv.gz", ".tsv", ".txt")):
        return _csv_pieces(source, path, shown, key, wanted)
    return iter_tables(path, shown, source.separator, wanted)


def _csv_pieces(
    source: DataSource,
    path: Path,
    shown: str,
    key: str,
    wanted: Callable[[list[str]], list[str] | None],
) -> Iterator[RawTable | _CheckedPiece]:
    """A CSV file's pieces: read typed (names dictionary-encoded, numbers as floats, by
    :func:`~reportgen.data.read.typed_csv_batches`) and checked in bulk while every cell
    converts and passes; from the first piece that does not, the rest of the file is read
    as text for :func:`_canonical`, whose checks name the offending cells."""
    sep, names = csv_header(path, shown, source.separator)
    header = RawTable(path, shown, pd.DataFrame(columns=names), header_lines=1)
    found: list[Problem] = []
    mapping = _column_names(source, header, key, found)
    done = 0
    if fast_separator(sep) and not found and len(set(names)) == len(names) and all(names):
        numbers = ["dimension", *_number_checks(source, mapping)]
        types: dict[str, pa.DataType] = {
            mapping[n]: pa.dictionary(pa.int32(), pa.string())
            for n in ("algorithm", "problem")
            if n in mapping
        } | {mapping[n]: pa.float64() for n in numbers if n in mapping}
        file = replace(header, frame=pd.DataFrame())
        checked = _BulkChecked()
        try:
            for _first, batch in typed_csv_batches(path, sep, names, types):
                columns = _bulk_columns(source, file, key, batch, checked)
                if columns is None:
                    break
                yield _CheckedPiece(file, columns, batch.num_rows)
                done += batch.num_rows
                del batch, columns
            else:
                return
        except (pa.ArrowException, UnicodeDecodeError, OSError, ValueError):
            pass  # a cell that does not convert: the text reader takes over from there
    yield from iter_tables(path, shown, source.separator, wanted, skip=done)


def _parquet_pieces(
    source: DataSource,
    path: Path,
    shown: str,
    key: str,
    wanted: Callable[[list[str]], list[str] | None],
) -> Iterator[RawTable | _CheckedPiece]:
    """A Parquet file's pieces: checked in bulk (:func:`_bulk_columns`) where every cell
    passes, else as cells for :func:`_canonical`, whose checks name the offending rows."""
    file = RawTable(path, shown, pd.DataFrame(), header_lines=0)
    empty = True
    checked = _BulkChecked()
    for first, batch in parquet_batches(path, shown, wanted):
        empty = False
        columns = _bulk_columns(source, file, key, batch, checked)
        if columns is not None:
            yield _CheckedPiece(file, columns, batch.num_rows)
        else:
            yield parquet_piece(path, shown, first, batch)
        del batch, columns
    if empty:  # the file's one empty piece, with its column names
        yield from iter_tables(path, shown, source.separator, wanted)


@dataclass
class _BulkChecked:
    """What the pieces of one file share in :func:`_bulk_columns`, worked out once."""

    names: dict[str, tuple[pa.Array, pd.Categorical]] = field(default_factory=dict)
    """Per name column: the last dictionary checked, with its names (the batches of a row
    group share one)."""
    checked_names: dict[str, dict[str, str]] = field(default_factory=dict)
    """Per name column: each name met so far (as in the file) → the name it stands for
    (checked, stripped). A CSV batch has a dictionary of its own, usually of names met
    before: only names not yet met are checked."""
    mappings: dict[tuple[str, ...], dict[str, str] | None] = field(default_factory=dict)
    """The column mapping of each set of file columns (None: something is missing); the
    pieces of a file share one, and mapping costs a frame and a validation a piece."""


def _bulk_columns(
    source: DataSource,
    file: RawTable,
    key: str,
    batch: pa.RecordBatch,
    checked: _BulkChecked,
) -> dict[str, Any] | None:
    """A Parquet batch's canonical columns, checked without looking at cells one by one.

    What :func:`_canonical` would produce, for a batch whose cells all pass its checks:
    names are checked once per distinct name (the batch's dictionary, by
    :func:`~reportgen.data.checks.text_column`) and numbers by
    :func:`~reportgen.data.checks.numbers_clean` with the same options; the numbers are
    the file's own arrays (no copy until they are added to the table). ``checked`` keeps
    what the file's pieces share (the column mapping, the last dictionary checked per
    column with its names). None as soon as
    something would be reported, or a column is not stored as names or numbers: the
    batch then takes :func:`_canonical`'s path, whose messages name the rows.
    """
    file_columns = tuple(batch.schema.names)
    if file_columns not in checked.mappings:
        found: list[Problem] = []
        header = replace(file, frame=pd.DataFrame(columns=list(file_columns)))
        mapped = _column_names(source, header, key, found)
        checked.mappings[file_columns] = None if found else mapped
    mapping = checked.mappings[file_columns]
    if mapping is None:
        return None
    n = batch.num_rows
    out: dict[str, Any] = {}
    if source.algorithm is not None:
        out["algorithm"] = pd.Categorical.from_codes(np.zeros(n, np.int8), [source.algorithm])
    for name, limit in (("algorithm", None), ("problem", MAX_PROBLEM_NAME_LENGTH)):
        if name in out:
            continue
        names = _bulk_names(file, mapping[name], batch.column(mapping[name]), limit, checked)
        if names is None:
            return None
        out[name] = names
    checks = _number_checks(source, mapping)
    if source.dimension is not None:
        out["dimension"] = np.full(n, source.dimension, dtype=np.int64)
    elif "dimension" in mapping:
        checks = {"dimension": _DIMENSION_CHECKS, **checks}
    else:
        out["dimension"] = np.zeros(n, dtype=np.int64)
    for name, options in checks.items():
        array = batch.column(mapping[name])
        if array.null_count or not (
            pa.types.is_integer(array.type) or pa.types.is_floating(array.type)
        ):
            return None
        values = array.to_numpy()
        if not numbers_clean(values, **options):
            return None
        # As number_column gives them: floats, but for the integral ones (made integers).
        out[name] = values if name in INTEGRAL else values.astype(np.float64, copy=False)
    return {
        name: out[name] for name in ("algorithm", "problem", "dimension", *checks) if name in out
    }


def _bulk_names(
    file: RawTable,
    column: str,
    array: pa.Array,
    max_length: int | None,
    checked: _BulkChecked,
) -> pd.Categorical | None:
    """A dictionary-encoded column of names, checked on its distinct names; None when one
    fails (or the column is not dictionary-encoded text without nulls).

    Only names not met before in the file are checked (by
    :func:`~reportgen.data.checks.text_column`, as one column of those names): a CSV file's
    batches each have a dictionary of their own (≈ 20 ms of pandas work a dictionary
    however few its names: 2 s for the 28.8 M records' 107 batches). The categorical is
    what ``text_column`` gives on the whole dictionary: categories the checked names in
    order of first appearance, codes as small as they allow.
    """
    if (
        not pa.types.is_dictionary(array.type)
        or not (
            pa.types.is_string(array.type.value_type)
            or pa.types.is_large_string(array.type.value_type)
        )
        or array.null_count
        or array.dictionary.null_count
    ):
        return None
    dictionary = array.dictionary
    last = checked.names.get(column)
    if last is not None and last[0].equals(dictionary):
        names = last[1]
    else:
        met = checked.checked_names.setdefault(column, {})
        raw = dictionary.to_pylist()
        new = [n for n in dict.fromkeys(raw) if n not in met]
        if new:
            found: list[Problem] = []
            distinct = replace(file, frame=pd.DataFrame({column: pd.Series(new, dtype=object)}))
            checked_new = (
                text_column(distinct, column, found)
                if max_length is None
                else text_column(distinct, column, found, max_length)
            )
            if found:
                return None
            met.update(zip(new, checked_new.astype(object), strict=True))
        stands_for = [met[n] for n in raw]
        categories = list(dict.fromkeys(stands_for))
        position = {name: i for i, name in enumerate(categories)}
        lookup = np.asarray([position[n] for n in stands_for], dtype=code_dtype(len(categories)))
        names = pd.Categorical.from_codes(
            lookup, pd.Index(categories, dtype=object), validate=False
        )
        checked.names[column] = (dictionary, names)
    indices = array.indices.to_numpy()
    # Distinct names (the usual case) are their own codes: no gathering through a lookup.
    same = len(names.categories) == len(names) and (names.codes == np.arange(len(names))).all()
    codes = indices if same else names.codes.take(indices)
    return pd.Categorical.from_codes(codes, names.categories, validate=False)


def _derived_trials(
    name: str, source: DataSource, sources: dict[str, SourceData], spec: LoadedSpec
) -> SourceData:
    """A ``trials_at`` source: the runs of its histories source at the budget."""
    options = source.trials_at
    assert options is not None
    where = spec.where(("data", name, "trials_at", "source"))
    origin = sources.get(options.source)
    if origin is None or origin.format != "histories":
        histories = [n for n, s in sources.items() if s.format == "histories"]
        raise InputError(
            Problem(
                where,
                f"'{options.source}' is not a histories source of the study"
                f"{did_you_mean(options.source, histories)}; histories sources: "
                f"{quote_choices(histories) or 'none'}",
            )
        )
    if origin.records is not None:  # each problem's runs where the problem's files are read
        items = [origin.records.item(key) for key in _instances(origin.runs)]
        frame = concat_tables(
            map_items(
                functools.partial(
                    trials_of_problem, budget=options.budget, target=options.target, where=where
                ),
                items,
            )
        )
        frame = frame.sort_values(list(RUN_KEYS), kind="stable", ignore_index=True)
    else:
        frame = trials_at_budget(origin.frame, options.budget, options.target, where)
    # The files are listed once, under the histories source they were read for.
    return SourceData(name, "trials", frame, ())


def _instances(runs: pd.DataFrame) -> tuple[tuple[str, int], ...]:
    """The problem instances of a per-run table, in natural order."""
    pairs = runs[["problem", "dimension"]].drop_duplicates()
    return sorted_problems(
        zip(pairs["problem"].astype(str), pairs["dimension"].astype(int), strict=True)
    )


def _frame_sha256(frame: pd.DataFrame) -> str:
    """SHA-256 of a DataFrame's column names and cells (for the provenance)."""
    digest = hashlib.sha256("\x1f".join(map(str, frame.columns)).encode())
    digest.update(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
    return digest.hexdigest()


def _with_constants(raw: RawTable, constants: Mapping[str, str]) -> RawTable:
    """A piece with a column per constant (one category: one byte a row), unless the file
    has the column itself (then the file's cells count)."""
    frame = raw.frame
    added = {
        column: pd.Categorical.from_codes(np.zeros(len(frame), dtype=np.int8), [text])
        for column, text in constants.items()
        if column not in frame.columns
    }
    return replace(raw, frame=frame.assign(**added)) if added else raw


def _wanted_columns(
    source: DataSource, given: Sequence[str] = ()
) -> Callable[[list[str]], list[str] | None]:
    """Which file columns to read: those the source maps, when they are all there.

    Every cell is read as text (dtype ``str``) so that the checks can quote bad cells; only
    the mapped columns are read, so a chunk holds just those. When a required column is
    missing, every column is read so that the message can list what the file has.
    """

    def choose(file_names: list[str]) -> list[str] | None:
        names = [*file_names, *given]  # ``given``: columns added to every row (folder names)
        if source.format == "wide":
            return None
        explicit = source.columns.model_dump(exclude_none=True)
        required = list(_REQUIRED[source.format])
        if source.algorithm is None:
            required.append("algorithm")
        optional = [*_OPTIONAL[source.format], "dimension"]
        if any(explicit.get(n, n) not in names for n in required):
            return None
        if any(n in explicit and explicit[n] not in names for n in optional):
            return None
        wanted = {explicit.get(n, n) for n in required + optional}
        return [c for c in file_names if c in wanted]

    return choose


def _check_start_values(
    frame: pd.DataFrame, where: Callable[[int], str], problems: list[Problem]
) -> None:
    """``start_value`` is one number per (problem, dimension)."""
    spread = frame.groupby(["problem", "dimension"], sort=True, observed=True)["start_value"].agg(
        ["min", "max"]
    )
    for problem, dimension in spread.index[spread["min"] != spread["max"]][:MAX_ROWS_PER_PROBLEM]:
        values = sorted(
            frame.loc[
                (frame["problem"] == problem) & (frame["dimension"] == dimension), "start_value"
            ].unique()
        )
        problems.append(
            Problem(
                where(0),
                f"start_value differs within problem {problem_label(problem, int(dimension))}: "
                f"{', '.join(f'{v:g}' for v in values[:4])}; give one f(x0) per problem",
            )
        )


def _load_platform(
    name: str,
    source: DataSource,
    spec: LoadedSpec,
    minimize: bool,
    files: list[tuple[Path, str]],
    key: str,
) -> SourceData:
    """A ``coco``, ``cec`` or ``ioh`` source through its reader."""
    if not minimize:
        raise InputError(
            Problem(
                key,
                f"format '{source.format}' holds errors f − f_opt (smaller is better), but the "
                "study says minimize: false",
            )
        )
    with reading(", ".join(shown for _, shown in files)):
        result = read_platform(name, source, files, key)
        records = tuple(
            FileRecord(name, f.display, _sha256(f.path), f.rows, f.path) for f in result.files
        )
    layout: Format = "trials" if source.layout == "trials" else "histories"
    frame = result.frame.copy()
    for column in ("algorithm", "problem"):
        names = sorted({str(n) for n in frame[column].unique()})
        frame[column] = pd.Categorical(frame[column], categories=names)
    frame = frame.sort_values(
        list(RUN_KEYS) + (["evaluations"] if layout == "histories" else []),
        kind="stable",
        ignore_index=True,
    )
    return SourceData(name, layout, frame, records, tuple(result.caveats))


# --- the whole study --------------------------------------------------------------------------


@_small_pages()
def load_data(spec: LoadedSpec) -> StudyData:
    """Load, check, select and orient every data source of the study.

    Raises
    ------
    InputError
        With every problem in every source.
    """
    study = spec.study
    problems: list[Problem] = []
    sources: dict[str, SourceData] = {}
    caveats: list[Caveat] = []
    for name, source in study.data.items():
        if source.trials_at is not None:
            continue  # derived below, from its histories source
        try:
            sources[name] = load_source(name, source, spec, study.minimize)
        except InputError as exc:
            problems.extend(exc.problems)
    aliases = study.algorithm_aliases()
    for name, data in list(sources.items()):
        if data.records is not None:  # partitioned: the per-run table; pieces when read
            runs, clashes = merge_aliases(data.records.runs, aliases)
            records = data.records.with_runs(runs, aliases)
            sources[name] = replace(data, records=records)
        else:
            frame, clashes = merge_aliases(data.frame, aliases)
            sources[name] = SourceData(name, data.format, frame, data.files, data.caveats)
        problems.extend(Problem(f"data source '{name}'", message) for message in clashes)
    if problems:
        raise InputError(problems)
    for name, source in study.data.items():
        if source.trials_at is not None:
            try:
                sources[name] = _derived_trials(name, source, sources, spec)
            except InputError as exc:
                problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    sources = {name: sources[name] for name in study.data}  # spec order

    selected = study.algorithm_names()
    if selected is None:
        algorithms = tuple(
            sorted({a for s in sources.values() for a in s.algorithms}, key=natural_key)
        )
    else:
        algorithms = tuple(selected)
        for name, data in sources.items():
            present = data.algorithms
            for index, algorithm in enumerate(selected):
                if algorithm not in present:
                    files = ", ".join(f.display for f in data.files)
                    problems.append(
                        Problem(
                            spec.where(("algorithms", index)),
                            f"algorithm '{algorithm}' is not in data source '{name}' ({files})"
                            f"{did_you_mean(algorithm, present)}; it has: {quote_choices(present)}",
                        )
                    )
    for data in sources.values():
        caveats.extend(data.caveats)
    in_data = _problems_in_data(sources)
    where = ("data source " if len(sources) == 1 else "data sources ") + ", ".join(
        f"'{name}'" for name in sources
    )
    problems.extend(Problem(where, message) for message in lookalikes(algorithms, "algorithms"))
    problems.extend(Problem(where, message) for message in lookalikes(in_data, "problems"))
    problems.extend(Problem(where, message) for message in same_numbers(in_data, "problems"))
    _check_problem_selection(spec, in_data, problems)
    excluded: list[tuple[str, str, int]] = []
    for name, data in list(sources.items()):
        # A partitioned source is selected in its per-run table (its records stay in files).
        whole = data.frame if data.records is None else data.records.runs
        frame = whole
        if not set(data.algorithms) <= set(algorithms):
            frame = frame[frame["algorithm"].isin(algorithms)]
        frame = _filter_problems(frame, spec)
        # Only algorithms the source has: one it lacks entirely is reported above, once.
        expected = [a for a in algorithms if a in data.algorithms]
        if frame is not whole:
            frame = _unused_names_dropped(frame.reset_index(drop=True))
        selected_data = _with_rows(data, frame)
        selected_data, dropped = _check_complete(selected_data, expected, spec, problems)
        if len(whole) and not len(selected_data.runs) and name in _read_sources(spec):
            # Said here, not by each analysis as "needs at least two algorithms, got []".
            key = ("problems", "incomplete") if len(frame) else ("problems",)
            problems.append(
                Problem(
                    spec.where(key),
                    f"leaves no problem of data source '{name}' (it has "
                    f"{counted(len(data.runs[['problem', 'dimension']].drop_duplicates()), 'problem')}"
                    "): there is nothing to compare",
                )
            )
        excluded.extend((name, p, d) for p, d in dropped)
        caveats.extend(_run_count_caveats(name, selected_data.runs))
        sources[name] = selected_data
    if excluded:
        # One problem left out of two sources is one problem (it said "4 problems" for two
        # problems of a trials and a histories source): each is named once, with its sources.
        by_problem: dict[tuple[str, int], list[str]] = {}
        for s, p, d in excluded:
            by_problem.setdefault((p, d), []).append(s)
        listing = ", ".join(
            f"{problem_label(p, d)} [{', '.join(names)}]" for (p, d), names in by_problem.items()
        )
        caveats.append(
            Caveat(
                "excluded_problems",
                f"{counted(len(by_problem), 'problem', 'were')} excluded because some algorithm has no data for them.",
                listing,
            )
        )
    groups = _groups(spec, sources, in_data, {p for _, p, _ in excluded}, problems)
    if problems:
        raise InputError(problems)
    return StudyData(
        sources=sources,
        algorithms=algorithms,
        caveats=tuple(caveats),
        excluded=tuple(excluded),
        groups=groups,
    )


def _read_sources(spec: LoadedSpec) -> set[str]:
    """The sources some analysis reads (``data:``)."""
    return {name for analysis in spec.study.analyses for name in analysis.source_names()}


def _groups(
    spec: LoadedSpec,
    sources: dict[str, SourceData],
    in_data: Mapping[str, set[int]],
    incomplete: set[str],
    problems: list[Problem],
) -> dict[str, tuple[str, ...]]:
    """``problems.groups`` of the spec, every member checked against the selected data.

    A member that is in the data but that the study's own filters removed is named as
    excluded, by the key that excluded it: "no problem named 'f1' (did you mean 'f21'?)" would
    send the user looking for a typo. A member that only ``incomplete: exclude`` removed leaves
    its group (module docstring); a group it leaves empty is an error.
    """
    selection = spec.study.problems
    if selection is None or not selection.groups:
        return {}
    names = {str(p) for s in sources.values() for p in s.runs["problem"].unique()}
    kept: dict[str, tuple[str, ...]] = {}
    for group, members in selection.groups.items():
        left_out = {
            p for p in members if p not in names and _only_incomplete(p, in_data, incomplete, spec)
        }
        kept[group] = tuple(p for p in members if p not in left_out)
        if members and not kept[group]:
            problems.append(
                Problem(
                    spec.where(("problems", "groups", group)),
                    f"every member ({join_words(list(members))}) was left out by "
                    f"{spec.where(('problems', 'incomplete'))}, as some algorithm has no data "
                    "on it: the group would be empty",
                )
            )
        for index, problem in enumerate(members):
            if problem in names or problem in left_out:
                continue
            if problem not in in_data:
                message = (
                    f"no problem named '{problem}' in the data"
                    f"{did_you_mean(problem, sorted(in_data, key=natural_key))}"
                )
            else:
                message = f"problem '{problem}' is in the data but " + _excluded_because(
                    problem, in_data[problem], spec
                )
            problems.append(Problem(spec.where(("problems", "groups", group, index)), message))
    return kept


def _only_incomplete(
    problem: str, in_data: Mapping[str, set[int]], incomplete: set[str], spec: LoadedSpec
) -> bool:
    """Whether ``problem`` is in the data and only ``problems.incomplete: exclude`` dropped it
    (no ``problems:`` key the spec wrote)."""
    return (
        problem in in_data
        and problem in incomplete
        and bool(_kept_by_filters(problem, in_data[problem], spec)[1])
    )


def _excluded_because(problem: str, dimensions: set[int], spec: LoadedSpec) -> str:
    """Why a problem of the data is not in the selected data: the ``problems:`` keys that
    dropped its dimensions (in the order :func:`_filter_problems` applies them), else the
    algorithm selection (only algorithms the study does not compare have data on it)."""
    keys, left = _kept_by_filters(problem, dimensions, spec)
    if left:  # no key dropped it, nor incomplete: exclude (see _only_incomplete)
        return "no algorithm the study compares has data on it"
    return (
        f"excluded by {join_words(keys)}; a group lists only problems the study keeps "
        "(remove it from the group or from the filter)"
    )


def _kept_by_filters(
    problem: str, dimensions: set[int], spec: LoadedSpec
) -> tuple[list[str], set[int]]:
    """The ``problems:`` keys that drop some of ``problem``'s ``dimensions`` (in the order
    :func:`_filter_problems` applies them) and the dimensions they leave."""
    selection = spec.study.problems
    assert selection is not None  # only called for problems.groups
    keys: list[str] = []
    left = set(dimensions)
    if selection.dimensions is not None and left - set(selection.dimensions):
        keys.append(spec.where(("problems", "dimensions")))
        left &= set(selection.dimensions)
    if left and selection.include is not None and problem not in selection.include:
        keys.append(spec.where(("problems", "include")) + ", which does not list it")
        left = set()
    for index, rule in enumerate(selection.exclude or []):
        dropped = left if isinstance(rule, str) else left & set(rule.dimensions)
        if (rule if isinstance(rule, str) else rule.problem) == problem and dropped:
            keys.append(spec.where(("problems", "exclude", index)))
            left -= dropped
    return keys, left


def _problems_in_data(sources: Mapping[str, SourceData]) -> dict[str, set[int]]:
    """Every problem of the sources (before ``problems:`` selects) with its dimensions."""
    have: dict[str, set[int]] = {}
    for data in sources.values():
        runs = data.frame if data.records is None else data.records.runs
        pairs = runs[["problem", "dimension"]].drop_duplicates()
        for problem, dimension in zip(pairs["problem"], pairs["dimension"], strict=True):
            have.setdefault(str(problem), set()).add(int(dimension))
    return have


def _check_problem_selection(
    spec: LoadedSpec, have: Mapping[str, set[int]], problems: list[Problem]
) -> None:
    """Every problem and dimension ``problems:`` names must be in the data — in some source:
    a study's sources may hold different problems (CEC 2020: f6 and f7 in 5-D are in two of
    three), so each source alone is not the measure ('no problem named f2 in the data' for a
    problem another source has).

    An exclude rule ``{problem: f1, dimensions: [20]}`` for a dimension that no source has the
    problem in would exclude nothing, silently (a typo such as 50 for 5): named too.
    """
    selection = spec.study.problems
    if selection is None:
        return
    names = sorted(have)
    for key in ("include", "exclude"):
        for index, entry in enumerate(getattr(selection, key) or []):
            problem = entry if isinstance(entry, str) else entry.problem
            if problem not in have:
                problems.append(
                    Problem(
                        spec.where(("problems", key, index)),
                        f"no problem named '{problem}' in the data{did_you_mean(problem, names)}",
                    )
                )
                continue
            for j, dimension in enumerate([] if isinstance(entry, str) else entry.dimensions):
                if dimension not in have[problem]:
                    problems.append(
                        Problem(
                            spec.where(("problems", key, index, "dimensions", j)),
                            f"problem '{problem}' has no dimension {dimension} in the data; "
                            f"it has {sorted(have[problem])}",
                        )
                    )
    dimensions = set().union(*have.values())
    for index, dimension in enumerate(selection.dimensions or []):
        if dimension not in dimensions:
            problems.append(
                Problem(
                    spec.where(("problems", "dimensions", index)),
                    f"no problem of dimension {dimension} in the data; it has {sorted(dimensions)}",
                )
            )


def _filter_problems(frame: pd.DataFrame, spec: LoadedSpec) -> pd.DataFrame:
    """The rows of one source that ``problems:`` selects (what it names is checked over
    every source by :func:`_check_problem_selection`)."""
    selection = spec.study.problems
    if selection is None:
        return frame
    if selection.dimensions is not None:
        frame = frame[frame["dimension"].isin(selection.dimensions)]
    if selection.include is not None:
        frame = frame[frame["problem"].isin(selection.include)]
    for rule in selection.exclude or []:  # a name: every dimension; else the dimensions listed
        if isinstance(rule, str):
            frame = frame[frame["problem"] != rule]
        else:
            frame = frame[
                ~((frame["problem"] == rule.problem) & frame["dimension"].isin(rule.dimensions))
            ]
    return frame


def _with_rows(data: SourceData, frame: pd.DataFrame) -> SourceData:
    """The source with a selection of its rows: of its table, or of a partitioned source's
    per-run table (which then selects the records read from its files)."""
    if data.records is not None:
        return replace(data, records=data.records.with_runs(frame))
    if frame is data.frame:
        return data  # nothing selected away: keep its per-run table (computed once)
    return SourceData(data.name, data.format, frame, data.files, data.caveats)


def _unused_names_dropped(frame: pd.DataFrame) -> pd.DataFrame:
    """After a selection: categories of names no row has any more are dropped."""
    for column in ("algorithm", "problem"):
        values = frame[column]
        if isinstance(values.dtype, pd.CategoricalDtype):
            used = observed(values)
            if len(used) < len(values.cat.categories):
                frame[column] = values.cat.set_categories(sorted(used))
    return frame


def _check_complete(
    data: SourceData,
    algorithms: Sequence[str],
    spec: LoadedSpec,
    problems: list[Problem],
) -> tuple[SourceData, list[tuple[str, int]]]:
    """Every algorithm must have data on every problem (or the problem is excluded).

    Read from the per-run table; the records are only touched to drop excluded problems.
    """
    name = data.name
    pairs = data.runs[["problem", "dimension", "algorithm"]].drop_duplicates()
    # A dict, not .agg(set): pandas 3.0 cannot aggregate to a set.
    have = {
        (str(p), int(d)): {str(a) for a in group}
        for (p, d), group in pairs.groupby(["problem", "dimension"], sort=False, observed=True)[
            "algorithm"
        ]
    }
    incomplete = [
        (key, sorted(set(algorithms) - have[key], key=natural_key)) for key in sorted_problems(have)
    ]
    incomplete = [(key, missing) for key, missing in incomplete if missing]
    if not incomplete:
        return data, []
    policy = spec.study.problems.incomplete if spec.study.problems is not None else "error"
    if policy == "exclude":
        frame = data.frame if data.records is None else data.records.runs
        drop = np.zeros(len(frame), dtype=bool)
        for (problem, dimension), _missing in incomplete:
            drop |= ((frame["problem"] == problem) & (frame["dimension"] == dimension)).to_numpy()
        frame = _unused_names_dropped(frame[~drop].reset_index(drop=True))
        return _with_rows(data, frame), [key for key, _ in incomplete]
    for count, ((problem, dimension), missing) in enumerate(incomplete):
        if count == MAX_ROWS_PER_PROBLEM:
            problems.append(
                Problem(
                    f"data.{name}", f"... and {len(incomplete) - count} more incomplete problems"
                )
            )
            break
        problems.append(
            Problem(
                f"data.{name}",
                f"problem {problem_label(problem, dimension)} has no data for {quote_choices(missing)}; "
                "every algorithm needs data on every problem (or set problems.incomplete: exclude)",
            )
        )
    return data, []


def _run_count_caveats(name: str, runs: pd.DataFrame) -> list[Caveat]:
    """Unequal numbers of runs across algorithms on a problem (from the per-run table)."""
    if "run" not in runs:
        return []
    counts = (
        runs.groupby(list(KEYS), sort=False, observed=True)["run"].nunique().unstack("algorithm")
    )
    unequal = counts[counts.nunique(axis=1) > 1]
    if unequal.empty:
        return []
    named, examples = Naming(), []
    for (problem, dimension), row in unequal.head(3).iterrows():
        parts = ", ".join(f"{named(str(a))}: {int(n)}" for a, n in row.dropna().items())
        examples.append(f"{problem_label(problem, int(dimension))} ({parts})")
    more = f" and {len(unequal) - 3} more" if len(unequal) > 3 else ""
    return [
        named.caveat(
            "unequal_runs",
            f"Data source '{name}': algorithms have unequal numbers of runs on {counted(len(unequal), 'problem')}.",
            "; ".join(examples) + more,
        )
    ]
