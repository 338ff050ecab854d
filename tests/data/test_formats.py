"""The platform formats coco, cec and ioh: small fixtures, exact messages, and the real files.

Fixtures (tests/data/fixtures/): ``coco/RS-fixture`` was written by cocoex 2.8.2 (random search
on bbob f1, f8 in 2-D and 3-D, instances 1–3, 50·D evaluations; ``fixtures/gen_coco.py``, only
the .info and .dat files kept) and ``ioh/`` by ioh 0.3.22 (random search and a (1+1)-ES on
BBOB f1, f8, 2-D and 3-D, instances 1–3; ``fixtures/gen_ioh.py``). CEC files are written in
the tests.
"""

from __future__ import annotations

import shutil
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reportgen.data.load import load_data
from reportgen.errors import InputError
from reportgen.spec.load import load_spec
from tests.conftest import SHARED_DATA, require_shared, write

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def spec(tmp_path: Path, source: str) -> Path:
    return write(
        tmp_path,
        "study.yaml",
        "study: {title: Formats}\nminimize: true\ndata:\n  src:\n"
        + "".join(f"    {line}\n" for line in source.strip().splitlines())
        + "analyses:\n  - kind: significance_relation\n    data: src\n",
    )


def load(path: Path):
    return load_data(load_spec(path))


def messages(path: Path) -> list[str]:
    with pytest.raises(InputError) as info:
        load(path)
    return [str(p) for p in info.value.problems]


# --- coco ---------------------------------------------------------------------------------------


@pytest.fixture
def coco_folder(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "coco" / "RS-fixture", tmp_path / "data" / "RS-fixture")
    return tmp_path / "data" / "RS-fixture"


def test_coco_folder_gives_histories(tmp_path: Path, coco_folder: Path) -> None:
    data = load(spec(tmp_path, "path: data/RS-fixture\nformat: coco"))
    frame = data.sources["src"].frame
    assert data.sources["src"].format == "histories"
    assert frame.groupby(["problem", "dimension"], observed=True)["run"].nunique().to_dict() == {
        ("f1", 2): 3, ("f1", 3): 3, ("f8", 2): 3, ("f8", 3): 3,
    }  # fmt: skip
    run = frame[(frame["problem"] == "f1") & (frame["dimension"] == 2) & (frame["run"] == 1)]
    # bbobexp_f1_DIM2.dat, first block: improvements, then the run's end at 100 (= 50·D)
    assert run["evaluations"].tolist() == [1, 6, 11, 18, 51, 62, 100]
    assert run["value"].tolist() == pytest.approx(
        [7.688733605, 5.624462645, 4.821996552, 1.469205145, 1.391361042, 0.9117043532,
         0.9117043532]
    )  # fmt: skip


@pytest.mark.parametrize("kind", ["tgz", "zip"])
def test_coco_archives_read_in_memory(tmp_path: Path, coco_folder: Path, kind: str) -> None:
    archive = tmp_path / "data" / f"rs.{kind}"
    if kind == "tgz":
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(coco_folder, arcname="RS-fixture")
    else:
        with zipfile.ZipFile(archive, "w") as zf:
            for file in sorted(coco_folder.rglob("*")):
                zf.write(file, "RS-fixture/" + file.relative_to(coco_folder).as_posix())
    shutil.rmtree(coco_folder)
    data = load(spec(tmp_path, f"path: data/rs.{kind}\nformat: coco\nalgorithm: RS"))
    assert data.algorithms == ("RS",) and len(data.sources["src"].frame) == 72
    assert not list((tmp_path / "data").glob("RS-fixture*"))  # nothing unpacked


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"xx", "Not a gzipped file (b'xx')"),
        # a gzip header followed by a deflate stream that is not one: zlib.error
        (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage", "Error -3 while decompressing"),
    ],
)
def test_a_broken_coco_archive_is_named(tmp_path: Path, content: bytes, error: str) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "rs.tgz").write_bytes(content)
    (problem,) = messages(spec(tmp_path, "path: data/rs.tgz\nformat: coco\nalgorithm: RS"))
    assert problem.startswith(f"data/rs.tgz: cannot read the archive: {error}")


def test_coco_trials(tmp_path: Path, coco_folder: Path) -> None:
    source = "path: data/RS-fixture\nformat: coco\ncoco: {layout: trials, target: 1.0}"
    frame = load(spec(tmp_path, source)).sources["src"].frame
    row = frame.iloc[0]
    assert (row["problem"], row["dimension"], row["run"]) == ("f1", 2, 1)
    assert (row["value"], row["evaluations_used"], row["evaluations_to_target"]) == (
        pytest.approx(0.9117043532),
        100,
        62,
    )
    assert np.isinf(frame["evaluations_to_target"]).sum() == 7


def test_coco_broken_files(tmp_path: Path, coco_folder: Path) -> None:
    dat = coco_folder / "data_f1" / "bbobexp_f1_DIM2.dat"
    lines = dat.read_text().splitlines()
    lines[2] = "6 0 oops +8.5e+01"
    first_block_end = [i for i, line in enumerate(lines) if line.startswith("%")][2]
    dat.write_text("\n".join(lines[:first_block_end]) + "\n")
    (coco_folder / "data_f8" / "bbobexp_f8_DIM3.dat").unlink()
    assert messages(spec(tmp_path, "path: data/RS-fixture\nformat: coco")) == [
        "data/RS-fixture:data_f1/bbobexp_f1_DIM2.dat, run 1: 1 record with a missing, "
        "non-numeric, infinite or negative evaluation count or value",
        "data/RS-fixture:bbobexp_f1.info, line 3: data_f1/bbobexp_f1_DIM2.dat holds 2 runs "
        "but the .info lists 3 (f1, D=2)",
        "data/RS-fixture:bbobexp_f8.info, line 6: the data file 'data_f8/bbobexp_f8_DIM3.dat' "
        "is not there (data_f8/bbobexp_f8_DIM3.dat)",
    ]


