"""Broken data files and the exact messages users get; loading of every format."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from reportgen.data.frames import natural_key
from reportgen.data.load import load_data
from reportgen.errors import InputError
from reportgen.spec.load import load_spec
from tests.conftest import HISTORIES_CSV, SPEC, write, write_histories_per_algorithm

TRIALS_SPEC = """
study: {title: Trials}
minimize: true
data:
  runs:
    path: data/runs.csv
    format: trials
    columns: {problem: function, value: error}
analyses:
  - kind: significance_relation
    data: runs
"""
TRIALS_CSV = """
algorithm,function,run,error,evaluations_to_target
A,f1,1,0.5,100
A,f1,2,0.25,inf
B,f1,1,1.5,200
B,f1,2,2.5,300
"""


def data_problems(spec: Path) -> list[str]:
    with pytest.raises(InputError) as info:
        load_data(load_spec(spec))
    return [str(p) for p in info.value.problems]


def study(tmp_path: Path, csv: str, spec: str = SPEC, name: str = "data/h.csv") -> Path:
    write(tmp_path, name, csv)
    return write(tmp_path, "study.yaml", spec)


def test_histories_load_into_the_canonical_layout(tiny_study):
    data = load_data(load_spec(tiny_study))
    frame = data.sources["curves"].frame
    assert list(frame.columns) == [
        "algorithm",
        "problem",
        "dimension",
        "run",
        "evaluations",
        "value",
    ]
    assert data.algorithms == ("A", "B")
    assert len(frame) == 16 and frame["dimension"].unique().tolist() == [2]
    assert data.caveats == ()


def test_missing_data_file(tmp_path):
    path = write(tmp_path, "study.yaml", SPEC)
    assert data_problems(path) == [
        f"data.curves.path (study.yaml:7): the data file 'data/h.csv' does not exist (looked for {tmp_path / 'data/h.csv'})"
    ]


def test_a_path_in_the_home_folder_is_read_as_a_shell_reads_it(tmp_path, monkeypatch):
    """``~/…`` was taken as a folder named ``~`` inside the spec's folder; the report's spec
    listing writes home-folder paths that way, so a path copied from it did not read."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    write(home, "results/h.csv", HISTORIES_CSV)
    spec = write(tmp_path / "study", "study.yaml", SPEC.replace("data/h.csv", "~/results/h.csv"))
    data = load_data(load_spec(spec))
    assert len(data.sources["curves"].frame) == 16
    (record,) = data.files
    assert record.display == "~/results/h.csv"  # the author's home folder is not published


def test_glob_matching_nothing(tmp_path):
    path = write(tmp_path, "study.yaml", SPEC.replace("path: data/h.csv", "paths: 'data/*.csv'"))
    assert data_problems(path) == [
        f"data.curves.paths (study.yaml:7): the pattern 'data/*.csv' matches no file in {tmp_path}"
    ]


def test_misspelt_column(tmp_path):
    path = study(tmp_path, HISTORIES_CSV.replace("evals", "evls"))
    assert data_problems(path) == [
        "data/h.csv: missing column 'evals' (mapped from 'evaluations' in data.curves.columns) (did you mean 'evls'?); "
        "the file has: 'algorithm', 'problem', 'dim', 'run', 'evls', 'value'"
    ]


def test_missing_unmapped_column_suggests_mapping(tmp_path):
    path = study(tmp_path, HISTORIES_CSV.replace("value", "fbest"))
    assert data_problems(path) == [
        "data/h.csv: missing column 'value'; map it with data.curves.columns.value; "
        "the file has: 'algorithm', 'problem', 'dim', 'run', 'evals', 'fbest'"
    ]


def test_a_column_named_twice_is_refused_not_read_from_either(tmp_path):
    """pandas renames a repeated header name (dim, dim.1) and the reader took one of the two
    columns silently; an empty name (a trailing separator) does not count."""
    lines = HISTORIES_CSV.strip().splitlines()
    csv = "\n".join([lines[0] + ",dim,,"] + [line + ",7,," for line in lines[1:]]) + "\n"
    assert data_problems(study(tmp_path, csv)) == [
        "data/h.csv: the header names column 'dim' 2 times (columns 3, 7); rename all but one"
    ]


