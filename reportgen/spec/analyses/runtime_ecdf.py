"""Options of the ``runtime_ecdf`` analysis: COCO's expected running time (ERT) and runtime
ECDFs over function–target pairs (Hansen et al., COCO: Performance assessment, Eq. 1)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, field_validator

from reportgen.spec.base import AnalysisOptions, DataLayout, PositiveValue, listed_once


class RuntimeEcdfOptions(AnalysisOptions):
    """ERT per function, dimension and target; runtime ECDFs as COCO plots them."""

    reads: ClassVar[tuple[DataLayout, ...]] = ("histories",)

    kind: Literal["runtime_ecdf"]
    targets: list[PositiveValue] | None = Field(
        default=None,
        min_length=1,
        description="Targets Δf (> 0) of the ECDF and the ERT table: a run reaches Δf at its "
        "first record with value ≤ Δf. Default: COCO's 51 targets 10^(2 − k/5), k = 0 … 50 "
        "(10² … 10⁻⁸).",
    )
    table_targets: list[PositiveValue] = Field(
        default=[1e-1, 1e-7],
        min_length=1,
        description="Targets Δf shown in the report's ERT tables (every target is in "
        "tables/<id>/ert.csv).",
    )
    per_dimension: bool = Field(
        default=True,
        description="One ECDF per dimension (COCO's plots); false: one ECDF over all "
        "problems, each run's evaluations divided by its own dimension.",
    )

    @field_validator("targets", "table_targets")
    @classmethod
    def _distinct(cls, values: list[float] | None) -> list[float] | None:
        # Each target's bounds are declared (PositiveValue).
        return listed_once(values, "targets")
