"""``reportgen run --baseline``: what changed since the previous report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from scipy.stats import rankdata

from reportgen.changes import changes_blocks, compare_results
from reportgen.present.jsonable import RESULTS_FORMAT, format_problem
from reportgen.render.blocks import Text
from tests.conftest import ROOT, run_cli

QUICKSTART = ROOT / "example_studies" / "quickstart"


def _ranking(ranking_id: str, ranks: dict[str, float], verdicts: dict[str, str]) -> dict:
    return {"id": ranking_id, "label": ranking_id.upper(), "ranks": ranks, "verdicts": verdicts}


def test_compare_results_lists_every_kind_of_change():
    baseline = {
        "algorithms": ["A", "B", "C"],
        "problems": ["f1 (D=2)", "f2 (D=2)"],
        "summary": {
            "rankings": [
                _ranking("r", {"A": 1.0, "B": 2.0, "C": 3.0}, {"A": "best", "B": "not sig."}),
                _ranking("old", {"A": 1.0}, {}),
            ],
            "findings": [{"id": "first.A", "text": "A is first."}],
        },
        "analyses": {"x": {"findings": [{"id": "w", "text": "A wins."}]}},
    }
    current = {
        "algorithms": ["A", "B", "D"],
        "problems": ["f1 (D=2)", "f3 (D=2)"],
        "summary": {
            "rankings": [
                _ranking("r", {"B": 1.0, "A": 2.0, "D": 3.0}, {"B": "best", "A": "worse"}),
            ],
            "findings": [{"id": "first.B", "text": "B is first."}],
        },
        "analyses": {"x": {"findings": [{"id": "w", "text": "B wins."}]}},
    }
    expected = pd.DataFrame(
        [
            ("algorithm added", "", "D", "", ""),
            ("algorithm removed", "", "C", "", ""),
            ("problem added", "", "f3 (D=2)", "", ""),
            ("problem removed", "", "f2 (D=2)", "", ""),
            ("ranking removed", "OLD", "", "", ""),
            ("rank moved", "R", "B", "2", "1"),
            ("rank moved", "R", "A", "1", "2"),
            ("rank entered", "R", "D", "", "3"),
            ("verdict flipped", "R", "B", "not sig.", "best"),
            ("verdict flipped", "R", "A", "best", "worse"),
            ("finding new", "", "summary/first.B", "", "B is first."),
            ("finding gone", "", "summary/first.A", "A is first.", ""),
        ],
        columns=["change", "ranking", "item", "before", "after"],
    )
    pd.testing.assert_frame_equal(compare_results(baseline, current), expected)
    assert compare_results(current, current).empty


def test_rerun_with_one_algorithm_added(tmp_path: Path):
    """The quickstart without BIPOP-CMA-ES, then with it, compared by --baseline."""
    spec = (QUICKSTART / "study.yaml").read_text(encoding="utf-8")
    spec = spec.replace("path: data/", f"path: {QUICKSTART / 'data'}/").replace(
        "formats: [html, pdf]", "formats: [html]"
    )
    assert "formats: [html]" in spec and str(QUICKSTART) in spec
    without = "\n".join(line for line in spec.splitlines() if "BIPOP" not in line) + "\n"
    (tmp_path / "without.yaml").write_text(without, encoding="utf-8")
    (tmp_path / "full.yaml").write_text(spec, encoding="utf-8")
    out = tmp_path / "out"
    assert run_cli("run", str(tmp_path / "without.yaml"), "-o", str(out), "-q").code == 0
    before = json.loads((out / "results.json").read_text())
    assert "BIPOP-CMA-ES" not in before["algorithms"]
    # The baseline is the output folder itself: read before the new report replaces it.
    result = run_cli(
        "run", str(tmp_path / "full.yaml"), "-o", str(out), "-q", "--baseline", str(out)
    )
    assert result.code == 0, result.err
    after = json.loads((out / "results.json").read_text())
    changes = pd.read_csv(out / "tables" / "summary" / "changes.csv", keep_default_na=False)
    assert changes.loc[changes["change"].str.startswith("algorithm"), "item"].tolist() == [
        "BIPOP-CMA-ES"
    ]
    assert set(changes["change"]) <= {
        "spec changed",
        "algorithm added",
        "rank entered",
        "rank moved",
        "verdict flipped",
        "finding new",
        "finding gone",
    }
    # Rank movements, read off the two files: every algorithm of both runs whose rank among
    # the algorithms of both runs (ranked again without BIPOP-CMA-ES) differs.
    expected = set()
    entered = set()
    old = {r["id"]: r for r in before["summary"]["rankings"]}
    for ranking in after["summary"]["rankings"]:
        previous = old[ranking["id"]]["ranks"]
        common = [a for a in ranking["ranks"] if a in previous]
        now = dict(zip(common, rankdata([ranking["ranks"][a] for a in common]), strict=True))
        then = dict(zip(common, rankdata([previous[a] for a in common]), strict=True))
        for algorithm, rank in ranking["ranks"].items():
            if algorithm not in previous:
                entered.add((ranking["label"], algorithm, f"{rank:g}"))
            elif now[algorithm] != then[algorithm] and previous[algorithm] != rank:
                expected.add((ranking["label"], algorithm, f"{previous[algorithm]:g}", f"{rank:g}"))
    rows = changes[changes["change"] == "rank entered"]
    assert set(zip(rows["ranking"], rows["item"], rows["after"].astype(str), strict=True)) == (
        entered
    )
    assert {r[1] for r in entered} == {"BIPOP-CMA-ES"}
    moved = changes[changes["change"] == "rank moved"]
    assert (
        set(
            zip(
                moved["ranking"],
                moved["item"],
                moved["before"].astype(str),
                moved["after"].astype(str),
                strict=True,
            )
        )
        == expected
    )
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "algorithms added: BIPOP-CMA-ES" in html


def test_a_baseline_that_is_no_results_json_is_refused_before_the_analyses(tiny_study: Path):
    """--baseline was read after every analysis had run: a wrong file cost the whole study
    before its one-line error."""
    wrong = tiny_study.parent / "list.json"
    wrong.write_text("[1, 2]")
    result = run_cli("run", str(tiny_study), "--baseline", str(wrong))
    assert result.code == 1
    assert f"--baseline: {wrong} is not a reportgen results.json" in result.err
    assert "computing" not in result.err  # no analysis ran
    assert not (tiny_study.parent / "out").exists()


def test_an_edited_baseline_is_refused_naming_each_wrong_key(tiny_study: Path):
    """A results.json edited by hand (rankings a list of lists, a finding without its id,
    labels a list, algorithms null) ended the run in a Python traceback after every analysis
    had run (``'list' object has no attribute 'get'``); now each wrong key is named first."""
    assert run_cli("run", str(tiny_study), "-q").code == 0
    document = json.loads((tiny_study.parent / "out" / "results.json").read_text("utf-8"))
    document["algorithms"] = None
    document["labels"] = ["A"]
    document["summary"]["rankings"][0]["ranks"] = [1, 2]
    document["summary"]["findings"] = [{"text": "no id"}]
    document["analyses"] = {"u": "not an object"}
    edited = tiny_study.parent / "edited.json"
    edited.write_text(json.dumps(document), encoding="utf-8")

    result = run_cli(
        "run", str(tiny_study), "-o", str(tiny_study.parent / "new"), "--baseline", str(edited)
    )

    assert result.code == 1, result.err
    assert "Traceback" not in result.err
    for message in (
        "key algorithms: should be a list, not missing (or null)",
        "key labels: should be an object, not a list",
        "key summary.rankings[0].ranks: should be an object, not a list",
        "key summary.findings[0].id: should be a text, not missing (or null)",
        "key analyses.u: should be an object, not a text",
    ):
        assert f"--baseline: {edited}, {message}" in result.err
    assert "computing" not in result.err  # refused before the analyses ran
    assert not (tiny_study.parent / "new").exists()


def test_a_baseline_of_a_newer_results_format_is_refused_naming_its_writer(tiny_study: Path):
    """results.json says which layout it has (``reportgen.format``), but nothing read it: a
    baseline written by a newer reportgen, whose keys may mean something else, was compared
    as if it were this one's."""
    assert run_cli("run", str(tiny_study), "-q").code == 0
    document = json.loads((tiny_study.parent / "out" / "results.json").read_text("utf-8"))
    assert document["reportgen"]["format"] == RESULTS_FORMAT  # what this reportgen writes
    document["reportgen"] = {"version": "99.0", "format": RESULTS_FORMAT + 1}
    newer = tiny_study.parent / "newer.json"
    newer.write_text(json.dumps(document), encoding="utf-8")

    result = run_cli(
        "run", str(tiny_study), "-o", str(tiny_study.parent / "new"), "--baseline", str(newer)
    )

    assert result.code == 1, result.err
    assert (
        f"--baseline: {newer}, key reportgen.format: written by reportgen 99.0 in results "
        f"format {RESULTS_FORMAT + 1}; this reportgen reads format {RESULTS_FORMAT} or lower"
    ) in result.err
    assert "computing" not in result.err
    assert not (tiny_study.parent / "new").exists()
    # A newer format may have renamed the keys this reportgen reads: it said "not a reportgen
    # results.json" then, when upgrading reportgen was the answer.
    del document["summary"]
    newer.write_text(json.dumps(document), encoding="utf-8")
    renamed = run_cli("run", str(tiny_study), "-q", "--baseline", str(newer))
    assert renamed.code == 1
    assert "key reportgen.format: written by reportgen 99.0" in renamed.err
    # Of this format, the missing key is named.
    document["reportgen"]["format"] = RESULTS_FORMAT
    newer.write_text(json.dumps(document), encoding="utf-8")
    missing = run_cli("run", str(tiny_study), "-q", "--baseline", str(newer))
    assert f"--baseline: {newer} is not a reportgen results.json (it has no key 'summary')" in (
        missing.err
    )


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ({"reportgen": "1.0"}, "key reportgen: should be an object"),
        ({"reportgen": {"format": "1"}}, "key reportgen.format: should be a whole number from 1"),
        ({"reportgen": {"format": True}}, "key reportgen.format: should be a whole number from 1"),
        ({"reportgen": {"format": 0}}, "key reportgen.format: should be a whole number from 1"),
        ({"reportgen": {"format": 2**40}}, "written by a newer reportgen in results format"),
        ({"reportgen": {"format": 1}}, None),
        ({}, None),  # no block: edited by hand or written by another tool, read as it is
    ],
)
def test_format_problem(block: dict, message: str | None):
    found = format_problem(block)
    if message is None:
        assert found is None
    else:
        assert found is not None and message in found


