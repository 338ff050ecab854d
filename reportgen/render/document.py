"""Assemble sections into one numbered document, ready for the HTML template.

Figures and tables are numbered across the document; every section, figure and table gets
an anchor for the table of contents and cross-references. This module formats; it never
computes a statistic — everything comes from the result objects via the section builders.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from reportgen.present.caveats import Caveat
from reportgen.present.findings import Finding
from reportgen.render.blocks import FigureBlock, Prose, Section, TableBlock, Text
from reportgen.render.files import BlockKey, WrittenBlock
from reportgen.render.math import MathSegment, split_math


@dataclass(frozen=True)
class RenderedFigure:
    number: int
    anchor: str
    caption: str
    svg_uri: str
    files: tuple[str, ...]
    in_print: bool = True
    print_uri: str = ""
    """The figure as weasyprint draws it into the PDF (:mod:`reportgen.render.printsvg`);
    empty: ``svg_uri``."""


@dataclass(frozen=True)
class RenderedTable:
    number: int
    anchor: str
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[tuple[str, bool], ...], ...]
    notes: str
    files: tuple[str, ...]
    wide: bool
    in_print: bool = True
    landscape: bool = False
    """Printed on a landscape page of its own: only a wide table whose columns cannot fit the
    portrait text width even in the wide tables' small type (see :func:`printed_width_pt`)."""


@dataclass(frozen=True)
class RenderedBlock:
    kind: str  # text | prose | figure | table | pointer (print only: what the PDF leaves out)
    text: str = ""
    findings: tuple[Finding, ...] = ()
    as_list: bool = False
    figure: RenderedFigure | None = None
    table: RenderedTable | None = None


@dataclass(frozen=True)
class RenderedSection:
    number: str
    anchor: str
    title: str
    blocks: tuple[RenderedBlock, ...]
    methods: tuple[tuple[MathSegment, ...], ...]


@dataclass(frozen=True)
class Document:
    """Everything the template shows, precomputed."""

    title: str
    authors: tuple[str, ...]
    description: str
    date: str
    version: str
    overview: tuple[str, ...]
    summary: RenderedSection
    sections: tuple[RenderedSection, ...]
    caveats: tuple[tuple[str, Caveat], ...]
    data_sources: tuple[dict[str, Any], ...]
    provenance: tuple[tuple[str, str], ...]
    spec_text: str
    toc: tuple[tuple[str, str, str], ...] = field(default_factory=tuple)
    verbatim: tuple[str, ...] = ()
    """Names from the spec and the data (algorithms, their labels, problems, sources,
    analyses): printed as written, never typeset (:mod:`reportgen.render.html`)."""

    @property
    def spec_in_one_column(self) -> bool:
        """Whether the printed spec listing stands in one column whatever the page.

        The print stylesheet sets the listing in two balanced columns, keeping at least
        :data:`SPEC_LINES_KEPT` lines together at either end of a column (``widows`` and
        ``orphans``); a listing of fewer than twice that many lines, none of them wrapped in a
        column, cannot be split, and weasyprint found that out by laying the listing out at
        every column height a pixel apart (0.7-1.4 s of the COCO benchmark's 4-5 s PDF). Such a
        listing is printed in one column without the balancing (``pre.spec.one-column``).
        """
        lines = self.spec_text.splitlines()
        return len(lines) < 2 * SPEC_LINES_KEPT and all(
            _monospace_width(line) <= SPEC_COLUMN_CHARACTERS for line in lines
        )


SPEC_LINES_KEPT = 8
"""The print stylesheet's ``widows`` and ``orphans`` of the spec listing (``pre.spec``)."""

SPEC_COLUMN_CHARACTERS = 62
"""Characters of a line of the printed spec that fit one of its two columns unwrapped: a column
is (504.6 pt text width - 2 x 0.8 em padding - 1.2 em gap) / 2 = 243.2 pt at 6.5 pt type, a
character of DejaVu Sans Mono 0.602 em = 3.91 pt wide (tests/render/test_print_css.py lays
such lines out)."""


def _monospace_width(line: str) -> int:
    """``line``'s width in characters of a monospace font, counted generously: a tab to the
    next multiple of 8, any character beyond Latin (a wider glyph from a fallback font) as 2."""
    return sum(2 if ord(c) > 0x2FF else 1 for c in line.expandtabs(8))


