"""Report section of the significance-relation analysis (Köppen & Ohnishi).

Order: intro, findings, the rank layers at the requested σ (table; in the HTML only where the
relation graphs, which draw them, are printed) and the condensed sweep (table), then the
relation graph at each requested σ (one graph for levels that give the same relation), the
award points (heat map, and under it as a table too when there are few algorithms) and the
layers over σ (figure): tables before figures where they can, since a table may continue on
the next page and a figure cannot, so that a figure too tall for the rest of a page does not
leave it blank. Cells are formatted here; nothing is recomputed.
"""

from __future__ import annotations

import dataclasses
import itertools

import pandas as pd

from reportgen.analyses.significance_relation import SignificanceRelationResult
from reportgen.figures.significance_relation import figures
from reportgen.figures.style import FigureStyle
from reportgen.narrative.significance_relation import findings
from reportgen.present.format import points_text, power_of_ten
from reportgen.render.blocks import (
    Block,
    FigureBlock,
    Prose,
    Section,
    TableBlock,
    Text,
    figure_blocks,
)
from reportgen.spec.analyses.significance_relation import SignificanceRelationOptions

MAX_MATRIX_TABLE = 12
"""The D matrix is printed as a table up to this many algorithms (always in award_points.csv)."""

STATISTIC_WORDS: dict[str, str] = {
    "mean": "the mean final value",
    "median": "the median final value",
    "accuracy": "the best final value (accuracy)",
    "robustness": "the worst final value (robustness)",
}


def _sigma_label(sigma: float, requested: tuple[str, ...]) -> str:
    return f"σ = {points_text(sigma)}" + (" (auto)" if "auto" in requested else "")


def _layers_table(result: SignificanceRelationResult, style: FigureStyle) -> TableBlock:
    columns = {
        _sigma_label(rel.sigma, rel.requested): {
            a: k for k, layer in enumerate(rel.layers, 1) for a in layer
        }
        for rel in result.relations
    }
    layers = pd.DataFrame(columns, index=list(result.order))
    cells = layers.map(str)
    bold = layers.eq(1)
    cells.insert(0, "Algorithm", [style.label(a) for a in layers.index])
    bold.insert(0, "Algorithm", False)
    cyclic = [points_text(rel.sigma) for rel in result.relations if not rel.cycle_free]
    return TableBlock(
        name="layers",
        caption="Rank layer of each algorithm at the requested award-point levels σ (1 = best; "
        "layer 1, the maximum set, in bold).",
        frame=cells.reset_index(drop=True),
        bold=bold.reset_index(drop=True),
        notes=(
            f"With cycles (σ = {', '.join(cyclic)}), the members of a cycle share a layer."
            if cyclic
            else ""
        ),
    )


def _sweep_table(result: SignificanceRelationResult, style: FigureStyle) -> TableBlock:
    """Consecutive sweep intervals with the same maximum set and cycle-freeness, merged."""
    rows = []
    for (cycle_free, maximum_set), group in itertools.groupby(
        result.sweep, key=lambda iv: (iv.cycle_free, iv.maximum_set)
    ):
        intervals = list(group)
        counts = [len(iv.layers) for iv in intervals]
        rows.append(
            {
                "σ from (exclusive)": points_text(intervals[0].sigma_from),
                "σ to (inclusive)": points_text(intervals[-1].sigma_to),
                "Cycle-free": "yes" if cycle_free else "no",
                "Rank layers": (
                    f"{counts[0]} → {counts[-1]}" if len(set(counts)) > 1 else str(counts[0])
                ),
                "Maximum set": (
                    f"all {len(maximum_set)}"
                    if len(maximum_set) == len(result.algorithms)
                    else ", ".join(style.label(a) for a in maximum_set) or "(empty)"
                ),
            }
        )
    frame = pd.DataFrame(rows)
    return TableBlock(
        name="sweep",
        caption="The exact σ sweep: the relation changes only where σ passes a value of D. "
        "Consecutive intervals with the same maximum set and cycle-freeness are merged (the "
        "number of rank layers at the lower → upper end of a merged range). The maximum set holds "
        "the algorithms no other dominates by σ award points: an algorithm joins it at the largest "
        "margin by which another beats it, so the weakest join last, at the largest σ — being in "
        "it there means 'not beaten by that many points', not a shared first place.",
        frame=frame,
        notes=f"One row per distinct relation ({len(result.sweep)} intervals) in sweep.csv.",
    )


def _matrix_table(result: SignificanceRelationResult, style: FigureStyle) -> TableBlock:
    order = list(result.order)
    labels = [style.label(a) for a in order]
    index = [result.algorithms.index(a) for a in order]
    matrix = result.award_points[index][:, index]
    cells = pd.DataFrame(
        [
            ["–" if i == j else points_text(float(matrix[i, j])) for j in range(len(order))]
            for i in range(len(order))
        ],
        columns=labels,
    )
    bold = pd.DataFrame(matrix >= result.sigma_auto, columns=labels)
    cells.insert(0, "x \\ y", labels)
    bold.insert(0, "x \\ y", False)
    return TableBlock(
        name="award_points",
        caption="Award points D(x, y) of the row algorithm x over the column algorithm y, in "
        f"rank order; bold: x R y at σ = {points_text(result.sigma_auto)} (auto).",
        frame=cells,
        bold=bold,
    )