def test_coco_evaluations_that_go_down_within_a_run_are_an_error(
    tmp_path: Path, coco_folder: Path
) -> None:
    """Run 1's record at 51 evaluations edited to 5 (after 18) was read without a word: the
    running minimum in file order, sorted by evaluations, gave a history whose value rose
    from 1.39 at 5 evaluations to 5.62 at 6."""
    dat = coco_folder / "data_f1" / "bbobexp_f1_DIM2.dat"
    dat.write_text(dat.read_text().replace("\n51 0 ", "\n5 0 ", 1))
    assert messages(spec(tmp_path, "path: data/RS-fixture\nformat: coco")) == [
        "data/RS-fixture:data_f1/bbobexp_f1_DIM2.dat, run 1: the evaluation counts go down "
        "within the run (5 after 18); records must be in the order the run made them (two runs "
        "without a header line between them?)"
    ]


def test_coco_fractional_evaluation_counts_are_an_error(tmp_path: Path, coco_folder: Path):
    """An evaluation count of 51.5 in a .dat record, 100.5 in an .info entry or 100.5 as a
    .tdat run's last record was read as it stood (a CSV column of them is refused)."""
    dat = coco_folder / "data_f1" / "bbobexp_f1_DIM2.dat"
    dat.write_text(dat.read_text().replace("\n51 0 ", "\n51.5 0 ", 1))
    info = coco_folder / "bbobexp_f1.info"
    info.write_text(info.read_text().replace("1:100|", "1:100.5|", 1))
    tdat = coco_folder / "data_f8" / "bbobexp_f8_DIM2.tdat"
    tdat.write_bytes(b"% h\n1 0 9 9 9\n100 0 8 8 8\n% h\n1 0 9 9 9\n100.5 0 8 8 8\n")
    assert messages(spec(tmp_path, "path: data/RS-fixture\nformat: coco")) == [
        "data/RS-fixture:bbobexp_f1.info, line 3: an evaluation count must be a whole number: "
        "'100.5' (entry '1:100.5|9.1e-01')",
        "data/RS-fixture:data_f8/bbobexp_f8_DIM2.tdat, run 2: the evaluation count of the last "
        "record must be a whole number: 100.5",
        "data/RS-fixture:data_f1/bbobexp_f1_DIM2.dat, line 6: an evaluation count must be a "
        "whole number: '51.5'",
    ]


def test_coco_numbers_beyond_a_csv_cells_limits_are_an_error(tmp_path: Path, coco_folder: Path):
    """A best f − f_opt of 1e301 (beyond ±1e300, where the analyses' sums over runs
    overflow) and an evaluation count of 1e17 (beyond 2**53) were read as they stood, though
    the same cells in a CSV file are refused; both are named by line and column now, and in
    a .tgz archive too."""
    dat = coco_folder / "data_f1" / "bbobexp_f1_DIM2.dat"
    text = dat.read_text().replace("\n51 0 +1.391361042e+00 ", "\n51 0 1e301 ", 1)
    dat.write_text(text.replace("\n62 0 ", "\n100000000000000000 0 ", 1))
    expected = [
        "data_f1/bbobexp_f1_DIM2.dat, line 7, column 1: too large (at most "
        "9,007,199,254,740,992): '100000000000000000'",
        "data_f1/bbobexp_f1_DIM2.dat, line 6, column 3: too large (at most ±1e300: sums over "
        "runs overflow beyond it; rescale the values, or give a failed run the value it "
        "reached): '1e301'",
    ]
    assert messages(spec(tmp_path, "path: data/RS-fixture\nformat: coco")) == [
        f"data/RS-fixture:{e}" for e in expected
    ]
    with tarfile.open(tmp_path / "data" / "rs.tgz", "w:gz") as tar:
        tar.add(coco_folder, arcname="RS")
    assert messages(spec(tmp_path, "path: data/rs.tgz\nformat: coco")) == [
        f"data/rs.tgz:RS/{e}" for e in expected
    ]


def test_coco_values_up_to_1e300_load(tmp_path: Path, coco_folder: Path) -> None:
    dat = coco_folder / "data_f1" / "bbobexp_f1_DIM2.dat"
    dat.write_text(dat.read_text().replace("\n1 0 +7.688733605e+00 ", "\n1 0 -1e300 ", 1))
    frame = load(spec(tmp_path, "path: data/RS-fixture\nformat: coco")).sources["src"].frame
    assert frame["value"].min() == -1e300


def test_coco_header_without_a_dimension_or_an_algorithm(tmp_path: Path, coco_folder: Path):
    """DIM = 0 was read as dimension 0 (and reported much later as a problem some algorithm
    has no data for); algId = '' made an algorithm named '' in the report."""
    info = coco_folder / "bbobexp_f1.info"
    info.write_text(info.read_text().replace("DIM = 2,", "DIM = 0,"))
    info = coco_folder / "bbobexp_f8.info"
    info.write_text(info.read_text().replace("algId = 'RS-fixture'", "algId = ''"))
    assert messages(spec(tmp_path, "path: data/RS-fixture\nformat: coco")) == [
        "data/RS-fixture:bbobexp_f1.info, line 1: 'DIM' must be ≥ 1 and 'funcId' ≥ 0: DIM = 0, "
        "funcId = 1",
        "data/RS-fixture:bbobexp_f8.info, line 3: the header above names no usable algorithm "
        "(empty name: algId = ''); set the source's 'algorithm:'",
        "data/RS-fixture:bbobexp_f8.info, line 6: the header above names no usable algorithm "
        "(empty name: algId = ''); set the source's 'algorithm:'",
    ]
    named = spec(tmp_path, "path: data/RS-fixture\nformat: coco\nalgorithm: RS")
    info = coco_folder / "bbobexp_f1.info"
    info.write_text(info.read_text().replace("DIM = 0,", "DIM = 2,"))
    assert load(named).algorithms == ("RS",)


