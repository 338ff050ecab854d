"""Trials derived from histories: every run's state at a named budget (``trials_at:``).

A histories source holds each run's best-so-far records; a ``trials`` source with
``trials_at: {source, budget, target}`` turns every run into one trial, as if the run had
been stopped after ``budget`` evaluations:

- ``value``: the run's best-so-far value after ``budget`` evaluations (its last record at or
  before the budget);
- ``evaluations_to_target`` (with ``target``): the first evaluation count at which the value
  is ≤ ``target``, when that is ≤ ``budget``; ∞ otherwise.

Decisions
---------
- No ``evaluations_used``: a histories CSV records improvements only, so when a run stopped
  is unknown (U-scores then break ties between failed trials by nothing; they say so).
- A run with no record at or before the budget has no value there: an input error naming the
  runs (choose a larger budget), never a value invented from a later record.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from reportgen.data.frames import problem_label
from reportgen.errors import InputError, Problem
from reportgen.present.format import counted

RUN_KEYS = ["algorithm", "problem", "dimension", "run"]


def trials_at_budget(
    histories: pd.DataFrame, budget: float, target: float | None, where: str
) -> pd.DataFrame:
    """One trial per run of ``histories`` (canonical, sorted by run then evaluations)."""
    within = histories[histories["evaluations"] <= budget]
    runs = histories[RUN_KEYS].drop_duplicates()
    last = within.groupby(RUN_KEYS, sort=False, observed=True).tail(1)
    trials = runs.merge(last[[*RUN_KEYS, "value"]], on=RUN_KEYS, how="left")
    missing = trials[trials["value"].isna()]
    if len(missing):
        listed = ", ".join(
            f"{a} on {problem_label(str(p), int(d))} run {r}"
            for a, p, d, r in missing[RUN_KEYS].head(5).itertuples(index=False)
        )
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise InputError(
            Problem(
                where,
                f"{counted(len(missing), 'run', 'have')} no record within the budget of {budget:g} "
                f"evaluations ({listed}{more}); choose a larger budget",
            )
        )
    if target is not None:
        hits = within[within["value"] <= target].groupby(RUN_KEYS, sort=False, observed=True)
        first = hits.head(1)[[*RUN_KEYS, "evaluations"]]
        trials = trials.merge(first, on=RUN_KEYS, how="left")
        trials["evaluations_to_target"] = trials.pop("evaluations").fillna(math.inf)
    trials["value"] = trials["value"].astype(float)
    return trials.sort_values(RUN_KEYS, kind="stable", ignore_index=True).astype(
        {"dimension": np.int64, "run": np.int64}
    )
