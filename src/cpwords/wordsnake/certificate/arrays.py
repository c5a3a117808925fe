"""The checker's own array code: the words as one array of code points, the prefixes a set of
words share found exactly from their sorted order, and every suffix of a word looked up among
them, all as whole-array passes (NumPy).

It shares no code with the models: the model's prefix trie (``relaxation/string_hub.py``) is
another construction, and nothing here is imported from it.

**Prefixes, exactly.** In sorted order, the words that start with a string form a run, so the
prefix of length ``L`` of the ``r``-th word is the one of the word before it exactly when their
longest common prefix is at least ``L`` (and the word before has that prefix in the table). The
prefixes are numbered from that rule alone: no string is hashed to decide which prefixes are the
same. Taken length by length (the words with a prefix of length ``L``, in order), each prefix's
words are one contiguous run, whose two smallest values are two minimum reductions.

**Suffixes, looked up by hashing, then verified.** A suffix of a query word is matched to a
prefix by a polynomial hash of its letters modulo ``2**64`` (an odd base drawn at random for
every check). Distinct prefixes are distinct
strings, so two prefixes with the same hash are a collision, found exactly: the hashes are then
drawn again. A suffix that *is* a prefix has that prefix's hash, so every real match is found; a
suffix that only collides with a prefix can at worst raise a false alarm, and every inequality
found violated is checked again letter by letter (:meth:`PrefixTable.prefix_of`) before it is
reported. So the verdict never rests on a hash.

Time O(total letters) array operations (a sort of the words by value), memory O(total
letters) integers.

References
----------
R. M. Karp, M. O. Rabin, "Efficient randomized pattern-matching algorithms", IBM Journal of
Research and Development 31(2) (1987) (polynomial hashing of substrings).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cpwords.core.codepoints import Letters

#: Draws of the hash base before the array path gives up on a table (then the dict tables check
#: it): the hashes are polynomials modulo ``2**64``, where a few families of strings (Thue-Morse
#: words of thousands of letters) collide for every base; on other lists a collision among the
#: prefixes of one table happens with probability about ``prefixes**2 * length / 2**64`` a draw.
HASH_DRAWS = 3


class HashCollision(Exception):
    """Two distinct prefixes of one table hashed alike ``HASH_DRAWS`` times."""


#: An odd 64-bit multiplier (2**64 over the golden ratio): a key's slot is the top bits of its
#: product with it (Fibonacci hashing), as the polynomial hashes' low bits mix poorly.
SLOT_MIX = np.uint64(0x9E3779B97F4A7C15)


class KeyIndex:
    """Where each of some distinct 64-bit keys is, found by hashing: an open-addressing table
    with linear probing, built and searched as whole-array passes.

    Parameters
    ----------
    keys : numpy.ndarray of uint64, shape ``(n,)``
        Distinct.

    Raises
    ------
    HashCollision
        Two keys are equal.

    Notes
    -----
    The table has a power of two of slots, more than four times the keys, each holding a key's
    position and a 16-bit tag of it (its top bits, odd: 0 marks an empty slot), in two arrays:
    a search reads the tag, and the position and the key itself only where the tags agree.
    Small arrays read at random are the point: ENABLE's 0.4 million prefixes take 4 MB of tags;
    its 1.6 million suffixes are looked up in 0.03 s, where a table of 16 MB of keys and 8 MB of
    positions took 0.05 s (the caches). About 1.1 slots are read on a hit and 1.3 on a miss
    (Knuth, TAOCP vol. 3, 6.4). Each round places or looks up every pending key at once; the
    keys that met an occupied slot (or lost it to another key the same round) go on to the next
    slot in the next round.
    """

    def __init__(self, keys: np.ndarray) -> None:
        self.keys = keys
        bits = max(4, (4 * keys.size).bit_length())
        self._shift = np.uint64(64 - bits)
        self._mask = (1 << bits) - 1
        small = keys.size < 1 << 31  # positions in 32 bits
        self._pos = np.full(1 << bits, -1, dtype=np.int32 if small else np.int64)
        self._tag = np.zeros(1 << bits, dtype=np.uint16)
        tags = self._tags(keys)
        pending = np.arange(keys.size)
        pos = self._home(keys)
        while pending.size:
            held = self._pos[pos]
            taken = held >= 0
            if np.any(keys[held[taken]] == keys[pending[taken]]):
                raise HashCollision
            free, at = pending[~taken], pos[~taken]
            self._pos[at] = free  # of keys sent to one slot, one is stored
            won = self._pos[at] == free
            self._tag[at[won]] = tags[free[won]]
            lost = ~won
            # Past an occupied slot to the next; a key that lost its slot to another looks at
            # the same slot again (and compares itself with the key stored there).
            pending = np.concatenate([pending[taken], free[lost]])
            pos = np.concatenate([(pos[taken] + 1) & self._mask, at[lost]])

    def _home(self, keys: np.ndarray) -> np.ndarray:
        """Each key's first slot (int64)."""
        with np.errstate(over="ignore"):  # the product modulo 2**64 is the point
            home = keys * SLOT_MIX
        home >>= self._shift
        return home.view(np.int64)

    @staticmethod
    def _tags(keys: np.ndarray) -> np.ndarray:
        """Each key's tag: its top 16 bits, odd (never 0), uint16."""
        return ((keys >> np.uint64(48)) | np.uint64(1)).astype(np.uint16)

    def find(self, query: np.ndarray) -> np.ndarray:
        """The position in ``keys`` of each of ``query`` (uint64), or -1, shape of ``query``
        (int32 when ``keys`` has fewer than ``2**31`` entries, else int64)."""
        out = np.full(query.size, -1, dtype=self._pos.dtype)
        tags, pos = self._tags(query), self._home(query)
        live: np.ndarray | None = None  # every query, in the first round
        while live is None or live.size:
            held = self._tag[pos]
            want = tags if live is None else tags[live]
            maybe = np.flatnonzero(held == want)
            at = self._pos[pos[maybe]]
            asked = maybe if live is None else live[maybe]
            same = self.keys[at] == query[asked]
            out[asked[same]] = at[same]
            on = held != 0  # a tag that agrees for another key: on to the next slot
            on[maybe[same]] = False
            step = np.flatnonzero(on)
            live = step if live is None else live[step]
            pos = (pos[step] + 1) & self._mask
        return out


