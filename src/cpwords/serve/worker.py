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
at most every ``PROGRESS_EVERY`` seconds, then exactly one of ``result`` (the row
``cpwords snake --json`` prints, :func:`~cpwords.wordsnake.modes.wordsnake_row`, plus
``certificate_file``, the certificate's JSON, when the default exact method wrote one),
``error`` (a :class:`~cpwords.core.errors.CpwordsError`: the CLI's one line) or ``stopped``
(interrupted before the solve could answer).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
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
        if stdin is not None:
            job = json.loads(stdin.readline())
        else:
            fd, first = _take_stdin()
            job = json.loads(first)
            threading.Thread(target=_exit_on_eof, args=(fd,), daemon=True).start()
        _solve(job, send, time.perf_counter())
    except KeyboardInterrupt:
        send("stopped", None)
    return 0


def _take_stdin() -> tuple[int, bytes]:
    """Move standard input to a private descriptor; return it and its first line.

    ``sys.stdin`` becomes /dev/null: the exact methods fork (the min-cost flow runs in a child)
    and a forked multiprocessing child closes ``sys.stdin``, which would wait forever on the
    lock of a thread blocked reading it. The watchdog reads the private descriptor with
    ``os.read``, which holds no Python lock.
    """
    fd = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    buf = bytearray()
    while b"\n" not in buf:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        buf += chunk
    return fd, bytes(buf.split(b"\n", 1)[0])


def _exit_on_eof(fd: int) -> None:
    """End the process group when the server closes our input (it stopped, or died)."""
    while os.read(fd, 1 << 16):
        pass
    if os.getpgrp() == os.getpid():  # the server made us a group leader: take the flow child too
        with contextlib.suppress(OSError):
            os.killpg(os.getpgrp(), signal.SIGKILL)
    os._exit(1)


def _solve(job: dict[str, Any], send: Any, start: float) -> None:
    """Solve the job and send its result; a stop (SIGINT) during the solve sets the solve's
    stop (its best ordering so far comes back), and one after it answered is held until the
    result is sent."""
    from cpwords.core.interrupts import signals_blocked, stop_scope

    with stop_scope() as stop:
        row = _solved_row(job, send, start)
        with stop.held(), signals_blocked():  # a signal in a write to a pipe lost its end
            if row is not None:
                send("result", row)


def _solved_row(job: dict[str, Any], send: Any, start: float) -> dict[str, Any] | None:
    """The job's result row (None after an error, which is sent)."""
    from cpwords import CpwordsError, WordsnakeInstance, solve_wordsnake
    from cpwords.core.interrupts import current_stop
    from cpwords.wordsnake.certificate import certificate_to_json
    from cpwords.wordsnake.modes import wordsnake_row
    from cpwords.wordsnake.spec import SPEC

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
            certificate=SPEC.method_name(job["method"]) == "auto",
        )
    except CpwordsError as exc:
        send("error", str(exc))
        return None
    stop = current_stop()
    assert stop is not None
    with stop.held():  # the answer is in: a stop now changes nothing but its mark
        row = wordsnake_row(res, instance)  # what ``cpwords snake --json`` prints
        cert = res.solver_info.get("certificate")
        if cert is not None:  # the default method's certificate, for the page's download
            row["solver_info"]["certificate"] = cert.to_dict()
            row["certificate_file"] = certificate_to_json(cert)
    return row


if __name__ == "__main__":
    sys.exit(main())
