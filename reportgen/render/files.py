"""Machine-readable outputs: CSV and booktabs LaTeX tables, SVG/PDF figures, results.json.

LaTeX tables compile with pdflatex (symbols as math macros, :func:`latex_text`). Every figure
is written as SVG (the HTML embeds it, and weasyprint draws it into the PDF report); a PDF copy
for a paper's LaTeX source only with ``report.figures.pdf`` (each costs about as much as the
SVG, mostly subsetting its fonts), embedding its fonts as TrueType (Type 42), not Type 3, which
journals' PDF checkers reject. Figures are drawn in parallel processes (:func:`draw_figures`).

Every writer is deterministic: the same result gives byte-identical CSV, LaTeX and
``results.json`` (apart from its provenance block) on every run and machine. Floats are written
in Python's shortest round-trip form, ∞ as ``inf``, missing as an empty cell.
"""

from __future__ import annotations

import codecs
import functools
import gc
import io
import json
import math
import multiprocessing as mp
import os
import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

import matplotlib
import numpy as np
import pandas as pd
from matplotlib import cbook
from matplotlib import transforms as mtransforms
from matplotlib.artist import Artist
from matplotlib.axis import Axis, Tick, XAxis
from matplotlib.backend_bases import RendererBase
from matplotlib.backends.backend_mixed import MixedModeRenderer
from matplotlib.backends.backend_svg import FigureCanvasSVG, RendererSVG
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, fontManager, get_font
from matplotlib.text import Text
from matplotlib.textpath import TextToPath
from matplotlib.ticker import FixedFormatter, Locator, NullFormatter, NullLocator

from reportgen.errors import LONG_WORD, shorten_words
from reportgen.figures.style import plain_text
from reportgen.render.blocks import FigureBlock, Section, TableBlock
from reportgen.render.printsvg import for_weasyprint
from reportgen.spec.study import FigureOptions

matplotlib.rcParams["svg.hashsalt"] = "reportgen"  # stable element ids in SVG output
# Text as <text> (not glyph paths): a quarter of the size, selectable, and several times faster
# for weasyprint to draw; DejaVu Sans is matplotlib's default and installed with the report tools.
matplotlib.rcParams["svg.fonttype"] = "none"
# Each <text> names its font family with the whole fallback list of font.sans-serif (eleven
# names); the font drawn is DejaVu Sans either way (matplotlib ships it, and it heads the
# default list), and weasyprint resolves a one-name list in two thirds of the time: a figure
# with 200 labels draws 0.1 s faster into the PDF. Browsers fall back to their sans-serif.
matplotlib.rcParams["font.sans-serif"] = ["DejaVu Sans"]
# Type 42 (TrueType) fonts in figure PDFs: matplotlib's default Type 3 fonts are refused by
# publishers' checkers (e.g. IEEE PDF eXpress) and render poorly in some viewers.
matplotlib.rcParams["pdf.fonttype"] = 42
# A name in a script DejaVu Sans lacks (遗传算法, an emoji) made matplotlib warn "Glyph 36951
# missing from font(s) DejaVu Sans" once per name and figure: dozens of Python warnings, with
# their source lines, on stderr among reportgen's own lines. The text is drawn all the same:
# the SVG holds it as <text>, which the browser and weasyprint set in a font that has the
# glyphs (fontconfig's fallback); only its width is measured with DejaVu's substitute glyph.
# The filter is for the warnings matplotlib attributes to this module (its first caller
# outside matplotlib): what a user's own plots do is left alone.
warnings.filterwarnings(
    "ignore", message=r"Glyph \d+ .* missing from font", category=UserWarning, module=__name__
)

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


