"""The supplement bundle: one zip a journal can host next to a paper, and that reruns itself.

``supplement.zip`` holds::

    README.txt        what is where, and the exact commands that check and rerun the study
    INPUTS.sha256     SHA-256 of the bundled spec and of every input (``sha256sum -c`` from here)
    report/           the report: report.html, report.pdf, results.json, tables/, figures/
    study/<spec>      the study spec, its data paths rewritten to point at study/inputs/
    study/inputs/...  every file the study read (each once; folders such as COCO or
                      IOHprofiler output with every file in them)

Decisions
---------
- Names inside the bundle never hold a path of the author's machine and never ``..``: a file
  under the spec's folder keeps its path relative to that folder (``data/runs.csv`` →
  ``inputs/data/runs.csv``); files elsewhere (a sibling folder, an absolute path) go under
  ``inputs/<name of their folder>/`` (made unique with ``-2``, ``-3``, …), keeping their paths
  relative to that folder so that files that name each other (IOHprofiler's ``.json`` and its
  ``.dat`` files) still find each other.
- A source given as a DataFrame (the Python API's ``frames``) is written as
  ``inputs/dataframes/<source>.csv`` with the frame's own columns (the source keeps its
  ``format`` and ``columns``), so the bundle reruns without the author's Python session; a spec
  given as a mapping is bundled as ``study/study.yaml``.
- The spec is rewritten with its comments dropped: each source's ``path``/``paths`` becomes the
  explicit list of bundled files or folders, in the order the study read them (a glob is
  expanded, so the rerun reads the same files in the same order); an analysis's
  ``published.path`` points at its bundled copy; an absolute ``report.output`` becomes ``out``;
  an ``execution:`` naming a running Dask scheduler (``tcp://…``, the author's cluster) is
  dropped, so the rerun runs in its own process (the executor changes no number).
- The bundled ``report/results.json`` names inputs as the rerun will (``inputs/...``): the
  rewritten spec is loaded and its data read once while bundling, and every input name of the
  original run is replaced by the rerun's. So ``reportgen verify`` compares like with like, and
  the bundle's results.json holds no absolute path of the author's machine. In report.html
  the absolute paths (spec, spec folder, inputs given by absolute path) are replaced by their
  bundle names too, and when there were any, the bundled report.pdf is rendered again from that
  HTML (the output folder's own report.html and report.pdf keep them).
- A DataFrame source is, in the bundled report.html and results.json alike, the bundled CSV
  file: its name (for "DataFrame 'x'" and the spec listing's placeholder path) and that file's
  SHA-256 (for the frame's own, which no file of the bundle has).
- Entries are sorted and carry a fixed timestamp: the same report gives the same zip bytes.
- An input whose bundled copy differs from what the study read (changed by another process
  while the report was written: an export still running) is an input problem naming the
  file, and no report is put in place: a supplement whose data is not its numbers' would
  pass the reviewer's hash check and fail the rerun, blaming the author's numbers.
"""

from __future__ import annotations

import glob
import hashlib
import json
import shutil
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath
from typing import Any

import yaml
from markupsafe import escape

from reportgen.data.load import FileRecord, load_data
from reportgen.data.read import resolve_paths
from reportgen.errors import InputError, Problem
from reportgen.paths import spec_path
from reportgen.spec.load import LoadedSpec, SpecLoader, frame_path, load_spec

BUNDLE_NAME = "supplement.zip"
"""The supplement's name in the report folder (``reportgen run --bundle``)."""
STUDY_FOLDER = "study"
"""The bundle's folder of the spec and its inputs."""
INPUTS_FOLDER = "inputs"
MANIFEST = "INPUTS.sha256"
README = "README.txt"
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


