"""The verdict matrix marks algorithms that share a tested first place alike."""

from __future__ import annotations

from reportgen.figures.style import make_style
from reportgen.present.labels import Labels
from reportgen.render.sections.summary import TIED_BEST, verdict_matrix
from reportgen.synthesis.rankings import BEST, FINAL_VALUES, NOT_SIGNIFICANT, WORSE, Ranking
from reportgen.synthesis.summary import synthesise


def test_a_shared_first_place_is_not_decided_by_the_tests_reference() -> None:
    """perspectives_cec2022, accuracy: JADE and NLSHADE-RSP share mean rank 3.29; the matrix
    showed JADE '1 (best)' (Holm's control, first in study order) and NLSHADE-RSP '1 (n.s.)'.
    Both are now '1 (tied best)'; the others keep their verdicts."""
    accuracy = Ranking(
        id="p:accuracy",
        analysis_id="p",
        label="accuracy",
        ranks={"A": 1.0, "B": 1.0, "C": 3.0},
        family=FINAL_VALUES,
        verdicts={"A": BEST, "B": NOT_SIGNIFICANT, "C": WORSE},
    )
    robustness = Ranking(
        id="p:robustness",
        analysis_id="p",
        label="robustness",
        ranks={"A": 1.0, "B": 2.0, "C": 3.0},
        family=FINAL_VALUES,
        verdicts={"A": BEST, "B": NOT_SIGNIFICANT, "C": WORSE},
    )
    result = synthesise([accuracy, robustness], ["A", "B", "C"], Labels({}), resamples=20)
    table = verdict_matrix(result, make_style(["A", "B", "C"]))
    frame = table.frame
    assert "'tied best' = sharing the best rank" in table.caption
    rows = frame.set_index("algorithm")
    assert rows["accuracy"].tolist()[1:] == [f"1 ({TIED_BEST})", f"1 ({TIED_BEST})", "3 (worse)"]
    assert rows["robustness"].tolist()[1:] == ["1 (best)", "2 (n.s.)", "3 (worse)"]
    # Without a shared first place the caption does not define the mark.
    alone = synthesise([robustness], ["A", "B", "C"], Labels({}), resamples=20)
    assert "tied best" not in verdict_matrix(alone, make_style(["A", "B", "C"])).caption
