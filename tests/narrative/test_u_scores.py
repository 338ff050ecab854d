"""U-scores narrative and report section: every sentence states numbers of the result tables."""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd

from reportgen.analyses.u_scores import UScoresResult, compute
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.figures.style import make_style
from reportgen.narrative.u_scores import findings
from reportgen.render.blocks import FigureBlock, Prose, TableBlock, Text
from reportgen.render.sections.u_scores import build_section
from reportgen.spec.analyses.u_scores import UScoresOptions

TABLE_7_LIKE = {
    # Two problems (f1 10-D, f1 20-D), two runs each: A wins 10-D 4–0, B wins 20-D 3–1.
    "A": {10: [1.0, 2.0], 20: [2.0, 4.0]},
    "B": {10: [3.0, 4.0], 20: [1.0, 3.0]},
    "C": {10: [5.0, 6.0], 20: [5.0, 6.0]},
}


def options(**kwargs: Any) -> UScoresOptions:
    return UScoresOptions(kind="u_scores", data="runs", target=1e-8, **kwargs)


def result_of(**kwargs: Any) -> tuple[UScoresResult, UScoresOptions]:
    rows = [
        {"algorithm": a, "problem": "f1", "dimension": d, "run": run, "value": v}
        for a, by_dimension in TABLE_7_LIKE.items()
        for d, values in by_dimension.items()
        for run, v in enumerate(values)
    ]
    frame = pd.DataFrame(rows)
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    data = AnalysisData("trials", frame, tuple(TABLE_7_LIKE), problems)
    opts = options(**kwargs)
    return compute(data, opts), opts


def test_findings_state_the_tables_numbers() -> None:
    result, _ = result_of()
    by_id = {f.id: f for f in findings(result, make_style(result.algorithms))}
    totals = result.totals.set_index("algorithm")
    # By hand: 10-D A 4+4, B 0+4, C 0; 20-D A 1+4, B 3+4, C 0 → totals A 13, B 11, C 0.
    assert totals["total"].to_dict() == {"A": 13.0, "B": 11.0, "C": 0.0}
    winner = by_id["winner.total"]
    assert winner.numbers["algorithm"] == "A" and winner.numbers["total"] == 13.0
    assert winner.text == "A has the highest total U-score (13), ahead of B (11)."
    assert by_id["winner.D=20"].numbers["algorithms"] == ["B"]
    assert "(overall winner A: 5)" in by_id["winner.D=20"].text
    # A = 8 + 5w, B = 4 + 7w: B passes A at w = 2 on D=20.
    critical = by_id["critical_weight.D=20"]
    assert critical.numbers["weight_above"] == 2.0
    assert (critical.numbers["passing_above"], critical.numbers["passed_above"]) == ("B", "A")
    assert "a weight above 2 would swap ranks 1 and 2 (B would pass A)" in critical.text
    assert "difficulty.D=10" not in by_id  # one problem per group: no difficulty ranking


def test_section_blocks_are_formatted() -> None:
    result, opts = result_of(weights={20: 3.0})
    section = build_section(result, opts, make_style(result.algorithms))
    assert section.id == "u_scores"
    assert isinstance(section.blocks[0], Text) and isinstance(section.blocks[1], Prose)
    tables = {b.name: b for b in section.blocks if isinstance(b, TableBlock)}
    assert list(tables) == [
        "totals",
        "critical_weights_D20",
        "u_scores",
        "win_tie_loss",
        "pairwise_matrix",
    ]
    for table in tables.values():
        assert table.frame.map(lambda c: isinstance(c, str)).all().all()
        if table.bold is not None:
            assert table.bold.shape == table.frame.shape
    totals = tables["totals"].frame
    # Weighted: A = 8 + 3·5 = 23, B = 4 + 3·7 = 25 → B first, bold in "Weighted total".
    assert totals["Algorithm"].tolist() == ["B", "A", "C"]
    assert totals["Weighted total"].tolist() == ["25", "23", "0"]
    bold = tables["totals"].bold
    assert bold is not None
    assert bold["Weighted total"].tolist() == [True, False, False]
    figures = [b.spec.name for b in section.blocks if isinstance(b, FigureBlock)]
    assert figures[0] == "u_scores_bars"
    assert any("w_{D=20} = 3" in m for m in section.methods)


def test_one_problem_sentences_are_singular() -> None:
    """A one-problem study said "differ significantly on none of the 1 problems"."""
    frame = pd.DataFrame(
        [
            {"algorithm": a, "problem": "f1", "dimension": 10, "run": run, "value": v}
            for a, values in {"A": [1.0, 4.0], "B": [2.0, 3.0]}.items()
            for run, v in enumerate(values)
        ]
    )
    data = AnalysisData("trials", frame, ("A", "B"), (("f1", 10),))
    result = compute(data, options())
    top = {f.id: f for f in findings(result, make_style(result.algorithms))}["pairwise.top"]
    assert top.numbers["ties"] == 1  # two runs each: no test can separate them
    assert top.text.endswith(", do not differ significantly on the one problem.")
    assert "1 problems" not in top.text
    # Histories whose 5 successes share one evaluation count ("just 1 distinct … counts").
    timed = dataclasses.replace(result, success_times=(5, 1))
    said = {f.id: f for f in findings(timed, make_style(result.algorithms))}["success_times"]
    assert "the 5 trials that reach the target have just 1 distinct evaluation count to" in (
        said.text
    )


def test_one_algorithm_alone_changing_rank_reads_in_the_singular() -> None:
    # A and B share rank 1 at the first cut-point; at the last B is second: only B moved.
    from types import SimpleNamespace

    from reportgen.narrative.u_scores import _cutpoints
    from reportgen.present.labels import Labels

    ranks = {0.1: {"A": 1.0, "B": 1.0, "C": 3.0}, 1.0: {"A": 1.0, "B": 2.0, "C": 3.0}}
    result = SimpleNamespace(
        cutpoint_fractions=lambda: list(ranks),
        ranks_at_cutpoint=ranks.__getitem__,
        cutpoint_label=lambda c: f"{c:g}",
    )
    finding = _cutpoints(result, Labels({}))  # type: ignore[arg-type]
    assert finding.numbers["rank_changes"] == 1
    assert finding.text.endswith(
        "1 of 3 algorithms ends on a different rank than at the first cut-point (0.1)."
    )
