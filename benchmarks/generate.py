"""Generate a synthetic benchmarking study of the shape Liu et al. (papers/000) ran.

The full shape is 18 algorithms × 142 problems × 50 runs × a budget of 10 000 evaluations,
stored as best-so-far histories (one row per improvement). The histories are meant to look
like real ones, not like noise:

- every run starts at evaluation 1 near the problem's start level and improves a few hundred
  times (between about 120 and 400 times on average, depending on the algorithm), with
  improvements frequent early and rare late (evaluation counts ``1 + (budget − 1)·u^β``);
- each algorithm has its own speed (β), its own final accuracy relative to the problem's
  difficulty and its own run-to-run spread (the standard deviation of log10 of the final
  error), so profiles, bounds and verdicts differ between algorithms;
- problems have dimensions 2, 3, 5, 10, 20 and 40 and start levels between 10² and 10⁶; values
  span up to 15 orders of magnitude within a run, which is what makes a numerically careless
  standard deviation fail.

Everything is drawn from one seeded generator: the same arguments give the same file.

Usage::

    python benchmarks/generate.py [--algorithms 18] [--problems 142] [--runs 50]
                                  [--budget 10000] [--out benchmarks/_generated/full]

writes ``histories.parquet`` and ``study.yaml`` (a spec that ``reportgen run`` accepts), and
the same records as raw arrays (``arrays.npz``, read by ``benchmarks/run.py``) into the output
folder, which is git-ignored.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
DIMENSIONS = (2, 3, 5, 10, 20, 40)


@dataclass(frozen=True)
class Shape:
    """The size of a generated study."""

    algorithms: int = 18
    problems: int = 142
    runs: int = 50
    budget: int = 10_000
    seed: int = 2024

    @property
    def name(self) -> str:
        return f"a{self.algorithms}_p{self.problems}_r{self.runs}_b{self.budget}"


def _group(
    rng: np.random.Generator,
    runs: int,
    budget: int,
    improvements: float,
    beta: float,
    start_log: float,
    final_log: float,
    spread: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Histories of all runs of one algorithm on one problem: (run, evaluations, value)."""
    # Improvements per run scale with log(budget) so that smaller budgets stay realistic.
    scale = np.log(budget) / np.log(10_000)
    counts = np.maximum(rng.poisson(improvements * scale, runs), 10)
    run = np.repeat(np.arange(runs), counts)
    # Evaluation counts: 1 first, then early-heavy draws, sorted within each run.
    u = rng.random(len(run))
    offsets = np.r_[0, np.cumsum(counts)[:-1]]
    u[offsets] = 0.0
    order = np.lexsort((u, run))
    u = u[order]
    evaluations = 1 + np.floor((budget - 1) * u**beta)
    keep = np.r_[True, (np.diff(evaluations) != 0) | (np.diff(run) != 0)]
    run, evaluations = run[keep], evaluations[keep]
    counts = np.bincount(run, minlength=runs)
    offsets = np.r_[0, np.cumsum(counts)[:-1]]
    # log10 value: from the run's start level down to its final level, by positive steps.
    run_start = start_log + rng.normal(0.0, 0.3, runs)
    run_final = np.minimum(final_log + spread * rng.standard_normal(runs), run_start - 0.5)
    run_final = np.maximum(run_final, -9.0)
    steps = rng.exponential(1.0, len(run))
    steps[offsets] = 0.0  # the first record is the start level
    progress = np.cumsum(steps)
    progress -= np.repeat(progress[offsets], counts)
    total = np.repeat(np.maximum(progress[np.r_[offsets[1:], len(run)] - 1], 1e-12), counts)
    log_value = np.repeat(run_start, counts) - np.repeat(run_start - run_final, counts) * (
        progress / total
    )
    return run, evaluations, 10.0**log_value


