"""The user's paths made absolute without failing on them.

``Path.resolve`` raises for a symbolic link that leads, through other links, back to itself
(``RuntimeError`` up to Python 3.12, ``OSError`` from 3.13): a traceback before the file is
even opened. :func:`real_path` resolves the same way without that check, so such a path
reaches the code that opens it, which reports it as a file it cannot read, by name, as it
reports any other (a spec, a data file, a published table), saying why with
:func:`not_there`. :func:`in_the_way` finds, before any work is done, what keeps a folder
to be written (the report's, a starter study's) from being made.
"""

from __future__ import annotations

import os
from pathlib import Path


def spec_path(base_dir: Path, written: str) -> Path:
    """A path as a spec writes it: relative to the spec's folder (``base_dir``), absolute, or
    in a home folder (``~/results.csv``, ``~user/…``), as a shell or pandas reads it (not
    expanded, ``~`` would be a folder of that name inside the spec's folder).

    Examples
    --------
    >>> spec_path(Path("/studies/a"), "data/h.csv").as_posix()
    '/studies/a/data/h.csv'
    >>> spec_path(Path("/studies/a"), "~/h.csv") == Path.home() / "h.csv"
    True
    """
    return base_dir / os.path.expanduser(written)


def real_path(path: str | os.PathLike[str]) -> Path:
    """``Path(path).resolve()`` — absolute, symbolic links followed, ``..`` removed — except
    that a symbolic-link loop is left as far as it resolves instead of raising.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "loop").symlink_to(folder / "loop")
    >>> real_path(folder / "loop").name
    'loop'
    """
    return Path(os.path.realpath(path))


LEADS_NOWHERE = "is a symbolic link that leads to no file, to itself or to a missing one"
"""How a message says that a path is a symbolic link that resolves to nothing."""


def not_there(path: Path) -> str:
    """Why a path that names no file is not there, to follow its name in a message: a
    symbolic link that resolves to nothing says so (``Path.exists`` is false for it, and "does
    not exist" would send the user looking for a file that is plainly in the folder)."""
    return LEADS_NOWHERE if path.is_symlink() else "does not exist"


def in_the_way(target: Path) -> str | None:
    """What on the way to the folder ``target`` keeps it from being made or used: a part of
    its path that is a file, or a symbolic link (``target`` itself included) that leads to no
    file; ``None`` when nothing does. ``target`` existing as a file is the caller's to judge.

    Asked before any work is done: otherwise the failure would only come when the first
    file is written (for a report, after every analysis has run).
    """
    for path in (target, *target.parents):
        if path.is_symlink() and not path.exists():
            return f"{path} {LEADS_NOWHERE}"
        if path != target and path.exists() and not path.is_dir():
            return f"{path} is a file, not a folder"
    return None
