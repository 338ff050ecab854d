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


def number(value: float, digits: int = 3) -> str:
    """A number with ``digits`` significant digits; ∞ as ``∞``; integers without decimals."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if float(value).is_integer() and abs(value) < 10 ** (digits + 3):
        return f"{int(value)}"
    text = f"{value:.{digits}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    return text.replace("-", "−")


def points_text(value: float) -> str:
    """Award points or a significance level as printed: ``60``, ``2.5``, ``-246``, ``∞``."""
    return number(value, digits=7)


def share(value: float | None) -> str:
    """A fraction in [0, 1] as a percentage with no meaningless digits: ``0.8333`` → ``83%``.

    Missing values (None, NaN) print as ``–``.
    """
    if value is None or math.isnan(value):
        return "–"
    return f"{100 * value:.0f}%"


def file_token(value: float) -> str:
    """A value as a file-name token: ``1e-05`` → ``1e-05``, ``2.0`` → ``2``."""
    return f"{value:g}"