def _draws(shape: Shape) -> tuple[list[str], list[str], dict[str, np.ndarray], np.random.Generator]:
    """Names, the per-algorithm and per-problem parameters, and the generator after them."""
    rng = np.random.default_rng(shape.seed)
    n_s, n_p = shape.algorithms, shape.problems
    algorithms = [f"A{i + 1:02d}" for i in range(n_s)]
    width = max(3, len(str(n_p)))
    problems = [f"f{j + 1:0{width}d}" for j in range(n_p)]
    # Per algorithm: improvements per run, speed, accuracy, spread.
    draws = {
        "improvements": rng.uniform(120, 400, n_s),
        "beta": rng.uniform(1.5, 4.0, n_s),
        "accuracy": rng.uniform(-7.0, 0.5, n_s),
        "spread": rng.uniform(0.05, 1.5, n_s),
        # Per problem: dimension, start level, difficulty.
        "dimension": np.asarray([DIMENSIONS[j % len(DIMENSIONS)] for j in range(n_p)]),
    }
    draws["start"] = rng.uniform(2.0, 6.0, n_p)
    draws["difficulty"] = rng.normal(0.0, 2.0, n_p) + 0.05 * draws["dimension"]
    return algorithms, problems, draws, rng


def generate_partitioned(
    shape: Shape, out: Path, workers: int = 2, memory_limit: str = "3GB"
) -> Path:
    """Write the same records as a hive-partitioned Parquet dataset, one problem at a time.

    ``out/histories/problem=f001/part-0.parquet`` holds the records of every algorithm on
    one problem (columns ``algorithm, dimension, run, evaluations, value``; the problem's name
    lives in the folder name). One file per problem rather than per algorithm and problem:
    each file read costs about 25 ms of fixed overhead (opening it, building its pieces),
    which at 25 560 files of ≈ 11 000 records would be most of the reading. Only one
    problem's records are in memory at a time, so any size can be written. Two specs read it: ``study.yaml`` on a LocalCluster of ``workers`` processes
    with ``memory_limit`` each, ``study_1worker.yaml`` on one such worker.
    """
    algorithms, problems, draws, rng = _draws(shape)
    root = out / "histories"
    rows = 0
    for j, problem in enumerate(problems):
        parts: dict[str, list[np.ndarray]] = {k: [] for k in ("a", "r", "e", "v")}
        for i in range(len(algorithms)):
            run, evaluations, value = _group(
                rng,
                shape.runs,
                shape.budget,
                draws["improvements"][i],
                draws["beta"][i],
                draws["start"][j],
                draws["accuracy"][i] + draws["difficulty"][j],
                draws["spread"][i],
            )
            parts["a"].append(np.full(len(run), i, dtype=np.int8))
            parts["r"].append(run.astype(np.int64))
            parts["e"].append(evaluations)
            parts["v"].append(value)
        codes = np.concatenate(parts["a"])
        folder = root / f"problem={problem}"
        folder.mkdir(parents=True, exist_ok=True)
        table = pa.table(
            {
                "algorithm": pa.DictionaryArray.from_arrays(
                    pa.array(codes), pa.array(algorithms, pa.string())
                ),
                "dimension": np.full(len(codes), draws["dimension"][j], dtype=np.int64),
                "run": np.concatenate(parts["r"]),
                "evaluations": np.concatenate(parts["e"]),
                "value": np.concatenate(parts["v"]),
            }
        )
        pq.write_table(table, folder / "part-0.parquet", compression="zstd")
        rows += len(codes)
    for name, size in (("study.yaml", workers), ("study_1worker.yaml", 1)):
        (out / name).write_text(
            _spec(shape, "histories", formats="[html]") + "execution:\n"
            "  engine: dask\n"
            "  scheduler: local\n"
            f"  workers: {size}\n"
            f"  memory_limit: {memory_limit}\n",
            encoding="utf-8",
        )
    print(f"{root}: {rows:,} history records in {shape.problems:,} files")
    return root


def _spec(shape: Shape, path: str, formats: str = "[html, pdf]") -> str:
    """The study spec of a generated shape reading ``path``."""
    return (
        "# Generated by benchmarks/generate.py; do not edit.\n"
        "study:\n"
        f"  title: Synthetic benchmark, {shape.algorithms} algorithms × {shape.problems} problems × "
        f"{shape.runs} runs\n"
        "  authors: [benchmarks/generate.py]\n"
        f"  description: Generated histories (seed {shape.seed}), budget {shape.budget}.\n"
        "minimize: true\n"
        "data:\n"
        "  curves:\n"
        f"    path: {path}\n"
        "    format: histories\n"
        "analyses:\n"
        "  - kind: performance_profiles\n"
        "    data: curves\n"
        "    tolerances: [1.0e-1, 1.0e-3, 1.0e-5, 1.0e-7]\n"
        "    lambdas: [1, 2, 3]\n"
        f"    budget: {shape.budget}\n"
        "report:\n"
        "  output: out\n"
        f"  formats: {formats}\n"
    )


