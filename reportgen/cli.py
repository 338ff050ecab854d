"""The ``reportgen`` command line: validate, run, schema, init.

Exit status: 0 success, 1 invalid input (every problem is listed, no traceback), 2 internal
error (a bug: the traceback is printed so it can be reported).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from reportgen.errors import InputError

EXIT_OK, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2


class Progress:
    """Stage messages: one updating line on a terminal, plain lines otherwise, nothing if quiet."""

    def __init__(self, stream: TextIO, quiet: bool) -> None:
        self.stream = stream
        self.quiet = quiet
        self.tty = stream.isatty()
        self.start = time.monotonic()
        self.count = 0

    def __call__(self, message: str) -> None:
        if self.quiet:
            return
        self.count += 1
        elapsed = time.monotonic() - self.start
        line = f"[{elapsed:5.1f}s] {message}"
        if self.tty:
            width = shutil.get_terminal_size((80, 20)).columns
            self.stream.write("\r" + line[: width - 1].ljust(width - 1))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.tty and not self.quiet and self.count:
            self.stream.write("\n")


def _print_problems(error: InputError, stream: TextIO) -> None:
    count = len(error.problems)
    stream.write(f"reportgen: {count} problem{'s' if count != 1 else ''} found:\n")
    for problem in error.problems:
        stream.write(f"  - {problem}\n")


def _guarded(action: Callable[[], int], stderr: TextIO) -> int:
    try:
        return action()
    except InputError as error:
        _print_problems(error, stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        stderr.write("reportgen: interrupted; no report was written\n")
        return EXIT_INPUT
    except Exception:  # a bug, not bad input: show everything needed to report it
        stderr.write(
            "reportgen: internal error (this is a bug in reportgen; please report it with the text below)\n"
        )
        traceback.print_exc(file=stderr)
        return EXIT_INTERNAL


def _cmd_validate(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from reportgen.pipeline import validate_study

    progress = Progress(stderr, args.quiet)
    results = validate_study(args.spec, strict=args.strict, progress=progress)
    progress.done()
    if not args.quiet:
        for caveat in results.caveats:
            stderr.write(f"reportgen: warning: {caveat.message} {caveat.where}".rstrip() + "\n")
        stdout.write(
            f"{args.spec}: valid — {len(results.data.algorithms)} algorithms, "
            f"{len(results.analyses)} analyses, {len(results.caveats)} warnings\n"
        )
    return EXIT_OK


def _cmd_run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from reportgen.pipeline import run_study

    progress = Progress(stderr, args.quiet)
    command = (
        " ".join(["reportgen", *sys.argv[1:]])
        if sys.argv and sys.argv[0].endswith("reportgen")
        else None
    )
    results = run_study(
        args.spec,
        args.output,
        strict=args.strict,
        progress=progress,
        command_line=command,
        bundle=args.bundle,
    )
    progress.done()
    if not args.quiet:
        for caveat in results.caveats:
            stderr.write(f"reportgen: warning: {caveat.message}\n")
        stdout.write(f"report written to {results.output_dir}\n")
    return EXIT_OK


def _cmd_schema(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from reportgen.spec.schema import study_schema

    stdout.write(json.dumps(study_schema(), indent=2, ensure_ascii=False) + "\n")
    return EXIT_OK


def _cmd_init(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from reportgen.starter import write_starter

    spec = write_starter(Path(args.folder))
    stdout.write(
        f"wrote a starter study to {args.folder}; build its report with: reportgen run {spec}\n"
    )
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reportgen",
        description="Statistically sound, reproducible reports from benchmark results of stochastic optimisers.",
    )
    from reportgen.pipeline import _version

    parser.add_argument("--version", action="version", version=f"reportgen {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
        sub.add_argument("--strict", action="store_true", help="treat warnings as errors (exit 1)")

    validate = commands.add_parser(
        "validate", help="check a study spec and its data; list every problem"
    )
    validate.add_argument("spec", help="the study spec (YAML)")
    common(validate)
    validate.set_defaults(handler=_cmd_validate)

    run = commands.add_parser("run", help="validate, run every analysis, write the report")
    run.add_argument("spec", help="the study spec (YAML)")
    run.add_argument("-o", "--output", help="output folder (default: report.output of the spec)")
    run.add_argument(
        "--bundle",
        action="store_true",
        help="also write supplement.zip (report, tables, figures, spec, input hashes) for a journal",
    )
    common(run)
    run.set_defaults(handler=_cmd_run)

    schema = commands.add_parser("schema", help="print the JSON Schema of the study spec")
    schema.set_defaults(handler=_cmd_schema)

    init = commands.add_parser(
        "init", help="write a small runnable study (spec + data) to start from"
    )
    init.add_argument("folder", help="a new folder")
    init.set_defaults(handler=_cmd_init)
    return parser


def main(
    argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Run the command line; return the exit status."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = build_parser().parse_args(argv)
    return _guarded(lambda: args.handler(args, stdout, stderr), stderr)


if __name__ == "__main__":
    sys.exit(main())
