"""Benchmark what users run: ``reportgen run`` on a generated study, end to end.

For each size, a study is generated once by ``benchmarks/generate.py`` (cached in the
git-ignored ``benchmarks/_generated/``; the CSV.gz copy of the records is written from the
Parquet file on first use). Then, each in a fresh child process and on the same file:

- **run**: ``reportgen run study.yaml -o <tmp>`` → ``report.html`` + ``report.pdf`` (and
  ``results.json``, tables, figures), exactly the command a user types;
- **load**: reportgen's loader alone (``reportgen.data.load.load_data``: read, check
  every cell, sort, best-so-far check, completeness, run counts), the part measured against
  the reference;
- **reference**: a bare DuckDB query on the same file — read it, partition by run, order
  by evaluations and count the records that repeat an evaluation count or get worse (the
  best-so-far check) — run by a Python that has ``duckdb`` (``--reference-python``; DuckDB
  is not a dependency of reportgen: install it in a separate virtual environment).

Each child's CPU time (user + system, all threads, its own children included), wall time and
peak resident set size come from ``os.wait4``, i.e. from the kernel's accounting of the
process tree (``ru_maxrss`` is the largest resident set of the child or any descendant it
waited for). The loader's cost is reported as a ratio to the reference's CPU time, which
makes it comparable across machines.

Linux starts a child's peak at its parent's: the memory a process had when it forks (its
high-water mark, ``vfork`` and ``exec`` included) counts as the child's too. So this
process stays small — generating a study (≈ 2.4 GB at the full shape) and writing its CSV
copies run in child processes of their own — and its own peak is recorded
(``benchmark_peak_bytes``): no child's peak can read lower.

Usage::

    python benchmarks/e2e.py --reference-python /path/to/venv-with-duckdb/bin/python
    python benchmarks/e2e.py --sizes full --formats parquet csv.gz --parts run load reference
    python benchmarks/e2e.py --sizes --examples cec2022     # the example alone

With ``--examples`` (default: ``cec2022``) the same measurement of ``reportgen run`` is
taken on example studies as they are (the real CEC 2022 data: 13 entrants, nine analyses, 31
figures, HTML + PDF).

With ``--example-reference CHECKOUT`` each example is also timed against a reference of its
own, in the same benchmark: CHECKOUT is a checkout of reportgen at an earlier commit (a ``git
worktree``), and its version of the example's spec is run, alternately, by that checkout's code
and by this tree's (the same Python and libraries; the checkout's code through ``PYTHONPATH``).
The example's target is a ratio to a measurement taken when it was set, so this makes it
comparable across machines: issue 14's "``cec2022`` ≤ 12 s CPU (today 34 s)" was measured at
30ce301 (the 58-page report), so it reads "this tree ≤ 12/34 = 0.35 × 30ce301's CPU on
30ce301's spec", and the example as it is now (more analyses since) is timed beside it::

    git worktree add /tmp/filed 30ce301
    python benchmarks/e2e.py --sizes --example-reference /tmp/filed --repeat 3

Targets (issue 14): paper shape, Parquet → HTML + PDF ≤ 25 s CPU and ≤ 1.5 GB peak RSS;
CSV.gz ≤ 40 s CPU; the loader ≤ 1.5 × the reference's CPU time; the ``cec2022`` example
≤ 12 s CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from statistics import median
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from generate import Shape  # noqa: E402

SIZES: dict[str, Shape] = {
    "full": Shape(algorithms=18, problems=142, runs=50, budget=10_000),
    "half": Shape(algorithms=18, problems=71, runs=50, budget=10_000),
    "quarter": Shape(algorithms=18, problems=36, runs=50, budget=10_000),
    "sixteenth": Shape(algorithms=18, problems=9, runs=50, budget=10_000),
}

LOAD_ONLY = """
import sys
from reportgen.data.load import load_data
from reportgen.spec.load import load_spec
data = load_data(load_spec(sys.argv[1]))
print(sum(len(s.frame) for s in data.sources.values()))
"""

REFERENCE = """
import sys
import duckdb
path = sys.argv[1]
reader = "read_parquet" if path.endswith(".parquet") else "read_csv"
row = duckdb.connect().execute(f'''
SELECT count(*),
       count(*) FILTER (WHERE evaluations = previous_evaluations),
       count(*) FILTER (WHERE evaluations > previous_evaluations AND value > previous_value)
FROM (SELECT evaluations, value,
             lag(evaluations) OVER run AS previous_evaluations,
             lag(value) OVER run AS previous_value
      FROM {reader}('{path}')
      WINDOW run AS (PARTITION BY algorithm, problem, dimension, run ORDER BY evaluations))
''').fetchall()[0]
print(row[0])
"""


def measure(
    command: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> dict[str, float]:
    """CPU, wall time and peak RSS of one child process tree (``os.wait4``).

    The child's output goes to temporary files, not pipes: reading one pipe to its end while
    the child fills the other (cocopp writes hundreds of warnings) would block both.
    """
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        began = time.perf_counter()
        child = subprocess.Popen(command, env=env, cwd=cwd, stdout=out_file, stderr=err_file)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - began
        out_file.seek(0)
        err_file.seek(0)
        out, err = out_file.read(), err_file.read()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(
            f"{' '.join(command)} failed ({child.returncode}):\n{err.decode()}{out.decode()}"
        )
    numbers = {
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "wall_seconds": wall,
        "peak_bytes": usage.ru_maxrss * 1024,
        # The machine's 1-minute load average before and after: CPU times are the child's
        # own, but a busy machine still slows them (shared caches, memory bandwidth).
        "load_average": [load_before, os.getloadavg()[0]],
        "output": out.decode().strip().splitlines()[-1] if out.strip() else "",
    }
    print(f"  {json.dumps(numbers)}", file=sys.stderr, flush=True)
    return numbers


def compile_bytecode(root: Path = ROOT) -> None:
    """Compile reportgen's modules to bytecode (``__pycache__``, git-ignored) before timing.

    An installed reportgen has its bytecode written by pip at install time, as have the
    libraries it imports and cocopp in its own environment. A source checkout run with
    ``PYTHONDONTWRITEBYTECODE`` set (as on the benchmark machine) would otherwise compile
    every module again in each measured run (≈ 0.2–0.3 s CPU), a cost no user pays twice.
    """
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(root / "reportgen")],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def _in_child(command: list[str]) -> None:
    """Run ``command`` (a Python script's arguments) in a child process, failing loudly.

    Work that holds much memory runs there, not here: the children measured later would
    otherwise start from this process's peak (see the module's docstring).
    """
    subprocess.run([sys.executable, *command], check=True, cwd=HERE)


def study_files(shape: Shape, fmt: str) -> Path:
    """The study spec for ``shape`` reading the records as ``fmt`` (generated on first use,
    in a child process)."""
    folder = HERE / "_generated" / shape.name
    if not (folder / "histories.parquet").exists():
        print(f"generating {shape.name} …", file=sys.stderr, flush=True)
        # generate.py's options, from the fields of Shape (algorithms, problems, …).
        options = [f"--{name}={getattr(shape, name)}" for name in Shape.__dataclass_fields__]
        _in_child([str(HERE / "generate.py"), *options, f"--out={folder}"])
    if fmt == "parquet":
        return folder / "study.yaml"
    data = folder / f"histories.{fmt}"
    if not data.exists():
        print(f"writing {data} …", file=sys.stderr, flush=True)
        _in_child(["-c", "import sys, e2e; e2e.write_text_copy(*sys.argv[1:])", str(folder), fmt])
    spec = folder / f"study_{fmt.replace('.', '_')}.yaml"
    spec.write_text(
        (folder / "study.yaml").read_text(encoding="utf-8").replace("histories.parquet", data.name),
        encoding="utf-8",
    )
    return spec


def write_text_copy(folder: str, fmt: str) -> None:
    """Write ``histories.<fmt>`` (``csv`` or ``csv.gz``) from ``histories.parquet`` in
    ``folder`` (run in a child process by :func:`study_files`)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    data = Path(folder) / f"histories.{fmt}"
    parquet = pq.ParquetFile(Path(folder) / "histories.parquet")
    partial = data.with_suffix(".partial")
    with pa_gzip(partial) if fmt == "csv.gz" else pa.OSFile(str(partial), "wb") as sink:
        writer = None
        for batch in parquet.iter_batches(batch_size=1 << 20):
            table = _decoded(batch)
            if writer is None:
                writer = pacsv.CSVWriter(sink, table.schema)
            writer.write_table(table)
        if writer is not None:
            writer.close()
    partial.rename(data)


