"""Issue 30: the curated dictionaries (Debian's word lists) read on fixtures in each format."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from cpwords.core import dictionaries
from cpwords.core.dictionaries import (
    DICTIONARIES,
    dictionary_lexicon,
    find_dictionary,
    list_lexicons,
    ranked_words,
)
from cpwords.core.errors import InputError
from cpwords.core.sources import lexicon_words


@pytest.fixture
def dict_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty /usr/share/dict in tmp_path: every dictionary absent until a test writes it."""
    monkeypatch.setattr(dictionaries, "DICT_DIR", tmp_path)
    monkeypatch.setattr(dictionaries, "HUNSPELL_DIR", tmp_path)
    monkeypatch.delenv("CPWORDS_DICT_DIR", raising=False)
    dictionary_lexicon.cache_clear()
    lexicon_words.cache_clear()
    yield tmp_path
    dictionary_lexicon.cache_clear()
    lexicon_words.cache_clear()


def write(dict_dir: Path, name: str, lines: list[str]) -> None:
    d = find_dictionary(name)
    (dict_dir / d.file).write_bytes(("\n".join(lines) + "\n").encode(d.encoding))


def test_utf8_list_with_capitals_drops_proper_nouns(dict_dir: Path) -> None:
    write(dict_dir, "wfrench", ["Paris", "chat", "Émile", "été", "maïs", "chat"])
    lex = dictionary_lexicon("fr")
    assert lex.words == ("chat", "maïs", "été")
    assert lex.source == "wfrench"


def test_latin1_list_like_wswedish(dict_dir: Path) -> None:
    write(dict_dir, "wswedish", ["bröd", "hälsa", "Stockholm", "åka"])
    assert (dict_dir / "swedish").read_bytes().count(b"\xf6") == 1  # ö in latin-1, not UTF-8
    assert dictionary_lexicon("sv").words == ("bröd", "hälsa", "åka")


def test_german_capitalised_nouns_are_kept(dict_dir: Path) -> None:
    write(dict_dir, "wngerman", ["Haus", "gehen", "Straße", "Berlin"])
    assert dictionary_lexicon("de").words == ("berlin", "gehen", "haus", "straße")


def test_decomposed_entry_is_nfc_normalised(dict_dir: Path) -> None:
    decomposed = unicodedata.normalize("NFD", "café")
    assert decomposed != "café"
    write(dict_dir, "wfrench", [decomposed, "thé"])
    words = dictionary_lexicon("wfrench").words
    assert words == ("café", "thé")
    assert all(unicodedata.is_normalized("NFC", w) for w in words)


def test_apostrophe_entry_is_skipped(dict_dir: Path) -> None:
    write(dict_dir, "wamerican", ["cat", "cat's", "dog", "o'clock"])
    lex = dictionary_lexicon("en")
    assert lex.words == ("cat", "dog")
    assert lex.skipped == 2


def test_not_installed_is_one_line_with_the_install_command(dict_dir: Path) -> None:
    with pytest.raises(InputError) as exc:
        dictionary_lexicon("fr")
    msg = str(exc.value)
    assert msg == "the French dictionary (wfrench) is not installed: apt-get install wfrench"
    assert "\n" not in msg
    with pytest.raises(InputError, match="apt-get install wngerman"):
        lexicon_words("dict:de")


def test_unknown_dictionary_names_the_languages(dict_dir: Path) -> None:
    with pytest.raises(InputError, match="no dictionary for 'xx'"):
        dictionary_lexicon("xx")


def test_english_proper_noun_out_by_default_in_with_proper(dict_dir: Path) -> None:
    write(dict_dir, "wamerican", ["London", "apple", "house"])
    assert "london" not in dictionary_lexicon("en").words
    with_proper = dictionary_lexicon("en", proper=True)
    assert "london" in with_proper.words
    assert with_proper.source == "wamerican with proper nouns"


def test_ranked_words_only_dictionary_words_most_common_first(dict_dir: Path) -> None:
    write(dict_dir, "wamerican", ["zygote", "house", "the", "Paris", "qzxjv"])
    ranked = ranked_words("en")
    assert ranked == ["the", "house", "zygote", "qzxjv"]  # unseen by wordfreq: last
    assert ranked_words("en", 2) == ["the", "house"]
    assert "of" not in ranked  # frequent, but not in the dictionary
    with pytest.raises(InputError):
        ranked_words("en", 0)


def test_suite_names_dictionaries(dict_dir: Path) -> None:
    write(dict_dir, "wngerman", ["Haus", "gehen"])
    assert lexicon_words("dict:de") == lexicon_words("dict:wngerman") == ("gehen", "haus")
    with pytest.raises(InputError, match="dict:LANG"):
        lexicon_words("dict:")


def test_list_lexicons_counts_lines_and_flags_installed(dict_dir: Path) -> None:
    write(dict_dir, "wfrench", ["chat", "Paris", "été"])
    rows = {r.name: r for r in list_lexicons()}
    assert [r.name for r in list_lexicons()][: len(DICTIONARIES)] == [d.name for d in DICTIONARIES]
    assert rows["wfrench"].installed and rows["wfrench"].words == 3
    assert not rows["wdutch"].installed and rows["wdutch"].words is None
    assert rows["wdutch"].install == "apt-get install wdutch"
    assert rows["web2"].installed and rows["web2"].words and rows["web2"].words > 200_000
    assert rows["wordfreq:fr:N"].kind == "frequency list"
    assert {rows[n].kind for n in ("enable1", "letterpress", "truncate")} == {"word list"}


@pytest.mark.slow
def test_real_dictionaries_when_installed() -> None:
    dictionary_lexicon.cache_clear()
    for lang in ("en", "fr"):
        if not find_dictionary(lang).installed():
            pytest.skip(f"{find_dictionary(lang).install} to run this test")
    english = set(dictionary_lexicon("en").words)
    assert {"house", "apple"} <= english
    assert "london" not in english  # "London" is a proper noun in wamerican
    dictionary_lexicon.cache_clear()
    assert "london" in dictionary_lexicon("en", proper=True).words
    dictionary_lexicon.cache_clear()
    assert {"chat", "maison", "été"} <= set(dictionary_lexicon("fr").words)
    dictionary_lexicon.cache_clear()
