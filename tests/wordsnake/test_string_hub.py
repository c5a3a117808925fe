"""The string-hub formulation (dictionary-scale Wordsnake) against independent references."""

from __future__ import annotations

import itertools
import json
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ortools.graph.python import min_cost_flow

from cpwords.core.errors import InputError
from cpwords.core.result import Status
from cpwords.wordsnake.exact import policy
from cpwords.wordsnake.exact.policy import solve_string_flow
from cpwords.wordsnake.primal.repair import PairScore, patch_cycles, score_sequence
from cpwords.wordsnake.relaxation.decode import greedy_successors
from cpwords.wordsnake.relaxation.flow import SCALE, solve_flow
from cpwords.wordsnake.relaxation.string_hub import build_string_network, build_trie
from cpwords.wordsnake.rules import WordsnakeInstance, check_snake, pair_overlap, snake_score
from cpwords.wordsnake.spec import solve_wordsnake


def ab_lists(max_len: int, max_size: int) -> st.SearchStrategy[list[str]]:
    """Lists of 2 to ``max_size`` words over ``ab`` of 1 to ``max_len`` letters."""
    return st.lists(
        st.text(alphabet="ab", min_size=1, max_size=max_len), min_size=2, max_size=max_size
    )


def brute_force(words: tuple[str, ...], cyclic: bool, proper: bool) -> int:
    return max(snake_score(p, cyclic, proper) for p in itertools.permutations(words))


def explicit_relaxation(words: tuple[str, ...], cyclic: bool, proper: bool) -> int:
    """The assignment relaxation of the explicit model, built from the checker's overlaps.

    One arc per ordered pair of distinct items (weight ov^2), a depot that a linear snake must
    use once, and the same one-letter self-loops the letter-hub model allows (a word of two or
    more letters whose first and last letters agree): the model today's MIP starts from.
    """
    n = len(words)
    tails, heads, caps, costs = [], [], [], []

    def arc(a: int, b: int, w: int, c: int = 1) -> None:
        tails.append(a)
        heads.append(b)
        costs.append(-w)
        caps.append(c)

    for i, a in enumerate(words):
        for j, b in enumerate(words):
            if i != j:
                arc(i, n + 1 + j, pair_overlap(a, b, proper) ** 2)
            elif len(a) >= 2 and a[0] == a[-1]:
                arc(i, n + 1 + j, 1)
        arc(i, 2 * n + 1, 0)
        arc(n, n + 1 + i, 0)
    if cyclic:
        arc(2 * n + 1, n, 0, n)  # the depot is optional: a transit node
    flow = min_cost_flow.SimpleMinCostFlow()
    flow.add_arcs_with_capacity_and_unit_cost(
        np.array(tails, np.int32), np.array(heads, np.int32), np.array(caps), np.array(costs)
    )
    supply = np.zeros(2 * n + 2, np.int64)
    supply[:n], supply[n + 1 : 2 * n + 1] = 1, -1
    if not cyclic:
        supply[n], supply[2 * n + 1] = 1, -1
    flow.set_nodes_supplies(np.arange(2 * n + 2, dtype=np.int32), supply)
    assert flow.solve() == flow.OPTIMAL
    return -flow.optimal_cost()


def string_relaxation(inst: WordsnakeInstance) -> int:
    net = build_string_network(inst)
    _, cost = solve_flow(net, -SCALE * net.weight.astype(np.int64))  # 8-bit weights wrap
    return -cost // SCALE


# Small alphabets: long overlaps, borders, words that are prefixes of each other, repeats.
word = st.text(alphabet="ab", min_size=1, max_size=6) | st.text(alphabet="abc", max_size=5).filter(
    bool
)
lists = st.lists(word, min_size=2, max_size=6).filter(lambda ws: len(set(ws)) > 1)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists, st.booleans(), st.booleans())
def test_relaxation_equals_the_explicit_model(ws, cyclic, proper):
    words = tuple(ws)
    inst = WordsnakeInstance(words, cyclic, proper)
    value = string_relaxation(inst)
    reference = explicit_relaxation(words, cyclic, proper)
    if len(set(words)) == len(words):
        assert value == reference
    else:  # copies of a word chain at most k - 1 times: tighter, never looser
        assert value <= reference
    assert value >= brute_force(words, cyclic, proper)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists, st.booleans(), st.booleans())
