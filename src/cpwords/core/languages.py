"""A language's lexicon: its curated dictionary where one is installed (Debian's word lists,
Hunspell's), else wordfreq's list, with frequencies from wordfreq; English's most common words.

Above :mod:`cpwords.core.lexicon` (word lists and their reading) and
:mod:`cpwords.core.dictionaries` (the curated dictionaries), which import nothing of it.
"""

from __future__ import annotations

from functools import lru_cache

from cpwords.core.alphabet import normalize_word
from cpwords.core.errors import InputError
from cpwords.core.lexicon import (
    WHOLE_LIST,
    Lexicon,
    lexicon_from_words,
    wordfreq_lexicon,
)


def curated_language(lang: str) -> bool:
    """Whether ``--lang lang`` reads a curated dictionary (:mod:`cpwords.core.dictionaries`)
    rather than wordfreq's frequency list.

    Every language with a dictionary but English, which keeps its frequency-list and web2
    defaults (each puzzle documents its own).

    Examples
    --------
    >>> curated_language("fr"), curated_language("en"), curated_language("ja")
    (True, False, False)
    """
    from cpwords.core.dictionaries import has_dictionary

    return lang != "en" and has_dictionary(lang)


def language_source(
    lang: str = "en", n: int = WHOLE_LIST, fold: bool = False, proper: bool = False
) -> str:
    """The name of what :func:`language_lexicon` reads: the dictionary's (``wfrench``,
    ``wfrench top 20,000``), or ``wordfreq (ja), a frequency list`` for a language without one.

    Examples
    --------
    >>> language_source("fr", 20_000, fold=True)
    'wfrench top 20,000, accents folded'
    >>> language_source("ja")
    'wordfreq (ja), a frequency list'
    """
    size = "" if n >= WHOLE_LIST else f" top {n:,}"
    if curated_language(lang):
        from cpwords.core.dictionaries import find_dictionary

        name = find_dictionary(lang).name + size + (" with proper nouns" if proper else "")
        return name + (", accents folded" if fold else "")
    if lang == "en":
        from cpwords.core.dictionaries import english_common_words

        name = english_common_words(None if n >= WHOLE_LIST else n, proper)[1]
        return name + (", accents folded" if fold else "")
    return f"wordfreq{size} ({lang}{', accents folded' if fold else ''}), a frequency list"


@lru_cache(maxsize=2)
def _ranked_english(fold: bool, proper: bool) -> tuple[str, ...]:
    """English's default dictionary words, most common first
    (:func:`cpwords.core.dictionaries.english_common_words`), folded when ``fold``."""
    from cpwords.core.dictionaries import english_common_words

    words = english_common_words(None, proper)[0]
    if not fold:
        return tuple(words)
    return tuple(dict.fromkeys(normalize_word(w, "en", True) for w in words))


@lru_cache(maxsize=2)
def _ranked_dictionary(lang: str, fold: bool, proper: bool) -> tuple[str, ...]:
    """A dictionary's words, most common first (each once, folded when ``fold``)."""
    from cpwords.core.dictionaries import ranked_words

    ranked = ranked_words(lang, None, proper)
    if not fold:
        return tuple(ranked)
    seen: set[str] = set()
    out = []
    for w in ranked:
        w = normalize_word(w, lang, True)
        if w not in seen:
            seen.add(w)
            out.append(w)
    return tuple(out)


def language_words(
    lang: str = "en", n: int = WHOLE_LIST, fold: bool = False, proper: bool = False
) -> list[str]:
    """The words ``--lang`` reads, most common first: a curated dictionary's where the language
    has one, else wordfreq's ``n`` most frequent entries that are words.

    A language with a curated dictionary (:func:`curated_language`) gives its ``n`` most
    common words (:func:`cpwords.core.dictionaries.ranked_words`: the dictionary says what is
    a word, wordfreq's Zipf values only rank them). English reads its default dictionary the
    same way (:func:`cpwords.core.dictionaries.english_common_words`: ``wamerican``, else
    Webster's 2nd, proper nouns left out unless ``proper``). Other languages keep wordfreq's
    words of any letters written in the list's main scripts
    (:func:`cpwords.core.alphabet.main_scripts` of the 100,000 most frequent words), so
    foreign brand names in another script (Latin words in the Russian list) are left out.

    Parameters
    ----------
    lang : str
        ISO 639-1 code (:func:`known_languages`).
    n : int
        How many words (dictionary) or most frequent entries (wordfreq) to read (default: all).
    fold : bool
        Fold accents (:func:`cpwords.core.alphabet.fold_accents`).
    proper : bool
        Keep a dictionary's proper nouns (where capitals mark them; wordfreq's lists do not).

    Returns
    -------
    list of str
        Normalised words, each once.

    Raises
    ------
    InputError
        Unknown language, ``n < 1``, or a dictionary that is not installed (one line with the
        command that installs it).

    References
    ----------
    R. Speer, *wordfreq* (PyPI), ``top_n_list``.
    """
    from cpwords.core.alphabet import main_scripts, script_of

    if n <= 0:
        raise InputError(f"the number of words must be positive, got {n}")
    if curated_language(lang):
        return list(_ranked_dictionary(lang, fold, proper)[:n])
    if lang == "en":
        return list(_ranked_english(fold, proper)[:n])
    words = wordfreq_lexicon(n, lang, "any", fold)
    scripts = main_scripts(words[:100_000])
    return [w for w in words if all(script_of(ch) in scripts for ch in w)]


