"""Truncate: exact DP == brute force, the seed's algorithms agree, checker, CLI and bad input."""

from __future__ import annotations

import doctest
import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpwords.truncate.models.dp as model
import cpwords.truncate.rules as rules
from cpwords.cli import main
from cpwords.core.errors import CheckError, InputError
from cpwords.core.lexicon import load_lexicon
from cpwords.core.result import Status
from cpwords.truncate.heuristics import extend_search, shrink_search
from cpwords.truncate.models.dp import iter_longest_sequences, truncate_dag
from cpwords.truncate.rules import (
    TruncateSolution,
    is_valid_truncate_sequence,
    verify_truncate_solution,
)
from cpwords.truncate.spec import solve_truncate

BAD = sorted((Path(__file__).parents[1] / "data" / "bad").glob("truncate_*.txt"))

# The seed's hand-found chain (Hogg-Blake 2024), 8 plays.
SEED_CHAIN = ["a", "la", "lap", "laps", "lapse", "elapse", "elapsed", "relapsed"]


def brute_force(words: Sequence[str]) -> list[tuple[str, ...]]:
    """Every maximal-or-not Truncate sequence, by growing from every word with a naive scan."""
    d = sorted(set(words))
    out: list[tuple[str, ...]] = []

    def grow(path: tuple[str, ...]) -> None:
        out.append(path)
        for w in d:
            if len(w) == len(path[-1]) + 1 and (w[:-1] == path[-1] or w[1:] == path[-1]):
                grow((*path, w))

    for w in d:
        grow((w,))
    return out


def longest(seqs: list[tuple[str, ...]]) -> set[tuple[str, ...]]:
    best = max(len(s) for s in seqs)
    return {s for s in seqs if len(s) == best}


lexicons = st.lists(
    st.text(alphabet="abc", min_size=1, max_size=6), min_size=1, max_size=40, unique=True
)


def test_doctests() -> None:
    for mod in (rules, model):
        assert doctest.testmod(mod).failed == 0


def test_seed_chain_is_found_and_proven() -> None:
    words = [*SEED_CHAIN, "lips", "slap", "zz"]
    res = solve_truncate(words)
    assert res.status is Status.OPTIMAL and res.verified
    assert res.objective == res.bound == 8
    assert list(res.solution.sequence) == SEED_CHAIN
    assert res.solution.count == 1


def test_same_word_from_both_ends_is_one_sequence() -> None:
    # 'a' + 'aa' == 'aa' + 'a': one sequence of words, not two plays-sequences
    res = solve_truncate(["a", "aa", "aaa"])
    assert res.solution.sequence == ("a", "aa", "aaa")
    assert res.solution.count == 1


def test_two_routes_are_counted() -> None:
    res = solve_truncate(["a", "ab", "ba", "bab"], all_sequences=True)
    assert res.objective == 3
    assert set(res.solution.sequences) == {("a", "ab", "bab"), ("a", "ba", "bab")}
    assert res.solution.count == 2


@settings(max_examples=150, deadline=None)
@given(lexicons)
def test_dp_equals_brute_force(words: list[str]) -> None:
    seqs = brute_force(words)
    expect = longest(seqs)
    res = solve_truncate(words, all_sequences=True)
    assert res.status is Status.OPTIMAL and res.verified
    assert res.objective == len(next(iter(expect)))
    assert res.solution.count == len(expect)
    assert set(res.solution.sequences) == expect
    assert res.solution.sequence in expect
    verify_truncate_solution(res.solution, set(words))


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(lexicons, st.data())
def test_restricted_dp_equals_brute_force(words: list[str], data: st.DataObject) -> None:
    starting = data.draw(st.sampled_from(sorted(words)) | st.none())
    ending = data.draw(st.sampled_from(sorted(words)) | st.none())
    seqs = [
        s
        for s in brute_force(words)
        if (starting is None or s[0] == starting) and (ending is None or s[-1] == ending)
    ]
    res = solve_truncate(words, starting=starting, ending=ending, all_sequences=True)
    if not seqs:
        assert res.status is Status.INFEASIBLE and res.solution is None
        return
    expect = longest(seqs)
    assert res.status is Status.OPTIMAL
    assert set(res.solution.sequences) == expect
    assert res.solution.count == len(expect)
    assert res.solution.sequence[0] == (starting or res.solution.sequence[0])
    assert res.solution.sequence[-1] == (ending or res.solution.sequence[-1])


