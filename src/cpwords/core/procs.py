"""Child processes that can always be stopped: their own process group, death with the parent.

A solve that holds the interpreter in native code (LKH inside elkai, OR-Tools routing, a
min-cost flow) cannot be stopped by a signal handler; only killing its process can. These
helpers give such a child its own process group (so the parent can kill it *and* whatever it
forked, at once) and make it die when its parent dies, however the parent dies.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

__all__ = [
    "ChildDied", "ChildRun", "die_with_parent", "kill_group", "own_group", "run_stoppable",
    "spawn_is_safe",
]  # fmt: skip


def die_with_parent(parent_pid: int, watch: bool = True) -> None:
    """End this process when ``parent_pid`` ends, however it ends (SIGTERM, SIGKILL, a crash).

    Parameters
    ----------
    parent_pid : int
        The process whose death ends this one (the caller's parent, read before forking).
    watch : bool
        Also start a daemon thread that polls ``os.getppid()`` twice a second (where there is
        no ``prctl``, and as a fallback).

    Notes
    -----
    On Linux the kernel sends SIGKILL at the parent's death (``prctl(PR_SET_PDEATHSIG)``), which
    also stops a process deep inside a native call. If the parent died before the request took
    effect, the process exits at once.
    """
    if sys.platform.startswith("linux"):
        import ctypes
        import ctypes.util

        try:
            # glibc's name first: find_library runs `ldconfig -p` in a forked subprocess, a
            # copy of this process that rusage then reports as a child as large as it.
            try:
                libc = ctypes.CDLL("libc.so.6", use_errno=True)
            except OSError:  # pragma: no cover - not glibc
                libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no usable libc
            pass
    if os.getppid() != parent_pid:  # the parent died before the request above took effect
        os._exit(1)
    if not watch:
        return

    def _watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=_watch, name="cpwords-parent-watch", daemon=True).start()


def own_group(parent_pid: int) -> None:
    """Make this (forked) process a stoppable child: its own process group, Ctrl-C ignored,
    death with ``parent_pid``.

    Parameters
    ----------
    parent_pid : int
        The parent's pid, read before forking.

    Notes
    -----
    In its own process group the child no longer receives the terminal's Ctrl-C (the parent
    alone decides what an interrupt means) and :func:`kill_group` reaches everything it forks.
    """
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):  # the parent's "stop as Ctrl-C does" is not the child's
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    die_with_parent(parent_pid)


def kill_group(pid: int) -> None:
    """SIGKILL the process ``pid`` and its process group (if it leads one); never raises.

    Parameters
    ----------
    pid : int
        A child of the caller, not yet reaped (so its pid cannot have been reused). If it has
        not yet made its own group (see :func:`own_group`), only the process itself is killed.
    """
    with contextlib.suppress(OSError):
        if os.getpgid(pid) == pid:
            os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def spawn_is_safe() -> bool:
    """Whether a child started afresh (``spawn``) would run none of this program's own code.

    Returns
    -------
    bool
        True when the main module is cpwords' own command (its console script or
        ``python -m cpwords``), a module run with ``-m`` as ``__main__`` (which ``spawn`` does
        not import again), or has no file (an interactive session, a notebook).

    Notes
    -----
    ``spawn`` imports the parent's main script again in the child, as ``__mp_main__``: a script
    of the caller's without an ``if __name__ == "__main__":`` guard would run again there
    (Python's documentation of :mod:`multiprocessing`, "Safe importing of main module"). A
    caller's own script therefore keeps ``fork``.
    """
    main = sys.modules.get("__main__")
    name = getattr(getattr(main, "__spec__", None), "name", None)
    if name is not None:
        return name == "__main__" or name.endswith(".__main__")
    path = getattr(main, "__file__", None)
    return path is None or os.path.basename(path) == "cpwords"


class ChildDied(RuntimeError):
    """A child of :func:`run_stoppable` ended without answering (killed: out of memory, a
    crash)."""


@dataclass
class ChildRun:
    """What :func:`run_stoppable` got from its child.

    Attributes
    ----------
    value : Any
        The function's return value; None when the child was stopped first.
    last_report : Any
        The last value the function passed to ``report`` (None if it never reported).
    stopped : {None, "time_limit", "interrupted"}
        Why the child was killed before it returned: its deadline passed, or Ctrl-C.
    """

    value: Any = None
    last_report: Any = None
    stopped: str | None = None


def run_stoppable(
    fn: Callable[..., Any],
    *args: Any,
    deadline: float | None = None,
    on_report: Callable[[Any], None] | None = None,
    start_method: str = "fork",
    **kwargs: Any,
) -> ChildRun:
    """Run ``fn(report, *args, **kwargs)`` in a child process that the deadline or Ctrl-C kills.

    For native solvers that ignore Python signals and, sometimes, their own limits (OR-Tools
    routing, LKH inside elkai): the caller stays responsive and the child never outlives it.

    Parameters
    ----------
    fn : callable
        Called in the child as ``fn(report, *args, **kwargs)``; ``report(value)`` sends an
        intermediate result (the best tour so far) to the parent, which keeps the last one.
        Its return value and the reports must pickle.
    *args, **kwargs
        Passed to ``fn``.
    deadline : float, optional
        ``time.perf_counter()`` value at which the child is killed.
    on_report : callable, optional
        Called in the parent with each report as it arrives (live progress).
    start_method : {"fork", "spawn"}
        How the child starts: forked (a copy of this process, nothing pickled; its pages count
        again in the process tree's resident sets) or afresh (a new interpreter that imports
        what it needs and receives ``fn`` and its arguments pickled: about 100 MB of its own,
        and a second or so to start).

    Returns
    -------
    ChildRun

    Raises
    ------
    Exception
        What ``fn`` raised, re-raised in the parent.
    ChildDied
        The child died without answering (out of memory, a crash).

    Notes
    -----
    The child has its own process group, ignores Ctrl-C and dies with the parent
    (:func:`own_group`); the parent SIGKILLs it at the deadline, on Ctrl-C (KeyboardInterrupt
    in the main thread) or on any other exception, so nothing is left running. Without
    ``fork`` (not Linux or macOS) ``fn`` runs in this process and only its own limits hold.
    """
    ctx = _context(start_method)
    if ctx is None:  # pragma: no cover - no fork
        return ChildRun(value=fn(on_report or (lambda value: None), *args, **kwargs))
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_stoppable_child, args=(fn, args, kwargs, send, os.getpid()))
    proc.start()
    pid = int(proc.pid or 0)
    send.close()
    out = ChildRun()
    try:
        while True:
            if recv.poll(0.05):
                if _receive(recv, proc, out, on_report):
                    return out
            elif deadline is not None and time.perf_counter() >= deadline:
                out.stopped = "time_limit"
                break
    except KeyboardInterrupt:
        out.stopped = "interrupted"
    finally:
        if proc.exitcode is None:
            kill_group(pid)
        proc.join()
        if out.stopped is not None:
            _drain_reports(recv, out)
        recv.close()
    return out


def _context(start_method: str) -> Any:
    """The :mod:`multiprocessing` context of ``start_method`` ("fork" or "spawn"); None where
    there is no ``fork`` (not Linux or macOS: :func:`run_stoppable` then runs in this process,
    as before ``spawn`` was an option)."""
    import multiprocessing

    if start_method not in ("fork", "spawn"):
        raise ValueError(f"start_method must be 'fork' or 'spawn', not {start_method!r}")
    if "fork" not in multiprocessing.get_all_start_methods():  # pragma: no cover
        return None
    return multiprocessing.get_context("spawn" if start_method == "spawn" else "fork")


def _receive(
    recv: Connection,
    proc: BaseProcess,
    out: ChildRun,
    on_report: Callable[[Any], None] | None,
) -> bool:
    """Read one message of the child of :func:`run_stoppable` into ``out``: a report (passed to
    ``on_report``) or the answer (then True); re-raise the child's exception, or raise
    :class:`ChildDied` when it died without answering."""
    try:
        kind, payload = recv.recv()
    except EOFError:
        proc.join()
        raise ChildDied(
            f"the solver process died (exit code {proc.exitcode}; out of memory?)"
        ) from None
    if kind == "report":
        out.last_report = payload
        if on_report is not None:
            on_report(payload)
        return False
    if kind == "done":
        out.value = payload
        return True
    raise payload


def _drain_reports(recv: Connection, out: ChildRun) -> None:
    """Keep in ``out`` the last of the reports a stopped child sent just before the kill."""
    with contextlib.suppress(EOFError, OSError):
        while recv.poll(0):
            kind, payload = recv.recv()
            if kind == "report":
                out.last_report = payload


def _stoppable_child(
    fn: Callable[..., Any], args: tuple, kwargs: dict, conn: Any, parent_pid: int
) -> None:  # pragma: no cover - runs in a child
    own_group(parent_pid)
    try:
        value = fn(lambda report: conn.send(("report", report)), *args, **kwargs)
    except BaseException as exc:
        try:
            conn.send(("error", exc))
        except Exception:  # an exception that does not pickle
            conn.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
        return
    conn.send(("done", value))
