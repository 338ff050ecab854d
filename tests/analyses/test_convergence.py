"""Tests of the convergence analysis (median best-so-far curves, IQR bands, fixed budgets).

Expected numbers are hand calculations written out in each test.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from reportgen.analyses.convergence import axis_scale, compute, values_at
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.data.load import load_data
from reportgen.errors import InputError
from reportgen.figures.convergence import _steps, figures
from reportgen.figures.style import make_style
from reportgen.narrative.convergence import findings
from reportgen.render.sections.convergence import build_section
from reportgen.spec.analyses.convergence import ConvergenceOptions
from reportgen.spec.load import load_spec
from tests.conftest import ROOT, write

# (algorithm, run) → records (evaluations, value) on problem f1 in 2-D.
RECORDS = {
    ("A", 1): [(1, 100.0), (10, 10.0), (100, 1.0)],
    ("A", 2): [(1, 80.0), (50, 5.0), (100, 5.0)],
    ("A", 3): [(2, 60.0), (20, 2.0), (100, 0.5)],
    ("B", 1): [(1, 90.0), (100, 50.0)],
    ("B", 2): [(1, 70.0), (100, 40.0)],
    ("B", 3): [(1, 30.0), (100, 30.0)],
}


def histories(records: dict[tuple[str, int], list[tuple[float, float]]]) -> AnalysisData:
    rows = [
        {"algorithm": a, "problem": "f1", "dimension": 2, "run": r, "evaluations": e, "value": v}
        for (a, r), points in records.items()
        for e, v in points
    ]
    frame = pd.DataFrame(rows)
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    algorithms = tuple(dict.fromkeys(a for a, _ in records))
    return AnalysisData("histories", frame, algorithms, problems)


def options(**kwargs: Any) -> ConvergenceOptions:
    return ConvergenceOptions(kind="convergence", data="curves", **kwargs)


def test_fixed_budgets_by_hand() -> None:
    """At 10 evaluations A's runs are at 10 (run 1), 80 (run 2, no improvement yet) and 60
    (run 3): sorted 10, 60, 80 → median 60, Q1 = 10 + ½·50 = 35, Q3 = 60 + ½·20 = 70 (linear
    quartiles of three values), mean 50. At 100: 1, 5, 0.5 → median 1, Q1 0.75, Q3 3."""
    result = compute(histories(RECORDS), options(budgets=[10, 100]))
    at10 = {f.algorithm: f for f in result.at_budget(2, 10.0)}
    assert (at10["A"].median, at10["A"].q1, at10["A"].q3, at10["A"].mean) == (60, 35, 70, 50)
    at100 = {f.algorithm: f for f in result.at_budget(2, 100.0)}
    assert (at100["A"].median, at100["A"].q1, at100["A"].q3) == (1.0, 0.75, 3.0)
    assert (at100["B"].median, at100["B"].n_runs) == (40.0, 3)


def test_best_at_budget() -> None:
    """At 10 evaluations B's runs are at 90, 70, 30 → median 70 > A's 60: A is best."""
    result = compute(histories(RECORDS), options(budgets=[10, 100]))
    b10 = {f.algorithm: f.median for f in result.at_budget(2, 10.0)}
    assert b10 == {"A": 60.0, "B": 70.0}
    assert result.best_at_budget("f1", 2, 10.0) == ("A",)
    assert result.best_at_budget("f1", 2, 100.0) == ("A",)


def test_curve_starts_where_every_run_has_a_record() -> None:
    result = compute(histories(RECORDS), options())
    curve = next(c for c in result.curves if c.algorithm == "A")
    assert curve.evaluations[0] >= 2  # run 3's first record is at 2 evaluations
    assert curve.evaluations[-1] == 100
    assert curve.median[-1] == 1.0
    assert np.all(np.diff(curve.evaluations) > 0)
    # Default budget: the largest evaluation count recorded in the dimension.
    assert result.budgets == {2: (100.0,)}


def test_values_at_is_the_last_record_at_or_before() -> None:
    out = values_at(np.array([1.0, 10.0]), np.array([5.0, 2.0]), np.array([0.5, 1, 9, 10, 50]))
    assert np.isnan(out[0]) and out[1:].tolist() == [5.0, 5.0, 2.0, 2.0]


def test_axis_scale() -> None:
    assert axis_scale(np.array([1.0, 50.0])) == ("linear", None)
    assert axis_scale(np.array([1e-3, 10.0])) == ("log", None)
    # Zeros on a log axis sit a decade below the smallest positive value (2e-5 → 1e-6).
    assert axis_scale(np.array([0.0, 2e-5, 10.0])) == ("log", 1e-6)
    assert axis_scale(np.array([-1.0, 1e-3, 10.0])) == ("linear", None)


def test_input_errors() -> None:
    with pytest.raises(InputError, match="did you mean 'f1'"):
        compute(histories(RECORDS), options(problems=["F1"]))
    with pytest.raises(InputError, match="no budgets for dimension 2"):
        compute(histories(RECORDS), options(budgets={10: [5]}))


def test_thirteen_algorithms_look_distinct_and_section_builds() -> None:
    names = [f"alg{i:02d}" for i in range(13)]
    records = {
        (name, r): [(1, 100.0 + i), (10 * (i + 1), 10.0 / (i + 1)), (1000, 1e-3 * (i + r))]
        for i, name in enumerate(names)
        for r in (1, 2, 3)
    }
    result = compute(histories(records), options(show_mean=True))
    style = make_style(names)
    specs = figures(result, style)
    assert len(specs) == 1
    legend = specs[0].figure.legends[0]
    looks = {(h.get_color(), h.get_linestyle(), h.get_marker()) for h in legend.legend_handles}
    assert len(looks) == 13
    section = build_section(result, options(show_mean=True), style)
    tables = [b for b in section.blocks if getattr(b, "name", "").startswith("fixed_budget")]
    assert len(tables) == 1 and tables[0].frame.shape == (1, 14)
    assert tables[0].bold is not None and tables[0].bold.iloc[0].sum() == 1


def test_budgets_print_in_one_notation() -> None:
    """cec2022 listed 'D = 10: 20000, 200000; D = 20: 100000, 1×10⁶' and said 'After 200000
    evaluations' next to 'After 1×10⁶ evaluations'; budgets now print as every other
    evaluation count of the report (10⁴ and above as powers of ten, as μ_f = 10⁴)."""
    records = {("A", 1): [(1, 9.0), (10**6, 1.0)], ("B", 1): [(1, 8.0), (10**6, 2.0)]}
    budgets = [5000, 200_000, 1_000_000]
    result = compute(histories(records), options(budgets=budgets))
    said = [f.text for f in findings(result, make_style(["A", "B"]))]
    assert [t.split(" evaluations")[0] for t in said] == ["After 5000", "After 2×10⁵", "After 10⁶"]
    section = build_section(result, options(budgets=budgets), make_style(["A", "B"]))
    assert any("Fixed budgets: D = 2: 5000, 2×10⁵, 10⁶ evaluations." in m for m in section.methods)


@pytest.mark.parametrize(
    ("files", "source"),
    [
        ("tests/data/fixtures/ioh", "paths: data/*\nformat: ioh"),
        ("tests/data/fixtures/coco", "paths: data/*\nformat: coco"),
        (
            "example_studies/cec2017/data",
            "paths: data/*_1_10.txt\nformat: cec\ncec: {checkpoints: cec2017}",
        ),
    ],
    ids=["ioh", "coco", "cec"],
)
def test_platform_histories(tmp_path: Path, files: str, source: str) -> None:
    """Curves from every platform format: medians never increase (best-so-far), each curve
    ends at the largest evaluation count its runs recorded, the default fixed budget is the
    dimension's largest."""
    for path in (ROOT / files).iterdir():
        target = tmp_path / "data" / path.name
        if path.is_dir():
            shutil.copytree(path, target)
        elif path.suffix in (".txt", ".tgz", ".zip") or files.endswith("data"):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)
    spec = write(
        tmp_path,
        "study.yaml",
        "study: {title: Formats}\nminimize: true\ndata:\n  src:\n"
        + "".join(f"    {line}\n" for line in source.splitlines())
        + "analyses:\n  - kind: convergence\n    data: src\n",
    )
    data = load_data(load_spec(spec)).for_analysis("src")
    result = compute(data, options())
    assert result.curves
    for curve in result.curves:
        assert np.all(np.diff(curve.median) <= 0)
        group = data.frame[
            (data.frame["algorithm"] == curve.algorithm)
            & (data.frame["problem"] == curve.problem)
            & (data.frame["dimension"] == curve.dimension)
        ]
        assert curve.evaluations[-1] == group["evaluations"].max()
    for dimension, budgets in result.budgets.items():
        largest = data.frame.loc[data.frame["dimension"] == dimension, "evaluations"].max()
        assert budgets == (float(largest),)


