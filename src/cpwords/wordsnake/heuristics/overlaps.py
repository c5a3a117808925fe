"""Maximal overlaps of a word list in memory linear in its letters, for the heuristics.

The explicit overlap graph (:func:`cpwords.wordsnake.rules.overlap_graph`) stores one arc per
pair of words that overlap, and every prefix of every word as a string: on ENABLE (172,820
words) that is tens of millions of arcs, and three words of 120,000 letters take 7 GB. The
heuristics only ever ask four questions, which two Aho-Corasick tries answer without any arc:

* the maximal overlap of one given pair (:meth:`OverlapIndex.overlap`);
* the words that may follow a word, by decreasing overlap (:meth:`OverlapIndex.out`);
* the words that may precede a word, by decreasing overlap (:meth:`OverlapIndex.inn`);
* for an overlap string ``s``, the words that begin with ``s`` (a contiguous range of the words
  in sorted order, :meth:`OverlapIndex.beginning`).

The suffixes of a word ``a`` that begin some word are the nodes on the failure chain of ``a``'s
node in the trie of the words, longest first; the words beginning with such a suffix are a range
of ranks in sorted order. The prefixes of ``b`` that end some word are, symmetrically, the
failure chain of ``b`` reversed in the trie of the reversed words. Both tries have at most one
node per letter, so the index is O(total letters) in time and memory.
"""

from __future__ import annotations

import itertools
import time
from array import array
from collections.abc import Iterator, Sequence


class IndexStopped(Exception):
    """The deadline passed while the tries were built (nothing is usable)."""


