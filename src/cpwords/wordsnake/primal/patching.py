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
from collections.abc import Callable

import numpy as np

from cpwords.wordsnake.primal.repair import (
    CandidateIndex,
    PairScore,
    add_candidates,
    int_array,
    order_from_succ,
    outside_main,
    prepared_index,
)
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork

#: Items outside the main cycle up to which every item of another cycle is a candidate too
#: (besides the index's): the index proposes at most ``limit`` words an overlap string, and
#: in a tandem repeat's cycles many words share their overlap strings.
SMALL_OUTSIDE = 100

#: Evaluations of a joint's best exchange allowed per item outside the main cycle (the first
#: of each, then one each time an exchange makes its entry stale); past them the patching
#: gives up (the plain patching's ordering stands).
EVALUATIONS_PER_ITEM = 8

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
        Candidate items examined per overlap string (a word's copies counted).
    deadline : float, optional
        When it passes, the patching gives up.

    Returns
    -------
    list of int or None
        The item sequence; None when fewer than :data:`MIN_CYCLES` cycles lie outside the main
        one (:func:`~cpwords.wordsnake.primal.repair.patch_cycles` does the same there), or
        when it gives up: past the deadline or past :data:`EVALUATIONS_PER_ITEM`.

    Notes
    -----
    For joints ``u -> v`` and ``x -> y`` of two cycles, the exchange gives ``x -> v`` and
    ``u -> y``, one cycle, at a gain of ``pair(x, v) + pair(u, y) - pair(x, y) - pair(u, v)``.
    Each joint of a cycle outside the main one keeps its best exchange with a joint of another
    cycle in a heap (candidates ``x``: the joints at one item of the main cycle, the depot
    of a linear snake; those of ``patch_cycles``' index; every item outside the main cycle
    when at most :data:`SMALL_OUTSIDE`); the best is
    made, and an entry found stale when popped (a joint it named has changed, or its two
    cycles are now one) is computed again.

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
    main, groups = outside_main(comp_a, N, net.instance.cyclic)
    if len(groups) < MIN_CYCLES or (deadline is not None and time.perf_counter() >= deadline):
        return None
    succ_a = np.array(succ_in, dtype=np.int64)
    built = prepared_index(net, index, succ_a[:N][comp_a[:N] != main])
    outside = [i for members in groups.values() for i in members]
    # The main cycle's joints into and out of one of its items (the depot of a linear snake)
    # are candidates of every joint: a cycle with no overlap into any other still joins.
    anchor = N if not net.instance.cyclic else int(np.flatnonzero(comp_a[:N] == main)[0])
    cycles = _Cycles(net, succ_a, comp_a, pair, built, limit, anchor)
    cycles.few = outside if len(outside) <= SMALL_OUTSIDE else []
    main_label = int(comp_a[N]) if not net.instance.cyclic else main
    if not cycles.join_all(outside, len(groups), main_label, deadline):
        return None
    return order_from_succ(np.frombuffer(cycles.succ, dtype=np.int64), N, net.instance.cyclic)


class _Cycles:
    """The successor map being patched, its cycles (a union-find over their labels) and the
    candidates of its joints."""

    def __init__(
        self,
        net: StringHubNetwork,
        succ_a: np.ndarray,
        comp_a: np.ndarray,
        pair: PairScore,
        index: CandidateIndex,
        limit: int,
        anchor: int,
    ) -> None:
        N = net.instance.n
        self.anchor = anchor
        self.succ = int_array(succ_a)
        pred_a = np.zeros(N + 1, dtype=np.int64)
        pred_a[succ_a] = np.arange(N + 1)
        self.pred = int_array(pred_a)
        self.label = int_array(comp_a)
        self.parent: dict[int, int] = {}
        self.few: list[int] = []
        self.every = bytearray(b"\x01") * N  # the index's candidates from every cycle
        self.pair, self.index, self.limit = pair, index, limit
        self.evaluations = 0

    def join_all(self, outside: list[int], left: int, main: int, deadline: float | None) -> bool:
        """Make the best exchanges until the ``left`` cycles outside the ``main`` one (their
        items ``outside``) are joined to it; False when it gives up."""
        budget = EVALUATIONS_PER_ITEM * len(outside)
        heap: list[tuple[int, int, int, int, int, int]] = []
        for u in outside:
            self.push(heap, u)
        succ, label, find = self.succ, self.label, self.find
        while left:
            if not heap or self.evaluations > budget:
                return False
            if deadline is not None and time.perf_counter() >= deadline:
                return False
            _, u, v, x, y, _ = heapq.heappop(heap)
            cu = find(label[u])
            if cu == find(main):
                continue  # its cycle is joined
            if succ[u] != v or succ[x] != y or find(label[x]) == cu:
                self.push(heap, u)  # stale: computed again
                continue
            self.exchange(u, x)
            left -= 1
        return True

    def find(self, c: int) -> int:
        """The label of the cycle that cycle ``c`` is now part of."""
        while c in self.parent:
            c = self.parent[c]
        return c

    def exchange(self, u: int, x: int) -> None:
        """Make ``x -> succ[u]`` and ``u -> succ[x]``: ``u``'s cycle joins ``x``'s."""
        succ, pred = self.succ, self.pred
        v, y = succ[u], succ[x]
        succ[x], succ[u] = v, y
        pred[v], pred[y] = x, u
        self.parent[self.find(self.label[u])] = self.find(self.label[x])

    def push(self, heap: list[tuple[int, int, int, int, int, int]], u: int) -> None:
        """Push the best exchange of the joint ``u -> succ[u]`` with a joint of another cycle
        (nothing when none is found)."""
        self.evaluations += 1
        succ, pred, pair = self.succ, self.pred, self.pair
        v = succ[u]
        base = pair(u, v)
        cu = self.find(self.label[u])
        cands: set[int] = set(self.few)
        cands.update((pred[self.anchor], self.anchor))
        add_candidates(self.index, u, v, self.limit, pred, self.every, cands)
        xs = [x for x in cands if self.find(self.label[x]) != cu]
        if not xs:
            return
        # Scored by array passes, the first of equal gains kept (the candidates' set order).
        x_a = np.asarray(xs, dtype=np.int64)
        y_a = np.frombuffer(succ, dtype=np.int64)[x_a]
        u_a, v_a = np.full_like(x_a, u), np.full_like(x_a, v)
        gain_a = pair.many(x_a, v_a) + pair.many(u_a, y_a) - pair.many(x_a, y_a) - base
        k = int(np.argmax(gain_a))
        x = xs[k]
        heapq.heappush(heap, (-int(gain_a[k]), u, v, x, succ[x], len(heap)))
