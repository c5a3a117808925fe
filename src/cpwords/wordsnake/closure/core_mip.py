"""The exact search of the core by branch-and-cut (HiGHS): repeated words as one node of
multiplicity ``k``, connectivity cuts added lazily, in a child process on large cores so that a
deadline or Ctrl-C can stop it.

The core is what reduced-cost fixing keeps (:func:`~cpwords.wordsnake.closure.core.reduced_core`);
the argument that a proof on the core is a proof for the whole list is in the card
(``models/wordsnake.md``, "Reduced-cost fixing and the core search").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from cpwords.wordsnake.closure.core import Core, CoreOutcome
from cpwords.wordsnake.primal.patching import patch_pairwise
from cpwords.wordsnake.primal.repair import (
    CandidateIndex,
    PairScore,
    overlap,
    patch_cycles,
    score_sequence,
)
from cpwords.wordsnake.relaxation.decode import Decoded, cycle_labels, item_copies
from cpwords.wordsnake.relaxation.node_reps import NodeReps
from cpwords.wordsnake.relaxation.string_hub import (
    StringHubNetwork,
)

_EPS = 1e-6


@dataclass
class _CoreArcs:
    """Word-level arcs of the core: words ``0..W-1`` and the depot ``W``."""

    tail: np.ndarray
    head: np.ndarray
    upper: np.ndarray
    score: np.ndarray
    rc: np.ndarray


def _core_arcs(net: StringHubNetwork, core: Core, with_depot: bool) -> _CoreArcs:
    W = net.num_words
    mult = net.mult
    words = net.words
    proper = net.instance.proper
    t: list[int] = []
    h: list[int] = []
    up: list[int] = []
    sc: list[int] = []
    rc: list[int] = []
    for u, v, r in zip(
        core.pair_u.tolist(), core.pair_v.tolist(), core.pair_rc.tolist(), strict=True
    ):
        cap = int(mult[u]) - 1 if u == v else min(int(mult[u]), int(mult[v]))
        k = overlap(words[u], words[v], proper)
        if cap <= 0 or k <= 0:
            continue
        t.append(u)
        h.append(v)
        up.append(cap)
        sc.append(net.instance.weight(k))
        rc.append(r)
    if with_depot:
        for w in range(W):
            if core.start_rc[w] <= core.budget:
                t.append(W)
                h.append(w)
                up.append(int(mult[w]))
                sc.append(0)
                rc.append(int(core.start_rc[w]))
            if core.end_rc[w] <= core.budget:
                t.append(w)
                h.append(W)
                up.append(int(mult[w]))
                sc.append(0)
                rc.append(int(core.end_rc[w]))
    return _CoreArcs(*(np.array(x, dtype=np.int64) for x in (t, h, up, sc, rc)))


def _cuts(
    arcs: _CoreArcs,
    x: np.ndarray,
    nodes: int,
    root: int,
    integral: bool,
    deadline: float | None = None,
    most: int = 200,
) -> list[np.ndarray]:
    """Violated subtour elimination cuts ``x(delta_in(S)) >= 1``, as arc index arrays.

    Sets ``S`` (not holding ``root``) from the components of the support that miss the root;
    for a fractional ``x`` without such components, from minimum ``root -> t`` cuts (max flow
    on capacities ``x``), Padberg and Rinaldi's exact separation for the ATSP.
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order, connected_components, maximum_flow

    sup = x > _EPS
    g = csr_matrix(
        (np.ones(int(sup.sum())), (arcs.tail[sup], arcs.head[sup])), shape=(nodes, nodes)
    )
    _, label = connected_components(g, directed=True, connection="weak")
    root_label = label[root]
    others = np.unique(label[label != root_label])
    if others.size:
        # Every support component that misses the root: the arcs entering it (none carry x).
        lt, lh = label[arcs.tail], label[arcs.head]
        enter = np.nonzero((lt != lh) & (lh != root_label))[0]
        enter = enter[np.argsort(lh[enter], kind="stable")]
        keys = lh[enter]
        lo = np.searchsorted(keys, others, side="left")
        hi = np.searchsorted(keys, others, side="right")
        return [enter[a:b] for a, b in zip(lo.tolist(), hi.tolist(), strict=True)]
    sets: list[np.ndarray] = []
    if not integral:
        scale = 1_000_000
        cap_int = np.floor(x[sup] * scale).astype(np.int32)
        ok = cap_int > 0
        tt, hh, cc = arcs.tail[sup][ok], arcs.head[sup][ok], cap_int[ok]
        # Merge parallel arcs (max flow wants one entry per node pair).
        key = tt * nodes + hh
        uniq, inv = np.unique(key, return_inverse=True)
        cap_m = np.zeros(uniq.size, dtype=np.int64)
        np.add.at(cap_m, inv, cc)
        graph = csr_matrix(
            (cap_m.astype(np.int32), (uniq // nodes, uniq % nodes)), shape=(nodes, nodes)
        )
        done = np.zeros(nodes, dtype=bool)
        done[root] = True
        for target in range(nodes):
            if done[target]:
                continue
            if deadline is not None and time.perf_counter() >= deadline:
                break
            res = maximum_flow(graph, root, target)
            if res.flow_value >= scale - nodes:  # at least 1 up to rounding
                continue
            flow = res.flow.tocsr()
            resid = (graph - flow).tocsr()
            resid.data[resid.data < 0] = 0
            resid.eliminate_zeros()
            back = flow.T.tocsr()
            back.data[back.data < 0] = 0
            back.eliminate_zeros()
            reach = breadth_first_order(
                resid + back, root, directed=True, return_predecessors=False
            )
            side = np.ones(nodes, dtype=bool)
            side[reach] = False  # S: the nodes the root cannot reach in the residual network
            sets.append(side)
            done |= side
            if len(sets) >= most:
                break
    cuts = []
    for side in sets:
        entering = np.nonzero(~side[arcs.tail] & side[arcs.head])[0]
        if x[entering].sum() < 1 - _EPS:
            cuts.append(entering)
    return cuts


def _euler_order(arcs: _CoreArcs, xi: np.ndarray, root: int, W: int) -> list[int] | None:
    """Word sequence of a connected integral solution (an Euler circuit from the root)."""
    import networkx as nx

    g = nx.MultiDiGraph()
    for a in np.nonzero(xi > 0)[0].tolist():
        for _ in range(int(xi[a])):
            g.add_edge(int(arcs.tail[a]), int(arcs.head[a]))
    if not nx.is_eulerian(g):
        return None
    seq = [v for _, v in nx.eulerian_circuit(g, source=root)]
    if root == W:
        return [v for v in seq if v != W]
    return [seq[-1], *seq[:-1]]  # a cycle through the words, starting at the root


def _add_row(h: Any, cols: np.ndarray, vals: np.ndarray, lo: float, hi: float) -> None:
    h.addRow(lo, hi, int(cols.size), cols.astype(np.int32), vals.astype(float))


def _append_bound(bounds: list[int], dual_bound: float) -> None:
    """Keep HiGHS's MIP dual bound (floored), unless it has none yet (infinite: stopped in
    presolve, measured on a 1,100-piece list at a 24 s limit)."""
    if np.isfinite(dual_bound):
        bounds.append(int(np.floor(dual_bound + 1e-6)))


#: A core of at least this many joints is searched in a forked child process (where ``fork``
#: exists), killed at the deadline or on Ctrl-C: HiGHS honours a cancel only at its own next
#: check, 32 s after Ctrl-C on `ab` n=30,000 seed 2's core (392,786 columns). Smaller cores
#: are searched in this process (a fork's pages count again in the process tree's memory).
CHILD_MIN_PAIRS = 50_000

#: The child searching a core starts afresh (``spawn``) instead of forked when this process's
#: resident set exceeds :data:`SPAWN_BASE` bytes plus :data:`SPAWN_RATIO` times what the child
#: is handed pickled (the network and the core). A fork's pages count again in the process
#: tree's resident sets: the union of German, French and Spanish searched its 2,074 pieces'
#: core in a child forked from a 1.7 GB parent, 3.50 GB in all; a fresh interpreter holds about
#: 100 MB and what it is handed (1.2 MB for those pieces' network).
SPAWN_BASE = 512 * 2**20

#: See :data:`SPAWN_BASE`.
SPAWN_RATIO = 4

#: Seconds past its time limit at which the child searching a core is killed (HiGHS's own
#: limit and the cancel at the deadline come first).
CHILD_GRACE = 0.5


def solve_core_mip(
    net: StringHubNetwork,
    core: Core,
    *,
    time_limit: float | None,
    progress: Callable[[float, float | None, float | None], None] | None = None,
    isolate: bool | None = None,
) -> CoreOutcome:
    """Branch-and-cut over the core: word nodes of multiplicity k, subtour elimination.

    Parameters
    ----------
    net : StringHubNetwork
    core : Core
    time_limit : float or None
        Seconds for the search.
    progress : callable, optional
        ``progress(seconds, incumbent, bound)`` on each improving ordering or bound.
    isolate : bool, optional
        Search in a child process that is killed ``CHILD_GRACE`` seconds past the time limit
        or at once on Ctrl-C (its best ordering so far is kept), forked or started afresh
        (:func:`child_start_method`). Default: when the core holds at least
        ``CHILD_MIN_PAIRS`` joints.

    Returns
    -------
    CoreOutcome
        From a killed child: its best ordering so far (None if none), not proven, no bound,
        ``interrupted`` on Ctrl-C; from a child that died (out of memory, a crash) the same,
        with ``error`` saying so.

    Notes
    -----
    One integer variable per core joint ``u -> v`` (bounded by the copies available:
    ``min(k_u, k_v)``, or ``k_u - 1`` for a word followed by a copy of itself) and per chain
    start and end; every word has in- and out-degree equal to its multiplicity ``k``, so the
    ``k!`` orders of interchangeable copies are one solution. Two rows restrict the search to
    what can beat the incumbent (score ``>= target``, reduced cost ``<= budget``).
    Subtour elimination cuts ``x(delta_in(S)) >= 1`` are separated first from fractional LP
    solutions (components of the support, then minimum cuts from the depot), then from
    integral ones; HiGHS solves the LPs and the MIPs with a zero gap tolerance. A cyclic snake
    also searches, with the depot left out, for a single cycle of positive joints.

    References
    ----------
    M. Padberg, G. Rinaldi, "A branch-and-cut algorithm for the resolution of large-scale
    symmetric traveling salesman problems", SIAM Review 33 (1991); HiGHS (Huangfu, Hall).
    """
    seen: dict[str, Any] = {}

    def on_report(event: dict[str, Any]) -> None:
        seen.update(event)
        if progress is not None and "objective" in event:
            progress(event["seconds"], event["objective"], None)

    if isolate is None:
        isolate = core.num_pairs >= CHILD_MIN_PAIRS
    if not isolate:
        return _solve_core_mip(net, core, time_limit, on_report)
    return _solve_in_child(net, core, time_limit, on_report, seen)


def _solve_in_child(
    net: StringHubNetwork,
    core: Core,
    time_limit: float | None,
    on_report: Callable[[dict[str, Any]], None],
    seen: dict[str, Any],
) -> CoreOutcome:
    """:func:`solve_core_mip` in a child (:func:`child_start_method`) killed
    :data:`CHILD_GRACE` seconds past the time limit or on Ctrl-C: its outcome, or else what it
    reported (``seen``, kept up to date by ``on_report``) as an unproven one."""
    from cpwords.core.procs import ChildDied, run_stoppable

    stopped: str | None
    error: str | None
    hard = None if time_limit is None else time.perf_counter() + time_limit + CHILD_GRACE
    try:
        run = run_stoppable(
            _core_mip_child,
            net,
            core,
            time_limit,
            deadline=hard,
            on_report=on_report,
            start_method=child_start_method(net, core),
        )
    except ChildDied as exc:
        stopped, error = None, str(exc)
    else:
        if run.stopped is None:
            out: CoreOutcome = run.value
            return out
        stopped, error = run.stopped, None
    return CoreOutcome(
        seen.get("order"),
        seen.get("objective"),
        False,
        None,
        int(seen.get("arcs", 0)),
        stopped == "interrupted",
        error,
    )


def child_start_method(net: StringHubNetwork, core: Core) -> str:
    """How the child searching ``core`` starts: ``"spawn"`` when this process is large next
    to what the child is handed, else ``"fork"``.

    Parameters
    ----------
    net : StringHubNetwork
    core : Core

    Returns
    -------
    str
        ``"spawn"`` when this process's resident set exceeds :data:`SPAWN_BASE` bytes plus
        :data:`SPAWN_RATIO` times the pickled size of ``(net, core)`` (its arrays counted
        without copying them) and the program is one that ``spawn`` can start again safely
        (:func:`~cpwords.core.procs.spawn_is_safe`: cpwords' own command), else ``"fork"``.

    Notes
    -----
    Resident set from psutil (``/proc/self/statm`` on Linux).
    """
    import pickle

    import psutil

    from cpwords.core.procs import spawn_is_safe

    rss = psutil.Process().memory_info().rss
    if rss <= SPAWN_BASE or not spawn_is_safe():
        return "fork"
    arrays: list[pickle.PickleBuffer] = []
    inline = len(pickle.dumps((net, core), protocol=5, buffer_callback=arrays.append))
    handed = inline + sum(a.raw().nbytes for a in arrays)
    return "spawn" if rss > SPAWN_BASE + SPAWN_RATIO * handed else "fork"


def _core_mip_child(
    report: Callable[[dict[str, Any]], None],
    net: StringHubNetwork,
    core: Core,
    time_limit: float | None,
) -> CoreOutcome:  # pragma: no cover - runs in a child
    """:func:`solve_core_mip` in the child: the arcs of each model and each improving ordering
    are reported to the parent as they come."""
    from cpwords.core.native import highs_after_fork

    highs_after_fork()
    return _solve_core_mip(net, core, time_limit, report)


def _solve_core_mip(
    net: StringHubNetwork,
    core: Core,
    time_limit: float | None,
    report: Callable[[dict[str, Any]], None],
) -> CoreOutcome:
    """:func:`solve_core_mip` in this process; ``report`` receives ``{"arcs": n}`` as each
    model is built and ``{"seconds", "order", "objective"}`` on each improving ordering."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    W = net.num_words
    instance = net.instance
    best_seq: list[int] | None = None
    best: int | None = None
    bounds: list[int] = []
    proven = True
    interrupted = False
    n_lits = 0
    modes = [True, False] if instance.cyclic else [True]
    for with_depot in modes:
        arcs = _core_arcs(net, core, with_depot)
        m = int(arcs.tail.shape[0])
        n_lits += m
        report({"arcs": n_lits})
        nodes = W + 1 if with_depot else W
        root = W if with_depot else 0
        touched_in = np.zeros(nodes, dtype=bool)
        touched_out = np.zeros(nodes, dtype=bool)
        touched_in[arcs.head] = True
        touched_out[arcs.tail] = True
        if not (touched_in[:W].all() and touched_out[:W].all()):
            continue  # some word cannot be placed within the budget: nothing here
        goal = core.target if best is None else best + 1
        h, idx = _core_highs(net, core, arcs, with_depot, goal)

        def keep(seq: list[int], value: int) -> None:
            nonlocal best_seq, best
            if best is None or value > best:
                best_seq, best = seq, value
                seconds = time.perf_counter() - start
                report({"seconds": seconds, "order": seq, "objective": best})

        patcher = _SubtourPatcher(net, core, arcs, (goal, h.getNumRow() - 2), keep, deadline)
        found, status_proven, interrupted = _cut_and_branch(
            h, arcs, idx, nodes, root, W, deadline, bounds, patcher
        )
        if found is not None:
            pool = item_copies(net)
            seq = [pool[w].pop() for w in found]
            keep(seq, score_sequence(seq, PairScore(net), instance.cyclic))
        proven = proven and status_proven and not interrupted
        if interrupted:
            break
    bound = None
    if bounds:
        bound = max([*bounds, *([best] if best is not None else [])])
    return CoreOutcome(best_seq, best, proven, bound, n_lits, interrupted)


def _core_highs(
    net: StringHubNetwork, core: Core, arcs: _CoreArcs, with_depot: bool, goal: int
) -> tuple[Any, np.ndarray]:
    """The HiGHS model of the core's arcs (linear: integrality comes later) and its column
    ids: degree rows, at least one chain (with the depot), score >= goal, reduced cost <=
    budget."""
    import highspy

    from cpwords.core.native import new_highs

    W = net.num_words
    m = int(arcs.tail.shape[0])
    h = new_highs()
    idx = np.arange(m, dtype=np.int32)
    h.addVars(m, np.zeros(m), arcs.upper.astype(float))
    h.changeColsCost(m, idx, arcs.score.astype(float))
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)

    _degree_rows(h, arcs.head, arcs.tail, net.mult)
    if with_depot:
        chain_starts = np.nonzero(arcs.tail == W)[0]
        _add_row(h, chain_starts, np.ones(chain_starts.size), 1.0, float(net.instance.n))
    _add_row(h, idx, arcs.score.astype(float), float(goal), highspy.kHighsInf)
    _add_row(h, idx, arcs.rc.astype(float), -highspy.kHighsInf, float(core.budget))
    return h, idx


def _degree_rows(h: Any, head: np.ndarray, tail: np.ndarray, mult: np.ndarray) -> None:
    """Add every word's degree rows, in bulk: in-degree = out-degree = its multiplicity (the
    columns are the arcs ``tail -> head``; the depot, ``len(mult)``, gets no row)."""
    W = int(mult.shape[0])
    k = mult.astype(float)
    for ends in (head, tail):
        mine = np.flatnonzero(ends < W)
        cols = mine[np.argsort(ends[mine], kind="stable")]
        starts = np.searchsorted(ends[cols], np.arange(W)).astype(np.int32)
        h.addRows(W, k, k, int(cols.size), starts, cols.astype(np.int32), np.ones(cols.size))


def _add_cuts(h: Any, cuts: list[np.ndarray]) -> None:
    """Add the subtour cuts ``x(cut) >= 1`` (each the columns it counts) to the model, at once."""
    import highspy

    sizes = np.array([c.size for c in cuts], dtype=np.int64)
    starts = np.r_[0, np.cumsum(sizes)[:-1]].astype(np.int32)
    cols = np.concatenate(cuts).astype(np.int32)
    h.addRows(
        len(cuts),
        np.ones(len(cuts)),
        np.full(len(cuts), highspy.kHighsInf),
        int(cols.size),
        starts,
        cols,
        np.ones(cols.size),
    )


def _fix_by_reduced_cost(
    h: Any, x: np.ndarray, goal: int, value: float, col_dual: np.ndarray
) -> int:
    """Reduced-cost fixing on the LP with every subtour cut found: a joint at zero whose
    reduced cost exceeds the LP value less the goal is in no ordering scoring the goal, so
    its column is fixed to zero (its upper bound set to 0). Returns the columns fixed.

    ``value`` and ``col_dual`` are the LP's objective value and column duals, read before
    anything changed the model: HiGHS forgets its solution when a row's bounds change (the
    goal row rises when the LP's rounding scores above the goal), and its objective then
    reads 0, which would fix every column at zero.

    The LP is a relaxation of the MIP (the cuts are valid), so an integral solution using
    the joint scores at most the LP value less its reduced cost (Nemhauser and Wolsey,
    *Integer and Combinatorial Optimization*, 1988, II.5). HiGHS's MIP solves its root LP
    again from nothing, so the fixing done here, before it, shrinks that LP (measured on the
    union's 2,074 pieces: 12 s for the root LP of 253,063 columns).
    """
    room = value - goal + 1e-6 * (1.0 + abs(value))
    fix = np.flatnonzero((x <= _EPS) & (np.abs(col_dual) > room))
    if fix.size:
        h.changeColsBounds(
            int(fix.size), fix.astype(np.int32), np.zeros(fix.size), np.zeros(fix.size)
        )
    return int(fix.size)


def _mip_left(deadline: float | None) -> float:
    """Seconds until the deadline (infinite without one)."""
    return float("inf") if deadline is None else deadline - time.perf_counter()


def _cut_and_branch(
    h: Any,
    arcs: _CoreArcs,
    idx: np.ndarray,
    nodes: int,
    root: int,
    W: int,
    deadline: float | None,
    bounds: list[int],
    patcher: _SubtourPatcher | None = None,
) -> tuple[list[int] | None, bool, bool]:
    """Solve the model, adding violated subtour cuts, first to the LP, then (integral) to the
    MIP: the word order found (or None), whether it is proven optimal (or the model
    infeasible) and whether Ctrl-C stopped it. HiGHS's dual bound goes into ``bounds``; each
    integral solution with subtours goes to ``patcher`` (which may raise the goal)."""
    import highspy

    from cpwords.core.native import lp_time_limit, run_highs_interruptibly

    m = int(arcs.tail.shape[0])
    found: list[int] | None = None
    status_proven = False
    integral = False
    interrupted = False
    while _mip_left(deadline) > 0:
        # HiGHS checks its clock between phases: measured 2 s past a 6 s limit on a
        # 400,000-column core, so it gets 85% of what is left.
        seconds = (
            max(0.01, 0.85 * _mip_left(deadline)) if deadline is not None else highspy.kHighsInf
        )
        if not integral and deadline is not None:  # the simplex counts every earlier run
            seconds = lp_time_limit(h, seconds)
        h.setOptionValue("time_limit", seconds)
        if run_highs_interruptibly(h, deadline):
            interrupted = True
        st = h.getModelStatus()
        if interrupted:
            break
        if st == highspy.HighsModelStatus.kInfeasible:
            status_proven = True  # nothing in the core reaches the goal
            break
        if st not in (
            highspy.HighsModelStatus.kOptimal,
            highspy.HighsModelStatus.kTimeLimit,
            highspy.HighsModelStatus.kInterrupt,
        ):
            break
        x = np.asarray(h.getSolution().col_value, dtype=float)
        has_x = x.size == m and (
            not integral or h.getInfo().primal_solution_status == 2  # feasible point
        )
        if not has_x:
            if integral:
                _append_bound(bounds, h.getInfo().mip_dual_bound)
            break
        cuts = _cuts(arcs, x, nodes, root, integral, deadline)
        if cuts and integral and patcher is not None:
            patcher.patch(h, np.round(x).astype(np.int64))
            if patcher.goal > patcher.lp_bound:  # the patched ordering meets the LP's bound
                status_proven = True
                break
        if cuts:
            _add_cuts(h, cuts)
            continue
        if not integral:
            integral = True
            if st == highspy.HighsModelStatus.kOptimal and _after_the_lp(h, x, bounds, patcher):
                status_proven = True  # the LP's rounding meets its bound
                break
            h.changeColsIntegrality(m, idx, np.full(m, 1, dtype=np.uint8))
            continue
        xi = np.round(x).astype(np.int64)
        found = _euler_order(arcs, xi, root, W)
        if st == highspy.HighsModelStatus.kOptimal and found is not None:
            status_proven = True
        else:
            _append_bound(bounds, h.getInfo().mip_dual_bound)
        break
    return found, status_proven, interrupted


def _after_the_lp(
    h: Any, x: np.ndarray, bounds: list[int], patcher: _SubtourPatcher | None
) -> bool:
    """The LP with every subtour cut solved to optimality: its value bounds the core's
    orderings (as a MIP's would) and goes into ``bounds``; its solution is rounded and
    patched, and the columns it prices out are fixed. Whether the rounding met the bound."""
    lp_value = float(h.getInfo().objective_function_value)
    _append_bound(bounds, lp_value)
    if patcher is None:
        return False
    col_dual = np.asarray(h.getSolution().col_dual, dtype=float)  # before the rounding's rows
    patcher.lp_bound = int(np.floor(lp_value + 1e-6))
    patcher.round_lp(h, x)
    if patcher.goal > patcher.lp_bound:
        return True
    _fix_by_reduced_cost(h, x, patcher.goal, lp_value, col_dual)
    return False


class _SubtourPatcher:
    """Orderings from the MIP's integral solutions whose support has subtours: the copies of
    each word take the solution's joints, the chains are joined one after another, and the
    cycles left are patched into the depot's by the repair's 2-exchanges
    (:func:`~cpwords.wordsnake.primal.repair.patch_cycles`). When one scores at least the
    goal, the goal row rises above it and the reduced-cost row falls by as many points (an
    ordering scoring ``d`` more has at most ``d * scale`` less reduced cost), so the search
    goes on for a better one or a proof that none exists.

    Measured (the 2,074 pieces of the German + French + Spanish union's families, 90 s): with
    HiGHS seed 0 the MIP's first integral solution scored the optimum, 47,015, with 22
    subtours; its next two rounds of cuts did not end in time, and the search returned the
    incumbent, 46,839. Patched pairwise, that solution scores 47,015 (the repair's patching
    alone 46,887). The LP rounding (:meth:`round_lp`) now finds it before the MIP: proven
    in 10.9-11.3 s with seeds 0, 1 and 2 (before: 86 s unproven, 46 s, 86 s unproven).
    """

    def __init__(
        self,
        net: StringHubNetwork,
        core: Core,
        arcs: _CoreArcs,
        goal: tuple[int, int],
        keep: Callable[[list[int], int], None],
        deadline: float | None,
    ) -> None:
        self.net, self.core, self.arcs, self.keep = net, core, arcs, keep
        self.goal, self.goal_row = goal  # the score to reach and its row (then the budget's)
        self.deadline = deadline
        self.pair = PairScore(net)
        self.index: CandidateIndex | None = None
        self.lp_bound: float = float("inf")  # the LP's value with every subtour cut, floored

    def patch(self, h: Any, xi: np.ndarray) -> None:
        """Patch the integral solution ``xi`` (one count per core arc) into an ordering; keep it
        and raise the goal when it scores at least the goal."""
        import highspy

        seq = self.ordering(xi)
        value = score_sequence(seq, self.pair, self.net.instance.cyclic)
        if value < self.goal:
            return
        self.keep(seq, value)
        rise = value + 1 - self.goal
        self.goal = value + 1
        budget = self.core.budget - rise * self.core.scale
        h.changeRowBounds(self.goal_row, float(self.goal), highspy.kHighsInf)
        h.changeRowBounds(self.goal_row + 1, -highspy.kHighsInf, float(budget))

    def round_lp(self, h: Any, x: np.ndarray) -> None:
        """Round the LP's solution ``x`` (with every subtour cut) to an integral point on its
        support, then patch it (:meth:`patch`).

        The rounding is the best assignment of the copies on the joints ``x`` uses: degree
        rows only, whose matrix is a network's, so the simplex's optimal vertex is integral,
        and scores at least the LP's value (``x`` is one of its points). Measured on the
        union's 2,074 pieces: 32 of the LP solution's 2,337 joints were fractional, and the
        rounding, patched, scored the LP's bound: the MIP was not needed.
        """
        import highspy

        from cpwords.core.native import new_highs

        use = np.flatnonzero(x > _EPS)
        tail, head = self.arcs.tail[use], self.arcs.head[use]
        lp = new_highs()
        m = int(use.size)
        lp.addVars(m, np.zeros(m), self.arcs.upper[use].astype(float))
        lp.changeColsCost(m, np.arange(m, dtype=np.int32), self.arcs.score[use].astype(float))
        lp.changeObjectiveSense(highspy.ObjSense.kMaximize)
        _degree_rows(lp, head, tail, self.net.mult)
        lp.setOptionValue("solver", "simplex")  # a vertex: integral on a network matrix
        if self.deadline is not None:  # within the search's time, like its other solves
            lp.setOptionValue("time_limit", max(0.01, _mip_left(self.deadline)))
        lp.run()
        if lp.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return
        y = np.asarray(lp.getSolution().col_value, dtype=float)
        if np.abs(y - np.round(y)).max(initial=0.0) > 1e-6:
            return
        xi = np.zeros(x.size, dtype=np.int64)
        xi[use] = np.round(y).astype(np.int64)
        self.patch(h, xi)

    def ordering(self, xi: np.ndarray) -> list[int]:
        """The item sequence of ``xi`` with its subtours patched."""
        net, arcs = self.net, self.arcs
        n, W = net.instance.n, net.num_words
        outs = item_copies(net)  # each word's items taking its out-joints, then its in-joints
        ins = [list(items) for items in outs]
        succ = np.full(n + 1, n, dtype=np.int64)
        starts: list[int] = []
        ends: list[int] = []
        for a in np.flatnonzero(xi > 0).tolist():
            t, v = int(arcs.tail[a]), int(arcs.head[a])
            for _ in range(int(xi[a])):
                if t == W:
                    starts.append(ins[v].pop())
                elif v == W:
                    ends.append(outs[t].pop())
                else:
                    succ[outs[t].pop()] = ins[v].pop()
        if starts:  # the chains one after another, the depot before the first
            cyclic = net.instance.cyclic  # then the last chain's end goes round to the first
            succ[n] = n if cyclic else starts[0]
            for e, s in zip(ends, [*starts[1:], starts[0] if cyclic else n], strict=True):
                succ[e] = s
        comp, _ = cycle_labels(succ, n, net.instance.cyclic)
        if self.index is None:
            self.index = CandidateIndex(net)
        # Two ways, as the flow's repair does: each cycle into the main one, then (two cycles
        # or more) any two joined first; the better ordering kept.
        pairwise = patch_pairwise(net, succ, comp, self.pair, self.index, deadline=self.deadline)
        dec = Decoded(succ, comp, NodeReps.none(0, np.int64), np.zeros(n + 1, dtype=np.int64))
        seq = patch_cycles(net, dec, self.pair, self.index, deadline=self.deadline)
        if pairwise is None:
            return seq
        cyclic = net.instance.cyclic
        better = score_sequence(pairwise, self.pair, cyclic) > score_sequence(
            seq, self.pair, cyclic
        )
        return pairwise if better else seq
