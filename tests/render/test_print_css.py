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


def _document(spec_text: str) -> Any:
    """A document holding nothing but its spec listing."""
    from reportgen.render.document import Document, RenderedSection

    empty = RenderedSection("1", "s", "Summary", (), ())
    return Document("t", (), "", "", "", (), empty, (), (), (), (), spec_text)


def _spec_page(lines: list[str], one_column: bool) -> str:
    """The provenance appendix's end as the template writes it: a heading, the listing."""
    css = resource("templates/report.css").read_text(encoding="utf-8")
    extra = " one-column" if one_column else ""
    listing = "\n".join(lines)
    return (
        f"<html><head><style>{css}</style></head><body>"
        '<section class="chapter appendix" id="app-provenance"><h2>C Provenance</h2>'
        f'<p>Text.</p><h3>Study spec</h3><pre class="spec{extra}">{listing}</pre>'
        "</section></body></html>"
    )


def _listing(pages: list[Any]) -> tuple[tuple[float, ...], list[tuple[str, float, float, float]]]:
    """The listing's border box (its grey background: x, y, width, height) and each of its
    lines of text with its place (kind, x, y, width)."""
    pre = next(b for b in _boxes(pages[0]._page_box) if b.element_tag == "pre")
    border = (pre.border_box_x(), pre.border_box_y(), pre.border_width(), pre.border_height())
    inside = [(type(b).__name__, b.position_x, b.position_y, b.width) for b in _boxes(pre)]
    return border, [b for b in inside if b[0] == "TextBox"]


def test_a_listing_too_short_to_split_stands_where_its_one_balanced_column_stood():
    """Fewer than widows + orphans lines, each fitting a column: weasyprint's balanced
    columns hold it in one column, and the one-column listing prints every line in the same
    place, without the balancing."""
    from reportgen.render.document import SPEC_COLUMN_CHARACTERS, SPEC_LINES_KEPT

    line = "x" * (SPEC_COLUMN_CHARACTERS - 9) + " (a line)"
    short = [f"{i:02d} {line}"[:SPEC_COLUMN_CHARACTERS] for i in range(2 * SPEC_LINES_KEPT - 1)]
    assert all(len(s) == SPEC_COLUMN_CHARACTERS for s in short)
    document = _document("\n".join(short))
    assert document.spec_in_one_column

    box, balanced = _listing(_laid_out(_spec_page(short, one_column=False)))
    plain_box, plain = _listing(_laid_out(_spec_page(short, one_column=True)))
    assert len(plain) == len(short) and len({x for _, x, _, _ in balanced}) == 1
    assert plain_box == pytest.approx(box, abs=1e-6)
    assert [v for _, *place in plain for v in place] == pytest.approx(
        [v for _, *place in balanced for v in place], abs=1e-6
    )


def test_a_listing_that_splits_keeps_its_two_columns():
    """One line more, or one line too wide for a column, and the listing is split into two
    balanced columns (or wrapped): it stays a multi-column box."""
    from reportgen.render.document import SPEC_COLUMN_CHARACTERS, SPEC_LINES_KEPT

    longer = [f"line {i}" for i in range(2 * SPEC_LINES_KEPT)]
    lines = _listing(_laid_out(_spec_page(longer, one_column=False)))[1]
    assert len({x for _, x, _, _ in lines}) == 2  # two columns side by side
    wide = [f"line {i}" for i in range(2 * SPEC_LINES_KEPT - 1)]
    wide[3] = "w" * (SPEC_COLUMN_CHARACTERS + 1)
    for text, one_column in (longer, False), (wide, False), (wide[:3], True):
        document = _document("\n".join(text))
        assert document.spec_in_one_column is one_column
    # Tabs and letters beyond Latin count wide: a line that might not fit keeps the columns.
    for line in ("\t" * 8, "é" * SPEC_COLUMN_CHARACTERS, "数" * (SPEC_COLUMN_CHARACTERS // 2 + 1)):
        document = _document(line)
        assert document.spec_in_one_column is (line.startswith("é"))
