"""``reportgen init``: write a small runnable study to start from.

Three ways to start:

- ``reportgen init DIR``: the packaged quickstart (:mod:`reportgen.resources`) — spec, data
  (best-so-far histories of four BBOB optimisers) and README.
- ``reportgen init DIR --format F``: the same results written in the input format ``F`` —
  ``trials``, ``histories``, ``summary`` (CSV files), or the files a benchmarking platform
  writes, ``coco`` (COCO ``.info``/``.dat`` folders), ``ioh`` (IOHexperimenter ``.json`` +
  ``.dat``) or ``cec`` (one CEC result matrix per algorithm × function × dimension) — with a
  spec whose source and analyses fit that format. A user replaces the data by their own files
  of the same shape.
- ``reportgen init DIR --from FILE``: a spec for the user's own CSV or Parquet file. The file's
  columns are matched to reportgen's (``fes`` → ``evaluations``, ``fid`` → ``problem`` …), the
  format is inferred from the columns found, and the proposed ``columns:`` mapping is written
  into the spec (and printed) for the user to check. The spec names the file by a relative
  path; the file is not copied.

Every spec's ``$schema`` comment (read by editors through the YAML language server) points at a
copy of the JSON Schema written beside it, a relative path that keeps working when the folder is
moved, shared or opened on another machine.

Decisions
---------
- Derived starters keep every algorithm, function and run of the quickstart. ``trials``: the
  final best value of each run; ``evaluations_to_target`` the first record ≤ 10⁻⁸ (∞ if none);
  ``evaluations_used`` that count for a run that reached the target (it stops there), else the
  budget of 10 000. ``summary``: mean, sample SD (ddof = 1), n, median, minimum and maximum of
  those final values. Platform formats hold the histories record for record, full precision.
- ``--from`` guesses; it never guesses silently: the mapping is printed, a column it cannot
  place is listed as unused, and a required column it cannot find is left for the user as a
  ``FIXME`` comment (``reportgen validate`` then names the missing column).
- ``--from`` writes a spec that reads the file as the loader will: a CSV whose header holds
  ``;``, tab or ``|`` but not the default separator gets ``separator:``, and a byte order
  mark is not part of the first column's name.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from reportgen.data.read import SUPPORTED_SUFFIXES
from reportgen.errors import InputError, Problem
from reportgen.paths import in_the_way, real_path
from reportgen.present.format import counted
from reportgen.render.publish import writing
from reportgen.resources import resource

SCHEMA_NAME = "study.schema.json"
_SCHEMA_COMMENT = "# yaml-language-server: $schema="

FORMATS = ("trials", "histories", "summary", "coco", "ioh", "cec")
"""The input formats ``init --format`` writes a starter for."""

TARGET = 1e-8
BUDGET = 10_000
CEC_FRACTIONS = (0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
"""The ``cec2017`` checkpoints (fractions of MaxFES), as ``checkpoints: cec2017`` reads them."""


def write_starter(
    target: Path, format: str | None = None, from_file: Path | None = None
) -> tuple[Path, str]:
    """Write a starter study into the new or empty folder ``target``.

    Returns
    -------
    (Path, str)
        The spec written and a note for the user (the proposed mapping for ``from_file``).

    Raises
    ------
    InputError
        ``target`` exists and is not an empty folder; ``from_file`` cannot be read.
    """
    blocked = in_the_way(target)
    if blocked is not None:
        raise InputError(Problem(str(target), f"cannot write the starter study there: {blocked}"))
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InputError(
            Problem(str(target), "exists and is not an empty folder; choose a new folder")
        )
    with writing(target, str(target), "the starter study"):
        return _write_starter(target, format, from_file)


def _write_starter(target: Path, format: str | None, from_file: Path | None) -> tuple[Path, str]:
    note = ""
    if from_file is not None:
        text, note = _spec_for_file(from_file, target)
        target.mkdir(parents=True, exist_ok=True)
        (target / "study.yaml").write_text(text, encoding="utf-8")
    else:
        ignore = shutil.ignore_patterns("out", ".*", "__pycache__")
        shutil.copytree(resource("starters/quickstart"), target, ignore=ignore, dirs_exist_ok=True)
        if format not in (None, "histories"):
            _convert(target, format)
    shutil.copyfile(resource("schemas/study.schema.json"), target / SCHEMA_NAME)
    spec = target / "study.yaml"
    lines = spec.read_text(encoding="utf-8").splitlines(keepends=True)
    lines = [
        f"{_SCHEMA_COMMENT}{SCHEMA_NAME}\n" if line.startswith(_SCHEMA_COMMENT) else line
        for line in lines
    ]
    spec.write_text("".join(lines), encoding="utf-8")
    return spec, note


# --- starters in every input format, from the quickstart's histories ----------------------


def _convert(target: Path, format: str | None) -> None:
    """Replace the quickstart's histories by the same results in ``format``; rewrite the spec."""
    source = target / "data" / "bbob_5d_histories.csv.gz"
    histories = pd.read_csv(source).rename(
        columns={"function": "problem", "dim": "dimension", "fes": "evaluations"}
    )
    histories = histories.rename(columns={"best_f_minus_fopt": "value"})
    source.unlink()
    writer: Callable[[pd.DataFrame, Path], str] = _WRITERS[str(format)]
    data_block, analyses = _SPECS[str(format)]
    writer(histories, target / "data")
    spec = target / "study.yaml"
    text = spec.read_text(encoding="utf-8")
    head, _, _ = text.partition("data:\n")
    algorithms = text[text.index("algorithms:\n") : text.index("analyses:\n")]
    report = text[text.index("report:\n") :]
    spec.write_text(
        f"{head}{data_block}{algorithms}{analyses}{report}".replace(
            "compared by performance and data profiles of\n"
            "    their mean convergence curves and by confidence-bound profiles (Liu et al.).",
            f"read from {format} files; edit\n    the data source to read your own.",
        ),
        encoding="utf-8",
    )
    readme = target / "README.md"
    readme.write_text(
        f"# Starter study: the quickstart's results as `{format}` data\n\n"
        f"Written by `reportgen init --format {format}`: the quickstart's histories (below) "
        f"in the `{format}` format, so that a spec for your own `{format}` files can start from "
        "this one. Run it with `reportgen run study.yaml`; the report appears in `out/`.\n\n"
        + readme.read_text(encoding="utf-8").split("\n", 2)[2],
        encoding="utf-8",
    )


