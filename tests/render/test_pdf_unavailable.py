"""A machine without weasyprint's system libraries (Pango): said before any work, by the key.

pip installs weasyprint but not Pango. On such a machine ``reportgen run`` computed every
analysis, drew the figures, and then stopped with "report.output (study.yaml:38): cannot write
the report to …/out: cannot load library 'libpango-1.0-0' …" — blaming the output folder —
after weasyprint had printed a banner on stdout.
"""

from __future__ import annotations

import builtins
from typing import Any

import pytest

from reportgen import pipeline
from reportgen.render import pdf
from tests.conftest import run_cli

MISSING = "cannot load library 'libpango-1.0-0': libpango-1.0-0: cannot open shared object file"


def test_a_missing_pango_is_named_without_weasyprints_banner(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_import = builtins.__import__

    def failing_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "weasyprint":
            print("-----\nWeasyPrint could not import some external libraries.")
            raise OSError(MISSING)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", failing_import)
    reason = pdf.pdf_unavailable()
    assert reason is not None and MISSING in reason
    assert f"apt-get install {pdf.PANGO_PACKAGES}" in reason
    assert "leave pdf out of report.formats" in reason
    assert capsys.readouterr().out == ""


def test_without_pango_run_and_validate_stop_at_report_formats_before_any_work(
    tiny_study, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "pdf_unavailable", lambda: f"a PDF needs Pango ({MISSING})")
    tiny_study.write_text(tiny_study.read_text().replace("formats: [html]", "formats: [html, pdf]"))
    line = tiny_study.read_text().splitlines().index("  formats: [html, pdf]") + 1
    for command in ("run", "validate"):
        result = run_cli(command, str(tiny_study))
        assert result.code == 1, result.err
        assert f"  - report.formats (study.yaml:{line}): a PDF needs Pango (" in result.err
        assert "report.output" not in result.err
    run = run_cli("run", str(tiny_study))
    assert "computing" not in run.err and not (tiny_study.parent / "out").exists()
    # An HTML report needs no Pango.
    tiny_study.write_text(tiny_study.read_text().replace("formats: [html, pdf]", "formats: [html]"))
    assert run_cli("run", str(tiny_study), "-q").code == 0
