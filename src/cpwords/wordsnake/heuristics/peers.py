"""Outside solvers as Wordsnake peers: OR-Tools routing and LKH-3 (through ``elkai``).

Both see the instance as the asymmetric TSP of :mod:`cpwords.wordsnake.heuristics.tsplib` (costs
``M - overlap^2``, a dummy node for a linear snake) and return a
:class:`~cpwords.core.result.SolveResult` with status FEASIBLE and ``bound=None``: they prove
nothing.
The objective is recomputed from the words (``snake_score``), and ``solver_info`` keeps the
peer's own tour length so that ``score == word_edges * M - length`` can be checked.

Both run in a forked child process (:func:`cpwords.core.procs.run_stoppable`) that is killed
at the time limit (plus :data:`GRACE`) or on Ctrl-C: in-process, neither could be stopped (they
hold the interpreter in C++; OR-Tools ran 57 s after a Ctrl-C, LKH 85 s). The best tour the
peer reported before the kill is kept (OR-Tools reports each better tour; LKH reports none).
"""

from __future__ import annotations

import importlib.util
import itertools
import time
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import numpy as np

from cpwords.core.errors import InputError
from cpwords.core.interrupts import interrupt_name
from cpwords.core.machine import available_memory as _available_memory
from cpwords.core.procs import run_stoppable
from cpwords.core.result import SolveResult, Status, TracePoint
from cpwords.wordsnake.heuristics.tsplib import SnakeMatrix, snake_matrix, tour_to_order
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score

#: Refuse a peer when its n^2 cost matrix would take more than this fraction of the memory
#: available now (OR-Tools keeps an int64 matrix, LKH a triangle of its 2n-node symmetric form).
MEMORY_FRACTION = 0.5

#: Seconds past its time limit after which a peer's process is killed (the solvers check
#: their own limits between steps; LKH's excludes its preprocessing).
GRACE = 0.5

#: At most one better tour per this many seconds goes from the peer's process to the caller.
REPORT_EVERY = 0.05

#: OR-Tools' guided local search has no stopping rule of its own: it stops once it has found
#: no better tour for as long as it took to find its best, and at least this many seconds (five
#: words ran to the command's default limit, 600 s, where their best tour came in 2 ms).
STALL_SECONDS = 1.0


def elkai_available() -> bool:
    """Whether the optional ``elkai`` (LKH-3) is installed (``pip install -e '.[peers]'``)."""
    return importlib.util.find_spec("elkai") is not None


def _refuse_large(instance: WordsnakeInstance, bytes_per_entry: int, peer: str) -> None:
    dim = instance.n + (0 if instance.cyclic else 1)
    need = dim * dim * bytes_per_entry
    avail = _available_memory()
    if need > MEMORY_FRACTION * avail:
        raise InputError(
            f"{peer} needs the full {dim} x {dim} cost matrix, about "
            f"{need / 2**30:.1f} GiB, more than half the {avail / 2**30:.1f} GiB available"
        )


def _trivial(instance: WordsnakeInstance, method: str, start: float) -> SolveResult | None:
    """Lists of at most 3 words (TSP solvers want 3+ nodes): try every order."""
    if instance.n > 3:
        return None
    best = max(
        itertools.permutations(instance.words),
        key=lambda o: snake_score(o, instance.cyclic, instance.proper, instance.score),
    )
    value = snake_score(best, instance.cyclic, instance.proper, instance.score)
    return SolveResult(
        Status.FEASIBLE,
        float(value),
        None,
        time.perf_counter() - start,
        list(best),
        method,
        solver_info={"enumerated": True},
    )


