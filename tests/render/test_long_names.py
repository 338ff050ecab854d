"""Absurdly long names: shortened with an ellipsis everywhere the reader sees them (issue 13).

Names up to 1000 characters are accepted (longer ones are refused with the row, see
tests/data/test_read_guard.py); in figures, tables, sentences and warnings they print as
their start and end around "…", and results.json keeps them in full.
"""

from __future__ import annotations

import json
import re
import time

from reportgen.errors import shorten, shorten_words
from reportgen.present.labels import Labels
from tests.conftest import run_cli, write

LONG_A = "Q" * 900 + "-one"
LONG_B = "Q" * 900 + "-two"


def test_shorten_keeps_start_and_end():
    assert shorten("abc", 5) == "abc"
    assert shorten("abcdefghij", 5) == "abcd…"
    assert shorten("abcdefghij", 6, keep_end=2) == "abc…ij"
    assert Labels().label(LONG_A) == "Q" * 21 + "…" + "QQQQQQ-one"
    assert Labels().label(LONG_A) != Labels().label(LONG_B)
    assert (
        shorten_words(f"run 1 of {LONG_A} on f1") == f"run 1 of {'Q' * 35}…{'QQQQQQQQ-one'} on f1"
    )
    assert shorten_words("sha " + "a" * 64) == "sha " + "a" * 64  # hashes stay whole


def test_a_report_with_900_character_names(tmp_path):
    rows = ["algorithm,problem,dimension,run,value"]
    for name in (LONG_A, LONG_B, "short"):
        for p in (1, 2, 3):
            for r in (1, 2, 3):
                rows.append(f"{name},f{p},10,{r},{(len(name) % 7 + p * r) / 3}")
    write(tmp_path, "data/t.csv", "\n".join(rows) + "\n")
    spec = write(
        tmp_path,
        "study.yaml",
        """
        study: {title: Long names}
        minimize: true
        data:
          t: {path: data/t.csv, format: trials}
        analyses:
          - kind: perspectives
            data: t
          - kind: significance_relation
            data: t
        report: {formats: [html]}
        """,
    )
    started = time.process_time()
    result = run_cli("run", str(spec))  # warnings are errors: no collapsed figure layout
    assert result.code == 0, result.err
    assert time.process_time() - started < 60
    assert max(len(line) for line in result.err.splitlines()) < 1000
    out = tmp_path / "out"
    page = (out / "report.html").read_text()
    text = re.sub(r"<[^>]+>", " ", re.split(r'<pre class="spec[^"]*">', page)[0])
    assert not re.search(r"Q{60,}", text), "a long name printed in full"
    assert "…" in text
    for tex in (out / "tables").rglob("report_*.tex"):
        assert not re.search(r"Q{60,}", tex.read_text()), tex
    results = json.loads((out / "results.json").read_text())
    assert LONG_A in results["algorithms"]  # the machine-readable record keeps the name
