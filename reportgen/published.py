"""Published numbers side by side with the recomputed ones (an analysis's ``published:``).

A study that re-analyses a paper's data can give, per analysis, the numbers the paper printed
— a small file typed in from the paper, with its source — and the columns they correspond to
in one of the analysis's machine-readable tables (``tables/<id>/<table>.csv``). The report then
shows, under the analysis, every published row with the published value, the recomputed value
and their difference (recomputed − published), each differing row marked with the spec's
explanation (``notes``), and ``tables/<id>/published.csv`` holds the same rows.

Decisions
---------
- Rows are matched on the ``keys`` columns. Key values compare as numbers when both sides are
  numbers (``10`` = ``10.0``), else as text. A published row without a recomputed partner is
  shown with the recomputed value missing (and counts as a difference).
- Numbers are equal when ``|recomputed − published| ≤ rtol · max(|recomputed|, |published|)``;
  other values when their text is equal.
- Every differing row needs an explanation: a note whose ``rows`` match it. A difference
  without one is a caveat (code ``published_unexplained``), so a silent disagreement with the
  paper cannot slip through.
- The comparison reads only the finished result's tables: it never recomputes anything.
- The published file must hold rows, each key once (two rows of one algorithm: which did the
  paper print?), and every note's ``rows`` must match one of them: a note that matches none
  (a misspelt name) explained nothing and said nothing, and an empty file failed inside the
  comparison.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from reportgen.errors import InputError, Problem, did_you_mean, quote_choices
from reportgen.paths import not_there, real_path, spec_path
from reportgen.present.caveats import Caveat, Naming
from reportgen.present.format import counted, number
from reportgen.render.blocks import TableBlock
from reportgen.spec.base import PublishedTable

if TYPE_CHECKING:
    from reportgen.data.read import RawTable

UNEXPLAINED = "published_unexplained"


@dataclass(frozen=True)
class PublishedComparison:
    """The published rows beside the recomputed ones.

    Attributes
    ----------
    source : str
        Where the published numbers come from.
    frame : pandas.DataFrame
        One row per published row: the key columns, then per compared column
        ``<column> published``, ``<column> recomputed``, ``<column> difference``; then
        ``differs`` (bool) and ``notes`` (the letters of the notes that explain the row).
    notes : tuple of str
        The notes' texts, lettered (a), (b), … in this order.
    caveats : tuple of Caveat
        ``published_unexplained`` when some row differs without a note.
    """

    source: str
    path: str
    frame: pd.DataFrame
    values: tuple[str, ...]
    notes: tuple[str, ...]
    caveats: tuple[Caveat, ...] = ()

    def to_json(self) -> dict[str, Any]:
        from reportgen.present.jsonable import frame_records

        return {
            "source": self.source,
            "file": self.path,
            "rows": frame_records(self.frame),
            "notes": list(self.notes),
        }


def _as_number(value: Any) -> float | None:
    """A cell as a number (whole numbers as int, as typed: layer 2, not 2.0), or None."""
    try:
        result = float(value)
    except (TypeError, ValueError):
        return None
    if math.isnan(result):
        return None
    return int(result) if result.is_integer() and abs(result) < 2**53 else result


def _key(value: Any) -> Any:
    """A key cell as compared: a number when it reads as one, else stripped text."""
    number = _as_number(value)
    return number if number is not None else str(value).strip()


def _letter(index: int) -> str:
    return f"({string.ascii_lowercase[index % 26]}{'' if index < 26 else index // 26})"


def compare_published(
    options: PublishedTable,
    tables: dict[str, pd.DataFrame],
    base_dir: Path,
    where: Callable[..., str],
) -> PublishedComparison:
    """Compare the published file with the analysis's table (module notes).

    Raises
    ------
    InputError
        When the file cannot be read, or a named table or column does not exist (``where``
        gives the spec location of a key under ``published``).
    """
    from reportgen.data.read import read_table

    path = real_path(spec_path(base_dir, options.path))
    if not path.is_file():
        raise InputError(Problem(where("path"), f"the file '{options.path}' {not_there(path)}"))
    raw = read_table(path, options.path, None)
    published = raw.frame
    problems = []
    if options.table not in tables:
        raise InputError(
            Problem(
                where("table"),
                f"the analysis has no table '{options.table}'"
                f"{did_you_mean(options.table, list(tables))}; its tables: "
                f"{quote_choices(tables)}",
            )
        )
    table = tables[options.table]
    columns = {**options.keys, **options.values}
    for ours, theirs in columns.items():
        if ours not in table.columns:
            problems.append(
                Problem(
                    where("keys" if ours in options.keys else "values"),
                    f"table '{options.table}' has no column '{ours}'"
                    f"{did_you_mean(ours, list(table.columns))}; its columns: "
                    f"{quote_choices(map(str, table.columns))}",
                )
            )
        if theirs not in published.columns:
            problems.append(
                Problem(
                    options.path,
                    f"no column '{theirs}'{did_you_mean(theirs, list(published.columns))}; "
                    f"the file's columns: {quote_choices(published.columns)}",
                )
            )
    for index, note in enumerate(options.notes):
        unknown = [k for k in note.rows if k not in options.keys]
        if unknown:
            problems.append(
                Problem(
                    where("notes", index, "rows"),
                    f"'{unknown[0]}' is not a key column; the keys: {quote_choices(options.keys)}",
                )
            )
    if problems:
        raise InputError(problems)
    _check_rows(options, raw, where)

    recomputed = {tuple(_key(row[k]) for k in options.keys): row for _, row in table.iterrows()}
    rows = []
    for _, row in published.iterrows():
        key = tuple(_key(row[theirs]) for theirs in options.keys.values())
        partner = recomputed.get(key)
        out: dict[str, Any] = {
            ours: row[theirs] if isinstance(k, str) else k
            for (ours, theirs), k in zip(options.keys.items(), key, strict=True)
        }
        differs = False
        for ours, theirs in options.values.items():
            value = _as_number(row[theirs])
            mine = None if partner is None else _as_number(partner[ours])
            if value is not None and (mine is not None or partner is None):
                same = mine is not None and math.isclose(
                    mine, value, rel_tol=options.rtol, abs_tol=0.0
                )
                difference = None if mine is None else mine - value
            else:  # text on either side: equal or not
                value, mine = row[theirs], None if partner is None else partner[ours]
                same = mine is not None and str(mine).strip() == str(value).strip()
                difference = None
            differs |= not same
            out[f"{ours} published"] = value
            out[f"{ours} recomputed"] = mine
            out[f"{ours} difference"] = difference
        letters = [
            _letter(i)
            for i, note in enumerate(options.notes)
            if all(_key(out[k]) == _key(v) for k, v in note.rows.items())
        ]
        rows.append({**out, "differs": differs, "notes": " ".join(letters)})
    frame = pd.DataFrame(rows)
    unexplained = frame[frame["differs"] & (frame["notes"] == "")]
    caveats: tuple[Caveat, ...] = ()
    if len(unexplained):
        named = Naming()  # an algorithm key by its label

        def key_text(k: str, value: Any) -> str:
            return named(str(value)) if k == "algorithm" else str(value)

        keys = ", ".join(
            "/".join(key_text(k, r[k]) for k in options.keys)
            for _, r in unexplained.head(8).iterrows()
        )
        caveats = (
            named.caveat(
                UNEXPLAINED,
                f"{counted(len(unexplained), 'published value row')} of {options.source} "
                f"{'differs' if len(unexplained) == 1 else 'differ'} from the recomputed ones without an explanation in the spec (published.notes).",
                keys + (" and more" if len(unexplained) > 8 else ""),
            ),
        )
    return PublishedComparison(
        options.source,
        options.path,
        frame,
        tuple(options.values),
        tuple(n.text for n in options.notes),
        caveats,
    )


def _check_rows(options: PublishedTable, raw: RawTable, where: Callable[..., str]) -> None:
    """The published file's rows: at least one, each key once, and each note's ``rows``
    matching one of them (module notes)."""
    published = raw.frame
    if not len(published):
        raise InputError(Problem(options.path, "the file has no rows: nothing to compare"))
    keys = [
        tuple(_key(row[theirs]) for theirs in options.keys.values())
        for _, row in published.iterrows()
    ]
    problems = []
    first: dict[tuple[Any, ...], int] = {}
    for index, key in enumerate(keys):
        if key in first:
            shown = ", ".join(
                f"{theirs}={row}" for theirs, row in zip(options.keys.values(), key, strict=True)
            )
            problems.append(
                Problem(
                    raw.where(index),
                    f"repeats the row of {shown} (row {first[key] + 1}): which one did the "
                    "paper print?",
                )
            )
        first.setdefault(key, index)
    ours = list(options.keys)
    for index, note in enumerate(options.notes):
        if not any(
            all(_key(v) == key[ours.index(k)] for k, v in note.rows.items() if k in ours)
            for key in keys
        ):
            problems.append(
                Problem(
                    where("notes", index, "rows"),
                    "matches no published row: the note would explain nothing (a misspelt name?)",
                )
            )
    if problems:
        raise InputError(problems)


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(float(value), digits=9)
    return str(value)


def published_block(comparison: PublishedComparison) -> TableBlock:
    """The display table: published, recomputed, difference, and the notes under it."""
    frame = comparison.frame
    shown = pd.DataFrame(
        {
            column: [_cell(v) for v in frame[column]]
            for column in frame.columns
            if column not in ("differs", "notes")
        }
    )
    shown["note"] = frame["notes"].tolist()
    bold = pd.DataFrame(False, index=shown.index, columns=shown.columns)
    for value in comparison.values:
        bold[f"{value} difference"] = frame["differs"].to_numpy()
    differing = int(frame["differs"].sum())
    agree = (
        "every value agrees"
        if differing == 0
        else f"{len(frame) - differing} of {len(frame)} rows agree; differences in bold"
    )
    return TableBlock(
        name="published",
        caption=f"Published ({comparison.source}) beside recomputed; difference = recomputed − "
        f"published; {agree}. All rows in published.csv.",
        frame=shown,
        bold=bold,
        notes=" ".join(f"{_letter(i)} {text}" for i, text in enumerate(comparison.notes)),
    )
