"""The cycles of a Bellman-Ford run's predecessor graph (each a negative cycle of the residual
network: :class:`~cpwords.wordsnake.relaxation.assignment.Reoptimizer` cancels them), found by
peeling the nodes that cannot lie on one.

Each node's predecessor is named by the tail of its arc
(:class:`~cpwords.wordsnake.relaxation.sweeps.Labels`).
"""

from __future__ import annotations

import numpy as np

from cpwords.wordsnake.relaxation.int_types import id_type
from cpwords.wordsnake.relaxation.sorting import distinct

#: The search for cycles of predecessors peels the nodes that cannot lie on one until at most
#: this many are left, then walks them.
WALK_NODES = 4096


def pred_cycles(pred: np.ndarray) -> list[list[int]]:
    """The nodes of every cycle of the predecessor graph (node-disjoint), each walked along
    the predecessors.

    Parameters
    ----------
    pred : numpy.ndarray of int32 or int64, shape (n,)
        Each node's predecessor (the tail of its arc, as
        :class:`~cpwords.wordsnake.relaxation.sweeps.Labels` keeps them), -1 for none.

    Returns
    -------
    list of list of int
        Each cycle's predecessors in turn: ``[pred[v], pred[pred[v]], ...]`` from one of its
        nodes ``v`` back to ``v`` (the tails of its arcs; arc ``i``'s head is entry ``i - 1``,
        the first's the last entry); none when every chain of predecessors ends.

    Notes
    -----
    The predecessor graph is functional (one arc into each labelled node), so its cycles are
    what is left when the nodes that cannot lie on one are peeled off, pass after pass: those
    no node still searched comes from (leaves) and those whose predecessor has left the search
    (chains that end). Once at most :data:`WALK_NODES` are left (or only cycles), they are
    walked, each node once. Each pass works on the nodes left only, and most are leaves (the
    German list: 14-33 ms a search of a million labelled nodes, against 48-99 ms by pointer
    doubling over all of them). When a pass peels little (chains), the nodes left are
    peeled a level at a time, each level found from the one before (:func:`_peel_levels`),
    and when a level is a small part of them (long chains, as the private chains of a list of
    ``a``/``b`` words or of long words make), pointer doubling over the nodes left finds the
    nodes on cycles at once (:func:`_on_cycles`): 1,000 words of 1,000 letters had a peeling
    pass a link of their chains, 5.0 s of greedy proof instead of 0.8 s.
    """
    n = pred.shape[0]
    # The first pass reads the nodes searched off ``pred`` (a mask less at its peak).
    first = _first_pass(pred) if n > PEEL_BLOCK else None
    if first is None:
        inside = pred >= 0  # the nodes still searched
        act, to = _searched(pred, inside)
    else:  # the loop's first pass, done: the same nodes left, the same choice after it
        inside, act, to, searched = first
        del first  # its arrays are the ones named: none held twice below
        if 4 * (searched - act.shape[0]) < searched:
            return _walk_cycles(pred, _peel_levels(act, to).tolist(), inside)
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
            # A pass peels little (chains, a pass a link): the nodes left are peeled a level
            # at a time, each pass over the level only, and the nodes on cycles walked.
            del mark, keep  # not held through the levels
            return _walk_cycles(pred, _peel_levels(act, to).tolist(), inside)
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
        return act1, pred.take(act1)
    # Written in place into arrays of the final size (blocks kept and concatenated were held
    # twice: the greedy proof's peak on 977,555 31-mers of C. elegans).
    total = int(np.count_nonzero(inside))
    act = np.empty(total, dtype=ids)
    to = np.empty(total, dtype=ids)
    done = 0
    for a in range(0, n, PEEL_BLOCK):
        at = np.flatnonzero(inside[a : a + PEEL_BLOCK])
        came = pred[a : a + PEEL_BLOCK].take(at)
        at += a
        act[done : done + at.shape[0]] = at
        to[done : done + at.shape[0]] = came
        done += at.shape[0]
    return act, to


def _first_pass(pred: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int] | None:
    """The first peeling pass of :func:`pred_cycles` read straight off ``pred`` (the nodes
    searched are those with a predecessor), a block at a time: the nodes still searched after
    it (a new mask), those nodes ascending and each one's predecessor node (32-bit ids), and
    how many were searched. None when the pass would not run (at most :data:`WALK_NODES`
    searched) or would peel nothing (only cycles).

    The pass keeps a searched node when some searched node comes from it and its own
    predecessor is searched. Most nodes are peeled by it (977,555 31-mers of C. elegans: 5-6
    of 27 million left), so only those left are gathered: every searched node's id and
    predecessor, with their copies as the pass compressed them, were 0.5 GB of the greedy
    proof's peak there, and a mask of the nodes searched beside the pass's two 25 MB more."""
    n = pred.shape[0]
    searched = sum(
        int(np.count_nonzero(pred[a : a + PEEL_BLOCK] >= 0)) for a in range(0, n, PEEL_BLOCK)
    )
    if searched <= WALK_NODES:
        return None
    ids = np.int32 if n < 1 << 31 else np.int64
    mark = np.zeros(n, dtype=bool)
    for a in range(0, n, PEEL_BLOCK):
        came = pred[a : a + PEEL_BLOCK]
        mark[came.compress(came >= 0)] = True  # the nodes some searched node comes from
    # The nodes left written over the marks, a block once read (a block's marks are read for
    # its own nodes only), a smaller block at a time: the pass's peak is the greedy proof's.
    left = mark
    acts: list[np.ndarray] = []
    tos: list[np.ndarray] = []
    for a in range(0, n, FIRST_BLOCK):
        at = np.flatnonzero(pred[a : a + FIRST_BLOCK] >= 0)
        came = pred[a : a + FIRST_BLOCK].take(at)
        at += a
        keep = mark.take(at) & (pred.take(came) >= 0)
        at, came = at.compress(keep), came.compress(keep)
        left[a : a + FIRST_BLOCK] = False
        left[at] = True
        acts.append(at.astype(ids))
        tos.append(came.astype(ids))
    del mark
    act = np.concatenate(acts)
    del acts
    if act.shape[0] == searched:
        return None  # only cycles: the loop's pass tells it (and walks them all)
    return left, act, np.concatenate(tos), searched


