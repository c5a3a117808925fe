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

__all__ = ["die_with_parent", "kill_group", "own_group"]


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
