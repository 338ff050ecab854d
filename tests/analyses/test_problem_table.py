"""Tests of the per-problem comparison table (rank-sum markers, Holm, W/T/L, A12).

Sources of the expected numbers:
- a hand calculation for a small case, written out in :func:`test_hand_calculation`;
- scipy.stats.mannwhitneyu per problem and an independent step-down Holm loop for random data.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pytest
from pydantic import ValidationError
from scipy.stats import mannwhitneyu

from reportgen.analyses.problem_table import (
    BETTER,
    SIMILAR,
    WORSE,
    a12_magnitude,
    adjust_p_values,
    compute,
    rank_sum,
    rank_sums,
)
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.errors import InputError
from reportgen.figures.style import make_style
from reportgen.narrative.problem_table import findings
from reportgen.render.sections.problem_table import build_section
from reportgen.spec.analyses.problem_table import ProblemTableOptions


def options(**kwargs: Any) -> ProblemTableOptions:
    return ProblemTableOptions(kind="problem_table", data="runs", **kwargs)


def trials(runs: dict[tuple[str, str], list[float]], dimension: int = 0) -> AnalysisData:
    rows = [
        {"algorithm": a, "problem": p, "dimension": dimension, "run": r, "value": v}
        for (a, p), values in runs.items()
        for r, v in enumerate(values, start=1)
    ]
    frame = pd.DataFrame(rows)
    algorithms = tuple(dict.fromkeys(a for a, _ in runs))
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    return AnalysisData("trials", frame, algorithms, problems)


LOW, HIGH = [1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0]
SMALL_CASE = {
    ("A", "f1"): LOW,
    ("A", "f2"): HIGH,
    ("A", "f3"): LOW,
    ("B", "f1"): HIGH,  # every run of B worse than every run of A
    ("B", "f2"): LOW,  # every run of B better
    ("B", "f3"): LOW,  # identical samples
}


def test_hand_calculation() -> None:
    """Two algorithms, three problems, five runs each; A is the reference.

    f1: B's runs 6..10 all lose to A's 1..5: U_B = #(B > A) = 25, A12 = 1 − 25/25 = 0; the exact
    two-sided p is 2 / C(10, 5) = 2/252 (only the two extreme orderings are as extreme).
    f2: mirror image: A12 = 1, p = 2/252. f3: identical samples, U = 12.5 = nm/2, p = 1.
    Holm over B's three p-values: sorted 2/252, 2/252, 1 → 3·2/252, max(3·2/252, 2·2/252),
    max(…, 1·1) = 6/252, 6/252, 1. At α = 0.05: f1 −, f2 +, f3 ≈, W/T/L 1/1/1.
    B on f1: mean 8, SD √2.5, median 8, Q1 7, Q3 9 (linear), best 6, worst 10.
    """
    result = compute(trials(SMALL_CASE), options(reference="A"))
    f1, f2, f3 = (result.cell("B", p, 0) for p in ("f1", "f2", "f3"))
    assert f1.p_value == pytest.approx(2 / 252)
    assert f2.p_value == pytest.approx(2 / 252)
    assert f3.p_value == pytest.approx(1.0)
    assert [f1.p_adjusted, f2.p_adjusted, f3.p_adjusted] == pytest.approx([6 / 252, 6 / 252, 1])
    assert [f1.a12, f2.a12, f3.a12] == [0.0, 1.0, 0.5]
    assert [f1.marker, f2.marker, f3.marker] == [WORSE, BETTER, SIMILAR]
    assert [f1.magnitude, f3.magnitude] == ["large", "negligible"]
    w = result.win_tie_loss("B")
    assert (w.wins, w.ties, w.losses) == (1, 1, 1)
    assert result.against_reference() == {"B": w}
    assert result.median_a12("B") == 0.5  # median of 0, 1, 0.5
    assert (f1.mean, f1.median, f1.q1, f1.q3, f1.best, f1.worst) == (8, 8, 7, 9, 6, 10)
    assert f1.std == pytest.approx(math.sqrt(2.5))
    assert result.cell("A", "f1", 0).marker == ""  # the reference has no marker
    assert result.best_in_row("f3", 0, "mean_sd") == ("A", "B")  # ties all bold
    csv = result.tables()["problem_table"]
    for column in ("algorithm", "problem", "dimension", "mean", "std", "median", "n"):
        assert column in csv.columns
    for column in ("p_value", "p_adjusted", "marker", "a12"):
        assert column in csv.columns
    # Bonferroni: 3·2/252 for both, the same here; at α = 0.02 nothing is significant.
    strict = compute(trials(SMALL_CASE), options(reference="A", alpha=0.02))
    assert {c.marker for c in strict.comparisons("B")} == {SIMILAR}
    none = compute(trials(SMALL_CASE), options(reference="A", correction="none"))
    assert none.cell("B", "f1", 0).p_adjusted == pytest.approx(2 / 252)


def test_a12_with_ties_and_magnitudes() -> None:
    """B = 2,2,2,2,2 against A = 1..5: per pair B wins against 3, 4, 5 (3/5), ties with 2
    (1/5): A12 = 3/5 + ½·1/5 = 0.7 — medium (0.64 ≤ 0.7 < 0.71)."""
    data = trials({("A", "f1"): LOW, ("B", "f1"): [2.0] * 5})
    cell = compute(data, options(reference="A")).cell("B", "f1", 0)
    assert cell.a12 == pytest.approx(0.7)
    assert cell.magnitude == "medium"
    assert [a12_magnitude(a) for a in (0.5, 0.56, 0.44, 0.64, 0.71, 0.29, 0.2)] == [
        "negligible",
        "small",
        "small",
        "medium",
        "large",
        "large",
        "large",
    ]


def holm_rejections(p: np.ndarray, alpha: float) -> np.ndarray:
    """Holm's step-down rule written out: reject p_(j) while p_(k) ≤ α/(M − k + 1), k ≤ j."""
    order = np.argsort(p, kind="stable")
    rejected = np.zeros(len(p), dtype=bool)
    for k, index in enumerate(order):
        if p[index] > alpha / (len(p) - k):
            break
        rejected[index] = True
    return rejected


