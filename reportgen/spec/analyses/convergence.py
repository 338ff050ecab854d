"""Options of the ``convergence`` analysis: median best-so-far curves and fixed-budget tables.

Example (``study.yaml``)::

    - kind: convergence
      data: curves
      problems: [F1, F6, F12]      # default: every problem
      budgets: {10: [20000, 200000], 20: [100000, 1000000]}
"""

from __future__ import annotations

import math
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator

from reportgen.spec.base import AnalysisOptions, Budget, DataLayout, Dimension, listed_once


def _check_budget(value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"a budget must be a number of evaluations, got {value!r}")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"a budget must be a finite number > 0, got {value!r}")


class ConvergenceOptions(AnalysisOptions):
    """Median best-so-far value against evaluations, per problem, with an IQR band."""

    reads: ClassVar[tuple[DataLayout, ...]] = ("histories",)

    kind: Literal["convergence"] = Field(
        description="Analysis kind: convergence plots (median best-so-far value against "
        "evaluations with the interquartile band) and fixed-budget tables."
    )
    problems: list[str] | None = Field(
        default=None,
        min_length=1,
        description="The problems to plot (names as in the data; each in every dimension it "
        "has). Default: every problem. The fixed-budget tables always cover every problem.",
    )
    band: Literal["iqr", "none"] = Field(
        default="iqr",
        description="The band around each median curve: `iqr` (first to third quartile of the "
        "runs) or `none`.",
    )
    show_mean: bool = Field(
        default=False, description="Also draw each algorithm's mean curve (dotted)."
    )
    y_scale: Literal["auto", "log", "linear"] = Field(
        default="auto",
        description="The value axis: `auto` — logarithmic when a problem's positive values "
        "span more than two decades and none is negative, else linear. On a log axis, values "
        "of 0 are drawn on the panel's floor (a decade below the smallest positive value).",
    )
    budgets: list[Budget] | dict[Dimension, list[Budget]] | None = Field(
        default=None,
        description="Evaluation counts of the fixed-budget tables (median value of the runs "
        "at each): one list for every dimension, or one list per dimension. Default: the "
        "largest evaluation count recorded in each dimension.",
    )
    columns: int = Field(
        default=4, ge=1, le=6, description="Panels per row of the small-multiples grid."
    )
    # Four rows of four fill a printed page (with legend and caption); a grid of three rows
    # alone on a page left 40 % of it blank (weasyprint has no floats to fill it).
    panels_per_figure: int = Field(
        default=16, ge=1, le=36, description="Problems per figure; more make more figures."
    )

    @field_validator("budgets", mode="before")
    @classmethod
    def _positive_budgets(cls, value: Any) -> Any:
        lists = value.values() if isinstance(value, dict) else [value]
        for budgets in lists:
            if budgets is None:
                continue
            if not isinstance(budgets, list) or not budgets:
                raise ValueError("budgets: give a non-empty list of evaluation counts")
            for b in budgets:
                _check_budget(b)
        return value

    @field_validator("budgets")
    @classmethod
    def _distinct_budgets(
        cls, value: list[float] | dict[int, list[float]] | None
    ) -> list[float] | dict[int, list[float]] | None:
        # A budget listed twice gave every row of the fixed-budget table twice.
        lists = value.items() if isinstance(value, dict) else [(None, value or [])]
        for dimension, budgets in lists:
            listed_once(
                budgets, "budgets" if dimension is None else f"budgets of dimension {dimension}"
            )
        return value

    @field_validator("problems")
    @classmethod
    def _distinct_problems(cls, value: list[str] | None) -> list[str] | None:
        # [f1, f1] was merged silently into one panel, while a budget given twice is refused.
        return listed_once(value, "problems")
