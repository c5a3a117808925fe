"""A residual network of :mod:`~cpwords.wordsnake.relaxation.sweeps` updated in place after a
cancellation changed the flow on a few arcs (rebuilding it took 0.45 s a time on Debian's
German list): residual arcs that leave it get the dead head, those that enter it are appended
to their tail's class, in room kept in the class's buffers.
"""

from __future__ import annotations

import bisect
import itertools

import numpy as np

from cpwords.wordsnake.relaxation.sweeps import REVERSE, TAIL_HALF, ClassArcs, Residual


def update_residual(
    res: Residual,
    arcs: np.ndarray,
    tail: np.ndarray,
    head: np.ndarray,
    cost: np.ndarray,
    old: np.ndarray,
    new: np.ndarray,
    cap: np.ndarray,
) -> None:
    """Update the residual network in place after the flow on a few arcs changed.

    Parameters
    ----------
    res : Residual
    arcs : numpy.ndarray of int, shape (k,)
        The distinct network arcs whose flow changed.
    tail, head, cost : numpy.ndarray of int, shape (k,)
        Their tails, heads and costs.
    old, new, cap : numpy.ndarray of int, shape (k,)
        Their flows before and after, and capacities.

    Notes
    -----
    A residual arc that leaves the network gets the dead head (it lowers no label); one that
    enters it is appended to its class (a copy of that class's arrays; the chains' sorted
    again). Cancelling a cycle changes only its arcs', so the rest is not rebuilt (sorting
    every residual arc by tail again took 0.45 s a time on Debian's German list).
    """
    arcs = np.asarray(arcs, dtype=np.int64)
    for reverse, was, now, t, h, c in (
        (0, old < cap, new < cap, tail, head, cost),
        (1, old > 0, new > 0, head, tail, -cost),
    ):
        keys = t.astype(np.int64) << 32
        keys |= arcs | (REVERSE if reverse else 0)
        for i in np.flatnonzero(was & ~now).tolist():
            arcs_c = res.classes[class_of(res, int(t[i]))]
            arcs_c.heads[live_position(arcs_c, int(keys[i]), int(h[i]), res.n)] = res.n
        add = np.flatnonzero(~was & now)
        if add.size:
            _append(res, t[add], h[add], c[add], keys[add])


def class_of(res: Residual, node: int) -> int:
    """The index in ``res.classes`` of the class of ``node``."""
    return int(np.searchsorted(res.bounds, node, side="right")) - 1


def live_position(arcs: ClassArcs, key: int, head: int, dead: int) -> int:
    """The position of a live residual arc in its class (not a dead copy of it).

    Parameters
    ----------
    arcs : ClassArcs
        The class of the arc's tail.
    key : int
        The arc's key (``tail << 32 | name``).
    head : int
        Its head.
    dead : int
        The dead head (the number of nodes).

    Returns
    -------
    int

    Raises
    ------
    KeyError
        No live arc of that key.
    """
    if arcs.indptr is not None:  # sorted by key
        lo = int(np.searchsorted(arcs.keys, key, side="left"))
        found = np.arange(lo, int(np.searchsorted(arcs.keys, key, side="right")))
    else:  # the names of the first ``ordered`` arcs ascend (as built) within each bucket of
        # heads, then come the appended ones
        names = arcs.keys.view(np.uint32)[1 - TAIL_HALF :: 2]
        lo, hi = 0, arcs.ordered
        if arcs.starts is not None:
            bucket = head >> arcs.shift
            lo, hi = int(arcs.starts[bucket]), int(arcs.starts[bucket + 1])
        at = bisect.bisect_left(names, key & 0xFFFFFFFF, lo, hi)
        late = arcs.ordered + np.flatnonzero(arcs.keys[arcs.ordered :] == key)
        found = np.concatenate([[at] if at < hi and arcs.keys[at] == key else [], late])
    for pos in found.astype(np.int64).tolist():
        if arcs.heads[pos] != dead:
            return pos
    raise KeyError(key)  # pragma: no cover - only arcs of the residual network are removed


