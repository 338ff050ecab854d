"""Figures of the significance-relation analysis (Köppen & Ohnishi §III, Figs 1–2).

- ``relation_sigma_<σ>``: the graph of ``R_σ`` at each requested σ, once for requested levels
  that give the same relation (the same related pairs, compared on the result, not on the
  drawing: no value of D lies between them), named ``relation_sigma_<σ1>_<σ2>`` with a caption
  naming every such σ — two identical drawings on two pages said nothing the one does not.
  A layered (Sugiyama-style)
  drawing with networkx's results and matplotlib only, no Graphviz: the layers are the result's
  rank layers, top (best) to bottom; a Hasse edge that skips layers gets a dummy point on each
  layer it crosses; the order within each layer reduces crossings by the barycentre heuristic
  (members of a cycle kept together; the ordering with the fewest crossings is kept); x
  positions are pulled towards the neighbours' mean. Hasse edges (those in the result's
  transitive reduction) are dark arrows, smooth curves through their dummy points; the other
  edges, implied by a path, are light lines without arrowheads (every edge between layers
  points down), bowed out sideways the more layers they skip, or left out with
  ``transitive_reduction``. Cycles: the algorithms and the edges on them in vermillion (a
  cycle's members share a layer; its edges are arcs within the layer). Geometry is in inches:
  the figure's size follows the drawing, so the boxes fit their labels at any size.
- ``layers_over_sigma``: each algorithm's rank layer (colour) over the exact σ sweep; the
  requested levels dashed; algorithms on cycles hatched.
- ``award_points``: the matrix ``D(x, y)`` as a heat map, rows and columns in rank order at
  ``auto``, values printed up to 14 algorithms.

Everything drawn comes from the result; the figures compute no statistic (only the layout).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib import colormaps
from matplotlib.cm import ScalarMappable
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.colors import BoundaryNorm, ListedColormap, TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch, Rectangle
from matplotlib.path import Path
from matplotlib.ticker import FuncFormatter, NullFormatter

from reportgen.analyses.significance_relation import RelationAtSigma, SignificanceRelationResult
from reportgen.figures.style import (
    CELL_NUMBER,
    PRINT_WIDTH,
    FigureSpec,
    FigureStyle,
    text_colour_on,
    text_width,
)
from reportgen.present.format import file_token, points_text

CYCLE_COLOR = "#D55E00"  # Okabe–Ito vermillion
EDGE_COLOR = "#333333"
LONG_EDGE_COLOR = "#B4B4B4"
FONT_SIZE = 8.0
MAX_WIDTH = 10.0  # inches; wider layers are staggered onto two rows


def figures(result: SignificanceRelationResult, style: FigureStyle) -> list[FigureSpec]:
    """The relation graph at every distinct requested relation, the layers over σ and the D
    heat map."""
    specs = [
        relation_figure(result, same, style, after_another=k > 0)
        for k, same in enumerate(result.same_relations())
    ]
    specs.append(layers_over_sigma_figure(result, style))
    specs.append(award_points_figure(result, style))
    return specs


# ---------------------------------------------------------------------------------------------
# Relation graph: a layered (Sugiyama-style) drawing, in inches
# ---------------------------------------------------------------------------------------------


Item = Hashable
"""A node of the drawing: an algorithm name, or a dummy point ``("~", winner, loser, layer)``
where a Hasse edge crosses an intermediate layer."""

BOX_HALF_HEIGHT = 0.11  # inches
DUMMY_GAP = 0.07  # between a dummy point and its neighbours
GAP = 0.22  # between boxes of one layer
STAGGER = 0.15  # vertical offset of every other box when a layer is too wide


@dataclass
class _Layout:
    order: list[list[Item]]
    x: dict[Item, float]
    y: dict[Item, float]
    half_width: dict[Item, float]
    routes: dict[tuple[str, str], list[Item]]
    layer_y: list[float]
    row: float


def _crossings(order: list[list[Item]], down: dict[Item, list[Item]]) -> int:
    """Edge crossings between consecutive layers of the drawing."""
    total = 0
    for upper, lower in itertools.pairwise(order):
        below = {item: i for i, item in enumerate(lower)}
        segments = [(i, below[b]) for i, a in enumerate(upper) for b in down[a] if b in below]
        total += sum(
            1
            for (a1, b1), (a2, b2) in itertools.combinations(segments, 2)
            if (a1 - a2) * (b1 - b2) < 0
        )
    return total


def _order_layers(
    order: list[list[Item]],
    down: dict[Item, list[Item]],
    up: dict[Item, list[Item]],
    group: dict[Item, Item],
) -> list[list[Item]]:
    """Barycentre crossing reduction; members of one cycle (same ``group``) stay together.

    Alternating downward and upward sweeps; the ordering with the fewest crossings is kept.
    Sorting is stable, so the result is deterministic.
    """
    best = [list(layer) for layer in order]
    best_crossings = _crossings(best, down)
    current = [list(layer) for layer in order]
    for sweep in range(2 * len(order) + 4):
        downward = sweep % 2 == 0
        indices = range(1, len(current)) if downward else range(len(current) - 2, -1, -1)
        for k in indices:
            ref = current[k - 1] if downward else current[k + 1]
            links = up if downward else down
            pos = {a: i / max(len(ref) - 1, 1) for i, a in enumerate(ref)}
            own = {a: i / max(len(current[k]) - 1, 1) for i, a in enumerate(current[k])}
            centre = {}
            for item in current[k]:
                near = [pos[b] for b in links[item] if b in pos]
                centre[item] = float(np.mean(near)) if near else own[item]
            members: dict[Item, list[float]] = {}
            for item in current[k]:
                members.setdefault(group[item], []).append(centre[item])
            current[k].sort(key=lambda a: (float(np.mean(members[group[a]])), centre[a]))
        crossings = _crossings(current, down)
        if crossings < best_crossings:
            best, best_crossings = [list(layer) for layer in current], crossings
    return best


def _place(
    order: list[list[Item]],
    half_width: dict[Item, float],
    down: dict[Item, list[Item]],
    up: dict[Item, list[Item]],
    stagger: bool,
) -> dict[Item, float]:
    """x coordinates: each layer packed in its order, pulled towards its neighbours' mean."""
    real = {item: isinstance(item, str) for layer in order for item in layer}

    def pack(layer: list[Item], desired: dict[Item, float]) -> dict[Item, float]:
        x: dict[Item, float] = {}
        previous_real: list[Item] = []
        for i, item in enumerate(layer):
            lowest = desired[item]
            if i:
                prev = layer[i - 1]
                tight = stagger and real[item] and real[prev]
                share = 0.5 if tight else 1.0
                gap = GAP if real[item] and real[prev] else DUMMY_GAP
                lowest = max(lowest, x[prev] + share * (half_width[prev] + half_width[item]) + gap)
            if stagger and real[item] and len(previous_real) >= 2:
                two_back = previous_real[-2]
                lowest = max(lowest, x[two_back] + half_width[two_back] + half_width[item] + GAP)
            x[item] = lowest
            if real[item]:
                previous_real.append(item)
        shift = float(np.mean([desired[a] - x[a] for a in layer]))
        return {a: v + shift for a, v in x.items()}

    x: dict[Item, float] = {}
    for layer in order:
        x.update(pack(layer, dict.fromkeys(layer, 0.0)))
    for sweep in range(10):
        layers = order[1:] if sweep % 2 == 0 else order[-2::-1]
        for layer in layers:
            desired = {}
            for a in layer:
                near = up[a] + down[a]
                desired[a] = float(np.mean([x[b] for b in near])) if near else x[a]
            x.update(pack(layer, desired))
    return x


