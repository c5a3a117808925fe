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

import importlib.machinery
import importlib.util
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from cpwords.wordsnake.relaxation.string_hub import DeadlineReached

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix


class CoverCache:
    """The path covers of components solved before, by their linear program.

    The additive bound and the neighbourhood search's wider bounds grow ``F`` from the same
    seeds with the same certificate: most components of a round are those of the round before
    (and a later growth repeats an earlier one's rounds). A component's program is its local
    arcs ``t -> h`` among ``k`` words and its costs ``c``; HiGHS solves the same program to the
    same solution, so a component seen before takes its stored solution.

    Parameters
    ----------
    max_bytes : int, optional
        The most bytes of programs kept (their arrays' bytes, counted twice for the solutions
        beside them); past it a solved program is not kept, so the cache never holds more than
        about this much whatever the rounds (default 256 MiB).

    Attributes
    ----------
    hits, misses : int
        Components taken from the cache, and solved.

    Examples
    --------
    >>> cache = CoverCache()
    >>> t, h, c = np.array([0]), np.array([1]), np.zeros(5)
    >>> cache.put(2, t, h, c, {"lp": 0.0})
    >>> cache.get(2, t, h, c), cache.get(2, h, t, c), (cache.hits, cache.misses)
    ({'lp': 0.0}, None, (1, 1))
    """

    def __init__(self, max_bytes: int = 256 * 2**20) -> None:
        self._solved: dict[tuple[int, bytes, bytes, bytes], dict[str, Any]] = {}
        self.hits = 0
        self.misses = 0
        self.max_bytes = max_bytes
        self._bytes = 0

    @staticmethod
    def _key(
        k: int, t: np.ndarray, h: np.ndarray, c: np.ndarray
    ) -> tuple[int, bytes, bytes, bytes]:
        return (
            k,
            np.ascontiguousarray(t, dtype=np.int64).tobytes(),
            np.ascontiguousarray(h, dtype=np.int64).tobytes(),
            np.ascontiguousarray(c, dtype=np.float64).tobytes(),
        )

    def get(self, k: int, t: np.ndarray, h: np.ndarray, c: np.ndarray) -> dict[str, Any] | None:
        """The stored solution of the program (``k``, ``t``, ``h``, ``c``), or None."""
        found = self._solved.get(self._key(k, t, h, c))
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, k: int, t: np.ndarray, h: np.ndarray, c: np.ndarray, res: dict[str, Any]) -> None:
        """Store the solution ``res`` of the program (``k``, ``t``, ``h``, ``c``), unless the
        cache already holds ``max_bytes``."""
        key = self._key(k, t, h, c)
        size = 2 * (len(key[1]) + len(key[2]) + len(key[3]))
        if self._bytes + size > self.max_bytes:
            return
        self._bytes += size
        self._solved[key] = res


def cut_row(k: int, m: int, t: np.ndarray, h: np.ndarray, members: np.ndarray) -> np.ndarray:
    """The row of the cut ``x(delta_in(S)) + y(S) >= 1`` for ``S = members`` (local ids)."""
    inside = np.zeros(k, dtype=bool)
    inside[members] = True
    row = np.zeros(m + 2 * k)
    row[:m] = (inside[h] & ~inside[t]).astype(float)
    row[m + members] = 1.0
    return row


def weak_components(n: int, t: np.ndarray, h: np.ndarray) -> tuple[int, np.ndarray]:
    """The weak components of a directed graph, numbered as SciPy numbers them.

    Parameters
    ----------
    n : int
        Number of nodes.
    t, h : numpy.ndarray of int, shape (m,)
        Tail and head of each arc (``0 <= t, h < n``; loops and repeated arcs allowed).

    Returns
    -------
    ncomp : int
        Number of components.
    labels : numpy.ndarray of int32, shape (n,)
        Each node's component: what
        ``scipy.sparse.csgraph.connected_components(graph, directed=True, connection="weak")``
        returns, the components numbered in the order of their least node (its search starts a
        component at each node not yet labelled, in node order).

    Notes
    -----
    Hooking and pointer jumping in whole-array passes (Shiloach and Vishkin, "An O(log n)
    parallel connectivity algorithm", J. Algorithms 3(1), 1982): each node points to a smaller
    node of its component, each arc hooks the larger of its ends' roots under the smaller,
    until every arc joins two nodes of the same root: the component's least node. Without
    importing SciPy's graph routines (0.2 s of the Letterpress command, whose path cover needs
    nothing else of them).

    Examples
    --------
    >>> weak_components(5, np.array([3, 4]), np.array([1, 3]))
    (3, array([0, 1, 2, 1, 1], dtype=int32))
    """
    root = np.arange(n, dtype=np.int32)
    t = np.asarray(t, dtype=np.intp)
    h = np.asarray(h, dtype=np.intp)
    while True:
        rt, rh = root.take(t), root.take(h)
        apart = rt != rh
        if not apart.any():
            break
        t, h = t.compress(apart), h.compress(apart)
        rt, rh = rt.compress(apart), rh.compress(apart)
        np.minimum.at(root, np.maximum(rt, rh), np.minimum(rt, rh))
        while True:  # every node to its root
            up = root.take(root)
            if np.array_equal(up, root):
                break
            root = up
    least = root == np.arange(n)
    labels = (np.cumsum(least, dtype=np.int32) - 1).take(root)
    return int(np.count_nonzero(least)), labels


