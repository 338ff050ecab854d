"""A study in which every algorithm is the same algorithm: no finding may name a winner.

The data are one CEC 2022 entrant's trials and convergence histories (from the example
study) copied under three names, so every statistic of the three is equal and any "winner"
could only come from study order.
"""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from reportgen.pipeline import run_study
from tests.conftest import ROOT, write

DATA = ROOT / "example_studies" / "cec2022" / "data"

SPEC = """
study:
  title: Three copies of one algorithm
minimize: true
data:
  trials:
    path: data/trials.csv
    format: trials
    columns: {problem: function, dimension: dim, value: final_error,
              evaluations_to_target: fes_to_target, evaluations_used: fes_used}
  curves:
    path: data/histories.csv
    format: histories
    columns: {problem: function, dimension: dim, evaluations: fes, value: error}
algorithms: [A, B, C]
analyses:
  - kind: u_scores
    data: trials
    target: 1.0e-8
    failed_tie_break: evaluations_used
  - kind: performance_profiles
    data: curves
    tolerances: [1.0e-1, 1.0e-5]
    lambdas: [2]
  - kind: perspectives
    data: trials
    perspectives: [mean, accuracy, robustness]
    control: best
  - kind: significance_relation
    data: trials
    statistic: mean
    value_floor: 1.0e-8
    sigmas: [auto]
report:
  output: out
  formats: [html]
"""

# Words that would crown an algorithm.
WINNER_WORDS = re.compile(
    r"(?<!no algorithm )\b(wins|is best|is first|first by|recommendation|significantly better|leads)\b"
)


def _copies(frame: pd.DataFrame) -> pd.DataFrame:
    one = frame[frame["algorithm"] == "S-DP"]
    one = one[one["function"].isin(["F1", "F2", "F4", "F6", "F9", "F12"])]
    return pd.concat([one.assign(algorithm=name) for name in ("A", "B", "C")])


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("identical")
    (folder / "data").mkdir()
    _copies(pd.read_csv(DATA / "cec2022_trials.csv")).to_csv(
        folder / "data" / "trials.csv", index=False
    )
    _copies(pd.read_csv(DATA / "cec2022_histories.csv.gz")).to_csv(
        folder / "data" / "histories.csv", index=False
    )
    spec = write(folder, "study.yaml", SPEC)
    results = run_study(spec, folder / "out")
    assert results.output_dir is not None
    return json.loads((results.output_dir / "results.json").read_text(encoding="utf-8"))


def _all_findings(report: dict) -> list[dict]:
    found = list(report["summary"]["findings"])
    for analysis in report["analyses"].values():
        found.extend(analysis["findings"])
    return found


def test_the_bottom_line_says_no_algorithm_is_ahead(report: dict) -> None:
    bottom = report["summary"]["bottom_line"]
    assert bottom["text"].startswith("Bottom line: no algorithm is ahead")
    assert bottom["numbers"]["leaders"] == []


def test_no_finding_names_a_winner(report: dict) -> None:
    crowning = [f["text"] for f in _all_findings(report) if WINNER_WORDS.search(f["text"])]
    assert crowning == [], "\n".join(crowning)


def test_every_ranking_ties_and_none_is_counted(report: dict) -> None:
    for ranking in report["summary"]["rankings"]:
        assert set(ranking["ranks"].values()) == {1.0}, ranking["id"]
        assert ranking["status"] == "degenerate"
    assert report["summary"]["kendall_tau"] == []


def test_first_place_is_shared_equally_in_every_resample(report: dict) -> None:
    table = pd.DataFrame(report["summary"]["ranking_uncertainty"]["table"])
    assert len(table) > 0
    # Resampling the problems only, the three stay tied in every resample: exactly 1/3 each.
    problems = table[table["resampled"] == "problems"]
    assert len(problems) > 0
    assert problems["p_first"].tolist() == pytest.approx([1 / 3] * len(problems))
    assert (problems["rank_low"] == 1).all() and (problems["rank_high"] == 1).all()
    # Resampling the runs too, each copy draws its own runs: the order is random, symmetric
    # between the copies — each is first in about a third of the resamples, and ranks 1 to 3.
    runs = table[table["resampled"] == "problems and runs"]
    assert len(runs) > 0
    assert runs["p_first"].tolist() == pytest.approx([1 / 3] * len(runs), abs=0.05)
    assert (runs["rank_low"] == 1).all() and (runs["rank_high"] == 3).all()
