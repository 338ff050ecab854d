"""Hypothesis strategies for hostile, careless and degenerate inputs (specs and data files)."""

from __future__ import annotations

import gzip
import math
from typing import Any

import yaml
from hypothesis import strategies as st

# --- odd values: what a careless edit or a broken export puts where a value belongs ---------

ODD_NUMBERS = st.sampled_from(
    [0, -1, 1, 0.5, 1e-320, 1e308, -1e308, math.inf, -math.inf, math.nan, 10**30, 2**63, -(2**63)]
)
ODD_TEXT = st.one_of(
    st.sampled_from(
        ["", " ", "nan", "NaN", "inf", "-inf", "None", "null", "true", "~", "\x00", "A\x00B",
         "é", "名前", "<b>x</b>", "a,b", '"', "x" * 300, "1e309", "0x10", "١٢٣"]
    ),
    st.text(max_size=30),
)  # fmt: skip
ODD_VALUES: st.SearchStrategy[Any] = st.one_of(
    ODD_NUMBERS,
    ODD_TEXT,
    st.booleans(),
    st.none(),
    st.just([]),
    st.just({}),
    st.lists(st.one_of(ODD_NUMBERS, ODD_TEXT), max_size=3),
    st.dictionaries(st.sampled_from(["a", "kind", "data", "1"]), ODD_NUMBERS, max_size=2),
)


