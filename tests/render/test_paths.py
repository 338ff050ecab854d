"""Published outputs name files relative to the spec, not by the author's absolute paths."""

from __future__ import annotations

import json
import re

from tests.conftest import SUMMARY_2X2_CSV, run_cli, write

CSV = SUMMARY_2X2_CSV
SPEC = """
study: {title: Paths}
minimize: true
data:
  s: {path: DATA, format: summary}
analyses:
  - kind: significance_relation
    data: s
report: {formats: [html]}
"""


def test_no_absolute_path_in_provenance_results_or_appendix(tmp_path):
    data = write(tmp_path, "elsewhere/s.csv", CSV)
    spec = write(tmp_path, "study/study.yaml", SPEC.replace("DATA", str(data)))
    out = tmp_path / "study" / "out"
    assert run_cli("run", str(spec), "-o", str(out), "--quiet").code == 0
    results = (out / "results.json").read_text()
    assert str(tmp_path) not in results
    provenance = json.loads(results)["provenance"]
    assert provenance["spec"]["path"] == "study.yaml"
    assert provenance["inputs"][0]["file"] == "../elsewhere/s.csv"
    html = (out / "report.html").read_text()
    # The spec listing too: the path the user typed, relative to the spec's folder.
    assert str(tmp_path) not in html
    assert "s: {path: ../elsewhere/s.csv, format: summary}" in html


def test_spec_listing_without_the_authors_folders(tmp_path, monkeypatch):
    """Absolute paths in any value (output, data) and in comments (the spec's folder, the home
    folder) are listed relative to the spec's folder in the appendix; the spec file keeps them."""
    home = tmp_path / "home" / "alice"
    monkeypatch.setenv("HOME", str(home))
    data = write(home, "elsewhere/s.csv", CSV)
    study = home / "study"
    text = SPEC.replace("DATA", str(data)).replace(
        "report: {formats: [html]}", f"report: {{formats: [html], output: '{study}/out'}}"
    )
    text = f"# data from {home}/elsewhere, copied to {study}/data\n" + text
    spec = write(study, "study.yaml", text)
    assert run_cli("run", str(spec), "--quiet").code == 0
    html = (study / "out" / "report.html").read_text()
    listing = re.split(r'<pre class="spec[^"]*">', html)[1].split("</pre>")[0]
    assert str(tmp_path) not in html
    assert "# data from ~/elsewhere, copied to data" in listing
    assert "path: ../elsewhere/s.csv" in listing
    assert "output: &#39;out&#39;" in listing or "output: 'out'" in listing
    assert str(home) in spec.read_text()  # the user's file is not touched


def test_absolute_paths_only_when_asked(tmp_path):
    data = write(tmp_path, "elsewhere/s.csv", CSV)
    text = SPEC.replace("DATA", str(data)).replace(
        "report: {formats: [html]}", "report: {formats: [html], paths: absolute}"
    )
    spec = write(tmp_path, "study/study.yaml", text)
    assert run_cli("run", str(spec), "--quiet").code == 0
    provenance = json.loads((tmp_path / "study/out/results.json").read_text())["provenance"]
    assert provenance["spec"]["path"] == str(spec)
    assert provenance["inputs"][0]["file"] == str(data)
    html = (tmp_path / "study/out/report.html").read_text()
    assert f"s: {{path: {data}, format: summary}}" in html