def _layered_layout(
    layers: Sequence[Sequence[str]],
    hasse: Sequence[tuple[str, str]],
    groups: Sequence[Sequence[str]],
    labels: dict[str, str],
) -> _Layout:
    """Layers top to bottom, dummy points where Hasse edges skip layers, crossing reduction
    and x placement (all distances in inches)."""
    layer_of = {a: k for k, layer in enumerate(layers) for a in layer}
    order: list[list[Item]] = [list(layer) for layer in layers]
    half_width: dict[Item, float] = {
        a: text_width(labels[a], FONT_SIZE) / 2 + 0.07 for a in layer_of
    }
    down: dict[Item, list[Item]] = {a: [] for a in layer_of}
    up: dict[Item, list[Item]] = {a: [] for a in layer_of}
    routes: dict[tuple[str, str], list[Item]] = {}
    for u, v in hasse:
        if layer_of[v] <= layer_of[u]:
            continue  # an edge inside a cycle's layer: drawn as an arc, not routed
        chain: list[Item] = [u]
        for k in range(layer_of[u] + 1, layer_of[v]):
            dummy = ("~", u, v, k)
            order[k].append(dummy)
            half_width[dummy] = 0.0
            down[dummy], up[dummy] = [], []
            chain.append(dummy)
        chain.append(v)
        routes[(u, v)] = chain
        for a, b in itertools.pairwise(chain):
            down[a].append(b)
            up[b].append(a)
    group: dict[Item, Item] = {item: item for layer in order for item in layer}
    for members in groups:
        for a in members:
            group[a] = members[0]
    order = _order_layers(order, down, up, group)
    widest = max(
        sum(2 * half_width[a] + (GAP if isinstance(a, str) else DUMMY_GAP) for a in layer)
        for layer in order
    )
    stagger = widest > MAX_WIDTH
    x = _place(order, half_width, down, up, stagger)
    n_layers = len(order)
    # 0.5 in a layer (boxes 0.22 in tall): twelve layers fit beside text on a printed page.
    row = (0.95 if stagger else 0.5) if n_layers <= 12 else max(0.40, 6.0 / n_layers)
    if stagger:
        row = max(row, 2 * STAGGER + 2 * BOX_HALF_HEIGHT + 0.3)
    layer_y = [-k * row for k in range(n_layers)]
    y: dict[Item, float] = {}
    for k, layer in enumerate(order):
        reals = [a for a in layer if isinstance(a, str)]
        for item in layer:
            offset = 0.0
            if stagger and isinstance(item, str) and len(reals) > 1:
                offset = STAGGER if reals.index(item) % 2 == 0 else -STAGGER
            y[item] = layer_y[k] + offset
    return _Layout(order, x, y, half_width, routes, layer_y, row)


