"""The rank-layer sentence lists every layer unless more than one would be left out."""

from __future__ import annotations

from reportgen.analyses.significance_relation import compute
from reportgen.narrative.significance_relation import MAX_LAYERS_NAMED, findings
from reportgen.present.labels import Labels
from tests.analyses.test_significance_relation import options, summary_data


def layers_sentence(n: int) -> str:
    # n algorithms, each better than the next on all three problems: a total order, n layers.
    values = {f"a{k:02d}": [float(k + 1), 2.0 * (k + 1), 3.0 * (k + 1)] for k in range(n)}
    result = compute(summary_data(values), options())
    (text,) = [f.text for f in findings(result, Labels({})) if f.id.startswith("layers.")]
    return text


def test_one_layer_over_the_limit_is_named_not_counted() -> None:
    # cec2005: "…; 10) K-PCX; and 1 more (the layers table)" — the table is not in the PDF,
    # and "11) CoEVO" is shorter than the words that replaced it.
    assert MAX_LAYERS_NAMED == 10
    eleven = layers_sentence(11)
    assert eleven.endswith("; 10) a09; 11) a10.") and "more" not in eleven
    twelve = layers_sentence(12)
    assert twelve.endswith("; 10) a09; and 2 more (the layers table).")
