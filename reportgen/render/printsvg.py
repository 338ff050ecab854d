"""The copy of a figure's SVG that weasyprint draws into the PDF: the same picture, less work.

weasyprint draws an SVG element by element, at about 0.2 ms each, and three habits of
matplotlib's SVG make it work harder than the picture needs:

- every marker, tick mark and filled band is a ``<use>`` of a path defined in a ``<defs>`` next
  to it; weasyprint finds each definition by searching the tree from its root;
- every element's colours and widths are a ``style`` attribute, which weasyprint parses as CSS
  for each element, and a ``*{…}`` rule it matches against every element;
- every artist sits in a ``<g id=…>`` of its own that draws nothing.

:func:`for_weasyprint` rewrites the SVG into what the CSS cascade of the original computes, as
plain SVG: a ``<use>`` becomes its path (the use's transform, then its ``x``/``y``, then the
path's own transform; the path's properties over the use's, as a used element's own styles
beat those it inherits); ``style`` declarations and those of the ``*`` rule become
presentation attributes of each element (the element's own declarations winning, as a
``style`` attribute beats a style sheet; the ``font`` shorthand as ``font-size`` and
``font-family``); groups that carry nothing but an unreferenced id are dissolved into their
parent; the remaining definitions (clip paths) move into one ``<defs>`` at the top; the
metadata block goes. Then (:func:`_simplify`) each run of sibling groups that clip to the same
path becomes one group, clipped once; unrotated text loses its ``rotate(-0 x y)``; a path
that is only translated carries the translation in its points; sizes in pixels are plain
numbers and the root states the initial font size and stroke width, which weasyprint would
otherwise parse from "1em" and "1px" on every element. Last (:func:`_merge_paths`) a run of
sibling paths alike, with curves or slanted lines or of one line (a curve's markers, an
axis's tick marks), becomes a few paths of their subpaths, each of subpaths lying apart from
each other and all in an order that paints every pixel's paths in their order; a group
left with one path is that path, clipped itself. A text with a combining mark (ρ̄), which
weasyprint cannot draw, becomes its outline (:func:`_outline_combining_marks`). The picture is the same (pages compared pixel by pixel); a grid of 12
convergence panels draws in about two thirds of the time. Files under ``figures/`` and the
HTML keep matplotlib's SVG: this copy exists only for the PDF.
"""

from __future__ import annotations

import math
import re
import unicodedata
import xml.etree.ElementTree as ET
from html import escape
from typing import Literal

from matplotlib.font_manager import FontProperties
from matplotlib.path import Path as MplPath
from matplotlib.textpath import TextPath, TextToPath

_SVG = "http://www.w3.org/2000/svg"
_XLINK = "http://www.w3.org/1999/xlink"

_HREF = f"{{{_XLINK}}}href"
_G, _USE, _PATH, _DEFS, _STYLE, _METADATA = (
    f"{{{_SVG}}}{tag}" for tag in ("g", "use", "path", "defs", "style", "metadata")
)
_STAR_RULE = re.compile(r"\s*\*\s*\{([^{}]*)\}\s*")
_URL = re.compile(r"url\(#([^)]+)\)")


def _declarations(text: str) -> dict[str, str]:
    """``a: b; c: d`` as ``{"a": "b", "c": "d"}``; the ``font`` shorthand as its two parts."""
    out: dict[str, str] = {}
    for declaration in text.split(";"):
        name, colon, value = declaration.partition(":")
        if colon:
            out[name.strip()] = value.strip()
    if "font" in out:
        # matplotlib writes "font: <size> <family>"; weasyprint splits it the same way.
        size, _, family = out.pop("font").partition(" ")
        out["font-size"], out["font-family"] = size, family.strip()
    return out


