"""Read a study spec from YAML into a validated :class:`~reportgen.spec.study.Study`.

Every problem is reported at once, each naming the dotted key path *and* the ``file:line`` of
the offending value, quoting the bad value and saying what is allowed, with a "did you mean"
suggestion for misspelt keys and kinds. YAML is parsed with the safe loader; duplicate keys
(which PyYAML would silently collapse) are errors.

A spec given as a Python mapping (the Python API) is read as YAML would give it: paths and
NumPy numbers and arrays become text, numbers and lists; a value YAML cannot hold is a problem
at its key. An argument of the wrong type (``load_study(None)``) is a ``TypeError`` naming the
argument: a mistake in the calling code, not in the study.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError

from reportgen.errors import InputError, Problem, did_you_mean, quote_choices, shorten
from reportgen.paths import not_there, real_path
from reportgen.spec.analyses import ANALYSIS_OPTIONS
from reportgen.spec.base import layout_message
from reportgen.spec.study import Study

KeyPath = tuple[str | int, ...]


@dataclass(frozen=True)
class LoadedSpec:
    """A validated study with where it came from.

    Attributes
    ----------
    study : Study
        The validated spec.
    path : pathlib.Path
        The spec file (absolute).
    lines : dict
        Line number (1-based) of every key path in the YAML, for later error messages.
    """

    study: Study
    path: Path
    lines: Mapping[KeyPath, int]
    source_text: str | None = None
    """The spec as YAML text when it was given as a mapping (``path`` then names no file)."""
    frames: Mapping[str, Any] = field(default_factory=dict)
    """Data sources given in memory (the Python API): source name → DataFrame."""
    given: Mapping[KeyPath, str] = field(default_factory=dict)
    """Settings the command line gave in place of the spec's (key path → the option, e.g.
    ``--scheduler``): problems with them name the option, not a line of the spec."""

    def text(self) -> str:
        """The spec's YAML text, as the report's provenance shows it."""
        if self.source_text is not None:
            return self.source_text
        return self.path.read_text(encoding="utf-8")

    @property
    def base_dir(self) -> Path:
        """The folder that relative data paths are resolved against."""
        return self.path.parent

    def where(self, key_path: KeyPath) -> str:
        """``analyses[0].tolerances (study.yaml:12)`` for a key path (the option that gave it
        where the command line did, e.g. ``--scheduler``)."""
        if key_path in self.given:
            return self.given[key_path]
        return format_where(key_path, self.path, self.lines)


def format_key_path(key_path: KeyPath) -> str:
    """``('analyses', 0, 'tolerances')`` → ``analyses[0].tolerances``."""
    text = ""
    for part in key_path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def format_where(key_path: KeyPath, path: Path, lines: Mapping[KeyPath, int]) -> str:
    """The dotted key path with the YAML file and line of its nearest located ancestor."""
    probe = key_path
    while probe and probe not in lines:
        probe = probe[:-1]
    line = lines.get(probe)
    location = f"{path.name}:{line}" if line else path.name
    return f"{format_key_path(key_path)} ({location})"


def _compose_lines(
    node: yaml.Node, prefix: KeyPath, lines: dict[KeyPath, int], problems: list[Problem], path: Path
) -> None:
    """Record the line of every key path; report duplicate mapping keys."""
    lines.setdefault(prefix, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value)
            line = key_node.start_mark.line + 1
            if key in seen:
                problems.append(
                    Problem(
                        format_where((*prefix, key), path, {(*prefix, key): line}),
                        f"duplicate key '{key}' (first given on line {seen[key]})",
                    )
                )
            seen[key] = line
            lines[(*prefix, key)] = line
            _compose_lines(value_node, (*prefix, key), lines, problems, path)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _compose_lines(item, (*prefix, index), lines, problems, path)


MAX_SPEC_BYTES = 1_000_000
"""Largest spec file read: a real spec is a few kB even with hundreds of algorithms."""
MAX_DEPTH = 50
"""Deepest nesting of mappings and lists (the spec model needs 5)."""
MAX_VALUES = 100_000
"""Most values the spec may hold once every alias is expanded (bounds "billion laughs")."""
MAX_INT_DIGITS = 100
"""Longest integer literal (Python refuses to convert more than 4300 digits)."""


class SpecLoader(yaml.SafeLoader):
    """The safe loader (no Python objects), reading numbers as YAML 1.2 does.

    PyYAML implements YAML 1.1, whose floats need a decimal point and a signed exponent:
    ``1e-8``, ``1e8`` and ``1.0e8`` are strings there, and ``target: 1e-8`` — how most people
    write a target — was refused as "should be a valid number". This loader also reads a
    number with an exponent and no point, or an unsigned exponent, as a float (YAML 1.2's core
    schema). Everything that reads a spec's YAML uses it, so a spec means the same to the
    report, its appendix's listing and a bundle that reruns it.
    """


SpecLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)[eE][-+]?[0-9]+$"),
    list("-+.0123456789"),
)


def _check_bounds(text: str, path: Path) -> None:
    """Refuse YAML that would exhaust memory, time or the stack before it is built.

    One pass over the parser's events (the parser is iterative, so deep nesting cannot overflow
    it): nesting depth, integer literal length, aliases that refer to the collection they are
    in (a loop), and the number of values once every alias is expanded — counted, not built,
    so a 700-byte "billion laughs" spec is refused in milliseconds.
    """
    resolver = SpecLoader("")
    int_tag = "tag:yaml.org,2002:int"
    sizes: dict[str, int] = {}  # expanded size of each finished anchored node
    open_anchors: list[str | None] = []
    counts: list[int] = [0]  # expanded values of each open collection (and the document)

    def refuse(event: yaml.Event, message: str) -> InputError:
        mark = event.start_mark
        where = f"{path.name}:{mark.line + 1}:{mark.column + 1}" if mark else path.name
        return InputError(Problem(where, message))

    for event in yaml.parse(text, Loader=SpecLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_anchors) >= MAX_DEPTH:
                raise refuse(event, f"the YAML is nested more than {MAX_DEPTH} levels deep")
            open_anchors.append(event.anchor)
            counts.append(1)
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, size = open_anchors.pop(), counts.pop()
            counts[-1] += size
            if anchor is not None:
                sizes[anchor] = size
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor in open_anchors:
                raise refuse(
                    event,
                    f"the alias '*{event.anchor}' refers to a list or mapping that contains it "
                    "(an endless loop)",
                )
            counts[-1] += sizes.get(event.anchor or "", 1)
        elif isinstance(event, yaml.ScalarEvent):
            counts[-1] += 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
            if (
                len(event.value) > MAX_INT_DIGITS
                and event.implicit[0]
                # PyYAML's stubs leave Resolver.resolve untyped
                and resolver.resolve(yaml.ScalarNode, event.value, event.implicit)  # type: ignore[no-untyped-call]
                == int_tag
            ):
                raise refuse(
                    event,
                    f"a number with {len(event.value):,} digits; numbers in a spec have at most "
                    f"{MAX_INT_DIGITS}",
                )
        if sum(counts) > MAX_VALUES:
            raise refuse(
                event,
                f"aliases expand the spec to more than {MAX_VALUES:,} values; "
                "write the values out instead of nesting aliases",
            )


def read_yaml(path: Path) -> tuple[Any, dict[KeyPath, int]]:
    """Parse a YAML file safely; return the data and the line of every key path.

    "Safely" is the safe loader (no Python objects) plus bounds on size
    (:data:`MAX_SPEC_BYTES`), depth, integer length and alias expansion
    (:func:`_check_bounds`): every spec is read in milliseconds or refused with a message.
    """
    try:
        if path.is_dir():
            raise InputError(
                Problem(str(path), "is a folder; give the spec file (study.yaml) in it")
            )
        if not path.is_file():
            raise InputError(Problem(str(path), f"the spec file {not_there(path)}"))
        size = path.stat().st_size
        if size > MAX_SPEC_BYTES:
            raise InputError(
                Problem(
                    path.name,
                    f"the spec file has {size:,} bytes; a spec has at most {MAX_SPEC_BYTES:,}",
                )
            )
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            Problem(str(path), f"the spec file is not UTF-8 text ({exc.reason})")
        ) from None
    except OSError as exc:
        raise InputError(
            Problem(str(path), f"cannot read the spec file: {exc.strerror or exc}")
        ) from None
    try:
        _check_bounds(text, path)
        node = yaml.compose(text, Loader=SpecLoader)
        data = yaml.load(text, Loader=SpecLoader)  # SpecLoader is a SafeLoader
    except yaml.reader.ReaderError as exc:
        # A control character (NUL, ESC, ...): PyYAML names its offset in "<unicode string>"
        # over two lines; the reader wants the line and column, as for any other error.
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise InputError(
            Problem(
                f"{path.name}:{line}:{column}",
                f"a character a YAML file may not hold: U+{exc.character:04X} "
                "(a control character; delete it, or write it as an escape in a quoted string)",
            )
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path.name}:{mark.line + 1}:{mark.column + 1}" if mark else path.name
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        detail = f"{context}, {problem}" if context else problem
        if "'\\t'" in problem:  # the commonest cause: an editor that indents with tabs
            detail += " (YAML indents with spaces, never tabs)"
        raise InputError(Problem(where, f"YAML syntax error: {detail}")) from None
    lines: dict[KeyPath, int] = {}
    problems: list[Problem] = []
    if node is not None:
        _compose_lines(node, (), lines, problems, path)
    if problems:
        raise InputError(problems)
    return data, lines


DICT_SPEC_NAME = "<dict>"
"""The file name a spec given as a Python mapping is known by in messages."""


def load_spec(
    source: str | Path | Mapping[str, Any],
    base_dir: str | Path | None = None,
    frames: Mapping[str, Any] | None = None,
) -> LoadedSpec:
    """Read and validate a study spec (the spec only; data is checked by the data layer).

    Parameters
    ----------
    source : path or mapping
        A YAML file, or the spec itself as a mapping (what the YAML would hold).
    base_dir : path, optional
        For a mapping: the folder its relative data paths and ``report.output`` are resolved
        against (default: the current folder). Ignored for a file (its own folder).
    frames : mapping of str to pandas.DataFrame, optional
        Data sources given in memory: source name → its table, with the columns a file of
        the source's ``format`` would have (mapped by ``columns:`` as for a file). Such a
        source needs no ``path``; the data appendix names it "DataFrame 'name'". A table
        with a ``to_pandas()`` method (a pyarrow Table, a polars DataFrame) is converted with
        it (:func:`usable_frames`).

    Raises
    ------
    InputError
        With every problem found, each located by key path and ``file:line`` (for a mapping:
        the key path and ``<dict>``).
    """
    # Only with frames: pandas is not imported to read a spec (a spec with errors answers
    # without the libraries' seconds of start-up).
    _check_argument_types(source, base_dir, frames)
    frames = usable_frames(frames) if frames else {}
    text: str | None = None
    lines: dict[KeyPath, int] = {}
    if isinstance(source, Mapping):
        folder = real_path(base_dir if base_dir is not None else Path.cwd())
        path = folder / DICT_SPEC_NAME
        unusable: list[Problem] = []
        data: Any = _plain(source, (), path, unusable)
        if unusable:
            raise InputError(unusable)
    else:
        path = real_path(source)
        data, lines = read_yaml(path)
    if frames:
        data = _with_frame_sources(data, frames, path)
    if isinstance(source, Mapping):
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    loaded = _validated(data, path, lines, text)
    return dataclasses.replace(loaded, frames=frames) if frames else loaded


def _check_argument_types(source: Any, base_dir: Any, frames: Any) -> None:
    """A TypeError that names the argument, for a call of the Python API with the wrong type
    (``load_study(None)`` failed deep in :mod:`os` with "expected str, bytes or os.PathLike
    object, not NoneType")."""
    path_like = (str, os.PathLike)
    if not isinstance(source, (*path_like, Mapping)):
        raise TypeError(
            "study: expected the path of a spec file (str or pathlib.Path), the spec as a "
            f"dict, or a study from reportgen.load_study; got {type(source).__name__}"
        )
    if base_dir is not None and not isinstance(base_dir, path_like):
        raise TypeError(
            f"base_dir: expected a folder (str or pathlib.Path); got {type(base_dir).__name__}"
        )
    if frames is not None and not isinstance(frames, Mapping):
        raise TypeError(
            f"frames: expected a dict of source name to DataFrame; got {type(frames).__name__}"
        )


def usable_frames(frames: Mapping[str, Any]) -> dict[str, Any]:
    """The Python API's in-memory sources as pandas DataFrames with text column names.

    A pyarrow Table or a polars DataFrame becomes one by its own ``to_pandas()``; column
    labels that are not text (numbers) become their text, as a CSV header would give them.

    Raises
    ------
    InputError
        For anything else (a dict, an array: their columns have no names to map), and for
        columns with several levels (a MultiIndex: which level names the column?).
    """
    import pandas as pd

    usable: dict[str, Any] = {}
    problems: list[Problem] = []
    for name, frame in frames.items():
        where = f"frames['{name}']"
        if not isinstance(frame, pd.DataFrame) and callable(getattr(frame, "to_pandas", None)):
            frame = frame.to_pandas()
        if not isinstance(frame, pd.DataFrame):
            problems.append(
                Problem(
                    where,
                    f"got a {type(frame).__name__}; give a pandas DataFrame (or a table with "
                    "to_pandas(), such as a pyarrow Table or a polars DataFrame)",
                )
            )
            continue
        if isinstance(frame.columns, pd.MultiIndex):
            problems.append(
                Problem(
                    where,
                    f"its columns have {frame.columns.nlevels} levels; give one name per "
                    "column (e.g. frame.columns = frame.columns.map('_'.join))",
                )
            )
            continue
        if not all(isinstance(c, str) for c in frame.columns):
            frame = frame.rename(columns=str)
        usable[name] = frame
    if problems:
        raise InputError(problems)
    return usable


def frame_path(name: str) -> str:
    """The placeholder ``path`` of a source given as a DataFrame (never a real file name)."""
    return f"<DataFrame {name}>"


def _with_frame_sources(data: Any, frames: dict[str, Any], path: Path) -> Any:
    """The spec with a placeholder ``path`` for every source given as a DataFrame."""
    sources = data.get("data") if isinstance(data, dict) else None
    if not isinstance(sources, dict):
        return data
    problems: list[Problem] = []
    for name in frames:
        source = sources.get(name)
        if not isinstance(source, dict):
            problems.append(
                Problem(
                    format_where(("data",), path, {}),
                    f"a DataFrame was given for source '{name}', which the spec does not "
                    f"declare{did_you_mean(name, [str(k) for k in sources])}; declare it with "
                    "its format (and columns)",
                )
            )
        elif "path" in source or "paths" in source:
            problems.append(
                Problem(
                    format_where(("data", name), path, {}),
                    "given both as a DataFrame and by 'path'/'paths'; give one",
                )
            )
    if problems:
        raise InputError(problems)
    return {
        **data,
        "data": {
            name: {**source, "path": frame_path(name)} if name in frames else source
            for name, source in sources.items()
        },
    }


def _plain(value: Any, key_path: KeyPath, path: Path, problems: list[Problem]) -> Any:
    """A mapping from Python code as YAML would give it: dicts, lists and scalars.

    NumPy numbers and arrays (``np.logspace(-8, -1, 8)`` as tolerances) become the Python
    numbers and lists they hold; any other value YAML cannot hold (an object, a function) is a
    problem naming its key, rather than a YAML representer error.
    """
    if isinstance(value, Mapping):
        return {str(k): _plain(v, (*key_path, str(k)), path, problems) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, (*key_path, i), path, problems) for i, v in enumerate(value)]
    if isinstance(value, Path):
        return str(value)
    if type(value).__module__ == "numpy" and callable(getattr(value, "tolist", None)):
        return _plain(value.tolist(), key_path, path, problems)
    if value is not None and not isinstance(value, (str, int, float, bool, set)):
        problems.append(
            Problem(
                format_where(key_path, path, {}),
                f"got {shorten(repr(value))} (type {type(value).__name__}); a spec holds "
                "text, numbers, true/false, lists and mappings",
            )
        )
    return value


