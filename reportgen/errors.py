"""Errors and warnings that reach the user.

Every problem with the user's input is a :class:`Problem`: *where* (a spec key path with the
YAML ``file:line``, or a data file with row and column) and *what* (the bad value quoted, what
was allowed, and a "did you mean" suggestion where one exists). Problems are collected, not
raised one at a time, so that ``reportgen validate`` can list every problem at once.
:class:`InputError` carries one or more problems; the command line prints them without a
traceback and exits with status 1.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One problem with the user's input.

    Parameters
    ----------
    where : str
        The location, e.g. ``"analyses[0].tolerances (study.yaml:12)"`` or
        ``"data/runs.csv, row 17, column 'value'"``.
    message : str
        What is wrong, quoting the bad value and saying what is allowed.
    """

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class InputError(Exception):
    """The user's spec or data is invalid; carries every problem found."""

    def __init__(self, problems: Problem | Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = (
            (problems,) if isinstance(problems, Problem) else tuple(problems)
        )
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self) -> tuple[type[InputError], tuple[tuple[Problem, ...]]]:
        # Raised in a Dask worker, it travels back pickled: rebuild it from its problems.
        return (InputError, (self.problems,))


def printed_form(name: str) -> str:
    """``name`` as it prints: composed (NFC: 'e' + U+0301 is 'é') and without the invisible
    format characters (category Cf: zero-width space, soft hyphen, word joiner)."""
    return "".join(c for c in unicodedata.normalize("NFC", name) if unicodedata.category(c) != "Cf")


def did_you_mean(name: str, choices: Sequence[str]) -> str:
    """Return ``" (did you mean 'x'?)"`` for the closest choice, or ``""`` when none is close.

    A choice that prints exactly as ``name`` but is encoded differently (an accent composed in
    one and combining in the other, an invisible character) is named first, escaped, since
    "did you mean 'é'?" beside "no algorithm 'é'" reads as nonsense: the two only differ in
    their code points.
    """
    same = [c for c in choices if c != name and printed_form(c) == printed_form(name)]
    if same:
        return (
            f" (did you mean {same[0]!a}? It prints as {name!a} does but is encoded "
            "differently: an accent composed or combining, or an invisible character)"
        )
    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.7)
    if not close:
        lowered = {c.lower(): c for c in choices}
        if name.lower() in lowered:
            close = [lowered[name.lower()]]
    return f" (did you mean '{close[0]}'?)" if close else ""


def quote_choices(choices: Iterable[str]) -> str:
    """Format allowed names for a message: ``'a', 'b', 'c'``."""
    return ", ".join(f"'{c}'" for c in choices)


LONG_WORD = 100
"""A "word" (no white space) longer than this in text for the reader is a name from the
data gone wild (hashes are 64 characters): :func:`shorten_words` cuts it."""
MESSAGE_NAME_LIMIT = 80
"""Longest name (file, algorithm, problem) quoted in full in a message; longer ones are cut."""


def shorten(text: str, limit: int = MESSAGE_NAME_LIMIT, *, keep_end: int = 0) -> str:
    """``text`` cut to at most ``limit`` characters, with "…" where it was cut.

    Names come from the user's files and can be arbitrarily long; a message, a table cell or
    a figure label shows the start of a long one (and its last ``keep_end`` characters, which
    often tell variants apart: ``…-v2``), never all of it.
    """
    if len(text) <= limit:
        return text
    keep_end = min(keep_end, limit // 2)
    head = max(limit - 1 - keep_end, 0)
    return text[:head] + "…" + (text[len(text) - keep_end :] if keep_end else "")


_LONG_WORD = re.compile(rf"\S{{{LONG_WORD + 1},}}")


def shorten_words(text: str) -> str:
    """``text`` with every word longer than :data:`LONG_WORD` characters shortened.

    The one guard for names that reach the reader through sentences, table cells and
    warnings without passing through a label (a caveat listing runs, a table's column
    header): a 10⁶-character algorithm name prints as its start and end around "…".
    """
    if len(text) <= LONG_WORD:
        return text
    return _LONG_WORD.sub(lambda m: shorten(m.group(0), 48, keep_end=12), text)
