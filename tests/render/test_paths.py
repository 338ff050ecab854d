"""Published outputs name files relative to the spec, not by the author's absolute paths."""

from __future__ import annotations

import json

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
    # The only absolute path left is the one the user typed, quoted in the spec listing.
    assert html.count(str(tmp_path)) == 1 and f"path: {data}" in html
    assert "../elsewhere/s.csv" in html


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
