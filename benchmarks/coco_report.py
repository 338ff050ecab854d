"""Benchmark: the full report (HTML + PDF) over all six COCO archives of ../shared/data.

Reads the six BBOB archives of ``../shared/data/coco-bbob-archive`` (format ``coco``, straight
from the ``.tgz`` files), computes the ``runtime_ecdf`` analysis (ERT for 51 targets on every
function and dimension, runtime ECDFs per dimension) and writes report.html and report.pdf,
timing each stage. Results are recorded in benchmarks/COCO.md.

Usage (from the repository root)::

    .venv/bin/python benchmarks/coco_report.py [--repeat 3] [--with-profiles]

``--with-profiles`` adds a ``performance_profiles`` analysis (data and performance profiles
of the mean curves at three tolerances, on the problems every algorithm has).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCHIVES = ROOT.parent / "shared" / "data" / "coco-bbob-archive"

SPEC = """\
study:
  title: Six BBOB algorithms from the COCO data archive
  authors: [reportgen benchmark]
minimize: true
data:
  bbob:
    paths: {archives}/*.tgz
    format: coco
problems: {{incomplete: exclude}}
analyses:
  - kind: runtime_ecdf
    data: bbob
{profiles}report:
  output: out
  formats: [html, pdf]
"""
PROFILES = """\
  - kind: performance_profiles
    data: bbob
    profiles: [data, performance]
    tolerances: [1.0e-1, 1.0e-4, 1.0e-7]
"""


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (the archive-reading workers).

    On a machine shared with other jobs the wall time grows with their load; the CPU time
    does not, and on an idle machine the wall time is at most about this (less when the
    archives are read in parallel).
    """
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs to time (default 3)")
    parser.add_argument("--with-profiles", action="store_true", help="add performance_profiles")
    args = parser.parse_args()
    if not ARCHIVES.is_dir():
        print(f"{ARCHIVES} is absent: nothing to benchmark", file=sys.stderr)
        return 1
    sys.path.insert(0, str(ROOT))
    from reportgen.data.load import load_data
    from reportgen.pipeline import compute_study, load_study, run_study

    with tempfile.TemporaryDirectory(prefix="coco-bench-") as tmp:
        spec = Path(tmp) / "study.yaml"
        spec.write_text(
            SPEC.format(archives=ARCHIVES, profiles=PROFILES if args.with_profiles else ""),
            encoding="utf-8",
        )
        study = load_study(spec)
        print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}")
        for attempt in range(1, args.repeat + 1):
            start = time.perf_counter()
            data = load_data(study)
            loaded = time.perf_counter()
            compute_study(study)
            computed = time.perf_counter()
            cpu_before = _cpu_seconds()
            run_study(study, Path(tmp) / f"out{attempt}")
            done = time.perf_counter()
            cpu = _cpu_seconds() - cpu_before
            frame = data.sources["bbob"].frame
            print(
                f"run {attempt}: load {loaded - start:.2f} s ({len(frame):,} records, "
                f"{frame.groupby(['algorithm', 'problem', 'dimension', 'run']).ngroups:,} runs); "
                f"load + compute {computed - loaded:.2f} s; full report (load, compute, HTML + "
                f"PDF) {done - computed:.2f} s wall, {cpu:.2f} s CPU"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
