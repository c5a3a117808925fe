"""Held narrow, read as before: the decoded representatives, the settled potentials."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.relaxation.decode import decode_flow
from cpwords.wordsnake.relaxation.flow import solve_flow
from cpwords.wordsnake.relaxation.int_types import narrowed
from cpwords.wordsnake.relaxation.node_reps import NodeReps
from cpwords.wordsnake.relaxation.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(st.just(-1), st.integers(0, 2**31 - 2)), max_size=80),
    st.sampled_from([np.int32, np.int64]),
)
def test_node_reps_read_as_the_array(values: list[int], dtype: type) -> None:
    # Any array of items and -1s: held as its other entries (ascending, no -1 among them)
    # and made again, it is the original, values and type.
    full: np.ndarray = np.array(values, dtype=dtype)
    reps = NodeReps.of(full)
    assert reps.size == full.size
    assert (np.diff(reps.nodes) > 0).all()
    assert (reps.items != -1).all()
    assert reps.nodes.size == int((full != -1).sum())
    again = reps.array()
    assert again.dtype == full.dtype
    assert again.tolist() == full.tolist()
    assert again is not reps.array()  # each call a new array (the caller may write it)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(st.just(-1), st.integers(0, 99)), min_size=1, max_size=40),
    st.data(),
    st.sampled_from([np.int32, np.int64]),
)
def test_node_reps_written_as_the_array_would_be(
    values: list[int], data: st.DataObject, dtype: type
) -> None:
    # Some nodes written, then a run of nodes over them (a -1 among either): held as the
    # array so written would be by ``of``, made without it.
    size = len(values)
    nodes = sorted(data.draw(st.sets(st.integers(0, size - 1))))
    lo = data.draw(st.integers(0, size))
    over = data.draw(st.lists(st.one_of(st.just(-1), st.integers(0, 99)), max_size=size - lo))
    full: np.ndarray = np.full(size, -1, dtype=dtype)
    full[nodes] = np.array(values)[nodes]
    full[lo : lo + len(over)] = over
    want = NodeReps.of(full)
    got = NodeReps.written(
        size,
        dtype,
        np.array(nodes, dtype=np.int64),
        np.array(values, dtype=np.int64)[nodes],
        (lo, np.array(over, dtype=np.int64)),
    )
    assert got.size == want.size
    assert got.nodes.dtype == want.nodes.dtype and got.items.dtype == want.items.dtype
    assert got.nodes.tolist() == want.nodes.tolist()
    assert got.items.tolist() == want.items.tolist()


@given(st.integers(0, 50), st.sampled_from([np.int32, np.int64]))
def test_no_node_reps_read_as_all_minus_one(size: int, dtype: type) -> None:
    got = NodeReps.none(size, dtype).array()
    assert got.dtype == dtype
    assert got.tolist() == [-1] * size


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text("abc", min_size=1, max_size=4), min_size=2, max_size=9),
    st.booleans(),
)
def test_a_decoded_flow_keeps_only_the_nodes_with_a_representative(
    words: list[str], cyclic: bool
) -> None:
    # The held entries are exactly the nodes the whole array names an item for; every word
    # node is among them (its word's first item).
    net = build_string_network(WordsnakeInstance(tuple(words), cyclic=cyclic))
    flows, _ = solve_flow(net, -net.weight.astype(np.int64))
    reps = decode_flow(net, flows).node_rep
    full = reps.array()
    assert full.size == net.num_nodes
    assert reps.nodes.tolist() == np.flatnonzero(full >= 0).tolist()
    W = net.num_words
    for base in (net.out_base, net.in_base):
        assert (full[base : base + W] >= 0).all()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(st.integers(-(2**31), 2**31 - 1), st.integers(-(2**63), 2**63 - 1)),
        max_size=40,
    ),
    st.sampled_from([np.int32, np.int64]),
)
def test_narrowed_values_are_the_values(values: list[int], dtype: type) -> None:
    # Potentials held narrow (the greedy proof's, through the repair and the certificate):
    # 32 bits exactly when every value fits, the same values either way.
    arr: np.ndarray = np.array(
        [v for v in values if dtype == np.int64 or -(2**31) <= v < 2**31], dtype=dtype
    )
    got = narrowed(arr)
    fits = all(-(2**31) <= v < 2**31 for v in arr.tolist())
    assert got.dtype == (np.int32 if fits else np.int64)
    assert got.tolist() == arr.tolist()
    if dtype == np.int64 and fits:
        assert got is not arr  # a copy: the wide array may be let go
