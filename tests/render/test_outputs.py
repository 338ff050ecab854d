"""Writers of the machine-readable outputs, and the PDF renderer's confinement."""

from __future__ import annotations

import gc
import io
import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter, NullLocator

from reportgen.figures.style import FigureSpec
from reportgen.pipeline import run_study
from reportgen.render import files
from reportgen.render.blocks import FigureBlock, Section, TableBlock
from reportgen.render.files import (
    figure_svg,
    latex_table,
    latex_text,
    resize_figure,
    write_figure,
)
from reportgen.render.pdf import _confined_fetcher
from reportgen.spec.study import FigureOptions


def test_latex_table_escapes_and_marks_infinity():
    frame = pd.DataFrame({"algorithm": ["A_1 & co", "50% #2"], "t": [1.5, math.inf]})
    bold = pd.DataFrame({"algorithm": [True, False], "t": [False, False]})
    assert latex_table(frame, bold).splitlines() == [
        "\\begin{tabular}{lr}",
        "\\toprule",
        "algorithm & t \\\\",
        "\\midrule",
        "\\textbf{A\\_1 \\& co} & 1.5 \\\\",
        "50\\% \\#2 & $\\infty$ \\\\",
        "\\bottomrule",
        "\\end{tabular}",
    ]


def test_latex_table_with_columns_named_alike_once_normalised():
    """Algorithms 'e' + U+0301 and 'é' (one name in two Unicode spellings) as the columns of
    a wide table made the run end in a traceback: pandas' itertuples built a namedtuple whose
    two fields Python normalises to one ("duplicate argument 'é'")."""
    frame = pd.DataFrame([[1, 2, 3]], columns=["e\u0301", "\u00e9", "class"])
    assert latex_table(frame).splitlines()[2:5] == [
        "e\u0301 & \u00e9 & class \\\\",
        "\\midrule",
        "1 & 2 & 3 \\\\",
    ]


def test_figure_svg_is_reproducible():
    def draw() -> Figure:
        fig = Figure(figsize=(2, 2))
        fig.add_subplot().plot([1, 2, 3], [3, 1, 2], label="x")
        return fig

    assert figure_svg(draw()) == figure_svg(draw())
    assert "<dc:date>" not in figure_svg(draw())


def test_a_laid_out_figure_is_drawn_once_into_the_same_svg(tmp_path: Path):
    """write_figure lays a constrained-layout figure out before saving (lay_out): one drawing
    instead of savefig's two, and the SVG byte for byte what savefig writes with the engine."""

    def draw() -> tuple[Figure, list[int]]:
        fig = Figure(figsize=(4, 3), layout="constrained")
        left, right = fig.subplots(1, 2)
        left.plot([1, 10, 100], [3, 1, 2], label="a long legend label")
        left.set_xscale("log")
        left.set_ylabel("best-so-far value")
        left.legend()
        image = right.imshow([[1.0, 2.0], [3.0, 4.0]])
        fig.colorbar(image, ax=right, label="share of wins")
        fig.suptitle("Title")
        draws: list[int] = []
        original = fig.draw

        def counted(renderer: object) -> None:
            draws.append(1)
            original(renderer)

        fig.draw = counted  # type: ignore[method-assign]
        return fig, draws

    expected, draws = draw()
    svg = figure_svg(expected)
    assert len(draws) == 2  # savefig: a drawing for the layout engine, then the real one
    figure, draws = draw()
    assert write_figure(figure, tmp_path / "f") == svg
    assert len(draws) == 1
    assert figure.get_layout_engine() is None and figure.dpi == expected.dpi


def test_pdf_renderer_reads_only_inline_data_and_the_output_folder(tmp_path: Path):
    fetcher = _confined_fetcher(tmp_path / "out")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "ok.txt").write_text("fine")
    (tmp_path / "secret.txt").write_text("no")
    assert fetcher.fetch("data:text/plain,hello") is not None
    assert fetcher.fetch((tmp_path / "out" / "ok.txt").as_uri()) is not None
    with pytest.raises(ValueError, match="outside the output folder"):
        fetcher.fetch((tmp_path / "secret.txt").as_uri())
    with pytest.raises(ValueError, match="refusing to fetch"):
        fetcher.fetch("http://example.invalid/tracker.png")


