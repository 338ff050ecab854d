"""Issue 15: a partitioned Parquet source is read where it lies, with the same results.

The histories of ``tests/test_execution.py`` are written as a hive-style dataset
(``algorithm=…/problem=…/…parquet``: the names live in the folder names only). Read from
there — in this process, and on a two-process ``LocalCluster`` whose workers read the files
themselves — every analysis gives exactly the results of the same records read from one
table. A bad cell in one partition is reported with that partition's file, row and column.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reportgen.data.partitions import PartitionedRecords, dataset_files
from reportgen.errors import InputError
from reportgen.pipeline import compute_study, load_study, present_study, results_document
from reportgen.registry import ANALYSES
from tests.conftest import require_module
from tests.test_execution import ANALYSES_SPEC, histories, trials

distributed = require_module("distributed", "dask")

COLUMNS = {"dimension": "dim", "evaluations": "evals"}


TRIALS_KINDS = ("perspectives", "probabilistic_profiles", "u_scores", "problem_table")


def write_dataset(root: Path, frame: pd.DataFrame | None = None) -> None:
    """The histories (or ``frame``) as a hive dataset: one folder per algorithm and problem."""
    table = pa.Table.from_pandas(histories() if frame is None else frame, preserve_index=False)
    pq.write_to_dataset(table, root, partition_cols=["algorithm", "problem"])


def study(
    source: dict[str, Any],
    execution: dict[str, Any] | None = None,
    runs: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Every analysis kind on histories ``h`` (trials derived from them at the budget); with
    ``runs``, the analyses of trials also on that trials source ``r``."""
    analyses = [dict(a, data="h") if a["data"] == "h" else dict(a, data="t") for a in ANALYSES_SPEC]
    if runs is not None:
        analyses += [
            {**a, "data": "r", "id": f"{a['kind']}_of_runs"}
            for a in ANALYSES_SPEC
            if a["kind"] in TRIALS_KINDS
        ]
        analyses.append({"kind": "significance_relation", "data": "r", "id": "relation_of_runs"})
    return {
        "study": {"title": "Partitions", "authors": ["T"]},
        "minimize": True,
        "data": {
            "h": {"format": "histories", "columns": COLUMNS, **source},
            "t": {"format": "trials", "trials_at": {"source": "h", "budget": 10000, "target": 1.0}},
            **(
                {"r": {"format": "trials", "columns": {"dimension": "dim"}, **runs}}
                if runs is not None
                else {}
            ),
        },
        "analyses": analyses,
        "report": {"formats": ["html"]},
        "summary": {"resamples": 100},
        **({"execution": execution} if execution else {}),
    }


def results(spec: dict[str, Any], base: Path) -> tuple[dict[str, Any], dict[str, Any], Any]:
    """results.json without provenance, the executor and the loaded data."""
    computed = compute_study(load_study(spec, base_dir=base))
    presented, style = present_study(computed)
    document = results_document(presented, style, provenance={})
    return json.loads(json.dumps(document)), dict(computed.executor), computed


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("partitions")
    write_dataset(folder / "parts")
    histories().to_parquet(folder / "h.parquet", index=False)
    write_dataset(folder / "trial_parts", trials())
    trials().to_parquet(folder / "r.parquet", index=False)
    return folder


@pytest.fixture(scope="module")
def single(base) -> dict[str, Any]:
    """The reference: the same records from one file."""
    return results(study({"path": "h.parquet"}), base)[0]


@pytest.fixture(scope="module")
def single_with_runs(base) -> dict[str, Any]:
    """The reference with a trials source ``r`` too: the same runs from one file."""
    return results(study({"path": "h.parquet"}, runs={"path": "r.parquet"}), base)[0]


@pytest.fixture
def never_whole(monkeypatch) -> None:
    """The client never reads a partitioned source whole: every analysis reads by problem."""

    def refuse(self: PartitionedRecords, problems: Any = None) -> pd.DataFrame:
        raise AssertionError("a partitioned source was read whole into the client")

    monkeypatch.setattr(PartitionedRecords, "read", refuse)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    ) as local_cluster:
        yield local_cluster


def test_the_dataset_keeps_names_in_folders_only(base):
    files = sorted((base / "parts").rglob("*.parquet"))
    assert len(files) == 3 * 5  # algorithms × problems
    assert "algorithm=B" in files[5].parts[-3] and "problem=f1" in files[5].parts[-2]
    assert pq.read_schema(files[0]).names == ["dim", "run", "evals", "value"]


