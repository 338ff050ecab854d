"""Data sources: where a study's results live and how their columns map to reportgen's.

A source is one file (``path``) or several files read with the same mapping and concatenated
(``paths``: a list or a glob pattern). A ``histories`` or ``trials`` source may also be a
partitioned Parquet dataset (a folder, or a glob of Parquet files), read partition by
partition where the executor runs (:mod:`reportgen.data.partitions`). Paths are relative to the spec file. The ``columns``
mapping names, for each canonical column of :mod:`reportgen.data.frames`, the column of the
file that holds it; a canonical column whose name already matches needs no entry.

Besides the tabular formats (``trials``, ``histories``, ``summary``, ``wide``), three formats
read what benchmarking platforms write, without conversion: ``coco`` (COCO/BBOB output
folders and ``.tgz``/``.zip`` archives), ``cec`` (CEC competition result files, one per
algorithm × function × dimension) and ``ioh`` (IOHprofiler/IOHexperimenter ``.json`` meta
files with their ``.dat`` run files). Their options live in a sub-model of the same name
(``coco:``, ``cec:``, ``ioh:``); each yields the canonical ``histories`` or ``trials`` layout
(``layout:``). See docs/data-formats.md.
"""

from __future__ import annotations

import ast
import itertools
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from reportgen.spec.base import (
    MAX_EVALUATIONS,
    Dimension,
    Name,
    NamePart,
    PositiveValue,
    SpecModel,
)

SourceFormat = Literal["trials", "histories", "summary", "wide", "coco", "cec", "ioh"]
PLATFORM_FORMATS: tuple[str, ...] = ("coco", "cec", "ioh")
"""Formats read by a platform reader (:mod:`reportgen.data.formats`), not by column mapping."""
Layout = Literal["histories", "trials"]
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
    start_value: str | None = Field(
        None,
        description="histories only, optional: a per-problem start value f(x0) (the same on "
        "every row of a problem); analyses that need f(x0) use it instead of estimating it.",
    )


_LAYOUT_DESCRIPTION = (
    "Which canonical layout the source yields: histories (best-so-far records, one run per "
    "entry) or trials (one row per run: final value, evaluations used, evaluations to target)."
)
_TARGET_DESCRIPTION = (
    "trials only: the target precision for evaluations_to_target — a run reaches it at the "
    "first record with value ≤ target (COCO's f − f_opt ≤ 1e-8 by default)."
)


class CocoOptions(SpecModel):
    """Options of a ``coco`` source (COCO/BBOB "old bbob" output: .info, .dat, .tdat)."""

    layout: Layout = Field("histories", description=_LAYOUT_DESCRIPTION)
    target: PositiveValue = Field(1e-8, description=_TARGET_DESCRIPTION)
    problem_prefix: NamePart = Field(
        "f", description="Problem names are this prefix and the BBOB function number: f1 … f24."
    )


class IohOptions(SpecModel):
    """Options of an ``ioh`` source (IOHprofiler/IOHexperimenter .json meta + .dat runs)."""

    layout: Layout = Field("histories", description=_LAYOUT_DESCRIPTION)
    target: PositiveValue = Field(1e-8, description=_TARGET_DESCRIPTION)
    problem_prefix: NamePart = Field(
        "f", description="Problem names are this prefix and the function id: f1, f2, …"
    )


def _check_formula(text: str) -> str:
    """Accept an arithmetic expression in ``D`` only (``10000*D``, ``2*10**5``, ``D**2``)."""
    try:
        tree = ast.parse(text.replace("^", "**"), mode="eval")
    except SyntaxError:
        raise ValueError(f"not a formula in D: {text!r} (write e.g. '10000*D')") from None
    allowed = (
        ast.Expression,
        ast.BinOp,
        ast.UnaryOp,
        ast.Constant,
        ast.Name,
        ast.operator,
        ast.unaryop,
        ast.expr_context,
    )
    for node in ast.walk(tree):
        if not isinstance(node, allowed) or (isinstance(node, ast.Name) and node.id != "D"):
            raise ValueError(
                f"not a formula in D: {text!r}; use numbers, D, + - * / ** and parentheses"
            )
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float)):
            raise ValueError(f"not a formula in D: {text!r}")
    return text


