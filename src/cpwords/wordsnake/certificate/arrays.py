"""The checker's own array code: the words as one array of code points, the prefixes a set of
words share found exactly from their sorted order, and every suffix of a word looked up among
them, all as whole-array passes (NumPy).

It shares no code with the models: the model's prefix trie (``relaxation/string_hub.py``) is
another construction, and nothing here is imported from it.

**Prefixes, exactly.** In sorted order, the words that start with a string form a run, so the
prefix of length ``L`` of the ``r``-th word is the one of the word before it exactly when their
longest common prefix is at least ``L`` (and the word before has that prefix in the table). The
prefixes are numbered from that rule alone: no string is hashed to decide which prefixes are the
same. Each distinct prefix is its run of words ``[lo, hi)``: a word opens the runs of the
lengths it does not share with the word before and closes those it does not share with the
word after, and the openings and closings of one length pair up in order (one entry a
distinct prefix, not one a prefix of every word). The smallest value of a run is a range
minimum over the words ranked by value (a sparse table); the second, asked for the few
candidates only, the least of the two ranges beside the first.

**Suffixes, bounded, then looked up by hashing and verified.** A suffix of a query word is
matched to a prefix by a polynomial hash of its letters modulo ``2**64`` (an odd base drawn at
random for every check). Every suffix first reads a lower bound of its prefix's smallest value
from a small table of 16-bit slots (:class:`SlotBounds`): the bound of a real match is never
above the prefix's value, so every inequality that can fail is among the suffixes whose bound
fails it (the *candidates*, a fifth of the suffixes or so); only those are looked up exactly
(:class:`SlotIndex`, which compares the keys) and checked with the two smallest values. Distinct
prefixes are distinct strings, so two prefixes with the same hash are a collision, found
exactly: the hashes are then drawn again. A suffix that *is* a prefix has that prefix's hash,
so every real match is found; a suffix that only collides with a prefix can at worst raise a
false alarm, and every inequality found violated is checked again letter by letter
(:meth:`PrefixTable.prefix_of`) before it is reported. So the verdict never rests on a hash.

Time O(total letters) array operations (sorts of the words by value and of the prefixes by
length and by slot, radix sorts of small keys), memory O(total letters + words log words)
integers (the sparse table of :mod:`.ranges`: ENABLE's 172,823 words, 12 MB).

References
----------
R. M. Karp, M. O. Rabin, "Efficient randomized pattern-matching algorithms", IBM Journal of
Research and Development 31(2) (1987) (polynomial hashing of substrings).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from cpwords.core.codepoints import Letters
from cpwords.core.runs import counting, spread
from cpwords.wordsnake.certificate.ranges import RunValues

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
    The table has a power of two of slots, more than four times the keys (and the few slots
    past the last that keys pushed there take, then an empty one), each holding a key's
    position and a 16-bit tag of it (its top bits, odd: 0 marks an empty slot), in two arrays:
    a search reads the tag, and the position and the key itself only where the tags agree.
    Small arrays read at random are the point: ENABLE's 0.4 million prefixes take 4 MB of tags;
    its 1.6 million suffixes are looked up in 0.03 s, where a table of 16 MB of keys and 8 MB of
    positions took 0.05 s (the caches). About 1.1 slots are read on a hit and 1.3 on a miss
    (Knuth, TAOCP vol. 3, 6.4). Built in order of the keys' first slots (two radix sorts of
    16-bit digits), each key taking the first free slot from its own, as linear probing
    inserts them in that order: the places are a running maximum, written in ascending order
    (a round of random writes a pass, up to 25 passes, took 0.02 s for ENABLE's prefixes). A
    search looks up every pending key at once, a slot a round.
    """

    def __init__(self, keys: np.ndarray) -> None:
        self.keys = keys
        n = keys.size
        bits = max(4, (4 * n).bit_length())
        self.bits = bits
        self._shift = np.uint64(64 - bits)
        self.slots = 1 << bits
        home = self.home(keys)
        order = _sorted_by_slot(home, bits)
        home = home[order]
        # In order of their first slots, each key takes the first free slot from its own: the
        # slot after the previous key's or its own, whichever is later (a running maximum).
        place = np.arange(n, dtype=np.int64)
        place = np.maximum.accumulate(home - place) + place if n else place
        # The keys that share a first slot are next to each other: equal keys among them.
        sorted_keys = keys[order]
        for gap in range(1, n):
            alike = home[gap:] == home[:-gap]
            if not alike.any():
                break
            if np.any(sorted_keys[gap:][alike] == sorted_keys[:-gap][alike]):
                raise HashCollision
        # Past the last slot: the keys pushed beyond it, and an empty slot that ends a search.
        size = max(self.slots, int(place[-1]) + 2 if n else 0)
        small = n < 1 << 31  # positions in 32 bits
        self._pos = np.full(size, -1, dtype=np.int32 if small else np.int64)
        self._tag = np.zeros(size, dtype=np.uint16)
        self._pos[place] = order
        self._tag[place] = self._tags(sorted_keys)

    def home(self, keys: np.ndarray) -> np.ndarray:
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
        tags, pos = self._tags(query), self.home(query)
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
            pos = pos[step] + 1  # the table ends with an empty slot
        return out


