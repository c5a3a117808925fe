"""Bellman-Ford on a flow's residual network in sweeps along the string-hub network's node
classes, and the negative cycles of the predecessor graph (for
:class:`~cpwords.wordsnake.relaxation.assignment.Reoptimizer`).

The residual arcs are grouped by the class of their tail (exits, ``R_in``, private chains, hubs,
``H+`` hubs, entries: ranges of node ids), not sorted by tail (on ENABLE, a sort of its 2.1 M
residual arcs by tail and the gathers by that order took 0.09 s, the grouping 0.05 s). A class
is relaxed whole when most of its nodes' labels fell (an arc whose tail did not fall cannot
lower its head, so this lowers exactly what relaxing the fallen tails' arcs lowers), else the
arcs of the fallen tails are picked by a mask; the private chains, relaxed up to
:data:`CHAIN_STEPS` times a sweep, keep their arcs sorted by key with CSR offsets. Each node's
predecessor is named by a key, its arc's ``tail << 32 | reverse << 31 | arc``, and among the tight
arcs of a relaxation the largest key is kept: the last of them in arrays sorted by tail, as the
sweeps kept it when they were (so the labels, predecessors and cancelled cycles do not depend on
the arcs' order in memory). Labels are held in 32 bits while they fit (half the memory traffic).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import numpy as np

from cpwords.wordsnake.relaxation.decode import item_type
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

#: The search for cycles of predecessors peels the nodes that cannot lie on one until at most
#: this many are left, then walks them.
WALK_NODES = 4096


#: A class is relaxed whole when at least this share of its nodes' labels fell.
DENSE_SHARE = 0.5

#: Arcs classified at a time by :func:`build_residual` (its 64-bit copies of the 32-bit tails
#: and capacities stay this small).
BUILD_BLOCK = 1 << 17


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
    costs : numpy.ndarray of int32 or int64
    indptr : numpy.ndarray of int64 or None
        CSR over the class's nodes when the arcs are sorted by key, else None.
    ordered : int
        Otherwise, the first ``ordered`` arcs are in the order they were built in, ascending
        names (those with room by arc id, then the reverse ones); arcs added later follow.
    """

    lo: int
    hi: int
    keys: np.ndarray
    heads: np.ndarray
    costs: np.ndarray
    indptr: np.ndarray | None = None
    ordered: int = 0

    @property
    def tails(self) -> np.ndarray:
        """Each arc's tail (int32: a strided view of the keys' high halves)."""
        return self.keys.view(np.int32)[TAIL_HALF::2]

    def sort_by_key(self) -> None:
        """Sort the arcs by key and set ``indptr``."""
        order = np.argsort(self.keys, kind="stable")
        self.keys, self.heads, self.costs = self.keys[order], self.heads[order], self.costs[order]
        count = np.bincount(self.tails - self.lo, minlength=self.hi - self.lo)
        self.indptr = np.zeros(self.hi - self.lo + 1, dtype=np.int64)
        np.cumsum(count, out=self.indptr[1:])


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
    flows: np.ndarray,
    cap: np.ndarray,
    bounds: np.ndarray,
    chains: int = 5,
) -> Residual:
    """The residual network of a flow, its arcs by the class of their tail.

    Parameters
    ----------
    tail, head : numpy.ndarray of int, shape (m,)
        The network's arcs (``m < 2**31``).
    cost, flows, cap : numpy.ndarray of int64, shape (m,)
    bounds : numpy.ndarray of int64, shape (k + 1,)
        The classes' first node ids, then the number of nodes (:func:`class_bounds`).
    chains : int
        The class kept sorted by tail (the private chains).

    Returns
    -------
    Residual
        In each class, the arcs with room in arc id order, then the reverse arcs of those with
        flow in arc id order (the chains' class sorted by tail, stably).
    """
    n, k = int(bounds[-1]), bounds.shape[0] - 1
    node_class = np.repeat(np.arange(k, dtype=np.uint8), np.diff(bounds))
    # Each arc's class (that of the tail of its forward residual arc; 255: saturated), and the
    # reverse arcs' (those of the arcs with flow, by the class of their heads).
    fwd_class = _arc_classes(node_class, tail, flows, cap)
    bw = _with_flow(flows)
    bw_class = node_class.take(head.take(bw))
    small = not cost.shape[0] or max(-int(cost.min()), int(cost.max())) < LABEL_LIMIT >> 1
    dtype = np.int32 if small else np.int64
    fwd_count = np.bincount(fwd_class, minlength=256)[:k]
    bw_count = np.bincount(bw_class, minlength=k)
    sizes = [int(f + r) for f, r in zip(fwd_count, bw_count, strict=True)]
    keys = [_with_room(size, np.int64) for size in sizes]
    heads = [_with_room(size, np.int32) for size in sizes]
    costs = [_with_room(size, dtype) for size in sizes]
    _fill_forward(fwd_class, tail, head, cost, keys, heads, costs)
    del fwd_class
    classes = []
    for c in range(k):
        r = bw[bw_class == c]
        at = int(fwd_count[c])
        key = keys[c][at:]
        key[:] = head.take(r)  # the reverse arcs' tails
        key <<= 32
        key |= r | REVERSE
        heads[c][at:] = tail.take(r)
        costs[c][at:] = cost.take(r)
        np.negative(costs[c][at:], out=costs[c][at:])
        size = keys[c].shape[0]
        arcs = ClassArcs(
            int(bounds[c]), int(bounds[c + 1]), keys[c], heads[c], costs[c], ordered=size
        )
        if c == chains:
            arcs.sort_by_key()
        classes.append(arcs)
    return Residual(n, classes, bounds)


