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
    """Too many cells on line 12: named by its row and line (pandas' line number, in the
    words of a first row that is too long), whether or not pieces were read before."""
    monkeypatch.setattr(read, "CHUNK_ROWS", 3)
    monkeypatch.setattr(read, "CSV_BLOCK_BYTES", block_bytes)
    csv = HISTORIES_CSV.replace("A,f2,2,2,1,5", "A,f2,2,2,1,5,7")
    write(tmp_path, "data/h.csv", csv)
    spec = write(tmp_path, "study.yaml", SPEC)
    assert problems(spec) == [
        "data/h.csv, row 11 (line 12): 7 cells, but the header names 6 columns; a row may not "
        "hold more cells than the header (a value with the separator in it, not quoted? a "
        "stray separator?)"
    ]


@pytest.mark.parametrize(
    ("extra", "header"),
    [(",", ""), (",7", ""), (",7,8", ",note")],
    ids=["separator-at-the-end", "a-cell-more", "an-unused-column-too"],
)
def test_rows_longer_than_the_header_are_named(tmp_path: Path, extra: str, header: str) -> None:
    """Every row one cell longer than the header (a separator at the end of each line) was
    read by pandas with the first cells as the index: every column moved one place and the
    messages blamed the wrong ones ("column 'value': empty value" on every row; "column
    'run': must be a whole number: '0.134'"); with an unused column as well, pandas failed
    with "zip() argument 2 is shorter than argument 1"."""
    first, *rows = HISTORIES_CSV.strip().splitlines()
    write(tmp_path, "data/h.csv", "\n".join([first + header] + [r + extra for r in rows]) + "\n")
    spec = write(tmp_path, "study.yaml", SPEC)
    columns = 6 + header.count(",")
    assert problems(spec) == [
        f"data/h.csv, row 1 (line 2): {columns + 1} cells, but the header names {columns} "
        "columns; a row may not hold more cells than the header (a separator at the end of "
        "every line? a column without a name in the header?)"
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


def _parquet_study(tmp_path: Path, frame: pd.DataFrame, row_group_size: int = 4) -> Path:
    (tmp_path / "data").mkdir(exist_ok=True)
    frame.to_parquet(tmp_path / "data/h.parquet", row_group_size=row_group_size, index=False)
    return write(tmp_path, "study.yaml", SPEC.replace("data/h.csv", "data/h.parquet"))


def _cell_by_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Parquet piece through the cell checks (the path that names bad rows)."""
    import reportgen.data.load as load

    monkeypatch.setattr(load, "_bulk_columns", lambda *args: None)


def test_parquet_checked_in_bulk_equals_cell_by_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Clean Parquet pieces skip the per-cell checks; the table must be the same as when
    every cell is checked, whatever the column types (names with blanks to strip, whole
    numbers stored as integers or floats) and however the pieces fall."""
    frame = pd.read_csv(pd.io.common.StringIO(HISTORIES_CSV))
    frame["algorithm"] = frame["algorithm"].map({"A": " A", "B": "B "})
    frame["run"] = frame["run"].astype(np.int32)
    frame["dim"] = frame["dim"].astype(float)
    spec = _parquet_study(tmp_path, frame)
    monkeypatch.setattr(read, "CHUNK_ROWS", 3)
    bulk = load_data(load_spec(spec)).sources["curves"].frame
    _cell_by_cell(monkeypatch)
    cells = load_data(load_spec(spec)).sources["curves"].frame
    pd.testing.assert_frame_equal(bulk, cells)
    assert list(bulk["algorithm"].cat.categories) == ["A", "B"]  # stripped
    # Small whole numbers are held in 16 bits (6 bytes a record less per column than 64).
    assert bulk["run"].dtype == np.int16 and bulk["dimension"].dtype == np.int16


def test_run_numbers_beyond_2_to_the_30_widen_the_column_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A histories column starts as 16-bit integers; a piece with a value of 2³⁰ or more
    (its difference from a small run number would not fit in 32 bits) widens the whole
    column to 64 bits, keeping the pieces before it, exactly (2⁵³ − 1 is a float's last
    whole number), whichever path checks the pieces."""
    frame = pd.read_csv(pd.io.common.StringIO(HISTORIES_CSV))
    big = 2**53 - 1
    frame["run"] = frame["run"].replace({2: big}).astype(np.int64)
    spec = _parquet_study(tmp_path, frame)
    monkeypatch.setattr(read, "CHUNK_ROWS", 2)  # the first piece: run 1 only (32 bits)
    for _ in ("bulk", "cells"):
        table = load_data(load_spec(spec)).sources["curves"].frame
        assert table["run"].dtype == np.int64 and table["dimension"].dtype == np.int16
        assert sorted(set(table["run"])) == [1, big]
        _cell_by_cell(monkeypatch)


@pytest.mark.parametrize("run", [2**14 - 1, 2**14, 2**30 - 1, 2**30])
def test_a_run_number_widens_the_column_at_its_type_s_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: int
) -> None:
    """Run numbers stay in 16 bits below 2¹⁴ and in 32 bits below 2³⁰ (so that the
    difference or the sum of two of them fits too); a later piece with a larger one widens
    the column, keeping the earlier pieces exactly, in bulk and cell by cell."""
    frame = pd.read_csv(pd.io.common.StringIO(HISTORIES_CSV))
    frame["run"] = frame["run"].replace({2: run}).astype(np.int64)
    spec = _parquet_study(tmp_path, frame)
    monkeypatch.setattr(read, "CHUNK_ROWS", 2)  # the first piece: run 1 only (16 bits)
    expected = np.int16 if run < 2**14 else np.int32 if run < 2**30 else np.int64
    for _ in ("bulk", "cells"):
        table = load_data(load_spec(spec)).sources["curves"].frame
        assert table["run"].dtype == expected
        assert sorted(set(table["run"])) == [1, run]
        assert (table["run"].diff().abs().max()) == run - 1  # no wrap-around
        _cell_by_cell(monkeypatch)


def test_a_bad_cell_in_a_parquet_piece_is_named_by_its_file_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A piece with a bad cell is checked cell by cell, between pieces checked in bulk: the
    messages name the same rows as when every piece is checked cell by cell."""
    frame = pd.read_csv(pd.io.common.StringIO(HISTORIES_CSV))
    frame["evals"] = frame["evals"].astype(float)
    frame.loc[9, "evals"] = 2.5  # file row 10, in the fourth piece of three rows
    frame.loc[14, "problem"] = ""  # file row 15, the fifth piece
    frame.loc[15, "value"] = float("nan")  # file row 16, the last piece (one row)
    spec = _parquet_study(tmp_path, frame)
    monkeypatch.setattr(read, "CHUNK_ROWS", 3)
    expected = [
        "data/h.parquet, row 10, column 'evals': must be a whole number: 2.5",
        "data/h.parquet, row 15, column 'problem': empty name: ''",
        "data/h.parquet, row 16, column 'value': empty value (every cell needs a number): nan",
    ]
    assert problems(spec) == expected
    _cell_by_cell(monkeypatch)
    assert problems(spec) == expected


@pytest.mark.parametrize(
    ("column", "typed", "message"),
    [
        ("run", lambda c: c == 1, "holds true/false values (bool), not numbers"),
        ("run", lambda c: (c == 1).astype("boolean"), "holds true/false values (boolean), not numbers"),
        ("evals", lambda c: pd.to_datetime(c, unit="s"), "holds dates/times (datetime64[ns]), not numbers"),
        ("value", lambda c: pd.to_timedelta(c, unit="s"), "holds time spans (timedelta64[ns]), not numbers"),
        # Parquet date32: datetime.date objects, refused row by row before
        ("dim", lambda c: pd.to_datetime(c, unit="D").dt.date, "holds dates/times (date), not numbers"),
    ],
)  # fmt: skip
def test_a_typed_column_that_holds_no_numbers_is_named(
    tmp_path: Path, column: str, typed, message: str
) -> None:
    """A Parquet column of booleans or dates mapped to a number was read as 1/0 or as
    nanoseconds since 1970 without a word: a run column of true/false gave 'two records of
    the same run' about run 0; evaluations as dates a budget of 1e+08."""
    frame = pd.read_csv(pd.io.common.StringIO(HISTORIES_CSV))
    frame[column] = typed(frame[column])
    spec = _parquet_study(tmp_path, frame)
    written = pd.read_parquet(tmp_path / "data/h.parquet")[column].dtype
    if written.kind != "O":  # the dtype the installed pyarrow reads back (ns or us)
        expected = message.replace(
            message[message.index("(") + 1 : message.index(")")], str(written)
        )
    else:
        expected = message
    assert problems(spec) == [
        f"data/h.parquet, column '{column}': {expected}; map a numeric column"
    ]


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"integer": True, "minimum": 0},
        {"integer": True, "minimum": 1},
        {"allow_inf": True, "integer": True, "minimum": 0},
        {"allow_inf": True, "minimum": 0},
    ],
)
def test_numbers_clean_says_whether_number_column_reports_anything(options: dict) -> None:
    """``numbers_clean`` (the bulk check) is True exactly when ``number_column`` (the cell
    check) finds nothing to report, on random columns with the awkward values mixed in;
    whole numbers stored as integers beyond 2⁵³ (which ``number_column`` rounds through a
    float) are left to ``number_column`` too."""
    from reportgen.data.checks import MAX_WHOLE, number_column, numbers_clean
    from reportgen.data.read import RawTable

    rng = np.random.default_rng(7)
    awkward = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0**53, 2.0**53 + 2, -(2.0**53) - 2, np.inf, -np.inf]
    awkward += [np.nan, 1e300, -3.0, 7.25, MAX_WHOLE]
    whole = np.asarray([-3, 0, 1, 5, 2**53, 2**53 + 1, -(2**53) - 1])
    verdicts = set()
    for trial in range(300):
        size = int(rng.integers(0, 6))
        array = rng.choice(awkward, size=size) if trial % 2 else rng.choice(whole, size=size)
        found: list = []
        raw = RawTable(Path("x.parquet"), "x.parquet", pd.DataFrame({"c": array}), 0)
        number_column(raw, "c", found, **options)
        beyond = array.dtype.kind == "i" and options.get("integer") and (abs(array) > 2**53).any()
        clean = numbers_clean(array, **options)
        assert clean == (not found and not beyond), (array, options, found)
        verdicts.add(clean)
    assert verdicts == {True, False}  # both answers were exercised


