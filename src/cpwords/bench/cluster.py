"""Run a suite on a dask.distributed cluster (``cpwords bench --executor dask``).

Memory is a worker resource: every worker declares the MiB its tasks may use together
(``dask worker ADDRESS --resources memory=MB``; the local cluster the runner starts declares
``--worker-memory``, by default the available memory shared out between its workers), and every
dask task asks for its estimate (:mod:`cpwords.bench.estimate`) with ``resources={"memory":
MB}``, so a worker never runs together more than its memory holds. A task estimated above the
largest worker gets one ``ERROR`` row at once (not a task that no worker will ever take).

Small tasks are batched: tasks estimated at most :data:`SMALL_MEMORY_MB` and
:data:`SMALL_SECONDS` are grouped into one dask task that runs them in sequence and returns
their rows (:func:`run_unit`). A batch holds up to :data:`BATCH_SECONDS` of estimated time, and
at most the tasks that leave :data:`BATCHES_PER_THREAD` batches to every worker thread; it
holds more only to keep the run under :data:`MAX_DASK_TASKS` dask tasks (dask needs 40-90 s to
start 100,000). The runner still writes one row a task, as each batch returns, so a re-run does
exactly the tasks with no row; an interrupt loses the batches running (about
:data:`BATCH_SECONDS` of work a worker thread). A batch whose worker dies is split and its
tasks resubmitted one by one; a single task whose worker dies (out of memory) gets an ``ERROR``
row.

The large tasks are sent first, the longest (estimated) first; the batches after them, in the
suite's order.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cpwords.bench.estimate import Estimate
from cpwords.bench.suite import Task
from cpwords.core.errors import InputError

#: Tasks estimated at most this many MiB and :data:`SMALL_SECONDS` are batched.
SMALL_MEMORY_MB = 1024.0
#: Tasks estimated at most this many seconds and :data:`SMALL_MEMORY_MB` are batched.
SMALL_SECONDS = 10.0
#: A batch holds at most this many seconds of estimated time (unless :data:`MAX_DASK_TASKS`
#: needs more).
BATCH_SECONDS = 60.0
#: The most dask tasks the small tasks of one run make.
MAX_DASK_TASKS = 2000
#: Batches are small enough to give every worker thread at least this many.
BATCHES_PER_THREAD = 4
#: The name of the worker resource (``dask worker --resources memory=MB``).
RESOURCE = "memory"

Sink = Callable[[dict[str, Any]], None]
#: How a task runs and gives its row (:func:`cpwords.bench.runner.run_task`).
RunFn = Callable[[Task], dict[str, Any]]
#: The row of a task that did not run, from its ``status`` and ``error`` fields.
ErrorRowFn = Callable[[Task, dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Unit:
    """One dask task: a task, or a batch of small tasks run in sequence.

    Attributes
    ----------
    tasks : tuple of cpwords.bench.suite.Task
    estimates : tuple of cpwords.bench.estimate.Estimate
        One a task.
    """

    tasks: tuple[Task, ...]
    estimates: tuple[Estimate, ...]

    @property
    def memory_mb(self) -> float:
        """What the unit asks of its worker: its largest task's estimate (they run in turn)."""
        return max(e.memory_mb for e in self.estimates)

    @property
    def total_seconds(self) -> float:
        """Estimated time of the whole unit."""
        return sum(e.seconds for e in self.estimates)

    @property
    def key(self) -> str:
        """The dask key: ``cpwords-TASKKEY``, or ``cpwords-batch-FIRSTKEY-N`` for a batch."""
        first = self.tasks[0].key
        return f"cpwords-{first}" if len(self.tasks) == 1 else f"cpwords-batch-{first}-{len(self)}"

    def __len__(self) -> int:
        return len(self.tasks)


