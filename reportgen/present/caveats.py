"""Caveats: what the reader must know to trust a result (the report's caveats list).

Raised by data loading (e.g. runs dropped at load time) and by analyses (few runs, ties at
precision, excluded problems); shown by the render layer and listed in ``results.json``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from reportgen.present.labels import Labels


@dataclass(frozen=True)
class Caveat:
    """Something the reader must know to trust a result (shown in the report's caveats).

    Parameters
    ----------
    code : str
        A stable identifier, e.g. ``"few_runs"``, ``"unequal_runs"``, ``"normality_assumed"``,
        ``"ties_at_precision"``, ``"excluded_problems"``.
    message : str
        One or two sentences for the reader.
    where : str
        What it concerns (problems, algorithms, rows), if specific.
    """

    code: str
    message: str
    where: str = ""

    def labelled(self, labels: Labels) -> Caveat:
        """The caveat with algorithms named by their report labels (see :meth:`Labels.in_text`)."""
        return dataclasses.replace(
            self, message=labels.in_text(self.message), where=labels.in_text(self.where)
        )
