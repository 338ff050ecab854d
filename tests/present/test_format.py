"""Number formats shared by tables, captions and sentences."""

from __future__ import annotations

from reportgen.present.format import fixed, number


def test_negative_numbers_carry_a_minus_sign_in_both_notations() -> None:
    # Quickstart's problem table printed "-2.13×10⁻¹⁴" (hyphen) beside "−0.5" style cells.
    assert number(-2.13e-14) == "−2.13×10⁻¹⁴"
    assert number(-0.5) == "−0.5"
    assert number(2.13e-14) == "2.13×10⁻¹⁴"


def test_probabilities_print_two_decimals() -> None:
    assert [fixed(v) for v in (0.1, 0.53, 1.0, 0.0)] == ["0.10", "0.53", "1.00", "0.00"]
    assert fixed(float("nan")) == "–"
