"""Letter-hub formulation of the Wordsnake as an integer program with a lazy cut loop.

:func:`solve_hub_mip` — the letter-hub formulation (see
:mod:`~cpwords.wordsnake.formulations.letter_hub` and the card ``models/wordsnake.md``) in HiGHS
through ``highspy`` (default) or in SCIP or CBC through OR-Tools' ``pywraplp``, with connectivity
cuts added lazily: solve, find the components that miss the root, cut them off, solve again, until
the integer optimum is connected. OPTIMAL only when the last relaxation was proven optimal *and* its
solution was connected.

Variables: one binary per arc of the letter-hub graph (depot arcs, explicit arcs with overlap >= 2,
word-hub arcs), so the program grows with n plus the number of overlap->=2 pairs, not with n^2.
Constraints: in- and out-degree one at every word, balance at hubs and at the depot, at least one
depot departure for a linear snake, and the connectivity cuts ``x(delta_in(S)) >= 1`` for node sets
S without the root, added lazily (the assignment relaxation with subtour elimination of the ATSP
literature, with hubs that may be visited many times). Each round re-solves from scratch with the
cuts found so far.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ortools.linear_solver import pywraplp

from cpwords.core.errors import InputError, ModelError
from cpwords.core.native import new_highs, quiet_stdout, solve_highs_round
from cpwords.core.result import SolveResult, Status, TracePoint
from cpwords.wordsnake.formulations.common import (
    MIP_BACKENDS,
    MIP_MAX_ARCS,
    MIP_MIN_ROUND_SECONDS,
    PreparedInstance,
    ProgressCallback,
    Scorer,
    SolveContext,
    assignment_relaxation,
    finish_result,
    hub_info,
    integral_bound,
    open_context,
    order_to_arcs,
    read_round,
)
from cpwords.wordsnake.formulations.letter_hub import DEPOT, HubGraph, entering_arcs
from cpwords.wordsnake.rules import WordsnakeInstance

#: Translation of pywraplp result codes.
MIP_STATUS = {
    pywraplp.Solver.OPTIMAL: Status.OPTIMAL,
    pywraplp.Solver.FEASIBLE: Status.FEASIBLE,
    pywraplp.Solver.INFEASIBLE: Status.INFEASIBLE,
    pywraplp.Solver.NOT_SOLVED: Status.UNKNOWN,
}


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
    prepared: PreparedInstance | None = None,
) -> SolveResult:
    """Prove the Wordsnake optimum with the letter-hub integer program and lazy cuts.

    Parameters
    ----------
    instance : WordsnakeInstance
    time_limit : float or None
        Wall-clock limit in seconds for the whole cut loop; None for no limit.
    backend : {"highs", "scip", "cbc"}
        Open-source MIP solver: HiGHS through ``highspy`` (its time limit honoured, Ctrl-C
        cancels a round, the hint is a MIP start), SCIP or CBC through OR-Tools' ``pywraplp``.
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
    prepared : PreparedInstance, optional
        Overlap and hub graphs already built for this instance in the same solve.

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
    The formulation and its cuts: the module's docstring. With a finite ``time_limit``, no MIP
    round is started on a model with more than ``MIP_MAX_ARCS`` arcs (the MIP solver does not
    stop on time there); the answer is then FEASIBLE with the flow bound, and
    ``solver_info["mip_skipped"]`` says so (``stopped``: ``"model_too_large"``).

    References
    ----------
    D. Shasha, "Wordsnakes", Dr Dobb's Journal, July 2000 (the puzzle).
    G. Dantzig, R. Fulkerson, S. Johnson, "Solution of a large-scale traveling-salesman
    problem", Operations Research 2 (1954) (subtour elimination added as needed).
    """
    if backend not in MIP_BACKENDS:
        raise InputError(f"unknown MIP backend {backend!r}; choose one of {sorted(MIP_BACKENDS)}")
    ctx = open_context(
        instance, time_limit=time_limit, workers=workers, hint=hint, prepared=prepared
    )
    hg, scorer = ctx.prepared.hub, ctx.prepared.scorer
    loop = _MipLoop(instance, ctx, f"mip-{backend}")
    missing, best, relaxation = _flow_round(hg, scorer, loop, progress)
    info = loop.info = hub_info(backend, hg, workers, seed, time_limit, flow_bound=relaxation)
    if not missing or best >= relaxation:
        info.update(rounds=0, cuts=0)
        return loop.finish(True)
    return _mip_rounds(loop, missing, backend, workers, seed, progress, max_rounds)


def _mip_rounds(
    loop: _MipLoop,
    missing: list[list[int]],
    backend: str,
    workers: int,
    seed: int,
    progress: ProgressCallback | None,
    max_rounds: int | None,
) -> SolveResult:
    """The MIP rounds of the cut loop once the flow round left a gap (the components it left
    ``missing`` cut off first), unless none is to be started."""
    ctx, info = loop.ctx, loop.info
    hg, scorer = ctx.prepared.hub, ctx.prepared.scorer
    if _no_mip_round(hg, ctx.deadline, max_rounds, info):
        info.update(rounds=0, cuts=0)
        return loop.finish(False)
    mip = _new_program(hg, scorer, ctx.best_order, backend, workers, seed)
    info["threads"] = mip.threads
    ins = hg.in_arcs()
    _add_cuts(mip, hg, ins, missing, loop)
    try:  # Ctrl-C in SCIP or CBC (HiGHS is cancelled in its own thread): keep the best so far
        _mip_cut_loop(mip, hg, ins, scorer, loop, progress, max_rounds)
    except KeyboardInterrupt:
        info["interrupted"] = True
    info.update(rounds=loop.rounds, cuts=loop.cuts)
    return loop.finish(loop.proven)


def _no_mip_round(
    hg: HubGraph, deadline: float | None, max_rounds: int | None, info: dict[str, Any]
) -> bool:
    """Whether no MIP round is started: no time left, none asked, or a model too large to stop
    on time (``info["mip_skipped"]``, and ``info["stopped"] = "model_too_large"``: the gap is
    left open by that, not by the time limit)."""
    too_large = deadline is not None and hg.m > MIP_MAX_ARCS
    info["mip_skipped"] = bool(too_large)
    if too_large:
        info["stopped"] = "model_too_large"
    out_of_time = deadline is not None and time.perf_counter() >= deadline
    return out_of_time or max_rounds == 0 or too_large


@dataclass
class _MipLoop:
    """The MIP cut loop's state: its clock and incumbent (``ctx``), bound, trace and counts."""

    instance: WordsnakeInstance
    ctx: SolveContext
    method: str
    info: dict[str, Any] = field(default_factory=dict)
    bound: float | None = None
    trace: list[TracePoint] = field(default_factory=list)
    proven: bool = False
    rounds: int = 0
    cuts: int = 0

    def record(
        self, hg: HubGraph, chosen: np.ndarray, scorer: Scorer, progress: ProgressCallback | None
    ) -> tuple[list[list[int]], int]:
        """Read a round's solution, keep it if better, trace it.

        Returns the components that miss the root and the best score so far.
        """
        missing, order, value = read_round(hg, chosen, scorer)
        best = self.ctx.best
        if best is None or value > best:
            best, self.ctx.best_order = value, order
        self.ctx.best = best
        elapsed = time.perf_counter() - self.ctx.start
        self.trace.append(TracePoint(elapsed, best, self.bound))
        if progress is not None:
            progress(elapsed, best, self.bound)
        return missing, best

    def finish(self, proven: bool) -> SolveResult:
        """The result: the incumbent with the best bound so far."""
        best = self.ctx.best
        return finish_result(
            instance=self.instance,
            proven=proven,
            order=self.ctx.best_order,
            objective=None if best is None else float(best),
            bound=self.bound,
            start=self.ctx.start,
            method=self.method,
            info=self.info,
            trace=self.trace,
        )


