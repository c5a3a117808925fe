"""Repair: patch the cycles of a successor map into one ordering by the best 2-exchanges.

Candidates are indexed by overlap string (longest first); pairs are scored from the strings.

Formulation card: ``models/wordsnake.md``.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable

import numpy as np

from cpwords.wordsnake.relaxation.decode import Decoded, item_copies
from cpwords.wordsnake.relaxation.string_hub import (
    HANDOVER,
    StringHubNetwork,
)


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
    """Squared overlaps of item pairs: ``pair(a, b) = overlap(words[a], words[b]) ** 2``
    (the overlap itself with the instance's linear score).

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
        self.weight = net.instance.weight
        self.trie = net.trie
        self.item_word = net.item_word

    def __call__(self, a: int, b: int) -> int:
        if a == b or a >= self.n or b >= self.n:
            return 0
        return self.weight(overlap(self.words[a], self.words[b], self.proper))

    def many(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Squared overlaps of many pairs at once, by the trie's failure links.

        Parameters
        ----------
        a, b : numpy.ndarray of int, shape (p,)
            Items (``N``: the depot).

        Returns
        -------
        numpy.ndarray of int64, shape (p,)
            ``pair(a[i], b[i])`` for each ``i``.

        Notes
        -----
        The overlap of ``a`` and ``b`` is the longest suffix of ``a`` that is a prefix of
        ``b``: the deepest node on the failure chain of ``a``'s node (the node itself first,
        a whole-word overlap) whose subtree holds ``b``'s node (node ids are in preorder). One
        vectorised step per link of the longest chain, instead of one string comparison loop
        per pair (web2: 0.05 s instead of 0.8 s for a whole ordering).
        """
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        out = np.zeros(a.shape[0], dtype=np.int64)
        live = np.nonzero((a != b) & (a < self.n) & (b < self.n))[0]
        if live.size == 0:
            return out
        trie = self.trie
        wn = trie.word_node.astype(np.int64)
        na = wn[self.item_word[a[live]]]
        nb = wn[self.item_word[b[live]]]
        depth = trie.depth.astype(np.int64)
        top = np.minimum(depth[na], depth[nb]) - (1 if self.proper else 0)
        cur = na
        while live.size:
            inside = (cur <= nb) & (nb <= trie.end[cur]) & (depth[cur] <= top)
            hit = inside & (cur > 0)
            out[live[hit]] = self.weight(depth[cur[hit]])
            keep = ~inside & (cur > 0)
            live, cur, nb, top = (
                live[keep],
                trie.fail[cur[keep]].astype(np.int64),
                nb[keep],
                top[keep],
            )
        return out


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
    if len(seq) < 2:
        return 0
    arr = np.asarray(seq, dtype=np.int64)
    s = int(pair.many(arr[:-1], arr[1:]).sum())
    if cyclic:
        s += pair(seq[-1], seq[0])
    return s


# ---------------------------------------------------------------------------------------------
# Repair: patch the remaining cycles into the main one.
# ---------------------------------------------------------------------------------------------


class CandidateIndex:
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
        # As Python lists, searched by bisect: the repair asks one node at a time, hundreds of
        # thousands of times (phage lambda's 31-mers: 0.78 M array searches of one value each
        # cost 7 s of a 25 s profile).
        self._word_node = self.word_node.tolist()
        self._suf_node = self.suf_node.tolist()
        self._suf_word = self.suf_word.tolist()
        self._end = trie.end
        self._node_word = trie.node_word

    def words_below(self, node: int, limit: int) -> list[int]:
        """Up to ``limit`` words (ids) that start with the node's string."""
        lo = bisect.bisect_left(self._word_node, node)
        hi = bisect.bisect_right(self._word_node, int(self._end[node]), lo)
        return list(range(lo, min(hi, lo + limit)))

    def words_ending(self, node: int, limit: int) -> list[int]:
        """Up to ``limit`` words that end with the node's string, and the node's own word."""
        lo = bisect.bisect_left(self._suf_node, node)
        hi = bisect.bisect_left(self._suf_node, node + 1, lo)
        out = self._suf_word[lo : min(hi, lo + limit)]
        word = int(self._node_word[node])
        if word >= 0:
            out.append(word)
        return out


def patch_cycles(
    net: StringHubNetwork,
    dec: Decoded,
    pair: PairScore,
    index: CandidateIndex | Callable[[], CandidateIndex] | None = None,
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
    index : CandidateIndex or callable, optional
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
    main = comp[N] if not cyclic else max(set(comp[:N]), key=comp[:N].count)
    groups: dict[int, list[int]] = {}
    for i in range(N):
        if comp[i] != main:
            groups.setdefault(comp[i], []).append(i)
    if not groups:
        return order_from_succ(succ, N, cyclic)
    if deadline is not None and time.perf_counter() >= deadline:
        index = None  # only the depot's joints are tried: no index (0.5 s on a dictionary)
    elif index is None:
        index = CandidateIndex(net)
    elif callable(index):
        index = index()
    pred = [0] * (N + 1)
    for i, s in enumerate(succ):
        pred[s] = i
    in_main = [c == main for c in comp]
    if cyclic:
        in_main[N] = False
    for members in sorted(groups.values(), key=len):
        best = _best_exchange(net, members, succ, pred, in_main, pair, index, limit, deadline)
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


def _best_exchange(
    net: StringHubNetwork,
    members: list[int],
    succ: list[int],
    pred: list[int],
    in_main: list[bool],
    pair: PairScore,
    index: CandidateIndex | None,
    limit: int,
    deadline: float | None,
) -> tuple[int, int, int] | None:
    """The best 2-exchange ``(gain, u, x)`` joining the cycle ``members`` to the main one
    (None: no candidate; without ``index``, or past ``deadline``, the depot's joints only)."""
    N = net.instance.n
    cyclic = net.instance.cyclic
    trie = net.trie
    item_word = net.item_word
    best: tuple[int, int, int] | None = None  # (gain, u, x)
    for u in members:
        v = succ[u]
        base = pair(u, v)
        cands: set[int] = set()
        if not cyclic:
            cands.update((pred[N], N))
        if index is not None and (deadline is None or time.perf_counter() < deadline):
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
    return best


# ---------------------------------------------------------------------------------------------
# The whole pipeline.
# ---------------------------------------------------------------------------------------------
