"""Issue 15: the per-problem work on a Dask cluster gives exactly the local results.

One study with every analysis kind runs twice: in this process, and with its independent
per-problem work on a ``distributed.LocalCluster`` of two worker processes. results.json
(apart from the provenance, which names the executor) and every table must be identical.
The cluster is module-scoped so that it starts once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

from reportgen import execution
from reportgen.cli import with_scheduler
from reportgen.errors import InputError
from reportgen.execution import DaskExecutor, LocalExecutor, current_executor, map_items, using
from reportgen.pipeline import compute_study, load_study, present_study, results_document
from reportgen.registry import ANALYSES
from tests.conftest import require_module

distributed = require_module("distributed", "dask")

ALGORITHMS = ("A", "B", "C")
PROBLEMS = ("f1", "f2", "f3", "f4", "f5")


def histories() -> pd.DataFrame:
    """Best-so-far records: 3 algorithms × 5 problems × 4 runs, 5 records each (seeded)."""
    rng = np.random.default_rng(15)
    rows = []
    for a, algorithm in enumerate(ALGORITHMS):
        for p, problem in enumerate(PROBLEMS):
            for run in range(1, 5):
                value = 100.0 * (p + 1)
                for evals in (1, 10, 100, 1000, 10000):
                    value *= rng.uniform(0.05 + 0.1 * a, 0.6 + 0.1 * a)
                    rows.append((algorithm, problem, 10, run, evals, value))
    return pd.DataFrame(rows, columns=["algorithm", "problem", "dim", "run", "evals", "value"])


def trials() -> pd.DataFrame:
    """The final record of every run of :func:`histories`, with its evaluations to 1.0."""
    records = histories()
    keys = ["algorithm", "problem", "dim", "run"]
    last = records.groupby(keys, as_index=False, observed=True).last().drop(columns="evals")
    # evaluations to reach 1.0 (inf: the run never reached it)
    hit = records[records["value"] <= 1.0].groupby(keys, observed=True)["evals"].min()
    reached = last.join(hit.rename("evaluations_to_target").astype(float), on=keys)
    return reached.fillna({"evaluations_to_target": np.inf})


FRAMES = {"h": histories(), "t": trials()}

ANALYSES_SPEC: list[dict[str, Any]] = [
    {"kind": "performance_profiles", "data": "h", "tolerances": [0.1, 0.001]},
    {"kind": "perspectives", "data": "t"},
    {"kind": "probabilistic_profiles", "data": "t"},
    {"kind": "u_scores", "data": "h", "target": 1e-3},
    {"kind": "runtime_ecdf", "data": "h", "targets": [1.0, 0.01]},
    {"kind": "significance_relation", "data": "h"},
    {"kind": "problem_table", "data": "h"},
    {"kind": "convergence", "data": "h"},
]


def spec(execution: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "study": {"title": "Dask", "authors": ["T"]},
        "minimize": True,
        "data": {
            "h": {
                "format": "histories",
                "columns": {"dimension": "dim", "evaluations": "evals"},
            },
            "t": {"format": "trials", "columns": {"dimension": "dim"}},
        },
        "analyses": ANALYSES_SPEC,
        "report": {"formats": ["html"]},
        "summary": {"resamples": 100},
        **({"execution": execution} if execution else {}),
    }


def results_and_tables(study: dict[str, Any], tmp_path) -> tuple[dict[str, Any], dict, dict]:
    """results.json without provenance, every analysis's tables, and the executor."""
    results = compute_study(load_study(study, base_dir=tmp_path, frames=FRAMES))
    presented, style = present_study(results)
    document = results_document(presented, style, provenance={})
    tables = {o.id: o.result.tables() for o in results.analyses}
    return json.loads(json.dumps(document)), tables, dict(results.executor)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    ) as local_cluster:
        yield local_cluster


def test_the_study_exercises_every_analysis_kind():
    assert {a["kind"] for a in ANALYSES_SPEC} == set(ANALYSES)


