"""The greedy assignment's matching, a depth of strings at a time as array passes
(:mod:`cpwords.wordsnake.relaxation.level_matching`), against the loop it replaced: one
candidate at a time, each exit taking the first free entry below its string."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.relaxation import decode, level_matching
from cpwords.wordsnake.relaxation.decode import item_copies
from cpwords.wordsnake.relaxation.flow import FlowStopped
from cpwords.wordsnake.relaxation.level_matching import LevelMatching
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork, build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance

Matching = tuple[list[int], list[int], list[list[int]], list[int], list[int]]


def _inputs(net: StringHubNetwork) -> tuple[np.ndarray, list[int], np.ndarray]:
    copies = item_copies(net)
    slot_start = np.zeros(net.num_words + 1, dtype=np.int64)
    np.cumsum(net.mult, out=slot_start[1:])
    return slot_start, [i for c in copies for i in c], net.trie.depth.astype(np.int64)


Candidates = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _candidates(net: StringHubNetwork, depth: np.ndarray) -> Candidates:
    return decode._handover_candidates(net.trie, net.num_words, net.instance.proper, depth)


def reference(net: StringHubNetwork) -> Matching:
    """The matching as cpwords made it before the array core: candidate after candidate, a
    "next free" union-find over the entries (slots, the words in preorder)."""
    slot_start, slot_item, depth = _inputs(net)
    hw, hs, lo_word, hi_word = _candidates(net, depth)
    n = net.instance.n
    succ, handover = [-1] * (n + 1), [0] * (n + 1)
    nxt = list(range(len(slot_item) + 1))
    pending = [list(c) for c in item_copies(net)]
    by_string: dict[int, list[int]] = {}

    def free_from(i: int) -> int:
        while nxt[i] != i:
            i = nxt[i]
        return i

    rows = zip(hw.tolist(), hs.tolist(), lo_word.tolist(), hi_word.tolist(), strict=True)
    for w, s, lo, hi in rows:
        units = pending[w]
        a, b = int(slot_start[lo]), int(slot_start[hi])
        while units and lo < hi:
            slot = free_from(a)
            if slot >= b:
                break
            if slot_item[slot] == units[-1]:  # never its own entry
                slot = free_from(slot + 1)
                if slot >= b:
                    break
            u = units.pop()
            succ[u], handover[u] = slot_item[slot], int(depth[s])
            nxt[slot] = slot + 1
            by_string.setdefault(s, []).append(u)
    heads = [item for i, item in enumerate(slot_item) if nxt[i] == i]
    tails = [u for units in pending for u in units]
    groups = [units for units in by_string.values() if len(units) > 1]
    return succ, handover, groups, heads, tails


def by_levels(net: StringHubNetwork) -> Matching:
    """The same through :class:`LevelMatching`."""
    slot_start, slot_item, depth = _inputs(net)
    n = net.instance.n
    succ, handover = [-1] * (n + 1), [0] * (n + 1)
    word_node = net.trie.word_node.astype(np.int64)
    m = LevelMatching(word_node, slot_start, np.array(slot_item, dtype=np.int64), succ, handover)
    m.run(_candidates(net, depth), depth, None)
    heads, tails = m.free_ends()
    return succ, handover, m.groups, heads, tails


words_st = st.lists(st.text(alphabet="abc", min_size=1, max_size=6), min_size=2, max_size=16)
small_depths = st.sampled_from([0, 1, 3, 64])


@settings(max_examples=300, deadline=None)
@given(words=words_st, cyclic=st.booleans(), proper=st.booleans(), small=small_depths)
def test_the_matching_by_depths_makes_the_loops_matches(
    words: list[str], cyclic: bool, proper: bool, small: int
) -> None:
    """Same successors, hand-overs, groups (in order) and free ends, on lists with repeated
    words and words inside others (``small``: depths of fewer candidates go one by one; 0:
    every depth as arrays)."""
    net = build_string_network(WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(level_matching, "SMALL_DEPTH", small)
        assert by_levels(net) == reference(net)


@settings(max_examples=100, deadline=None)
@given(words=st.lists(st.text(alphabet="ab", min_size=1, max_size=5), min_size=20, max_size=60))
def test_borders_and_copies_on_two_letters(words: list[str]) -> None:
    """Two letters: many words whose own entry lies below their hand-over strings (borders),
    and many copies of a word: the strings where an exit meets its own entry go one by one."""
    net = build_string_network(WordsnakeInstance(tuple(words)))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(level_matching, "SMALL_DEPTH", 0)
        assert by_levels(net) == reference(net)


def test_a_deadline_between_depths_keeps_the_matches_made() -> None:
    words = tuple(f"{a}{b}{c}" for a in "abc" for b in "abc" for c in "abc")
    net = build_string_network(WordsnakeInstance(words))
    slot_start, slot_item, depth = _inputs(net)
    n = net.instance.n
    succ, handover = [-1] * (n + 1), [0] * (n + 1)
    word_node = net.trie.word_node.astype(np.int64)
    m = LevelMatching(word_node, slot_start, np.array(slot_item, dtype=np.int64), succ, handover)
    with pytest.raises(FlowStopped):
        m.run(_candidates(net, depth), depth, time.perf_counter() - 1.0)
    assert succ == [-1] * (n + 1)
    m.run(_candidates(net, depth), depth, None)
    heads, tails = m.free_ends()
    matched = sum(s >= 0 for s in succ)
    assert matched > 0 and len(tails) == n - matched == len(heads)
