"""CP-SAT models of the Wordsnake: the letter-hub cut loop, the routes path cover, a naive circuit.

* :func:`solve_hub_cpsat` — the letter-hub formulation and cut loop in CP-SAT.
* :func:`solve_routes_cpsat` — the path cover with CP-SAT's routes constraint over the positive
  arcs (no cut loop).
* :func:`solve_naive_circuit` — the deliberately naive baseline: one ``AddCircuit`` over the
  complete digraph (n^2 arc literals), kept for benchmarks and as a cross-check.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from cpwords.core.cpsat_status import Task, cpsat_status, new_solver
from cpwords.core.cpsat_stop import solve as solve_interruptibly
from cpwords.core.errors import ModelError
from cpwords.core.result import SolveResult, Status, TracePoint
from cpwords.wordsnake.models.common import (
    PreparedInstance,
    ProgressCallback,
    SolveContext,
    _check_limits,
    _finish,
    _integral_bound,
    _read_round,
    _Scorer,
    _solver_info,
    open_context,
    order_to_arcs,
)
from cpwords.wordsnake.models.letter_hub import DEPOT, HubGraph, entering_arcs
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score

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
    solver = new_solver(seconds, workers, seed)
    if lp_first:
        _lp_first_portfolio(solver, workers)
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
    info = _solver_info(
        "cp-sat", formulation="letter-hub", workers=workers, seed=seed, arcs=hg.m,
        nodes=hg.num_nodes, time_limit=time_limit,
    )  # fmt: skip
    built = _new_hub_model(hg, ctx)
    if isinstance(built, str):  # the incumbent (the hint) is the answer
        info["skipped"] = built
        return _finish(
            instance=instance, proven=False, order=ctx.best_order,
            objective=None if ctx.best is None else float(ctx.best), bound=None,
            start=ctx.start, method="cpsat", info=info, trace=[],
        )  # fmt: skip
    model, x = built
    outs, ins = hg.out_arcs(), hg.in_arcs()
    _add_hub_rows(model.proto, hg, outs, ins)
    loop = _hub_cut_loop(_HubModel(model, x, hg, ins, scorer), ctx, workers, seed, progress)
    info.update(rounds=loop.rounds, cuts=loop.cuts, interrupted=loop.interrupted)
    return _finish(
        instance=instance, proven=loop.proven, order=ctx.best_order,
        objective=None if ctx.best is None else float(ctx.best), bound=loop.bound,
        start=ctx.start, method="cpsat", info=info, trace=loop.trace,
    )  # fmt: skip


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
    scorer: _Scorer


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
        solver = _cpsat_solver(workers, seed, remaining)
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
    cb = _TraceCallback(ctx.start, progress)
    code, stopped = solve_interruptibly(solver, model, cb)
    status = cpsat_status(code, Task.OPTIMISE, model, "letter-hub model")
    loop.interrupted = loop.interrupted or stopped
    if status is Status.INFEASIBLE:  # pragma: no cover - the model always has a solution
        raise ModelError("the letter-hub model was reported infeasible")
    if status is Status.UNKNOWN:
        return None
    bound = loop.bound = _integral_bound(solver.best_objective_bound, loop.bound)
    chosen = np.array(list(solver.response_proto.solution)[: hg.m], dtype=bool)
    missing, order, value = _read_round(hg, chosen, scorer)
    if ctx.best is None or value > ctx.best:
        ctx.best, ctx.best_order = value, order
    loop.trace.append(TracePoint(time.perf_counter() - ctx.start, ctx.best, bound))
    return status, missing, bound


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


#: Seconds per arc to build the routes model and for CP-SAT to load it, before its own time
#: limit is read (measured on a shared 2-core machine: 3.96M arcs took 17 s to create the
#: variables and 16 s in a solve limited to 1 s). A limit shorter than this leaves the model
#: unbuilt: the answer is the starting incumbent.
ROUTES_SECONDS_PER_ARC = 8e-6


#: Seconds per byte of the explicit overlap graph's estimate
#: (:func:`~cpwords.wordsnake.models.common.explicit_graph_bytes`) to build it: 3,000 {a,b,c}
#: strings, estimated at 324 MB, took 4.2 s (13 ns a byte) on a shared 2-core machine.
GRAPH_SECONDS_PER_BYTE = 13e-9


def _graph_unfit(instance: WordsnakeInstance, left: float | None) -> str | None:
    """Why the explicit overlap graph cannot be built in ``left`` seconds or in memory, if so.

    Three words of 120,000 letters (7.2 GB of prefixes) reached the routes model as the default
    method's fallback and ended in a MemoryError after 15-21 s under a 1 s limit.
    """
    from cpwords.core.machine import available_memory
    from cpwords.wordsnake.models.common import explicit_graph_bytes

    # The prefixes of the longest word alone, as strings, are a lower bound (O(1) to compute;
    # the full estimate builds a trie: 4.8 s on three words of 120,000 letters).
    longest = max(len(w) for w in instance.words)
    need = longest * (longest + 1) // 2
    if need <= 0.8 * available_memory() and (left is None or GRAPH_SECONDS_PER_BYTE * need <= left):
        need = explicit_graph_bytes(instance, 1)
    if need > 0.8 * available_memory():
        return f"the explicit overlap graph (about {need / 2**30:,.1f} GiB) does not fit in memory"
    if left is not None and GRAPH_SECONDS_PER_BYTE * need > left:
        return (
            f"the explicit overlap graph would take about {GRAPH_SECONDS_PER_BYTE * need:,.0f} s "
            f"to build, more than the {left:.1f} s left"
        )
    return None


def solve_routes_cpsat(
    instance: WordsnakeInstance,
    *,
    time_limit: float | None = 60.0,
    workers: int = 2,
    seed: int = 0,
    hint: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
    prepared: PreparedInstance | None = None,
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
    info = _solver_info("cp-sat", formulation="routes-path-cover", workers=workers, seed=seed)
    if instance.n > 1 and (prepared is None or "graph" not in vars(prepared)):
        # Will the explicit overlap graph fit in time and memory? (Asked before anything is
        # built: scoring the hint builds the graph of overlaps >= 2, quadratic in a word's
        # length too.)
        skipped = _routes_without_graph(instance, time_limit, workers, hint, info)
        if skipped is not None:
            return skipped
    ctx = open_context(
        instance, time_limit=time_limit, workers=workers, hint=hint, prepared=prepared
    )
    scorer = ctx.prepared.scorer  # the letter-hub graph is built here, before the overlap graph
    if instance.n == 1:
        return _finish(
            instance=instance, proven=True, order=list(instance.words), objective=0.0,
            bound=0.0, start=ctx.start, method="cpsat-routes", info=info, trace=[],
        )  # fmt: skip
    run = _routes_run(instance, ctx, scorer, info)
    built = _build_routes_model(run)
    if isinstance(built, str):  # the incumbent (the hint) is the answer
        info["skipped"] = built
        return run.finish(False, None)
    status, pc_bound = _solve_path_cover(run, *built, workers, seed, progress)
    pc_proven = status is Status.OPTIMAL
    if not instance.cyclic or info.get("interrupted"):
        return run.finish(pc_proven, pc_bound)
    if pc_bound is None:  # phase 1 found nothing: no bound to build on
        return run.finish(False, None)
    proven, bound = _positive_cycle_phase(run, pc_bound, pc_proven, workers, seed)
    return run.finish(proven, bound)


def _routes_without_graph(
    instance: WordsnakeInstance,
    time_limit: float | None,
    workers: int,
    hint: Sequence[str] | None,
    info: dict[str, Any],
) -> SolveResult | None:
    """The hint as the answer when the explicit overlap graph does not fit (None when it does)."""
    _check_limits(time_limit, workers)
    t0 = time.perf_counter()
    reason = _graph_unfit(instance, time_limit)
    if reason is None:
        return None
    info["skipped"] = reason
    order = None if hint is None else list(hint)
    value = (
        None
        if order is None
        else snake_score(order, instance.cyclic, instance.proper, instance.score)
    )
    return _finish(
        instance=instance, proven=False, order=order, objective=value, bound=None,
        start=t0, method="cpsat-routes", info=info, trace=[],
    )  # fmt: skip


@dataclass
class _RoutesRun:
    """One routes solve: the instance, its clock and incumbent (``ctx``), the arcs and the trace.

    ``tails``, ``heads``, ``weights`` are the positive-overlap arcs (item ids); routes-model arc
    ``k`` joins node ``arc_tail[k]`` to ``arc_head[k]`` (depot 0, item ``i`` is node ``i + 1``).
    """

    instance: WordsnakeInstance
    ctx: SolveContext
    scorer: _Scorer
    info: dict[str, Any]
    tails: list[int]
    heads: list[int]
    weights: list[int]
    arc_tail: list[int]
    arc_head: list[int]
    trace: list[TracePoint] = field(default_factory=list)

    def offer(self, items: list[int]) -> None:
        """Keep the ordering of these items if it beats the incumbent."""
        order = [self.instance.words[i] for i in items]
        value = self.scorer.score_items(items)
        if self.ctx.best is None or value > self.ctx.best:
            self.ctx.best, self.ctx.best_order = value, order

    def finish(self, proven: bool, bound: float | None) -> SolveResult:
        """The result: the incumbent with this bound."""
        best = self.ctx.best
        return _finish(
            instance=self.instance, proven=proven, order=self.ctx.best_order,
            objective=None if best is None else float(best), bound=bound, start=self.ctx.start,
            method="cpsat-routes", info=self.info, trace=self.trace,
        )  # fmt: skip


def _routes_run(
    instance: WordsnakeInstance, ctx: SolveContext, scorer: _Scorer, info: dict[str, Any]
) -> _RoutesRun:
    """The arcs of the routes model, read from the explicit overlap graph."""
    n = instance.n
    g = ctx.prepared.graph
    tails, heads, weights = g.tail.tolist(), g.head.tolist(), g.weight.tolist()
    info["arcs"] = g.m + 2 * n
    # Phase 1: maximum-weight path cover. Arc k joins arc_tail[k] -> arc_head[k] (depot 0,
    # item i is node i + 1): n arcs from the depot, n to it, then the positive-overlap arcs.
    arc_tail = [0] * n + list(range(1, n + 1)) + [t + 1 for t in tails]
    arc_head = list(range(1, n + 1)) + [0] * n + [h + 1 for h in heads]
    return _RoutesRun(instance, ctx, scorer, info, tails, heads, weights, arc_tail, arc_head)


def _build_routes_model(run: _RoutesRun) -> tuple[cp_model.CpModel, list[Any]] | str:
    """The routes model and its arc literals, or why it cannot be built and loaded in time."""
    ctx = run.ctx
    arcs = len(run.arc_tail)
    left = ctx.remaining()
    need = ROUTES_SECONDS_PER_ARC * arcs
    if left is not None and need > left:
        return (
            f"the routes model of {arcs:,} arcs would take about {need:.0f} s to build and load, "
            f"more than the {left:.1f} s left"
        )
    deadline = ctx.deadline
    model = cp_model.CpModel()
    lits = []
    for k in range(arcs):
        if not k & 0xFFFF and deadline is not None and time.perf_counter() > deadline:
            return f"the time limit passed while building the routes model ({arcs:,} arcs)"
        lits.append(model.new_bool_var(""))
    _fill_routes_proto(run, model, lits)
    return model, lits


def _fill_routes_proto(run: _RoutesRun, model: cp_model.CpModel, lits: list[Any]) -> None:
    """The routes constraint, the objective and the incumbent's hint, written into the proto."""
    # The constraint, objective and hint go into the model's proto in bulk (one Python object per
    # arc fewer: on 3.96M arcs the objective alone took 29 s as a weighted sum).
    n = run.instance.n
    arc_tail, arc_head = run.arc_tail, run.arc_head
    proto = model.proto
    routes = proto.constraints.add().routes  # = add_multiple_circuit
    routes.tails.extend(arc_tail)
    routes.heads.extend(arc_head)
    routes.literals.extend(v.index for v in lits)
    proto.objective.vars.extend(v.index for v in lits[2 * n :])
    proto.objective.coeffs.extend(-w for w in run.weights)  # maximise: negated, scaling -1
    proto.objective.scaling_factor = -1.0
    best_order = run.ctx.best_order
    if best_order is not None:
        chosen = _path_cover_hint(run.scorer.items(best_order), run.scorer.weight)
        proto.solution_hint.vars.extend(v.index for v in lits)
        proto.solution_hint.values.extend(
            int((a, b) in chosen) for a, b in zip(arc_tail, arc_head, strict=True)
        )


