"""Formulas of the methods appendix as SVG (reportgen.render.math)."""

from __future__ import annotations

import base64
import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from matplotlib import mathtext
from matplotlib.font_manager import FontProperties

from reportgen.render import files  # noqa: F401  (the report's rcParams: text as <text>)
from reportgen.render.math import FONT_SIZE, formula_svg_uri, split_math
from reportgen.render.pdf import write_pdf

FORMULAS = [
    r"\tau_b",
    r"\rho_s(\tau) = \frac{1}{|P|}\left|\{p \in P : r_{p,s} \le \tau\}\right|",
    r"U_{jk} = \sum_{i} \mathbb{1}[x_{ij} \succ x_{ik}] + \tfrac12",
    r"\sqrt{n_r}\,\bar{x} \pm 1.96\,\sigma",
]


def _svg(uri: str) -> str:
    return base64.b64decode(uri.removeprefix("data:image/svg+xml;base64,")).decode("utf-8")


def test_a_formula_is_one_text_with_a_span_per_glyph_and_the_box_of_mathtext():
    svg = _svg(formula_svg_uri(r"\tau_b") or "")
    assert svg.count("<tspan") == 2 and svg.count("<text>") == 1
    assert 'font-size="10.5px"' in svg and 'font-size="7.35px"' in svg  # the subscript at 70 %
    assert ">τ</tspan>" in svg and ">b</tspan>" in svg  # the PDF's text holds the formula
    box = mathtext.MathTextParser("path").parse(r"$\tau_b$", 72, FontProperties(size=FONT_SIZE))
    assert f'width="{box.width:g}pt" height="{box.height:g}pt"' in svg


def test_an_unparsable_formula_is_left_as_its_source():
    assert formula_svg_uri(r"\frac{1}{") is None
    (segment,) = split_math(r"$\frac{1}{$")
    assert segment.is_math and segment.svg_uri is None and segment.text == r"\frac{1}{"


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_formulas_print_as_matplotlibs_math_to_image_draws_them(tmp_path: Path):
    """Each formula drawn into a PDF by weasyprint at 300 dpi: the pixels of matplotlib's own
    ``math_to_image`` SVG (which adds a white background: grey levels may differ by 1)."""
    pages = {}
    for name in ("ours", "matplotlib"):
        images = []
        for latex in FORMULAS:
            if name == "ours":
                uri = formula_svg_uri(latex)
                assert uri is not None, latex
            else:
                buffer = io.BytesIO()
                source = latex.replace(r"\le ", r"\leq ").replace(r"\tfrac12", r"\frac{1}{2}")
                prop = FontProperties(size=FONT_SIZE)
                mathtext.math_to_image(f"${source}$", buffer, prop=prop, format="svg")
                uri = "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode()
            images.append(f'<p><img src="{uri}"></p>')
        write_pdf(f"<html><body>{''.join(images)}</body></html>", tmp_path, tmp_path / "f.pdf")
        subprocess.run(
            ["pdftoppm", "-r", "300", "-gray", "-singlefile", tmp_path / "f.pdf", tmp_path / name],
            check=True,
        )
        data = (tmp_path / f"{name}.pgm").read_bytes()
        pages[name] = np.frombuffer(data[-2481 * 3508 :], dtype=np.uint8).astype(int)
    ink = pages["matplotlib"] < 128
    assert ink.sum() > 5000  # the formulas are there
    assert np.abs(pages["ours"] - pages["matplotlib"]).max() <= 1
