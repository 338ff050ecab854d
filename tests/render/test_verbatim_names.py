"""Names from the data print as written: ``f_x`` is an algorithm, not f with subscript x.

The report typesets its symbols' subscripts (``θ_f`` → θ<sub>f</sub>, tests/render/
test_typeset.py); an algorithm ``f_x`` or a problem ``r_{ab}`` was typeset the same way in
the HTML (f<sub>x</sub>), and the PDF printed from it read "fx" and "rab".
"""

from __future__ import annotations

import re
import shutil
import subprocess
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest

from reportgen.render.html import (
    as_printed,
    caption_title,
    isolated_names,
    typeset,
    verbatim_names,
)
from tests.conftest import run_cli, write

NAMES = ("f_x", "a_x1", "g_{ij}")
PROBLEMS = ("r_{ab}", "p_1", "f3")


def _study(
    tmp_path: Path, names: Sequence[str], problems: Sequence[str], analyses: str, formats: str
) -> Path:
    """A trials study of ``names`` on ``problems`` (4 runs each, values by position) running
    ``analyses`` (YAML list items) into ``out/`` in ``formats``."""
    rows = ["algorithm,problem,dimension,run,value"]
    for i, name in enumerate(names):
        for j, problem in enumerate(problems):
            rows += [f"{name},{problem},10,{r},{(i + 1) * (j + r) / 3}" for r in (1, 2, 3, 4)]
    write(tmp_path, "data/t.csv", "\n".join(rows) + "\n")
    spec = (
        "study: {title: Names}\nminimize: true\ndata:\n  t: {path: data/t.csv, format: trials}\n"
        f"analyses:{textwrap.indent(textwrap.dedent(analyses), '  ')}report: {{formats: {formats}}}\n"
    )
    return write(tmp_path, "study.yaml", spec)


def test_a_name_is_left_as_it_is_and_a_symbol_beside_it_is_typeset() -> None:
    names = verbatim_names(["f_x", "BIPOP", "a<b_x"])
    escaped = verbatim_names(["f_x", "BIPOP", "a<b_x"], escaped=True)
    assert str(typeset("f_x beats a<b_x at θ_f", escaped)) == (
        "f_x beats a&lt;b_x at θ<sub>f</sub>"
    )
    assert as_printed("f_x at θ_f", names) == "f_x at θf"
    assert caption_title("Runs of f_x at θ_f: more", names) == "Runs of f_x at θ sub f"
    assert verbatim_names(["BIPOP", "DE"]) is None  # no underscore: nothing to protect


def test_a_right_to_left_name_is_isolated_from_the_text_around_it() -> None:
    """'DE, אלגוריתם, خوارزمية 2' displayed as 'DE, 2 خوارزمية ,אלגוריתם': the browser's
    bidirectional algorithm made one right-to-left run of both names and the comma."""
    isolated = isolated_names(["DE", "אלגוריתם", "خوارزمية 2", "a<b"])
    assert str(typeset("DE, אלגוריתם, خوارزمية 2 and DEX", isolated=isolated)) == (
        "DE, <bdi>אלגוריתם</bdi>, <bdi>خوارزمية 2</bdi> and DEX"
    )
    assert isolated_names(["DE", "f_x"]) is None


def test_names_with_underscores_print_verbatim_in_the_report(tmp_path) -> None:
    analyses = """
      - kind: problem_table
        data: t
        reference: f_x
      - kind: significance_relation
        data: t
    """
    spec = _study(tmp_path, (*NAMES, "אלגוריתם"), PROBLEMS, analyses, "[html, pdf]")
    result = run_cli("run", str(spec))
    assert result.code == 0, result.err
    page = (tmp_path / "out" / "report.html").read_text()
    body = re.split(r'<pre class="spec[^"]*">', page)[0]
    for name in (*NAMES, *PROBLEMS):
        assert name in body, name
    assert not re.search(r"(f|a|g|r|p)<sub>(x|ij|ab|1)", body), re.findall(r".{20}<sub>.{9}", body)
    assert "4) <bdi>אלגוריתם</bdi>." in body  # the significance relation's rank layers
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils not installed: the PDF's text is not checked")
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "out" / "report.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for name in (*NAMES, *PROBLEMS):
        assert name in text, name


def test_names_in_scripts_dejavu_lacks_print_no_python_warnings(tmp_path) -> None:
    """Algorithms named 遗传算法 or 🚀 made matplotlib warn "Glyph 36951 missing from
    font(s) DejaVu Sans" once per name and figure: 66 lines of Python warnings with their
    source lines on stderr among reportgen's own. The names are drawn all the same (as SVG
    text, set by the viewer in a font that has them). A fresh interpreter: pytest's own
    warning filters would turn the warning into an error before reportgen's filter."""
    import sys

    analyses = "\n  - kind: perspectives\n    data: t\n"
    spec = _study(tmp_path, ("遗传算法", "🚀 rocket", "B"), ("f1", "f2", "f3"), analyses, "[html]")
    run = subprocess.run(
        [sys.executable, "-m", "reportgen", "run", str(spec), "--quiet"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "Glyph" not in run.stderr and "Warning" not in run.stderr, run.stderr
    assert "遗传算法" in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
