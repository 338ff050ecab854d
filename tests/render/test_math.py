"""Formulas of the methods appendix as SVG (reportgen.render.math)."""

from __future__ import annotations

import base64
import io
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from matplotlib import mathtext
from matplotlib.font_manager import FontProperties
from matplotlib.ft2font import LoadFlags

from reportgen.render import files  # noqa: F401  (the report's rcParams: text as <text>)
from reportgen.render.math import FONT_SIZE, formula_svg_uri, split_math
from reportgen.render.pdf import write_pdf

FORMULAS = [
    r"\tau_b",
    r"\rho_s(\tau) = \frac{1}{|P|}\left|\{p \in P : r_{p,s} \le \tau\}\right|",
    r"U_{jk} = \sum_{i} \mathbf{1}[x_{ij} \succ x_{ik}] + \tfrac12",  # \mathbb: STIX, outlined
    # No accent and no root: matplotlib's own text SVG draws an accent as a combining mark,
    # which weasyprint puts in a dotted circle, and a root from a STIX font the PDF writer
    # does not have (the defects the accent and root tests below guard against).
    r"n_r\,x \pm 1.96\,\sigma",
]


def _svg(uri: str) -> str:
    return base64.b64decode(uri.removeprefix("data:image/svg+xml;base64,")).decode("utf-8")


def test_a_formula_is_one_text_with_a_span_per_font_and_the_box_of_mathtext():
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


def test_a_span_places_each_of_its_glyphs_at_its_own_point():
    """The glyphs of one font share a span whose ``x`` lists one value per glyph, in the
    order of its text, each where mathtext puts the glyph (y once where all share it)."""
    svg = _svg(formula_svg_uri(r"U_{j,k} = R_{j,k} - n_j(n_j+1)/2") or "")
    parsed = mathtext.MathTextParser("path").parse(
        r"$U_{j,k} = R_{j,k} - n_j(n_j+1)/2$", 72, FontProperties(size=FONT_SIZE)
    )
    placed = set()
    for xs, ys, text in re.findall(r'<tspan x="([^"]*)" y="([^"]*)"[^>]*>([^<]*)</tspan>', svg):
        x_list = [float(x) for x in xs.split()]
        y_list = [float(y) for y in ys.split()] or [0.0]
        assert len(x_list) == len(text) and len(y_list) in (1, len(text))
        y_list = y_list * len(text) if len(y_list) == 1 else y_list
        placed |= {
            (round(x, 4), round(y, 4), c) for x, y, c in zip(x_list, y_list, text, strict=True)
        }
    expected = {
        (round(x, 4), round(-y, 4), "\N{NO-BREAK SPACE}" if code == 32 else chr(code))
        for _, _, code, _, x, y in parsed.glyphs
    }
    assert placed == expected and len(placed) == 20


def _span_per_glyph(svg: str) -> str:
    """``svg`` with each multi-glyph span written as one span per glyph at its own point."""

    def split(match: re.Match[str]) -> str:
        xs, ys, rest, text = match.groups()
        x_list, y_list = xs.split(), ys.split()
        y_list = y_list * len(text) if len(y_list) == 1 else y_list
        return "".join(
            f'<tspan x="{x}" y="{y}"{rest}>{c}</tspan>'
            for x, y, c in zip(x_list, y_list, text, strict=True)
        )

    return re.sub(r'<tspan x="([^"]*)" y="([^"]*)"([^>]*)>([^<]*)</tspan>', split, svg)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_weasyprint_draws_a_span_of_glyphs_as_a_span_per_glyph(tmp_path: Path):
    """Formulas drawn into a PDF by weasyprint at 200 dpi: the same pixels as with each glyph
    a span of its own (how formulas were written before)."""
    svgs = [_svg(formula_svg_uri(latex) or "") for latex in FORMULAS]
    spans = sum(svg.count("<tspan") for svg in svgs)
    assert spans < sum(_span_per_glyph(svg).count("<tspan") for svg in svgs) - 20
    pixels = {}
    for name in ("spans", "glyphs"):
        images = []
        for svg in svgs:
            if name == "glyphs":
                svg = _span_per_glyph(svg)
            uri = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
            images.append(f'<p><img src="{uri}"></p>')
        write_pdf(f"<html><body>{''.join(images)}</body></html>", tmp_path, tmp_path / "f.pdf")
        subprocess.run(
            ["pdftoppm", "-r", "200", "-gray", "-singlefile", tmp_path / "f.pdf", tmp_path / name],
            check=True,
        )
        pixels[name] = (tmp_path / f"{name}.pgm").read_bytes()
    assert len(pixels["spans"]) > 500_000
    assert pixels["spans"] == pixels["glyphs"]


