"""The checker's array code against its dict tables and the pair-by-pair reference.

The array path (:mod:`cpwords.wordsnake.certificate.arrays`) must give the same verdict, the
same first violated joint and the same recount as the dict tables it replaced, on any alphabet,
with repeated words, words inside others and combining marks.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.core.codepoints import Letters
from cpwords.wordsnake.certificate import (
    Certificate,
    arrays,
    duals,
    ranges,
    scores,
    verify_certificate,
    verify_pairwise,
    word_fingerprint,
)

#: Letters of several scripts, a combining acute accent and a letter outside the BMP.
LETTERS = ["a", "b", "é", "\u0301", "字", "ж", "\U00010400"]

#: More than 256 distinct code points (windows of 2 bytes a letter), half the draws an "a".
MANY = ["a"] * 300 + [chr(0x4E00 + i) for i in range(300)]

words_st = st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=6), min_size=1, max_size=9).map(
    lambda ws: [*ws, ws[0] * 2, *ws[:2]]
)  # a word inside another, repeats


def _random_certificate(
    words: list[str], data: st.DataObject, cyclic: bool, proper: bool
) -> Certificate:
    """Values drawn near the tight ones, so that some checks pass and some fail."""
    counts = Counter(words)
    distinct = sorted(counts)
    W = len(distinct)
    scale = data.draw(st.sampled_from([1, 3, 1 << 20]))
    longest = max(map(len, distinct))
    top = scale * longest * longest
    u = data.draw(st.lists(st.integers(-top, 2 * top), min_size=W, max_size=W))
    v = data.draw(st.lists(st.integers(-top, 2 * top), min_size=W, max_size=W))
    cut_ids = st.lists(st.integers(0, W - 1), min_size=1, max_size=W, unique=True)
    cuts = data.draw(st.lists(st.tuples(cut_ids.map(tuple), st.integers(0, top)), max_size=3))
    if cyclic:
        cuts = [(ids, lam) for ids, lam in cuts if len(ids) < W]
    order = [i for i, w in enumerate(distinct) for _ in range(counts[w])]
    depot = None if cyclic else data.draw(st.tuples(st.integers(-top, top), st.integers(-top, top)))
    return Certificate(
        word_fingerprint(words),
        len(words),
        cyclic,
        proper,
        scale,
        u=tuple(u),
        v=tuple(v),
        depot=depot,
        cuts=tuple(cuts),
        order=tuple(order),
        bound=0,
        objective=0,
    )


def _dict_tables_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(duals._ArrayCheck, "of", classmethod(lambda cls, *args: None))


@settings(max_examples=150, deadline=None)
@given(words=words_st, data=st.data(), cyclic=st.booleans(), proper=st.booleans())
def test_the_array_check_finds_the_dict_tables_verdict_and_first_violation(
    words: list[str], data: st.DataObject, cyclic: bool, proper: bool
) -> None:
    cert = _random_certificate(words, data, cyclic, proper)
    counts = Counter(words)
    distinct = sorted(counts)
    mult = [counts[w] for w in distinct]
    fast = duals.dual_violation(distinct, mult, cert, None)
    with pytest.MonkeyPatch.context() as mp:
        _dict_tables_only(mp)
        slow = duals.dual_violation(distinct, mult, cert, None)
    assert fast == slow
    reference = verify_pairwise(words, cert)
    assert (fast is None) == (reference.status != "INVALID")


@settings(max_examples=100, deadline=None)
@given(
    words=words_st,
    data=st.data(),
    cyclic=st.booleans(),
    chunk=st.sampled_from([1, 2, 5, 11]),
)
def test_query_chunks_shorter_than_a_word_give_the_same_first_violation(
    words: list[str], data: st.DataObject, cyclic: bool, chunk: int
) -> None:
    # The query words go in chunks of about QUERY_CHUNK suffixes: a word longer than a chunk
    # (a cut before the first word, empty chunks) changes no verdict and no first violation.
    cert = _random_certificate(words, data, cyclic, False)
    counts = Counter(words)
    distinct = sorted(counts)
    mult = [counts[w] for w in distinct]
    whole = duals.dual_violation(distinct, mult, cert, None)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(duals, "QUERY_CHUNK", chunk)
        assert duals.dual_violation(distinct, mult, cert, None) == whole


@settings(max_examples=150, deadline=None)
@given(words=words_st, data=st.data(), cyclic=st.booleans(), proper=st.booleans())
def test_the_joints_overlaps_as_arrays_are_the_letter_by_letter_ones(
    words: list[str], data: st.DataObject, cyclic: bool, proper: bool
) -> None:
    distinct = sorted(set(words))
    order = data.draw(st.permutations(range(len(distinct))))
    letters = Letters(distinct)
    seq = [distinct[i] for i in order]
    for score in ("squared", "linear"):
        assert scores.order_score(letters, order, cyclic, proper, score) == scores.ordering_score(
            seq, cyclic, proper, score
        )
    # An ordering with repeated words (the joints sorted by their first word, not by place).
    again = data.draw(st.lists(st.integers(0, len(distinct) - 1), min_size=1, max_size=12))
    seq = [distinct[i] for i in again]
    for score in ("squared", "linear"):
        assert scores.order_score(letters, again, cyclic, proper, score) == scores.ordering_score(
            seq, cyclic, proper, score
        )


def test_prefixes_shared_by_runs_of_words_are_one_prefix_each() -> None:
    """Every distinct prefix is numbered once, with the two smallest values of the words that
    start with it (checked against a dictionary of every prefix)."""
    words = sorted({"a", "ab", "abc", "abd", "b", "ba", "bab", "é", "é\u0301", "字字"})
    values = np.array([7, 3, 5, 3, 9, 1, 2, 4, 8, 6])
    letters = Letters(words)
    for proper in (False, True):
        table = arrays.PrefixTable.build(letters, np.arange(len(words)), values, proper)
        expect: dict[str, list[tuple[int, int]]] = {}
        for i, w in enumerate(words):
            for k in range(len(w) if proper else len(w) + 1):
                expect.setdefault(w[:k], []).append((int(values[i]), i))
        assert table.keys.size == len(expect)
        for node in range(table.keys.size):
            best = sorted(expect[table.prefix_of(node)])
            assert (int(table.v1[node]), int(table.i1[node])) == best[0]
            if len(best) > 1:
                assert int(table.v2[node]) == best[1][0]
            else:
                assert int(table.i2[node]) == -1


@settings(max_examples=150, deadline=None)
@given(words=words_st, data=st.data(), proper=st.booleans())
def test_the_prefix_table_is_every_prefix_once_with_its_two_smallest_values(
    words: list[str], data: st.DataObject, proper: bool
) -> None:
    """Any alphabet, words inside others, a subset of the words, ties between values: the
    table against a dict of every prefix."""
    distinct = sorted(set(words))
    ids = sorted(data.draw(st.sets(st.integers(0, len(distinct) - 1), min_size=1)))
    wide = data.draw(st.sampled_from([5, 1 << 40]))  # values packed with places, or ranked
    values = np.array(
        data.draw(
            st.lists(
                st.sampled_from([-wide, -1, 0, 1, wide]) | st.integers(-5, 5),
                min_size=len(distinct),
                max_size=len(distinct),
            )
        )
    )
    letters = Letters(distinct)
    table = arrays.PrefixTable.build(letters, np.array(ids), values, proper)
    expect: dict[str, list[tuple[int, int]]] = {}
    for i in ids:
        w = distinct[i]
        for k in range(len(w) if proper else len(w) + 1):
            expect.setdefault(w[:k], []).append((int(values[i]), i))
    assert sorted(table.prefix_of(node) for node in range(table.keys.size)) == sorted(expect)
    for node in range(table.keys.size):
        best = sorted(expect[table.prefix_of(node)])
        assert (int(table.v1[node]), int(table.i1[node])) == best[0]
        second = (int(table.v2[node]), int(table.i2[node]))
        assert second == (best[1] if len(best) > 1 else (0, -1))
        start = int(letters.start[int(table.word[node])])
        size = int(table.length[node])
        key = letters.keys(np.array([start]), np.array([start + size]))[0]
        assert table.keys[node] == key and table.find(np.array([key]))[0] == node
    # Each word of the table, whole, is its own prefix (none when proper).
    wholes = [] if table.whole is None else [table.prefix_of(n) for n in table.whole.tolist()]
    assert wholes == ([] if proper else [distinct[i] for i in ids])


@settings(max_examples=100, deadline=None)
@given(words=words_st, data=st.data(), proper=st.booleans())
def test_the_smallest_values_are_held_in_32_bits_only_when_they_fit(
    words: list[str], data: st.DataObject, proper: bool
) -> None:
    """Values about the ends of int32 (within it, spanning more than ``2 ** 31``, or beyond
    it, packed with places or ranked): the smallest value of each prefix is the dict's, held in
    int32 exactly when every value fits, and the slot bounds never exceed it."""
    distinct = sorted(set(words))
    offset = data.draw(st.sampled_from([0, 2**31 - 6, -(2**31) + 5, 1 << 40, -(1 << 40)]))
    ends = st.sampled_from([-(2**31), 2**31 - 1, -(2**31) - 1, 2**31, 7])
    values = np.array(
        data.draw(
            st.lists(
                ends | st.integers(-5, 5).map(lambda x: x + offset),
                min_size=len(distinct),
                max_size=len(distinct),
            )
        ),
        dtype=np.int64,
    )
    letters = Letters(distinct)
    table = arrays.PrefixTable.build(letters, np.arange(len(distinct)), values, proper)
    fits = int(values.min()) >= -(2**31) and int(values.max()) < 2**31
    assert table.v1.dtype == (np.int32 if fits else np.int64)
    least: dict[str, int] = {}
    for i, w in enumerate(distinct):
        for k in range(len(w) if proper else len(w) + 1):
            least[w[:k]] = min(least.get(w[:k], int(values[i])), int(values[i]))
    assert [int(x) for x in table.v1] == [least[table.prefix_of(n)] for n in range(table.v1.size)]
    v1 = table.v1.astype(np.int64)
    assert table.below(table.keys.copy(), v1 + 1).all()  # the bound of a prefix: never above
    assert not table.below(table.keys.copy(), np.full(v1.size, int(values.min()))).any()


@settings(max_examples=100, deadline=None)
@given(words=words_st)
def test_the_letters_prefix_and_suffix_keys_are_the_substrings_keys(words: list[str]) -> None:
    letters = Letters(sorted(set(words)))
    suffix = letters.suffix_keys()
    word = np.repeat(np.arange(len(letters.words)), letters.lens)
    prefix = letters.prefix_keys(letters.start[word], np.arange(letters.cp.size))
    for w in range(len(letters.words)):
        s, e = int(letters.start[w]), int(letters.start[w + 1])
        at = np.arange(s, e)
        assert prefix[s:e].tolist() == letters.keys(np.full(e - s, s), at + 1).tolist()
        assert suffix[s:e].tolist() == letters.keys(at, np.full(e - s, e)).tolist()


def test_a_long_word_among_short_ones_is_checked_in_linear_time() -> None:
    """A word of 100,000 letters and two short ones: the valid certificate of their optimum
    checks VALID (the dict tables would take one slice of the long word per suffix)."""
    from cpwords.wordsnake.spec import WordsnakeInstance, solve_wordsnake

    words = ("a" * 100_000, "aaaaab", "baaa")
    res = solve_wordsnake(WordsnakeInstance(words), certificate=True, time_limit=60)
    cert = res.solver_info["certificate"]
    check = verify_certificate(words, cert)
    assert check.status == "VALID" and check.objective == res.objective


def test_a_tampered_value_is_found_by_the_array_check() -> None:
    words = ["ab", "bc", "cd", "abc"]
    distinct = sorted(words)
    cert = Certificate(
        word_fingerprint(words),
        4,
        False,
        False,
        1,
        u=(4, 4, 4, 4),
        v=(0, 0, 0, 0),
        depot=(0, 0),
        cuts=(),
        order=(0, 1, 2, 3),
        bound=16,
        objective=0,
    )
    assert verify_certificate(words, cert).status == "VALID"
    bad = replace(cert, u=(4, 0, 4, 4))  # abc -> cd overlaps 1, and bc -> cd too
    check = verify_certificate(words, bad)
    assert check.status == "INVALID"
    assert verify_pairwise(words, bad).status == "INVALID"
    assert distinct[1] in check.message


def test_overlapping_cut_sets_past_the_stated_cap_are_refused_at_once() -> None:
    """Cut sets by bit position give each of 4,096 words its own signature: checking them
    class by class is quadratic (40 random cuts of 500 words on a 20,000-word certificate took
    78.7 s), so such a certificate is refused in one line, before any table is built."""
    from cpwords.wordsnake.certificate import CertificateError
    from cpwords.wordsnake.spec import random_strings

    words = sorted(set(random_strings("abcdefgh", 6000, 1, 6, 9)))[:4096]
    W = len(words)
    cuts = tuple((tuple(i for i in range(W) if i >> bit & 1), 1) for bit in range(12))
    cert = Certificate(
        word_fingerprint(words),
        W,
        False,
        False,
        1,
        u=(100,) * W,
        v=(100,) * W,
        depot=(0, 0),
        cuts=cuts,
        order=tuple(range(W)),
        bound=0,
        objective=0,
    )
    with pytest.raises(CertificateError, match="distinct signatures"):
        verify_certificate(words, cert)
    few = replace(cert, cuts=cuts[:2])  # four signatures: checked as before
    assert verify_certificate(words, few).status in ("VALID", "INVALID")


#: The exact indexes of keys: the probing table, and the slot table that falls back on it.
INDEXES = [arrays.KeyIndex, arrays.SlotIndex]


@pytest.mark.parametrize("kind", INDEXES)
@settings(max_examples=100, deadline=None)
@given(
    st.sets(st.integers(0, 2**64 - 1), max_size=300),
    st.lists(st.integers(0, 2**64 - 1), max_size=300),
)
def test_the_key_index_finds_each_key_and_nothing_else(
    kind: type[arrays.KeyIndex | arrays.SlotIndex], keys: set[int], others: list[int]
) -> None:
    stored = np.array(sorted(keys), dtype=np.uint64)
    index = kind(stored)
    query = np.array([*keys, *others], dtype=np.uint64)
    expected = [int(np.searchsorted(stored, q)) if q in keys else -1 for q in [*keys, *others]]
    assert index.find(query).tolist() == expected


@pytest.mark.parametrize("kind", INDEXES)
@settings(max_examples=50, deadline=None)
@given(st.sets(st.integers(0, 2**16 - 1), max_size=300), st.integers(0, 2**16 - 1))
def test_the_key_index_tells_apart_keys_of_one_tag(
    kind: type[arrays.KeyIndex | arrays.SlotIndex], low: set[int], high: int
) -> None:
    """Keys sharing their top 16 bits share a tag: the keys themselves decide."""
    stored = np.array(sorted(low), dtype=np.uint64) + np.uint64(high << 48)
    index = kind(stored)
    query = np.arange(2**16, dtype=np.uint64)[::7] + np.uint64(high << 48)
    where = {int(k): i for i, k in enumerate(stored)}
    assert index.find(query).tolist() == [where.get(int(q), -1) for q in query]


@pytest.mark.parametrize("kind", INDEXES)
def test_the_key_index_finds_the_key_zero(kind: type[arrays.KeyIndex | arrays.SlotIndex]) -> None:
    stored = np.array([5, 0, 2**64 - 1], dtype=np.uint64)
    index = kind(stored)
    query = np.array([0, 5, 7, 2**64 - 1, 0], dtype=np.uint64)
    assert index.find(query).tolist() == [1, 0, -1, 2, 1]
    assert kind(stored[[0, 2]]).find(query).tolist() == [-1, 0, -1, 1, -1]
    with pytest.raises(arrays.HashCollision):
        kind(np.array([0, 3, 0], dtype=np.uint64))


@pytest.mark.parametrize("many", [arrays.MANY_KEYS, 1])
def test_the_slot_index_finds_the_keys_of_shared_slots(many: int) -> None:
    # 5,000 random keys in 2 ** 15 slots (2 ** 14 when counted as many keys, half the slots a
    # key): about one in seven (one in four) shares its slot with another, and is found
    # through the fallback index; the slot bounds built with the index share its slots.
    rng = np.random.default_rng(7)
    keys = np.unique(rng.integers(0, 2**63, 5000, dtype=np.int64).astype(np.uint64))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(arrays, "MANY_KEYS", many)
        index = arrays.SlotIndex(keys)
        values = rng.integers(-100, 100, keys.size)
        bounds = arrays.SlotBounds(keys, values, index)
        alone = arrays.SlotBounds(keys, values)
    assert index._pos.size == (2**14 if many == 1 else 2**15)
    assert bounds.table.size == index._pos.size and np.array_equal(bounds.table, alone.table)
    assert index.sharing(bounds._shift, arrays.SLOT_MIX) is not None
    assert index._shared.size > 0
    query = np.concatenate([keys[::-1], keys + np.uint64(1)])
    want = {int(k): i for i, k in enumerate(keys)}
    assert index.find(query).tolist() == [want.get(int(q), -1) for q in query]
    assert bounds.below(keys, values + 1).all()
    with pytest.MonkeyPatch.context() as mp:  # placed a few keys at a time: the same index
        mp.setattr(arrays, "MANY_KEYS", many)
        mp.setattr(arrays, "INDEX_BLOCK", 7)
        again = arrays.SlotIndex(keys)
    assert np.array_equal(again._pos, index._pos)
    assert np.array_equal(again._shared, index._shared)
    assert again.find(query).tolist() == index.find(query).tolist()


@pytest.mark.parametrize("kind", INDEXES)
@pytest.mark.parametrize("copies", [2, 3])
@pytest.mark.parametrize("n", [1, 20, 500])
def test_the_key_index_refuses_equal_keys(
    kind: type[arrays.KeyIndex | arrays.SlotIndex], n: int, copies: int
) -> None:
    # Equal keys meet at one slot in the same round: one is stored, the others must still
    # compare themselves with it.
    rng = np.random.default_rng(n)
    keys = rng.integers(0, 2**63, n, dtype=np.int64).astype(np.uint64)
    with pytest.raises(arrays.HashCollision):
        kind(np.concatenate([keys, np.repeat(keys[-1:], copies - 1)]))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from([["a", "b"], ["\x00", "a"], LETTERS, MANY]).flatmap(
            lambda alphabet: st.text(alphabet=alphabet, max_size=12)
        ),
        max_size=8,
    )
)
def test_the_keys_are_the_polynomial_hashes_of_every_prefix_and_suffix(words: list[str]) -> None:
    """The keys of :meth:`Letters.suffix_keys` (a running sum backwards over the words, the
    powers read from a table a word long) and :meth:`Letters.prefix_keys` (from two suffix
    keys each) are Horner's hash of each prefix and suffix, letter
    by letter, modulo 2**64 (empty words and a code point 0 among them); ``to_end`` is each
    letter's distance to its word's end."""
    letters = Letters(words)
    suffix = letters.suffix_keys()
    word = np.repeat(np.arange(len(words)), letters.lens)
    prefix = letters.prefix_keys(letters.start[word], np.arange(letters.cp.size))
    base = letters._base

    def horner(text: str) -> int:
        key = 0
        for ch in text:
            key = (key * base + ord(ch) + 1) % (1 << 64)
        return key

    expect_prefix = [horner(w[: i + 1]) for w in words for i in range(len(w))]
    expect_suffix = [horner(w[i:]) for w in words for i in range(len(w))]
    assert prefix.tolist() == expect_prefix and suffix.tolist() == expect_suffix
    assert letters.to_end().tolist() == [len(w) - i for w in words for i in range(len(w))]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet=[*LETTERS, "\n"], max_size=4), max_size=6))
def test_the_letters_lengths_and_code_points_are_the_words(words: list[str]) -> None:
    """The line feeds that join the words end them unless a word holds one (then counted
    word by word); empty words and an empty list too."""
    letters = Letters(words)
    assert letters.lens.tolist() == [len(w) for w in words]
    assert letters.start.tolist() == [sum(map(len, words[:i])) for i in range(len(words) + 1)]
    assert letters.cp.tolist() == [ord(c) for c in "".join(words)]


@settings(max_examples=150, deadline=None)
@given(
    words=st.lists(
        st.sampled_from([["a", "b"], ["a", "é"], ["a", "字"], LETTERS, MANY]).flatmap(
            lambda alphabet: st.text(alphabet=alphabet, max_size=40)
        ),
        min_size=1,
        max_size=8,
    ),
    rounds=st.sampled_from([1, 2, 16]),
)
def test_the_longest_common_prefixes_of_neighbours_are_the_letters(
    words: list[str], rounds: int
) -> None:
    """Code points of 1, 2 and 4 bytes (ranked into 1 byte, or 2 for more than 256 distinct
    ones), long shared prefixes (compared letter by letter after the windows' rounds)."""
    import cpwords.core.codepoints as codepoints

    distinct = sorted(set(words))
    letters = Letters(distinct)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(codepoints, "LCP_ROUNDS", rounds)
        found = letters.lcp_with_previous(np.arange(len(distinct))).tolist()

    def common(x: str, y: str) -> int:
        top = min(len(x), len(y))
        return next((i for i in range(top) if x[i] != y[i]), top)

    assert found == [-1] + [common(x, y) for x, y in itertools.pairwise(distinct)]


@settings(max_examples=150, deadline=None)
@given(
    words=st.lists(
        st.sampled_from([["a", "b"], ["a", "é"], ["a", "字"], LETTERS, MANY]).flatmap(
            lambda alphabet: st.text(alphabet=alphabet, max_size=30)
        ),
        min_size=1,
        max_size=8,
    ),
    data=st.data(),
    proper=st.booleans(),
)
def test_joint_overlaps_are_the_prefix_functions(
    words: list[str], data: st.DataObject, proper: bool
) -> None:
    """Any alphabet, repeated words, long overlaps (found by hash, compared letter by letter)."""
    from cpwords.core.codepoints import joint_overlaps, overlap_of

    letters = Letters(words)
    pairs = st.tuples(st.integers(0, len(words) - 1), st.integers(0, len(words) - 1))
    chosen = data.draw(st.lists(pairs, max_size=12))
    a = np.array([i for i, _ in chosen], dtype=np.int64)
    b = np.array([j for _, j in chosen], dtype=np.int64)
    expect = [overlap_of(words[i], words[j], proper) for i, j in chosen]
    assert joint_overlaps(letters, a, b, proper).tolist() == expect


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=40), st.data())
def test_the_range_minima_are_the_least_of_each_range(
    values: list[int], data: st.DataObject
) -> None:
    """Ranks with ties broken by position, every kind of range (empty, one entry, a power of
    two, the whole array): the sparse table's least against min()."""
    n = len(values)
    rank = np.argsort(np.argsort(np.array(values), kind="stable"), kind="stable")
    pairs = data.draw(
        st.lists(st.tuples(st.integers(0, n), st.integers(0, n)), min_size=1, max_size=20)
    )
    a = np.array([min(x, y) for x, y in pairs], dtype=np.int64)
    b = np.array([max(x, y) for x, y in pairs], dtype=np.int64)
    found = ranges.RangeMin(rank).least(a, b).tolist()
    assert found == [min(rank[x:y].tolist(), default=n) for x, y in zip(a, b, strict=True)]
    none = ranges.PACKED_NONE  # another least of an empty range (above every entry)
    found = ranges.RangeMin(rank, none).least(a, b).tolist()
    assert found == [min(rank[x:y].tolist(), default=none) for x, y in zip(a, b, strict=True)]