#: The room left past each class's arrays for the residual arcs that cancelling a cycle adds
#: (:func:`~cpwords.wordsnake.relaxation.residual_update.update_residual` appends them there):
#: this share of their size more. Never written unless used, it takes no memory until then,
#: where the first cancellation copied a whole class (977,555 31-mers of C. elegans: 40 million
#: arcs, 0.36 GB of keys held twice, the greedy proof's peak).
ROOM_SHARE = 8


def _with_room(size: int, dtype: type[np.signedinteger]) -> np.ndarray:
    """An uninitialised array of ``size`` entries, a view of a buffer with room past them
    (:data:`ROOM_SHARE`)."""
    return np.empty(size + size // ROOM_SHARE, dtype=dtype)[:size]


#: Arcs written at a time by :func:`_fill_forward` (its temporaries, 20 bytes an arc, stay in
#: memory the allocator keeps; smaller blocks cost more passes than they save on small lists).
FILL_BLOCK = 1 << 20


def _with_flow(flows: np.ndarray) -> np.ndarray:
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
    keys: list[np.ndarray],
    heads: list[np.ndarray],
    costs: list[np.ndarray],
) -> None:
    """Write each class's forward residual arcs (``arc_class``, 255: none) in arc id order at
    the start of its arrays, :data:`FILL_BLOCK` arcs at a time: each class's arcs of the block
    picked by a comparison and copied. No temporary of the whole network (its
    classes' ids, tails, heads and costs gathered at once were 36 bytes an arc of fresh
    memory: 2.4 GB on 977,555 31-mers of C. elegans)."""
    k = len(keys)
    at = [0] * k
    for a in range(0, arc_class.shape[0], FILL_BLOCK):
        b = a + FILL_BLOCK
        block = arc_class[a:b]
        t, h, c = tail[a:b], head[a:b], cost[a:b]
        for cls in range(k):
            pick = np.flatnonzero(block == cls)
            if not pick.size:
                continue
            span = slice(at[cls], at[cls] + pick.shape[0])
            key = keys[cls][span]
            key[:] = t.take(pick)
            key <<= 32
            pick += a
            key |= pick
            pick -= a
            heads[cls][span] = h.take(pick)
            costs[cls][span] = c.take(pick)
            at[cls] += pick.shape[0]


def _arc_classes(
    node_class: np.ndarray, tail: np.ndarray, flows: np.ndarray, cap: np.ndarray
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
    pred : numpy.ndarray of int64, shape (n_nodes,)
        Each node's predecessor key since the last :meth:`reset` (``tail << 32 | name`` of its
        tight arc), -1 for none.
    dirty : numpy.ndarray of bool, shape (n_nodes,)
        The nodes whose arcs are to be relaxed (every node at first).
    lowered : numpy.ndarray of bool, shape (n_nodes + 1,)
        All False between relaxations: the heads a relaxation has lowered so far, while it
        runs (:func:`_relax_blocks`).
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
        self.pred = np.full(n, -1, dtype=np.int64)
        self.dirty = np.ones(n, dtype=bool)
        self.lowered = np.zeros(n + 1, dtype=bool)
        self.record = True

    def labels(self) -> np.ndarray:
        """A copy of the labels, int64, shape (n,)."""
        return self.dist[:-1].astype(np.int64)

    def fell_to(self, low: int) -> None:
        """Labels fell to ``low``: past ``-LABEL_LIMIT``, they go on in 64 bits."""
        if low < -LABEL_LIMIT and self.dist.dtype != np.int64:
            self.dist = self.dist.astype(np.int64)
            self.dist[-1] = np.iinfo(np.int64).min


