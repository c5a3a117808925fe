"""Wordsnake heuristics: the seed's randomised layered greedy, nearest neighbour, local search.

All three return a :class:`~cpwords.core.result.SolveResult` with status FEASIBLE (a heuristic
proves nothing) and ``bound=None``. They work on item indices and an
:class:`~cpwords.wordsnake.heuristics.overlaps.OverlapIndex`, whose memory is linear in the
letters (the explicit overlap graph of ENABLE did not fit in 7 GB). Between words of equal
overlap they prefer the word first in sorted order (then the first listed).
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Mapping, Sequence
from types import FrameType, TracebackType

from cpwords.core.result import SolveResult, Status, TracePoint
from cpwords.wordsnake.heuristics.overlaps import OverlapIndex
from cpwords.wordsnake.rules import WordsnakeInstance


def _result(
    instance: WordsnakeInstance,
    seq: list[int],
    value: int,
    start: float,
    method: str,
    info: Mapping[str, object],
    trace: list[TracePoint],
) -> SolveResult:
    return SolveResult(
        Status.FEASIBLE,
        float(value),
        None,
        time.perf_counter() - start,
        [instance.words[i] for i in seq],
        method,
        solver_info=info,
        trace=tuple(trace),
    )


# ---------------------------------------------------------------------------------------------
# The seed's randomised layered greedy (A. Tsirigos).
# ---------------------------------------------------------------------------------------------


class _CtrlC:
    """Ctrl-C read as a flag at safe points (a scan step, an overlap string, an iteration)
    instead of a KeyboardInterrupt in the middle of a move, so that the best ordering so far
    is returned, marked interrupted. Only in the main thread, over Python's default handler."""

    def __init__(self) -> None:
        self.hit = False
        self._old: object = None

    def _flag(self, signum: int, frame: FrameType | None) -> None:
        self.hit = True

    def __enter__(self) -> _CtrlC:
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            self._old = signal.signal(signal.SIGINT, self._flag)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)  # type: ignore[arg-type]


def _index(instance: WordsnakeInstance, deadline: float | None) -> OverlapIndex:
    return OverlapIndex(
        instance.words,
        proper=instance.proper,
        cyclic=instance.cyclic,
        deadline=deadline,
        score=instance.score,
    )


class _Levels:
    """The overlap strings of an instance, longest first, with the items that end with each.

    An item ``a`` ends with the overlap strings on its failure chain in the trie of the words,
    so the lists hold O(total letters) entries in all. Once ``deadline`` passes the items left
    are not listed (a pass then links fewer pairs).
    """

    def __init__(self, ix: OverlapIndex, deadline: float | None = None) -> None:
        self.ix = ix
        t = ix.heads
        self.enders: dict[int, list[int]] = {}
        for a in range(ix.n):
            if deadline is not None and not a & 0x3FF and time.perf_counter() > deadline:
                break
            for v in ix.chain(t, a):
                self.enders.setdefault(v, []).append(a)
        # longest strings first; among equal lengths, preorder is sorted order of the strings
        self.nodes = sorted(self.enders, key=lambda v: (-t.depth[v], v))


def _layered_once(
    lv: _Levels, rng: random.Random, deadline: float | None = None, ctrl_c: _CtrlC | None = None
) -> tuple[list[int], bool]:
    """One randomised pass; returns the ordering and whether every level was processed."""
    ix = lv.ix
    n = ix.n
    succ = [-1] * n
    pred = [-1] * n
    parent = list(range(n))  # union-find over chains, to refuse merges that close a cycle

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def link(a: int, b: int) -> bool:
        ra, rb = find(a), find(b)
        if ra == rb:
            return False
        parent[ra] = rb
        succ[a], pred[b] = b, a
        return True

    complete = True
    # Level by level, longest overlap first: for each overlap string s, every free tail ending
    # with s may take every free head beginning with s (a pair whose overlap is longer than s
    # was met at its own level, and is refused here too: its tail or head is taken, or both are
    # in one chain). A random pairing per string is the random choice among the conflicting
    # pairs, in O(tails + heads) instead of O(tails x heads).
    for count, v in enumerate(lv.nodes):
        if not count & 0x3F and (
            (deadline is not None and time.perf_counter() > deadline)
            or (ctrl_c is not None and ctrl_c.hit)
        ):
            complete = False
            break
        tails = [a for a in lv.enders[v] if succ[a] == -1]
        if not tails:
            continue
        heads = [b for b in ix.beginning(v) if pred[b] == -1]
        if not heads:
            continue
        rng.shuffle(tails)
        rng.shuffle(heads)
        for a in tails:
            for k, b in enumerate(heads):  # at most one refusal: the head of a's own chain
                if link(a, b):
                    heads[k] = heads[-1]
                    heads.pop()
                    break
            if not heads:
                break
    starts = [i for i in range(n) if pred[i] == -1]
    rng.shuffle(starts)
    seq: list[int] = []
    for s in starts:
        while s != -1:
            seq.append(s)
            s = succ[s]
    return seq, complete


