"""Base classes of the study spec models.

All spec models are strict: unknown keys are errors (``extra="forbid"``), values are not
coerced across types (a string is never silently a number), and parsed specs are immutable.

Every number is finite (``allow_inf_nan=False``: ``.inf`` and ``.nan`` are refused where the
spec is read, not where an analysis or a plot would fail on them), and every number field
states its range in the JSON Schema (the bounds below); every string is at most
:data:`MAX_TEXT` characters.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, ClassVar, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

MAX_TEXT = 10_000
"""Longest string in a spec (a title, a description, a name): anything longer is a mistake."""
MAX_NAME = 1_000
"""Longest algorithm or problem name (as in the data checks)."""
MAX_EVALUATIONS = 1e15
"""Largest evaluation budget: far beyond any benchmark, and exact as a float."""
MAX_MAGNITUDE = 1e100
"""Largest magnitude of a value-like number (targets, floors, shifts): ratios and differences
of such numbers stay finite."""
MAX_DIMENSION = 1_000_000_000
"""Largest problem dimension."""

Fraction = Annotated[float, Field(gt=0, lt=1)]
"""A number strictly between 0 and 1 (a tolerance, a probability, a level)."""
PositiveValue = Annotated[float, Field(gt=0, le=MAX_MAGNITUDE)]
"""A positive value-like number (a target error, a floor)."""
Budget = Annotated[float, Field(gt=0, le=MAX_EVALUATIONS)]
"""A positive evaluation budget."""
Dimension = Annotated[int, Field(ge=1, le=MAX_DIMENSION)]
"""A problem dimension."""
NAME_CONTROL = r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]"
"""Characters no name may hold: C0 and C1 controls (a newline or tab in a cell is a broken
file), the line and paragraph separators, and the bidirectional controls, which make a name
display as other text than it is (a right-to-left override reverses what follows it)."""


_Listed = TypeVar("_Listed", bound=Sequence[object] | None)


def listed_once(values: _Listed, what: str) -> _Listed:
    """``values`` (a spec list, or None), or a ValueError naming the first value listed more
    than once (``what``: the list's items, e.g. "budgets", "tolerances"): a value given twice
    made every row of its table twice, or the same figure twice."""
    seen: set[object] = set()
    items: Sequence[object] = () if values is None else values
    for value in items:
        if value in seen:
            shown = f"{value:g}" if isinstance(value, float) else repr(value)  # 100, not 100.0
            raise ValueError(f"{what} must be distinct: {shown} is listed more than once")
        seen.add(value)
    return values


def _without_control(name: str) -> str:
    """A name (or label, or part of one) as the data checks accept it: no :data:`NAME_CONTROL`."""
    if re.search(NAME_CONTROL, name):
        raise ValueError(f"a name with a control character: {name!r}")
    return name


Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME), AfterValidator(_without_control)]
"""An algorithm or problem name as the data spells it (or a label for one): the data refuses
a name with a control character, and so does the spec."""
NamePart = Annotated[str, Field(max_length=50), AfterValidator(_without_control)]
"""A piece of text names are built from (a problem prefix such as ``f``)."""

RESERVED_IDS = ("summary",)
"""Analysis ids the report uses itself: ``tables/summary/`` and ``figures/summary/`` hold the
executive summary's tables and figures."""


def _usable_as_folder(analysis_id: str) -> str:
    """An analysis id names its ``tables/`` and ``figures/`` subfolders: ``.`` and ``..`` put
    its files into ``tables/`` itself or the report's own folder, and ``summary`` into the
    executive summary's (where a table of the same name replaced the other)."""
    if set(analysis_id) == {"."}:
        raise ValueError(
            f"'{analysis_id}' cannot be an analysis id: it names the analysis's tables/ and "
            "figures/ folders, and would put them in another folder"
        )
    if analysis_id in RESERVED_IDS:
        raise ValueError(
            f"'{analysis_id}' cannot be an analysis id: tables/{analysis_id}/ and "
            f"figures/{analysis_id}/ hold the executive summary's; choose another"
        )
    return analysis_id


DataLayout = Literal["trials", "histories", "summary"]
"""The canonical layouts every source is loaded into (see :mod:`reportgen.data.frames`)."""

LAYOUT_WORDS: dict[str, str] = {
    "trials": "one final value per run",
    "histories": "best-so-far records per run",
    "summary": "published statistics per algorithm and problem",
}


class SpecModel(BaseModel):
    """A strict, immutable part of the study spec."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, allow_inf_nan=False, str_max_length=MAX_TEXT
    )


class PublishedNote(SpecModel):
    """An explanation of published rows that differ from the recomputed ones."""

    rows: dict[str, str | int | float] = Field(
        default_factory=dict,
        description="Which rows it explains: key column (as named in the analysis's table) → "
        "value, e.g. {algorithm: Co-PPSO} or {sigma: 10}; {} = every row.",
    )
    text: str = Field(min_length=1, description="The explanation shown under the table.")


class PublishedTable(SpecModel):
    """Numbers a paper printed for this analysis, shown beside the recomputed ones."""

    path: str = Field(
        min_length=1,
        description="CSV (or .tsv, .parquet) file with the published numbers, typed in from the "
        "paper; relative to the spec file (or absolute, or ~/... in the home folder).",
    )
    source: str = Field(
        min_length=1, description="Where the numbers come from: paper and table, as cited."
    )
    table: str = Field(
        min_length=1,
        description="The analysis's machine-readable table to compare with "
        "(tables/<analysis id>/<table>.csv, e.g. 'totals' of u_scores, 'layers' of "
        "significance_relation).",
    )
    keys: dict[str, str] = Field(
        min_length=1,
        description="Columns that identify a row: the table's column → the published file's "
        "column, e.g. {algorithm: Algorithm}.",
    )
    values: dict[str, str] = Field(
        min_length=1,
        description="Columns compared: the table's column → the published file's column, e.g. "
        "{total: Total}.",
    )
    rtol: float = Field(
        default=1e-9,
        ge=0,
        description="Relative tolerance below which a recomputed number equals the published one.",
    )
    notes: list[PublishedNote] = Field(
        default_factory=list,
        description="Explanations of differences; every row that differs needs one, or the "
        "report warns (code published_unexplained).",
    )


class ProblemSelection(SpecModel):
    """A subset of the study's problems for one analysis (e.g. one dimension or one group)."""

    dimensions: list[Dimension] | None = Field(
        None, min_length=1, description="Only these dimensions."
    )
    groups: list[Name] | None = Field(
        None,
        min_length=1,
        description="Only the problems of these function groups (names from `problems.groups`).",
    )
    problems: list[Name] | None = Field(None, min_length=1, description="Only these problems.")


class AnalysisOptions(SpecModel):
    """Options common to every analysis.

    Each analysis kind subclasses this with a ``kind: Literal["..."]`` field (the discriminator
    of the ``analyses`` union), its own options, and :attr:`reads`: the data layouts it
    accepts. The spec loader checks every analysis's sources against them (and against
    :meth:`option_reads`) once, before any data is read, in one wording (:func:`layout_message`).
    """

    reads: ClassVar[tuple[DataLayout, ...]]
    """The layouts this kind of analysis reads (every kind declares it)."""

    id: (
        Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]+$"), AfterValidator(_usable_as_folder)]
        | None
    ) = Field(
        default=None,
        description="Unique name of this analysis in the study; default: its kind. "
        "Names the tables/ and figures/ subfolders and the key in results.json (so not '.', "
        "'..' nor 'summary', the executive summary's).",
    )
    data: str | Annotated[list[str], Field(min_length=1)] = Field(
        description="The data source(s) this analysis reads: one name from `data`, or a list "
        "of names of sources of the same format, which are concatenated."
    )
    title: str | None = Field(default=None, description="Section title in the report.")
    select: ProblemSelection | None = Field(
        default=None,
        description="Run this analysis on a subset of the study's problems — one dimension, "
        "some function groups, some problems — to report a breakdown beside the overall "
        "analysis (give it its own `id` and `title`). Default: every problem.",
    )
    notes: list[str] = Field(
        default=[],
        description="Paragraphs the study adds to this analysis's section, after its findings, "
        "e.g. where the results depart from a paper's printed numbers and why. Shown as "
        "'Note (from the study):'.",
    )
    published: PublishedTable | None = Field(
        default=None,
        description="Numbers a paper printed for this analysis, shown beside the recomputed "
        "ones with their differences and explanations.",
    )

    def source_names(self) -> tuple[str, ...]:
        """The data sources this analysis reads (``data:``, one name or a list)."""
        return (self.data,) if isinstance(self.data, str) else tuple(self.data)

    def option_reads(self) -> dict[str, tuple[DataLayout, ...]]:
        """Options given in this entry that need narrower layouts than :attr:`reads`, by key.

        E.g. ``{"cutpoints": ("histories",)}`` when cut-points are given. None by default.
        """
        return {}

    def value_floor_key(self) -> str | None:
        """The option that decides how this analysis treats small values — raises them to a
        floor (``value_floor``, ``cost_floor``) or shifts them (a significance relation's
        ``value_shift``) — when the analysis compares final values; None when it has none.

        :mod:`reportgen.spec.floors` warns when two analyses of the same data set it apart.
        """
        return None

    def layout_needs(self) -> dict[str, tuple[DataLayout, ...]]:
        """The layouts this entry reads, by the key that asks: ``"data"`` (the kind's
        :attr:`reads`) and every option of :meth:`option_reads`."""
        return {"data": self.reads, **self.option_reads()}


def layout_message(subject: str, accepted: tuple[str, ...], source: str, layout: str) -> str:
    """The one wording of a layout mismatch: what is read, and what the source gives."""
    # Imported here: reportgen.present loads pandas, which reading a spec does not need (a
    # spec with errors is reported before the pipeline and its libraries load).
    from reportgen.present.findings import join_words

    wanted = join_words([f"'{a}' ({LAYOUT_WORDS[a]})" for a in accepted], "or")
    return (
        f"{subject} reads {wanted} data; the data source '{source}' gives '{layout}' "
        f"({LAYOUT_WORDS[layout]})"
    )
