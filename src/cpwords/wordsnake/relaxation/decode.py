"""From a flow to an ordering: the item successor map, cycle merging at shared hubs, the greedy map.

Two units of flow that pass the same hub can exchange their destinations at no loss, which merges
their cycles; done bottom-up over the hub DAG this leaves one cycle per connected component of the
flow's support (the certificate of :mod:`~cpwords.wordsnake.exact.stages.lagrangian_relaxation`).

Formulation card: ``models/wordsnake.md``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpwords.core.errors import ModelError
from cpwords.wordsnake.relaxation.flow import FlowStopped
from cpwords.wordsnake.relaxation.level_matching import LevelMatching
from cpwords.wordsnake.relaxation.sorting import stable_order
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork, Trie


@dataclass
class Decoded:
    """An integral flow read as item successors.

    Attributes
    ----------
    succ : numpy.ndarray of int64, shape (N + 1,)
        Successor of each item; index N is the depot (linear snakes), whose successor is the first
        item and which follows the last one. Unused for cyclic snakes (``succ[N] == N``).
    comp : numpy.ndarray of int64, shape (N + 1,)
        Component label of each item after merging (one cycle per support component).
    node_rep : numpy.ndarray of int64, shape ``(num_nodes,)``
        One item whose unit passed each hub node (-1 where no unit did); word nodes get an
        item of their word.
    handover : numpy.ndarray of int64, shape (N + 1,)
        Length of the hand-over string of each item's unit (its joint's guaranteed overlap).
    cycles : int
        Cycles of the successor map before merging.
    merges : int
        Successor exchanges made while merging.
    extra : dict
        Stage results, e.g. ``"losses"``: the loss of each patched component, by label.
    """

    succ: np.ndarray
    comp: np.ndarray
    node_rep: np.ndarray
    handover: np.ndarray
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
    flat = stable_order(net.item_word).tolist()  # each word's items, ascending, word by word
    ends = np.cumsum(net.mult).tolist()
    return [flat[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]


def group_edges(units: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The exchanges :func:`merge_cycles` tries for groups of items: each group's first item
    with each of the others, group by group.

    Parameters
    ----------
    units : numpy.ndarray of int64, shape (k,)
        The groups' items, one group after the other.
    starts : numpy.ndarray of int64, shape (g,)
        Where each group starts in ``units`` (ascending; a group ends where the next starts;
        empty groups are allowed).

    Returns
    -------
    anchors, others : numpy.ndarray of int64, shape (k - g,)
        The pairs ``(first item of its group, item)`` for every item but the groups' first.

    Examples
    --------
    >>> a, b = group_edges(np.array([4, 5, 6, 7, 8]), np.array([0, 3]))
    >>> a.tolist(), b.tolist()
    ([4, 4, 7], [5, 6, 8])
    """
    units = np.asarray(units, dtype=np.int64)
    starts = np.asarray(starts, dtype=np.int64)
    if not starts.size:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    sizes = np.diff(np.append(starts, units.size))
    starts, sizes = starts[sizes > 0], sizes[sizes > 0]
    anchors = np.repeat(units[starts], sizes)
    first = np.zeros(units.size, dtype=bool)
    first[starts] = True
    return anchors[~first], units[~first]


def cycle_labels(succ: np.ndarray, n: int, cyclic: bool) -> tuple[np.ndarray, int]:
    """Label the cycles of a successor map in the order of their smallest item.

    Parameters
    ----------
    succ : numpy.ndarray of int64, shape (n + 1,)
        A permutation (index ``n`` is the depot; for a cyclic snake ``succ[n] == n``).
    n : int
    cyclic : bool

    Returns
    -------
    cyc : numpy.ndarray of int64, shape (n + 1,)
        Each item's cycle label: 0 for the cycle of item 0, then by smallest item; a cyclic
        snake's depot gets the last label.
    count : int
        The cycles (a cyclic snake's depot not counted).

    Notes
    -----
    Pointer doubling: after ``k`` rounds each item knows the smallest of the ``2**k`` items
    from it along its cycle, so ``ceil(log2(n + 1))`` rounds give every cycle's smallest
    item, in whole-array steps instead of a walk item by item.
    """
    size = n + 1
    low = np.arange(size, dtype=np.int32)  # item ids in 32 bits: less memory traffic
    step = np.asarray(succ).astype(np.int32)
    spare = np.empty_like(step)
    for _ in range(max(1, (size - 1).bit_length())):
        np.minimum(low, np.take(low, step), out=low)
        np.take(step, step, out=spare)
        step, spare = spare, step
    smallest = low == np.arange(size)
    label = np.cumsum(smallest) - 1
    count = int(smallest.sum()) - (1 if cyclic else 0)
    return label[low], count


