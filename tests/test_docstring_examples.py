"""The examples in the package's docstrings (``>>>``) run and print what they say.

A docstring's example is documentation a reader trusts; one that no longer matches the code
misleads quietly (``bootstrap_ranks`` showed float ranks where SciPy 1.17 returns integers;
it now states them in a form true under either). Each module of the package is one test, so
that a failure names the module.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import reportgen

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(reportgen.__path__, "reportgen.")
    if not info.name.endswith("__main__")  # running it would start the command line
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"


def test_the_examples_are_collected() -> None:
    """Guards the collection itself: the modules known to hold examples are among them."""
    assert {"reportgen.synthesis.uncertainty", "reportgen.analyses.u_scores"} <= set(MODULES)
    attempted = sum(
        doctest.testmod(importlib.import_module(n), verbose=False).attempted
        for n in ("reportgen.synthesis.uncertainty", "reportgen.present.jsonable")
    )
    assert attempted >= 4
