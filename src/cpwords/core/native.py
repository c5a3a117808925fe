"""Living with native solvers: silencing their stdout banners, stopping HiGHS on Ctrl-C."""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from cpwords.core.result import Status


@contextlib.contextmanager
def quiet_stdout() -> Iterator[None]:
    """Silence the process's stdout file descriptor (native solver banners) for a moment.

    HiGHS prints its banner from C++ on the first ``Highs()`` of a process, which Python's
    ``sys.stdout`` redirection cannot catch; ``--json`` output must stay pure JSON.
    """
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # pragma: no cover - no stdout descriptor
        yield
        return
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 1)
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


class _Scheduler(threading.local):
    """The thread count HiGHS's task scheduler was last set up for in this thread (by
    :func:`new_highs`): HiGHS keeps one a thread (a fresh thread's starts with its first
    solve)."""

    threads = 1


_SCHEDULER = _Scheduler()


def new_highs(seed: int = 0, threads: int = 1) -> Any:
    """A silent ``highspy.Highs`` set up for proofs: gap limits zero, one thread by default.

    Parameters
    ----------
    seed : int
        HiGHS's ``random_seed``.
    threads : int
        HiGHS's ``threads`` (``--workers``; at least 1).

    Returns
    -------
    highspy.Highs
        With ``output_flag`` off, ``mip_rel_gap = mip_abs_gap = 0`` (an "optimal" status is then
        a proof, the bound being read from ``mip_dual_bound``) and ``threads = 1``: HiGHS's
        other threads spin while they wait, and two solves with its default thread count on two
        cores (``cpwords bench --jobs 2``) both overran a 30 s limit to the harness's 50 s kill;
        with one thread each the same pair ended at 27.1 and 29.9 s.

    Notes
    -----
    HiGHS keeps a task scheduler per thread, set up by the thread's first solve for its
    ``threads``; a later object asking for another count failed its solves (a chain's
    certificate LP after a ``--workers 2`` solve ended not optimal). The scheduler is reset
    when the count changes, counted in each thread: a server's worker thread resetting its own
    left the main thread's as it was.
    """
    import highspy

    threads = max(1, int(threads))
    if threads != _SCHEDULER.threads:
        highspy.Highs.resetGlobalScheduler(True)
        _SCHEDULER.threads = threads

    with quiet_stdout():  # HiGHS prints a banner on stdout when created, which breaks --json
        h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.0)
    h.setOptionValue("threads", threads)
    h.setOptionValue("random_seed", int(seed))
    return h


def release_highs(h: Any) -> None:
    """Let a ``highspy.Highs`` go as soon as its last reference does.

    Each ``highspy.Highs`` holds callback objects that hold it back, a reference cycle: it is
    freed only by the cyclic collector, which counts Python objects, not the solver's native
    memory (a model of a few hundred columns costs about 1 MB there). A proof tree that builds
    a model per node grew to 650 MB on 73 words (`l545`, 600 models); with each model released
    when replaced, 122 MB. Call it on a model no longer used, never during its solve (HiGHS's
    interrupt handling runs through the callbacks).

    Parameters
    ----------
    h : highspy.Highs or None
        The model (None: nothing to do).

    Examples
    --------
    >>> h = new_highs()
    >>> release_highs(h)
    >>> h.callbacks
    []
    """
    if h is not None and hasattr(h, "callbacks"):
        h.callbacks = []