def layered_greedy(
    instance: WordsnakeInstance,
    *,
    iterations: int = 100,
    seed: int = 0,
    time_limit: float | None = None,
) -> SolveResult:
    """The seed's randomised layered greedy, best of many randomised iterations.

    Overlap levels are processed from the largest down to 1. At each level, for each overlap
    string, the words that end with it and have no successor yet and the words that begin with
    it and have no predecessor yet are paired at random, a pair refused when the merge would
    close a cycle. The resulting chains ("super-words") are concatenated in random order.

    Parameters
    ----------
    instance : WordsnakeInstance
    iterations : int
        Number of randomised iterations; the best snake is kept.
    seed : int
        Seed of the random number generator.
    time_limit : float, optional
        Seconds. The limit is read inside an iteration too: an iteration it stops keeps the
        chains merged so far (a valid snake), and counts when it is better.

    Returns
    -------
    SolveResult
        FEASIBLE, ``bound=None``.

    Raises
    ------
    IndexStopped
        The limit passed before the words were indexed (no snake is known).

    Notes
    -----
    Time and memory O(total letters) per iteration (:class:`OverlapIndex`): the pairs of a level
    are never listed. The seed paired every conflicting pair of a level in random order; pairing
    per overlap string is the same rule where the tails and heads of a string all conflict.

    References
    ----------
    A. Tsirigos (NYU), randomised layered greedy for Wordsnakes, in D. Shasha, "Wordsnakes",
    Dr Dobb's Journal, July 2000.
    """
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    ix = _index(instance, deadline)
    lv = _Levels(ix, deadline)
    rng = random.Random(seed)
    best_seq: list[int] = list(range(instance.n))
    best = ix.score(best_seq)
    trace = [TracePoint(time.perf_counter() - start, float(best), None)]
    done = 0
    with _CtrlC() as ctrl_c:
        for _ in range(max(1, iterations)):
            seq, complete = _layered_once(lv, rng, deadline, ctrl_c)
            done += 1
            value = ix.score(seq)
            if value > best:
                best, best_seq = value, seq
                trace.append(TracePoint(time.perf_counter() - start, float(best), None))
            if not complete or (deadline is not None and time.perf_counter() > deadline):
                break
    info: dict[str, object] = {"seed": seed, "iterations": done}
    if ctrl_c.hit:
        info["interrupted"] = True
    return _result(instance, best_seq, best, start, "layered", info, trace)


# ---------------------------------------------------------------------------------------------
# Nearest neighbour and Burkardt-style local search.
# ---------------------------------------------------------------------------------------------


def _nearest_neighbour_seq(
    ix: OverlapIndex, rng: random.Random, deadline: float | None = None
) -> list[int]:
    """The nearest-neighbour walk; once ``deadline`` passes, the unvisited items follow in
    sorted order (an ordering of every item all the same)."""
    n = ix.n
    t = ix.heads
    # nxt[r]: the first rank >= r whose item is unvisited (path-compressed), n when none
    nxt = list(range(n + 1))

    def free(r: int) -> int:
        root = r
        while nxt[root] != root:
            root = nxt[root]
        while nxt[r] != root:
            nxt[r], r = root, nxt[r]
        return root

    cur = rng.randrange(n)
    seq = []
    while True:
        seq.append(cur)
        r = t.rank[cur]
        nxt[r] = r + 1
        if len(seq) == n:
            return seq
        if deadline is not None and not len(seq) & 0x3FF and time.perf_counter() > deadline:
            seq.extend(t.order[k] for k in range(n) if free(k) == k)
            return seq
        # the deepest overlap string of cur that begins an unvisited word: its first such word
        nxt_item = -1
        for v in ix.chain(t, cur):
            r = free(ix.first(t, v))
            if r < t.hi[v]:
                nxt_item = t.order[r]
                break
        cur = nxt_item if nxt_item != -1 else t.order[free(0)]


