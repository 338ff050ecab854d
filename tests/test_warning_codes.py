"""The registry of warning codes (reportgen/warning_codes.py) against the source, the spec's
``accept:`` and docs/warnings.md."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import reportgen
from reportgen.errors import InputError
from reportgen.present.caveats import Caveat
from reportgen.spec.load import load_spec
from reportgen.warning_codes import WARNING_CODES

PACKAGE = Path(reportgen.__file__).parent
ROOT = PACKAGE.parent


def _codes_given() -> dict[str, str]:
    """Every string literal the package passes as a caveat's code: the first argument (or
    ``code=``) of any call to a function whose name ends in ``caveat`` (``Caveat``,
    ``Naming.caveat``, ``_runs_caveat``), with where it is given."""
    given: dict[str, str] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if not name.lower().endswith("caveat"):
                continue
            code = node.args[0] if node.args else None
            code = next((k.value for k in node.keywords if k.arg == "code"), code)
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                given.setdefault(code.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return given


def test_every_code_the_source_gives_is_registered():
    given = _codes_given()
    assert len(given) >= 30  # the scan finds the calls (not an empty pass)
    unregistered = {c: where for c, where in given.items() if c not in WARNING_CODES}
    assert not unregistered


def test_every_registered_code_is_given_somewhere():
    """No stale code: each appears as a string literal in the package outside the registry
    (most as a caveat's argument; ``published_unexplained`` as a module constant)."""
    literals: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if path.name == "warning_codes.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value)
    assert set(WARNING_CODES) - literals == set()


def test_a_caveat_with_an_unregistered_code_is_refused():
    with pytest.raises(ValueError, match=r"'unequal_runz' is not in reportgen\.warning_codes"):
        Caveat("unequal_runz", "text")
    assert Caveat("unequal_runs", "text").code == "unequal_runs"


def test_docs_list_exactly_the_registered_codes():
    listed = re.findall(r"^\| `([a-z_]+)` \|", (ROOT / "docs" / "warnings.md").read_text(), re.M)
    assert listed == sorted(WARNING_CODES)


SPEC = """\
study: {{title: t}}
minimize: true
data:
  runs: {{path: runs.csv, format: trials}}
analyses:
  - kind: u_scores
    data: runs
    target: 1.0e-8
accept: {accept}
"""


def _spec(tmp_path: Path, accept: str) -> Path:
    (tmp_path / "runs.csv").write_text("algorithm,problem,run,value\nA,f1,1,1\nB,f1,1,2\n")
    path = tmp_path / "study.yaml"
    path.write_text(SPEC.format(accept=accept))
    return path


def test_accept_refuses_a_misspelt_code_at_its_entry_with_the_closest_code(tmp_path):
    with pytest.raises(InputError) as caught:
        load_spec(_spec(tmp_path, "[few_runs, unequal_runz]"))
    (problem,) = caught.value.problems
    assert problem.where.startswith("accept[1] (study.yaml:9)")
    assert problem.message.startswith(
        "'unequal_runz' is not a warning code reportgen gives (did you mean 'unequal_runs'?)"
    )


def test_accept_takes_every_registered_code(tmp_path):
    loaded = load_spec(_spec(tmp_path, "[" + ", ".join(WARNING_CODES) + "]"))
    assert loaded.study.accept == list(WARNING_CODES)
