"""The executive summary's use of the problem table, and the wall-clock caveat on efficiency.

Expected numbers are counted by hand from a small study (five runs per cell, minimised):

======  ===========  ============  ==============  ============
        R (ref.)     A             B               A12 of A, B
======  ===========  ============  ==============  ============
f1      1..5         11..15        21..25          0, 0
f2      11..15       1..5          21..25          1, 0
f3      2,4,6,8,10   1,3,5,7,9     21..25          0.6, 0
f4      11..15       1..5          21..25          1, 0
======  ===========  ============  ==============  ============

A12 = P(a run of the algorithm is smaller than a run of R) + ½ P(tie). f3: A's 1 beats all 5 of
R's runs, 3 beats 4, 5 beats 3, 7 beats 2, 9 beats 1: 15/25 = 0.6 (small: 0.06 ≤ |0.6 − 0.5| <
0.14). Complete separation of 5 against 5 runs has the exact two-sided p = 2/C(10, 5) = 2/252;
Holm over four problems multiplies the smallest by 4: 8/252 ≈ 0.032 < 0.05, so every completely
separated problem is significant; f3 (U = 10 of 25) is far from it. Hence A: + on f2, f4, ≈ on
f3, − on f1: W/T/L 2/1/1, median A12 = median(0, 0.6, 1, 1) = 0.8 (large: ≥ 0.21 from ½).
B loses every problem: 0/0/4, median A12 0 (large).
"""

from __future__ import annotations

import pandas as pd

from reportgen.analyses.perspectives import WALL_CLOCK
from reportgen.analyses.problem_table import compute
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.present.labels import Labels
from reportgen.spec.analyses.problem_table import ProblemTableOptions
from reportgen.synthesis.head_to_head import head_to_head
from reportgen.synthesis.rankings import BEST, FINAL_VALUES, NOT_SIGNIFICANT, Ranking
from reportgen.synthesis.summary import synthesise

LOW, HIGH, WORST = [1, 2, 3, 4, 5], [11, 12, 13, 14, 15], [21, 22, 23, 24, 25]
RUNS = {
    "R": {"f1": LOW, "f2": HIGH, "f3": [2, 4, 6, 8, 10], "f4": HIGH},
    "A": {"f1": HIGH, "f2": LOW, "f3": [1, 3, 5, 7, 9], "f4": LOW},
    "B": {"f1": WORST, "f2": WORST, "f3": WORST, "f4": WORST},
}


def _table(only: str | None = None, runs: dict[str, dict[str, list[int]]] = RUNS) -> object:
    """The problem table of ``runs`` (``only``: of that one problem)."""
    frame = pd.DataFrame(
        [
            {"algorithm": a, "problem": p, "dimension": 10, "run": r, "value": float(v)}
            for a, by_problem in runs.items()
            for p, values in by_problem.items()
            for r, v in enumerate(values, start=1)
            if only in (None, p)
        ]
    )
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    data = AnalysisData("trials", frame, tuple(runs), problems)
    return compute(data, ProblemTableOptions(kind="problem_table", data="runs", reference="R"))


def _mean_ranking(**kw: object) -> Ranking:
    return Ranking(
        id="p:mean",
        analysis_id="p",
        label="mean",
        family=FINAL_VALUES,
        **{"ranks": {"R": 1.0, "A": 2.0, "B": 3.0}, **kw},  # type: ignore[arg-type]
    )


def test_the_table_counts_by_hand() -> None:
    table = _table()
    a, b = table.win_tie_loss("A"), table.win_tie_loss("B")  # type: ignore[attr-defined]
    assert (a.wins, a.ties, a.losses) == (2, 1, 1)
    assert (b.wins, b.ties, b.losses) == (0, 0, 4)
    assert table.median_a12("A") == 0.8  # type: ignore[attr-defined]


