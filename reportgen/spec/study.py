"""The study spec: the one input of reportgen.

A YAML file validated into :class:`Study`. Loading and error reporting (with YAML line
numbers) are in :mod:`reportgen.spec.load`; this module only declares the shape.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, WithJsonSchema, field_validator, model_validator

from reportgen.errors import did_you_mean
from reportgen.spec.analyses import AnalysisSpec
from reportgen.spec.base import Dimension, Name, SpecModel
from reportgen.spec.sources import DataSource
from reportgen.warning_codes import WARNING_CODES


def _known_code(code: str) -> str:
    if code not in WARNING_CODES:
        # An acknowledgement that matches no warning would leave the warning it meant
        # unacknowledged while the spec reads as if it were.
        raise ValueError(
            f"'{code}' is not a warning code reportgen gives"
            f"{did_you_mean(code, list(WARNING_CODES))}; 'reportgen schema' lists the codes "
            "under 'accept'"
        )
    return code


WarningCode = Annotated[
    str,
    AfterValidator(_known_code),
    WithJsonSchema({"type": "string", "enum": sorted(WARNING_CODES)}),
]
"""A code of :data:`~reportgen.warning_codes.WARNING_CODES` (the schema offers them)."""


class StudyInfo(SpecModel):
    """What the study is, for the title page."""

    title: str = Field(min_length=1, description="Title of the report.")
    authors: list[str] = Field(default_factory=list, description="Authors, in order.")
    description: str = Field("", description="Why this study exists; shown on the title page.")


class AlgorithmRef(SpecModel):
    """An algorithm selected for the study, with an optional display label."""

    name: Name = Field(description="The name as it appears in the data.")
    label: Name | None = Field(None, description="How the report names it (default: its name).")
    aliases: list[Name] = Field(
        default_factory=list,
        description="Other names of the same algorithm in the data (e.g. one file says "
        "'MealpyGA', another 'GA'): their rows are read as this algorithm's.",
    )


class ProblemInDimensions(SpecModel):
    """A problem dropped in some dimensions only (e.g. CEC 2020's f6 and f7, undefined in 5-D)."""

    problem: Name = Field(description="The problem's name in the data.")
    dimensions: list[Dimension] = Field(
        min_length=1, description="The dimensions in which it is dropped; it stays in the others."
    )


class ProblemFilter(SpecModel):
    """Which problems of the data the study keeps."""

    dimensions: list[Dimension] | None = Field(None, description="Keep only these dimensions.")
    include: list[Name] | None = Field(None, description="Keep only these problems.")
    exclude: list[Name | ProblemInDimensions] | None = Field(
        None,
        description="Drop these problems: a name drops it in every dimension, "
        "{problem: f6, dimensions: [5]} only in the dimensions listed.",
    )
    groups: dict[Name, list[Name]] | None = Field(
        None,
        description="Named function groups, e.g. {unimodal: [F1], basic: [F2, F3, F4, F5], "
        "hybrid: [F6, F7, F8], composition: [F9, F10, F11, F12]} (CEC 2022) or BBOB's five "
        "groups. Analyses that aggregate over problems also report per group (a problem in "
        "every dimension it has); problems in no group count in the totals only.",
    )
    incomplete: Literal["error", "exclude"] = Field(
        "error",
        description="A problem that some algorithm has no data for: an error (default), or "
        "excluded from every analysis and listed in the report's caveats. Judged per analysis "
        "over all the sources it reads together.",
    )

    @field_validator("groups")
    @classmethod
    def _disjoint_groups(cls, groups: dict[str, list[str]] | None) -> dict[str, list[str]] | None:
        seen: dict[str, str] = {}
        for name, members in (groups or {}).items():
            if not members:
                raise ValueError(f"group '{name}' lists no problem")
            for problem in members:
                if seen.get(problem) == name:
                    raise ValueError(f"problem '{problem}' is listed twice in group '{name}'")
                if problem in seen:
                    raise ValueError(
                        f"problem '{problem}' is in groups '{seen[problem]}' and '{name}'; "
                        "a problem belongs to one group"
                    )
                seen[problem] = name
        return groups


class FigureOptions(SpecModel):
    """Size and lettering of every figure (e.g. to match a journal's column width), its files
    and how many processes draw the figures."""

    width: float | None = Field(
        None,
        gt=0,
        description="Width of every figure in inches (e.g. 3.5 for one IEEE column, 7.16 for "
        "two); the height follows the figure's own aspect ratio unless 'height' is set too. "
        "Default: each figure's own size.",
    )
    height: float | None = Field(
        None,
        gt=0,
        description="Height of every figure in inches; alone, the width follows the aspect "
        "ratio. Default: each figure's own size.",
    )
    font_size: float | None = Field(
        None,
        gt=0,
        description="Size in points of the figures' body text (axis labels, legends); every "
        "other text is scaled with it, keeping titles larger and annotations smaller. Default: "
        "10.",
    )
    pdf: bool = Field(
        False,
        description="Also write every figure as PDF beside its SVG under figures/ (TrueType "
        "fonts, for \\includegraphics in a paper's LaTeX source). Off by default: the HTML and "
        "PDF reports need only the SVG, and each PDF copy costs about a second of CPU.",
    )
    workers: int | None = Field(
        None,
        ge=1,
        le=1024,
        description="Processes drawing the figures in parallel (default: the CPUs this process "
        "may use, at most one per figure; 1: draw them in this process). The files are the "
        "same either way.",
    )


class ReportOptions(SpecModel):
    """Where and how the report is written."""

    output: str = Field(
        "out",
        description="Output folder, relative to the spec file (or absolute, or ~/... in the "
        "home folder).",
    )
    formats: list[Literal["html", "pdf"]] = Field(
        default=["html", "pdf"], min_length=1, description="Documents to write."
    )
    figures: FigureOptions = Field(
        default=FigureOptions(),
        description="Size and font size of the figures (HTML, PDF and the figure files alike), "
        "whether they are also written as PDF, and how many processes draw them.",
    )
    paths: Literal["relative", "absolute"] = Field(
        "relative",
        description="How the provenance (report and results.json) names the spec, the data "
        "files and the command line: relative to the spec's folder (default: nothing of the "
        "author's machine is published), or as absolute paths.",
    )


class SummaryOptions(SpecModel):
    """The executive summary's bootstrap of every ranking (how sure each ranking is)."""

    resamples: int = Field(
        2000,
        ge=100,
        le=100000,
        description="Bootstrap resamples per ranking, of the problems and, where the analysis keeps "
        "them, of each drawn problem's runs (p_first and the 95 % rank interval).",
    )
    seed: int = Field(
        20260101,
        ge=0,
        description="Seed of the bootstrap; the same seed and data give the same numbers. "
        "Printed in the provenance.",
    )


MEMORY = r"^(auto|[0-9]+(\.[0-9]+)?\s*(B|kB|KB|MB|GB|TB|KiB|MiB|GiB|TiB))$"
"""A Dask memory limit: "3GB", "512MiB" or "auto" (the machine's memory shared by the workers)."""
MIN_WORKER_MEMORY = 512 * 10**6
"""The smallest ``memory_limit`` accepted, in bytes. A worker process with reportgen's libraries
loaded holds about 200 MiB before any work, and Dask pauses a worker at 80 % of its limit and
restarts it at 95 %: with 256 MB (or 20 MB) the workers paused or restarted for ever and the run
never ended, without an error."""

_UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}
_UNITS |= {"kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}


def memory_bytes(limit: str) -> int:
    """Bytes of a memory limit that matches :data:`MEMORY` (not "auto"), as Dask reads it."""
    number = limit.rstrip("BbKkMmGgTtiI ")
    return int(float(number) * _UNITS[limit[len(number) :].strip().lower()])


class ExecutionOptions(SpecModel):
    """Where the analyses' independent per-problem work runs (:mod:`reportgen.execution`)."""

    engine: Literal["local", "dask"] = Field(
        "local",
        description="local (default): in this process. dask: the per-problem work runs as Dask "
        "tasks (needs the optional extra: pip install 'reportgen[dask]'); the cross-problem "
        "steps, figures and documents stay in this process. Results are identical.",
    )
    scheduler: str = Field(
        "local",
        min_length=1,
        description="With engine dask: 'local' starts a LocalCluster on this machine; "
        "otherwise the address of a running Dask scheduler, e.g. tcp://host:8786. The "
        "command line's --scheduler overrides it.",
    )
    workers: int | None = Field(
        None,
        ge=1,
        le=1024,
        description="With scheduler local: worker processes of the LocalCluster (default: "
        "Dask's choice from the CPU count).",
    )
    memory_limit: str | None = Field(
        None,
        pattern=MEMORY,
        description="With scheduler local: memory limit of each worker, e.g. '3GB', at least 512MB (default: "
        "'auto', the machine's memory shared by the workers).",
    )

    @field_validator("memory_limit")
    @classmethod
    def _enough_memory(cls, limit: str | None) -> str | None:
        if limit is not None and limit != "auto" and memory_bytes(limit) < MIN_WORKER_MEMORY:
            raise ValueError(
                f"{limit} is too little for a worker: one holds about 200 MiB before any work "
                "and Dask pauses it at 80 % of its limit (it would wait for ever); give at "
                "least 512MB, or leave it out ('auto')"
            )
        return limit

    @model_validator(mode="after")
    def _cluster_options(self) -> ExecutionOptions:
        if self.engine == "local" and "scheduler" in self.model_fields_set:
            raise ValueError("scheduler is only used with engine: dask")
        local_only = [k for k in ("workers", "memory_limit") if getattr(self, k) is not None]
        if local_only and (self.engine != "dask" or self.scheduler != "local"):
            raise ValueError(
                f"{local_only[0]} sizes a LocalCluster, so it needs engine: dask and "
                "scheduler: local (a running scheduler has its own workers)"
            )
        return self


class Study(SpecModel):
    """A reportgen study: data sources, algorithms, problems, analyses and report options."""

    study: StudyInfo
    minimize: bool = Field(
        description="true: smaller values are better. false: values are negated once at load "
        "time and the report says so."
    )
    data: dict[str, DataSource] = Field(min_length=1, description="Named data sources.")
    algorithms: list[Name | AlgorithmRef] | None = Field(
        None,
        description="Algorithms to compare, in report order, optionally with labels "
        "(default: every algorithm in the data, sorted by name).",
    )
    problems: ProblemFilter | None = Field(None, description="Optional problem filters.")
    analyses: list[AnalysisSpec] = Field(
        min_length=1, description="The analyses to run, in report order."
    )
    report: ReportOptions = Field(
        default=ReportOptions(), description="Where and how the report is written."
    )
    accept: list[WarningCode] = Field(
        default_factory=list,
        description="Warning codes acknowledged for this study (the code in brackets of "
        "'reportgen: warning [code]: ...'): they are no longer printed with --quiet, and "
        "--strict fails only on warnings whose code is not listed. A code reportgen does not "
        "give is an error.",
    )
    summary: SummaryOptions = Field(
        default=SummaryOptions(),
        description="Options of the executive summary (the ranking bootstrap).",
    )
    execution: ExecutionOptions = Field(
        default=ExecutionOptions(),
        description="Where the analyses run: in this process (default) or on a Dask cluster.",
    )

    @field_validator("algorithms")
    @classmethod
    def _unique_algorithms(
        cls, algorithms: list[str | AlgorithmRef] | None
    ) -> list[str | AlgorithmRef] | None:
        # A field validator, not a model validator: the message is then located at the
        # 'algorithms' key (file:line), not at the spec's top level.
        entries = [
            a if isinstance(a, AlgorithmRef) else AlgorithmRef(name=a) for a in algorithms or []
        ]
        names = [n for a in entries for n in (a.name, *a.aliases)]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            places = [f"[{i}]" for i, a in enumerate(entries) if dupes[0] in (a.name, *a.aliases)]
            raise ValueError(
                f"'{dupes[0]}' is listed more than once (as a name or an alias: entries "
                f"{', '.join(places)})"
            )
        labels: dict[str, str] = {}
        for a in entries:
            label = a.label or a.name
            if label in labels:
                raise ValueError(
                    f"'{labels[label]}' and '{a.name}' have the same label "
                    f"'{label}'; if they are one algorithm, merge them: "
                    f"{{name: {labels[label]}, aliases: [{a.name}]}}"
                )
            labels[label] = a.name
        return algorithms

    def algorithm_aliases(self) -> dict[str, str]:
        """Every alias given in the spec → the algorithm name it stands for."""
        return {
            alias: a.name
            for a in self.algorithms or []
            if isinstance(a, AlgorithmRef)
            for alias in a.aliases
        }

    def algorithm_names(self) -> list[str] | None:
        """Selected algorithm names in study order, or None for "all in the data"."""
        if self.algorithms is None:
            return None
        return [a if isinstance(a, str) else a.name for a in self.algorithms]

    def algorithm_labels(self) -> dict[str, str]:
        """Display labels given in the spec."""
        return {
            a.name: a.label
            for a in self.algorithms or []
            if isinstance(a, AlgorithmRef) and a.label is not None
        }

    def analysis_id(self, index: int) -> str:
        """The id of analysis ``index`` (its own ``id`` or, by default, its kind)."""
        analysis = self.analyses[index]
        return analysis.id or analysis.kind
