"""The report section of the runtime-ECDF analysis: ECDF figures and ERT tables."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reportgen.analyses.runtime_ecdf import (
    AREA_PLACES,
    COCO_TARGETS,
    RuntimeEcdfResult,
)
from reportgen.figures.runtime_ecdf import figures
from reportgen.figures.style import FigureStyle
from reportgen.narrative.runtime_ecdf import findings
from reportgen.present.format import ecdf_share, fixed, number, power_of_ten
from reportgen.render.blocks import Block, Prose, Section, TableBlock, Text, figure_blocks
from reportgen.spec.analyses.runtime_ecdf import RuntimeEcdfOptions


def _ert_tables(result: RuntimeEcdfResult, style: FigureStyle) -> list[TableBlock]:
    """Per dimension: one row per (problem, target), one column per algorithm: ERT / D."""
    blocks: list[TableBlock] = []
    targets = sorted(result.table_targets, reverse=True)
    for dimension, pivot in result.ert_tables(targets).items():
        scale = max(int(dimension), 1)
        index = pivot.index
        algorithms = [str(a) for a in pivot.columns]
        values = pivot.to_numpy(dtype=float)
        best = np.min(values, axis=1, keepdims=True)
        table = pd.DataFrame(
            {
                "problem": [p if t == targets[0] else "" for p, t in index],
                "Δf": [power_of_ten(t) for _, t in index],
                **{
                    style.label(a): [number(v / scale, 3, whole=False) for v in values[:, j]]
                    for j, a in enumerate(algorithms)
                },
            }
        )
        mask = np.isfinite(values) & (values == best)
        bold = pd.DataFrame(False, index=table.index, columns=table.columns)
        for j, a in enumerate(algorithms):
            bold[style.label(a)] = mask[:, j]
        where = f"{int(dimension)}-D" if dimension else "no dimension"
        blocks.append(
            TableBlock(
                name=f"ert_{int(dimension)}D",
                caption=f"Expected running time ERT / D in {where} per function and target Δf; "
                "∞ = no run reached the target; the smallest ERT per row in bold.",
                frame=table,
                bold=bold,
            )
        )
    return blocks


def _summary_table(result: RuntimeEcdfResult, labels: FigureStyle) -> TableBlock:
    rows = result.all_summaries()
    unequal = any(result.common_budget(d) is not None for d in result.dimensions())
    columns: dict[str, list[str]] = {
        "D": [str(s.dimension) if s.dimension else "all" for s in rows],
        "algorithm": [labels.label(s.algorithm) for s in rows],
        "area (log x)": [fixed(s.area, AREA_PLACES) for s in rows],
        "pairs reached": [ecdf_share(s.solved) for s in rows],
    }
    if unequal:
        columns["reached at common budget"] = [ecdf_share(s.solved_at_common_budget) for s in rows]
    columns["median budget / D"] = [number(s.median_budget, 3, whole=False) for s in rows]
    columns["max budget / D"] = [number(s.max_budget, 3, whole=False) for s in rows]
    table = pd.DataFrame(columns)
    bold = pd.DataFrame(False, index=table.index, columns=table.columns)
    for column, source in (
        ("area (log x)", "area"),
        ("pairs reached", "solved"),
        ("reached at common budget", "solved_at_common_budget"),
    ):
        if column in table.columns:
            # The best of each dimension (ties all bold).
            top = {
                d: max(getattr(s, source) for s in result.summaries(d)) for d in result.dimensions()
            }
            bold[column] = [getattr(s, source) == top[s.dimension] for s in rows]
    caption = (
        "Per dimension: the normalised area under the ECDF on the log budget axis (larger is "
        "better; the ranking the summary uses), the share of (function, target) pairs reached "
        "at the end of the runs (the ECDF's right end)"
    )
    if unequal:
        common = ", ".join(
            f"{number(b, 3)}·D" + (f" in {int(d)}-D" if d else "")
            for d, b in ((d, result.summaries(d)[0].common_budget) for d in result.dimensions())
        )
        caption += (
            f", the share reached at the common budget ({common}: the smallest algorithm "
            "budget — the budgets differ widely, so only this share compares like with like)"
        )
    caption += (
        ", and the median and largest evaluations used per run, divided by D. Best per column "
        "in bold."
    )
    return TableBlock(name="ecdf_summary", caption=caption, frame=table, bold=bold)


def build_section(
    result: RuntimeEcdfResult, options: RuntimeEcdfOptions, style: FigureStyle
) -> Section:
    """Text, findings, ECDF figures and ERT tables."""
    default = result.targets == tuple(sorted(COCO_TARGETS, reverse=True))
    intro = (
        "As COCO reports benchmark data: a run reaches a target precision Δf when its best f − f_opt is ≤ Δf. "
        "The runtime ECDF shows, for every budget of x·D evaluations, the share of (function, target) pairs "
        "the algorithm's runs reached within it; the expected running time (ERT) is the number of evaluations "
        "all runs spent until they reached the target or stopped, divided by the number that reached it."
    )
    blocks: list[Block] = [Text(intro), Prose(tuple(findings(result, style)), as_list=True)]
    blocks += figure_blocks(
        len(result.algorithms),
        lambda: figures(result, style),
        what="the runtime ECDFs",
        instead="The summary table below gives each algorithm's area under its ECDF; the "
        f"ECDFs themselves are in tables/{options.id or options.kind}/ecdf.csv.",
    )
    blocks.append(_summary_table(result, style))
    blocks.extend(_ert_tables(result, style))
    targets = (
        "COCO's 51 default targets $\\Delta f = 10^{2-k/5}$, $k = 0, \\dots, 50$"
        if default
        else f"targets Δf ∈ {{{', '.join(power_of_ten(t) for t in result.targets)}}}"
    )
    methods = [
        "Expected running time (Hansen, Auger, Brockhoff, Tušar, Tušar, COCO: Performance assessment, arXiv:1605.03560): "
        "$\\mathrm{ERT}(\\Delta f) = \\bigl(\\sum_{r: t_r < \\infty} t_r(\\Delta f) + \\sum_{r: t_r = \\infty} T_r\\bigr) / "
        "\\#\\{r : t_r(\\Delta f) < \\infty\\}$, where $t_r(\\Delta f)$ is the first evaluation count at which run $r$ "
        "has $f - f_{\\mathrm{opt}} \\le \\Delta f$ and $T_r$ the evaluations it used (its last record); $\\infty$ "
        "when no run succeeds.",
        "Runtime ECDF per dimension $D$: $F_a(x) = \\frac{1}{n_f n_t}\\sum_f \\sum_{\\Delta f} \\frac{1}{n_f^{\\mathrm{runs}}}"
        "\\,\\#\\{r : t_r(\\Delta f) \\le x D\\}$, plotted against $x$ on a log axis; each function weighs the same. "
        "No simulated restarts (unlike cocopp's bootstrapped ECDFs): curves end at the largest budget; crosses mark "
        "the median $T_r/D$.",
        f"Parameters: {targets}; ERT tables at Δf ∈ {{{', '.join(power_of_ten(t) for t in sorted(result.table_targets, reverse=True))}}}; "
        f"{'one ECDF per dimension' if result.per_dimension else 'one ECDF pooled over dimensions'}; "
        f"{len(result.algorithms)} algorithms. $T_r$ is exact for the coco, cec and ioh formats (their histories end at "
        "the run's last evaluation); for a histories CSV it is the run's last improvement.",
    ]
    return Section(
        id=options.id or options.kind,
        title=options.title or "Runtime distributions (ERT and ECDF)",
        blocks=tuple(blocks),
        methods=tuple(methods),
    )
