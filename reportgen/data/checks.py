"""Cell-level checks that turn raw file columns into clean typed columns.

Each check names the file, the row and the column of every bad cell and quotes its value; at
most :data:`MAX_ROWS_PER_PROBLEM` rows are listed per kind of problem, with a count of the rest,
so a broken file of a million rows gives a readable message. A typed column (Parquet, a
DataFrame) of booleans, dates or time spans mapped to a number is refused as a whole, once
per file: converting it would give 1/0 or nanoseconds that look like data.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from reportgen.data.frames import category_codes
from reportgen.data.read import RawTable
from reportgen.errors import Problem, printed_form, shorten
from reportgen.spec.base import NAME_CONTROL

MAX_ROWS_PER_PROBLEM = 5
MAX_NAME_LENGTH = 1000
"""Longest algorithm name accepted; a longer cell is almost surely a broken file. Algorithms
print by their labels, at most 32 characters (:mod:`reportgen.present.labels`)."""
MAX_PROBLEM_NAME_LENGTH = 100
"""Longest problem name accepted: problem names print in full in tables, sentences and figure
titles (they are the keys of every per-problem table; two long names cut to the same start
and end would merge), so a longer one is refused at its row."""
_MISSING_SPELLINGS = ("nan", "-nan", "none", "null", "<na>", "n/a")
"""Cells that spell a missing value (what pandas or a spreadsheet writes for an empty cell)."""
_EMPTY_NAME = "empty name"
_MARKER_NAME = "a missing-value marker, not a name"
_CONTROL_NAME = "a name with a control character"
"""Why a name is refused: in a column (:func:`text_column`) or alone (:func:`name_fault`)."""


def _long_name(max_length: int) -> str:
    return f"a name longer than {max_length:,} characters"


MAX_WHOLE = 2**53
"""Largest whole number a cell may hold (run, evaluations, dimension): every whole number up
to it is exact as a float and fits a 64-bit integer."""
TOO_MANY = f"too large (at most {MAX_WHOLE:,})"

MAX_MAGNITUDE = 1e300
"""Largest magnitude of any other number (values, statistics, times). The analyses sum runs
(means, mean curves, f(x0) − f): beyond it a sum of a few runs overflows the largest double,
1.8·10³⁰⁸, to ∞ (a mean of 10³⁰⁷ and 10³⁰⁸ crashed the perspectives; others printed ∞)."""
TOO_LARGE = (
    "too large (at most ±1e300: sums over runs overflow beyond it; rescale the values, or give "
    "a failed run the value it reached)"
)


def fractional(array: np.ndarray) -> np.ndarray:
    """Positions of the finite values that are not whole numbers (evaluation counts of 51.5):
    one vectorised pass, for the CSV cells and the platform formats' records alike."""
    return np.flatnonzero(np.isfinite(array) & (array != np.round(array)))


def _report(
    raw: RawTable,
    column: str,
    rows: np.ndarray,
    values: pd.Series,
    message: str,
    problems: list[Problem],
) -> None:
    """Add one problem per bad row (first few), then a count of the rest."""
    for row in rows[:MAX_ROWS_PER_PROBLEM]:
        value = values.iloc[int(row)]
        if isinstance(value, np.generic):  # Parquet cells: quote 1.5, not np.float64(1.5)
            value = value.item()
        if isinstance(value, str):
            value = shorten(value)
        problems.append(Problem(raw.where(int(row), column), f"{message}: {value!r}"))
    if len(rows) > MAX_ROWS_PER_PROBLEM:
        problems.append(
            Problem(
                f"{raw.display}, column '{column}'",
                f"{message} in {len(rows) - MAX_ROWS_PER_PROBLEM} more rows",
            )
        )


