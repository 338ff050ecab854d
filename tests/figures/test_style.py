"""One look per algorithm across the whole report (issue 8: colour-blind safe, markers > 8)."""

from __future__ import annotations

from reportgen.figures.style import OKABE_ITO, make_style


def test_every_algorithm_looks_different_up_to_thirty():
    names = [f"alg{i}" for i in range(30)]
    style = make_style(names)
    looks = {(s.color, s.marker, s.linestyle) for s in style.algorithms.values()}
    assert len(looks) == 30
    assert {s.color for s in style.algorithms.values()} <= set(OKABE_ITO)


def test_a_few_algorithms_differ_by_colour_alone_and_keep_their_colour():
    style = make_style(["A", "B", "C"], labels={"B": "Bee"})
    assert len({s.color for s in style.algorithms.values()}) == 3
    assert style.label("B") == "Bee" and style.label("A") == "A"
    # The same study order gives the same colours, figure after figure.
    assert make_style(["A", "B", "C"]).of("C") == style.of("C")