@settings(max_examples=100, deadline=None)
@given(
    st.sets(st.integers(0, 2**64 - 1), min_size=1, max_size=300),
    st.lists(st.integers(0, 2**64 - 1), max_size=100),
    st.sampled_from([10, 40_000, 2**60]),
    st.data(),
)
def test_the_slot_bounds_are_the_least_values_of_a_slot_rounded_down(
    keys: set[int], others: list[int], top: int, data: st.DataObject
) -> None:
    """A key's bound is the least value of the keys of its slot, rounded down to the step (1
    unless the values span more than 15 bits): a limit above the key's value always reads
    True, a limit at most the rounded least value False, a slot no key has never True."""
    stored = np.array(sorted(keys), dtype=np.uint64)
    values = np.array(
        data.draw(st.lists(st.integers(-top, top), min_size=len(keys), max_size=len(keys))),
        dtype=np.int64,
    )
    bounds = arrays.SlotBounds(stored, values)
    slot = bounds._slot(stored)
    least = {int(s): int(values[slot == s].min()) for s in np.unique(slot)}
    floor = np.array([least[int(s)] for s in slot], dtype=np.int64)
    assert bounds.below(stored, values + 1).all()
    assert not bounds.below(stored, floor - bounds.step + 1).any()
    query = np.array(others, dtype=np.uint64)
    empty = np.isin(bounds._slot(query), slot, invert=True)
    assert not bounds.below(query, np.full(query.size, 2**62, dtype=np.int64))[empty].any()


