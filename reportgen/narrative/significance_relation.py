"""Sentences about the significance-relation analysis (Köppen & Ohnishi §III).

Award points are a threshold, not a statistical test: the sentences say "dominates by award
points at σ = …", never "significantly" (no p-value or error rate stands behind σ).

The paper reads its CEC'05 graphs as "algorithm 7 is a clear winner, as it is in significance
relation to all other algorithms", "algorithm 3 is a clear loser, since it is dominated by all
other algorithms", "there is one cycle …", "for σ = 60 we can distinguish five ranks …". The
rules below say the same things from the result, each with the numbers it states.

Rules
-----
- ``cycle_free``: the σ above which the relation is cycle-free (``auto``), and the algorithms on
  cycles below it.
- ``smallest_maximum_set``: the smallest non-empty maximum set and the σ range where it holds.
- ``dominates_all.<algorithm>``: an algorithm related to every other one, up to which σ
  (folded into ``smallest_maximum_set`` when that is the same statement's σ range).
- ``dominated_by_all.<algorithm>``: an algorithm every other one is related to, up to which σ.
- ``layers.sigma=<σ>``: the rank layers at each requested σ, and its cycles if any; a level
  whose relation is a lower level's says so (``same_as_sigma``) instead of listing them again.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.analyses.significance_relation import RelationAtSigma, SignificanceRelationResult
from reportgen.present.findings import MAX_NAMED, Finding, join_words
from reportgen.present.format import points_text
from reportgen.present.labels import Labels

MAX_CYCLES_NAMED = 3
"""At most this many cycles are spelled out in a sentence."""
MAX_LAYERS_NAMED = 10
"""At most this many rank layers are spelled out in a sentence (the table lists them all)."""


def _names(algorithms: Sequence[str], labels: Labels) -> str:
    return join_words([labels.label(a) for a in algorithms], limit=MAX_NAMED)


def _layers_count(n: int) -> str:
    return f"{n} rank layer" if n == 1 else f"{n} rank layers"


def _sigma_range(low: float, high: float) -> str:
    """``every σ ≤ 99``, ``every σ > 2`` or ``2 < σ ≤ 99`` (σ > 0 always)."""
    if low == 0 and high == float("inf"):
        return "every σ > 0"
    if low == 0:
        return f"every σ ≤ {points_text(high)}"
    if high == float("inf"):
        return f"every σ > {points_text(low)}"
    return f"{points_text(low)} < σ ≤ {points_text(high)}"


def findings(result: SignificanceRelationResult, labels: Labels) -> list[Finding]:
    """Rule-generated sentences about ``result`` (see the module docstring)."""
    out = [_cycle_free(result, labels), _smallest_maximum_set(result, labels)]
    for name, sigma in result.dominates_all_up_to().items():
        if _winner_everywhere(result) == name:
            continue  # said by smallest_maximum_set
        out.append(
            Finding(
                id=f"dominates_all.{name}",
                text=f"{labels.label(name)} dominates every other algorithm by award points "
                f"(D ≥ σ against each) for {_sigma_range(0, sigma)}.",
                numbers={"algorithm": name, "sigma_to": sigma},
            )
        )
    for name, sigma in result.dominated_by_all_up_to().items():
        out.append(
            Finding(
                id=f"dominated_by_all.{name}",
                text=f"Every other algorithm dominates {labels.label(name)} by award points "
                f"for {_sigma_range(0, sigma)}.",
                numbers={"algorithm": name, "sigma_to": sigma},
            )
        )
    # A level with the same relation as a lower one says so rather than list its layers again
    # (cec2005: σ = 2.5 and 10, the same 11 layers; its figure is drawn once).
    lower = {r.sigma: group[0] for group in result.same_relations() for r in group[1:]}
    out.extend(
        _same_as(relation, lower[relation.sigma])
        if relation.sigma in lower
        else _layers(result, relation, labels)
        for relation in result.relations
    )
    return out


def _winner_everywhere(result: SignificanceRelationResult) -> str | None:
    """The sole member of the smallest maximum set when it beats every other algorithm on
    exactly the σ range where it is the only maximal element (then one sentence says both)."""
    members = result.smallest_maximum_set
    low, high = result.smallest_maximum_set_sigmas
    if len(members) == 1 and low == 0 and result.dominates_all_up_to().get(members[0]) == high:
        return members[0]
    return None


def _cycle_free(result: SignificanceRelationResult, labels: Labels) -> Finding:
    auto = result.auto
    numbers: dict[str, object] = {
        "sigma_auto": result.sigma_auto,
        "cycle_free_above": auto.sigma_from,
        "n_layers": len(auto.layers),
    }
    if auto.sigma_from == 0:
        text = (
            "The relation has no cycle at any level σ, so every σ > 0 ranks the "
            f"algorithms (auto: σ = {points_text(result.sigma_auto)}, "
            f"{_layers_count(len(auto.layers))})."
        )
        return Finding("cycle_free", text, numbers)
    below = result.sweep[result.auto_index - 1]
    on_cycles = [a for c in below.cyclic_components for a in c]
    numbers["on_cycles"] = on_cycles
    text = (
        f"The relation is cycle-free for every σ > {points_text(auto.sigma_from)} (auto: "
        f"σ = {points_text(result.sigma_auto)}, {_layers_count(len(auto.layers))}); at "
        f"σ = {points_text(auto.sigma_from)} it still has cycles through "
        f"{_names(on_cycles, labels)}."
    )
    return Finding("cycle_free", text, numbers)


def _smallest_maximum_set(result: SignificanceRelationResult, labels: Labels) -> Finding:
    members = result.smallest_maximum_set
    low, high = result.smallest_maximum_set_sigmas
    numbers: dict[str, object] = {
        "maximum_set": list(members),
        "sigma_from": low,
        "sigma_to": high,
    }
    if _winner_everywhere(result) is not None:
        text = (
            f"{labels.label(members[0])} dominates every other algorithm by award points "
            f"for {_sigma_range(low, high)}, and is the only maximal element there; no σ gives "
            "a smaller non-empty maximum set."
        )
    elif len(members) == 1:
        text = (
            f"{labels.label(members[0])} is the only maximal element (no algorithm dominates "
            f"it by award points) for {_sigma_range(low, high)}; no σ gives a smaller "
            "non-empty maximum set."
        )
    else:
        text = (
            f"The smallest non-empty maximum set at any σ has {len(members)} algorithms, "
            f"{_names(members, labels)}, for {_sigma_range(low, high)}."
        )
    return Finding("smallest_maximum_set", text, numbers)


def _same_as(relation: RelationAtSigma, lower: RelationAtSigma) -> Finding:
    """``relation`` is ``lower``'s: no award-point difference D lies between their levels."""
    sigma, below = points_text(relation.sigma), points_text(lower.sigma)
    text = (
        f"At σ = {sigma} the relation is the one at σ = {below} (no D lies in "
        f"{below} ≤ D < {sigma}), with the same {_layers_count(len(relation.layers))}."
    )
    numbers: dict[str, object] = {
        "sigma": relation.sigma,
        "same_as_sigma": lower.sigma,
        "n_layers": len(relation.layers),
        "layers": [list(layer) for layer in relation.layers],
        "cycle_free": relation.cycle_free,
    }
    return Finding(f"layers.sigma={sigma}", text, numbers)