def test_a_file_separated_otherwise_is_named_with_its_separator(tmp_path):
    """Read with commas, a ';'-separated file is one column: every column was reported
    missing, with the whole header quoted as the one column the file has."""
    csv = HISTORIES_CSV.replace(",", ";")
    assert data_problems(study(tmp_path, csv)) == [
        "data/h.csv: the header is one column, 'algorithm;problem;dim;run;evals;value': the file "
        "looks separated by ';'; set data.curves.separator: \";\""
    ]


def test_nan_inf_empty_and_text_values(tmp_path):
    csv = HISTORIES_CSV.replace("A,f1,2,1,5,1\n", "A,f1,2,1,5,nan\n")
    csv = csv.replace("A,f1,2,2,7,2\n", "A,f1,2,2,7,inf\n").replace(
        "B,f1,2,1,9,1\n", "B,f1,2,1,9,\n"
    )
    csv = csv.replace("B,f1,2,2,6,3\n", "B,f1,2,2,6,three\n")
    assert data_problems(study(tmp_path, csv)) == [
        "data/h.csv, row 6 (line 7), column 'value': empty value (every cell needs a number): ''",
        "data/h.csv, row 8 (line 9), column 'value': not a number: 'three'",
        "data/h.csv, row 2 (line 3), column 'value': NaN is not allowed: 'nan'",
        "data/h.csv, row 4 (line 5), column 'value': infinite values are not allowed here: 'inf'",
    ]


def test_negative_and_fractional_evaluations(tmp_path):
    csv = HISTORIES_CSV.replace("A,f1,2,1,5,1\n", "A,f1,2,1,-5,1\n").replace(
        "A,f1,2,2,7,2\n", "A,f1,2,2,7.5,2\n"
    )
    assert data_problems(study(tmp_path, csv)) == [
        "data/h.csv, row 2 (line 3), column 'evals': must be ≥ 0: '-5'",
        "data/h.csv, row 4 (line 5), column 'evals': must be a whole number: '7.5'",
    ]


def test_history_that_gets_worse(tmp_path):
    csv = HISTORIES_CSV.replace("A,f1,2,1,5,1\n", "A,f1,2,1,5,12\n")
    assert data_problems(study(tmp_path, csv)) == [
        "data/h.csv, row 2 (line 3): the value gets worse within a run (histories must be best-so-far values): "
        "run 1 of A on f1 (D=2), evaluation 5, value 12.0 after 10.0"
    ]


def test_repeated_evaluation_count_in_a_run(tmp_path):
    csv = HISTORIES_CSV.replace("A,f1,2,1,5,1\n", "A,f1,2,1,5,1\nA,f1,2,1,5,0.5\n")
    assert data_problems(study(tmp_path, csv)) == [
        "data/h.csv, row 3 (line 4): two records of the same run at the same evaluation count: "
        "run 1 of A on f1 (D=2), evaluation 5, value 0.5 after 1.0"
    ]


def test_non_improving_records_are_dropped(tmp_path):
    csv = HISTORIES_CSV.replace("A,f1,2,1,5,1\n", "A,f1,2,1,5,1\nA,f1,2,1,6,1\n")
    data = load_data(load_spec(study(tmp_path, csv)))
    assert len(data.sources["curves"].frame) == 16


def test_duplicate_trial_rows(tmp_path):
    write(tmp_path, "data/runs.csv", TRIALS_CSV + "A,f1,1,0.7,50\n")
    path = write(tmp_path, "study.yaml", TRIALS_SPEC)
    assert data_problems(path) == [
        "data/runs.csv, row 1 (line 2): duplicate rows for algorithm='A', problem='f1', dimension=0, run=1; "
        "also at data/runs.csv, row 5 (line 6)"
    ]


def test_trials_inf_only_where_it_means_never_reached(tmp_path):
    write(tmp_path, "data/runs.csv", TRIALS_CSV.replace("A,f1,1,0.5,100", "A,f1,1,inf,100"))
    path = write(tmp_path, "study.yaml", TRIALS_SPEC)
    assert data_problems(path) == [
        "data/runs.csv, row 1 (line 2), column 'error': infinite values are not allowed here: 'inf'"
    ]
    write(tmp_path, "data/runs.csv", TRIALS_CSV)
    frame = load_data(load_spec(path)).sources["runs"].frame
    assert math.isinf(frame["evaluations_to_target"].iloc[1])


