"""Sentences about the U-scores analysis (Price et al. §5.3: "EA4 wins overall; NL-LBC wins at
10-D; a weight of 4.77 on 20-D would swap ranks 3 and 4").

Rules
-----
- ``winner.total``: the best total (weighted total with weights), the runner-up and the margin;
  a shared first place is said so.
- ``winner.<group>``: the best total of each group, when there are several groups.
- ``critical_weight.<group>``: for the largest group (every group when there are more than
  two), the nearest weight above and below the current one at which two algorithms swap ranks,
  and the nearest at which the lead changes.
- ``pairwise.top``: the win/tie/loss count of the first against the second algorithm.
- ``difficulty.<group>``: the easiest and the hardest problem by functional U-score (groups
  with at least two problems).
- ``cutpoints.leader``: who leads at each cut-point (labelled with the fraction of the budget
  the recorded state actually holds), and whether the lead changes.
- ``success_times``: with histories, how many distinct times to target the successes have
  (records collapse them), and why trial data can rank differently.
"""

from __future__ import annotations

from reportgen.analyses.u_scores import UScoresResult
from reportgen.data.frames import problem_label
from reportgen.present.findings import MAX_NAMED, Finding, join_words
from reportgen.present.format import any_of, counted, share, u_text
from reportgen.present.labels import Labels


def weight_text(value: float) -> str:
    """A critical weight with three significant digits (Table 8 prints 4.77)."""
    return f"{value:.3g}"


def findings(result: UScoresResult, labels: Labels) -> list[Finding]:
    """Rule-generated sentences, each with the numbers it states."""
    out = [_winner(result, labels)]
    if len(result.groups) > 1:
        out.extend(_group_winner(result, labels, g) for g in result.groups)
    out.extend(_critical(result, labels))
    top = _top_pair(result, labels)
    if top is not None:
        out.append(top)
    out.extend(_difficulty(result, g) for g in result.groups if len(result.difficulties(g)) > 1)
    if result.cutpoints is not None:
        out.append(_cutpoints(result, labels))
    if result.success_times is not None and result.success_times[1] < result.success_times[0]:
        out.append(_success_times(result))
    return out


def _winner(result: UScoresResult, labels: Labels) -> Finding:
    column = result.ranking_column
    standings = result.standings()
    what = "weighted total" if column == "weighted_total" else "total"
    first = [s for s in standings if s.rank == 1]
    numbers: dict[str, object] = {"column": column}
    if len(first) > 1:
        names = [s.algorithm for s in first]
        value = first[0].score
        numbers.update({"algorithms": names, column: value})
        text = (
            f"{join_words([labels.label(a) for a in names], limit=MAX_NAMED)} share the first place with a {what} "
            f"U-score of {u_text(value)}."
        )
        return Finding("winner.total", text, numbers)
    best = standings[0]
    numbers.update({"algorithm": best.algorithm, column: best.score})
    text = f"{labels.label(best.algorithm)} has the highest {what} U-score ({u_text(best.score)})"
    if len(standings) > 1:
        second = standings[1]
        numbers.update({"runner_up": second.algorithm, "runner_up_" + column: second.score})
        text += f", ahead of {labels.label(second.algorithm)} ({u_text(second.score)})"
    return Finding("winner.total", text + ".", numbers)


def _group_winner(result: UScoresResult, labels: Labels, group: str) -> Finding:
    standings = result.standings()
    best_value = max(s.group_totals[group] for s in standings)
    names = [s.algorithm for s in standings if s.group_totals[group] == best_value]
    overall = standings[0]
    named = join_words([labels.label(a) for a in names], limit=MAX_NAMED)
    verb = "wins" if len(names) == 1 else "share the first place"
    text = f"At {group}, {named} {verb} with a U-score total of {u_text(best_value)}"
    if names != [overall.algorithm]:
        text += (
            f" (overall winner {labels.label(overall.algorithm)}: "
            f"{u_text(overall.group_totals[group])})"
        )
    return Finding(
        f"winner.{group}", text + ".", {"group": group, "algorithms": names, group: best_value}
    )


def _critical(result: UScoresResult, labels: Labels) -> list[Finding]:
    out = []
    for group in result.critical_groups():
        rows = result.critical_weights_of(group)
        base = next(r.weight for r in rows if r.baseline)
        swaps = [r for r in rows if not r.baseline]
        numbers: dict[str, object] = {"group": group, "baseline_weight": base}
        parts = []
        for side, ascending in (("above", True), ("below", False)):
            # Nearest first; the sort is stable, so equal weights keep the table's order.
            ordered = sorted(
                (r for r in swaps if r.side == side), key=lambda r: r.weight, reverse=not ascending
            )
            if not ordered:
                continue
            row = ordered[0]
            rank = row.rank_after or 0
            part = (
                f"a weight {side} {weight_text(row.weight)} would swap ranks {rank} and "
                f"{rank + 1} ({labels.label(row.passing)} would pass "
                f"{labels.label(row.passed)})"
            )
            numbers[f"weight_{side}"] = row.weight
            numbers[f"passing_{side}"] = row.passing
            numbers[f"passed_{side}"] = row.passed
            numbers[f"ranks_{side}"] = [rank, rank + 1]
            lead = [r for r in ordered if r.rank_after == 1]
            if rank != 1 and lead:
                first = lead[0]
                part += (
                    f", and {side} {weight_text(first.weight)} the lead would change "
                    f"({labels.label(first.passing)} would pass {labels.label(first.passed)})"
                )
                numbers[f"lead_change_{side}"] = first.weight
            parts.append(part)
        fixed = ", ".join(
            f"{g} at {weight_text(w)}" for g, w in result.current_weights().items() if g != group
        )
        numbers["swaps"] = len(swaps)
        if not parts:
            text = f"No weight of {group} changes the ranking."
        else:
            text = (
                f"Weighting {group} (now {weight_text(base)}; {fixed}): "
                + "; ".join(parts)
                + f". In all, {len(swaps)} pair{'' if len(swaps) == 1 else 's'} of algorithms "
                f"swap{'s' if len(swaps) == 1 else ''} ranks as the weight of {group} runs over "
                "(0, ∞)."
            )
        out.append(Finding(f"critical_weight.{group}", text, numbers))
    return out


