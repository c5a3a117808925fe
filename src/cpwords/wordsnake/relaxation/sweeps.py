"""Bellman-Ford on a flow's residual network in sweeps along the string-hub network's node
classes (for :class:`~cpwords.wordsnake.relaxation.assignment.Reoptimizer`; the cycles of its
predecessors: :mod:`~cpwords.wordsnake.relaxation.pred_cycles`).

The residual arcs are grouped by the class of their tail (exits, ``R_in``, private chains, hubs,
``H+`` hubs, entries: ranges of node ids), not sorted by tail (on ENABLE, a sort of its 2.1 M
residual arcs by tail and the gathers by that order took 0.09 s, the grouping 0.05 s), and
within a class by the bucket of their head (:func:`build_residual`), so that a block of arcs
reads and writes a few stretches of labels. A class is relaxed whole when most of its nodes'
labels fell (an arc whose tail did not fall cannot lower its head, so this lowers exactly what
relaxing the fallen tails' arcs lowers), else the arcs of the fallen tails are picked by a mask;
the private chains, relaxed up to :data:`CHAIN_STEPS` times a sweep, keep their arcs sorted by
key with CSR offsets. Each node's predecessor is named by a key, its arc's
``tail << 32 | reverse << 31 | arc``, and among the tight arcs of a relaxation the largest key is
kept: the last of them in arrays sorted by tail, as the sweeps kept it when they were (so the
labels, predecessors and cancelled cycles do not depend on the arcs' order in memory). No two
live residual arcs join the same ordered pair of nodes, so the tight arcs into a node have
distinct tails and the largest key is the one of largest tail: a predecessor is recorded as its
tail alone, in 32 bits (:class:`Labels`), and its arc is looked up in the residual network when
a cycle is cancelled. Labels are held in 32 bits while they fit (half the memory traffic).
"""

from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass

import numpy as np

from cpwords.core.interrupts import StopFlag
from cpwords.core.pages import drop_pages
from cpwords.wordsnake.relaxation.compact_caps import CompactCaps
from cpwords.wordsnake.relaxation.int_types import id_type, signed_type
from cpwords.wordsnake.relaxation.residual_room import positions, with_room
from cpwords.wordsnake.relaxation.sorting import distinct
from cpwords.wordsnake.relaxation.string_hub import DeadlineReached, StringHubNetwork

#: Most relaxations of the private chains in a row within one sweep (a chain of ``k`` nodes
#: needs ``k``; what is left waits for the next sweep).
CHAIN_STEPS = 64

#: A residual arc's name: its network arc id, with this bit set for the reverse of the arc
#: (arc ids are below ``2**31``).
REVERSE = 1 << 31

#: Labels are held in 32 bits while they stay within ``+-LABEL_LIMIT`` and the costs within
#: half of it (so no sum of a label and a cost leaves 32 bits); past it, in 64 bits.
LABEL_LIMIT = 1 << 30


#: A class is relaxed whole when at least this share of its nodes' labels fell.
DENSE_SHARE = 0.5

#: Arcs classified at a time by :func:`build_residual` (its 64-bit copies of the 32-bit tails
#: and capacities stay this small).
BUILD_BLOCK = 1 << 17

#: Bits of the number of a bucket of heads (:func:`build_residual`; a block's arcs are grouped
#: by class and bucket by a radix sort of 16-bit numbers, 3 bits of class).
BUCKET_BITS = 12


def sweep_ranges(net: StringHubNetwork) -> list[tuple[int, int]]:
    """The node id ranges a sweep relaxes, in order: the network's node classes along its
    arcs (exits, ``R_in``, private chains, hubs, ``H+`` hubs, entries), then back.

    Parameters
    ----------
    net : StringHubNetwork

    Returns
    -------
    list of (int, int)
        ``(lo, hi)`` for the nodes ``lo <= v < hi`` of each class in turn (10 ranges; the
        private chains' is the third).

    Notes
    -----
    Every arc of the network goes from one class to a later one, but within the private
    chains, so a residual arc either follows that order (an arc with room) or goes against it
    (the reverse of an arc with flow): each half of a sweep carries the labels through a
    whole stretch of alternating path that a round carries one arc.
    """
    T, W, n = net.trie.size, net.num_words, net.num_nodes
    hubs, plus, exits, entries = (0, T), (T, T + W), (T + W, T + 2 * W), (T + 2 * W, T + 3 * W)
    depot, chains = (T + 3 * W, T + 3 * W + 1), (T + 3 * W + 1, n)
    return [exits, depot, chains, hubs, plus, entries, plus, hubs, chains, depot]