def _finals(histories: pd.DataFrame) -> pd.DataFrame:
    """One row per run: final value, evaluations used and to the target (see the decisions)."""
    keys = ["algorithm", "problem", "dimension", "run"]
    last = histories.groupby(keys, sort=False, observed=True).tail(1).set_index(keys)["value"]
    hits = histories[histories["value"] <= TARGET].groupby(keys, sort=False, observed=True).head(1)
    to_target = hits.set_index(keys)["evaluations"].reindex(last.index).fillna(math.inf)
    used = to_target.where(to_target < math.inf, BUDGET)
    return pd.DataFrame(
        {"value": last, "evaluations_used": used, "evaluations_to_target": to_target}
    ).reset_index()


def _write_trials(histories: pd.DataFrame, folder: Path) -> str:
    _finals(histories).to_csv(folder / "trials.csv", index=False, lineterminator="\n")
    return "trials.csv"


def _write_summary(histories: pd.DataFrame, folder: Path) -> str:
    values = _finals(histories).groupby(
        ["algorithm", "problem", "dimension"], sort=False, observed=True
    )["value"]
    table = values.agg(["mean", "std", "count", "median", "min", "max"]).reset_index()
    names = ("algorithm", "problem", "dimension", "mean", "std", "n", "median", "minimum")
    table.columns = [*names, "maximum"]
    table.to_csv(folder / "summary.csv", index=False, lineterminator="\n")
    return "summary.csv"


def _runs(histories: pd.DataFrame) -> pd.core.groupby.DataFrameGroupBy:
    return histories.groupby(["algorithm", "problem", "dimension"], sort=False, observed=True)


def _function_number(problem: str) -> int:
    return int("".join(ch for ch in problem if ch.isdecimal()))


def _write_cec(histories: pd.DataFrame, folder: Path) -> str:
    out = folder / "cec"
    out.mkdir()
    checkpoints = [round(f * BUDGET) for f in CEC_FRACTIONS]
    for (algorithm, problem, dimension), group in _runs(histories):
        columns = []
        for _, run in group.groupby("run", sort=True, observed=True):
            positions = run["evaluations"].searchsorted(checkpoints, side="right") - 1
            values = run["value"].to_numpy()
            # Before a run's first record its best is unknown; the first record stands in.
            columns.append([repr(float(values[max(p, 0)])) for p in positions])
        rows = [" ".join(row) for row in zip(*columns, strict=True)]
        name = f"{algorithm}_{_function_number(problem)}_{dimension}.txt"
        (out / name).write_text("\n".join(rows) + "\n", encoding="utf-8")
    return "cec"