def _top_pair(result: UScoresResult, labels: Labels) -> Finding | None:
    standings = result.standings()
    if len(standings) < 2:
        return None
    a, b = standings[0].algorithm, standings[1].algorithm
    record = result.pair_record(a, b, result.headline_group())
    wins, ties, losses = record.wins, record.ties, record.losses
    if wins == losses == 0:
        # Nothing separates them: naming one first would let study order decide.
        text = (
            f"By two-sided Mann–Whitney tests per problem at α = {result.alpha:g}, the top two "
            f"by total, {labels.label(a)} and {labels.label(b)}, do not differ significantly on "
            f"{any_of(ties, 'problem')}."
        )
    else:
        text = (
            f"By two-sided Mann–Whitney tests per problem at α = {result.alpha:g}, "
            f"{labels.label(a)} is significantly better than {labels.label(b)} on "
            f"{counted(wins, 'problem')}, "
            f"significantly worse on {losses} and not significantly different on {ties}."
        )
    return Finding(
        "pairwise.top",
        text,
        {"algorithm_a": a, "algorithm_b": b, "wins": wins, "ties": ties, "losses": losses},
    )


def _difficulty(result: UScoresResult, group: str) -> Finding:
    rows = result.difficulties(group)
    easiest, hardest = rows[0], rows[-1]
    start = "T" if group == "all" else f"At {group}, t"
    if group == "all":
        e_label = problem_label(easiest.problem, easiest.dimension)
        h_label = problem_label(hardest.problem, hardest.dimension)
    else:
        e_label, h_label = easiest.problem, hardest.problem
    if easiest.rank == hardest.rank:
        # Naming one problem easiest and another hardest at the same share would be false.
        text = (
            f"{start}he {len(rows)} problems are equally hard for these algorithms: the trials "
            f"of each win {share(easiest.share)} of their comparisons with the other problems' "
            "trials."
        )
    else:
        text = (
            f"{start}he easiest problem for these algorithms is {e_label} (its trials win "
            f"{share(easiest.share)} of their comparisons with the other problems' trials) "
            f"and the hardest {h_label} ({share(hardest.share)})."
        )
    return Finding(
        f"difficulty.{group}",
        text,
        {
            "group": group,
            "easiest": easiest.problem,
            "easiest_share": easiest.share,
            "hardest": hardest.problem,
            "hardest_share": hardest.share,
        },
    )


def _cutpoints(result: UScoresResult, labels: Labels) -> Finding:
    ranks = {c: result.ranks_at_cutpoint(c) for c in result.cutpoint_fractions()}
    leaders = {c: [a for a, r in at.items() if r == 1] for c, at in ranks.items()}
    sequence = "; ".join(
        f"{result.cutpoint_label(c)}: {join_words([labels.label(a) for a in names], limit=MAX_NAMED)}"
        for c, names in leaders.items()
    )
    first_ranks, last_ranks = ranks[min(ranks)], ranks[max(ranks)]
    changed = sum(r != last_ranks.get(a) for a, r in first_ranks.items())
    # One alone can move where ranks tie (two share rank 1, then one drops to 2).
    verb = "ends" if changed == 1 else "end"
    text = (
        f"Leader by fraction of the budget — {sequence}. {changed} of {len(first_ranks)} "
        f"algorithms {verb} on a different rank than at the first cut-point ({min(ranks):g})."
    )
    return Finding(
        "cutpoints.leader",
        text,
        {"leaders": {str(c): names for c, names in leaders.items()}, "rank_changes": changed},
    )


def _success_times(result: UScoresResult) -> Finding:
    successes, distinct = result.success_times or (0, 0)
    text = (
        f"The histories time a success only at their records: the {successes} trials that "
        f"reach the target have just {counted(distinct, 'distinct evaluation count')} to "
        "target, so "
        "successes that differ in speed between two records tie here. A U-score analysis of "
        "exact evaluations to target (trial data) can therefore rank the fast algorithms "
        "differently, also at the full budget."
    )
    return Finding(
        "success_times", text, {"successes": successes, "distinct_success_times": distinct}
    )
