"""The executive summary: bottom line, verdict matrix and rule-generated findings.

Every sentence is produced by a rule from the rankings, verdicts, bootstrap and head-to-head
numbers (never from adjectives in a template) and carries, in its
:class:`~reportgen.present.findings.Finding`, the numbers it states and the rankings it rests
on, so each can be checked against ``results.json``.

Evidence is weighed by *method family* (:data:`~reportgen.synthesis.rankings.FAMILY_OF_KIND`),
not counted by ranking: two U-score variants, or three Friedman rankings of the same final
values, are one line of evidence each. Rankings that are inconclusive (their test cannot
separate the algorithms) or degenerate (every algorithm ties) are shown in the verdict matrix
but enter neither the first-place counts nor Kendall's τ.

Rules
-----
Bottom line (one paragraph at the top of the report)
    A family's first place goes to the algorithm(s) first in most of its counted rankings; the
    leader is the algorithm first in the most families. No counted ranking → "no algorithm is
    ahead". A single leader first in every family and first in at least 90 % of the bootstrap
    resamples of every resampled ranking → a recommendation; first in every family with a
    lower ``p_first`` → a recommendation "with moderate confidence"; first in fewer families →
    "leads, but the evidence is split", naming the strongest other contender and their
    head-to-head; several leaders, or a leader first in at most half of the resamples of every
    resampled ranking → "no single algorithm is ahead". No test of the leader's lead at all
    (no counted ranking with significance verdicts, no head-to-head sign test putting it
    ahead) → never a recommendation: "ranks first by …, and in …% of bootstrap resamples; no
    test measures whether its lead is significant" — a bootstrap of problems
    says how stable a first place is under another sample of problems, not that the lead
    exceeds the noise of the runs. A leader whose lead over some
    algorithms no test of the verdict matrix finds significant → "leads, but its lead over …
    is not significant in any test of the verdict matrix" — scoped to those tests, since a
    problem table's sign test may still put it ahead of the same algorithm, which the sentence
    then adds. A leader that a tested problem table does not separate from some algorithm
    (significantly better on no more problems than it; the rankings may place that algorithm
    anywhere) → "leads, but the problem table does not separate it from …", that algorithm
    compared head to head from the table too; never "the recommendation" over it. Study order
    never decides: ties are named as ties.
1. Firsts — each algorithm that some family puts first, with the families and rankings; what
   the family measures is said when families disagree.
2. Shared first places of more than two algorithms.
3. Significance — for each counted ranking with verdicts, whether its best algorithm's lead is
   significant over every other algorithm.
4. Not counted — each inconclusive or degenerate ranking, with the reason and its numbers.
5. Agreement — Kendall's τ-b among counted rankings: "the two rankings" only when there are
   exactly two; otherwise the most and least concordant pair and the number of pairs of
   algorithms whose order flips.
6. Head-to-head — the leader against the best other algorithm of each family (at most two:
   best in the most families, then by mean rank over the families; more only where they tie
   exactly) and against each algorithm a tested problem table does not separate from it,
   from a U-score analysis's trial comparisons where there is one, else from a problem table
   that tests one against the other (:mod:`reportgen.synthesis.head_to_head`); then the
   problems each wins over all problems, per dimension and per function group, with a sign
   test over them: "ahead" or "indistinguishable" per group, as the summary's table "Head to
   head" shows it (the bottom line of an "X or Y" study repeats the per-dimension split).
7. Uncertainty — the leader's ``p_first`` and 95 % rank interval per resampled ranking
   (:mod:`reportgen.synthesis.uncertainty`).
8. Against the reference — for each tested problem table, the W/T/L of its rank-sum test
   against its reference and the median Vargha–Delaney A12 (with its magnitude word) of the
   leaders, the contenders and every algorithm worse on fewer than half the problems; the others as the
   range of their losses and their largest median A12.

The first sentence (the bottom line first) that ranks by a ranking with a caveat (wall-clock
efficiency: time depends on the hardware, the language and the stopping rule; the runtime-ECDF
area at budgets more than tenfold apart: who leads at the common budget; the profiles'
tolerance where another tolerance puts another algorithm first) ends with that caveat, the
algorithms it names by their labels; the next sentence ranking by it points to it, once. A ranking's verdict caveat (confidence-bound profiles on fewer runs than
Remark 4 requires) is stated in full once, in the report's caveat list, and kept whole in the
numbers of the sentences that rest on it: the bottom line, where it states those verdicts, or
else the sentence stating them ends with a pointer to it, never both. Where no U-score analysis
compares the top two, the head-to-head comes from a problem table whose reference is one of
them (its per-problem rank-sum test, corrected over problems; the sentence names the test).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from reportgen.analyses.problem_table import ProblemTableResult, a12_magnitude
from reportgen.present.caveats import named_text
from reportgen.present.findings import MAX_NAMED, Finding, join_words
from reportgen.present.format import any_of, counted, fixed, format_p, u_text
from reportgen.present.jsonable import frame_records, json_value
from reportgen.present.labels import Labels
from reportgen.synthesis.agreement import Agreement, agreement
from reportgen.synthesis.head_to_head import (
    ALL_PROBLEMS,
    HeadToHead,
    PairGroup,
    from_problem_tables,
    head_to_head,
    not_separated_by_tables,
    sign_test_needs,
)
from reportgen.synthesis.rankings import (
    BEST,
    DEGENERATE,
    FINAL_VALUES,
    INCONCLUSIVE,
    NOT_SIGNIFICANT,
    PROFILES,
    U_SCORES,
    WORSE,
    Ranking,
    rank_frame,
)
from reportgen.synthesis.uncertainty import ALL, RESAMPLES, SEED, Uncertainty, uncertainty

CONFIDENT = 0.9
"""``p_first`` from which a leader first in every family is recommended without reservation."""

MEASURES = {
    PROFILES: "how fast the convergence curves reach the tolerance",
    U_SCORES: "trial-by-trial dominance (success first, then speed or final value)",
    FINAL_VALUES: "final values problem by problem (ranked, or turned into award points)",
}
"""What each family ranks by, for the sentences that explain a disagreement."""


@dataclass(frozen=True)
class SynthesisResult:
    """Everything the executive summary shows."""

    algorithms: tuple[str, ...]
    rankings: tuple[Ranking, ...]
    ranks: pd.DataFrame  # algorithms × ranking ids
    agreement: Agreement
    findings: tuple[Finding, ...]
    uncertainty: Uncertainty = field(
        default_factory=lambda: Uncertainty(pd.DataFrame(), RESAMPLES, SEED)
    )
    bottom_line: Finding | None = None
    head_to_heads: tuple[HeadToHead, ...] = ()

    @property
    def counted(self) -> tuple[Ranking, ...]:
        """The rankings that count as evidence."""
        return tuple(r for r in self.rankings if r.counted)

    def tables(self) -> dict[str, pd.DataFrame]:
        ranks = self.ranks.reset_index(names="algorithm")
        verdicts = pd.DataFrame(
            {
                r.id: [r.verdicts.get(a, "") for a in self.algorithms]
                for r in self.rankings
                if r.verdicts
            },
            index=list(self.algorithms),
        ).reset_index(names="algorithm")
        tau = self.agreement.tau.reset_index(names="ranking")
        rankings = pd.DataFrame(
            [
                {
                    "ranking": r.id,
                    "label": r.label,
                    "family": r.family,
                    "status": r.status,
                    "note": r.note,
                }
                for r in self.rankings
            ],
            columns=["ranking", "label", "family", "status", "note"],
        )
        return {
            "rankings": rankings,
            "ranks": ranks,
            "verdicts": verdicts,
            "kendall_tau": tau,
            "flips": self.agreement.flips,
            "ranking_uncertainty": self.uncertainty.table,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "bottom_line": self.bottom_line.to_json() if self.bottom_line else None,
            "rankings": [
                {
                    "id": r.id,
                    "analysis_id": r.analysis_id,
                    "label": r.label,
                    "family": r.family,
                    "status": r.status,
                    "note": r.note,
                    "ranks": r.ranks,
                    "verdicts": r.verdicts,
                    "source": r.source,
                }
                for r in self.rankings
            ],
            "kendall_tau": frame_records(self.agreement.tau.reset_index(names="ranking")),
            "flips": frame_records(self.agreement.flips),
            "ranking_uncertainty": {
                "resamples": self.uncertainty.resamples,
                "seed": self.uncertainty.seed,
                "table": frame_records(self.uncertainty.table),
            },
            "head_to_head": [
                {
                    "a": h.a,
                    "b": h.b,
                    "source": h.source,
                    "share_a": json_value(h.share_a),
                    "significant_a": h.significant_a,
                    "significant_b": h.significant_b,
                    "problems": h.problems,
                    "total_a": json_value(h.total_a),
                    "total_b": json_value(h.total_b),
                    "tested": h.tested,
                    "test": h.test,
                    "a12_b": json_value(h.a12_b),
                    "by_group": [[json_value(x) for x in g] for g in h.by_group],
                    "breakdown": [
                        {k: json_value(v) for k, v in dataclasses.asdict(g).items()}
                        for g in h.breakdown
                    ],
                }
                for h in self.head_to_heads
            ],
            "findings": [f.to_json() for f in self.findings],
        }


@dataclass
class _Said:
    """What the summary has already said, so that a caveat is stated in full once: the bottom
    line's text (read first) and the ranking caveats the findings before have stated."""

    bottom_line: str = ""
    above: set[str] = field(default_factory=set)
    pointed: set[str] = field(default_factory=set)

    def where(self, text: str) -> str:
        """Where ``text`` was said (``the bottom line``, ``above``), or empty if not yet."""
        if text in self.bottom_line:
            return "the bottom line"
        return "above" if text in self.above else ""


