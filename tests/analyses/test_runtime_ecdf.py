"""runtime_ecdf: ERT (Hansen et al., COCO: Performance assessment) by hand, and against cocopp
on every cell of the real COCO archives."""

from __future__ import annotations

import contextlib
import io
import math
import re
import shutil
import tarfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reportgen.analyses.resampling import drawn_runs, run_array
from reportgen.analyses.runtime_ecdf import (
    COCO_TARGETS,
    compute,
    expected_running_time,
    hitting_times,
    run_resampled_area_scores,
)
from reportgen.data.formats.coco import read_coco
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.figures.runtime_ecdf import figures as ecdf_figures
from reportgen.figures.style import make_style
from reportgen.narrative.runtime_ecdf import findings
from reportgen.present.format import number
from reportgen.present.labels import Labels
from reportgen.render.blocks import TableBlock
from reportgen.render.sections.runtime_ecdf import build_section
from reportgen.spec.analyses.runtime_ecdf import RuntimeEcdfOptions
from reportgen.spec.sources import CocoOptions
from tests.conftest import SHARED_DATA, require_shared

COCO_ARCHIVE = SHARED_DATA / "coco-bbob-archive"


def _data(frame: pd.DataFrame) -> AnalysisData:
    return AnalysisData(
        "histories",
        frame,
        tuple(dict.fromkeys(frame["algorithm"])),
        sorted_problems(zip(frame["problem"], frame["dimension"], strict=True)),
        ("h",),
    )


def _options(**kw: object) -> RuntimeEcdfOptions:
    return RuntimeEcdfOptions.model_validate({"kind": "runtime_ecdf", "data": "h", **kw})


HAND = pd.DataFrame(
    # algorithm A on f1 in 2-D, three runs (records: evaluations, best f − f_opt):
    #   run 1: (1, 10) (4, 0.5) (9, 0.01)         — ends at 9
    #   run 2: (1, 20) (6, 2) (30, 2)             — ends at 30 (last record, no improvement)
    #   run 3: (2, 5) (3, 0.05) (5, 0.001)        — ends at 5
    [
        ("A", "f1", 2, 1, 1, 10.0),
        ("A", "f1", 2, 1, 4, 0.5),
        ("A", "f1", 2, 1, 9, 0.01),
        ("A", "f1", 2, 2, 1, 20.0),
        ("A", "f1", 2, 2, 6, 2.0),
        ("A", "f1", 2, 2, 30, 2.0),
        ("A", "f1", 2, 3, 2, 5.0),
        ("A", "f1", 2, 3, 3, 0.05),
        ("A", "f1", 2, 3, 5, 0.001),
    ],
    columns=["algorithm", "problem", "dimension", "run", "evaluations", "value"],
)


def test_ert_by_hand() -> None:
    targets = [10.0, 1.0, 0.01, 1e-3, 1e-4]
    result = compute(_data(HAND), _options(targets=targets, table_targets=targets))
    ert = result.ert.set_index("target")["ert"]
    # Δf = 10: all three succeed, at 1 (10 ≤ 10), 6 and 2 → (1 + 6 + 2) / 3
    assert ert[10.0] == pytest.approx(3.0)
    # Δf = 1: runs 1 and 3 succeed at 4 and 3; run 2 spends 30 → (4 + 3 + 30) / 2
    assert ert[1.0] == pytest.approx(37 / 2)
    # Δf = 0.01: runs 1 (at 9, 0.01 ≤ 0.01) and 3 (at 5) succeed; run 2 spends 30 → 44 / 2
    assert ert[0.01] == pytest.approx(22.0)
    # Δf = 1e-3: only run 3 (5); runs 1 and 2 spend 9 and 30 → 44 / 1
    assert ert[1e-3] == pytest.approx(44.0)
    # Δf = 1e-4: nobody → ∞
    assert math.isinf(ert[1e-4])
    assert result.ert.set_index("target")["successes"].tolist() == [3, 2, 2, 1, 0]
    as_json = result.to_json()
    assert as_json["ert_targets"] == targets
    assert as_json["ert"] == [
        {
            "problem": "f1",
            "dimension": 2,
            "algorithm": "A",
            "runs": 3,
            "ert": [3.0, 18.5, 22.0, 44.0, "inf"],
            "successes": [3, 2, 2, 1, 0],
        }
    ]


