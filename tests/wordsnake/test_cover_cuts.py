"""The path cover's linear programs (bounds/cover_cuts.py): the direct HiGHS solve equals
``linprog(method="highs")`` bit for bit (matrix, solution, duals), an integral cover that passes
the component check has no minimum-cut violation, and the component cache changes no bound or
certificate (Hypothesis, small random programs and lists)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog
from scipy.sparse import coo_matrix, csc_array, csr_matrix, vstack
from scipy.sparse.csgraph import connected_components

from cpwords.wordsnake.bounds.cover_cuts import (
    CoverCache,
    _cover_lp_by_linprog,
    _integral,
    cover_matrix,
    cut_row,
    min_cuts,
    solve_cover_lp,
    violated_cuts,
    weak_components,
)
from cpwords.wordsnake.bounds.path_cover import path_cover_bound
from cpwords.wordsnake.bounds.path_ends import EndsMemo, path_ends
from cpwords.wordsnake.relaxation.word_ranges import WordRanges
from cpwords.wordsnake.rules import WordsnakeInstance
from tests.wordsnake.test_pathcover import first_certificate


@st.composite
def programs(draw: st.DrawFn) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]:
    """A component's program: ``k`` words, distinct arcs ``t -> h`` (no loops), costs, cuts."""
    k = draw(st.integers(2, 8))
    pairs = [(a, b) for a in range(k) for b in range(k) if a != b]
    chosen = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=len(pairs), unique=True))
    t = np.array([a for a, _ in chosen], dtype=np.int64)
    h = np.array([b for _, b in chosen], dtype=np.int64)
    c = np.array(
        draw(st.lists(st.integers(0, 9), min_size=t.size + 2 * k, max_size=t.size + 2 * k))
    )
    sets = draw(st.lists(st.sets(st.integers(0, k - 1), min_size=2), max_size=3))
    cuts = [np.array(sorted(s), dtype=np.int64) for s in sets]
    return k, t, h, c.astype(np.float64), cuts


def _linprog(
    k: int, t: np.ndarray, h: np.ndarray, c: np.ndarray, cuts: list[np.ndarray]
) -> tuple[Any, Any]:
    """The program as the cut loop posed it to ``linprog`` before, and SciPy's CSC matrix."""
    m = int(t.size)
    rows = np.concatenate([h, k + t, np.arange(k), k + np.arange(k)])
    cols = np.concatenate([np.arange(m), np.arange(m), m + np.arange(k), m + k + np.arange(k)])
    a_eq = coo_matrix((np.ones(rows.size), (rows, cols)), shape=(2 * k, m + 2 * k)).tocsr()
    a_ub = np.array([-cut_row(k, m, t, h, s) for s in cuts]) if cuts else None
    b_ub = -np.ones(len(cuts)) if cuts else None
    lp = linprog(
        c,
        A_ub=a_ub,
        b_ub=b_ub,
        A_eq=a_eq,
        b_eq=np.ones(2 * k),
        bounds=(0, None),
        method="highs",
        options={"time_limit": 100.0},
    )
    matrix = csc_array(vstack((csr_matrix(a_ub), a_eq)) if cuts else a_eq)
    return lp, matrix


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_direct_highs_solve_equals_linprog(
    prog: tuple[int, np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]],
) -> None:
    k, t, h, c, cuts = prog
    lp, matrix = _linprog(k, t, h, c, cuts)
    indptr, indices, data = cover_matrix(k, t, h, cuts)
    assert indptr.tolist() == matrix.indptr.tolist()
    assert indices.tolist() == matrix.indices.tolist()
    assert data.tolist() == matrix.data.tolist()
    mine = solve_cover_lp(c, k, t, h, cuts, 100.0)
    assert mine.status == lp.status
    if lp.status == 0:
        assert mine.x.tolist() == lp.x.tolist()
        assert mine.eq.tolist() == np.asarray(lp.eqlin.marginals).tolist()
        assert mine.ineq.tolist() == np.asarray(lp.ineqlin.marginals).tolist()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_the_linprog_fallback_solves_the_same_program(
    prog: tuple[int, np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]],
) -> None:
    # Where SciPy's private HiGHS module is missing, linprog solves the cover's program: the same
    # status, optimum, solution and duals as the direct solve (up to rounding).
    k, t, h, c, cuts = prog
    direct = solve_cover_lp(c, k, t, h, cuts, 100.0)
    fallback = _cover_lp_by_linprog(c, k, t, h, cuts, 100.0)
    assert fallback.status == direct.status
    if direct.status == 0:
        assert np.isclose(float(c @ fallback.x), float(c @ direct.x))
        assert np.allclose(fallback.x, direct.x)
        assert np.allclose(fallback.eq, direct.eq) and np.allclose(fallback.ineq, direct.ineq)