@pytest.mark.parametrize("latex", [r"\tilde p_{(j)} \leq \alpha", r"\hat p_s(t)", r"\bar H"])
def test_accents_are_spacing_glyphs_whose_ink_stays_where_mathtext_put_the_mark(latex: str):
    """Holm's p̃ in the methods appendix printed as p, then a tilde in a dotted circle beside
    it: mathtext's accent is a combining mark, which, first in its span, has no base to sit on
    (HarfBuzz then draws the dotted circle). The SVG holds the spacing form of the accent,
    moved by the difference of the two glyphs' ink boxes."""
    svg = _svg(formula_svg_uri(latex) or "")
    assert not re.search("[\u0300-\u036f]", svg)
    parsed = mathtext.MathTextParser("path").parse(f"${latex}$", 72, FontProperties(size=FONT_SIZE))
    ((font, size, code, _, x, _y),) = [g for g in parsed.glyphs if 0x300 <= g[2] <= 0x36F]
    font.set_size(size, 72)
    mark = [v / 64 for v in font.load_char(code, flags=LoadFlags.NO_HINTING).bbox]
    (spacing,) = re.findall("[\u02c6\u02dc\u00af]", svg)
    glyph = [v / 64 for v in font.load_char(ord(spacing), flags=LoadFlags.NO_HINTING).bbox]
    span = next(s for s in re.findall(r"<tspan [^>]*>[^<]*</tspan>", svg) if spacing in s)
    xs = re.search(r'x="([^"]*)"', span).group(1).split()  # type: ignore[union-attr]
    text = re.search(r">([^<]*)<", span).group(1)  # type: ignore[union-attr]
    placed = float(xs[text.index(spacing)])
    # Ink left edge and width as mathtext draws the mark.
    assert placed + glyph[0] == pytest.approx(x + mark[0], abs=1e-3)
    assert glyph[2] - glyph[0] == pytest.approx(mark[2] - mark[0], abs=1e-3)


def test_a_root_is_outlined_where_mathtext_puts_its_stix_glyph():
    """λS/√n_r printed a small "√" apart from its bar: mathtext takes the radical from its
    STIX size font, which ships inside matplotlib only, so as text it fell back to another
    font. Glyphs outside the report's DejaVu fonts are paths, inked where mathtext's glyph is."""
    svg = _svg(formula_svg_uri(r"\sqrt{n_r}") or "")
    assert "STIX" not in svg
    (outline,) = re.findall(r'<path d="([^"]*)"/>', svg)
    numbers = [float(v) for v in re.findall(r"-?[\d.]+", outline)]
    xs, ys = numbers[0::2], numbers[1::2]
    parsed = mathtext.MathTextParser("path").parse(
        r"$\sqrt{n_r}$", 72, FontProperties(size=FONT_SIZE)
    )
    ((font, size, _, _, x, y),) = [g for g in parsed.glyphs if g[2] == 0x221A]
    assert font.family_name.startswith("STIX")
    font.set_size(size, 72)
    left, bottom, right, top = [v / 64 for v in font.load_char(0x221A, LoadFlags.NO_HINTING).bbox]
    assert min(xs) == pytest.approx(x + left, abs=0.05)
    assert max(xs) == pytest.approx(x + right, abs=0.05)
    assert min(ys) == pytest.approx(-(y + top), abs=0.05)  # SVG's y runs downwards
    assert max(ys) == pytest.approx(-(y + bottom), abs=0.05)
