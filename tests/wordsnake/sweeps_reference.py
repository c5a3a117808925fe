"""The re-optimisation by Bellman-Ford sweeps as it was written before its residual network was
grouped by node class (residual arcs sorted by tail, predecessors by position, cycles by pointer
doubling): the reference the tests hold the current one to, result for result.
"""

from __future__ import annotations

import numpy as np

from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork
from cpwords.wordsnake.relaxation.sweeps import CHAIN_STEPS, sweep_ranges


class _Residual:
    """The residual arcs sorted by tail (stably: those with room by arc id, then the reverse
    ones by arc id) and CSR offsets."""

    def __init__(
        self, net: StringHubNetwork, cost: np.ndarray, flows: np.ndarray, cap: np.ndarray
    ) -> None:
        fw = np.flatnonzero(flows < cap)
        bw = np.flatnonzero(flows > 0)
        tails = np.concatenate([net.tail[fw], net.head[bw]])
        order = np.argsort(tails, kind="stable")
        self.tails = tails[order]
        self.heads = np.concatenate([net.head[fw], net.tail[bw]])[order]
        self.costs = np.concatenate([cost[fw], -cost[bw]])[order]
        self.arc = np.concatenate([fw, bw])[order]
        self.forward = order < fw.shape[0]
        self.indptr = np.zeros(net.num_nodes + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.tails, minlength=net.num_nodes), out=self.indptr[1:])


def _relax_range(
    res: _Residual, dist: np.ndarray, pred: np.ndarray, dirty: np.ndarray, lo: int, hi: int
) -> bool:
    """The arcs leaving the dirty nodes ``lo <= v < hi``; the last tight arc is a lowered
    head's predecessor."""
    tails = np.flatnonzero(dirty[lo:hi]) + lo
    if not tails.size:
        return False
    dirty[tails] = False
    idx = np.concatenate(
        [np.arange(res.indptr[t], res.indptr[t + 1]) for t in tails.tolist()]
    ).astype(np.int64)
    heads = res.heads[idx]
    cand = dist[res.tails[idx]] + res.costs[idx]
    better = np.flatnonzero(cand < dist[heads])
    if not better.size:
        return False
    h, c = heads[better], cand[better]
    np.minimum.at(dist, h, c)
    tight = better[c == dist[h]]
    pred[heads[tight]] = idx[tight]
    dirty[h] = True
    return True


def _pred_cycles(pred: np.ndarray, tails: np.ndarray) -> list[list[int]]:
    """Every cycle of the predecessor graph (positions of its residual arcs), node by node."""
    cycles: list[list[int]] = []
    done: set[int] = set()
    for v0 in range(pred.shape[0]):
        path: dict[int, int] = {}
        v = v0
        while v not in done and v not in path and pred[v] >= 0:
            path[v] = len(path)
            v = int(tails[pred[v]])
        if v in path:  # a new cycle through v
            cyc = []
            u = v
            while True:
                cyc.append(int(pred[u]))
                u = int(tails[pred[u]])
                if u == v:
                    break
            cycles.append(cyc)
        done.update(path)
    return cycles


def reference_settle(
    net: StringHubNetwork,
    cost: np.ndarray,
    flows: np.ndarray,
    *,
    cap: np.ndarray | None = None,
    start: np.ndarray | None = None,
    max_rounds: int,
    max_cycles: int,
    check_every: int = 2,
) -> tuple[np.ndarray | None, int, int]:
    """``Reoptimizer.settle`` as it was (but the first sweep records no predecessors): the
    potentials (or None), the cycles cancelled and the sweeps made; ``flows`` changed in place
    as the cycles are cancelled."""
    cap = net.cap.full() if cap is None else cap
    n = net.num_nodes
    dist = np.zeros(n, dtype=np.int64) if start is None else start.copy()
    ranges = sweep_ranges(net)
    dirty = np.ones(n, dtype=bool)
    rounds = cycles = 0
    while True:
        res = _Residual(net, cost, flows, cap)
        pred = np.full(n, -1, dtype=np.int64)
        found: list[list[int]] = []
        while not found:
            if rounds >= max_rounds:
                return None, cycles, rounds
            rounds += 1
            fell = False
            for lo, hi in ranges:
                steps = CHAIN_STEPS if (lo, hi) == ranges[2] else 1
                for _ in range(steps):
                    if not _relax_range(res, dist, pred, dirty, lo, hi):
                        break
                    fell = True
            if not fell:
                return dist, cycles, rounds
            if rounds == 1:
                pred.fill(-1)  # the first sweep records no predecessors
            if rounds % check_every == 0:
                found = [c for c in _pred_cycles(pred, res.tails) if int(res.costs[c].sum()) < 0]
        if cycles >= max_cycles:
            return None, cycles, rounds
        for c in found:
            a, fwd = res.arc[c], res.forward[c]
            delta = int(np.where(fwd, cap[a] - flows[a], flows[a]).min())
            np.add.at(flows, a[fwd], delta)
            np.subtract.at(flows, a[~fwd], delta)
            dirty[res.heads[c]] = True
        cycles += len(found)
