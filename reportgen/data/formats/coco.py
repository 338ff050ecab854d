"""COCO/BBOB output: folders and ``.tgz``/``.tar.gz``/``.zip`` archives, read in memory.

What is read
------------
- ``*.info`` (one block per function × dimension): a header line
  ``funcId = 1, DIM = 2, Precision = 1.000e-08, algId = 'R-SHADE-10e2'`` (newer loggers add
  ``suite``, ``coco_version``, ``data_format``…), an optional ``%`` comment line, then a data
  line ``data_f1/bbobexp_f1_DIM2.dat, 1:200|1.3e-05, 2:200|2.5e-05, …``: the data file and one
  ``instance:evaluations|final f − f_target`` entry per run.
- ``*.dat`` (records on improvement): one block per run, started by ``%`` header lines, in the
  order of the ``.info`` entries. Column 1 is the evaluation count, column 3 the best
  noise-free ``f − f_opt`` so far — the same position in the old ``bbob`` format and in
  ``bbob-new2`` (where column 2 counts constraint evaluations).
- ``*.tdat`` (records at fixed evaluation counts, and at the run's last evaluation): only the
  evaluation count of each run's last record is read. ``.rdat``/``.mdat`` are not read.

Decisions
---------
- Every record of a run is kept, including the last one of its block: that is where a run that
  stops at the target logs its hit (an analyser that drops it gets about a third of its ERTs
  wrong). Records are turned into strict improvements plus the run's end.
- Evaluations used by a run = the largest of its ``.info`` evaluations, its last ``.dat``
  record and its last ``.tdat`` record (when the ``.tdat`` file has as many runs as the
  ``.dat``). ``cocopp`` uses the larger of the last ``.dat`` and ``.tdat`` records as
  ``maxevals``; the ``.tdat`` matters for runs whose ``.info`` entry is truncated and whose
  last improvement came long before their end. The ERTs agree with ``cocopp`` exactly
  (tests/data/test_coco.py).
- Several ``.info`` blocks naming the same ``.dat`` file (appended experiments) take its runs
  in turn. Windows paths (``data_f1\\bbobexp_f1_DIM2.dat``, BBOB-2009) are accepted.
- A truncated ``.info`` entry (an instance number without ``:evaluations|f``, as when an
  experiment was cut short) is a run whose end is its last record, as in ``cocopp``.
- A ``.dat`` file with fewer or more run blocks than its ``.info`` entries is an error naming
  both counts; so is a run without records.
- Problem names are ``problem_prefix`` + function number (``f1`` … ``f24``); the algorithm is
  ``algId`` unless the source sets ``algorithm:``. A header with ``DIM`` < 1, ``funcId`` < 0
  or (without ``algorithm:``) an empty or missing ``algId`` is an error at its line.
- A UTF-8 byte-order mark at the start of a file (a Windows editor's) is skipped, as in a
  CSV file: it hid a ``.dat`` file's first ``%`` header line.
- Evaluation counts that go down within a run (two runs without a ``%`` header between
  them) are an error naming the run; equal neighbouring counts are not.
- Evaluation counts are whole numbers, as in a CSV source: a fraction (``51.5``) in a
  ``.dat`` record, an ``.info`` entry or a ``.tdat`` run's last record is an error naming the
  line (the run, for a ``.tdat``) and the value. The block reader checks a file in one
  vectorised comparison and leaves a file with a fraction to the line reader, which names it.
- The limits of a CSV cell hold too: a ``.dat`` record with more than
  :data:`~reportgen.data.checks.MAX_WHOLE` evaluations or a best ``f − f_opt`` beyond
  ±:data:`~reportgen.data.checks.MAX_MAGNITUDE` (the analyses' sums over runs overflow
  beyond it) is an error naming its line and column, found the same way.
"""

from __future__ import annotations

import gzip
import posixpath
import re
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path

import numpy as np

from reportgen.data.checks import (
    MAX_MAGNITUDE,
    MAX_ROWS_PER_PROBLEM,
    MAX_WHOLE,
    TOO_LARGE,
    TOO_MANY,
    fractional,
    name_fault,
)
from reportgen.data.formats import (
    InputFile,
    ReadResult,
    RunRecords,
    runs_to_frame,
    unordered_runs,
    worsening_caveats,
)
from reportgen.data.frames import natural_key
from reportgen.errors import InputError, Problem, shorten
from reportgen.present.format import counted
from reportgen.spec.sources import CocoOptions

