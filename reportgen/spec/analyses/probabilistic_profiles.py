"""Spec options of the ``probabilistic_profiles`` analysis (Barreto et al., GECCO 2010).

See :mod:`reportgen.analyses.probabilistic_profiles` for what is computed and why.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from reportgen.spec.base import AnalysisOptions, DataLayout, PositiveValue


class ProbabilisticProfilesOptions(AnalysisOptions):
    """Options of the standard and probabilistic performance profiles.

    Examples
    --------
    >>> ProbabilisticProfilesOptions(kind="probabilistic_profiles", data="runs").x_max
    10.0
    """

    reads: ClassVar[tuple[DataLayout, ...]] = ("trials", "summary")

    kind: Literal["probabilistic_profiles"] = Field(
        description="Standard (Dolan & Moré) and probabilistic (Barreto et al.) performance "
        "profiles of expected costs."
    )
    cost: Literal["evaluations_to_target", "value"] = Field(
        default="evaluations_to_target",
        description="The cost C_ij of a run: 'evaluations_to_target' (fixed target; ∞ = the "
        "target was never reached) or 'value' (fixed budget: the final value, which must be "
        "an error ≥ 0, e.g. f − f*). With `summary` data it names what the published mean "
        "and standard deviation describe.",
    )
    cost_floor: PositiveValue | None = Field(
        default=None,
        strict=True,
        description="Costs below this are raised to it (c = max(c, cost_floor)) before "
        "ratios are formed, e.g. 1.0e-8 for final errors at the usual precision. Required "
        "when some cost is 0 (docs/methods.md: never divide by zero).",
    )
    model: Literal["normal", "empirical"] = Field(
        default="normal",
        description="Distribution of each cost: 'normal' (the paper, §4.1: N(mean, std²), "
        "usable from a published table of means and standard deviations) or 'empirical' "
        "(distribution-free: the share of the entry's runs within ratio x; needs `trials` "
        "data; failed runs never count as solved).",
    )
    x_max: float = Field(
        default=10.0,
        strict=True,
        gt=1,
        le=1e6,
        description="Right end of the analysed interval [1, x_max] of performance ratios "
        "(τ_max in the paper); the share solved is read at x = x_max.",
    )
    grid_points: int = Field(
        default=1000,
        strict=True,
        ge=10,
        le=100_000,
        description="Number of log-spaced points on [1, x_max] at which the smooth "
        "probabilistic profile is tabulated and plotted (every breakpoint is added). "
        "Crossings and reliabilities are located by root finding, not read off this grid.",
    )
    reliability_tolerance: float = Field(
        default=0.01,
        strict=True,
        gt=0,
        lt=0.5,
        description="ε of the probabilistic reliability ζ̄ = sup{x : n_p·(1 − ρ̄(x)) > ε}: "
        "the smallest ratio at which the expected number of problems not yet solved is at "
        "most ε. Needed because a normal model with σ > 0 never reaches ρ̄ = 1 exactly; "
        "with σ = 0 every ε < 1 gives the standard ζ.",
    )

    def value_floor_key(self) -> str | None:
        # Only final values are compared with the other analyses' values; a floor on
        # evaluation counts is another quantity.
        return "cost_floor" if self.cost == "value" else None

    def option_reads(self) -> dict[str, tuple[DataLayout, ...]]:
        # The empirical model resamples the runs themselves; a summary has none.
        return {"model": ("trials",)} if self.model == "empirical" else {}
