"""Broken specs and the exact messages users get for them."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from reportgen.errors import InputError
from reportgen.spec.load import SpecLoader, load_spec
from tests.conftest import HISTORIES_CSV, SPEC, write


def problems(path: Path) -> list[str]:
    with pytest.raises(InputError) as info:
        load_spec(path)
    return [str(p) for p in info.value.problems]


# Lines of tests.conftest.SPEC: 1 study, 2 title, 3 authors, 4 minimize, 5 data, 6 curves,
# 7 path, 8 format, 9 columns, 10 analyses, 11 - kind, 12 data, 13 tolerances, 14 report.


def test_valid_spec_loads(tiny_study):
    spec = load_spec(tiny_study)
    assert spec.study.analyses[0].tolerances == [0.1, 0.001]
    assert spec.where(("analyses", 0, "tolerances")) == "analyses[0].tolerances (study.yaml:13)"


def test_yaml_syntax_error(tmp_path):
    path = write(tmp_path, "study.yaml", "study:\n  title: [unclosed\nminimize: true\n")
    assert problems(path) == [
        "study.yaml:3:9: YAML syntax error: while parsing a flow sequence, expected ',' or ']', but got ':'"
    ]


def test_unknown_key_with_suggestion(tmp_path):
    path = write(tmp_path, "study.yaml", SPEC.replace("tolerances:", "tolerence:"))
    assert problems(path) == [
        "analyses[0].tolerence (study.yaml:13): unknown key 'tolerence' (did you mean 'tolerances'?); "
        "allowed keys: 'bound', 'budget', 'clip_bounds', 'data', 'id', 'kind', 'lambdas', 'notes', 'profiles', 'published', 'resamples', 'seed', 'select', 'start_value', 'title', 'tolerances'"
    ]


def test_wrong_type(tmp_path):
    path = write(tmp_path, "study.yaml", SPEC.replace("minimize: true", "minimize: 'maybe'"))
    assert problems(path) == ["minimize (study.yaml:4): got 'maybe'; should be a valid boolean"]


def test_misspelt_kind(tmp_path):
    path = write(
        tmp_path,
        "study.yaml",
        SPEC.replace("kind: performance_profiles", "kind: performance_profile"),
    )
    (message,) = problems(path)
    assert message.startswith(
        "analyses[0] (study.yaml:11): unknown analysis kind 'performance_profile' (did you mean 'performance_profiles'?); allowed: "
    )


def test_unknown_data_source_and_bad_tolerance_together(tmp_path):
    text = SPEC.replace("data: curves", "data: curve").replace("[0.1, 0.001]", "[0.1, 2]")
    path = write(tmp_path, "study.yaml", text)
    assert problems(path) == [
        "analyses[0].tolerances[1] (study.yaml:13): got 2; should be less than 1",
        "analyses[0].data (study.yaml:12): no data source named 'curve' (did you mean 'curves'?); the spec defines: 'curves'",
    ]


def test_missing_required_key(tmp_path):
    path = write(tmp_path, "study.yaml", SPEC.replace("    format: histories\n", ""))
    assert problems(path) == ["data.curves.format (study.yaml:6): required key 'format' is missing"]


def test_misspelt_literal(tmp_path):
    path = write(tmp_path, "study.yaml", SPEC.replace("format: histories", "format: history"))
    assert problems(path) == [
        "data.curves.format (study.yaml:8): got 'history'; allowed: 'trials', 'histories', 'summary', 'wide', "
        "'coco', 'cec' or 'ioh' "
        "(did you mean 'histories'?)"
    ]


def test_duplicate_key(tmp_path):
    path = write(
        tmp_path, "study.yaml", SPEC.replace("minimize: true", "minimize: true\nminimize: false")
    )
    assert problems(path) == [
        "minimize (study.yaml:5): duplicate key 'minimize' (first given on line 4)"
    ]


def test_duplicate_analysis_id(tmp_path):
    text = SPEC.replace("report:", "  - kind: performance_profiles\n    data: curves\nreport:")
    path = write(tmp_path, "study.yaml", text)
    assert problems(path) == [
        "analyses[1] (study.yaml:14): analysis id 'performance_profiles' is already used by analyses[0]; "
        "give each analysis of the same kind its own 'id'"
    ]


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        # '..' wrote its tables and figures into the report's own folder, '.' into tables/.
        (["'..'"], "'..' cannot be an analysis id: it names the analysis's tables/ and figures/"),
        (["'.'"], "'.' cannot be an analysis id"),
        # 'summary' mixed its tables into the executive summary's folder.
        (["summary"], "'summary' cannot be an analysis id: tables/summary/ and figures/summary/"),
        # One folder where names ignore case (macOS, Windows): one analysis's files replaced.
        (["Main", "main"], "analysis id 'main' differs from analyses[0]'s 'Main' only in case"),
    ],
)
def test_an_id_that_cannot_name_its_own_folders_is_refused(tmp_path, ids, message):
    entries = "".join(f"  - {{kind: performance_profiles, data: curves, id: {i}}}\n" for i in ids)
    text = SPEC.replace(
        "  - kind: performance_profiles\n    data: curves\n    tolerances: [0.1, 0.001]\n", entries
    )
    found = problems(write(tmp_path, "study.yaml", text))
    assert len(found) == 1 and message in found[0], found


def test_spec_file_missing(tmp_path):
    path = tmp_path / "nope.yaml"
    assert problems(path) == [f"{path}: the spec file does not exist"]


def test_a_tab_in_the_indentation_is_named_as_the_cause(tmp_path):
    path = write(tmp_path, "study.yaml", "study:\n\ttitle: T\n")
    assert problems(path) == [
        "study.yaml:2:1: YAML syntax error: while scanning for the next token, found character "
        "'\\t' that cannot start any token (YAML indents with spaces, never tabs)"
    ]


@pytest.mark.parametrize(("character", "code"), [("\x00", "0000"), ("\x1b", "001B")])
def test_a_control_character_is_named_by_line_and_column(tmp_path, character, code):
    """A NUL or ESC in the spec gave "YAML syntax error: unacceptable character #x0000:
    special characters are not allowed / in "<unicode string>", position 29": two lines, an
    offset into the file and no line number."""
    path = write(tmp_path, "study.yaml", f"study:\n  title: Pro{character}be\n")
    assert problems(path) == [
        f"study.yaml:2:13: a character a YAML file may not hold: U+{code} (a control "
        "character; delete it, or write it as an escape in a quoted string)"
    ]


def test_an_unquoted_date_is_shown_as_written_with_the_remedy(tmp_path):
    """A title of 2024-01-01 said "got datetime.date(2024, 1, 1)": Python's words."""
    path = write(tmp_path, "study.yaml", SPEC.replace("title: Tiny study", "title: 2024-01-01"))
    assert problems(path) == [
        "study.title (study.yaml:2): got the date 2024-01-01 (YAML reads it as a date; quote "
        "it to keep text); should be a valid string"
    ]