def generate(shape: Shape, out: Path) -> Path:
    """Write ``histories.parquet``, ``arrays.npz`` and ``study.yaml`` for ``shape`` into ``out``."""
    algorithms, problems, draws, rng = _draws(shape)
    n_s, n_p = shape.algorithms, shape.problems
    improvements, beta, accuracy, spread = (
        draws["improvements"],
        draws["beta"],
        draws["accuracy"],
        draws["spread"],
    )
    dimension, start, difficulty = draws["dimension"], draws["start"], draws["difficulty"]
    columns: dict[str, list[np.ndarray]] = {k: [] for k in ("a", "p", "d", "r", "e", "v")}
    for j in range(n_p):
        for i in range(n_s):
            run, evaluations, value = _group(
                rng,
                shape.runs,
                shape.budget,
                improvements[i],
                beta[i],
                start[j],
                accuracy[i] + difficulty[j],
                spread[i],
            )
            n = len(run)
            columns["a"].append(np.full(n, i, dtype=np.int8))
            columns["p"].append(np.full(n, j, dtype=np.int16))
            columns["d"].append(np.full(n, dimension[j], dtype=np.int64))
            columns["r"].append(run.astype(np.int64))
            columns["e"].append(evaluations)
            columns["v"].append(value)
    # Canonical order: algorithm, problem, dimension, run, evaluations (the loader's order).
    a = np.concatenate(columns.pop("a"))
    p = np.concatenate(columns.pop("p"))
    order = np.lexsort((p, a))
    arrays = {
        "algorithm": a[order],
        "problem": p[order],
        "dimension": np.concatenate(columns.pop("d"))[order],
        "run": np.concatenate(columns.pop("r"))[order],
        "evaluations": np.concatenate(columns.pop("e"))[order],
        "value": np.concatenate(columns.pop("v"))[order],
    }
    del a, p, order
    out.mkdir(parents=True, exist_ok=True)
    # The same records twice: Parquet for `reportgen run`, raw arrays for benchmarks/run.py
    # (which then holds exactly the table in memory, with no reader's buffers).
    np.savez(
        out / "arrays.npz",
        algorithm_names=np.asarray(algorithms),
        problem_names=np.asarray(problems),
        problem_dimensions=dimension,
        **arrays,
    )
    table = pa.table(
        {
            "algorithm": pa.DictionaryArray.from_arrays(
                pa.array(arrays.pop("algorithm")), pa.array(algorithms, pa.string())
            ),
            "problem": pa.DictionaryArray.from_arrays(
                pa.array(arrays.pop("problem")), pa.array(problems, pa.string())
            ),
            **arrays,
        }
    )
    path = out / "histories.parquet"
    pq.write_table(table, path, compression="zstd")
    (out / "study.yaml").write_text(_spec(shape, "histories.parquet"), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    defaults = Shape()
    parser.add_argument("--algorithms", type=int, default=defaults.algorithms)
    parser.add_argument("--problems", type=int, default=defaults.problems)
    parser.add_argument("--runs", type=int, default=defaults.runs)
    parser.add_argument("--budget", type=int, default=defaults.budget)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--out", type=Path, default=None, help="output folder")
    parser.add_argument(
        "--partitioned",
        action="store_true",
        help="write a hive-partitioned dataset (algorithm=…/problem=…/) and Dask specs instead",
    )
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster size (--partitioned)")
    parser.add_argument("--memory-limit", default="3GB", help="per worker (--partitioned)")
    args = parser.parse_args(argv)
    shape = Shape(args.algorithms, args.problems, args.runs, args.budget, args.seed)
    out = args.out or HERE / "_generated" / (
        shape.name + ("_partitioned" if args.partitioned else "")
    )
    if args.partitioned:
        generate_partitioned(shape, out, args.workers, args.memory_limit)
        return 0
    path = generate(shape, out)
    rows = pq.read_metadata(path).num_rows
    print(f"{path}: {rows:,} history records ({path.stat().st_size / 1e6:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