def test_pipeline_orders_pass_the_checker_and_proofs_are_true(ws, cyclic, proper):
    words = tuple(ws)
    inst = WordsnakeInstance(words, cyclic, proper)
    out = solve_string_flow(build_string_network(inst), lagrangian_iterations=5)
    order = [words[i] for i in out.order]
    optimum = brute_force(words, cyclic, proper)
    assert check_snake(inst, order, out.objective)
    assert out.objective <= optimum <= out.bound
    if out.proven:
        assert out.objective == optimum


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(lists, st.booleans(), st.booleans())
def test_greedy_start_is_a_valid_ordering_never_above_the_optimum(ws, cyclic, proper):
    words = tuple(ws)
    inst = WordsnakeInstance(words, cyclic, proper)
    net = build_string_network(inst)
    pair = PairScore(net)
    seq = patch_cycles(net, greedy_successors(net), pair)
    assert sorted(seq) == list(range(len(words)))
    value = score_sequence(seq, pair, cyclic)
    assert value == snake_score([words[i] for i in seq], cyclic, proper)
    assert value <= brute_force(words, cyclic, proper)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="abc", min_size=1, max_size=5), min_size=1, max_size=8))
def test_failure_links_are_the_longest_proper_suffix_in_the_trie(ws):
    from cpwords.wordsnake.relaxation import trie

    words = sorted(set(ws))
    for small in (0, 10**9):  # every level as arrays, then every level in a loop
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(trie, "SMALL_LEVEL", small)
            _check_trie(words, build_trie(words))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(alphabet="ab", min_size=1, max_size=30), min_size=2, max_size=8),
    st.booleans(),
    st.booleans(),
)
def test_the_network_is_the_same_whether_small_levels_go_by_arrays_or_by_loops(ws, cyclic, proper):
    from cpwords.wordsnake.relaxation import string_hub, trie

    inst = WordsnakeInstance(tuple(ws), cyclic, proper)
    built = []
    for small in (0, 10**9):  # every level as arrays, then every level in a loop
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(trie, "SMALL_LEVEL", small)
            mp.setattr(string_hub, "SMALL_LEVEL", small)
            net = build_string_network(inst)
            built.append((net.tail, net.head, net.cap.full(), *net.trie.suffix_nodes()))
    for a, b in zip(*built, strict=True):
        assert a.tolist() == b.tolist()


def _check_trie(words, trie):
    strings = {0: ""}
    for v in range(1, trie.size):
        strings[v] = strings[int(trie.parent[v])] + trie.alphabet[int(trie.char[v])]
    nodes = {s: v for v, s in strings.items()}
    assert set(nodes) == {w[:k] for w in words for k in range(len(w) + 1)}
    for v, s in strings.items():
        if v:
            expected = next(s[k:] for k in range(1, len(s) + 1) if s[k:] in nodes)
            assert strings[int(trie.fail[v])] == expected
        below = {w for w in words if w.startswith(s)}
        ids = range(v, int(trie.end[v]) + 1)
        assert {strings[u] for u in ids} & set(words) == below


# Any alphabet (accents, Greek, letters beyond the BMP, a few hundred ideographs so that the
# trie's table of children by letter does not apply), words inside others, repeats.
any_letters = st.sampled_from(
    ["ab", "abc", "aé", "αβγ", "a\U00010428b", "".join(chr(0x4E00 + i) for i in range(300))]
)
any_lists = any_letters.flatmap(
    lambda letters: st.lists(
        st.text(alphabet=letters, min_size=1, max_size=12), min_size=2, max_size=12
    )
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["ab", "a\nb", "aé", "\n", "".join(chr(0x4E00 + i) for i in range(300))])
    .flatmap(lambda letters: st.lists(st.text(alphabet=letters, min_size=1, max_size=40)))
    .map(lambda ws: sorted(set(ws))),
    st.sampled_from([0, 10**9]),
)
def test_the_trie_insertion_reads_each_words_common_prefix_and_letters(words, small):
    # Common prefixes by windows of letters equal the plain definition, whatever the alphabet
    # (a newline as a letter, letters beyond 255), words inside others and long prefixes.
    from cpwords.wordsnake.relaxation import trie as trie_module

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(trie_module, "SMALL_LEVEL", small)
        alphabet, dep, ch, wn, lcp, _ = trie_module._insert_sorted(words, None)
    assert alphabet == "".join(sorted(set("".join(words))))

    def common(a: str, b: str) -> int:
        return next(
            (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
        )

    want = [0][: len(words)] + [common(a, b) for a, b in itertools.pairwise(words)]
    assert lcp.tolist() == want
    # The nodes: each word's letters past its common prefix, in order.
    letters = [alphabet.index(c) for w, k in zip(words, want, strict=True) for c in w[k:]]
    depths = [i + 1 for w, k in zip(words, want, strict=True) for i in range(k, len(w))]
    assert ch.tolist() == [0, *letters] and dep.tolist() == [0, *depths]
    assert dep[wn].tolist() == [len(w) for w in words]


def _trie_arrays(trie):
    return [trie.depth, trie.parent, trie.char, trie.end, trie.fail, trie.word_node]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_lists, st.sampled_from([0, 10**9]))
