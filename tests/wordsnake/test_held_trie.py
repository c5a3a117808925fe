"""A network's trie held small while the greedy proof's sweeps peak, made again as it was."""

from __future__ import annotations

from contextlib import AbstractContextManager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.exact import state
from cpwords.wordsnake.exact.policy import solve_exact
from cpwords.wordsnake.exact.stages import greedy_proof
from cpwords.wordsnake.relaxation.held_trie import (
    by_levels,
    parents_from_depths,
    subtree_ends,
    trie_held_small,
)
from cpwords.wordsnake.relaxation.trie import Trie, build_trie
from cpwords.wordsnake.rules import WordsnakeInstance

_WORDS = st.lists(st.text(alphabet="abc", min_size=1, max_size=7), min_size=1, max_size=30)


@settings(max_examples=150, deadline=None)
@given(_WORDS)
def test_trie_made_again_as_built(words: list[str]) -> None:
    # Any list's trie: meanwhile its size and depths read as before and the arrays let go are
    # empty; after, every array equals the build's, in its type.
    trie = build_trie(sorted(set(words))).without_children()
    names = ("depth", "parent", "end", "node_word", "fail", "word_node")
    before = {k: getattr(trie, k).copy() for k in names}
    size = trie.size
    with trie_held_small(trie):
        assert trie.size == size
        assert np.array_equal(trie.depth, before["depth"])
        assert trie.parent.size == trie.end.size == trie.node_word.size == 0
    for k, v in before.items():
        got = getattr(trie, k)
        assert got.dtype == v.dtype and np.array_equal(got, v), k


@settings(max_examples=150, deadline=None)
@given(_WORDS)
def test_parents_and_ends_from_depths(words: list[str]) -> None:
    # The parents and subtree ends read off the depths alone are the build's; each level
    # lists its depth's nodes ascending.
    trie = build_trie(sorted(set(words)))
    depth = trie.depth
    levels = by_levels(depth)
    assert [lv.tolist() for lv in levels] == [
        np.flatnonzero(depth == d).tolist() for d in range(int(depth.max()) + 1)
    ]
    parent = parents_from_depths(depth)
    assert np.array_equal(parent, trie.parent)
    assert np.array_equal(subtree_ends(depth, parent), trie.end)
    assert np.array_equal(subtree_ends(depth, parent, levels), trie.end)


def test_greedy_proof_with_the_trie_held_small(monkeypatch: pytest.MonkeyPatch) -> None:
    # The greedy proof run on small networks (as on large ones), holding the trie small or
    # not: the same answer, bound and certificate, and the trie as it was.
    words = ("banana", "nanny", "anna", "nab", "abba", "bandana", "nag", "gnaw", "wagon", "an")
    inst = WordsnakeInstance(words)
    monkeypatch.setattr(state, "FORK_MIN_ARCS", 0)
    ref = solve_exact(inst, time_limit=30, certificate=True)
    held: list[int] = []

    def spy(trie: Trie) -> AbstractContextManager[None]:
        held.append(trie.size)
        return trie_held_small(trie)

    monkeypatch.setattr(greedy_proof, "GIVE_BACK_ARCS", 0)
    monkeypatch.setattr(greedy_proof, "trie_held_small", spy)
    got = solve_exact(inst, time_limit=30, certificate=True)
    assert held, "the greedy proof did not run"
    assert (got.objective, got.bound, got.status) == (ref.objective, ref.bound, ref.status)
    assert got.solver_info["certificate"] == ref.solver_info["certificate"]