def _flow_round(
    hg: HubGraph, scorer: Scorer, loop: _MipLoop, progress: ProgressCallback | None
) -> tuple[list[list[int]], int, int]:
    """Round 0: the assignment relaxation as a min-cost circulation (exact, no MIP needed).

    Returns the components of its solution that miss the root, the best score so far, and the
    relaxation's value (the first bound).
    """
    chosen, relaxation = assignment_relaxation(hg)
    loop.bound = float(relaxation)
    missing, best = loop.record(hg, chosen, scorer, progress)
    return missing, best, relaxation


def _new_program(
    hg: HubGraph,
    scorer: Scorer,
    best_order: list[str] | None,
    backend: str,
    workers: int,
    seed: int,
) -> _HighsHub | _OrtoolsHub:
    """The letter-hub program in ``backend``, the incumbent as its hint."""
    hint_arcs = None
    if best_order is not None:
        hint_arcs = np.minimum(order_to_arcs(hg, scorer.items(best_order), scorer), 1)
    if backend == "highs":
        return _HighsHub(hg, workers, seed, hint_arcs)
    return _OrtoolsHub(hg, backend, workers, seed, hint_arcs)


def _add_cuts(
    mip: _HighsHub | _OrtoolsHub,
    hg: HubGraph,
    ins: list[Any],
    components: list[list[int]],
    loop: _MipLoop,
) -> None:
    """Add ``x(delta_in(S)) >= 1`` for each component ``S`` that misses the root."""
    for comp in components:
        mip.add_cut(entering_arcs(hg, comp, ins))
        loop.cuts += 1


