"""Direct labels: each curve of a panel named where it ends, beside the panel.

Beyond eight algorithms colours repeat (:mod:`reportgen.figures.style`) and a legend alone cannot
tell the curves apart; every step-curve figure of the report (performance and data profiles,
probabilistic profiles, runtime ECDFs) then names each curve at its right end. Curves that end at
the same place share one label ("EA4, S-DP"); a label that would overlap its neighbour is moved
(down, or up where the labels would run below the panel) and drawn with a thin grey leader line
to its curve's end, as is a label whose curve ends inside the panel (an ECDF that stops at its
algorithm's budget).

The labels are spread on a scale of points (a label is a line of 7 pt text) over the panel's
height, which a constrained layout fixes only when the figure is drawn: a builder passes an
estimate, and the labels are laid out again on the panel's real height each time the figure is
drawn (a panel 20 % lower than estimated would otherwise bring neighbouring labels 20 % of
their distance closer, over each other). The labels stand at the panel's right edge and builders
leave room there (constrained layout does it by itself).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.path import Path
from matplotlib.text import Annotation, OffsetFrom

END_FONT = 7.0
"""Font size (pt) of the labels: the smallest a figure prints (issue 18: nothing below 7 pt)."""
WRAP = 18
"""Characters per line of a shared label before it wraps."""
_LINE = END_FONT * 1.15
"""Height (pt) of one line of a label."""


@dataclass(frozen=True)
class CurveEnd:
    """Where one curve ends: its last value ``y`` (data units) and, for a curve that stops
    inside the panel, the ``x`` (data units) of its last point (None: it runs to the right
    edge)."""

    y: float
    x: float | None = None


def spread(wanted: list[float], lines: list[int], bottom: float, top: float) -> list[float]:
    """Centres (pt) of the first lines of labels stacked from the top, none overlapping.

    ``wanted`` are the labels' preferred centres in decreasing order, ``lines`` their line
    counts. Each label is pushed down below the one above where they would overlap; if the
    stack then runs below ``bottom``, it is pushed back up from there (not above ``top``), so
    labels of curves that all end near the axis stay beside the panel.
    """
    centres: list[float] = []
    floor: float | None = None  # where the label above ends
    for at, n in zip(wanted, lines, strict=True):
        centre = at if floor is None else min(at, floor - _LINE / 2)
        centres.append(centre)
        floor = centre - (n - 0.5) * _LINE
    # From the bottom up: a label whose last line ends below the panel moves up, and pushes
    # the labels above it up with it.
    ceiling: float | None = None  # where the label below begins
    for i in range(len(centres) - 1, -1, -1):
        low = bottom + (lines[i] - 0.5) * _LINE
        if ceiling is not None:
            low = max(low, ceiling + (lines[i] - 0.5) * _LINE)
        centres[i] = min(max(centres[i], low), max(top, low))
        ceiling = centres[i] + _LINE / 2
    return centres


class _Leader:
    """A straight leader line from a label to its curve's end, clipped where it leaves the
    label's box (a matplotlib connection style).

    What ``arrowstyle "-"`` draws by default — a line from the middle of the label's box
    (``patchA``, the box the annotation makes around its text) towards the point, cut at
    the box's edge, then shortened by ``shrinkA``/``shrinkB`` pixels at its ends — computed
    in closed form. Matplotlib's default connection finds both cuts by bisection, testing a
    point against the box a hundred times per line and layout pass: 1.3 s of CPU for the
    eight profile figures of 18 algorithms × 4 panels, a tenth of their drawing.
    """

    def __call__(  # matplotlib's argument names
        self,
        posA: tuple[float, float],
        posB: tuple[float, float],
        shrinkA: float = 2.0,
        shrinkB: float = 2.0,
        patchA: Any = None,
        patchB: Any = None,
    ) -> Path:
        start, end = np.asarray(posA, dtype=float), np.asarray(posB, dtype=float)
        step = end - start
        length = float(np.hypot(*step))
        if length == 0:
            return Path([start, end])
        leave = 0.0  # where the line leaves patchA's box, as a fraction of its length
        if patchA is not None:
            # The box's corners in pixels (not Path.get_extents, which looks for curves: 0.2 s
            # of the eight figures).
            corners = patchA.get_transform().transform(patchA.get_path().vertices)
            edges = (corners.min(axis=0), corners.max(axis=0))
            exits = [
                (edges[int(d > 0)][axis] - start[axis]) / d for axis, d in enumerate(step) if d != 0
            ]
            leave = min(1.0, max(0.0, min(exits)))
        begin = start + step * min(1.0, leave + shrinkA / length)
        finish = start + step * max(0.0, 1.0 - shrinkB / length)
        return Path([begin, finish])


LEADER = {
    "arrowstyle": "-",
    "connectionstyle": _Leader(),
    "color": "0.55",
    "linewidth": 0.5,
    "shrinkA": 0,
}
"""How a moved label's leader line is drawn (``arrowprops`` of its annotation)."""