#: Where a key's tail lies in its two 32-bit halves (the high half; the name is the other).
TAIL_HALF = 1 if sys.byteorder == "little" else 0


@dataclass(slots=True)
class ClassArcs:
    """The residual arcs leaving the nodes ``lo <= v < hi``.

    Attributes
    ----------
    lo, hi : int
        The class's node ids.
    keys : numpy.ndarray of int64
        Each arc's key ``tail << 32 | name`` (name: the network arc id, :data:`REVERSE` set for
        the reverse of the arc): what :class:`Labels` records as a predecessor.
    heads : numpy.ndarray of int32
        Each arc's head; the dead node for an arc no longer in the network (its label is the
        least value, so it is never lowered).
    costs : numpy.ndarray of int8, int16, int32 or int64
        As narrow as the costs allow (:func:`cost_type`).
    indptr : numpy.ndarray of int64 or None
        CSR over the class's nodes when the arcs are sorted by key, else None.
    ordered : int
        Otherwise, the first ``ordered`` arcs are in the order they were built in: ascending
        names (those with room by arc id, then the reverse ones) within each bucket of heads
        (``starts``); arcs added later follow.
    starts : numpy.ndarray of int64 or None
        When the first ``ordered`` arcs are grouped by their head's bucket ``head >> shift``
        (in ascending buckets), where each bucket's arcs start, and ``ordered``; None for one
        bucket (the arcs in ascending names).
    shift : int
        The buckets' width: ``2**shift`` node ids.
    """

    lo: int
    hi: int
    keys: np.ndarray
    heads: np.ndarray
    costs: np.ndarray
    indptr: np.ndarray | None = None
    ordered: int = 0
    starts: np.ndarray | None = None
    shift: int = 0

    @property
    def tails(self) -> np.ndarray:
        """Each arc's tail (int32: a strided view of the keys' high halves)."""
        return self.keys.view(np.int32)[TAIL_HALF::2]

    def sort_by_key(self) -> None:
        """Sort the arcs by key and set ``indptr``."""
        order = np.argsort(self.keys, kind="stable")
        # One at a time, the keys last, sorted once the order is let go (as ``keys[order]``
        # gives): three 8-byte arrays of the class's arcs at once were the greedy proof's peak.
        self.heads = self.heads[order]
        self.costs = self.costs[order]
        del order
        self.keys = np.sort(self.keys)
        count = np.bincount(self.tails - self.lo, minlength=self.hi - self.lo)
        self.indptr = np.zeros(self.hi - self.lo + 1, dtype=np.int64)
        np.cumsum(count, out=self.indptr[1:])
        self.starts = None


@dataclass
class Residual:
    """A flow's residual network, its arcs by the class of their tail.

    Attributes
    ----------
    n : int
        Number of nodes; node ``n`` is the dead head (see :class:`ClassArcs`).
    classes : list of ClassArcs
        One per node class, in node id order (``bounds``).
    bounds : numpy.ndarray of int64
        The classes' first node ids, and ``n``.
    """

    n: int
    classes: list[ClassArcs]
    bounds: np.ndarray

    def of_range(self, lo: int, hi: int) -> ClassArcs:
        """The class of the nodes ``lo <= v < hi`` (a class's range)."""
        for arcs in self.classes:
            if arcs.lo == lo and arcs.hi == hi:
                return arcs
        raise KeyError((lo, hi))


def class_bounds(net: StringHubNetwork) -> np.ndarray:
    """The node classes of a network as ranges of node ids.

    Parameters
    ----------
    net : StringHubNetwork

    Returns
    -------
    numpy.ndarray of int64, shape (7,)
        The first node id of each class (hubs, ``H+`` hubs, exits, entries, ``R_in``, private
        chains), then the number of nodes.
    """
    T, W = net.trie.size, net.num_words
    return np.array([0, T, T + W, T + 2 * W, T + 3 * W, T + 3 * W + 1, net.num_nodes], np.int64)


