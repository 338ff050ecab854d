"""Golden tests of the significance-relation analysis (Köppen & Ohnishi, papers/004).

Sources of the expected numbers:
- the paper's worked example (§III: x = (2, 8, 6), y = (4, 2, 3), D = 3);
- the paper's CEC'05 Table I (typed in: example_studies/cec2005/data/table1.csv) and its
  statements about Figures 1–2 and σ = 60 / σ = 100 (§III);
- METHODS.md ("Köppen & Ohnishi"): the statements of the paper the recipe does not reproduce
  (D(4, 1) = 2; cycle-free just above σ = 2);
- hand calculations written out below (a three-algorithm cycle, the input statistics);
- an independent exact reference of D in rational arithmetic (fractions.Fraction), and
  networkx for transitive reductions;
- properties (hypothesis): antisymmetry, invariance under scaling a problem, exactness of the
  σ sweep.

Orientation: reportgen reads smaller values as better (minimisation). The paper's sentence "s_i
is +1 if x_i > y_i" is the maximisation reading; under it the worked example gives D(x, y) = 3.
In the minimisation reading the same vectors give D(x, y) = −3, i.e. D(y, x) = 3.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from itertools import permutations
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import pandas as pd
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from reportgen.analyses.significance_relation import (
    _auto_layers_of,
    _generations,
    auto_layers,
    award_point_matrix,
    award_points,
    bootstrap_layers,
    compute,
    relation_graph,
    sweep,
)
from reportgen.data.frames import AnalysisData, sorted_problems
from reportgen.errors import InputError
from reportgen.present.format import points_text
from reportgen.spec.analyses.significance_relation import SignificanceRelationOptions

TABLE1 = Path(__file__).resolve().parents[2] / "example_studies" / "cec2005" / "data" / "table1.csv"

CEC05 = (
    "BLX-GL50",  # 1
    "BLX-MA",  # 2
    "CoEVO",  # 3
    "DE",  # 4
    "DMS-L-PSO",  # 5
    "EDA",  # 6
    "G-CMA-ES",  # 7
    "K-PCX",  # 8
    "L-CMA-ES",  # 9
    "L-SaDE",  # 10
    "SPC-PNX",  # 11
)
"""Table I's header order; the paper numbers the algorithms 1–11 in this order (§III)."""


def alg(number: int) -> str:
    """The paper's algorithm number (1-based, Table I header order) → name."""
    return CEC05[number - 1]


def options(**kwargs: Any) -> SignificanceRelationOptions:
    return SignificanceRelationOptions(kind="significance_relation", data="results", **kwargs)


def summary_data(values: dict[str, list[float]], column: str = "mean") -> AnalysisData:
    """A summary table: algorithm → one value per problem f1, f2, …"""
    rows = [
        {"algorithm": a, "problem": f"f{p + 1}", "dimension": 0, column: v}
        for a, vs in values.items()
        for p, v in enumerate(vs)
    ]
    frame = pd.DataFrame(rows)
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    return AnalysisData("summary", frame, tuple(values), problems)


@pytest.fixture(scope="module")
def table1() -> pd.DataFrame:
    frame = pd.read_csv(TABLE1, dtype={"value": str})
    assert frame.shape == (11 * 25, 3)
    assert tuple(dict.fromkeys(frame["algorithm"])) == CEC05
    return frame


@pytest.fixture(scope="module")
def cec(table1: pd.DataFrame):
    frame = table1.assign(dimension=0, mean=table1["value"].astype(float)).drop(columns="value")
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    data = AnalysisData("summary", frame, CEC05, problems)
    return compute(data, options(sigmas=["auto", 10, 60, 100]))


# --------------------------------------------------------------------------------------------
# The paper's worked example (§III)
# --------------------------------------------------------------------------------------------


def test_worked_example_paper_sign_and_minimisation_sign() -> None:
    # r = (4/2, 8/2, 6/3) = (2, 4, 2); tied ratios share ranks 1 and 2 → 1.5 each; 4 → 3.
    # Paper's literal sign (+1 where x_i > y_i): s = (−1, +1, +1), D = −1.5 + 3 + 1.5 = 3.
    # Minimisation (+1 where x_i < y_i, x better): s = (+1, −1, −1), D(x, y) = −3.
    x, y = [2, 8, 6], [4, 2, 3]
    assert award_points(x, y) == -3.0
    # the paper's literal D(x, y) is our D(y, x): "x is better" there means "x is larger"
    assert award_points(y, x) == 3.0
    # "Since 3 is larger than the confidence [σ = 2], x is in relation to y": in minimisation
    # it is y that is related to x at σ = 2
    graph = relation_graph(("x", "y"), award_point_matrix(np.array([x, y], dtype=float)), 2)
    assert list(graph.edges) == [("y", "x")]