def test_dask_results_equal_the_local_ones(cluster, tmp_path):
    local, local_tables, local_executor = results_and_tables(spec(), tmp_path)
    remote, remote_tables, remote_executor = results_and_tables(
        spec({"engine": "dask", "scheduler": cluster.scheduler_address}), tmp_path
    )
    assert local_executor == {"engine": "local"}
    assert remote_executor["engine"] == "dask"
    assert remote_executor["scheduler"] == cluster.scheduler_address
    assert remote_executor["workers"] == 2
    # the per-problem work of the wired analyses ran as tasks of the cluster
    # (Dask names a task after its function, without the leading underscore)
    ran = set(cluster.scheduler.task_prefixes)
    wired = {
        "score_problem",
        "tests_of_problem",
        "award_row_item",
        "passages_of_problem",
        "problem_runtimes",
        "curves_of_problem",
        "of_problem",  # AnalysisData.map_problems: per-run states, final values, statistics
    }
    assert wired <= ran, ran
    assert remote == local
    assert local_tables.keys() == remote_tables.keys()
    for analysis_id, tables in local_tables.items():
        assert tables.keys() == remote_tables[analysis_id].keys()
        for name, table in tables.items():
            pd.testing.assert_frame_equal(remote_tables[analysis_id][name], table, check_exact=True)


def _whoami(item: int) -> tuple[int, int]:
    import os

    return item * item, os.getpid()


def test_dask_executor_runs_the_items_on_the_workers_in_order(cluster):
    with distributed.Client(cluster) as client, using(DaskExecutor(client, "test")):
        results = map_items(_whoami, list(range(8)))
    import os

    assert [square for square, _ in results] == [i * i for i in range(8)]
    # the work ran in the worker processes, not in this one
    assert os.getpid() not in {pid for _, pid in results}
    assert isinstance(current_executor(), LocalExecutor)


def test_missing_dask_is_a_located_input_error(monkeypatch, tmp_path):
    def without_distributed(name: str) -> Any:
        raise ImportError(f"No module named '{name}'")

    # only reportgen's own import of distributed fails (the cluster's threads keep theirs)
    monkeypatch.setattr(execution, "import_module", without_distributed)
    path = tmp_path / "study.yaml"
    path.write_text(
        "study: {title: T}\nminimize: true\ndata:\n  h: {path: h.csv, format: histories,"
        " columns: {dimension: dim, evaluations: evals}}\nanalyses:\n"
        "  - {kind: convergence, data: h}\nexecution:\n  engine: dask\n",
        encoding="utf-8",
    )
    histories().to_csv(tmp_path / "h.csv", index=False)
    with pytest.raises(InputError) as caught:
        compute_study(load_study(path))
    message = str(caught.value)
    assert "execution.engine (study.yaml:8)" in message
    assert "pip install 'reportgen[dask]'" in message


def test_scheduler_option_overrides_the_spec(tmp_path):
    loaded = load_study(spec({"engine": "local"}), base_dir=tmp_path, frames=FRAMES)
    assert with_scheduler(loaded, None) is loaded
    overridden = with_scheduler(loaded, "tcp://10.0.0.1:8786").study.execution
    assert (overridden.engine, overridden.scheduler) == ("dask", "tcp://10.0.0.1:8786")


def test_a_scheduler_that_is_no_address_names_the_option_that_gave_it(tmp_path):
    """``--scheduler nonsense`` was a traceback (distributed raises ValueError for it), and a
    problem with a scheduler given on the command line named a line of the spec."""
    pytest.importorskip("distributed")
    loaded = with_scheduler(
        load_study(spec({"engine": "local"}), base_dir=tmp_path, frames=FRAMES), "nonsense"
    )
    assert loaded.where(("execution", "scheduler")) == "--scheduler"
    with pytest.raises(InputError) as caught:
        compute_study(loaded)
    message = str(caught.value)
    assert message.startswith("--scheduler: cannot reach the Dask scheduler at 'nonsense'")
    assert "give tcp://host:port, or local" in message


