"""Issue 15's scale test: a partitioned study on a Dask LocalCluster, client and workers measured.

Runs ``reportgen <command> <spec>`` (default ``run``) in a child process and samples, every
0.5 s, the resident memory of the child (the client: it reads the spec, holds the per-run
table and the results, renders the report) and of each of its descendant processes (the
LocalCluster's nannies and worker processes, which read and check the partitions and compute
the per-problem work). Reported: wall time, CPU time of the whole process tree (user +
system, from ``os.wait4`` — the kernel's count, which includes the workers once they have
exited and been reaped), the client's peak RSS, the largest peak RSS of any one worker
process, and the peak of the whole tree's sum.

Usage::

    python benchmarks/generate.py --partitioned --problems 1420          # 10× the paper's shape
    python benchmarks/dask_scale.py benchmarks/_generated/a18_p1420_r50_b10000_partitioned/study.yaml
    python benchmarks/dask_scale.py …/study_1worker.yaml                 # the same on 1 worker

Sampling every 0.5 s can miss a peak shorter than that; the kernel's own high-water mark of
the client (``ru_maxrss`` of the child) is printed beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent


def measure(spec: Path, command: str, interval: float = 0.5) -> dict[str, float]:
    """Run ``reportgen <command> <spec>`` in the spec's folder and measure it."""
    reportgen = Path(sys.executable).with_name("reportgen")
    start = time.perf_counter()
    child = subprocess.Popen(
        [str(reportgen), command, spec.name], cwd=spec.parent, stdout=sys.stdout, stderr=sys.stderr
    )
    peaks: dict[str, float] = {"client": 0.0, "worker": 0.0, "tree": 0.0}
    done = threading.Event()

    def sample() -> None:
        root = psutil.Process(child.pid)
        while not done.is_set():
            try:
                client = root.memory_info().rss
                others = []
                for process in root.children(recursive=True):
                    try:
                        others.append(process.memory_info().rss)
                    except psutil.Error:
                        continue
            except psutil.Error:
                break
            peaks["client"] = max(peaks["client"], client)
            peaks["worker"] = max([peaks["worker"], *others])
            peaks["tree"] = max(peaks["tree"], client + sum(others))
            done.wait(interval)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    child.returncode = os.waitstatus_to_exitcode(status)
    return {
        "exit": child.returncode,
        "wall_s": round(wall, 1),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
        "client_peak_gb": round(peaks["client"] / 1e9, 2),
        "client_maxrss_gb": round(usage.ru_maxrss * 1024 / 1e9, 2),
        "worker_peak_gb": round(peaks["worker"] / 1e9, 2),
        "tree_peak_gb": round(peaks["tree"] / 1e9, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", type=Path)
    parser.add_argument("--command", default="run", choices=["run", "validate"])
    args = parser.parse_args(argv)
    result = measure(args.spec.resolve(), args.command)
    print(json.dumps({"spec": str(args.spec), "command": args.command, **result}))
    return int(result["exit"] != 0)


if __name__ == "__main__":
    sys.exit(main())
