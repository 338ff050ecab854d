"""The real command line, end to end, on small study folders."""

from __future__ import annotations

import gc
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from reportgen.cli import EXIT_STATUS_HELP
from tests.conftest import HISTORIES_CSV, ROOT, SPEC, run_cli, write, write_histories_per_algorithm


def test_validate_ok(tiny_study):
    result = run_cli("validate", str(tiny_study), "--quiet")
    assert result.code == 0 and result.err == ""


def test_validate_counts_in_words_that_agree(tiny_study):
    """The quickstart said "valid — 4 algorithms, 3 analyses, 1 warnings", this study
    "1 analyses"."""
    result = run_cli("validate", str(tiny_study))
    assert "reportgen: warning [" not in result.err
    assert result.out == f"{tiny_study}: valid — 2 algorithms, 1 analysis, 0 warnings\n"


def test_validate_lists_every_problem_and_exits_1(tmp_path):
    spec = SPEC.replace("minimize: true", "minimize: 3").replace("tolerances:", "tolerancs:")
    path = write(tmp_path, "study.yaml", spec)
    result = run_cli("validate", str(path))
    assert result.code == 1
    assert result.err.splitlines() == [
        "reportgen: 2 problems found:",
        "  - minimize (study.yaml:4): got 3; should be a valid boolean",
        "  - analyses[0].tolerancs (study.yaml:13): unknown key 'tolerancs' (did you mean 'tolerances'?); "
        "allowed keys: 'bound', 'budget', 'clip_bounds', 'data', 'id', 'kind', 'lambdas', 'notes', 'profiles', 'published', 'resamples', 'seed', 'select', 'start_value', 'title', 'tolerances'",
    ]
    assert "Traceback" not in result.err


def test_strict_turns_warnings_into_errors(tmp_path):
    write(tmp_path, "data/h.csv", HISTORIES_CSV + "A,f1,2,3,1,10\nA,f1,2,3,4,2\n")
    path = write(tmp_path, "study.yaml", SPEC)
    assert run_cli("validate", str(path), "--quiet").code == 0
    strict = run_cli("validate", str(path), "--strict")
    assert strict.code == 1
    assert (
        "warning [unequal_runs] treated as an error: Data source 'curves': algorithms have "
        "unequal numbers of runs" in strict.err
    )
    assert "(acknowledge it with 'accept: [unequal_runs]' in the spec)" in strict.err


def test_quiet_keeps_warnings_and_accept_acknowledges_them(tmp_path):
    write(tmp_path, "data/h.csv", HISTORIES_CSV + "A,f1,2,3,1,10\nA,f1,2,3,4,2\n")
    path = write(tmp_path, "study.yaml", SPEC)
    quiet = run_cli("validate", str(path), "--quiet")
    assert quiet.code == 0 and quiet.out == ""
    assert quiet.err.startswith("reportgen: warning [unequal_runs]: Data source 'curves'")
    accepted = write(tmp_path, "accepted.yaml", SPEC + "accept: [unequal_runs]\n")
    assert run_cli("validate", str(accepted), "--quiet", "--strict") == run_cli(
        "validate", str(accepted), "-q"
    )
    assert run_cli("validate", str(accepted), "--strict", "-q").err == ""
    loud = run_cli("validate", str(accepted))
    assert "reportgen: accepted warning [unequal_runs]" in loud.err


def test_exit_statuses_keep_usage_errors_apart_from_bugs(tiny_study, monkeypatch, capsys):
    with pytest.raises(SystemExit) as usage:
        run_cli("run", str(tiny_study), "--no-such-option")
    assert usage.value.code == 2
    with pytest.raises(SystemExit) as version:
        run_cli("--version")
    assert version.value.code == 0 and capsys.readouterr().out.startswith("reportgen ")

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("reportgen.pipeline.validate_study", broken)
    bug = run_cli("validate", str(tiny_study))
    assert bug.code == 3
    assert "internal error" in bug.err and "RuntimeError: a bug" in bug.err
    help_text = run_cli_help()
    assert "  2    usage error" in help_text and "  3    internal error" in help_text


