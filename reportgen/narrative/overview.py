"""The report's opening and data-appendix sentences: what is compared, on which data.

Plain descriptions of the study and its data sources (no finding, no statistic): the
overview paragraphs under the title and one summary line per source in the data appendix.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.data.frames import problem_label, sorted_problems
from reportgen.data.load import SourceData, StudyData
from reportgen.present.findings import MAX_NAMED, join_words
from reportgen.present.format import number
from reportgen.present.labels import Labels


def overview(data: StudyData, labels: Labels, analyses: int, minimize: bool) -> tuple[str, ...]:
    """Paragraphs: the algorithms and the number of analyses, each data source, the direction."""
    names = [labels.label(a) for a in data.algorithms]
    listed = join_words(names, limit=MAX_NAMED) if len(names) > MAX_NAMED else ", ".join(names)
    paragraphs = [
        f"This report compares {len(names)} algorithms — {listed} — with "
        f"{analyses} analys{'is' if analyses == 1 else 'es'}.",
    ]
    for name, source in data.sources.items():
        table = source.runs  # one row per run: never the records
        problems = len(table[["problem", "dimension"]].drop_duplicates())
        dims = sorted(int(d) for d in table["dimension"].unique() if d)
        runs = ""
        run_range = source.run_range()
        if run_range is not None:
            fewest, most = run_range
            runs = (
                f"; {fewest}–{most} runs per algorithm and problem"
                if fewest != most
                else f"; {fewest} runs per algorithm and problem"
            )
        dim_text = (
            f" in dimension{'s' if len(dims) > 1 else ''} {', '.join(map(str, dims))}"
            if dims
            else ""
        )
        kind = "" if name == source.format else f" ({source.format})"
        paragraphs.append(f"Data source “{name}”{kind}: {problems} problems{dim_text}{runs}.")
    if not minimize:
        paragraphs.append(
            "The study maximises: values were negated once at load time, so smaller is better throughout."
        )
    else:
        paragraphs.append("Smaller values are better (minimisation).")
    return tuple(paragraphs)


def source_summary(
    source: SourceData, labels: Labels | None = None, order: Sequence[str] = ()
) -> str:
    """One line for the data appendix: rows, problems (with examples) and algorithms (by their
    labels; at most MAX_NAMED of them).

    The algorithms in the study's order (``order``, as the overview lists them; the source's
    own natural order for any not in it): sorted by label they read "RB-IPOP-CMA-ES and jSO",
    upper case first, in a different order from every other list in the report.
    """
    labels = labels or Labels()
    position = {a: k for k, a in enumerate(order)}
    algorithms = sorted(source.algorithms, key=lambda a: position.get(a, len(position)))
    pairs = source.runs[["problem", "dimension"]].drop_duplicates()  # not the records
    instances = zip(pairs["problem"].astype(str), pairs["dimension"].astype(int), strict=True)
    examples = [problem_label(p, d) for p, d in sorted_problems(instances)[:6]]
    return (
        f"{number(source.rows)} rows after selection; {len(pairs)} problems (e.g. {', '.join(examples)}); "
        f"algorithms: {join_words([labels.label(a) for a in algorithms], limit=MAX_NAMED)}."
    )