def test_a_coco_folder_named_twice_is_refused(tmp_path: Path, coco_folder: Path) -> None:
    """'paths: [data/RS-fixture, data/*]' read the folder twice: every run counted twice as a
    run of the same algorithm (6 runs per problem instead of 3), without a word."""
    assert messages(spec(tmp_path, "paths: [data/RS-fixture, data/*]\nformat: coco")) == [
        "data.src.paths (study.yaml:5): the data file 'data/RS-fixture' is named more than once "
        "by 'data/RS-fixture', 'data/*'; each file may be read once"
    ]


def test_coco_spec_errors(tmp_path: Path, coco_folder: Path) -> None:
    write(tmp_path, "data/x.csv", "a\n1\n")
    assert messages(spec(tmp_path, "path: data/x.csv\nformat: coco")) == [
        "data/x.csv: a coco source is a COCO output folder or an archive (.tgz, .tar.gz, .tar, "
        ".tar.bz2, .tar.xz, .zip)"
    ]
    with pytest.raises(InputError) as info:
        load_spec(spec(tmp_path, "path: data/x\nformat: coco\ncolumns: {value: v}"))
    assert (
        "format 'coco' reads the platform's own files; 'columns' does not apply (got value)"
        in str(info.value)
    )
    path = spec(tmp_path, "path: data/RS-fixture\nformat: coco").read_text()
    minimize_false = write(
        tmp_path, "study.yaml", path.replace("minimize: true", "minimize: false")
    )
    assert messages(minimize_false) == [
        "data.src: format 'coco' holds errors f − f_opt (smaller is better), but the study says "
        "minimize: false"
    ]


DAT_BLOCKS = (
    b"% function evaluation | noise-free fitness - Fopt | best noise-free fitness - Fopt | x1\n"
    b"% a second header line: the same run\n"
    b"1 +2.0e+01 +2.0e+01 +2.0e+01 +2.0e+01 -0.5\n"
    b"\n"
    b"  4 +1.5e+01 +1.5e+01 +1.5e+01 +1.5e+01 +0.5\r\n"
    b"% function evaluation | ...\n"
    b"1 +9.0e+00 +9.0e+00\n"
    b"% function evaluation | ... (a header with no records after it: an empty run)\n"
)


@pytest.mark.parametrize(
    "content",
    [DAT_BLOCKS, DAT_BLOCKS.replace(b"1 +9.0e+00 +9.0e+00", b"1 +9.0e+00")],
    ids=["well-formed", "short-record"],
)
def test_coco_dat_blocks_and_lines_read_the_same_runs(content: bytes) -> None:
    from reportgen.data.formats.coco import _parse_dat, _parse_dat_blocks, _parse_dat_lines

    problems: list = []
    runs = _parse_dat("a.tgz", "d.dat", content, problems)
    by_lines = _parse_dat_lines("a.tgz", "d.dat", content, [])
    assert [(ev.tolist(), val.tolist()) for ev, val, _ in runs] == [
        (ev.tolist(), val.tolist()) for ev, val, _ in by_lines
    ]
    if content == DAT_BLOCKS:  # read by blocks; columns 1 and 3 of each record, by hand
        assert _parse_dat_blocks(content) is not None
        assert [(ev.tolist(), val.tolist()) for ev, val, _ in runs] == [
            ([1.0, 4.0], [20.0, 15.0]),
            ([1.0], [9.0]),
            ([], []),
        ]
        assert problems == []
    else:  # a record with two columns: the line reader names it
        assert _parse_dat_blocks(content) is None
        assert [str(p) for p in problems] == [
            "a.tgz:d.dat, line 7: a record needs at least 3 columns (evaluations, f − f_opt, "
            "best f − f_opt) after a '%' header: '1 +9.0e+00'"
        ]


def test_coco_dat_fractional_counts_are_named_by_line_then_counted() -> None:
    from reportgen.data.checks import MAX_ROWS_PER_PROBLEM
    from reportgen.data.formats.coco import _parse_dat

    records = b"".join(b"%d.5 0 9 9\n" % i for i in range(MAX_ROWS_PER_PROBLEM + 3))
    problems: list = []
    _parse_dat("a.tgz", "d.dat", b"% h\n" + records, problems)
    said = [str(p) for p in problems]
    assert said[0] == "a.tgz:d.dat, line 2: an evaluation count must be a whole number: '0.5'"
    assert len(said) == MAX_ROWS_PER_PROBLEM + 1
    assert said[-1] == "a.tgz:d.dat: an evaluation count must be a whole number in 3 more records"


def test_coco_tdat_last_records() -> None:
    from reportgen.data.formats.coco import _last_records

    content = b"% h\n1 5 5\n10 4 4\n  20 3 3  \r\n\n% h\n% h\n1 9 9\n% h\n"
    assert _last_records(content) == [20.0, 1.0]


def test_coco_dat_of_header_lines_only_holds_one_empty_run() -> None:
    # The block reader used to fail on a file without records (a traceback, not a problem).
    from reportgen.data.formats.coco import _parse_dat, _parse_dat_lines

    for content in (b"% h\n", b"% h\n% h\n", b"% h"):
        runs = _parse_dat("a.tgz", "d.dat", content, [])
        by_lines = _parse_dat_lines("a.tgz", "d.dat", content, [])
        assert [(ev.tolist(), val.tolist()) for ev, val, _ in runs] == [([], [])]
        assert [(ev.tolist(), val.tolist()) for ev, val, _ in by_lines] == [([], [])]


