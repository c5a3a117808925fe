"""Wordsnake at dictionary scale: the string-hub flow, its certificate, repair and Lagrangian bound.

1. **Relaxation.** The min-cost flow of the string-hub network
   (:func:`~.wordsnake_strings.build_string_network`) is the assignment relaxation: a valid dual
   bound, computed on O(total letters) arcs.
2. **Certificate.** The flow is decoded into an item successor map (a cycle cover, plus the depot
   for a linear snake). Two units of flow that pass the same hub can exchange their destinations
   at no loss, which merges their cycles; done bottom-up over the hub DAG this leaves exactly one
   cycle per connected component of the flow's support. One cycle is an ordering scoring the
   bound: OPTIMAL without any MIP.
3. **Repair.** Otherwise each remaining cycle is patched into the main one by the best 2-exchange
   among candidates indexed by overlap string (longest first).
4. **Bound.** Each component ``S`` that misses the root yields the connectivity cut
   ``x(delta_in(S)) >= 1``. Lagrangian relaxation prices the cuts into the arc costs; every iterate
   is the same min-cost flow with new integer costs, decoded and repaired too.

Formulation card: ``models/wordsnake.md``.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ortools.graph.python import min_cost_flow

from ..errors import ModelError
from .wordsnake_strings import HANDOVER, ROOTLINK, DeadlineReached, StringHubNetwork

#: Networks with more arcs than this are solved in a forked child process, so that a time limit
#: or Ctrl-C can stop the solve (OR-Tools' min-cost flow holds the GIL and has no time limit).
FORK_MIN_ARCS = 200_000

#: Costs are ``-(SCALE * weight + multipliers)``: Lagrangian multipliers in units of 1/SCALE.
SCALE = 64


#: A flow solve (or a Python stage) was abandoned because the deadline passed.
FlowStopped = DeadlineReached


def _solve_flow_inline(net: StringHubNetwork, cost: np.ndarray) -> tuple[np.ndarray, int]:
    flow = min_cost_flow.SimpleMinCostFlow()
    arcs = flow.add_arcs_with_capacity_and_unit_cost(
        net.tail.astype(np.int32), net.head.astype(np.int32), net.cap, cost
    )
    nodes = np.nonzero(net.supply)[0]
    flow.set_nodes_supplies(nodes.astype(np.int32), net.supply[nodes])
    status = flow.solve()
    if status != flow.OPTIMAL:
        raise ModelError(f"min-cost flow failed on the string-hub network (status {status})")
    return flow.flows(arcs).astype(np.int64), int(flow.optimal_cost())


def _child(net: StringHubNetwork, cost: np.ndarray, conn: Any) -> None:  # pragma: no cover
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        flows, value = _solve_flow_inline(net, cost)
        conn.send_bytes(np.int64(value).tobytes() + flows.tobytes())
    except Exception as exc:  # report, never hang the parent
        conn.send_bytes(b"E" + str(exc).encode())
    finally:
        conn.close()


class FlowJob:
    """A min-cost flow solve under way (in a forked child for large networks).

    Parameters
    ----------
    net : StringHubNetwork
    cost : numpy.ndarray of int64, shape (m,)
        Unit cost of each arc (negated scores).

    Notes
    -----
    Networks with at least ``FORK_MIN_ARCS`` arcs are solved in a forked child process: the
    parent stays free (it runs the greedy start meanwhile, on the second core) and can abandon
    the solve at a deadline or on Ctrl-C within a tenth of a second, which OR-Tools' solver,
    holding the GIL with no time limit, would not allow in-process.
    """

    def __init__(self, net: StringHubNetwork, cost: np.ndarray) -> None:
        self.proc: Any = None
        self.recv: Any = None
        self.done: tuple[np.ndarray, int] | None = None
        if net.m < FORK_MIN_ARCS or "fork" not in multiprocessing.get_all_start_methods():
            self.net, self.cost = net, cost
            return
        ctx = multiprocessing.get_context("fork")
        self.recv, send = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_child, args=(net, cost, send), daemon=True)
        self.proc.start()
        send.close()

    def result(self, deadline: float | None = None) -> tuple[np.ndarray, int]:
        """Wait for the solve; return ``(flows, optimal cost)``.

        Raises
        ------
        FlowStopped
            The deadline passed first (the child is stopped).
        KeyboardInterrupt
            Ctrl-C while waiting (the child is stopped).
        ModelError
            The solver failed.
        """
        if self.done is not None:
            return self.done
        if self.proc is None:
            if deadline is not None and time.perf_counter() >= deadline:
                raise FlowStopped
            self.done = _solve_flow_inline(self.net, self.cost)
            return self.done
        try:
            while not self.recv.poll(0.05):
                if deadline is not None and time.perf_counter() >= deadline:
                    raise FlowStopped
                if not self.proc.is_alive() and not self.recv.poll(0):
                    raise ModelError(f"the flow process died (exit code {self.proc.exitcode})")
            data = self.recv.recv_bytes()
        finally:
            self.close()
        if data[:1] == b"E":
            raise ModelError(data[1:].decode())
        value = int(np.frombuffer(data[:8], dtype=np.int64)[0])
        self.done = (np.frombuffer(data[8:], dtype=np.int64).copy(), value)
        return self.done

    def close(self) -> None:
        """Stop the child process, if any."""
        if self.proc is not None:
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join()
            self.recv.close()
            self.proc = None


def solve_flow(
    net: StringHubNetwork, cost: np.ndarray, deadline: float | None = None
) -> tuple[np.ndarray, int]:
    """Min-cost flow of the network with the given arc costs (see :class:`FlowJob`).

    Parameters
    ----------
    net : StringHubNetwork
    cost : numpy.ndarray of int64, shape (m,)
        Unit cost of each arc (negated scores).
    deadline : float, optional
        ``time.perf_counter()`` value after which the solve is abandoned.

    Returns
    -------
    flows : numpy.ndarray of int64, shape (m,)
    cost : int
        The optimal total cost.

    Raises
    ------
    FlowStopped
        The deadline passed first.
    KeyboardInterrupt
        Ctrl-C during the solve.
    ModelError
        The flow solver failed (the network is always feasible: a bug).
    """
    job = FlowJob(net, cost)
    try:
        return job.result(deadline)
    finally:
        job.close()


# ---------------------------------------------------------------------------------------------
# Decoding a flow into item successors, and merging cycles that share a hub.
# ---------------------------------------------------------------------------------------------


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
    node_rep : numpy.ndarray of int64, shape (num_nodes,)
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

    # Word exits: chains of copies on the self arcs, then units onto hubs.
    need_pred: dict[int, list[int]] = {}
    avail: dict[int, list[int]] = {}
    is_out = (s_tail >= out_base) & (s_tail < in_base)
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
        (s_tail[ho] - out_base).tolist(), s_head[ho].tolist(), s_flow[ho].tolist(),
        s_w[ho].tolist(), strict=True,
    ):  # fmt: skip
        units = avail.get(t)
        if units is None:
            units = avail[t] = list(copies[t])
        take = units[-f:]
        del units[-f:]
        ov = math.isqrt(wt)
        for u in take:
            handover[u] = ov
        pools.setdefault(h, []).extend(take)
    if not cyclic:
        pools.setdefault(0, []).append(depot)

    # Hub nodes in topological order.
    hub = ~is_out
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


def greedy_successors(net: StringHubNetwork, deadline: float | None = None) -> Decoded:
    """Longest-overlap-first matching of exits to entries, read as item successors.

    Parameters
    ----------
    net : StringHubNetwork

    deadline : float, optional
        ``time.perf_counter()`` value after which the matching stops (:class:`FlowStopped`).

    Returns
    -------
    Decoded
        Successors of a path-and-cycle cover, cycles merged where free, ready for
        :func:`patch_cycles`.

    Notes
    -----
    Hand-over strings are taken from the longest down; each exit still free is matched to the
    first free entry below its string in the trie (a "next free" union-find over the words in
    preorder, so every query is O(alpha(n))), never to itself. Squared overlaps satisfy the
    inverse Monge inequality ``ov(a,b)^2 + ov(c,d)^2 >= ov(a,d)^2 + ov(c,b)^2`` when ``ov(a,b)``
    is largest in its row and column (with ``u = ov(a,d)``, ``v = ov(c,b)``,
    ``ov(c,d) >= u + v - k``), the reason greedy matching does well on overlap graphs (Blum et
    al., "Linear approximation of shortest superstrings", J. ACM 41(4), 1994). O(total letters).
    """
    N = net.instance.n
    cyclic = net.instance.cyclic
    proper = net.instance.proper
    trie = net.trie
    W = net.num_words
    copies = item_copies(net)
    # Entries as slots in word (= preorder) order: slot_start[w] .. slot_start[w] + mult[w].
    slot_start = np.zeros(W + 1, dtype=np.int64)
    np.cumsum(net.mult, out=slot_start[1:])
    slot_item = [i for w in range(W) for i in copies[w]]
    total = len(slot_item)
    nxt = list(range(total + 1))  # next free slot at or after i (total = none)

    def free_from(i: int) -> int:
        root = i
        while nxt[root] != root:
            root = nxt[root]
        while nxt[i] != root:
            nxt[i], i = root, nxt[i]
        return root

    wn = trie.word_node.astype(np.int64)
    depth = trie.depth.astype(np.int64)
    # Candidate hand-overs (word, trie node of the string, first slot allowed): failure chains,
    # full overlaps (strictly below the word), deepest first.
    hw, hs = trie.suffix_nodes()
    if not proper:  # the whole word: words that strictly extend it
        hw = np.concatenate([np.arange(W, dtype=np.int64), hw])
        hs = np.concatenate([wn, hs])
    order = np.argsort(-depth[hs], kind="stable")
    hw, hs = hw[order], hs[order]
    lo_word = np.searchsorted(wn, hs)
    hi_word = np.searchsorted(wn, trie.end[hs], side="right")
    full = wn[hw] == hs
    strict = full | (proper & (wn[hw] != hs))  # words equal to the string are excluded
    lo_word = np.where(strict & (wn[np.minimum(lo_word, W - 1)] == hs), lo_word + 1, lo_word)
    succ = [-1] * (N + 1)
    handover = [0] * (N + 1)
    pending = [list(c) for c in copies]  # exits still free, per word
    by_string: dict[int, list[int]] = {}
    for count, (w, s, lo, hi) in enumerate(
        zip(hw.tolist(), hs.tolist(), lo_word.tolist(), hi_word.tolist(), strict=True)
    ):
        if not count & 0x3FFF and deadline is not None and time.perf_counter() >= deadline:
            raise FlowStopped
        units = pending[w]
        if not units or lo >= hi:
            continue
        d = int(depth[s])
        a, b = int(slot_start[lo]), int(slot_start[hi])
        while units:
            slot = free_from(a)
            if slot >= b:
                break
            item = slot_item[slot]
            if net.item_word[item] == w and item == units[-1]:
                # never the same item; try the next free slot
                nxt_slot = free_from(slot + 1)
                if nxt_slot >= b:
                    break
                slot, item = nxt_slot, slot_item[nxt_slot]
            u = units.pop()
            succ[u] = item
            handover[u] = d
            nxt[slot] = slot + 1
            by_string.setdefault(s, []).append(u)
    # Unmatched exits and entries: joined through the depot (paths concatenated).
    heads = [slot_item[i] for i in range(total) if free_from(i) == i]
    tails = [u for units in pending for u in units]
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
    # Units handed over at one string can exchange destinations (all lie below it), and so can
    # the zero joints.
    groups = [*by_string.values(), tails]
    comp, ncyc, merges = merge_cycles(succ, handover, groups, copies, N, cyclic)
    node_rep = np.full(net.num_nodes, -1, dtype=np.int64)
    return Decoded(succ, comp, node_rep, handover, cycles=ncyc, merges=merges)


# ---------------------------------------------------------------------------------------------
# Model-side overlaps (the independent checker recomputes them separately).
# ---------------------------------------------------------------------------------------------


def overlap(a: str, b: str, proper: bool) -> int:
    """Maximal suffix-prefix overlap, model side (the checker has its own implementation).

    Parameters
    ----------
    a, b : str
    proper : bool
        Restrict to ``k < min(len(a), len(b))``.

    Returns
    -------
    int
        The largest ``k`` with ``a[-k:] == b[:k]``, in letters.

    Notes
    -----
    Short words: only positions where ``b``'s candidate last letter equals ``a``'s last letter
    are compared. Words longer than 48 letters: the Knuth-Morris-Pratt prefix function of
    ``b`` run along the tail of ``a``, O(len(a) + len(b)).

    Examples
    --------
    >>> overlap("seasick", "sickle", False), overlap("beret", "berets", True)
    (4, 0)
    """
    top = min(len(a), len(b)) - (1 if proper else 0)
    if top <= 0:
        return 0
    if top <= 48:
        # Candidate starts: the last letter of the overlap, b[k - 1], equals a's last letter.
        last = a[-1]
        k = b.rfind(last, 0, top)
        while k >= 0:
            if a[len(a) - k - 1 :] == b[: k + 1]:
                return k + 1
            k = b.rfind(last, 0, k)
        return 0
    # Prefix function of b[:top] matched along the tail of a.
    p = b[:top]
    pi = [0] * top
    j = 0
    for i in range(1, top):
        while j and p[i] != p[j]:
            j = pi[j - 1]
        if p[i] == p[j]:
            j += 1
        pi[i] = j
    j = 0
    for ch in a[len(a) - top :]:
        while j and ch != p[j]:
            j = pi[j - 1]
        if ch == p[j]:
            j += 1
    return j  # the text has top letters, so j reaches top only at its end


class PairScore:
    """Squared overlaps of item pairs: ``pair(a, b) = overlap(words[a], words[b]) ** 2``.

    Item ``N`` (the depot) and an item with itself score 0.

    Parameters
    ----------
    net : StringHubNetwork
        Gives the words, their number ``N`` and the ``proper`` rule.
    """

    def __init__(self, net: StringHubNetwork) -> None:
        self.words = net.instance.words
        self.n = net.instance.n
        self.proper = net.instance.proper

    def __call__(self, a: int, b: int) -> int:
        if a == b or a >= self.n or b >= self.n:
            return 0
        k = overlap(self.words[a], self.words[b], self.proper)
        return k * k


def order_from_succ(succ: list[int], n: int, cyclic: bool) -> list[int]:
    """The item sequence of a single-cycle successor map.

    Parameters
    ----------
    succ : list of int, length n + 1
        Successors; index ``n`` is the depot of a linear snake.
    n : int
        Number of items.
    cyclic : bool
        Read from item 0 (cyclic) or from the depot's successor (linear).

    Returns
    -------
    list of int
        The items in snake order.
    """
    start = succ[n] if not cyclic else 0
    seq = [start]
    j = succ[start]
    while j != start and j != n:
        seq.append(j)
        j = succ[j]
    return seq


def score_sequence(seq: list[int], pair: PairScore, cyclic: bool) -> int:
    """Model-side score of an item sequence (the checker recomputes it independently).

    Parameters
    ----------
    seq : list of int
        Items in snake order.
    pair : PairScore
    cyclic : bool
        Whether the pair last -> first scores too.

    Returns
    -------
    int
        Sum of squared overlaps.
    """
    s = sum(pair(a, b) for a, b in itertools.pairwise(seq))
    if cyclic and len(seq) > 1:
        s += pair(seq[-1], seq[0])
    return s


# ---------------------------------------------------------------------------------------------
# Repair: patch the remaining cycles into the main one.
# ---------------------------------------------------------------------------------------------


class _Index:
    """Candidate joints by overlap string: words below a trie node, words ending with a node."""

    def __init__(self, net: StringHubNetwork) -> None:
        trie = net.trie
        self.net = net
        self.copies = item_copies(net)
        self.word_node = trie.word_node.astype(np.int64)
        # Words having each trie node as a suffix: the failure chains (hand-over records).
        ho = net.role == HANDOVER
        outs = (net.tail >= net.out_base) & (net.tail < net.in_base)
        sel = ho & outs
        w = net.tail[sel] - net.out_base
        h = net.head[sel]
        # Map hand-over heads back to trie nodes: H(s) = s, H+(w) -> word node, private -> skip.
        T, W = trie.size, net.num_words
        node = np.where(h < T, h, -1)
        plus = (h >= T) & (h < T + W)
        node[plus] = self.word_node[h[plus] - T]
        keep = node > 0
        order = np.argsort(node[keep], kind="stable")
        self.suf_node = node[keep][order]
        self.suf_word = w[keep][order]

    def words_below(self, node: int, limit: int) -> list[int]:
        lo = int(np.searchsorted(self.word_node, node))
        hi = int(np.searchsorted(self.word_node, self.net.trie.end[node], side="right"))
        return list(range(lo, min(hi, lo + limit)))

    def words_ending(self, node: int, limit: int) -> list[int]:
        lo, hi = np.searchsorted(self.suf_node, [node, node + 1])
        out = self.suf_word[lo : min(hi, lo + limit)].tolist()
        word = int(self.net.trie.node_word[node])
        if word >= 0:
            out.append(word)
        return out


def patch_cycles(
    net: StringHubNetwork,
    dec: Decoded,
    pair: PairScore,
    index: _Index | Callable[[], _Index] | None = None,
    limit: int = 24,
    deadline: float | None = None,
) -> list[int]:
    """Join every cycle into the main one by the best 2-exchange found; return the item order.

    Parameters
    ----------
    net : StringHubNetwork
    dec : Decoded
        Successors after merging (modified in place).
    pair : PairScore
    index : _Index or callable, optional
        Candidate index, or a function returning it (called only when a cycle must be patched);
        built when omitted.
    limit : int
        Candidate words examined per overlap string.
    deadline : float, optional
        After it, remaining cycles are joined at the depot (cut at their weakest joint).

    Returns
    -------
    list of int
        The item sequence.

    Notes
    -----
    For a cycle ``C`` and a joint ``u -> v`` of ``C``, the exchange with a joint ``x -> y`` of the
    main cycle gives ``x -> v`` and ``u -> y``. Candidates ``y`` are the words below the suffixes of
    ``u`` in the trie and ``x`` the words that end with a prefix of ``v``, longest overlaps first;
    the depot joints (both ends of a linear snake) are always candidates.
    """
    N = net.instance.n
    cyclic = net.instance.cyclic
    succ = dec.succ
    comp = dec.comp
    trie = net.trie
    main = comp[N] if not cyclic else max(set(comp[:N]), key=comp[:N].count)
    groups: dict[int, list[int]] = {}
    for i in range(N):
        if comp[i] != main:
            groups.setdefault(comp[i], []).append(i)
    if not groups:
        return order_from_succ(succ, N, cyclic)
    if index is None:
        index = _Index(net)
    elif callable(index):
        index = index()
    pred = [0] * (N + 1)
    for i, s in enumerate(succ):
        pred[s] = i
    in_main = [c == main for c in comp]
    if cyclic:
        in_main[N] = False
    item_word = net.item_word
    for members in sorted(groups.values(), key=len):
        best: tuple[int, int, int] | None = None  # (gain, u, x)
        for u in members:
            v = succ[u]
            base = pair(u, v)
            cands: set[int] = set()
            if not cyclic:
                cands.update((pred[N], N))
            if deadline is None or time.perf_counter() < deadline:
                # y below a suffix of u: x = pred[y].
                node = int(trie.word_node[item_word[u]])
                chain = [node]
                f = int(trie.fail[node])
                while f > 0 and len(chain) < 8:
                    chain.append(f)
                    f = int(trie.fail[f])
                for s in chain:
                    for w in index.words_below(s, limit):
                        for y in index.copies[w]:
                            if in_main[y]:
                                cands.add(pred[y])
                # x ending with a prefix of v.
                p = int(trie.word_node[item_word[v]])
                steps = 0
                while p > 0 and steps < 8:
                    for w in index.words_ending(p, limit):
                        for x in index.copies[w]:
                            if in_main[x]:
                                cands.add(x)
                    p = int(trie.parent[p])
                    steps += 1
            for x in cands:
                if not (x == N or in_main[x]):
                    continue
                y = succ[x]
                gain = pair(x, v) + pair(u, y) - pair(x, y) - base
                if best is None or gain > best[0]:
                    best = (gain, u, x)
        if best is None:  # cyclic, no candidate: join anywhere
            u = members[0]
            x = next(i for i in range(N) if in_main[i])
            best = (0, u, x)
        gain, u, x = best
        dec.extra.setdefault("losses", {})[comp[members[0]]] = max(0, -gain)
        v, y = succ[u], succ[x]
        succ[x], succ[u] = v, y
        pred[v], pred[y] = x, u
        for i in members:
            in_main[i] = True
    return order_from_succ(succ, N, cyclic)


# ---------------------------------------------------------------------------------------------
# The whole pipeline.
# ---------------------------------------------------------------------------------------------


ProgressCallback = Callable[[float, float | None, float | None, str], None]


@dataclass
class FlowDual:
    """The flow iterate that gave the best bound, for reduced-cost fixing.

    Attributes
    ----------
    cost : numpy.ndarray of int64, shape (m,)
        The arc costs of that iterate (``-scale * weight`` less the multipliers' bonus).
    flows : numpy.ndarray of int64, shape (m,)
        Its optimal flow.
    value_scaled : int
        Its Lagrangian value in cost units: ``scale * bound <= value_scaled < scale * (bound + 1)``.
    scale : int
        Cost units per score point (1 for plain costs, ``SCALE`` for Lagrangian iterates).
    """

    cost: np.ndarray
    flows: np.ndarray
    value_scaled: int
    scale: int


@dataclass
class FlowOutcome:
    """What the string-hub pipeline proved and found.

    Attributes
    ----------
    order : list of int or None
        Best item sequence found (None when stopped before the first flow).
    objective : int or None
        Its model-side score.
    bound : int or None
        Best proven upper bound (floored).
    proven : bool
        ``objective == bound``.
    stopped : str or None
        ``"time"`` or ``"interrupt"`` when a limit stopped the pipeline.
    info : dict
        Sizes, iteration counts and stage times.
    dual : FlowDual or None
        The iterate with the best bound (None when stopped before the first flow).
    """

    order: list[int] | None
    objective: int | None
    bound: int | None
    proven: bool
    stopped: str | None
    info: dict[str, Any]
    dual: FlowDual | None = None


def solve_string_flow(
    net: StringHubNetwork,
    *,
    deadline: float | None = None,
    start: float | None = None,
    progress: ProgressCallback | None = None,
    lagrangian_iterations: int = 50,
    stall_limit: int = 6,
    incumbent: list[int] | None = None,
) -> FlowOutcome:
    """Flow relaxation, certificate, repair and Lagrangian bound on a string-hub network.

    Parameters
    ----------
    net : StringHubNetwork
    deadline : float, optional
        ``time.perf_counter()`` value at which to stop with the best answer so far.
    start : float, optional
        Reference time for progress reports.
    progress : callable, optional
        ``progress(elapsed, incumbent, bound, stage)``.
    lagrangian_iterations : int
        Most flow solves spent on tightening the bound.
    stall_limit : int
        Stop tightening after this many iterations without a better bound.
    incumbent : list of int, optional
        A starting item sequence.

    Returns
    -------
    FlowOutcome
        Never raises on a limit: Ctrl-C (KeyboardInterrupt) and the deadline end the pipeline
        with ``stopped`` set.

    Notes
    -----
    Lagrangian relaxation of the cuts ``x(delta_in(S)) >= 1``: with multipliers
    ``lambda_S >= 0``, ``L(lambda) = max_x sum_a (w_a + sum_{S: a in delta_in(S)} lambda_S) x_a -
    sum_S lambda_S`` over the flow polytope is an upper bound for every ``lambda``; its floor is
    a bound on the integer scores. Subgradient steps ``lambda_S += t (1 - x(delta_in(S)))``
    (Polyak step to the incumbent), costs scaled by ``SCALE`` to stay integral.

    References
    ----------
    M. Held, R. M. Karp, "The traveling-salesman problem and minimum spanning trees: Part II",
    Mathematical Programming 1 (1971) (Lagrangian relaxation, subgradient optimisation).
    """
    t0 = time.perf_counter() if start is None else start
    N = net.instance.n
    cyclic = net.instance.cyclic
    pair = PairScore(net)
    info: dict[str, Any] = {"arcs": net.m, "nodes": net.num_nodes, "trie_nodes": net.trie.size}
    best_seq = incumbent
    best = score_sequence(incumbent, pair, cyclic) if incumbent is not None else None
    bound: int | None = None
    stopped: str | None = None
    dual: FlowDual | None = None
    cuts: list[np.ndarray] = []
    lam: list[float] = []
    base_cost = -SCALE * net.weight

    def report(stage: str) -> None:
        if progress is not None:
            progress(time.perf_counter() - t0, best, bound, stage)

    def consider(seq: list[int]) -> None:
        nonlocal best, best_seq
        value = score_sequence(seq, pair, cyclic)
        if best is None or value > best:
            best, best_seq = value, seq

    it = 0
    stall = 0
    job: FlowJob | None = None
    try:
        report("solving the flow relaxation; greedy start")
        # The first solve has plain costs (fewer cost-scaling phases than scaled ones); the
        # Lagrangian iterates scale them to carry fractional multipliers.
        scale = 1
        cost = -net.weight
        job = FlowJob(net, cost)  # runs in a child process on large networks
        index_cache: list[_Index] = []

        def index() -> _Index:
            if not index_cache:
                index_cache.append(_Index(net))
            return index_cache[0]

        consider(
            patch_cycles(net, greedy_successors(net, deadline), pair, index, deadline=deadline)
        )
        report("solving the flow relaxation")
        while True:
            try:
                flows, opt = job.result(deadline)
            finally:
                job.close()
            penalty = round(sum(scale * x for x in lam))  # multipliers are integral/SCALE
            value_scaled = -opt - penalty
            this_bound = value_scaled // scale
            if it == 0:
                info["flow_bound"] = this_bound
                info["flow_time"] = time.perf_counter() - t0
            stall = 0 if bound is None or this_bound < bound else stall + 1
            if dual is None or value_scaled * dual.scale < dual.value_scaled * scale:
                dual = FlowDual(cost, flows, value_scaled, scale)
            bound = this_bound if bound is None else min(bound, this_bound)
            if best is not None and best >= bound:
                break  # the incumbent meets the bound: no need to decode this flow
            dec = decode_flow(net, flows, deadline)
            comps = len(set(dec.comp[: N + (0 if cyclic else 1)]))
            if it == 0:
                info["flow_cycles"] = dec.cycles
                info["flow_components"] = comps
            report("repairing" if comps > 1 else "reading the certificate")
            seq = patch_cycles(net, dec, pair, index, deadline=deadline)
            consider(seq)
            report("bounding")
            if best is not None and best >= bound:
                break
            if it >= lagrangian_iterations or stall >= stall_limit:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                stopped = "time"
                break
            # New cuts from this iterate's components, then a subgradient step.
            # New cuts start at the loss their component's patch cost: if no cheaper way into
            # any of them exists, the next bound equals the incumbent (a proof in one step).
            losses = dec.extra.get("losses", {})
            for label, arcs in _component_cuts(net, dec, flows):
                cuts.append(arcs)
                lam.append(float(losses.get(label, 0)))
            g = np.array([1 - int(flows[c].sum()) for c in cuts], dtype=float)
            norm = float((g * g).sum())
            if norm == 0:
                break
            step = 1.0 * (value_scaled / scale - float(best or 0)) / norm
            for i in range(len(cuts)):
                lam[i] = max(0.0, lam[i] + step * g[i])
                lam[i] = round(lam[i] * SCALE) / SCALE
            bonus = np.zeros(net.m, dtype=np.int64)
            for c, x in zip(cuts, lam, strict=True):
                if x > 0:
                    np.add.at(bonus, c, round(x * SCALE))
            scale = SCALE
            cost = base_cost - bonus
            job = FlowJob(net, cost)
            it += 1
            report("bounding")
    except FlowStopped:
        stopped = "time"
    except KeyboardInterrupt:
        stopped = "interrupt"
    finally:
        if job is not None:
            job.close()  # a child still solving is stopped at once
    info["lagrangian_iterations"] = it
    info["cuts"] = len(cuts)
    proven = best is not None and bound is not None and best >= bound
    return FlowOutcome(best_seq, best, bound, proven, stopped, info, dual)


def _component_cuts(
    net: StringHubNetwork, dec: Decoded, flows: np.ndarray
) -> list[tuple[int, np.ndarray]]:
    """Arcs entering each support component that misses the root, by component label."""
    N = net.instance.n
    cyclic = net.instance.cyclic
    comp = np.array(dec.comp, dtype=np.int64)
    root_comp = comp[N] if not cyclic else np.bincount(comp[:N]).argmax()
    node_comp = np.full(net.num_nodes, -1, dtype=np.int64)
    rep = dec.node_rep
    has = rep >= 0
    node_comp[has] = comp[rep[has]]
    # Only nodes that carry flow belong to a component (word nodes always do).
    used = np.zeros(net.num_nodes, dtype=bool)
    sup = flows > 0
    used[net.tail[sup]] = True
    used[net.head[sup]] = True
    node_comp[~used] = -1
    node_comp[node_comp == root_comp] = -1
    hc = node_comp[net.head]
    tc = node_comp[net.tail]
    entering = (hc >= 0) & (tc != hc) & (net.role != ROOTLINK)
    arcs = np.nonzero(entering)[0]
    labels = hc[arcs]
    order = np.argsort(labels, kind="stable")
    arcs, labels = arcs[order], labels[order]
    splits = np.nonzero(np.diff(labels))[0] + 1
    return [(int(hc[a[0]]), a) for a in np.split(arcs, splits) if a.size]
