"""The JSON Schema of the study spec, generated from the pydantic models.

``schemas/study.schema.json`` is this schema; a test fails when the file is out of date
(regenerate it with ``reportgen schema > schemas/study.schema.json``).

Tagged unions (the analyses, told apart by ``kind``) are written as one ``if``/``then`` per
tag instead of pydantic's ``oneOf`` with an OpenAPI ``discriminator``: JSON Schema validators
and editors ignore ``discriminator``, so with ``oneOf`` a single misspelt option was reported
against every kind of analysis at once ("does not match any of 8 schemas"). With ``if``/
``then`` the ``kind`` selects one branch, and errors and completions are that branch's.
"""

from __future__ import annotations

from typing import Any

from reportgen.spec.study import Study


def study_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a study spec."""
    schema = _tagged_unions_as_if_then(Study.model_json_schema(mode="validation"))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://reportgen.invalid/schemas/study.schema.json",
        "$comment": "Generated from reportgen.spec.study.Study by `reportgen schema`; do not edit by hand.",
        **schema,
        "title": "reportgen study spec",
    }


def _tagged_unions_as_if_then(node: Any) -> Any:
    """Replace every ``oneOf`` + ``discriminator`` by a tag ``enum`` and one ``if``/``then`` per tag."""
    if isinstance(node, list):
        return [_tagged_unions_as_if_then(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _tagged_unions_as_if_then(value) for key, value in node.items()}
    discriminator = node.get("discriminator")
    if not (isinstance(discriminator, dict) and "oneOf" in node):
        return node
    tag, mapping = discriminator["propertyName"], discriminator["mapping"]
    rest = {k: v for k, v in node.items() if k not in {"oneOf", "discriminator"}}
    return {
        **rest,
        "type": "object",
        "required": [tag],
        "properties": {
            tag: {
                "enum": sorted(mapping),
                "description": f"The {tag} of this entry; it selects which keys are allowed.",
            }
        },
        "allOf": [
            {
                "if": {"properties": {tag: {"const": value}}, "required": [tag]},
                "then": {"$ref": mapping[value]},
            }
            for value in sorted(mapping)
        ],
    }
