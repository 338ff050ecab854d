"""The columnar loader: names as codes, one sort, per-run summaries, the CSV fallback."""

from __future__ import annotations

import gzip
import pickle
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import reportgen.data.read as read
from reportgen.data.frames import AnalysisData, observed, problem_frame, run_table
from reportgen.data.load import load_data
from reportgen.errors import InputError
from reportgen.spec.load import load_spec
from tests.conftest import HISTORIES_CSV, SPEC, write


def problems(spec: Path) -> list[str]:
    with pytest.raises(InputError) as info:
        load_data(load_spec(spec))
    return [str(p) for p in info.value.problems]


def test_names_are_sorted_categoricals_of_the_names_that_occur(tmp_path: Path) -> None:
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    spec = write(tmp_path, "study.yaml", SPEC + "algorithms: [B]\n")
    frame = load_data(load_spec(spec)).sources["curves"].frame
    assert isinstance(frame["algorithm"].dtype, pd.CategoricalDtype)
    assert list(frame["algorithm"].cat.categories) == ["B"]  # A was selected away
    assert list(frame["problem"].cat.categories) == ["f1", "f2"]
    assert frame["algorithm"].cat.codes.dtype == np.int8  # one byte a row


def test_rows_in_any_order_give_the_same_sorted_table(tmp_path: Path) -> None:
    header, *rows = HISTORIES_CSV.strip().splitlines()
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    spec = write(tmp_path, "study.yaml", SPEC)
    ordered = load_data(load_spec(spec)).sources["curves"].frame
    shuffled = [rows[i] for i in np.random.default_rng(1).permutation(len(rows))]
    write(tmp_path, "data/h.csv", "\n".join([header, *shuffled]) + "\n")
    again = load_data(load_spec(spec)).sources["curves"].frame
    pd.testing.assert_frame_equal(ordered, again)
    # Sorted by run, then evaluations: A's run 1 on f1 is rows 0–1 (evaluations 1, 5).
    assert ordered[["algorithm", "problem", "run", "evaluations"]].head(2).values.tolist() == [
        ["A", "f1", 1, 1.0],
        ["A", "f1", 1, 5.0],
    ]


def test_a_worse_value_is_located_in_the_file_after_sorting(tmp_path: Path) -> None:
    header, *rows = HISTORIES_CSV.strip().splitlines()
    rows = rows[::-1]  # the file is in reverse order: the loader must sort it
    rows = [r.replace("B,f2,2,2,2,1", "B,f2,2,2,2,6") for r in rows]
    write(tmp_path, "data/h.csv", "\n".join([header, *rows]) + "\n")
    spec = write(tmp_path, "study.yaml", SPEC)
    # B's run 2 on f2: evaluation 1 → 5, then evaluation 2 → 6 (worse); that row is file row 1.
    assert problems(spec) == [
        "data/h.csv, row 1 (line 2): the value gets worse within a run (histories must be "
        "best-so-far values): run 2 of B on f2 (D=2), evaluation 2, value 6.0 after 5.0"
    ]


def test_run_table_counts_records_per_run(tmp_path: Path) -> None:
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    source = load_data(load_spec(write(tmp_path, "study.yaml", SPEC))).sources["curves"]
    runs = source.runs
    assert len(runs) == 8  # 2 algorithms × 2 problems × 2 runs
    assert runs["records"].tolist() == [2] * 8  # every run has two records in HISTORIES_CSV
    assert run_table(source.frame, "histories").equals(runs)
    assert source.algorithms == ["A", "B"]
    assert observed(runs["problem"]) == ["f1", "f2"]


def test_gzip_csv_is_read_by_the_columnar_reader(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    with gzip.open(tmp_path / "data/h.csv.gz", "wt") as handle:
        handle.write(HISTORIES_CSV.lstrip())
    spec = write(tmp_path, "study.yaml", SPEC.replace("data/h.csv", "data/h.csv.gz"))
    pieces = list(read.iter_tables(tmp_path / "data/h.csv.gz", "h.csv.gz", None))
    assert isinstance(pieces[0].frame["value"].dtype, pd.ArrowDtype)  # no Python strings
    assert len(load_data(load_spec(spec)).sources["curves"].frame) == 16


@pytest.mark.parametrize("block_bytes", [64, 1 << 20])
def test_a_row_pyarrow_cannot_parse_gets_pandas_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block_bytes: int
) -> None:
    """Too many cells on line 12: pandas' message, whether or not pieces were read before."""
    monkeypatch.setattr(read, "CHUNK_ROWS", 3)
    monkeypatch.setattr(read, "CSV_BLOCK_BYTES", block_bytes)
    csv = HISTORIES_CSV.replace("A,f2,2,2,1,5", "A,f2,2,2,1,5,7")
    write(tmp_path, "data/h.csv", csv)
    spec = write(tmp_path, "study.yaml", SPEC)
    assert problems(spec) == [
        "data/h.csv: cannot read the file: Error tokenizing data. C error: Expected 6 fields "
        "in line 12, saw 7"
    ]


def test_problem_items_take_their_rows_when_used_and_travel_as_those_rows() -> None:
    """A problem's work item points into the table until used (no copy of the whole table up
    front); pickled for another process it is that problem's rows alone."""
    frame = pd.DataFrame(
        {
            "algorithm": pd.Categorical(["A", "A", "B", "B", "A", "B"]),
            "problem": pd.Categorical(["f1", "f2", "f1", "f2", "f1", "f2"]),
            "dimension": [2, 2, 2, 2, 5, 2],
            "run": [1, 1, 1, 1, 1, 2],
            "evaluations": [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
            "value": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        }
    )
    problems = (("f1", 2), ("f1", 5), ("f2", 2))
    data = AnalysisData("histories", frame, ("A", "B"), problems)
    items = data.problem_items()
    values = [list(problem_frame(item)["value"]) for item in items]
    assert values == [[1.0, 3.0], [5.0], [2.0, 4.0, 6.0]]
    travelled = pickle.loads(pickle.dumps(items[2]))
    assert isinstance(travelled, pd.DataFrame) and list(travelled["value"]) == [2.0, 4.0, 6.0]
    assert list(travelled.index) == [1, 3, 5]  # the rows' labels in the table, as grouped