ARCHIVE_SUFFIXES = (".tgz", ".tar.gz", ".tar", ".tar.bz2", ".tar.xz", ".zip")
_WANTED = (".info", ".dat", ".tdat")
_HEADER_PAIR = re.compile(r"(\w+)\s*=\s*('[^']*'|\"[^\"]*\"|[^,]*)")
_ENTRY = re.compile(r"^\s*(\d+)\s*:\s*([^|\s]+)\s*(?:\|.*)?$")


@dataclass
class _InfoBlock:
    info: str
    line: int
    function: int
    dimension: int
    algorithm: str
    data_file: str
    instances: list[int]
    evaluations: list[float]


def members(path: Path) -> Iterator[tuple[str, bytes]]:
    """(member path, content) of every ``.info``/``.dat`` file of a folder or an archive."""
    name = path.name.lower()
    if path.is_dir():
        for file in sorted(path.rglob("*")):
            if file.is_file() and file.suffix.lower() in _WANTED:
                yield file.relative_to(path).as_posix(), file.read_bytes()
    elif name.endswith(".zip"):
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if not info.is_dir() and info.filename.lower().endswith(_WANTED):
                    yield info.filename, archive.read(info)
    elif name.endswith((".tgz", ".tar.gz")):
        # One call over the whole file: gzip.open(...).read() decompresses in 8 KiB-to-128 KiB
        # pieces and joins them (0.47 against 0.40 s CPU for the six COCO archives' 116 MB).
        data = gzip.decompress(path.read_bytes())
        try:
            yield from _tar_members(data)
        except _NotPlainTar:
            yield from _tarfile_members(path)
    else:
        yield from _tarfile_members(path)


class _NotPlainTar(Exception):
    """A tar feature :func:`_tar_members` does not handle; :mod:`tarfile` reads it instead."""


def _tarfile_members(path: Path) -> Iterator[tuple[str, bytes]]:
    with tarfile.open(path, "r:*") as archive:
        for member in archive:
            if member.isfile() and member.name.lower().endswith(_WANTED):
                handle = archive.extractfile(member)
                if handle is not None:
                    yield member.name, handle.read()


def _tar_members(data: bytes) -> Iterator[tuple[str, bytes]]:
    """Regular files of an uncompressed tar image (ustar and GNU long names).

    :mod:`tarfile` spends most of its time on per-member objects (≈ 0.1 ms each; an archive
    with one folder per run has 10⁴ members); walking the 512-byte headers of the image in
    memory is several times faster. Anything unusual (pax headers, sparse files, a bad
    checksum) raises :class:`_NotPlainTar` and the caller falls back to :mod:`tarfile`.
    """
    offset = 0
    long_name: str | None = None
    while offset + 512 <= len(data):
        header = data[offset : offset + 512]
        if header == bytes(512):
            return
        try:
            size = int(header[124:136].split(b"\0", 1)[0].strip() or b"0", 8)
            checksum = int(header[148:156].split(b"\0", 1)[0].strip() or b"0", 8)
        except ValueError:
            raise _NotPlainTar from None
        if checksum != sum(header[:148]) + 256 + sum(header[156:]):
            raise _NotPlainTar
        kind = header[156:157]
        body = data[offset + 512 : offset + 512 + size]
        offset += 512 + (size + 511) // 512 * 512
        if kind == b"L":  # GNU long name of the next member
            long_name = body.split(b"\0", 1)[0].decode("utf-8", "replace")
            continue
        if kind not in (b"0", b"\0", b"5", b"2", b"1"):
            raise _NotPlainTar
        name = header[0:100].split(b"\0", 1)[0].decode("utf-8", "replace")
        if header[257:262] == b"ustar":
            prefix = header[345:500].split(b"\0", 1)[0].decode("utf-8", "replace")
            if prefix:
                name = f"{prefix}/{name}"
        if long_name is not None:
            name, long_name = long_name, None
        if kind in (b"0", b"\0") and name.lower().endswith(_WANTED):
            yield name, body


