"""The figures' print copy (reportgen.render.printsvg): the same picture with less for weasyprint."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
import urllib.parse
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from reportgen.render.files import figure_svg
from reportgen.render.pdf import write_pdf
from reportgen.render.printsvg import _RUN, _apart, _layers, for_weasyprint

_SVG = "http://www.w3.org/2000/svg"
_G = f"{{{_SVG}}}g"


def _figure() -> Figure:
    """Every kind of element matplotlib writes into the report's figures: markers and tick
    marks (uses of paths), a filled band (a use of one path), clipped lines with square and
    butt caps, dashes, text in several sizes, a legend and a colour bar."""
    fig = Figure(figsize=(4, 3), layout="constrained")
    ax, right = fig.subplots(1, 2)
    x = np.arange(1, 40)
    ax.plot(x, np.sqrt(x), marker="o", markevery=5, linestyle="--", label="a")
    ax.plot(x, np.log(x), marker="^", markevery=7, drawstyle="steps-post", label="b")
    ax.fill_between(x, np.log(x) - 0.5, np.log(x) + 0.5, step="post", alpha=0.2)
    ax.plot([0, 50], [3, 3], solid_capstyle="butt", linewidth=3)
    ax.plot(x, x / 8, marker="s", markersize=9, alpha=0.6)  # markers overlapping each other
    ax.set_xlim(5, 30)  # the curves run past the axes: clip paths
    ax.set_yscale("log")
    ax.legend(fontsize=6)
    ax.set_title("Curves", fontsize=9)
    image = right.imshow(np.arange(12.0).reshape(3, 4))
    fig.colorbar(image, ax=right, label="value")
    right.text(1, 1, "5", ha="center", va="center", color="w")
    return fig


def test_print_copy_has_no_uses_styles_or_empty_groups():
    svg = figure_svg(_figure())
    # Another library's prefix for SVG in ElementTree's global map changes nothing here.
    ET.register_namespace("svg", "http://www.w3.org/2000/svg")
    assert "<use" in svg and 'style="' in svg and '<g id="' in svg
    lean = for_weasyprint(svg)
    assert "<use" not in lean
    assert 'style="' not in lean and "<style" not in lean and "<metadata" not in lean
    assert '<g id="' not in lean  # every group that carried nothing but an id is gone
    assert "clip-path" in lean and "<clipPath" in lean  # clip paths stay, with their ids
    assert lean.count("<defs") == 1 and lean.startswith("<svg ")
    # The stroke defaults of matplotlib's "*" rule are on every element instead.
    assert lean.count('stroke-linejoin="round"') >= lean.count("<path")


def test_print_copy_draws_less_where_nothing_changes():
    """Runs of groups that clip to the same path are one group; unrotated text has no turn by
    nothing; tick marks and markers carry their place in their points, not a transform."""
    svg = figure_svg(_figure())
    assert "rotate(-0 " in svg
    lean = ET.fromstring(for_weasyprint(svg))
    assert "rotate(-0 " not in ET.tostring(lean, encoding="unicode")
    for parent in lean.iter():
        for first, second in itertools.pairwise(parent):
            assert not (first.tag == second.tag == _G and first.attrib == second.attrib)
    clipped = [g for g in lean.iter(_G) if "clip-path" in g.attrib]
    assert len(clipped) < svg.count("clip-path=")  # merged, the curves of one axes together
    paths = list(lean.iter(f"{{{_SVG}}}path"))
    assert paths and all("transform" not in p.attrib for p in paths)
    # The circles and the triangles of the two curves with markers: one path each.
    assert sorted(p.get("d", "").count("M") for p in paths)[-2:] == [6, 8]
    assert lean.get("font-size") == "16" and lean.get("stroke-width") == "1"
    assert not any(e.get("font-size", "").endswith("px") for e in lean.iter())


def test_a_translation_moves_the_points_of_a_path():
    rng = np.random.default_rng(7)
    points = rng.uniform(-500, 500, size=(10, 2)).round(6)
    d = "M {} {} L {} {} Q {} {} {} {} C {} {} {} {} {} {} z M {} {} L {} {} L {} {} Z".format(
        *points.ravel()
    )
    svg = (
        f'<svg xmlns="{_SVG}" xmlns:xlink="http://www.w3.org/1999/xlink" width="9" height="9">'
        f'<defs><path id="m" d="{d}"/></defs><use xlink:href="#m" x="3.25" y="-7.5"/>'
        f'<path d="{d}" transform="translate(1 2) translate(0.5 -0.25)"/>'
        '<path d="m 1 2 l 3 4" transform="translate(1 2)"/>'
        '<path d="M 1 2 L 3 4" transform="translate(1 2) scale(2)"/></svg>'
    )
    lean = ET.fromstring(for_weasyprint(svg))
    used, translated, relative, scaled = lean.iter(f"{{{_SVG}}}path")

    def coordinates(path: ET.Element) -> np.ndarray:
        numbers = [float(t) for t in path.get("d", "").split() if t not in "MLQCZz"]
        return np.array(numbers).reshape(-1, 2)

    assert "transform" not in used.attrib and "transform" not in translated.attrib
    commands = [t for t in d.split() if t in "MLQCZz"]
    assert [t for t in used.get("d", "").split() if t in "MLQCZz"] == commands
    np.testing.assert_allclose(coordinates(used), points + np.array([3.25, -7.5]), atol=1e-6)
    np.testing.assert_allclose(coordinates(translated), points + np.array([1.5, 1.75]), atol=1e-6)
    # Relative commands, and a transform that is more than translations, stay as they are.
    assert relative.get("transform") == "translate(1 2)" and relative.get("d") == "m 1 2 l 3 4"
    assert scaled.get("transform") == "translate(1 2) scale(2)"


def _paths(*paths: str, stroke_width: str = "1") -> list[ET.Element]:
    svg = f'<svg xmlns="{_SVG}" width="99" height="99"><g stroke-width="{stroke_width}">'
    svg += "".join(paths) + "</g></svg>"
    return list(ET.fromstring(for_weasyprint(svg)).iter(f"{{{_SVG}}}path"))


def test_paths_alike_and_apart_are_one_path_of_their_subpaths():
    """A curve's markers, each a path of the same attributes, are one path when no two of
    them come within 2 pt of each other (with their strokes' reach): the same pixels."""
    marker = '<path d="M {x} 10 L {x2} 10 L {x} 14 Z" fill="#123456" stroke="#123456"/>'
    apart = [marker.format(x=x, x2=x + 4) for x in (10, 20, 30)]  # 6 pt gaps, 0.5 x 4 reach
    (merged,) = _paths(*apart)
    assert merged.get("d") == "M 10 10 L 14 10 L 10 14 Z M 20 10 L 24 10 L 20 14 Z " + (
        "M 30 10 L 34 10 L 30 14 Z"
    )
    assert merged.get("fill") == "#123456"
    # Within reach of each other (4 pt gaps but strokes 1 pt wide with miters up to 2 pt on
    # either side), of other colours, dashed, or with an id: each path on its own.
    assert len(_paths(*apart, stroke_width="1.5")) == 3
    assert len(_paths(apart[0], apart[1].replace("#123456", "#654321", 1))) == 2
    assert len(_paths(*(p.replace("/>", ' stroke-dasharray="1 1"/>') for p in apart))) == 3
    assert len(_paths(apart[0], apart[1].replace("<path ", '<path id="x" '))) == 2
    # A path that is not only absolute moves, lines, curves and closes is left alone.
    assert len(_paths(apart[0], '<path d="m 40 10 l 4 0" fill="#123456" stroke="#123456"/>')) == 2
    # Rectangles and lines parallel to the axes (bars, spines, square markers) stay apart:
    # poppler snaps a lone one's edges to its pixels, not those of a path of several.
    bars = [
        f'<path d="M {x} 10 L {x + 4} 10 L {x + 4} 40 L {x} 40 z" fill="#123456"/>'
        for x in (10, 20)
    ]
    assert len(_paths(*bars)) == 2
    # Only neighbours: a path between two alike keeps them apart.
    other = '<path d="M 50 50 L 60 60" stroke="#000000"/>'
    assert len(_paths(apart[0], other, apart[1])) == 3


def test_tick_marks_alike_are_a_few_paths_that_paint_each_pixel_in_order():
    """Lines of one segment (tick marks), even parallel to the axes, merge into layers; a
    line has no join, so its reach is half its width. Ticks 2.5 pt apart (0.6 pt wide: 1.9
    pt gaps, within reach) go into the layer after that of the last tick within their reach
    (the third layer for the third tick in a row), the others into the first."""
    tick = '<path d="M {x} 10 L {x} 14" stroke="#000000" stroke-width="0.6"/>'
    ticks = [tick.format(x=x) for x in (10, 12.5, 20, 22.5, 25, 28)]
    first, second, third = _paths(*ticks)
    assert first.get("d") == "M 10 10 L 10 14 M 20 10 L 20 14 M 28 10 L 28 14"
    assert second.get("d") == "M 12.5 10 L 12.5 14 M 22.5 10 L 22.5 14"
    assert third.get("d") == "M 25 10 L 25 14"
    # A line of two segments parallel to the axes (a spine's corner) stays on its own.
    corner = '<path d="M {x} 10 L {x} 14 L {x2} 14" stroke="#000000"/>'
    assert len(_paths(corner.format(x=10, x2=12), corner.format(x=30, x2=32))) == 2


def test_a_long_run_of_paths_alike_is_merged_in_parts():
    """A run of more than _RUN paths alike is merged in parts of _RUN (each part's layers
    drawn before the next part's, so every path still after those before it)."""
    tick = '<path d="M {x} 10 L {x} 14" stroke="#000000" stroke-width="0.6"/>'
    merged = _paths(*(tick.format(x=3 * i) for i in range(2 * _RUN + 1)))
    assert [len(path.get("d", "").split()) // 6 for path in merged] == [_RUN, _RUN, 1]


def test_layers_keep_each_layer_apart_and_close_paths_in_order():
    """On random boxes: the paths of a layer are apart from each other, and of two paths
    that are not, the earlier one is in an earlier layer (painted first, as before)."""
    rng = np.random.default_rng(14)
    for _ in range(50):
        corners = rng.uniform(0, 60, size=(40, 2))
        boxes = [
            (x, y, x + w, y + h)
            for (x, y), (w, h) in zip(corners, rng.uniform(0, 6, (40, 2)), strict=True)
        ]
        run = [(ET.Element(f"{{{_SVG}}}path", d=f"M {i} 0"), box) for i, box in enumerate(boxes)]
        layers = _layers(run)
        layer_of = {
            int(d): n for n, path in enumerate(layers) for d in path.get("d", "").split()[1::3]
        }
        assert sorted(layer_of) == list(range(len(boxes)))
        for i, j in itertools.combinations(range(len(boxes)), 2):
            if layer_of[i] == layer_of[j]:
                assert _apart(boxes[i], boxes[j])
            elif not _apart(boxes[i], boxes[j]):
                assert layer_of[i] < layer_of[j]


def test_a_clipped_group_of_one_path_is_that_path_clipped_itself():
    """A marker alone in its clipped group: the path carries the clip and the group's
    inherited properties (its own win); a path with a transform, clip path or opacity of
    its own, and a group of anything but one path, keep their group."""
    clip = '<clipPath id="c"><rect x="0" y="0" width="50" height="50"/></clipPath>'
    group = '<g clip-path="url(#c)" stroke-linecap="butt" stroke-linejoin="round">{}</g>'
    marker = '<path d="M 10 10 C 11 10 12 11 12 12" fill="#123456" stroke-linejoin="miter"/>'
    svg = f'<svg xmlns="{_SVG}" width="99" height="99"><defs>{clip}</defs>{{}}</svg>'
    root = ET.fromstring(for_weasyprint(svg.format(group.format(marker))))
    assert not list(root.iter(_G))
    (path,) = root.iter(f"{{{_SVG}}}path")
    assert path.get("clip-path") == "url(#c)"
    assert path.get("stroke-linecap") == "butt"
    assert path.get("stroke-linejoin") == "miter"
    for kept in (
        marker.replace("<path ", '<path transform="rotate(30)" '),
        marker.replace("<path ", '<path opacity="0.5" '),
        '<text x="1" y="2">a</text>',
    ):
        root = ET.fromstring(for_weasyprint(svg.format(group.format(kept))))
        assert len(list(root.iter(_G))) == 1


def test_an_svg_with_other_style_rules_is_left_as_it_is():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        "<defs><style>path{fill:red}</style></defs><path d='M 0 0 L 5 5 z'/></svg>"
    )
    assert for_weasyprint(svg) == svg


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_weasyprint_draws_the_print_copy_exactly_as_the_original(tmp_path: Path):
    """Both drawn into a PDF by weasyprint and rendered at 200 dpi: the same pixels."""
    svg = figure_svg(_figure())
    pixels = {}
    for name, text in (("original", svg), ("lean", for_weasyprint(svg))):
        uri = "data:image/svg+xml;charset=utf-8," + urllib.parse.quote(text)
        html = f'<html><body style="margin:0"><img style="width:160mm" src="{uri}"></body></html>'
        write_pdf(html, tmp_path, tmp_path / f"{name}.pdf")
        pdf, page = tmp_path / f"{name}.pdf", tmp_path / name
        subprocess.run(["pdftoppm", "-r", "200", "-gray", "-singlefile", pdf, page], check=True)
        pixels[name] = (tmp_path / f"{name}.pgm").read_bytes()
    assert len(pixels["original"]) > 500_000
    assert pixels["lean"] == pixels["original"]


@pytest.mark.parametrize("anchor", ["left", "center", "right"])
def test_a_text_with_a_combining_mark_is_drawn_as_matplotlib_lays_it_out(anchor: str):
    """published_table's ranking figure printed "probabilistic profile ρ̄" with the bar in a
    dotted circle beside the ρ: weasyprint lays out each character of an SVG text alone, and a
    combining mark alone has no base. Such a text becomes its outline, where matplotlib puts
    the text; other text stays text."""
    fig = Figure(figsize=(3, 1))
    label = fig.text(0.5, 0.4, "profile ρ̄", ha=anchor, fontsize=8)
    fig.text(0.1, 0.8, "plain", fontsize=8)
    svg = for_weasyprint(figure_svg(fig))
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(f"{{{_SVG}}}text")]
    assert texts == ["plain"]
    (outline,) = [p for p in root.iter(f"{{{_SVG}}}path") if p.get("stroke") == "none"]
    numbers = [float(v) for v in re.findall(r"-?[\d.]+", outline.get("d", ""))]
    xs, ys = numbers[0::2], numbers[1::2]
    # The text's box as matplotlib draws it (display units are points at 72 dpi; SVG's y
    # runs downwards from the top). The outline has no side bearings: within 1 pt.
    canvas = FigureCanvasAgg(fig)
    fig.dpi = 72
    box = label.get_window_extent(canvas.get_renderer())
    height = fig.get_figheight() * 72
    assert min(xs) == pytest.approx(box.x0, abs=1.0)
    assert max(xs) == pytest.approx(box.x1, abs=1.0)
    assert max(ys) == pytest.approx(height - box.y0, abs=1.5)  # the ρ's descender
    assert min(ys) >= height - box.y1 - 0.5  # the bar over the ρ, inside the box
