"""From a flow to an ordering: the item successor map, cycle merging at shared hubs, the greedy map.

Two units of flow that pass the same hub can exchange their destinations at no loss, which merges
their cycles; done bottom-up over the hub DAG this leaves one cycle per connected component of the
flow's support (the certificate of :mod:`~cpwords.wordsnake.exact.stages.lagrangian_relaxation`).

Formulation card: ``models/wordsnake.md``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpwords.core.errors import ModelError
from cpwords.core.machine import give_back_freed_memory
from cpwords.wordsnake.relaxation.flow import FlowStopped
from cpwords.wordsnake.relaxation.int_types import id_type
from cpwords.wordsnake.relaxation.level_matching import CandidateRanges, LevelMatching
from cpwords.wordsnake.relaxation.node_reps import NodeReps
from cpwords.wordsnake.relaxation.sorting import ramp, stable_order, stable_places
from cpwords.wordsnake.relaxation.sparse_flow import SparseFlow, flow_support
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork, Trie


@dataclass
class Decoded:
    """An integral flow read as item successors.

    Attributes
    ----------
    succ : numpy.ndarray of int64, shape (N + 1,)
        Successor of each item; index N is the depot (linear snakes), whose successor is the first
        item and which follows the last one. Unused for cyclic snakes (``succ[N] == N``).
    comp : numpy.ndarray of int64, shape (N + 1,)
        Component label of each item after merging (one cycle per support component).
    node_rep : NodeReps
        One item whose unit passed each hub node (-1 where no unit did); word nodes get an
        item of their word: int32 (int64 past 2**31 items), ``(num_nodes,)`` as an array, held
        as the nodes that have one.
    handover : numpy.ndarray of int64, shape (N + 1,)
        Length of the hand-over string of each item's unit (its joint's guaranteed overlap).
    cycles : int
        Cycles of the successor map before merging.
    merges : int
        Successor exchanges made while merging.
    extra : dict
        Stage results, e.g. ``"losses"``: the loss of each patched component, by label.
    """

    succ: np.ndarray
    comp: np.ndarray
    node_rep: NodeReps
    handover: np.ndarray
    cycles: int = 0
    merges: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def item_copies(net: StringHubNetwork) -> list[list[int]]:
    """The items of each distinct word.

    Returns
    -------
    list of list of int, length W
        ``item_copies(net)[w]``: the item indices (into ``net.instance.words``) of word ``w``,
        ascending; as many as ``net.mult[w]``.
    """
    flat = stable_order(net.item_word).tolist()  # each word's items, ascending, word by word
    ends = np.cumsum(net.mult).tolist()
    return [flat[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]


def group_edges(units: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The exchanges :func:`merge_cycles` tries for groups of items: each group's first item
    with each of the others, group by group.

    Parameters
    ----------
    units : numpy.ndarray of int64, shape (k,)
        The groups' items, one group after the other.
    starts : numpy.ndarray of int64, shape (g,)
        Where each group starts in ``units`` (ascending; a group ends where the next starts;
        empty groups are allowed).

    Returns
    -------
    anchors, others : numpy.ndarray of int64, shape (k - g,)
        The pairs ``(first item of its group, item)`` for every item but the groups' first.

    Examples
    --------
    >>> a, b = group_edges(np.array([4, 5, 6, 7, 8]), np.array([0, 3]))
    >>> a.tolist(), b.tolist()
    ([4, 4, 7], [5, 6, 8])
    """
    units = np.asarray(units, dtype=np.int64)
    starts = np.asarray(starts, dtype=np.int64)
    if not starts.size:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    sizes = np.diff(np.append(starts, units.size))
    starts, sizes = starts[sizes > 0], sizes[sizes > 0]
    anchors = np.repeat(units[starts], sizes)
    first = np.zeros(units.size, dtype=bool)
    first[starts] = True
    return anchors[~first], units[~first]


