"""Augmenting paths in the residual network of the relaxation's flow: the imbalances a move
leaves are balanced, and every path returned is a residual path of least reduced cost, checked
against a plain Dijkstra over residual arcs rebuilt here from the network."""

from __future__ import annotations

import heapq
import itertools
import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.exact.policy import solve_string_flow
from cpwords.wordsnake.exact.state import FlowState
from cpwords.wordsnake.relaxation import residual as residual_module
from cpwords.wordsnake.relaxation.dual_certificate import dual_potentials
from cpwords.wordsnake.relaxation.flow import FlowDual
from cpwords.wordsnake.relaxation.residual import ResidualPaths
from cpwords.wordsnake.relaxation.string_hub import (
    HANDOVER,
    SELF,
    ZERO,
    StringHubNetwork,
    build_string_network,
)
from cpwords.wordsnake.rules import WordsnakeInstance


def _residual_arcs(
    net: StringHubNetwork, cost: np.ndarray, flows: np.ndarray, pi: np.ndarray
) -> dict[tuple[int, int], int]:
    """(tail, head) -> least reduced cost of a residual arc, from the network's arrays."""
    arcs: dict[tuple[int, int], int] = {}
    for a in range(net.m):
        t, h = int(net.tail[a]), int(net.head[a])
        rc = int(cost[a] + pi[t] - pi[h])
        if not (net.role[a] == SELF and flows[a] >= net.cap[a]):
            arcs[(t, h)] = min(arcs.get((t, h), rc), rc)
        if flows[a] > 0:
            arcs[(h, t)] = min(arcs.get((h, t), -rc), -rc)
    return arcs


def _distances(arcs: dict[tuple[int, int], int], sources: list[int]) -> dict[int, int]:
    out: dict[int, list[tuple[int, int]]] = {}
    for (t, h), c in arcs.items():
        out.setdefault(t, []).append((h, c))
    dist = {s: 0 for s in sources}
    heap = [(0, s) for s in sources]
    while heap:
        d, v = heapq.heappop(heap)
        if d > dist.get(v, d):
            continue
        for h, c in out.get(v, []):
            if d + c < dist.get(h, d + c + 1):
                dist[h] = d + c
                heapq.heappush(heap, (d + c, h))
    return dist


def _solved_flow(rng: random.Random, seed: int, n: int) -> tuple[StringHubNetwork, FlowDual]:
    """The network of ``n`` words over ``ab`` or ``abc`` drawn by ``rng`` (cyclic for one seed
    in three) and its flow's optimal dual, without Lagrangian iterations."""
    letters = "ab" if seed % 2 else "abc"
    words = tuple("".join(rng.choice(letters) for _ in range(rng.randint(1, 6))) for _ in range(n))
    net = build_string_network(WordsnakeInstance(words, cyclic=bool(seed % 3 == 0)))
    out = solve_string_flow(net, lagrangian_iterations=0)
    assert out.dual is not None
    return net, out.dual


