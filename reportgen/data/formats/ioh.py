"""IOHprofiler / IOHexperimenter output: ``.json`` meta files with their ``.dat`` run files.

What is read
------------
- ``IOHprofiler_f<id>_<name>.json`` (``ioh.logger.Analyzer``, IOHexperimenter ≥ 0.3):
  ``function_id``, ``maximization``, ``algorithm.name`` and ``scenarios``: per dimension the
  data file ``path`` (relative to the ``.json``) and its ``runs`` (``instance``, ``evals``).
- The ``.dat`` file: one block per run, in the order of ``runs``, each starting with a header
  line naming the columns (``evaluations raw_y …``); records at every improvement and at the
  run's last evaluation. ``raw_y`` is ``f(x) − f_opt`` for the BBOB problems IOH logs.

Every ``.json`` and every ``.dat`` file read is an input of its own (hashed in the provenance,
copied into the supplement bundle); a ``.dat`` file's row count is its number of runs.

A source's ``path``/``paths`` name ``.json`` files or folders (searched recursively for
``IOHprofiler_*.json``).

Decisions
---------
- ``raw_y`` is the value of the evaluated point, not the best so far: the running minimum is
  taken. The last record (the run's final evaluation) is kept, so a run's end is the larger
  of its ``evals`` in the ``.json`` and its last record. A ``raw_y`` worse than an earlier
  one is therefore expected (the final evaluation is logged whatever its value) and gets no
  ``best_so_far_worsens`` caveat, unlike a COCO best-so-far column that gets worse.
- Maximisation logs (``"maximization": true``) are refused: reportgen's values from platform
  formats are errors ``f − f_opt``.
- Problem names are ``problem_prefix`` + ``function_id``; the algorithm is ``algorithm.name``
  unless the source sets ``algorithm:``.
- Full precision: the ``.dat`` file prints ``raw_y`` with 10 decimals (``64.3530625784``), while
  the ``.json`` holds each run's best value in full (``"best": {"evals": 45, "y":
  64.35306257842907}``). The record at ``best.evals`` takes the ``.json`` value when the two
  agree to the ``.dat``'s printed precision (within ``max(1e-9, 1e-6·|y|)``), so a run's best is
  exact and a best below 5·10⁻¹¹ is not read as 0; otherwise the ``.dat`` value is kept.
- Every ``.json`` value the reader uses is checked for its type and range before use
  (``function_id`` a whole number, ``maximization`` a boolean, each scenario's ``dimension``
  a whole number ≥ 1, each run's ``evals`` a whole number ≥ 0, ``algorithm.name`` unless the source
  sets ``algorithm:``): a broken file is an error naming the file and the key
  (``scenarios[0].dimension``), never read as something close to it.
- Evaluation counts are whole numbers, as in a CSV source: a ``.dat`` record at ``7.5``
  evaluations is an error naming its line and value (checked on the number each line is
  already parsed to), and so is a run's ``evals`` of ``100.5`` in the ``.json``.
- The limits of a CSV cell hold too: a ``.dat`` record with more than
  :data:`~reportgen.data.checks.MAX_WHOLE` evaluations or a ``raw_y`` beyond
  ±:data:`~reportgen.data.checks.MAX_MAGNITUDE` is an error naming its line and column.
- A UTF-8 byte-order mark at the start of a ``.json`` or ``.dat`` file (a Windows editor's)
  is skipped, as in a CSV file; it made the ``.json`` "not valid JSON" and the ``.dat``'s
  header "needs the columns 'evaluations' and 'raw_y'".
- Only ``.json`` files (and folders) are read: a path or glob that matches any other file is
  an input error saying so, rather than a JSON parse error about a ``.dat`` or a README.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from reportgen.data.checks import (
    MAX_MAGNITUDE,
    MAX_ROWS_PER_PROBLEM,
    MAX_WHOLE,
    TOO_LARGE,
    TOO_MANY,
    name_fault,
)
from reportgen.data.formats import (
    InputFile,
    ReadResult,
    RunRecords,
    runs_to_frame,
    unordered_runs,
)
from reportgen.errors import InputError, Problem, shorten
from reportgen.paths import not_there
from reportgen.present.format import counted
from reportgen.spec.sources import IohOptions


def _meta_files(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(path.rglob("IOHprofiler_*.json"))
    return [path]


def _parse_dat(
    path: Path, display: str, problems: list[Problem]
) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """Runs of an IOH ``.dat`` file: (evaluations, raw_y) per header-separated block."""
    try:
        lines = path.read_text(encoding="utf-8-sig", errors="replace").splitlines()
    except OSError as exc:
        problems.append(Problem(display, f"cannot read the file: {exc}"))
        return None
    runs: list[tuple[np.ndarray, np.ndarray]] = []
    records: list[tuple[float, float]] = []
    columns: tuple[int, int] | None = None
    bad = 0
    for number, line in enumerate(lines, start=1):
        cells = line.split()
        if not cells:
            continue
        if not cells[0][0].isdecimal():
            if columns is not None:
                runs.append(_arrays(records))
            if "evaluations" not in cells or "raw_y" not in cells:
                problems.append(
                    Problem(
                        f"{display}, line {number}",
                        f"a header needs the columns 'evaluations' and 'raw_y': {line[:60]!r}",
                    )
                )
                return None
            columns = (cells.index("evaluations"), cells.index("raw_y"))
            records = []
            continue
        try:
            assert columns is not None
            count, cell = cells[columns[0]], cells[columns[1]]
            evaluations, value = float(count), float(cell)
            ok = np.isfinite(evaluations) and np.isfinite(value) and evaluations >= 0
        except (AssertionError, IndexError, ValueError):
            ok = False
        if not ok:
            bad += 1
            if bad <= MAX_ROWS_PER_PROBLEM:
                problems.append(
                    Problem(
                        f"{display}, line {number}",
                        "not a record (evaluations ≥ 0 and a finite raw_y after a header): "
                        f"{line[:60]!r}",
                    )
                )
            continue
        # On the floats already parsed (no second pass); the limits are a CSV cell's.
        fault: tuple[str, str, str] | None = None  # (column, message, cell)
        if not evaluations.is_integer():
            fault = ("", "an evaluation count must be a whole number", count)
        elif evaluations > MAX_WHOLE:
            fault = ("evaluations", TOO_MANY, count)
        elif abs(value) > MAX_MAGNITUDE:
            fault = ("raw_y", TOO_LARGE, cell)
        if fault is not None:
            bad += 1
            if bad <= MAX_ROWS_PER_PROBLEM:
                column, message, cell = fault
                problems.append(
                    Problem(
                        f"{display}, line {number}" + (f", column '{column}'" if column else ""),
                        f"{message}: {cell!r}",
                    )
                )
            continue
        records.append((evaluations, value))
    if columns is not None:
        runs.append(_arrays(records))
    return None if bad else runs


def _full_precision(ev: np.ndarray, val: np.ndarray, entry: Any) -> np.ndarray:
    """The run's values with its best (``.json``: ``best.evals``, ``best.y``) in full precision."""
    best = entry.get("best") if isinstance(entry, dict) else None
    if not isinstance(best, dict):
        return val
    try:
        at, y = float(best["evals"]), float(best["y"])
    except (KeyError, TypeError, ValueError):
        return val
    hit = np.flatnonzero(ev == at)
    if not np.isfinite(y) or len(hit) == 0:
        return val
    index = hit[0]
    if abs(val[index] - y) > max(1e-9, 1e-6 * abs(y)):
        return val  # not the same value at the .dat's precision: keep what the .dat says
    exact = val.copy()
    exact[index] = y
    return exact