def test_a_folder_given_as_the_spec_is_named_as_a_folder(tmp_path):
    assert problems(tmp_path) == [f"{tmp_path}: is a folder; give the spec file (study.yaml) in it"]


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("1e-3", 1e-3),
        ("1E-3", 1e-3),
        ("1e-03", 1e-3),
        ("0.1", 0.1),
        ("1.0e-3", 1e-3),
        ("2.5e-1", 0.25),
        ("25E-2", 0.25),
    ],
)
def test_numbers_with_an_exponent_are_numbers_as_in_yaml_1_2(tmp_path, written, value):
    """PyYAML (YAML 1.1) reads 1e-3 as a string: the spec reads it as the number people mean."""
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    spec = write(tmp_path, "study.yaml", SPEC.replace("[0.1, 0.001]", f"[{written}, 0.5]"))
    tolerances = load_spec(spec).study.analyses[0].tolerances
    assert tolerances[0] == value and isinstance(tolerances[0], float)


def test_the_yaml_1_2_numbers_leave_other_scalars_alone():
    values = yaml.load(
        "[10, 1e5, 1E+5, -2.5e-3, .5e1, 1_000, F1, 1e, e5, 2e-3x, 0x1A, '1e-8', 1.5, .inf]",
        Loader=SpecLoader,
    )
    assert values == [
        10,
        1e5,
        1e5,
        -2.5e-3,
        5.0,
        1000,
        "F1",
        "1e",
        "e5",
        "2e-3x",
        26,
        "1e-8",
        1.5,
        math.inf,
    ]
    assert [type(v) for v in values[:2]] == [int, float]
    # The plain safe loader is untouched.
    assert yaml.safe_load("1e-8") == "1e-8"


