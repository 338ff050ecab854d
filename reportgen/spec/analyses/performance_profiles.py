"""Options of the ``performance_profiles`` analysis (Liu et al. §III–IV)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Final, Literal

from pydantic import Field, field_validator

from reportgen.spec.base import AnalysisOptions, Budget, DataLayout, Fraction, listed_once

WORST_FIRST_MEAN = "worst_first_mean"
"""The default ``start_value`` rule (docs/methods.md)."""
FORMULA: Final = "formula"
BOOTSTRAP: Final = "bootstrap"
"""The ``bound`` options: Liu et al.'s Eq. 6 (default) and the percentile bootstrap."""


class PerformanceProfilesOptions(AnalysisOptions):
    """Performance (Dolan–Moré) and data (Moré–Wild) profiles of the mean curves."""

    reads: ClassVar[tuple[DataLayout, ...]] = ("histories",)

    kind: Literal["performance_profiles"]
    tolerances: list[Fraction] = Field(
        default=[1e-1, 1e-3, 1e-5, 1e-7],
        min_length=1,
        description="Tolerances τ of the convergence test f(x0) − f(x) ≥ (1 − τ)(f(x0) − f_L), "
        "each in (0, 1).",
    )
    profiles: list[Literal["performance", "data"]] = Field(
        default=["performance", "data"], min_length=1, description="Which profiles to draw."
    )
    lambdas: list[Annotated[float, Field(gt=0, le=100)]] = Field(
        default_factory=list,
        description="Confidence-bound widths λ (> 0) for mean ± λ·S/√n_r (Liu et al. Eq. 6); "
        "each adds Algorithm 2's significance verdicts and the full ranking. Empty: mean "
        "profiles only.",
    )
    clip_bounds: bool = Field(
        default=True,
        description="Clip each bound curve to the range of the runs' best-so-far values at each "
        "evaluation count (the range the data supports): a lower bound never below the "
        "algorithm's best run there, an upper bound never above its worst run. false: the "
        "paper's formula mean ± λ·S/√n_r unclipped, which for skewed, high-variance results can "
        "fall below any value observed (or below the optimum) and so 'solve' problems no run "
        "solved.",
    )
    bound: Literal["formula", "bootstrap"] = Field(
        default=FORMULA,
        description="How the confidence bounds are computed. 'formula' (the paper's Eq. 6): "
        "mean ± λ·S/√n_r at each evaluation count. 'bootstrap': the percentile bootstrap of the "
        "mean curve over runs — whole runs resampled with replacement `resamples` times (seeded "
        "by `seed`), the bounds the Φ(−λ) and Φ(λ) quantiles of the resampled means at each "
        "evaluation count (λ = 2: 2.3 % and 97.7 %); it follows skewed results and never leaves "
        "the runs' range.",
    )
    resamples: int = Field(
        default=1000,
        ge=100,
        le=100_000,
        description="Bootstrap resamples of the runs for bound: bootstrap.",
    )
    seed: int = Field(
        default=20260101,
        ge=0,
        le=2**63 - 1,
        description="Seed of the bootstrap for bound: bootstrap (same seed, same bounds).",
    )
    start_value: str = Field(
        default=WORST_FIRST_MEAN,
        min_length=1,
        description="How f(x0) is chosen per problem: 'worst_first_mean' = the largest of all "
        "algorithms' first recorded mean values (docs/methods.md); any other string names a column "
        "of the histories data holding f(x0), one value per problem (a source's "
        "`columns: {start_value: ...}` arrives as the column 'start_value'). Left unset: "
        "'start_value' when the data carries that column, else 'worst_first_mean'.",
        json_schema_extra={"examples": [WORST_FIRST_MEAN, "start_value"]},
    )
    budget: Budget | None = Field(
        default=None,
        description="Budget μ_f in evaluations; default: the largest evaluation count in the data.",
    )

    @field_validator("tolerances")
    @classmethod
    def _distinct_tolerances(cls, values: list[float]) -> list[float]:
        # Each τ's bounds (0, 1) are declared (Fraction).
        return listed_once(values, "tolerances")

    @field_validator("lambdas")
    @classmethod
    def _distinct_lambdas(cls, values: list[float]) -> list[float]:
        # Each λ's bounds (0, 100] are declared on the field.
        return listed_once(values, "lambdas")
