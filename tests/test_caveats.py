"""Caveats name algorithms as data: the report prints labels, results.json names."""

from __future__ import annotations

from reportgen.present.caveats import Caveat, Naming
from reportgen.present.labels import Labels


def test_only_the_named_algorithms_take_their_labels():
    # "DE" is an algorithm, and also part of the algorithm "JADE", the file "DE-1.txt" and the
    # problem "DEcoy": only the places written as an algorithm are relabelled.
    named = Naming()
    caveat = named.caveat(
        "reference_tie",
        f"{named('DE')} and {named('JADE')} tie on DEcoy; the reference is {named('DE')}.",
        "DE-1.txt, run 3",
    )
    labels = Labels({"DE": "Differential Evolution", "JADE": "JADE (adaptive)"})
    assert caveat.algorithms == ("DE", "JADE")
    assert caveat.text(labels) == (
        "Differential Evolution and JADE (adaptive) tie on DEcoy; the reference is "
        "Differential Evolution."
    )
    assert caveat.place(labels) == "DE-1.txt, run 3"
    # By name wherever the report does not show labels: results.json, warnings, tests.
    assert caveat.message == "DE and JADE tie on DEcoy; the reference is DE."
    assert caveat.to_json() == {
        "code": "reference_tie",
        "message": caveat.message,
        "where": "DE-1.txt, run 3",
    }


def test_a_label_is_printed_in_full_and_a_caveat_without_names_is_its_text():
    long = "an-algorithm-with-a-name-far-longer-than-any-label-limit"
    named = Naming()
    caveat = named.caveat("few_runs", "Few runs.", f"{named(long)} on f1")
    assert caveat.labelled(Labels()).where == f"{long} on f1"  # unshortened: to look it up
    plain = Caveat("no_runs", "The data holds published statistics only.", "f1 {D=2}")
    assert plain.labelled(Labels({"f1": "F1"})) == plain
