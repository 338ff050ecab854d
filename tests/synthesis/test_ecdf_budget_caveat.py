"""The runtime-ECDF area ranking at budgets far apart: every summary sentence that ranks by it
says who leads at the common budget (bbob_coco: DIRECT was 'the recommendation' by an area
over budgets 1655-fold apart, with nothing in the bottom line about it)."""

from __future__ import annotations

import pandas as pd

from reportgen.analyses.runtime_ecdf import compute
from reportgen.present.labels import Labels
from reportgen.synthesis import rankings
from reportgen.synthesis.summary import _caveat
from tests.analyses.test_runtime_ecdf import HAND, _data, _options

COLUMNS = ["algorithm", "problem", "dimension", "run", "evaluations", "value"]


def _ranking(b_records: list[tuple[int, float]]) -> rankings.Ranking:
    # 2-D, targets 1 and 0.1, one run each. A: Δf = 1 at x = 10/2 = 5, its budget (x = 5),
    # so at the common budget x = 5 A has reached 1 of 2 pairs. B's records are given.
    a = [("A", "f1", 2, 1, 1, 5.0), ("A", "f1", 2, 1, 10, 0.5)]
    b = [("B", "f1", 2, 1, e, v) for e, v in b_records]
    frame = pd.DataFrame(a + b, columns=COLUMNS)
    result = compute(_data(frame), _options(targets=[1.0, 0.1], table_targets=[1.0]))
    (ranking,) = rankings.runtime_ecdf("runtime_ecdf", result)
    return ranking


def test_the_area_leader_also_leads_at_the_common_budget():
    # B: Δf = 1 at x = 100, 0.1 at x = 200, budget x = 200: areas A 0.348, B 0.065 (the hand
    # example of test_runtime_ecdf); at x = 5: A 50 %, B 0 %. Budgets 40-fold apart.
    ranking = _ranking([(1, 5.0), (200, 0.5), (400, 0.05)])
    assert ranking.ranks == {"A": 1.0, "B": 2.0}
    labels = Labels({"A": "Alpha", "B": "Beta"})
    assert _caveat([ranking], labels) == (
        " The runtime ECDF area compares budgets up to 40-fold apart and extends each curve "
        "flat beyond its own budget; at the common budget of 5·D (2-D) Alpha reaches the most "
        "(function, target) pairs (50.0 %; next Beta, 0.0 %)."
    )
    # By name where no labels are shown (results.json).
    assert "Alpha" not in ranking.caveat and ranking.caveat_algorithms == ("A", "B")


def test_a_long_budget_that_puts_another_first_by_area_is_named():
    # B: Δf = 1 at x = 6 and 0.1 at x = 7, budget x = 200 — just after A's budget, so B's area
    # over log10 x in [0, log10 200] is ((log 200 − log 6) + (log 200 − log 7)) / (2 log 200)
    # = 0.647 against A's 0.348, while at the common budget x = 5 A has 50 % and B 0 %.
    ranking = _ranking([(1, 5.0), (12, 0.5), (14, 0.05), (400, 0.05)])
    assert ranking.ranks == {"B": 1.0, "A": 2.0}
    assert _caveat([ranking], Labels({})).endswith(
        "at the common budget of 5·D (2-D) A reaches the most (function, target) pairs "
        "(50.0 %; next B, 0.0 %), not B as by the area."
    )


def test_no_sentence_where_the_budgets_are_alike():
    result = compute(_data(HAND), _options())
    (ranking,) = rankings.runtime_ecdf("runtime_ecdf", result)
    assert ranking.caveat == "" and _caveat([ranking], Labels({})) == ""
