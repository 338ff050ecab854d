"""Every figure builder at 13 algorithms (issue 18 acceptance: each curve identifiable, no text
smaller than 7 pt in print, every marker a caption promises visible).

One synthetic study of 13 algorithms on 6 problems in two dimensions (5 runs, records at
1, 10, …, 10⁴ evaluations) runs every analysis that draws a figure; the assertions read the
matplotlib Figure objects the builders return: font sizes times the print scale, the end
labels' texts, where the promised markers and lines lie and what is drawn above them.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Annotation, Text

from reportgen.figures.agreement import agreement_figure, uncertainty_figure
from reportgen.figures.significance_relation import layers_over_sigma_figure
from reportgen.figures.style import PRINT_WIDTH, FigureSpec, contrast_ratio, make_style
from reportgen.pipeline import StudyResults, compute_study, load_study
from reportgen.registry import ANALYSES
from reportgen.render.files import _draw
from reportgen.spec.study import FigureOptions
from tests.conftest import ROOT

ALGORITHMS = [f"Algorithm-{c}" for c in "ABCDEFGHIJKLM"]
SMALLEST_PRINTED_PT = 7.0


def _frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(18)
    records, finals = [], []
    for a, name in enumerate(ALGORITHMS):
        skill = 0.3 + 0.05 * a  # later algorithms improve less per decade
        for p in range(1, 7):
            for d in (2, 5):
                for r in range(1, 6):
                    value = 100.0
                    for evaluations in (1, 10, 100, 1000, 10000):
                        if evaluations > 1:
                            value *= rng.uniform(skill * 0.05, skill)
                        records.append((name, f"f{p}", d, r, evaluations, value))
                    finals.append((name, f"f{p}", d, r, value))
    columns = ["algorithm", "problem", "dimension", "run"]
    return (
        pd.DataFrame(records, columns=[*columns, "evaluations", "value"]),
        pd.DataFrame(finals, columns=[*columns, "value"]),
    )


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> StudyResults:
    """Every analysis that draws a figure, run on the thirteen algorithms."""
    histories, trials = _frames()
    spec = {
        "study": {"title": "Thirteen algorithms"},
        "minimize": True,
        "data": {"curves": {"format": "histories"}, "runs": {"format": "trials"}},
        "analyses": [
            {
                "kind": "performance_profiles",
                "data": "curves",
                "tolerances": [1e-2],
                "lambdas": [2],
            },
            {"kind": "runtime_ecdf", "data": "curves"},
            {"kind": "convergence", "data": "curves", "show_mean": True},
            {"kind": "u_scores", "data": "runs", "target": 1e-8},
            # The rank-over-cut-point plot (its legend printed at 5 pt once).
            {
                "kind": "u_scores",
                "id": "cutpoints",
                "data": "curves",
                "target": 1e-8,
                "budget": 10000,
                "cutpoints": [0.01, 0.1, 1.0],
            },
            {"kind": "perspectives", "data": "runs"},
            {"kind": "significance_relation", "data": "runs"},
            {"kind": "probabilistic_profiles", "data": "runs", "cost": "value"},
        ],
        "report": {"formats": ["html"]},
    }
    folder = tmp_path_factory.mktemp("thirteen")
    return compute_study(
        load_study(spec, base_dir=folder, frames={"curves": histories, "runs": trials})
    )


def _built(results: StudyResults) -> dict[str, list[FigureSpec]]:
    """Every analysis's figures (and the summary's), by kind, as the builders return them."""
    style = make_style(ALGORITHMS)
    out: dict[str, list[FigureSpec]] = {}
    for outcome in results.analyses:
        draw = ANALYSES[outcome.kind].figures
        assert draw is not None
        out.setdefault(outcome.kind, []).extend(draw(outcome.result, style))
    summary = [agreement_figure(results.synthesis), uncertainty_figure(results.synthesis, style)]
    out["summary"] = [f for f in summary if f is not None]
    return out


@pytest.fixture(scope="module")
def figures(results: StudyResults) -> dict[str, list[FigureSpec]]:
    """Every analysis's figures (and the summary's), by kind, drawn once."""
    out = _built(results)
    for specs in out.values():
        for spec_ in specs:
            FigureCanvasAgg(spec_.figure).draw()  # tick labels and layout exist once drawn
    return out


def _texts(fig: Figure) -> list[Text]:
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


def test_every_kind_draws_its_figures(figures: dict[str, list[FigureSpec]]) -> None:
    assert any(spec.name.startswith("cutpoint") for spec in figures["u_scores"])
    assert {k for k, specs in figures.items() if specs} == {
        "performance_profiles",
        "runtime_ecdf",
        "convergence",
        "u_scores",
        "perspectives",
        "significance_relation",
        "probabilistic_profiles",
        "summary",
    }


def test_no_text_smaller_than_7pt_in_print(figures: dict[str, list[FigureSpec]]) -> None:
    """A figure wider than the print width is shrunk to it, and its text with it."""
    small = {}
    for kind, specs in figures.items():
        for spec in specs:
            scale = min(1.0, PRINT_WIDTH / spec.figure.get_figwidth())
            sizes = {t.get_text()[:20]: t.get_fontsize() * scale for t in _texts(spec.figure)}
            below = {text: round(size, 2) for text, size in sizes.items() if size < 7 - 1e-9}
            if below:
                small[f"{kind}/{spec.name}"] = below
    assert not small


def _panels_with_curves(fig: Figure) -> list[Axes]:
    return [ax for ax in fig.axes if sum(len(line.get_xdata()) > 2 for line in ax.lines) >= 2]


def _named(ax: Axes) -> set[str]:
    """The algorithm names of a panel's end labels (a shared label lists several)."""
    names: set[str] = set()
    for text in ax.texts:
        if isinstance(text, Annotation):
            names |= {n for n in re.split(r",\s*|\s*\n\s*", text.get_text()) if n}
    return names


