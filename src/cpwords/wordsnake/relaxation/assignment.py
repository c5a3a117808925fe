"""The greedy assignment as a flow of the string-hub network, and its proof by potentials.

The first bound of the default method. Squared overlaps make the longest-overlap-first greedy
(:func:`~cpwords.wordsnake.relaxation.decode.greedy_successors`) an optimal assignment on most real
word lists (the Monge argument in ``models/wordsnake.md``), so instead of solving the min-cost
flow from scratch:

1. :func:`route_successors` routes the greedy's successor map through the string-hub network,
   one unit per joint (the hand-over arc of its overlap string, then the hub's arcs down to the
   entry of its successor): a feasible integral flow whose value is the assignment's score;
2. :class:`Reoptimizer` computes shortest-path distances in that flow's residual network
   (Bellman-Ford, vectorised, in sweeps along the network's node classes). They exist exactly
   when the residual network has no negative cycle, that is when the flow is optimal (Ahuja,
   Magnanti and Orlin, *Network Flows*, theorem 9.4): the potentials are the certificate, and
   the greedy's value is the assignment bound, at the cost of a few passes over the arcs. When
   the greedy was not optimal, the negative cycles the sweeps reveal are cancelled until none
   is left.

When a budget runs out the caller solves the flow cold instead. The same re-optimisation can
warm-start any flow whose costs changed (a Lagrangian iterate); the default method uses it for the
first bound only (see :func:`~cpwords.wordsnake.exact.policy.solve_string_flow`). Formulation card:
``models/wordsnake.md``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from cpwords.core.errors import ModelError
from cpwords.core.interrupts import LeftUnmade, StopFlag, held_here
from cpwords.core.machine import give_back_freed_memory
from cpwords.wordsnake.relaxation.arc_index import ArcIndex
from cpwords.wordsnake.relaxation.compact_caps import CompactCaps, compacted_flows
from cpwords.wordsnake.relaxation.decode import Decoded
from cpwords.wordsnake.relaxation.flow import GIVE_BACK_ARCS, give_back_between
from cpwords.wordsnake.relaxation.int_types import id_type
from cpwords.wordsnake.relaxation.pred_cycles import pred_cycles
from cpwords.wordsnake.relaxation.released_ends import (
    cycle_ends,
    releasable,
    released_ends,
    residual_costs,
    spendable,
    spending,
)
from cpwords.wordsnake.relaxation.residual_update import cycle_arcs, update_residual
from cpwords.wordsnake.relaxation.sorting import distinct_counts, stable_order
from cpwords.wordsnake.relaxation.sparse_flow import SparseFlow
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork
from cpwords.wordsnake.relaxation.sweeps import (
    Labels,
    Residual,
    build_residual,
    class_bounds,
    key_arcs,
    sweep,
    sweep_ranges,
)

#: Budgets of the warm start (:class:`Reoptimizer`) before a cold min-cost flow solve is used
#: instead: Bellman-Ford sweeps (the optimal flows of whole dictionaries settle in a few dozen
#: rounds, fewer sweeps, a sweep doing at least a round's work; the greedy flow of the German
#: list needed one cancelled cycle and 69 rounds) and cycles.
WARM_ROUNDS = 400
WARM_CYCLES = 300


def route_successors(net: StringHubNetwork, dec: Decoded) -> np.ndarray | None:
    """The flow of the string-hub network that carries the joints of a successor map.

    Parameters
    ----------
    net : StringHubNetwork
    dec : Decoded
        A successor map whose ``handover`` gives the overlap string's length of each joint (as
        :func:`~cpwords.wordsnake.relaxation.decode.greedy_successors` returns it).

    Returns
    -------
    numpy.ndarray of the capacities' type, shape (m,) or None
        The arc flows: conserved at every node, within every capacity. None when some joint
        has no route (for instance a cycle of copies of one word longer than its self arc
        allows); the caller then solves the flow instead.

    Notes
    -----
    A joint ``a -> b`` handed over at string ``s`` (``|s| = d``, ``s`` a prefix of ``b``) goes
    ``exit(a) -> H(s)`` (or ``H+(s)`` when proper, ``H+(a)`` for a full overlap, ``a``'s private
    chain for a border), then down the hub's arcs to ``entry(b)``; a zero joint and the depot
    pass the root; copies of one word use its self arc. O(N log m) time, vectorised except for
    the joints through private chains.
    """
    support = _routed(net, dec)
    if support is None:
        return None
    used, counts = support
    # Within the capacities, so in their type.
    flows = np.zeros(net.m, dtype=net.cap.dtype)
    flows[used] = counts
    return flows


def route_support(net: StringHubNetwork, dec: Decoded) -> SparseFlow | None:
    """:func:`route_successors` held as its support, with no array of every arc made (977,555
    31-mers of C. elegans: 0.26 GB less at the routing's end).

    Parameters
    ----------
    net : StringHubNetwork
    dec : Decoded

    Returns
    -------
    SparseFlow or None
        Equal to ``SparseFlow.of(route_successors(net, dec))``.
    """
    support = _routed(net, dec)
    if support is None:
        return None
    used, counts = support
    return SparseFlow(used.astype(id_type(net.m)), counts.astype(net.cap.dtype), net.m)


def _routed(net: StringHubNetwork, dec: Decoded) -> tuple[np.ndarray, np.ndarray] | None:
    """The arcs :func:`route_successors`' flow uses (ascending) and their flows, or None."""
    N = net.instance.n
    cyclic = net.instance.cyclic
    ta = _trie_arrays(net)
    iw = np.append(net.item_word, -1)  # the depot has no word

    succ = np.asarray(dec.succ, dtype=np.int64)
    hand = np.asarray(dec.handover, dtype=np.int64)
    if not cyclic and succ[N] == N:
        # Every exit found a successor, so the depot loops on itself, which the network (a
        # linear snake has a first and a last word) does not allow: open the cheapest joint.
        u = int(np.argmin(hand[:N]))
        succ = succ.copy()
        succ[N], succ[u] = succ[u], N
    items = np.arange(N + (0 if cyclic else 1), dtype=np.int64)
    v = succ[items]
    w, b = iw[items], iw[v]
    d = hand[items]
    if (v < 0).any():
        return None
    hops = _Hops()
    pos = _route_zero_and_copies(net, hops, ta, items, v, w, b, d)
    if not _route_positive(net, hops, ta, w[pos], b[pos], d[pos]):
        return None
    return _flows_of(net, hops)


class _TrieArrays(NamedTuple):
    """The trie's arrays (its own, not copies: read by gathers only), ``wn`` as int64, and
    ``plus``: ``H+(v)`` for word nodes, ``v`` otherwise (32-bit where node ids fit)."""

    depth: np.ndarray
    parent: np.ndarray
    wn: np.ndarray
    node_word: np.ndarray
    plus: np.ndarray


def _trie_arrays(net: StringHubNetwork) -> _TrieArrays:
    """The trie arrays a route needs (977,555 31-mers of C. elegans: four 64-bit copies of
    arrays of 20 million trie nodes were 0.6 GB, held through the routing's peak)."""
    trie = net.trie
    T, W = trie.size, net.num_words
    wn = trie.word_node.astype(np.int64)
    plus = np.arange(T, dtype=np.int32 if T + W <= 1 << 31 else np.int64)
    plus[wn] = T + np.arange(W)
    return _TrieArrays(trie.depth, trie.parent, wn, trie.node_word, plus)


@dataclass
class _Hops:
    """The arcs of the routes, as arrays of tails and heads (one entry per unit)."""

    tails: list[np.ndarray] = field(default_factory=list)
    heads: list[np.ndarray] = field(default_factory=list)

    def add(self, t: np.ndarray, h: np.ndarray) -> None:
        """Append the hops ``t -> h``."""
        self.tails.append(np.asarray(t, dtype=np.int64))
        self.heads.append(np.asarray(h, dtype=np.int64))


def _route_zero_and_copies(
    net: StringHubNetwork,
    hops: _Hops,
    ta: _TrieArrays,
    items: np.ndarray,
    v: np.ndarray,
    w: np.ndarray,
    b: np.ndarray,
    d: np.ndarray,
) -> np.ndarray:
    """Route the depot's joints, the zero joints (through the root) and the joints between
    copies of a word (its self arc); returns the mask of the other, positive joints."""
    N = net.instance.n
    cyclic = net.instance.cyclic
    out_base, in_base, r_in = net.out_base, net.in_base, net.r_in
    root_sink = 0 if cyclic else r_in
    depth, wn = ta.depth, ta.wn
    start = items == N  # the depot's first word (linear snakes)
    end = (v == N) & ~start
    joint = ~start & ~end
    hops.add(np.zeros(int(start.sum()), np.int64), in_base + b[start])
    hops.add(out_base + w[end], np.full(int(end.sum()), root_sink))
    zero = joint & (d == 0)
    # Copies of one word: its self arc (a one-letter border may also pass the shared hub).
    wlen = np.where(w >= 0, depth[wn[np.maximum(w, 0)]], 0)
    same = joint & (w == b) & ~zero & ((d >= 2) | (d == wlen))
    hops.add(out_base + w[zero], np.full(int(zero.sum()), root_sink))
    if not cyclic:
        hops.add(np.full(int(zero.sum()), r_in), np.zeros(int(zero.sum()), np.int64))
    hops.add(np.zeros(int(zero.sum()), np.int64), in_base + b[zero])
    hops.add(out_base + w[same], in_base + b[same])
    return joint & ~zero & ~same


def _route_positive(
    net: StringHubNetwork,
    hops: _Hops,
    ta: _TrieArrays,
    pw: np.ndarray,
    pb: np.ndarray,
    pd: np.ndarray,
) -> bool:
    """Route the positive joints ``pw -> pb`` handed over at strings of lengths ``pd``: full
    overlaps, shared hubs, private chains. False when one has no route."""
    proper = net.instance.proper
    trie = net.trie
    T = trie.size
    out_base, in_base = net.out_base, net.in_base
    depth, parent, wn, node_word, plus = ta
    # The string's trie node: the ancestor of b's node at depth d, len(b) - d steps up. The
    # joints by steps, most first: the joints still going up are a prefix (one gather a step).
    s = wn[pb]
    steps = depth[s] - pd
    if (steps < 0).any():
        return False
    if steps.size:
        top = int(steps.max())
        order = stable_order(top - steps)
        cur = s[order]
        # The joints with at least j steps, for j = 1 .. top.
        going = cur.shape[0] - np.searchsorted(steps[order][::-1], np.arange(1, top + 1))
        for n_up in going.tolist():
            cur[:n_up] = parent[cur[:n_up]]
        s = np.empty_like(cur)
        s[order] = cur
    a_node = wn[pw]
    full = (s == a_node) & (not proper)
    border = (s <= a_node) & (a_node <= trie.end[s]) & (pd >= 2) & ~full
    shared = ~full & ~border
    # Full overlaps: exit(a) -> H+(a) -> entry(b).
    hops.add(out_base + pw[full], T + pw[full])
    hops.add(T + pw[full], in_base + pb[full])
    # Shared hubs.
    ss, sb, sw = s[shared], pb[shared], pw[shared]
    if proper:
        hops.add(out_base + sw, plus[ss])
        hops.add(plus[ss], in_base + sb)
    else:
        hops.add(out_base + sw, ss)
        at = wn[sb] == ss  # the successor is the string itself
        hops.add(ss[at], in_base + sb[at])
        down = ~at
        is_word = node_word[ss[down]] >= 0
        hops.add(ss[down][is_word], plus[ss[down][is_word]])
        hops.add(plus[ss[down]], in_base + sb[down])
    # Private chains, joint by joint (few: borders of two letters or more).
    bt: list[int] = []
    bh: list[int] = []
    for a, bb, dd, sn in zip(
        pw[border].tolist(),
        pb[border].tolist(),
        pd[border].tolist(),
        s[border].tolist(),
        strict=True,
    ):
        route = _chain_route(net, a, bb, dd, sn, plus, depth, parent, wn, node_word)
        if route is None:
            return False
        for x, y in itertools.pairwise(route):
            bt.append(x)
            bh.append(y)
    hops.add(np.array(bt, dtype=np.int64), np.array(bh, dtype=np.int64))
    return True


def _flows_of(net: StringHubNetwork, hops: _Hops) -> tuple[np.ndarray, np.ndarray] | None:
    """The arcs the hops use (ascending) and each one's flow, or None when a hop is not an
    arc, a capacity is exceeded or a node's balance differs from its supply."""
    t_all, h_all = np.concatenate(hops.tails), np.concatenate(hops.heads)
    arcs = ArcIndex(net).find(t_all, h_all)
    if (arcs < 0).any():
        return None
    # Each arc's hops counted by a sort of the hops (a count of every arc was 0.55 GB of fresh
    # memory on 977,555 31-mers of C. elegans, its comparison with the capacities 0.07 GB).
    used, counts = distinct_counts(arcs)
    del arcs
    if (counts > net.cap[used]).any():
        return None
    # Each node's balance from the hops (a unit out of its tail, into its head), counted by a
    # sort of the hops and compared with the supplies where either is not 0: two counts of
    # every node in 64 bits were 0.37 GB of fresh memory beside the flows on 977,555 31-mers of
    # C. elegans, the peak of the routing.
    nodes, units = _balances(t_all, h_all)
    del t_all, h_all
    want = np.flatnonzero(net.supply)
    if not (np.array_equal(nodes, want) and np.array_equal(units, net.supply[want])):
        return None
    return used, counts


def _balances(tails: np.ndarray, heads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The nodes whose balance (units out, as ``tails``, less units in, as ``heads``) is not
    0, ascending, and those balances (int64)."""
    t, ct = distinct_counts(tails)
    h, ch = distinct_counts(heads)
    keys = np.concatenate([t.astype(np.int64), h.astype(np.int64)])
    order = stable_order(keys)
    keys, values = keys[order], np.concatenate([ct, -ch])[order]
    if not keys.size:
        return keys, values
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    balance = np.add.reduceat(values, starts)
    some = balance != 0
    return keys[starts][some], balance[some]


def _chain_route(
    net: StringHubNetwork,
    a: int,
    b: int,
    d: int,
    s: int,
    plus: np.ndarray,
    depth: np.ndarray,
    parent: np.ndarray,
    wn: np.ndarray,
    node_word: np.ndarray,
) -> list[int] | None:
    """Nodes of the route of ``a -> b`` through ``a``'s private chain at string depth ``d``."""
    chain = net.chains.get(a)
    if chain is None:
        return None
    top, c_node, c_plus = chain
    proper = net.instance.proper
    T, in_base = net.trie.size, net.in_base
    lw = int(depth[wn[a]])
    # Depth where b's path leaves a's path (its nodes at depth <= e are a's).
    bn, an = int(wn[b]), int(wn[a])
    x, y = bn, an
    while depth[x] > depth[y]:
        x = int(parent[x])
    while depth[y] > depth[x]:
        y = int(parent[y])
    while x != y:
        x, y = int(parent[x]), int(parent[y])
    e = int(depth[x])
    if e < d:
        return None
    route = [net.out_base + a]
    j = d
    at_plus = proper
    route.append(c_plus[j - top] if proper else c_node[j - top])

    def to_plus() -> None:
        nonlocal at_plus
        if not at_plus and c_plus[j - top] != c_node[j - top]:
            route.append(c_plus[j - top])
        at_plus = True

    stop = min(e, lw - 1)
    while j < stop:
        to_plus()
        j += 1
        route.append(c_node[j - top])
        at_plus = False
    if e < lw and e == int(depth[bn]):  # b is the word at depth e of a's path
        if at_plus:
            return None
        route.append(in_base + b)
        return route
    to_plus()
    if e >= lw:  # b strictly extends a
        route += [T + a, in_base + b]
        return route
    c = bn  # the child of a's path node at depth e on b's side
    while depth[c] > e + 1:
        c = int(parent[c])
    route.append(c)
    if c == bn:
        route.append(in_base + b)
    else:
        if node_word[c] >= 0:
            route.append(int(plus[c]))
        route.append(in_base + b)
    return route


def potentials(
    net: StringHubNetwork,
    cost: np.ndarray,
    flows: np.ndarray,
    deadline: float | None = None,
) -> np.ndarray:
    """Node potentials proving an optimal flow optimal for the given arc costs.

    Parameters
    ----------
    net : StringHubNetwork
    cost : numpy.ndarray of int64, shape (m,)
        Unit cost of each arc.
    flows : numpy.ndarray of int64, shape (m,)
        A feasible flow, optimal for ``cost``.
    deadline : float, optional
        ``time.perf_counter()`` value after which the computation stops.

    Returns
    -------
    numpy.ndarray of int64, shape (num_nodes,)
        ``pi`` such that the reduced cost ``cost[a] + pi[tail] - pi[head]`` is >= 0 on every
        arc with residual capacity and <= 0 on every arc carrying flow.

    Raises
    ------
    ModelError
        The residual network has a negative cycle (the flow is not optimal).
    DeadlineReached
        The deadline passed.

    Notes
    -----
    Bellman-Ford from a virtual source joined to every node at cost 0, vectorised over the
    residual arcs, in sweeps (:class:`Reoptimizer`). Ahuja, Magnanti and Orlin, *Network
    Flows* (1993), theorem 9.4 (negative cycle optimality) and section 5.4.
    """
    pi = potentials_within(net, cost, flows, net.num_nodes + 1, deadline)
    if pi is None:
        raise ModelError("the flow is not optimal: its residual network has a negative cycle")
    return pi


def potentials_within(
    net: StringHubNetwork,
    cost: np.ndarray,
    flows: np.ndarray,
    max_rounds: int,
    deadline: float | None = None,
) -> np.ndarray | None:
    """:func:`potentials` in at most ``max_rounds`` Bellman-Ford sweeps, or None.

    Parameters
    ----------
    net : StringHubNetwork
    cost, flows : numpy.ndarray of int64, shape (m,)
    max_rounds : int
        Most sweeps (each at most one pass over the residual arcs, the private chains aside).
    deadline : float, optional

    Returns
    -------
    numpy.ndarray of int64, shape (num_nodes,) or None
        The potentials (the flow is optimal), or None when the sweeps did not settle: the flow
        may not be optimal (a negative cycle), or its shortest paths are longer.

    Raises
    ------
    DeadlineReached
        The deadline passed.
    """
    # The rounds of the re-optimisation, allowed to cancel no cycle: the flow is left as it is.
    return Reoptimizer(net, flows).settle(
        cost, max_rounds=max_rounds, max_cycles=0, deadline=deadline
    )


class Reoptimizer:
    """Make a feasible flow optimal by cancelling negative cycles (a warm start).

    Parameters
    ----------
    net : StringHubNetwork
    flows : numpy.ndarray of int64, shape (m,)
        A feasible flow (changed in place as cycles are cancelled).
    cap : numpy.ndarray of int64, shape (m,), optional
        Arc capacities to use instead of ``net.cap`` (a certificate lifts the capacities that
        the supplies already imply).

    Notes
    -----
    Bellman-Ford on the residual network, started from the previous labels, in sweeps: the
    arcs leaving the nodes whose label fell since they were last relaxed, one node class after
    the other along the network's arcs and back
    (:func:`~cpwords.wordsnake.relaxation.sweeps.sweep_ranges`), each label lowered at once
    (Gauss-Seidel), so a sweep carries the labels along whole alternating paths where a
    round of the textbook's carries them one arc. Any order of relaxations that ends with none
    left to make gives the same labels, the least distances from the start labels (on ENABLE, 6
    sweeps relax 5.8 million arcs where 32 rounds relaxed 7.3 million: 0.46 -> 0.26 s). Every
    few sweeps that do not settle, the predecessor graph is searched for a cycle (any cycle of
    predecessors is a negative cycle, Ahuja, Magnanti and Orlin, *Network Flows*, section 5.5),
    which is cancelled by pushing its bottleneck capacity around it. When the sweeps settle the
    labels are potentials that prove the flow optimal (theorem 9.4). A Lagrangian iterate
    changes the costs of a few arcs, so its flow stays feasible and only the cycles through
    those arcs need cancelling: far fewer passes than a cold solve when they are few. Klein's
    cycle-cancelling algorithm (Management Science 14(3), 1967). The residual network is grouped
    by node class and updated in place after a cancellation
    (:func:`~cpwords.wordsnake.relaxation.sweeps.build_residual`,
    :func:`~cpwords.wordsnake.relaxation.residual_update.update_residual`): ENABLE's greedy
    flow is proven in 0.16 s (0.33 s with the residual arcs sorted by tail), Debian's German
    list's 3 cycles cancelled and proven in 1.2-1.4 s (2.2 s).
    """

    def __init__(
        self, net: StringHubNetwork, flows: np.ndarray, cap: np.ndarray | None = None
    ) -> None:
        self.net = net
        # The flow as held: narrow while a greedy proof's residual network peaks (``flows``
        # reads it otherwise).
        self.units: np.ndarray | CompactCaps = flows
        self.cap: np.ndarray | CompactCaps = net.cap if cap is None else cap
        self.dist = np.zeros(net.num_nodes, dtype=np.int64)
        self.cycles = 0
        self.rounds = 0
        self.narrow_labels = False  # the labels kept in their sweeps' type (:meth:`settle`)

    @property
    def flows(self) -> np.ndarray:
        """The flow (changed in place as cycles are cancelled, outside :meth:`settle`)."""
        units = self.units
        assert isinstance(units, np.ndarray), "the flow is held narrow within settle only"
        return units

    def settle(
        self,
        cost: np.ndarray | None,
        *,
        max_rounds: int,
        max_cycles: int,
        deadline: float | None = None,
        check_every: int = 2,
        release: bool = False,
        leave_unmade: bool = False,
    ) -> np.ndarray | None:
        """Cancel negative cycles until the flow is optimal for ``cost``.

        Parameters
        ----------
        cost : numpy.ndarray of int64, shape (m,), or None
            None: the plain costs ``-net.weight``, read off the network (no copy held).
        max_rounds : int
            Most sweeps in all (each at most one pass over the residual arcs, the private chains
            aside).
        check_every : int
            Sweeps between two searches for a negative cycle. Every other one: a sweep carries
            a negative cycle's falling labels far (Debian's German list, whose greedy flow
            needs cycles cancelled: 3.3 s checking every 2 sweeps, 6.1 s every 3, 8.2 s every
            10, against 5.6 s for rounds checked every 10; checking every sweep finds its 3
            cycles at the same sweeps); a search peels the nodes off no cycle
            (:func:`~cpwords.wordsnake.relaxation.pred_cycles.pred_cycles`).
        max_cycles : int
            Most cycles cancelled.
        deadline : float, optional
            ``time.perf_counter()`` value after which it stops.
        release : bool
            Let the network's ``tail`` and ``head`` go while the residual network holds them,
            made again from it on return, where it names every arc
            (:func:`~.released_ends.released_ends`); with ``cost`` None, ``weight`` too (the
            cycles' costs then looked up in the residual network). The potentials are then
            given in 32 bits where they fit (as the sweeps held them: no 64-bit copy beside
            the residual network).
        leave_unmade : bool
            With ``release``: a stop leaves the ends and the flow as they are meanwhile
            (:class:`~cpwords.core.interrupts.LeftUnmade`), for a caller after whose stop
            nothing reads them (C. elegans' answer 3 s after a Ctrl-C, not 8 s).

        Returns
        -------
        numpy.ndarray of int64 (int32 or int64 with ``release``), shape (num_nodes,) or None
            Potentials proving ``self.flows`` optimal for ``cost`` (kept as ``self.dist``);
            None when a budget ran out first (``self.flows`` is then still feasible, and no
            worse; ``self.dist``: the labels when the cycles' budget ran out, the start labels
            when the rounds' did).

        Raises
        ------
        DeadlineReached
            The deadline passed.
        LeftUnmade
            With ``release`` and ``leave_unmade``, a stop asked (a ``KeyboardInterrupt``).
        """
        self.narrow_labels = release
        if release and self.cap is self.net.cap and releasable(self.net, self.flows, self.net.cap):
            # Held from the residual network's build to the ends made again: a signal only
            # sets the stop, read between the sweeps' ranges (a stop cut into a cycle's
            # cancellation or the ends' making lost arcs of the shared network: C. elegans,
            # Ctrl-C at 34 s, "an arc is missing from the residual network", exit 2).
            with held_here() as stop, compacted_flows(self):
                # The flow narrow from the residual network's build to its end (read for a
                # block of arcs, then the arcs of a few cycles at a time), as the capacities
                # are; the ends (and plain costs) given back as the residual network is written.
                res = self._residual(cost, spend=True)
                with released_ends(self.net, res, weight=cost is None):
                    try:
                        return self._sweeps(
                            res, cost, max_rounds, max_cycles, deadline, check_every, stop
                        )
                    except KeyboardInterrupt:
                        if leave_unmade and stop is not None and stop.asked:
                            raise LeftUnmade from None
                        raise
        res = self._residual(cost)
        return self._sweeps(res, cost, max_rounds, max_cycles, deadline, check_every)

    def _sweeps(
        self,
        res: Residual,
        cost: np.ndarray | None,
        max_rounds: int,
        max_cycles: int,
        deadline: float | None,
        check_every: int,
        stop: StopFlag | None = None,
    ) -> np.ndarray | None:
        """:meth:`settle` on its residual network ``res`` (``stop``: held, looked at before
        each range of a sweep, never inside a cycle's cancellation)."""
        rounds = 0
        ranges = sweep_ranges(self.net)
        if self.narrow_labels:  # a greedy proof's: the labels and searches come on top
            # Not while released_ends holds the network's ends away (its arc count then reads
            # 0): given back there too, C. elegans' whole command stayed at 2,254 MB.
            give_back_between(self.net)
        # The nodes whose arcs are to be relaxed: every node at first; after a cancellation,
        # those left and the cycles' nodes (the only ones with new residual arcs: every
        # other node's arcs still hold, the labels only having fallen since).
        lab = Labels(self.dist, small=res.classes[0].costs.dtype != np.int64)
        while True:
            lab.pred.fill(-1)
            found: list[tuple[np.ndarray, np.ndarray]] = []
            while not found:
                if rounds >= max_rounds:
                    return None
                rounds += 1
                self.rounds += 1
                lab.record = rounds > 1  # the first sweep records no predecessors
                if not sweep(res, lab, ranges, deadline, stop):
                    self._take_labels(lab)
                    return self.dist
                if rounds % check_every == 0:
                    # Only negative cycles are cancelled (any other: keep relaxing).
                    arcs = (cycle_arcs(res, c) for c in pred_cycles(lab.pred))
                    found = [c for c in arcs if self._length(c, cost, res) < 0]
            if self.cycles >= max_cycles:
                self._take_labels(lab)
                return None
            # The labels are taken on return only: a copy taken at every cancellation was
            # held through the sweeps after it (0.2 GB of the greedy proof's peak on 977,555
            # 31-mers of C. elegans), read by nothing meanwhile.
            self._cancel_all(found, res, cost, lab)
            if self.units.shape[0] >= GIVE_BACK_ARCS:
                # The residual network's update leaves its old arrays in the heap's holes,
                # under the next cycle search (977,555 31-mers of C. elegans: 0.1 GB of the
                # greedy proof's peak). The network's arc count reads 0 while its ends are
                # released: the flow's is read.
                give_back_freed_memory()

    def _take_labels(self, lab: Labels) -> None:
        """Keep the sweeps' labels as ``self.dist``, the old ones let go first (on 977,555
        31-mers of C. elegans both, 0.2 GB each, were the greedy proof's peak)."""
        del self.dist
        lab.let_go()  # read by no one after
        self.dist = lab.labels(narrow=self.narrow_labels)

    def _weight_away(self, cost: np.ndarray | None) -> bool:
        """Whether the plain costs are wanted while the network's weights are let go."""
        return cost is None and self.net.weight.shape[0] != self.units.shape[0]

    def _costs(self, cost: np.ndarray | None, arcs: np.ndarray) -> np.ndarray:
        """The costs of a few arcs (``cost`` None: the plain costs, ``-net.weight``)."""
        return -self.net.weight[arcs] if cost is None else cost[arcs]

    def _length(
        self, cycle: tuple[np.ndarray, np.ndarray], cost: np.ndarray | None, res: Residual
    ) -> int:
        """The cost of a residual cycle (its arcs' keys and heads, :func:`cycle_arcs`; their
        costs looked up in ``res`` while the network's weights are let go)."""
        keys, heads = cycle
        if self._weight_away(cost):
            return int(residual_costs(res, keys, heads).sum())
        _, arcs, forward = key_arcs(keys)
        c = self._costs(cost, arcs).astype(np.int64)
        return int(np.where(forward, c, -c).sum())

    def _cancel_all(
        self,
        found: list[tuple[np.ndarray, np.ndarray]],
        res: Residual,
        cost: np.ndarray | None,
        lab: Labels,
    ) -> None:
        """Cancel the ``found`` cycles (their arcs' keys and heads; their nodes marked
        ``dirty``) and update the residual network where the cycles' arcs changed (rebuilding
        it took 0.45 s a time on Debian's German list, whose greedy needs 3 cycles
        cancelled)."""
        keys = np.concatenate([c[0] for c in found])
        heads = np.concatenate([c[1] for c in found])
        nodes, arc_of, _ = key_arcs(keys)
        # The arcs' ends off the cycles (the network's may be let go meanwhile).
        tail, head = cycle_ends(keys, heads)
        arcs, first = np.unique(arc_of, return_index=True)
        if self._weight_away(cost):  # the network arcs' costs: forward, the residual arcs'
            rc = residual_costs(res, keys[first], heads[first])
            costs = np.where(key_arcs(keys[first])[2], rc, -rc)
        else:
            costs = self._costs(cost, arcs)
        before = self.units[arcs].copy()
        for c in found:  # the cycles of a functional graph share no node, hence no arc
            self._cancel(c[0])
        lab.dirty[nodes] = True  # a cycle's tails are its heads
        self.cycles += len(found)
        update_residual(
            res,
            arcs,
            tail[first],
            head[first],
            costs,
            before,
            self.units[arcs],
            self.cap[arcs],
        )

    def _residual(self, cost: np.ndarray | None, spend: bool = False) -> Residual:
        """The residual network of the flow under ``cost`` (None: ``-net.weight``), its arcs
        by the class of their tail (:func:`~cpwords.wordsnake.relaxation.sweeps.build_residual`).
        ``spend``: the network's ends (and weights, with ``cost`` None) are let go after, made
        again from the residual network (:func:`~.released_ends.released_ends`): those the
        network alone holds are given back as they are read (:func:`~.released_ends.spendable`)."""
        net = self.net
        bounds = class_bounds(net)
        # Only on large networks: on small ones the pages faulted in again cost more CPU.
        spent = spendable(net, weight=cost is None) if spend and net.m >= GIVE_BACK_ARCS else ()
        plain = cost is None
        with spending(spent):
            return build_residual(
                net.tail,
                net.head,
                net.weight if cost is None else cost,
                self.units,
                self.cap,
                bounds,
                negated=plain,
                spent=spent,
            )

    def _cancel(self, keys: np.ndarray) -> None:
        """Push the bottleneck capacity around a residual cycle (its arcs' keys)."""
        x = self.units
        _, a, fwd = key_arcs(keys)
        room = np.where(fwd, self.cap[a] - x[a], x[a])
        delta = int(room.min())
        if delta <= 0:  # pragma: no cover - residual arcs have room by construction
            raise ModelError("a residual cycle without capacity")
        if isinstance(x, CompactCaps):  # held narrow meanwhile (:meth:`settle`)
            x.add_at(a[fwd], delta)
            x.add_at(a[~fwd], -delta)
            return
        np.add.at(x, a[fwd], delta)
        np.subtract.at(x, a[~fwd], delta)
