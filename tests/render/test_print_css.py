"""The print stylesheet's rules that exist for weasyprint's speed lay pages out as before."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from reportgen.resources import resource

weasyprint = pytest.importorskip("weasyprint")


def _boxes(box: Any) -> Iterator[Any]:
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def _laid_out(html: str) -> list[Any]:
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    return weasyprint.HTML(string=html).render().pages


def _contents_page(extra_css: str) -> str:
    """A page of contents as the template writes it, then the sections it points to."""
    css = resource("templates/report.css").read_text(encoding="utf-8") + extra_css
    titles = ["Executive summary", "Runtime distributions (ERT and ECDF)", "Methods", "Data"]
    entries = "".join(
        f'<li><a href="#s{i}"><span class="toc-number">{i}</span> {t}</a></li>'
        for i, t in enumerate(titles)
    )
    sections = "".join(
        f'<section class="chapter" id="s{i}"><h2>{t}</h2><p>Text.</p></section>'
        for i, t in enumerate(titles)
    )
    return (
        f"<html><head><style>{css}</style></head><body><h1>Report</h1>"
        f'<nav class="toc"><h2 class="toc-title">Contents</h2><ol>{entries}</ol></nav>'
        f"<main>{sections}</main></body></html>"
    )


def test_the_contents_are_a_plain_list_where_they_were_a_one_column_box():
    """The contents used to be a multi-column box of one column (``columns: 1``), which
    weasyprint balances by laying it out again and again; as a plain list every entry, its
    leader and its page number stand where they stood."""
    now = _laid_out(_contents_page(""))
    before = _laid_out(_contents_page("@media print { nav.toc ol { columns: 1; padding: 0 } }"))
    assert len(now) == len(before) == 5

    def entries(pages: list[Any]) -> list[tuple[str, float, float, float]]:
        """Every box of every entry (line, text, leader, page number) and where it stands."""
        items = [b for b in _boxes(pages[0]._page_box) if b.element_tag == "li"]
        return [
            (type(b).__name__, b.position_x, b.position_y, b.width)
            for li in items
            for b in _boxes(li)
        ]

    lists = [b for b in _boxes(now[0]._page_box) if b.element_tag == "ol"]
    assert [b.style["column_count"] for b in lists] == ["auto"]
    now_boxes, before_boxes = entries(now), entries(before)
    assert sum(kind == "LineBox" for kind, *_ in now_boxes) >= 4
    assert [kind for kind, *_ in now_boxes] == [kind for kind, *_ in before_boxes]
    assert [v for _, *place in now_boxes for v in place] == pytest.approx(
        [v for _, *place in before_boxes for v in place], abs=1e-6
    )
