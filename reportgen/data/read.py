"""Reading data files: CSV (optionally gzip-compressed) and Parquet.

Files are read as they are — every column as text first for CSV — so that the checks in
:mod:`reportgen.data.checks` can quote the exact bad cell with its row and column instead of
letting a parser fail with a traceback.
"""

from __future__ import annotations

import glob
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from reportgen.errors import InputError, Problem

SUPPORTED_SUFFIXES = (".csv", ".csv.gz", ".tsv", ".txt", ".parquet")


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
    """

    path: Path
    display: str
    frame: pd.DataFrame
    header_lines: int

    def where(self, row: int, column: str | None = None) -> str:
        """``data/runs.csv, row 17 (line 18), column 'value'`` for 0-based row ``row``."""
        text = f"{self.display}, row {row + 1}"
        if self.header_lines:
            text += f" (line {row + 1 + self.header_lines})"
        if column is not None:
            text += f", column '{column}'"
        return text


def resolve_paths(patterns: list[str], base_dir: Path, where: str) -> list[tuple[Path, str]]:
    """Expand paths and globs relative to the spec folder; every pattern must match a file."""
    found: list[tuple[Path, str]] = []
    problems: list[Problem] = []
    for pattern in patterns:
        if any(ch in pattern for ch in "*?["):
            matches = sorted(glob.glob(str(base_dir / pattern), recursive=True))
            files = [Path(m) for m in matches if Path(m).is_file()]
            if not files:
                problems.append(
                    Problem(where, f"the pattern '{pattern}' matches no file in {base_dir}")
                )
            found.extend(
                (f, str(f.relative_to(base_dir)) if f.is_relative_to(base_dir) else str(f))
                for f in files
            )
        else:
            path = (base_dir / pattern).resolve()
            if not path.is_file():
                kind = "is a folder, not a file" if path.is_dir() else "does not exist"
                problems.append(
                    Problem(where, f"the data file '{pattern}' {kind} (looked for {path})")
                )
            else:
                found.append((path, pattern))
    if problems:
        raise InputError(problems)
    return found


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
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(Problem(display, f"cannot read the file: {detail}")) from None
    frame.columns = [str(c).strip() for c in frame.columns]
    return RawTable(path, display, frame, header_lines=1)
