"""Arc ids of a string-hub network by their ends, read off the network's layout.

Routing a successor map through the network
(:func:`~cpwords.wordsnake.relaxation.assignment.route_successors`) yields its units' hops as
pairs of nodes; :class:`ArcIndex` finds their arcs without a pass over the network's arcs.
"""

from __future__ import annotations

import numpy as np

from cpwords.wordsnake.relaxation.sorting import stable_order
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork
from cpwords.wordsnake.relaxation.trie import SMALL_LEVEL


class ArcIndex:
    """Arc ids by ``(tail, head)``: the network has at most one arc between two nodes.

    Parameters
    ----------
    net : StringHubNetwork
        As :func:`~cpwords.wordsnake.relaxation.string_hub.build_string_network` builds it.

    Notes
    -----
    An arc is read off its ends and the network's layout
    (:class:`~cpwords.wordsnake.relaxation.string_hub.ArcLayout`), with no pass over the arcs:
    a split, delivery, zero or root-link
    arc by its word (arithmetic); a full-overlap hand-over or a self arc by a search of its
    part's tails (ascending); a shared hand-over ``exit(w) -> H(s)`` by the step of ``s`` on
    ``w``'s failure chain, then a search of that step's tails; an arc from a hub to the entry
    of word ``b`` by its level (``|b|`` less the hub's depth), then a search of that level's
    heads. Only the private chains' arcs (few) are searched in their sorted keys, made on
    first use. A lookup's arc is checked to be the pair asked for.

    The table of every arc's slot this replaces read all 2.1 M arcs of ENABLE to route its
    410,000 hops (0.05 s).
    """

    def __init__(self, net: StringHubNetwork) -> None:
        self.net = net
        self.layout = net.layout
        self.T, self.W = net.trie.size, net.num_words
        self.out_base, self.in_base, self.r_in = net.out_base, net.in_base, net.r_in
        self.cyclic, self.proper = net.instance.cyclic, net.instance.proper
        self.root_sink = 0 if self.cyclic else self.r_in
        self._private: tuple[np.ndarray, np.ndarray] | None = None

    def find(self, tails: np.ndarray, heads: np.ndarray) -> np.ndarray:
        """Arc id of each pair, -1 where there is no such arc.

        Parameters
        ----------
        tails, heads : numpy.ndarray of int, shape (k,)
            Node ids (any values: a pair of nodes that no arc joins gets -1).

        Returns
        -------
        numpy.ndarray of int64, shape (k,)
        """
        t = np.asarray(tails, dtype=np.int64)
        h = np.asarray(heads, dtype=np.int64)
        out = np.full(t.shape[0], -1, dtype=np.int64)
        T, W, net = self.T, self.W, self.net
        a = t - self.out_base  # the exit's word
        b = h - self.in_base  # the entry's word
        at_exit = (a >= 0) & (a < W)
        at_entry = (b >= 0) & (b < W)
        ex = np.flatnonzero(at_exit)
        self._from_exits(out, ex, a[ex], h[ex], at_entry[ex])
        hubs = np.flatnonzero((t >= 0) & (t < T + W))
        self._from_hubs(out, hubs, t[hubs], h[hubs], b[hubs], at_entry[hubs])
        if not self.cyclic:
            out[(t == self.r_in) & (h == 0)] = 3 * W
        chain = np.flatnonzero((t > self.r_in) | (at_exit & (h > self.r_in)))
        if chain.size:
            out[chain] = self._search_private(t[chain], h[chain])
        found = np.flatnonzero(out >= 0)
        arc = out[found]
        ok = (net.tail[arc] == t[found]) & (net.head[arc] == h[found])
        out[found[~ok]] = -1
        return out

    def _from_exits(
        self, out: np.ndarray, at: np.ndarray, a: np.ndarray, h: np.ndarray, to_entry: np.ndarray
    ) -> None:
        """The arcs out of word exits (``at`` the pairs, ``a`` their words): self arcs, zero
        arcs, full-overlap and shared hand-overs (the private ones are searched apart)."""
        T, W, layout, tail = self.T, self.W, self.layout, self.net.tail
        out[at[to_entry]] = _in_run(
            tail, layout.self_arcs, layout.private, self.out_base + a[to_entry]
        )
        zero = h == self.root_sink
        out[at[zero]] = 2 * W + a[zero]
        hub = ~zero & (h < T + W) & (h >= 0)
        if not self.proper:
            full = hub & (h == T + a)
            out[at[full]] = _in_run(tail, layout.full, layout.shared, self.out_base + a[full])
            hub &= ~full
        at, a, h = at[hub], a[hub], h[hub]
        trie = self.net.trie
        s = np.where(h < T, h, trie.word_node[np.clip(h - T, 0, W - 1)])
        step = _chain_steps(trie.fail, trie.depth, trie.word_node[a], trie.depth[s])
        out[at] = _in_runs(tail, layout.shared_steps, step, self.out_base + a)

    def _from_hubs(
        self,
        out: np.ndarray,
        at: np.ndarray,
        t: np.ndarray,
        h: np.ndarray,
        b: np.ndarray,
        to_entry: np.ndarray,
    ) -> None:
        """The arcs out of the hubs ``t`` (trie nodes and ``H+`` nodes): split arcs,
        deliveries, and the flat arcs to the entries of words ``b``, in the level of the
        hub's distance from the word's node, by a search of the heads."""
        T, W, trie = self.T, self.W, self.net.trie
        on_trie = t < T
        node = np.where(on_trie, t, trie.word_node[np.clip(t - T, 0, W - 1)])
        word = np.where(on_trie, trie.node_word[node], -1).astype(np.int64)
        split = (word >= 0) & (h == T + word)
        out[at[split]] = word[split]
        b = np.where(to_entry, b, 0)
        entry_node = trie.word_node[b]
        deliver = to_entry & on_trie & (entry_node == t)
        out[at[deliver]] = W + b[deliver]
        flat = np.flatnonzero(to_entry & ~deliver)
        level = trie.depth[entry_node[flat]].astype(np.int64) - trie.depth[node[flat]] - 1
        out[at[flat]] = _in_runs(
            self.net.head, self.layout.flat_levels, level, self.in_base + b[flat]
        )

    def _search_private(self, t: np.ndarray, h: np.ndarray) -> np.ndarray:
        """The arcs of the private chains and the hand-overs into them: a search of their
        sorted keys (made on first use)."""
        n = np.int64(self.net.num_nodes)
        if self._private is None:
            lo, hi = self.layout.private, self.layout.flat
            keys = self.net.tail[lo:hi].astype(np.int64) * n + self.net.head[lo:hi]
            order = np.argsort(keys)  # distinct keys: any sort gives this order
            self._private = (keys[order], order + lo)
        keys, ids = self._private
        want = t * n + h
        if not keys.size:
            return np.full(want.shape[0], -1, dtype=np.int64)
        pos = np.minimum(np.searchsorted(keys, want), keys.shape[0] - 1)
        return np.where(keys[pos] == want, ids[pos], -1)