def for_weasyprint(svg: str) -> str:
    """``svg`` (as matplotlib writes it) rewritten for weasyprint to draw faster, unchanged
    in what it shows; an SVG this does not understand is returned as it is."""
    root = ET.fromstring(svg)
    star: dict[str, str] = {}
    definitions: dict[str, ET.Element] = {}
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag == _STYLE:
                rule = _STAR_RULE.fullmatch(child.text or "")
                if rule is None:
                    return svg  # a style sheet of other rules: leave the cascade to weasyprint
                star |= _declarations(rule.group(1))
                parent.remove(child)
            elif child.tag == _METADATA:
                parent.remove(child)
            elif child.tag == _DEFS:
                parent.remove(child)
                for definition in child:
                    definitions[definition.get("id", "")] = definition
    for tree in (root, *definitions.values()):
        for element in tree.iter():
            own = _declarations(element.attrib.pop("style", ""))
            element.attrib.update(star | own)
    referenced = {
        name
        for tree in (root, *definitions.values())
        for element in tree.iter()
        for value in element.attrib.values()
        for name in _URL.findall(value)
    }
    _rewrite(root, definitions, referenced, star)
    _outline_combining_marks(root)
    _simplify(root, referenced)
    _merge_paths(root, 1.0)
    kept = [definitions[name] for name in sorted(referenced & definitions.keys())]
    if kept:
        defs = ET.Element(_DEFS)
        defs.extend(kept)
        root.insert(0, defs)
    # The initial values, written out: weasyprint parses a missing font size as "1em" and a
    # missing stroke width as "1px" on every element, each by its slow path for units; as
    # attributes of the root every element inherits them as plain numbers.
    root.attrib.setdefault("font-size", "16")
    root.attrib.setdefault("stroke-width", "1")
    root.set("xmlns", _SVG)
    root.set("xmlns:xlink", _XLINK)
    out: list[str] = []
    _write(root, out)
    return "".join(out)


_TEXT = f"{{{_SVG}}}text"


def _outline_combining_marks(root: ET.Element) -> None:
    """Each text with a combining mark (a ranking label "probabilistic profile ρ̄") as the
    outline matplotlib draws for it.

    weasyprint lays out each character of an SVG text on its own, so a combining mark has no
    base: it was drawn beside its letter in a dotted circle (HarfBuzz's mark for a missing
    base). matplotlib's own text-to-path layout puts the mark over its letter, as its PNGs
    show; such a text is rare, so its few outlines cost nothing. Other text stays text.
    """
    for element in root.iter(_TEXT):
        text = element.text or ""
        if len(element) or not any(unicodedata.combining(c) for c in text):
            continue
        attributes = element.attrib
        size = float(_PIXELS.sub(r"\1", attributes.get("font-size", "10")))
        family = attributes.get("font-family", "sans-serif").split(",")[0].strip(" '\"")
        font = FontProperties(
            family=family,
            size=size,
            weight=attributes.get("font-weight", "normal"),
            style=_FONT_STYLES.get(attributes.get("font-style", ""), "normal"),
        )
        path = TextPath((0, 0), text, prop=font)
        # The anchor is on the layout box, as matplotlib measures it (advances, not ink).
        width, _, _ = _TEXT_TO_PATH.get_text_width_height_descent(text, font, ismath=False)
        shift = {"middle": width / 2, "end": width}.get(attributes.get("text-anchor", ""), 0.0)
        x0 = _float(attributes.get("x"), 0.0) - shift
        y0 = _float(attributes.get("y"), 0.0)
        kept = {
            k: v
            for k, v in attributes.items()
            if k in ("transform", "fill", "opacity", "fill-opacity", "clip-path")
        }
        tail = element.tail
        element.clear()
        element.tag, element.tail = _PATH, tail
        element.attrib.update(kept, d=path_data(path, x0, y0), stroke="none")


def path_data(path: MplPath, x0: float, y0: float) -> str:
    """A matplotlib path (y upwards, as glyph outlines are) as SVG path data with its origin
    at ``(x0, y0)`` of an SVG's coordinates (y downwards)."""
    commands = []
    for points, code in path.iter_segments(curves=True, simplify=False):
        letter = _SEGMENT_LETTERS[int(code)]
        xy = " ".join(
            f"{_number(x0 + x)} {_number(y0 - y)}"
            for x, y in zip(points[::2], points[1::2], strict=True)
        )
        commands.append(letter if letter == "Z" else f"{letter}{xy}")
    return " ".join(commands)


_TEXT_TO_PATH = TextToPath()

_SEGMENT_LETTERS: dict[int, str] = {
    int(MplPath.MOVETO): "M",
    int(MplPath.LINETO): "L",
    int(MplPath.CURVE3): "Q",
    int(MplPath.CURVE4): "C",
    int(MplPath.CLOSEPOLY): "Z",
}
_FONT_STYLES: dict[str, Literal["normal", "italic", "oblique"]] = {
    "italic": "italic",
    "oblique": "oblique",
}


def _name(qualified: str) -> str:
    """An element's or attribute's name as written: SVG's own unprefixed, XLink's as xlink:."""
    return qualified.replace(f"{{{_SVG}}}", "").replace(f"{{{_XLINK}}}", "xlink:")