def end_labels(
    ax: Axes,
    ends: Mapping[str, CurveEnd],
    axes_height_pt: float,
    y_limits: tuple[float, float] = (0.0, 1.0),
) -> None:
    """Name each curve at its right end, beside the panel (direct labels).

    Parameters
    ----------
    ax : Axes
        The panel.
    ends : mapping of label to CurveEnd
        Each curve's display label (the algorithm's) and where it ends, top to bottom in any
        order.
    axes_height_pt : float
        The panel's height in print (pt) as the builder estimates it: the labels' places for
        the figure's layout; each draw spreads them again on the panel's real height.
    y_limits : (float, float)
        The panel's y limits (data units), to place a value on the points scale.
    """
    low, high = y_limits
    order, texts = _grouped(ends)
    labels = []
    for (y, x), text in zip(order, texts, strict=True):
        inside = x is not None
        fraction = (y - low) / (high - low)
        annotation = ax.annotate(
            text,
            xy=(x, y) if inside else (1.0, y),
            xycoords="data" if inside else ("axes fraction", "data"),
            # Offsets in points from the panel's right edge at the curve's height: the text
            # stands beside the panel whatever the figure's layout does to its size.
            xytext=(3, _LINE / 2),
            textcoords=OffsetFrom(ax, (1.0, fraction), unit="points"),
            fontsize=END_FONT,
            va="top",
            ha="left",
            linespacing=1.0,
            annotation_clip=False,
            # A leader line for every label, shown where the label moved from its curve's end.
            arrowprops=dict(LEADER),
        )
        labels.append(_Label(annotation, fraction, text.count("\n") + 1, inside))
    layout = _EndLabelLayout(ax, labels)
    layout.place(axes_height_pt)
    ax.add_artist(layout)


@dataclass(frozen=True)
class _Label:
    annotation: Annotation
    fraction: float
    """The curve's end as a fraction of the panel's height."""
    lines: int
    inside: bool
    """The curve ends inside the panel (the leader line always shows)."""


class _EndLabelLayout(Artist):
    """Spreads a panel's end labels over the panel's height as drawn.

    Drawn before the labels (lowest zorder), it places them on the panel's height of that
    draw; it draws nothing itself.
    """

    def __init__(self, ax: Axes, labels: list[_Label]) -> None:
        super().__init__()
        self._ax = ax
        self._labels = labels
        self.set_zorder(-100)
        self.set_in_layout(False)

    def place(self, height_pt: float) -> None:
        """Stack the labels (top to bottom) on a panel ``height_pt`` high."""
        wanted = [label.fraction * height_pt for label in self._labels]
        lines = [label.lines for label in self._labels]
        centres = spread(wanted, lines, bottom=0.0, top=height_pt)
        for label, at, centre in zip(self._labels, wanted, centres, strict=True):
            moved = abs(at - centre) > 1 or label.inside
            label.annotation.xyann = (8 if moved else 3, centre - at + _LINE / 2)
            if label.annotation.arrow_patch is not None:
                label.annotation.arrow_patch.set_visible(moved)

    def draw(self, renderer: RendererBase) -> None:
        figure = self._ax.get_figure(root=True)
        assert figure is not None  # drawn as part of its figure
        self.place(self._ax.get_window_extent(renderer).height * 72 / figure.dpi)


def _grouped(
    ends: Mapping[str, CurveEnd],
) -> tuple[list[tuple[float, float | None]], list[str]]:
    """The curves' ends top to bottom (at equal heights the one further right first), and the
    text of each: the labels of the curves ending there, wrapped."""
    groups: dict[tuple[float, float | None], list[str]] = {}
    for label, end in ends.items():
        key = (round(end.y, 9), None if end.x is None else round(end.x, 9))
        groups.setdefault(key, []).append(label)
    order = sorted(groups, key=lambda k: (-k[0], -(k[1] if k[1] is not None else float("inf"))))
    texts = [textwrap.fill(", ".join(groups[k]), WRAP, break_on_hyphens=False) for k in order]
    return order, texts


def label_width_in(ends: Mapping[str, CurveEnd]) -> float:
    """About how wide (inches) the widest label is, with its offset from the panel: the room a
    fixed layout leaves right of a panel (DejaVu Sans averages about 0.6 em per character)."""
    _, texts = _grouped(ends)
    widest = max((len(line) for text in texts for line in text.split("\n")), default=0)
    return (8 + widest * END_FONT * 0.6) / 72