def dictionary_language_lexicon(
    lang: str, n: int = WHOLE_LIST, fold: bool = False, proper: bool = False
) -> Lexicon:
    """A language's curated dictionary (:func:`cpwords.core.dictionaries.dictionary_lexicon`),
    whole or its ``n`` most common words, accents folded when ``fold``.

    Named after the dictionary (``wfrench``, ``wamerican top 1,000, accents folded``).

    Raises
    ------
    InputError
        No dictionary for ``lang``, not installed (one line with its install command),
        ``n < 1``.
    """
    from cpwords.core.dictionaries import dictionary_lexicon, find_dictionary

    if n <= 0:
        raise InputError(f"the number of words must be positive, got {n}")
    d = find_dictionary(lang)
    size = "" if n >= WHOLE_LIST else f" top {n:,}"
    name = d.name + size + (" with proper nouns" if proper else "")
    name += ", accents folded" if fold else ""
    if n < WHOLE_LIST:
        words = _ranked_dictionary(lang, fold, proper)[:n]
        return Lexicon(tuple(sorted(words)), name)
    whole = dictionary_lexicon(d.name, proper)
    if not fold:
        return Lexicon(whole.words, name, whole.skipped)
    folded = lexicon_from_words(
        whole.words, name, lang=d.lang.split("-")[0], alphabet="any", fold=True
    )
    return Lexicon(folded.words, name, whole.skipped)


@lru_cache(maxsize=8)
def language_lexicon(
    lang: str = "en", n: int = WHOLE_LIST, fold: bool = False, proper: bool = False
) -> Lexicon:
    """The built-in lexicon of a language (what ``--lang`` reads), as a :class:`Lexicon`.

    A curated dictionary where the language has one, English excepted
    (:func:`dictionary_language_lexicon`, named after it: ``wfrench``, ``wfrench top
    20,000``); else :func:`language_words` (``wordfreq (ja), a frequency list``).

    Parameters
    ----------
    lang : str
        ISO 639-1 code (:func:`known_languages`).
    n : int
        How many of the most common words (dictionary) or most frequent entries (wordfreq) to
        read (default: all).
    fold : bool
        Fold accents.
    proper : bool
        Keep a dictionary's proper nouns.

    Returns
    -------
    Lexicon
        Named as :func:`language_source` says.

    Raises
    ------
    InputError
        Unknown language, ``n < 1``, or a dictionary that is not installed (one line with the
        command that installs it; never a silent fallback to wordfreq's list).
    """
    if curated_language(lang):
        return dictionary_language_lexicon(lang, n, fold, proper)
    kept = language_words(lang, n, fold)
    name = language_source(lang, n, fold)
    if not kept:
        raise InputError(f"{name}: the lexicon has no words")
    return Lexicon(tuple(sorted(set(kept))), name)


#: How many of wordfreq's most frequent words of a language tell its scripts.
SCRIPT_SAMPLE = 1_000


@lru_cache(maxsize=16)
def language_scripts(lang: str) -> frozenset[str] | None:
    """The scripts a language is written in, as its most frequent words show them.

    The :func:`~cpwords.core.alphabet.main_scripts` of wordfreq's :data:`SCRIPT_SAMPLE` most
    frequent words of ``lang``: ``{"LATIN"}`` for French, ``{"CJK", "HIRAGANA", "KATAKANA"}``
    for Japanese (whose longer lists hold English tokens too: a Latin box is no Japanese
    puzzle).

    Parameters
    ----------
    lang : str
        ISO 639 code.

    Returns
    -------
    frozenset of str or None
        None when wordfreq has no list for ``lang`` (or is not installed).

    Examples
    --------
    >>> sorted(language_scripts("ru")), language_scripts("xx"), language_scripts("az")
    (['CYRILLIC'], None, None)
    """
    from cpwords.core.alphabet import main_scripts

    try:
        from wordfreq import available_languages, top_n_list

        # Only a language of its own: wordfreq answers another (the "nearest match", with a
        # warning on stderr) for one it lacks, whose script is not this language's (Azerbaijani
        # is written in Latin; its nearest list is Russian).
        if lang not in available_languages():
            return None
        words = top_n_list(lang, SCRIPT_SAMPLE)
    except (ImportError, LookupError):
        return None
    return main_scripts(normalize_word(w, lang) for w in words) or None
