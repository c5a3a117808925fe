"""The path cover with CP-SAT's multiple-circuit (routes) constraint over the positive arcs of the
overlap graph: an exact model of small lists (``cpsat-routes``), and the default method's stage
"routes" on lists whose core is too large for the core search.

Formulation card: ``models/wordsnake.md``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from cpwords.core.cpsat_status import Task, cpsat_status
from cpwords.core.cpsat_stop import solve as solve_interruptibly
from cpwords.core.result import SolveResult, Status, TracePoint
from cpwords.wordsnake.formulations.common import (
    PreparedInstance,
    ProgressCallback,
    Scorer,
    SolveContext,
    backend_info,
    check_limits,
    finish_result,
    integral_bound,
    one_word_result,
    open_context,
)
from cpwords.wordsnake.formulations.cpsat import (
    CPSAT_LOAD_SECONDS_PER_ARC,
    TraceCallback,
    cpsat_solver,
)
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score


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
#: (:func:`~cpwords.wordsnake.formulations.common.explicit_graph_bytes`) to build it: 3,000 {a,b,c}
#: strings, estimated at 324 MB, took 4.2 s (13 ns a byte) on a shared 2-core machine.
GRAPH_SECONDS_PER_BYTE = 13e-9


def _graph_unfit(instance: WordsnakeInstance, left: float | None) -> str | None:
    """Why the explicit overlap graph cannot be built in ``left`` seconds or in memory, if so.

    Three words of 120,000 letters (7.2 GB of prefixes) reached the routes model as the default
    method's fallback and ended in a MemoryError after 15-21 s under a 1 s limit.
    """
    from cpwords.core.machine import available_memory
    from cpwords.wordsnake.formulations.common import explicit_graph_bytes

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
    info = backend_info("cp-sat", formulation="routes-path-cover", workers=workers, seed=seed)
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
        return one_word_result(instance, ctx.start, "cpsat-routes", info)
    return _solve_routes(_routes_run(instance, ctx, scorer, info), workers, seed, progress)


def _solve_routes(
    run: _RoutesRun, workers: int, seed: int, progress: ProgressCallback | None
) -> SolveResult:
    """Phase 1, the path cover; then, for a cyclic snake, phase 2: a positive cycle."""
    built = _build_routes_model(run)
    if isinstance(built, str):  # the incumbent (the hint) is the answer
        run.info["skipped"] = built
        return run.finish(False, None)
    status, pc_bound = _solve_path_cover(run, *built, workers, seed, progress)
    pc_proven = status is Status.OPTIMAL
    if not run.instance.cyclic or run.info.get("interrupted"):
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
    check_limits(time_limit, workers)
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
    return finish_result(
        instance=instance,
        proven=False,
        order=order,
        objective=value,
        bound=None,
        start=t0,
        method="cpsat-routes",
        info=info,
        trace=[],
    )


@dataclass
class _RoutesRun:
    """One routes solve: the instance, its clock and incumbent (``ctx``), the arcs and the trace.

    ``tails``, ``heads``, ``weights`` are the positive-overlap arcs (item ids); routes-model arc
    ``k`` joins node ``arc_tail[k]`` to ``arc_head[k]`` (depot 0, item ``i`` is node ``i + 1``).
    """

    instance: WordsnakeInstance
    ctx: SolveContext
    scorer: Scorer
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
        return finish_result(
            instance=self.instance,
            proven=proven,
            order=self.ctx.best_order,
            objective=None if best is None else float(best),
            bound=bound,
            start=self.ctx.start,
            method="cpsat-routes",
            info=self.info,
            trace=self.trace,
        )


def _routes_run(
    instance: WordsnakeInstance, ctx: SolveContext, scorer: Scorer, info: dict[str, Any]
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
    solver = cpsat_solver(
        workers,
        seed,
        None if left is None else max(0.01, left - CPSAT_LOAD_SECONDS_PER_ARC * len(run.arc_tail)),
    )
    cb = TraceCallback(run.ctx.start, progress)
    code, stopped = solve_interruptibly(solver, model, cb)
    status = cpsat_status(code, Task.OPTIMISE, model, "routes model")
    if stopped:
        run.info["interrupted"] = True
    run.trace = list(cb.points)
    pc_bound: float | None = None
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        pc_bound = integral_bound(solver.best_objective_bound, None)
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
    solver2 = cpsat_solver(workers, seed, run.ctx.remaining())
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
        hc_bound = integral_bound(solver2.best_objective_bound, None)
        bound = max(pc_bound, hc_bound)
        proven = pc_proven and status2 is Status.OPTIMAL
    run.info["cycle_phase"] = status2.value  # UNKNOWN keeps the bound PC* + heaviest arc
    return proven, bound
