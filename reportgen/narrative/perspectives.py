"""Sentences about the perspectives analysis: who is best, who is significantly worse, and
where the perspectives disagree with the mean and with each other (Poikolainen et al., CEC 2008 and
BBOB 2010 study cases: "by the mean no difference is significant; by accuracy, reliability and
robustness SA is significantly worse").

Rules
-----
- ``best.<p>``: the best mean rank by perspective ``p``, with Friedman's χ² and p; algorithms
  tied for it are named together (the first in study order only as Holm's control).
- ``holm.<p>``: the algorithms Holm's procedure finds significantly worse (or better, possible
  with a named control) than the control, or that none is — or, where too few problems leave
  Holm no power (``PerspectiveComparison.holm_has_power``), that none can be, which is no
  evidence that the algorithms perform alike.
- ``disagreement.best``: whether the best algorithm depends on the perspective.
- ``disagreement.significance``: perspectives grouped by the set of algorithms found
  significantly worse than the control.
- ``disagreement.mean``: algorithms whose verdict by the mean differs from another perspective.
- ``nemenyi_holm.<p>``: algorithms Holm finds significantly different from the control although
  the Nemenyi CD diagram joins them with it, and why both can hold.
- ``unavailable.<p>``: a requested perspective that could not be computed, and why.

Every sentence that ranks by efficiency says that wall-clock time depends on hardware, language
and stopping rule.
"""

from __future__ import annotations

from collections.abc import Iterable

from reportgen.analyses.perspectives import (
    PERSPECTIVE_NAMES,
    WALL_CLOCK,
    PerspectiveComparison,
    PerspectivesResult,
)
from reportgen.present.findings import MAX_NAMED, Finding, join_words
from reportgen.present.format import format_p
from reportgen.present.labels import Labels

BY: dict[str, str] = {
    p: f"the {name}" if p in ("mean", "median") else name for p, name in PERSPECTIVE_NAMES.items()
}
"""How a perspective is named after "by"."""


def _by(perspectives: Iterable[str], conjunction: str = "and") -> str:
    return "by " + join_words([BY[p] for p in perspectives], conjunction)


def _worse(c: PerspectiveComparison) -> tuple[str, ...]:
    return tuple(row.algorithm for row in c.holm if row.rejected and row.z < 0)


def _better(c: PerspectiveComparison) -> tuple[str, ...]:
    return tuple(row.algorithm for row in c.holm if row.rejected and row.z > 0)


def _test_words(c: PerspectiveComparison) -> str:
    return f"Holm, {c.alternative}, α = {c.alpha:g}"


def _wall_clock(c: PerspectiveComparison) -> str:
    return WALL_CLOCK if c.perspective == "efficiency" else ""


def findings(result: PerspectivesResult, labels: Labels) -> list[Finding]:
    """Rule-generated sentences about ``result`` (see the module docstring)."""
    out: list[Finding] = []
    explained = False
    for c in result.comparisons:
        out.extend(_perspective_findings(c, labels, explained))
        # Why Holm and Nemenyi can differ is said with the first perspective where they do.
        explained = explained or bool(c.holm_nemenyi_conflicts())
    out.extend(_disagreements(result, labels))
    for u in result.unavailable:
        out.append(
            Finding(
                id=f"unavailable.{u.perspective}",
                text=f"Ranking by {BY[u.perspective]} is not available: {u.reason}.",
                numbers={"perspective": u.perspective, "reason": u.reason},
            )
        )
    return out


