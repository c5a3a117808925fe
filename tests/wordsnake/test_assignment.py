"""The greedy assignment routed as a flow, and its proof of optimality by potentials."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.relaxation import assignment, pred_cycles, sorting, sweeps
from cpwords.wordsnake.relaxation.assignment import (
    Reoptimizer,
    potentials,
    potentials_within,
    route_successors,
)
from cpwords.wordsnake.relaxation.decode import greedy_successors
from cpwords.wordsnake.relaxation.flow import solve_flow
from cpwords.wordsnake.relaxation.residual_update import _extended, arc_key, update_residual
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork, build_string_network
from cpwords.wordsnake.relaxation.sweeps import Residual
from cpwords.wordsnake.rules import WordsnakeInstance

from .sweeps_reference import _pred_cycles, reference_settle

word = st.text(alphabet="abc", min_size=1, max_size=5)
distinct = st.lists(word, min_size=2, max_size=8, unique=True)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(distinct, st.booleans(), st.booleans())
def test_a_proven_greedy_flow_has_the_min_cost_flow_value(
    ws: list[str], cyclic: bool, proper: bool
) -> None:
    net = build_string_network(WordsnakeInstance(tuple(ws), cyclic, proper))
    flows = route_successors(net, greedy_successors(net))
    assert flows is not None  # distinct words always route
    # A feasible flow: conserved at every node, within every capacity.
    assert (flows >= 0).all() and (flows <= net.cap).all()
    balance = np.bincount(net.tail, flows, net.num_nodes) - np.bincount(
        net.head, flows, net.num_nodes
    )
    assert np.array_equal(balance.astype(np.int64), net.supply)
    value = int((net.weight * flows).sum())
    _, opt = solve_flow(net, -net.weight)
    assert value <= -opt  # never above the relaxation
    pi = potentials_within(net, -net.weight, flows, 200)
    if pi is not None:  # the certificate: reduced costs of the residual arcs are >= 0
        assert value == -opt
        rc = -net.weight + pi[net.tail] - pi[net.head]
        assert (rc[flows < net.cap] >= 0).all() and (rc[flows > 0] <= 0).all()


def test_an_optimal_flow_that_is_not_the_greedy_is_still_proven() -> None:
    # Potentials exist for every optimal flow (not only the greedy's).
    net = build_string_network(WordsnakeInstance(("bbb", "aaabbb", "baaaba", "bba")))
    flows, _ = solve_flow(net, -net.weight)
    assert potentials(net, -net.weight, flows) is not None


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(distinct, st.booleans(), st.booleans(), st.integers(0, 2**31 - 1))
def test_a_warm_started_iterate_has_the_value_of_a_cold_solve(
    ws: list[str], cyclic: bool, proper: bool, seed: int
) -> None:
    net = build_string_network(WordsnakeInstance(tuple(ws), cyclic, proper))
    flows, _ = solve_flow(net, -net.weight)
    # New costs as a Lagrangian iterate makes them: scaled, with bonuses on some arcs.
    rng = np.random.default_rng(seed)
    cost = -64 * net.weight.astype(np.int64) - rng.integers(0, 200, net.m) * (
        rng.random(net.m) < 0.2
    )
    warm = Reoptimizer(net, flows.copy())
    pi = warm.settle(cost, max_rounds=10_000, max_cycles=10_000)
    assert pi is not None
    _, cold = solve_flow(net, cost)
    assert int((cost * warm.flows).sum()) == cold
    rc = cost + pi[net.tail] - pi[net.head]
    assert (rc[warm.flows < net.cap] >= 0).all() and (rc[warm.flows > 0] <= 0).all()


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(word, min_size=2, max_size=6), st.booleans(), st.booleans())
def test_the_bound_before_any_flow_is_above_the_relaxation_and_the_optimum(
    ws: list[str], cyclic: bool, proper: bool
) -> None:
    import itertools

    from cpwords.wordsnake.exact.flow_steps import trivial_bound
    from cpwords.wordsnake.rules import snake_score

    inst = WordsnakeInstance(tuple(ws), cyclic, proper)
    if len(set(inst.words)) < 2:
        return
    net = build_string_network(inst)
    _, opt = solve_flow(net, -net.weight)
    best = max(snake_score(list(p), cyclic, proper) for p in itertools.permutations(inst.words))
    assert trivial_bound(net) >= -opt >= best


# Any alphabet (accents, letters beyond the BMP), words inside others, repeats, long borders.
_index_letters = st.sampled_from(["ab", "abc", "aé", "a\U00010428b"])
_index_lists = _index_letters.flatmap(
    lambda letters: st.lists(
        st.text(alphabet=letters, min_size=1, max_size=9), min_size=2, max_size=16
    )
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    _index_lists,
    st.booleans(),
    st.booleans(),
    st.sampled_from([0, 10**9]),
    st.integers(0, 2**31 - 1),
)
def test_the_arc_index_finds_what_a_search_of_every_arc_finds(
    ws: list[str], cyclic: bool, proper: bool, small: int, seed: int
) -> None:
    """Every arc by its ends, and any pair of nodes (borders, private chains, copies, H+
    nodes, the root link), as a dictionary of every arc finds it: its arc or -1; the levels
    and chain steps as arrays (``small`` 0) or in loops."""
    from cpwords.wordsnake.relaxation import arc_index, string_hub, trie
    from cpwords.wordsnake.relaxation.arc_index import ArcIndex

    inst = WordsnakeInstance(tuple(ws), cyclic, proper)
    if len(set(inst.words)) < 2:
        return
    with pytest.MonkeyPatch.context() as mp:
        for module in (arc_index, string_hub, trie):
            mp.setattr(module, "SMALL_LEVEL", small)
        net = build_string_network(inst)
        index = ArcIndex(net)
        assert index.find(net.tail, net.head).tolist() == list(range(net.m))
        rng = np.random.default_rng(seed)
        k = 4 * net.m
        picked = rng.integers(0, net.m, k)
        # Random pairs, the arcs' own ends crossed, and pairs one node off an arc's.
        tails = np.concatenate(
            [
                rng.integers(-2, net.num_nodes + 2, k),
                net.tail[picked],
                net.tail[picked] + rng.integers(-1, 2, k),
            ]
        )
        heads = np.concatenate(
            [
                rng.integers(-2, net.num_nodes + 2, k),
                net.head[rng.integers(0, net.m, k)],
                net.head[picked] + rng.integers(-1, 2, k),
            ]
        )
        arc_of = {
            (t, h): a
            for a, (t, h) in enumerate(zip(net.tail.tolist(), net.head.tolist(), strict=True))
        }
        want = [arc_of.get(pair, -1) for pair in zip(tails.tolist(), heads.tolist(), strict=True)]
        assert index.find(tails, heads).tolist() == want


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_index_lists, st.booleans(), st.booleans(), st.sampled_from([0, 10**9]))
def test_a_routed_greedy_is_a_feasible_flow_of_the_greedys_score(
    ws: list[str], cyclic: bool, proper: bool, small: int
) -> None:
    # Any lists (repeats, words inside others, borders through private chains): the routed
    # flow, where there is one, is conserved, within the capacities, and scores each joint's
    # hand-over; the walks up the trie as arrays (small 0) or loops.
    from cpwords.wordsnake.relaxation import arc_index, string_hub, trie

    inst = WordsnakeInstance(tuple(ws), cyclic, proper)
    if len(set(inst.words)) < 2:
        return
    with pytest.MonkeyPatch.context() as mp:
        for module in (arc_index, string_hub, trie):
            mp.setattr(module, "SMALL_LEVEL", small)
        net = build_string_network(inst)
        greedy = greedy_successors(net)
        flows = route_successors(net, greedy)
    if flows is None:  # a joint with no route (a cycle of copies longer than its self arc)
        return
    assert (flows >= 0).all() and (flows <= net.cap).all()
    balance = np.bincount(net.tail, flows, net.num_nodes) - np.bincount(
        net.head, flows, net.num_nodes
    )
    assert np.array_equal(balance.astype(np.int64), net.supply)
    joints = [i for i in range(inst.n) if 0 <= greedy.succ[i] < inst.n]
    if not cyclic and greedy.succ[inst.n] == inst.n:  # no depot joint: the cheapest is opened
        joints.remove(int(np.argmin(np.asarray(greedy.handover)[: inst.n])))

    def carried(i: int) -> int:
        """A joint's overlap as its route carries it: copies of a word on their self arc
        (the whole word, or its longest proper border) unless one letter over a hub."""
        a, b, d = inst.words[i], inst.words[int(greedy.succ[i])], int(greedy.handover[i])
        if a != b or d == 0 or (d == 1 and len(a) > 1):
            return d
        return len(a) if not proper else max(k for k in range(len(a)) if a[:k] == a[-k:])

    score = sum(int(inst.weight(carried(i))) for i in joints)
    assert int((net.weight.astype(np.int64) * flows).sum()) == score


def _bellman_ford(net: StringHubNetwork, cost: np.ndarray, flows: np.ndarray) -> np.ndarray | None:
    """Shortest distances from a virtual source (every node at 0) over the residual arcs, by
    plain Bellman-Ford rounds over every arc (None: a negative cycle)."""
    fw, bw = flows < net.cap, flows > 0
    tails = np.concatenate([net.tail[fw], net.head[bw]])
    heads = np.concatenate([net.head[fw], net.tail[bw]])
    costs = np.concatenate([cost[fw], -cost[bw]])
    dist = np.zeros(net.num_nodes, dtype=np.int64)
    for _ in range(net.num_nodes + 1):
        nxt = dist.copy()
        np.minimum.at(nxt, heads, dist[tails] + costs)
        if np.array_equal(nxt, dist):
            return dist
        dist = nxt
    return None


def _flow_cases(test: Callable[..., None]) -> Callable[..., None]:
    """The residual network's tests run on any lists (repeated words, words inside others, a
    letter beyond ASCII), both variants and a seed."""
    cases = given(
        st.lists(st.text(alphabet="abcé", min_size=1, max_size=6), min_size=2, max_size=10),
        st.booleans(),
        st.booleans(),
        st.integers(0, 2**31 - 1),
    )
    return settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])(
        cases(test)
    )


def _bucketing(mp: pytest.MonkeyPatch, seed: int) -> None:
    """Group the residual arcs by their head's bucket of one node (the default, on small lists)
    or of a half, a quarter, an eighth of the nodes."""
    mp.setattr(sweeps, "BUCKET_BITS", [sweeps.BUCKET_BITS, 1, 2, 3][seed % 4])


def _flow_case(
    ws: list[str], cyclic: bool, proper: bool, seed: int
) -> tuple[StringHubNetwork | None, np.ndarray, np.random.Generator]:
    """The network of a drawn list, an optimal flow on it and a random generator (no network
    for a list of one distinct word)."""
    inst = WordsnakeInstance(tuple(ws), cyclic, proper)
    rng = np.random.default_rng(seed)
    if len(set(inst.words)) < 2:
        return None, np.zeros(0, dtype=np.int64), rng
    net = build_string_network(inst)
    flows, _ = solve_flow(net, -net.weight)
    return net, flows, rng


@_flow_cases
def test_settled_labels_are_the_shortest_residual_distances(
    ws: list[str], cyclic: bool, proper: bool, seed: int
) -> None:
    # Any lists (repeated words, words inside others): the sweeps' labels are exactly the
    # distances plain Bellman-Ford rounds give, for the costs of the flow and for costs a
    # Lagrangian iterate makes (the flow then not always optimal: no label when not).
    net, flows, rng = _flow_case(ws, cyclic, proper, seed)
    if net is None:
        return
    bonus = rng.integers(0, 200, net.m) * (rng.random(net.m) < 0.2)
    for cost in (-net.weight, -64 * net.weight.astype(np.int64) - bonus):
        expected = _bellman_ford(net, cost, flows)
        got = Reoptimizer(net, flows.copy()).settle(
            cost, max_rounds=net.num_nodes + 1, max_cycles=0
        )
        if expected is None:
            assert got is None
        else:
            assert got is not None and np.array_equal(got, expected)


def _live_arcs(res: Residual) -> list[tuple[int, int, int, int, int]]:
    """Every residual arc in the network, as (class, key, tail, head, cost), sorted."""
    out = []
    for k, arcs in enumerate(res.classes):
        live = arcs.heads != res.n
        assert (arcs.tails[live] >= arcs.lo).all() and (arcs.tails[live] < arcs.hi).all()
        for key, t, h, c in zip(
            arcs.keys[live].tolist(),
            arcs.tails[live].tolist(),
            arcs.heads[live].tolist(),
            arcs.costs[live].tolist(),
            strict=True,
        ):
            out.append((k, key, t, h, c))
    return sorted(out)


@_flow_cases
def test_an_updated_residual_network_has_the_arcs_of_the_one_built_anew(
    ws: list[str], cyclic: bool, proper: bool, seed: int
) -> None:
    # Any lists (repeated words, words inside others); the flow on a few random arcs set to
    # any value in [0, cap] (arcs filled, emptied, or left with room both ways).
    net, flows, rng = _flow_case(ws, cyclic, proper, seed)
    if net is None:
        return
    cost = -64 * net.weight.astype(np.int64) - rng.integers(0, 200, net.m)
    reopt = Reoptimizer(net, flows.copy())
    mp = pytest.MonkeyPatch()
    _bucketing(mp, seed)  # arcs found by bisection within their head's bucket
    res = reopt._residual(cost)
    mp.undo()  # the network built anew in arc id order
    for _ in range(3):
        arcs = np.unique(rng.integers(0, net.m, rng.integers(1, 6))).astype(np.int64)
        before = reopt.flows[arcs].copy()
        cap = net.cap[arcs]
        reopt.flows[arcs] = rng.integers(0, cap + 1) * (rng.random(arcs.size) < 0.7)
        update_residual(
            res,
            arcs,
            net.tail[arcs],
            net.head[arcs],
            cost[arcs],
            before,
            reopt.flows[arcs],
            cap,
        )
        expected = reopt._residual(cost)
        live = _live_arcs(res)
        assert live == _live_arcs(expected)
        # No two live arcs join the same pair of nodes: each is found by its ends (what a
        # cycle of predecessors, recorded as tails, is cancelled by).
        assert len({(t, h) for _, _, t, h, _ in live}) == len(live)
        assert all(arc_key(res, t, h) == key for _, key, t, h, _ in live)
        chains = res.classes[5]
        assert chains.indptr is not None  # the chains' arcs stay sorted by key, with offsets
        assert (np.diff(chains.keys) >= 0).all()
        counts = np.bincount(chains.tails - chains.lo, minlength=chains.hi - chains.lo)
        assert np.array_equal(np.diff(chains.indptr), counts)


@_flow_cases
def test_the_reoptimisation_gives_what_the_sweeps_sorted_by_tail_gave(
    ws: list[str], cyclic: bool, proper: bool, seed: int
) -> None:
    # Any lists (repeated words, words inside others), any flow (an optimal one, or one with
    # a few units re-routed so that cycles must be cancelled), costs of a Lagrangian iterate,
    # start labels from a previous settle or none, capacities lifted or not: the labels,
    # cancelled cycles, sweeps and final flow are exactly the reference's (residual arcs
    # sorted by tail, predecessors by position, cycles by pointer doubling).
    net, flows, rng = _flow_case(ws, cyclic, proper, seed)
    if net is None:
        return
    if rng.random() < 0.5:  # the greedy's flow, often not optimal for the costs below
        routed = route_successors(net, greedy_successors(net))
        flows = flows if routed is None else routed
    bonus = rng.integers(0, 200, net.m) * (rng.random(net.m) < 0.3)
    cost = -64 * net.weight.astype(np.int64) - bonus if rng.random() < 0.7 else -net.weight
    full = net.cap.full()
    cap = None if rng.random() < 0.5 else np.where(full > 0, full + 3, 0)
    start = None if rng.random() < 0.5 else -rng.integers(0, 50, net.num_nodes)
    budget = dict(max_rounds=int(rng.integers(1, 60)), max_cycles=int(rng.integers(0, 20)))
    check_every = int(rng.integers(1, 4))
    # The plain costs read off the network's weights, or the network's ends let go meanwhile
    # (and its weights too with the plain costs: the cycles' costs looked up in the residual).
    plain = (
        cost.shape == net.weight.shape and rng.random() < 0.5 and bool((cost == -net.weight).all())
    )
    release = bool(rng.random() < 0.5)
    ends = net.tail.copy(), net.head.copy(), net.weight.copy()
    want_flows = flows.copy()
    want, cycles, rounds = reference_settle(
        net, cost, want_flows, cap=cap, start=start, check_every=check_every, **budget
    )
    reopt = Reoptimizer(net, flows.copy(), cap=cap)
    if start is not None:
        reopt.dist = start.copy()
    with pytest.MonkeyPatch.context() as mp:
        # Labels in 32 bits throughout, in 64 bits from the start, or switched to 64 bits when
        # they fall past the limit (its default is not reached by small lists).
        mp.setattr(sweeps, "LABEL_LIMIT", [sweeps.LABEL_LIMIT, 1 << 4, 1 << 6][seed % 3])
        # Classes relaxed a block of arcs at a time, whatever the block's size.
        mp.setattr(sweeps, "RELAX_BLOCK", [sweeps.RELAX_BLOCK, 1, 2, 5][seed % 4])
        _bucketing(mp, seed // 4)  # classes in any order of heads
        got = reopt.settle(
            None if plain else cost,
            check_every=check_every,
            release=release,
            max_rounds=budget["max_rounds"],
            max_cycles=budget["max_cycles"],
        )
    for made, was in zip((net.tail, net.head, net.weight), ends, strict=True):
        assert made.dtype == was.dtype and np.array_equal(made, was)
    assert (reopt.cycles, reopt.rounds) == (cycles, rounds)
    assert np.array_equal(reopt.flows, want_flows)
    assert (got is None) == (want is None)
    if got is not None and want is not None:
        # In 64 bits, or in the sweeps' own type when the network's ends were let go.
        assert got.dtype == np.int64 or (release and got.dtype == np.int32)
        assert np.array_equal(got, want)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 300),
    st.floats(0.0, 0.5),
    st.integers(0, 2**31 - 1),
    st.sampled_from([0, 2, 16, 4096]),
)
def test_the_cycles_of_predecessors_are_every_cycle_of_the_functional_graph(
    n: int, unlabelled: float, seed: int, walk: int
) -> None:
    # Any predecessor graph: random predecessors (long chains, bushy trees, cycles of any
    # length, nodes without one), searched by peeling (pass by pass, then level by level),
    # doubling and walking whatever the thresholds, in 32 or 64 bits: exactly the cycles a
    # walk from every node finds (as sets of predecessors), each walked along them.
    rng = np.random.default_rng(seed)
    tails = rng.integers(0, n, n)
    if seed % 3 == 0:  # long chains: mostly i -> i - 1, a few jumps
        tails = np.where(rng.random(n) < 0.9, np.arange(n) - 1, tails) % n
    pred = np.where(rng.random(n) < unlabelled, -1, tails)
    pred = pred.astype(np.int32 if seed % 2 else np.int64)
    ref_tails = np.where(pred >= 0, pred, 0)
    # The reference names a predecessor by its position; here every node's own.
    positions = np.where(pred >= 0, np.arange(n), -1)
    want = {frozenset(pred[c].tolist()) for c in _pred_cycles(positions, ref_tails)}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pred_cycles, "WALK_NODES", walk)
        # Chains peeled a level at a time to the end, doubling at once, or at the default.
        mp.setattr(pred_cycles, "LEVEL_SHARE", [pred_cycles.LEVEL_SHARE, 0.0, 1.0][seed // 4 % 3])
        mp.setattr(pred_cycles, "PEEL_BLOCK", [pred_cycles.PEEL_BLOCK, 1, 3, 16][seed % 4])
        mp.setattr(pred_cycles, "FIRST_BLOCK", [pred_cycles.FIRST_BLOCK, 2, 1, 7][seed % 4])
        got = pred_cycles.pred_cycles(pred)  # PEEL_BLOCK 1, 3, 16: int32 ids
    assert {frozenset(c) for c in got} == want
    assert sum(len(c) for c in got) == sum(len(c) for c in want)
    for c in got:  # each entry the predecessor of the one before (the first: of the last)
        assert all(int(pred[c[i - 1]]) == c[i] for i in range(len(c)))
    with pytest.MonkeyPatch.context() as mp:  # the first pass off the array (a block of 5)
        mp.setattr(pred_cycles, "WALK_NODES", walk)
        mp.setattr(pred_cycles, "LEVEL_SHARE", [pred_cycles.LEVEL_SHARE, 0.0, 1.0][seed // 4 % 3])
        whole = pred_cycles.pred_cycles(pred)  # every node at once: the first pass as the rest
        mp.setattr(pred_cycles, "PEEL_BLOCK", 5)
        assert pred_cycles.pred_cycles(pred) == whole  # the same cycles, in the same order


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 40), max_size=30, unique=True),
    st.lists(st.integers(0, 41), max_size=40),
    st.sampled_from([1, 3, 1 << 22]),
    st.booleans(),
)
def test_renumbered_is_each_node_place_among_those_left(
    left: list[int], to: list[int], block: int, wide: bool
) -> None:
    # The binary search, a block at a time, against an array of an id per node (the old way):
    # each node's place among those left, their number where it is not one of them.
    act = np.array(sorted(left), dtype=np.int64 if wide else np.int32)
    heads = np.array(to, dtype=act.dtype)
    ids = np.full(42, len(left), dtype=np.int64)
    ids[act] = np.arange(len(left))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pred_cycles, "PEEL_BLOCK", block)
        got = pred_cycles.renumbered(act, heads)
    assert got.dtype == np.int32
    assert got.tolist() == ids[heads].tolist()


@_flow_cases
def test_the_residual_network_built_in_blocks_is_the_one_built_at_once(
    ws: list[str], cyclic: bool, proper: bool, seed: int
) -> None:
    # Any lists and flows (arcs filled, emptied, or left with room both ways), classified a
    # few arcs at a time: the arcs' classes are the one-pass gather's, and the residual
    # network (every class's keys, heads, costs, order and offsets) the same.
    net, flows, rng = _flow_case(ws, cyclic, proper, seed)
    if net is None:
        return
    flows = flows.copy()
    some = rng.random(net.m) < 0.3
    flows[some] = rng.integers(0, net.cap[some] + 1)
    cost = -64 * net.weight.astype(np.int64) - rng.integers(0, 200, net.m)
    bounds = sweeps.class_bounds(net)
    node_class = np.repeat(np.arange(bounds.size - 1, dtype=np.uint8), np.diff(bounds))
    once = node_class[net.tail]
    once[flows >= net.cap] = 255
    with pytest.MonkeyPatch.context() as mp:
        _bucketing(mp, seed)
        _check_built_in_blocks(net, cost, flows, bounds, node_class, once, rng)


def _check_built_in_blocks(
    net: StringHubNetwork,
    cost: np.ndarray,
    flows: np.ndarray,
    bounds: np.ndarray,
    node_class: np.ndarray,
    once: np.ndarray,
    rng: np.random.Generator,
) -> None:
    """The residual network built, and built again in blocks of a few arcs, checked."""
    built = sweeps.build_residual(net.tail, net.head, cost, flows, net.cap, bounds)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sweeps, "BUILD_BLOCK", int(rng.integers(1, 8)))
        mp.setattr(sweeps, "FILL_BLOCK", int(rng.integers(1, 8)))
        blocks = sweeps._arc_classes(node_class, net.tail, flows, net.cap)
        again = sweeps.build_residual(net.tail, net.head, cost, flows, net.cap, bounds)
    assert blocks.tolist() == once.tolist()
    # Each class: its forward arcs in arc id order, then the reverse arcs of those with flow
    # (grouped by their head's bucket, stably, in the classes by head).
    for c, arcs in enumerate(built.classes):
        fwd = np.flatnonzero(once == c)
        bwd = np.flatnonzero((flows > 0) & (node_class[net.head] == c))
        tails = np.concatenate([net.tail[fwd], net.head[bwd]]).astype(np.int64)
        heads = np.concatenate([net.head[fwd], net.tail[bwd]])
        names = np.concatenate([fwd, bwd | sweeps.REVERSE])
        want = (tails << 32) | names
        if arcs.indptr is not None:
            want = np.sort(want, kind="stable")
        else:  # grouped by their head's bucket
            shift = sweeps.head_shift(net.num_nodes)
            assert arcs.starts is not None and arcs.shift == shift
            order = np.argsort(heads >> shift, kind="stable")
            want, heads = want[order], heads[order]
            count = np.bincount(heads >> shift, minlength=arcs.starts.shape[0] - 1)
            assert arcs.starts.tolist() == [0, *np.cumsum(count).tolist()]
            assert arcs.heads.tolist() == heads.tolist()
        assert arcs.keys.tolist() == want.tolist()
    for a, b in zip(built.classes, again.classes, strict=True):
        assert (a.lo, a.hi, a.ordered) == (b.lo, b.hi, b.ordered)
        assert a.keys.tolist() == b.keys.tolist() and a.heads.tolist() == b.heads.tolist()
        assert a.costs.tolist() == b.costs.tolist() and a.costs.dtype == b.costs.dtype
        assert (a.indptr is None) == (b.indptr is None)
        if a.indptr is not None and b.indptr is not None:
            assert a.indptr.tolist() == b.indptr.tolist()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-(2**40), 2**40), max_size=40), st.sampled_from([np.int32, np.int64]))
def test_distinct_values_are_numpys_unique(values: list[int], dtype: type) -> None:
    # Any values, repeated or not, in 32 or 64 bits: the sort-based distinct values are
    # np.unique's, in their type.
    x: np.ndarray = np.array(values, dtype=np.int64).astype(dtype)
    got = sorting.distinct(x)
    assert got.dtype == x.dtype and got.tolist() == np.unique(x).tolist()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 50), max_size=60))
def test_hops_counted_by_a_sort_are_the_counts_of_every_arc(arcs: list[int]) -> None:
    # Any arcs, repeated or not: the distinct arcs and their counts are np.unique's.
    x = np.array(arcs, dtype=np.int64)
    used, counts = sorting.distinct_counts(x)
    want, want_counts = np.unique(x, return_counts=True)
    assert used.tolist() == want.tolist() and counts.tolist() == want_counts.tolist()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(-(2**31), 2**31 - 1), max_size=20), max_size=12))
def test_arrays_extended_again_and_again_are_the_parts_joined(parts: list[list[int]]) -> None:
    # Appended to a class's arrays one batch after another (in the buffer's room when it has
    # some, else in a new buffer with room to spare): always the batches joined, in order.
    got = np.zeros(0, dtype=np.int64)
    want: list[int] = []
    for part in parts:
        got = _extended(got, np.array(part, dtype=np.int64))
        want += part
        assert got.tolist() == want and got.dtype == np.int64


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=60))
def test_balances_counted_by_a_sort_are_those_of_every_node(hops: list[tuple[int, int]]) -> None:
    # Any hops (repeated, loops, nodes only left or only entered): the nodes of nonzero balance
    # and their balances are the nonzero entries of the counts of every node.
    tails = np.array([t for t, _ in hops], dtype=np.int32)
    heads = np.array([h for _, h in hops], dtype=np.int32)
    want = np.bincount(tails, minlength=31) - np.bincount(heads, minlength=31)
    nodes, units = assignment._balances(tails, heads)
    assert nodes.tolist() == np.flatnonzero(want).tolist()
    assert units.tolist() == want[want != 0].tolist()
