"""Number formats shared by tables, captions and sentences."""

from __future__ import annotations

import numpy as np
from matplotlib.text import Text

from reportgen.analyses.significance_relation import compute
from reportgen.figures.agreement import agreement_figure
from reportgen.figures.significance_relation import award_points_figure
from reportgen.figures.style import make_style
from reportgen.present.format import any_of, fixed, number, points_text
from reportgen.present.labels import Labels
from reportgen.synthesis.rankings import FINAL_VALUES, Ranking
from reportgen.synthesis.summary import synthesise
from tests.analyses.test_significance_relation import options, summary_data


def test_negative_numbers_carry_a_minus_sign_in_both_notations() -> None:
    # Quickstart's problem table printed "-2.13×10⁻¹⁴" (hyphen) beside "−0.5" style cells.
    assert number(-2.13e-14) == "−2.13×10⁻¹⁴"
    assert number(-0.5) == "−0.5"
    assert number(2.13e-14) == "2.13×10⁻¹⁴"


def test_probabilities_print_two_decimals() -> None:
    assert [fixed(v) for v in (0.1, 0.53, 1.0, 0.0)] == ["0.10", "0.53", "1.00", "0.00"]
    assert fixed(float("nan")) == "–"


def test_negative_integers_and_fixed_decimals_carry_a_minus_sign_too() -> None:
    # cec2005's award-point map and table printed "-246" (integers returned before the
    # hyphen became a minus); the Kendall τ map printed "-0.33".
    assert points_text(-246.0) == "−246"
    assert number(-2) == "−2" and number(-2.0) == "−2"
    assert number(246) == "246"
    assert fixed(-0.3333) == "−0.33" and fixed(0.3333) == "0.33"


def test_figure_cell_numbers_use_the_reports_minus_sign() -> None:
    # The heat maps' cells: award points D (significance relation) and Kendall's τ.
    values = {"A": [1.0, 1.0, 1.0], "B": [2.0, 2.0, 2.0]}
    result = compute(summary_data(values), options())
    # Three equal ratios share ranks 1–3 (average 2) for A: D(A, B) = 6, D(B, A) = −6.
    assert np.array_equal(result.award_points, [[0, 6], [-6, 0]])
    spec = award_points_figure(result, make_style(list(values)))
    cells = {t.get_text() for t in spec.figure.axes[0].findobj(Text)}
    assert {"6", "−6"} <= cells and "-6" not in cells
    spec.figure.clear()
    # Three rankings, the last in the opposite order: τ = −1, printed "−1.00" in its cells and
    # in the sentence naming the least concordant pair.
    rankings = [
        Ranking("u", "u", "u", {"A": 1.0, "B": 2.0, "C": 3.0}, family="U-scores"),
        Ranking("v", "v", "v", {"A": 1.0, "B": 2.0, "C": 3.0}, family="U-scores"),
        Ranking("m", "m", "m", {"A": 3.0, "B": 2.0, "C": 1.0}, family=FINAL_VALUES),
    ]
    summary = synthesise(rankings, ["A", "B", "C"], Labels({}), resamples=20)
    tau = agreement_figure(summary)
    assert tau is not None
    cells = {t.get_text() for t in tau.figure.axes[0].findobj(Text)}
    assert "−1.00" in cells and "-1.00" not in cells
    tau.figure.clear()
    (sentence,) = [f.text for f in summary.findings if f.id == "summary.agreement"]
    assert "(τ = −1.00)" in sentence


def test_any_of_reads_for_one_two_and_more() -> None:
    # "differ significantly on none of the 1 problems" came from a one-problem study.
    assert any_of(1, "problem") == "the one problem"
    assert any_of(2, "problem") == "either of the 2 problems"
    assert any_of(24, "problem") == "any of the 24 problems"