def _caveat(rankings: Iterable[Ranking], labels: Labels, said: _Said | None = None) -> str:
    """The caveats (e.g. wall-clock efficiency) of the rankings a sentence ranks by, each once,
    to end that sentence with, the algorithms they name by their labels.

    With ``said``, a caveat the summary has already stated is not stated again: bbob_coco's
    summary said the runtime-ECDF budget caveat (three lines) in full in the bottom line, the
    first-place finding and the bootstrap finding. The next sentence ranking by it points to
    it; the ones after say nothing more (the same pointer after every bullet is clutter)."""
    texts = []
    for r in rankings:
        if not r.caveat:
            continue
        text = named_text(r.caveat, r.caveat_algorithms, labels)
        where = said.where(text) if said is not None else ""
        if said is not None and where:
            if text in said.pointed:
                continue
            said.pointed.add(text)
            text = f"(Caveat on {r.label}: see {where}.)"
        elif said is not None:
            said.above.add(text)
        texts.append(text)
    return "".join(" " + c for c in dict.fromkeys(texts))


def _names(algorithms: Sequence[str], labels: Labels) -> str:
    return join_words([labels.label(a) for a in algorithms], limit=MAX_NAMED)


def _runs_words(sure: Uncertainty, rankings: Sequence[Ranking]) -> str:
    """ "and of their runs " when the rankings resampled the runs too, "(and of the runs for
    <families>) " when only some did (by method family: a list of rankings reads badly);
    empty when none did."""
    runs = [r for r in rankings if r.id in sure.runs_resampled()]
    if not runs:
        return ""
    if len(runs) == len(rankings):
        return "and of their runs "
    return f"(and of the runs for the {join_words(list(dict.fromkeys(r.family for r in runs)))}) "


SPLIT = 0.5
"""``p_first`` at or below which a leader is "not clearly ahead" (the bottom line's rule)."""


def _percent(value: float) -> str:
    """A share in whole percent; never "100 %" or "0 %" for a share that is not exactly 1 or 0
    (0.9985 is "over 99 %": a bootstrap that once put another algorithm first is not certain),
    and never the whole percent of a threshold the bottom line's rules use (:data:`SPLIT`,
    :data:`CONFIDENT`) for a share that is not exactly it: 0.89625 is "89.6 %", since "90 %"
    beside "with moderate confidence" reads as a contradiction of the 90 % rule."""
    if 0.995 <= value < 1.0:
        return "over 99 %"
    if 0.0 < value < 0.005:
        return "under 1 %"
    text = f"{100 * value:.0f}"
    for threshold in (SPLIT, CONFIDENT):
        digits = 1
        while value != threshold and float(text) == 100 * threshold and digits <= 4:
            text = f"{100 * value:.{digits}f}"
            digits += 1
    return f"{text} %"


