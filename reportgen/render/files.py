"""Machine-readable outputs: CSV and booktabs LaTeX tables, SVG/PDF figures, results.json.

Every writer is deterministic: the same result gives byte-identical CSV, LaTeX and
``results.json`` (apart from its provenance block) on every run and machine. Floats are written
in Python's shortest round-trip form, ∞ as ``inf``, missing as an empty cell.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import matplotlib
import pandas as pd
from matplotlib.figure import Figure

matplotlib.rcParams["svg.hashsalt"] = "reportgen"  # stable element ids in SVG output
# Text as <text> (not glyph paths): a quarter of the size, selectable, and several times faster
# for weasyprint to draw; DejaVu Sans is matplotlib's default and installed with the report tools.
matplotlib.rcParams["svg.fonttype"] = "none"

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    """A table as CSV (UTF-8, ``\\n`` line ends, full float precision)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, lineterminator="\n", na_rep="")


def latex_escape(text: str) -> str:
    """Escape LaTeX's special characters in plain text."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def _latex_cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if math.isinf(value):
            return r"$\infty$" if value > 0 else r"$-\infty$"
        return f"{value:.6g}"
    if value is None or value is pd.NA:
        return ""
    return latex_escape(str(value))


def latex_table(frame: pd.DataFrame, bold: pd.DataFrame | None = None) -> str:
    """A booktabs ``tabular``: numbers right-aligned, text left-aligned."""
    align = "".join("r" if pd.api.types.is_numeric_dtype(frame[c]) else "l" for c in frame.columns)
    lines = [f"\\begin{{tabular}}{{{align}}}", r"\toprule"]
    lines.append(" & ".join(latex_escape(str(c)) for c in frame.columns) + r" \\")
    lines.append(r"\midrule")
    for i, row in enumerate(frame.itertuples(index=False)):
        cells = [_latex_cell(v) for v in row]
        if bold is not None:
            cells = [
                f"\\textbf{{{c}}}" if bool(bold.iat[i, j]) and c else c for j, c in enumerate(cells)
            ]
        lines.append(" & ".join(cells) + r" \\")
    lines.extend([r"\bottomrule", r"\end{tabular}", ""])
    return "\n".join(lines)


LATEX_MAX_ROWS = 2000
"""Longer tables get no .tex: nobody typesets them, and their CSV is the machine-readable form."""


def write_latex(frame: pd.DataFrame, path: Path, bold: pd.DataFrame | None = None) -> None:
    """Write a booktabs table, unless it has more than :data:`LATEX_MAX_ROWS` rows."""
    if len(frame) > LATEX_MAX_ROWS:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(latex_table(frame, bold), encoding="utf-8")


def figure_svg(figure: Figure) -> str:
    """A figure as SVG text with no date or tool stamp (reproducible bytes)."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    return buffer.getvalue()


def write_figure(figure: Figure, stem: Path) -> str:
    """Write ``stem.svg`` and ``stem.pdf``; return the SVG text for the HTML."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    # Lay the figure out once, then freeze it: both files share one layout pass.
    figure.draw_without_rendering()
    figure.set_layout_engine("none")
    svg = figure_svg(figure)
    # Not Path.with_suffix: a stem such as "tau_0.001" has a dot of its own.
    stem.parent.joinpath(stem.name + ".svg").write_text(svg, encoding="utf-8")
    figure.savefig(
        stem.parent / (stem.name + ".pdf"),
        format="pdf",
        metadata={"CreationDate": None, "Creator": None, "Producer": None},
    )
    return svg


def write_json(data: dict[str, Any], path: Path) -> None:
    """``results.json``: UTF-8, two-space indent, no NaN (a NaN is a bug and raises)."""
    path.write_text(
        json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8"
    )