def _s_curve(points: Sequence[tuple[float, float]]) -> Path:
    """A smooth path through points ordered top to bottom (Catmull–Rom), vertical at its ends."""
    p = np.asarray(points, dtype=float)
    tangents = np.empty_like(p)
    tangents[0] = (0.0, p[1, 1] - p[0, 1])
    tangents[-1] = (0.0, p[-1, 1] - p[-2, 1])
    tangents[1:-1] = (p[2:] - p[:-2]) / 2
    vertices = [tuple(p[0])]
    codes = [Path.MOVETO]
    for i in range(len(p) - 1):
        vertices += [
            tuple(p[i] + tangents[i] / 3),
            tuple(p[i + 1] - tangents[i + 1] / 3),
            tuple(p[i + 1]),
        ]
        codes += [Path.CURVE4] * 3
    return Path(vertices, codes)


def _port(layout: _Layout, item: Item, toward: Item) -> float:
    """Where an edge leaves or enters a box: spread along its side, towards the other end."""
    spread = 0.6 * layout.half_width[item]
    return layout.x[item] + float(
        np.clip(0.15 * (layout.x[toward] - layout.x[item]), -spread, spread)
    )


def _bezier_points(path: Path, samples: int = 24) -> np.ndarray:
    """Points along a path of cubic Bézier segments (for a LineCollection and for extents)."""
    t = np.linspace(0.0, 1.0, samples)[:, None]
    v = np.asarray(path.vertices, dtype=float)
    pieces = [
        (1 - t) ** 3 * v[i]
        + 3 * (1 - t) ** 2 * t * v[i + 1]
        + 3 * (1 - t) * t**2 * v[i + 2]
        + t**3 * v[i + 3]
        for i in range(0, len(v) - 1, 3)
    ]
    return np.concatenate(pieces)


