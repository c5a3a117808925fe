"""The greedy assignment's matching, a depth of strings at a time as array passes
(:mod:`cpwords.wordsnake.relaxation.level_matching`), against the loop it replaced: one
candidate at a time, each exit taking the first free entry below its string; and the array
passes that read it (candidates, free ends, cycle merging, the order) against their loops."""

from __future__ import annotations

import time
from typing import Any

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
from tests.wordsnake import decode_reference

Matching = tuple[list[int], list[int], list[list[int]], list[int], list[int]]


def _inputs(net: StringHubNetwork) -> tuple[np.ndarray, list[int], np.ndarray]:
    copies = item_copies(net)
    slot_start = np.zeros(net.num_words + 1, dtype=np.int64)
    np.cumsum(net.mult, out=slot_start[1:])
    return slot_start, [i for c in copies for i in c], net.trie.depth.astype(np.int64)


Candidates = list[Any]  # the words, the strings' nodes, the CandidateRanges


def _candidates(net: StringHubNetwork, depth: np.ndarray) -> Candidates:
    return decode._handover_candidates(net.trie, net.num_words, net.instance.proper, depth)


def reference(net: StringHubNetwork) -> Matching:
    """The matching as cpwords made it before the array core: candidate after candidate, a
    "next free" union-find over the entries (slots, the words in preorder)."""
    slot_start, slot_item, depth = _inputs(net)
    hw, hs, ranges = _candidates(net, depth)
    lo_word, hi_word = ranges.lo(slice(None)), ranges.hi(slice(None))
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
    succ, handover = np.full(n + 1, -1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64)
    word_node = net.trie.word_node.astype(np.int64)
    m = LevelMatching(word_node, slot_start, np.array(slot_item, dtype=np.int64), succ, handover)
    m.run(_candidates(net, depth), depth, None)
    heads, tails = m.free_ends()
    return succ.tolist(), handover.tolist(), m.groups, heads.tolist(), tails.tolist()


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


def test_the_matching_takes_a_list_of_candidates() -> None:
    """A list of candidates is emptied (the caller holds no copy); a tuple is only read, and
    both match alike."""
    words = tuple(f"{a}{b}{c}" for a in "abc" for b in "abc" for c in "abc")
    net = build_string_network(WordsnakeInstance(words))
    slot_start, slot_item, depth = _inputs(net)
    n = net.instance.n
    found = []
    for as_list in (True, False):
        succ, handover = np.full(n + 1, -1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64)
        word_node = net.trie.word_node.astype(np.int64)
        items = np.array(slot_item, dtype=np.int64)
        m = LevelMatching(word_node, slot_start, items, succ, handover)
        cand = _candidates(net, depth)
        given = cand if as_list else tuple(cand)
        m.run(given, depth, None)
        assert len(given) == (0 if as_list else 3)
        found.append((succ.tolist(), handover.tolist(), m.groups))
    assert found[0] == found[1]


def test_a_deadline_between_depths_keeps_the_matches_made() -> None:
    words = tuple(f"{a}{b}{c}" for a in "abc" for b in "abc" for c in "abc")
    net = build_string_network(WordsnakeInstance(words))
    slot_start, slot_item, depth = _inputs(net)
    n = net.instance.n
    succ, handover = np.full(n + 1, -1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64)
    word_node = net.trie.word_node.astype(np.int64)
    m = LevelMatching(word_node, slot_start, np.array(slot_item, dtype=np.int64), succ, handover)
    with pytest.raises(FlowStopped):
        m.run(_candidates(net, depth), depth, time.perf_counter() - 1.0)
    assert succ.tolist() == [-1] * (n + 1)
    m.run(_candidates(net, depth), depth, None)
    heads, tails = m.free_ends()
    matched = int((succ >= 0).sum())
    assert matched > 0 and len(tails) == n - matched == len(heads)


