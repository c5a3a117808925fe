"""CP-SAT models of the Wordsnake: the letter-hub cut loop and a naive circuit (the routes path
cover is :mod:`~cpwords.wordsnake.formulations.routes`).

* :func:`solve_hub_cpsat` — the letter-hub formulation and cut loop in CP-SAT.
* :func:`solve_naive_circuit` — the deliberately naive baseline: one ``AddCircuit`` over the
  complete digraph (n^2 arc literals), kept for benchmarks and as a cross-check.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from cpwords.core.cpsat_status import Task, cpsat_status, new_solver
from cpwords.core.cpsat_stop import solve as solve_interruptibly
from cpwords.core.errors import ModelError
from cpwords.core.result import SolveResult, Status, TracePoint
from cpwords.wordsnake.formulations.common import (
    PreparedInstance,
    ProgressCallback,
    Scorer,
    SolveContext,
    backend_info,
    finish_result,
    hub_info,
    integral_bound,
    one_word_result,
    open_context,
    order_to_arcs,
    read_round,
)
from cpwords.wordsnake.formulations.letter_hub import DEPOT, HubGraph, entering_arcs
from cpwords.wordsnake.rules import WordsnakeInstance

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


def cpsat_solver(
    workers: int, seed: int, seconds: float | None, lp_first: bool = True
) -> cp_model.CpSolver:
    """A CP-SAT solver with our worker portfolio, seed and time limit (None: no limit)."""
    solver = new_solver(seconds, workers, seed)
    if lp_first:
        _lp_first_portfolio(solver, workers)
    return solver


class TraceCallback(cp_model.CpSolverSolutionCallback):
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


#: Seconds per arc CP-SAT takes to load a model before it reads its time limit (a solve limited
#: to 1 s took 16 s on 3.96M arcs; a letter-hub solve of 1.19M arcs ended 4.2 s past a 30 s
#: limit): subtracted from the limit it is given.
CPSAT_LOAD_SECONDS_PER_ARC = 4e-6

#: Seconds per arc to build the letter-hub model and for CP-SAT to load it (ENABLE, 20,000
#: words: 1.13M arcs; measured on a shared 2-core machine). A limit shorter than this leaves
#: the model unbuilt: the answer is the starting incumbent.
HUB_SECONDS_PER_ARC = 8e-6


def solve_hub_cpsat(
    instance: WordsnakeInstance,
    *,
    time_limit: float | None = 60.0,
    workers: int = 2,
    seed: int = 0,
    hint: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
    prepared: PreparedInstance | None = None,
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
    prepared : PreparedInstance, optional
        Overlap and hub graphs already built for this instance in the same solve.

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
    ctx = open_context(
        instance, time_limit=time_limit, workers=workers, hint=hint, prepared=prepared
    )
    hg, scorer = ctx.prepared.hub, ctx.prepared.scorer
    info = hub_info("cp-sat", hg, workers, seed, time_limit)
    built = _new_hub_model(hg, ctx)
    if isinstance(built, str):  # the incumbent (the hint) is the answer
        info["skipped"] = built
        return _hub_result(instance, ctx, info, _HubLoop())
    model, x = built
    outs, ins = hg.out_arcs(), hg.in_arcs()
    _add_hub_rows(model.proto, hg, outs, ins)
    loop = _hub_cut_loop(_HubModel(model, x, hg, ins, scorer), ctx, workers, seed, progress)
    info.update(rounds=loop.rounds, cuts=loop.cuts, interrupted=loop.interrupted)
    return _hub_result(instance, ctx, info, loop)


def _hub_result(
    instance: WordsnakeInstance, ctx: SolveContext, info: dict[str, Any], loop: _HubLoop
) -> SolveResult:
    """The letter-hub model's result: the incumbent, with the cut loop's bound and trace."""
    return finish_result(
        instance=instance,
        proven=loop.proven,
        order=ctx.best_order,
        objective=None if ctx.best is None else float(ctx.best),
        bound=loop.bound,
        start=ctx.start,
        method="cpsat",
        info=info,
        trace=loop.trace,
    )


def _new_hub_model(hg: HubGraph, ctx: SolveContext) -> tuple[cp_model.CpModel, list[Any]] | str:
    """A model with one Boolean per letter-hub arc, or why it cannot be built in time."""
    deadline = ctx.deadline
    left = ctx.remaining()
    need = HUB_SECONDS_PER_ARC * hg.m
    unbuilt = None
    if left is not None and need > left:
        unbuilt = (
            f"the letter-hub model of {hg.m:,} arcs would take about {need:.0f} s to build and "
            f"load, more than the {left:.1f} s left"
        )
    model = cp_model.CpModel()
    x = []
    for a in range(hg.m if unbuilt is None else 0):
        if not a & 0xFFFF and deadline is not None and time.perf_counter() > deadline:
            unbuilt = f"the time limit passed while building the letter-hub model ({hg.m:,} arcs)"
            break
        x.append(model.new_bool_var(""))
    if unbuilt is not None:
        return unbuilt
    return model, x


def _add_linear(proto: Any, terms: dict[int, int], lo: int, hi: int) -> None:
    """Add ``lo <= sum(c * x[a] for a, c in terms) <= hi`` to the model's proto."""
    ct = proto.constraints.add().linear
    ct.vars.extend([int(a) for a in terms])
    ct.coeffs.extend([int(c) for c in terms.values()])
    ct.domain.extend([lo, hi])