def test_equal_components_keep_the_lowest_points_and_add_nothing() -> None:
    # x = (1, 5, 2), y = (1, 10, 1): r = (1, 2, 2), ranks (1, 2.5, 2.5),
    # s = (0, +1, −1) → D = 0 + 2.5 − 2.5 = 0; with the equal pair dropped the ranks would be
    # (1.5, 1.5) and D would still be 0, so also check an unbalanced case:
    # x = (1, 5, 1), y = (1, 10, 3): r = (1, 2, 3), ranks (1, 2, 3), s = (0, +1, +1) → D = 5
    # (dropping the equal pair would give 1 + 2 = 3).
    assert award_points([1, 5, 2], [1, 10, 1]) == 0.0
    assert award_points([1, 5, 1], [1, 10, 3]) == 5.0


def test_tolerance_makes_rounded_equal_ratios_tie() -> None:
    # 0.3/0.1 and 3/1 are both 3, but 0.3/0.1 = 2.9999999999999996 in floating point
    assert 0.3 / 0.1 != 3.0
    # x better on both problems by a ratio of 3: ranks 1.5 + 1.5 = 3 (not 1 + 2 either way)
    assert award_points([0.1, 1.0], [0.3, 3.0]) == 3.0
    x, y = [0.1, 3.0], [0.3, 1.0]  # one win, one loss by the same ratio: D = 1.5 − 1.5 = 0
    assert award_points(x, y) == 0.0
    assert award_points(x, y, rtol=0.0) != 0.0  # without the tolerance the tie breaks


def test_infinite_values_lose_with_the_largest_ratio() -> None:
    # x = (1, ∞), y = (2, 3): r = (2, ∞), ranks (1, 2), s = (+1, −1) → D = −1
    assert award_points([1.0, math.inf], [2.0, 3.0]) == -1.0
    assert award_points([math.inf, 1.0], [math.inf, 2.0]) == 2.0  # ∞ = ∞: sign 0, rank 1


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------

positive = st.floats(min_value=1e-6, max_value=1e6, allow_nan=False, allow_infinity=False)


@st.composite
def value_pairs(draw: st.DrawFn) -> tuple[list[float], list[float]]:
    n = draw(st.integers(1, 12))
    x = draw(st.lists(positive, min_size=n, max_size=n))
    # reuse some of x's values so that equal components and tied ratios occur
    y = [
        draw(st.sampled_from([v, 2 * v, v / 2])) if draw(st.booleans()) else draw(positive)
        for v in x
    ]
    return x, y


@given(value_pairs())
@settings(max_examples=100, deadline=None)
def test_antisymmetry(pair: tuple[list[float], list[float]]) -> None:
    x, y = pair
    n = len(x)
    d = award_points(x, y)
    assert d == -award_points(y, x)
    assert 2 * d == int(2 * d)  # a multiple of ½
    assert abs(d) <= n * (n + 1) / 2


integer_matrices = st.integers(2, 5).flatmap(
    lambda n_s: st.integers(1, 8).flatmap(
        lambda n_p: st.lists(
            st.lists(st.integers(1, 1000), min_size=n_p, max_size=n_p),
            min_size=n_s,
            max_size=n_s,
        )
    )
)


@given(
    integer_matrices,
    st.floats(min_value=1e-6, max_value=1e6, allow_nan=False),
    st.integers(0, 7),
)
@settings(max_examples=100, deadline=None)
def test_invariant_under_scaling_a_problem(rows: list[list[int]], scale: float, which: int) -> None:
    # horizontal scale-freeness (§III): only ratios within a problem count. Integer values up to
    # 1000 keep distinct ratios at least ~1e-6 apart relatively, far above the tolerance.
    values = np.array(rows, dtype=float)
    scaled = values.copy()
    scaled[:, which % values.shape[1]] *= scale
    assert np.array_equal(award_point_matrix(values), award_point_matrix(scaled))


