"""Candidates placed by a stable sort a block at a time, as the whole sort places them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.relaxation import decode, level_matching, sorting
from cpwords.wordsnake.relaxation.sorting import stable_order_small, stable_places


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=80), st.integers(1, 9))
def test_places_and_order_are_the_stable_sorts(keys: list[int], block: int) -> None:
    # Any small keys, placed a few at a time: each item goes where the stable sort puts it,
    # and the order made so is the stable sort's.
    k = np.array(keys, dtype=np.int64)
    top = max(keys, default=0)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sorting, "PLACE_BLOCK", block)
        places = stable_places(lambda lo, hi: k[lo:hi], k.size, top)
        small = stable_order_small(lambda lo, hi: k[lo:hi], k.size, top)
    order = np.argsort(k, kind="stable")
    assert places.dtype == np.int32 and small.dtype == np.int32
    assert np.array_equal(places[order], np.arange(k.size))
    assert np.array_equal(small, order)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 50), st.integers(0, 9)), min_size=1, max_size=60),
    st.integers(0, 60),
    st.integers(1, 9),
)
def test_deepest_first_as_the_whole_sort(
    cand: list[tuple[int, int]], full: int, block: int
) -> None:
    # Candidates (word, string node) on nodes of any depths: sorted deepest first, stably,
    # with the first ``full`` marked, as a 64-bit stable argsort of the negated depths gives;
    # their depths gathered in blocks are theirs, in a narrow type.
    depth = np.arange(10, dtype=np.int32)[::-1].copy()  # node v at depth 9 - v
    hw = np.array([c[0] for c in cand], dtype=np.int32)
    hs = np.array([c[1] for c in cand], dtype=np.int32)
    full = min(full, hw.size)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sorting, "PLACE_BLOCK", block)
        mp.setattr(level_matching, "DEPTH_BLOCK", block)
        columns = [hw, hs]
        strict = decode._deepest_first(depth, columns, full)
        got_w, got_s = columns
        d = level_matching._depths(depth, got_s)
    order = np.argsort(-depth[hs].astype(np.int64), kind="stable")
    assert np.array_equal(got_w, hw[order]) and np.array_equal(got_s, hs[order])
    assert np.array_equal(strict, order < full)
    assert d.dtype == np.int8 and np.array_equal(d, depth[got_s])
