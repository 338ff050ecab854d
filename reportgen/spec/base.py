"""Base classes of the study spec models.

All spec models are strict: unknown keys are errors (``extra="forbid"``), values are not
coerced across types (a string is never silently a number), and parsed specs are immutable.

Every number is finite (``allow_inf_nan=False``: ``.inf`` and ``.nan`` are refused where the
spec is read, not where an analysis or a plot would fail on them), and every number field
states its range in the JSON Schema (the bounds below); every string is at most
:data:`MAX_TEXT` characters.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

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
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
"""An algorithm or problem name as the data spells it."""


class SpecModel(BaseModel):
    """A strict, immutable part of the study spec."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, allow_inf_nan=False, str_max_length=MAX_TEXT
    )


class AnalysisOptions(SpecModel):
    """Options common to every analysis.

    Each analysis kind subclasses this with a ``kind: Literal["..."]`` field (the discriminator
    of the ``analyses`` union) and its own options.
    """

    id: str | None = Field(
        default=None,
        description="Unique name of this analysis in the study; default: its kind. "
        "Names the tables/ and figures/ subfolders and the key in results.json.",
        pattern=r"^[A-Za-z0-9_.-]+$",
    )
    data: str | Annotated[list[str], Field(min_length=1)] = Field(
        description="The data source(s) this analysis reads: one name from `data`, or a list "
        "of names of sources of the same format, which are concatenated."
    )
    title: str | None = Field(default=None, description="Section title in the report.")
    notes: list[str] = Field(
        default=[],
        description="Paragraphs the study adds to this analysis's section, after its findings, "
        "e.g. where the results depart from a paper's printed numbers and why. Shown as "
        "'Note (from the study):'.",
    )
