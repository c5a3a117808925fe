"""The checker's own array code: the words as one array of code points, the prefixes a set of
words share found exactly from their sorted order, and every suffix of a word looked up among
them, all as whole-array passes (NumPy).

It shares no code with the models: the model's prefix trie (``relaxation/string_hub.py``) is
another construction, and nothing here is imported from it.

**Prefixes, exactly.** In sorted order, the words that start with a string form a run, so the
prefix of length ``L`` of the ``r``-th word is the one of the word before it exactly when their
longest common prefix is at least ``L`` (and the word before has that prefix in the table). The
prefixes are numbered from that rule alone: no string is hashed to decide which prefixes are the
same.

**Suffixes, looked up by hashing, then verified.** A suffix of a query word is matched to a
prefix by a polynomial hash of its letters modulo ``2**64`` (an odd base drawn at random for
every check). Distinct prefixes are distinct
strings, so two prefixes with the same hash are a collision, found exactly: the hashes are then
drawn again. A suffix that *is* a prefix has that prefix's hash, so every real match is found; a
suffix that only collides with a prefix can at worst raise a false alarm, and every inequality
found violated is checked again letter by letter (:meth:`PrefixTable.prefix_of`) before it is
reported. So the verdict never rests on a hash.

Time O(total letters) array operations (a sort of the table's entries by value), memory
O(total letters) integers.

References
----------
R. M. Karp, M. O. Rabin, "Efficient randomized pattern-matching algorithms", IBM Journal of
Research and Development 31(2) (1987) (polynomial hashing of substrings).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cpwords.core.codepoints import Letters, segments

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
    The table has a power of two of slots, at least four times the keys (4 bytes a slot), so
    a search probes about 1.2 slots on a hit and 1.4 on a miss (Knuth, TAOCP vol. 3, 6.4).
    Each round places or looks up every pending key at once; the keys that met an occupied
    slot (or lost it to another key the same round) go on to the next slot in the next round.
    Measured on ENABLE's check (1.7 million suffixes into 0.4 million prefixes): 0.07 s, where
    the sort and sorted-order binary search it replaces took 0.24 s.
    """

    def __init__(self, keys: np.ndarray) -> None:
        self.keys = keys
        bits = max(4, (4 * keys.size).bit_length())
        self._shift = np.uint64(64 - bits)
        self._mask = (1 << bits) - 1
        small = keys.size < 1 << 31  # positions in 32 bits: half the table's memory
        self._slots = np.full(1 << bits, -1, dtype=np.int32 if small else np.int64)
        pending = np.arange(keys.size, dtype=np.int64)
        pos = self._home(keys)
        while pending.size:
            held = self._slots[pos]
            taken = held >= 0
            if np.any(keys[held[taken]] == keys[pending[taken]]):
                raise HashCollision
            free, at = pending[~taken], pos[~taken]
            self._slots[at] = free  # of keys sent to one slot, one is stored
            lost = self._slots[at] != free
            # Past an occupied slot to the next; a key that lost its slot to another looks at
            # the same slot again (and compares itself with the key stored there).
            pending = np.concatenate([pending[taken], free[lost]])
            pos = np.concatenate([(pos[taken] + 1) & self._mask, at[lost]])

    def _home(self, keys: np.ndarray) -> np.ndarray:
        """Each key's first slot."""
        with np.errstate(over="ignore"):  # the product modulo 2**64 is the point
            return ((keys * SLOT_MIX) >> self._shift).astype(np.int64)

    def find(self, query: np.ndarray) -> np.ndarray:
        """The position in ``keys`` of each of ``query`` (uint64), or -1, shape of ``query``."""
        out = np.full(query.size, -1, dtype=np.int64)
        if self.keys.size == 0:
            return out
        live = np.arange(query.size, dtype=np.int64)
        pos = self._home(query)
        while live.size:
            held = self._slots[pos]
            occupied = held >= 0
            same = occupied & (self.keys[np.maximum(held, 0)] == query[live])
            out[live[same]] = held[same]
            on = occupied & ~same
            live, pos = live[on], (pos[on] + 1) & self._mask
        return out