def build_residual(
    tail: np.ndarray,
    head: np.ndarray,
    cost: np.ndarray,
    flows: np.ndarray | CompactCaps,
    cap: np.ndarray | CompactCaps,
    bounds: np.ndarray,
    chains: int = 5,
    negated: bool = False,
    spent: tuple[np.ndarray, ...] = (),
) -> Residual:
    """The residual network of a flow, its arcs by the class of their tail.

    Parameters
    ----------
    tail, head : numpy.ndarray of int, shape (m,)
        The network's arcs (``m < 2**31``).
    cost, flows, cap : numpy.ndarray of int64, shape (m,) (``flows``, ``cap`` maybe CompactCaps)
    bounds : numpy.ndarray of int64, shape (k + 1,)
        The classes' first node ids, then the number of nodes (:func:`class_bounds`).
    chains : int
        The class kept sorted by tail (the private chains).
    negated : bool
        ``cost`` holds the costs negated (weights: no copy of ``-weight`` is held).
    spent : tuple of numpy.ndarray
        Arrays among ``tail``, ``head`` and ``cost`` read by no one after: given back as the
        arcs with room are written (:func:`~cpwords.core.pages.drop_pages`; 0.6 GB of the
        greedy proof's peak on 977,555 31-mers of C. elegans), the classes in small pages.

    Returns
    -------
    Residual
        In each class, grouped by their head's bucket (:func:`head_shift`, the buckets in
        order), the arcs with room in arc id order, then the reverse arcs of those with flow in
        arc id order; the chains' class sorted by tail instead (stably).

    Notes
    -----
    In arc id order, the exits' hand-over arcs (by tail) reach hubs all over the trie, and
    every relaxation read and wrote their heads' labels at random; grouped by head, each block
    of arcs reads and writes a few stretches of them, and no head is met in two blocks
    (:func:`_relax_buckets`). On 977,555 31-mers of C. elegans, a dense relaxation of the
    exits' 29 million arcs took 0.8-1.3 s, grouped 0.36 s."""
    n, k = int(bounds[-1]), bounds.shape[0] - 1
    node_class = np.repeat(np.arange(k, dtype=np.uint8), np.diff(bounds))
    # Each arc's class (that of the tail of its forward residual arc; 255: saturated), and the
    # reverse arcs' (those of the arcs with flow, by the class of their heads).
    fwd_class = _arc_classes(node_class, tail, flows, cap)
    bw = _with_flow(flows)
    bw_class = node_class.take(head.take(bw))
    dtype = cost_type(max(-int(cost.min()), int(cost.max())) if cost.shape[0] else 0)
    shift = head_shift(n)
    # Each class's arcs by bucket (a row more: the saturated arcs').
    count = _bucket_counts(fwd_class, head, shift, k)
    rev = [bw[bw_class == c] for c in range(k)]
    del bw, bw_class
    back = [(tail.take(r), head.take(r), cost.take(r)) for r in rev]  # before ``spent`` go
    classes = []
    for c in range(k):
        count[c] += np.bincount(back[c][0] >> shift, minlength=count.shape[1])
        starts = np.zeros(count.shape[1] + 1, dtype=np.int64)
        np.cumsum(count[c], out=starts[1:])
        size = int(starts[-1])
        keys, heads, costs = (with_room(size, t, bool(spent)) for t in (np.int64, np.int32, dtype))
        arcs = ClassArcs(int(bounds[c]), int(bounds[c + 1]), keys, heads, costs)
        arcs.ordered, arcs.starts, arcs.shift = size, starts, shift
        classes.append(arcs)
        del keys, heads, costs  # held by the class alone (its sort by key lets them go)
    cursor = np.zeros_like(count)  # where each bucket's next arc goes
    for c, arcs in enumerate(classes):
        assert arcs.starts is not None
        cursor[c] = arcs.starts[:-1]
    _fill_forward(fwd_class, tail, head, cost, classes, cursor, negated, spent)
    del fwd_class
    for c, arcs in enumerate(classes):
        _fill_reverse(arcs, rev[c], back[c], cursor[c], negated)
        if c == chains:
            arcs.sort_by_key()
    return Residual(n, classes, bounds)


def _fill_reverse(
    arcs: ClassArcs,
    r: np.ndarray,
    back: tuple[np.ndarray, np.ndarray, np.ndarray],
    cursor: np.ndarray,
    negated: bool,
) -> None:
    """Write a class's reverse arcs: those of the network arcs ``r`` (their tails, heads and
    costs ``back``), each at its head's bucket's ``cursor``."""
    r_tail, r_head, r_cost = back
    key = r_head.astype(np.int64)  # the reverse arcs' tails
    key <<= 32
    key |= r | REVERSE
    order, pos = positions((r_tail >> arcs.shift).astype(np.uint16), cursor)
    arcs.keys[pos], arcs.heads[pos] = key.take(order), r_tail.take(order)
    arcs.costs[pos] = _negated(r_cost.take(order), not negated)


