"""Range queries on the distinct words: those that start with a string (sorted forwards) and
those that end with it (sorted by their reversal), by binary search.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

import numpy as np

#: Above every code point: ``s + _TOP`` bounds the strings that start with ``s``.
_TOP = "\U0010ffff"


class WordRanges:
    """The distinct words sorted forwards and by their reversal, for range queries.

    Parameters
    ----------
    words : sequence of str
        Distinct words, sorted.

    Attributes
    ----------
    rev_ids : numpy.ndarray of int64, shape ``(len(words),)``
        The word ids sorted by the reversed words.
    rev_words : list of str
        The reversed words in that order.
    """

    def __init__(self, words: Sequence[str]) -> None:
        self.words = list(words)
        # Each word reversed once, sorted by index (no key function of ours per word; one
        # reversal where the key and the list each made one: letterpress 0.36 -> 0.2 s).
        rev = [w[::-1] for w in words]
        ids = sorted(range(len(rev)), key=rev.__getitem__)
        self.rev_ids = np.array(ids, dtype=np.int64)
        self.rev_words = [rev[i] for i in ids]

    def starting(self, s: str) -> tuple[int, int]:
        """Index range (forward order) of the words that start with ``s``."""
        return bisect.bisect_left(self.words, s), bisect.bisect_left(self.words, s + _TOP)

    def ending(self, s: str) -> tuple[int, int]:
        """Index range (reversed order) of the words that end with ``s``."""
        r = s[::-1]
        return bisect.bisect_left(self.rev_words, r), bisect.bisect_left(self.rev_words, r + _TOP)
