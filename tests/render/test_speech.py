"""Formulas read out in words: the alt text of their images (reportgen.render.speech)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reportgen.render import math
from reportgen.render.speech import spoken
from tests.conftest import ROOT, run_cli


@pytest.mark.parametrize(
    ("latex", "words"),
    [
        # Readings written by hand, one per construct.
        (r"\tau_b", "tau sub b"),
        (r"S_H^2", "S sub H squared"),
        (r"w^*", "w star"),
        (r"\chi^2_F", "chi squared sub F"),
        (
            r"\Delta f = 10^{2-k/5}",
            "capital delta f equals 10 to the power 2 minus k over 5 end power",
        ),
        (r"t_{p,s}", "t sub p, s end sub"),
        (
            r"p_{(1)} \le \dots \le p_{(M)}",
            "p sub (1) is less than or equal to dot dot dot is less than or equal to p sub (M)",
        ),
        (r"\tilde p \le \alpha = 0.05", "p tilde is less than or equal to alpha equals 0.05"),
        (
            r"A_{12} = P(x < y) + \tfrac12 P(x = y)",
            "A sub 12 equals P of (x is less than y) plus 1 over 2 P of (x equals y)",
        ),
        (
            r"\bar H(k) = \frac{1}{n_r}\sum_r H(k, r)",
            "H bar of (k) equals 1 over n sub r the sum over r of H of (k, r)",
        ),
        (r"\frac{a+b}{2}", "the fraction a plus b over 2 end fraction"),
        (r"\sqrt{n_r}", "the square root of n sub r"),
        (r"\sqrt{n+1}", "the square root of n plus 1 end root"),
        (r"\sum_{b=1}^{B} x_b", "the sum from b equals 1 to B of x sub b"),
        (
            r"\max_{k \le j} \min(1, (M-k+1)\,p_{(k)})",
            "the maximum over k is less than or equal to j of the minimum of "
            "(1, (M minus k plus 1) p sub (k))",
        ),
        (r"\mathrm{median}_r\,H(k, r)", "the median over r of H of (k, r)"),
        (r"p_{\text{first}}", "p sub first"),
        (r"H_{\text{upper bound}}", "H sub upper bound"),
        (
            r"|A_{12} - 0.5| < 0.06",
            "the absolute value of A sub 12 minus 0.5 end absolute value is less than 0.06",
        ),
        (
            r"\frac{1}{n_p}\,|\{p : t_p \le \gamma\}|",
            "1 over n sub p the number of p such that t sub p is less than or equal to gamma end set",
        ),
        (
            r"|D| \le n(n+1)/2",
            "the absolute value of D end absolute value is less than or equal "
            "to n (n plus 1) over 2",
        ),  # n multiplies: not "n of"
        (
            r"t = \lceil\log(1-\mathrm{THR})\rceil",
            "t equals the ceiling of log of (1 minus THR) end ceiling",
        ),
        (r"\Phi(-\lambda)", "capital phi of (minus lambda)"),
        (r"x\,R_\sigma\,y", "x R sub sigma y"),
        (
            r"[t_a \succ t_b] + [t_a \sim t_b]",
            "[t sub a is better than t sub b] plus [t sub a ties with t sub b]",
        ),
        (r"\foo{x}", "foo x"),  # outside the subset: its name, not its markup
    ],
)
def test_a_formula_is_read_in_words(latex: str, words: str):
    assert spoken(latex) == words


def _formulas_in_the_source() -> list[str]:
    """Every formula written literally by a section builder (the ``$...$`` in their text),
    with the f-string fields the builders fill in replaced by a number."""
    found = set()
    for path in (ROOT / "reportgen" / "render" / "sections").glob("*.py"):
        source = path.read_text("utf-8")
        for prefix, literal in re.findall(r'(?s)([rf]{0,2})"((?:[^"\\]|\\.)*)"', source):
            text = literal if "r" in prefix else literal.replace("\\\\", "\\")
            if "f" in prefix:  # a field is one brace, a brace of the text two
                text = re.sub(r"(?<!\{)\{[^{}]+\}(?!\})", "7", text)
                text = text.replace("{{", "{").replace("}}", "}")
            found.update(re.findall(r"\$([^$]+)\$", text))
    return sorted(found)


def test_no_formula_of_the_report_is_read_as_markup():
    """Whatever a section builder writes, its alt text holds no LaTeX: no backslash, brace,
    sub- or superscript sign (a command outside the subset is read as its name)."""
    formulas = _formulas_in_the_source()
    assert len(formulas) > 50
    for latex in formulas:
        words = spoken(latex)
        assert words and not re.search(r"[\\{}_^$]", words), (latex, words)


def test_the_methods_appendix_gives_each_formula_its_reading(tiny_study: Path, tmp_path: Path):
    result = run_cli("run", str(tiny_study), "-o", str(tmp_path / "out"), "--quiet")
    assert result.code == 0, result.err
    html = (tmp_path / "out" / "report.html").read_text("utf-8")
    alts = re.findall(r'<img class="math[^"]*" src="[^"]*" alt="([^"]*)"', html)
    assert alts and r"\frac" not in html.split("app-methods")[1].split("app-data")[0]
    assert all("\\" not in alt and "_" not in alt for alt in alts)
    assert any(" sub " in alt for alt in alts)


def test_a_formula_shown_as_its_source_is_read_in_words_too(
    tiny_study: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A formula mathtext cannot draw is shown as its LaTeX in code style; a screen reader
    reads the words (an image of text, named), not the markup."""
    monkeypatch.setattr(math, "formula_svg_uri", lambda latex: None)
    result = run_cli("run", str(tiny_study), "-o", str(tmp_path / "out"), "--quiet")
    assert result.code == 0, result.err
    html = (tmp_path / "out" / "report.html").read_text("utf-8")
    shown = re.findall(r'<code class="math-fallback" role="img" aria-label="([^"]*)">', html)
    assert shown and not any(re.search(r"[\\{}_^]", label) for label in shown)
    assert '<img class="math' not in html
