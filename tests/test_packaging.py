"""Packaging metadata: what an installed reportgen carries besides its code.

Building the sdist and the wheel needs an isolated build (10 s and a package index), so the
built files are checked by ``make wheel-smoke`` (scripts/wheel-smoke.sh); this checks the
configuration that decides them.
"""

from __future__ import annotations

import importlib.metadata
import re
import runpy
import tomllib

from tests.conftest import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_type_hints_marker_is_package_data():
    """The Python API is typed, but the wheel had no py.typed: mypy in a user's notebook or
    script said 'module is installed, but missing library stubs or py.typed marker'."""
    assert (ROOT / "reportgen" / "py.typed").is_file()
    assert "py.typed" in PROJECT["tool"]["setuptools"]["package-data"]["reportgen"]
    assert "Typing :: Typed" in PROJECT["project"]["classifiers"]


def test_the_licence_text_ships_with_the_licence_expression():
    """``license = "MIT"`` without the licence text: the MIT licence requires its notice in
    every copy, and neither the sdist nor the wheel held one."""
    project = PROJECT["project"]
    assert project["license"] == "MIT"
    for name in project["license-files"]:
        assert "Permission is hereby granted, free of charge" in (ROOT / name).read_text("utf-8")


def test_the_python_versions_agree():
    project = PROJECT["project"]
    lowest = project["requires-python"].removeprefix(">=")
    assert f"Programming Language :: Python :: {lowest}" in project["classifiers"]
    assert PROJECT["tool"]["ruff"]["target-version"] == "py" + lowest.replace(".", "")
    assert PROJECT["tool"]["mypy"]["python_version"] == lowest


def test_the_sdist_leaves_out_the_test_suite():
    """setuptools adds tests/test*.py to an sdist by default: 18 of the suite's files, without
    its conftest, subfolders or the example data they read — a suite that cannot run."""
    lines = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    assert "prune tests" in lines


def test_type_checkers_see_the_lazy_api_with_its_types():
    """``reportgen.load_study`` and the rest come from a module ``__getattr__`` (the pipeline is
    imported only when used), so a type checker saw them as ``Any``: with py.typed, mypy on a
    user's script revealed ``reportgen.load_study(...)`` as Any. The same names are imported
    for type checkers under ``TYPE_CHECKING``."""
    import ast

    import reportgen

    tree = ast.parse((ROOT / "reportgen" / "__init__.py").read_text(encoding="utf-8"))
    for_checkers = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        for statement in node.body
        if isinstance(statement, ast.ImportFrom)
        for alias in statement.names
    }
    assert for_checkers == set(reportgen._LAZY)
    assert set(reportgen.__all__) == reportgen._LAZY | {"InputError", "Problem"}


def test_every_dependency_has_a_floor_make_test_floor_can_pin():
    """``make test-floor`` installs each runtime dependency, and the Dask extra's, at its lower
    bound: every one must be written ``name>=version`` for scripts/floor-pins.py to pin it (it
    stops otherwise)."""
    floor_pins = runpy.run_path(str(ROOT / "scripts" / "floor-pins.py"))["floor_pins"]
    pins = floor_pins(ROOT / "pyproject.toml")
    project = PROJECT["project"]
    dependencies = [*project["dependencies"], *project["optional-dependencies"]["dask"]]
    assert [pin.replace("==", ">=") for pin in pins] == dependencies


def test_the_provenance_records_every_dependency():
    """pyarrow parses the CSV numbers and reads the Parquet files, but its version was not in
    the provenance (nor compared by reportgen verify); every dependency is now."""
    from reportgen.pipeline import PROVENANCE_PACKAGES, package_versions

    needed = {
        re.split(r"[<>=!~\[; ]", pin, maxsplit=1)[0].lower()
        for pin in PROJECT["project"]["dependencies"]
    }
    assert needed | {"reportgen"} == set(PROVENANCE_PACKAGES)
    assert package_versions()["pyarrow"] == importlib.metadata.version("pyarrow")