def cost_type(top: int) -> type[np.signedinteger]:
    """The narrowest type of the residual arcs' costs when every ``|cost| <= top``: 8 or 16
    bits where they fit (a k-mer list's linear scores, at most ``k - 1``: 977,555 31-mers of
    C. elegans, 68 million residual arcs, 0.27 GB of 32-bit costs held through the greedy
    proof), 32 bits while within half :data:`LABEL_LIMIT` (a label and a cost then sum
    within 32 bits), else 64.

    Parameters
    ----------
    top : int
        The largest ``|cost|`` (its negation fits too).

    Returns
    -------
    type
    """
    return signed_type(top, (LABEL_LIMIT >> 1) - 1)


def _negated(values: np.ndarray, negate: bool) -> np.ndarray:
    """``-values`` (a new array) if ``negate``, else ``values``."""
    return np.negative(values) if negate else values


def head_shift(n: int) -> int:
    """The width ``2**shift`` of the buckets of heads of a network of ``n`` nodes: the least
    that numbers them in :data:`BUCKET_BITS` bits.

    Parameters
    ----------
    n : int
        Number of nodes (the heads are below it).

    Returns
    -------
    int
    """
    return max(0, n.bit_length() - BUCKET_BITS)


def _codes(arc_class: np.ndarray, head: np.ndarray, shift: int, k: int) -> np.ndarray:
    """Each arc's class and head's bucket as one number, ``class << BUCKET_BITS | bucket``
    (uint16; class ``k`` for the saturated arcs, of class 255)."""
    code = np.minimum(arc_class, k).astype(np.uint16)
    code <<= BUCKET_BITS
    code |= (head >> shift).astype(np.uint16)
    return code


def _bucket_counts(arc_class: np.ndarray, head: np.ndarray, shift: int, k: int) -> np.ndarray:
    """How many arcs of each class (``arc_class``, 255: saturated) each bucket of heads holds,
    :data:`BUILD_BLOCK` arcs at a time: shape ``(k + 1, 2**BUCKET_BITS)``, the saturated arcs'
    row last."""
    size = (k + 1) << BUCKET_BITS
    count = np.zeros(size, dtype=np.int64)
    for a in range(0, head.shape[0], BUILD_BLOCK):
        b = a + BUILD_BLOCK
        count += np.bincount(_codes(arc_class[a:b], head[a:b], shift, k), minlength=size)
    return count.reshape(k + 1, -1)


#: Arcs written at a time by :func:`_fill_forward` (its temporaries, about 40 bytes an arc with
#: the radix sort's order and positions, stay in memory the allocator keeps: a million arcs at a
#: time raised ENABLE's peak from 211 to 240 MiB, a quarter of that 215 MiB; the 68 million
#: arcs of 977,555 31-mers of C. elegans build as fast).
FILL_BLOCK = 1 << 18


def _with_flow(flows: np.ndarray | CompactCaps) -> np.ndarray:
    """The arcs with flow (int64 ids, ascending), :data:`BUILD_BLOCK` arcs at a time."""
    parts = [
        np.flatnonzero(flows[a : a + BUILD_BLOCK] > 0) + a
        for a in range(0, flows.shape[0], BUILD_BLOCK)
    ]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _fill_forward(
    arc_class: np.ndarray,
    tail: np.ndarray,
    head: np.ndarray,
    cost: np.ndarray,
    classes: list[ClassArcs],
    cursor: np.ndarray,
    negated: bool = False,
    spent: tuple[np.ndarray, ...] = (),
) -> None:
    """Write each class's forward residual arcs (``arc_class``, 255: none) in arc id order
    within each bucket of heads (``cursor``: where each class's bucket's next arc goes),
    :data:`FILL_BLOCK` arcs at a time: a block's arcs grouped by class and bucket by one radix
    sort, each class's copied. No temporary of the whole network (its
    classes' ids, tails, heads and costs gathered at once were 36 bytes an arc of fresh
    memory: 2.4 GB on 977,555 31-mers of C. elegans). With ``spent`` arrays, their pages and
    those of ``arc_class`` (let go after) are given back as each block is written."""
    k = len(classes)
    flat = cursor.reshape(-1)  # a view: advanced in place
    shift = classes[0].shift if classes else 0
    for a in range(0, arc_class.shape[0], FILL_BLOCK):
        b = a + FILL_BLOCK
        t, h, c = tail[a:b], head[a:b], _negated(cost[a:b], negated)
        code = _codes(arc_class[a:b], h, shift, k)
        order, pos = positions(code, flat)
        # Each class's arcs are a stretch of the order.
        ends = np.searchsorted(code.take(order) >> BUCKET_BITS, np.arange(k), side="right")
        for cls, arcs in enumerate(classes):
            lo, hi = (int(ends[cls - 1]) if cls else 0), int(ends[cls])
            if lo == hi:
                continue
            pick, at = order[lo:hi], pos[lo:hi]
            key = t.take(pick).astype(np.int64)
            key <<= 32
            key |= pick
            key += a
            arcs.keys[at], arcs.heads[at], arcs.costs[at] = key, h.take(pick), c.take(pick)
        del t, h, c
        for done in (arc_class, *spent) if spent else ():
            drop_pages(done, a - FILL_BLOCK, b)  # from the block before: the page across


