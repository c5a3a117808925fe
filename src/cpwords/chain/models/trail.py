"""The exact model: a longest trail in the word multigraph, MIP in HiGHS with lazy cuts.

Nodes are the ``k``-letter strings that begin or end a usable word; each word ``w`` is an arc
``w[:k] -> w[-k:]`` of weight 1 (``--maximise words``) or ``len(w)`` (``letters``). A chain is
a trail (arcs distinct, consecutive arcs meeting head to tail), so the longest chain is the
heaviest trail. ``models/chain.md`` states the program, the cuts and why they are valid.

Parallel arcs of equal weight are interchangeable, so they are one integer column ``y_g`` in
``[0, |g|]`` (the number of words of the group ``g`` used); this is the projection of the
binary per-word program, cuts included (see the card).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpwords.chain.heuristics import random_dfs
from cpwords.chain.rules import ChainInstance
from cpwords.core.native import new_highs, solve_highs_round
from cpwords.core.result import SolveResult, Status, TracePoint


@dataclass
class TrailGraph:
    """The multigraph of one instance, its arcs grouped (tail, head, weight).

    Attributes
    ----------
    nodes : list of str
        The ``k``-letter strings; a node is its index.
    tail, head, weight, cap : numpy arrays
        Per group: its end nodes, the weight of each of its words, and how many words it has.
    members : list of list of str
        Per group: its words.
    group_of : dict
        Word -> its group.
    constant : int
        The value of the fixed first and last words (not arcs of the graph).
    source, sink : int or None
        The node the trail must start at (after the fixed first word) and end at (before the
        fixed last word).
    """

    nodes: list[str]
    tail: np.ndarray
    head: np.ndarray
    weight: np.ndarray
    cap: np.ndarray
    members: list[list[str]]
    group_of: dict[str, int]
    constant: int = 0
    source: int | None = None
    sink: int | None = None
    outs: list[np.ndarray] = field(default_factory=list)
    ins: list[np.ndarray] = field(default_factory=list)

    @property
    def n_groups(self) -> int:
        """Number of groups (integer columns ``y``)."""
        return len(self.members)


def trail_graph(instance: ChainInstance) -> TrailGraph:
    """Build the grouped multigraph (fixed first and last words left out of it).

    Parameters
    ----------
    instance : ChainInstance

    Returns
    -------
    TrailGraph
    """
    k, letters = instance.overlap, instance.objective == "letters"
    fixed = {instance.start, instance.end} - {None}
    node_id: dict[str, int] = {}

    def node(s: str) -> int:
        return node_id.setdefault(s, len(node_id))

    groups: dict[tuple[int, int, int], int] = {}
    members: list[list[str]] = []
    keys: list[tuple[int, int, int]] = []
    for w in instance.usable():
        if w in fixed:
            continue
        key = (node(w[:k]), node(w[len(w) - k :]), len(w) if letters else 1)
        g = groups.setdefault(key, len(members))
        if g == len(members):
            members.append([])
            keys.append(key)
        members[g].append(w)
    arr = np.asarray(keys, dtype=np.int64).reshape(-1, 3)
    tg = TrailGraph(
        [],
        arr[:, 0],
        arr[:, 1],
        arr[:, 2],
        np.asarray([len(m) for m in members]),
        members,
        {w: g for g, ws in enumerate(members) for w in ws},
    )
    weigh = (lambda w: len(w)) if letters else (lambda w: 1)
    tg.constant = sum(weigh(w) for w in fixed)
    if instance.start is not None:
        tg.source = node(instance.start[len(instance.start) - k :])
    if instance.end is not None:
        tg.sink = node(instance.end[:k])
    tg.nodes = list(node_id)
    n = len(tg.nodes)
    order = np.argsort(tg.tail, kind="stable")
    tg.outs = np.split(order, np.searchsorted(tg.tail[order], np.arange(1, n)))
    order = np.argsort(tg.head, kind="stable")
    tg.ins = np.split(order, np.searchsorted(tg.head[order], np.arange(1, n)))
    return tg


def euler_trail(tg: TrailGraph, counts: np.ndarray, start: int) -> list[str]:
    """The words of the component of ``start`` among the chosen arcs, as one trail from
    ``start`` (Hierholzer's algorithm; the degrees must allow it, as flow conservation does).

    Parameters
    ----------
    tg : TrailGraph
    counts : numpy array
        Words used per group.
    start : int
        The trail's first node.

    Returns
    -------
    list of str
        The words in trail order (empty when no chosen arc touches ``start``'s component).
    """
    adj: dict[int, list[str]] = {}
    for g in np.flatnonzero(counts > 0):
        adj.setdefault(int(tg.tail[g]), []).extend(tg.members[g][: int(counts[g])])
    head = {w: int(tg.head[tg.group_of[w]]) for ws in adj.values() for w in ws}
    stack: list[tuple[int, str | None]] = [(start, None)]
    path: list[str] = []
    while stack:
        v, w = stack[-1]
        if adj.get(v):
            nxt = adj[v].pop()
            stack.append((head[nxt], nxt))
        else:
            stack.pop()
            if w is not None:
                path.append(w)
    path.reverse()
    return path


def components(tg: TrailGraph, counts: np.ndarray) -> list[np.ndarray]:
    """The weak components (node sets) of the chosen arcs.

    Returns
    -------
    list of numpy arrays
        Node indices of each component that holds a chosen arc.
    """
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    n = len(tg.nodes)
    chosen = np.flatnonzero(counts > 0)
    if chosen.size == 0:
        return []
    m = coo_matrix((np.ones(chosen.size), (tg.tail[chosen], tg.head[chosen])), shape=(n, n)).tocsr()
    _, label = connected_components(m, directed=True, connection="weak")
    touched = np.unique(np.r_[tg.tail[chosen], tg.head[chosen]])
    return [touched[label[touched] == c] for c in np.unique(label[touched])]


#: Seconds per usable word kept at the end of a time limit for the certificate (the relaxation
#: solved once more) and its check by the independent checker: measured 0.6 s and 0.5 s for
#: ENABLE's 172,724 words of at least 3 letters (the cut loop ran to the limit, and the
#: command ended 1.5-2.8 s past its 5 s).
CERTIFICATE_SECONDS_PER_WORD = 8e-6


def certificate_reserve(instance: ChainInstance) -> float:
    """Seconds the certificate and its check take on ``instance`` (an estimate, see
    :data:`CERTIFICATE_SECONDS_PER_WORD`).

    Examples
    --------
    >>> from cpwords.chain.rules import ChainInstance
    >>> round(certificate_reserve(ChainInstance(("seasick", "kiln"))), 6)
    0.050016
    """
    return 0.05 + CERTIFICATE_SECONDS_PER_WORD * len(instance.usable())


#: A component's cuts cover every group inside it when it has at most this many (so that the
#: next round cannot pick another subtour on the same nodes), else only the chosen ones.
MAX_CUT_GROUPS = 500


class _TrailMip:
    """The trail program in HiGHS: columns ``y`` (groups), then ``s`` and ``t`` (nodes)."""

    def __init__(self, tg: TrailGraph, seed: int, workers: int = 1) -> None:
        import highspy
        from scipy.sparse import coo_matrix

        self._hs, self.tg = highspy, tg
        G, N = tg.n_groups, len(tg.nodes)
        self.G, self.N = G, N
        h = new_highs(seed, workers)
        # Presolve's probing took 77 s on ENABLE with k = 3 (96k binaries) and overran the
        # time limit by 42 s; without presolve the first round is proven in 8 s (its LP is a
        # network flow, integral).
        h.setOptionValue("presolve", "off")
        # Nor feasibility jump, a first heuristic that reads no clock: with a limit of 2 s it
        # ran for 2.1 s before the root LP (the round ended 1 s late, cancelled), and the first
        # round is then proven in 3.5 s instead of more than 5 (the search's chain is a start).
        h.setOptionValue("mip_heuristic_run_feasibility_jump", False)
        lower = np.zeros(G + 2 * N)
        upper = np.r_[tg.cap.astype(float), np.ones(2 * N)]
        if tg.source is not None:
            lower[G + tg.source] = 1.0
        if tg.sink is not None:
            lower[G + N + tg.sink] = 1.0
        h.addVars(G + 2 * N, lower, upper)
        cols = np.arange(G + 2 * N, dtype=np.int32)
        h.changeColsIntegrality(G + 2 * N, cols, np.ones(G + 2 * N, dtype=np.uint8))
        h.changeColsCost(G + 2 * N, cols, np.r_[tg.weight.astype(float), np.zeros(2 * N)])
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        # Flow conservation at every node: in(v) + s_v - out(v) - t_v = 0 (loops cancel).
        nodes = np.arange(N)
        rows = np.r_[tg.head, tg.tail, nodes, nodes]
        colv = np.r_[np.arange(G), np.arange(G), G + nodes, G + N + nodes]
        vals = np.r_[np.ones(G), -np.ones(G), np.ones(N), -np.ones(N)]
        a = coo_matrix((vals, (rows, colv)), shape=(N, G + 2 * N)).tocsr()
        a.eliminate_zeros()
        h.addRows(
            N,
            np.zeros(N),
            np.zeros(N),
            a.nnz,
            a.indptr[:-1].astype(np.int32),
            a.indices.astype(np.int32),
            a.data.astype(float),
        )
        for first in (G, G + N):  # one start, one end: sum s = sum t = 1
            h.addRow(1.0, 1.0, N, np.arange(first, first + N, dtype=np.int32), np.ones(N))
        self.h = h
        self.cuts = 0
        #: Per cut row, in the order added: (node set, group, side), for the certificate.
        self.cut_rows: list[tuple[np.ndarray, int, str]] = []

    def solve(self, seconds: float | None) -> tuple[Status, float | None, np.ndarray | None, bool]:
        """One round: (status, dual bound, column values or None, interrupted)."""
        status, bound, values, stopped = solve_highs_round(self.h, seconds)
        x = None if values is None else np.rint(values).astype(np.int64)
        return status, bound, x, stopped

    def add_cuts(self, comp: np.ndarray, chosen: np.ndarray) -> None:
        """For the groups ``g`` inside ``comp`` (node set C; all of them, or the chosen ones when
        there are more than :data:`MAX_CUT_GROUPS`), add ``y_g <= cap_g (y(in C) + s(C))`` and
        ``y_g <= cap_g (y(out of C) + t(C))``."""
        tg, G, N = self.tg, self.G, self.N
        inside = np.zeros(N, dtype=bool)
        inside[comp] = True
        leaving = np.concatenate([tg.outs[v] for v in comp])
        every = leaving[inside[tg.head[leaving]]]  # every group inside C
        groups = (
            every
            if every.size <= MAX_CUT_GROUPS
            else chosen[inside[tg.tail[chosen]] & inside[tg.head[chosen]]]
        )
        into = np.concatenate([tg.ins[v] for v in comp])
        into = into[~inside[tg.tail[into]]]
        out = leaving[~inside[tg.head[leaving]]]
        for cross, offset, side in ((into, G, "in"), (out, G + N, "out")):
            rest = np.r_[cross, offset + comp].astype(np.int32)
            for g in groups:
                c = float(tg.cap[g])
                idx = np.r_[np.int32(g), rest].astype(np.int32)
                val = np.r_[1.0, -c * np.ones(rest.size)]
                self.h.addRow(-self._hs.kHighsInf, 0.0, int(idx.size), idx, val)
                self.cuts += 1
                self.cut_rows.append((comp, int(g), side))

    def set_start(self, values: np.ndarray) -> None:
        """Give HiGHS a feasible point (a connected trail) to start from."""
        start = self._hs.HighsSolution()
        start.col_value = values.astype(float).tolist()
        start.value_valid = True
        self.h.setSolution(start)


def _value(chain: Sequence[str], letters: bool) -> int:
    return sum(len(w) for w in chain) if letters else len(chain)


def _columns(tg: TrailGraph, chain: Sequence[str], instance: ChainInstance) -> np.ndarray:
    """The column values of a valid chain (its middle words; the fixed ends are constants)."""
    G, N = tg.n_groups, len(tg.nodes)
    middle = list(chain)
    if instance.start is not None:
        middle = middle[1:]
    if instance.end is not None and middle:
        middle = middle[:-1]
    x = np.zeros(G + 2 * N, dtype=np.int64)
    for w in middle:
        x[tg.group_of[w]] += 1
    if middle:
        s, t = tg.group_of[middle[0]], tg.group_of[middle[-1]]
        first, last = int(tg.tail[s]), int(tg.head[t])
    else:  # only the fixed word(s): the trail is empty at the source (or the sink)
        node = tg.source if tg.source is not None else tg.sink
        first = last = int(node if node is not None else 0)
    x[G + first] = 1
    x[G + N + last] = 1
    return x


#: A solve's progress callback: ``(incumbent, bound, stage)``.
Progress = Callable[[float | None, float | None, str], None]


@dataclass
class _Search:
    """The incumbent, the best bound and the counters of the cut loop."""

    best: tuple[str, ...] | None = None
    value: int = -1
    bound: float = math.inf
    rounds: int = 0
    interrupted: bool = False
    proven: bool = False
    trace: list[TracePoint] = field(default_factory=list)
    progress: Progress | None = None

    def say(self, stage: str) -> None:
        """Report the stage, the incumbent and the bound (when a progress callback listens)."""
        if self.progress is not None:
            bound = None if math.isinf(self.bound) else float(self.bound)
            best = float(self.value) if self.best is not None else None
            self.progress(best, bound, stage)

    def offer(self, chain: Sequence[str], value: int) -> bool:
        """Keep ``chain`` (worth ``value``) when it beats the best so far; whether it did."""
        if value > self.value:
            self.best, self.value = tuple(chain), value
            return True
        return False

    def point(self, t0: float) -> None:
        """Record the incumbent and the bound now (one point per round)."""
        bound = None if math.isinf(self.bound) else float(self.bound)
        best = float(self.value) if self.best is not None else None
        self.trace.append(TracePoint(time.perf_counter() - t0, best, bound))


def chain_trail_mip(
    instance: ChainInstance,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    hint: bool = True,
    certificate: bool = True,
    workers: int = 1,
    progress: Progress | None = None,
) -> SolveResult:
    """The longest chain, proven: the trail program solved round by round with lazy cuts.

    Parameters
    ----------
    instance : ChainInstance
        Validated (fixed words in the list and at least ``overlap`` letters long).
    time_limit : float, optional
        Seconds for the whole solve (None: no limit).
    seed : int
        HiGHS's and the starting search's seed.
    hint : bool
        Start HiGHS from the randomised search's chain (a short run).
    certificate : bool
        Also compute the certificate of the bound (:mod:`cpwords.chain.models.certify`: the
        relaxation's duals in integers), in ``solver_info["certificate"]``. With a time limit
        the cut loop leaves it and its check their time (:func:`certificate_reserve`, at most
        half the limit), and a certificate that would end past the limit is not computed
        (``solver_info["certificate_error"]`` says so; an OPTIMAL chain then rests on HiGHS).
    workers : int
        HiGHS's threads (1 by default: its other threads spin while they wait, see
        :func:`cpwords.core.native.new_highs`).
    progress : callable ``(incumbent, bound, stage)``, optional
        Called as the solve advances (a progress line): the best chain's value and the best
        bound so far, and the stage (``"starting search"``, ``"cut round 3, 12 cuts"``,
        ``"certificate"``).

    Returns
    -------
    SolveResult
        OPTIMAL when a round's MIP was solved to a zero gap and its trail is connected (or the
        best chain meets the best bound); FEASIBLE with the bound otherwise; INFEASIBLE when no
        chain joins the fixed words.

    Examples
    --------
    >>> from cpwords.chain.rules import ChainInstance
    >>> r = chain_trail_mip(ChainInstance(("seasick", "kiln", "nausea", "apple", "dog")))
    >>> r.status.value, r.objective, r.bound, len(r.solution)
    ('OPTIMAL', 4.0, 4.0, 4)
    """
    t0 = time.perf_counter()
    if instance.start is not None and instance.start == instance.end:
        return _one_word_chain(instance, t0)
    tg = trail_graph(instance)
    search = _Search(progress=progress)
    search.say("starting search")
    if hint:
        _start_from_search(instance, search, t0, seed, time_limit)
    mip = _TrailMip(tg, seed, workers)
    reserve = certificate_reserve(instance) if certificate else 0.0
    loop_limit = None if time_limit is None else time_limit - min(reserve, 0.5 * time_limit)
    _cut_loop(instance, tg, mip, search, t0, loop_limit)
    cert, late = None, False
    if certificate and search.best is not None and not search.interrupted:
        from cpwords.chain.models.certify import lp_certificate

        search.say("certificate")
        # The estimate is generous (ENABLE, k = 3: 1.4 s for 1.1 s measured), so a last round
        # cancelled a little past the loop's end still leaves the certificate its time.
        late = time_limit is not None and time.perf_counter() - t0 + 0.75 * reserve > time_limit
        if not late:
            cert = lp_certificate(instance, tg, mip, search.best)
    extra = {"certificate_error": "the time limit left no time for it"} if late else {}
    return _result(search, tg, mip, time.perf_counter() - t0, cert, extra)


def _one_word_chain(instance: ChainInstance, t0: float) -> SolveResult:
    """One word as both ends: its only chain is that word (OPTIMAL, no round, no cut)."""
    assert instance.start is not None
    value = float(_value([instance.start], instance.objective == "letters"))
    return SolveResult(
        Status.OPTIMAL,
        value,
        value,
        time.perf_counter() - t0,
        (instance.start,),
        "trail-mip",
        "max",
        {"rounds": 0, "cuts": 0},
    )


def _start_from_search(
    instance: ChainInstance, search: _Search, t0: float, seed: int, time_limit: float | None
) -> None:
    """Offer ``search`` the chain of a short randomised search (5% of the time limit, 20,000
    steps): HiGHS starts from it."""
    budget = None if time_limit is None else 0.05 * time_limit
    h = random_dfs(instance, seed=seed, time_limit=budget, steps=20_000)
    if h.solution is not None:
        search.offer(h.solution, int(h.objective or 0))
        search.point(t0)


def _cut_loop(
    instance: ChainInstance,
    tg: TrailGraph,
    mip: _TrailMip,
    search: _Search,
    t0: float,
    time_limit: float | None,
) -> None:
    """Solve, keep the bound and the start's trail, cut every other component; repeat until a
    round is optimal and connected, or time runs out."""
    letters = instance.objective == "letters"
    G, N = tg.n_groups, len(tg.nodes)
    while True:
        if search.best is not None:
            mip.set_start(_columns(tg, search.best, instance))
        left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        if left is not None and left <= 0.01:
            return
        search.say(f"cut round {search.rounds + 1}, {mip.cuts:,} cuts")
        status, bound, x, stopped = mip.solve(left)
        search.rounds += 1
        search.interrupted = stopped
        if status is Status.INFEASIBLE:
            search.bound = -math.inf
            return
        if bound is not None:  # objectives are whole: the bound rounds down
            search.bound = min(search.bound, math.floor(bound + 1e-6) + tg.constant)
        if x is None:
            search.point(t0)
            return
        counts, s_node = x[:G], int(np.argmax(x[G : G + N]))
        trail = euler_trail(tg, counts, s_node)
        chain = [
            *([instance.start] if instance.start else []),
            *trail,
            *([instance.end] if instance.end else []),
        ]
        search.offer(chain, _value(chain, letters))
        search.point(t0)
        others = [c for c in components(tg, counts) if s_node not in set(c.tolist())]
        if not others:
            if status is Status.OPTIMAL:
                search.proven = True
            return
        if stopped:
            return
        chosen = np.flatnonzero(counts > 0)
        for comp in others:
            mip.add_cuts(comp, chosen)


def _result(
    search: _Search,
    tg: TrailGraph,
    mip: _TrailMip,
    wall: float,
    cert: Any = None,
    extra: dict[str, Any] | None = None,
) -> SolveResult:
    info: dict[str, Any] = {
        "rounds": search.rounds,
        "cuts": mip.cuts,
        "groups": tg.n_groups,
        "nodes": len(tg.nodes),
        "interrupted": search.interrupted,
        **(extra or {}),
    }
    if cert is not None:
        info["certificate"] = cert
    if search.best is None:
        if search.bound == -math.inf:
            return SolveResult(Status.INFEASIBLE, None, None, wall, None, "trail-mip", "max", info)
        bound = None if math.isinf(search.bound) else float(search.bound)
        return SolveResult(Status.UNKNOWN, None, bound, wall, None, "trail-mip", "max", info)
    value = float(search.value)
    bound = max(value, search.bound) if math.isfinite(search.bound) else None
    proven = search.proven or (bound is not None and bound <= value)
    return SolveResult(
        Status.OPTIMAL if proven else Status.FEASIBLE,
        value,
        value if proven else bound,
        wall,
        search.best,
        "trail-mip",
        "max",
        info,
        tuple(search.trace),
    )
