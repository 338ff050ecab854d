"""The per-problem table's captions."""

from __future__ import annotations

import pytest

from reportgen.analyses.problem_table import compute
from reportgen.figures.style import make_style
from reportgen.render.blocks import TableBlock
from reportgen.render.sections.problem_table import build_section
from tests.analyses.test_problem_table import SMALL_CASE, options, trials


@pytest.mark.parametrize(
    ("statistics", "opening"),
    [(["mean_sd"], "Mean ± SD of the final values"), (["best", "worst"], "Best / worst of")],
)
def test_the_problem_tables_caption_opens_with_a_capital(
    statistics: list[str], opening: str
) -> None:
    # Quickstart Table 8 was the one caption of the report to open in lower case:
    # "mean ± SD of the final values per problem, 5-D; the best mean per row in bold."
    spec = options(reference="A", statistics=statistics)
    section = build_section(compute(trials(SMALL_CASE), spec), spec, make_style(["A", "B"]))
    (table,) = [
        b for b in section.blocks if isinstance(b, TableBlock) and "problem_table_" in b.name
    ]
    assert table.caption.startswith(opening), table.caption
    assert f"the best {statistics[0].split('_')[0]} per row in bold" in table.caption
