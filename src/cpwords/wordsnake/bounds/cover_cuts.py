"""The path cover's subtour cuts: their rows, their separation (components of the support, and
minimum cuts for a fractional cover) and the branch-and-cut of an integer cover (HiGHS).

Used by the additive bound (:mod:`~cpwords.wordsnake.bounds.path_cover`) and by the proof trees
on the cover (:mod:`~cpwords.wordsnake.closure.cover_tree`).

References
----------
M. Padberg, G. Rinaldi, "A branch-and-cut algorithm for the resolution of large-scale symmetric
traveling salesman problems", SIAM Review 33 (1991) (separation of subtour cuts by minimum cuts).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from cpwords.wordsnake.relaxation.string_hub import DeadlineReached

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix


def cut_row(k: int, m: int, t: np.ndarray, h: np.ndarray, members: np.ndarray) -> np.ndarray:
    """The row of the cut ``x(delta_in(S)) + y(S) >= 1`` for ``S = members`` (local ids)."""
    inside = np.zeros(k, dtype=bool)
    inside[members] = True
    row = np.zeros(m + 2 * k)
    row[:m] = (inside[h] & ~inside[t]).astype(float)
    row[m + members] = 1.0
    return row


def violated_cuts(
    k: int, t: np.ndarray, h: np.ndarray, x: np.ndarray, y: np.ndarray, integral: bool
) -> list[np.ndarray]:
    """Components of the arcs carrying flow that are entered less than once."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    sup = x > 1e-9
    if not sup.any():
        return []
    g = csr_matrix((np.ones(int(sup.sum())), (t[sup], h[sup])), shape=(k, k))
    how = "strong" if integral else "weak"
    ncomp, lab = connected_components(g, directed=True, connection=how)
    # What enters each component, for all at once: O(arcs + words). A loop over the
    # components took O(components x arcs); Japanese's widest bound was inside it at its
    # deadline (2026-11-29, a run that ended 11.7 s past a 900 s limit).
    across = lab[t] != lab[h]
    entering = np.bincount(lab[h[across]], weights=x[across], minlength=ncomp).astype(float)
    entering += np.bincount(lab, weights=y, minlength=ncomp)
    size = np.bincount(lab, minlength=ncomp)
    bad = np.nonzero((size >= 2) & (entering < 1 - 1e-7))[0]
    if bad.size == 0:
        return []
    order = np.argsort(lab, kind="stable")
    starts = np.concatenate([[0], np.cumsum(size)])
    return [order[starts[c] : starts[c + 1]] for c in bad.tolist()]


def min_cuts(
    t: np.ndarray,
    h: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    k: int,
    known: set[tuple[int, ...]],
    deadline: float | None = None,
) -> list[np.ndarray]:
    """Violated cuts of a fractional cover by minimum cuts (exact separation).

    Each word ``w`` must be reached at least once from outside: a maximum flow from a source
    joined to every word ``b`` with capacity ``y(b)`` (the paths started there), over the arcs
    with capacities ``x``, to ``w``; below 1, the words the source cannot reach in the residual
    network form a violated set ``S`` (Padberg and Rinaldi's separation of subtour cuts).
    Raises ``DeadlineReached`` once ``deadline`` (a ``time.perf_counter()`` value) has passed,
    checked before each maximum flow.
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order, maximum_flow

    units = 1_000_000
    src = k
    sup = x > 1e-9
    tails = np.concatenate([t[sup], np.full(k, src)])
    heads = np.concatenate([h[sup], np.arange(k)])
    caps = np.round(np.concatenate([x[sup], y]) * units).astype(np.int64)
    keep = caps > 0
    tails, heads, caps = tails[keep], heads[keep], caps[keep]
    graph = csr_matrix((caps.astype(np.int32), (tails, heads)), shape=(k + 1, k + 1))
    graph.sum_duplicates()
    found: list[np.ndarray] = []
    seen = set(known)
    cut_off: set[int] = set()  # words already inside a new cut: their sets are found
    for target in range(k):
        if target in cut_off:
            continue
        if deadline is not None and time.perf_counter() >= deadline:
            raise DeadlineReached  # one maximum flow a word: a large component takes long
        flow = maximum_flow(graph, src, target)
        if flow.flow_value >= units - 100:  # 1 within the rounding
            continue
        residual = graph - flow.flow
        residual.data[residual.data < 0] = 0
        residual.eliminate_zeros()
        reach = breadth_first_order(residual, src, directed=True, return_predecessors=False)
        inside = np.ones(k + 1, dtype=bool)
        inside[reach] = False
        members = np.nonzero(inside[:k])[0]
        key = tuple(members.tolist())
        if members.size >= 2 and key not in seen:
            seen.add(key)
            found.append(members)
            cut_off.update(key)
    return found


def seconds_left(deadline: float | None) -> float:
    """Seconds until the deadline for HiGHS (at least 0.01; no deadline: an hour)."""
    if deadline is None:
        return 3600.0
    left = deadline - time.perf_counter()
    if left <= 0:
        raise DeadlineReached
    return max(0.01, left)


def branch_and_cut(
    c: np.ndarray,
    a_eq: csr_matrix,
    cut_sets: list[np.ndarray],
    cut_row: Callable[[np.ndarray], np.ndarray],
    violated: Callable[[np.ndarray, np.ndarray, bool], list[np.ndarray]],
    m: int,
    k: int,
    deadline: float | None = None,
) -> tuple[float, np.ndarray | None]:
    """The integer path cover's cost and its solution: HiGHS MIP, subtour cuts added lazily (at
    most 30 s, and never past the deadline: then the linear relaxation's bound stands, and no
    solution, ``(-inf, None)``)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    sets = list(cut_sets)
    while True:
        constraints = [LinearConstraint(a_eq, 1, 1)]
        if sets:
            constraints.append(LinearConstraint(np.array([cut_row(s) for s in sets]), 1, np.inf))
        try:
            seconds = min(30.0, seconds_left(deadline))
        except DeadlineReached:
            return -np.inf, None  # the linear relaxation's bound stands
        res = milp(
            c,
            constraints=constraints,
            integrality=np.ones(c.size),
            bounds=Bounds(0, 1),
            options={"time_limit": seconds},
        )
        if res.status != 0 or res.x is None:
            return -np.inf, None  # stopped: the linear relaxation's bound stands
        x, y = np.round(res.x[:m]), np.round(res.x[m : m + k])
        new = violated(x, y, True)
        if not new:
            return float(res.fun), np.round(res.x)
        sets.extend(new)