def _arc_classes(
    node_class: np.ndarray,
    tail: np.ndarray,
    flows: np.ndarray | CompactCaps,
    cap: np.ndarray | CompactCaps,
) -> np.ndarray:
    """Each arc's tail's class, 255 where the arc is saturated: ``node_class[tail]`` with
    ``flows >= cap`` set to 255, :data:`BUILD_BLOCK` arcs at a time. In one pass, the gather
    copied the 32-bit tails to 64 bits and the comparison the 32-bit capacities (8 bytes an arc
    each, at once; the German list's 5.3 million arcs: 46 -> 31 ms)."""
    out = np.empty(tail.shape[0], dtype=np.uint8)
    # Compared in a type that holds both (a certificate's lifted capacities, 2**60, beside
    # int32 flows); a block at a time, neither copy is made when both share a type.
    wide = np.promote_types(flows.dtype, cap.dtype)
    for lo in range(0, tail.shape[0], BUILD_BLOCK):
        hi = lo + BUILD_BLOCK
        part = out[lo:hi]
        node_class.take(tail[lo:hi].astype(np.intp), out=part)
        np.copyto(
            part,
            255,
            where=flows[lo:hi].astype(wide, copy=False) >= cap[lo:hi].astype(wide, copy=False),
        )
    return out


class Labels:
    """The labels of a Bellman-Ford run, the predecessors and the nodes left to relax.

    Parameters
    ----------
    start : numpy.ndarray of int64, shape (n_nodes,)
        The start labels.
    small : bool
        Whether the costs lie within ``+-LABEL_LIMIT / 2`` (32-bit labels allowed).

    Attributes
    ----------
    dist : numpy.ndarray of int32 or int64, shape (n_nodes + 1,)
        The labels; ``dist[n_nodes]``, the dead head's, is the type's least value (no arc
        lowers it). In 32 bits while every label lies within ``+-LABEL_LIMIT``.
    pred : numpy.ndarray of int32 (int64 past ``2**31 - 1`` nodes), shape (n_nodes,)
        Each node's predecessor since the predecessors were last cleared: the tail of its tight
        arc of largest key (``tail << 32 | name``), -1 for none. The tight arcs into a node have
        distinct tails (no two live residual arcs join the same pair of nodes), so the tail
        tells the arc, and the largest key is the one of largest tail (the 64-bit keys took
        0.2 GB on 977,555 31-mers of C. elegans).
    dirty : numpy.ndarray of bool, shape (n_nodes,)
        The nodes whose arcs are to be relaxed (every node at first).
    record : bool
        Whether :func:`relax` records the predecessors (True at first). Off for the first
        sweep from start labels: it lowers almost every node a class reaches (the German
        list: 0.83 million, a k-mer list's hubs: 5 million), most of them again later, and
        recording them was most of that sweep (wngerman 0.28 -> 0.18 s, letterpress 0.30 ->
        0.13 s). A node's predecessor is then the tight arc of its last fall after the first
        sweep, -1 if none: every cycle of predecessors is still a negative cycle, and a
        negative cycle's labels go on falling, so it is found a sweep or two later at most.
    """

    def __init__(self, start: np.ndarray, small: bool) -> None:
        n = start.shape[0]
        lo, hi = (int(start.min()), int(start.max())) if n else (0, 0)
        fits = small and lo >= -LABEL_LIMIT and hi <= LABEL_LIMIT
        dtype = np.int32 if fits else np.int64
        self.dist = np.empty(n + 1, dtype=dtype)
        self.dist[:n] = start
        self.dist[n] = np.iinfo(dtype).min
        self.pred = np.full(n, -1, dtype=id_type(n))
        self.dirty = np.ones(n, dtype=bool)
        self.record = True

    def let_go(self) -> None:
        """Let the predecessors and the marks go (C. elegans: 0.11 GB), the labels read alone."""
        self.pred = np.zeros(0, dtype=self.pred.dtype)
        self.dirty = np.zeros(0, dtype=bool)

    def labels(self, narrow: bool = False) -> np.ndarray:
        """The labels, shape (n,): a copy in int64, or with ``narrow`` a view of them in their
        own type (int32 while they fit)."""
        return self.dist[:-1] if narrow else self.dist[:-1].astype(np.int64)

    def fell_to(self, low: int) -> None:
        """Labels fell to ``low``: past ``-LABEL_LIMIT``, they go on in 64 bits."""
        if low < -LABEL_LIMIT and self.dist.dtype != np.int64:
            self.dist = self.dist.astype(np.int64)
            self.dist[-1] = np.iinfo(np.int64).min


