"""Golden tests of the perspectives analysis (papers/003, Poikolainen, Weber et al.).

Golden numbers come from the paper's printed tables (LaTeX labels cited per test), from
hand calculations written out below, from Demšar (2006, §3.2.2 worked example) and from the
author's own report of the Spiral-LSHADE data (../shared/data/spiral-lshade-12algs-cec14-cec22,
results_cec22_10D/appendix_figs/report.md). None of them is this code's output pasted back.
"""

from __future__ import annotations

import functools
import io
import json
import math
import operator
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from reportgen.analyses import perspectives
from reportgen.analyses.perspectives import (
    STATISTIC_COLUMNS,
    PerspectivesResult,
    compare,
    compute,
    holm_against_control,
    holm_step_down,
    iman_davenport,
    nemenyi_critical_difference,
    repeats_needed,
    repeats_quotient,
)
from reportgen.data.frames import AnalysisData, problem_label, sorted_problems
from reportgen.errors import InputError
from reportgen.figures.perspectives import critical_difference_diagram, figures
from reportgen.figures.style import make_style
from reportgen.narrative.perspectives import _perspective_findings, findings
from reportgen.render.blocks import FigureBlock, TableBlock, Text
from reportgen.render.sections.perspectives import build_section
from reportgen.spec.analyses.perspectives import PerspectivesOptions
from tests.conftest import SHARED_DATA, require_shared

ROOT = Path(__file__).resolve().parents[2]
SPIRAL = SHARED_DATA / "spiral-lshade-12algs-cec14-cec22" / "results_cec22_10D"

ALGORITHMS = ("DE", "CMA-ES", "SA")
PROBLEMS = tuple((f"f{i}", 10) for i in range(1, 7))

# papers/003, Table tab:cec2008-stats ("Mean, median, minimum and maximum fitness on the
# CEC 2008 benchmark in 10 dimensions"), typed as printed: per function, per algorithm
# (DE, CMA-ES, SA): mean, median, minimum, maximum.
CEC2008_STATS = {
    "f1": [(0.00e00, 0.00e00, 0.00e00, 0.00e00), (0.00e00, 0.00e00, 0.00e00, 0.00e00),
           (2.57e04, 2.38e04, 1.82e04, 3.39e04)],
    "f2": [(1.34e-03, 1.17e-03, 2.80e-04, 4.48e-03), (5.87e-14, 5.68e-14, 5.68e-14, 1.14e-13),
           (6.87e01, 7.01e01, 5.26e01, 7.61e01)],
    "f3": [(2.22e00, 2.08e00, 1.05e00, 3.64e00), (2.66e-01, 0.00e00, 0.00e00, 3.99e00),
           (3.73e09, 3.54e09, 1.83e09, 5.75e09)],
    "f4": [(7.57e01, 7.83e01, 4.78e01, 9.70e01), (2.83e02, 2.58e02, 2.69e01, 5.52e02),
           (2.25e02, 2.28e02, 1.76e02, 2.49e02)],
    "f5": [(5.94e-03, 1.69e-12, 0.00e00, 3.20e-02), (1.97e-03, 0.00e00, 0.00e00, 1.23e-02),
           (2.27e02, 2.30e02, 1.77e02, 2.92e02)],
    "f6": [(3.07e-13, 2.84e-13, 8.53e-14, 7.11e-13), (1.99e01, 1.99e01, 1.94e01, 2.00e01),
           (1.95e01, 1.95e01, 1.82e01, 2.00e01)],
}  # fmt: skip

# papers/003, Table tab:cec2008-reliability-prob (reliability Θ; columns DE, CMA-ES, SA).
CEC2008_RELIABILITY = {
    "f1": (1.00e00, 1.00e00, 0.00e00),
    "f2": (0.00e00, 9.66e-01, 0.00e00),
    "f3": (0.00e00, 9.33e-01, 0.00e00),
    "f4": (2.36e-01, 6.60e-02, 0.00e00),
    "f5": (3.96e-01, 7.69e-01, 0.00e00),
    "f6": (3.66e-01, 0.00e00, 0.00e00),
}

# papers/003, Table tab:cec2008-reliability-nrp (repeats for THR = 0.95, as printed).
CEC2008_REPEATS = {
    "f1": ("1.0", "1.0", "∞"),
    "f2": ("∞", "0.9", "∞"),
    "f3": ("∞", "1.1", "∞"),
    "f4": ("11.1", "43.9", "∞"),
    "f5": ("5.9", "2.0", "∞"),
    "f6": ("6.6", "∞", "∞"),
}