def _validated(data: Any, path: Path, lines: dict[KeyPath, int], text: str | None) -> LoadedSpec:
    if not isinstance(data, dict):
        raise InputError(
            Problem(
                f"{path.name}:1",
                f"the spec must be a mapping of keys (study, data, analyses, ...); got {_describe(data)}",
            )
        )
    problems = _check_references(data, path, lines)
    try:
        study = Study.model_validate(data)
    except ValidationError as exc:
        raise InputError([*_translate(exc, data, path, lines), *problems]) from None
    problems += _check_layouts(study, path, lines)
    if problems:
        raise InputError(problems)
    return LoadedSpec(study=study, path=path, lines=lines, source_text=text)


def _check_layouts(study: Study, path: Path, lines: Mapping[KeyPath, int]) -> list[Problem]:
    """Every analysis reads only layouts it accepts: the one check of input formats.

    Each kind declares what it reads (``reads`` on its options model, narrowed by options such
    as u_scores' ``cutpoints``); the layout of each source follows from the spec alone, so a
    mismatch is found here, before any data is read, located at the key that asks.
    """
    problems: list[Problem] = []
    for index, options in enumerate(study.analyses):
        names = [options.data] if isinstance(options.data, str) else options.data
        for j, name in enumerate(names):
            source = study.data.get(name)
            if source is None:  # reported by _check_references
                continue
            for key, accepted in options.layout_needs().items():
                if source.layout in accepted:
                    continue
                subject: str = options.kind
                if key == "data":
                    where: KeyPath = (
                        ("analyses", index, "data")
                        if isinstance(options.data, str)
                        else ("analyses", index, "data", j)
                    )
                else:
                    subject, where = f"{options.kind} with '{key}'", ("analyses", index, key)
                problems.append(
                    Problem(
                        format_where(where, path, lines),
                        layout_message(subject, accepted, name, source.layout),
                    )
                )
    return problems