# Symbols the report prints in Unicode, as the math (or text) macros pdflatex understands: a
# table must compile in a paper's source with \usepackage{booktabs} and nothing else.
_LATEX_MATH = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\varepsilon",
    "ζ": r"\zeta", "η": r"\eta", "θ": r"\theta", "κ": r"\kappa", "λ": r"\lambda",
    "μ": r"\mu", "ν": r"\nu", "ξ": r"\xi", "π": r"\pi", "ρ": r"\rho", "σ": r"\sigma",
    "τ": r"\tau", "φ": r"\varphi", "χ": r"\chi", "ψ": r"\psi", "ω": r"\omega",
    "Γ": r"\Gamma", "Δ": r"\Delta", "Θ": r"\Theta", "Λ": r"\Lambda", "Σ": r"\Sigma",
    "Φ": r"\Phi", "Ψ": r"\Psi", "Ω": r"\Omega",
    "−": "-", "×": r"\times", "·": r"\cdot", "±": r"\pm", "≤": r"\le", "≥": r"\ge",
    "≈": r"\approx", "≠": r"\ne", "∞": r"\infty", "→": r"\to", "←": r"\leftarrow",
    "√": r"\surd", "∑": r"\sum", "∈": r"\in", "⊂": r"\subset", "∅": r"\emptyset",
    "½": r"\frac{1}{2}", "′": r"\prime", "∼": r"\sim", "≺": r"\prec", "≻": r"\succ",
}  # fmt: skip
_LATEX_TEXT = {
    "–": "--", "—": "---", "…": r"\dots{}", "‘": "`", "’": "'", "“": "``", "”": "''",
    "\u00a0": "~", "\u202f": r"\,", "\u2009": r"\,", "§": r"\S{}", "°": r"\textdegree{}",
    "✓": "yes", "✗": "no", "†": r"\dag{}",
}  # fmt: skip
_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺ⁿⁱ", "0123456789-+ni", strict=True))
_SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉₋₊", "0123456789-+", strict=True))
_ACCENTS = {"\u0304": r"\bar", "\u0305": r"\bar", "\u0302": r"\hat", "\u0303": r"\tilde"}


_PLAIN = re.compile(r"[A-Za-z0-9 .,:;()/+=*!?@'\[\]-]*\Z")
"""Text that :func:`latex_text` returns as it is: characters of no table above (the tables
hold the specials, the symbols and the non-ASCII characters that need a macro)."""


def latex_text(text: str) -> str:
    """Plain text as LaTeX that pdflatex compiles: specials escaped, symbols as math macros.

    Greek letters and mathematical symbols become math (``τ`` → ``$\\tau$``), runs of
    superscript or subscript characters one exponent or index (``10⁻⁵`` → ``10$^{-5}$``), a
    combining macron or overline an accent (``ρ̄`` → ``$\\bar{\\rho}$``); adjacent math joins
    into one ``$…$``. Accented Latin letters stay as they are (UTF-8 is LaTeX's input encoding).
    """
    text = shorten_words(text)
    if _PLAIN.match(text):
        return text  # most cells: nothing to escape or convert
    parts: list[tuple[bool, str]] = []  # (is math, LaTeX)

    def add(is_math: bool, latex: str) -> None:
        if parts and parts[-1][0] == is_math and is_math:
            parts[-1] = (True, parts[-1][1] + latex)
        else:
            parts.append((is_math, latex))

    i = 0
    while i < len(text):
        ch = text[i]
        for table, mark in ((_SUPERSCRIPTS, "^"), (_SUBSCRIPTS, "_")):
            if ch in table:
                j = i
                while j < len(text) and text[j] in table:
                    j += 1
                add(True, f"{mark}{{{''.join(table[c] for c in text[i:j])}}}")
                i = j
                break
        else:
            accent = _ACCENTS.get(text[i + 1]) if i + 1 < len(text) else None
            if ch in _LATEX_MATH:
                body = _LATEX_MATH[ch]
                add(True, f"{accent}{{{body}}}" if accent else body + " ")
            elif accent:
                add(True, f"{accent}{{{latex_escape(ch)}}}")
            elif ch in _LATEX_TEXT:
                add(False, _LATEX_TEXT[ch])
            else:
                add(False, latex_escape(ch))
            i += 2 if accent else 1
    return "".join(f"${latex.strip()}$" if is_math else latex for is_math, latex in parts)


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    """A table as CSV (UTF-8, ``\\n`` line ends, full float precision)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, lineterminator="\n", na_rep="")


def latex_escape(text: str) -> str:
    """Escape LaTeX's special characters in plain text."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def _latex_cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if math.isinf(value):
            return r"$\infty$" if value > 0 else r"$-\infty$"
        return f"{value:.6g}"
    if value is None or value is pd.NA:
        return ""
    return latex_text(str(value))


def latex_table(frame: pd.DataFrame, bold: pd.DataFrame | None = None) -> str:
    """A booktabs ``tabular``: numbers right-aligned, text left-aligned."""
    align = "".join("r" if pd.api.types.is_numeric_dtype(frame[c]) else "l" for c in frame.columns)
    lines = [f"\\begin{{tabular}}{{{align}}}", r"\toprule"]
    lines.append(" & ".join(latex_text(str(c)) for c in frame.columns) + r" \\")
    lines.append(r"\midrule")
    # name=None: plain tuples. Columns named by algorithms are no identifiers for a
    # namedtuple, and two names equal once normalised ('e' + U+0301 and 'é') failed as one.
    for i, row in enumerate(frame.itertuples(index=False, name=None)):
        cells = [_latex_cell(v) for v in row]
        if bold is not None:
            cells = [
                f"\\textbf{{{c}}}" if bool(bold.iat[i, j]) and c else c for j, c in enumerate(cells)
            ]
        lines.append(" & ".join(cells) + r" \\")
    lines.extend([r"\bottomrule", r"\end{tabular}", ""])
    return "\n".join(lines)


