"""Every example study rendered end to end and read back as a person would read it.

The PDF is turned into page images (pdftoppm) and text (pdftotext); the HTML is opened in
headless Chromium. Tools that are missing skip their checks with the reason; .ci/run installs
them (scripts/system-deps.sh test).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import re
import shutil
import subprocess
import unicodedata
import zipfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import yaml

from reportgen.pipeline import run_study
from reportgen.render.html import as_printed
from tests.conftest import ROOT
from tests.render.test_outputs import compile_latex

EXAMPLES = sorted(p.parent.name for p in (ROOT / "example_studies").glob("*/study.yaml"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _render(name: str, folder: Path) -> Path:
    """Render one example study into ``folder`` (in a worker process)."""
    shutil.copytree(
        ROOT / "example_studies" / name, folder / name, ignore=shutil.ignore_patterns("out")
    )
    results = run_study(
        folder / name / "study.yaml", folder / name / "out", bundle=name == "quickstart"
    )
    assert results.output_dir is not None
    return results.output_dir


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each example study rendered once (HTML + PDF; the quickstart also with its bundle).

    Two worker processes: rendering is most of this module's time and the CI machine has two
    cores.
    """
    folders = {name: tmp_path_factory.mktemp(name) for name in EXAMPLES}
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        futures = {name: pool.submit(_render, name, folder) for name, folder in folders.items()}
        return {name: future.result() for name, future in futures.items()}


def _results(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "results.json").read_text(encoding="utf-8"))


def _squash(text: str) -> str:
    """Text without whitespace and hyphens, so line breaks in the PDF do not matter (pdftotext
    joins a word broken after a hyphen and drops the hyphen: "NL-" / "LBC" → "NLLBC")."""
    return re.sub(r"[\s-]+", "", text)


def _read_pgm(path: Path) -> np.ndarray:
    data = path.read_bytes()
    _magic, width, height, _maxval, pixels = re.match(
        rb"(P5)\s+(\d+)\s+(\d+)\s+(\d+)\s(.*)", data, re.S
    ).groups()  # type: ignore[union-attr]
    return np.frombuffer(pixels, dtype=np.uint8)[: int(width) * int(height)].reshape(
        int(height), int(width)
    )