# --- translating pydantic errors ------------------------------------------------------------

_PRIMITIVE_BRANCHES = {"str", "int", "float", "bool", "none"}


def _resolve(loc: Sequence[str | int], data: Any) -> tuple[KeyPath, Any, list[str]]:
    """Walk an error location over the raw data.

    Pydantic inserts union branch tags (``'performance_profiles'``, ``'str'``) into locations;
    they are not keys of the data. Return the data key path, the value there, and the skipped
    branch tags.
    """
    key_path: list[str | int] = []
    branches: list[str] = []
    node: Any = data
    for part in loc:
        if (isinstance(node, dict) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        ):
            key_path.append(part)
            node = node[part]  # type: ignore[index]  # checked above: a key or a valid index
        elif isinstance(node, dict) and not _is_branch_tag(part, node):
            key_path.append(part)  # a missing key
            node = None
        else:
            branches.append(str(part))
    return tuple(key_path), node, branches


def _branch_kind(tag: str) -> str:
    """``'constrained-str'`` → ``'str'``, ``'list[str]'`` → ``'list'``: the type of a union branch.

    A branch with a validator is tagged by what it wraps
    (``'function-after[_without_control(), constrained-str]'``): its type is the wrapped one.
    """
    if tag.startswith("function-") and tag.endswith("]"):
        tag = tag[tag.index("[") + 1 : -1].rsplit(", ", 1)[-1]
    return tag.removeprefix("constrained-").split("[")[0].lower()