def _tampered(cert: Certificate, data: st.DataObject) -> Certificate:
    """The certificate with a few values, the depot or a cut moved (down more often)."""
    u, v = list(cert.u), list(cert.v)
    for _ in range(data.draw(st.integers(1, 3))):
        vals = data.draw(st.sampled_from([u, v]))
        i = data.draw(st.integers(0, len(vals) - 1))
        vals[i] += data.draw(st.sampled_from([-5, -2, -1, -1, 1])) * cert.scale
    depot = cert.depot
    if depot is not None and data.draw(st.booleans()):
        depot = (depot[0] - data.draw(st.integers(0, 2)), depot[1])
    cuts = list(cert.cuts)
    if data.draw(st.booleans()):
        ids = data.draw(st.lists(st.integers(0, len(u) - 1), min_size=1, unique=True))
        if not (cert.cyclic and len(ids) == len(u)):
            cuts.append((tuple(sorted(ids)), data.draw(st.integers(0, 3)) * cert.scale))
    return replace(cert, u=tuple(u), v=tuple(v), depot=depot, cuts=tuple(cuts))


@settings(max_examples=40, deadline=None)
@given(words=words_st, data=st.data(), cyclic=st.booleans(), proper=st.booleans())
def test_tampered_solver_certificates_fail_as_the_dict_tables_and_the_pairs_say(
    words: list[str], data: st.DataObject, cyclic: bool, proper: bool
) -> None:
    """The solver's own certificate of a list in any alphabet (combining marks, repeats, words
    inside others) is VALID; tampered with, the array check finds the dict tables' first
    violation and the pair-by-pair check's verdict."""
    from cpwords.wordsnake.spec import WordsnakeInstance, solve_wordsnake

    # Words start with a letter (a combining mark alone is no word).
    inst = WordsnakeInstance(
        tuple("a" + w if w[0] == "\u0301" else w for w in words), cyclic, proper
    )
    res = solve_wordsnake(inst, certificate=True, time_limit=60, workers=1)
    cert = replace(res.solver_info["certificate"], tree=(), core=None, target=None)
    assert verify_certificate(inst.words, cert).status in ("VALID", "PARTIAL")
    counts = Counter(inst.words)
    distinct = sorted(counts)
    mult = [counts[w] for w in distinct]
    for _ in range(3):
        bad = _tampered(cert, data)
        fast = duals.dual_violation(distinct, mult, bad, None)
        with pytest.MonkeyPatch.context() as mp:
            _dict_tables_only(mp)
            slow = duals.dual_violation(distinct, mult, bad, None)
        assert fast == slow
        check, reference = verify_certificate(inst.words, bad), verify_pairwise(inst.words, bad)
        assert (check.status, check.bound) == (reference.status, reference.bound)


