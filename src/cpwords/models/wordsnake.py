"""Exact Wordsnake models: the letter-hub formulation in MIP and CP-SAT, and a naive circuit.

* :func:`solve_hub_mip` — the letter-hub formulation (see :mod:`.wordsnake_hub` and the card
  ``models/wordsnake.md``) as an integer program through OR-Tools' ``pywraplp`` (HiGHS by
  default, SCIP available), with connectivity cuts added lazily: solve, find the components that
  miss the root, cut them off, solve again, until the integer optimum is connected.
* :func:`solve_hub_cpsat` — the same formulation and cut loop in CP-SAT.
* :func:`solve_naive_circuit` — the deliberately naive baseline: one ``AddCircuit`` over the
  complete digraph (n^2 arc literals), kept for benchmarks and as a cross-check.

Every solve returns a :class:`~cpwords.result.SolveResult` whose status is OPTIMAL only when
the solver proved the last relaxation optimal *and* its solution was connected; otherwise the
best connected ordering found is returned as FEASIBLE with the relaxation's dual bound.
"""

from __future__ import annotations

import inspect
import itertools
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version
from typing import Any

import networkx as nx
import numpy as np
from ortools.graph.python import min_cost_flow
from ortools.linear_solver import pywraplp
from ortools.sat.python import cp_model

from ..errors import InputError, ModelError
from ..machine import available_memory
from ..puzzles.wordsnake import WordsnakeInstance, overlap_graph
from ..result import SolveResult, Status, TracePoint
from .cpsat_stop import interrupted as stopped_by_ctrl_c
from .native import quiet_stdout
from .wordsnake_core import reduced_core, solve_core, solve_core_mip
from .wordsnake_flow import overlap, solve_string_flow
from .wordsnake_hub import (
    DEPOT,
    HubGraph,
    build_hub_graph,
    components_missing_root,
    decode_order,
)
from .wordsnake_strings import DeadlineReached, build_string_network, estimate_memory

ProgressCallback = Callable[[float, float | None, float | None], None]
"""Called as ``progress(elapsed_seconds, incumbent, bound)`` while a solve runs."""

#: Translation of CP-SAT statuses (one table per backend, as CPMpy does).
CPSAT_STATUS = {
    cp_model.OPTIMAL: Status.OPTIMAL,
    cp_model.FEASIBLE: Status.FEASIBLE,
    cp_model.INFEASIBLE: Status.INFEASIBLE,
    cp_model.UNKNOWN: Status.UNKNOWN,
}

#: Translation of pywraplp result codes.
MIP_STATUS = {
    pywraplp.Solver.OPTIMAL: Status.OPTIMAL,
    pywraplp.Solver.FEASIBLE: Status.FEASIBLE,
    pywraplp.Solver.INFEASIBLE: Status.INFEASIBLE,
    pywraplp.Solver.NOT_SOLVED: Status.UNKNOWN,
}

MIP_BACKENDS = {"highs": "HIGHS", "scip": "SCIP", "cbc": "CBC"}

#: With a finite time limit, cut rounds are not attempted on letter-hub models with more arcs
#: than this: HiGHS did not honour a 60 s limit on a 1.1-million-arc model (n = 20,000 ENABLE
#: words; measured overruns of 40 s to several minutes), so the answer would come late. The
#: result is then FEASIBLE with the min-cost-flow bound (gap 0.007% on that instance).
MIP_MAX_ARCS = 300_000


# ---------------------------------------------------------------------------------------------
# Shared pieces: scores from the overlap graph, repair of disconnected solutions, hints.
# ---------------------------------------------------------------------------------------------


class _Scorer:
    """Scores orderings with the model's pair weights (the checker recomputes separately)."""

    def __init__(self, instance: WordsnakeInstance, hg: HubGraph) -> None:
        self.instance = instance
        self.hg = hg
        self.index: dict[str, list[int]] = {}
        for i, w in enumerate(instance.words):
            self.index.setdefault(w, []).append(i)

    def weight(self, a: int, b: int) -> int:
        return self.hg.pair_weight(self.instance.words, a, b)

    def items(self, order: Sequence[str]) -> list[int]:
        """Map words back to item indices (duplicates take their copies in turn)."""
        pools = {w: list(reversed(ix)) for w, ix in self.index.items()}
        return [pools[w].pop() for w in order]

    def score_items(self, items: Sequence[int]) -> int:
        pairs = list(itertools.pairwise(items))
        if self.instance.cyclic and len(items) > 1:
            pairs.append((items[-1], items[0]))
        return sum(self.weight(a, b) for a, b in pairs)


def _repair(hg: HubGraph, chosen: np.ndarray, scorer: _Scorer) -> list[str]:
    """Turn a possibly disconnected integer solution into a valid ordering.

    Each connected part is an Eulerian multigraph; its Euler circuit, cut at its weakest
    word-to-word transition (parts without the depot), gives paths that are concatenated.
    """
    words = scorer.instance.words
    multi = nx.MultiDiGraph()
    multi.add_edges_from(zip(hg.tail[chosen].tolist(), hg.head[chosen].tolist(), strict=True))
    multi.add_nodes_from(range(1, hg.n + 1))
    pieces: list[list[int]] = []
    for comp in nx.weakly_connected_components(multi):
        sub = multi.subgraph(comp)
        items_here = [v - 1 for v in comp if 1 <= v <= hg.n]
        if sub.number_of_edges() == 0 or not nx.is_eulerian(sub):
            pieces.extend([i] for i in items_here)
            continue
        start = DEPOT if DEPOT in comp else min(items_here) + 1
        seq = [u - 1 for u, _ in nx.eulerian_circuit(sub, source=start) if 1 <= u <= hg.n]
        if DEPOT not in comp and len(seq) > 1:
            # Cut the cycle where the transition is weakest.
            trans = [scorer.weight(seq[k], seq[(k + 1) % len(seq)]) for k in range(len(seq))]
            k = int(np.argmin(trans))
            seq = seq[k + 1 :] + seq[: k + 1]
        pieces.append(seq)
    return [words[i] for p in pieces for i in p]


def _read_round(
    hg: HubGraph, chosen: np.ndarray, scorer: _Scorer
) -> tuple[list[list[int]], list[str], int]:
    """Components that miss the root, the ordering read (or repaired) from ``chosen``, its score."""
    missing = components_missing_root(hg, chosen)
    words = scorer.instance.words
    order = _repair(hg, chosen, scorer) if missing else decode_order(hg, chosen, words)
    return missing, order, scorer.score_items(scorer.items(order))


