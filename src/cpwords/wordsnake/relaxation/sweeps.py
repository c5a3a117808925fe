"""Bellman-Ford on a flow's residual network in sweeps along the string-hub network's node
classes, and the negative cycles of the predecessor graph (for
:class:`~cpwords.wordsnake.relaxation.assignment.Reoptimizer`).
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from cpwords.wordsnake.relaxation.string_hub import DeadlineReached, StringHubNetwork


class Residual(NamedTuple):
    """A flow's residual network, its arcs sorted by tail: their ``tails``, ``heads`` and
    ``costs``, the network's ``arc`` each one stands for and whether ``forward`` (else its
    reverse), and where each node's arcs start (``indptr``, CSR)."""

    tails: np.ndarray
    heads: np.ndarray
    costs: np.ndarray
    arc: np.ndarray
    forward: np.ndarray
    indptr: np.ndarray


#: Most relaxations of the private chains in a row within one sweep (a chain of ``k`` nodes
#: needs ``k``; what is left waits for the next sweep).
CHAIN_STEPS = 64


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


def sweep(
    res: Residual,
    dist: np.ndarray,
    pred: np.ndarray,
    dirty: np.ndarray,
    ranges: list[tuple[int, int]],
    deadline: float | None,
) -> bool:
    """One sweep: the arcs leaving the ``dirty`` nodes of each range in turn, the labels
    lowered at once (Gauss-Seidel).

    Parameters
    ----------
    res : Residual
    dist : numpy.ndarray of int64, shape (num_nodes,)
        The labels, lowered in place.
    pred : numpy.ndarray of int64, shape (num_nodes,)
        Each node's last tight residual arc (an index into ``res``), updated in place.
    dirty : numpy.ndarray of bool, shape (num_nodes,)
        The nodes whose arcs are to be relaxed, updated in place.
    ranges : list of (int, int)
        :func:`sweep_ranges`.
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
    chains = ranges[2]
    for lo, hi in ranges:
        if deadline is not None and time.perf_counter() >= deadline:
            raise DeadlineReached
        for _ in range(CHAIN_STEPS if (lo, hi) == chains else 1):
            if not relax_range(res, dist, pred, dirty, lo, hi):
                break
            fell = True
    return fell


def relax_range(
    res: Residual, dist: np.ndarray, pred: np.ndarray, dirty: np.ndarray, lo: int, hi: int
) -> bool:
    """Relax the residual arcs leaving the dirty nodes ``lo <= v < hi`` (their marks cleared):
    lower the heads' labels (``dist``) to the best candidate, record each lowered head's
    tight arc in ``pred`` and mark it dirty.

    Parameters
    ----------
    res, dist, pred, dirty
        As for :func:`sweep`.
    lo, hi : int
        The node range.

    Returns
    -------
    bool
        Whether a label fell.
    """
    part = dirty[lo:hi]
    tails = np.flatnonzero(part)
    if not tails.size:
        return False
    part[tails] = False
    indptr = res.indptr
    idx: np.ndarray | None = None
    if tails.size == hi - lo:  # the whole range: its arcs are one slice
        first, stop = int(indptr[lo]), int(indptr[hi])
        heads = res.heads[first:stop]
        cand = np.repeat(dist[lo:hi], np.diff(indptr[lo : hi + 1])) + res.costs[first:stop]
    else:
        tails += lo
        start = indptr[tails]
        cnt = indptr[tails + 1] - start
        total = int(cnt.sum())
        idx = np.repeat(start - np.cumsum(cnt, dtype=np.int32) + cnt, cnt)
        idx += np.arange(total, dtype=np.int32)
        heads = res.heads[idx]
        cand = np.repeat(dist[tails], cnt) + res.costs[idx]
    better = np.flatnonzero(cand < dist[heads])
    if not better.size:
        return False
    h, c = heads[better], cand[better]
    np.minimum.at(dist, h, c)
    tight = better[c == dist[h]]
    pred[heads[tight]] = tight + first if idx is None else idx[tight]
    dirty[h] = True
    return True


def pred_cycles(pred: np.ndarray, tails: np.ndarray) -> list[list[int]]:
    """Residual arcs of every cycle of the predecessor graph (node-disjoint).

    Parameters
    ----------
    pred : numpy.ndarray of int, shape (num_nodes,)
        Each node's predecessor arc (an index into ``tails``), -1 for none.
    tails : numpy.ndarray of int, shape (arcs,)
        Each residual arc's tail.

    Returns
    -------
    list of list of int
        The arcs of each cycle (none when every chain of predecessors ends).

    Notes
    -----
    The predecessor graph is functional (one arc into each labelled node), so pointer doubling
    takes every node onto the cycle its chain ends in, in O(n log n) vectorised steps; it
    stops as soon as every chain has ended at an unlabelled node.
    """
    n = pred.shape[0]
    has = pred >= 0
    step = np.arange(n, dtype=np.int32)  # fewer than 2**31 nodes
    step[has] = tails[pred[has]]
    land = step.copy()
    for _ in range(max(1, int(n).bit_length())):
        land = land[land]
        if not has[land].any():  # every chain ends at an unlabelled node: no cycle
            return []
    heads = np.unique(land[has])
    cycles: list[list[int]] = []
    done: set[int] = set()
    for v0 in heads.tolist():
        if v0 in done or pred[v0] < 0:
            continue
        cyc: list[int] = []
        v = v0
        while True:
            done.add(v)
            a = int(pred[v])
            cyc.append(a)
            v = int(tails[a])
            if v == v0:
                cycles.append(cyc)
                break
            if v in done or pred[v] < 0:  # pragma: no cover - landing nodes lie on cycles
                break
    return cycles


def patch_residual(
    res: Residual,
    arcs: np.ndarray,
    tail: np.ndarray,
    head: np.ndarray,
    cost: np.ndarray,
    old: np.ndarray,
    new: np.ndarray,
    cap: np.ndarray,
) -> Residual:
    """The residual network after the flow on a few arcs changed, made from the one before
    (the same arrays, in the same order, as building it anew).

    Parameters
    ----------
    res : Residual
        The residual network of the old flow, each tail's arcs the forward ones by arc id,
        then the reverse ones by arc id.
    arcs : numpy.ndarray of int, shape (k,)
        The distinct network arcs whose flow changed.
    tail, head, cost : numpy.ndarray of int, shape (k,)
        Their tails, heads and costs.
    old, new, cap : numpy.ndarray of int, shape (k,)
        Their flows before and after, and capacities.

    Returns
    -------
    Residual
        The residual network of the new flow.

    Notes
    -----
    Cancelling a cycle changes only its arcs' residual arcs, so a few entries are deleted and
    inserted (copies of the arrays) instead of sorting every residual arc by tail again (0.45 s
    a time on Debian's German list).
    """
    m_key = int(res.arc.max(initial=0)) + int(arcs.max(initial=0)) + 1
    gone: list[int] = []
    # (pos, tail, key, head, cost, fwd): sorted so, what goes at the end of one tail's arcs comes
    # before what goes at the start of the next one's
    added: list[tuple[int, int, int, int, int, bool]] = []
    for fwd, was, now, t, h, c in (
        (True, old < cap, new < cap, tail, head, cost),
        (False, old > 0, new > 0, head, tail, -cost),
    ):
        for i in np.flatnonzero(was != now).tolist():
            v, a = int(t[i]), int(arcs[i])
            lo, hi = int(res.indptr[v]), int(res.indptr[v + 1])
            keys = np.where(res.forward[lo:hi], 0, m_key) + res.arc[lo:hi].astype(np.int64)
            key = (0 if fwd else m_key) + a
            pos = lo + int(np.searchsorted(keys, key))
            if was[i]:
                gone.append(pos)
            else:
                added.append((pos, v, key, int(h[i]), int(c[i]), fwd))
    n = res.indptr.shape[0] - 1
    keep = np.ones(res.tails.shape[0], dtype=bool)
    keep[gone] = False
    added.sort()
    removed = np.sort(np.array(gone, dtype=np.int64))
    at = np.array([p for p, *_ in added], dtype=np.int64)
    at -= np.searchsorted(removed, at)  # positions once the gone entries are deleted

    def patched(col: np.ndarray, values: list[int] | list[bool]) -> np.ndarray:
        return np.insert(col[keep], at, np.array(values, dtype=col.dtype))

    delta = np.bincount(np.array([x[1] for x in added], dtype=np.int64), minlength=n)
    delta -= np.bincount(res.tails[removed], minlength=n)
    indptr = res.indptr.copy()
    indptr[1:] += np.cumsum(delta).astype(indptr.dtype)
    return Residual(
        patched(res.tails, [x[1] for x in added]),
        patched(res.heads, [x[3] for x in added]),
        patched(res.costs, [x[4] for x in added]),
        patched(res.arc, [x[2] % m_key for x in added]),
        patched(res.forward, [x[5] for x in added]),
        indptr,
    )
