"""Answer-first draws: boxes dealt from two common words, so that a player knows the answer.

A generated box's answer is drawn from the language's *common* words (wordfreq Zipf frequency
at least a floor, :data:`ANSWER_ZIPF`): two such words chained (the second starts with the last
letter of the first) that hold exactly the box's letters between them are picked at random, and
their letters are dealt onto the sides so that both words are playable. Everything else about
the box (its proven optimum, its counts, the uniqueness of its answer) is then decided by the
whole dictionary, not by the common words: :mod:`cpwords.letterboxed.models.design`.

A box never holds a letter and its accented twin (``o`` and ``ó``, compared by
:func:`cpwords.core.alphabet.base_letter`) unless asked.

The floors were measured on the default dictionaries (``docs/reports/letterboxed-generate.md``):
the Zipf frequency of the 20,000th most frequent word of 3+ letters of the language's
dictionary (English 3.08, French 3.18, German 3.31, Spanish 2.47), rounded down to a quarter and
never below 3 (once per million words of running text).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise

import numpy as np

from cpwords.core.alphabet import accent_twins
from cpwords.core.lexicon import MAX_ZIPF, check_zipf_floor, zipf
from cpwords.letterboxed.rules import LetterBox

__all__ = [
    "ANSWER_ZIPF",
    "MAX_ZIPF",
    "OTHER_ANSWER_ZIPF",
    "CommonPairs",
    "answer_floor",
    "deal_sides",
]

#: The default floor of a generated box's answer words (wordfreq Zipf frequency), by language.
ANSWER_ZIPF: dict[str, float] = {"en": 3.0, "fr": 3.0, "de": 3.25, "es": 3.0}

#: The floor of the other languages wordfreq has a list for (once per million words); a
#: language without one has no floor (0: no frequencies to read).
OTHER_ANSWER_ZIPF = 3.0


def answer_floor(lang: str = "en", min_zipf: float | None = None) -> float:
    """The Zipf floor of a generated box's answer words.

    Parameters
    ----------
    lang : str
        ISO 639 code.
    min_zipf : float, optional
        The caller's floor, from 0 (no floor) to :data:`MAX_ZIPF`; None: the language's
        default (:data:`ANSWER_ZIPF`, else :data:`OTHER_ANSWER_ZIPF` for a language wordfreq
        has a list for, else 0).

    Returns
    -------
    float

    Raises
    ------
    InputError
        ``min_zipf`` not a number from 0 to :data:`MAX_ZIPF`.

    Examples
    --------
    >>> answer_floor("de"), answer_floor("it"), answer_floor("xx"), answer_floor("en", 0)
    (3.25, 3.0, 0.0, 0.0)
    """
    if min_zipf is not None:
        return check_zipf_floor(min_zipf)
    if lang in ANSWER_ZIPF:
        return ANSWER_ZIPF[lang]
    from cpwords.core.languages import language_scripts

    return OTHER_ANSWER_ZIPF if language_scripts(lang) is not None else 0.0


def deal_sides(
    words: Sequence[str], shape: tuple[int, int], rng: np.random.Generator
) -> LetterBox | None:
    """Deal the letters of ``words`` onto ``k`` sides of ``m`` so that every word is playable
    (no two letters in a row from one side), at random; None when no deal exists.

    Examples
    --------
    >>> box = deal_sides(["bechfag", "gjdkil"], (4, 3), np.random.default_rng(0))
    >>> from cpwords.letterboxed.rules import is_valid_letterboxed
    >>> is_valid_letterboxed(box, ["bechfag", "gjdkil"])
    True
    """
    k, m = shape
    letters = sorted({ch for w in words for ch in w})
    if len(letters) != k * m:
        return None
    near: dict[str, set[str]] = {ch: set() for ch in letters}
    for w in words:
        for a, b in pairwise(w):
            near[a].add(b)
            near[b].add(a)
    order = [letters[i] for i in rng.permutation(len(letters))]
    order.sort(key=lambda ch: -len(near[ch]))  # the most constrained first (a stable sort)
    sides: list[list[str]] = [[] for _ in range(k)]

    def place(i: int) -> bool:
        if i == len(order):
            return True
        ch = order[i]
        for s in rng.permutation(k):
            side = sides[int(s)]
            if len(side) < m and not near[ch].intersection(side):
                side.append(ch)
                if place(i + 1):
                    return True
                side.pop()
        return False

    if not place(0):
        return None
    return LetterBox(tuple(sorted("".join(sorted(s)) for s in sides)))


class CommonPairs:
    """The common words a box's answer is drawn from, by first letter.

    Parameters
    ----------
    words : iterable of str
        The dictionary (only its words of 3+ letters, no letter twice in a row, fewer than
        ``n`` distinct letters, Zipf >= ``floor`` and, unless ``accent_twins``, no letter with
        its accented twin are kept).
    lang : str
        The language of the Zipf frequencies.
    floor : float
        The Zipf floor.
    n : int
        The box's letters.
    accent_twins : bool
        Allow a letter and its accented twin in one box.

    Examples
    --------
    >>> pairs = CommonPairs(["stone", "earth", "hello"], "en", 3.0, 8)
    >>> [w for w, _ in pairs.words]  # hello: a letter twice in a row
    ['earth', 'stone']
    >>> rng = np.random.default_rng(1)
    >>> box = next(b for b in (pairs.draw(rng, (4, 2)) for _ in range(50)) if b is not None)
    >>> sorted(box.letters)
    ['a', 'e', 'h', 'n', 'o', 'r', 's', 't']
    """

    def __init__(
        self, words: Iterable[str], lang: str, floor: float, n: int, accent_twins: bool = False
    ) -> None:
        self.n = n
        self.twins_ok = accent_twins
        self.words: list[tuple[str, frozenset[str]]] = []
        self.by_first: dict[str, list[tuple[str, frozenset[str]]]] = {}
        for w in sorted(set(words)):
            letters = frozenset(w)
            if len(w) < 3 or len(letters) >= n or any(a == b for a, b in pairwise(w)):
                continue
            if not self._twins_free(letters) or zipf(w, lang) < floor:
                continue
            self.words.append((w, letters))
            self.by_first.setdefault(w[0], []).append((w, letters))

    def _twins_free(self, letters: frozenset[str]) -> bool:
        return self.twins_ok or not accent_twins(letters)

    def draw(self, rng: np.random.Generator, shape: tuple[int, int]) -> LetterBox | None:
        """A box dealt from a random chained pair of common words holding exactly its letters
        (None: the first word drawn has no partner, or no deal makes both playable)."""
        if not self.words:
            return None
        w1, s1 = self.words[int(rng.integers(len(self.words)))]
        partners = [
            w2
            for w2, s2 in self.by_first.get(w1[-1], ())
            if len(s1 | s2) == self.n and self._twins_free(s1 | s2)
        ]
        if not partners:
            return None
        w2 = partners[int(rng.integers(len(partners)))]
        return deal_sides([w1, w2], shape, rng)
