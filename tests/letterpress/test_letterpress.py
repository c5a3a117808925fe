"""Letterpress: bitset index == brute force == the seed's scan and trie; cache; CLI; bad input."""

from __future__ import annotations

import doctest
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpwords.letterpress.heuristics as seed
import cpwords.letterpress.models.index as model
import cpwords.letterpress.rules as rules
from cpwords.cli import main
from cpwords.core.errors import CheckError, InputError
from cpwords.core.lexicon import load_lexicon
from cpwords.core.result import Status
from cpwords.letterpress.heuristics import FirstLetterGroups, Trie, naive_scan
from cpwords.letterpress.models.index import build_letterpress_index, load_letterpress_index
from cpwords.letterpress.rules import can_spell, sort_key, verify_letterpress_words
from cpwords.letterpress.spec import find_letterpress_words

BAD = sorted((Path(__file__).parents[1] / "data" / "bad").glob("letterpress_*.txt"))
SEED_QUERIES = [
    "ovrkqlwislrecrtgmvpfprzey",
    "abcdefghifghijklmnopqrstuvxyz",
    "odidwocswkbafvydehsbiviez",
    "rtlyifebuzkxndovzyzodelap",
]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(d))
    return d


def brute_force(words: list[str], letters: str, min_length: int = 1) -> list[str]:
    return sorted(
        {w for w in words if can_spell(w, letters) and len(w) >= min_length}, key=sort_key
    )


lexicons = st.lists(
    st.text(alphabet="abcde", min_size=1, max_size=7), min_size=1, max_size=120, unique=True
)
bags = st.text(alphabet="abcdef", min_size=1, max_size=12)


def test_doctests() -> None:
    for mod in (rules, model, seed):
        assert doctest.testmod(mod).failed == 0


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(lexicons, bags, st.integers(1, 5))
def test_index_equals_brute_force_and_seed(words: list[str], letters: str, k: int) -> None:
    expect = brute_force(words, letters)
    index = build_letterpress_index(words)
    got, total = index.query(letters)
    assert got == expect and total == len(expect)
    assert naive_scan(words, letters) == expect
    assert Trie(words).query(letters) == expect
    assert FirstLetterGroups(words).query(letters) == expect
    verify_letterpress_words(got, letters, set(words))
    # min_length, limit and longest-first are views of the same listing
    longer, _ = index.query(letters, min_length=k)
    assert longer == brute_force(words, letters, k)
    top, total2 = index.query(letters, limit=k, longest_first=True)
    assert total2 == len(expect)
    assert top == sorted(expect, key=lambda w: (-len(w), w))[:k]
    verify_letterpress_words(top, letters, set(words), longest_first=True)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.text(alphabet="ab", min_size=60, max_size=140), min_size=1, max_size=8))
def test_long_words_span_many_bitset_words(words: list[str]) -> None:
    # letter counts well above 64 and words longer than a 64-bit block
    letters = "a" * 80 + "b" * 80
    assert build_letterpress_index(words).query(letters)[0] == brute_force(words, letters)


def test_hand_solved() -> None:
    r = find_letterpress_words("tacos", ["cat", "act", "coats", "taco", "tact", "a", "tacos"])
    # A listing is never OPTIMAL: FEASIBLE and complete, its count exact (bound == objective).
    assert r.status is Status.FEASIBLE and r.verified and r.solver_info["complete"]
    assert r.bound == r.objective == 6
    assert r.solution == ["a", "act", "cat", "taco", "coats", "tacos"]
    r = find_letterpress_words("tacos", ["tact", "moon"])
    assert r.solution == [] and r.objective is None and r.status is Status.INFEASIBLE


def test_checker_rejects_bad_listings() -> None:
    d = {"cat", "act", "tact"}
    with pytest.raises(CheckError):
        verify_letterpress_words(["tact"], "cat", d)  # two t's needed
    with pytest.raises(CheckError):
        verify_letterpress_words(["cat", "act"], "cat", d)  # order
    with pytest.raises(CheckError):
        verify_letterpress_words(["act", "act"], "cat", d)  # duplicate
    with pytest.raises(CheckError):
        verify_letterpress_words(["tac"], "cat", d)  # not a word


def test_cache_roundtrip_and_invalidation(tmp_path: Path, _private_cache: Path) -> None:
    user = tmp_path / "user"
    user.mkdir()
    f = user / "words.txt"
    f.write_text("cat\nact\ntaco\n")
    first = load_letterpress_index(f)
    assert not first.from_cache
    second = load_letterpress_index(f)
    assert second.from_cache and second.words == first.words
    assert second.query("tacos") == first.query("tacos")
    assert sorted(os.listdir(user)) == ["words.txt"]  # nothing written beside the user's file
    assert list((_private_cache / "letterpress").glob("*.npz"))
    f.write_text("cat\nact\ntaco\ncoast\n")  # the lexicon changes: a new key
    third = load_letterpress_index(f)
    assert not third.from_cache and "coast" in third.words
    assert load_letterpress_index(f).from_cache


