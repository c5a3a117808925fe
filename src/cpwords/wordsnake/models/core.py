"""Reduced-cost fixing on the string-hub flow, then an exact search of the remaining core.

When the flow stage (:func:`~cpwords.wordsnake.models.lagrangian.solve_string_flow`) ends with an
incumbent ``z``
and a bound ``L`` a few points above it, most joints cannot be part of any ordering scoring
``z + 1`` or more: their reduced cost in the flow relaxation exceeds the gap. This module

1. computes node potentials of the iterate with the best bound (shortest paths in the residual
   network of its optimal flow: :func:`~cpwords.wordsnake.models.assignment.potentials`),
2. keeps the item pairs whose cheapest hand-over path has reduced cost within the budget
   ``value - scale * (z + 1)`` (:func:`reduced_core`: one Dijkstra per word, cut off at the
   budget), and the chain starts and ends likewise,
3. solves the path cover over that core with CP-SAT's routes constraint, with the objective
   constrained to ``>= z + 1`` and the reduced costs to the budget (:func:`solve_core`).

If the core has no such ordering, ``z`` is optimal; otherwise the core's optimum is the
optimum of the whole list. The proof is in the card ``models/wordsnake.md`` (reduced-cost
fixing); the model never sees a pair outside the core, so its size is that of the core, not
``n^2``.

References
----------
G. B. Dantzig, D. R. Fulkerson, S. M. Johnson, "Solution of a large-scale traveling-salesman
problem", Operations Research 2 (1954) (fixing variables by reduced cost); R. K. Ahuja,
T. L. Magnanti, J. B. Orlin, *Network Flows* (1993), ch. 9 (reduced-cost optimality conditions,
potentials from the residual network).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from cpwords.core.result import Status
from cpwords.wordsnake.models.assignment import potentials
from cpwords.wordsnake.models.decode import item_copies
from cpwords.wordsnake.models.lagrangian import FlowDual
from cpwords.wordsnake.models.repair import PairScore, overlap, score_sequence
from cpwords.wordsnake.models.string_hub import ROOTLINK, ZERO, DeadlineReached, StringHubNetwork

if TYPE_CHECKING:
    from ortools.sat.python import cp_model
    from scipy.sparse import csr_matrix

#: Dijkstra rows computed at once (each row holds one float per network node).
_CELLS_PER_CHUNK = 20_000_000


@dataclass(frozen=True)
class Core:
    """The joints an ordering scoring ``target`` or more may use, with their reduced costs.

    Attributes
    ----------
    target : int
        The score to reach (incumbent + 1).
    budget : int
        Most total reduced cost, in cost units, of an ordering scoring ``target``.
    scale : int
        Cost units per score point.
    pair_u, pair_v : numpy.ndarray of int64, shape (p,)
        Distinct-word ids of the kept pairs (``u`` then ``v``, overlap >= 1).
    pair_rc : numpy.ndarray of int64, shape (p,)
        Lower bound on the reduced cost of the joint ``u -> v``.
    start_rc, end_rc : numpy.ndarray of int64, shape (W,)
        Reduced cost of starting / ending a chain (a zero-overlap joint) at each word.
    """

    target: int
    budget: int
    scale: int
    pair_u: np.ndarray
    pair_v: np.ndarray
    pair_rc: np.ndarray
    start_rc: np.ndarray
    end_rc: np.ndarray

    @property
    def num_pairs(self) -> int:
        """Number of word pairs kept."""
        return int(self.pair_u.shape[0])


class CoreTooLarge(Exception):
    """Reduced-cost fixing kept more word pairs than the caller's cap (collection stopped)."""


