"""Patching among the cycles: every cycle may be joined to any other, the best join first.

:func:`~cpwords.wordsnake.primal.repair.patch_cycles` joins each cycle to the main one (the
depot's), smallest first. Where the cycles lie side by side, as the k-mers of a telomere's tandem
repeats do (C. elegans' ``gcctaa``, ``gcctaagactaa``, ... : one cycle for each period), a cycle
has its free join only with a neighbouring cycle, not with the main one: joined to the main one
first it loses points the neighbours' join would not. :func:`patch_pairwise` is Karp's patching
(Karp 1979, "A patching algorithm for the nonsymmetric traveling-salesman problem"): the
2-exchange of best gain between any two cycles is made first, until one cycle is left.

Formulation card: ``models/wordsnake.md``.
"""

from __future__ import annotations

import heapq
import time
from array import array
from collections.abc import Callable

import numpy as np

from cpwords.wordsnake.primal.repair import (
    CandidateIndex,
    PairScore,
    _add_candidates,
    _index_of,
    _int_array,
    _outside_main,
    order_from_succ,
)
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork

#: Items outside the main cycle up to which every item of another cycle is a candidate too
#: (besides the index's): the index proposes at most ``limit`` words an overlap string, and
#: in a tandem repeat's cycles many words share their overlap strings.
SMALL_OUTSIDE = 600

#: Cycles outside the main one from which the pairwise patching is tried (one is the
#: plain patching's case).
MIN_CYCLES = 2


def patch_pairwise(
    net: StringHubNetwork,
    succ_in: np.ndarray,
    comp: np.ndarray,
    pair: PairScore,
    index: CandidateIndex | Callable[[], CandidateIndex] | None = None,
    limit: int = 24,
    deadline: float | None = None,
) -> list[int] | None:
    """Join the cycles of a successor map into one by the best 2-exchanges between any two.

    Parameters
    ----------
    net : StringHubNetwork
    succ_in : numpy.ndarray of int64, shape (N + 1,)
        The successors (a permutation; index ``N`` is the depot of a linear snake). Not
        modified.
    comp : numpy.ndarray of int64, shape (N + 1,)
        Each item's cycle label (:attr:`~cpwords.wordsnake.relaxation.decode.Decoded.comp`).
    pair : PairScore
    index : CandidateIndex or callable, optional
        The candidate index, or a function returning it; built when omitted.
    limit : int
        Candidate words examined per overlap string.
    deadline : float, optional
        After it, a cycle is joined only at the depot's joints (or, cyclic, anywhere).

    Returns
    -------
    list of int or None
        The item sequence; None when fewer than :data:`MIN_CYCLES` cycles lie outside the main
        one (:func:`~cpwords.wordsnake.primal.repair.patch_cycles` does the same there).

    Notes
    -----
    For joints ``u -> v`` and ``x -> y`` of two cycles, the exchange gives ``x -> v`` and
    ``u -> y``, one cycle, at a gain of ``pair(x, v) + pair(u, y) - pair(x, y) - pair(u, v)``.
    Each cycle outside the main one keeps its best exchange with another in a heap (candidates
    ``x``: the depot's joints, those of ``patch_cycles``' index, and every item outside the main
    cycle when at most :data:`SMALL_OUTSIDE`); the best is made, and an entry found stale when
    popped (a joint or a cycle it named has changed) is computed again.

    Examples
    --------
    >>> from cpwords.wordsnake.relaxation.string_hub import build_string_network
    >>> from cpwords.wordsnake.rules import WordsnakeInstance
    >>> words = ["abcab", "bcabc", "cabca", "cabxa", "xabxa", "abxab", "bxabx"]
    >>> net = build_string_network(WordsnakeInstance(words, score="linear"))
    >>> succ, comp = np.array([1, 2, 0, 7, 5, 6, 4, 3]), np.array([1, 1, 1, 0, 2, 2, 2, 0])
    >>> [words[i] for i in patch_pairwise(net, succ, comp, PairScore(net)) or []]
    ['bcabc', 'cabca', 'abcab', 'cabxa', 'abxab', 'bxabx', 'xabxa']
    """
    N = net.instance.n
    comp_a = np.asarray(comp)
    main, groups = _outside_main(comp_a, N, net.instance.cyclic)
    if len(groups) < MIN_CYCLES:
        return None
    succ_a = np.array(succ_in, dtype=np.int64)
    late = deadline is not None and time.perf_counter() >= deadline
    built = None if late else _index_of(net, index, succ_a[:N][comp_a[:N] != main])
    cycles = _Cycles(net, succ_a, comp_a, main, groups, pair, built, limit, deadline)
    heap: list[tuple[int, int, int, int, int, int, int]] = []

    def push(c: int) -> None:
        gain, u, x = cycles.best_join(c)
        heapq.heappush(heap, (-gain, c, u, cycles.succ[u], x, cycles.succ[x], len(heap)))

    for c in sorted(groups, key=lambda c: len(groups[c])):
        push(c)
    while heap:
        _, c, u, v, x, y, _ = heapq.heappop(heap)
        if cycles.find(c) != c:
            continue  # joined to another cycle: that one has its own entry
        if cycles.succ[u] != v or cycles.succ[x] != y or cycles.find(cycles.label[x]) == c:
            push(c)  # stale: computed again
            continue
        root = cycles.exchange(c, u, x)
        if root != cycles.find(cycles.main):
            push(root)
    return order_from_succ(np.frombuffer(cycles.succ, dtype=np.int64), N, net.instance.cyclic)