@settings(max_examples=150, deadline=None)
@given(words=words_st, data=st.data(), proper=st.booleans())
def test_joint_overlaps_read_in_place_are_the_prefix_functions(
    words: list[str], data: st.DataObject, proper: bool
) -> None:
    """Pairs whose first words ascend (each word first of one pair at most): the overlaps read
    letter by letter in place equal the prefix functions, and the pairs listed one by one."""
    import cpwords.core.codepoints as codepoints

    distinct = sorted(set(words))
    letters = Letters(distinct)
    firsts = sorted(data.draw(st.sets(st.integers(0, len(distinct) - 1), min_size=1)))
    seconds = [data.draw(st.integers(0, len(distinct) - 1)) for _ in firsts]
    a, b = np.array(firsts, dtype=np.int64), np.array(seconds, dtype=np.int64)
    expect = [
        codepoints.overlap_of(distinct[i], distinct[j], proper)
        for i, j in zip(firsts, seconds, strict=True)
    ]
    top = np.maximum(np.minimum(letters.lens[a], letters.lens[b]) - (1 if proper else 0), 0)
    assert codepoints._longest_matches_in_place(letters, a, b, top).tolist() == expect
    assert codepoints._longest_matches(letters, a, b, top).tolist() == expect
    assert codepoints.joint_overlaps(letters, a, b, proper).tolist() == expect