@dataclass
class PrefixTable:
    """The prefixes of a set of words, each with the two smallest values of the words that
    start with it.

    Attributes
    ----------
    keys : numpy.ndarray of uint64, shape ``(prefixes,)``
        The prefixes' hash keys, shortest prefixes first (the empty prefix, key 0, first).
    word, length : numpy.ndarray of int64, shape ``(prefixes,)``
        A word of the table that starts with the prefix, and the prefix's length.
    v1, i1, v2, i2 : numpy.ndarray of int64, shape ``(prefixes,)``
        The smallest value and its word, the second smallest and its word (``i2 = -1``: one
        word starts with the prefix).
    """

    letters: Letters
    keys: np.ndarray
    word: np.ndarray
    length: np.ndarray
    v1: np.ndarray
    i1: np.ndarray
    v2: np.ndarray
    i2: np.ndarray
    index: KeyIndex = field(repr=False)

    @classmethod
    def build(
        cls, letters: Letters, ids: np.ndarray, values: np.ndarray, proper: bool
    ) -> PrefixTable:
        """The table of the words ``ids`` (sorted, ascending: the words are sorted) with their
        ``values`` (indexed by word id): every prefix of each word, shorter than the word when
        ``proper``.

        Raises
        ------
        HashCollision
            Two distinct prefixes hashed alike ``HASH_DRAWS`` times.
        """
        ids = np.asarray(ids, dtype=np.int64)
        top = letters.lens[ids] - (1 if proper else 0)  # each word's longest prefix
        word_at, level = _level_major(top)
        # A word's entry of length L is the entry before it at that length's prefix exactly
        # when the word before it in the list shares L letters with it and has that entry.
        shared = letters.lcp_with_previous(ids)
        shared[1:] = np.minimum(shared[1:], top[:-1])
        at_length = np.repeat(np.arange(level.size), level)
        first = np.flatnonzero(at_length > shared[word_at])
        sizes = np.diff(np.append(first, word_at.size))
        node_r, length = word_at[first], at_length[first]
        del at_length, shared
        v1, i1, v2, i2 = _two_smallest_by_prefix(
            word_at, first, sizes, ids, np.asarray(values, dtype=np.int64)
        )
        word = ids[node_r]
        begin = letters.start[word] - 1
        for _ in range(HASH_DRAWS):
            prefix, _suffix = letters.ends()
            keys = np.zeros(length.size, dtype=np.uint64)
            some = length > 0
            keys[some] = prefix[begin[some] + length[some]]
            try:
                index = KeyIndex(keys)  # equal keys are a collision, found there
                break
            except HashCollision:
                letters.draw()
        else:
            raise HashCollision
        return cls(letters, keys, word, length, v1, i1, v2, i2, index)

    def find(self, key: np.ndarray) -> np.ndarray:
        """The prefix whose hash is ``key`` (uint64), or -1, shape of ``key`` (a match is a
        candidate: :meth:`prefix_of` confirms it)."""
        return self.index.find(key)

    def prefix_of(self, node: int) -> str:
        """The prefix's string, read from the words."""
        return self.letters.words[int(self.word[node])][: int(self.length[node])]


