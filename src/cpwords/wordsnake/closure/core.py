"""Reduced-cost fixing on the string-hub flow, then an exact search of the remaining core.

When the flow stage (:func:`~cpwords.wordsnake.exact.policy.solve_string_flow`) ends with an
incumbent ``z`` and a bound ``L`` a few points above it, most joints cannot be part of any ordering
scoring ``z + 1`` or more: their reduced cost in the flow relaxation exceeds the gap. This module

1. computes node potentials of the iterate with the best bound (shortest paths in the residual
   network of its optimal flow: :func:`~cpwords.wordsnake.relaxation.assignment.potentials`),
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from cpwords.core.result import Status
from cpwords.wordsnake.primal.repair import PairScore, score_sequence
from cpwords.wordsnake.relaxation.assignment import potentials
from cpwords.wordsnake.relaxation.decode import item_copies
from cpwords.wordsnake.relaxation.flow import FlowDual
from cpwords.wordsnake.relaxation.residual import CHUNK, group_by
from cpwords.wordsnake.relaxation.sparse_flow import dense_flows
from cpwords.wordsnake.relaxation.string_hub import (
    ROOTLINK,
    ZERO,
    DeadlineReached,
    StringHubNetwork,
)

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
    pi = potentials(net, dual.cost, dense_flows(dual.flows), deadline)
    rc = _positive_reduced_costs(net, dual.cost, pi)
    del pi
    end_rc = big.copy()
    zero = np.nonzero(net.role == ZERO)[0]
    end_rc[net.tail[zero] - net.out_base] = rc[zero]
    graph = _hub_graph(net, rc, budget)
    del rc  # the rows' searches below hold one row of distances a node at a time
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


def _positive_reduced_costs(net: StringHubNetwork, cost: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """``max(cost + pi[tail] - pi[head], 0)`` in int64, a chunk of arcs at a time (the whole
    network's expression made three arrays of its size besides the result)."""
    rc = np.empty(net.m, dtype=np.int64)
    for lo in range(0, net.m, CHUNK):
        part = slice(lo, lo + CHUNK)
        r = cost[part] + pi[net.tail[part]]
        r -= pi[net.head[part]]
        np.maximum(r, 0, out=rc[part])
    return rc


def _hub_graph(net: StringHubNetwork, rc: np.ndarray, budget: int) -> csr_matrix:
    """The hub arcs of reduced cost within the budget, as a sparse graph for Dijkstra (the
    cheapest of parallel arcs, each plus a small epsilon): rows by tail, each row's entries by
    head, as SciPy made them from the lexicographically sorted triples. Built a chunk at a time
    (:func:`~cpwords.wordsnake.relaxation.residual.group_by`, then each chunk of rows sorted and
    its parallel arcs dropped in place), where the whole network's sort and copies took several
    arrays of its size (the whole Polish dictionary's stage peaked at 7.3 GB in them)."""
    from scipy.sparse import csr_matrix

    def chunks(full: bool) -> Iterator[tuple[np.ndarray, ...]]:
        # Hub paths only: zero-overlap joints are the chain ends and starts.
        for lo in range(0, net.m, CHUNK):
            part = slice(lo, lo + CHUNK)
            role, r = net.role[part], rc[part]
            keep = (role != ZERO) & (role != ROOTLINK) & (r <= budget)
            tails = net.tail[part][keep]
            yield (tails, net.head[part][keep].astype(np.int32), r[keep]) if full else (tails,)

    n = net.num_nodes
    indptr, (heads, length) = group_by(n, chunks, (np.int32, np.int64))
    counts = np.zeros(n, dtype=np.int64)
    w = 0  # entries kept so far: each chunk's kept ones are written back from there
    r0 = 0
    while r0 < n:
        r1 = int(np.searchsorted(indptr, indptr[r0] + CHUNK, side="right")) - 1
        r1 = min(n, max(r0 + 1, r1))
        lo, hi = int(indptr[r0]), int(indptr[r1])
        rows = np.repeat(np.arange(r0, r1, dtype=np.int64), np.diff(indptr[r0 : r1 + 1]))
        order = np.lexsort((length[lo:hi], heads[lo:hi], rows))
        rows, h, c = rows[order], heads[lo:hi][order], length[lo:hi][order]
        first = np.ones(rows.size, dtype=bool)
        first[1:] = (rows[1:] != rows[:-1]) | (h[1:] != h[:-1])
        k = int(first.sum())
        heads[w : w + k] = h[first]
        length[w : w + k] = c[first]
        counts[r0:r1] = np.bincount(rows[first] - r0, minlength=r1 - r0)
        w += k
        r0 = r1
    fits = w <= np.iinfo(np.int32).max
    offsets = np.zeros(n + 1, dtype=np.int32 if fits else np.int64)
    np.cumsum(counts, out=offsets[1:])
    del counts, indptr
    # A small epsilon per arc: csgraph drops explicit zero weights; paths have few arcs.
    eps = 1e-6
    data = length[:w].astype(float)
    del length
    data += eps
    return csr_matrix((data, heads[:w].copy(), offsets), shape=(n, n))


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
    for u, v, r in zip(
        core.pair_u.tolist(), core.pair_v.tolist(), core.pair_rc.tolist(), strict=True
    ):
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