def test_ecdf_by_hand() -> None:
    result = compute(_data(HAND), _options(targets=[1.0, 1e-3]))
    # (target, run) runtimes / D: Δf=1: 4/2, ∞, 3/2; Δf=1e-3: ∞, ∞, 5/2; 1 function → weights
    # 1/6. Tabulated at x = 10^(j/20) from min(1, smallest budget / D) = 1 to the largest
    # budget / D = 15, and at 15.
    ecdf = result.ecdf
    grid = [10 ** (j / 20) for j in range(24)] + [15.0]
    assert ecdf["x"].tolist() == pytest.approx(grid)
    expected = [sum(t <= x for t in (1.5, 2.0, 2.5)) / 6 for x in grid]
    assert ecdf["value"].tolist() == pytest.approx(expected)
    summary = result.summary.iloc[0]
    assert summary["solved"] == pytest.approx(0.5)
    assert summary["median_budget"] == pytest.approx(9 / 2)  # T_r / D = 4.5, 15, 2.5
    assert summary["max_budget"] == pytest.approx(15.0)


def test_hitting_times_and_ert_helpers() -> None:
    codes = np.array([0, 0, 1])
    hits, used = hitting_times(
        codes, np.array([1.0, 5.0, 2.0]), np.array([3.0, 1.0, 0.5]), np.array([2.0, 0.5])
    )
    assert hits.tolist() == [[5.0, math.inf], [2.0, 2.0]]
    assert used.tolist() == [5.0, 2.0]
    ert, successes = expected_running_time(hits, used)
    assert ert.tolist() == [3.5, 7.0] and successes.tolist() == [2, 1]


def test_hitting_times_equal_a_record_by_record_search() -> None:
    """All runs are searched at once (sorted keys); every hit must be the first record of its
    run with value ≤ Δf, found here one record at a time, on random runs whose values repeat
    and sit exactly on targets (including 0)."""
    rng = np.random.default_rng(14)
    for _ in range(2_000):
        lengths = rng.integers(1, 9, size=rng.integers(1, 6))
        codes = np.repeat(np.arange(len(lengths)), lengths)
        evaluations = np.concatenate([np.cumsum(rng.integers(1, 4, n)) for n in lengths])
        targets = rng.permutation(np.r_[10.0 ** rng.integers(-3, 3, 5), 0.0])
        pool = np.r_[targets, 10.0 ** rng.uniform(-4, 3, 4)]
        values = np.concatenate([np.sort(rng.choice(pool, n))[::-1] for n in lengths])
        hits, used = hitting_times(codes, evaluations.astype(float), values, targets)
        for r in range(len(lengths)):
            rows = np.flatnonzero(codes == r)
            assert used[r] == evaluations[rows[-1]]
            for j, target in enumerate(targets):
                reached = [i for i in rows if values[i] <= target]
                assert hits[r, j] == (evaluations[reached[0]] if reached else math.inf)


def test_run_resampled_area_scores_are_the_means_of_each_cells_drawn_runs() -> None:
    """Cells with fewer runs than others (B: 2 runs, A: 4): each score is the mean of the
    cell's own n draws, bit for bit the sum over all n_max draws with zeros beyond n."""
    rng = np.random.default_rng(3)
    rows = []
    for problem in ("f1", "f2", "f3"):
        for algorithm, runs in (("A", 4), ("B", 2)):
            for run in range(1, runs + 1):
                values = np.minimum.accumulate(10.0 ** rng.uniform(-9, 2, 6))
                rows += [
                    (algorithm, problem, 2, run, float(e), float(v))
                    for e, v in zip(np.cumsum(rng.integers(1, 50, 6)), values, strict=True)
                ]
    frame = pd.DataFrame(rows, columns=HAND.columns)
    result = compute(_data(frame), _options())
    problems = [("f1", 2), ("f2", 2), ("f3", 2)]
    slots = rng.integers(0, 3, size=(50, 3))
    scores = run_resampled_area_scores(result, problems, slots, np.random.default_rng(7))
    areas = result.problem_areas
    assert areas is not None
    values, counts = run_array(
        areas.assign(row=areas["problem"].map({"f1": 0, "f2": 1, "f3": 2})),
        "area",
        range(3),
        result.algorithms,
        key="row",
    )
    assert counts.tolist() == [[4, 2]] * 3
    for where, drawn_rows, drawn, present in drawn_runs(
        values, counts, slots, np.random.default_rng(7)
    ):
        count = counts[drawn_rows]
        by_pass = np.where(present, drawn, 0.0).sum(axis=-1) / count  # one group: weight 1
        assert np.array_equal(scores[where], by_pass)
        cells = drawn.reshape(-1, *drawn.shape[2:])  # [slot, algorithm, n_max] draws
        sizes = count.reshape(-1, count.shape[-1])
        own = [
            [d[:n].mean() for d, n in zip(c, k, strict=True)]
            for c, k in zip(cells, sizes, strict=True)
        ]
        np.testing.assert_allclose(scores[where].reshape(-1, 2), own, rtol=1e-12)


