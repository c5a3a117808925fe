"""The greedy superstring: repeatedly merge the two strings that overlap most.

The classic heuristic of the shortest common superstring (Tarhio and Ukkonen 1988; Turner 1989;
"GREEDY" in Blum, Jiang, Li, Tromp and Yannakakis, J. ACM 41(4), 1994, who prove it within a
factor 4 of the optimum; conjectured 2), the way the posters of the codegolf challenge started.
On a substring-free list it picks joints of the overlap graph by decreasing overlap, each
joining the end of one string to the start of another (no word gets two successors or two
predecessors, no cycle), then concatenates what is left. Here the joints of overlap ``k`` are
found for all words at once, longest first: for each word ``a`` and each suffix ``s`` of ``a``
shorter than ``a``, the words that start with ``s`` are a range of the sorted words, and a
"next word without a predecessor" union-find (over the sorted words) gives the first one still
free in O(alpha) (the head of ``a``'s own string is skipped: joining it would close a cycle).
A word leaves the pool once it has a successor. Time O(total letters x log(words)) for the
range searches at most; memory O(words).
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable, Sequence

#: Above every letter (the ranges of words that start with a string end below ``s + _TOP``).
_TOP = chr(0x10FFFF)


def greedy_order(kept: Sequence[str], deadline: float | None = None) -> list[str]:
    """The greedy superstring's order of a substring-free list of distinct words.

    Parameters
    ----------
    kept : sequence of str
        Distinct words, none contained in another (:func:`~cpwords.superstring.models.reduce.
        reduce_words` leaves them so).
    deadline : float, optional
        ``time.perf_counter()`` value after which the merging stops: the strings merged so
        far are concatenated as they are (still a superstring).

    Returns
    -------
    list of str
        Every word once: the greedy strings one after the other, each in its order.

    Examples
    --------
    >>> greedy_order(["atom", "cat", "tomb"])
    ['cat', 'atom', 'tomb']
    """
    words = sorted(kept)
    n = len(words)
    succ = [-1] * n
    nxt = list(range(n + 1))  # next word without a predecessor, at or after i (n: none)
    head_of = list(range(n))  # for the last word of a string: its first word
    tail_of = list(range(n))  # for the first word of a string: its last word

    def free(i: int) -> int:
        root = i
        while nxt[root] != root:
            root = nxt[root]
        while nxt[i] != root:
            nxt[i], i = root, nxt[i]
        return root

    # Overlaps of k letters for every word at once, the longest first; a word that has its
    # successor leaves the pool (most words of a k-mer set find theirs at k - 1).
    by_length = sorted(range(n), key=lambda i: -len(words[i]))
    pool: list[int] = []
    added = 0
    count = 0
    for k in range(max((len(w) for w in words), default=1) - 1, 0, -1):
        while added < n and len(words[by_length[added]]) > k:
            pool.append(by_length[added])
            added += 1
        pool = sorted(a for a in pool if succ[a] < 0)
        for a in pool:
            count += 1
            if deadline is not None and not count & 0x3FFF and time.perf_counter() > deadline:
                return _strings(words, succ, free)
            if succ[a] >= 0:
                continue
            s = words[a][-k:]
            lo = bisect.bisect_left(words, s)
            if lo == n or not words[lo].startswith(s):
                continue
            b = free(lo)
            if b == head_of[a]:  # a's own string: joining would close a cycle
                b = free(b + 1)
            if b >= n or not words[b].startswith(s):
                continue
            succ[a] = b
            nxt[b] = b + 1
            h, t = head_of[a], tail_of[b]
            head_of[t] = h
            tail_of[h] = t
    return _strings(words, succ, free)


def _strings(words: list[str], succ: list[int], free: Callable[[int], int]) -> list[str]:
    """The merged strings one after the other, each from its first word."""
    order: list[str] = []
    for h in range(len(words)):
        if free(h) == h:  # no predecessor: the first word of a string
            x = h
            while x >= 0:
                order.append(words[x])
                x = succ[x]
    return order
