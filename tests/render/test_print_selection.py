"""What each section leaves out of print (in the HTML and the files only) and why, on small
hand-made results."""

from __future__ import annotations

from reportgen.analyses.performance_profiles import compute as compute_profiles
from reportgen.analyses.problem_table import compute as compute_problem_table
from reportgen.analyses.u_scores import compute as compute_u_scores
from reportgen.figures.style import make_style
from reportgen.render.blocks import FigureBlock, TableBlock
from reportgen.render.sections.performance_profiles import build_section as profiles_section
from reportgen.render.sections.problem_table import build_section as problem_table_section
from reportgen.render.sections.u_scores import build_section as u_scores_section
from tests.analyses.test_performance_profiles import SMALL, histories
from tests.analyses.test_performance_profiles import options as profile_options
from tests.analyses.test_problem_table import LOW, SMALL_CASE, trials
from tests.analyses.test_problem_table import options as problem_options
from tests.analyses.test_u_scores import basin_histories, paper_example
from tests.analyses.test_u_scores import options as u_options


def _printed(blocks: tuple) -> dict[str, bool]:
    """Whether each figure ("figure name") and table ("table name") prints, in block order."""
    return {
        (f"figure {b.spec.name}" if isinstance(b, FigureBlock) else f"table {b.name}"): b.in_print
        for b in blocks
        if isinstance(b, FigureBlock | TableBlock)
    }


def test_a_cut_point_analysis_prints_its_time_view_not_its_full_budget_detail() -> None:
    opts = u_options(cutpoints=[0.05, 0.25, 0.5, 1.0], budget=100)
    result = compute_u_scores(basin_histories(), opts)
    printed = _printed(u_scores_section(result, opts, make_style(["A", "B", "C"])).blocks)
    assert printed["figure u_scores_bars"] and printed["table totals"]
    assert printed["figure cutpoint_ranks"] and printed["table cutpoint_ranks"]
    # Everything after the cut-point table is full-budget detail: HTML and files only.
    names = list(printed)
    rest = names[names.index("table cutpoint_ranks") + 1 :]
    assert rest and not any(printed[n] for n in rest)


def test_a_trial_based_analysis_prints_its_detail() -> None:
    data = paper_example()
    result = compute_u_scores(data, u_options())
    printed = _printed(u_scores_section(result, u_options(), make_style(data.algorithms)).blocks)
    assert "figure cutpoint_ranks" not in printed
    assert printed["figure u_scores_bars"] and printed["table win_tie_loss"]
    assert not printed["table u_scores"]  # a value per problem and algorithm, as before


def test_data_profiles_are_left_to_the_html_when_performance_profiles_print() -> None:
    opts = profile_options(tolerances=[0.5, 0.25, 0.05])
    result = compute_profiles(histories(SMALL), opts)
    section = profiles_section(result, opts, make_style(["A", "B", "C"]))
    printed = _printed(section.blocks)
    assert any(n.startswith("figure data_") for n in printed)
    assert all(p for n, p in printed.items() if n.startswith("figure performance_"))
    assert not any(p for n, p in printed.items() if n.startswith("figure data_"))
    only_data = profile_options(tolerances=[0.5], profiles=["data"])
    alone = _printed(
        profiles_section(
            compute_profiles(histories(SMALL), only_data), only_data, make_style(["A", "B", "C"])
        ).blocks
    )
    assert all(p for n, p in alone.items() if n.startswith("figure data_"))


def test_mean_profile_order_is_one_row_per_algorithm() -> None:
    # test_mean_ranking_by_hand: at τ = 0.5 all solve both problems, B is fastest on both and
    # first, A second, C third; at τ = 0.05 A and B solve one problem each (fastest there),
    # A first by study order, B second, C solves none.
    opts = profile_options(tolerances=[0.5, 0.05])
    result = compute_profiles(histories(SMALL), opts)
    section = profiles_section(result, opts, make_style(["A", "B", "C"]))
    table = next(
        b for b in section.blocks if isinstance(b, TableBlock) and b.name == "mean_ranking"
    )
    rows = table.frame.set_index("algorithm")
    assert list(table.frame.columns) == ["algorithm", "τ = 0.5", "τ = 0.05"]
    assert table.frame["algorithm"].tolist() == ["B", "A", "C"]
    assert rows.loc["B", "τ = 0.5"] == "1 (100 %, 100 %)"
    assert rows.loc["A", "τ = 0.05"].startswith("1 (50 %, 50 %)")
    assert rows.loc["C", "τ = 0.05"].startswith("3 (0 %")
    assert table.bold is not None and bool(table.bold.loc[0, "τ = 0.5"])


def test_per_problem_tables_print_when_they_fit_one_block() -> None:
    # Two algorithms: one table (reference and B), printed. Nine: MAX_ALGORITHM_COLUMNS = 7
    # splits the eight others into two blocks of four, pages of raw numbers left to the HTML
    # and the .tex files; the W/T/L summary prints either way.
    few = compute_problem_table(trials(SMALL_CASE), problem_options(reference="A"))
    section = problem_table_section(few, problem_options(reference="A"), make_style(["A", "B"]))
    assert _printed(section.blocks) == {"table win_tie_loss": True, "table problem_table_0D": True}
    names = [chr(ord("A") + i) for i in range(9)]
    many_runs = {(a, p): LOW for a in names for p in ("f1", "f2")}
    many = compute_problem_table(trials(many_runs), problem_options(reference="A"))
    section = problem_table_section(many, problem_options(reference="A"), make_style(names))
    assert _printed(section.blocks) == {
        "table win_tie_loss": True,
        "table problem_table_0D_1": False,
        "table problem_table_0D_2": False,
    }


def test_verdicts_are_one_row_per_algorithm() -> None:
    opts = profile_options(tolerances=[0.5, 0.05], lambdas=[2])
    result = compute_profiles(histories(SMALL), opts)
    section = profiles_section(result, opts, make_style(["A", "B", "C"]))
    table = next(b for b in section.blocks if isinstance(b, TableBlock) and b.name == "verdicts")
    assert list(table.frame.columns) == ["algorithm", "τ = 0.5", "τ = 0.05"]
    assert table.frame["algorithm"].tolist() == ["A", "B", "C", "winner's upper / mean solves"]
    for c in result.confirmations(result.profile_kinds[0]):
        column = table.frame[f"τ = {c.tolerance:g}"]
        assert column[["A", "B", "C"].index(c.winner)] == "winner"
    assert table.bold is not None and table.bold.to_numpy().sum() == 2  # one winner per τ