def merge_cycles(
    succ: np.ndarray,
    handover: np.ndarray,
    anchors: np.ndarray,
    others: np.ndarray,
    n: int,
    cyclic: bool,
) -> tuple[np.ndarray, int, int]:
    """Merge the cycles of a successor map by exchanging successors of item pairs, at no loss.

    Parameters
    ----------
    succ : numpy.ndarray of int64, shape (n + 1,)
        Successors (index n is the depot); modified in place.
    handover : numpy.ndarray of int64, shape (n + 1,)
        Guaranteed overlap of each item's joint; exchanged with the successors.
    anchors, others : numpy.ndarray of int64, shape (k,)
        The pairs whose successors may be exchanged without loss, in the order they are
        tried (:func:`group_edges`: units that passed one hub, in an order where each group's
        destinations still lie below its hub, and the copies of a word).
    n : int
        Number of items.
    cyclic : bool

    Returns
    -------
    comp : numpy.ndarray of int64, shape (n + 1,)
        Cycle label of each item after merging.
    cycles : int
        Cycles before merging.
    merges : int
        Exchanges made.

    Notes
    -----
    Exchanging the successors of two items on different cycles of a permutation joins the two
    cycles; a union-find over the cycles decides which exchanges to make, in order: a pair is
    exchanged when its two cycles are not yet joined, and each merged cycle keeps the label
    of the anchor's. Only a pair's first occurrence (two cycles' first pair) can join them, so
    the union-find runs over those alone: on a dictionary, a few dozen pairs of its 170,000.
    """
    cyc, ncyc = cycle_labels(succ, n, cyclic)
    ca, cu = cyc[anchors], cyc[others]
    live = np.flatnonzero(ca != cu)
    lo, hi = np.minimum(ca[live], cu[live]), np.maximum(ca[live], cu[live])
    _, first = np.unique(lo * (ncyc + 1) + hi, return_index=True)
    tried = live[np.sort(first)]
    parent = list(range(ncyc + 1))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    merges = 0
    for a, u, x, y in zip(
        anchors[tried].tolist(),
        others[tried].tolist(),
        ca[tried].tolist(),
        cu[tried].tolist(),
        strict=True,
    ):
        rx, ry = find(x), find(y)
        if rx != ry:
            succ[a], succ[u] = succ[u], succ[a]
            handover[a], handover[u] = handover[u], handover[a]
            parent[ry] = rx
            merges += 1
    root = np.array([find(c) for c in range(ncyc + 1)], dtype=np.int64)
    return root[cyc], ncyc, merges


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
    return Decoded(succ_a, comp, node_rep, hand_a, cycles=ncyc, merges=merges)


def _reversed_groups(units: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Groups of items (``units``, each group from its start to the next) in reverse order."""
    sizes = np.diff(np.append(starts, units.size))[::-1]
    new_starts = np.cumsum(sizes) - sizes
    at = np.repeat(starts[::-1] - new_starts, sizes) + np.arange(int(sizes.sum()))
    return units[at], new_starts


def _with_copies(
    net: StringHubNetwork, anchors: np.ndarray, others: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The exchanges ``anchors``, ``others`` followed by those of each repeated word's first
    copy with its others (words in order, copies ascending)."""
    many = net.mult > 1
    if not many.any():
        return anchors, others
    items = stable_order(net.item_word)[np.repeat(many, net.mult)]
    sizes = net.mult[many]
    ca, co = group_edges(items, np.cumsum(sizes) - sizes)
    return np.concatenate([anchors, ca]), np.concatenate([others, co])


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
    # Entries as slots in word (= preorder) order: slot_start[w] .. slot_start[w] + mult[w].
    # Slots, items, words and trie nodes in 32 bits where they fit: half the memory traffic.
    slots = _narrow(N + 1)
    slot_start = np.zeros(W + 1, dtype=slots)
    np.cumsum(net.mult, out=slot_start[1:])
    slot_item = stable_order(net.item_word).astype(slots)  # each word's copies, ascending
    depth = trie.depth
    succ = np.full(N + 1, -1, dtype=np.int64)
    handover = np.zeros(N + 1, dtype=np.int64)
    matched = _greedy_matches(
        net,
        slot_start,
        slot_item,
        depth,
        _handover_candidates(trie, W, net.instance.proper, depth),
        succ,
        handover,
        deadline,
    )
    (units, starts), (heads, tails), stopped, interrupted = matched
    tails = _join_free_ends(N, cyclic, heads, tails, succ)
    # Units handed over at one string can exchange destinations (all lie below it), and so can
    # the zero joints (a last group), and the copies of a word.
    edges = group_edges(np.concatenate([units, tails]), np.append(starts, units.size))
    anchors, others = _with_copies(net, *edges)
    comp, ncyc, merges = merge_cycles(succ, handover, anchors, others, N, cyclic)
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
    succ: np.ndarray,
    handover: np.ndarray,
    deadline: float | None,
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray], bool, bool]:
    """The matching (:class:`~.level_matching.LevelMatching`), written into ``succ`` and
    ``handover``: the exits matched at each string where two or more were (as items and where
    each string's start), the entries and exits left free, and whether the deadline or Ctrl-C
    stopped it (the matches so far stand)."""
    stopped = interrupted = False
    matching = LevelMatching(net.trie.word_node, slot_start, slot_item, succ, handover)
    try:
        matching.run(cand, depth, deadline)
    except FlowStopped:
        stopped = True
    except KeyboardInterrupt:  # the caller re-raises it once it has an ordering
        stopped = interrupted = True
    return matching.group_arrays(), matching.free_ends(), stopped, interrupted


