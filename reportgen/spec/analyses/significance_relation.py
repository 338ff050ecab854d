"""Spec options of the ``significance_relation`` analysis (Köppen & Ohnishi).

Example::

    - kind: significance_relation
      data: runs
      statistic: mean             # mean | median | accuracy | robustness | a summary column
      sigmas: [auto, 10, 60, 100] # auto = the smallest σ at which the relation is cycle-free
      transitive_reduction: false # draw only the Hasse edges
      value_floor: 1.0e-9         # raise values below this to it (zeros are not allowed)
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, StrictBool, StrictFloat, StrictInt, model_validator

from reportgen.spec.base import MAX_MAGNITUDE, AnalysisOptions, DataLayout

Sigma = (
    Literal["auto"]
    | Annotated[StrictInt, Field(gt=0, le=1_000_000)]
    | Annotated[StrictFloat, Field(gt=0, le=1_000_000)]
)
"""A requested significance level: a positive number, or ``"auto"``."""

STATISTICS: tuple[str, ...] = ("mean", "median", "accuracy", "robustness")
"""Statistics that reduce the runs of an algorithm on a problem to one value."""


class SignificanceRelationOptions(AnalysisOptions):
    """Options of the significance-relation analysis (Köppen & Ohnishi §II–III)."""

    reads: ClassVar[tuple[DataLayout, ...]] = ("trials", "histories", "summary")

    kind: Literal["significance_relation"]
    statistic: str = Field(
        default="mean",
        min_length=1,
        description="How one value per algorithm × problem is derived: 'mean', 'median', "
        "'accuracy' (the best run, i.e. the minimum) or 'robustness' (the worst run, the "
        "maximum) of the runs' final values (trials: `value`; histories: each run's last "
        "record). For a summary source these name the columns mean, median, minimum and "
        "maximum; any other name must be a column of the summary table.",
    )
    sigmas: list[Sigma] = Field(
        default_factory=lambda: list[Sigma](["auto"]),
        min_length=1,
        description="Significance levels σ > 0 at which the relation is drawn and its rank "
        "layers listed. 'auto' is the smallest σ at which the relation is cycle-free. The σ "
        "sweep over all levels is always computed, exactly.",
    )
    transitive_reduction: StrictBool = Field(
        default=False,
        description="Draw only the Hasse edges (the transitive reduction; with cycles, that of "
        "the graph of strongly connected components). Tables always list every edge.",
    )
    value_floor: (
        Annotated[StrictInt, Field(gt=0, le=10**18)]
        | Annotated[StrictFloat, Field(gt=0, le=MAX_MAGNITUDE)]
        | None
    ) = Field(
        default=None,
        description="Raise every derived value below this positive floor to the floor, e.g. "
        "1e-9 for errors that reach zero. Award points need positive values.",
    )
    value_shift: (
        Annotated[StrictInt, Field(ge=-(10**18), le=10**18)]
        | Annotated[StrictFloat, Field(ge=-MAX_MAGNITUDE, le=MAX_MAGNITUDE)]
        | None
    ) = Field(
        default=None,
        description="Add this constant to every derived value before the ratios are taken, "
        "e.g. for objective values that can be zero or negative. Changes every ratio.",
    )
    relative_tolerance: StrictInt | StrictFloat = Field(
        default=1e-9,
        ge=0,
        lt=1e-2,
        description="Two ratios r, r' tie when |r − r'| ≤ tol · max(r, r'); a value pair whose "
        "ratio is within tol of 1 counts as equal (sign 0).",
    )

    def value_floor_key(self) -> str | None:
        # A shift also decides which small values tie (reportgen.spec.floors); the two
        # options exclude each other, so the one that is set is the treatment.
        return "value_shift" if self.value_shift is not None else "value_floor"

    @model_validator(mode="after")
    def _one_adjustment(self) -> SignificanceRelationOptions:
        if self.value_floor is not None and self.value_shift is not None:
            raise ValueError(
                "give either value_floor or value_shift, not both: a floor keeps every ratio "
                "between positive values, a shift changes all of them"
            )
        return self