def text_column(
    raw: RawTable, column: str, problems: list[Problem], max_length: int = MAX_NAME_LENGTH
) -> pd.Series:
    """A column of names (algorithm, problem): non-empty text; numbers are written as text.

    Returns a categorical: one code per row and each distinct name once, however many
    rows it has (1–2 bytes a row instead of a Python string). The work is done on the
    distinct names, not on the rows: stripping, writing numbers as text, finding empties.
    """
    values = raw.frame[column]
    if isinstance(values.dtype, pd.CategoricalDtype):
        codes = category_codes(values)
        uniques = pd.Series(values.cat.categories)
    else:
        codes, distinct = pd.factorize(values, sort=False, use_na_sentinel=True)
        uniques = pd.Series(distinct)
    if pd.api.types.is_float_dtype(uniques):
        as_int = uniques.dropna()
        if (as_int == np.round(as_int)).all():
            uniques = uniques.astype("Int64")
    text = uniques.astype("string").str.strip().fillna("")
    names, remap = _distinct(text)
    # A missing cell (code −1) or one that is blank after stripping is an empty name.
    blank = np.append(text.to_numpy(dtype=object) == "", True)
    codes = np.where(codes < 0, len(text), codes)
    empty = np.flatnonzero(blank[codes])
    if len(empty):
        _report(raw, column, empty, values, _EMPTY_NAME, problems)
    # Checked per distinct name: a million rows hold a few hundred names.
    for test, message in (
        (text.str.lower().isin(_MISSING_SPELLINGS), _MARKER_NAME),
        # Python's re, not the string column's own engine: pyarrow 15's RE2 refuses the
        # \u escapes of NAME_CONTROL (and the names checked are the few distinct ones).
        (text.map(lambda name: re.search(NAME_CONTROL, name) is not None), _CONTROL_NAME),
        (text.str.len() > max_length, _long_name(max_length)),
    ):
        bad = np.append(test.fillna(False).to_numpy(dtype=bool), False)
        if bad.any():
            _report(raw, column, np.flatnonzero(bad[codes]), values, message, problems)
    remap = np.append(remap, -1).astype(code_dtype(len(names)))
    return pd.Series(pd.Categorical.from_codes(remap[codes], categories=names), index=values.index)


def name_fault(name: str, max_length: int = MAX_NAME_LENGTH) -> str | None:
    """Why :func:`text_column` would refuse this (stripped) name, or None if it would not.

    For the names a platform's files give (an IOHprofiler ``algorithm.name``, a COCO
    ``algId``, a CEC file name), which reach the report without passing through a column:
    the same names are refused, for the same reasons, as in a CSV cell.
    """
    if not name:
        return _EMPTY_NAME
    if name.lower() in _MISSING_SPELLINGS:
        return _MARKER_NAME
    if re.search(NAME_CONTROL, name):
        return _CONTROL_NAME
    if len(name) > max_length:
        return _long_name(max_length)
    return None


def lookalikes(names: Iterable[str], what: str) -> list[str]:
    """A message for every name written several ways among ``names`` (algorithms, problems):
    names that differ but print the same. The report would show two algorithms by one name,
    and nobody could tell which row, curve or verdict is whose. The spellings are shown
    escaped (``ascii``), which is where they differ."""
    by_print: dict[str, list[str]] = {}
    for name in names:
        by_print.setdefault(printed_form(name), []).append(name)
    aliases = (
        ", or merge them with 'aliases:' in the spec's algorithms" if what == "algorithms" else ""
    )
    return [
        f"{what}: '{printed}' is written {len(same)} ways, {' and '.join(map(ascii, same))}, "
        "which print the same (they differ in invisible characters or in how an accent is "
        f"encoded); write them alike in the data{aliases}"
        for printed, same in by_print.items()
        if len(same) > 1
    ]


_NUMBERED = re.compile(r"(\D*)0*(\d+)")
"""A name that is a number, after a prefix without digits: ``01``, ``f01``, ``F7``."""


def same_numbers(names: Iterable[str], what: str) -> list[str]:
    """A message for every number written several ways among ``names``: ``01`` and ``1``,
    ``f01`` and ``f1``. Such names are one problem to the reader but two to the analyses
    (split data, halved run counts), and arise when one file holds the number as text with
    leading zeros and another as a number. A name with digits before its last number
    (``1.01``, ``v2.1``) is a version, not a number, and is left alone."""
    by_number: dict[str, list[str]] = {}
    for name in names:
        match = _NUMBERED.fullmatch(name)
        if match is not None:
            by_number.setdefault(match[1] + match[2], []).append(name)
    return [
        f"{what}: {' and '.join(map(repr, same))} are the one number written "
        f"{len(same)} ways (leading zeros: text in one file, a number in another?); write "
        "them alike in the data"
        for same in by_number.values()
        if len(same) > 1
    ]


def code_dtype(categories: int) -> type[np.signedinteger]:
    """The smallest integer type for category codes (−1 included): 1 byte a row for ≤ 127 names."""
    for kind in (np.int8, np.int16, np.int32):
        if categories < np.iinfo(kind).max:
            return kind
    return np.int64


def _distinct(text: pd.Series) -> tuple[pd.Index, np.ndarray]:
    """Distinct stripped names, and for each input name the position of its stripped form."""
    remap, names = pd.factorize(text.astype(object), sort=False)
    return pd.Index(names, dtype=object), remap.astype(np.int64)