def synthesise(
    rankings: Sequence[Ranking],
    algorithms: Sequence[str],
    labels: Labels,
    *,
    outcomes: Sequence[tuple[str, str, Any]] = (),
    resamples: int = RESAMPLES,
    seed: int = SEED,
    problem_groups: Mapping[str, Sequence[str]] | None = None,
) -> SynthesisResult:
    """Compare every ranking the analyses produce; derive the bottom line and the findings.

    Parameters
    ----------
    rankings : sequence of Ranking
        Every analysis's rankings, in study order (each analysis kind's synthesis adapter,
        bound in :mod:`reportgen.registry`, produces them from its result).
    algorithms : sequence of str
        Study order.
    labels : Labels
        Display labels of algorithms.
    outcomes : sequence of (kind, analysis id, result)
        The analyses' results, for the head-to-head's per-problem comparisons.
    resamples, seed : int
        The bootstrap of :mod:`reportgen.synthesis.uncertainty`.
    problem_groups : mapping, optional
        The study's function groups (``problems.groups``): the head-to-head per group.
    """
    rankings = list(rankings)
    ranks = rank_frame(rankings, list(algorithms))
    counted = [r for r in rankings if r.counted]
    agree = agreement(counted)
    sure = uncertainty(rankings, resamples, seed)
    evidence = _Evidence.of(counted, algorithms)
    contenders = evidence.contenders()
    pairs = [
        h
        for b in contenders
        if (h := head_to_head(evidence.leaders[0], b, outcomes, counted, problem_groups))
        is not None
    ]
    if len(evidence.leaders) == 1:
        # Algorithms the rankings place lower but a problem table does not separate from the
        # leader: compared from that table (its tests are what the bottom line then cites).
        pairs += [
            h
            for b in not_separated_by_tables(evidence.leaders[0], outcomes)
            if b not in contenders
            and (h := from_problem_tables(evidence.leaders[0], b, outcomes, problem_groups))
            is not None
        ]
    if len(evidence.leaders) == 2:
        tie = head_to_head(
            evidence.leaders[0], evidence.leaders[1], outcomes, counted, problem_groups
        )
        pairs = [tie] if tie is not None else []
    bottom = _bottom_line(rankings, evidence, sure, pairs, labels)
    # (table, reference, algorithm) rows that rule 8 states: a head-to-head from that table
    # does not state them again.
    stated = {
        (analysis_id, result.reference, a)
        for kind, analysis_id, result in outcomes
        if kind == "problem_table"
        for a in _reference_named(result, evidence, labels)
    }
    findings = _findings(
        rankings,
        evidence,
        agree,
        sure,
        pairs,
        labels,
        bottom_line=bottom.text if bottom else "",
        stated=stated,
    )
    findings += [
        finding
        for kind, analysis_id, result in outcomes
        if kind == "problem_table"
        and (finding := _against_reference(analysis_id, result, evidence, labels)) is not None
    ]
    return SynthesisResult(
        tuple(algorithms),
        tuple(rankings),
        ranks,
        agree,
        tuple(findings),
        uncertainty=sure,
        bottom_line=bottom,
        head_to_heads=tuple(pairs),
    )


@dataclass(frozen=True)
class _Evidence:
    """Counted rankings by family, each family's first place and the leaders.

    Lists of algorithms that are no ranking (tied leaders, the algorithms a lead is not
    significant over) are kept in study order, the order of the report's tables and of the
    findings that list them too: sorted by name they read "LSHADE-SPACMA, RB-IPOP-CMA-ES and
    jSO" (upper case first) above a finding saying "jSO, LSHADE-SPACMA and RB-IPOP-CMA-ES",
    and an order that differs from one list to the next reads as a ranking.
    """

    families: dict[str, list[Ranking]]
    family_first: dict[str, list[str]]
    votes: dict[str, list[str]]  # algorithm → families that put it first
    leaders: list[str]
    position: dict[str, int]  # study order

    @classmethod
    def of(cls, counted: Sequence[Ranking], algorithms: Sequence[str]) -> _Evidence:
        position = {a: k for k, a in enumerate(algorithms)}
        families: dict[str, list[Ranking]] = {}
        for r in counted:
            families.setdefault(r.family, []).append(r)
        family_first: dict[str, list[str]] = {}
        votes: dict[str, list[str]] = {}
        for family, members in families.items():
            count: dict[str, int] = {}
            for r in members:
                for a in r.first:
                    count[a] = count.get(a, 0) + 1
            most = max(count.values())
            family_first[family] = sorted(
                (a for a, c in count.items() if c == most), key=position.__getitem__
            )
            for a in family_first[family]:
                votes.setdefault(a, []).append(family)
        top = max((len(v) for v in votes.values()), default=0)
        leaders = (
            sorted((a for a, v in votes.items() if len(v) == top), key=position.__getitem__)
            if top
            else []
        )
        return cls(families, family_first, votes, leaders, position)

    def mean_rank(self, family: str, algorithm: str) -> float:
        values = [r.ranks[algorithm] for r in self.families[family] if algorithm in r.ranks]
        return sum(values) / len(values) if values else math.inf

    def contenders(self) -> list[str]:
        """The best other algorithm of each family: those best in the most families first,
        then by their mean rank over the families (the nearest to the leader overall); at most
        two, unless more tie exactly at the second place — then all of them, since dropping
        one by its name (as the alphabetical order once did) would pick whom the leader is
        compared with by spelling, not by the evidence."""
        if len(self.leaders) != 1:
            return []
        leader = self.leaders[0]
        picks: dict[str, int] = {}
        for family, members in self.families.items():
            others = sorted({a for r in members for a in r.ranks if a != leader})
            if not others:
                continue
            mean = {a: self.mean_rank(family, a) for a in others}
            best = min(mean.values())
            for a in others:
                if mean[a] == best:
                    picks[a] = picks.get(a, 0) + 1

        def key(a: str) -> tuple[int, float]:
            ranks = [m for f in self.families if math.isfinite(m := self.mean_rank(f, a))]
            return -picks[a], sum(ranks) / len(ranks)

        ranked = sorted(picks, key=lambda a: (key(a), self.position[a]))
        return [a for a in ranked if len(ranked) <= 2 or key(a) <= key(ranked[1])]


def _family_text(family: str, rankings: Sequence[Ranking], ids: Sequence[str]) -> str:
    shown = [r.label + (" (tied)" if len(r.first) > 1 else "") for r in rankings if r.id in ids]
    return f"{family} ({join_words(shown)})"


