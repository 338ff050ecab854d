"""The build, top to bottom: spec → data → analyses → sections → documents.

:func:`validate_study` checks the spec and the data and runs every analysis's computation
(so that every input problem surfaces before anything is written). :func:`run_study` does
the same, then renders and writes the report into a temporary folder beside the output and
moves it into place only when complete: a failed run leaves no half-written report and does
not destroy the previous one.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import importlib.metadata
import json
import os
import platform
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from reportgen.analyses.base import AnalysisResult
from reportgen.bundle import BUNDLE_NAME, write_bundle
from reportgen.changes import (
    CHANGES_TABLE,
    changes_blocks,
    compare_results,
    read_baseline,
    unrelated,
)
from reportgen.data.frames import AnalysisData, natural_key, problem_label, sorted_problems
from reportgen.data.load import StudyData, load_data
from reportgen.data.select import complete_problems
from reportgen.errors import InputError, Problem, did_you_mean, quote_choices, shorten
from reportgen.execution import executor_for
from reportgen.figures.style import FigureStyle, make_style, plain_text
from reportgen.narrative.overview import overview, source_summary
from reportgen.paths import in_the_way, real_path, spec_path
from reportgen.present.caveats import Caveat
from reportgen.present.format import counted
from reportgen.present.jsonable import JSON_LIST_LIMIT, RESULTS_FORMAT, cap_lists
from reportgen.present.labels import Labels
from reportgen.published import PublishedComparison, compare_published, published_block
from reportgen.registry import ANALYSES
from reportgen.render.blocks import FigureBlock, Prose, Section
from reportgen.render.document import Document, render_sections
from reportgen.render.files import (
    BlockKey,
    WrittenBlock,
    write_blocks,
    write_csv,
    write_json,
    write_latex,
)
from reportgen.render.glyphs import unprintable_caveats
from reportgen.render.html import render_html
from reportgen.render.pdf import pdf_unavailable, write_pdf
from reportgen.render.publish import publish, writing
from reportgen.render.sections.summary import build_summary_section
from reportgen.resources import package_version
from reportgen.spec.floors import floor_disagreements
from reportgen.spec.listing import published_spec_text
from reportgen.spec.load import LoadedSpec, load_spec
from reportgen.synthesis.summary import SynthesisResult, synthesise

OUTPUT_MARKER = ".reportgen-output"
"""File that marks a folder as written by reportgen (and so safe to replace)."""

Progress = Callable[[str], None]


@dataclass(frozen=True)
class AnalysisOutcome:
    """One analysis of a study: its spec entry, its result and its report section."""

    id: str
    kind: str
    options: Any
    result: AnalysisResult
    published: PublishedComparison | None = None
    """The paper's numbers beside the recomputed ones (the analysis's ``published:``)."""
    section: Section | None = None


@dataclass(frozen=True)
class StudyResults:
    """What a run produced: the spec, the data summary, every analysis result."""

    spec: LoadedSpec
    data: StudyData
    analyses: tuple[AnalysisOutcome, ...]
    caveats: tuple[Caveat, ...]
    synthesis: SynthesisResult
    caveat_origins: tuple[str, ...] = ()
    """Where each caveat comes from ("data" or an analysis id), parallel to ``caveats``."""
    output_dir: Path | None = None
    summary: Section | None = None
    changes: pd.DataFrame | None = None
    """With a baseline: what changed since it (:mod:`reportgen.changes`)."""
    executor: Mapping[str, Any] = dataclasses.field(default_factory=lambda: {"engine": "local"})
    """Where the per-problem work ran (:meth:`reportgen.execution.Executor.describe`)."""

    def __getitem__(self, analysis_id: str) -> AnalysisResult:
        for outcome in self.analyses:
            if outcome.id == analysis_id:
                return outcome.result
        ids = [outcome.id for outcome in self.analyses]
        # The id is the analysis's 'id:' when it has one, not its kind: say which ids exist.
        raise KeyError(
            f"no analysis {analysis_id!r}{did_you_mean(str(analysis_id), ids)}; the study's "
            f"analyses are {quote_choices(ids)}"
        )


def load_study(
    study: str | Path | Mapping[str, Any],
    *,
    base_dir: str | Path | None = None,
    frames: Mapping[str, Any] | None = None,
) -> LoadedSpec:
    """Read and validate a study spec (the Python API's entry point).

    Parameters
    ----------
    study : path or mapping
        A YAML spec file, or the spec as a dict (the same keys as the YAML).
    base_dir : path, optional
        For a dict: the folder relative data paths and ``report.output`` are resolved against
        (default: the current folder).
    frames : mapping of str to DataFrame, optional
        Data sources in memory: source name → table with the columns a CSV of the source's
        format would have. The spec declares such a source with its ``format`` (and
        ``columns``) but no ``path``. A pyarrow Table or a polars DataFrame is converted by
        its ``to_pandas()``.
    """
    return load_spec(study, base_dir, frames)


def compute_study(
    study: LoadedSpec | str | Path | Mapping[str, Any], progress: Progress | None = None
) -> StudyResults:
    """Load the data and run every analysis; nothing is rendered and no file is written.

    Parameters
    ----------
    study : LoadedSpec, path or mapping
        The study (from :func:`load_study`), the path of its spec, or the spec as a dict.
    progress : callable, optional
        Called with a short message at each stage.

    Returns
    -------
    StudyResults
        ``results[analysis_id]`` is the analysis's result object; ``results.synthesis`` the
        cross-method rankings; ``results.caveats`` every warning.

    Raises
    ------
    InputError
        With every problem found in the data, or the first analysis's input problems
        (located at its spec entry).
    """
    spec = study if isinstance(study, LoadedSpec) else load_spec(study)
    say = progress or (lambda _: None)
    with executor_for(spec.study.execution, lambda key: spec.where(("execution", key))) as executor:
        say("loading data")
        data = load_data(spec)  # a partitioned source is checked where the executor runs
        outcomes, selection_caveats = _compute_analyses(spec, data, say)
        executor_info = executor.describe()
    caveats = list(data.caveats)
    origins = ["data"] * len(caveats)
    spec_caveats = floor_disagreements(spec.study)
    caveats.extend(spec_caveats)
    origins.extend(["spec"] * len(spec_caveats))
    for outcome in outcomes:
        extra = (
            *selection_caveats[outcome.id],
            *(outcome.published.caveats if outcome.published is not None else ()),
        )
        caveats.extend((*outcome.result.caveats, *extra))
        origins.extend([outcome.id] * (len(outcome.result.caveats) + len(extra)))
    synthesis = synthesise(
        [
            r
            for o in outcomes
            for r in ANALYSES[o.kind].rankings_of(o.id, o.result, o.options.title)
        ],
        data.algorithms,
        Labels(spec.study.algorithm_labels()),
        outcomes=[(o.kind, o.id, o.result) for o in outcomes],
        resamples=spec.study.summary.resamples,
        seed=spec.study.summary.seed,
        problem_groups=data.groups,
    )
    return StudyResults(
        spec=spec,
        data=data,
        analyses=tuple(outcomes),
        caveats=tuple(caveats),
        synthesis=synthesis,
        caveat_origins=tuple(origins),
        executor=executor_info,
    )


READS_BY_PROBLEM = frozenset(
    {
        "performance_profiles",
        "runtime_ecdf",
        "convergence",
        "u_scores",
        "problem_table",
        "significance_relation",
        "probabilistic_profiles",
        "perspectives",
    }
)
"""Analyses that read a partitioned source problem by problem, in their work items
(:meth:`reportgen.data.frames.AnalysisData.problem_items`); the others get its whole table."""


def _compute_analyses(
    spec: LoadedSpec, data: StudyData, say: Progress
) -> tuple[list[AnalysisOutcome], dict[str, list[Caveat]]]:
    """Every analysis's result (on the current executor) and its selection caveats."""
    outcomes = []
    problems: list[Problem] = []
    selection_caveats: dict[str, list[Caveat]] = {}
    for index, options in enumerate(spec.study.analyses):
        analysis_id = spec.study.analysis_id(index)
        say(f"computing {analysis_id}")
        kind = ANALYSES[options.kind]
        try:
            view, selection_caveats[analysis_id] = _analysis_data(spec, data, index, options)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        if options.kind not in READS_BY_PROBLEM:
            view = view.materialized()  # a partitioned source read whole, here
        try:
            result = kind.compute(view, options)
        except InputError as exc:
            for problem in exc.problems:
                key = ("analyses", index, problem.where) if problem.where else ("analyses", index)
                problems.append(Problem(spec.where(key), problem.message))
            continue
        published = None
        if options.published is not None:
            try:
                published = compare_published(
                    options.published,
                    result.tables(),
                    spec.base_dir,
                    lambda *key, i=index: spec.where(("analyses", i, "published", *key)),
                )
            except InputError as exc:
                problems.extend(exc.problems)
                continue
        outcomes.append(AnalysisOutcome(analysis_id, options.kind, options, result, published))
    if problems:
        raise InputError(problems)
    return outcomes, selection_caveats


def _analysis_data(
    spec: LoadedSpec, data: StudyData, index: int, options: Any
) -> tuple[AnalysisData, list[Caveat]]:
    """The data analysis ``index`` reads (with its ``select:``), complete over the sources it
    reads together (:mod:`reportgen.data.select`); problems located in the spec.
    """
    exclude = spec.study.problems is not None and spec.study.problems.incomplete == "exclude"
    try:
        return complete_problems(data.for_analysis(options.data, options.select), exclude)
    except InputError as exc:
        raise InputError(
            Problem(spec.where(("analyses", index, p.where)), p.message) for p in exc.problems
        ) from None


def validate_study(
    study: LoadedSpec | str | Path, strict: bool = False, progress: Progress | None = None
) -> StudyResults:
    """Check the spec and the data and run the computations; raise InputError on any problem.

    The spec's ``report.output`` is checked as ``run`` checks it (a folder holding the study's
    own files, one that exists and was not written by reportgen, a path through a file), and
    so is a PDF in ``report.formats`` (weasyprint's system libraries): a study that validates
    is one that ``run`` accepts, and its problems are listed with every other.
    """
    spec = study if isinstance(study, LoadedSpec) else load_spec(study)
    try:
        _output_target(spec, None)
        output: list[Problem] = []
    except InputError as exc:
        output = list(exc.problems)
    output += _pdf_problems(spec)
    try:
        results = compute_study(spec, progress)
    except InputError as exc:
        raise InputError([*output, *exc.problems]) from None
    if output:
        raise InputError(output)
    for caveat in _unprintable(results):
        results = _with_caveat(results, caveat, "pdf")
    if strict:
        _raise_for_caveats(results)
    return results


def new_caveats(results: StudyResults) -> list[Caveat]:
    """The caveats whose code the spec does not acknowledge in ``accept``."""
    accepted = set(results.spec.study.accept)
    return [c for c in results.caveats if c.code not in accepted]


def _raise_for_caveats(results: StudyResults, printed: Sequence[Caveat] = ()) -> None:
    """--strict: every warning the spec does not acknowledge is an error (``printed``: those
    only printed, not yet among the results)."""
    accepted = set(results.spec.study.accept)
    new = [*new_caveats(results), *(c for c in printed if c.code not in accepted)]
    if new:
        raise InputError(
            Problem(
                "--strict",
                f"warning [{c.code}] treated as an error: {c.message} {c.where}".strip()
                + f" (acknowledge it with 'accept: [{c.code}]' in the spec)",
            )
            for c in new
        )


def run_study(
    study: LoadedSpec | str | Path | Mapping[str, Any],
    output_dir: str | Path | None = None,
    *,
    strict: bool = False,
    progress: Progress | None = None,
    command_line: str | None = None,
    bundle: bool = False,
    baseline: str | Path | None = None,
) -> StudyResults:
    """Validate, compute, and write the complete report.

    Parameters
    ----------
    study : LoadedSpec, path or mapping
        The study (from :func:`load_study`), the path of its spec, or the spec as a dict.
    output_dir : path, optional
        Where the report goes; default: ``report.output`` of the spec, relative to it.
    strict : bool
        Treat warnings (caveats) as errors.
    progress : callable, optional
        Called with a short message at each stage.
    command_line : str, optional
        Recorded in the provenance (default: this process's arguments).
    bundle : bool
        Also write ``supplement.zip`` for a journal (:mod:`reportgen.bundle`).
    baseline : path, optional
        A previous output folder or its results.json: the executive summary then lists what
        changed since it, and ``tables/summary/changes.csv`` holds every change
        (:mod:`reportgen.changes`). It may be the output folder itself (read before it is
        replaced).

    Returns
    -------
    StudyResults
        Every analysis result, with ``output_dir`` set.
    """
    for name, value in (("output_dir", output_dir), ("baseline", baseline)):
        if value is not None and not isinstance(value, (str, os.PathLike)):
            raise TypeError(
                f"{name}: expected a path (str or pathlib.Path); got {type(value).__name__}"
            )
    spec = study if isinstance(study, LoadedSpec) else load_spec(study)
    say = progress or (lambda _: None)
    target, where = _output_target(spec, output_dir)
    if pdf := _pdf_problems(spec):  # before the analyses, not once they are done
        raise InputError(pdf)
    # A weekly job's first run: its own output folder as baseline, not written yet.
    first_report = baseline is not None and _no_report_yet(baseline, target)
    # Read first: a file that is no results.json is refused before the analyses run.
    baseline_document = (
        read_baseline(baseline) if baseline is not None and not first_report else None
    )
    results = compute_study(spec, say)
    # Printed, not written (they depend on this machine's fonts): added once it is written.
    unprintable = _unprintable(results)
    if strict:
        _raise_for_caveats(results, unprintable)
    # The report reads the results and the per-run tables only: the records are let go
    # before figures are drawn (by forked processes, which would count them as theirs too).
    results = dataclasses.replace(results, data=results.data.without_records())
    results, style = present_study(results, say)
    other_study = False
    if baseline_document is not None:
        say("comparing with the baseline")
        results, other_study = _with_changes(results, style, baseline_document, str(baseline))

    def write(folder: Path) -> None:
        _write_report(results, folder, style, say, command_line)
        if bundle:
            say("writing supplement.zip")
            write_bundle(
                folder,
                spec,
                results.data.files,
                folder / BUNDLE_NAME,
                package_version(),
                say,
                lambda html, pdf: write_pdf(html, folder, pdf, progress=say),
            )

    user_files = publish(target, write, marker=OUTPUT_MARKER, where=where)
    if first_report:
        results = _with_caveat(
            results,
            Caveat(
                "baseline_missing",
                f"The baseline {baseline} is this report's own output folder and held no "
                "report yet (a first run): there was nothing to compare.",
                "--baseline",
            ),
            "baseline",
        )
    if other_study:
        # Printed, not written: results.json stays a function of spec and data.
        results = _with_caveat(
            results,
            Caveat(
                "baseline_other_study",
                f"The baseline {baseline} shares no algorithm and no problem with this study: "
                "every algorithm and problem is listed as added and removed (was it the "
                "intended baseline?).",
                "--baseline",
            ),
            "baseline",
        )
    for caveat in unprintable:
        results = _with_caveat(results, caveat, "pdf")
    if user_files:
        results = _with_caveat(
            results,
            Caveat(
                "user_files_deleted",
                f"{counted(len(user_files), 'file')} that reportgen did not write were in the previous "
                f"report folder {target} and were deleted with it (keep your own files "
                "outside the output folder).",
                ", ".join(shorten(f) for f in user_files[:10])
                + (f" and {len(user_files) - 10} more" if len(user_files) > 10 else ""),
            ),
            "output",
        )
    return dataclasses.replace(results, output_dir=target)


def _no_report_yet(baseline: str | os.PathLike[str], target: Path) -> bool:
    """Whether ``baseline`` names the output folder ``target`` (or its results.json) and there
    is no report there yet: the first run of ``reportgen run study.yaml --baseline out/`` on a
    schedule. Any other baseline that does not exist stays an error (a mistyped path)."""
    given = real_path(baseline)
    own = real_path(target)
    return given in (own, own / "results.json") and not (own / "results.json").exists()


def _with_caveat(results: StudyResults, caveat: Caveat, origin: str) -> StudyResults:
    """The results with one more caveat (printed as a warning; not in the written report)."""
    return dataclasses.replace(
        results,
        caveats=(*results.caveats, caveat),
        caveat_origins=(*results.caveat_origins, origin),
    )


def present_study(
    results: StudyResults, progress: Progress | None = None
) -> tuple[StudyResults, FigureStyle]:
    """Build every analysis's report section and the executive summary (nothing is written)."""
    with plain_text():
        return _present_study(results, progress)


def _present_study(
    results: StudyResults, progress: Progress | None
) -> tuple[StudyResults, FigureStyle]:
    say = progress or (lambda _: None)
    spec = results.spec
    style = make_style(list(results.data.algorithms), spec.study.algorithm_labels())
    outcomes = []
    for outcome in results.analyses:
        say(f"presenting {outcome.id}")
        section = ANALYSES[outcome.kind].build_section(outcome.result, outcome.options, style)
        section = dataclasses.replace(section, id=outcome.id)
        section = section.with_notes(outcome.options.notes)
        if outcome.published is not None:
            block = published_block(outcome.published)
            section = dataclasses.replace(section, blocks=(*section.blocks, block))
        outcomes.append(dataclasses.replace(outcome, section=section))
    say("writing the executive summary")
    # Analyses are sections 2, 3, … in spec order (the summary is section 1).
    references = {
        o.id: f"§{number} {o.section.title}"
        for number, o in enumerate(outcomes, start=2)
        if o.section is not None
    }
    summary = build_summary_section(results.synthesis, style, references)
    return dataclasses.replace(results, analyses=tuple(outcomes), summary=summary), style


def _with_changes(
    results: StudyResults, style: FigureStyle, baseline: dict[str, Any], name: str
) -> tuple[StudyResults, bool]:
    """The results with the changes since ``baseline`` appended to the executive summary, and
    whether the baseline is of another study (:func:`reportgen.changes.unrelated`)."""
    provenance = _what_was_read(results)  # which files changed; the rest is not compared
    current = json.loads(json.dumps(results_document(results, style, provenance), allow_nan=False))
    changes = compare_results(baseline, current)
    other_study = unrelated(baseline, current)
    labels = dict(baseline.get("labels", {})) | {a: style.label(a) for a in results.data.algorithms}
    assert results.summary is not None
    blocks = changes_blocks(changes, baseline, name, labels, other_study)
    summary = dataclasses.replace(results.summary, blocks=(*results.summary.blocks, *blocks))
    return dataclasses.replace(results, summary=summary, changes=changes), other_study


def _problem_labels(data: StudyData) -> list[str]:
    pairs = {
        (str(p), int(d))
        for source in data.sources.values()
        # The per-run table, not the records (28.8 M rows at the paper's scale).
        for p, d in source.runs[["problem", "dimension"]].drop_duplicates().itertuples(index=False)
    }
    return [problem_label(p, d) for p, d in sorted_problems(pairs)]


def results_document(
    results: StudyResults, style: FigureStyle, provenance: dict[str, Any]
) -> dict[str, Any]:
    """The content of ``results.json`` for presented results (see :func:`present_study`).

    Lists longer than :data:`~reportgen.present.jsonable.JSON_LIST_LIMIT` entries keep their
    first entries; ``truncated`` maps each such list's path to ``{"kept", "total"}`` (the CSV
    tables hold every entry).
    """
    spec = results.spec
    cut: dict[str, int] = {}  # the lists cut to JSON_LIST_LIMIT entries, by path
    analyses_json: dict[str, Any] = {}
    for outcome in results.analyses:
        assert outcome.section is not None
        analyses_json[outcome.id] = {
            "kind": outcome.kind,
            "options": outcome.options.model_dump(mode="json"),
            "result": cap_lists(outcome.result.to_json(), f"analyses.{outcome.id}.result", cut),
            "findings": _findings_json(outcome.section),
            **({"published": outcome.published.to_json()} if outcome.published is not None else {}),
            "caveats": [c.to_json() for c in outcome.result.caveats],
        }
    return {
        "reportgen": {"version": package_version(), "format": RESULTS_FORMAT},
        "study": spec.study.study.model_dump(mode="json"),
        "minimize": spec.study.minimize,
        "algorithms": list(results.data.algorithms),
        "labels": {a: style.label(a) for a in results.data.algorithms},
        "problems": _problem_labels(results.data),
        "summary": cap_lists(results.synthesis.to_json(), "summary", cut),
        "analyses": analyses_json,
        "truncated": {
            path: {"kept": JSON_LIST_LIMIT, "total": total} for path, total in cut.items()
        },
        "caveats": [
            {"origin": origin, **c.to_json()}
            for origin, c in zip(results.caveat_origins, results.caveats, strict=True)
        ],
        "provenance": provenance,
    }


@dataclass(frozen=True)
class ResultTable:
    """One machine-readable table of the results, written as ``tables/<name>.csv``."""

    name: str
    """``<analysis id>/<table>`` or ``summary/<table>``."""
    frame: pd.DataFrame
    latex: bool
    """Also written as ``tables/<name>.tex`` (booktabs)."""


def result_tables(results: StudyResults) -> list[ResultTable]:
    """Every table of the results — the executive summary's, each analysis's, each published
    comparison — in full (``results.json`` may cut their long lists; these never are). The
    changes since a baseline are not among them: they depend on the baseline, not only on spec
    and data."""
    tables = [ResultTable(f"summary/{n}", f, False) for n, f in results.synthesis.tables().items()]
    for outcome in results.analyses:
        tables += [
            ResultTable(f"{outcome.id}/{n}", f, True) for n, f in outcome.result.tables().items()
        ]
        if outcome.published is not None:
            tables.append(ResultTable(f"{outcome.id}/published", outcome.published.frame, False))
    return tables


def _unprintable(results: StudyResults) -> list[Caveat]:
    """The ``unprintable_characters`` warnings when the study asks for a PDF or figures as
    PDF (:mod:`reportgen.render.glyphs`): characters of its names those PDFs cannot show."""
    report = results.spec.study.report
    if "pdf" not in report.formats and not report.figures.pdf:
        return []
    sources = [
        (
            name,
            source.runs["algorithm"].astype(str).unique(),
            source.runs["problem"].astype(str).unique(),
            [f.display for f in source.files],
        )
        for name, source in results.data.sources.items()
    ]
    return unprintable_caveats(
        results.spec,
        results.data.algorithms,
        sources,
        report_pdf="pdf" in report.formats,
        figure_pdfs=report.figures.pdf,
    )


def _pdf_problems(spec: LoadedSpec) -> list[Problem]:
    """The spec asks for a PDF that this environment cannot render (its system libraries are
    missing: :func:`reportgen.render.pdf.pdf_unavailable`)."""
    if "pdf" not in spec.study.report.formats:
        return []
    reason = pdf_unavailable()
    return [] if reason is None else [Problem(spec.where(("report", "formats")), reason)]


def _output_target(spec: LoadedSpec, output_dir: str | Path | None) -> tuple[Path, str]:
    """The output folder (absolute) and how problems name its setting, once checked by
    :func:`_check_output_target`: the spec's ``report.output`` or the caller's folder."""
    target = (
        Path(output_dir)
        if output_dir is not None
        else spec_path(spec.base_dir, spec.study.report.output)
    )
    # Problems with the folder name the setting it came from: the spec's, or the caller's.
    where = (
        spec.where(("report", "output"))
        if output_dir is None
        else "the output folder given (-o, output_dir)"
    )
    with writing(target, where):
        target = real_path(target)
        _check_output_target(target, spec, where)
    return target, where


def _check_output_target(target: Path, spec: LoadedSpec, where: str) -> None:
    """Refuse output folders whose replacement would destroy the user's files, or the
    current folder of the caller."""
    protected = [
        spec.path,
        *(spec_path(spec.base_dir, s.path) for s in spec.study.data.values() if s.path),
    ]
    for path in protected:
        if real_path(path).is_relative_to(target):
            raise InputError(
                Problem(
                    where,
                    f"the output folder {target} contains the study's own files ({path.name}); "
                    "choose a folder of its own, such as 'out/'",
                )
            )
    current = _current_folder()
    if current is not None and current.is_relative_to(target):
        # The folder is replaced as a whole (renamed away, then deleted): the shell or notebook
        # would be left in a deleted folder, showing it empty, while the report is elsewhere.
        raise InputError(
            Problem(
                where,
                f"the output folder {target} is the current folder or holds it; reportgen "
                "replaces the output folder as a whole, which would leave you in a deleted "
                "folder: run from another folder, or choose another output folder",
            )
        )
    blocked = in_the_way(target)
    if blocked is not None:
        raise InputError(Problem(where, f"cannot write the report to {target}: {blocked}"))
    if target.exists() and (
        not target.is_dir() or (any(target.iterdir()) and not (target / OUTPUT_MARKER).exists())
    ):
        raise InputError(
            Problem(
                where,
                f"{target} exists and was not written by reportgen; refusing to replace it "
                "(remove it or choose another output folder)",
            )
        )


def _current_folder() -> Path | None:
    """The current folder, resolved; None when it was deleted (it then holds no output)."""
    try:
        return real_path(Path.cwd())
    except FileNotFoundError:
        return None


def _findings_json(section: Section) -> list[dict[str, Any]]:
    return [
        finding.to_json()
        for block in section.blocks
        if isinstance(block, Prose)
        for finding in block.findings
    ]


def _write_report(
    results: StudyResults, folder: Path, style: FigureStyle, say: Progress, command_line: str | None
) -> None:
    spec = results.spec
    (folder / OUTPUT_MARKER).write_text(
        "This folder was written by reportgen and is replaced on the next run.\n"
    )
    assert results.summary is not None
    say("writing the tables")
    for table in result_tables(results):
        write_csv(table.frame, folder / "tables" / f"{table.name}.csv")
        if table.latex:
            write_latex(table.frame, folder / "tables" / f"{table.name}.tex")
    if results.changes is not None:
        write_csv(results.changes, folder / "tables" / f"{CHANGES_TABLE}.csv")
    sections = [results.summary, *(o.section for o in results.analyses if o.section is not None)]
    figures = sum(isinstance(b, FigureBlock) for s in sections for b in s.blocks)
    say(f"drawing {counted(figures, 'figure')}")
    formats = spec.study.report.formats
    written = write_blocks(
        sections, folder, results.spec.study.report.figures, for_print="pdf" in formats
    )
    provenance = _provenance(results, command_line)
    write_json(results_document(results, style, provenance), folder / "results.json")
    say("rendering the report")
    document = _document(results, written, provenance)
    if "html" in formats:
        (folder / "report.html").write_text(render_html(document), encoding="utf-8")
    if "pdf" in formats:
        write_pdf(
            render_html(document, for_print=True), folder, folder / "report.pdf", progress=say
        )


def _what_was_read(results: StudyResults) -> dict[str, Any]:
    """The provenance's ``spec`` and ``inputs``: each file read, with its SHA-256 (what
    ``--baseline`` compares to say that the data changed, :mod:`reportgen.changes`)."""
    spec = results.spec
    absolute = spec.study.report.paths == "absolute"
    return {
        "spec": {
            "path": str(spec.path) if absolute else spec.path.name,
            "sha256": hashlib.sha256(
                spec.path.read_bytes() if spec.source_text is None else spec.text().encode()
            ).hexdigest(),
        },
        "inputs": [
            {
                "source": f.source,
                "file": str(real_path(spec_path(spec.base_dir, f.display)))
                if absolute
                else f.display,
                "rows": f.rows,
                "sha256": f.sha256,
            }
            for f in results.data.files
        ],
    }


PROVENANCE_PACKAGES = (
    "reportgen",
    "numpy",
    "pandas",
    "pyarrow",
    "scipy",
    "networkx",
    "matplotlib",
    "pydantic",
    "jinja2",
    "weasyprint",
    "pyyaml",
)
"""The packages whose versions the provenance records: reportgen and every package it needs
(pyproject.toml's ``dependencies``; tests/test_packaging.py checks the two agree), the ones
a number, a table or a figure can depend on — pyarrow parses the CSV numbers and reads the
Parquet files. Not dask or distributed: the optional executor changes no number
(docs/distributed.md), ``reportgen verify`` reruns locally without it, and the executor's
own block of the provenance names the distributed version a run used."""


def package_versions() -> dict[str, str]:
    """The installed version of each of :data:`PROVENANCE_PACKAGES` ("not installed")."""
    packages = {}
    for name in PROVENANCE_PACKAGES:
        try:
            packages[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            packages[name] = "not installed"
    return packages


def _provenance(results: StudyResults, command_line: str | None) -> dict[str, Any]:
    spec = results.spec
    packages = package_versions()
    absolute = spec.study.report.paths == "absolute"
    command = (
        command_line
        if command_line is not None
        else " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])
    )
    return {
        **_what_was_read(results),
        "packages": packages,
        "bootstrap": {
            "resamples": results.synthesis.uncertainty.resamples,
            "seed": results.synthesis.uncertainty.seed,
        },
        "executor": dict(results.executor),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "command_line": command if absolute else _relative_command(command, spec.base_dir),
        "time": _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
    }


def _executor_words(executor: Mapping[str, Any]) -> str:
    """The provenance's executor in words (``execution:`` of the spec)."""
    if executor.get("engine") != "dask":
        return "this process (execution.engine: local)"
    where = "a LocalCluster" if executor["scheduler"] == "local" else executor["scheduler"]
    return (
        f"Dask {executor['distributed']}: per-problem work on "
        f"{counted(executor['workers'], 'worker')} of {where}; cross-problem steps in this process"
    )


def _relative_command(command: str, base_dir: Path) -> str:
    """The command line with every absolute path written relative to the spec's folder."""
    return " ".join(
        os.path.relpath(word, base_dir) if os.path.isabs(word) else word
        for word in command.split(" ")
    )


def _document(
    results: StudyResults,
    written: Mapping[BlockKey, WrittenBlock],
    provenance: dict[str, Any],
) -> Document:
    spec = results.spec
    assert results.summary is not None
    sections = [results.summary, *(o.section for o in results.analyses if o.section is not None)]
    summary, *rendered = render_sections(sections, written, first_number=1)
    toc = [("1", "sec-summary", "Executive summary")]
    toc += [(s.number, s.anchor, s.title) for s in rendered]
    toc += [
        ("A", "app-methods", "Methods"),
        ("B", "app-data", "Data"),
        ("C", "app-provenance", "Provenance"),
    ]
    data_sources = []
    for name, source in results.data.sources.items():
        data_sources.append(
            {
                "name": name,
                "format": source.format,
                "summary": source_summary(
                    source, Labels(spec.study.algorithm_labels()), results.data.algorithms
                ),
                # In natural order (DES_2_10 before DES_10_10), as problems are everywhere else;
                # the provenance keeps the order the files were read in.
                "files": [
                    {"display": f.display, "rows": f.rows, "sha256": f.sha256}
                    for f in sorted(source.files, key=lambda f: natural_key(f.display))
                ],
            }
        )
    prov_rows = [
        ("spec", f"{provenance['spec']['path']} (SHA-256 {provenance['spec']['sha256']})"),
        ("command", provenance["command_line"]),
        ("time (UTC)", provenance["time"]),
        (
            "ranking bootstrap",
            f"{provenance['bootstrap']['resamples']} resamples of the problems (and of the runs "
            "where the analysis keeps them), seed "
            f"{provenance['bootstrap']['seed']} (summary.seed)",
        ),
        ("executor", _executor_words(provenance["executor"])),
        ("python", f"{provenance['python']} on {provenance['platform']}"),
        ("packages", ", ".join(f"{k} {v}" for k, v in provenance["packages"].items())),
    ]
    return Document(
        title=spec.study.study.title,
        authors=tuple(spec.study.study.authors),
        description=spec.study.study.description,
        date=provenance["time"][:10],
        version=package_version(),
        overview=overview(
            results.data,
            Labels(spec.study.algorithm_labels()),
            len(results.analyses),
            spec.study.minimize,
        ),
        summary=summary,
        sections=tuple(rendered),
        caveats=tuple(
            (origin, caveat.labelled(Labels(spec.study.algorithm_labels())))
            for origin, caveat in zip(results.caveat_origins, results.caveats, strict=True)
        ),
        data_sources=tuple(data_sources),
        provenance=tuple(prov_rows),
        spec_text=published_spec_text(spec),
        toc=tuple(toc),
        verbatim=_names(results),
    )


def _names(results: StudyResults) -> tuple[str, ...]:
    """The report's names (algorithms, labels, problems, groups, sources, analyses), which
    the HTML prints as written (:mod:`reportgen.render.html`: ``f_x`` is no symbol with a
    subscript; a right-to-left name is isolated from the English around it)."""
    names = {
        *results.data.algorithms,
        *results.spec.study.algorithm_labels().values(),
        *results.data.groups,
        *results.data.sources,
        *(o.id for o in results.analyses),
    }
    for source in results.data.sources.values():
        names.update(str(p) for p in source.runs["problem"].unique())
    return tuple(sorted(names))
