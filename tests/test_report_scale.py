"""500 algorithms × 3 problems × 3 runs is a supported size for the whole report (issue 13).

Each analysis computes within seconds there (tests/analyses/test_scale.py); this checks the
rest of the pipeline: figures beyond MAX_DRAWN_ALGORITHMS are not drawn (a note names the
tables instead), results.json keeps its O(k²) lists short and says which it cut, and the run
stays within a CPU budget (it took minutes and wrote a 276 MB results.json before).
"""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from reportgen.figures.style import MAX_DRAWN_ALGORITHMS, FigureSpec
from reportgen.present.jsonable import JSON_LIST_LIMIT, CutList, cap_lists, frame_records
from reportgen.render.blocks import FigureBlock, Text, figure_blocks
from tests.conftest import run_cli, write

ALGORITHMS = 500
RESULTS_BOUND = 8_000_000
"""Bytes: results.json of the study below (about 2.5 MB; 276 MB before the lists were cut)."""
CPU_BUDGET = 90.0
"""Seconds of CPU for the whole run (about 17 s), with the executive summary's default 2 000
bootstrap resamples: the two-stage bootstrap (problems, then each drawn problem's runs) of the
U-score totals costs about 1 s there; the award-point layers of more than
MAX_LAYER_BOOTSTRAP algorithms are not bootstrapped."""


def _legend_entries(svg: Path) -> int:
    """The most texts in one legend of an SVG written by matplotlib (``<g id="legend_1">``)."""
    tree = ET.parse(svg)
    legends = [
        g
        for g in tree.iter("{http://www.w3.org/2000/svg}g")
        if g.get("id", "").startswith("legend")
    ]
    return max(
        (sum(1 for _ in g.iter("{http://www.w3.org/2000/svg}text")) for g in legends), default=0
    )


@pytest.mark.slow
def test_a_report_of_500_algorithms(tmp_path: Path) -> None:
    rng = np.random.default_rng(13)
    rows = ["algorithm,problem,dimension,run,value"]
    rows += [
        f"alg{a:03d},f{p},10,{r},{rng.lognormal(0.0, 2.0)!r}"
        for a in range(ALGORITHMS)
        for p in (1, 2, 3)
        for r in (1, 2, 3)
    ]
    write(tmp_path, "data/t.csv", "\n".join(rows) + "\n")
    spec = write(
        tmp_path,
        "study.yaml",
        """
        study: {title: Five hundred algorithms}
        minimize: true
        data:
          runs: {path: data/t.csv, format: trials}
        analyses:
          - {kind: significance_relation, data: runs}
          - {kind: u_scores, data: runs, target: 1.0e-8}
        report: {formats: [html]}
        """,
    )
    started = time.process_time()
    result = run_cli("run", str(spec), "--quiet")
    assert time.process_time() - started < CPU_BUDGET
    assert result.code == 0, result.err
    out = tmp_path / "out"
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Not drawn: the U-score bars, rank plots and pairwise heat maps." in html
    assert "Not drawn: the relation graphs, the layers over σ and the award points." in html
    assert not (out / "figures" / "u_scores").exists()
    assert not (out / "figures" / "significance_relation").exists()
    for svg in out.glob("figures/**/*.svg"):
        assert _legend_entries(svg) <= MAX_DRAWN_ALGORITHMS, svg
    assert (out / "results.json").stat().st_size < RESULTS_BOUND
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    truncated = document["truncated"]
    pairs = ALGORITHMS * (ALGORITHMS - 1) // 2
    assert truncated["analyses.u_scores.result.tables.win_tie_loss"] == {
        "kept": JSON_LIST_LIMIT,
        "total": pairs,
    }
    assert len(document["analyses"]["u_scores"]["result"]["tables"]["win_tie_loss"]) == (
        JSON_LIST_LIMIT
    )
    # The CSV tables keep every row.
    with (out / "tables" / "u_scores" / "win_tie_loss.csv").open() as table:
        assert sum(1 for _ in table) == pairs + 1
    assert len(document["algorithms"]) == ALGORITHMS  # per-algorithm lists are whole


def test_figures_are_drawn_up_to_the_styles_that_tell_algorithms_apart() -> None:
    drawn: list[int] = []

    def build() -> list[FigureSpec]:
        drawn.append(1)
        return []

    assert figure_blocks(MAX_DRAWN_ALGORITHMS, build, what="x", instead="y") == []
    assert drawn == [1]
    (note,) = figure_blocks(MAX_DRAWN_ALGORITHMS + 1, build, what="the curves", instead="See T.")
    assert drawn == [1]  # not even built: drawing 500 curves takes minutes
    assert isinstance(note, Text) and not isinstance(note, FigureBlock)
    assert note.text == (
        "Not drawn: the curves. With 49 algorithms, more than the 48 the report's colours and "
        "line styles tell apart, a figure would not be readable. See T."
    )


def test_long_lists_are_cut_and_named() -> None:
    import pandas as pd

    cut: dict[str, int] = {}
    frame = pd.DataFrame({"v": range(5), "w": [1.5, float("inf"), None, 2.0, 3.0]})
    records = frame_records(frame, limit=3)
    assert isinstance(records, CutList) and records.total == 5
    assert records == [{"v": 0, "w": 1.5}, {"v": 1, "w": "inf"}, {"v": 2, "w": None}]
    document = {"a": records, "b": [{"c": list(range(4))}, {"c": [1]}], "d": [1, 2]}
    capped = cap_lists(document, "x", cut, limit=3)
    assert capped == {"a": records, "b": [{"c": [0, 1, 2]}, {"c": [1]}], "d": [1, 2]}
    assert cut == {"x.a": 5, "x.b[0].c": 4}


def test_records_are_those_of_the_row_by_row_conversion() -> None:
    # frame_records converts column by column; every cell must be what json_value makes of
    # pandas' own row records (NaN → None, ±∞ → "inf"/"-inf", numpy scalars → Python), with
    # the same types (json.dumps would write 1 and 1.0 differently).
    import pandas as pd

    from reportgen.present.jsonable import json_value

    rng = np.random.default_rng(7)
    n = 40
    floats = rng.normal(size=n)
    floats[rng.random(n) < 0.2] = np.nan
    floats[rng.random(n) < 0.1] = np.inf
    floats[rng.random(n) < 0.1] = -np.inf
    frame = pd.DataFrame(
        {
            "f": floats,
            "f32": floats.astype(np.float32),
            "i": rng.integers(-5, 5, n),
            "u": rng.integers(0, 5, n).astype(np.uint8),
            "b": rng.random(n) < 0.5,
            "s": pd.array([None if k % 7 == 0 else f"p{k}" for k in range(n)], dtype="string"),
            "o": [np.float64("nan") if k % 5 == 0 else (k if k % 2 else f"x{k}") for k in range(n)],
            "nullable": pd.array([None if k % 3 == 0 else k for k in range(n)], dtype="Int64"),
            "cat": pd.Categorical([f"c{k % 3}" for k in range(n)]),
            7: rng.normal(size=n),
        }
    )
    for limit in (n, 10):
        expected = [
            {str(k): json_value(v) for k, v in row.items()}
            for row in frame.iloc[:limit].to_dict(orient="records")
        ]
        records = frame_records(frame, limit=limit)
        assert json.dumps(records) == json.dumps(expected)
        assert [[type(v) for v in r.values()] for r in records] == [
            [type(v) for v in r.values()] for r in expected
        ]
    assert frame_records(pd.DataFrame(index=range(2))) == [{}, {}]