def test_latex_text_writes_symbols_as_math_macros():
    assert latex_text("τ = 10⁻⁵") == r"$\tau$ = 10$^{-5}$"
    assert latex_text("ρ̄(1)") == r"$\bar{\rho}$(1)"
    assert latex_text("x ≤ 2·σ") == r"x $\le$ 2$\cdot \sigma$"
    assert latex_text("A_1 & 50%") == r"A\_1 \& 50\%"
    assert latex_text("f1–f3, Äyrämö") == "f1--f3, Äyrämö"
    assert latex_text("∞") == r"$\infty$"
    assert latex_text("U-score total †") == r"U-score total \dag{}"  # runs resampled too


def test_latex_table_has_no_raw_symbols():
    frame = pd.DataFrame({"τ": ["10⁻⁵", "ρ̄ ≥ ½"], "λ·S/√n": [1.0, -math.inf]})
    tex = latex_table(frame)
    assert r"$\tau$ & $\lambda \cdot$S/$\surd$n \\" in tex
    assert r"10$^{-5}$ & 1 \\" in tex
    assert not re.search(r"[^\x00-\x7f]", tex)


def test_figure_pdf_embeds_truetype_fonts(tmp_path: Path):
    if shutil.which("pdffonts") is None:
        pytest.skip("poppler-utils (pdffonts) is not installed: scripts/system-deps.sh test")
    fig = Figure(figsize=(2, 2))
    ax = fig.add_subplot()
    ax.plot([1, 2, 3], [3, 1, 2], label="τ = 10⁻⁵")
    ax.set_xlabel("evaluations")
    ax.legend()
    write_figure(fig, tmp_path / "f", pdf=True)
    fonts = subprocess.run(
        ["pdffonts", str(tmp_path / "f.pdf")], capture_output=True, text=True, check=True
    ).stdout.splitlines()[2:]
    assert fonts and all("TrueType" in line and "Type 3" not in line for line in fonts), fonts


