"""The HTML report's script and stylesheet: numeric sort of every number as printed, the
contents sidebar from 1200 px with subsections and the current section marked, figure zoom by
keyboard, caveats with only their first sentence in bold (issue 18, "HTML").

The sort key runs in node; the behaviour runs in headless Chromium on a generated report with
a probe appended (keys pressed, a header clicked, the page scrolled), which writes what it saw
into the DOM that Chromium dumps. Missing tools skip their checks with the reason.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from reportgen.render.html import lead_sentence
from reportgen.resources import resource
from tests.conftest import run_cli, write

NODE = shutil.which("node") or shutil.which("nodejs")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCRIPT = Path(str(resource("templates"))) / "report.js"
STYLE = Path(str(resource("templates"))) / "report.css"


def _node(program: str) -> object:
    if NODE is None:
        pytest.skip("node is not installed")
    run = subprocess.run(
        [NODE, "-e", f"const m = require({json.dumps(str(SCRIPT))});\n{program}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(run.stdout)


# Every form a number takes in the report's tables, and the value it must sort as.
PRINTED = {
    "10⁻³": 1e-3,  # a bare power of ten: parseFloat alone reads 10
    "10⁶": 1e6,
    "2.5×10⁻⁴": 2.5e-4,
    "3·10⁵": 3e5,
    "−2.5×10⁻⁴": -2.5e-4,
    "1.2e-5": 1.2e-5,
    "1.2e−5": 1.2e-5,  # with a minus sign
    "1.0E+03": 1e3,
    "−3": -3.0,
    "83%": 83.0,
    "83 %": 83.0,
    "< 0.001": 1e-3,
    "1,234.5": 1234.5,
    "0.00e+00": 0.0,
    "≤ 0.401": 0.401,
    "1×10⁻⁸ ±\u00a00\u00a0≈": 1e-8,  # a mean ± SD with its test mark
    "7/3/14": 7.0,  # wins/ties/losses: by the wins
    "0.42 [0.31, 0.55]": 0.42,
    ".5": 0.5,
}


def test_every_printed_number_sorts_by_its_value() -> None:
    keys = _node(
        f"const texts = {json.dumps(list(PRINTED))};\n"
        "console.log(JSON.stringify(texts.map(t => m.sortKey(t))));"
    )
    assert isinstance(keys, list)
    for text, (kind, value) in zip(PRINTED, keys, strict=True):
        assert kind == 0 and value == pytest.approx(PRINTED[text]), text
    # ∞ sorts after every number (JSON has no Infinity: compared in node).
    assert _node('console.log(JSON.stringify(m.sortKey("∞")[1] === Infinity))') is True
    assert _node('console.log(JSON.stringify(m.sortKey("−∞")[1] === -Infinity))') is True


def test_a_mixed_column_sorts_numbers_then_words_and_blanks_last_both_ways() -> None:
    texts = ["10⁻³", "—", "EA4", "2", "1.2e-5", "", "∞", "83%", "abc", "–"]
    up, down = _node(
        f"const t = {json.dumps(texts)};\n"
        "console.log(JSON.stringify([m.order(t, true), m.order(t, false)]));"
    )  # type: ignore[misc]
    assert [texts[i] for i in up] == ["1.2e-5", "10⁻³", "2", "83%", "∞", "abc", "EA4", "—", "", "–"]
    # Words in natural order: problem names with numbers.
    names = ["F10 (D=10)", "F2 (D=20)", "F2 (D=10)", "F1 (D=10)"]
    natural = _node(f"console.log(JSON.stringify(m.order({json.dumps(names)}, true)))")
    assert [names[i] for i in natural] == ["F1 (D=10)", "F2 (D=10)", "F2 (D=20)", "F10 (D=10)"]
    # Descending: words first (they rank after numbers), blanks stay last in their order.
    assert [texts[i] for i in down] == [
        "EA4", "abc", "∞", "83%", "2", "10⁻³", "1.2e-5", "—", "", "–"
    ]  # fmt: skip


def test_sidebar_from_1200px_and_visible_focus() -> None:
    css = STYLE.read_text(encoding="utf-8")
    widths = re.findall(
        r"@media screen and \(min-width: ([\d.]+)(rem|px)\)\s*{\s*nav\.sidebar", css
    )
    assert widths, "no media query shows nav.sidebar"
    value, unit = widths[0]
    assert float(value) * (16 if unit == "rem" else 1) <= 1200
    assert re.search(r"nav\.sidebar a\.current\s*{[^}]*color", css)
    assert re.search(r"figure\.plot img:focus-visible\s*{[^}]*outline:\s*\d", css)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small report with figures, sortable tables and a caveat of several sentences."""
    folder = tmp_path_factory.mktemp("report")
    rows = ["algorithm,problem,dimension,mean,std,n"]
    # A's spread puts normal mass below zero: the normal_negative_mass caveat (3 sentences).
    for j, (a, b, c) in enumerate([(1.0, 2.0, 3.0), (2.0, 1.0, 4.0), (3.0, 2.5, 1.0)]):
        rows += [f"A,f{j},2,{a},2.0,10", f"B,f{j},2,{b},0.1,10", f"C,f{j},2,{c},0.2,10"]
    write(folder, "data/t.csv", "\n".join(rows) + "\n")
    spec = write(
        folder,
        "study.yaml",
        """
        study: {title: Script probe}
        minimize: true
        data:
          table: {path: data/t.csv, format: summary}
        analyses:
          - {kind: probabilistic_profiles, data: table, cost: value, model: normal, x_max: 10}
          - {kind: problem_table, data: table}
        report: {formats: [html]}
        """,
    )
    result = run_cli("run", str(spec), "--quiet")
    assert result.code == 0, result.err
    return folder / "out" / "report.html"