@pytest.mark.parametrize(
    ("execution", "words"),
    [
        ({"engine": "local", "workers": 2}, "workers sizes a LocalCluster"),
        ({"engine": "dask", "scheduler": "tcp://h:8786", "memory_limit": "3GB"}, "memory_limit"),
        ({"engine": "dask", "memory_limit": "lots"}, "memory_limit"),
        ({"engine": "local", "scheduler": "tcp://h:8786"}, "only used with engine: dask"),
        # 20MB or 256MB: the workers restarted or paused for ever, and the run never ended.
        ({"engine": "dask", "memory_limit": "20MB"}, "20MB is too little for a worker"),
        ({"engine": "dask", "memory_limit": "256MiB"}, "give at least 512MB, or leave it out"),
    ],
)
def test_execution_options_are_checked(tmp_path, execution, words):
    with pytest.raises(InputError) as caught:
        load_study(spec(execution), base_dir=tmp_path, frames=FRAMES)
    assert words in str(caught.value)
    assert "execution" in str(caught.value)


def test_a_script_without_a_main_guard_gets_the_cause_not_nanny_failed(tmp_path):
    """A script calling reportgen at its top level with 'scheduler: local' ended in a
    distributed traceback, 'RuntimeError: Nanny failed to start.' (each spawned worker imports
    the script again and so starts a cluster of its own, which Python refuses). Now an input
    error at execution.scheduler names the fix."""
    import subprocess
    import sys

    from tests.conftest import HISTORIES_CSV, SPEC, write

    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    write(
        tmp_path,
        "study.yaml",
        SPEC + "execution: {engine: dask, scheduler: local, workers: 1}\n",
    )
    script = write(
        tmp_path,
        "script.py",
        """
        import reportgen
        reportgen.compute_study("study.yaml")
        """,
    )
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("reportgen.errors.InputError: execution.scheduler (study.yaml:")
    assert "could not start a Dask LocalCluster (workers: 1): Nanny failed to start." in last
    assert """under 'if __name__ == "__main__":'""" in last


def test_memory_bytes_reads_limits_as_dask_does():
    from dask.utils import parse_bytes

    from reportgen.spec.study import memory_bytes

    for limit in ("3GB", "512MiB", "512MB", "1.5 GB", "100kB", "7B", "2TiB", "1gb"):
        assert memory_bytes(limit) == parse_bytes(limit), limit


def _say_as_dask(word: str) -> None:
    """A WARNING and an ERROR on distributed's loggers, wherever this runs."""
    import logging

    logging.getLogger("distributed.worker").warning("dask-warning-%s", word)
    logging.getLogger("distributed.client").warning("dask-warning-%s", word)
    logging.getLogger("distributed.worker").error("dask-error-%s", word)


def test_dask_logs_only_errors_while_reportgen_runs_on_it(capfd, tmp_path):
    """distributed's INFO and WARNING lines ("Event loop was unresponsive in Scheduler",
    "Worker process still alive after 4 seconds, killing") reached stderr among reportgen's
    progress lines during a run on a LocalCluster. Now its records below ERROR are dropped,
    in this process (seen by a handler of our own) and in the worker processes (their
    stderr is ours), and the loggers' levels are restored afterwards."""
    import logging

    class Kept(logging.Handler):
        def __init__(self) -> None:
            super().__init__()
            self.messages: list[str] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.messages.append(record.getMessage())

    kept = Kept()
    logging.getLogger("distributed").addHandler(kept)
    study = spec({"engine": "dask", "scheduler": "local", "workers": 2})
    loaded = load_study(study, base_dir=tmp_path, frames=FRAMES)
    before = {n: logging.getLogger(n).level for n in ("distributed", "distributed.client")}
    try:
        with execution.executor_for(loaded.study.execution, lambda key: key) as executor:
            assert isinstance(executor, DaskExecutor)
            _say_as_dask("here")
            executor.client.run(_say_as_dask, "worker")
    finally:
        logging.getLogger("distributed").removeHandler(kept)
    assert [m for m in kept.messages if m.startswith("dask-")] == ["dask-error-here"]
    err = capfd.readouterr().err
    assert "dask-warning" not in err, err
    assert err.count("dask-error-worker") == 2  # errors still show, from both workers
    assert {n: logging.getLogger(n).level for n in before} == before