def test_coco_default_targets() -> None:
    assert len(COCO_TARGETS) == 51
    # The exact decimal levels COCO writes: 10^2, 10^1.8, …; whole decades are exact.
    assert COCO_TARGETS[0] == 100.0 and COCO_TARGETS[5] == 10.0 and COCO_TARGETS[-1] == 1e-8
    # 2 − 8/5 evaluates to 0.3999999999999999: the naive level is one step below COCO's.
    assert COCO_TARGETS[8] == 10.0**0.4
    assert COCO_TARGETS[8] > 10.0 ** (2 - 8 / 5)
    assert sum(10.0 ** (2 - k / 5) != t for k, t in enumerate(COCO_TARGETS)) == 17
    # Each level is 10 to the power of its exponent written as a one-decimal literal.
    assert list(COCO_TARGETS) == [10.0 ** float(f"{2 - k / 5:.1f}") for k in range(51)]


# A recorded sample that runs without cocopp installed (test_every_ert_cell_equals_cocopp
# checks every cell when it is):
# cocopp 2.9.1 (PyPI), `cocopp.pproc.DataSetList(<archive>.tgz)`, `DataSet.detERT(targets)` with
# targets 10^(2 − k/5) (×(1 + 1e-12), so that cocopp's own grid value of the same target is
# matched rather than the next one below), on the archives of ../shared/data/coco-bbob-archive
# (numbbo/data-archive fcf61deb5d3a). Key: (function, dimension) → {k: ERT}; None = ∞.
# All 6120 (R-SHADE) and 6018 (BrentSTEPqi) ERTs of the 51 targets agreed to 1e-12 when this
# was recorded; these are a sample, including runs whose end comes from the .tdat file
# (BrentSTEPqi f6/f9/f14 in 20-D: truncated .info entries) and runs that stop at the target,
# whose hit is the last record of their .dat block (BrentSTEPqi f1 in 2-D).
COCOPP_ERT: dict[str, dict[tuple[str, int], dict[int, float | None]]] = {
    "R-SHADE-10e2_Tanabe.tgz": {
        ("f1", 2): {0: 1.0666666666666667, 5: 3.8666666666666667, 15: 58.333333333333336,
                    25: 138.73333333333332, 35: 719.25, 50: None},
        ("f4", 2): {0: 2.8666666666666667, 5: 44.733333333333334, 15: 1495.5, 25: None},
        ("f5", 10): {0: 45.13333333333333, 5: 239.4, 15: 511.8, 25: 737.7333333333333,
                     35: 1140.4166666666667, 50: 7423.0},
        ("f8", 5): {0: 146.6, 5: 359.85714285714283, 15: None},
        ("f21", 20): {0: 1.0, 5: 2238.5, 15: 29325.0, 25: None},
    },
    "BrentSTEPqi_Posik.tgz": {
        ("f1", 2): {0: 1.0, 5: 2.6666666666666665, 15: 10.066666666666666, 25: 10.8,
                    35: 10.8, 50: 10.8},
        ("f6", 20): {0: 40709.166666666664, 5: 971325.0, 15: None},
        ("f9", 20): {0: 2627.0, 5: None},
        ("f14", 20): {0: 3.25, 5: 109.75, 15: 2586.75, 25: None},
        ("f17", 20): {0: 1.0, 5: 104.66666666666667, 15: None},
    },
}  # fmt: skip


def _worsening_runs(archive: Path) -> set[tuple[str, int]]:
    """(function, dimension) pairs with a run whose recorded best-so-far value worsens.

    Read straight from the ``.dat`` files (third column, "best noise-free fitness − Fopt"):
    files written by COCO's own observer never do this.
    """
    worsening: set[tuple[str, int]] = set()
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            match = re.search(r"_f(\d+)_DIM(\d+)\.dat$", member.name)
            handle = tar.extractfile(member) if match else None
            if match is None or handle is None:
                continue
            for block in handle.read().decode().split("%"):
                rows = [line.split() for line in block.strip().splitlines()[1:]]
                best = np.array([float(r[2]) for r in rows if len(r) > 2])
                if (np.diff(best) > 0).any():
                    worsening.add((f"f{match.group(1)}", int(match.group(2))))
    return worsening