def _perspective_findings(
    c: PerspectiveComparison, labels: Labels, explained: bool = False
) -> list[Finding]:
    """The sentences of one perspective; ``explained``: an earlier perspective's sentence has
    said why Holm's procedure and Nemenyi's diagram can differ."""
    label = labels.label
    best = c.best
    best_rank = float(c.mean_ranks[best])
    if c.friedman_chi2 is not None:
        friedman = f"; Friedman χ² = {c.friedman_chi2:.2f}, p = {format_p(c.friedman_p)}"
    else:
        friedman = (
            "; the Friedman test is undefined here (fewer than three algorithms, or every "
            "problem a complete tie)"
        )
    tied = list(c.tied_best)
    if len(tied) > 1:
        lead = (
            f"By {BY[c.perspective]}, {join_words([label(a) for a in tied], limit=MAX_NAMED)} share the best "
            f"mean rank ({best_rank:.2f} over {c.n_problems} problems){friedman}."
            + (
                f" {label(c.control)}, the first of them in study order, is the control of "
                "Holm's procedure."
                if c.control == best
                else ""
            )
        )
    else:
        lead = (
            f"By {BY[c.perspective]}, {label(best)} has the best mean rank "
            f"({best_rank:.2f} over {c.n_problems} problems){friedman}."
        )
    out = [
        Finding(
            id=f"best.{c.perspective}",
            text=lead + _wall_clock(c),
            numbers={
                "perspective": c.perspective,
                "best": best,
                "tied_best": tied,
                "mean_rank": best_rank,
                "n_problems": c.n_problems,
                "chi2": c.friedman_chi2,
                "p_value": c.friedman_p,
            },
        )
    ]
    worse, better = _worse(c), _better(c)
    parts = []
    if worse:
        verb = "is" if len(worse) == 1 else "are"
        parts.append(
            f"{join_words([label(a) for a in worse], limit=MAX_NAMED)} {verb} significantly worse"
        )
    if better:
        verb = "is" if len(better) == 1 else "are"
        parts.append(
            f"{join_words([label(a) for a in better], limit=MAX_NAMED)} {verb} significantly better"
        )
    if parts:
        text = f"By {BY[c.perspective]}, {' and '.join(parts)} than {label(c.control)}"
    elif not c.holm_has_power:
        k = c.n_algorithms
        text = (
            f"By {BY[c.perspective]}, no algorithm can differ significantly from "
            f"{label(c.control)}: with {c.n_problems} problems and {k} algorithms even one "
            f"first and another last on every problem give p = {format_p(c.smallest_holm_p)}, "
            f"above α/{k - 1} = {format_p(c.alpha / (k - 1))} — no evidence that they perform "
            "alike; more problems are needed"
        )
    else:
        text = f"By {BY[c.perspective]}, no algorithm differs significantly from {label(c.control)}"
    out.append(
        Finding(
            id=f"holm.{c.perspective}",
            text=f"{text} ({_test_words(c)}).{_wall_clock(c)}",
            numbers={
                "perspective": c.perspective,
                "control": c.control,
                "significantly_worse": list(worse),
                "significantly_better": list(better),
                "p_values": {row.algorithm: row.p_value for row in c.holm},
                "alpha": c.alpha,
                "alternative": c.alternative,
            },
        )
    )
    conflicts = c.holm_nemenyi_conflicts()
    if conflicts:
        names = join_words([label(a) for a in conflicts], limit=MAX_NAMED)
        verb = "differs" if len(conflicts) == 1 else "differ"
        out.append(
            Finding(
                id=f"nemenyi_holm.{c.perspective}",
                text=f"By {BY[c.perspective]}, {names} {verb} significantly from "
                f"{label(c.control)} by Holm's procedure, yet the critical-difference diagram "
                + (
                    f"joins them (CD = {c.critical_difference:.2f}), for the reason above."
                    if explained
                    else "joins them: Nemenyi's test compares all pairs with one critical "
                    f"difference (CD = {c.critical_difference:.2f}), whereas Holm compares each "
                    "algorithm with the control only and steps down, so it separates smaller "
                    "rank differences. Both are correct for their own question."
                ),
                numbers={
                    "perspective": c.perspective,
                    "control": c.control,
                    "holm_rejected_within_nemenyi_group": list(conflicts),
                    "critical_difference": c.critical_difference,
                },
            )
        )
    return out


