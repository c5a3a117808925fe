"""A flow held as its support, read as the whole array; the greedy proof's iterate so held
decodes, costs and certifies as the whole array does."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.exact.flow_steps import flow_cost
from cpwords.wordsnake.relaxation import sparse_flow
from cpwords.wordsnake.relaxation.assignment import route_successors, route_support
from cpwords.wordsnake.relaxation.compact_caps import CompactCaps
from cpwords.wordsnake.relaxation.decode import decode_flow, greedy_successors
from cpwords.wordsnake.relaxation.flow import solve_flow
from cpwords.wordsnake.relaxation.sparse_flow import (
    SparseFlow,
    dense_flows,
    flow_support,
)
from cpwords.wordsnake.relaxation.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(st.just(0), st.integers(0, 3), st.integers(0, 2**31 - 1)), max_size=60),
    st.sampled_from([np.int32, np.int64]),
    st.integers(1, 7),
    st.booleans(),
    st.data(),
)
def test_sparse_flow_reads_as_the_array(
    values: list[int], dtype: type, block: int, compact: bool, data: st.DataObject
) -> None:
    # Any flows (many zeros, some large), gathered a few arcs at a time from an array or from
    # its compact form: every slice, pick of arcs (repeats, any order) and mask reads the
    # original values in the original type; the whole array made again is the original, and
    # the support is the arcs with flow, ascending.
    flows: np.ndarray = np.array(values, dtype=dtype)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sparse_flow, "SUPPORT_BLOCK", block)
        held = SparseFlow.of(CompactCaps(flows, np.int8) if compact else flows)
    assert SparseFlow.of(held) is held
    for whole in (held.full(), held.copy(), np.asarray(held), dense_flows(held)):
        assert whole.dtype == flows.dtype and np.array_equal(whole, flows)
    assert dense_flows(flows) is flows
    arcs, units = flow_support(held)
    ref_arcs, ref_units = flow_support(flows)
    assert np.array_equal(arcs, np.flatnonzero(flows)) and np.array_equal(arcs, ref_arcs)
    assert np.array_equal(units, flows[arcs]) and np.array_equal(ref_units, units)
    m = flows.size
    lo = data.draw(st.integers(0, m))
    hi = data.draw(st.integers(lo, m))
    got = held[lo:hi]
    assert got.dtype == flows.dtype and np.array_equal(got, flows[lo:hi])
    assert np.array_equal(held[lo:hi:2], flows[lo:hi:2])
    if m:
        pick = np.array(data.draw(st.lists(st.integers(0, m - 1), max_size=20)), dtype=np.int64)
        assert held[pick].dtype == flows.dtype and np.array_equal(held[pick], flows[pick])
        mask = np.array(data.draw(st.lists(st.booleans(), min_size=m, max_size=m)))
        assert np.array_equal(held[mask], flows[mask])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text(alphabet="abc", min_size=1, max_size=5), min_size=2, max_size=10),
    st.booleans(),
)
def test_support_decodes_and_costs_as_the_array(words: list[str], cyclic: bool) -> None:
    # An optimal flow of any small list: its support decodes to the same successors and
    # components and costs the same as the whole array.
    net = build_string_network(WordsnakeInstance(tuple(words), cyclic=cyclic))
    cost = -net.weight.astype(np.int64)
    flows, opt = solve_flow(net, cost)
    held = SparseFlow.of(flows)
    assert flow_cost(cost, held) == flow_cost(cost, flows) == opt
    a, b = decode_flow(net, flows), decode_flow(net, held)
    assert np.array_equal(a.succ, b.succ) and np.array_equal(a.comp, b.comp)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text(alphabet="abc", min_size=1, max_size=5), min_size=2, max_size=12),
    st.booleans(),
    st.booleans(),
)
def test_routed_support_is_the_routed_flows(words: list[str], cyclic: bool, proper: bool) -> None:
    # The greedy's joints routed as a support are the routed flow's arcs and units.
    net = build_string_network(WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper))
    greedy = greedy_successors(net)
    whole, held = route_successors(net, greedy), route_support(net, greedy)
    assert (whole is None) == (held is None)
    if whole is not None and held is not None:
        ref = SparseFlow.of(whole)
        assert np.array_equal(held.arcs, ref.arcs) and np.array_equal(held.units, ref.units)
        assert held.dtype == whole.dtype and np.array_equal(held.full(), whole)
