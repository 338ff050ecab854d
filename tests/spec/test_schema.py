"""schemas/study.schema.json is generated from the models and must stay in sync."""

from __future__ import annotations

import json

import pydantic
import pytest

from reportgen.spec.schema import study_schema
from tests.conftest import ROOT

GENERATED_WITH = (2, 14)
"""The pydantic release whose JSON Schema output schemas/study.schema.json is. Older ones (down
to pyproject's floor) validate specs the same way but write a different schema: no
``maxLength`` from the models' ``str_max_length``, ``enum`` beside ``const``, 0.0 for 0."""


@pytest.mark.skipif(
    tuple(int(part) for part in pydantic.VERSION.split(".")[:2]) < GENERATED_WITH,
    reason=f"pydantic {pydantic.VERSION} writes its schema differently from the file's",
)
def test_schema_file_is_up_to_date():
    on_disk = json.loads((ROOT / "schemas" / "study.schema.json").read_text(encoding="utf-8"))
    assert on_disk == study_schema(), "regenerate with: make schema"


def test_schema_names_every_analysis_kind():
    from reportgen.spec.load import analysis_kinds

    text = json.dumps(study_schema())
    for kind in analysis_kinds():
        assert f'"{kind}"' in text


def test_example_specs_carry_the_schema_comment():
    for spec in sorted((ROOT / "example_studies").glob("*/study.yaml")):
        first = spec.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../schemas/study.schema.json", spec
