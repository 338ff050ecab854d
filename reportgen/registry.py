"""Which code computes and presents each analysis kind.

The one place that wires a ``kind`` to its pure compute function and its section builder;
the pipeline looks analyses up here and knows nothing about any particular method.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reportgen.analyses import (
    convergence,
    performance_profiles,
    perspectives,
    probabilistic_profiles,
    problem_table,
    runtime_ecdf,
    significance_relation,
    u_scores,
)
from reportgen.render.sections import convergence as convergence_section
from reportgen.render.sections import performance_profiles as performance_profiles_section
from reportgen.render.sections import perspectives as perspectives_section
from reportgen.render.sections import probabilistic_profiles as probabilistic_profiles_section
from reportgen.render.sections import problem_table as problem_table_section
from reportgen.render.sections import runtime_ecdf as runtime_ecdf_section
from reportgen.render.sections import significance_relation as significance_relation_section
from reportgen.render.sections import u_scores as u_scores_section


@dataclass(frozen=True)
class AnalysisKind:
    """The functions behind one ``kind`` of analysis."""

    compute: Callable[[Any, Any], Any]
    build_section: Callable[[Any, Any, Any], Any]


ANALYSES: dict[str, AnalysisKind] = {
    "performance_profiles": AnalysisKind(
        performance_profiles.compute, performance_profiles_section.build_section
    ),
    "perspectives": AnalysisKind(perspectives.compute, perspectives_section.build_section),
    "probabilistic_profiles": AnalysisKind(
        probabilistic_profiles.compute, probabilistic_profiles_section.build_section
    ),
    "u_scores": AnalysisKind(u_scores.compute, u_scores_section.build_section),
    "runtime_ecdf": AnalysisKind(runtime_ecdf.compute, runtime_ecdf_section.build_section),
    "significance_relation": AnalysisKind(
        significance_relation.compute, significance_relation_section.build_section
    ),
    "problem_table": AnalysisKind(problem_table.compute, problem_table_section.build_section),
    "convergence": AnalysisKind(convergence.compute, convergence_section.build_section),
}
