"""Profile figures at many algorithms: a curve drawn under an identical one is named."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg

from reportgen.figures.performance_profiles import (
    _TITLE_FONT,
    _TITLE_WIDTH,
    _confirmation_title,
    _draw_panel,
    _layout,
    _wrap_to_width,
    coinciding,
)
from reportgen.figures.style import make_style, text_width


def test_identical_step_curves_are_grouped_in_the_legend_order() -> None:
    steps = (np.array([1.0, 2.0, 8.0]), np.array([0.25, 0.5, 1.0]))
    curves = {
        "A": steps,
        "B": (np.array([1.0, 4.0]), np.array([0.5, 1.0])),
        "C": (steps[0].copy(), steps[1].copy()),  # equal values, another array
        "D": (np.array([1.0, 4.0]), np.array([0.5, 0.75])),  # same x as B, another y
        "E": (np.array([1.0, 4.0]), np.array([0.5, 1.0])),
    }
    # The caption lists them as the legend orders them (here E before B), absent ones skipped.
    assert coinciding(curves, ["E", "A", "D", "C", "B", "Z"]) == [["E", "B"], ["A", "C"]]
    assert coinciding({"A": steps}, ["A"]) == []


def test_confirmation_title_stays_above_its_panel_clear_of_the_end_labels() -> None:
    """Issue 18 (cec2022, τ = 0.1): a confirmation panel's title naming eight algorithms ran
    past the axes into the column of end labels, touching the label of the curves ending at
    1.0. Wrapped to the panel's width, the title ends inside the axes' width, and no label
    box meets it."""
    names = ["EA4", "NL-LBC", "NL-MID", "S-DP", "jSObin", "IMPML", "OMCSO", "NLSOMA"]
    names += ["Co-PPSO", "MTT", "IUMO", "ZOCMAES", "SPHH"]
    style = make_style(names)
    round_ = SimpleNamespace(
        winner="EA4", not_significant=["MTT"], inconclusive=[*names[1:9], "LSHADE-SPACMA-X"]
    )
    result = SimpleNamespace(confirmation=lambda *_: round_)
    fig, axes, _ = _layout(2, len(names))
    x = np.array([1.0, 4.0])
    curves = {a: (x, np.array([0.5, 1.0 - 0.02 * (i // 4)])) for i, a in enumerate(names)}
    for ax in axes:
        _draw_panel(ax, curves, names, "EA4", "performance", (1.0, 8.0), style)
    title = _confirmation_title(result, "performance", 0.1, 2.0, style)  # type: ignore[arg-type]
    drawn = axes[1].set_title(title, fontsize=8.5, loc="left")  # as figures() sets it
    assert title.endswith("…")  # the verdict table names them all
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    box = drawn.get_window_extent(renderer)
    assert box.x1 <= axes[1].get_window_extent(renderer).x1
    for label in axes[0].texts + axes[1].texts:
        assert not box.overlaps(label.get_window_extent(renderer)), label.get_text()


def test_confirmation_title_leaves_no_word_alone_on_its_last_line() -> None:
    """Quickstart: "λ = 2: CMA-ES-CSA upper vs others" filled the panel's width and "lower"
    stood alone on the next line, read as a title of its own. The lines are as many as before,
    each within the panel's width, and the last is no shorter than needed."""
    head = "λ = 2: CMA-ES-CSA upper vs others lower"
    lines = _wrap_to_width(head, _TITLE_WIDTH)
    assert " ".join(lines) == head
    assert len(lines) == 2 and all(" " in line for line in lines)
    assert all(text_width(line, _TITLE_FONT) <= _TITLE_WIDTH for line in lines)
    # Evened out: moving one more word down would make the last line the wider.
    word = lines[0].rsplit(" ", 1)[1]
    assert text_width(f"{word} {lines[1]}", _TITLE_FONT) >= text_width(lines[0], _TITLE_FONT)
    # A title that fits one line stays on one; a truncated list keeps its "…".
    assert _wrap_to_width("λ = 2: EA4 upper vs others lower", _TITLE_WIDTH) == [
        "λ = 2: EA4 upper vs others lower"
    ]
    many = "inconclusive: " + ", ".join(f"Algorithm-{i}" for i in range(12))
    assert _wrap_to_width(many, _TITLE_WIDTH, 3)[-1].endswith(" …")
