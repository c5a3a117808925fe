"""``--lang`` reads a curated dictionary, proper nouns out by default (issue 30).

The answers of every puzzle must be words a player accepts: words of the language's
dictionary (``wfrench``, ...), never wordfreq's fragments and names. The tests on the real
dictionaries skip with the install command where one is absent; the property tests run on a
tiny dictionary in Debian's format.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import clear_lexicon_caches, needs_dictionary, run_cli

_run = run_cli
_clear_caches = clear_lexicon_caches


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))


#: A tiny French dictionary in Debian's format (one entry a line, proper nouns capitalised):
#: Truncate's longest chain is o -> or -> ors, or through the proper nouns on to orsay; the
#: box abc-def-ghi-jkl takes the 2 words bechfag-gjdkil, or the one proper noun adgjbehkcfil.
TINY_FRENCH = "o\nor\nors\nOrsa\nOrsay\nbechfag\ngjdkil\nAdgjbehkcfil\nchat\nété\n"


@pytest.fixture()
def tiny_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[set[str]]:
    """``wfrench`` replaced by :data:`TINY_FRENCH`; yields its words (lower case)."""
    from cpwords.core import dictionaries

    d = tmp_path / "dict"
    d.mkdir()
    (d / "french").write_text(TINY_FRENCH, encoding="utf-8")
    monkeypatch.setattr(dictionaries, "DICT_DIR", d)
    monkeypatch.setattr(dictionaries, "HUNSPELL_DIR", d)
    monkeypatch.delenv("CPWORDS_DICT_DIR", raising=False)
    _clear_caches()
    yield {w.lower() for w in TINY_FRENCH.split()}
    _clear_caches()


def test_truncate_answers_only_use_the_dictionary(
    tiny_french: set[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(["truncate", "--lang", "fr", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["lexicon"] == "wfrench" and data["lexicon_size"] == 7
    assert data["sequence"] == ["o", "or", "ors"]  # Orsa, Orsay are proper nouns: out
    code, out, _ = _run(["truncate", "--lang", "fr", "--proper-nouns", "--json"], capsys)
    data = json.loads(out)
    assert data["sequence"] == ["o", "or", "ors", "orsa", "orsay"]
    assert data["lexicon"] == "wfrench with proper nouns"
    assert set(data["sequence"]) <= tiny_french


def test_letterboxed_answers_only_use_the_dictionary(
    tiny_french: set[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(["letterboxed", "abc-def-ghi-jkl", "--lang", "fr", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["solution"] == ["bechfag", "gjdkil"]
    assert data["lexicon"] == "wfrench top 100,000"
    argv = ["letterboxed", "abc-def-ghi-jkl", "--lang", "fr", "--proper-nouns", "--json"]
    code, out, _ = _run(argv, capsys)
    assert json.loads(out)["solution"] == ["adgjbehkcfil"]


def test_the_language_words_are_the_dictionary_s_most_common_first(tiny_french: set[str]) -> None:
    from cpwords.core.languages import language_lexicon, language_words

    words = language_words("fr")
    assert set(words) == tiny_french - {"orsa", "orsay", "adgjbehkcfil"}
    assert words.index("été") < words.index("bechfag")  # common first, unknown words last
    assert language_words("fr", 2) == words[:2]
    folded = language_lexicon("fr", fold=True)
    assert "ete" in folded.words and "été" not in folded.words
    assert folded.source == "wfrench, accents folded"
    assert language_lexicon("fr", 3).source == "wfrench top 3"


def test_a_missing_dictionary_is_one_line_with_its_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cpwords.core import dictionaries

    monkeypatch.setattr(dictionaries, "DICT_DIR", tmp_path)  # no dictionary here
    monkeypatch.setattr(dictionaries, "HUNSPELL_DIR", tmp_path)

    monkeypatch.delenv("CPWORDS_DICT_DIR", raising=False)
    _clear_caches()
    try:
        for argv in (
            ["truncate", "--lang", "fr"],
            ["letterboxed", "éra-tlo-sni-cuè", "--lang", "fr"],
            ["letterpress", "abc", "--lang", "fr", "--no-cache"],
            ["grid", "--top", "100", "--lang", "fr"],
            ["truncate", "--ending", "relapsed", "--dict", "wamerican"],
            ["letterpress", "abc", "--dict", "dict:fr", "--no-cache"],
        ):
            code, out, err = _run(argv, capsys)
            assert code == 2 and not out, (argv, code, err)
            assert err.count("\n") == 1 and "Traceback" not in err
            assert "is not installed: apt-get install w" in err, err
        # English's game lists ship with cpwords: no dictionary needed
        code, out, err = _run(["truncate", "--ending", "relapsed"], capsys)
        assert code == 0 and out.startswith("dictionary  truncate (112774 words)"), err
    finally:
        _clear_caches()


def test_languages_without_a_dictionary_say_they_read_a_frequency_list() -> None:
    from cpwords.core.languages import language_lexicon

    assert language_lexicon("ja", 2_000).source == "wordfreq top 2,000 (ja), a frequency list"


@pytest.mark.slow
def test_english_proper_nouns_are_out_of_letterpress_unless_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cpwords.core.lexicon import english_words_lexicon

    web2 = english_words_lexicon("web2")
    assert "iraq" not in web2 and "utah" not in web2 and "john" not in web2
    assert "apple" in web2 and "relapse" in web2
    with_proper = english_words_lexicon("web2", proper=True)
    assert {"iraq", "utah", "john"} <= with_proper.as_set()
    assert with_proper.source == "english-words:web2 with proper nouns"
    letters = "abcdefghijklmnopqrstuvwxy"
    argv = ["letterpress", letters, "--min-length", "4", "--dict", "web2", "--json"]
    code, out, _ = _run(argv, capsys)
    data = json.loads(out)
    assert code == 0 and data["lexicon"] == "english-words:web2"
    assert "iraq" not in data["solution"] and "jump" in data["solution"]
    code, out, _ = _run([*argv[:-1], "--proper-nouns", "--json"], capsys)
    assert code == 0 and "iraq" in json.loads(out)["solution"]
    # The default, the game's own list, is lower case: no proper noun to leave out.
    code, out, _ = _run(["letterpress", letters, "--min-length", "4", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["lexicon"] == "letterpress" and "iraq" not in data["solution"]


def test_truncate_s_english_default_is_the_games_own_list(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The seed's chain out of the box, every word the Truncate game's (issue 47; wamerican's
    longest chain went through 'ea', an abbreviation)."""
    from cpwords.core.wordlists import packaged_lexicon

    code, out, _ = _run(["truncate", "--ending", "relapsed", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["lexicon"] == "truncate" and data["lexicon_size"] == 112_774
    assert data["sequence"] == ["a", "la", "lap", "laps", "lapse", "elapse", "elapsed", "relapsed"]
    game = packaged_lexicon("truncate").as_set()
    assert set(data["sequence"]) <= game and "ea" not in game
    code, out, _ = _run(["truncate", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["length"] == 8 and set(data["sequence"]) <= game


@pytest.mark.slow
@needs_dictionary("en")
def test_truncate_reads_wamerican_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    from cpwords.core.dictionaries import dictionary_lexicon

    argv = ["truncate", "--ending", "relapsed", "--dict", "wamerican", "--json"]
    code, out, _ = _run(argv, capsys)
    data = json.loads(out)
    assert code == 0 and data["lexicon"] == "wamerican"
    assert data["sequence"][-1] == "relapsed" and data["length"] == 8
    assert set(data["sequence"]) <= dictionary_lexicon("en").as_set()


@pytest.mark.slow
@needs_dictionary("fr")
def test_the_french_truncate_chain_is_made_of_french_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cpwords.core.dictionaries import dictionary_lexicon

    code, out, _ = _run(["truncate", "--lang", "fr", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["lexicon"] == "wfrench"
    assert set(data["sequence"]) <= dictionary_lexicon("fr").as_set()
    assert "internatio" not in data["sequence"] and "internati" not in data["sequence"]


@pytest.mark.slow
@needs_dictionary("fr")
def test_the_french_letter_boxed_answer_uses_wfrench_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cpwords.core.dictionaries import dictionary_lexicon

    code, out, _ = _run(["letterboxed", "éra-tlo-sni-cuè", "--lang", "fr", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["lexicon"] == "wfrench top 100,000"
    assert data["solution"] and set(data["solution"]) <= dictionary_lexicon("fr").as_set()
    assert "léon" not in data["solution"] and "nautic" not in data["solution"]


@pytest.mark.slow
@needs_dictionary("fr")
def test_generated_french_boxes_are_answered_by_wfrench_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cpwords.core.dictionaries import dictionary_lexicon
    from cpwords.letterboxed.models.design import generate_boxes
    from cpwords.letterboxed.models.dp import default_lexicon

    gen = generate_boxes(2, default_lexicon("fr"), seed=1, lang="fr")
    french = dictionary_lexicon("fr").as_set()
    assert len(gen.boxes) == 2
    for b in gen.boxes:
        assert b.solution and set(b.solution) <= french


@pytest.mark.slow
@needs_dictionary("de")
def test_the_german_grid_reads_wngerman() -> None:
    from cpwords.core.dictionaries import dictionary_lexicon
    from cpwords.grid.rules import common_tokens

    tokens = common_tokens(2000, 2, 2, False, "de")
    assert tokens.source == "wngerman top 2,000"
    assert set(tokens.words) <= dictionary_lexicon("de").as_set()