def test_a_baseline_from_another_study_lists_what_differs(tiny_study: Path):
    """A baseline of other algorithms, problems and analysis ids is compared, not refused:
    every difference is a row of changes.csv."""
    baseline = json.loads(
        json.dumps(
            {
                "algorithms": ["X", "Y"],
                "problems": ["g1 (D=2)"],
                "labels": {"X": "Ex"},
                "summary": {"rankings": [{"id": "other", "label": "Other", "ranks": {"X": 1}}]},
                "analyses": {"elsewhere": {"findings": [{"id": "f", "text": "old finding"}]}},
            }
        )
    )
    file = tiny_study.parent / "other.json"
    file.write_text(json.dumps(baseline), encoding="utf-8")

    result = run_cli("run", str(tiny_study), "-q", "--baseline", str(file))

    assert result.code == 0, result.err
    changes = pd.read_csv(tiny_study.parent / "out" / "tables" / "summary" / "changes.csv")
    kinds = set(changes["change"])
    assert {"algorithm added", "algorithm removed", "problem removed", "ranking removed"} <= kinds
    assert {"finding gone"} <= kinds
    assert set(changes.loc[changes["change"] == "algorithm removed", "item"]) == {"X", "Y"}
    # ... but nothing in common at all is most likely the wrong file: a warning says so.
    assert "warning [baseline_other_study]: The baseline " in result.err
    html = (tiny_study.parent / "out" / "report.html").read_text(encoding="utf-8")
    assert "which shares no algorithm and no problem with this study" in html
    document = json.loads((tiny_study.parent / "out" / "results.json").read_text("utf-8"))
    assert "baseline_other_study" not in json.dumps(document["caveats"])


