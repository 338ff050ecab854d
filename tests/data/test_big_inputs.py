"""Big inputs: CSV read in chunks with exact row numbers, Parquet in batches, start_value."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import reportgen.data.read as read
from reportgen.data.load import load_data
from reportgen.errors import InputError
from reportgen.spec.load import load_spec
from tests.conftest import HISTORIES_CSV, SHARED_DATA, SPEC, require_shared, write


def problems(spec: Path) -> list[str]:
    with pytest.raises(InputError) as info:
        load_data(load_spec(spec))
    return [str(p) for p in info.value.problems]


def test_chunks_keep_file_row_numbers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(read, "CHUNK_ROWS", 3)
    csv = HISTORIES_CSV.replace("B,f1,2,2,6,3", "B,f1,2,2,-6,3").replace(
        "A,f2,2,2,4,0.1", "A,f2,2,2,4,nan"
    )
    write(tmp_path, "data/h.csv", csv)
    spec = write(tmp_path, "study.yaml", SPEC)
    assert problems(spec) == [
        "data/h.csv, row 8 (line 9), column 'evals': must be ≥ 0: '-6'",
        "data/h.csv, row 12 (line 13), column 'value': NaN is not allowed: 'nan'",
    ]


def test_chunked_result_equals_whole_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    spec = write(tmp_path, "study.yaml", SPEC)
    whole = load_data(load_spec(spec)).sources["curves"].frame
    monkeypatch.setattr(read, "CHUNK_ROWS", 5)
    chunked = load_data(load_spec(spec)).sources["curves"].frame
    pd.testing.assert_frame_equal(whole, chunked)


def test_only_mapped_columns_are_read(tmp_path: Path) -> None:
    csv = HISTORIES_CSV.replace(
        "algorithm,problem,dim,run,evals,value", "algorithm,problem,dim,run,evals,value,note"
    )
    csv = "\n".join(
        line + ",x" if line and not line.endswith("note") else line for line in csv.splitlines()
    )
    write(tmp_path, "data/h.csv", csv)
    pieces = list(
        read.iter_tables(tmp_path / "data/h.csv", "h.csv", None, lambda names: names[:-1])
    )
    assert list(pieces[0].frame.columns) == ["algorithm", "problem", "dim", "run", "evals", "value"]


def test_parquet_in_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    frame = pd.read_csv(tmp_path / "data/h.csv")
    frame.to_parquet(tmp_path / "data/h.parquet", row_group_size=4)
    monkeypatch.setattr(read, "CHUNK_ROWS", 3)
    spec = write(tmp_path, "study.yaml", SPEC.replace("data/h.csv", "data/h.parquet"))
    loaded = load_data(load_spec(spec)).sources["curves"].frame
    assert len(loaded) == 16 and loaded["evaluations"].max() == 9
    frame.loc[5, "value"] = float("inf")
    frame.to_parquet(tmp_path / "data/h.parquet", row_group_size=4)
    assert problems(spec) == [
        "data/h.parquet, row 6, column 'value': infinite values are not allowed here: inf"
    ]


def test_start_value_column(tmp_path: Path) -> None:
    lines = HISTORIES_CSV.strip().splitlines()
    csv = "\n".join(
        [lines[0] + ",f0"] + [line + (",12" if ",f1," in line else ",6") for line in lines[1:]]
    )
    write(tmp_path, "data/h.csv", csv)
    spec_text = SPEC.replace("evaluations: evals}", "evaluations: evals, start_value: f0}")
    spec = write(tmp_path, "study.yaml", spec_text)
    frame = load_data(load_spec(spec)).sources["curves"].frame
    assert list(frame.columns)[-1] == "start_value"
    assert frame.groupby("problem", observed=True)["start_value"].first().to_dict() == {
        "f1": 12.0,
        "f2": 6.0,
    }
    write(tmp_path, "data/h.csv", csv.replace("A,f2,2,2,4,0.1,6", "A,f2,2,2,4,0.1,7"))
    assert problems(spec) == [
        "data/h.csv: start_value differs within problem f2 (D=2): 6, 7; give one f(x0) per problem"
    ]


def test_large_real_histories_csv(tmp_path: Path) -> None:
    """The 23 MB, 616k-row IOHdata trajectories: read in chunks, all columns typed."""
    source = SHARED_DATA / "iohdata-bbob-9algs" / "trajectories_long.csv"
    require_shared(source, "the shared IOHdata files")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "t.csv").symlink_to(source)
    spec = write(
        tmp_path,
        "study.yaml",
        SPEC.replace("path: data/h.csv", "path: data/t.csv").replace(
            "columns: {dimension: dim, evaluations: evals}",
            "columns: {problem: function, dimension: dim, evaluations: fes, value: best_f_minus_fopt}",
        ),
    )
    data = load_data(load_spec(spec))
    frame = data.sources["curves"].frame
    assert len(data.algorithms) == 9
    assert (
        frame.groupby(["algorithm", "problem", "dimension"], observed=True)["run"]
        .nunique()
        .eq(15)
        .all()
    )