# papers/003, Table tab:cec2008-holm, rows as printed: (i, Optimizer, z, p, α/i, Hypothesis).
CEC2008_HOLM = {
    # tab:cec2008-holm-avg, "Reference algorithm is DE, ranking by mean"
    "mean": ("DE", [(2, "SA", "-1.88e+00", "3.03e-02", "2.50e-02", "Accepted"),
                    (1, "CMA-ES", "-2.89e-01", "3.86e-01", "5.00e-02", "Accepted")]),
    # tab:cec2008-holm-med, "Reference algorithm is DE, ranking by median"
    "median": ("DE", [(2, "SA", "-1.88e+00", "3.03e-02", "2.50e-02", "Accepted"),
                      (1, "CMA-ES", "-2.89e-01", "3.86e-01", "5.00e-02", "Accepted")]),
    # tab:cec2008-holm-acc, "Reference algorithm is CMA-ES, ranking by accuracy"
    "accuracy": ("CMA-ES", [(2, "SA", "-2.31e+00", "1.05e-02", "2.50e-02", "Rejected"),
                            (1, "DE", "-2.89e-01", "3.86e-01", "5.00e-02", "Accepted")]),
    # tab:cec2008-holm-rel, "Reference algorithm is CMA-ES, ranking by reliability"
    "reliability": ("CMA-ES", [(2, "SA", "-2.17e+00", "1.52e-02", "2.50e-02", "Rejected"),
                               (1, "DE", "-4.33e-01", "3.33e-01", "5.00e-02", "Accepted")]),
    # tab:cec2008-holm-rob, "Reference algorithm is DE, ranking by robustness"
    "robustness": ("DE", [(2, "SA", "-2.45e+00", "7.07e-03", "2.50e-02", "Rejected"),
                          (1, "CMA-ES", "-5.77e-01", "2.82e-01", "5.00e-02", "Accepted")]),
}  # fmt: skip


def options(**overrides: object) -> PerspectivesOptions:
    return PerspectivesOptions.model_validate({"kind": "perspectives", "data": "d", **overrides})


def cec2008_summary(maximum_overrides: dict[tuple[str, str], float] | None = None) -> AnalysisData:
    """The printed CEC 2008 statistics as a ``summary`` table."""
    rows = []
    for problem, per_algorithm in CEC2008_STATS.items():
        for algorithm, (mean, median, minimum, maximum) in zip(
            ALGORITHMS, per_algorithm, strict=True
        ):
            maximum = (maximum_overrides or {}).get((problem, algorithm), maximum)
            rows.append(
                {
                    "algorithm": algorithm,
                    "problem": problem,
                    "dimension": 10,
                    "mean": mean,
                    "median": median,
                    "minimum": minimum,
                    "maximum": maximum,
                }
            )
    return AnalysisData("summary", pd.DataFrame(rows), ALGORITHMS, PROBLEMS)


def printed_rows(result_rows: tuple) -> list[tuple[int, str, str, str, str, str]]:
    """Format Holm rows to the paper's printed precision and wording."""
    return [
        (
            row.i,
            row.algorithm,
            f"{row.z:.2e}",
            f"{row.p_value:.2e}",
            f"{row.alpha_i:.2e}",
            "Rejected" if row.rejected else "Accepted",
        )
        for row in result_rows
    ]


# ---------------------------------------------------------------------------------------------
# The paper's CEC 2008 tables
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("perspective", ["mean", "median", "accuracy"])
def test_cec2008_holm_tables_from_printed_statistics(perspective: str) -> None:
    result = compute(cec2008_summary(), options(alternative="one-sided"))
    comparison = result.comparison(perspective)
    control, expected = CEC2008_HOLM[perspective]
    assert comparison.control == control
    assert comparison.n_problems == 6
    assert printed_rows(comparison.holm) == expected


def test_cec2008_holm_reliability_from_printed_reliability_table() -> None:
    values = pd.DataFrame(CEC2008_RELIABILITY, index=list(ALGORITHMS)).T
    comparison = compare(values, "reliability", alpha=0.05, alternative="one-sided")
    control, expected = CEC2008_HOLM["reliability"]
    assert comparison.control == control
    assert printed_rows(comparison.holm) == expected


def test_cec2008_robustness_differs_only_by_the_tie_at_printed_precision() -> None:
    control, expected = CEC2008_HOLM["robustness"]
    # As printed, CMA-ES and SA both have maximum 2.00e+01 on f6: a tie (METHODS.md: ties at
    # printed precision are real ties), so they share rank 2.5 and the table differs.
    printed = compute(cec2008_summary(), options(alternative="one-sided"))
    robustness = printed.comparison("robustness")
    assert robustness.ranks.loc["f6 (D=10)", "CMA-ES"] == 2.5
    assert robustness.ranks.loc["f6 (D=10)", "SA"] == 2.5
    assert "f6 (D=10)" in robustness.tied_problems
    assert printed_rows(robustness.holm) != expected
    # Hand calculation: mean ranks DE 8.5/6, CMA-ES 11/6, SA 16.5/6; SE = √(3·4/36) = 0.57735.
    assert [f"{row.z:.2e}" for row in robustness.holm] == ["-2.31e+00", "-7.22e-01"]
    tie_caveats = [c for c in printed.caveats if c.code == "ties_at_precision"]
    assert any(c.message.startswith("robustness") and "f6" in c.where for c in tie_caveats)

    # Breaking only that tie, with CMA-ES's true maximum below SA's, reproduces the printed
    # table to every printed digit; breaking it the other way does not.
    resolved = compute(
        cec2008_summary({("f6", "CMA-ES"): 19.96}), options(alternative="one-sided")
    ).comparison("robustness")
    assert resolved.control == control
    assert printed_rows(resolved.holm) == expected
    reversed_tie = compute(
        cec2008_summary({("f6", "SA"): 19.96}), options(alternative="one-sided")
    ).comparison("robustness")
    assert printed_rows(reversed_tie.holm) != expected


def test_cec2008_repeats_quotient_reproduces_the_printed_table() -> None:
    for problem, thetas in CEC2008_RELIABILITY.items():
        printed = tuple(
            "∞" if math.isinf(t := repeats_quotient(theta, 0.95)) else f"{t:.1f}"
            for theta in thetas
        )
        assert printed == CEC2008_REPEATS[problem], problem


