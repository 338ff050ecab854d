"""Golden tests of the perspectives analysis (papers/003, Poikolainen, Weber et al.).

Golden numbers come from the paper's printed tables (LaTeX labels cited per test), from
hand calculations written out below, from Demšar (2006, §3.2.2 worked example) and from the
author's own report of the Spiral-LSHADE data (../shared/data/spiral-lshade-12algs-cec14-cec22,
results_cec22_10D/appendix_figs/report.md). None of them is this code's output pasted back.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from reportgen.analyses.perspectives import (
    PerspectivesResult,
    compare,
    compute,
    holm_against_control,
    holm_step_down,
    iman_davenport,
    nemenyi_critical_difference,
    repeats_needed,
)
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.errors import InputError
from reportgen.figures.perspectives import figures
from reportgen.figures.style import make_style
from reportgen.narrative.perspectives import findings
from reportgen.render.blocks import FigureBlock, TableBlock
from reportgen.render.sections.perspectives import build_section
from reportgen.spec.analyses.perspectives import PerspectivesOptions
from tests.conftest import SHARED_DATA

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


def test_cec2008_repeats_table_from_printed_reliability() -> None:
    for problem, thetas in CEC2008_RELIABILITY.items():
        printed = tuple(
            "∞" if math.isinf(t := repeats_needed(theta, 0.95)) else f"{t:.1f}" for theta in thetas
        )
        assert printed == CEC2008_REPEATS[problem], problem


def test_repeats_conventions() -> None:
    # papers/003 equation for t: t = log(1 − THR)/log(1 − Θ), with t = ∞ for Θ = 0, 1 for Θ = 1.
    assert round(repeats_needed(0.966, 0.95), 1) == 0.9  # not rounded up to 1 (METHODS.md)
    assert repeats_needed(0.0, 0.95) == math.inf
    assert repeats_needed(1.0, 0.95) == 1.0
    # Hand: log(0.05)/log(0.5) = 4.321928...
    assert repeats_needed(0.5, 0.95) == pytest.approx(4.3219280949, rel=1e-10)


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
    assert "by the mean and the median no difference is significant" in text
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
        table = frame.pivot_table(index="problem", columns="algorithm", values="value", aggfunc=how)
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
    assert f1.loc["A", "repeats"] == pytest.approx(math.log(0.05) / math.log(0.8))
    assert f1.loc["B", "repeats"] == math.inf
    assert (f1.loc["A", "accuracy"], f1.loc["A", "robustness"]) == (0.0, 8.0)
    assert f1.loc["A", "median"] == 4.0 and f1.loc["A", "std"] == pytest.approx(math.sqrt(10))
    assert f1.loc["B", "efficiency"] == 1.5
    assert result.comparison("efficiency").best == "B"
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


def test_rejects_histories_and_unknown_control() -> None:
    data = random_trials(5)
    histories = AnalysisData("histories", data.frame, data.algorithms, data.problems)
    with pytest.raises(InputError, match=r"'trials'.*'summary'"):
        compute(histories, options())
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


# ---------------------------------------------------------------------------------------------
# Real per-run data: the perspectives disagree
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spiral_cec22_10d() -> tuple[AnalysisData, PerspectivesResult]:
    path = SPIRAL / "cec2022_results.csv"
    if not path.exists():
        pytest.skip(f"shared data folder absent: {SPIRAL} (read-only reference data)")
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
        index="problem", columns="algorithm", values="value", aggfunc="min"
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
    assert "accuracy" in by_id["disagreement.mean"].numbers["only_mean"]["CMAES"]


def test_cd_diagram_with_twelve_algorithms_renders(spiral_cec22_10d) -> None:
    data, result = spiral_cec22_10d
    specs = figures(result, make_style(data.algorithms))
    assert [s.name for s in specs] == [f"cd_{c.perspective}" for c in result.comparisons]
    buffer = io.BytesIO()
    specs[0].figure.savefig(buffer, format="png")
    assert buffer.getvalue()[:4] == b"\x89PNG"