def violated_cuts(
    k: int, t: np.ndarray, h: np.ndarray, x: np.ndarray, y: np.ndarray, integral: bool
) -> list[np.ndarray]:
    """Components of the arcs carrying flow that are entered less than once (strong ones for
    an ``integral`` cover, else weak ones: :func:`weak_components`)."""
    sup = x > 1e-9
    if not sup.any():
        return []
    if integral:
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import connected_components

        g = csr_matrix((np.ones(int(sup.sum())), (t[sup], h[sup])), shape=(k, k))
        ncomp, lab = connected_components(g, directed=True, connection="strong")
    else:
        ncomp, lab = weak_components(k, t[sup], h[sup])
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
    whole = units - 100  # 1 within the rounding
    # A word the source reaches over arcs of capacity 1 (within the rounding) only needs no
    # maximum flow of its own: the flow reaching w continues along w -> z, so the flow to z is
    # at least the smaller of the two (most words of a nearly integral cover).
    ones = graph.copy()
    ones.data[ones.data < whole] = 0
    ones.eliminate_zeros()
    fed = np.zeros(k + 1, dtype=bool)
    fed[breadth_first_order(ones, src, directed=True, return_predecessors=False)] = True
    found: list[np.ndarray] = []
    seen = set(known)
    cut_off: set[int] = set()  # words already inside a new cut: their sets are found
    for target in np.flatnonzero(~fed[:k]).tolist():
        if target in cut_off:
            continue
        if deadline is not None and time.perf_counter() >= deadline:
            raise DeadlineReached  # one maximum flow a word: a large component takes long
        flow = maximum_flow(graph, src, target)
        if flow.flow_value >= whole:
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


@dataclass
class CoverLP:
    """A linear program of :func:`cut_loop` as HiGHS solved it (what ``linprog`` returns).

    Attributes
    ----------
    status : int
        ``linprog``'s status: 0 optimal, 1 the time limit, 2 or more a failure.
    x : numpy.ndarray of float64
        The solution (arcs, starts, ends), when optimal.
    eq, ineq : numpy.ndarray of float64
        The duals of the degree equations (in-degree rows, then out-degree) and of the cuts
        (``A_ub`` rows, ``<=`` form: non-positive).
    message : str
        HiGHS's model status.
    """

    status: int
    x: np.ndarray
    eq: np.ndarray
    ineq: np.ndarray
    message: str = ""


