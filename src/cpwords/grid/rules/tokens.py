"""The grid's tokens: every word of a lexicon cut once into a prefix and a suffix, and the
instance tables of the study suites (a board and its tokens)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cpwords.core.alphabet import is_letter, normalize_word
from cpwords.core.errors import InputError, excerpt
from cpwords.core.sources import resolve_path
from cpwords.grid.rules.boards import Board, default_board, load_board

_AZ_TOKEN = re.compile(r"[a-z]+")

#: Accepted ranges of the cutting options (letters).
SUFFIX_LENGTH_RANGE = (1, 8)
MIN_PREFIX_RANGE = (1, 8)

DEFAULT_TOP = 10000
DEFAULT_SUFFIX_LENGTH = 2
DEFAULT_MIN_PREFIX = 2


def is_token(tok: str) -> bool:
    """Whether ``tok`` is a token: one or more letters of any script
    (:mod:`cpwords.core.alphabet`).

    Parameters
    ----------
    tok : str
        A normalised token.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_token("er"), is_token("é"), is_token(""), is_token("e-r")
    (True, True, False, False)
    """
    if _AZ_TOKEN.fullmatch(tok):
        return True
    return bool(tok) and all(is_letter(ch) for ch in tok)


@dataclass(frozen=True)
class GridTokens:
    """The words of a lexicon, each cut once into a (prefix, suffix) pair.

    Attributes
    ----------
    words : tuple of str
        The lexicon after filtering (plural forms dropped when asked), most frequent first
        when it came from wordfreq.
    pairs : tuple of (str, str)
        ``(prefix, suffix)`` of every word long enough to be cut, sorted; distinct words give
        distinct pairs because the cut is fixed.
    suffix_length, min_prefix : int
        The cutting rule (letters).
    source : str
        Where the words came from.
    lang : str
        The words' language (ISO 639-1), for their Zipf frequencies in a difficulty.
    """

    words: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    suffix_length: int
    min_prefix: int
    source: str = "<words>"
    lang: str = "en"

    @property
    def prefixes(self) -> tuple[str, ...]:
        """Distinct prefix tokens, sorted."""
        return tuple(sorted({p for p, _ in self.pairs}))

    @property
    def suffixes(self) -> tuple[str, ...]:
        """Distinct suffix tokens, sorted."""
        return tuple(sorted({s for _, s in self.pairs}))


def validate_cut_options(suffix_length: int, min_prefix: int) -> None:
    """Raise :class:`InputError` unless both cutting options are in their ranges."""
    lo, hi = SUFFIX_LENGTH_RANGE
    if not lo <= suffix_length <= hi:
        raise InputError(f"the suffix length must be in {lo}..{hi}, got {suffix_length}")
    lo, hi = MIN_PREFIX_RANGE
    if not lo <= min_prefix <= hi:
        raise InputError(f"the minimal prefix length must be in {lo}..{hi}, got {min_prefix}")


def drop_plurals(words: Iterable[str]) -> list[str]:
    """Drop every word ``w`` ending in ``s`` whose ``w[:-1]`` is also in the list (the seed's
    rule, for English; other languages keep their words).

    Order is kept and duplicates are removed.

    Examples
    --------
    >>> drop_plurals(["cat", "cats", "bus", "is", "i"])
    ['cat', 'bus', 'i']
    """
    uniq = list(dict.fromkeys(words))
    present = set(uniq)
    return [w for w in uniq if not (w.endswith("s") and w[:-1] in present)]


def cut_words(
    words: Iterable[str],
    suffix_length: int = DEFAULT_SUFFIX_LENGTH,
    min_prefix: int = DEFAULT_MIN_PREFIX,
    source: str = "<words>",
    plurals: bool = False,
    lang: str = "en",
    fold: bool = False,
) -> GridTokens:
    """Cut every word once: suffix = last ``suffix_length`` letters, prefix = the rest.

    Parameters
    ----------
    words : iterable of str
        Words of letters of any script, in any case (normalised: NFC, lower case with the
        rules of ``lang``, see :mod:`cpwords.core.alphabet`); others raise.
    suffix_length : int
        Letters of a suffix token (1..8).
    min_prefix : int
        Minimal letters of a prefix token (1..8); shorter words are not cut.
    source : str
        Name for messages.
    plurals : bool
        Keep plural forms; by default English plurals are dropped with :func:`drop_plurals`
        (other languages keep every word: the rule is English).
    lang : str
        ISO 639-1 code of the words.
    fold : bool
        Fold accents (words that become equal are kept once).

    Returns
    -------
    GridTokens

    Raises
    ------
    InputError
        Options out of range, an entry that is not a word, or no word long enough.

    Examples
    --------
    >>> t = cut_words(["hello", "jello", "cats", "cat"], 2, 2)
    >>> t.pairs
    (('hel', 'lo'), ('jel', 'lo'))
    """
    validate_cut_options(suffix_length, min_prefix)
    ws = list(dict.fromkeys(normalize_word(w, lang, fold) for w in words))
    for w in ws:
        if not is_token(w):
            raise InputError(f"{source}: {excerpt(w)!r} is not a word (letters only)")
    if not plurals and lang == "en":
        ws = drop_plurals(ws)
    pairs = sorted(
        {
            (w[:-suffix_length], w[-suffix_length:])
            for w in ws
            if len(w) >= suffix_length + min_prefix
        }
    )
    if not pairs:
        raise InputError(
            f"{source}: the lexicon is empty (no word has at least "
            f"{suffix_length + min_prefix} letters)"
        )
    return GridTokens(tuple(ws), tuple(pairs), suffix_length, min_prefix, source, lang)


def common_tokens(
    top: int = DEFAULT_TOP,
    suffix_length: int = DEFAULT_SUFFIX_LENGTH,
    min_prefix: int = DEFAULT_MIN_PREFIX,
    plurals: bool = False,
    lang: str = "en",
    fold: bool = False,
    proper: bool = False,
) -> GridTokens:
    """Tokens of the ``top`` most common words of ``lang``'s dictionary
    (:func:`cpwords.core.languages.language_words`): what ``cpwords grid --top --lang`` reads.

    The dictionary says what is a word and wordfreq's Zipf values only rank them: English
    takes ``wamerican`` (Webster's 2nd, ``web2``, where it is not installed), another language
    its curated dictionary (``cpwords lexicons``), proper nouns left out unless ``proper``; a
    language without one keeps wordfreq's words of its main scripts. Plural forms are dropped
    (see :func:`drop_plurals`) unless ``plurals``.

    Parameters
    ----------
    top : int
        How many of the most common words.
    suffix_length, min_prefix : int
        The cut of each word: its last ``suffix_length`` letters are the suffix token, the
        rest (at least ``min_prefix`` letters) the prefix token.
    plurals : bool
        Keep plural forms.
    lang : str
        ISO 639-1 code.
    fold : bool
        Fold accents.
    proper : bool
        Keep the dictionary's proper nouns.

    Returns
    -------
    GridTokens
        Named after the list read (``wamerican top 500``).

    Raises
    ------
    InputError
        ``top`` not positive, cutting options out of range, no word long enough, unknown
        language, or its dictionary not installed (with the command that installs it).

    Examples
    --------
    >>> tokens = common_tokens(500)
    >>> tokens.source.split()[1:3]
    ['top', '500']
    """
    from cpwords.core.languages import language_source, language_words

    validate_cut_options(suffix_length, min_prefix)
    words = language_words(lang, top, fold, proper)
    name = language_source(lang, top, fold, proper)
    return cut_words(words, suffix_length, min_prefix, name, plurals, lang)


def board_and_tokens(spec: Mapping[str, Any], base_dir: Path) -> tuple[Board, GridTokens]:
    """The board and the tokens of one instance table (a study suite's ``[[instances]]``).

    Parameters
    ----------
    spec : mapping
        ``top`` (int, the most frequent words kept), and optionally ``board`` (a board file,
        relative to ``base_dir``), ``suffix_length``, ``min_prefix``, ``plurals``, ``lang`` and
        ``fold`` (as :func:`common_tokens` takes them).
    base_dir : Path
        The folder relative paths are read from.

    Returns
    -------
    (Board, GridTokens)

    Raises
    ------
    InputError
        Without an integer ``top``, or with a board file that cannot be read.
    """
    if "top" not in spec or not isinstance(spec["top"], int):
        raise InputError("a grid instance needs an integer 'top' (most frequent words)")
    keys = ("suffix_length", "min_prefix", "plurals", "lang", "fold")
    kwargs = {k: spec[k] for k in keys if k in spec}
    tokens = common_tokens(int(spec["top"]), **kwargs)
    if "board" in spec:
        return load_board(resolve_path(str(spec["board"]), base_dir)), tokens
    return default_board(), tokens
