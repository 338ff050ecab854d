"""One look per algorithm across the whole report (issue 8: colour-blind safe, markers > 8)."""

from __future__ import annotations

from reportgen.figures.style import PALETTE, make_style


def test_every_algorithm_looks_different_up_to_thirty():
    names = [f"alg{i}" for i in range(30)]
    style = make_style(names)
    looks = {(s.color, s.marker, s.linestyle) for s in style.algorithms.values()}
    assert len(looks) == 30
    assert {s.color for s in style.algorithms.values()} <= set(PALETTE)


def test_thirteen_entrants_need_no_colour_twice_but_one():
    """CEC 2022 has 13 entrants: 12 colours, and the one that repeats a colour differs in dash
    (issue 18: 13 curves in 8 hues were indistinguishable)."""
    style = make_style([f"alg{i}" for i in range(13)])
    looks = list(style.algorithms.values())
    assert len({s.color for s in looks}) == 12
    assert looks[12].color == looks[0].color and looks[12].linestyle != looks[0].linestyle
    assert len({s.marker for s in looks}) == 12  # 12 markers: the 13th repeats one ...
    # ... of another colour: colour and marker alone tell every algorithm apart, for figures
    # whose line style encodes something else (the probabilistic-profile overlay).
    assert looks[12].marker != looks[0].marker
    assert (
        len(
            {
                (s.color, s.marker)
                for s in make_style([f"a{i}" for i in range(48)]).algorithms.values()
            }
        )
        == 48
    )
    assert len({(s.color, s.marker, s.linestyle) for s in looks}) == 13
    assert "#F0E442" not in {s.color for s in looks}  # yellow: too weak for thin lines


def test_a_few_algorithms_differ_by_colour_alone_and_keep_their_colour():
    style = make_style(["A", "B", "C"], labels={"B": "Bee"})
    assert len({s.color for s in style.algorithms.values()}) == 3
    assert style.label("B") == "Bee" and style.label("A") == "A"
    # The same study order gives the same colours, figure after figure.
    assert make_style(["A", "B", "C"]).of("C") == style.of("C")