def pa_gzip(path: Path) -> Any:
    import pyarrow as pa

    return pa.CompressedOutputStream(str(path), "gzip")


def _decoded(batch: Any) -> Any:
    """Dictionary columns as plain text (a CSV has no dictionaries)."""
    import pyarrow as pa

    columns = [
        c.dictionary_decode() if pa.types.is_dictionary(c.type) else c for c in batch.columns
    ]
    return pa.Table.from_arrays(columns, names=batch.schema.names)


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())
    return (
        f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}{load}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="*", choices=list(SIZES), default=list(SIZES))
    parser.add_argument(
        "--formats", nargs="+", choices=["parquet", "csv.gz", "csv"], default=["parquet"]
    )
    parser.add_argument(
        "--parts",
        nargs="+",
        choices=["run", "load", "reference"],
        default=["run", "load", "reference"],
    )
    parser.add_argument(
        "--reference-python",
        default=os.environ.get("REFERENCE_PYTHON", ""),
        help="a Python with duckdb installed (default: $REFERENCE_PYTHON)",
    )
    parser.add_argument(
        "--examples",
        nargs="*",
        default=["cec2022"],
        help="example studies (example_studies/<name>/study.yaml) to time end to end as well, "
        "each as it is, HTML + PDF (default: cec2022; none: --examples)",
    )
    parser.add_argument(
        "--example-reference",
        type=Path,
        help="a checkout of reportgen at an earlier commit: each example's spec there is run "
        "by that checkout's code and by this tree's, alternately (see the module docstring)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="alternated runs of each example against its reference (default 1)",
    )
    parser.add_argument("--json", type=Path, default=HERE / "_generated" / "e2e.json")
    args = parser.parse_args(argv)
    compile_bytecode()
    if args.example_reference:
        compile_bytecode(args.example_reference)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    reportgen = [sys.executable, "-m", "reportgen"]
    rows = []
    for size in args.sizes:
        shape = SIZES[size]
        for fmt in args.formats:
            spec = study_files(shape, fmt)
            data_path = spec.parent / f"histories.{fmt}"
            row: dict[str, object] = {"size": size, "shape": shape.name, "format": fmt}
            if "run" in args.parts:
                print(f"{size} {fmt}: reportgen run …", file=sys.stderr, flush=True)
                out = Path(tempfile.mkdtemp(prefix="e2e-", dir=spec.parent))
                try:
                    row["run"] = measure(
                        [*reportgen, "run", str(spec), "-o", str(out / "report"), "--quiet"], env
                    )
                    report = out / "report"
                    row["outputs"] = {
                        name: (report / name).stat().st_size
                        for name in ("report.html", "report.pdf", "results.json")
                        if (report / name).exists()
                    }
                finally:
                    shutil.rmtree(out, ignore_errors=True)
            if "load" in args.parts:
                print(f"{size} {fmt}: loader …", file=sys.stderr, flush=True)
                row["load"] = measure([sys.executable, "-c", LOAD_ONLY, str(spec)], env)
            if "reference" in args.parts and args.reference_python:
                print(f"{size} {fmt}: DuckDB reference …", file=sys.stderr, flush=True)
                row["reference"] = measure([args.reference_python, "-c", REFERENCE, str(data_path)])
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    for name in args.examples:
        spec = ROOT / "example_studies" / name / "study.yaml"
        print(f"example {name}: reportgen run …", file=sys.stderr, flush=True)
        row = {"size": f"example {name}", "shape": name, "format": "as in its spec"}
        with tempfile.TemporaryDirectory(prefix="e2e-") as out:
            report = Path(out) / "report"
            row["run"] = measure([*reportgen, "run", str(spec), "-o", str(report), "--quiet"], env)
            row["outputs"] = {
                file: (report / file).stat().st_size
                for file in ("report.html", "report.pdf", "results.json")
                if (report / file).exists()
            }
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    against = (
        [example_against(name, args.example_reference, args.repeat) for name in args.examples]
        if args.example_reference
        else []
    )
    record = {
        "machine": _machine(),
        "date": datetime.now(UTC).replace(microsecond=0).isoformat(),
        # This process's own peak: a floor under every child's (see the docstring).
        "benchmark_peak_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "rows": rows,
        "examples_against_reference": against,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(record, indent=1), encoding="utf-8")
    print(
        f"\nMachine: {record['machine']}; {record['date']}; this benchmark's own peak "
        f"{record['benchmark_peak_bytes'] / 1e9:.2f} GB (no child's peak reads lower)\n"
    )
    print(
        "| size | format | records | run: CPU | run: wall | run: peak RSS | load: CPU | "
        "load: peak RSS | DuckDB: CPU | DuckDB: peak RSS | load / DuckDB (CPU) | load average |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for row in rows:

        def cell(part: str, key: str, unit: str, row: dict[str, object] = row) -> str:
            value = row.get(part)
            if not isinstance(value, dict):
                return "–"
            number = value[key] / (1e9 if key == "peak_bytes" else 1)
            return f"{number:.2f} {unit}" if unit == "GB" else f"{number:.1f} {unit}"

        load, ref = row.get("load"), row.get("reference")
        ratio = (
            f"{load['cpu_seconds'] / ref['cpu_seconds']:.2f}"  # type: ignore[index]
            if isinstance(load, dict) and isinstance(ref, dict)
            else "–"
        )
        records = load["output"] if isinstance(load, dict) else "–"  # type: ignore[index]
        averages = [
            a
            for part in ("run", "load", "reference")
            if isinstance(row.get(part), dict)
            for a in row[part]["load_average"]  # type: ignore[index]
        ]
        low, high = (round(min(averages)), round(max(averages))) if averages else (0, 0)
        busy = "–" if not averages else f"{low}" if low == high else f"{low}–{high}"
        print(
            f"| {row['size']} | {row['format']} | {records} | {cell('run', 'cpu_seconds', 's')} "
            f"| {cell('run', 'wall_seconds', 's')} | {cell('run', 'peak_bytes', 'GB')} "
            f"| {cell('load', 'cpu_seconds', 's')} | {cell('load', 'peak_bytes', 'GB')} "
            f"| {cell('reference', 'cpu_seconds', 's')} | {cell('reference', 'peak_bytes', 'GB')} "
            f"| {ratio} | {busy} |"
        )
    if against:
        print(
            f"\nExamples against {args.example_reference} (its spec of each example, run by its "
            "code and by this tree's, alternately; CPU s):\n"
        )
        print("| example | reference | this tree | this tree / reference | now, its own spec |")
        print("|---|---:|---:|---:|---:|")
        for entry in against:
            ref = [r["cpu_seconds"] for r in entry["reference"]]
            ours = [r["cpu_seconds"] for r in entry["this_tree"]]
            own = [r["cpu_seconds"] for r in entry["own_spec"]]
            print(
                f"| {entry['example']} | {_runs(ref)} | {_runs(ours)} "
                f"| {median(ours) / median(ref):.2f} | {_runs(own)} |"
            )
    return 0


def example_against(name: str, checkout: Path, repeat: int) -> dict[str, Any]:
    """Time the example ``name`` against a reference checkout (``--example-reference``):
    ``repeat`` rounds, each running the checkout's spec with the checkout's code, then with
    this tree's code, then this tree's own spec with its code (alternated, so that a change
    of the machine's speed during the benchmark falls on all three alike)."""
    spec = checkout / "example_studies" / name / "study.yaml"
    own = ROOT / "example_studies" / name / "study.yaml"
    theirs = {**os.environ, "PYTHONPATH": str(checkout.resolve())}
    ours = {**os.environ, "PYTHONPATH": str(ROOT)}
    row: dict[str, Any] = {"example": name, "reference": [], "this_tree": [], "own_spec": []}
    for round_ in range(repeat):
        for part, env, study in (
            ("reference", theirs, spec),
            ("this_tree", ours, spec),
            ("own_spec", ours, own),
        ):
            print(f"example {name}, {part}, round {round_ + 1} …", file=sys.stderr, flush=True)
            with tempfile.TemporaryDirectory(prefix="e2e-") as out:
                command = [sys.executable, "-m", "reportgen", "run", str(study), "-o", out + "/r"]
                # In the spec's folder: a checkout's -m reportgen must not find this tree's.
                row[part].append(measure([*command, "--quiet"], env, cwd=study.parent))
    return row


def _runs(values: list[float]) -> str:
    """Each run's CPU and, for more than one, their median."""
    text = ", ".join(f"{v:.1f}" for v in values)
    return f"{text} (median {median(values):.1f})" if len(values) > 1 else text


if __name__ == "__main__":
    sys.exit(main())
