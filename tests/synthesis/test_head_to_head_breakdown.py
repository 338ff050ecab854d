"""The head-to-head per dimension and per function group: problems won and the sign test,
checked against hand calculations (no shared data needed)."""

from __future__ import annotations

import dataclasses
import math

import pandas as pd
import pytest

from reportgen.analyses.u_scores import UScoresResult
from reportgen.present.labels import Labels
from reportgen.synthesis.head_to_head import (
    ALL_PROBLEMS,
    HeadToHead,
    head_to_head,
    sign_test_can_reject,
    sign_test_needs,
)
from reportgen.synthesis.summary import _dimension_split, _head_to_head_finding


def _pairwise() -> pd.DataFrame:
    """12 problems in D=10 and 12 in D=20, A against B, 10 trial comparisons per problem.

    D=10: A wins 8 of 10 comparisons on p1–p10 (significant on p1–p6), B wins 7 of 10 on
    p11–p12 (significant on p11). D=20: A wins 6 of 10 on p1–p5, B 6 of 10 on p6–p11, and
    p12 is split 5–5 (won by neither). Rows are stored in both orientations to check that
    either is read: D=20's rows have B as algorithm_a.
    """
    rows = []
    for i in range(1, 13):
        a_wins, p = (8.0, 0.01 if i <= 6 else 0.2) if i <= 10 else (3.0, 0.01 if i == 11 else 0.3)
        rows.append(("D=10", f"p{i}", 10, "A", "B", a_wins, 10 - a_wins, p))
    for i in range(1, 13):
        a_wins = 6.0 if i <= 5 else 4.0 if i <= 11 else 5.0
        rows.append(("D=20", f"p{i}", 20, "B", "A", 10 - a_wins, a_wins, 0.5))
    columns = ["group", "problem", "dimension", "algorithm_a", "algorithm_b", "wins_a", "wins_b"]
    return pd.DataFrame(rows, columns=[*columns, "p_value"])


def _result() -> UScoresResult:
    """A U-score result holding the pairwise table and the totals the head-to-head reads."""
    totals = pd.DataFrame(
        {
            "algorithm": ["A", "B"],
            "D=10": [5.0, 4.0],
            "D=20": [5.0, 5.0],
            "total": [10.0, 9.0],
            "rank": [1, 2],
            "rank_D=10": [1, 2],
            "rank_D=20": [1, 1],
        }
    )
    unused = pd.DataFrame()
    return UScoresResult(
        algorithms=("A", "B"),
        groups=("D=10", "D=20"),
        target=1e-8,
        failed_tie_break="none",
        tie_break_applied=False,
        grouping="dimension",
        weights=None,
        alpha=0.05,
        input_format="trials",
        budget=None,
        u_scores=unused,
        totals=totals,
        pairwise=_pairwise(),
        win_tie_loss=unused,
        critical_weights=unused,
        difficulty=unused,
        cutpoints=None,
    )


def test_problems_won_and_the_sign_test_by_hand() -> None:
    groups = {"first": ("p1", "p2", "p3"), "last": ("p11", "p12")}
    h = head_to_head("A", "B", [("u_scores", "u", _result())], [], groups)
    assert h is not None
    rows = {g.group: g for g in h.breakdown}
    assert list(rows) == [ALL_PROBLEMS, "D=10", "D=20", "first", "last"]
    # D=10: A wins 10 problems, B 2. Sign test two-sided: 2·P(X ≤ 2 | n = 12, ½)
    #   = 2·(1 + 12 + 66)/4096 = 158/4096 ≈ 0.0386 < 0.05 → A ahead.
    d10 = rows["D=10"]
    assert (d10.wins_a, d10.wins_b, d10.significant_a, d10.significant_b) == (10, 2, 6, 1)
    assert d10.sign_p == pytest.approx(158 / 4096)
    assert d10.ahead == "A"
    assert d10.share_a == pytest.approx((10 * 8 + 2 * 3) / 120)
    # D=20 (stored as B against A): A wins 5 problems, B 6, one tie left out.
    #   2·P(X ≤ 5 | n = 11) = 2·(1 + 11 + 55 + 165 + 330 + 462)/2048 = 1 → indistinguishable.
    d20 = rows["D=20"]
    assert (d20.wins_a, d20.wins_b, d20.problems) == (5, 6, 12)
    assert d20.sign_p == pytest.approx(1.0) and d20.ahead == ""
    # All 24: A 15, B 8: 2·P(X ≤ 8 | n = 23) = 2·Σ_{k≤8} C(23, k)/2²³.
    total = sum(math.comb(23, k) for k in range(9))
    assert rows[ALL_PROBLEMS].sign_p == pytest.approx(2 * total / 2**23)
    assert rows[ALL_PROBLEMS].ahead == ""
    # A function group takes its problems in every dimension: p1–p3 twice, A wins all 6:
    #   2·(1/64) = 0.03125 → A ahead; p11, p12: B wins 2 of D=10 and p11 of D=20 (p12 tied).
    assert (rows["first"].wins_a, rows["first"].wins_b, rows["first"].problems) == (6, 0, 6)
    assert rows["first"].sign_p == pytest.approx(2 / 64) and rows["first"].ahead == "A"
    assert (rows["last"].wins_a, rows["last"].wins_b) == (0, 3)
    assert rows["last"].ahead == ""  # 2·(1/8) = 0.25


