"""Analyses of one data source that floor small values differently are warned about."""

from __future__ import annotations

import textwrap

from reportgen.spec.floors import floor_disagreements
from reportgen.spec.load import load_spec
from tests.conftest import ROOT, write

SPEC = textwrap.dedent(
    """\
    study:
      title: floors
    minimize: true
    data:
      table:
        path: table.csv
        format: summary
      other:
        path: other.csv
        format: summary
    analyses:
    """
)


def caveats(tmp_path, analyses: str) -> list[str]:
    spec = load_spec(write(tmp_path, "study.yaml", SPEC + textwrap.dedent(analyses)))
    return [c.message for c in floor_disagreements(spec.study)]


def test_published_table_before_its_floor(tmp_path):
    """published_table: the profiles floored at 1e-8, the table not at all."""
    got = caveats(
        tmp_path,
        """\
        - kind: probabilistic_profiles
          data: table
          cost: value
          cost_floor: 1.0e-8
        - kind: problem_table
          data: table
        """,
    )
    assert len(got) == 1
    assert "data source 'table'" in got[0]
    assert "analyses[0].cost_floor = 10⁻⁸ and analyses[1].value_floor not set" in got[0]
    assert "counts of wins" in got[0]


def test_two_floors_and_other_sources(tmp_path):
    """Two different floors on one source warn; the same floor, another source, or a cost
    that is not a final value (evaluations to target) does not."""
    got = caveats(
        tmp_path,
        """\
        - kind: problem_table
          data: table
          value_floor: 1.0e-8
        - kind: significance_relation
          data: [other, table]
          value_floor: 1.0e-9
        - kind: problem_table
          id: other_table
          data: other
          value_floor: 1.0e-9
        """,
    )
    assert len(got) == 1
    assert "analyses[0].value_floor = 10⁻⁸ and analyses[1].value_floor = 10⁻⁹" in got[0]
    agreeing = """\
        - kind: problem_table
          data: table
          value_floor: 1.0e-8
        - kind: significance_relation
          data: table
          value_floor: 1.0e-8
        - kind: problem_table
          id: elsewhere
          data: other
        - kind: probabilistic_profiles
          data: table
        """
    assert caveats(tmp_path, agreeing) == []


def test_the_pipeline_reports_it_from_the_spec(tmp_path):
    """published_table as it was (the table without value_floor): the run warns, origin
    'spec', and with the same floor in both it does not."""
    from reportgen.pipeline import compute_study

    data = ROOT / "example_studies/published_table/data/cec2022_basics.csv"
    spec = SPEC.replace("table.csv", str(data)).replace("other.csv", str(data))
    analyses = """\
        - kind: probabilistic_profiles
          data: table
          cost: value
          cost_floor: 1.0e-8
          x_max: 100
        - kind: problem_table
          data: table
        """
    for floor, expected in (("", ["spec"]), ("  value_floor: 1.0e-8\n", [])):
        text = spec + textwrap.dedent(analyses) + floor
        results = compute_study(write(tmp_path, "study.yaml", text))
        origins = [
            o for o, c in zip(results.caveat_origins, results.caveats, strict=True)
            if c.code == "floors_differ"
        ]  # fmt: skip
        assert origins == expected


def test_a_value_shift_is_a_treatment_of_small_values(tmp_path):
    """A significance relation's value_shift c ties values closer than about tol·c, so it is
    named as what it is (not "value_floor not set") and differs from an unfloored table; the
    same shift in two relations of one source agrees."""
    floored_table = caveats(
        tmp_path,
        """\
        - kind: problem_table
          data: table
          value_floor: 1.0e-8
        - kind: significance_relation
          data: table
          value_shift: 1
        """,
    )
    assert len(floored_table) == 1
    assert "analyses[0].value_floor = 10⁻⁸ and analyses[1].value_shift = 1" in floored_table[0]
    assert "relative_tolerance × c" in floored_table[0]
    unfloored_table = caveats(
        tmp_path,
        """\
        - kind: problem_table
          data: table
        - kind: significance_relation
          data: table
          value_shift: 1
        """,
    )
    assert len(unfloored_table) == 1
    assert "analyses[0].value_floor not set and analyses[1].value_shift = 1" in unfloored_table[0]
    same_shift = """\
        - kind: significance_relation
          data: table
          value_shift: 1
        - kind: significance_relation
          id: again
          data: table
          value_shift: 1
          sigmas: [10]
        """
    assert caveats(tmp_path, same_shift) == []
    shift_as_floor = """\
        - kind: problem_table
          data: table
          value_floor: 1
        - kind: significance_relation
          data: table
          value_shift: 1
        """
    assert len(caveats(tmp_path, shift_as_floor)) == 1
