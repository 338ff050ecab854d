"""The mean-ranking table of the performance profiles says what orders its places."""

from __future__ import annotations

from reportgen.analyses.performance_profiles import compute
from reportgen.figures.style import make_style
from reportgen.render.blocks import TableBlock
from reportgen.render.sections.performance_profiles import build_section
from tests.analyses.test_performance_profiles import histories, options


def test_the_share_fastest_does_not_order_the_places() -> None:
    # Three problems, one run each, the value drops from 100 to 0 at t: with τ = 0.1 a problem
    # is solved at t. A: t = 10, 10, 1000; B: t = 11, 11, 10. Both solve 3/3. A is fastest on
    # p1 and p2 (67 %), B on p3 (33 %); the mean inverse ratio is (1 + 1 + 0.01)/3 = 0.67 for
    # A and (1/1.1 + 1/1.1 + 1)/3 = 0.94 for B, so B is placed first. The caption said "ties
    # in both shares are broken by the mean inverse ratio", which this order contradicts.
    t = {"A": (10, 10, 1000), "B": (11, 11, 10)}
    records = {
        (a, f"p{k}", 2): [[(1, 100.0), (at, 0.0), (1000, 0.0)]]
        for a, times in t.items()
        for k, at in enumerate(times, start=1)
    }
    opts = options(tolerances=[0.1], profiles=["performance"])
    result = compute(histories(records), opts)
    section = build_section(result, opts, make_style(["A", "B"]))
    table = next(
        b for b in section.blocks if isinstance(b, TableBlock) and b.name == "mean_ranking"
    )
    assert table.frame.to_dict("list") == {
        "algorithm": ["B", "A"],
        "τ = 0.1": ["1 (100 %, 33 %)", "2 (100 %, 67 %)"],
    }
    assert "Ties in both shares" not in table.caption
    assert "Places follow the share solved, then the mean inverse performance ratio" in (
        table.caption
    )
    assert "not the share fastest" in table.caption
