"""The string-hub network's arc ends let go while a residual network holds them.

A flow's residual network (:func:`~cpwords.wordsnake.relaxation.sweeps.build_residual`) names
every residual arc by its tail, head and network arc: each arc with room is there forward and
each arc with flow backward, so every arc of positive capacity is there at least once. While the
greedy proof's sweeps run, the network's own ``tail`` and ``head`` are then a second copy (8
bytes an arc: 0.55 GB of the 4.3 GB peak on 977,555 31-mers of C. elegans); they are let go
and made again from the residual network when the sweeps end (a scatter of its arcs, a class at
a time). Where the residual network's costs are the plain ones (``-weight``), the network's
``weight`` is let go too (4 bytes an arc more: 0.27 GB on C. elegans) and read off the residual
costs again after; meanwhile the costs of a cycle's arcs are looked up in the residual network
(:func:`residual_costs`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from cpwords.core.errors import ModelError
from cpwords.core.interrupts import current_stop, made_again
from cpwords.core.pages import drop_pages
from cpwords.wordsnake.relaxation.compact_caps import CompactCaps
from cpwords.wordsnake.relaxation.residual_update import class_of, live_position
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork
from cpwords.wordsnake.relaxation.sweeps import REVERSE, TAIL_HALF, ClassArcs, Residual, key_arcs

#: Residual arcs scattered at a time by :func:`ends_from_residual` (its temporaries stay small).
SCATTER_BLOCK = 1 << 20

#: Arcs checked at a time for a positive capacity (:func:`releasable`).
CHECK_BLOCK = 1 << 20


def releasable(net: StringHubNetwork, flows: np.ndarray, cap: np.ndarray | CompactCaps) -> bool:
    """Whether a residual network of ``flows`` names every arc of ``net``: every capacity is
    positive (an arc of capacity 0 has no residual arc) and the network's own (a lifted copy
    of the capacities, as the certificate's, may be freed by no one).

    Parameters
    ----------
    net : StringHubNetwork
    flows, cap : numpy.ndarray of int (``cap`` maybe CompactCaps), shape (m,)
        The flow and the capacities its residual network is built on.

    Returns
    -------
    bool
    """
    m = net.m
    if m == 0 or cap is not net.cap or flows.shape[0] != m:
        return False
    return all(bool((cap[a : a + CHECK_BLOCK] > 0).all()) for a in range(0, m, CHECK_BLOCK))


def spendable(net: StringHubNetwork, weight: bool = False) -> tuple[np.ndarray, ...]:
    """The network's ``tail`` and ``head`` (and ``weight``) that no one else holds: those a
    residual network's build may give back as it reads them, when :func:`released_ends` lets
    them go next (:func:`~cpwords.wordsnake.relaxation.sweeps.build_residual`'s ``spent``).

    Parameters
    ----------
    net : StringHubNetwork
    weight : bool
        Whether ``weight`` is let go too.

    Returns
    -------
    tuple of numpy.ndarray
        Those of the arrays that own their memory and are referred to by the network alone
        (another holder would read zeros where their pages were given back).
    """
    names = ("tail", "head", "weight") if weight else ("tail", "head")
    out = []
    for name in names:
        array = getattr(net, name)
        # The network's attribute, ``array`` and the call's argument: no other holder.
        if array.base is None and sys.getrefcount(array) <= 3:
            out.append(array)
    return tuple(out)


@contextmanager
def spending(spent: tuple[np.ndarray, ...]) -> Iterator[None]:
    """Inside, with ``spent`` arrays: a stopping signal only sets the solve's stop flag
    (:meth:`~cpwords.core.interrupts.StopFlag.held`), so the residual network's build that
    gives their pages back is not cut half way (the network's arcs would be lost: nothing
    could make them again).

    Parameters
    ----------
    spent : tuple of numpy.ndarray
        As :func:`spendable` returns them (none: nothing is held).
    """
    stop = current_stop() if spent else None
    if stop is None:
        yield
        return
    with stop.held():
        yield


@contextmanager
def released_ends(net: StringHubNetwork, res: Residual, weight: bool = False) -> Iterator[None]:
    """Let ``net.tail`` and ``net.head`` go while ``res`` holds them; make them again on leaving.

    Parameters
    ----------
    net : StringHubNetwork
        Its arrays are replaced in place (the network is shared by every stage's state):
        meanwhile ``net.tail`` and ``net.head`` are empty, of their own types.
    res : Residual
        A residual network of a flow on ``net`` within positive capacities (:func:`releasable`),
        kept up to date while the ends are away; its arrays are let go, a class at a time,
        as the ends are made again.
    weight : bool
        Let ``net.weight`` go too, made again from the residual costs: ``res`` holds the plain
        costs (``-net.weight`` on its forward arcs).

    Notes
    -----
    Whoever holds ``net.tail`` or ``net.head`` elsewhere keeps them alive: nothing is saved then,
    and the arrays made again are equal to them. A stop that leaves by
    :class:`~cpwords.core.interrupts.LeftUnmade` leaves them empty (nothing reads them after
    it: 2.5 s saved on 977,555 31-mers of C. elegans).
    """
    m, tail_type, head_type = net.m, net.tail.dtype, net.head.dtype
    weight_type = net.weight.dtype if weight else None
    object.__setattr__(net, "tail", np.zeros(0, dtype=tail_type))
    object.__setattr__(net, "head", np.zeros(0, dtype=head_type))
    if weight_type is not None:
        object.__setattr__(net, "weight", np.zeros(0, dtype=weight_type))

    def remake() -> None:
        tail, head, w = ends_from_residual(res, m, tail_type, head_type, weight_type)
        object.__setattr__(net, "tail", tail)
        object.__setattr__(net, "head", head)
        if w is not None:
            object.__setattr__(net, "weight", w)

    with made_again(remake):
        yield


def ends_from_residual(
    res: Residual,
    m: int,
    tail_type: np.dtype,
    head_type: np.dtype,
    weight_type: np.dtype | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The network's arc ends read off a residual network that names every arc.

    Parameters
    ----------
    res : Residual
        Its classes' arrays are let go as they are read (``res`` is then empty).
    m : int
        Number of network arcs.
    tail_type, head_type : numpy.dtype
        The ends' types.
    weight_type : numpy.dtype, optional
        The weights' type, to read the weights too (the residual costs are the plain ones:
        ``-weight`` forward, ``weight`` backward).

    Returns
    -------
    tail, head : numpy.ndarray, shape (m,)
    weight : numpy.ndarray, shape (m,), or None
        None without ``weight_type``.

    Raises
    ------
    ModelError
        Some arc is named by no live residual arc (a bug: :func:`releasable` held).
    """
    # Uninitialised, their pages touched as the residual's classes go, largest first: the
    # arcs with room (by class, in few stretches of arc ids) written as each class goes, the
    # reverse arcs (a few, all over the arcs) kept aside and written last. Filled at once, the
    # three were 0.78 GB on top of the whole residual network (C. elegans).
    tail, head = np.empty(m, dtype=tail_type), np.empty(m, dtype=head_type)
    weight = None if weight_type is None else np.empty(m, dtype=weight_type)
    seen = np.zeros(m, dtype=bool)
    out = (tail, head, weight)
    backward = []
    for c in sorted(range(len(res.classes)), key=lambda c: -res.classes[c].keys.shape[0]):
        arcs = res.classes[c]
        res.classes[c] = ClassArcs(
            arcs.lo, arcs.hi, _empty(arcs.keys), _empty(arcs.heads), _empty(arcs.costs)
        )
        backward.append(_scatter(arcs, res.n, out, seen))
        del arcs  # its buffers go before the next class's scatter
    for ids, t, h, cost in backward:
        tail[ids], head[ids], seen[ids] = h, t, True
        if weight is not None:
            weight[ids] = cost
    if not all(bool(seen[a : a + SCATTER_BLOCK].all()) for a in range(0, m, SCATTER_BLOCK)):
        raise ModelError("an arc is missing from the residual network")
    return tail, head, weight


def _scatter(
    arcs: ClassArcs,
    dead: int,
    out: tuple[np.ndarray, np.ndarray, np.ndarray | None],
    seen: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Write the ends (and weights, unless None) of the network arcs that a class's live
    forward residual arcs name into ``out``, marking them ``seen``; return its live reverse
    arcs' network arc ids, tails, heads and costs. The class's pages are given back as its
    blocks are read (:func:`~cpwords.core.pages.drop_pages`): the caller lets it go."""
    tail, head, weight = out
    names = arcs.keys.view(np.uint32)[1 - TAIL_HALF :: 2]
    tails = arcs.tails
    back: list[list[np.ndarray]] = [[], [], [], []]
    for a in range(0, arcs.keys.shape[0], SCATTER_BLOCK):
        b = a + SCATTER_BLOCK
        h, t, name = arcs.heads[a:b], tails[a:b], names[a:b]
        live = h != dead  # the dead head: an arc no longer in the residual network
        fwd = live & (name < REVERSE)
        bwd = live & (name >= REVERSE)
        ids = name[fwd].astype(np.int64)
        tail[ids], head[ids], seen[ids] = t[fwd], h[fwd], True
        if weight is not None:
            weight[ids] = -arcs.costs[a:b][fwd]
        for part, values in zip(
            back,
            ((name[bwd] & (REVERSE - 1)).astype(np.int64), t[bwd], h[bwd], arcs.costs[a:b][bwd]),
            strict=True,
        ):
            part.append(values)
        # The class is let go after: the pages of its arcs read so far go back at once.
        for done in (arcs.keys, arcs.heads, arcs.costs):
            drop_pages(done, a - SCATTER_BLOCK, b)
    ids, t, h, cost = (
        np.concatenate(p) if p else np.zeros(0, dtype=d)
        for p, d in zip(
            back, (np.int64, tails.dtype, arcs.heads.dtype, arcs.costs.dtype), strict=True
        )
    )
    return ids, t, h, cost


def _empty(a: np.ndarray) -> np.ndarray:
    """An empty array of ``a``'s type."""
    return np.zeros(0, dtype=a.dtype)


def cycle_ends(keys: np.ndarray, heads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The network ends of residual arcs named by their keys and heads.

    Parameters
    ----------
    keys : numpy.ndarray of int64, shape (k,)
        The residual arcs' keys (``tail << 32 | name``, as
        :func:`~.residual_update.cycle_arcs` gives them for a cycle of predecessors).
    heads : numpy.ndarray of int, shape (k,)
        Their heads.

    Returns
    -------
    tail, head : numpy.ndarray of int64, shape (k,)
        The tail and head of each key's network arc: the residual arc goes forward along the
        network arc or backward.
    """
    tails, _, forward = key_arcs(keys)
    heads = np.asarray(heads, dtype=np.int64)
    return np.where(forward, tails, heads), np.where(forward, heads, tails)


def residual_costs(res: Residual, keys: np.ndarray, heads: np.ndarray) -> np.ndarray:
    """The costs of residual arcs, looked up in the residual network (where the network's
    weights are let go).

    Parameters
    ----------
    res : Residual
        Holding every one of the arcs, live.
    keys : numpy.ndarray of int64, shape (k,)
        The residual arcs' keys (as :func:`cycle_ends`).
    heads : numpy.ndarray of int, shape (k,)
        Their heads.

    Returns
    -------
    numpy.ndarray of int64, shape (k,)
        Each residual arc's cost (of its direction: a reverse arc's is its network arc's
        cost negated).
    """
    tails = key_arcs(keys)[0]
    out = np.empty(keys.shape[0], dtype=np.int64)
    for i, (key, t, h) in enumerate(
        zip(keys.tolist(), tails.tolist(), np.asarray(heads).tolist(), strict=True)
    ):
        arcs = res.classes[class_of(res, t)]
        out[i] = arcs.costs[live_position(arcs, key, h, res.n)]
    return out