def _write(element: ET.Element, out: list[str]) -> None:
    """``element`` as XML text (written here rather than by ``ET.tostring``, whose namespace
    prefixes come from a map global to the process that any library may change)."""
    tag = _name(element.tag)
    attributes = "".join(f' {_name(k)}="{escape(v)}"' for k, v in element.attrib.items())
    out.append(f"<{tag}{attributes}>{escape(element.text or '', quote=False)}")
    for child in element:
        _write(child, out)
    out.append(f"</{tag}>{escape(element.tail or '', quote=False)}")


def _rewrite(
    parent: ET.Element,
    definitions: dict[str, ET.Element],
    referenced: set[str],
    star: dict[str, str],
) -> None:
    """Inline the uses of paths and dissolve empty groups under ``parent``, depth first.

    A group is empty when it carries only an id nothing refers to and the ``*`` rule's
    values, which every element inside it carries itself.
    """
    children: list[ET.Element] = []
    for child in parent:
        if child.tag == _USE:
            child = _inlined(child, definitions, referenced)
        _rewrite(child, definitions, referenced, star)
        if (
            child.tag == _G
            and child.get("id") not in referenced
            and all(k == "id" or star.get(k) == v for k, v in child.attrib.items())
        ):
            children.extend(child)
        else:
            children.append(child)
    parent[:] = children


def _inlined(
    use: ET.Element, definitions: dict[str, ET.Element], referenced: set[str]
) -> ET.Element:
    """A ``<use>`` of a path as that path, or the use itself when it refers to anything else.

    The use's transform, then its ``x``/``y``, then the path's own transform (SVG 1.1, 5.6);
    every other attribute of the use is a property the path inherits, and the path's own
    properties win.
    """
    name = use.get(_HREF, "").removeprefix("#")
    target = definitions.get(name)
    if target is None or target.tag != _PATH or len(target) or "width" in use.attrib:
        referenced.add(name)
        return use
    position = f"translate({use.get('x', '0')} {use.get('y', '0')})"
    transform = " ".join(
        part
        for part in (use.get("transform"), position, target.get("transform"))
        if part and part != "translate(0 0)"
    )
    attributes = {k: v for k, v in use.attrib.items() if k not in (_HREF, "x", "y")}
    attributes |= {k: v for k, v in target.attrib.items() if k != "id"}
    if transform:
        attributes["transform"] = transform
    else:
        attributes.pop("transform", None)
    return ET.Element(_PATH, attributes)


_IDENTITY = re.compile(r"rotate\(\s*-?0(?:\.0*)?(?:\s+[-+.\deE]+){0,2}\s*\)")
"""matplotlib's transform of unrotated text: ``rotate(-0 x y)``, a turn by nothing."""
_TRANSLATE = re.compile(r"translate\(\s*([-+.\deE]+)[\s,]+([-+.\deE]+)\s*\)")
_PIXELS = re.compile(r"([-+.\deE]+)px")

_GROUPING = frozenset(("opacity", "filter", "mask", "id"))
"""Attributes that make a group more than a container of its elements: two groups carrying
one of these draw differently from one group holding both's elements (opacity applies to the
group drawn as a whole), or are referred to."""


def _simplify(parent: ET.Element, referenced: set[str]) -> None:
    """Under ``parent``, depth first: merge each run of sibling groups with the same
    attributes (a clip path each) into one, drop turns by nothing, move the translation of
    an unclipped path into its coordinates and write font sizes in pixels as plain numbers.

    All three leave the picture as it is: a group only passes its attributes on, so a run
    of equal groups draws its elements as one group does, clipped once instead of once each;
    ``rotate(-0 x y)`` is the identity; translating a path's points is translating the path
    (its clip path would move with its transform, hence only an unclipped path); and "7px"
    is 7 user units.
    """
    children: list[ET.Element] = []
    for child in parent:
        _simplify(child, referenced)
        previous = children[-1] if children else None
        if (
            previous is not None
            and child.tag == previous.tag == _G
            and child.attrib == previous.attrib
            and not _GROUPING.intersection(child.attrib)
        ):
            previous.extend(child)
            previous.tail = child.tail
            continue
        children.append(child)
    parent[:] = children
    attributes = parent.attrib
    transform = attributes.get("transform")
    if transform is not None:
        transform = _IDENTITY.sub("", transform).strip()
        if parent.tag == _PATH and "clip-path" not in attributes:
            transform = _translated_path(parent, transform)
        if transform:
            attributes["transform"] = transform
        else:
            del attributes["transform"]
    if (size := attributes.get("font-size")) and (pixels := _PIXELS.fullmatch(size)):
        attributes["font-size"] = pixels.group(1)