def sweep(
    res: Residual, lab: Labels, ranges: list[tuple[int, int]], deadline: float | None
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
        arcs = res.of_range(lo, hi)
        for _ in range(CHAIN_STEPS if arcs.indptr is not None else 1):
            if not relax(arcs, lab):
                break
            fell = True
    return fell


def _picked(arcs: ClassArcs, dirty: np.ndarray, count: int) -> np.ndarray | None:
    """The positions of the arcs leaving the ``count`` dirty nodes of a class sorted by key
    (``indptr`` set), or None for all of them (most of the class's nodes dirty)."""
    lo, hi = arcs.lo, arcs.hi
    if count >= DENSE_SHARE * (hi - lo):
        return None
    assert arcs.indptr is not None
    tails = np.flatnonzero(dirty[lo:hi])
    start = arcs.indptr.take(tails)
    cnt = arcs.indptr.take(tails + 1) - start
    idx = np.repeat(start - np.cumsum(cnt) + cnt, cnt)
    idx += np.arange(idx.shape[0])
    return idx


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
    A class not sorted by key (every class but the private chains') is read
    :data:`RELAX_BLOCK` arcs at a time (:func:`_relax_blocks`); the chains' class, whose
    arcs may lead to nodes of the class itself, at once (:func:`_relax_at_once`).
    """
    part = lab.dirty[arcs.lo : arcs.hi]
    count = int(np.count_nonzero(part))
    if not count:
        return False
    if arcs.indptr is None:
        return _relax_blocks(arcs, lab, count >= DENSE_SHARE * (arcs.hi - arcs.lo))
    idx = _picked(arcs, lab.dirty, count)
    part[:] = False
    return _relax_at_once(arcs, lab, idx)


#: Arcs of a class read at a time by :func:`_relax_blocks`: its temporaries (candidates, heads,
#: the 64-bit copies of the 32-bit ids that a gather makes, a few MB) stay in memory the
#: allocator keeps, where whole-class temporaries were fresh memory each time (on 977,555
#: 31-mers of C. elegans, a class of 40 million arcs: 0.3 GB each, the kernel zeroing them page
#: by page).
RELAX_BLOCK = 1 << 20


def _relax_blocks(arcs: ClassArcs, lab: Labels, dense: bool) -> bool:
    """:func:`relax` on a class none of whose arcs leads into the class (every class but the
    private chains'), :data:`RELAX_BLOCK` arcs at a time: the arcs of the dirty tails
    (``dense``: every arc), each block's better candidates lowered at once.

    The tails' labels do not change while the class is relaxed (no head lies in the class), so
    the labels are those of one pass over the whole class. A head lowered by an earlier block
    and met again at its new label is kept as a candidate (``lab.lowered``), so that the tight
    arcs, and the predecessors (the largest key among them), are those of one pass too.
    """
    dist, dirty, lowered, record = lab.dist, lab.dirty, lab.lowered, lab.record
    heads_l: list[np.ndarray] = []
    cands_l: list[np.ndarray] = []
    where_l: list[np.ndarray] = []
    fell = marked = False
    low = 0
    size = arcs.keys.shape[0]
    for a in range(0, size, RELAX_BLOCK):
        b = a + RELAX_BLOCK
        tails = arcs.tails[a:b]
        if dense:
            pick = None
            heads = arcs.heads[a:b]
            cand = dist.take(tails)
            cand += arcs.costs[a:b]
        else:
            pick = np.flatnonzero(dirty.take(tails))
            if not pick.size:
                continue
            heads = arcs.heads[a:b].take(pick)
            cand = dist.take(tails.take(pick))
            cand += arcs.costs[a:b].take(pick)
        now = dist.take(heads)
        if record and fell:  # a head lowered by an earlier block may be met at its new label
            better = np.flatnonzero((cand < now) | ((cand == now) & lowered.take(heads)))
        else:
            better = np.flatnonzero(cand < now)
        if not better.size:
            continue
        c = cand.take(better)
        h = heads.take(better).astype(np.intp)
        np.minimum.at(dist, h, c)
        low = min(low, int(c.min())) if fell else int(c.min())
        fell = True
        if record:
            if b < size:  # later blocks may meet these heads at their new labels
                lowered[h] = True
                marked = True
            heads_l.append(h)
            cands_l.append(c)
            where_l.append(a + (better if pick is None else pick.take(better)))
        else:  # every head of a better candidate fell
            dirty[h] = True
    lab.dirty[arcs.lo : arcs.hi] = False
    if not fell:
        return False
    if record:
        _record_tight(arcs, lab, list(zip(heads_l, cands_l, where_l, strict=True)), marked)
    lab.fell_to(low)
    return True


def _record_tight(
    arcs: ClassArcs, lab: Labels, parts: list[tuple[np.ndarray, ...]], marked: bool
) -> None:
    """Record the predecessors of the heads :func:`_relax_blocks` lowered: ``parts`` holds each
    block's lowered heads, candidates and arc positions. A block at a time, never the whole
    class's candidates concatenated (on 977,555 31-mers of C. elegans, the concatenations were
    the greedy proof's peak, about 1 GB): first each lowered head's old key overwritten by one
    of its tight arcs, then the largest tight key kept, as in one pass."""
    dist, pred = lab.dist, lab.pred
    if marked:
        for h, _, _ in parts:
            lab.lowered[h] = False
    for step in (0, 1):
        for h, c, where in parts:
            tight = c == dist.take(h)
            th = h.compress(tight)  # every lowered head is the head of a tight arc
            key = arcs.keys.take(where.compress(tight))
            if step == 0:
                pred[th] = key  # a lowered head's old key overwritten
                lab.dirty[th] = True
            else:
                np.maximum.at(pred, th, key)


def _relax_at_once(arcs: ClassArcs, lab: Labels, idx: np.ndarray | None) -> bool:
    """:func:`relax` on the arcs ``idx`` of a class (None: all of them), every candidate from
    the labels before any is lowered."""
    dist = lab.dist
    if idx is None:
        heads = arcs.heads
        cand = dist.take(arcs.tails)
        cand += arcs.costs
    else:
        heads = arcs.heads.take(idx)
        cand = dist.take(arcs.tails.take(idx))
        cand += arcs.costs.take(idx)
    better = np.flatnonzero(cand < dist.take(heads))
    if not better.size:
        return False
    # Each array is let go once done with: the first sweep lowers almost every head a class
    # reaches, and these arrays held 45 bytes a lowered head at once (25 now), besides the
    # candidates' 4 an arc (64 -> 33 MB at the German list's greedy proof's peak).
    c = cand.take(better)
    del cand
    h = heads.take(better).astype(np.intp)
    del heads
    np.minimum.at(dist, h, c)
    if not lab.record:  # every head of a better candidate fell
        lab.dirty[h] = True
        lab.fell_to(int(c.min()))
        return True
    tight = c == dist.take(h)
    low = int(c.min())
    del c
    th = h.compress(tight)  # every lowered head is the head of a tight arc
    del h
    pos = better.compress(tight)
    del better, tight
    key = arcs.keys.take(pos if idx is None else idx.take(pos))
    del pos, idx
    lab.pred[th] = key  # a lowered head's old key overwritten
    np.maximum.at(lab.pred, th, key)
    lab.dirty[th] = True
    lab.fell_to(low)
    return True


def pred_cycles(pred: np.ndarray) -> list[list[int]]:
    """The predecessor keys of every cycle of the predecessor graph (node-disjoint).

    Parameters
    ----------
    pred : numpy.ndarray of int64, shape (n,)
        Each node's predecessor key (``tail << 32 | name``, as :class:`Labels` keeps them), -1
        for none.

    Returns
    -------
    list of list of int
        The keys of each cycle's arcs (none when every chain of predecessors ends).

    Notes
    -----
    The predecessor graph is functional (one arc into each labelled node), so its cycles are
    what is left when the nodes that cannot lie on one are peeled off, pass after pass: those
    no node still searched comes from (leaves) and those whose predecessor has left the search
    (chains that end). Once at most :data:`WALK_NODES` are left (or only cycles), they are
    walked, each node once. Each pass works on the nodes left only, and most are leaves (the
    German list: 14-33 ms a search of a million labelled nodes, against 48-99 ms by pointer
    doubling over all of them). When a pass peels little (long chains, as the private chains
    of a list of ``a``/``b`` words or of long words make), pointer doubling over the nodes
    left finds the nodes on cycles at once (:func:`_on_cycles`): 1,000 words of 1,000 letters
    had a peeling pass a link of their chains, 5.0 s of greedy proof instead of 0.8 s.
    """
    n = pred.shape[0]
    inside = pred >= 0  # the nodes still searched
    act, to = _searched(pred, inside)
    mark = np.zeros(n, dtype=bool)
    while act.shape[0] > WALK_NODES:
        blocks = range(0, act.shape[0], PEEL_BLOCK)
        for a in blocks:
            mark[to[a : a + PEEL_BLOCK]] = True  # the nodes some searched node comes from
        keep = np.empty(act.shape[0], dtype=bool)
        for a in blocks:
            b = a + PEEL_BLOCK
            np.logical_and(mark.take(act[a:b]), inside.take(to[a:b]), out=keep[a:b])
        for a in blocks:
            mark[to[a : a + PEEL_BLOCK]] = False
        if keep.all():
            break  # only cycles are left
        for a in blocks:
            b = a + PEEL_BLOCK
            inside[act[a:b].compress(~keep[a:b])] = False
        searched = act.shape[0]
        act, to = act.compress(keep), to.compress(keep)
        if 4 * (searched - act.shape[0]) < searched:
            # A pass peels little (long chains, a pass a link): pointer doubling finds the
            # nodes on cycles at once, and only those are walked.
            return _walk_cycles(pred, _on_cycles(act, to, n).tolist(), inside)
    return _walk_cycles(pred, act.tolist(), inside)


#: Nodes handled at a time by :func:`pred_cycles` (its gathers' and scatters' 64-bit copies of
#: the 32-bit ids stay small: on 977,555 31-mers of C. elegans, 27 million nodes, most with a
#: predecessor, whole-array passes were fresh memory of 0.2 GB each).
PEEL_BLOCK = 1 << 22


def _searched(pred: np.ndarray, inside: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The nodes with a predecessor (ascending) and each one's predecessor node,
    :data:`PEEL_BLOCK` nodes at a time; in 32 bits on more nodes than a block (and fewer than
    ``2**31``): on fewer, the 64-bit ids a gather needs are cheaper kept than made again."""
    n = pred.shape[0]
    ids = np.int32 if PEEL_BLOCK < n < 1 << 31 else np.int64
    if n <= PEEL_BLOCK:
        act1 = np.flatnonzero(inside)
        to1 = pred.take(act1)
        to1 >>= 32
        return act1, to1
    # Written in place into arrays of the final size (blocks kept and concatenated were held
    # twice: the greedy proof's peak on 977,555 31-mers of C. elegans).
    total = int(np.count_nonzero(inside))
    act = np.empty(total, dtype=ids)
    to = np.empty(total, dtype=ids)
    done = 0
    for a in range(0, n, PEEL_BLOCK):
        at = np.flatnonzero(inside[a : a + PEEL_BLOCK])
        keys = pred[a : a + PEEL_BLOCK].take(at)
        keys >>= 32
        at += a
        act[done : done + at.shape[0]] = at
        to[done : done + at.shape[0]] = keys
        done += at.shape[0]
    return act, to


def _on_cycles(act: np.ndarray, to: np.ndarray, n: int) -> np.ndarray:
    """The nodes of ``act`` (``to``: each one's predecessor) that lie on cycles, ascending.

    Pointer doubling over those nodes, renumbered (a chain that leaves them lands on the last
    id): after ``2**s >= len(act)`` steps each node whose chain does not end has landed on a
    cycle, and every node of a cycle is landed on (the predecessors map a cycle onto itself).
    ``log2(len(act))`` array passes, however long the chains; none more once every chain has
    ended (no cycle).
    """
    k = act.shape[0]
    small = item_type(k)  # the ids 0..k
    ids = np.full(n, k, dtype=small)
    ids[act] = np.arange(k, dtype=small)
    land = np.empty(k + 1, dtype=small)
    land[:k] = ids.take(to)
    land[k] = k
    for _ in range(max(1, k.bit_length())):
        land = land.take(land)
        if (land[:k] == k).all():
            return act[:0]
    on = np.unique(land[:k])
    return act[on[on < k]]


def _walk_cycles(pred: np.ndarray, starts: list[int], inside: np.ndarray) -> list[list[int]]:
    """The cycles reached by following the predecessors from ``starts`` through the nodes
    ``inside`` (where every cycle lies): each node walked once, a cycle recorded when a walk
    comes back to a node of its own."""
    cycles: list[list[int]] = []
    walk_of: dict[int, int] = {}
    for walk, v in enumerate(starts):
        while v not in walk_of:
            if not inside[v]:
                break
            walk_of[v] = walk
            v = int(pred[v]) >> 32
        else:
            if walk_of[v] == walk:  # back on this walk's path: a cycle
                cyc: list[int] = []
                u = v
                while True:
                    key = int(pred[u])
                    cyc.append(key)
                    u = key >> 32
                    if u == v:
                        break
                cycles.append(cyc)
    return cycles


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
