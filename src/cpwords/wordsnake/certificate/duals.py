"""Dual feasibility of a certificate's values and cuts, checked from the strings alone: every
ordered pair of items through the two smallest values of the words that start with each
prefix, the pairs inside cut sets by the classes of their cut signatures.

The format and the argument: :mod:`cpwords.wordsnake.certificate`.
"""

from __future__ import annotations

import bisect
import itertools
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from cpwords.core.codepoints import Letters
from cpwords.core.runs import spread
from cpwords.wordsnake.certificate.arrays import (
    HashCollision,
    PrefixTable,
    suffix_starts,
)
from cpwords.wordsnake.certificate.columns import IntColumn, each_once, int_list
from cpwords.wordsnake.certificate.format import Certificate, CertificateError

# ---------------------------------------------------------------------------------------------
# The checker: the strings and the values, nothing else.


def suffix_prefix_overlap(a: str, b: str, proper: bool) -> int:
    """Longest suffix of ``a`` that is a prefix of ``b`` (shorter than both when proper)."""
    top = min(len(a), len(b)) - (1 if proper else 0)
    if top <= 0:
        return 0
    # Only the places of b's first letter among a's last ``top`` letters can start an overlap
    # (the longest first): a few tests a pair instead of ``top``.
    la, first = len(a), b[0]
    i = a.find(first, la - top)
    while i >= 0:
        if a.endswith(b[: la - i]):
            return la - i
        i = a.find(first, i + 1)
    return 0


def joint_gain(k: int, score: str) -> int:
    """What a joint of overlap ``k`` scores: ``k ** 2``, or ``k`` for the linear score."""
    return k if score == "linear" else k * k


@dataclass
class DualViolation(Exception):
    """A joint ``a -> b`` whose dual inequality fails: its left side ``lhs`` (the two words'
    values, ``u(a) + v(b)``) is below its right side ``rhs`` (the joint's scaled score, with
    the multipliers of the cuts it enters)."""

    a: str
    b: str
    lhs: int
    rhs: int


def _two_smallest(
    values: Sequence[int],
    words: Sequence[str],
    ids: Iterable[int],
    proper: bool,
    deadline: float | None = None,
) -> dict[str, list[int]]:
    """``[v1, i1, v2, i2]`` for every prefix ``s`` of the words ``ids``: the two smallest values
    of distinct words that start with ``s`` (and are longer than ``s`` when ``proper``), with
    their ids; ``i2 = -1`` when there is one. O(their letters) dictionary updates (measured
    faster in CPython than one pass over the sorted words with a stack of open prefixes).
    ``TimeoutError`` once ``deadline`` has passed."""
    table: dict[str, list[int]] = {}
    get = table.get
    for n, i in enumerate(ids):
        if deadline is not None and n % 4096 == 0 and time.perf_counter() > deadline:
            raise TimeoutError
        w = words[i]
        val = values[i]
        for k in range(len(w) if proper else len(w) + 1):
            s = w[:k]
            e = get(s)
            if e is None:
                table[s] = [val, i, 0, -1]
            elif val < e[0]:
                e[2], e[3] = e[0], e[1]
                e[0], e[1] = val, i
            elif e[3] < 0 or val < e[2]:
                e[2], e[3] = val, i
    return table


def dual_violation(
    words: Sequence[str],
    mult: Sequence[int],
    cert: Certificate,
    deadline: float | None,
    letters: Letters | None = None,
    neighbours: np.ndarray | None = None,
) -> DualViolation | None:
    """The first violated inequality of the values, or None (see the module docstring);
    ``letters``: the words' arrays, and ``neighbours``: ``letters.lcp_with_previous`` of
    every word, when the caller has them."""
    try:
        _check_values(words, mult, cert, deadline, letters, neighbours)
    except DualViolation as bad:
        return bad
    return None


