"""What changed since a previous report: ``reportgen run study.yaml --baseline previous/``.

A weekly report is read for what is new. This module compares two ``results.json`` documents
— the baseline (a previous output folder or its results.json) and the current run — and lists,
one row each:

- ``spec changed``, ``input changed`` / ``input added`` / ``input removed``: the spec and the
  data files read, by the SHA-256 of the provenance (an input's rows before → after), listed
  first: a weekly report whose data grew says so even when no rank moved;
- ``algorithm added`` / ``algorithm removed``;
- ``problem added`` / ``problem removed`` (``results.json``'s ``problems``, ``f3 (D=10)``);
- ``ranking added`` / ``ranking removed`` (an analysis or option that ranks differently);
- ``rank moved``: per ranking of the executive summary present in both, every algorithm
  present in both whose printed rank changed (before → after) and whose place among the
  algorithms of both runs changed with it — how many of them rank ahead of it or tie with it.
  A rank that only shifts because an algorithm was added or removed is not a movement: one
  new algorithm in first place would otherwise "move" every other one; nor is a place gained
  by a rank that stays as printed ("2 → 2": the algorithm that fell behind it has its row);
- ``rank entered``: per ranking, the rank of each algorithm the baseline did not have;
- ``verdict flipped``: per ranking, every common algorithm whose significance verdict changed;
- ``finding new`` / ``finding gone``: generated findings (summary and per analysis) by their
  stable id; a finding whose id persists with other numbers is not listed (its numbers are in
  the rank and verdict rows).

Decisions
---------
- Comparison is only ever explicit (``--baseline``): a run into an existing output folder does
  not compare by itself, so that a report depends only on its spec and data. The baseline may
  be the output folder itself (``reportgen run study.yaml --baseline out/``): it is read before
  the new report replaces it. On a scheduled job's first run that folder holds no report yet:
  the report is written without changes and the warning ``baseline_missing`` says so
  (:func:`reportgen.pipeline.run_study`); any other baseline that does not exist is an error.
- The baseline is checked, before the analyses run, for the shape of every part the
  comparison reads (algorithms, problems, labels, the summary's rankings and findings, each
  analysis's findings): a results.json edited by hand or by another tool is refused with the
  key that is wrong, rather than failing half-way through the comparison. A results.json of a
  higher format than this reportgen writes (a newer reportgen's) is refused first, naming the
  version that wrote it: its keys may mean what this reportgen does not know.
- A baseline that shares no algorithm and no problem with the study is compared all the same
  (every row an addition or a removal), but is most likely the wrong file: the report's
  sentence says so, and a warning (``baseline_other_study``) is printed. Not in results.json,
  which must not depend on the baseline.
- The changes are presented at the end of the executive summary and written to
  ``tables/summary/changes.csv``; they are not part of ``results.json``, which stays a function
  of spec and data (``reportgen verify`` compares it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from reportgen.errors import InputError, Problem
from reportgen.present.jsonable import format_problem
from reportgen.render.blocks import Block, TableBlock, Text

COLUMNS = ("change", "ranking", "item", "before", "after")
INPUT_CHANGES = ("spec changed", "input changed", "input added", "input removed")
"""The changes of what the run read (the provenance's hashes), listed first."""
MAX_NAMED_INPUTS = 3
"""Input changes the summary's sentence names one by one; beyond, it counts them."""
MAX_SHOWN = 40
"""Rows of the report's table; the CSV has all."""
CHANGES_TABLE = "summary/changes"
"""Where the changes are written, ``tables/<CHANGES_TABLE>.csv`` (``reportgen verify`` skips
it: it depends on the baseline)."""


def read_baseline(path: str | Path) -> dict[str, Any]:
    """The baseline's results.json: ``path`` itself or ``path/results.json``."""
    path = Path(path)
    file = path / "results.json" if path.is_dir() else path
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(
            Problem(
                "--baseline",
                f"{file} does not exist (give a previous output folder or its results.json)",
            )
        ) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        # A supplement.zip is the likeliest binary file given here: its report is inside.
        hint = (
            "; a supplement? give the report folder it was written to, or its "
            "report/results.json unpacked"
            if file.suffix == ".zip"
            else ""
        )
        raise InputError(
            Problem("--baseline", f"{file} is not a reportgen results.json (not JSON: {exc}){hint}")
        ) from None
    except OSError as exc:
        raise InputError(Problem("--baseline", f"cannot read {file}: {exc}")) from None
    if not isinstance(document, dict):
        raise InputError(Problem("--baseline", f"{file} is not a reportgen results.json"))
    # The format first: a newer reportgen's results.json may lack the keys this one reads,
    # and "upgrade reportgen" is then the answer, not "not a results.json".
    unreadable = format_problem(document)
    if unreadable is not None:
        raise InputError(Problem("--baseline", f"{file}, {unreadable}"))
    absent = [key for key in ("algorithms", "summary") if key not in document]
    if absent:
        raise InputError(
            Problem(
                "--baseline",
                f"{file} is not a reportgen results.json (it has no key "
                + " and no key ".join(repr(k) for k in absent)
                + ")",
            )
        )
    problems = [
        Problem("--baseline", f"{file}, key {key}: {message}")
        for key, message in _shape_problems(document)
    ]
    if problems:
        raise InputError(problems)
    return document


_TYPE_NAMES: dict[type, str] = {
    dict: "an object",
    list: "a list",
    str: "a text",
    int: "a whole number",
}


def _shape_problems(document: dict[str, Any]) -> list[tuple[str, str]]:
    """Every part of ``document`` that :func:`compare_results` and :func:`changes_blocks` read
    but that has the wrong type: (key path, what is wrong)."""
    found: list[tuple[str, str]] = []

    def check(value: Any, expected: type, key: str) -> bool:
        if isinstance(value, expected):
            return True
        found.append((key, f"should be {_TYPE_NAMES[expected]}, not {_json_type(value)}"))
        return False

    def texts(value: Any, key: str) -> None:
        if check(value, list, key):
            for index, item in enumerate(value):
                check(item, str, f"{key}[{index}]")

    def findings(value: Any, key: str) -> None:
        if check(value, list, key):
            for index, finding in enumerate(value):
                if check(finding, dict, f"{key}[{index}]"):
                    for field in ("id", "text"):
                        check(finding.get(field), str, f"{key}[{index}].{field}")

    texts(document["algorithms"], "algorithms")
    if "problems" in document:
        texts(document["problems"], "problems")
    if "labels" in document and check(document["labels"], dict, "labels"):
        for algorithm, label in document["labels"].items():
            check(label, str, f"labels.{algorithm}")
    if "provenance" in document and check(document["provenance"], dict, "provenance"):
        provenance = document["provenance"]
        if "spec" in provenance and check(provenance["spec"], dict, "provenance.spec"):
            for field in ("path", "sha256"):
                check(provenance["spec"].get(field), str, f"provenance.spec.{field}")
        if "inputs" in provenance and check(provenance["inputs"], list, "provenance.inputs"):
            for index, file in enumerate(provenance["inputs"]):
                key = f"provenance.inputs[{index}]"
                if check(file, dict, key):
                    for field in ("source", "file", "sha256"):
                        check(file.get(field), str, f"{key}.{field}")
                    check(file.get("rows"), int, f"{key}.rows")
    if check(document["summary"], dict, "summary"):
        summary = document["summary"]
        if "findings" in summary:
            findings(summary["findings"], "summary.findings")
        if "rankings" in summary and check(summary["rankings"], list, "summary.rankings"):
            for index, ranking in enumerate(summary["rankings"]):
                key = f"summary.rankings[{index}]"
                if check(ranking, dict, key):
                    check(ranking.get("id"), str, f"{key}.id")
                    check(ranking.get("label"), str, f"{key}.label")
                    check(ranking.get("ranks"), dict, f"{key}.ranks")
                    if "verdicts" in ranking:
                        check(ranking["verdicts"], dict, f"{key}.verdicts")
    if "analyses" in document and check(document["analyses"], dict, "analyses"):
        for analysis_id, analysis in document["analyses"].items():
            key = f"analyses.{analysis_id}"
            if check(analysis, dict, key) and "findings" in analysis:
                findings(analysis["findings"], f"{key}.findings")
    return found


def _json_type(value: Any) -> str:
    """How JSON names the type of ``value`` (a list, an object, null, ...)."""
    if value is None:
        return "missing (or null)"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _findings(document: dict[str, Any]) -> dict[str, str]:
    found = {f"summary/{f['id']}": f["text"] for f in document["summary"].get("findings", [])}
    for analysis_id, analysis in document.get("analyses", {}).items():
        found |= {f"{analysis_id}/{f['id']}": f["text"] for f in analysis.get("findings", [])}
    return found


def _rank_text(rank: Any) -> str:
    return "" if rank is None else f"{rank:g}" if isinstance(rank, float) else str(rank)


def _input_changes(
    before: dict[str, Any], after: dict[str, Any]
) -> list[tuple[str, str, str, str, str]]:
    """The spec and the input files whose content differs (by the provenance's SHA-256), and
    the files read by one run only; nothing when either run's provenance does not say."""
    rows: list[tuple[str, str, str, str, str]] = []
    old_spec, new_spec = before.get("spec"), after.get("spec")
    if old_spec and new_spec and old_spec["sha256"] != new_spec["sha256"]:
        rows.append(("spec changed", "", new_spec["path"], "", ""))
    if "inputs" not in before or "inputs" not in after:
        return rows
    old = {(f["source"], f["file"]): f for f in before["inputs"]}
    new = {(f["source"], f["file"]): f for f in after["inputs"]}

    def rows_text(file: dict[str, Any]) -> str:
        return f"{file['rows']} rows"

    for key, file in new.items():
        item = f"{key[0]}: {key[1]}"
        if key not in old:
            rows.append(("input added", "", item, "", rows_text(file)))
        elif old[key]["sha256"] != file["sha256"]:
            rows.append(("input changed", "", item, rows_text(old[key]), rows_text(file)))
    rows.extend(
        ("input removed", "", f"{key[0]}: {key[1]}", rows_text(file), "")
        for key, file in old.items()
        if key not in new
    )
    return rows


def _standing(ranks: dict[str, Any], algorithm: str, common: list[str]) -> tuple[Any, ...]:
    """Where ``algorithm`` stands among the algorithms ``common`` to both runs: how many of
    them rank ahead of it and how many tie with it (its rank itself when a rank is not a
    number)."""
    rank = ranks[algorithm]
    if not _is_rank(rank) or not all(_is_rank(ranks[other]) for other in common):
        return (rank,)
    ahead = sum(ranks[other] < rank for other in common)
    tied = sum(ranks[other] == rank for other in common if other != algorithm)
    return ahead, tied


def _is_rank(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def compare_results(baseline: dict[str, Any], current: dict[str, Any]) -> pd.DataFrame:
    """Every change from ``baseline`` to ``current`` (module notes), one row each.

    Returns
    -------
    pandas.DataFrame
        Columns ``change``, ``ranking`` (the ranking's label, where one applies), ``item``
        (algorithm, problem or finding id), ``before``, ``after``.
    """
    rows: list[tuple[str, str, str, str, str]] = _input_changes(
        baseline.get("provenance", {}), current.get("provenance", {})
    )

    def added_removed(kind: str, old: list[str], new: list[str]) -> None:
        rows.extend((f"{kind} added", "", x, "", "") for x in new if x not in old)
        rows.extend((f"{kind} removed", "", x, "", "") for x in old if x not in new)

    added_removed("algorithm", list(baseline["algorithms"]), list(current["algorithms"]))
    if "problems" in baseline and "problems" in current:
        added_removed("problem", list(baseline["problems"]), list(current["problems"]))
    old_rankings = {r["id"]: r for r in baseline["summary"].get("rankings", [])}
    new_rankings = {r["id"]: r for r in current["summary"].get("rankings", [])}
    rows.extend(
        ("ranking added", r["label"], "", "", "")
        for i, r in new_rankings.items()
        if i not in old_rankings
    )
    rows.extend(
        ("ranking removed", r["label"], "", "", "")
        for i, r in old_rankings.items()
        if i not in new_rankings
    )
    for ranking_id, new in new_rankings.items():
        old = old_rankings.get(ranking_id)
        if old is None:
            continue
        common = [a for a in new["ranks"] if a in old["ranks"]]
        for algorithm, rank in new["ranks"].items():
            if algorithm not in old["ranks"]:
                rows.append(("rank entered", new["label"], algorithm, "", _rank_text(rank)))
            elif old["ranks"][algorithm] != rank and _standing(
                old["ranks"], algorithm, common
            ) != _standing(new["ranks"], algorithm, common):
                before = old["ranks"][algorithm]
                rows.append(
                    ("rank moved", new["label"], algorithm, _rank_text(before), _rank_text(rank))
                )
        for algorithm, verdict in new.get("verdicts", {}).items():
            before = old.get("verdicts", {}).get(algorithm)
            if algorithm in old["ranks"] and before is not None and before != verdict:
                rows.append(("verdict flipped", new["label"], algorithm, before, verdict))
    old_findings, new_findings = _findings(baseline), _findings(current)
    rows.extend(
        ("finding new", "", key, "", text)
        for key, text in new_findings.items()
        if key not in old_findings
    )
    rows.extend(
        ("finding gone", "", key, text, "")
        for key, text in old_findings.items()
        if key not in new_findings
    )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def unrelated(baseline: dict[str, Any], current: dict[str, Any]) -> bool:
    """Whether the baseline shares no algorithm and no problem with the current results: a
    results.json of another study, most likely given by mistake (every row would be an
    addition or a removal)."""
    return not set(baseline["algorithms"]) & set(current["algorithms"]) and not set(
        baseline.get("problems", [])
    ) & set(current.get("problems", []))


def _counted(frame: pd.DataFrame, change: str, singular: str, plural: str) -> str | None:
    count = int((frame["change"] == change).sum())
    return None if count == 0 else f"{count} {singular if count == 1 else plural}"


def _input_words(change: str, item: str, before: str, after: str) -> str:
    """A row of :data:`INPUT_CHANGES` as the summary's sentence says it."""
    if change == "spec changed":
        return f"the spec {item} changed"
    if change == "input changed":
        rows = f"still {after}" if before == after else f"{before} → {after}"
        return f"the input {item} changed ({rows})"
    if change == "input added":
        return f"a new input {item} ({after})"
    return f"the input {item} is no longer read"


def changes_blocks(
    changes: pd.DataFrame,
    baseline: dict[str, Any],
    baseline_name: str,
    labels: dict[str, str],
    other_study: bool = False,
) -> list[Block]:
    """The executive summary's "changes since the baseline" text and table."""
    when = str(baseline.get("provenance", {}).get("time", "")).removesuffix("+00:00")
    source = f"the baseline report {baseline_name}" + (f" (written {when} UTC)" if when else "")
    if other_study:
        source += ", which shares no algorithm and no problem with this study"
    same = "the same algorithms, problems, ranks, verdicts and findings"
    if changes.empty:
        return [Text(f"Changes since {source}: none — {same}.")]

    def named(change: str, what: str) -> str | None:
        items = changes.loc[changes["change"] == change, "item"].tolist()
        if not items:
            return None
        return f"{what}: {', '.join(labels.get(i, i) for i in items)}"

    inputs = changes[changes["change"].isin(INPUT_CHANGES)]
    # Each file in words while they are few; counted when a source of many files (COCO
    # archives, CEC result files) changed, which the table and the CSV list one by one.
    files = (
        "; ".join(
            _input_words(*row)
            for row in inputs[["change", "item", "before", "after"]].itertuples(index=False)
        )
        if len(inputs) <= MAX_NAMED_INPUTS
        else "; ".join(
            p
            for p in (
                "the spec changed" if (inputs["change"] == "spec changed").any() else None,
                _counted(changes, "input changed", "input changed", "inputs changed"),
                _counted(changes, "input added", "input added", "inputs added"),
                _counted(changes, "input removed", "input removed", "inputs removed"),
            )
            if p
        )
    )
    parts = [
        files,
        named("algorithm added", "algorithms added"),
        named("algorithm removed", "algorithms removed"),
        _counted(changes, "problem added", "problem added", "problems added"),
        _counted(changes, "problem removed", "problem removed", "problems removed"),
        _counted(changes, "rank moved", "rank movement", "rank movements"),
        _counted(changes, "verdict flipped", "verdict flipped", "verdicts flipped"),
        _counted(changes, "finding new", "new finding", "new findings"),
        _counted(changes, "finding gone", "finding gone", "findings gone"),
        _counted(changes, "ranking added", "ranking added", "rankings added"),
        _counted(changes, "ranking removed", "ranking removed", "rankings removed"),
    ]
    shown = changes.head(MAX_SHOWN).copy()
    shown["item"] = [labels.get(i, i) for i in shown["item"]]
    more = "" if len(changes) <= MAX_SHOWN else f"; the first {MAX_SHOWN} of {len(changes)} shown"
    # The data alone changed: say that nothing the report concludes moved with it.
    rest = "" if len(inputs) < len(changes) else f"; otherwise none — {same}"
    return [
        Text(f"Changes since {source}: " + "; ".join(p for p in parts if p) + rest + "."),
        TableBlock(
            name="changes",
            caption=f"What changed since the baseline (all rows in tables/summary/changes.csv{more}).",
            frame=shown.fillna("").astype(str),
        ),
    ]