ARCHIVES = ("BrentSTEPqi_Posik.tgz", "DIRECT_posik_noiseless_no-m-files.tgz",
            "EvoSpace-PSO-GA_Garcia-Valdez.tgz", "Ord-N-DTS-CMA-ES_Pitra.tgz",
            "R-SHADE-10e2_Tanabe.tgz", "RAND-2xDefault-MATSuMoTo_Brockhoff.tgz")  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("archive", ARCHIVES)
def test_every_ert_cell_equals_cocopp(archive: str, tmp_path: Path) -> None:
    """All 51 targets × every (function, dimension) of every shared COCO archive, with cocopp
    computing its own ERTs live (``DataSet.detERT`` at COCO's target levels, no tolerance).

    EvoSpace-PSO-GA was not written by COCO's observer: in some runs its "best so far" column
    worsens (f18 in 2-D, run of instance 46: 6.31 at evaluation 1, then 11.7 at 100). Such a
    run reaches Δf = 10 at evaluation 1 by the definition (first record ≤ Δf), which reportgen
    uses; cocopp's reader realigns it. Cells of such problems may differ; all others must not.
    """
    pproc = pytest.importorskip("cocopp.pproc", reason="cocopp (extra 'dev') is not installed")
    source = COCO_ARCHIVE / archive
    require_shared(source, "the shared COCO data archive")
    path = tmp_path / archive  # cocopp extracts next to the archive: keep that out of shared
    shutil.copy(source, path)
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")  # cocopp's own deprecation and consistency notices
        datasets = list(pproc.DataSetList(str(path)))
    frame = read_coco([(path, archive)], CocoOptions(), None, "data.bbob").frame
    ert = compute(_data(frame), _options()).ert.set_index(["problem", "dimension", "target"])["ert"]
    irregular = _worsening_runs(path)
    cells, differing = 0, []
    for dataset in datasets:
        key = (f"f{dataset.funcId}", int(dataset.dim))
        for target, theirs in zip(COCO_TARGETS, dataset.detERT(list(COCO_TARGETS)), strict=True):
            ours = ert[(*key, target)]
            cells += 1
            if not (ours == theirs or (math.isinf(ours) and math.isinf(theirs))):
                differing.append((*key, target, ours, theirs))
    assert cells == 51 * len(datasets) == len(ert)
    assert [d for d in differing if d[:2] not in irregular] == []
    if archive.startswith("EvoSpace"):
        assert len(differing) == 8  # of 6120, all on problems with a worsening "best" column
    else:
        assert differing == [] and not irregular


@pytest.mark.parametrize("archive", sorted(COCOPP_ERT))
def test_ert_equals_cocopp(archive: str) -> None:
    path = require_shared(COCO_ARCHIVE / archive, "the shared COCO data archive")
    frame = read_coco([(path, archive)], CocoOptions(), None, "data.bbob").frame
    result = compute(_data(frame), _options())
    ert = result.ert.set_index(["problem", "dimension", "target"])["ert"]
    for (problem, dimension), expected in COCOPP_ERT[archive].items():
        for k, value in expected.items():
            ours = ert[(problem, dimension, COCO_TARGETS[k])]
            if value is None:
                assert math.isinf(ours), (problem, dimension, k)
            else:
                assert ours == pytest.approx(value, rel=1e-12), (problem, dimension, k)


def test_the_last_dat_record_is_kept() -> None:
    """BrentSTEPqi stops at the target: its hit is the last record of each .dat block."""
    path = require_shared(COCO_ARCHIVE / "BrentSTEPqi_Posik.tgz", "the shared COCO data archive")
    with tarfile.open(path) as archive:
        handle = archive.extractfile("BrentSTEPqi/data_f1/bbobexp_f1_DIM2.dat")
        assert handle is not None
        blocks = handle.read().decode().split("%")[1:]
    last = [float(b.strip().splitlines()[-1].split()[2]) for b in blocks if b.strip()]
    assert len(last) == 15 and all(v <= 1e-8 for v in last)  # every hit is a last record
    frame = read_coco([(path, path.name)], CocoOptions(), None, "data.bbob").frame
    f1 = frame[(frame["problem"] == "f1") & (frame["dimension"] == 2)]
    options = _options(targets=[1e-8], table_targets=[1e-8])
    result = compute(_data(f1), options).ert.iloc[0]
    assert (result["ert"], result["successes"]) == (pytest.approx(10.8), 15)  # cocopp: 10.8


