"""Where the independent per-problem work of the analyses runs: in this process, or on Dask.

An analysis hands its independent work items (one per problem, or per problem and algorithm)
to :func:`map_items`; the cross-problem steps (profiles, rankings, synthesis, figures,
documents) stay in the calling process. The analysis code is the same for every executor:
only :meth:`Executor.map` differs.

- :class:`LocalExecutor` (``execution: {engine: local}``, the default) applies the function to
  each item in turn, in this process.
- :class:`DaskExecutor` (``execution: {engine: dask, scheduler: …}``) submits one task per item
  to a ``distributed.Client`` and gathers the results, which are small (a few rows per
  problem). ``scheduler: local`` starts a ``distributed.LocalCluster`` of ``workers``
  processes with ``memory_limit`` each; any other value is the address of a running scheduler
  (``tcp://host:8786``, e.g. one started by dask-jobqueue on SLURM).

The executor of a build is set for its duration with :func:`executor_for` (a context
variable, so analyses need no extra parameter); outside it, work runs locally. Dask is an
optional extra (``pip install 'reportgen[dask]'``): naming it without the extra installed is an
:class:`~reportgen.errors.InputError` located at ``execution.engine``.

Dask's own logging is kept at ERROR while a build runs on it (:data:`DASK_LOG_LEVEL`): the
user reads reportgen's progress and warnings on stderr, and distributed's INFO and WARNING
lines ("Event loop was unresponsive in Scheduler", "Worker process still alive after 4
seconds, killing", "Unmanaged memory use is high") interleaved with them told of the
cluster's housekeeping on a busy machine, not of the study: the results are the same. An
ERROR (a worker that died, a task that failed) is still shown. This holds in this process
(client, in-process scheduler: the loggers' levels, restored afterwards) and in a
LocalCluster's worker processes (``silence_logs``); a remote cluster logs where it runs.

Work functions must be module-level functions (optionally wrapped in
:func:`functools.partial`) of picklable arguments, so that worker processes can run them. An
item is either a problem's rows (sent with the task) or, for a partitioned Parquet source,
what reads them where the task runs (:mod:`reportgen.data.partitions`): then the workers read
their partitions themselves and only small results travel.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib.metadata
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module
from typing import Any, Protocol, TypeVar

from reportgen.errors import InputError, Problem

T = TypeVar("T")
R = TypeVar("R")

DASK_EXTRA_HINT = "pip install 'reportgen[dask]'"
CONNECT_TIMEOUT = "30s"
"""How long to wait for a remote scheduler before giving up."""
DASK_LOG_LEVEL = logging.ERROR
"""The least severe of Dask's log records shown while a build runs on it (module notes)."""
DASK_LOGGERS = ("distributed", "bokeh", "tornado")
"""The loggers of Dask's distributed scheduler and of the libraries it logs through."""


class Executor(Protocol):
    """Runs a function over independent work items and returns the results in item order."""

    def map(self, function: Callable[[T], R], items: Sequence[T], threads: int = 1) -> list[R]:
        """``[function(item) for item in items]``, wherever it runs (``threads``: how many
        threads this process may use for them, when it runs them itself)."""
        ...

    def describe(self) -> dict[str, Any]:
        """What the provenance records about the executor (engine, scheduler, workers)."""
        ...


class LocalExecutor:
    """Every item in turn, in this process (the default)."""

    def map(self, function: Callable[[T], R], items: Sequence[T], threads: int = 1) -> list[R]:
        """``[function(item) for item in items]``, on up to ``threads`` threads (at most one
        per core; results in item order whatever the scheduling)."""
        workers = min(threads, os.cpu_count() or 1, len(items))
        if workers > 1:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                return list(pool.map(function, items))
        return [function(item) for item in items]

    def describe(self) -> dict[str, Any]:
        """``{"engine": "local"}``."""
        return {"engine": "local"}


class DaskExecutor:
    """One Dask task per item on a ``distributed.Client``; only the results travel back.

    Parameters
    ----------
    client : distributed.Client
        A connected client (to a LocalCluster or a remote scheduler).
    scheduler : str
        How the spec named the scheduler ("local" or its address), for the provenance.
    """

    def __init__(self, client: Any, scheduler: str) -> None:
        self.client = client
        self.scheduler = scheduler

    def map(self, function: Callable[[T], R], items: Sequence[T], threads: int = 1) -> list[R]:
        """Submit ``function(item)`` for every item and gather the results in item order
        (``threads`` is for the local executor: each worker has its own threads)."""
        if not items:
            return []
        # pure=False: equal items (e.g. two problems with identical data) are still separate
        # tasks; hashing large items to deduplicate them would cost more than it saves.
        futures = self.client.map(function, list(items), pure=False)
        return list(self.client.gather(futures))

    def describe(self) -> dict[str, Any]:
        """Engine, scheduler, the number of workers and the versions of dask and distributed."""
        workers = self.client.scheduler_info().get("workers", {})
        limits = [w.get("memory_limit") for w in workers.values() if w.get("memory_limit")]
        return {
            "engine": "dask",
            "scheduler": self.scheduler,
            "workers": len(workers),
            # the smallest worker's memory limit in bytes (None: unlimited or not reported)
            "memory_limit": min(limits) if limits else None,
            "dask": importlib.metadata.version("dask"),
            "distributed": importlib.metadata.version("distributed"),
        }


