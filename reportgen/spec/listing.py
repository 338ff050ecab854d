"""The study spec as a published report lists it: the author's folders left out.

With ``report.paths: relative`` (the default) every absolute path in the spec's text is written
relative to the spec's folder (``~`` for the home folder), as the provenance names files, so a
report published as a supplement does not disclose where its author keeps files.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from reportgen.spec.load import KeyPath, LoadedSpec, SpecLoader


def _string_values(node: Any) -> list[str]:
    return [value for _, value in string_leaves(node)]


def string_leaves(node: Any, prefix: KeyPath = ()) -> list[tuple[KeyPath, str]]:
    """(key path, text) of every string value of a parsed spec, in document order."""
    if isinstance(node, str):
        return [(prefix, node)]
    if isinstance(node, dict):
        return [
            leaf for key, value in node.items() for leaf in string_leaves(value, (*prefix, key))
        ]
    if isinstance(node, list):
        return [leaf for i, value in enumerate(node) for leaf in string_leaves(value, (*prefix, i))]
    return []


def parsed_spec(spec: LoadedSpec) -> Any:
    """The spec's text parsed as the loader parses it; None if it no longer parses."""
    try:
        return yaml.load(spec.text(), Loader=SpecLoader)  # validated: bounded, parseable
    except yaml.YAMLError:
        return None


def published_spec_text(spec: LoadedSpec) -> str:
    """The spec as the report's appendix shows it: with ``report.paths: relative`` (the
    default) every absolute path written in it — each value that is one (data paths, a
    published table, the output folder), then any mention of the spec's folder or of the
    home folder (comments) — relative to the spec's folder (``~`` for the home folder), as the
    provenance names files; the author's folders are not published."""
    text = spec.text()
    if spec.study.report.paths == "absolute":
        return text
    values = _string_values(parsed_spec(spec))
    absolute = {v for v in values if "\n" not in v and os.path.isabs(v)}
    for value in sorted(absolute, key=len, reverse=True):
        text = text.replace(value, os.path.relpath(value, spec.base_dir))
    ends = r"(?=[/\s'\"\]},]|$)"
    text = re.sub(re.escape(str(spec.base_dir)) + r"/", "", text)
    text = re.sub(re.escape(str(spec.base_dir)) + ends, ".", text, flags=re.MULTILINE)
    home = str(Path.home())
    if home.strip("/"):
        text = re.sub(re.escape(home) + ends, "~", text, flags=re.MULTILINE)
    return text
