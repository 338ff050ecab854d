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
    records = [
        {str(k): json_value(v) for k, v in row.items()} for row in shown.to_dict(orient="records")
    ]
    return records if len(frame) <= limit else CutList(records, len(frame))


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