LATEX_MAX_ROWS = 2000
"""Longer tables get no .tex: nobody typesets them, and their CSV is the machine-readable form."""


def write_latex(frame: pd.DataFrame, path: Path, bold: pd.DataFrame | None = None) -> None:
    """Write a booktabs table, unless it has more than :data:`LATEX_MAX_ROWS` rows."""
    if len(frame) > LATEX_MAX_ROWS:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(latex_table(frame, bold), encoding="utf-8")


class _SharedTextToPath(TextToPath):
    """matplotlib's text measurer, its measurements kept for the whole process.

    matplotlib gives every renderer a measurer of its own, with an empty cache and its own
    mathtext parser: each figure, and the layout pass before its drawing, measured the same
    tick labels, titles and legend entries with FreeType again (≈ 0.2 ms a string) and parsed
    the same mathtext again. A string's extent depends only on the string, its font
    properties and whether it is mathtext (the fonts are found from rcParams, which reportgen
    sets once, at import), so one process-wide cache returns exactly what the measurer would.
    """

    def get_text_width_height_descent(
        self, s: str, prop: FontProperties, ismath: bool | Literal["TeX"]
    ) -> tuple[float, float, float]:
        # A copy: FontProperties are mutable, and their hash follows their state.
        return _text_extent(s, prop.copy(), ismath)


_TEXT_TO_PATH = _SharedTextToPath()


@functools.lru_cache(maxsize=8192)
def _text_extent(
    text: str, prop: FontProperties, ismath: bool | Literal["TeX"]
) -> tuple[float, float, float]:
    """Width, height and descent (points) of ``text``, measured once a process."""
    return TextToPath.get_text_width_height_descent(_TEXT_TO_PATH, text, prop, ismath)


_FONT_TABLES = (
    ("OS/2", "sTypoLineGap", "sTypoAscender", "sTypoDescender"),
    ("hhea", "lineGap", "ascent", "descent"),
)


@functools.lru_cache(maxsize=256)
def _font_height_metrics(prop: FontProperties) -> tuple[float | None, float | None, float]:
    """A font's ascent, descent and line gap (points) as matplotlib's text layout computes
    them at the SVG writer's 72 dpi (``matplotlib.text.Text._get_layout``), the same floats.

    matplotlib reads them from the font's tables for every text it lays out (two tables
    built as Python dictionaries each time, ≈ 50 µs): 12 000 times for cec2022's figures.
    """
    font = get_font(fontManager._find_fonts_by_props(prop))
    # The stubs type get_sfnt_table per literal table name only.
    sfnt_table = cast(Callable[[str], Any], font.get_sfnt_table)
    fontsize = prop.get_size_in_points()
    dpi = 72  # the SVG writer draws (and lays out) every figure at 72 dpi
    for table_name, gap_key, ascent_key, descent_key in _FONT_TABLES:
        table = sfnt_table(table_name)
        if table is None:
            continue
        units_per_em = sfnt_table("head")["unitsPerEm"]
        scale = 1 / units_per_em * fontsize * dpi / 72  # matplotlib's operations, in order
        return table[ascent_key] * scale, -table[descent_key] * scale, table[gap_key] * scale
    return None, None, 0.0  # matplotlib then measures "lp" instead


class _RendererSVG(RendererSVG):
    """matplotlib's SVG writer, measuring text through the process-wide caches above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[no-untyped-call]  # untyped in the stubs
        self._text2path = _TEXT_TO_PATH

    def _get_font_height_metrics(
        self, prop: FontProperties
    ) -> tuple[float | None, float | None, float]:
        # The hook matplotlib's text layout asks a renderer for before reading the tables.
        return _font_height_metrics(prop.copy())


class _FigureCanvasSVG(FigureCanvasSVG):
    """The SVG canvas, drawing with :class:`_RendererSVG` (for the layout and the file).

    ``print_svg`` is matplotlib's (3.11), the renderer class aside; the SVG is byte for byte
    matplotlib's (``tests/render/test_outputs.py`` compares them).
    """

    def print_svg(
        self,
        filename: Any,
        *,
        bbox_inches_restore: Any = None,
        metadata: Any = None,
        **_for_other_renderers: Any,
    ) -> None:
        # print_figure passes dpi, facecolor, edgecolor and orientation to a canvas outside
        # matplotlib; matplotlib's SVG canvas is not given them (it takes the figure's own).
        with cbook.open_file_cm(filename, "w", encoding="utf-8") as opened:
            fh: Any = opened
            if not cbook.file_requires_unicode(fh):
                fh = codecs.getwriter("utf-8")(fh)
            dpi = self.figure.dpi
            self.figure.dpi = 72
            width, height = self.figure.get_size_inches()
            w, h = width * 72, height * 72
            renderer = MixedModeRenderer(  # type: ignore[no-untyped-call]  # untyped in the stubs
                self.figure,
                width,
                height,
                dpi,
                _RendererSVG(w, h, fh, image_dpi=dpi, metadata=metadata),
                bbox_inches_restore=bbox_inches_restore,
            )
            # The stubs want a RendererBase; the mixed-mode renderer passes its calls on to one.
            self.figure.draw(cast(RendererBase, renderer))
            renderer.finalize()


def figure_svg(figure: Figure) -> str:
    """A figure as SVG text with no date or tool stamp (reproducible bytes)."""
    if not isinstance(figure.canvas, _FigureCanvasSVG):
        _FigureCanvasSVG(figure)
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    return buffer.getvalue()


BASE_FONT_SIZE = 10.0
"""The body text size (points) every figure module draws for: matplotlib's default."""


