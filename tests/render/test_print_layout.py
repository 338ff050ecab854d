"""The print layout's decisions that need no PDF: which wide tables get a landscape page, and
the one sentence that names what the PDF leaves out."""

from __future__ import annotations

import pytest

from reportgen.render.document import (
    PORTRAIT_TEXT_WIDTH_PT,
    RenderedBlock,
    RenderedFigure,
    RenderedTable,
    printed_width_pt,
    unrepeated_methods,
    with_print_pointers,
)


def _rows(*rows: tuple[str, ...]) -> list[tuple[tuple[str, bool], ...]]:
    return [tuple((cell, False) for cell in row) for row in rows]


def test_a_wide_table_of_short_cells_stays_portrait() -> None:
    # 14 columns of 'W/T/L' counts ('12/0/12', 7 characters) at 6.5 pt: 14 · (7 · 0.6 + 0.7) ·
    # 6.5 = 14 · 31.85 = 445.9 pt ≤ 504.6 pt, the portrait text width (178 mm).
    header = ["alg", *(f"NL-A{i}" for i in range(13))]  # no header word wider than a cell
    rows = _rows(tuple(["12/0/12"] * 14))
    assert printed_width_pt(header, rows) == pytest.approx(14 * (7 * 0.6 + 0.7) * 6.5)
    assert printed_width_pt(header, rows) < PORTRAIT_TEXT_WIDTH_PT


def test_long_header_words_and_long_cells_need_landscape() -> None:
    # "(Perspectives" (13 characters) cannot break: (13 · 0.68 + 0.7) · 6.5 = 62.0 pt a column;
    # eight such columns are 496 pt, nine 558 pt, more than the portrait width.
    header = [f"robustness (Perspectives in {i}-D only)" for i in range(9)]
    rows = _rows(tuple(["1 (best)"] * 9))
    assert printed_width_pt(header, rows) == pytest.approx(9 * (13 * 0.68 + 0.7) * 6.5)
    assert printed_width_pt(header, rows) > PORTRAIT_TEXT_WIDTH_PT
    # Headers break after a hyphen: "NL-LBC" needs the room of "NL-" or "LBC" (3 characters).
    assert printed_width_pt(["NL-LBC"], _rows(("1",))) == pytest.approx((3 * 0.68 + 0.7) * 6.5)


def _table(number: int, caption: str, files: tuple[str, ...], in_print: bool) -> RenderedBlock:
    table = RenderedTable(number, f"tab-{number}", caption, ("a",), (), "", files, False, in_print)
    return RenderedBlock("table", table=table)


def test_one_sentence_names_every_block_of_a_run_left_out_of_print() -> None:
    figure = RenderedFigure(
        3, "fig-3", "Share of wins at D=10. Blue: better.", "", ("figures/x/a.svg",), False
    )
    blocks = [
        RenderedBlock("text", text="intro"),
        _table(1, "Mean final value (best per row in bold).", ("tables/p/m.tex",), False),
        _table(2, "Median final value: the middle run.", ("tables/p/md.tex",), False),
        _table(3, "Printed table.", ("tables/p/t.tex",), True),
        RenderedBlock("figure", figure=figure),
    ]
    out = with_print_pointers(blocks)
    assert [b.kind for b in out] == [
        "text",
        "pointer",
        "table",
        "table",
        "table",
        "pointer",
        "figure",
    ]
    assert out[1].text == (
        "Not printed (tables of raw values or variants of a printed figure), in the HTML report "
        "and in tables/p/: Table 1 (Mean final value); Table 2 (Median final value)."
    )
    assert out[5].text == (
        "Not printed (figure of raw values or variants of a printed figure), in the HTML report "
        "and in figures/x/: Figure 3 (Share of wins at D=10)."
    )


def test_consecutive_tables_of_one_title_are_named_as_a_range() -> None:
    """A problem table of 500 algorithms is split into 84 column blocks: one range, not 84
    names (a page of pointers)."""
    caption = "Mean ± SD of the final values per problem, 10-D. Best in bold."
    blocks = [_table(n, caption, ("tables/p/m.tex",), False) for n in range(27, 111)]
    blocks.append(_table(111, "Wins, ties and losses.", ("tables/p/w.tex",), False))
    (pointer, *_) = with_print_pointers(blocks)
    assert pointer.text == (
        "Not printed (tables of raw values or variants of a printed figure), in the HTML report "
        "and in tables/p/: Tables 27–110 (Mean ± SD of the final values per problem, 10-D); "
        "Table 111 (Wins, ties and losses)."
    )


def test_methods_said_once_and_referred_to_after() -> None:
    """A second run of an analysis prints only the methods paragraphs that differ from an
    earlier section's, and says whose the rest are (issue 18: the perspectives' formulas
    stood three times in cec2022's appendix)."""
    sections = [
        ("Perspectives", ("Ranks.", "Holm.")),
        ("Perspectives in 10-D only", ("Ranks.", "Holm.")),
        ("U-scores", ("Order.", "Tests.")),
        ("U-scores at cut-points", ("Order with histories.", "Tests.", "Cut-points.")),
        ("Both", ("Ranks.", "Tests.")),
    ]
    assert unrepeated_methods(sections) == [
        ("Ranks.", "Holm."),
        ("The same formulas and parameters as for ‘Perspectives’ above.",),
        ("Order.", "Tests."),
        ("Order with histories.", "Cut-points.", "Otherwise as for ‘U-scores’ above."),
        ("The same formulas and parameters as for ‘Perspectives’ and ‘U-scores’ above.",),
    ]