def test_a_partitioned_source_read_locally_gives_the_same_results(base, single, never_whole):
    document, executor, computed = results(study({"path": "parts"}), base)
    assert executor == {"engine": "local"}
    source = computed.data.sources["h"]
    # the records stayed in their files: the client kept one row per run
    assert source.records is not None and source.frame.empty
    assert len(source.runs) == 3 * 5 * 4
    assert source.rows == len(histories())  # every record improves
    assert len(source.files) == 15
    assert document == single


def test_a_glob_of_parquet_files_is_partitioned_too(base, single):
    document, _, computed = results(study({"paths": "parts/*/*/*.parquet"}), base)
    assert computed.data.sources["h"].records is not None
    assert document == single


def test_partitioned_trials_are_read_by_problem_too(base, single_with_runs, never_whole):
    document, _, computed = results(study({"path": "parts"}, runs={"path": "trial_parts"}), base)
    assert computed.data.sources["r"].records is not None
    assert computed.data.sources["r"].frame.empty
    assert {a["kind"] for a in document["analyses"].values()} == set(ANALYSES)
    assert document == single_with_runs


def test_on_a_cluster_the_workers_read_the_partitions(base, single_with_runs, cluster, never_whole):
    address = cluster.scheduler_address
    document, executor, computed = results(
        study(
            {"path": "parts"},
            {"engine": "dask", "scheduler": address},
            runs={"path": "trial_parts"},
        ),
        base,
    )
    assert executor["engine"] == "dask" and executor["workers"] == 2
    # checking the files, deriving trials and the profiles' per-problem work ran as tasks
    ran = set(cluster.scheduler.task_prefixes)
    assert {
        "check_files",
        "trials_of_problem",
        "passages_of_problem",
        "problem_runtimes",
        "curves_of_problem",
        "of_problem",  # the per-run reductions of map_problems (states, final values, …)
    } <= ran, ran
    assert computed.data.sources["h"].frame.empty
    assert document == single_with_runs


def test_scheduler_local_starts_a_cluster_of_the_spec_size(base, single):
    execution = {"engine": "dask", "scheduler": "local", "workers": 2, "memory_limit": "1GB"}
    document, executor, _ = results(study({"path": "parts"}, execution), base)
    assert executor["engine"] == "dask" and executor["scheduler"] == "local"
    assert executor["workers"] == 2
    assert executor["memory_limit"] == 10**9  # per worker, as the spec says ('1GB')
    assert document == single


def _spoil(base: Path, name: str) -> tuple[Path, str]:
    """A copy of the dataset whose file for B on f3 has NaN in its third row's value."""
    root = base / name
    write_dataset(root)
    (bad,) = sorted((root / "algorithm=B" / "problem=f3").glob("*.parquet"))
    table = pq.read_table(bad)
    values = table.column("value").to_numpy().copy()
    values[2] = np.nan
    pq.write_table(table.set_column(3, "value", pa.array(values)), bad)
    return bad, f"{name}/algorithm=B/problem=f3/{bad.name}"


@pytest.mark.parametrize("engine", ["local", "dask"])
def test_a_bad_cell_names_its_partition_row_and_column(base, cluster, engine):
    bad, shown = _spoil(base, f"spoiled_{engine}")
    execution = (
        {"engine": "dask", "scheduler": cluster.scheduler_address} if engine == "dask" else None
    )
    with pytest.raises(InputError) as caught:
        compute_study(load_study(study({"path": bad.parents[2].name}, execution), base_dir=base))
    messages = [str(p) for p in caught.value.problems]
    # the message a single file gives (Parquet's NaN reads as a missing cell)
    assert messages == [
        f"{shown}, row 3, column 'value': empty value (every cell needs a number): nan"
    ]