def test_coco_blocks_found_in_place_as_splitting_at_header_lines_finds_them() -> None:
    """:func:`_segments` and :func:`_last_records` search the file for header lines in place;
    here they are checked against the plain definition on random files: split at every
    newline followed by ``%``, drop each header line, take each block's last non-blank line."""
    from reportgen.data.formats.coco import _last_records, _segments

    def by_splitting(content: bytes) -> tuple[bytes, list[bytes]]:
        pieces = content.split(b"\n%")
        head = b"" if pieces[0].startswith(b"%") else pieces.pop(0)
        return head, [piece.partition(b"\n")[2] for piece in pieces]

    def last_records(content: bytes) -> list[float]:
        head, blocks = by_splitting(content)
        ends = []
        for block in (head, *blocks):
            lines = [line for line in block.split(b"\n") if line.strip()]
            if lines:
                try:
                    end = float(lines[-1].split()[0])
                except ValueError:
                    end = float("nan")
                ends.append(end if np.isfinite(end) else 0.0)
        return ends

    pieces = [
        b"%",
        b"% h",
        b"\n",
        b"\r\n",
        b" ",
        b"\t",
        b"7",
        b"2.5 1",
        b"x",
        b"1e3",
        b"nan",
        b"5%",
    ]
    rng = np.random.default_rng(14)
    for _ in range(20_000):
        content = b"".join(rng.choice(pieces, size=rng.integers(0, 16)).tolist())
        assert _segments(content) == by_splitting(content), content
        assert _last_records(content) == last_records(content), content


def test_coco_real_archives_several_in_one_source(tmp_path: Path) -> None:
    archives = SHARED_DATA / "coco-bbob-archive"
    require_shared(archives, "the shared COCO data archive")
    for name in ("R-SHADE-10e2_Tanabe.tgz", "DIRECT_posik_noiseless_no-m-files.tgz"):
        (tmp_path / "data").mkdir(exist_ok=True)
        (tmp_path / "data" / name).symlink_to(archives / name)
    source = "paths: data/*.tgz\nformat: coco\ncoco: {layout: trials}"
    path = spec(tmp_path, source)
    text = path.read_text().replace("analyses:", "problems: {incomplete: exclude}\nanalyses:")
    data = load(write(tmp_path, "study.yaml", text))
    frame = data.sources["src"].frame
    assert data.algorithms == ("DIRECT", "R-SHADE-10e2")
    runs = frame.groupby("algorithm", observed=True)["run"].count().to_dict()
    assert runs == {"DIRECT": 24 * 5 * 5, "R-SHADE-10e2": 24 * 5 * 15}  # D=40 excluded
    assert [c.code for c in data.caveats] == ["unequal_runs", "excluded_problems"]


# --- ioh ----------------------------------------------------------------------------------------


def test_ioh_logs(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "ioh", tmp_path / "data" / "ioh")
    data = load(spec(tmp_path, "paths: data/ioh/*\nformat: ioh"))
    frame = data.sources["src"].frame
    assert data.algorithms == ("OnePlusOne", "RandomSearch")
    run = frame[
        (frame["algorithm"] == "OnePlusOne")
        & (frame["problem"] == "f1")
        & (frame["dimension"] == 2)
        & (frame["run"] == 1)
    ]
    # data_f1_Sphere/IOHprofiler_f1_DIM2.dat, first block: the last line (100, 0.0398) is the
    # run's final evaluation, worse than the best: it ends the run at the best value.
    assert run["evaluations"].tolist()[-3:] == [85, 86, 100]
    assert run["value"].tolist()[-2:] == pytest.approx([0.0022801487, 0.0022801487])
    trials = load(spec(tmp_path, "paths: data/ioh/*\nformat: ioh\nioh: {layout: trials}"))
    assert len(trials.sources["src"].frame) == 2 * 2 * 2 * 3


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            "\n1 ",
            "run 1: the evaluation counts go down within the run (1 after 2); records must be in "
            "the order the run made them (two runs without a header line between them?)",
        ),
        # Read as it stood before (a CSV column of fractional counts is refused).
        ("\n7.5 ", "line 4: an evaluation count must be a whole number: '7.5'"),
    ],
    ids=["going-down", "fractional"],
)
def test_ioh_bad_evaluation_counts_are_an_error(tmp_path: Path, record: str, message: str):
    shutil.copytree(FIXTURES / "ioh" / "OnePlusOne", tmp_path / "data" / "one")
    dat = tmp_path / "data" / "one" / "data_f1_Sphere" / "IOHprofiler_f1_DIM2.dat"
    dat.write_text(dat.read_text().replace("\n7 ", record, 1))
    assert messages(spec(tmp_path, "path: data/one\nformat: ioh")) == [
        f"data/one/data_f1_Sphere/IOHprofiler_f1_DIM2.dat, {message}"
    ]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            "\n7 1e301\n",
            "line 4, column 'raw_y': too large (at most ±1e300: sums over runs overflow beyond "
            "it; rescale the values, or give a failed run the value it reached): '1e301'",
        ),
        ("\n7 -1.7e308\n", "line 4, column 'raw_y': too large (at most ±1e300"),
        (
            "\n100000000000000000 17.8\n",
            "line 4, column 'evaluations': too large (at most 9,007,199,254,740,992): "
            "'100000000000000000'",
        ),
    ],
    ids=["1e301", "-1.7e308", "evaluations"],
)
def test_ioh_numbers_beyond_a_csv_cells_limits_are_an_error(tmp_path: Path, record, message):
    """raw_y of 1e301 was read as it stood (a CSV cell of it is refused: sums over runs
    overflow); so was a record at 10¹⁷ evaluations (beyond 2**53)."""
    shutil.copytree(FIXTURES / "ioh" / "OnePlusOne", tmp_path / "data" / "one")
    dat = tmp_path / "data" / "one" / "data_f1_Sphere" / "IOHprofiler_f1_DIM2.dat"
    dat.write_text(dat.read_text().replace("\n7 17.8933768075\n", record, 1))
    (problem,) = messages(spec(tmp_path, "path: data/one\nformat: ioh"))
    assert problem.startswith(f"data/one/data_f1_Sphere/IOHprofiler_f1_DIM2.dat, {message}")


