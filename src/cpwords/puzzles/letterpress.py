"""Letterpress: which dictionary words a bag of letters can spell, and an independent checker.

In Letterpress (Loren Brichter, 2012) two players share a 5x5 board of letters and take turns
spelling words with its tiles, each tile used at most once per word. The seed question
(S. H. Eskildsen, "Letterpress Cheater Algorithm", 2013) is the core of a solver: *given about 25
letters (a multiset), find every dictionary word that uses each letter no more often than it
appears*.

Ordering used by cpwords: by length, then alphabetically (shortest first unless asked otherwise).

No solver and no index code here: :func:`can_spell` and :func:`letterpress_problems` recount
letters with :class:`collections.Counter`, sharing nothing with :mod:`cpwords.models.letterpress`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence

from ..errors import CheckError, InputError

_LETTERS = re.compile(r"[a-z]+")


def parse_letters(letters: str) -> str:
    """Normalise a bag of letters: strip, lower-case, and require a-z only.

    Raises
    ------
    InputError
        When the bag is empty or holds anything but the letters a-z.

    Examples
    --------
    >>> parse_letters(" OvrK ")
    'ovrk'
    """
    bag = letters.strip().lower()
    if not bag:
        raise InputError("the bag of letters is empty")
    if not _LETTERS.fullmatch(bag):
        bad = sorted({ch for ch in bag if not ("a" <= ch <= "z")})
        raise InputError(f"letters must be a-z only; got {''.join(bad)!r} in {letters!r}")
    return bag


def can_spell(word: str, letters: str) -> bool:
    """True when ``word`` uses each letter no more often than ``letters`` holds it.

    Examples
    --------
    >>> can_spell("error", "ovrkqlwislrecrtgmvpfprzey"), can_spell("moon", "mon")
    (True, False)
    """
    need = Counter(word)
    have = Counter(letters)
    return all(have[ch] >= k for ch, k in need.items())


def sort_key(word: str) -> tuple[int, str]:
    """The order of every listing: by length, then alphabetically."""
    return (len(word), word)


def letterpress_problems(
    words: Sequence[str],
    letters: str,
    dictionary: Collection[str],
    min_length: int = 1,
    longest_first: bool = False,
) -> list[str]:
    """Everything wrong with a claimed listing (empty when it is sound).

    Sound means: every word is in the dictionary, spellable from ``letters``, at least
    ``min_length`` long, listed once, in the documented order. Completeness is a separate check
    (compare with a naive scan), done by the tests and the benchmark.
    """
    problems: list[str] = []
    seen: set[str] = set()
    for w in words:
        if w in seen:
            problems.append(f"{w!r} is listed twice")
        seen.add(w)
        if w not in dictionary:
            problems.append(f"{w!r} is not in the dictionary")
        if not can_spell(w, letters):
            problems.append(f"{w!r} cannot be spelled from {letters!r}")
        if len(w) < min_length:
            problems.append(f"{w!r} is shorter than {min_length}")
    keys = [(-len(w), w) for w in words] if longest_first else [sort_key(w) for w in words]
    if keys != sorted(keys):
        problems.append("the words are not in the documented order")
    return problems


def check_letterpress_words(
    words: Sequence[str],
    letters: str,
    dictionary: Collection[str],
    min_length: int = 1,
    longest_first: bool = False,
) -> None:
    """Raise :class:`~cpwords.errors.CheckError` unless :func:`letterpress_problems` is empty."""
    problems = letterpress_problems(words, letters, dictionary, min_length, longest_first)
    if problems:
        raise CheckError("invalid Letterpress listing: " + "; ".join(problems[:5]))