def _check(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise IndexStopped("the time limit passed while indexing the words")


#: Letters indexed between two looks at the clock (500 words of 10,000 letters were indexed
#: for 9 s past a 2 s limit when the clock was read every 16,384 words).
CHECK_LETTERS = 1 << 14


def _by_depth(depth: array[int]) -> list[int]:
    """The trie's nodes by increasing depth (ties in preorder), the root first: NumPy's stable
    sort (a Python sort of millions of nodes took seconds between two looks at the clock)."""
    import numpy as np

    return np.argsort(np.frombuffer(depth, dtype=np.int32), kind="stable").tolist()


class _Trie:
    """Prefix trie of a word list, with failure links and the sorted ranks under each node.

    Nodes are numbered in preorder (the words are inserted in sorted order), the root is 0.
    ``lo[v]:hi[v]`` is the range of ranks (positions in sorted order, ties by index) of the words
    that begin with node ``v``'s string; the ``ends[v]`` words equal to that string come first.
    """

    __slots__ = ("depth", "ends", "fail", "hi", "lo", "node", "order", "rank")

    def __init__(self, words: Sequence[str], deadline: float | None = None) -> None:
        n = len(words)
        order = sorted(range(n), key=words.__getitem__)
        self.order = array("i", order)
        self.rank = array("i", bytes(4 * n))
        self.node = array("i", bytes(4 * n))
        depth, lo, hi, ends = array("i", [0]), array("i", [0]), array("i", [n]), array("i", [0])
        parent, char = array("i", [0]), [""]
        child: dict[tuple[int, str], int] = {}
        path = [0]
        prev = ""
        letters = 0  # added since the last look at the clock
        for r, i in enumerate(order):
            w = words[i]
            letters += len(w)
            if letters >= CHECK_LETTERS or not r:
                _check(deadline)
                letters = 0
            self.rank[i] = r
            m = min(len(prev), len(w))
            lcp = 0
            while lcp < m and prev[lcp] == w[lcp]:
                lcp += 1
            del path[lcp + 1 :]
            for d in range(1, lcp + 1):
                hi[path[d]] = r + 1
            for d in range(lcp, len(w)):
                if not (d + 1) % CHECK_LETTERS:  # a long word: the clock within it too
                    _check(deadline)
                v = len(depth)
                child[(path[d], w[d])] = v
                path.append(v)
                depth.append(d + 1)
                lo.append(r)
                hi.append(r + 1)
                ends.append(0)
                parent.append(path[d])
                char.append(w[d])
            v = path[len(w)]
            ends[v] += 1
            self.node[i] = v
            prev = w
        # Failure links (Aho and Corasick), by increasing depth: the longest proper suffix of a
        # node's string that is itself a node.
        fail = array("i", bytes(4 * len(depth)))
        _check(deadline)
        for count, v in enumerate(_by_depth(depth)):
            if not count & 0x3FFF:
                _check(deadline)
            if depth[v] <= 1:
                continue
            c, f = char[v], fail[parent[v]]
            while True:
                u = child.get((f, c))
                if u is not None:
                    fail[v] = u
                    break
                if f == 0:
                    break
                f = fail[f]
        self.depth, self.lo, self.hi, self.ends, self.fail = depth, lo, hi, ends, fail

    @property
    def size(self) -> int:
        """Number of nodes, the root included."""
        return len(self.depth)


class OverlapIndex:
    """Maximal suffix-prefix overlaps of a list of words, answered from two tries.

    Parameters
    ----------
    words : sequence of str
        The items, in input order (a repeated word is two items).
    proper : bool
        Restrict overlaps to ``k < min(len(a), len(b))``.
    cyclic : bool
        Whether :meth:`score` counts the pair last -> first.
    deadline : float, optional
        ``time.perf_counter()`` value after which the construction stops.
    score : {"squared", "linear"}
        What :meth:`weight` gives: the squared overlap, or the overlap.

    Raises
    ------
    IndexStopped
        The deadline passed during the construction.

    Notes
    -----
    Memory and time O(total letters): each trie has at most one node per letter, and nothing
    per pair of words is stored. Ties between words of equal overlap are broken by rank: the
    word first in sorted (code point) order, then the first listed.

    Examples
    --------
    >>> ix = OverlapIndex(["run", "nausea", "seasick"])
    >>> ix.overlap(1, 2), ix.overlap(0, 1), ix.overlap(2, 0)
    (3, 1, 0)
    >>> ix.out(1), ix.inn(2)
    ([2], [1])
    >>> ix.score([0, 1, 2])
    10
    """

    def __init__(
        self,
        words: Sequence[str],
        *,
        proper: bool = False,
        cyclic: bool = False,
        deadline: float | None = None,
        score: str = "squared",
    ) -> None:
        self.words = tuple(words)
        self.n = len(self.words)
        self.proper = proper
        self.cyclic = cyclic
        self.linear = score == "linear"
        self.lengths = [len(w) for w in self.words]
        self.heads = _Trie(self.words, deadline)
        self.tails = _Trie([w[::-1] for w in self.words], deadline)

    def chain(self, trie: _Trie, i: int) -> Iterator[int]:
        """Nodes of ``trie`` on item ``i``'s failure chain that may overlap, longest first.

        In :attr:`heads` these are the suffixes of word ``i`` that begin some word; in
        :attr:`tails` the prefixes of word ``i`` that end some word (reversed). Under ``proper``
        the whole word is left out.
        """
        v = trie.node[i]
        if self.proper and trie.depth[v] >= self.lengths[i]:
            v = trie.fail[v]
        fail = trie.fail
        while v:
            yield v
            v = fail[v]

    def first(self, trie: _Trie, v: int) -> int:
        """First rank under node ``v`` that may overlap (under ``proper``, not the node's word)."""
        return trie.lo[v] + (trie.ends[v] if self.proper else 0)

    def beginning(self, v: int) -> Sequence[int]:
        """The items that begin with :attr:`heads` node ``v``'s string (and may overlap it),
        in rank order."""
        t = self.heads
        return t.order[self.first(t, v) : t.hi[v]]

    def overlap(self, a: int, b: int) -> int:
        """Maximal overlap of item ``a`` followed by item ``b`` (0 when ``a == b``)."""
        if a == b:
            return 0
        t = self.heads
        r = t.rank[b]
        for v in self.chain(t, a):
            if self.first(t, v) <= r < t.hi[v]:
                return t.depth[v]
        return 0

    def weight(self, a: int, b: int) -> int:
        """Squared maximal overlap of item ``a`` followed by item ``b`` (the overlap itself with
        the linear score)."""
        k = self.overlap(a, b)
        return k if self.linear else k * k

    def _around(self, trie: _Trie, i: int) -> list[int]:
        out: list[int] = []
        for v in self.chain(trie, i):
            out.extend(trie.order[self.first(trie, v) : trie.hi[v]])
        return [j for j in out if j != i]

    def out(self, a: int) -> list[int]:
        """Items ``b != a`` with ``weight(a, b) > 0``, largest overlaps first (an item may come
        again after its first place, at a shorter overlap)."""
        return self._around(self.heads, a)

    def inn(self, b: int) -> list[int]:
        """Items ``a != b`` with ``weight(a, b) > 0``, largest overlaps first (an item may come
        again after its first place, at a shorter overlap)."""
        return self._around(self.tails, b)

    def score(self, seq: Sequence[int]) -> int:
        """Score of an ordering of the items (the closing pair too when cyclic)."""
        s = sum(self.weight(a, b) for a, b in itertools.pairwise(seq))
        if self.cyclic and len(seq) > 1:
            s += self.weight(seq[-1], seq[0])
        return s

    @property
    def nbytes(self) -> int:
        """Bytes held by the two tries' arrays (the words themselves not counted)."""
        return sum(
            a.itemsize * len(a)
            for t in (self.heads, self.tails)
            for a in (t.depth, t.lo, t.hi, t.ends, t.fail, t.order, t.rank, t.node)
        )
