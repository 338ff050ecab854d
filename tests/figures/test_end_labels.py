"""Direct labels at the curves' right ends (issue 18: each curve of a 13-algorithm figure
identifiable): ties share a label, overlapping labels move with a leader line, none leaves the
panel's height."""

from __future__ import annotations

import itertools

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from reportgen.figures.end_labels import END_FONT, CurveEnd, end_labels, spread

LINE = 7 * 1.15


def test_curves_named_at_their_right_ends_ties_on_one_label() -> None:
    """Curves ending at the same share share a label; a label that would overlap the one above
    is moved down (by whole lines of 7 pt · 1.15) with a leader line to its curve."""
    ends = {
        "A": CurveEnd(1.0),
        "B": CurveEnd(1.0),
        "C": CurveEnd(0.99),  # 0.01 below A and B: 1.5 pt on a 150 pt axes
        "D": CurveEnd(0.2),
    }
    ax = Figure().add_subplot()
    end_labels(ax, ends, 150.0)
    labels = {a.get_text(): a for a in ax.texts}
    assert set(labels) == {"A, B", "C", "D"}
    # "A, B" at its end; C pushed below it: its first line's centre one line (8.05 pt) lower.
    assert labels["A, B"].xyann[1] == pytest.approx(LINE / 2)
    assert labels["C"].xyann[1] - LINE / 2 == pytest.approx(1.0 * 150 - LINE - 0.99 * 150)
    # The leader line shows for the moved label only.
    assert labels["C"].arrow_patch.get_visible() and not labels["A, B"].arrow_patch.get_visible()
    assert labels["D"].xyann[1] == pytest.approx(LINE / 2)  # far below: where it ends
    assert all(t.get_fontsize() == END_FONT >= 7 for t in ax.texts)


def test_labels_of_curves_ending_at_the_bottom_are_pushed_up_into_the_panel() -> None:
    # Five one-line labels wanted at 2, 1, 0, 0, 0 pt on a 100 pt axis: stacked down from the
    # top they would run to −4 lines; from the bottom up the lowest line ends at 0 pt and each
    # label stands one line above the next.
    centres = spread([2.0, 1.0, 0.0, -1.0, -2.0], [1] * 5, bottom=0.0, top=100.0)
    assert centres == pytest.approx([LINE * (k + 0.5) for k in (4, 3, 2, 1, 0)])
    # A two-line label takes two lines: the label above it starts 2 lines higher.
    assert spread([0.0, 0.0], [1, 2], 0.0, 100.0) == pytest.approx([2.5 * LINE, 1.5 * LINE])
    # Far apart: nobody moves.
    assert spread([90.0, 10.0], [1, 1], 0.0, 100.0) == [90.0, 10.0]


def test_a_curve_ending_inside_the_panel_gets_a_leader_line_to_its_end() -> None:
    """An ECDF stops at its algorithm's budget: the label stands at the panel's right edge,
    its leader line reaches the curve's last point (data coordinates)."""
    fig = Figure(figsize=(4, 3))
    ax = fig.add_subplot()
    ax.set_xlim(1, 100)
    ax.set_ylim(0, 1)
    end_labels(ax, {"short": CurveEnd(0.5, x=10.0), "long": CurveEnd(0.5)}, 150.0)
    FigureCanvasAgg(fig).draw()
    labels = {a.get_text(): a for a in ax.texts}
    short = labels["short"]
    assert short.xy == (10.0, 0.5) and short.xycoords == "data"
    assert short.arrow_patch is not None and short.arrow_patch.get_visible()
    # Both texts (without their leader lines) stand right of the panel.
    right = ax.get_window_extent().x1
    for text in labels.values():
        assert Text.get_window_extent(text).x0 > right


def test_leader_lines_end_where_matplotlibs_own_clipping_ends_them() -> None:
    """Leader lines are clipped in closed form (``_Leader``); drawn, they must start and end
    where matplotlib's default connection (bisection against the label's box, then 2 pt short
    of the curve's end) puts them: within 0.02 pixels — for labels pushed down beside the
    panel and for a curve that ends inside it."""
    ends = {"A": CurveEnd(1.0), "B": CurveEnd(0.99), "C": CurveEnd(0.98), "D": CurveEnd(0.5, 0.3)}
    drawn = []
    for ours in (True, False):
        figure = Figure(figsize=(4, 3), dpi=100)
        ax = figure.add_subplot()
        end_labels(ax, ends, 150.0)
        arrows = [a.arrow_patch for a in ax.texts if a.arrow_patch and a.arrow_patch.get_visible()]
        assert len(arrows) == 3  # B and C pushed below A, D inside the panel
        if not ours:  # matplotlib's own connection instead
            for arrow in arrows:
                arrow.set_connectionstyle("arc3")
        figure.draw_without_rendering()
        drawn.append([p.get_transform().transform_path(p.get_path()).vertices for p in arrows])
    for ours, theirs in zip(*drawn, strict=True):
        assert abs(ours[0] - theirs[0]).max() < 0.02  # where it leaves the label's box
        assert abs(ours[-1] - theirs[-1]).max() < 0.02  # 2 pt before the curve's end
        assert abs(ours[-1] - ours[0]).max() > 3  # a real line, not a point


def test_labels_spread_again_on_the_panel_height_as_drawn() -> None:
    """The builder's estimate (150 pt) is half again the panel's real height: once drawn, the
    labels of curves ending 8 pt apart on the estimate still do not overlap, and a label that
    did not move sits at its curve's end."""
    fig = Figure(figsize=(4, 1.8), layout="constrained")  # a panel about 100 pt high
    ax = fig.add_subplot()
    ax.set_ylim(0, 1)
    shares = [1.0 - k * 0.055 for k in range(8)] + [0.1]
    end_labels(ax, {f"curve {k}": CurveEnd(y) for k, y in enumerate(shares)}, 150.0)
    FigureCanvasAgg(fig).draw()
    boxes = sorted((Text.get_window_extent(t) for t in ax.texts), key=lambda b: -b.y1)
    assert len(boxes) == len(shares)
    for upper, lower in itertools.pairwise(boxes):
        assert upper.y0 >= lower.y1 - 0.5  # no overlap (half a pixel for rounding)
    lowest = next(t for t in ax.texts if t.get_text() == "curve 8")
    assert not lowest.arrow_patch.get_visible()
    box = Text.get_window_extent(lowest)
    y = ax.transData.transform((0, 0.1))[1]
    assert box.y0 < y < box.y1  # its line runs through the curve's end
