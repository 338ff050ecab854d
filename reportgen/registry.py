"""Every kind of analysis, with all the pieces that make it, bound together and checked.

The one place that wires a ``kind`` to its spec model, its pure compute function, its result
type and its presenters; the pipeline looks analyses up here and knows nothing about any
particular method. An entry is an :class:`AnalysisKind` whose type parameters (the options
model and the result type) let mypy check that every piece reads the result the
compute function returns. :func:`_registry` checks the same at import (so a test that imports
this module fails on a forgotten or mis-wired piece): every kind of the spec's ``analyses``
union has exactly one entry, and each piece's annotations name the entry's options and
result types. ``docs/CONTRIBUTING-ANALYSIS.md`` lists the pieces and the files they live in.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Generic, TypeVar

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
from reportgen.analyses.base import AnalysisResult
from reportgen.data.frames import AnalysisData
from reportgen.figures import convergence as convergence_figures
from reportgen.figures import performance_profiles as performance_profiles_figures
from reportgen.figures import perspectives as perspectives_figures
from reportgen.figures import probabilistic_profiles as probabilistic_profiles_figures
from reportgen.figures import runtime_ecdf as runtime_ecdf_figures
from reportgen.figures import significance_relation as significance_relation_figures
from reportgen.figures import u_scores as u_scores_figures
from reportgen.figures.style import FigureSpec, FigureStyle
from reportgen.narrative import convergence as convergence_narrative
from reportgen.narrative import performance_profiles as performance_profiles_narrative
from reportgen.narrative import perspectives as perspectives_narrative
from reportgen.narrative import probabilistic_profiles as probabilistic_profiles_narrative
from reportgen.narrative import problem_table as problem_table_narrative
from reportgen.narrative import runtime_ecdf as runtime_ecdf_narrative
from reportgen.narrative import significance_relation as significance_relation_narrative
from reportgen.narrative import u_scores as u_scores_narrative
from reportgen.present.findings import Finding
from reportgen.present.labels import Labels
from reportgen.render.blocks import Section
from reportgen.render.sections import convergence as convergence_section
from reportgen.render.sections import performance_profiles as performance_profiles_section
from reportgen.render.sections import perspectives as perspectives_section
from reportgen.render.sections import probabilistic_profiles as probabilistic_profiles_section
from reportgen.render.sections import problem_table as problem_table_section
from reportgen.render.sections import runtime_ecdf as runtime_ecdf_section
from reportgen.render.sections import significance_relation as significance_relation_section
from reportgen.render.sections import u_scores as u_scores_section
from reportgen.spec.analyses import ANALYSIS_OPTIONS
from reportgen.spec.analyses.convergence import ConvergenceOptions
from reportgen.spec.analyses.performance_profiles import PerformanceProfilesOptions
from reportgen.spec.analyses.perspectives import PerspectivesOptions
from reportgen.spec.analyses.probabilistic_profiles import ProbabilisticProfilesOptions
from reportgen.spec.analyses.problem_table import ProblemTableOptions
from reportgen.spec.analyses.runtime_ecdf import RuntimeEcdfOptions
from reportgen.spec.analyses.significance_relation import SignificanceRelationOptions
from reportgen.spec.analyses.u_scores import UScoresOptions
from reportgen.spec.base import AnalysisOptions
from reportgen.synthesis import rankings
from reportgen.synthesis.rankings import Ranking

OptionsT = TypeVar("OptionsT", bound=AnalysisOptions)
ResultT = TypeVar("ResultT", bound=AnalysisResult)


@dataclass(frozen=True, kw_only=True)
class AnalysisKind(Generic[OptionsT, ResultT]):
    """The pieces of one kind of analysis.

    Every attribute is required (keyword-only, no defaults): an entry that forgets one does not
    build. ``None`` is a decision, stated in the entry: the method draws no figure, or ranks
    no algorithm for the executive summary.

    Attributes
    ----------
    options : type
        The spec model, ``reportgen/spec/analyses/<kind>.py``; its ``kind`` literal names the kind.
    compute : callable
        ``compute(data, options) -> result``, ``reportgen/analyses/<kind>.py``: pure, no I/O.
    result : type
        The frozen result dataclass (``caveats``, ``tables()``, ``to_json()``; the tables are
        ``tables/<id>/*.csv`` and ``results.json`` holds ``to_json()``).
    figures : callable or None
        ``figures(result, style) -> list[FigureSpec]``, ``reportgen/figures/<kind>.py``.
    findings : callable
        ``findings(result, labels) -> list[Finding]``, ``reportgen/narrative/<kind>.py``.
    build_section : callable
        ``build_section(result, options, style) -> Section``,
        ``reportgen/render/sections/<kind>.py``: text, findings, figures, display tables and
        the methods appendix.
    rankings : callable or None
        ``rankings(analysis_id, result) -> list[Ranking]`` in
        :mod:`reportgen.synthesis.rankings`: the synthesis adapter, what the executive summary
        compares across analyses.
    """

    options: type[OptionsT]
    compute: Callable[[AnalysisData, OptionsT], ResultT]
    result: type[ResultT]
    figures: Callable[[ResultT, FigureStyle], list[FigureSpec]] | None
    findings: Callable[[ResultT, Labels], list[Finding]]
    build_section: Callable[[ResultT, OptionsT, FigureStyle], Section]
    rankings: Callable[[str, ResultT], list[Ranking]] | None

    @property
    def kind(self) -> str:
        """The ``kind`` value of the spec model."""
        return kind_of(self.options)

    def rankings_of(
        self, analysis_id: str, result: ResultT, title: str | None = None
    ) -> list[Ranking]:
        """The rankings one analysis of this kind contributes to the executive summary
        (``title``: the analysis's section title, which names them beside others of the kind)."""
        if self.rankings is None:
            return []
        return rankings.named(self.rankings(analysis_id, result), self.kind, analysis_id, title)


def kind_of(options: type[AnalysisOptions]) -> str:
    """The value of an options model's ``kind: Literal["..."]`` field."""
    (kind,) = typing.get_args(options.model_fields["kind"].annotation)
    return str(kind)


class RegistryError(TypeError):
    """An analysis kind is wired wrongly: a programming error, found at import."""


def _check(entry: AnalysisKind[Any, Any]) -> list[str]:
    """What is mis-wired in one entry (annotations that name other types than the entry's)."""
    kind, problems = entry.kind, []
    result = entry.result
    if not is_dataclass(result) or "caveats" not in {f.name for f in fields(result)}:
        problems.append(f"{kind}: result {result.__name__} is not a dataclass with caveats")
    for method in ("tables", "to_json"):
        if not callable(getattr(result, method, None)):
            problems.append(f"{kind}: result {result.__name__} has no {method}()")
    expected: dict[str, tuple[type, ...]] = {
        "compute": (AnalysisData, entry.options),
        "figures": (result,),
        "findings": (result,),
        "build_section": (result, entry.options),
        "rankings": (str, result),
    }
    for piece, types in expected.items():
        function = getattr(entry, piece)
        if function is None:
            continue
        hints = typing.get_type_hints(function)
        parameters = [p for p in inspect.signature(function).parameters if p != "return"]
        for parameter, wanted in zip(parameters, types, strict=False):
            if hints.get(parameter) is not wanted:
                problems.append(
                    f"{kind}: {function.__module__}.{function.__name__}({parameter}) is "
                    f"annotated {hints.get(parameter)}, not {wanted.__name__}"
                )
    if typing.get_type_hints(entry.compute).get("return") is not result:
        problems.append(f"{kind}: compute does not return {result.__name__}")
    return problems


def _registry(*entries: AnalysisKind[Any, Any]) -> dict[str, AnalysisKind[Any, Any]]:
    """The registry by kind, checked: one entry per kind of the spec, each wired consistently."""
    by_kind = {entry.kind: entry for entry in entries}
    spec_kinds = {kind_of(options) for options in ANALYSIS_OPTIONS}
    problems = [f"{k}: registered twice" for k in by_kind if [e.kind for e in entries].count(k) > 1]
    problems += [f"{k}: in the spec, but not registered" for k in sorted(spec_kinds - set(by_kind))]
    problems += [f"{k}: registered, but not in the spec" for k in sorted(set(by_kind) - spec_kinds)]
    for entry in entries:
        problems += _check(entry)
    if problems:
        raise RegistryError("analysis registry: " + "; ".join(problems))
    return by_kind


# A bare tuple, so that mypy infers each entry's types from its own pieces (and reports one
# that reads another result type) instead of taking them as Any from an annotation.
_ENTRIES = (
    AnalysisKind(
        options=PerformanceProfilesOptions,
        compute=performance_profiles.compute,
        result=performance_profiles.PerformanceProfilesResult,
        figures=performance_profiles_figures.figures,
        findings=performance_profiles_narrative.findings,
        build_section=performance_profiles_section.build_section,
        rankings=rankings.performance_profiles,
    ),
    AnalysisKind(
        options=PerspectivesOptions,
        compute=perspectives.compute,
        result=perspectives.PerspectivesResult,
        figures=perspectives_figures.figures,
        findings=perspectives_narrative.findings,
        build_section=perspectives_section.build_section,
        rankings=rankings.perspectives,
    ),
    AnalysisKind(
        options=ProbabilisticProfilesOptions,
        compute=probabilistic_profiles.compute,
        result=probabilistic_profiles.ProbabilisticProfilesResult,
        figures=probabilistic_profiles_figures.figures,
        findings=probabilistic_profiles_narrative.findings,
        build_section=probabilistic_profiles_section.build_section,
        rankings=rankings.probabilistic_profiles,
    ),
    AnalysisKind(
        options=UScoresOptions,
        compute=u_scores.compute,
        result=u_scores.UScoresResult,
        figures=u_scores_figures.figures,
        findings=u_scores_narrative.findings,
        build_section=u_scores_section.build_section,
        rankings=rankings.u_scores,
    ),
    AnalysisKind(
        options=RuntimeEcdfOptions,
        compute=runtime_ecdf.compute,
        result=runtime_ecdf.RuntimeEcdfResult,
        figures=runtime_ecdf_figures.figures,
        findings=runtime_ecdf_narrative.findings,
        build_section=runtime_ecdf_section.build_section,
        rankings=rankings.runtime_ecdf,
    ),
    AnalysisKind(
        options=SignificanceRelationOptions,
        compute=significance_relation.compute,
        result=significance_relation.SignificanceRelationResult,
        figures=significance_relation_figures.figures,
        findings=significance_relation_narrative.findings,
        build_section=significance_relation_section.build_section,
        rankings=rankings.significance_relation,
    ),
    AnalysisKind(
        options=ProblemTableOptions,
        compute=problem_table.compute,
        result=problem_table.ProblemTableResult,
        figures=None,  # the paper's table is the picture
        findings=problem_table_narrative.findings,
        build_section=problem_table_section.build_section,
        # Wins/ties/losses against one reference rank no algorithm among the others, so there
        # is no ranking to bootstrap; the section says so, and its tests are its uncertainty.
        rankings=None,
    ),
    AnalysisKind(
        options=ConvergenceOptions,
        compute=convergence.compute,
        result=convergence.ConvergenceResult,
        figures=convergence_figures.figures,
        findings=convergence_narrative.findings,
        build_section=convergence_section.build_section,
        rankings=None,  # medians over time describe; they rank no algorithm
    ),
)

ANALYSES: dict[str, AnalysisKind[Any, Any]] = _registry(*_ENTRIES)
"""Every kind of analysis by its ``kind`` (the spec's discriminator)."""
