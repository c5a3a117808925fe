"""The greedy assignment's matching, one depth of hand-over strings at a time, as whole-array
passes: each free exit, longest hand-over string first, takes the first free entry below its
string (the words in preorder), never its own.

**Why a level at a time is exact.** Candidates are taken deepest string first, and in their
order within a depth. Two strings of the same depth are never one below the other, so the entries
below them (ranges of the preorder) are disjoint: the candidates of one depth compete only with
those of the same string. Within a string the exits, in candidate order (each word's copies last
first), take the free entries in order: the ``k``-th exit the ``k``-th free entry. That is the
loop's answer exactly unless an exit meets its own entry at its rank (the loop then skips it, and
the entries after shift): such strings, and depths of few candidates (a word of 100,000 letters
makes 100,000 depths), are matched entry by entry as the loop does.

Measured (CPU of the whole greedy assignment's matching and decoding, ``greedy_successors``):
ENABLE 0.70 s with the loop, 0.31 s; Debian's French list 2.0 -> 0.64 s; 922,185 words of the
German, French and Spanish wordfreq lists 6.2 s (the loop compiled with Numba) -> 2.6 s. It
replaced both the Python loop and the compiled one (Numba: 0.3 s and 150 MB to load). With the
successors as arrays end to end and the candidates' ranges, free ends and cycle merging as array
passes too (:mod:`~cpwords.wordsnake.relaxation.decode`): ENABLE 0.12 s, the French list 0.23 s
(2026-12, in the whole command, medians of 3).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from cpwords.wordsnake.relaxation.flow import FlowStopped
from cpwords.wordsnake.relaxation.int_types import signed_type
from cpwords.wordsnake.relaxation.sorting import stable_order

#: A depth with fewer candidates than this is matched candidate by candidate (array passes
#: cost a few microseconds each whatever their size).
SMALL_DEPTH = 64


@dataclass
class LevelMatching:
    """The matching's state: free entries (slots: each word's copies, the words in preorder)
    and the exits still free of each word.

    Parameters
    ----------
    word_node : numpy.ndarray of int32 or int64, shape (W,)
        Each word's node in the prefix trie.
    slot_start : numpy.ndarray of int32 or int64, shape (W + 1,)
        Word ``w``'s slots are ``slot_start[w]`` .. ``slot_start[w + 1] - 1``.
    slot_item : numpy.ndarray of int32 or int64 (as ``slot_start``), shape (S,)
        The item of each slot (word ``w``'s copies in ascending order).
    succ, handover : numpy.ndarray of int64, shape (N + 1,)
        Filled in: each matched exit's successor item and the string's depth (``succ`` -1
        where an exit is still free).
    """

    word_node: np.ndarray
    slot_start: np.ndarray
    slot_item: np.ndarray
    succ: np.ndarray
    handover: np.ndarray
    free: np.ndarray = field(init=False)
    pend: np.ndarray = field(init=False)
    own_slot: np.ndarray = field(init=False)
    _group_units: list[np.ndarray] = field(init=False, default_factory=list)
    _group_sizes: list[np.ndarray] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        S = self.slot_item.size
        self.free = np.ones(S, dtype=bool)
        self.pend = np.diff(self.slot_start)  # word w's free exits: its first pend[w] slots' items
        self.own_slot = np.zeros(self.succ.shape[0], dtype=self.slot_item.dtype)
        self.own_slot[self.slot_item] = np.arange(S, dtype=self.slot_item.dtype)

    def group_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The exits matched at each string where two or more were (those may exchange
        successors), one group after the other in the order recorded, and where each group
        starts."""
        if not self._group_units:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        sizes = np.concatenate(self._group_sizes)
        return np.concatenate(self._group_units), np.cumsum(sizes) - sizes

    @property
    def groups(self) -> list[list[int]]:
        """:meth:`group_arrays` as lists, group by group."""
        units, starts = self.group_arrays()
        flat, at = units.tolist(), starts.tolist()
        return [flat[a:b] for a, b in zip(at, [*at[1:], len(flat)][: len(at)], strict=True)]

    def run(
        self,
        candidates: Sequence[Any],
        depth: np.ndarray,
        deadline: float | None,
    ) -> None:
        """Match the candidates (word, string node, range of words; deepest string first):
        their words and strings (arrays) and their ranges of words (:class:`CandidateRanges`).

        A list of candidates is emptied: the matching takes its arrays and lets each go once
        read (977,555 31-mers of C. elegans: 29 million candidates, the caller's arrays,
        their live copies and the copies' index held at once were 1.4 GB, the greedy
        assignment's peak).

        Raises
        ------
        FlowStopped
            ``deadline`` (a ``time.perf_counter()`` value) passed between two depths; the
            matches made so far stand.
        """
        hw, hs, ranges = candidates
        if isinstance(candidates, list):
            candidates.clear()
        live = ranges.live()
        if not live.all():  # one array filtered at a time (a mask: no index of the live)
            hw = hw[live]
            hs = hs[live]
            ranges = ranges.kept(live, hs)
        del live
        d = _depths(depth, hs)
        # Each candidate's first and last slots are read for the candidates matched only (the
        # whole columns of slots beside the ranges' own were 0.23 GB of 977,555 31-mers of C.
        # elegans' greedy matching at its peak).
        start = self.slot_start
        cuts = np.flatnonzero(d[1:] != d[:-1]) + 1
        bounds = [0, *cuts.tolist(), hw.size]
        # Runs of depths with few candidates each are matched one by one together.
        for lo, hi, whole in _runs(bounds, SMALL_DEPTH):
            if deadline is not None and time.perf_counter() >= deadline:
                raise FlowStopped
            # The candidates whose word still has a free exit (each column read once).
            idx = lo + np.flatnonzero(self.pend[hw[lo:hi]] > 0)
            if not idx.size:
                continue
            w, s = hw[idx], hs[idx]
            a, b = start[ranges.lo(idx)], start[ranges.hi(idx)]  # the slots, for these only
            if not whole:
                self._record([self._one_by_one(idx, w, s, a, b, d[idx], deadline)])
                continue
            # A word's own string comes first at its depth (the words below it, itself left
            # out), then the strings that end other words (every word below them).
            own = self.word_node[w] == s
            found: list[_Matched] = []
            for sel in (own, ~own):
                part = idx[sel]
                if part.size:
                    found += self._whole(part, w[sel], s[sel], a[sel], b[sel], int(d[lo]))
            self._record(found)

    def _record(self, found: list[_Matched]) -> None:
        """Keep the exits matched at each string of a depth where two or more were (those
        may exchange successors), the strings in the order of their first match and a
        string's own word's exits first."""
        if not found:
            return
        unit = np.concatenate([f.unit for f in found])
        if unit.size < 2:
            return
        string = np.concatenate([f.string for f in found])
        cand = np.concatenate([f.cand for f in found])
        order = stable_order(string)  # each string's exits together, in the order matched
        string, unit, cand = string[order], unit[order], cand[order]
        starts = np.flatnonzero(np.concatenate([[True], string[1:] != string[:-1]]))
        count = np.diff(np.append(starts, string.size))
        many = np.flatnonzero(count >= 2)
        chosen = many[np.argsort(cand[starts[many]], kind="stable")]
        sizes = count[chosen]
        at = np.repeat(starts[chosen] - (np.cumsum(sizes) - sizes), sizes)
        self._group_units.append(unit[at + np.arange(at.size)])
        self._group_sizes.append(sizes)

    def _whole(
        self,
        idx: np.ndarray,
        w: np.ndarray,
        s: np.ndarray,
        a: np.ndarray,
        b: np.ndarray,
        d: int,
    ) -> list[_Matched]:
        """One depth as array passes (strings where an exit meets its own entry one by one)."""
        order = stable_order(s)
        idx, w, s, a, b = idx[order], w[order], s[order], a[order], b[order]
        starts = np.concatenate([[True], s[1:] != s[:-1]])
        first = np.flatnonzero(starts)
        group = np.cumsum(starts) - 1
        # The exits of each candidate, last copy first, in candidate order.
        count = self.pend[w]
        cand_of = np.repeat(np.arange(s.size), count)
        rank_in_cand = np.arange(cand_of.size) - np.repeat(np.cumsum(count) - count, count)
        unit_slot = self.slot_start[w][cand_of] + count[cand_of] - 1 - rank_in_cand
        unit = self.slot_item[unit_slot]
        g_of = group[cand_of]
        g_units = np.bincount(g_of, minlength=first.size)
        rank = np.arange(unit.size) - np.repeat(np.cumsum(g_units) - g_units, g_units)
        # The free entries below each string, in order.
        free_slots = np.flatnonzero(self.free)
        # The strings in node order have their ranges in slot order (a depth's subtrees are
        # disjoint): searches in sorted order already, with no sort of the needles.
        f_lo = np.searchsorted(free_slots, a[first])
        f_hi = np.searchsorted(free_slots, b[first])
        takes = rank < (f_hi - f_lo)[g_of]
        target = np.full(unit.size, -1, dtype=np.int64)
        target[takes] = free_slots[f_lo[g_of[takes]] + rank[takes]]
        clash = np.zeros(first.size, dtype=bool)
        clash[g_of[target == self.own_slot[unit]]] = True
        whole = takes & ~clash[g_of]
        self._apply(unit[whole], target[whole], w[cand_of[whole]], d)
        out = [_Matched(unit[whole], s[cand_of[whole]], idx[cand_of[whole]])]
        for g in np.flatnonzero(clash).tolist():
            stop = first[g + 1] if g + 1 < first.size else s.size
            rows = np.arange(first[g], stop)
            depths = np.full(rows.size, d)
            out.append(self._one_by_one(idx[rows], w[rows], s[rows], a[rows], b[rows], depths))
        return out

    def _one_by_one(
        self,
        idx: np.ndarray,
        w: np.ndarray,
        s: np.ndarray,
        a: np.ndarray,
        b: np.ndarray,
        d: np.ndarray,
        deadline: float | None = None,
    ) -> _Matched:
        """Candidates matched in order, as the loop matches them (``idx`` ascending; the
        entries and exits taken are marked once all are matched: until then, in ``taken`` and
        ``used``)."""
        free_below: dict[tuple[int, int], list[int]] = {}  # free entries by (string, range)
        taken: set[int] = set()
        used: dict[int, int] = {}
        start, items, own_slot = self.slot_start, self.slot_item, self.own_slot
        succ, handover = self.succ, self.handover
        got: list[tuple[int, int, int]] = []  # (exit, string, candidate), in match order
        columns = (idx, w, s, a, b, d)
        rows = zip(*(col.tolist() for col in columns), strict=True)
        for count, (c, word, string, lo, hi, dd) in enumerate(rows):
            if not count & 0xFFF and deadline is not None and time.perf_counter() >= deadline:
                raise FlowStopped  # the matches so far are in succ (free_ends reads them)
            k = self.pend.item(word) - used.get(word, 0)
            fr = free_below.get((string, lo))
            if fr is None:  # computed when first needed: every deeper string is matched
                if hi - lo > 16:
                    found = (lo + np.flatnonzero(self.free[lo:hi])).tolist()
                else:  # a few entries (a long word's levels): no array call
                    found = [j for j in range(lo, hi) if self.free.item(j)]
                fr = free_below[string, lo] = [j for j in found if j not in taken]
            while k and fr:
                u = items.item(start.item(word) + k - 1)
                j = 1 if fr[0] == own_slot.item(u) else 0  # never its own entry
                if j >= len(fr):
                    break
                slot = fr.pop(j)
                succ[u], handover[u] = items.item(slot), dd
                taken.add(slot)
                got.append((u, string, c))
                k -= 1
            if k < self.pend.item(word) - used.get(word, 0):
                used[word] = self.pend.item(word) - k
        self.free[list(taken)] = False
        for word, n in used.items():
            self.pend[word] -= n
        arr = np.array(got, dtype=np.int64).reshape(-1, 3)
        return _Matched(arr[:, 0], arr[:, 1], arr[:, 2])

    def _apply(self, units: np.ndarray, slots: np.ndarray, words: np.ndarray, d: int) -> None:
        """Record matches: each exit's successor and hand-over, its entry taken, its word's
        free exits one fewer."""
        self.succ[units] = self.slot_item[slots]
        self.handover[units] = d
        self.free[slots] = False
        np.subtract.at(self.pend, words, self.pend.dtype.type(1))  # same type: the fast loop

    def free_ends(self) -> tuple[np.ndarray, np.ndarray]:
        """The entries still free (items, in slot order) and the exits still free (items, word
        by word, each word's copies in ascending order), read from ``succ`` alone (so a stop
        between two writes leaves them consistent)."""
        succ = self.succ[:-1]
        targeted = np.zeros(succ.size + 1, dtype=bool)
        targeted[succ[succ >= 0]] = True
        items = self.slot_item
        return items[~targeted[items]], items[succ[items] < 0]


@dataclass
class CandidateRanges:
    """The range of words each hand-over candidate may be followed by, read for the
    candidates asked: ``lo(i)`` .. ``hi(i) - 1``, the words below its string (preorder ids),
    its string's own word left out where ``strict``.

    Parameters
    ----------
    strings : numpy.ndarray of int32 or int64, shape (k,)
        Each candidate's string (a trie node).
    strict : numpy.ndarray of bool, shape (k,)
        Whether the string's own word is left out (full and proper overlaps).
    before : numpy.ndarray of int32 or int64, shape (T + 1,)
        The words whose nodes come before each node (preorder).
    end : numpy.ndarray of int32 or int64, shape (T,)
        The last node of each node's subtree.

    Notes
    -----
    Two gathers a candidate asked, where two columns of a word id each were held through the
    matching (977,555 31-mers of C. elegans: 30 million candidates, 0.22 GB against this 0.1).
    """

    strings: np.ndarray
    strict: np.ndarray
    before: np.ndarray
    end: np.ndarray

    def lo(self, at: Any) -> np.ndarray:
        """The first word allowed after the candidates ``at``.

        Parameters
        ----------
        at : slice, numpy.ndarray of int or numpy.ndarray of bool
            Candidates: a slice, ids or a mask of shape (k,).

        Returns
        -------
        numpy.ndarray of ``before``'s type, shape (len(at),)
            Word ids (preorder).
        """
        return self.before[self.strings[at] + self.strict[at]]

    def hi(self, at: Any) -> np.ndarray:
        """One past the last word allowed after the candidates ``at`` (as :meth:`lo`).

        Parameters
        ----------
        at : slice, numpy.ndarray of int or numpy.ndarray of bool

        Returns
        -------
        numpy.ndarray of ``before``'s type, shape (len(at),)
        """
        return self.before[self.end[self.strings[at]] + 1]

    def live(self) -> np.ndarray:
        """Whether each candidate's range holds a word, read a block of candidates at a time.

        Returns
        -------
        numpy.ndarray of bool, shape (k,)
        """
        out = np.empty(self.strings.shape[0], dtype=bool)
        for lo in range(0, out.shape[0], DEPTH_BLOCK):
            at = slice(lo, lo + DEPTH_BLOCK)
            np.less(self.lo(at), self.hi(at), out=out[at])
        return out

    def kept(self, mask: np.ndarray, strings: np.ndarray) -> CandidateRanges:
        """The ranges of the candidates ``mask`` keeps.

        Parameters
        ----------
        mask : numpy.ndarray of bool, shape (k,)
        strings : numpy.ndarray of int, shape (mask.sum(),)
            The kept candidates' strings (kept already by the caller: not copied again).

        Returns
        -------
        CandidateRanges
            Sharing ``before`` and ``end``.
        """
        return CandidateRanges(strings, self.strict[mask], self.before, self.end)


#: Candidates whose depths are gathered at a time (:func:`_depths`).
DEPTH_BLOCK = 1 << 20


def _depths(depth: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """``depth[nodes]`` in the narrowest type holding the deepest node's depth, gathered a
    block at a time (977,555 31-mers of C. elegans: 30 million depths in 8 bits, not 32)."""
    out = np.empty(nodes.shape[0], dtype=signed_type(int(depth.max(initial=0))))
    for lo in range(0, nodes.shape[0], DEPTH_BLOCK):
        out[lo : lo + DEPTH_BLOCK] = depth[nodes[lo : lo + DEPTH_BLOCK]]
    return out


def _runs(bounds: list[int], small: int) -> list[tuple[int, int, bool]]:
    """The depths (candidates ``bounds[k]`` .. ``bounds[k + 1] - 1``) as ``(lo, hi, whole)``:
    a depth of at least ``small`` candidates alone and matched as arrays (``whole``), the
    others merged with their neighbours."""
    out: list[tuple[int, int, bool]] = []
    for lo, hi in itertools.pairwise(bounds):
        whole = hi - lo >= small
        if not whole and out and not out[-1][2]:
            out[-1] = (out[-1][0], hi, False)
        else:
            out.append((lo, hi, whole))
    return out


class _Matched(NamedTuple):
    """Exits matched (in the order matched), the string each was handed over at, and the
    candidate (its place in the order) that matched it."""

    unit: np.ndarray
    string: np.ndarray
    cand: np.ndarray