class CecOptions(SpecModel):
    """Options of a ``cec`` source (CEC competition result files).

    Each file holds one algorithm on one function in one dimension: a matrix with one row per
    checkpoint (plus, in some competitions, one extra last row) and one column per run.
    """

    layout: Layout = Field("histories", description=_LAYOUT_DESCRIPTION)
    file_pattern: str = Field(
        "{algorithm}_{function}_{dimension}.txt",
        description="File name (not path) pattern with the placeholders {algorithm}, "
        "{function} and {dimension}, and * for any text ('{algorithm}_{function}_{dimension}.*'); "
        "a source's 'algorithm:' or 'dimension:' replaces the placeholder. Files whose names do "
        "not match are errors.",
    )
    checkpoints: (
        Literal["cec2017", "cec2020", "cec2022"] | list[Annotated[float, Field(gt=0, le=1)]]
    ) = Field(
        "cec2017",
        description="Evaluation counts of the rows: cec2017 = fractions 0.01, 0.02, 0.03, "
        "0.05, 0.1, 0.2, …, 1.0 of MaxFES (14 rows); cec2020/cec2022 = floor(D^(k/5−3)·MaxFES) "
        "for k = 0 … 15 (16 rows); or a list of fractions of MaxFES in (0, 1], increasing.",
    )
    max_evaluations: str | dict[Dimension, Annotated[int, Field(ge=1, le=MAX_EVALUATIONS)]] = Field(
        "10000*D",
        description="MaxFES per dimension: a formula in D ('10000*D') or a mapping "
        "{dimension: MaxFES} (CEC 2020: {5: 50000, 10: 1000000, 15: 3000000, 20: 10000000}; "
        "CEC 2022: {10: 200000, 20: 1000000}).",
    )
    last_row: Literal["none", "evaluations_to_target", "ignore"] = Field(
        "none",
        description="The meaning of an extra row after the checkpoints: none = there is no "
        "extra row; evaluations_to_target = the evaluations at which the run reached the "
        "target (CEC 2022 row 17); ignore = there is one but it is not used.",
    )
    target: PositiveValue = Field(
        1e-8,
        description="Errors ≤ target count as reaching the optimum (CEC: 1e-8); trials' "
        "evaluations_to_target is ∞ for a run whose final error is above it.",
    )
    separator: Literal["auto", "whitespace", "comma"] = Field(
        "auto", description="Cell separator; auto = comma if the first line has one."
    )
    header_row: bool = Field(
        False, description="The first line is a header (E-17260's 'Run 1, Run 2, …')."
    )
    label_column: bool = Field(
        False,
        description="The first cell of every row is a label ('Function error values when …').",
    )

    @field_validator("max_evaluations")
    @classmethod
    def _formula(cls, value: str | dict[int, int]) -> str | dict[int, int]:
        if isinstance(value, str):
            return _check_formula(value)
        bad = [v for v in value.values() if v < 1]
        if bad:
            raise ValueError(f"MaxFES must be ≥ 1; got {bad[0]!r}")
        return value

    @field_validator("checkpoints")
    @classmethod
    def _fractions(cls, value: str | list[float]) -> str | list[float]:
        if isinstance(value, list):
            if not value or any(not 0 < v <= 1 for v in value):
                raise ValueError("checkpoint fractions must lie in (0, 1]")
            if any(b <= a for a, b in itertools.pairwise(value)):
                raise ValueError("checkpoint fractions must increase")
        return value

    @field_validator("file_pattern")
    @classmethod
    def _placeholders(cls, value: str) -> str:
        for name in ("{function}",):
            if name not in value:
                raise ValueError(f"the file pattern needs the placeholder {name}")
        return value


class TrialsAtBudget(SpecModel):
    """Trials derived from a histories source: each run's state at a budget."""

    source: Name = Field(description="The histories source the runs come from.")
    budget: Annotated[float, Field(gt=0, allow_inf_nan=False)] = Field(
        description="Evaluations: each run's value is its best-so-far value after this many."
    )
    target: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = Field(
        None,
        description="With a target: evaluations_to_target is the first evaluation count at "
        "which the run's value is ≤ target, if it is ≤ budget (else ∞).",
    )