def _mip_cut_loop(
    mip: _HighsHub | _OrtoolsHub,
    hg: HubGraph,
    ins: list[Any],
    scorer: Scorer,
    loop: _MipLoop,
    progress: ProgressCallback | None,
    max_rounds: int | None,
) -> None:
    """Solve, cut off the components that miss the root, solve again: until proven or stopped."""
    deadline, info = loop.ctx.deadline, loop.info
    last = 0.0  # seconds the previous round took
    while max_rounds is None or loop.rounds < max_rounds:
        remaining = None
        if deadline is not None:
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or (loop.rounds and remaining < max(MIP_MIN_ROUND_SECONDS, last)):
                break  # a round started now would overrun (see MIP_MIN_ROUND_SECONDS)
        loop.rounds += 1
        began = time.perf_counter()
        status, round_bound, picked, stopped = mip.solve(remaining)
        last = time.perf_counter() - began
        if stopped:
            info["interrupted"] = True
        if status is Status.INFEASIBLE:  # pragma: no cover - the model always has a solution
            raise ModelError("the letter-hub model was reported infeasible")
        if round_bound is not None:
            loop.bound = integral_bound(round_bound, loop.bound)
        if status is Status.UNKNOWN or picked is None:
            break
        missing, _ = loop.record(hg, picked, scorer, progress)
        if _round_settles(loop, status, missing, stopped):
            break
        _add_cuts(mip, hg, ins, missing, loop)


def _round_settles(loop: _MipLoop, status: Status, missing: list[list[int]], stopped: bool) -> bool:
    """Whether the loop ends after this round (``loop.proven`` set when the round proves it)."""
    best, bound = loop.ctx.best, loop.bound
    if status is Status.OPTIMAL and not missing:
        loop.proven = True
        return True
    if bound is not None and best is not None and best >= bound - 1e-9:
        loop.proven = True
        return True
    # stopped inside the solve; the solution is valid but unproven
    return stopped or (status is Status.FEASIBLE and not missing)


