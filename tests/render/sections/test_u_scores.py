"""The U-scores section says each caveat of a cut-point analysis once."""

from __future__ import annotations

import re

from reportgen.analyses.u_scores import compute
from reportgen.figures.style import make_style
from reportgen.render.blocks import FigureBlock, Prose, TableBlock
from reportgen.render.sections.u_scores import _cutpoint_table, build_section
from tests.analyses.test_u_scores import basin_histories, options

# basin_histories records its runs at 1, 10, 50, 60 and 80 evaluations of a budget of 100: the
# cut-point 0.05 shows the state at 0.01·B, and C's two runs reach the target at the same
# record (80), so their successes tie on speed.
OPTIONS = options(cutpoints=[0.05, 0.25, 0.5, 1.0], budget=100)


def _section_texts() -> tuple[str, str, str]:
    """The findings, the rank figure's caption and the cut-point table's caption."""
    result = compute(basin_histories(), OPTIONS)
    assert result.success_times is not None
    assert result.success_times[1] < result.success_times[0]  # the ties the caveat is about
    section = build_section(result, OPTIONS, make_style(["A", "B", "C"]))
    prose = " ".join(f.text for b in section.blocks if isinstance(b, Prose) for f in b.findings)
    (figure,) = [
        b.spec
        for b in section.blocks
        if isinstance(b, FigureBlock) and b.spec.name == "cutpoint_ranks"
    ]
    (table,) = [
        b for b in section.blocks if isinstance(b, TableBlock) and b.name == "cutpoint_ranks"
    ]
    return prose, figure.caption, table.caption


def test_the_table_under_the_rank_figure_refers_to_its_caption_and_the_findings() -> None:
    # CEC 2022: the states each cut-point shows stood in the findings, the figure's caption and
    # the table's caption on one page; the ties of successes in the findings and the table's.
    prose, figure, table = _section_texts()
    states = re.findall(r"\d[\d.]* \(state at [^)]*\)", figure)
    assert states, figure
    assert not any(state in table for state in states)
    assert "state at" not in table and "see the figure's caption" in table
    assert "the ranks the figure above plots" in table
    # The ties are explained once, in the findings; the table points there.
    assert "time a success only at their records" in prose
    assert "distinct" not in table and "as the findings above say" in table


def test_the_table_alone_lists_the_states_itself() -> None:
    # Too many algorithms to draw: no figure above, so the table names the states.
    result = compute(basin_histories(), OPTIONS)
    caption = _cutpoint_table(result, make_style(["A", "B", "C"]), below_figure=False).caption
    assert re.search(r"0\.05 \(state at [^)]*\)", caption)
    assert "figure" not in caption