@settings(max_examples=60, deadline=None)
@given(lexicons)
def test_seed_baselines_reach_the_optimum(words: list[str]) -> None:
    best = solve_truncate(words).objective
    assert best is not None
    d = set(words)
    for baseline in (extend_search, shrink_search):
        r = baseline(words)
        assert r.objective is not None and len(r.solution) == r.objective <= best
        assert r.objective == best  # both seed searches are exhaustive
        assert is_valid_truncate_sequence(r.solution, d)


@settings(max_examples=40, deadline=None)
@given(lexicons)
def test_python_int_counts_agree_with_int64(words: list[str]) -> None:
    dag = truncate_dag(words)
    fast = solve_truncate(dag)
    original = model._count_dtype
    try:
        model._count_dtype = lambda _dag: object  # type: ignore[assignment]
        big = solve_truncate(dag)
    finally:
        model._count_dtype = original
    assert (fast.objective, fast.solution.count) == (big.objective, big.solution.count)


def test_long_words_use_big_integer_counts() -> None:
    # Words b^i a b^j (i, j <= 30): each has two predecessors (drop a b at either end), so
    # C(60, 30) longest sequences end at b^30 a b^30. With 61-letter words the int64 guard
    # switches to Python ints; the count is checked against the binomial coefficient.
    words = sorted({"b" * i + "a" + "b" * j for i in range(31) for j in range(31)})
    res = solve_truncate(words)
    assert res.objective == 61
    assert res.solution.count == math.comb(60, 30)
    assert isinstance(res.solution.count, int)


def test_iter_longest_sequences_matches_count() -> None:
    words = ["a", "ab", "ba", "bab", "abab", "baba", "aba", "b"]
    res = solve_truncate(words)
    listed = list(iter_longest_sequences(truncate_dag(words)))
    assert len(listed) == res.solution.count == len(set(listed))
    assert res.solution.sequence == listed[0]


def test_checker_rejects_bad_sequences() -> None:
    d = {"a", "la", "lap", "clap", "laps"}
    assert not is_valid_truncate_sequence(["a", "la", "lap", "clap", "laps"], d)  # clap->laps
    assert not is_valid_truncate_sequence(["a", "al"], d)  # 'al' not a word
    assert not is_valid_truncate_sequence([], d)
    assert not is_valid_truncate_sequence(["la", "lap"], d, starting="a")
    with pytest.raises(CheckError):
        verify_truncate_solution(TruncateSolution(("a", "lap"), 1), d)
    with pytest.raises(CheckError):
        verify_truncate_solution(TruncateSolution(("a", "la"), 1, (("a", "la"), ("a", "la"))), d)


@pytest.mark.parametrize("path", BAD, ids=[p.name for p in BAD])
def test_bad_dictionary_files(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InputError):
        solve_truncate(load_lexicon(path))
    with pytest.raises(SystemExit) as exc:
        main(["truncate", "--dict", str(path)])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cpwords: error:")


