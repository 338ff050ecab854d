"""Reading data files: CSV (optionally gzip-compressed) and Parquet.

Files are read as they are — every column as text first for CSV — so that the checks in
:mod:`reportgen.data.checks` can quote the exact bad cell with its row and column instead of
letting a parser fail with a traceback.

Big files are read in pieces (:func:`iter_tables`): CSV in chunks of :data:`CHUNK_ROWS` rows
(only the columns the source uses, each read as text), Parquet one row group batch at a time
through pyarrow. Each piece is checked and reduced to typed canonical columns before the next
is read, so the memory needed follows the canonical table (a few numbers per row), not the
file's text: a 1 GB histories CSV does not need 10 GB.
"""

from __future__ import annotations

import glob
import lzma
import os
import re
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.errors import InputError, Problem, shorten
from reportgen.paths import not_there, real_path, spec_path

SUPPORTED_SUFFIXES = (".csv", ".csv.gz", ".tsv", ".txt", ".parquet")
CHUNK_ROWS = 500_000
"""Rows per CSV chunk / Parquet batch: bounds the text held in memory at once."""
PARQUET_BATCH_ROWS = 1 << 17
"""Rows per Parquet batch at most: pyarrow holds the pages of a few batches while decoding,
so smaller batches lower the peak (28.8 M records: 0.2 GB over the table with 500 000 rows a
batch, 0.1 GB with 131 072) at the same CPU time."""
CSV_BLOCK_BYTES = 1 << 24
"""Bytes of CSV text pyarrow parses at a time (a piece is whole blocks)."""


@dataclass(frozen=True)
class RawTable:
    """One file as read, before mapping and checking.

    Attributes
    ----------
    path : pathlib.Path
        The file.
    display : str
        How messages name it: the path as written relative to the spec.
    frame : pandas.DataFrame
        Its cells; CSV cells are strings (``None`` for empty), Parquet keeps its types.
    header_lines : int
        Lines before the first data row (1 for a CSV header), so that data row ``i``
        (0-based) is file line ``i + header_lines + 1``.
    first_row : int
        For a chunk: the file's 0-based row number of the chunk's first row (row ``i`` of
        ``frame`` is file row ``first_row + i``).
    """

    path: Path
    display: str
    frame: pd.DataFrame
    header_lines: int
    first_row: int = 0

    def whole(self) -> RawTable:
        """The file without cells, numbering rows from the file's start (for later checks)."""
        return replace(self, frame=self.frame.iloc[0:0], first_row=0)

    def where(self, row: int, column: str | None = None) -> str:
        """``data/runs.csv, row 17 (line 18), column 'value'`` for 0-based row ``row``."""
        row += self.first_row
        text = f"{self.display}, row {row + 1}"
        if self.header_lines:
            text += f" (line {row + 1 + self.header_lines})"
        if column is not None:
            text += f", column '{column}'"
        return text


READ_FAILURES: tuple[type[BaseException], ...] = (
    OSError,  # missing, unreadable, ENAMETOOLONG, ELOOP, EIO, a bad gzip header, …
    EOFError,  # a truncated .gz (an interrupted download)
    zlib.error,
    lzma.LZMAError,
    tarfile.TarError,
    zipfile.BadZipFile,
    UnicodeDecodeError,
    pd.errors.ParserError,
    pd.errors.EmptyDataError,
)
"""What can go wrong while *reading* a file (as opposed to a bad cell): turned into an
:class:`InputError` naming the file by :func:`reading`."""


@contextmanager
def reading(display: str) -> Iterator[None]:
    """Guard the reading of one source's file(s): a read failure becomes an input error.

    Every way a file can fail to be read — missing or unreadable, a name too long, a symlink
    loop, a truncated or corrupt compressed stream, undecodable text, a malformed CSV — is
    reported as ``<file>: cannot read the file: <reason>`` (exit 1), never as a traceback.
    One guard for every reader, tabular or platform, wherever it opens files.

    Parameters
    ----------
    display : str
        How messages name the file(s) (as written in the spec).
    """
    try:
        yield
    except InputError:
        raise
    except READ_FAILURES as exc:
        raise _fail(display, exc) from None


