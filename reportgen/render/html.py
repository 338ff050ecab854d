"""The HTML report: one self-contained file (CSS and SVG figures inline, no external fetches).

Every string from the spec or the data reaches the page through jinja2's autoescaping, so an
algorithm called ``<script>alert(1)</script>`` appears as text.

Names print as written. The generated text writes its symbols' subscripts with an underscore
(``θ_f``, ``n_r``), and :func:`typeset` sets them lower; a name from the spec or the data
(an algorithm ``f_x``, a problem ``r_{ab}``) looks the same, and was typeset as f<sub>x</sub>
in the report and in the PDF printed from it. The names holding an underscore are therefore
passed to the filters (:attr:`~reportgen.render.document.Document.verbatim`), and a subscript
inside one of them is left as it is. A name equal to a symbol (an algorithm ``n_r``) then
leaves that symbol unset too: a symbol printed with its underscore is still read right, a
name printed as another name is not.

A name in a right-to-left script (אלגוריתם, خوارزمية 2) is set in ``<bdi>``: without it,
the browser's bidirectional algorithm joined two such names and the comma between them into
one right-to-left run, so that "DE, אלגוריתם, خوارزمية 2" read "DE, 2 خوارزمية ,אלגוריתם"
(the list in the wrong order, "2" before its name).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import partial

import jinja2
from markupsafe import Markup, escape

from reportgen.errors import shorten_words
from reportgen.present.caveats import Caveat
from reportgen.render.document import Document, print_copy
from reportgen.render.speech import spoken
from reportgen.resources import resource


def _readable(value: object) -> object:
    """Every plain string printed by the template, with absurdly long words shortened.

    Markup (our SVG figures, CSS, script) and data URIs pass unchanged.
    """
    if isinstance(value, str) and not isinstance(value, Markup) and not value.startswith("data:"):
        return shorten_words(value)
    return value


_SUBSCRIPT = re.compile(
    r"(?<![\w/.\\])([A-Za-zα-ωΑ-Ω])_(first|[A-Za-z0-9α-ω]|\{[^{}<>]+\})(?![\w/])"
)
"""A one-letter symbol with a subscript as the generated text writes it: θ_f, μ_f, n_r, R_0,
q_α, p_first, x_{ij} (the subscript one character, the word "first" or braced). A letter
inside a word or a path (``u_scores``, ``report_holm_mean.tex``, ``value_floor``) never
matches."""


def verbatim_names(names: Iterable[str], *, escaped: bool = False) -> re.Pattern[str] | None:
    """A pattern finding the ``names`` that hold an underscore (None if none do): the names
    the filters print as written (module notes). ``escaped``: as they stand in escaped HTML,
    for :func:`typeset`, which escapes first."""
    return _any_of({str(escape(n)) if escaped else n for n in names if "_" in n})


def isolated_names(names: Iterable[str]) -> re.Pattern[str] | None:
    """A pattern finding the ``names`` (escaped, as :func:`typeset` sees them) that hold a
    right-to-left letter (None if none do): each is set in ``<bdi>`` (module notes)."""
    return _any_of(
        {
            str(escape(n))
            for n in names
            if any(unicodedata.bidirectional(c) in ("R", "AL") for c in n)
        }
    )


def _any_of(names: set[str]) -> re.Pattern[str] | None:
    """A pattern finding any of ``names``, the longest first (None for no names)."""
    if not names:
        return None
    return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))


def _subscripts(
    text: str, set_: Callable[[re.Match[str]], str], verbatim: re.Pattern[str] | None
) -> str:
    """``text`` with every symbol's subscript replaced by ``set_`` (its match), except inside
    a name ``verbatim`` finds."""
    if verbatim is None:
        return _SUBSCRIPT.sub(set_, text)
    names = [m.span() for m in verbatim.finditer(text)]
    return _SUBSCRIPT.sub(
        lambda m: (
            m.group(0)
            if any(start < m.end() and m.start() < end for start, end in names)
            else set_(m)
        ),
        text,
    )


def as_printed(text: str, verbatim: re.Pattern[str] | None = None) -> str:
    """``text`` as a reader sees it once typeset, without the markup: ``θ_f`` → ``θf`` (the
    subscript is set lower, not marked with an underscore); for comparing with a PDF's text.
    ``verbatim``: :func:`verbatim_names` of the report's names, printed as written."""
    return _subscripts(text, lambda m: m.group(1) + m.group(2).strip("{}"), verbatim)


def typeset(
    value: object,
    verbatim: re.Pattern[str] | None = None,
    isolated: re.Pattern[str] | None = None,
) -> Markup:
    """``value`` as escaped HTML with its symbols' subscripts set as subscripts (θ_f → θ<sub>f</sub>).

    The methods appendix typesets formulas with LaTeX; the prose, captions and tables use the
    same symbols in plain text, where ``θ_f`` would read as an identifier. Escaping comes
    first, so nothing from the spec or the data becomes markup. ``verbatim``: the report's
    names holding an underscore (:func:`verbatim_names` with ``escaped``), printed as written;
    ``isolated``: its right-to-left names (:func:`isolated_names`), each set in ``<bdi>``.
    """
    text = str(escape(_readable(value)))

    def sub(match: re.Match[str]) -> str:
        return f"{match.group(1)}<sub>{match.group(2).strip('{}')}</sub>"

    text = _subscripts(text, sub, verbatim)
    if isolated is not None:
        text = isolated.sub(lambda m: f"<bdi>{m.group(0)}</bdi>", text)
    return Markup(_PERCENT_GAP.sub("\\1\u00a0%", text))


_PERCENT_GAP = re.compile(r"(\d) %")
"""A number and its per cent sign ("92 %"): joined by a no-break space, as a line break between
them left "92" at the end of one line and "%" at the start of the next (quickstart's bottom
line)."""