_LOCAL = LocalExecutor()
_CURRENT: contextvars.ContextVar[Executor | None] = contextvars.ContextVar(
    "reportgen_executor", default=None
)


def current_executor() -> Executor:
    """The executor of the build in progress (local outside :func:`executor_for`)."""
    return _CURRENT.get() or _LOCAL


def map_items(function: Callable[[T], R], items: Sequence[T], threads: int = 1) -> list[R]:
    """Run ``function`` over independent ``items`` on the current executor, results in order.

    ``threads``: run locally, the items may share that many threads (for work that releases
    the GIL, such as numpy's block arithmetic); a Dask cluster ignores it.
    """
    return current_executor().map(function, items, threads)


@contextlib.contextmanager
def using(executor: Executor) -> Iterator[Executor]:
    """Make ``executor`` the current one for the duration of the ``with`` block."""
    token = _CURRENT.set(executor)  # reset below: nested builds restore the outer executor
    try:
        yield executor
    finally:
        _CURRENT.reset(token)


def import_distributed(where: str) -> Any:
    """The ``distributed`` module, or an InputError at ``where`` saying how to install it."""
    try:
        return import_module("distributed")
    except ImportError as exc:
        raise InputError(
            Problem(
                where,
                f"engine 'dask' needs Dask, which is not installed ({exc}); install the "
                f"optional extra with {DASK_EXTRA_HINT}, or use engine: local",
            )
        ) from None


@contextlib.contextmanager
def executor_for(options: Any, where: Callable[[str], str]) -> Iterator[Executor]:
    """The executor the spec's ``execution:`` names, current for the ``with`` block.

    Parameters
    ----------
    options : ExecutionOptions
        The spec's ``execution`` entry.
    where : callable
        Key of ``execution`` (e.g. "engine") → its location in the spec, for errors.

    A LocalCluster started here is closed on leaving; a remote scheduler is only disconnected
    from. A scheduler that cannot be reached is an InputError at ``execution.scheduler``.
    """
    if options.engine == "local":
        with using(LocalExecutor()) as executor:
            yield executor
        return
    distributed = import_distributed(where("engine"))
    with contextlib.ExitStack() as stack:
        stack.enter_context(quiet_dask_logging())  # entered first: left after the cluster closed
        if options.scheduler == "local":
            try:
                cluster = stack.enter_context(
                    distributed.LocalCluster(
                        n_workers=options.workers,
                        threads_per_worker=1,
                        processes=True,
                        memory_limit=options.memory_limit or "auto",
                        dashboard_address=":0",
                        silence_logs=DASK_LOG_LEVEL,  # its worker processes' logging
                    )
                )
            except RuntimeError as exc:  # distributed's "Nanny failed to start."
                raise InputError(
                    Problem(where("scheduler"), _cluster_failed(exc, options.workers))
                ) from None
            client = stack.enter_context(distributed.Client(cluster))
        else:
            try:
                client = stack.enter_context(
                    distributed.Client(options.scheduler, timeout=CONNECT_TIMEOUT)
                )
            except (OSError, ValueError) as exc:  # ValueError: not an address at all
                raise InputError(
                    Problem(
                        where("scheduler"),
                        f"cannot reach the Dask scheduler at '{options.scheduler}': {exc} "
                        "(give tcp://host:port, or local)",
                    )
                ) from None
        with using(DaskExecutor(client, options.scheduler)) as executor:
            yield executor


@contextlib.contextmanager
def quiet_dask_logging() -> Iterator[None]:
    """Dask's loggers (:data:`DASK_LOGGERS` and those below them) at
    :data:`DASK_LOG_LEVEL` at least for the block, then at their own levels again.

    The logger levels, not distributed's handlers: its configuration gives some loggers
    (``distributed.client``) levels of their own, and a handler the user attached would
    still get every record.
    """
    names = [
        name
        for name in (*DASK_LOGGERS, *logging.root.manager.loggerDict)
        if name.split(".", 1)[0] in DASK_LOGGERS
    ]
    loggers = {name: logging.getLogger(name) for name in names}
    levels = {name: logger.level for name, logger in loggers.items()}
    for logger in loggers.values():
        logger.setLevel(max(logger.level, DASK_LOG_LEVEL))
    try:
        yield
    finally:
        for name, logger in loggers.items():
            logger.setLevel(levels[name])


def _cluster_failed(exc: RuntimeError, workers: int) -> str:
    """Why a LocalCluster did not start, and the usual cause: its worker processes are
    started by spawning, which imports the calling script again, so a script that calls
    reportgen at its top level starts a cluster in each worker, which Python refuses."""
    return (
        f"could not start a Dask LocalCluster (workers: {workers}): {exc} From a "
        "Python script, call reportgen under 'if __name__ == \"__main__\":' — each worker "
        "process imports the script again — or use engine: local"
    )