def _is_branch_tag(part: str | int, node: dict[str, Any]) -> bool:
    if not isinstance(part, str):
        return False
    if part == node.get("kind"):
        return True
    if _branch_kind(part) in ("list", "dict"):  # the list branch of `str | list[str]`
        return True
    return _branch_kind(part) in _PRIMITIVE_BRANCHES or part[:1].isupper()


def _model_at(key_path: KeyPath, raw: Any) -> type[BaseModel] | None:
    """The spec model that validates the mapping at ``key_path``."""
    model: Any = Study
    node = raw
    for part in key_path:
        if model is None:
            return None
        if isinstance(node, dict) and isinstance(part, str):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        model = _field_model(model, part, node)
    return model


def _field_model(model: Any, part: str | int, node: Any) -> type[BaseModel] | None:
    if isinstance(model, tuple):  # a list/dict element type
        annotation = model[0]
    elif isinstance(part, str) and isinstance(model, type) and issubclass(model, BaseModel):
        field = model.model_fields.get(part)
        if field is None:
            return None
        annotation = field.annotation
    else:
        return None

    def pick(annotation: Any) -> Any:
        origin = get_origin(annotation)
        if origin in (list, dict):
            return (get_args(annotation)[-1],)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return annotation
        candidates = [pick(a) for a in get_args(annotation)]
        candidates = [c for c in candidates if c is not None]
        if isinstance(node, dict) and "kind" in node:
            for c in candidates:
                kind = getattr(c, "model_fields", {}).get("kind")
                if kind is not None and node["kind"] in get_args(kind.annotation):
                    return c
        models = [c for c in candidates if isinstance(c, type)]
        return models[0] if models else (candidates[0] if candidates else None)

    return pick(annotation)


