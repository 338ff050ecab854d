"""Relation figures shown one after another explain their drawing once."""

from __future__ import annotations

import re

import pandas as pd

from reportgen.analyses.significance_relation import compute
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.figures.significance_relation import figures
from reportgen.figures.style import make_style
from tests.analyses.test_significance_relation import CEC05, TABLE1, options

DRAWING = "Dark arrows: Hasse edges; light lines: relations also implied by a path"


def test_later_relation_figures_refer_to_the_first_for_how_they_are_drawn() -> None:
    # CEC 2005 (Köppen & Ohnishi Table I) at σ = auto, 10, 60, 100: three relation figures,
    # whose captions each said how layers, arrows and lines are drawn, on two pages.
    frame = pd.read_csv(TABLE1)
    frame = frame.assign(dimension=0, mean=frame["value"].astype(float)).drop(columns="value")
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    result = compute(
        AnalysisData("summary", frame, CEC05, problems), options(sigmas=["auto", 10, 60, 100])
    )
    drawn = figures(result, make_style(CEC05))
    for spec in drawn:
        spec.figure.clear()
    first, *later = [s.caption for s in drawn if s.name.startswith("relation_")]
    assert len(later) == 2
    assert DRAWING in first and "placed in rank layers 1 (best) to 11, top to bottom" in first
    for caption, layers in zip(later, (5, 4), strict=True):
        assert DRAWING not in caption
        assert f"rank layers 1 (best) to {layers}, drawn as in the figure above." in caption
        # What differs stays: the level, what an arrow means there, and the cycles.
        assert re.search(r"x → y means D\(x, y\) ≥ \d+ award points", caption)
        assert caption.endswith("The relation is cycle-free.")
