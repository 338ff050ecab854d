"""Where the print stylesheet breaks pages between the report's chapters."""

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


def _page_of_each_heading() -> dict[str, int]:
    """The report's chapters as the template writes them, each a heading and a paragraph; the
    page (1-based) each chapter's heading lands on."""
    css = resource("templates/report.css").read_text(encoding="utf-8")
    chapters = [
        ("chapter", "sec-summary", "1 Executive summary"),
        ("chapter analysis", "sec-a", "2 Performance profiles"),
        ("chapter analysis", "sec-b", "3 Convergence"),
        ("chapter appendix", "app-methods", "A Methods"),
        ("chapter appendix", "app-data", "B Data"),
        ("chapter appendix", "app-provenance", "C Provenance"),
    ]
    body = "".join(
        f'<section class="{cls}" id="{anchor}"><h2>{title}</h2><p>Text.</p></section>'
        for cls, anchor, title in chapters
    )
    html = (
        f"<html><head><style>{css}</style></head><body>"
        '<header class="title-page"><h1>Report</h1></header>'
        '<nav class="toc"><h2 class="toc-title">Contents</h2><ol><li>1</li></ol></nav>'
        f"<main>{body}</main></body></html>"
    )
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    pages = weasyprint.HTML(string=html).render().pages
    found: dict[str, int] = {}
    for number, page in enumerate(pages, 1):
        for box in _boxes(page._page_box):
            if box.element_tag == "h2" and type(box).__name__ == "BlockBox":
                text = "".join(b.text for b in _boxes(box) if type(b).__name__ == "TextBox").strip()
                found.setdefault(text, number)
    return found


def test_only_the_summary_opens_a_page() -> None:
    # The methods appendix opened a page of its own: the last page of the analyses before it
    # was 17 % full in the CEC 2005 example, half full in the quickstart and CEC 2022 ones.
    page = _page_of_each_heading()
    assert page["Contents"] == 1
    assert page["1 Executive summary"] == 2  # the contents end their page
    # Everything after the summary follows on: analyses and appendices alike.
    assert {page[t] for t in ("2 Performance profiles", "3 Convergence", "A Methods")} == {2}
    assert page["B Data"] == page["C Provenance"] == 2