def resolve_paths(
    patterns: list[str], base_dir: Path, where: str, *, allow_folders: bool = False
) -> list[tuple[Path, str]]:
    """Expand paths and globs relative to the spec folder; every pattern must match a file.

    With ``allow_folders`` (COCO and IOHprofiler output folders) a folder counts as a file.
    A path the system refuses to look at (a name too long, a symlink loop) is a problem of
    ``where``, like a missing file.
    """

    def usable(path: Path) -> bool:
        return path.is_file() or (allow_folders and path.is_dir())

    found: list[tuple[Path, str]] = []
    problems: list[Problem] = []
    for pattern in patterns:
        shown = shorten(pattern)
        try:
            if any(ch in pattern for ch in "*?["):
                matches = sorted(glob.glob(str(spec_path(base_dir, pattern)), recursive=True))
                files = [Path(m) for m in matches if usable(Path(m))]
                if not files:
                    problems.append(
                        Problem(where, f"the pattern '{shown}' matches no file in {base_dir}")
                    )
                found.extend((f, os.path.relpath(f, base_dir)) for f in files)
                continue
            path = real_path(spec_path(base_dir, pattern))
            if usable(path):
                # Reports name files relative to the spec, never by the author's absolute path.
                found.append(
                    (path, os.path.relpath(path, base_dir) if os.path.isabs(pattern) else pattern)
                )
                continue
            kind = "is a folder, not a file" if path.is_dir() else not_there(path)
            problems.append(Problem(where, f"the data file '{shown}' {kind} (looked for {path})"))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            problems.append(Problem(where, f"cannot use the data path '{shown}': {reason}"))
    problems.extend(_read_twice(found, patterns, where))
    if problems:
        raise InputError(problems)
    return found


def _read_twice(found: list[tuple[Path, str]], patterns: list[str], where: str) -> list[Problem]:
    """A problem for each file that the paths name more than once (a path and a glob that
    also matches it, a glob given twice): its rows or runs would be read twice — for COCO
    and IOHprofiler, as that many more runs of the same algorithm, without a word."""
    first: dict[Path, str] = {}
    problems = []
    for path, shown in found:
        key = real_path(path)
        if key in first:
            listed = ", ".join(f"'{shorten(p)}'" for p in patterns)
            problems.append(
                Problem(
                    where,
                    f"the data file '{shown}' is named more than once by {listed}; each file "
                    "may be read once",
                )
            )
        first.setdefault(key, shown)
    return problems


def read_table(path: Path, display: str, separator: str | None) -> RawTable:
    """Read one CSV or Parquet file without interpreting its cells."""
    name = path.name.lower()
    try:
        if name.endswith(".parquet"):
            return RawTable(path, display, pd.read_parquet(path), header_lines=0)
        if not name.endswith(SUPPORTED_SUFFIXES):
            raise InputError(
                Problem(
                    display,
                    f"unsupported file type; reportgen reads {', '.join(SUPPORTED_SUFFIXES)}",
                )
            )
        sep = separator if separator is not None else ("\t" if name.endswith(".tsv") else ",")
        frame = pd.read_csv(
            path,
            sep=sep,
            dtype=str,
            keep_default_na=False,
            na_values=[],
            skipinitialspace=True,
            engine="python" if len(sep) > 1 else "c",
        )
    except InputError:
        raise
    except (
        pd.errors.ParserError,
        pd.errors.EmptyDataError,
        UnicodeDecodeError,
        OSError,
        ValueError,
    ) as exc:
        raise _fail(display, exc) from None
    _no_index_taken(frame, path, display)
    frame.columns = [str(c).strip() for c in frame.columns]
    return RawTable(path, display, frame, header_lines=1)