def test_ioh_meta_file_reached_twice_is_refused(tmp_path: Path) -> None:
    """A .json named alone and again inside its folder added its runs twice (6 runs of
    OnePlusOne on f1 instead of 3: only an unequal_runs warning)."""
    shutil.copytree(FIXTURES / "ioh" / "OnePlusOne", tmp_path / "data" / "one")
    source = "paths: [data/one/IOHprofiler_f1_Sphere.json, data/one]\nformat: ioh"
    assert messages(spec(tmp_path, source)) == [
        "data/one/IOHprofiler_f1_Sphere.json: read twice: the paths also reach it as "
        "data/one/IOHprofiler_f1_Sphere.json; each file may be read once"
    ]


def test_ioh_final_evaluation_worse_than_the_best_is_no_caveat(tmp_path: Path) -> None:
    """raw_y is each logged point's value: the run's final evaluation, logged whatever its
    value, is usually worse than its best. That was reported as 'best_so_far_worsens' on 24
    of the fixture's 24 runs — a warning on every real IOHprofiler study (an error under
    --strict)."""
    shutil.copytree(FIXTURES / "ioh", tmp_path / "data" / "ioh")
    data = load(spec(tmp_path, "paths: data/ioh/*\nformat: ioh"))
    assert [c.code for c in data.caveats] == []


def test_ioh_broken_files(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "ioh" / "OnePlusOne", tmp_path / "data" / "one")
    meta = tmp_path / "data" / "one" / "IOHprofiler_f1_Sphere.json"
    meta.write_text(meta.read_text().replace('"maximization": false', '"maximization": true'))
    dat = tmp_path / "data" / "one" / "data_f8_Rosenbrock" / "IOHprofiler_f8_DIM2.dat"
    dat.write_text(dat.read_text().replace("\n2 ", "\nx ", 1))
    assert messages(spec(tmp_path, "path: data/one\nformat: ioh")) == [
        "data/one/IOHprofiler_f1_Sphere.json: a maximisation log; the ioh format reads "
        "minimisation (f − f_opt) only",
        "data/one/data_f8_Rosenbrock/IOHprofiler_f8_DIM2.dat, line 18: a header needs the "
        "columns 'evaluations' and 'raw_y': 'x 58057.9479359057'",
    ]


def _edited_meta(tmp_path: Path, edit) -> Path:
    """The OnePlusOne logs with its f1 .json edited; the study's spec."""
    import json

    shutil.copytree(FIXTURES / "ioh" / "OnePlusOne", tmp_path / "data" / "one")
    meta = tmp_path / "data" / "one" / "IOHprofiler_f1_Sphere.json"
    content = json.loads(meta.read_text())
    edit(content)
    meta.write_text(json.dumps(content))
    return spec(tmp_path, "path: data/one\nformat: ioh")


@pytest.mark.parametrize(
    ("edit", "where", "message"),
    [
        (lambda m: m.update(algorithm="X"), "algorithm",
         "must be the algorithm's name (or set the source's 'algorithm:'): \"X\""),
        (lambda m: m["algorithm"].update(name=None), "algorithm.name",
         "must be the algorithm's name (or set the source's 'algorithm:'): null"),
        (lambda m: m.update(function_id=None), "function_id", "must be a whole number ≥ 0: null"),
        (lambda m: m.update(maximization="false"), "maximization",
         'must be true or false: "false"'),
        (lambda m: m.update(scenarios=None), "scenarios",
         "must be a list (one entry per dimension): null"),
        (lambda m: m["scenarios"][0].pop("path"), "scenarios[0].path",
         "must be the path of the run file (.dat): null"),
        (lambda m: m["scenarios"][0].pop("dimension"), "scenarios[0].dimension",
         "must be a whole number ≥ 1: null"),
        (lambda m: m["scenarios"][0].update(dimension=2.5), "scenarios[0].dimension",
         "must be a whole number ≥ 1: 2.5"),
        (lambda m: m["scenarios"][0].update(dimension=0), "scenarios[0].dimension",
         "must be a whole number ≥ 1: 0"),
        (lambda m: m["scenarios"][0].update(runs=None), "scenarios[0].runs",
         "must be a list (one entry per run): null"),
        (lambda m: m["scenarios"][0]["runs"].__setitem__(0, 5), "scenarios[0].runs[0]",
         "must be an object with 'evals': 5"),
        (lambda m: m["scenarios"][0]["runs"][0].update(evals="x"), "scenarios[0].runs[0].evals",
         'must be a whole number ≥ 0: "x"'),
        (lambda m: m["scenarios"][0]["runs"][0].update(evals=float("nan")),
         "scenarios[0].runs[0].evals", "must be a whole number ≥ 0: NaN"),
        (lambda m: m["scenarios"][0]["runs"][0].update(evals=100.5),
         "scenarios[0].runs[0].evals", "must be a whole number ≥ 0: 100.5"),
    ],
)  # fmt: skip
def test_ioh_meta_file_with_wrong_types_names_the_key(tmp_path: Path, edit, where, message):
    """A hand-edited or foreign .json was a KeyError/TypeError/AttributeError traceback, or
    was read wrong without a word: dimension 2.5 as 2, a null function id as problem 'fNone',
    a null algorithm name as algorithm 'None', "maximization": "false" as a maximisation log."""
    assert messages(_edited_meta(tmp_path, edit)) == [
        f"data/one/IOHprofiler_f1_Sphere.json, {where}: {message}"
    ]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("One\nPlus", 'a name with a control character (or set the source\'s \'algorithm:\'): "One\\nPlus"'),
        ("One\u202eenO", 'a name with a control character (or set the source\'s \'algorithm:\'): "One\\u202eenO"'),
        ("nan", 'a missing-value marker, not a name (or set the source\'s \'algorithm:\'): "nan"'),
    ],
)  # fmt: skip
def test_ioh_algorithm_name_is_checked_as_a_csv_cell_is(tmp_path: Path, name: str, message: str):
    """A name a CSV cell may not hold (a newline, a right-to-left override that makes it
    display as other text, 'nan') reached the report unchecked from a platform's files."""

    def edit(meta):
        meta["algorithm"]["name"] = name

    assert messages(_edited_meta(tmp_path, edit)) == [
        f"data/one/IOHprofiler_f1_Sphere.json, algorithm.name: {message}"
    ]


