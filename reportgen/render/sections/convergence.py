"""The report section of the convergence analysis: the small-multiples grids and fixed-budget
tables (one per dimension and budget: one row per problem, one column per algorithm, the median
value of the runs, the smallest per row in bold; in the HTML and as files, the PDF naming them)."""

from __future__ import annotations

import pandas as pd

from reportgen.analyses.convergence import ConvergenceResult
from reportgen.figures.convergence import figures
from reportgen.figures.style import FigureStyle
from reportgen.narrative.convergence import findings
from reportgen.present.format import evaluations, number
from reportgen.render.blocks import Block, Prose, Section, TableBlock, Text, figure_blocks
from reportgen.spec.analyses.convergence import ConvergenceOptions


def _fixed_budget_tables(
    result: ConvergenceResult, style: FigureStyle, analysis_id: str
) -> list[TableBlock]:
    blocks = []
    for dimension, budgets in result.budgets.items():
        problems = [p for p, d in result.problems if d == dimension]
        for budget in budgets:
            values = {
                (f.problem, f.algorithm): f.median for f in result.at_budget(dimension, budget)
            }
            rows, bold_rows = [], []
            for problem in problems:
                best = set(result.best_at_budget(problem, dimension, budget))
                row, mask = {"problem": problem}, {"problem": False}
                for algorithm in result.algorithms:
                    value = values.get((problem, algorithm))
                    row[style.label(algorithm)] = "–" if value is None else number(value, 3)
                    mask[style.label(algorithm)] = algorithm in best
                rows.append(row)
                bold_rows.append(mask)
            frame = pd.DataFrame(rows)
            where = f" in {dimension}-D" if dimension else ""
            blocks.append(
                TableBlock(
                    name=f"fixed_budget_{dimension}D_{budget:g}",
                    caption=f"Fixed budget: the median best-so-far value of the runs after "
                    f"{evaluations(budget)} evaluations{where}; the smallest per problem in bold "
                    f"(quartiles and means in tables/{analysis_id}/fixed_budget.csv).",
                    frame=frame,
                    bold=pd.DataFrame(bold_rows, columns=frame.columns).astype(bool),
                    # a value per problem and algorithm: the grids carry the argument in print
                    in_print=False,
                )
            )
    return blocks


def build_section(
    result: ConvergenceResult, options: ConvergenceOptions, style: FigureStyle
) -> Section:
    """Intro, findings, the convergence grids and the fixed-budget tables."""
    intro = (
        "How the algorithms get there: per problem, the median over the runs of the best value "
        "found so far against the evaluations spent"
        + (", with the interquartile range of the runs shaded" if result.band == "iqr" else "")
        + ". Value axes are logarithmic where the values span more than two decades; there, "
        "values of 0 lie on the panel's bottom edge. Fixed-budget tables give the median at "
        "named evaluation counts."
    )
    if len(result.plotted) < len(result.problems):
        intro += (
            f" The figures show {len(result.plotted)} of the {len(result.problems)} problem "
            "instances (the study's selection); the tables cover them all."
        )
    blocks: list[Block] = [Text(intro), Prose(tuple(findings(result, style)), as_list=True)]
    blocks += figure_blocks(
        len(result.algorithms),
        lambda: figures(
            result, style, columns=options.columns, per_figure=options.panels_per_figure
        ),
        what="the convergence curves",
        instead="The fixed-budget tables below give the medians at named budgets; the curves "
        f"are in tables/{options.id or options.kind}/curves.csv.",
    )
    blocks.extend(_fixed_budget_tables(result, style, options.id or options.kind))
    methods = [
        "Convergence curves: for each problem instance and algorithm, each run's best-so-far "
        "value $H(k, r)$ after $k$ evaluations is its last record at or before $k$; the curve is "
        "$\\mathrm{median}_r\\,H(k, r)$ with the band $[Q_1(k), Q_3(k)]$ (linear-interpolation "
        "quartiles), evaluated at 80 log-spaced evaluation counts per problem and at the fixed "
        "budgets. A curve starts where every run of the algorithm has a record and ends at the "
        "largest evaluation count its runs recorded.",
        "Fixed budgets: "
        + "; ".join(
            f"{'D = ' + str(d) + ': ' if d else ''}{', '.join(evaluations(b) for b in bs)}"
            for d, bs in result.budgets.items()
        )
        + (
            " evaluations (the largest recorded per dimension)."
            if options.budgets is None
            else " evaluations."
        ),
    ]
    return Section(
        id=options.id or options.kind,
        title=options.title or "Convergence",
        blocks=tuple(blocks),
        methods=tuple(methods),
    )
