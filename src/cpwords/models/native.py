"""Living with native solvers: silencing the banners they print on the process's stdout."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator


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