@pytest.mark.parametrize("kind", ["performance_profiles", "probabilistic_profiles", "runtime_ecdf"])
def test_every_curve_named_at_its_end(figures: dict[str, list[FigureSpec]], kind: str) -> None:
    """Colours repeat beyond eight algorithms: each panel names all 13 curves at their ends,
    beside the panel (right of its frame), no label over another."""
    for spec in figures[kind]:
        panels = _panels_with_curves(spec.figure)
        assert panels, spec.name
        for ax in panels:
            assert _named(ax) == set(ALGORITHMS), (spec.name, ax.get_title())
            right = ax.get_window_extent().x1
            for text in ax.texts:
                assert Text.get_window_extent(text).x0 >= right, text.get_text()
            # No label over another (half a pixel for rounding).
            boxes = sorted((Text.get_window_extent(t) for t in ax.texts), key=lambda b: -b.y1)
            for upper, lower in itertools.pairwise(boxes):
                assert upper.y0 >= lower.y1 - 0.5, (spec.name, ax.get_title())


def _inside(ax: Axes, x: float, y: float, margin_pt: float = 1.0) -> bool:
    """(x, y) in data coordinates lies inside the panel, at least ``margin_pt`` from its frame."""
    px, py = ax.transData.transform((x, y))
    box = ax.get_window_extent()
    margin = margin_pt * ax.figure.dpi / 72
    return bool(box.x0 + margin < px < box.x1 - margin and box.y0 + margin < py < box.y1 - margin)


def test_ecdf_crosses_inside_and_above_every_curve(figures: dict[str, list[FigureSpec]]) -> None:
    """ "Crosses: median evaluations used / D": one per algorithm and panel, inside the panel,
    drawn above every curve, 8 pt wide."""
    (spec,) = figures["runtime_ecdf"]
    for ax in _panels_with_curves(spec.figure):
        crosses = [ln for ln in ax.lines if ln.get_marker() == "x"]
        curves = [ln for ln in ax.lines if ln.get_marker() != "x"]
        assert len(crosses) == len(ALGORITHMS)
        top = max(ln.get_zorder() for ln in curves)
        for cross in crosses:
            (x,), (y,) = cross.get_xdata(), cross.get_ydata()
            assert _inside(ax, x, y), (x, y)
            assert cross.get_zorder() > top and cross.get_markersize() >= 6


def test_probabilistic_standard_profiles_drawn_above_the_probabilistic_ones(
    figures: dict[str, list[FigureSpec]],
) -> None:
    """ "ρ(x) (dashed)": the dashed steps are drawn over the solid curves they follow closely."""
    overlay = figures["probabilistic_profiles"][0]
    (ax,) = [a for a in overlay.figure.axes if a.lines]
    dashed = [ln for ln in ax.lines if ln.get_linestyle() == "--"]
    solid = [ln for ln in ax.lines if ln.get_linestyle() == "-"]
    assert len(dashed) == len(solid) == len(ALGORITHMS)
    assert min(ln.get_zorder() for ln in dashed) > max(ln.get_zorder() for ln in solid)


