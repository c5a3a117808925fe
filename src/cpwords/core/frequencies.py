"""Word and letter frequencies: wordfreq's lists and Zipf values, the languages it knows, and
letter weights and draws.

Every name is importable from :mod:`cpwords.core.lexicon` too, which builds lexicons from them
(:func:`~cpwords.core.lexicon.zipf_floor`).

References
----------
R. Speer, *wordfreq* (PyPI), Zipf frequencies.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

from cpwords.core.alphabet import Alphabet, is_word, normalize_word
from cpwords.core.errors import InputError, excerpt

if TYPE_CHECKING:
    import numpy as np


def wordfreq_lexicon(
    n: int, lang: str = "en", alphabet: Alphabet = "a-z", fold: bool = False
) -> list[str]:
    """The ``n`` most frequent words of ``lang`` from the ``wordfreq`` package.

    Parameters
    ----------
    n : int
        How many of the most frequent entries to take (before filtering).
    lang : str
        ISO 639-1 code; wordfreq has large lists (up to about a million entries) for 21
        languages.
    alphabet : {"a-z", "any"}
        Which entries are kept: plain a-z words, or the words of every script (entries with
        digits, apostrophes, hyphens or spaces are dropped either way).
    fold : bool
        Fold accents (entries that become equal are kept once, at the first one's rank).

    Returns
    -------
    list of str
        Normalised words (NFC, lower case with the language's rules), most frequent first,
        each once.

    References
    ----------
    R. Speer, *wordfreq* (PyPI), ``top_n_list``.
    """
    from wordfreq import top_n_list

    if n <= 0:
        raise InputError(f"the number of words must be positive, got {n}")
    check_lang(lang)
    seen: set[str] = set()
    out = []
    for entry in top_n_list(lang, n):
        w = normalize_word(entry, lang, fold)
        if w not in seen and is_word(w, alphabet):
            seen.add(w)
            out.append(w)
    return out


def known_languages() -> list[str]:
    """The language codes that have a built-in word list (wordfreq's), sorted."""
    from wordfreq import available_languages

    return sorted(available_languages())


def check_lang(lang: str) -> str:
    """``lang`` when it names a language with a built-in word list.

    Raises
    ------
    InputError
        An unknown code, in one line listing the known ones.

    Examples
    --------
    >>> check_lang("fr")
    'fr'
    """
    known = known_languages()
    if lang not in known:
        raise InputError(
            f"no built-in word list for language {lang!r} (known: {', '.join(known)}); "
            "give a list of your own with --dict FILE"
        )
    return lang


def check_language_code(lang: str) -> str:
    """``lang`` when it is a language code (ISO 639, as an IETF tag: ``fr``, ``az``, ``pt-BR``),
    with or without a built-in word list: ``--lang`` also chooses the case rules
    (:func:`cpwords.core.alphabet.normalize_word`), which a list of one's own needs too.

    Parameters
    ----------
    lang : str
        The code given to ``--lang``.

    Returns
    -------
    str
        ``lang`` unchanged.

    Raises
    ------
    InputError
        Not a valid language tag, in one line.

    References
    ----------
    R. Speer, *langcodes* (PyPI), ``tag_is_valid`` (BCP 47 / ISO 639).

    Examples
    --------
    >>> check_language_code("az")
    'az'
    >>> check_language_code("xx")
    Traceback (most recent call last):
    ...
    cpwords.core.errors.InputError: --lang 'xx' is not a language code (ISO 639, such as fr or az)
    """
    import langcodes

    if not langcodes.tag_is_valid(lang) or langcodes.get(lang).language in (None, "und"):
        shown = repr(lang) if len(lang) <= 40 else repr(excerpt(lang, 30))
        raise InputError(f"--lang {shown} is not a language code (ISO 639, such as fr or az)")
    return lang


#: Every entry of a wordfreq list (its largest lists hold about 700,000).
WHOLE_LIST = 10**7


def letter_frequencies(words: Iterable[str]) -> dict[str, float]:
    """The share of each letter among all letters of ``words`` (values sum to 1).

    Examples
    --------
    >>> letter_frequencies(["aab", "b"])
    {'a': 0.5, 'b': 0.5}
    """
    counts = Counter("".join(words))  # one pass in C, also over a whole 600,000-word list
    total = sum(counts.values())
    return {ch: k / total for ch, k in sorted(counts.items())}


def draw_letters(
    rng: np.random.Generator, weights: Mapping[str, float], size: int, replace: bool = True
) -> list[str]:
    """Draw ``size`` letters by their weights (the puzzle generators' one drawing rule).

    Parameters
    ----------
    rng : numpy.random.Generator
        The seeded generator; the same seed and weights give the same letters.
    weights : mapping of str to float
        Drawing weight of each letter (e.g. :func:`letter_frequencies`); need not sum to 1.
    size : int
        Letters to draw.
    replace : bool
        Draw with replacement (a letter may come several times, as on a Letterpress board) or
        without (distinct letters, as in a Letter Boxed box).

    Returns
    -------
    list of str
        The letters in the order drawn.

    Raises
    ------
    InputError
        ``size < 0``, no letter with a positive weight, a negative weight, or (without
        replacement) fewer weighted letters than ``size``.

    Examples
    --------
    >>> import numpy as np
    >>> sorted(draw_letters(np.random.default_rng(0), {"a": 1.0, "b": 1.0, "c": 2.0}, 3, False))
    ['a', 'b', 'c']
    >>> set(draw_letters(np.random.default_rng(0), {"a": 1.0, "z": 0.0}, 5))
    {'a'}
    """
    import numpy as np

    letters = sorted(weights)
    p = np.array([weights[ch] for ch in letters], dtype=np.float64)
    if size < 0:
        raise InputError(f"cannot draw {size} letters")
    if not p.size or (p < 0).any() or not p.sum() > 0:
        raise InputError("no letter to draw from (the weights must be >= 0, some > 0)")
    if not replace and np.count_nonzero(p) < size:
        raise InputError(
            f"cannot draw {size} distinct letters from {np.count_nonzero(p)} weighted letters"
        )
    pick = rng.choice(len(letters), size=size, replace=replace, p=p / p.sum())
    return [letters[i] for i in pick]


@lru_cache(maxsize=4)
def _frequencies(lang: str = "en") -> dict[str, float]:
    from wordfreq import get_frequency_dict

    table = get_frequency_dict(lang)
    if lang == "en":
        return table
    out: dict[str, float] = {}  # the keys as cpwords normalises words (NFC, the case rules)
    for w, f in table.items():
        key = normalize_word(w, lang)
        out[key] = out.get(key, 0.0) + f
    return out


#: The highest Zipf floor accepted (wordfreq's most frequent English word, "the", is at 7.73).
MAX_ZIPF = 8.0


def check_zipf_floor(min_zipf: float) -> float:
    """A Zipf floor as a float, from 0 (no floor) to :data:`MAX_ZIPF`.

    Raises
    ------
    InputError
        Not a number from 0 to :data:`MAX_ZIPF` (``nan`` and ``inf`` included).

    Examples
    --------
    >>> check_zipf_floor(3)
    3.0
    """
    z = float(min_zipf)
    if not (math.isfinite(z) and 0.0 <= z <= MAX_ZIPF):
        raise InputError(f"the Zipf floor must be from 0 to {MAX_ZIPF:g}, got {min_zipf}")
    return z


def zipf(word: str, lang: str = "en") -> float:
    """wordfreq's Zipf frequency of a normalised word of ``lang`` (0 when unknown).

    Equal to ``wordfreq.zipf_frequency(word, "en")`` on lower-case a-z words (log10 of
    occurrences per 10**9 words, rounded to 2 decimals), read from one cached frequency table
    per language (its keys normalised like every word, see :mod:`cpwords.core.alphabet`).

    Examples
    --------
    >>> zipf("the") > 7 > zipf("highbrow") > 0 == zipf("qzxj")
    True
    """
    f = _frequencies(lang).get(word, 0.0)
    return round(math.log10(f) + 9, 2) if f > 0 else 0.0
