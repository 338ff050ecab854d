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