@dataclass(frozen=True)
class CutTerms:
    """What the cuts add to the inequalities, per distinct word (see the module docstring).

    ``member[i]``: the cuts holding word ``i``; ``lams``: the multipliers; ``load[i]``: their sum
    over the cuts holding ``i`` (``L(b)``); ``in_cut[i]``: ``i`` is in ``C`` (a cut of two words
    or more); ``v_all = v - L``; ``v_out``: ``v`` less the one-word cuts only. With no cut, both
    are ``v`` as a list of Python integers, made when first read (the array check reads the
    certificate's column itself: the whole Polish list's million integers, 0.03 s, unmade).
    """

    member: Sequence[Sequence[int]]
    lams: list[int]
    load: list[int]
    in_cut: list[bool]
    v: Sequence[int] = field(repr=False)
    adjusted: tuple[list[int], list[int]] | None = field(default=None, repr=False)

    @cached_property
    def v_all(self) -> list[int]:
        """``v - L`` (a list of Python integers)."""
        return int_list(self.v) if self.adjusted is None else self.adjusted[0]

    @cached_property
    def v_out(self) -> list[int]:
        """``v`` less the one-word cuts only (``v_all`` itself when there is no cut)."""
        return self.v_all if self.adjusted is None else self.adjusted[1]


def cut_terms(cert: Certificate, W: int) -> CutTerms:
    """The cut terms of the certificate's ``W`` distinct words (time O(W + the cuts' sizes),
    Python's exact integers)."""
    if not cert.cuts:  # no cut: one shared empty list of cuts, no load
        return CutTerms([()] * W, [], [0] * W, [False] * W, cert.v)
    # Lists of W entries built in C (a Python step for the words in cuts only: usually few).
    member: list[Sequence[int]] = [()] * W
    load = [0] * W
    # A cut of one word (the copy-to-copy cut of a repeated word) never holds both ends of a
    # pair of different words, so it is folded into v' like any cut seen from outside; only the
    # words of larger cuts (C) need their pairs checked with the multipliers they share.
    single: dict[int, int] = {}
    in_cut = [False] * W
    for k, (ids, lam) in enumerate(cert.cuts):
        for i in ids:
            held = member[i]
            if isinstance(held, list):
                held.append(k)
            else:  # the shared empty tuple: the word's first cut
                member[i] = [k]
            load[i] += lam
        if len(ids) == 1:
            single[ids[0]] = single.get(ids[0], 0) + lam
        else:
            for i in ids:
                in_cut[i] = True
    lams = [lam for _, lam in cert.cuts]
    v_all = int_list(cert.v)
    v_out = list(v_all)
    for i in {i for ids, _ in cert.cuts for i in ids}:  # v - L, for the words that have a load
        v_all[i] -= load[i]
    for i, lam in single.items():
        v_out[i] -= lam
    return CutTerms(member, lams, load, in_cut, cert.v, (v_all, v_out))


def _check_values(
    words: Sequence[str],
    mult: Sequence[int],
    cert: Certificate,
    deadline: float | None,
    letters: Letters | None = None,
    neighbours: np.ndarray | None = None,
) -> None:
    """Raise :class:`DualViolation` at the first violated inequality."""
    terms = cut_terms(cert, len(words))
    arrays = _ArrayCheck.of(words, mult, cert, terms, letters)
    if arrays is not None and neighbours is not None:
        arrays.neighbours_are(neighbours)
    _check_overlap_pairs(words, mult, cert, terms, deadline, arrays)
    _check_pairs_in_cuts(words, mult, cert, terms, deadline, arrays)
    if cert.depot is not None:
        _check_depot(words, cert, cert.depot, terms, arrays)


def _check_overlap_pairs(
    words: Sequence[str],
    mult: Sequence[int],
    cert: Certificate,
    terms: CutTerms,
    deadline: float | None,
    arrays: _ArrayCheck | None = None,
) -> None:
    """Every pair but those inside ``C``, through the two smallest values of each prefix (as
    whole-array passes with ``arrays``, else dict tables)."""
    W = len(words)
    in_cut = np.zeros(W, dtype=bool)
    if cert.cuts:
        in_cut[list(itertools.compress(range(W), terms.in_cut))] = True
    outside, inside = np.flatnonzero(~in_cut), np.flatnonzero(in_cut)
    checks = [("v_all", arrays.v_all if arrays else None, np.arange(W), outside)]
    if inside.size:
        checks.append(("v_out", arrays.v_out if arrays else None, outside, inside))
    for name, fitting, table_ids, ids in checks:
        _past(deadline)
        if arrays is not None and fitting is not None:
            arrays.check(fitting, table_ids, ids, np.zeros(ids.size, dtype=np.int64))
        else:
            values = getattr(terms, name)  # the lists of Python integers: only here
            table = _two_smallest(values, words, table_ids.tolist(), cert.proper, deadline)
            bonus = [0] * ids.size
            _query_table(table, ids.tolist(), bonus, words, mult, cert, terms, deadline)


