"""The summary's list of caveats says a caveat's explanation once."""

from __future__ import annotations

import re

from reportgen.present.caveats import Caveat
from reportgen.render.document import Document, RenderedSection
from reportgen.render.html import caveat_lines, render_html

ADVICE = "U-scores at earlier cut-points can separate them (Price et al. §5.3)."


def _ties(problems: int) -> Caveat:
    return Caveat(
        "tied_trials",
        f"Trials of different algorithms tie (equal outcome) on {problems} problems; each tie "
        f"scores half a point. {ADVICE}",
        "F2 (D=10)",
    )


def _floored(values: int) -> Caveat:
    return Caveat(
        "values_floored",
        f"{values} values below 10⁻⁸ were raised to it (spec value_floor); they count as equal "
        "to each other.",
    )


# As the CEC 2022 example raises them (pipeline order: each analysis's caveats in turn).
CEC2022 = (
    ("u_scores", _ties(11)),
    ("u_scores_cutpoints", _ties(15)),
    ("significance_relation", _floored(71)),
    ("problem_table", _floored(2887)),
)


def test_a_repeated_explanation_is_named_not_repeated() -> None:
    lines = caveat_lines(CEC2022)
    (_, _, lead, rest, earlier), (_, _, lead2, rest2, earlier2) = lines[:2]
    assert "on 11 problems" in lead and rest == ADVICE and earlier == ""
    assert "on 15 problems" in lead2 and rest2 == "" and earlier2 == "u_scores"
    # One-sentence caveats keep their numbers, whatever their code.
    assert [(line[2], line[3], line[4]) for line in lines[2:]] == [
        (_floored(71).message, "", ""),
        (_floored(2887).message, "", ""),
    ]
    # Another code, or another explanation, is said again.
    other = Caveat("tied_trials", "Trials tie on 2 problems. They share the points.")
    assert caveat_lines([*CEC2022, ("x", other)])[-1][3] == "They share the points."


def test_the_summary_shows_the_explanation_once_and_every_caveat() -> None:
    empty = RenderedSection("1", "sec-summary", "Executive summary", (), ())
    document = Document("t", (), "", "", "", (), empty, (), CEC2022, (), (), "spec")
    html = render_html(document)
    aside = html[html.index('id="caveats"') : html.index("</aside>")]
    assert aside.count("earlier cut-points can separate them") == 1
    items = re.findall(r"<li data-caveat=.*?</li>", aside, re.S)
    assert len(items) == 4
    assert 'See <span class="origin">[u_scores]</span> above.' in items[1]
    assert all(f"[{origin}]" in item for (origin, _), item in zip(CEC2022, items, strict=True))