def file_sha256(path: Path) -> str:
    """SHA-256 of one file, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class _Names:
    """Bundle names (relative to ``study/``) of the files and folders a study read."""

    def __init__(self, base_dir: Path) -> None:
        self.base_dir = base_dir.resolve()
        self.anchors: dict[Path, str] = {}  # outside folder → its name under inputs/

    def _anchor(self, path: Path) -> tuple[Path, str]:
        if path.is_relative_to(self.base_dir):
            return self.base_dir, INPUTS_FOLDER
        for anchor, name in self.anchors.items():
            if path.is_relative_to(anchor):
                return anchor, name
        raise KeyError(path)

    def add_anchor(self, folder: Path) -> None:
        """Make ``folder`` (outside the spec's folder) a top folder under ``inputs/``."""
        folder = folder.resolve()
        if folder.is_relative_to(self.base_dir):
            return
        if any(folder.is_relative_to(a) for a in self.anchors):
            return
        # A new anchor that contains earlier ones replaces them (their files move under it).
        for inner in [a for a in self.anchors if a.is_relative_to(folder)]:
            del self.anchors[inner]
        taken = {n.split("/", 1)[1] for n in self.anchors.values()}
        taken |= {p.name for p in self.base_dir.iterdir()} if self.base_dir.is_dir() else set()
        stem = folder.name or "external"
        name, number = stem, 2
        while name in taken:
            name, number = f"{stem}-{number}", number + 1
        self.anchors[folder] = f"{INPUTS_FOLDER}/{name}"

    def name(self, path: Path) -> str:
        """The bundle name (``inputs/...``, POSIX, no ``..``) of a file or folder."""
        path = path.resolve()
        anchor, prefix = self._anchor(path)
        relative = path.relative_to(anchor).as_posix()
        return prefix if relative == "." else f"{prefix}/{relative}"


def _expand(path: Path) -> list[Path]:
    return sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]


def _source_roots(spec: LoadedSpec) -> tuple[dict[str, list[Path]], dict[str, Path]]:
    """Per data source, the files or folders its ``path``/``paths`` name, as the loader reads
    them; and every absolute path the spec writes, with the file or folder it names."""
    roots: dict[str, list[Path]] = {}
    absolute: dict[str, Path] = {}
    for name, source in spec.study.data.items():
        if name in spec.frames:
            continue  # a DataFrame of the Python API: written as a file by write_bundle
        patterns = (
            [source.path]
            if source.path is not None
            else ([source.paths] if isinstance(source.paths, str) else list(source.paths or []))
        )
        found = resolve_paths(
            patterns,
            spec.base_dir,
            spec.where(("data", name)),
            allow_folders=source.format in ("coco", "ioh"),
        )
        roots[name] = [path.resolve() for path, _ in found]
        absolute |= {
            pattern: Path(pattern).resolve()
            for pattern in patterns
            if Path(pattern).is_absolute() and not any(ch in pattern for ch in "*?[")
        }
    return roots, absolute


def _other_files(spec: LoadedSpec) -> dict[tuple[str | int, ...], Path]:
    """Files the spec names outside ``data`` (an analysis's ``published`` table), by key path."""
    return {
        ("analyses", index, "published", "path"): (
            spec_path(spec.base_dir, analysis.published.path)
        ).resolve()
        for index, analysis in enumerate(spec.study.analyses)
        if analysis.published is not None
    }


def bundled_spec_name(spec: LoadedSpec) -> str:
    """The spec's file name in the bundle: its own, or ``study.yaml`` for a spec given as a
    mapping (the Python API)."""
    return "study.yaml" if spec.source_text is not None else spec.path.name


def _frame_names(spec: LoadedSpec, taken: set[str]) -> dict[str, str]:
    """Bundle names of the sources given as DataFrames (the Python API): each is written as
    ``inputs/dataframes/<source>.csv`` (``-2``, ``-3``, … if the name is taken)."""
    out: dict[str, str] = {}
    for source in spec.frames:
        stem = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in source) or "frame"
        name, number = f"{INPUTS_FOLDER}/dataframes/{stem}.csv", 2
        while name in taken or name in out.values():
            name, number = f"{INPUTS_FOLDER}/dataframes/{stem}-{number}.csv", number + 1
        out[source] = name
    return out


def _literal(name: str) -> str:
    """A bundle name as a spec path: glob characters escaped so the name matches only itself."""
    return glob.escape(name) if any(ch in name for ch in "*?[") else name