def _no_index_taken(frame: pd.DataFrame, path: Path, display: str) -> None:
    """Refuse a CSV whose rows hold more cells than its header names columns.

    pandas reads such a file, when all its rows are alike (a separator at the end of every
    line, a header missing a name), with the first cells of each row as the index: every
    column moves one place, and the checks blamed the wrong columns ("column 'run': must be
    a whole number: '0.134'", or a last column of empty values). pandas gives such a frame
    an index of those cells instead of a row range, which is how it is found here.
    """
    if isinstance(frame.index, pd.RangeIndex) or not len(frame):
        return
    columns = frame.shape[1]
    raise InputError(
        Problem(
            RawTable(path, display, frame, header_lines=1).where(0),
            f"{columns + frame.index.nlevels} cells, but the header names {columns} columns; "
            "a row may not hold more cells than the header (a separator at the end of every "
            "line? a column without a name in the header?)",
        )
    )


_RAGGED_PANDAS = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
_RAGGED_ARROW = re.compile(r"Expected (\d+) columns, got (\d+): (.*)", re.S)
_RAGGED_HINT = (
    "a row may not hold more cells than the header (a value with the separator in it, not "
    "quoted? a stray separator?)"
)


def _ragged(display: str, message: str) -> Problem | None:
    """A row longer than the header, in the words of :func:`_no_index_taken` (pandas said
    "Error tokenizing data. C error: Expected 7 fields in line 5, saw 8"; pyarrow
    "CSV parse error: Expected 7 columns, got 8: <the row>"), or None."""
    if found := _RAGGED_PANDAS.search(message):
        expected, line, saw = found.groups()
        return Problem(
            f"{display}, row {int(line) - 1} (line {line})",
            f"{saw} cells, but the header names {expected} columns; {_RAGGED_HINT}",
        )
    if found := _RAGGED_ARROW.search(message):
        expected, got, row = found.groups()
        shown = row.strip().splitlines()[0][:200] if row.strip() else ""
        return Problem(
            display,
            f"a row holds {got} cells, but the header names {expected} columns ('{shown}'); "
            + _RAGGED_HINT,
        )
    return None


def _fail(display: str, exc: BaseException) -> InputError:
    ragged = _ragged(display, str(exc))
    if ragged is not None:
        return InputError(ragged)
    if isinstance(exc, UnicodeDecodeError):
        detail = _not_utf8(exc)
    elif isinstance(exc, pd.errors.EmptyDataError):  # pandas: "No columns to parse from file"
        detail = "the file is empty (not even a header line)"
    else:
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return InputError(Problem(display, f"cannot read the file: {detail}"))


def _not_utf8(exc: UnicodeDecodeError) -> str:
    """What a file that is not UTF-8 is, and what to do. Python's own words ("'utf-8' codec
    can't decode byte 0xc4 in position 0: unexpected end of data") gave a position in the
    parser's buffer, not in the file, and no remedy."""
    data = exc.object if isinstance(exc.object, bytes) else b""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        what = "UTF-16 text"
    elif exc.start < len(data):
        what = f"not UTF-8 text (byte 0x{data[exc.start]:02X}: Latin-1 or a Windows code page?)"
    else:
        what = "not UTF-8 text"
    return f"{what}; save it as UTF-8 (in a spreadsheet: 'CSV UTF-8')"


_READ_ERRORS = (
    pd.errors.ParserError,
    pd.errors.EmptyDataError,
    UnicodeDecodeError,
    OSError,
    ValueError,
)