def sweep(
    res: Residual,
    lab: Labels,
    ranges: list[tuple[int, int]],
    deadline: float | None,
    stop: StopFlag | None = None,
) -> bool:
    """One sweep: the arcs leaving the dirty nodes of each range in turn, the labels lowered
    at once (Gauss-Seidel).

    Parameters
    ----------
    res : Residual
    lab : Labels
        Lowered, and their predecessors and dirty marks updated, in place.
    ranges : list of (int, int)
        :func:`sweep_ranges` (each range one class of ``res``).
    deadline : float or None
        ``time.perf_counter()`` value after which it stops.
    stop : StopFlag, optional
        A held stop, looked at before each range (:meth:`.StopFlag.leave_if_asked`).

    Returns
    -------
    bool
        Whether a label fell (False: no node is left dirty, the labels are settled).

    Raises
    ------
    DeadlineReached
        The deadline passed.
    """
    fell = False
    for lo, hi in ranges:
        if deadline is not None and time.perf_counter() >= deadline:
            raise DeadlineReached
        if stop is not None:
            stop.leave_if_asked()
        arcs = res.of_range(lo, hi)
        if arcs.indptr is None:
            fell |= relax(arcs, lab)
        else:
            fell |= _relax_chains(arcs, lab, CHAIN_STEPS)
    return fell


def _picked(arcs: ClassArcs, tails: np.ndarray) -> np.ndarray | None:
    """The positions of the arcs leaving the nodes ``lo + tails`` (``tails`` ascending) of a
    class sorted by key (``indptr`` set), or None for all of them (most of the class's
    nodes)."""
    if tails.shape[0] >= DENSE_SHARE * (arcs.hi - arcs.lo):
        return None
    assert arcs.indptr is not None
    start = arcs.indptr.take(tails)
    cnt = arcs.indptr.take(tails + 1) - start
    idx = np.repeat(start - np.cumsum(cnt) + cnt, cnt)
    idx += np.arange(idx.shape[0])
    return idx


def _relax_chains(arcs: ClassArcs, lab: Labels, steps: int) -> bool:
    """:func:`relax` on the private chains' class (sorted by key), ``steps`` times in a row or
    until no label falls: each time the arcs leaving its dirty nodes (their marks cleared),
    every candidate from the labels before any is lowered (:func:`_relax_at_once`). Returns
    whether a label fell.

    The class's dirty nodes are read from the marks once: after a relaxation they are the
    heads it lowered within the class, which it returns (where every relaxation read the
    marks of the class's nodes, 3.2 million on 977,555 31-mers of C. elegans, whose chains
    took up to 64 relaxations a sweep with a few nodes dirty: 3 ms each).
    """
    lo, hi = arcs.lo, arcs.hi
    tails = np.flatnonzero(lab.dirty[lo:hi])
    fell = False
    for _ in range(steps):
        if not tails.size:
            break
        idx = _picked(arcs, tails)
        lab.dirty[tails + lo] = False
        lowered = _relax_at_once(arcs, lab, idx)
        if lowered is None:
            break
        fell = True
        lowered = lowered.compress((lowered >= lo) & (lowered < hi))
        lowered -= lo
        tails = distinct(lowered)
    return fell