def nearest_neighbour(
    instance: WordsnakeInstance, *, seed: int = 0, time_limit: float | None = None
) -> SolveResult:
    """Nearest-neighbour greedy: from a random first word, always append the unused word of
    largest overlap (an arbitrary unused word when none overlaps).

    Parameters
    ----------
    instance : WordsnakeInstance
    seed : int
        Chooses the first word.
    time_limit : float, optional
        Seconds for indexing the words and the walk (O(total letters)); a walk the limit stops
        ends with the unused words in sorted order.

    Returns
    -------
    SolveResult
        FEASIBLE, ``bound=None``.

    Raises
    ------
    IndexStopped
        The limit passed before the words were indexed.

    Notes
    -----
    Among unused words of equal overlap the first in sorted order is taken. Each step walks the
    failure chain of the current word and finds the first unused word of a rank range in
    amortised constant time, so the whole walk is O(total letters).
    """
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    ix = _index(instance, deadline)
    seq = _nearest_neighbour_seq(ix, random.Random(seed), deadline)
    return _result(instance, seq, ix.score(seq), start, "greedy", {"seed": seed}, [])


class _Stopped(Exception):
    """The deadline passed inside a neighbourhood scan (the sequence is consistent)."""


class _LocalSearch:
    """First-improvement local search over four neighbourhoods on a sequence of items."""

    def __init__(self, wt: OverlapIndex, seq: list[int]) -> None:
        self.wt = wt
        self.deadline: float | None = None
        self.ctrl_c: _CtrlC | None = None
        self.seq = seq
        self.n = len(seq)
        self.pos = [0] * self.n
        for i, v in enumerate(seq):
            self.pos[v] = i

    # link k joins seq[k] and seq[k + 1] (k = n - 1 is the closing link of a cyclic snake)
    def _link(self, k: int) -> int:
        n = self.n
        if k < 0 or k >= n or (k == n - 1 and not self.wt.cyclic) or n < 2:
            return 0
        return self.wt.weight(self.seq[k], self.seq[(k + 1) % n])

    def _links(self, ks: set[int]) -> int:
        return sum(self._link(k % self.n if self.wt.cyclic else k) for k in ks)

    def _neighbour(self, i: int) -> int | None:
        if 0 <= i < self.n:
            return self.seq[i]
        if self.wt.cyclic and self.n > 1:
            return self.seq[i % self.n]
        return None

    def _tick(self) -> None:
        """At each step of a scan, stop if the deadline passed (at a step's start, where every
        move before it is complete or undone). On ENABLE one step may list 40,000 candidates:
        read every 16 steps, the clock let a 5 s search run 2.5 s past its limit."""
        if self.ctrl_c is not None and self.ctrl_c.hit:
            raise _Stopped
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Stopped

    def _w(self, a: int | None, b: int | None) -> int:
        return 0 if a is None or b is None else self.wt.weight(a, b)

    def _reindex(self) -> None:
        for i, v in enumerate(self.seq):
            self.pos[v] = i

    def try_block_moves(self, length: int) -> bool:
        """Move a block of ``length`` consecutive words elsewhere (also: exchange two blocks)."""
        n, seq = self.n, self.seq
        if n < length + 2:
            return False
        improved = False
        for p in range(n - length + 1):
            self._tick()
            first, last = seq[p], seq[p + length - 1]
            prev, nxt = self._neighbour(p - 1), self._neighbour(p + length)
            removal = self._w(prev, nxt) - self._w(prev, first) - self._w(last, nxt)
            gaps = {self.pos[u] for u in self.wt.inn(first)}
            gaps |= {self.pos[v] - 1 for v in self.wt.out(last)}
            if not self.wt.cyclic:
                gaps |= {-1, n - 1}
            best_gain, best_q = 0, None
            for q in sorted(gaps):
                q = q % n if self.wt.cyclic else q
                if p - 1 <= q <= p + length - 1 or (self.wt.cyclic and q == (p - 1) % n):
                    continue
                left, right = self._neighbour(q), self._neighbour(q + 1)
                if not self.wt.cyclic and q == n - 1:
                    right = None
                if not self.wt.cyclic and q == -1:
                    left = None
                gain = removal - self._w(left, right) + self._w(left, first) + self._w(last, right)
                if gain > best_gain:
                    best_gain, best_q = gain, q
            if best_q is not None:
                block = seq[p : p + length]
                rest = seq[:p] + seq[p + length :]
                # gap q in the old sequence sits after old index q; shift it past the removed block
                cut = best_q + 1 if best_q < p else best_q + 1 - length
                self.seq = seq = rest[:cut] + block + rest[cut:]
                self._reindex()
                improved = True
        return improved

    def try_swaps(self) -> bool:
        """Swap two words, trying partners that would gain a positive link."""
        n, seq = self.n, self.seq
        improved = False
        for i in range(n):
            self._tick()
            cands = set()
            left, right = self._neighbour(i - 1), self._neighbour(i + 1)
            if left is not None:
                cands.update(self.wt.out(left))
            if right is not None:
                cands.update(self.wt.inn(right))
            for y in sorted(cands):
                j = self.pos[y]
                if j == i:
                    continue
                touched = {i - 1, i, j - 1, j}
                before = self._links(touched)
                seq[i], seq[j] = seq[j], seq[i]
                after = self._links(touched)
                if after > before:
                    self.pos[seq[i]], self.pos[seq[j]] = i, j
                    improved = True
                    break
                seq[i], seq[j] = seq[j], seq[i]
        return improved

    def try_rotations(self) -> bool:
        """Rotate three consecutive words (both directions)."""
        n, seq = self.n, self.seq
        improved = False
        if n < 3:
            return False
        for i in range(n - 2):
            self._tick()
            touched = {i - 1, i, i + 1, i + 2}
            before = self._links(touched)
            a, b, c = seq[i : i + 3]
            for new in ((b, c, a), (c, a, b)):
                seq[i : i + 3] = new
                if self._links(touched) > before:
                    for k in range(i, i + 3):
                        self.pos[seq[k]] = k
                    improved = True
                    break
                seq[i : i + 3] = [a, b, c]
        return improved

    def run(self, deadline: float | None) -> list[int]:
        self.deadline = deadline
        try:
            return self._passes(deadline)
        except _Stopped:  # the deadline passed within a scan: the sequence so far
            return self.seq

    def _passes(self, deadline: float | None) -> list[int]:
        while True:
            improved = False
            for step in (
                lambda: self.try_block_moves(1),
                self.try_swaps,
                self.try_rotations,
                lambda: self.try_block_moves(2),
                lambda: self.try_block_moves(3),
            ):
                if deadline is not None and time.perf_counter() > deadline:
                    return self.seq
                if self.ctrl_c is not None and self.ctrl_c.hit:
                    return self.seq
                improved |= step()
            if not improved:
                return self.seq


