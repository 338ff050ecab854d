"""Caveats: what the reader must know to trust a result (the report's caveats list).

Raised by data loading (e.g. runs dropped at load time) and by analyses (few runs, ties at
precision, excluded problems); shown by the render layer and listed in ``results.json``.

A caveat that names algorithms holds them as data: its texts carry a placeholder for each
(written by :class:`Naming`) and :attr:`Caveat.algorithms` the names, so that the report fills
in each algorithm's label and ``results.json`` its name — no text is searched for names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from reportgen.present.labels import Labels
from reportgen.warning_codes import WARNING_CODES

_PLACEHOLDER = re.compile("\u27e8algorithm (\\d+)\u27e9")
"""``⟨algorithm 0⟩``: where :attr:`Caveat.algorithms` ``[0]`` is named (see :class:`Naming`)."""


@dataclass(frozen=True)
class Caveat:
    """Something the reader must know to trust a result (shown in the report's caveats).

    Parameters
    ----------
    code : str
        A stable identifier, e.g. ``"few_runs"``, ``"unequal_runs"``, ``"normality_assumed"``;
        one of :data:`~reportgen.warning_codes.WARNING_CODES` (what ``accept:`` is checked
        against), or the caveat is refused.
    template : str
        The message: one or two sentences for the reader, where an algorithm it names stands
        as a placeholder (see :class:`Naming`).
    where_template : str
        What it concerns (problems, algorithms, runs), if specific; placeholders likewise.
    algorithms : tuple of str
        The algorithms the placeholders name, by position.

    :attr:`message` and :attr:`where` read the texts with algorithms by name, :meth:`text` and
    :meth:`place` with their labels.
    """

    code: str
    template: str
    where_template: str = ""
    algorithms: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.code not in WARNING_CODES:
            # A bug, not an input problem: a code the spec's accept: could not name.
            raise ValueError(f"warning code {self.code!r} is not in reportgen.warning_codes")

    @property
    def message(self) -> str:
        """The message, algorithms by name."""
        return self.text()

    @property
    def where(self) -> str:
        """What it concerns, algorithms by name."""
        return self.place()

    def text(self, labels: Labels | None = None) -> str:
        """The message with each algorithm named by its label (by its name without labels)."""
        return self._filled(self.template, labels)

    def place(self, labels: Labels | None = None) -> str:
        """What it concerns, each algorithm named by its label (by its name without labels)."""
        return self._filled(self.where_template, labels)

    def labelled(self, labels: Labels) -> Caveat:
        """The caveat as the report shows it: algorithms named by their labels, in full."""
        return Caveat(self.code, self.text(labels), self.place(labels))

    def to_json(self) -> dict[str, str]:
        """``{"code", "message", "where"}`` as ``results.json`` holds it (algorithm names)."""
        return {"code": self.code, "message": self.text(), "where": self.place()}

    def _filled(self, template: str, labels: Labels | None) -> str:
        return named_text(template, self.algorithms, labels)


def named_text(template: str, algorithms: Sequence[str], labels: Labels | None = None) -> str:
    """``template`` with each placeholder of :class:`Naming` replaced by the algorithm's label
    (by its name without ``labels``); ``algorithms`` are the names, by placeholder number."""
    if not algorithms:
        return template
    name = labels.full if labels is not None else str
    return _PLACEHOLDER.sub(lambda m: name(algorithms[int(m.group(1))]), template)


class Naming:
    """The algorithms one caveat names: call it on a name where the text names it.

    Examples
    --------
    >>> named = Naming()
    >>> text = f"{named('de')} and {named('pso')} tie; {named('de')} leads"
    >>> caveat = named.caveat("reference_tie", text)
    >>> caveat.text(Labels({"de": "DE"}))
    'DE and pso tie; DE leads'
    >>> caveat.algorithms
    ('de', 'pso')
    """

    def __init__(self) -> None:
        self._names: list[str] = []

    def __call__(self, algorithm: str) -> str:
        """The placeholder of ``algorithm`` (the same one each time it is named)."""
        algorithm = str(algorithm)
        if algorithm not in self._names:
            self._names.append(algorithm)
        return f"\u27e8algorithm {self._names.index(algorithm)}\u27e9"

    @property
    def names(self) -> tuple[str, ...]:
        """The algorithms named so far, by placeholder number."""
        return tuple(self._names)

    def caveat(self, code: str, message: str, where: str = "") -> Caveat:
        """The caveat whose texts hold this naming's placeholders."""
        return Caveat(code, message, where, self.names)