def resize_figure(
    figure: Figure,
    width: float | None = None,
    height: float | None = None,
    font_size: float | None = None,
) -> None:
    """Set a figure's size (inches) and scale all its text so the body text is ``font_size`` pt.

    With only one of ``width`` and ``height`` the other follows the figure's aspect ratio.
    Text sizes are multiplied by ``font_size / BASE_FONT_SIZE``, so a figure keeps its own
    hierarchy (titles larger, annotations smaller); tick labels, which matplotlib creates
    when drawing, are scaled through their axes' tick parameters.
    """
    if font_size is not None and font_size != BASE_FONT_SIZE:
        factor = font_size / BASE_FONT_SIZE
        # No drawing needed: asking for the tick labels makes the axes create them (with
        # their sizes); ticks created later when drawing follow the axes' tick parameters.
        ticks: set[int] = set()
        for ax in figure.axes:
            for minor in (False, True):
                which: Literal["major", "minor"] = "minor" if minor else "major"
                x_labels = ax.xaxis.get_ticklabels(minor=minor)
                y_labels = ax.yaxis.get_ticklabels(minor=minor)
                ticks |= {id(label) for label in [*x_labels, *y_labels]}
                if x_labels:
                    size = x_labels[0].get_fontproperties().get_size_in_points() * factor
                    ax.tick_params(axis="x", which=which, labelsize=size)
                if y_labels:
                    size = y_labels[0].get_fontproperties().get_size_in_points() * factor
                    ax.tick_params(axis="y", which=which, labelsize=size)
        for text in figure.findobj(Text):
            if id(text) not in ticks:
                text.set_fontsize(text.get_fontproperties().get_size_in_points() * factor)
    old_width, old_height = figure.get_size_inches()
    if width is not None and height is None:
        height = old_height * width / old_width
    elif height is not None and width is None:
        width = old_width * height / old_height
    if width is not None and height is not None:
        figure.set_size_inches(width, height)


def _shorten_texts(figure: Figure) -> None:
    """Shorten absurdly long words in every text of a figure (a 10⁶-character algorithm name
    in a legend or on an axis squeezes the axes to nothing), tick labels included."""
    for axes in figure.axes:
        for axis in (axes.xaxis, axes.yaxis):
            formatter = axis.get_major_formatter()
            if isinstance(formatter, FixedFormatter):
                formatter.seq = [shorten_words(str(label)) for label in formatter.seq]
    for text in _texts(figure):
        content = text.get_text()
        if len(content) > LONG_WORD:
            text.set_text(shorten_words(content))


def _texts(artist: Artist) -> Iterator[Text]:
    """Every text of ``artist`` but its axes' tick labels (which the formatters above write).

    Not ``findobj``: an axis's children are its ticks, which it creates from its locator when
    asked (28 per logarithmic axis), so a walk through them cost a grid of 12 panels 0.3 s.
    """
    for child in artist.get_children():
        if isinstance(child, Axis):
            yield from (child.label, child.offsetText)
            continue
        if isinstance(child, Text):
            yield child
        yield from _texts(child)