def local_search(
    instance: WordsnakeInstance,
    *,
    seed: int = 0,
    start_order: Sequence[str] | None = None,
    time_limit: float | None = None,
) -> SolveResult:
    """Nearest neighbour followed by Burkardt-style local search until no move improves.

    Neighbourhoods (first improvement, repeated until a whole pass improves nothing): move one
    word elsewhere, swap two words, rotate three consecutive words, and move a block of two or
    three words (an exchange of two adjacent blocks). Candidate positions are restricted to
    those that create a positive-overlap link, so a pass costs O(number of positive arcs); the
    arcs are listed from the :class:`OverlapIndex` when needed, never stored.

    Parameters
    ----------
    instance : WordsnakeInstance
    seed : int
        Seed of the nearest-neighbour start.
    start_order : sequence of str, optional
        Start from this ordering instead of nearest neighbour.
    time_limit : float, optional
        Seconds; the search stops at the start of the next move when it is reached.

    Returns
    -------
    SolveResult
        FEASIBLE, ``bound=None``.

    Raises
    ------
    IndexStopped
        The limit passed before the words were indexed.

    References
    ----------
    J. Burkardt, ``wordsnake`` (Florida State University software collection): greedy start and
    improvement by moving, swapping and rotating words.
    """
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    wt = _index(instance, deadline)
    if start_order is not None:
        pools: dict[str, list[int]] = {}
        for i, w in enumerate(instance.words):
            pools.setdefault(w, []).append(i)
        seq = [pools[w].pop() for w in start_order]
    else:
        seq = _nearest_neighbour_seq(wt, random.Random(seed), deadline)
    first = wt.score(seq)
    search = _LocalSearch(wt, list(seq))
    with _CtrlC() as ctrl_c:
        search.ctrl_c = ctrl_c
        seq = search.run(deadline)
    value = wt.score(seq)
    trace = [
        TracePoint(0.0, float(first), None),
        TracePoint(time.perf_counter() - start, float(value), None),
    ]
    info: dict[str, object] = {"seed": seed}
    if ctrl_c.hit:
        info["interrupted"] = True
    return _result(instance, seq, value, start, "local", info, trace)
