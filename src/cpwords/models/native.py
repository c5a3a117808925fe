"""Living with native solvers: silencing their stdout banners, stopping HiGHS on Ctrl-C."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any


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


def run_highs_interruptibly(h: Any) -> bool:
    """Run a ``highspy.Highs`` solve in its solver thread; Ctrl-C cancels it.

    highspy's own handler (``Highs.solve``) prints to stdout, which would break ``--json``; this
    one waits on the solver thread and calls ``cancelSolve`` (user interrupts enabled) itself.

    Returns
    -------
    bool
        True when Ctrl-C stopped the solve (its best solution so far is kept by HiGHS).
    """
    h.HandleUserInterrupt = True
    h.startSolve()
    stopped = False
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
    except BaseException:
        # Another exception (e.g. the benchmark harness's hard timeout) leaves this function:
        # stop the solver thread first, or the next solve in this process finds HiGHS
        # "already running" (seen in cpwords bench after a timeout).
        h.cancelSolve()
        for _ in range(200):  # up to about 10 s
            if h.wait(0.05)[0]:
                break
        raise
