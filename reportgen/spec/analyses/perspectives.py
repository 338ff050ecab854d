"""Options of the ``perspectives`` analysis (Poikolainen, Weber et al., §"Perspectives
of algorithmic performance"; docs/methods.md)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, field_validator

from reportgen.spec.base import AnalysisOptions, DataLayout, listed_once

PerspectiveName = Literal["mean", "median", "accuracy", "reliability", "robustness", "efficiency"]
"""A statistic by which algorithms are ranked on every problem."""

QuantileMethod = Literal[
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "linear",
    "median_unbiased",
    "normal_unbiased",
    "lower",
    "higher",
    "midpoint",
    "nearest",
]
"""The sample-quantile definitions of :func:`numpy.quantile` (Hyndman & Fan 1996)."""

ALL_PERSPECTIVES: tuple[PerspectiveName, ...] = (
    "mean",
    "median",
    "accuracy",
    "reliability",
    "robustness",
    "efficiency",
)


class PerspectivesOptions(AnalysisOptions):
    """Rank algorithms by several perspectives, each with the Friedman test and Holm's procedure."""

    reads: ClassVar[tuple[DataLayout, ...]] = ("trials", "summary")

    kind: Literal["perspectives"]
    perspectives: list[PerspectiveName] = Field(
        default=list(ALL_PERSPECTIVES),
        min_length=1,
        description="Perspectives to rank by: mean, median, accuracy (sample minimum), "
        "reliability (fraction of runs ≤ θ_f), robustness (sample maximum), efficiency "
        "(minimum measured running time). Those the input cannot support are listed in the "
        "report with the reason.",
    )
    threshold_quantile: float = Field(
        default=0.10,
        gt=0,
        lt=1,
        strict=True,
        description="θ_f per problem is this quantile of the union of all algorithms' results on "
        "that problem (the paper: the 10th percentile).",
    )
    threshold_method: QuantileMethod = Field(
        default="linear",
        description="Sample-quantile definition for θ_f, as in numpy.quantile (default 'linear', "
        "Hyndman–Fan type 7, the numpy and R default).",
    )
    repeat_probability: float = Field(
        default=0.95,
        gt=0,
        lt=1,
        strict=True,
        description="THR: the probability of reaching θ_f at least once in t repeats, "
        "t = log(1 − THR)/log(1 − Θ).",
    )
    alpha: float = Field(
        default=0.05,
        gt=0,
        lt=1,
        strict=True,
        description="Family-wise significance level of Holm's procedure and of the Nemenyi "
        "critical difference.",
    )
    control: str = Field(
        default="best",
        min_length=1,
        description="The control of Holm's procedure: 'best' (the best mean rank in each "
        "perspective, as in the paper) or an algorithm name.",
    )
    alternative: Literal["two-sided", "one-sided"] = Field(
        default="two-sided",
        description="two-sided: p = 2Φ(−|z|). one-sided: p = Φ(z), the alternative that the "
        "algorithm ranks worse than the control (the paper's tables).",
    )
    critical_difference: bool = Field(
        default=True,
        strict=True,
        description="Draw a Nemenyi critical-difference diagram per perspective.",
    )

    @field_validator("perspectives")
    @classmethod
    def _distinct_perspectives(cls, values: list[PerspectiveName]) -> list[PerspectiveName]:
        return listed_once(values, "perspectives")