@pytest.mark.parametrize(
    "args",
    [
        ["--ending", "zzzz"],
        ["--starting", "q1"],
        ["--max-sequences", "-1"],
        ["--dict", "/nonexistent/words.txt"],
        ["--dict", "."],
    ],
    ids=["ending-not-a-word", "starting-not-a-word", "negative-max", "missing-file", "directory"],
)
def test_bad_arguments(args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "d.txt"
    d.write_text("a\nat\ncat\n")
    argv = ["truncate", *args] if "--dict" in args else ["truncate", "--dict", str(d), *args]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cpwords: error:")


def test_api_rejects_empty_and_negative() -> None:
    with pytest.raises(InputError):
        solve_truncate([])
    with pytest.raises(InputError):
        solve_truncate(["a"], max_sequences=-1)


def test_cli_json_and_no_solution(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "d.txt"
    d.write_text("a 1 1\nat* 2 1\ncat 3 1\nact 1 1\nzz 1 1\n")
    with pytest.raises(SystemExit) as exc:
        main(["truncate", "--dict", str(d), "--json", "--all"])
    assert exc.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sequence"] == ["a", "at", "cat"] and out["count"] == 1
    assert out["sequences"] == [["a", "at", "cat"]]
    with pytest.raises(SystemExit) as exc:
        main(["truncate", "--dict", str(d), "--starting", "zz", "--ending", "cat"])
    assert exc.value.code == 1
    assert "no Truncate sequence" in capsys.readouterr().out


def test_real_truncate_dictionary(shared_data: Path) -> None:
    lex = load_lexicon(shared_data / "truncate-final-wordlist.txt")
    d = lex.as_set()
    assert is_valid_truncate_sequence(SEED_CHAIN, d)  # the seed's chain uses this dictionary
    res = solve_truncate(lex, all_sequences=True)
    assert res.status is Status.OPTIMAL and res.verified and res.objective is not None
    assert res.objective >= len(SEED_CHAIN)
    assert len(res.solution.sequences) == res.solution.count
    ending = solve_truncate(lex, ending="relapsed")
    assert ending.objective is not None and ending.objective >= len(SEED_CHAIN)
    assert shrink_search(lex).objective == res.objective


# ----------------------------------------------------------------------------- any alphabet

non_latin_lexicons = st.lists(
    st.text(alphabet="жщяλß", min_size=1, max_size=6), min_size=1, max_size=40, unique=True
)


@settings(max_examples=120, deadline=None)
@given(non_latin_lexicons)
def test_dp_and_seed_searches_equal_brute_force_beyond_latin(words: list[str]) -> None:
    expect = longest(brute_force(words))
    res = solve_truncate(words, all_sequences=True)
    assert res.status is Status.OPTIMAL and res.verified
    assert set(res.solution.sequences) == expect and res.solution.count == len(expect)
    assert extend_search(words).objective == shrink_search(words).objective == res.objective


def test_nfc_nfd_turkish_and_folding() -> None:
    import unicodedata

    words = ["ü", "üb", "über", "übe", "ı", "ıs", "is", "i", "e", "é", "ét", "été"]
    nfd = [unicodedata.normalize("NFD", w) for w in words]
    a = solve_truncate(words, starting="Ü")
    b = solve_truncate(nfd, starting=unicodedata.normalize("NFD", "Ü"))
    assert a.solution.sequence == b.solution.sequence == ("ü", "üb", "übe", "über")
    # Turkish: I is dotless ı; elsewhere it is i
    assert solve_truncate(words, starting="I", lang="tr").solution.sequence == ("ı", "ıs")
    assert solve_truncate(words, starting="I").solution.sequence == ("i", "is")
    # é and e are two letters unless folded: then été is ete, reached from e
    assert solve_truncate(words, ending="ÉTÉ").solution.sequence == ("é", "ét", "été")
    with pytest.raises(InputError, match="not in the dictionary"):
        solve_truncate(words, ending="ete")
    folded = solve_truncate(words, ending="ete", fold=True, all_sequences=True)
    assert folded.solution.sequences == (("e", "et", "ete"),)


def test_cli_reads_words_beyond_a_z(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # issue 23's pending item: --starting über said "not in the dictionary" (the reader kept a-z)
    f = tmp_path / "de.txt"
    f.write_text("b 1 1\nbe 2 1\nber 3 1\nüber 4 1\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["truncate", "--dict", str(f), "--ending", "ÜBER", "--lang", "de", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert exc.value.code in (0, None) and data["sequence"] == ["b", "be", "ber", "über"]
    assert data["lang"] == "de" and data["lexicon_skipped"] == 0


def test_a_limited_listing_says_how_many_it_shows(tmp_path: Path) -> None:
    """`--all --limit 2` of 8 longest sequences says "2 of 8 shown"; the whole listing does not."""
    from click.testing import CliRunner

    from cpwords.cli import cli

    d = tmp_path / "d.txt"
    d.write_text("a\nab\nabc\nb\nbc\nc\nca\ncab\n")
    out = CliRunner().invoke(cli, ["truncate", "--dict", str(d), "--all", "--limit", "2"]).output
    count = int(out.split("count")[1].split()[0])
    assert count > 2 and f"(2 of {count} shown: --limit)" in out
    out = CliRunner().invoke(cli, ["truncate", "--dict", str(d), "--all"]).output
    listed = [line for line in out.splitlines() if line.startswith("  ") and " -> " in line]
    assert "shown" not in out and len(listed) == count