def _finish(
    instance: WordsnakeInstance,
    sm: SnakeMatrix,
    tour: list[int],
    length: int,
    start: float,
    method: str,
    info: dict[str, Any],
) -> SolveResult:
    order = tour_to_order(instance, tour)
    value = snake_score(order, instance.cyclic, instance.proper, instance.score)
    elapsed = time.perf_counter() - start
    info.update(big_m=sm.big_m, word_edges=sm.word_edges, tour_length=int(length))
    return SolveResult(
        Status.FEASIBLE,
        float(value),
        None,
        elapsed,
        order,
        method,
        solver_info=info,
        trace=(TracePoint(elapsed, float(value), None),),
    )


def _stopped(
    instance: WordsnakeInstance,
    sm: SnakeMatrix,
    best: tuple[list[int], int] | None,
    why: str,
    start: float,
    method: str,
    info: dict[str, Any],
) -> SolveResult:
    """The result of a peer killed at its deadline or on Ctrl-C: its last tour, or none."""
    info["stopped"] = why
    if why == "interrupted":
        info["interrupted"] = True
    if best is not None:
        return _finish(instance, sm, best[0], best[1], start, method, info)
    stop = interrupt_name() if why == "interrupted" else "the time limit"
    info["reason"] = f"{method} was stopped by {stop} before it reported a tour"
    return SolveResult(
        Status.UNKNOWN, None, None, time.perf_counter() - start, None, method, solver_info=info
    )


def _deadline(start: float, time_limit: float | None) -> float | None:
    return None if time_limit is None else start + time_limit + GRACE


def _tour_length(matrix_rows: SnakeMatrix, tour: list[int]) -> int:
    total = 0
    for a, b in zip(tour, tour[1:] + tour[:1], strict=True):
        total += int(matrix_rows.row(a)[b])
    return total


def ortools_routing(
    instance: WordsnakeInstance,
    *,
    time_limit: float | None = 10.0,
    seed: int = 0,
) -> SolveResult:
    """OR-Tools' vehicle-routing solver on the Wordsnake ATSP: one vehicle, guided local search.

    Parameters
    ----------
    instance : WordsnakeInstance
    time_limit : float or None
        Seconds for the search. Guided local search runs until it converges (no better tour
        for as long as its best took to find, at least :data:`STALL_SECONDS`) or until this
        limit; with None the search stops at the first local optimum (no metaheuristic). The
        solver's process is killed :data:`GRACE` seconds past it, keeping the best tour
        reported so far.
    seed : int
        Recorded only: the routing solver is deterministic for a given time budget.

    Returns
    -------
    SolveResult
        FEASIBLE, ``bound=None``; ``solver_info`` holds ``tour_length``, ``big_m`` and
        ``word_edges`` (``objective == word_edges * big_m - tour_length``), and ``converged``
        (the search stopped itself, before its limit) or ``stopped = "time_limit"``. Killed at
        the deadline or by Ctrl-C: the best tour so far with ``solver_info["stopped"]``
        (``"time_limit"`` or ``"interrupted"``, then also ``interrupted``), or UNKNOWN with a
        ``reason`` before the first tour.

    Raises
    ------
    InputError
        A non-positive time limit, or a cost matrix that would not fit in memory.

    Notes
    -----
    The open path is modelled by the dummy node of
    :func:`~cpwords.wordsnake.heuristics.tsplib.snake_matrix` used as the depot (the vehicle
    leaves it for the first word and returns after the last);
    a cyclic snake uses the first word as the depot. First solution: path cheapest arc. The
    matrix is registered once (``RegisterTransitMatrix``), so costs are looked up in C++:
    memory O(n^2).

    References
    ----------
    L. Perron, V. Furnon, *OR-Tools* routing library (Google); C. Voudouris, E. Tsang, "Guided
    local search and its application to the traveling salesman problem", EJOR 113 (1999).
    """
    if time_limit is not None and time_limit <= 0:
        raise InputError(f"the time limit must be positive, got {time_limit}")
    start = time.perf_counter()
    trivial = _trivial(instance, "ortools-routing", start)
    if trivial is not None:
        return trivial
    _refuse_large(instance, 24, "ortools-routing")  # int64 in C++ plus the Python lists
    sm = snake_matrix(instance)
    info: dict[str, Any] = {
        "solver": "ortools-routing",
        "version": version("ortools"),
        "metaheuristic": "guided_local_search" if time_limit is not None else "none",
        "time_limit": time_limit,
        "seed": seed,
    }
    run = run_stoppable(
        _routing_search, sm, time_limit, start, deadline=_deadline(start, time_limit)
    )
    if run.stopped is not None:
        return _stopped(instance, sm, run.last_report, run.stopped, start, "ortools-routing", info)
    tour, length, converged = run.value
    if converged:
        info["converged"] = True
    elif time_limit is not None:  # guided local search ran to its time limit
        info["stopped"] = "time_limit"
    return _finish(instance, sm, tour, length, start, "ortools-routing", info)