def _methods(result: SignificanceRelationResult) -> tuple[str, ...]:
    statistic = STATISTIC_WORDS.get(result.statistic, f"the summary column '{result.statistic}'")
    adjust = ""
    if result.value_floor is not None:
        adjust = (
            f" Values below {power_of_ten(result.value_floor)} were raised to {power_of_ten(result.value_floor)} "
            f"({result.n_adjusted} values; spec value_floor)."
        )
    elif result.value_shift is not None:
        adjust = (
            f" {result.value_shift:g} was added to every value before the ratios were taken "
            "(spec value_shift)."
        )
    n = len(result.problems)
    return (
        "Significance relations (Köppen & Ohnishi, §III): each algorithm is reduced to one "
        f"value per problem instance, {statistic} ({result.input_format} data, {n} problem "
        f"instances, smaller is better).{adjust} For two algorithms $x, y$ the ratios "
        "$r_i = \\max(x_i/y_i,\\, y_i/x_i)$ are ranked ascending, tied ratios sharing the "
        "average rank $a_i$, and $D(x, y) = \\sum_i a_i s_i$ with $s_i = +1$ where $x_i < y_i$ "
        "($x$ better), $-1$ where $x_i > y_i$ and 0 where $x_i = y_i$ (equal values keep the "
        "lowest ranks and add nothing). This is the minimisation reading of the paper's sign; "
        f"ratios equal within a relative tolerance of {result.relative_tolerance:g} tie. "
        "$D(x, y) = -D(y, x)$, $D$ is a multiple of $1/2$ and "
        f"$|D| \\le n(n+1)/2 = {points_text(n * (n + 1) / 2)}$.",
        "$x\\,R_\\sigma\\,y$ iff $D(x, y) \\ge \\sigma$ ($\\sigma > 0$). The maximum set is the "
        "set of algorithms to which no algorithm is related; the rank layers are obtained by "
        "removing the maximum set repeatedly (with cycles: the layers of the graph of strongly "
        "connected components, so that a cycle's members share a layer). The σ sweep is exact: "
        "the relation changes only where σ passes one of the distinct positive values of $D$, "
        f"here {len(result.sweep) - 1}. auto is the smallest σ with a cycle-free relation, "
        f"σ = {points_text(result.sigma_auto)} (cycle-free for every "
        f"σ > {points_text(result.auto.sigma_from)}); cycles, strongly connected components "
        "and transitive reductions are computed with networkx.",
    )


def build_section(
    result: SignificanceRelationResult,
    options: SignificanceRelationOptions,
    style: FigureStyle,
) -> Section:
    """Assemble the significance-relation section from the result (formatting only)."""
    drawn = figure_blocks(
        len(result.algorithms),
        lambda: figures(result, style),
        what="the relation graphs, the layers over σ and the award points",
        instead="The rank layers and the σ sweep are in the tables below; every pair's award "
        f"points are in tables/{options.id or options.kind}/award_points.csv and the "
        "relation's edges in edges.csv.",
    )
    figure_of = {b.spec.name: b.spec for b in drawn if isinstance(b, FigureBlock)}
    relation_figures = [
        spec for name, spec in figure_of.items() if name.startswith("relation_sigma_")
    ]
    blocks: list[Block] = [
        Text(
            "Significance relations compare the algorithms pairwise, like teams in a "
            "tournament (Köppen & Ohnishi). On every problem the ratio of the two algorithms' "
            "values is ranked among the problems, and the rank is awarded as points to the "
            "better algorithm; x dominates y by award points at level σ when its net points "
            "D(x, y) reach σ. This is a threshold on points, not a statistical test: σ carries "
            "no p-value or error rate, and Köppen & Ohnishi's word 'significance' means only "
            "this threshold. Raising σ removes relations until no cycle is left; the "
            "algorithms that no other dominates form the top rank layer, and removing them "
            "repeatedly gives the layers below. The ranking needs no common scale across "
            "problems: only ratios within a problem and their ranks count."
        ),
        Prose(tuple(findings(result, style)), as_list=True),
        # The tables before the figures: a table may continue on the next page, a figure may
        # not, so the tables fill the end of a page a tall figure could not (weasyprint has
        # no floats; a figure that did not fit left half a page blank in cec2017 and
        # cec2022). The relation graph at each requested σ draws every algorithm in its
        # layer: where it is drawn, the layers table is in the HTML and its file only. The
        # award-point map, the relation's data, before the layers over σ.
        *([] if figure_of else drawn),
        dataclasses.replace(_layers_table(result, style), in_print=not relation_figures),
        _sweep_table(result, style),
        *(FigureBlock(spec) for spec in relation_figures),
        *([FigureBlock(figure_of["award_points"])] if figure_of else []),
        # The award points as a table too (few algorithms), right under their heat map: it
        # fills the page under the map before the layers over σ.
        *([_matrix_table(result, style)] if len(result.algorithms) <= MAX_MATRIX_TABLE else []),
        *([FigureBlock(figure_of["layers_over_sigma"])] if figure_of else []),
    ]
    return Section(
        id=options.id or "significance_relation",
        title=options.title or "Significance relations: award points and rank layers",
        blocks=tuple(blocks),
        methods=_methods(result),
    )
