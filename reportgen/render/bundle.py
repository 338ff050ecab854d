"""The supplement bundle: one zip a journal can host next to a paper.

``supplement.zip`` holds the report (HTML, PDF), ``results.json``, every table and figure, the
study spec, and ``INPUTS.sha256`` — the SHA-256 of every input file — plus copies of the inputs
when together they are at most :data:`COPY_LIMIT_BYTES` (otherwise the manifest says they were
not copied, and the hashes let a reader check their own copies). Entries are sorted and carry a
fixed timestamp, so the same report gives the same zip bytes.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable
from pathlib import Path

COPY_LIMIT_BYTES = 25 * 1024 * 1024
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


def write_bundle(
    report_dir: Path, spec_path: Path, inputs: Iterable[tuple[str, Path, str]], target: Path
) -> None:
    """Write ``supplement.zip``.

    Parameters
    ----------
    report_dir : Path
        The finished report folder (its files go under ``report/``).
    spec_path : Path
        The study spec (stored as ``study/<name>``).
    inputs : iterable of (display path, absolute path, sha256)
        The input files, with paths as the spec names them (stored under ``study/``).
    target : Path
        The zip to write.
    """
    inputs = list(inputs)
    total = sum(path.stat().st_size for _, path, _ in inputs)
    copy = total <= COPY_LIMIT_BYTES
    manifest = [
        f"# SHA-256 of the study's input files ({'copied into study/' if copy else 'not copied: larger than 25 MB together'})"
    ]
    manifest += [f"{digest}  {display}" for display, _, digest in inputs]
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(p for p in report_dir.rglob("*") if p.is_file()):
            relative = path.relative_to(report_dir).as_posix()
            if relative.startswith(".") or path == target:
                continue
            _add(archive, f"report/{relative}", path.read_bytes())
        _add(archive, f"study/{spec_path.name}", spec_path.read_bytes())
        if copy:
            for display, path, _ in sorted(inputs):
                _add(archive, f"study/{display}", path.read_bytes())
        _add(archive, "INPUTS.sha256", ("\n".join(manifest) + "\n").encode("utf-8"))
