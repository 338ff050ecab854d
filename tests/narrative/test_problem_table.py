"""Sentences of the problem table: a first place several algorithms share names them all.

Runs of 5 at three levels; two samples at different levels are separated completely, so the
two-sided exact Mann–Whitney p is 2/252 ≈ 0.0079, and Holm over the three problems multiplies
it by at most 3 (0.024 ≤ 0.05): every level difference below is significant, equal levels tie.
"""

from __future__ import annotations

from reportgen.analyses.problem_table import compute
from reportgen.narrative.problem_table import findings
from reportgen.present.labels import Labels
from tests.analyses.test_problem_table import options, trials

LOW, MID, HIGH = [1.0, 2, 3, 4, 5], [6.0, 7, 8, 9, 10], [11.0, 12, 13, 14, 15]


def said(levels: dict[str, tuple[list[float], ...]]) -> dict[str, str]:
    runs = {
        (a, f"f{k}"): values for a, per in levels.items() for k, values in enumerate(per, start=1)
    }
    result = compute(trials(runs), options(reference="R"))
    return {f.id: f.text for f in findings(result, Labels({}))}


def test_algorithms_that_lose_equally_often_are_named_together() -> None:
    # perspectives_cec2022: "SSA loses most often to jSO (W/T/L 0/0/12)" — GWO and LBFGSB
    # lose on all 12 problems too; the last of the three in study order was named.
    text = said(
        {
            "R": (MID, MID, MID),
            "A": (HIGH, HIGH, MID),  # 0/1/2
            "B": (HIGH, HIGH, MID),  # 0/1/2
            "C": (LOW, MID, MID),  # 1/2/0
        }
    )
    assert text["wtl.worst"] == "A and B (W/T/L 0/1/2 each) lose most often to R."
    assert text["wtl.best"] == (
        "C is significantly better than R on more problems than worse; the best balance is "
        "C's (W/T/L 1/2/0)."
    )


def test_loses_most_often_counts_losses_not_the_balance() -> None:
    # E wins once and loses twice (balance −1), G loses once (balance −1): the worst balance is
    # shared, and the old rule (last of the worst balance in study order) named G, which loses
    # less often than E.
    text = said(
        {
            "R": (MID, MID, MID),
            "C": (LOW, MID, MID),  # 1/2/0
            "E": (LOW, HIGH, HIGH),  # 1/0/2
            "G": (HIGH, MID, MID),  # 0/2/1
        }
    )
    assert text["wtl.worst"] == "E (W/T/L 1/0/2) loses most often to R."


def test_a_shared_best_balance_is_said_to_be_shared() -> None:
    text = said(
        {
            "R": (MID, MID, MID),
            "C": (LOW, MID, MID),  # 1/2/0
            "D": (LOW, MID, HIGH),  # 1/1/1, balance 0
            "H": (MID, LOW, MID),  # 1/2/0
        }
    )
    assert text["wtl.best"] == (
        "C and H are significantly better than R on more problems than worse; the best "
        "balance is shared by C and H (W/T/L 1/2/0 each)."
    )
    # Every significant difference separates two levels completely (A12 0 or 1): large.
    assert text["effects"].startswith("All 4 significant differences are large")
    # A12 = P(better) + ½ P(tie): "beats ... 71 % of the time" alone is wrong where runs tie
    # (values at a floor), so the sentence says how ties count.
    assert text["effects"].endswith("at least 71 % of the time, ties counting half).")


def test_the_most_best_means_when_two_share_it() -> None:
    # quickstart: "BIPOP-CMA-ES has the best mean on 8 of 24 problems (next: CMA-ES-CSA, 8)".
    # Best means: f1 and f2 C and H (LOW), f3 R and K (LOW); so 2, 2, 1, 1.
    text = said(
        {
            "R": (MID, MID, LOW),
            "C": (LOW, LOW, MID),
            "H": (LOW, LOW, MID),
            "K": (HIGH, HIGH, LOW),
        }
    )
    assert (
        text["bold"]
        == "C and H have the best mean on 2 of 3 problems each (next: R and K, 1 each)."
    )