def test_help_and_a_spec_with_errors_do_not_load_the_pipeline(tmp_path):
    """``--help`` and a spec with errors answer without importing the analyses and their
    libraries (pandas, scipy, matplotlib: seconds of start-up); a fresh interpreter, since
    this one has imported everything already."""
    bad = write(tmp_path, "study.yaml", "study:\n  title: x\nminimize: maybe\n")
    script = (
        "import sys, contextlib, io\n"
        "from reportgen.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        main(['--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        f"assert main(['run', {str(bad)!r}], stderr=io.StringIO()) == 1\n"
        "print(sorted(m for m in ('reportgen.pipeline', 'pandas', 'scipy', 'matplotlib')"
        " if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"


def run_cli_help() -> str:
    from reportgen.cli import build_parser

    return build_parser().format_help()


def test_run_writes_the_report(tiny_study):
    result = run_cli("run", str(tiny_study), "--quiet")
    assert result.code == 0, result.err
    out = tiny_study.parent / "out"
    assert (out / "report.html").is_file() and not (out / "report.pdf").exists()
    for name in ("t", "profiles", "mean_ranking", "problems"):
        assert (out / "tables" / "performance_profiles" / f"{name}.csv").is_file()
        assert (
            (out / "tables" / "performance_profiles" / f"{name}.tex")
            .read_text()
            .startswith("\\begin{tabular}")
        )
    figures = sorted(p.name for p in (out / "figures" / "performance_profiles").iterdir())
    # SVG only: no output of this spec asks for PDF copies (report.figures.pdf)
    assert "performance_tau_0.001.svg" in figures and "data_tau_0.1.svg" in figures
    assert not [name for name in figures if not name.endswith(".svg")]
    results = json.loads((out / "results.json").read_text())
    assert results["analyses"]["performance_profiles"]["result"]["parameters"]["tolerances"] == [
        0.1,
        0.001,
    ]
    html = (out / "report.html").read_text()
    assert "Tiny study" in html and "Figure 1." in html
    assert html.count("<script>") == 1  # only reportgen's own table sorter


def test_results_and_tables_are_byte_identical_across_runs(tiny_study, tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    assert run_cli("run", str(tiny_study), "-o", str(first), "--quiet").code == 0
    assert run_cli("run", str(tiny_study), "-o", str(second), "--quiet").code == 0

    def without_provenance(folder):
        data = json.loads((folder / "results.json").read_text())
        data.pop("provenance")
        return data

    assert without_provenance(first) == without_provenance(second)
    for table in (first / "tables").rglob("*.*"):
        assert table.read_bytes() == (second / table.relative_to(first)).read_bytes(), table


def test_strings_from_the_data_are_escaped(tmp_path):
    evil = "<script>alert(1)</script>"
    write(tmp_path, "data/h.csv", HISTORIES_CSV.replace("\nB,", f'\n"{evil}",'))
    path = write(
        tmp_path, "study.yaml", SPEC.replace("title: Tiny study", "title: '<b>bold</b> & co'")
    )
    assert run_cli("run", str(path), "--quiet").code == 0
    html = (tmp_path / "out" / "report.html").read_text()
    assert evil not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>bold</b>" not in html and "&lt;b&gt;bold&lt;/b&gt; &amp; co" in html


def test_failed_run_keeps_the_previous_report(tiny_study):
    assert run_cli("run", str(tiny_study), "--quiet").code == 0
    out = tiny_study.parent / "out"
    before = (out / "results.json").read_bytes()
    (tiny_study.parent / "data" / "h.csv").write_text(
        HISTORIES_CSV.replace("A,f1,2,1,5,1", "A,f1,2,1,5,oops")
    )
    result = run_cli("run", str(tiny_study))
    assert result.code == 1 and "not a number: 'oops'" in result.err
    assert (out / "results.json").read_bytes() == before
    assert not [p for p in tiny_study.parent.iterdir() if p.name.startswith(".reportgen-")]


def test_a_run_gives_the_garbage_collector_back_as_it_found_it(tiny_study):
    """``run`` freezes the imported libraries and collects less often while it runs (a speed
    measure); a process that runs reports in turn must get its collector back unchanged,
    after a failed run too."""
    before = gc.get_threshold()
    assert run_cli("run", str(tiny_study), "--quiet").code == 0
    assert (gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()) == (before, 0, True)
    (tiny_study.parent / "data" / "h.csv").write_text("not,a,history\n")
    assert run_cli("run", str(tiny_study), "--quiet").code == 1
    assert (gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()) == (before, 0, True)


def test_the_program_leaves_its_objects_frozen_for_the_exit(tiny_study):
    """The ``reportgen`` program (``main()`` on ``sys.argv``) ends with the command: its
    objects stay frozen, so that the interpreter's collection at exit does not traverse them
    all again; the collector's thresholds are still given back, and the report is written as
    it is in-process (a fresh interpreter: this one must keep its collector)."""
    out = tiny_study.parent / "program"
    script = (
        "import gc, sys\n"
        "from reportgen.cli import main\n"
        f"sys.argv = ['reportgen', 'run', {str(tiny_study)!r}, '-o', {str(out)!r}, '-q']\n"
        "before = gc.get_threshold()\n"
        "code = main()\n"
        "print(code, gc.get_freeze_count() > 10_000, gc.get_threshold() == before)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.split() == ["0", "True", "True"], done.stderr
    assert run_cli("run", str(tiny_study), "-q").code == 0
    assert (out / "report.html").is_file()
    program, in_process = (
        json.loads((o / "results.json").read_text()) for o in (out, out.parent / "out")
    )
    assert program["analyses"] == in_process["analyses"]


def test_refuses_to_replace_a_folder_it_did_not_write(tiny_study):
    out = tiny_study.parent / "out"
    out.mkdir()
    (out / "precious.txt").write_text("keep me")
    result = run_cli("run", str(tiny_study))
    assert result.code == 1 and "was not written by reportgen; refusing to replace it" in result.err
    assert "report.output (study.yaml:" in result.err  # the spec's setting, where it is written
    assert (out / "precious.txt").read_text() == "keep me"
    # A folder given with -o is named as given there, not as the spec's report.output.
    result = run_cli("run", str(tiny_study), "-o", str(out))
    assert result.code == 1 and "  - the output folder given (-o, output_dir): " in result.err


def test_output_folder_may_not_contain_the_study(tiny_study):
    result = run_cli("run", str(tiny_study), "-o", str(tiny_study.parent))
    assert result.code == 1 and "contains the study's own files" in result.err
    assert "the output folder given (-o, output_dir)" in result.err


def test_an_output_folder_that_cannot_be_made_is_refused_before_the_analyses(tiny_study):
    """A path through a file, or through a symbolic link that leads to no file, fails only
    where the first file is written — after every analysis — unless found first."""
    loop = tiny_study.parent / "loop"
    loop.symlink_to(loop)
    for given, culprit in (
        (tiny_study / "out", f"{tiny_study} is a file, not a folder"),
        (loop / "out", f"{loop} is a symbolic link that leads to no file"),
        (loop, f"{loop} is a symbolic link that leads to no file"),
    ):
        result = run_cli("run", str(tiny_study), "-o", str(given))
        assert result.code == 1, result.err
        assert f"cannot write the report to {given}: {culprit}" in result.err
        assert "computing" not in result.err  # refused before any analysis ran
    assert sorted(p.name for p in tiny_study.parent.iterdir()) == ["data", "loop", "study.yaml"]


def test_a_symbolic_link_loop_is_named_as_such_not_a_traceback(tiny_study):
    """Path.resolve raises on a link that leads back to itself (a traceback before the
    file is opened); the spec and its data files say what the link is instead."""
    loop = tiny_study.parent / "loop.yaml"
    loop.symlink_to(loop)
    result = run_cli("run", str(loop))
    assert result.code == 1
    assert "the spec file is a symbolic link that leads to no file, to itself" in result.err
    data_loop = tiny_study.parent / "data" / "loop.csv"
    data_loop.symlink_to(data_loop)
    tiny_study.write_text(tiny_study.read_text().replace("data/h.csv", "data/loop.csv"))
    result = run_cli("run", str(tiny_study))
    assert result.code == 1
    assert "data.curves.path (study.yaml:7): the data file 'data/loop.csv' is a symbolic link" in (
        result.err
    )


def test_schema_command_prints_the_models_schema():
    """What ``make schema`` writes to schemas/study.schema.json (tests/spec/test_schema.py
    checks the file against the same function)."""
    from reportgen.spec.schema import study_schema

    result = run_cli("schema")
    assert result.code == 0
    assert json.loads(result.out) == study_schema()


def test_init_writes_a_runnable_study(tmp_path):
    target = tmp_path / "mystudy"
    result = run_cli("init", str(target))
    assert result.code == 0
    assert (target / "study.yaml").is_file() and any((target / "data").iterdir())
    assert run_cli("validate", str(target / "study.yaml"), "--quiet").code == 0
    assert run_cli("init", str(target)).code == 1  # not empty any more


def test_help_for_every_command(capsys):
    """Every command's help ends with the exit status (only the program's did: the author of
    a cron job reading 'reportgen run --help' did not find them)."""
    for command in ("validate", "run", "verify", "schema", "init"):
        with pytest.raises(SystemExit) as info:
            run_cli(command, "--help")
        assert info.value.code == 0
        help_text = capsys.readouterr().out
        assert help_text.rstrip().endswith(EXIT_STATUS_HELP.rstrip()), command
        if command == "run":
            assert "--strict" in help_text
        if command == "verify":  # a one-paragraph description is still wrapped
            assert max(len(line) for line in help_text.splitlines()) <= 100


def test_an_analysis_reads_several_sources_of_one_format(tmp_path):
    write_histories_per_algorithm(tmp_path)
    spec = SPEC.replace(
        "  curves:\n    path: data/h.csv\n    format: histories\n    columns: {dimension: dim, evaluations: evals}\n",
        "  a:\n    path: data/a.csv\n    format: histories\n    columns: {dimension: dim, evaluations: evals}\n"
        "  b:\n    path: data/b.csv\n    format: histories\n    columns: {dimension: dim, evaluations: evals}\n",
    ).replace("data: curves", "data: [a, b]")
    path = write(tmp_path, "study.yaml", spec)
    assert run_cli("run", str(path), "--quiet").code == 0
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["algorithms"] == ["A", "B"]
    assert [f["file"] for f in results["provenance"]["inputs"]] == ["data/a.csv", "data/b.csv"]


def test_caveats_name_algorithms_by_their_labels(tmp_path):
    write(tmp_path, "data/h.csv", HISTORIES_CSV + "A,f1,2,3,1,10\nA,f1,2,3,4,2\n")
    spec = SPEC.replace("analyses:", "algorithms: [{name: A, label: Alpha}, B]\nanalyses:")
    path = write(tmp_path, "study.yaml", spec)
    assert run_cli("run", str(path), "--quiet").code == 0
    html = (tmp_path / "out" / "report.html").read_text()
    caveats = html[html.index('id="caveats"') :]
    assert "f1 (D=2) (Alpha: 3, B: 2)" in caveats


def test_an_analysis_notes_appear_in_its_section_after_the_findings(tmp_path):
    write(tmp_path, "data/h.csv", HISTORIES_CSV)
    spec = SPEC.replace(
        "    tolerances: [0.1, 0.001]",
        "    tolerances: [0.1, 0.001]\n    notes: ['The published table differs here & why.']",
    )
    path = write(tmp_path, "study.yaml", spec)
    assert run_cli("run", str(path), "--quiet").code == 0
    html = (tmp_path / "out" / "report.html").read_text()
    section = html[html.index('id="sec-performance_profiles"') :]
    note = section.index("Note (from the study): The published table differs here &amp; why.")
    assert section.index("<li") < note  # after the findings list


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_plain_lines_otherwise():
    from reportgen.cli import Progress

    terminal = _Terminal()
    bar = Progress(terminal, quiet=False, total=4)
    for message in ("loading data", "laying out pages", "laying out pages (10 s)", "writing"):
        bar(message)
    frames = [f.strip() for f in terminal.getvalue().split("\r") if f]
    # A message that extends the previous one is the same stage: 3 stages of 4 after 4 messages.
    assert [f.split("] ", 1)[1] for f in frames] == [
        "█████░░░░░░░░░░░░░░░ 1/4 loading data",
        "██████████░░░░░░░░░░ 2/4 laying out pages",
        "██████████░░░░░░░░░░ 2/4 laying out pages (10 s)",
        "███████████████░░░░░ 3/4 writing",
    ]
    log = io.StringIO()
    plain = Progress(log, quiet=False, total=4)
    plain("loading data")
    assert log.getvalue().endswith("] loading data\n") and "\r" not in log.getvalue()


@pytest.mark.parametrize("rtol", ["-1", "nan", "inf", "1e400"])
def test_verify_refuses_a_tolerance_that_is_no_finite_number_before_rerunning(
    tmp_path, rtol, capsys
):
    """'--rtol -1' was a ValueError traceback (exit 3) after the whole rerun; '--rtol inf'
    let every number pass and 'nan' none. Now a usage error (exit 2), before any work: the
    supplement need not even exist."""
    with pytest.raises(SystemExit) as usage:
        run_cli("verify", str(tmp_path / "none.zip"), f"--rtol={rtol}")
    err = capsys.readouterr().err
    assert usage.value.code == 2 and "Traceback" not in err
    assert f"argument --rtol: must be a finite number ≥ 0, got '{rtol}'" in err


@pytest.mark.parametrize(
    ("output", "message"),
    [
        ("data", "contains the study's own files (h.csv); choose a folder of its own"),
        ("notes.txt", "exists and was not written by reportgen; refusing to replace it"),
    ],
)
def test_validate_refuses_the_output_folder_run_refuses(tiny_study, output, message):
    """'report: {output: data}' (the data's own folder) validated as 'valid', then 'run'
    refused it: validate now lists the problem run would give."""
    write(tiny_study.parent, "notes.txt", "mine\n")
    text = tiny_study.read_text(encoding="utf-8")
    tiny_study.write_text(text.replace("output: out", f"output: {output}"))
    validated, ran = run_cli("validate", str(tiny_study)), run_cli("run", str(tiny_study), "-q")
    assert validated.code == ran.code == 1
    assert message in validated.err and "report.output (study.yaml:" in validated.err
    assert validated.err.splitlines()[-1] == ran.err.splitlines()[-1]


@pytest.mark.parametrize("inside", ["", "tables"])
def test_the_current_folder_is_refused_as_output_folder(tiny_study, monkeypatch, inside):
    """'cd out && reportgen run ../study.yaml -o .' replaced the folder the shell stood in: the
    report was written, but the shell was left in the deleted folder, which lists as empty.
    The current folder (or a folder holding it) is now refused, and the report left alone."""
    assert run_cli("run", str(tiny_study), "-q").code == 0
    out = tiny_study.parent / "out"
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    monkeypatch.chdir(out / inside)
    result = run_cli("run", str(tiny_study), "-o", str(out), "-q")
    assert result.code == 1
    assert f"the output folder {out} is the current folder or holds it" in result.err
    assert Path.cwd().exists()
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
