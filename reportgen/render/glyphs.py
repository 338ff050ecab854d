"""Characters of the study's names that the PDF has no font for: a warning, never a silent box.

The PDF is laid out by weasyprint with Pango, which sets each character in the stylesheet's
fonts (DejaVu Serif/Sans, templates/report.css) or, where they lack it, in any installed font
that fontconfig finds with it; figures are embedded as SVG ``<text>`` and fall back the same
way. A character that no installed font has — an emoji on a machine without an emoji font,
a script with no font installed — is printed as an empty box, and weasyprint says nothing.
The HTML report is not concerned: a browser uses the reader's fonts.

Decisions
---------
- Checked against fontconfig, the font list Pango falls back over (its fallback takes every
  installed font that adds coverage, so a character is printable iff some font has it). It is
  asked through ctypes, under the names weasyprint loads it by: fontconfig is a library Pango
  itself needs, so wherever a PDF can be made, it is there. Where it cannot be loaded, nothing
  is checked (no warning is better than a false one).
- No font is shipped: the emoji fonts are colour bitmaps of 10 MB and more, and a monochrome
  one covers only part of Unicode; the honest fix is to say which characters will be boxes,
  where they come from, and what to do (install a font, or give a label).
- Checked: what the user writes and the PDF prints — the spec's text (printed whole in the
  appendix; each line named by its key, ``study.title (study.yaml:2)``), the names of
  algorithms (as labelled: a label from the spec replaces the name) and problems, and the data
  files' names, each named with its data source and file. reportgen's own text (σ, λ, ≤) is set
  in DejaVu, which the report's system packages install.
- Not checked: whitespace, control and format characters (a zero-width joiner) and variation
  selectors (U+FE0F after an emoji), which no font draws and Pango does not box.
- The figures' own PDF files (``report.figures.pdf``, for a paper's LaTeX) are matplotlib's,
  which embeds DejaVu Sans alone and does not fall back: a name DejaVu lacks (遗传算法, most
  emoji) prints as boxes there even where an installed font has it. Their characters (the
  algorithms' labels, the problems' names) are checked against DejaVu Sans's own character
  map, and the same warning names the figure PDFs.
- A warning (``unprintable_characters``), not an error: the rest of the PDF is right, and the
  HTML shows every character. It is printed, not written into results.json or the report,
  because it depends on the fonts of the machine that renders, not on spec and data (a
  reviewer's ``reportgen verify`` would otherwise differ from the author's run).
"""

from __future__ import annotations

import ctypes
import functools
import unicodedata
from collections.abc import Callable, Iterable

from reportgen.present.caveats import Caveat
from reportgen.present.findings import join_words
from reportgen.spec.listing import parsed_spec, string_leaves
from reportgen.spec.load import LoadedSpec

CODE = "unprintable_characters"
"""The warning code (:mod:`reportgen.warning_codes`)."""

FONTCONFIG_NAMES = (
    "libfontconfig.so.1",
    "libfontconfig-1",
    "fontconfig-1",
    "fontconfig",
    "libfontconfig.1.dylib",
    "libfontconfig-1.dll",
)
"""The names weasyprint loads fontconfig by (weasyprint.text.ffi), Linux's first."""

_FC_SET_SYSTEM = 0
_FC_RESULT_MATCH = 0


class _FontSet(ctypes.Structure):
    _fields_ = [
        ("nfont", ctypes.c_int),
        ("sfont", ctypes.c_int),
        ("fonts", ctypes.POINTER(ctypes.c_void_p)),
    ]


@functools.cache
def _font_coverage() -> Callable[[int], bool] | None:
    """Whether some installed font has a code point (fontconfig), or None when fontconfig
    cannot be loaded. Loaded once per process: the font list does not change during a run."""
    for name in FONTCONFIG_NAMES:
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError:
            continue
    else:
        return None
    lib.FcInitLoadConfigAndFonts.restype = ctypes.c_void_p
    lib.FcConfigGetFonts.restype = ctypes.POINTER(_FontSet)
    lib.FcConfigGetFonts.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.FcPatternGetCharSet.restype = ctypes.c_int
    lib.FcPatternGetCharSet.argtypes = [
        ctypes.c_void_p,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_void_p),
    ]
    lib.FcCharSetHasChar.restype = ctypes.c_int
    lib.FcCharSetHasChar.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
    config = lib.FcInitLoadConfigAndFonts()  # kept for the process: the charsets live in it
    fonts = lib.FcConfigGetFonts(config, _FC_SET_SYSTEM) if config else None
    if not fonts:
        return None
    charsets = []
    for i in range(fonts.contents.nfont):
        charset = ctypes.c_void_p()
        found = lib.FcPatternGetCharSet(
            fonts.contents.fonts[i], b"charset", 0, ctypes.byref(charset)
        )
        if found == _FC_RESULT_MATCH and charset.value:
            charsets.append(charset)

    @functools.cache
    def covered(code_point: int) -> bool:
        return any(lib.FcCharSetHasChar(c, code_point) for c in charsets)

    return covered


def _drawn(character: str) -> bool:
    """Whether a font must draw the character (module notes: not whitespace, control or
    format characters, nor variation selectors)."""
    if character.isspace() or unicodedata.category(character) in ("Cc", "Cf"):
        return False
    code = ord(character)
    return not (0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF)