def cycle_arcs(res: Residual, cycle: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The residual arcs of a cycle of predecessors, looked up in the residual network.

    Parameters
    ----------
    res : Residual
    cycle : list of int
        The cycle's predecessors in turn, as
        :func:`~cpwords.wordsnake.relaxation.pred_cycles.pred_cycles` gives them: arc ``i``
        goes from ``cycle[i]`` to ``cycle[i - 1]``.

    Returns
    -------
    keys : numpy.ndarray of int64, shape (len(cycle),)
        Each arc's key (``tail << 32 | name``).
    heads : numpy.ndarray of int64, shape (len(cycle),)
        Each arc's head.

    Raises
    ------
    KeyError
        No live residual arc joins two consecutive nodes (not a cycle of the residual network).

    Notes
    -----
    No two live residual arcs join the same ordered pair of nodes, so a tail and a head name
    one: it is searched among the arcs of its head's bucket in its tail's class, and those
    appended since (the private chains' class: among its tail's arcs).
    """
    tails = np.asarray(cycle, dtype=np.int64)
    heads = np.roll(tails, 1)
    keys = np.fromiter(
        map(arc_key, itertools.repeat(res), tails.tolist(), heads.tolist()),
        dtype=np.int64,
        count=tails.shape[0],
    )
    return keys, heads


def arc_key(res: Residual, tail: int, head: int) -> int:
    """The key of the live residual arc from ``tail`` to ``head``.

    Parameters
    ----------
    res : Residual
    tail, head : int
        Node ids (``head`` not the dead head).

    Returns
    -------
    int
        Its key (``tail << 32 | name``).

    Raises
    ------
    KeyError
        No live residual arc joins them.
    """
    arcs = res.classes[class_of(res, tail)]
    if arcs.indptr is not None:  # sorted by key: the tail's arcs
        row = tail - arcs.lo
        spans = [(int(arcs.indptr[row]), int(arcs.indptr[row + 1]))]
    else:  # the head's bucket among the arcs built, then the arcs appended
        lo, hi = 0, arcs.ordered
        if arcs.starts is not None:
            bucket = head >> arcs.shift
            lo, hi = int(arcs.starts[bucket]), int(arcs.starts[bucket + 1])
        spans = [(lo, hi), (arcs.ordered, arcs.keys.shape[0])]
    for lo, hi in spans:
        at = np.flatnonzero((arcs.heads[lo:hi] == head) & (arcs.tails[lo:hi] == tail))
        if at.size:
            return int(arcs.keys[lo + int(at[0])])
    raise KeyError((tail, head))


def _append(res: Residual, t: np.ndarray, h: np.ndarray, c: np.ndarray, keys: np.ndarray) -> None:
    """Append residual arcs (tails, heads, costs, keys) to the classes of their tails (the
    chains' sorted again)."""
    cls = np.searchsorted(res.bounds, t, side="right") - 1
    for k in np.unique(cls).tolist():
        mine = cls == k
        arcs_c = res.classes[k]
        arcs_c.keys = _extended(arcs_c.keys, keys[mine])
        arcs_c.heads = _extended(arcs_c.heads, h[mine])
        arcs_c.costs = _extended(arcs_c.costs, c[mine])
        if arcs_c.indptr is not None:
            arcs_c.sort_by_key()


#: The room a class's arrays get when arcs are appended to them: this share of their size
#: more (a class of 40 million arcs copied whole for each cancellation of a few cycles was 0.6
#: GB of fresh memory a time on 977,555 31-mers of C. elegans; now about once in eight).
SPARE_SHARE = 8


def _extended(a: np.ndarray, more: np.ndarray) -> np.ndarray:
    """``a`` followed by ``more`` (in ``a``'s type): a longer view of ``a``'s own buffer when
    it has the room (an array this function made), else a new buffer with room to spare
    (:data:`SPARE_SHARE`)."""
    n, k = a.shape[0], more.shape[0]
    buf = a.base
    if (
        isinstance(buf, np.ndarray)
        and buf.ndim == 1
        and buf.dtype == a.dtype
        and buf.shape[0] >= n + k
        and a.strides == buf.strides
        and a.ctypes.data == buf.ctypes.data
    ):
        out = buf[: n + k]
    else:
        buf = np.empty(n + k + (n + k) // SPARE_SHARE, dtype=a.dtype)
        buf[:n] = a
        out = buf[: n + k]
    out[n:] = more
    return out