def _layers(
    result: SignificanceRelationResult, relation: RelationAtSigma, labels: Labels
) -> Finding:
    sigma = points_text(relation.sigma)
    # As join_words: one layer over the limit is listed, since "11) CoEVO" is shorter than
    # "and 1 more (the layers table)" — a table the PDF may not print (cec2005).
    shown = (
        MAX_LAYERS_NAMED if len(relation.layers) > MAX_LAYERS_NAMED + 1 else len(relation.layers)
    )
    listed = "; ".join(
        f"{k}) {_names(layer, labels)}" for k, layer in enumerate(relation.layers[:shown], 1)
    )
    if len(relation.layers) > shown:
        listed += f"; and {len(relation.layers) - shown} more (the layers table)"
    asked = " (auto)" if "auto" in relation.requested else ""
    numbers: dict[str, object] = {
        "sigma": relation.sigma,
        "n_layers": len(relation.layers),
        "layers": [list(layer) for layer in relation.layers],
        "cycle_free": relation.cycle_free,
    }
    if relation.cycle_free:
        text = (
            f"At σ = {sigma}{asked} the relation is cycle-free with "
            f"{_layers_count(len(relation.layers))}: {listed}."
        )
    else:
        cycles = relation.cycles[:MAX_CYCLES_NAMED]
        spelled = "; ".join(
            " → ".join(labels.label(a) for a in (*cycle, cycle[0])) for cycle in cycles
        )
        more = (
            " and more"
            if relation.cycles_truncated or len(relation.cycles) > MAX_CYCLES_NAMED
            else ""
        )
        numbers["cycles"] = [list(c) for c in cycles]
        text = (
            f"At σ = {sigma}{asked} the relation has cycles ({spelled}{more}); the members of a "
            f"cycle share a layer, giving {_layers_count(len(relation.layers))}: {listed}."
        )
    return Finding(f"layers.sigma={points_text(relation.sigma)}", text, numbers)
