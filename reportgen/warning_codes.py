"""Every warning code reportgen gives: the registry that ``accept:`` is checked against.

A warning (a :class:`~reportgen.present.caveats.Caveat`) carries a stable code, printed as
``reportgen: warning [code]: …`` and listed in ``results.json``. A study acknowledges the codes
it has read with ``accept: [code, …]``, and ``--strict`` then fails only on the others. A code
misspelt in ``accept:`` (``unequal_runz``) used to be ignored without a word: the warning it
meant stayed unacknowledged, and the spec read as if it were. Every code is therefore listed
here, once, with what it warns about:

- the spec refuses a code that is not listed (with the closest code as a suggestion), and its
  JSON Schema offers the codes to editors;
- a caveat with a code that is not listed is a bug (:class:`Caveat` refuses it), and a test
  checks that every code the package's source gives is listed and every listed code is given;
- ``docs/warnings.md`` lists the same codes (kept in sync by a test).

Decisions
---------
- Unknown codes are errors, not warnings: a warning about ``accept:`` would itself need a code
  to be accepted, and a misspelt acknowledgement is exactly the silent misuse the list is for.
- The registry has no imports, so the spec (the lowest layer) can read it.
"""

from __future__ import annotations

WARNING_CODES: dict[str, str] = {
    "baseline_other_study": "the --baseline results.json shares no algorithm and no problem "
    "with the study: it is likely of another study",
    "baseline_missing": "--baseline names the output folder itself, which holds no report yet "
    "(a first run): nothing compared",
    "best_so_far_worsens": "a COCO run logs a best-so-far value that gets worse; its running "
    "minimum is used",
    "bound_below_best": "lower confidence-bound curves fall below the best value any run "
    "reached (Liu et al.'s bounds)",
    "budget_beyond_records": "fixed budgets of the convergence analysis lie beyond every record "
    "of their dimension",
    "budget_inferred": "no budget was given: each dimension's largest evaluation count is used "
    "(a lower bound)",
    "cost_floor": "run costs below the probabilistic profile's cost_floor were raised to it",
    "cost_floor_approximate": "summary-table entries with runs below cost_floor: only their "
    "mean could be raised",
    "evaluations_to_target_above_budget": "trials reach the target only after the budget, or "
    "report more evaluations to target than their budget",
    "excluded_algorithms": "algorithms without data in an analysis's input are not compared",
    "excluded_problems": "problems without data for every algorithm are left out",
    "few_problems": "so few problem instances that award points take few values",
    "few_runs": "fewer runs than Liu et al. require for confidence bounds (n_r ≥ 30)",
    "floors_differ": "analyses of the same data source floor or shift small values differently "
    "(value_floor, cost_floor, value_shift): their counts of wins can differ",
    "no_baseline": "problems on which every algorithm has an infinite mean cost (no baseline)",
    "no_dimension": "problems without a dimension: runtimes plotted as evaluations (D = 1)",
    "no_evaluations_to_target": "the data has no evaluations to target: successes tie, "
    "U-scores reward accuracy and success only",
    "no_progress": "problems on which no algorithm's mean curve improves on f(x0)",
    "no_runs": "published statistics only: the problem table has no tests, markers, W/T/L or A12",
    "non_monotone_checkpoints": "CEC files whose errors get worse from one checkpoint to the next",
    "normal_negative_mass": "the probabilistic profile's normal model puts much probability on "
    "costs ≤ 0",
    "normality_assumed": "the probabilistic profile models each cost as normal",
    "not_best_so_far": "runs whose values increase within the run; their running minimum is used",
    "partial_failures": "entries with some failed runs have an infinite expected cost",
    "published_unexplained": "published rows differ from the recomputed ones without a note "
    "explaining them",
    "reference_tie": "algorithms share the best average rank; the reference is the first in "
    "study order",
    "relation_has_cycles": "the significance relation has cycles at the σ shown",
    "runs_without_record": "runs without a record at or before the budget are left out "
    "(problem table) or count as failures without a value (U-scores)",
    "success_above_target": "trials report evaluations to target but end above the target",
    "success_without_evaluations_to_target": "trials reach the target but report no "
    "evaluations to target",
    "tie_break_unavailable": "failed_tie_break needs evaluations used, which the data lacks",
    "tied_control": "algorithms share the best mean rank; Holm's control is the first in study "
    "order",
    "tied_trials": "trials of different algorithms tie and score half a point each",
    "ties_at_precision": "published statistics equal at printed precision are treated as ties",
    "too_few_runs": "so few runs that no rank-sum test can reach α",
    "unequal_budgets": "budgets differ between algorithms (runtime ECDF)",
    "unequal_runs": "algorithms have unequal numbers of runs",
    "unprintable_characters": "no installed font has characters of the study's names or spec: "
    "the PDF prints them as empty boxes",
    "user_files_deleted": "files reportgen did not write were in the previous output folder "
    "and were deleted with it",
    "values_floored": "values below value_floor were raised to it",
    "values_shifted": "value_shift was added to every value before award points",
    "wall_clock_efficiency": "efficiency ranks wall-clock time, which depends on hardware, "
    "implementation and stopping rules",
}
"""Every warning code, with what it warns about (one line)."""