def _disagreements(result: PerspectivesResult, labels: Labels) -> list[Finding]:
    comparisons = result.comparisons
    if len(comparisons) < 2:
        return []
    label = labels.label
    out = []

    # Which algorithm is best, by perspective.
    best_of = {c.perspective: c.tied_best for c in comparisons}
    bests = list(dict.fromkeys(best_of.values()))

    def named(tied: tuple[str, ...]) -> str:
        return join_words([label(a) for a in tied], limit=MAX_NAMED) + (
            " (tied)" if len(tied) > 1 else ""
        )

    if len(bests) == 1:
        text = f"Every perspective ranks {named(bests[0])} best."
    else:
        parts = [f"{named(a)} {_by([p for p, b in best_of.items() if b == a])}" for a in bests]
        text = f"The best algorithm depends on the perspective: {'; '.join(parts)}."
    out.append(
        Finding(
            id="disagreement.best",
            text=text,
            numbers={"best": {p: list(b) if len(b) > 1 else b[0] for p, b in best_of.items()}},
        )
    )

    # Perspectives grouped by their set of significantly worse algorithms.
    worse_of = {c.perspective: _worse(c) for c in comparisons}
    groups: dict[frozenset[str], list[str]] = {}
    for perspective, worse in worse_of.items():
        groups.setdefault(frozenset(worse), []).append(perspective)
    against = (
        "than the best-ranked algorithm of that perspective"
        if result.control_option == "best"
        else f"than {label(result.control_option)}"
    )
    if len(groups) == 1:
        worse = next(iter(worse_of.values()))
        if worse:
            verb = "is" if len(worse) == 1 else "are"
            text = (
                f"All perspectives agree: {join_words([label(a) for a in worse], limit=MAX_NAMED)} {verb} "
                f"significantly worse {against}."
            )
        elif not any(c.holm_has_power for c in comparisons):
            text = (
                f"By no perspective is any algorithm significantly worse {against}; with "
                "so few problems none could be (see above)."
            )
        else:
            text = f"By no perspective is any algorithm significantly worse {against}."
    else:
        clauses = []
        for perspectives in groups.values():
            worse = worse_of[perspectives[0]]
            if worse:
                ordered = [a for a in result.algorithms if a in worse]
                verb = "is" if len(ordered) == 1 else "are"
                clauses.append(
                    f"{_by(perspectives)} {join_words([label(a) for a in ordered], limit=MAX_NAMED)} {verb} "
                    "significantly worse"
                )
            else:
                clauses.append(f"{_by(perspectives)} no difference is significant")
        text = f"The perspectives disagree: {'; '.join(clauses)} ({against})."
        text = text[0].upper() + text[1:]
    out.append(
        Finding(
            id="disagreement.significance",
            text=text,
            numbers={"significantly_worse": {p: list(w) for p, w in worse_of.items()}},
        )
    )

    # Verdicts that differ from the mean's.
    if "mean" in worse_of:
        by_mean = set(worse_of["mean"])
        only_other: dict[str, list[str]] = {}
        only_mean: dict[str, list[str]] = {}
        for perspective, worse in worse_of.items():
            if perspective == "mean":
                continue
            for a in result.algorithms:
                if a in worse and a not in by_mean:
                    only_other.setdefault(a, []).append(perspective)
                if a in by_mean and a not in worse:
                    only_mean.setdefault(a, []).append(perspective)
        sentences = []
        if only_other:
            items = [f"{label(a)} ({_by(ps)})" for a, ps in only_other.items()]
            sentences.append(
                "Not significantly worse by the mean final value, but significantly worse by "
                f"another perspective: {'; '.join(items)}."
            )
        if only_mean:
            items = [f"{label(a)} (not {_by(ps, 'or')})" for a, ps in only_mean.items()]
            sentences.append(
                "Significantly worse by the mean final value, but not by some other perspective: "
                f"{'; '.join(items)}."
            )
        if sentences:
            out.append(
                Finding(
                    id="disagreement.mean",
                    text=" ".join(sentences),
                    numbers={"only_other": only_other, "only_mean": only_mean},
                )
            )
    return out