@dataclass
class PrefixTable:
    """The prefixes of a set of words, each with the two smallest values of the words that
    start with it.

    Attributes
    ----------
    keys : numpy.ndarray of uint64, shape ``(prefixes,)``
        The prefixes' hash keys, sorted.
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
    _index: KeyIndex | None = field(default=None, repr=False)

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
        ent_r, ent_len, nodes, node_of = _prefix_numbers(letters, ids, proper)
        word = ids[ent_r[nodes]]
        length = ent_len[nodes]
        del ent_len, nodes
        begin = letters.start[word]
        for _ in range(HASH_DRAWS):
            keys = letters.keys(begin, begin + length)
            order = np.argsort(keys)  # equal keys are a collision, found whatever their order
            if not np.any(keys[order][1:] == keys[order][:-1]):
                break
            letters.draw()
        else:
            raise HashCollision
        place = np.empty_like(order)
        place[order] = np.arange(order.size)
        node = place[node_of]
        del node_of
        v1, i1, v2, i2 = _two_smallest_by_prefix(
            node, ent_r, ids, np.asarray(values, dtype=np.int64)
        )
        return cls(letters, keys[order], word[order], length[order], v1, i1, v2, i2)

    def find(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The prefix whose hash is that of ``cp[x:y]``, or -1, shape of ``x`` (a match is a
        candidate: :meth:`prefix_of` confirms it)."""
        key = self.letters.keys(x, y)
        if self.keys.size == 0:
            return np.full(key.shape, -1, dtype=np.int64)
        if self._index is None:
            self._index = KeyIndex(self.keys)
        return self._index.find(key)

    def prefix_of(self, node: int) -> str:
        """The prefix's string, read from the words."""
        return self.letters.words[int(self.word[node])][: int(self.length[node])]


@dataclass
class SuffixQueries:
    """Every suffix of some words, each with the prefix of a table it matches.

    Attributes
    ----------
    word, k : numpy.ndarray of int64, shape ``(queries,)``
        The query word and the suffix's length, word after word, shortest suffix first.
    node : numpy.ndarray of int64, shape ``(queries,)``
        The matched prefix of the table, or -1.
    """

    word: np.ndarray
    k: np.ndarray
    node: np.ndarray

    @classmethod
    def build(
        cls, letters: Letters, ids: np.ndarray, table: PrefixTable, proper: bool
    ) -> SuffixQueries:
        """The suffixes of the words ``ids`` (of every length up to the word's, shorter when
        ``proper``), matched against ``table``."""
        ids = np.asarray(ids, dtype=np.int64)
        count = np.maximum(letters.lens[ids] + (0 if proper else 1), 0)
        which, k = segments(count)
        word = ids[which]
        end = letters.start[word + 1]
        return cls(word, k, table.find(end - k, end))


def _prefix_numbers(
    letters: Letters, ids: np.ndarray, proper: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every (word, prefix length) entry of the words ``ids`` (sorted) with the number of its
    prefix: ``(entry's word position, entry's length, each prefix's first entry, each entry's
    prefix)``. The prefix of length L of the r-th word is the r-1-th's when they share L
    letters and the r-1-th has an entry of that length (with ``proper``, a word has none of its
    own length)."""
    count = np.maximum(letters.lens[ids] + (0 if proper else 1), 0)
    ent_r, ent_len = segments(count)
    shared = letters.lcp_with_previous(ids)
    prev_len = np.concatenate([[-1], letters.lens[ids[:-1]] - (1 if proper else 0)])
    same_as_previous = ent_len <= np.minimum(shared, prev_len)[ent_r]
    by_len = _by_length(ent_len)  # (length, word) order
    owner_pos = np.where(same_as_previous[by_len], -1, np.arange(by_len.size, dtype=np.int64))
    np.maximum.accumulate(owner_pos, out=owner_pos)
    owner = np.empty_like(by_len)
    owner[by_len] = by_len[owner_pos]  # each entry's first entry with the same prefix
    del by_len, owner_pos
    number = np.cumsum(~same_as_previous) - 1
    return ent_r, ent_len, np.flatnonzero(~same_as_previous), number[owner]


def _by_length(lengths: np.ndarray) -> np.ndarray:
    """The stable sort of ``lengths`` (a radix sort when they fit 16 bits, as words do)."""
    if lengths.size and int(lengths.max()) < 1 << 16 and int(lengths.min()) >= 0:
        return np.argsort(lengths.astype(np.uint16), kind="stable")
    return np.argsort(lengths, kind="stable")


def _two_smallest_by_prefix(
    node: np.ndarray, ent_r: np.ndarray, ids: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each prefix: the smallest value and its word, the second and its word (0 and -1
    when one word starts with it), by the least rank (the words ranked by value) of each
    prefix's entries, then the least of the others (two unbuffered minimum passes: 0.03 s
    against 0.08 s for sorting ENABLE's 1.7 million entries by prefix and rank)."""
    val = values[ids]
    by_value = np.argsort(val, kind="stable")
    rank = np.empty_like(by_value)
    rank[by_value] = np.arange(by_value.size)
    r = rank[ent_r]
    none = ids.size
    count = int(node.max()) + 1 if node.size else 0
    least = np.full(count, none, dtype=np.int64)
    np.minimum.at(least, node, r)
    others = np.where(r == least[node], none, r)  # every word's entry is one per prefix
    second = np.full(count, none, dtype=np.int64)
    np.minimum.at(second, node, others)
    has_two = second < none
    w1 = by_value[least]
    w2 = by_value[np.where(has_two, second, least)]
    return val[w1], ids[w1], np.where(has_two, val[w2], 0), np.where(has_two, ids[w2], -1)
