"""A formula's LaTeX as English words: the alt text of its image in the HTML report.

Each formula of the methods appendix is an image (:mod:`reportgen.render.math`). Its alt text
was the LaTeX source, so a screen reader read ``\\bar H(k) = \\frac{1}{n_r}\\sum_r H(k, r)``
as "backslash bar H k equals backslash frac 1 n underscore r ...". :func:`spoken` reads it
as "H bar of (k) equals 1 over n sub r, the sum over r of H of (k, r)".

Decision: spoken English, not MathML. The image must stay (the PDF draws it, and weasyprint
renders no MathML), so MathML could only be a second, hidden copy beside it; screen readers
read MathML only with an add-on on some systems (NVDA needs MathCAT or MathPlayer), and an
``alt`` attribute holds plain text only. Words in the ``alt`` need nothing but an ``<img>``,
are read by every screen reader and browser, and are what a browser shows when images are
off. The cost: one reading, with no navigation inside the formula.

The reading covers the LaTeX the section builders write (matplotlib's mathtext subset,
after :func:`reportgen.render.math.normalised`): letters, numbers, relations and operators
as words; ``\\frac``, ``\\sqrt``, sub- and superscripts, accents (``\\bar H``: "H bar"),
big operators with their limits (``\\sum_{b=1}^{B}``: "the sum from b equals 1 to B of"),
sets and absolute values (``|\\{p : ...\\}|``: "the number of p such that ..."), ceilings,
``\\text``/``\\mathrm`` words. A letter directly before a parenthesis is read as a function
applied to it ("f of (x sub 0)") unless it is one of the counts the formulas multiply
(:data:`_FACTORS`: ``n(n+1)/2`` is "n (n plus 1) over 2"). A compound sub- or superscript,
fraction or root is closed ("end sub", "end fraction"), so the listener knows where it
ends. A command outside the subset is read as its name without the backslash: the alt text
never holds LaTeX markup.
"""

from __future__ import annotations

import functools
import re

from reportgen.render.math import normalised

_TOKEN = re.compile(r"\\[a-zA-Z]+|\\.|[0-9]+(?:\.[0-9]+)?|\s+|.", re.DOTALL)

_GREEK = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "omicron",
    "pi",
    "rho",
    "sigma",
    "tau",
    "upsilon",
    "phi",
    "chi",
    "psi",
    "omega",
]
_WORDS = {f"\\{g}": g for g in _GREEK}
_WORDS.update({f"\\{g.capitalize()}": f"capital {g}" for g in _GREEK})
_WORDS.update(
    {
        r"\varepsilon": "epsilon",
        r"\vartheta": "theta",
        r"\varphi": "phi",
        r"\varrho": "rho",
        r"\varsigma": "sigma",
        r"\ell": "l",
        r"\leq": "is less than or equal to",
        r"\geq": "is greater than or equal to",
        r"\neq": "is not equal to",
        r"\ne": "is not equal to",
        r"\approx": "is approximately",
        r"\sim": "ties with",  # the U-scores' tie, beside \succ: "is better than"
        r"\equiv": "is equivalent to",
        r"\ll": "is much less than",
        r"\gg": "is much greater than",
        r"\succ": "is better than",
        r"\prec": "is worse than",
        r"\pm": "plus or minus",
        r"\mp": "minus or plus",
        r"\times": "times",
        r"\cdot": "times",
        r"\div": "divided by",
        r"\infty": "infinity",
        r"\dots": "dot dot dot",
        r"\ldots": "dot dot dot",
        r"\cdots": "dot dot dot",
        r"\in": "in",
        r"\notin": "not in",
        r"\subset": "subset of",
        r"\subseteq": "subset of",
        r"\cup": "union",
        r"\cap": "intersection",
        r"\setminus": "minus",
        r"\to": "to",
        r"\rightarrow": "to",
        r"\mapsto": "maps to",
        r"\Rightarrow": "implies",
        r"\forall": "for all",
        r"\exists": "there is",
        r"\partial": "partial",
        r"\mid": "such that",
        r"\prime": "prime",
        r"\log": "log",
        r"\ln": "natural log",
        r"\exp": "exp",
        r"\lceil": "the ceiling of",
        r"\rceil": "end ceiling",
        r"\lfloor": "the floor of",
        r"\rfloor": "end floor",
        r"\{": "the set of",
        r"\}": "end set",
        r"\%": "percent",
        r"\#": "number",
        "=": "equals",
        "<": "is less than",
        ">": "is greater than",
        "+": "plus",
        "-": "minus",
        "−": "minus",
        "/": "over",
        "*": "times",
        ":": "such that",
        "!": "factorial",
    }
)
"""Single tokens and the words they are read as."""