def relation_figure(
    result: SignificanceRelationResult,
    same: Sequence[RelationAtSigma],
    style: FigureStyle,
    after_another: bool = False,
) -> FigureSpec:
    """The graph of ``R_σ`` in rank layers (Köppen & Ohnishi Figs 1–2), for one or more levels
    σ (by increasing σ) that give the same relation (see :meth:`SignificanceRelationResult.same_relations`).

    ``after_another``: the figure stands right under another relation figure (the report shows
    them one after another), whose caption says how layers, arrows and lines are drawn; its own
    caption refers to it instead of saying so again (the CEC 2005 example's three relation
    figures repeated the same two sentences on two pages).
    """
    relation = same[0]
    labels = {a: style.label(a) for a in result.algorithms}
    hasse = [(e.winner, e.loser) for e in relation.edges if e.in_reduction]
    implied = (
        []
        if result.transitive_reduction
        else [(e.winner, e.loser) for e in relation.edges if not e.in_reduction]
    )
    on_cycle = {a for c in relation.interval.cyclic_components for a in c}
    layout = _layered_layout(relation.layers, hasse, relation.interval.cyclic_components, labels)
    layer_of = {a: k for k, layer in enumerate(relation.layers) for a in layer}
    hh = BOX_HALF_HEIGHT

    def bottom_of(a: Item, toward: Item) -> tuple[float, float]:
        return (_port(layout, a, toward), layout.y[a] - (hh if isinstance(a, str) else 0.0))

    def top_of(a: Item, toward: Item) -> tuple[float, float]:
        return (_port(layout, a, toward), layout.y[a] + (hh if isinstance(a, str) else 0.0))

    # Hasse edges: routed through their dummy points
    routed = []
    for (u, v), chain in layout.routes.items():
        points = [bottom_of(u, chain[1])]
        points += [(layout.x[d], layout.y[d]) for d in chain[1:-1]]
        points.append(top_of(v, chain[-2]))
        routed.append(_s_curve(points))
    # implied edges: direct; the more layers they skip, the more they bow out sideways, so that
    # edges along a column of boxes do not hide behind them (an arc diagram for a chain)
    implied_curves = []
    for u, v in implied:
        p0, p3 = np.array(bottom_of(u, v)), np.array(top_of(v, u))
        drop = (p0[1] - p3[1]) / 3
        side = 1.0 if p3[0] - p0[0] > -1e-9 else -1.0
        bow = side * 0.3 * layout.row * (layer_of[v] - layer_of[u] - 1)
        path = Path(
            [p0, p0 + np.array([bow, -drop]), p3 + np.array([bow, drop]), p3],
            [Path.MOVETO] + [Path.CURVE4] * 3,
        )
        implied_curves.append(_bezier_points(path))
    # edges inside a cycle's layer: arcs above (left to right) or below (right to left)
    arcs = []
    for e in relation.edges:
        if not e.on_cycle:
            continue
        (xu, yu), (xv, yv) = (
            (layout.x[e.winner], layout.y[e.winner]),
            (layout.x[e.loser], layout.y[e.loser]),
        )
        side = 1.0 if xu < xv else -1.0
        start = (xu + side * 0.5 * layout.half_width[e.winner], yu + side * hh)
        end = (xv - side * 0.5 * layout.half_width[e.loser], yv + side * hh)
        lift = side * (0.12 + 0.12 * abs(xv - xu))
        control = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2 + lift)
        arcs.append(Path([start, control, end], [Path.MOVETO, Path.CURVE3, Path.CURVE3]))

    # the canvas is measured in inches: figure size = drawing extent, one axes filling it
    reals = list(result.algorithms)
    xs = [layout.x[a] + sign * layout.half_width[a] for a in reals for sign in (-1, 1)]
    arc_points = [np.asarray(p.vertices, dtype=float) for p in arcs]
    for curve in [*implied_curves, *(np.asarray(p.vertices) for p in routed), *arc_points]:
        xs += [float(np.min(curve[:, 0])), float(np.max(curve[:, 0]))]
    left, right = min(xs) - 0.5, max(xs) + 0.15
    if right - left < 4.0:
        pad = (4.0 - (right - left)) / 2
        left, right = left - pad, right + pad
    handles = [Line2D([], [], color=EDGE_COLOR, lw=0.8, label="x → y: D(x, y) ≥ σ")]
    if implied:
        handles.append(
            Line2D([], [], color=LONG_EDGE_COLOR, lw=0.6, label="also implied by a path")
        )
    if not relation.cycle_free:
        handles.append(Line2D([], [], color=CYCLE_COLOR, lw=1.3, label="on a cycle"))
    one_row = right - left >= 1.9 * len(handles) + 0.6
    legend_height = 0.25 if one_row else 0.18 * len(handles) + 0.08
    arc_top = max([float(np.max(p[:, 1])) for p in arc_points], default=-math.inf)
    top = max(max(layout.y[a] for a in reals) + hh, arc_top) + 0.25 + legend_height
    arc_bottom = min([float(np.min(p[:, 1])) for p in arc_points], default=math.inf)
    bottom = min(min(layout.y[a] for a in reals) - hh, arc_bottom) - 0.15
    fig = Figure(figsize=(right - left, top - bottom))
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(left, right)
    ax.set_ylim(bottom, top)
    ax.set_axis_off()

    if implied_curves:  # light, underneath, no arrowheads: every edge between layers points down
        ax.add_collection(
            LineCollection(implied_curves, colors=LONG_EDGE_COLOR, linewidths=0.4, zorder=1)
        )
    for path in routed:
        ax.add_artist(
            FancyArrowPatch(
                path=path,
                arrowstyle="-|>",
                mutation_scale=8,
                color=EDGE_COLOR,
                linewidth=0.8,
                shrinkA=0,
                shrinkB=0,
                zorder=2,
            )
        )
    for path in arcs:
        ax.add_artist(
            FancyArrowPatch(
                path=path,
                arrowstyle="-|>",
                mutation_scale=9,
                color=CYCLE_COLOR,
                linewidth=1.3,
                shrinkA=0,
                shrinkB=0,
                zorder=4,
            )
        )
    for a in reals:
        x, y, w = layout.x[a], layout.y[a], layout.half_width[a]
        ax.add_artist(
            FancyBboxPatch(
                (x - w, y - hh),
                2 * w,
                2 * hh,
                boxstyle="round,pad=0,rounding_size=0.05",
                facecolor="#FBE3D6" if a in on_cycle else "white",
                edgecolor=CYCLE_COLOR if a in on_cycle else style.of(a).color,
                linewidth=1.3 if a in on_cycle else 1.0,
                zorder=3,
            )
        )
        ax.text(x, y, labels[a], ha="center", va="center_baseline", fontsize=FONT_SIZE, zorder=5)
    label_x = left + 0.1
    for k, y in enumerate(layout.layer_y):
        ax.text(
            label_x,
            y,
            f"{k + 1}",
            ha="left",
            va="center",
            fontsize=FONT_SIZE,
            color="#666666",
            fontweight="bold",
        )
    ax.text(
        label_x,
        layout.layer_y[0] + 0.3,
        "layer",
        ha="left",
        va="bottom",
        fontsize=FONT_SIZE - 1,
        color="#666666",
    )
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, 1.0),
        ncol=len(handles) if one_row else 1,
        frameon=False,
        fontsize=FONT_SIZE - 1,
        handlelength=1.8,
        borderaxespad=0.1,
        columnspacing=1.2,
        labelspacing=0.25,
    )

    def level(rel: RelationAtSigma) -> str:
        asked = (
            " (auto: the smallest σ with a cycle-free relation)" if "auto" in rel.requested else ""
        )
        return f"σ = {points_text(rel.sigma)}{asked}"

    sigma = points_text(relation.sigma)
    if len(same) == 1:
        levels = f"at {level(relation)}: x → y means D(x, y) ≥ {sigma} award points"
    else:
        others = [points_text(rel.sigma) for rel in same[1:]]
        levels = (
            f"at {', '.join(level(rel) for rel in same[:-1])} and {level(same[-1])}, the same "
            f"relation (no D lies in {sigma} ≤ D < {others[-1]}): x → y means D(x, y) ≥ {sigma} "
            "award points"
        )
    drawn = (
        " Only the Hasse edges are drawn (transitive reduction): an edge implied by a path is "
        "omitted."
        if result.transitive_reduction
        else " Dark arrows: Hasse edges; light lines: relations also implied by a path through "
        "other algorithms (they all point downwards)."
    )
    cycles = (
        " The relation is cycle-free."
        if relation.cycle_free
        else " Vermillion: algorithms and edges on cycles; the members of a cycle share a layer."
    )
    placed = (
        f"; rank layers 1 (best) to {len(relation.layers)}, drawn as in the figure above."
        if after_another
        else f". Algorithms are placed in rank layers 1 (best) to {len(relation.layers)}, top "
        f"to bottom.{drawn}"
    )
    caption = (
        f"Significance relation {levels} (statistic: {result.statistic}, "
        f"{len(result.problems)} problems){placed}{cycles}"
    )
    name = "_".join(file_token(rel.sigma) for rel in same)
    return FigureSpec(f"relation_sigma_{name}", caption, fig)