def _parse_info(where: str, member: str, text: str, problems: list[Problem]) -> list[_InfoBlock]:
    blocks: list[_InfoBlock] = []
    header: dict[str, str] | None = None
    header_line = 0
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("%"):
            continue
        if "funcId" in stripped and "=" in stripped:
            header = {k: v.strip().strip("'\"") for k, v in _HEADER_PAIR.findall(stripped)}
            header_line = number
            continue
        here = f"{where}:{member}, line {number}"
        if header is None:
            problems.append(
                Problem(here, f"a data line before any 'funcId = …' header: {line[:60]!r}")
            )
            continue
        try:
            function = int(header["funcId"])
            dimension = int(header["DIM"])
        except (KeyError, ValueError):
            problems.append(
                Problem(
                    f"{where}:{member}, line {header_line}",
                    "the header needs integer 'funcId' and 'DIM' entries",
                )
            )
            header = None
            continue
        if dimension < 1 or function < 0:
            problems.append(
                Problem(
                    f"{where}:{member}, line {header_line}",
                    f"'DIM' must be ≥ 1 and 'funcId' ≥ 0: DIM = {dimension}, funcId = {function}",
                )
            )
            header = None
            continue
        cells = [c.strip() for c in stripped.split(",") if c.strip()]
        # isdecimal: what int() reads ("²" is a digit it refuses, part of a file name here)
        files = [c for c in cells if ":" not in c and not c.isdecimal()]
        entries = [c for c in cells if ":" in c or c.isdecimal()]
        if len(files) != 1:
            problems.append(
                Problem(here, f"expected one data file name, found {len(files)}: {line[:60]!r}")
            )
            continue
        instances: list[int] = []
        evaluations: list[float] = []
        for entry in entries:
            if entry.isdecimal():  # a truncated entry (run cut short): its records tell its end
                instances.append(int(entry))
                evaluations.append(0.0)
                continue
            match = _ENTRY.match(entry)
            value = float("nan")
            if match:
                try:
                    value = float(match.group(2))
                except ValueError:
                    match = None
            if not match or not np.isfinite(value) or value < 0:
                problems.append(Problem(here, f"not an 'instance:evaluations|f' entry: {entry!r}"))
                continue
            if not value.is_integer():  # kept as a run: the .dat's run count still matches
                problems.append(
                    Problem(
                        here,
                        f"an evaluation count must be a whole number: {match.group(2)!r} "
                        f"(entry {entry!r})",
                    )
                )
            instances.append(int(match.group(1)))
            evaluations.append(value)
        blocks.append(
            _InfoBlock(
                member,
                number,
                function,
                dimension,
                header.get("algId", ""),
                files[0].replace("\\", "/"),
                instances,
                evaluations,
            )
        )
    return blocks


def _blocks(content: bytes) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """Where the text before the first ``%`` header line is, and the text after each header
    line up to the next: ``(start, stop)`` offsets into ``content``.

    A header line is a line that starts with ``%``. They are found by searching for ``%``
    alone, which occurs in header lines only: the search skips the records in long steps (in
    C), where one for ``\n%`` stops at every line (an archive holds ≈ 600,000 lines of
    ``.dat`` and ``.tdat`` records), and no line is visited in Python.
    """
    headers = []
    at = content.find(b"%")
    while at >= 0:
        if at == 0 or content[at - 1] == 10:  # 10: b"\n"
            headers.append(at)
        at = content.find(b"%", at + 1)
    head = (0, headers[0] - 1 if headers else len(content))
    stops = [at - 1 for at in headers[1:]] + [len(content)] if headers else []
    blocks = []
    for at, stop in zip(headers, stops, strict=True):
        line_end = content.find(b"\n", at, stop)
        blocks.append((line_end + 1 if line_end >= 0 else stop, stop))
    return (head if head[1] > 0 else (0, 0)), blocks


def _segments(content: bytes) -> tuple[bytes, list[bytes]]:
    """The text before the first ``%`` header line, and the text after each header line
    (:func:`_blocks`)."""
    (start, stop), blocks = _blocks(content)
    return content[start:stop], [content[a:b] for a, b in blocks]


