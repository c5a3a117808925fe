"""The Wordsnake rules: overlaps, scores, the overlap graph against the independent checker."""

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.draw import snake_table
from cpwords.wordsnake.rules import (
    WordsnakeInstance,
    _plain_lower_case,
    check_snake,
    overlap_graph,
    pair_overlap,
    snake_lengths,
    snake_score,
)

words_st = st.text(alphabet="abc", min_size=1, max_size=5)


def test_issue_examples():
    assert pair_overlap("beret", "berets") == 5
    assert pair_overlap("street", "test") == 1
    assert pair_overlap("test", "street") == 2
    assert snake_score(["run", "nausea", "seasick"]) == 10


def test_proper_overlap_excludes_whole_word():
    # "beret" is a prefix of "berets" (overlap 5), but no shorter suffix of it is a prefix.
    assert pair_overlap("beret", "berets", proper=True) == 0
    assert pair_overlap("aa", "aa") == 2 and pair_overlap("aa", "aa", proper=True) == 1
    assert pair_overlap("abab", "abab", proper=True) == 2


def test_cyclic_score_adds_closing_pair():
    assert snake_score(["test", "street"]) == 4
    assert snake_score(["test", "street"], cyclic=True) == 5
    assert snake_score(["word"], cyclic=True) == 0


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(words_st, min_size=1, max_size=8), st.booleans())
def test_overlap_graph_matches_naive_definition(words, proper):
    g = overlap_graph(words, proper=proper)
    got = {
        (t, h): k
        for t, h, k in zip(g.tail.tolist(), g.head.tolist(), g.overlap.tolist(), strict=False)
    }
    for i, j in itertools.permutations(range(len(words)), 2):
        k = pair_overlap(words[i], words[j], proper)
        assert got.get((i, j), 0) == k
    assert (g.weight == g.overlap.astype("int64") ** 2).all()
    assert all(k >= 1 for k in got.values())


def test_checker_rejects_wrong_multiset_and_wrong_score():
    inst = WordsnakeInstance(("aa", "aa", "ab"))
    assert check_snake(inst, ["aa", "aa", "ab"], 4 + 1)
    assert not check_snake(inst, ["aa", "ab"], 1)  # an item missing
    assert not check_snake(inst, ["aa", "ab", "ab"], 1)  # wrong multiset
    assert not check_snake(inst, ["aa", "aa", "ab"], 6)  # wrong score


def test_the_table_brackets_overlaps_and_lengths():
    text = snake_table(["run", "nausea", "seasick"])
    assert "ru[n]" in text and "[n]au[sea]" in text and "[sea]sick" in text
    assert snake_lengths(["run", "nausea", "seasick"]) == (16, 12)


@pytest.mark.slow
def test_local_search_stops_inside_a_scan_when_the_deadline_passes(monkeypatch):
    """Issue 23, item 5: the deadline was read only between whole passes (a 20,000-word list
    with --time-limit 10 ran 155 s). With a clock that passes the deadline at its second
    reading, the first scan stops at its start: the sequence is the one given."""
    import random

    import cpwords.wordsnake.heuristics.baselines as baselines

    rng = random.Random(7)
    words = tuple("".join(rng.choice("abc") for _ in range(5)) for _ in range(300))
    inst = WordsnakeInstance(words)
    from cpwords.wordsnake.heuristics.overlaps import OverlapIndex

    wt = OverlapIndex(inst.words)
    start = list(range(inst.n))
    unbounded = baselines._LocalSearch(wt, list(start)).run(None)
    assert unbounded != start  # the scans would improve this order
    readings = iter([0.0, 10.0, 10.0, 10.0])
    monkeypatch.setattr(baselines.time, "perf_counter", lambda: next(readings, 10.0))
    stopped = baselines._LocalSearch(wt, list(start)).run(1.0)
    assert stopped == start and sorted(stopped) == start


