"""What every fuzzed input must satisfy, and the knobs of the fuzz profiles.

The contract (README, "Reliability"): for any spec and any data, ``reportgen`` ends with
exit 0 and a complete report, or exit 1 with messages that each name the spec key
(``file:line``) or the data file (and row/column) — never a traceback (exit 3), never a hang,
never a partial output folder or a leftover staging folder, and no ``nan``/``inf``/``None``
in the report's text.

Profiles: the quick profile (default) runs a few hundred generated inputs in well under a
minute as part of ``pytest``; ``make fuzz`` sets ``REPORTGEN_FUZZ=full`` for ≥ 2000.
"""

from __future__ import annotations

import html
import os
import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, settings

from tests.conftest import CliResult, run_cli

FULL = os.environ.get("REPORTGEN_FUZZ", "").lower() == "full"

SCALE = {
    # test name → (quick examples, full examples)
    "spec": (150, 1000),
    "data": (150, 1000),
    "degenerate": (40, 200),
    "names": (40, 300),
    "render": (3, 20),
}


def fuzz_settings(kind: str) -> settings:
    quick, full = SCALE[kind]
    return settings(
        max_examples=full if FULL else quick,
        deadline=None,  # a single example's time limit is TIME_LIMIT, enforced by SIGALRM
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        derandomize=not FULL,  # the quick profile is the same in every CI run
        database=None,
    )


TIME_LIMIT = 60
"""CPU seconds one command may use before it counts as a hang (CPU, not wall time: on a
loaded machine a 2-second report can take a minute of wall time)."""
WALL_LIMIT = 900
"""Wall-clock seconds before a command counts as stuck (waiting, not computing)."""


class Hang(Exception):
    """A command exceeded TIME_LIMIT (CPU) or WALL_LIMIT."""


@contextmanager
def time_limit(seconds: int = TIME_LIMIT) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise Hang(f"no answer after {seconds} s of CPU time (or {WALL_LIMIT} s)")

    previous = {sig: signal.signal(sig, expire) for sig in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.alarm(WALL_LIMIT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.alarm(0)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run(*args: str) -> CliResult:
    with time_limit():
        return run_cli(*args)


LOCATED = re.compile(r"^  - (.+?): ", re.MULTILINE)


def check_contract(result: CliResult, folder: Path, data_names: tuple[str, ...] = ()) -> None:
    """Exit 0, or exit 1 with every problem located; never a traceback; nothing left behind."""
    assert "Traceback" not in result.err, result.err
    assert result.code in (0, 1), f"exit {result.code}:\n{result.err}"
    if result.code == 1:
        assert re.search(r"reportgen: \d+ problems? found:", result.err), result.err
        problems = [line for line in result.err.splitlines() if line.startswith("  - ")]
        assert problems, result.err
        for line in problems:
            where = line[4:].split(": ", 1)[0]
            located = (
                "study.yaml" in where
                or any(name in where for name in data_names)
                or where.startswith(("data.", "analyses[", "--strict", "... "))
                or where.startswith("data/")
            )
            assert located, f"a problem without a location: {line!r}"
        # No message of unbounded size (a name, a file quoted in full).
        assert max(len(line) for line in result.err.splitlines()) < 2000
    leftovers = [p.name for p in folder.iterdir() if p.name.startswith(".reportgen-")]
    leftovers += [p.name for p in folder.iterdir() if ".old-" in p.name]
    assert not leftovers, leftovers


_TAG = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.DOTALL | re.IGNORECASE)
_BAD_WORDS = re.compile(r"(?<![\w.-])(nan|NaN|inf|-inf|Infinity|None)(?![\w-])")


def check_report(out: Path) -> None:
    """A complete report: every output present, and no nan/inf/None in the reader's text."""
    for name in ("report.html", "results.json", ".reportgen-output"):
        assert (out / name).is_file(), f"{name} missing from {out}"
    page = (out / "report.html").read_text(encoding="utf-8")
    body = re.split(r'<pre class="spec[^"]*">', page)[0]  # the spec listing quotes the user's text
    text = html.unescape(_TAG.sub(" ", body))
    bad = sorted({m.group(0) for m in _BAD_WORDS.finditer(text)})
    if bad:
        match = _BAD_WORDS.search(text)
        assert match is not None
        context = text[max(0, match.start() - 120) : match.end() + 60]
        raise AssertionError(f"{bad} in the report text: …{' '.join(context.split())}…")