def _last_records(content: bytes) -> list[float]:
    """The evaluation count of the last record of every ``%``-separated block (``.tdat``).

    Only each block's last non-blank line is split, found in place: ``.tdat`` files are most
    of an archive (records at fixed evaluation counts; 81 of the six COCO archives' 116 MB),
    and only each run's end is needed from them.
    """
    head, blocks = _blocks(content)
    ends: list[float] = []
    for start, stop in (head, *blocks):
        end = stop
        while end > start:
            newline = content.rfind(b"\n", start, end)
            line = content[max(newline + 1, start) : end]
            if line.strip():
                ends.append(_to_float(line.split(None, 1)[0]))
                break
            end = newline if newline >= start else start
    return [e if np.isfinite(e) else 0.0 for e in ends]


def _to_float(cell: bytes) -> float:
    try:
        return float(cell)
    except ValueError:
        return float("nan")


def _parse_dat(
    where: str, member: str, content: bytes, problems: list[Problem]
) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Runs of a ``.dat`` file: (evaluations, best f − f_opt, 0) per ``%``-separated block.

    A well-formed file (every record has at least three numeric columns after a header) is
    read by :func:`_parse_dat_blocks`; any other is read line by line, which names every bad
    line.
    """
    fast = _parse_dat_blocks(content)
    if fast is not None and fast[1]:
        return fast[0]
    return _parse_dat_lines(where, member, content, problems)


def _parse_dat_blocks(
    content: bytes,
) -> tuple[list[tuple[np.ndarray, np.ndarray, float]], bool] | None:
    """Runs of a well-formed ``.dat`` file, and whether all their numbers are surely valid
    (when not, :func:`_parse_dat_lines` reads the file again to name the bad records).

    Columns 1 and 3 of every record of the file are converted in one pass and cut into runs;
    ``None`` when a record comes before any header, has fewer than three columns or a cell
    that is not a number (:func:`_parse_dat_lines` then reports them). Runs follow the line
    reader's rules: consecutive headers start one run; a header after the last records starts
    an empty run.
    """
    head, blocks = _segments(content)
    if head.strip():
        return None
    records: list[list[bytes]] = []
    lengths: list[int] = []
    trailing_empty = False
    for block in blocks:
        rows = [parts for parts in [line.split(None, 3) for line in block.split(b"\n")] if parts]
        trailing_empty = not rows
        if rows:
            records.extend(rows)
            lengths.append(len(rows))
    if records and min(map(len, records)) < 3:
        return None
    try:
        evaluations = np.fromiter(
            map(float, map(itemgetter(0), records)), dtype=float, count=len(records)
        )
        values = np.fromiter(
            map(float, map(itemgetter(2), records)), dtype=float, count=len(records)
        )
    except ValueError:
        return None
    ends = np.cumsum(lengths).tolist()
    runs = [
        (evaluations[start:end], values[start:end], 0.0)
        for start, end in zip([0, *ends[:-1]] if ends else [], ends, strict=True)
    ]
    if trailing_empty:
        runs.append((np.empty(0), np.empty(0), 0.0))
    # A finite sum means no NaN or infinity (an overflowing sum only sends the file to the
    # exact check of every run); a minimum ≥ 0, no negative evaluation count; every count
    # equal to itself rounded, no fraction (one comparison: ≈ 5 µs a file, 1 % of the read);
    # and every number within the limits a CSV cell has (checks.MAX_WHOLE, MAX_MAGNITUDE).
    valid = not records or (
        evaluations.min() >= 0
        and bool(np.isfinite(evaluations.sum() + values.sum()))
        and not (evaluations != evaluations.round()).any()
        and evaluations.max() <= MAX_WHOLE
        and np.abs(values).max() <= MAX_MAGNITUDE
    )
    return runs, valid


def _parse_dat_lines(
    where: str, member: str, content: bytes, problems: list[Problem]
) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Runs of any ``.dat`` file, line by line, naming every record it cannot read.

    A fractional evaluation count, a count beyond :data:`~reportgen.data.checks.MAX_WHOLE`
    and a value beyond :data:`~reportgen.data.checks.MAX_MAGNITUDE` are named by line and
    column, as a CSV cell would be (the first few of each, then a count of the rest).
    """
    runs: list[tuple[np.ndarray, np.ndarray, float]] = []
    rows: list[list[bytes]] = []
    numbers: list[int] = []
    # (line, cell) of the records each check refuses, by (cell of a row, where, message);
    # a fraction keeps its message of before ("line 6: an evaluation count must be …").
    faults: dict[tuple[int, str, str], list[tuple[int, bytes]]] = {
        (0, "", "an evaluation count must be a whole number"): [],
        (0, ", column 1", TOO_MANY): [],
        (1, ", column 3", TOO_LARGE): [],
    }
    started = False
    bad = 0

    def close() -> None:
        if not started:
            return
        if not rows:
            runs.append((np.empty(0), np.empty(0), 0.0))
            return
        flat = [cell for row in rows for cell in row]
        try:
            values = np.fromiter(map(float, flat), dtype=float, count=len(flat)).reshape(-1, 2)
        except ValueError:
            values = np.array([[_to_float(c) for c in row] for row in rows], dtype=float)
        runs.append((values[:, 0], values[:, 1], 0.0))
        finite = np.isfinite(values)  # ∞ and NaN are _check_runs' to report
        for (cell, _, _), found, positions in zip(
            faults,
            faults.values(),
            (
                fractional(values[:, 0]),
                np.flatnonzero(finite[:, 0] & (values[:, 0] > MAX_WHOLE)),
                np.flatnonzero(finite[:, 1] & (np.abs(values[:, 1]) > MAX_MAGNITUDE)),
            ),
            strict=True,
        ):
            found.extend((numbers[i], rows[i][cell]) for i in positions)

    for number, line in enumerate(content.split(b"\n"), start=1):
        if line.startswith(b"%"):
            if rows or not started:
                close()
                rows, numbers = [], []
            started = True
            continue
        parts = line.split(None, 3)
        if not parts:
            continue
        if len(parts) < 3 or not started:
            bad += 1
            if bad <= MAX_ROWS_PER_PROBLEM:
                problems.append(
                    Problem(
                        f"{where}:{member}, line {number}",
                        "a record needs at least 3 columns (evaluations, f − f_opt, best "
                        f"f − f_opt) after a '%' header: {line[:60].decode('latin-1')!r}",
                    )
                )
            continue
        rows.append([parts[0], parts[2]])
        numbers.append(number)
    close()
    _check_runs(where, member, runs, problems)
    for (_, at, message), found in faults.items():
        for number, cell in found[:MAX_ROWS_PER_PROBLEM]:
            problems.append(
                Problem(
                    f"{where}:{member}, line {number}{at}",
                    f"{message}: {cell.decode('latin-1')!r}",
                )
            )
        if len(found) > MAX_ROWS_PER_PROBLEM:
            problems.append(
                Problem(
                    f"{where}:{member}{at}",
                    f"{message} in {counted(len(found) - MAX_ROWS_PER_PROBLEM, 'more record')}",
                )
            )
    return runs