def test_unequal_budgets_caveat_common_budget_and_one_best() -> None:
    # Hand example in 2-D, targets 1 and 0.1, one run each:
    #   A: (1, 5) (10, 0.5)             → Δf = 1 at x = 10/2 = 5; never 0.1; budget x = 5.
    #   B: (1, 5) (200, 0.5) (400, 0.05) → Δf = 1 at x = 100, 0.1 at x = 200; budget x = 200.
    # Budgets differ 40-fold (> 10): caveat. Common budget x = 5: A 1/2, B 0.
    # Final shares: A 1/2, B 1 (B "reaches the most", at 40 times A's budget).
    # Area over log10 x ∈ [0, log10 200]: A 0.5·(log 200 − log 5)/log 200 = 0.34812;
    # B 0.5·(log 200 − 2)/log 200 = 0.06541. The best (area) is A, in text and figure alike.
    frame = pd.DataFrame(
        [("A", "f1", 2, 1, 1, 5.0), ("A", "f1", 2, 1, 10, 0.5),
         ("B", "f1", 2, 1, 1, 5.0), ("B", "f1", 2, 1, 200, 0.5), ("B", "f1", 2, 1, 400, 0.05)],
        columns=["algorithm", "problem", "dimension", "run", "evaluations", "value"],
    )  # fmt: skip
    result = compute(_data(frame), _options(targets=[1.0, 0.1], table_targets=[1.0]))
    summary = result.summary.set_index("algorithm")
    assert summary["solved"].to_dict() == {"A": 0.5, "B": 1.0}
    assert summary["common_budget"].to_dict() == {"A": 5.0, "B": 5.0}
    assert summary["solved_at_common_budget"].to_dict() == {"A": 0.5, "B": 0.0}
    log200 = math.log10(200)
    assert summary.loc["A", "area"] == pytest.approx(0.5 * (log200 - math.log10(5)) / log200)
    assert summary.loc["B", "area"] == pytest.approx(0.5 * (log200 - 2) / log200)
    (caveat,) = [c for c in result.caveats if c.code == "unequal_budgets"]
    assert "Budgets differ 40-fold in 2-D: from 5·D evaluations (A) to 200·D (B)" in caveat.message
    # The caveat names its algorithms as data: the report prints their labels, results.json
    # their names.
    assert caveat.algorithms == ("A", "B")
    shown = caveat.labelled(Labels({"A": "Alpha-1", "B": "B (tuned)"}))
    assert "from 5·D evaluations (Alpha-1) to 200·D (B (tuned))" in shown.message
    assert shown.where == "Alpha-1, B (tuned)" and caveat.to_json()["where"] == "A, B"
    labels = make_style(("A", "B"))
    (finding,) = findings(result, labels)
    assert finding.numbers["best"] == "A" and finding.numbers["most_reached"] == "B"
    # The sentence, the figure's title and the table print the area alike (three decimals:
    # they quoted 0.29, 0.29 and 0.286 for bbob_coco's DIRECT; the column mixed 0.14 and 0.149).
    assert finding.text.startswith(
        "In 2-D, A has the largest area under the runtime ECDF (0.348): it reaches targets "
        "soonest on average over budgets (next: B, 0.065)."
    )
    assert "At the common budget of 5·D evaluations" in finding.text
    assert "A reaches the most (function, target) pairs (50.0 %)" in finding.text
    assert "not comparable" in finding.text
    (figure,) = ecdf_figures(result, labels)
    assert figure.figure.axes[0].get_title() == "2-D — largest area: A (0.348)"
    section = build_section(result, _options(targets=[1.0, 0.1], table_targets=[1.0]), labels)
    tables = {b.name: b.frame for b in section.blocks if isinstance(b, TableBlock)}
    assert tables["ecdf_summary"]["area (log x)"].tolist() == ["0.348", "0.065"]
    # ERT / D of f1 at Δf = 1: A 10/2 = 5 and B 200/2 = 100, integers by chance, printed
    # like any value of three significant digits (an integer ERT of 11742 printed whole
    # beside 1.2×10⁴ in bbob_coco's table).
    assert tables["ert_2D"][["A", "B"]].values.tolist() == [["5", "100"]]
    assert number(11742.0, 3, whole=False) == "1.17×10⁴"
    # Equal budgets: no caveat and the plain sentence.
    equal = compute(_data(HAND), _options())
    assert not [c for c in equal.caveats if c.code == "unequal_budgets"]