def bundled_spec_text(
    spec: LoadedSpec,
    paths: dict[str, list[str]],
    others: dict[tuple[str | int, ...], str] | None = None,
) -> str:
    """The spec with each source's paths (and ``others``, by key path) replaced by the bundled
    files (see the module notes)."""
    raw = yaml.load(spec.text(), Loader=SpecLoader)  # as the spec was read
    for key_path, name in (others or {}).items():
        node = raw
        for key in key_path[:-1]:
            node = node[key]
        node[key_path[-1]] = name
    for name, names in paths.items():
        rest = {k: v for k, v in raw["data"][name].items() if k not in ("path", "paths")}
        if len(names) == 1 and spec.study.data[name].path is not None:
            raw["data"][name] = {"path": _literal(names[0]), **rest}
        else:
            raw["data"][name] = {"paths": [_literal(n) for n in names], **rest}
    report = raw.get("report")
    if isinstance(report, dict) and Path(str(report.get("output", "out"))).is_absolute():
        report["output"] = "out"
    execution = raw.get("execution")
    if isinstance(execution, dict) and execution.get("scheduler", "local") != "local":
        del raw["execution"]  # the author's scheduler: the rerun runs in its own process
    header = (
        "# The study spec as bundled by reportgen: every data path points at the copies in "
        "inputs/.\n# Rerun from the bundle's top folder: reportgen run "
        f"study/{bundled_spec_name(spec)} -o rerun\n"
    )
    return header + yaml.safe_dump(
        raw, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
    )


def _replace_names(value: Any, pairs: list[tuple[str, str]]) -> Any:
    if isinstance(value, str):
        for old, new in pairs:
            value = value.replace(old, new)
        return value
    if isinstance(value, dict):
        return {k: _replace_names(v, pairs) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace_names(v, pairs) for v in value]
    return value


def _readme(spec_name: str, title: str, version: str) -> str:
    return f"""Supplement: {title}
Written by reportgen {version}. Everything needed to check and rerun the study is in here.

  report/            the report (report.html, report.pdf), results.json, tables/, figures/
  study/{spec_name:<12} the study spec; its data paths point at the copies in study/inputs/
  study/inputs/      every input file the study read
  {MANIFEST:<17}  SHA-256 of the spec and of every input

Check and rerun, from this folder (the one holding this README), with reportgen installed:

  sha256sum -c {MANIFEST}
  reportgen run study/{spec_name} -o rerun
  reportgen verify .

`reportgen verify` (also on the zip itself: reportgen verify supplement.zip) checks the hashes,
reruns the study and compares every number of the new results.json with report/results.json;
it exits 0 when all reproduce and 1 otherwise, listing the numbers that do not.
"""


def _refuse_changed_inputs(read: list[tuple[FileRecord, FileRecord]], spec: LoadedSpec) -> None:
    """An input whose bundled copy is not what the study read (the file was changed while the
    report was written) is refused: the supplement would hold other data than its numbers came
    from, and the reviewer's ``verify`` would find hashes that match and numbers that do not."""
    changed = [
        Problem(
            old.display,
            "changed while the report was being written (its SHA-256 differs from when the "
            "study read it): the supplement would not hold the data its numbers came from; "
            "run the study again once the file is complete",
        )
        for old, new in read
        if old.source not in spec.frames and old.sha256 != new.sha256
    ]
    if changed:
        raise InputError(changed)


