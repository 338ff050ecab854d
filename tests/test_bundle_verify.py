"""The supplement bundle reruns itself, and ``reportgen verify`` says whether it reproduces.

The acceptance test of the bundle: a study whose data lives in a sibling folder, in a folder
named by absolute path, and in IOHprofiler format (``.json`` + ``.dat``) is bundled, unpacked
elsewhere and verified; one changed data value makes the verification fail, naming the numbers
it moved.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import zipfile
from pathlib import Path, PurePosixPath

import pytest
import yaml

from reportgen.present.jsonable import JSON_LIST_LIMIT
from reportgen.verify import compare_documents, compare_tables
from tests.conftest import run_cli, write, write_histories_per_algorithm

IOH_FIXTURES = Path(__file__).parent / "data" / "fixtures" / "ioh"


@pytest.fixture
def bundled(tmp_path: Path) -> tuple[Path, Path]:
    """(supplement.zip, the author's folder): a study read from three kinds of places."""
    author = tmp_path / "author"
    write_histories_per_algorithm(author / "sibling")  # sibling/data/a.csv, sibling/data/b.csv
    elsewhere = author / "elsewhere"
    elsewhere.mkdir()
    shutil.move(author / "sibling" / "data" / "b.csv", elsewhere / "b.csv")
    shutil.copytree(IOH_FIXTURES, author / "study" / "logs")
    spec = write(
        author / "study",
        "study.yaml",
        f"""
        study:
          title: Bundle test
          authors: [Tester]
        minimize: true
        data:
          curves:
            paths: [../sibling/data/a.csv, {elsewhere / "b.csv"}]
            format: histories
            columns: {{dimension: dim, evaluations: evals}}
          logs:
            path: logs
            format: ioh
        analyses:
          - kind: performance_profiles
            data: curves
            tolerances: [1e-1, 1e-3]  # numbers to the spec (YAML 1.2), and to the bundle's copy
          - kind: performance_profiles
            id: logs_profiles
            data: logs
            tolerances: [0.1, 0.001]
        report:
          output: out
          formats: [html]
        """,
    )
    result = run_cli("run", str(spec), "--bundle", "--quiet")
    assert result.code == 0, result.err
    return author / "study" / "out" / "supplement.zip", author


def _unzip(archive: Path, folder: Path) -> Path:
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(folder)
    return folder


def test_bundle_holds_every_input_once_under_safe_names(bundled, tmp_path):
    archive, author = bundled
    with zipfile.ZipFile(archive) as zipped:
        names = zipped.namelist()
    assert len(names) == len(set(names))
    assert all(not n.startswith("/") and ".." not in PurePosixPath(n).parts for n in names)
    inputs = sorted(n for n in names if n.startswith("study/inputs/"))
    ioh_files = sorted(
        p.relative_to(IOH_FIXTURES).as_posix() for p in IOH_FIXTURES.rglob("*") if p.is_file()
    )
    assert inputs == sorted(
        ["study/inputs/data/a.csv", "study/inputs/elsewhere/b.csv"]
        + [f"study/inputs/logs/{f}" for f in ioh_files]
    )
    assert sum(f.endswith(".dat") for f in ioh_files) == 8  # 2 algorithms × 2 functions × 2 dims
    folder = _unzip(archive, tmp_path / "reader")
    # No path of the author's machine in the spec, the manifest, the README or results.json.
    for name in (
        "study/study.yaml",
        "INPUTS.sha256",
        "README.txt",
        "report/results.json",
        "report/report.html",
    ):
        assert str(author) not in (folder / name).read_text(encoding="utf-8"), name
    spec = (folder / "study" / "study.yaml").read_text(encoding="utf-8")
    assert "paths: [inputs/data/a.csv, inputs/elsewhere/b.csv]" in spec
    assert "reportgen run study/study.yaml" in (folder / "README.txt").read_text()
    # INPUTS.sha256 is sha256sum's format, relative to the bundle's top folder.
    lines = (folder / "INPUTS.sha256").read_text().splitlines()
    assert len(lines) == 1 + len(inputs)
    for line in lines:
        digest, name = line.split("  ")
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest


def test_ioh_dat_files_are_hashed_in_the_provenance(bundled):
    archive, _ = bundled
    results = json.loads((archive.parent / "results.json").read_text())
    files = [f["file"] for f in results["provenance"]["inputs"] if f["source"] == "logs"]
    dat = "logs/OnePlusOne/data_f1_Sphere/IOHprofiler_f1_DIM2.dat"
    assert dat in files and "logs/OnePlusOne/IOHprofiler_f1_Sphere.json" in files
    assert len(files) == 12  # 4 .json + 8 .dat
    expected = hashlib.sha256((archive.parents[1] / dat).read_bytes()).hexdigest()
    assert {f["file"]: f["sha256"] for f in results["provenance"]["inputs"]}[dat] == expected


def test_verify_reproduces_then_fails_on_a_changed_value(bundled, tmp_path):
    archive, _ = bundled
    moved = tmp_path / "reviewer" / "supplement.zip"
    moved.parent.mkdir()
    shutil.copy(archive, moved)
    ok = run_cli("verify", str(moved), "--quiet")
    assert ok.code == 0, ok.out + ok.err
    assert ok.out.startswith("all ") and "numbers reproduce" in ok.out
    # The hash check is named when it passed too (the reviewer could not tell it ran): the
    # spec and every input file, as many as the manifest lists.
    listed = _unzip(moved, tmp_path / "listed") / "INPUTS.sha256"
    files = len(listed.read_text(encoding="utf-8").splitlines())
    assert ok.out.startswith(f"all {files} files of INPUTS.sha256 match; all "), ok.out

    folder = _unzip(moved, tmp_path / "reviewer" / "unpacked")
    assert run_cli("verify", str(folder), "-q").code == 0
    # A changed number in the bundled results.json fails too, named by its path.
    bundled = folder / "report" / "results.json"
    original = bundled.read_text(encoding="utf-8")
    document = json.loads(original)
    document["analyses"]["logs_profiles"]["result"]["n_problems"] += 1
    bundled.write_text(json.dumps(document), encoding="utf-8")
    tampered = run_cli("verify", str(folder), "-q")
    assert tampered.code == 1
    # Named with its kind: the id alone does not say which method differs.
    assert (
        "  analyses.logs_profiles (performance_profiles).result.n_problems: bundled 5, rerun 4"
        in tampered.out
    )
    bundled.write_text(original, encoding="utf-8")
    data = folder / "study" / "inputs" / "data" / "a.csv"
    # A's run 1 on f1 ends at 1 → 0.5: A's mean final value on f1 becomes (0.5 + 2) / 2 = 1.25.
    data.write_text(data.read_text().replace("A,f1,2,1,5,1\n", "A,f1,2,1,5,0.5\n"))
    failed = run_cli("verify", str(folder), "-q")
    assert failed.code == 1
    lines = failed.out.splitlines()
    assert lines[0] == (
        "input hash check failed: study/inputs/data/a.csv: SHA-256 differs from INPUTS.sha256 "
        "(the file was changed)"
    )
    listed = [line.strip() for line in lines[2:]]
    assert (
        "analyses.performance_profiles.result.problems[problem=f1, dimension=2].best_mean: "
        "bundled 1.5, rerun 1.25" in (listed)
    )
    # The IOHprofiler analysis did not read the changed file: none of its numbers moved.
    assert listed and not any(line.startswith("analyses.logs_profiles") for line in listed)


def test_an_input_changed_while_the_report_is_written_is_refused_not_bundled(tiny_study):
    """A data file rewritten after the study read it (an export still running) was bundled
    as it then was: the supplement's hashes matched its files, and its rerun gave other
    numbers than its results.json (30 of 415 values), as if the author's were wrong."""
    from reportgen.errors import InputError
    from reportgen.pipeline import run_study

    data = tiny_study.parent / "data" / "h.csv"

    def rewrite(message: str) -> None:
        if message.startswith("writing supplement.zip"):
            data.write_text(data.read_text().replace("A,f1,2,1,5,1\n", "A,f1,2,1,5,0.5\n"))

    with pytest.raises(InputError) as raised:
        run_study(tiny_study, bundle=True, progress=rewrite)
    assert [p.where for p in raised.value.problems] == ["data/h.csv"]
    assert "changed while the report was being written" in str(raised.value)
    assert not (tiny_study.parent / "out").exists()  # no report, rather than a wrong one


def test_a_file_added_to_a_bundled_folder_fails_the_hash_check(bundled, tmp_path):
    """A bundled IOHprofiler folder is read whole by the rerun, but the hash check only read
    the files INPUTS.sha256 lists: an algorithm's logs copied into it passed that check and
    changed the study, so the reviewer saw numbers move with no input named as changed."""
    archive, _ = bundled
    folder = _unzip(archive, tmp_path / "unpacked")
    logs = folder / "study" / "inputs" / "logs"
    shutil.copytree(logs / "OnePlusOne", logs / "Copied")

    result = run_cli("verify", str(folder), "-q")

    assert result.code == 1
    first = result.out.splitlines()[0]
    assert first.startswith("input hash check failed: study/inputs/logs/Copied/")
    assert "in the bundle's inputs but not listed in INPUTS.sha256 (added since)" in first
    assert "study/inputs/logs/OnePlusOne/" not in result.out  # the listed files still match


def test_verify_names_the_package_versions_that_differ_from_the_authors(bundled, tmp_path):
    """A reviewer whose numbers did not reproduce was not told that the supplement had been
    written with other versions of reportgen or numpy — the first cause to rule out — though
    its provenance records them."""
    archive, _ = bundled
    folder = _unzip(archive, tmp_path / "unpacked")
    report = folder / "report" / "results.json"
    document = json.loads(report.read_text(encoding="utf-8"))
    installed = dict(document["provenance"]["packages"])
    assert run_cli("verify", str(folder), "-q").out.count("\n") == 1  # same versions: one line
    document["provenance"]["packages"] |= {"numpy": "1.0.0", "scipy": "0.1"}
    report.write_text(json.dumps(document), encoding="utf-8")
    same = run_cli("verify", str(folder), "-q")
    assert same.code == 0
    assert same.out.splitlines()[1] == (
        "the supplement was written with numpy 1.0.0, scipy 0.1; this rerun used "
        f"numpy {installed['numpy']}, scipy {installed['scipy']}"
    )
    document["analyses"]["logs_profiles"]["result"]["n_problems"] += 1
    report.write_text(json.dumps(document), encoding="utf-8")
    differs = run_cli("verify", str(folder), "-q")
    assert differs.code == 1
    assert differs.out.splitlines()[-1].endswith(
        f"scipy {installed['scipy']} (a cause to rule out first)"
    )


def test_a_changed_spec_that_no_longer_runs_is_reported_as_changed_first(bundled, tmp_path):
    """The hash check's findings were lost when the rerun failed: a reviewer saw a YAML
    error in the bundled spec, not that the spec had been changed since it was bundled."""
    archive, _ = bundled
    folder = _unzip(archive, tmp_path / "unpacked")
    spec = folder / "study" / "study.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + "garbage: [\n", encoding="utf-8")
    result = run_cli("verify", str(folder), "-q")
    assert result.code == 1
    problems = [line.strip() for line in result.err.splitlines() if line.startswith("  - ")]
    assert problems[0] == (
        "- study/study.yaml: SHA-256 differs from INPUTS.sha256 (the file was changed)"
    )
    assert "YAML syntax error" in problems[1]
    # Named from the bundle's top folder, as the hash check names it (it said 'study.yaml:…').
    assert problems[1].startswith("- study/study.yaml:")


def test_a_bad_input_row_of_a_rerun_is_named_from_the_bundles_top_folder(bundled, tmp_path):
    """The reviewer read 'study/inputs/data/a.csv: SHA-256 differs' and then
    'inputs/data/a.csv, row 2 (line 3): …' — a path found nowhere in the supplement."""
    archive, _ = bundled
    folder = _unzip(archive, tmp_path / "unpacked")
    data = folder / "study" / "inputs" / "data" / "a.csv"
    data.write_text(data.read_text().replace("A,f1,2,1,5,1\n", "A,f1,2,1,5,11\n"))
    result = run_cli("verify", str(folder), "-q")
    assert result.code == 1
    problems = [line.strip() for line in result.err.splitlines() if line.startswith("  - ")]
    assert problems[0].startswith("- study/inputs/data/a.csv: SHA-256 differs")
    assert problems[1].startswith("- study/inputs/data/a.csv, row 2 (line 3)"), problems
    assert (folder / problems[1].split(",")[0].removeprefix("- ")).is_file()


def test_verify_refuses_zip_slip_members(tmp_path):
    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as zipped:
        zipped.writestr("INPUTS.sha256", "")
        zipped.writestr("../outside.txt", "x")
    result = run_cli("verify", str(evil), "-q")
    assert result.code == 1
    assert "refusing member '../outside.txt': a '..' component" in result.err
    assert not (tmp_path.parent / "outside.txt").exists()


def test_compare_documents_tolerances():
    bundled = {"a": 3, "b": [1.0, "inf", "x"], "provenance": {"time": "t1"}}
    assert compare_documents(bundled, {**bundled, "provenance": {"time": "t2"}}) == (3, 1, [])
    # floats: 1e-9 relative by default; integers exact.
    near = {"a": 3, "b": [1.0 + 5e-10, "inf", "x"]}
    assert compare_documents(bundled, near)[2] == []
    far = {"a": 4, "b": [1.0 + 2e-9, "inf", "y"], "c": 1}
    assert [d.path for d in compare_documents(bundled, far)[2]] == ["a", "b[0]", "b[2]", "c"]
    assert [d.path for d in compare_documents(bundled, far, rtol=0.5)[2]] == ["b[2]", "c"]


def test_differences_are_named_by_what_their_row_is():
    """A moved p-value was listed as ``analyses.problem_table.result.cells[14].p_value``:
    the reviewer had to count list items in results.json to learn which algorithm, problem
    and dimension it was. Rows are named by their identifying keys now; the position stays
    where the keys repeat, and in ``path`` for machines."""
    cells = [
        {"algorithm": a, "problem": p, "dimension": 10, "p_value": 0.5, "marker": "+"}
        for a in ("f_x", "B, C")
        for p in ("f1", "01")
    ]
    bundled = {
        "algorithms": ["f_x", "B, C"],
        "analyses": {"pt": {"kind": "problem_table", "result": {"cells": cells}}},
        "summary": {"findings": [{"text": "a"}, {"text": "b"}], "rows": [{"id": "x"}] * 2},
    }
    rerun = json.loads(json.dumps(bundled))
    rerun["analyses"]["pt"]["result"]["cells"][3]["p_value"] = 0.25
    rerun["analyses"]["pt"]["result"]["cells"][1]["marker"] = "-"
    rerun["summary"]["findings"][1]["text"] = "c"
    rerun["summary"]["rows"][1]["id"] = "y"
    differences = compare_documents(bundled, rerun)[2]
    assert [str(d) for d in differences] == [
        "analyses.pt (problem_table).result.cells[algorithm=f_x, problem=01, dimension=10]"
        '.marker: bundled "+", rerun "-"',
        'analyses.pt (problem_table).result.cells[algorithm="B, C", problem=01, dimension=10]'
        ".p_value: bundled 0.5, rerun 0.25",
        'summary.findings[1].text: bundled "b", rerun "c"',
        'summary.rows[#1: id=x].id: bundled "x", rerun "y"',
    ]
    assert [d.path for d in differences] == [
        "analyses.pt.result.cells[1].marker",
        "analyses.pt.result.cells[3].p_value",
        "summary.findings[1].text",
        "summary.rows[1].id",
    ]


def _bundled_trials(tmp_path: Path, rows: list[str], analyses: str) -> Path:
    """The unpacked supplement of a trials study of ``rows`` (CSV lines, no header)."""
    header = "algorithm,problem,dimension,run,value,evaluations_used,evaluations_to_target"
    write(tmp_path / "study", "data/t.csv", "\n".join([header, *rows]) + "\n")
    spec = write(
        tmp_path / "study",
        "study.yaml",
        f"""
        study: {{title: Verify, authors: [Tester]}}
        minimize: true
        data:
          runs: {{path: data/t.csv, format: trials}}
        analyses: {analyses}
        summary: {{resamples: 100}}
        report: {{output: out, formats: [html]}}
        """,
    )
    result = run_cli("run", str(spec), "--bundle", "--quiet")
    assert result.code == 0, result.err
    return _unzip(spec.parent / "out" / "supplement.zip", tmp_path / "reviewer")


def test_verify_reads_renamed_keys_of_an_older_supplement(tmp_path):
    """A supplement written before ``input_format`` was the one name of the layout read (README:
    ``data_format`` for U-scores, ``source_format`` for significance relations) verifies; a
    changed value under the old name still fails, named by the current key."""
    rows = [
        f"A{a},f{p},10,{r},{1.0 + a + 0.1 * r + p},1000,{100 * (a + 1)}"
        for a in range(3)
        for p in (1, 2)
        for r in (1, 2, 3)
    ]
    folder = _bundled_trials(
        tmp_path,
        rows,
        "[{kind: u_scores, data: runs, target: 1.0e-8}, {kind: significance_relation, data: runs}]",
    )
    bundled = folder / "report" / "results.json"
    document = json.loads(bundled.read_text(encoding="utf-8"))
    u_scores = document["analyses"]["u_scores"]["result"]
    relation = document["analyses"]["significance_relation"]["result"]
    assert u_scores["parameters"]["input_format"] == relation["input_format"] == "trials"
    # Written as the older reportgen wrote it.
    u_scores["parameters"]["data_format"] = u_scores["parameters"].pop("input_format")
    relation["source_format"] = relation.pop("input_format")
    bundled.write_text(json.dumps(document), encoding="utf-8")
    old = run_cli("verify", str(folder), "-q")
    assert old.code == 0, old.out + old.err
    relation["source_format"] = "summary"
    bundled.write_text(json.dumps(document), encoding="utf-8")
    changed = run_cli("verify", str(folder), "-q")
    assert changed.code == 1
    assert changed.out.splitlines()[1] == (
        '  analyses.significance_relation.result.input_format: bundled "summary", rerun "trials"'
    )
    assert changed.out.splitlines()[2].startswith("all ")  # the tables reproduce


def test_verify_compares_the_lists_results_json_cuts_in_full(tmp_path):
    """results.json keeps the first JSON_LIST_LIMIT entries of a longer list (U-scores' pairwise
    table of 70 algorithms on 2 problems: 2 × 70 · 69 / 2 = 4 830 pairs); verify compares the
    bundled CSV tables in full, so a difference in a dropped entry fails, named by its cell."""
    rows = [
        f"alg{a:02d},f{p},10,{r},{1.0 + a + 0.01 * ((a * 7 + r * 3 + p) % 5)},1000,{100 + a}"
        for a in range(70)
        for p in (1, 2)
        for r in (1, 2, 3)
    ]
    folder = _bundled_trials(tmp_path, rows, "[{kind: u_scores, data: runs, target: 1.0e-8}]")
    document = json.loads((folder / "report" / "results.json").read_text(encoding="utf-8"))
    path = "analyses.u_scores.result.tables.pairwise"
    assert document["truncated"][path] == {"kept": JSON_LIST_LIMIT, "total": 4830}
    ok = run_cli("verify", str(folder), "-q")
    assert ok.code == 0, ok.out + ok.err
    table = folder / "report" / "tables" / "u_scores" / "pairwise.csv"
    lines = table.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + 4830
    header = lines[0].split(",")
    # Row 3000, far beyond the entries results.json keeps: one pair's p-value changed.
    row = lines[3000].split(",")
    p_value = header.index("p_value")
    original = row[p_value]
    row[p_value] = "0.123"
    lines[3000] = ",".join(row)
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    changed = run_cli("verify", str(folder), "-q")
    assert changed.code == 1
    out = changed.out.splitlines()
    assert out[0].startswith("all ") and out[0].endswith("other values of results.json)")
    assert out[1].startswith("1 of ") and out[1].endswith(" tables do not reproduce:")
    assert out[2:] == [
        '  tables/u_scores/pairwise.csv, row 3000 (group="D=10", algorithm_a=alg08, '
        "algorithm_b=alg69, problem=f2, dimension=10), column 'p_value': bundled \"0.123\", "
        f'rerun "{original}"'
    ]
    # A dropped row is named too.
    table.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    shorter = run_cli("verify", str(folder), "-q")
    assert "  tables/u_scores/pairwise.csv, rows: bundled 4829, rerun 4830" in shorter.out


def test_compare_tables_tolerances_and_tables_on_one_side(tmp_path):
    import pandas as pd

    bundled = tmp_path / "tables"
    (bundled / "a").mkdir(parents=True)
    (bundled / "a" / "t.csv").write_text("name,x,n\nA,1.0,3\nB,inf,4\nC,,5\n")
    (bundled / "a" / "old.csv").write_text("x\n1\n")
    (bundled / "summary").mkdir()
    (bundled / "summary" / "changes.csv").write_text("change\nrank moved\n")  # not compared
    frame = pd.DataFrame(
        {"name": ["A", "B", "C"], "x": [1.0 + 5e-10, float("inf"), None], "n": [3, 4, 5]}
    )
    tables, cells, differences = compare_tables(bundled, {"a/t": frame}, tmp_path / "scratch")
    assert (tables, cells) == (1, 9)
    assert [str(d) for d in differences] == ["tables/a/old.csv: bundled (present), rerun (absent)"]
    far = frame.assign(x=[1.0 + 2e-9, float("inf"), None], n=[3, 4, 6])
    differences = compare_tables(bundled, {"a/t": far}, tmp_path / "scratch")[2]
    assert [str(d) for d in differences][1:] == [
        'tables/a/t.csv, row 1, column \'x\': bundled "1.0", rerun "1.000000002"',
        'tables/a/t.csv, row 3, column \'n\': bundled "5", rerun "6"',
    ]
    # With the analyses' kinds, a table of an analysis is named with its kind (the id alone
    # does not say which method differs); a summary table, or an id that is its kind, is not.
    kinds = {"a": "u_scores", "summary": "summary"}
    named = compare_tables(bundled, {"a/t": far}, tmp_path / "scratch", kinds=kinds)[2]
    assert [str(d) for d in named] == [
        "tables/a/old.csv (u_scores): bundled (present), rerun (absent)",
        'tables/a/t.csv (u_scores), row 1, column \'x\': bundled "1.0", rerun "1.000000002"',
        'tables/a/t.csv (u_scores), row 3, column \'n\': bundled "5", rerun "6"',
    ]
    assert [d.path for d in named] == [d.path for d in differences]
    loose = compare_tables(bundled, {"a/t": far}, tmp_path / "scratch", rtol=1e-6)[2]
    assert [d.path for d in loose][1:] == ["tables/a/t.csv, row 3, column 'n'"]
    # A row is named by its identifying columns too: a reviewer need not count rows.
    keyed = frame.rename(columns={"name": "algorithm"})
    (bundled / "a" / "t.csv").write_text("algorithm,x,n\nA,1.0,3\nB,inf,4\nC,,5\n")
    differences = compare_tables(bundled, {"a/t": keyed.assign(n=[3, 4, 6])}, tmp_path / "s")[2]
    assert [str(d) for d in differences][1:] == [
        'tables/a/t.csv, row 3 (algorithm=C), column \'n\': bundled "5", rerun "6"'
    ]


def _rezipped(folder: Path, archive: Path) -> Path:
    """``folder`` (an unpacked supplement) zipped again as ``archive``."""
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zipped.write(path, path.relative_to(folder).as_posix())
    return archive


@pytest.mark.parametrize(
    ("results_json", "message"),
    [
        (b"{not json", "report/results.json: not a JSON document: Expecting property name"),
        (b"[1, 2]", "report/results.json: not a reportgen results.json (not a JSON object)"),
        (b"\xff\xfe{}", "report/results.json: not a JSON document: 'utf-8' codec"),
        (
            b'{"reportgen": {"version": "99.0", "format": 99}, "summary": {}}',
            "report/results.json: key reportgen.format: written by reportgen 99.0 in results "
            "format 99; this reportgen reads format 1 or lower: upgrade reportgen to read it",
        ),
    ],
)
def test_verify_of_a_corrupt_results_json_names_it(tmp_path, results_json, message):
    """A bundle whose report/results.json is no JSON object ended verify in a Python traceback
    (JSONDecodeError; 'list' object has no attribute 'items')."""
    folder = _bundled_trials(
        tmp_path,
        ["A,f1,10,1,1.0,10,5", "B,f1,10,1,2.0,10,7"],
        "[{kind: problem_table, data: runs}]",
    )
    (folder / "report" / "results.json").write_bytes(results_json)
    archive = _rezipped(folder, tmp_path / "tampered.zip")

    result = run_cli("verify", str(archive), "-q")

    assert result.code == 1, result.err
    assert "Traceback" not in result.err
    assert f"{archive}, {message}" in result.err


def test_verify_names_the_zip_not_its_temporary_folder_and_survives_binary_files(tmp_path):
    """Problems inside an unpacked zip named the temporary folder it was unpacked into (gone
    when the message is read); a manifest or table that is no UTF-8 text ended verify in a
    traceback (UnicodeDecodeError). Now the zip is named, the manifest fails the hash check and
    the table's cells are listed as differences."""
    folder = _bundled_trials(
        tmp_path,
        ["A,f1,10,1,1.0,10,5", "B,f1,10,1,2.0,10,7"],
        "[{kind: problem_table, data: runs}]",
    )
    write(folder / "study", "second.yaml", "study: {title: other}\n")
    two_specs = _rezipped(folder, tmp_path / "two-specs.zip")
    (folder / "study" / "second.yaml").unlink()
    table = next((folder / "report" / "tables" / "problem_table").glob("*.csv"))
    table.write_bytes(b"\xff\xfe,\n1\n")
    (folder / "INPUTS.sha256").write_bytes(b"\xff\xfe garbage\n")
    binary = _rezipped(folder, tmp_path / "binary.zip")
    shutil.rmtree(folder / "report")
    (folder / "INPUTS.sha256").unlink()
    no_manifest = _rezipped(folder, tmp_path / "no-manifest.zip")

    specs = run_cli("verify", str(two_specs), "-q")
    assert specs.code == 1
    assert f"{two_specs}, study/: expected exactly one study spec (.yaml); found " in specs.err
    assert "reportgen-verify-" not in specs.err
    missing = run_cli("verify", str(no_manifest), "-q")
    assert missing.code == 1
    assert f"{no_manifest}: not a reportgen supplement: no INPUTS.sha256" in missing.err
    assert "reportgen-verify-" not in missing.err

    changed = run_cli("verify", str(binary), "-q")
    assert changed.code == 1, changed.err
    assert "Traceback" not in changed.err
    assert "input hash check failed: INPUTS.sha256: not a sha256sum listing" in changed.out
    assert f"tables/problem_table/{table.name}, columns: bundled" in changed.out


def test_verify_of_the_report_folder_points_at_its_supplement(bundled):
    """'reportgen verify out/' (the report folder, which holds supplement.zip) said "write one
    with reportgen run --bundle", as if there were none."""
    archive, _ = bundled
    result = run_cli("verify", str(archive.parent), "-q")
    assert result.code == 1
    assert (
        f"{archive.parent}: not a reportgen supplement: no INPUTS.sha256 (verify {archive}, the "
        "supplement of this report)"
    ) in result.err


def test_verify_reruns_in_this_process_whatever_scheduler_the_author_used(tmp_path):
    """A supplement written on the author's Dask cluster ('scheduler: tcp://…') could not be
    verified anywhere else: the rerun tried to reach that scheduler and failed ('cannot reach
    the Dask scheduler'), though the executor changes no number. The rerun is now local."""
    folder = _bundled_trials(
        tmp_path,
        ["A,f1,10,1,1.0,10,5", "B,f1,10,1,2.0,10,7"],
        "[{kind: problem_table, data: runs}]",
    )
    spec = folder / "study" / "study.yaml"
    spec.write_text(
        spec.read_text(encoding="utf-8")
        + "execution: {engine: dask, scheduler: 'tcp://127.0.0.1:9'}\n",
        encoding="utf-8",
    )
    digest = hashlib.sha256(spec.read_bytes()).hexdigest()
    manifest = folder / "INPUTS.sha256"
    manifest.write_text(
        "".join(
            f"{digest}  study/study.yaml\n" if line.endswith("  study/study.yaml") else line + "\n"
            for line in manifest.read_text(encoding="utf-8").splitlines()
        ),
        encoding="utf-8",
    )
    result = run_cli("verify", str(folder), "-q")
    assert result.code == 0, result.out + result.err
    assert result.out.startswith("all ")


def test_the_bundled_spec_drops_the_authors_dask_scheduler(tmp_path):
    """The bundled spec kept 'execution: {engine: dask, scheduler: tcp://…}', so the README's
    'reportgen run study/study.yaml -o rerun' failed on every machine but the author's ('cannot
    reach the Dask scheduler'). The address is dropped like an absolute output folder; a
    LocalCluster (which runs anywhere Dask is installed) is kept."""
    from reportgen.bundle import bundled_spec_text
    from reportgen.spec.load import load_spec

    write(tmp_path, "data/t.csv", "algorithm,problem,dimension,run,value\nA,f1,2,1,1.0\n")
    base = "study: {title: T}\nminimize: true\ndata: {runs: {path: data/t.csv, format: trials}}\n"
    base += "analyses: [{kind: problem_table, data: runs}]\n"
    remote = load_spec(
        write(tmp_path, "remote.yaml", base + "execution: {engine: dask, scheduler: 'tcp://h:1'}\n")
    )
    local = load_spec(
        write(tmp_path, "local.yaml", base + "execution: {engine: dask, workers: 2}\n")
    )
    paths = {"runs": ["inputs/data/t.csv"]}
    assert "execution" not in yaml.safe_load(bundled_spec_text(remote, paths))
    assert yaml.safe_load(bundled_spec_text(local, paths))["execution"] == {
        "engine": "dask",
        "workers": 2,
    }
