"""``reportgen init``: a runnable starter study whose spec finds its schema by a relative path."""

from __future__ import annotations

import csv
import gzip
import json
import math
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT, run_cli, write

QUICKSTART = ROOT / "example_studies" / "quickstart" / "data" / "bbob_5d_histories.csv.gz"


def test_init_writes_the_schema_beside_the_spec(tmp_path: Path) -> None:
    target = tmp_path / "x"
    assert run_cli("init", str(target)).code == 0
    first_line = (target / "study.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first_line == "# yaml-language-server: $schema=study.schema.json"
    assert json.loads((target / "study.schema.json").read_text()) == json.loads(
        (ROOT / "schemas" / "study.schema.json").read_text()
    )
    assert not (target / "out").exists()
    assert run_cli("validate", str(target / "study.yaml"), "--quiet").code == 0


def test_init_refuses_a_file(tmp_path: Path) -> None:
    target = tmp_path / "x"
    target.write_text("")
    result = run_cli("init", str(target))
    assert result.code == 1 and "not an empty folder" in result.err


def test_init_into_a_path_that_cannot_be_a_folder_is_an_input_error(tmp_path: Path) -> None:
    """A folder under a file, or a symbolic link that leads nowhere, is named (it was a
    traceback from copying the starter files)."""
    (tmp_path / "x").write_text("")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    for target, culprit in (
        (tmp_path / "x" / "study", f"{tmp_path / 'x'} is a file, not a folder"),
        (loop, f"{loop} is a symbolic link that leads to no file"),
    ):
        result = run_cli("init", str(target))
        assert result.code == 1, result.err
        assert f"cannot write the starter study there: {culprit}" in result.err


@pytest.mark.parametrize("format", ["trials", "histories", "summary", "coco", "ioh", "cec"])
def test_init_format_writes_a_valid_study_in_that_format(tmp_path: Path, format: str) -> None:
    target = tmp_path / format
    assert run_cli("init", str(target), "--format", format).code == 0
    spec = yaml.safe_load((target / "study.yaml").read_text(encoding="utf-8"))
    (source,) = spec["data"].values()
    assert source["format"] == format
    result = run_cli("validate", str(target / "study.yaml"), "--quiet")
    assert result.code == 0, result.err
    assert "4 algorithms" in result.out or result.out == ""


def _quickstart_runs() -> dict[tuple[str, str, str], list[tuple[float, float]]]:
    with gzip.open(QUICKSTART, "rt", encoding="utf-8") as handle:
        runs: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
        for row in csv.DictReader(handle):
            key = (row["algorithm"], row["function"], row["run"])
            runs.setdefault(key, []).append((float(row["fes"]), float(row["best_f_minus_fopt"])))
    return runs


def test_init_trials_holds_each_runs_final_value_and_hitting_time(tmp_path: Path) -> None:
    assert run_cli("init", str(tmp_path / "t"), "--format", "trials").code == 0
    with open(tmp_path / "t" / "data" / "trials.csv", encoding="utf-8") as handle:
        trials = {(r["algorithm"], r["problem"], r["run"]): r for r in csv.DictReader(handle)}
    runs = _quickstart_runs()
    assert len(trials) == len(runs) == 4 * 24 * 15
    for key in [
        ("BIPOP-CMA-ES", "f1", "1"),
        ("DE-scipy-2019", "f24", "15"),
        ("CMA-ES-CSA", "f5", "3"),
    ]:
        records = runs[key]
        hits = [e for e, v in records if v <= 1e-8]
        assert float(trials[key]["value"]) == records[-1][1]  # the last record is the best
        expected = hits[0] if hits else math.inf
        assert float(trials[key]["evaluations_to_target"]) == expected
        assert float(trials[key]["evaluations_used"]) == (expected if hits else 10_000)


def test_init_from_proposes_the_columns_of_a_csv(tmp_path: Path) -> None:
    result = run_cli("init", str(tmp_path / "s"), "--from", str(QUICKSTART))
    assert result.code == 0
    assert (
        "proposed format 'histories'" in result.out and "evaluations            ← fes" in result.out
    )
    spec = yaml.safe_load((tmp_path / "s" / "study.yaml").read_text(encoding="utf-8"))
    assert spec["data"]["curves"]["columns"] == {
        "problem": "function",
        "dimension": "dim",
        "evaluations": "fes",
        "value": "best_f_minus_fopt",
    }
    assert not Path(spec["data"]["curves"]["path"]).is_absolute()
    assert run_cli("validate", str(tmp_path / "s" / "study.yaml"), "--quiet").code == 0


def test_init_from_leaves_an_unknown_column_to_the_user(tmp_path: Path) -> None:
    data = write(tmp_path, "mine.csv", "solver,fid,seed,score\nA,1,1,0.5\nB,1,1,0.7\n")
    result = run_cli("init", str(tmp_path / "s"), "--from", str(data))
    assert result.code == 0
    assert "proposed format 'trials'" in result.out
    assert "value                  ← ? (not found: edit the spec)" in result.out
    assert "not used: score" in result.out
    text = (tmp_path / "s" / "study.yaml").read_text(encoding="utf-8")
    assert "# value: FIXME" in text
    invalid = run_cli("validate", str(tmp_path / "s" / "study.yaml"))
    assert invalid.code == 1 and "value" in invalid.err


def test_init_from_a_missing_file_is_an_input_error(tmp_path: Path) -> None:
    result = run_cli("init", str(tmp_path / "s"), "--from", str(tmp_path / "none.csv"))
    assert result.code == 1 and "does not exist" in result.err


@pytest.mark.parametrize(
    ("name", "content", "separator"),
    [
        ("semi.csv", "algorithm;problem;run;value\nA;f1;1;1\nB;f1;1;2\n", ";"),
        ("tabs.csv", "algorithm\tproblem\trun\tvalue\nA\tf1\t1\t1\nB\tf1\t1\t2\n", "\t"),
        ("bars.csv", "algorithm|problem|run|value\nA|f1|1|1\nB|f1|1|2\n", "|"),
        ("plain.tsv", "algorithm\tproblem\trun\tvalue\nA\tf1\t1\t1\nB\tf1\t1\t2\n", None),
        ("bom.csv", "\ufeffalgorithm,problem,run,value\nA,f1,1,1\nB,f1,1,2\n", None),
        ("spaces.txt", "algorithm problem run value\nA f1 1 1\nB f1 1 2\n", r"\s+"),
    ],
)
def test_init_from_writes_a_spec_that_reads_the_file(
    tmp_path: Path, name: str, content: str, separator: str | None
) -> None:
    """--from read a ';'-separated .csv by sniffing its separator but did not write it into
    the spec, so the spec it proposed failed validate ("the header is one column"); a byte
    order mark made the first column '\\ufeffalgorithm', left unused."""
    data = write(tmp_path, name, content)
    result = run_cli("init", str(tmp_path / "s"), "--from", str(data))
    assert result.code == 0 and "not used" not in result.out
    spec = yaml.safe_load((tmp_path / "s" / "study.yaml").read_text(encoding="utf-8"))
    assert spec["data"]["curves"].get("separator") == separator
    assert run_cli("validate", str(tmp_path / "s" / "study.yaml"), "--quiet").code == 0


def test_init_from_with_no_column_recognised_names_the_missing_columns(tmp_path: Path) -> None:
    """Only FIXME comments under 'columns:' made it null: validate said 'data.curves.columns:
    got nothing (null)' instead of naming the columns to map."""
    data = write(tmp_path, "mine.csv", "a,b\n1,2\n")
    assert run_cli("init", str(tmp_path / "s"), "--from", str(data)).code == 0
    invalid = run_cli("validate", str(tmp_path / "s" / "study.yaml"))
    assert invalid.code == 1 and "got nothing" not in invalid.err
    assert "missing column 'value'; map it with data.curves.columns.value" in invalid.err


def test_init_from_a_one_column_file_says_column_in_the_singular(tmp_path: Path) -> None:
    """It printed "mine.csv: 1 columns"."""
    data = write(tmp_path, "mine.csv", "value\n1\n")
    result = run_cli("init", str(tmp_path / "s"), "--from", str(data))
    assert result.code == 0 and "mine.csv: 1 column; proposed format" in result.out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty: no header line to read"),
        (None, "the file is a folder, not a file"),
    ],
)
def test_init_from_an_empty_file_or_a_folder_is_an_input_error(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    """An empty file was a csv.Error traceback ('Could not determine delimiter'); a folder
    'does not exist'."""
    path = tmp_path / "empty.csv"
    path.mkdir() if content is None else path.write_bytes(content)
    result = run_cli("init", str(tmp_path / "s"), "--from", str(path))
    assert result.code == 1 and message in result.err and "Traceback" not in result.err


def test_init_from_a_file_reportgen_cannot_read_is_refused(tmp_path: Path) -> None:
    """A spreadsheet got a proposal made from its bytes read as text ('not used: PK...')
    and a spec that validate then refused as an unsupported file type."""
    data = tmp_path / "results.xlsx"
    data.write_bytes(b"PK\x03\x04 not text")
    result = run_cli("init", str(tmp_path / "s"), "--from", str(data))
    assert result.code == 1 and "--from: unsupported file type; reportgen reads .csv" in result.err
    assert not (tmp_path / "s").exists()
