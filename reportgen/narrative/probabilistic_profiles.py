"""Findings of the ``probabilistic_profiles`` analysis: where accounting for variance changes
the picture that the standard performance profile of the mean costs gives.

Rules (each sentence states the numbers it rests on, as in ``summary.csv``/``crossings.csv``):

0. ``nothing_solved``: no algorithm reaches the target on any problem, not even in expectation
   (ρ, ρ̄ = 0 everywhere); this one sentence replaces the others, which would name every
   algorithm as winning "most often" at a share of 0.
1. ``wins``: who has the largest ρ(1) and ρ̄(1) (expected share of wins), and whether it is
   the same algorithm.
2. ``solved``: the largest share solved within x_max, ρ(x_max), and ρ̄(x_max).

With ``cost: value`` (final values, a fixed-cost view) nothing is "solved": the sentences say
"within x times the best mean final value" instead.
3. ``solved.<a>``: an algorithm that looked as reliable as the best one (equal ρ(x_max)) but has
   an expected share solved ρ̄(x_max) at least ``VISIBLE`` lower.
4. ``order.<a>.<b>``: two algorithms whose order at x_max is reversed by ρ̄.
5. ``zeta`` and ``zeta.<a>``: the most reliable algorithm by ζ and ζ̄; an algorithm that
   solves everything within x_max on the mean costs (ζ ≤ x_max) but not in expectation
   (ζ̄ > x_max): the standard profile overestimates it (Barreto et al. §5).
6. ``crossings.<a>.<b>``: pairs whose curves cross a different number of times in the two
   profiles, counting only crossings with separation ≥ ``VISIBLE``; at most
   ``MAX_CROSSING_FINDINGS`` pairs, in study order.

Rules 3–5 name at most ``MAX_CROSSING_FINDINGS`` algorithms or pairs each; the rest are counted
in one sentence (``solved_more``, ``order_more``, ``zeta_more``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from reportgen.analyses.probabilistic_profiles import (
    AlgorithmSummary,
    Crossing,
    ProbabilisticProfilesResult,
)
from reportgen.present.findings import MAX_NAMED, Finding, join_words
from reportgen.present.labels import Labels

VISIBLE = 0.01
"""Differences of shares below this are not worth a sentence."""

MAX_CROSSING_FINDINGS = 6
"""At most this many findings of each per-algorithm or per-pair rule (3–6)."""


def share(v: float) -> str:
    """A share of problems, two decimals (``0.83``)."""
    return f"{v:.2f}"


def ratio(v: float) -> str:
    """A performance ratio, three significant digits, ``∞`` for infinity."""
    return "∞" if math.isinf(v) else f"{v:.3g}"


def _number(v: float) -> float | str:
    return "inf" if math.isinf(v) else v


def _names(labels: Labels, algorithms: Sequence[str]) -> str:
    return join_words([labels.label(a) for a in algorithms], limit=MAX_NAMED)


def _best(summary: Sequence[AlgorithmSummary], column: str, largest: bool = True) -> list[str]:
    values = [getattr(s, column) for s in summary]
    target = max(values) if largest else min(values)
    return [s.algorithm for s, v in zip(summary, values, strict=True) if v == target]


def findings(result: ProbabilisticProfilesResult, labels: Labels) -> list[Finding]:
    """Sentences on wins, share solved, reliability and crossings (see the module docstring)."""
    summary = result.summary
    x_max = f"{result.x_max:g}"
    out: list[Finding] = []

    if all(s.rho_1 == s.rho_bar_1 == s.solved == s.solved_bar == 0 for s in summary):
        # No algorithm reaches the target anywhere (every mean cost and every run's cost is
        # ∞): "A, B and C win most often (ρ(1) = 0.00)" would call a profile of zeros a win.
        out.append(
            Finding(
                "nothing_solved",
                f"No algorithm solves any problem within x = {x_max}, on the mean costs or in "
                "expectation (ρ and ρ̄ are 0 for every algorithm): these profiles cannot "
                "separate the algorithms.",
                {"solved": 0.0, "solved_bar": 0.0},
            )
        )
        return out

    # 1. wins at x = 1
    wins, wins_bar = _best(summary, "rho_1"), _best(summary, "rho_bar_1")
    w, wb = result.summary_of(wins[0]), result.summary_of(wins_bar[0])
    if wins == wins_bar:
        text = (
            f"{_names(labels, wins)} {'wins' if len(wins) == 1 else 'win'} most often, both on "
            f"the mean costs (ρ(1) = {share(w.rho_1)}) and in expectation "
            f"(ρ̄(1) = {share(w.rho_bar_1)})."
        )
    else:
        text = (
            f"On the mean costs {_names(labels, wins)} {'wins' if len(wins) == 1 else 'win'} "
            f"most often (ρ(1) = {share(w.rho_1)}), but the expected share of wins is highest "
            f"for {_names(labels, wins_bar)} (ρ̄(1) = {share(wb.rho_bar_1)}, against "
            f"{share(w.rho_bar_1)} for {labels.label(wins[0])})."
        )
    out.append(
        Finding(
            "wins",
            text,
            {
                "best_rho_1": wins,
                "rho_1": w.rho_1,
                "best_rho_bar_1": wins_bar,
                "rho_bar_1": wb.rho_bar_1,
            },
        )
    )

    # 2. share solved within x_max
    solved, solved_bar = _best(summary, "solved"), _best(summary, "solved_bar")
    s, sb = result.summary_of(solved[0]), result.summary_of(solved_bar[0])
    if result.fixed_target:
        largest = (
            f"Within x = {x_max}, {_names(labels, solved)} "
            f"{'solves' if len(solved) == 1 else 'solve'} the largest share of the problems on "
            "the mean costs"
        )
    else:  # final values: nothing is "solved", a problem is within a ratio of the best
        largest = (
            f"{_names(labels, solved)} {'has' if len(solved) == 1 else 'have'} the largest "
            f"share of the problems with a mean final value within x = {x_max} times the best"
        )
    out.append(
        Finding(
            "solved",
            f"{largest} (ρ({x_max}) = {share(s.solved)}); the largest expected share is "
            f"{share(sb.solved_bar)} ({_names(labels, solved_bar)}).",
            {
                "best_solved": solved,
                "solved": s.solved,
                "best_solved_bar": solved_bar,
                "solved_bar": sb.solved_bar,
            },
        )
    )

    # 3. looked as reliable as the best, but is not in expectation
    top = max(solved, key=lambda a: result.summary_of(a).solved_bar)
    t = result.summary_of(top)
    for a in solved:
        e = result.summary_of(a)
        if a != top and t.solved_bar - e.solved_bar >= VISIBLE:
            out.append(
                Finding(
                    f"solved.{a}",
                    f"{labels.label(a)} looked as reliable as {labels.label(top)} "
                    f"(ρ({x_max}) = {share(e.solved)} for both, on the mean costs), but its "
                    f"expected share {'solved' if result.fixed_target else 'within the ratio'} "
                    f"at x = {x_max} is {share(e.solved_bar)}, against "
                    f"{share(t.solved_bar)}.",
                    {
                        "solved": e.solved,
                        "solved_bar": e.solved_bar,
                        "reference": top,
                        "reference_solved_bar": t.solved_bar,
                    },
                )
            )

    # 4. order at x_max reversed
    for i, left in enumerate(summary):
        for right in summary[i + 1 :]:
            if (left.solved - right.solved) * (left.solved_bar - right.solved_bar) < 0 and (
                abs(left.solved_bar - right.solved_bar) >= VISIBLE
            ):
                first, second = (left, right) if left.solved > right.solved else (right, left)
                out.append(
                    Finding(
                        f"order.{first.algorithm}.{second.algorithm}",
                        f"Accounting for variance reverses the order of "
                        f"{labels.label(first.algorithm)} and {labels.label(second.algorithm)} at "
                        f"x = {x_max}: ρ({x_max}) = {share(first.solved)} against "
                        f"{share(second.solved)}, but ρ̄({x_max}) = {share(first.solved_bar)} "
                        f"against {share(second.solved_bar)}.",
                        {
                            "solved": [first.solved, second.solved],
                            "solved_bar": [first.solved_bar, second.solved_bar],
                        },
                    )
                )

    # 5. reliability
    out.append(_reliability(result, labels))
    for e in summary:
        if e.zeta <= result.x_max < e.zeta_bar:
            out.append(
                Finding(
                    f"zeta.{e.algorithm}",
                    f"{labels.label(e.algorithm)} "
                    + (
                        f"solves every problem within x = {x_max} on the mean costs "
                        if result.fixed_target
                        else f"has a mean final value within x = {x_max} times the best on "
                        "every problem "
                    )
                    + f"(ζ = {ratio(e.zeta)}) but not in expectation "
                    f"(ζ̄ = {ratio(e.zeta_bar)}): the standard profile overestimates its "
                    "reliability.",
                    {"zeta": e.zeta, "zeta_bar": _number(e.zeta_bar)},
                )
            )

    # 6. crossings
    out.extend(_crossing_findings(result, labels))
    return _at_most_per_rule(out, x_max)


_LISTED_RULES = {
    "solved": "algorithms that looked as reliable as the best but are not in expectation",
    "order": "pairs whose order at x = {x_max} accounting for variance reverses",
    "zeta": "algorithms whose reliability the standard profile overestimates",
}


def _at_most_per_rule(found: list[Finding], x_max: str) -> list[Finding]:
    """At most ``MAX_CROSSING_FINDINGS`` findings of each per-algorithm or per-pair rule (3–5),
    the rest counted in one sentence after them: 500 algorithms give thousands of pairs."""
    kept: list[Finding] = []
    dropped: dict[str, int] = {}
    for finding in found:
        rule = finding.id.split(".", 1)[0] if "." in finding.id else ""
        if rule in _LISTED_RULES:
            shown = sum(1 for f in kept if f.id.startswith(rule + "."))
            if shown >= MAX_CROSSING_FINDINGS:
                dropped[rule] = dropped.get(rule, 0) + 1
                continue
        kept.append(finding)
    for rule, count in dropped.items():
        last = max(i for i, f in enumerate(kept) if f.id.startswith(rule + "."))
        what = _LISTED_RULES[rule].format(x_max=x_max)
        kept.insert(
            last + 1,
            Finding(
                f"{rule}_more",
                f"And {count} more {what}: summary.csv holds every algorithm's ρ, ρ̄, ζ and ζ̄.",
                {"not_listed": count},
            ),
        )
    return kept


def _reliability(result: ProbabilisticProfilesResult, labels: Labels) -> Finding:
    summary = result.summary
    eps = f"{result.reliability_tolerance:g}"
    # "beyond this ratio … expected to remain beyond it" said "beyond" twice of one ratio.
    unsolved = "remain unsolved" if result.fixed_target else "lie"
    if all(math.isinf(s.zeta) for s in summary):
        text = (
            "No algorithm solves every problem on the mean costs (ζ = ∞ for all)."
            if result.fixed_target
            else "No algorithm has a finite mean final value on every problem (ζ = ∞ for all)."
        )
        numbers: dict[str, object] = {"zeta": "inf"}
    else:
        best = _best(summary, "zeta", largest=False)
        z = result.summary_of(best[0]).zeta
        text = (
            f"The most reliable on the mean costs {'is' if len(best) == 1 else 'are'} "
            f"{_names(labels, best)} (ζ = {ratio(z)}, the largest ratio to the best mean cost)."
        )
        numbers = {"best_zeta": best, "zeta": z}
    if all(math.isinf(s.zeta_bar) for s in summary):
        text += f" In expectation no algorithm gets below ε = {eps} problems " + (
            "unsolved." if result.fixed_target else "beyond any ratio."
        )
        numbers["zeta_bar"] = "inf"
    else:
        best_bar = _best(summary, "zeta_bar", largest=False)
        zb = result.summary_of(best_bar[0]).zeta_bar
        text += (
            f" In expectation it is {_names(labels, best_bar)} (ζ̄ = {ratio(zb)}: beyond this "
            f"ratio fewer than ε = {eps} problems are expected to {unsolved})."
        )
        numbers |= {"best_zeta_bar": best_bar, "zeta_bar": zb}
    return Finding("zeta", text, numbers)


def _visible(crossings: Sequence[Crossing]) -> list[Crossing]:
    return [c for c in crossings if c.separation >= VISIBLE]


def _places(crossings: Sequence[Crossing]) -> str:
    return ", ".join(ratio(c.x) for c in crossings)


def _crossing_findings(result: ProbabilisticProfilesResult, labels: Labels) -> list[Finding]:
    out = []
    algorithms = result.algorithms
    for i, a in enumerate(algorithms):
        for b in algorithms[i + 1 :]:
            standard = _visible(result.crossings_of(a, b, "standard"))
            expected = _visible(result.crossings_of(a, b, "probabilistic"))
            if len(standard) == len(expected):
                continue
            pair = f"{labels.label(a)} and {labels.label(b)}"
            if not standard:
                first = "never cross"
            else:
                first = f"cross {_times(len(standard))} (x = {_places(standard)})"
            if not expected:
                second = "do not cross: the order is the same over all of [1, " + (
                    f"{result.x_max:g}]"
                )
            else:
                second = f"cross {_times(len(expected))} (x = {_places(expected)})"
            out.append(
                Finding(
                    f"crossings.{a}.{b}",
                    f"The standard profiles of {pair} {first}; their probabilistic profiles "
                    f"{second}.",
                    {"standard": [c.x for c in standard], "probabilistic": [c.x for c in expected]},
                )
            )
            if len(out) == MAX_CROSSING_FINDINGS:
                return out
    return out


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")
