"""Benchmark: ``reportgen run`` against cocopp 2.9.1 on the same six COCO archives.

Both tools post-process the six BBOB archives of ``<data>/coco-bbob-archive`` (the ``.tgz``
files as the COCO data archive publishes them), each as a user runs it, in a fresh child
process with a fresh output folder:

- **cocopp**: ``python -m cocopp --no-interactive -o <out> <six archives>`` — loads the
  archives (cocopp unpacks each ``.tgz`` into a ``.extracted_*`` folder beside it, so the
  archives are linked into a fresh folder first: the shared data stay read-only and every run
  unpacks, as a first run does), then writes its HTML pages, ECDF figures per function group
  and per function, ERT tables and scaling figures (≈ 750 files);
- **reportgen**: ``reportgen run study.yaml`` on a spec over the same archives (format
  ``coco``, read straight from the ``.tgz``; the ``runtime_ecdf`` analysis: ERT for COCO's 51
  targets on every function and dimension and runtime ECDFs per dimension; the spec of
  ``coco_report.py``) → ``report.html`` + ``report.pdf`` + ``results.json``, tables, figures.

cocopp is not a dependency of reportgen: it is installed with ``six`` (which it imports but
does not declare) from the package index into the benchmark's own virtual environment,
``benchmarks/_generated/cocopp-venv`` (git-ignored), created on first use. Its first run also
unpacks cocopp's reference data (``best2009``) inside that environment, once.

CPU time (user + system of the child and every descendant it waited for), wall time and peak
resident set size come from ``os.wait4`` (``e2e.measure``). The verdict is the ratio of CPU
times, which depends much less than wall time on other work sharing the machine.

Usage (from the repository root)::

    .venv/bin/python benchmarks/coco_vs_cocopp.py [--data ../shared/data] [--repeat 3]
    .venv/bin/python benchmarks/coco_vs_cocopp.py --cocopp-repeat 0   # reportgen only

Target (issue 14): reportgen needs ≥ 20 × less CPU than cocopp on these archives.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from coco_report import SPEC  # noqa: E402
from e2e import _machine, compile_bytecode, measure  # noqa: E402

COCOPP = "cocopp==2.9.1"
WORK = HERE / "_generated" / "coco_vs_cocopp"
VENV = HERE / "_generated" / "cocopp-venv"
TARGET = 20.0


def cocopp_python() -> Path:
    """The Python of the benchmark's own environment with cocopp 2.9.1 (created on first use)."""
    python = VENV / "bin" / "python"
    check = [str(python), "-c", "import cocopp, six; print(cocopp.__version__)"]
    if python.exists():
        found = subprocess.run(check, capture_output=True, text=True, check=False)
        if found.returncode == 0 and found.stdout.strip() == COCOPP.split("==")[1]:
            return python
    print(f"creating {VENV} with {COCOPP} and six …", file=sys.stderr, flush=True)
    shutil.rmtree(VENV, ignore_errors=True)
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(VENV)], check=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", COCOPP, "six"],
        check=True,
    )
    subprocess.run(check, check=True)
    return python


def fresh_folder(name: str) -> Path:
    folder = WORK / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def run_cocopp(python: Path, archives: list[Path], attempt: int) -> dict[str, object]:
    folder = fresh_folder(f"cocopp{attempt}")
    (folder / "archives").mkdir()
    links = []
    for archive in archives:
        link = folder / "archives" / archive.name
        link.symlink_to(archive)
        links.append(str(link.relative_to(folder)))
    numbers: dict[str, object] = dict(
        measure(
            [str(python), "-m", "cocopp", "--no-interactive", "-o", "ppdata", *links],
            cwd=folder,
        )
    )
    numbers["files"] = sum(1 for p in (folder / "ppdata").rglob("*") if p.is_file())
    shutil.rmtree(folder / "archives", ignore_errors=True)  # the unpacked copies: 150 MB
    return numbers


def run_reportgen(archives: Path, attempt: int) -> dict[str, object]:
    folder = fresh_folder(f"reportgen{attempt}")
    spec = folder / "study.yaml"
    spec.write_text(SPEC.format(archives=archives, profiles=""), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    numbers: dict[str, object] = dict(
        measure([sys.executable, "-m", "reportgen", "run", str(spec), "--quiet"], env, folder)
    )
    out = folder / "out"
    numbers["files"] = sum(1 for p in out.rglob("*") if p.is_file())
    numbers["outputs"] = {
        name: (out / name).stat().st_size
        for name in ("report.html", "report.pdf", "results.json")
        if (out / name).exists()
    }
    return numbers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--data",
        type=Path,
        default=Path("../shared/data"),
        help="the folder holding coco-bbob-archive/ (default ../shared/data)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="reportgen runs (default 3)")
    parser.add_argument(
        "--cocopp-repeat", type=int, default=1, help="cocopp runs (default 1; ≈ 4 min CPU each)"
    )
    parser.add_argument("--json", type=Path, default=WORK / "results.json")
    args = parser.parse_args(argv)
    folder = (args.data / "coco-bbob-archive").resolve()
    archives = sorted(folder.glob("*.tgz"))
    if len(archives) != 6:
        print(f"expected the six COCO archives in {folder}, found {len(archives)}", file=sys.stderr)
        return 1
    loads = [os.getloadavg()]
    rows: dict[str, list[dict[str, object]]] = {"reportgen": [], "cocopp": []}
    python = cocopp_python() if args.cocopp_repeat else None
    compile_bytecode()
    for attempt in range(1, max(args.repeat, args.cocopp_repeat) + 1):
        if attempt <= args.repeat:
            print(f"reportgen run {attempt} …", file=sys.stderr, flush=True)
            rows["reportgen"].append(run_reportgen(folder, attempt))
            loads.append(os.getloadavg())
        if python is not None and attempt <= args.cocopp_repeat:
            print(f"cocopp {attempt} …", file=sys.stderr, flush=True)
            rows["cocopp"].append(run_cocopp(python, archives, attempt))
            loads.append(os.getloadavg())
    record = {
        "machine": _machine(),
        "date": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "load_average_1min": [round(load[0], 1) for load in loads],
        "rows": rows,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(record, indent=1), encoding="utf-8")
    print(f"\nMachine: {record['machine']}; {record['date']}")
    print(
        f"1-minute load average before, between and after the runs: {record['load_average_1min']}\n"
    )
    print("| tool | runs | CPU (median) | CPU (each) | wall (each) | peak RSS | files written |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    median: dict[str, float] = {}
    for tool, found in rows.items():
        if not found:
            continue
        cpu = [float(r["cpu_seconds"]) for r in found]  # type: ignore[arg-type]
        wall = [float(r["wall_seconds"]) for r in found]  # type: ignore[arg-type]
        peak = max(float(r["peak_bytes"]) for r in found)  # type: ignore[arg-type]
        median[tool] = statistics.median(cpu)
        print(
            f"| {tool} | {len(found)} | {median[tool]:.1f} s | "
            f"{', '.join(f'{c:.1f}' for c in cpu)} s | {', '.join(f'{w:.0f}' for w in wall)} s | "
            f"{peak / 1e9:.2f} GB | {found[-1]['files']} |"
        )
    if len(median) == 2:
        ratio = median["cocopp"] / median["reportgen"]
        verdict = "met" if ratio >= TARGET else "not met"
        print(
            f"\ncocopp / reportgen (CPU, medians): {ratio:.1f}× (target ≥ {TARGET:.0f}×: {verdict})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
