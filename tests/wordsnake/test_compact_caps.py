"""The capacities held narrow during a greedy proof read as the array they replace."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.relaxation import compact_caps
from cpwords.wordsnake.relaxation.compact_caps import CompactCaps, compacted_caps
from cpwords.wordsnake.relaxation.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance


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


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.text(alphabet="ab", min_size=1, max_size=4), min_size=2, max_size=8),
    st.booleans(),
)
def test_the_network_gets_its_capacities_back(words: list[str], cyclic: bool) -> None:
    # A network whose capacities are held narrow meanwhile: its holder reads the compact
    # ones, the network an empty array; after, both hold an array equal to the original.
    inst = WordsnakeInstance(tuple(words), cyclic)
    if len(set(inst.words)) < 2:
        return
    net = build_string_network(inst)
    want = net.cap.copy()

    class Holder:
        cap = net.cap

    holder = Holder()
    with compacted_caps(net, holder) as cap:
        assert isinstance(cap, CompactCaps) and holder.cap is cap
        assert net.cap.size == 0 and net.cap.dtype == want.dtype
        assert np.array_equal(cap[0 : want.size], want)
    assert net.cap is holder.cap
    assert net.cap.dtype == want.dtype and np.array_equal(net.cap, want)