def iter_tables(
    path: Path,
    display: str,
    separator: str | None,
    columns: Callable[[list[str]], list[str] | None] | None = None,
    chunk_rows: int | None = None,
    skip: int = 0,
) -> Iterator[RawTable]:
    """Read one CSV or Parquet file in pieces of at most about ``chunk_rows`` rows.

    Parameters
    ----------
    columns : callable, optional
        Given the file's column names, returns the ones to read (None: all). Reading only
        the used columns is what keeps a wide file's chunks small.
    chunk_rows : int, optional
        Rows per piece (default :data:`CHUNK_ROWS`; a CSV piece may hold a few more rows,
        up to the end of the parser's block).
    skip : int
        CSV: data rows already read another way (:func:`typed_csv_batches`), not yielded
        again; row numbers stay the file's.

    Yields
    ------
    RawTable
        One per piece, with ``first_row`` set; CSV cells are text (Arrow-backed strings,
        never Python objects, so the checks can quote them), Parquet keeps its types, with
        text columns as categoricals (Parquet's own dictionary: one code per row). A file
        with no data rows yields one empty piece.

    Notes
    -----
    CSV files with a one-character separator are parsed by pyarrow's multi-threaded CSV
    reader, every cell as text. If pyarrow cannot parse the file (a row with too many
    cells, text that is not UTF-8, …), the rest of the file is read by pandas instead, whose
    messages name the offending line, so a bad file gets the same message either way.
    """
    chunk_rows = chunk_rows or CHUNK_ROWS
    name = path.name.lower()
    if name.endswith(".parquet"):
        yield from _parquet_tables(path, display, columns, chunk_rows)
        return
    if not name.endswith(SUPPORTED_SUFFIXES):
        raise InputError(
            Problem(
                display, f"unsupported file type; reportgen reads {', '.join(SUPPORTED_SUFFIXES)}"
            )
        )
    sep, names = csv_header(path, display, separator)
    options = _pandas_options(sep)
    wanted = columns(names) if columns is not None else None
    use = (
        list(range(len(names)))
        if wanted is None
        else [i for i, c in enumerate(names) if c in set(wanted)]
    )
    done = skip
    if fast_separator(sep):
        try:
            for raw in _arrow_csv_tables(path, display, sep, names, use, chunk_rows, skip):
                yield raw
                done += len(raw.frame)
            return
        except (pa.ArrowException, UnicodeDecodeError, OSError, ValueError):
            pass  # pandas reads the rest and names the offending line
    yield from _pandas_csv_tables(path, display, names, use, chunk_rows, options, skip=done)


def _pandas_options(sep: str) -> dict[str, Any]:
    return {
        "sep": sep,
        "keep_default_na": False,
        "na_values": [],
        "skipinitialspace": True,
        "engine": "python" if len(sep) > 1 else "c",
    }


def fast_separator(sep: str) -> bool:
    """Whether pyarrow's CSV reader can split the file's lines (one plain character)."""
    return len(sep) == 1 and sep not in '"\n\r'


def csv_header(path: Path, display: str, separator: str | None) -> tuple[str, list[str]]:
    """A CSV file's separator (given, or by its suffix) and column names (stripped)."""
    sep = (
        separator
        if separator is not None
        else ("\t" if path.name.lower().endswith(".tsv") else ",")
    )
    try:
        header = pd.read_csv(path, nrows=0, **_pandas_options(sep))
        # The header line as cells: pandas renames a repeated name (dim, dim.1), which
        # would hide that the file names a column twice.
        line = pd.read_csv(path, nrows=1, header=None, dtype=str, **_pandas_options(sep))
    except _READ_ERRORS as exc:
        raise _fail(display, exc) from None
    repeated = repeated_columns([str(c).strip() for c in line.iloc[0]] if len(line) else [])
    if repeated:
        raise InputError([Problem(display, message) for message in repeated])
    return sep, [str(c).strip() for c in header.columns]


