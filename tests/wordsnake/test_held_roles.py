"""A network's arc roles held by parts read as the array of them."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.relaxation.held_roles import HeldRoles

part = st.one_of(
    st.tuples(st.integers(0, 6), st.integers(0, 7)),  # arcs of one role
    st.lists(st.integers(0, 7), max_size=6).map(lambda r: (len(r), np.array(r, np.int8))),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(part, max_size=8), st.data())
def test_roles_held_by_parts_read_as_the_array(parts: list, data: st.DataObject) -> None:
    # Any parts (empty ones, one role for all, mixed roles): every slice, pick of arcs (any
    # order, repeats), mask, single arc and comparison reads what the array of roles gives.
    sizes = [k for k, _ in parts]
    roles = [r for _, r in parts]
    want = np.concatenate(
        [np.full(k, r, np.int8) if not isinstance(r, np.ndarray) else r for k, r in parts]
        or [np.zeros(0, np.int8)]
    )
    held = HeldRoles(sizes, roles)
    m = want.size
    assert held.shape == want.shape and held.dtype == want.dtype
    assert np.array_equal(np.asarray(held), want) and np.asarray(held).dtype == np.int8
    lo = data.draw(st.integers(0, m))
    hi = data.draw(st.integers(0, m))
    got = held[lo:hi]
    assert got.dtype == np.int8 and got.tolist() == want[lo:hi].tolist()
    assert held[lo:hi:2].tolist() == want[lo:hi:2].tolist()
    for r in range(8):
        assert (held == r).tolist() == (want == r).tolist()
        assert (held != r).tolist() == (want != r).tolist()
    if m:
        arcs = np.array(data.draw(st.lists(st.integers(0, m - 1), max_size=20)), dtype=np.int64)
        assert held[arcs].dtype == np.int8 and held[arcs].tolist() == want[arcs].tolist()
        mask = np.array(data.draw(st.lists(st.booleans(), min_size=m, max_size=m)))
        assert held[mask].tolist() == want[mask].tolist()
        one = data.draw(st.integers(0, m - 1))
        assert int(held[one]) == int(want[one])