def relax(arcs: ClassArcs, lab: Labels) -> bool:
    """Relax the residual arcs leaving the dirty nodes of a class (their marks cleared):
    lower the heads' labels to the best candidate, record each lowered head's tight arc of
    largest key in ``pred`` (when ``lab.record``) and mark it dirty.

    Parameters
    ----------
    arcs : ClassArcs
    lab : Labels
        Updated in place.

    Returns
    -------
    bool
        Whether a label fell.

    Notes
    -----
    A class not sorted by key (every class but the private chains') is read a block of its
    heads' buckets at a time (:func:`_relax_buckets`); the chains' class, whose arcs may lead
    to nodes of the class itself, at once (:func:`_relax_at_once`).
    """
    part = lab.dirty[arcs.lo : arcs.hi]
    count = int(np.count_nonzero(part))
    if not count:
        return False
    if arcs.indptr is None:
        return _relax_buckets(arcs, lab, count >= DENSE_SHARE * (arcs.hi - arcs.lo))
    return _relax_chains(arcs, lab, 1)


#: Arcs of a class read at a time by :func:`_relax_buckets` (whole buckets of heads, so a few
#: more): its temporaries (candidates, heads, the 64-bit copies of the 32-bit ids that a gather
#: makes, a few MB) stay in memory the allocator keeps, where whole-class temporaries were
#: fresh memory each time (on 977,555 31-mers of C. elegans, a class of 40 million arcs: 0.3 GB
#: each, the kernel zeroing them page by page).
RELAX_BLOCK = 1 << 20


def _relax_buckets(arcs: ClassArcs, lab: Labels, dense: bool) -> bool:
    """:func:`relax` on a class none of whose arcs leads into the class (every class but the
    private chains'), grouped by head (``starts``): the arcs of the dirty tails (``dense``:
    every arc), about :data:`RELAX_BLOCK` of them at a time, in whole buckets, then the arcs
    added since the class was built.

    The tails' labels do not change while the class is relaxed (no head lies in the class), so
    the labels are those of one pass over the whole class. No head of a block is met in
    another block, so each block's lowered heads have their final labels, and their tight
    arcs are all in the block: the predecessors are recorded as the block is relaxed. The arcs
    added later may meet them again: those are relaxed last, against their heads' labels
    before the class was (:func:`_relax_span`).
    """
    dist, size, ordered = lab.dist, arcs.keys.shape[0], arcs.ordered
    before = dist.take(arcs.heads[ordered:]) if size > ordered else None
    assert arcs.starts is not None
    starts = arcs.starts
    cuts = starts.take(np.searchsorted(starts, np.arange(0, ordered, RELAX_BLOCK))).tolist()
    cuts.append(ordered)
    spans = [(a, b) for a, b in itertools.pairwise(cuts) if a < b]
    if before is not None:
        spans.append((ordered, size))
    low = None
    for a, b in spans:
        fell = _relax_span(arcs, lab, a, b, dense, before if a == ordered else None)
        if fell is not None:
            low = fell if low is None else min(low, fell)
    lab.dirty[arcs.lo : arcs.hi] = False
    if low is None:
        return False
    lab.fell_to(low)
    return True