def _parse_all(values: pd.Series) -> pd.Series | None:
    """All cells as floats in one pyarrow cast, or None when some cell is not a plain number.

    The cast parses exactly what the cell-by-cell path accepts for well-formed numbers (with
    ``inf``/``nan`` spellings checked afterwards by the caller), so it only skips the slow
    path; any empty or malformed cell makes it give up, and the slow path then names the rows.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        if isinstance(values.dtype, pd.ArrowDtype):  # pyarrow's CSV reader: no conversion
            strings = values.array.__arrow_array__()
        else:
            strings = pa.array(values.astype(object).to_numpy(), type=pa.string(), from_pandas=True)
        if strings.null_count:
            return None
        floats = pc.cast(pc.utf8_trim_whitespace(strings), pa.float64())
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        return None
    return pd.Series(floats.to_numpy(zero_copy_only=False), index=values.index, dtype=float)


_NOT_NUMBERS = {"b": "true/false values", "M": "dates/times", "m": "time spans"}
"""Column types (by dtype kind) that a typed file (Parquet, a DataFrame) may store in a
column mapped to a number, and that are no numbers of reportgen's."""


def _objects_not_numbers(values: pd.Series) -> tuple[str, str] | None:
    """What a column of Python objects holds (and their type) when it is dates or times (a
    Parquet ``date32`` column arrives as ``datetime.date`` objects, not as a datetime dtype),
    else None: such a column was refused row by row ("not a number: datetime.date(2020, 1,
    1)" five times and a count), where a datetime column is refused once, as the wrong
    column mapped."""
    if values.dtype != object:
        return None
    first = values.first_valid_index()
    sample = None if first is None else values.loc[first]
    if isinstance(sample, (dt.date, dt.time)):
        return "dates/times", type(sample).__name__
    if isinstance(sample, dt.timedelta):
        return "time spans", type(sample).__name__
    return None


def numbers_clean(
    array: np.ndarray,
    *,
    allow_inf: bool = False,
    integer: bool = False,
    minimum: float | None = None,
    **_: object,
) -> bool:
    """Would :func:`number_column` accept every cell of this numeric column as it is?

    For a column that already holds numbers (a Parquet file's integer or float column
    without nulls): True when no cell is NaN, a disallowed infinity, below ``minimum`` or
    (with ``integer``) fractional or beyond :data:`MAX_WHOLE` (without, beyond
    :data:`MAX_MAGNITUDE`) — then the column can be used
    without :func:`number_column`'s per-cell work. False sends it to :func:`number_column`,
    which names the offending rows. The options are :func:`number_column`'s (the others are
    ignored: a NaN, empty under ``empty_as_inf`` or not, already answers False).
    """
    if not len(array):
        return True
    if array.dtype.kind in "iu":  # whole and finite by type: only the range to check
        low, high = array.min(), array.max()
        return (minimum is None or low >= minimum) and (
            not integer or (low >= -MAX_WHOLE and high <= MAX_WHOLE)
        )
    finite = np.isfinite(array)
    if not finite.all():
        if not allow_inf or np.isnan(array).any() or (array == -np.inf).any():
            return False
        array = array[finite]
        if not len(array):
            return True
    if minimum is not None and array.min() < minimum:
        return False
    if not integer:
        return float(np.abs(array).max()) <= MAX_MAGNITUDE
    return bool((array == np.round(array)).all()) and float(np.abs(array).max()) <= MAX_WHOLE


