"""Words as one array of code points, with hashes of their substrings: array code for the
independent checkers (the ordering checker of a wing's rules, the Wordsnake's certificate
checker), which share none of it with the models.

**Hashing, then verifying.** A substring's key is a polynomial hash of its code points modulo
``2**64`` with an odd base drawn at random for every :class:`Letters` (a few families of strings,
Thue-Morse words of thousands of letters, collide for every base: callers confirm every match
they act on letter by letter, as :func:`joint_overlaps` does, so a collision costs time, never a
wrong answer).

References
----------
R. M. Karp, M. O. Rabin, "Efficient randomized pattern-matching algorithms", IBM Journal of
Research and Development 31(2) (1987) (polynomial hashing of substrings).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence

import numpy as np

from cpwords.core.runs import counting, spread


def segments(count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For segments of ``count`` entries each: every entry's segment and its place in it."""
    seg = spread(np.arange(count.size, dtype=np.int64), count)
    return seg, counting(np.zeros(count.size, dtype=np.int64), count, np.int64)


def _unsigned_for(top: int) -> type[np.unsignedinteger]:
    """The smallest unsigned integer type that holds ``top`` (>= 0)."""
    for kind in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(kind).max:
            return kind
    return np.uint64


class Letters:
    """The words as one integer array of code points, with the hashes of their substrings.

    Parameters
    ----------
    words : sequence of str
        The distinct words, sorted.
    joined : str, optional
        ``"\\n".join(words)``, when the caller has it (not joined again: a Polish list of 1.1
        million words, 0.03 s).

    Attributes
    ----------
    lens : numpy.ndarray of int64, shape ``(n,)``
        The words' lengths in code points.
    start : numpy.ndarray of int64, shape ``(n + 1,)``
        Where each word starts in ``cp`` (and ``start[n]``, the total).
    cp : numpy.ndarray of uint32, shape ``(total letters,)``
        The code points, word after word (read-only).
    """

    def __init__(self, words: Sequence[str], joined: str | None = None) -> None:
        self.words = words
        self.start = np.zeros(len(words) + 1, dtype=np.int64)
        # The words joined by line feeds, which end them when no word holds one (there are
        # then one fewer than the words): their places give the lengths without a Python step
        # per word.
        text = "\n".join(words) if joined is None else joined
        cp = np.frombuffer(text.encode("utf-32-le"), dtype="<u4")
        feed = np.flatnonzero(cp == 10)
        if feed.size == len(words) - 1 and words:  # only the feeds that join the words
            self.start[1:-1] = feed - np.arange(feed.size)
            self.start[-1] = cp.size - feed.size
            self.cp = cp[cp != 10]
        else:
            np.cumsum(
                np.fromiter(map(len, words), dtype=np.int64, count=len(words)), out=self.start[1:]
            )
            self.cp = np.frombuffer("".join(words).encode("utf-32-le"), dtype="<u4")
        self.lens = np.diff(self.start)
        self._lead: np.ndarray | None = None  # drawn when first asked for
        self._trail: np.ndarray = np.zeros(0, dtype=np.uint64)
        self._base = 1
        self._suffix: np.ndarray | None = None
        self._windows: tuple[np.ndarray, int] | None = None
        self._small: np.ndarray | None = None
        self._to_end: np.ndarray | None = None

    def to_end(self) -> np.ndarray:
        """Every letter's distance to its word's end (1 for the last letter: the length of the
        suffix that starts there), shape ``(total letters,)``, in the smallest unsigned integer
        type that holds the longest word (uint8 for most lists). Computed once, read-only.

        Examples
        --------
        >>> Letters(["abc", "", "de"]).to_end().tolist()
        [3, 2, 1, 2, 1]
        """
        if self._to_end is None:
            kind = _unsigned_for(int(self.lens.max(initial=0)))
            # Each letter's word's end less its place, from the chunk's first letter, in 32
            # bits (a running sum of small integers, uint8, is no faster, having no vector
            # loop), a chunk of words at a time (no array of 4 bytes a letter)
            to_end = np.empty(self.cp.size, dtype=kind)
            for w0, w1 in self._word_chunks():
                lo, hi = int(self.start[w0]), int(self.start[w1])
                ends = spread((self.start[w0 + 1 : w1 + 1] - lo).astype(np.int32), self.lens[w0:w1])
                ends -= np.arange(hi - lo, dtype=np.int32)
                to_end[lo:hi] = ends
            to_end.flags.writeable = False
            self._to_end = to_end
        return self._to_end

    def _word_chunks(self) -> list[tuple[int, int]]:
        """The words in runs ``(first, past the last)`` of about :data:`LETTER_CHUNK` letters
        (a word longer than that alone), in order."""
        n = self.cp.size
        cuts = np.searchsorted(self.start[:-1], np.arange(0, n, LETTER_CHUNK)).tolist()
        return list(itertools.pairwise([*cuts, self.lens.size]))

    def letters_of(self, first: int = 0, last: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Each letter of the words ``first`` to ``last`` (inclusive; every word by default):
        its word (int32, int64 past ``2 ** 31`` words or letters; not kept: a chunk's worth at
        a time) and its distance to its word's end (1 for the last letter, the length of the
        suffix that starts there: a read-only slice of :meth:`to_end`, unsigned), arrays of
        the letters from ``start[first]`` to ``start[last + 1]``.

        Examples
        --------
        >>> [x.tolist() for x in Letters(["ab", "c"]).letters_of()]
        [[0, 0, 1], [2, 1, 1]]
        """
        last = self.lens.size - 1 if last is None else last
        lo, hi = int(self.start[first]), int(self.start[last + 1])
        kind = np.int32 if max(hi, self.lens.size) < 1 << 31 else np.int64
        word = np.repeat(np.arange(first, last + 1, dtype=kind), self.lens[first : last + 1])
        return word, self.to_end()[lo:hi]

    def draw(self) -> None:
        """Draw a new hash base (after a collision): an odd 64-bit integer."""
        self._suffix = None
        # 64 random bits, as secrets.randbits(64) draws them (secrets: 10 ms of start-up)
        base = int.from_bytes(os.urandom(8), "little") | 1
        inverse = pow(base, -1, 1 << 64)
        top = int(self.lens.max(initial=0))
        # Powers up to the longest word only: lead[t] = base ** (t - 1), trail[t] = base ** -(t
        # - 1) for a letter t from its word's end (an array a word's length long, not a
        # letter's: no running product over every letter).
        with np.errstate(over="ignore"):  # arithmetic modulo 2**64 is the point
            lead = np.full(top + 1, base, dtype=np.uint64)
            trail = np.full(top + 1, inverse, dtype=np.uint64)
            lead[:2] = trail[:2] = 1
            np.cumprod(lead, out=lead)
            np.cumprod(trail, out=trail)
        self._lead, self._trail, self._base = lead, trail, base

    def suffix_keys(self) -> np.ndarray:
        """Every letter's suffix key, computed once a draw: uint64 of shape ``(total
        letters,)``, the key of its word's letters from it to the word's end.

        The key of letters ``c_x ... c_(y-1)`` is ``sum of (c_g + 1) * base ** (y - 1 - g)``
        modulo ``2**64`` (Horner's hash). With every letter's term ``t_g = (c_g + 1) * base **
        (e - 1 - g)`` (``e`` its word's end: the power read from a table a word long, by
        :meth:`to_end`), a suffix's key is the sum of its terms: a running sum backwards over
        the whole list less, along each word, the sum at the next word's first letter (one
        running sum and one subtraction of a value repeated along each word: no sum a word).
        Whole-array passes in place, over one array a letter; a prefix's key is read from two
        suffix keys (:meth:`prefix_keys`).

        Examples
        --------
        >>> t = Letters(["ab", "b"]); suf = t.suffix_keys()
        >>> bool(suf[1] == suf[2] == t.prefix_keys(np.array([2]), np.array([2]))[0])
        True
        """
        if self._suffix is None:
            if self._lead is None:
                self.draw()
            assert self._lead is not None
            lead, to_end = self._lead, self.to_end()
            n = self.cp.size
            suffix = self.cp.astype(np.uint64)
            suffix += np.uint64(1)
            # The powers in chunks small enough to stay in the processor's cache (with the
            # indexes numpy.take converts): ENABLE 1.5 ms, where chunks of 2**20 took 4 to 6
            powers = np.empty(min(n, POWER_CHUNK), dtype=np.uint64)
            for lo in range(0, n, POWER_CHUNK):
                hi = min(n, lo + POWER_CHUNK)
                part = powers[: hi - lo]
                np.take(lead, to_end[lo:hi], out=part)
                suffix[lo:hi] *= part
            backwards = suffix[::-1]
            np.cumsum(backwards, dtype=np.uint64, out=backwards)  # the terms to the list's end
            # less those past the word: the running sum at the next word's first letter (0
            # past the last letter), taken off each word's letters a chunk of words at a time
            after = np.zeros(self.lens.size, dtype=np.uint64)
            inside = np.flatnonzero(self.start[1:] < n)
            after[inside] = np.take(suffix, self.start[1:][inside])
            for w0, w1 in self._word_chunks():
                lo, hi = int(self.start[w0]), int(self.start[w1])
                suffix[lo:hi] -= spread(after[w0:w1], self.lens[w0:w1])
            self._suffix = suffix
        return self._suffix

    def prefix_keys(self, first: np.ndarray, last: np.ndarray) -> np.ndarray:
        """The keys of the prefixes of words that start at letter ``first`` and end at letter
        ``last`` (inclusive; ``first <= last``, in one word), uint64 of the shape of ``first``.

        From the suffix keys: a word's key is its prefix's times ``base ** (e - 1 - last)``
        plus the key of the suffix after it, so the prefix's is ``(suffix[first] -
        suffix[last + 1]) * base ** -(e - 1 - last)`` (no suffix after the word's last letter).

        Examples
        --------
        >>> t = Letters(["ab", "abc"])
        >>> bool(t.prefix_keys(np.array([2]), np.array([3]))[0] == t.suffix_keys()[0])
        True
        """
        suffix, to_end, trail = self.suffix_keys(), self.to_end(), self._trail
        first, last = np.asarray(first, dtype=np.int64), np.asarray(last, dtype=np.int64)
        shape, first, last = first.shape, first.ravel(), last.ravel()
        key = np.empty(first.size, dtype=np.uint64)
        # In chunks whose arrays stay in the processor's cache (the Polish quarter's 3.1 million
        # prefixes: 0.024 s, 0.030 at once)
        for lo in range(0, first.size, POWER_CHUNK):
            at = last[lo : lo + POWER_CHUNK]
            left = to_end[at]
            after = np.take(suffix, at + 1, mode="clip")  # a word's last letter: 0 below
            after[left == 1] = 0
            part = key[lo : lo + POWER_CHUNK]
            np.take(suffix, first[lo : lo + POWER_CHUNK], out=part)
            with np.errstate(over="ignore"):
                part -= after
                part *= np.take(trail, left)
        return key.reshape(shape)

    def keys(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The hash keys of the substrings ``cp[x:y]`` of one word each (``x <= y``, both in
        the same word or ``y`` its end), shape of ``x``, uint64 (0 for empty): a prefix of the
        suffix from ``x``."""
        x, y = np.asarray(x, dtype=np.int64), np.asarray(y, dtype=np.int64)
        some = y > x
        key = np.zeros(x.shape, dtype=np.uint64)
        key[some] = self.prefix_keys(x[some], y[some] - 1)
        return key

    def lcp_with_previous(self, ids: np.ndarray) -> np.ndarray:
        """The longest common prefix of each word of ``ids`` with the one before it (``ids``
        in sorted order; -1 for the first), shape ``(len(ids),)``.

        Letter by letter, several at a time: the code points packed into 1, 2 or 4 bytes (the
        fewest that hold them all), every pair compares 8-byte windows of both words (8, 4 or 2
        letters) and counts the equal letters before the first difference from the lowest set
        bit of their exclusive or; the pairs still equal after :data:`LCP_ROUNDS` windows (long
        shared prefixes) are compared letter by letter over their whole length.

        Examples
        --------
        >>> Letters(["ab", "abc", "abd", "b"]).lcp_with_previous(np.arange(4)).tolist()
        [-1, 2, 2, 0]
        """
        out = np.full(ids.size, -1, dtype=np.int64)
        if ids.size < 2:
            return out
        a, b = ids[:-1], ids[1:]
        m = np.minimum(self.lens[a], self.lens[b])
        windows, lanes = self.windows()
        found = np.zeros(m.size, dtype=np.int64)
        live = np.flatnonzero(m > 0)
        # Where the pairs still equal are compared next, and the letters left to compare.
        at_a, at_b, rest = self.start[a][live], self.start[b][live], m[live]
        for _ in range(LCP_ROUNDS):
            if not live.size:
                break
            x = windows[at_a] ^ windows[at_b]
            # the bits below the lowest set bit (all 64 when equal), counted: the equal letters
            # (numpy.bitwise_count; ENABLE: 0.14 ms a round, 0.55 by the float's exponent)
            below = x & (~x + np.uint64(1))
            below -= np.uint64(1)
            same = np.bitwise_count(below)
            same >>= (64 // lanes).bit_length() - 1  # bits a letter: 8, 16 or 32
            found[live] += same
            on = np.flatnonzero((same == lanes) & (rest > lanes))
            live, at_a, at_b, rest = live[on], at_a[on] + lanes, at_b[on] + lanes, rest[on] - lanes
        if live.size:  # shared prefixes of more than LCP_ROUNDS windows
            found[live] = self._lcp_by_letters(a[live], b[live], m[live])
        out[1:] = np.minimum(found, m)
        return out

    def windows(self) -> tuple[np.ndarray, int]:
        """Every letter's 8-byte window (it and the next letters, each packed in 1, 2 or 4
        bytes, the fewest that hold them all; the first letter in the low byte), uint64 of shape
        ``(total letters,)``, and the letters a window holds (8, 4 or 2). Computed once. A
        letter is its code point when every code point fits in a byte, else its rank among the
        list's distinct code points (a Polish list's 82 letters: a byte each, 8 a window, not
        2 bytes and 4). The windows overlap (an unaligned view): read them by indexing
        (``numpy.take`` copies the whole view first when its letters take 2 bytes or 4).

        Examples
        --------
        >>> windows, lanes = Letters(["ab", "c"]).windows()
        >>> lanes, hex(int(windows[1]))
        (8, '0x6362')
        >>> Letters(["żab", "źa"]).windows()[1]
        8
        """
        if self._windows is None:
            letters = self.small_letters()
            width = letters.dtype.itemsize
            packed = np.zeros(self.cp.size * width + 8, dtype=np.uint8)
            packed[: self.cp.size * width] = letters.astype(f"<u{width}", copy=False).view(np.uint8)
            view = np.ndarray((self.cp.size,), dtype="<u8", buffer=packed, strides=(width,))
            self._windows = view, 8 // width
        return self._windows

    def small_letters(self) -> np.ndarray:
        """The letters in the fewest bytes that hold them: each letter's code point when every
        code point fits in a byte, else its rank among the list's distinct code points (uint8,
        uint16 or uint32, shape ``(total letters,)``; two letters are equal exactly when their
        code points are). Computed once, read-only.

        Examples
        --------
        >>> Letters(["żab", "źa"]).small_letters().tolist()
        [3, 0, 1, 2, 0]
        """
        if self._small is None:
            top = int(self.cp.max()) if self.cp.size else 0
            letters = self.cp
            if top >= 1 << 8:  # the distinct code points ranked: fewer bytes a letter
                # Indexes converted once (indexing by uint32 converts them at each use: a
                # Polish list's 13 million letters, 0.038 s instead of 0.024)
                at = letters.astype(np.intp)
                seen = np.zeros(top + 1, dtype=bool)
                seen[at] = True
                rank = np.cumsum(seen, dtype=np.int64) - 1
                top = int(rank[-1])
                letters = rank.astype(_unsigned_for(top))[at]
                del at
            else:
                letters = letters.astype(np.uint8)
            letters.flags.writeable = False
            self._small = letters
        return self._small

    def _lcp_by_letters(self, a: np.ndarray, b: np.ndarray, m: np.ndarray) -> np.ndarray:
        """The longest common prefix of words ``a[t]`` and ``b[t]`` (``m``: the shorter's
        length), every letter compared at once."""
        pair, pos = segments(m)
        left = self.cp[self.start[a][pair] + pos]
        right = self.cp[self.start[b][pair] + pos]
        first = np.where(left != right, pos, np.iinfo(np.int64).max)
        seg = np.cumsum(m) - m
        nonempty = m > 0
        found = np.full(m.size, np.iinfo(np.int64).max, dtype=np.int64)
        if nonempty.any():
            found[nonempty] = np.minimum.reduceat(first, seg[nonempty])
        return np.minimum(found, m)


#: Letters whose suffix keys :meth:`Letters.suffix_keys` restarts at once (its memory: 8 bytes
#: each; 2**18 letters, 2 MB, a little faster than 2**20 or 2**16).
LETTER_CHUNK = 1 << 18

#: Letters whose powers :meth:`Letters.suffix_keys` reads at once (a buffer of 512 kB), and
#: prefixes whose keys :meth:`Letters.prefix_keys` forms at once.
POWER_CHUNK = 1 << 16


#: Windows compared by :meth:`Letters.lcp_with_previous` before the rest is compared letter by
#: letter.
LCP_ROUNDS = 16


#: Hash comparisons made at once by :func:`joint_overlaps` (its memory: about 80 bytes each).
OVERLAP_CHUNK = 1 << 22


def joint_overlaps(letters: Letters, a: np.ndarray, b: np.ndarray, proper: bool) -> np.ndarray:
    """The longest suffix of word ``a[t]`` that is a prefix of word ``b[t]`` (shorter than both
    when ``proper``), for every ``t``, exactly.

    Parameters
    ----------
    letters : Letters
    a, b : numpy.ndarray of int64, shape ``(pairs,)``
        Word ids.
    proper : bool

    Returns
    -------
    numpy.ndarray of int64, shape ``(pairs,)``
        The overlaps, in letters.

    Notes
    -----
    Pairs whose first words ascend (an ordering's joints, each word the first of one at most)
    are read in place and compared letter by letter where the second word's first letter
    stands (:func:`_longest_matches_in_place`). Otherwise every length up to the shorter word
    is compared by hash (time O(sum of the shorter words' lengths), in chunks of
    :data:`OVERLAP_CHUNK` comparisons); the longest match of each pair is then compared letter
    by letter, and a pair whose longest match was a collision is counted again by the prefix
    function (Knuth, Morris and Pratt), in time linear in it.
    """
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    top = np.maximum(np.minimum(letters.lens[a], letters.lens[b]) - (1 if proper else 0), 0)
    total = int(top.sum())
    if _reads_in_place(letters, a, total):  # one pair a word at most: exact, no hash
        return _longest_matches_in_place(letters, a, b, top)
    best = np.zeros(a.size, dtype=np.int64)
    bounds = np.searchsorted(np.cumsum(top), np.arange(OVERLAP_CHUNK, total, OVERLAP_CHUNK))
    for lo, hi in zip([0, *bounds.tolist()], [*bounds.tolist(), a.size], strict=True):
        best[lo:hi] = _longest_matches(letters, a[lo:hi], b[lo:hi], top[lo:hi])
    # The longest match of each pair, letter by letter: 8-byte windows of both words (8, 4 or
    # 2 letters each, the letters past the match masked off).
    windows, lanes = letters.windows()
    pair, step = segments((best + lanes - 1) // lanes)
    step *= lanes
    left = windows[(letters.start[a + 1] - best)[pair] + step]
    left ^= windows[letters.start[b][pair] + step]
    rest = best[pair] - step  # the match's letters from the window's first, >= 1
    bits = np.minimum(rest, lanes).astype(np.uint64) * np.uint64(64 // lanes)
    mask = np.where(rest >= lanes, ~np.uint64(0), (np.uint64(1) << (bits % np.uint64(64))) - 1)
    left &= mask
    if left.any():  # pragma: no cover - a hash collision
        wrong = np.unique(pair[left != 0])
        for t in wrong.tolist():
            best[t] = overlap_of(letters.words[int(a[t])], letters.words[int(b[t])], proper)
    return best


def _reads_in_place(letters: Letters, a: np.ndarray, total: int) -> bool:
    """Whether :func:`joint_overlaps` reads the pairs in place: their first words ascend
    strictly and the lengths to compare are a quarter of the letters or more."""
    return bool(total and 4 * total >= letters.cp.size and np.all(a[1:] > a[:-1]))


#: The last ordering :func:`ordering_overlaps` was asked about: ``((order, cyclic, proper),
#: overlaps)``, replaced as a whole (one assignment: a thread reads the old pair or the new).
_last_ordering: tuple[tuple[tuple[str, ...] | _WordsAt, bool, bool], np.ndarray] | None = None


class _WordsAt:
    """An ordering kept as word ids into a list of words (compared with the words in order only
    when a caller asks about a tuple of words: building that tuple reads every word's string,
    scattered in memory, ENABLE: 0.03 s, the French list: 0.05-0.08 s). The tuple is built once
    and kept: the answer's score and its printed lengths ask about the same words in turn."""

    __slots__ = ("_tuple", "ids", "words")

    def __init__(self, words: Sequence[str], ids: np.ndarray) -> None:
        self.words, self.ids = words, ids
        self._tuple: tuple[str, ...] | None = None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _WordsAt):
            return other.words is self.words and bool(np.array_equal(other.ids, self.ids))
        if not isinstance(other, tuple) or len(other) != self.ids.size:
            return False
        if self._tuple is None:
            self._tuple = tuple(map(self.words.__getitem__, self.ids.tolist()))
        return other == self._tuple

    __hash__ = None  # type: ignore[assignment]


def ordering_overlaps(
    order: tuple[str, ...] | None,
    cyclic: bool,
    proper: bool,
    letters: Letters | None = None,
    ids: np.ndarray | None = None,
) -> np.ndarray:
    """The overlap of each joint of an ordering of words: :func:`joint_overlaps` of every word
    and the next (and the last and the first when ``cyclic``), remembered for the last
    ordering asked about.

    Parameters
    ----------
    order : tuple of str or None
        The words in order (a word may repeat); None: the words ``letters.words[ids]``.
    cyclic, proper : bool
        Whether the last word's joint to the first counts; overlaps shorter than both words.
    letters : Letters, optional
        Words that hold those of ``order``, already built (their hashes drawn): ``order[t]``
        is ``letters.words[ids[t]]``. Without them, the words of ``order`` are built anew.
        Required when ``order`` is None.
    ids : numpy.ndarray of int64, shape ``(len(order),)``, optional
        With ``letters``: each word's place in ``letters.words``.

    Returns
    -------
    numpy.ndarray of int64, shape ``(len(order) - 1,)`` (``len(order)`` when cyclic and there
    are two words or more)
        Read-only: the same array answers the next caller.

    Raises
    ------
    ValueError
        ``order`` is None without ``letters`` and ``ids``.

    Notes
    -----
    Both independent checks of a solved snake read the same ordering's joints: the rules'
    scorer (the ordering check) and the certificate checker's recount of the ordering's score.
    Each asks this function, in core, which shares nothing with the models; the second asks
    for an ordering equal to the first's (a tuple of the same strings: compared in C, mostly by
    identity; or the first's ids into the same list of words, when the certificate checker,
    asking first by ids, left them) and is answered without comparing the joints again
    (ENABLE: 0.03 s).

    Examples
    --------
    >>> ordering_overlaps(("run", "nausea", "seasick"), False, False).tolist()
    [1, 3]
    >>> letters = Letters(["nausea", "run", "seasick"])
    >>> ordering_overlaps(None, False, False, letters, np.array([1, 0, 2])).tolist()
    [1, 3]
    >>> ordering_overlaps(("run", "nausea", "seasick"), False, False).flags.writeable
    False
    """
    global _last_ordering
    seen: tuple[str, ...] | _WordsAt
    if order is None:
        if letters is None or ids is None:
            raise ValueError("an ordering by ids needs its letters and ids")
        ids = np.array(ids, dtype=np.int64)  # a copy: the key of the ordering remembered
        seen, n = _WordsAt(letters.words, ids), ids.size
    else:
        seen, n = order, len(order)
    key = (seen, cyclic, proper)
    last = _last_ordering
    if last is not None and last[0][1:] == key[1:] and _same_words(last[0][0], seen):
        return last[1]
    _last_ordering = None  # the last ordering's words are not kept past the next ordering
    if letters is None or ids is None:
        assert order is not None
        letters, ids = Letters(order), np.arange(n, dtype=np.int64)
    out = np.zeros(max(n - 1 + (1 if cyclic else 0), 0) if n > 1 else 0, dtype=np.int64)
    if n > 1:
        a, b = _joints_by_first_word(np.asarray(ids, dtype=np.int64), letters.lens.size, cyclic)
        out[a[1]] = joint_overlaps(letters, a[0], b, proper)
    out.flags.writeable = False
    _last_ordering = (key, out)
    return out


def remember_ordering_overlaps(
    letters: Letters, ids: np.ndarray, cyclic: bool, proper: bool, overlaps: np.ndarray
) -> np.ndarray:
    """Keep ``overlaps``, the overlaps of the joints of the ordering ``ids`` (word ids of
    ``letters.words``) counted exactly by the caller, as :func:`ordering_overlaps` keeps those
    it counts: the next caller asking about the same ordering reads them.

    Parameters
    ----------
    letters : Letters
    ids : numpy.ndarray of int64, shape ``(n,)``
        The ordering (copied: the key of the ordering remembered).
    cyclic, proper : bool
    overlaps : numpy.ndarray of int64
        As :func:`ordering_overlaps` returns them for that ordering (copied, read-only).

    Returns
    -------
    numpy.ndarray of int64
        The read-only copy kept.

    Examples
    --------
    >>> letters = Letters(["nausea", "run", "seasick"])
    >>> kept = remember_ordering_overlaps(
    ...     letters, np.array([1, 0, 2]), False, False, np.array([1, 3]))
    >>> ordering_overlaps(("run", "nausea", "seasick"), False, False) is kept
    True
    """
    global _last_ordering
    out = np.array(overlaps, dtype=np.int64)
    out.flags.writeable = False
    seen = _WordsAt(letters.words, np.array(ids, dtype=np.int64))
    _last_ordering = ((seen, cyclic, proper), out)
    return out


def _same_words(kept: tuple[str, ...] | _WordsAt, asked: tuple[str, ...] | _WordsAt) -> bool:
    """Whether two orderings (tuples of words or ids into a list of words) are the same words
    in the same order."""
    if isinstance(kept, _WordsAt):
        return kept == asked
    if isinstance(asked, _WordsAt):
        return asked == kept
    return kept == asked


def _joints_by_first_word(
    ids: np.ndarray, words: int, cyclic: bool
) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray]:
    """The joints of an ordering of word ids (of ``words`` words) sorted by their first word,
    so that each word's suffixes are read in place, not at a random word a joint: ``((first
    words, their joints' places in the ordering), second words)``."""
    n = ids.size
    place = np.full(words, -1, dtype=np.int64)
    place[ids] = np.arange(n)
    if n == words and bool((place >= 0).all()):  # each word once, in ascending order of ids
        first = np.arange(n) if cyclic else np.flatnonzero(place < n - 1)
        at = place[first]
        return (first, at), ids[(at + 1) % n]
    at = np.arange(n if cyclic else n - 1)
    at = at[np.argsort(ids[at], kind="stable")]
    return (ids[at], at), ids[(at + 1) % n]


def _longest_matches_in_place(
    letters: Letters, a: np.ndarray, b: np.ndarray, top: np.ndarray
) -> np.ndarray:
    """The overlaps of pairs whose first words ``a`` ascend strictly (each word the first of
    one pair at most, as in an ordering of distinct words sorted by its joints' first words),
    exactly: every letter of every word is read once, in place, as the start of a suffix (is
    it the second word's first letter, within ``top`` of the end? one byte a letter for most
    lists, :meth:`Letters.small_letters`), instead of listing each pair's lengths; only those
    suffixes are compared with the second word's prefix, letter by letter
    (:func:`equal_letters`: no hash)."""
    best = np.zeros(a.size, dtype=np.int64)
    if not top.any():
        return best
    lens, to_end = letters.lens, letters.to_end()
    small = letters.small_letters()
    reach = np.zeros(lens.size, dtype=to_end.dtype)  # top <= the word's length: it fits
    reach[a] = top
    first = np.zeros(lens.size, dtype=small.dtype)
    first[a] = small[np.minimum(letters.start[b], small.size - 1)]
    maybe = small == np.repeat(first, lens)
    maybe &= to_end <= np.repeat(reach, lens)
    at = np.flatnonzero(maybe)  # ascending: a pair's suffixes from the longest
    del maybe
    kind = np.int32 if lens.size < 1 << 31 else np.int64
    pair_of = np.full(lens.size, -1, dtype=kind)
    pair_of[a] = np.arange(a.size, dtype=kind)
    pair = np.repeat(pair_of, lens)[at]
    k = to_end[at].astype(np.int64)
    same = equal_letters(letters, at, letters.start[b[pair]], k)
    pair, k = pair[same], k[same]
    if pair.size:
        longest = np.append(True, pair[1:] != pair[:-1])  # a pair's first match is its longest
        best[pair[longest]] = k[longest]
    return best


def equal_letters(letters: Letters, x: np.ndarray, y: np.ndarray, size: np.ndarray) -> np.ndarray:
    """Whether the letters ``cp[x:x + size]`` and ``cp[y:y + size]`` are the same, for each
    entry (``size >= 1``, each run within the letters), by 8-byte windows of both
    (:meth:`Letters.windows`: 8, 4 or 2 letters a window, those past the run masked off), a
    window a round for the runs still equal.

    Parameters
    ----------
    letters : Letters
    x, y : numpy.ndarray of int64, shape ``(n,)``
        Where the runs start.
    size : numpy.ndarray of int64, shape ``(n,)``

    Returns
    -------
    numpy.ndarray of bool, shape ``(n,)``

    Examples
    --------
    >>> letters = Letters(["abcabcabcab", "abcabcabcx"])
    >>> equal_letters(letters, np.array([0, 0, 3]), np.array([11, 11, 11]),
    ...               np.array([9, 10, 8])).tolist()
    [True, False, True]
    """
    windows, lanes = letters.windows()
    width = 64 // lanes
    # masks[j]: the low j letters of a window (every letter for j = lanes)
    masks = np.array([(1 << (j * width)) - 1 for j in range(lanes + 1)], dtype=np.uint64)
    equal = np.ones(x.size, dtype=bool)
    live = np.arange(x.size, dtype=np.int64)
    offset = 0
    while live.size:
        rest = size[live] - offset  # >= 1
        diff = windows[x[live] + offset] ^ windows[y[live] + offset]
        diff &= masks[np.minimum(rest, lanes)]
        differ = diff != 0
        equal[live[differ]] = False
        live = live[~differ & (rest > lanes)]
        offset += lanes
    return equal


def _longest_matches(letters: Letters, a: np.ndarray, b: np.ndarray, top: np.ndarray) -> np.ndarray:
    """The longest ``k <= top`` whose hashes of ``a``'s suffix and ``b``'s prefix agree: the
    suffix of length ``k`` starts at ``end(a) - k``, where ``b``'s first letter must stand
    (one comparison of code points a length, on 4 bytes a letter); only there are the keys of
    both read (:meth:`Letters.suffix_keys`, :meth:`Letters.prefix_keys`: gathers of 8 bytes,
    for about one length in ten instead of every length)."""
    best = np.zeros(a.size, dtype=np.int64)
    if not top.any():
        return best
    suffix = letters.suffix_keys()
    offset = np.cumsum(top) - top
    at_a = np.repeat(letters.start[a + 1] + offset, top)
    at_a -= np.arange(1, int(top.sum()) + 1, dtype=np.int64)  # where each suffix starts
    first_b = letters.cp[np.minimum(letters.start[b], letters.cp.size - 1)]
    maybe = np.flatnonzero(letters.cp[at_a] == np.repeat(first_b, top))
    pair = np.searchsorted(offset + top, maybe, side="right")
    k = maybe - offset[pair] + 1
    begin = letters.start[b[pair]]
    hits = suffix[at_a[maybe]] == letters.prefix_keys(begin, begin + k - 1)
    pair, k = pair[hits], k[hits]
    if pair.size:
        last = np.append(pair[1:] != pair[:-1], True)  # a pair's hits ascend with k
        best[pair[last]] = k[last]
    return best


def overlap_of(x: str, y: str, proper: bool = False) -> int:
    """The longest suffix of ``x`` that is a prefix of ``y`` (shorter than both when
    ``proper``), letter by letter, in time O(len(x) + len(y)).

    Examples
    --------
    >>> overlap_of("seasick", "sickle"), overlap_of("abab", "abab", proper=True)
    (4, 2)
    """
    top = min(len(x), len(y)) - (1 if proper else 0)
    if top <= 0:
        return 0
    pattern, text = y[:top], x[len(x) - top :]
    fail = [0] * top  # the prefix function of the pattern
    k = 0
    for i in range(1, top):
        while k and pattern[i] != pattern[k]:
            k = fail[k - 1]
        if pattern[i] == pattern[k]:
            k += 1
        fail[i] = k
    k = 0
    for ch in text:  # the longest prefix of the pattern ending at each letter of the text
        while k and (k == top or ch != pattern[k]):
            k = fail[k - 1]
        if ch == pattern[k]:
            k += 1
    return k