def _in_run(column: np.ndarray, lo: int, hi: int, values: np.ndarray) -> np.ndarray:
    """The place of each value in ``column[lo:hi]`` (ascending), -1 where it is not there."""
    return _in_runs(column, np.array([lo, hi]), np.zeros(values.shape[0], np.int64), values)


def _in_runs(
    column: np.ndarray, starts: np.ndarray, run: np.ndarray, values: np.ndarray
) -> np.ndarray:
    """The place of each value in its run ``column[starts[run]:starts[run + 1]]`` (each run
    ascending), -1 where it is not there (or the run does not exist): one search a run."""
    out = np.full(values.shape[0], -1, dtype=np.int64)
    at = np.flatnonzero((run >= 0) & (run < starts.shape[0] - 1))
    if not at.size:
        return out
    # The queries by run, each run's in ascending order: the searches walk the column in order
    # (in random order, most steps of a search miss the cache).
    low = int(values.min())
    key = run[at] * (int(values.max()) - low + 1) + (values[at] - low)
    at = at[stable_order(key)]
    runs = run[at]
    cuts = np.flatnonzero(runs[1:] != runs[:-1]) + 1
    needles = values[at].astype(column.dtype)
    for lo_q, hi_q in zip(np.r_[0, cuts].tolist(), np.r_[cuts, at.size].tolist(), strict=True):
        r = int(runs[lo_q])
        lo, hi = int(starts[r]), int(starts[r + 1])
        if lo == hi:
            continue
        q = needles[lo_q:hi_q]
        pos = np.searchsorted(column[lo:hi], q)
        np.minimum(pos, hi - lo - 1, out=pos)
        pos += lo
        out[at[lo_q:hi_q]] = np.where(column[pos] == q, pos, -1)
    return out


def _chain_steps(
    fail: np.ndarray, depth: np.ndarray, nodes: np.ndarray, reach: np.ndarray
) -> np.ndarray:
    """The step of the failure chain from each node that first reaches a depth at most
    ``reach`` (0: the node's own link), as
    :meth:`~cpwords.wordsnake.relaxation.trie.Trie.suffix_chain` numbers them: array passes
    while many chains go on, then a plain loop."""
    step = np.zeros(nodes.shape[0], dtype=np.int64)
    cur = fail[nodes].astype(np.int64)
    live = np.flatnonzero(depth[cur] > reach)
    while live.size and live.size >= SMALL_LEVEL:
        cur[live] = fail[cur[live]]
        step[live] += 1
        live = live[depth[cur[live]] > reach[live]]
    for i in live.tolist():  # a few long chains (a word of 100,000 letters)
        c, k, top = int(cur[i]), int(step[i]), int(reach[i])
        while depth.item(c) > top:
            c, k = fail.item(c), k + 1
        step[i] = k
    return step