def compile_latex(tables: list[Path], folder: Path) -> subprocess.CompletedProcess[str]:
    """Typeset the tables as a paper would include them: article + booktabs, nothing else."""
    body = "\n".join(f"\\input{{{t.as_posix()}}}\\par\\bigskip" for t in tables)
    (folder / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
        f"{body}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    return subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_latex_table_with_every_symbol_compiles(tmp_path: Path):
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed: scripts/system-deps.sh test")
    symbols = "".join(sorted(set(files._LATEX_MATH) | set(files._LATEX_TEXT)))
    frame = pd.DataFrame(
        {"ρ̄(x) ≥ ½": [symbols, "10⁻⁵ … 10² ⁺ⁿⁱ₀₋₊ Äyrämö Tušar", "ã ê", "_&%$#{}~^\\"]}
    )
    (tmp_path / "t.tex").write_text(latex_table(frame), encoding="utf-8")
    result = compile_latex([tmp_path / "t.tex"], tmp_path)
    assert result.returncode == 0, result.stdout[-3000:]


def test_resize_figure_sets_width_keeps_aspect_and_scales_every_text():
    fig = Figure(figsize=(8.0, 4.0), layout="constrained")
    ax = fig.add_subplot()
    ax.plot([1, 2], [1, 2], label="a")
    ax.set_xlabel("evaluations")  # 10 pt (default)
    ax.set_title("t", fontsize=12)
    ax.legend(fontsize=8)
    resize_figure(fig, width=3.5, font_size=8)
    assert tuple(fig.get_size_inches()) == pytest.approx((3.5, 1.75))  # 4 × 3.5/8
    fig.draw_without_rendering()
    assert ax.xaxis.label.get_fontsize() == pytest.approx(8.0)
    assert ax.title.get_fontsize() == pytest.approx(9.6)  # 12 × 8/10
    assert ax.get_legend().get_texts()[0].get_fontsize() == pytest.approx(6.4)
    assert ax.get_xticklabels()[0].get_fontsize() == pytest.approx(8.0)
    resize_figure(fig, height=3.5)
    assert tuple(fig.get_size_inches()) == pytest.approx((7.0, 3.5))


def test_figure_options_reach_the_written_files(tiny_study: Path):
    spec = tiny_study.read_text().replace(
        "  formats: [html]", "  formats: [html]\n  figures: {width: 3.5, height: 2.5, font_size: 7}"
    )
    tiny_study.write_text(spec)
    results = run_study(tiny_study)
    assert results.output_dir is not None
    svgs = sorted((results.output_dir / "figures").rglob("*.svg"))
    assert svgs
    for svg in svgs:
        head = svg.read_text(encoding="utf-8")[:1000]
        assert 'width="252pt" height="180pt"' in head, svg.name  # 3.5 in × 72, 2.5 in × 72


def test_figure_pdfs_only_when_asked_and_files_do_not_depend_on_the_workers(tiny_study: Path):
    """report.figures.pdf adds a PDF beside every SVG (and names it in the caption); drawing in
    two forked processes writes byte-identical files to drawing in this process."""
    text = tiny_study.read_text()
    outputs = {}
    for workers in (1, 2):
        tiny_study.write_text(
            text.replace(
                "  formats: [html]",
                f"  formats: [html]\n  output: out{workers}\n  figures: {{pdf: true, workers: {workers}}}",
            ).replace("  output: out\n", "")
        )
        results = run_study(tiny_study)
        assert results.output_dir is not None
        outputs[workers] = results.output_dir
    one, two = outputs[1], outputs[2]
    assert one.name == "out1" and two.name == "out2"
    svgs = sorted((one / "figures").rglob("*.svg"))
    assert len(svgs) >= 4
    for svg in svgs:
        pdf = svg.with_suffix(".pdf")
        assert pdf.read_bytes().startswith(b"%PDF")
        for path in (svg, pdf):
            assert path.read_bytes() == (two / path.relative_to(one)).read_bytes(), path.name
    html = (one / "report.html").read_text(encoding="utf-8")
    name = svgs[0].relative_to(one).as_posix()
    assert f"{name}, {name[:-4]}.pdf" in html


def test_a_figure_and_a_table_of_the_same_name_keep_their_own_files(tmp_path: Path):
    """The summary holds a figure and a table both named ranking_uncertainty: the table's
    caption must name its LaTeX file, not the figure's SVG (it did, the figure's entry
    having replaced the table's)."""
    fig = Figure(figsize=(2, 2))
    fig.add_subplot().plot([1, 2], [2, 1])
    section = Section(
        id="summary",
        title="Summary",
        blocks=(
            TableBlock(name="same", caption="t", frame=pd.DataFrame({"a": ["1"]})),
            FigureBlock(FigureSpec(name="same", caption="f", figure=fig)),
        ),
    )
    written = files.write_blocks([section], tmp_path, FigureOptions(workers=1))
    assert written[("summary", "table", "same")].files == ("tables/summary/report_same.tex",)
    assert written[("summary", "figure", "same")].files == ("figures/summary/same.svg",)
    assert (tmp_path / "tables/summary/report_same.tex").is_file()
    assert (tmp_path / "figures/summary/same.svg").is_file()


def test_only_the_figures_the_pdf_prints_get_a_print_copy(tmp_path: Path):
    """A figure left out of the PDF (``in_print=False``: in the HTML and as files only) gets
    no copy for weasyprint: the print HTML leaves it out, so making one is wasted work."""

    def figure() -> Figure:
        fig = Figure(figsize=(2, 2))
        fig.add_subplot().plot([1, 2], [2, 1])
        return fig

    section = Section(
        id="s",
        title="S",
        blocks=(
            FigureBlock(FigureSpec(name="printed", caption="p", figure=figure())),
            FigureBlock(FigureSpec(name="screen", caption="s", figure=figure()), in_print=False),
        ),
    )
    written = files.write_blocks([section], tmp_path, FigureOptions(workers=1), for_print=True)
    printed, screen = written[("s", "figure", "printed")], written[("s", "figure", "screen")]
    assert printed.svg and screen.svg
    assert "<svg" in printed.print_svg and screen.print_svg == ""
    assert (tmp_path / "figures/s/screen.svg").is_file()  # its file is written all the same
    without_pdf = files.write_blocks([section], tmp_path, FigureOptions(workers=1))
    assert all(block.print_svg == "" for block in without_pdf.values())
    with pytest.raises(ValueError, match="2 for_print answers for 1 figures"):
        files.draw_figures(
            [(figure(), tmp_path / "x")], FigureOptions(workers=1), for_print=[True, False]
        )


def test_the_pdf_is_laid_out_from_html_without_the_screen_only_blocks(
    tiny_study: Path, monkeypatch: pytest.MonkeyPatch
):
    """weasyprint gets the report without the figures and tables print hides (their styles
    and images cost it time and change nothing on paper); report.html keeps them all."""
    from reportgen import pipeline

    printed: list[str] = []
    monkeypatch.setattr(pipeline, "write_pdf", lambda html, *_, **__: printed.append(html))
    tiny_study.write_text(tiny_study.read_text().replace("formats: [html]", "formats: [html, pdf]"))
    results = run_study(tiny_study)
    assert results.output_dir is not None
    screen = (results.output_dir / "report.html").read_text(encoding="utf-8")
    [paper] = printed
    hidden = re.findall(r'<figure class="[^"]*screen-only[^"]*" id="([^"]+)"', screen)
    shown = re.findall(r'<figure class="(?:plot|table)[^"]*" id="([^"]+)"', screen)
    assert hidden and set(hidden) < set(shown)  # data profiles are HTML-only (τ = 0.1, 0.001)
    assert not re.search(r'<figure class="[^"]*screen-only', paper)
    assert re.findall(r'<figure class="(?:plot|table)[^"]*" id="([^"]+)"', paper) == [
        anchor for anchor in shown if anchor not in hidden
    ]


def test_figure_text_names_one_font_and_the_generic_fallback():
    """Every <text> of a figure names DejaVu Sans (the font matplotlib measured it with) and
    sans-serif, not matplotlib's eleven-name fallback list: weasyprint resolves each list per
    text element, and the long one made text-heavy figures a third slower to draw."""
    fig = Figure(figsize=(2, 2))
    ax = fig.add_subplot()
    ax.plot([1, 2], [2, 1])
    ax.set_title("title")
    families = set(re.findall(r"font-family: ([^;\"]+)", figure_svg(fig)))
    assert families == {"'DejaVu Sans', sans-serif"}


def test_latex_text_passes_plain_text_through_only_where_nothing_needs_a_macro():
    """The shortcut for plain cells: every character it lets through is one the conversion
    leaves alone, and text with any special character still goes through the conversion."""
    plain = [chr(c) for c in range(32, 127) if files._PLAIN.match(chr(c))]
    assert "A" in plain and "-" in plain and "'" in plain
    tables = (files._LATEX_MATH, files._LATEX_TEXT, files._SUPERSCRIPTS, files._SUBSCRIPTS)
    for char in plain:
        assert files.latex_escape(char) == char and not any(char in t for t in tables), char
    for special in "\\&%$#_{}~^":
        assert special not in plain
    assert latex_text("NL-SHADE (best: 1.5e-08)") == "NL-SHADE (best: 1.5e-08)"
    assert latex_text("EA4 & jSO_bin") == r"EA4 \& jSO\_bin"


def _text_heavy_figure(seed: int, *, layout: str | None) -> Figure:
    """A figure of random texts: sizes, weights, lines, rotations, Unicode and mathtext, on
    linear, log and symlog axes with a legend (what reportgen's figures put in their text)."""
    rng = np.random.default_rng(seed)
    alphabet = list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-()=τρ⁻⁵×≥")

    def word(n: int) -> str:
        return "".join(rng.choice(alphabet, size=n))

    fig = Figure(figsize=(5, 3.5), layout=layout)
    axes = fig.subplots(2, 2).ravel()
    for k, ax in enumerate(axes):
        x = np.geomspace(1, 10.0 ** rng.integers(1, 6), 30)
        ax.plot(x, rng.random(30) * 10.0 ** rng.integers(-8, 3), label=word(12), marker="o")
        ax.set_xscale(("linear", "log", "symlog", "log")[k])
        ax.set_title(word(int(rng.integers(3, 30))), fontsize=float(rng.uniform(6, 12)))
        ax.set_xlabel(word(10) + "\n" + word(5), fontweight="bold" if k % 2 else "normal")
        ax.set_ylabel(rf"$\bar{{\rho}}_{{{k}}}$ of $10^{{-{k + 1}}}$")
        ax.text(0.5, 0.5, word(8), rotation=float(rng.uniform(0, 90)), transform=ax.transAxes)
        ax.legend(fontsize=float(rng.uniform(5, 9)), title=word(4))
    fig.suptitle(word(20))
    return fig


@pytest.mark.parametrize("layout", ["constrained", None])
def test_figures_drawn_with_shared_text_measures_are_matplotlibs_svgs(layout: str | None):
    """figure_svg measures texts once a process (files._RendererSVG) where matplotlib measures
    them again for every renderer: each of a run of figures — later ones meeting strings and
    fonts measured for earlier ones — is byte for byte matplotlib's own SVG of it."""
    for seed in range(4):
        reference = _text_heavy_figure(seed, layout=layout)
        FigureCanvasSVG(reference)  # matplotlib's canvas and renderer, nothing of reportgen's
        buffer = io.StringIO()
        reference.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
        for _ in range(2):  # the second time, every text is measured already
            figure = _text_heavy_figure(seed, layout=layout)
            files.lay_out(figure)
            assert figure_svg(figure) == buffer.getvalue(), seed
    assert files._text_extent.cache_info().hits > 0
    assert files._font_height_metrics.cache_info().hits > 0


def test_figures_are_the_same_drawn_here_or_by_any_number_of_workers(tmp_path: Path):
    """draw_figures splits the figures between this process and forked workers; the texts and
    files are those of drawing every figure here, in the order of the jobs, whatever the
    number of workers."""
    options = FigureOptions()
    drawn = {}
    for workers in (1, 2, 3):
        jobs = [
            (_text_heavy_figure(seed, layout="constrained"), tmp_path / str(workers) / f"f{seed}")
            for seed in range(5)
        ]
        drawn[workers] = files.draw_figures(
            jobs, options.model_copy(update={"workers": workers}), for_print=True
        )
        files_written = sorted(p.name for p in (tmp_path / str(workers)).iterdir())
        assert files_written == [f"f{seed}.svg" for seed in range(5)]
        for seed, (svg, _) in enumerate(drawn[workers]):
            assert (tmp_path / str(workers) / f"f{seed}.svg").read_text(encoding="utf-8") == svg
    assert drawn[2] == drawn[1] and drawn[3] == drawn[1]
    assert all(svg and print_svg for svg, print_svg in drawn[1])
    assert len({svg for svg, _ in drawn[1]}) == 5  # five different figures, in order


def test_drawing_with_workers_leaves_the_garbage_collector_as_it_found_it(tmp_path: Path):
    """draw_figures freezes what exists before it forks; it gives back only a freeze of its
    own (gc.unfreeze cannot tell what a caller froze: the command line freezes its imports)."""
    options = FigureOptions(workers=2)
    jobs = [(_text_heavy_figure(seed, layout=None), tmp_path / f"f{seed}") for seed in range(3)]
    assert gc.get_freeze_count() == 0
    files.draw_figures(jobs[:2], options)
    assert gc.get_freeze_count() == 0  # its own freeze given back
    gc.freeze()
    try:
        files.draw_figures(jobs[1:], options)
        # The caller's freeze still in place (gc.unfreeze would empty it; frozen objects
        # that die meanwhile leave it, so only "some" can be asserted).
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_minor_ticks_outside_the_view_are_not_created_and_nothing_drawn_changes(tmp_path: Path):
    """write_figure gives unlabelled minor locators only the positions in view (_InView)
    where their ticks cannot be drawn as marks (here: pointing across the spine, see
    test_unlabelled_minor_ticks_drawn_as_marks_look_exactly_the_same): matplotlib creates a
    tick for each position a locator returns but draws those in view only. The SVG is byte
    for byte matplotlib's, with fewer ticks made; labelled minor ticks and major ticks keep
    every position."""
    rng = np.random.default_rng(7)

    def draw(seed: int) -> Figure:
        local = np.random.default_rng(seed)
        fig = Figure(figsize=(5, 3), layout="constrained")
        for k, ax in enumerate(fig.subplots(1, 3)):
            low = 10.0 ** local.uniform(-3, 1)
            ax.plot([low, low * 10 ** local.uniform(0.5, 4)], local.random(2) * 10.0**k)
            ax.set_xscale("log")
            ax.set_yscale(("log", "symlog", "linear")[k])
            ax.xaxis.set_minor_formatter(NullFormatter())
            ax.grid(True, which="major")
            ax.set_title(f"panel {k}")
            ax.tick_params(which="minor", direction="inout")
        return fig

    for seed in rng.integers(0, 2**31, size=4):
        reference = draw(int(seed))
        FigureCanvasSVG(reference)
        buffer = io.StringIO()
        reference.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
        figure = draw(int(seed))
        assert write_figure(figure, tmp_path / "f") == buffer.getvalue(), seed
        made = [len(ax.xaxis.minorTicks) for ax in figure.axes]
        unclipped = [len(ax.xaxis.minorTicks) for ax in reference.axes]
        assert all(m <= u for m, u in zip(made, unclipped, strict=True))
        assert sum(made) < sum(unclipped), seed
        assert all(isinstance(ax.xaxis.get_minor_locator(), files._InView) for ax in figure.axes)
        log, symlog, linear = (ax.yaxis.get_minor_locator() for ax in figure.axes)
        # A log axis labels its minor ticks, a linear one has none: both left alone.
        assert not isinstance(log, files._InView) and isinstance(linear, NullLocator)
        assert isinstance(symlog, files._InView)  # unlabelled by default


def _log_panels(seed: int, layout: str | None, share: bool) -> Figure:
    """Panels on log x axes with unlabelled minor ticks, over random spans (some less than a
    decade, with no major tick in view), on log, symlog and linear y axes, perhaps shared."""
    rng = np.random.default_rng(seed)
    fig = Figure(figsize=(5, 3), layout=layout)
    for k, ax in enumerate(fig.subplots(2, 3, sharex=share, sharey=share).ravel()):
        low = 10.0 ** rng.uniform(-3, 1)
        high = low * 10 ** rng.uniform(0.2, 4)
        ax.plot([low, high], rng.random(2) * 10.0**k + 1.5, marker="o", label=f"curve {k}")
        ax.set_xscale("log")
        ax.set_yscale(("log", "symlog", "linear")[k % 3])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.grid(True, which="major")
        ax.set_title(f"panel {k}")
        ax.set_xlabel("evaluations")
    fig.legend(loc="lower center", fontsize=6)
    return fig


def _pixels(figure: Figure, dpi: float) -> np.ndarray:
    """The figure drawn by matplotlib's Agg renderer at ``dpi``, with its layout engine."""
    figure.set_dpi(dpi)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba()).copy()