def test_the_checker_does_not_sort_a_valid_snake(monkeypatch):
    """Issue 23, item 5: on 1,037,915 words the checker sorted every word to list the problems
    of a valid snake (2.5 s of the 5.5 s the command ran past --time-limit 10)."""
    import cpwords.wordsnake.rules as rules

    def no_sort(*args, **kwargs):
        raise AssertionError("sorted the words")

    inst = WordsnakeInstance(("run", "nausea", "seasick", "run"))
    monkeypatch.setattr(rules, "sorted", no_sort, raising=False)
    assert rules.snake_problems(inst, ["nausea", "run", "seasick", "run"]) == []
    monkeypatch.undo()
    assert rules.snake_problems(inst, ["nausea", "run", "seasick"]) == [
        "run appears 1 times, the list holds it 2 times"
    ]


def test_long_overlaps_are_computed_once_for_the_check_and_the_report():
    """Three words of 3,000 letters: the score and the report's merged length read the same
    pass of overlaps (a whole dictionary's pairs cost 0.4 s to compare), and it agrees with
    the pair-by-pair overlaps."""
    import random

    import cpwords.core.codepoints as codepoints

    rng = random.Random(9)
    words = ["".join(rng.choice("ab") for _ in range(3000)) for _ in range(3)]
    real = codepoints.joint_overlaps
    calls = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(codepoints, "joint_overlaps", lambda *a: calls.append(a) or real(*a))
        value = snake_score(words)
        total, merged = snake_lengths(words)
    assert len(calls) == 1
    overlaps = [pair_overlap(a, b) for a, b in itertools.pairwise(words)]
    assert value == sum(k * k for k in overlaps) and merged == total - sum(overlaps)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="ab", min_size=1, max_size=12), min_size=1, max_size=7),
    st.booleans(),
    st.integers(min_value=1, max_value=3),
)
def test_the_pairwise_overlap_graph_equals_the_prefix_index(
    words: list[str], proper: bool, lo: int
) -> None:
    # Issue 34, item 15: long words take the pairwise (KMP) way; both ways give the same arcs,
    # and every arc's overlap is the independent checker's.
    from cpwords.wordsnake import rules

    def arcs(g: rules.OverlapGraph) -> set[tuple[int, int, int]]:
        return set(zip(g.tail.tolist(), g.head.tolist(), g.overlap.tolist(), strict=True))

    indexed = arcs(overlap_graph(words, proper, lo))
    pairwise = arcs(rules._pairwise_overlap_graph(words, proper, lo))
    assert indexed == pairwise
    for i, j, k in pairwise:
        assert k == pair_overlap(words[i], words[j], proper) >= lo


@pytest.mark.slow
def test_three_words_of_200000_letters_build_their_graph_pair_by_pair() -> None:
    import random

    rng = random.Random(1)
    w = "".join(rng.choice("ab") for _ in range(200_000))
    words = [w, w[:100_000], w[50_000:150_000]]
    g = overlap_graph(words, min_overlap=2)  # the prefix index would hold 2.5e10 characters
    got = set(zip(g.tail.tolist(), g.head.tolist(), g.overlap.tolist(), strict=True))
    assert (0, 1, 0) not in got and all(k == pair_overlap(words[i], words[j]) for i, j, k in got)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(alphabet="ab\nA\u00e9 ", max_size=4), st.integers()), max_size=5))
def test_the_plain_list_test_equals_the_one_pattern_of_words_and_line_feeds(
    words: list[object],
) -> None:
    # The fast path of a list of a-z words: one class repeated and three tests for an empty
    # line, the same lists as the pattern of one word, then line-feed-and-word repeated.
    whole = re.compile(r"[a-z]+(?:\n[a-z]+)*")
    strings = all(isinstance(w, str) for w in words)
    expected = strings and whole.fullmatch("\n".join(words)) is not None  # type: ignore[arg-type]
    assert _plain_lower_case(words) == expected
    if expected:  # and such a list is taken as it is
        assert WordsnakeInstance(words).words == tuple(words)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "words", [["ab", "", "c"], ["", "ab"], ["ab", ""], ["a\n", "b"], ["\na"], ["a\n\nb"]]
)
def test_a_list_with_an_empty_line_is_not_taken_as_plain(words: list[str]) -> None:
    assert not _plain_lower_case(words)
