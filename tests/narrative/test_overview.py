"""The data appendix's line per source (:func:`reportgen.narrative.overview.source_summary`)."""

from __future__ import annotations

import pandas as pd

from reportgen.data.load import SourceData
from reportgen.narrative.overview import source_summary
from reportgen.present.labels import Labels


def test_a_source_lists_its_algorithms_in_study_order() -> None:
    # cec2017_profiles printed "algorithms: DES, EBOwithCMAR, LSHADE-SPACMA, PPSO,
    # RB-IPOP-CMA-ES and jSO" (sorted by label, upper case first) where the overview lists
    # "EBOwithCMAR, jSO, LSHADE-SPACMA, DES, RB-IPOP-CMA-ES, PPSO".
    study = ("EBOwithCMAR", "jSO", "LSHADE-SPACMA", "DES", "RB-IPOP-CMA-ES", "PPSO")
    frame = pd.DataFrame(
        [
            {"algorithm": a, "problem": "f1", "dimension": 10, "run": r, "value": 1.0}
            for a in sorted(study)
            for r in (1, 2)
        ]
    )
    source = SourceData("runs", "trials", frame, ())
    line = source_summary(source, Labels({}), study)
    assert line.endswith(
        "algorithms: EBOwithCMAR, jSO, LSHADE-SPACMA, DES, RB-IPOP-CMA-ES and PPSO."
    )
    # Labels are printed, in the same order.
    labelled = source_summary(source, Labels({"jSO": "jso-2017"}), study)
    assert "algorithms: EBOwithCMAR, jso-2017, LSHADE-SPACMA" in labelled
