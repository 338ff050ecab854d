"""Hostile or careless specs: bounded YAML, wrong types, non-finite numbers (issue 13).

Each trigger used to end in a traceback, a hang or a crash after ``validate`` said "valid";
each must now be a clean, located problem within a second.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from reportgen.errors import InputError
from reportgen.spec.load import MAX_SPEC_BYTES, load_spec
from reportgen.spec.schema import study_schema
from tests.conftest import SPEC, run_cli, write

SUMMARY_SPEC = """
study: {title: Hardening, authors: [T]}
minimize: true
data:
  s: {path: data/s.csv, format: summary}
analyses:
  - kind: significance_relation
    data: s
"""


def problems(path: Path) -> list[str]:
    started = time.perf_counter()
    with pytest.raises(InputError) as info:
        load_spec(path)
    assert time.perf_counter() - started < 2.0, "a hostile spec must be refused fast"
    return [str(p) for p in info.value.problems]


def billion_laughs(levels: int = 9) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_refused_without_expanding(tmp_path):
    """9 levels of 9 aliases: 9⁹ ≈ 387 million values from 500 bytes."""
    text = billion_laughs() + SUMMARY_SPEC.replace("authors: [T]", "authors: *a9")
    assert len(text.encode()) < 1000
    (message,) = problems(write(tmp_path, "study.yaml", text))
    assert message.startswith("study.yaml:")
    assert "aliases expand the spec to more than 100,000 values" in message


def test_nesting_1000_deep(tmp_path):
    text = SUMMARY_SPEC + "extra: " + "[" * 1000 + "]" * 1000 + "\n"
    assert problems(write(tmp_path, "study.yaml", text)) == [
        "study.yaml:8:57: the YAML is nested more than 50 levels deep"
    ]


def test_self_referential_alias(tmp_path):
    text = SUMMARY_SPEC.replace("authors: [T]", "authors: &x [*x]")
    assert problems(write(tmp_path, "study.yaml", text)) == [
        "study.yaml:1:40: the alias '*x' refers to a list or mapping that contains it "
        "(an endless loop)"
    ]


def test_5000_digit_integer(tmp_path):
    """Python refuses int('9' * 5000) (the 4300-digit conversion limit)."""
    text = SUMMARY_SPEC.replace("minimize: true", "minimize: " + "9" * 5000)
    assert problems(write(tmp_path, "study.yaml", text)) == [
        "study.yaml:2:11: a number with 5,000 digits; numbers in a spec have at most 100"
    ]


def test_oversized_spec_file(tmp_path):
    text = SUMMARY_SPEC + "# " + "x" * MAX_SPEC_BYTES + "\n"
    (message,) = problems(write(tmp_path, "study.yaml", text))
    assert message.startswith("study.yaml: the spec file has 1,000,")
    assert message.endswith("bytes; a spec has at most 1,000,000")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "[summary]",
            "data.s.format (study.yaml:4): got a list; allowed: 'trials', 'histories', "
            "'summary', 'wide', 'coco', 'cec' or 'ioh' (did you mean 'summary'?)",
        ),
        (
            "{summary: 1}",
            "data.s.format (study.yaml:4): got a mapping; allowed: 'trials', 'histories', "
            "'summary', 'wide', 'coco', 'cec' or 'ioh'",
        ),
    ],
)
def test_format_that_is_not_a_name(tmp_path, value, message):
    text = SUMMARY_SPEC.replace("format: summary", f"format: {value}")
    assert problems(write(tmp_path, "study.yaml", text)) == [message]


def test_analysis_data_empty_list(tmp_path):
    text = SUMMARY_SPEC.replace("data: s\n", "data: []\n")
    assert problems(write(tmp_path, "study.yaml", text)) == [
        "analyses[0].data (study.yaml:7): got a list; list should have at least 1 item after "
        "validation, not 0"
    ]


def test_analysis_data_mapping(tmp_path):
    text = SUMMARY_SPEC.replace("data: s\n", "data: {s: 1}\n")
    assert problems(write(tmp_path, "study.yaml", text)) == [
        "analyses[0].data (study.yaml:7): got a mapping; should be a valid list"
    ]


@pytest.mark.parametrize(
    ("option", "where", "message"),
    [
        (
            "lambdas: [.inf]",
            "analyses[0].lambdas[0] (study.yaml:14)",
            "got inf; should be a finite number",
        ),
        (
            "lambdas: [1.0e+309]",
            "analyses[0].lambdas[0] (study.yaml:14)",
            "got inf; should be a finite number",
        ),
        (
            "lambdas: [.nan]",
            "analyses[0].lambdas[0] (study.yaml:14)",
            "got nan; should be a finite number",
        ),
        (
            "budget: .inf",
            "analyses[0].budget (study.yaml:14)",
            "got inf; should be a finite number",
        ),
        (
            "lambdas: [1000]",
            "analyses[0].lambdas[0] (study.yaml:14)",
            "got 1000; should be less than or equal to 100",
        ),
    ],
)
def test_non_finite_numbers_are_refused_where_they_are_written(tmp_path, option, where, message):
    """lambdas: [.inf] validated, then results.json refused the infinity at run time."""
    text = SPEC.replace("tolerances: [0.1, 0.001]", f"tolerances: [0.1, 0.001]\n    {option}")
    assert problems(write(tmp_path, "study.yaml", text)) == [f"{where}: {message}"]


def test_x_max_infinite(tmp_path):
    """x_max: .inf validated, then matplotlib refused an infinite axis limit."""
    text = (
        SUMMARY_SPEC.replace("significance_relation", "probabilistic_profiles")
        + "    x_max: .inf\n"
    )
    assert problems(write(tmp_path, "study.yaml", text)) == [
        "analyses[0].x_max (study.yaml:8): got inf; should be a finite number"
    ]


def test_schema_states_the_bounds():
    schema = study_schema()
    defs = schema["$defs"]
    x_max = defs["ProbabilisticProfilesOptions"]["properties"]["x_max"]
    assert (x_max["exclusiveMinimum"], x_max["maximum"]) == (1, 1e6)
    lambdas = defs["PerformanceProfilesOptions"]["properties"]["lambdas"]["items"]
    assert (lambdas["exclusiveMinimum"], lambdas["maximum"]) == (0, 100)
    tolerance = defs["PerformanceProfilesOptions"]["properties"]["tolerances"]["items"]
    assert (tolerance["exclusiveMinimum"], tolerance["exclusiveMaximum"]) == (0, 1)
    assert "Infinity" not in json.dumps(schema)


def test_absurdly_long_label_is_refused(tmp_path):
    text = SUMMARY_SPEC + f"algorithms: [{{name: A, label: {'L' * 2000}}}]\n"
    (message,) = problems(write(tmp_path, "study.yaml", text))
    assert message.startswith("algorithms[0].label (study.yaml:8): got 'LLLL")
    assert message.endswith("should have at most 1000 characters")
    assert len(message) < 200


def test_cli_validate_gives_exit_1_not_a_traceback(tmp_path):
    text = billion_laughs() + SUMMARY_SPEC.replace("authors: [T]", "authors: *a9")
    result = run_cli("validate", str(write(tmp_path, "study.yaml", text)))
    assert result.code == 1
    assert "Traceback" not in result.err and "aliases expand" in result.err


@pytest.mark.parametrize(
    ("algorithms", "message"),
    [
        (
            "[s1, s1]",
            "'s1' is listed more than once (as a name or an alias: entries [0], [1])",
        ),
        (
            "[s1, {name: s2, aliases: [s1]}]",
            "'s1' is listed more than once (as a name or an alias: entries [0], [1])",
        ),
        (
            "[{name: s1, label: X}, {name: s2, label: X}]",
            "'s1' and 's2' have the same label 'X'; if they are one algorithm, merge them: "
            "{name: s1, aliases: [s2]}",
        ),
    ],
)
def test_an_algorithm_listed_twice_is_located_at_the_algorithms_key(tmp_path, algorithms, message):
    """The message was located at '(top level) (study.yaml:1)', not at the key to edit."""
    text = SUMMARY_SPEC.replace("analyses:", f"algorithms: {algorithms}\nanalyses:")
    assert problems(write(tmp_path, "study.yaml", text)) == [
        f"algorithms (study.yaml:5): {message}"
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("data: [s]\n", "data (study.yaml:3): got a list; should be a valid dictionary"),
        (
            "data: {}\n",
            "data (study.yaml:3): got a mapping; dictionary should have at least 1 item after "
            "validation, not 0",
        ),
        ("", "data (study.yaml:1): required key 'data' is missing"),
    ],
)
def test_data_that_is_no_mapping_is_not_also_every_reference_unknown(tmp_path, data, message):
    """'data: [s]' gave a second problem per analysis: "no data source named 's'; the spec
    defines: " with nothing after it."""
    text = SUMMARY_SPEC.replace("data:\n  s: {path: data/s.csv, format: summary}\n", data)
    assert problems(write(tmp_path, "study.yaml", text)) == [message]


