"""Options of the ``u_scores`` analysis (Price, Kumar & Suganthan).

Example (``study.yaml``)::

    - kind: u_scores
      data: runs
      target: 1.0e-8
      failed_tie_break: evaluations_used
      groups: dimension
      weights: {20: 1.0}
      cutpoints: [0.1, 0.5, 1.0]
      alpha: 0.05
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from reportgen.spec.base import (
    MAX_MAGNITUDE,
    AnalysisOptions,
    Budget,
    DataLayout,
    Dimension,
    Fraction,
)


def _reject_bool(value: Any) -> Any:
    """Refuse ``true``/``false`` where a number is expected (pydantic would read it as 1/0)."""
    if isinstance(value, bool):
        raise ValueError(f"expected a number, got the boolean {value!r}")
    return value


class UScoresOptions(AnalysisOptions):
    """Trial-based dominance ranking (U-scores) of speed and accuracy."""

    reads: ClassVar[tuple[DataLayout, ...]] = ("trials", "histories")

    kind: Literal["u_scores"] = Field(description="Analysis kind: U-scores (Price et al.).")
    target: float = Field(
        ge=-MAX_MAGNITUDE,
        le=MAX_MAGNITUDE,
        description="Error value a trial must reach (value ≤ target) to count as a success; "
        "the CEC 2022 competition used 1e-8. With `histories` the target is applied to the "
        "best-so-far curves to find each trial's evaluations to target.",
    )
    failed_tie_break: Literal["evaluations_used", "none"] = Field(
        default="evaluations_used",
        description="Two failed trials with equal final error: `evaluations_used` — the one "
        "that used fewer evaluations wins (the CEC 2022 organisers' rule; with histories: the "
        "one that reached that error first); `none` — half a point each.",
    )
    groups: Literal["dimension", "none"] = Field(
        default="dimension",
        description="Totals per dimension and overall (`dimension`), or one total over every "
        "problem instance (`none`).",
    )
    weights: dict[Dimension, Annotated[float, Field(gt=0, le=1e6)]] | None = Field(
        default=None,
        min_length=1,
        description="Optional weight per dimension for the weighted total, e.g. {20: 2.0}; "
        "dimensions not listed weigh 1. Needs `groups: dimension`.",
    )
    cutpoints: list[Annotated[float, Field(gt=0, le=1)]] | None = Field(
        default=None,
        min_length=1,
        description="Optional fractions of the budget in (0, 1], increasing, at which U-scores "
        "and ranks are recomputed from the trials' states (needs `histories` data).",
    )
    budget: Budget | dict[Dimension, Budget] | None = Field(
        default=None,
        description="Evaluation budget: one number, or one per dimension. With histories it "
        "defines the end of each trial (states at cut-point c are taken at c·budget); default: "
        "the largest evaluation count recorded in that dimension (a lower bound of the true "
        "budget; the report says so). With trials it is only used to check evaluations to "
        "target.",
    )
    alpha: Fraction = Field(
        default=0.05,
        description="Significance level of the pairwise two-sided Mann–Whitney tests "
        "(win/tie/loss counts).",
    )

    @field_validator("target", "alpha", mode="before")
    @classmethod
    def _numbers_are_not_booleans(cls, value: Any) -> Any:
        return _reject_bool(value)

    @field_validator("target")
    @classmethod
    def _target_finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError(f"target must be a finite number, got {value!r}")
        return value

    @field_validator("weights", mode="before")
    @classmethod
    def _weights_not_booleans(cls, value: Any) -> Any:
        if isinstance(value, dict):
            for key, weight in value.items():
                _reject_bool(key)
                _reject_bool(weight)
        return value

    @field_validator("cutpoints", mode="before")
    @classmethod
    def _cutpoints_not_booleans(cls, value: Any) -> Any:
        if isinstance(value, list):
            for item in value:
                _reject_bool(item)
        return value

    @field_validator("cutpoints")
    @classmethod
    def _cutpoints_increasing(cls, value: list[float] | None) -> list[float] | None:
        # The bounds (0, 1] and "at least one" are declared on the field (the schema shows them).
        if value is not None and any(b <= a for a, b in pairwise(value)):
            raise ValueError(f"cutpoints must be strictly increasing, got {value}")
        return value

    @field_validator("budget", mode="before")
    @classmethod
    def _budget_not_boolean(cls, value: Any) -> Any:
        if isinstance(value, dict):
            for key, item in value.items():
                _reject_bool(key)
                _reject_bool(item)
            return value
        return _reject_bool(value)

    @field_validator("budget")
    @classmethod
    def _budget_names_a_dimension(cls, value: float | dict[int, float] | None) -> Any:
        # Each budget's bounds are declared (Budget); a dict cannot be empty.
        if isinstance(value, dict) and not value:
            raise ValueError("budget must name at least one dimension (or be omitted)")
        return value

    @model_validator(mode="after")
    def _weights_need_dimension_groups(self) -> UScoresOptions:
        if self.weights is not None and self.groups != "dimension":
            raise ValueError("weights are per dimension: they need `groups: dimension`")
        return self

    def option_reads(self) -> dict[str, tuple[DataLayout, ...]]:
        # A cut-point is a trial's state at a fraction of the budget: histories only.
        return {"cutpoints": ("histories",)} if self.cutpoints is not None else {}