def test_the_trie_is_every_prefix_in_preorder_whichever_way_children_are_looked_up(ws, small):
    # The table of children by letter, a search of the sorted keys and a dictionary of them
    # give the same trie; each node is a prefix, in code-point order of the strings.
    from cpwords.wordsnake.relaxation import trie as trie_module

    words = sorted(set(ws))
    tries = []
    for table, dictionary in ((True, False), (False, False), (False, True)):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(trie_module, "SMALL_LEVEL", small)
            if not table:
                mp.setattr(trie_module, "CHILD_TABLE_MAX", 0)
                mp.setattr(trie_module, "CHILD_TABLE_PER_NODE", 0)
            mp.setattr(trie_module, "SMALL_LEVELS_DICT", -1 if dictionary else 10**9)
            tries.append(build_trie(words))
    for other in tries[1:]:
        for a, b in zip(_trie_arrays(tries[0]), _trie_arrays(other), strict=True):
            assert a.dtype == b.dtype and a.tolist() == b.tolist()
    trie = tries[0]
    _check_trie(words, trie)
    strings = [""]
    for v in range(1, trie.size):
        strings.append(strings[int(trie.parent[v])] + trie.alphabet[int(trie.char[v])])
    assert strings == sorted(strings)  # preorder of sorted words
    assert trie.depth.tolist() == [len(x) for x in strings]
    assert trie.alphabet == "".join(sorted(set("".join(words))))
    assert [strings[int(v)] for v in trie.word_node] == words
    assert [strings.index(w) for w in words] == trie.word_node.tolist()
    assert trie.node_word.tolist() == [words.index(x) if x in words else -1 for x in strings]
    keys = sorted(
        (int(trie.parent[v]) * trie.radix + int(trie.char[v]), v) for v in range(1, trie.size)
    )
    assert trie.child_key.tolist() == [k for k, _ in keys]
    assert trie.child_id.tolist() == [v for _, v in keys]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_lists, st.booleans(), st.booleans())
