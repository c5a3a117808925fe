"""The whole-list reading paths (one pass over the joined words) equal the word-at-a-time ones.

:func:`cpwords.core.alphabet.normalize_words` and :func:`~cpwords.core.alphabet.word_flags` read
a dictionary's entries joined by line feeds; each must give what :func:`normalize_word` and
:func:`is_word` give word by word, on any Unicode (combining marks, Turkish dotted I, Greek final
sigma, mixed case, hyphens, apostrophes).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cpwords.core.alphabet import Alphabet, is_word, normalize_word, normalize_words, word_flags
from cpwords.core.dictionaries import parse_dictionary_text
from cpwords.core.lexicon import Lexicon, lexicon_from_words, parse_lexicon_text, sorted_distinct
from cpwords.wordsnake.rules import WordsnakeInstance

#: Letters that make the joined text's normalisation and case mapping differ from a word's if
#: anything does: combining marks, Turkish I's, sigma, ligatures, German sharp s, apostrophes,
#: hyphens, spaces of every kind, digits and line breaks other than the line feed.
_TRICKY = (
    "aAeEiIoOzZ\u0301\u0308\u0327\u0307İıIiΣσςΑαΟ'’-–  \t\u00a0\u2028\u0085\x1c"
    "ßẞﬁǅǄéÉe\u0301E\u0301ñÑ0123ЖжЁё東京क\u0941\u3099かが"
)
_LINE = st.text(alphabet=st.sampled_from(_TRICKY) | st.characters(), max_size=8)
_LANGS = st.sampled_from([None, "en", "tr", "az", "de", "el"])


def _reference_dictionary(
    text: str, lang: str, proper: bool, capitals: bool
) -> tuple[list[str], int, int]:
    """The word-at-a-time reading of :func:`parse_dictionary_text` (as it was)."""
    kept: set[str] = set()
    proper_skipped = not_words = 0
    for line in text.splitlines():
        entry = line.strip()
        if not entry:
            continue
        if capitals and not proper and entry[0].isupper():
            proper_skipped += 1
            continue
        w = normalize_word(entry, lang)
        if is_word(w, "any"):
            kept.add(w)
        else:
            not_words += 1
    return sorted(kept), proper_skipped, not_words


@given(st.lists(_LINE.filter(lambda s: "\n" not in s), max_size=12), _LANGS)
def test_normalize_words_equals_each_word(words: list[str], lang: str | None) -> None:
    assert normalize_words(words, lang) == [normalize_word(w, lang) for w in words]


@given(st.lists(_LINE, max_size=6), _LANGS)
def test_normalize_words_with_line_feeds_inside(words: list[str], lang: str | None) -> None:
    assert normalize_words(words, lang) == [normalize_word(w, lang) for w in words]


@given(st.lists(_LINE, max_size=12), st.sampled_from(["any", "a-z"]))
def test_word_flags_equal_is_word(words: list[str], alphabet: Alphabet) -> None:
    words = normalize_words(words)
    flags = word_flags(words, alphabet)
    each = [is_word(w, alphabet) for w in words]
    assert (flags if flags is not None else [True] * len(words)) == each
    assert flags is None or not all(flags)


@given(st.lists(_LINE, max_size=12), _LANGS, st.booleans(), st.booleans())
def test_dictionary_text_equals_line_by_line(
    lines: list[str], lang: str | None, proper: bool, capitals: bool
) -> None:
    text = "\n".join(lines)
    got = parse_dictionary_text(
        text, lang or "en", proper=proper, capitals_mark_proper_nouns=capitals
    )
    assert got == _reference_dictionary(text, lang or "en", proper, capitals)


def _reference_lexicon(
    words: list[str], lang: str | None, alphabet: Alphabet, fold: bool
) -> tuple[tuple[str, ...], int] | None:
    from cpwords.core.alphabet import normalize_word as nw

    kept: set[str] = set()
    skipped = 0
    for w in words:
        w = nw(w.strip(), lang, fold)
        if not w:
            continue
        if is_word(w, alphabet):
            kept.add(w)
        else:
            skipped += 1
    return (tuple(sorted(kept)), skipped) if kept else None


@given(st.lists(_LINE, max_size=12), _LANGS, st.sampled_from(["any", "a-z"]), st.booleans())
def test_lexicon_from_words_equals_word_by_word(
    words: list[str], lang: str | None, alphabet: Alphabet, fold: bool
) -> None:
    want = _reference_lexicon(words, lang, alphabet, fold)
    try:
        lex = lexicon_from_words(words, "demo", lang=lang, alphabet=alphabet, fold=fold)
    except Exception:
        assert want is None
        return
    assert (lex.words, lex.skipped) == want


@given(
    st.lists(st.text(alphabet="abcxyz\r\n *#\tÉé", max_size=6), min_size=1, max_size=10),
    st.sampled_from(["any", "a-z"]),
)
def test_plain_lexicon_text_equals_the_general_reading(
    lines: list[str], alphabet: Alphabet
) -> None:
    text = "\n".join(lines)
    try:
        lex: Lexicon | None = parse_lexicon_text(text, "demo", alphabet=alphabet)
    except Exception:
        lex = None
    # The general reading: each line's first field, marks stripped, through lexicon_from_words.
    fields = [
        ln.strip().split(" ")[0].split("\t")[0].replace("*", "")
        for ln in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if ln.strip() and not ln.strip().startswith("#")
    ]
    want = _reference_lexicon(fields, None, alphabet, False)
    assert (None if lex is None else (lex.words, lex.skipped)) == want


@given(st.lists(_LINE, min_size=1, max_size=8))
def test_instance_words_equal_each_word_normalised(words: list[str]) -> None:
    normed = [normalize_word(w) for w in words]
    try:
        inst = WordsnakeInstance(tuple(words))
    except Exception as exc:
        assert not all(is_word(w) for w in normed), exc
        return
    assert list(inst.words) == normed


@given(st.lists(st.text(alphabet="abé\u0301Σ", max_size=3), max_size=12))
def test_sorted_distinct_is_sorted_set(words: list[str]) -> None:
    assert sorted_distinct(words) == sorted(set(words))