def key_paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path of a nested dict/list."""
    paths = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            paths.extend(key_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            paths.extend(key_paths(value, (*prefix, index)))
    return paths


def set_path(node: Any, path: tuple[Any, ...], value: Any, *, delete: bool = False) -> None:
    for part in path[:-1]:
        node = node[part]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value


@st.composite
def mutated_spec(draw: st.DrawFn, base: dict[str, Any]) -> str:
    """The base spec with one to three values replaced, deleted or added, as YAML text."""
    import copy

    spec = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        paths = key_paths(spec)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if action == "delete":
            set_path(spec, path, None, delete=True)
        elif action == "add":
            parent = path[:-1]
            target = spec
            for part in parent:
                target = target[part]
            if isinstance(target, dict):
                target[draw(st.sampled_from(["extra", "kind", "x_max", "lambdas", "path"]))] = draw(
                    ODD_VALUES
                )
        else:
            set_path(spec, path, draw(ODD_VALUES))
    text = yaml.safe_dump(spec, allow_unicode=True, sort_keys=False)
    return draw(yaml_oddity(text))


@st.composite
def yaml_oddity(draw: st.DrawFn, text: str) -> str:
    """Sometimes: YAML the safe dumper never writes (aliases, tabs, duplicates, garbage)."""
    kind = draw(
        st.sampled_from(
            ["none"] * 6
            + ["truncate", "tab", "duplicate", "alias_loop", "laughs", "deep", "binary", "bigint"]
        )
    )
    if kind == "truncate":
        return text[: draw(st.integers(0, len(text)))]
    if kind == "tab":
        return text.replace("  ", "\t", 1)
    if kind == "duplicate":
        return text + "minimize: false\n"
    if kind == "alias_loop":
        return text.replace("study:", "loop: &l [*l]\nstudy:", 1)
    if kind == "laughs":
        lines = ["l0: &l0 [a, a, a, a, a, a, a, a]"]
        lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 8)}]" for i in range(1, 8)]
        return "\n".join(lines) + "\n" + text
    if kind == "deep":
        depth = draw(st.integers(40, 400))
        return text + "deep: " + "[" * depth + "]" * depth + "\n"
    if kind == "binary":
        return text + draw(st.binary(min_size=1, max_size=40)).decode("latin-1")
    if kind == "bigint":
        return text.replace("minimize: true", "minimize: " + "7" * draw(st.integers(50, 5000)))
    return text


# --- data files -------------------------------------------------------------------------------

TRIALS_COLUMNS = ("algorithm", "problem", "dimension", "run", "value", "evaluations_used",
                  "evaluations_to_target")  # fmt: skip


@st.composite
def trials_rows(draw: st.DrawFn, degenerate: bool = False) -> list[list[str]]:
    """A complete trials table: every algorithm × problem × run, values of some shape."""
    algorithms = draw(st.integers(2 if degenerate else 1, 4))
    problems = draw(st.integers(1, 3))
    runs = draw(st.integers(1, 4))
    shape = draw(st.sampled_from(["identical", "ties", "spread", "zeros", "never"]))
    rows = []
    for a in range(algorithms):
        for p in range(problems):
            for r in range(runs):
                if shape == "identical":
                    value = 1.0
                elif shape == "ties":
                    value = float(draw(st.sampled_from([1, 2])))
                elif shape == "zeros":
                    value = 0.0
                else:
                    value = draw(st.floats(1e-9, 1e6, allow_nan=False))
                never = shape == "never" or draw(st.booleans())
                hit = "inf" if never else str(draw(st.integers(1, 1000)))
                rows.append([f"A{a}", f"f{p + 1}", "10", str(r + 1), repr(value), "1000", hit])
    return rows


def csv_text(header: tuple[str, ...], rows: list[list[str]]) -> str:
    return "\n".join([",".join(header), *(",".join(r) for r in rows)]) + "\n"


@st.composite
def broken_csv(draw: st.DrawFn) -> tuple[str, bytes]:
    """A trials file with a few bad cells, or broken as a whole; returns (file name, bytes)."""
    rows = draw(trials_rows())
    header = list(TRIALS_COLUMNS)
    for _ in range(draw(st.integers(0, 3))):
        row = draw(st.integers(0, len(rows) - 1))
        column = draw(st.integers(0, len(header) - 1))
        cell = draw(ODD_TEXT | ODD_NUMBERS.map(repr))
        rows[row][column] = cell.replace(",", ";").replace("\n", " ").replace("\r", " ")
    if draw(st.booleans()):
        header[draw(st.integers(0, len(header) - 1))] = draw(st.sampled_from(["", "x", "value"]))
    content = csv_text(tuple(header), rows).encode("utf-8", "surrogatepass")
    whole = draw(st.sampled_from(["plain", "plain", "gzip", "truncated_gzip", "binary", "cut",
                                  "empty", "header_only", "bom", "latin1"]))  # fmt: skip
    if whole == "gzip":
        return "t.csv.gz", gzip.compress(content, mtime=0)
    if whole == "truncated_gzip":
        packed = gzip.compress(content, mtime=0)
        return "t.csv.gz", packed[: draw(st.integers(0, len(packed) - 1))]
    if whole == "binary":
        return "t.csv", draw(st.binary(min_size=1, max_size=200))
    if whole == "cut":
        return "t.csv", content[: draw(st.integers(0, len(content)))]
    if whole == "empty":
        return "t.csv", b""
    if whole == "header_only":
        return "t.csv", content.split(b"\n")[0] + b"\n"
    if whole == "bom":
        return "t.csv", b"\xef\xbb\xbf" + content
    if whole == "latin1":
        return "t.csv", content.replace(b"A0", b"\xe9\xff")
    return "t.csv", content


# --- names: what a problem or algorithm column may hold -----------------------------------

ODD_NAMES = st.one_of(
    st.sampled_from(
        ["f/1", "f\\1", "../../etc/passwd", "/abs/path", "C:\\x", "<b>f</b>", "&amp;",
         "<script>alert(1)</script>", "f&%$#_{}~^\\textbf{x}", "f\nsecond line", "f\r\nx",
         "f\tx", "f\x07x", "f\x1b[31m", "f\x7fx", "f\x85x", "f\u202eevil", "f\u2066x",
         "f\u2028x", "f\u200bx", "  padded  ", "\"quoted\"", "'", "%s%n", "{0}", "$x$",
         "名前", "١٢٣", "²", "f²1", "e\u0301", "1e309", "NaN", "p" * 100, "p" * 101, "q" * 999,
         "r" * 1001, "word " * 150, "D=10", "f (D=10)"]
    ),
    st.text(min_size=1, max_size=40),
    st.builds(lambda word, n: " ".join([word] * n), st.sampled_from(["w", "x" * 99]), st.integers(1, 12)),
)  # fmt: skip
"""Problem and algorithm names: path separators, HTML and LaTeX specials, control, line and
text-direction characters, very long names (with and without spaces), lookalikes."""


def names_csv(rows: list[list[str]]) -> str:
    """A trials file whose cells are quoted where needed (a newline inside a name stays in it)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(TRIALS_COLUMNS)
    writer.writerows(rows)
    return out.getvalue()