def test_probabilistic_overlay_curves_all_look_different(
    figures: dict[str, list[FigureSpec]],
) -> None:
    """Colours repeat beyond 12 algorithms and line style encodes the profile (ρ dashed, ρ̄
    solid): no two of the overlay's 26 curves share colour, line style and marker, and every
    curve shows its marker (the caption promises "open markers" on ρ, "filled" on ρ̄)."""
    overlay = figures["probabilistic_profiles"][0]
    assert "dashed, open markers" in overlay.caption and "solid, filled markers" in overlay.caption
    (ax,) = [a for a in overlay.figure.axes if a.lines]
    looks = [(ln.get_color(), ln.get_linestyle(), ln.get_marker()) for ln in ax.lines]
    assert len(looks) == 2 * len(ALGORITHMS)
    assert len(set(looks)) == len(looks)
    assert all(marker not in (None, "None", "") for _, _, marker in looks)
    dashed = [ln for ln in ax.lines if ln.get_linestyle() == "--"]
    assert {ln.get_markerfacecolor() for ln in dashed} == {"white"}


def test_profile_winner_drawn_above_the_others(figures: dict[str, list[FigureSpec]]) -> None:
    """ "The winner drawn thick with a dark outline", and above every other curve (the
    confirmation panels' 'winner's upper bound' included)."""
    for spec in figures["performance_profiles"]:
        for ax in _panels_with_curves(spec.figure):
            widths = [ln.get_linewidth() for ln in ax.lines]
            winner = ax.lines[widths.index(max(widths))]
            others = [ln for ln in ax.lines if ln is not winner]
            assert winner.get_path_effects() and winner.get_zorder() > max(
                ln.get_zorder() for ln in others
            )


def test_convergence_means_look_unlike_any_median(figures: dict[str, list[FigureSpec]]) -> None:
    """ "Thin, sparsely dotted: mean": beyond eight algorithms some medians are dotted (":"),
    so the means' dash pattern (and width) is none of the medians'."""
    for spec in figures["convergence"]:
        assert "sparsely dotted: mean" in spec.caption
        for ax in _panels_with_curves(spec.figure):
            steps = [ln for ln in ax.lines if ln.get_drawstyle() == "steps-post"]
            means = [ln for ln in steps if ln.get_linewidth() < 1.0]
            medians = [ln for ln in steps if ln.get_linewidth() >= 1.0]
            assert len(means) == len(medians) == len(ALGORITHMS)
            # The pattern as set, before matplotlib scales it with the line width.
            patterns = {str(ln._unscaled_dash_pattern) for ln in medians}
            assert all(str(ln._unscaled_dash_pattern) not in patterns for ln in means)


def _relation_result():
    table = pd.read_csv(ROOT / "example_studies" / "cec2005" / "data" / "table1.csv")
    frame = table.assign(dimension=10, mean=table["value"].astype(float)).drop(columns="value")
    spec = {
        "study": {"title": "CEC'05"},
        "minimize": True,
        "data": {"table": {"format": "summary"}},
        "analyses": [
            {"kind": "significance_relation", "data": "table", "sigmas": ["auto", 10, 60, 100]}
        ],
        "report": {"formats": ["html"]},
    }
    frame = frame.assign(std=0.0, n=25)
    results = compute_study(load_study(spec, base_dir=Path("."), frames={"table": frame}))
    return results.analyses[0].result


def test_relation_sweep_levels_and_cycles_visible() -> None:
    """Köppen & Ohnishi's CEC'05 table (cycles below σ ≈ 2.3, levels auto, 10, 60, 100):
    "Dashed lines: the requested levels" inside the panel, not on its frame, above the layer
    cells; "Hatched: algorithms on a cycle" at least 6 pt wide; the hatch legend off the
    cells."""
    result = _relation_result()
    spec = layers_over_sigma_figure(result, make_style(list(result.order)))
    fig = spec.figure
    FigureCanvasAgg(fig).draw()
    ax = fig.axes[0]
    cells = [c for c in ax.collections if isinstance(c, PatchCollection)]
    dashed = [ln for ln in ax.lines if ln.get_linestyle() == "--"]
    assert sorted(ln.get_xdata()[0] for ln in dashed) == pytest.approx(
        sorted(r.sigma for r in result.relations)
    )
    box = ax.get_window_extent()
    for line in dashed:
        x = ax.transData.transform((line.get_xdata()[0], 0))[0]
        assert box.x0 + 3 < x < box.x1 - 3  # pixels at 100 dpi: off the frame
        assert line.get_zorder() > max(c.get_zorder() for c in cells)
    hatched = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_hatch()]
    assert hatched
    for patch in hatched:
        extent = patch.get_window_extent()
        assert extent.width >= 6 * fig.dpi / 72
    legend = fig.legends[0] if fig.legends else ax.get_legend()
    assert legend is not None and not legend.get_window_extent().overlaps(box)
    assert "Dashed lines: the requested levels" in spec.caption and "Hatched" in spec.caption