@pytest.mark.parametrize(
    ("analysis", "message"),
    [
        (
            "{kind: convergence, data: s, budgets: [100, 100.0]}",
            "analyses[0].budgets (study.yaml:6): budgets must be distinct: 100 is listed more "
            "than once",
        ),
        (
            "{kind: convergence, data: s, budgets: {5: [100, 1000], 10: [100, 100]}}",
            "analyses[0].budgets (study.yaml:6): budgets of dimension 10 must be distinct: 100 "
            "is listed more than once",
        ),
        (
            "{kind: convergence, data: s, problems: [f1, f2, f1]}",
            "analyses[0].problems (study.yaml:6): problems must be distinct: 'f1' is listed "
            "more than once",
        ),
        (
            "{kind: performance_profiles, data: s, tolerances: [0.001, 0.1, 0.001]}",
            "analyses[0].tolerances (study.yaml:6): tolerances must be distinct: 0.001 is "
            "listed more than once",
        ),
    ],
)
def test_a_value_listed_twice_is_refused_and_named(tmp_path, analysis, message):
    """'budgets: [100, 100]' gave every row of the fixed-budget table twice; 'problems: [f1,
    f1]' of a convergence analysis was merged into one panel without a word, while a budget
    given twice was refused. Every list of an analysis's options refuses a repeat alike and
    names the value."""
    text = SUMMARY_SPEC.replace("format: summary", "format: histories").replace(
        "  - kind: significance_relation\n    data: s\n", f"  - {analysis}\n"
    )
    assert problems(write(tmp_path, "study.yaml", text)) == [message]