def test_the_network_words_order_and_flat_arcs_are_the_plain_definitions(ws, cyclic, proper):
    # The distinct words and counts as a Counter gives them, the topological order as the
    # stable sort of (2 v, 2 wn + 1) gave it, the flat arcs as a walk up each word's path
    # level by level gave them.
    from collections import Counter

    from cpwords.wordsnake.relaxation.string_hub import TRIE

    inst = WordsnakeInstance(tuple(ws), cyclic, proper)
    if len(set(inst.words)) < 2:
        return
    net = build_string_network(inst)
    counts = Counter(inst.words)
    words = sorted(counts)
    assert list(net.words) == words
    assert net.mult.tolist() == [counts[w] for w in words]
    assert [net.words[i] for i in net.item_word] == list(inst.words)
    assert net.mult.dtype == net.item_word.dtype == np.int64
    trie, T, W = net.trie, net.trie.size, net.num_words
    wn = trie.word_node.astype(np.int64)
    keys = np.concatenate([2 * np.arange(T), 2 * wn + 1])
    vals = np.concatenate([np.arange(T), T + np.arange(W)])
    merged = vals[np.argsort(keys, kind="stable")].tolist()
    topo = net.topo
    assert topo.tolist()[-(T + W) :] == merged
    # Before them R_in (linear) and the private chains' nodes; every arc between hubs runs
    # forward in that order (made on each call, as the network keeps no copy).
    head_part = ([] if cyclic else [net.r_in]) + list(range(net.r_in + 1, net.num_nodes))
    assert topo.tolist()[: topo.size - T - W] == head_part and topo.dtype == net.tail.dtype
    place = np.full(net.num_nodes, -1)
    place[topo] = np.arange(topo.size)
    hubs = (place[net.tail] >= 0) & (place[net.head] >= 0)
    assert (place[net.tail[hubs]] < place[net.head[hubs]]).all()
    # Flat arcs: hubs that receive units (the root, and heads of the other arcs) to the
    # entries of the words below them, every word's parent first, then grandparent, ...
    flat = net.role == TRIE
    heads = net.head[~flat]
    target = {0} | {int(h) for h in heads if h < T}
    target |= {int(wn[h - T]) for h in heads if T <= h < T + W}
    plus = {int(wn[w]): T + w for w in range(W)}
    expected = []
    levels = [net.m - int(flat.sum())]  # the layout's: where each level starts
    for k in range(1, int(trie.depth.max()) + 1):
        for w in range(W):
            if trie.depth[wn[w]] >= k:
                u = int(wn[w])
                for _ in range(k):
                    u = int(trie.parent[u])
                if u in target:
                    expected.append((plus.get(u, u), net.in_base + w, int(net.mult[w])))
        levels.append(levels[0] + len(expected))
    got = list(
        zip(net.tail[flat].tolist(), net.head[flat].tolist(), net.cap[flat].tolist(), strict=True)
    )
    assert got == expected
    assert flat[levels[0] :].all() and net.layout.flat == levels[0]
    assert net.layout.flat_levels.tolist() == levels


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_lists, st.booleans(), st.booleans(), st.sampled_from([0, 10**9]))
def test_the_arc_layout_is_where_each_part_of_the_arcs_starts(ws, cyclic, proper, small):
    # Each part's arcs as :class:`ArcLayout` says (split, delivery, zero, root link, full and
    # shared hand-overs step by step along the failure chains, self arcs, private chains),
    # the chain steps as arrays (small 0) or in a loop.
    from cpwords.wordsnake.relaxation import string_hub, trie
    from cpwords.wordsnake.relaxation.string_hub import (
        DELIVER,
        HANDOVER,
        PRIVATE,
        ROOTLINK,
        SELF,
        SPLIT,
        ZERO,
    )

    inst = WordsnakeInstance(tuple(ws), cyclic, proper)
    if len(set(inst.words)) < 2:
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(trie, "SMALL_LEVEL", small)
        mp.setattr(string_hub, "SMALL_LEVEL", small)
        net = build_string_network(inst)
    lay, t, W = net.layout, net.trie, net.num_words
    wn = t.word_node.tolist()
    role, tail, head = net.role[:].tolist(), net.tail.tolist(), net.head.tolist()
    assert role[: 3 * W] == [SPLIT] * W + [DELIVER] * W + [ZERO] * W
    assert tail[: 2 * W] == wn * 2 and tail[2 * W : 3 * W] == [net.out_base + w for w in range(W)]
    assert role[3 * W : lay.full] == ([] if cyclic else [ROOTLINK])
    full = [w for w in range(W) if not proper and t.end[wn[w]] > wn[w]]
    assert tail[lay.full : lay.shared] == [net.out_base + w for w in full]
    assert head[lay.full : lay.shared] == [t.size + w for w in full]
    # Shared hand-overs: step i holds each word's (i + 1)-th link, unless a private border.
    fail = t.fail.tolist()
    steps = lay.shared_steps.tolist()
    assert steps[0] == lay.shared and steps[-1] == lay.self_arcs
    for i in range(len(steps) - 1):
        want = []
        for w in range(W):
            s = wn[w]
            for _ in range(i + 1):
                s = fail[s] if s else 0
            border = s <= wn[w] <= t.end[s] and t.depth[s] >= 2
            hub = t.size + int(t.node_word[s]) if proper and t.node_word[s] >= 0 else s
            if s and not border:
                want.append((net.out_base + w, hub))
        got = zip(tail[steps[i] : steps[i + 1]], head[steps[i] : steps[i + 1]], strict=True)
        assert list(got) == want
    assert set(role[lay.self_arcs : lay.private]) <= {SELF}
    assert tail[lay.self_arcs : lay.private] == sorted(tail[lay.self_arcs : lay.private])
    assert set(role[lay.private : lay.flat]) <= {PRIVATE, DELIVER, HANDOVER}
    chain_tails = tail[lay.private : lay.flat]
    assert all(x > net.r_in for x in chain_tails if not net.out_base <= x < net.in_base)