def test_a_curve_of_one_point_is_drawn_as_a_marker() -> None:
    records = {**RECORDS, ("C", 1): [(1, 20.0)], ("C", 2): [(1, 25.0)]}
    result = compute(histories(records), options())
    curve = next(c for c in result.curves if c.algorithm == "C")
    assert curve.evaluations.tolist() == [1.0] and curve.median.tolist() == [22.5]
    [spec] = figures(result, make_style(["A", "B", "C"]))
    points = [
        line
        for line in spec.figure.axes[0].get_lines()
        if line.get_marker() not in ("None", None, "") and len(line.get_xdata()) == 1
    ]
    assert len(points) == 1


def test_step_curves_drop_only_points_that_change_nothing() -> None:
    """The figure keeps the first, the last and every point where a value changes; a
    steps-post curve through the kept points has, at every original point, the original
    value (the value of the last kept point at or before it)."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(1, 40))
        low = np.sort(rng.integers(0, 4, n))[::-1].astype(float)
        high = low + rng.integers(0, 2, n)
        if n > 2:
            low[rng.integers(0, n)] = np.nan
        x = np.cumsum(rng.integers(1, 5, n)).astype(float)
        at = _steps(low, high)
        assert at[0] == 0 and at[-1] == n - 1
        for values in (low, high):
            redrawn = values[at][np.searchsorted(x[at], x, side="right") - 1]
            np.testing.assert_array_equal(redrawn, values)
    assert list(_steps(np.array([5.0, 5, 5, 4, 4, 1, 1, 1]))) == [0, 3, 5, 7]


def test_tied_smallest_medians_are_a_shared_first_place() -> None:
    """A and B with the same runs: both have the smallest median at every budget. The finding
    said 'A has the smallest median value on 1 of 1 problems (next: B, 1)'."""
    records = {(a, r): [(1, 9.0 + r), (100, 1.0 + r)] for a in ("A", "B") for r in (1, 2, 3)}
    result = compute(histories(records), options(budgets=[100]))
    (text,) = [f.text for f in findings(result, make_style(["A", "B"]))]
    assert (
        text
        == "After 100 evaluations in 2-D, A and B have the smallest median value on the one problem."
    )
