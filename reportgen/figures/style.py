"""One look for every figure: colours, markers and line styles per algorithm.

The palette is Okabe–Ito (colour-blind safe). Each algorithm keeps the same colour in every
figure of a report; beyond eight algorithms, markers and line styles tell them apart too.
Figures are returned as :class:`FigureSpec`; the render layer writes them as SVG and PDF.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from matplotlib.figure import Figure

from reportgen.present.labels import Labels

OKABE_ITO: tuple[str, ...] = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#000000",  # black
    "#F0E442",  # yellow (last: weak on white)
)
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")
LINESTYLES: tuple[str, ...] = ("-", "--", "-.", ":")


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

    Colour cycles through the eight Okabe–Ito colours; with more than eight algorithms the line
    style changes with each full cycle and every algorithm gets its own marker, so no two
    algorithms look alike up to ``8 × 4`` algorithms.
    """
    many = len(algorithms) > len(OKABE_ITO)
    styles = {}
    for i, name in enumerate(algorithms):
        styles[name] = AlgorithmStyle(
            color=OKABE_ITO[i % len(OKABE_ITO)],
            marker=MARKERS[i % len(MARKERS)] if many else MARKERS[0],
            linestyle=LINESTYLES[(i // len(OKABE_ITO)) % len(LINESTYLES)],
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
