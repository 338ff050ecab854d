"""One look per algorithm across the whole report (issue 8: colour-blind safe, markers > 8)."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib import colormaps

from reportgen.figures.style import PALETTE, contrast_ratio, make_style, text_colour_on


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


def _linear(colour: str) -> np.ndarray:
    """A #rrggbb colour in linear RGB (the sRGB transfer function undone)."""
    c = np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def test_contrast_ratio_is_wcags():
    assert contrast_ratio("black", "white") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.005)  # WebAIM
    assert contrast_ratio("#0072B2", "white") == contrast_ratio("white", "#0072B2")


def test_every_colour_has_3_to_1_contrast_on_white():
    """WCAG 2 (1.4.11, AA): lines and marks a figure needs have 3:1 against their background.
    Okabe–Ito's orange (2.2:1), sky blue (2.3:1) and yellow (1.3:1) did not."""
    for colour in PALETTE:
        assert contrast_ratio(colour, "white") >= 3.0, colour


# Machado, Oliveira & Fernandes (2009), severity 1.0: deuteranopia, protanopia, tritanopia.
_DICHROMACIES = [
    np.eye(3),
    np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
]


def _lab(linear: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of a linear RGB colour."""
    xyz = np.array(
        [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
    ) @ np.clip(linear, 0, 1)
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _closest_pair(colours: tuple[str, ...]) -> float:
    """The smallest CIELAB ΔE between two of ``colours``, seen with normal vision or any
    simulated dichromacy."""
    return min(
        float(np.linalg.norm(_lab(m @ _linear(a)) - _lab(m @ _linear(b))))
        for m in _DICHROMACIES
        for i, a in enumerate(colours)
        for b in colours[i + 1 :]
    )


def test_colour_blind_readers_tell_the_colours_apart_as_well_as_okabe_ito_allowed():
    """Contrast was not bought with likeness: darkening Okabe–Ito's orange to 3:1 made it a
    deuteranope's vermillion (ΔE 5). The first eight (the colours of a study of up to eight
    algorithms) stay as far apart as Okabe–Ito's eight, all twelve as the twelve before."""
    okabe_ito = (
        "#0072B2",
        "#D55E00",
        "#009E73",
        "#CC79A7",
        "#E69F00",
        "#56B4E9",
        "#000000",
        "#F0E442",
    )
    before = (*okabe_ito[:7], "#882255", "#999933", "#332288", "#8C510A", "#117733")
    assert _closest_pair(PALETTE[:8]) >= _closest_pair(okabe_ito) - 0.05
    assert _closest_pair(PALETTE) >= _closest_pair(before) - 0.05
    darkened_orange = "#C38700"  # Okabe–Ito's orange at 3:1, its hue kept
    assert _closest_pair(("#D55E00", darkened_orange)) < 6


def test_a_cells_text_is_black_or_white_whichever_reads_better():
    assert text_colour_on("white") == "black" and text_colour_on("#08306b") == "white"
    assert text_colour_on((0.0, 0.0, 0.0, 0.0)) == "black"  # transparent: the white page
    # RdBu at 0.8 (a value at 0.6 of its range, where white was drawn): black reads better.
    assert text_colour_on(colormaps["RdBu"](0.8)) == "black"
    assert text_colour_on(np.array(colormaps["Blues"](0.95))) == "white"
