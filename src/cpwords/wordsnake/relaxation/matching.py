"""The greedy assignment's matching, compiled: each free exit, longest hand-over string first,
takes the first free entry below its string (a "next free" union-find over the entries).

The one loop of the first bound that cannot be written as whole-array passes (each match
changes which entries the next one may take), so it is compiled with Numba rather than written
in C; it runs in chunks of candidates, so that the deadline and Ctrl-C are seen between them
and the matching so far always stands. Measured on ENABLE (791,815 candidates): the greedy
assignment took 1.06 s of CPU in Python, about half of it this loop, which runs in about
0.02 s compiled (the compiled code is cached on disk after its first use); loading Numba costs
about 0.3 s and 150 MB, so :func:`~cpwords.wordsnake.relaxation.decode.greedy_successors`
uses it only from several million candidates.

References
----------
R. E. Tarjan, "Efficiency of a good but not linear set union algorithm", J. ACM 22(2) (1975)
(path compression); S. K. Lam, A. Pitrou, S. Seibert, "Numba: a LLVM-based Python JIT
compiler", LLVM-HPC (2015).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import njit

from cpwords.wordsnake.relaxation.flow import FlowStopped

#: Candidates matched between two looks at the deadline and at Ctrl-C.
CHUNK = 1 << 16


@njit(cache=True)
def _free_from(nxt: np.ndarray, i: int) -> int:  # pragma: no cover - compiled
    """The first free entry at or after ``i`` (path compression on ``nxt``)."""
    root = i
    while nxt[root] != root:
        root = nxt[root]
    while nxt[i] != root:
        nxt[i], i = root, nxt[i]
    return root


@njit(cache=True)
def _match(
    cand: np.ndarray,
    depth: np.ndarray,
    slot_start: np.ndarray,
    slot_item: np.ndarray,
    item_word: np.ndarray,
    nxt: np.ndarray,
    pend: np.ndarray,
    pend_start: np.ndarray,
    pend_left: np.ndarray,
    out: np.ndarray,
    n_out: int,
) -> int:  # pragma: no cover - compiled
    """Match the candidates ``cand`` (rows ``word, string, lo_word, hi_word``); each match is
    appended to ``out`` (rows ``unit, item, string, depth``). Returns the new count."""
    for c in range(cand.shape[0]):
        w, s, lo, hi = cand[c, 0], cand[c, 1], cand[c, 2], cand[c, 3]
        if pend_left[w] == 0 or lo >= hi:
            continue
        a, b = slot_start[lo], slot_start[hi]
        while pend_left[w] > 0:
            slot = _free_from(nxt, a)
            if slot >= b:
                break
            item = slot_item[slot]
            unit = pend[pend_start[w] + pend_left[w] - 1]
            if item_word[item] == w and item == unit:  # never the same item: the next entry
                slot = _free_from(nxt, slot + 1)
                if slot >= b:
                    break
                item = slot_item[slot]
            pend_left[w] -= 1
            nxt[slot] = slot + 1
            out[n_out, 0], out[n_out, 1] = unit, item
            out[n_out, 2], out[n_out, 3] = s, depth[s]
            n_out += 1
    return n_out


class GreedyMatching:
    """The matching's state: the free entries (``nxt``), the exits still free per word, and
    the matches made, in order.

    Parameters
    ----------
    copies : list of list of int
        The items of each distinct word (its exits, taken from the last).
    slot_start : numpy.ndarray of int64, shape ``(W + 1,)``
        The entries of word ``w`` are the slots ``slot_start[w] .. slot_start[w + 1] - 1``.
    slot_item : numpy.ndarray of int64, shape ``(slots,)``
        The item of each entry slot.
    item_word : numpy.ndarray of int64, shape ``(N,)``
        The distinct word of each item.
    """

    def __init__(
        self,
        copies: list[list[int]],
        slot_start: np.ndarray,
        slot_item: np.ndarray,
        item_word: np.ndarray,
    ) -> None:
        self.slot_start = np.ascontiguousarray(slot_start, dtype=np.int64)
        self.slot_item = np.ascontiguousarray(slot_item, dtype=np.int64)
        self.item_word = np.ascontiguousarray(item_word, dtype=np.int64)
        total = self.slot_item.shape[0]
        self.nxt = np.arange(total + 1, dtype=np.int64)
        counts = np.fromiter(map(len, copies), dtype=np.int64, count=len(copies))
        self.pend_start = np.zeros(len(copies), dtype=np.int64)
        np.cumsum(counts[:-1], out=self.pend_start[1:])
        self.pend_left = counts.copy()
        self.pend = np.fromiter(
            (i for c in copies for i in c), dtype=np.int64, count=int(counts.sum())
        )
        self.out = np.zeros((len(self.pend), 4), dtype=np.int64)
        self.n_out = 0

    def run(self, cand: np.ndarray, depth: np.ndarray, deadline: float | None) -> None:
        """Match the candidates ``cand`` (shape ``(k, 4)``: word, string, first and past-last
        word allowed to follow), in order, :data:`CHUNK` at a time.

        Raises
        ------
        FlowStopped
            ``deadline`` (a ``time.perf_counter()`` value) passed between two chunks: the
            matches so far stand.
        """
        depth = np.ascontiguousarray(depth, dtype=np.int64)
        for at in range(0, cand.shape[0], CHUNK):
            if deadline is not None and time.perf_counter() >= deadline:
                raise FlowStopped
            self.n_out = _match(
                np.ascontiguousarray(cand[at : at + CHUNK]),
                depth,
                self.slot_start,
                self.slot_item,
                self.item_word,
                self.nxt,
                self.pend,
                self.pend_start,
                self.pend_left,
                self.out,
                self.n_out,
            )

    def matches(self) -> np.ndarray:
        """The matches made, in order: rows ``unit, item, string, depth``, shape ``(k, 4)``."""
        return self.out[: self.n_out]

    def pending(self) -> list[list[int]]:
        """The exits still free, per word (as the Python lists the rest of the decoding takes)."""
        pend, start, left = self.pend.tolist(), self.pend_start.tolist(), self.pend_left.tolist()
        return [pend[s : s + k] for s, k in zip(start, left, strict=True)]

    def free_entries(self) -> list[int]:
        """``nxt`` as a list (the union-find the free ends are read from)."""
        out: Any = self.nxt.tolist()
        return out