def test_a_supplement_zip_as_baseline_is_named_for_what_it_is(tiny_study: Path):
    """'--baseline out/supplement.zip' said "cannot read …: 'utf-8' codec can't decode byte
    0xf4", as if the file were damaged."""
    assert run_cli("run", str(tiny_study), "-q", "--bundle").code == 0
    archive = tiny_study.parent / "out" / "supplement.zip"
    result = run_cli("run", str(tiny_study), "-q", "--baseline", str(archive))
    assert result.code == 1
    assert f"--baseline: {archive} is not a reportgen results.json (not JSON: " in result.err
    assert "a supplement? give the report folder it was written to" in result.err
    assert "computing" not in result.err


def test_a_first_run_with_its_own_folder_as_baseline_writes_the_report_and_says_so(
    tiny_study: Path,
):
    """A weekly job runs 'reportgen run study.yaml --baseline out/': on its first run out/
    does not exist yet. That run writes the report, compared with nothing, and warns
    (baseline_missing); the next run compares. A baseline that is not the output folder and
    does not exist stays an error (a mistyped path)."""
    out = tiny_study.parent / "out"
    first = run_cli("run", str(tiny_study), "-o", str(out), "--baseline", str(out))
    assert first.code == 0, first.err
    assert "warning [baseline_missing]" in first.err and (out / "results.json").exists()
    assert not (out / "tables" / "summary" / "changes.csv").exists()
    second = run_cli("run", str(tiny_study), "-o", str(out), "--baseline", str(out))
    assert second.code == 0 and "baseline_missing" not in second.err
    assert (out / "tables" / "summary" / "changes.csv").exists()
    # Under --strict too (docs/warnings.md): the first run of a strict weekly job succeeds,
    # and acknowledging the code silences it under --quiet.
    shutil.rmtree(out)
    strict = run_cli("run", str(tiny_study), "--strict", "-q", "--baseline", str(out))
    assert strict.code == 0 and "warning [baseline_missing]" in strict.err
    tiny_study.write_text(tiny_study.read_text() + "accept: [baseline_missing]\n")
    shutil.rmtree(out)
    quiet = run_cli("run", str(tiny_study), "--strict", "-q", "--baseline", str(out))
    assert quiet.code == 0 and quiet.err == "" and (out / "results.json").exists()
    typo = run_cli("run", str(tiny_study), "-o", str(out), "--baseline", str(out) + "x")
    assert typo.code == 1 and "does not exist" in typo.err


