"""Run one task of a suite in a fresh forked process, killed past its hard limit, and record its
peak memory (the task's own peak resident set, and the sampled resident sets and PSS of its
process tree). Every name is importable from :mod:`cpwords.bench.runner` too.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from typing import Any

from cpwords.bench.suite import Task
from cpwords.bench.task import base_row, environment, finish_row, hard_limit, run_task
from cpwords.core.procs import die_with_parent, kill_group, own_group


def _isolated_child(task: Task, conn: Any) -> None:  # pragma: no cover - runs in a child
    import resource

    row = run_task(task)
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss is in KiB on Linux. The parent sets peak_memory_mb from this and the tree's
    # sampled resident sets (_with_tree_memory); a child's ru_maxrss is not added (see there).
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
    the samples taken, and the largest such sum of resident sets (RSS).

    PSS counts a page shared by ``k`` processes as ``1/k`` in each: a fork's copy-on-write
    pages count once in the sum, where the summed resident sets count them in the parent and
    again in every child. Sampled (psutil, ``/proc/PID/smaps_rollup`` on Linux), so a peak
    shorter than the interval may be missed.

    Parameters
    ----------
    pid : int
        The root of the tree (a process of this machine).

    Attributes
    ----------
    peak : int
        The largest summed PSS so far, in bytes (0 before the first sample).
    rss_peak : int
        The largest summed RSS so far, in bytes.
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
        self.rss_peak = 0
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
        total = resident = 0
        for proc in procs:
            with contextlib.suppress(psutil.Error):
                info = proc.memory_full_info()
                total += info.pss
                resident += info.rss
        self.samples += 1
        self.peak = max(self.peak, total)
        self.rss_peak = max(self.rss_peak, resident)
        return total

    @property
    def peak_mb(self) -> float:
        """The largest summed PSS, in MiB."""
        return round(self.peak / 2**20, 1)

    @property
    def rss_peak_mb(self) -> float:
        """The largest summed RSS, in MiB."""
        return round(self.rss_peak / 2**20, 1)


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
        The row of :func:`run_task` plus, in MiB:

        * ``peak_memory_mb``: the larger of the task's own peak resident set
          (``peak_memory_self_mb``, exact) and ``peak_memory_rss_tree_mb``, the largest
          summed resident sets of its process tree over ``memory_samples`` samples
          (:class:`TreeMemory`: pages shared after a fork counted in every process);
        * ``peak_memory_pss_mb``: the largest summed PSS of the tree (shared pages once);
        * ``peak_memory_children_mb``: the kernel's peak resident set of the largest child,
          kept for the record but not added: for a child that executed a program (a
          ``spawn``, a subprocess) Linux reports the parent's peak at that moment (measured: a
          1 GB process that ran ``true`` saw 979 MiB for it).

        A process that dies (out of memory, a crash) gives a row with status ``ERROR``.

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
            why = f"killed by the harness after {wait:g} s (it ignored its time limit)"
            return _failed_row(task, "TIMEOUT", why)
        try:
            row: dict[str, Any] = _with_tree_memory(recv.recv(), tree)
        except EOFError:
            kill_group(pid)  # what it forked, before join reaps its pid
            proc.join()
            why = f"the task process died (exit code {proc.exitcode}; out of memory?)"
            return _failed_row(task, "ERROR", why)
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


def _with_tree_memory(row: dict[str, Any], tree: TreeMemory) -> dict[str, Any]:
    """``row`` with the tree's sampled peaks, ``peak_memory_mb`` the larger of the task's own
    and the tree's summed resident sets (see :func:`run_task_isolated`)."""
    row["peak_memory_pss_mb"] = tree.peak_mb
    row["peak_memory_rss_tree_mb"] = tree.rss_peak_mb
    row["peak_memory_mb"] = max(row["peak_memory_self_mb"], tree.rss_peak_mb)
    row["memory_samples"] = tree.samples
    return row


def _failed_row(task: Task, status: str, error: str) -> dict[str, Any]:
    """The row of an isolated task that gave no answer: its description, ``status`` and
    ``error``."""
    return finish_row(base_row(task) | {"status": status, "error": error})


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