#: Slots of :class:`SlotIndex` per key (at least; a power of two).
INDEX_SLOTS_PER_KEY = 4

#: Keys from which :class:`SlotIndex` and :class:`SlotBounds` take half as many slots per key
#: (past 2**22 keys, 2 and more rather than 4: 977,555 31-mers of C. elegans' 20 million
#: prefixes had a 512 MB index and a 256 MB table of bounds, the check's peak).
MANY_KEYS = 1 << 22


#: Keys placed at a time by :class:`SlotIndex` (its temporaries stay this size).
INDEX_BLOCK = 1 << 20

#: Prefixes whose keys :func:`_prefix_keys` computes at a time (its temporaries stay this size).
KEY_BLOCK = 1 << 20


def slot_bits(n: int, per_key: int) -> int:
    """The number of bits of a table of slots for ``n`` keys: at least ``per_key`` slots a
    key (half as many from :data:`MANY_KEYS` keys), and 16 slots.

    Parameters
    ----------
    n : int
    per_key : int

    Returns
    -------
    int

    Examples
    --------
    >>> slot_bits(1000, 4), slot_bits(MANY_KEYS, 4)
    (12, 24)
    """
    if n >= MANY_KEYS:
        per_key = max(1, per_key // 2)
    return max(4, (per_key * n).bit_length())


#: The slot multipliers of :class:`SlotIndex`, one a level: the keys that share a slot of one
#: level are indexed again by the next (SLOT_MIX, then another odd constant: Steele, Lea and
#: Flood's SplitMix64 mixer), those of the last by a :class:`KeyIndex`.
SLOT_MIXES = (SLOT_MIX, np.uint64(0xBF58476D1CE4E5B9))

#: A :class:`SlotIndex` level's shared keys are sorted into a :class:`KeyIndex` at once when
#: they are this few.
SHARED_SORTED = 64


class SlotIndex:
    """Where each of some distinct 64-bit keys is, as :class:`KeyIndex` finds it, read for most
    keys in one step: a table of slots holding the position of the one key whose hash is that
    slot; the keys that share a slot (a few in ten) are left to an index of their own.

    Parameters
    ----------
    keys : numpy.ndarray of uint64, shape ``(n,)``
        Distinct.
    level : int
        Which of :data:`SLOT_MIXES` hashes the keys (0; the index of the shared keys: 1).

    Raises
    ------
    HashCollision
        Two keys are equal (they share a slot at every level: the :class:`KeyIndex` of the
        last finds them).

    Notes
    -----
    A power of two of slots, more than four times the keys, of int32 positions (int64 past
    ``2 ** 31`` keys): -1 where no key, -2 where several. With ``s`` slots a key, a key shares
    its slot with probability about ``1 - exp(-1 / s)`` (a fifth or less). Built by two
    scatters of the positions and a gather (each key reads back whether it kept its slot, and
    which key did), with no sort: the keys of shared slots, a sixth of them, get a slot index
    of their own by another hash, and the sixth of those that share again are sorted by a
    :class:`KeyIndex` (ENABLE's 0.4 million prefixes: 3.8 ms, 5.3 with a :class:`KeyIndex` of
    every shared key, 11 with one of them all; the Polish quarter's 3.1 million: 66, 94 and
    196 ms). A search reads the query's slot, then the key found there (one comparison), and
    asks the next index only for the queries of shared slots.

    Examples
    --------
    >>> index = SlotIndex(np.array([7, 3, 2**64 - 1], dtype=np.uint64))
    >>> index.find(np.array([3, 5, 2**64 - 1, 7], dtype=np.uint64)).tolist()
    [1, -1, 2, 0]
    """

    def __init__(self, keys: np.ndarray, level: int = 0) -> None:
        self.keys = keys
        n = keys.size
        bits = slot_bits(n, INDEX_SLOTS_PER_KEY)
        self._shift = np.uint64(64 - bits)
        self._mix = SLOT_MIXES[level]
        kind = np.int32 if n < 1 << 31 else np.int64
        self._pos = np.full(1 << bits, -1, dtype=kind)
        # A block of keys at a time (their slots, positions and keepers at once were 0.3 GB
        # of temporaries on 20 million prefixes, held through the next level's build).
        for lo in range(0, n, INDEX_BLOCK):
            hi = min(lo + INDEX_BLOCK, n)
            # The last key of a slot keeps it: the others are shared.
            self._pos[self._slot(keys[lo:hi])] = np.arange(lo, hi, dtype=kind)
        lost_l, keeper_l = [], []
        for lo in range(0, n, INDEX_BLOCK):
            hi = min(lo + INDEX_BLOCK, n)
            kept = np.take(self._pos, self._slot(keys[lo:hi]))  # (a third faster than [])
            lost = np.flatnonzero(kept != np.arange(lo, hi, dtype=kind))
            lost_l.append(lost + lo)
            keeper_l.append(kept[lost])
        lost = np.concatenate(lost_l) if lost_l else np.zeros(0, dtype=np.int64)
        keeper = np.concatenate(keeper_l) if keeper_l else np.zeros(0, dtype=kind)
        del lost_l, keeper_l
        for lo in range(0, lost.size, INDEX_BLOCK):
            self._pos[self._slot(keys[lost[lo : lo + INDEX_BLOCK]])] = -2
        # The keys of shared slots: those that lost theirs, and the one that kept each.
        mark = np.zeros(n, dtype=bool)
        mark[lost] = True
        mark[keeper] = True
        del lost, keeper
        self._shared = np.flatnonzero(mark).astype(kind)
        del mark
        # The keys of shared slots: a slot index of their own, by another hash (a sixth of
        # them share a slot again), then a key index (sorted: the few left).
        self._rest: SlotIndex | KeyIndex
        if level + 1 < len(SLOT_MIXES) and self._shared.size > SHARED_SORTED:
            self._rest = SlotIndex(keys[self._shared], level + 1)
        else:
            self._rest = KeyIndex(keys[self._shared])

    def sharing(self, shift: np.uint64, mix: np.uint64) -> np.ndarray | None:
        """The positions of the keys that share their slot with another key, when the slots
        are the top bits (below ``shift``) of the keys' products with ``mix``: those of this
        index's own slots (its first level), else None (not known)."""
        if shift != self._shift or mix != self._mix:
            return None
        return self._shared

    def _slot(self, keys: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):  # the product modulo 2**64 is the point
            slot = keys * self._mix
        slot >>= self._shift
        return slot.view(np.int64)

    def find(self, query: np.ndarray) -> np.ndarray:
        """The position in ``keys`` of each of ``query`` (uint64), or -1, shape of ``query``
        (int32 when ``keys`` has fewer than ``2 ** 31`` entries, else int64)."""
        out = np.take(self._pos, self._slot(query))
        some = np.flatnonzero(out >= 0)
        at = out[some]
        out[some[np.take(self.keys, at) != query[some]]] = -1  # another key's slot: not there
        several = np.flatnonzero(out == -2)
        if several.size:
            found = self._rest.find(query[several])
            out[several] = np.where(found >= 0, self._shared[np.maximum(found, 0)], -1)
        return out


#: Slots of :class:`SlotBounds` per key (at least; a power of two): fewer slots shared by
#: suffixes that are no prefix's, against a larger table read at random. With 4, a fifth of
#: the suffixes are candidates (2: a quarter to a third, 30% more to look up exactly; ENABLE
#: and the Polish quarter read the 4 MB and 32 MB tables as fast as the 2 and 16 MB ones).
SLOTS_PER_KEY = 4


#: Keys written at a time by :class:`SlotBounds` (its 64-bit temporaries stay this size).
BOUNDS_BLOCK = 1 << 20


class SlotBounds:
    """Lower bounds of values stored under 64-bit keys, read by key in one step: a table of
    ``2 ** bits`` 16-bit slots (4 MB for ENABLE's 0.4 million prefixes), each holding the
    least value of the keys whose hash is that slot, rounded down to a multiple of a step.

    Parameters
    ----------
    keys : numpy.ndarray of uint64, shape ``(n,)``
    values : numpy.ndarray of int32 or int64, shape ``(n,)``
    index : SlotIndex, optional
        A slot index of these ``keys`` (the same array): the keys of its shared slots are
        those of the shared slots here when it has the same slots (its first level).

    Notes
    -----
    A slot holds ``(value - base) // step`` (at most ``EMPTY - 1``), ``EMPTY`` where no key
    has that slot; ``base`` is the least value and ``step`` the least that fits the range in
    15 bits (1 for values within 32,766 of each other). The table is small on purpose: read
    at random by millions of suffixes, a table of 64-bit values (16 MB) took three times as
    long once a solve had filled the memory (its pages out of the processor's reach). Built
    by one ``numpy.minimum.at`` over the keys' slots (ENABLE: 1.2 ms, where the least of each
    run of the keys sorted by slot took 4.2 ms); given the ``index``, by one scatter of every
    key's value and a ``numpy.minimum.at`` over the keys of shared slots only, a sixth of them
    (3.1 million keys: 13 + 7 ms, where ``minimum.at`` over them all took 50).
    """

    EMPTY = (1 << 15) - 1

    def __init__(
        self, keys: np.ndarray, values: np.ndarray, index: SlotIndex | None = None
    ) -> None:
        bits = slot_bits(keys.size, SLOTS_PER_KEY)
        self._shift = np.uint64(64 - bits)
        self.base = int(values.min()) if values.size else 0
        span = int(values.max()) - self.base if values.size else 0
        self.step = max(1, -(-(span + 1) // (self.EMPTY - 1)))
        self.table = np.full(1 << bits, self.EMPTY, dtype=np.int16)
        if not keys.size:
            return
        shared = (
            None
            if index is None or index.keys is not keys
            else index.sharing(self._shift, SLOT_MIX)
        )
        # A block of keys at a time (their slots and values in 64 bits were 0.3 GB of
        # temporaries at once on 977,555 31-mers of C. elegans' 20 million prefixes, the
        # check's peak). Without the index: the least of each slot's keys. With it: a slot of
        # one key holds its value, written at once; a shared slot holds one of its keys'
        # values, then the least of them all (``minimum.at`` over those keys only).
        for lo in range(0, keys.size, BOUNDS_BLOCK):
            part = slice(lo, lo + BOUNDS_BLOCK)
            least16, slot = self._least(values[part]), self._slot(keys[part])
            if shared is None:
                np.minimum.at(self.table, slot, least16)
            else:
                self.table[slot] = least16
        # The least of each shared slot, a block of its keys at a time (a sixth of 20 million
        # keys at once: 0.15 GB of temporaries, the check's peak); the least is the same.
        every = np.zeros(0, dtype=np.int64) if shared is None else shared
        for lo in range(0, every.size, BOUNDS_BLOCK):
            at = every[lo : lo + BOUNDS_BLOCK]
            np.minimum.at(self.table, self._slot(keys[at]), self._least(values[at]))

    def _least(self, values: np.ndarray) -> np.ndarray:
        """The values as the table holds them: ``(value - base) // step``, int16 (below
        ``EMPTY``)."""
        # In 64 bits: the values may be int32 (a prefix table's v1), whose differences can
        # exceed 2 ** 31 (NumPy keeps int32 - int in 32 bits, wrapping).
        least = np.subtract(values, self.base, dtype=np.int64)
        if self.step > 1:
            least //= self.step
        return least.astype(np.int16)

    def _slot(self, keys: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):  # the product modulo 2**64 is the point
            slot = keys * SLOT_MIX
        slot >>= self._shift
        return slot.view(np.int64)

    def below_gains(
        self,
        keys: np.ndarray,
        gain: np.ndarray,
        size: np.ndarray,
        low: np.ndarray,
        count: np.ndarray,
    ) -> np.ndarray:
        """Whether the bound of each key is below ``gain[size] - low``, ``low`` given for groups
        of ``count`` keys: :meth:`below` of those limits, formed in 32 bits when they fit
        (``step`` 1, the gains and the ``low`` within ``2 ** 30`` of ``base``: the usual
        certificate) and else in 64.

        Parameters
        ----------
        keys : numpy.ndarray of uint64, shape ``(n,)``
        gain : numpy.ndarray of int64, shape ``(m,)``
            A value for each size (the joint's right-hand side of a suffix of that length).
        size : numpy.ndarray of unsigned int, shape ``(n,)``
            Each key's entry of ``gain`` (below ``m``).
        low : numpy.ndarray of int64, shape ``(groups,)``
            Subtracted from the gains of each group's keys.
        count : numpy.ndarray of int64, shape ``(groups,)``
            The keys of each group, in order (``n`` in all).

        Returns
        -------
        numpy.ndarray of bool, shape ``(n,)``

        Examples
        --------
        >>> keys = np.arange(1, 5, dtype=np.uint64)
        >>> bounds = SlotBounds(keys, np.array([3, 3, 3, 3]))
        >>> gain, size = np.array([0, 1, 4, 9]), np.array([2, 3, 2, 3], dtype=np.uint8)
        >>> bounds.below_gains(keys, gain, size, np.array([1, 6]), np.array([2, 2])).tolist()
        [False, True, False, False]
        """
        w = low + self.base  # the limit less base: gain - (low + base), in units of step
        fits = self.step == 1 and gain.size > 0 and w.size > 0
        fits = fits and max(-int(gain.min()), int(gain.max())) < 1 << 30
        fits = fits and max(-int(w.min()), int(w.max())) < 1 << 30
        if not fits:
            limit = gain[size]
            limit -= spread(low, count)
            return self.below(keys, limit)
        # numpy.take: indexing by an unsigned array converts it first (twice the time)
        limit32 = np.take(gain.astype(np.int32), size)
        limit32 -= spread(w.astype(np.int32), count)
        np.minimum(limit32, self.EMPTY, out=limit32)  # EMPTY is never below
        return np.asarray(np.take(self.table, self._slot(keys)) < limit32)

    def below(self, keys: np.ndarray, limit: np.ndarray) -> np.ndarray:
        """Whether the bound of each key is below ``limit`` (int64, overwritten)."""
        limit -= self.base
        if self.step > 1:  # bound < limit exactly when quantum < ceil(limit / step)
            np.negative(limit, out=limit)
            limit //= self.step
            np.negative(limit, out=limit)
        np.clip(limit, -self.EMPTY - 1, self.EMPTY, out=limit)  # EMPTY is never below
        return np.asarray(self.table[self._slot(keys)] < limit.astype(np.int16))


def _sorted_by_slot(slot: np.ndarray, bits: int) -> np.ndarray:
    """A stable order of the slots (int64 values below ``2 ** bits``): radix sorts of 16-bit
    digits (NumPy sorts 8 and 16-bit keys by radix, a byte a pass; the high digit of up to 24
    bits in one byte), a general stable sort past 32 bits."""
    if bits > 32:
        return np.argsort(slot, kind="stable")
    order = np.argsort((slot & 0xFFFF).astype(np.uint16), kind="stable")
    if bits > 16:
        high = (slot[order] >> 16).astype(np.uint8 if bits <= 24 else np.uint16)
        order = order[np.argsort(high, kind="stable")]
    return order


@dataclass
class PrefixTable:
    """The prefixes of a set of words, each with the two smallest values of the words that
    start with it.

    Attributes
    ----------
    keys : numpy.ndarray of uint64, shape ``(prefixes,)``
        The prefixes' hash keys, in order of the word that opens each (the first word that
        starts with it), that word's shortest first (the empty prefix, key 0, first); 0 for
        the prefixes left out of the index (``useful``: not computed).
    length : numpy.ndarray of uint8 (uint16, uint32: the smallest unsigned type that holds
        the longest word), shape ``(prefixes,)``
        The prefix's length (one byte a prefix, not 8: C. elegans' 977,555 31-mers have 20
        million prefixes). Form products and sums with it in int64 (NumPy keeps uint8 * uint8
        in 8 bits).
    word : numpy.ndarray of int64, shape ``(prefixes,)``
        A word of the table that starts with the prefix (the one that opens its run: formed
        when asked for, not held).
    v1 : numpy.ndarray of int32 (int64 when some value does not fit 32 bits), shape
        ``(prefixes,)``
        The smallest value (:attr:`RunValues.v1`): add it to int64 arrays (NumPy keeps int32 +
        int32 in 32 bits, wrapping).
    whole : numpy.ndarray of int64, shape ``(words,)``, or None
        The prefix that is each word of the table, whole (by its place among the table's
        words; None when ``proper``: a prefix is shorter than its word).
    i1, v2, i2 : numpy.ndarray of int64, shape ``(prefixes,)``
        Its word, the second smallest value and its word (``i2 = -1``: one word starts with
        the prefix): computed for every prefix when first asked; :meth:`others` computes them
        for a few.
    """

    letters: Letters
    keys: np.ndarray
    length: np.ndarray
    v1: np.ndarray
    runs: RunValues = field(repr=False)
    index: SlotIndex = field(repr=False)
    useful: np.ndarray | None = field(default=None, repr=False)
    _bounds: SlotBounds | None = field(default=None, repr=False)
    _others: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(default=None, repr=False)
    whole: np.ndarray | None = field(default=None, repr=False)

    @property
    def word(self) -> np.ndarray:
        return self.runs.ids[self.runs.lo]

    @property
    def i1(self) -> np.ndarray:
        return self._every_other()[0]

    @property
    def v2(self) -> np.ndarray:
        return self._every_other()[1]

    @property
    def i2(self) -> np.ndarray:
        return self._every_other()[2]

    def _every_other(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._others is None:
            self._others = self.runs.others(np.arange(self.v1.size))
        return self._others

    def others(self, node: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(i1, v2, i2)`` of the prefixes ``node`` (int64 arrays, shape of ``node``)."""
        return self.runs.others(node)

    @classmethod
    def build(
        cls,
        letters: Letters,
        ids: np.ndarray,
        values: np.ndarray,
        proper: bool,
        needed: Callable[[np.ndarray, np.ndarray], np.ndarray | None] | None = None,
        neighbours: np.ndarray | None = None,
    ) -> PrefixTable:
        """The table of the words ``ids`` (sorted, ascending: the words are sorted) with their
        ``values`` (indexed by word id): every prefix of each word, shorter than the word when
        ``proper``.

        ``neighbours``, when given, is ``letters.lcp_with_previous`` of every word: the longest
        common prefixes of the words ``ids`` are then read from it (:func:`subset_lcp`), not
        compared again (a check builds a table for the words outside the cuts and one for each
        class of the words inside).

        ``needed(length, v1)``, when given, tells (bool array; None: all) the prefixes a
        suffix may be looked up for: the others are left out of the index (:meth:`find` and
        :meth:`below` answer as for a string no word starts with). The check leaves out those
        whose smallest value no query word's least left-hand side can bring below the joint's
        (most prefixes of a superstring certificate's k-mers).

        Raises
        ------
        HashCollision
            Two distinct prefixes hashed alike ``HASH_DRAWS`` times.
        """
        ids = np.asarray(ids, dtype=np.int64)
        top = letters.lens[ids] - (1 if proper else 0)  # each word's longest prefix
        if top.size and top.min() < 0:  # an empty word has no prefix when proper
            ids, top = ids[top >= 0], top[top >= 0]
        # A word's entry of length L is the entry before it at that length's prefix exactly
        # when the word before it in the list shares L letters with it and has that entry.
        if neighbours is None:
            shared = letters.lcp_with_previous(ids)
        else:
            shared = subset_lcp(neighbours, ids)
        shared[1:] = np.minimum(shared[1:], top[:-1])
        # A word's whole length is the last prefix it opens (no word before it starts with it)
        whole = None if proper else np.cumsum(np.maximum(top - shared, 0)) - 1
        lo, length, hi = _prefix_runs(top, shared)
        del shared, top
        runs = RunValues(lo, hi, ids, np.asarray(values, dtype=np.int64))
        del hi  # (the runs hold the ends of those of several words only)
        v1 = runs.v1
        wanted = None if needed is None else needed(length, v1)
        useful = None if wanted is None else np.flatnonzero(wanted).astype(np.int32)
        del wanted
        if useful is not None and useful.size == length.size:
            useful = None  # every prefix: no copy of the keys, no map of the index's places
        for _ in range(HASH_DRAWS):
            keys = _prefix_keys(letters, runs, length, useful)
            try:
                index = SlotIndex(keys if useful is None else keys[useful])  # equal keys: found
                break
            except HashCollision:
                letters.draw()
        else:
            raise HashCollision
        return cls(letters, keys, length, v1, runs, index, useful, whole=whole)

    def find(self, key: np.ndarray) -> np.ndarray:
        """The prefix whose hash is ``key`` (uint64), or -1, shape of ``key`` (a match is a
        candidate: :meth:`prefix_of` confirms it)."""
        found = self.index.find(key)
        if self.useful is None:
            return found
        return np.where(found >= 0, self.useful[np.maximum(found, 0)], -1)

    def below(self, key: np.ndarray, limit: np.ndarray) -> np.ndarray:
        """Whether a lower bound of the smallest value (``v1``) of the prefix whose hash is
        each ``key`` (uint64) is below ``limit`` (int64, same shape; overwritten): bool, shape
        of ``key``. False where no prefix can have that key.

        The bound is read from a small table (:class:`SlotBounds`, one read a key: no probe,
        no comparison of keys). A key that is a prefix's has that prefix's slot, so the bound
        holds for every real match; a key that is no prefix's reads at worst another prefix's
        bound (the caller confirms what it acts on with :meth:`find`).
        """
        return self.bounds().below(key, limit)

    def bounds(self) -> SlotBounds:
        """The slot bounds of the prefixes in the index (built once)."""
        if self._bounds is None:
            v1 = self.v1 if self.useful is None else self.v1[self.useful]
            self._bounds = SlotBounds(self.index.keys, v1, self.index)  # its keys, in order
        return self._bounds

    def prefix_of(self, node: int) -> str:
        """The prefix's string, read from the words."""
        word = int(self.runs.ids[int(self.runs.lo[node])])
        return self.letters.words[word][: int(self.length[node])]


def _prefix_keys(
    letters: Letters, runs: RunValues, length: np.ndarray, useful: np.ndarray | None
) -> np.ndarray:
    """The keys of the prefixes of ``length`` letters of the words that open their ``runs``
    (uint64; 0 for the empty prefix, first when there is one): those of ``useful`` only, when
    given (the others 0: a superstring certificate's k-mers need a tenth of their prefixes).

    A block of :data:`KEY_BLOCK` prefixes at a time: their first and last letters in 64 bits
    (20 million prefixes' at once were 0.3 GB of temporaries, the check's peak)."""
    keys = np.zeros(length.size, dtype=np.uint64)
    n = length.size if useful is None else useful.size
    for lo in range(0, n, KEY_BLOCK):
        hi = min(lo + KEY_BLOCK, n)
        if useful is None:
            at: slice | np.ndarray = slice(1 if lo == 0 and length[0] == 0 else lo, hi)
        else:  # the empty prefix (the first, if any) is no other's: key 0
            at = useful[lo:hi]
            at = at[length[at] > 0]
        first = letters.start[runs.ids[runs.lo[at]]]
        last = first + length[at].astype(np.int64)  # in 64 bits, not the lengths' 8
        last -= 1
        keys[at] = letters.prefix_keys(first, last)
    return keys


def subset_lcp(neighbours: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The longest common prefix of each word of ``ids`` with the one before it in ``ids``
    (-1 for the first), from ``neighbours``, every word's with the word before it in the
    sorted list (:meth:`Letters.lcp_with_previous` of all the words): the common prefix of two
    sorted words is the least of the neighbours' between them (one ``minimum.reduceat``).

    Parameters
    ----------
    neighbours : numpy.ndarray of int64, shape ``(words,)``
    ids : numpy.ndarray of int64, shape ``(n,)``
        Ascending, distinct.

    Returns
    -------
    numpy.ndarray of int64, shape ``(n,)``

    Examples
    --------
    >>> words = Letters(["ab", "abc", "abd", "b"])
    >>> subset_lcp(words.lcp_with_previous(np.arange(4)), np.array([0, 2, 3])).tolist()
    [-1, 2, 0]
    """
    out = np.full(ids.size, -1, dtype=np.int64)
    if ids.size == neighbours.size:  # every word (ids ascending and distinct)
        out[1:] = neighbours[1:]
    elif ids.size > 1:  # word t's common prefix with t - 1: the least of (ids[t-1], ids[t]]
        out[1:] = np.minimum.reduceat(neighbours[: int(ids[-1]) + 1], ids[:-1] + 1)
    return out


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
    return counting(first, count, np.int64), count


def _prefix_runs(top: np.ndarray, shared: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The prefixes of sorted words as runs of consecutive words: ``(lo, length, hi)``, one
    entry a distinct prefix, in order of ``lo`` (the word that opens it), shortest first for
    one word; the words at positions ``lo`` to ``hi - 1`` are those that start with it (``lo``
    and ``hi`` int32, int64 past ``2 ** 31`` words; ``length`` uint8, uint16 or uint32, the
    smallest that holds the longest word's).

    ``top``: each word's longest prefix (its length, or one less when proper; >= 0);
    ``shared``: the length up to which the prefixes of a word are the previous word's (-1 for
    the first). Word ``r`` opens the runs of the lengths ``shared[r] + 1`` to ``top[r]``; word
    ``t`` closes those of ``shared[t + 1] + 1`` to ``top[t]`` (every length for the last).
    The runs of one length are disjoint and in order, so the ``i``-th opening of a length and
    its ``i``-th closing bound one run: two stable sorts by length (radix sorts of the lengths
    as 8 or 16-bit keys, built in that type) of the runs of two words or more (the others
    close where they open), one entry a prefix, instead of one entry a prefix of every word.
    The entries stay in the order they are opened in (each closing is written at its
    opening's place), so that the prefixes' letters are read word after word.

    Examples
    --------
    >>> top = np.array([1, 2, 1])  # "a", "ab", "b"
    >>> [x.tolist() for x in _prefix_runs(top, np.array([-1, 1, 0]))]
    [[0, 0, 1, 2], [0, 1, 2, 1], [3, 2, 2, 3]]
    """
    after = np.append(shared[1:], -1)  # what each word shares with the next
    longest = int(top.max(initial=0))
    kind = np.uint8 if longest < 1 << 8 else np.uint16 if longest < 1 << 16 else np.uint32
    lo, length = _entries(shared + 1, np.maximum(top - shared, 0), kind)
    # A run that one word alone starts with (longer than what the word shares with the next:
    # half the prefixes of ENABLE, nearly all a k-mer list's) closes where it opens; only the
    # others are paired, and the closings of the others only are listed: those of the lengths
    # a word shares with the word before it and not with the next.
    hi = lo + 1
    inner = np.flatnonzero(length <= after[lo])
    last, closing = _entries(after + 1, np.maximum(np.minimum(top, shared) - after, 0), kind)
    # The i-th opening of a length and its i-th closing bound one run: each opening's closing,
    # written where the opening is (the entries stay word after word: the prefixes' letters
    # are then read in order of their words, not at random).
    last += 1
    hi[inner[np.argsort(length[inner], kind="stable")]] = last[np.argsort(closing, kind="stable")]
    return lo, length, hi


def _entries(
    first: np.ndarray, count: np.ndarray, kind: type[np.unsignedinteger]
) -> tuple[np.ndarray, np.ndarray]:
    """``count[r]`` entries of each row ``r``, with the values ``first[r]``, ``first[r] + 1``,
    ...: ``(row of each entry, its value)``, row after row; the rows int32 (int64 past ``2 **
    31``), the values of type ``kind`` (which holds them all), formed in 32 bits: running
    sums (:func:`spread`, :func:`counting`; ENABLE: 2.6 ms, where ``numpy.repeat``, which
    copies entry by entry, took 6).

    Examples
    --------
    >>> [x.tolist() for x in _entries(np.array([2, 0, 5]), np.array([2, 0, 1]), np.uint8)]
    [[0, 0, 2], [2, 3, 5]]
    """
    rows = np.arange(count.size, dtype=np.int32 if count.size < 1 << 31 else np.int64)
    row = spread(rows, count)
    wide = np.int32 if row.size < 1 << 31 else np.int64
    return row, counting(first, count, wide).astype(kind)