def test_an_algorithm_added_ahead_of_the_others_moves_none_of_them():
    """NewOpt entering first by accuracy listed every other algorithm as "rank moved" (1 → 2,
    2 → 3, …: 17 movements in a weekly report where the others' order had not changed). Now
    only a change of place among the algorithms of both runs is a movement, and the new
    algorithm's rank is its own row."""
    baseline = {
        "algorithms": ["A", "B", "C"],
        "summary": {"rankings": [_ranking("r", {"A": 1.0, "B": 2.0, "C": 3.0}, {})]},
    }
    ahead = {
        "algorithms": ["A", "B", "C", "N"],
        "summary": {"rankings": [_ranking("r", {"N": 1.0, "A": 2.0, "B": 3.0, "C": 4.0}, {})]},
    }
    changes = compare_results(baseline, ahead)
    assert changes.values.tolist() == [
        ["algorithm added", "", "N", "", ""],
        ["rank entered", "R", "N", "", "1"],
    ]
    # B overtakes A while N enters between them: A and B moved, C (last of three) did not.
    swapped = {
        "algorithms": ["A", "B", "C", "N"],
        "summary": {"rankings": [_ranking("r", {"B": 1.0, "N": 2.0, "A": 3.0, "C": 4.0}, {})]},
    }
    moved = compare_results(baseline, swapped)
    assert moved.loc[
        moved["change"] == "rank moved", ["item", "before", "after"]
    ].values.tolist() == [
        ["B", "2", "1"],
        ["A", "1", "3"],
    ]
    # B overtakes A as N enters first: B stays 2 as printed, and A's row says it all.
    overtaken = {
        "algorithms": ["A", "B", "C", "N"],
        "summary": {"rankings": [_ranking("r", {"N": 1.0, "B": 2.0, "A": 3.0, "C": 4.0}, {})]},
    }
    moved = compare_results(baseline, overtaken)
    assert moved.loc[
        moved["change"] == "rank moved", ["item", "before", "after"]
    ].values.tolist() == [["A", "1", "3"]]
    # A removed algorithm shifts the others up: no movement either; a tie made is one.
    removed = {
        "algorithms": ["B", "C"],
        "summary": {"rankings": [_ranking("r", {"B": 1.0, "C": 2.0}, {})]},
    }
    assert compare_results(baseline, removed)["change"].tolist() == ["algorithm removed"]
    tied = {
        "algorithms": ["B", "C"],
        "summary": {"rankings": [_ranking("r", {"B": 1.5, "C": 1.5}, {})]},
    }
    assert compare_results(baseline, tied)["change"].tolist() == [
        "algorithm removed",
        "rank moved",
        "rank moved",
    ]


