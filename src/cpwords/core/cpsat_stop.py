"""Telling a CP-SAT solve stopped by Ctrl-C from one stopped by its time limit.

CP-SAT catches SIGINT itself (``catch_sigint_signal``, on by default) and ends the search
gracefully, returning its best solution as if a limit had been reached; Python never sees a
KeyboardInterrupt. :func:`solve` runs the solve in a helper thread with CP-SAT's own handler
off, so Ctrl-C reaches Python in the main thread, which stops the search and records that it
did. (Guessing from the wall time, as an earlier version did, took CP-SAT's own early stops,
e.g. "stopped after presolve", for Ctrl-C.) Every CP-SAT model of cpwords solves through it.
"""

from __future__ import annotations

import threading
from typing import Any


def solve(solver: Any, model: Any, callback: Any = None) -> tuple[Any, bool]:
    """``solver.solve(model, callback)``, stopped gracefully by Ctrl-C.

    Returns
    -------
    (status code, interrupted)
        ``interrupted`` is True exactly when Ctrl-C (SIGINT) stopped the search; the solver
        then holds the best solution found so far, as after a time limit.

    Notes
    -----
    In the main thread the solve runs in a helper thread (CP-SAT releases the GIL) with
    ``catch_sigint_signal`` off, while the main thread waits; a KeyboardInterrupt there calls
    ``solver.stop_search()``. Elsewhere (no Python signals) it is a plain solve, never marked.
    """
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model, callback), False
    solver.parameters.catch_sigint_signal = False
    out: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            out["code"] = solver.solve(model, callback)
        except BaseException as exc:  # re-raised in the caller's thread
            out["error"] = exc
        finally:
            done.set()

    worker = threading.Thread(target=run, name="cpsat-solve", daemon=True)
    worker.start()
    stopped = False
    # Wait on an event, not on Thread.join: a KeyboardInterrupt inside join can leave the
    # thread marked as finished while it still runs (CPython 3.11).
    while not done.is_set():
        try:
            done.wait(0.05)
        except KeyboardInterrupt:
            stopped = True
            solver.stop_search()
    worker.join()
    if "error" in out:
        raise out["error"]
    return out["code"], stopped
