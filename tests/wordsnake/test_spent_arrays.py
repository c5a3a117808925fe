"""Arrays given back as they are read: the network's ends and weights while the greedy proof's
residual network is built from them, and a class of that network while the ends are made
again from it (:func:`cpwords.core.pages.drop_pages`)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from cpwords.core import pages
from cpwords.wordsnake.relaxation import assignment, released_ends, sweeps
from cpwords.wordsnake.relaxation.assignment import Reoptimizer, route_successors
from cpwords.wordsnake.relaxation.decode import greedy_successors
from cpwords.wordsnake.relaxation.released_ends import spendable
from cpwords.wordsnake.relaxation.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="madvise (Linux)")


@linux
def test_dropped_pages_are_the_whole_pages_inside_the_stretch() -> None:
    page = pages.mmap.PAGESIZE
    a = np.arange(1, 1 + (1 << 20), dtype=np.int32)
    lo, hi = 1000, 300_000
    dropped = pages.drop_pages(a, lo, hi)
    start = -(-(a.ctypes.data + 4 * lo) // page) * page
    stop = (a.ctypes.data + 4 * hi) // page * page
    assert dropped == stop - start > 0
    first, last = (start - a.ctypes.data) // 4, (stop - a.ctypes.data) // 4
    assert (a[first:last] == 0).all()  # fresh pages
    want = np.arange(1, 1 + (1 << 20), dtype=np.int32)
    assert np.array_equal(a[:first], want[:first]) and np.array_equal(a[last:], want[last:])
    assert pages.drop_pages(a, 5, 6) == 0  # within one page: kept
    b = np.arange(10_000, dtype=np.int64)[::2]
    assert pages.drop_pages(b, 0, b.shape[0]) == 0  # not contiguous: nothing done


@linux
def test_an_array_in_small_pages_holds_what_is_written() -> None:
    a = np.empty(1 << 21, dtype=np.int64)
    assert pages.small_pages(a) > 0
    a[:] = np.arange(a.shape[0])
    assert int(a.sum()) == (a.shape[0] - 1) * a.shape[0] // 2


def test_only_arrays_the_network_alone_holds_are_spendable() -> None:
    net = build_string_network(WordsnakeInstance(("abc", "bcd", "cde", "dea")))
    spent = spendable(net, True)
    assert len(spent) == 3
    assert all(a is b for a, b in zip(spent, (net.tail, net.head, net.weight), strict=True))
    del spent
    held = net.head
    assert [a is net.tail for a in spendable(net)] == [True]
    del held
    assert len(spendable(net)) == 2


def _words(n: int, seed: int) -> tuple[str, ...]:
    rng = np.random.default_rng(seed)
    letters = np.array(list("acgt"))
    return tuple("".join(rng.choice(letters, int(rng.integers(4, 9)))) for _ in range(n))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_greedy_proof_that_spends_the_networks_arrays_is_the_one_that_keeps_them(
    seed: int,
) -> None:
    # Lists large enough that the ends span many pages, built a few arcs at a time: the
    # residual network's build gives the network's ends and weights back (their pages
    # zeroed), the sweeps and cycles go on, and the arrays made again after are the network's
    # own; the flow and potentials are those of a proof on a network that keeps them.
    inst = WordsnakeInstance(_words(1500, seed), cyclic=seed == 2)
    net = build_string_network(inst)
    keep = build_string_network(inst)
    want_ends = (net.tail.copy(), net.head.copy(), net.weight.copy())
    flows = route_successors(net, greedy_successors(net))
    assert flows is not None
    dropped: list[int] = []

    def drop(array: np.ndarray, lo: int, hi: int) -> int:
        dropped.append(pages.drop_pages(array, lo, hi))
        return dropped[-1]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sweeps, "FILL_BLOCK", 1024)
        mp.setattr(released_ends, "SCATTER_BLOCK", 1024)
        mp.setattr(sweeps, "drop_pages", drop)
        mp.setattr(assignment, "GIVE_BACK_ARCS", 0)  # spent on networks of any size
        got = Reoptimizer(net, flows.copy())
        pi = got.settle(None, max_rounds=10_000, max_cycles=10_000, release=True)
    ref = Reoptimizer(keep, flows.copy())
    want_pi = ref.settle(None, max_rounds=10_000, max_cycles=10_000)
    if sys.platform.startswith("linux"):
        assert sum(dropped) > 0  # pages were given back
    for a, b in zip((net.tail, net.head, net.weight), want_ends, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert np.array_equal(got.flows, ref.flows) and got.cycles == ref.cycles
    assert pi is not None and want_pi is not None and np.array_equal(pi, want_pi)
