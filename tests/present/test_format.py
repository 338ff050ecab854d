"""Number formats shared by tables, captions and sentences."""

from __future__ import annotations

from reportgen.present.format import any_of, fixed, number


def test_negative_numbers_carry_a_minus_sign_in_both_notations() -> None:
    # Quickstart's problem table printed "-2.13×10⁻¹⁴" (hyphen) beside "−0.5" style cells.
    assert number(-2.13e-14) == "−2.13×10⁻¹⁴"
    assert number(-0.5) == "−0.5"
    assert number(2.13e-14) == "2.13×10⁻¹⁴"


def test_probabilities_print_two_decimals() -> None:
    assert [fixed(v) for v in (0.1, 0.53, 1.0, 0.0)] == ["0.10", "0.53", "1.00", "0.00"]
    assert fixed(float("nan")) == "–"


def test_any_of_reads_for_one_two_and_more() -> None:
    # "differ significantly on none of the 1 problems" came from a one-problem study.
    assert any_of(1, "problem") == "the one problem"
    assert any_of(2, "problem") == "either of the 2 problems"
    assert any_of(24, "problem") == "any of the 24 problems"
