"""``reportgen init``: a runnable starter study whose spec finds its schema by a relative path."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import ROOT, run_cli


def test_init_writes_the_schema_beside_the_spec(tmp_path: Path) -> None:
    target = tmp_path / "x"
    assert run_cli("init", str(target)).code == 0
    first_line = (target / "study.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first_line == "# yaml-language-server: $schema=study.schema.json"
    assert json.loads((target / "study.schema.json").read_text()) == json.loads(
        (ROOT / "schemas" / "study.schema.json").read_text()
    )
    assert not (target / "out").exists()
    assert run_cli("validate", str(target / "study.yaml"), "--quiet").code == 0


def test_init_refuses_a_file(tmp_path: Path) -> None:
    target = tmp_path / "x"
    target.write_text("")
    result = run_cli("init", str(target))
    assert result.code == 1 and "not an empty folder" in result.err