@given(integer_matrices)
@settings(max_examples=60, deadline=None)
def test_sigma_sweep_is_exact(rows: list[list[int]]) -> None:
    values = np.array(rows, dtype=float)
    names = tuple(f"a{i}" for i in range(len(rows)))
    points = award_point_matrix(values)
    intervals = sweep(names, points)
    distinct = sorted({float(v) for v in points.flat if v > 0})
    # the boundaries are exactly 0, the distinct positive values of D, and ∞
    assert [iv.sigma_from for iv in intervals] == [0.0, *distinct]
    assert [iv.sigma_to for iv in intervals] == [*distinct, math.inf]
    previous_edges = None
    previous_maximum: set[str] = set()
    for iv in intervals:
        low = np.nextafter(iv.sigma_from, math.inf)
        inside = [low, iv.sigma_from + 0.5, iv.sigma_to] if math.isfinite(iv.sigma_to) else [low]
        edge_sets = {frozenset(relation_graph(names, points, s).edges) for s in inside}
        assert len(edge_sets) == 1  # constant on the interval …
        (edges,) = edge_sets
        assert len(edges) == iv.n_edges
        assert edges != previous_edges  # … and different from the interval before
        previous_edges = edges
        graph = relation_graph(names, points, low)
        assert iv.cycle_free == nx.is_directed_acyclic_graph(graph)
        assert set(iv.maximum_set) == {a for a in names if graph.in_degree(a) == 0}
        assert previous_maximum <= set(iv.maximum_set)  # maximum sets only grow with σ
        previous_maximum = set(iv.maximum_set)
        assert sorted(a for layer in iv.layers for a in layer) == sorted(names)
        if iv.cycle_free:  # each layer = the maximum set of what the layers above leave
            left = set(names)
            for layer in iv.layers:
                sub = graph.subgraph(left)
                assert set(layer) == {a for a in left if sub.in_degree(a) == 0}
                left -= set(layer)


@given(integer_matrices)
@settings(max_examples=60, deadline=None)
def test_auto_layers_are_the_sweeps(rows: list[list[int]]) -> None:
    # The bootstrap's shortcut to the layers at auto agrees with the full sweep (networkx).
    values = np.array(rows, dtype=float)
    names = tuple(f"a{i}" for i in range(len(rows)))
    points = award_point_matrix(values)
    intervals = sweep(names, points)
    auto = next(iv for iv in intervals if iv.cycle_free)
    assert auto_layers(points).tolist() == [auto.layer_of(a) for a in names]