def _findings(
    rankings: list[Ranking],
    evidence: _Evidence,
    agree: Agreement,
    sure: Uncertainty,
    pairs: list[HeadToHead],
    labels: Labels,
    bottom_line: str = "",
    stated: Collection[tuple[str, str, str]] = (),
) -> list[Finding]:
    """The summary's findings, by the module's rules 1–7; ``bottom_line`` is the bottom line's
    text (a caveat it states, or points to, is not stated or pointed to again); ``stated`` the
    (problem table, reference, algorithm) rows rule 8 states."""
    said = _Said(bottom_line)
    out: list[Finding] = []
    counted = [r for r in rankings if r.counted]
    n_families = len(evidence.families)
    # Rule 1: first places by family.
    for algorithm, families in sorted(
        evidence.votes.items(), key=lambda kv: (-len(kv[1]), evidence.position[kv[0]])
    ):
        ids = [
            r.id
            for f in families
            for r in evidence.families[f]
            if algorithm in r.first and r.separates
        ]
        parts = [_family_text(f, evidence.families[f], ids) for f in families]
        name = labels.label(algorithm)
        if len(families) == n_families and len(evidence.votes) == 1:
            text = (
                f"Every method family puts {name} first: {join_words(parts)}."
                if n_families > 1
                else f"{name} is first by the only method family, {parts[0]}."
            )
            key = "summary.consensus"
        else:
            text = f"{name} is first by {len(families)} of {n_families} method families: {join_words(parts)}."
            if len(families) == 1:
                text = f"{name} is first by {parts[0]}."
            measured = [MEASURES[f] for f in families if f in MEASURES]
            if algorithm not in evidence.leaders and measured:
                text = (
                    text[:-1]
                    + f"; {'this family ranks' if len(families) == 1 else 'these families rank'} by "
                    f"{join_words(measured)}."
                )
            key = f"summary.first.{algorithm}"
        text += _caveat((r for r in counted if r.id in ids), labels, said)
        out.append(
            Finding(
                key, text, {"algorithm": algorithm, "families": list(families), "rankings": ids}
            )
        )
    # Rule 2: shared first places.
    for r in counted:
        if len(r.first) > 2:
            out.append(
                Finding(
                    f"summary.shared_first.{r.id}",
                    f"{r.label} puts {len(r.first)} algorithms jointly first: "
                    f"{_names(r.first, labels)}.{_caveat([r], labels, said)}",
                    {"ranking": r.id, "algorithms": r.first},
                )
            )
    # Rule 3: significance of the best algorithm's lead.
    for r in counted:
        finding = _significance(r, labels, said, evidence.position)
        if finding is not None:
            out.append(finding)
    # Rule 4: what is not counted, and why.
    for r in rankings:
        if r.counted:
            continue
        reason = (
            "it ties every algorithm"
            if r.status == DEGENERATE
            else f"its test is inconclusive: {r.note}"
        )
        out.append(
            Finding(
                f"summary.not_counted.{r.id}",
                f"Not counted: {r.label} — {reason}.",
                {"ranking": r.id, "status": r.status},
            )
        )
    # Rule 5: agreement among counted rankings.
    agreement_finding = _agreement(counted, agree)
    if agreement_finding is not None:
        out.append(agreement_finding)
    # Rule 6: head-to-head.
    out.extend(_head_to_head_finding(h, labels, stated) for h in pairs)
    # Rule 7: how sure the leader's first places are.
    if len(evidence.leaders) == 1:
        leader = evidence.leaders[0]
        counted_ids = {r.id for r in counted}
        table = [
            rows[leader]
            for ranking_id, rows in sure.by_ranking(ALL).items()
            if ranking_id in counted_ids and leader in rows
        ]
        if table:
            label = {r.id: r.label for r in rankings}
            parts = [
                f"{_percent(row.p_first)} by {label[row.ranking]} (95 % rank interval "
                f"{_interval(row.rank_low, row.rank_high)}{_by_group(sure, row.ranking, leader)})"
                for row in table
            ]
            out.append(
                Finding(
                    "summary.uncertainty",
                    f"How sure: over {sure.resamples} bootstrap resamples of the problems "
                    f"{_runs_words(sure, [r for r in counted if r.id in {row.ranking for row in table}])}(seed "
                    f"{sure.seed}), {labels.label(leader)} ranks first in {join_words(parts)}."
                    + _caveat(
                        (r for r in counted if r.id in {row.ranking for row in table}),
                        labels,
                        said,
                    ),
                    {
                        "algorithm": leader,
                        "p_first": {row.ranking: round(row.p_first, 4) for row in table},
                        "p_first_by_group": {
                            row.ranking: {
                                g: round(sure.p_first(row.ranking, leader, g), 4)
                                for g in sure.groups(row.ranking)
                            }
                            for row in table
                            if sure.groups(row.ranking)
                        },
                    },
                )
            )
    return out


def _against_reference(
    analysis_id: str, table: ProblemTableResult, evidence: _Evidence, labels: Labels
) -> Finding | None:
    """Rule 8: the problem table's W/T/L against its reference and the median A12, for the
    leaders, the contenders and every algorithm worse than the reference on fewer than half the
    problems (at most MAX_NAMED, the best placed); the rest summarised by the range of their
    losses."""
    rows = table.against_reference()
    if not table.tested or not rows:
        return None
    reference = labels.label(table.reference)
    a12 = {a: table.median_a12(a) for a in rows}
    n = {a: w.wins + w.ties + w.losses for a, w in rows.items()}
    named = _reference_named(table, evidence, labels)
    others = [a for a in rows if a not in named]
    correction = {"holm": "Holm", "bonferroni": "Bonferroni", "none": "no"}[table.correction]
    parts = [
        f"{labels.label(a)} {rows[a].wins}/{rows[a].ties}/{rows[a].losses} of {n[a]}"
        + ("" if math.isnan(a12[a]) else f" (median A12 {fixed(a12[a])}, {a12_magnitude(a12[a])})")
        for a in named
    ]
    text = (
        f"Against {reference}, the reference of {_table_name(analysis_id)} (two-sided "
        f"Mann–Whitney U test per problem, {correction} correction over problems, α = "
        f"{table.alpha:g}; A12 is the probability that a run of the algorithm beats a run of "
        f"{reference}, ties counting half), problems significantly better / not different / "
        "worse: "
        f"{'; '.join(parts) if parts else 'none holds its own'}"
    )
    numbers: dict[str, Any] = {
        "analysis": analysis_id,
        "reference": table.reference,
        "rows": {
            a: {
                "wins": rows[a].wins,
                "ties": rows[a].ties,
                "losses": rows[a].losses,
                "median_a12": None if math.isnan(a12[a]) else round(a12[a], 2),
            }
            for a in named
        },
    }
    if others:
        losses = sorted(rows[a].losses for a in others)
        problems = sorted({n[a] for a in others})
        spread = [v for a in others if not math.isnan(v := a12[a])]
        low, high = losses[0], losses[-1]
        # One algorithm left over is named: "the other algorithm" leaves the reader to work
        # out which of the study's algorithms it is.
        subject = (
            f"the other {len(others)} algorithms are"
            if len(others) > 1
            else f"{labels.label(others[0])} is"
        )
        text += (
            f"; {subject} significantly worse on {low if low == high else f'{low}–{high}'} of "
            f"{''.join(f'{p}–' for p in problems[:-1])}{counted(problems[-1], 'problem')}"
        )
        if spread:
            top_a12 = max(spread)
            bound = "at most " if len(spread) > 1 else ""
            text += f" (median A12 {bound}{fixed(top_a12)}, {a12_magnitude(top_a12)})"
        numbers["others"] = {
            "algorithms": others,
            "losses": [low, high],
            "max_median_a12": round(max(spread), 2) if spread else None,
        }
    return Finding(f"summary.problem_table.{analysis_id}", text + ".", numbers)


