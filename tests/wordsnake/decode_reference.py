"""The flow decoding as it was written before it became array passes (each hub's units a
list, handed down the hub DAG one unit at a time): the reference the tests hold
:func:`cpwords.wordsnake.relaxation.decode.decode_flow` to, result for result.
"""

from __future__ import annotations

import math
import time

import numpy as np

from cpwords.core.errors import ModelError
from cpwords.wordsnake.relaxation.decode import Decoded, _with_copies, group_edges, merge_cycles
from cpwords.wordsnake.relaxation.flow import FlowStopped
from cpwords.wordsnake.relaxation.node_reps import NodeReps
from cpwords.wordsnake.relaxation.sorting import stable_order
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork


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


def decode_flow_loops(
    net: StringHubNetwork, flows: np.ndarray, deadline: float | None = None
) -> Decoded:
    """Decode an integral flow into item successors and merge cycles at shared hubs.

    Parameters
    ----------
    net : StringHubNetwork
    flows : numpy.ndarray of int64, shape (m,)
    deadline : float, optional
        ``time.perf_counter()`` value after which decoding stops (:class:`FlowStopped`).

    Returns
    -------
    Decoded
        Successors with one cycle per connected component of the flow's support.

    Notes
    -----
    Units (tail items) descend the hub DAG in topological order and are handed to the entries of
    the words they reach. Every hub records the units that passed it; then, in reverse topological
    order, units of different cycles at the same hub exchange destinations (valid: both
    destinations lie below the hub, so each still extends the other's hand-over string, and the
    score is unchanged). Exchanging the successors of two items on different cycles merges the
    cycles, so a union-find over cycles ends with one cycle per support component. O(support)
    time and memory.
    """
    N = net.instance.n
    depot = N
    W = net.num_words
    out_base, in_base = net.out_base, net.in_base
    cyclic = net.instance.cyclic
    copies = item_copies(net)
    succ = [-1] * (N + 1)
    handover = [0] * (N + 1)
    node_rep = np.full(net.num_nodes, -1, dtype=np.int64)
    sup = np.nonzero(flows > 0)[0]
    s_tail, s_head, s_flow = net.tail[sup], net.head[sup], flows[sup]
    s_w = net.weight[sup]
    is_out = (s_tail >= out_base) & (s_tail < in_base)
    need_pred, pools = _word_exits(net, copies, s_tail, s_head, s_flow, s_w, is_out, succ, handover)
    if not cyclic:
        pools.setdefault(0, []).append(depot)
    rec_units, rec_starts = _descend_hubs(
        net, s_tail, s_head, s_flow, ~is_out, pools, need_pred, copies, succ, node_rep, deadline
    )
    if cyclic:
        succ[depot] = depot
    if any(s < 0 for s in succ[:N]):  # pragma: no cover
        raise ModelError("flow decoding left an item without a successor")

    # The hubs bottom-up (their groups in reverse), then the copies of each word.
    units, starts = _reversed_groups(
        np.array(rec_units, dtype=np.int64), np.array(rec_starts, dtype=np.int64)
    )
    anchors, others = _with_copies(net, *group_edges(units, starts))
    succ_a, hand_a = np.array(succ, dtype=np.int64), np.array(handover, dtype=np.int64)
    comp, ncyc, merges = merge_cycles(succ_a, hand_a, anchors, others, N, cyclic)
    # Word nodes belong to their word's component.
    first = [c[0] for c in copies]
    node_rep[out_base : out_base + W] = first
    node_rep[in_base : in_base + W] = first
    return Decoded(succ_a, comp, NodeReps.of(node_rep), hand_a, cycles=ncyc, merges=merges)