def svg_data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def render_sections(
    sections: Sequence[Section],
    written: Mapping[BlockKey, WrittenBlock],
    first_number: int = 2,
) -> tuple[RenderedSection, ...]:
    """Number sections, figures and tables; turn blocks into template-ready data."""
    figure_no = 0
    table_no = 0
    out = []
    methods = unrepeated_methods([(s.title, s.methods) for s in sections])
    for offset, section in enumerate(sections):
        blocks: list[RenderedBlock] = []
        for block in section.blocks:
            if isinstance(block, Text):
                blocks.append(RenderedBlock("text", text=block.text))
            elif isinstance(block, Prose):
                blocks.append(
                    RenderedBlock("prose", findings=block.findings, as_list=block.as_list)
                )
            elif isinstance(block, FigureBlock):
                figure_no += 1
                key = (section.id, "figure", block.spec.name)
                blocks.append(
                    RenderedBlock(
                        "figure",
                        figure=RenderedFigure(
                            number=figure_no,
                            anchor=f"fig-{section.id}-{block.spec.name}",
                            caption=block.spec.caption,
                            svg_uri=svg_data_uri(written[key].svg),
                            files=written[key].files,
                            in_print=block.in_print,
                            print_uri=svg_data_uri(written[key].print_svg)
                            if written[key].print_svg
                            else "",
                        ),
                    )
                )
            elif isinstance(block, TableBlock):
                table_no += 1
                blocks.append(
                    RenderedBlock("table", table=_table(block, table_no, section.id, written))
                )
        out.append(
            RenderedSection(
                number=str(first_number + offset),
                anchor=f"sec-{section.id}",
                title=section.title,
                blocks=with_print_pointers(blocks),
                methods=tuple(tuple(split_math(p)) for p in methods[offset]),
            )
        )
    return tuple(out)


def print_copy(document: Document) -> Document:
    """``document`` with every figure's print copy in place of its SVG (``print_uri``)."""

    def section(rendered: RenderedSection) -> RenderedSection:
        blocks = tuple(
            replace(block, figure=replace(block.figure, svg_uri=block.figure.print_uri))
            if block.figure is not None and block.figure.print_uri
            else block
            for block in rendered.blocks
        )
        return replace(rendered, blocks=blocks)

    return replace(
        document,
        summary=section(document.summary),
        sections=tuple(section(s) for s in document.sections),
    )


def unrepeated_methods(
    sections: Sequence[tuple[str, Sequence[str]]],
) -> list[tuple[str, ...]]:
    """Each section's methods paragraphs without those an earlier section already printed.

    A study that runs an analysis twice (the perspectives on all problems and again on the
    10-D ones; U-scores of the trials and at fractions of the budget) printed the same
    formulas two or three times, a page each. A repeated paragraph is left out and one
    sentence says where it stands: "The same formulas and parameters as for ‹title› above."
    when nothing is left, "Otherwise as for ‹title› above." after the paragraphs that differ.
    ``sections`` are (title, paragraphs) in document order.
    """
    first_by: dict[str, str] = {}
    out: list[tuple[str, ...]] = []
    for title, paragraphs in sections:
        kept = [p for p in paragraphs if p not in first_by]
        earlier = list(dict.fromkeys(first_by[p] for p in paragraphs if p in first_by))
        for paragraph in paragraphs:
            first_by.setdefault(paragraph, title)
        if earlier:
            where = " and ".join(f"‘{t}’" for t in earlier)
            kept.append(
                f"Otherwise as for {where} above."
                if kept
                else f"The same formulas and parameters as for {where} above."
            )
        out.append(tuple(kept))
    return out


def _short_title(caption: str, limit: int = 70) -> str:
    """A caption's first clause ("Mean final value" of "Mean final value (best per row in
    bold)."), cut at a word boundary when longer than ``limit`` characters."""
    title = re.split(r"\. |: | \(|; ", caption.strip(), maxsplit=1)[0].rstrip(".")
    if len(title) <= limit:
        return title
    return title[:limit].rsplit(" ", 1)[0] + " …"


def _where(files: Sequence[str]) -> str:
    """The folders holding ``files``, each once ("tables/perspectives/")."""
    folders = dict.fromkeys(f.rsplit("/", 1)[0] + "/" for f in files if "/" in f)
    return " and ".join(folders) if folders else "the output folder"