def _describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (_dt.date, _dt.time)):
        # YAML reads an unquoted 2024-01-01 as a date: show it as written, not as Python's
        # datetime.date(2024, 1, 1), and say how to keep it text.
        return f"the date {value.isoformat()} (YAML reads it as a date; quote it to keep text)"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _translate(
    exc: ValidationError, data: Any, path: Path, lines: Mapping[KeyPath, int]
) -> list[Problem]:
    problems: list[Problem] = []
    resolved = []
    for err in exc.errors(include_url=False):
        key_path, value, branches = _resolve(err["loc"], data)
        resolved.append((key_path, value, branches, err))
    # For a union such as `str | AlgorithmRef`, a mapping was meant as the model: drop the
    # complaints of the primitive branches when a model branch also reported.
    model_paths = {
        kp for kp, _, br, _ in resolved if br and _branch_kind(br[-1]) not in _PRIMITIVE_BRANCHES
    }
    # Likewise for `str | list[str]`: a list was meant as the list.
    list_paths = {kp for kp, _, br, _ in resolved if br and _branch_kind(br[-1]) == "list"}
    # And a string was meant as the string: when its own branch refused it (a name with a
    # control character), the model branch's "should be a valid dictionary" is noise.
    text_paths = {
        kp
        for kp, value, br, _ in resolved
        if br and _branch_kind(br[-1]) == "str" and isinstance(value, str)
    }
    seen: set[tuple[KeyPath, str]] = set()
    for key_path, value, branches, err in resolved:
        if (
            isinstance(value, list)
            and branches
            and _branch_kind(branches[-1]) in _PRIMITIVE_BRANCHES
            and any(lp[: len(key_path)] == key_path for lp in list_paths)
        ):
            continue
        if (
            branches
            and _branch_kind(branches[-1]) in _PRIMITIVE_BRANCHES
            and any(
                mp[: len(key_path)] == key_path or key_path[: len(mp)] == mp for mp in model_paths
            )
            and isinstance(value, dict)
        ):
            continue
        if (
            isinstance(value, str)
            and branches
            and _branch_kind(branches[-1]) not in _PRIMITIVE_BRANCHES
            and key_path in text_paths
        ):
            continue
        message = _message(err, key_path, value, data)
        if (key_path, message) in seen:
            continue
        seen.add((key_path, message))
        problems.append(Problem(format_where(key_path, path, lines), message))
    return problems