def test_caveats_bold_only_their_first_sentence(report: Path) -> None:
    html = report.read_text(encoding="utf-8")
    items = re.findall(r'<li data-caveat="[^"]+">(.*?)</li>', html, re.S)
    assert items
    several = 0
    for item in items:
        bold = re.findall(r"<strong>(.*?)</strong>", item, re.S)
        assert len(bold) == 1 and bold[0] == lead_sentence(bold[0])[0], item
        rest = re.sub(r"<[^>]+>", "", item.split("</strong>", 1)[1]).strip()
        several += len(rest) > 40  # the other sentences in regular weight
    assert several


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        ("One. Two three. Four.", "One."),
        # Abbreviations inside the first sentence do not end it.
        (
            "The model is normal (Barreto et al. §4.1). It can overstate wins.",
            "The model is normal (Barreto et al. §4.1).",
        ),
        ("Ties score half (Price et al. Eq. 3, e.g. F2). See 2.5 below.", None),
        ("A single sentence with 2.5 and 10⁻⁸.", None),
        ("Budgets differ 8000-fold. The share compares them at different budgets.", None),
    ],
)
def test_lead_sentence(text: str, lead: str | None) -> None:
    first, rest = lead_sentence(text)
    expected = (
        lead
        or {
            "Ties": "Ties score half (Price et al. Eq. 3, e.g. F2).",
            "A si": text,
            "Budg": "Budgets differ 8000-fold.",
        }[text[:4]]
    )
    assert first == expected
    assert (first + " " + rest).strip() == text


def test_the_shipped_script_is_the_tested_one(report: Path) -> None:
    html = report.read_text(encoding="utf-8")
    assert SCRIPT.read_text(encoding="utf-8").strip() in html


PROBE = """
<script>
(function () {
  var out = {};
  var img = document.querySelector("figure.plot img");
  var figure = img.closest("figure");
  out.tabindex = img.getAttribute("tabindex");
  img.focus();
  out.focused = document.activeElement === img;
  out.outline = getComputedStyle(img).outlineStyle;
  img.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true}));
  out.enter = figure.classList.contains("zoomed");
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape", bubbles: true}));
  out.escape = figure.classList.contains("zoomed");
  img.dispatchEvent(new KeyboardEvent("keydown", {key: " ", bubbles: true}));
  out.space = figure.classList.contains("zoomed");
  img.dispatchEvent(new KeyboardEvent("keydown", {key: " ", bubbles: true}));
  img.dispatchEvent(new KeyboardEvent("keydown", {key: " ", bubbles: true}));
  out.reopened = figure.classList.contains("zoomed");
  var th = document.querySelector("#probe th");
  th.focus();  // Tab on from the zoomed figure
  out.tabbedAway = figure.classList.contains("zoomed");
  th.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true}));
  out.sorted = Array.prototype.map.call(document.querySelectorAll("#probe td"), function (td) {
    return td.textContent; });
  var sidebar = document.querySelector("nav.sidebar");
  out.sidebar = getComputedStyle(sidebar).display;
  out.subsections = sidebar.querySelectorAll("ol.sub a").length;
  var target = document.querySelector("section.chapter.analysis");
  window.scrollTo(0, target.getBoundingClientRect().top + window.scrollY);
  window.dispatchEvent(new Event("scroll"));
  var current = sidebar.querySelectorAll("a.current");
  out.current = Array.prototype.map.call(current, function (a) { return a.getAttribute("href"); });
  out.section = "#" + target.id;
  // Scroll boxes whose table fits: no Tab stop (tabindex 0 in the page stands for the
  // boxes that scroll, and for every box without the script).
  out.boxes = Array.prototype.map.call(document.querySelectorAll(".table-scroll"), function (b) {
    return [b.scrollWidth > b.clientWidth + 1, b.getAttribute("tabindex")]; });
  var box = document.querySelector(".table-scroll");
  box.querySelector("table").style.width = "5000px";  // wider than the window: it scrolls
  window.dispatchEvent(new Event("resize"));
  out.wide = box.getAttribute("tabindex");
  document.body.setAttribute("data-probe", JSON.stringify(out));
})();
</script>
"""