def reduced_core(
    net: StringHubNetwork,
    dual: FlowDual,
    incumbent: int,
    deadline: float | None = None,
    max_pairs: int | None = None,
) -> Core:
    """Reduced-cost fixing: the word pairs a better ordering may still use.

    Parameters
    ----------
    net : StringHubNetwork
    dual : FlowDual
        The flow iterate with the best bound.
    incumbent : int
        Score of the best ordering known.
    deadline : float, optional
        ``time.perf_counter()`` value after which the computation stops.
    max_pairs : int, optional
        Stop as soon as more word pairs than this are kept (the pairs are never all held, so
        memory stays linear in the cap, not quadratic in the list).

    Returns
    -------
    Core
        An empty core with a negative budget when ``incumbent`` already meets the bound.

    Raises
    ------
    DeadlineReached
        The deadline passed.
    CoreTooLarge
        More than ``max_pairs`` word pairs are kept.

    Notes
    -----
    For any feasible flow ``f`` and optimal ``f*`` with potentials ``pi``,
    ``cost(f) - cost(f*) >= sum_a max(rc_a, 0) f_a`` (arcs with ``rc_a < 0`` are saturated in
    ``f*``). An ordering scoring ``s`` maps to a feasible flow whose Lagrangian cost is at most
    ``-scale * s``, so it has total positive reduced cost at most
    ``value_scaled - scale * s``: the budget for ``s = incumbent + 1``. A joint ``u -> v`` costs
    at least the cheapest path from ``u``'s exit to ``v``'s entry through the hubs (Dijkstra on
    the costs ``max(rc, 0)``, cut off at the budget); a chain end costs its zero-overlap arc and
    a chain start its arc from the root.
    """
    target = incumbent + 1
    budget = int(dual.value_scaled - dual.scale * target)
    W = net.num_words
    empty = np.zeros(0, dtype=np.int64)
    big = np.full(W, np.iinfo(np.int64).max // 4, dtype=np.int64)
    if budget < 0:
        return Core(target, budget, dual.scale, empty, empty, empty, big, big)
    pi = potentials(net, dual.cost, dual.flows, deadline)
    rc = np.maximum(dual.cost + pi[net.tail] - pi[net.head], 0)
    end_rc = big.copy()
    zero = np.nonzero(net.role == ZERO)[0]
    end_rc[net.tail[zero] - net.out_base] = rc[zero]
    graph = _hub_graph(net, rc, budget)
    us, vs, rcs, start_rc = _pairs_within(net, graph, budget, big, deadline, max_pairs)
    return Core(
        target,
        budget,
        dual.scale,
        np.concatenate(us) if us else empty,
        np.concatenate(vs) if vs else empty,
        np.concatenate(rcs) if rcs else empty,
        start_rc,
        end_rc,
    )


def _hub_graph(net: StringHubNetwork, rc: np.ndarray, budget: int) -> csr_matrix:
    """The hub arcs of reduced cost within the budget, as a sparse graph for Dijkstra (the
    cheapest of parallel arcs, each plus a small epsilon)."""
    from scipy.sparse import csr_matrix

    # Hub paths only: zero-overlap joints are the chain ends and starts.
    keep = (net.role != ZERO) & (net.role != ROOTLINK) & (rc <= budget)
    tails, heads, length = net.tail[keep], net.head[keep], rc[keep]
    order = np.lexsort((length, heads, tails))
    tails, heads, length = tails[order], heads[order], length[order]
    first = np.r_[True, (tails[1:] != tails[:-1]) | (heads[1:] != heads[:-1])]
    # A small epsilon per arc: csgraph drops explicit zero weights; paths have few arcs.
    eps = 1e-6
    return csr_matrix(
        (length[first].astype(float) + eps, (tails[first], heads[first])),
        shape=(net.num_nodes, net.num_nodes),
    )


def _pairs_within(
    net: StringHubNetwork,
    graph: csr_matrix,
    budget: int,
    big: np.ndarray,
    deadline: float | None,
    max_pairs: int | None,
) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], np.ndarray]:
    """Dijkstra from the root and every exit, in chunks of rows: the kept pairs (``u``, ``v``
    and reduced-cost chunks) and the chain starts' reduced costs."""
    from scipy.sparse.csgraph import dijkstra

    W = net.num_words
    ins = net.in_base + np.arange(W)
    sources = np.r_[0, net.out_base + np.arange(W)]  # the root (chain starts), then exits
    rows = max(1, _CELLS_PER_CHUNK // max(1, net.num_nodes))
    limit = budget + 0.5
    us: list[np.ndarray] = []
    vs: list[np.ndarray] = []
    rcs: list[np.ndarray] = []
    start_rc = big.copy()
    kept = 0
    for lo in range(0, sources.size, rows):
        if deadline is not None and time.perf_counter() >= deadline:
            raise DeadlineReached
        dist = dijkstra(graph, indices=sources[lo : lo + rows], limit=limit)[:, ins]
        r, v = np.nonzero(dist <= limit)
        cost = np.floor(dist[r, v]).astype(np.int64)  # integral costs plus < 1 of epsilons
        src = lo + r
        at_root = src == 0
        start_rc[v[at_root]] = cost[at_root]
        kept += int((~at_root).sum())
        if max_pairs is not None and kept > max_pairs:
            raise CoreTooLarge(f"more than {max_pairs:,} word pairs")
        us.append(src[~at_root] - 1)
        vs.append(v[~at_root])
        rcs.append(cost[~at_root])
    return us, vs, rcs, start_rc


@dataclass
class CoreOutcome:
    """What the exact search over a core found.

    Attributes
    ----------
    order : list of int or None
        An item sequence scoring at least ``core.target`` (None: none found).
    objective : int or None
        Its model-side score.
    proven : bool
        The search finished: ``order`` is the core's optimum, or the core has no ordering
        reaching the target (then the incumbent is optimal).
    bound : int or None
        The search's bound on orderings reaching the target (None when none exists or when
        the search proved nothing).
    arcs : int
        Arc literals of the model (item pairs and chain starts/ends).
    interrupted : bool
        Ctrl-C stopped the search.
    error : str or None
        Why the search ended without an answer of its own (its process died), else None.
    """

    order: list[int] | None
    objective: int | None
    proven: bool
    bound: int | None
    arcs: int
    interrupted: bool
    error: str | None = None


def solve_core(
    net: StringHubNetwork,
    core: Core,
    *,
    time_limit: float | None,
    workers: int = 1,
    seed: int = 0,
    progress: Callable[[float, float | None, float | None], None] | None = None,
) -> CoreOutcome:
    """The best ordering over the core's joints scoring at least ``core.target``.

    Parameters
    ----------
    net : StringHubNetwork
    core : Core
    time_limit : float or None
        Seconds for the search.
    workers, seed : int
        CP-SAT ``num_workers`` and ``random_seed``.
    progress : callable, optional
        ``progress(seconds, incumbent, bound)`` on each improving ordering.

    Returns
    -------
    CoreOutcome

    Raises
    ------
    ModelError
        CP-SAT reports MODEL_INVALID (with its validation text).

    Notes
    -----
    Items are the nodes ``1..N`` of ``add_multiple_circuit`` with the depot 0: each route is a
    chain of positive joints, chains are joined by zero-overlap joints, so the model is the
    path cover of the linear snake. Two constraints cut it to the orderings that matter:
    score ``>= target`` and total reduced cost ``<= budget``. A cyclic snake whose best
    ordering has no zero-overlap joint is a Hamiltonian cycle of positive joints, searched by a
    second model (``add_circuit``) with the same two constraints.
    """
    start = time.perf_counter()
    instance = net.instance
    N = instance.n
    pair = PairScore(net)
    copies = item_copies(net)
    arcs = _item_arcs(core, pair, copies)
    item_word = net.item_word.tolist()
    starts = [i for i in range(N) if core.start_rc[item_word[i]] <= core.budget]
    ends = [i for i in range(N) if core.end_rc[item_word[i]] <= core.budget]
    deadline = None if time_limit is None else start + time_limit
    run = partial(_run_cpsat, deadline=deadline, workers=workers, seed=seed)
    # Path cover over the core.
    best_order, best, proven_pc, pc_bound, n_lits, interrupted = _search_path_cover(
        net, core, arcs, starts, ends, item_word, pair, run, start, progress
    )
    if not instance.cyclic or interrupted:
        return CoreOutcome(best_order, best, proven_pc, pc_bound, n_lits, interrupted)

    # Cyclic: a Hamiltonian cycle of positive core joints scoring above the best so far.
    heads_of = {a for a, _, _, _ in arcs}
    tails_of = {b for _, b, _, _ in arcs}
    goal = core.target if best is None else best + 1
    proven_hc = True
    hc_bound: int | None = None
    if (
        len(heads_of) == N
        and len(tails_of) == N
        and (_left(deadline) is None or (_left(deadline) or 0) > 0)
    ):
        seq, value, proven_hc, hc_bound, interrupted = _search_cycle(N, core, arcs, goal, pair, run)
        if seq is not None and value is not None and (best is None or value > best):
            best_order, best = seq, value
    bound = None
    if pc_bound is not None or hc_bound is not None:
        bound = max(b for b in (pc_bound, hc_bound, best) if b is not None)
    return CoreOutcome(best_order, best, proven_pc and proven_hc, bound, n_lits, interrupted)


def _item_arcs(
    core: Core, pair: PairScore, copies: list[list[int]]
) -> list[tuple[int, int, int, int]]:
    """The core's positive joints between items: (tail item, head item, score, reduced cost)."""
    arcs: list[tuple[int, int, int, int]] = []
    for u, v, r in zip(core.pair_u.tolist(), core.pair_v.tolist(), core.pair_rc.tolist(),
                       strict=True):  # fmt: skip
        a0 = copies[u][0]
        b0 = copies[v][0] if v != u else (copies[u][1] if len(copies[u]) > 1 else -1)
        if b0 < 0:
            continue
        score = pair(a0, b0)
        if score <= 0:
            continue
        for a in copies[u]:
            for b in copies[v]:
                if a != b:
                    arcs.append((a, b, score, r))
    return arcs


def _left(deadline: float | None) -> float | None:
    """Seconds until the deadline (None: no deadline)."""
    return None if deadline is None else deadline - time.perf_counter()


def _run_cpsat(
    model: cp_model.CpModel, *, deadline: float | None, workers: int, seed: int
) -> tuple[cp_model.CpSolver, Status, bool]:
    """Solve a core model with the time left: the solver, its status and whether Ctrl-C
    stopped it."""
    from cpwords.core.cpsat_status import Task, cpsat_status, new_solver
    from cpwords.core.cpsat_stop import solve as solve_interruptibly

    solver = new_solver(_left(deadline), workers, seed)
    code, stopped = solve_interruptibly(solver, model)
    return solver, cpsat_status(code, Task.OPTIMISE, model, "core model"), stopped


def _search_path_cover(
    net: StringHubNetwork,
    core: Core,
    arcs: list[tuple[int, int, int, int]],
    starts: list[int],
    ends: list[int],
    item_word: list[int],
    pair: PairScore,
    run: Callable[[cp_model.CpModel], tuple[cp_model.CpSolver, Status, bool]],
    start: float,
    progress: Callable[[float, float | None, float | None], None] | None,
) -> tuple[list[int] | None, int | None, bool, int | None, int, bool]:
    """The path cover over the core (``add_multiple_circuit``, the depot 0): its best ordering,
    score, whether proven, bound, number of arc literals and whether Ctrl-C stopped it."""
    from ortools.sat.python import cp_model

    N = net.instance.n
    best_order: list[int] | None = None
    best: int | None = None
    model = cp_model.CpModel()
    lits: list[tuple[int, int, Any]] = []
    score_terms: list[Any] = []
    rc_terms: list[Any] = []
    for i in starts:
        x = model.new_bool_var("")
        lits.append((0, i + 1, x))
        rc_terms.append(int(core.start_rc[item_word[i]]) * x)
    for i in ends:
        x = model.new_bool_var("")
        lits.append((i + 1, 0, x))
        rc_terms.append(int(core.end_rc[item_word[i]]) * x)
    for a, b, score, r in arcs:
        x = model.new_bool_var("")
        lits.append((a + 1, b + 1, x))
        score_terms.append(score * x)
        rc_terms.append(r * x)
    covered_in = {h for _, h, _ in lits}
    covered_out = {t for t, _, _ in lits}
    feasible = all(i in covered_in and i in covered_out for i in range(1, N + 1))
    proven_pc = True
    pc_bound: int | None = None
    interrupted = False
    if feasible:
        model.add_multiple_circuit(lits)
        model.add(sum(score_terms) >= core.target)
        model.add(sum(rc_terms) <= core.budget)
        model.maximize(sum(score_terms))
        solver, status, interrupted = run(model)
        if status in (Status.OPTIMAL, Status.FEASIBLE):
            succ = {t: h for t, h, x in lits if t != 0 and solver.boolean_value(x)}
            seq: list[int] = []
            for t, h, x in lits:
                if t == 0 and solver.boolean_value(x):
                    node = h
                    while node != 0:
                        seq.append(node - 1)
                        node = succ[node]
            best_order, best = seq, score_sequence(seq, pair, net.instance.cyclic)
            if progress is not None:
                progress(time.perf_counter() - start, best, None)
        proven_pc = status in (Status.OPTIMAL, Status.INFEASIBLE)
        if status in (Status.OPTIMAL, Status.FEASIBLE):
            pc_bound = int(np.floor(solver.best_objective_bound + 1e-6))
    return best_order, best, proven_pc, pc_bound, len(lits), interrupted


def _search_cycle(
    N: int,
    core: Core,
    arcs: list[tuple[int, int, int, int]],
    goal: int,
    pair: PairScore,
    run: Callable[[cp_model.CpModel], tuple[cp_model.CpSolver, Status, bool]],
) -> tuple[list[int] | None, int | None, bool, int | None, bool]:
    """A Hamiltonian cycle of positive core joints scoring ``goal`` or more (``add_circuit``):
    its ordering and score (None: none found), whether proven, the bound and whether Ctrl-C
    stopped it."""
    from ortools.sat.python import cp_model

    seq: list[int] | None = None
    value: int | None = None
    hc_bound: int | None = None
    cyc = cp_model.CpModel()
    hc = [(a, b, cyc.new_bool_var(""), score, r) for a, b, score, r in arcs]
    cyc.add_circuit([(a, b, x) for a, b, x, _, _ in hc])
    cyc.add(sum(score * x for _, _, x, score, _ in hc) >= goal)
    cyc.add(sum(r * x for _, _, x, _, r in hc) <= core.budget)
    cyc.maximize(sum(score * x for _, _, x, score, _ in hc))
    solver, status, interrupted = run(cyc)
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        nxt = {a: b for a, b, x, _, _ in hc if solver.boolean_value(x)}
        seq, node = [], 0
        for _ in range(N):
            seq.append(node)
            node = nxt[node]
        value = score_sequence(seq, pair, True)
        hc_bound = int(np.floor(solver.best_objective_bound + 1e-6))
    proven_hc = status in (Status.OPTIMAL, Status.INFEASIBLE)
    return seq, value, proven_hc, hc_bound, interrupted


# ---------------------------------------------------------------------------------------------
# Branch-and-cut over the core with repeated words as one node of multiplicity k (HiGHS).
# ---------------------------------------------------------------------------------------------

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
    for u, v, r in zip(core.pair_u.tolist(), core.pair_v.tolist(), core.pair_rc.tolist(),
                       strict=True):  # fmt: skip
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
            reach = breadth_first_order(resid + back, root, directed=True,
                                        return_predecessors=False)  # fmt: skip
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
        Search in a forked child process that is killed ``CHILD_GRACE`` seconds past the time
        limit or at once on Ctrl-C (its best ordering so far is kept). Default: when the core
        holds at least ``CHILD_MIN_PAIRS`` joints.

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
    from cpwords.core.procs import ChildDied, run_stoppable

    stopped: str | None
    error: str | None
    hard = None if time_limit is None else time.perf_counter() + time_limit + CHILD_GRACE
    try:
        run = run_stoppable(
            _core_mip_child, net, core, time_limit, deadline=hard, on_report=on_report
        )
    except ChildDied as exc:
        stopped, error = None, str(exc)
    else:
        if run.stopped is None:
            out: CoreOutcome = run.value
            return out
        stopped, error = run.stopped, None
    return CoreOutcome(
        seen.get("order"), seen.get("objective"), False, None, int(seen.get("arcs", 0)),
        stopped == "interrupted", error,
    )  # fmt: skip


def _core_mip_child(
    report: Callable[[dict[str, Any]], None],
    net: StringHubNetwork,
    core: Core,
    time_limit: float | None,
) -> CoreOutcome:  # pragma: no cover - runs in a child
    """:func:`solve_core_mip` in the forked child: the arcs of each model and each improving
    ordering are reported to the parent as they come."""
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
        found, status_proven, interrupted = _cut_and_branch(
            h, arcs, idx, nodes, root, W, deadline, bounds
        )
        if found is not None:
            pool = item_copies(net)
            seq = [pool[w].pop() for w in found]
            value = score_sequence(seq, PairScore(net), instance.cyclic)
            if best is None or value > best:
                best_seq, best = seq, value
                seconds = time.perf_counter() - start
                report({"seconds": seconds, "order": seq, "objective": best})
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

    # Degree rows of every word, in bulk: in-degree = out-degree = multiplicity.
    k = net.mult.astype(float)
    for ends in (arcs.head, arcs.tail):
        mine = np.nonzero(ends < W)[0]
        cols = mine[np.argsort(ends[mine], kind="stable")]
        starts = np.searchsorted(ends[cols], np.arange(W)).astype(np.int32)
        h.addRows(W, k, k, int(cols.size), starts, cols.astype(np.int32), np.ones(cols.size))
    if with_depot:
        chain_starts = np.nonzero(arcs.tail == W)[0]
        _add_row(h, chain_starts, np.ones(chain_starts.size), 1.0, float(net.instance.n))
    _add_row(h, idx, arcs.score.astype(float), float(goal), highspy.kHighsInf)
    _add_row(h, idx, arcs.rc.astype(float), -highspy.kHighsInf, float(core.budget))
    return h, idx


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
) -> tuple[list[int] | None, bool, bool]:
    """Solve the model, adding violated subtour cuts, first to the LP, then (integral) to the
    MIP: the word order found (or None), whether it is proven optimal (or the model
    infeasible) and whether Ctrl-C stopped it. HiGHS's dual bound goes into ``bounds``."""
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
        if st not in (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kTimeLimit,
                      highspy.HighsModelStatus.kInterrupt):  # fmt: skip
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
        if cuts:
            sizes = np.array([c.size for c in cuts], dtype=np.int64)
            starts = np.r_[0, np.cumsum(sizes)[:-1]].astype(np.int32)
            cols = np.concatenate(cuts).astype(np.int32)
            h.addRows(
                len(cuts), np.ones(len(cuts)), np.full(len(cuts), highspy.kHighsInf),
                int(cols.size), starts, cols, np.ones(cols.size),
            )  # fmt: skip
        if cuts:
            continue
        if not integral:
            integral = True
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
