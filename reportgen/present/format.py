"""Number formatting shared by figures, captions, narrative and display tables."""

from __future__ import annotations

import math

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_of_ten(value: float) -> str:
    """``1e-05`` → ``10⁻⁵``; other values in ``:g`` form (``0.25``, ``3×10⁻⁴`` for 3e-4)."""
    if value == 0 or not math.isfinite(value):
        return "∞" if value == math.inf else f"{value:g}"
    exponent = math.floor(math.log10(abs(value)))
    mantissa = value / 10**exponent
    if abs(exponent) < 3:
        return f"{value:g}"
    if math.isclose(mantissa, 1.0, rel_tol=1e-9):
        return f"10{str(exponent).translate(_SUPERSCRIPT)}"
    return f"{mantissa:g}×10{str(exponent).translate(_SUPERSCRIPT)}"


_SINGULAR_VERB = {"have": "has", "are": "is", "were": "was", "reach": "reaches"}


def counted(n: int, noun: str, verb: str = "") -> str:
    """``n`` with its noun (and verb) in agreement: ``counted(11, "problem")`` → ``11 problems``,
    ``counted(1, "run", "have")`` → ``1 run has`` — never "problem(s)"."""
    if n == 1:
        said = f"1 {noun}"
        if verb:
            said += " " + _SINGULAR_VERB.get(verb, verb + "s")
        return said
    plural = noun + ("es" if noun.endswith(("s", "sh", "ch", "x")) else "s")
    if noun.endswith("sis"):  # analysis → analyses
        plural = noun[:-2] + "es"
    elif noun.endswith("y") and noun[-2:-1] not in "aeiou":
        plural = noun[:-1] + "ies"
    return f"{n} {plural}" + (f" {verb}" if verb else "")


def any_of(n: int, noun: str) -> str:
    """``any of the 24 problems``: what a negative statement ("on none of", "not … on any of")
    covers; ``the one problem`` for one and ``either of the 2 problems`` for two, as "any of
    the 1 problems" is not English."""
    if n == 1:
        return f"the one {noun}"
    return f"{'either' if n == 2 else 'any'} of the {counted(n, noun)}"


def evaluations(value: float) -> str:
    """An evaluation count as printed: ``200000`` → ``2×10⁵``, ``1e6`` → ``10⁶``, ``5000`` →
    ``5000`` (plain below 10⁴, where digits read faster than exponents)."""
    if math.isfinite(value) and abs(value) < 1e4:
        return f"{value:g}"
    return power_of_ten(value)


def number(value: float, digits: int = 3, *, whole: bool = True) -> str:
    """A number with ``digits`` significant digits; ∞ as ``∞``; integers without decimals.

    ``whole=False`` rounds integers like any other value: for a column of measured values
    (ERT) that are integers only by chance, where "11742" beside "1.2×10⁴" mixed two formats.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if whole and float(value).is_integer() and abs(value) < 10 ** (digits + 3):
        text = f"{int(value)}"
    else:
        text = f"{value:.{digits}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    # A minus sign, not a hyphen, in every form: "−246" (an integer: award points), "−0.5" and
    # "−2.13×10⁻¹⁴" side by side in a column (the exponent is superscripted already).
    return text.replace("-", "−")


def fixed(value: float, places: int = 2) -> str:
    """A number in [0, 1] (A12, a normalised area) with ``places`` decimals (``0.10``, ``0.53``):
    a column of them must not mix ``0.1`` with ``0.53``, nor ``0.14`` with ``0.149``, and the
    sentences and figure titles that quote one print the same digits; NaN as ``–``. A
    negative value (Kendall's τ in [−1, 1]) with a minus sign, as :func:`number` prints it."""
    if math.isnan(value):
        return "–"
    return f"{value:.{places}f}".replace("-", "−")


def format_p(p: float | None) -> str:
    """A p-value with three significant digits in the report's notation (1.2×10⁻¹⁴, 0.0434,
    0.00153) — never "0.00", which a reader takes for a p-value of zero."""
    if p is None:
        return "undefined"
    return number(p, 3)


def points_text(value: float) -> str:
    """Award points or a significance level as printed: ``60``, ``2.5``, ``−246``, ``∞``."""
    return number(value, digits=7)


def share(value: float | None) -> str:
    """A fraction in [0, 1] as a percentage with no meaningless digits: ``0.8333`` → ``83 %``.

    Missing values (None, NaN) print as ``–``. House style (README, docs): a space between
    the number and the per cent sign, as ISO 80000 writes it; the HTML joins them with a
    no-break space. Every percentage of the report is written by this function (or
    :func:`ecdf_share`), so the report cannot mix "92 %" and "100%".
    """
    if value is None or math.isnan(value):
        return "–"
    return f"{100 * value:.0f} %"


def u_text(value: float) -> str:
    """A U-score as printed in the paper: whole numbers plain, halves with one decimal."""
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def ecdf_share(value: float) -> str:
    """A share of (function, target) pairs, with one decimal: shares of ~10³ (function, target,
    run) triples differ below 1 %, so two algorithms must not print alike (17.0 % against
    16.8 %, where :func:`share` gives 17 % for both)."""
    return f"{100 * value:.1f} %"


def file_token(value: float) -> str:
    """A value as a file-name token: ``1e-05`` → ``1e-05``, ``2.0`` → ``2``."""
    return f"{value:g}"