@settings(max_examples=300, deadline=None)
@given(
    k=st.integers(2, 8),
    data=st.data(),
)
def test_an_integral_cover_that_passes_the_components_has_no_min_cut(
    k: int, data: st.DataObject
) -> None:
    # An integral cover: each word has one joint or start in and one joint or end out.
    succ = data.draw(st.permutations(list(range(k)) + [-1] * k))[:k]  # -1: the path ends
    succ = [s if s != i else -1 for i, s in enumerate(succ)]
    assume(len({s for s in succ if s >= 0}) == len([s for s in succ if s >= 0]))
    pairs = [(a, b) for a in range(k) for b in range(k) if a != b]
    t = np.array([a for a, _ in pairs], dtype=np.int64)
    h = np.array([b for _, b in pairs], dtype=np.int64)
    x = np.array([1.0 if succ[a] == b else 0.0 for a, b in pairs])
    entered = {s for s in succ if s >= 0}
    y = np.array([0.0 if b in entered else 1.0 for b in range(k)])
    assert _integral(x, y)
    if not violated_cuts(k, t, h, x, y, integral=False):
        assert min_cuts(t, h, x, y, k, set()) == []
    assert not _integral(np.array([0.5]), y)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.text(alphabet="ab", min_size=1, max_size=5), min_size=2, max_size=7),
    cyclic=st.booleans(),
    everything=st.booleans(),
)
def test_the_cache_changes_no_bound_or_certificate(
    words: list[str], cyclic: bool, everything: bool
) -> None:
    assume(len(set(words)) > 1)
    inst = WordsnakeInstance(tuple(words), cyclic)
    net, cert, seeds = first_certificate(inst)
    if everything:
        seeds = list(range(len(net.words)))
    mult = net.mult.tolist()
    plain = path_cover_bound(cert, net.words, mult, seeds, every_partner=True)
    cache = CoverCache()
    first = path_cover_bound(cert, net.words, mult, seeds, grow=1, cache=cache)
    again = path_cover_bound(cert, net.words, mult, seeds, every_partner=True, cache=cache)
    assert first.bound == path_cover_bound(cert, net.words, mult, seeds, grow=1).bound
    assert again.bound == plain.bound and again.lp_bound == plain.lp_bound
    assert again.certificate == plain.certificate
    assert again.neighbourhood.tolist() == plain.neighbourhood.tolist()
    assert again.cover_next.tolist() == plain.cover_next.tolist()
    assert again.cover_prev.tolist() == plain.cover_prev.tolist()
    assert again.partners.tolist() == plain.partners.tolist()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.text(alphabet="abc", min_size=1, max_size=5), min_size=3, max_size=12),
    data=st.data(),
    proper=st.booleans(),
    depot=st.booleans(),
)
def test_path_ends_carried_over_equal_path_ends_anew(
    words: list[str], data: st.DataObject, proper: bool, depot: bool
) -> None:
    # Any prices (ties included); F grows by a random set, and a third F that does not
    # contain the second (the memo must not be taken then).
    ws = sorted(set(words))
    W = len(ws)
    assume(W >= 3)
    prices = st.lists(st.integers(0, 6), min_size=W, max_size=W)
    u = np.array(data.draw(prices), dtype=np.int64) * 5
    vp = np.array(data.draw(prices), dtype=np.int64) * 5
    ids = st.lists(st.integers(0, W - 1), min_size=1, max_size=W - 1, unique=True)
    F1 = np.array(sorted(data.draw(ids)), dtype=np.int64)
    F2 = np.union1d(F1, data.draw(ids)).astype(np.int64)
    F3 = np.array(sorted(data.draw(ids)), dtype=np.int64)
    assume(F2.size < W)
    ranges = WordRanges(ws)
    dep = (3, 4) if depot else None
    memo = EndsMemo(W)
    for F in (F1, F2, F3, F2):
        anew = path_ends(ws, F, u, vp, ranges, dep, 1, proper, None)
        kept = path_ends(ws, F, u, vp, ranges, dep, 1, proper, None, memo=memo)
        for name in ("out_min", "in_min", "out_arg", "in_arg"):
            assert getattr(kept, name).tolist() == getattr(anew, name).tolist(), name
        assert (kept.min_u, kept.min_v) == (anew.min_u, anew.min_v)


def test_the_cache_keeps_no_program_past_its_bytes() -> None:
    # Memory stays bounded whatever the rounds: past max_bytes a solved program is not kept.
    cache = CoverCache(max_bytes=100)
    t, h, c = np.array([0]), np.array([1]), np.zeros(5)
    cache.put(2, t, h, c, {"lp": 0.0})  # 2 x (8 + 8 + 40) = 112 bytes > 100
    assert cache.get(2, t, h, c) is None
    roomy = CoverCache(max_bytes=112)
    roomy.put(2, t, h, c, {"lp": 0.0})
    assert roomy.get(2, t, h, c) == {"lp": 0.0}