def test_algorithm_named_in_spec_but_absent(tmp_path):
    spec = SPEC.replace("analyses:", "algorithms: [A, b]\nanalyses:")
    assert data_problems(study(tmp_path, HISTORIES_CSV, spec)) == [
        "algorithms[1] (study.yaml:10): algorithm 'b' is not in data source 'curves' (data/h.csv) "
        "(did you mean 'B'?); it has: 'A', 'B'"
    ]


def test_problem_without_data_for_some_algorithm(tmp_path):
    csv = "\n".join(line for line in HISTORIES_CSV.splitlines() if not line.startswith("B,f2"))
    assert data_problems(study(tmp_path, csv)) == [
        "data.curves: problem f2 (D=2) has no data for 'B'; every algorithm needs data on every problem "
        "(or set problems.incomplete: exclude)"
    ]
    spec = SPEC.replace("analyses:", "problems: {incomplete: exclude}\nanalyses:")
    data = load_data(load_spec(study(tmp_path, csv, spec)))
    assert set(data.sources["curves"].frame["problem"]) == {"f1"}
    assert [c.code for c in data.caveats] == ["excluded_problems"]
    assert data.caveats[0].where == "f2 (D=2) [curves]"


def test_unequal_run_counts_are_a_caveat_not_an_error(tmp_path):
    csv = HISTORIES_CSV + "A,f1,2,3,1,10\nA,f1,2,3,4,2\n"
    data = load_data(load_spec(study(tmp_path, csv)))
    (caveat,) = data.caveats
    assert caveat.code == "unequal_runs"
    assert caveat.where == "f1 (D=2) (A: 3, B: 2)"


def test_maximisation_negates_values_once(tmp_path):
    write(tmp_path, "data/runs.csv", TRIALS_CSV)
    path = write(tmp_path, "study.yaml", TRIALS_SPEC.replace("minimize: true", "minimize: false"))
    frame = load_data(load_spec(path)).sources["runs"].frame
    assert frame["value"].tolist() == [-0.5, -0.25, -1.5, -2.5]


def test_wide_table_becomes_summary(tmp_path):
    write(tmp_path, "data/table.csv", "function,A,B\nf1,1.5,2\nf2,0.25,inf\n")
    spec = """
    study: {title: Wide}
    minimize: true
    data:
      table: {path: data/table.csv, format: wide, statistic: mean, columns: {problem: function}}
    analyses:
      - {kind: significance_relation, data: table}
    """
    data = load_data(load_spec(write(tmp_path, "study.yaml", spec)))
    frame = data.sources["table"].frame
    assert data.sources["table"].format == "summary"
    assert frame[["algorithm", "problem", "mean"]].values.tolist() == [
        ["A", "f1", 1.5],
        ["A", "f2", 0.25],
        ["B", "f1", 2.0],
        ["B", "f2", math.inf],
    ]


WIDE_SPEC = """
study: {title: Wide}
minimize: true
data:
  table: {path: data/table.csv, format: wide, statistic: STATISTIC}
analyses:
  - {kind: significance_relation, data: table}
"""


@pytest.mark.parametrize(
    ("table", "statistic", "message"),
    [
        (
            "problem\nf1\nf2\n",
            "mean",
            "data/table.csv: no algorithm columns: a wide table has one column per algorithm "
            "besides 'problem'; the file has: 'problem'",
        ),
        (
            "problem,A,B\nf1,1,2\nf2,3,1\n",
            "mean, algorithm_columns: [A, problem]",
            "data/table.csv: data.table.algorithm_columns names 'problem', which is the problem "
            "column",
        ),
        (
            "problem,A,B\nf1,1,2\nf2,3,1\n",
            "mean, algorithm_columns: [A, A]",
            "data/table.csv: data.table.algorithm_columns names 'A' 2 times",
        ),
        ("problem,A,B\nf1,0,2\nf2,3,1\n", "n", "data/table.csv, row 1 (line 2), column 'A': must be ≥ 1: '0'"),
        ("problem,A,B\nf1,-1,2\nf2,3,1\n", "std", "data/table.csv, row 1 (line 2), column 'A': must be ≥ 0: '-1'"),
    ],
)  # fmt: skip
def test_a_wide_table_of_the_wrong_shape_or_cells_is_named(tmp_path, table, statistic, message):
    """A table with no algorithm column was a KeyError traceback; 'problem' among the
    algorithm columns gave 'not a number: f1' per row, 'A' twice 'duplicate rows ... also at
    row 1' about the same row; a count of 0 runs or a negative standard deviation was read
    (a summary table's own columns refuse both)."""
    write(tmp_path, "data/table.csv", table)
    path = write(tmp_path, "study.yaml", WIDE_SPEC.replace("STATISTIC", statistic))
    with pytest.raises(InputError) as info:
        load_data(load_spec(path))
    assert [str(p) for p in info.value.problems] == [message]