@settings(max_examples=150, deadline=None)
@given(
    words=st.lists(
        st.sampled_from([["a", "b"], ["a", "é"], ["a", "字"], LETTERS, MANY]).flatmap(
            lambda alphabet: st.text(alphabet=alphabet, max_size=30)
        ),
        min_size=1,
        max_size=8,
    ),
    data=st.data(),
    proper=st.booleans(),
)
def test_long_overlaps_read_in_place_are_the_prefix_functions(
    words: list[str], data: st.DataObject, proper: bool
) -> None:
    """Overlaps longer than a window (8, 4 or 2 letters), letters of 1 and 2 bytes, repeated
    and empty words: the in-place reading (letters compared window by window, no hash) equals
    the prefix functions, and so does every run of letters compared."""
    import cpwords.core.codepoints as codepoints

    distinct = sorted(set(words))
    letters = Letters(distinct)
    firsts = sorted(data.draw(st.sets(st.integers(0, len(distinct) - 1), min_size=1)))
    seconds = [data.draw(st.integers(0, len(distinct) - 1)) for _ in firsts]
    a, b = np.array(firsts, dtype=np.int64), np.array(seconds, dtype=np.int64)
    expect = [
        codepoints.overlap_of(distinct[i], distinct[j], proper)
        for i, j in zip(firsts, seconds, strict=True)
    ]
    top = np.maximum(np.minimum(letters.lens[a], letters.lens[b]) - (1 if proper else 0), 0)
    assert codepoints._longest_matches_in_place(letters, a, b, top).tolist() == expect
    text = "".join(distinct)
    if text:
        starts = st.integers(0, len(text) - 1)
        runs = data.draw(st.lists(st.tuples(starts, starts, st.integers(1, 30)), max_size=10))
        runs = [(x, y, min(n, len(text) - x, len(text) - y)) for x, y, n in runs]
        x, y, n = (np.array([r[i] for r in runs], dtype=np.int64) for i in range(3))
        same = [text[i : i + m] == text[j : j + m] for i, j, m in runs]
        assert codepoints.equal_letters(letters, x, y, n).tolist() == same