def _solve_path_cover(
    run: _RoutesRun,
    model: cp_model.CpModel,
    lits: list[Any],
    workers: int,
    seed: int,
    progress: ProgressCallback | None,
) -> tuple[Status, float | None]:
    """Phase 1: solve the routes model; its status and bound (None without a solution)."""
    left = run.ctx.remaining()
    # CP-SAT reads its own limit only once the model is loaded: keep the load's time
    solver = _cpsat_solver(
        workers,
        seed,
        None if left is None else max(0.01, left - CPSAT_LOAD_SECONDS_PER_ARC * len(run.arc_tail)),
    )
    cb = _TraceCallback(run.ctx.start, progress)
    code, stopped = solve_interruptibly(solver, model, cb)
    status = cpsat_status(code, Task.OPTIMISE, model, "routes model")
    if stopped:
        run.info["interrupted"] = True
    run.trace = list(cb.points)
    pc_bound: float | None = None
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        pc_bound = _integral_bound(solver.best_objective_bound, None)
        run.offer(_read_path_cover(solver, lits, run))
    return status, pc_bound


def _read_path_cover(solver: cp_model.CpSolver, lits: list[Any], run: _RoutesRun) -> list[int]:
    """The items of the solver's path cover, path after path (in the order of their starts)."""
    succ = {}
    items = []
    for a, b, v in zip(run.arc_tail, run.arc_head, lits, strict=True):
        if a and solver.boolean_value(v):
            succ[a] = b
    for k in range(run.instance.n):  # the arcs leaving the depot, in node order
        if solver.boolean_value(lits[k]):
            node = run.arc_head[k]
            while node != 0:
                items.append(node - 1)
                node = succ[node]
    return items


