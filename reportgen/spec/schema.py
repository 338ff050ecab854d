"""The JSON Schema of the study spec, generated from the pydantic models.

``schemas/study.schema.json`` is this schema; a test fails when the file is out of date
(regenerate it with ``reportgen schema > schemas/study.schema.json``).
"""

from __future__ import annotations

from typing import Any

from reportgen.spec.study import Study


def study_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a study spec."""
    schema = Study.model_json_schema(mode="validation")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://reportgen.invalid/schemas/study.schema.json",
        "$comment": "Generated from reportgen.spec.study.Study by `reportgen schema`; do not edit by hand.",
        **schema,
        "title": "reportgen study spec",
    }