def _message(err: Any, key_path: KeyPath, value: Any, data: Any) -> str:
    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind == "extra_forbidden":
        key = str(key_path[-1])
        model = _model_at(key_path[:-1], data)
        allowed = sorted(model.model_fields) if model is not None else []
        hint = did_you_mean(key, allowed)
        listing = f"; allowed keys: {quote_choices(allowed)}" if allowed else ""
        return f"unknown key '{key}'{hint}{listing}"
    if kind == "missing":
        return f"required key '{key_path[-1]}' is missing"
    kinds = analysis_kinds()
    if kind == "union_tag_invalid":
        tag = str(ctx.get("tag"))
        return f"unknown analysis kind '{tag}'{did_you_mean(tag, kinds)}; allowed: {quote_choices(kinds)}"
    if kind == "union_tag_not_found":
        return f"each analysis needs a 'kind'; allowed: {quote_choices(kinds)}"
    if kind == "literal_error":
        expected = str(ctx.get("expected", ""))
        choices = [c.strip(" '") for c in expected.replace(" or ", ", ").split(",")]
        return f"got {_describe(value)}; allowed: {expected}{did_you_mean(str(value), choices)}"
    if kind == "value_error":
        return str(err["msg"]).removeprefix("Value error, ")
    msg = str(err["msg"])
    msg = msg[0].lower() + msg[1:] if msg else msg
    return f"got {_describe(value)}; {msg.removeprefix('input ')}"