def test_the_ordering_check_reads_the_overlaps_the_certificate_check_counted() -> None:
    """The certificate checker counts the ordering's joints once (from its checked values,
    :mod:`~cpwords.wordsnake.certificate.recount`, and remembers them in core); the rules'
    scorer, asked next for the same ordering, reads them; another ordering is counted anew."""
    import cpwords.core.codepoints as codepoints
    from cpwords.wordsnake.rules import snake_score
    from cpwords.wordsnake.spec import WordsnakeInstance, solve_wordsnake

    inst = WordsnakeInstance(("seasick", "nausea", "run", "sickle", "ickle", "é\u0301a"))
    res = solve_wordsnake(inst, certificate=True, time_limit=60, workers=1)
    real = codepoints.joint_overlaps
    calls: list[object] = []

    def counted(*args: object) -> np.ndarray:
        calls.append(args)
        return real(*args)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(codepoints, "joint_overlaps", counted)
        mp.setattr(codepoints, "_last_ordering", None)  # the solve's own checks asked first
        check = verify_certificate(inst.words, res.solver_info["certificate"])
        assert check.status == "VALID" and not calls  # the values' tight joints: no count
        assert snake_score(list(res.solution)) == check.objective == res.objective
        assert not calls
        assert snake_score(list(reversed(res.solution))) >= 0 and len(calls) == 1


