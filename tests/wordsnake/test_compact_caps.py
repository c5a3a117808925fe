"""A network's capacities held narrow, and a greedy proof's flow, read as the arrays."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.relaxation import compact_caps
from cpwords.wordsnake.relaxation.assignment import Reoptimizer, route_successors
from cpwords.wordsnake.relaxation.compact_caps import CompactCaps, compacted_flows
from cpwords.wordsnake.relaxation.decode import greedy_successors
from cpwords.wordsnake.relaxation.flow import solve_flow
from cpwords.wordsnake.relaxation.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance

from .sweeps_reference import reference_settle


def _repeated_words(max_copies: int, min_size: int) -> st.SearchStrategy[list[tuple[str, int]]]:
    """Lists of short words over ``ab``, each listed 1 to ``max_copies`` times."""
    word = st.text(alphabet="ab", min_size=1, max_size=4)
    return st.lists(st.tuples(word, st.integers(1, max_copies)), min_size=min_size, max_size=6)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(st.integers(0, 3), st.integers(0, 2**31 - 1)), max_size=60),
    st.sampled_from([np.int32, np.int64]),
    st.sampled_from([np.int8, np.int16]),
    st.integers(1, 7),
    st.data(),
)
def test_compact_capacities_read_as_the_array(
    values: list[int], dtype: type, narrow: type, block: int, data: st.DataObject
) -> None:
    # Any capacities (most small, some past the narrow type), built and read a few arcs at a
    # time: every slice and every pick of arcs (repeats, any order) reads the original values
    # in the original type, and the array made again is the original.
    cap: np.ndarray = np.array(values, dtype=dtype)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compact_caps, "CAP_BLOCK", block)
        compact = CompactCaps(cap, narrow)
        full = compact.full()
    assert full.dtype == cap.dtype and np.array_equal(full, cap)
    m = cap.size
    lo = data.draw(st.integers(0, m))
    hi = data.draw(st.integers(lo, m))
    got = compact[lo:hi]
    assert got.dtype == cap.dtype and np.array_equal(got, cap[lo:hi])
    if m:
        arcs = np.array(data.draw(st.lists(st.integers(0, m - 1), max_size=20)), dtype=np.int64)
        assert np.array_equal(compact[arcs], cap[arcs]) and compact[arcs].dtype == cap.dtype
    kind = CompactCaps.narrow_type(cap)
    over8 = int((cap > 127).sum())
    if cap.dtype.itemsize > 1 and over8 <= compact_caps.EXCEPTION_SHARE * m:
        assert kind is np.int8


@settings(max_examples=60, deadline=None)
@given(
    _repeated_words(max_copies=300, min_size=1),
    st.booleans(),
    st.booleans(),
    st.sampled_from([0.0, 1 / 16, 1.0]),
)
def test_the_networks_capacities_held_narrow_read_as_built_whole(
    copies: list[tuple[str, int]], cyclic: bool, proper: bool, share: float
) -> None:
    # Words listed up to 300 times (capacities past int8's 127: the split arcs', a repeated
    # word's copies), capacities held in 8 bits with any share of them aside, in 16, or whole
    # (no narrow type allowed): every arc reads the same capacity, in the same type.
    inst = WordsnakeInstance(tuple(w for w, k in copies for _ in range(k)), cyclic, proper)
    if inst.n < 2:
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compact_caps, "EXCEPTION_SHARE", -1.0)  # no narrow type pays: int32 whole
        whole = build_string_network(inst).cap
        mp.setattr(compact_caps, "EXCEPTION_SHARE", share)
        net = build_string_network(inst)
    want = whole.full()
    assert whole._narrow.dtype == want.dtype == np.int32 and whole._ids.size == 0
    assert net.cap.shape == want.shape and net.cap.dtype == want.dtype
    assert net.cap.full().dtype == want.dtype and np.array_equal(net.cap.full(), want)
    assert np.array_equal(net.cap[0 : want.size], want)
    assert np.array_equal(net.cap[want > 1], want[want > 1])
    assert np.array_equal(np.asarray(net.cap), want)
    if share == 1.0:
        assert net.cap._narrow.dtype == np.int8
        assert net.cap._ids.tolist() == np.flatnonzero(want > 127).tolist()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(st.integers(0, 3), st.integers(0, 2**20)), min_size=1, max_size=60),
    st.sampled_from([np.int8, np.int16]),
    st.lists(
        st.tuples(st.lists(st.integers(0, 59), max_size=6), st.integers(-300, 300)), max_size=8
    ),
)
def test_a_compact_flow_changes_as_the_array(
    values: list[int], narrow: type, pushes: list[tuple[list[int], int]]
) -> None:
    # A flow held narrow, changed a few arcs at a time as a cancelled cycle changes it (arcs
    # repeated, values crossing the narrow type's largest both ways): it reads as the array
    # changed by numpy.add.at, and is made again equal to it.
    want = np.array(values, dtype=np.int32)
    compact = CompactCaps(want.copy(), narrow)
    for picks, delta in pushes:
        arcs = np.array([p % want.size for p in picks], dtype=np.int64)
        moved = want.astype(np.int64)
        np.add.at(moved, arcs, delta)
        if (moved < 0).any() or (moved > 2**31 - 1).any():
            continue  # a flow stays within its capacities
        np.add.at(want, arcs, delta)
        compact.add_at(arcs, delta)
        assert np.array_equal(compact[0 : want.size], want)
        assert np.array_equal(compact[arcs], want[arcs])
    full = compact.full()
    assert full.dtype == want.dtype and np.array_equal(full, want)


def test_a_flow_held_narrow_is_given_back_changed() -> None:
    # 300 copies of a word: its arcs carry up to 299 units, past int8's 127 (left aside).
    class Holder:
        units = np.array([0, 1, 299, 5, 127, 128] * 10, dtype=np.int32)

    holder = Holder()
    want = holder.units.copy()
    with compacted_flows(holder) as flows:
        assert isinstance(flows, CompactCaps) and holder.units is flows
        flows.add_at(np.array([0, 2, 2, 3]), 1)
        flows.add_at(np.array([2, 5]), -100)
    np.add.at(want, [0, 2, 2, 3], 1)
    np.add.at(want, [2, 5], -100)
    assert isinstance(holder.units, np.ndarray) and np.array_equal(holder.units, want)


@settings(max_examples=40, deadline=None)
@given(
    _repeated_words(max_copies=400, min_size=2),
    st.booleans(),
    st.integers(0, 2**31 - 1),
)
def test_a_greedy_proof_with_its_flow_held_narrow_is_the_references(
    copies: list[tuple[str, int]], cyclic: bool, seed: int
) -> None:
    # Words listed up to 400 times (arcs carrying past int8's 127 units, left aside while the
    # flow is held narrow), the greedy's flow or an optimal one: the greedy proof (the ends,
    # weights, capacities and flow let go or held narrow meanwhile) cancels the reference's
    # cycles, ends with its flow and proves its labels; the flow is an array again after.
    inst = WordsnakeInstance(tuple(w for w, k in copies for _ in range(k)), cyclic)
    if len(set(inst.words)) < 2:
        return
    net = build_string_network(inst)
    rng = np.random.default_rng(seed)
    flows = route_successors(net, greedy_successors(net))
    if flows is None or rng.random() < 0.3:
        flows, _ = solve_flow(net, -net.weight)
    want_flows = flows.copy()
    want, cycles, rounds = reference_settle(
        net, -net.weight, want_flows, max_rounds=10_000, max_cycles=10_000
    )
    reopt = Reoptimizer(net, flows)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compact_caps, "EXCEPTION_SHARE", 1.0)  # 8 bits, whatever is left aside
        got = reopt.settle(None, max_rounds=10_000, max_cycles=10_000, release=True)
    assert isinstance(reopt.units, np.ndarray) and reopt.flows.dtype == want_flows.dtype
    assert np.array_equal(reopt.flows, want_flows)
    assert (reopt.cycles, reopt.rounds) == (cycles, rounds)
    assert got is not None and want is not None and np.array_equal(got, want)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(0, 40),
    st.integers(0, 3),
    st.lists(st.integers(0, 2**20), max_size=5),
    st.data(),
)
def test_capacities_of_one_value_held_as_it(
    m: int, value: int, bigs: list[int], data: st.DataObject
) -> None:
    # A narrow column of one value (most arcs' capacity 1, a few large ones aside) reads as
    # the array; a write makes it whole first, then reads as the array written.
    cap = np.full(m, value, dtype=np.int32)
    ids = np.array(sorted(set(data.draw(st.lists(st.integers(0, max(m - 1, 0)), max_size=5)))))
    ids = ids[ids < m].astype(np.int64)
    big = np.array((bigs * 5)[: ids.size] or [0] * ids.size, dtype=np.int32) + 200
    cap[ids] = big
    narrow = np.minimum(cap, 127).astype(np.int8)
    held = CompactCaps.held(narrow, ids, cap[ids], np.dtype(np.int32))
    assert np.array_equal(held.full(), cap) and np.array_equal(held[0:m], cap)
    if m > ids.size:  # one value on the arcs not aside: no column held
        assert held._narrow.strides == (0,)
    if m:
        pick = np.array(data.draw(st.lists(st.integers(0, m - 1), max_size=10)), dtype=np.int64)
        assert np.array_equal(held[pick], cap[pick])
        arc = data.draw(st.integers(0, m - 1))
        held.put(np.array([arc]), np.array([5]))
        cap[arc] = 5
        assert np.array_equal(held.full(), cap)