def test_a_problem_listed_twice_in_one_group_says_so(tmp_path):
    """It read "problem 'f1' is in groups 'a' and 'a'; a problem belongs to one group"."""
    text = SUMMARY_SPEC + "problems: {groups: {a: [f1, f1], b: [f2]}}\n"
    assert problems(write(tmp_path, "study.yaml", text)) == [
        "problems.groups (study.yaml:8): problem 'f1' is listed twice in group 'a'"
    ]


@pytest.mark.parametrize(
    ("entry", "where", "shown"),
    [
        ('{name: s1, label: "A\\nB"}', "algorithms[0].label (study.yaml:5)", "'A\\nB'"),
        ('{name: s1, label: "A\\u202eB"}', "algorithms[0].label (study.yaml:5)", "'A\\u202eB'"),
        ('"s\\t1"', "algorithms[0] (study.yaml:5)", "'s\\t1'"),
    ],
)
def test_a_name_or_label_with_a_control_character_is_refused(tmp_path, entry, where, shown):
    """The data refuse a name with a newline or a right-to-left override (it displays as
    other text); a label or name written in the spec was taken as it was."""
    text = SUMMARY_SPEC.replace("analyses:", f"algorithms: [{entry}, s2]\nanalyses:")
    assert problems(write(tmp_path, "study.yaml", text)) == [
        f"{where}: a name with a control character: {shown}"
    ]


def test_a_problem_prefix_with_a_control_character_is_refused(tmp_path):
    """problem_prefix '\\t' made problems named '\\t1', '\\t8' (a CSV cell may not hold
    them); a 150-character prefix, names longer than a problem name may be."""
    source = "  s: {path: data/s.csv, format: summary}"
    for prefix, message in (
        ('"\\t"', "a name with a control character: '\\t'"),
        ("x" * 51, "got 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'; string should have at most 50 characters"),
    ):  # fmt: skip
        text = SUMMARY_SPEC.replace(
            source, f"  s: {{path: d, format: coco, coco: {{problem_prefix: {prefix}}}}}"
        )
        assert problems(write(tmp_path, "study.yaml", text)) == [
            f"data.s.coco.problem_prefix (study.yaml:4): {message}"
        ]
