"""The ``reportgen`` command line: validate, run, verify, schema, init.

Exit status (documented in ``--help`` and the README, stable for cron jobs and CI):

- 0: success (for ``verify``: everything reproduces);
- 1: invalid input — every problem is listed, no traceback (for ``verify``: a hash or a number
  does not reproduce; with ``--strict``: a warning the spec does not ``accept``);
- 2: usage error (unknown command or option, missing argument; argparse's status);
- 3: internal error — a bug in reportgen; the traceback is printed so it can be reported;
- 130: interrupted (Ctrl-C); nothing was written.

Output: progress on stderr (one updating line on a terminal, plain lines otherwise); warnings
on stderr as ``reportgen: warning [code]: ...``; ``--quiet`` drops progress and the final
message but keeps warnings and errors (a warning the spec acknowledges with ``accept:`` is
then not printed either).
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import math
import shutil
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, TextIO

from reportgen.errors import InputError, shorten_words

if TYPE_CHECKING:
    from reportgen.pipeline import StudyResults
    from reportgen.spec.load import KeyPath, LoadedSpec

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
EXIT_STATUS_HELP = """exit status:
  0    success (verify: every number reproduces)
  1    invalid input: every problem is listed (verify: a hash or a number does not
       reproduce; --strict: a warning whose code the spec does not list in 'accept:')
  2    usage error: unknown command or option, missing argument
  3    internal error: a bug in reportgen; the traceback is printed for the report
  130  interrupted; nothing was written"""


class Progress:
    """Stage messages on stderr: on a terminal one updating line with a bar (when the number of
    stages is known), plain time-stamped lines otherwise (cron, CI logs); nothing if quiet.

    A message that extends the previous one ("laying out pages (10 s)" after "laying out
    pages") reports on the same stage and does not advance the bar.
    """

    BAR_WIDTH = 20

    def __init__(self, stream: TextIO, quiet: bool, total: int | None = None) -> None:
        self.stream = stream
        self.quiet = quiet
        self.total = total
        self.tty = stream.isatty()
        self.start = time.monotonic()
        self.count = 0
        self.last = "\0"

    def __call__(self, message: str) -> None:
        if self.quiet:
            return
        if not message.startswith(self.last):
            self.count += 1
            self.last = message
        elapsed = time.monotonic() - self.start
        if self.tty:
            bar = ""
            if self.total:
                done = min(self.count, self.total)
                filled = round(self.BAR_WIDTH * done / self.total)
                bar = f"{'█' * filled}{'░' * (self.BAR_WIDTH - filled)} {done}/{self.total} "
            line = f"[{elapsed:5.1f}s] {bar}{message}"
            width = shutil.get_terminal_size((80, 20)).columns
            self.stream.write("\r" + line[: width - 1].ljust(width - 1))
        else:
            self.stream.write(f"[{elapsed:5.1f}s] {message}\n")
        self.stream.flush()

    def done(self) -> None:
        if self.tty and not self.quiet and self.count:
            self.stream.write("\n")


def _print_problems(error: InputError, stream: TextIO) -> None:
    count = len(error.problems)
    stream.write(f"reportgen: {count} problem{'s' if count != 1 else ''} found:\n")
    for problem in error.problems:
        stream.write(f"  - {shorten_words(str(problem))}\n")


def _guarded(action: Callable[[], int], stderr: TextIO) -> int:
    try:
        return action()
    except InputError as error:
        _print_problems(error, stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        stderr.write("reportgen: interrupted; no report was written\n")
        return EXIT_INTERRUPTED
    except Exception:  # a bug, not bad input: show everything needed to report it
        stderr.write(
            "reportgen: internal error (this is a bug in reportgen; please report it with the text below)\n"
        )
        traceback.print_exc(file=stderr)
        return EXIT_INTERNAL


def _print_warnings(results: StudyResults, quiet: bool, stderr: TextIO) -> None:
    """Every warning with its code; acknowledged ones (``accept:``) only when not quiet."""
    from reportgen.pipeline import new_caveats

    new = {id(c) for c in new_caveats(results)}
    for caveat in results.caveats:
        accepted = id(caveat) not in new
        if accepted and quiet:
            continue
        kind = "accepted warning" if accepted else "warning"
        text = shorten_words(f"reportgen: {kind} [{caveat.code}]: {caveat.message} {caveat.where}")
        stderr.write(text.rstrip() + "\n")


def _cmd_validate(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    progress = Progress(stderr, args.quiet)
    spec = with_scheduler(_load_spec(args.spec), args.scheduler)
    results = _pipeline().validate_study(spec, strict=args.strict, progress=progress)
    progress.done()
    _print_warnings(results, args.quiet, stderr)
    if not args.quiet:
        from reportgen.present.format import counted

        stdout.write(
            f"{args.spec}: valid — {counted(len(results.data.algorithms), 'algorithm')}, "
            f"{counted(len(results.analyses), 'analysis')}, "
            f"{counted(len(results.caveats), 'warning')}\n"
        )
    return EXIT_OK


def with_scheduler(spec: LoadedSpec, scheduler: str | None) -> LoadedSpec:
    """The spec with ``--scheduler``: engine dask at that scheduler (unchanged without it)."""
    from reportgen.spec.study import ExecutionOptions

    if scheduler is None:
        return spec
    current = spec.study.execution
    # a LocalCluster keeps the spec's sizes; a running scheduler has its own workers
    same = scheduler == "local" and current.scheduler == "local"
    execution = ExecutionOptions(
        engine="dask",
        scheduler=scheduler,
        workers=current.workers if same else None,
        memory_limit=current.memory_limit if same else None,
    )
    study = spec.study.model_copy(update={"execution": execution})
    given: dict[KeyPath, str] = {
        ("execution", key): "--scheduler" for key in ("engine", "scheduler")
    }
    return dataclasses.replace(spec, study=study, given={**spec.given, **given})


def _run_stages(spec: LoadedSpec, args: argparse.Namespace) -> int:
    """How many stages ``run`` reports (for the progress bar): loading, per analysis computing,
    presenting and writing, the summary, the HTML, the PDF's two, bundle and baseline."""
    analyses = len(spec.study.analyses)
    pdf = 2 if "pdf" in spec.study.report.formats else 0
    return 3 + 3 * analyses + pdf + bool(args.bundle) + (args.baseline is not None)


_SAVED_COLLECTOR: list[tuple[tuple[int, int, int], bool]] = []
"""The collector's thresholds and state before the running command (empty outside one)."""


@contextmanager
def _collector_for_a_command(process_ends: bool = False) -> Iterator[None]:
    """Python's cyclic garbage collector tuned for one command, and restored after it.

    A report run allocates millions of short-lived objects (pandas, matplotlib, weasyprint's
    boxes). With the default thresholds the collector ran about 1,400 times in the
    six-archive COCO benchmark and traversed the whole heap, every object of the imported
    libraries included, nine times: 1.2-1.5 s of CPU, an eighth of the run. So a command runs
    with collection off until :func:`_pipeline` has imported the pipeline (imports make no
    garbage worth a collection); then its libraries' objects, which live as long as the
    process, are frozen (never traversed again; a forked figure worker then also shares
    their pages), and the youngest generation is collected every 10,000 allocations instead
    of 700: 0.3 s of collection. The middle generation is collected after 100 of those
    instead of 10: what survives a young collection is mostly what the report is made of
    (results, sections, figures), alive to the end and frozen when the figures are drawn,
    and each of the 12 middle collections of the cec2022 example traversed all of it again
    (40-70 ms each, 0.48 s, to find some 24,000 garbage objects); after 100 there are none
    in that run (the collector's CPU 0.75 -> 0.32 s; the six COCO archives 0.24 -> 0.10 s,
    the paper shape's quarter 0.23 -> 0.11 s at the same peak). Cyclic garbage is still
    collected; the thresholds and the frozen objects are given back at the end, so that a
    process that runs several commands (the tests) keeps its usual collector.

    When the process ends with the command (``process_ends``: the ``reportgen`` program), the
    objects are left frozen instead, the report's included: on exit the interpreter collects
    once more while it tears its modules down, and that collection traversed every object
    given back, about 1 s of CPU after a report (0.95-1.0 s of a quickstart run; 0.06 s
    with them frozen). Frozen objects are not collected at all: in a process about to end
    that costs nothing, and files are closed where they are written, not by the collector.
    """
    _SAVED_COLLECTOR.append((gc.get_threshold(), gc.isenabled()))
    gc.disable()
    try:
        yield
    finally:
        thresholds, enabled = _SAVED_COLLECTOR.pop()
        if process_ends:
            gc.freeze()
        else:
            gc.unfreeze()
        gc.set_threshold(*thresholds)
        (gc.enable if enabled else gc.disable)()


def _pipeline() -> ModuleType:
    """:mod:`reportgen.pipeline`, imported only by the commands that build a study: it loads
    every analysis, pandas, scipy and matplotlib (≈ 2.5 s of CPU), which ``--help``,
    ``schema``, ``init`` and a spec with errors do without. Within a command (see
    :func:`_collector_for_a_command`) the collector is tuned once it is imported."""
    import reportgen.pipeline

    if _SAVED_COLLECTOR and not gc.isenabled():
        gc.freeze()
        gc.set_threshold(10_000, 100, 10)
        gc.enable()
    return reportgen.pipeline


def _load_spec(path: str) -> LoadedSpec:
    """The validated spec (:func:`reportgen.pipeline.load_study`), read before the pipeline is
    imported so that a spec with errors is reported at once."""
    from reportgen.spec.load import load_spec

    return load_spec(path)


def _cmd_run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    spec = with_scheduler(_load_spec(args.spec), args.scheduler)
    run_study = _pipeline().run_study
    progress = Progress(stderr, args.quiet, _run_stages(spec, args))
    command = (
        " ".join(["reportgen", *sys.argv[1:]])
        if sys.argv and sys.argv[0].endswith("reportgen")
        else None
    )
    results = run_study(
        spec,
        args.output,
        strict=args.strict,
        progress=progress,
        command_line=command,
        bundle=args.bundle,
        baseline=args.baseline,
    )
    progress.done()
    _print_warnings(results, args.quiet, stderr)
    if not args.quiet:
        stdout.write(f"report written to {results.output_dir}\n")
    return EXIT_OK


def _cmd_verify(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    _pipeline()  # the study is rerun
    from reportgen.verify import verify_bundle

    progress = Progress(stderr, args.quiet)
    verification = verify_bundle(args.bundle, rtol=args.rtol, progress=progress)
    progress.done()
    stdout.write(verification.statement(limit=None if args.all else 100) + "\n")
    return EXIT_OK if verification.ok else EXIT_INPUT


def _cmd_schema(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from reportgen.spec.schema import study_schema

    stdout.write(json.dumps(study_schema(), indent=2, ensure_ascii=False) + "\n")
    return EXIT_OK


def _cmd_init(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from reportgen.starter import write_starter

    source = Path(args.from_file) if args.from_file else None
    spec, note = write_starter(Path(args.folder), format=args.format, from_file=source)
    stdout.write(note)
    stdout.write(
        f"wrote a starter study to {args.folder}; build its report with: reportgen run {spec}\n"
    )
    return EXIT_OK


def _tolerance(text: str) -> float:
    """``--rtol``: a finite number ≥ 0, refused as a usage error before the rerun (a
    negative one was a ValueError traceback after it; ``inf`` let every number pass)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a finite number ≥ 0, got {text!r}")
    return value


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help, with texts laid out in lines (the exit status table) kept as they are
    and one-paragraph texts wrapped to the terminal."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reportgen",
        description="Statistically sound, reproducible reports from benchmark results of stochastic optimisers.",
        epilog=EXIT_STATUS_HELP,
        formatter_class=_HelpFormatter,
    )
    from reportgen.resources import package_version

    parser.add_argument("--version", action="version", version=f"reportgen {package_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, description: str | None = None) -> argparse.ArgumentParser:
        # Each command's --help ends with the exit status too: the help a cron job's author
        # reads is the command's ('reportgen run --help'), not the program's.
        return commands.add_parser(
            name,
            help=help,
            description=description,
            epilog=EXIT_STATUS_HELP,
            formatter_class=_HelpFormatter,
        )

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "-q",
            "--quiet",
            action="store_true",
            help="print only warnings and errors (no progress; acknowledged warnings hidden)",
        )
        sub.add_argument(
            "--scheduler",
            metavar="ADDRESS",
            help="run the per-problem work on Dask: a scheduler address (tcp://host:8786) or "
            "'local' for a LocalCluster; overrides the spec's execution: (needs "
            "pip install 'reportgen[dask]')",
        )
        sub.add_argument(
            "--strict",
            action="store_true",
            help="exit 1 on any warning whose code the spec does not list in 'accept:'",
        )

    validate = command("validate", help="check a study spec and its data; list every problem")
    validate.add_argument("spec", help="the study spec (YAML)")
    common(validate)
    validate.set_defaults(handler=_cmd_validate)

    run = command("run", help="validate, run every analysis, write the report")
    run.add_argument("spec", help="the study spec (YAML)")
    run.add_argument("-o", "--output", help="output folder (default: report.output of the spec)")
    run.add_argument(
        "--bundle",
        action="store_true",
        help="also write supplement.zip (report, tables, figures, spec, input hashes) for a journal",
    )
    run.add_argument(
        "--baseline",
        metavar="PREVIOUS",
        help="a previous output folder (or its results.json): list what changed since it in the "
        "executive summary and tables/summary/changes.csv; may be the output folder itself",
    )
    common(run)
    run.set_defaults(handler=_cmd_run)

    verify = command(
        "verify",
        help="check a supplement's input hashes, rerun its study, compare every number",
        description="Unpack a supplement written by 'reportgen run --bundle' (the zip or its "
        "folder), check INPUTS.sha256, rerun the study (no HTML/PDF) and compare every number "
        "of the new results.json with the bundled one. Exit 0 when everything reproduces, "
        "1 when a hash or a number does not (each is listed).",
    )
    verify.add_argument("bundle", help="supplement.zip, or the folder it was unpacked into")
    verify.add_argument(
        "--rtol",
        type=_tolerance,
        metavar="R",
        help="relative tolerance for every number (default: integers exact, floats 1e-9)",
    )
    verify.add_argument(
        "--all", action="store_true", help="list every difference (default: the first 100)"
    )
    verify.add_argument("-q", "--quiet", action="store_true", help="no progress messages")
    verify.set_defaults(handler=_cmd_verify)

    schema = command("schema", help="print the JSON Schema of the study spec")
    schema.set_defaults(handler=_cmd_schema)

    init = command("init", help="write a small runnable study (spec + data) to start from")
    init.add_argument("folder", help="a new folder")
    start = init.add_mutually_exclusive_group()
    start.add_argument(
        "--format",
        choices=["trials", "histories", "summary", "coco", "ioh", "cec"],
        help="the starter's data in this input format, with a spec that reads it",
    )
    start.add_argument(
        "--from",
        dest="from_file",
        metavar="FILE",
        help="a spec for your own CSV/Parquet file: proposes its format and columns mapping",
    )
    init.set_defaults(handler=_cmd_init)
    return parser


def main(
    argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Run the command line; return the exit status.

    Without ``argv`` it runs the process's own command line (``sys.argv``): so the
    ``reportgen`` program and ``python -m reportgen`` call it, and the process ends when it
    returns, which lets the collector skip its work at exit (see
    :func:`_collector_for_a_command`). A caller that goes on after it (the tests) passes
    ``argv`` and gets its collector back as it was.
    """
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = build_parser().parse_args(argv)
    with _collector_for_a_command(process_ends=argv is None):
        return _guarded(lambda: args.handler(args, stdout, stderr), stderr)


if __name__ == "__main__":
    sys.exit(main())
