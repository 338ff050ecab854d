"""Analyses of the same data that floor small values differently: a warning.

A floor (``value_floor`` of the problem table and the significance relation, ``cost_floor``
of the probabilistic profiles with ``cost: value``) makes every value below it equal. Two
analyses of the same data source with different floors — one at 10⁻⁸, another at 10⁻⁹ or
none — count different wins from the same numbers: published_table's profiles floored at
10⁻⁸ ("EA4eig wins most often", ρ(1) = 20/24) while its table did not ("best mean on 15 of
24"), side by side in one report without a word.

Decisions
---------
- Warned, not refused: a study may floor on purpose in one analysis only (e.g. a table that
  shows what the paper printed). The warning names both spec keys; ``accept: [floors_differ]``
  acknowledges it.
- Analyses share data when their ``data`` names a source in common (a ``select:`` is not
  looked at: analyses of different dimensions of one source still read the same values).
- Only kinds with a floor option are compared (:meth:`AnalysisOptions.value_floor_key`):
  the others (U-scores, perspectives, …) have no floor to align, so warning about them would
  be a warning no study could act on.
- A significance relation's ``value_shift`` counts as a treatment of small values of its own,
  different from every floor and from none: the relation compares ratios ``(v + c) / (v' + c)``
  and calls two values equal when that ratio is within ``relative_tolerance`` of 1, so a shift
  ``c`` makes values that differ by less than about ``relative_tolerance · c`` equal (1e-12 and
  1e-11 tie under a shift of 1), and compresses every ratio of values much smaller than ``c``
  towards the lowest award points. The warning names ``value_shift`` with its value; the same
  shift in two relations of one source agrees.
- One warning per group of analyses that disagree, whichever sources they share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportgen.spec.load import format_key_path
from reportgen.spec.study import Study

if TYPE_CHECKING:
    from reportgen.present.caveats import Caveat

CODE = "floors_differ"
"""The warning code (:mod:`reportgen.warning_codes`)."""


def floor_disagreements(study: Study) -> list[Caveat]:
    """One caveat per group of analyses that read a common data source with different floors.

    Parameters
    ----------
    study : Study
        The validated study.

    Returns
    -------
    list of Caveat
        Code ``floors_differ``; the message names each analysis's floor key
        (``analyses[0].cost_floor``) with its value or "not set".
    """
    # Imported here: reportgen.present loads pandas, which reading a spec does not need.
    from reportgen.present.caveats import Caveat
    from reportgen.present.findings import join_words
    from reportgen.present.format import power_of_ten

    floors: list[tuple[int, str, float | None, set[str]]] = []
    for index, options in enumerate(study.analyses):
        key = options.value_floor_key()
        if key is not None:
            sources = set(options.source_names())
            floors.append((index, key, getattr(options, key), sources))
    groups: list[tuple[list[int], str]] = []
    for source in dict.fromkeys(s for *_, sources in floors for s in sorted(sources)):
        members = [entry for entry in floors if source in entry[3]]
        # A shift and a floor of the same number are different treatments (value_floor and
        # cost_floor are the same one); "not set" is one treatment.
        values = {
            (key == "value_shift", value) if value is not None else None
            for _, key, value, _ in members
        }
        indices = [index for index, *_ in members]
        if len(values) > 1 and indices not in [g for g, _ in groups]:
            groups.append((indices, source))
    out = []
    for indices, source in groups:
        said = [
            f"{format_key_path(('analyses', index, key))} "
            + (f"= {power_of_ten(value)}" if value is not None else "not set")
            for index, key, value, _ in floors
            if index in indices
        ]
        shifted = any(key == "value_shift" and index in indices for index, key, *_ in floors)
        shift_said = (
            "; a value_shift c makes values that differ by less than about relative_tolerance × c "
            "equal in the significance relation"
            if shifted
            else ""
        )
        instead = " (a value_floor instead of a shift where values are positive)" if shifted else ""
        out.append(
            Caveat(
                CODE,
                f"The analyses of data source '{source}' floor small values differently "
                f"({join_words(said)}): values below a floor are equal in one analysis and "
                "still differ in another, so their counts of wins (best values, first places) "
                f"can differ{shift_said}. Give them the same floor{instead}, or say in a note "
                "why they differ.",
            )
        )
    return out