def _relax_span(
    arcs: ClassArcs, lab: Labels, a: int, b: int, dense: bool, before: np.ndarray | None
) -> int | None:
    """Relax the arcs ``a:b`` of a class (those of its dirty tails; ``dense``: all): arcs whose
    heads no other span of this relaxation meets (``before`` None), or the arcs added since
    the class was built (``before``: their heads' labels before the relaxation, to tell a tie
    with a label this relaxation lowered, a tight arc, from a tie with an older one). Returns
    the least label it lowered a head to, None if none."""
    dist, dirty = lab.dist, lab.dirty
    tails = arcs.tails[a:b]
    if dense:
        pick = None
        heads = arcs.heads[a:b]
        cand = dist.take(tails)
        cand += arcs.costs[a:b]
    else:
        pick = np.flatnonzero(dirty.take(tails))
        if not pick.size:
            return None
        heads = arcs.heads[a:b].take(pick)
        cand = dist.take(_tails_at(arcs.keys[a:b], pick))
        cand += arcs.costs[a:b].take(pick)
    now = dist.take(heads)
    if before is not None and lab.record:
        was = before if pick is None else before.take(pick)
        better = np.flatnonzero((cand < now) | ((cand == now) & (now < was)))
    else:
        better = np.flatnonzero(cand < now)
    if not better.size:
        return None
    c = cand.take(better)
    h = heads.take(better).astype(np.intp)
    np.minimum.at(dist, h, c)
    low = int(c.min())
    if not lab.record:  # every head of a better candidate fell
        dirty[h] = True
        return low
    new = dist.take(h)
    tight = c == new
    th = h.compress(tight)  # every lowered head is the head of a tight arc
    where = better.compress(tight)
    came = _pred_tails(arcs.keys[a:b], where if pick is None else pick.take(where), lab)
    if before is None:
        lab.pred[th] = came  # a lowered head's old predecessor overwritten
    else:  # only where these arcs lowered the label further
        fell = new.compress(tight) < now.take(where)
        lab.pred[th.compress(fell)] = came.compress(fell)
    np.maximum.at(lab.pred, th, came)
    dirty[th] = True
    return low


def _relax_at_once(arcs: ClassArcs, lab: Labels, idx: np.ndarray | None) -> np.ndarray | None:
    """:func:`relax` on the arcs ``idx`` of a class (None: all of them), every candidate from
    the labels before any is lowered. Returns the heads it lowered (and marked dirty; some
    maybe more than once), None if none."""
    dist = lab.dist
    if idx is None:
        heads = arcs.heads
        cand = dist.take(arcs.tails)
        cand += arcs.costs
    else:
        heads = arcs.heads.take(idx)
        cand = dist.take(_tails_at(arcs.keys, idx))
        cand += arcs.costs.take(idx)
    better = np.flatnonzero(cand < dist.take(heads))
    if not better.size:
        return None
    # Each array let go once done with: the first sweep lowers almost every head a class
    # reaches; 45 -> 25 bytes a lowered head (64 -> 33 MB at the German greedy proof's peak).
    c = cand.take(better)
    del cand
    h = heads.take(better).astype(np.intp)
    del heads
    np.minimum.at(dist, h, c)
    if not lab.record:  # every head of a better candidate fell
        lab.dirty[h] = True
        lab.fell_to(int(c.min()))
        return h
    tight = c == dist.take(h)
    low = int(c.min())
    del c
    th = h.compress(tight)  # every lowered head is the head of a tight arc
    del h
    pos = better.compress(tight)
    del better, tight
    came = _pred_tails(arcs.keys, pos if idx is None else idx.take(pos), lab)
    del pos, idx
    lab.pred[th] = came  # a lowered head's old predecessor overwritten
    np.maximum.at(lab.pred, th, came)
    lab.dirty[th] = True
    lab.fell_to(low)
    return th


def _pred_tails(keys: np.ndarray, at: np.ndarray, lab: Labels) -> np.ndarray:
    """The tails of the arcs at positions ``at`` of a class's keys, in the type of
    ``lab.pred`` (what it records of a tight arc)."""
    return _tails_at(keys, at).astype(lab.pred.dtype, copy=False)


def _tails_at(keys: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The tails of the arcs at positions ``at`` of a class's keys (int64): gathered from the
    keys, where ``ClassArcs.tails.take`` copied the whole strided view first (5 ms a class of 6
    million arcs, however few the positions)."""
    tails = keys.take(at)
    tails >>= 32
    return tails


def key_arcs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What residual arcs named by their keys are.

    Parameters
    ----------
    keys : array_like of int64, shape (k,)
        Keys ``tail << 32 | name`` (:class:`ClassArcs`, :class:`Labels`).

    Returns
    -------
    tails, arcs : numpy.ndarray of int64, shape (k,)
        Each residual arc's tail and its network arc.
    forward : numpy.ndarray of bool, shape (k,)
        Whether it is the network arc itself (else its reverse).

    Examples
    --------
    >>> tails, arcs, forward = key_arcs([5 << 32 | 7, 9 << 32 | REVERSE | 7])
    >>> tails.tolist(), arcs.tolist(), forward.tolist()
    ([5, 9], [7, 7], [True, False])
    """
    keys = np.asarray(keys, dtype=np.int64)
    names = keys & 0xFFFFFFFF
    return keys >> 32, names & (REVERSE - 1), names < REVERSE
