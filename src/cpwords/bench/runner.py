"""Run a suite's tasks in worker processes (or on a dask cluster), appending one row per task.

The parent process is the only writer of the results file: workers return rows, the parent
appends and fsyncs each as it arrives. Before starting, the keys already in the file are
skipped, so re-running a finished study does no work and an interrupted one resumes where it
stopped.

One task runs in this process by :func:`~cpwords.bench.task.run_task`
(:mod:`cpwords.bench.task`), or in a fresh forked process that records its peak memory by
:func:`~cpwords.bench.isolated.run_task_isolated` (:mod:`cpwords.bench.isolated`); both are
importable from here too.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cpwords.bench.isolated import (
    MEMORY_SAMPLE_INTERVAL,
    MEMORY_SAMPLE_SHARE,
    TreeMemory,
    run_task_isolated,
)
from cpwords.bench.results import ResultsWriter
from cpwords.bench.suite import Task
from cpwords.bench.task import (
    HardTimeout,
    base_row,
    environment,
    finish_row,
    hard_limit,
    machine,
    run_task,
)
from cpwords.core.errors import InputError
from cpwords.core.procs import kill_group, own_group

#: The names of the module, with one task's run (:mod:`cpwords.bench.task`) and the isolated run
#: (:mod:`cpwords.bench.isolated`) re-exported.
__all__ = [
    "EXECUTORS",
    "MEMORY_SAMPLE_INTERVAL",
    "MEMORY_SAMPLE_SHARE",
    "HardTimeout",
    "RunSummary",
    "TreeMemory",
    "environment",
    "hard_limit",
    "machine",
    "run_task",
    "run_task_isolated",
    "run_tasks",
]

EXECUTORS = ("process", "serial", "dask")


@dataclass
class RunSummary:
    """What a run did.

    Attributes
    ----------
    total : int
        Tasks in the suite.
    skipped : int
        Tasks already in the results file.
    ran : int
        Tasks run and written now.
    errors : int
        Rows written now whose method raised (status ``ERROR``).
    lost : int
        Tasks not finished (interrupted or a crashed worker); a re-run does them.
    invalid : int
        Tasks whose instance could not be made (a missing, unreadable or malformed instance
        file): no row is written, so a re-run does them once the suite is fixed;
        ``bad_instances`` says why, one line per instance.
    out : str
    """

    total: int = 0
    skipped: int = 0
    ran: int = 0
    errors: int = 0
    lost: int = 0
    invalid: int = 0
    bad_instances: list[str] = field(default_factory=list)
    out: str = ""
    interrupted: bool = False
    messages: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly summary."""
        return asdict(self)