def _drawn(svg: str) -> list[str]:
    """What an SVG draws, without ids and groups: its paths, marks and texts, sorted."""
    bare = re.sub(r' id="[^"]*"| xlink:href="#[^"]*"| clip-path="url\(#[^"]*\)"', "", svg)
    return sorted(re.findall(r"<(?:use|path|text)\b[^>]*>", bare))


@pytest.mark.parametrize("layout", ["constrained", None])
@pytest.mark.parametrize("share", [False, True])
def test_unlabelled_minor_ticks_drawn_as_marks_look_exactly_the_same(
    layout: str | None, share: bool
):
    """Unlabelled minor ticks become one artist of marks per axis (files._MinorTickMarks)
    instead of a Tick of five artists each: every pixel matplotlib draws is the same (Agg, at
    two resolutions, layout included), the SVG draws the same marks, paths and texts, and
    the axes keep only the prototype tick matplotlib reads the minor ticks' size from."""
    marked = 0
    for seed in range(3):
        for dpi in (72, 150):
            figure = _with_marks(_log_panels(seed, layout, share))
            reference = _pixels(_log_panels(seed, layout, share), dpi)
            assert np.array_equal(_pixels(figure, dpi), reference), (seed, dpi)
        marks = [
            a
            for ax in figure.axes
            for a in ax.get_children()
            if isinstance(a, files._MinorTickMarks)
        ]
        marked += len(marks)
        reference_figure = _log_panels(seed, layout, share)
        FigureCanvasSVG(reference_figure)
        buffer = io.StringIO()
        reference_figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
        svg = figure_svg(_with_marks(_log_panels(seed, layout, share)))
        assert _drawn(svg) == _drawn(buffer.getvalue()), seed
        for mark in marks:
            assert len(mark.axis.minorTicks) == 1  # the prototype, never drawn
            assert isinstance(mark.axis.get_minor_locator(), NullLocator)
    assert marked >= 3 * 4  # most log axes (some span too little for a major tick label)


