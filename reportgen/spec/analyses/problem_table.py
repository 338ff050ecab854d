"""Options of the ``problem_table`` analysis: the per-problem comparison table papers print.

Example (``study.yaml``)::

    - kind: problem_table
      data: runs
      reference: jSO            # or `best`
      statistics: [mean_sd]     # also median_iqr, best, worst
      correction: holm
      alpha: 0.05
"""

from __future__ import annotations

import math
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, field_validator

from reportgen.spec.base import (
    MAX_MAGNITUDE,
    AnalysisOptions,
    Budget,
    DataLayout,
    Dimension,
    listed_once,
)

Statistic = Literal["mean_sd", "median_iqr", "best", "worst"]
Correction = Literal["holm", "bonferroni", "none"]


class ProblemTableOptions(AnalysisOptions):
    """Per problem and algorithm: summary statistics, rank-sum markers, W/T/L and A12."""

    reads: ClassVar[tuple[DataLayout, ...]] = ("trials", "histories", "summary")

    kind: Literal["problem_table"] = Field(
        description="Analysis kind: the per-problem comparison table (mean ± SD, +/≈/− markers "
        "from rank-sum tests against a reference, W/T/L, Vargha–Delaney A12)."
    )
    reference: str = Field(
        default="best",
        min_length=1,
        description="The algorithm every other one is tested against: a name from the data, "
        "or `best` — the algorithm with the smallest average rank of the first shown statistic "
        "over the problems (ties: the first in study order).",
    )
    statistics: list[Statistic] = Field(
        default=["mean_sd"],
        min_length=1,
        description="What each cell shows, one line per entry: `mean_sd` (mean ± standard "
        "deviation), `median_iqr` (median and interquartile range), `best` (smallest value of "
        "the runs), `worst` (largest). The first entry decides the bold best-per-row cells and "
        "the `best` reference. Every statistic is in the CSV whatever is shown.",
    )
    correction: Correction = Field(
        default="holm",
        description="Multiple-testing correction of each algorithm's p-values over the "
        "problems: `holm` (Holm's step-down, the default), `bonferroni`, or `none`.",
    )
    alpha: float = Field(
        default=0.05,
        gt=0,
        lt=1,
        description="Significance level of the corrected rank-sum tests (markers and W/T/L).",
    )
    budget: Budget | dict[Dimension, Budget] | None = Field(
        default=None,
        description="With histories: the evaluation count at which each run's value is read "
        "(the value of its last record at or before it), one number or one per dimension. "
        "Default: each run's last record (its final value).",
    )
    value_floor: Annotated[float, Field(ge=-MAX_MAGNITUDE, le=MAX_MAGNITUDE)] | None = Field(
        default=None,
        description="Values below this are raised to it before anything is computed, so that "
        "errors below a competition's precision (CEC: 1e-8) count as equal.",
    )
    digits: int = Field(
        default=3, ge=1, le=8, description="Significant digits of the numbers in the report."
    )

    @field_validator("budget", mode="before")
    @classmethod
    def _budget_numbers(cls, value: Any) -> Any:
        values = value.values() if isinstance(value, dict) else [value]
        for v in values:
            if isinstance(v, bool):
                raise ValueError(f"expected a number, got the boolean {v!r}")
            if isinstance(v, (int, float)) and not (math.isfinite(v) and v > 0):
                raise ValueError(f"a budget must be a finite number > 0, got {v!r}")
        return value

    @field_validator("statistics")
    @classmethod
    def _distinct(cls, values: list[str]) -> list[str]:
        return listed_once(values, "statistics")

    def value_floor_key(self) -> str | None:
        return "value_floor"

    def option_reads(self) -> dict[str, tuple[DataLayout, ...]]:
        needs: dict[str, tuple[DataLayout, ...]] = {}
        if "median_iqr" in self.statistics:  # quartiles need the runs; a summary has none
            needs["statistics"] = ("trials", "histories")
        if self.budget is not None:  # the state of each run at an evaluation count
            needs["budget"] = ("histories",)
        return needs
