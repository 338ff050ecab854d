"""The runtime-ECDF figure's crosses (median evaluations used / D): one drawn over another is
named in the caption, as identical profile curves are."""

from __future__ import annotations

import pandas as pd

from reportgen.analyses.runtime_ecdf import compute
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.figures.runtime_ecdf import figures
from reportgen.figures.style import make_style
from reportgen.spec.analyses.runtime_ecdf import RuntimeEcdfOptions


def _runs(algorithm: str, ends: list[int]) -> list[tuple[str, str, int, int, int, float]]:
    """One run per entry of ``ends`` on f1 in 2-D: 10 at the first evaluation, then 0.001 at
    the run's last evaluation."""
    rows = []
    for run, end in enumerate(ends, start=1):
        rows += [(algorithm, "f1", 2, run, 1, 10.0), (algorithm, "f1", 2, run, end, 1e-3)]
    return rows


def test_crosses_drawn_over_each_other_are_named() -> None:
    # A and B: the same runs, so the same ECDF and the same cross (median 40 / 2 = 20);
    # C ends far later (median 4000 / 2 = 2000): its cross stands apart.
    frame = pd.DataFrame(
        _runs("A", [20, 40, 60]) + _runs("B", [20, 40, 60]) + _runs("C", [2000, 4000, 6000]),
        columns=["algorithm", "problem", "dimension", "run", "evaluations", "value"],
    )
    data = AnalysisData(
        "histories",
        frame,
        ("A", "B", "C"),
        sorted_problems(zip(frame["problem"], frame["dimension"], strict=True)),
        ("h",),
    )
    options = RuntimeEcdfOptions.model_validate(
        {"kind": "runtime_ecdf", "data": "h", "targets": [1.0, 1e-2]}
    )
    (spec,) = figures(compute(data, options), make_style(["A", "B", "C"]))
    assert spec.caption.endswith("Crosses drawn over each other: A and B.")
    ax = spec.figure.axes[0]
    crosses = [line for line in ax.lines if line.get_marker() == "x"]
    assert [float(c.get_xdata()[0]) for c in crosses] == [20.0, 20.0, 2000.0]