def test_csv_read_typed_equals_read_as_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CSV file is read typed (names dictionary-encoded, numbers as floats) and checked in
    bulk; the table is the one reading every cell as text and checking it gives."""
    csv = HISTORIES_CSV.replace("\nA,", "\n A ,")  # names to strip
    write(tmp_path, "data/h.csv", csv)
    spec = write(tmp_path, "study.yaml", SPEC)
    monkeypatch.setattr(read, "CSV_BLOCK_BYTES", 64)  # several typed batches
    typed = load_data(load_spec(spec)).sources["curves"].frame
    _cell_by_cell(monkeypatch)
    text = load_data(load_spec(spec)).sources["curves"].frame
    pd.testing.assert_frame_equal(typed, text)
    assert list(typed["algorithm"].cat.categories) == ["A", "B"]


def test_a_csv_cell_that_does_not_convert_hands_the_rest_to_the_text_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typed batches are taken until a cell does not convert (an empty value, a word) or
    fails a check; from there the file is read as text, and the messages name the file's
    rows and lines as when the whole file is read as text."""
    csv = HISTORIES_CSV.replace("B,f1,2,2,6,3", "B,f1,2,2,6,").replace(
        "A,f2,2,2,4,0.1", "A,f2,2,2,four,0.1"
    )
    write(tmp_path, "data/h.csv", csv)
    spec = write(tmp_path, "study.yaml", SPEC)
    monkeypatch.setattr(read, "CSV_BLOCK_BYTES", 64)
    expected = [  # one piece of text: checked column by column
        "data/h.csv, row 12 (line 13), column 'evals': not a number: 'four'",
        "data/h.csv, row 8 (line 9), column 'value': empty value (every cell needs a number): ''",
    ]
    assert problems(spec) == expected
    _cell_by_cell(monkeypatch)
    assert problems(spec) == expected


