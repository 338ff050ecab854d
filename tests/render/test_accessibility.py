"""The HTML report for readers with a screen reader or a keyboard: a skip link first, landmarks,
headings without a skipped level, every image and table named, text colours of WCAG AA
contrast; the PDF without any of the screen's aids.

The structure is read from a rendered report (HTML parsed with the standard library)."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from reportgen.figures.style import contrast_ratio as contrast
from reportgen.render.html import caption_title
from reportgen.resources import resource
from tests.conftest import run_cli, write
from tests.render.test_report_script import CHROMIUM, _run_probe

STYLE = Path(str(resource("templates"))) / "report.css"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small report (HTML and PDF) with figures, sortable tables, a relation graph, formulas."""
    folder = tmp_path_factory.mktemp("a11y")
    rows = ["algorithm,problem,dimension,mean,std,n"]
    for j, (a, b, c) in enumerate([(1.0, 2.0, 3.0), (2.0, 1.0, 4.0), (3.0, 2.5, 1.0)]):
        rows += [f"A,f{j},2,{a},0.2,10", f"B,f{j},2,{b},0.1,10", f"C,f{j},2,{c},0.2,10"]
    write(folder, "data/t.csv", "\n".join(rows) + "\n")
    spec = write(
        folder,
        "study.yaml",
        """
        study: {title: Accessibility probe}
        minimize: true
        data:
          table: {path: data/t.csv, format: summary}
        analyses:
          - {kind: probabilistic_profiles, data: table, cost: value, model: normal, x_max: 10}
          - {kind: significance_relation, data: table}
          - {kind: problem_table, data: table}
        report: {formats: [html, pdf]}
        """,
    )
    result = run_cli("run", str(spec), "--quiet")
    assert result.code == 0, result.err
    return folder / "out" / "report.html"


