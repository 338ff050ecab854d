"""Platform readers say so when a logged best-so-far value gets worse (issue 13)."""

from __future__ import annotations

import numpy as np

from reportgen.data.formats import RunRecords, runs_to_frame, worsening_caveats
from reportgen.data.formats.coco import read_coco
from reportgen.spec.sources import CocoOptions
from tests.conftest import ROOT


def run(values: list[float], origin: str) -> RunRecords:
    evaluations = np.arange(1, len(values) + 1, dtype=float)
    return RunRecords("A", "f1", 2, evaluations, np.array(values), len(values), origin=origin)


def test_a_worsening_run_is_named_and_repaired_by_the_running_minimum():
    runs = [run([5, 3, 1], "a.dat, run 1"), run([5, 2, 4, 1], "a.dat, run 2")]
    (caveat,) = worsening_caveats(runs, "COCO")
    assert caveat.code == "best_so_far_worsens"
    assert caveat.message.startswith("1 COCO run logs a best-so-far value that gets worse")
    assert caveat.where == "a.dat, run 2"
    frame = runs_to_frame(runs, "histories", 1e-8)
    second = frame[frame["run"] == 2]
    assert second["value"].tolist() == [5.0, 2.0, 1.0]  # 4 after 2 is the running minimum 2


def test_monotone_runs_give_no_caveat():
    assert worsening_caveats([run([5, 5, 3, 1], "a.dat, run 1")], "COCO") == []


def test_the_evospace_archive_run_that_gets_worse():
    """The COCO run the issue found: EvoSpace-PSO-GA, f5 in 5-D, the fourth run."""
    path = ROOT / "example_studies/bbob_coco/data/EvoSpace-PSO-GA_Garcia-Valdez_5D.tgz"
    result = read_coco([(path, "data/evospace.tgz")], CocoOptions(), None, "data.bbob")
    (caveat,) = result.caveats
    assert caveat.where == "data/evospace.tgz:EvoSpace-PSO-GA/F5/10042-00_f5_DIM5.dat, run 4"