def _reversed_groups(units: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Groups of items (``units``, each group from its start to the next) in reverse order."""
    sizes = np.diff(np.append(starts, units.size))[::-1]
    new_starts = np.cumsum(sizes) - sizes
    at = np.repeat(starts[::-1] - new_starts, sizes) + np.arange(int(sizes.sum()))
    return units[at], new_starts


def _word_exits(
    net: StringHubNetwork,
    copies: list[list[int]],
    s_tail: np.ndarray,
    s_head: np.ndarray,
    s_flow: np.ndarray,
    s_w: np.ndarray,
    is_out: np.ndarray,
    succ: list[int],
    handover: list[int],
) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """Word exits: chains of copies on the self arcs, then units onto hubs.

    Fills ``succ`` and ``handover`` of the copy chains and ``handover`` of the units; returns
    the items still needing a predecessor per word (where a self arc was used) and the units
    arriving at each hub node.
    """
    W = net.num_words
    out_base, in_base = net.out_base, net.in_base
    need_pred: dict[int, list[int]] = {}
    avail: dict[int, list[int]] = {}
    is_self = is_out & (s_head >= in_base) & (s_head < in_base + W)
    self_flow = np.zeros(W, dtype=np.int64)
    self_w = np.zeros(W, dtype=np.int64)
    self_flow[s_tail[is_self] - out_base] = s_flow[is_self]
    self_w[s_tail[is_self] - out_base] = s_w[is_self]
    for w in np.flatnonzero(self_flow).tolist():  # the words with a self arc
        c = copies[w]
        k = int(self_flow[w])
        if k:
            ov = math.isqrt(int(self_w[w]))
            for j in range(k):
                succ[c[j]] = c[j + 1]
                handover[c[j]] = ov
            avail[w] = c[k:]
            need_pred[w] = [c[0], *c[k + 1 :]]
    pools: dict[int, list[int]] = {}
    ho = is_out & ~is_self
    for t, h, f, wt in zip(
        (s_tail[ho] - out_base).tolist(),
        s_head[ho].tolist(),
        s_flow[ho].tolist(),
        s_w[ho].tolist(),
        strict=True,
    ):
        units = avail.get(t)
        if units is None and f == len(copies[t]):
            take = copies[t]  # all the word's items on one arc (the usual: one item)
        else:
            if units is None:
                units = avail[t] = list(copies[t])
            take = units[-f:]
            del units[-f:]
        ov = math.isqrt(wt)
        for u in take:
            handover[u] = ov
        pools.setdefault(h, []).extend(take)
    return need_pred, pools


def _descend_hubs(
    net: StringHubNetwork,
    s_tail: np.ndarray,
    s_head: np.ndarray,
    s_flow: np.ndarray,
    hub: np.ndarray,
    pools: dict[int, list[int]],
    need_pred: dict[int, list[int]],
    copies: list[list[int]],
    succ: list[int],
    node_rep: np.ndarray,
    deadline: float | None,
) -> tuple[list[int], list[int]]:
    """Hand the units down the hub nodes in topological order to the entries they reach.

    Fills ``succ`` and ``node_rep``; returns the units that passed each hub holding two or
    more (concatenated, in topological order) and where each hub's units start.
    """
    depot = net.instance.n
    W = net.num_words
    in_base = net.in_base
    cyclic = net.instance.cyclic
    # Hub nodes in topological order.
    h_tail, h_head, h_flow = s_tail[hub], s_head[hub], s_flow[hub]
    pos = np.empty(net.num_nodes, dtype=np.int64)
    pos[net.topo] = np.arange(net.topo.shape[0])
    order = np.argsort(pos[h_tail], kind="stable")
    h_tail, h_head, h_flow = h_tail[order].tolist(), h_head[order].tolist(), h_flow[order].tolist()
    rec_units: list[int] = []
    rec_starts: list[int] = []
    r_in = net.r_in
    k = 0
    m = len(h_tail)
    while k < m:
        if deadline is not None and not k & 0xFFF and time.perf_counter() >= deadline:
            raise FlowStopped
        v = h_tail[k]
        pool = pools.pop(v, [])
        if pool:
            node_rep[v] = pool[0]
        if len(pool) >= 2:
            rec_starts.append(len(rec_units))
            rec_units.extend(pool)
        if v == r_in and not cyclic:
            u = pool.pop()
            succ[u] = depot
        while k < m and h_tail[k] == v:
            h, f = h_head[k], h_flow[k]
            take = pool[-f:]
            del pool[-f:]
            if in_base <= h < in_base + W:
                w = h - in_base
                preds = need_pred.get(w)
                if preds is None:
                    preds = need_pred[w] = list(copies[w])
                for u in take:
                    succ[u] = preds.pop()
            else:
                pools.setdefault(h, []).extend(take)
            k += 1
        if pool:  # pragma: no cover - flow conservation makes this impossible
            raise ModelError(f"flow decoding left {len(pool)} units at node {v}")
    for v, pool in pools.items():  # nodes with inflow but no support out-arc: only R_in
        if v == r_in and not cyclic and len(pool) == 1:
            node_rep[v] = pool[0]
            succ[pool[0]] = depot
        elif pool:  # pragma: no cover
            raise ModelError(f"flow decoding left {len(pool)} units at node {v}")
    return rec_units, rec_starts