def _past(deadline: float | None) -> None:
    """``TimeoutError`` once ``deadline`` (a ``time.perf_counter()`` value) has passed."""
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeoutError


#: The array check's prefix table leaves out the prefixes no query can need only when they are
#: more than one in this many (a superstring certificate's k-mers: most of them); otherwise it
#: holds every prefix (ENABLE: 376,625 of 387,881 needed), for a few more candidates and no
#: copy of the keys, no map of the places found.
NEEDED_SHARE = 1.1

#: One prefix in this many tells first whether the prefixes needed are nearly all (then every
#: prefix is kept without looking at the others: ENABLE, about 2% of its check).
NEEDED_SAMPLE = 64

#: Suffixes looked up at once by the array check (its memory: about 60 bytes each).
QUERY_CHUNK = 1 << 18


def _sparse_fitting(values: Sequence[int], cert: Certificate) -> np.ndarray | None:
    """:func:`_fitting` of ``values`` that are 0 but for the words in the certificate's cuts
    (the cut terms' loads): those read one by one, the rest left 0."""
    held = sorted({i for ids, _ in cert.cuts for i in ids})
    some = _fitting([values[i] for i in held])
    if some is None:
        return None
    out = np.zeros(len(values), dtype=np.int64)
    out[held] = some
    return out


def _fitting(values: Sequence[int]) -> np.ndarray | None:
    """``values`` as int64, when every one is below :data:`_ArrayCheck.LIMIT` / 4 in magnitude
    (so that the sums the array check forms stay within ``LIMIT``), else None."""
    try:
        if isinstance(values, IntColumn):  # the solver's: its array, copied in C
            vals = np.asarray(values, dtype=np.int64)
        else:
            vals = np.fromiter(values, dtype=np.int64, count=len(values))
    except OverflowError:  # beyond 64 bits: Python's integers check them
        return None
    if vals.size and 4 * max(int(vals.max()), -int(vals.min())) >= _ArrayCheck.LIMIT:
        return None
    return vals


