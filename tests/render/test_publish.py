"""The report folder is replaced all at once, by one run at a time (issue 13).

A failure while writing the outputs or the PDF, a kill -9, or two runs racing must leave the
previous report intact and nothing behind; an unwritable output location is exit 1.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from reportgen import pipeline
from reportgen.pipeline import run_study
from reportgen.render.publish import publish
from tests.conftest import ROOT, run_cli


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def leftovers(parent: Path) -> list[str]:
    return sorted(
        p.name for p in parent.iterdir() if p.name.startswith(".reportgen-") or ".old-" in p.name
    )


@pytest.fixture
def previous_report(tiny_study: Path) -> tuple[Path, dict[str, bytes]]:
    assert run_cli("run", str(tiny_study), "--quiet").code == 0
    out = tiny_study.parent / "out"
    return out, snapshot(out)


def test_failure_while_writing_outputs_keeps_the_previous_report(
    tiny_study, previous_report, monkeypatch
):
    out, before = previous_report

    def half_written(data, path):
        path.write_text('{"truncated": ')
        raise RuntimeError("disk went away")

    monkeypatch.setattr(pipeline, "write_json", half_written)
    with pytest.raises(RuntimeError, match="disk went away"):
        run_study(tiny_study)
    assert snapshot(out) == before
    assert leftovers(tiny_study.parent) == []


def test_failure_in_the_pdf_keeps_the_previous_report(tiny_study, previous_report, monkeypatch):
    out, before = previous_report
    tiny_study.write_text(tiny_study.read_text().replace("formats: [html]", "formats: [html, pdf]"))

    def broken_pdf(html, folder, target, progress=None):
        target.write_bytes(b"%PDF-1.7 half a page")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pipeline, "write_pdf", broken_pdf)
    result = run_cli("run", str(tiny_study), "--quiet")
    assert result.code == 1
    assert "cannot write the report to" in result.err and "No space left on device" in result.err
    assert "Traceback" not in result.err
    assert snapshot(out) == before
    assert leftovers(tiny_study.parent) == []


def test_kill_minus_9_mid_run_then_the_next_run_succeeds_and_cleans_up(tiny_study):
    """Kill the run once its staging folder exists; the next run removes it."""
    tiny_study.write_text(tiny_study.read_text().replace("formats: [html]", "formats: [html, pdf]"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "reportgen", "run", str(tiny_study), "--quiet"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not leftovers(tiny_study.parent) and process.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
    if process.returncode == -signal.SIGKILL:  # killed mid-run (not finished first)
        assert leftovers(tiny_study.parent), "a killed run leaves its staging folder"
    result = run_cli("run", str(tiny_study), "--quiet")
    assert result.code == 0, result.err
    assert leftovers(tiny_study.parent) == []
    assert (tiny_study.parent / "out" / "report.pdf").is_file()


def test_stale_staging_and_old_folders_are_removed(tiny_study):
    parent = tiny_study.parent
    (parent / ".reportgen-out-dead1234").mkdir()
    (parent / ".reportgen-out-dead1234" / "report.html").write_text("half")
    (parent / ".out.old-99999").mkdir()
    (parent / ".reportgen-other-5678").mkdir()  # another output folder's: not ours to remove
    assert run_cli("run", str(tiny_study), "--quiet").code == 0
    assert leftovers(parent) == [".reportgen-other-5678"]


def test_output_folder_honours_the_umask(tiny_study):
    """Not mkdtemp's 0700: a group (or a web server) reads a scheduled report."""
    old = os.umask(0o027)
    try:
        assert run_cli("run", str(tiny_study), "--quiet").code == 0
    finally:
        os.umask(old)
    assert (tiny_study.parent / "out").stat().st_mode & 0o777 == 0o750


def test_a_user_file_in_the_previous_report_is_named_before_it_goes(previous_report, tiny_study):
    out, _ = previous_report
    (out / "my notes.txt").write_text("mine")
    result = run_cli("run", str(tiny_study), "--quiet")
    assert result.code == 0
    assert "warning [user_files_deleted]" in result.err and "my notes.txt" in result.err
    assert str(out) in result.err


def test_two_runs_racing_on_one_folder_take_turns(tmp_path):
    target = tmp_path / "out"
    errors: list[BaseException] = []

    def writer(tag: str):
        def write(folder: Path) -> None:
            (folder / ".marker").write_text("reportgen\n")
            for i in range(20):
                (folder / f"{i}.txt").write_text(tag)
                time.sleep(0.005)

        def go() -> None:
            try:
                publish(target, write, marker=".marker", where="report.output")
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        return go

    threads = [threading.Thread(target=writer(t)) for t in "abcd"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    contents = {p.read_text() for p in target.glob("*.txt")}
    assert len(contents) == 1  # one run's report, whole
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(
    ("where", "reason"),
    [
        ("file", "a-file is a file, not a folder"),  # found before the analyses run
        ("/proc/reportgen-out", "cannot write the report to /proc/reportgen-out"),
        ("/sys/reportgen-out", "cannot write the report to /sys/reportgen-out"),
    ],
)
def test_unwritable_output_location_is_exit_1(tiny_study, where, reason):
    if where == "file":
        (tiny_study.parent / "a-file").write_text("x")
        where = str(tiny_study.parent / "a-file" / "out")
    result = run_cli("run", str(tiny_study), "-o", where, "--quiet")
    assert result.code == 1, result.err
    assert reason in result.err and "Traceback" not in result.err


def test_read_only_output_folder_is_exit_1(tiny_study, monkeypatch):
    """Root ignores file modes, so the read-only file system is simulated where it bites."""

    def read_only(*args, **kwargs):
        raise OSError(30, "Read-only file system", str(tiny_study.parent))

    monkeypatch.setattr("reportgen.render.publish.tempfile.mkdtemp", read_only)
    result = run_cli("run", str(tiny_study), "--quiet")
    assert result.code == 1
    assert "cannot write the report to" in result.err and "Read-only file system" in result.err