def test_a_summary_count_of_zero_runs_is_refused(tmp_path):
    write(tmp_path, "data/s.csv", "algorithm,problem,mean,n\nA,f1,1,0\nB,f1,2,10\n")
    spec = WIDE_SPEC.replace(
        "table.csv, format: wide, statistic: STATISTIC", "s.csv, format: summary"
    )
    with pytest.raises(InputError) as info:
        load_data(load_spec(write(tmp_path, "study.yaml", spec)))
    assert [str(p) for p in info.value.problems] == [
        "data/s.csv, row 1 (line 2), column 'n': must be ≥ 1: '0'"
    ]


def test_summary_statistics_out_of_order_are_named_at_their_cell(tmp_path):
    """columns: {minimum: worst, maximum: best} (swapped) was read without a word: the
    accuracy and robustness rankings were each other's. A minimum above the maximum, or a
    median or mean outside them, is refused at its cell; rounding to the printed digits
    (a minimum of 1.2345 beside a maximum of 1.234) is not."""
    write(
        tmp_path,
        "data/s.csv",
        "algorithm,problem,mean,median,minimum,maximum\n"
        "A,f1,2,2,5,1\n"  # minimum and maximum swapped
        "B,f1,1.2345,1.2345,1.2345,1.234\n"  # equal but for the printed digits
        "C,f1,inf,3,1,4\n",  # a mean never reached is not compared
    )
    spec = WIDE_SPEC.replace(
        "table.csv, format: wide, statistic: STATISTIC", "s.csv, format: summary"
    )
    with pytest.raises(InputError) as info:
        load_data(load_spec(write(tmp_path, "study.yaml", spec)))
    said = "(a column mapped to the wrong statistic?)"
    assert [str(p) for p in info.value.problems] == [
        f"data/s.csv, row 1 (line 2), column 'minimum': the minimum is above the row's maximum "
        f"in column 'maximum' {said}: 5.0",
        f"data/s.csv, row 1 (line 2), column 'median': the median is above the row's maximum "
        f"in column 'maximum' {said}: 2.0",
        f"data/s.csv, row 1 (line 2), column 'mean': the mean is above the row's maximum in "
        f"column 'maximum' {said}: 2.0",
        f"data/s.csv, row 1 (line 2), column 'minimum': the minimum is above the row's median "
        f"in column 'median' {said}: 5.0",
        f"data/s.csv, row 1 (line 2), column 'minimum': the minimum is above the row's mean in "
        f"column 'mean' {said}: 5.0",
    ]


def test_an_exclude_rule_for_a_dimension_the_problem_lacks_is_named(tmp_path):
    """'exclude: [{problem: f1, dimensions: [20]}]' on data of f1 in 2-D excluded nothing and
    said nothing (a typo of the dimension went unnoticed)."""
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    spec = SPEC + "problems: {exclude: [{problem: f1, dimensions: [2, 20]}]}\n"
    with pytest.raises(InputError) as info:
        load_data(load_spec(write(tmp_path, "study.yaml", spec)))
    assert [str(p) for p in info.value.problems] == [
        "problems.exclude[0].dimensions[1] (study.yaml:17): problem 'f1' has no dimension 20 "
        "in the data; it has [2]"
    ]


