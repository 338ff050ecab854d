"""How the executive summary names rankings and lists algorithms: titles cut between words,
one aside per parenthesis, and no "and 1 more"."""

from __future__ import annotations

import re

import pytest

from reportgen.analyses.significance_relation import compute
from reportgen.present.findings import MAX_NAMED, join_words
from reportgen.present.labels import Labels
from reportgen.synthesis.rankings import (
    TITLE_IN_LABEL,
    Ranking,
    named,
    significance_relation,
    title_in_label,
)
from reportgen.synthesis.summary import synthesise
from tests.analyses.test_significance_relation import options, summary_data


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Perspectives in 10-D only", "Perspectives in 10-D only"),
        # The cec2022 example's second U-score analysis: the aside goes, the title stays whole.
        (
            "U-scores at fractions of the budget (who got there first)",
            "U-scores at fractions of the budget",
        ),
        # Too long even without an aside: whole words up to the limit, then "…".
        (
            "A very long title that has no parenthetical aside at all",
            "A very long title that has no…",
        ),
        ("x" * 50, "x" * (TITLE_IN_LABEL - 1) + "…"),
    ],
)
def test_a_title_in_a_label_is_cut_between_words(title: str, expected: str) -> None:
    short = title_in_label(title)
    assert short == expected
    assert len(short) <= TITLE_IN_LABEL
    if short.endswith("…") and " " in title:
        assert title.startswith(short[:-1]) and title[len(short) - 1] == " "


def test_a_second_analysis_of_a_kind_is_named_inside_the_significance_parenthesis() -> None:
    ranking = Ranking(
        id="perspectives_10D:mean",
        analysis_id="perspectives_10D",
        label="mean final value",
        ranks={"A": 1.0, "B": 2.0},
        significance="mean final value (Friedman test, Holm's procedure)",
    )
    (out,) = named([ranking], "perspectives", "perspectives_10D", "Perspectives in 10-D only")
    assert out.label == "mean final value (Perspectives in 10-D only)"
    assert out.significance == (
        "mean final value (Friedman test, Holm's procedure; Perspectives in 10-D only)"
    )
    (plain,) = named([ranking], "perspectives", "perspectives", "Perspectives")
    assert plain.label == "mean final value" and plain.significance == ranking.significance


def test_one_name_over_the_limit_is_named_more_are_counted() -> None:
    names = [f"A{i}" for i in range(MAX_NAMED + 1)]
    assert join_words(names, limit=MAX_NAMED) == ", ".join(names[:-1]) + " and " + names[-1]
    more = [*names, "B"]
    assert join_words(more, limit=MAX_NAMED) == ", ".join(names[:MAX_NAMED]) + " and 2 more"
    assert join_words(names[:3], "or", limit=MAX_NAMED) == "A0, A1 or A2"


def test_the_relation_layers_ranking_writes_sigma_as_the_report_does() -> None:
    # cec2017 read "award points (relation layers σ=0.5)" beside "τ = 10⁻⁵" and "σ = 2.5":
    # the label is displayed text (the id is the key, in results.json and across runs).
    # A < B < C on every problem, by the same ratio: no cycle, auto σ = 0.5.
    values = {"A": [1.0, 1.0, 1.0], "B": [2.0, 2.0, 2.0], "C": [4.0, 4.0, 4.0]}
    result = compute(summary_data(values), options())
    (layers,) = significance_relation("sr", result)
    assert layers.id == "sr:layers"
    assert layers.label == "relation layers σ = 0.5"
    summary = synthesise([layers], list(values), Labels({}), resamples=20)
    texts = [f.text for f in summary.findings] + [summary.bottom_line.text]  # type: ignore[union-attr]
    assert any("relation layers σ = 0.5" in t for t in texts)
    assert not any(re.search(r"[στλ]=", t) for t in texts)
