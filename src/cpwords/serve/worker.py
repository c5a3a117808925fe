"""The child process of one Wordsnake solve: the public API, progress as JSON lines.

The server runs ``python -m cpwords.serve.worker`` once per solve, so a solve that is stopped
or whose page is closed can be ended for certain, and its memory goes back to the system when
the process exits. The job is one JSON line on standard input; the server keeps that pipe open
for the child's whole life, so a child whose server died (end of file on standard input) exits
at once instead of running on as an orphan.

A stop is the CLI's Ctrl-C: the server sends SIGINT, which the exact methods turn into "return
the best ordering so far, with its bound" (as ``cpwords snake`` does on Ctrl-C); the server
kills the process if it has not answered within a grace period.

Standard output carries one JSON object a line, ``{"kind": ..., "data": ...}``: ``progress``
at most every ``PROGRESS_EVERY`` seconds, then exactly one of ``result`` (the
:meth:`~cpwords.core.result.SolveResult.to_dict` row), ``error`` (a
:class:`~cpwords.core.errors.CpwordsError`: the CLI's one line) or ``stopped`` (interrupted
before the solve could answer).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import IO, Any

#: Least seconds between two progress messages.
PROGRESS_EVERY = 0.1


def main(stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Read one job, solve it, write the messages; the exit status is always 0 once started.

    Parameters
    ----------
    stdin, stdout : text streams, optional
        Default: the process's standard input and output.

    Notes
    -----
    The job holds ``words`` (list of str), ``name``, ``cyclic``, ``proper``, ``method``,
    ``time_limit`` (seconds), ``workers`` and ``seed``.
    """
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    lock = threading.Lock()

    def send(kind: str, data: Any) -> None:
        with lock:
            try:
                out.write(json.dumps({"kind": kind, "data": data}) + "\n")
                out.flush()
            except (BrokenPipeError, OSError):  # the server is gone: nobody to tell
                os._exit(1)

    try:
        job = json.loads(inp.readline())
        if stdin is None:
            threading.Thread(target=_exit_on_eof, args=(inp,), daemon=True).start()
        _solve(job, send, time.perf_counter())
    except KeyboardInterrupt:
        send("stopped", None)
    return 0


def _exit_on_eof(inp: IO[str]) -> None:
    """Exit when the server closes our standard input (it stopped, or died)."""
    while inp.readline():
        pass
    os._exit(1)


def _solve(job: dict[str, Any], send: Any, start: float) -> None:
    from cpwords import CpwordsError, WordsnakeInstance, solve_wordsnake

    last = [float("-inf")]

    def progress(elapsed: float, incumbent: float | None, bound: float | None, stage: Any) -> None:
        now = time.monotonic()
        if now - last[0] < PROGRESS_EVERY:
            return
        last[0] = now
        send(
            "progress", {"elapsed": elapsed, "incumbent": incumbent, "bound": bound, "stage": stage}
        )

    try:
        instance = WordsnakeInstance(
            tuple(job["words"]),
            bool(job["cyclic"]),
            bool(job["proper"]),
            str(job.get("name") or "the list"),
        )
        res = solve_wordsnake(
            instance,
            job["method"],
            time_limit=job["time_limit"],
            workers=job.get("workers", 1),
            seed=job.get("seed", 0),
            progress=progress,
            start=start,
        )
    except CpwordsError as exc:
        send("error", str(exc))
        return
    send("result", res.to_dict())


if __name__ == "__main__":
    sys.exit(main())
