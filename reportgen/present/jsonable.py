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


def frame_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A table as a list of JSON-safe row dicts, in row order."""
    return [
        {str(k): json_value(v) for k, v in row.items()} for row in frame.to_dict(orient="records")
    ]