def _positive_cycle_phase(
    run: _RoutesRun, pc_bound: float, pc_proven: bool, workers: int, seed: int
) -> tuple[bool, float]:
    """Phase 2 (cyclic): a Hamiltonian cycle of positive arcs scoring above the incumbent?

    Returns (proven, bound). Without one, max(PC*, HC*) <= incumbent. A positive Hamiltonian
    cycle minus its lightest arc is a path cover, so HC* <= PC* + (heaviest arc) bounds the
    answer when phase 2 stops.
    """
    bound = pc_bound + max(run.weights, default=0)
    ctx, n, best = run.ctx, run.instance.n, run.ctx.best
    # add_circuit only knows the nodes its arcs mention: a word without a positive arc in or out
    # cannot lie on a positive Hamiltonian cycle, so then there is none.
    if best is not None and (set(run.tails) != set(range(n)) or set(run.heads) != set(range(n))):
        return pc_proven, max(pc_bound, float(best))
    if best is not None and (ctx.deadline is None or (ctx.remaining() or 0) > 0):
        return _solve_positive_cycle(run, best, pc_bound, pc_proven, bound, workers, seed)
    return False, bound


def _solve_positive_cycle(
    run: _RoutesRun,
    best: int,
    pc_bound: float,
    pc_proven: bool,
    bound: float,
    workers: int,
    seed: int,
) -> tuple[bool, float]:
    """Look for a positive Hamiltonian cycle scoring above ``best``: (proven, bound)."""
    cyc = cp_model.CpModel()
    arc_vars = [(t, h, cyc.new_bool_var("")) for t, h in zip(run.tails, run.heads, strict=True)]
    cyc.add_circuit(arc_vars)
    cyc.add(sum(w * v for (_, _, v), w in zip(arc_vars, run.weights, strict=True)) >= best + 1)
    cyc.maximize(sum(w * v for (_, _, v), w in zip(arc_vars, run.weights, strict=True)))
    solver2 = _cpsat_solver(workers, seed, run.ctx.remaining())
    code2, stopped2 = solve_interruptibly(solver2, cyc)
    status2 = cpsat_status(code2, Task.OPTIMISE, cyc, "positive-cycle model")
    if stopped2:
        run.info["interrupted"] = True
    proven = False
    if status2 is Status.INFEASIBLE:
        proven = pc_proven
        bound = max(pc_bound, float(best))
    elif status2 in (Status.OPTIMAL, Status.FEASIBLE):
        succ2 = {t: h for t, h, v in arc_vars if solver2.boolean_value(v)}
        node, items = 0, []
        for _ in range(run.instance.n):
            items.append(node)
            node = succ2[node]
        run.offer(items)
        hc_bound = _integral_bound(solver2.best_objective_bound, None)
        bound = max(pc_bound, hc_bound)
        proven = pc_proven and status2 is Status.OPTIMAL
    run.info["cycle_phase"] = status2.value  # UNKNOWN keeps the bound PC* + heaviest arc
    return proven, bound


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
    start, scorer = ctx.start, ctx.prepared.scorer
    n = instance.n
    words = instance.words
    if n == 1:
        return _finish(
            instance=instance, proven=True, order=list(words), objective=0.0, bound=0.0,
            start=start, method="naive-circuit", info=_solver_info("cp-sat"), trace=[],
        )  # fmt: skip
    built = _build_naive_model(instance, scorer, ctx.deadline)
    if isinstance(built, int):
        info = _solver_info("cp-sat", formulation="complete-circuit", workers=workers,
                            seed=seed, time_limit=time_limit, built_rows=built)  # fmt: skip
        info["reason"] = (
            f"the time limit does not leave time to build the model ({built} of {n} rows built)"
        )
        return _finish(
            instance=instance, proven=False, order=None, objective=None, bound=None,
            start=start, method="naive-circuit", info=info, trace=[],
        )  # fmt: skip
    model, arcs, lit = built
    if hint is not None:
        _hint_naive_circuit(model, lit, scorer.items(hint), n, instance.cyclic)
    seconds = None if time_limit is None else time_limit - (time.perf_counter() - start)
    solver = _cpsat_solver(workers, seed, seconds, lp_first=False)
    cb = _TraceCallback(start, progress)
    code, naive_interrupted = solve_interruptibly(solver, model, cb)
    status = cpsat_status(code, Task.OPTIMISE, model, "naive circuit model")
    order: list[str] | None = None
    objective: float | None = None
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        seq = _read_naive_circuit(solver, lit, n, instance.cyclic)
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


def _build_naive_model(
    instance: WordsnakeInstance, scorer: _Scorer, deadline: float | None
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
