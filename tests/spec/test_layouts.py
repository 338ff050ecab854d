"""Each analysis reads only the data layouts it declares; the spec loader says so, once.

The layout of a source follows from the spec (``format``, and ``layout`` for platform
formats), so a mismatch is an error at the analysis's key before any data is read, in one
wording for every kind and every option that narrows the layouts.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from reportgen.errors import InputError
from reportgen.registry import ANALYSES
from reportgen.spec.base import LAYOUT_WORDS
from reportgen.spec.load import load_spec
from tests.conftest import write

SPEC = textwrap.dedent(
    """\
    study:
      title: layouts
    minimize: true
    data:
      runs:
        path: runs.csv
        format: trials
      curves:
        path: curves.csv
        format: histories
      published:
        path: table.csv
        format: wide
        statistic: mean
      coco_runs:
        path: exdata
        format: coco
        coco:
          layout: trials
    analyses:
    """
)
# Lines: 1 study … 20 analyses; the first analysis starts on line 21, its data on line 22.


def problems(path: Path) -> list[str]:
    with pytest.raises(InputError) as info:
        load_spec(path)
    return [str(p) for p in info.value.problems]


def test_a_kind_refuses_a_layout_it_does_not_read(tmp_path):
    text = SPEC + "  - kind: performance_profiles\n    data: runs\n"
    assert problems(write(tmp_path, "study.yaml", text)) == [
        "analyses[0].data (study.yaml:22): performance_profiles reads 'histories' (best-so-far "
        "records per run) data; the data source 'runs' gives 'trials' (one final value per run)"
    ]


def test_a_platform_source_gives_the_layout_it_is_read_in(tmp_path):
    text = SPEC + "  - kind: runtime_ecdf\n    data: [coco_runs]\n"
    assert problems(write(tmp_path, "study.yaml", text)) == [
        "analyses[0].data[0] (study.yaml:22): runtime_ecdf reads 'histories' (best-so-far "
        "records per run) data; the data source 'coco_runs' gives 'trials' (one final value "
        "per run)"
    ]


def test_options_narrow_the_layouts_in_the_same_words(tmp_path):
    text = SPEC + textwrap.indent(
        textwrap.dedent(
            """\
            - kind: u_scores
              data: runs
              target: 1.0e-8
              cutpoints: [0.5, 1.0]
            - kind: probabilistic_profiles
              id: pp
              data: published
              model: empirical
            - kind: problem_table
              data: published
              statistics: [median_iqr]
            """
        ),
        "  ",
    )
    assert problems(write(tmp_path, "study.yaml", text)) == [
        "analyses[0].cutpoints (study.yaml:24): u_scores with 'cutpoints' reads 'histories' "
        "(best-so-far records per run) data; the data source 'runs' gives 'trials' (one final "
        "value per run)",
        "analyses[1].model (study.yaml:28): probabilistic_profiles with 'model' reads 'trials' (one "
        "final value per run) data; the data source 'published' gives 'summary' (published "
        "statistics per algorithm and problem)",
        "analyses[2].statistics (study.yaml:31): problem_table with 'statistics' reads 'trials' "
        "(one final value per run) or 'histories' (best-so-far records per run) data; the data "
        "source 'published' gives 'summary' (published statistics per algorithm and problem)",
    ]


def test_every_kind_declares_what_it_reads():
    for kind, entry in ANALYSES.items():
        assert entry.options.reads, kind
        assert set(entry.options.reads) <= set(LAYOUT_WORDS), kind