def test_not_a_mapping(tmp_path):
    path = write(tmp_path, "study.yaml", "- a\n- b\n")
    assert problems(path) == [
        "study.yaml:1: the spec must be a mapping of keys (study, data, analyses, ...); got a list"
    ]


def test_every_problem_at_once(tmp_path):
    text = (
        SPEC.replace("minimize: true", "minimize: 3")
        .replace("format: histories", "format: hist")
        .replace("tolerances:", "tolerancs:")
    )
    path = write(tmp_path, "study.yaml", text)
    assert len(problems(path)) == 3


def test_path_and_paths_exclusive(tmp_path):
    path = write(
        tmp_path,
        "study.yaml",
        SPEC.replace("    path: data/h.csv\n", "    path: data/h.csv\n    paths: [a.csv]\n"),
    )
    assert problems(path) == [
        "data.curves (study.yaml:6): give exactly one of 'path' (one file) or 'paths' (a list or a glob)"
    ]


def test_function_groups_are_disjoint_and_name_problems_of_the_data(tmp_path):
    groups = "problems:\n  groups:\n    easy: [f1]\n    hard: [f1, f3]\nanalyses:\n"
    path = write(tmp_path, "study.yaml", SPEC.replace("analyses:\n", groups, 1))
    [message] = problems(path)
    assert "problem 'f1' is in groups 'easy' and 'hard'" in message


def test_function_group_member_not_in_the_data(tmp_path):
    from reportgen.pipeline import validate_study
    from tests.conftest import HISTORIES_CSV

    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    groups = "problems:\n  groups:\n    easy: [f1]\n    hard: [F2]\nanalyses:\n"
    path = write(tmp_path, "study.yaml", SPEC.replace("analyses:\n", groups, 1))
    with pytest.raises(InputError) as info:
        validate_study(path)
    [problem] = info.value.problems
    assert problem.where.startswith("problems.groups.hard[0] (study.yaml:")
    assert "no problem named 'F2'" in problem.message and "did you mean 'f2'" in problem.message


@pytest.mark.parametrize(
    ("filters", "keys"),
    [
        ("  exclude: [f1]\n", ["problems.exclude[0] (study.yaml:11)"]),
        ("  include: [f2]\n", ["problems.include (study.yaml:11), which does not list it"]),
        ("  dimensions: [2]\n", ["problems.dimensions (study.yaml:11)"]),
        (
            "  dimensions: [2, 3]\n  exclude: [{problem: f1, dimensions: [3]}]\n",
            ["problems.dimensions (study.yaml:11)", "problems.exclude[0] (study.yaml:12)"],
        ),
    ],
)
def test_function_group_member_the_filters_excluded_is_named_as_excluded(tmp_path, filters, keys):
    """f1 is in the data (in dimensions 3 and 4, f2 in 2) but the spec's own filters drop it:
    the group member is named as excluded by them, not as a typo of f2 ("did you mean")."""
    from reportgen.pipeline import validate_study

    rows = HISTORIES_CSV.strip().splitlines()
    f1 = [r for r in rows if ",f1," in r]
    moved = [r.replace(",2,", f",{d},", 1) for d in (3, 4) for r in f1]
    write(tmp_path, "data/h.csv", "\n".join([r for r in rows if r not in f1] + moved) + "\n")
    groups = f"problems:\n{filters}  groups:\n    easy: [f2]\n    hard: [f1]\nanalyses:\n"
    path = write(tmp_path, "study.yaml", SPEC.replace("analyses:\n", groups, 1))
    with pytest.raises(InputError) as info:
        validate_study(path)
    [problem] = info.value.problems
    assert problem.where.startswith("problems.groups.hard[0] (study.yaml:")
    assert problem.message.startswith(
        f"problem 'f1' is in the data but excluded by {' and '.join(keys)}; "
    )
    assert "did you mean" not in problem.message and "no problem named" not in problem.message