def test_against_scipy_on_random_runs() -> None:
    rng = np.random.default_rng(17)
    runs = {}
    shifts = {"R": 0.0, "X": 0.8, "Y": -0.6}
    for algorithm, shift in shifts.items():
        for j in range(8):
            runs[(algorithm, f"f{j + 1}")] = list(rng.normal(shift * (j % 3), 1.0, size=12))
    result = compute(trials(runs, dimension=10), options(reference="R"))
    for algorithm in ("X", "Y"):
        problems = [f"f{j + 1}" for j in range(8)]
        p = np.array(
            [
                mannwhitneyu(runs[(algorithm, q)], runs[("R", q)], alternative="two-sided").pvalue
                for q in problems
            ]
        )
        cells = [result.cell(algorithm, q, 10) for q in problems]
        assert [c.p_value for c in cells] == pytest.approx(list(p), rel=1e-12)
        significant = [c.marker != SIMILAR for c in cells]
        assert significant == list(holm_rejections(p, 0.05))
        for q, c in zip(problems, cells, strict=True):
            x, y = np.array(runs[(algorithm, q)]), np.array(runs[("R", q)])
            a12 = (np.sum(x[:, None] < y[None, :]) + 0.5 * np.sum(x[:, None] == y[None, :])) / (
                x.size * y.size
            )
            assert c.a12 == pytest.approx(a12)
            if c.marker != SIMILAR:
                assert c.marker == (BETTER if a12 > 0.5 else WORSE)
    assert any(c.marker == BETTER for c in result.comparisons("Y"))
    assert any(c.marker == WORSE for c in result.comparisons("X"))


def test_adjust_p_values() -> None:
    # Holm by hand: sorted 0.01, 0.03, 0.04 → 3·0.01, max(.03, 2·.03), max(.06, 1·.04).
    assert adjust_p_values([0.01, 0.04, 0.03], "holm") == pytest.approx([0.03, 0.06, 0.06])
    assert adjust_p_values([0.01, 0.5], "bonferroni") == pytest.approx([0.02, 1.0])
    out = adjust_p_values([0.01, math.nan, 0.02], "holm")  # NaN is not in the family (M = 2)
    assert out[0] == pytest.approx(0.02) and math.isnan(out[1]) and out[2] == pytest.approx(0.02)


