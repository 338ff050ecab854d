"""The U-scores figures draw exactly what the result holds (no recomputation)."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from reportgen.analyses.u_scores import UScoresResult, compute
from reportgen.data.frames import AnalysisData
from reportgen.figures.style import make_style, plain_text
from reportgen.figures.u_scores import figures
from reportgen.render.files import _draw
from reportgen.spec.analyses.u_scores import UScoresOptions
from reportgen.spec.study import FigureOptions


def paper_example() -> UScoresResult:
    """Price et al. Fig. 2: trials best to worst p r q q r p q p r q p r (U: P 16, Q 18, R 14)."""
    rows = [
        {
            "algorithm": a.upper(),
            "problem": "f1",
            "dimension": 0,
            "run": i,
            "value": 0.0 if i < 7 else float(i),
            "evaluations_to_target": float(i + 1) if i < 7 else float("inf"),
        }
        for i, a in enumerate("prqqrpqprqpr")
    ]
    data = AnalysisData("trials", pd.DataFrame(rows), ("P", "Q", "R"), (("f1", 0),))
    return compute(data, UScoresOptions(kind="u_scores", data="runs", target=0.0))


def two_dimensions_with_histories() -> UScoresResult:
    rows = []
    for dimension in (10, 20):
        for k, algorithm in enumerate(("A", "B", "C")):
            for run in range(3):
                for evaluations, value in ((1, 10.0 + k), (50 + 10 * k + run, 1.0 + k * run)):
                    rows.append(
                        {
                            "algorithm": algorithm,
                            "problem": "f1",
                            "dimension": dimension,
                            "run": run,
                            "evaluations": float(evaluations),
                            "value": value,
                        }
                    )
    data = AnalysisData("histories", pd.DataFrame(rows), ("A", "B", "C"), (("f1", 10), ("f1", 20)))
    options = UScoresOptions(
        kind="u_scores", data="h", target=1e-8, cutpoints=[0.2, 1.0], budget=100.0
    )
    return compute(data, options)


def test_paper_example_figures() -> None:
    result = paper_example()
    specs = figures(result, make_style(result.algorithms))
    assert [s.name for s in specs] == ["u_scores_bars", "pairwise_all"]
    assert all(isinstance(s.figure, Figure) and s.caption for s in specs)
    bars = specs[0].figure.axes[0]
    # One total bar per algorithm, best first: Q 18, P 16, R 14 (Table 2).
    assert [p.get_height() for p in bars.patches if isinstance(p, Rectangle)] == [18, 16, 14]
    assert [t.get_text() for t in bars.get_xticklabels()] == ["Q", "P", "R"]
    heat = specs[1].figure.axes[0]
    image = heat.get_images()[0].get_array()
    assert image is not None
    # Row Q against column P: 9 of 16 comparisons (Table 3).
    assert image[0, 1] == 9 / 16


def test_groups_cutpoints_and_heat_maps() -> None:
    result = two_dimensions_with_histories()
    specs = {s.name: s for s in figures(result, make_style(result.algorithms))}
    assert list(specs) == [
        "u_scores_bars",
        "cutpoint_ranks",
        "pairwise_D10",
        "pairwise_D20",
        "pairwise_overall",
    ]
    bars = specs["u_scores_bars"].figure.axes[0]
    heights = [p.get_height() for p in bars.patches if isinstance(p, Rectangle)]
    totals = result.totals
    expected = [*totals["D=10"], *totals["D=20"], *totals["total"]]
    assert heights == expected
    ranks = specs["cutpoint_ranks"].figure.axes
    assert [ax.get_title() for ax in ranks] == ["D=10", "D=20", "total"]
    line = ranks[-1].get_lines()[0]
    first = result.totals["algorithm"].iloc[0]
    cut = result.cutpoints
    assert cut is not None
    drawn = cut[cut["algorithm"] == first]["rank"].to_numpy()
    assert np.array_equal(line.get_ydata(), drawn)


def test_names_with_dollar_signs_are_drawn_as_written(tmp_path: Path) -> None:
    """matplotlib read '50% $x$' as mathtext and drew '50% x' with an italic x (the bar
    chart's tick labels, legends): figures are built and drawn as plain text, and matplotlib's
    own setting outside them is left as it was."""
    name = "50% & #1 $x$ ~a^b {c}"
    rows = [
        {"algorithm": a, "problem": "f1", "dimension": 0, "run": r, "value": float(k + r),
         "evaluations_to_target": float("inf")}
        for k, a in enumerate(("A", name)) for r in range(3)
    ]  # fmt: skip
    data = AnalysisData("trials", pd.DataFrame(rows), ("A", name), (("f1", 0),))
    result = compute(data, UScoresOptions(kind="u_scores", data="runs", target=0.0))
    with plain_text():
        spec = figures(result, make_style(("A", name)))[0]
    svg, _ = _draw((spec.figure, tmp_path / "bars"), FigureOptions(), False)
    assert "50% &amp; #1 $x$ ~a^b {c}</text>" in svg  # plain, not mathtext glyph by glyph
    assert matplotlib.rcParams["text.parse_math"]
