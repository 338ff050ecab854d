"""The JSON Schema as editors use it: every example validates; one error per mistake, located."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT

jsonschema = pytest.importorskip("jsonschema")

SCHEMA = json.loads((ROOT / "schemas" / "study.schema.json").read_text(encoding="utf-8"))
EXAMPLES = sorted((ROOT / "example_studies").glob("*/study.yaml"))


def as_json(value: Any) -> Any:
    """YAML data as an editor's JSON view of it (mapping keys are strings)."""
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    return value


def errors(spec: Any) -> list[Any]:
    return list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(as_json(spec)))


def test_no_openapi_discriminator_is_left() -> None:
    text = json.dumps(SCHEMA)
    assert '"discriminator"' not in text and '"oneOf"' not in text


@pytest.mark.parametrize("spec", EXAMPLES, ids=lambda p: p.parent.name)
def test_every_example_spec_is_valid_for_editors(spec: Path) -> None:
    assert [e.message for e in errors(yaml.safe_load(spec.read_text(encoding="utf-8")))] == []


def test_a_misspelt_option_is_one_error_at_its_analysis() -> None:
    spec = yaml.safe_load((ROOT / "example_studies" / "quickstart" / "study.yaml").read_text())
    spec["analyses"][0]["tolerence"] = [0.1]
    found = errors(spec)
    assert len(found) == 1
    assert list(found[0].absolute_path) == ["analyses", 0]
    assert "'tolerence' was unexpected" in found[0].message


def test_an_unknown_kind_lists_the_kinds() -> None:
    spec = yaml.safe_load((ROOT / "example_studies" / "quickstart" / "study.yaml").read_text())
    spec["analyses"][0]["kind"] = "performance_profile"
    found = errors(spec)
    assert [list(e.absolute_path) for e in found] == [["analyses", 0, "kind"]]
    assert "performance_profiles" in found[0].message
