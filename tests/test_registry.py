"""The registry binds every piece of every analysis kind, and refuses a kind wired wrongly."""

from __future__ import annotations

import dataclasses

import pytest

from reportgen.registry import ANALYSES, AnalysisKind, RegistryError, _registry, kind_of
from reportgen.spec.analyses import ANALYSIS_OPTIONS


def test_every_kind_of_the_spec_has_an_entry_and_no_more():
    assert sorted(ANALYSES) == sorted(kind_of(options) for options in ANALYSIS_OPTIONS)
    for kind, entry in ANALYSES.items():
        assert entry.kind == kind
        assert entry.compute.__module__ == f"reportgen.analyses.{kind}"
        assert entry.build_section.__module__ == f"reportgen.render.sections.{kind}"
        assert entry.findings.__module__ == f"reportgen.narrative.{kind}"


def test_a_forgotten_piece_does_not_build():
    entry = ANALYSES["u_scores"]
    pieces = {f.name: getattr(entry, f.name) for f in dataclasses.fields(entry)}
    del pieces["rankings"]  # the synthesis adapter, which used to drop out silently
    with pytest.raises(TypeError, match="rankings"):
        AnalysisKind(**pieces)


def test_a_kind_of_the_spec_without_an_entry_fails():
    entries = [e for e in ANALYSES.values() if e.kind != "runtime_ecdf"]
    with pytest.raises(RegistryError, match="runtime_ecdf: in the spec, but not registered"):
        _registry(*entries)


def test_a_piece_that_reads_another_result_type_fails():
    wrong = dataclasses.replace(ANALYSES["u_scores"], figures=ANALYSES["runtime_ecdf"].figures)
    others = [e for e in ANALYSES.values() if e.kind != "u_scores"]
    with pytest.raises(RegistryError, match=r"u_scores: reportgen\.figures\.runtime_ecdf\.figures"):
        _registry(*others, wrong)
