"""The Python API: a spec as a dict, compute without rendering, run from a dict."""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from pathlib import Path

import pandas as pd
import pytest
import yaml

import reportgen
from reportgen.errors import InputError
from tests.conftest import HISTORIES_CSV, SPEC, run_cli, write


def spec_dict() -> dict:
    return yaml.safe_load(SPEC)


def test_compute_study_from_a_dict_equals_the_yaml_file(tmp_path: Path) -> None:
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    from_file = reportgen.compute_study(write(tmp_path, "study.yaml", SPEC))
    from_dict = reportgen.compute_study(reportgen.load_study(spec_dict(), base_dir=tmp_path))
    a, b = from_file["performance_profiles"], from_dict["performance_profiles"]
    for name, table in a.tables().items():
        assert table.equals(b.tables()[name]), name
    assert from_dict.output_dir is None and not (tmp_path / "out").exists()  # nothing written


def test_a_dict_spec_error_names_the_key(tmp_path: Path) -> None:
    spec = spec_dict()
    spec["analyses"][0]["tolerence"] = [0.1]
    with pytest.raises(reportgen.InputError) as info:
        reportgen.load_study(spec, base_dir=tmp_path)
    assert "analyses[0].tolerence (<dict>)" in str(info.value)
    assert "did you mean 'tolerances'" in str(info.value)


def test_run_study_from_a_dict_shows_the_spec_as_yaml(tmp_path: Path) -> None:
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    study = reportgen.load_study(spec_dict(), base_dir=tmp_path)
    results = reportgen.run_study(study)
    assert results.output_dir == tmp_path / "out"
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "title: Tiny study" in html  # the spec appendix


def test_compute_study_is_exported() -> None:
    assert "compute_study" in reportgen.__all__
    assert reportgen.compute_study.__module__ == "reportgen.pipeline"


def test_data_sources_as_dataframes(tmp_path: Path) -> None:
    frame = pd.read_csv(io.StringIO(HISTORIES_CSV.strip()))
    spec = spec_dict()
    del spec["data"]["curves"]["path"]
    from_frame = reportgen.compute_study(
        reportgen.load_study(spec, base_dir=tmp_path, frames={"curves": frame})
    )
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    from_file = reportgen.compute_study(write(tmp_path, "study.yaml", SPEC))
    a, b = from_file["performance_profiles"], from_frame["performance_profiles"]
    for name, table in a.tables().items():
        assert table.equals(b.tables()[name]), name
    (record,) = from_frame.data.files
    assert record.display == "DataFrame 'curves'" and record.rows == len(frame)


def test_a_bad_dataframe_cell_is_named_like_a_file_cell(tmp_path: Path) -> None:
    frame = pd.read_csv(io.StringIO(HISTORIES_CSV.strip()))
    frame.loc[2, "evals"] = -5
    spec = spec_dict()
    del spec["data"]["curves"]["path"]
    with pytest.raises(reportgen.InputError) as info:
        reportgen.compute_study(reportgen.load_study(spec, frames={"curves": frame}))
    # A DataFrame has rows, not lines: its cell is named by its row alone.
    assert "DataFrame 'curves', row 3, column 'evals'" in str(info.value)


def test_a_dataframe_for_an_undeclared_source_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(reportgen.InputError, match="does not declare"):
        reportgen.load_study(spec_dict(), frames={"curvez": pd.DataFrame()})
    with pytest.raises(reportgen.InputError, match="given both as a DataFrame and by 'path'"):
        reportgen.load_study(spec_dict(), frames={"curves": pd.DataFrame()})


