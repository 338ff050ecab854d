"""Turning result tables into JSON-ready data: ∞ as "inf", NaN as null, numpy scalars as Python."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd


def json_value(value: Any) -> Any:
    """A JSON-safe scalar: ``inf`` → ``"inf"``, ``-inf`` → ``"-inf"``, NaN/NA → ``None``."""
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if value is pd.NA or value is None:
        return None
    return value


RESULTS_FORMAT = 1
"""The layout of ``results.json`` (its ``reportgen.format``). Raised when a key changes meaning
or is removed, not when one is added (a reader ignores keys it does not know): a reader refuses
a document of a higher format, whose keys it may read wrongly (:func:`format_problem`)."""


def format_problem(document: dict[str, Any]) -> str | None:
    """Why this reportgen cannot read ``document`` (a parsed results.json), or ``None``.

    A document without a ``reportgen`` block (edited by hand, or written by another tool from
    the documented keys) is read; one whose ``reportgen.format`` is not a whole number from 1
    to :data:`RESULTS_FORMAT` is not, and the message names the version that wrote it.

    Examples
    --------
    >>> format_problem({"reportgen": {"version": "9.0", "format": 1}}) is None
    True
    >>> format_problem({"reportgen": {"version": "9.0", "format": 7}})[:43]
    'key reportgen.format: written by reportgen '
    """
    block = document.get("reportgen")
    if block is None:
        return None
    if not isinstance(block, dict):
        return "key reportgen: should be an object with the version and format that wrote it"
    number = block.get("format")
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        return f"key reportgen.format: should be a whole number from 1, not {number!r}"
    if number > RESULTS_FORMAT:
        writer = block.get("version")
        by = f"reportgen {writer}" if isinstance(writer, str) else "a newer reportgen"
        return (
            f"key reportgen.format: written by {by} in results format {number}; this reportgen "
            f"reads format {RESULTS_FORMAT} or lower: upgrade reportgen to read it"
        )
    return None


JSON_LIST_LIMIT = 2000
"""Most entries a list in ``results.json`` holds. Longer lists — relation edges, flipped pairs,
pairwise comparisons: O(k²) for k algorithms, 124 750 pairs at 500 — keep their first entries
(in the order of the CSV table that holds them all, ``tables/<id>/*.csv``), and the document's
``truncated`` block names each cut list with its full length, so that ``results.json`` stays a
few megabytes at any size of study."""


class CutList(list[Any]):
    """The first entries of a longer list, which had ``total`` entries in all."""

    def __init__(self, entries: list[Any], total: int) -> None:
        super().__init__(entries)
        self.total = total


def frame_records(frame: pd.DataFrame, limit: int = JSON_LIST_LIMIT) -> list[dict[str, Any]]:
    """A table as a list of JSON-safe row dicts, in row order: at most ``limit`` rows (then a
    :class:`CutList` that knows the table's length; only the rows kept are converted)."""
    shown = frame if len(frame) <= limit else frame.iloc[:limit]
    # Column by column, then zipped into rows: a numeric column converts in one ``tolist``
    # with only its non-finite entries replaced (the values :func:`json_value` gives), not
    # one Python call per cell through pandas' boxing of every row.
    names = [str(k) for k in shown.columns]
    columns = [_json_column(shown.iloc[:, i]) for i in range(shown.shape[1])]
    records: list[dict[str, Any]] = (
        [dict(zip(names, row, strict=True)) for row in zip(*columns, strict=True)]
        if columns
        else [{} for _ in range(len(shown))]
    )
    return records if len(frame) <= limit else CutList(records, len(frame))


def _json_column(column: pd.Series) -> list[Any]:
    """The entries of one column as :func:`json_value` makes them, in row order."""
    kind = column.dtype.kind if isinstance(column.dtype, np.dtype) else ""
    if kind in ("i", "u", "b"):
        return column.to_numpy().tolist()  # Python ints and bools
    if kind == "f":
        values = column.to_numpy()
        out: list[Any] = values.tolist()
        for i in np.flatnonzero(~np.isfinite(values)).tolist():
            out[i] = json_value(values[i])  # None for NaN, "inf" / "-inf"
        return out
    return [json_value(v) for v in column.tolist()]


def cap_lists(value: Any, path: str, cut: dict[str, int], limit: int = JSON_LIST_LIMIT) -> Any:
    """``value`` with every list longer than ``limit`` cut to its first ``limit`` entries.

    Each cut list's dotted path (under ``path``) and full length are added to ``cut``.
    """
    if isinstance(value, dict):
        return {k: cap_lists(v, f"{path}.{k}", cut, limit) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        if isinstance(value, CutList):
            cut[path] = value.total
        elif len(value) > limit:
            cut[path] = len(value)
            value = value[:limit]
        return [cap_lists(v, f"{path}[{i}]", cut, limit) for i, v in enumerate(value)]
    return value