def _add_hub_rows(proto: Any, hg: HubGraph, outs: list[Any], ins: list[Any]) -> None:
    """Degree rows at the words, balance at the hubs and the depot, and the objective."""
    # Flow conservation and the objective go into the proto in bulk (as Python expressions, the
    # objective of 1.13M arcs took 8 s and the node sums 6 s, past a 5 s limit).
    for v in range(hg.num_nodes):
        if 1 <= v <= hg.n:
            _add_linear(proto, dict.fromkeys(outs[v], 1), 1, 1)
            _add_linear(proto, dict.fromkeys(ins[v], 1), 1, 1)
        else:
            net = dict.fromkeys(outs[v], 1)
            for a in ins[v]:
                net[a] = net.get(a, 0) - 1
            _add_linear(proto, {a: c for a, c in net.items() if c}, 0, 0)
    if not hg.cyclic:
        _add_linear(proto, dict.fromkeys(outs[DEPOT], 1), 1, len(outs[DEPOT]))
    weights = hg.weight.tolist()
    proto.objective.vars.extend([a for a, w in enumerate(weights) if w])
    proto.objective.coeffs.extend([-w for w in weights if w])  # maximise: negated, scaling -1
    proto.objective.scaling_factor = -1.0


@dataclass
class _HubModel:
    """The letter-hub CP-SAT model with its arc Booleans ``x``, graph, in-arcs and scorer."""

    model: cp_model.CpModel
    x: list[Any]
    hg: HubGraph
    ins: list[Any]
    scorer: Scorer


@dataclass
class _HubLoop:
    """The letter-hub cut loop's bound, trace and counts (the incumbent is in the context)."""

    bound: float | None = None
    trace: list[TracePoint] = field(default_factory=list)
    proven: bool = False
    interrupted: bool = False
    rounds: int = 0
    cuts: int = 0


