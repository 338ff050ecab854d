"""Critical-difference diagrams whose algorithms tie in mean rank (issue 18: each marker
visible). Two algorithms with identical runs on every problem share every per-problem rank, so
their mean ranks are equal (Demšar 2006: average ranks for ties)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg

from reportgen.figures.perspectives import figures
from reportgen.figures.style import make_style
from reportgen.pipeline import compute_study, load_study

ALGORITHMS = ["A", "B", "Twin-of-B", "C", "D"]


def _comparisons():
    rng = np.random.default_rng(7)
    rows = []
    for p in range(1, 9):
        base = {a: rng.uniform(1, 10, 5) * (i + 1) for i, a in enumerate(["A", "B", "C", "D"])}
        base["Twin-of-B"] = base["B"]  # the same runs: tied with B on every problem
        for a in ALGORITHMS:
            rows += [(a, f"f{p}", 10, r + 1, v) for r, v in enumerate(base[a])]
    frame = pd.DataFrame(rows, columns=["algorithm", "problem", "dimension", "run", "value"])
    spec = {
        "study": {"title": "Twins"},
        "minimize": True,
        "data": {"runs": {"format": "trials"}},
        "analyses": [{"kind": "perspectives", "data": "runs"}],
        "report": {"formats": ["html"]},
    }
    results = compute_study(load_study(spec, base_dir=Path("."), frames={"runs": frame}))
    return results.analyses[0].result


def test_tied_mean_ranks_keep_both_markers_visible() -> None:
    result = _comparisons()
    style = make_style(ALGORITHMS)
    specs = figures(result, style)
    assert specs
    for spec, comparison in zip(specs, result.comparisons, strict=True):
        ranks = comparison.mean_ranks
        assert ranks["B"] == ranks["Twin-of-B"]
        FigureCanvasAgg(spec.figure).draw()
        (ax,) = spec.figure.axes
        markers = [ln for ln in ax.lines if len(ln.get_xdata()) == 1]
        assert len(markers) == len(ALGORITHMS)
        centres = [ax.transData.transform((ln.get_xdata()[0], ln.get_ydata()[0])) for ln in markers]
        # Marker size is its diameter in points: no two centres closer than one diameter.
        diameter = markers[0].get_markersize() * spec.figure.dpi / 72
        for (x1, y1), (x2, y2) in itertools.combinations(centres, 2):
            assert np.hypot(x2 - x1, y2 - y1) >= diameter, spec.name
        # The twins' markers one under the other, on the same rank.
        twins = [
            centre
            for line, centre in zip(markers, centres, strict=True)
            if line.get_color() in {style.of("B").color, style.of("Twin-of-B").color}
        ]
        assert len(twins) == 2 and twins[0][0] == twins[1][0] and twins[0][1] != twins[1][1]
        assert "B and Twin-of-B tie at mean rank" in spec.caption


def test_the_cd_bar_and_its_label_clear_the_rank_numbers() -> None:
    """perspectives_cec2022's diagrams drew the CD bar's end marks across the "1" of the scale
    and its label on the numbers 6–8: every drawn extent of the bar (and its label) must lie
    above every tick number."""
    result = _comparisons()
    for spec in figures(result, make_style(ALGORITHMS)):
        canvas = FigureCanvasAgg(spec.figure)
        canvas.draw()
        renderer = canvas.get_renderer()
        (ax,) = spec.figure.axes
        numbers = [t for t in ax.texts if t.get_text().isdigit()]
        assert numbers
        top = max(t.get_window_extent(renderer).y1 for t in numbers)
        cd_label = next(t for t in ax.texts if t.get_text().startswith("CD = "))
        cd_y = cd_label.get_position()[1]
        # The bar and its two end marks: the lines that reach the label's height.
        bar = [ln for ln in ax.lines if max(ln.get_ydata()) >= cd_y and len(ln.get_xdata()) == 2]
        assert len(bar) == 3
        lowest = min(ax.transData.transform((0, min(ln.get_ydata())))[1] for ln in bar)
        assert lowest > top, spec.name
        assert cd_label.get_window_extent(renderer).y0 > top, spec.name