def _reference_named(table: ProblemTableResult, evidence: _Evidence, labels: Labels) -> list[str]:
    """The algorithms rule 8 names with their W/T/L against ``table``'s reference: the leaders,
    the contenders and every algorithm worse on fewer than half the problems, the best placed
    first, at most MAX_NAMED (the rest join the summarised others); none for an untested
    table."""
    rows = table.against_reference()
    if not table.tested or not rows:
        return []
    top = set(evidence.leaders) | set(evidence.contenders())
    a12 = {a: table.median_a12(a) for a in rows}
    n = {a: w.wins + w.ties + w.losses for a, w in rows.items()}
    # Ties in balance and A12 keep study order: by label, the spelling decided who came first
    # and, beyond MAX_NAMED, who was named at all.
    named = sorted(
        (a for a, w in rows.items() if a in top or 2 * w.losses < n[a]),
        key=lambda a: (rows[a].losses - rows[a].wins, -a12[a], evidence.position.get(a, 0)),
    )
    return named[:MAX_NAMED]


def _by_group(sure: Uncertainty, ranking: str, algorithm: str) -> str:
    """``; D=10: 31 %, D=20: 71 %`` — p_first within each dimension, where resampled."""
    groups = sure.groups(ranking)
    if not groups:
        return ""
    return "; " + ", ".join(f"{g}: {_percent(sure.p_first(ranking, algorithm, g))}" for g in groups)


def _interval(low: float, high: float) -> str:
    return f"{low:.0f}" if low == high else f"{low:.0f}–{high:.0f}"


def _significance(
    r: Ranking,
    labels: Labels,
    said: _Said | None = None,
    position: Mapping[str, int] | None = None,
) -> Finding | None:
    """Rule 3 for one ranking. Its verdict caveat's pointer ends the sentence unless the bottom
    line (``said``) already ends with it: the full caveat is in the report's caveat list and
    in the finding's numbers, and said once is enough."""
    said = said if said is not None else _Said()
    best = [a for a, v in r.verdicts.items() if v == BEST]
    if not best:
        return None
    reference = best[0]
    # The lists in study order (``position``), as :class:`_Evidence` keeps every list that is
    # no ranking: in the order of a test's table (Holm's, largest difference first) cec2022
    # read "its lead over NL-MID, IMPML, jSObin, IUMO, NL-LBC and S-DP", the bottom line the
    # same algorithms in study order.
    order = position or {}

    def in_study_order(verdict: str) -> list[str]:
        named = (a for a, v in r.verdicts.items() if v == verdict)
        return sorted(named, key=lambda a: order.get(a, len(order)))

    worse = [a for a, v in r.verdicts.items() if v == WORSE]
    same = in_study_order(NOT_SIGNIFICANT)
    unclear = in_study_order(INCONCLUSIVE)
    tested = len(worse) + len(same)
    if len(r.first) > 1:
        # A shared first place: the test's reference is one of equals, not a winner.
        head = f"By {r.significance}, {_names(r.first, labels)} share first place; against {labels.label(reference)}, the test's reference,"
        if worse:
            text = (
                f"{head} {len(worse)} of {counted(tested, 'algorithm')} "
                f"{'is' if len(worse) == 1 else 'are'} significantly worse."
            )
        else:
            text = f"{head} no algorithm is significantly worse."
    else:
        head = f"By {r.significance}, {labels.label(reference)}"
        if worse and not same:
            text = f"{head} is significantly better than {'every other algorithm' if not unclear else f'{len(worse)} of {tested + len(unclear)} algorithms'}."
        elif not worse and same:
            text = f"{head} is best, but its lead over {'every other algorithm' if not unclear else _names(same, labels)} is not significant."
        elif not worse:
            text = f"{head} is best; no test separates it from another algorithm."
        else:
            text = (
                f"{head} is significantly better than {len(worse)} of {tested + len(unclear)} algorithms; "
                f"its lead over {_names(same, labels)} is not significant."
            )
    if unclear:
        # Untested pairs are neither a significant lead nor a tie (e.g. equal shares solved
        # on confidence-bound profiles, where the test compares nothing else).
        text = text.removesuffix(".") + (
            f"; the test is inconclusive for {_names(unclear, labels)}."
            if len(unclear) <= 3
            else f"; the test is inconclusive for {len(unclear)} others."
        )
    pointer = r.verdict_pointer if r.verdict_pointer not in said.bottom_line else ""
    return Finding(
        f"summary.significance.{r.id}",
        text + _caveat([r], labels, said) + (f" {pointer}" if pointer else ""),
        {
            "ranking": r.id,
            "best": reference,
            "significantly_worse": worse,
            "not_significant": same,
            "inconclusive": unclear,
        }
        | ({"verdict_caveat": r.verdict_caveat} if r.verdict_caveat else {}),
    )


def _agreement(counted: list[Ranking], agree: Agreement) -> Finding | None:
    label = {r.id: r.label for r in counted}
    tau = agree.tau
    pairs = [
        (tau.index[i], tau.columns[j], float(tau.iat[i, j]))
        for i in range(len(tau))
        for j in range(i + 1, len(tau))
        if not math.isnan(float(tau.iat[i, j]))
    ]
    if not pairs:
        return None
    most = max(pairs, key=lambda p: p[2])
    least = min(pairs, key=lambda p: p[2])
    # Rankings of one family rank the same data (cec2017: six rankings of the final values,
    # "All 6 counted rankings order the algorithms identically"): their agreement is said to be
    # no independent confirmation, as the summary's preamble says they are one line of evidence.
    family = {r.id: r.family for r in counted}
    families = set(family.values())
    if len(counted) == 2:
        text = f"The two rankings agree with Kendall's τ = {fixed(most[2])}"
    elif len(pairs) == 1:
        text = (
            f"Of the {len(counted)} rankings only {label[most[0]]} and {label[most[1]]} can be "
            f"compared: Kendall's τ = {fixed(most[2])}"
        )
    elif most[2] == least[2]:
        text = (
            f"All {len(counted)} counted rankings order the algorithms identically (Kendall's τ = {fixed(most[2])} for every pair)"
            if most[2] == 1.0
            else f"Every compared pair of the {len(counted)} rankings has Kendall's τ = {fixed(most[2])}"
        )
    else:
        same = (
            f", both {family[most[0]]}"
            if len(families) > 1 and family[most[0]] == family[most[1]]
            else ""
        )
        text = (
            f"Of the {len(counted)} counted rankings, {label[most[0]]} and {label[most[1]]} agree most "
            f"(Kendall's τ = {fixed(most[2])}{same}) and {label[least[0]]} and {label[least[1]]} least "
            f"(τ = {fixed(least[2])})"
        )
    if len(families) == 1 and len(counted) > 1:
        text += (
            f" — all of one method family ({next(iter(families))}), so their agreement is no "
            "independent confirmation"
        )
    # Unordered pairs, counted once (vectorised: 500 algorithms flip ~10⁵ pairs).
    named = agree.flips[["algorithm_1", "algorithm_2"]].astype(str).to_numpy()
    flipped = len(pd.DataFrame(np.sort(named, axis=1)).drop_duplicates()) if len(named) else 0
    text += (
        "; no pair of algorithms changes order between any two rankings."
        if not flipped
        else f"; {flipped} pair{'s' if flipped != 1 else ''} of algorithms "
        f"change{'s' if flipped == 1 else ''} order between some two rankings."
    )
    return Finding(
        "summary.agreement",
        text,
        {
            "rankings": len(counted),
            "most": {"rankings": [most[0], most[1]], "tau": round(most[2], 2)},
            "least": {"rankings": [least[0], least[1]], "tau": round(least[2], 2)},
            "flipped_pairs": int(flipped),
        },
    )