def test_a_group_member_incomplete_exclude_dropped_leaves_its_group(tmp_path):
    """incomplete: exclude is there so that a scheduled run goes on when an algorithm lacks a
    problem the spec could not foresee: a group member it drops leaves its group (the
    excluded_problems caveat names it); only a group left empty is an error."""
    from reportgen.data.load import load_data
    from reportgen.pipeline import validate_study
    from reportgen.spec.load import load_spec

    rows = [r for r in HISTORIES_CSV.splitlines() if not r.startswith("B,f1,")]
    write(tmp_path, "data/h.csv", "\n".join(rows) + "\n")
    groups = "problems:\n  incomplete: exclude\n  groups:\n    hard: [f1, f2]\nanalyses:\n"
    path = write(tmp_path, "study.yaml", SPEC.replace("analyses:\n", groups, 1))
    data = load_data(load_spec(path))
    assert data.groups == {"hard": ("f2",)}
    (caveat,) = [c for c in data.caveats if c.code == "excluded_problems"]
    assert "f1" in caveat.where
    alone = write(
        tmp_path, "alone.yaml", SPEC.replace("analyses:\n", groups.replace("f1, f2", "f1"), 1)
    )
    with pytest.raises(InputError) as info:
        validate_study(alone)
    [problem] = info.value.problems
    assert problem.where.startswith("problems.groups.hard (alone.yaml:")
    assert problem.message == (
        "every member (f1) was left out by problems.incomplete (alone.yaml:11), as some "
        "algorithm has no data on it: the group would be empty"
    )


def test_select_restricts_an_analysis_to_a_group_and_names_bad_choices(tmp_path):
    from reportgen.data.load import load_data
    from reportgen.pipeline import validate_study
    from reportgen.spec.base import ProblemSelection
    from tests.conftest import HISTORIES_CSV

    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    groups = "problems:\n  groups:\n    easy: [f1]\n    hard: [f2]\nanalyses:\n"
    path = write(tmp_path, "study.yaml", SPEC.replace("analyses:\n", groups, 1))
    data = load_data(load_spec(path))
    hard = data.for_analysis("curves", ProblemSelection(groups=["hard"]))
    assert hard.problems == (("f2", 2),) and set(hard.frame["problem"]) == {"f2"}
    assert dict(hard.groups) == {"hard": ("f2",)}
    assert data.for_analysis("curves", ProblemSelection(dimensions=[2])).problems == (
        ("f1", 2),
        ("f2", 2),
    )
    bad = SPEC.replace("analyses:\n", groups, 1).replace(
        "    data: curves\n", "    data: curves\n    select: {groups: [Hard], dimensions: [3]}\n"
    )
    path = write(tmp_path, "study.yaml", bad)
    with pytest.raises(InputError) as info:
        validate_study(path)
    messages = [str(p) for p in info.value.problems]
    assert len(messages) == 2 and all(
        m.startswith("analyses[0].select (study.yaml:") for m in messages
    )
    assert "no problem of dimension 3" in messages[0]
    assert "no function group 'Hard'" in messages[1] and "did you mean 'hard'" in messages[1]
