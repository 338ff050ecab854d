"""Symbols in prose, captions and tables are typeset as the methods appendix sets them."""

from __future__ import annotations

import pytest

from reportgen.render.html import as_printed, typeset


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("runs ≤ θ_f", "runs ≤ θ<sub>f</sub>"),
        ("mean + λS/√n_r", "mean + λS/√n<sub>r</sub>"),
        ("budget μ_f = 10⁶", "budget μ<sub>f</sub> = 10⁶"),
        ("z = (R_0 − R_i)", "z = (R<sub>0</sub> − R<sub>i</sub>)"),
        ("the probability p_first that", "the probability p<sub>first</sub> that"),
        ("x_{ij}", "x<sub>ij</sub>"),
    ],
)
def test_subscripts_of_symbols_are_typeset(text: str, html: str) -> None:
    assert str(typeset(text)) == html


@pytest.mark.parametrize(
    "text",
    ["tables/u_scores/report_holm_mean.tex", "value_floor", "[u_scores]", "fixed_budget_10D_2"],
)
def test_identifiers_and_paths_are_left_alone(text: str) -> None:
    assert str(typeset(text)) == text


def test_escaping_comes_first() -> None:
    assert str(typeset("<script>θ_f")) == "&lt;script&gt;θ<sub>f</sub>"


def test_as_printed_is_the_typeset_text_without_markup() -> None:
    assert as_printed("runs ≤ θ_f, p_first and u_scores/") == "runs ≤ θf, pfirst and u_scores/"


def test_a_number_keeps_its_per_cent_sign_on_its_line() -> None:
    # Quickstart's bottom line broke "ranks first in 92" / "% of bootstrap resamples".
    assert str(typeset("first in 92 % of resamples; 95 % rank interval")) == (
        "first in 92\u00a0% of resamples; 95\u00a0% rank interval"
    )
    assert str(typeset("share % and 5%")) == "share % and 5%"
