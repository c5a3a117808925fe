"""What a letter is, for every puzzle: Unicode normalisation, case and the words we accept.

One place decides it, used by every reader (:mod:`cpwords.core.lexicon`) and every rule module:

* **Normal form NFC.** A word typed in NFD (``e`` + combining acute) and in NFC (``é``) is the
  same word, so every word is brought to NFC before anything else looks at it. Letters are the
  code points of that form: a precomposed ``é`` is one letter; a combining mark that has no
  precomposed form (Devanagari vowel signs, say) counts as a letter of its own.
* **Case.** Words are lower-cased with :meth:`str.lower` (Unicode's default mapping, which keeps
  German ``ß`` as one letter, unlike :meth:`str.casefold`), then brought to NFC again. The
  Turkish and Azerbaijani dotted and dotless i (``I`` -> ``ı``, ``İ`` -> ``i``) follow the
  language's rule only when the caller says the text is Turkish (``lang="tr"`` or ``"az"``);
  Unicode's default mapping would turn ``I`` into ``i`` and ``İ`` into ``i`` + a combining dot.
* **Words.** A word is one or more letters (Unicode categories ``L*``) and combining marks
  (``M*``), starting with a letter. Digits, punctuation, spaces and symbols are not letters:
  a puzzle input holding one is refused naming the line and the character; a dictionary entry
  holding one is skipped and counted.
* **Alphabets.** ``"a-z"`` accepts only the 26 letters of basic Latin; ``"any"`` accepts the
  words above in every script. Wordsnake reads every alphabet; the puzzles still written for
  a-z read their dictionaries with ``"a-z"``.
"""

from __future__ import annotations

import unicodedata
from typing import Literal

#: Which words a reader keeps: basic Latin only, or the letters of every script.
Alphabet = Literal["a-z", "any"]

#: Languages whose dotted and dotless i are distinct letters (ISO 639-1).
TURKIC = frozenset({"tr", "az"})


def normalize_word(text: str, lang: str | None = None) -> str:
    """NFC form of ``text``, lower-cased with the rules of ``lang``.

    Parameters
    ----------
    text : str
        A word as typed (any case, NFC or NFD).
    lang : str, optional
        ISO 639-1 code; ``"tr"`` and ``"az"`` map ``I`` to ``ı`` and ``İ`` to ``i``.

    Returns
    -------
    str
        The normalised word (not validated: see :func:`word_problem`).

    Examples
    --------
    >>> normalize_word("Cafe\\u0301") == normalize_word("CAFÉ") == "café"
    True
    >>> normalize_word("STRAßE"), normalize_word("DİYARBAKIR", lang="tr")
    ('straße', 'diyarbakır')
    """
    s = unicodedata.normalize("NFC", text)
    if lang in TURKIC:
        s = s.replace("I", "ı").replace("İ", "i")
    s = s.lower()
    return s if s.isascii() else unicodedata.normalize("NFC", s)


def is_letter(ch: str) -> bool:
    """Whether one character is a letter or a combining mark (Unicode ``L*`` or ``M*``)."""
    return ch.isalpha() or unicodedata.category(ch)[0] == "M"


def word_problem(word: str, alphabet: Alphabet = "any") -> str | None:
    """Why ``word`` (already normalised) is not a word of ``alphabet``, or None when it is.

    Parameters
    ----------
    word : str
    alphabet : {"any", "a-z"}

    Returns
    -------
    str or None
        A short reason naming the first offending character, e.g. ``"'3' is not a letter"``.

    Examples
    --------
    >>> word_problem("für") is None, word_problem("für", "a-z")
    (True, "'ü' is not a letter a-z")
    >>> word_problem("r2d2"), word_problem("")
    ("'2' is not a letter", 'the word is empty')
    """
    if not word:
        return "the word is empty"
    if alphabet == "a-z":
        if word.isascii() and word.isalpha() and word.islower():
            return None
        bad = next(c for c in word if not ("a" <= c <= "z"))
        return f"{bad!r} is not a letter a-z"
    if word.isalpha():
        return None
    for i, ch in enumerate(word):
        if not is_letter(ch):
            return f"{ch!r} is not a letter"
        if i == 0 and not ch.isalpha():
            return f"{ch!r} (a combining mark) cannot start a word"
    return None


def is_word(word: str, alphabet: Alphabet = "any") -> bool:
    """Whether ``word`` (already normalised) is a word of ``alphabet`` (see :func:`word_problem`).

    Examples
    --------
    >>> is_word("σοφία"), is_word("naïve", "a-z"), is_word("e-mail")
    (True, False, False)
    """
    if alphabet == "a-z":
        return word.isascii() and word.isalpha() and word.islower()
    return word_problem(word, alphabet) is None