def test_reference_best_and_errors() -> None:
    result = compute(trials(SMALL_CASE), options())
    # Average ranks of the mean: f1 A 1, B 2; f2 A 2, B 1; f3 tie 1.5 each → tie → A.
    assert result.reference == "A" and result.reference_rule == "best"
    assert any(c.code == "reference_tie" for c in result.caveats)
    with pytest.raises(InputError, match="did you mean 'A'"):
        compute(trials(SMALL_CASE), options(reference="a"))
    with pytest.raises(ValidationError):
        options(correction="hochberg")
    with pytest.raises(ValidationError):
        options(alpha=1.5)


def test_too_few_runs_caveat() -> None:
    data = trials({("A", "f1"): [1.0, 2.0, 3.0], ("B", "f1"): [4.0, 5.0, 6.0]})
    result = compute(data, options(reference="A"))
    # n = m = 3: the smallest two-sided p is 2/C(6, 3) = 0.1 > 0.05.
    assert result.cell("B", "f1", 0).marker == SIMILAR
    assert any(c.code == "too_few_runs" for c in result.caveats)


def test_histories_at_a_budget() -> None:
    rows = []
    for algorithm, finals in (("A", LOW), ("B", HIGH)):
        for r, final in enumerate(finals, start=1):
            rows += [
                {"algorithm": algorithm, "problem": "f1", "dimension": 2, "run": r,
                 "evaluations": 1.0, "value": 100.0 + (50 if algorithm == "A" else 0)},
                {"algorithm": algorithm, "problem": "f1", "dimension": 2, "run": r,
                 "evaluations": 10.0, "value": final},
            ]  # fmt: skip
    data = AnalysisData("histories", pd.DataFrame(rows), ("A", "B"), (("f1", 2),))
    final = compute(data, options(reference="A"))
    assert final.cell("B", "f1", 2).marker == WORSE  # at the end A (1..5) beats B (6..10)
    early = compute(data, options(reference="A", budget=5))
    assert early.budget == {2: 5.0}
    assert early.cell("B", "f1", 2).mean == 100.0  # at 5 evaluations B is at 100, A at 150
    assert early.cell("B", "f1", 2).a12 == 1.0
    # A budget before every first record left no value: the error named the reference
    # ("'best' needs a problem on which every algorithm has a value"), not the budget.
    for reference in ("best", "A"):
        with pytest.raises(InputError) as raised:
            compute(data, options(reference=reference, budget=0.5))
        assert [p.where for p in raised.value.problems] == ["budget"]
        assert "the budget 0.5 ends before the first record of every run" in str(raised.value)


def test_summary_has_no_tests() -> None:
    frame = pd.DataFrame(
        {
            "algorithm": ["A", "B"],
            "problem": ["f1", "f1"],
            "dimension": [10, 10],
            "mean": [1.0, 2.0],
            "std": [0.1, 0.2],
        }
    )
    data = AnalysisData("summary", frame, ("A", "B"), (("f1", 10),))
    result = compute(data, options())
    assert not result.tested and result.cell("B", "f1", 10).marker == ""
    assert "win_tie_loss" not in result.tables()
    assert any(c.code == "no_runs" for c in result.caveats)


def test_section_paper_layout() -> None:
    result = compute(trials(SMALL_CASE), options(reference="A"))
    section = build_section(result, options(reference="A"), make_style(["A", "B"]))
    table = next(b for b in section.blocks if getattr(b, "name", "") == "problem_table_0D")
    frame, bold = table.frame, table.bold
    assert list(frame.columns) == ["problem", "A", "B"]
    assert frame["B"].tolist() == [
        "8 ±\u00a01.58\u00a0−",
        "3 ±\u00a01.58\u00a0+",
        "3 ±\u00a01.58\u00a0≈",
        "1/1/1",
    ]
    assert frame["A"].iloc[-1] == "reference"
    assert bold is not None
    assert bold["A"].tolist() == [True, False, True, False]
    assert bold["B"].tolist() == [False, True, True, False]
    assert "from the column algorithm's side" in table.notes