def merge_by_loops(
    succ: list[int],
    handover: list[int],
    groups: list[list[int]],
    n: int,
    cyclic: bool,
) -> tuple[list[int], int, int]:
    """Cycle merging as cpwords made it before the array version: the cycles labelled by a walk
    from each item in turn, then a union-find over them, group by group."""
    cyc = [-1] * (n + 1)
    ncyc = 0
    for i in range(n + 1 if not cyclic else n):
        if cyc[i] < 0:
            j = i
            while cyc[j] < 0:
                cyc[j] = ncyc
                j = succ[j]
            ncyc += 1
    if cyclic:
        cyc[n] = ncyc
    parent = list(range(ncyc + 1))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    merges = 0
    for units in groups:
        anchor = units[0]
        for u in units[1:]:
            ca, cu = find(cyc[anchor]), find(cyc[u])
            if ca != cu:
                succ[anchor], succ[u] = succ[u], succ[anchor]
                handover[anchor], handover[u] = handover[u], handover[anchor]
                parent[cu] = ca
                merges += 1
    return [find(c) for c in cyc], ncyc, merges


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(1, 40),
    cyclic=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    groups=st.lists(st.lists(st.integers(0, 40), min_size=0, max_size=8), max_size=12),
)
def test_merging_cycles_by_arrays_makes_the_loops_exchanges(
    n: int, cyclic: bool, seed: int, groups: list[list[int]]
) -> None:
    """Same successors, hand-overs, labels, cycle count and exchanges as the loops, for any
    permutation (the depot fixed on a cyclic snake) and any groups (items repeated within and
    across groups, empty groups, groups of one)."""
    rng = np.random.default_rng(seed)
    size = n if cyclic else n + 1
    perm = rng.permutation(size)
    succ = np.arange(n + 1, dtype=np.int64)
    succ[:size] = perm
    handover = rng.integers(0, 5, n + 1).astype(np.int64)
    groups = [[u % size for u in g] for g in groups]
    want_succ, want_hand = succ.tolist(), handover.tolist()
    want = merge_by_loops(want_succ, want_hand, [g for g in groups if g], n, cyclic)
    units = np.array([u for g in groups for u in g], dtype=np.int64)
    starts = np.cumsum([0, *[len(g) for g in groups]])[:-1].astype(np.int64)
    anchors, others = decode.group_edges(units, starts)
    comp, ncyc, merges = decode.merge_cycles(succ, handover, anchors, others, n, cyclic)
    assert (comp.tolist(), ncyc, merges) == want
    assert succ.tolist() == want_succ and handover.tolist() == want_hand


