"""reportgen: statistically sound, reproducible reports from benchmark results of stochastic optimisers.

Python API (the same as the command line)::

    import reportgen
    study = reportgen.load_study("study.yaml")        # validated spec (or a dict)
    results = reportgen.compute_study(study)          # every analysis, nothing rendered
    results["performance_profiles"].verdicts          # a result object's tables
    reportgen.run_study(study, "out/")                # ... and the report written
"""

from __future__ import annotations

from typing import Any

from reportgen.errors import InputError, Problem

__all__ = [
    "InputError",
    "Problem",
    "StudyResults",
    "compute_study",
    "load_study",
    "run_study",
    "validate_study",
]


def __getattr__(name: str) -> Any:
    # The pipeline pulls in the renderers (weasyprint, matplotlib); load it only when used, so
    # that importing one analysis module stays light.
    if name in {"StudyResults", "compute_study", "load_study", "run_study", "validate_study"}:
        from reportgen import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module 'reportgen' has no attribute {name!r}")