class _InView(Locator):
    """An axis's unlabelled minor tick positions without those outside its view.

    matplotlib creates a tick (two tick marks, a grid line and two labels: five artists, its
    markers deep-copied) for every position a locator returns, and updates all of them in
    each of the dozen passes of a layout and a drawing; a logarithmic locator returns a
    decade or two beyond the view on each side (a quarter of cec2022's 974 minor ticks).
    Only the ticks within the view are drawn or measured (``Axis._update_ticks``), so
    dropping the others changes nothing drawn: the positions kept are a superset of those
    (the view widened by 10⁻⁶ of its span where matplotlib allows 10⁻¹⁰), in their order.
    """

    def __init__(self, locator: Locator) -> None:
        self.locator = locator

    def set_axis(self, axis: Any) -> None:
        super().set_axis(axis)
        self.locator.set_axis(axis)

    def __call__(self) -> Sequence[float]:
        locs = np.asarray(self.locator())
        axis: Any = self.axis  # an Axis: set by set_minor_locator
        if axis is None or not len(locs):
            return cast(Sequence[float], locs)
        transform = axis.get_transform()
        low, high = sorted(transform.transform(np.asarray(axis.get_view_interval())))
        margin = (high - low) * 1e-6
        with np.errstate(invalid="ignore"):
            at = transform.transform(locs.astype(float))
            keep = (at >= low - margin) & (at <= high + margin)
        # An array, as the wrapped locator returns (the stubs say a sequence).
        return cast(Sequence[float], locs[keep])

    def tick_values(self, vmin: float, vmax: float) -> Sequence[float]:
        return self.locator.tick_values(vmin, vmax)


class _MinorTickMarks(Artist):
    """An axis's unlabelled minor ticks drawn as one line of tick markers, not one
    :class:`~matplotlib.axis.Tick` each.

    matplotlib makes each minor tick five artists (two tick marks, a grid line and two
    labels, its markers deep-copied from the first tick's) and updates every one of them in
    each pass of a layout and a drawing, to draw one tick mark: cec2022's log axes have a
    thousand of them, more than half of all the ticks of its figures. A tick mark is a
    marker of the axis's first minor tick (its prototype, which the axis keeps and which
    :meth:`~matplotlib.axis.Axis.get_tick_padding` reads); this artist draws that tick's
    own mark lines once, at every position the axis would have drawn a tick at — the
    positions of its locator, without those of major ticks and those outside the view,
    found by matplotlib's own :meth:`~matplotlib.axis.Axis.get_minorticklocs` and the view
    test of ``Axis._update_ticks`` — so each mark is the same marker at the same place.
    The axis itself is given a :class:`~matplotlib.ticker.NullLocator` for its minor ticks.

    It is drawn right after its axis (:func:`_minor_ticks_in_view` sets the z-orders), so
    its marks come after the axis's label instead of before it; :func:`_as_marks` makes
    marks only where ticks point out of the axes, clear of the label.
    """

    def __init__(self, axis: Axis, locator: Locator, zorder: float) -> None:
        super().__init__()
        self.axis = axis
        self.locator = locator
        self.set_zorder(zorder)
        self.set_in_layout(False)  # matplotlib's layout never counted tick marks either

    def locations(self) -> np.ndarray:
        """The positions the axis would draw minor ticks at (data coordinates)."""
        axis = self.axis
        # The axis's own method, with the locator it had (its tickers are shared with the
        # axes it is shared with, and they draw marks of their own).
        held = axis.get_minor_locator()
        axis.minor.locator = self.locator
        try:
            locs = axis.get_minorticklocs()
        finally:
            axis.minor.locator = held
        in_view = _in_view(axis)
        kept = []
        for loc in locs:  # as Axis._update_ticks tests each tick
            try:
                if in_view(loc):
                    kept.append(loc)
            except AssertionError:  # a masked value, which matplotlib skips too
                continue
        return np.asarray(kept, dtype=float)

    def draw(self, renderer: RendererBase) -> None:
        axis = self.axis
        axes = axis.axes
        if not (self.get_visible() and axis.get_visible() and axes.axison):
            return
        prototype = axis.minorTicks[0]
        if not prototype.get_visible():
            return
        locs = self.locations()
        if not len(locs):
            return
        group = "xminorticks" if isinstance(axis, XAxis) else "yminorticks"
        renderer.open_group(group, gid=self.get_gid())
        for line in (prototype.tick1line, prototype.tick2line):
            if not line.get_visible():
                continue
            # Every mark in one draw of the line (its markers: matplotlib draws one mark per
            # point), across the axis where the tick had it (0 or 1 in axes coordinates).
            x, y = line.get_data()
            if isinstance(axis, XAxis):
                line.set_data(locs, np.full(len(locs), np.asarray(y)[0]))
            else:
                line.set_data(np.full(len(locs), np.asarray(x)[0]), locs)
            line.draw(renderer)
        renderer.close_group(group)
        self.stale = False