def _run_probe(report: Path, html: str, tmp_path: Path, window: str) -> dict[str, Any]:
    """What a probe script in ``html`` (a page beside ``report``) wrote into the DOM that
    headless Chromium dumps, at window size ``window`` ("W,H")."""
    page = report.with_name("probe.html")
    page.write_text(html, encoding="utf-8")
    run = subprocess.run(
        [
            CHROMIUM or "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--window-size={window}",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r'data-probe="([^"]*)"', run.stdout)
    assert found, run.stderr[-2000:]
    probe: dict[str, Any] = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    return probe


def test_zoom_sort_and_sidebar_in_chromium(report: Path, tmp_path: Path) -> None:
    if CHROMIUM is None:
        pytest.skip("chromium is not installed: scripts/system-deps.sh test")
    html = report.read_text(encoding="utf-8")
    cells = "".join(f"<tr><td>{t}</td></tr>" for t in ["10", "10⁻³", "—", "1.2e-5", "2"])
    table = f'<table class="sortable" id="probe"><thead><tr><th>τ</th></tr></thead><tbody>{cells}</tbody></table>'
    html = html.replace("<script>", table + "<script>", 1).replace("</body>", PROBE + "</body>")
    probe = _run_probe(report, html, tmp_path, "1250,900")
    # Zoom: focusable, Enter opens, Escape closes, Space opens; the focus ring is drawn.
    assert probe["tabindex"] == "0" and probe["focused"] and probe["outline"] == "solid"
    assert (probe["enter"], probe["escape"], probe["space"]) == (True, False, True)
    # Focus moving on from a zoomed figure closes it (not on through what it hides).
    assert (probe["reopened"], probe["tabbedAway"]) == (True, False)
    # A τ column sorts by value: 10⁻³ is 0.001, not 10; the dash last.
    assert probe["sorted"] == ["1.2e-5", "10⁻³", "2", "10", "—"]
    # At 1250 px the sidebar shows, with the sections' subsections, and marks the one read.
    assert probe["sidebar"] == "block"
    assert probe["subsections"] > 0
    # The report's tables fit 1250 px: their boxes are no Tab stops.
    assert probe["boxes"] and all(tabindex is None for _, tabindex in probe["boxes"])
    assert probe["wide"] == "0"  # one that scrolls is one
    assert probe["section"] in probe["current"] or any(
        h.startswith(probe["section"]) for h in probe["current"]
    )


class _Structure(HTMLParser):
    """The report's header cells, its table scroll boxes and the ids and captions they name."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.headers: list[dict[str, str | None]] = []
        self.scrollers: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if named.get("id"):
            self.ids.add(str(named["id"]))
        if tag == "th":
            self.headers.append(named)
        if tag == "div" and "table-scroll" in str(named.get("class", "")).split():
            self.scrollers.append(named)


def test_every_header_cell_says_what_it_heads(report: Path) -> None:
    """Every <th> carries scope: the data appendix's file table heads columns, the provenance
    table's key cells head rows; without scope a screen reader must guess which."""
    page = _Structure()
    page.feed(report.read_text(encoding="utf-8"))
    scopes = [th.get("scope") for th in page.headers]
    assert scopes and None not in scopes
    assert {"col", "row"} <= set(scopes)


def test_a_table_scroll_box_is_reachable_by_keyboard_and_named(report: Path) -> None:
    """A table wider than the screen scrolls in its box: the box takes keyboard focus (else a
    keyboard user cannot scroll it) and is a region named by the table's caption."""
    page = _Structure()
    page.feed(report.read_text(encoding="utf-8"))
    assert page.scrollers
    for box in page.scrollers:
        assert box.get("tabindex") == "0" and box.get("role") == "region", box
        assert box.get("aria-labelledby") in page.ids, box
    css = STYLE.read_text(encoding="utf-8")
    assert re.search(r"\.table-scroll:focus-visible\s*{[^}]*outline:\s*\d", css)


NARROW_PROBE = """
<script>
(function () {
  var img = null;  // the widest figure
  document.querySelectorAll("figure.plot img").forEach(function (i) {
    if (!img || i.naturalWidth > img.naturalWidth) { img = i; } });
  var figure = img.closest("figure");
  var out = {natural: img.naturalWidth, screen: document.documentElement.clientWidth,
             fitted: img.getBoundingClientRect().width};
  img.click();
  out.zoomed = img.getBoundingClientRect().width;
  out.scrolls = figure.scrollWidth > figure.clientWidth && getComputedStyle(figure).overflowX;
  document.body.setAttribute("data-probe", JSON.stringify(out));
})();
</script>
"""


def test_zoom_on_a_phone_shows_the_figure_at_its_own_size(report: Path, tmp_path: Path) -> None:
    """On a screen narrower than a figure, the figure is fitted to it (labels a few px high);
    zoom must then show it at its own size in a box that scrolls, not fitted to the same width
    again (which changed nothing)."""
    if CHROMIUM is None:
        pytest.skip("chromium is not installed: scripts/system-deps.sh test")
    html = report.read_text(encoding="utf-8").replace("</body>", NARROW_PROBE + "</body>")
    probe = _run_probe(report, html, tmp_path, "400,800")
    assert probe["natural"] > probe["screen"], probe  # headless Chromium's narrowest window
    assert probe["fitted"] < probe["screen"]
    assert probe["zoomed"] == pytest.approx(probe["natural"], abs=1)
    assert probe["scrolls"] == "auto"


def test_click_cursors_only_where_the_script_made_a_click_work() -> None:
    """A zoom-in or pointer cursor promises a click; without JavaScript nothing answers it.
    Such cursors select on what report.js sets (role="button" on a figure, tabindex on a
    sortable header), so they show only where the script ran."""
    css = STYLE.read_text(encoding="utf-8")
    script = SCRIPT.read_text(encoding="utf-8")
    for selector in re.findall(r"([^{}]+){[^}]*cursor:\s*(?:zoom-in|pointer)", css):
        attribute = re.search(r"\[(role|tabindex)", selector)
        assert attribute and f'setAttribute("{attribute.group(1)}"' in script, selector


TOC_PROBE = """
<script>
(function () {
  var out = {lefts: [], outside: [], underNumber: []};
  var list = document.querySelector("nav.toc ol").getBoundingClientRect();
  document.querySelectorAll("nav.toc a").forEach(function (a) {
    var number = a.querySelector(".toc-number").getBoundingClientRect();
    out.lefts.push(Math.round(a.getBoundingClientRect().left));
    if (number.left < list.left - 0.5) { out.outside.push(a.textContent.trim()); }
    var range = document.createRange();
    range.selectNodeContents(a.lastChild);  // the title after the number
    Array.prototype.forEach.call(range.getClientRects(), function (line) {
      if (line.width > 0 && line.left < number.right) { out.underNumber.push(a.textContent.trim()); }
    });
  });
  document.body.setAttribute("data-probe", JSON.stringify(out));
})();
</script>
"""


def test_contents_on_a_phone_one_column_titles_clear_of_their_numbers(
    report: Path, tmp_path: Path
) -> None:
    """On a phone the two columns of contents were a third of the screen wide and a wrapped
    title ran on under its number. One column there, and no line of a title starts left of
    the end of its number (a long title is added so that it wraps)."""
    if CHROMIUM is None:
        pytest.skip("chromium is not installed: scripts/system-deps.sh test")
    long = "Significance relations: award points and rank layers over every problem"
    html = report.read_text(encoding="utf-8")
    html = re.sub(
        r'(<nav class="toc".*?<span class="toc-number">[^<]*</span>)[^<]*',
        lambda m: m.group(1) + " " + long,
        html,
        count=1,
        flags=re.S,
    ).replace("</body>", TOC_PROBE + "</body>")
    probe = _run_probe(report, html, tmp_path, "400,800")
    assert len(probe["lefts"]) > 2 and len(set(probe["lefts"])) == 1, probe
    assert probe["outside"] == [] and probe["underNumber"] == [], probe
