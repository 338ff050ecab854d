"""Base classes of the study spec models.

All spec models are strict: unknown keys are errors (``extra="forbid"``), values are not
coerced across types (a string is never silently a number), and parsed specs are immutable.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class SpecModel(BaseModel):
    """A strict, immutable part of the study spec."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


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
    data: str | list[str] = Field(
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