def cycle_labels(succ: np.ndarray, n: int, cyclic: bool) -> tuple[np.ndarray, int]:
    """Label the cycles of a successor map in the order of their smallest item.

    Parameters
    ----------
    succ : numpy.ndarray of int64, shape (n + 1,)
        A permutation (index ``n`` is the depot; for a cyclic snake ``succ[n] == n``).
    n : int
    cyclic : bool

    Returns
    -------
    cyc : numpy.ndarray of int64, shape (n + 1,)
        Each item's cycle label: 0 for the cycle of item 0, then by smallest item; a cyclic
        snake's depot gets the last label.
    count : int
        The cycles (a cyclic snake's depot not counted).

    Notes
    -----
    Pointer doubling: after ``k`` rounds each item knows the smallest of the ``2**k`` items
    from it along its cycle, so ``ceil(log2(n + 1))`` rounds give every cycle's smallest
    item, in whole-array steps instead of a walk item by item.
    """
    size = n + 1
    low = np.arange(size, dtype=np.int32)  # item ids in 32 bits: less memory traffic
    step = np.asarray(succ).astype(np.int32)
    spare = np.empty_like(step)
    for _ in range(max(1, (size - 1).bit_length())):
        np.minimum(low, np.take(low, step), out=low)
        np.take(step, step, out=spare)
        step, spare = spare, step
    smallest = low == np.arange(size)
    label = np.cumsum(smallest) - 1
    count = int(smallest.sum()) - (1 if cyclic else 0)
    return label[low], count


def merge_cycles(
    succ: np.ndarray,
    handover: np.ndarray,
    anchors: np.ndarray,
    others: np.ndarray,
    n: int,
    cyclic: bool,
) -> tuple[np.ndarray, int, int]:
    """Merge the cycles of a successor map by exchanging successors of item pairs, at no loss.

    Parameters
    ----------
    succ : numpy.ndarray of int64, shape (n + 1,)
        Successors (index n is the depot); modified in place.
    handover : numpy.ndarray of int64, shape (n + 1,)
        Guaranteed overlap of each item's joint; exchanged with the successors.
    anchors, others : numpy.ndarray of int64, shape (k,)
        The pairs whose successors may be exchanged without loss, in the order they are
        tried (:func:`group_edges`: units that passed one hub, in an order where each group's
        destinations still lie below its hub, and the copies of a word).
    n : int
        Number of items.
    cyclic : bool

    Returns
    -------
    comp : numpy.ndarray of int64, shape (n + 1,)
        Cycle label of each item after merging.
    cycles : int
        Cycles before merging.
    merges : int
        Exchanges made.

    Notes
    -----
    Exchanging the successors of two items on different cycles of a permutation joins the two
    cycles; a union-find over the cycles decides which exchanges to make, in order: a pair is
    exchanged when its two cycles are not yet joined, and each merged cycle keeps the label
    of the anchor's. Only a pair's first occurrence (two cycles' first pair) can join them, so
    the union-find runs over those alone: on a dictionary, a few dozen pairs of its 170,000.
    """
    cyc, ncyc = cycle_labels(succ, n, cyclic)
    ca, cu = cyc[anchors], cyc[others]
    live = np.flatnonzero(ca != cu)
    lo, hi = np.minimum(ca[live], cu[live]), np.maximum(ca[live], cu[live])
    _, first = np.unique(lo * (ncyc + 1) + hi, return_index=True)
    tried = live[np.sort(first)]
    parent = list(range(ncyc + 1))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    merges = 0
    for a, u, x, y in zip(
        anchors[tried].tolist(),
        others[tried].tolist(),
        ca[tried].tolist(),
        cu[tried].tolist(),
        strict=True,
    ):
        rx, ry = find(x), find(y)
        if rx != ry:
            succ[a], succ[u] = succ[u], succ[a]
            handover[a], handover[u] = handover[u], handover[a]
            parent[ry] = rx
            merges += 1
    root = np.array([find(c) for c in range(ncyc + 1)], dtype=np.int64)
    return root[cyc], ncyc, merges