# Whole repeats for the paper's reliabilities, by hand: the smallest t ≥ 1 with
# 1 − (1 − Θ)^t ≥ 0.95. f3 CMA-ES Θ = 0.933: 0.067² = 0.0045 → t = 2 (0.067¹ = 0.067 > 0.05).
# f4 DE Θ = 0.236: 0.764^11 = 0.0519 > 0.05, 0.764^12 = 0.0396 → 12. f4 CMA-ES Θ = 0.066:
# 0.934^44 = 0.0494 → 44 (0.934^43 = 0.0529). f5 DE Θ = 0.396: 0.604^5 = 0.0806, 0.604^6 =
# 0.0487 → 6. f5 CMA-ES Θ = 0.769: 0.231² = 0.0534 > 0.05 (the paper's "2.0"), 0.231³ → 3.
# f6 DE Θ = 0.366: 0.634^6 = 0.0649, 0.634^7 = 0.0411 → 7. Θ = 0.966 and Θ = 1 both need 1.
CEC2008_WHOLE_REPEATS = {
    "f1": (1, 1, math.inf),
    "f2": (math.inf, 1, math.inf),
    "f3": (math.inf, 2, math.inf),
    "f4": (12, 44, math.inf),
    "f5": (6, 3, math.inf),
    "f6": (7, math.inf, math.inf),
}


def test_repeats_are_whole_numbers_of_runs() -> None:
    for problem, thetas in CEC2008_RELIABILITY.items():
        whole = tuple(repeats_needed(theta, 0.95) for theta in thetas)
        assert whole == CEC2008_WHOLE_REPEATS[problem], problem
        for theta, t in zip(thetas, whole, strict=True):
            if not math.isinf(t):  # the defining property: t suffices and t − 1 does not
                assert t >= 1 and 1 - (1 - theta) ** t >= 0.95
                assert t == 1 or 1 - (1 - theta) ** (t - 1) < 0.95
    # Exact boundaries survive rounding: Θ = 0.9, THR = 0.99 → 1 − 0.1² = 0.99, t = 2;
    # Θ = 0.5, THR = 0.75 → t = 2; Θ = 0.5, THR = 0.95 → log(0.05)/log(0.5) = 4.32 → 5.
    assert repeats_needed(0.9, 0.99) == 2
    assert repeats_needed(0.5, 0.75) == 2
    assert repeats_needed(0.5, 0.95) == 5
    assert repeats_needed(0.0, 0.95) == math.inf
    assert repeats_needed(1.0, 0.95) == 1
    assert repeats_quotient(0.5, 0.95) == pytest.approx(4.3219280949, rel=1e-10)


def test_repeats_table_whole_numbers_bold_by_highest_reliability() -> None:
    # f1 in the hand example below: Θ_A = 0.2 → t = ⌈13.4⌉ = 14, Θ_B = 0 → ∞. A third
    # algorithm C with Θ = 1 and one with Θ = 0.96 both need one run; only C (highest Θ) is best.
    rows = [
        {"algorithm": a, "problem": p, "dimension": 0, "run": r, "value": float(v)}
        for p in ("f1", "f2")
        for a, vs in (
            ("A", [0] + [50] * 24),  # 1 of 25 runs ≤ θ_f
            ("C", [0] * 25),  # all 25
            ("D", [0] * 24 + [50]),  # 24 of 25 = 0.96
        )
        for r, v in enumerate(vs)
    ]
    data = AnalysisData("trials", pd.DataFrame(rows), ("A", "C", "D"), (("f1", 0), ("f2", 0)))
    result = compute(data, options())
    f1 = result.statistics[result.statistics["problem"] == "f1"].set_index("algorithm")
    assert f1.loc["C", "reliability"] == 1.0 and f1.loc["D", "reliability"] == 0.96
    # 1 − 0.04^1 = 0.96 ≥ 0.95 → one run; 1 − 0.96^t ≥ 0.95 → t = ⌈log 0.05 / log 0.96⌉ = 74.
    assert (f1.loc["C", "repeats"], f1.loc["D", "repeats"], f1.loc["A", "repeats"]) == (1, 1, 74)
    assert f1.loc["D", "repeats_quotient"] == pytest.approx(math.log(0.05) / math.log(0.04))
    section = build_section(result, options(), make_style(("A", "C", "D")))
    table = next(b for b in section.blocks if isinstance(b, TableBlock) and b.name == "repeats")
    assert list(table.frame.loc[0, ["A", "C", "D"]]) == ["74", "1", "1"]
    assert table.bold is not None
    assert list(table.bold.loc[0, ["A", "C", "D"]]) == [False, True, False]


def test_equal_sums_tie_exactly_in_the_mean() -> None:
    # Issue 12's example: X and Y have the same exact sum (5.7) with different summands. A plain float sum gives 5.699999999999999 for X
    # and 5.7 for Y, so the means differ in the last bit and the ranks would be 1 and 2.
    x = [1.0, 1.2, 0.5, 0.25, 1.4, 0.25, 1.1]
    y = [0.25, 1.4, 1.0, 0.5, 0.25, 1.3, 1.0]
    # the trap this test is about, summed left to right (numpy's sums; Python's own sum()
    # compensates from 3.12 on, so it no longer shows it)
    assert functools.reduce(operator.add, x) != functools.reduce(operator.add, y)
    rows = [
        {"algorithm": a, "problem": p, "dimension": 0, "run": r, "value": v}
        for p in ("f1", "f2")
        for a, vs in (("X", x), ("Y", y), ("Z", [9.0] * 7))
        for r, v in enumerate(vs)
    ]
    data = AnalysisData("trials", pd.DataFrame(rows), ("X", "Y", "Z"), (("f1", 0), ("f2", 0)))
    mean = compute(data, options()).comparison("mean")
    assert list(mean.mean_ranks) == [1.5, 1.5, 3.0]
    assert mean.tied_problems == ("f1", "f2")


