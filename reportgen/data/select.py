"""Completeness over all the sources one analysis reads; algorithm aliases across files.

The study's selection (``problems:``) and completeness check act on each data source when it
is loaded (:mod:`reportgen.data.load`). An analysis may read several sources together
(``data: [a, b]``, e.g. one source per algorithm as competitions publish them); their
combination is checked here, on the :class:`~reportgen.data.frames.AnalysisData` the analysis
receives (after its ``select:``).

Decisions
---------
- Completeness is judged over the sources the analysis reads together: a problem instance on
  which one of the analysis's algorithms has no data is an error naming the algorithm and the
  instance, unless the study says ``problems.incomplete: exclude`` — then the instance is left
  out of this analysis only, and a caveat lists it with the algorithms that lack it. Each
  source alone can be complete while the combination is not (one source per algorithm, one of
  which omits a problem).
- Aliases (``algorithms: [{name: GA, aliases: [MealpyGA]}]``) rename rows when a source is
  loaded, before the study's algorithm selection. Two names merged into one must not both hold
  the same run (algorithm, problem, dimension, run): that is an input error naming the run,
  never a silent mix of two runs' records.
"""

from __future__ import annotations

import dataclasses

import pandas as pd

from reportgen.data.frames import AnalysisData, observed, problem_label
from reportgen.errors import InputError, Problem
from reportgen.present.caveats import Caveat, Naming
from reportgen.present.format import counted


def complete_problems(data: AnalysisData, exclude: bool) -> tuple[AnalysisData, list[Caveat]]:
    """Check that every algorithm of ``data`` has every problem instance of it.

    Returns the data (without the incomplete instances when ``exclude``) and the caveat
    listing them.

    Raises
    ------
    InputError
        An instance lacks some algorithm and ``exclude`` is false.
    """
    if len(data.sources) < 2:
        return data, []  # one source was checked when it was loaded
    # A partitioned source's records stay in their files: its per-run table says who ran what.
    table = data.frame if data.records is None else data.records.runs
    if table.empty:
        return data, []
    keys = table[["algorithm", "problem", "dimension"]].drop_duplicates()
    have: dict[tuple[str, int], set[str]] = {}
    for algorithm, problem, dimension in keys.itertuples(index=False):
        have.setdefault((str(problem), int(dimension)), set()).add(str(algorithm))
    lacking = {
        instance: [a for a in data.algorithms if a not in have.get(instance, set())]
        for instance in data.problems
    }
    lacking = {instance: missing for instance, missing in lacking.items() if missing}
    if not lacking:
        return data, []
    listing = "; ".join(
        f"{problem_label(p, d)}: {', '.join(missing)}" for (p, d), missing in lacking.items()
    )
    sources = ", ".join(f"'{s}'" for s in data.sources)
    if not exclude:
        raise InputError(
            Problem(
                "data",
                f"the sources {sources} together lack some algorithm on "
                f"{counted(len(lacking), 'problem')} ({listing}); every algorithm needs every problem — or set "
                "problems.incomplete: exclude, or exclude them (problems.exclude accepts "
                "{problem: …, dimensions: […]})",
            )
        )
    kept = tuple(instance for instance in data.problems if instance not in lacking)
    named = Naming()  # the error above names algorithms as the data does; the report by label
    caveat = named.caveat(
        "excluded_problems",
        f"{counted(len(lacking), 'problem', 'were')} left out because some algorithm has no data for them "
        f"in the sources read together ({sources}).",
        "; ".join(
            f"{problem_label(p, d)}: {', '.join(map(named, missing))}"
            for (p, d), missing in lacking.items()
        ),
    )
    return _restricted(data, kept), [caveat]


def _restricted(data: AnalysisData, kept: tuple[tuple[str, int], ...]) -> AnalysisData:
    if kept == data.problems:
        return data
    if data.records is not None:  # partitioned: the problems are read by problem
        return dataclasses.replace(data, problems=kept)
    if not kept:
        return dataclasses.replace(data, frame=data.frame.iloc[0:0], problems=kept)
    wanted = pd.MultiIndex.from_tuples(kept, names=["problem", "dimension"])
    index = pd.MultiIndex.from_arrays(
        [data.frame["problem"].astype(str), data.frame["dimension"].astype(int)]
    )
    frame = data.frame[index.isin(wanted)].reset_index(drop=True)
    return dataclasses.replace(data, frame=frame, problems=kept)


RUN_KEYS = ["algorithm", "problem", "dimension", "run"]


def merge_aliases(frame: pd.DataFrame, aliases: dict[str, str]) -> tuple[pd.DataFrame, list[str]]:
    """Rows of every alias renamed to its algorithm; and the runs two names both hold.

    Returns the frame (sorted as before by algorithm, problem, dimension and, where present,
    run and evaluations) and one message per colliding run.
    """
    if not aliases:
        return frame, []
    present = set(observed(frame["algorithm"]))  # the distinct names, not one string per row
    if not present & set(aliases):
        return frame, []
    original = frame["algorithm"].astype(str)
    renamed = original.map(lambda name: aliases.get(name, name))
    keys = [k for k in RUN_KEYS if k in frame.columns]
    runs = pd.DataFrame({"from": original, **{k: frame[k] for k in keys}})
    runs["algorithm"] = renamed
    runs = runs.drop_duplicates()
    clashes = runs[runs.duplicated(keys, keep=False)]
    messages = []
    for key, group in clashes.groupby(keys, sort=True, observed=True):
        algorithm, problem, dimension, *run = key
        what = problem_label(str(problem), int(dimension))
        names = " and ".join(repr(n) for n in sorted(set(group["from"])))
        messages.append(
            f"algorithm '{algorithm}' gets {f'run {run[0]} of ' if run else ''}{what} from both "
            f"{names}; aliases merge names of different runs (number the runs apart)"
        )
    if len(messages) > 10:
        messages = [*messages[:10], f"and {len(messages) - 10} more runs held by two names"]
    # Names stay categorical (sorted categories), as the loader gives them.
    merged = frame.assign(
        algorithm=pd.Categorical(renamed.to_numpy(), categories=sorted(set(renamed.unique())))
    )
    order = [k for k in [*RUN_KEYS, "evaluations"] if k in merged.columns]
    merged = merged.sort_values(order, kind="stable").reset_index(drop=True)
    return merged, messages
