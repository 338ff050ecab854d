"""Files that cannot be read, and cells that cannot be names: a clean message, never a traceback.

Each test pins one trigger of issue 13 (found by fuzzing ``reportgen run``): a truncated
``.csv.gz`` (an interrupted download), a file name the system refuses (ENAMETOOLONG), a symlink
loop, an empty ``paths`` list, a non-finite dimension, and names that are not names (NUL byte,
a "NaN" cell, a megabyte of text).
"""

from __future__ import annotations

import gzip
import io
import os
import tarfile
from pathlib import Path

import pandas as pd
import pytest
import yaml

import reportgen
from reportgen.data.load import load_data
from reportgen.errors import InputError
from reportgen.spec.load import load_spec
from tests.conftest import SUMMARY_2X2_CSV, run_cli, write

SUMMARY_CSV = SUMMARY_2X2_CSV
SPEC = """
study: {title: Guard}
minimize: true
data:
  s:
    path: data/s.csv
    format: summary
analyses:
  - kind: significance_relation
    data: s
"""


def problems_of(spec: Path) -> list[str]:
    with pytest.raises(InputError) as info:
        load_data(load_spec(spec))
    return [str(p) for p in info.value.problems]


def study(tmp_path: Path, *, path: str = "data/s.csv", csv: str = SUMMARY_CSV) -> Path:
    write(tmp_path, "data/s.csv", csv)
    return write(tmp_path, "study.yaml", SPEC.replace("path: data/s.csv", f"path: {path}"))


def test_truncated_gzip_names_the_file(tmp_path):
    whole = gzip.compress(SUMMARY_CSV.lstrip().encode() * 50)
    (tmp_path / "data").mkdir()
    (tmp_path / "data/s.csv.gz").write_bytes(whole[: len(whole) // 2])
    spec = study(tmp_path, path="data/s.csv.gz")
    assert problems_of(spec) == [
        "data/s.csv.gz: cannot read the file: Compressed file ended before the "
        "end-of-stream marker was reached"
    ]


@pytest.mark.parametrize(
    ("encoding", "said"),
    [
        ("latin-1", "not UTF-8 text (byte 0xC4: Latin-1 or a Windows code page?)"),
        ("utf-16", "UTF-16 text"),
    ],
)
def test_a_csv_that_is_not_utf8_says_what_to_do(tmp_path, encoding, said):
    """It said "'utf-8' codec can't decode byte 0xc4 in position 0: unexpected end of data":
    a position in the parser's buffer (not in the file) and no remedy."""
    (tmp_path / "data").mkdir()
    csv = SUMMARY_CSV.lstrip().replace("A,", "Ä,")
    (tmp_path / "data" / "s.csv").write_bytes(csv.encode(encoding))
    spec = write(tmp_path, "study.yaml", SPEC)
    assert problems_of(spec) == [
        f"data/s.csv: cannot read the file: {said}; save it as UTF-8 (in a spreadsheet: "
        "'CSV UTF-8')"
    ]


@pytest.mark.parametrize(
    "content", [b"", b"\n\n", gzip.compress(b"")], ids=["empty", "blank", "gz"]
)
def test_an_empty_csv_says_so(tmp_path, content):
    """It said "cannot read the file: No columns to parse from file" (pandas' words)."""
    name = "s.csv.gz" if content.startswith(b"\x1f\x8b") else "s.csv"
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / name).write_bytes(content)
    spec = write(tmp_path, "study.yaml", SPEC.replace("data/s.csv", f"data/{name}"))
    assert problems_of(spec) == [
        f"data/{name}: cannot read the file: the file is empty (not even a header line)"
    ]


def test_not_gzip_at_all(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data/s.csv.gz").write_bytes(b"\x00\x01binary, not gzip" * 10)
    (message,) = problems_of(study(tmp_path, path="data/s.csv.gz"))
    assert message.startswith("data/s.csv.gz: cannot read the file: ")


def test_file_name_too_long_is_a_spec_problem(tmp_path):
    name = "x" * 300 + ".csv"
    (message,) = problems_of(study(tmp_path, path=f"data/{name}"))
    assert message == (
        f"data.s.path (study.yaml:5): cannot use the data path 'data/{'x' * 74}…': "
        + os.strerror(36)
    )


def test_symlink_loop_is_a_spec_problem(tmp_path):
    spec = study(tmp_path, path="data/loop1")
    os.symlink("loop2", tmp_path / "data/loop1")
    os.symlink("loop1", tmp_path / "data/loop2")
    (message,) = problems_of(spec)
    assert message == (
        "data.s.path (study.yaml:5): the data file 'data/loop1' is a symbolic link that leads "
        f"to no file, to itself or to a missing one (looked for {tmp_path / 'data/loop1'})"
    )


def test_empty_paths_list_is_refused_by_the_spec(tmp_path):
    write(tmp_path, "data/s.csv", SUMMARY_CSV)
    spec = write(tmp_path, "study.yaml", SPEC.replace("path: data/s.csv", "paths: []"))
    result = run_cli("validate", str(spec))
    assert result.code == 1
    assert "data.s.paths (study.yaml:5)" in result.err
    assert "at least 1 item" in result.err
    assert "Traceback" not in result.err


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("inf", "infinite values are not allowed here: 'inf'"),
        ("1e309", "infinite values are not allowed here: '1e309'"),
        ("-inf", "infinite values are not allowed here: '-inf'"),
        ("1e300", "too large (at most 9,007,199,254,740,992): '1e300'"),
    ],
)
def test_non_finite_or_huge_dimension(tmp_path, cell, message):
    spec = study(tmp_path, csv=SUMMARY_CSV.replace("A,f1,2,", f"A,f1,{cell},"))
    assert problems_of(spec) == [f"data/s.csv, row 1 (line 2), column 'dimension': {message}"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("A\x00", "a name with a control character: 'A\\x00'"),
        ("NaN", "a missing-value marker, not a name: 'NaN'"),
        ("null", "a missing-value marker, not a name: 'null'"),
        ("A" * 5000, f"a name longer than 1,000 characters: '{'A' * 79}…'"),
    ],
)
def test_bad_algorithm_names_point_at_their_row(tmp_path, name, message):
    """Before: "problem f1 has no data for 'A '" — now the row that holds the bad name."""
    csv = SUMMARY_CSV + f"{name},f1,2,1.0,0.1,3\n"
    spec = study(tmp_path, csv=csv)
    assert problems_of(spec) == [f"data/s.csv, row 5 (line 6), column 'algorithm': {message}"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("f\u202eevil", "a name with a control character: 'f\\u202eevil'"),
        ("f\x85x", "a name with a control character: 'f\\x85x'"),
        ("word " * 30, f"a name longer than 100 characters: '{('word ' * 16)[:79]}…'"),
    ],
    ids=["right-to-left override", "C1 control", "long problem name"],
)
def test_bad_problem_names_point_at_their_row(tmp_path, name, message):
    """Problem names print in full (they are keys of every per-problem table): at most 100
    characters; no control, line-separator or text-direction character."""
    csv = SUMMARY_CSV + f"A,{name},2,1.0,0.1,3\n"
    spec = study(tmp_path, csv=csv)
    assert problems_of(spec) == [f"data/s.csv, row 5 (line 6), column 'problem': {message}"]


