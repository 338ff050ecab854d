"""``reportgen verify``: does a supplement bundle reproduce?

Given a ``supplement.zip`` (or the folder it was unpacked into) written by ``reportgen run
--bundle`` (:mod:`reportgen.bundle`), :func:`verify_bundle`

1. unpacks the zip into a temporary folder, refusing members that would land outside it
   (absolute names, ``..``, drive letters, symbolic links — "zip slip");
2. checks every line of ``INPUTS.sha256`` against the bundled files;
3. reruns the study from the bundled spec — data, every analysis, the report sections and
   findings, i.e. everything ``results.json`` holds — without rendering HTML, PDF or figures;
4. compares every value of the new ``results.json`` with the bundled ``report/results.json``,
   and every cell of the new tables with the bundled ``report/tables/**/*.csv``.

Decisions
---------
- Compared: every leaf of ``results.json`` except the ``provenance`` block (time, machine,
  package versions) and reportgen's version. Numbers (and ``"inf"``/``"-inf"``, as
  ``results.json`` writes infinities) are compared with a tolerance; every other value (names,
  finding texts, verdicts, missing values) must be equal. Keys or list items present on one
  side only count as differences.
- Default tolerance: integers exact, floats ``|a − b| ≤ 1e-9 · max(|a|, |b|)`` (the same
  arithmetic on another machine or BLAS may change the last bits of a float, never an integer).
  ``rtol`` replaces it for every number.
- The tables are compared in full because ``results.json`` is not: its lists longer than
  2 000 entries (pairwise comparisons of a few hundred algorithms) keep their first entries
  only (its ``truncated`` block names them), and each such list is a table. Cells are compared
  as text, numbers among them with the tolerance above; a table, column or row on one side only
  is a difference. A digest of each cut list would not do: it cannot tolerate the last bits
  of a float that another machine computes differently. ``tables/summary/changes.csv`` is not
  compared (it depends on the baseline of a ``--baseline`` run); nor are the ``.tex`` tables
  (the same numbers, formatted).
- A hash that does not match fails the verification, but the study is still rerun, so that the
  statement names the numbers the changed input moved. So does a file under ``study/inputs/``
  that ``INPUTS.sha256`` does not list: a bundled folder (COCO, IOHprofiler) is read whole by
  the rerun, so a file added to it changes the study; ``sha256sum -c`` alone would not see it.
- A damaged bundle is an input problem named by the zip (never by the temporary folder it
  was unpacked into): a results.json that is no JSON object, or of a higher format than this
  reportgen writes (a newer reportgen's: upgrade to verify it), stops the verification; a
  manifest that is no text fails the hash check; a table that is no UTF-8 text is compared as
  it reads (its cells are listed as differences).
- The rerun runs in this process (``engine: local``) whatever ``execution:`` the bundled spec
  names: the executor does not change any number (docs/distributed.md; the test suite checks
  it), and the author's Dask scheduler (``tcp://…``) is not the reviewer's, who may not even
  have Dask installed.
- The statement names every package whose version differs between the supplement's
  provenance and the rerun (reportgen, numpy, scipy, …): a reviewer whose numbers do not
  reproduce should first know that the software is not the author's; when they reproduce,
  it says so all the same (the same numbers from other versions is worth knowing too).
- A difference is named by what its row is, not by its position: a list item of
  results.json by its identifying keys (:data:`IDENTIFYING_KEYS`: ``cells[algorithm=f_x,
  problem=f3, dimension=10].p_value``), a table row by the same columns (``row 14
  (algorithm=f_x, problem=f3, dimension=10), column 'p_value'``); ``analyses[2].rows[14]``
  told the reviewer nothing without the file open. The position is kept where the keys do
  not tell one row from another (``[#3: algorithm=A]``), and for machines in
  :attr:`Difference.path`. An analysis is named by its id with its kind beside it
  (``analyses.main (u_scores).result…``, ``tables/main/totals.csv (u_scores), row 2``): an id
  is the author's word and does not tell the reviewer which method differs. The kind is left
  out where the id is the kind (the default id), and from :attr:`Difference.path`.
- Keys that results.json has since renamed (:data:`RENAMED_KEYS`) are read under their current
  name in the bundled document, so that a supplement written before the rename still verifies:
  the value is compared, the name is not.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import stat
import tempfile
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from reportgen.bundle import BUNDLE_NAME, INPUTS_FOLDER, MANIFEST, STUDY_FOLDER, file_sha256
from reportgen.changes import CHANGES_TABLE
from reportgen.errors import InputError, Problem
from reportgen.present.jsonable import format_problem
from reportgen.render.files import write_csv

DEFAULT_FLOAT_RTOL = 1e-9
IGNORED_KEYS = ("provenance", "reportgen")
"""Top-level keys of results.json that describe the run, not the study."""

RENAMED_KEYS: dict[str, tuple[tuple[tuple[str, ...], str, str], ...]] = {
    "u_scores": ((("parameters",), "data_format", "input_format"),),
    "significance_relation": (((), "source_format", "input_format"),),
}
"""Per analysis kind, the keys of its ``result`` that were renamed: (path inside ``result``,
old name, current name). The layout an analysis read was ``data_format`` (U-scores) and
``source_format`` (significance relations) before every analysis called it ``input_format``."""

IDENTIFYING_KEYS = (
    "id",
    "ranking",
    "perspective",
    "profile",
    "event",
    "sigma",
    "group",
    "tolerance",
    "lambda",
    "budget",
    "cutpoint",
    "threshold",
    "control",
    "algorithm",
    "algorithm_a",
    "algorithm_b",
    "algorithm_1",
    "algorithm_2",
    "a",
    "b",
    "winner",
    "loser",
    "reference",
    "baseline",
    "problem",
    "dimension",
    "D",
    "curve",
    "step",
    "code",
)
"""Keys (and table columns) that say which row a list item of results.json, or a table row,
is, in the order they are named: what a row is about (ranking, tolerance, algorithm, problem,
dimension, step), never what was computed for it (rank, p_value, nor the ``x`` of a curve's
point: a changed value would name its own row)."""

_MISSING = object()
_PRESENT = object()


@dataclass(frozen=True)
class Difference:
    """One value of results.json that did not reproduce."""

    path: str
    """Where the value is, for machines: list items by position (``cells[14].p_value``)."""
    bundled: Any
    rerun: Any
    named: str = ""
    """Where the value is, for people: list items by what they are (module notes);
    ``path`` when empty."""

    def __str__(self) -> str:
        def show(value: Any) -> str:
            if value is _MISSING or value is _PRESENT:
                return "(absent)" if value is _MISSING else "(present)"
            return json.dumps(value, ensure_ascii=False)

        return f"{self.named or self.path}: bundled {show(self.bundled)}, rerun {show(self.rerun)}"


@dataclass(frozen=True)
class Verification:
    """The outcome of :func:`verify_bundle`."""

    hash_problems: tuple[Problem, ...]
    numbers: int
    """How many numbers were compared."""
    values: int
    """How many other values (texts, names, missing values) were compared."""
    differences: tuple[Difference, ...]
    tables: int = 0
    """How many tables (``report/tables/**/*.csv``) were compared."""
    cells: int = 0
    """How many cells of those tables were compared."""
    table_differences: tuple[Difference, ...] = ()
    versions: tuple[tuple[str, str, str], ...] = ()
    """The packages whose version differs: (name, the supplement's, this rerun's)."""
    hashed: int = 0
    """How many files INPUTS.sha256 lists."""

    @property
    def ok(self) -> bool:
        return not self.hash_problems and not self.differences and not self.table_differences

    def statement(self, limit: int | None = 100) -> str:
        """The reproduction statement: one line when everything reproduces, else the lists."""
        lines = [f"input hash check failed: {p}" for p in self.hash_problems]
        tables = f"{_count(self.cells)} cells of the {_count(self.tables)} tables"
        # What was checked before the numbers, when it passed (a failure has its own lines).
        hashes = "" if self.hash_problems else f"{_files(self.hashed)}; "
        if not self.differences:
            lines.append(
                f"{hashes}all {_count(self.numbers)} numbers reproduce "
                f"(and {_count(self.values)} other values of results.json)"
                + ("" if self.table_differences else f", and all {tables}")
            )
        else:
            moved = [d for d in self.differences if _is_number(d.bundled) or _is_number(d.rerun)]
            lines.append(
                f"{hashes}{_count(len(self.differences))} of {_count(self.numbers + self.values)} values "
                f"of results.json do not reproduce ({_count(len(moved))} of "
                f"{_count(self.numbers)} numbers):"
            )
            lines += _listed(self.differences, limit)
            if not self.table_differences:
                lines.append(f"all {tables} reproduce")
        if self.table_differences:
            lines.append(f"{_count(len(self.table_differences))} of {tables} do not reproduce:")
            lines += _listed(self.table_differences, limit)
        if self.versions:
            lines.append(
                "the supplement was written with "
                + ", ".join(f"{name} {bundled}" for name, bundled, _ in self.versions)
                + "; this rerun used "
                + ", ".join(f"{name} {here}" for name, _, here in self.versions)
                + ("" if self.ok else " (a cause to rule out first)")
            )
        return "\n".join(lines)


def _listed(differences: tuple[Difference, ...], limit: int | None) -> list[str]:
    shown = differences if limit is None else differences[:limit]
    lines = [f"  {d}" for d in shown]
    if len(shown) < len(differences):
        lines.append(f"  … and {_count(len(differences) - len(shown))} more (--all)")
    return lines


def _files(n: int) -> str:
    """The hash check passed, in words."""
    if n == 1:
        return f"the one file of {MANIFEST} matches"
    return f"all {_count(n)} files of {MANIFEST} match"


def _count(n: int) -> str:
    return f"{n:,}".replace(",", " ")


# --- unpacking ------------------------------------------------------------------------------


def _unsafe_member(info: zipfile.ZipInfo) -> str | None:
    """Why a zip member may not be extracted, or None when it is safe."""
    name = info.filename
    parts = PurePosixPath(name.replace("\\", "/")).parts
    if name.startswith(("/", "\\")) or (parts and ":" in parts[0]):
        return "an absolute name"
    if ".." in parts:
        return "a '..' component"
    if stat.S_ISLNK(info.external_attr >> 16):
        return "a symbolic link"
    return None


def safe_extract(archive_path: Path, folder: Path) -> None:
    """Extract a zip into ``folder``; refuse it whole if any member could land outside."""
    try:
        with zipfile.ZipFile(archive_path) as archive:
            bad = [
                Problem(str(archive_path), f"refusing member '{info.filename}': {reason}")
                for info in archive.infolist()
                if (reason := _unsafe_member(info)) is not None
            ]
            if bad:
                raise InputError(bad)
            archive.extractall(folder)
    except (zipfile.BadZipFile, OSError) as exc:
        raise InputError(Problem(str(archive_path), f"cannot read the zip file: {exc}")) from None


def bundle_root(folder: Path, shown: str | None = None) -> Path:
    """The folder holding ``INPUTS.sha256``: ``folder`` itself or its only subfolder.

    ``shown`` names the bundle in problems (the zip, not the temporary folder it was unpacked
    into, which is gone when the user reads the message); default: ``folder``.
    """
    if (folder / MANIFEST).is_file():
        return folder
    inner = [p for p in folder.iterdir() if not p.name.startswith(".")]
    if len(inner) == 1 and inner[0].is_dir() and (inner[0] / MANIFEST).is_file():
        return inner[0]
    # A report folder written with --bundle holds the supplement: point at it.
    hint = (
        f"verify {folder / BUNDLE_NAME}, the supplement of this report"
        if shown is None and (folder / BUNDLE_NAME).is_file()
        else "write one with reportgen run --bundle"
    )
    raise InputError(
        Problem(shown or str(folder), f"not a reportgen supplement: no {MANIFEST} ({hint})")
    )


def check_hashes(root: Path) -> tuple[list[Problem], int]:
    """Every problem of ``INPUTS.sha256`` (``sha256sum`` format) against the files in ``root``
    (located by the file, or the manifest's line), and every file under ``study/inputs/`` that
    it does not list; then how many files it lists."""
    problems = []
    try:
        text = (root / MANIFEST).read_text("utf-8")
    except UnicodeDecodeError as exc:
        return [Problem(MANIFEST, f"not a sha256sum listing (not UTF-8 text: {exc.reason})")], 0
    listed: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        digest, _, name = line.partition("  ")
        name = name.removeprefix("*")
        if not name or len(digest) != 64 or ".." in PurePosixPath(name).parts or name[:1] == "/":
            problems.append(
                Problem(f"{MANIFEST}, line {number}", "not '<sha256>  <relative path>'")
            )
            continue
        listed.add(name)
        path = root / name
        if not path.is_file():
            problems.append(Problem(name, f"listed in {MANIFEST} but missing"))
        elif file_sha256(path) != digest.lower():
            problems.append(
                Problem(name, f"SHA-256 differs from {MANIFEST} (the file was changed)")
            )
    inputs = root / STUDY_FOLDER / INPUTS_FOLDER
    added = sorted(
        name
        for name in (p.relative_to(root).as_posix() for p in inputs.rglob("*") if p.is_file())
        if name not in listed
    )
    problems += [
        Problem(name, f"in the bundle's inputs but not listed in {MANIFEST} (added since)")
        for name in added
    ]
    return problems, len(listed)


def _spec_in(root: Path, shown: str) -> Path:
    specs = sorted(p for p in (root / STUDY_FOLDER).glob("*.y*ml") if p.is_file())
    if len(specs) != 1:
        found = ", ".join(p.name for p in specs) or "none"
        raise InputError(
            Problem(f"{shown}, study/", f"expected exactly one study spec (.yaml); found {found}")
        )
    return specs[0]


def _bundled_results(root: Path, shown: str) -> dict[str, Any]:
    """The bundle's ``report/results.json``, refused unless it is a JSON object."""
    where = f"{shown}, report/results.json"
    file = root / "report" / "results.json"
    if not file.is_file():
        raise InputError(Problem(shown, "the bundle holds no report/results.json"))
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(Problem(where, f"not a JSON document: {exc}")) from None
    if not isinstance(document, dict):
        raise InputError(Problem(where, "not a reportgen results.json (not a JSON object)"))
    unreadable = format_problem(document)
    if unreadable is not None:
        raise InputError(Problem(where, unreadable))
    return document


# --- rerun and compare ----------------------------------------------------------------------


def rerun_study(
    spec_path: Path, progress: Callable[[str], None] | None = None
) -> tuple[Any, dict[str, Any]]:
    """A fresh run of the spec (no report files are written): its results.json, as JSON data,
    and its tables (``<analysis id>/<table>`` → DataFrame)."""
    from reportgen.pipeline import (
        compute_study,
        load_study,
        present_study,
        result_tables,
        results_document,
    )
    from reportgen.spec.study import ExecutionOptions

    spec = load_study(spec_path)
    # In this process, whatever executor the author used (module notes).
    spec = dataclasses.replace(
        spec, study=spec.study.model_copy(update={"execution": ExecutionOptions()})
    )
    results = compute_study(spec, progress)
    results, style = present_study(results, progress)
    document = results_document(results, style, provenance={})
    tables = {table.name: table.frame for table in result_tables(results)}
    # Through the JSON encoder, so that both sides have the same types (inf → "inf", …).
    return json.loads(json.dumps(document, ensure_ascii=False, allow_nan=False)), tables


def _from_the_top(problem: Problem, root: Path) -> Problem:
    """A problem of the rerun with its file named from the bundle's top folder, as the hash
    check and INPUTS.sha256 name it: ``study/inputs/data/a.csv, row 6`` rather than the
    spec-relative ``inputs/data/a.csv, row 6`` (a file the reviewer looked for in vain)."""
    where = problem.where
    head = where.split(",", 1)[0].split(":", 1)[0]
    if head and (root / STUDY_FOLDER / head).is_file():
        where = f"{STUDY_FOLDER}/{where}"
    for spec in (root / STUDY_FOLDER).glob("*.y*ml"):  # "analyses[0].x (study.yaml:12)"
        where = where.replace(f"({spec.name}:", f"({STUDY_FOLDER}/{spec.name}:")
    return Problem(where, problem.message)


def _is_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)) or value in (
        "inf",
        "-inf",
    )