def _routing_search(
    report: Any, sm: SnakeMatrix, time_limit: float | None, start: float
) -> tuple[list[int], int, bool]:  # pragma: no cover - runs in the peer's process
    """OR-Tools routing on the ATSP matrix; reports ``(tour, length)`` as tours improve. The
    tour, its length and whether the search converged (:data:`STALL_SECONDS`)."""
    from ortools.constraint_solver import pywrapcp, routing_enums_pb2

    depot = sm.dummy if sm.dummy is not None else 0
    manager = pywrapcp.RoutingIndexManager(sm.dimension, 1, depot)
    routing = pywrapcp.RoutingModel(manager)
    transit = routing.RegisterTransitMatrix([r.tolist() for r in sm.rows()])
    routing.SetArcCostEvaluatorOfAllVehicles(transit)
    params = pywrapcp.DefaultRoutingSearchParameters()
    params.first_solution_strategy = routing_enums_pb2.FirstSolutionStrategy.PATH_CHEAPEST_ARC
    if time_limit is not None:
        params.local_search_metaheuristic = (
            routing_enums_pb2.LocalSearchMetaheuristic.GUIDED_LOCAL_SEARCH
        )
        left = max(0.001, time_limit - (time.perf_counter() - start))
        params.time_limit.FromMilliseconds(max(1, int(left * 1000)))

    def tour_of(value: Any) -> list[int]:
        tour, index = [], routing.Start(0)
        while not routing.IsEnd(index):
            tour.append(manager.IndexToNode(index))
            index = value(routing.NextVar(index))
        return tour

    best_cost: int | None = None
    reported: int | None = None
    reported_at = -REPORT_EVERY
    began = time.perf_counter()
    found_at = began  # when the best tour was found
    converged = False

    def on_solution() -> None:
        nonlocal best_cost, reported, reported_at, found_at, converged
        # CostVar is the true tour length here (guided local search keeps its penalties apart).
        cost = int(routing.CostVar().Value())
        now = time.perf_counter()
        if best_cost is None or cost < best_cost:
            best_cost, found_at = cost, now
        elif now - found_at > max(STALL_SECONDS, found_at - began):
            converged = True  # the search ends with its best tour
            routing.solver().FinishCurrentSearch()
        if (reported is None or cost < reported) and now - reported_at >= REPORT_EVERY:
            reported, reported_at = cost, now
            report((tour_of(lambda var: var.Value()), cost))

    routing.AddAtSolutionCallback(on_solution)
    solution = routing.SolveWithParameters(params)
    if solution is None:  # a complete digraph always has a tour
        raise InputError("OR-Tools routing found no tour")
    return tour_of(solution.Value), int(solution.ObjectiveValue()), converged


