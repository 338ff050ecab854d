"""What every analysis result provides.

An analysis is a module ``reportgen/analyses/<kind>.py`` with a pure function
``compute(data: AnalysisData, options: <Kind>Options) -> <Kind>Result``. The result is a frozen
dataclass: it records what was computed and how (parameters, n, ties, caveats). Tables,
``results.json``, figures, narrative and LaTeX are all presenters of that one object; none of
them recomputes a statistic.
"""

from __future__ import annotations

from typing import Any, Protocol

import pandas as pd

from reportgen.present.caveats import Caveat


class AnalysisResult(Protocol):
    """The interface of every analysis result object."""

    @property
    def caveats(self) -> tuple[Caveat, ...]:
        """What the reader must know to trust the result (a field of the frozen dataclass)."""
        ...

    def tables(self) -> dict[str, pd.DataFrame]:
        """The machine-readable tables, by file stem (``t`` → ``tables/<id>/t.csv``)."""
        ...

    def to_json(self) -> dict[str, Any]:
        """Every number the report shows, as JSON-serialisable data (no NaN; ∞ as "inf")."""
        ...