# ---------------------------------------------------------------------------------------------
# Layers over σ
# ---------------------------------------------------------------------------------------------


def _layer_colors(n: int) -> ListedColormap:
    """``n`` discrete colours from viridis, dark (layer 1) to light."""
    return ListedColormap(colormaps["viridis"](np.linspace(0.0, 0.95, max(n, 2)))[:n])


def _runs(indices: Sequence[int]) -> list[list[int]]:
    """Split sorted indices into runs of consecutive integers."""
    runs: list[list[int]] = []
    for i in indices:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def layers_over_sigma_figure(result: SignificanceRelationResult, style: FigureStyle) -> FigureSpec:
    """Each algorithm's rank layer over the exact σ sweep."""
    order = list(result.order)
    sweep = result.sweep
    finite = [iv.sigma_to for iv in sweep if math.isfinite(iv.sigma_to)]
    top = max([*finite, *(rel.sigma for rel in result.relations)]) * 1.06
    edges = [0.0] + [min(iv.sigma_to, top) for iv in sweep]
    grid = np.array([[iv.layer_of(a) for iv in sweep] for a in order], dtype=float)
    n_layers = int(grid.max())

    fig = Figure(figsize=(7.0, 1.6 + 0.2 * len(order)), layout="constrained")
    ax = fig.add_subplot()
    cmap = _layer_colors(n_layers)
    norm = BoundaryNorm(np.arange(0.5, n_layers + 1.5), cmap.N)
    # one rectangle per run of equal layers (compact vector output, even for long sweeps)
    cells, colors = [], []
    for row, layers in enumerate(grid):
        for layer, run in itertools.groupby(range(len(sweep)), key=lambda k: layers[k]):
            ks = list(run)
            cells.append(Rectangle((edges[ks[0]], row), edges[ks[-1] + 1] - edges[ks[0]], 1.0))
            colors.append(cmap(norm(layer)))
    ax.add_collection(PatchCollection(cells, facecolors=colors, edgecolors="face", linewidths=0.3))
    ax.set_ylim(len(order), 0)
    ax.set_yticks(np.arange(len(order)) + 0.5, [style.label(a) for a in order])
    ax.tick_params(axis="y", length=0, labelsize=FONT_SIZE)
    ax.tick_params(axis="x", labelsize=FONT_SIZE)
    ax.set_xlim(0, top)
    # Small σ (a requested level such as the auto level 0.5, the few points where cycles
    # break) would sit on the frame of a linear axis up to hundreds of points: a logarithmic
    # axis above the smallest of them (linear below) gives them room.
    positive = [e for e in edges[1:] if e > 0] + [r.sigma for r in result.relations if r.sigma > 0]
    linear_below = None
    if positive and min(positive) / top < 0.03:
        linear_below = 10.0 ** math.floor(math.log10(min(positive)))
        ax.set_xscale("symlog", linthresh=linear_below, linscale=0.4)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: points_text(v)))
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("significance level σ (award points)", fontsize=FONT_SIZE + 1)

    # cells of algorithms on a cycle (they share a layer with the rest of their cycle)
    cyclic = False
    for row, name in enumerate(order):
        runs = [k for k, iv in enumerate(sweep) if any(name in c for c in iv.cyclic_components)]
        for span in _runs(runs):
            first, last = span[0], span[-1]
            cyclic = True
            ax.add_patch(
                Rectangle(
                    (edges[first], row),
                    edges[last + 1] - edges[first],
                    1.0,
                    facecolor="none",
                    edgecolor=CYCLE_COLOR,
                    hatch="////",
                    linewidth=0,
                )
            )
    # the requested levels; labels that would collide go on a second (third…) line
    rows: list[float] = []
    for rel in sorted(result.relations, key=lambda r: r.sigma):
        ax.axvline(rel.sigma, color="white", lw=2.2)
        ax.axvline(rel.sigma, color="black", lw=0.9, ls="--")
        where = ax.transAxes.inverted().transform(ax.transData.transform((rel.sigma, 0)))[0]
        line = next((i for i, end in enumerate(rows) if where - end > 0.06), len(rows))
        rows[line : line + 1] = [where]
        name = "auto" if "auto" in rel.requested else points_text(rel.sigma)
        ax.annotate(
            name,
            (rel.sigma, 0),
            xytext=(0, 2 + 9 * line),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=FONT_SIZE - 1,
            annotation_clip=False,
        )
    ticks = range(1, n_layers + 1, max(1, math.ceil(n_layers / 12)))
    bar = fig.colorbar(
        ScalarMappable(norm=norm, cmap=cmap), ax=ax, ticks=list(ticks), pad=0.01, fraction=0.04
    )
    bar.set_label("rank layer (1 = best)", fontsize=FONT_SIZE)
    bar.ax.tick_params(labelsize=FONT_SIZE - 1)
    bar.ax.invert_yaxis()
    if cyclic:
        # Below the panel, not on it: inside it covered the cells of the last rows at large σ.
        fig.legend(
            handles=[Patch(facecolor="none", edgecolor=CYCLE_COLOR, hatch="////", label="cycles")],
            loc="outside lower right",
            fontsize=FONT_SIZE - 1,
            frameon=False,
        )

    caption = (
        "Rank layer of each algorithm over the significance level σ (exact sweep: the relation "
        "changes only at the distinct values of D). Dashed lines: the requested levels. "
        + (
            f"σ on a logarithmic axis above {points_text(linear_below)} (linear below), so that "
            "small levels do not vanish at the left edge. "
            if linear_below is not None
            else ""
        )
        + (
            f"Hatched: algorithms on a cycle (the relation has cycles for σ ≤ "
            f"{points_text(result.auto.sigma_from)}); they share a layer with their cycle. "
            if cyclic
            else ""
        )
        + f"The last interval, σ > {points_text(max(finite)) if finite else '0'}, is the empty "
        "relation (every algorithm in layer 1). An algorithm reaches layer 1 where σ exceeds the "
        "largest margin by which another beats it: late (at large σ) for weak algorithms, so "
        "layer 1 there is no first place."
    )
    return FigureSpec("layers_over_sigma", caption, fig)


