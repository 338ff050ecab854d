"""Assemble sections into one numbered document, ready for the HTML template.

Figures and tables are numbered across the document; every section, figure and table gets
an anchor for the table of contents and cross-references. This module formats; it never
computes a statistic — everything comes from the result objects via the section builders.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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


@dataclass(frozen=True)
class RenderedBlock:
    kind: str  # text | prose | figure | table
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
                key = (section.id, block.spec.name)
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
                blocks=tuple(blocks),
                methods=tuple(tuple(split_math(p)) for p in section.methods),
            )
        )
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
    return RenderedTable(
        number=number,
        anchor=f"tab-{section_id}-{block.name}",
        caption=block.caption,
        header=tuple(str(c) for c in frame.columns),
        rows=tuple(rows),
        notes=block.notes,
        files=written[(section_id, block.name)].files,
        wide=frame.shape[1] > 8,
        in_print=block.in_print,
    )
