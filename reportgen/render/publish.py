"""Putting a report folder in place: all of it or none of it, one run at a time.

A report is written into a staging folder beside the output folder and swapped into place
only when complete, so a failure (or a kill) at any point leaves the previous report intact.

Decisions
---------
- One run at a time per output folder: the swap holds an exclusive lock (``flock``) on the
  output's parent folder, so two runs racing on one folder take turns instead of failing
  half-way and leaving ``.<name>.old-*`` behind. A run waits up to :data:`LOCK_TIMEOUT`
  seconds for the other, then stops with a message.
- Staging folders are named ``.reportgen-<name>-<random>``; under the lock, any such folder
  (and any ``.<name>.old-*``) is the leftover of a killed run and is removed before writing.
- The output folder gets the permissions the umask gives a new folder (``mkdtemp`` creates
  0700, which would hide a scheduled report from a group or a web server).
- The output folder is reportgen's: every run replaces all of it. The marker file lists what
  the run wrote; a file found there that the previous run did not write (the user's) is
  named in a warning before it is deleted with the old report.
- Every failure of the file system (a parent that is a file, ``/proc``, a read-only or full
  disk, a name too long) is an input problem naming the folder: exit 1, never a traceback.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from reportgen.errors import InputError, Problem

STAGING_PREFIX = ".reportgen-"
LOCK_TIMEOUT = 600.0
"""Seconds a run waits for another run writing the same output folder."""
MANIFEST_HEADER = "files:"


@contextmanager
def writing(target: Path, where: str, what: str = "the report") -> Iterator[None]:
    """Turn a file-system failure while writing ``what`` (the report) into an input problem
    naming it."""
    try:
        yield
    except InputError:
        raise
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if isinstance(exc, (FileExistsError, NotADirectoryError)):
            reason = "a part of the path is a file, not a folder"
        culprit = f" ({exc.filename})" if exc.filename else ""
        raise InputError(
            Problem(where, f"cannot write {what} to {target}: {reason}{culprit}")
        ) from None


def publish(target: Path, write: Callable[[Path], None], *, marker: str, where: str) -> list[str]:
    """Write a report with ``write(folder)`` and put it at ``target`` in one step.

    Parameters
    ----------
    target : pathlib.Path
        The output folder (absolute).
    write : callable
        Writes every file of the report into the folder it is given (which exists, empty).
    marker : str
        The marker file ``write`` creates; the list of files written is appended to it.
    where : str
        How problems name the output setting (``report.output (study.yaml:12)``).

    Returns
    -------
    list of str
        Files of the previous report folder that the previous run did not write (the
        user's), now deleted with it; the caller warns about them.
    """
    with writing(target, where):
        parent = target.parent
        parent.mkdir(parents=True, exist_ok=True)
        with _locked(parent, target, where):
            _remove_leftovers(parent, target.name)
            staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{target.name}-", dir=parent))
            try:
                staging.chmod(0o777 & ~_umask())
                write(staging)
                _append_manifest(staging, marker)
                user_files = _user_files(target, marker)
                _swap_into_place(staging, target)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
    return user_files


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def _locked(parent: Path, target: Path, where: str) -> Iterator[None]:
    """Hold an exclusive lock on ``parent`` (no file is created: the folder itself is locked)."""
    handle = os.open(parent, os.O_RDONLY)
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise InputError(
                        Problem(
                            where,
                            f"another reportgen run has been writing into {parent} for "
                            f"{LOCK_TIMEOUT:.0f} s; try again when it has finished",
                        )
                    ) from None
                time.sleep(0.1)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def _remove_leftovers(parent: Path, name: str) -> None:
    """Staging and old folders of ``name`` left by a killed run (we hold the lock: none is live)."""
    for path in parent.iterdir():
        if path.name.startswith((f"{STAGING_PREFIX}{name}-", f".{name}.old-")) and path.is_dir():
            shutil.rmtree(path, ignore_errors=True)


def _append_manifest(folder: Path, marker: str) -> None:
    files = sorted(
        p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() or p.is_symlink()
    )
    with (folder / marker).open("a", encoding="utf-8") as handle:
        handle.write(MANIFEST_HEADER + "\n" + "".join(f"  {f}\n" for f in files))


def _user_files(target: Path, marker: str) -> list[str]:
    """Files in the previous report that its marker does not list (none if it lists nothing)."""
    if not (target / marker).is_file():
        return []
    text = (target / marker).read_text(encoding="utf-8", errors="replace")
    if MANIFEST_HEADER not in text:  # written before reports listed their files
        return []
    written = {line.strip() for line in text.split(MANIFEST_HEADER, 1)[1].splitlines()}
    present = (
        p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file() or p.is_symlink()
    )
    return sorted(p for p in present if p not in written and p != marker)


def _swap_into_place(staging: Path, target: Path) -> None:
    """Replace ``target`` by ``staging``; the old report is kept until the new one is in place."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        target.rename(old)
    staging.rename(target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