@settings(max_examples=150, deadline=None)
@given(any_lists, st.randoms(use_true_random=False))
def test_an_orderings_word_ids_are_the_dictionarys(ws, rng):
    # Each word of any ordering of the items (or of some of them) by its place in the
    # network's words; a word that is not the network's is refused.
    from cpwords.wordsnake.relaxation.dual_certificate import word_ids

    inst = WordsnakeInstance(tuple(ws))
    if len(set(inst.words)) < 2:
        return
    net = build_string_network(inst)
    order = list(inst.words)
    rng.shuffle(order)
    assert word_ids(net, order) == tuple(net.words.index(w) for w in order)
    fewer = [w for w in order if w != order[0]]  # not every word
    assert word_ids(net, fewer) == tuple(net.words.index(w) for w in fewer)
    with pytest.raises(KeyError):
        word_ids(net, [*order, "zzzzzzzzzzzzzzzzzzzz"])


@pytest.mark.parametrize(
    "words",
    [
        ("alfalfa", "zzz"),  # a border of length 3 must not loop back: the optimum is 0
        ("mahimahi", "okeydokey", "xyz"),
        ("tzar", "tzaritza"),  # full overlap one way, a 3-letter overlap back
        ("hots", "hotshots", "qq"),
        ("abab", "abab", "bab"),  # repeats with borders
    ],
)
@pytest.mark.parametrize("cyclic", [False, True])
@pytest.mark.parametrize("proper", [False, True])
def test_borders_and_full_overlaps_make_no_fake_self_loops(words, cyclic, proper):
    inst = WordsnakeInstance(words, cyclic, proper)
    optimum = brute_force(words, cyclic, proper)
    assert string_relaxation(inst) <= explicit_relaxation(words, cyclic, proper)
    res = solve_wordsnake(inst)
    assert res.is_optimal and res.objective == optimum and res.verified


@pytest.mark.slow
def test_a_50000_letter_word_is_solved_in_linear_memory():
    """Every prefix of every word used to be stored: 5 GB for a 100,000-letter word (whose
    certificate check, quadratic in a word's length, takes 19 s; 6 s at this size)."""
    long = "ab" * 25_000
    inst = WordsnakeInstance((long, "ba", "bab"))
    res = solve_wordsnake(inst)
    assert res.is_optimal and res.verified
    assert res.objective == brute_force(inst.words, False, False)


def test_relaxation_with_many_long_overlaps_is_tightened_by_the_lagrangian_bound():
    rng = random.Random(5)
    words = tuple("".join(rng.choice("abc") for _ in range(rng.randint(3, 6))) for _ in range(40))
    inst = WordsnakeInstance(words)
    only_flow = solve_string_flow(build_string_network(inst), lagrangian_iterations=0)
    tightened = solve_string_flow(build_string_network(inst), lagrangian_iterations=50)
    assert tightened.bound < only_flow.bound
    assert tightened.proven


def test_an_instance_too_large_for_memory_is_refused_in_one_line(monkeypatch):
    monkeypatch.setattr(policy, "available_memory", lambda: 1_000)
    with pytest.raises(InputError, match="GB to solve exactly") as err:
        solve_wordsnake(WordsnakeInstance(("run", "nausea", "seasick")))
    assert "\n" not in str(err.value)


def test_mip_proofs_are_sound_above_ten_thousand_points():
    """A 1e-4 relative MIP gap can stop a whole point short above 10,000 points: the letter-hub
    MIP must agree with the routes model on such an instance."""
    rng = random.Random(3)
    ring = "".join(rng.choice("ab") for _ in range(150))
    # Windows of a circular string: consecutive windows overlap by 25 letters (625 points), and
    # the ring closes, so the relaxation is disconnected and the MIP rounds must run.
    words = tuple((ring + ring)[i : i + 30] for i in range(0, 150, 5))
    words += tuple("".join(rng.choice("ab") for _ in range(8)) for _ in range(6))
    inst = WordsnakeInstance(words)
    mip = solve_wordsnake(inst, "mip", time_limit=60)
    routes = solve_wordsnake(inst, "cpsat-routes", time_limit=60)
    assert mip.objective > 10_000 and mip.solver_info["rounds"] >= 1
    assert mip.is_optimal and routes.is_optimal
    assert mip.objective == routes.objective == mip.bound


