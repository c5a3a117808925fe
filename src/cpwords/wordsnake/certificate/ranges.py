"""The smallest values of runs of consecutive words for the checker's prefix table
(:class:`cpwords.wordsnake.certificate.arrays.PrefixTable`): a range minimum over the words
ranked by value (a sparse table) gives the smallest of every run, the least of the two ranges
beside it the second, for the few runs asked about."""

from __future__ import annotations

import numpy as np


class RangeMin:
    """The least of ``rank[a:b]`` for many ranges at once, from a sparse table (every power of
    two's window minima: Bender and Farach-Colton, "The LCA problem revisited", LATIN 2000).

    Parameters
    ----------
    rank : numpy.ndarray of int, shape ``(n,)``
        Values below ``n`` (ranks).

    Notes
    -----
    ``log2(n) + 1`` arrays of at most ``n`` int32 (ENABLE's 172,823 words: 12 MB), built in
    as many whole-array minima, each written in place into one table (no level copied into
    it afterwards); a query reads two windows that cover its range.
    """

    def __init__(self, rank: np.ndarray, none: int | None = None) -> None:
        n = rank.size
        self.none = n if none is None else none  # the least of an empty range
        sizes = [n]
        while 2 << (len(sizes) - 1) <= n:
            sizes.append(n - (2 << (len(sizes) - 1)) + 1)  # windows of 2 ** j in n
        self.offset = np.cumsum([0, *sizes[:-1]]).astype(np.int64)
        self.table = np.empty(sum(sizes) + 1, dtype=np.int32)
        self.table[-1] = self.none  # the entry of an empty range
        self.table[:n] = rank
        for j in range(1, len(sizes)):
            at, half = int(self.offset[j - 1]), 1 << (j - 1)
            prev = self.table[at : at + sizes[j - 1]]
            np.minimum(prev[:-half], prev[half:], out=self.table[at + sizes[j - 1] :][: sizes[j]])
        self.level = np.zeros(n + 1, dtype=np.int64)  # floor(log2(size)) by size
        for j in range(1, len(sizes)):
            self.level[1 << j :] += 1

    def least(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The least rank in each range ``[a, b)`` (int64 arrays; ``n`` for an empty one),
        int32."""
        size = np.maximum(b - a, 0)
        j = self.level[size]
        left = self.offset[j] + a
        right = self.offset[j] + b - (np.int64(1) << j)
        empty = size == 0
        left[empty] = right[empty] = self.table.size - 1  # the entry n
        return np.minimum(self.table[left], self.table[right])


def fits_int32(low: int, high: int) -> bool:
    """Whether every integer from ``low`` to ``high`` fits in an int32.

    Examples
    --------
    >>> fits_int32(-(2**31), 2**31 - 1), fits_int32(0, 2**31)
    (True, False)
    """
    return low >= -(1 << 31) and high < 1 << 31


#: The key of an empty range of packed keys (:class:`RunValues`): above every packed key.
PACKED_NONE = (1 << 31) - 1


class RunValues:
    """The values of the words of runs of consecutive words (``ids[lo:hi]``, one run a
    prefix): the smallest of every run at once, the word of it and the second smallest (and
    its word) for the runs asked about, the words ranked by value, then by position.

    Parameters
    ----------
    lo, hi : numpy.ndarray of int32 or int64, shape ``(runs,)``
        Each run's first position in ``ids`` and the one past its last (``lo`` is held;
        ``hi`` for the runs of several words only).
    ids : numpy.ndarray of int64, shape ``(n,)``
        The words.
    values : numpy.ndarray of int64
        Indexed by word id.

    Attributes
    ----------
    v1 : numpy.ndarray of int32 (int64 when some value does not fit 32 bits), shape ``(runs,)``
        The smallest value of each run (4 bytes a prefix: C. elegans' 977,555 31-mers have 20
        million). Sums with it are formed in 64 bits (NumPy keeps int32 + int32 in 32 bits).

    Notes
    -----
    A range minimum of the ranks (:class:`RangeMin`) for the smallest of a run of two words
    or more; the least of the two ranges beside it for the second. The ranks are the words'
    values and places packed in one int32 (value above, place below: ordered as the pairs)
    when they fit, else their order by value (a stable sort). The check reads the
    smallest of every prefix and the rest only for its candidates (a tenth of the suffixes).
    """

    def __init__(self, lo: np.ndarray, hi: np.ndarray, ids: np.ndarray, values: np.ndarray):
        self.lo, self.ids = lo, ids
        # The runs of several words, ascending, and their ends: the others end past their
        # start (C. elegans' 977,555 31-mers: 1 million runs of 20 million, 8 MB, not 80).
        several = np.flatnonzero(hi - lo > 1)
        self.several, self.several_hi = several.astype(lo.dtype), hi[several]
        del several
        self.val = values[ids]
        least = int(self.val.min()) if ids.size else 0
        span = int(self.val.max()) - least if ids.size else 0
        self.shift = ids.size.bit_length()
        if (span + 1) << self.shift < PACKED_NONE:
            # Value and place packed in one int32 key, compared as the pair (value, place):
            # no sort of the words by value, no rank (ENABLE: 0.002 s of 0.006).
            self.base = least
            key = (self.val - least).astype(np.int32)
            key <<= self.shift
            key |= np.arange(ids.size, dtype=np.int32)
            # The value less the least (the key's high bits, in place), then plus it: in 32
            # bits when every value fits them (the sum is a value then: no wrap), else in 64.
            v1 = self._rank_runs(key, PACKED_NONE)
            v1 >>= self.shift
            if fits_int32(least, least + span):
                v1 += least
                self.v1 = v1
            else:
                self.v1 = v1.astype(np.int64) + least
            self.by_value = None
            return
        if ids.size and span < 1 << 16:  # a radix sort of 16-bit keys
            self.by_value = np.argsort((self.val - least).astype(np.uint16), kind="stable")
        else:
            self.by_value = np.argsort(self.val, kind="stable")
        rank = np.empty(ids.size, dtype=np.int32 if ids.size < 1 << 31 else np.int64)
        rank[self.by_value] = np.arange(ids.size, dtype=rank.dtype)
        first = self._rank_runs(rank, ids.size)
        fits = fits_int32(least, least + span)
        self.v1 = (self.val.astype(np.int32) if fits else self.val)[self.by_value[first]]

    def _rank_runs(self, rank: np.ndarray, none: int) -> np.ndarray:
        """The least of ``rank`` over each run (``ranges``: their range minima; ``rank``, one
        entry a word, is kept: the least of the runs asked about is read again, not held, 4
        bytes a run)."""
        self.rank, self.none = rank, none
        self.ranges = RangeMin(rank, none) if self.several.size else None
        least = rank[self.lo]  # a run of one word
        if self.ranges is not None:
            at = self.several
            least[at] = self.ranges.least(self.lo[at], self.several_hi)
        return least

    def _several_of(self, run: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The places in ``run`` of its runs of several words, and their ends."""
        if not self.several.size:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=self.several_hi.dtype)
        pos = np.minimum(np.searchsorted(self.several, run), self.several.size - 1)
        at = np.flatnonzero(self.several[pos] == run)
        return at, self.several_hi[pos[at]]

    def _least(self, run: np.ndarray) -> np.ndarray:
        """The least rank over each run of ``run`` (a range minimum where several words)."""
        least = self.rank[self.lo[run]]  # a run of one word
        at, hi = self._several_of(run)
        if at.size and self.ranges is not None:
            least[at] = self.ranges.least(self.lo[run[at]], hi)
        return least

    def _place_value(self, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The place among ``ids`` and the value of each key (a rank, or a packed key)."""
        if self.by_value is None:
            place = (key & ((1 << self.shift) - 1)).astype(np.int64)
            return place, (key >> self.shift).astype(np.int64) + self.base
        place = self.by_value[key]
        return place, self.val[place]

    def others(self, run: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(word of the smallest, second smallest value, its word)`` of the runs ``run``
        (0 and -1 for a run of one word), int64 arrays."""
        first = self._least(run)
        w1, _ = self._place_value(first)
        second = np.full(run.size, self.none, dtype=np.int64)
        several, b = self._several_of(run)
        if several.size and self.ranges is not None:
            a, at = self.lo[run[several]], w1[several]
            second[several] = np.minimum(self.ranges.least(a, at), self.ranges.least(at + 1, b))
        has_two = second != self.none
        w2, v2 = self._place_value(np.where(has_two, second, first))
        return self.ids[w1], np.where(has_two, v2, 0), np.where(has_two, self.ids[w2], -1)
