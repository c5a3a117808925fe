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
* **Accents** are kept: ``é`` and ``e`` are two letters, as the Unicode standard and most
  languages have it (Finnish ``ä`` is never an ``a``). Folding them is the player's choice
  (``--fold-accents`` in every puzzle, :func:`fold_accents`): every letter is decomposed
  (NFD), its accent marks (:data:`ACCENT_MARKS`: the combining diacritics of Latin, Greek and
  Cyrillic, such as accents, the cedilla, the ogonek and the diaeresis; Hebrew's and Arabic's
  optional vowel points) are dropped and the rest is recomposed, so ``é è ê ë`` become ``e``
  and ``ç`` becomes ``c``. Letters that Unicode does not decompose stay as they are: ``ß``,
  ``ø``, ``ł``, ``æ``, ``œ``, ``ı``; so do Cyrillic ``й``, ``ї`` and ``ў`` (letters of their
  own, :data:`KEPT_LETTERS`), and the marks that are letters of their script (the
  vowel signs of Devanagari, Tamil or Bengali, the Japanese voiced sound marks). A word list
  read with folding says how many words it changed and which letters it folded
  (:func:`cpwords.core.lexicon.parse_word_lines`).
* **Alphabets.** ``"a-z"`` accepts only the 26 letters of basic Latin; ``"any"`` accepts the
  words above in every script. The built-in English lexicons are read with ``"a-z"`` (their
  answers do not change); a ``--dict`` file and the other languages' lists with ``"any"``.
* **Scripts.** A letter's script is the first word of its Unicode name (``LATIN``,
  ``CYRILLIC``, ``GREEK``...: :func:`script_of`). A language's built-in list keeps the words
  written in its main scripts (:func:`main_scripts`), so the Russian list holds no Latin
  brand names. A puzzle letter that no word of the lexicon holds is refused as bad input
  when its script is not one the lexicon writes (:func:`foreign_letters`), naming the letter and
  its script; a letter of the right script that no word holds leaves a puzzle with fewer
  answers (Letter Boxed: none), not bad input.