def _hub_cut_loop(
    hm: _HubModel,
    ctx: SolveContext,
    workers: int,
    seed: int,
    progress: ProgressCallback | None,
) -> _HubLoop:
    """Solve, cut off the components that miss the root, and solve again until proven or stopped."""
    loop = _HubLoop()
    deadline = ctx.deadline
    load = CPSAT_LOAD_SECONDS_PER_ARC * hm.hg.m
    while True:
        # CP-SAT reads its own limit only once the model is loaded: keep the load's time
        remaining = None if deadline is None else deadline - time.perf_counter() - load
        if remaining is not None and remaining <= 0:
            break
        solver = cpsat_solver(workers, seed, remaining)
        found = _hub_round(hm, solver, ctx, loop, progress)
        if found is None:
            break  # no solution, and CP-SAT's objective bound is then not to be trusted
        status, missing, bound = found
        if status is Status.OPTIMAL and not missing:
            loop.proven = True
            break
        if ctx.best is not None and ctx.best >= bound:
            loop.proven = True
            break
        if (status is Status.FEASIBLE and not missing) or loop.interrupted:
            break
        for comp in missing:
            hm.model.add(sum(hm.x[a] for a in entering_arcs(hm.hg, comp, hm.ins)) >= 1)
            loop.cuts += 1
    return loop


def _hub_round(
    hm: _HubModel,
    solver: cp_model.CpSolver,
    ctx: SolveContext,
    loop: _HubLoop,
    progress: ProgressCallback | None,
) -> tuple[Status, list[list[int]], float] | None:
    """One solve hinted with the best ordering: (status, components missing the root, bound).

    None when CP-SAT found no solution.
    """
    model, hg, scorer = hm.model, hm.hg, hm.scorer
    model.clear_hints()
    if ctx.best_order is not None:
        use = order_to_arcs(hg, scorer.items(ctx.best_order), scorer)
        model.proto.solution_hint.vars.extend(list(range(hg.m)))
        model.proto.solution_hint.values.extend([int(u) for u in use.tolist()])
    loop.rounds += 1
    cb = TraceCallback(ctx.start, progress)
    code, stopped = solve_interruptibly(solver, model, cb)
    status = cpsat_status(code, Task.OPTIMISE, model, "letter-hub model")
    loop.interrupted = loop.interrupted or stopped
    if status is Status.INFEASIBLE:  # pragma: no cover - the model always has a solution
        raise ModelError("the letter-hub model was reported infeasible")
    if status is Status.UNKNOWN:
        return None
    bound = loop.bound = integral_bound(solver.best_objective_bound, loop.bound)
    chosen = np.array(list(solver.response_proto.solution)[: hg.m], dtype=bool)
    missing, order, value = read_round(hg, chosen, scorer)
    if ctx.best is None or value > ctx.best:
        ctx.best, ctx.best_order = value, order
    loop.trace.append(TracePoint(time.perf_counter() - ctx.start, ctx.best, bound))
    return status, missing, bound


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
    prepared: PreparedInstance | None = None,
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
    prepared : PreparedInstance, optional
        Overlap and hub graphs already built for this instance in the same solve.

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
    ctx = open_context(instance, time_limit=time_limit, workers=workers, prepared=prepared)
    if instance.n == 1:
        return one_word_result(instance, ctx.start, "naive-circuit", backend_info("cp-sat"))
    built = _build_naive_model(instance, ctx.prepared.scorer, ctx.deadline)
    if isinstance(built, int):
        return _naive_unbuilt(instance, ctx, built, workers, seed)
    return _solve_naive_model(instance, ctx, built, hint, workers, seed, progress)


def _naive_unbuilt(
    instance: WordsnakeInstance, ctx: SolveContext, rows: int, workers: int, seed: int
) -> SolveResult:
    """No answer: the time limit leaves no time to build the naive model (``rows`` of its rows
    were built)."""
    info = backend_info(
        "cp-sat",
        formulation="complete-circuit",
        workers=workers,
        seed=seed,
        time_limit=ctx.time_limit,
        built_rows=rows,
    )
    info["reason"] = (
        f"the time limit does not leave time to build the model ({rows} of {instance.n} rows built)"
    )
    return finish_result(
        instance=instance,
        proven=False,
        order=None,
        objective=None,
        bound=None,
        start=ctx.start,
        method="naive-circuit",
        info=info,
        trace=[],
    )