def test_the_runs_mark_stays_on_its_rankings_name(figures: dict[str, list[FigureSpec]]) -> None:
    # cec2017: "relation layers σ = 0.5 †" wrapped at 24 characters put the † alone on a
    # line under the name, where it read as a label of its own (or "0.5 †" without its σ).
    (spec,) = [s for s in figures["summary"] if s.name == "ranking_uncertainty"]
    names = [t.get_text() for t in spec.figure.axes[0].get_xticklabels()]
    layers = next(n for n in names if n.startswith("relation layers"))
    assert re.fullmatch(r"relation layers\sσ\s=\s[\d.]+\s†", layers.replace("\n", " "))
    assert "σ\u00a0=\u00a0" in layers  # "σ =" and its value on one line
    assert all(line.strip() != "†" for n in names for line in n.splitlines())


def test_heat_map_numbers_leave_the_layout_as_it_was(results: StudyResults, tmp_path: Path) -> None:
    """The numbers in a heat map's cells are not measured by constrained layout (both passes
    measured each of them: a third of laying out a 13-algorithm map). Centred in their cells,
    they never decided it: every map is drawn byte for byte as with them measured."""
    built, measured = _built(results), _built(results)
    checked = 0
    for kind, specs in built.items():
        for spec, twin in zip(specs, measured[kind], strict=True):
            numbers = [t for ax in twin.figure.axes if ax.get_images() for t in ax.texts]
            if not numbers:
                continue
            assert not any(t.get_in_layout() for t in numbers), spec.name
            for number in numbers:
                number.set_in_layout(True)
            svg, _ = _draw((spec.figure, tmp_path / "as_built"), FigureOptions(), False)
            svg_measured, _ = _draw((twin.figure, tmp_path / "measured"), FigureOptions(), False)
            assert svg == svg_measured, spec.name
            checked += 1
    assert checked >= 6  # three U-score maps, the award points, τ and the ranking's odds


def test_every_number_in_a_heat_map_cell_has_aa_contrast_on_it(
    figures: dict[str, list[FigureSpec]],
) -> None:
    """A cell's number (7-8 pt) needs 4.5:1 against the cell's colour (WCAG 1.4.3). White on
    a value just past a fixed threshold (0.6 of the range) had 3.2-3.7:1 in RdBu and Blues."""
    checked = 0
    for spec in itertools.chain.from_iterable(figures.values()):
        for ax in spec.figure.axes:
            if not ax.get_images():
                continue
            image = ax.get_images()[0]
            values = image.get_array()
            for text in ax.texts:
                column, row = (round(v) for v in text.get_position())
                value = values[row, column]
                if np.ma.is_masked(value):
                    continue
                cell = image.to_rgba(value)
                assert contrast_ratio(cell, text.get_color()) >= 4.5, (spec.name, text.get_text())
                checked += 1
    assert checked > 300  # the award points, the U-score shares, τ and the ranking's odds


def test_every_bar_and_curve_has_3_to_1_contrast_on_white(
    figures: dict[str, list[FigureSpec]],
) -> None:
    """WCAG 1.4.11: the bars of the U-score totals (one shade per group) and every curve of a
    profile have 3:1 against the white background; the first group's bars had 1.7:1."""
    bars = [
        patch
        for spec in figures["u_scores"]
        if spec.name == "u_scores_bars"
        for ax in spec.figure.axes
        for patch in ax.patches
        if isinstance(patch, Rectangle)
    ]
    lines = [
        line
        for spec in figures["performance_profiles"]
        for ax in spec.figure.axes
        for line in ax.get_lines()
    ]
    assert bars and lines
    for colour in [b.get_facecolor() for b in bars] + [line.get_color() for line in lines]:
        assert contrast_ratio(colour, "white") >= 3.0, colour
