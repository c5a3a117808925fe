"""The local search on reduced costs as it was written before its links, prices, slacks and
each word's items became machine-integer arrays (lists and a dictionary of lists of every item):
the reference the tests hold :func:`cpwords.wordsnake.primal.local_search.reduced_cost_search`
to, ordering for ordering and move for move.
"""

from __future__ import annotations

import bisect
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpwords.wordsnake.primal.repair import PairScore, score_sequence
from cpwords.wordsnake.relaxation.word_ranges import WordRanges

#: Longest run of items a segment move carries.
SEGMENT = 8

#: Words per range query (cheapest first) that give candidate places.
CANDIDATES = 40

#: Joints of zero slack at words of the smallest prices offered to every segment move.
FREE_JOINTS = 400

#: Most items an ejection chain's breadth-first search visits (Japanese wordfreq list, from
#: the ordering the pieces left: 500 found 24 of its 25 points in 9.4 s, 1,500 all 25 in 15.5
#: s, 5,000 all 25 in 20 s).
CHAIN_VISITS = 2_000

#: Free joints tried for each joint of a cycle that a chain closed.
SPLICE_FREE = 50

#: Longest string whose range :meth:`_Candidates.span` keeps.
SHORT_KEY = 32

#: Items of a cycle whose exchanges with the path are priced at once.
SPLICE_BATCH = 32

#: Most answers of the range queries kept at once (the cache is emptied when it holds more:
#: the memory stays linear in the list).
CACHED_QUERIES = 200_000

#: Tight joints a chain's search claims at once (the arrays of a level stay small).
CLAIM_BATCH = 1 << 16

#: No items.
_NONE = np.zeros(0, dtype=np.int64)

#: Most items kept at once in the answers of :meth:`_Search.tight` (the chains' searches ask
#: for the same items' tight joints again and again: each answer depends on the item alone).
CACHED_TIGHT = 4_000_000


@dataclass
class LocalSearchResult:
    """The outcome of :func:`reduced_cost_search`.

    Attributes
    ----------
    order : list of int
        The item sequence (the given one when no move gained).
    gain : int
        Score points gained (``>= 0``).
    info : dict
        ``segment_moves``, ``chains``, ``rounds``, ``time`` (seconds) and ``stopped``
        (``"target"``, ``"deadline"``, ``"local optimum"`` or ``"interrupted"``: Ctrl-C,
        the moves made before it kept).
    """

    order: list[int]
    gain: int
    info: dict[str, Any] = field(default_factory=dict)