_SENTENCE_END = re.compile(
    r"(?<!\bal)(?<!\be\.g)(?<!\bi\.e)(?<!\bcf)(?<!\bvs)(?<!\bFig)(?<!\bFigs)(?<!\bEq)"
    r"(?<!\bEqs)(?<!\bresp)\.\s+(?=[A-Z0-9\"“(])"
)
"""The end of a sentence: a full stop, a space and a capital, digit, quote or parenthesis —
not the stop of "et al.", "e.g.", "Fig." or "Eq." ("Price et al. §5.3" is one sentence)."""


def lead_sentence(text: str) -> tuple[str, str]:
    """``text`` split after its first sentence: ``("First one.", "The rest.")``; the rest is
    empty for one sentence. The HTML sets a caveat's first sentence in bold, the rest not."""
    end = _SENTENCE_END.search(text)
    if end is None:
        return text, ""
    return text[: end.start() + 1], text[end.end() :]


def caveat_lines(
    caveats: Sequence[tuple[str, Caveat]],
) -> list[tuple[str, Caveat, str, str, str]]:
    """The summary's caveats as its list shows them: (origin, caveat, lead sentence, rest,
    origin of an earlier caveat whose rest this one leaves out).

    Two analyses of one kind raise the same caveat with their own numbers: the CEC 2022
    example's U-scores and U-scores at cut-points each said "Trials of different algorithms tie
    ... on 11 (15) problems; each tie scores half a point. U-scores at earlier cut-points can
    separate them (Price et al. §5.3)." The lead sentence, with its numbers, stays in each; the
    rest, when an earlier caveat of the same code ended the same way, is left out and that
    caveat named ("See [u_scores] above."). The caveats themselves (``results.json``, the
    console) are unchanged.
    """
    said: dict[tuple[str, str], str] = {}
    lines = []
    for origin, caveat in caveats:
        lead, rest = lead_sentence(caveat.message)
        earlier = said.get((caveat.code, rest), "") if rest else ""
        said.setdefault((caveat.code, rest), origin)
        lines.append((origin, caveat, lead, "" if earlier else rest, earlier))
    return lines


def caption_title(caption: str, verbatim: re.Pattern[str] | None = None) -> str:
    """A figure's caption up to its first colon outside parentheses or its first sentence's
    end: its title ("Significance relation at σ = 60: x → y means ..." → "Significance
    relation at σ = 60"), the figure's alt text. The figcaption under the image is read
    next; the whole caption as alt made a screen reader read it twice. A subscript is read as
    one ("p_first" → "p sub first"), as the formulas' alt text reads it
    (:mod:`reportgen.render.speech`); a name ``verbatim`` finds is read as written."""
    title = lead_sentence(caption)[0]
    depth = 0
    for at, char in enumerate(title):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(char, 0)
        if char == ":" and depth == 0 and title[at + 1 : at + 2] in (" ", ""):
            title = title[:at]
            break
    title = _subscripts(title, lambda m: f"{m.group(1)} sub {m.group(2).strip('{}')}", verbatim)
    return title.strip().removesuffix(".")


LONG_CELL = 24
"""Characters from which a table cell may wrap on screen; a shorter one stays on one line."""


def cell_classes(text: str, bold: bool) -> str:
    """The classes of a table cell: ``best`` when bold, ``short`` when under :data:`LONG_CELL`
    characters.

    A table wider than the screen scrolls in its box, but a browser first narrows every column
    to its longest word: the CEC 2022 verdict matrix broke "6 (worse)" after the 6 and the
    ranking table "0.00 (5–11)" inside its range. The screen stylesheet keeps a ``short`` cell
    on one line; a long one (a list of algorithms, an example sentence) still wraps. Print is
    left as it is: a wide table is fitted by its estimated width
    (:func:`reportgen.render.document.printed_width_pt`).
    """
    classes = (["best"] if bold else []) + (["short"] if len(text) < LONG_CELL else [])
    return " ".join(classes)


def template_environment() -> jinja2.Environment:
    """The jinja2 environment over ``templates/``, autoescaping everything."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(resource("templates")),
        autoescape=True,
        finalize=_readable,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["typeset"] = typeset
    env.filters["lead_sentence"] = lead_sentence
    env.filters["spoken"] = spoken
    env.filters["caption_title"] = caption_title
    env.filters["caveat_lines"] = caveat_lines
    env.globals["cell_classes"] = cell_classes
    return env


def render_html(document: Document, *, for_print: bool = False) -> str:
    """The report as one HTML string.

    ``for_print``: the copy weasyprint lays out for the PDF, without the figures and tables
    the print stylesheet hides (``screen-only``: long tables, a figure's screen variant). The
    PDF is the same without them, and weasyprint spends no time on their styles (a quarter
    of the HTML in a study of 13 algorithms on 24 problems), and with each figure's copy
    made for weasyprint (:mod:`reportgen.render.printsvg`).
    """
    if for_print:
        document = print_copy(document)
    env = template_environment()
    env.filters["typeset"] = partial(
        typeset,
        verbatim=verbatim_names(document.verbatim, escaped=True),
        isolated=isolated_names(document.verbatim),
    )
    env.filters["caption_title"] = partial(
        caption_title, verbatim=verbatim_names(document.verbatim)
    )
    css = resource("templates/report.css").read_text(encoding="utf-8")
    script = resource("templates/report.js").read_text(encoding="utf-8")
    # Our own stylesheet and script (trusted files); everything else is autoescaped.
    return env.get_template("report.html.j2").render(
        doc=document, css=Markup(css), script=Markup(script), for_print=for_print
    )