def repeated_columns(names: Sequence[str], used: Mapping[str, str] | None = None) -> list[str]:
    """What is wrong with a header that names a column more than once: one message per
    repeated name (of those ``used`` maps to, canonical name → column, if given); empty
    names (cells of a trailing separator) do not count. Which of the columns holds the values
    a reader keeps cannot be told, so a repeated name is refused rather than guessed."""
    messages = []
    wanted = None if used is None else {column: name for name, column in used.items()}
    for column in dict.fromkeys(n for n in names if n and (wanted is None or n in wanted)):
        places = [str(i + 1) for i, n in enumerate(names) if n == column]
        if len(places) > 1:
            read_as = (
                f" (read as '{wanted[column]}')" if wanted and wanted[column] != column else ""
            )
            messages.append(
                f"the header names column '{column}'{read_as} {len(places)} times (columns "
                f"{', '.join(places)}); rename all but one"
            )
    return messages


def typed_csv_batches(
    path: Path, sep: str, names: list[str], types: Mapping[str, pa.DataType]
) -> Iterator[tuple[int, pa.RecordBatch]]:
    """The columns ``types`` names of a CSV file, converted by pyarrow's reader as it parses.

    ``types`` maps column names (of ``names``, the header's, all distinct) to Arrow types:
    dictionary-encoded text for names, ``float64`` for numbers. Yields each batch with the
    file row of its first row. A cell that does not convert (empty, not a number, …) raises
    :class:`pyarrow.ArrowInvalid` when its block is read: the caller then reads the rest of
    the file as text (:func:`iter_tables` with ``skip``), whose checks name the cell.
    """
    from pyarrow import csv

    reader = csv.open_csv(
        pa.input_stream(str(path)),  # decompresses .gz (and .bz2, .zst) by its suffix
        read_options=csv.ReadOptions(
            column_names=names, skip_rows=1, block_size=CSV_BLOCK_BYTES, use_threads=True
        ),
        parse_options=csv.ParseOptions(delimiter=sep),
        convert_options=csv.ConvertOptions(
            include_columns=list(types),
            column_types=dict(types),
            null_values=[],
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
        ),
    )
    first = 0
    for batch in reader:
        yield first, batch
        first += batch.num_rows


def parquet_batches(
    path: Path,
    display: str,
    columns: Callable[[list[str]], list[str] | None] | None,
    chunk_rows: int | None = None,
) -> Iterator[tuple[int, pa.RecordBatch]]:
    """A Parquet file's record batches of at most ``chunk_rows`` rows, with the file row of
    each batch's first row; text columns stay dictionary-encoded (one code per row).

    A file with no data rows yields nothing. Read failures become an :class:`InputError`
    naming the file, as in :func:`iter_tables`.
    """
    try:
        schema = pq.read_schema(path)
        names = list(schema.names)
        wanted = columns(names) if columns is not None else None
        # Text columns stay dictionary-encoded: names become categoricals, never Python strings.
        text = [
            f.name
            for f in schema
            if (pa.types.is_string(f.type) or pa.types.is_large_string(f.type))
            and (wanted is None or f.name in wanted)
        ]
        # pre_buffer=False: pyarrow would otherwise hold a whole row group's column chunks
        # ahead of decoding (about 0.26 GB more at the peak for 28.8 M records, and more CPU).
        parquet = pq.ParquetFile(path, read_dictionary=text, pre_buffer=False)
        first = 0
        rows = min(chunk_rows or CHUNK_ROWS, PARQUET_BATCH_ROWS)
        for batch in parquet.iter_batches(batch_size=rows, columns=wanted):
            yield first, batch
            first += batch.num_rows
    except InputError:
        raise
    except (*_READ_ERRORS, Exception) as exc:  # pyarrow raises its own error types
        raise _fail(display, exc) from None


def parquet_piece(path: Path, display: str, first: int, batch: pa.RecordBatch) -> RawTable:
    """One Parquet batch as a piece for the checks (text columns as categoricals)."""
    try:
        frame = batch.to_pandas()
    except Exception as exc:  # pyarrow raises its own error types
        raise _fail(display, exc) from None
    frame.index = pd.RangeIndex(len(frame))
    return RawTable(path, display, frame, header_lines=0, first_row=first)