def test_a_run_split_over_two_files_is_an_error(base):
    root = base / "split"
    root.mkdir()
    frame = histories()
    frame.iloc[: len(frame) // 2 + 3].to_parquet(root / "a.parquet", index=False)
    frame.iloc[len(frame) // 2 :].to_parquet(root / "b.parquet", index=False)
    with pytest.raises(InputError) as caught:
        compute_study(load_study(study({"path": "split"}), base_dir=base))
    message = str(caught.value)
    assert "split/a.parquet" in message and "is also in split/b.parquet" in message
    assert "each run lies in one file" in message


def together(first: dict[str, Any], runs_first: dict[str, Any]) -> dict[str, Any]:
    """Every analysis kind on two sources read together: A and B from ``first`` (histories)
    or ``runs_first`` (trials), C from a file of its own."""
    histories_kinds = {a["kind"] for a in ANALYSES_SPEC if a["data"] == "h"}
    analyses = [
        dict(a, data=["ab", "c"] if a["kind"] in histories_kinds else ["rab", "rc"])
        for a in ANALYSES_SPEC
    ]
    return {
        "study": {"title": "Together", "authors": ["T"]},
        "minimize": True,
        "data": {
            "ab": {"format": "histories", "columns": COLUMNS, **first},
            "c": {"format": "histories", "columns": COLUMNS, "path": "c.parquet"},
            "rab": {"format": "trials", "columns": {"dimension": "dim"}, **runs_first},
            "rc": {"format": "trials", "columns": {"dimension": "dim"}, "path": "rc.parquet"},
        },
        "analyses": analyses,
        "report": {"formats": ["html"]},
        "summary": {"resamples": 100},
    }


@pytest.fixture(scope="module")
def split(base) -> dict[str, Any]:
    """A and B apart from C: as single files (the reference) and as hive datasets."""
    for frame, name in ((histories(), ""), (trials(), "r")):
        ab = frame[frame["algorithm"] != "C"]
        ab.to_parquet(base / f"{name}ab.parquet", index=False)
        write_dataset(base / f"{name}ab_parts", ab)
        frame[frame["algorithm"] == "C"].to_parquet(base / f"{name}c.parquet", index=False)
    return results(together({"path": "ab.parquet"}, {"path": "rab.parquet"}), base)[0]


@pytest.mark.parametrize("engine", ["local", "dask"])
def test_a_partitioned_source_read_with_another_stays_in_its_files(
    base, split, cluster, never_whole, engine
):
    spec = together({"path": "ab_parts"}, {"path": "rab_parts"})
    if engine == "dask":
        spec["execution"] = {"engine": "dask", "scheduler": cluster.scheduler_address}
    document, _, computed = results(spec, base)
    assert computed.data.sources["ab"].records is not None
    assert computed.data.sources["rab"].records is not None
    assert {a["kind"] for a in document["analyses"].values()} == set(ANALYSES)
    assert document == split


def test_sources_read_together_are_checked_for_completeness_from_their_runs(base, split):
    spec = together({"path": "ab_parts"}, {"path": "rab_parts"})
    spec["data"]["c"]["path"] = "c_short.parquet"
    frame = histories()
    frame = frame[(frame["algorithm"] == "C") & (frame["problem"] != "f4")]
    frame.to_parquet(base / "c_short.parquet", index=False)
    with pytest.raises(InputError) as caught:
        compute_study(load_study(spec, base_dir=base))
    assert "together lack some algorithm on 1 problem (f4 (D=10): C)" in str(caught.value)


def test_final_values_come_from_the_check_without_reading_again(base, single, monkeypatch):
    """The check keeps each run's last value: significance_relation and problem_table (no
    budget) on partitioned histories read no file again, with the single file's results."""
    from reportgen.data import partitions

    def refuse(item: Any) -> pd.DataFrame:
        raise AssertionError("a problem's files were read again")

    spec = study({"path": "parts"})
    spec["analyses"] = [
        a for a in spec["analyses"] if a["kind"] in ("significance_relation", "problem_table")
    ]
    del spec["data"]["t"]  # trials derived at a budget read each problem's files
    monkeypatch.setattr(partitions, "read_problem", refuse)
    document, _, _ = results(spec, base)
    for analysis_id, analysis in document["analyses"].items():
        assert analysis == single["analyses"][analysis_id]


def test_a_folder_without_parquet_files_says_how_to_read_other_files(tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "a.csv").write_text("algorithm,problem\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        dataset_files([(tmp_path / "runs", "runs")], "data.runs.path (study.yaml:3)")
    assert [str(p) for p in info.value.problems] == [
        "data.runs.path (study.yaml:3): the folder 'runs' holds no .parquet file (a folder is "
        "read as a partitioned Parquet dataset; for other files give a glob such as 'runs/*.csv')"
    ]