_CARRIED = frozenset(("clip-path", "stroke-linecap", "stroke-linejoin"))
"""The attributes of a group :func:`_unwrapped` gives to its one path: its clip path, and
properties the path inherits (which weasyprint copies to an element that lacks them)."""

_OWN = frozenset(("clip-path", "transform", "opacity", "filter", "mask", "id"))
"""Attributes of a path that keep it in its group: a clip path of its own, or a coordinate
system or compositing that a clip path given to it would come after or inside."""


def _unwrapped(group: ET.Element) -> ET.Element:
    """A clipped group of one path as that path, clipped itself; anything else as it is.

    weasyprint clips a path after setting its transform (none here) and its colours and
    before drawing it, as it clips a group before drawing what is in it: the same clip and
    the same painting, one element fewer (a marker in a group of its own: 337 in the cec2022
    figures). The group's inherited properties go to the path where it has none of its own.
    Only a path: it has no position or size of its own that a clip path in the units of its
    bounding box would be measured by (matplotlib's are in user space).
    """
    if (
        group.tag != _G
        or len(group) != 1
        or "clip-path" not in group.attrib
        or not _CARRIED.issuperset(group.attrib)
        or _OWN.intersection(group[0].attrib)
        or group[0].tag != _PATH
    ):
        return group
    (element,) = group
    for name, value in group.attrib.items():
        element.attrib.setdefault(name, value)
    element.tail = group.tail
    return element


_APART = 2.0
"""User units (pt) of space the merged paths keep between each other's reach, so that no
pixel of a rendering at any usual resolution shows two of them."""

_UNMERGED = frozenset(
    [
        "id",
        "transform",
        "opacity",
        "filter",
        "mask",
        "stroke-dasharray",
        "marker",
        "marker-start",
        "marker-mid",
        "marker-end",
    ]
)
"""Attributes whose paths are drawn apart: referred to, in a coordinate system of their own,
composited as a whole, or dashed (a dash pattern restarts with each subpath)."""


def _merge_paths(parent: ET.Element, stroke_width: float) -> None:
    """Under ``parent``, depth first: each run of sibling paths of the same attributes (a
    curve's markers, an axis's tick marks) as a few paths of their subpaths, and a group
    left with one path as that path, clipped itself (:func:`_unwrapped`).

    weasyprint sets up its drawing state, parses and paints each path on its own: a profile
    of 18 curves held 700 markers, a grid of 16 log-scale panels 500 tick marks. One path of
    shapes lying :data:`_APART` from each other (each with its stroke's reach: half its width
    times the miter limit) paints the same pixels as the paths one by one: no pixel is
    touched by two of them, so neither the order of fills and strokes nor the blending of
    overlapping edges can tell them apart. A run's paths go into such merged paths in order
    (:func:`_layers`): each into the layer after the last one holding a path it is not apart
    from, so that the paths on any one pixel are still painted in their order, as the layers
    are painted in theirs. ``stroke_width`` is what ``parent`` inherits.
    """
    stroke_width = _float(parent.get("stroke-width"), stroke_width)
    children: list[ET.Element] = []
    run: list[tuple[ET.Element, tuple[float, float, float, float]]] = []
    for child in parent:
        _merge_paths(child, stroke_width)
        child = _unwrapped(child)
        reach = _reach(child, stroke_width)
        if reach is not None and 0 < len(run) < _RUN and _alike(child, run[0][0]):
            run.append((child, reach))
            continue
        children.extend(_layers(run))
        run = []
        if reach is None:
            children.append(child)
        else:
            run.append((child, reach))
    children.extend(_layers(run))
    parent[:] = children


_RUN = 500
"""Most paths merged as one run: :func:`_layers` compares each path with every one before
it in its run, and a curve of thousands of markers would take seconds; longer runs are
merged in parts of this many."""


def _alike(a: ET.Element, b: ET.Element) -> bool:
    """Whether paths ``a`` and ``b`` have the same attributes but their data."""
    return {k: v for k, v in a.attrib.items() if k != "d"} == {
        k: v for k, v in b.attrib.items() if k != "d"
    }


