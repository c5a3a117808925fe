"""What a letter is (cpwords.core.alphabet), shared by every reader."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from cpwords.core.alphabet import is_word, normalize_word, word_problem
from cpwords.core.lexicon import lexicon_from_words, wordfreq_lexicon


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