def join_by_loop(n: int, cyclic: bool, heads: list[int], tails: list[int], succ: list[int]) -> None:
    """Free ends joined as cpwords joined them before the array version."""
    if not cyclic:
        heads.append(n)
        tails.append(n)
    else:
        succ[n] = n
    m = len(tails)
    for k in range(m):
        if heads[k] == tails[k] and m > 1:
            j = k + 1 if k + 1 < m else k - 1
            heads[k], heads[j] = heads[j], heads[k]
            if j < k:
                succ[tails[j]] = heads[j]
        succ[tails[k]] = heads[k]


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 30), cyclic=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_joining_free_ends_by_arrays_makes_the_loops_joints(
    n: int, cyclic: bool, seed: int
) -> None:
    """Free exits and entries, many of them each other's own (runs of fixed points, one at the
    end), joined the same way."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(0, n + 1))
    tails = rng.choice(n, size=k, replace=False)
    heads = tails.copy()
    moved = rng.random(k) < 0.4  # the others are fixed points
    heads[moved] = rng.permutation(heads[moved])
    want = [-1] * (n + 1)
    join_by_loop(n, cyclic, heads.tolist(), tails.tolist(), want)
    succ = np.full(n + 1, -1, dtype=np.int64)
    joined = decode._join_free_ends(n, cyclic, heads, tails, succ)
    assert succ.tolist() == want
    assert joined.tolist() == tails.tolist() + ([] if cyclic else [n])


@settings(max_examples=200, deadline=None)
@given(words=words_st, cyclic=st.booleans(), proper=st.booleans())
def test_item_copies_lists_each_words_items_ascending(
    words: list[str], cyclic: bool, proper: bool
) -> None:
    net = build_string_network(WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper))
    want: list[list[int]] = [[] for _ in range(net.num_words)]
    for i, w in enumerate(net.item_word.tolist()):
        want[w].append(i)
    assert item_copies(net) == want


@settings(max_examples=300, deadline=None)
@given(words=words_st, proper=st.booleans())
def test_the_candidates_ranges_are_the_searches_of_the_word_nodes(
    words: list[str], proper: bool
) -> None:
    """Each candidate's range of words below its string, read from prefix counts, is what
    searches of the word nodes give (words equal to the string left out for full and proper
    overlaps)."""
    net = build_string_network(WordsnakeInstance(tuple(words), proper=proper))
    trie, W = net.trie, net.num_words
    depth = trie.depth.astype(np.int64)
    hw, hs, ranges = _candidates(net, depth)
    lo_word, hi_word = ranges.lo(slice(None)), ranges.hi(slice(None))
    wn = trie.word_node.astype(np.int64)
    assert (np.diff(depth[hs]) <= 0).all()  # deepest first
    suffix_w, suffix_s = trie.suffix_nodes()
    pairs = set(zip(suffix_w.tolist(), suffix_s.tolist(), strict=True))
    if not proper:
        pairs |= {(w, int(wn[w])) for w in range(W)}
    assert sorted(zip(hw.tolist(), hs.tolist(), strict=True)) == sorted(pairs)
    first = np.searchsorted(wn, hs)
    full = wn[hw] == hs
    strict = full | (proper & (wn[hw] != hs))
    lo = np.where(strict & (wn[np.minimum(first, W - 1)] == hs), first + 1, first)
    assert lo_word.tolist() == lo.tolist()
    assert hi_word.tolist() == np.searchsorted(wn, trie.end[hs], side="right").tolist()


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 50), cyclic=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_reading_a_successor_map_by_arrays_walks_it(n: int, cyclic: bool, seed: int) -> None:
    """The order read by pointer doubling is the walk from the start until the start or the
    depot comes back, on any permutation (one cycle or several; a cyclic snake's depot on
    another cycle too)."""
    from cpwords.wordsnake.primal import repair

    rng = np.random.default_rng(seed)
    succ = rng.permutation(n + 1)
    if cyclic and rng.random() < 0.7:
        succ = np.append(rng.permutation(n), n)  # the depot on its own, as decoded
    start = int(succ[n]) if not cyclic else 0
    want, j = [start], int(succ[start])
    while j not in (start, n):
        want.append(j)
        j = int(succ[j])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(repair, "WALK_ITEMS", 0)
        assert repair.order_from_succ(succ, n, cyclic) == want


@settings(max_examples=200, deadline=None)
@given(
    words=words_st,
    cyclic=st.booleans(),
    proper=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    share=st.sampled_from([0.0, 0.05, 0.3, 1.0]),
)
def test_the_repairs_index_ranges_are_the_searches_they_replace(
    words: list[str], cyclic: bool, proper: bool, seed: int, share: float
) -> None:
    """The repair's candidate index, read from counts: each node's words below it are what
    searches of the sorted word nodes give, its words ending with it are its hand-over
    records in arc order (whichever nodes were prepared first: a few, sorted alone, or most,
    sorted at once); each word's copies are its items."""
    from cpwords.wordsnake.primal import suffix_records
    from cpwords.wordsnake.primal.repair import CandidateIndex
    from cpwords.wordsnake.relaxation.string_hub import HANDOVER

    net = build_string_network(WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper))
    index = CandidateIndex(net)
    trie, big, T, W = net.trie, 10**9, net.trie.size, net.num_words
    wn, end = index.word_node, trie.end.astype(np.int64)
    ending: dict[int, list[int]] = {}  # the hand-over records, node by node, in arc order
    for t, h, r in zip(net.tail.tolist(), net.head.tolist(), net.role[:].tolist(), strict=True):
        if r == HANDOVER and net.out_base <= t < net.in_base and h < T + W:
            node = h if h < T else int(wn[h - T])
            if node > 0:
                ending.setdefault(node, []).append(t - net.out_base)
    rng = np.random.default_rng(seed)
    mp = pytest.MonkeyPatch()  # records placed in node order a few at a time, or at once
    mp.setattr(suffix_records, "RECORD_BLOCK", [suffix_records.RECORD_BLOCK, 1, 3][seed % 3])
    index.prepare(rng.integers(0, T, int(share * T)))
    for v in range(T):
        lo, hi = np.searchsorted(wn, v), np.searchsorted(wn, end[v], side="right")
        assert index.words_below(v, big) == range(lo, hi)
        own = [int(trie.node_word[v])] if trie.node_word[v] >= 0 else []
        assert index.words_ending(v, big) == ending.get(v, []) + own
    assert index.suf_node.tolist() == [v for v in sorted(ending) for _ in ending[v]]
    assert index.suf_word.tolist() == [w for v in sorted(ending) for w in ending[v]]
    mp.undo()
    assert [index.copies(w).tolist() for w in range(net.num_words)] == item_copies(net)


