"""The document model: what a report section is made of.

Each analysis has a section builder ``reportgen/render/sections/<kind>.py`` with
``build_section(result, options, style) -> Section`` that assembles prose (findings), figures
and display tables from the result object. One generic template renders every section; the
document numbers figures and tables and builds the table of contents. Builders format
numbers; they never compute statistics.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import pandas as pd

from reportgen.figures.style import MAX_DRAWN_ALGORITHMS, FigureSpec
from reportgen.present.findings import Finding
from reportgen.present.format import counted


@dataclass(frozen=True)
class Prose:
    """Generated sentences shown as one paragraph (or a list when ``as_list``)."""

    findings: tuple[Finding, ...]
    as_list: bool = False


@dataclass(frozen=True)
class Text:
    """Fixed explanatory text from the section builder (methods, how to read a figure)."""

    text: str


@dataclass(frozen=True)
class FigureBlock:
    """A figure in the document (``in_print=False``: in the HTML and as files only, the PDF
    naming it in a sentence — for variants of a printed figure, e.g. per dimension)."""

    spec: FigureSpec
    in_print: bool = True


@dataclass(frozen=True)
class TableBlock:
    """A display table.

    Parameters
    ----------
    name : str
        Anchor/file stem of the display table (the machine-readable tables come from
        ``result.tables()``).
    caption : str
        What the table shows and with which parameters.
    frame : pandas.DataFrame
        Cells already formatted as strings (the builder decides the digits).
    bold : pandas.DataFrame or None
        Boolean mask of the same shape: cells to print in bold (e.g. best per row).
    notes : str
        A footnote under the table.
    in_print : bool
        False for raw numbers nobody reads on paper (a value per problem and algorithm): the
        HTML shows the table, the PDF a sentence naming it and its file, so that the printed
        report keeps its argument in fewer pages and loses nothing.
    """

    name: str
    caption: str
    frame: pd.DataFrame
    bold: pd.DataFrame | None = None
    notes: str = ""
    in_print: bool = True


Block = Prose | Text | FigureBlock | TableBlock


def figure_blocks(
    n_algorithms: int,
    build: Callable[[], Iterable[FigureSpec]],
    *,
    what: str,
    instead: str,
) -> list[Block]:
    """The figures ``build()`` draws, or a note when there are too many algorithms to draw.

    Beyond :data:`~reportgen.figures.style.MAX_DRAWN_ALGORITHMS` algorithms ``build`` is not
    called and the section shows one :class:`Text` instead: ``what`` (e.g. "the profile
    curves") is not drawn, why, and ``instead``, the sentence naming the tables that hold the
    same numbers.
    """
    if n_algorithms <= MAX_DRAWN_ALGORITHMS:
        return [FigureBlock(spec) for spec in build()]
    return [
        Text(
            f"Not drawn: {what}. With {counted(n_algorithms, 'algorithm')}, more than the "
            f"{MAX_DRAWN_ALGORITHMS} the report's colours and line styles tell apart, a figure "
            f"would not be readable. {instead}"
        )
    ]


@dataclass(frozen=True)
class Section:
    """One analysis's section of the report."""

    id: str
    title: str
    blocks: tuple[Block, ...] = field(default_factory=tuple)
    methods: tuple[str, ...] = ()
    """Paragraphs for the methods appendix: formulas (LaTeX between ``$`` / ``$$``) and
    every parameter value used."""

    def with_notes(self, notes: Sequence[str]) -> Section:
        """The section with a study's own ``notes`` (the spec's per-analysis paragraphs) after
        its first findings, each shown as "Note (from the study): …"."""
        if not notes:
            return self
        blocks = list(self.blocks)
        after = next(
            (i + 1 for i, b in enumerate(blocks) if isinstance(b, Prose)), min(1, len(blocks))
        )
        paragraphs = [Text(f"Note (from the study): {note}") for note in notes]
        return dataclasses.replace(self, blocks=(*blocks[:after], *paragraphs, *blocks[after:]))