@pytest.mark.parametrize("given_as", ["dict", "yaml file"])
def test_a_bundle_of_dataframe_sources_reruns_and_verifies(tmp_path: Path, given_as: str) -> None:
    """``run_study(..., bundle=True)`` writes each DataFrame as a bundled CSV input; the bundle's
    spec reads it, and ``reportgen verify`` reproduces every number from it."""
    frame = pd.read_csv(io.StringIO(HISTORIES_CSV.strip()))
    spec = spec_dict()
    del spec["data"]["curves"]["path"]
    author = tmp_path / "author"
    author.mkdir()
    if given_as == "dict":
        study = reportgen.load_study(spec, base_dir=author, frames={"curves": frame})
        spec_name = "study.yaml"
    else:
        path = write(author, "mine.yaml", yaml.safe_dump(spec))
        study = reportgen.load_study(path, frames={"curves": frame})
        spec_name = "mine.yaml"
    reportgen.run_study(study, bundle=True)
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(author / "out" / "supplement.zip") as archive:
        archive.extractall(unpacked)
    bundled = yaml.safe_load((unpacked / "study" / spec_name).read_text(encoding="utf-8"))
    assert bundled["data"]["curves"]["path"] == "inputs/dataframes/curves.csv"
    assert bundled["data"]["curves"]["columns"] == {"dimension": "dim", "evaluations": "evals"}
    copy = pd.read_csv(unpacked / "study" / "inputs" / "dataframes" / "curves.csv")
    pd.testing.assert_frame_equal(copy, frame)
    manifest = (unpacked / "INPUTS.sha256").read_text(encoding="utf-8")
    assert f"study/{spec_name}" in manifest and "study/inputs/dataframes/curves.csv" in manifest
    # The report and results.json name the same input: the bundled file, with its own hash.
    digest = hashlib.sha256((unpacked / "study/inputs/dataframes/curves.csv").read_bytes())
    results = json.loads((unpacked / "report" / "results.json").read_text(encoding="utf-8"))
    assert results["provenance"]["inputs"] == [
        {
            "source": "curves",
            "file": "inputs/dataframes/curves.csv",
            "rows": len(frame),
            "sha256": digest.hexdigest(),
        }
    ]
    page = (unpacked / "report" / "report.html").read_text(encoding="utf-8")
    assert (
        f"<tr><td>inputs/dataframes/curves.csv</td><td>{len(frame)}</td>"
        f'<td class="hash">{digest.hexdigest()}</td></tr>'
    ) in page
    assert "DataFrame" not in page  # neither "DataFrame 'curves'" nor the spec's placeholder
    if given_as == "dict":  # its listing shows the placeholder path (a YAML file's, no path)
        assert "path: inputs/dataframes/curves.csv" in re.split(r'<pre class="spec[^"]*">', page)[1]
    result = run_cli("verify", str(unpacked))
    assert result.code == 0, result.err
    assert "reproduce" in result.out + result.err


def test_a_data_frame_with_a_column_named_twice_is_refused(tmp_path: Path) -> None:
    """Which of two same-named columns a frame's values come from cannot be told."""
    frame = pd.read_csv(io.StringIO(HISTORIES_CSV.strip()))
    frame = pd.concat([frame, frame[["evals"]]], axis=1)
    spec = spec_dict()
    del spec["data"]["curves"]["path"]
    with pytest.raises(InputError) as info:
        reportgen.compute_study(
            reportgen.load_study(spec, base_dir=tmp_path, frames={"curves": frame})
        )
    assert [p.message for p in info.value.problems] == [
        "the header names column 'evals' (read as 'evaluations') 2 times (columns 5, 7); "
        "rename all but one"
    ]


def test_in_memory_sources_other_than_pandas(tmp_path: Path) -> None:
    """A table with to_pandas() (pyarrow, polars) is converted; a dict, an array or columns of
    several levels are named as what they are (they were AttributeError tracebacks)."""
    import pyarrow as pa

    frame = pd.read_csv(io.StringIO(HISTORIES_CSV.strip()))
    spec = spec_dict()
    del spec["data"]["curves"]["path"]
    from_arrow = reportgen.compute_study(
        reportgen.load_study(
            spec, base_dir=tmp_path, frames={"curves": pa.Table.from_pandas(frame)}
        )
    )
    from_pandas = reportgen.compute_study(
        reportgen.load_study(spec, base_dir=tmp_path, frames={"curves": frame})
    )
    a, b = from_arrow["performance_profiles"], from_pandas["performance_profiles"]
    for name, table in a.tables().items():
        assert table.equals(b.tables()[name]), name
    for given, words in (
        (frame.to_dict("list"), "got a dict; give a pandas DataFrame"),
        (frame.to_numpy(), "got a ndarray; give a pandas DataFrame"),
        (pd.concat({"x": frame}, axis=1), "its columns have 2 levels"),
    ):
        with pytest.raises(InputError) as info:
            reportgen.load_study(spec, base_dir=tmp_path, frames={"curves": given})
        (problem,) = info.value.problems
        assert problem.where == "frames['curves']" and words in problem.message


