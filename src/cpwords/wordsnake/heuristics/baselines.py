"""Wordsnake heuristics: the seed's randomised layered greedy, nearest neighbour, local search.

All three return a :class:`~cpwords.core.result.SolveResult` with status FEASIBLE (a heuristic
proves
nothing) and ``bound=None``. They work on item indices and the positive-overlap arcs of
:func:`~cpwords.wordsnake.rules.overlap_graph`.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Mapping, Sequence

import numpy as np

from cpwords.core.result import SolveResult, Status, TracePoint
from cpwords.wordsnake.rules import OverlapGraph, WordsnakeInstance, overlap_graph


class _Weights:
    """Pair weights of an instance without materialising the ~n^2/20 overlap-1 arcs.

    Overlaps >= 2 come from the overlap graph; an overlap of exactly 1 holds whenever the last
    letter of a is the first letter of b (and, for proper overlaps, both words are longer than
    one letter), so those pairs are served from per-letter buckets.
    """

    def __init__(self, instance: WordsnakeInstance, graph: OverlapGraph | None = None) -> None:
        g = graph or overlap_graph(instance.words, proper=instance.proper, min_overlap=2)
        self.n = instance.n
        self.cyclic = instance.cyclic
        self.words = instance.words
        sel = g.overlap >= 2
        self.heavy_levels: list[tuple[int, np.ndarray, np.ndarray]] = []
        for k in sorted(set(g.overlap[sel].tolist()), reverse=True):
            on = g.overlap == k
            self.heavy_levels.append((k, g.tail[on], g.head[on]))
        self.heavy: dict[tuple[int, int], int] = {
            (t, h): k * k
            for t, h, k in zip(
                g.tail[sel].tolist(), g.head[sel].tolist(), g.overlap[sel].tolist(), strict=True
            )
        }
        shortest = 2 if instance.proper else 1
        self.eligible = [len(w) >= shortest for w in instance.words]
        self.by_first: dict[str, list[int]] = {}
        self.by_last: dict[str, list[int]] = {}
        for i, w in enumerate(instance.words):
            if self.eligible[i] and self.n > 1:
                self.by_first.setdefault(w[0], []).append(i)
                self.by_last.setdefault(w[-1], []).append(i)
        order = sorted(self.heavy, key=lambda p: -self.heavy[p])
        self.heavy_out: list[list[int]] = [[] for _ in range(self.n)]
        self.heavy_in: list[list[int]] = [[] for _ in range(self.n)]
        for t, h in order:
            self.heavy_out[t].append(h)
            self.heavy_in[h].append(t)

    def weight(self, a: int, b: int) -> int:
        """Squared maximal overlap of item a followed by item b."""
        if a == b:
            return 0
        w = self.heavy.get((a, b))
        if w is not None:
            return w
        if self.eligible[a] and self.eligible[b] and self.words[a][-1] == self.words[b][0]:
            return 1
        return 0

    def out(self, a: int) -> list[int]:
        """Items b with weight(a, b) > 0, largest overlaps first (may repeat, may contain a)."""
        if not self.eligible[a]:
            return self.heavy_out[a]
        return self.heavy_out[a] + self.by_first.get(self.words[a][-1], [])

    def inn(self, b: int) -> list[int]:
        """Items a with weight(a, b) > 0, largest overlaps first (may repeat, may contain b)."""
        if not self.eligible[b]:
            return self.heavy_in[b]
        return self.heavy_in[b] + self.by_last.get(self.words[b][0], [])

    def score(self, seq: Sequence[int]) -> int:
        s = sum(self.weight(a, b) for a, b in itertools.pairwise(seq))
        if self.cyclic and len(seq) > 1:
            s += self.weight(seq[-1], seq[0])
        return s


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
        Status.FEASIBLE, float(value), None, time.perf_counter() - start,
        [instance.words[i] for i in seq], method, solver_info=info, trace=tuple(trace),
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# The seed's randomised layered greedy (A. Tsirigos).
# ---------------------------------------------------------------------------------------------


def _layered_once(wt: _Weights, rng: random.Random) -> list[int]:
    n = wt.n
    succ = [-1] * n
    pred = [-1] * n
    parent = list(range(n))  # union-find over chains, to refuse merges that close a cycle

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def link(a: int, b: int) -> bool:
        if succ[a] != -1 or pred[b] != -1:
            return False
        ra, rb = find(a), find(b)
        if ra == rb:
            return False
        parent[ra] = rb
        succ[a], pred[b] = b, a
        return True

    def take(pairs: list[tuple[int, int]]) -> None:
        tail_count: dict[int, int] = {}
        head_count: dict[int, int] = {}
        for a, b in pairs:
            tail_count[a] = tail_count.get(a, 0) + 1
            head_count[b] = head_count.get(b, 0) + 1
        rest = []
        for a, b in pairs:  # conflict-free pairs first: no other pair shares their tail or head
            if tail_count[a] == 1 and head_count[b] == 1:
                link(a, b)
            else:
                rest.append((a, b))
        rng.shuffle(rest)
        for a, b in rest:
            link(a, b)

    for _, level_tails, level_heads in wt.heavy_levels:
        take(
            [
                (a, b)
                for a, b in zip(level_tails.tolist(), level_heads.tolist(), strict=True)
                if succ[a] == -1 and pred[b] == -1
            ]
        )
    # Level 1: every free tail ending in c may take every free head starting with c. A random
    # pairing per letter is the same random choice among the conflicting pairs, done in
    # O(bucket) instead of O(bucket^2).
    for c, enders in wt.by_last.items():
        tails = [a for a in enders if succ[a] == -1]
        heads = [b for b in wt.by_first.get(c, []) if pred[b] == -1]
        rng.shuffle(tails)
        rng.shuffle(heads)
        for a in tails:
            for k, b in enumerate(heads):
                if link(a, b):
                    heads[k] = heads[-1]
                    heads.pop()
                    break
    starts = [i for i in range(n) if pred[i] == -1]
    rng.shuffle(starts)
    seq: list[int] = []
    for s in starts:
        while s != -1:
            seq.append(s)
            s = succ[s]
    return seq


def layered_greedy(
    instance: WordsnakeInstance,
    *,
    iterations: int = 100,
    seed: int = 0,
    time_limit: float | None = None,
    graph: OverlapGraph | None = None,
) -> SolveResult:
    """The seed's randomised layered greedy, best of many randomised iterations.

    Overlap levels are processed from the largest down to 1. At each level every conflict-free
    pair (no other candidate pair at that level shares its tail or its head) is merged, then the
    remaining pairs are taken in random order, each refused if its tail already has a successor,
    its head a predecessor, or the merge would close a cycle. The resulting chains
    ("super-words") are concatenated in random order.

    Parameters
    ----------
    instance : WordsnakeInstance
    iterations : int
        Number of randomised iterations; the best snake is kept.
    seed : int
        Seed of the random number generator.
    time_limit : float, optional
        Stop early after this many seconds.
    graph : OverlapGraph, optional
        Reuse a precomputed overlap graph.

    Returns
    -------
    SolveResult
        FEASIBLE, ``bound=None``.

    References
    ----------
    A. Tsirigos (NYU), randomised layered greedy for Wordsnakes, in D. Shasha, "Wordsnakes",
    Dr Dobb's Journal, July 2000.
    """
    start = time.perf_counter()
    wt = _Weights(instance, graph)
    rng = random.Random(seed)
    best_seq: list[int] = list(range(instance.n))
    best = wt.score(best_seq)
    trace = [TracePoint(time.perf_counter() - start, float(best), None)]
    done = 0
    for _ in range(max(1, iterations)):
        seq = _layered_once(wt, rng)
        done += 1
        value = wt.score(seq)
        if value > best:
            best, best_seq = value, seq
            trace.append(TracePoint(time.perf_counter() - start, float(best), None))
        if time_limit is not None and time.perf_counter() - start > time_limit:
            break
    info = {"seed": seed, "iterations": done}
    return _result(instance, best_seq, best, start, "layered", info, trace)


# ---------------------------------------------------------------------------------------------
# Nearest neighbour and Burkardt-style local search.
# ---------------------------------------------------------------------------------------------


def _nearest_neighbour_seq(wt: _Weights, rng: random.Random) -> list[int]:
    n = wt.n
    visited = [False] * n
    unvisited = set(range(n))
    free_by_first = {c: set(items) for c, items in wt.by_first.items()}
    cur = rng.randrange(n)
    seq = []
    while True:
        seq.append(cur)
        visited[cur] = True
        unvisited.discard(cur)
        free_by_first.get(wt.words[cur][0], set()).discard(cur)
        if not unvisited:
            return seq
        nxt = next((h for h in wt.heavy_out[cur] if not visited[h]), -1)
        if nxt == -1 and wt.eligible[cur]:
            bucket = free_by_first.get(wt.words[cur][-1])
            if bucket:
                nxt = min(bucket)
        if nxt == -1:
            nxt = min(unvisited)
        cur = nxt


def nearest_neighbour(
    instance: WordsnakeInstance, *, seed: int = 0, graph: OverlapGraph | None = None
) -> SolveResult:
    """Nearest-neighbour greedy: from a random first word, always append the unused word of
    largest overlap (an arbitrary unused word when none overlaps).

    Parameters
    ----------
    instance : WordsnakeInstance
    seed : int
        Chooses the first word.
    graph : OverlapGraph, optional
        Reuse a precomputed overlap graph.

    Returns
    -------
    SolveResult
        FEASIBLE, ``bound=None``.
    """
    start = time.perf_counter()
    wt = _Weights(instance, graph)
    seq = _nearest_neighbour_seq(wt, random.Random(seed))
    return _result(instance, seq, wt.score(seq), start, "greedy", {"seed": seed}, [])


class _Stopped(Exception):
    """The deadline passed inside a neighbourhood scan (the sequence is consistent)."""


class _LocalSearch:
    """First-improvement local search over four neighbourhoods on a sequence of items."""

    def __init__(self, wt: _Weights, seq: list[int]) -> None:
        self.wt = wt
        self.deadline: float | None = None
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

    def _tick(self, k: int) -> None:
        """Every 256 steps of a scan, stop if the deadline passed (at a step's start, where
        every move before it is complete or undone)."""
        if not k & 0xFF and self.deadline is not None and time.perf_counter() > self.deadline:
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
            self._tick(p)
            first, last = seq[p], seq[p + length - 1]
            prev, nxt = self._neighbour(p - 1), self._neighbour(p + length)
            removal = self._w(prev, nxt) - self._w(prev, first) - self._w(last, nxt)
            gaps = {self.pos[u] for u in self.wt.inn(first)}
            gaps |= {self.pos[v] - 1 for v in self.wt.out(last)}
            if not self.wt.cyclic:
                gaps |= {-1, n - 1}
            best_gain, best_q = 0, None
            for q in gaps:
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
            self._tick(i)
            cands = set()
            left, right = self._neighbour(i - 1), self._neighbour(i + 1)
            if left is not None:
                cands.update(self.wt.out(left))
            if right is not None:
                cands.update(self.wt.inn(right))
            for y in cands:
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
            self._tick(i)
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
                improved |= step()
            if not improved:
                return self.seq


def local_search(
    instance: WordsnakeInstance,
    *,
    seed: int = 0,
    start_order: Sequence[str] | None = None,
    time_limit: float | None = None,
    graph: OverlapGraph | None = None,
) -> SolveResult:
    """Nearest neighbour followed by Burkardt-style local search until no move improves.

    Neighbourhoods (first improvement, repeated until a whole pass improves nothing): move one
    word elsewhere, swap two words, rotate three consecutive words, and move a block of two or
    three words (an exchange of two adjacent blocks). Candidate positions are restricted to
    those that create a positive-overlap link, so a pass costs O(number of positive arcs).

    Parameters
    ----------
    instance : WordsnakeInstance
    seed : int
        Seed of the nearest-neighbour start.
    start_order : sequence of str, optional
        Start from this ordering instead of nearest neighbour.
    time_limit : float, optional
        Seconds; the search stops at the end of the current move when it is reached.
    graph : OverlapGraph, optional
        Reuse a precomputed overlap graph.

    Returns
    -------
    SolveResult
        FEASIBLE, ``bound=None``.

    References
    ----------
    J. Burkardt, ``wordsnake`` (Florida State University software collection): greedy start and
    improvement by moving, swapping and rotating words.
    """
    start = time.perf_counter()
    wt = _Weights(instance, graph)
    if start_order is not None:
        pools: dict[str, list[int]] = {}
        for i, w in enumerate(instance.words):
            pools.setdefault(w, []).append(i)
        seq = [pools[w].pop() for w in start_order]
    else:
        seq = _nearest_neighbour_seq(wt, random.Random(seed))
    first = wt.score(seq)
    deadline = None if time_limit is None else start + time_limit
    seq = _LocalSearch(wt, list(seq)).run(deadline)
    value = wt.score(seq)
    trace = [
        TracePoint(0.0, float(first), None),
        TracePoint(time.perf_counter() - start, float(value), None),
    ]
    return _result(instance, seq, value, start, "local", {"seed": seed}, trace)
