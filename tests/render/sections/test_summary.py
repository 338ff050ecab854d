"""The executive summary's display tables."""

from __future__ import annotations

from reportgen.figures.style import make_style
from reportgen.render.sections.summary import head_to_head_table
from tests.synthesis.test_summary_not_separated_by_table import synthesised


def test_every_head_to_head_row_names_its_pair() -> None:
    """The pair was printed on the first row of its breakdown only: sorted in the HTML, or
    continued on the next printed page, the other rows no longer said which pair they were,
    and a screen reader named them by an empty row header."""
    result = synthesised(problem_groups={"low": ["f1", "f2"], "high": ["f3", "f4"]})
    block = head_to_head_table(result, make_style(["R", "A", "B"]))
    assert block is not None
    # Each pair: all problems, then the two function groups.
    assert block.frame["pair (a – b)"].tolist() == ["R – B"] * 3 + ["R – A"] * 3
    assert block.frame["problems"].tolist() == ["all problems (4)", "low (2)", "high (2)"] * 2