def test_wtl_and_a12_against_the_reference_in_the_summary() -> None:
    result = synthesise(
        [_mean_ranking()],
        ("R", "A", "B"),
        Labels({}),
        outcomes=[("problem_table", "problem_table", _table())],
        resamples=50,
    )
    (finding,) = [f for f in result.findings if f.id == "summary.problem_table.problem_table"]
    assert finding.text == (
        "Against R, the reference of the problem table (two-sided Mann–Whitney U test per "
        "problem, Holm correction over problems, α = 0.05; A12 is the probability that a run of "
        "the algorithm beats a run of R, ties counting half), problems significantly better / "
        "not different / worse: A 2/1/1 of 4 (median A12 0.80, large); B is significantly worse "
        "on 4 of 4 problems (median A12 0.00, large)."
    )
    assert finding.numbers["rows"] == {"A": {"wins": 2, "ties": 1, "losses": 1, "median_a12": 0.8}}
    assert finding.numbers["others"] == {
        "algorithms": ["B"],
        "losses": [4, 4],
        "max_median_a12": 0.0,
    }
    # Without a U-score analysis the head-to-head of the leader R and its contender A comes from
    # the table's own tests: A significantly better on f2, f4; R on f1.
    (pair,) = result.head_to_heads
    assert (pair.a, pair.b, pair.significant_a, pair.significant_b, pair.problems) == (
        "R",
        "A",
        1,
        2,
        4,
    )
    assert pair.a12_b == 0.8
    assert "Mann–Whitney U" in pair.test and "Holm" in pair.test
    (h2h,) = [f for f in result.findings if f.id == "summary.head_to_head.R.A"]
    # 4 problems won: even 4–0 gives p = 2·½⁴ = 0.125, so the sign test has no verdict to give;
    # it was said to find them "indistinguishable".
    # The per-problem tests and A12 of A against R are rule 8's ("A 2/1/1 of 4 (median A12
    # 0.80, large)" above): the head-to-head points to them instead of stating them twice.
    assert h2h.text == (
        "Head to head in the problem table, R against A (per-problem tests and median A12: see "
        "'Against R' below). Problems won (R–A; "
        "a problem goes to the one with A12 on its side; two-sided sign test over the problems "
        "won, α = 0.05; table 'Head to head'): too few problems won to test over all problems "
        "(1–3) — the sign test needs 6 to reach α = 0.05."
    )
    # A12 on A's side on f2, f4 (0 and 1 by construction) and f3 (A [1, 3, …, 9] against
    # R [2, 4, …, 10]: 15 of 25 pairs A smaller, A12 = 0.6); on R's side on f1: 1–3. Sign test
    # 2·P(X ≤ 1 | n = 4, ½) = 2·5/16 = 0.625 ≥ 0.05: indistinguishable.
    (row,) = pair.breakdown
    assert (row.wins_a, row.wins_b, row.ahead) == (1, 3, "")
    assert row.sign_p == 0.625
    # More significant wins for A: the bottom line names both, with the test.
    assert result.bottom_line is not None
    assert result.bottom_line.text.startswith("Bottom line: R or A.")
    assert "A is significantly better on 2 of 4 problems and R on 1 (two-sided Mann–Whitney" in (
        result.bottom_line.text
    )


def test_head_to_head_from_the_reference_side_mirrors() -> None:
    h = head_to_head("A", "R", [("problem_table", "t", _table())], [])
    assert h is not None
    assert (h.significant_a, h.significant_b, h.problems) == (2, 1, 4)
    assert h.a12_b == 1 - 0.8  # R against A: the complement
    # Neither is the reference: the table cannot compare A with B directly.
    assert head_to_head("A", "B", [("problem_table", "t", _table())], []) is None


def test_the_first_sentence_ranking_by_efficiency_carries_the_wall_clock_caveat() -> None:
    # Stated in full once, by the first sentence that ranks by efficiency; the next one
    # points to it (the same caveat after every sentence read as a summary padded out).
    caveat = WALL_CLOCK.strip()
    efficiency = Ranking(
        id="p:efficiency",
        analysis_id="p",
        label="efficiency",
        ranks={"B": 1.0, "A": 2.0, "R": 3.0},
        verdicts={"B": "best", "A": "worse", "R": "worse"},
        significance="efficiency (Friedman test, Holm's procedure)",
        family="other family",
        caveat=caveat,
    )
    result = synthesise([_mean_ranking(), efficiency], ("R", "A", "B"), Labels({}), resamples=20)
    texts = {f.id: f.text for f in result.findings}
    assert texts["summary.first.B"] == "B is first by other family (efficiency). " + caveat
    assert texts["summary.significance.p:efficiency"] == (
        "By efficiency (Friedman test, Holm's procedure), B is significantly better than every "
        "other algorithm. (Caveat on efficiency: see above.)"
    )
    assert caveat not in texts["summary.first.R"]  # the mean ranks quality, not time


