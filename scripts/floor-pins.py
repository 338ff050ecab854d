"""Print the oldest dependency versions pyproject.toml allows, one ``name==version`` a line.

``make test-floor`` installs these over a dev install and runs the test suite, so that every
``>=`` lower bound in pyproject.toml is a version the suite has passed on, not a guess.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


EXTRAS = ("dask",)
"""Optional extras whose lower bounds are tested too (``dev`` holds tools, not floors)."""


def floor_pins(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """``name==version`` for every runtime dependency, and every dependency of
    :data:`EXTRAS`, given as ``name>=version``."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    extras = project.get("optional-dependencies", {})
    pins = []
    for requirement in [*project["dependencies"], *(r for e in EXTRAS for r in extras[e])]:
        match = re.fullmatch(r"([A-Za-z0-9_.\-\[\]]+)>=([0-9][0-9.]*)", requirement.strip())
        if match is None:
            sys.exit(f"pyproject.toml: {requirement!r} is not 'name>=version'")
        pins.append(f"{match[1]}=={match[2]}")
    return pins


if __name__ == "__main__":
    print("\n".join(floor_pins()))
