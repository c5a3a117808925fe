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
    _check_limits,
    _finish,
    _integral_bound,
    _read_round,
    _solver_info,
    open_context,
    order_to_arcs,
)
from cpwords.wordsnake.models.letter_hub import DEPOT, entering_arcs
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
    start, deadline = ctx.start, ctx.deadline
    hg, scorer = ctx.prepared.hub, ctx.prepared.scorer
    info = _solver_info(
        "cp-sat", formulation="letter-hub", workers=workers, seed=seed, arcs=hg.m,
        nodes=hg.num_nodes, time_limit=time_limit,
    )  # fmt: skip
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
    if unbuilt is not None:  # the incumbent (the hint) is the answer
        info["skipped"] = unbuilt
        return _finish(
            instance=instance, proven=False, order=ctx.best_order,
            objective=None if ctx.best is None else float(ctx.best), bound=None, start=start,
            method="cpsat", info=info, trace=[],
        )  # fmt: skip
    # Flow conservation and the objective go into the proto in bulk (as Python expressions, the
    # objective of 1.13M arcs took 8 s and the node sums 6 s, past a 5 s limit).
    proto = model.proto
    outs, ins = hg.out_arcs(), hg.in_arcs()

    def linear(terms: dict[int, int], lo: int, hi: int) -> None:
        ct = proto.constraints.add().linear
        ct.vars.extend([int(a) for a in terms])
        ct.coeffs.extend([int(c) for c in terms.values()])
        ct.domain.extend([lo, hi])

    for v in range(hg.num_nodes):
        if 1 <= v <= hg.n:
            linear(dict.fromkeys(outs[v], 1), 1, 1)
            linear(dict.fromkeys(ins[v], 1), 1, 1)
        else:
            net = dict.fromkeys(outs[v], 1)
            for a in ins[v]:
                net[a] = net.get(a, 0) - 1
            linear({a: c for a, c in net.items() if c}, 0, 0)
    if not hg.cyclic:
        linear(dict.fromkeys(outs[DEPOT], 1), 1, len(outs[DEPOT]))
    weights = hg.weight.tolist()
    proto.objective.vars.extend([a for a, w in enumerate(weights) if w])
    proto.objective.coeffs.extend([-w for w in weights if w])  # maximise: negated, scaling -1
    proto.objective.scaling_factor = -1.0

    best_order, best = ctx.best_order, ctx.best
    bound: float | None = None
    trace: list[TracePoint] = []
    proven = interrupted = False
    rounds = cuts = 0
    load = CPSAT_LOAD_SECONDS_PER_ARC * hg.m
    while True:
        # CP-SAT reads its own limit only once the model is loaded: keep the load's time
        remaining = None if deadline is None else deadline - time.perf_counter() - load
        if remaining is not None and remaining <= 0:
            break
        solver = _cpsat_solver(workers, seed, remaining)
        model.clear_hints()
        if best_order is not None:
            use = order_to_arcs(hg, scorer.items(best_order), scorer)
            proto.solution_hint.vars.extend(list(range(hg.m)))
            proto.solution_hint.values.extend([int(u) for u in use.tolist()])
        rounds += 1
        cb = _TraceCallback(start, progress)
        code, stopped = solve_interruptibly(solver, model, cb)
        status = cpsat_status(code, Task.OPTIMISE, model, "letter-hub model")
        interrupted = interrupted or stopped
        if status is Status.INFEASIBLE:  # pragma: no cover - the model always has a solution
            raise ModelError("the letter-hub model was reported infeasible")
        if status is Status.UNKNOWN:
            break  # no solution, and CP-SAT's objective bound is then not to be trusted
        bound = _integral_bound(solver.best_objective_bound, bound)
        chosen = np.array(list(solver.response_proto.solution)[: hg.m], dtype=bool)
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
            model.add(sum(x[a] for a in entering_arcs(hg, comp, ins)) >= 1)
            cuts += 1
    info.update(rounds=rounds, cuts=cuts, interrupted=interrupted)
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
        _check_limits(time_limit, workers)
        t0 = time.perf_counter()
        reason = _graph_unfit(instance, time_limit)
        if reason is not None:
            info["skipped"] = reason
            order = None if hint is None else list(hint)
            value = None if order is None else snake_score(order, instance.cyclic, instance.proper)
            return _finish(
                instance=instance, proven=False, order=order, objective=value, bound=None,
                start=t0, method="cpsat-routes", info=info, trace=[],
            )  # fmt: skip
    ctx = open_context(
        instance, time_limit=time_limit, workers=workers, hint=hint, prepared=prepared
    )
    start, deadline = ctx.start, ctx.deadline
    n = instance.n
    scorer = ctx.prepared.scorer
    if n == 1:
        return _finish(
            instance=instance, proven=True, order=list(instance.words), objective=0.0,
            bound=0.0, start=start, method="cpsat-routes", info=info, trace=[],
        )  # fmt: skip
    remaining = ctx.remaining
    best_order, best = ctx.best_order, ctx.best
    g = ctx.prepared.graph
    tails, heads, weights = g.tail.tolist(), g.head.tolist(), g.weight.tolist()
    info["arcs"] = g.m + 2 * n

    # Phase 1: maximum-weight path cover. Arc k joins arc_tail[k] -> arc_head[k] (depot 0,
    # item i is node i + 1): n arcs from the depot, n to it, then the positive-overlap arcs.
    arc_tail = [0] * n + list(range(1, n + 1)) + [t + 1 for t in tails]
    arc_head = list(range(1, n + 1)) + [0] * n + [h + 1 for h in heads]
    arcs = len(arc_tail)

    def unbuilt(reason: str) -> SolveResult:
        """The incumbent (the hint), when the model cannot be built and loaded in time."""
        info["skipped"] = reason
        return _finish(
            instance=instance, proven=False, order=best_order,
            objective=None if best is None else float(best), bound=None, start=start,
            method="cpsat-routes", info=info, trace=[],
        )  # fmt: skip

    left = remaining()
    need = ROUTES_SECONDS_PER_ARC * arcs
    if left is not None and need > left:
        return unbuilt(
            f"the routes model of {arcs:,} arcs would take about {need:.0f} s to build and load, "
            f"more than the {left:.1f} s left"
        )
    model = cp_model.CpModel()
    lits = []
    for k in range(arcs):
        if not k & 0xFFFF and deadline is not None and time.perf_counter() > deadline:
            return unbuilt(f"the time limit passed while building the routes model ({arcs:,} arcs)")
        lits.append(model.new_bool_var(""))
    # The constraint, objective and hint go into the model's proto in bulk (one Python object per
    # arc fewer: on 3.96M arcs the objective alone took 29 s as a weighted sum).
    proto = model.proto
    routes = proto.constraints.add().routes  # = add_multiple_circuit
    routes.tails.extend(arc_tail)
    routes.heads.extend(arc_head)
    routes.literals.extend(v.index for v in lits)
    proto.objective.vars.extend(v.index for v in lits[2 * n :])
    proto.objective.coeffs.extend(-w for w in weights)  # maximise: negated, scaling -1
    proto.objective.scaling_factor = -1.0
    if best_order is not None:
        chosen = _path_cover_hint(scorer.items(best_order), scorer.weight)
        proto.solution_hint.vars.extend(v.index for v in lits)
        proto.solution_hint.values.extend(
            int((a, b) in chosen) for a, b in zip(arc_tail, arc_head, strict=True)
        )
    left = remaining()
    # CP-SAT reads its own limit only once the model is loaded: keep the load's time
    solver = _cpsat_solver(
        workers, seed, None if left is None else max(0.01, left - CPSAT_LOAD_SECONDS_PER_ARC * arcs)
    )
    cb = _TraceCallback(start, progress)
    code, stopped = solve_interruptibly(solver, model, cb)
    status = cpsat_status(code, Task.OPTIMISE, model, "routes model")
    if stopped:
        info["interrupted"] = True
    trace = list(cb.points)
    pc_bound: float | None = None
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        pc_bound = _integral_bound(solver.best_objective_bound, None)
        succ = {}
        items = []
        for a, b, v in zip(arc_tail, arc_head, lits, strict=True):
            if a and solver.boolean_value(v):
                succ[a] = b
        for k in range(n):  # the arcs leaving the depot, in node order
            if solver.boolean_value(lits[k]):
                node = arc_head[k]
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
        code2, stopped2 = solve_interruptibly(solver2, cyc)
        status2 = cpsat_status(code2, Task.OPTIMISE, cyc, "positive-cycle model")
        if stopped2:
            info["interrupted"] = True
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
        if ctx.deadline is not None and projected >= ctx.deadline:
            info = _solver_info("cp-sat", formulation="complete-circuit", workers=workers,
                                seed=seed, time_limit=time_limit, built_rows=i)  # fmt: skip
            info["reason"] = (
                f"the time limit does not leave time to build the model ({i} of {n} rows built)"
            )
            return _finish(
                instance=instance, proven=False, order=None, objective=None, bound=None,
                start=start, method="naive-circuit", info=info, trace=[],
            )  # fmt: skip
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
    code, naive_interrupted = solve_interruptibly(solver, model, cb)
    status = cpsat_status(code, Task.OPTIMISE, model, "naive circuit model")
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
