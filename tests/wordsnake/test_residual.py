"""Augmenting paths in the residual network of the relaxation's flow: the imbalances a move
leaves are balanced, and every path returned is a residual path of least reduced cost, checked
against a plain Dijkstra over residual arcs rebuilt here from the network."""

from __future__ import annotations

import heapq
import itertools
import random

import numpy as np
import pytest

from cpwords.wordsnake.exact.policy import solve_string_flow
from cpwords.wordsnake.relaxation.dual_certificate import dual_potentials
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


@pytest.mark.parametrize("seed", range(16))
def test_augmenting_paths_are_shortest_residual_paths(seed: int) -> None:
    rng = random.Random(seed)
    letters = "ab" if seed % 2 else "abc"
    words = tuple("".join(rng.choice(letters) for _ in range(rng.randint(1, 6))) for _ in range(24))
    inst = WordsnakeInstance(words, cyclic=bool(seed % 3 == 0))
    net = build_string_network(inst)
    out = solve_string_flow(net, lagrangian_iterations=0)
    assert out.dual is not None
    dual = out.dual
    pi = dual_potentials(net, dual)
    paths = ResidualPaths(net, dual.cost, dual.flows, pi)
    arcs = _residual_arcs(net, dual.cost, dual.flows, pi)
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
        found = paths.paths(excess)
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
        assert paths.words_between(excess) == {
            v - base
            for base in (net.out_base, net.in_base)
            for v in on_paths
            if base <= v < base + W
        }
        moved += bool(excess)
    assert moved > 0  # some move changes the flow: the paths above were really tested
