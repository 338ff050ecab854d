"""Fuzzing ``reportgen`` with generated hostile, careless and degenerate inputs (issue 13).

Every generated study is checked against the contract in :mod:`tests.fuzz.harness`: exit 0
with a complete report or exit 1 with located messages; never a traceback, a hang, a partial
output or a leftover staging folder; no nan/inf/None in the report's text. Most examples go
through ``reportgen validate`` (spec, data and every computation, nothing rendered); a few
through ``reportgen run`` (HTML rendering). ``make fuzz`` runs the full profile.
"""

from __future__ import annotations

import html
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.harness import _TAG, check_contract, check_report, fuzz_settings, run
from tests.fuzz.strategies import (
    ODD_NAMES,
    TRIALS_COLUMNS,
    broken_csv,
    csv_text,
    mutated_spec,
    names_csv,
    trials_rows,
)

ANALYSES: list[dict[str, Any]] = [
    {"kind": "perspectives", "data": "runs"},
    {"kind": "significance_relation", "data": "runs", "value_floor": 1e-12},
    {"kind": "u_scores", "data": "runs", "target": 1e-8},
    {"kind": "probabilistic_profiles", "data": "runs"},
    {"kind": "problem_table", "data": "runs"},
]
BASE_SPEC: dict[str, Any] = {
    "study": {"title": "Fuzz", "authors": ["F"]},
    "minimize": True,
    "data": {"runs": {"path": "data/t.csv", "format": "trials"}},
    "analyses": ANALYSES,
    "report": {"formats": ["html"]},
}
VALID_ROWS = [
    [f"A{a}", f"f{p}", "10", str(r), str(1.0 + a + 0.1 * r + p), "1000", str(100 * (a + 1))]
    for a in range(3)
    for p in (1, 2)
    for r in (1, 2, 3)
]


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="reportgen-fuzz-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def study_folder(scratch: Path, spec: str, data: dict[str, bytes]) -> Path:
    folder = Path(tempfile.mkdtemp(dir=scratch))
    (folder / "data").mkdir()
    for name, content in data.items():
        (folder / "data" / name).write_bytes(content)
    (folder / "study.yaml").write_text(spec, encoding="utf-8", errors="surrogatepass")
    return folder


def spec_text(analyses: list[dict[str, Any]] | None = None, path: str = "data/t.csv") -> str:
    spec = dict(BASE_SPEC, analyses=analyses or ANALYSES)
    spec["data"] = {"runs": {"path": path, "format": "trials"}}
    return yaml.safe_dump(spec, sort_keys=False)


def test_the_unmutated_study_is_valid(scratch):
    folder = study_folder(
        scratch, spec_text(), {"t.csv": csv_text(TRIALS_COLUMNS, VALID_ROWS).encode()}
    )
    result = run("validate", str(folder / "study.yaml"), "--quiet")
    assert result.code == 0, result.err


@fuzz_settings("spec")
@given(spec=mutated_spec(BASE_SPEC))
def test_mutated_specs(scratch, spec):
    """Wrong types, odd and non-finite numbers, missing and unknown keys, YAML oddities."""
    data = {"t.csv": csv_text(TRIALS_COLUMNS, VALID_ROWS).encode()}
    folder = study_folder(scratch, spec, data)
    check_contract(run("validate", str(folder / "study.yaml"), "--quiet"), folder, ("t.csv",))
    shutil.rmtree(folder)


@fuzz_settings("data")
@given(file=broken_csv())
def test_broken_data_files(scratch, file):
    """Bad cells, truncated or binary files, broken gzip, missing headers, odd encodings."""
    name, content = file
    folder = study_folder(scratch, spec_text(path=f"data/{name}"), {name: content})
    check_contract(run("validate", str(folder / "study.yaml"), "--quiet"), folder, (name,))
    shutil.rmtree(folder)


@fuzz_settings("degenerate")
@given(rows=trials_rows(degenerate=True), analysis=st.sampled_from(ANALYSES))
def test_degenerate_but_valid_data(scratch, rows, analysis):
    """All identical, one run, one problem, never reaching a target, ties everywhere."""
    folder = study_folder(
        scratch, spec_text([analysis]), {"t.csv": csv_text(TRIALS_COLUMNS, rows).encode()}
    )
    check_contract(run("validate", str(folder / "study.yaml"), "--quiet"), folder, ("t.csv",))
    shutil.rmtree(folder)


@pytest.mark.slow
@fuzz_settings("render")
@given(rows=trials_rows(degenerate=True))
def test_degenerate_data_renders_a_clean_report(scratch, rows):
    """The full report (HTML) of degenerate data: complete, and no nan/inf/None in its text."""
    folder = study_folder(scratch, spec_text(), {"t.csv": csv_text(TRIALS_COLUMNS, rows).encode()})
    result = run("run", str(folder / "study.yaml"), "--quiet")
    check_contract(result, folder, ("t.csv",))
    if result.code == 0:
        check_report(folder / "out")
    else:
        assert not (folder / "out").exists(), "a failed run must not leave a partial report"
    shutil.rmtree(folder)


def _with_name(name: str, column: str) -> list[list[str]]:
    """VALID_ROWS with the first algorithm (or problem) renamed ``name``."""
    index, old = (0, "A0") if column == "algorithm" else (1, "f1")
    return [
        [name if i == index and cell == old else cell for i, cell in enumerate(row)]
        for row in VALID_ROWS
    ]


@fuzz_settings("names")
@given(name=ODD_NAMES, column=st.sampled_from(["algorithm", "problem"]))
def test_odd_names(scratch, name, column):
    """Any name in the algorithm or problem column: a valid study or a message at its row."""
    rows = _with_name(name, column)
    folder = study_folder(
        scratch, spec_text(), {"t.csv": names_csv(rows).encode("utf-8", "surrogatepass")}
    )
    check_contract(run("validate", str(folder / "study.yaml"), "--quiet"), folder, ("t.csv",))
    shutil.rmtree(folder)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    ["f/1", "<script>alert(1)</script>", "f&%$#_{}~^\\textbf{x}", "q" * 999, "word " * 150],
    ids=["slash", "html", "latex", "long-word", "long-words"],
)
@pytest.mark.parametrize("column", ["algorithm", "problem"])
def test_odd_names_render(scratch, name, column):
    """Reports whose names are odd: complete, escaped, and the name shortened where shown."""
    folder = study_folder(
        scratch, spec_text(), {"t.csv": names_csv(_with_name(name, column)).encode()}
    )
    result = run("run", str(folder / "study.yaml"), "--quiet")
    check_contract(result, folder, ("t.csv",))
    if column == "problem" and len(name.strip()) > 100:
        # Problem names print in full (they key every per-problem table): refused at their row.
        assert result.code == 1 and "a name longer than 100 characters" in result.err
        return
    assert result.code == 0, result.err
    check_report(folder / "out")
    page = (folder / "out" / "report.html").read_text(encoding="utf-8")
    assert "<script>alert(1)" not in page
    text = html.unescape(
        _TAG.sub(" ", re.split(r'<pre class="spec[^"]*">', page)[0])
    )  # what is read
    assert name.strip() not in text or len(name.strip()) <= 100  # shortened where shown
    shutil.rmtree(folder)