def order_to_arcs(hg: HubGraph, items: Sequence[int], scorer: _Scorer) -> np.ndarray:
    """Arc indicator of the letter-hub formulation for an ordering given as item indices.

    Parameters
    ----------
    hg : HubGraph
    items : sequence of int, length n
        A permutation of ``range(n)``.

    Returns
    -------
    numpy.ndarray of int, shape (m,)
        How often each arc is used (0/1; hub arcs of a word are used at most once).
    """
    index = {
        (t, h): a for a, (t, h) in enumerate(zip(hg.tail.tolist(), hg.head.tolist(), strict=True))
    }
    hub_of = {c: v for v, c in hg.hub_letter.items()}
    words = scorer.instance.words
    use = np.zeros(hg.m, dtype=np.int64)
    seq = list(items)
    pairs = list(itertools.pairwise(seq))
    if hg.cyclic and len(seq) > 1:
        pairs.append((seq[-1], seq[0]))
    else:
        use[index[(DEPOT, seq[0] + 1)]] += 1
        use[index[(seq[-1] + 1, DEPOT)]] += 1
    for a, b in pairs:
        w = scorer.weight(a, b)
        if w >= 4:
            use[index[(a + 1, b + 1)]] += 1
        elif w == 1 and words[a][-1] in hub_of:
            h = hub_of[words[a][-1]]
            use[index[(a + 1, h)]] += 1
            use[index[(h, b + 1)]] += 1
        else:
            use[index[(a + 1, DEPOT)]] += 1
            use[index[(DEPOT, b + 1)]] += 1
    return use


def _integral_bound(new: float, old: float | None) -> float:
    """Tighten a dual bound: scores are integers, so floor(bound) is still a valid bound."""
    tightened = float(np.floor(new + 1e-6))
    return tightened if old is None else min(old, tightened)


def _solver_info(backend: str, **params: Any) -> dict[str, Any]:
    return {"ortools": version("ortools"), "backend": backend, **params}


def _check_limits(time_limit: float | None, workers: int) -> None:
    if time_limit is not None and time_limit <= 0:
        raise InputError(f"the time limit must be positive, got {time_limit}")
    if workers < 1:
        raise InputError(f"the number of workers must be at least 1, got {workers}")


def _finish(
    *,
    instance: WordsnakeInstance,
    proven: bool,
    order: list[str] | None,
    objective: float | None,
    bound: float | None,
    start: float,
    method: str,
    info: dict[str, Any],
    trace: list[TracePoint],
) -> SolveResult:
    if order is None or objective is None:
        return SolveResult(
            Status.UNKNOWN, None, bound, time.perf_counter() - start, None, method,
            solver_info=info, trace=tuple(trace),
        )  # fmt: skip
    if bound is not None and bound < objective:
        # A valid dual bound is never below a feasible score (bounds are floored integers, so
        # there is no rounding slack): report none rather than a false one.
        info = {**info, "bound_dropped": bound}
        bound = None
    status = (
        Status.OPTIMAL if proven and bound is not None and bound <= objective else Status.FEASIBLE
    )
    if status is Status.OPTIMAL:
        bound = objective
    return SolveResult(
        status, objective, bound, time.perf_counter() - start, order, method,
        solver_info=info, trace=tuple(trace),
    )  # fmt: skip


def assignment_relaxation(hg: HubGraph) -> tuple[np.ndarray, int]:
    """Solve the letter-hub model without connectivity cuts as a min-cost circulation.

    Without the cuts the constraints are flow conservation: split each word v into an entry
    node (demand 1) and an exit node (supply 1); depot and hubs conserve flow. The matrix is a
    network matrix, hence totally unimodular, so the min-cost flow optimum is the optimum of
    the integer program *and* of its LP relaxation: it is a valid dual bound.

    Parameters
    ----------
    hg : HubGraph

    Returns
    -------
    chosen : numpy.ndarray of bool, shape (m,)
        Arcs carrying flow.
    value : int
        Total weight of the chosen arcs (the assignment bound).

    Raises
    ------
    ModelError
        When the flow solver does not report an optimum (the circulation is always feasible).

    References
    ----------
    R. K. Ahuja, T. L. Magnanti, J. B. Orlin, *Network Flows*, Prentice Hall, 1993.
    """
    words = hg.n

    # Flow node numbering: depot and hubs keep their ids, word v is its exit node v, and its
    # entry node is num_nodes + v - 1.
    def entry(v: np.ndarray) -> np.ndarray:
        is_word = (v >= 1) & (v <= words)
        return np.where(is_word, hg.num_nodes + v - 1, v)

    flow = min_cost_flow.SimpleMinCostFlow()
    arcs = flow.add_arcs_with_capacity_and_unit_cost(
        hg.tail.astype(np.int32),
        entry(hg.head).astype(np.int32),
        np.ones(hg.m, dtype=np.int64),
        -hg.weight,
    )
    nodes = np.arange(1, words + 1)
    flow.set_nodes_supplies(
        np.concatenate([nodes, hg.num_nodes + nodes - 1]).astype(np.int32),
        np.concatenate([np.ones(words), -np.ones(words)]).astype(np.int64),
    )
    status = flow.solve()
    if status != flow.OPTIMAL:
        raise ModelError(f"min-cost flow failed on the assignment relaxation (status {status})")
    chosen = flow.flows(arcs) > 0
    return chosen, int(-flow.optimal_cost())


# ---------------------------------------------------------------------------------------------
# Letter-hub formulation, MIP backend.
# ---------------------------------------------------------------------------------------------