def _write_coco(histories: pd.DataFrame, folder: Path) -> str:
    finals = _finals(histories).set_index(["algorithm", "problem", "dimension", "run"])
    for (algorithm, problem, dimension), group in _runs(histories):
        f = _function_number(problem)
        out = folder / "coco" / algorithm
        (out / f"data_f{f}").mkdir(parents=True, exist_ok=True)
        dat = f"data_f{f}/bbobexp_f{f}_DIM{dimension}.dat"
        blocks, entries = [], []
        for run_number, run in group.groupby("run", sort=True, observed=True):
            end = finals.loc[(algorithm, problem, dimension, run_number), "evaluations_used"]
            blocks.append(
                "% f evaluations | g evaluations | best noise-free fitness - Fopt | "
                "measured fitness | best measured fitness\n"
                + "".join(
                    f"{int(e)} 0 {v!r} {v!r} {v!r}\n"
                    for e, v in zip(run["evaluations"], run["value"], strict=True)
                )
            )
            entries.append(f"{run_number}:{int(end)}|{float(run['value'].iloc[-1])!r}")
        (out / dat).write_text("".join(blocks), encoding="utf-8")
        (out / f"bbobexp_f{f}.info").write_text(
            f"funcId = {f}, DIM = {dimension}, Precision = 1.000e-08, algId = '{algorithm}'\n"
            "% written by reportgen init --format coco\n"
            f"{dat}, {', '.join(entries)}\n",
            encoding="utf-8",
        )
    return "coco"


def _write_ioh(histories: pd.DataFrame, folder: Path) -> str:
    finals = _finals(histories).set_index(["algorithm", "problem", "dimension", "run"])
    for (algorithm, problem, dimension), group in _runs(histories):
        f = _function_number(problem)
        out = folder / "ioh" / algorithm
        dat = f"data_f{f}_{problem}/IOHprofiler_f{f}_DIM{dimension}.dat"
        (out / dat).parent.mkdir(parents=True, exist_ok=True)
        blocks, runs = [], []
        for run_number, run in group.groupby("run", sort=True, observed=True):
            end = int(finals.loc[(algorithm, problem, dimension, run_number), "evaluations_used"])
            records = list(zip(run["evaluations"].astype(int), run["value"], strict=True))
            if records[-1][0] < end:  # IOH logs the run's last evaluation too
                records.append((end, records[-1][1]))
            blocks.append(
                "evaluations raw_y\n" + "".join(f"{e} {float(v)!r}\n" for e, v in records)
            )
            best = float(run["value"].min())
            runs.append({"instance": int(run_number), "evals": end, "best": {"y": best}})
        (out / dat).write_text("".join(blocks), encoding="utf-8")
        meta = {
            "version": "0.3.3",
            "suite": "starter",
            "function_id": f,
            "function_name": problem,
            "maximization": False,
            "algorithm": {"name": algorithm, "info": "written by reportgen init --format ioh"},
            "attributes": ["evaluations", "raw_y"],
            "scenarios": [{"dimension": int(dimension), "path": dat, "runs": runs}],
        }
        (out / f"IOHprofiler_f{f}_{problem}.json").write_text(
            json.dumps(meta, indent=1), encoding="utf-8"
        )
    return "ioh"


_WRITERS: dict[str, Callable[[pd.DataFrame, Path], str]] = {
    "trials": _write_trials,
    "summary": _write_summary,
    "cec": _write_cec,
    "coco": _write_coco,
    "ioh": _write_ioh,
}