def lkh(
    instance: WordsnakeInstance,
    *,
    time_limit: float | None = 10.0,
    seed: int = 0,
    runs: int = 1,
) -> SolveResult:
    """LKH-3 (K. Helsgaun) through the ``elkai`` package on the Wordsnake ATSP.

    Parameters
    ----------
    instance : WordsnakeInstance
    time_limit : float or None
        LKH's ``TIME_LIMIT`` in seconds (the search after preprocessing; LKH's candidate-set
        ascent, O(n^2) per iteration, is not covered). The solver's process is killed
        :data:`GRACE` seconds past it: LKH reports no tour before it returns, so a killed run
        has none.
    seed : int
        LKH's ``SEED``.
    runs : int
        LKH's ``RUNS``: independent runs, the best tour is kept.

    Returns
    -------
    SolveResult
        FEASIBLE, ``bound=None``; ``solver_info`` holds ``tour_length``, ``big_m`` and
        ``word_edges`` (``objective == word_edges * big_m - tour_length``). Killed at the
        deadline or by Ctrl-C: UNKNOWN with ``solver_info["stopped"]`` and a ``reason``.

    Raises
    ------
    InputError
        ``elkai`` is not installed (``pip install -e '.[peers]'``), a non-positive limit, or
        a matrix that would not fit in memory.

    Notes
    -----
    LKH reads exactly the text that ``cpwords snake --export-tsplib`` writes, passed in memory
    through elkai's ``_elkai.solve_problem`` (the public ``DistanceMatrix.solve_tsp`` has no
    time limit or seed). LKH turns an ATSP on N nodes into a symmetric TSP on 2N nodes.
    elkai holds the GIL while LKH runs, hence the child process. Licence: LKH is free for
    academic and non-commercial use only, and so is elkai (see the README).

    References
    ----------
    K. Helsgaun, "An extension of the Lin-Kernighan-Helsgaun TSP solver for constrained
    traveling salesman and vehicle routing problems", Roskilde University (2017) (LKH-3).
    """
    _check_lkh(time_limit, runs)
    start = time.perf_counter()
    trivial = _trivial(instance, "lkh", start)
    if trivial is not None:
        return trivial
    _refuse_large(instance, 2 * 4 * 2, "lkh")  # a triangle of the 2N-node symmetric matrix
    sm = snake_matrix(instance)
    from cpwords.wordsnake.heuristics.tsplib import atsp_text

    problem = atsp_text(instance, max_bytes=np.iinfo(np.int64).max)
    params = f"PROBLEM_FILE = :stdin:\nRUNS = {runs}\nSEED = {seed + 1}\n"
    if time_limit is not None:
        left = max(0.001, time_limit - (time.perf_counter() - start))
        params += f"TIME_LIMIT = {left:.3f}\n"
    info: dict[str, Any] = {
        "solver": "LKH-3 (elkai)",
        "version": _elkai_version(),
        "runs": runs,
        "seed": seed + 1,
        "time_limit": time_limit,
    }
    run = run_stoppable(_lkh_search, params, problem, deadline=_deadline(start, time_limit))
    if run.stopped is not None:  # LKH reports nothing before it returns
        return _stopped(instance, sm, None, run.stopped, start, "lkh", info)
    tour = run.value
    return _finish(instance, sm, tour, _tour_length(sm, tour), start, "lkh", info)


def _check_lkh(time_limit: float | None, runs: int) -> None:
    """Refuse, in one line, a call of :func:`lkh` without elkai or with a non-positive limit."""
    if not elkai_available():
        raise InputError(
            "method 'lkh' needs the optional package elkai: pip install -e '.[peers]' in the "
            "cpwords checkout (LKH-3; free for non-commercial use only)"
        )
    if time_limit is not None and time_limit <= 0:
        raise InputError(f"the time limit must be positive, got {time_limit}")
    if runs < 1:
        raise InputError(f"runs must be positive, got {runs}")


def _elkai_version() -> str:
    try:
        return version("elkai")
    except PackageNotFoundError:  # pragma: no cover
        return "unknown"


def _lkh_search(report: Any, params: str, problem: str) -> list[int]:  # pragma: no cover
    """LKH-3 on the TSPLIB text, in the peer's process: the tour, 0-based."""
    from elkai import _elkai  # the public API has no time limit or seed

    return [v - 1 for v in _elkai.solve_problem(params, problem)]