def _random_histories(rng: np.random.Generator, rows: int, faults: bool) -> str:
    """A histories CSV of random runs, shuffled; with ``faults`` some records repeat an
    evaluation count, get worse or do not improve (both errors and dropped records)."""
    lines = ["algorithm,problem,dim,run,evals,value"]
    for _ in range(rows):
        a, p, r = rng.integers(0, 3), rng.integers(0, 4), rng.integers(0, 5)
        lines.append(f"A{a},f{p},2,{r},{rng.integers(1, 40)},{rng.integers(0, 50)}")
    if not faults:  # best-so-far: in each run, values never rise as evaluations grow
        header, *body = lines
        runs: dict[str, list[tuple[int, int]]] = {}
        for line in body:
            a, p, d, r, e, _ = line.split(",")
            runs.setdefault(f"{a},{p},{d},{r}", []).append((int(e), 0))
        body = []
        for run, records in runs.items():
            evaluations = sorted({e for e, _ in records})
            # Every other record repeats its value: kept as a run's first, else dropped.
            body += [f"{run},{e},{100 - i // 2}" for i, e in enumerate(evaluations)]
        lines = [header, *(body[i] for i in rng.permutation(len(body)))]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("faults", [False, True])
def test_checks_block_by_block_equal_the_checks_of_the_whole_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, faults: bool
) -> None:
    """The sort test, the best-so-far checks and the run starts compare neighbouring rows in
    blocks (frames.PAIR_BLOCK): blocks of 1, 3 and 7 pairs give the table, the dropped
    records and the messages that one block of every pair gives."""
    import reportgen.data.frames as frames
    import reportgen.data.load as load

    rng = np.random.default_rng(7 + faults)
    write(tmp_path, "data/h.csv", _random_histories(rng, 400, faults))
    spec = write(tmp_path, "study.yaml", SPEC)

    def outcome() -> tuple[pd.DataFrame | None, list[str], np.ndarray | None]:
        try:
            source = load_data(load_spec(spec)).sources["curves"]
        except InputError as exc:
            return None, [str(p) for p in exc.problems], None
        return source.frame, [], frames.run_starts(source.frame)

    whole_frame, whole_problems, whole_starts = outcome()
    assert (whole_frame is None) == faults  # the faulty table is rejected, with messages
    if faults:  # both checks report, and more rows than they list
        assert sum("more rows" in p for p in whole_problems) == 2
    else:  # the records that repeat a value are dropped
        assert whole_frame is not None and len(whole_frame) < 400
    for block in (1, 3, 7):
        monkeypatch.setattr(frames, "PAIR_BLOCK", block)
        monkeypatch.setattr(load, "PAIR_BLOCK", block)
        frame, found, starts = outcome()
        assert found == whole_problems
        if whole_frame is not None:
            pd.testing.assert_frame_equal(frame, whole_frame)
            np.testing.assert_array_equal(starts, whole_starts)