def unprintable(texts: Iterable[str]) -> list[str]:
    """The characters of ``texts`` that no installed font has, in code-point order; none when
    fontconfig cannot be asked."""
    covered = _font_coverage()
    if covered is None:
        return []
    characters = {c for text in texts for c in text if ord(c) > 0x7E and _drawn(c)}
    return sorted((c for c in characters if not covered(ord(c))), key=ord)


@functools.cache
def _figure_font_characters() -> frozenset[int]:
    """The code points of the font matplotlib embeds in the figures' PDF files."""
    from matplotlib.font_manager import FontProperties, findfont
    from matplotlib.ft2font import FT2Font

    return frozenset(FT2Font(findfont(FontProperties(family="DejaVu Sans"))).get_charmap())


def unprintable_in_figures(texts: Iterable[str]) -> list[str]:
    """The characters of ``texts`` that the figures' PDF files cannot show (module notes)."""
    known = _figure_font_characters()
    characters = {c for text in texts for c in text if ord(c) > 0x7E and _drawn(c)}
    return sorted((c for c in characters if ord(c) not in known), key=ord)


def _character(character: str) -> str:
    """``🚀 (U+1F680 ROCKET)``."""
    name = unicodedata.name(character, "unassigned")
    return f"{character} (U+{ord(character):04X} {name})"


def unprintable_caveats(
    spec: LoadedSpec,
    algorithms: Iterable[str],
    sources: Iterable[tuple[str, Iterable[str], Iterable[str], Iterable[str]]],
    *,
    report_pdf: bool = True,
    figure_pdfs: bool = False,
) -> list[Caveat]:
    """The ``unprintable_characters`` warnings for the report's PDF (``report_pdf``) and the
    figures' PDF files (``figure_pdfs``); or none.

    Parameters
    ----------
    spec : LoadedSpec
        The study spec (its text is printed in the PDF's appendix).
    algorithms : iterable of str
        The study's algorithms (printed by their spec label where they have one).
    sources : iterable of (str, names, problems, files)
        Per data source: its name, its algorithms' names, its problems' names and the names
        of the files it read, as the report shows them.
    report_pdf, figure_pdfs : bool
        Whether the report is written as PDF (``report.formats``), and the figures too
        (``report.figures.pdf``).

    Returns
    -------
    list of Caveat
        Per kind of PDF, one caveat naming every unprintable character and each place it
        appears.
    """
    text = spec.text()
    labels = spec.study.algorithm_labels()
    listed = [(s, list(a), list(p), list(f)) for s, a, p, f in sources]
    shown = [labels.get(a, a) for a in algorithms]
    problems = [name for _, _, names, _ in listed for name in names]
    files = [name for _, _, _, names in listed for name in names]
    caveats = []
    missing = unprintable([text, *shown, *problems, *files]) if report_pdf else []
    if missing:
        caveats.append(
            Caveat(
                CODE,
                f"No installed font has {_characters(missing)}: the PDF prints "
                f"{'it' if len(missing) == 1 else 'them'} as empty boxes (the HTML report "
                "shows them with the reader's fonts). Install a font that has them (e.g. Noto "
                "Emoji for emoji; fontconfig finds it), or give the algorithm a label without "
                "them (algorithms: [{name: …, label: …}]).",
                "; ".join(dict.fromkeys(_places(spec, text, listed, missing))),
            )
        )
    in_figures = unprintable_in_figures([*shown, *problems]) if figure_pdfs else []
    if in_figures:
        caveats.append(
            Caveat(
                CODE,
                "The figures' PDF files (report.figures.pdf) embed DejaVu Sans alone, which "
                f"has no {_characters(in_figures)}: they print there as empty boxes (the "
                "report's own figures fall back to other fonts). Give the algorithm a label "
                "without them (algorithms: [{name: …, label: …}]) or use the SVG files.",
                "; ".join(dict.fromkeys(_places(spec, text, listed, in_figures))),
            )
        )
    return caveats


def _characters(missing: list[str]) -> str:
    """``🔥 (U+1F525 FIRE) and 🚀 (U+1F680 ROCKET)``."""
    return join_words([_character(c) for c in missing])


def _places(
    spec: LoadedSpec,
    text: str,
    sources: list[tuple[str, list[str], list[str], list[str]]],
    missing: list[str],
) -> list[str]:
    """Where the missing characters appear: spec keys and lines, then data names."""
    labels = spec.study.algorithm_labels()
    places = _spec_places(spec, text, missing)
    for source, names, problems, files in sources:
        for what, values in (("algorithm", names), ("problem", problems), ("file", files)):
            for value in values:
                if what == "algorithm" and value in labels:
                    continue  # printed as its label, which the spec's lines name
                if any(c in value for c in missing):
                    places.append(
                        f"{what} '{value}' of data source '{source}' ({', '.join(files)})"
                    )
    return places


def _spec_places(spec: LoadedSpec, text: str, missing: list[str]) -> list[str]:
    """Each spec value holding a missing character, by its key: ``study.title
    (study.yaml:2)``; then each other line holding one (a comment) by its number."""
    named = [
        (key_path, value)
        for key_path, value in string_leaves(parsed_spec(spec))
        if any(c in value for c in missing)
    ]
    places = [spec.where(key_path) for key_path, _ in named]
    # The lines each named value spans (a block scalar's continue below its key's line).
    lines = {
        line + extra
        for key_path, value in named
        if (line := spec.lines.get(key_path)) is not None
        for extra in range(value.count("\n") + 1)
    }
    places += [
        f"{spec.path.name}:{number}"
        for number, line in enumerate(text.splitlines(), start=1)
        if number not in lines and any(c in line for c in missing)
    ]
    return places