def test_iman_davenport_infinite_is_written_with_its_meaning() -> None:
    # Every problem ranks A < B < C: χ²_F = N(k − 1) = 2·4 = 8 for N = 4, so F_F's denominator
    # N(k − 1) − χ²_F is 0 and F_F = ∞.
    rows = [
        {"algorithm": a, "problem": f"f{i}", "dimension": 0, "run": r, "value": v + r}
        for i in range(1, 5)
        for a, v in (("A", 1.0), ("B", 10.0), ("C", 100.0))
        for r in range(3)
    ]
    problems = tuple((f"f{i}", 0) for i in range(1, 5))
    data = AnalysisData("trials", pd.DataFrame(rows), ("A", "B", "C"), problems)
    result = compute(data, options())
    mean = result.comparison("mean")
    assert mean.friedman_chi2 == pytest.approx(8.0)
    assert mean.iman_davenport_infinite
    section = build_section(result, options(), make_style(("A", "B", "C")))
    holm = next(b for b in section.blocks if isinstance(b, TableBlock) and b.name == "holm_mean")
    assert "Iman–Davenport F = ∞ (p = 0): every problem ranks the algorithms in the same" in (
        holm.caption
    )
    assert "inf" not in holm.caption


def test_summary_input_lists_what_it_cannot_compute() -> None:
    result = compute(cec2008_summary(), options())
    reasons = {u.perspective: u.reason for u in result.unavailable}
    assert set(reasons) == {"reliability", "efficiency"}
    assert "per-run values" in reasons["reliability"]
    assert "running times" in reasons["efficiency"]
    assert [c.perspective for c in result.comparisons] == [
        "mean",
        "median",
        "accuracy",
        "robustness",
    ]
    texts = [f.text for f in findings(result, make_style(ALGORITHMS))]
    assert any(t.startswith("Ranking by reliability is not available") for t in texts)


def test_cec2008_narrative_names_the_disagreement() -> None:
    result = compute(cec2008_summary(), options(alternative="one-sided"))
    by_id = {f.id: f for f in findings(result, make_style(ALGORITHMS))}
    text = by_id["disagreement.significance"].text
    assert "by the mean final value and the median final value no difference is significant" in text
    assert "by accuracy and robustness SA is significantly worse" in text
    assert by_id["disagreement.mean"].numbers["only_other"] == {"SA": ["accuracy", "robustness"]}


# ---------------------------------------------------------------------------------------------
# Friedman, Iman–Davenport, Holm, Nemenyi
# ---------------------------------------------------------------------------------------------