#: Nodes handled at a time by the first pass (:func:`_first_pass`).
FIRST_BLOCK = 1 << 20


#: :func:`_peel_levels` goes on to pointer doubling once a level is less than this share of the
#: nodes left.
LEVEL_SHARE = 1 / 256


def _peel_levels(act: np.ndarray, to: np.ndarray) -> np.ndarray:
    """The nodes of ``act`` (ascending; ``to``: each one's predecessor) that lie on cycles,
    ascending.

    The nodes, renumbered, are peeled a level at a time (Kahn's order): those no node left
    comes from, then those whose last child was just peeled (a gather and a scatter over the
    level's nodes only, where a pass over every node left took the same chains a link at a
    time); the nodes never peeled lie on cycles. Once a level is less than
    :data:`LEVEL_SHARE` of the nodes left, pointer doubling over them
    (:func:`_on_cycles`). On 977,555 31-mers of C. elegans, the 5-6 million nodes left after
    the first pass peel in about 50 levels: 0.4 -> 0.1 s a search.
    """
    k = act.shape[0]
    land = renumbered(act, to)  # each node's predecessor, renumbered (k: not left)
    children = np.bincount(land, minlength=k + 1)
    children[k] = k + 1  # never peeled (fewer decrements)
    level = np.flatnonzero(children[:k] == 0)
    left = k
    while level.shape[0]:
        left -= level.shape[0]
        if level.shape[0] < LEVEL_SHARE * left:
            rest = np.flatnonzero(children[:k])
            return _on_cycles(act.take(rest), to.take(rest))
        up = land.take(level)
        np.subtract.at(children, up, 1)
        up = up.compress(children.take(up) == 0)
        level = distinct(up)  # two children of a node may be peeled in one level
    return act.compress(children[:k] > 0)


def _on_cycles(act: np.ndarray, to: np.ndarray) -> np.ndarray:
    """The nodes of ``act`` (``to``: each one's predecessor) that lie on cycles, ascending.

    Pointer doubling over those nodes, renumbered (a chain that leaves them lands on the last
    id): after ``2**s >= len(act)`` steps each node whose chain does not end has landed on a
    cycle, and every node of a cycle is landed on (the predecessors map a cycle onto itself).
    ``log2(len(act))`` array passes, however long the chains; none more once every chain has
    ended (no cycle).
    """
    k = act.shape[0]
    land = np.empty(k + 1, dtype=id_type(k))
    land[:k] = renumbered(act, to)
    land[k] = k
    for _ in range(max(1, k.bit_length())):
        land = land.take(land)
        if (land[:k] == k).all():
            return act[:0]
    on = distinct(land[:k])
    return act[on[on < k]]


def renumbered(act: np.ndarray, to: np.ndarray) -> np.ndarray:
    """Each node of ``to`` as its place in ``act``, or ``len(act)`` where it is not there.

    Parameters
    ----------
    act : numpy.ndarray of int, shape (k,)
        Distinct node ids, ascending.
    to : numpy.ndarray of int, shape (j,)
        Node ids.

    Returns
    -------
    numpy.ndarray of int32 (int64 from ``2**31`` places), shape (j,)

    Notes
    -----
    A binary search of :data:`PEEL_BLOCK` nodes at a time, not an array of an id per node:
    on 977,555 31-mers of C. elegans, 26 million nodes of which 6 million are left, that
    array was 0.1 GB of fresh memory at each search for cycles, the sweeps' peak, and took
    no less time.

    Examples
    --------
    >>> renumbered(np.array([2, 5, 9]), np.array([9, 3, 2, 10])).tolist()
    [2, 3, 0, 3]
    """
    k = act.shape[0]
    out = np.empty(to.shape[0], dtype=id_type(k))
    if not k:
        out.fill(0)
        return out
    for a in range(0, to.shape[0], PEEL_BLOCK):
        part = to[a : a + PEEL_BLOCK]
        at = np.searchsorted(act, part)
        np.minimum(at, k - 1, out=at)
        at[act.take(at) != part] = k
        out[a : a + PEEL_BLOCK] = at
    return out


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
            v = int(pred[v])
        else:
            if walk_of[v] == walk:  # back on this walk's path: a cycle
                cyc: list[int] = []
                u = v
                while True:
                    u = int(pred[u])
                    cyc.append(u)
                    if u == v:
                        break
                cycles.append(cyc)
    return cycles