def _minor_ticks(axis: Axis) -> Locator | None:
    """The unlabelled minor tick locator of ``axis`` (unwrapped from :class:`_InView`), or
    None if it has no unlabelled minor ticks."""
    locator = axis.get_minor_locator()
    if isinstance(locator, NullLocator) or not isinstance(
        axis.get_minor_formatter(), NullFormatter
    ):
        return None
    return locator.locator if isinstance(locator, _InView) else locator


def _as_marks(axis: Axis) -> bool:
    """Whether the minor ticks of ``axis`` can be drawn as marks (:class:`_MinorTickMarks`)
    with nothing drawn, and no layout, changed.

    Their marks point out of the axes (where nothing else of it is drawn), there is no minor
    grid, and the figure does not align this axis's label with others'. And their labels
    (empty texts, but each a zero-size box where it would stand) must be within the boxes
    matplotlib places the axis label and the layout by anyway: none on the far side, and on
    the near side a major tick label in view at least as far out as a minor one would be,
    on axes whose view the layout does not change (no fixed aspect by data limits).
    """
    axes = axis.axes
    minor = axis.minorTicks[0]
    if minor.get_tickdir() != "out" or minor.gridline.get_visible():
        return False
    if minor.label2.get_visible() and minor.label2.get_in_layout():
        return False
    groups = axes.get_figure(root=False)._align_label_groups  # type: ignore[union-attr]
    if len(groups["x" if isinstance(axis, XAxis) else "y"].get_siblings(axes)) > 1:
        return False
    if not (minor.label1.get_visible() and minor.label1.get_in_layout()):
        return True
    if axes.get_aspect() != "auto" and axes.get_adjustable() == "datalim":
        return False
    major = axis.majorTicks[0]
    if isinstance(axis.get_major_locator(), NullLocator) or not (
        major.label1.get_visible() and major.label1.get_in_layout() and _pad(major) >= _pad(minor)
    ):
        return False
    locs = axis.get_majorticklocs()
    formatter = axis.get_major_formatter()
    in_view = _in_view(axis)
    return any(
        label and in_view(loc)
        for loc, label in zip(locs, formatter.format_ticks(list(locs)), strict=True)
    )


def _pad(tick: Tick) -> float:
    """How far out from the spine (points) a tick's labels stand: the pad plus the length
    of the tick outside the axes (``Tick._pad``, which the stubs do not declare)."""
    return float(tick._pad)  # type: ignore[attr-defined]


def _in_view(axis: Axis) -> Callable[[float], bool]:
    """Whether a tick at a position is drawn: ``Axis._update_ticks``'s test (the position
    in the view, allowing 10⁻¹⁰ of its span for rounding, on the axis's scale)."""
    low, high = sorted(axis.get_view_interval())
    transform = axis.get_transform()
    interval = transform.transform([low, high])
    # Private in matplotlib (and undeclared in its stubs): the test as the axis makes it.
    contains_close = cast(Callable[[Any, Any], bool], mtransforms._interval_contains_close)  # type: ignore[attr-defined]
    return lambda loc: bool(contains_close(interval, transform.transform(loc)))


def _minor_ticks_in_view(figure: Figure) -> None:
    """Draw every unlabelled minor tick of the figure's axes as a mark of its axis's
    :class:`_MinorTickMarks` where that changes nothing drawn (:func:`_as_marks`), else give
    its locator only the positions in view (:class:`_InView`); labelled ones keep theirs (a
    formatter may look at them all).

    Axes sharing an axis share its locators: their minor ticks become marks together, or none
    of them. The marks are drawn where the axis drew its minor ticks, after its major ticks
    (anti-aliased edges of marks a pixel apart blend a little differently in the other
    order): between the x and the y axis for the x axis, after the y axis for the y axis,
    by z-orders each the next float above the one before, which no other artist has.
    """
    sharing: dict[int, list[Axis]] = {}
    axis: Axis
    for axes in figure.axes:
        if axes.xaxis.get_zorder() != axes.yaxis.get_zorder() or list(axes._axis_map) != [
            "x",
            "y",
        ]:
            continue  # not the axes the z-orders above are made for
        for axis in (axes.xaxis, axes.yaxis):
            if _minor_ticks(axis) is not None:
                sharing.setdefault(id(axis.minor), []).append(axis)
    marked: dict[int, list[tuple[Axis, Locator]]] = {}
    for axes_sharing in sharing.values():
        locator = _minor_ticks(axes_sharing[0])
        assert locator is not None
        if all(_as_marks(axis) for axis in axes_sharing):
            for axis in axes_sharing:
                marked.setdefault(id(axis.axes), []).append((axis, locator))
            axes_sharing[0].set_minor_locator(NullLocator())  # for every axis sharing it
        elif not isinstance(axes_sharing[0].get_minor_locator(), _InView):
            axes_sharing[0].set_minor_locator(_InView(locator))
    for axes in figure.axes:
        if id(axes) not in marked:
            continue
        z_x = axes.xaxis.get_zorder()
        z_x_marks = math.nextafter(z_x, math.inf)
        z_y = math.nextafter(z_x_marks, math.inf)
        z_y_marks = math.nextafter(z_y, math.inf)
        axes.yaxis.set_zorder(z_y)
        for axis, locator in marked[id(axes)]:
            zorder = z_x_marks if axis is axes.xaxis else z_y_marks
            axes.add_artist(_MinorTickMarks(axis, locator, zorder))