def test_the_bottom_line_scopes_not_significant_to_the_verdict_matrix() -> None:
    """A leader the ranking's test cannot separate from C, but which the problem table puts
    ahead of C: the bottom line must not say "no test finds it significantly better than C".

    L's five runs are 1..5 and C's 11..15 on each of six problems: complete separation, exact
    two-sided p = 2/252 per problem, Holm over six: 6·2/252 = 0.048 < 0.05, so L is
    significantly better on all six; L wins all six problems, sign test 2·(½)⁶ = 0.03125 < 0.05.
    """
    problems = [f"f{i}" for i in range(1, 7)]
    frame = pd.DataFrame(
        [
            {"algorithm": a, "problem": p, "dimension": 10, "run": r, "value": float(v)}
            for a, values in (("L", LOW), ("C", HIGH))
            for p in problems
            for r, v in enumerate(values, start=1)
        ]
    )
    keys = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    table = compute(
        AnalysisData("trials", frame, ("L", "C"), keys),
        ProblemTableOptions(kind="problem_table", data="runs", reference="L"),
    )
    ranking = Ranking(
        id="p:mean",
        analysis_id="p",
        label="mean",
        ranks={"L": 1.0, "C": 2.0},
        verdicts={"L": BEST, "C": NOT_SIGNIFICANT},
        family=FINAL_VALUES,
    )
    result = synthesise(
        [ranking],
        ("L", "C"),
        Labels({}),
        outcomes=[("problem_table", "problem_table", table)],
        resamples=50,
    )
    assert result.bottom_line is not None
    text = result.bottom_line.text
    assert "no test finds" not in text
    assert text.startswith(
        "Bottom line: L leads, but its lead over C is not significant in any test of the verdict "
        "matrix; head to head, though, it wins more problems than C (6–0, sign test p = 0.0312; "
        "table 'Head to head')."
    )
    assert result.bottom_line.numbers["ahead_head_to_head"] == ["C"]


def test_several_worse_algorithms_are_summarised_and_one_is_named() -> None:
    """B and C (31..35) lose every problem to R: not named, summarised with the larger of
    their median A12 (both 0); with B alone (the test above) B is named, not "the other
    algorithm", which left the reader to work out which one it was."""
    runs = {**RUNS, "C": {p: [v + 10 for v in WORST] for p in ("f1", "f2", "f3", "f4")}}
    result = synthesise(
        [_mean_ranking(ranks={"R": 1.0, "A": 2.0, "B": 3.0, "C": 4.0})],
        ("R", "A", "B", "C"),
        Labels({}),
        outcomes=[("problem_table", "problem_table", _table(runs=runs))],
        resamples=50,
    )
    (finding,) = [f for f in result.findings if f.id == "summary.problem_table.problem_table"]
    assert finding.text.endswith(
        "; the other 2 algorithms are significantly worse on 4 of 4 problems (median A12 at "
        "most 0.00, large)."
    )
    assert finding.numbers["others"]["algorithms"] == ["B", "C"]


def test_one_problem_counts_read_in_the_singular() -> None:
    """On f1 alone ("worse on 1 of 1 problems" before): R beats A and B, 5 runs against 5
    completely separated (p = 2/252, no correction over one problem)."""
    result = synthesise(
        [_mean_ranking()],
        ("R", "A", "B"),
        Labels({}),
        outcomes=[("problem_table", "problem_table", _table(only="f1"))],
        resamples=50,
    )
    (finding,) = [f for f in result.findings if f.id == "summary.problem_table.problem_table"]
    assert "A 0/0/1 of 1 (" in finding.text
    assert finding.text.endswith(
        "; B is significantly worse on 1 of 1 problem (median A12 0.00, large)."
    )


def test_a_shared_first_place_with_one_worse_algorithm_reads_in_the_singular() -> None:
    """R and A share first place, B is worse than R: "1 of 2 algorithms are" before."""
    from reportgen.synthesis.rankings import WORSE
    from reportgen.synthesis.summary import _significance

    ranking = _mean_ranking(
        verdicts={"R": BEST, "A": NOT_SIGNIFICANT, "B": WORSE},
        significance="a test",
        ranks={"R": 1.0, "A": 1.0},
    )
    finding = _significance(ranking, Labels({}))
    assert finding is not None
    assert finding.text.endswith("the test's reference, 1 of 2 algorithms is significantly worse.")


def test_rows_that_tie_against_the_reference_keep_study_order() -> None:
    # Zed and Alpha run exactly as the reference R on four problems: W/T/L 0/4/0 and median
    # A12 0.5 each. The rows were sorted by label on such ties (Alpha before Zed); study order
    # (R, Zed, Alpha) now decides, as for every list that is no ranking.
    frame = pd.DataFrame(
        [
            {"algorithm": a, "problem": p, "dimension": 10, "run": r, "value": float(v)}
            for a in ("R", "Zed", "Alpha")
            for p in ("f1", "f2", "f3", "f4")
            for r, v in enumerate(LOW, start=1)
        ]
    )
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    table = compute(
        AnalysisData("trials", frame, ("R", "Zed", "Alpha"), problems),
        ProblemTableOptions(kind="problem_table", data="runs", reference="R"),
    )
    result = synthesise(
        [_mean_ranking(ranks={"R": 1.0, "Zed": 2.0, "Alpha": 3.0})],
        ("R", "Zed", "Alpha"),
        Labels({}),
        outcomes=[("problem_table", "problem_table", table)],
        resamples=20,
    )
    (finding,) = [f for f in result.findings if f.id == "summary.problem_table.problem_table"]
    assert "Zed 0/4/0 of 4 (median A12 0.50, negligible); Alpha 0/4/0 of 4" in finding.text
