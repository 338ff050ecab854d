"""Presenters read typed views of a result, never filter its long tables by column names.

An analysis keeps its numbers in long tables (the storage behind ``tables()`` and
``results.json``) and offers typed views of the paper's structure — rounds, verdicts,
per-τ/per-λ and per-group rows — as methods of its result object. The presenters (figures,
narrative, report sections, synthesis and the pipeline) read those views. This test reads
their code and fails on the ways a presenter would go back to slicing frames by strings:

- a boolean mask built from a string-named column, ``frame[frame["group"] == g]``,
  ``frame.loc[frame["event"] == "swap", "weight"]``, ``frame[frame["a"].isin(names)]``, also
  when the mask is first given a name (``shown = frame["kind"] == k; frame.loc[shown, "x"]``);
- ``frame.query("...")``;
- grouping or pivoting by string-named columns, ``frame.groupby("dimension")``,
  ``frame.pivot_table(index="problem", columns="algorithm", values="ert")``;
- a table picked out of ``result.tables()`` by name.

A result object's own methods may filter its own tables (``self.table[...]``): that is where
a view is made. Run ``python -m tests.test_presenters_read_views`` from the project root to
print every place the check finds.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PRESENTERS = ("figures", "narrative", "render", "synthesis", "pipeline.py")
"""The parts of ``reportgen/`` that present results (relative to the package)."""

_MASK_METHODS = {"isin", "notna", "isna", "between", "eq", "ne", "lt", "le", "gt", "ge"}


def _names_a_column(node: ast.AST) -> bool:
    """Whether ``node`` reads a column by a string name somewhere (``x["col"]``)."""
    return any(
        isinstance(n, ast.Subscript)
        and isinstance(n.slice, ast.Constant)
        and isinstance(n.slice.value, str)
        for n in ast.walk(node)
    )


def _is_mask(node: ast.AST) -> bool:
    """Whether ``node`` is a boolean mask over rows built from a string-named column."""
    if isinstance(node, ast.Compare):
        return _names_a_column(node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)):
        return _names_a_column(node)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return _names_a_column(node)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _MASK_METHODS
    ):
        return _names_a_column(node)
    return False


def _of_self(node: ast.AST) -> bool:
    """``self.table``, ``self.table.loc``: a result's own table, read in its own method."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "self"


_RESHAPES = {"groupby", "pivot_table", "pivot"}


def _findings(path: Path) -> list[tuple[int, str]]:
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    masks = {  # names given to a mask: ``shown = frame["kind"] == k``
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and _is_mask(node.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and not _of_self(node.value):
            index = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) else node.slice
            named_mask = isinstance(index, ast.Name) and index.id in masks
            if index is not None and (_is_mask(index) or named_mask):
                found.append((node.lineno, "filters rows by a string-named column"))
            tables = node.value
            if (
                isinstance(tables, ast.Call)
                and isinstance(tables.func, ast.Attribute)
                and tables.func.attr == "tables"
                and isinstance(node.slice, ast.Constant)
            ):
                found.append((node.lineno, "picks a table out of tables() by name"))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "query":
                found.append((node.lineno, "filters rows with DataFrame.query"))
            receiver = node.func.value
            module = isinstance(receiver, ast.Name) and receiver.id == "itertools"
            arguments = [*node.args, *(k.value for k in node.keywords)]
            if (
                node.func.attr in _RESHAPES
                and not module
                and not _of_self(receiver)
                and any(
                    isinstance(n, ast.Constant) and isinstance(n.value, str)
                    for a in arguments
                    for n in ast.walk(a)
                )
            ):
                found.append((node.lineno, f"{node.func.attr} by string-named columns"))
    return found


def string_filters(root: Path = ROOT) -> list[str]:
    """Every place in the presenters of ``root/reportgen`` that slices a frame by strings."""
    package = root / "reportgen"
    paths: list[Path] = []
    for part in PRESENTERS:
        place = package / part
        paths += [place] if place.is_file() else sorted(place.rglob("*.py"))
    return [
        f"{path.relative_to(root)}:{line}: {what}"
        for path in paths
        for line, what in _findings(path)
    ]


def test_no_presenter_slices_a_frame_by_strings():
    assert string_filters() == []


def test_the_check_sees_a_string_filter(tmp_path):
    narrative = tmp_path / "reportgen" / "narrative"
    narrative.mkdir(parents=True)
    (narrative / "x.py").write_text(
        "def f(result, g):\n"
        "    rows = result.totals[result.totals['group'] == g]\n"
        "    w = rows.loc[rows['event'] == 'swap', 'weight']\n"
        "    pairs = result.pairwise[result.pairwise['algorithm_a'].isin(['A', 'B'])]\n"
        "    s = result.tables()['summary']\n"
        "    shown = rows['kind'] == 'mean'\n"
        "    x = rows.loc[shown, 'x']\n"
        "    by = rows.groupby('dimension')\n"
        "    wide = rows.pivot_table(index=['problem'], columns='algorithm', values='ert')\n"
        "    return rows.query('rank == 1'), w, pairs, s, x, by, wide\n"
        "class View:\n"
        "    def of(self, g):\n"
        "        return self.table[self.table['group'] == g]\n"  # a view: allowed
        "def g(frame, names):\n"
        "    return frame[names], frame[frame.index > 2]\n"  # no string-named column: allowed
        "import itertools\n"
        "runs = itertools.groupby('aab')\n"  # not a frame: allowed
    )
    assert string_filters(tmp_path) == [
        "reportgen/narrative/x.py:2: filters rows by a string-named column",
        "reportgen/narrative/x.py:3: filters rows by a string-named column",
        "reportgen/narrative/x.py:4: filters rows by a string-named column",
        "reportgen/narrative/x.py:5: picks a table out of tables() by name",
        "reportgen/narrative/x.py:7: filters rows by a string-named column",
        "reportgen/narrative/x.py:8: groupby by string-named columns",
        "reportgen/narrative/x.py:9: pivot_table by string-named columns",
        "reportgen/narrative/x.py:10: filters rows with DataFrame.query",
    ]


if __name__ == "__main__":
    import sys

    places = string_filters(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
    print("\n".join(places) or "no presenter slices a frame by strings")
    print(f"{len(places)} place(s)")