def _arrays(records: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    array = np.asarray(records, dtype=float).reshape(-1, 2)
    return array[:, 0], array[:, 1]


def _meta(path: Path, display: str, named: bool, problems: list[Problem]) -> dict[str, Any] | None:
    """The ``.json`` meta file, its structure checked (None, with problems, if it is broken).

    Every value the reader uses is checked for its JSON type here, so that a hand-edited or
    foreign ``.json`` gets a message naming the file and the key (``scenarios[0].dimension``)
    instead of a ``KeyError``/``TypeError`` traceback, and a dimension of ``2.5`` or ``0`` or
    a ``null`` function id is refused rather than read as 2, 0 or ``fNone``. ``named``: the
    source sets ``algorithm:``, so the file's algorithm name is not needed.
    """
    try:
        meta = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        problems.append(
            Problem(display, f"not an IOHprofiler .json meta file (not valid JSON: {exc})")
        )
        return None
    if not isinstance(meta, dict):
        problems.append(Problem(display, "not an IOHprofiler .json meta file (not an object)"))
        return None
    missing = [k for k in ("function_id", "algorithm", "scenarios") if k not in meta]
    if missing:
        problems.append(
            Problem(
                display,
                f"not an IOHprofiler .json meta file: no {', '.join(repr(k) for k in missing)}",
            )
        )
        return None
    found: list[Problem] = []

    def bad(key: str, message: str, value: Any) -> None:
        found.append(Problem(f"{display}, {key}", f"{message}: {shorten(json.dumps(value))}"))

    if not isinstance(meta.get("maximization", False), bool):
        bad("maximization", "must be true or false", meta["maximization"])
    if meta.get("maximization") is True:
        problems.append(
            Problem(
                display, "a maximisation log; the ioh format reads minimisation (f − f_opt) only"
            )
        )
        return None
    if not _at_least(meta["function_id"], 0):
        bad("function_id", "must be a whole number ≥ 0", meta["function_id"])
    algorithm = meta["algorithm"]
    name = algorithm.get("name") if isinstance(algorithm, dict) else None
    if not named and (not isinstance(name, str) or not name.strip()):
        bad(
            "algorithm.name" if isinstance(algorithm, dict) else "algorithm",
            "must be the algorithm's name (or set the source's 'algorithm:')",
            name if isinstance(algorithm, dict) else algorithm,
        )
    elif not named and isinstance(name, str) and (fault := name_fault(name.strip())):
        bad("algorithm.name", f"{fault} (or set the source's 'algorithm:')", name)
    scenarios = meta["scenarios"]
    if not isinstance(scenarios, list):
        bad("scenarios", "must be a list (one entry per dimension)", scenarios)
        scenarios = []
    for i, scenario in enumerate(scenarios):
        key = f"scenarios[{i}]"
        if not isinstance(scenario, dict):
            bad(key, "must be an object with 'dimension', 'path' and 'runs'", scenario)
            continue
        if not _at_least(scenario.get("dimension"), 1):
            bad(f"{key}.dimension", "must be a whole number ≥ 1", scenario.get("dimension"))
        if not isinstance(scenario.get("path"), str) or not scenario["path"].strip():
            bad(f"{key}.path", "must be the path of the run file (.dat)", scenario.get("path"))
        runs = scenario.get("runs", [])
        if not isinstance(runs, list):
            bad(f"{key}.runs", "must be a list (one entry per run)", runs)
            continue
        for j, run in enumerate(runs):
            if not isinstance(run, dict):
                bad(f"{key}.runs[{j}]", "must be an object with 'evals'", run)
            elif not _at_least(run.get("evals", 0), 0):
                bad(f"{key}.runs[{j}].evals", "must be a whole number ≥ 0", run["evals"])
    if found:
        problems.extend(found)
        return None
    return meta


def _number(value: Any) -> bool:
    """A JSON number (``true`` is not one, though Python counts it as an int)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _at_least(value: Any, minimum: int, *, whole: bool = True) -> bool:
    """A finite JSON number ≥ ``minimum``; with ``whole``, a whole one (``2.0``, not ``2.5``)."""
    return (
        _number(value)
        and math.isfinite(value)
        and value >= minimum
        and (not whole or value == int(value))
    )


def read_ioh(
    files: list[tuple[Path, str]], options: IohOptions, algorithm: str | None, key: str
) -> ReadResult:
    """Read IOHprofiler logs into canonical histories or trials (see the module notes)."""
    problems: list[Problem] = []
    runs: list[RunRecords] = []
    inputs: list[InputFile] = []
    read: dict[Path, str] = {}
    for root, root_display in files:
        metas = _meta_files(root)
        if not metas:
            problems.append(Problem(root_display, "no IOHprofiler_*.json file found"))
        if not root.is_dir() and root.suffix.lower() != ".json":
            problems.append(
                Problem(
                    root_display,
                    "not an IOHprofiler meta file: the ioh format reads the .json files (or "
                    "folders holding them), which name their .dat files; narrow the path or "
                    "glob (e.g. 'data/ioh/*/' or 'data/ioh/**/IOHprofiler_*.json')",
                )
            )
            continue
        for path in metas:
            display = (
                f"{root_display}/{path.relative_to(root).as_posix()}"
                if root.is_dir()
                else root_display
            )
            # A .json named alone and again inside a folder the paths also name would add
            # its runs twice, as more runs of the same algorithm.
            if path.resolve() in read:
                problems.append(
                    Problem(
                        display,
                        f"read twice: the paths also reach it as {read[path.resolve()]}; each "
                        "file may be read once",
                    )
                )
                continue
            read[path.resolve()] = display
            first = len(inputs)  # the .json is listed before its .dat files
            meta = _meta(path, display, algorithm is not None, problems)
            if meta is None:
                continue
            name = algorithm if algorithm is not None else meta["algorithm"]["name"].strip()
            problem = f"{options.problem_prefix}{int(meta['function_id'])}"
            count = 0
            for scenario in meta["scenarios"]:
                dat = path.parent / scenario["path"]
                dat_display = (
                    f"{display.rsplit('/', 1)[0]}/{scenario['path']}"
                    if "/" in display
                    else scenario["path"]
                )
                if not dat.is_file():
                    problems.append(
                        Problem(
                            display,
                            f"the data file '{scenario['path']}' "
                            + ("is a folder, not a file" if dat.is_dir() else not_there(dat)),
                        )
                    )
                    continue
                parsed = _parse_dat(dat, dat_display, problems)
                if parsed is None:
                    continue
                listed = scenario.get("runs", [])
                if len(parsed) != len(listed):
                    problems.append(
                        Problem(
                            dat_display,
                            f"holds {counted(len(parsed), 'run')} but {display} lists {len(listed)}",
                        )
                    )
                    continue
                # The .dat file is an input of its own: hashed in the provenance, copied into
                # the supplement bundle.
                inputs.append(InputFile(dat, dat_display, len(parsed)))
                for number, ((ev, val), entry) in enumerate(zip(parsed, listed, strict=True), 1):
                    if len(ev) == 0:
                        problems.append(Problem(dat_display, "a run without records"))
                        continue
                    val = _full_precision(ev, val, entry)
                    runs.append(
                        RunRecords(
                            name,
                            problem,
                            int(scenario["dimension"]),
                            ev,
                            val,
                            float(entry.get("evals", 0)),
                            origin=f"{dat_display}, run {number}",
                        )
                    )
                    count += 1
            inputs.insert(first, InputFile(path, display, count))
    problems.extend(unordered_runs(runs))
    if problems:
        raise InputError(problems)
    if not runs:
        raise InputError(Problem(key, "the IOHprofiler data hold no runs"))
    # No best_so_far_worsens caveat: raw_y is each logged point's own value, not a best so
    # far, so a record worse than an earlier one is no logging fault (every run's final
    # evaluation is logged, usually worse than its best) and would be flagged on every run.
    return ReadResult(runs_to_frame(runs, options.layout, options.target), inputs)