def _parquet_tables(
    path: Path,
    display: str,
    columns: Callable[[list[str]], list[str] | None] | None,
    chunk_rows: int,
) -> Iterator[RawTable]:
    empty = True
    for first, batch in parquet_batches(path, display, columns, chunk_rows):
        empty = False
        yield parquet_piece(path, display, first, batch)
    if empty:
        names = list(pq.read_schema(path).names)
        wanted = columns(names) if columns is not None else None
        yield RawTable(path, display, pd.DataFrame(columns=wanted or names), header_lines=0)


def _arrow_csv_tables(
    path: Path,
    display: str,
    sep: str,
    names: list[str],
    use: list[int],
    chunk_rows: int,
    skip: int = 0,
) -> Iterator[RawTable]:
    """CSV through pyarrow: every used column as text; pieces of about ``chunk_rows`` rows,
    from data row ``skip`` on."""
    from pyarrow import csv

    positional = [f"c{i}" for i in range(len(names))]
    reader = csv.open_csv(
        pa.input_stream(str(path)),  # decompresses .gz (and .bz2, .zst) by its suffix
        read_options=csv.ReadOptions(
            column_names=positional,
            skip_rows=1,
            skip_rows_after_names=skip,
            block_size=CSV_BLOCK_BYTES,
            use_threads=True,
        ),
        parse_options=csv.ParseOptions(delimiter=sep),
        convert_options=csv.ConvertOptions(
            include_columns=[positional[i] for i in use],
            column_types={positional[i]: pa.string() for i in use},
            null_values=[],
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
        ),
    )
    kept = [names[i] for i in use]
    first = skip
    pending: list[pa.RecordBatch] = []
    size = 0

    def piece(batches: list[pa.RecordBatch], first: int) -> RawTable:
        table = pa.Table.from_batches(batches, schema=reader.schema)
        frame = table.to_pandas(types_mapper=_ARROW_TEXT.get, self_destruct=True)
        frame.columns = kept
        return RawTable(path, display, frame, header_lines=1, first_row=first)

    for batch in reader:
        pending.append(batch)
        size += batch.num_rows
        if size >= chunk_rows:
            yield piece(pending, first)
            first += size
            pending, size = [], 0
    if pending or first == skip == 0:
        yield piece(pending, first)


_ARROW_TEXT = {pa.string(): pd.ArrowDtype(pa.string())}


def _pandas_csv_tables(
    path: Path,
    display: str,
    names: list[str],
    use: list[int],
    chunk_rows: int,
    options: dict[str, Any],
    skip: int = 0,
) -> Iterator[RawTable]:
    """CSV through pandas (any separator, a regular expression too), skipping ``skip`` rows.

    ``skip`` rows were already read by the faster reader; they are parsed again but not
    yielded, so every row is checked once and row numbers stay the file's.
    """
    try:
        # The first row alone, all columns: a file of rows longer than its header is named
        # (with usecols, pandas failed on it with "zip() argument 2 is shorter than argument 1").
        _no_index_taken(pd.read_csv(path, dtype=str, nrows=1, **options), path, display)
        reader = pd.read_csv(
            path,
            dtype=str,
            usecols=use if len(use) < len(names) else None,
            chunksize=chunk_rows,
            **options,
        )
        first = 0
        empty = True
        with reader:
            for frame in reader:
                frame.columns = [str(c).strip() for c in frame.columns]
                frame.index = pd.RangeIndex(len(frame))
                rows = len(frame)
                if first + rows > skip:
                    cut = max(0, skip - first)
                    part = frame.iloc[cut:].reset_index(drop=True)
                    empty = False
                    yield RawTable(path, display, part, header_lines=1, first_row=first + cut)
                first += rows
        if empty and skip == 0:
            yield RawTable(
                path, display, pd.DataFrame(columns=[names[i] for i in use]), header_lines=1
            )
    except InputError:
        raise
    except _READ_ERRORS as exc:
        raise _fail(display, exc) from None