@settings(max_examples=150, deadline=None)
@given(words=words_st, cyclic=st.booleans(), proper=st.booleans())
def test_a_decoded_flow_merges_its_cycles_as_the_loops_did(
    words: list[str], cyclic: bool, proper: bool
) -> None:
    """The flow decoding's exchanges (the hubs' groups bottom-up, then each word's copies) make
    the successors, hand-overs, labels and counts of the loops on the same groups (in the
    reference decoding by loops, which the array decoding equals: the test below)."""
    from cpwords.wordsnake.relaxation.flow import solve_flow

    net = build_string_network(WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper))
    flows, _ = solve_flow(net, -net.weight)
    hubs: list[tuple[list[int], list[int]]] = []  # the units of the hubs' groups, their starts
    before: list[tuple[list[int], list[int]]] = []  # successors and hand-overs
    real_descend, real_merge = decode_reference._descend_hubs, decode_reference.merge_cycles

    def descend(*args: Any) -> tuple[list[int], list[int]]:
        hubs.append(real_descend(*args))
        return hubs[-1]

    def merge(succ: np.ndarray, handover: np.ndarray, *rest: Any) -> Any:
        before.append((succ.tolist(), handover.tolist()))
        return real_merge(succ, handover, *rest)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(decode_reference, "_descend_hubs", descend)
        mp.setattr(decode_reference, "merge_cycles", merge)
        dec = decode_reference.decode_flow_loops(net, flows)
    units, starts = hubs[0]
    bounds = [*starts, len(units)]
    groups = [units[bounds[r] : bounds[r + 1]] for r in range(len(starts) - 1, -1, -1)]
    groups += [c for c in item_copies(net) if len(c) > 1]
    succ, handover = before[0]
    n = net.instance.n
    want = merge_by_loops(succ, handover, groups, n, cyclic)
    assert (dec.comp.tolist(), dec.cycles, dec.merges) == want
    assert dec.succ.tolist() == succ and dec.handover.tolist() == handover


@settings(max_examples=400, deadline=None)
@given(
    words=st.lists(st.text(alphabet="abcd", min_size=1, max_size=7), min_size=2, max_size=20),
    cyclic=st.booleans(),
    proper=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    noise=st.sampled_from([0, 2, 6]),
)
def test_the_flow_decoding_by_arrays_is_the_loops_decoding(
    words: list[str], cyclic: bool, proper: bool, seed: int, noise: int
) -> None:
    """The array decoding (each node's queue of units as a block of places, a unit's way down
    by pointer doubling) gives the successors, labels, hub representatives, hand-overs and
    counts of the loops that handed units down hub by hub, on optimal flows and on flows of
    perturbed costs (the Lagrangian's iterates: other routes, other uses of the self arcs),
    on lists with repeated words and words inside others."""
    from cpwords.wordsnake.relaxation.flow import solve_flow

    net = build_string_network(WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper))
    rng = np.random.default_rng(seed)
    cost = -net.weight.astype(np.int64) + rng.integers(-noise, noise + 1, net.m)
    flows, _ = solve_flow(net, cost)
    want = decode_reference.decode_flow_loops(net, flows)
    got = decode.decode_flow(net, flows)
    for name in ("succ", "comp", "handover"):
        assert getattr(got, name).tolist() == getattr(want, name).tolist(), name
    assert got.node_rep.array().tolist() == want.node_rep.array().tolist()
    assert (got.cycles, got.merges) == (want.cycles, want.merges)


def test_a_flow_decoding_past_its_deadline_stops() -> None:
    from cpwords.wordsnake.relaxation.flow import solve_flow

    net = build_string_network(WordsnakeInstance(("run", "nausea", "seasick", "sickle")))
    flows, _ = solve_flow(net, -net.weight.astype(np.int64))
    with pytest.raises(FlowStopped):
        decode.decode_flow(net, flows, time.perf_counter() - 1.0)


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.text(alphabet="abcd", min_size=1, max_size=7), min_size=2, max_size=24),
    cyclic=st.booleans(),
    proper=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    limit=st.sampled_from([1, 3, 24]),
    small_main=st.sampled_from([0, 16]),
)
def test_the_repair_patches_as_the_lists_did(
    words: list[str], cyclic: bool, proper: bool, seed: int, limit: int, small_main: int
) -> None:
    """The repair reading its maps from arrays and bytes patches the cycles of a greedy cover
    and of decoded flows (of perturbed costs: many cycles) into the ordering, successors and
    losses of the lists it replaced (``small_main`` 0: every main cycle through the candidate
    index; ``limit``: candidates cut short, ties broken in the same set order)."""
    import copy

    from cpwords.wordsnake.primal import repair
    from cpwords.wordsnake.relaxation.flow import solve_flow
    from tests.wordsnake import repair_reference

    net = build_string_network(WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper))
    rng = np.random.default_rng(seed)
    flows, _ = solve_flow(net, -net.weight.astype(np.int64) + rng.integers(-6, 7, net.m))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(repair, "SMALL_MAIN", small_main)
        mp.setattr(repair_reference, "SMALL_MAIN", small_main)
        for dec in (decode.greedy_successors(net), decode.decode_flow(net, flows)):
            want_dec, got_dec = copy.deepcopy(dec), copy.deepcopy(dec)
            want = repair_reference.patch_cycles_lists(
                net, want_dec, repair.PairScore(net), None, limit
            )
            got = repair.patch_cycles(net, got_dec, repair.PairScore(net), None, limit)
            assert got == want
            assert got_dec.succ.tolist() == want_dec.succ.tolist()
            assert got_dec.extra == want_dec.extra