# ---------------------------------------------------------------------------------------------
# D matrix
# ---------------------------------------------------------------------------------------------


def award_points_figure(result: SignificanceRelationResult, style: FigureStyle) -> FigureSpec:
    """Heat map of ``D(x, y)`` (rows x, columns y) in rank order."""
    order = list(result.order)
    index = [result.algorithms.index(a) for a in order]
    matrix = result.award_points[np.ix_(index, index)].astype(float)
    np.fill_diagonal(matrix, np.nan)
    n = len(order)
    bound = max(float(np.nanmax(np.abs(matrix))), 0.5) if n > 1 else 1.0
    # At most the print width with the colour bar, so that no text shrinks below 7 pt in print.
    # Sized to its cells (0.36 in: a number like "−262" at 7 pt) and labels: a map of four
    # algorithms need not take half a page.
    # Labels longer than about 14 characters need room of their own (0.065 in a character).
    longest = max((len(style.label(a)) for a in order), default=0)
    side = min(max(2.4, 0.36 * n + 1.2 + max(0.0, 0.065 * longest - 0.9)), PRINT_WIDTH - 0.9)
    fig = Figure(figsize=(side + 0.9, side), layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(
        np.ma.masked_invalid(matrix),
        cmap="RdBu",
        norm=TwoSlopeNorm(vcenter=0.0, vmin=-bound, vmax=bound),
        aspect="equal",
    )
    ax.set_facecolor("#DDDDDD")
    labels = [style.label(a) for a in order]
    size = FONT_SIZE if n <= 20 else FONT_SIZE - 1
    ax.set_xticks(range(n), labels, rotation=60, ha="right", rotation_mode="anchor", fontsize=size)
    ax.set_yticks(range(n), labels, fontsize=size)
    if n <= 14:
        for i in range(n):
            for j in range(n):
                if i != j:
                    value = matrix[i, j]
                    ax.text(
                        j,
                        i,
                        points_text(value),
                        fontsize=FONT_SIZE - 1,
                        color=text_colour_on(image.to_rgba(value)),
                        **CELL_NUMBER,
                    )
    bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.02)
    # Short: the caption says what D is, and a long label outgrew a small map (clipped).
    bar.set_label("D(row, column)", fontsize=FONT_SIZE)
    bar.ax.tick_params(labelsize=FONT_SIZE - 1)
    caption = (
        f"Award points D(x, y) of the row algorithm x over the column algorithm y "
        f"(statistic: {result.statistic}, {len(result.problems)} problems; "
        f"|D| ≤ {points_text(len(result.problems) * (len(result.problems) + 1) / 2)}). Blue: "
        "x better. D is antisymmetric; algorithms in rank order at "
        f"σ = {points_text(result.sigma_auto)} (auto)."
    )
    return FigureSpec("award_points", caption, fig)
