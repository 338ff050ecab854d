"""Published numbers beside the recomputed ones (an analysis's ``published:``)."""

from __future__ import annotations

import dataclasses

import pandas as pd

from reportgen.pipeline import compute_study, load_study
from tests.conftest import HISTORIES_CSV, ROOT, SPEC, run_cli, write

EXAMPLES = ROOT / "example_studies"


def _only_first_analysis(path):
    """The example's spec with only its first analysis and the source that analysis reads."""
    spec = load_study(path)
    first = spec.study.analyses[0]
    study = spec.study.model_copy(
        update={"analyses": [first], "data": {first.data: spec.study.data[first.data]}}
    )
    return dataclasses.replace(spec, study=study)


def test_cec2022_table7_side_by_side():
    results = compute_study(_only_first_analysis(EXAMPLES / "cec2022" / "study.yaml"))
    frame = results.analyses[0].published.frame.set_index("algorithm")
    # Twelve of thirteen rows of the paper's Table 7 agree; Co-PPSO differs, with its note.
    assert frame.index[frame["differs"]].tolist() == ["Co-PPSO"]
    assert frame.loc["Co-PPSO", "notes"] == "(a)"
    # Hand check: with 30 trials and 13 entrants every problem's U-scores sum to
    # n²·m(m−1)/2 = 900·78 = 70 200, so the 24 problems' totals sum to 1 684 800. The
    # recomputed totals satisfy it; the published ones fall short by Co-PPSO's difference.
    assert frame["total recomputed"].sum() == 24 * 70_200
    assert frame["total published"].sum() == 24 * 70_200 - 21_508
    assert frame.loc[
        "Co-PPSO", ["D=10 published", "D=20 published", "total published"]
    ].tolist() == [
        38092.5,
        34195.5,
        72288,
    ]
    assert frame.loc["Co-PPSO", "total difference"] == 21_508
    assert not [c for c in results.caveats if c.code == "published_unexplained"]


def test_cec2005_layers_side_by_side():
    results = compute_study(load_study(EXAMPLES / "cec2005" / "study.yaml"))
    frame = results.analyses[0].published.frame
    at60 = frame[frame["sigma"] == 60]
    # The paper's five σ = 60 layers: {7}, {5, 1, 10}, {4, 9, 11}, {2, 6, 8}, {3}.
    assert len(at60) == 11 and not at60["differs"].any() and (at60["notes"] == "").all()
    at10 = frame[frame["sigma"] == 10]
    # At σ = 10 the relation orders all eleven one per layer; the paper's cycle does not exist.
    assert sorted(at10["layer recomputed"]) == list(range(1, 12))
    assert at10["differs"].sum() == 9 and (at10["notes"] == "(a)").all()
    assert not [c for c in results.caveats if c.code == "published_unexplained"]


PUBLISHED = """
    published:
      path: data/paper.csv
      source: A paper, Table 1
      table: mean_ranking
      keys: {tolerance: tau, algorithm: Algorithm}
      values: {rank: Rank}
"""


def _tiny_with_published(folder, extra: str = "", table: str = "mean_ranking"):
    write(folder, "data/h.csv", HISTORIES_CSV)
    # The "paper": at τ = 0.1 A first and B first — wrong for B: A's mean curve reaches the
    # target first on both problems (HISTORIES_CSV), so B is second — and at τ = 0.001 B
    # second (right).
    write(folder, "data/paper.csv", "tau,Algorithm,Rank\n0.1,A,1\n0.1,B,1\n0.001,B,2\n")
    block = PUBLISHED.replace("table: mean_ranking", f"table: {table}") + extra
    spec = SPEC.replace(
        "    tolerances: [0.1, 0.001]\n", "    tolerances: [0.1, 0.001]\n" + block[1:]
    )
    return write(folder, "study.yaml", spec)


def test_a_difference_without_explanation_is_a_warning(tmp_path):
    path = _tiny_with_published(tmp_path)
    result = run_cli("validate", str(path))
    assert result.code == 0, result.err
    assert (
        "reportgen: warning [published_unexplained]: 1 published value row of A paper, "
        "Table 1 differs from the recomputed ones without an explanation in the spec "
        "(published.notes). 0.1/B"
    ) in result.err
    frame = compute_study(load_study(path)).analyses[0].published.frame
    expected = pd.DataFrame(
        {
            "tolerance": [0.1, 0.1, 0.001],
            "algorithm": ["A", "B", "B"],
            "rank published": [1, 1, 2],
            "rank recomputed": [1, 2, 2],
            "rank difference": [0, 1, 0],
            "differs": [False, True, False],
            "notes": ["", "", ""],
        }
    )
    pd.testing.assert_frame_equal(frame, expected)


def test_a_note_explains_the_difference(tmp_path):
    note = "      notes:\n        - rows: {algorithm: B}\n          text: A misprint.\n"
    path = _tiny_with_published(tmp_path, note)
    result = run_cli("validate", str(path), "--strict")
    assert result.code == 0, result.err
    run = run_cli("run", str(path), "-q")
    assert run.code == 0, run.err
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "Published (A paper, Table 1) beside recomputed" in html and "(a) A misprint." in html
    csv = pd.read_csv(tmp_path / "out" / "tables" / "performance_profiles" / "published.csv")
    # The note names algorithm B: it marks B's rows (the differing one included), not A's.
    assert csv["notes"].fillna("").tolist() == ["", "(a)", "(a)"]


def test_unknown_table_is_an_input_error_at_its_key(tmp_path):
    path = _tiny_with_published(tmp_path, table="mean_rankings")
    result = run_cli("validate", str(path))
    assert result.code == 1
    assert (
        "analyses[0].published.table (study.yaml:17): the analysis has no table "
        "'mean_rankings' (did you mean 'mean_ranking'?)"
    ) in result.err


def test_the_published_file_must_hold_rows_each_once_and_notes_must_match_one(tmp_path):
    """A published file with a header and no rows ended in an internal error (KeyError
    'differs'); a row given twice was compared twice; a note whose rows match no published
    row (a misspelt name) explained nothing, silently."""
    path = _tiny_with_published(tmp_path)
    paper = tmp_path / "data" / "paper.csv"
    paper.write_text("tau,Algorithm,Rank\n")
    empty = run_cli("validate", str(path))
    assert empty.code == 1, empty.err
    assert "data/paper.csv: the file has no rows: nothing to compare" in empty.err
    paper.write_text("tau,Algorithm,Rank\n0.1,A,1\n0.1,B,2\n0.1,A,2\n")
    twice = run_cli("validate", str(path))
    assert twice.code == 1
    assert (
        "data/paper.csv, row 3 (line 4): repeats the row of tau=0.1, Algorithm=A (row 1)"
    ) in twice.err
    note = "      notes:\n        - rows: {algorithm: Bee}\n          text: A misprint.\n"
    path = _tiny_with_published(tmp_path, note)
    misspelt = run_cli("validate", str(path))
    assert misspelt.code == 1
    assert "analyses[0].published.notes[0].rows (study.yaml:" in misspelt.err
    assert "matches no published row" in misspelt.err