@given(st.integers(2, 40), st.floats(0.0, 1.0), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_generations_are_networkx_s(n: int, density: float, seed: int) -> None:
    # The bootstrap's layers of a stack of cycle-free relations (edges from earlier to later
    # in a random order) are networkx's topological generations of each.
    rng = np.random.default_rng(seed)
    stack = np.zeros((3, n, n), dtype=bool)
    for relation in stack:
        order = rng.permutation(n)
        upper = np.triu(rng.random((n, n)) < density, 1)
        relation[np.ix_(order, order)] = upper
    expected = []
    for relation in stack:
        graph = nx.DiGraph()
        graph.add_nodes_from(range(n))
        graph.add_edges_from(zip(*np.nonzero(relation), strict=True))
        layer = [0] * n
        for k, generation in enumerate(nx.topological_generations(graph), 1):
            for node in generation:
                layer[node] = k
        expected.append(layer)
    assert _generations(stack).tolist() == expected


@given(st.lists(integer_matrices, min_size=2, max_size=4))
@settings(max_examples=40, deadline=None)
def test_stacked_auto_layers_are_each_matrix_s(matrices: list[list[list[int]]]) -> None:
    # The bootstrap finds auto for a stack of matrices at once, each with its own thresholds:
    # the same layers as one matrix at a time (which test_auto_layers_are_the_sweeps checks
    # against the sweep).
    n = min(len(rows) for rows in matrices)
    points = np.stack([award_point_matrix(np.array(rows[:n], dtype=float)) for rows in matrices])
    single = [auto_layers(p).tolist() for p in points]
    assert _auto_layers_of(points).tolist() == single


def test_layer_bootstrap_by_hand() -> None:
    # A is best on every problem: in every resample A dominates B and C, so A alone is the
    # maximum set: p_first(A) = 1.
    data = summary_data({"A": [1, 1, 1, 1], "B": [2, 3, 2, 5], "C": [3, 2, 4, 4]})
    result = compute(data, options())
    ranks = bootstrap_layers(result, np.random.default_rng(0), 300)
    assert (ranks[:, 0] == 1).all() and (ranks[:, 1:] > 1).all()
    # The three-cycle of test_cycle_by_hand: C → A → B at auto on the full sample. Resampled,
    # the order changes, but always into layers (a rank per algorithm) and deterministically.
    cycle = compute(
        summary_data({"A": [4, 4, 1, 3], "B": [2, 4, 2, 4], "C": [3, 3, 4, 2]}), options()
    )
    first = bootstrap_layers(cycle, np.random.default_rng(5), 400)
    assert np.array_equal(first, bootstrap_layers(cycle, np.random.default_rng(5), 400))
    assert set(np.unique(first)) <= {1.0, 2.0, 3.0}
    # The resample that draws the four problems once each is the full sample: C, A, B.
    assert auto_layers(cycle.award_points).tolist() == [2, 3, 1]
    assert len({tuple(r) for r in first.tolist()}) > 1


# --------------------------------------------------------------------------------------------
# A three-algorithm cycle, by hand
# --------------------------------------------------------------------------------------------


def test_cycle_by_hand() -> None:
    # A = (4, 4, 1, 3), B = (2, 4, 2, 4), C = (3, 3, 4, 2)
    # A vs B: r = (2, 1, 2, 4/3), ranks (3.5, 1, 3.5, 2), s = (−1, 0, +1, +1) → D(A, B) = 2
    # B vs C: r = (3/2, 4/3, 2, 2), ranks (2, 1, 3.5, 3.5), s = (+1, −1, +1, −1) → D(B, C) = 1
    # C vs A: r = (4/3, 4/3, 4, 3/2), ranks (1.5, 1.5, 4, 3), s = (+1, +1, −1, +1) → D(C, A) = 2
    data = summary_data({"A": [4, 4, 1, 3], "B": [2, 4, 2, 4], "C": [3, 3, 4, 2]})
    result = compute(data, options(sigmas=[1, "auto"]))
    assert (result.points("A", "B"), result.points("B", "C"), result.points("C", "A")) == (2, 1, 2)
    # σ ≤ 1: the cycle A → B → C → A; no maximum element; one shared layer
    at_1 = result.relations[0]
    assert not at_1.cycle_free
    assert at_1.cycles == (("A", "B", "C"),)
    assert at_1.maximum_set == ()
    assert at_1.layers == (("A", "B", "C"),)
    assert all(e.on_cycle for e in at_1.edges)
    # 1 < σ ≤ 2: C → A → B, cycle-free; auto = 1.5 (D is a multiple of ½)
    assert result.sigma_auto == 1.5
    assert result.relations[1].requested == ("auto",)
    assert result.relations[1].layers == (("C",), ("A",), ("B",))
    assert result.smallest_maximum_set == ("C",)
    assert result.smallest_maximum_set_sigmas == (1.0, 2.0)
    assert [(iv.sigma_from, iv.sigma_to) for iv in result.sweep] == [
        (0, 1),
        (1, 2),
        (2, math.inf),
    ]
    assert any(c.code == "relation_has_cycles" for c in result.caveats)


# --------------------------------------------------------------------------------------------
# CEC'05, Table I (§III)
# --------------------------------------------------------------------------------------------


def exact_award_points(x: list[Fraction], y: list[Fraction]) -> Fraction:
    """Independent reference: exact rational ratios, average ranks of equal ratios."""
    ratios = [max(a / b, b / a) for a, b in zip(x, y, strict=True)]
    ordered = sorted(ratios)
    rank = {
        r: Fraction(sum(i + 1 for i, o in enumerate(ordered) if o == r), ordered.count(r))
        for r in set(ratios)
    }
    return sum(
        (rank[r] * ((a < b) - (a > b)) for r, a, b in zip(ratios, x, y, strict=True)),
        Fraction(0),
    )


def test_cec05_award_points_match_exact_rational_reference(table1: pd.DataFrame, cec) -> None:
    exact = {
        a: [
            Fraction(v)
            for v in group.sort_values("problem", key=lambda s: s.str[1:].astype(int))["value"]
        ]
        for a, group in table1.groupby("algorithm", observed=True)
    }
    for x, y in permutations(CEC05, 2):
        assert cec.points(x, y) == exact_award_points(exact[x], exact[y]), (x, y)


def test_cec05_sigma_60_layers_as_printed(cec) -> None:
    # §III: "For σ = 60 (Fig. 2) we can distinguish five ranks (7 as top performer as before,
    # next rank 5, 1 and 10, next rank 4, 9, 11, then 2, 6 and 8, and last as well as least 3)"
    at_60 = next(r for r in cec.relations if r.sigma == 60)
    assert at_60.cycle_free
    assert [set(layer) for layer in at_60.layers] == [
        {alg(7)},
        {alg(5), alg(1), alg(10)},
        {alg(4), alg(9), alg(11)},
        {alg(2), alg(6), alg(8)},
        {alg(3)},
    ]


def test_cec05_four_layers_at_sigma_100(cec) -> None:
    # §III: "For σ = 100 it will shrink to 4 ranks"
    at_100 = next(r for r in cec.relations if r.sigma == 100)
    assert len(at_100.layers) == 4


def test_cec05_sigma_10_winner_and_loser(cec) -> None:
    # §III on Fig. 1 (σ = 10): "Algorithm 7 is a clear winner, as it is in significance
    # relation to all other algorithms"; "Algorithm 3 is a clear loser, since it is dominated
    # by all other algorithms"; "Algorithms 2, 6, 8, 9 and 11 appear to be on lower rank than
    # this cycle [1, 10, 5, 4], but of higher rank than algorithm 3".
    at_10 = next(r for r in cec.relations if r.sigma == 10)
    edges = {(e.winner, e.loser) for e in at_10.edges}
    others = [a for a in CEC05 if a != alg(7)]
    assert all((alg(7), a) in edges for a in others)
    assert all((a, alg(3)) in edges for a in CEC05 if a != alg(3))
    for upper in (1, 10, 5, 4):
        for lower in (2, 6, 8, 9, 11):
            assert (alg(upper), alg(lower)) in edges
    assert cec.dominates_all_up_to() == {alg(7): pytest.approx(cec.points(alg(7), alg(5)))}
    assert alg(3) in cec.dominated_by_all_up_to()


def test_cec05_statements_the_recipe_does_not_reproduce(cec) -> None:
    """METHODS.md: trust the recipe; these document where the paper's text disagrees."""
    # 1. §III, Fig. 1: "one cycle in the graph, linking algorithms 1, 10, 5, 4 and back to 1"
    #    at σ = 10. Three of its edges are there, but with the printed table D(4, 1) = 2 < 10
    #    (METHODS.md), so the relation at σ = 10 has no cycle.
    at_10 = next(r for r in cec.relations if r.sigma == 10)
    edges = {(e.winner, e.loser) for e in at_10.edges}
    assert {(alg(1), alg(10)), (alg(10), alg(5)), (alg(5), alg(4))} <= edges
    assert cec.points(alg(4), alg(1)) == 2
    assert (alg(4), alg(1)) not in edges
    assert at_10.cycle_free
    # 2. "If we increase σ at around 15 the relation becomes cycle-free": it already is just
    #    above σ = 2 (METHODS.md). At σ = 2 the cycle 1 → 10 → 5 → 4 → 1 is there (D(4, 1) = 2).
    assert cec.auto.sigma_from == 2
    assert cec.sigma_auto == 2.5
    below = cec.interval_at(2)
    assert not below.cycle_free
    assert set(below.cyclic_components[0]) == {alg(1), alg(10), alg(5), alg(4)}
    # 3. "… and above four ranks consolidate": just above σ = 2 the four cycle members are
    #    totally ordered, and at σ = 15 the layers are not four (the recipe gives a total order
    #    of all eleven algorithms there).
    assert len(cec.interval_at(15).layers) != 4
    # 4. "at some point all but algorithms 7 and 3 will be on the same second rank": no σ gives
    #    the layers {7}, {the other nine}, {3}.
    middle = set(CEC05) - {alg(7), alg(3)}
    assert not any(
        [set(layer) for layer in iv.layers] == [{alg(7)}, middle, {alg(3)}] for iv in cec.sweep
    )


def test_cec05_transitive_reduction_is_networkx(cec) -> None:
    at_60 = next(r for r in cec.relations if r.sigma == 60)
    graph = nx.DiGraph([(e.winner, e.loser) for e in at_60.edges])
    reduced = {(e.winner, e.loser) for e in at_60.edges if e.in_reduction}
    assert reduced == set(nx.transitive_reduction(graph).edges)


def test_cec05_tables_and_json(cec) -> None:
    tables = cec.tables()
    assert list(tables["award_points"].columns) == ["algorithm_x", "algorithm_y", "D"]
    assert len(tables["award_points"]) == 11 * 10
    assert list(tables["sweep"].columns) == [
        "sigma_from",
        "sigma_to",
        "cycle_free",
        "n_layers",
        "maximum_set",
    ]
    assert list(tables["layers"].columns) == ["sigma", "layer", "algorithm"]
    assert list(tables["edges"].columns)[:4] == ["sigma", "winner", "loser", "D"]
    award = tables["award_points"].set_index(["algorithm_x", "algorithm_y"])["D"]
    assert award[(alg(4), alg(1))] == 2
    layers_60 = tables["layers"].query("sigma == 60")
    assert layers_60.groupby("layer", observed=True)["algorithm"].apply(set).to_dict()[1] == {
        alg(7)
    }
    text = json.dumps(cec.to_json(), allow_nan=False)
    assert '"inf"' in text  # the last sweep interval, σ > max D


def test_cec05_section_builds(cec) -> None:
    from reportgen.figures.style import make_style
    from reportgen.render.blocks import FigureBlock, Prose, TableBlock
    from reportgen.render.sections.significance_relation import build_section

    section = build_section(cec, options(sigmas=["auto", 10, 60, 100]), make_style(CEC05))
    names = [b.spec.name for b in section.blocks if isinstance(b, FigureBlock)]
    assert names == [
        "relation_sigma_2.5_10",  # one relation at both levels: drawn once
        "relation_sigma_60",
        "relation_sigma_100",
        "award_points",
        "layers_over_sigma",
    ]
    assert {b.name for b in section.blocks if isinstance(b, TableBlock)} == {
        "layers",
        "sweep",
        "award_points",
    }
    # The relation graphs draw every algorithm in its layer: the layers table is for the HTML.
    in_print = {b.name: b.in_print for b in section.blocks if isinstance(b, TableBlock)}
    assert in_print == {"layers": False, "sweep": True, "award_points": True}
    (prose,) = [b for b in section.blocks if isinstance(b, Prose)]
    by_id = {f.id: f for f in prose.findings}
    assert by_id["cycle_free"].numbers["cycle_free_above"] == 2
    assert by_id["smallest_maximum_set"].numbers["maximum_set"] == [alg(7)]
    assert by_id["dominated_by_all.CoEVO"].numbers["sigma_to"] == cec.points(alg(8), alg(3))
    for block in section.blocks:
        if isinstance(block, FigureBlock):
            block.spec.figure.clear()


def test_levels_giving_the_same_relation_are_drawn_once(cec, table1: pd.DataFrame) -> None:
    from reportgen.figures.significance_relation import relation_figure
    from reportgen.figures.style import make_style

    # No D of Table I lies in 2.5 ≤ D < 10 (cycle-free above 2, the next value is 10 or more):
    # the relations at auto = 2.5 and at 10 have the same pairs; at 60 fewer.
    at = {r.sigma: r for r in cec.relations}
    d = cec.award_points[cec.award_points > 0]
    assert not ((d >= 2.5) & (d < 10)).any()
    assert at[2.5].pairs == at[10].pairs != at[60].pairs
    assert [[r.sigma for r in group] for group in cec.same_relations()] == [[2.5, 10], [60], [100]]
    # grouped by σ whatever order the levels were asked in
    frame = table1.assign(dimension=0, mean=table1["value"].astype(float)).drop(columns="value")
    problems = sorted_problems(zip(frame["problem"], frame["dimension"], strict=True))
    data = AnalysisData("summary", frame, CEC05, problems)
    asked = compute(data, options(sigmas=[10, 60, "auto"]))
    assert [[r.sigma for r in group] for group in asked.same_relations()] == [[2.5, 10], [60]]
    (together,) = [g for g in asked.same_relations() if len(g) == 2]
    spec = relation_figure(asked, together, make_style(CEC05))
    assert spec.name == "relation_sigma_2.5_10"
    assert "at σ = 2.5 (auto: the smallest σ with a cycle-free relation) and σ = 10," in (
        spec.caption
    )
    assert "no D lies in 2.5 ≤ D < 10" in spec.caption
    spec.figure.clear()
    # ... and told once: the bullet for σ = 10 refers to σ = 2.5 instead of listing its layers.
    from reportgen.narrative.significance_relation import findings
    from reportgen.present.labels import Labels

    by_id = {f.id: f for f in findings(cec, Labels({}))}
    again = by_id["layers.sigma=10"]
    assert again.text == (
        "At σ = 10 the relation is the one at σ = 2.5 (no D lies in 2.5 ≤ D < 10), with the "
        f"same {len(at[10].layers)} rank layers."
    )
    assert again.numbers["same_as_sigma"] == 2.5 and again.numbers["layers"] == [
        list(layer) for layer in at[2.5].layers
    ]
    assert by_id["layers.sigma=2.5"].text.startswith("At σ = 2.5 (auto) the relation is")
    assert by_id["layers.sigma=60"].text.startswith("At σ = 60 the relation")


# --------------------------------------------------------------------------------------------
# Inputs: statistics, formats, zeros and negatives
# --------------------------------------------------------------------------------------------


def test_trials_statistics_by_hand() -> None:
    # A's runs on f1: 1, 2, 6 → mean 3, median 2, accuracy (min) 1, robustness (max) 6
    # B's runs on f1: 3, 3, 3; on f2 both algorithms have 1, 1, 1
    rows = [
        {"algorithm": a, "problem": p, "dimension": 0, "run": r, "value": v}
        for a, p, vs in (
            ("A", "f1", [1, 2, 6]),
            ("B", "f1", [3, 3, 3]),
            ("A", "f2", [1, 1, 1]),
            ("B", "f2", [1, 1, 1]),
        )
        for r, v in enumerate(vs)
    ]
    data = AnalysisData("trials", pd.DataFrame(rows), ("A", "B"), (("f1", 0), ("f2", 0)))
    expected = {"mean": 3, "median": 2, "accuracy": 1, "robustness": 6}
    for statistic, value in expected.items():
        result = compute(data, options(statistic=statistic))
        assert result.values[:, 0].tolist() == [value, 3]
        # f2 is equal (rank 1, sign 0); f1 ratio ≠ 1 takes rank 2: D(A, B) = ±2 or 0
        assert result.points("A", "B") == 2 * np.sign(3 - value)


def test_histories_use_each_runs_final_value() -> None:
    # run 0: 10 → 4 → 2 (final 2); run 1: 8 → 6 (final 6): mean 4, accuracy 2, robustness 6
    rows = [
        {"algorithm": "A", "problem": "f1", "dimension": 0, "run": r, "evaluations": e, "value": v}
        for r, records in ((0, [(1, 10), (5, 4), (9, 2)]), (1, [(1, 8), (3, 6)]))
        for e, v in records
    ] + [
        {
            "algorithm": "B",
            "problem": "f1",
            "dimension": 0,
            "run": 0,
            "evaluations": 1,
            "value": 5.0,
        }
    ]
    data = AnalysisData("histories", pd.DataFrame(rows), ("A", "B"), (("f1", 0),))
    for statistic, value in {"mean": 4, "median": 4, "accuracy": 2, "robustness": 6}.items():
        assert compute(data, options(statistic=statistic)).values[0, 0] == value


def test_summary_statistic_names_a_column() -> None:
    data = summary_data({"A": [1, 2], "B": [2, 1]}, column="minimum")
    assert compute(data, options(statistic="accuracy")).values.tolist() == [[1, 2], [2, 1]]
    with pytest.raises(InputError, match=r"'mean'.*'minimum'"):
        compute(data, options(statistic="mean"))
    with pytest.raises(InputError, match="did you mean 'minimum'"):
        compute(data, options(statistic="minmum"))


def test_unknown_statistic_for_runs() -> None:
    rows = [{"algorithm": a, "problem": "f1", "dimension": 0, "run": 0, "value": 1.0} for a in "AB"]
    data = AnalysisData("trials", pd.DataFrame(rows), ("A", "B"), (("f1", 0),))
    with pytest.raises(InputError, match="allowed: 'mean', 'median', 'accuracy', 'robustness'"):
        compute(data, options(statistic="best"))


def test_zero_values_suggest_a_floor() -> None:
    data = summary_data({"A": [0.0, 2.0], "B": [1.0, 0.0]})
    with pytest.raises(InputError) as error:
        compute(data, options())
    message = str(error.value)
    assert "2 values are zero or negative" in message
    assert "A on f1 = 0" in message
    assert "value_floor" in message and "value_shift" in message
    # with the floor, zeros become 1e-9: f1: A = 1e-9 vs B = 1 (A better, ratio 1e9, rank 1);
    # f2: A = 2 vs B = 1e-9 (B better, ratio 2e9, rank 2) → D(A, B) = 1 − 2 = −1
    result = compute(data, options(value_floor=1e-9))
    assert result.values.tolist() == [[1e-9, 2.0], [1.0, 1e-9]]
    assert result.points("A", "B") == -1
    assert any(c.code == "values_floored" for c in result.caveats)


def test_negative_values_suggest_a_shift() -> None:
    data = summary_data({"A": [-1.0, 2.0], "B": [1.0, 3.0]})
    with pytest.raises(InputError, match="value_shift"):
        compute(data, options())
    with pytest.raises(InputError, match="value_shift"):
        compute(data, options(value_shift=1.0))  # leaves A's −1 at 0: still not positive
    result = compute(data, options(value_shift=2.0))
    assert result.values.tolist() == [[1.0, 4.0], [3.0, 5.0]]


def test_problem_missing_for_an_algorithm_is_left_out() -> None:
    frame = summary_data({"A": [1, 2, 3], "B": [2, 1, 1]}).frame
    frame = frame[~((frame["algorithm"] == "B") & (frame["problem"] == "f3"))]
    data = AnalysisData("summary", frame, ("A", "B"), (("f1", 0), ("f2", 0), ("f3", 0)))
    result = compute(data, options())
    assert result.problems == (("f1", 0), ("f2", 0))
    (caveat,) = [c for c in result.caveats if c.code == "excluded_problems"]
    assert caveat.where == "f3"


def test_needs_two_algorithms() -> None:
    with pytest.raises(InputError, match="at least two algorithms"):
        compute(summary_data({"A": [1, 2]}), options())


# --------------------------------------------------------------------------------------------
# Spec options
# --------------------------------------------------------------------------------------------


def test_options_defaults_and_validation() -> None:
    default = options()
    assert default.sigmas == ["auto"]
    assert default.statistic == "mean"
    assert default.transitive_reduction is False
    assert options(sigmas=["auto", 10, 60.5]).sigmas == ["auto", 10, 60.5]
    bad: dict[str, Any]
    for bad in (
        {"sigmas": [0]},
        {"sigmas": [-5]},
        {"sigmas": ["10"]},
        {"sigmas": []},
        {"value_floor": 0},
        {"value_floor": 1e-9, "value_shift": 1.0},
        {"transitive_reduction": "yes"},
        {"relative_tolerance": -1e-9},
    ):
        with pytest.raises(ValidationError):
            options(**bad)


def test_cec2005_example_explains_its_departures_with_the_computed_numbers(cec) -> None:
    """The cec2005 report says itself where it departs from the paper; every number it states
    there is the recipe's (so the note cannot drift from the computation)."""
    spec = yaml.safe_load(TABLE1.parents[1].joinpath("study.yaml").read_text(encoding="utf-8"))
    (note,) = spec["analyses"][0]["notes"]
    for x, y in ((1, 10), (10, 5), (5, 4), (4, 1)):
        assert f"D({alg(x)}, {alg(y)}) = {points_text(cec.points(alg(x), alg(y)))}" in note
    assert f"only for σ ≤ {points_text(cec.auto.sigma_from)}" in note
    assert f"cycle-free for every σ > {points_text(cec.auto.sigma_from)}" in note
    assert len(cec.interval_at(15).layers) == len(CEC05)  # "a total order of all eleven"
    assert "total order of all eleven algorithms" in note
    assert "σ = 60" in note and "four layers at σ = 100" in note


def test_award_points_are_never_called_significant(cec) -> None:
    """A threshold on points is not a test: "dominates by award points", never "significantly"."""
    from reportgen.figures.style import make_style
    from reportgen.narrative.significance_relation import findings
    from reportgen.render.blocks import Text
    from reportgen.render.sections.significance_relation import build_section

    style = make_style(CEC05)
    said = {f.id: f.text for f in findings(cec, style)}
    assert not [text for text in said.values() if "significantly" in text]
    assert said["smallest_maximum_set"].startswith(
        "G-CMA-ES dominates every other algorithm by award points for every σ ≤"
    )
    intro = build_section(cec, options(), style).blocks[0]
    assert isinstance(intro, Text) and "not a statistical test" in intro.text