def lay_out(figure: Figure) -> None:
    """Run the figure's layout engine (constrained layout) once, as saving it as SVG would,
    then remove the engine: the figure is drawn at those positions from then on.

    ``savefig`` with a layout engine draws the whole figure twice: once with drawing switched
    off, in which the engine places the axes, then for real. Laid out beforehand, a figure is
    drawn once — a quarter of a profile figure's CPU time. The layout is computed with the
    SVG renderer's text metrics at 72 dpi, exactly as ``savefig(format="svg")`` computes it
    (the SVG files are byte for byte those of drawing with the engine).
    """
    engine = figure.get_layout_engine()
    if engine is None:
        return
    dpi = figure.dpi
    _FigureCanvasSVG(figure)  # the figure's renderer is then the SVG writer's, as when saving
    try:
        engine.execute(figure)
    finally:
        figure.dpi = dpi  # finding the renderer set the SVG writer's 72 dpi
    # None, not "none": "none" keeps a placeholder engine, and savefig still draws twice.
    figure.set_layout_engine(None)


def write_figure(figure: Figure, stem: Path, *, pdf: bool = False) -> str:
    """Write ``stem.svg`` (and ``stem.pdf`` with ``pdf``); return the SVG text for the HTML.

    The figure is laid out once (:func:`lay_out`); the SVG and the PDF copy are drawn at the
    same positions.
    """
    stem.parent.mkdir(parents=True, exist_ok=True)
    _shorten_texts(figure)
    _minor_ticks_in_view(figure)
    lay_out(figure)
    svg = figure_svg(figure)
    # Not Path.with_suffix: a stem such as "tau_0.001" has a dot of its own.
    stem.parent.joinpath(stem.name + ".svg").write_text(svg, encoding="utf-8")
    if pdf:
        figure.savefig(
            stem.parent / (stem.name + ".pdf"),
            format="pdf",
            metadata={"CreationDate": None, "Creator": None, "Producer": None},
        )
    return svg


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


_Job = tuple[Figure, Path]
_PENDING: tuple[tuple[_Job, ...], FigureOptions, tuple[bool, ...]] | None = None
"""The figures of :func:`draw_figures`, set before its worker processes fork: a forked worker
finds every figure in its copy of this module and draws the one whose index it is sent, so no
figure is pickled (a matplotlib figure does not always survive pickling, and it would cost)."""


def _draw(job: _Job, options: FigureOptions, for_print: bool) -> tuple[str, str]:
    figure, stem = job
    with plain_text():  # tick labels are made now: names drawn as written, not as mathtext
        resize_figure(figure, options.width, options.height, options.font_size)
        svg = write_figure(figure, stem, pdf=options.pdf)
    return svg, for_weasyprint(svg) if for_print else ""


def _draw_pending(index: int) -> tuple[str, str]:
    assert _PENDING is not None, "a figure worker runs only in a process forked by draw_figures"
    jobs, options, for_print = _PENDING
    return _draw(jobs[index], options, for_print[index])


