"""The code does not lean on a pandas default that has changed.

``groupby`` and ``pivot_table`` on a categorical key grouped by every category, seen or not
(``observed=False``), until pandas 3 made ``observed=True`` the default. The loader keeps names
as categoricals, so a call that leaves ``observed`` to the default means different tables
under the two: each call states it (pyproject.toml requires pandas 3, where the tests pass;
``make test-floor`` checks the oldest versions it allows).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _calls_without_observed(folder: Path) -> list[str]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in ("groupby", "pivot_table"):
                continue
            if isinstance(node.func.value, ast.Name) and node.func.value.id == "itertools":
                continue
            if not any(k.arg == "observed" for k in node.keywords):
                found.append(f"{path.relative_to(folder).as_posix()}:{node.lineno}")
    return found


def test_every_groupby_states_observed():
    assert _calls_without_observed(ROOT / "reportgen") == []
    assert _calls_without_observed(ROOT / "tests") == []


def test_the_check_finds_a_call_without_observed(tmp_path: Path):
    (tmp_path / "m.py").write_text(
        "import itertools\n"
        "a = frame.groupby('x').size()\n"
        "b = frame.groupby('x', observed=True).size()\n"
        "c = itertools.groupby([1])\n"
        "d = frame.pivot_table(index='x')\n",
        encoding="utf-8",
    )
    assert sorted(_calls_without_observed(tmp_path)) == ["m.py:2", "m.py:5"]