def test_numpy_values_in_a_dict_spec_are_read_as_their_numbers(tmp_path: Path) -> None:
    """Tolerances from np.logspace (an array, or a list of np.float64) and a budget held as an
    np.int64 ended load_study in yaml's RepresenterError ('cannot represent an object')."""
    import numpy as np

    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    plain = reportgen.load_study(spec_dict(), base_dir=tmp_path)
    for tolerances in (np.array([0.1, 0.001]), [np.float64(0.1), np.float64(0.001)]):
        spec = spec_dict()
        spec["analyses"][0]["tolerances"] = tolerances
        spec["analyses"][0]["budget"] = np.int64(1000)
        study = reportgen.load_study(spec, base_dir=tmp_path)
        assert study.study.analyses[0].tolerances == plain.study.analyses[0].tolerances
        assert study.study.analyses[0].budget == 1000
        assert "budget: 1000" in study.text()


def test_a_value_a_spec_cannot_hold_is_named_by_its_key(tmp_path: Path) -> None:
    spec = spec_dict()
    spec["analyses"][0]["budget"] = object()
    with pytest.raises(reportgen.InputError) as info:
        reportgen.load_study(spec, base_dir=tmp_path)
    assert "(type object); a spec holds text" in str(info.value)
    assert "analyses[0].budget (<dict>): got <object object at" in str(info.value)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: reportgen.load_study(None), "study: expected the path of a spec file"),
        (lambda: reportgen.compute_study(3), "study: expected the path of a spec file"),
        (lambda: reportgen.run_study(b"study.yaml"), "study: expected the path of a spec file"),
        (lambda: reportgen.load_study({}, base_dir=1), "base_dir: expected a folder"),
        (lambda: reportgen.load_study({}, frames=[1]), "frames: expected a dict of source name"),
        (lambda: reportgen.run_study({}, 5), "output_dir: expected a path"),
        (lambda: reportgen.run_study({}, baseline=1), "baseline: expected a path"),
    ],
)
def test_an_argument_of_the_wrong_type_is_named(call, message) -> None:
    """load_study(None) failed deep in os with "expected str, bytes or os.PathLike object, not
    NoneType", naming no argument; frames=[...] with "'list' object has no attribute 'items'"."""
    with pytest.raises(TypeError, match=re.escape(message)):
        call()


def test_an_unknown_analysis_id_lists_the_ids(tmp_path: Path) -> None:
    """results['u_scores'] for an analysis whose id is not its kind raised a bare KeyError
    ('u_scores'), naming neither the ids nor that an 'id:' replaces the kind."""
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    spec = spec_dict()
    spec["analyses"][0]["id"] = "profiles"
    results = reportgen.compute_study(reportgen.load_study(spec, base_dir=tmp_path))
    with pytest.raises(KeyError) as info:
        results["performance_profiles"]
    assert "no analysis 'performance_profiles'; the study's analyses are 'profiles'" in str(
        info.value
    )
    with pytest.raises(KeyError, match="did you mean 'profiles'"):
        results["profile"]


def test_names_with_dollar_signs_print_as_written_in_figures(tmp_path: Path) -> None:
    """A name '50% $x$' was drawn as '50% x' with an italic x (matplotlib's mathtext): the
    report builds and draws its figures as plain text, and leaves matplotlib's own setting
    (a notebook's mathtext) as it was."""
    import matplotlib

    name = "50% $x$"
    frame = pd.DataFrame(
        [{"algorithm": a, "problem": p, "run": r, "value": float(k + r)}
         for k, a in enumerate(("A", name)) for p in ("f1", "f2") for r in range(3)]
    )  # fmt: skip
    spec = {
        "study": {"title": "Dollars"},
        "minimize": True,
        "data": {"runs": {"format": "trials"}},
        "analyses": [{"kind": "u_scores", "data": "runs", "target": 0.0}],
        "report": {"output": "out", "formats": ["html"]},
    }
    study = reportgen.load_study(spec, base_dir=tmp_path, frames={"runs": frame})
    reportgen.run_study(study)
    svg = (tmp_path / "out/figures/u_scores/u_scores_bars.svg").read_text(encoding="utf-8")
    assert "50% $x$</text>" in svg  # one plain text, not mathtext glyph by glyph
    assert matplotlib.rcParams["text.parse_math"]