def _named(analysis_id: str, default: str) -> str:
    """Nothing for an analysis with its kind's default id, `` (<id>)`` otherwise."""
    return "" if analysis_id == default else f" ({analysis_id})"


def _table_name(analysis_id: str) -> str:
    """``the problem table`` (the default id) or ``the problem table <id>``."""
    return "the problem table" + ("" if analysis_id == "problem_table" else f" {analysis_id}")


def _a12(value: float) -> str:
    """``0.62 (medium)``: an A12 with Vargha–Delaney's magnitude word."""
    return f"{fixed(value)} ({a12_magnitude(value)})"


# The U-score head-to-head counts problems where Mann–Whitney on the trials' dominance order
# (speed, then accuracy) is significant at the analysis's alpha, without correction over
# problems; a problem table tests final values with Holm over problems and can count fewer.
# The sentence says so, so that the two counts printed side by side do not read as a
# contradiction.
_UNCORRECTED = (
    "per-problem Mann–Whitney U on the trials' speed-and-accuracy order, not corrected over "
    "problems; a problem table tests final values with a correction and can count fewer"
)


def _where(group: str) -> str:
    """How a breakdown row's problems are named in a sentence."""
    if group == ALL_PROBLEMS:
        return "over all problems"
    return f"at {group}" if group.startswith("D=") else f"on the {group} problems"


def _split_text(h: HeadToHead, labels: Labels, rows: Sequence[PairGroup]) -> str:
    """Who is ahead where, by problems won: ``"indistinguishable at D=10 (5–7) and D=20
    (6–6)"`` or ``"EA4 ahead at D=20 (10–2, p = 0.0386); indistinguishable at D=10 (5–7)"``."""
    ahead: dict[str, list[str]] = {}
    even, untested = [], []
    for g in rows:
        count = f"{g.wins_a}–{g.wins_b}"
        if g.ahead:
            ahead.setdefault(g.ahead, []).append(
                f"{_where(g.group)} ({count}, p = {format_p(g.sign_p)})"
            )
        elif g.testable:
            even.append(f"{_where(g.group)} ({count})")
        else:
            untested.append(f"{_where(g.group)} ({count})")
    parts = [f"{labels.label(x)} ahead {join_words(where)}" for x, where in ahead.items()]
    if even:
        parts.append(f"indistinguishable {join_words(even)}")
    if untested:
        # A sign test over fewer than sign_test_needs(α) problems cannot reject: no verdict.
        parts.append(
            f"too few problems won to test {join_words(untested)} — the sign test needs "
            f"{sign_test_needs(h.alpha)} to reach α = {h.alpha:g}"
        )
    return "; ".join(parts)


def _breakdown_sentence(h: HeadToHead, labels: Labels) -> str:
    """The head-to-head by problems won, from the summary's head-to-head table."""
    if not h.breakdown:
        return ""
    a, b = labels.label(h.a), labels.label(h.b)
    return (
        f" Problems won ({a}–{b}; a problem goes to the one with "
        + ("more trial comparisons won" if not math.isnan(h.share_a) else "A12 on its side")
        + f"; two-sided sign test over the problems won, α = {h.alpha:g}; table 'Head to head'): "
        + _split_text(h, labels, h.breakdown)
        + "."
    )


def _significantly_better(h: HeadToHead, a: str, b: str) -> str:
    """``"A is significantly better on 7 and B on 14 of 24 problems"``; where neither is on
    any problem, says so rather than "on 0 and B on 0"."""
    if h.significant_a == h.significant_b == 0:
        return f"neither is significantly better than the other on {any_of(h.problems, 'problem')}"
    return (
        f"{a} is significantly better on {h.significant_a} and {b} on {h.significant_b} of "
        f"{counted(h.problems, 'problem')}"
    )


def _head_to_head_finding(
    h: HeadToHead, labels: Labels, stated: Collection[tuple[str, str, str]] = ()
) -> Finding:
    """Rule 6 for one pair. From a problem table whose rule-8 sentence states the pair's
    per-problem tests (one of them is its reference, the other named there), the sentence
    leaves them to it and keeps what only it says, the problems won: perspectives_cec2022 said
    "jSO is significantly better on 4 and NLSHADE-RSP on 2 of 12 problems; the median A12 ...
    is 0.42" here and "NLSHADE-RSP 2/6/4 of 12 (median A12 0.42, small)" two bullets on."""
    a, b = labels.label(h.a), labels.label(h.b)
    reference = next((x for x, y in ((h.a, h.b), (h.b, h.a)) if (h.source, x, y) in stated), None)
    if h.test and reference is not None:
        text = (
            f"Head to head in {_table_name(h.source)}, {a} against {b} (per-problem tests and "
            f"median A12: see 'Against {labels.label(reference)}' below)."
        )
    elif h.test:
        text = (
            f"Head to head in {_table_name(h.source)} ({h.test}), {a} against {b}: "
            + _significantly_better(h, a, b)
        )
        if h.by_group:
            text += (
                " ("
                + "; ".join(f"{g}: {sa} vs {sb} of {n}" for g, _, sa, sb, n in h.by_group)
                + ")"
            )
        if not math.isnan(h.a12_b):
            text += f"; the median A12 of {b} against {a} is {_a12(h.a12_b)}"
        text += "."
    elif h.tested:
        text = (
            f"Head to head in the U-scores' trial comparisons{_named(h.source, 'u_scores')}, {a} against {b}: {a} wins {_percent(h.share_a)} of the "
            f"trial comparisons; {_significantly_better(h, a, b)}"
        )
        if h.by_group:
            text += (
                " ("
                + "; ".join(f"{g}: {sa} vs {sb} of {n}" for g, _, sa, sb, n in h.by_group)
                + ")"
            )
        text += f" ({_UNCORRECTED})."
        behind = h.significant_b > h.significant_a or h.share_a < 0.5
        if behind and h.total_a > h.total_b:
            # The totals as the U-score table prints them (186378.5, not 186378).
            text += (
                f" {a} still leads on the total U-score ({u_text(h.total_a)} against "
                f"{u_text(h.total_b)}) through larger margins on fewer problems."
            )
        elif behind and h.total_a < h.total_b:
            text += (
                f" {b} also leads on the total U-score ({u_text(h.total_b)} against "
                f"{u_text(h.total_a)})."
            )
    else:
        text = (
            f"Head to head by {h.source}, {a} against {b}: {a} is ahead on {h.significant_a} and "
            f"{b} on {h.significant_b} of {counted(h.problems, 'problem')} (per-problem results, "
            "no test)."
        )
    text += _breakdown_sentence(h, labels)
    return Finding(
        f"summary.head_to_head.{h.a}.{h.b}",
        text,
        {
            "a": h.a,
            "b": h.b,
            "share_a": round(h.share_a, 2) if not math.isnan(h.share_a) else None,
            "significant_a": h.significant_a,
            "significant_b": h.significant_b,
            "problems": h.problems,
            "a12_b": None if math.isnan(h.a12_b) else round(h.a12_b, 2),
            "problems_won": {
                g.group: {
                    "a": g.wins_a,
                    "b": g.wins_b,
                    "sign_p": round(g.sign_p, 4),
                    "ahead": g.ahead,
                    "testable": g.testable,
                }
                for g in h.breakdown
            },
        },
    )