def _same_number(a: Any, b: Any, rtol: float | None) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return bool(a == b)
    if rtol is None:
        if isinstance(a, int) and isinstance(b, int):
            return bool(a == b)
        rtol = DEFAULT_FLOAT_RTOL
    return math.isclose(a, b, rel_tol=rtol, abs_tol=0.0)


def _leaves(value: Any, path: str, named: str) -> Iterator[tuple[str, str, Any]]:
    """(path, named path, value) of every leaf: :attr:`Difference.path` and ``named``."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(
                item, f"{path}.{key}" if path else str(key), f"{named}.{key}" if named else str(key)
            )
    elif isinstance(value, list):
        rows = _row_names([item if isinstance(item, dict) else {} for item in value])
        for index, (item, row) in enumerate(zip(value, rows, strict=True)):
            yield from _leaves(item, f"{path}[{index}]", f"{named}[{row}]")
    else:
        yield path, named, value


def _leaf_map(document: dict[str, Any]) -> dict[str, tuple[str, Any]]:
    """Path → (named path, value) of every leaf of ``document`` outside :data:`IGNORED_KEYS`;
    an analysis is named with its kind (``analyses.main (u_scores).result…``)."""
    kept = {k: v for k, v in document.items() if k not in IGNORED_KEYS}
    analyses = kept.get("analyses")
    leaves: list[tuple[str, str, Any]] = []
    for key, value in kept.items():
        if key == "analyses" and isinstance(analyses, dict):
            kinds = analysis_kinds(document)
            for analysis_id, analysis in analyses.items():
                path = f"analyses.{analysis_id}"
                leaves += _leaves(analysis, path, f"analyses.{_with_kind(analysis_id, kinds)}")
        else:
            leaves += _leaves(value, key, key)
    return {path: (named, value) for path, named, value in leaves}


def analysis_kinds(*documents: Any) -> dict[str, str]:
    """Analysis id → kind, from the ``analyses`` of results.json documents (the first that
    names an id wins)."""
    kinds: dict[str, str] = {}
    for document in documents:
        analyses = document.get("analyses") if isinstance(document, dict) else None
        for analysis_id, analysis in (analyses if isinstance(analyses, dict) else {}).items():
            kind = analysis.get("kind") if isinstance(analysis, dict) else None
            if isinstance(kind, str):
                kinds.setdefault(str(analysis_id), kind)
    return kinds


def _with_kind(analysis_id: str, kinds: dict[str, str]) -> str:
    """``main (u_scores)``: an analysis id with its kind, which tells the reader the method;
    the id alone when it is the kind (the default id) or the kind is unknown."""
    kind = kinds.get(analysis_id)
    return analysis_id if kind is None or kind == analysis_id else f"{analysis_id} ({kind})"


def _row_names(rows: list[dict[str, Any]]) -> list[str]:
    """Each row of a list (a table) by its :data:`IDENTIFYING_KEYS` (``algorithm=A,
    problem=f1``); by its position (``3``) without them, and by both (``#3: algorithm=A``)
    where they do not tell it from another row of the list."""
    names = [_identity(row) for row in rows]
    seen = Counter(names)
    return [
        name if name and seen[name] == 1 else f"#{index}: {name}" if name else str(index)
        for index, name in enumerate(names)
    ]


def _identity(row: dict[str, Any]) -> str:
    """``algorithm=A, problem=f1``: the row's :data:`IDENTIFYING_KEYS` and their values."""
    return ", ".join(
        f"{key}={_shown(row[key])}"
        for key in IDENTIFYING_KEYS
        if key in row and not isinstance(row[key], (dict, list))
    )


def _shown(value: Any) -> str:
    """A key's value in a row name: a name as written, quoted when it holds what separates
    the parts of the name (``,``, ``=``, ``]``) or spaces at either end."""
    if isinstance(value, str):
        plain = value == value.strip() and not any(c in value for c in ",=]")
        return value if plain and value else json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def current_names(document: Any) -> Any:
    """``document`` (a results.json) with the keys of :data:`RENAMED_KEYS` under their current
    names; anything else, and a document that already uses them, is returned as it is."""
    analyses = document.get("analyses") if isinstance(document, dict) else None
    if not isinstance(analyses, dict):
        return document
    renamed = dict(analyses)
    for analysis_id, analysis in analyses.items():
        if not isinstance(analysis, dict) or not isinstance(analysis.get("result"), dict):
            continue
        result = analysis["result"]
        for inside, old, new in RENAMED_KEYS.get(str(analysis.get("kind")), ()):
            result = _renamed(result, inside, old, new)
        renamed[analysis_id] = {**analysis, "result": result}
    return {**document, "analyses": renamed}


def _renamed(node: dict[str, Any], inside: tuple[str, ...], old: str, new: str) -> dict[str, Any]:
    """A copy of ``node`` with ``old`` renamed ``new`` in the dict at ``inside`` (keeping the
    key's position), or ``node`` itself when there is nothing to rename."""
    if inside:
        child = node.get(inside[0])
        if not isinstance(child, dict):
            return node
        changed = _renamed(child, inside[1:], old, new)
        return node if changed is child else {**node, inside[0]: changed}
    if old not in node or new in node:
        return node
    return {(new if key == old else key): value for key, value in node.items()}


def compare_documents(
    bundled: Any, rerun: Any, rtol: float | None = None
) -> tuple[int, int, list[Difference]]:
    """Compare two results.json documents (see the module notes).

    Returns
    -------
    numbers, values : int
        How many numbers and other values of the bundled document were compared.
    differences : list of Difference
        In the bundled document's order; values only the rerun has come last.
    """
    old, new = _leaf_map(current_names(bundled)), _leaf_map(rerun)
    numbers = values = 0
    differences = []
    for path, (named, value) in old.items():
        other = new.get(path, (named, _MISSING))[1]
        if _is_number(value):
            numbers += 1
            same = _is_number(other) and _same_number(value, other, rtol)
        else:
            values += 1
            same = other is not _MISSING and value == other
        if not same:
            differences.append(Difference(path, value, other, named))
    differences += [
        Difference(path, _MISSING, value, named)
        for path, (named, value) in new.items()
        if path not in old
    ]
    return numbers, values, differences


def _csv_rows(path: Path) -> list[list[str]]:
    # A bundled table that is no UTF-8 text (tampered, or corrupted) is compared as what it
    # reads as: its cells differ from the rerun's and are listed as differences.
    with path.open(encoding="utf-8", errors="replace", newline="") as handle:
        return list(csv.reader(handle))


def _cell_number(text: str) -> int | float | None:
    """The number a CSV cell holds (``inf`` too), or None for text and empty cells."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return None
    return None if math.isnan(number) else number


def compare_tables(
    bundled: Path,
    rerun: dict[str, Any],
    scratch: Path,
    rtol: float | None = None,
    kinds: dict[str, str] | None = None,
) -> tuple[int, int, list[Difference]]:
    """Compare the bundled tables (``report/tables``) with a rerun's, cell by cell.

    Each rerun table is written as the report writes it (:func:`~reportgen.render.files.
    write_csv`, into ``scratch``) and both files are read as text, so that like is compared
    with like; numbers with the tolerance of :func:`compare_documents`.

    ``kinds`` (analysis id → kind, :func:`analysis_kinds`) names each analysis's tables with
    its kind too: ``tables/main/totals.csv (u_scores), row 2 …``.

    Returns
    -------
    tables, cells : int
        How many tables and cells of the bundle were compared.
    differences : list of Difference
        Each at ``tables/<analysis id>/<table>.csv, row <n>, column '<name>'`` (rows from 1
        after the header; named with the analysis's kind and the row's identifying columns
        too), or the table alone when it, or a column, is on one side only.
    """
    names = {
        path.relative_to(bundled).with_suffix("").as_posix()
        for path in bundled.rglob("*.csv")
        if path.is_file()
    } - {CHANGES_TABLE}
    differences: list[Difference] = []
    tables = cells = 0
    for name in sorted(names | set(rerun)):
        where = f"tables/{name}.csv"
        analysis_id = name.split("/", 1)[0]
        kind = _with_kind(analysis_id, kinds or {}).removeprefix(analysis_id)
        if name not in rerun or name not in names:
            bundled_side, rerun_side = (
                (_PRESENT, _MISSING) if name in names else (_MISSING, _PRESENT)
            )
            differences.append(Difference(where, bundled_side, rerun_side, where + kind))
            continue
        write_csv(rerun[name], scratch / f"{name}.csv")
        old, new = _csv_rows(bundled / f"{name}.csv"), _csv_rows(scratch / f"{name}.csv")
        tables += 1
        header, new_header = (old or [[]])[0], (new or [[]])[0]
        if header != new_header:
            differences.append(
                Difference(f"{where}, columns", header, new_header, f"{where}{kind}, columns")
            )
            continue
        for number, (a, b) in enumerate(zip(old[1:], new[1:], strict=False), start=1):
            cells += len(a)
            if a == b:
                continue
            row = f"{where}, row {number}"
            identity = _identity(dict(zip(header, a, strict=False)))
            named = f"{where}{kind}, row {number}" + (f" ({identity})" if identity else "")
            if len(a) != len(b):
                differences.append(Difference(row, a, b, named))
                continue
            differences += [
                Difference(f"{row}, column '{column}'", x, y, f"{named}, column '{column}'")
                for column, x, y in zip(header, a, b, strict=False)
                if x != y and not _same_cell(x, y, rtol)
            ]
        if len(old) != len(new):
            differences.append(
                Difference(f"{where}, rows", len(old) - 1, len(new) - 1, f"{where}{kind}, rows")
            )
    return tables, cells, differences


def _same_cell(a: str, b: str, rtol: float | None) -> bool:
    x, y = _cell_number(a), _cell_number(b)
    return x is not None and y is not None and _same_number(x, y, rtol)


def verify_bundle(
    path: str | Path,
    rtol: float | None = None,
    progress: Callable[[str], None] | None = None,
) -> Verification:
    """Check a supplement's hashes, rerun its study and compare the results (module notes).

    Raises
    ------
    InputError
        When the bundle cannot be read (not a zip or folder, unsafe member, no spec) or its
        study does not run.
    """
    say = progress or (lambda _: None)
    source = Path(path)
    if not source.exists():
        raise InputError(Problem(str(source), "does not exist"))
    with tempfile.TemporaryDirectory(prefix="reportgen-verify-") as temporary:
        if source.is_dir():
            root = bundle_root(source)
        else:
            say(f"unpacking {source.name}")
            safe_extract(source, Path(temporary))
            root = bundle_root(Path(temporary), str(source))
        say("checking input hashes")
        hash_problems, hashed = check_hashes(root)
        try:
            bundled = _bundled_results(root, str(source))
            rerun, rerun_tables = rerun_study(_spec_in(root, str(source)), say)
        except InputError as exc:
            # A changed input is the likely cause of a study that no longer runs: say so first
            # (the hash check's findings were otherwise lost with the rerun's error).
            rerun_problems = [_from_the_top(p, root) for p in exc.problems]
            raise InputError([*hash_problems, *rerun_problems]) from None
        say("comparing results.json and the tables")
        numbers, values, differences = compare_documents(bundled, rerun, rtol)
        tables, cells, table_differences = compare_tables(
            root / "report" / "tables",
            rerun_tables,
            Path(temporary) / "rerun-tables",
            rtol,
            analysis_kinds(bundled, rerun),
        )
    return Verification(
        tuple(hash_problems),
        numbers,
        values,
        tuple(differences),
        tables,
        cells,
        tuple(table_differences),
        other_versions(bundled),
        hashed,
    )


def other_versions(bundled: dict[str, Any]) -> tuple[tuple[str, str, str], ...]:
    """The packages of the bundled provenance whose version differs from this process's:
    (name, bundled version, installed version). A package the provenance does not name, or
    a provenance that names none, is not compared."""
    from reportgen.pipeline import package_versions

    packages = bundled.get("provenance", {})
    packages = packages.get("packages") if isinstance(packages, dict) else None
    if not isinstance(packages, dict):
        return ()
    return tuple(
        (name, str(packages[name]), version)
        for name, version in package_versions().items()
        if name in packages and str(packages[name]) != version
    )
