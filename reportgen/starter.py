"""``reportgen init``: write a small runnable study to start from.

The starter is the packaged quickstart (:mod:`reportgen.resources`): spec, data and README. The
spec's ``$schema`` comment (read by editors through the YAML language server) is made to point
at a copy of the JSON Schema written beside it, a relative path that keeps working when the
folder is moved, shared or opened on another machine.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from reportgen.errors import InputError, Problem
from reportgen.resources import resource

SCHEMA_NAME = "study.schema.json"
_SCHEMA_COMMENT = "# yaml-language-server: $schema="


def write_starter(target: Path) -> Path:
    """Write the starter study into the new or empty folder ``target``; return its spec.

    Raises
    ------
    InputError
        ``target`` exists and is not empty.
    """
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InputError(
            Problem(str(target), "exists and is not an empty folder; choose a new folder")
        )
    ignore = shutil.ignore_patterns("out", ".*", "__pycache__")
    shutil.copytree(resource("starters/quickstart"), target, ignore=ignore, dirs_exist_ok=True)
    shutil.copyfile(resource("schemas/study.schema.json"), target / SCHEMA_NAME)
    spec = target / "study.yaml"
    lines = spec.read_text(encoding="utf-8").splitlines(keepends=True)
    lines = [
        f"{_SCHEMA_COMMENT}{SCHEMA_NAME}\n" if line.startswith(_SCHEMA_COMMENT) else line
        for line in lines
    ]
    spec.write_text("".join(lines), encoding="utf-8")
    return spec