def draw_figures(
    jobs: Sequence[_Job], options: FigureOptions, *, for_print: bool | Sequence[bool] = False
) -> list[tuple[str, str]]:
    """Draw figures to ``stem.svg`` (and ``stem.pdf``) at the study's size; their SVG texts,
    each with the copy weasyprint draws into a PDF report (:func:`for_weasyprint`, made where
    the figure is drawn, in parallel) where ``for_print`` says so (one answer for every
    figure, or one per job), else ``""``.

    Figures are independent, so up to ``options.workers`` (default: :func:`usable_cpus`)
    processes draw them, one figure at a time each (matplotlib is not thread-safe, hence
    processes): this one and ``workers - 1`` forked from it. The forked workers take the
    figures from the first on, this process from the last back, each figure no worker has
    started yet. A worker draws a figure exactly as this process would (same code, same
    rcParams, the SVG's ids salted by ``svg.hashsalt``), so the files do not depend on the
    number of workers; the texts come back in the order of ``jobs``. Where ``fork`` is not
    available, or with one worker or figure, they are drawn here in turn.

    Drawing here too rather than in one more worker: this process has measured texts and
    parsed mathtext before (matplotlib's first figure of a process costs several times its
    siblings), and a forked worker copies each memory page it writes to. For the same
    reason the objects that exist at the fork are frozen out of the garbage collector
    (:func:`gc.freeze`): its passes would touch, and so copy, every page of them in each
    worker, and they are none of the drawing's garbage.
    """
    global _PENDING
    jobs = tuple(jobs)
    printed = (
        (for_print,) * len(jobs) if isinstance(for_print, bool) else tuple(map(bool, for_print))
    )
    if len(printed) != len(jobs):
        raise ValueError(f"{len(printed)} for_print answers for {len(jobs)} figures")
    workers = min(options.workers or usable_cpus(), len(jobs))
    if workers <= 1 or "fork" not in mp.get_all_start_methods():
        return [_draw(job, options, p) for job, p in zip(jobs, printed, strict=True)]
    _PENDING = (jobs, options, printed)
    # A command line run has frozen its imports already (cli._collector_for_a_command), and
    # gc.unfreeze cannot give back only what this froze: then what is frozen here stays so
    # until the command ends, as the results it belongs to live until then anyway.
    frozen_by_caller = gc.get_freeze_count() > 0
    gc.freeze()
    futures: list[Future[tuple[str, str]]] = []
    try:
        with ProcessPoolExecutor(workers - 1, mp_context=mp.get_context("fork")) as pool:
            try:
                futures = [pool.submit(_draw_pending, i) for i in range(len(jobs))]
                here: dict[int, tuple[str, str]] = {}
                for i in reversed(range(len(jobs))):
                    if not futures[i].cancel():
                        break  # a worker has it, and every figure before it
                    here[i] = _draw(jobs[i], options, printed[i])
                return [here[i] if i in here else futures[i].result() for i in range(len(jobs))]
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    finally:
        _PENDING = None
        if not frozen_by_caller:
            gc.unfreeze()


def write_json(data: dict[str, Any], path: Path) -> None:
    """``results.json``: UTF-8, compact, no NaN (a NaN is a bug and raises).

    Compact (no indentation, no spaces after separators): at the scale of a large study the
    indentation alone was half of the file (21.8 MB for 18 algorithms × 142 problems);
    ``python -m json.tool results.json`` shows it indented.
    """
    path.write_text(
        json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n",
        encoding="utf-8",
    )


BlockKey = tuple[str, str, str]
"""A figure or display table of the report: (section id, "figure" or "table", block name). The
kind is part of the key: a section may hold a figure and a table of the same name (the
summary's ranking_uncertainty), and each must keep its own files."""


@dataclass(frozen=True)
class WrittenBlock:
    """What was written for one figure or display table.

    Parameters
    ----------
    files : tuple of str
        Paths relative to the report folder (a figure's SVG and PDF, a table's LaTeX).
    svg : str
        A figure's SVG text, embedded in the HTML; empty for a table.
    print_svg : str
        The SVG weasyprint draws into the PDF report (:func:`for_weasyprint`); empty for a
        table or without a PDF report.
    """

    files: tuple[str, ...]
    svg: str = ""
    print_svg: str = ""


def write_blocks(
    sections: Sequence[Section], folder: Path, options: FigureOptions, *, for_print: bool = False
) -> dict[BlockKey, WrittenBlock]:
    """Write the sections' figures (:func:`draw_figures`) and display tables (LaTeX);
    ``for_print``: also make the copy for a PDF report of each figure the PDF prints (the
    others, ``in_print=False``, are left out of the HTML weasyprint lays out)."""
    written: dict[BlockKey, WrittenBlock] = {}
    figures: list[tuple[BlockKey, str, Figure]] = []
    printed: list[bool] = []
    for section in sections:
        for block in section.blocks:
            if isinstance(block, FigureBlock):
                relative = f"figures/{section.id}/{block.spec.name}"
                key = (section.id, "figure", block.spec.name)
                figures.append((key, relative, block.spec.figure))
                printed.append(for_print and block.in_print)
            elif isinstance(block, TableBlock):
                relative = f"tables/{section.id}/report_{block.name}.tex"
                write_latex(block.frame, folder / relative, block.bold)
                written[(section.id, "table", block.name)] = WrittenBlock((relative,))
    jobs = [(figure, folder / relative) for _, relative, figure in figures]
    svgs = draw_figures(jobs, options, for_print=printed)
    suffixes = (".svg", ".pdf") if options.pdf else (".svg",)
    for (key, relative, _), (svg, print_svg) in zip(figures, svgs, strict=True):
        written[key] = WrittenBlock(tuple(relative + suffix for suffix in suffixes), svg, print_svg)
    return written