def suffix_starts(letters: Letters, ids: np.ndarray, proper: bool) -> tuple[np.ndarray, np.ndarray]:
    """Where the nonempty suffixes of the words ``ids`` start (shorter than the word when
    ``proper``): ``(letter positions, count per word)``, word after word, longest first.

    Examples
    --------
    >>> letters = Letters(["ab", "c"])
    >>> [g.tolist() for g in suffix_starts(letters, np.array([0, 1]), True)]
    [[1], [1, 0]]
    """
    first = letters.start[ids] + (1 if proper else 0)
    count = np.maximum(letters.start[ids + 1] - first, 0)
    offset = np.cumsum(count) - count
    return np.arange(int(count.sum()), dtype=np.int64) + np.repeat(first - offset, count), count


#: Prefix lengths walked one by one by :func:`_level_major` before the rest is sorted.
LEVEL_STEPS = 64


def _level_major(top: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The entries ``(r, L)`` for ``0 <= L <= top[r]`` in (length, word) order: ``(each
    entry's r, the count of entries of each length)``. The words with an entry of length L are
    those of L - 1 with ``top >= L``: walked length by length (each pass filters the last),
    the deep remainder, if any, sorted by length (a radix sort of 16-bit lengths)."""
    level = np.bincount(top[top >= 0], minlength=1)[::-1].cumsum()[::-1] if top.size else top
    parts = []
    cur = np.flatnonzero(top >= 0)
    length = 0
    while cur.size and length < LEVEL_STEPS:
        parts.append(cur)
        length += 1
        cur = cur[top[cur] >= length]
    if cur.size:  # words longer than LEVEL_STEPS letters: their deeper entries, sorted
        count = top[cur] - length + 1
        offset = np.cumsum(count) - count
        deep = np.arange(int(count.sum()), dtype=np.int64) - np.repeat(offset, count)
        small = int(deep.max()) < 1 << 16
        order = np.argsort(deep.astype(np.uint16) if small else deep, kind="stable")
        parts.append(np.repeat(cur, count)[order])
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64), level


def _two_smallest_by_prefix(
    word_at: np.ndarray, first: np.ndarray, sizes: np.ndarray, ids: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each prefix (its entries ``word_at[first:first + sizes]``, contiguous): the smallest
    value and its word, the second and its word (0 and -1 when one word starts with it), by
    the least rank (the words ranked by value, then by position) of each prefix's entries, then
    the least of the others (two minimum reductions over contiguous runs)."""
    val = values[ids]
    by_value = np.argsort(val, kind="stable")
    rank = np.empty_like(by_value)
    rank[by_value] = np.arange(by_value.size)
    none = ids.size
    if first.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    r = rank[word_at]
    least = np.minimum.reduceat(r, first)
    others = np.where(r == np.repeat(least, sizes), none, r)  # a word has one entry a prefix
    second = np.minimum.reduceat(others, first)
    has_two = second < none
    w1 = by_value[least]
    w2 = by_value[np.where(has_two, second, least)]
    return val[w1], ids[w1], np.where(has_two, val[w2], 0), np.where(has_two, ids[w2], -1)
