"""Rendering the methods appendix's formulas as SVG with matplotlib's mathtext.

Text from section builders writes formulas between ``$`` signs in LaTeX. Each formula becomes
a small inline SVG image, which both browsers and weasyprint draw as vectors; no TeX
installation and no JavaScript are needed. A formula mathtext cannot parse is shown as its
LaTeX source in code style rather than failing the report.

The SVG is what ``matplotlib.mathtext.math_to_image`` writes, without its detour through a
figure, which parsed each formula twice and drew a white rectangle under it, each element in
a group of its own: 90 formulas took 1.4 s of CPU, now 0.3 s.
"""

from __future__ import annotations

import base64
import functools
import re
from dataclasses import dataclass
from html import escape

from matplotlib.font_manager import FontProperties, ttfFontProperty
from matplotlib.ft2font import FT2Font, LoadFlags
from matplotlib.mathtext import MathTextParser
from matplotlib.path import Path

from reportgen.render.printsvg import path_data

# mathtext spells some common TeX commands differently.
_SPELLINGS = [
    (re.compile(r"\\ge(?![a-zA-Z])"), r"\\geq"),
    (re.compile(r"\\le(?![a-zA-Z])"), r"\\leq"),
    (re.compile(r"\\[td]frac(?![a-zA-Z])"), r"\\frac"),
    (re.compile(r"\\frac(\d)(\d)"), r"\\frac{\1}{\2}"),  # TeX's \frac12 shorthand
    (re.compile(r"\\sqrt\s*([0-9a-zA-Z])"), r"\\sqrt{\1}"),  # TeX's \sqrt 2 shorthand
    (re.compile(r"\\[lr]vert(?![a-zA-Z])"), "|"),
    (re.compile(r"\\displaystyle\s*"), ""),
    (re.compile(r"\\[Bb]igg?[lr]?(?![a-zA-Z])"), ""),  # mathtext sizes delimiters itself
    (re.compile(r"'"), r"^{\\prime}"),  # mathtext rejects primes inside subscripts
]


def normalised(latex: str) -> str:
    """``latex`` with the TeX commands mathtext spells differently in its own spelling."""
    for pattern, replacement in _SPELLINGS:
        latex = pattern.sub(replacement, latex)
    return latex


_SEGMENTS = re.compile(r"(\$\$.+?\$\$|\$.+?\$)", re.DOTALL)


@dataclass(frozen=True)
class MathSegment:
    """Part of a paragraph: plain text, or a formula rendered to an SVG data URI."""

    text: str
    svg_uri: str | None = None
    display: bool = False
    is_math: bool = False


FONT_SIZE = 10.5
"""Points: the size formulas are set in (the body text's 10.5 pt)."""

_PARSER = MathTextParser("path")


def _number(value: float) -> str:
    """A coordinate as matplotlib's SVG writer prints it (``%f`` without trailing zeros)."""
    return f"{value:f}".rstrip("0").rstrip(".")


@functools.lru_cache(maxsize=64)
def _font_attributes(font: FT2Font, size: float) -> str:
    """The SVG font attributes of a glyph of ``font`` at ``size`` points."""
    entry = ttfFontProperty(font)
    attributes = {
        "font-style": entry.style if entry.style != "normal" else None,
        "font-variant": entry.variant if entry.variant != "normal" else None,
        "font-weight": str(entry.weight) if entry.weight != 400 else None,
        "font-size": f"{_number(size)}px",
        "font-family": escape(repr(entry.name), quote=False).replace('"', "&quot;"),
        "font-stretch": entry.stretch if entry.stretch != "normal" else None,
    }
    return " ".join(f'{k}="{v}"' for k, v in attributes.items() if v is not None)


@functools.lru_cache(maxsize=512)
def formula_svg_uri(latex: str) -> str | None:
    """A formula (without the dollar signs) as an SVG data URI, or None if it cannot be parsed.

    The SVG ``math_to_image`` writes with ``svg.fonttype: none``: the formula's box at
    10.5 pt (width, and height with depth, each rounded up to a point), the baseline
    ``depth`` above its bottom; the glyphs of each font a ``<tspan>`` placing every glyph
    at the point mathtext gives it (so the PDF's text holds the formula; see
    :func:`_tspan`), each rule (fraction bars, roots) a ``<rect>``.
    """
    source = normalised(latex)
    try:
        parsed = _PARSER.parse(f"${source}$", dpi=72, prop=FontProperties(size=FONT_SIZE))
    except ValueError:
        return None
    # matplotlib's order: the glyphs grouped by font, each group from left to right.
    spans: dict[str, list[tuple[float, float, int]]] = {}
    outlines = []
    # matplotlib 3.11 added the glyph index before the position: (font, size, code, [index,] x, y).
    for font, size, code, *_, x0, y0 in parsed.glyphs:
        if not font.family_name.startswith(_TEXT_FONTS):
            outlines.append(_outline(font, size, code, x0, y0))
            continue
        code, x, y = _spacing_accent(font, size, code, x0, y0)
        # A space as a no-break space, which SVG keeps.
        spans.setdefault(_font_attributes(font, size), []).append(
            (x, -y, 0xA0 if code == 32 else code)
        )
    tspans = "".join(_tspan(font, sorted(chars)) for font, chars in spans.items())
    rects = "".join(
        f'<rect x="{_number(x)}" y="{_number(-y - 1)}" width="{_number(w)}" height="{_number(h)}"/>'
        for x, y, w, h in parsed.rects
    )
    width, height = _number(parsed.width), _number(parsed.height)
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}pt" height="{height}pt" '
        f'viewBox="0 0 {width} {height}"><g transform="translate(0 '
        f'{_number(parsed.height - parsed.depth)})"><text>{tspans}</text>{rects}'
        f"{''.join(outlines)}</g></svg>"
    )
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