def test_problem_areas_by_hand_and_their_mean_is_the_area() -> None:
    # HAND with a second function f2 (a copy of f1 two evaluations later): per problem, a run
    # reaching a target at t adds (high − log10 t)/(high − low) to the mean over the (run,
    # target) pairs; the window is [log10 1, log10 16] (the largest budget / D: (30 + 2)/2).
    later = HAND.assign(problem="f2", evaluations=HAND["evaluations"] + 2)
    result = compute(_data(pd.concat([HAND, later])), _options(targets=[1.0, 1e-3]))
    low, high = 0.0, math.log10(16.0)
    f1 = sum(high - math.log10(t) for t in (2.0, 1.5, 2.5)) / 6 / (high - low)
    f2 = sum(high - math.log10(t) for t in (3.0, 2.5, 3.5)) / 6 / (high - low)
    areas = result.problem_areas
    assert areas is not None
    assert areas.groupby("problem", observed=True)["area"].mean().tolist() == pytest.approx(
        [f1, f2]
    )
    # Run by run (the run bootstrap draws these): on f1 run 1 reaches Δf = 1 at 2, run 2
    # nothing, run 3 both targets, at 1.5 and 2.5.
    f1_runs = areas[areas["problem"] == "f1"].sort_values("run")["area"].tolist()
    width = high - low
    assert f1_runs == pytest.approx(
        [
            (high - math.log10(2.0)) / 2 / width,
            0.0,
            (2 * high - math.log10(1.5) - math.log10(2.5)) / 2 / width,
        ]
    )
    # The ECDF's area is the mean of its problems' areas (the bootstrap's scores).
    assert result.summary["area"].iloc[0] == pytest.approx((f1 + f2) / 2, rel=1e-12)
    scores = result.area_scores()
    assert scores["score"].tolist() == pytest.approx([f1, f2])  # one group: weight 1


def test_equal_areas_are_a_shared_first_place() -> None:
    """A and B with the same runs have the same ECDF: the finding named A alone ('A has the
    largest area … (next: B, 0.348)') and A alone as reaching the most pairs."""
    frame = pd.DataFrame(
        [(a, "f1", 2, 1, e, v) for a in ("A", "B") for e, v in ((1, 5.0), (10, 0.5))]
        + [("C", "f1", 2, 1, 1, 5.0), ("C", "f1", 2, 1, 10, 5.0)],
        columns=["algorithm", "problem", "dimension", "run", "evaluations", "value"],
    )
    result = compute(_data(frame), _options(targets=[1.0, 0.1], table_targets=[1.0]))
    (finding,) = findings(result, make_style(("A", "B", "C")))
    assert finding.numbers["tied"] == ["A", "B"]
    assert finding.text.startswith(
        "In 2-D, A and B have the same largest area under the runtime ECDF ("
    )
    assert "none of them reaches targets sooner on average over budgets (next: C, " in finding.text
    assert "A and B reach the same largest share of (function, target) pairs, 50.0 %" in (
        finding.text
    )


def test_target_reached_at_evaluation_zero_counts_from_the_window_start() -> None:
    """A run whose first record, at evaluation 0, already reaches the target: log10 0 = −∞
    printed 'RuntimeWarning: divide by zero encountered in log10' (an error under pytest's
    warning filter). The hit is clipped to the window's start: A's ECDF is 1 over the whole
    window (area 1); B reaches it at x = 10/2 = 5 in the window log10 x ∈ [0, 1] (it spans at
    least a decade): area 1 − log10 5."""
    frame = pd.DataFrame(
        [("A", "f1", 2, 1, 0, 0.5), ("A", "f1", 2, 1, 10, 0.5),
         ("B", "f1", 2, 1, 1, 5.0), ("B", "f1", 2, 1, 10, 0.5)],
        columns=["algorithm", "problem", "dimension", "run", "evaluations", "value"],
    )  # fmt: skip
    result = compute(_data(frame), _options(targets=[1.0], table_targets=[1.0]))
    area = result.summary.set_index("algorithm")["area"]
    assert area.to_dict() == {"A": pytest.approx(1.0), "B": pytest.approx(1 - math.log10(5))}