def _bottom_line(
    rankings: list[Ranking],
    evidence: _Evidence,
    sure: Uncertainty,
    pairs: list[HeadToHead],
    labels: Labels,
) -> Finding | None:
    if not rankings:
        return None
    counted = [r for r in rankings if r.counted]
    n_families = len(evidence.families)
    if not counted:
        reasons = []
        degenerate = [r.label for r in rankings if r.status == DEGENERATE]
        unclear = [r for r in rankings if r.status not in (DEGENERATE,) and not r.counted]
        if degenerate:
            reasons.append(
                "every ranking ties all the algorithms"
                if len(degenerate) == len(rankings)
                else f"{join_words(degenerate)} tie{'s' if len(degenerate) == 1 else ''} all the algorithms"
            )
        # Rankings inconclusive for the same reason (two perspectives on too few problems)
        # share one clause: the reason twice in a row reads as two findings.
        by_note: dict[str, list[str]] = {}
        for r in unclear:
            by_note.setdefault(r.note, []).append(r.label)
        for note, alike in by_note.items():
            reasons.append(
                f"{join_words(alike)} {'is' if len(alike) == 1 else 'are'} inconclusive ({note})"
            )
        return Finding(
            "summary.bottom_line",
            f"Bottom line: no algorithm is ahead — {'; '.join(reasons)}. The data cannot separate "
            "the algorithms; any order below is not evidence.",
            {"leaders": [], "counted_rankings": 0},
        )
    leaders = evidence.leaders
    numbers: dict[str, Any] = {"leaders": leaders, "families": n_families}
    if len(leaders) > 1:
        if n_families == 1:
            (family,) = evidence.families
            members = evidence.families[family]
            count = sum(leaders[0] in r.first for r in members)
            text = (
                f"Bottom line: no single algorithm is ahead — {_names(leaders, labels)} are each "
                f"first by {count} of the {len(members)} rankings of the only method family "
                f"({family})."
            )
        else:
            text = (
                f"Bottom line: no single algorithm is ahead — {_names(leaders, labels)} each lead "
                f"{len(evidence.votes[leaders[0]])} of {n_families} method families."
            )
        if pairs:
            text += f" Head to head, {_challenge(pairs[0], labels)}."
        return Finding("summary.bottom_line", text, numbers)
    leader = leaders[0]
    name = labels.label(leader)
    firsts = evidence.votes[leader]
    # p_first of the leader by the rankings that put it first (how sure those first places are).
    p = [
        value
        for r in counted
        if leader in r.first and not math.isnan(value := sure.p_first(r.id, leader))
    ]
    numbers.update(
        {"leader": leader, "leader_families": list(firsts), "p_first": [round(v, 4) for v in p]}
    )
    shares = ""  # "in 93–99 % of bootstrap resamples …": where the leader ranks first
    if p:
        low, high = _percent(min(p)), _percent(max(p))
        span = (
            high
            if low == high
            else f"{low.removesuffix(' %')}–{high}"
            if low[0].isdigit()
            else f"{low} to {high}"  # "over 99 % to 100 %"
        )
        resampled = [
            r for r in counted if leader in r.first and not math.isnan(sure.p_first(r.id, leader))
        ]
        runs = _runs_words(sure, resampled).strip()
        shares = f"in {span} of bootstrap resamples of the problems" + (f" {runs}" if runs else "")
        split = next(
            (r for r in counted if leader in r.first and sure.groups(r.id)),
            None,
        )
        if split is not None:
            # "within one dimension": the span before is over all problems; a lower share
            # in a dimension alone read as contradicting it.
            shares += (
                f" (within one dimension, by {split.label}: "
                + ", ".join(
                    f"{g} {_percent(sure.p_first(split.id, leader, g))}"
                    for g in sure.groups(split.id)
                )
                + ")"
            )
    p_text = f"ranks first {shares}" if shares else ""
    family_text = f"first by {len(firsts)} of {n_families} method families ({join_words(firsts)})"
    if len(firsts) == n_families:
        family_text = (
            f"first by {'both' if n_families == 2 else f'all {n_families}'} method families "
            f"({join_words(firsts)})"
        )
    if n_families == 1:
        family_text = f"first by the only method family ({firsts[0]})"
    elsewhere = {a: f for a, f in evidence.votes.items() if a != leader}
    # Each with the caveats of the rankings that put it first, as the leader's first places
    # have theirs: cec2022's "S-DP is first by the profiles family" held at τ = 10⁻⁵ only.
    elsewhere_text = " ".join(
        f"{_names([a], labels)} is first by the {join_words(f)} famil{'y' if len(f) == 1 else 'ies'}, "
        f"which rank{'s' if len(f) == 1 else ''} by {join_words([MEASURES.get(x, x) for x in f])}."
        + _caveat((r for x in f for r in evidence.families[x] if a in r.first), labels)
        for a, f in sorted(elsewhere.items(), key=lambda kv: evidence.position[kv[0]])
    )
    # Algorithms that no test finds significantly worse than the leader.
    tested = [r for r in counted if r.verdicts.get(leader) == BEST]
    unseparated = sorted(
        set.intersection(
            *({a for a, v in r.verdicts.items() if v == NOT_SIGNIFICANT} for r in tested)
        )
        if tested
        else set(),
        key=evidence.position.__getitem__,
    )
    numbers["not_separated"] = unseparated
    # "No test finds it better" was read against the whole report: a problem table's sign test
    # that puts the leader ahead of the same algorithm contradicted it. The sentence names the
    # tests it rests on (those of the verdict matrix) and then the head-to-head that disagrees.
    unseparated_text = (
        f"its lead over {_names(unseparated, labels)}"
        if len(unseparated) <= 3
        else f"its lead over {len(unseparated)} others"
    ) + " is not significant in any test of the verdict matrix"
    challengers = [h for h in pairs if h.share_a < 0.5 or h.significant_b > h.significant_a]
    numbers["challengers"] = [h.b for h in challengers]
    # A problem table (``h.test``) in which the other is significantly better on as many
    # problems as the leader (more makes it a challenger): the leader is not recommended over
    # it without a word (bbob_coco: DIRECT, first by the runtime ECDF area, and R-SHADE-10e2,
    # 3 problems each at the common budget). One the verdict matrix already names is not
    # named twice.
    even = [
        h for h in pairs if h.test and h.significant_b == h.significant_a and h.b not in unseparated
    ]
    numbers["not_separated_by_table"] = [h.b for h in even]
    reservations = [unseparated_text] if unseparated else []
    for source in dict.fromkeys(h.source for h in even):
        same_table = [h for h in even if h.source == source]
        reservations.append(
            f"{_table_name(source)} does not separate it from "
            + join_words(
                [
                    f"{labels.label(h.b)} ({_even_counts(h)}"
                    + ("; table 'Head to head')" if h is same_table[-1] else ")")
                    for h in same_table
                ]
            )
        )
    # Head-to-heads whose sign test over all problems puts the leader ahead: a test of its
    # lead too (over that algorithm).
    ahead = [
        (h, row)
        for h in pairs
        for row in h.breakdown
        if row.group == ALL_PROBLEMS and row.ahead == leader
    ]
    ahead_anyway = [(h, row) for h, row in ahead if h.b in unseparated or h in even]
    numbers["ahead_head_to_head"] = [h.b for h, _ in ahead_anyway]
    reservation_text = "; ".join(reservations) + "".join(
        f"; head to head, though, it wins more problems than {labels.label(h.b)} "
        f"({row.wins_a}–{row.wins_b}, sign test p = {format_p(row.sign_p)}; table 'Head to head')"
        for h, row in ahead_anyway
    )
    if challengers:
        h = challengers[0]
        text = (
            f"Bottom line: {name} or {labels.label(h.b)}. {name} is {family_text}"
            + (f" and {p_text}" if p_text else "")
            + f"; but head to head {_challenge(h, labels)}."
            + _dimension_split(h, labels)
        )
    elif reservations:
        text = f"Bottom line: {name} leads, but {reservation_text}. It is {family_text}" + (
            f" and {p_text}." if p_text else "."
        )
        text += "".join(
            " " + c for c in dict.fromkeys(r.verdict_pointer for r in tested if r.verdict_pointer)
        )
        numbers["verdict_caveats"] = list(
            dict.fromkeys(r.verdict_caveat for r in tested if r.verdict_caveat)
        )
    elif p and max(p) <= SPLIT:
        text = (
            f"Bottom line: no algorithm is clearly ahead. {name} is {family_text}, but it {p_text}."
        )
    elif not tested and not ahead:
        # No test of the lead: "the recommendation" on a bootstrap of one untested ranking
        # (published_table: EA4eig by the expected probabilistic profile, ρ̄(100) 1.00
        # against 0.99, a normal model of printed means) claimed more than any number shows.
        shown = join_words([r.label for r in counted if leader in r.first])
        text = (
            f"Bottom line: {name} ranks first by the {shown}"
            + (", the only counted ranking" if len(counted) == 1 else f", {family_text}")
            + (
                # "and in 89.6 % of …": the sentence has said "ranks first" already
                f", and {shares}; no test measures whether its lead is significant."
                if shares
                else "; no test or bootstrap measures how sure that first place is."
            )
        )
    elif len(firsts) == n_families and (not p or min(p) >= CONFIDENT):
        text = (
            f"Bottom line: {name} is the recommendation. {_every_family(firsts)} puts it first "
            f"({len(counted)} counted ranking{'s' if len(counted) != 1 else ''})"
            + (f", and it {p_text}." if p_text else ".")
        )
    elif len(firsts) == n_families:
        text = (
            f"Bottom line: {name}, with moderate confidence. {_every_family(firsts)} puts it first, "
            + (f"but it {p_text}." if p_text else "but without a bootstrap of its rankings.")
        )
    else:
        text = f"Bottom line: {name} leads, but the evidence is split. It is {family_text}" + (
            f" and {p_text}." if p_text else "."
        )
    if elsewhere_text:
        text += " " + elsewhere_text
    text += _caveat((r for r in counted if leader in r.first), labels)
    return Finding("summary.bottom_line", text, numbers)