_TEXT_FONTS = ("DejaVu",)
"""Fonts whose glyphs a formula keeps as text: the report's own, which the PDF writer finds.
mathtext draws radicals and large delimiters from its STIX size fonts, which ship inside
matplotlib only: as text they fell back to another font's small "√", set at the size
variant's 5.8 pt, so √n_r printed a tiny root standing apart from its bar."""


def _outline(font: FT2Font, size: float, code: int, x: float, y: float) -> str:
    """A glyph as a filled path, where mathtext places it (``x``, ``y``: its origin, y up)."""
    font.set_size(size, 72)
    font.load_char(code, flags=LoadFlags.NO_HINTING)
    vertices, codes = font.get_path()
    return f'<path d="{path_data(Path(vertices, codes), x, -y)}"/>'


_SPACING_ACCENTS = {
    0x300: 0x60,  # grave
    0x301: 0xB4,  # acute
    0x302: 0x2C6,  # circumflex (\hat)
    0x303: 0x2DC,  # tilde (\tilde)
    0x304: 0xAF,  # macron (\bar)
    0x306: 0x2D8,  # breve
    0x307: 0x2D9,  # dot above (\dot)
    0x308: 0xA8,  # diaeresis (\ddot)
    0x30C: 0x2C7,  # caron (\check)
}
"""mathtext's accents (combining marks) and the spacing glyphs that draw the same shape."""


def _spacing_accent(
    font: FT2Font, size: float, code: int, x: float, y: float
) -> tuple[int, float, float]:
    """A combining accent as its spacing form, moved so its ink stays where mathtext put it.

    mathtext places an accent (``\tilde p``: U+0303) as a glyph of its own. Text drawn
    glyph by glyph gives a combining mark no base, so weasyprint drew it beside the letter
    with a dotted circle (HarfBuzz's mark for a missing base): Holm's :math:`\tilde p` in the
    methods appendix was unreadable. The spacing glyph has the same shape but another origin;
    the difference of the two ink boxes moves it back.
    """
    spacing = _SPACING_ACCENTS.get(code)
    if spacing is None or not font.get_char_index(spacing):
        return code, x, y
    font.set_size(size, 72)
    mark = font.load_char(code, flags=LoadFlags.NO_HINTING).bbox
    glyph = font.load_char(spacing, flags=LoadFlags.NO_HINTING).bbox
    return spacing, x + (mark[0] - glyph[0]) / 64, y + (mark[1] - glyph[1]) / 64


def _tspan(font: str, glyphs: list[tuple[float, float, int]]) -> str:
    """One ``<tspan>`` of ``font`` placing each of ``glyphs`` (x, y, code point) at its own
    point: SVG's lists of ``x`` and ``y``, one value per character.

    One span per glyph drew the same: weasyprint lays out every character of an SVG text
    on its own either way, but it lays out each span's whole text once more and handles
    each span as an element (its attributes inherited, its graphical state set), which made
    a glyph cost about twice what it does in a span of several.
    """
    xs = " ".join(_number(x) for x, _, _ in glyphs)
    ys = " ".join(_number(y) for _, y, _ in glyphs)
    if len({y for _, y, _ in glyphs}) == 1:
        ys = _number(glyphs[0][1])  # the first glyph's y holds for the rest of the span
    text = escape("".join(chr(code) for _, _, code in glyphs))
    return f'<tspan x="{xs}" y="{ys}" {font}>{text}</tspan>'


def split_math(text: str) -> list[MathSegment]:
    """Split a paragraph into text and rendered formula segments."""
    out: list[MathSegment] = []
    for part in _SEGMENTS.split(text):
        if not part:
            continue
        if part.startswith("$$") and part.endswith("$$") and len(part) > 4:
            latex = part[2:-2].strip()
            out.append(MathSegment(latex, formula_svg_uri(latex), display=True, is_math=True))
        elif part.startswith("$") and part.endswith("$") and len(part) > 2:
            latex = part[1:-1]
            out.append(MathSegment(latex, formula_svg_uri(latex), is_math=True))
        else:
            out.append(MathSegment(part))
    return out
