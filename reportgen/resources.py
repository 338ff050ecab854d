"""Files reportgen needs at run time besides its code: templates, the JSON Schema, starter studies.

Their sources of truth are folders of the project (``templates/``, ``schemas/``, the quickstart
of ``example_studies/``, ``docs/methods.md``). A wheel carries copies of them as package data in
``reportgen/_resources/``, written by the build step of ``setup.py`` (:func:`copy_resources`), so
an installed reportgen renders reports and writes starter studies wherever it is installed.
Run from a source checkout (an editable install, or ``PYTHONPATH``) there are no copies and the
sources themselves are used, so an edit to a template takes effect without a rebuild.

This module uses the standard library only: ``setup.py`` loads it by path at build time, before
reportgen's dependencies exist.
"""

from __future__ import annotations

import importlib.metadata
import shutil
from pathlib import Path

RESOURCES: dict[str, str] = {
    "templates": "templates",
    "schemas/study.schema.json": "schemas/study.schema.json",
    "starters/quickstart": "example_studies/quickstart",
    "methods.md": "docs/methods.md",
}
"""Packaged name (under ``reportgen/_resources/``) → source path in the project."""

PACKAGED = Path(__file__).resolve().with_name("_resources")
"""Where a wheel keeps the copies."""

SOURCE_TREE = Path(__file__).resolve().parent.parent
"""The project folder when reportgen runs from a source checkout."""

# Report outputs, caches and hidden files in a source folder are not part of the resource.
_IGNORE = shutil.ignore_patterns("out", ".*", "__pycache__", "*.pyc")


def resource(name: str) -> Path:
    """The path of the resource ``name`` (a key of :data:`RESOURCES`, or a path below one).

    The packaged copy when reportgen is installed from a wheel, else the project's own file.

    Raises
    ------
    FileNotFoundError
        Neither exists: the installation is incomplete.
    """
    packaged = PACKAGED / name
    if packaged.exists():
        return packaged
    for key, source_name in RESOURCES.items():
        if name == key or name.startswith(key + "/"):
            source = SOURCE_TREE / source_name / name[len(key) :].lstrip("/")
            if source.exists():
                return source
    raise FileNotFoundError(
        f"reportgen's resource {name!r} is missing from its installation (looked in {PACKAGED} "
        f"and in the source tree {SOURCE_TREE}); reinstall reportgen"
    )


def copy_resources(target: Path, root: Path = SOURCE_TREE) -> list[Path]:
    """Copy every resource from the project folder ``root`` into ``target`` (the build step).

    Returns the files written, relative to ``target``.
    """
    for name, source_name in RESOURCES.items():
        source, destination = root / source_name, target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, destination, ignore=_IGNORE, dirs_exist_ok=True)
        else:
            shutil.copyfile(source, destination)
    return sorted(p.relative_to(target) for p in target.rglob("*") if p.is_file())


def package_version() -> str:
    """The installed reportgen's version ("0+unknown" when run from a source tree)."""
    try:
        return importlib.metadata.version("reportgen")
    except importlib.metadata.PackageNotFoundError:  # running from a source tree
        return "0+unknown"
