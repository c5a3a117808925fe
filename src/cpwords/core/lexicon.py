"""Loading and normalising word lists: user files, dictionaries and built-in lists.

Two readers with different strictness:

* :func:`read_word_list` reads a *puzzle input* (e.g. the words of a Wordsnake), in any
  alphabet. Every line counts; a malformed line is an error naming its line number and the
  character.
* :func:`load_lexicon` reads a *dictionary* (ENABLE, the Truncate or Letterpress lists, any plain
  list). Entries that are not words of the chosen alphabet are skipped and counted, because
  real dictionaries carry a few (``o'clock``); an empty result is an error.

Every word is normalised the same way (NFC, lower case with the language's rules): see
:mod:`cpwords.core.alphabet`, which decides what a letter is for every puzzle.

The word and letter frequencies (wordfreq's lists, Zipf values, the languages it knows, letter
draws) live in :mod:`cpwords.core.frequencies`; their names are importable from here too.
"""

from __future__ import annotations

import logging
import operator
import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import compress, islice
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING

from cpwords.core.alphabet import (
    Alphabet,
    fold_accents,
    is_word,
    normalize_word,
    normalize_words,
    word_flags,
    word_problem,
)
from cpwords.core.errors import InputError, excerpt
from cpwords.core.files import read_input
from cpwords.core.frequencies import (
    MAX_ZIPF,
    WHOLE_LIST,
    check_lang,
    check_language_code,
    check_zipf_floor,
    draw_letters,
    known_languages,
    letter_frequencies,
    wordfreq_lexicon,
    zipf,
)

#: The module's names, with the frequencies' (:mod:`cpwords.core.frequencies`) re-exported.
__all__ = [
    "MAX_ZIPF",
    "WHOLE_LIST",
    "Lexicon",
    "bad_lines",
    "check_lang",
    "check_language_code",
    "check_zipf_floor",
    "draw_letters",
    "english_words_lexicon",
    "folding_note",
    "known_languages",
    "letter_frequencies",
    "lexicon_from_words",
    "lexicon_letters",
    "load_dictionary",
    "load_lexicon",
    "parse_lexicon_bytes",
    "parse_lexicon_text",
    "parse_word_lines",
    "read_file_bytes",
    "read_word_list",
    "shared_data_dir",
    "sorted_distinct",
    "text_lines",
    "wordfreq_lexicon",
    "zipf",
    "zipf_floor",
]

#: Notes for the user (lines left out of a list); the command line prints them on stderr as
#: ``cpwords: note: ...``.
log = logging.getLogger("cpwords")

if TYPE_CHECKING:
    pass


def read_file_bytes(path: str | os.PathLike[str], what: str = "file") -> bytes:
    """Read a file's bytes, turning every OS failure into one clear :class:`InputError`.

    Parameters
    ----------
    path : path-like
    what : str
        What the file is, for messages (``"dictionary"``, ``"word list"``).

    Raises
    ------
    InputError
        Missing file, a directory, an OS error while reading, a file larger than the machine
        can read or one holding a NUL byte (see :func:`cpwords.core.files.read_input`: the size
        is checked before reading, a NUL byte at the first chunk that holds one).

    Notes
    -----
    The path ``-`` reads standard input.
    """
    return read_input(path, what)


def _decode(data: bytes, path: str | os.PathLike[str], what: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"{what} {path} is not UTF-8 text (bad byte on line {line})") from None


def _read_text(path: str | os.PathLike[str], what: str) -> str:
    """Read a UTF-8 text file, turning every OS or decoding failure into :class:`InputError`."""
    return _decode(read_file_bytes(path, what), path, what)


def text_lines(text: str) -> list[str]:
    r"""The lines of a text file: split at ``\n``, ``\r\n`` and ``\r`` only.

    :meth:`str.splitlines` also splits at U+2028, U+2029, U+0085 and form feeds, which would
    cut a word holding one in two without a word said (issue 34); here such a character stays
    in its line, and the line is then refused as not a word, with its number.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of str

    Examples
    --------
    >>> text_lines("ab\u2028cd\r\nef\rgh\n")
    ['ab\u2028cd', 'ef', 'gh', '']
    """
    return _LINE_BREAK.split(text)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")