class _Page(HTMLParser):
    """The elements of the page in document order (tag, attributes), each element's text by
    id, and the text of each heading and figure caption."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.text_by_id: dict[str, str] = {}
        self.headings: list[int] = []
        self.figcaptions: list[str] = []
        self._open: list[tuple[str, str | None, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {k: v or "" for k, v in attrs}
        self.elements.append((tag, named))
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        if tag not in ("img", "meta", "br", "link", "input"):
            self._open.append((tag, named.get("id"), []))

    def handle_data(self, data: str) -> None:
        for _, _, parts in self._open:
            parts.append(data)

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            open_tag, ident, parts = self._open.pop()
            text = " ".join("".join(parts).split())
            if ident:
                self.text_by_id[ident] = text
            if open_tag == "figcaption":
                self.figcaptions.append(text)
            if open_tag == tag:
                break

    def all(self, tag: str) -> list[dict[str, str]]:
        return [attrs for t, attrs in self.elements if t == tag]


def _page(report: Path) -> _Page:
    page = _Page()
    page.feed(report.read_text(encoding="utf-8"))
    return page


def test_the_first_tab_stop_skips_to_the_content(report: Path) -> None:
    """Before the content come the sidebar's and the contents' links (and, with the script,
    every sortable header): the first Tab stop is a link past them, to <main>, which takes
    the focus (tabindex -1) so that the next Tab goes on from there."""
    page = _page(report)
    focusable = [
        (tag, attrs)
        for tag, attrs in page.elements
        if (tag == "a" and "href" in attrs) or attrs.get("tabindex", "-1") != "-1"
    ]
    tag, first = focusable[0]
    assert tag == "a" and "skip-link" in first.get("class", "")
    (main,) = page.all("main")
    assert first["href"] == "#" + main["id"] and main.get("tabindex") == "-1"
    assert page.text_by_id.get(main["id"], "").startswith("1 Executive summary")
    css = STYLE.read_text(encoding="utf-8")
    # Off screen until focused, then shown; never printed.
    assert re.search(r"\.skip-link\s*{[^}]*top:\s*-\d", css)
    assert re.search(r"\.skip-link:focus\s*{[^}]*top:\s*\d", css)
    print_rules = css[css.index("@media print") :]
    assert re.search(r"\.skip-link[^{]*{\s*display:\s*none", print_rules)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_the_pdf_has_no_skip_link(report: Path) -> None:
    text = subprocess.run(
        ["pdftotext", str(report.with_name("report.pdf")), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Skip to content" not in text and "Executive summary" in text


def test_landmarks_one_main_and_each_navigation_named_apart(report: Path) -> None:
    page = _page(report)
    assert len(page.all("main")) == 1
    labels = [nav.get("aria-label") for nav in page.all("nav")]
    assert len(labels) == 2 and all(labels) and len(set(labels)) == 2


def test_headings_start_at_one_and_never_skip_a_level(report: Path) -> None:
    levels = _page(report).headings
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b <= a + 1 for a, b in itertools.pairwise(levels)), levels


def test_a_figure_is_named_by_its_title_and_described_once_by_its_caption(report: Path) -> None:
    """The image's alt names the figure ("Figure 3: Significance relation at σ = 2"); the
    caption under it, read next, describes it. The whole caption as alt was read twice."""
    page = _page(report)
    figures = [img["alt"] for img in page.all("img") if "math" not in img.get("class", "")]
    captions = [c for c in page.figcaptions if c.startswith("Figure")]
    assert len(figures) >= 3 and len(figures) == len(captions)
    for alt, caption in zip(figures, captions, strict=True):
        number = caption.split(".")[0]  # "Figure 3"
        assert alt.startswith(number + ": ") and len(alt) < len(caption), (alt, caption)
        assert alt.removeprefix(number + ": ").replace(" sub ", "") in caption.replace("_", "")
    assert all(img.get("alt") for img in page.all("img"))


@pytest.mark.parametrize(
    ("caption", "title"),
    [
        (
            "Significance relation at σ = 60: x → y means D(x, y) ≥ 60 award points.",
            "Significance relation at σ = 60",
        ),
        (  # a colon inside parentheses is not the title's end
            "Award points D(x, y) of x over y (statistic: mean; |D| ≤ 325). Blue: x better.",
            "Award points D(x, y) of x over y (statistic: mean; |D| ≤ 325)",
        ),
        ("How sure: the probability p_first that it ranks first.", "How sure"),
        ("Shares at D=20 with p_first of A.", "Shares at D=20 with p sub first of A"),
    ],
)
def test_caption_title(caption: str, title: str) -> None:
    assert caption_title(caption) == title


def test_every_table_is_named(report: Path) -> None:
    """A screen reader announces a table by its name: each table is labelled by its caption
    (the figure's), its appendix heading, or a <caption>."""
    page = _page(report)
    tables = page.all("table")
    assert len(tables) >= 4
    for table in tables:
        label = table.get("aria-labelledby", "")
        assert label and page.text_by_id.get(label), table


def test_every_text_colour_has_aa_contrast_on_every_background_it_stands_on() -> None:
    """Body text needs 4.5:1 (WCAG 1.4.3): ink, muted (captions' file names, notes, page
    numbers) and accent (numbers, the skip link's background under white) on the page and on
    the tinted boxes (caveats, best cells, the sidebar, the spec listing)."""
    css = STYLE.read_text(encoding="utf-8")
    names = dict(re.findall(r"--([a-z]+):\s*(#[0-9a-fA-F]{6})", css))
    backgrounds = ["#ffffff", names["best"], names["caveat"], "#fafbfc", "#f5f6f7"]
    for text in (names["ink"], names["muted"], names["accent"]):
        for background in backgrounds:
            assert contrast(text, background) >= 4.5, (text, background)
    assert contrast("#ffffff", names["accent"]) >= 4.5  # the skip link


def test_each_row_of_a_result_table_is_headed_by_its_first_cell(report: Path) -> None:
    """A screen reader names a cell by its column's and its row's headers: the first cell of
    each row (the algorithm, problem or pair) is the row's header."""
    html = report.read_text(encoding="utf-8")
    bodies = re.findall(r'<table class="sortable".*?<tbody>(.*?)</tbody>', html, re.S)
    rows = [row for body in bodies for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]
    assert len(rows) > 10
    for row in rows:
        cells = re.findall(r"<(t[hd])\b([^>]*)>", row)
        assert cells[0][0] == "th", row
        assert re.fullmatch(r' scope="row"( class="(best|short|best short)")?', cells[0][1]), row
        assert all(tag == "td" for tag, _ in cells[1:]), row


PROBE = """<script>
var out = [];
document.querySelectorAll("table.sortable tbody tr").forEach(function (tr) {
  var head = getComputedStyle(tr.cells[0]), cell = getComputedStyle(tr.cells[1]);
  if (tr.cells[0].className !== tr.cells[1].className) { return; }
  ["fontFamily", "fontWeight", "fontSize", "textAlign", "verticalAlign", "paddingLeft",
   "paddingTop", "borderBottomWidth", "backgroundColor"].forEach(function (k) {
    if (head[k] !== cell[k]) { out.push(k + ": " + head[k] + " / " + cell[k]); }
  });
  out.push("row");
});
document.body.setAttribute("data-probe", JSON.stringify(out));
</script>"""


def test_a_row_header_looks_like_the_cells_beside_it(report: Path, tmp_path: Path) -> None:
    """The row header is for the screen reader: on the screen (and so in the PDF, from the
    same rules) it is set as the data cells are, not bold and centred as a header cell."""
    if CHROMIUM is None:
        pytest.skip("chromium is not installed: scripts/system-deps.sh test")
    html = report.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>")
    differences = _run_probe(report, html, tmp_path, "1250,900")
    assert "row" in differences
    assert [d for d in differences if d != "row"] == []