def solve_hub_mip(
    instance: WordsnakeInstance,
    *,
    time_limit: float | None = 60.0,
    backend: str = "highs",
    workers: int = 1,
    seed: int = 0,
    hint: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
    max_rounds: int | None = None,
) -> SolveResult:
    """Prove the Wordsnake optimum with the letter-hub integer program and lazy cuts.

    Parameters
    ----------
    instance : WordsnakeInstance
    time_limit : float or None
        Wall-clock limit in seconds for the whole cut loop; None for no limit.
    backend : {"highs", "scip", "cbc"}
        Open-source MIP solver behind OR-Tools' ``pywraplp``.
    workers : int
        Threads offered to the MIP solver (HiGHS and SCIP mostly use one).
    seed : int
        Random seed passed to the solver where it accepts one.
    hint : sequence of str, optional
        A starting ordering (e.g. from a heuristic): its score is the initial incumbent and it
        is the fallback answer if the limit stops the loop.
    progress : callable, optional
        ``progress(elapsed, incumbent, bound)`` after each round of the cut loop.
    max_rounds : int, optional
        Stop after this many MIP rounds (0: the min-cost-flow relaxation only).

    Returns
    -------
    SolveResult
        ``solution`` is the ordered list of words; OPTIMAL only when the last integer program was
        solved to proven optimality and its solution was connected.

    Raises
    ------
    InputError
        Unknown backend, non-positive time limit or workers.
    ModelError
        The solver reports the model invalid or abnormal (a bug in cpwords).

    Notes
    -----
    Variables: one binary per arc of the letter-hub graph (depot arcs, explicit arcs with
    overlap >= 2, word-hub arcs), so the program grows with n plus the number of overlap->=2
    pairs, not with n^2. Constraints: in- and out-degree one at every word, balance at hubs and at
    the depot, at least one depot departure for a linear snake, and the connectivity cuts
    ``x(delta_in(S)) >= 1`` for node sets S without the root, added lazily (the assignment
    relaxation with subtour elimination of the ATSP literature, with hubs that may be visited
    many times). Each round re-solves from scratch with the cuts found so far.

    With a finite ``time_limit``, no MIP round is started on a model with more than
    ``MIP_MAX_ARCS`` arcs (the MIP solver does not stop on time there); the answer is then
    FEASIBLE with the flow bound, and ``solver_info["mip_skipped"]`` says so.

    References
    ----------
    D. Shasha, "Wordsnakes", Dr Dobb's Journal, July 2000 (the puzzle).
    G. Dantzig, R. Fulkerson, S. Johnson, "Solution of a large-scale traveling-salesman
    problem", Operations Research 2 (1954) (subtour elimination added as needed).
    """
    _check_limits(time_limit, workers)
    if backend not in MIP_BACKENDS:
        raise InputError(f"unknown MIP backend {backend!r}; choose one of {sorted(MIP_BACKENDS)}")
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    hg = build_hub_graph(instance)
    scorer = _Scorer(instance, hg)
    best_order: list[str] | None = list(hint) if hint is not None else None
    best = scorer.score_items(scorer.items(best_order)) if best_order is not None else None
    trace: list[TracePoint] = []

    # Round 0: the assignment relaxation as a min-cost circulation (exact, no MIP needed).
    chosen, relaxation = assignment_relaxation(hg)
    bound: float | None = float(relaxation)
    missing, order, value = _read_round(hg, chosen, scorer)
    if best is None or value > best:
        best, best_order = value, order
    trace.append(TracePoint(time.perf_counter() - start, best, bound))
    if progress is not None:
        progress(trace[-1].time, best, bound)
    info = _solver_info(
        backend, formulation="letter-hub", workers=workers, seed=seed,
        arcs=hg.m, nodes=hg.num_nodes, time_limit=time_limit, flow_bound=relaxation,
    )  # fmt: skip
    if not missing or best >= relaxation:
        info.update(rounds=0, cuts=0)
        return _finish(
            instance=instance, proven=True, order=best_order, objective=float(best),
            bound=bound, start=start, method=f"mip-{backend}", info=info, trace=trace,
        )  # fmt: skip
    pending_cuts = missing
    too_large = deadline is not None and hg.m > MIP_MAX_ARCS
    info["mip_skipped"] = bool(too_large)
    if (deadline is not None and time.perf_counter() >= deadline) or max_rounds == 0 or too_large:
        info.update(rounds=0, cuts=0)
        return _finish(
            instance=instance, proven=False, order=best_order, objective=float(best),
            bound=bound, start=start, method=f"mip-{backend}", info=info, trace=trace,
        )  # fmt: skip

    with quiet_stdout():  # HiGHS prints a banner on stdout when created, which breaks --json
        solver = pywraplp.Solver.CreateSolver(MIP_BACKENDS[backend])
    if solver is None:  # pragma: no cover - depends on the OR-Tools build
        raise ModelError(f"OR-Tools has no {backend} backend in this build")
    solver.SuppressOutput()
    # SCIP under OR-Tools stops with FEASIBLE, unproven, when given 2 threads (measured on 'abc'
    # strings; 1 thread proves the same instances), and it is single-threaded here anyway.
    threads = 1 if backend == "scip" else workers
    info["threads"] = threads
    solver.SetNumThreads(threads)
    x = [solver.BoolVar(f"x{a}") for a in range(hg.m)]
    inf = solver.infinity()
    outs, ins = hg.out_arcs(), hg.in_arcs()
    for v in range(hg.num_nodes):
        if 1 <= v <= hg.n:
            ct_out = solver.Constraint(1, 1)
            ct_in = solver.Constraint(1, 1)
        else:
            ct_out = solver.Constraint(0, 0)  # balance: out - in == 0
            ct_in = ct_out
        for a in outs[v]:
            ct_out.SetCoefficient(x[a], 1)
        for a in ins[v]:
            ct_in.SetCoefficient(x[a], 1 if ct_in is not ct_out else -1)
    if not hg.cyclic:
        ct = solver.Constraint(1, inf)
        for a in outs[DEPOT]:
            ct.SetCoefficient(x[a], 1)
    obj = solver.Objective()
    for a, w in enumerate(hg.weight.tolist()):
        if w:
            obj.SetCoefficient(x[a], float(w))
    obj.SetMaximization()

    if best_order is not None and backend != "highs":
        # OR-Tools 9.15 crashes when a hint is given to HiGHS; there the hint only seeds the
        # incumbent.
        use = order_to_arcs(hg, scorer.items(best_order), scorer)
        solver.SetHint(x, [float(min(u, 1)) for u in use.tolist()])
    proven = False
    rounds = cuts = 0
    params = pywraplp.MPSolverParameters()
    # OR-Tools' default relative MIP gap (1e-4) lets the solver stop "OPTIMAL" up to 0.01% below
    # the optimum: above ~10,000 points that is a whole unit. A proof needs the gap at zero, and
    # the bound is always the solver's best bound, never the incumbent.
    params.SetDoubleParam(pywraplp.MPSolverParameters.RELATIVE_MIP_GAP, 0.0)

    def add_cuts(components: list[list[int]]) -> None:
        nonlocal cuts
        for comp in components:
            in_s = set(comp)
            ct = solver.Constraint(1, inf)
            for v in comp:
                for a in ins[v]:
                    if int(hg.tail[a]) not in in_s:
                        ct.SetCoefficient(x[a], 1)
            cuts += 1

    add_cuts(pending_cuts)
    try:  # Ctrl-C (HiGHS and SCIP do not catch it): keep the best ordering so far
        while max_rounds is None or rounds < max_rounds:
            if deadline is not None:
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    break
                solver.SetTimeLimit(max(1, int(remaining * 1000)))
            rounds += 1
            with quiet_stdout():
                code = solver.Solve(params)
            if code == pywraplp.Solver.ABNORMAL or code == pywraplp.Solver.MODEL_INVALID:
                raise ModelError(f"{backend} returned an abnormal status on the Wordsnake model")
            status = MIP_STATUS.get(code, Status.UNKNOWN)
            if status is Status.INFEASIBLE:  # pragma: no cover - the model always has a solution
                raise ModelError("the letter-hub model was reported infeasible")
            if status in (Status.OPTIMAL, Status.FEASIBLE):
                bound = _integral_bound(solver.Objective().BestBound(), bound)
            if status is Status.UNKNOWN:
                break
            chosen = np.array([v.solution_value() > 0.5 for v in x], dtype=bool)
            missing, order, value = _read_round(hg, chosen, scorer)
            if best is None or value > best:
                best, best_order = value, order
            elapsed = time.perf_counter() - start
            trace.append(TracePoint(elapsed, best, bound))
            if progress is not None:
                progress(elapsed, best, bound)
            if status is Status.OPTIMAL and not missing:
                proven = True
                break
            if bound is not None and best is not None and best >= bound - 1e-9:
                proven = True
                break
            if status is Status.FEASIBLE and not missing:
                break  # time ran out inside the solve; the solution is valid but unproven
            add_cuts(missing)
    except KeyboardInterrupt:
        info["interrupted"] = True
    info.update(rounds=rounds, cuts=cuts)
    return _finish(
        instance=instance, proven=proven, order=best_order,
        objective=None if best is None else float(best), bound=bound, start=start,
        method=f"mip-{backend}", info=info, trace=trace,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Letter-hub formulation, CP-SAT backend.
# ---------------------------------------------------------------------------------------------


#: CP-SAT subsolvers in the order they are given workers. The letter-hub relaxation is an
#: assignment-type LP whose bound is nearly tight, so the LP-heavy workers come first: with the
#: default 2-worker portfolio CP-SAT did not close a 300-word instance in 30 s, with ``max_lp``
#: it proves 1,000 words in under a second (measured, see benchmarks/results/wordsnake.md).
LP_FIRST_SUBSOLVERS = (
    "max_lp",
    "default_lp",
    "quick_restart",
    "reduced_costs",
    "pseudo_costs",
    "core",
)


def _lp_first_portfolio(solver: cp_model.CpSolver, workers: int) -> None:
    solver.parameters.num_workers = workers
    if workers == 1:
        solver.parameters.linearization_level = 2
    else:
        solver.parameters.subsolvers.extend(LP_FIRST_SUBSOLVERS[:workers])


def _cpsat_solver(
    workers: int, seed: int, seconds: float | None, lp_first: bool = True
) -> cp_model.CpSolver:
    """A CP-SAT solver with our worker portfolio, seed and time limit (None: no limit)."""
    solver = cp_model.CpSolver()
    if lp_first:
        _lp_first_portfolio(solver, workers)
    else:
        solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    if seconds is not None:
        solver.parameters.max_time_in_seconds = max(0.0, seconds)
    return solver


class _TraceCallback(cp_model.CpSolverSolutionCallback):
    def __init__(self, start: float, progress: ProgressCallback | None) -> None:
        super().__init__()
        self.start = start
        self.progress = progress
        self.points: list[TracePoint] = []

    def on_solution_callback(self) -> None:
        t = time.perf_counter() - self.start
        p = TracePoint(t, self.objective_value, self.best_objective_bound)
        self.points.append(p)
        if self.progress is not None:
            self.progress(t, p.objective, p.bound)


def solve_hub_cpsat(
    instance: WordsnakeInstance,
    *,
    time_limit: float | None = 60.0,
    workers: int = 2,
    seed: int = 0,
    hint: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
) -> SolveResult:
    """Prove the Wordsnake optimum with the letter-hub formulation in CP-SAT.

    Same formulation and lazy connectivity cuts as :func:`solve_hub_mip`; each round is a
    CP-SAT solve hinted with the best ordering so far.

    Parameters
    ----------
    instance : WordsnakeInstance
    time_limit : float or None
        Wall-clock limit in seconds for the whole cut loop.
    workers : int
        CP-SAT search workers (``num_workers``).
    seed : int
        CP-SAT ``random_seed``.
    hint : sequence of str, optional
        Starting ordering, passed to CP-SAT as a solution hint.
    progress : callable, optional
        ``progress(elapsed, incumbent, bound)`` on each improving solution.

    Returns
    -------
    SolveResult

    Raises
    ------
    InputError
        Non-positive time limit or workers.
    ModelError
        CP-SAT reports MODEL_INVALID (a bug in cpwords).

    References
    ----------
    L. Perron, F. Didier, *CP-SAT*, OR-Tools (Google).
    """
    _check_limits(time_limit, workers)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    hg = build_hub_graph(instance)
    scorer = _Scorer(instance, hg)
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{a}") for a in range(hg.m)]
    outs, ins = hg.out_arcs(), hg.in_arcs()
    for v in range(hg.num_nodes):
        out_sum = sum(x[a] for a in outs[v])
        in_sum = sum(x[a] for a in ins[v])
        if 1 <= v <= hg.n:
            model.add(out_sum == 1)
            model.add(in_sum == 1)
        else:
            model.add(out_sum == in_sum)
    if not hg.cyclic:
        model.add(sum(x[a] for a in outs[DEPOT]) >= 1)
    weights = hg.weight.tolist()
    model.maximize(sum(w * x[a] for a, w in enumerate(weights) if w))

    best_order: list[str] | None = list(hint) if hint is not None else None
    best = scorer.score_items(scorer.items(best_order)) if best_order is not None else None
    bound: float | None = None
    trace: list[TracePoint] = []
    proven = interrupted = False
    rounds = cuts = 0
    while True:
        remaining = None if deadline is None else deadline - time.perf_counter()
        if remaining is not None and remaining <= 0:
            break
        solver = _cpsat_solver(workers, seed, remaining)
        model.clear_hints()
        if best_order is not None:
            use = order_to_arcs(hg, scorer.items(best_order), scorer)
            for a, u in enumerate(use.tolist()):
                model.add_hint(x[a], bool(u))
        rounds += 1
        cb = _TraceCallback(start, progress)
        code = solver.solve(model, cb)
        if code == cp_model.MODEL_INVALID:
            raise ModelError(f"CP-SAT rejected the Wordsnake model: {model.validate()}")
        interrupted = interrupted or stopped_by_ctrl_c(solver, code)
        status = CPSAT_STATUS[code]
        if status is Status.INFEASIBLE:  # pragma: no cover - the model always has a solution
            raise ModelError("the letter-hub model was reported infeasible")
        if status is Status.UNKNOWN:
            break  # no solution, and CP-SAT's objective bound is then not to be trusted
        bound = _integral_bound(solver.best_objective_bound, bound)
        chosen = np.array([solver.boolean_value(v) for v in x], dtype=bool)
        missing, order, value = _read_round(hg, chosen, scorer)
        if best is None or value > best:
            best, best_order = value, order
        trace.append(TracePoint(time.perf_counter() - start, best, bound))
        if status is Status.OPTIMAL and not missing:
            proven = True
            break
        if best is not None and best >= bound:
            proven = True
            break
        if (status is Status.FEASIBLE and not missing) or interrupted:
            break
        for comp in missing:
            in_s = set(comp)
            model.add(sum(x[a] for v in comp for a in ins[v] if int(hg.tail[a]) not in in_s) >= 1)
            cuts += 1
    info = _solver_info(
        "cp-sat", formulation="letter-hub", workers=workers, seed=seed, rounds=rounds,
        cuts=cuts, arcs=hg.m, nodes=hg.num_nodes, time_limit=time_limit,
        interrupted=interrupted,
    )  # fmt: skip
    return _finish(
        instance=instance, proven=proven, order=best_order,
        objective=None if best is None else float(best), bound=bound, start=start,
        method="cpsat", info=info, trace=trace,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Path cover with CP-SAT's multiple-circuit (routes) constraint over the positive arcs.
# ---------------------------------------------------------------------------------------------


def _path_cover_hint(
    items: Sequence[int], weight: Callable[[int, int], int]
) -> set[tuple[int, int]]:
    """Routes-model arcs (depot 0, item i is node i + 1) of an ordering read as a path cover."""
    chosen = {(0, items[0] + 1), (items[-1] + 1, 0)}
    for a, b in itertools.pairwise(items):
        if weight(a, b) > 0:
            chosen.add((a + 1, b + 1))
        else:
            chosen |= {(a + 1, 0), (0, b + 1)}
    return chosen


def solve_routes_cpsat(
    instance: WordsnakeInstance,
    *,
    time_limit: float | None = 60.0,
    workers: int = 2,
    seed: int = 0,
    hint: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
) -> SolveResult:
    """Prove the Wordsnake optimum as a maximum-weight path cover with CP-SAT's routes constraint.

    Parameters
    ----------
    instance : WordsnakeInstance
    time_limit : float or None
        Wall-clock limit in seconds (both phases of a cyclic solve together).
    workers : int
        CP-SAT ``num_workers`` (LP-heavy subsolvers first).
    seed : int
        CP-SAT ``random_seed``.
    hint : sequence of str, optional
        Starting ordering: CP-SAT hint and initial incumbent.
    progress : callable, optional
        ``progress(elapsed, incumbent, bound)`` on each improving solution.

    Returns
    -------
    SolveResult

    Raises
    ------
    InputError
        Non-positive limits.
    ModelError
        CP-SAT reports MODEL_INVALID.

    Notes
    -----
    One Boolean per positive-overlap arc plus ``2n`` depot arcs, tied by
    ``add_multiple_circuit`` with node 0 as the depot: every route depot -> ... -> depot is a
    path of the cover, so subtour elimination is native to the constraint (no cut loop). This
    formulation does not aggregate overlap-1 arcs, so it is larger than the letter-hub model on
    natural-language lists, but it is far stronger on lists with long overlaps and many ties
    (e.g. words over a 2-3 letter alphabet), where the letter-hub cut loop needs many rounds.

    A cyclic snake's optimum is ``max(PC*, HC*)``: the best path cover (joined by zero-overlap
    joints) or the best Hamiltonian cycle made of positive arcs only. A second CP-SAT model
    (``add_circuit`` over the positive arcs) looks for such a cycle scoring above the
    incumbent; its infeasibility proves the incumbent optimal.

    References
    ----------
    L. Perron, F. Didier, *CP-SAT*, OR-Tools (Google): ``AddMultipleCircuit`` (routes).
    """
    _check_limits(time_limit, workers)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    n = instance.n
    hg = build_hub_graph(instance)
    scorer = _Scorer(instance, hg)
    info = _solver_info("cp-sat", formulation="routes-path-cover", workers=workers, seed=seed)
    if n == 1:
        return _finish(
            instance=instance, proven=True, order=list(instance.words), objective=0.0,
            bound=0.0, start=start, method="cpsat-routes", info=info, trace=[],
        )  # fmt: skip
    g = overlap_graph(instance.words, proper=instance.proper)
    tails, heads, weights = g.tail.tolist(), g.head.tolist(), g.weight.tolist()
    info["arcs"] = g.m + 2 * n

    def remaining() -> float | None:
        return None if deadline is None else max(0.0, deadline - time.perf_counter())

    best_order: list[str] | None = list(hint) if hint is not None else None
    best = scorer.score_items(scorer.items(best_order)) if best_order is not None else None

    # Phase 1: maximum-weight path cover.
    model = cp_model.CpModel()
    lits: dict[tuple[int, int], Any] = {}
    for i in range(1, n + 1):
        lits[(0, i)] = model.new_bool_var("")
        lits[(i, 0)] = model.new_bool_var("")
    terms = []
    for t, h, w in zip(tails, heads, weights, strict=True):
        v = model.new_bool_var("")
        lits[(t + 1, h + 1)] = v
        terms.append(w * v)
    model.add_multiple_circuit([(a, b, v) for (a, b), v in lits.items()])
    model.maximize(sum(terms))
    if best_order is not None:
        chosen = _path_cover_hint(scorer.items(best_order), scorer.weight)
        for key, v in lits.items():
            model.add_hint(v, key in chosen)
    solver = _cpsat_solver(workers, seed, remaining())
    cb = _TraceCallback(start, progress)
    code = solver.solve(model, cb)
    if code == cp_model.MODEL_INVALID:
        raise ModelError(f"CP-SAT rejected the routes model: {model.validate()}")
    if stopped_by_ctrl_c(solver, code):
        info["interrupted"] = True
    status = CPSAT_STATUS[code]
    trace = list(cb.points)
    pc_bound: float | None = None
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        pc_bound = _integral_bound(solver.best_objective_bound, None)
        succ = {a: b for (a, b), v in lits.items() if a != 0 and solver.boolean_value(v)}
        items = []
        for (a, b), v in lits.items():
            if a == 0 and solver.boolean_value(v):
                node = b
                while node != 0:
                    items.append(node - 1)
                    node = succ[node]
        order = [instance.words[i] for i in items]
        value = scorer.score_items(items)
        if best is None or value > best:
            best, best_order = value, order
    pc_proven = status is Status.OPTIMAL
    if not instance.cyclic or info.get("interrupted"):
        return _finish(
            instance=instance, proven=pc_proven, order=best_order,
            objective=None if best is None else float(best), bound=pc_bound, start=start,
            method="cpsat-routes", info=info, trace=trace,
        )  # fmt: skip

    # Phase 2 (cyclic): a Hamiltonian cycle of positive arcs scoring above the incumbent?
    # Without one, max(PC*, HC*) <= incumbent. A positive Hamiltonian cycle minus its lightest
    # arc is a path cover, so HC* <= PC* + (heaviest arc) bounds the answer when phase 2 stops.
    heaviest = max(weights, default=0)
    bound = None if pc_bound is None else pc_bound + heaviest
    proven = False
    if pc_bound is None:  # phase 1 found nothing: no bound to build on
        return _finish(
            instance=instance, proven=False, order=best_order,
            objective=None if best is None else float(best), bound=None, start=start,
            method="cpsat-routes", info=info, trace=trace,
        )  # fmt: skip
    # add_circuit only knows the nodes its arcs mention: a word without a positive arc in or out
    # cannot lie on a positive Hamiltonian cycle, so then there is none.
    if best is not None and (set(tails) != set(range(n)) or set(heads) != set(range(n))):
        proven, bound = pc_proven, max(pc_bound, float(best))
    elif best is not None and (deadline is None or (remaining() or 0) > 0):
        cyc = cp_model.CpModel()
        arc_vars = [(t, h, cyc.new_bool_var("")) for t, h in zip(tails, heads, strict=True)]
        cyc.add_circuit(arc_vars)
        cyc.add(sum(w * v for (_, _, v), w in zip(arc_vars, weights, strict=True)) >= best + 1)
        cyc.maximize(sum(w * v for (_, _, v), w in zip(arc_vars, weights, strict=True)))
        solver2 = _cpsat_solver(workers, seed, remaining())
        code2 = solver2.solve(cyc)
        if stopped_by_ctrl_c(solver2, code2):
            info["interrupted"] = True
        status2 = CPSAT_STATUS[code2]
        if status2 is Status.INFEASIBLE:
            proven = pc_proven
            bound = max(pc_bound, float(best))
        elif status2 in (Status.OPTIMAL, Status.FEASIBLE):
            succ2 = {t: h for t, h, v in arc_vars if solver2.boolean_value(v)}
            node, items = 0, []
            for _ in range(n):
                items.append(node)
                node = succ2[node]
            value = scorer.score_items(items)
            if value > best:
                best, best_order = value, [instance.words[i] for i in items]
            hc_bound = _integral_bound(solver2.best_objective_bound, None)
            bound = max(pc_bound, hc_bound)
            proven = pc_proven and status2 is Status.OPTIMAL
        info["cycle_phase"] = status2.value  # UNKNOWN keeps the bound PC* + heaviest arc
    return _finish(
        instance=instance, proven=proven, order=best_order,
        objective=None if best is None else float(best), bound=bound, start=start,
        method="cpsat-routes", info=info, trace=trace,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# The default exact method: a measured policy over the formulations above.
# ---------------------------------------------------------------------------------------------

#: Above this many positive-overlap arcs the routes model is not tried (its model alone is
#: then larger than the letter-hub MIP by two orders of magnitude).
ROUTES_MAX_ARCS = 400_000


def positive_arc_count_bound(instance: WordsnakeInstance) -> int:
    """Upper bound on the number of positive-overlap arcs: pairs with last(a) == first(b)."""
    shortest = 2 if instance.proper else 1
    ends: dict[str, int] = {}
    starts: dict[str, int] = {}
    for w in instance.words:
        if len(w) >= shortest:
            ends[w[-1]] = ends.get(w[-1], 0) + 1
            starts[w[0]] = starts.get(w[0], 0) + 1
    return sum(c * starts.get(k, 0) for k, c in ends.items())


#: When the string-hub flow leaves a gap, lists of at most this many items (and at most
#: ``ROUTES_MAX_ARCS`` positive arcs) go on to the routes model; larger ones end FEASIBLE with
#: the Lagrangian bound.
FALLBACK_MAX_ITEMS = 20_000


#: Reduced-cost fixing hands the core to CP-SAT when it keeps at most this many word pairs
#: (the hard lists measured keep 8,000 to 20,000 of 500,000 to 640,000).
CORE_MAX_PAIRS = 400_000


def check_memory(instance: WordsnakeInstance) -> None:
    """Refuse, in one line, an instance whose exact solve would not fit in memory.

    Raises
    ------
    InputError
        When :func:`~.wordsnake_strings.estimate_memory` exceeds
        :func:`cpwords.machine.available_memory`.
    """
    need = estimate_memory(instance)
    have = available_memory()
    if need > have:
        letters = sum(len(w) for w in instance.words)
        raise InputError(
            f"{instance.n:,} words ({letters:,} letters) need about {need / 1e9:.1f} GB to solve "
            f"exactly, more than the {have / 1e9:.1f} GB available"
        )


def solve_exact(
    instance: WordsnakeInstance,
    *,
    time_limit: float | None = 60.0,
    workers: int = 2,
    seed: int = 0,
    hint: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
    start: float | None = None,
    lagrangian_iterations: int = 50,
    core_search: str = "mip",
) -> SolveResult:
    """The default exact method: string-hub flow, certificate, repair, bound, core search.

    1. The string-hub assignment relaxation (O(total letters) arcs) as a min-cost flow, with a
       longest-overlap-first greedy start computed meanwhile
       (:func:`~.wordsnake_flow.solve_string_flow`). When the flow's support is connected, its
       Euler circuit is an ordering scoring the bound: OPTIMAL with no MIP (all of ENABLE and
       of web2, measured). Otherwise the remaining cycles are patched
       and a Lagrangian relaxation of the connectivity cuts tightens the bound.
    2. If a gap remains, reduced-cost fixing on the iterate with the best bound keeps only the
       joints an ordering scoring above the incumbent may use
       (:func:`~.wordsnake_core.reduced_core`), and an exact search of that core takes the
       rest of the time (:func:`~.wordsnake_core.solve_core_mip`): a proof that nothing in the
       core beats the incumbent, or the better ordering it finds, is a proof for the whole list.
    3. If the core is too large (more than ``CORE_MAX_PAIRS`` word pairs) on a list of at most
       ``FALLBACK_MAX_ITEMS`` items and ``ROUTES_MAX_ARCS`` positive arcs, CP-SAT's routes model
       (:func:`solve_routes_cpsat`) takes over with the best ordering as its hint.

    The dual bound reported is the best of the bounds proven along the way.

    Parameters
    ----------
    instance : WordsnakeInstance
    time_limit : float or None
        Seconds for the whole policy, counted from ``start``.
    workers : int
        Solver threads.
    seed : int
        Solver seed.
    hint : sequence of str, optional
        A starting ordering (the initial incumbent).
    progress : callable, optional
        ``progress(elapsed, incumbent, bound)`` or, when it takes a fourth argument,
        ``progress(elapsed, incumbent, bound, stage)``.
    start : float, optional
        ``time.perf_counter()`` at which the time limit started (default: now).
    lagrangian_iterations : int
        Most flow solves spent tightening the bound (0: the relaxation's bound only).
    core_search : {"mip", "cpsat"}
        How the core left by reduced-cost fixing is searched: HiGHS branch-and-cut with
        repeated words as one node of multiplicity k (:func:`~.wordsnake_core.solve_core_mip`,
        the default: measured faster), or CP-SAT's routes constraint over the items
        (:func:`~.wordsnake_core.solve_core`).

    Returns
    -------
    SolveResult
        ``method`` names the stage that finished (``exact/flow``, ``exact/core`` or
        ``exact/routes``);
        ``solver_info["stages"]`` lists each stage; ``solver_info["interrupted"]`` is True after
        Ctrl-C (the best ordering so far is returned, FEASIBLE unless proven).

    Raises
    ------
    InputError
        Non-positive limits, or an instance too large for the memory available.
    """
    _check_limits(time_limit, workers)
    if core_search not in ("mip", "cpsat"):
        raise InputError(f"core_search must be 'mip' or 'cpsat', got {core_search!r}")
    entered = time.perf_counter()
    start = entered if start is None else start
    deadline = None if time_limit is None else start + time_limit
    words = instance.words
    info = _solver_info("min-cost-flow", formulation="string-hub", workers=workers, seed=seed)

    def finish(**kwargs: Any) -> SolveResult:
        info["solve_time"] = time.perf_counter() - entered  # without start-up and reading
        return _finish(**kwargs)

    if instance.n == 1 or len(set(words)) == 1:
        value = score_order(instance, list(words))
        return finish(
            instance=instance, proven=True, order=list(words), objective=float(value),
            bound=float(value), start=start, method="exact/flow", info=info, trace=[],
        )  # fmt: skip
    check_memory(instance)
    fallback = (
        instance.n <= FALLBACK_MAX_ITEMS and positive_arc_count_bound(instance) <= ROUTES_MAX_ARCS
    )
    flow_deadline = deadline
    if fallback and time_limit is not None:
        flow_deadline = start + 0.4 * time_limit
    report = _stage_progress(progress)
    trace: list[TracePoint] = []

    def on_progress(elapsed: float, inc: float | None, bnd: float | None, stage: str) -> None:
        trace.append(TracePoint(elapsed, inc, bnd))
        report(elapsed, inc, bnd, stage)

    interrupted = False
    out = None
    try:
        report(time.perf_counter() - start, None, None, "building the string-hub network")
        net = build_string_network(instance, flow_deadline)
        hint_items = None if hint is None else _items_of(instance, hint)
        out = solve_string_flow(
            net,
            deadline=flow_deadline,
            start=start,
            progress=on_progress,
            incumbent=hint_items,
            lagrangian_iterations=lagrangian_iterations,
        )
        interrupted = out.stopped == "interrupt"
    except KeyboardInterrupt:
        interrupted = True
    except DeadlineReached:
        info["stopped"] = "time"
    info.update(out.info if out is not None else {})
    info["time_limit"] = time_limit
    if out is not None and out.order is not None:
        order = [words[i] for i in out.order]
        objective = float(out.objective or 0)
    else:  # stopped before any ordering: the given one (or the input order)
        order = list(hint) if hint is not None else list(words)
        objective = float(score_order(instance, order))
    bound = None if out is None or out.bound is None else float(out.bound)
    proven = bound is not None and objective >= bound
    stages: list[dict[str, Any]] = [
        {"stage": "flow", "wall_time": time.perf_counter() - start, "proven": proven}
    ]
    info["stages"] = stages
    info["interrupted"] = interrupted
    remaining = None if deadline is None else deadline - time.perf_counter()
    if (
        not (proven or interrupted)
        and out is not None
        and out.dual is not None
        and (remaining is None or remaining > 0.05)
    ):
        # Reduced-cost fixing, then an exact search of the joints that remain.
        t_core = time.perf_counter()
        core_stage: dict[str, Any] = {"stage": "core"}
        stages.append(core_stage)
        try:
            report(t_core - start, objective, bound, "reduced-cost fixing")
            core = reduced_core(net, out.dual, int(objective), deadline)
            core_stage["pairs"] = core.num_pairs
            core_stage["budget"] = core.budget / core.scale
            if core.num_pairs <= CORE_MAX_PAIRS:
                report(time.perf_counter() - start, objective, bound, "searching the core")
                seconds = None if deadline is None else deadline - time.perf_counter()

                def core_progress(_t: float, inc: float | None, _b: float | None) -> None:
                    better = objective if inc is None else max(objective, inc)
                    on_progress(time.perf_counter() - start, better, bound, "searching the core")

                if core_search == "cpsat":
                    found = solve_core(
                        net, core, time_limit=seconds, workers=workers, seed=seed,
                        progress=core_progress,
                    )  # fmt: skip
                else:
                    found = solve_core_mip(net, core, time_limit=seconds, progress=core_progress)
                core_stage["arcs"] = found.arcs
                interrupted = interrupted or found.interrupted
                if (
                    found.order is not None
                    and found.objective is not None
                    and found.objective > objective
                ):
                    order = [words[i] for i in found.order]
                    objective = float(found.objective)
                if found.proven:
                    bound = objective  # nothing in the core beats it: optimal
                    proven = True
                elif found.bound is not None and bound is not None:
                    bound = min(bound, max(float(found.bound), objective))
                on_progress(time.perf_counter() - start, objective, bound, "searching the core")
        except DeadlineReached:
            info["stopped"] = "time"
        except KeyboardInterrupt:
            interrupted = True
        core_stage["wall_time"] = time.perf_counter() - t_core
        core_stage["proven"] = proven
        info["interrupted"] = interrupted
        method_name = "exact/core"
    else:
        method_name = "exact/flow"
    remaining = None if deadline is None else deadline - time.perf_counter()
    if proven or interrupted or not fallback or (remaining is not None and remaining <= 0.05):
        return finish(
            instance=instance, proven=proven, order=order, objective=objective, bound=bound,
            start=start, method=method_name, info=info, trace=trace,
        )  # fmt: skip
    try:
        second = solve_routes_cpsat(
            instance, time_limit=remaining, workers=workers, seed=seed, hint=order,
            progress=progress,
        )  # fmt: skip
    except KeyboardInterrupt:
        info["interrupted"] = True
        return finish(
            instance=instance, proven=False, order=order, objective=objective, bound=bound,
            start=start, method="exact/flow", info=info, trace=trace,
        )  # fmt: skip
    stages.append({"stage": "routes", "status": second.status.value, "wall_time": second.wall_time})
    if second.solver_info.get("interrupted"):
        info["interrupted"] = True
    if second.objective is not None and second.objective > objective:
        order, objective = list(second.solution), float(second.objective)
    if second.bound is not None:
        bound = second.bound if bound is None else min(bound, second.bound)
    proven = second.is_optimal or (bound is not None and objective >= bound)
    info["routes"] = dict(second.solver_info)
    return finish(
        instance=instance, proven=proven, order=order, objective=objective, bound=bound,
        start=start, method="exact/routes", info=info, trace=[*trace, *second.trace],
    )  # fmt: skip


def score_order(instance: WordsnakeInstance, order: Sequence[str]) -> int:
    """Model-side score of an ordering of words (the checker recomputes it independently).

    Parameters
    ----------
    instance : WordsnakeInstance
        Gives the ``cyclic`` and ``proper`` rules.
    order : sequence of str

    Returns
    -------
    int
        Sum of squared overlaps of consecutive words (and last -> first when cyclic).
    """
    seq = list(order)
    total = sum(overlap(a, b, instance.proper) ** 2 for a, b in itertools.pairwise(seq))
    if instance.cyclic and len(seq) > 1:
        total += overlap(seq[-1], seq[0], instance.proper) ** 2
    return total


def _items_of(instance: WordsnakeInstance, order: Sequence[str]) -> list[int]:
    pools: dict[str, list[int]] = {}
    for i, w in enumerate(instance.words):
        pools.setdefault(w, []).append(i)
    for v in pools.values():
        v.reverse()
    return [pools[w].pop() for w in order]


def _stage_progress(progress: ProgressCallback | None) -> Callable[..., None]:
    """Adapt a 3- or 4-argument progress callback to ``(elapsed, incumbent, bound, stage)``."""
    if progress is None:
        return lambda *_: None
    try:
        params = inspect.signature(progress).parameters
        four = len(params) >= 4 or any(p.kind is p.VAR_POSITIONAL for p in params.values())
    except (TypeError, ValueError):  # pragma: no cover - builtins
        four = False
    if four:
        return progress
    return lambda el, inc, bnd, _stage: progress(el, inc, bnd)


# ---------------------------------------------------------------------------------------------
# Deliberately naive baseline: one circuit over the complete digraph.
# ---------------------------------------------------------------------------------------------


def solve_naive_circuit(
    instance: WordsnakeInstance,
    *,
    time_limit: float | None = 60.0,
    workers: int = 2,
    seed: int = 0,
    hint: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
) -> SolveResult:
    """The naive formulation: one CP-SAT ``AddCircuit`` over the complete n x n digraph.

    A dummy node closes the circuit for a linear snake. Kept as the benchmark's baseline (it
    is what the issue calls "a complete-graph circuit model") and as an independent
    cross-check of the letter-hub models on small instances.

    Parameters
    ----------
    instance : WordsnakeInstance
    time_limit : float or None
        Seconds.
    workers : int
        CP-SAT ``num_workers``.
    seed : int
        CP-SAT ``random_seed``.
    hint : sequence of str, optional
        Starting ordering passed as a hint.
    progress : callable, optional
        ``progress(elapsed, incumbent, bound)`` on each improving solution.

    Returns
    -------
    SolveResult

    Raises
    ------
    InputError
        Non-positive limits.
    ModelError
        CP-SAT reports MODEL_INVALID.

    Notes
    -----
    n^2 Boolean arc literals (plus 2n for the dummy node): memory and build time grow
    quadratically, which is the point of the comparison.
    """
    _check_limits(time_limit, workers)
    start = time.perf_counter()
    scorer = _Scorer(instance, build_hub_graph(instance))
    n = instance.n
    words = instance.words
    if n == 1:
        return _finish(
            instance=instance, proven=True, order=list(words), objective=0.0, bound=0.0,
            start=start, method="naive-circuit", info=_solver_info("cp-sat"), trace=[],
        )  # fmt: skip
    model = cp_model.CpModel()
    arcs: list[tuple[int, int, Any]] = []
    lit: dict[tuple[int, int], Any] = {}
    terms = []
    for i in range(n):
        for j in range(n):
            if i != j:
                v = model.new_bool_var("")
                lit[(i, j)] = v
                arcs.append((i, j, v))
                w = scorer.weight(i, j)
                if w:
                    terms.append(w * v)
    if not instance.cyclic:
        dummy = n
        for i in range(n):
            for a, b in ((dummy, i), (i, dummy)):
                v = model.new_bool_var("")
                lit[(a, b)] = v
                arcs.append((a, b, v))
    model.add_circuit(arcs)
    model.maximize(sum(terms))
    if hint is not None:
        items = scorer.items(hint)
        chosen = set(itertools.pairwise(items))
        if instance.cyclic:
            chosen.add((items[-1], items[0]))
        else:
            chosen |= {(n, items[0]), (items[-1], n)}
        for key, v in lit.items():
            model.add_hint(v, key in chosen)
    seconds = None if time_limit is None else time_limit - (time.perf_counter() - start)
    solver = _cpsat_solver(workers, seed, seconds, lp_first=False)
    cb = _TraceCallback(start, progress)
    code = solver.solve(model, cb)
    if code == cp_model.MODEL_INVALID:
        raise ModelError(f"CP-SAT rejected the naive circuit model: {model.validate()}")
    naive_interrupted = stopped_by_ctrl_c(solver, code)
    status = CPSAT_STATUS[code]
    order: list[str] | None = None
    objective: float | None = None
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        succ = {i: j for (i, j), v in lit.items() if solver.boolean_value(v)}
        node = n if not instance.cyclic else 0
        seq = []
        for _ in range(n + 1):
            if node < n:
                seq.append(node)
            node = succ[node]
            if len(seq) == n:
                break
        order = [words[i] for i in seq]
        objective = float(scorer.score_items(seq))
    info = _solver_info("cp-sat", formulation="complete-circuit", workers=workers, seed=seed,
                        arcs=len(arcs), time_limit=time_limit,
                        interrupted=naive_interrupted)  # fmt: skip
    return _finish(
        instance=instance, proven=status is Status.OPTIMAL, order=order, objective=objective,
        bound=None if order is None else _integral_bound(solver.best_objective_bound, None),
        start=start,
        method="naive-circuit", info=info, trace=cb.points,
    )  # fmt: skip