def _even_counts(h: HeadToHead) -> str:
    """How a problem table's pair stands where neither is significantly better on more problems
    (a pair where the other is, is a challenger): ``each significantly better on 3 of 24
    problems``, or ``neither significantly better on any of 24 problems``."""
    if h.significant_a == 0:
        return f"neither significantly better on any of {counted(h.problems, 'problem')}"
    return f"each significantly better on {h.significant_a} of {counted(h.problems, 'problem')}"


def _every_family(firsts: Sequence[str]) -> str:
    """``Every method family`` — or, with one, ``The only method family (award points)``: a
    single family is not 'every' family."""
    return "Every method family" if len(firsts) > 1 else f"The only method family ({firsts[0]})"


def _dimension_split(h: HeadToHead, labels: Labels) -> str:
    """The bottom line's split by dimension (or over all problems in one dimension): who is
    ahead by problems won, from the head-to-head table."""
    rows = [g for g in h.breakdown if g.group.startswith("D=")] or [
        g for g in h.breakdown if g.group == ALL_PROBLEMS
    ]
    if not rows:
        return ""
    a, b = labels.label(h.a), labels.label(h.b)
    return f" By problems won ({a}–{b}, sign test): " + _split_text(h, labels, rows) + "."


def _challenge(h: HeadToHead, labels: Labels) -> str:
    """How the second algorithm of a pair holds its own against the first, from its side."""
    a, b = labels.label(h.a), labels.label(h.b)
    if h.test:
        return (
            f"{b} is significantly better on {h.significant_b} of "
            f"{counted(h.problems, 'problem')} and {a} "
            f"on {h.significant_a} ({h.test}, in {_table_name(h.source)})"
        )
    if not h.tested:
        return (
            f"{b} is ahead on {h.significant_b} of {counted(h.problems, 'problem')} by "
            f"{h.source} ({a} on {h.significant_a})"
        )
    text = (
        f"{b} wins {_percent(1 - h.share_a)} of the trial comparisons and is significantly better "
        f"on {h.significant_b} of {counted(h.problems, 'problem')} ({a} on {h.significant_a}"
    )
    if h.by_group:
        text += "; " + ", ".join(f"{g}: {sb} vs {sa}" for g, _, sa, sb, _ in h.by_group)
    text += f"; {_UNCORRECTED})"
    if h.total_a > h.total_b:
        text += f", so {a}'s lead on the total comes from larger margins on fewer problems"
    return text
