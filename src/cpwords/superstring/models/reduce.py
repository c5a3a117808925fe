"""The words contained in others drop out; the kept words, in an order, make the superstring.

A word contained in another is, in a trie of the words with Aho-Corasick failure links, either
a proper prefix of another word (its node has a descendant) or a proper suffix of a prefix of
another word (its node is the failure link of some node: the failure links of all nodes are
closed under taking failure links, so a node on any failure chain is some node's failure
link). Both are read off the trie of :func:`cpwords.wordsnake.relaxation.string_hub.build_trie` in
O(total letters), with, for each contained word, a longer word holding it and the offset where
it sits there: the place of every word in the superstring follows from the kept words' places.
The independent checker (:mod:`cpwords.superstring.rules`) re-checks both the result (every
word in the superstring) and what the bound needs (the kept words substring-free).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cpwords.superstring.rules import Superstring
from cpwords.wordsnake.primal.repair import overlap
from cpwords.wordsnake.relaxation.string_hub import build_trie


@dataclass(frozen=True)
class Reduction:
    """A word list split into the kept words and those contained in them.

    Attributes
    ----------
    words : tuple of str
        The distinct words, in input order.
    kept : tuple of str
        The words contained in no other word, in input order: a substring-free list.
    holder : tuple of int
        For every word (input order), -1 when it is kept, else the index (into ``words``) of a
        longer word that contains it.
    offset : tuple of int
        Where each contained word starts in its holder (0 for kept words).
    """

    words: tuple[str, ...]
    kept: tuple[str, ...]
    holder: tuple[int, ...]
    offset: tuple[int, ...]

    @property
    def contained(self) -> int:
        """How many words drop out (contained in another)."""
        return len(self.words) - len(self.kept)

    @functools.cached_property
    def kept_letters(self) -> int:
        """The letters of the kept words, in all (counted once: 0.25 s on a million 31-mers)."""
        return sum(len(w) for w in self.kept)

    def place(self, order: Sequence[str]) -> Superstring:
        """The superstring of the kept words in ``order``, each overlapping the next by their
        longest suffix-prefix overlap, and where every word starts in it.

        Parameters
        ----------
        order : sequence of str
            Every kept word once.

        Returns
        -------
        Superstring
            ``starts`` for every word of :attr:`words`.

        Raises
        ------
        ValueError
            ``order`` is not an ordering of the kept words.
        """
        if len(order) != len(self.kept) or set(order) != set(self.kept):
            raise ValueError("not an ordering of the kept words")
        pieces: list[str] = []
        at: dict[str, int] = {}
        length = 0
        prev = ""
        for w in order:
            k = overlap(prev, w, False) if prev else 0
            at[w] = length - k
            pieces.append(w[k:])
            length += len(w) - k
            prev = w
        starts = [at.get(w, -1) for w in self.words]
        holder, offset = self.holder, self.offset
        for i in range(len(starts)):
            if starts[i] < 0:  # follow the holders up to a kept word, then back down
                chain = [i]
                while starts[holder[chain[-1]]] < 0:
                    chain.append(holder[chain[-1]])
                for j in reversed(chain):
                    starts[j] = starts[holder[j]] + offset[j]
        return Superstring("".join(pieces), tuple(order), tuple(starts))


def reduce_words(words: Sequence[str], deadline: float | None = None) -> Reduction:
    """Drop the words contained in others (see the module docstring).

    Parameters
    ----------
    words : sequence of str
        Distinct words.
    deadline : float, optional
        ``time.perf_counter()`` value after which the trie's construction stops
        (:class:`~cpwords.wordsnake.relaxation.string_hub.DeadlineReached`).

    Returns
    -------
    Reduction

    Examples
    --------
    >>> r = reduce_words(["cat", "atom", "a", "at", "catalog"])
    >>> r.kept, r.contained
    (('atom', 'catalog'), 3)
    >>> r.place(["catalog", "atom"]).text
    'catalogatom'
    """
    words = tuple(words)
    if len({len(w) for w in words}) <= 1 and len(set(words)) == len(words):
        # Distinct words of one length (k-mers): none holds another, no trie is needed (on
        # phage lambda's 48,472 31-mers the trie took 0.7 s of a 4.3 s solve).
        n = len(words)
        return Reduction(words, words, (-1,) * n, (0,) * n)
    return reduce_by_trie(words, deadline)


def reduce_by_trie(words: Sequence[str], deadline: float | None = None) -> Reduction:
    """:func:`reduce_words` read off the trie with failure links, whatever the words' lengths.

    Parameters
    ----------
    words : sequence of str
        Distinct words.
    deadline : float, optional
        As for :func:`reduce_words`.

    Returns
    -------
    Reduction

    Examples
    --------
    >>> reduce_by_trie(["ab", "ba", "bb"]).kept
    ('ab', 'ba', 'bb')
    """
    words = tuple(words)
    ranked = sorted(range(len(words)), key=lambda i: words[i])
    trie = build_trie(tuple(words[i] for i in ranked), deadline)
    wn = trie.word_node.astype(np.int64)
    end = trie.end.astype(np.int64)
    depth = trie.depth.astype(np.int64)
    # via[q]: some node whose failure link is q (-1: none).
    via = np.full(trie.size, -1, dtype=np.int64)
    via[trie.fail[1:].astype(np.int64)] = np.arange(1, trie.size, dtype=np.int64)
    below = end[wn] > wn
    inside = via[wn] > 0
    # The holder's node: the deepest node of the subtree (a leaf, hence a word) of the word
    # itself (a prefix of it) or of the node whose failure link it is (inside it).
    host = np.where(below, end[wn], end[np.maximum(via[wn], 0)])
    off = np.where(below, 0, depth[np.maximum(via[wn], 0)] - depth[wn])
    contained = below | inside
    rank_word = np.asarray(ranked, dtype=np.int64)
    holder_node_word = trie.node_word.astype(np.int64)
    holder = np.full(len(words), -1, dtype=np.int64)
    offset = np.zeros(len(words), dtype=np.int64)
    ids = rank_word[contained]
    holder[ids] = rank_word[holder_node_word[host[contained]]]
    offset[ids] = off[contained]
    kept = tuple(w for w, h in zip(words, holder.tolist(), strict=True) if h < 0)
    return Reduction(words, kept, tuple(holder.tolist()), tuple(offset.tolist()))