def _min_cuts_every_word(
    t: np.ndarray, h: np.ndarray, x: np.ndarray, y: np.ndarray, k: int
) -> list[np.ndarray]:
    """Exact separation as first written: a maximum flow to every word in turn."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order, maximum_flow

    units, src = 1_000_000, k
    sup = x > 1e-9
    tails = np.concatenate([t[sup], np.full(k, src)])
    heads = np.concatenate([h[sup], np.arange(k)])
    caps = np.round(np.concatenate([x[sup], y]) * units).astype(np.int64)
    keep = caps > 0
    graph = csr_matrix(
        (caps[keep].astype(np.int32), (tails[keep], heads[keep])), shape=(k + 1, k + 1)
    )
    graph.sum_duplicates()
    found: list[np.ndarray] = []
    seen: set[tuple[int, ...]] = set()
    cut_off: set[int] = set()
    for target in range(k):
        if target in cut_off:
            continue
        flow = maximum_flow(graph, src, target)
        if flow.flow_value >= units - 100:
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


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    k=st.integers(2, 9),
    data=st.data(),
)
def test_min_cuts_skip_only_words_fed_whole(k: int, data: st.DataObject) -> None:
    # Words reached from the source over arcs of value 1 get no maximum flow of their own:
    # the cuts found are those of a maximum flow to every word, in the same order.
    pairs = [(a, b) for a in range(k) for b in range(k) if a != b]
    chosen = data.draw(st.lists(st.sampled_from(pairs), min_size=1, unique=True))
    t = np.array([a for a, _ in chosen], dtype=np.int64)
    h = np.array([b for _, b in chosen], dtype=np.int64)
    value = st.sampled_from([0.0, 0.0, 0.25, 0.5, 0.75, 1.0, 1.0, 1.0, 0.9999999])
    x = np.array(data.draw(st.lists(value, min_size=t.size, max_size=t.size)))
    y = np.array(data.draw(st.lists(value, min_size=k, max_size=k)))
    got = min_cuts(t, h, x, y, k, set())
    want = _min_cuts_every_word(t, h, x, y, k)
    assert [c.tolist() for c in got] == [c.tolist() for c in want]


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(1, 40),
    data=st.data(),
    chain=st.booleans(),
)
def test_weak_components_number_them_as_scipy_does(
    n: int, data: st.DataObject, chain: bool
) -> None:
    # Any directed graph (loops, repeated arcs, isolated nodes; long paths in any id order):
    # the same number of components and the same labels as SciPy's weak components.
    nodes = st.integers(0, n - 1)
    t = np.array(data.draw(st.lists(nodes, max_size=3 * n)), dtype=np.int64)
    if chain:  # a path through the nodes in a random order, with some arcs reversed
        order = np.array(data.draw(st.permutations(list(range(n)))), dtype=np.int64)
        t, h = order[:-1], order[1:]
        flip = np.array(data.draw(st.lists(st.booleans(), min_size=n - 1, max_size=n - 1)))
        t, h = np.where(flip, h, t), np.where(flip, t, h)
    else:
        h = np.array(data.draw(st.lists(nodes, min_size=t.size, max_size=t.size)), dtype=np.int64)
    graph = csr_matrix((np.ones(t.size), (t, h)), shape=(n, n))
    want_n, want = connected_components(graph, directed=True, connection="weak")
    got_n, got = weak_components(n, t, h)
    assert got_n == want_n
    assert got.tolist() == want.tolist()


def test_the_cover_loads_highs_alone_and_scipy_optimize_takes_that_module() -> None:
    # A fresh interpreter: the path cover of a small list loads HiGHS without scipy.optimize
    # or scipy.sparse (0.3 s of imports); a later import of scipy.optimize takes the same
    # module, and its own solvers still run.
    code = """
import sys
from cpwords.wordsnake.rules import WordsnakeInstance
from cpwords.wordsnake.bounds.path_cover import path_cover_bound
from tests.wordsnake.test_pathcover import first_certificate
words = ("haha", "ahah", "hahah", "abc", "cab", "bca", "blabla", "labl")
net, cert, seeds = first_certificate(WordsnakeInstance(words, False))
pc = path_cover_bound(cert, net.words, net.mult.tolist(), list(range(len(net.words))))
print(sorted(m for m in ("scipy.optimize", "scipy.sparse") if m in sys.modules))
core = sys.modules["scipy.optimize._highspy._core"]
from scipy.optimize import linprog
from scipy.optimize._highspy import _core
print(_core is core, linprog([1.0, 2.0], A_ub=[[-1.0, -1.0]], b_ub=[-1.0]).x.tolist())
"""
    root = Path(__file__).resolve().parents[2]  # for ``tests`` (``-c`` puts the cwd first)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert out.stdout.split("\n")[:2] == ["[]", "True [1.0, 0.0]"]