def test_sentences_state_the_table_rows() -> None:
    h = head_to_head("A", "B", [("u_scores", "u", _result())], [], {})
    assert h is not None
    labels = Labels({})
    text = _head_to_head_finding(h, labels).text
    # Two-sided sign test of 10 wins to 2: 2·(C(12,10) + C(12,11) + C(12,12)) / 2¹²
    # = 2·(66 + 12 + 1) / 4096 = 158/4096 = 0.0386 (three significant digits).
    assert (
        "A ahead at D=10 (10–2, p = 0.0386); indistinguishable over all problems (15–8) and at "
        "D=20 (5–6)." in text
    )
    assert _dimension_split(h, labels) == (
        " By problems won (A–B, sign test): A ahead at D=10 (10–2, p = 0.0386); "
        "indistinguishable at D=20 (5–6)."
    )


def test_no_significant_problem_on_either_side_is_said_in_words() -> None:
    h = head_to_head("A", "B", [("u_scores", "u", _result())], [], {})
    assert h is not None
    labels = Labels({})
    text = _head_to_head_finding(h, labels).text
    assert f"A is significantly better on {h.significant_a} and B on {h.significant_b} of" in text
    neither = dataclasses.replace(h, significant_a=0, significant_b=0)
    text = _head_to_head_finding(neither, labels).text
    assert (
        f"neither is significantly better than the other on any of the {h.problems} problems"
        in text
    )
    assert "better on 0" not in text


def test_the_totals_in_the_head_to_head_sentence_are_the_tables() -> None:
    """cec2022: 'EA4 still leads on the total U-score (186378 against 181916)' beside a U-score
    table printing 186378.5 and 181915.5 (U-scores count ties as halves)."""
    h = HeadToHead(
        a="EA4",
        b="NL-LBC",
        source="u_scores",
        share_a=0.41,
        significant_a=7,
        significant_b=14,
        problems=24,
        total_a=186378.5,
        total_b=181915.5,
        tested=True,
    )
    text = _head_to_head_finding(h, Labels({})).text
    assert "EA4 still leads on the total U-score (186378.5 against 181915.5)" in text


def test_one_problem_head_to_head_is_singular() -> None:
    """A one-problem study said "on any of the 1 problems"."""
    h = head_to_head("A", "B", [("u_scores", "u", _result())], [], {})
    assert h is not None
    labels = Labels({})
    one = dataclasses.replace(h, problems=1, significant_a=0, significant_b=0, by_group=())
    text = _head_to_head_finding(one, labels).text
    assert "neither is significantly better than the other on the one problem" in text
    text = _head_to_head_finding(dataclasses.replace(one, significant_b=1), labels).text
    assert "A is significantly better on 0 and B on 1 of 1 problem" in text
    assert "1 problems" not in text


def test_a_group_too_small_for_the_sign_test_is_not_called_indistinguishable() -> None:
    # A clean sweep of n problems gives the two-sided sign test p = 2·½ⁿ: 0.0625 for 5,
    # 0.03125 for 6 — at α = 0.05 it needs 6 problems won; at α = 0.01, 8 (2·½⁷ = 0.0156).
    assert not sign_test_can_reject(5, 0.05) and sign_test_can_reject(6, 0.05)
    assert sign_test_needs(0.05) == 6 and sign_test_needs(0.01) == 8
    assert not sign_test_can_reject(0, 0.05)
    # The group "last" (p11, p12 in both dimensions): B wins 3, A none, one split — cec2022's
    # unimodal group (2 problems, 2–0) was printed "indistinguishable" the same way.
    groups = {"first": ("p1", "p2", "p3"), "last": ("p11", "p12")}
    h = head_to_head("A", "B", [("u_scores", "u", _result())], [], groups)
    assert h is not None
    rows = {g.group: g for g in h.breakdown}
    assert not rows["last"].testable and rows["last"].ahead == ""
    assert rows["first"].testable and rows["D=20"].testable  # 6 won; 11 won
    text = _head_to_head_finding(h, Labels({})).text
    assert "indistinguishable over all problems (15–8) and at D=20 (5–6)" in text
    assert text.endswith(
        "too few problems won to test on the last problems (0–3) — the sign test needs 6 to "
        "reach α = 0.05."
    )