def _check_runs(
    where: str,
    member: str,
    runs: list[tuple[np.ndarray, np.ndarray, float]],
    problems: list[Problem],
) -> None:
    """A problem for every run with a missing, infinite or negative number."""
    for run_index, (ev, val, _) in enumerate(runs):
        broken = np.flatnonzero(~np.isfinite(ev) | ~np.isfinite(val) | (ev < 0))
        if len(broken):
            problems.append(
                Problem(
                    f"{where}:{member}, run {run_index + 1}",
                    f"{counted(len(broken), 'record')} with a missing, non-numeric, infinite or "
                    "negative evaluation count or value",
                )
            )


def read_coco(
    files: list[tuple[Path, str]], options: CocoOptions, algorithm: str | None, key: str
) -> ReadResult:
    """Read COCO folders/archives into canonical histories or trials (see the module notes).

    Archives are read one after the other, in this process. Worker processes cost more CPU
    than they save in wall time: forking and pickling every run back made the six BBOB
    archives of the COCO benchmark cost 1.5–2.1 s of CPU against 1.1 s in one process (and
    two threads 0.2 s more than one: the parsing holds the GIL).
    """
    jobs = [(path, display, options.problem_prefix, algorithm) for path, display in files]
    outcomes = [_read_one(job) for job in jobs]
    problems = [p for _, _, found in outcomes for p in found]
    if problems:
        raise InputError(problems)
    runs = [run for found, _, _ in outcomes for run in found]
    problems = unordered_runs(runs)
    if problems:
        raise InputError(problems)
    inputs = [
        InputFile(path, display, len(found))
        for (path, display), (found, _, _) in zip(files, outcomes, strict=True)
    ]
    if not runs:
        raise InputError(Problem(key, "the COCO data hold no runs"))
    return ReadResult(
        runs_to_frame(runs, options.layout, options.target),
        inputs,
        worsening_caveats(runs, "COCO"),
    )