def test_coco_and_cec_algorithm_names_are_checked_as_a_csv_cell_is(
    tmp_path: Path, coco_folder: Path
) -> None:
    for info in coco_folder.glob("*.info"):
        info.write_text(info.read_text().replace("algId = 'RS-fixture'", "algId = 'null'"))
    assert messages(spec(tmp_path, "path: data/RS-fixture\nformat: coco"))[0] == (
        "data/RS-fixture:bbobexp_f1.info, line 3: the header above names no usable algorithm "
        "(a missing-value marker, not a name: algId = 'null'); set the source's 'algorithm:'"
    )
    for f in (1, 2):
        _cec_file(tmp_path / "cec", f"DE\u202e_{f}_10.txt")
    assert messages(spec(tmp_path, "paths: cec/*.txt\nformat: cec")) == [
        "cec/DE\u202e_1_10.txt: the algorithm its name gives: a name with a control "
        "character: 'DE\\u202e'"
    ]  # once for the name, not once per file


def test_ioh_run_file_that_is_a_folder_says_so(tmp_path: Path) -> None:
    def edit(meta):
        meta["scenarios"][0]["path"] = "data_f1_Sphere"

    assert messages(_edited_meta(tmp_path, edit)) == [
        "data/one/IOHprofiler_f1_Sphere.json: the data file 'data_f1_Sphere' is a folder, not a "
        "file"
    ]


def test_ioh_source_algorithm_needs_no_name_in_the_file(tmp_path: Path) -> None:
    def edit(meta):
        meta["algorithm"] = {}

    path = _edited_meta(tmp_path, edit)
    path.write_text(path.read_text().replace("format: ioh", "format: ioh\n    algorithm: ES"))
    assert load(path).algorithms == ("ES",)


# --- cec ----------------------------------------------------------------------------------------

CEC17_ROWS = 14


def _cec_file(
    folder: Path, name: str, runs: int = 3, rows: int = CEC17_ROWS, sep: str = " "
) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    values = np.array([[100.0 / (1 + k) * (1 + r) for r in range(runs)] for k in range(rows)])
    (folder / name).write_text(
        "\n".join(sep.join(f"{v:.6e}" for v in row) for row in values) + "\n"
    )


def test_cec2017_files(tmp_path: Path) -> None:
    for f in (1, 2):
        _cec_file(tmp_path / "data", f"DE_{f}_10.txt")
        _cec_file(tmp_path / "data", f"PSO_{f}_10.txt", sep=",")
    data = load(spec(tmp_path, "paths: data/*.txt\nformat: cec"))
    frame = data.sources["src"].frame
    run = frame[(frame["algorithm"] == "DE") & (frame["problem"] == "f1") & (frame["run"] == 1)]
    # CEC 2017: 0.01, 0.02, 0.03, 0.05, 0.1, … 1.0 × MaxFES, MaxFES = 10000·D = 100000
    assert run["evaluations"].tolist() == [
        1000, 2000, 3000, 5000, 10000, 20000, 30000, 40000, 50000, 60000, 70000, 80000, 90000,
        100000,
    ]  # fmt: skip
    assert data.caveats == ()


def _with_bom_and_crlf(path: Path) -> None:
    """``path`` as a Windows editor saves it: a UTF-8 byte-order mark and CRLF lines."""
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))


def test_platform_files_with_a_byte_order_mark_read_as_without(tmp_path: Path) -> None:
    """A UTF-8 byte-order mark (accepted at the start of a CSV file or the spec) made an
        IOHprofiler .json "not valid JSON: Unexpected UTF-8 BOM", an IOH .dat's header "need the
        columns 'evaluations' and 'raw_y'", a CEC file's first cell "not a finite number" and a COCO
    file's first '%' header "a record" that "needs at least 3 columns"."""
    for f in (1, 2):
        _cec_file(tmp_path / "data", f"DE_{f}_10.txt")
    plain = load(spec(tmp_path, "paths: data/*.txt\nformat: cec")).sources["src"].frame
    for file in (tmp_path / "data").glob("*.txt"):
        _with_bom_and_crlf(file)
    marked = load(spec(tmp_path, "paths: data/*.txt\nformat: cec")).sources["src"].frame
    pd.testing.assert_frame_equal(marked, plain)

    shutil.copytree(FIXTURES / "coco" / "RS-fixture", tmp_path / "coco")
    source = "path: coco\nformat: coco"
    plain = load(spec(tmp_path, source)).sources["src"].frame
    for file in (tmp_path / "coco").rglob("*.*"):
        _with_bom_and_crlf(file)
    pd.testing.assert_frame_equal(load(spec(tmp_path, source)).sources["src"].frame, plain)

    shutil.copytree(FIXTURES / "ioh" / "OnePlusOne", tmp_path / "ioh" / "one")
    source = "path: ioh/one\nformat: ioh"
    plain = load(spec(tmp_path, source)).sources["src"].frame
    for file in [*(tmp_path / "ioh").rglob("*.json"), *(tmp_path / "ioh").rglob("*.dat")]:
        _with_bom_and_crlf(file)
    pd.testing.assert_frame_equal(load(spec(tmp_path, source)).sources["src"].frame, plain)


def test_cec2020_checkpoints_and_trials(tmp_path: Path) -> None:
    _cec_file(tmp_path / "data", "A_1_5.txt", rows=16)
    source = (
        "paths: data/*.txt\nformat: cec\ncec:\n  checkpoints: cec2020\n"
        "  max_evaluations: {5: 50000}\n  layout: histories"
    )
    frame = load(spec(tmp_path, source)).sources["src"].frame
    # floor(5^(k/5 − 3) · 50000), k = 0 … 15
    expected = [np.floor(5 ** (k / 5 - 3) * 50000 + 1e-9) for k in range(16)]
    assert frame[frame["run"] == 1]["evaluations"].tolist() == expected
    assert expected[0] == 400 and expected[-1] == 50000


