"""reportgen: statistically sound, reproducible reports from benchmark results of stochastic optimisers.

Python API (the same as the command line)::

    import reportgen
    study = reportgen.load_study("study.yaml")        # validated spec (or a dict)
    results = reportgen.compute_study(study)          # every analysis, nothing rendered
    results["performance_profiles"].verdicts          # a result object's tables
    reportgen.run_study(study, "out/")                # ... and the report written
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reportgen.errors import InputError, Problem

if TYPE_CHECKING:  # what __getattr__ gives, as type checkers and editors should see it
    from reportgen.pipeline import (
        StudyResults,
        compute_study,
        load_study,
        run_study,
        validate_study,
    )

__all__ = [
    "InputError",
    "Problem",
    "StudyResults",
    "compute_study",
    "load_study",
    "run_study",
    "validate_study",
]


_LAZY = frozenset({"StudyResults", "compute_study", "load_study", "run_study", "validate_study"})
"""The names of the Python API that live in :mod:`reportgen.pipeline`."""


def __getattr__(name: str) -> Any:
    # The pipeline pulls in the renderers (weasyprint, matplotlib); load it only when used, so
    # that importing one analysis module stays light.
    if name in _LAZY:
        from reportgen import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module 'reportgen' has no attribute {name!r}")
