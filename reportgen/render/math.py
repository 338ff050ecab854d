"""Rendering the methods appendix's formulas as SVG with matplotlib's mathtext.

Text from section builders writes formulas between ``$`` signs in LaTeX. Each formula becomes
a small inline SVG image, which both browsers and weasyprint draw as vectors; no TeX
installation and no JavaScript are needed. A formula mathtext cannot parse is shown as its
LaTeX source in code style rather than failing the report.
"""

from __future__ import annotations

import base64
import functools
import io
import re
from dataclasses import dataclass

from matplotlib import mathtext
from matplotlib.font_manager import FontProperties

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
_SEGMENTS = re.compile(r"(\$\$.+?\$\$|\$.+?\$)", re.DOTALL)


@dataclass(frozen=True)
class MathSegment:
    """Part of a paragraph: plain text, or a formula rendered to an SVG data URI."""

    text: str
    svg_uri: str | None = None
    display: bool = False
    is_math: bool = False


@functools.lru_cache(maxsize=512)
def formula_svg_uri(latex: str) -> str | None:
    """A formula (without the dollar signs) as an SVG data URI, or None if it cannot be parsed."""
    source = latex
    for pattern, replacement in _SPELLINGS:
        source = pattern.sub(replacement, source)
    buffer = io.BytesIO()
    try:
        mathtext.math_to_image(f"${source}$", buffer, prop=FontProperties(size=10.5), format="svg")
    except ValueError:
        return None
    svg = re.sub(rb"<dc:date>.*?</dc:date>", b"", buffer.getvalue())
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


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