def test_cec_last_row_and_non_monotone_caveat(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    rows = [[5.0, 5.0], [1e-9, 3.0], [0.0, 4.0]]  # run 2 gets worse: 3 → 4
    text = "\n".join(" ".join(str(v) for v in r) for r in rows) + "\n1500 2000\n"
    (folder / "A_1_10.txt").write_text(text)
    source = (
        "paths: data/*.txt\nformat: cec\ncec:\n  checkpoints: [0.1, 0.5, 1.0]\n"
        "  max_evaluations: 100*D\n  last_row: evaluations_to_target\n  layout: trials"
    )
    data = load(spec(tmp_path, source))
    frame = data.sources["src"].frame
    assert frame["value"].tolist() == [0.0, 3.0]  # running minimum
    assert frame["evaluations_to_target"].tolist() == [1500, np.inf]
    assert frame["evaluations_used"].tolist() == [1000, 1000]
    assert [(c.code, c.message, c.where) for c in data.caveats] == [
        (
            "non_monotone_checkpoints",
            "1 CEC file has errors that get worse from one checkpoint to the next (not "
            "best-so-far); the running minimum over checkpoints is used.",
            "data/A_1_10.txt",
        )
    ]


def test_cec_last_row_of_fractions_is_no_evaluation_count(tmp_path: Path) -> None:
    """'last_row: evaluations_to_target' over a row that is not counts (errors, a 15th
    checkpoint) was read as evaluations 0.0034, 500.5, … without a word."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "A_1_10.txt").write_text("5 5\n1 3\n0 2\n500.5 0.0034\n")
    source = (
        "paths: data/*.txt\nformat: cec\ncec:\n  checkpoints: [0.1, 0.5, 1.0]\n"
        "  max_evaluations: 100*D\n  last_row: evaluations_to_target\n  layout: trials"
    )
    assert messages(spec(tmp_path, source)) == [
        "data/A_1_10.txt, last row: evaluations to target must be whole numbers: 500.5; is "
        "the last row evaluation counts? check data.src.cec.last_row"
    ]


def test_cec_broken_files(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _cec_file(folder, "A_1_10.txt", rows=13)
    _cec_file(folder, "A_2_30.txt")
    _cec_file(folder, "B-f3-10.txt")
    (folder / "A_4_10.txt").write_text("1 2\n3 nan\n4\n")
    (folder / "A_5_10.txt").write_text("1 2\n3 x\n")
    (folder / "A_6_10.txt").write_text("1 2\n3 2e300\n")
    source = "paths: data/*.txt\nformat: cec\ncec: {max_evaluations: {10: 100000}}"
    assert messages(spec(tmp_path, source)) == [
        "data/A_1_10.txt: 13 rows, expected 14 (14 checkpoints of 'cec2017'); check "
        "data.src.cec.checkpoints and data.src.cec.last_row",
        "data/A_2_30.txt: no MaxFES for dimension 30 in data.src.cec.max_evaluations (it "
        "lists [10])",
        "data/A_4_10.txt, line 3: 1 values, but the first row has 2 (one per run)",
        "data/A_5_10.txt, line 2, column 2: not a finite number: 'x'",
        "data/A_6_10.txt, line 2, column 2: too large (at most ±1e300: sums over runs overflow "
        "beyond it; rescale the values, or give a failed run the value it reached): '2e300'",
        "data/B-f3-10.txt: the file name does not match the pattern "
        "'{algorithm}_{function}_{dimension}.txt' (set data.src.cec.file_pattern)",
    ]


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        ("D-10", "gives 0 for D=10; MaxFES must be from 1 to 1e+15"),
        ("-D", "gives -10 for D=10; MaxFES must be from 1 to 1e+15"),
        ("1e20*D", "gives 1e+21 for D=10; MaxFES must be from 1 to 1e+15"),
        ("D/(D-10)", "divides by zero for D=10"),
        ("D**1000", "overflows for D=10"),
        ("(-D)**0.5", "takes a fractional power of a negative number for D=10"),
    ],
)
def test_cec_formula_without_a_usable_maxfes_is_named(
    tmp_path: Path, formula: str, message: str
) -> None:
    """A formula the spec accepts by its form but whose value for the files' D is no MaxFES
    was a ZeroDivisionError/OverflowError traceback, or (0, negative) a report whose
    checkpoints all sat at evaluation 0 or below."""
    for f in (1, 2):
        _cec_file(tmp_path / "data", f"A_{f}_10.txt")
    source = f"paths: data/*.txt\nformat: cec\ncec: {{max_evaluations: '{formula}'}}"
    assert messages(spec(tmp_path, source)) == [
        f"data/A_1_10.txt: data.src.cec.max_evaluations '{formula}' {message}"
    ]  # one message for the dimension, not one per file


CEC2017 = SHARED_DATA / "cec2017-competition-mmalk03" / "data"
CEC2020 = SHARED_DATA / "cec2020-top3"
CEC2022 = SHARED_DATA / "cec2022-sobo-competition" / "raw"


def _link(tmp_path: Path, target: Path) -> None:
    require_shared(target, "the shared CEC data")
    (tmp_path / "data").symlink_to(target)


def test_cec2017_real_files_with_quirks(tmp_path: Path) -> None:
    _link(tmp_path, CEC2017)
    for folder, options, runs in (
        ("17051", "{}", 51),  # LSHADE_SPACMA_<f>_<D>.txt
        ("17420", "{separator: comma}", 51),  # DES, comma-separated
        ("E-17322", "{file_pattern: '{algorithm}_{dimension}_{function}.txt'}", 51),
        (
            "E-17260",  # MOS-SOCO2011: a header row and a label column, trailing commas
            "{file_pattern: '{algorithm}_{function}_{dimension}.csv', header_row: true, "
            "label_column: true}",
            None,
        ),
    ):
        pattern = "*.csv" if folder == "E-17260" else "*.txt"
        data = load(spec(tmp_path, f"paths: data/{folder}/{pattern}\nformat: cec\ncec: {options}"))
        frame = data.sources["src"].frame
        assert frame.groupby(["problem", "dimension"], observed=True).ngroups == 120, folder
        assert sorted(frame["dimension"].unique()) == [10, 30, 50, 100]
        if runs:
            assert (
                frame.groupby(["problem", "dimension"], observed=True)["run"]
                .nunique()
                .eq(runs)
                .all()
            )


def test_cec2020_real_files(tmp_path: Path) -> None:
    _link(tmp_path, CEC2020)
    options = (
        "checkpoints: cec2020, max_evaluations: {5: 50000, 10: 1000000, 15: 3000000, 20: 10000000}"
    )
    data = load(spec(tmp_path, f"paths: data/AGSK_E-24505/*.txt\nformat: cec\ncec: {{{options}}}"))
    assert (
        data.sources["src"]
        .frame.groupby(["problem", "dimension"], observed=True)["run"]
        .nunique()
        .eq(30)
        .all()
    )
    imode = load(
        spec(
            tmp_path,
            "paths: data/IMODE_E24365/*.dat\nformat: cec\n"
            f"cec: {{{options}, file_pattern: '{{algorithm}}{{function}}_{{dimension}}.dat'}}",
        )
    )
    assert imode.algorithms == ("IMODE",)


def test_cec2022_real_files_last_row_and_irregularities(tmp_path: Path) -> None:
    _link(tmp_path, CEC2022)
    options = (
        "checkpoints: cec2022, max_evaluations: {10: 200000, 20: 1000000}, "
        "last_row: evaluations_to_target, layout: trials, "
        "file_pattern: '{algorithm}_{function}_{dimension}.*'"
    )
    data = load(
        spec(tmp_path, f"paths: data/report2/Results/*_*_*\nformat: cec\ncec: {{{options}}}")
    )
    frame = data.sources["src"].frame
    assert data.algorithms == ("IMPML-SHADE",) and len(frame) == 24 * 30
    # SPHH_Ensemble: non-best-so-far rows → a caveat listing its files, and one 'inf' cell.
    sphh = spec(
        tmp_path,
        f"paths: data/report1/Results/SPHH_Ensemble_*_*.txt\nformat: cec\ncec: {{{options}}}",
    )
    assert messages(sphh) == [
        "data/report1/Results/SPHH_Ensemble_12_10.txt, line 1, column 12: not a finite "
        "number: 'inf'"
    ]
    ok = [p for p in (CEC2022 / "report1" / "Results").glob("SPHH_Ensemble_*_*.txt")
          if p.name != "SPHH_Ensemble_12_10.txt"]  # fmt: skip
    listed = "".join(f"\n  - data/report1/Results/{p.name}" for p in sorted(ok))
    data = load(spec(tmp_path, f"paths:{listed}\nformat: cec\ncec: {{{options}}}"))
    caveat = data.caveats[0]
    assert caveat.code == "non_monotone_checkpoints" and "SPHH_Ensemble_1_10.txt" in caveat.where


def test_platform_options_are_checked_in_the_spec(tmp_path: Path) -> None:
    def spec_problems(source: str) -> list[str]:
        with pytest.raises(InputError) as info:
            load_spec(spec(tmp_path, source))
        return [str(p) for p in info.value.problems]

    assert spec_problems("path: d\nformat: cec\ncec: {max_evaluations: 'import os'}") == [
        "data.src.cec.max_evaluations (study.yaml:7): not a formula in D: 'import os' (write "
        "e.g. '10000*D')"
    ]
    assert spec_problems("path: d\nformat: cec\ncec: {max_evaluations: '10000*N'}") == [
        "data.src.cec.max_evaluations (study.yaml:7): not a formula in D: '10000*N'; use "
        "numbers, D, + - * / ** and parentheses"
    ]
    assert spec_problems("path: d\nformat: histories\ncoco: {target: 1.0e-8}") == [
        "data.src (study.yaml:4): 'coco' options are only for format 'coco'"
    ]


def test_ioh_best_values_in_full_precision_from_the_json(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "ioh", tmp_path / "data" / "ioh")
    frame = load(spec(tmp_path, "paths: data/ioh/*\nformat: ioh")).sources["src"].frame
    run = frame[
        (frame["algorithm"] == "RandomSearch")
        & (frame["problem"] == "f8")
        & (frame["dimension"] == 3)
        & (frame["run"] == 1)
    ]
    # RandomSearch/IOHprofiler_f8_Rosenbrock.json, D=3, instance 1: "best": {"evals": 45,
    # "y": 64.35306257842907}; the .dat prints "45 64.3530625784".
    assert run.set_index("evaluations")["value"][45] == 64.35306257842907
    assert run["value"].iloc[-1] == 64.35306257842907  # the run ends at its exact best


def test_ioh_glob_matching_other_files_says_what_to_read(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "ioh" / "OnePlusOne", tmp_path / "data" / "one")
    write(tmp_path, "data/README.md", "# my runs\n")
    write(tmp_path, "data/notes.json", '{"comment": "mine"}')
    problems = messages(spec(tmp_path, "paths: data/*\nformat: ioh"))
    assert problems == [
        "data/README.md: not an IOHprofiler meta file: the ioh format reads the .json files "
        "(or folders holding them), which name their .dat files; narrow the path or glob (e.g. "
        "'data/ioh/*/' or 'data/ioh/**/IOHprofiler_*.json')",
        "data/notes.json: not an IOHprofiler .json meta file: no 'function_id', "
        "'algorithm', 'scenarios'",
    ]