@pytest.mark.parametrize(
    ("kind", "one", "other", "shown"),
    [
        ("algorithms", "B", "B\u200b", "'B' is written 2 ways, 'B' and 'B\\u200b'"),
        (
            "algorithms",
            "Be\u0301",
            "B\u00e9",
            "'B\u00e9' is written 2 ways, 'Be\\u0301' and 'B\\xe9'",
        ),
        ("problems", "f2", "f\u00ad2", "'f2' is written 2 ways, 'f2' and 'f\\xad2'"),
    ],
    ids=["zero-width space", "accent encoded twice", "soft hyphen"],
)
def test_names_that_print_the_same_are_refused(tmp_path, kind, one, other, shown):
    """Algorithms 'B' and 'B' + a zero-width space were two algorithms printed alike in every
    table, figure and sentence; 'e' + U+0301 against 'é' even ended in a traceback."""
    pairs = (
        [("A", "f1"), ("A", "f2"), (one, "f1"), (one, "f2"), (other, "f1"), (other, "f2")]
        if kind == "algorithms"
        else [("A", "f1"), ("A", one), ("A", other), ("B", "f1"), ("B", one), ("B", other)]
    )
    csv = "algorithm,problem,dimension,mean,std,n\n"
    csv += "".join(f"{a},{p},2,{i + 1}.0,0.1,3\n" for i, (a, p) in enumerate(pairs))
    assert problems_of(study(tmp_path, csv=csv)) == [
        f"data source 's': {kind}: {shown}, which print the same (they differ in invisible "
        "characters or in how an accent is encoded); write them alike in the data"
        + (
            ", or merge them with 'aliases:' in the spec's algorithms"
            if kind == "algorithms"
            else ""
        )
    ]


def test_a_problem_number_written_two_ways_is_refused(tmp_path):
    """Problems '01' (text with a leading zero in one file) and '1' (a number in another)
    were two problems: each algorithm's runs split between them, without a word."""
    rows = [("A", "01"), ("A", "f2"), ("B", "1"), ("B", "f2"), ("A", "1"), ("B", "01")]
    csv = "algorithm,problem,dimension,mean,std,n\n"
    csv += "".join(f"{a},{p},2,{i + 1}.0,0.1,3\n" for i, (a, p) in enumerate(rows))
    assert problems_of(study(tmp_path, csv=csv)) == [
        "data source 's': problems: '01' and '1' are the one number written 2 ways (leading "
        "zeros: text in one file, a number in another?); write them alike in the data"
    ]


def test_versions_and_distinct_numbers_are_no_number_written_two_ways():
    from reportgen.data.checks import same_numbers

    assert same_numbers(["1", "10", "1.01", "1.1", "v2.01", "v2.1", "f1", "F1"], "x") == []
    assert same_numbers(["f01", "f1", "f10"], "problems") == [
        "problems: 'f01' and 'f1' are the one number written 2 ways (leading zeros: text in "
        "one file, a number in another?); write them alike in the data"
    ]


