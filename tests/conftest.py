"""Shared fixtures: write small study folders (spec + data) and run the real CLI on them."""

from __future__ import annotations

import importlib
import io
import os
import textwrap
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from reportgen.cli import main

ROOT = Path(__file__).resolve().parents[1]
# Real competition data sets used as reference (not part of the repository): the folder named by
# REPORTGEN_SHARED_DATA, by default the data folder beside the project in the development tree.
# Tests that need them skip, naming the missing folder, when they are absent — except in CI
# (CI=true), where a missing reference data set fails the run instead of silently skipping the
# strongest tests (require_shared).
SHARED_DATA = Path(os.environ.get("REPORTGEN_SHARED_DATA") or ROOT.parent / "shared" / "data")


def in_ci() -> bool:
    """True on a continuous-integration runner (``CI=true``, as GitHub Actions, GitLab CI set)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def require_shared(path: Path, what: str = "the shared reference data") -> Path:
    """``path`` under the shared data, or skip the test — fail it in CI — when it is absent."""
    if path.exists():
        return path
    message = f"{path} is absent ({what} not checked out; set REPORTGEN_SHARED_DATA)"
    if in_ci():
        pytest.fail(f"CI=true: {message}", pytrace=False)
    pytest.skip(message)


def require_module(name: str, extra: str) -> ModuleType:
    """Import an optional dependency, or skip the module's tests — fail them in CI — without it.

    CI installs every extra the tests use (``make test``), so a missing one there means the
    tests of that feature silently stopped running.
    """
    try:
        return importlib.import_module(name)
    except ImportError as error:
        message = f"{name} is not installed (extra '{extra}'): {error}"
        if in_ci():
            pytest.fail(f"CI=true: {message}", pytrace=False)
        pytest.skip(message, allow_module_level=True)


@dataclass
class CliResult:
    code: int
    out: str
    err: str


def run_cli(*args: str) -> CliResult:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdout=out, stderr=err)
    return CliResult(code, out.getvalue(), err.getvalue())


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


# Two algorithms, two problems, summary format: the smallest study a relation can rank.
SUMMARY_2X2_CSV = """
algorithm,problem,dimension,mean,std,n
A,f1,2,1.0,0.1,3
A,f2,2,2.0,0.1,3
B,f1,2,1.5,0.1,3
B,f2,2,1.0,0.1,3
"""


HISTORIES_CSV = """
algorithm,problem,dim,run,evals,value
A,f1,2,1,1,10
A,f1,2,1,5,1
A,f1,2,2,1,10
A,f1,2,2,7,2
B,f1,2,1,1,9
B,f1,2,1,9,1
B,f1,2,2,1,9
B,f1,2,2,6,3
A,f2,2,1,1,5
A,f2,2,1,3,0.5
A,f2,2,2,1,5
A,f2,2,2,4,0.1
B,f2,2,1,1,5
B,f2,2,1,8,0.2
B,f2,2,2,1,5
B,f2,2,2,2,1
"""


def write_histories_per_algorithm(folder: Path) -> None:
    """HISTORIES_CSV split into data/a.csv (algorithm A) and data/b.csv (algorithm B)."""
    header, *rows = HISTORIES_CSV.strip().splitlines()
    for name in ("A", "B"):
        chosen = [r for r in rows if r.startswith(f"{name},")]
        write(folder, f"data/{name.lower()}.csv", "\n".join([header, *chosen]) + "\n")


SPEC = """
study:
  title: Tiny study
  authors: [Tester]
minimize: true
data:
  curves:
    path: data/h.csv
    format: histories
    columns: {dimension: dim, evaluations: evals}
analyses:
  - kind: performance_profiles
    data: curves
    tolerances: [0.1, 0.001]
report:
  output: out
  formats: [html]
"""


@pytest.fixture
def tiny_study(tmp_path: Path) -> Path:
    """A valid two-algorithm, two-problem study; returns the spec path."""
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    return write(tmp_path, "study.yaml", SPEC)
