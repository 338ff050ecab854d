"""The report's vocabulary: how algorithms are named, numbers printed, findings and caveats held.

Everything here is shared by every layer that shows something — data loading and analyses
(which raise caveats), synthesis, figures, narrative and render — so it imports nothing of
reportgen but :mod:`reportgen.errors` (for shortening long names), just above it:

- :mod:`~reportgen.present.labels` — :class:`Labels`, the display name of each algorithm;
- :mod:`~reportgen.present.format` — numbers as printed (``10⁻⁵``, ``83 %``, ``∞``);
- :mod:`~reportgen.present.findings` — :class:`Finding`, one generated sentence with its
  numbers, and :func:`join_words`;
- :mod:`~reportgen.present.caveats` — :class:`Caveat`, what a reader must know to trust a result;
- :mod:`~reportgen.present.jsonable` — values and tables as JSON (∞ as ``"inf"``, NaN as null).
"""