def analysis_kinds() -> list[str]:
    """The ``kind`` values of every analysis, in registry order."""
    return [get_args(model.model_fields["kind"].annotation)[0] for model in ANALYSIS_OPTIONS]


def _check_references(
    data: dict[str, Any], path: Path, lines: Mapping[KeyPath, int]
) -> list[Problem]:
    """Cross-key checks on the raw spec: analyses name existing sources; ids are unique.

    Run on the raw data (not the validated model) so that they are reported together with
    every other problem, even when some part of the spec failed validation.
    """
    problems: list[Problem] = []
    raw_sources = data.get("data")
    sources_map: dict[str, Any] = raw_sources if isinstance(raw_sources, dict) else {}
    sources = [str(s) for s in sources_map]
    raw_analyses = data.get("analyses")
    analyses: list[Any] = raw_analyses if isinstance(raw_analyses, list) else []
    seen_ids: dict[str, tuple[int, str]] = {}
    for index, analysis in enumerate(analyses):
        if not isinstance(analysis, dict):
            continue
        raw_names = analysis.get("data")
        names = (
            [raw_names]
            if isinstance(raw_names, str)
            else raw_names
            if isinstance(raw_names, list)
            else []
        )
        for j, name in enumerate(names):
            # 'data' missing, empty or no mapping is reported by validation; every reference
            # to it as unknown ("the spec defines: " and nothing) would only bury that message.
            if sources and isinstance(name, str) and name not in sources_map:
                key: KeyPath = (
                    ("analyses", index, "data")
                    if isinstance(raw_names, str)
                    else ("analyses", index, "data", j)
                )
                problems.append(
                    Problem(
                        format_where(key, path, lines),
                        f"no data source named '{name}'{did_you_mean(name, sources)}; "
                        f"the spec defines: {quote_choices(sources)}",
                    )
                )
        declared = [
            sources_map[n].get("format")
            for n in names
            if isinstance(n, str) and isinstance(sources_map.get(n), dict)
        ]
        # A format that is not a name (a list, a mapping) is reported by validation.
        formats = {"summary" if f == "wide" else f for f in declared if isinstance(f, str)}
        if len(formats) > 1:
            problems.append(
                Problem(
                    format_where(("analyses", index, "data"), path, lines),
                    f"sources of different formats cannot be merged: {quote_choices(sorted(formats))}",
                )
            )
        analysis_id = analysis.get("id") or analysis.get("kind")
        if isinstance(analysis_id, str):
            # By folder name: 'Main' and 'main' are one folder on macOS and Windows.
            folder = analysis_id.casefold()
            if folder in seen_ids:
                first, used = seen_ids[folder]
                problems.append(
                    Problem(
                        format_where(("analyses", index), path, lines),
                        f"analysis id '{analysis_id}' is already used by analyses[{first}]; "
                        "give each analysis of the same kind its own 'id'"
                        if used == analysis_id
                        else f"analysis id '{analysis_id}' differs from analyses[{first}]'s "
                        f"'{used}' only in case: they would share one tables/ and figures/ "
                        "folder where names ignore case (macOS, Windows); choose another",
                    )
                )
            seen_ids.setdefault(folder, (index, analysis_id))
    return problems