@pytest.mark.parametrize("seed", range(16))
def test_augmenting_paths_are_shortest_residual_paths(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    if seed % 4 == 1:  # one direction held at a time, the other built from the network
        monkeypatch.setattr(residual_module, "KEEP_BOTH_ARCS", 0)
    rng = random.Random(seed)
    net, dual = _solved_flow(rng, seed, 24)
    pi = dual_potentials(net, dual)
    paths = ResidualPaths(net, dual.cost, np.asarray(dual.flows), pi)
    arcs = _residual_arcs(net, dual.cost, np.asarray(dual.flows), pi)
    assert min(arcs.values()) >= 0  # the potentials prove the flow optimal
    W = net.num_words
    moved = 0
    for w in rng.sample(range(W), min(W, 8)):
        if net.mult[w] != 1:
            continue
        exits = np.nonzero(net.tail == net.out_base + w)[0]
        options = [
            round(np.sqrt(net.weight[a])) for a in exits.tolist() if net.role[a] in (HANDOVER, ZERO)
        ]
        move = (w, rng.choice(options), rng.randint(0, len(net.words[w])))
        excess = paths.excess([move])
        assert sum(excess.values()) == 0  # every unit moved leaves as much as it brings
        into, out_of = paths.paths_by_end(excess)
        found = into + out_of
        sources = [v for v, k in excess.items() if k > 0]
        sinks = {v for v, k in excess.items() if k < 0}
        nearest = _distances(arcs, sources)
        from_each = {s: _distances(arcs, [s]) for s in sources}
        # Every sink some source reaches ends a path; every source that reaches a sink starts one.
        assert {p[-1] for p in found} == {t for t in sinks if t in nearest}
        assert {p[0] for p in found} == {s for s in sources if sinks & from_each[s].keys()}
        for p in found:
            assert p[0] in sources and p[-1] in sinks
            cost = sum(arcs[(x, y)] for x, y in itertools.pairwise(p))
            assert cost == from_each[p[0]][p[-1]]  # a shortest path by reduced cost
            # ... to the sink from the nearest source, or from the source to the nearest sink.
            assert cost in (
                nearest[p[-1]],
                min(from_each[p[0]][t] for t in sinks & from_each[p[0]].keys()),
            )
        on_paths = {v for p in found for v in p}
        assert set().union(*map(paths.words_on, found)) == {
            v - base
            for base in (net.out_base, net.in_base)
            for v in on_paths
            if base <= v < base + W
        }
        moved += bool(excess)
    assert moved > 0  # some move changes the flow: the paths above were really tested


def _old_residual(
    net: StringHubNetwork, cost: np.ndarray, flows: np.ndarray, pi: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The residual network as whole-network passes built it (before the chunked build):
    ``data``, ``indices``, ``indptr``."""
    rc = cost + pi[net.tail] - pi[net.head]
    fw = np.nonzero((net.role != SELF) | (flows < net.cap))[0]
    bw = np.nonzero(flows > 0)[0]
    tails = np.concatenate([net.tail[fw], net.head[bw]]).astype(np.int32)
    heads = np.concatenate([net.head[fw], net.tail[bw]]).astype(np.int32)
    weights = np.concatenate([rc[fw], -rc[bw]]).astype(np.float64)
    weights += residual_module._EPSILON
    n = net.num_nodes
    order = np.argsort(tails, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(tails, minlength=n), out=indptr[1:])
    return weights[order], heads[order], indptr


def _old_by_word(word_of_arc: np.ndarray, W: int) -> tuple[np.ndarray, np.ndarray]:
    mine = np.nonzero((word_of_arc >= 0) & (word_of_arc < W))[0]
    keys = word_of_arc[mine]
    order = np.argsort(keys, kind="stable")
    indptr = np.zeros(W + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys, minlength=W), out=indptr[1:])
    return indptr, mine[order].astype(np.int64)


_letters = st.sampled_from(["ab", "abc", "aé", "a\U00010428b"])
_lists = _letters.flatmap(
    lambda letters: st.lists(
        st.text(alphabet=letters, min_size=1, max_size=7), min_size=2, max_size=14
    )
)


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_lists, st.booleans(), st.booleans(), st.sampled_from([1, 3, 7, 1 << 22]))
def test_chunked_residual_equals_whole_network_build(
    words: list[str], cyclic: bool, proper: bool, chunk: int
) -> None:
    """The chunked build gives the arrays of the whole-network one, entry for entry (the order
    within a row decides Dijkstra's ties), any alphabet, repeated words, words in others."""
    if len(words) < 2:
        return
    inst = WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper)
    net = build_string_network(inst)
    out = solve_string_flow(net, lagrangian_iterations=0)
    assert out.dual is not None
    dual = out.dual
    pi = dual_potentials(net, dual)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(residual_module, "CHUNK", chunk)
        paths = ResidualPaths(net, dual.cost, np.asarray(dual.flows), pi)
    data, indices, indptr = _old_residual(net, dual.cost, np.asarray(dual.flows), pi)
    g = paths.graph
    assert g is not None
    if dual.cost.dtype == net.weight.dtype and np.array_equal(dual.cost, -net.weight):
        # The plain costs read from the network (cost None) give the same arrays.
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(residual_module, "CHUNK", chunk)
            plain = ResidualPaths(net, None, np.asarray(dual.flows), pi).graph
        assert plain is not None
        assert np.array_equal(plain.indptr, indptr) and np.array_equal(plain.indices, indices)
        assert np.array_equal(plain.data, data)
    assert g.indptr.dtype == np.int32 and g.indices.dtype == np.int32
    assert np.array_equal(g.indptr, indptr)
    assert np.array_equal(g.indices, indices)
    assert np.array_equal(g.data, data)
    # The transpose built from the network (the one direction held at a time) is SciPy's
    # transpose of the residual network, entry for entry.
    from scipy.sparse import csr_matrix

    n = net.num_nodes
    want = csr_matrix((data, indices, indptr), shape=(n, n)).T.tocsr()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(residual_module, "CHUNK", chunk)
        mp.setattr(residual_module, "KEEP_BOTH_ARCS", 0)
        t_data, t_indices, t_indptr = residual_module._residual_csr(
            net, dual.cost, np.asarray(dual.flows), pi, reverse=True
        )
        assert paths._direction(reverse=True) is paths.graph and paths.reversed
        assert paths._held.keys() == {True}  # the forward direction let go
    assert t_indptr.dtype == np.int32 and t_indices.dtype == np.int32
    assert np.array_equal(t_indptr, want.indptr)
    assert np.array_equal(t_indices, want.indices)
    assert np.array_equal(t_data, want.data)
    assert paths.graph is not None and np.array_equal(paths.graph.indices, want.indices)
    assert np.array_equal(paths._direction(reverse=False).indices, indices)
    W = net.num_words
    every = list(range(W))
    for ends, base in ((net.tail, net.out_base), (net.head, net.in_base)):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(residual_module, "CHUNK", chunk)
            mine = residual_module.arcs_of_words(ends, base, every)
        indptr, arcs = _old_by_word(ends - base, W)
        for w in every:
            assert mine[w].tolist() == arcs[indptr[w] : indptr[w + 1]].tolist()


def test_plain_costs_let_go_and_made_again() -> None:
    """The flow state lets its plain costs (``-weight``, the best iterate's) go inside
    ``plain_cost_released`` and makes the same again on leaving; other costs stay."""
    inst = WordsnakeInstance(("abc", "bcd", "cde", "dea", "eab"))
    net = build_string_network(inst)
    f = FlowState.begin(net, deadline=None, start=None, progress=None)
    f.dual = FlowDual(f.cost, np.zeros(net.m, dtype=np.int32), 0, 1)
    with f.plain_cost_released() as released:
        assert released and f.plain_released
        assert f.cost.size == 0 and f.dual.cost is f.cost
    assert not f.plain_released and f.dual.cost is f.cost
    assert f.cost.dtype == net.weight.dtype and np.array_equal(f.cost, -net.weight)
    f.cost = f.dual.cost = f.cost.copy()
    f.cost[0] -= 1  # a Lagrangian iterate's costs: kept
    with f.plain_cost_released() as released:
        assert not released and not f.plain_released and f.cost.shape == (net.m,)
    f.dual.cost = -net.weight  # not the flow state's array: kept
    with f.plain_cost_released() as released:
        assert not released and f.dual.cost.shape == (net.m,)


@pytest.mark.parametrize("seed", range(12))
def test_lifted_potentials_repair_into_themselves(seed: int) -> None:
    """The additive bound keeps the first iterate's lifted potentials as its warm ones: the
    certificate's repair of them gives them back unchanged (the same certificate after)."""
    net, dual = _solved_flow(random.Random(seed), seed, 30)
    if dual.pi is None:
        dual.pi = dual_potentials(net, replace(dual, pi=None))  # a cold iterate's
    lifted = dual_potentials(net, dual)
    dual.pi = lifted
    assert np.array_equal(dual_potentials(net, dual), lifted)