def test_a_problem_selection_is_checked_over_every_source(tmp_path):
    """Excluding f2, which one source of two holds, was refused: "no problem named 'f2' in
    the data" (of the other source); 'dimensions: [3]' the same way."""
    write(tmp_path, "a.csv", "algorithm,problem,dimension,run,value\nA,f1,2,1,1\nB,f1,2,1,2\n"
          "A,f2,3,1,1\nB,f2,3,1,3\n")  # fmt: skip
    write(tmp_path, "b.csv", "algorithm,problem,dimension,run,value\nA,f1,2,1,1\nB,f1,2,1,2\n")
    spec = """
    study: {title: Two sources}
    minimize: true
    data:
      a: {path: a.csv, format: trials}
      b: {path: b.csv, format: trials}
    problems: SELECTION
    analyses: [{kind: perspectives, data: a}, {kind: perspectives, data: b, id: pb}]
    """
    for selection in ("{exclude: [f2]}", "{exclude: [{problem: f2, dimensions: [3]}]}"):
        path = write(tmp_path, "study.yaml", spec.replace("SELECTION", selection))
        data = load_data(load_spec(path))
        assert sorted(map(str, data.sources["a"].frame["problem"].unique())) == ["f1"]
    path = write(tmp_path, "study.yaml", spec.replace("SELECTION", "{dimensions: [3, 4]}"))
    with pytest.raises(InputError) as info:
        load_data(load_spec(path))
    assert [str(p) for p in info.value.problems] == [
        "problems.dimensions[1] (study.yaml:6): no problem of dimension 4 in the data; it has "
        "[2, 3]",
        # Source b (read by 'pb') has dimension 2 only: nothing of it is left.
        "problems (study.yaml:6): leaves no problem of data source 'b' (it has 1 problem): "
        "there is nothing to compare",
    ]


def test_a_header_of_names_separated_by_spaces_suggests_the_whitespace_separator(tmp_path):
    """A space-separated file read as commas gave 'missing column' for every column."""
    write(tmp_path, "data/h.csv", HISTORIES_CSV.replace(",", " "))
    with pytest.raises(InputError) as info:
        load_data(load_spec(write(tmp_path, "study.yaml", SPEC)))
    (problem,) = info.value.problems
    assert problem.message.endswith(
        "the file looks separated by '\\\\s+'; set data.curves.separator: \"\\\\s+\""
    )


def test_several_files_with_paths(tmp_path):
    write_histories_per_algorithm(tmp_path)
    path = write(tmp_path, "study.yaml", SPEC.replace("path: data/h.csv", "paths: 'data/*.csv'"))
    data = load_data(load_spec(path))
    assert len(data.sources["curves"].frame) == 16
    assert [f.display for f in data.files] == ["data/a.csv", "data/b.csv"]


def test_maximisation_negates_the_start_value_column_too(tmp_path):
    csv = "algorithm,problem,run,evaluations,value,x0\n" + "\n".join(
        f"{a},p,{r},{e},{v},-100" for a in "AB" for r in (1, 2) for e, v in ((1, 1.0), (5, 3.0))
    )
    write(tmp_path, "data/h.csv", csv + "\n")
    spec = """
    study: {title: Max}
    minimize: false
    data:
      curves: {path: data/h.csv, format: histories, columns: {start_value: x0}}
    analyses:
      - {kind: performance_profiles, data: curves, profiles: [performance]}
    """
    frame = load_data(load_spec(write(tmp_path, "study.yaml", spec))).sources["curves"].frame
    # Maximising 1 → 3 is minimising −1 → −3; the start value −100 (a worst value) becomes 100.
    assert frame["value"].tolist()[:2] == [-1.0, -3.0]
    assert set(frame["start_value"]) == {100.0}


def test_maximisation_history_that_gets_worse_is_named_in_the_files_numbers(tmp_path):
    write(
        tmp_path,
        "data/h.csv",
        "algorithm,problem,run,evaluations,value\nA,p,1,1,5\nA,p,1,2,4\nB,p,1,1,5\n",
    )
    spec = """
    study: {title: Max}
    minimize: false
    data:
      curves: {path: data/h.csv, format: histories}
    analyses:
      - {kind: performance_profiles, data: curves, profiles: [performance]}
    """
    assert data_problems(write(tmp_path, "study.yaml", spec)) == [
        "data/h.csv, row 2 (line 3): the value gets worse within a run (histories must be best-so-far values): "
        "run 1 of A on p, evaluation 2, value 4.0 after 5.0"
    ]


