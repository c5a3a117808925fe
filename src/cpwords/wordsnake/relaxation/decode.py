"""From a flow to an ordering: the item successor map, cycle merging at shared hubs, the greedy map.

Two units of flow that pass the same hub can exchange their destinations at no loss, which merges
their cycles; done bottom-up over the hub DAG this leaves one cycle per connected component of the
flow's support (the certificate of :mod:`~cpwords.wordsnake.exact.stages.lagrangian_relaxation`).

Formulation card: ``models/wordsnake.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpwords.core.errors import ModelError
from cpwords.wordsnake.relaxation.flow import FlowStopped
from cpwords.wordsnake.relaxation.level_matching import LevelMatching
from cpwords.wordsnake.relaxation.sorting import lookup_sorted, stable_order
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork, Trie


@dataclass
class Decoded:
    """An integral flow read as item successors.

    Attributes
    ----------
    succ : list of int, length N + 1
        Successor of each item; index N is the depot (linear snakes), whose successor is the first
        item and which follows the last one. Unused for cyclic snakes (``succ[N] == N``).
    comp : list of int, length N + 1
        Component label of each item after merging (one cycle per support component).
    node_rep : numpy.ndarray of int64, shape ``(num_nodes,)``
        One item whose unit passed each hub node (-1 where no unit did); word nodes get an
        item of their word.
    handover : list of int, length N + 1
        Length of the hand-over string of each item's unit (its joint's guaranteed overlap).
    cycles : int
        Cycles of the successor map before merging.
    merges : int
        Successor exchanges made while merging.
    extra : dict
        Stage results, e.g. ``"losses"``: the loss of each patched component, by label.
    """

    succ: list[int]
    comp: list[int]
    node_rep: np.ndarray
    handover: list[int]
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
    copies: list[list[int]] = [[] for _ in range(net.num_words)]
    for i, w in enumerate(net.item_word.tolist()):
        copies[w].append(i)
    return copies


def merge_cycles(
    succ: list[int],
    handover: list[int],
    groups: Iterable[list[int]],
    copies: list[list[int]],
    n: int,
    cyclic: bool,
) -> tuple[list[int], int, int]:
    """Merge the cycles of a successor map by exchanging successors within groups, at no loss.

    Parameters
    ----------
    succ : list of int, length n + 1
        Successors (index n is the depot); modified in place.
    handover : list of int
        Guaranteed overlap of each item's joint; exchanged with the successors.
    groups : iterable of list of int
        Items whose successors may be exchanged pairwise without loss (units that passed one hub,
        in an order where each group's destinations still lie below its hub).
    copies : list of list of int
        Items of each distinct word (copies of a word can always exchange successors).
    n : int
        Number of items.
    cyclic : bool

    Returns
    -------
    comp : list of int, length n + 1
        Cycle label of each item after merging.
    cycles : int
        Cycles before merging.
    merges : int
        Exchanges made.

    Notes
    -----
    Exchanging the successors of two items on different cycles of a permutation joins the two
    cycles; a union-find over the cycles decides which exchanges to make. O(total group size).
    """
    cyc = [-1] * (n + 1)
    ncyc = 0
    for i in range(n + 1 if not cyclic else n):
        if cyc[i] < 0:
            j = i
            while cyc[j] < 0:
                cyc[j] = ncyc
                j = succ[j]
            ncyc += 1
    if cyclic:
        cyc[n] = ncyc
    parent = list(range(ncyc + 1))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    merges = 0

    def merge(units: list[int]) -> None:
        nonlocal merges
        anchor = units[0]
        for u in units[1:]:
            ca, cu = find(cyc[anchor]), find(cyc[u])
            if ca != cu:
                succ[anchor], succ[u] = succ[u], succ[anchor]
                handover[anchor], handover[u] = handover[u], handover[anchor]
                parent[cu] = ca
                merges += 1

    for units in groups:
        if len(units) > 1:
            merge(units)
    for c in copies:
        if len(c) > 1:
            merge(c)
    return [find(c) for c in cyc], ncyc, merges


def decode_flow(net: StringHubNetwork, flows: np.ndarray, deadline: float | None = None) -> Decoded:
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

    rec_bounds = [*rec_starts, len(rec_units)]
    groups = (
        rec_units[rec_bounds[r] : rec_bounds[r + 1]] for r in range(len(rec_starts) - 1, -1, -1)
    )
    comp, ncyc, merges = merge_cycles(succ, handover, groups, copies, N, cyclic)
    # Word nodes belong to their word's component.
    first = [c[0] for c in copies]
    node_rep[out_base : out_base + W] = first
    node_rep[in_base : in_base + W] = first
    return Decoded(succ, comp, node_rep, handover, cycles=ncyc, merges=merges)


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
    for w in range(W):
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
    copies = item_copies(net)
    # Entries as slots in word (= preorder) order: slot_start[w] .. slot_start[w] + mult[w].
    slot_start = np.zeros(W + 1, dtype=np.int64)
    np.cumsum(net.mult, out=slot_start[1:])
    slot_item = stable_order(net.item_word)  # each word's copies, ascending, word by word
    depth = trie.depth.astype(np.int64)
    hw, hs, lo_word, hi_word = _handover_candidates(trie, W, net.instance.proper, depth)
    succ = [-1] * (N + 1)
    handover = [0] * (N + 1)
    cand = (hw, hs, lo_word, hi_word)
    matched = _greedy_matches(net, slot_start, slot_item, depth, cand, succ, handover, deadline)
    by_string, (heads, tails), stopped, interrupted = matched
    _join_free_ends(N, cyclic, heads, tails, succ)
    # Units handed over at one string can exchange destinations (all lie below it), and so can
    # the zero joints.
    groups = [*by_string, tails]
    comp, ncyc, merges = merge_cycles(succ, handover, groups, copies, N, cyclic)
    node_rep = np.full(net.num_nodes, -1, dtype=np.int64)
    dec = Decoded(succ, comp, node_rep, handover, cycles=ncyc, merges=merges)
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
    cand: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    succ: list[int],
    handover: list[int],
    deadline: float | None,
) -> tuple[list[list[int]], tuple[list[int], list[int]], bool, bool]:
    """The matching (:class:`~.level_matching.LevelMatching`), written into ``succ`` and
    ``handover``: the exits matched at each string where two or more were, the entries and
    exits left free, and whether the deadline or Ctrl-C stopped it (the matches so far
    stand)."""
    stopped = interrupted = False
    word_node = net.trie.word_node.astype(np.int64)
    matching = LevelMatching(word_node, slot_start, slot_item.astype(np.int64), succ, handover)
    try:
        matching.run(cand, depth, deadline)
    except FlowStopped:
        stopped = True
    except KeyboardInterrupt:  # the caller re-raises it once it has an ordering
        stopped = interrupted = True
    return matching.groups, matching.free_ends(), stopped, interrupted


def _handover_candidates(
    trie: Trie, W: int, proper: bool, depth: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Candidate hand-overs, deepest string first: the word, the trie node of the string and
    the range of words allowed to follow (``lo_word`` .. ``hi_word`` - 1)."""
    wn = trie.word_node.astype(np.int64)
    # Candidate hand-overs (word, trie node of the string, first slot allowed): failure chains,
    # full overlaps (strictly below the word), deepest first.
    hw, hs = trie.suffix_nodes()
    if not proper:  # the whole word: words that strictly extend it
        hw = np.concatenate([np.arange(W, dtype=np.int64), hw])
        hs = np.concatenate([wn, hs])
    order = _deepest_first(depth[hs])
    hw, hs = hw[order], hs[order]
    lo_word = lookup_sorted(wn, hs)
    hi_word = lookup_sorted(wn, trie.end[hs], side="right")
    full = wn[hw] == hs
    strict = full | (proper & (wn[hw] != hs))  # words equal to the string are excluded
    lo_word = np.where(strict & (wn[np.minimum(lo_word, W - 1)] == hs), lo_word + 1, lo_word)
    return hw, hs, lo_word, hi_word


def _deepest_first(depth: np.ndarray) -> np.ndarray:
    """A stable sort by depth, deepest first (a radix sort on 16-bit keys when words are shorter
    than 65,536 letters: 2 ms against 27 ms for ENABLE's 800,000 candidates)."""
    top = int(depth.max(initial=0))
    if top < 1 << 16:
        return np.argsort((top - depth).astype(np.uint16), kind="stable")
    return np.argsort(-depth, kind="stable")


def _join_free_ends(
    N: int, cyclic: bool, heads: list[int], tails: list[int], succ: list[int]
) -> None:
    """Join the unmatched exits ``tails`` to the unmatched entries ``heads`` (through the
    depot: paths concatenated); ``tails`` gets the depot's exit on a linear snake."""
    if not cyclic:
        heads.append(N)
        tails.append(N)
    else:
        succ[N] = N
    # Pair free tails with free heads, avoiding fixed points where possible (any that remain are
    # one-item cycles, patched like the others).
    m = len(tails)
    for k in range(m):
        if heads[k] == tails[k] and m > 1:
            j = k + 1 if k + 1 < m else k - 1
            heads[k], heads[j] = heads[j], heads[k]
            if j < k:
                succ[tails[j]] = heads[j]
        succ[tails[k]] = heads[k]


# ---------------------------------------------------------------------------------------------
# Model-side overlaps (the independent checker recomputes them separately).
# ---------------------------------------------------------------------------------------------
