"""Patching among the cycles (:func:`~cpwords.wordsnake.primal.patching.patch_pairwise`): the
k-mers of tandem repeats (a telomere's), whose cycles join one another at no loss but not the
main one, proven by the flow stage's repair; on small lists of periodic words it orders every
item once and the default method still proves the brute-force optimum."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.core.result import Status
from cpwords.wordsnake.certificate import verify_certificate
from cpwords.wordsnake.exact.policy import solve_exact
from cpwords.wordsnake.primal.patching import patch_pairwise
from cpwords.wordsnake.primal.repair import PairScore, score_sequence
from cpwords.wordsnake.relaxation.decode import cycle_labels
from cpwords.wordsnake.relaxation.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score

#: C. elegans' telomere in miniature: repeats of ``gcctaa`` and ``gactaa`` after a few letters
#: (its 11-mers: 40 words, cycles of period 6 and 12 beside the main path).
TELOMERE = (
    "ttatgagaggtgtgtattgactaagactaagactaagactaagactaagcctaagactaagcctaagactaagcctaagact"
    "aagcctaagactaagcctaagactaagactaagactaagactaagactaagcctaagcctaagcctaagcctaag"
)


def kmers(text: str, k: int) -> tuple[str, ...]:
    """The distinct k-mers of ``text``, sorted."""
    return tuple(sorted({text[i : i + k] for i in range(len(text) - k + 1)}))


def test_the_telomere_is_proven_by_the_repair_of_the_first_flow() -> None:
    """Joined to the main cycle one by one the repeats' cycles lose 8 points (380 of 388) and
    the core search had to close the gap; joined first to one another, the repair meets the
    flow's bound and its certificate proves it."""
    words = kmers(TELOMERE, 11)
    inst = WordsnakeInstance(words, score="linear")
    res = solve_exact(inst, time_limit=60, workers=1, neighbourhood_search=False, certificate=True)
    assert res.status is Status.OPTIMAL and res.objective == res.bound == 388
    assert res.method == "exact/flow"
    assert res.solver_info["flow_components"] >= 3
    cert = res.solver_info["certificate"]
    found = verify_certificate(words, cert, score="linear")
    assert found.status == "VALID" and found.bound == 388
    assert snake_score(res.solution, score="linear") == 388


def _repeats(units: list[str], counts: list[int], k: int, extra: list[str]) -> tuple[str, ...]:
    text = "".join(u * c for u, c in zip(units, counts, strict=False))
    return tuple(dict.fromkeys([*kmers(text, k), *extra]))


periodic_lists = st.builds(
    _repeats,
    st.lists(st.text(alphabet="abc", min_size=1, max_size=5), min_size=1, max_size=6),
    st.lists(st.integers(1, 5), min_size=6, max_size=6),
    st.integers(2, 6),
    st.lists(st.text(alphabet="abc", min_size=1, max_size=5), max_size=3),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(periodic_lists, st.booleans(), st.randoms(use_true_random=False))
def test_any_cycle_cover_is_joined_into_one_ordering_of_every_item(
    words: tuple[str, ...], cyclic: bool, rng: random.Random
) -> None:
    """On any cycle cover of periodic words (a random successor map), the patching orders
    every item once and its score is the words' own; it is tried only when two cycles or more
    lie outside the main one (the depot's, or a cyclic snake's largest)."""
    if len(words) < 2:
        return  # no joint to route
    inst = WordsnakeInstance(words, cyclic=cyclic, score="linear")
    net = build_string_network(inst)
    n = len(words)
    items = list(range(n)) if cyclic else list(range(n + 1))
    rng.shuffle(items)
    succ = np.array(items + ([n] if cyclic else []), dtype=np.int64)
    comp, _ = cycle_labels(succ, n, cyclic)
    pair = PairScore(net)
    labels = comp[:n].tolist()
    main = max(set(labels), key=labels.count) if cyclic else int(comp[n])
    outside = len(set(labels) - {main})
    seq = patch_pairwise(net, succ, comp, pair)
    if outside < 2:
        assert seq is None
        return
    assert seq is not None and sorted(seq) == list(range(n))
    score = score_sequence(seq, pair, cyclic)
    assert score == snake_score([words[i] for i in seq], cyclic, score="linear")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(periodic_lists.filter(lambda ws: 1 <= len(ws) <= 7), st.booleans())
def test_periodic_lists_are_proven_at_the_brute_force_optimum(
    words: tuple[str, ...], cyclic: bool
) -> None:
    inst = WordsnakeInstance(words, cyclic=cyclic, score="linear")
    best = max(snake_score(p, cyclic, score="linear") for p in itertools.permutations(words))
    res = solve_exact(inst, time_limit=30, workers=1, certificate=True)
    assert res.status is Status.OPTIMAL and res.objective == res.bound == best
    found = verify_certificate(words, res.solver_info["certificate"], score="linear")
    assert found.status == "VALID" and found.bound == best


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.text(alphabet="abcé", min_size=1, max_size=6), min_size=2, max_size=12),
    st.booleans(),
    st.booleans(),
    st.sampled_from([1, 2, 5, 1 << 20]),
)
def test_the_suffix_records_read_by_blocks_are_those_read_at_once(
    ws: list[str], cyclic: bool, proper: bool, block: int
) -> None:
    # The candidate index's records (hand-over arcs from exits: the string's trie node, the
    # word) are the stretch of the full and shared hand-overs; read off the network a block
    # of arcs at a time, or copied (as a network whose records were not that stretch has
    # them), they are those the whole network's masks select.
    from cpwords.wordsnake.primal import suffix_records
    from cpwords.wordsnake.relaxation.string_hub import HANDOVER

    inst = WordsnakeInstance(tuple(ws), cyclic, proper)
    if len(set(inst.words)) < 2:
        return
    net = build_string_network(inst)
    wn = net.trie.word_node.astype(np.int64)
    T, W = net.trie.size, net.num_words
    sel = (net.role == HANDOVER) & (net.tail >= net.out_base) & (net.tail < net.in_base)
    w, h = net.tail[sel] - net.out_base, net.head[sel]
    node = np.where(h < T, h, -1)
    plus = (h >= T) & (h < T + W)
    node[plus] = wn[h[plus] - T]
    keep = node > 0
    assert np.flatnonzero(sel)[keep].tolist() == list(range(net.layout.full, net.layout.self_arcs))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(suffix_records, "RECORD_BLOCK", block)
        read = suffix_records.SuffixRecords(net, wn)
        mp.setattr(suffix_records, "_record_span", lambda net, word_node: None)
        copied = suffix_records.SuffixRecords(net, wn)
        for records in (read, copied):
            parts = list(records.blocks())
            assert [a for a, _, _ in parts] == list(range(0, records.size, block))
            got_node = np.concatenate([n for _, n, _ in parts] or [node[:0]])
            got_word = np.concatenate([x for _, _, x in parts] or [w[:0]])
            assert got_node.dtype == node.dtype and np.array_equal(got_node, node[keep])
            assert got_word.dtype == w.dtype and np.array_equal(got_word, w[keep])
            picks = np.arange(records.size)[::2]
            assert np.array_equal(records.at(picks)[0], node[keep][picks])
            assert np.array_equal(records.at(picks)[1], w[keep][picks])
