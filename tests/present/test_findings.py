"""Sentences naming who does something most often: ties are named as ties."""

from __future__ import annotations

from reportgen.present.findings import count_groups, most_often, shared_places


def test_count_groups_keep_equal_counts_together() -> None:
    assert count_groups({"A": 8, "B": 8, "C": 5, "D": 0}) == [
        (["A", "B"], 8),
        (["C"], 5),
        (["D"], 0),
    ]


def test_most_often_names_a_shared_first_and_second_place() -> None:
    what = "the smallest median value"
    assert most_often({"A": 4, "B": 3, "C": 1}, str, what, 12) == (
        "A has the smallest median value on 4 of 12 problems (next: B, 3)"
    )
    # cec2022, 2×10⁵ evaluations in 10-D: "(next: MTT, 4)" where another algorithm had 4 too.
    assert most_often({"A": 6, "B": 4, "C": 4}, str, what, 12) == (
        "A has the smallest median value on 6 of 12 problems (next: B and C, 4 each)"
    )
    assert most_often({"A": 5, "B": 5, "C": 0}, str, what, 12) == (
        "A and B have the smallest median value on 5 of 12 problems each"
    )
    assert most_often({"A": 0, "B": 0}, str, what, 1) == (
        "no algorithm has the smallest median value on the one problem"
    )


def test_shared_places_only_when_one_leader_counts_shared_problems() -> None:
    assert shared_places({"A": 20, "B": 11}, 7, "the best mean") == (
        " On 7 problems several algorithms share the best mean; each of them counts it."
    )
    assert shared_places({"A": 2, "B": 2}, 2, "the best mean") == ""  # "each" says it
    assert shared_places({"A": 3, "B": 1}, 0, "the best mean") == ""
