"""The ``analyses`` entries of a study: a union discriminated by ``kind``."""

from __future__ import annotations

import typing
from typing import Annotated

from pydantic import Field

from reportgen.spec.analyses.convergence import ConvergenceOptions
from reportgen.spec.analyses.performance_profiles import PerformanceProfilesOptions
from reportgen.spec.analyses.perspectives import PerspectivesOptions
from reportgen.spec.analyses.probabilistic_profiles import ProbabilisticProfilesOptions
from reportgen.spec.analyses.problem_table import ProblemTableOptions
from reportgen.spec.analyses.runtime_ecdf import RuntimeEcdfOptions
from reportgen.spec.analyses.significance_relation import SignificanceRelationOptions
from reportgen.spec.analyses.u_scores import UScoresOptions
from reportgen.spec.base import AnalysisOptions

AnalysisSpec = Annotated[
    PerformanceProfilesOptions
    | ProbabilisticProfilesOptions
    | UScoresOptions
    | PerspectivesOptions
    | SignificanceRelationOptions
    | RuntimeEcdfOptions
    | ProblemTableOptions
    | ConvergenceOptions,
    Field(discriminator="kind"),
]

ANALYSIS_OPTIONS: tuple[type[AnalysisOptions], ...] = typing.get_args(
    typing.get_args(AnalysisSpec)[0]
)
"""Every options model: the members of the ``AnalysisSpec`` union, in its order (the order
kinds are listed in messages and the schema)."""