def with_print_pointers(blocks: Sequence[RenderedBlock]) -> tuple[RenderedBlock, ...]:
    """``blocks`` with one print-only sentence before each run of blocks the PDF leaves out.

    The sentence names every left-out figure and table by number and short title and says
    where they are (the HTML report and their folders), so that the printed report loses
    nothing; one sentence per run instead of one per block, which filled half pages with
    pointers in sections with several raw-number tables in a row.
    """
    out: list[RenderedBlock] = []
    run: list[RenderedBlock] = []

    def flush() -> None:
        if not run:
            return
        # Consecutive items of one kind and title as one range ("Tables 27–110 (…)"): a
        # problem table of 500 algorithms is split into 84 column blocks.
        groups: list[tuple[str, str, int, int]] = []  # kind, title, first, last number
        files: list[str] = []
        for block in run:
            item = block.figure or block.table
            assert item is not None
            kind = "Figure" if block.figure is not None else "Table"
            title = _short_title(item.caption)
            if groups and groups[-1][:2] == (kind, title) and groups[-1][3] == item.number - 1:
                groups[-1] = (kind, title, groups[-1][2], item.number)
            else:
                groups.append((kind, title, item.number, item.number))
            files.extend(item.files)
        names = [
            f"{kind} {first} ({title})" if first == last else f"{kind}s {first}–{last} ({title})"
            for kind, title, first, last in groups
        ]
        kinds = {"figure" if b.figure is not None else "table" for b in run}
        what = "/".join(sorted(kinds)) + ("s" if len(run) > 1 else "")
        text = (
            f"Not printed ({what} of raw values or variants of a printed figure), in the HTML "
            f"report and in {_where(files)}: {'; '.join(names)}."
        )
        out.append(RenderedBlock("pointer", text=text))
        out.extend(run)
        run.clear()

    for block in blocks:
        item = block.figure or block.table
        if item is not None and not item.in_print:
            run.append(block)
            continue
        flush()
        out.append(block)
    flush()
    return tuple(out)


def _table(
    block: TableBlock,
    number: int,
    section_id: str,
    written: Mapping[BlockKey, WrittenBlock],
) -> RenderedTable:
    frame = block.frame
    rows = []
    for i in range(len(frame)):
        cells = []
        for j in range(frame.shape[1]):
            bold = bool(block.bold.iat[i, j]) if block.bold is not None else False
            cells.append((str(frame.iat[i, j]), bold))
        rows.append(tuple(cells))
    wide = frame.shape[1] > 8
    header = tuple(str(c) for c in frame.columns)
    return RenderedTable(
        number=number,
        anchor=f"tab-{section_id}-{block.name}",
        caption=block.caption,
        header=header,
        rows=tuple(rows),
        notes=block.notes,
        files=written[(section_id, "table", block.name)].files,
        wide=wide,
        # A table of hundreds of rows (one per algorithm of 500) is read on screen and in its
        # file: on paper it would fill dozens of pages.
        in_print=block.in_print and len(frame) <= MAX_PRINTED_ROWS,
        landscape=wide and printed_width_pt(header, rows) > PORTRAIT_TEXT_WIDTH_PT,
    )


MAX_PRINTED_ROWS = 200
"""Most rows of a table the PDF prints (about four pages); a longer table stays in the HTML
and its files, and the PDF names it (:func:`with_print_pointers`)."""


PORTRAIT_TEXT_WIDTH_PT = (210 - 2 * 16) / 25.4 * 72
"""The print stylesheet's text width on a portrait A4 page (16 mm margins), in pt."""


WIDE_TABLE_PT = 6.5
"""The type size of a wide table (more than eight columns) in print, cells and headers: the
print stylesheet's ``figure.table.wide`` sets the same."""


def printed_width_pt(
    header: Sequence[str],
    rows: Sequence[Sequence[tuple[str, bool]]],
    font_pt: float = WIDE_TABLE_PT,
) -> float:
    """The width a wide table needs in print, estimated from its text (in pt).

    A column is as wide as its longest cell (cells are not wrapped: '10 (worse)' on two lines
    is hard to read) or its header's longest word (headers wrap at spaces and after hyphens:
    'NL-' / 'LBC'), whichever is wider, plus its padding (0.35 em each side). Widths use
    generous average glyph widths (0.6 em for the serif cells, 0.68 em for the bold sans-serif
    headers, DejaVu's) so that an estimate that fits really fits. Landscape pages stand alone (a
    narrow table on one left most of it blank), so a table is rotated only when this estimate
    exceeds the portrait text width.
    """
    total = 0.0
    for j, title in enumerate(header):
        cells = max((len(row[j][0]) for row in rows), default=0) * 0.6
        words = max((len(w) for w in re.split(r"\s+|(?<=-)", title)), default=0) * 0.68
        total += (max(cells, words) + 0.7) * font_pt
    return total