def test_data_are_loaded_without_huge_pages_and_the_setting_is_restored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import reportgen.data.load as load

    switch = load._huge_page_switch()
    if switch is None:
        pytest.skip("this numpy has no huge-page switch")
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    spec = write(tmp_path, "study.yaml", SPEC)
    seen: list[bool] = []
    read_source = load.load_source

    def spy(*args: object, **kwargs: object) -> object:
        # The switch returns the previous setting: read it, then put it back.
        seen.append(switch(False))
        return read_source(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(load, "load_source", spy)
    before = switch(True)
    try:
        frame = load_data(load_spec(spec)).sources["curves"].frame
        assert seen == [False]  # huge pages off while the source was read
        assert switch(True) is True  # and back on afterwards
    finally:
        switch(before)
    assert len(frame) > 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_csv_batches_with_names_met_before_equal_the_text_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Each typed CSV batch has its own dictionary; names met in an earlier batch are not
    checked again. Spellings of one name ('A1', ' A1', 'A1 ') met in different batches, in
    any order, still make one category, as reading every cell as text does."""
    rng = np.random.default_rng(seed)
    header, *rows = _random_histories(rng, 300, faults=False).strip().splitlines()
    spellings = ["{}", " {}", "{} "]
    rows = [
        ",".join(
            [spellings[rng.integers(3)].format(a), spellings[rng.integers(3)].format(p), *rest]
        )
        for a, p, *rest in (row.split(",") for row in rows)
    ]
    write(tmp_path, "data/h.csv", "\n".join([header, *rows]) + "\n")
    spec = write(tmp_path, "study.yaml", SPEC)
    monkeypatch.setattr(read, "CSV_BLOCK_BYTES", 200)  # many batches, a few names each
    typed = load_data(load_spec(spec)).sources["curves"].frame
    _cell_by_cell(monkeypatch)
    text = load_data(load_spec(spec)).sources["curves"].frame
    pd.testing.assert_frame_equal(typed, text)
    assert list(typed["algorithm"].cat.categories) == ["A0", "A1", "A2"]


def test_a_bad_name_first_met_in_a_later_csv_batch_is_reported_as_by_the_text_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    header, *rows = HISTORIES_CSV.strip().splitlines()
    rows[-1] = "null," + rows[-1].split(",", 1)[1]  # a missing-value marker as a name, last
    write(tmp_path, "data/h.csv", "\n".join([header, *rows]) + "\n")
    spec = write(tmp_path, "study.yaml", SPEC)
    monkeypatch.setattr(read, "CSV_BLOCK_BYTES", 64)
    typed = problems(spec)
    _cell_by_cell(monkeypatch)
    assert typed == problems(spec)
    assert len(typed) == 1 and "missing-value marker" in typed[0]
