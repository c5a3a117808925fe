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
Time O(total letters x log(words)) for the range searches; memory O(words).
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Sequence

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
    # Candidate joints (overlap k, tail a): every proper suffix of a that starts some word.
    cand: list[tuple[int, int, int, int]] = []
    for a, w in enumerate(words):
        for k in range(len(w) - 1, 0, -1):
            s = w[-k:]
            lo = bisect.bisect_left(words, s)
            if lo < n and words[lo].startswith(s):
                cand.append((-k, a, lo, bisect.bisect_left(words, s + _TOP, lo)))
    cand.sort()
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

    for count, (_, a, lo, hi) in enumerate(cand):
        if deadline is not None and not count & 0x3FFF and time.perf_counter() > deadline:
            break
        if succ[a] >= 0:
            continue
        b = free(lo)
        if b == head_of[a]:  # a's own string: joining would close a cycle
            b = free(b + 1)
        if b >= hi:
            continue
        succ[a] = b
        nxt[b] = b + 1
        h, t = head_of[a], tail_of[b]
        head_of[t] = h
        tail_of[h] = t
    order: list[str] = []
    for h in range(n):
        if free(h) == h:  # no predecessor: the first word of a string
            x = h
            while x >= 0:
                order.append(words[x])
                x = succ[x]
    return order
