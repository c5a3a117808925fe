"""Run one task of a suite in this process, under the harness's hard deadline, into one row.

:func:`run_task` builds the instance, solves it ``repeats`` times (the last answer checked) and
records the result, a timeout or the error; :func:`environment` and :func:`machine` are the
facts stored with every row. Every name is importable from :mod:`cpwords.bench.runner` too.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import functools
import importlib.metadata
import os
import platform
import signal
import statistics
import threading
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cpwords.bench.suite import Task, canonical_json, instance_id
from cpwords.core.errors import InputError
from cpwords.core.result import SolveResult
from cpwords.core.spec import PuzzleSpec, get_spec, solve


@functools.lru_cache(maxsize=1)
def environment() -> dict[str, Any]:
    """Versions and machine facts stored with every row."""
    from cpwords import __version__

    env: dict[str, Any] = {
        "cpwords": __version__,
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "machine": platform.machine(),
        "nproc": os.cpu_count(),
        "host": platform.node(),
    }
    try:
        env["ortools"] = importlib.metadata.version("ortools")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a dependency
        env["ortools"] = None
    return env


def machine() -> dict[str, Any]:
    """What a measurement that is not a suite records about its run (the scripts of
    ``benchmarks/``): :func:`environment`, the 1/5/15-minute load averages now, and the date."""
    return {
        **environment(),
        "loadavg_start": os.getloadavg(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }


@functools.lru_cache(maxsize=4)
def _instance(puzzle: str, spec_json: str, base_dir: str) -> Any:
    import json

    spec = get_spec(puzzle)
    return spec.make_instance(json.loads(spec_json), Path(base_dir))


class HardTimeout(Exception):
    """A method ran well past its time limit and was stopped by the harness."""


def hard_limit(time_limit: float) -> float:
    """Seconds after which the harness stops a method that ignores its time limit."""
    return 1.5 * time_limit + 5.0


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    # SIGALRM only reaches the main thread: worker processes run tasks there; dask worker
    # threads (and platforms without setitimer) rely on the methods' own time limits.
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def _alarm(signum: int, frame: Any) -> None:
        raise HardTimeout(f"stopped by the harness after {seconds:g} s")

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@contextlib.contextmanager
def _noticing_interrupts() -> Iterator[list[bool]]:
    """Record whether Ctrl-C came while the block ran (``seen[0]``), still raising it.

    The methods catch KeyboardInterrupt and return their best answer so far, as the CLI
    wants; the harness must not record such an answer as the task's result, so it watches
    for the signal itself. Only in the main thread, and only where SIGINT is not ignored (a
    pool worker ignores it: there the runner kills the worker instead).
    """
    seen = [False]
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    ):
        yield seen
        return

    def _on_sigint(signum: int, frame: Any) -> None:
        seen[0] = True
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGINT, _on_sigint)
    try:
        yield seen
    finally:
        signal.signal(signal.SIGINT, old)


def run_task(task: Task) -> dict[str, Any]:
    """Run one task and return its row; never raises for a failing method.

    A method (or instance builder) that raises yields a row with ``status = "ERROR"`` and the
    exception text, so one bad task cannot stop a study. A method still running
    :func:`hard_limit` seconds after it started (one that ignores its time limit, like the
    seeds' exhaustive searches) is stopped and recorded with ``status = "TIMEOUT"``.

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C during the task, even when the method caught it and returned its best answer
        so far: an interrupted task has no row, so a re-run does it again.
    """
    row = _start_row(task)
    try:
        spec = get_spec(task.puzzle)
        row["puzzle"] = spec.puzzle  # the name, even when the suite gave an import path
        row["sense"] = spec.sense
        try:
            inst = _instance(task.puzzle, canonical_json(dict(task.instance)), task.base_dir)
        except InputError as exc:  # the suite's fault, not the method's: no row is kept
            row.update(status="ERROR", error=f"InputError: {exc}", bad_instance=str(exc))
            return finish_row(row)
        row["size"] = int(spec.size(inst))
        row["size_label"] = spec.size_label
        if spec.reference is not None:
            row["reference"] = spec.reference(inst)
        t0 = time.perf_counter()
        try:
            res, walls = _solve_repeats(task, spec, inst)
        except HardTimeout as exc:
            _record_timeout(row, exc, time.perf_counter() - t0)
            return finish_row(row)
        elapsed = time.perf_counter() - t0
        _record_result(row, task, spec, inst, res, walls, elapsed)
    except Exception as exc:  # one failing task is recorded, never fatal
        row.update(
            status="ERROR",
            error=f"{type(exc).__name__}: {exc}",
            traceback=traceback.format_exc(limit=8),
        )
    return finish_row(row)


def _start_row(task: Task) -> dict[str, Any]:
    """The row's description of the task, before anything runs."""
    started = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    return {
        "key": task.key,
        "suite": task.suite,
        "puzzle": task.puzzle,
        "instance": task.instance_name,
        "instance_id": instance_id(task.puzzle, task.instance),
        "instance_spec": dict(task.instance),
        "method": task.method,
        "spec_method": task.spec_method,
        "kind": task.kind,
        "seed": task.seed,
        "time_limit": task.time_limit,
        "workers": task.workers,
        "params": dict(task.params),
        "started_at": started,
    }


def _solve_repeats(task: Task, spec: PuzzleSpec, inst: Any) -> tuple[Any, list[float]]:
    """Solve ``task.repeats`` times (checking the last answer): the last result, the wall times.

    Under the harness's deadline (:class:`HardTimeout`); Ctrl-C, even one the method caught,
    raises KeyboardInterrupt.
    """
    walls: list[float] = []
    with (
        _noticing_interrupts() as interrupted,
        _deadline(hard_limit(task.time_limit) * task.repeats),
    ):
        for k in range(task.repeats):
            res = solve(
                spec,
                inst,
                task.spec_method,
                seed=task.seed,
                time_limit=task.time_limit,
                workers=task.workers,
                strict=False,
                check=k == task.repeats - 1,
                **dict(task.params),
            )
            if interrupted[0] or res.solver_info.get("interrupted"):
                raise KeyboardInterrupt
            walls.append(float(res.wall_time))
    return res, walls


def _record_timeout(row: dict[str, Any], exc: HardTimeout, elapsed: float) -> None:
    """Fill the row of a method the harness stopped (status ``TIMEOUT``)."""
    row.update(
        status="TIMEOUT",
        objective=None,
        bound=None,
        gap=None,
        wall_time=elapsed,
        harness_time=elapsed,
        verified=None,
        error=str(exc),
    )


def _record_result(
    row: dict[str, Any],
    task: Task,
    spec: PuzzleSpec,
    inst: Any,
    res: Any,
    walls: list[float],
    elapsed: float,
) -> None:
    """Fill the row with the checked result: figures, measures, certificate, solution, trace."""
    if not isinstance(res, SolveResult):
        raise TypeError(f"the spec's run returned {type(res).__name__}, not SolveResult")
    # solve() ran the spec's independent checker and recomputed the objective.
    checked = res.verified if res.solution is not None and res.objective is not None else None
    if checked and spec.measures is not None:
        row["measures"] = spec.measures(inst, res)
    if spec.certify is not None:
        found = spec.certify(inst, res)
        if found is not None:
            row["certified"] = found["status"]
            row["certificate"] = found
    sol = res.solution
    if sol is not None and spec.solution_json is not None:
        sol = spec.solution_json(sol)
    d = res.to_dict(solution=sol)
    row.update(
        status=d["status"],
        objective=_finite(d["objective"]),
        bound=_finite(d["bound"]),
        gap=_finite(d["gap"]),
        wall_time=statistics.median(walls) if task.repeats > 1 else d["wall_time"],
        harness_time=elapsed,
        verified=checked,
        sense=res.sense,
        solver_method=d["method"],
        solution=d["solution"],
        solver_info=d["solver_info"],
        trace=d["trace"],
    )
    if task.repeats > 1:
        row.update(repeats=task.repeats, wall_time_min=min(walls), wall_times=walls)


def base_row(task: Task) -> dict[str, Any]:
    """The description of ``task`` that every row of it holds, even one of a task that did not
    answer (:func:`finish_row` completes it).

    Parameters
    ----------
    task : Task

    Returns
    -------
    dict
        ``key``, ``suite``, ``puzzle``, ``instance``, ``instance_spec``, ``method``, ``kind``,
        ``seed``, ``time_limit``, ``workers``.
    """
    return {
        "key": task.key,
        "suite": task.suite,
        "puzzle": task.puzzle,
        "instance": task.instance_name,
        "instance_spec": dict(task.instance),
        "method": task.method,
        "kind": task.kind,
        "seed": task.seed,
        "time_limit": task.time_limit,
        "workers": task.workers,
    }


def finish_row(row: dict[str, Any]) -> dict[str, Any]:
    """Complete a row: the time it finished (UTC) and the :func:`environment`.

    Parameters
    ----------
    row : dict
        Completed in place.

    Returns
    -------
    dict
        ``row``, with ``finished_at`` and ``env``.
    """
    row["finished_at"] = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    row["env"] = environment()
    return row


def _finite(x: Any) -> Any:
    if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
        return None
    return x