def write_bundle(
    report_dir: Path,
    spec: LoadedSpec,
    records: Iterable[FileRecord],
    target: Path,
    version: str,
    progress: Callable[[str], None] | None = None,
    render_pdf: Callable[[str, Path], None] | None = None,
) -> None:
    """Write ``supplement.zip`` (see the module notes).

    Parameters
    ----------
    report_dir : Path
        The finished report folder (its files go under ``report/``).
    spec : LoadedSpec
        The study spec as the run read it.
    records : iterable of FileRecord
        The inputs the run read (with their paths), in reading order.
    target : Path
        The zip to write (it may lie inside ``report_dir``; it is not bundled into itself).
    version : str
        reportgen's version, for the README.
    progress : callable, optional
        Told when the PDF is rendered again (see the module notes).
    render_pdf : callable, optional
        ``render_pdf(html, target)`` renders HTML of ``report_dir`` to a PDF; used when the
        bundled HTML differs from the report's (absolute paths replaced). Without it the PDF
        is bundled as written.
    """
    say = progress or (lambda _: None)
    spec_name = bundled_spec_name(spec)
    records = list(records)
    roots, absolute = _source_roots(spec)
    names = _Names(spec.base_dir)
    for paths in roots.values():
        for root in paths:
            names.add_anchor(root if root.is_dir() else root.parent)
    files: dict[Path, None] = {}  # every file read, once, in reading order
    for record in records:
        if record.path is not None and record.source not in spec.frames:
            for file in _expand(record.path.resolve()):
                names.add_anchor(file.parent)
                files.setdefault(file, None)
    others = _other_files(spec)
    for path in others.values():
        names.add_anchor(path.parent)
        files.setdefault(path, None)
    source_paths = {name: [names.name(root) for root in paths] for name, paths in roots.items()}
    frame_names = _frame_names(spec, {names.name(file) for file in files})
    source_paths |= {name: [bundle_name] for name, bundle_name in frame_names.items()}
    other_names = {key: names.name(path) for key, path in others.items()}

    staging = target.with_name(f".{target.name}.study")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        study_dir = staging / STUDY_FOLDER
        bundled: dict[str, Path] = {}
        for file in files:
            name = names.name(file)
            assert ".." not in PurePosixPath(name).parts and not name.startswith("/")
            destination = study_dir / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, destination)
            bundled[name] = destination
        for source, name in frame_names.items():
            destination = study_dir / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            # Every column as the frame holds it; floats in their shortest round-trip form.
            spec.frames[source].to_csv(destination, index=False, lineterminator="\n")
            bundled[name] = destination
        spec_file = study_dir / spec_name
        spec_file.write_text(bundled_spec_text(spec, source_paths, other_names), encoding="utf-8")
        # Read the bundled study's data once: it proves the bundle loads, and gives the input
        # names the rerun will print, which replace the original ones in results.json.
        rerun = load_data(load_spec(spec_file))
        read = list(zip(records, rerun.files, strict=True))
        _refuse_changed_inputs(read, spec)
        pairs = sorted(
            {(old.display, new.display) for old, new in read if old.display != new.display},
            key=lambda pair: -len(pair[0]),
        )
        # A DataFrame is the bundled CSV file the reader gets: its name (the data appendix's
        # "DataFrame 'x'", the spec listing's placeholder path) and the file's hash, which
        # the reader can check (the frame's own hash matches no file of the bundle).
        frames = [
            pair
            for old, new in read
            if old.source in spec.frames
            for pair in ((old.display, new.display), (old.sha256, new.sha256))
        ]
        frames += [(frame_path(source), name) for source, name in frame_names.items()]
        pairs += [(old, new) for old, new in frames if old != new and (old, new) not in pairs]
        pairs += [
            (analysis.published.path, other_names[("analyses", i, "published", "path")])
            for i, analysis in enumerate(spec.study.analyses)
            if analysis.published is not None
        ]
        # Absolute paths as the spec writes them (shown in the report's copy of the spec).
        pairs += sorted(
            ((written, names.name(path)) for written, path in absolute.items()),
            key=lambda pair: -len(pair[0]),
        )
        pairs.append((str(spec.path), f"study/{spec_name}"))
        pairs.append((str(spec.base_dir), STUDY_FOLDER))  # e.g. in the recorded command line
        manifest = [f"{file_sha256(spec_file)}  study/{spec_name}"]
        manifest += [f"{file_sha256(path)}  study/{name}" for name, path in sorted(bundled.items())]
        replaced: dict[str, bytes] = {}
        html_path = report_dir / "report.html"
        if html_path.is_file():
            original = html_path.read_text(encoding="utf-8")
            html = original
            for old, new in pairs:
                if Path(old).is_absolute() or (old, new) in frames:
                    html = html.replace(escape(old), escape(new))
            if html != original:
                replaced["report.html"] = html.encode("utf-8")
                if (report_dir / "report.pdf").is_file() and render_pdf is not None:
                    # The PDF shows the same paths: render it again from the scrubbed HTML.
                    say("writing supplement.zip: the PDF without local paths")
                    render_pdf(html, staging / "report.pdf")
                    replaced["report.pdf"] = (staging / "report.pdf").read_bytes()
        with zipfile.ZipFile(target, "w") as archive:
            _add(archive, README, _readme(spec_name, spec.study.study.title, version).encode())
            _add(archive, MANIFEST, ("\n".join(manifest) + "\n").encode("utf-8"))
            for path in sorted(p for p in report_dir.rglob("*") if p.is_file()):
                relative = path.relative_to(report_dir).as_posix()
                if relative.startswith(".") or path == target:
                    continue
                data = path.read_bytes()
                if relative == "results.json":
                    document = _replace_names(json.loads(data), pairs)
                    data = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()
                data = replaced.get(relative, data)
                _add(archive, f"report/{relative}", data)
            _add(archive, f"study/{spec_name}", spec_file.read_bytes())
            for name, path in sorted(bundled.items()):
                _add(archive, f"study/{name}", path.read_bytes())
    finally:
        shutil.rmtree(staging, ignore_errors=True)