def test_win_tie_loss_per_dimension_and_function_group() -> None:
    """SMALL_CASE in two dimensions, f1 and f2 in group 'g1', f3 in 'g2'. Per dimension the
    hand calculation above holds (Holm over all six problems: the four p-values 2/252 all
    become max(6, 5, 4, 3)·2/252 = 12/252 ≈ 0.048 ≤ 0.05, so −, +, ≈ again): W/T/L 1/1/1 per dimension, 2/2/2 overall;
    g1 = {f1, f2} × 2 dimensions = 2/0/2, g2 = {f3} × 2 = 0/2/0."""
    frames = []
    for dimension in (10, 20):
        frames.append(trials(SMALL_CASE, dimension).frame)
    frame = pd.concat(frames, ignore_index=True)
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    data = AnalysisData(
        "trials", frame, ("A", "B"), problems, groups={"g1": ("f1", "f2"), "g2": ("f3",)}
    )
    result = compute(data, options(reference="A"))
    assert result.groups == ("all", "D=10", "D=20", "g1", "g2")
    counts = {g: result.win_tie_loss("B", g) for g in result.groups}
    assert [(w.wins, w.ties, w.losses) for w in counts.values()] == [
        (2, 2, 2),
        (1, 1, 1),
        (1, 1, 1),
        (2, 0, 2),
        (0, 2, 0),
    ]
    section = build_section(result, options(reference="A"), make_style(["A", "B"]))
    summary = next(b for b in section.blocks if getattr(b, "name", "") == "win_tie_loss")
    assert list(summary.frame.columns[1:6]) == [
        "W/T/L (all)",
        "W/T/L (D=10)",
        "W/T/L (D=20)",
        "W/T/L (g1)",
        "W/T/L (g2)",
    ]


def test_rank_sums_are_the_pairwise_rank_sum_tests() -> None:
    # The stacked calls give each sample exactly what its own call gives: samples of 3-40
    # values (exact and asymptotic tests, by SciPy's rule), ties from rounding, a NaN.
    source = np.random.default_rng(3)
    for case in range(30):
        reference = np.round(source.normal(size=int(source.integers(3, 40))), 1)
        samples = [
            np.round(source.normal(0.3, size=int(source.choice([5, 12, 30]))), int(case % 3))
            for _ in range(int(source.integers(1, 8)))
        ]
        if case % 5 == 0:
            samples[0][0] = np.nan
        got = rank_sums(samples, reference)
        for sample, (p_value, a12) in zip(samples, got, strict=True):
            expected_p, expected_a12 = rank_sum(sample, reference)
            assert p_value == expected_p or (np.isnan(p_value) and np.isnan(expected_p)), case
            assert a12 == expected_a12 or (np.isnan(a12) and np.isnan(expected_a12)), case


def test_the_median_a12_column_has_two_decimals() -> None:
    """Quickstart's Table 7 printed 0.53 above 0.1: two significant digits drop the trailing
    zero. B's median A12 is 0.5 (hand calculation above), printed 0.50 like the summary's."""
    result = compute(trials(SMALL_CASE), options(reference="A"))
    section = build_section(result, options(reference="A"), make_style(["A", "B"]))
    summary = next(b for b in section.blocks if getattr(b, "name", "") == "win_tie_loss")
    assert summary.frame["median A12"].tolist() == ["0.50"]


def test_tied_best_counts_are_a_shared_first_place() -> None:
    """Identical runs: every algorithm has the best mean on every problem. The finding said
    'A has the best mean on 2 of 2 problems (next: B, 2)', a first place by study order."""
    same = [1.0, 2.0, 3.0]
    data = trials({(a, p): same for a in ("A", "B", "C") for p in ("f1", "f2")})
    said = {f.id: f.text for f in findings(compute(data, options()), make_style(("A", "B", "C")))}
    assert said["bold"] == "A, B and C have the best mean on 2 of 2 problems each."
    # Two tied ahead of a third: the third is the "next".
    data = trials(
        {("A", "f1"): same, ("B", "f1"): same, ("C", "f1"): [5.0, 6.0, 7.0],
         ("A", "f2"): same, ("B", "f2"): same, ("C", "f2"): same}
    )  # fmt: skip
    said = {f.id: f.text for f in findings(compute(data, options()), make_style(("A", "B", "C")))}
    assert said["bold"].startswith("A and B have the best mean on 2 of 2 problems each")
    assert said["bold"].endswith("(next: C, 1).")


