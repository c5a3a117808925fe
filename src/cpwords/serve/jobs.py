"""Wordsnake solves for the server: one child process each, a few at once, the rest queued.

A :class:`Job` is one solve asked for from the page. The :class:`JobManager` starts at most
``max_running`` child processes (``python -m cpwords.serve.worker``) and keeps the others in a
first-come queue whose places the page shows. A monitor thread per running job reads the
child's pipe into the job's event list, which the page's server-sent-event stream follows.

Stopping (the Stop button, or the page closed) sends the child SIGINT, the CLI's Ctrl-C: the
exact methods then answer with the best ordering so far and its bound. A child that has not
answered within ``grace`` seconds is killed, so a stop takes at most about ``grace`` seconds
and never leaves a process behind.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import IO, Any

from cpwords.serve.messages import page_error

#: States of a job, in order; the last three are final.
STATES = ("queued", "running", "done", "stopped", "error")

_ids = itertools.count(1)


@dataclass
class Job:
    """One Wordsnake solve asked for from the page.

    Attributes
    ----------
    id : str
    spec : dict
        What the child solves (see :func:`cpwords.serve.worker.main`); its word list is let
        go once the job is final (the result's ordering holds the words).
    n : int
        The number of words.
    state : str
        One of :data:`STATES`.
    events : list of (str, dict)
        Everything that happened, in order (``queued``, ``started``, ``progress``, ``done``);
        the event stream of the page replays it from any index.
    result : dict, optional
        :meth:`cpwords.SolveResult.to_dict` of the answer (with the ordering).
    started, reported : float, optional
        When its child process was started and when it last reported progress
        (``time.monotonic()``), for the page's clock.
    """

    id: str
    spec: dict[str, Any]
    n: int = 0
    state: str = "queued"
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    error: str | None = None
    stop_requested: bool = False
    pid: int | None = None
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    reported: float | None = None
    ended: float | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, kind: str, data: dict[str, Any]) -> None:
        """Append an event (thread-safe)."""
        with self.lock:
            self.events.append((kind, data))

    def since(self, index: int) -> list[tuple[str, dict[str, Any]]]:
        """The events from ``index`` on."""
        with self.lock:
            return self.events[index:]

    @property
    def interrupted(self) -> bool:
        """Whether the result is a stopped solve's best so far, as the solve itself says
        (``solver_info["interrupted"]``); a proven optimum never is, whenever Stop came."""
        if self.result is None or self.result.get("status") == "OPTIMAL":
            return False
        return bool((self.result.get("solver_info") or {}).get("interrupted"))

    @property
    def final(self) -> bool:
        """Whether nothing more will happen (the job is done, stopped or failed)."""
        return self.state in ("done", "stopped", "error")


class QueueFull(RuntimeError):
    """The queue holds as many solves as it may: the one-line reason."""


class JobManager:
    """At most ``max_running`` solves at once, each in its own child process.

    Parameters
    ----------
    max_running : int
        Child processes at once (each solve also uses its ``workers`` threads).
    grace : float
        Seconds a stopped child has to answer before it is killed.
    keep : int
        Finished jobs kept for their result download (oldest forgotten first).
    max_queued : int
        Jobs that may wait for a slot; :meth:`submit` refuses one more (:class:`QueueFull`).
        With ``keep``, this bounds the jobs (and word lists) the server holds.
    """

    def __init__(
        self, max_running: int = 2, grace: float = 3.0, keep: int = 20, max_queued: int = 8
    ) -> None:
        if max_running < 1 or max_queued < 0:
            raise ValueError("max_running must be at least 1 and max_queued at least 0")
        self.max_running = max_running
        self.max_queued = max_queued
        self.grace = grace
        self.keep = keep
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._queue: list[Job] = []
        self._running: dict[str, threading.Thread] = {}
        self._lock = threading.Lock()
        self._closed = False

    # -- asking -------------------------------------------------------------------------------

    def submit(self, spec: dict[str, Any]) -> Job:
        """Queue a solve; it starts as soon as a slot is free.

        Raises
        ------
        QueueFull
            ``max_queued`` solves already wait (and every slot is busy).
        """
        job = Job(id=f"{next(_ids)}-{os.urandom(8).hex()}", spec=spec, n=len(spec["words"]))
        with self._lock:
            if self._closed:
                raise RuntimeError("the server is shutting down")
            if self._full():
                raise QueueFull(self._busy())
            self._jobs[job.id] = job
            self._queue.append(job)
            self._forget_old()
        job.add("queued", {"position": self.position(job)})
        self._pump()
        return job

    def full(self) -> str | None:
        """Why :meth:`submit` would refuse a job now (every slot busy, the queue full), or
        None when there is room."""
        with self._lock:
            return self._busy() if self._full() else None

    def _full(self) -> bool:
        return len(self._queue) >= self.max_queued and len(self._running) >= self.max_running

    def _busy(self) -> str:
        return (
            f"the server is busy: {len(self._running)} solves running and "
            f"{len(self._queue)} waiting, the most it queues; try again when one ends"
        )

    def get(self, job_id: str) -> Job | None:
        """The job with this id, if it is still kept."""
        with self._lock:
            return self._jobs.get(job_id)

    def position(self, job: Job) -> int | None:
        """1-based place in the queue of a waiting job (None once it runs)."""
        with self._lock:
            for i, j in enumerate(self._queue):
                if j is job:
                    return i + 1
        return None

    def running(self) -> int:
        """Number of solves running now."""
        with self._lock:
            return len(self._running)

    def stop(self, job: Job) -> None:
        """Stop a job: drop it from the queue, or interrupt its child (killed after the grace).

        A final job is left as it is (a Stop that comes after the answer changes nothing).
        """
        with self._lock:
            if job.final:
                return
            job.stop_requested = True
            if job in self._queue:
                self._queue.remove(job)
                job.state = "stopped"
                job.ended = time.monotonic()
                job.spec["words"] = []  # let the list go: nothing will read it
                job.add("done", {"state": "stopped", "reason": "stopped before it started"})
                return
        self._pump()

    def shutdown(self) -> None:
        """Stop every job and wait for the children (at most about ``grace`` seconds)."""
        with self._lock:
            self._closed = True
            jobs = list(self._jobs.values())
            threads = list(self._running.values())
        for job in jobs:
            if not job.final:
                self.stop(job)
        for t in threads:
            t.join(self.grace + 2.0)

    # -- running ------------------------------------------------------------------------------

    def _forget_old(self) -> None:
        finished = [j for j in self._jobs.values() if j.final]
        for j in finished[: max(0, len(finished) - self.keep)]:
            del self._jobs[j.id]

    def _pump(self) -> None:
        """Start queued jobs while slots are free, and tell the waiting ones their place."""
        with self._lock:
            while self._queue and len(self._running) < self.max_running and not self._closed:
                job = self._queue.pop(0)
                t = threading.Thread(target=self._run, args=(job,), daemon=True)
                self._running[job.id] = t
                job.state = "running"
                # Started under the lock: shutdown() joins every thread it finds in _running,
                # and joining one not yet started raises (seen once in CI's teardown).
                t.start()
            waiting = list(self._queue)
        for i, job in enumerate(waiting):
            job.add("queued", {"position": i + 1})

    def _run(self, job: Job) -> None:
        try:
            self._supervise(job)
        finally:
            job.ended = time.monotonic()
            with self._lock:
                self._running.pop(job.id, None)
            self._pump()

    def _supervise(self, job: Job) -> None:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cpwords.serve.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            # Its own process group: a kill reaches the processes the solve forks too (the
            # min-cost flow runs in a forked child), so none is left behind.
            start_new_session=True,
        )
        assert proc.stdin is not None and proc.stdout is not None
        lines: queue.Queue[str | None] = queue.Queue()
        reader = threading.Thread(target=_read_lines, args=(proc.stdout, lines), daemon=True)
        reader.start()
        job.pid = proc.pid
        job.started = time.monotonic()
        job.add("started", {"pid": proc.pid})
        interrupted_at: float | None = None
        outcome: tuple[str, Any] | None = None
        try:
            # The pipe stays open: the child exits when it closes (the server gone).
            proc.stdin.write(json.dumps(job.spec) + "\n")
            proc.stdin.flush()
            while outcome is None:
                if job.stop_requested and interrupted_at is None:
                    interrupted_at = time.monotonic()
                    _interrupt(proc)
                if interrupted_at is not None and time.monotonic() - interrupted_at > self.grace:
                    break
                try:
                    line = lines.get(timeout=0.05)
                except queue.Empty:
                    continue
                if line is None:  # end of output: the child is gone
                    break
                try:
                    message = json.loads(line)
                    kind, payload = message["kind"], message["data"]
                except (ValueError, KeyError, TypeError):
                    continue  # not ours (a library printing on stdout)
                if kind == "progress":
                    job.reported = time.monotonic()
                    job.add("progress", payload)
                else:
                    outcome = (kind, payload)
        except (BrokenPipeError, OSError):
            pass
        finally:
            with contextlib.suppress(OSError):
                proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(0.5 if outcome is not None else 0.05)
            # The whole group: the worker and anything it forked (gone already after a clean
            # end, when this finds no process).
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            reader.join(1.0)
        self._finish(job, outcome, proc.returncode)

    def _finish(self, job: Job, outcome: tuple[str, Any] | None, exitcode: int | None) -> None:
        job.spec["words"] = []  # the child has them; the result's ordering holds them too
        if outcome is not None and outcome[0] == "result":
            job.result = outcome[1]
            # A Stop that came too late to interrupt anything leaves the answer as it is.
            job.state = "stopped" if job.interrupted else "done"
            job.add("done", {"state": job.state})
        elif outcome is not None and outcome[0] == "error":
            job.error = page_error(outcome[1])
            job.state = "error"
            job.add("done", {"state": "error", "error": job.error})
        elif job.stop_requested:
            job.state = "stopped"
            job.add("done", {"state": "stopped", "reason": "stopped before an ordering was sent"})
        else:
            job.error = f"the solver process ended unexpectedly (exit code {exitcode})"
            job.state = "error"
            job.add("done", {"state": "error", "error": job.error})


def _interrupt(proc: subprocess.Popen[str]) -> None:
    """SIGINT, as Ctrl-C would send it to ``cpwords snake``."""
    with contextlib.suppress(ProcessLookupError, OSError):
        proc.send_signal(signal.SIGINT)


def _read_lines(stream: IO[str], out: queue.Queue[str | None]) -> None:
    """Copy the child's output lines into ``out``; None marks its end."""
    try:
        for line in stream:
            out.put(line)
    except (OSError, ValueError):
        pass
    finally:
        out.put(None)
