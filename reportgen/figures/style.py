"""One look for every figure: colours, markers and line styles per algorithm.

The palette starts with Okabe–Ito (colour-blind safe) and continues with dark, saturated hues
from Paul Tol's schemes, so that a competition of 12 entrants needs no colour twice. Each
algorithm keeps the same colour, marker and line style in every figure of a report; beyond eight
algorithms every curve carries its own marker and the line style varies too, so that two
algorithms never look alike even where colours are hard to tell apart.
Figures are returned as :class:`FigureSpec`; the render layer writes them as SVG and PDF.

Decision: every colour of :data:`PALETTE` has at least 3:1 contrast against the white
background, the least WCAG 2 (1.4.11, level AA) asks of the lines and marks a figure needs to
be read. Okabe–Ito's orange (2.2:1), sky blue (2.3:1) and yellow (1.3:1) had less: the fifth
and sixth algorithm of a study were drawn in them. They are replaced, not darkened: orange
darkened to 3:1 is, to a deuteranope, the vermillion beside it (CIELAB ΔE 5 in Machado et
al.'s 2009 simulation). The replacements were chosen so that the smallest ΔE between any two
of the first eight colours, with normal vision and each of the three dichromacies simulated,
stays what Okabe–Ito's eight had (17), and that of all twelve what the twelve had before (12).

Decision: the numbers written in a heat map's cells (:data:`CELL_NUMBER`) are left out of
constrained layout. Layout makes room for what sticks out of an axes; a cell's number is centred
in its cell, inside the axes, and only lengthened the layout: both passes measured each of
cec2022's 156 numbers of a 13-algorithm map (a third of laying it out). The figures are byte for
byte what they were with the numbers measured (tested).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import matplotlib
import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextPath
from matplotlib.typing import ColorType

from reportgen.present.labels import Labels


def plain_text() -> contextlib.AbstractContextManager[Any]:
    """Within it, every text made or measured is plain: algorithm and problem names are the
    data's, and matplotlib's mathtext drew '50% $x$' as '50% x' with an italic x. No figure
    uses mathtext (symbols are Unicode: τ, λ, ρ̄). A Text reads the setting when it is made
    (tick labels when the figure is drawn), so figures are both built and drawn inside; the
    process's own rcParams stay as they are (a notebook's mathtext is not switched off)."""
    return matplotlib.rc_context({"text.parse_math": False})


PALETTE: tuple[str, ...] = (
    "#0072B2",  # blue (Okabe–Ito)
    "#D55E00",  # vermillion (Okabe–Ito)
    "#009E73",  # bluish green (Okabe–Ito)
    "#CC79A7",  # reddish purple (Okabe–Ito)
    "#8700F0",  # violet
    "#882255",  # wine (Tol)
    "#000000",  # black
    "#332288",  # indigo (Tol)
    "#999933",  # olive (Tol)
    "#8C510A",  # brown
    "#117733",  # green (Tol)
    "#9678FF",  # lavender
)
"""The colours in the order they are handed out, each of at least 3:1 contrast on white (see
the module's decision): Okabe–Ito's blue, vermillion, bluish green, reddish purple and black,
and hues distinct from them in lightness or hue for colour-blind readers too."""
COLOUR_ALONE = 8
"""Up to this many algorithms a figure tells apart by colour alone (solid lines, one marker,
the legend beside a panel); beyond it every curve has its own marker and dash too."""
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")
LINESTYLES: tuple[str, ...] = ("-", "--", "-.", ":")
MAX_DRAWN_ALGORITHMS = len(PALETTE) * len(LINESTYLES)
"""Most algorithms a figure draws (48): as many as :func:`make_style` tells apart. Beyond it two
algorithms share colour and dash, a legend no longer identifies a curve, and axis labels of a
critical-difference diagram or a heat map overlap; a section then shows its tables only, with a
note saying why (:func:`reportgen.render.blocks.figure_blocks`). Not drawing also keeps a
report of 500 algorithms to seconds: matplotlib needs minutes for its figures."""

PRINT_WIDTH = 7.0
"""Inches a figure may be wide and still print at full size: the text width of an A4 page with
16 mm margins (178 mm). A wider figure is shrunk to fit, and its text with it — an 8 pt legend
of an 11-inch figure prints at 5 pt — so builders size figures to at most this width, and their
smallest text (7.5 pt) stays above 7 pt in print."""


def _rgba(colour: ColorType | np.ndarray) -> tuple[float, float, float, float]:
    if isinstance(colour, np.ndarray):  # an RGBA array, as a colour map gives
        red, green, blue, alpha = (float(c) for c in colour.ravel()[:4])
        return red, green, blue, alpha
    return to_rgba(colour)


def relative_luminance(colour: ColorType | np.ndarray) -> float:
    """WCAG 2 relative luminance of a matplotlib colour (0 black, 1 white)."""
    linear = [
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in _rgba(colour)[:3]
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(a: ColorType | np.ndarray, b: ColorType | np.ndarray) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 (the same) to 21 (black on white). AA asks
    4.5 for text, 3 for the lines and marks a figure needs to be read."""
    high, low = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


CELL_NUMBER: dict[str, Any] = {"ha": "center", "va": "center", "in_layout": False}
"""Keyword arguments of ``Axes.text`` for a number centred in a heat map's cell (see the module
docstring: not measured by constrained layout)."""


def text_colour_on(background: ColorType | np.ndarray) -> str:
    """``"black"`` or ``"white"``, whichever has the higher contrast on ``background`` (a
    matplotlib colour or a colour map's RGBA; a transparent one shows the white page).

    The better of the two never has less than 4.58:1 (√21), AA's 4.5 for small text. A fixed
    threshold on the value did: white numbers on the mid blue of RdBu at 0.6 of its range
    had 3.4:1, where black has 6.2.
    """
    if _rgba(background)[3] == 0:
        return "black"
    black = contrast_ratio(background, "black")
    return "black" if black >= contrast_ratio(background, "white") else "white"


@dataclass(frozen=True)
class AlgorithmStyle:
    """How one algorithm is drawn."""

    color: str
    marker: str
    linestyle: str


@dataclass(frozen=True)
class FigureStyle(Labels):
    """The study-wide mapping from algorithm name to its drawing style (and, as
    :class:`~reportgen.present.labels.Labels`, to its display label).

    Build it once per report with :func:`make_style` and pass it to every figure builder.
    """

    algorithms: Mapping[str, AlgorithmStyle] = field(default_factory=dict)

    def of(self, algorithm: str) -> AlgorithmStyle:
        """The style of ``algorithm``; an unknown name gets a neutral grey."""
        return self.algorithms.get(algorithm, AlgorithmStyle("#777777", "o", "-"))


def make_style(algorithms: Sequence[str], labels: Mapping[str, str] | None = None) -> FigureStyle:
    """Assign colour, marker and line style to algorithms in study order.

    Up to eight algorithms: colour alone (solid lines, one marker), as colour is what a reader
    sees first. Beyond eight: colour cycles through the 12 of :data:`PALETTE`, every algorithm
    gets its own marker, and the line style steps with the index *and* with each full colour
    cycle — ``(i + i // 12) mod 4`` — so that neighbours in the legend differ in dash and two
    algorithms sharing a colour (the 13th and the 1st) never share a dash: no two algorithms
    look alike up to ``12 × 4`` algorithms. The marker steps the same way, ``(i + i // 12) mod
    12``, so two algorithms sharing a colour never share a marker either: a figure whose line
    style encodes something else (the probabilistic-profile overlay: ρ dashed, ρ̄ solid) still
    tells them apart by colour and marker.
    """
    many = len(algorithms) > COLOUR_ALONE
    n = len(PALETTE)
    styles = {}
    for i, name in enumerate(algorithms):
        styles[name] = AlgorithmStyle(
            color=PALETTE[i % n],
            marker=MARKERS[(i + i // n) % len(MARKERS)] if many else MARKERS[0],
            linestyle=LINESTYLES[(i + i // n) % len(LINESTYLES)] if many else "-",
        )
    return FigureStyle(names=dict(labels or {}), algorithms=styles)


@dataclass(frozen=True)
class FigureSpec:
    """A finished figure with its file stem and caption.

    Parameters
    ----------
    name : str
        File stem, e.g. ``"performance_tau_1e-05"`` → ``figures/<id>/<name>.svg``.
    caption : str
        What is plotted and with which parameters (shown under the figure, numbered by the
        document).
    figure : matplotlib.figure.Figure
        Built with the object-oriented API (``Figure()``, never ``pyplot``), so builders are
        thread-safe and leave no global state.
    """

    name: str
    caption: str
    figure: Figure


@functools.lru_cache(maxsize=1024)
def text_width(text: str, size: float) -> float:
    """Width of ``text`` in inches at ``size`` points (the default font), measured on its
    glyph outlines: for labels and titles that must fit a given space."""
    vertices = TextPath((0, 0), text, size=size, prop=FontProperties(size=size)).vertices
    return float(np.ptp(vertices[:, 0])) / 72 if len(vertices) else 0.0