def test_truncated_platform_archive_names_it(tmp_path):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        payload = (b"% a COCO .dat file\n" + b"1 1e+00 1e+00\n" * 2000) * 5
        info = tarfile.TarInfo("run/data_f1/bbobexp_f1_DIM2.dat")
        info.size = len(payload)
        archive.addfile(info, io.BytesIO(payload))
    data = buffer.getvalue()
    (tmp_path / "data").mkdir()
    (tmp_path / "data/coco.tgz").write_bytes(data[: len(data) // 2])
    spec = write(
        tmp_path,
        "study.yaml",
        SPEC.replace("path: data/s.csv", "path: data/coco.tgz").replace(
            "format: summary", "format: coco\n    algorithm: X"
        ),
    )
    problems = problems_of(spec)
    assert problems and all(p.startswith("data/coco.tgz") for p in problems), problems


TOO_LARGE = (
    "too large (at most ±1e300: sums over runs overflow beyond it; rescale the values, or "
    "give a failed run the value it reached)"
)


@pytest.mark.parametrize("cell", ["1e301", "-1.7e308"])
def test_values_beyond_1e300_are_refused_at_their_cell(tmp_path, cell):
    """Means of runs near the largest double overflow: a perspectives analysis of runs at
    10³⁰⁷ and 1.5·10³⁰⁸ crashed with 'OverflowError: intermediate overflow in fsum', and the
    problem table printed their mean as ∞."""
    spec = study(tmp_path, csv=SUMMARY_CSV.replace("A,f1,2,1.0,", f"A,f1,2,{cell},"))
    assert problems_of(spec) == [
        f"data/s.csv, row 1 (line 2), column 'mean': {TOO_LARGE}: '{cell}'"
    ]


def test_values_up_to_1e300_load(tmp_path):
    spec = study(tmp_path, csv=SUMMARY_CSV.replace("A,f1,2,1.0,", "A,f1,2,-1e300,"))
    assert load_data(load_spec(spec)).sources["s"].frame["mean"].min() == -1e300


def test_a_typed_column_beyond_1e300_is_refused_too(tmp_path):
    """A float column of a DataFrame or Parquet file takes the bulk path (numbers_clean)."""
    frame = pd.read_csv(io.StringIO(SUMMARY_CSV.strip()))
    frame.loc[2, "mean"] = 1.5e308
    spec = yaml.safe_load(SPEC)
    del spec["data"]["s"]["path"]
    with pytest.raises(InputError) as info:
        reportgen.compute_study(reportgen.load_study(spec, base_dir=tmp_path, frames={"s": frame}))
    (problem,) = info.value.problems
    assert str(problem) == f"DataFrame 's', row 3, column 'mean': {TOO_LARGE}: 1.5e+308"


def test_a_spec_name_encoded_unlike_the_data_says_so(tmp_path):
    """The spec's algorithms: 'Be' + U+0301 against the data's 'Bé' (one code point) was "no
    algorithm 'Bé' (did you mean 'Bé'?)": two names that print alike, one suggested for the
    other without a word on why they differ."""
    pairs = [("A", "f1"), ("A", "f2"), ("B\u00e9", "f1"), ("B\u00e9", "f2")]
    csv = "algorithm,problem,dimension,mean,std,n\n"
    csv += "".join(f"{a},{p},2,{i + 1}.0,0.1,3\n" for i, (a, p) in enumerate(pairs))
    write(tmp_path, "data/s.csv", csv)
    spec = write(tmp_path, "study.yaml", SPEC + 'algorithms: ["A", "Be\\u0301"]\n')
    (problem,) = problems_of(spec)
    assert (
        "(did you mean 'B\\xe9'? It prints as 'Be\\u0301' does but is encoded differently: an "
        "accent composed or combining, or an invisible character)"
    ) in problem


def test_a_row_longer_than_the_header_past_the_first_is_named_by_its_row(tmp_path):
    """A row past the first with one cell too many (a value holding the separator) said
    "cannot read the file: Error tokenizing data. C error: Expected 6 fields in line 4, saw
    7" — pandas's words; the first row's was named "row 1 (line 2): 7 cells, but the header
    names 6 columns". Both are named alike now, and so is the message of pyarrow's reader."""
    lines = SUMMARY_CSV.strip().splitlines()
    lines[3] += ",0.5"
    assert problems_of(study(tmp_path, csv="\n".join(lines) + "\n")) == [
        "data/s.csv, row 3 (line 4): 7 cells, but the header names 6 columns; a row may not "
        "hold more cells than the header (a value with the separator in it, not quoted? a "
        "stray separator?)"
    ]
    from reportgen.data.read import _ragged

    problem = _ragged("big.csv", "CSV parse error: Expected 6 columns, got 7: B,f2,2,1,0.1,3,9")
    assert problem is not None and str(problem).startswith(
        "big.csv: a row holds 7 cells, but the header names 6 columns ('B,f2,2,1,0.1,3,9')"
    )