def _solve_naive_model(
    instance: WordsnakeInstance,
    ctx: SolveContext,
    built: tuple[cp_model.CpModel, list[tuple[int, int, Any]], dict[tuple[int, int], Any]],
    hint: Sequence[str] | None,
    workers: int,
    seed: int,
    progress: ProgressCallback | None,
) -> SolveResult:
    """Hint the naive model with ``hint``, solve it in the time left, and read its circuit."""
    model, arcs, lit = built
    start, scorer, time_limit = ctx.start, ctx.prepared.scorer, ctx.time_limit
    n = instance.n
    if hint is not None:
        _hint_naive_circuit(model, lit, scorer.items(hint), n, instance.cyclic)
    seconds = None if time_limit is None else time_limit - (time.perf_counter() - start)
    solver = cpsat_solver(workers, seed, seconds, lp_first=False)
    cb = TraceCallback(start, progress)
    code, naive_interrupted = solve_interruptibly(solver, model, cb)
    status = cpsat_status(code, Task.OPTIMISE, model, "naive circuit model")
    order: list[str] | None = None
    objective: float | None = None
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        seq = _read_naive_circuit(solver, lit, n, instance.cyclic)
        order = [instance.words[i] for i in seq]
        objective = float(scorer.score_items(seq))
    info = backend_info(
        "cp-sat",
        formulation="complete-circuit",
        workers=workers,
        seed=seed,
        arcs=len(arcs),
        time_limit=time_limit,
        interrupted=naive_interrupted,
    )
    return finish_result(
        instance=instance,
        proven=status is Status.OPTIMAL,
        order=order,
        objective=objective,
        bound=None if order is None else integral_bound(solver.best_objective_bound, None),
        start=start,
        method="naive-circuit",
        info=info,
        trace=cb.points,
    )


def _build_naive_model(
    instance: WordsnakeInstance, scorer: Scorer, deadline: float | None
) -> tuple[cp_model.CpModel, list[tuple[int, int, Any]], dict[tuple[int, int], Any]] | int:
    """The complete-digraph circuit model (arcs, literals by pair), or the rows built in time.

    A linear snake's circuit is closed by a dummy node ``n``.
    """
    n = instance.n
    model = cp_model.CpModel()
    arcs: list[tuple[int, int, Any]] = []
    lit: dict[tuple[int, int], Any] = {}
    terms = []
    build_start = time.perf_counter()
    for i in range(n):
        now = time.perf_counter()
        # The n^2 model is the point of this baseline, but the limit is kept: when the rows
        # built so far say that the model cannot be built and loaded in time, stop (no answer).
        # CP-SAT takes about as long again to load it before its own limit applies (1,000
        # words: 1M literals built in 3.0 s, then a 2 s CP-SAT limit returned after 3.1 s).
        projected = build_start + 2 * (now - build_start) * n / i if i >= 10 else now
        if deadline is not None and projected >= deadline:
            return i
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
    return model, arcs, lit


def _hint_naive_circuit(
    model: cp_model.CpModel,
    lit: dict[tuple[int, int], Any],
    items: list[int],
    n: int,
    cyclic: bool,
) -> None:
    """Hint every arc literal: true exactly on the arcs of the ordering ``items``."""
    chosen = set(itertools.pairwise(items))
    if cyclic:
        chosen.add((items[-1], items[0]))
    else:
        chosen |= {(n, items[0]), (items[-1], n)}
    for key, v in lit.items():
        model.add_hint(v, key in chosen)


def _read_naive_circuit(
    solver: cp_model.CpSolver, lit: dict[tuple[int, int], Any], n: int, cyclic: bool
) -> list[int]:
    """The items in the order of the solver's circuit (from the dummy node when linear)."""
    succ = {i: j for (i, j), v in lit.items() if solver.boolean_value(v)}
    node = n if not cyclic else 0
    seq = []
    for _ in range(n + 1):
        if node < n:
            seq.append(node)
        node = succ[node]
        if len(seq) == n:
            break
    return seq