_SILENT = {r"\,", r"\;", r"\:", r"\!", r"\ ", r"\quad", r"\qquad", r"\left", r"\right", "\\"}

_OPERATORS = {
    r"\sum": "sum",
    r"\prod": "product",
    r"\max": "maximum",
    r"\min": "minimum",
    r"\sup": "supremum",
    r"\inf": "infimum",
    r"\lim": "limit",
    r"\int": "integral",
    r"\arg": "arg",
    r"\argmax": "arg max",
    r"\argmin": "arg min",
}
"""Operators read with their limits: "the sum from b equals 1 to B of", "the minimum over q of"."""

_NAMED_OPERATORS = {"median", "mean", "argmax", "argmin", "var", "sd", "max", "min"}
"""``\\mathrm`` words that are operators: ``\\mathrm{median}_r`` is "the median over r of"."""

_TEXT = {r"\text", r"\mathrm", r"\mathit", r"\mathbf", r"\mathsf", r"\mathtt", r"\operatorname"}
_FONTS = {r"\mathbb", r"\mathcal", r"\mathfrak", r"\boldsymbol"}

_ACCENTS = {
    r"\bar": "bar",
    r"\overline": "bar",
    r"\hat": "hat",
    r"\widehat": "hat",
    r"\tilde": "tilde",
    r"\widetilde": "tilde",
    r"\dot": "dot",
    r"\ddot": "double dot",
    r"\vec": "vector",
    r"\check": "check",
}

_POWERS = {"2": "squared", "3": "cubed", "prime": "prime", "times": "star", "minus 1": "inverse"}
"""Superscripts read as one word ("S sub H squared", "w star") instead of "to the power"."""

_FACTORS = frozenset("nmkNM")
"""Letters the formulas multiply by a parenthesis (``n(n+1)/2``, ``m(m-1)``): never read as a
function applied to it."""


