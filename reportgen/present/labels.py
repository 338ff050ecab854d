"""Display names of algorithms: the one way every part of the report names an algorithm.

The spec may give an algorithm a label (``algorithms: [{name: cmaes, label: CMA-ES}]``);
tables, figures, sentences, the summary and the caveats all print that label, and
``results.json`` keeps the names (with the labels beside them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from reportgen.errors import shorten

LABEL_LIMIT = 32
"""Longest algorithm label printed; results.json keeps every name in full."""


@dataclass(frozen=True)
class Labels:
    """The study-wide mapping from algorithm name to display label.

    Parameters
    ----------
    names : mapping
        Label by algorithm name; an algorithm without one is shown by its name.
    """

    names: Mapping[str, str] = field(default_factory=dict)

    def label(self, algorithm: str) -> str:
        """The label of ``algorithm`` (its name when the spec gives none), at most
        :data:`LABEL_LIMIT` characters: a longer one keeps its start and end around "…", so
        that figure legends, axes and table columns stay readable."""
        return shorten(self.names.get(algorithm, algorithm), LABEL_LIMIT, keep_end=10)

    def full(self, algorithm: str) -> str:
        """The label of ``algorithm`` in full (its name when the spec gives none): caveats name
        runs and files to look up, so they print it unshortened."""
        return self.names.get(algorithm, algorithm)