def _read_one(
    job: tuple[Path, str, str, str | None],
) -> tuple[list[RunRecords], int, list[Problem]]:
    """The runs of one folder or archive, and the problems found in it."""
    path, display, prefix, algorithm = job
    problems: list[Problem] = []
    runs: list[RunRecords] = []
    if not path.is_dir() and not path.name.lower().endswith(ARCHIVE_SUFFIXES):
        problems.append(
            Problem(
                display,
                "a coco source is a COCO output folder or an archive ("
                + ", ".join(ARCHIVE_SUFFIXES)
                + ")",
            )
        )
        return runs, 0, problems
    infos: list[_InfoBlock] = []
    dats: dict[str, bytes] = {}
    tdats: dict[str, list[float]] = {}
    try:
        for member, raw in members(path):
            # A UTF-8 byte-order mark (a Windows editor's) hid the first '%' header line.
            content = raw.removeprefix(b"\xef\xbb\xbf")
            if member.lower().endswith(".info"):
                infos.extend(_parse_info(display, member, content.decode("latin-1"), problems))
            elif member.lower().endswith(".tdat"):
                ends = _last_records(content)
                problems.extend(  # a dozen floats a file: in Python, cheaper than an array
                    Problem(
                        f"{display}:{member}, run {run}",
                        f"the evaluation count of the last record must be a whole number: {end!r}",
                    )
                    for run, end in enumerate(ends, start=1)
                    if not end.is_integer()
                )
                tdats[posixpath.normpath(member)[: -len(".tdat")]] = ends
            else:
                dats[posixpath.normpath(member)] = content
    except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError, zlib.error) as exc:
        problems.append(Problem(display, f"cannot read the archive: {exc}"))
        return runs, 0, problems
    if not infos:
        problems.append(Problem(display, "no COCO .info file found"))
        return runs, 0, problems
    infos.sort(key=lambda b: (natural_key(b.info), b.line))
    parsed: dict[str, list[tuple[np.ndarray, np.ndarray, float]]] = {}
    taken: dict[str, int] = {}
    for block in infos:
        member = posixpath.normpath(posixpath.join(posixpath.dirname(block.info), block.data_file))
        here = f"{display}:{block.info}, line {block.line}"
        if member not in dats:
            problems.append(
                Problem(here, f"the data file '{block.data_file}' is not there ({member})")
            )
            continue
        if member not in parsed:
            parsed[member] = _parse_dat(display, member, dats.pop(member), problems)
            ends = tdats.get(member[: -len(".dat")], [])
            if len(ends) == len(parsed[member]):
                parsed[member] = [
                    (ev, val, end) for (ev, val, _), end in zip(parsed[member], ends, strict=True)
                ]
        available = parsed[member]
        start = taken.get(member, 0)
        taken[member] = start + len(block.instances)
        if start + len(block.instances) > len(available):
            problems.append(
                Problem(
                    here,
                    f"{member} holds {counted(len(available), 'run')} but the .info lists "
                    f"{taken[member]} (f{block.function}, D={block.dimension})",
                )
            )
            continue
        name = algorithm if algorithm is not None else block.algorithm.strip()
        fault = None if algorithm is not None else name_fault(name)
        if fault is not None:
            problems.append(
                Problem(
                    here,
                    f"the header above names no usable algorithm ({fault}: algId = "
                    f"{shorten(repr(block.algorithm))}); set the source's 'algorithm:'",
                )
            )
            continue
        for offset, used in enumerate(block.evaluations):
            ev, val, end = available[start + offset]
            if len(ev) == 0:
                problems.append(
                    Problem(
                        f"{display}:{member}, run {start + offset + 1}", "a run without records"
                    )
                )
                continue
            runs.append(
                RunRecords(
                    name,
                    f"{prefix}{block.function}",
                    block.dimension,
                    ev,
                    val,
                    max(used, end),
                    origin=f"{display}:{member}, run {start + offset + 1}",
                )
            )
    for member, available in parsed.items():
        if taken.get(member, 0) < len(available):
            problems.append(
                Problem(
                    f"{display}:{member}",
                    f"holds {counted(len(available), 'run')} but the .info files list "
                    f"{taken.get(member, 0)}",
                )
            )
    return runs, len(runs), problems