def _random_words(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    letters = "etaoinshrdlucmfwypvbgkqjxz"
    return ["".join(rng.choices(letters, k=rng.randint(3, 12))) for _ in range(n)]


def test_a_time_limited_solve_never_claims_an_unproven_optimum():
    inst = WordsnakeInstance(tuple(_random_words(30_000, 1)))
    res = solve_wordsnake(inst, time_limit=0.5)
    assert res.verified
    assert res.status is Status.FEASIBLE or res.objective == res.bound
    assert res.bound is None or res.bound >= res.objective


@pytest.mark.slow
def test_ctrl_c_returns_the_best_ordering_so_far(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("\n".join(_random_words(150_000, 2)))
    proc = subprocess.Popen(
        [sys.executable, "-m", "cpwords", "snake", str(path), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(4)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    if out.strip():  # an ordering existed when Ctrl-C came
        data = json.loads(out)
        assert data["interrupted"] is True and data["verified"] is True
        assert data["status"] == "FEASIBLE" or data["objective"] == data["bound"]
    else:
        assert "interrupted" in err


@pytest.mark.parametrize(
    "modname",
    [
        "cpwords.core.machine",
        "cpwords.core.result",
        "cpwords.wordsnake.primal.repair",
        "cpwords.wordsnake.rules",
        "cpwords.wordsnake.spec",
    ],
)
def test_doctests(modname):
    import doctest
    import importlib

    res = doctest.testmod(importlib.import_module(modname))
    assert res.failed == 0 and res.attempted > 0


@pytest.mark.slow
def test_the_flow_child_dies_with_a_killed_parent_and_frees_its_output(tmp_path):
    """Issue 23, item 1: a forked flow child outlived a SIGKILLed parent, holding the caller's
    stdout open, so `cpwords snake LIST | cat` never ended."""
    import os
    from pathlib import Path

    from cpwords.wordsnake.spec import random_strings

    def children(pid: int) -> list[int]:
        kids = []
        for d in Path("/proc").iterdir():
            if d.name.isdigit():
                try:
                    if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                        kids.append(int(d.name))
                except (OSError, ValueError, IndexError):
                    pass
        return kids

    if not Path("/proc").is_dir():
        pytest.skip("needs /proc (Linux)")
    f = tmp_path / "hard.txt"
    # Many repeats over {a, b, c}: the greedy cannot be routed, so the flow runs in a child.
    f.write_text("\n".join(random_strings("abc", 60_000, 1, 4, 10)) + "\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "cpwords", "snake", str(f), "--time-limit", "120"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        t0 = time.monotonic()
        kids: list[int] = []
        while not kids and time.monotonic() - t0 < 90 and proc.poll() is None:
            kids = children(proc.pid)
            time.sleep(0.05)
        if not kids:
            pytest.skip("the solve ended before forking its flow child")
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.stdout is not None
        # End of file only once no process holds the pipe: wait for it at most 10 s.
        import select

        fd = proc.stdout.fileno()
        deadline = time.monotonic() + 10
        eof = False
        while not eof and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            eof = bool(ready) and os.read(fd, 65536) == b""
        assert eof, "the killed parent's stdout is still held open"
        proc.wait(timeout=10)
        time.sleep(1.0)
        alive = []
        for k in kids:
            try:
                state = Path(f"/proc/{k}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                alive.append(k)
        assert alive == []
    finally:
        if proc.poll() is None:
            proc.kill()


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.text(alphabet="abé", min_size=1, max_size=7), min_size=2, max_size=12),
    st.booleans(),
)
def test_bulk_pair_scores_equal_the_checkers_overlaps(ws, proper):
    words = tuple(ws)  # repeated words included: copies of a word are distinct items
    inst = WordsnakeInstance(words, False, proper)
    pair = PairScore(build_string_network(inst))
    n = len(words)
    a, b = (np.array(x) for x in zip(*itertools.product(range(n + 1), repeat=2), strict=True))
    expected = [
        0 if i == j or n in (i, j) else pair_overlap(words[i], words[j], proper) ** 2
        for i, j in zip(a.tolist(), b.tolist(), strict=True)
    ]
    assert pair.many(a, b).tolist() == expected
    assert [pair(i, j) for i, j in zip(a.tolist(), b.tolist(), strict=True)] == expected


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="abé", min_size=1, max_size=4), min_size=1, max_size=12),
    st.booleans(),
)
def test_distinct_words_are_the_sorted_set_with_counts_and_each_items_word(
    ws: list[str], in_order: bool
) -> None:
    # Any list, and lists already in order (strictly increasing: the no-sort path; with
    # repeats: the sort), against the set, the counter and the index of each item.
    from collections import Counter

    from cpwords.wordsnake.relaxation.string_hub import distinct_words

    items = sorted(ws) if in_order else ws
    words, mult, item_word = distinct_words(tuple(items))
    counts = Counter(items)
    assert list(words) == sorted(counts)
    assert mult.tolist() == [counts[w] for w in words]
    assert [words[i] for i in item_word.tolist()] == list(items)
    assert mult.dtype == item_word.dtype == np.int64


@settings(max_examples=60, deadline=None)
@given(ab_lists(8, 10), st.booleans(), st.booleans())
def test_the_narrow_network_is_the_network_in_64_bits(
    ws: list[str], cyclic: bool, proper: bool
) -> None:
    # The arc arrays narrowed to 32 bits (the weights to 8) hold the values the 64-bit build
    # gives (every type forced to int64), in the same order.
    from cpwords.wordsnake.relaxation import int_types, string_hub

    inst = WordsnakeInstance(tuple(ws), cyclic, proper)
    narrow = build_string_network(inst)
    assert narrow.tail.dtype == narrow.head.dtype == narrow.topo.dtype == np.int32
    assert narrow.cap.dtype == np.int32
    assert narrow.weight.dtype == np.int8  # squared overlaps of at most 8 letters
    assert narrow.supply.dtype == np.int8  # each word listed at most a few times
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(string_hub, "INT32_MAX", -1)  # nothing fits: every type 64 bits
        mp.setattr(int_types, "INT32_MAX", -1)
        wide = build_string_network(inst)
    assert wide.tail.dtype == wide.cap.dtype == wide.weight.dtype == np.int64
    for name in ("tail", "head", "cap", "weight", "role", "supply", "topo"):
        assert (
            np.asarray(getattr(narrow, name)).tolist() == np.asarray(getattr(wide, name)).tolist()
        )
    assert narrow.chains == wide.chains


@pytest.mark.parametrize(
    ("copies", "dtype"), [(1, np.int8), (126, np.int8), (127, np.int16), (40_000, np.int32)]
)
@pytest.mark.parametrize("cyclic", [False, True])
def test_the_supplies_fit_the_most_listed_word(copies: int, dtype: type, cyclic: bool) -> None:
    # A word listed ``copies`` times has supply ``copies`` at its exit and ``-copies`` at its
    # entry (the depot's unit on top of it at R_in, linear snakes): the narrowest type holding
    # ``copies + 1``, with the values the 64-bit build gives.
    from cpwords.wordsnake.relaxation import int_types, string_hub

    inst = WordsnakeInstance(("abc",) * copies + ("bcd", "cab"), cyclic)
    narrow = build_string_network(inst)
    assert narrow.supply.dtype == dtype
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(string_hub, "INT32_MAX", -1)
        mp.setattr(int_types, "INT32_MAX", -1)
        wide = build_string_network(inst)
    assert wide.supply.dtype == np.int64
    assert narrow.supply.tolist() == wide.supply.tolist()
    assert int(narrow.supply.max()) == copies
    assert int(np.abs(narrow.supply.astype(np.int64)).sum()) == 2 * (copies + 2) + (
        0 if cyclic else 2
    )


@settings(max_examples=150, deadline=None)
@given(ab_lists(7, 25), st.booleans(), st.booleans())
def test_the_hubs_places_are_the_inverse_of_their_topological_order(
    words: list[str], cyclic: bool, proper: bool
) -> None:
    # Borders (private chains), words inside others, repeats, both variants: each hub's place
    # written from the trie is its index in the order, in either id type.
    inst = WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper)
    if len(set(inst.words)) < 2:
        return
    net = build_string_network(inst)
    topo = net.topo
    for dtype in (np.int32, np.int64):
        places = net.topo_places(dtype)
        assert places.dtype == dtype and places.shape == (net.num_nodes,)
        assert places[topo].tolist() == list(range(topo.size))