def _init_worker(parent_pid: int, close_fds: tuple[int, ...]) -> None:
    """Pool-worker initializer: its own process group, Ctrl-C ignored, death with the parent,
    inherited locks dropped.

    In its own process group a worker can be killed with everything it forked (the forked
    flow solve of the Wordsnake pipeline, an isolated task) at once, which an interrupted
    run does. A forked worker inherits the parent's descriptor of the results file, and with
    it the file's ``flock``: closing the copy here means only the runner itself ever holds
    the lock, so a crashed runner never leaves the file locked by its workers.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent alone decides on Ctrl-C
    for fd in close_fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    if parent_pid:
        own_group(parent_pid)


ProgressFn = Callable[[dict[str, Any]], None]


def run_tasks(
    tasks: Sequence[Task],
    out: str | Path,
    *,
    jobs: int | None = None,
    executor: str = "process",
    scheduler: str | None = None,
    retry_errors: bool = False,
    progress: bool = False,
    forbidden: tuple[str | Path, ...] = (),
    on_row: ProgressFn | None = None,
    isolate: bool = False,
    worker_memory: float | None = None,
    memory_from: Sequence[str | Path] = (),
) -> RunSummary:
    """Run the tasks not yet in ``out`` and append their rows.

    Parameters
    ----------
    tasks : sequence of Task
        Usually ``load_suite(path).tasks``.
    out : path-like
        The results file (created if absent; must be a cpwords results file otherwise).
    jobs : int, optional
        Parallel worker processes (default: the number of CPUs, at most the number of tasks).
        For ``dask`` without a scheduler, the size of the local cluster.
    executor : {"process", "serial", "dask"}
        ``process``: a local process pool (default). ``serial``: in this process, in order.
        ``dask``: tasks go to a dask.distributed cluster at ``scheduler`` (a local cluster of
        ``jobs`` worker processes when None); needs the ``dask`` extra.
    scheduler : str, optional
        Address of a running dask scheduler.
    retry_errors : bool
        Redo tasks whose stored row has status ``ERROR``.
    progress : bool
        Show a rich progress bar on stderr.
    forbidden : tuple of path-like
        Paths ``out`` must not be (the suite file).
    on_row : callable, optional
        Called with each row after it is written.
    isolate : bool
        Run every task in a fresh forked process and record its peak memory
        (:func:`run_task_isolated`); ``process`` and ``serial`` executors only.
    worker_memory : float, optional
        ``dask`` only: MiB of each worker (:func:`cpwords.bench.cluster.run_dask`). Every task
        asks for its estimated memory as the workers' ``memory`` resource
        (:mod:`cpwords.bench.estimate`), and small tasks run in batches.
    memory_from : sequence of path-like
        ``dask`` only: results files whose rows' recorded peaks estimate the tasks' memory,
        besides ``out`` (absent files are skipped).

    Returns
    -------
    RunSummary
        Tasks whose instance cannot be made are counted in ``invalid`` (with the reasons in
        ``bad_instances``) and get no row.

    Raises
    ------
    InputError
        Bad ``out`` (directory, foreign file, locked), unknown executor, dask not installed.
    KeyboardInterrupt
        Re-raised after the rows finished so far are safely written.
    """
    _check_options(executor, jobs, scheduler, isolate, worker_memory, memory_from)
    summary = RunSummary(total=len(tasks), out=str(out))
    with ResultsWriter(out, forbidden=forbidden) as writer:
        done = writer.done_keys()
        pending = _pending(tasks, done, retry_errors, summary)
        if not pending:
            return summary
        n_jobs = max(1, min(jobs or os.cpu_count() or 1, len(pending)))
        with (
            _progress(progress, len(pending), summary.skipped) as advance,
            _counting_lost(summary, len(pending)),
        ):
            sink = _RowSink(summary, writer, on_row, advance)
            dask = _DaskRun(scheduler, worker_memory, memory_from, done.values())
            _dispatch(executor, pending, n_jobs, sink, summary, writer, isolate, dask)
    return summary


@contextlib.contextmanager
def _counting_lost(summary: RunSummary, n_pending: int) -> Iterator[None]:
    """Count in ``summary`` the pending tasks that got no row when the block ends (``lost``),
    and mark a Ctrl-C (``interrupted``, re-raised)."""
    try:
        yield
    except KeyboardInterrupt:
        summary.interrupted = True
        raise
    finally:
        summary.lost = n_pending - summary.ran - summary.invalid


def _check_options(
    executor: str,
    jobs: int | None,
    scheduler: str | None,
    isolate: bool,
    worker_memory: float | None,
    memory_from: Sequence[str | Path],
) -> None:
    """Refuse an unknown executor and options that do not go together (the options of
    :func:`run_tasks`)."""
    if executor not in EXECUTORS:
        raise InputError(f"unknown executor {executor!r} (choose from {', '.join(EXECUTORS)})")
    if jobs is not None and jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {jobs}")
    if scheduler is not None and executor != "dask":
        raise InputError("--scheduler needs --executor dask")
    if isolate and executor == "dask":
        raise InputError("--isolate runs tasks in local processes: not with --executor dask")
    if executor != "dask" and (worker_memory is not None or memory_from):
        raise InputError("--worker-memory and --memory-from need --executor dask")


def _pending(
    tasks: Sequence[Task],
    done: Mapping[str, Mapping[str, Any]],
    retry_errors: bool,
    summary: RunSummary,
) -> list[Task]:
    """The tasks still to run (resume): those not in ``done``, or there as errors to retry.

    Counts the others in ``summary.skipped``; a task listed twice runs once.
    """
    pending = []
    for t in tasks:
        prev = done.get(t.key)
        if prev is not None and not (retry_errors and prev.get("status") == "ERROR"):
            summary.skipped += 1
        else:
            pending.append(t)
    # Unique by key: a task listed twice runs once.
    return list({t.key: t for t in pending}.values())


@dataclass
class _RowSink:
    """Where each finished row goes: the results file, the summary, the caller, the bar.

    A row whose instance could not be made is only counted (``invalid``), never written.
    """

    summary: RunSummary
    writer: ResultsWriter
    on_row: ProgressFn | None
    advance: ProgressFn

    def __call__(self, row: dict[str, Any]) -> None:
        """Take one row."""
        self._write(row)
        self.advance(row)

    def _write(self, row: dict[str, Any]) -> None:
        """Write the row and count it (or count its bad instance)."""
        summary = self.summary
        if "bad_instance" in row:
            summary.invalid += 1
            why = f"instance {row.get('instance')!r}: {row['bad_instance']}"
            if why not in summary.bad_instances:
                summary.bad_instances.append(why)
            return
        self.writer.append(row)
        summary.ran += 1
        if row.get("status") == "ERROR":
            summary.errors += 1
        if self.on_row is not None:
            self.on_row(row)


def _dispatch(
    executor: str,
    pending: Sequence[Task],
    n_jobs: int,
    sink: ProgressFn,
    summary: RunSummary,
    writer: ResultsWriter,
    isolate: bool,
    dask: _DaskRun,
) -> None:
    """Run the pending tasks on the ``executor``, each row to ``sink`` as it arrives."""
    if executor == "dask":
        _run_dask(pending, n_jobs, dask, sink, summary)
    elif executor == "serial":
        for t in pending:
            sink(run_task_isolated(t) if isolate else run_task(t))
    else:
        _run_process_pool(pending, n_jobs, sink, summary, writer.fileno(), isolate=isolate)


@dataclass(frozen=True)
class _DaskRun:
    """The options of a run on a dask cluster (see :func:`run_tasks`), and the rows of the results
    file (``rows``: with those of ``memory_from``, the tasks' memory estimates)."""

    scheduler: str | None
    worker_memory: float | None
    memory_from: Sequence[str | Path]
    rows: Iterable[Mapping[str, Any]]


def _run_dask(
    pending: Sequence[Task],
    n_jobs: int,
    dask: _DaskRun,
    sink: ProgressFn,
    summary: RunSummary,
) -> None:
    """The pending tasks on a dask cluster, each with its memory estimate made from
    ``dask.rows`` (those of the results file) and the rows of ``dask.memory_from``
    (:mod:`cpwords.bench.cluster`)."""
    from cpwords.bench.cluster import run_dask
    from cpwords.bench.estimate import estimate_tasks, recorded

    scheduler, worker_memory = dask.scheduler, dask.worker_memory
    estimates = estimate_tasks(pending, recorded(dask.rows, dask.memory_from))
    run_dask(
        pending,
        estimates,
        sink,
        summary.messages,
        n_jobs=n_jobs,
        scheduler=scheduler,
        worker_memory=worker_memory,
        run=run_task,
        error_row=_error_row,
    )


def _error_row(task: Task, fields: dict[str, Any]) -> dict[str, Any]:
    """The row of a task that did not run: its description, ``fields`` (status, error), the
    machine."""
    return finish_row(base_row(task) | fields)


def _run_process_pool(
    pending: Sequence[Task],
    n_jobs: int,
    sink: Callable[[dict[str, Any]], None],
    summary: RunSummary,
    results_fd: int | None = None,
    isolate: bool = False,
) -> None:
    import multiprocessing
    from concurrent.futures.process import BrokenProcessPool

    # "fork" (the Linux default up to Python 3.13, pinned here) makes this process the
    # workers' parent, which the parent-death watch relies on.
    forking = "fork" in multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork") if forking else None
    pool = ProcessPoolExecutor(
        max_workers=n_jobs,
        mp_context=ctx,
        initializer=_init_worker,
        initargs=(
            os.getpid() if forking else 0,
            (results_fd,) if forking and results_fd is not None else (),
        ),
    )
    futures: dict[Future[dict[str, Any]], Task] = {}
    queue = list(reversed(pending))
    try:
        # Keep only a few tasks queued per worker so an interrupt abandons little.
        while queue or futures:
            while queue and len(futures) < 2 * n_jobs:
                t = queue.pop()
                if isolate:  # the task process stays in the worker's group, killed with it
                    futures[pool.submit(run_task_isolated, t, False)] = t
                else:
                    futures[pool.submit(run_task, t)] = t
            finished, _ = wait(futures, return_when=FIRST_COMPLETED)
            for fut in finished:
                futures.pop(fut)
                try:
                    row = fut.result()
                except BrokenProcessPool:
                    summary.messages.append(
                        "a worker process died (crash or out of memory); re-run to finish"
                    )
                    return
                sink(row)
    finally:
        if futures or queue:
            # Interrupted: stop the workers now rather than waiting for their solves, each
            # with its process group (what its task forked: the flow solve, an isolated task).
            procs = list(getattr(pool, "_processes", {}).values())
            for proc in procs:
                kill_group(proc.pid)
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in procs:
                proc.join(1.0)
        else:
            pool.shutdown(wait=True)


class _progress:
    """A rich progress bar on stderr (a no-op when disabled or stderr is not a terminal)."""

    def __init__(self, enabled: bool, total: int, skipped: int) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.total = total
        self.skipped = skipped
        self._bar: Any = None

    def __enter__(self) -> Callable[[dict[str, Any]], None]:
        if not self.enabled:
            return lambda row: None
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._bar = Progress(
            TextColumn("[bold]bench[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.description}"),
            console=Console(stderr=True),
        )
        self._bar.__enter__()
        desc = f"({self.skipped} done before)" if self.skipped else ""
        tid = self._bar.add_task(desc, total=self.total)

        def advance(row: dict[str, Any]) -> None:
            last = f"{row.get('instance')} / {row.get('method')}: {row.get('status')}"
            self._bar.update(tid, advance=1, description=last)

        return advance

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