@pytest.mark.parametrize("name", EXAMPLES)
def test_pdf_pages_are_not_blank(rendered: dict[str, Path], name: str, tmp_path: Path) -> None:
    if shutil.which("pdftoppm") is None:
        pytest.skip("poppler-utils (pdftoppm) is not installed: scripts/system-deps.sh test")
    pdf = rendered[name] / "report.pdf"
    subprocess.run(["pdftoppm", "-r", "20", "-gray", str(pdf), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page-*.pgm"))
    assert len(pages) >= 6  # title, summary, an analysis, methods, data, provenance
    for page in pages:
        pixels = _read_pgm(page)
        assert (pixels < 200).mean() > 0.002, f"{page.name} of {name} looks blank"


def blank_share(pixels: np.ndarray, dpi: float) -> float:
    """The share of a page's text area (without 22 mm at the top and bottom: running head and
    folio) in empty bands taller than 8 mm; the gaps between lines, paragraphs and a figure
    and its caption are shorter and do not count."""
    mm = dpi / 25.4
    rows = (pixels[int(22 * mm) : len(pixels) - int(22 * mm)] < 200).any(axis=1)
    blank = run = 0
    for inked in [*rows, True]:
        if inked:
            blank += run if run > 8 * mm else 0
            run = 0
        else:
            run += 1
    return blank / len(rows)


def test_blank_share_counts_only_tall_gaps() -> None:
    # 20 dpi: 1 mm = 0.787 px; a 297 mm page is 234 rows, its text area 234 − 2·17 = 200 rows.
    page = np.full((234, 10), 255, dtype=np.uint8)
    page[17:117:4] = 0  # text lines every 4 rows (5 mm), the last at row 113: gaps of 3 rows
    # (3.8 mm) do not count; rows 114–216 below the last line (103 rows, 131 mm) do.
    assert blank_share(page, 20) == pytest.approx(103 / 200)


BLANK_SHARE = 0.4
"""Issue 18: no page more than 40 % blank, except the first (title and contents), the last, and
a page before an appendix (a break a reader expects).

No example has such a page today (the exceptions per example were a ratchet, brought to zero):
a section's tables that can continue on the next page stand before its figures where a figure
taller than the rest of a page would leave it blank (weasyprint has no floats: the profiles'
places table after the findings it tabulates), and convergence grids of four rows fill a page
(a three-row grid alone on a page left 40 % of it blank). A page over the share must be fixed
in the layout, not excused here."""


@pytest.mark.parametrize("name", EXAMPLES)
def test_pages_are_at_most_40_percent_blank(
    rendered: dict[str, Path], name: str, tmp_path: Path
) -> None:
    if shutil.which("pdftoppm") is None or shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils is not installed: scripts/system-deps.sh test")
    pdf = rendered[name] / "report.pdf"
    subprocess.run(["pdftoppm", "-r", "20", "-gray", str(pdf), str(tmp_path / "page")], check=True)
    images = sorted(tmp_path.glob("page-*.pgm"))
    texts = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout.split("\f")
    opens_appendix = re.compile(r"^\s*[A-Z] (Methods|Data|Provenance)\b", re.M)
    blank = {}
    for i, image in enumerate(images[1:-1], start=1):
        share = blank_share(_read_pgm(image), 20)
        head = "\n".join(texts[i + 1].splitlines()[:4]) if i + 1 < len(texts) else ""
        if share > BLANK_SHARE and not opens_appendix.search(head):
            blank[i + 1] = round(share, 2)
    assert not blank, blank


@pytest.mark.parametrize("name", EXAMPLES)
def test_pdf_text_has_every_section_and_summary_sentence(
    rendered: dict[str, Path], name: str
) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils (pdftotext) is not installed: scripts/system-deps.sh test")
    text = subprocess.run(
        ["pdftotext", str(rendered[name] / "report.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    # A sentence may run across a page break: drop each page's footer ("2 / 27") and running
    # header (the first line of the next page) before comparing.
    text = re.sub(r"\n\d+ / \d+\s*\f[^\n]*\n", "\n", text)
    squashed = _squash(text)
    results = _results(rendered[name])
    for title in ("Contents", "Executive summary", "Methods", "Data", "Provenance"):
        assert _squash(title) in squashed, title
    for finding in results["summary"]["findings"]:
        assert _squash(as_printed(finding["text"])) in squashed, finding["text"]
    bottom = results["summary"]["bottom_line"]
    assert bottom is None or _squash(as_printed(bottom["text"])) in squashed, bottom


def test_the_methods_prose_is_typeset_like_the_rest(rendered: dict[str, Path]) -> None:
    """The methods appendix printed "budget μ_f = 10⁴" and "n_r ≥ 30" with their underscores
    where the sections' prose sets μ<sub>f</sub>: its text between formulas is typeset too."""
    html = (rendered["quickstart"] / "report.html").read_text(encoding="utf-8")
    methods = html[html.index('id="app-methods"') :]
    methods = methods[: methods.index("</section>")]
    assert "μ<sub>f</sub> = 10⁴" in methods and "n<sub>r</sub> ≥" in methods
    assert "μ_f" not in methods and "n_r ≥" not in methods
    assert "clip_bounds" in methods  # identifiers stay as they are


@pytest.mark.parametrize("name", EXAMPLES)
def test_executive_summary_numbers_match_the_analyses(rendered: dict[str, Path], name: str) -> None:
    """Every ranking in the summary is the analysis's own, and every sentence states them."""
    results = _results(rendered[name])
    summary = results["summary"]
    rankings = {r["id"]: r for r in summary["rankings"]}
    for ranking in rankings.values():
        analysis = results["analyses"][ranking["analysis_id"]]["result"]
        if ranking["id"].endswith(":total"):  # U-scores: the totals table's own ranks order
            table = analysis["totals"] if "totals" in analysis else analysis["tables"]["totals"]
            totals = {row["algorithm"]: row["total"] for row in table}
            order = sorted(totals, key=lambda a: -totals[a])
            assert sorted(ranking["ranks"], key=lambda a: ranking["ranks"][a]) == order
        if ranking["id"].endswith(":profiles"):
            rows = [
                r for r in analysis["mean_ranking"] if f"{r['tolerance']:g}" in ranking["source"]
            ]
            assert {r["algorithm"]: float(r["rank"]) for r in rows} == ranking["ranks"]
    tau = {row["ranking"]: row for row in summary["kendall_tau"]}
    by_efficiency: list[str] = []
    for finding in summary["findings"]:
        numbers = finding["numbers"]
        if finding["id"].startswith("summary.first.") or finding["id"] == "summary.consensus":
            for ranking_id in numbers["rankings"]:
                ranks = rankings[ranking_id]["ranks"]
                assert ranks[numbers["algorithm"]] == min(ranks.values())
        elif finding["id"].startswith("summary.shared_first."):
            ranks = rankings[numbers["ranking"]]["ranks"]
            assert sorted(numbers["algorithms"]) == sorted(
                a for a, r in ranks.items() if r == min(ranks.values())
            )
        elif finding["id"].startswith("summary.significance."):
            verdicts = rankings[numbers["ranking"]]["verdicts"]
            assert verdicts[numbers["best"]] == "best"
            assert sorted(numbers["significantly_worse"]) == sorted(
                a for a, v in verdicts.items() if v == "worse"
            )
            assert sorted(numbers["not_significant"]) == sorted(
                a for a, v in verdicts.items() if v == "n.s."
            )
        elif finding["id"] == "summary.agreement":
            a, b = numbers["most"]["rankings"]
            assert round(tau[a][b], 2) == numbers["most"]["tau"]
            assert f"{numbers['most']['tau']:.2f}" in finding["text"]
            assert ("The two rankings" in finding["text"]) == (numbers["rankings"] == 2)
        elif finding["id"].startswith("summary.problem_table."):
            # W/T/L and median A12 are the problem table's own (its win_tie_loss and cells).
            table = results["analyses"][numbers["analysis"]]["result"]
            assert table["reference"] == numbers["reference"]
            wtl = {r["algorithm"]: r for r in table["win_tie_loss"] if r["group"] == "all"}
            for algorithm, row in numbers["rows"].items():
                counts = tuple(wtl[algorithm][k] for k in ("wins", "ties", "losses"))
                assert counts == (row["wins"], row["ties"], row["losses"])
                assert "{}/{}/{}".format(*counts) in finding["text"]
                a12 = [
                    c["a12"]
                    for c in table["cells"]
                    if c["algorithm"] == algorithm and c["marker"] and c["a12"] is not None
                ]
                assert row["median_a12"] == round(float(np.median(a12)), 2)
        # The first sentence that ranks by wall-clock efficiency says what time depends on
        # (later ones point to it, once: said once, not after every sentence).
        ranked_by = numbers.get("rankings", []) if isinstance(numbers.get("rankings"), list) else []
        ranked_by = [*ranked_by, numbers.get("ranking")]
        if any(str(r).endswith(":efficiency") for r in ranked_by):
            by_efficiency.append(finding["text"])
    if by_efficiency:
        bottom = summary["bottom_line"]
        in_bottom = bottom is not None and "wall-clock time" in bottom["text"]
        assert in_bottom or "wall-clock time" in by_efficiency[0], by_efficiency[0]
        assert sum("wall-clock time" in t for t in by_efficiency) == (0 if in_bottom else 1)
    # Rankings that are not counted are left out of Kendall's τ.
    for ranking in rankings.values():
        assert (ranking["id"] in tau) == (ranking["status"] == "counted" and len(tau) > 0)


@pytest.mark.parametrize("name", EXAMPLES)
def test_ranking_uncertainty_table(rendered: dict[str, Path], name: str) -> None:
    """Every ranking of every study has its rows, and p_first sums to 1 per ranking; the runs
    are resampled exactly for the U-scores, the runtime-ECDF areas, and the perspectives and
    relation layers read from runs."""
    results = _results(rendered[name])
    table = pd.read_csv(rendered[name] / "tables" / "summary" / "ranking_uncertainty.csv")
    assert {"ranking", "algorithm", "p_first", "rank_low", "rank_high"} <= set(table.columns)
    assert set(table["ranking"]) == {r["id"] for r in results["summary"]["rankings"]}
    with_runs = {
        r["id"]
        for r in results["summary"]["rankings"]
        if r["id"].endswith((":total", ":ecdf_area"))
        or (
            r["id"].endswith(":layers")
            and results["analyses"][r["analysis_id"]]["result"]["input_format"] != "summary"
        )
        or (
            r["analysis_id"].startswith("perspectives")
            and results["analyses"][r["analysis_id"]]["result"]["parameters"]["input_format"]
            == "trials"
        )
    }
    resampled = table.groupby("ranking", observed=True)["resampled"].agg(set)
    assert {i for i, v in resampled.items() if v == {"problems and runs"}} == with_runs
    assert {i for i, v in resampled.items() if v == {"problems"}} == set(
        resampled.index
    ) - with_runs
    assert set(table["group"]) <= {"all"} | {f"D={d}" for d in range(1, 1000)}
    for _, rows in table.groupby(["ranking", "group"], observed=True):
        assert rows["p_first"].sum() == pytest.approx(1.0)
        assert (rows["rank_low"] <= rows["rank_high"]).all()
    assert results["provenance"]["bootstrap"]["seed"] == 20260101


def test_cec2022_conclusions(rendered: dict[str, Path]) -> None:
    """The referee's checks on the CEC 2022 example (issue: conclusions a referee would sign)."""
    results = _results(rendered["cec2022"])
    summary = results["summary"]
    # The two entrants last by every other method are first or jointly first nowhere.
    for ranking in summary["rankings"]:
        best = min(ranking["ranks"].values())
        assert ranking["ranks"]["SPHH"] > best and ranking["ranks"]["Co-PPSO"] > best, ranking["id"]
    profiles = results["analyses"]["performance_profiles"]["result"]["ranking"]
    first_group = {r["algorithm"] for r in profiles if r["rank"] == 1}
    assert not first_group & {"SPHH", "Co-PPSO"}
    # The summary names the EA4 / NL-SHADE-LBC head-to-head, from NL-LBC's 14 of 24 problems.
    pairs = {(h["a"], h["b"]): h for h in summary["head_to_head"]}
    assert pairs[("EA4", "NL-LBC")]["significant_b"] == 14
    assert pairs[("EA4", "NL-LBC")]["problems"] == 24
    assert summary["bottom_line"]["text"].startswith("Bottom line: EA4 or NL-LBC.")
    # Kendall's τ only among counted rankings.
    counted = {r["id"] for r in summary["rankings"] if r["status"] == "counted"}
    assert {row["ranking"] for row in summary["kendall_tau"]} == counted


@pytest.mark.parametrize("name", EXAMPLES)
def test_html_in_chromium(rendered: dict[str, Path], name: str, tmp_path: Path) -> None:
    if CHROMIUM is None:
        pytest.skip("chromium is not installed: scripts/system-deps.sh test")
    html = rendered[name] / "report.html"
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--enable-logging=stderr",
        "--v=0",
    ]
    shot = tmp_path / "shot.png"
    run = subprocess.run(
        [
            CHROMIUM,
            *flags,
            "--window-size=1400,1800",
            f"--screenshot={shot}",
            "--dump-dom",
            html.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    console = [line for line in run.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert console == [], console
    assert shot.is_file() and shot.stat().st_size > 10_000
    dom = run.stdout
    ids = set(re.findall(r'\sid="([^"]+)"', dom))
    links = re.findall(r'href="#([^"]+)"', dom)
    assert links and all(link in ids for link in links), sorted(set(links) - ids)
    assert "aria-sort" in dom  # the table sorter ran
    unrendered = re.findall(r'class="math-fallback">([^<]*)', dom)
    assert unrendered == []  # every formula of the methods appendix rendered


def test_supplement_bundle(rendered: dict[str, Path]) -> None:
    folder = rendered["quickstart"]
    with zipfile.ZipFile(folder / "supplement.zip") as archive:
        names = archive.namelist()
        manifest = archive.read("INPUTS.sha256").decode()
    assert (
        "report/report.pdf" in names
        and "report/results.json" in names
        and "study/study.yaml" in names
    )
    assert "study/inputs/data/bbob_5d_histories.csv.gz" in names and "README.txt" in names
    digest = _results(folder)["provenance"]["inputs"][0]["sha256"]
    assert f"{digest}  study/inputs/data/bbob_5d_histories.csv.gz" in manifest


@pytest.mark.parametrize("name", EXAMPLES)
def test_figure_pdfs_where_asked_embed_no_type3_font(rendered: dict[str, Path], name: str) -> None:
    """Figure PDFs are written only where the spec asks (report.figures.pdf), one beside every
    SVG; journals' PDF checkers refuse Type 3 fonts, so every one embeds TrueType."""
    spec = yaml.safe_load((ROOT / "example_studies" / name / "study.yaml").read_text())
    svgs = sorted((rendered[name] / "figures").rglob("*.svg"))
    pdfs = sorted((rendered[name] / "figures").rglob("*.pdf"))
    if not spec["report"].get("figures", {}).get("pdf", False):
        assert svgs and not pdfs
        return
    assert svgs and [p.with_suffix("") for p in pdfs] == [p.with_suffix("") for p in svgs]
    if shutil.which("pdffonts") is None:
        pytest.skip("poppler-utils (pdffonts) is not installed: scripts/system-deps.sh test")
    for pdf in pdfs:
        listing = subprocess.run(
            ["pdffonts", str(pdf)], capture_output=True, text=True, check=True
        ).stdout
        assert "Type 3" not in listing, f"{pdf.relative_to(rendered[name])}:\n{listing}"


def test_an_example_asks_for_figure_pdfs() -> None:
    """The PDF-copy path runs end to end in at least one example (the test above checks it)."""
    asks = [
        name
        for name in EXAMPLES
        if yaml.safe_load((ROOT / "example_studies" / name / "study.yaml").read_text())["report"]
        .get("figures", {})
        .get("pdf")
    ]
    assert asks


TEXT_WIDTH_PT = 178 / 25.4 * 72
"""The print stylesheet's text width (A4, 16 mm margins): a wider figure is shrunk to it."""


def smallest_printed_font(svg: str) -> float:
    """The smallest font size (pt) of a figure's text as printed: matplotlib writes the width in
    pt and font sizes in the same units; a figure wider than the text width is scaled down."""
    width = float(re.search(r'<svg[^>]*\swidth="([\d.]+)pt"', svg).group(1))  # type: ignore[union-attr]
    sizes = [float(v) for v in re.findall(r"font-size: ?([\d.]+)px", svg)]
    return min(sizes, default=math.inf) * min(1.0, TEXT_WIDTH_PT / width)


def test_smallest_printed_font_accounts_for_shrinking() -> None:
    # 8 pt text in an 11-inch figure prints at 8 · 504.6 / 792 ≈ 5.1 pt (the issue-18 legend).
    svg = '<svg width="792pt" height="300pt"><text style="font-size: 8px">a</text></svg>'
    assert smallest_printed_font(svg) == pytest.approx(8 * TEXT_WIDTH_PT / 792)


# Raised once, 64 → 66: a broken table's last rows now stay with its notes and file names
# (published_table had a page holding only a "LaTeX: …" line); cec2022 pays two pages for that.
CEC2022_PAGES = 35
"""Pages of the cec2022 PDF at most: 96 before issue 18's print layout (raw-number tables and
per-dimension maps in the HTML and files only, profile figures two to a page, tables that
continue on the next page), 66 → 50 with analysis sections that follow each other without a
page break, landscape pages only for tables that cannot fit portrait, critical-difference
diagrams marking Holm's verdicts instead of a Holm table beside each, and one sentence per run
of left-out blocks; 50 → 39 with the cut-point U-scores' full-budget detail, the data
profiles and the per-problem tables split over several blocks in the HTML only, profile
tables one row per algorithm, smaller heat maps and CD diagrams, and the short appendices
following each other; 39 → 35 (the issue's target) with methods paragraphs said once (a
repeated analysis refers to the first), the CD diagrams' reading said once per section with
short captions and the Holm tables named in one sentence, a Kendall map with numbered columns
and the head-to-head table filling the page under the uncertainty map — lower this bound as
pages are saved, never raise it."""


def test_cec2022_report_has_at_most_its_pages(rendered: dict[str, Path]) -> None:
    if shutil.which("pdfinfo") is None:
        pytest.skip("poppler-utils (pdfinfo) is not installed: scripts/system-deps.sh test")
    info = subprocess.run(
        ["pdfinfo", str(rendered["cec2022"] / "report.pdf")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))  # type: ignore[union-attr]
    assert pages <= CEC2022_PAGES


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_figure_text_smaller_than_7pt_in_print(rendered: dict[str, Path], name: str) -> None:
    """Issue 18: every figure's text is at least 7 pt on the printed page."""
    small = {}
    for svg in sorted((rendered[name] / "figures").rglob("*.svg")):
        size = smallest_printed_font(svg.read_text(encoding="utf-8"))
        if size < 7.0 - 1e-6:
            small[str(svg.relative_to(rendered[name]))] = round(size, 1)
    assert not small, small


@pytest.mark.parametrize("name", EXAMPLES)
def test_latex_tables_compile(rendered: dict[str, Path], name: str, tmp_path: Path) -> None:
    """Every .tex table typesets with pdflatex in an article with booktabs and nothing else."""
    tables = sorted((rendered[name] / "tables").rglob("*.tex"))
    assert tables
    # Without TeX: the characters left in the tables must be ones pdflatex reads as UTF-8 text
    # (ASCII and accented Latin letters); every symbol must have become a macro.
    for table in tables:
        for ch in set(table.read_text(encoding="utf-8")):
            assert ord(ch) < 128 or "LATIN" in unicodedata.name(ch, ""), (table.name, ch)
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed: scripts/system-deps.sh test")
    result = compile_latex(tables, tmp_path)
    assert result.returncode == 0, result.stdout[-3000:]


def test_data_appendix_lists_files_in_natural_order(rendered: dict[str, Path]) -> None:
    """cec2017 reads one file per algorithm and function: the appendix listed DES_10_10.txt,
    DES_11_10.txt, …, DES_19_10.txt, DES_1_10.txt, DES_20_10.txt (character order), not as a
    reader looks for them."""
    html = (rendered["cec2017"] / "report.html").read_text(encoding="utf-8")
    appendix = html.split('id="app-data"')[1].split('id="app-provenance"')[0]
    files = re.findall(r"<tr><td>([^<]*\.txt)</td>", appendix)
    des = [f for f in files if "DES_" in f]
    assert len(des) == 30
    assert des[:3] == ["data/DES_1_10.txt", "data/DES_2_10.txt", "data/DES_3_10.txt"]
    assert des[-1] == "data/DES_30_10.txt"
