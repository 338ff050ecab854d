"""Data as people have it: empty cells meaning "not reached", algorithm aliases, problems
excluded in one dimension, completeness across combined sources —
and the real files that need them (an IOHanalyzer export, the CEC 2020 competition files)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import reportgen
from reportgen.errors import InputError
from tests.conftest import HISTORIES_CSV, SHARED_DATA, require_shared, write

TRIALS = """
algorithm,problem,dim,run,value,fes_to_target
A,f1,2,1,0.5,
A,f1,2,2,1e-9,120
B,f1,2,1,0.7,
B,f1,2,2,2e-9,80
A,f2,2,1,3,
A,f2,2,2,4,
B,f2,2,1,1e-9,40
B,f2,2,2,1e-9,60
"""


def study(tmp_path: Path, body: str) -> Path:
    return write(tmp_path, "study.yaml", "study: {title: T}\nminimize: true\n" + body)


def u_scores(source: str = "runs", extra: str = "") -> str:
    return f"analyses:\n  - kind: u_scores\n    data: {source}\n    target: 1.0e-8\n{extra}"


def problems_of(path: Path) -> list[str]:
    with pytest.raises(InputError) as info:
        reportgen.compute_study(path)
    return [str(p) for p in info.value.problems]


# --- empty cells ---------------------------------------------------------------------------


def test_empty_cells_are_errors_unless_the_source_says_not_reached(tmp_path: Path) -> None:
    write(tmp_path, "runs.csv", TRIALS)
    source = (
        "data:\n  runs:\n    path: runs.csv\n    format: trials\n"
        "    columns: {dimension: dim, evaluations_to_target: fes_to_target}\n"
    )
    errors = problems_of(study(tmp_path, source + u_scores()))
    assert errors[0].startswith("runs.csv, row 1 (line 2), column 'fes_to_target': empty value")
    spec = study(tmp_path, source + "    empty_cells: not_reached\n" + u_scores())
    trials = reportgen.compute_study(spec).data.sources["runs"].frame
    a1 = trials[(trials["algorithm"] == "A") & (trials["problem"] == "f1")]
    assert a1["evaluations_to_target"].tolist() == [math.inf, 120.0]


def test_empty_cells_in_other_columns_stay_errors(tmp_path: Path) -> None:
    write(tmp_path, "runs.csv", TRIALS.replace("A,f1,2,1,0.5,", "A,f1,2,1,,"))
    spec = study(
        tmp_path,
        "data:\n  runs:\n    path: runs.csv\n    format: trials\n"
        "    columns: {dimension: dim, evaluations_to_target: fes_to_target}\n"
        "    empty_cells: not_reached\n" + u_scores(),
    )
    assert problems_of(spec) == [
        "runs.csv, row 1 (line 2), column 'value': empty value (every cell needs a number): ''"
    ]


# --- aliases ---------------------------------------------------------------------------------


def test_aliases_merge_one_algorithm_named_differently_in_two_files(tmp_path: Path) -> None:
    header, *rows = TRIALS.strip().splitlines()
    write(tmp_path, "a.csv", "\n".join([header, *[r for r in rows if r.startswith("A,")]]))
    b_rows = [r.replace("B,", "MealpyB,", 1) for r in rows if r.startswith("B,")]
    write(tmp_path, "b.csv", "\n".join([header, *b_rows]))
    source = (
        "data:\n  runs:\n    paths: [a.csv, b.csv]\n    format: trials\n"
        "    columns: {dimension: dim, evaluations_to_target: fes_to_target}\n"
        "    empty_cells: not_reached\n"
    )
    spec = study(
        tmp_path,
        source + "algorithms: [A, {name: B, aliases: [MealpyB], label: GA}]\n" + u_scores(),
    )
    results = reportgen.compute_study(spec)
    assert results.data.algorithms == ("A", "B")
    # By hand (success beats failure; successes by evaluations; failures by error), f1:
    # A 0.5 beats B 0.7, A's success beats B 0.7, B's success (80) beats A's (120) and A 0.5:
    # A 2, B 2. f2: B's two successes beat A's two failures: A 0, B 4.
    totals = results["u_scores"].totals.set_index("algorithm")["total"]
    assert totals.to_dict() == {"A": 2.0, "B": 6.0}


def test_two_names_with_one_label_must_be_merged_explicitly(tmp_path: Path) -> None:
    write(tmp_path, "runs.csv", TRIALS)
    spec = study(
        tmp_path,
        "data:\n  runs: {path: runs.csv, format: trials, columns: {dimension: dim}}\n"
        "algorithms: [{name: A, label: GA}, {name: B, label: GA}]\n" + u_scores(),
    )
    (message,) = problems_of(spec)
    assert "'A' and 'B' have the same label 'GA'" in message
    assert "{name: A, aliases: [B]}" in message


def test_aliases_never_mix_two_runs_with_one_number(tmp_path: Path) -> None:
    write(tmp_path, "runs.csv", TRIALS)
    spec = study(
        tmp_path,
        "data:\n  runs:\n    path: runs.csv\n    format: trials\n"
        "    columns: {dimension: dim, evaluations_to_target: fes_to_target}\n"
        "    empty_cells: not_reached\n"
        "algorithms: [{name: A, aliases: [B]}]\n" + u_scores(),
    )
    errors = problems_of(spec)
    assert errors[0] == (
        "data source 'runs': algorithm 'A' gets run 1 of f1 (D=2) from both 'A' and 'B'; "
        "aliases merge names of different runs (number the runs apart)"
    )
    assert len(errors) == 4  # runs 1 and 2 on f1 and f2


# --- problems: per dimension, across sources -----------------------------------


def test_a_problem_excluded_in_one_dimension_only(tmp_path: Path) -> None:
    rows = TRIALS.strip().splitlines()
    write(tmp_path, "runs.csv", "\n".join([*rows, *[r.replace(",2,", ",3,", 1) for r in rows[1:]]]))
    spec = study(
        tmp_path,
        "data:\n  runs:\n    path: runs.csv\n    format: trials\n"
        "    columns: {dimension: dim, evaluations_to_target: fes_to_target}\n"
        "    empty_cells: not_reached\n"
        "problems: {exclude: [{problem: f2, dimensions: [3]}]}\n" + u_scores(),
    )
    result = reportgen.compute_study(spec)["u_scores"]
    assert sorted(
        set(zip(result.u_scores["problem"], result.u_scores["dimension"], strict=True))
    ) == [
        ("f1", 2),
        ("f1", 3),
        ("f2", 2),
    ]


def test_completeness_is_judged_over_the_sources_an_analysis_combines(tmp_path: Path) -> None:
    header, *rows = TRIALS.strip().splitlines()
    write(tmp_path, "a.csv", "\n".join([header, *[r for r in rows if r.startswith("A,")]]))
    b_rows = [r for r in rows if r.startswith("B,f1")]  # B has no f2
    write(tmp_path, "b.csv", "\n".join([header, *b_rows]))
    sources = "".join(
        f"  {n}:\n    path: {n}.csv\n    format: trials\n"
        "    columns: {dimension: dim, evaluations_to_target: fes_to_target}\n"
        "    empty_cells: not_reached\n"
        for n in ("a", "b")
    )
    spec = study(tmp_path, f"data:\n{sources}" + u_scores("[a, b]"))
    (message,) = problems_of(spec)
    assert "the sources 'a', 'b' together lack some algorithm on 1 problem (f2 (D=2): B)" in message
    spec = study(
        tmp_path, f"data:\n{sources}problems: {{incomplete: exclude}}\n" + u_scores("[a, b]")
    )
    results = reportgen.compute_study(spec)
    assert set(results["u_scores"].u_scores["problem"]) == {"f1"}
    (caveat,) = [c for c in results.caveats if c.code == "excluded_problems"]
    assert caveat.where == "f2 (D=2): B"


# --- the real files ----------------------------------------------------------------------------


def test_ioh_analyzer_export_with_empty_cells_loads_as_it_is(tmp_path: Path) -> None:
    data = require_shared(SHARED_DATA / "iohdata-bbob-9algs" / "runs_summary.csv")
    (tmp_path / "runs_summary.csv").symlink_to(data)
    spec = study(
        tmp_path,
        "data:\n  runs:\n    path: runs_summary.csv\n    format: trials\n"
        "    columns: {problem: function, dimension: dim, value: finalFV, "
        "evaluations_used: maxRT, evaluations_to_target: fes_to_1e-08}\n"
        "    empty_cells: not_reached\n"
        "problems: {dimensions: [2]}\n" + u_scores(),
    )
    trials = reportgen.compute_study(spec).data.sources["runs"].frame
    assert len(trials) == 9 * 24 * 15  # 9 algorithms, 24 functions, 15 runs in 2-D
    # runs_summary.csv line 286: BIPOP-CMA-ES, f12, 2-D, run 15 never reached 1e-8 (empty).
    run = trials[
        (trials["algorithm"] == "BIPOP-CMA-ES")
        & (trials["problem"] == "12")
        & (trials["dimension"] == 2)
        & (trials["run"] == 15)
    ]
    assert run["evaluations_to_target"].tolist() == [math.inf]
    assert run["value"].tolist() == [3.137508031e-09]


def test_cec2020_top3_files_load_and_combine_as_they_are(tmp_path: Path) -> None:
    (tmp_path / "data").symlink_to(require_shared(SHARED_DATA / "cec2020-top3"))
    options = (
        "checkpoints: cec2020, max_evaluations: {5: 50000, 10: 1000000, 15: 3000000, 20: 10000000}"
    )
    sources = "".join(
        f"  {name}:\n    paths: data/{folder}/{glob}\n    format: cec\n    cec: {{{options}{extra}}}\n"
        for name, folder, glob, extra in (
            ("agsk", "AGSK_E-24505", "*.txt", ""),
            ("j2020", "j2020_E-24518", "*.txt", ""),
            (
                "imode",
                "IMODE_E24365",
                "*.dat",
                ", file_pattern: '{algorithm}{function}_{dimension}.dat'",
            ),
        )
    )
    # SOURCE.md: f6 and f7 are not defined for D = 5 (j2020 omits their files).
    spec = study(
        tmp_path,
        f"data:\n{sources}"
        "problems: {exclude: [{problem: f6, dimensions: [5]}, {problem: f7, dimensions: [5]}]}\n"
        "analyses:\n  - kind: performance_profiles\n    data: [agsk, j2020, imode]\n"
        "    tolerances: [1.0e-1]\n",
    )
    results = reportgen.compute_study(spec)
    profiles = results["performance_profiles"]
    assert results.data.algorithms == ("AGSK", "IMODE", "j2020")
    assert len(profiles.problems) == 10 * 4 - 2  # 10 functions × 4 dimensions, less f6/f7 in 5-D


# --- trials from histories at a budget ---------------------------------------------------------


def test_trials_at_a_budget_from_a_histories_source(tmp_path: Path) -> None:
    write(tmp_path, "h.csv", HISTORIES_CSV)
    spec = study(
        tmp_path,
        "data:\n  curves:\n    path: h.csv\n    format: histories\n"
        "    columns: {dimension: dim, evaluations: evals}\n"
        "  at5:\n    format: trials\n"
        "    trials_at: {source: curves, budget: 5, target: 0.5}\n" + u_scores("at5"),
    )
    trials = reportgen.compute_study(spec).data.sources["at5"].frame
    got = {
        (a, p, r): (v, t)
        for a, p, r, v, t in trials[
            ["algorithm", "problem", "run", "value", "evaluations_to_target"]
        ].itertuples(index=False)
    }
    # By hand from HISTORIES_CSV: each run's last record at ≤ 5 evaluations; ≤ 0.5 reached at.
    inf = math.inf
    assert got == {
        ("A", "f1", 1): (1.0, inf),
        ("A", "f1", 2): (10.0, inf),
        ("A", "f2", 1): (0.5, 3.0),
        ("A", "f2", 2): (0.1, 4.0),
        ("B", "f1", 1): (9.0, inf),
        ("B", "f1", 2): (9.0, inf),
        ("B", "f2", 1): (5.0, inf),
        ("B", "f2", 2): (1.0, inf),
    }


def test_trials_at_needs_a_histories_source_and_a_reachable_budget(tmp_path: Path) -> None:
    write(tmp_path, "h.csv", HISTORIES_CSV.replace("A,f1,2,1,1,10", "A,f1,2,1,2,10"))
    source = (
        "data:\n  curves:\n    path: h.csv\n    format: histories\n"
        "    columns: {dimension: dim, evaluations: evals}\n  at1:\n    format: trials\n"
    )
    spec = study(tmp_path, source + "    trials_at: {source: curve, budget: 1}\n" + u_scores("at1"))
    (message,) = problems_of(spec)
    assert "'curve' is not a histories source of the study (did you mean 'curves'?)" in message
    spec = study(
        tmp_path, source + "    trials_at: {source: curves, budget: 1}\n" + u_scores("at1")
    )
    (message,) = problems_of(spec)
    assert message.startswith("data.at1.trials_at.source (study.yaml:")
    assert "1 run has no record within the budget of 1 evaluations (A on f1 (D=2) run 1)" in message