def decode_flow(
    net: StringHubNetwork, flows: np.ndarray | SparseFlow, deadline: float | None = None
) -> Decoded:
    """Decode an integral flow into item successors and merge cycles at shared hubs.

    Parameters
    ----------
    net : StringHubNetwork
    flows : numpy.ndarray of int, or SparseFlow, shape (m,)
    deadline : float, optional
        ``time.perf_counter()`` value after which decoding stops (:class:`FlowStopped`).

    Returns
    -------
    Decoded
        Successors with one cycle per connected component of the flow's support.

    Raises
    ------
    FlowStopped
        ``deadline`` passed.

    Notes
    -----
    Units (tail items) descend the hub DAG in topological order and are handed to the entries of
    the words they reach. Every hub records the units that passed it; then, in reverse topological
    order, units of different cycles at the same hub exchange destinations (valid: both
    destinations lie below the hub, so each still extends the other's hand-over string, and the
    score is unchanged). Exchanging the successors of two items on different cycles merges the
    cycles, so a union-find over cycles ends with one cycle per support component. O(support)
    time and memory (the flow read on its support alone: :func:`~.sparse_flow.flow_support`).

    The units a node holds form a queue: the arcs into it append theirs (an exit's arcs in arc
    order first, then the depot at the root, then the hubs' arcs by their tail's topological
    place and arc order), and its arcs out take theirs from its end, in arc order (``R_in``
    first gives its last unit to the depot). So every arc moves one block of places of its
    tail's queue to one block of its head's, and every place knows the place it came from: a
    unit's way down is found for all places at once by pointer doubling (``_roots``), as
    whole-array passes instead of a list per hub and a loop per unit (German dictionary, in
    the whole command: 1.2 s -> 0.16 s CPU).
    """
    N = net.instance.n
    W = net.num_words
    cyclic = net.instance.cyclic
    _check_deadline(deadline)
    items = stable_order(net.item_word)  # each word's items, ascending, word by word
    first = np.zeros(W + 1, dtype=np.int64)
    np.cumsum(net.mult, out=first[1:])
    succ = np.full(N + 1, -1, dtype=np.int64)
    handover = np.zeros(N + 1, dtype=np.int64)
    sup, s_flow = flow_support(flows)
    s_tail, s_head = net.tail[sup].astype(np.int64), net.head[sup].astype(np.int64)
    s_flow, s_w = s_flow.astype(np.int64), net.weight[sup]
    is_out = (s_tail >= net.out_base) & (s_tail < net.in_base)
    is_self = is_out & (s_head >= net.in_base) & (s_head < net.in_base + W)
    chained = _copy_chains(
        items, first, s_tail[is_self] - net.out_base, s_flow[is_self], s_w[is_self], succ, handover
    )
    rest = ~is_self
    places = _Places(net, chained, s_tail[rest], s_head[rest], s_flow[rest], is_out[rest])
    _check_deadline(deadline)
    unit = places.units(items, first, chained, s_w[rest], handover)
    places.hand_down(unit, items, first, chained, succ)
    if cyclic:
        succ[N] = N
    if (succ[:N] < 0).any():  # pragma: no cover
        raise ModelError("flow decoding left an item without a successor")
    # Each node's first unit; word nodes belong to their word's component (the exits, then
    # the entries: one run of nodes). Held as the nodes that have one, never a whole array.
    words = np.tile(items[first[:-1]], 2)
    reps = NodeReps.written(
        net.num_nodes, id_type(N), places.node, unit[places.base], (net.out_base, words)
    )
    # The hubs bottom-up (their groups in reverse), then the copies of each word; the places
    # (a topological place of every node: 0.1 GB on C. elegans' 31-mers) let go first.
    units, starts = places.groups(unit)
    del places, unit, words
    anchors, others = _with_copies(net, *group_edges(units, starts))
    comp, ncyc, merges = merge_cycles(succ, handover, anchors, others, N, cyclic)
    return Decoded(succ, comp, reps, handover, cycles=ncyc, merges=merges)


def _check_deadline(deadline: float | None) -> None:
    """Raise :class:`FlowStopped` once ``deadline`` (a ``time.perf_counter()`` value) passed."""
    if deadline is not None and time.perf_counter() >= deadline:
        raise FlowStopped


