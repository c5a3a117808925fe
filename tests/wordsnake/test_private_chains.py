"""The string-hub network's private border chains built in array passes
(:func:`cpwords.wordsnake.relaxation.string_hub._private_chains`) against the loop over each
chained word's path that they replaced: the same node ids, arcs in the same order, hand-overs
and chains."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.relaxation import string_hub
from cpwords.wordsnake.relaxation.string_hub import DELIVER, PRIVATE, build_string_network
from cpwords.wordsnake.relaxation.trie import Trie, build_trie
from cpwords.wordsnake.rules import WordsnakeInstance

Chains = dict[int, tuple[int, list[int], list[int]]]


def reference(
    net: string_hub.StringHubNetwork,
    trie: Trie,
    ids: string_hub._NodeIds,
    pw: np.ndarray,
    ps: np.ndarray,
) -> tuple[int, list[list[int]], list[list[int]], Chains]:
    """The loop: word after word, its path from its shortest border down to its node; a node
    a depth (and a + node where the path node is a word), then each depth's arcs on (``trie``
    with its children: the network keeps none)."""
    mult, proper = net.mult, net.instance.proper
    next_id = ids.r_in + 1
    priv: list[list[int]] = [[], [], [], []]
    ho: list[list[int]] = [[], [], [], []]
    chains: Chains = {}
    borders: dict[int, list[int]] = {}
    for w, s in sorted(zip(pw.tolist(), ps.tolist(), strict=True), key=lambda x: (x[0], 0)):
        borders.setdefault(w, []).append(int(trie.depth[s]))
    for w in sorted(borders):
        depths = sorted(borders[w])
        top, lw, k = depths[0], int(trie.depth[trie.word_node[w]]), int(mult[w])
        path = [int(trie.word_node[w])]
        while int(trie.depth[path[0]]) > top:
            path.insert(0, int(trie.parent[path[0]]))
        c_node: dict[int, int] = {}
        cplus: dict[int, int] = {}
        for d, v in zip(range(top, lw), path, strict=False):
            c_node[d] = next_id
            next_id += 1
            pword = int(trie.node_word[v])
            if pword >= 0:
                cplus[d] = next_id
                next_id += 1
                _put(priv, c_node[d], ids.in_n[pword], mult[pword], DELIVER)
                _put(priv, c_node[d], cplus[d], k, PRIVATE)
            else:
                cplus[d] = c_node[d]
        for i, d in enumerate(range(top, lw)):
            children = [int(c) for c in trie.children(path[i]) if int(c) != path[i + 1]]
            if d + 1 < lw:
                children.append(c_node[d + 1])
            elif bool(ids.has_desc[w]):
                children.append(ids.T + w)
            for h in children:
                _put(priv, cplus[d], h, k, PRIVATE)
        chains[w] = (top, [c_node[d] for d in range(top, lw)], [cplus[d] for d in range(top, lw)])
        for d in depths:
            _put(ho, ids.out_n[w], cplus[d] if proper else c_node[d], k, d)
    return next_id, priv, ho, chains


def _put(columns: list[list[int]], *values: object) -> None:
    for column, value in zip(columns, values, strict=True):
        column.append(int(value))  # type: ignore[call-overload]


words_st = st.lists(st.text(alphabet="ab", min_size=1, max_size=9), min_size=2, max_size=14)


@settings(max_examples=200, deadline=None)
@given(words=words_st, cyclic=st.booleans(), proper=st.booleans(), small=st.sampled_from([0, 64]))
def test_the_chains_by_arrays_are_the_loops_chains(
    words: list[str], cyclic: bool, proper: bool, small: int
) -> None:
    # Two letters: many borders, words inside others, repeats (copies as capacities);
    # ``small``: every path walked as arrays (0) or, for fewer than 64 chains, node by node.
    inst = WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper)
    if len(set(inst.words)) < 2:
        return
    net = build_string_network(inst)
    assert net.trie.child_id.size == 0  # the network keeps no table of children
    trie = build_trie(net.words)
    ids = string_hub._node_ids(trie, net.num_words, cyclic)
    arcs = string_hub._Arcs(np.int64, np.int64, np.int64)
    pw, ps, _ = string_hub._add_word_arcs(arcs, trie, ids, net.mult, inst)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(string_hub, "SMALL_LEVEL", small)
        got = string_hub._private_chains(trie, ids, net.mult, pw, ps, proper, None)
    next_id, priv, ho, chains = reference(net, trie, ids, pw, ps)
    assert got.next_id == next_id
    assert got.topo.tolist() == list(range(ids.r_in + 1, next_id))
    assert [a.tolist() for a in got.arcs] == (priv if pw.size else [])
    assert [a.tolist() for a in got.handovers] == (ho if pw.size else [])
    assert got.chains.as_dict() == chains
    assert net.chains.as_dict() == chains