def give_back_free_memory() -> bool:
    """Return the C heap's free pages to the kernel (glibc's ``malloc_trim(0)``).

    Freed blocks below glibc's mmap threshold stay in the heap (the command line raises that
    threshold so they are reused without page faults: :mod:`cpwords.cli._allocator`); a stage
    about to allocate arrays larger than the threshold, which the heap's free blocks cannot
    serve, calls this first so those blocks do not count in its peak as well. Costs a walk of
    the heap's free lists (milliseconds); pages given back are faulted in again when reused.

    Returns
    -------
    bool
        Whether memory was given back: False on another C library or system (nothing done).

    Examples
    --------
    >>> isinstance(give_back_free_memory(), bool)
    True
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return False
    trim.argtypes = (ctypes.c_size_t,)
    trim.restype = ctypes.c_int
    return bool(trim(0))


def highs_after_fork() -> None:
    """Give a forked child a fresh HiGHS task scheduler (call before its first solve).

    HiGHS keeps one scheduler per process; a child forked after the parent ran HiGHS inherits
    it without its worker threads. Measured: a MIP with HiGHS's default thread count, forked
    after the parent had solved one, never ended in the child (alive after 30 s; 0.01 s with
    this reset). cpwords' models use one thread (:func:`new_highs`), where the child did not
    hang; the reset costs nothing and keeps it so.
    """
    import highspy

    highspy.Highs.resetGlobalScheduler(False)


def lp_time_limit(h: Any, seconds: float) -> float:
    """The ``time_limit`` option that gives an LP solve of ``h`` ``seconds`` more.

    HiGHS's simplex compares its limit with the run time accumulated over every run of the
    object, not the current run's (measured: an assignment LP re-solved with ``time_limit``
    1.5 s stopped at its time limit after 0.51 s, then after 0.05 s); its MIP solver uses the
    current run's. A model solved again and again (a proof tree's nodes, a cut loop) would
    otherwise stop early.

    Parameters
    ----------
    h : highspy.Highs
    seconds : float
        The time the next LP solve may take (s).

    Returns
    -------
    float
        ``h.getRunTime() + seconds`` (s).
    """
    return float(h.getRunTime()) + seconds


def run_highs_interruptibly(h: Any, deadline: float | None = None) -> bool:
    """Run a ``highspy.Highs`` solve in its solver thread; Ctrl-C cancels it, and so does
    ``deadline`` when HiGHS's own time limit has not stopped it by then.

    highspy's own handler (``Highs.solve``) prints to stdout, which would break ``--json``; this
    one waits on the solver thread and calls ``cancelSolve`` (user interrupts enabled) itself.

    Parameters
    ----------
    h : highspy.Highs
    deadline : float, optional
        A ``time.perf_counter()`` value: HiGHS checks its clock between phases only (measured
        2 s past a 6 s limit on a 400,000-column core), so the solve is cancelled at it
        (HiGHS then reports ``kInterrupt``, its best solution so far kept). HiGHS honours a
        cancel at its own next check too: its MIP on `ab` n=30,000 seed 2's core (392,786
        columns) ran on 32 s after one, so this bounds an overrun without ending it at once
        (the core search therefore runs a large core in a child it can kill:
        :func:`~cpwords.wordsnake.closure.core.solve_core_mip`).

    Returns
    -------
    bool
        True when Ctrl-C stopped the solve (its best solution so far is kept by HiGHS).
    """
    h.HandleUserInterrupt = True
    h.startSolve()
    stopped = cancelled = False
    try:
        while True:
            try:
                done, _ = h.wait(0.05)
            except KeyboardInterrupt:
                stopped = True
                h.cancelSolve()
                continue
            if done:
                return stopped
            if deadline is not None and not cancelled and time.perf_counter() > deadline:
                cancelled = True
                h.cancelSolve()
    except BaseException:
        # Another exception (e.g. the benchmark harness's hard timeout) leaves this function:
        # stop the solver thread first, or the next solve in this process finds HiGHS
        # "already running" (seen in cpwords bench after a timeout).
        h.cancelSolve()
        for _ in range(200):  # up to about 10 s
            if h.wait(0.05)[0]:
                break
        raise


def solve_highs_round(
    h: Any, seconds: float | None
) -> tuple[Status, float | None, np.ndarray | None, bool]:
    """One MIP solve of ``h`` within ``seconds``, read as cpwords reads every HiGHS answer.

    Parameters
    ----------
    h : highspy.Highs
        A model built on :func:`new_highs` (zero gap limits).
    seconds : float or None
        Its time limit (at least 0.01 s); None for none.

    Returns
    -------
    (Status, float or None, numpy.ndarray of float or None, bool)
        INFEASIBLE; OPTIMAL (HiGHS proved the incumbent optimal at zero gap) or FEASIBLE with
        the column values (shape (columns,)); UNKNOWN without a feasible point. The dual bound
        (``mip_dual_bound``, the objective's units) is read only when the solve ended optimal,
        at its time limit or interrupted, and is finite; else None. Last, whether Ctrl-C
        stopped it (:func:`run_highs_interruptibly`).
    """
    import highspy

    h.setOptionValue("time_limit", highspy.kHighsInf if seconds is None else max(0.01, seconds))
    # HiGHS's own limit first; the cancel half a second later only if it has not stopped
    hard = None if seconds is None else time.perf_counter() + max(0.01, seconds) + 0.5
    stopped = run_highs_interruptibly(h, hard)
    st = h.getModelStatus()
    if st == highspy.HighsModelStatus.kInfeasible:
        return Status.INFEASIBLE, None, None, stopped
    info = h.getInfo()
    ended = st in (
        highspy.HighsModelStatus.kOptimal,
        highspy.HighsModelStatus.kTimeLimit,
        highspy.HighsModelStatus.kInterrupt,
    )
    finite = ended and np.isfinite(info.mip_dual_bound)
    bound = float(info.mip_dual_bound) if finite else None
    if info.primal_solution_status != 2:  # no feasible point
        return Status.UNKNOWN, bound, None, stopped
    values = np.asarray(h.getSolution().col_value, dtype=float)
    status = Status.OPTIMAL if st == highspy.HighsModelStatus.kOptimal else Status.FEASIBLE
    return status, bound, values, stopped
