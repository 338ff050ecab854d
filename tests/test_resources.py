"""Package data: the wheel's copies of templates, schema and starter equal their sources."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from reportgen import resources

ROOT = Path(__file__).resolve().parents[1]


def test_the_build_step_copies_every_source_unchanged(tmp_path: Path) -> None:
    written = resources.copy_resources(tmp_path, ROOT)
    for name, source_name in resources.RESOURCES.items():
        source = ROOT / source_name
        sources = (
            sorted(
                p.relative_to(source)
                for p in source.rglob("*")
                if p.is_file() and "out" not in p.relative_to(source).parts
            )
            if source.is_dir()
            else [Path()]
        )
        for relative in sources:
            copy = tmp_path / name / relative
            assert Path(name) / relative in written
            assert filecmp.cmp(source / relative, copy, shallow=False), copy
    assert Path("templates/report.html.j2") in written
    assert Path("starters/quickstart/study.yaml") in written
    assert not any("out" in p.parts for p in written)  # a rendered report is not package data


def test_packaged_copies_are_preferred_to_the_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert resources.resource("templates/report.css") == ROOT / "templates" / "report.css"
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "report.css").write_text("/* packaged */")
    monkeypatch.setattr(resources, "PACKAGED", tmp_path)
    assert resources.resource("templates/report.css") == tmp_path / "templates" / "report.css"


def test_a_missing_resource_says_to_reinstall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(resources, "PACKAGED", tmp_path / "none")
    monkeypatch.setattr(resources, "SOURCE_TREE", tmp_path)
    with pytest.raises(FileNotFoundError, match="reinstall reportgen"):
        resources.resource("templates")


def test_no_module_finds_files_through_its_parents() -> None:
    # Only reportgen.resources knows where the files live; a wheel has no project folder.
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "reportgen").rglob("*.py")
        if p.name != "resources.py" and ".parents[" in p.read_text(encoding="utf-8")
    ]
    assert not offenders


def test_the_report_names_where_an_installation_keeps_the_methods_document():
    """The methods appendix said docs/methods.md was "installed with the package", but an
    installed reportgen has no docs/ folder: a reader could not find it."""
    template = (ROOT / "templates" / "report.html.j2").read_text(encoding="utf-8")
    packaged = f"reportgen/{resources.PACKAGED.name}/methods.md"
    assert f"<code>{packaged}</code>" in template
    assert resources.RESOURCES["methods.md"] == "docs/methods.md"
    assert "<code>docs/methods.md</code>" in template
