"""Writers of the machine-readable outputs, and the PDF renderer's confinement."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from matplotlib.figure import Figure

from reportgen.render.files import figure_svg, latex_table
from reportgen.render.pdf import _confined_fetcher


def test_latex_table_escapes_and_marks_infinity():
    frame = pd.DataFrame({"algorithm": ["A_1 & co", "50% #2"], "t": [1.5, math.inf]})
    bold = pd.DataFrame({"algorithm": [True, False], "t": [False, False]})
    assert latex_table(frame, bold).splitlines() == [
        "\\begin{tabular}{lr}",
        "\\toprule",
        "algorithm & t \\\\",
        "\\midrule",
        "\\textbf{A\\_1 \\& co} & 1.5 \\\\",
        "50\\% \\#2 & $\\infty$ \\\\",
        "\\bottomrule",
        "\\end{tabular}",
    ]


def test_figure_svg_is_reproducible():
    def draw() -> Figure:
        fig = Figure(figsize=(2, 2))
        fig.add_subplot().plot([1, 2, 3], [3, 1, 2], label="x")
        return fig

    assert figure_svg(draw()) == figure_svg(draw())
    assert "<dc:date>" not in figure_svg(draw())


def test_pdf_renderer_reads_only_inline_data_and_the_output_folder(tmp_path: Path):
    fetcher = _confined_fetcher(tmp_path / "out")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "ok.txt").write_text("fine")
    (tmp_path / "secret.txt").write_text("no")
    assert fetcher.fetch("data:text/plain,hello") is not None
    assert fetcher.fetch((tmp_path / "out" / "ok.txt").as_uri()) is not None
    with pytest.raises(ValueError, match="outside the output folder"):
        fetcher.fetch((tmp_path / "secret.txt").as_uri())
    with pytest.raises(ValueError, match="refusing to fetch"):
        fetcher.fetch("http://example.invalid/tracker.png")