def summary_table(**columns: list[Any]) -> AnalysisData:
    frame = pd.DataFrame({"algorithm": ["A", "B"], "problem": ["f1", "f1"], "dimension": [10, 10]})
    for name, values in columns.items():
        frame[name] = values
    return AnalysisData("summary", frame, ("A", "B"), (("f1", 10),))


def test_value_floor_raises_a_published_table() -> None:
    """published_table with `value_floor: 1.0e-8` printed EA4eig's F1 (D=10) as
    8.31×10⁻⁹ ± 1.34×10⁻⁹ — the floor was applied to runs only and a summary table was left
    as printed, while the methods said 'Values below 10⁻⁸ were raised to it'. Hand values:
    A's every run (maximum 9e-9) lies below the floor, so its mean is 1e-8 and its SD 0;
    B's runs straddle it (minimum 5e-9, maximum 3.0): mean raised only if below, SD kept."""
    data = summary_table(
        mean=[8.3e-9, 1.5], std=[1.3e-9, 1.9], n=[30, 30],
        minimum=[5.6e-9, 5e-9], median=[8.6e-9, 9e-9], maximum=[9e-9, 3.0],
    )  # fmt: skip
    result = compute(data, options(value_floor=1e-8))
    a, b = result.cell("A", "f1", 10), result.cell("B", "f1", 10)
    assert (a.mean, a.std, a.best, a.median, a.worst) == (1e-8, 0.0, 1e-8, 1e-8, 1e-8)
    assert (b.mean, b.std, b.best, b.median, b.worst) == (1.5, 1.9, 1e-8, 1e-8, 3.0)
    floored = [c for c in result.caveats if c.code == "values_floored"]
    assert len(floored) == 1 and "(B, F1 (D=10))" in floored[0].where.upper()
    assert "A" not in floored[0].where.replace("(D=10)", "")
    # Without a floor the published numbers are shown as printed.
    assert compute(data, options()).cell("A", "f1", 10).mean == 8.3e-9


def test_shared_best_rows_are_said_when_one_algorithm_leads() -> None:
    """published_table, floored: 'EA4eig has the best mean on 20 of 24 problems (next:
    jSObinexpEig, 11)' — 31 of 24 unless the 7 shared rows are said. Here A is best on f1
    and ties B on f2: A 2 of 2, B 1, one shared row."""
    data = trials({("A", "f1"): [1.0, 2.0], ("B", "f1"): [3.0, 4.0],
                   ("A", "f2"): [1.0, 2.0], ("B", "f2"): [1.0, 2.0]})  # fmt: skip
    said = {f.id: f for f in findings(compute(data, options()), make_style(("A", "B")))}
    assert said["bold"].text == (
        "A has the best mean on 2 of 2 problems (next: B, 1). On 1 problem several "
        "algorithms share the best mean; each of them counts it."
    )
    assert said["bold"].numbers["shared_rows"] == 1


def test_bold_is_printed_apart_from_the_cells_beside_it() -> None:
    """published_table's F10 (D=10): means 100.15648 and 100.19302 both printed '100' at three
    digits, one of them bold. The row's means now get the digits that tell them apart (5:
    100.16 and 100.19), the SDs keep three; a row whose values differ at three digits keeps
    three."""
    data = summary_table(mean=[100.15648, 100.19302], std=[0.035956293, 0.023896821], n=[30, 30])
    section = build_section(compute(data, options()), options(), make_style(["A", "B"]))
    table = next(b for b in section.blocks if getattr(b, "name", "") == "problem_table_10D")
    assert table.frame.loc[0, "A"] == "100.16 ±\u00a00.036"
    assert table.frame.loc[0, "B"] == "100.19 ±\u00a00.0239"
    assert table.bold.loc[0].tolist() == [False, True, False]
    data = summary_table(mean=[1.5, 2.5], std=[0.1, 0.2], n=[30, 30])
    section = build_section(compute(data, options()), options(), make_style(["A", "B"]))
    table = next(b for b in section.blocks if getattr(b, "name", "") == "problem_table_10D")
    assert table.frame.loc[0, "A"] == "1.5 ±\u00a00.1"