def test_names_with_digits_int_does_not_read_are_sorted_as_text(tmp_path):
    """ "²" is a digit to str.isdigit but not a number to int() (fuzz, issue 13): names holding
    it sort as text; decimal digits of any script as numbers ("f٢" = f2 before f10)."""
    csv = TRIALS_CSV.replace("A,", "²,").replace("B,f1", "f²1,f1")
    csv += "A,f٢,1,1.0,100\nA,f٢,2,1.0,100\n²,f٢,1,1.0,100\n²,f٢,2,1.0,100\n"
    csv += "f²1,f٢,1,1.0,100\nf²1,f٢,2,1.0,100\n"
    csv += "A,f1,1,1.0,100\nA,f1,2,1.0,100\n²,f10,1,1.0,100\n²,f10,2,1.0,100\n"
    csv += "A,f10,1,1.0,100\nA,f10,2,1.0,100\nf²1,f10,1,1.0,100\nf²1,f10,2,1.0,100\n"
    data = load_data(load_spec(study(tmp_path, csv, TRIALS_SPEC, "data/runs.csv")))
    assert data.algorithms == ("A", "f²1", "²")  # "²" after letters, as text
    problems = data.sources["runs"].runs["problem"].astype(str).unique().tolist()
    assert sorted(problems, key=natural_key) == ["f1", "f٢", "f10"]


def test_a_problem_excluded_from_two_sources_counts_once(tmp_path):
    """Two sources lacking B on f2: the caveat said '2 problems were excluded' for one."""
    csv = "\n".join(line for line in HISTORIES_CSV.splitlines() if not line.startswith("B,f2"))
    write(tmp_path, "data/g.csv", csv)
    spec = SPEC.replace("analyses:", "problems: {incomplete: exclude}\nanalyses:").replace(
        "data:\n",
        "data:\n  other:\n    path: data/g.csv\n    format: histories\n"
        "    columns: {dimension: dim, evaluations: evals}\n",
        1,
    )
    data = load_data(load_spec(study(tmp_path, csv, spec)))
    (caveat,) = [c for c in data.caveats if c.code == "excluded_problems"]
    assert caveat.message.startswith("1 problem was excluded because some algorithm")
    assert caveat.where == "f2 (D=2) [other, curves]"


@pytest.mark.parametrize(
    ("sources", "data", "message"),
    [
        # One source listed twice: every run counted twice (U-score totals × 4), no warning.
        ("", "[curves, curves]", "'curves' listed more than once: merged, every run of it"),
        # Two sources reading one file: the same.
        (
            "  again: {path: data/h.csv, format: histories, columns: {dimension: dim, "
            "evaluations: evals}}\n",
            "[curves, again]",
            "the sources 'curves' and 'again' both hold run 1 of A on f1 (D=2) and 7 others: "
            "merged, each would count twice",
        ),
    ],
)
def test_sources_merged_for_an_analysis_must_not_share_runs(tmp_path, sources, data, message):
    spec = SPEC.replace("analyses:", sources + "analyses:").replace(
        "    data: curves\n", f"    data: {data}\n"
    )
    path = study(tmp_path, HISTORIES_CSV, spec)
    from reportgen.pipeline import compute_study

    with pytest.raises(InputError) as info:
        compute_study(path)
    [problem] = info.value.problems
    assert problem.where.startswith("analyses[0].data (study.yaml:")
    assert message in problem.message
    # Sources of different runs merge as before (each algorithm in its own file).
    write_histories_per_algorithm(tmp_path)
    split = SPEC.replace("path: data/h.csv", "path: data/a.csv").replace(
        "analyses:",
        "  b: {path: data/b.csv, format: histories, columns: {dimension: dim, evaluations: evals}}"
        "\nanalyses:",
    )
    split = split.replace("    data: curves\n", "    data: [curves, b]\n")
    assert compute_study(write(tmp_path, "study.yaml", split)).data.algorithms == ("A", "B")


def test_a_problem_filter_that_leaves_nothing_is_named_not_each_analysis(tmp_path):
    """problems.exclude naming every problem was reported by the analysis as "profiles
    compare algorithms: the data has fewer than two", sending the user to the data."""
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    spec = SPEC + "problems: {exclude: [f1, f2]}\n"
    assert data_problems(write(tmp_path, "study.yaml", spec)) == [
        "problems (study.yaml:17): leaves no problem of data source 'curves' (it has 2 "
        "problems): there is nothing to compare"
    ]