def _copy_chains(
    items: np.ndarray,
    first: np.ndarray,
    words: np.ndarray,
    flow: np.ndarray,
    weight: np.ndarray,
    succ: np.ndarray,
    handover: np.ndarray,
) -> np.ndarray:
    """The self arcs' chains of copies: a word with ``k`` units on its self arc chains its
    first ``k + 1`` copies (``c0 -> c1 -> ... -> ck``, written into ``succ`` and
    ``handover``); returns ``k`` for every word (shape ``(W,)``)."""
    chained = np.zeros(first.size - 1, dtype=np.int64)
    chained[words] = flow
    at = np.repeat(first[words], flow) + ramp(flow)
    succ[items[at]] = items[at + 1]
    handover[items[at]] = np.repeat(_isqrt(weight), flow)
    return chained


def _isqrt(x: np.ndarray) -> np.ndarray:
    """``math.isqrt`` of each value (non-negative integers below ``2**62``), as int64."""
    x = np.asarray(x, dtype=np.int64)
    r = np.sqrt(x.astype(np.float64)).astype(np.int64)
    r -= r * r > x
    r += (r + 1) * (r + 1) <= x
    return r


class _Places:
    """The queues of units at the nodes as one array of places: each word's exit queue (its
    copies past its self arc's chain, in ascending order), then the queues of the nodes that
    receive units (hubs and entries), by node id.

    Every arc out of an exit or a hub (the self arcs aside) moves a block of its tail's places
    to a block of its head's: ``src`` and ``dst`` are the blocks' first places. ``node``,
    ``base`` and ``size``: the receiving nodes (ascending), where their queues start and how
    many units they hold.
    """

    def __init__(
        self,
        net: StringHubNetwork,
        chained: np.ndarray,
        tail: np.ndarray,
        head: np.ndarray,
        flow: np.ndarray,
        is_out: np.ndarray,
    ) -> None:
        self.cyclic = net.instance.cyclic
        self.r_in, self.in_base = net.r_in, net.in_base
        self.flow, self.is_out = flow, is_out
        self.exit_size = net.mult - chained  # units leaving by arcs to hubs
        exit_base = np.cumsum(self.exit_size) - self.exit_size
        self.n_exit = int(self.exit_size.sum())
        # The arrays of every node in 32 bits where they fit (977,555 31-mers of C. elegans:
        # 26 million nodes, three 64-bit arrays and a count were the decoding's peak).
        nodes = _narrow(net.num_nodes + 1)
        self.pos = net.topo_places(nodes)  # topological places of the hubs
        # Where each arc's block starts in its head's queue, and each node's queue's size.
        offset, size_of = self._arrivals(net.num_nodes, tail, head, flow, is_out)
        self.node = np.flatnonzero(size_of)
        self.size = size_of[self.node].astype(np.int64)
        del size_of
        self.base = self.n_exit + np.cumsum(self.size) - self.size
        self.total = self.n_exit + int(self.size.sum())
        # Read at receiving nodes only; places below ``total``.
        base_of = np.empty(net.num_nodes, dtype=_narrow(self.total + 1))
        base_of[self.node] = self.base
        self.dst = base_of[head] + offset
        del offset
        self.depot_place = -1
        if not self.cyclic:  # after the root's exits' units
            self.depot_place = int(base_of[0]) + int(flow[is_out & (head == 0)].sum())
        # Arcs out take blocks from the end of their tail's queue, in arc order: an arc's
        # block starts after those of the tail's later arcs (tails of one arc: at the start).
        self.src = np.zeros(flow.size, dtype=np.int64)
        by_tail = _repeated(tail)
        self.src[by_tail] = _after_in_group(tail[by_tail], flow[by_tail])
        self.src[is_out] += exit_base[tail[is_out] - net.out_base]
        self.src[~is_out] += base_of[tail[~is_out]]

    def _arrivals(
        self,
        num_nodes: int,
        tail: np.ndarray,
        head: np.ndarray,
        flow: np.ndarray,
        is_out: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each arc's offset in its head's queue and each node's queue size (shape
        ``(num_nodes,)``). A queue takes its arcs' units in the order they are handed over:
        the exits' arcs (arc order), a linear snake's depot at the root, then the hubs' arcs
        by their tail's topological place (then arc order); heads of one arc take it first."""
        offset = np.zeros(flow.size, dtype=np.int64)
        size_of = np.zeros(num_nodes, dtype=_narrow(int(flow.sum()) + 2))
        size_of[head] = flow  # right where one arc comes in
        shared = np.sort(_repeated(head))
        when = np.where(is_out[shared], 0, self.pos[tail[shared]] + 1)
        shared = shared[stable_order(when)]
        shared = shared[stable_order(head[shared])]
        heads, flows = head[shared], flow[shared]
        offset[shared] = _before_in_group(heads, flows)
        firsts = np.flatnonzero(np.append(True, heads[1:] != heads[:-1])) if heads.size else heads
        size_of[heads[firsts]] = np.add.reduceat(flows, firsts) if heads.size else 0
        if not self.cyclic:
            size_of[0] += 1
            offset += (head == 0) & ~is_out
        return offset, size_of

    def units(
        self,
        items: np.ndarray,
        first: np.ndarray,
        chained: np.ndarray,
        weight: np.ndarray,
        handover: np.ndarray,
    ) -> np.ndarray:
        """The unit at each place (the depot: ``N``), and the hand-over of each exit's unit
        (the square root of its arc's weight) written into ``handover``."""
        mult = first[1:] - first[:-1]
        rank = ramp(mult)
        origin_unit = np.full(self.total, -1, dtype=np.int64)
        origin_unit[: self.n_exit] = items[rank >= np.repeat(chained, mult)]
        if self.depot_place >= 0:
            origin_unit[self.depot_place] = items.size
        flow = self.flow
        step = ramp(flow)
        src = np.repeat(self.src, flow) + step
        dst = np.repeat(self.dst, flow) + step
        exits = np.repeat(self.is_out, flow)
        w = _isqrt(weight[self.is_out])
        handover[origin_unit[src[exits]]] = np.repeat(w, flow[self.is_out])
        came = np.arange(self.total, dtype=_narrow(self.total))
        came[dst] = src
        return origin_unit[_roots(came)]

    def hand_down(
        self,
        unit: np.ndarray,
        items: np.ndarray,
        first: np.ndarray,
        chained: np.ndarray,
        succ: np.ndarray,
    ) -> None:
        """Each entry's units take its word's copies still needing a predecessor, from the last
        (the ``j``-th unit in takes the ``j``-th from the end of ``[c0, c(k + 1), ...]`` after a
        chain ``c0 .. ck``, else of all the copies); ``R_in``'s last unit goes to the depot."""
        need = self.exit_size  # each entry takes as many units as its exit gives
        at = int(np.searchsorted(self.node, self.in_base))
        if not np.array_equal(self.size[at : at + need.size], need):  # pragma: no cover
            raise ModelError("flow decoding left an entry with other units than copies")
        j = ramp(need)
        r = np.repeat(need, need) - 1 - j  # from the end of the list
        k = np.repeat(chained, need)
        copy = np.repeat(first[:-1], need) + np.where((k > 0) & (r == 0), 0, k + r)
        start = int(self.base[at]) if need.size else self.total
        succ[unit[start : start + j.size]] = items[copy]
        if not self.cyclic:
            at = int(np.searchsorted(self.node, self.r_in))
            succ[unit[self.base[at] + self.size[at] - 1]] = items.size

    def groups(self, unit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The units of each hub that held two or more, the hubs in reverse topological order
        (each hub's units in queue order), and where each hub's start."""
        entry = (self.node >= self.in_base) & (self.node < self.in_base + self.exit_size.size)
        hubs = np.flatnonzero((self.size >= 2) & ~entry)
        hubs = hubs[np.argsort(-self.pos[self.node[hubs]])]
        sizes = self.size[hubs]
        at = np.repeat(self.base[hubs], sizes) + ramp(sizes)
        return unit[at], np.cumsum(sizes) - sizes


def _repeated(keys: np.ndarray) -> np.ndarray:
    """The places of the keys that occur twice or more, by key (stably: each key's places
    ascending). A sort of the keys: no count of every node (``numpy.bincount``, 0.2 GB on
    977,555 31-mers of C. elegans, for 2 million arcs with flow)."""
    order = stable_order(keys)
    ordered = keys[order]
    same = ordered[1:] == ordered[:-1]  # a place and the next share their key
    many = np.zeros(keys.size, dtype=bool)
    many[1:] = same
    many[:-1] |= same
    return order[many]


def _after_in_group(keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """For sorted ``keys`` and positive ``values``: the sum of the values after each element
    within its run of equal keys."""
    incl = np.cumsum(values)
    last = np.ones(keys.size, dtype=bool)
    np.not_equal(keys[1:], keys[:-1], out=last[:-1])
    # The run's total (its last running sum), spread back over the run: sums increase.
    ends = np.where(last, incl, incl[-1] if incl.size else 0)
    return np.minimum.accumulate(ends[::-1])[::-1] - incl


def _before_in_group(keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """For sorted ``keys`` and positive ``values``: the sum of the values before each element
    within its run of equal keys."""
    excl = np.cumsum(values) - values
    start = np.ones(keys.size, dtype=bool)
    np.not_equal(keys[1:], keys[:-1], out=start[1:])
    # The sum before the run's first element, spread over the run: sums increase.
    return excl - np.maximum.accumulate(np.where(start, excl, 0))


def _roots(came: np.ndarray) -> np.ndarray:
    """The root each place's chain of ``came`` links reaches (``came[i] == i`` at the roots),
    by pointer doubling: ``log2`` of the longest chain whole-array rounds."""
    spare = np.empty_like(came)
    while True:
        np.take(came, came, out=spare)
        if np.array_equal(spare, came):
            return came
        came, spare = spare, came


def _with_copies(
    net: StringHubNetwork, anchors: np.ndarray, others: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The exchanges ``anchors``, ``others`` followed by those of each repeated word's first
    copy with its others (words in order, copies ascending)."""
    many = net.mult > 1
    if not many.any():
        return anchors, others
    items = stable_order(net.item_word)[np.repeat(many, net.mult)]
    sizes = net.mult[many]
    ca, co = group_edges(items, np.cumsum(sizes) - sizes)
    return np.concatenate([anchors, ca]), np.concatenate([others, co])


def greedy_successors(net: StringHubNetwork, deadline: float | None = None) -> Decoded:
    """Longest-overlap-first matching of exits to entries, read as item successors.

    Parameters
    ----------
    net : StringHubNetwork

    deadline : float, optional
        ``time.perf_counter()`` value after which the matching stops: the exits still free are
        then joined to the entries still free (through the depot), a cover all the same, and
        ``extra["stopped"]`` is True (an ordering is owed however short the limit: the French
        wordfreq list's matching takes 2.8 s). Ctrl-C (``KeyboardInterrupt``) stops it the same
        way and sets ``extra["interrupted"]``: the caller re-raises it.

    Returns
    -------
    Decoded
        Successors of a path-and-cycle cover, cycles merged where free, ready for
        :func:`patch_cycles`.

    Notes
    -----
    Hand-over strings are taken from the longest down; each exit still free is matched to the
    first free entry below its string in the trie (the words in preorder), never to itself: a
    depth of strings at a time, as whole-array passes (:mod:`.level_matching`). Squared overlaps
    satisfy the inverse Monge inequality ``ov(a,b)^2 + ov(c,d)^2 >= ov(a,d)^2 + ov(c,b)^2``
    when ``ov(a,b)`` is largest in its row and column (with ``u = ov(a,d)``,
    ``v = ov(c,b)``, ``ov(c,d) >= u + v - k``), the reason greedy matching does well on overlap
    graphs (Blum et al., "Linear approximation of shortest superstrings", J. ACM 41(4), 1994).
    O(total letters).
    """
    N = net.instance.n
    cyclic = net.instance.cyclic
    trie = net.trie
    W = net.num_words
    # Entries as slots in word (= preorder) order: slot_start[w] .. slot_start[w] + mult[w].
    # Slots, items, words and trie nodes in 32 bits where they fit: half the memory traffic.
    slots = _narrow(N + 1)
    slot_start = np.zeros(W + 1, dtype=slots)
    np.cumsum(net.mult, out=slot_start[1:])
    slot_item = stable_order(net.item_word).astype(slots)  # each word's copies, ascending
    depth = trie.depth
    succ = np.full(N + 1, -1, dtype=np.int64)
    handover = np.zeros(N + 1, dtype=np.int64)
    matched = _greedy_matches(
        net,
        slot_start,
        slot_item,
        depth,
        lambda: _handover_candidates(trie, W, net.instance.proper, depth, deadline),
        succ,
        handover,
        deadline,
    )
    (units, starts), (heads, tails), stopped, interrupted = matched
    tails = _join_free_ends(N, cyclic, heads, tails, succ)
    # Units handed over at one string can exchange destinations (all lie below it), and so can
    # the zero joints (a last group), and the copies of a word.
    edges = group_edges(np.concatenate([units, tails]), np.append(starts, units.size))
    anchors, others = _with_copies(net, *edges)
    comp, ncyc, merges = merge_cycles(succ, handover, anchors, others, N, cyclic)
    reps = NodeReps.none(net.num_nodes, id_type(N))
    dec = Decoded(succ, comp, reps, handover, cycles=ncyc, merges=merges)
    if stopped:
        dec.extra["stopped"] = True
    if interrupted:
        dec.extra["interrupted"] = True
    return dec


def _greedy_matches(
    net: StringHubNetwork,
    slot_start: np.ndarray,
    slot_item: np.ndarray,
    depth: np.ndarray,
    candidates: Callable[[], list[Any]],
    succ: np.ndarray,
    handover: np.ndarray,
    deadline: float | None,
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray], bool, bool]:
    """The matching (:class:`~.level_matching.LevelMatching`) of the candidates ``candidates()``
    makes, written into ``succ`` and ``handover``: the exits matched at each string where two
    or more were (as items and where each string's start), the entries and exits left free,
    and whether the deadline or Ctrl-C stopped it (the matches so far stand; none when they
    stopped the candidates' making)."""
    stopped = interrupted = False
    matching = LevelMatching(net.trie.word_node, slot_start, slot_item, succ, handover)
    try:
        matching.run(candidates(), depth, deadline)
    except FlowStopped:
        stopped = True
    except KeyboardInterrupt:  # the caller re-raises it once it has an ordering
        stopped = interrupted = True
    return matching.group_arrays(), matching.free_ends(), stopped, interrupted


def _handover_candidates(
    trie: Trie, W: int, proper: bool, depth: np.ndarray, deadline: float | None = None
) -> list[Any]:
    """Candidate hand-overs, deepest string first: the words, the trie nodes of the strings
    (arrays, in 32 bits where the trie's node ids fit) and the ranges of words allowed to
    follow (:class:`~.level_matching.CandidateRanges`). :class:`FlowStopped` once ``deadline``
    passed, before each of the three steps (977,555 31-mers of C. elegans: 3 s of
    candidates made past the deadline, the command 1.5 s past its limit)."""
    _check_deadline(deadline)
    ids = _narrow(trie.size + 1)
    wn = trie.word_node.astype(ids, copy=False)
    # Candidate hand-overs (word, trie node of the string, first slot allowed): failure chains,
    # full overlaps (strictly below the word), deepest first.
    # (The trie's own 32-bit arrays: no 64-bit copies of a pair a letter, 0.5 GB of 31-mers.)
    hw, hs = (a.astype(ids, copy=False) for a in trie.suffix_chain()[:2])
    if hw.shape[0] >= GIVE_BACK_CANDIDATES:
        give_back_freed_memory()  # the chain's steps, freed into the heap's holes
    full_count = 0
    if not proper:  # the whole word: words that strictly extend it
        full_count = W
        hw = np.concatenate([np.arange(W, dtype=ids), hw])
        hs = np.concatenate([wn, hs])
    columns = [hw, hs]
    del hw, hs  # moved in place below: each old column goes before the next is placed
    _check_deadline(deadline)
    strict = _deepest_first(depth, columns, full_count)
    hw, hs = columns
    strict |= proper
    _check_deadline(deadline)
    # The words before each node in preorder (``before[v]``, the word nodes below ``v``) and
    # the words up to the end of its subtree: the searches of ``wn`` for every candidate as
    # reads of two tables (0.2 s of ENABLE's 0.5 s by sorted searches). Words equal to the
    # string are left out (``before[v + 1]``, one more where ``v`` is a word) for full
    # overlaps and proper ones; a proper suffix is never its own word. Read for the
    # candidates the matching asks (:class:`~.level_matching.CandidateRanges`).
    before = np.zeros(trie.size + 1, dtype=ids)
    before[wn + 1] = 1
    np.cumsum(before, out=before)
    return [hw, hs, CandidateRanges(hs, strict, before, trie.end)]


#: From this many candidates, the heap's freed blocks go back to the kernel once the failure
#: chains are gathered (977,555 31-mers of C. elegans: 0.23 GB of steps' arrays, 30 million
#: candidates).
GIVE_BACK_CANDIDATES = 1 << 23


def _narrow(top: int) -> type[np.signedinteger]:
    """int32 for values below ``top`` (at most ``2**31``), else int64."""
    return np.int32 if top <= 1 << 31 else np.int64


def _deepest_first(depth: np.ndarray, columns: list[np.ndarray], full_count: int) -> np.ndarray:
    """The candidates' columns (words, strings: the last) sorted in place stably by their
    strings' depths, deepest first; whether each is one of the first ``full_count`` (a full
    overlap).

    Placed by :func:`~.sorting.stable_places` where the depths are below 65,536 and the
    candidates fewer than ``2**31`` (each candidate's place in 32 bits, its depth read a block
    at a time, a column moved at a time: 977,555 31-mers' 30 million candidates sorted with
    0.4 GB less than by a 64-bit order beside their 16-bit keys and both columns' copies);
    else by a radix sort (2 ms against 27 ms for ENABLE's 800,000 candidates by a comparison
    sort)."""
    hs = columns[-1]
    n = hs.shape[0]
    top = int(depth.max(initial=0))
    strict = np.zeros(n, dtype=bool)
    if top < 1 << 16 and n < 1 << 31:
        places = stable_places(_keys_of(depth, hs, top), n, top)
        del hs
        strict[places[:full_count]] = True
        for i in range(len(columns)):  # one at a time: the old column goes first
            columns[i] = _placed(columns[i], places)
        return strict
    key = depth[hs]
    del hs
    np.subtract(top, key, out=key)  # deepest first: the least key
    order = np.argsort(key, kind="stable")
    del key
    strict |= order < full_count
    for i in range(len(columns)):
        columns[i] = columns[i][order]
    return strict


def _keys_of(depth: np.ndarray, nodes: np.ndarray, top: int) -> Callable[[int, int], np.ndarray]:
    """The sort keys of the candidates ``lo .. hi - 1``: ``top`` less their strings' depths."""
    return lambda lo, hi: top - depth[nodes[lo:hi]]


def _placed(values: np.ndarray, places: np.ndarray) -> np.ndarray:
    """``values`` moved to their ``places`` (a new array)."""
    out = np.empty_like(values)
    out[places] = values
    return out


def _join_free_ends(
    N: int, cyclic: bool, heads: np.ndarray, tails: np.ndarray, succ: np.ndarray
) -> np.ndarray:
    """Join the unmatched exits ``tails`` to the unmatched entries ``heads`` (through the
    depot: paths concatenated); returns the exits joined, with the depot's exit last on a
    linear snake.

    The ``k``-th exit takes the ``k``-th entry, but where that is its own entry (a fixed
    point) it exchanges entries with the next exit (the last one with the one before): in a
    run of fixed points the first, third, ... exchange, which mends the others too (any that
    remain are one-item cycles, patched like the others).
    """
    if not cyclic:
        heads = np.append(heads, N)
        tails = np.append(tails, N)
    else:
        succ[N] = N
    heads = np.array(heads, dtype=np.int64)
    tails = np.asarray(tails, dtype=np.int64)
    m = tails.size
    if m > 1:
        fixed = heads == tails
        k = np.arange(m)
        mended = np.maximum.accumulate(np.where(fixed, -1, k))  # the last one not fixed
        swap = fixed & ((k - mended) % 2 == 1)  # even places in their run of fixed points
        at = np.flatnonzero(swap[:-1])
        heads[at], heads[at + 1] = heads[at + 1], heads[at]
        if swap[-1]:
            heads[m - 1], heads[m - 2] = heads[m - 2], heads[m - 1]
    succ[tails] = heads
    return tails


# ---------------------------------------------------------------------------------------------
# Model-side overlaps (the independent checker recomputes them separately).
# ---------------------------------------------------------------------------------------------