class _Reader:
    """A recursive reader over the tokens of one formula."""

    def __init__(self, latex: str) -> None:
        self.tokens = _TOKEN.findall(latex)
        self.at = 0

    def peek(self) -> str | None:
        """The next token that is not white space (white space matters in ``\\text`` only)."""
        while self.at < len(self.tokens) and self.tokens[self.at].isspace():
            self.at += 1
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        self.peek()
        token = self.tokens[self.at]
        self.at += 1
        return token

    def group(self) -> list[list[str]]:
        """A braced group's atoms (each its words), or the next single atom without scripts."""
        if self.peek() == "{":
            self.take()
            atoms = self.sequence(until="}")
            if self.peek() == "}":
                self.take()
            return atoms
        if self.peek() is None:
            return []
        return [self.atom(scripts=False)[0]]

    def raw_group(self) -> str:
        """A braced group's text as written (the argument of ``\\text``), or the next token."""
        if self.peek() != "{":
            return self.take().lstrip("\\") if self.peek() is not None else ""
        self.take()
        depth, text = 1, ""
        while self.at < len(self.tokens):
            token = self.tokens[self.at]
            self.at += 1
            depth += {"{": 1, "}": -1}.get(token, 0)
            if depth == 0:
                break
            text += token.lstrip("\\")
        return " ".join(text.split())

    def sequence(self, until: str | None = None) -> list[list[str]]:
        """The atoms (each its words) up to the token ``until`` (not taken) or the end."""
        atoms: list[list[str]] = []
        open_bars = 0
        while (token := self.peek()) is not None and token != until:
            if token in ("|", r"\#"):
                self.take()
                last = atoms[-1][-1] if atoms and atoms[-1] else ""
                if token == "|" and open_bars and last not in _OPENERS:
                    open_bars -= 1
                    # A count's end was said by its set's: "end set".
                    atoms.append([] if last == "end set" else ["end absolute value"])
                    continue
                open_bars += token == "|"
                if self.peek() == r"\{":  # |{p : ...}| and #{p : ...} count a set's members
                    self.take()
                    atoms.append(["the number of"])
                else:
                    atoms.append(["the absolute value of" if token == "|" else "number"])
                continue
            words, applies = self.atom()
            atoms.append(words)
            if applies and self.peek() == "(":
                atoms[-1] = [*words, "of"]
        return [atom for atom in atoms if atom]

    def atom(self, scripts: bool = True) -> tuple[list[str], bool]:
        """The next atom's words (with its sub- and superscripts unless ``scripts`` is
        false), and whether a parenthesis after it holds its argument (a function's)."""
        token = self.take()
        applies = False
        if token in _OPERATORS or (token in _TEXT and self._named_operator()):
            return self.operator(_OPERATORS.get(token) or self.raw_group()), False
        if token in _TEXT:
            words = [self.raw_group()]
            applies = True
        elif token in _FONTS:
            words = _words(self.group())
        elif token in _ACCENTS:
            base = self.group()
            words = [*_words(base), _ACCENTS[token]]
            applies = len(base) == 1
        elif token == r"\frac":
            numerator, denominator = self.group(), self.group()
            words = [*_words(numerator), "over", *_words(denominator)]
            if _compound(numerator) or _compound(denominator):
                words = ["the fraction", *words, "end fraction"]
        elif token == r"\sqrt":
            radicand = self.group()
            words = ["the square root of", *_words(radicand)]
            words += ["end root"] if _compound(radicand) else []
        elif token == "{":
            words = _words(self.sequence(until="}"))
            if self.peek() == "}":
                self.take()
        elif token in _WORDS:
            words = [_WORDS[token]]
            applies = token[1:].lower() in _GREEK or token in (r"\log", r"\ln", r"\exp")
        elif token in _SILENT or token == "}":
            return [], False
        elif token.startswith("\\"):
            words = [token[1:]]  # outside the subset: its name, never its markup
        else:
            words = [token]
            applies = token.isalpha() and token not in _FACTORS
        return (self.scripts(words) if scripts else words), applies

    def _named_operator(self) -> bool:
        """Whether the ``\\mathrm{...}`` about to be read names an operator (``median``)."""
        at = self.at
        name = self.raw_group()
        self.at = at
        return name in _NAMED_OPERATORS and self._scripted_after_group()

    def _scripted_after_group(self) -> bool:
        """Whether the group about to be read is followed by a subscript (its limits)."""
        at = self.at
        self.raw_group()
        scripted = self.peek() == "_"
        self.at = at
        return scripted

    def scripts(self, words: list[str]) -> list[str]:
        """``words`` followed by the sub- and superscripts after them."""
        while self.peek() in ("_", "^"):
            kind = self.take()
            script = self.group()
            said = " ".join(_words(script))
            if kind == "_":
                words = [*words, "sub", said] + (["end sub"] if _compound(script) else [])
            elif said in _POWERS:
                words = [*words, _POWERS[said]]
            else:
                words = [*words, "to the power", said]
                words += ["end power"] if _compound(script) else []
        return words

    def operator(self, name: str) -> list[str]:
        """A big operator with its limits: "the sum from b equals 1 to B of"."""
        lower: list[str] = []
        upper: list[str] = []
        while self.peek() in ("_", "^"):
            if self.take() == "_":
                lower = _words(self.group())
            else:
                upper = _words(self.group())
        words = [f"the {name}"]
        if lower and upper:
            words += ["from", *lower, "to", *upper]
        elif lower:
            words += ["over", *lower]
        elif upper:
            words += ["up to", *upper]
        return [*words, "of"]


def _words(atoms: list[list[str]]) -> list[str]:
    return [word for atom in atoms for word in atom]


def _compound(atoms: list[list[str]]) -> bool:
    """Whether a script, fraction part or radicand is more than one atom (its end is said);
    parentheses do not count: ``p_{(j)}`` is "p sub (j)"."""
    return sum(atom not in (["("], [")"]) for atom in atoms) > 1


_OPENERS = {"the absolute value of", "the number of", "of", "the set of"}
"""Words after which a ``|`` opens a new absolute value instead of closing one."""


@functools.lru_cache(maxsize=512)
def spoken(latex: str) -> str:
    """``latex`` (a formula without its dollar signs) read out in English words.

    >>> spoken(r"\\tilde p \\le \\alpha = 0.05")
    'p tilde is less than or equal to alpha equals 0.05'
    """
    text = " ".join(_words(_Reader(normalised(latex)).sequence()))
    text = re.sub(r"\s+([,;)\]])", r"\1", text)
    text = re.sub(r"([(\[])\s+", r"\1", text)
    return re.sub(r"\s{2,}", " ", text).strip()