def cover_matrix(
    k: int, t: np.ndarray, h: np.ndarray, cut_sets: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The constraint matrix of :func:`cut_loop`'s program in canonical CSC form (columns: the
    ``m`` arcs, the ``k`` starts, the ``k`` ends; rows: the cuts ``-x(delta_in(S)) - y(S) <=
    -1``, then the in-degree and the out-degree equations), as ``scipy.sparse`` builds it from
    the dense cut rows and the equations: ``(indptr, indices, data)``, row indices ascending in
    each column, no explicit zeros.

    Examples
    --------
    >>> indptr, indices, data = cover_matrix(2, np.array([0]), np.array([1]), [np.array([1])])
    >>> indptr.tolist(), indices.tolist(), data.tolist()
    ([0, 3, 4, 6, 7, 8], [0, 2, 3, 1, 0, 2, 3, 4], [-1.0, 1.0, 1.0, 1.0, -1.0, 1.0, 1.0, 1.0])
    """
    m, r = int(t.size), len(cut_sets)
    inside = np.zeros((r, k), dtype=bool)
    for i, s in enumerate(cut_sets):
        inside[i, s] = True
    # Cut entries: arc j enters cut i (head inside, tail outside); start b lies in cut i.
    enters = inside[:, h] & ~inside[:, t]  # (r, m)
    cut_col = np.concatenate([enters, inside, np.zeros((r, k), dtype=bool)], axis=1)
    ci, cj = np.nonzero(cut_col.T)  # column-major: by column, then row ascending
    # Equation entries: arc j in rows h_j and k + t_j; start b in row b; end b in row k + b.
    ar = np.arange(k)
    eq_col = np.concatenate([np.arange(m), np.arange(m), m + ar, m + k + ar])
    eq_row = r + np.concatenate([h, k + t, ar, k + ar])
    cols = np.concatenate([ci, eq_col])
    rows = np.concatenate([cj, eq_row])
    data = np.concatenate([np.full(ci.size, -1.0), np.ones(eq_col.size)])
    order = np.lexsort((rows, cols))
    counts = np.bincount(cols, minlength=m + 2 * k)
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    return indptr, rows[order].astype(np.int32), data[order]


#: SciPy's HiGHS module, where :func:`_highs_core` finds it.
_HIGHS_CORE = "scipy.optimize._highspy._core"


def _highs_core() -> ModuleType | None:
    """SciPy's HiGHS binding (``scipy.optimize._highspy._core``), or None where it is missing.

    Loaded from its file under the same name as a package import gives it, without running
    :mod:`scipy.optimize`'s ``__init__`` (0.13-0.3 s of imports: every solver of the package;
    the Letterpress command's path cover needs HiGHS alone, 0.015 s). It is the module a later
    ``import scipy.optimize`` takes (from :data:`sys.modules`), so the extension is loaded once
    either way, and HiGHS is the same binary: the same solutions and duals.
    """
    found = sys.modules.get(_HIGHS_CORE)
    if found is not None:
        return found
    try:
        import scipy

        where = [os.path.join(scipy.__path__[0], "optimize", "_highspy")]
        spec = importlib.machinery.PathFinder.find_spec(_HIGHS_CORE, where)
        if spec is None or spec.loader is None:
            raise ImportError(_HIGHS_CORE)
        module = importlib.util.module_from_spec(spec)
        sys.modules[_HIGHS_CORE] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[_HIGHS_CORE]
            raise
        return module
    except ImportError:
        try:  # the package's own import, wherever it keeps the module
            from scipy.optimize._highspy import _core
        except ImportError:
            return None
        return _core


_OPTIONS: list[Any] = []  # HiGHS options as linprog(method="highs") sets them, built once


def solve_cover_lp(
    c: np.ndarray, k: int, t: np.ndarray, h: np.ndarray, cut_sets: list[np.ndarray], seconds: float
) -> CoverLP:
    """``linprog(c, A_ub=cut rows, b_ub=-1, A_eq=degree rows, b_eq=1, bounds=(0, None),
    method="highs")`` without its input checks and conversions (most of its time on the
    thousands of small programs of a wide cover): the same HiGHS (SciPy's), options, model and
    matrix (:func:`cover_matrix`), so the same solution and duals.

    Parameters
    ----------
    c : numpy.ndarray of float64, shape (m + 2k,)
        Costs of the arcs, the starts and the ends.
    k : int
        Words of the component.
    t, h : numpy.ndarray of int64, shape (m,)
        Tail and head (local ids) of each arc.
    cut_sets : list of numpy.ndarray of int64
        The words of each subtour cut (local ids).
    seconds : float
        HiGHS's time limit.

    Returns
    -------
    CoverLP
        HiGHS's status, solution and duals.

    Notes
    -----
    The model goes to the HiGHS that SciPy bundles through SciPy's private module
    ``scipy.optimize._highspy._core`` (SciPy 1.15 and later), loaded without the rest of
    :mod:`scipy.optimize` (:func:`_highs_core`); where that module is missing (older SciPy, or
    a later one that moved it), :func:`scipy.optimize.linprog` solves the same program.
    """
    hc = _highs_core()
    if hc is None:
        return _cover_lp_by_linprog(c, k, t, h, cut_sets, seconds)
    if not _OPTIONS:
        opts = hc.HighsOptions()
        opts.presolve = "on"
        opts.highs_debug_level = hc.HighsDebugLevel.kHighsDebugLevelNone
        opts.log_to_console = False
        opts.output_flag = False
        opts.simplex_strategy = hc.simplex_constants.SimplexStrategy.kSimplexStrategyDual
        _OPTIONS.append(opts)
    opts = _OPTIONS[0]
    opts.time_limit = float(seconds)
    m, r = int(t.size), len(cut_sets)
    n = m + 2 * k
    indptr, indices, data = cover_matrix(k, t, h, cut_sets)
    lp = hc.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = r + 2 * k
    lp.a_matrix_.num_col_ = n
    lp.a_matrix_.num_row_ = r + 2 * k
    lp.a_matrix_.format_ = hc.MatrixFormat.kColwise
    lp.col_cost_ = c
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.full(n, hc.kHighsInf)
    lp.row_lower_ = np.concatenate([np.full(r, -hc.kHighsInf), np.ones(2 * k)])
    lp.row_upper_ = np.concatenate([-np.ones(r), np.ones(2 * k)])
    lp.a_matrix_.start_ = indptr
    lp.a_matrix_.index_ = indices
    lp.a_matrix_.value_ = data
    highs = hc._Highs()
    highs.passOptions(opts)
    highs.passModel(lp)
    highs.run()
    status = highs.getModelStatus()
    message = highs.modelStatusToString(status)
    empty = np.zeros(0)
    if status == hc.HighsModelStatus.kOptimal:
        sol = highs.getSolution()
        dual = np.array(sol.row_dual)
        return CoverLP(0, np.array(sol.col_value), dual[r:], dual[:r], message)
    limits = (hc.HighsModelStatus.kTimeLimit, hc.HighsModelStatus.kIterationLimit)
    return CoverLP(1 if status in limits else 4, empty, empty, empty, message)


def _cover_lp_by_linprog(
    c: np.ndarray, k: int, t: np.ndarray, h: np.ndarray, cut_sets: list[np.ndarray], seconds: float
) -> CoverLP:
    """:func:`solve_cover_lp` through :func:`scipy.optimize.linprog` (its public interface)."""
    from scipy.optimize import linprog
    from scipy.sparse import csc_array

    r = len(cut_sets)
    indptr, indices, data = cover_matrix(k, t, h, cut_sets)
    rows = csc_array((data, indices, indptr), shape=(r + 2 * k, int(t.size) + 2 * k)).tocsr()
    res = linprog(
        c,
        A_ub=rows[:r] if r else None,
        b_ub=-np.ones(r) if r else None,
        A_eq=rows[r:],
        b_eq=np.ones(2 * k),
        bounds=(0, None),
        method="highs",
        options={"time_limit": float(seconds)},
    )
    if res.status != 0:
        empty = np.zeros(0)
        return CoverLP(int(res.status), empty, empty, empty, str(res.message))
    ineq = res.ineqlin.marginals if r else np.zeros(0)
    return CoverLP(0, res.x, res.eqlin.marginals, ineq, str(res.message))


def _integral(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether every arc and start is 0 or 1 (within ``1e-9``, the supports' threshold). Such a
    cover that :func:`violated_cuts` passes violates no cut, so :func:`min_cuts` would find
    none: each word has one joint or start in (the degree equations), and following them back
    from any word reaches a start (a cycle is a component entered less than once)."""
    both = np.concatenate([x, y])
    return bool(np.all((both <= 1e-9) | (both >= 1 - 1e-9)))


def cut_loop(
    c: np.ndarray,
    t: np.ndarray,
    h: np.ndarray,
    k: int,
    deadline: float | None,
) -> tuple[CoverLP, list[np.ndarray]]:
    """The linear relaxation of a component's path cover (costs ``c``, joints ``t -> h``
    among ``k`` words: :func:`solve_cover_lp`) with the subtour cuts it violates, added until
    none is: HiGHS's solution and the cuts."""
    m = int(t.size)
    cut_sets: list[np.ndarray] = []
    while True:
        lp = solve_cover_lp(c, k, t, h, cut_sets, seconds_left(deadline))
        if lp.status == 1:  # HiGHS stopped at the time limit
            raise DeadlineReached
        if lp.status != 0:  # pragma: no cover - the cover with every word a path is feasible
            raise RuntimeError(f"path cover LP failed: {lp.message}")
        x, y = lp.x[:m], lp.x[m : m + k]
        new = violated_cuts(k, t, h, x, y, integral=False)
        if not new and not _integral(x, y):
            new = min_cuts(t, h, x, y, k, {tuple(c.tolist()) for c in cut_sets}, deadline)
        if not new:
            return lp, cut_sets
        cut_sets.extend(new)