@settings(max_examples=150, deadline=None)
@given(
    words=st.lists(
        st.sampled_from([["a", "b"], ["a", "é"], LETTERS, MANY]).flatmap(
            lambda alphabet: st.text(alphabet=alphabet, min_size=1, max_size=30)
        ),
        min_size=1,
        max_size=8,
    ),
    data=st.data(),
    proper=st.booleans(),
)
def test_a_hash_match_that_is_no_overlap_is_found_and_counted_again(
    words: list[str], data: st.DataObject, proper: bool
) -> None:
    """Every pair's longest match forced to its longest possible length (as a hash collision
    would): the windows' comparison finds exactly the pairs whose overlap is shorter (letters
    of 1 and 2 bytes, matches longer than a window and shorter), which are counted again."""
    import cpwords.core.codepoints as codepoints

    letters = Letters(words)
    pairs = st.tuples(st.integers(0, len(words) - 1), st.integers(0, len(words) - 1))
    chosen = data.draw(st.lists(pairs, min_size=1, max_size=12))
    a = np.array([i for i, _ in chosen], dtype=np.int64)
    b = np.array([j for _, j in chosen], dtype=np.int64)
    expect = [codepoints.overlap_of(words[i], words[j], proper) for i, j in chosen]
    longest = [max(min(len(words[i]), len(words[j])) - proper, 0) for i, j in chosen]
    recounted: list[tuple[str, str]] = []
    real = codepoints.overlap_of

    def recount(x: str, y: str, proper: bool = False) -> int:
        recounted.append((x, y))
        return real(x, y, proper)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(codepoints, "_longest_matches", lambda _l, _a, _b, top: top.copy())
        mp.setattr(codepoints, "_reads_in_place", lambda *_: False)  # exact: no hash there
        mp.setattr(codepoints, "overlap_of", recount)
        assert codepoints.joint_overlaps(letters, a, b, proper).tolist() == expect
    pairs_of = zip(chosen, expect, longest, strict=True)
    wrong = {(words[i], words[j]) for (i, j), e, t in pairs_of if e != t}
    assert set(recounted) == wrong


