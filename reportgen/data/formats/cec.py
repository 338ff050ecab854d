"""CEC competition result files: one file per algorithm × function × dimension.

Each file is a matrix with one column per run and one row per checkpoint — the error
``f(x) − f*`` of the run's best solution after that many evaluations — plus, in some
competitions, one extra last row.

Checkpoints (``cec.checkpoints``)
---------------------------------
- ``cec2017``: fractions ``0.01, 0.02, 0.03, 0.05, 0.1, 0.2, …, 0.9, 1.0`` of MaxFES (14 rows;
  CEC 2017 technical report).
- ``cec2020`` / ``cec2022``: :math:`\\lfloor D^{k/5-3}\\cdot \\mathrm{MaxFES} \\rfloor` for
  ``k = 0 … 15`` (16 rows; CEC 2020 and CEC 2022 technical reports). The last is MaxFES.
- a list of fractions of MaxFES.

MaxFES (``cec.max_evaluations``) is a formula in ``D`` (``10000*D``) or a mapping from
dimension to MaxFES.

Decisions
---------
- File names are matched against ``cec.file_pattern``; ``{algorithm}`` matches as little as
  possible, ``{function}`` and ``{dimension}`` are whole numbers, ``*`` is any text. Problems are named
  ``f<function>``.
- A row that gets worse from one checkpoint to the next (the errors are meant to be
  best-so-far) is not an error: some submissions report the current population's best. Such
  files are listed in one caveat, and the running minimum over checkpoints is used.
- ``last_row: evaluations_to_target``: the row gives the evaluations at which the run reached
  the target; for trials it is used when the final error is ≤ ``target`` (else ∞). Without it,
  trials' evaluations to target are the first checkpoint whose error is ≤ ``target`` (an upper
  bound on the true count). Histories never use the last row.
- Every run's end is MaxFES (the last checkpoint).
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np

from reportgen.data.checks import MAX_MAGNITUDE, MAX_ROWS_PER_PROBLEM, TOO_LARGE, name_fault
from reportgen.data.formats import InputFile, ReadResult, RunRecords, runs_to_frame
from reportgen.errors import InputError, Problem
from reportgen.present.caveats import Caveat
from reportgen.present.format import counted
from reportgen.spec.base import MAX_EVALUATIONS
from reportgen.spec.sources import CecOptions, DataSource

CEC2017_FRACTIONS: tuple[float, ...] = (
    0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
)  # fmt: skip


def max_evaluations(options: CecOptions, dimension: int) -> int | None:
    """MaxFES for a dimension (None when a mapping does not list it).

    Raises
    ------
    ValueError
        When the formula gives no MaxFES from 1 to :data:`MAX_EVALUATIONS` for this dimension
        (``D-10`` gives 0 for D = 10, ``1/(D-10)`` divides by zero, ``D**1000`` overflows,
        ``(-D)**0.5`` is not a real number):
        the spec can only check the formula's form, its value depends on the files' D.
    """
    if isinstance(options.max_evaluations, dict):
        return options.max_evaluations.get(dimension)
    tree = ast.parse(options.max_evaluations.replace("^", "**"), mode="eval")
    try:
        value = _evaluate(tree.body, dimension)
    except (ZeroDivisionError, OverflowError) as exc:
        reason = "divides by zero" if isinstance(exc, ZeroDivisionError) else "overflows"
        raise ValueError(f"{reason} for D={dimension}") from None
    if not 1 <= value < MAX_EVALUATIONS + 1:  # also refuses NaN (inf − inf)
        raise ValueError(
            f"gives {value:g} for D={dimension}; MaxFES must be from 1 to {MAX_EVALUATIONS:g}"
        )
    return math.floor(value + 1e-9)


def _evaluate(node: ast.expr, dimension: int) -> float:
    """Evaluate a formula already checked by the spec model (numbers, D, + − × ÷ **)."""
    if isinstance(node, ast.Constant):
        return float(node.value)  # type: ignore[arg-type]  # numbers only (validated)
    if isinstance(node, ast.Name):
        return float(dimension)
    if isinstance(node, ast.UnaryOp):
        operand = _evaluate(node.operand, dimension)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp):
        left, right = _evaluate(node.left, dimension), _evaluate(node.right, dimension)
        operations: dict[type[ast.operator], Callable[[], float]] = {
            ast.Add: lambda: left + right,
            ast.Sub: lambda: left - right,
            ast.Mult: lambda: left * right,
            ast.Div: lambda: left / right,
            ast.Pow: lambda: left**right,
        }
        for kind, apply in operations.items():
            if isinstance(node.op, kind):
                result = apply()
                if isinstance(result, complex):  # (-D)**0.5
                    raise ValueError(
                        f"takes a fractional power of a negative number for D={dimension}"
                    )
                return float(result)
    raise ValueError("unsupported formula")  # excluded by the spec's validator


def checkpoints(options: CecOptions, dimension: int, budget: int) -> np.ndarray:
    """Evaluation counts of the checkpoint rows (see the module notes)."""
    if options.checkpoints in ("cec2020", "cec2022"):
        k = np.arange(16)
        return np.floor(float(dimension) ** (k / 5 - 3) * budget + 1e-9)
    fractions = CEC2017_FRACTIONS if options.checkpoints == "cec2017" else options.checkpoints
    return np.floor(np.asarray(fractions, dtype=float) * budget + 1e-9)


def _pattern(options: CecOptions) -> re.Pattern[str]:
    parts = re.split(r"(\{algorithm\}|\{function\}|\{dimension\})", options.file_pattern)
    regex = ""
    for part in parts:
        if part == "{algorithm}":
            regex += r"(?P<algorithm>.+?)"
        elif part == "{function}":
            regex += r"(?P<function>\d+)"
        elif part == "{dimension}":
            regex += r"(?P<dimension>\d+)"
        else:
            regex += ".*?".join(re.escape(piece) for piece in part.split("*"))
    return re.compile(regex + r"\Z")


def _parse_matrix(
    text: str, display: str, options: CecOptions, problems: list[Problem]
) -> np.ndarray | None:
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if options.header_row and lines:
        lines = lines[1:]
    if not lines:
        problems.append(Problem(display, "the file has no data rows"))
        return None
    comma = options.separator == "comma" or (options.separator == "auto" and "," in lines[0][1])
    rows: list[list[str]] = []
    numbers: list[int] = []
    for number, line in lines:
        cells = [c.strip() for c in line.split(",")] if comma else line.split()
        while cells and cells[-1] == "":
            cells.pop()  # a trailing separator
        if options.label_column:
            cells = cells[1:]
        rows.append(cells)
        numbers.append(number)
    width = len(rows[0])
    for cells, number in zip(rows, numbers, strict=True):
        if len(cells) != width:
            problems.append(
                Problem(
                    f"{display}, line {number}",
                    f"{len(cells)} values, but the first row has {width} (one per run)",
                )
            )
            return None
    try:
        flat = [cell for cells in rows for cell in cells]
        matrix = np.fromiter(map(float, flat), dtype=float, count=len(flat)).reshape(-1, width)
        if np.isfinite(matrix).all() and np.abs(matrix).max(initial=0.0) <= MAX_MAGNITUDE:
            return matrix
    except ValueError:
        pass  # find and report the bad cells one by one below
    bad = 0
    matrix = np.empty((len(rows), width))
    for i, (cells, number) in enumerate(zip(rows, numbers, strict=True)):
        for j, cell in enumerate(cells):
            try:
                value = float(cell)
            except ValueError:
                value = math.nan
            if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
                bad += 1
                if bad <= MAX_ROWS_PER_PROBLEM:
                    problems.append(
                        Problem(
                            f"{display}, line {number}, column {j + 1}",
                            f"not a finite number: {cell!r}"
                            if not math.isfinite(value)
                            else f"{TOO_LARGE}: {cell!r}",
                        )
                    )
            matrix[i, j] = value
    if bad > MAX_ROWS_PER_PROBLEM:
        problems.append(
            Problem(display, f"not a finite number in {bad - MAX_ROWS_PER_PROBLEM} more cells")
        )
    return None if bad else matrix


def read_cec(
    files: list[tuple[Path, str]], options: CecOptions, source: DataSource, key: str
) -> ReadResult:
    """Read CEC result files into canonical histories or trials (see the module notes)."""
    pattern = _pattern(options)
    problems: list[Problem] = []
    runs: list[RunRecords] = []
    inputs: list[InputFile] = []
    seen: dict[tuple[str, int, int], str] = {}
    non_monotone: list[str] = []
    bad_budgets: set[int] = set()
    bad_names: set[str] = set()
    for path, display in files:
        match = pattern.match(path.name)
        if match is None:
            problems.append(
                Problem(
                    display,
                    f"the file name does not match the pattern '{options.file_pattern}' "
                    f"(set {key}.cec.file_pattern)",
                )
            )
            continue
        groups = match.groupdict()
        algorithm = source.algorithm if source.algorithm is not None else groups.get("algorithm")
        dimension = source.dimension if source.dimension is not None else groups.get("dimension")
        if algorithm is None or dimension is None:
            missing = "{algorithm}" if algorithm is None else "{dimension}"
            problems.append(
                Problem(
                    display,
                    f"the pattern has no {missing} and the source sets no '{missing.strip('{}')}:'",
                )
            )
            continue
        fault = None if source.algorithm is not None else name_fault(algorithm.strip())
        if fault is not None:
            if algorithm not in bad_names:  # one message per name, not one per file
                bad_names.add(algorithm)
                problems.append(
                    Problem(display, f"the algorithm its name gives: {fault}: {algorithm!r}")
                )
            continue
        function, dimension = int(groups["function"]), int(dimension)
        try:
            budget = max_evaluations(options, dimension)
        except ValueError as exc:
            if dimension not in bad_budgets:  # one message per dimension, not per file
                bad_budgets.add(dimension)
                problems.append(
                    Problem(
                        display,
                        f"{key}.cec.max_evaluations '{options.max_evaluations}' {exc}",
                    )
                )
            continue
        if budget is None:
            assert isinstance(options.max_evaluations, dict)
            problems.append(
                Problem(
                    display,
                    f"no MaxFES for dimension {dimension} in {key}.cec.max_evaluations "
                    f"(it lists {sorted(options.max_evaluations)})",
                )
            )
            continue
        identity = (algorithm, function, dimension)
        if identity in seen:
            problems.append(
                Problem(
                    display,
                    f"a second file for {algorithm} on f{function} in {dimension}-D "
                    f"(the first is {seen[identity]})",
                )
            )
            continue
        seen[identity] = display
        try:
            text = path.read_text(encoding="utf-8-sig", errors="replace")
        except OSError as exc:
            problems.append(Problem(display, f"cannot read the file: {exc}"))
            continue
        matrix = _parse_matrix(text, display, options, problems)
        if matrix is None:
            continue
        counts = checkpoints(options, dimension, budget)
        extra = 0 if options.last_row == "none" else 1
        if matrix.shape[0] != len(counts) + extra:
            problems.append(
                Problem(
                    display,
                    f"{matrix.shape[0]} rows, expected {len(counts) + extra} "
                    f"({len(counts)} checkpoints of '{_describe(options)}'"
                    + (" + the last row" if extra else "")
                    + f"); check {key}.cec.checkpoints and {key}.cec.last_row",
                )
            )
            continue
        errors = matrix[: len(counts)]
        if np.any(np.diff(errors, axis=0) > 0):
            non_monotone.append(display)
        best = np.minimum.accumulate(errors, axis=0)
        last = matrix[-1] if options.last_row == "evaluations_to_target" else None
        if last is not None and np.any(last < 0):
            problems.append(
                Problem(
                    f"{display}, last row",
                    f"evaluations to target must be ≥ 0: {float(last.min())!r}",
                )
            )
            continue
        if last is not None and np.any(last != np.round(last)):
            # A row of errors read as counts (the file has no such row, or a 15th checkpoint)
            # would otherwise pass as evaluations 0.0034, 1.2e+02, …
            problems.append(
                Problem(
                    f"{display}, last row",
                    "evaluations to target must be whole numbers: "
                    f"{float(last[last != np.round(last)][0])!r}; is the last row evaluation "
                    f"counts? check {key}.cec.last_row",
                )
            )
            continue
        for column in range(matrix.shape[1]):
            runs.append(
                RunRecords(
                    algorithm,
                    f"f{function}",
                    dimension,
                    counts,
                    best[:, column],
                    budget,
                    None if last is None else float(last[column]),
                )
            )
        inputs.append(InputFile(path, display, int(matrix.shape[1])))
    if problems:
        raise InputError(problems)
    if not runs:
        raise InputError(Problem(key, "the CEC files hold no runs"))
    frame = runs_to_frame(runs, options.layout, options.target)
    caveats: list[Caveat] = []
    if non_monotone:
        shown = ", ".join(non_monotone[:10])
        more = f" and {len(non_monotone) - 10} more" if len(non_monotone) > 10 else ""
        caveats.append(
            Caveat(
                "non_monotone_checkpoints",
                f"{counted(len(non_monotone), 'CEC file', 'have')} errors that get worse from one "
                "checkpoint to the next (not best-so-far); the running minimum over "
                "checkpoints is used.",
                shown + more,
            )
        )
    return ReadResult(frame, inputs, caveats)


def _describe(options: CecOptions) -> str:
    if isinstance(options.checkpoints, list):
        return "the given fractions"
    return options.checkpoints