_PROFILES = """\
  - kind: performance_profiles
    data: curves
    tolerances: [1.0e-1, 1.0e-3, 1.0e-5, 1.0e-7]
    lambdas: [2]
    budget: 10000
"""
_SPECS: dict[str, tuple[str, str]] = {
    "trials": (
        "data:\n  runs:\n    path: data/trials.csv   # one row per run\n    format: trials\n",
        "analyses:\n  - kind: u_scores\n    data: runs\n    target: 1.0e-8\n"
        "  - kind: perspectives\n    data: runs\n",
    ),
    "summary": (
        "data:\n  table:\n    path: data/summary.csv   # one row per algorithm × problem\n"
        "    format: summary\n",
        "analyses:\n  - kind: perspectives\n    data: table\n"
        "  - kind: significance_relation\n    data: table\n"
        "    statistic: mean\n    value_floor: 1.0e-8\n",
    ),
    "coco": (
        "data:\n  curves:\n    paths: data/coco/*   # COCO output folders or .tgz/.zip archives\n"
        "    format: coco\n",
        "analyses:\n  - kind: runtime_ecdf\n    data: curves\n" + _PROFILES,
    ),
    "ioh": (
        "data:\n  curves:\n    paths: data/ioh/*   # folders of IOHprofiler_*.json with their .dat\n"
        "    format: ioh\n",
        "analyses:\n  - kind: runtime_ecdf\n    data: curves\n" + _PROFILES,
    ),
    "cec": (
        "data:\n  curves:\n    paths: data/cec/*.txt   # one file per algorithm × function × "
        "dimension\n    format: cec\n    cec:\n"
        '      file_pattern: "{algorithm}_{function}_{dimension}.txt"\n'
        "      checkpoints: cec2017\n      max_evaluations: {5: 10000}\n",
        "analyses:\n" + _PROFILES,
    ),
}


# --- a spec for the user's own file --------------------------------------------------------

# reportgen's columns and the names results files commonly give them (compared lower-case,
# without spaces, dashes or underscores).
SYNONYMS: dict[str, tuple[str, ...]] = {
    "algorithm": ("algorithm", "alg", "algo", "algid", "algname", "algorithmname", "optimizer",
                  "optimiser", "solver", "method"),
    "problem": ("problem", "function", "func", "fid", "funcid", "functionid", "fn", "f",
                "problemid", "benchmark"),
    "dimension": ("dimension", "dim", "d", "ndim", "dimensions"),
    "run": ("run", "runid", "rep", "repetition", "trial", "seed", "instance", "iid"),
    "evaluations": ("evaluations", "evals", "evaluation", "fes", "fe", "nfe", "nfes", "fevals",
                    "nevals", "iteration", "iterations"),
    "value": ("value", "bestfminusfopt", "error", "besterror", "fbest", "bestf", "best",
              "besty", "rawy", "fitness", "bestfitness", "objective", "f(x)", "y"),
    "evaluations_used": ("evaluationsused", "evalsused", "fesused", "usedevaluations",
                         "totalevaluations", "budgetused"),
    "evaluations_to_target": ("evaluationstotarget", "evalstotarget", "festotarget",
                              "hittime", "runtime", "ert"),
    "time_seconds": ("timeseconds", "time", "seconds", "walltime", "cputime", "runtimeseconds"),
    "mean": ("mean", "avg", "average"),
    "std": ("std", "sd", "stdev", "stddev"),
    "n": ("n", "count", "runs", "nruns"),
    "median": ("median",),
    "minimum": ("minimum", "min", "bestvalue"),
    "maximum": ("maximum", "max", "worstvalue"),
}  # fmt: skip

_REQUIRED = {
    "histories": ("algorithm", "problem", "run", "evaluations", "value"),
    "trials": ("algorithm", "problem", "run", "value"),
    "summary": ("algorithm", "problem"),
}
_ANALYSES = {
    "histories": _PROFILES.replace("    budget: 10000\n", ""),
    "trials": "  - kind: u_scores\n    data: curves\n    target: 1.0e-8\n"
    "  - kind: perspectives\n    data: curves\n",
    "summary": "  - kind: probabilistic_profiles\n    data: curves\n    cost: value\n"
    "    cost_floor: 1.0e-8\n  - kind: significance_relation\n    data: curves\n"
    "    statistic: mean\n    value_floor: 1.0e-8\n",
}


def _squash(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch not in " _-.")


def propose_columns(names: list[str]) -> dict[str, str]:
    """reportgen column → the file's column, for the names that match a known synonym."""
    found: dict[str, str] = {}
    taken: set[str] = set()
    for canonical, synonyms in SYNONYMS.items():
        for synonym in synonyms:  # the first synonym in the list wins: most specific first
            match = next((n for n in names if n not in taken and _squash(n) == synonym), None)
            if match is not None:
                found[canonical] = match
                taken.add(match)
                break
    return found


def infer_format(found: dict[str, str]) -> str:
    """``histories`` with evaluation counts per run, ``summary`` with a mean, else ``trials``."""
    if "evaluations" in found and "run" in found:
        return "histories"
    if "mean" in found and "run" not in found:
        return "summary"
    return "trials"