class _Cycles:
    """The successor map being patched, its cycles (a union-find over their labels) and the
    candidates of their joints."""

    def __init__(
        self,
        net: StringHubNetwork,
        succ_a: np.ndarray,
        comp_a: np.ndarray,
        main: int,
        groups: dict[int, list[int]],
        pair: PairScore,
        index: CandidateIndex | None,
        limit: int,
        deadline: float | None,
    ) -> None:
        N = net.instance.n
        self.n, self.cyclic, self.main = N, net.instance.cyclic, main
        self.succ = _int_array(succ_a)
        pred_a = np.zeros(N + 1, dtype=np.int64)
        pred_a[succ_a] = np.arange(N + 1)
        self.pred = _int_array(pred_a)
        self.label = _int_array(comp_a)
        self.parent: dict[int, int] = {}
        self.members = {c: list(m) for c, m in groups.items()}
        outside = [i for m in groups.values() for i in m]
        self.few = outside if len(outside) <= SMALL_OUTSIDE else []
        self.every = bytearray(b"\x01") * N  # the index's candidates from every cycle
        self.pair, self.index, self.limit, self.deadline = pair, index, limit, deadline

    def find(self, c: int) -> int:
        """The label of the cycle that cycle ``c`` is now part of."""
        while c in self.parent:
            c = self.parent[c]
        return c

    def exchange(self, c: int, u: int, x: int) -> int:
        """Make ``x -> succ[u]`` and ``u -> succ[x]``: cycle ``c`` joins ``x``'s; its label."""
        succ, pred = self.succ, self.pred
        v, y = succ[u], succ[x]
        succ[x], succ[u] = v, y
        pred[v], pred[y] = x, u
        root = self.find(self.label[x])
        self.parent[c] = root
        joined = self.members.pop(c)
        if root in self.members:
            self.members[root].extend(joined)
        return root

    def best_join(self, c: int) -> tuple[int, int, int]:
        """The best 2-exchange ``(gain, u, x)`` of a joint ``u -> succ[u]`` of cycle ``c`` with
        a joint ``x -> succ[x]`` of another cycle (cyclic and no candidate: any joint of the
        main cycle)."""
        N, succ, pair = self.n, self.succ, self.pair
        best = _best_join(
            c,
            self.members[c],
            succ,
            self.pred,
            self.label,
            self.find,
            pair,
            self.index,
            self.few,
            self.every,
            self.limit,
            self.deadline,
            self.cyclic,
        )
        if best is None:
            u = self.members[c][0]
            main = self.find(self.main)
            x = next(i for i in range(N) if self.find(self.label[i]) == main)
            v, y = succ[u], succ[x]
            best = (pair(x, v) + pair(u, y) - pair(x, y) - pair(u, v), u, x)
        return best


def _best_join(
    c: int,
    items: list[int],
    succ: array[int],
    pred: array[int],
    label: array[int],
    find: Callable[[int], int],
    pair: PairScore,
    index: CandidateIndex | None,
    few: list[int],
    every: bytearray,
    limit: int,
    deadline: float | None,
    cyclic: bool,
) -> tuple[int, int, int] | None:
    """The best 2-exchange ``(gain, u, x)`` of a joint ``u -> succ[u]`` of cycle ``c`` (its
    ``items``) with a joint ``x -> succ[x]`` of any other cycle (None: no candidate)."""
    N = len(every)
    best: tuple[int, int, int] | None = None
    for u in items:
        v = succ[u]
        base = pair(u, v)
        cands: set[int] = set(few)
        if not cyclic:
            cands.update((pred[N], N))
        if index is not None and (deadline is None or time.perf_counter() < deadline):
            _add_candidates(index, u, v, limit, pred, every, cands)
        for x in cands:
            if find(label[x]) == c:
                continue
            y = succ[x]
            gain = pair(x, v) + pair(u, y) - pair(x, y) - base
            if best is None or gain > best[0]:
                best = (gain, u, x)
    return best