@settings(max_examples=100, deadline=None)
@given(words=words_st, data=st.data(), proper=st.booleans())
def test_prefixes_left_out_of_the_index_are_found_as_no_prefix(
    words: list[str], data: st.DataObject, proper: bool
) -> None:
    """A table told which prefixes may be asked for finds those (and reads their bounds) and
    answers -1, as for a string no word starts with, for the others."""
    distinct = sorted(set(words))
    values = np.array(
        data.draw(st.lists(st.integers(-5, 5), min_size=len(distinct), max_size=len(distinct)))
    )
    letters = Letters(distinct)
    parity = data.draw(st.integers(0, 1))
    table = arrays.PrefixTable.build(
        letters, np.arange(len(distinct)), values, proper, lambda length, v1: length % 2 == parity
    )
    nodes = np.arange(table.keys.size)
    wanted = table.length % 2 == parity
    begin = letters.start[table.word]
    keys = letters.keys(begin, begin + table.length)  # every prefix's, left out or not
    assert np.array_equal(table.keys[wanted], keys[wanted])  # the others are not computed
    assert table.find(keys).tolist() == np.where(wanted, nodes, -1).tolist()
    limit = (table.v1 + 1).astype(np.int64)
    assert np.array_equal(table.below(keys, limit)[wanted], np.ones(wanted.sum(), bool))


@given(st.lists(st.tuples(st.integers(0, 300), st.integers(0, 5)), max_size=30))
def test_the_entries_of_rows_are_each_rows_run_of_values(rows: list[tuple[int, int]]) -> None:
    """Each row ``r`` gives ``count[r]`` entries ``first[r], first[r] + 1, ...`` (empty rows
    none), in the smallest type that holds them."""
    first = np.array([f for f, _ in rows], dtype=np.int64)
    count = np.array([c for _, c in rows], dtype=np.int64)
    kind = np.uint8 if int((first + count).max(initial=0)) < 1 << 8 else np.uint16
    row, value = arrays._entries(first, count, kind)
    expect = [(r, f + j) for r, (f, c) in enumerate(rows) for j in range(c)]
    assert list(zip(row.tolist(), value.tolist(), strict=True)) == expect
    assert value.dtype == kind


@settings(max_examples=100, deadline=None)
@given(words=words_st, data=st.data())
def test_the_common_prefixes_of_a_subset_are_read_from_the_neighbours(
    words: list[str], data: st.DataObject
) -> None:
    """Any alphabet, words inside others, any subset (empty, one word, all): the common
    prefixes read from every word's neighbour's are those compared letter by letter."""
    distinct = sorted(set(words))
    letters = Letters(distinct)
    ids = np.array(sorted(data.draw(st.sets(st.integers(0, len(distinct) - 1)))), dtype=np.int64)
    every = letters.lcp_with_previous(np.arange(len(distinct)))
    got = arrays.subset_lcp(every, ids).tolist()
    assert got == letters.lcp_with_previous(ids).tolist()

    def common(x: str, y: str) -> int:
        return next(
            (n for n, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y))
        )

    expect = [-1] + [common(distinct[a], distinct[b]) for a, b in itertools.pairwise(ids.tolist())]
    assert got == expect[: len(got)]


@given(
    st.sets(st.integers(0, 2**64 - 1), min_size=1, max_size=400),
    st.sampled_from([10, 40_000, 2**60]),
    st.data(),
)
def test_the_slot_bounds_read_the_shared_slots_of_a_slot_index_alike(
    keys: set[int], top: int, data: st.DataObject
) -> None:
    """Built with a slot index of the same keys (a scatter, then the least over the keys of
    shared slots only), the table is the one ``minimum.at`` over every key builds; with an
    index of other slots or other keys, it is built without it."""
    stored = np.array(sorted(keys), dtype=np.uint64)
    values = np.array(
        data.draw(st.lists(st.integers(-top, top), min_size=len(keys), max_size=len(keys))),
        dtype=np.int64,
    )
    index = arrays.SlotIndex(stored)
    assert index.sharing(arrays.SlotBounds(stored, values)._shift, arrays.SLOT_MIX) is not None
    alone = arrays.SlotBounds(stored, values).table
    assert np.array_equal(arrays.SlotBounds(stored, values, index).table, alone)
    assert np.array_equal(arrays.SlotBounds(stored.copy(), values, index).table, alone)
    assert index.sharing(np.uint64(1), arrays.SLOT_MIX) is None
    # Built a few keys at a time, with the index or without: the same table.
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(arrays, "BOUNDS_BLOCK", data.draw(st.integers(1, 9)))
        assert np.array_equal(arrays.SlotBounds(stored, values, index).table, alone)
        assert np.array_equal(arrays.SlotBounds(stored.copy(), values, index).table, alone)
