"""The memory-lean passes (a sort for repeated keys, counts and sums a block at a time, the
residual costs' narrow type) against the whole-array passes they replace."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.primal import repair
from cpwords.wordsnake.relaxation import decode, dual_certificate, sweeps
from cpwords.wordsnake.relaxation.sorting import stable_order

keys_st = st.lists(st.integers(0, 40), max_size=200)


@settings(max_examples=200, deadline=None)
@given(keys=keys_st)
def test_repeated_keys_as_the_count_of_every_node_found_them(keys: list[int]) -> None:
    k = np.array(keys, dtype=np.int64)
    several = np.flatnonzero(np.bincount(k, minlength=41)[k] > 1)
    assert decode._repeated(k).tolist() == several[stable_order(k[several])].tolist()


@settings(max_examples=200, deadline=None)
@given(
    keys=keys_st,
    block=st.sampled_from([1, 3, 64, 1 << 23]),
    values=st.sampled_from([1, 5, 40, 41, 1 << 22]),
    start=st.lists(st.integers(0, 9), min_size=41, max_size=41),
)
def test_counts_a_block_at_a_time(
    keys: list[int], block: int, values: int, start: list[int]
) -> None:
    # Blocks of records and of values (the last one short or not), added to the counts there.
    k = np.array(keys, dtype=np.int32)
    out = np.array(start, dtype=np.int32)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(repair, "COUNT_BLOCK", block)
        mp.setattr(repair, "VALUE_BLOCK", values)
        repair._count_into(k, out)
    assert out.tolist() == (np.bincount(k, minlength=41) + start).tolist()
    assert k.tolist() == keys  # the records are left as they were


@settings(max_examples=100, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.integers(-5, 5), st.integers(-(2**40), 2**40)), max_size=100),
    block=st.sampled_from([1, 7, 1 << 16]),
)
def test_the_supply_value_a_block_at_a_time(pairs: list[tuple[int, int]], block: int) -> None:
    supply = np.array([s for s, _ in pairs], dtype=np.int32)
    pi = np.array([p for _, p in pairs], dtype=np.int64)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dual_certificate, "REPAIR_BLOCK", block)
        assert dual_certificate._supply_value(supply, pi) == int((supply * pi).sum())


@pytest.mark.parametrize(
    ("top", "dtype"),
    [(0, np.int8), (127, np.int8), (128, np.int16), (2**15, np.int32), (2**29, np.int64)],
)
def test_the_costs_type_holds_them_and_their_negation(top: int, dtype: type) -> None:
    got = sweeps.cost_type(top)
    assert got is dtype
    if got is not np.int64:
        assert np.iinfo(got).min < -top and top <= np.iinfo(got).max


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 2**31 - 1), st.integers(0, 9)),
        max_size=60,
    ),
    st.sampled_from([np.int8, np.int32, np.int64]),
    st.integers(0, 2**31 - 1),
)
def test_a_class_sorted_by_key_is_its_arcs_by_key(
    arcs: list[tuple[int, int, int]], ctype: type, seed: int
) -> None:
    # The keys sorted by value after the heads and costs are reordered (the order let go
    # first): the arrays a stable argsort applied to all three gives, and the CSR of the tails.
    rng = np.random.default_rng(seed)
    lo, hi = 3, 10
    keys = np.array([((lo + t) << 32) | name for t, name, _ in arcs], dtype=np.int64)
    heads = np.array([h for *_, h in arcs], dtype=np.int32)
    costs: np.ndarray = rng.integers(-100, 101, len(arcs)).astype(ctype)
    ca = sweeps.ClassArcs(lo, hi, keys.copy(), heads.copy(), costs.copy())
    ca.sort_by_key()
    order = np.argsort(keys, kind="stable")
    assert ca.keys.dtype == np.int64 and ca.keys.tolist() == keys[order].tolist()
    assert ca.heads.tolist() == heads[order].tolist()
    assert ca.costs.dtype == ctype and ca.costs.tolist() == costs[order].tolist()
    assert ca.indptr is not None and ca.starts is None
    tails = keys >> 32
    want = np.searchsorted(np.sort(tails), np.arange(lo, hi + 1))
    assert ca.indptr.tolist() == want.tolist()