class _HighsHub:
    """The letter-hub program in HiGHS through ``highspy``.

    Built from arrays in bulk; HiGHS's own ``time_limit`` is honoured, Ctrl-C cancels the solve
    (:func:`~.native.run_highs_interruptibly`), the hint is passed as a MIP start, and the gap
    limits are zero so that "optimal" is a proof. (Through OR-Tools' ``pywraplp`` HiGHS ignored
    short limits, a hint crashed OR-Tools 9.15, and a solve could not be interrupted.)
    """

    def __init__(self, hg: HubGraph, workers: int, seed: int, hint_arcs: np.ndarray | None) -> None:
        import highspy

        self._hs = highspy
        h = new_highs(seed)
        self.threads = 1
        m = hg.m
        self.m = m
        idx = np.arange(m, dtype=np.int32)
        h.addVars(m, np.zeros(m), np.ones(m))
        h.changeColsIntegrality(m, idx, np.ones(m, dtype=np.uint8))
        h.changeColsCost(m, idx, hg.weight.astype(float))
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        # Degree rows: out = in = 1 at every word, out - in = 0 at the depot and the hubs.
        outs, ins = hg.out_arcs(), hg.in_arcs()
        starts: list[int] = []
        cols: list[np.ndarray] = []
        vals: list[np.ndarray] = []
        lo: list[float] = []
        nnz = 0
        for v in range(hg.num_nodes):
            o, i = np.asarray(outs[v], dtype=np.int32), np.asarray(ins[v], dtype=np.int32)
            if 1 <= v <= hg.n:
                rows = [(o, np.ones(o.size)), (i, np.ones(i.size))]
                rhs = [1.0, 1.0]
            else:
                rows = [(np.r_[o, i], np.r_[np.ones(o.size), -np.ones(i.size)])]
                rhs = [0.0]
            for (c, w), b in zip(rows, rhs, strict=True):
                starts.append(nnz)
                cols.append(c)
                vals.append(w)
                lo.append(b)
                nnz += c.size
        rhs_arr = np.asarray(lo)
        h.addRows(
            len(lo),
            rhs_arr,
            rhs_arr,
            nnz,
            np.asarray(starts, dtype=np.int32),
            np.concatenate(cols).astype(np.int32),
            np.concatenate(vals).astype(float),
        )
        if not hg.cyclic:  # a linear snake leaves the depot at least once
            o = np.asarray(outs[DEPOT], dtype=np.int32)
            h.addRow(1.0, highspy.kHighsInf, int(o.size), o, np.ones(o.size))
        if hint_arcs is not None:
            start = highspy.HighsSolution()
            start.col_value = hint_arcs.astype(float).tolist()
            start.value_valid = True
            h.setSolution(start)
        self.h = h

    def add_cut(self, arcs: list[int]) -> None:
        """Add ``x(arcs) >= 1``."""
        c = np.asarray(arcs, dtype=np.int32)
        self.h.addRow(1.0, self._hs.kHighsInf, int(c.size), c, np.ones(c.size))

    def solve(self, seconds: float | None) -> tuple[Status, float | None, np.ndarray | None, bool]:
        """One round: (status, best bound, chosen arcs or None, interrupted)."""
        status, bound, values, stopped = solve_highs_round(self.h, seconds)
        return status, bound, None if values is None else values[: self.m] > 0.5, stopped


class _OrtoolsHub:
    """The letter-hub program through OR-Tools' ``pywraplp`` (SCIP, CBC)."""

    def __init__(
        self, hg: HubGraph, backend: str, workers: int, seed: int, hint_arcs: np.ndarray | None
    ) -> None:
        with quiet_stdout():
            solver = pywraplp.Solver.CreateSolver(MIP_BACKENDS[backend])
        if solver is None:  # pragma: no cover - depends on the OR-Tools build
            raise ModelError(f"OR-Tools has no {backend} backend in this build")
        solver.SuppressOutput()
        # SCIP under OR-Tools stops with FEASIBLE, unproven, when given 2 threads (measured on
        # 'abc' strings; 1 thread proves the same instances), and it is single-threaded anyway.
        self.threads = 1 if backend == "scip" else workers
        solver.SetNumThreads(self.threads)
        self.backend = backend
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
        if hint_arcs is not None:
            solver.SetHint(x, [float(u) for u in hint_arcs.tolist()])
        self.params = pywraplp.MPSolverParameters()
        # OR-Tools' default relative MIP gap (1e-4) lets the solver stop "OPTIMAL" up to 0.01%
        # below the optimum: above ~10,000 points that is a whole unit. A proof needs the gap at
        # zero, and the bound is always the solver's best bound, never the incumbent.
        self.params.SetDoubleParam(pywraplp.MPSolverParameters.RELATIVE_MIP_GAP, 0.0)
        self.solver, self.x, self.inf = solver, x, inf

    def add_cut(self, arcs: list[int]) -> None:
        """Add ``x(arcs) >= 1``."""
        ct = self.solver.Constraint(1, self.inf)
        for a in arcs:
            ct.SetCoefficient(self.x[a], 1)

    def solve(self, seconds: float | None) -> tuple[Status, float | None, np.ndarray | None, bool]:
        """One round: (status, best bound, chosen arcs or None, interrupted)."""
        solver = self.solver
        if seconds is not None:
            solver.SetTimeLimit(max(1, int(seconds * 1000)))
        with quiet_stdout():
            code = solver.Solve(self.params)
        if code == pywraplp.Solver.ABNORMAL or code == pywraplp.Solver.MODEL_INVALID:
            raise ModelError(f"{self.backend} returned an abnormal status on the Wordsnake model")
        status = MIP_STATUS.get(code, Status.UNKNOWN)
        if status not in (Status.OPTIMAL, Status.FEASIBLE):
            return status, None, None, False
        chosen = np.array([v.solution_value() > 0.5 for v in self.x], dtype=bool)
        return status, solver.Objective().BestBound(), chosen, False
