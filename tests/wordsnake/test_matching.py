"""The greedy assignment's compiled matching against the Python loop (small lists keep the
loop: no compiler to load)."""

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
    decode._match_longest_first(
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