def plan_units(
    tasks: Sequence[Task], estimates: Mapping[str, Estimate], threads: int
) -> list[Unit]:
    """The dask tasks of a run: each large task alone, the small ones in batches (see the module
    docstring), longest first.

    Parameters
    ----------
    tasks : sequence of Task
    estimates : mapping
        ``{task key: Estimate}`` for every task.
    threads : int
        Worker threads of the cluster.

    Examples
    --------
    >>> from cpwords.bench.suite import Task
    >>> ts = [Task(str(i), "s", "p", "i", {}, "m", "m", "exact", 0, 1.0, 1) for i in range(10)]
    >>> small = {t.key: Estimate(100.0, 1.0, "default") for t in ts}
    >>> [len(u) for u in plan_units(ts, small, threads=1)]  # 4 batches a thread at least
    [2, 2, 2, 2, 2]
    >>> small["0"] = Estimate(5000.0, 1.0, "recorded")  # too large to batch: alone, first
    >>> [(len(u), u.memory_mb) for u in plan_units(ts, small, threads=1)]
    [(1, 5000.0), (2, 100.0), (2, 100.0), (2, 100.0), (2, 100.0), (1, 100.0)]
    """
    large: list[Unit] = []
    small: list[Task] = []
    for t in tasks:
        e = estimates[t.key]
        if e.memory_mb <= SMALL_MEMORY_MB and e.seconds <= SMALL_SECONDS:
            small.append(t)
        else:
            large.append(Unit((t,), (e,)))
    least = math.ceil(len(small) / MAX_DASK_TASKS)
    most = max(1, least, len(small) // (BATCHES_PER_THREAD * max(1, threads)))
    batches: list[Unit] = []
    batch: list[Task] = []
    secs = 0.0
    for t in small:
        e = estimates[t.key]
        full = len(batch) >= most or (secs + e.seconds > BATCH_SECONDS and len(batch) >= least)
        if batch and full:
            batches.append(Unit(tuple(batch), tuple(estimates[b.key] for b in batch)))
            batch, secs = [], 0.0
        batch.append(t)
        secs += e.seconds
    if batch:
        batches.append(Unit(tuple(batch), tuple(estimates[b.key] for b in batch)))
    return sorted(large, key=lambda u: -u.total_seconds) + batches


def run_unit(
    run: RunFn, tasks: Sequence[Task], estimates: Sequence[Estimate]
) -> list[dict[str, Any]]:
    """Run a unit's tasks in turn on a dask worker (each with ``run``): their rows, each with
    its estimate and the ``dask`` facts (``worker`` address, ``batch`` size, ``start`` and
    ``end`` as Unix times)."""
    worker = ""
    with contextlib.suppress(ImportError, ValueError):
        from distributed import get_worker

        worker = str(get_worker().address)
    rows = []
    for task, est in zip(tasks, estimates, strict=True):
        start = time.time()
        row = run(task)
        row["memory_estimate_mb"] = round(est.memory_mb, 1)
        row["memory_estimate_source"] = est.source
        row["dask"] = {"worker": worker, "batch": len(tasks), "start": start, "end": time.time()}
        rows.append(row)
    return rows


def too_large(est: Estimate, largest: float) -> dict[str, Any]:
    """The ``ERROR`` fields of a task estimated above every worker's memory."""
    error = (
        f"needs about {est.memory_mb:,.0f} MiB ({est.source} estimate), more than the "
        f"{largest:,.0f} MiB of the largest dask worker: start workers with more "
        "(dask worker --resources memory=MB; cpwords bench --worker-memory MB)"
    )
    return _error_fields(est, error)


def died(est: Estimate, exc: BaseException) -> dict[str, Any]:
    """The ``ERROR`` fields of a task whose dask worker died running it (out of memory?)."""
    error = f"the dask worker died running it (out of memory?): {type(exc).__name__}: {exc}"
    return _error_fields(est, error)


def _error_fields(est: Estimate, error: str) -> dict[str, Any]:
    return {
        "status": "ERROR",
        "error": error,
        "memory_estimate_mb": round(est.memory_mb, 1),
        "memory_estimate_source": est.source,
    }


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise InputError(
            "--executor dask needs dask.distributed: pip install -e '.[dask]' "
            "(in the cpwords checkout)"
        ) from None
    return distributed


def run_dask(
    pending: Sequence[Task],
    estimates: Mapping[str, Estimate],
    sink: Sink,
    messages: list[str],
    *,
    n_jobs: int,
    scheduler: str | None,
    worker_memory: float | None,
    run: RunFn,
    error_row: ErrorRowFn,
) -> None:
    """Run ``pending`` on a dask cluster (the one at ``scheduler``, else a local one of
    ``n_jobs`` worker processes), each row to ``sink`` as its unit returns.

    Parameters
    ----------
    messages : list of str
        Warnings for the user are appended here.
    worker_memory : float, optional
        MiB of each worker. Local cluster: what each declares (default: the available memory
        over ``n_jobs``). Running cluster: what the largest worker declares, for workers still
        to come; by default the largest ``memory`` resource of the workers connected (the run
        waits for the first).
    """
    distributed = _import_distributed()
    cluster = None
    if scheduler is None:
        cluster, worker_memory = _local_cluster(distributed, n_jobs, worker_memory)
        client = distributed.Client(cluster)
    else:
        try:
            client = distributed.Client(scheduler, timeout="10s")
        except OSError as exc:
            raise InputError(f"cannot reach the dask scheduler at {scheduler}: {exc}") from None
    interrupted = False
    try:
        largest, threads = _cluster_memory(client, worker_memory, messages)
        fits = [t for t in pending if largest is None or estimates[t.key].memory_mb <= largest]
        if largest is not None and len(fits) < len(pending):
            messages.append(
                f"{len(pending) - len(fits)} tasks need more memory than the largest dask worker's "
                f"{largest:,.0f} MiB: their rows are errors (--retry-errors redoes them)"
            )
            for t in pending:
                if estimates[t.key].memory_mb > largest:
                    sink(error_row(t, too_large(estimates[t.key], largest)))
        units = plan_units(fits, estimates, threads)
        try:
            _submit_and_collect(distributed, client, units, sink, largest, run, error_row)
        except KeyboardInterrupt:
            interrupted = True
            raise
    finally:
        if interrupted and cluster is not None:
            _kill_local_workers(cluster)
        client.close()
        if cluster is not None:
            cluster.close()


def _local_cluster(distributed: Any, n_jobs: int, worker_memory: float | None) -> tuple[Any, float]:
    """A local cluster of ``n_jobs`` one-thread worker processes, each declaring (and limited to)
    ``worker_memory`` MiB (default: the available memory over ``n_jobs``)."""
    if worker_memory is None:
        from cpwords.core.machine import available_memory

        worker_memory = max(1.0, math.floor(available_memory() / 2**20 / n_jobs))
    import dask

    # Not daemonic: the Wordsnake's flow solve of a large list runs in a child process of its
    # own (the union of three wordfreq lists failed: "daemonic processes are not allowed to
    # have children"). Remote workers: DASK_DISTRIBUTED__WORKER__DAEMON=False.
    with dask.config.set({"distributed.worker.daemon": False}):
        cluster = distributed.LocalCluster(
            n_workers=n_jobs,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            resources={RESOURCE: worker_memory},
            memory_limit=f"{int(worker_memory)}MiB",
        )
    return cluster, worker_memory


def _cluster_memory(
    client: Any, worker_memory: float | None, messages: list[str]
) -> tuple[float | None, int]:
    """The largest worker's memory (None: the workers declare none, tasks go unconstrained) and
    the worker threads connected (the run waits for the first worker)."""
    info = client.scheduler_info()
    if not info.get("workers"):
        client.wait_for_workers(1)
        info = client.scheduler_info()
    workers = info.get("workers", {})
    declared = [w.get("resources", {}).get(RESOURCE) for w in workers.values()]
    declared = [float(m) for m in declared if isinstance(m, (int, float))]
    threads = sum(int(w.get("nthreads", 1)) for w in workers.values()) or 1
    if worker_memory is not None:
        if workers and not declared:
            raise InputError(
                f"--worker-memory: the dask workers declare no {RESOURCE!r} resource, so no "
                f"worker would take a task: start them with --resources {RESOURCE}=MB"
            )
        return float(worker_memory), threads
    if not declared:
        messages.append(
            f"the dask workers declare no {RESOURCE!r} resource (dask worker --resources "
            f"{RESOURCE}=MB): tasks are given to workers by threads alone, whatever memory they "
            "need"
        )
        return None, threads
    return max(declared), threads


def _submit_and_collect(
    distributed: Any,
    client: Any,
    units: Sequence[Unit],
    sink: Sink,
    largest: float | None,
    run: RunFn,
    error_row: ErrorRowFn,
) -> None:
    """Submit every unit, write the rows of each as it returns; a failed batch is resubmitted
    task by task, a failed task gets its ``ERROR`` row."""

    def submit(unit: Unit) -> Any:
        resources = None
        if largest is not None:
            resources = {RESOURCE: min(float(math.ceil(unit.memory_mb)), largest)}
        return client.submit(
            run_unit,
            run,
            unit.tasks,
            unit.estimates,
            key=unit.key,
            pure=False,
            resources=resources,
        )

    futures = {submit(u): u for u in units}
    queue = distributed.as_completed(list(futures))
    try:
        for fut in queue:
            unit = futures.pop(fut)
            try:
                rows = fut.result()
            except Exception as exc:  # the worker died (KilledWorker), or the unit failed
                if len(unit) > 1:
                    for t, e in zip(unit.tasks, unit.estimates, strict=True):
                        alone = submit(Unit((t,), (e,)))
                        futures[alone] = Unit((t,), (e,))
                        queue.add(alone)
                else:
                    sink(error_row(unit.tasks[0], died(unit.estimates[0], exc)))
                continue
            for row in rows:
                sink(row)
    finally:
        for fut in futures:
            if not fut.done():
                fut.cancel()


def _kill_local_workers(cluster: Any) -> None:
    """Kill the worker processes of our own local cluster (Ctrl-C): a nanny otherwise waits 4 s
    for a worker busy with a task before it kills it (``cpwords bench --executor dask`` ended
    4.2 s after Ctrl-C)."""
    for nanny in list(getattr(cluster, "workers", {}).values()):
        pid = getattr(getattr(getattr(nanny, "process", None), "process", None), "pid", None)
        if isinstance(pid, int) and pid > 0:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
