"""Result tables on screen: a short cell is never broken, however wide its table."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from reportgen.render.html import LONG_CELL, cell_classes
from reportgen.resources import resource

weasyprint = pytest.importorskip("weasyprint")


def _boxes(box: Any) -> Iterator[Any]:
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def test_cell_classes() -> None:
    assert cell_classes("0.00 (5–11)", False) == "short"
    assert cell_classes("1 (best)", True) == "best short"
    long = "NL-LBC before S-DP by U-score total, after it by profiles"
    assert len(long) >= LONG_CELL and cell_classes(long, False) == ""
    assert cell_classes(long, True) == "best"


def _lines_per_cell(media: str) -> dict[str, int]:
    """A table of the CEC 2022 ranking table's cells, twenty columns wider than the page (a
    browser narrows each column to its longest word before the box scrolls), laid out with
    the report's stylesheet for ``media``: how many lines each body cell takes, by its text
    without spaces."""
    css = resource("templates/report.css").read_text(encoding="utf-8")
    header = "".join(f"<th>ranking {i}</th>" for i in range(20))
    short = "0.00 (10–13)"
    long = "EA4, NL-LBC, NL-MID, S-DP, jSObin, IUMO, IMPML"
    cells = "".join(
        f'<td class="{cell_classes(text, False)}">{text}</td>' for text in [short] * 19 + [long]
    )
    html = (
        f"<html><head><style>{css}</style></head><body>"
        '<div class="table-scroll"><table class="sortable">'
        f"<thead><tr><th>algorithm</th>{header}</tr></thead>"
        f'<tbody><tr><th scope="row" class="short">ZOCMAES</th>{cells}</tr></tbody>'
        "</table></div></body></html>"
    )
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    page = weasyprint.HTML(string=html, media_type=media).render().pages[0]
    lines: dict[str, int] = {}
    for box in _boxes(page._page_box):
        if box.element_tag in ("td", "th") and type(box).__name__ == "TableCellBox":
            text = "".join(b.text for b in _boxes(box) if type(b).__name__ == "TextBox")
            if box.element_tag == "td" or "ZOCMAES" in text:
                count = sum(type(b).__name__ == "LineBox" for b in _boxes(box))
                key = text.replace(" ", "")  # a wrapped line's space is not in its boxes
                lines[key] = max(lines.get(key, 0), count)
    return lines


def test_a_short_cell_stays_on_one_line_in_a_table_wider_than_the_screen() -> None:
    # CEC 2022: "0.00 (10–13)" broke inside its range, "12 (worse)" after its number.
    lines = _lines_per_cell("screen")
    assert lines["0.00(10–13)"] == 1 and lines["ZOCMAES"] == 1
    assert lines["EA4,NL-LBC,NL-MID,S-DP,jSObin,IUMO,IMPML"] > 1  # a long cell wraps


def test_a_pair_heading_a_printed_row_is_not_broken_at_a_hyphen() -> None:
    # CEC 2022's printed head-to-head table broke "EA4 – NL-LBC" after "NL-" (the column was
    # as narrow as its longest word); the other columns wrap instead.
    css = resource("templates/report.css").read_text(encoding="utf-8")
    header = [
        "pair (a – b)",
        "problems",
        "trial comparisons won",
        "problems won",
        "sign test p",
        "significantly better on",
        "verdict",
    ]
    row = ["all problems (24)", "41% – 59%", "9 – 15", "0.307", "7 – 14", "indistinguishable"]
    html = (
        f"<html><head><style>{css}</style></head><body>"
        '<figure class="table"><div class="table-scroll"><table class="sortable"><thead><tr>'
        + "".join(f"<th>{h}</th>" for h in header)
        + '</tr></thead><tbody><tr><th scope="row" class="short">EA4 – NL-LBC</th>'
        + "".join(f'<td class="{cell_classes(c, False)}">{c}</td>' for c in row)
        + "</tr></tbody></table></div></figure></body></html>"
    )
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    page = weasyprint.HTML(string=html).render().pages[0]  # print media
    (cell,) = [
        b
        for b in _boxes(page._page_box)
        if b.element_tag == "th" and type(b).__name__ == "TableCellBox" and "EA4" in _text(b)
    ]
    assert sum(type(b).__name__ == "LineBox" for b in _boxes(cell)) == 1
    table = next(b for b in _boxes(page._page_box) if type(b).__name__ == "TableBox")
    figure = next(b for b in _boxes(page._page_box) if b.element_tag == "figure")
    # Still within the text width: the other columns wrapped to make room.
    assert table.position_x + table.width <= figure.content_box_x() + figure.width + 0.01


def _text(box: Any) -> str:
    return "".join(b.text for b in _boxes(box) if type(b).__name__ == "TextBox")