class _ArrayCheck:
    """The dict tables' check as whole-array passes (:mod:`.arrays`), where every sum it forms
    fits in 62 bits; the dict tables check the rest (Python's integers do not overflow)."""

    #: The largest magnitude of a sum of values the array check forms.
    LIMIT = 1 << 61

    def __init__(
        self,
        letters: Letters,
        mult: Sequence[int],
        cert: Certificate,
        terms: CutTerms,
        u: np.ndarray,
        load: np.ndarray,
    ) -> None:
        self.letters, self.mult, self.cert, self.terms = letters, mult, cert, terms
        self.u, self.load = u, load
        once = each_once(mult)
        self.once = once
        self.copies = np.zeros(len(mult), dtype=bool) if once else np.asarray(mult) > 1
        # No cut: v itself (the solver's column read as an array, not the list of its ints)
        self.v_all = _fitting(terms.v_all if cert.cuts else cert.v)
        self.v_out = self._v_out() if cert.cuts else self.v_all
        self._neighbours: np.ndarray | None = None
        self._gains: np.ndarray | None = None

    def gains(self) -> np.ndarray:
        """The joint's right-hand side of each overlap from 0 to the longest word's length:
        ``scale * k^2`` (``scale * k``, linear), int64 (computed once, for every chunk of
        suffixes: the longest word is read once, not once a chunk)."""
        if self._gains is None:
            gain = np.arange(int(self.letters.lens.max(initial=0)) + 1, dtype=np.int64)
            if self.cert.score != "linear":
                gain *= gain
            gain *= self.cert.scale
            self._gains = gain
        return self._gains

    def neighbours(self) -> np.ndarray:
        """Every word's longest common prefix with the word before it (computed once, for the
        tables of the words outside the cuts and of each class inside)."""
        if self._neighbours is None:
            self._neighbours = self.letters.lcp_with_previous(np.arange(len(self.mult)))
        return self._neighbours

    def neighbours_are(self, neighbours: np.ndarray) -> None:
        """Take :meth:`neighbours` from the caller (computed with the letters)."""
        self._neighbours = neighbours

    def _v_out(self) -> np.ndarray | None:
        """``v_out`` (int64 of :func:`_fitting`): ``v_all`` but for the words in cuts, which
        are read one by one."""
        v_out = self.terms.v_out
        if self.v_all is None:
            return _fitting(v_out)
        held = sorted({i for ids, _ in self.cert.cuts for i in ids})
        some = _fitting([v_out[i] for i in held])
        if some is None:
            return None
        out = self.v_all.copy()
        out[held] = some
        return out

    @classmethod
    def of(
        cls,
        words: Sequence[str],
        mult: Sequence[int],
        cert: Certificate,
        terms: CutTerms,
        letters: Letters | None = None,
    ) -> _ArrayCheck | None:
        """The array check, or None when the values or the longest joint's right-hand side are
        too large for 62 bits."""
        letters = letters or Letters(words)
        longest = int(letters.lens.max(initial=0))
        if cert.scale * joint_gain(longest, cert.score) >= cls.LIMIT:
            return None
        u = _fitting(cert.u)
        load = _sparse_fitting(terms.load, cert) if cert.cuts else np.zeros(len(words), np.int64)
        if u is None or load is None:
            return None
        return cls(letters, mult, cert, terms, u, load)

    def check(
        self, values: np.ndarray, tids: np.ndarray, qids: np.ndarray, bonus: np.ndarray
    ) -> None:
        """:func:`_query_table` on the table of ``tids`` (int64, ascending) with ``values``
        (int64 of :func:`_fitting`) for the words ``qids`` with ``bonus`` (int64): raise
        :class:`DualViolation` at the first violated inequality, in the same order."""
        cert, letters = self.cert, self.letters
        if tids.size == 0 or qids.size == 0:
            return
        tids = near_words(letters.words, letters.lens, tids, qids, values, NEAR_SHARE)
        extra = np.zeros(len(self.mult), dtype=np.int64)
        extra[qids] = bonus
        # The least left-hand side of each query word: u + bonus against another word of the
        # table, u + L against a copy of itself (the cuts it shares with itself).
        low = self.u + np.minimum(extra, self.load)
        floor, scale, linear = int(low[qids].min()), cert.scale, cert.score == "linear"

        def short(length: np.ndarray, v1: np.ndarray) -> np.ndarray | None:
            """The prefixes some query word's least left-hand side falls short with; None
            (all of them) when those are nearly all (:data:`NEEDED_SHARE`)."""
            rhs = length.astype(np.int64)  # in 64 bits (the lengths are uint8): in place
            if not linear:
                rhs *= rhs
            if scale != 1:
                rhs *= scale
            rhs -= v1
            some = np.asarray(rhs > floor)
            return None if NEEDED_SHARE * np.count_nonzero(some) >= some.size else some

        def needed(length: np.ndarray, v1: np.ndarray) -> np.ndarray | None:
            """:func:`short`, told by a sample of the prefixes first (one in
            :data:`NEEDED_SAMPLE`) when it is None: every prefix is kept then, which is
            always sound (a dictionary's certificate needs nearly all)."""
            step = NEEDED_SAMPLE
            if length.size >= 16 * step and short(length[::step], v1[::step]) is None:
                return None
            return short(length, v1)

        try:
            table = PrefixTable.build(letters, tids, values, cert.proper, needed, self.neighbours())
        except HashCollision:  # pragma: no cover - probability about prefixes**2 / 2**62
            self._dict_check(values, tids, qids, bonus)
            return
        # The query words in chunks of about QUERY_CHUNK suffixes (memory), in order; the
        # violations of each (usually none) sorted into check order at the end.
        ends = np.cumsum(letters.lens[qids] + 1)
        cuts = np.searchsorted(ends, np.arange(QUERY_CHUNK, int(ends[-1]), QUERY_CHUNK))
        found = [self._empty_suffixes(table, qids, low, extra)]
        done = 0
        for part in np.split(qids, np.unique(cuts)):
            if part.size == 0:  # a cut before the first word (one longer than a chunk)
                continue
            n, k, node = self._candidates(table, part, low)
            found.append(self._violations(table, part, n, k, node, (extra, low), done))
            done += part.size
        place, size, node, partner = (np.concatenate(x) for x in zip(*found, strict=True))
        for e in np.lexsort((size, place)).tolist():  # word after word, shortest suffix first
            i, length = int(qids[place[e]]), int(size[e])
            a = letters.words[i]
            if table.prefix_of(int(node[e])) != a[len(a) - length :]:
                continue  # a hash match only: no such joint
            self._raise(i, int(partner[e]))

    def _empty_suffixes(
        self, table: PrefixTable, qids: np.ndarray, low: np.ndarray, extra: np.ndarray
    ) -> tuple[np.ndarray, ...]:
        """The violations of the empty suffix (k = 0: the table's empty prefix) of the words
        ``qids`` that have one, as :meth:`_violations`."""
        if not (table.length.size and table.length[0] == 0):
            return tuple(np.zeros(0, dtype=np.int64) for _ in range(4))
        has = self.letters.lens[qids] >= (1 if self.cert.proper else 0)
        n = np.flatnonzero(has & (low[qids] + table.v1[0] < 0))
        zero = np.zeros(n.size, dtype=np.int64)
        return self._violations(table, qids, n, zero, zero, (extra, low), 0)

    def _candidates(
        self, table: PrefixTable, part: np.ndarray, low: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The nonempty suffixes of the words ``part`` whose least left-hand side (``low`` of
        the word plus a lower bound of the prefix's smallest value) is below the joint's:
        ``(position in part, suffix length, prefix or -1)``, word after word. Every violated
        inequality is among them; the prefix of each is then found exactly (by its key)."""
        cert, letters = self.cert, self.letters
        suffix, to_end = letters.suffix_keys(), letters.to_end()
        first, last = int(part[0]), int(part[-1])
        if not cert.proper and last - first + 1 == part.size:  # every suffix of a run of words
            lo, hi = int(letters.start[first]), int(letters.start[last + 1])
            key, k = suffix[lo:hi], to_end[lo:hi]
            count = letters.lens[first : last + 1]
        else:
            at, count = suffix_starts(letters, part, cert.proper)
            key, k = suffix[at], to_end[at]
            del at
        # k: the suffixes' lengths (unsigned, as small as the longest word's); the joint's
        # right-hand side of each length, less the word's least left-hand side (repeated along
        # its suffixes: no word id a letter).
        gain = self.gains()
        below = table.bounds().below_gains(key, gain, k, low[part], count)
        whole, node = self._whole_words(table, part, count)
        below[(np.cumsum(count) - count)[whole]] = False  # their whole suffix: its prefix known
        size = letters.lens[part[whole]]
        keep = np.flatnonzero(table.v1[node] + low[part[whole]] < gain[size])  # as below_gains
        whole, node, size = whole[keep], node[keep], size[keep]
        bad = np.flatnonzero(below)
        del below
        kind = np.int32 if part.size < 1 << 31 else np.int64
        place = spread(np.arange(part.size, dtype=kind), count)[bad]  # the word of each
        return (
            np.concatenate([place, whole.astype(kind)]),
            np.concatenate([k[bad].astype(np.int64), size]),
            np.concatenate([table.find(key[bad]).astype(np.int64), node]),
        )

    def _whole_words(
        self, table: PrefixTable, part: np.ndarray, count: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The words of ``part`` (positions) that are words of the table, and the prefix that
        is each of them whole (int64; none when ``proper``): their longest suffix is a prefix
        known without looking it up (a sixth of a dictionary's candidates were those)."""
        if table.whole is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        tids = table.runs.ids
        if tids.size == self.letters.lens.size:  # every word: its id is its place
            at = np.flatnonzero(count > 0)
            return at, table.whole[part[at]]
        pos = np.minimum(np.searchsorted(tids, part), tids.size - 1)
        at = np.flatnonzero((tids[pos] == part) & (count > 0))
        return at, table.whole[pos[at]]

    def _violations(
        self,
        table: PrefixTable,
        part: np.ndarray,
        n: np.ndarray,
        k: np.ndarray,
        p: np.ndarray,
        sides: tuple[np.ndarray, np.ndarray],
        done: int,
    ) -> tuple[np.ndarray, ...]:
        """Of candidates of word ``part[n]``, suffix length ``k`` and prefix ``p`` (-1: none),
        those whose inequality fails by the table: ``(position in the query words (``n +
        done``), suffix length, prefix, partner)``, the best other word before a copy.
        ``sides``: every word's bonus and least left-hand side (``extra`` and ``low`` of
        :meth:`check`)."""
        cert = self.cert
        extra, low = sides
        # Every violation has a prefix and the least left-hand side below the joint's.
        keep = np.flatnonzero(p >= 0)
        n, k, p = n[keep], k[keep], p[keep]
        i = part[n]
        need = k * k if cert.score != "linear" else k.copy()
        if cert.scale != 1:
            need *= cert.scale
        least = np.take(low, i)
        least += np.take(table.v1, p)
        keep = np.flatnonzero(least < need)
        n, k, p, i, need = n[keep], k[keep], p[keep], i[keep], need[keep]
        ua = self.u[i] + extra[i]
        i1, v2, i2 = table.others(p)
        own = i1 == i
        # The best other word: the smallest, or the second smallest when the smallest is a.
        best = np.where(own, v2, table.v1[p])
        partner = np.where(own, i2, i1)
        other_bad = (partner >= 0) & (ua + best < need)
        if self.once:  # no word listed twice: no joint to a copy (its sums not formed)
            e = np.flatnonzero(other_bad)
            return n[e] + done, k[e], p[e], partner[e]
        # A copy of a, when a is the smallest and is listed more than once.
        copy_bad = own & self.copies[i]
        copy_bad &= self.u[i] + table.v1[p] + self.load[i] < need
        e = np.concatenate([np.flatnonzero(other_bad), np.flatnonzero(copy_bad)])
        e = e[np.argsort(e, kind="stable")]  # a candidate's other word before its copy
        partner = np.where(other_bad[e], partner[e], i[e])
        return n[e] + done, k[e], p[e], partner

    def _raise(self, i: int, j: int) -> None:
        """Raise the :class:`DualViolation` of the joint from word ``i`` to word ``j``."""
        cert, terms, words = self.cert, self.terms, self.letters.words
        shared = set(terms.member[i]) if j != i else set(terms.member[j])
        rhs = pair_rhs(
            words[i],
            words[j],
            terms.member[j],
            shared,
            terms.lams,
            cert.scale,
            cert.proper,
            cert.score,
        )
        raise DualViolation(words[i], words[j], cert.u[i] + cert.v[j], rhs)

    def _dict_check(
        self, values: np.ndarray, tids: np.ndarray, qids: np.ndarray, bonus: np.ndarray
    ) -> None:
        """The dict tables' check of the same table and queries."""
        words, cert = self.letters.words, self.cert
        table = _two_smallest(values.tolist(), words, tids.tolist(), cert.proper)
        ids, extra = qids.tolist(), bonus.tolist()
        _query_table(table, ids, extra, words, self.mult, cert, self.terms, None)


#: A table is cut down to the words near its queries (:func:`near_words`) when they have
#: fewer suffixes than one in this many of its words.
NEAR_SHARE = 64


def near_words(
    words: Sequence[str],
    lens: np.ndarray,
    tids: np.ndarray,
    qids: np.ndarray,
    values: np.ndarray,
    share: int = NEAR_SHARE,
) -> np.ndarray:
    """The words of ``tids`` (ascending ids of the sorted distinct ``words``) a table queried by
    the few words ``qids`` needs: those that start with a nonempty suffix of a query word,
    and the two of least ``values`` among all and among those of one letter or more
    (``lens``: every word's length; the empty prefix's two smallest, the first of each value
    in word order as the whole table's, whether it is a prefix of the empty word or not).
    Every suffix a query asks about then has the words of ``tids`` that start with it, so the
    answers are the whole table's. ``tids`` itself when the queries have more suffixes than
    one in ``share`` of its words (the check cuts down the table of the words outside the
    cuts of a certificate with a cut of a few words, queried by those few: Letterpress's, by
    two).

    Parameters
    ----------
    words : sequence of str
        The distinct words, sorted.
    lens : numpy.ndarray of int, shape (W,)
        Each word's length in letters.
    tids : numpy.ndarray of int, shape (t,)
        The table's word ids, ascending.
    qids : numpy.ndarray of int, shape (q,)
        The query words' ids.
    values : numpy.ndarray of int, shape (W,)
        Each word's value (the table's right-hand sides, in cost units).
    share : int
        The cut applies when the queries have fewer suffixes than ``len(tids) / share``.

    Returns
    -------
    numpy.ndarray of int
        Ascending ids, a subset of ``tids`` (``tids`` itself when no cut applies).

    Examples
    --------
    >>> words = ["ab", "b", "ba", "c", "ca"]
    >>> values = np.array([0, 5, 4, 3, 9])
    >>> lens, tids = np.array([2, 1, 2, 1, 2]), np.array([1, 2, 3, 4])
    >>> near_words(words, lens, tids, np.array([0]), values, share=1).tolist()
    [1, 2, 3]
    """
    if share * (int(lens[qids].sum()) + qids.size) > tids.size:
        return tids
    marks = np.zeros(len(words) + 1, dtype=np.int32)
    for i in qids.tolist():
        w = words[i]
        for k in range(1, len(w) + 1):
            s = w[len(w) - k :]
            if ord(s[-1]) == 0x10FFFF:  # no string follows those that start with it
                return tids
            marks[bisect.bisect_left(words, s)] += 1  # the run of words that start with s
            marks[bisect.bisect_left(words, s[:-1] + chr(ord(s[-1]) + 1))] -= 1
    near = np.cumsum(marks[:-1]) > 0
    for some in (tids, tids[lens[tids] > 0]):
        vals = values[some]
        for _ in range(min(2, some.size)):  # the first of least value, then the next
            first = int(np.argmin(vals))
            near[some[first]] = True
            vals[first] = np.iinfo(np.int64).max
    return tids[near[tids]]


def _query_table(
    table: dict[str, list[int]],
    ids: Sequence[int],
    bonus: Sequence[int],
    words: Sequence[str],
    mult: Sequence[int],
    cert: Certificate,
    terms: CutTerms,
    deadline: float | None,
) -> None:
    """Check ``u(a) + bonus`` of every word ``a`` of ``ids`` against the table, suffix by suffix
    (``bonus``: the multipliers of the cuts ``a`` shares with every word of the table)."""
    proper, scale = cert.proper, cert.scale
    squared = cert.score != "linear"
    u, v = cert.u, cert.v
    member, lams, load = terms.member, terms.lams, terms.load
    get = table.get
    for n, (i, extra) in enumerate(zip(ids, bonus, strict=True)):
        if deadline is not None and n % 4096 == 0 and time.perf_counter() > deadline:
            raise TimeoutError
        a = words[i]
        ua = u[i] + extra
        la = len(a)
        for k in range(la if proper else la + 1):
            e = get(a[la - k :])
            if e is None:
                continue
            j = e[1]
            if j == i:
                # A copy of a (shares every cut with it: no cut term, no bonus) if a has
                # copies, and the best other word.
                pairs = [] if e[3] < 0 else [(e[2], e[3])]
                if mult[i] > 1:
                    pairs.append((e[0] + load[i] - extra, i))
            else:
                pairs = [(e[0], j)]
            for best, j in pairs:
                if ua + best < scale * (k * k if squared else k):
                    b = words[j]
                    shared = set(member[i]) if j != i else set(member[j])
                    rhs = pair_rhs(a, b, member[j], shared, lams, scale, proper, cert.score)
                    raise DualViolation(a, b, u[i] + v[j], rhs)


#: The table queries a certificate's cut sets may ask for, per letter of its words (and at
#: least :data:`CUT_WORK_MIN`): one query per letter of ``C`` and per signature class (see
#: :func:`signature_classes`). The solver's certificates ask for under one per letter (the hard
#: lists: at most 0.1); overlapping cut sets chosen to give every word its own class would ask
#: for a number quadratic in the list.
CUT_WORK_PER_LETTER = 16
CUT_WORK_MIN = 1 << 22


def signature_classes(
    words: Sequence[str], cert: Certificate, terms: CutTerms
) -> tuple[list[int], dict[int, frozenset[int]], dict[frozenset[int], list[int]]]:
    """The words of ``C`` (in cut sets of two words or more), each one's *signature* (the set
    of such cuts holding it) and the classes of words with the same signature.

    Raises
    ------
    CertificateError
        When checking the pairs inside ``C`` class by class would take more than
        :data:`CUT_WORK_PER_LETTER` table queries per letter of the list (at least
        :data:`CUT_WORK_MIN`): the certificate is refused as more than this checker takes,
        so that a check's time stays linear in the certificate's size.
    """
    cuts = cert.cuts
    inside = list(itertools.compress(range(len(words)), terms.in_cut))
    sig = {i: frozenset(k for k in terms.member[i] if len(cuts[k][0]) > 1) for i in inside}
    classes: dict[frozenset[int], list[int]] = {}
    for i in inside:
        classes.setdefault(sig[i], []).append(i)
    work = len(classes) * sum(len(words[i]) + 1 for i in inside)
    if work <= CUT_WORK_MIN:  # within the cap whatever the list (its letters not counted)
        return inside, sig, classes
    cap = max(CUT_WORK_MIN, CUT_WORK_PER_LETTER * sum(map(len, words)) + len(words))
    if work > cap:
        raise CertificateError(
            f"certificate: its cut sets give {len(classes):,} distinct signatures over "
            f"{len(inside):,} words, {work:,} table queries, more than the {cap:,} this checker "
            f"makes ({CUT_WORK_PER_LETTER} per letter of the list)"
        )
    return inside, sig, classes


def _check_pairs_in_cuts(
    words: Sequence[str],
    mult: Sequence[int],
    cert: Certificate,
    terms: CutTerms,
    deadline: float | None,
    arrays: _ArrayCheck | None = None,
) -> None:
    """The pairs of words of ``C`` (both in cuts of two words or more), by *signature*.

    The words of ``C`` held by the same cuts of two words or more form one class; every word
    ``a`` of ``C`` shares the same multipliers with all the words of a class, so one table of
    the two smallest ``v'`` per class, queried with those multipliers added to ``u(a)``, checks
    every pair exactly. Time O(letters of ``C`` times the number of classes): linear for one cut
    or a few, whatever their size; never more than the pair-by-pair check.
    """
    if all(len(ids) < 2 for ids, _ in cert.cuts):
        return  # no word in C
    proper = cert.proper
    inside, sig, classes = signature_classes(words, cert, terms)
    lams = terms.lams
    for held, ids in classes.items():
        _past(deadline)
        bonus = [sum(lams[k] for k in sig[i] & held) for i in inside]
        fitting = None if arrays is None else _fitting(bonus)
        if arrays is not None and arrays.v_all is not None and fitting is not None:
            arrays.check(arrays.v_all, np.asarray(ids), np.asarray(inside), fitting)
        else:
            table = _two_smallest(terms.v_all, words, ids, proper, deadline)
            _query_table(table, inside, bonus, words, mult, cert, terms, deadline)


def pair_rhs(
    a: str,
    b: str,
    cuts_of_b: Sequence[int],
    shared: set[int],
    lams: Sequence[int],
    scale: int,
    proper: bool,
    score: str = "squared",
) -> int:
    """The right-hand side of the joint ``a -> b``: ``scale * ov(a, b)^2`` (``ov`` for the
    linear score) plus the multipliers of the cuts ``b`` lies in and ``a`` does not (those the
    joint enters)."""
    ov = suffix_prefix_overlap(a, b, proper)
    return scale * joint_gain(ov, score) + sum(lams[c] for c in cuts_of_b if c not in shared)


def _check_depot(
    words: Sequence[str],
    cert: Certificate,
    depot: tuple[int, int],
    terms: CutTerms,
    arrays: _ArrayCheck | None = None,
) -> None:
    """A linear snake's depot inequalities: ``u(d) + v(b) >= L(b)`` and ``u(a) + v(d) >= 0``
    (the least of each side first: from the array check's values when it has them)."""
    ud, vd = depot
    u, v = cert.u, cert.v
    if not words:
        return
    if arrays is not None and arrays.v_all is not None:
        least_v, least_u = int(arrays.v_all.min()), int(arrays.u.min())
    else:
        least_v, least_u = min(terms.v_all), min(u)
    if ud + least_v >= 0 and least_u + vd >= 0:
        return  # every inequality holds
    for i in range(len(words)):
        if ud + terms.v_all[i] < 0:
            raise DualViolation("", words[i], ud + v[i], terms.load[i])
        if u[i] + vd < 0:
            raise DualViolation(words[i], "", u[i] + vd, 0)