def _inputs(spec_hash: str, *files: tuple[str, str, int, str]) -> dict:
    return {
        "spec": {"path": "study.yaml", "sha256": spec_hash},
        "inputs": [{"source": s, "file": f, "rows": n, "sha256": h} for s, f, n, h in files],
    }


def test_changed_data_is_listed_from_the_provenance_hashes():
    document = {"algorithms": ["A"], "summary": {"rankings": []}}
    baseline = document | {
        "provenance": _inputs("s1", ("runs", "a.csv", 10, "h1"), ("runs", "old.csv", 3, "h2"))
    }
    current = document | {
        "provenance": _inputs("s2", ("runs", "a.csv", 12, "h3"), ("runs", "new.csv", 4, "h4"))
    }
    assert compare_results(baseline, current).values.tolist() == [
        ["spec changed", "", "study.yaml", "", ""],
        ["input changed", "", "runs: a.csv", "10 rows", "12 rows"],
        ["input added", "", "runs: new.csv", "", "4 rows"],
        ["input removed", "", "runs: old.csv", "3 rows", ""],
    ]
    assert compare_results(baseline, baseline).empty


def test_a_weekly_run_on_changed_data_says_the_data_changed(tiny_study: Path):
    """The department's job, week after week: one value of the data changes and nothing the
    report concludes moves. The changes said "none — the same algorithms, problems, ranks,
    verdicts and findings", as if the report were last week's; now they name the file."""
    out = tiny_study.parent / "out"
    assert run_cli("run", str(tiny_study), "-q", "--baseline", str(out)).code == 0
    data = tiny_study.parent / "data" / "h.csv"
    data.write_text(data.read_text().replace("B,f2,2,2,2,1\n", "B,f2,2,2,2,0.9\n"))
    result = run_cli("run", str(tiny_study), "-q", "--baseline", str(out))
    assert result.code == 0, result.err
    changes = pd.read_csv(out / "tables" / "summary" / "changes.csv", keep_default_na=False)
    assert changes.values.tolist() == [
        ["input changed", "", "curves: data/h.csv", "16 rows", "16 rows"]
    ]
    html = (out / "report.html").read_text(encoding="utf-8")
    assert (
        "the input curves: data/h.csv changed (still 16 rows); otherwise none — the same "
        "algorithms, problems, ranks, verdicts and findings." in html
    )
    # The same data again: nothing changed at all.
    assert run_cli("run", str(tiny_study), "-q", "--baseline", str(out)).code == 0
    assert pd.read_csv(out / "tables" / "summary" / "changes.csv").empty


def test_many_changed_inputs_are_counted_in_the_sentence():
    """A source of many files (COCO archives) named every file in the summary's sentence."""
    document = {"algorithms": ["A"], "summary": {"rankings": []}}
    files = [("runs", f"a{i}.csv", 10, "h") for i in range(6)]
    baseline = document | {"provenance": _inputs("s1", *files)}
    changed = [(s, f, n + 1, "x") for s, f, n, _ in files[:5]] + [("runs", "b.csv", 2, "y")]
    current = document | {"provenance": _inputs("s2", *changed)}
    changes = compare_results(baseline, current)
    assert changes["change"].value_counts().to_dict() == {
        "input changed": 5,
        "spec changed": 1,
        "input added": 1,
        "input removed": 1,
    }
    text = changes_blocks(changes, baseline, "out/", {})[0]
    assert isinstance(text, Text)
    assert text.text == (
        "Changes since the baseline report out/: the spec changed; 5 inputs changed; 1 input "
        "added; 1 input removed; otherwise none — the same algorithms, problems, ranks, "
        "verdicts and findings."
    )
    few = changes_blocks(changes.iloc[:3], baseline, "out/", {})[0]
    assert isinstance(few, Text)
    assert "the spec study.yaml changed; the input runs: a0.csv changed (10 rows → 11 rows)" in (
        few.text
    )