#: A whole text of lines of ``a`` to ``z`` (blank lines and line breaks of any kind between):
#: one regular-expression match reads a plain English list without a step a word.
_PLAIN_LIST = re.compile(r"[a-z\r\n]*")
#: What separates a dictionary line's fields (``word freq score``): spaces and tabs only.
_FIELD_BREAK = re.compile(r"[ \t]+")


def parse_word_lines(
    text: str,
    source: str = "<input>",
    *,
    lang: str | None = None,
    alphabet: Alphabet = "any",
    fold: bool = False,
    skip_invalid: bool = False,
) -> list[str]:
    """Parse puzzle input text: one word per line, blank and ``#`` lines ignored.

    Parameters
    ----------
    text : str
        The whole input.
    source : str
        Name used in error messages.
    lang : str, optional
        ISO 639-1 code of the words' language, for its case rules (``"tr"``: dotted and
        dotless i); see :func:`cpwords.core.alphabet.normalize_word`.
    alphabet : {"any", "a-z"}
        Which letters a word may hold.
    fold : bool
        Fold accents (:func:`cpwords.core.alphabet.fold_accents`).
    skip_invalid : bool
        Leave out the lines that are not words, with a warning on the ``cpwords`` logger
        (:func:`bad_lines`; the command line prints it as ``cpwords: note: ...``).

    Returns
    -------
    list of str
        The words, in NFC and lower case, in input order, duplicates kept (each line is one
        item).

    Raises
    ------
    InputError
        When lines hold anything but letters and combining marks (a digit, punctuation, a
        space inside a word) and not ``skip_invalid``: how many, and where (:func:`bad_lines`);
        or when no word is left.

    Examples
    --------
    >>> parse_word_lines("# demo\\nRun\\n\\nnausea\\nFür\\n")
    ['run', 'nausea', 'für']
    """
    if _PLAIN_LIST.fullmatch(text) is not None:
        # Lines of a to z only (and blank lines): normalised, folded and valid as they stand.
        plain = text.split()
        if plain:
            return plain
    words: list[str] = []
    bad: list[tuple[int, str, str]] = []
    before: list[str] = []  # with fold: each kept word as it was before folding
    for lineno, raw in enumerate(text_lines(text), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word = normalize_word(line, lang)
        folded = fold_accents(word) if fold else word
        if is_word(folded, alphabet):
            words.append(folded)
            if fold:
                before.append(word)
        else:
            bad.append((lineno, line, word_problem(folded, alphabet) or "not a word"))
    if fold and words:
        note = folding_note(before, words)
        if note:
            log.warning("%s: %s", source, note)
    if bad and not skip_invalid:
        raise InputError(
            f"{source}: {bad_lines(bad)} (fix them, or leave them out with --skip-invalid)"
        )
    if bad:
        log.warning("%s: left out %s", source, bad_lines(bad))
    if not words:
        raise InputError(f"{source}: the word list is empty")
    return words


def folding_note(before: Sequence[str], after: Sequence[str], shown: int = 4) -> str | None:
    """What folding accents did to a list, in one line (None when it changed nothing).

    Parameters
    ----------
    before, after : sequence of str
        Each word before and after folding, in the same order.
    shown : int
        How many letter foldings to name, the most frequent first.

    Returns
    -------
    str or None

    Examples
    --------
    >>> folding_note(["été", "ete", "noël"], ["ete", "ete", "noel"])
    'accents folded in 2 of 3 words (é -> e 2, ë -> e 1); 1 now the same as another word'
    """
    letters: Counter[tuple[str, str]] = Counter()
    changed = 0
    for old, new in zip(before, after, strict=True):
        if old != new:
            changed += 1
            letters.update((c, fold_accents(c)) for c in old if fold_accents(c) != c)
    if not changed:
        return None
    top = letters.most_common(shown)
    names = ", ".join(f"{a} -> {b or '(nothing)'} {n:,}" for (a, b), n in top)
    more = "" if len(letters) <= shown else f", {len(letters) - shown:,} more"
    sources: dict[str, set[str]] = {}
    for old, new in zip(before, after, strict=True):
        sources.setdefault(new, set()).add(old)
    merged = sum(len(s) - 1 for s in sources.values() if len(s) > 1)
    tail = f"; {merged:,} now the same as another word" if merged else ""
    return f"accents folded in {changed:,} of {len(after):,} words ({names}{more}){tail}"


def bad_lines(bad: Sequence[tuple[int, str, str]], shown: int = 3) -> str:
    """How many lines are not words, and where: the first ``shown`` with their reasons.

    Parameters
    ----------
    bad : sequence of (int, str, str)
        Each line's number (from 1), its text and what is wrong with it.
    shown : int
        How many to quote (short excerpts).

    Returns
    -------
    str
        One line, such as ``2 lines that are not words: line 3 'it's' (...), line 9 ...``.

    Examples
    --------
    >>> print(bad_lines([(3, "it's", "an apostrophe"), (9, "a1", "a digit"),
    ...                  (12, "b2", "a digit"), (20, "c3", "a digit")], shown=1))
    4 lines that are not words: line 3 "it's" (an apostrophe), and 3 more (lines 9, 12, 20)
    """
    quoted = ", ".join(f"line {n} {excerpt(t)!r} ({why})" for n, t, why in bad[:shown])
    rest = [n for n, _, _ in bad[shown:]]
    more = ""
    if rest:
        where = ", ".join(f"{n}" for n in rest[:5]) + (", ..." if len(rest) > 5 else "")
        more = f", and {len(rest)} more (line{'s' if len(rest) > 1 else ''} {where})"
    lines = "line that is not a word" if len(bad) == 1 else "lines that are not words"
    return f"{len(bad)} {lines}: {quoted}{more}"


def read_word_list(
    path: str | os.PathLike[str],
    *,
    lang: str | None = None,
    alphabet: Alphabet = "any",
    fold: bool = False,
    skip_invalid: bool = False,
) -> list[str]:
    """Read a puzzle word list from a file (see :func:`parse_word_lines` for the format).

    Parameters
    ----------
    path : path-like
        UTF-8 text (a byte-order mark is accepted); ``-`` reads standard input.
    lang : str, optional
        The words' language, for its case rules.
    alphabet : {"any", "a-z"}
    fold : bool
        Fold accents.
    skip_invalid : bool
        Leave out the lines that are not words (with a warning) instead of refusing the list.

    Returns
    -------
    list of str

    Raises
    ------
    InputError
        Missing file, directory, unreadable or non-UTF-8 file, lines that are not words
        (unless ``skip_invalid``), empty list.
    """
    text = _read_text(path, "word list")
    return parse_word_lines(
        text, str(path), lang=lang, alphabet=alphabet, fold=fold, skip_invalid=skip_invalid
    )


@dataclass(frozen=True)
class Lexicon:
    """A dictionary: distinct normalised words (see :mod:`cpwords.core.alphabet`), sorted.

    Attributes
    ----------
    words : tuple of str
        Sorted distinct words.
    source : str
        Where the words came from (a path or a built-in name).
    skipped : int
        Entries dropped because they were not words of the reader's alphabet.
    """

    words: tuple[str, ...]
    source: str
    skipped: int = 0

    def __len__(self) -> int:
        return len(self.words)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self.as_set()

    def as_set(self) -> frozenset[str]:
        """The words as a frozenset (computed once)."""
        cached = self.__dict__.get("_set")
        if cached is None:
            cached = frozenset(self.words)
            object.__setattr__(self, "_set", cached)
        return cached


def sorted_distinct(words: Iterable[str]) -> list[str]:
    """``sorted(set(words))``, sorted in the given order: a file's runs of words already in
    order make the sort a merge (the French list: 0.1 s less than sorting a set's scrambled
    order); repeats (equal neighbours once sorted, compared in C without a hash) are dropped
    only when there are any.

    Parameters
    ----------
    words : iterable of str

    Returns
    -------
    list of str
        The distinct words in code point order (``sorted(set(words))``).

    Examples
    --------
    >>> sorted_distinct(["b", "a", "b"]), sorted_distinct(["été", "ete"])
    (['a', 'b'], ['ete', 'été'])
    """
    out = sorted(words)
    if any(map(operator.eq, out, islice(out, 1, None))):
        out = list(dict.fromkeys(out))
    return out


def lexicon_from_words(
    words: Iterable[str],
    source: str = "<words>",
    *,
    lang: str | None = None,
    alphabet: Alphabet = "a-z",
    fold: bool = False,
) -> Lexicon:
    """Build a :class:`Lexicon` from an iterable of words (normalised like :func:`load_lexicon`).

    Parameters
    ----------
    words : iterable of str
    source : str
        Name for messages and reports.
    lang : str, optional
        The words' language, for its case rules (see :mod:`cpwords.core.alphabet`).
    alphabet : {"a-z", "any"}
        Which words are kept; the others are counted in ``skipped``.
    fold : bool
        Fold accents (:func:`cpwords.core.alphabet.fold_accents`); words that become equal
        are kept once.

    Returns
    -------
    Lexicon

    Raises
    ------
    InputError
        When no valid word is left.
    """
    # Whole lists at a time: one normalisation and one check of the joined words
    # (cpwords.core.alphabet), not four calls a word.
    normed = normalize_words(list(filter(None, map(str.strip, words))), lang)
    if fold:  # a word of accents alone folds to nothing: left out, as a blank line
        normed = list(filter(None, map(fold_accents, normed)))
    flags = word_flags(normed, alphabet)
    skipped = 0
    if flags is not None:
        normed = list(compress(normed, flags))
        skipped = len(flags) - len(normed)
    kept = tuple(sorted_distinct(normed))
    if not kept:
        letters = "a-z words" if alphabet == "a-z" else "words"
        raise InputError(f"{source}: the lexicon has no {letters}")
    return Lexicon(kept, source, skipped)


def parse_lexicon_text(
    text: str,
    source: str = "<text>",
    *,
    lang: str | None = None,
    alphabet: Alphabet = "a-z",
    fold: bool = False,
) -> Lexicon:
    """Parse dictionary text: plain lists or the Truncate format.

    Lines end at ``\\n``, ``\\r\\n`` or ``\\r`` only (:func:`text_lines`). The first field of each
    line (up to a space or a tab) is the word; further fields (the Truncate dictionary's ``word
    freq score``) are ignored, and ``*`` marks are stripped. Blank lines and
    lines starting with ``#`` are skipped; entries that are not words are left out, counted in
    ``Lexicon.skipped`` and named in a warning on the ``cpwords`` logger (:func:`bad_lines`).

    Raises
    ------
    InputError
        When no valid word is left.
    """
    if _PLAIN_LIST.fullmatch(text) is not None:
        # Lines of a to z only (and blank lines): normalised, folded and valid as they stand.
        plain = text.split()
        if plain:
            return Lexicon(tuple(sorted_distinct(plain)), source, 0)
    numbered = [
        (lineno, line)
        for lineno, line in enumerate(map(str.strip, text_lines(text)), start=1)
        if line and not line.startswith("#")
    ]
    linenos = [n for n, _ in numbered]
    if " " in text or "\t" in text:
        # Fields are split on spaces and tabs only: str.split() would also cut at a U+2028,
        # a no-break space..., keeping a word's first part silently.
        entries = [_FIELD_BREAK.split(line, maxsplit=1)[0].replace("*", "") for _, line in numbered]
    else:
        entries = [line.replace("*", "") for _, line in numbered]
    lex = lexicon_from_words(entries, source, lang=lang, alphabet=alphabet, fold=fold)
    if lex.skipped:
        bad = []
        for n, entry in zip(linenos, entries, strict=True):
            w = normalize_word(entry.strip(), lang, fold)
            if w and not is_word(w, alphabet):
                bad.append((n, entry, word_problem(w, alphabet) or "not a word"))
        log.warning("%s: left out %s", source, bad_lines(bad))
    return lex


def load_lexicon(
    path: str | os.PathLike[str],
    *,
    lang: str | None = None,
    alphabet: Alphabet = "a-z",
    fold: bool = False,
) -> Lexicon:
    """Load a dictionary file (plain list or Truncate ``word freq score`` format).

    Parameters
    ----------
    path : path-like
        The dictionary file, UTF-8.
    lang : str, optional
        The words' language, for its case rules.
    alphabet : {"a-z", "any"}
        Which words are kept (the others are counted in ``Lexicon.skipped``).
    fold : bool
        Fold accents (see :func:`lexicon_from_words`).

    Returns
    -------
    Lexicon

    Raises
    ------
    InputError
        Missing, unreadable, non-UTF-8 or empty file.
    """
    return parse_lexicon_text(
        _read_text(path, "dictionary"), str(path), lang=lang, alphabet=alphabet, fold=fold
    )


def parse_lexicon_bytes(
    data: bytes,
    path: str | os.PathLike[str],
    *,
    lang: str | None = None,
    alphabet: Alphabet = "a-z",
    fold: bool = False,
) -> Lexicon:
    """:func:`load_lexicon` on bytes already read from ``path`` (read once, e.g. to hash them).

    Raises
    ------
    InputError
        Non-UTF-8 or empty dictionary.
    """
    return parse_lexicon_text(
        _decode(data, path, "dictionary"), str(path), lang=lang, alphabet=alphabet, fold=fold
    )


def load_dictionary(
    path: str | os.PathLike[str], lang: str | None = None, fold: bool = False
) -> Lexicon:
    """A user's ``--dict`` file: every puzzle reads it in any alphabet (see
    :mod:`cpwords.core.alphabet`), with the language's case rules and optional accent folding.

    Raises
    ------
    InputError
        Missing, unreadable, non-UTF-8 or empty file.
    """
    return load_lexicon(path, lang=lang, alphabet="any", fold=fold)


def lexicon_letters(words: Iterable[str]) -> frozenset[str]:
    """Every letter of ``words`` (the lexicon's alphabet)."""
    out: set[str] = set()
    for w in words:
        out.update(w)
    return frozenset(out)


def shared_data_dir() -> Path | None:
    """Locate the project's real-data folder ``shared/data``, or None when absent.

    ``$CPWORDS_DATA`` wins when it is set: the folder it names, or None when it names no
    folder (``CPWORDS_DATA=none`` hides the shared data, as on a fresh machine; CI runs the
    tests once that way). Otherwise ``../shared/data`` is looked for beside the current
    directory and beside the source checkout.

    Returns
    -------
    pathlib.Path or None
    """
    env = os.environ.get("CPWORDS_DATA")
    if env:
        return Path(env) if Path(env).is_dir() else None
    here = Path(__file__).resolve()
    candidates = [Path.cwd().parent / "shared" / "data"]
    candidates += [p / "shared" / "data" for p in here.parents]
    for c in candidates:
        if c.is_dir():
            return c
    return None


def english_words_lexicon(source: str = "web2", proper: bool = False) -> Lexicon:
    """A word list packaged by the ``english-words`` PyPI package, lower-case a-z only.

    Parameters
    ----------
    source : {"web2", "gcide"}
        ``web2`` is Webster's 2nd International (1934), the ``/usr/share/dict/words`` of macOS
        and the BSDs; ``gcide`` is the GNU Collaborative International Dictionary of English.
    proper : bool
        Keep the capitalised entries (proper nouns: web2's 25,202 such as Iraq, Utah, John),
        lower-cased. Off by default: only the entries written in lower case are words.

    Returns
    -------
    Lexicon
        Named ``english-words:<source>`` (``... with proper nouns`` when ``proper``).

    Raises
    ------
    InputError
        When ``source`` is not a list the package ships.

    References
    ----------
    M. Alves, *english-words* (PyPI), ``get_english_words_set``.
    """
    from english_words import get_english_words_set

    try:
        words = get_english_words_set([source], alpha=True, lower=False)
    except ValueError:
        raise InputError(f"english-words ships no word list named {source!r}") from None
    kept: Iterable[str] = words
    if not proper:  # a list, not a set: lexicon_from_words drops repeats (none here) once
        nonempty = list(filter(None, words))
        capital = map(str.isupper, map(itemgetter(0), nonempty))
        kept = list(compress(nonempty, map(operator.not_, capital)))
    name = f"english-words:{source}" + (" with proper nouns" if proper else "")
    return lexicon_from_words(kept, name)


def zipf_floor(lexicon: Lexicon, lang: str = "en", min_zipf: float = 0.0) -> Lexicon:
    """The words of ``lexicon`` with a wordfreq Zipf frequency of at least ``min_zipf``.

    Parameters
    ----------
    lexicon : Lexicon
    lang : str
        The language whose frequencies are read (:func:`zipf`).
    min_zipf : float
        From 0 (every word: ``lexicon`` itself) to :data:`MAX_ZIPF`.

    Returns
    -------
    Lexicon
        Named ``"<source>, Zipf >= <min_zipf>"``.

    Raises
    ------
    InputError
        A bad floor (:func:`check_zipf_floor`).

    Examples
    --------
    >>> lex = zipf_floor(Lexicon(("cat", "highbrow", "the"), "demo"), "en", 4)
    >>> lex.words, lex.source
    (('cat', 'the'), 'demo, Zipf >= 4')
    """
    z = check_zipf_floor(min_zipf)
    if z == 0:
        return lexicon
    kept = tuple(w for w in lexicon.words if zipf(w, lang) >= z)
    return Lexicon(kept, f"{lexicon.source}, Zipf >= {z:g}", lexicon.skipped)