"""

from __future__ import annotations

import operator
import unicodedata
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from itertools import compress
from typing import Literal

#: Which words a reader keeps: basic Latin only, or the letters of every script.
Alphabet = Literal["a-z", "any"]

#: Languages whose dotted and dotless i are distinct letters (ISO 639-1).
TURKIC = frozenset({"tr", "az"})


#: The marks :func:`fold_accents` drops (code point ranges, inclusive): the combining
#: diacritical marks of Latin, Greek and Cyrillic (accents, the cedilla, the ogonek, the
#: diaeresis, the breve, ...), and the optional vowel points and cantillation of Hebrew and
#: the harakat of Arabic, which words are written without as often as with. Not in them, and
#: kept: the vowel signs of Brahmic scripts (Devanagari ``ु`` in ``कुछ``, Tamil, Bengali:
#: letters of the word, not accents), the Japanese voiced sound marks (``が`` is not ``か``),
#: and every spacing mark.
ACCENT_MARKS = (
    (0x0300, 0x036F),  # Combining Diacritical Marks
    (0x1AB0, 0x1AFF),  # ... Extended
    (0x1DC0, 0x1DFF),  # ... Supplement
    (0x20D0, 0x20FF),  # ... for Symbols
    (0xFE20, 0xFE2F),  # Combining Half Marks
    (0x0483, 0x0489),  # Cyrillic combining titlo and others
    (0x0591, 0x05C7),  # Hebrew points and cantillation
    (0x0610, 0x061A),  # Arabic marks
    (0x064B, 0x065F),  # Arabic harakat
    (0x0670, 0x0670),  # Arabic superscript alef
)


#: Letters that Unicode decomposes into a base letter and a mark but that are letters of their
#: own in every alphabet that writes them (Cyrillic short i, yi, short u): never folded.
KEPT_LETTERS = frozenset("йЙїЇўЎ")


def is_accent(ch: str) -> bool:
    """Whether :func:`fold_accents` drops the mark ``ch`` (see :data:`ACCENT_MARKS`).

    Examples
    --------
    >>> is_accent("\u0301"), is_accent("\u0941"), is_accent("\u3099")
    (True, False, False)
    """
    o = ord(ch)
    return any(lo <= o <= hi for lo, hi in ACCENT_MARKS)


def fold_accents(word: str) -> str:
    """``word`` with its accents removed: NFD, the accent marks of :data:`ACCENT_MARKS`
    dropped, NFC again.

    Parameters
    ----------
    word : str
        A normalised word (see :func:`normalize_word`).

    Returns
    -------
    str
        The folded word; letters without a canonical decomposition (``ß``, ``ø``, ``ł``,
        ``æ``, ``ı``) are kept, and so are the marks that are letters of their script (the
        vowel signs of Devanagari, Tamil or Bengali; the Japanese voiced sound marks).

    Examples
    --------
    >>> fold_accents("crème"), fold_accents("straße"), fold_accents("żółć")
    ('creme', 'straße', 'zołc')
    >>> fold_accents("कुछ"), fold_accents("が") == "が"
    ('कुछ', True)
    """
    if word.isascii():
        return word
    bare = "".join(
        c
        if c in KEPT_LETTERS
        else "".join(d for d in unicodedata.normalize("NFD", c) if not is_accent(d))
        for c in unicodedata.normalize("NFC", word)
    )
    return unicodedata.normalize("NFC", bare)


def normalize_word(text: str, lang: str | None = None, fold: bool = False) -> str:
    """NFC form of ``text``, lower-cased with the rules of ``lang``, accents folded on demand.

    Parameters
    ----------
    text : str
        A word as typed (any case, NFC or NFD).
    lang : str, optional
        ISO 639-1 code; ``"tr"`` and ``"az"`` map ``I`` to ``ı`` and ``İ`` to ``i``.
    fold : bool
        Fold accents (:func:`fold_accents`), for games that ignore them.

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
    >>> normalize_word("Éra", fold=True)
    'era'
    """
    s = unicodedata.normalize("NFC", text)
    if lang in TURKIC:
        s = s.replace("I", "ı").replace("İ", "i")
    s = s.lower()
    if s.isascii():
        return s
    s = unicodedata.normalize("NFC", s)
    return fold_accents(s) if fold else s


def normalize_words(words: Sequence[str], lang: str | None = None) -> list[str]:
    """:func:`normalize_word` of every word (no folding), in one pass over the joined words.

    Parameters
    ----------
    words : sequence of str
        Words as typed (any case, NFC or NFD), none holding a ``\\n``.
    lang : str, optional
        ISO 639-1 code, for its case rules (see :func:`normalize_word`).

    Returns
    -------
    list of str
        ``[normalize_word(w, lang) for w in words]``, in order.

    Notes
    -----
    A line feed is a starter that composes with nothing and is neither cased nor
    case-ignorable, so normalising and lower-casing the words joined by line feeds gives each
    word's own result (Greek final sigma included): the text is read by C a few times (NFC's
    quick check answers at once for a text already in NFC) instead of four calls a word. Words
    holding a line feed are normalised one by one.

    Examples
    --------
    >>> normalize_words(["Cafe\\u0301", "DİYARBAKIR", "ΟΔΟΣ"], "tr")
    ['café', 'diyarbakır', 'οδος']
    """
    joined = "\n".join(words)
    if joined.count("\n") != max(len(words) - 1, 0):
        return [normalize_word(w, lang) for w in words]
    if not words:
        return []
    s = unicodedata.normalize("NFC", joined)
    if lang in TURKIC:
        s = s.replace("I", "ı").replace("İ", "i")
    s = s.lower()
    if not s.isascii():
        s = unicodedata.normalize("NFC", s)
    if s == joined:  # already normalised: the words themselves (their hashes kept)
        return list(words)
    return s.split("\n")


def script_of(ch: str) -> str:
    """The script of one letter: the first word of its Unicode name (``"UNKNOWN"`` if none).

    Examples
    --------
    >>> script_of("é"), script_of("ж"), script_of("λ"), script_of("中")
    ('LATIN', 'CYRILLIC', 'GREEK', 'CJK')
    """
    if "a" <= ch <= "z":
        return "LATIN"
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def main_scripts(words: Iterable[str], share: float = 0.05) -> frozenset[str]:
    """The scripts that write at least ``share`` of the letters of ``words``.

    Parameters
    ----------
    words : iterable of str
    share : float
        Smallest share of all letters (0..1) that a script must write.

    Returns
    -------
    frozenset of str
        E.g. ``{"CYRILLIC"}`` for wordfreq's Russian list (1.8 % of its letters are Latin).

    Examples
    --------
    >>> sorted(main_scripts(["мир", "дом", "ok"], share=0.3))
    ['CYRILLIC']
    """
    counts: Counter[str] = Counter()
    for w in words:
        counts.update(w)
    by_script: Counter[str] = Counter()
    for ch, k in counts.items():
        by_script[script_of(ch)] += k
    total = sum(by_script.values())
    return frozenset(s for s, k in by_script.items() if total and k >= share * total)


def foreign_letters(letters: Iterable[str], alphabet: Collection[str], source: str) -> str | None:
    """Why some of ``letters`` cannot be used with a lexicon whose letters are ``alphabet``.

    A letter is *foreign* to a lexicon when no word holds it and its script is not one the
    lexicon writes (a Cyrillic letter with a French list): the puzzle mixes scripts in a way
    the lexicon cannot use, which is bad input. A letter of the lexicon's own script that no
    word happens to hold (``q`` in a list without it) is not foreign: the puzzle is valid, its
    solver proves what that letter allows.

    Parameters
    ----------
    letters : iterable of str
        The puzzle's letters (normalised).
    alphabet : collection of str
        Every letter of the lexicon's words.
    source : str
        The lexicon's name, for the message.

    Returns
    -------
    str or None
        None when no letter is foreign; else one line naming the foreign letters with their
        scripts, and the lexicon's scripts.

    Examples
    --------
    >>> print(foreign_letters("abж", set("abc"), "demo"))
    'ж' (CYRILLIC) is in no word of demo (a list written in LATIN)
    >>> foreign_letters("abz", set("abc"), "demo") is None
    True
    """
    scripts = {script_of(ch) for ch in alphabet}
    out = [
        ch for ch in dict.fromkeys(letters) if ch not in alphabet and script_of(ch) not in scripts
    ]
    if not out:
        return None
    names = ", ".join(f"{ch!r} ({script_of(ch)})" for ch in out)
    verb = "is" if len(out) == 1 else "are"
    return f"{names} {verb} in no word of {source} (a list written in {'/'.join(sorted(scripts))})"


def base_letter(ch: str) -> str:
    """A letter without its accents: the first code point of its decomposition (NFD).

    Examples
    --------
    >>> base_letter("ó"), base_letter("o"), base_letter("ß"), base_letter("й")
    ('o', 'o', 'ß', 'и')
    """
    return unicodedata.normalize("NFD", ch)[:1] or ch


def accent_twins(letters: Iterable[str]) -> list[tuple[str, ...]]:
    """The groups of distinct letters that share a base letter (``o`` and ``ó``, ``e``, ``é``
    and ``è``): what a generated puzzle leaves out unless asked.

    Parameters
    ----------
    letters : iterable of str
        Letters (repeats count once).

    Returns
    -------
    list of tuple of str
        Each group of two or more letters with one :func:`base_letter`, sorted; empty when
        no two letters are twins.

    Examples
    --------
    >>> accent_twins("oeóéa")
    [('e', 'é'), ('o', 'ó')]
    >>> accent_twins("abc")
    []
    """
    groups: dict[str, set[str]] = {}
    for ch in letters:
        groups.setdefault(base_letter(ch), set()).add(ch)
    return sorted(tuple(sorted(g)) for g in groups.values() if len(g) > 1)


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


def word_flags(words: Sequence[str], alphabet: Alphabet = "any") -> list[bool] | None:
    """Which of ``words`` (already normalised) are words of ``alphabet``: None when all are.

    Parameters
    ----------
    words : sequence of str
    alphabet : {"any", "a-z"}

    Returns
    -------
    list of bool or None
        None when every word is one (:func:`is_word`; one check of the joined words); else
        :func:`is_word` of each.

    Examples
    --------
    >>> word_flags(["été", "chat"]) is None, word_flags(["été", "e-mail", ""])
    (True, [True, False, False])
    >>> word_flags(["a\u030b"]) is None  # a letter and a combining mark: a word
    True
    """
    if not words:
        return None
    joined = "".join(words)
    if all(words):  # no word empty: the joined text's checks are each word's
        if alphabet == "a-z":
            if joined.isascii() and joined.isalpha() and joined.islower():
                return None
        elif joined.isalpha():
            return None
    if alphabet == "a-z":
        flags = [is_word(w, alphabet) for w in words]
    else:
        # Letters only: a word (str.isalpha, in C); the others, with marks or not, one by one.
        flags = list(map(str.isalpha, words))
        for i in compress(range(len(flags)), map(operator.not_, flags)):
            flags[i] = is_word(words[i], alphabet)
    return None if all(flags) else flags  # every word one, some with combining marks


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