def _layers(
    run: list[tuple[ET.Element, tuple[float, float, float, float]]],
) -> list[ET.Element]:
    """The paths of ``run`` (each with its reach), alike and in drawing order, merged into
    as few paths as keep every pixel's paths in their order (see :func:`_merge_paths`).

    A path goes into the layer after the latest that holds a path it is not apart from (the
    first layer when it is apart from all before it): every path of a layer is apart from
    the others, and of two paths that may share a pixel the earlier is in an earlier layer.
    The merged paths are the first path of each layer, in order; the last one takes the
    run's tail (the text after it, which is only white space between elements).
    """
    layers: list[ET.Element] = []
    placed: list[tuple[int, tuple[float, float, float, float]]] = []
    for path, reach in run:
        layer = max((i + 1 for i, other in placed if not _apart(reach, other)), default=0)
        placed.append((layer, reach))
        if layer == len(layers):
            layers.append(path)
        else:
            first = layers[layer]
            first.set("d", f"{first.get('d')} {path.get('d')}")
    if layers:
        for merged in layers:
            merged.tail = None
        layers[-1].tail = run[-1][0].tail
    return layers


def _reach(path: ET.Element, stroke_width: float) -> tuple[float, float, float, float] | None:
    """The box (x0, y0, x1, y1) a path of absolute moves, lines, curves and closes may paint,
    its stroke included; None for anything else (not a path, or one :func:`_merge_paths`
    leaves alone)."""
    if path.tag != _PATH or _UNMERGED.intersection(path.attrib) or len(path):
        return None
    tokens = path.get("d", "").split()
    if not tokens or tokens[0] != "M":
        return None  # a subpath after another must start where it says
    numbers: list[float] = []
    for token in tokens:
        if token not in ("M", "L", "Q", "C", "Z", "z"):
            try:
                numbers.append(float(token))
            except ValueError:
                return None
    if not numbers or len(numbers) % 2:
        return None
    xs, ys = numbers[0::2], numbers[1::2]
    one_line = len(tokens) == 6 and tokens[3] == "L"  # a tick mark, whichever way it runs
    if (
        not one_line
        and not _ROUND.intersection(tokens)
        and all(
            x0 == x1 or y0 == y1 for x0, y0, x1, y1 in zip(xs, ys, xs[1:], ys[1:], strict=False)
        )
    ):
        return None  # lines parallel to the axes only: see _ROUND
    # Curves stay within their control points' box; a miter reaches miterlimit x half the
    # stroke's width (SVG's initial limit 4, and at least the round or square cap's half).
    # A line of one segment has no join: its stroke reaches half the width, and a square cap
    # of a slanted line, at its corner, √2 times that.
    width = _float(path.get("stroke-width"), stroke_width)
    miter = math.sqrt(2) if one_line else max(_float(path.get("stroke-miterlimit"), 4.0), 1.5)
    grow = width / 2 * miter
    return min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow


_ROUND = frozenset(("C", "Q"))
"""The commands of a curve. Only paths with a curve or a slanted line are merged (round and
pointed markers), and lines of one segment (tick marks): a renderer may snap the edges of a
lone rectangle or of axis-parallel lines to its pixels (poppler does), which it no longer
recognises in a path of several (bars, spines, square markers; pages differed at 50 dpi).
Tick marks merged, the cec2022 pages are the same at 50, 72 and 200 dpi."""


def _apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether boxes ``a`` and ``b`` are at least :data:`_APART` from each other."""
    return (
        a[2] + _APART <= b[0]
        or b[2] + _APART <= a[0]
        or a[3] + _APART <= b[1]
        or b[3] + _APART <= a[1]
    )


def _float(text: str | None, default: float) -> float:
    """``text`` as a number; ``default`` when absent, infinity when not a plain number (a
    reach grown by it is apart from nothing, so :func:`_merge_paths` leaves the path alone)."""
    if text is None:
        return default
    try:
        return float(text)
    except ValueError:
        return float("inf")


def _translated_path(path: ET.Element, transform: str) -> str:
    """``path``'s points moved by the translations that make up all of ``transform``; what
    is left of the transform: nothing, or all of it when it is more than translations or the
    path data holds anything but absolute moves, lines, curves and closes (all matplotlib
    writes)."""
    parts = _TRANSLATE.findall(transform)
    if not parts or _TRANSLATE.sub("", transform).strip():
        return transform
    dx = sum(float(x) for x, _ in parts)
    dy = sum(float(y) for _, y in parts)
    tokens = path.get("d", "").split()
    out: list[str] = []
    axis = 0
    for token in tokens:
        if token in ("M", "L", "Q", "C", "Z", "z"):
            out.append(token)
            axis = 0
            continue
        try:
            value = float(token)
        except ValueError:
            return transform  # a relative command, an arc, numbers run together: leave it
        out.append(_number(value + (dy if axis else dx)))
        axis ^= 1
    path.set("d", " ".join(out))
    return ""


def _number(value: float) -> str:
    """``value`` as matplotlib writes coordinates: six decimals, trailing zeros dropped."""
    text = f"{value:f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text
