"""What a letter is (cpwords.core.alphabet), shared by every reader."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cpwords.core.alphabet import is_word, normalize_word, word_problem
from cpwords.core.lexicon import lexicon_from_words, wordfreq_lexicon
from tests.conftest import needs_dictionary


@given(st.text(min_size=1, max_size=8))
def test_normalisation_is_idempotent_and_form_blind(text: str) -> None:
    once = normalize_word(text)
    assert normalize_word(once) == once
    assert normalize_word(unicodedata.normalize("NFD", text)) == once


def test_alphabets() -> None:
    assert is_word("für") and not is_word("für", "a-z")
    assert is_word("東京") and is_word("ka\u0301")  # a mark after a letter
    assert word_problem("\u0301a") is not None  # a mark cannot start a word
    assert not is_word("r2d2") and not is_word("")


def test_dictionaries_keep_a_z_by_default_and_every_script_on_request() -> None:
    entries = ["Über", "naïve", "plain", "o'clock"]
    assert lexicon_from_words(entries).words == ("plain",)
    lex = lexicon_from_words(entries, alphabet="any")
    assert lex.words == ("naïve", "plain", "über") and lex.skipped == 1


def test_wordfreq_lists_in_other_alphabets_are_normalised_words() -> None:
    words = wordfreq_lexicon(2000, "de", alphabet="any")
    assert "für" in words and len(set(words)) == len(words)
    assert all(is_word(w) and normalize_word(w) == w for w in words)


# ----------------------------------------------------------------------------- accents, scripts


@given(st.text(min_size=1, max_size=8))
def test_folding_is_idempotent_form_blind_and_drops_every_accent(text: str) -> None:
    from cpwords.core.alphabet import KEPT_LETTERS, fold_accents, is_accent

    once = normalize_word(text, fold=True)
    assert normalize_word(once, fold=True) == once == fold_accents(normalize_word(text))
    assert normalize_word(unicodedata.normalize("NFD", text), fold=True) == once
    marks = [d for c in once if c not in KEPT_LETTERS for d in unicodedata.normalize("NFD", c)]
    assert not any(is_accent(d) for d in marks)
    # Only accents go: every other mark of the word stays, in order.
    word = normalize_word(text)
    if not any(c in "йїў" for c in word):
        kept = [c for c in unicodedata.normalize("NFD", word) if not is_accent(c)]
        assert unicodedata.normalize("NFC", "".join(kept)) == once


def test_marks_that_are_letters_of_their_script_are_not_folded() -> None:
    from cpwords.core.alphabet import fold_accents

    # Devanagari and Tamil vowel signs, the Japanese voiced sound mark: letters, not accents.
    for word in ("कुछ", "किताब", "தமிழ்", "が", "ぱん"):
        assert fold_accents(normalize_word(word)) == normalize_word(word)
    # Hebrew and Arabic optional vowel points are.
    assert fold_accents("שָׁלוֹם") == "שלום" and fold_accents("كَتَبَ") == "كتب"
    assert fold_accents("ёлка") == "елка" and fold_accents("άλφα") == "αλφα"
    # Cyrillic short i, yi and short u are letters of their own.
    assert fold_accents("йогурт їжа ўсё") == "йогурт їжа ўсе"


def test_folding_is_the_players_choice() -> None:
    from cpwords.core.alphabet import fold_accents

    # off by default: Finnish ä is never an a, French é is not e
    assert normalize_word("Äiti") == "äiti" and normalize_word("ÉTÉ") == "été"
    assert normalize_word("Äiti", fold=True) == "aiti" and normalize_word("ÉTÉ", fold=True) == "ete"
    # letters Unicode does not decompose stay: ß, ø, ł, æ, œ, ı
    assert fold_accents("straße øl łza æble œuvre ılık") == "straße øl łza æble œuvre ılık"
    assert fold_accents("français señor żółw") == "francais senor zołw"


def test_scripts_and_foreign_letters() -> None:
    from cpwords.core.alphabet import foreign_letters, main_scripts, script_of

    assert [script_of(c) for c in "aéжλא中"] == [
        "LATIN",
        "LATIN",
        "CYRILLIC",
        "GREEK",
        "HEBREW",
        "CJK",
    ]
    words = ["мир"] * 40 + ["ok"]
    assert main_scripts(words) == {"CYRILLIC"}
    assert main_scripts(words, share=0.01) == {"CYRILLIC", "LATIN"}
    assert foreign_letters("мирq", set("мир"), "x") == (
        "'q' (LATIN) is in no word of x (a list written in CYRILLIC)"
    )
    assert foreign_letters("мирж", set("мир"), "x") is None  # same script: a valid puzzle


def test_language_lists_keep_their_scripts_and_unknown_codes_fail() -> None:
    import pytest

    from cpwords.core.errors import InputError
    from cpwords.core.languages import language_lexicon, language_words
    from cpwords.core.lexicon import check_lang

    mk = language_words("mk", 20_000)  # Macedonian: wordfreq's list (Russian reads hunspell-ru)
    assert len(mk) > 15_000 and all(not ("a" <= c <= "z") for w in mk for c in w)
    # English: its dictionary's words (wamerican, else web2), ranked by wordfreq, not
    # wordfreq's own list (whose top words hold names).
    en = language_words("en", 2_000)
    assert len(en) == 2_000 and en[0] == "the" and set(en) < set(language_words("en"))
    assert "khadija" not in language_words("en", 100_000)
    ja = language_lexicon("ja", 2_000)
    assert ja.source == "wordfreq top 2,000 (ja), a frequency list"
    with pytest.raises(InputError, match=r"no built-in word list for language 'xx' \(known: ar"):
        check_lang("xx")


@pytest.mark.slow
@needs_dictionary("fr")
def test_french_reads_wfrench_folded_on_demand() -> None:
    from cpwords.core.dictionaries import dictionary_lexicon
    from cpwords.core.languages import language_lexicon

    fr = language_lexicon("fr", 20_000, fold=True)
    assert fr.source == "wfrench top 20,000, accents folded"
    assert "ete" in fr.words and "été" not in fr.words
    plain = language_lexicon("fr", 20_000)
    assert set(plain.words) <= dictionary_lexicon("fr").as_set()