class _Prices:
    """Reduced costs of item joints; item ``n`` is the depot."""

    def __init__(
        self,
        pair: PairScore,
        u: np.ndarray,
        v: np.ndarray,
        depot: tuple[int, int],
        scale: int,
    ) -> None:
        self.pair = pair
        self.n = pair.n
        iw = np.asarray(pair.item_word, dtype=np.int64)[: self.n]
        # Arrays for the vectorised slacks of a round, lists for one joint at a time (a list
        # element is read several times faster than a numpy scalar).
        self.iu_arr = np.append(np.asarray(u, dtype=np.int64)[iw], np.int64(depot[0]))
        self.iv_arr = np.append(np.asarray(v, dtype=np.int64)[iw], np.int64(depot[1]))
        self.iu: list[int] = self.iu_arr.tolist()
        self.iv: list[int] = self.iv_arr.tolist()
        self.scale = int(scale)

    def __call__(self, a: int, b: int) -> int:
        """The slack of the joint ``a -> b`` (scaled units)."""
        return self.iu[a] + self.iv[b] - self.scale * self.pair(a, b)

    def many(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The slacks of the joints ``a[i] -> b[i]`` (scaled units)."""
        return self.iu_arr[a] + self.iv_arr[b] - self.scale * self.pair.many(a, b)


class _Candidates:
    """Range queries on the distinct words: the cheapest words that start (end) with a string."""

    def __init__(self, words: Sequence[str], wu: np.ndarray, wv: np.ndarray, items: Any) -> None:
        self.ranges = WordRanges(words)
        self.v_fwd = np.asarray(wv, dtype=np.int64)
        self.u_rev = np.asarray(wu, dtype=np.int64)[self.ranges.rev_ids]
        self.items = items  # distinct word -> its items
        self._cache: dict[tuple[str, bool], list[int]] = {}
        # The same as arrays: the items of word w are item_ids[item_start[w]:item_start[w + 1]].
        owners = np.repeat(
            np.fromiter(items.keys(), dtype=np.int64, count=len(items)),
            [len(got) for got in items.values()],
        )
        ids = np.fromiter(itertools.chain.from_iterable(items.values()), dtype=np.int64)
        by_word = np.argsort(owners, kind="stable")
        self.item_ids = ids[by_word]
        self.item_start = np.searchsorted(owners[by_word], np.arange(len(words) + 1))
        self._one_each = bool(np.all(np.diff(self.item_start) == 1))
        self._first = np.zeros(len(words), dtype=np.int64)  # scratch of :meth:`distinct`
        self._spans: dict[tuple[str, bool], tuple[int, int]] = {}

    def span(self, s: str, end: bool) -> tuple[int, int]:
        """Index range of the words that start with ``s`` (``end``: of the reversed words that
        end with it), kept (many items share their last or first letters)."""
        if len(s) > SHORT_KEY:  # not kept: the keys' memory stays linear in the letters
            return self.ranges.ending(s) if end else self.ranges.starting(s)
        key = (s, end)
        got = self._spans.get(key)
        if got is None:
            got = self.ranges.ending(s) if end else self.ranges.starting(s)
            if len(self._spans) >= CACHED_QUERIES:  # memory stays linear in the list
                self._spans.clear()
            self._spans[key] = got
        return got

    def words_within(self, spans: list[tuple[int, int, int]], end: bool) -> np.ndarray:
        """Word ids in the ranges ``(lo, hi, limit)`` of :meth:`span` whose ``v`` (``end``:
        ``u``) is at most the range's ``limit``, range by range in the order of the sorted
        words (their reversals), in one array pass; a word in two ranges comes twice."""
        lo, hi, limit = (np.array(col, dtype=np.int64) for col in zip(*spans, strict=True))
        lens = hi - lo
        at = np.repeat(lo - (np.cumsum(lens) - lens), lens) + np.arange(int(lens.sum()))
        found = at[(self.u_rev if end else self.v_fwd)[at] <= np.repeat(limit, lens)]
        return self.ranges.rev_ids[found] if end else found

    def distinct(self, ids: np.ndarray) -> np.ndarray:
        """The word ids ``ids``, each once, where it first occurs (each word's first position
        by an unbuffered minimum, no sort)."""
        where = np.arange(ids.size)
        self._first[ids] = ids.size
        np.minimum.at(self._first, ids, where)
        return ids[self._first[ids] == where]

    def items_of(self, word_ids: np.ndarray) -> np.ndarray:
        """The items of the words ``word_ids`` (each word's items in turn), as an array."""
        starts = self.item_start[word_ids]
        if self._one_each:  # every word once: one item each
            return self.item_ids[starts]
        lens = self.item_start[word_ids + 1] - starts
        within = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
        return self.item_ids[np.repeat(starts, lens) + within]

    def words_with(self, s: str, end: bool) -> list[int]:
        """The :data:`CANDIDATES` cheapest words that start with ``s`` (``end=False``: smallest
        ``v`` first) or end with it (``end=True``: smallest ``u`` first), kept for short ``s``."""
        key = (s, end)
        got = self._cache.get(key)
        if got is None:
            lo, hi = self.span(s, end)
            found = np.asarray(_cheapest((self.u_rev if end else self.v_fwd)[lo:hi], lo), np.int64)
            got = (self.ranges.rev_ids[found] if end else found).tolist()
            if len(s) > SHORT_KEY:  # not kept: the keys' memory stays linear in the letters
                return got
            if len(self._cache) >= CACHED_QUERIES:  # memory stays linear in the list
                self._cache.clear()
            self._cache[key] = got
        return got


def _span(cuts: list[int], i: int, size: int) -> range:
    """Positions of segment ``i``: after ``cuts[i - 1]`` up to ``cuts[i]`` (segment 0 wraps
    around through the depot's position 0)."""
    lo = cuts[i - 1] + 1 if i else cuts[-1] + 1 - size
    return range(lo, cuts[i] + 1)


def _cheapest(values: np.ndarray, offset: int) -> list[int]:
    """Indices (plus ``offset``) of the :data:`CANDIDATES` smallest values, smallest first."""
    if values.size > CANDIDATES:
        part = np.argpartition(values, CANDIDATES)[:CANDIDATES]
    else:
        part = np.arange(values.size)
    part = part[np.argsort(values[part], kind="stable")]
    return (part + offset).tolist()


class _Snake:
    """An ordering as successor and predecessor lists (item ``n``: the depot)."""

    def __init__(self, order: Sequence[int], n: int) -> None:
        self.n = n
        self.nxt = [0] * (n + 1)
        self.prv = [0] * (n + 1)
        chain = [n, *order, n]
        for a, b in itertools.pairwise(chain):
            self.nxt[a] = b
            self.prv[b] = a
        self._pos: list[int] | None = None
        self._at: list[int] = []
        # The same links as arrays, for the chains' searches (a level of items at a time).
        self.nxt_arr = np.array(self.nxt, dtype=np.int64)
        self.prv_arr = np.array(self.prv, dtype=np.int64)

    def positions(self) -> tuple[list[int], list[int]]:
        """Each item's position (the depot at 0) and the item at each position; recomputed
        after :meth:`changed`."""
        if self._pos is None:
            n = self.n
            pos, at, x = [0] * (n + 1), [n], self.nxt[n]
            while x != n:
                pos[x] = len(at)
                at.append(x)
                x = self.nxt[x]
            self._pos, self._at = pos, at
        return self._pos, self._at

    def changed(self) -> None:
        """The links changed for good: positions are stale."""
        self._pos = None

    def whole_order(self) -> list[int] | None:
        """The items from the depot's successor on, or None unless they are every item once
        (links left half-changed: a walk that does not come back to the depot within ``n``
        steps)."""
        out: list[int] = []
        x = self.nxt[self.n]
        while x != self.n and len(out) < self.n:
            out.append(x)
            x = self.nxt[x]
        return out if x == self.n and len(out) == self.n else None

    def link(self, a: int, b: int) -> None:
        """Make ``b`` the successor of ``a``."""
        self.nxt[a] = b
        self.prv[b] = a
        self.nxt_arr[a] = b
        self.prv_arr[b] = a

    def restore(self, x: int, nx: int, pv: int) -> None:
        """Give ``x`` back its successor ``nx`` and predecessor ``pv``."""
        self.nxt[x], self.prv[x] = nx, pv
        self.nxt_arr[x], self.prv_arr[x] = nx, pv


def reduced_cost_search(
    pair: PairScore,
    words: Sequence[str],
    order: Sequence[int],
    u: np.ndarray,
    v: np.ndarray,
    depot: tuple[int, int],
    scale: int,
    *,
    deadline: float | None = None,
    target: int | None = None,
) -> LocalSearchResult:
    """Improve a linear snake by segment moves and ejection chains priced by reduced costs.

    Parameters
    ----------
    pair : PairScore
        The joints' scores on items (``pair.n`` items; ``pair.item_word`` maps an item to its
        distinct word).
    words : sequence of str
        The distinct words, sorted (the indices of ``u`` and ``v``).
    order : sequence of int
        A linear snake: every item once.
    u, v : numpy.ndarray of int64, shape ``(len(words),)``
        Dual values of the words as tail and head of a joint, in units of ``1 / scale`` (any
        values: they guide the search, the gains are exact).
    depot : (int, int)
        The depot's values (as tail, as head).
    scale : int
        Units of the values per score point.
    deadline : float, optional
        ``time.perf_counter()`` value at which to stop (between moves).
    target : int, optional
        Score points after which to stop (a bound less the score of ``order``).

    Returns
    -------
    LocalSearchResult
        Never scores below ``order``: the gain is counted again from the joints' scores, not
        from the reduced costs, and the given order is returned unless it is positive.

    Raises
    ------
    Nothing of its own: Ctrl-C ends the search with the moves made so far
    (``info["stopped"] == "interrupted"``), and the caller decides whether to stop.

    Notes
    -----
    Time: each round computes every joint's slack (vectorised) and tries the joints of
    positive slack; a chain's search visits at most :data:`CHAIN_VISITS` items. The deadline
    is looked at between moves, before each item a chain's search expands and while a cycle is
    opened. Memory: a few lists of one entry per item and a cache of at most
    :data:`CACHED_QUERIES` range queries.

    References
    ----------
    I. Or (1976), segment moves; F. Glover, Discrete Applied Mathematics 65 (1996), ejection
    chains; R. M. Karp, SIAM J. Computing 8 (1979), opening cycles by exchanging joints.
    Measured on the Japanese wordfreq list: card ``models/wordsnake.md``, "Local search on
    reduced costs".
    """
    t0 = time.perf_counter()
    n = pair.n
    price = _Prices(pair, u, v, depot, scale)
    items: dict[int, list[int]] = {}
    for i, w in enumerate(np.asarray(pair.item_word)[:n].tolist()):
        items.setdefault(int(w), []).append(i)
    cand = _Candidates(words, u, v, items)
    goal = None if target is None else int(target) * int(scale)
    search = _Search(pair, price, cand, _Snake(order, n), deadline, goal)
    info: dict[str, Any] = {"segment_moves": 0, "chains": 0, "rounds": 0}
    stopped = search.run(info)
    info["time"] = time.perf_counter() - t0
    info["stopped"] = stopped
    return _result(search.snake.whole_order(), order, pair, info)


def _result(
    new: list[int] | None, order: Sequence[int], pair: PairScore, info: dict[str, Any]
) -> LocalSearchResult:
    """The ordering found and its gain over ``order``, counted from the joints' scores: the
    given order unless the gain is positive (or when ``new`` is None: a move left half-made)."""
    if new is None:  # stopped half-way through a move
        return LocalSearchResult(list(order), 0, info)
    gain = score_sequence(new, pair, False) - score_sequence(list(order), pair, False)
    if gain <= 0:
        return LocalSearchResult(list(order), 0, info)
    return LocalSearchResult(new, int(gain), info)


class _Level:
    """One level of a chain's breadth-first search: the tight joints found and not yet
    claimed (their items ``ys`` reached from ``ps``), and the items claimed so far."""

    def __init__(self, goal: int, forward: bool) -> None:
        self.goal, self.forward = goal, forward
        self.ys: list[np.ndarray] = []
        self.ps: list[int] = []
        self.pending = 0
        self.grown: list[np.ndarray] = []

    def add(self, p: int, ys: np.ndarray) -> None:
        """The tight joints of ``p``."""
        if ys.size:
            self.ys.append(ys)
            self.ps.append(p)
            self.pending += ys.size

    def reached(self) -> list[int]:
        """The items claimed, in order: the next level."""
        return np.concatenate(self.grown).tolist() if self.grown else []


class _Search:
    """One local search: the snake, its prices and the candidate queries."""

    def __init__(
        self,
        pair: PairScore,
        price: _Prices,
        cand: _Candidates,
        snake: _Snake,
        deadline: float | None,
        goal: int | None = None,
    ) -> None:
        self.pair = pair
        self.goal = goal  # slack (scaled) after whose gain to stop
        self.gained = 0
        self.s = price
        self.cand = cand
        self.snake = snake
        self.deadline = deadline
        self.n = pair.n
        self.words = pair.words
        self.free: list[int] = []
        self.joint = [0] * (self.n + 1)  # the slack of x -> nxt[x]
        self.joint_arr = np.zeros(self.n + 1, dtype=np.int64)  # the same, as an array
        self._tight: dict[tuple[int, bool], np.ndarray] = {}  # (p, forward) -> tight(p)
        self._tight_size = 0
        # A chain's search: an item is reached in this search when its mark is the search's
        # stamp; it lost ``lost_y`` to ``lost_to`` at a total slack ``removed`` of the joints
        # the chain removed (arrays over the items, kept from one search to the next).
        self._stamp = 0
        self._mark = np.zeros(self.n + 1, dtype=np.int64)
        self._lost_to = np.zeros(self.n + 1, dtype=np.int64)
        self._lost_y = np.zeros(self.n + 1, dtype=np.int64)
        self._removed = np.zeros(self.n + 1, dtype=np.int64)

    def _relinked(self, tails: Any) -> None:
        """The joints after ``tails`` changed for good."""
        nxt, s = self.snake.nxt, self.s
        for x in tails:
            self.joint[x] = self.joint_arr[x] = s(x, nxt[x])
        self.snake.changed()

    def run(self, info: dict[str, Any]) -> str:
        """Rounds until one gains nothing, the goal or the deadline is reached, or Ctrl-C
        (the moves so far kept, if it did not fall inside one): why it stopped."""
        try:
            while True:
                info["rounds"] += 1
                round_gain = self.round(info)
                if self.done():
                    return "target"
                if self.late():
                    return "deadline"
                if round_gain <= 0:
                    return "local optimum"
        except KeyboardInterrupt:
            return "interrupted"

    def done(self) -> bool:
        """Whether the gain so far reached the goal."""
        return self.goal is not None and self.gained >= self.goal

    def late(self) -> bool:
        """Whether the deadline has passed."""
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def round(self, info: dict[str, Any]) -> int:
        """One pass over the joints of positive slack, costliest first; the slack gained."""
        tails = np.asarray(self.snake.positions()[1], dtype=np.int64)  # the depot first
        slack = self.s.many(tails, np.roll(tails, -1))
        joints = list(zip(slack.tolist(), tails.tolist(), strict=True))
        for c, a in joints:
            self.joint[a] = c
        self.joint_arr[tails] = slack
        nxt, s = self.snake.nxt, self.s
        self.free = self._free_joints(joints)
        costly = sorted(((c, a) for c, a in joints if c > 0), reverse=True)
        gained = 0
        for _, a in costly:
            if self.late() or self.done():
                break
            b = nxt[a]
            if s(a, b) <= 0:  # an earlier move changed this joint
                continue
            got = self.segment_move(a, b)
            if got > 0:
                info["segment_moves"] += 1
            else:
                got = self.chain(a, b)
                info["chains"] += int(got > 0)
            gained += got
            self.gained += got
        return gained

    def _free_joints(self, joints: list[tuple[int, int]]) -> list[int]:
        """Tails of zero-slack joints whose tail has the smallest ``u`` and head the smallest
        ``v``: anything fits between them at its own prices."""
        iu, iv, nxt, n = self.s.iu, self.s.iv, self.snake.nxt, self.n
        lo_u, lo_v = min(iu[:n]), min(iv[:n])
        free = [a for c, a in joints if c == 0 and a < n and iu[a] == lo_u and iv[nxt[a]] == lo_v]
        step = max(1, len(free) // FREE_JOINTS)
        return free[::step][:FREE_JOINTS]

    # Segment moves -------------------------------------------------------------------------

    def segment_move(self, a: int, b: int) -> int:
        """The best move of a run starting at ``b`` or ending at ``a``; the slack gained."""
        nxt, prv, n = self.snake.nxt, self.snake.prv, self.n
        best = (0, -1, -1, -1)
        runs: list[tuple[int, int]] = []
        last = b
        while last != n and len(runs) < SEGMENT:  # runs that start at b
            runs.append((b, last))
            last = nxt[last]
        first = a
        for _ in range(SEGMENT):  # runs that end at a
            if first == n:
                break
            runs.append((first, a))
            first = prv[first]
        for f, ll in runs:
            p0, q0 = prv[f], nxt[ll]
            out = self.joint[p0] + self.joint[ll] - self.s(p0, q0)
            if out <= best[0]:
                continue
            inside = self._run_items(f, ll)
            # Every place at once, in the order of the set (the first of the best, as a loop
            # over it would find): p, q = nxt[p] outside the run, p not already before it.
            # (The set is read as it is: removing from it may rebuild it in another order.)
            places = self._places(f, ll)
            ps = np.fromiter(places, dtype=np.int64, count=len(places))
            qs = self.snake.nxt_arr[ps]
            run = np.fromiter(inside, dtype=np.int64, count=len(inside))
            ok = np.flatnonzero(~np.isin(ps, run) & ~np.isin(qs, run) & (ps != p0))
            if ok.size == 0:
                continue
            ps, qs = ps[ok], qs[ok]
            into = self.s.many(ps, np.full(ps.size, f)) + self.s.many(np.full(ps.size, ll), qs)
            gains = out - (into - self.joint_arr[ps])
            top = int(np.argmax(gains))
            if gains[top] > best[0]:
                best = (int(gains[top]), f, ll, int(ps[top]))
        gain, f, ll, p = best
        if gain <= 0:
            return 0
        p0, q0, q = prv[f], nxt[ll], nxt[p]
        self.snake.link(p0, q0)
        self.snake.link(p, f)
        self.snake.link(ll, q)
        self._relinked((p0, p, ll))
        return gain

    def _run_items(self, f: int, ll: int) -> set[int]:
        out, x = {f}, f
        while x != ll:
            x = self.snake.nxt[x]
            out.add(x)
        return out

    def _places(self, f: int, ll: int) -> set[int]:
        """Items after which the run ``f .. ll`` may go: cheap predecessors of ``f``, the items
        before cheap successors of ``ll``, and the free joints."""
        n, prv, items = self.n, self.snake.prv, self.cand.items
        places = set(self.free)
        first, last = self.words[f], self.words[ll]
        for k in range(1, len(first) + 1):
            for w in self.cand.words_with(first[:k], end=True):
                places.update(items.get(w, ()))
        for k in range(1, len(last) + 1):
            for w in self.cand.words_with(last[-k:], end=False):
                places.update(prv[x] for x in items.get(w, ()))
        places.add(n)
        return places

    # Ejection chains -------------------------------------------------------------------------

    def tight(self, p: int, forward: bool) -> np.ndarray:
        """Items ``y`` with ``s(p, y) <= 0`` (``forward``) or ``s(y, p) <= 0`` at an overlap of
        one letter or more: a word that starts with ``p``'s last ``k`` letters overlaps it by
        ``k`` or more, so its ``v`` at most ``scale * weight(k) - u(p)`` makes the slack at
        most 0 (backwards: words ending with its first ``k`` letters, by ``u``). An array of
        items, each once, by ``k`` and then in the order of the sorted words (forwards) or of
        their reversals (backwards)."""
        if p == self.n:
            return _NONE
        known = self._tight.get((p, forward))
        if known is not None:
            return known
        word, spans = self.words[p], []
        own = self.s.iu[p] if forward else self.s.iv[p]
        for k in range(1, len(word) + 1):
            lo, hi = self.cand.span(word[-k:] if forward else word[:k], not forward)
            if hi > lo:
                spans.append((lo, hi, self.s.scale * self.pair.weight(k) - own))
        found = _NONE
        if spans:
            ids = self.cand.words_within(spans, not forward)
            found = self.cand.items_of(ids if len(spans) == 1 else self.cand.distinct(ids))
        found = found[found != p]
        if self._tight_size + len(found) > CACHED_TIGHT:  # memory stays linear in the list
            self._tight.clear()
            self._tight_size = 0
        self._tight[(p, forward)] = found
        self._tight_size += len(found)
        return found

    def chain(self, a: int, b: int) -> int:
        """An ejection chain that frees ``a -> b``, forwards (``a`` takes a tight successor,
        whose old predecessor takes another, ...) or backwards (``b`` takes a tight
        predecessor, whose old successor takes another, ...); the slack gained (0: nothing
        changed)."""
        return self._chain(a, b, forward=True) or self._chain(a, b, forward=False)

    def _chain(self, a: int, b: int, forward: bool) -> int:
        """One direction of :meth:`chain`: a breadth-first search over the tight joints, a
        level at a time (each item claimed by the first item of the level before that reaches
        it, as one item at a time would)."""
        s = self.s
        old = s(a, b)
        start, goal = (a, b) if forward else (b, a)
        self._stamp += 1
        self._mark[start], self._removed[start] = self._stamp, 0
        frontier, reached, end = [start], 1, -1
        while frontier and end < 0 and reached < CHAIN_VISITS:
            level = _Level(goal, forward)
            for p, gone in zip(frontier, self._removed[frontier].tolist(), strict=True):
                if self.late():  # each item's tight joints may be many: looked at each item
                    return 0
                closing = s(p, goal) if forward else s(goal, p)
                if p != start and closing < old + gone:
                    end = p
                    break
                if reached < CHAIN_VISITS:  # else the last level: only its closings count
                    level.add(p, self.tight(p, forward))
                    if level.pending >= CLAIM_BATCH:
                        reached += self._claim(level)
            if end < 0:
                reached += self._claim(level)
                frontier = level.reached()
        if end < 0:
            return 0
        links = [(end, goal) if forward else (goal, end)]
        x = end
        while x != start:
            p, y = int(self._lost_to[x]), int(self._lost_y[x])
            links.append((p, y) if forward else (y, p))
            x = p
        return self._apply_chain(links)

    def _claim(self, level: _Level) -> int:
        """The items that ``level``'s pending tight joints reach first (forwards the old
        predecessors of the joints' heads, backwards the old successors of their tails),
        marked as reached in this search; how many."""
        if not level.pending:
            return 0
        ys = np.concatenate(level.ys)
        ps = np.repeat(np.asarray(level.ps, dtype=np.int64), [y.size for y in level.ys])
        level.ys, level.ps, level.pending = [], [], 0
        rs = (self.snake.prv_arr if level.forward else self.snake.nxt_arr)[ys]
        mark, stamp = self._mark, self._stamp
        keep = np.flatnonzero((ys != level.goal) & (rs != self.n) & (mark[rs] != stamp))
        _, first = np.unique(rs[keep], return_index=True)  # the first item reaching each
        keep = keep[np.sort(first)]
        ys, ps, rs = ys[keep], ps[keep], rs[keep]
        mark[rs], self._lost_to[rs], self._lost_y[rs] = stamp, ps, ys
        self._removed[rs] = self._removed[ps] + self.joint_arr[rs if level.forward else ys]
        level.grown.append(rs)
        return int(rs.size)

    def _apply_chain(self, links: list[tuple[int, int]]) -> int:
        """Make each ``(x, y)`` of ``links`` a joint, open the cycles this closed; keep the
        change if it gains (the slack gained), else undo it (0)."""
        snake, s = self.snake, self.s
        snake.positions()  # of the path before the change
        saved: dict[int, tuple[int, int]] = {}
        for x, y in links:
            for z in (x, y, snake.nxt[x], snake.prv[y]):
                saved.setdefault(z, (snake.nxt[z], snake.prv[z]))
        before = sum(s(x, snake.nxt[x]) for x in saved)
        for x, y in links:
            snake.link(x, y)
        delta = sum(s(x, snake.nxt[x]) for x in saved) - before
        delta += self._open_cycles([x for x, _ in links], saved)
        if delta < 0:
            self._relinked(list(saved))
            return -delta
        for x, (nx, pv) in saved.items():
            snake.restore(x, nx, pv)
        return 0

    def _open_cycles(self, tails: list[int], saved: dict[int, tuple[int, int]]) -> int:
        """Splice every cycle that new successors of ``tails`` closed apart from the path into
        it; the slack this costs (``saved`` records each changed item's old links).

        The old path, closed at the depot, is cut after each tail into segments of
        consecutive positions; the new successors join segment ends to segment starts, so
        the path and the cycles are found segment by segment, not item by item."""
        snake = self.snake
        pos, at = snake.positions()
        cuts = sorted({pos[x] for x in tails})
        m, size = len(cuts), len(at)
        seg_of_start = {(c + 1) % size: i for i, c in enumerate(cuts)}  # segment i + 1 starts

        def following(i: int) -> int:  # the segment after segment i (which ends at cuts[i])
            return (seg_of_start[pos[snake.nxt[at[cuts[i]]]]] + 1) % m

        component = [-1] * m
        i = 0
        while component[i] < 0:  # segment 0 holds the depot
            component[i] = 0
            i = following(i)
        cost = 0
        for first in range(m):
            if component[first] >= 0:
                continue
            members, i = [], first
            while component[i] < 0:
                component[i] = 1
                members.append(i)
                i = following(i)
            cycle = [at[q % size] for j in members for q in _span(cuts, j, size)]

            def on_path(x: int) -> bool:
                return component[bisect.bisect_left(cuts, pos[x]) % m] == 0

            cost += self._splice(cycle, on_path, saved)
            for j in members:
                component[j] = 0
        return cost

    def _splice(self, cycle: list[int], on_path: Any, saved: dict[int, Any]) -> int:
        """Open ``cycle`` at its cheapest exchange with a joint of the path; its slack. The
        exchanges of :data:`SPLICE_BATCH` items of the cycle are priced in one array pass;
        the items are then taken in turn as a loop over them would (the first of the
        cheapest; done at the first that costs nothing, or when late)."""
        snake, s = self.snake, self.s
        best = None
        for at in range(0, len(cycle), SPLICE_BATCH):
            c1s = cycle[at : at + SPLICE_BATCH]
            places = [[q for q in self._successor_places(c1) if on_path(q)] for c1 in c1s]
            owner = np.repeat(np.arange(len(c1s)), [len(q) for q in places])
            qs = np.fromiter((q for got in places for q in got), np.int64, owner.size)
            c1a = np.asarray(c1s, dtype=np.int64)
            c2a = snake.nxt_arr[c1a]
            ps = snake.prv_arr[qs]  # (p, q) is a joint of the path: its slack as it is now
            c1q, c2q = c1a[owner], c2a[owner]
            cost = s.many(ps, c2q) + s.many(c1q, qs) - s.many(c1q, c2q) - s.many(ps, qs)
            starts = np.searchsorted(owner, np.arange(len(c1s)))
            for i, got in enumerate(places):
                if got:
                    j = int(starts[i] + np.argmin(cost[starts[i] : starts[i] + len(got)]))
                    if best is None or cost[j] < best[0]:
                        best = (int(cost[j]), c1s[i], int(c2a[i]), int(ps[j]), int(qs[j]))
                if best is not None and (best[0] <= 0 or self.late()):
                    break  # late: the cheapest so far (the change is kept only if it gains)
            else:
                continue
            break
        assert best is not None  # the depot is on the path
        cost, c1, c2, p, q = best
        for x in (c1, c2, p, q):
            saved.setdefault(x, (snake.nxt[x], snake.prv[x]))
        snake.link(p, c2)
        snake.link(c1, q)
        return int(cost)

    def _successor_places(self, c1: int) -> list[int]:
        """Items that may follow ``c1`` cheaply: cheap successors and the free joints' heads."""
        out = [self.snake.nxt[x] for x in self.free[:SPLICE_FREE]]
        if c1 != self.n:
            word = self.words[c1]
            for k in range(1, len(word) + 1):
                for w in self.cand.words_with(word[-k:], end=False):
                    out.extend(self.cand.items.get(w, ()))
        out.append(self.n)
        return out