def test_corrupt_cache_is_rebuilt(tmp_path: Path, _private_cache: Path) -> None:
    f = tmp_path / "words.txt"
    f.write_text("cat\nact\n")
    load_letterpress_index(f)
    (cached,) = (_private_cache / "letterpress").glob("*.npz")
    cached.write_bytes(b"not an npz")
    again = load_letterpress_index(f)
    assert not again.from_cache and again.query("cat")[0] == ["act", "cat"]
    assert load_letterpress_index(f).from_cache


def test_a_cache_file_corrupted_in_a_valid_format_is_detected_and_rebuilt(
    tmp_path: Path, _private_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 23, item 11: a well-formed npz with altered arrays failed every later run (the
    # checker refused the listing) until `cpwords cache clear`, with no word of the cache.
    import numpy as np

    from cpwords.cli import main

    f = tmp_path / "words.txt"
    f.write_text("cat\nact\ntaco\n")
    load_letterpress_index(f)
    (cached,) = (_private_cache / "letterpress").glob("*.npz")
    with np.load(cached) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["bits"] = np.zeros_like(arrays["bits"])  # every word now spelled by any bag
    with open(cached, "wb") as fh:
        np.savez(fh, **arrays)
    again = load_letterpress_index(f)
    assert not again.from_cache and "corrupt" in again.cache_problem
    assert again.query("cat")[0] == ["act", "cat"]
    healed = load_letterpress_index(f)
    assert healed.from_cache and not healed.cache_problem
    with open(cached, "wb") as fh:
        np.savez(fh, **arrays)
    with pytest.raises(SystemExit) as exc:
        main(["letterpress", "cat", "--dict", str(f)])
    assert exc.value.code == 0
    err = capsys.readouterr().err
    assert err.startswith("cpwords: warning: the cached index") and "rebuilt" in err


def test_unwritable_cache_still_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("x")
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(blocker))
    f = tmp_path / "words.txt"
    f.write_text("cat\nact\n")
    assert find_letterpress_words("cta", f).solution == ["act", "cat"]


def test_in_memory_words_are_cached_by_content() -> None:
    a = load_letterpress_index(["cat", "act"])
    b = load_letterpress_index(["act", "cat", "CAT"])
    assert not a.from_cache and b.from_cache
    assert not load_letterpress_index(["act", "cat", "tac"]).from_cache


@pytest.mark.slow
def test_default_dictionary_is_the_games_own_list() -> None:
    r = find_letterpress_words("tacos")
    assert r.solver_info["source"] == "letterpress" and r.solver_info["words"] == 274_926
    assert "coast" in r.solution


@pytest.mark.parametrize("letters", ["", "   ", "ab1", "a_b", "a b", "A-Z", "кот"])
def test_bad_letters(letters: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(InputError):
        find_letterpress_words(letters, ["cat"])
    f = tmp_path / "w.txt"
    f.write_text("cat\n")
    with pytest.raises(SystemExit) as exc:
        main(["letterpress", letters, "--dict", str(f)])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cpwords: error:")


@pytest.mark.parametrize("path", BAD, ids=[p.name for p in BAD])
def test_bad_dictionary_files(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InputError):
        find_letterpress_words("abc", path)
    with pytest.raises(SystemExit) as exc:
        main(["letterpress", "abc", "--dict", str(path)])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cpwords: error:")


@pytest.mark.parametrize(
    "args",
    [
        ["--min-length", "0"],
        ["--limit", "-1"],
        ["--dict", "/nonexistent/words.txt"],
        ["--dict", "."],
    ],
    ids=["min-length-0", "negative-limit", "missing-file", "directory"],
)
def test_bad_arguments(args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "w.txt"
    f.write_text("cat\n")
    argv = ["letterpress", "cat", *args]
    if "--dict" not in args:
        argv += ["--dict", str(f)]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cpwords: error:")


def test_api_rejects_bad_arguments() -> None:
    with pytest.raises(InputError):
        find_letterpress_words("cat", ["cat"], min_length=0)
    with pytest.raises(InputError):
        find_letterpress_words("cat", ["cat"], limit=-1)
    with pytest.raises(InputError):
        build_letterpress_index(["123", "o'clock"])


def test_cli_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "w.txt"
    f.write_text("cat\nact\ntaco\ncoats\nmoon\n")
    with pytest.raises(SystemExit) as exc:
        main(["letterpress", "TACOS", "--dict", str(f), "--json", "--limit", "2"])
    assert exc.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solution"] == ["act", "cat"] and out["count"] == 4 and out["returned"] == 2
    with pytest.raises(SystemExit):
        main(["letterpress", "tacos", "--dict", str(f), "--longest-first"])
    text = capsys.readouterr().out
    assert text.index("coats") < text.index("act")


@pytest.mark.slow
def test_real_lists_agree_with_naive_scan(shared_data: Path) -> None:
    path = shared_data / "letterpress-en.txt"
    lex = load_lexicon(path)
    index = load_letterpress_index(path)
    for q in SEED_QUERIES:
        got, total = index.query(q)
        assert got == naive_scan(lex, q)
        assert total == len(got) > 0
        verify_letterpress_words(got, q, lex.as_set())
    assert load_letterpress_index(path).from_cache


# ----------------------------------------------------------------------------- any alphabet

#: Greek, Cyrillic and CJK letters: beyond a-z, and beyond 64 letters (the per-letter build).
GREEK_CYRILLIC = "αβγδεζηθλμξπρσςφωабвгджзийклмнёэюя"
CJK = "".join(chr(0x4E00 + i) for i in range(80))


@settings(max_examples=80, deadline=None)
@given(st.data(), st.sampled_from([GREEK_CYRILLIC, CJK]))
def test_index_equals_brute_force_beyond_latin(data: st.DataObject, pool: str) -> None:
    letters = st.sampled_from(pool[:12])
    words = data.draw(st.lists(st.text(letters, min_size=1, max_size=6), min_size=1, max_size=80))
    bag = data.draw(st.text(st.sampled_from(pool[:14]), min_size=1, max_size=12))
    index = build_letterpress_index(words)
    assert index.letters == set("".join(words))
    got, total = index.query(bag)
    assert got == brute_force(words, bag) and total == len(got)


def test_large_alphabet_index_survives_the_cache(tmp_path: Path) -> None:
    words = [CJK[i : i + 3] for i in range(0, 78)] + ["αβγ", "жжж"]
    f = tmp_path / "w.txt"
    f.write_text("\n".join(words) + "\n", encoding="utf-8")
    built = load_letterpress_index(f)
    cached = load_letterpress_index(f)
    assert cached.from_cache and not built.from_cache and built.alphabet.size > 64
    bag = CJK[:10] + "жжж"
    assert cached.query(bag) == built.query(bag) == (brute_force(words, bag), 9)


def test_nfc_nfd_turkish_and_folding(tmp_path: Path) -> None:
    import unicodedata

    words = ["été", "tête", "fête", "ıslak", "islak", "straße"]
    nfd = [unicodedata.normalize("NFD", w) for w in words]
    a = find_letterpress_words("ÉTÉTÊFE", words)
    b = find_letterpress_words(unicodedata.normalize("NFD", "ÉTÉTÊFE"), nfd)
    assert a.solution == b.solution == ["été", "fête", "tête"]
    # Turkish: I is ı, so ISLAK spells ıslak (not islak); elsewhere I is i
    assert find_letterpress_words("ISLAK", words, lang="tr").solution == ["ıslak"]
    assert find_letterpress_words("ISLAK", words).solution == ["islak"]
    # ß is one letter; folded accents make é an e, in the bag and the dictionary alike
    assert find_letterpress_words("STRAẞE", words).solution == ["straße"]
    assert find_letterpress_words("eteft", words).objective is None
    assert find_letterpress_words("eteft", words, fold=True).solution == ["ete", "fete", "tete"]


def test_cli_lang_letters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "ru.txt"
    f.write_text("кот\nток\nкто\nдом\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["letterpress", "КОТД", "--dict", str(f), "--lang", "ru", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert exc.value.code in (0, None) and data["solution"] == ["кот", "кто", "ток"]
    assert data["lang"] == "ru" and data["fold_accents"] is False
    for argv, needle in [
        (["abc", "--dict", str(f)], "'a' (LATIN), 'b' (LATIN), 'c' (LATIN) are in no word"),
        (["abc", "--lang", "xx"], "--lang 'xx' is not a language code"),
    ]:
        with pytest.raises(SystemExit) as exc:
            main(["letterpress", *argv])
        out, err = capsys.readouterr()
        assert exc.value.code == 2 and not out and needle in err and err.count("\n") == 1


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_rare_letters_row_equals_brute_force(data: st.DataObject) -> None:
    # 60 letters: the 40 most frequent are common, the others share one bitset row
    pool = CJK[:60]
    common = st.text(st.sampled_from(pool[:20]), min_size=1, max_size=5)
    anyletter = st.text(st.sampled_from(pool), min_size=1, max_size=5)
    words = data.draw(st.lists(st.one_of(common, common, anyletter), min_size=1, max_size=80))
    words += [pool]  # every letter occurs
    index = build_letterpress_index(words)
    assert index.rare.sum() == 20 and index.bits.shape[0] == index.maxcount.sum() + 1
    bag = data.draw(
        st.text(
            st.sampled_from(pool[:20] if data.draw(st.booleans()) else pool),
            min_size=1,
            max_size=14,
        )
    )
    got, total = index.query(bag)
    assert got == brute_force(words, bag) and total == len(got)
