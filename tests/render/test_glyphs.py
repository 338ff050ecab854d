"""Characters no installed font has print as empty boxes in the PDF: a warning names them.

An emoji in a title or an algorithm's name (``🚀Rocket``) printed as an empty box in
report.pdf, without a word, on a machine without an emoji font.
"""

from __future__ import annotations

import json

import pytest

from reportgen.errors import InputError
from reportgen.pipeline import run_study, validate_study
from reportgen.render import glyphs
from tests.conftest import HISTORIES_CSV, SPEC, write

UNASSIGNED = "\u0378"  # no code point of Unicode, so in no font
ROCKET = "\U0001f680"


def test_fontconfig_knows_what_no_font_has():
    """Against the machine's real font list: reportgen's own symbols are printable, a code
    point no font can have is not; joiners and variation selectors are never drawn."""
    if glyphs._font_coverage() is None:
        pytest.skip("fontconfig cannot be loaded here")
    assert glyphs.unprintable(["A σ λ ≤ ρ̄", f"x{UNASSIGNED}\u200d\ufe0f"]) == [UNASSIGNED]


@pytest.fixture
def no_rocket(monkeypatch):
    """Fonts that have everything but the rocket (whatever this machine has installed)."""
    monkeypatch.setattr(glyphs, "_font_coverage", lambda: lambda code: code != ord(ROCKET))


def _study(tmp_path, formats: str):
    csv = HISTORIES_CSV.replace("\nA,", f"\nA{ROCKET},")
    write(tmp_path, "data/h.csv", csv)
    text = f"# rockets {ROCKET}\n" + SPEC.lstrip("\n").replace(
        "title: Tiny study", f'title: "Rockets {ROCKET}"'
    ).replace(
        "analyses:", f'algorithms: [{{name: B, label: "B{ROCKET}"}}, "A{ROCKET}"]\nanalyses:'
    ).replace("formats: [html]", f"formats: [{formats}]")
    return write(tmp_path, "study.yaml", text)


def test_a_pdf_study_names_each_place_of_an_unprintable_character(tmp_path, no_rocket):
    spec = _study(tmp_path, "html, pdf")
    caveats = [c for c in validate_study(spec).caveats if c.code == glyphs.CODE]
    assert len(caveats) == 1
    assert "U+1F680 ROCKET" in caveats[0].message and "empty boxes" in caveats[0].message
    assert caveats[0].where.split("; ") == [
        "study.title (study.yaml:3)",
        "algorithms[0].label (study.yaml:11)",
        "algorithms[1] (study.yaml:11)",
        "study.yaml:1",  # the comment: the spec is printed whole
        f"algorithm 'A{ROCKET}' of data source 'curves' (data/h.csv)",
    ]
    # Without a PDF, nothing prints as a box.
    spec = _study(tmp_path, "html")
    assert not [c for c in validate_study(spec).caveats if c.code == glyphs.CODE]


# matplotlib's "Glyph … missing from font" (reportgen filters it; pytest's "error" comes first).
@pytest.mark.filterwarnings("ignore:Glyph:UserWarning")
def test_strict_refuses_before_writing_and_results_json_never_holds_it(
    tmp_path, no_rocket, monkeypatch
):
    spec = _study(tmp_path, "html, pdf")
    with pytest.raises(InputError, match=r"unprintable_characters\] treated as an error"):
        run_study(spec, strict=True)
    assert not (tmp_path / "out").exists()
    # The machine's fonts are no part of the results (verify reruns on another machine).
    monkeypatch.setattr("reportgen.pipeline.write_pdf", lambda html, folder, target, **_: None)
    results = run_study(spec)
    assert [o for o, c in zip(results.caveat_origins, results.caveats, strict=True)
            if c.code == glyphs.CODE] == ["pdf"]  # fmt: skip
    document = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert glyphs.CODE not in {c["code"] for c in document["caveats"]}


def test_figure_pdfs_are_checked_against_the_one_font_they_embed(tmp_path, monkeypatch):
    """report.figures.pdf writes matplotlib PDFs, which embed DejaVu Sans alone: 遗传算法
    prints there as boxes even where an installed font has it (here: every font has all)."""
    monkeypatch.setattr(glyphs, "_font_coverage", lambda: lambda code: True)
    write(tmp_path, "data/h.csv", HISTORIES_CSV.replace("\nB,", "\n遗传算法,"))
    text = SPEC.replace("formats: [html]", "formats: [html]\n  figures: {pdf: true}")
    caveats = [c for c in validate_study(write(tmp_path, "study.yaml", text)).caveats
               if c.code == glyphs.CODE]  # fmt: skip
    assert len(caveats) == 1
    assert caveats[0].message.startswith("The figures' PDF files (report.figures.pdf) embed")
    assert "U+9057" in caveats[0].message
    assert caveats[0].where == "algorithm '遗传算法' of data source 'curves' (data/h.csv)"
    # SVG figures only: the browser and the report's PDF fall back to other fonts.
    write(tmp_path, "study.yaml", SPEC)
    assert not [c for c in validate_study(tmp_path / "study.yaml").caveats
                if c.code == glyphs.CODE]  # fmt: skip