def number_column(
    raw: RawTable,
    column: str,
    problems: list[Problem],
    *,
    allow_inf: bool = False,
    integer: bool = False,
    minimum: float | None = None,
    inf_meaning: str = "",
    empty_as_inf: bool = False,
) -> pd.Series:
    """Parse a numeric column; NaN, empty, non-numbers, disallowed ∞ and out-of-range are errors.

    Parameters
    ----------
    allow_inf : bool
        Accept ``inf`` (only where it means "never reached"; ``-inf`` never).
    empty_as_inf : bool
        With ``allow_inf``: an empty cell is ``inf`` ("never reached", the source's
        ``empty_cells: not_reached``), not an error.
    integer : bool
        Values must be whole numbers (evaluation counts, run numbers, dimensions).
    minimum : float, optional
        Smallest allowed value.
    """
    values = raw.frame[column]
    if isinstance(values.dtype, pd.CategoricalDtype):  # text in a Parquet file
        values = values.astype(values.cat.categories.dtype)
    kind = _NOT_NUMBERS.get(values.dtype.kind)
    typed = (kind, str(values.dtype)) if kind is not None else _objects_not_numbers(values)
    if typed is not None:
        kind, type_name = typed
        # pd.to_numeric would make true/false 1/0 and a date its nanoseconds since 1970:
        # numbers without a word, where the file's author mapped the wrong column.
        problem = Problem(
            f"{raw.display}, column '{column}'",
            f"holds {kind} ({type_name}), not numbers; map a numeric column",
        )
        if problem not in problems:  # once per file, not once per piece of it
            problems.append(problem)
        return pd.Series(np.nan, index=values.index, dtype=float)
    fast = (
        _parse_all(values)
        if (values.dtype == object or pd.api.types.is_string_dtype(values))
        else None
    )
    if fast is not None:
        empty = pd.Series(False, index=values.index)
        parsed = fast
        unparsable = np.zeros(len(values), dtype=bool)
    elif values.dtype == object or pd.api.types.is_string_dtype(values):
        cells = values.astype("string").str.strip()
        empty = cells.isna() | (cells == "")
        parsed = pd.to_numeric(cells.where(~empty, None), errors="coerce").astype(float)
        unparsable = (
            ~empty & parsed.isna() & ~cells.str.lower().isin(["nan", "-nan", "+nan"])
        ).to_numpy()
    else:
        empty = values.isna()
        parsed = pd.to_numeric(values, errors="coerce").astype(float)
        unparsable = np.zeros(len(values), dtype=bool)
    if empty_as_inf and allow_inf:
        parsed = parsed.where(~empty, np.inf)
        empty = pd.Series(False, index=values.index)
    empty_rows = np.flatnonzero(empty.to_numpy())
    if len(empty_rows):
        _report(
            raw, column, empty_rows, values, "empty value (every cell needs a number)", problems
        )
    bad = np.flatnonzero(unparsable)
    if len(bad):
        _report(raw, column, bad, values, "not a number", problems)
    array = parsed.to_numpy(dtype=float)
    nan_rows = np.flatnonzero(np.isnan(array) & ~empty.to_numpy() & ~unparsable)
    if len(nan_rows):
        _report(raw, column, nan_rows, values, "NaN is not allowed", problems)
    inf_mask = np.isinf(array) & ((array < 0) | (not allow_inf))
    if inf_mask.any():
        allowed = f" ({inf_meaning})" if allow_inf else ""
        what = (
            "-inf is not allowed" if allow_inf else f"infinite values are not allowed here{allowed}"
        )
        _report(raw, column, np.flatnonzero(inf_mask), values, what, problems)
    finite = np.isfinite(array)
    if minimum is not None:
        low = np.flatnonzero(finite & (array < minimum))
        if len(low):
            _report(raw, column, low, values, f"must be ≥ {minimum:g}", problems)
    if integer:
        fractions = fractional(array)
        if len(fractions):
            _report(raw, column, fractions, values, "must be a whole number", problems)
        huge = np.flatnonzero(finite & (np.abs(array) > MAX_WHOLE))
        if len(huge):
            _report(raw, column, huge, values, TOO_MANY, problems)
    else:
        huge = np.flatnonzero(finite & (np.abs(array) > MAX_MAGNITUDE))
        if len(huge):
            _report(raw, column, huge, values, TOO_LARGE, problems)
    return pd.Series(array, index=values.index)


ORDER_TOLERANCE = 1e-3
"""Relative slack of :func:`statistics_in_order`: published statistics are rounded, each
column perhaps to its own precision (a minimum printed to five digits can exceed a maximum
printed to four by half a unit of the fourth); a swapped column is off by far more."""


def statistics_in_order(
    raw: RawTable, mapping: Mapping[str, str], frame: pd.DataFrame, problems: list[Problem]
) -> None:
    """Each summary row's statistics in the order one sample's are: minimum ≤ median ≤
    maximum, minimum ≤ mean ≤ maximum (within :data:`ORDER_TOLERANCE`; an infinite mean, a
    cost never reached, is not compared). A column mapped to the wrong statistic — ``minimum``
    and ``maximum`` swapped — was read silently, and the accuracy and robustness rankings
    were each other's.

    Parameters
    ----------
    raw : RawTable
        The file, for naming rows.
    mapping : mapping
        Canonical statistic → the file's column.
    frame : DataFrame
        The checked number columns, by canonical name (rows as in ``raw``).
    problems : list of Problem
        Appended to: one per row out of order (the first few), named at the row and column.
    """
    low, high = frame.get("minimum"), frame.get("maximum")
    pairs = [("minimum", "maximum")] if low is not None and high is not None else []
    pairs += [(s, "maximum") for s in ("median", "mean") if s in frame and high is not None]
    pairs += [("minimum", s) for s in ("median", "mean") if s in frame and low is not None]
    for lower, upper in pairs:
        a = frame[lower].to_numpy(dtype=float)
        b = frame[upper].to_numpy(dtype=float)
        with np.errstate(invalid="ignore"):
            slack = ORDER_TOLERANCE * np.maximum(np.abs(a), np.abs(b))
            rows = np.flatnonzero(np.isfinite(a) & np.isfinite(b) & (a > b + slack))
        if len(rows):
            _report(
                raw,
                mapping[lower],
                rows,
                frame[lower],
                f"the {lower} is above the row's {upper} in column '{mapping[upper]}' (a "
                "column mapped to the wrong statistic?)",
                problems,
            )