def random_trials(seed: int, k: int = 5, n: int = 8, runs: int = 7) -> AnalysisData:
    rng = np.random.default_rng(seed)
    algorithms = tuple(f"A{j}" for j in range(k))
    rows = [
        {
            "algorithm": a,
            "problem": f"p{i}",
            "dimension": 0,
            "run": r,
            "value": float(rng.lognormal(0.2 * j, 1.0)),
        }
        for i in range(n)
        for j, a in enumerate(algorithms)
        for r in range(runs)
    ]
    frame = pd.DataFrame(rows)
    return AnalysisData(
        "trials", frame, algorithms, sorted_problems((f"p{i}", 0) for i in range(n))
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_friedman_agrees_with_scipy_and_the_textbook_formula(seed: int) -> None:
    data = random_trials(seed)
    result = compute(data, options(perspectives=["mean", "accuracy"]))
    frame = data.frame
    aggregations: tuple[tuple[str, Literal["mean", "min"]], ...] = (
        ("mean", "mean"),
        ("accuracy", "min"),
    )
    for perspective, how in aggregations:
        table = frame.pivot_table(
            index="problem", columns="algorithm", values="value", aggfunc=how, observed=True
        )
        matrix = table[list(data.algorithms)].to_numpy()
        expected = stats.friedmanchisquare(*matrix.T)
        comparison = result.comparison(perspective)
        assert comparison.friedman_chi2 == pytest.approx(expected.statistic, rel=1e-12)
        assert comparison.friedman_p == pytest.approx(expected.pvalue, rel=1e-12)
        # Continuous data, no ties: χ²_F = 12N/(k(k+1)) Σ R_j² − 3N(k+1) (Demšar 2006, eq. in §3.2.2).
        n, k = matrix.shape
        mean_ranks = stats.rankdata(matrix, axis=1).mean(axis=0)
        textbook = 12 * n / (k * (k + 1)) * np.sum(mean_ranks**2) - 3 * n * (k + 1)
        assert comparison.friedman_chi2 == pytest.approx(textbook, rel=1e-12)


def test_iman_davenport_and_critical_difference_demsar_example() -> None:
    # Demšar (2006) §3.2.2 worked example: N = 14 data sets, k = 4, χ²_F = 9.28 → F_F = 3.69;
    # Nemenyi q_0.05 = 2.569 and CD = 2.569·√(4·5/(6·14)) = 1.25.
    f_statistic, p = iman_davenport(9.28, 14, 4)
    assert f"{f_statistic:.2f}" == "3.69"
    assert p == pytest.approx(stats.f.sf(f_statistic, 3, 39))
    q_alpha, cd = nemenyi_critical_difference(4, 14, 0.05)
    assert f"{q_alpha:.3f}" == "2.569"
    assert f"{cd:.2f}" == "1.25"


def test_holm_step_down_hand_calculation() -> None:
    # Hypotheses A, B, C with p = 0.01, 0.04, 0.03 and α = 0.05. Sorted: A 0.01, C 0.03, B 0.04.
    # Step 1 (i = 3): 0.01 ≤ 0.05/3 = 0.016667 → reject A.
    # Step 2 (i = 2): 0.03 > 0.05/2 = 0.025 → accept C, and stop.
    # Step 3 (i = 1): 0.04 ≤ 0.05 alone, but not rejected: Holm stops at the first acceptance.
    steps = holm_step_down([0.01, 0.04, 0.03], 0.05)
    assert [(s.i, s.index, s.rejected) for s in steps] == [
        (3, 0, True),
        (2, 2, False),
        (1, 1, False),
    ]
    assert [s.alpha_i for s in steps] == pytest.approx([0.05 / 3, 0.025, 0.05])


def phi(x: float) -> float:
    """Standard normal CDF from the error function (independent of scipy)."""
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def test_holm_against_control_hand_calculation() -> None:
    # k = 4, N = 10, mean ranks A 1.5, B 2.2, C 2.9, D 3.4; SE = √(4·5/(6·10)) = √(1/3).
    # z_B = −0.7/0.57735 = −1.21244, z_C = −1.4/0.57735 = −2.42487, z_D = −1.9/0.57735 = −3.29090.
    # One-sided p = Φ(z): D 4.995e-4 ≤ 0.05/3 reject; C 7.66e-3 ≤ 0.025 reject; B 0.1127 > 0.05.
    ranks = pd.Series({"A": 1.5, "B": 2.2, "C": 2.9, "D": 3.4})
    se = math.sqrt(1 / 3)
    rows = holm_against_control(ranks, "A", 10, 0.05, "one-sided")
    assert [(r.i, r.algorithm, r.rejected) for r in rows] == [
        (3, "D", True),
        (2, "C", True),
        (1, "B", False),
    ]
    for row, diff in zip(rows, (1.9, 1.4, 0.7), strict=True):
        assert row.z == pytest.approx(-diff / se, rel=1e-12)
        assert row.p_value == pytest.approx(phi(-diff / se), rel=1e-9)
    assert rows[-1].p_value == pytest.approx(0.1127, abs=5e-5)  # normal table: Φ(−1.2124)
    two_sided = holm_against_control(ranks, "A", 10, 0.05, "two-sided")
    for row, diff in zip(two_sided, (1.9, 1.4, 0.7), strict=True):
        assert row.p_value == pytest.approx(2 * phi(-diff / se), rel=1e-9)
    # Two-sided at α = 0.05: D 9.99e-4 ≤ 0.0167 reject; C 0.0153 ≤ 0.025 reject; B 0.225 no.
    assert [r.rejected for r in two_sided] == [True, True, False]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=3, max_value=7),
    st.integers(min_value=2, max_value=9),
    st.integers(min_value=0, max_value=2**32 - 1),
)
def test_ranks_and_holm_properties(k: int, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = pd.DataFrame(
        rng.integers(0, 4, size=(n, k)).astype(float),  # many ties on purpose
        index=[f"p{i}" for i in range(n)],
        columns=[f"A{j}" for j in range(k)],
    )
    comparison = compare(values, "mean")
    # Each problem's ranks sum to k(k+1)/2, so the mean ranks do too.
    assert comparison.mean_ranks.sum() == pytest.approx(k * (k + 1) / 2)
    rejected = [row.rejected for row in comparison.holm]
    assert rejected == sorted(rejected, reverse=True)  # rejections are a prefix
    assert [row.i for row in comparison.holm] == list(range(k - 1, 0, -1))
    p = [row.p_value for row in comparison.holm]
    assert p == sorted(p)
    # Nemenyi groups: members pairwise closer than CD.
    for group in comparison.cd_groups:
        spread = comparison.mean_ranks[list(group)].max() - comparison.mean_ranks[list(group)].min()
        assert spread < comparison.critical_difference


# ---------------------------------------------------------------------------------------------
# Per-run statistics, θ_f, inputs
# ---------------------------------------------------------------------------------------------


def test_threshold_and_reliability_hand_calculation() -> None:
    # A: 0, 2, 4, 6, 8; B: 1, 3, 5, 7, 9 on one problem. Union 0..9, 'linear' 10% quantile:
    # position 0.1·(10 − 1) = 0.9 → θ_f = 0.9. Θ_A = 1/5 (only 0 ≤ 0.9), Θ_B = 0.
    # Repeats: A log(0.05)/log(0.8) = 13.425, B ∞. Two problems (the second a copy).
    rows = [
        {
            "algorithm": a,
            "problem": p,
            "dimension": 0,
            "run": r,
            "value": float(v),
            "time_seconds": t,
        }
        for p in ("f1", "f2")
        for a, vs, t in (("A", (0, 2, 4, 6, 8), 2.0), ("B", (1, 3, 5, 7, 9), 1.5))
        for r, v in enumerate(vs)
    ]
    data = AnalysisData("trials", pd.DataFrame(rows), ("A", "B"), (("f1", 0), ("f2", 0)))
    result = compute(data, options())
    f1 = result.statistics[result.statistics["problem"] == "f1"].set_index("algorithm")
    assert f1.loc["A", "threshold"] == pytest.approx(0.9)
    assert f1.loc["A", "reliability"] == pytest.approx(0.2)
    assert f1.loc["B", "reliability"] == 0.0
    # Repeats: the smallest whole t with 1 − 0.8^t ≥ 0.95: 0.8^13 = 0.055, 0.8^14 = 0.044 → 14.
    assert f1.loc["A", "repeats"] == 14
    assert f1.loc["A", "repeats_quotient"] == pytest.approx(math.log(0.05) / math.log(0.8))
    assert f1.loc["B", "repeats"] == math.inf
    assert (f1.loc["A", "accuracy"], f1.loc["A", "robustness"]) == (0.0, 8.0)
    assert f1.loc["A", "median"] == 4.0 and f1.loc["A", "std"] == pytest.approx(math.sqrt(10))
    assert f1.loc["B", "efficiency"] == 1.5
    assert result.comparison("efficiency").best == "B"
    # Ranking by wall-clock time carries its caveat wherever it ranks.
    assert "wall_clock_efficiency" in {c.code for c in result.caveats}
    said = {f.id: f.text for f in findings(result, make_style(("A", "B")))}
    assert "hardware" in said["best.efficiency"] and "stopping rule" in said["holm.efficiency"]
    assert result.comparison("reliability").best == "A"
    # Two algorithms: Holm works; Friedman (k ≥ 3) is undefined and said so.
    assert result.comparison("mean").friedman_chi2 is None
    # Threshold method option: 'higher' takes the order statistic above → θ_f = 1, Θ_B = 1/5.
    higher = compute(data, options(threshold_method="higher")).statistics
    assert (
        higher.loc[(higher["problem"] == "f1") & (higher["algorithm"] == "B"), "reliability"].item()
        == 0.2
    )

    payload = json.dumps(result.to_json(), allow_nan=False)
    assert '"repeats": "inf"' in payload
    tables = result.tables()
    assert list(tables["holm"].columns) == [
        "perspective", "control", "i", "algorithm", "z", "p_value", "alpha_i", "rejected",
    ]  # fmt: skip
    assert list(tables["friedman"].columns)[:1] + list(tables["friedman"].columns)[3:7] == [
        "perspective", "chi2", "p_value", "iman_davenport_f", "iman_davenport_p",
    ]  # fmt: skip


def test_missing_time_column_makes_efficiency_unavailable() -> None:
    result = compute(random_trials(4), options())
    assert [u.perspective for u in result.unavailable] == ["efficiency"]
    assert "time_seconds" in result.unavailable[0].reason


def test_rejects_an_unknown_control() -> None:
    data = random_trials(5)
    with pytest.raises(InputError, match="did you mean 'A1'"):
        compute(data, options(control="a1"))
    named = compute(data, options(control="A3"))
    assert {c.control for c in named.comparisons} == {"A3"}


def test_section_and_figures_render() -> None:
    result = compute(cec2008_summary(), options(alternative="one-sided"))
    style = make_style(ALGORITHMS)
    section = build_section(result, options(alternative="one-sided"), style)
    tables = {b.name: b for b in section.blocks if isinstance(b, TableBlock)}
    assert {"synthesis", "mean_ranks", "holm_mean", "statistics_accuracy"} <= set(tables)
    for table in tables.values():
        assert table.bold is None or table.bold.shape == table.frame.shape
    assert "one-sided" in tables["holm_accuracy"].caption
    accuracy_bold = tables["statistics_accuracy"].bold
    assert (
        accuracy_bold is not None
        and bool(accuracy_bold.loc[0, "DE"])
        and bool(accuracy_bold.loc[0, "CMA-ES"])
    )  # f1: DE and CMA-ES tie at 0.00e+00, both bold
    assert sum(isinstance(b, FigureBlock) for b in section.blocks) == 4
    assert not figures(compute(cec2008_summary(), options(critical_difference=False)), style)
    # The paper's case against the sample mean is the paper's, not a fact the report asserts.
    (intro, *_) = [b for b in section.blocks if isinstance(b, Text)]
    assert intro.text.startswith("Poikolainen, Weber et al. argue that the sample mean")


# ---------------------------------------------------------------------------------------------
# Real per-run data: the perspectives disagree
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spiral_cec22_10d() -> tuple[AnalysisData, PerspectivesResult]:
    path = SPIRAL / "cec2022_results.csv"
    require_shared(path, "the SPIRAL reference results")
    raw = pd.read_csv(path)
    frame = pd.DataFrame(
        {
            "algorithm": raw["alg"].astype(str),
            "problem": "F" + raw["fid"].astype(str),
            "dimension": raw["dim"].astype(int),
            "run": raw["run"].astype(int),
            "value": raw["err"].astype(float),
            "time_seconds": raw["time_sec"].astype(float),
        }
    )
    algorithms = tuple(sorted(frame["algorithm"].unique()))
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    data = AnalysisData("trials", frame, algorithms, problems)
    return data, compute(data, options())


def test_spiral_mean_matches_the_authors_report(spiral_cec22_10d) -> None:
    # results_cec22_10D/appendix_figs/report.md: Friedman χ² = 102.619 on the mean error,
    # mean ranks (lower = better) and Nemenyi CD = 4.81 at α = 0.05.
    _, result = spiral_cec22_10d
    mean = result.comparison("mean")
    assert f"{mean.friedman_chi2:.3f}" == "102.619"
    assert f"{mean.critical_difference:.2f}" == "4.81"
    report_ranks = {"jSO": 2.333, "NLSHADE-RSP": 2.833, "Spiral-LSHADE": 3.333, "LSHADE": 3.417,
                    "JADE": 4.250, "PSO": 7.333, "CMAES": 7.583, "SciPyDE": 7.917, "GWO": 8.083,
                    "GA": 8.667, "SSA": 10.417, "LBFGSB": 11.833}  # fmt: skip
    assert {a: round(float(r), 3) for a, r in mean.mean_ranks.items()} == report_ranks


def test_spiral_perspectives_disagree(spiral_cec22_10d) -> None:
    data, result = spiral_cec22_10d
    # Independent check of the accuracy ranking: per-function minimum error, average ranks.
    minima = data.frame.pivot_table(
        index="problem", columns="algorithm", values="value", aggfunc="min", observed=True
    )
    accuracy_ranks = minima.rank(axis=1, method="average").mean()
    assert result.comparison("accuracy").mean_ranks.to_dict() == pytest.approx(
        accuracy_ranks.to_dict()
    )
    # The best algorithm depends on the perspective: jSO by the mean, JADE (tied with
    # NLSHADE-RSP, 3.29) by accuracy, LBFGSB (fastest everywhere) by efficiency.
    assert result.comparison("mean").best == "jSO"
    assert set(accuracy_ranks[accuracy_ranks == accuracy_ranks.min()].index) == {
        "JADE",
        "NLSHADE-RSP",
    }
    assert result.comparison("accuracy").best == "JADE"
    assert result.comparison("efficiency").best == "LBFGSB"
    # CMA-ES is significantly worse than the control by the mean, not by accuracy. Hand: k = 12,
    # N = 12, SE = √(12·13/72) = 1.4720. Mean: z = (2.333 − 7.583)/1.4720 = −3.567,
    # p = 2Φ(−3.567) = 3.6e-4, sixth smallest p (i = 6) after five rejections: 3.6e-4 ≤ 0.05/6.
    # Accuracy: z = (3.292 − 4.542)/1.4720 = −0.849, p = 0.40 > 0.05 — never rejected.
    assert "CMAES" in result.comparison("mean").rejected
    assert "CMAES" not in result.comparison("accuracy").rejected
    by_id = {f.id: f for f in findings(result, make_style(data.algorithms))}
    assert by_id["disagreement.best"].text.startswith(
        "The best algorithm depends on the perspective"
    )
    # The tie by accuracy is named as a tie, not settled by study order ("JADE has the best
    # mean rank" and "JADE by accuracy" were printed; NLSHADE-RSP's 3.29 is the same).
    assert "JADE and NLSHADE-RSP (tied) by accuracy" in by_id["disagreement.best"].text
    assert by_id["best.accuracy"].text.startswith(
        "By accuracy, JADE and NLSHADE-RSP share the best mean rank (3.29 over 12 problems); "
        "Friedman χ² = 92.53"
    )
    assert (
        "JADE, the first of them in study order, is the control of Holm's procedure."
        in by_id["best.accuracy"].text
    )
    assert by_id["best.accuracy"].numbers["tied_best"] == ["JADE", "NLSHADE-RSP"]
    assert by_id["best.mean"].text.startswith("By the mean final value, jSO has the best mean rank")
    assert result.comparison("accuracy").tied_best == ("JADE", "NLSHADE-RSP")
    section = build_section(result, options(), make_style(data.algorithms))
    (table,) = [b for b in section.blocks if isinstance(b, TableBlock) and b.name == "synthesis"]
    best = dict(zip(table.frame["Perspective"], table.frame["Best (mean rank)"], strict=True))
    assert best["accuracy"] == "JADE, NLSHADE-RSP (3.29; control JADE)"
    assert best["mean final value"] == "jSO (2.33)"
    assert "accuracy" in by_id["disagreement.mean"].numbers["only_mean"]["CMAES"]


def test_cd_diagram_with_twelve_algorithms_renders(spiral_cec22_10d) -> None:
    data, result = spiral_cec22_10d
    specs = figures(result, make_style(data.algorithms))
    assert [s.name for s in specs] == [f"cd_{c.perspective}" for c in result.comparisons]
    buffer = io.BytesIO()
    specs[0].figure.savefig(buffer, format="png")
    assert buffer.getvalue()[:4] == b"\x89PNG"


def test_holm_can_separate_what_a_nemenyi_bar_joins() -> None:
    # k = 5, N = 20. 14 problems rank C, X, Y, Z, W; 6 rank C, Y, X, Z, W. Mean ranks: C 1,
    # X (14·2 + 6·3)/20 = 2.3, Y 2.7, Z 4, W 5. SE = √(5·6/(6·20)) = 0.5.
    # Nemenyi: q_0.05(5) = 2.728 (Demšar 2006, Table 5a), CD = 2.728·0.5 = 1.364 > 1.3 = R_X − R_C,
    # so one bar joins C and X. Holm two-sided against C: z_X = −1.3/0.5 = −2.6, p = 0.0093,
    # tested last at α/1 = 0.05 after W (z −8), Z (−6) and Y (−3.4, p = 6.7e-4 ≤ 0.025) → rejected.
    first, second = ("C", "X", "Y", "Z", "W"), ("C", "Y", "X", "Z", "W")
    orders = [first] * 14 + [second] * 6
    values = pd.DataFrame(
        [{a: float(order.index(a) + 1) for a in first} for order in orders],
        index=[f"f{i}" for i in range(1, 21)],
    )
    c = compare(values, "mean")
    assert c.critical_difference == pytest.approx(1.364, abs=1e-3)
    assert float(c.mean_ranks["X"]) == pytest.approx(2.3)
    assert c.rejected == ("W", "Z", "Y", "X")
    assert c.holm_nemenyi_conflicts() == ("X",)
    said = {f.id: f.text for f in _perspective_findings(c, make_style(first))}
    assert "X differs significantly from C by Holm's procedure, yet" in said["nemenyi_holm.mean"]
    assert "Both are correct for their own question" in said["nemenyi_holm.mean"]
    # Said once: a later perspective with the same conflict refers to the first's reason.
    again = {f.id: f.text for f in _perspective_findings(c, make_style(first), explained=True)}
    assert again["nemenyi_holm.mean"] == (
        "By the mean final value, X differs significantly from C by Holm's procedure, yet the "
        "critical-difference diagram joins them (CD = 1.36), for the reason above."
    )


def test_cd_diagram_marks_holms_verdicts_so_print_needs_no_holm_table() -> None:
    # The same ranks as above: Holm rejects W, Z, Y and X against the control C, so every label
    # but C's carries the asterisk, and C's is bold.
    first, second = ("C", "X", "Y", "Z", "W"), ("C", "Y", "X", "Z", "W")
    orders = [first] * 14 + [second] * 6
    values = pd.DataFrame(
        [{a: float(order.index(a) + 1) for a in first} for order in orders],
        index=[f"f{i}" for i in range(1, 21)],
    )
    c = compare(values, "mean")
    figure = critical_difference_diagram(c, make_style(first))
    labels = {t.get_text().split()[0]: t for t in figure.axes[0].texts if "(" in t.get_text()}
    assert labels["C"].get_text() == "C (1.00)" and labels["C"].get_fontweight() == "bold"
    assert labels["X"].get_text() == "X (2.30) *"
    assert all(labels[a].get_text().endswith(" *") for a in ("W", "Z", "Y", "X"))


def test_holm_tables_stay_in_the_html_when_the_diagram_is_printed() -> None:
    style = make_style(ALGORITHMS)
    for with_diagrams in (True, False):
        opts = options(critical_difference=with_diagrams)
        section = build_section(compute(cec2008_summary(), opts), opts, style)
        holm = [b for b in section.blocks if isinstance(b, TableBlock) and "holm_" in b.name]
        assert holm and all(t.in_print is not with_diagrams for t in holm)
        # The diagrams print every mean rank beside its algorithm: the mean-rank table too.
        ranks = next(
            b for b in section.blocks if isinstance(b, TableBlock) and b.name == "mean_ranks"
        )
        assert ranks.in_print is not with_diagrams


def test_problem_statistics_are_pandas_groupby_statistics_bit_for_bit() -> None:
    # The statistics are computed on arrays; on random trials (NaN and ∞ among the values,
    # categorical and plain names, a few or many runs, ties from rounding) they must be
    # exactly what pandas' groupby gives: count, median, std (Welford), min, max.
    source = np.random.default_rng(7)
    given_options = options()
    for case in range(60):
        n = int(source.integers(1, 250))
        frame = pd.DataFrame(
            {
                "algorithm": pd.Categorical(source.choice(list("ABCDE"), n)),
                "problem": pd.Categorical(source.choice(["f1", "f2", "f3"], n)),
                "dimension": source.choice([10, 20], n),
                "run": np.arange(n),
                "value": source.lognormal(size=n) * 10.0 ** source.integers(-9, 9),
                "time_seconds": source.random(n),
            }
        )
        if case % 3 == 0:
            frame["value"] = frame["value"].round(1)
            frame["algorithm"] = frame["algorithm"].astype(str)
        if case % 5 == 0:
            frame.loc[source.integers(0, n, 3), "value"] = np.nan
        if case % 7 == 0:
            frame.loc[source.integers(0, n, 2), "value"] = np.inf
        keys = ["problem", "dimension", "algorithm"]
        expected = (
            frame.groupby(keys, sort=False, observed=True)["value"]
            .agg(n_runs="count", median="median", std="std", accuracy="min", robustness="max")
            .reset_index()
        )
        expected["n_runs"] = expected["n_runs"].astype(float)
        expected["efficiency"] = (
            frame.groupby(keys, sort=False, observed=True)["time_seconds"].min().to_numpy()
        )
        got = perspectives._problem_statistics(frame, options=given_options)
        columns = ["n_runs", "median", "std", "accuracy", "robustness", "efficiency"]
        pd.testing.assert_frame_equal(
            got[columns], expected[columns], check_exact=True, obj=f"case {case}"
        )
        for key in keys:
            assert got[key].astype(str).tolist() == expected[key].astype(str).tolist()


def test_statistic_places_each_cell_of_the_statistics_table() -> None:
    # statistic() is the statistics table pivoted: problems (labels, table order) × algorithms
    # (study order); checked cell by cell against the long table for every column.
    result = compute(random_trials(4, k=4, n=6), options())
    statistics = result.statistics
    for column in STATISTIC_COLUMNS:
        wide = result.statistic(column)
        assert list(wide.columns) == list(result.algorithms)
        assert len(wide) == 6
        for row in statistics.itertuples(index=False):
            label = problem_label(str(row.problem), int(row.dimension))
            expected = getattr(row, column)
            got = wide.loc[label, row.algorithm]
            assert got == expected or (math.isnan(got) and math.isnan(expected)), column