def _read_head(path: Path) -> tuple[pd.DataFrame, str | None]:
    """The first rows of the user's file, and the separator its spec must name (None when it
    is the default for the file's suffix, which the loader uses without being told)."""
    try:
        if path.suffix == ".parquet":
            return pd.read_parquet(path).head(200), None
        default = "\t" if path.name.lower().endswith(".tsv") else ","
        separator = _header_separator(path, default)
        head = pd.read_csv(
            path, nrows=200, sep=separator, encoding="utf-8-sig", compression="infer"
        )
    except (OSError, ValueError, ImportError, EOFError) as exc:
        raise InputError(Problem(str(path), f"cannot read the file's columns: {exc}")) from None
    return head, None if separator == default else separator


def _header_separator(path: Path, default: str) -> str:
    """The separator of a CSV file's header line: the default if the line holds it, else the
    first of ``;``, tab and ``|`` it holds — the loader's own guess when a header reads as one
    column, so the spec written names the separator the loader would ask for."""
    opener = gzip.open if path.name.lower().endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8-sig", errors="replace") as file:
        line = file.readline()
    if not line.strip():
        raise InputError(Problem(str(path), "the file is empty: no header line to read"))
    if default in line:
        return default
    found = next((c for c in ";\t|" if c in line), None)
    if found is None and len(line.split()) > 1:
        return r"\s+"  # columns separated by spaces: the documented whitespace separator
    return found or default


def _spec_for_file(path: Path, target: Path) -> tuple[str, str]:
    """The spec text for the user's file and the note printed about the proposal."""
    if not path.is_file():
        kind = "is a folder, not a file" if path.is_dir() else "does not exist"
        raise InputError(Problem(str(path), f"--from: the file {kind}"))
    if not path.name.lower().endswith(SUPPORTED_SUFFIXES):
        # The spec would only fail at validate, after a proposal made from the bytes of,
        # say, a spreadsheet read as text.
        raise InputError(
            Problem(
                str(path),
                f"--from: unsupported file type; reportgen reads {', '.join(SUPPORTED_SUFFIXES)}",
            )
        )
    head, separator = _read_head(path)
    names = [str(c) for c in head.columns]
    found = propose_columns(names)
    format = infer_format(found)
    # Trials' value-like column of a summary table is its mean; drop what the format ignores.
    allowed = set(_REQUIRED[format]) | {"dimension"}
    allowed |= {
        "histories": set(),
        "trials": {"evaluations_used", "evaluations_to_target", "time_seconds"},
        "summary": {"mean", "std", "n", "median", "minimum", "maximum"},
    }[format]
    mapping = {k: v for k, v in found.items() if k in allowed}
    missing = [c for c in _REQUIRED[format] if c not in mapping]
    unused = [n for n in names if n not in mapping.values()]
    relative = Path(os.path.relpath(real_path(path), real_path(target))).as_posix()
    columns = "".join(
        f"      {canonical}: {json.dumps(column, ensure_ascii=False)}\n"
        for canonical, column in mapping.items()
        if canonical != column
    ) + "".join(f"      # {c}: FIXME   (no column of the file was recognised)\n" for c in missing)
    # Only FIXME comments under 'columns:' would make it null, which validate refuses as
    # "got nothing (null)" instead of naming the missing columns: an empty mapping then.
    mapped = any(not line.lstrip().startswith("#") for line in columns.splitlines())
    columns_block = f"    columns:{'' if mapped else ' {}'}\n{columns}" if columns else ""
    if separator is not None:
        columns_block = f"    separator: {json.dumps(separator)}\n{columns_block}"
    text = (
        f"{_SCHEMA_COMMENT}{SCHEMA_NAME}\n"
        f"# Proposed by `reportgen init --from {path.name}`: check the format and the columns\n"
        "# mapping (reportgen's column: the file's column), then `reportgen validate study.yaml`.\n"
        "study:\n"
        f"  title: Results of {path.name}\n"
        "  authors: []\n"
        "minimize: true                  # false if larger values are better\n"
        "data:\n"
        "  curves:\n"
        f"    path: {json.dumps(relative, ensure_ascii=False)}\n"
        f"    format: {format}\n"
        f"{columns_block}"
        f"analyses:\n{_ANALYSES[format]}"
        "report:\n  output: out\n  formats: [html, pdf]\n"
    )
    lines = [f"{path.name}: {counted(len(names), 'column')}; proposed format '{format}'"]
    lines += [f"  {canonical:<22} ← {column}" for canonical, column in mapping.items()]
    lines += [f"  {c:<22} ← ? (not found: edit the spec)" for c in missing]
    if unused:
        lines.append(f"  not used: {', '.join(unused)}")
    return text, "\n".join(lines) + "\n"