def test_values_no_digit_prints_apart_add_no_digits() -> None:
    """cec2017's f22: DES's median 100.00000001 beside the others' 100 (bold) printed every
    cell of the row at eight digits — "100 (1.7770986×10⁻⁸)" — and still "100" for all.
    Here B's mean 100 + 10⁻⁸ cannot print apart from A's 100 at eight digits: the row keeps
    three."""
    data = summary_table(mean=[100.0, 100.00000001], std=[0.0, 1.7770986e-8], n=[30, 30])
    section = build_section(compute(data, options()), options(), make_style(["A", "B"]))
    table = next(b for b in section.blocks if getattr(b, "name", "") == "problem_table_10D")
    assert table.bold.loc[0].tolist() == [False, True, False]
    assert table.frame.loc[0, "A"] == "100 ±\u00a00"
    assert table.frame.loc[0, "B"] == "100 ±\u00a01.78×10⁻⁸"


def test_published_statistics_claim_no_test_and_no_reference() -> None:
    """published_table's section said 'a marker from a rank-sum test of its runs against the
    reference algorithm EA4eig' and 'Every algorithm is compared with EA4eig' above tables
    noted 'No tests'. Without runs neither sentence is said."""
    data = summary_table(mean=[1.0, 2.0], std=[0.1, 0.2], n=[30, 30])
    section = build_section(compute(data, options()), options(), make_style(["A", "B"]))
    intro = section.blocks[0].text
    assert "rank-sum test of its runs" not in intro and "no markers" in intro
    said = {f.id for f in findings(compute(data, options()), make_style(["A", "B"]))}
    assert "reference" not in said and "untested" in said


def test_the_legend_says_when_a_marker_points_against_the_mean() -> None:
    """cec2017_profiles' f21: PPSO's mean 104 printed in bold beside the reference's 114 with
    '−' (significantly worse): the legend now says the marker tests ranks, not means. Here
    A's runs are all 1 but one outlier (mean 12), B's all 2 (mean 2): B's runs are worse in
    80 of 100 pairs, so B is significantly worse with the better mean."""
    runs = {("A", "f1"): [1.0] * 9 + [101.0], ("B", "f1"): [2.0] * 10}
    result = compute(trials(runs, dimension=10), options(reference="A"))
    assert result.cell("B", "f1", 10).marker == "−"
    assert result.cell("B", "f1", 10).mean < result.cell("A", "f1", 10).mean
    section = build_section(result, options(reference="A"), make_style(["A", "B"]))
    table = next(b for b in section.blocks if getattr(b, "name", "") == "problem_table_10D")
    assert "in 1 cell the mean and the marker disagree (B on f1: better mean, marked worse)." in (
        table.notes
    )
    # The reverse (quickstart's BFGS on f9: mean worse, marked better) says so: the old
    # legend said "the mean is better ... and the marker says worse, or the reverse".
    flipped = {("A", "f1"): [2.0] * 10, ("B", "f1"): [1.0] * 9 + [101.0]}
    result = compute(trials(flipped, dimension=10), options(reference="A"))
    assert result.cell("B", "f1", 10).marker == "+"
    section = build_section(result, options(reference="A"), make_style(["A", "B"]))
    table = next(b for b in section.blocks if getattr(b, "name", "") == "problem_table_10D")
    assert "(B on f1: worse mean, marked better)." in table.notes
    assert "or the reverse" not in table.notes
    # Markers that agree with the means: no such sentence.
    result = compute(trials(SMALL_CASE, dimension=10), options(reference="A"))
    section = build_section(result, options(reference="A"), make_style(["A", "B"]))
    table = next(b for b in section.blocks if getattr(b, "name", "") == "problem_table_10D")
    assert "can point against" not in table.notes
