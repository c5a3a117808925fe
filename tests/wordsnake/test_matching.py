"""The greedy assignment's compiled matching against the Python loop it replaced."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.relaxation import decode, matching
from cpwords.wordsnake.relaxation.decode import item_copies
from cpwords.wordsnake.relaxation.flow import FlowStopped
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork, build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance


def _free_from(nxt: list[int], i: int) -> int:
    root = i
    while nxt[root] != root:
        root = nxt[root]
    while nxt[i] != root:
        nxt[i], i = root, nxt[i]
    return root


def _match_longest_first(
    net: StringHubNetwork,
    candidates: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    depth: np.ndarray,
    slot_start: np.ndarray,
    slot_item: list[int],
    nxt: list[int],
    pending: list[list[int]],
    succ: list[int],
    handover: list[int],
    deadline: float | None,
    by_string: dict[int, list[int]],
) -> None:
    """Match each free exit to the first free entry below its candidate strings, longest
    first; fills ``succ``, ``handover`` and ``by_string`` (the units matched at each string;
    consistent when :class:`FlowStopped` ends it at the deadline)."""
    hw, hs, lo_word, hi_word = candidates
    free_from = _free_from
    # Read in chunks: four whole lists of Python ints (one per candidate) held 160 MB at once on
    # ENABLE, the peak of the whole solve.
    chunk = 1 << 15
    chunks = (
        item
        for at in range(0, int(hw.size), chunk)
        for item in zip(
            hw[at : at + chunk].tolist(), hs[at : at + chunk].tolist(),
            lo_word[at : at + chunk].tolist(), hi_word[at : at + chunk].tolist(), strict=True,
        )
    )  # fmt: skip
    for count, (w, s, lo, hi) in enumerate(chunks):
        if not count & 0x3FFF and deadline is not None and time.perf_counter() >= deadline:
            raise FlowStopped
        units = pending[w]
        if not units or lo >= hi:
            continue
        d = int(depth[s])
        a, b = int(slot_start[lo]), int(slot_start[hi])
        while units:
            slot = free_from(nxt, a)
            if slot >= b:
                break
            item = slot_item[slot]
            if net.item_word[item] == w and item == units[-1]:
                # never the same item; try the next free slot
                nxt_slot = free_from(nxt, slot + 1)
                if nxt_slot >= b:
                    break
                slot, item = nxt_slot, slot_item[nxt_slot]
            u = units.pop()
            succ[u] = item
            handover[u] = d
            nxt[slot] = slot + 1
            by_string.setdefault(s, []).append(u)


def _inputs(net: StringHubNetwork) -> tuple[list[list[int]], np.ndarray, list[int], np.ndarray]:
    W = net.num_words
    copies = item_copies(net)
    slot_start = np.zeros(W + 1, dtype=np.int64)
    np.cumsum(net.mult, out=slot_start[1:])
    return (
        copies,
        slot_start,
        [i for w in range(W) for i in copies[w]],
        net.trie.depth.astype(np.int64),
    )


def reference(
    net: StringHubNetwork,
) -> tuple[list[int], list[int], dict[int, list[int]], list[list[int]]]:
    """The matching as the Python loop made it (cpwords before the array core)."""
    copies, slot_start, slot_item, depth = _inputs(net)
    cand = decode._handover_candidates(net.trie, net.num_words, net.instance.proper, depth)
    succ, handover = [-1] * (net.instance.n + 1), [0] * (net.instance.n + 1)
    by_string: dict[int, list[int]] = {}
    nxt = list(range(len(slot_item) + 1))
    pending = [list(c) for c in copies]
    _match_longest_first(
        net, cand, depth, slot_start, slot_item, nxt, pending, succ, handover, None, by_string
    )
    return succ, handover, by_string, pending


def compiled(
    net: StringHubNetwork, chunk: int
) -> tuple[list[int], list[int], dict[int, list[int]], list[list[int]]]:
    """The same through :class:`~cpwords.wordsnake.relaxation.matching.GreedyMatching`."""
    copies, slot_start, slot_item, depth = _inputs(net)
    cand = decode._handover_candidates(net.trie, net.num_words, net.instance.proper, depth)
    m = matching.GreedyMatching(copies, slot_start, np.array(slot_item), net.item_word)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(matching, "CHUNK", chunk)
        m.run(np.stack(cand, axis=1), depth, None)
    succ, handover = [-1] * (net.instance.n + 1), [0] * (net.instance.n + 1)
    by_string = decode._record_matches(m.matches(), succ, handover)
    return succ, handover, by_string, m.pending()


words_st = st.lists(st.text(alphabet="abc", min_size=1, max_size=6), min_size=2, max_size=12)
chunks = st.sampled_from([1, 3, 1 << 16])


@settings(max_examples=150, deadline=None)
@given(words=words_st, cyclic=st.booleans(), proper=st.booleans(), chunk=chunks)
def test_the_compiled_matching_makes_the_python_loops_matches(
    words: list[str], cyclic: bool, proper: bool, chunk: int
) -> None:
    """Same successors, hand-overs, groups (in order) and free exits, on lists with repeated
    words and words inside others, whatever the chunks."""
    net = build_string_network(WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper))
    assert compiled(net, chunk) == reference(net)


def test_a_deadline_between_chunks_keeps_the_matches_made() -> None:
    words = tuple(f"{a}{b}{c}" for a in "abc" for b in "abc" for c in "abc")
    net = build_string_network(WordsnakeInstance(words))
    m = matching.GreedyMatching(
        item_copies(net),
        np.concatenate([[0], np.cumsum(net.mult)]),
        np.array([i for c in item_copies(net) for i in c]),
        net.item_word,
    )
    depth = net.trie.depth.astype(np.int64)
    cand = np.stack(decode._handover_candidates(net.trie, net.num_words, False, depth), axis=1)
    with pytest.raises(FlowStopped):
        m.run(cand, depth, time.perf_counter() - 1.0)
    assert m.matches().shape == (0, 4)
    m.run(cand, depth, None)
    assert m.matches().shape[0] > 0
    assert sum(map(len, m.pending())) == net.instance.n - m.matches().shape[0]