class DataSource(SpecModel):
    """One named data source of the study."""

    path: str | None = Field(
        None,
        description="A .csv, .csv.gz or .parquet file, relative to the spec (or absolute, or "
        "~/... in the home folder); for histories "
        "and trials also a folder of Parquet files (a hive-style dataset such as "
        "problem=f1/part-0.parquet), read partition by partition (docs/distributed.md).",
    )
    paths: Annotated[list[str], Field(min_length=1)] | str | None = Field(
        None,
        description="Several files with the same layout (a list, or a glob such as "
        "'data/*.csv'), concatenated; a glob of Parquet files of histories or trials is read "
        "partition by partition.",
    )
    format: SourceFormat = Field(
        description="trials: one row per run; histories: best-so-far records; summary: "
        "statistics per algorithm × problem; wide: one row per problem, one column per algorithm."
    )
    columns: ColumnMap = Field(default=ColumnMap(), description="Column names in the file.")
    dimension: Dimension | None = Field(
        None,
        description="The dimension of every problem in this source, when the file has no column for it.",
    )
    algorithm: Name | None = Field(
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
    trials_at: TrialsAtBudget | None = Field(
        None,
        description="format trials only, instead of path/paths: the runs of a histories "
        "source as trials at a budget, e.g. {source: curves, budget: 5000, target: 1.0e-8}.",
    )
    empty_cells: Literal["error", "not_reached"] = Field(
        "error",
        description="An empty cell: an error (default), or, with 'not_reached', ∞ in the "
        "columns where ∞ means 'never reached' (a trials source's evaluations_to_target, a "
        "summary's mean of a fixed-target cost), as IOHanalyzer and spreadsheets export it. "
        "Empty cells in any other column stay errors.",
    )
    coco: CocoOptions | None = Field(
        None, description="format coco only: options of the COCO/BBOB reader."
    )
    cec: CecOptions | None = Field(
        None, description="format cec only: options of the CEC competition-file reader."
    )
    ioh: IohOptions | None = Field(
        None, description="format ioh only: options of the IOHprofiler reader."
    )

    def reader_options(self) -> CocoOptions | CecOptions | IohOptions:
        """The options of a platform format, with defaults when the spec gives none."""
        if self.format == "coco":
            return self.coco or CocoOptions()
        if self.format == "cec":
            return self.cec or CecOptions()
        if self.format == "ioh":
            return self.ioh or IohOptions()
        raise ValueError(f"format {self.format!r} has no reader options")

    @property
    def layout(self) -> str:
        """The canonical layout this source yields (``summary`` for ``wide``)."""
        if self.format in PLATFORM_FORMATS:
            return self.reader_options().layout
        return "summary" if self.format == "wide" else self.format

    @model_validator(mode="after")
    def _one_location(self) -> DataSource:
        if self.trials_at is not None:
            if self.format != "trials" or self.path is not None or self.paths is not None:
                raise ValueError(
                    "'trials_at' derives a 'trials' source from a histories source: it needs "
                    "format: trials and no 'path'/'paths'"
                )
            return self
        if (self.path is None) == (self.paths is None):
            raise ValueError("give exactly one of 'path' (one file) or 'paths' (a list or a glob)")
        if self.format == "wide" and self.statistic is None:
            raise ValueError("a 'wide' source needs 'statistic' (mean, median, minimum, ...)")
        if self.format != "wide" and (self.statistic is not None or self.algorithm_columns):
            raise ValueError("'statistic' and 'algorithm_columns' are only for format 'wide'")
        for name in PLATFORM_FORMATS:
            if getattr(self, name) is not None and self.format != name:
                raise ValueError(f"'{name}' options are only for format '{name}'")
        if self.format in PLATFORM_FORMATS:
            given = sorted(self.columns.model_dump(exclude_none=True))
            if given:
                raise ValueError(
                    f"format '{self.format}' reads the platform's own files; 'columns' does not "
                    f"apply (got {', '.join(given)})"
                )
            if self.separator is not None:
                raise ValueError(
                    f"format '{self.format}' has no 'separator'"
                    + ("; use cec.separator" if self.format == "cec" else "")
                )
        if self.empty_cells != "error" and self.format not in {"trials", "summary", "wide"}:
            raise ValueError(
                "'empty_cells: not_reached' is only for formats 'trials', 'summary' and 'wide' (the "
                "columns where ∞ means 'never reached')"
            )
        if self.columns.start_value is not None and self.format != "histories":
            raise ValueError("columns.start_value is only for format 'histories'")
        return self
