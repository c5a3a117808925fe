"""Run a suite's tasks in worker processes (or on a dask cluster), appending one row per task.

The parent process is the only writer of the results file: workers return rows, the parent
appends and fsyncs each as it arrives. Before starting, the keys already in the file are
skipped, so re-running a finished study does no work and an interrupted one resumes where it
stopped.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import functools
import importlib.metadata
import os
import platform
import signal
import statistics
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cpwords.bench.results import ResultsWriter
from cpwords.bench.suite import Task, canonical_json, instance_id
from cpwords.core.errors import InputError
from cpwords.core.procs import die_with_parent, kill_group, own_group
from cpwords.core.result import SolveResult
from cpwords.core.spec import PuzzleSpec, get_spec, solve

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


@functools.lru_cache(maxsize=1)
def environment() -> dict[str, Any]:
    """Versions and machine facts stored with every row."""
    from cpwords import __version__

    env: dict[str, Any] = {
        "cpwords": __version__,
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "machine": platform.machine(),
        "nproc": os.cpu_count(),
        "host": platform.node(),
    }
    try:
        env["ortools"] = importlib.metadata.version("ortools")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a dependency
        env["ortools"] = None
    return env


def machine() -> dict[str, Any]:
    """What a measurement that is not a suite records about its run (the scripts of
    ``benchmarks/``): :func:`environment`, the 1/5/15-minute load averages now, and the date."""
    return {
        **environment(),
        "loadavg_start": os.getloadavg(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }


@functools.lru_cache(maxsize=4)
def _instance(puzzle: str, spec_json: str, base_dir: str) -> Any:
    import json

    spec = get_spec(puzzle)
    return spec.make_instance(json.loads(spec_json), Path(base_dir))


class HardTimeout(Exception):
    """A method ran well past its time limit and was stopped by the harness."""


def hard_limit(time_limit: float) -> float:
    """Seconds after which the harness stops a method that ignores its time limit."""
    return 1.5 * time_limit + 5.0


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    # SIGALRM only reaches the main thread: worker processes run tasks there; dask worker
    # threads (and platforms without setitimer) rely on the methods' own time limits.
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def _alarm(signum: int, frame: Any) -> None:
        raise HardTimeout(f"stopped by the harness after {seconds:g} s")

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@contextlib.contextmanager
def _noticing_interrupts() -> Iterator[list[bool]]:
    """Record whether Ctrl-C came while the block ran (``seen[0]``), still raising it.

    The methods catch KeyboardInterrupt and return their best answer so far, as the CLI
    wants; the harness must not record such an answer as the task's result, so it watches
    for the signal itself. Only in the main thread, and only where SIGINT is not ignored (a
    pool worker ignores it: there the runner kills the worker instead).
    """
    seen = [False]
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    ):
        yield seen
        return

    def _on_sigint(signum: int, frame: Any) -> None:
        seen[0] = True
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGINT, _on_sigint)
    try:
        yield seen
    finally:
        signal.signal(signal.SIGINT, old)


def run_task(task: Task) -> dict[str, Any]:
    """Run one task and return its row; never raises for a failing method.

    A method (or instance builder) that raises yields a row with ``status = "ERROR"`` and the
    exception text, so one bad task cannot stop a study. A method still running
    :func:`hard_limit` seconds after it started (one that ignores its time limit, like the
    seeds' exhaustive searches) is stopped and recorded with ``status = "TIMEOUT"``.

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C during the task, even when the method caught it and returned its best answer
        so far: an interrupted task has no row, so a re-run does it again.
    """
    row = _start_row(task)
    try:
        spec = get_spec(task.puzzle)
        row["puzzle"] = spec.puzzle  # the name, even when the suite gave an import path
        row["sense"] = spec.sense
        try:
            inst = _instance(task.puzzle, canonical_json(dict(task.instance)), task.base_dir)
        except InputError as exc:  # the suite's fault, not the method's: no row is kept
            row.update(status="ERROR", error=f"InputError: {exc}", bad_instance=str(exc))
            return _finish(row)
        row["size"] = int(spec.size(inst))
        row["size_label"] = spec.size_label
        if spec.reference is not None:
            row["reference"] = spec.reference(inst)
        t0 = time.perf_counter()
        try:
            res, walls = _solve_repeats(task, spec, inst)
        except HardTimeout as exc:
            _record_timeout(row, exc, time.perf_counter() - t0)
            return _finish(row)
        elapsed = time.perf_counter() - t0
        _record_result(row, task, spec, inst, res, walls, elapsed)
    except Exception as exc:  # one failing task is recorded, never fatal
        row.update(
            status="ERROR",
            error=f"{type(exc).__name__}: {exc}",
            traceback=traceback.format_exc(limit=8),
        )
    return _finish(row)


def _start_row(task: Task) -> dict[str, Any]:
    """The row's description of the task, before anything runs."""
    started = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    return {
        "key": task.key,
        "suite": task.suite,
        "puzzle": task.puzzle,
        "instance": task.instance_name,
        "instance_id": instance_id(task.puzzle, task.instance),
        "instance_spec": dict(task.instance),
        "method": task.method,
        "spec_method": task.spec_method,
        "kind": task.kind,
        "seed": task.seed,
        "time_limit": task.time_limit,
        "workers": task.workers,
        "params": dict(task.params),
        "started_at": started,
    }


def _solve_repeats(task: Task, spec: PuzzleSpec, inst: Any) -> tuple[Any, list[float]]:
    """Solve ``task.repeats`` times (checking the last answer): the last result, the wall times.

    Under the harness's deadline (:class:`HardTimeout`); Ctrl-C, even one the method caught,
    raises KeyboardInterrupt.
    """
    walls: list[float] = []
    with (
        _noticing_interrupts() as interrupted,
        _deadline(hard_limit(task.time_limit) * task.repeats),
    ):
        for k in range(task.repeats):
            res = solve(
                spec,
                inst,
                task.spec_method,
                seed=task.seed,
                time_limit=task.time_limit,
                workers=task.workers,
                strict=False,
                check=k == task.repeats - 1,
                **dict(task.params),
            )
            if interrupted[0] or res.solver_info.get("interrupted"):
                raise KeyboardInterrupt
            walls.append(float(res.wall_time))
    return res, walls


def _record_timeout(row: dict[str, Any], exc: HardTimeout, elapsed: float) -> None:
    """Fill the row of a method the harness stopped (status ``TIMEOUT``)."""
    row.update(
        status="TIMEOUT",
        objective=None,
        bound=None,
        gap=None,
        wall_time=elapsed,
        harness_time=elapsed,
        verified=None,
        error=str(exc),
    )


def _record_result(
    row: dict[str, Any],
    task: Task,
    spec: PuzzleSpec,
    inst: Any,
    res: Any,
    walls: list[float],
    elapsed: float,
) -> None:
    """Fill the row with the checked result: figures, measures, certificate, solution, trace."""
    if not isinstance(res, SolveResult):
        raise TypeError(f"the spec's run returned {type(res).__name__}, not SolveResult")
    # solve() ran the spec's independent checker and recomputed the objective.
    checked = res.verified if res.solution is not None and res.objective is not None else None
    if checked and spec.measures is not None:
        row["measures"] = spec.measures(inst, res)
    if spec.certify is not None:
        found = spec.certify(inst, res)
        if found is not None:
            row["certified"] = found["status"]
            row["certificate"] = found
    sol = res.solution
    if sol is not None and spec.solution_json is not None:
        sol = spec.solution_json(sol)
    d = res.to_dict(solution=sol)
    row.update(
        status=d["status"],
        objective=_finite(d["objective"]),
        bound=_finite(d["bound"]),
        gap=_finite(d["gap"]),
        wall_time=statistics.median(walls) if task.repeats > 1 else d["wall_time"],
        harness_time=elapsed,
        verified=checked,
        sense=res.sense,
        solver_method=d["method"],
        solution=d["solution"],
        solver_info=d["solver_info"],
        trace=d["trace"],
    )
    if task.repeats > 1:
        row.update(repeats=task.repeats, wall_time_min=min(walls), wall_times=walls)


def _isolated_child(task: Task, conn: Any) -> None:  # pragma: no cover - runs in a child
    import resource

    row = run_task(task)
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss is in KiB on Linux. The task's own peak plus its largest child's (the forked
    # flow solve of the Wordsnake pipeline): an upper bound on what the two held at once.
    row["peak_memory_mb"] = round((own + kids) / 1024, 1)
    row["peak_memory_self_mb"] = round(own / 1024, 1)
    row["peak_memory_children_mb"] = round(kids / 1024, 1)
    conn.send(row)
    conn.close()


#: Seconds between two samples of a task's process tree's memory (:class:`TreeMemory`), at
#: least; and the most of one core the sampling may take (reading a 3 GiB process's
#: ``smaps_rollup`` took 26 ms: a sample about every second then).
MEMORY_SAMPLE_INTERVAL = 0.5
MEMORY_SAMPLE_SHARE = 0.025


class TreeMemory:
    """The largest proportional set size (PSS) summed over a process and its descendants, over
    the samples taken.

    PSS counts a page shared by ``k`` processes as ``1/k`` in each: a fork's copy-on-write
    pages count once in the sum, where adding peak resident sets counts them in the parent
    and again in every child. Sampled (psutil, ``/proc/PID/smaps_rollup`` on Linux), so a
    peak shorter than the interval may be missed: a lower bound on the true peak, where
    ``peak_memory_mb`` (peak resident sets added) is an upper bound.

    Parameters
    ----------
    pid : int
        The root of the tree (a process of this machine).

    Attributes
    ----------
    peak : int
        The largest sample so far, in bytes (0 before the first).
    samples : int
        Samples taken while the root was alive.

    References
    ----------
    ``/proc/PID/smaps_rollup``, Linux ``proc(5)``; read through psutil's
    ``Process.memory_full_info``.

    Examples
    --------
    >>> import os
    >>> tree = TreeMemory(os.getpid())
    >>> tree.sample() > 0 and tree.peak_mb > 0
    True
    """

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0
        self.samples = 0

    def sample(self) -> int:
        """The tree's summed PSS now, in bytes (0 once the root has ended); updates the peak.
        A process that ends while it is read counts for nothing."""
        import psutil

        try:
            root = psutil.Process(self.pid)
            procs = [root, *root.children(recursive=True)]
        except psutil.Error:
            return 0
        total = 0
        for proc in procs:
            with contextlib.suppress(psutil.Error):
                total += proc.memory_full_info().pss
        self.samples += 1
        self.peak = max(self.peak, total)
        return total

    @property
    def peak_mb(self) -> float:
        """The largest sample, in MiB."""
        return round(self.peak / 2**20, 1)


def _start_isolated(
    task: Task, conn: Any, parent_pid: int, new_group: bool, go: Any = None
) -> None:  # pragma: no cover - runs in a child
    if new_group:
        own_group(parent_pid)
    else:  # inside a pool worker, whose process group the runner kills
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        die_with_parent(parent_pid)
    if go is not None:  # the parent's first memory sample is taken: a task that ends at once
        go.recv_bytes()  # is still sampled alive once
    _isolated_child(task, conn)


def run_task_isolated(task: Task, new_group: bool = True) -> dict[str, Any]:
    """Run one task in a fresh forked process and record its peak memory.

    Parameters
    ----------
    task : Task
    new_group : bool
        Give the task process its own process group (killed whole on Ctrl-C or at the hard
        limit, with whatever the task forked). False inside a pool worker, whose own group
        the runner kills.

    Returns
    -------
    dict
        The row of :func:`run_task` plus ``peak_memory_mb`` (the task's peak resident set plus
        that of its largest child process, in MiB: an upper bound, pages shared after a fork
        counted twice), ``peak_memory_self_mb``, ``peak_memory_children_mb``, and
        ``peak_memory_pss_mb`` (the largest summed PSS of the task's process tree over
        ``memory_samples`` samples, :class:`TreeMemory`: shared pages counted once, a lower
        bound); a process that dies (out of memory, a crash) gives a row with status
        ``ERROR``.

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C while the task runs: the task process (and its group) is killed first, and no
        row is returned.
    """
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():  # pragma: no cover
        return run_task(task)
    # Read the machine facts here: the task inherits them. Read in the task after its solve,
    # platform's `uname -p` subprocess was a fork holding the task's whole peak (copy-on-write),
    # which ru_maxrss then counted a second time as the task's "largest child".
    environment()
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    go_recv, go_send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_start_isolated, args=(task, send, os.getpid(), new_group, go_recv))
    proc.start()
    pid = int(proc.pid or 0)
    send.close()
    go_recv.close()
    # The child's SIGALRM cannot stop native code that holds the interpreter (LKH inside
    # elkai did not return for minutes): past the hard limit plus a margin, the parent kills it.
    wait = hard_limit(task.time_limit) + 10.0
    answered = False
    tree = TreeMemory(pid)
    tree.sample()  # before the task starts (it waits for this): at least one live sample
    go_send.send_bytes(b"go")
    go_send.close()
    try:
        if not _wait_sampling(recv, wait, tree):
            return _finish(
                _base_row(task)
                | {
                    "status": "TIMEOUT",
                    "error": f"killed by the harness after {wait:g} s (it ignored its time limit)",
                }
            )
        try:
            row: dict[str, Any] = recv.recv()
            row["peak_memory_pss_mb"] = tree.peak_mb
            row["memory_samples"] = tree.samples
        except EOFError:
            kill_group(pid)  # what it forked, before join reaps its pid
            proc.join()
            return _finish(
                _base_row(task)
                | {
                    "status": "ERROR",
                    "error": f"the task process died (exit code {proc.exitcode}; out of memory?)",
                }
            )
        answered = True
        return row
    finally:
        recv.close()
        if answered:
            proc.join(5.0)
        if proc.exitcode is None:
            # Interrupted or past its limit: nothing it started may survive. (Still running,
            # so its pid is not reaped and cannot have been reused.)
            kill_group(pid)
        proc.join()


def _wait_sampling(conn: Any, wait: float, tree: TreeMemory) -> bool:
    """Whether ``conn`` has something to read within ``wait`` seconds, sampling ``tree``
    meanwhile (every :data:`MEMORY_SAMPLE_INTERVAL` seconds, or less often when a sample costs
    more than :data:`MEMORY_SAMPLE_SHARE` of that)."""
    end = time.monotonic() + wait
    while True:
        started = time.monotonic()
        tree.sample()
        gap = max(MEMORY_SAMPLE_INTERVAL, (time.monotonic() - started) / MEMORY_SAMPLE_SHARE)
        left = end - time.monotonic()
        if left <= 0:
            return bool(conn.poll(0))
        if conn.poll(min(gap, left)):
            return True


def _base_row(task: Task) -> dict[str, Any]:
    return {
        "key": task.key,
        "suite": task.suite,
        "puzzle": task.puzzle,
        "instance": task.instance_name,
        "instance_spec": dict(task.instance),
        "method": task.method,
        "kind": task.kind,
        "seed": task.seed,
        "time_limit": task.time_limit,
        "workers": task.workers,
    }


def _finish(row: dict[str, Any]) -> dict[str, Any]:
    row["finished_at"] = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    row["env"] = environment()
    return row


def _finite(x: Any) -> Any:
    if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
        return None
    return x


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
    _check_options(executor, jobs, scheduler, isolate)
    if executor != "dask" and (worker_memory is not None or memory_from):
        raise InputError("--worker-memory and --memory-from need --executor dask")
    summary = RunSummary(total=len(tasks), out=str(out))
    with ResultsWriter(out, forbidden=forbidden) as writer:
        done = writer.done_keys()
        pending = _pending(tasks, done, retry_errors, summary)
        if not pending:
            return summary
        n_jobs = max(1, min(jobs or os.cpu_count() or 1, len(pending)))
        with _progress(progress, len(pending), summary.skipped) as advance:
            sink = _RowSink(summary, writer, on_row, advance)
            try:
                if executor == "dask":
                    _run_dask(
                        pending,
                        n_jobs,
                        scheduler,
                        sink,
                        summary,
                        worker_memory,
                        done.values(),
                        memory_from,
                    )
                else:
                    _dispatch(executor, pending, n_jobs, sink, summary, writer, isolate)
            except KeyboardInterrupt:
                summary.interrupted = True
                summary.lost = len(pending) - summary.ran - summary.invalid
                raise
        summary.lost = len(pending) - summary.ran - summary.invalid
    return summary


def _check_options(executor: str, jobs: int | None, scheduler: str | None, isolate: bool) -> None:
    """Refuse an unknown executor and options that do not go together."""
    if executor not in EXECUTORS:
        raise InputError(f"unknown executor {executor!r} (choose from {', '.join(EXECUTORS)})")
    if jobs is not None and jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {jobs}")
    if scheduler is not None and executor != "dask":
        raise InputError("--scheduler needs --executor dask")
    if isolate and executor == "dask":
        raise InputError("--isolate runs tasks in local processes: not with --executor dask")


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
) -> None:
    """Run the pending tasks on a local executor, each row to ``sink`` as it arrives."""
    if executor == "serial":
        for t in pending:
            sink(run_task_isolated(t) if isolate else run_task(t))
    else:
        _run_process_pool(pending, n_jobs, sink, summary, writer.fileno(), isolate=isolate)


def _run_dask(
    pending: Sequence[Task],
    n_jobs: int,
    scheduler: str | None,
    sink: ProgressFn,
    summary: RunSummary,
    worker_memory: float | None,
    rows: Iterable[Mapping[str, Any]],
    memory_from: Sequence[str | Path],
) -> None:
    """The pending tasks on a dask cluster, each with its memory estimate made from ``rows``
    (those of the results file) and the rows of ``memory_from``
    (:mod:`cpwords.bench.cluster`)."""
    from cpwords.bench.cluster import run_dask
    from cpwords.bench.estimate import estimate_tasks, recorded

    estimates = estimate_tasks(pending, recorded(rows, memory_from))
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
    return _finish(_base_row(task) | fields)


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