def _handover_candidates(
    trie: Trie, W: int, proper: bool, depth: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Candidate hand-overs, deepest string first: the word, the trie node of the string and
    the range of words allowed to follow (``lo_word`` .. ``hi_word`` - 1), in 32 bits where
    the trie's node ids fit."""
    ids = _narrow(trie.size + 1)
    wn = trie.word_node.astype(ids, copy=False)
    # Candidate hand-overs (word, trie node of the string, first slot allowed): failure chains,
    # full overlaps (strictly below the word), deepest first.
    hw, hs = (a.astype(ids) for a in trie.suffix_nodes())
    full_count = 0
    if not proper:  # the whole word: words that strictly extend it
        full_count = W
        hw = np.concatenate([np.arange(W, dtype=ids), hw])
        hs = np.concatenate([wn, hs])
    order = _deepest_first(depth[hs])
    hw, hs = hw[order], hs[order]
    # The words before each node in preorder (``before[v]``, the word nodes below ``v``) and
    # the words up to the end of its subtree: the searches of ``wn`` for every candidate as
    # reads of two tables (0.2 s of ENABLE's 0.5 s by sorted searches). Words equal to the
    # string are left out (``before[v + 1]``, one more where ``v`` is a word) for full
    # overlaps and proper ones; a proper suffix is never its own word.
    before = np.zeros(trie.size + 1, dtype=ids)
    before[wn + 1] = 1
    np.cumsum(before, out=before)
    upto = before[trie.end + 1]  # = searchsorted(wn, end, "right")
    strict = proper | (order < full_count)  # the full overlaps came first
    del order
    lo_word = before[hs + strict]  # = searchsorted(wn, hs), plus one where hs is left out
    hi_word = upto[hs]
    return hw, hs, lo_word, hi_word


def _narrow(top: int) -> type[np.signedinteger]:
    """int32 for values below ``top`` (at most ``2**31``), else int64."""
    return np.int32 if top <= 1 << 31 else np.int64


def _deepest_first(depth: np.ndarray) -> np.ndarray:
    """A stable sort by depth, deepest first (a radix sort on 16-bit keys when words are shorter
    than 65,536 letters: 2 ms against 27 ms for ENABLE's 800,000 candidates)."""
    top = int(depth.max(initial=0))
    if top < 1 << 16:
        return np.argsort((top - depth).astype(np.uint16), kind="stable")
    return np.argsort(-depth, kind="stable")


def _join_free_ends(
    N: int, cyclic: bool, heads: np.ndarray, tails: np.ndarray, succ: np.ndarray
) -> np.ndarray:
    """Join the unmatched exits ``tails`` to the unmatched entries ``heads`` (through the
    depot: paths concatenated); returns the exits joined, with the depot's exit last on a
    linear snake.

    The ``k``-th exit takes the ``k``-th entry, but where that is its own entry (a fixed
    point) it exchanges entries with the next exit (the last one with the one before): in a
    run of fixed points the first, third, ... exchange, which mends the others too (any that
    remain are one-item cycles, patched like the others).
    """
    if not cyclic:
        heads = np.append(heads, N)
        tails = np.append(tails, N)
    else:
        succ[N] = N
    heads = np.array(heads, dtype=np.int64)
    tails = np.asarray(tails, dtype=np.int64)
    m = tails.size
    if m > 1:
        fixed = heads == tails
        k = np.arange(m)
        mended = np.maximum.accumulate(np.where(fixed, -1, k))  # the last one not fixed
        swap = fixed & ((k - mended) % 2 == 1)  # even places in their run of fixed points
        at = np.flatnonzero(swap[:-1])
        heads[at], heads[at + 1] = heads[at + 1], heads[at]
        if swap[-1]:
            heads[m - 1], heads[m - 2] = heads[m - 2], heads[m - 1]
    succ[tails] = heads
    return tails


# ---------------------------------------------------------------------------------------------
# Model-side overlaps (the independent checker recomputes them separately).
# ---------------------------------------------------------------------------------------------
