"""Data sources: where a study's results live and how their columns map to reportgen's.

A source is one file (``path``) or several files read with the same mapping and concatenated
(``paths``: a list or a glob pattern). Paths are relative to the spec file. The ``columns``
mapping names, for each canonical column of :mod:`reportgen.data.frames`, the column of the
file that holds it; a canonical column whose name already matches needs no entry.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from reportgen.spec.base import SpecModel

SourceFormat = Literal["trials", "histories", "summary", "wide"]
Statistic = Literal["mean", "std", "n", "median", "minimum", "maximum"]


class ColumnMap(SpecModel):
    """File column holding each canonical column (default: the canonical name itself)."""

    algorithm: str | None = Field(None, description="Algorithm name (trials, histories, summary).")
    problem: str | None = Field(None, description="Problem (function) name or number.")
    dimension: str | None = Field(
        None, description="Problem dimension; optional (a source may set `dimension:` instead)."
    )
    run: str | None = Field(None, description="Run (trial) number (trials, histories).")
    value: str | None = Field(
        None, description="Final value (trials) or best-so-far value (histories)."
    )
    evaluations: str | None = Field(None, description="Evaluation count of a record (histories).")
    evaluations_used: str | None = Field(None, description="Evaluations a run used (trials).")
    evaluations_to_target: str | None = Field(
        None, description="Evaluations a run needed to reach the target; inf = never (trials)."
    )
    time_seconds: str | None = Field(None, description="Running time of a run (trials).")
    mean: str | None = Field(None, description="Mean over runs (summary).")
    std: str | None = Field(None, description="Sample standard deviation over runs (summary).")
    n: str | None = Field(None, description="Number of runs (summary).")
    median: str | None = Field(None, description="Median over runs (summary).")
    minimum: str | None = Field(None, description="Best run (summary).")
    maximum: str | None = Field(None, description="Worst run (summary).")


class DataSource(SpecModel):
    """One named data source of the study."""

    path: str | None = Field(
        None, description="A .csv, .csv.gz or .parquet file, relative to the spec."
    )
    paths: list[str] | str | None = Field(
        None,
        description="Several files with the same layout (a list, or a glob such as "
        "'data/*.csv'), concatenated.",
    )
    format: SourceFormat = Field(
        description="trials: one row per run; histories: best-so-far records; summary: "
        "statistics per algorithm × problem; wide: one row per problem, one column per algorithm."
    )
    columns: ColumnMap = Field(default=ColumnMap(), description="Column names in the file.")
    dimension: int | None = Field(
        None,
        ge=1,
        description="The dimension of every problem in this source, when the file has no column for it.",
    )
    algorithm: str | None = Field(
        None, description="The algorithm of every row, when the file has no algorithm column."
    )
    statistic: Statistic | None = Field(
        None, description="wide only: which statistic the table's cells hold."
    )
    algorithm_columns: list[str] | None = Field(
        None,
        description="wide only: the algorithm columns (default: every column but the problem/dimension columns).",
    )
    separator: str | None = Field(
        None, description="Field separator of CSV files (default: ',' ; use '\\s+' for whitespace)."
    )

    @model_validator(mode="after")
    def _one_location(self) -> DataSource:
        if (self.path is None) == (self.paths is None):
            raise ValueError("give exactly one of 'path' (one file) or 'paths' (a list or a glob)")
        if self.format == "wide" and self.statistic is None:
            raise ValueError("a 'wide' source needs 'statistic' (mean, median, minimum, ...)")
        if self.format != "wide" and (self.statistic is not None or self.algorithm_columns):
            raise ValueError("'statistic' and 'algorithm_columns' are only for format 'wide'")
        return self
