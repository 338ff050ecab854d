"""Sample standard deviations (``ddof = 1``) that neither overflow nor underflow.

The square of a value beyond about 10¹⁵⁴ overflows to ∞ and the square of one below about
10⁻¹⁶² underflows to 0, so the textbook formula gives an infinite (or zero) standard deviation
for such values; CEC 2017 f2's errors reach 10¹⁷⁵, and a run that stores 10³⁰⁰ as its
failure value is not rare. Values are *extreme* when some magnitude exceeds
:data:`EXTREME_ABOVE` or some non-zero magnitude is below :data:`EXTREME_BELOW`; extreme
samples are divided by their largest magnitude before the squares are formed (and the result
multiplied back). Other samples are computed exactly as before, bit for bit.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

EXTREME_ABOVE = 1e150
"""Magnitudes above this are extreme (their squares come within 10⁸ of overflowing)."""

EXTREME_BELOW = 1e-130
"""Non-zero magnitudes below this are extreme (their squares underflow towards 0)."""


def is_extreme(values: ArrayLike) -> bool:
    """Whether squaring ``values`` (finite or not) could overflow or underflow.

    >>> is_extreme([1.0, 1e200]), is_extreme([0.0, 1e-140]), is_extreme([0.0, 3.0])
    (True, True, False)
    """
    magnitude = np.abs(np.asarray(values, dtype=float))
    magnitude = magnitude[np.isfinite(magnitude)]
    if not magnitude.size:
        return False
    return bool(
        magnitude.max() > EXTREME_ABOVE
        or magnitude.min(where=magnitude > 0, initial=1.0) < EXTREME_BELOW
    )


def extreme_scale(values: ArrayLike) -> float:
    """The divisor that brings extreme finite ``values`` to magnitudes ≤ 1; 1 for the others
    (dividing by 1 changes no bit), and for samples holding ±∞ or NaN (whose standard
    deviation stays what it was: NaN)."""
    v = np.asarray(values, dtype=float)
    if not is_extreme(v) or not np.isfinite(v).all():
        return 1.0
    return float(np.abs(v).max())


def sample_std(values: ArrayLike) -> float:
    """``numpy.std(values, ddof=1)``, scaled where the values are extreme; NaN for fewer than
    two values.

    >>> sample_std([1e200, 3e200]) == math.sqrt(2) * 1e200  # numpy.std: ∞
    True
    """
    v = np.asarray(values, dtype=float)
    if v.size < 2:
        return math.nan
    scale = extreme_scale(v)
    if scale == 1.0:
        return float(np.std(v, ddof=1))
    return float(scale * np.std(v / scale, ddof=1))