def _with_marks(figure: Figure) -> Figure:
    files._minor_ticks_in_view(figure)
    return figure


def test_minor_ticks_stay_ticks_where_marks_could_move_something():
    """Marks only where nothing can move: without a labelled major tick in view the empty
    labels of minor ticks place the axis label (matplotlib counts their zero-size boxes),
    ticks pointing in cross the grid, and an aligned label looks at other axes' ticks."""
    fig = Figure(figsize=(6, 2), layout="constrained")
    within, inward, aligned, fine = fig.subplots(1, 4)
    for ax in (within, inward, aligned, fine):
        ax.plot([5, 500], [1, 2])
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
    within.set_xlim(20, 80)  # no power of ten in view: no major tick label
    inward.tick_params(axis="x", which="minor", direction="in")
    fig.align_xlabels([within, aligned])  # a row: joined
    assert not files._as_marks(within.xaxis)
    assert not files._as_marks(inward.xaxis)
    assert not files._as_marks(aligned.xaxis)
    assert files._as_marks(fine.xaxis)
    files._minor_ticks_in_view(fig)
    for ax in (within, inward, aligned):
        assert isinstance(ax.xaxis.get_minor_locator(), files._InView)
    assert isinstance(fine.xaxis.get_minor_locator(), NullLocator)
