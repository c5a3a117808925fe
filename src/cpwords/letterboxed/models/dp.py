"""Letter Boxed, exact: proven fewest words then fewest letters, and exact solution counts.

The method is a dynamic programme over the states (letters still needed, current letter), after
compressing the playable words into *word classes* (first letter, last letter, letter set): every
word of a class acts the same on the state, so a class keeps its shortest length (for the
optimum) and its number of words (for counting). With ``n`` box letters there are ``n * 2**n``
states (12 * 4096 for the newspaper's box). The tables are filled layer by layer (one layer per
word), vectorised with numpy, and the search stops at the first layer that covers the box, so the
answer is proven optimal by the exhaustive table itself (no solver status is involved). See
``models/letterboxed.md`` for the formulation card.

The lexicon is indexed once by letter set (:class:`LetterBoxedSolver`), so one loaded word list
serves many boxes: the playable words of a box are found by looking up the ``2**n`` subsets of its
letters and filtering those words by the side rule.

One room per part: the word classes and the superset transforms
(:mod:`~cpwords.letterboxed.models.classes`), the fewest-words DP
(:mod:`~cpwords.letterboxed.models.fewest`), the exact counts
(:mod:`~cpwords.letterboxed.models.counting`); this module holds the built-in lexicons and the
indexed solver, and re-exports the others' names.

References
----------
B. Mattessich (writeasync), "Letter Boxed: an algorithmic solution", 2019 (the seed; its
two-word pair search is ported in :mod:`cpwords.letterboxed.heuristics`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from functools import lru_cache

from cpwords.core.errors import InputError
from cpwords.core.languages import language_lexicon
from cpwords.core.lexicon import Lexicon, lexicon_from_words
from cpwords.core.result import SolveResult
from cpwords.letterboxed.models.classes import (
    BoxLike,
    WordClasses,
    as_box,
    build_classes,
    superset_min,
    superset_sum,
)
from cpwords.letterboxed.models.counting import (
    CountStopped,
    LetterBoxedCount,
    count_classes,
    count_tables,
)
from cpwords.letterboxed.models.fewest import fewest_from, fewest_words, solve_classes

#: The names of the module, with the word classes (:mod:`~cpwords.letterboxed.models.classes`), the
#: fewest-words DP (:mod:`~cpwords.letterboxed.models.fewest`) and the counting
#: (:mod:`~cpwords.letterboxed.models.counting`) re-exported.
__all__ = [
    "DEFAULT_LEXICON_SIZE",
    "BoxLike",
    "CountStopped",
    "LetterBoxedCount",
    "LetterBoxedSolver",
    "WordClasses",
    "as_box",
    "build_classes",
    "builtin_lexicon",
    "count_classes",
    "count_letterboxed",
    "count_tables",
    "default_lexicon",
    "fewest_from",
    "fewest_words",
    "solve_classes",
    "superset_min",
    "superset_sum",
    "whole_lexicon",
]

#: How many of a language's most common dictionary words form the built-in lexicon.
DEFAULT_LEXICON_SIZE = 100_000

_REPEAT = re.compile(r"(.)\1")


@lru_cache(maxsize=6)
def builtin_lexicon(
    lang: str = "en",
    fold: bool = False,
    proper: bool = False,
    size: int | None = DEFAULT_LEXICON_SIZE,
) -> Lexicon:
    """A language's built-in lexicon: its ``size`` most common words, or its whole dictionary.

    English takes the ``size`` most common a-z words of ``wamerican``, or of Webster's 2nd
    (``web2``) where ``wamerican`` is not installed, proper nouns left out unless ``proper``
    (:func:`cpwords.core.dictionaries.english_common_words`; the lexicon's name says which).
    A language with a curated dictionary (``wfrench``, ...) gives its ``size`` most common
    words, proper nouns left out unless ``proper``; the others keep wordfreq's words of their
    main scripts (see :func:`cpwords.core.languages.language_lexicon`). With ``size=None`` the
    cut is dropped: every a-z word of the English dictionary, all of a curated dictionary
    (``wfrench``: 341,727 words); a wordfreq language keeps its ``DEFAULT_LEXICON_SIZE`` most
    frequent entries even then (the rarer ones are not words). The last six lexicons asked
    for are cached (``builtin_lexicon.cache_clear()`` forgets them).

    Parameters
    ----------
    lang : str
        ISO 639-1 code.
    fold : bool
        Fold accents.
    proper : bool
        Keep a dictionary's proper nouns.
    size : int or None
        How many of the most common words (default :data:`DEFAULT_LEXICON_SIZE`); None for the
        whole dictionary.

    Returns
    -------
    Lexicon

    Raises
    ------
    InputError
        Unknown language, or its dictionary not installed (with the command that installs it).

    References
    ----------
    R. Speer, *wordfreq* (PyPI), Zipf frequencies (ranking only).
    """
    from cpwords.core.languages import curated_language
    from cpwords.core.lexicon import WHOLE_LIST

    if lang == "en":
        from cpwords.core.dictionaries import english_common_words

        words, name = english_common_words(size, proper)
        return lexicon_from_words(words, name + (", accents folded" if fold else ""), fold=fold)
    if size is None and not curated_language(lang):
        return builtin_lexicon(lang, fold, proper, DEFAULT_LEXICON_SIZE)
    return language_lexicon(lang, WHOLE_LIST if size is None else size, fold, proper)


def default_lexicon(lang: str = "en", fold: bool = False, proper: bool = False) -> Lexicon:
    """The built-in lexicon: the 100,000 most common words of ``lang``.

    :func:`builtin_lexicon` with its default ``size`` (:data:`DEFAULT_LEXICON_SIZE`), cached
    there.

    Parameters
    ----------
    lang : str
        ISO 639-1 code.
    fold : bool
        Fold accents.
    proper : bool
        Keep a dictionary's proper nouns.

    Returns
    -------
    Lexicon

    Raises
    ------
    InputError
        Unknown language, or its dictionary not installed (with the command that installs it).
    """
    return builtin_lexicon(lang, fold, proper, DEFAULT_LEXICON_SIZE)


def whole_lexicon(lang: str = "en", fold: bool = False, proper: bool = False) -> Lexicon:
    """The language's whole dictionary: what a generated box's uniqueness is proven against.

    :func:`builtin_lexicon` with ``size=None`` (cached there): :func:`default_lexicon` without
    its cut at the 100,000 most common words: English, every a-z word of ``wamerican`` (or
    ``web2``); a language with a curated dictionary, all of it (``wfrench``: 341,727 words);
    the others, :func:`default_lexicon` itself (wordfreq's list, whose rarer entries are not
    words).

    Parameters
    ----------
    lang : str
        ISO 639-1 code.
    fold : bool
        Fold accents.
    proper : bool
        Keep a dictionary's proper nouns.

    Returns
    -------
    Lexicon

    Raises
    ------
    InputError
        Unknown language, or its dictionary not installed (with the command that installs it).
    """
    return builtin_lexicon(lang, fold, proper, None)


class LetterBoxedSolver:
    """A lexicon indexed once by letter set, solving any number of boxes.

    Parameters
    ----------
    lexicon : Lexicon or iterable of str, optional
        The word list; None uses :func:`default_lexicon`. Words shorter than 3 letters are
        ignored; plain iterables are normalised and read in any alphabet.

    Raises
    ------
    InputError
        When no word of at least 3 letters is left.

    Examples
    --------
    >>> solver = LetterBoxedSolver(["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"])
    >>> [solver.solve(box).solution for box in ("abc-def-ghi-jkl", "acb-def-ghi-jlk")]
    [['bechfag', 'gjdkil'], ['bechfag', 'gjdkil']]
    >>> solver.solve("abe-dcf-ghi-jkl").status.value
    'INFEASIBLE'
    """

    def __init__(self, lexicon: Lexicon | Iterable[str] | None = None) -> None:
        if lexicon is None:
            lexicon = default_lexicon()
        if not isinstance(lexicon, Lexicon):
            lexicon = lexicon_from_words(lexicon, "<words>", alphabet="any")
        self.lexicon = lexicon
        by_set: dict[int, list[str]] = {}
        # one bit per letter of the lexicon: a-z keep their bits (ord - 97), others follow
        bit = {chr(97 + i): 1 << i for i in range(26)}
        for w in lexicon.words:
            if len(w) < 3:
                continue
            key = 0
            for ch in set(w):
                b = bit.get(ch)
                if b is None:
                    b = bit[ch] = 1 << len(bit)
                key |= b
            by_set.setdefault(key, []).append(w)
        if not by_set:
            raise InputError(f"{lexicon.source}: the lexicon has no word of 3 or more letters")
        self._by_set = by_set
        self._bit = bit
        self.size = sum(len(v) for v in by_set.values())

    @property
    def source(self) -> str:
        """Where the lexicon came from."""
        return self.lexicon.source

    @property
    def letters(self) -> frozenset[str]:
        """Every letter of the indexed words (of 3 or more letters)."""
        cached = self.__dict__.get("_letters")
        if cached is None:
            union = 0
            for key in self._by_set:
                union |= key
            cached = frozenset(ch for ch, b in self._bit.items() if b & union)
            self.__dict__["_letters"] = cached
        return cached

    def playable(self, box: BoxLike) -> list[tuple[str, int]]:
        """The playable words of ``box`` with their letter masks (bit i = ``box.letters[i]``).

        Returns
        -------
        list of (str, int)
            Words in lexicon order within each letter set.

        Notes
        -----
        Looks up the ``2**n`` subsets of the box letters in the letter-set index, then drops
        the words that take two consecutive letters from one side: O(2**n + matching words).
        """
        box = as_box(box)
        # a letter of no word gets a bit of its own, which no word's key holds
        spare = 1 << len(self._bit)
        bits = []
        for ch in box.letters:
            b = self._bit.get(ch)
            if b is None:
                b, spare = spare, spare << 1
            bits.append(b)
        subset26 = [0] * (1 << box.n)
        for i, b in enumerate(bits):
            step = 1 << i
            for m in range(step):
                subset26[m | step] = subset26[m] | b
        side_code = str.maketrans({ch: chr(48 + s) for ch, s in box.side_of.items()})
        out: list[tuple[str, int]] = []
        get = self._by_set.get
        for m, key in enumerate(subset26):
            ws = get(key)
            if ws is None:
                continue
            for w in ws:
                if _REPEAT.search(w.translate(side_code)) is None:
                    out.append((w, m))
        return out

    def playable_words(self, box: BoxLike) -> list[str]:
        """The playable words of ``box``, sorted."""
        return sorted(w for w, _ in self.playable(box))

    def classes(self, box: BoxLike) -> WordClasses:
        """The playable words of ``box`` compressed to :class:`WordClasses`."""
        box = as_box(box)
        return build_classes(box, self.playable(box))

    def solve(self, box: BoxLike, all_solutions: bool = False) -> SolveResult:
        """Proven fewest words, then fewest letters, by the layered dynamic programme.

        The ``dp`` method of :func:`cpwords.letterboxed.spec.solve_letterboxed`, which also
        re-checks the answer with the independent checker.

        Parameters
        ----------
        box : LetterBox, str or sequence of str
            The box (``"abc-def-ghi-jkl"`` or four sides).
        all_solutions : bool
            Also list every optimal solution in ``solver_info["optimal_solutions"]``.

        Returns
        -------
        SolveResult
            ``sense="min"``; ``status`` OPTIMAL (proven by the exhaustive table) or INFEASIBLE
            (no chain covers the box); ``solution`` the list of words; ``objective = bound =
            1000 * words + letters``; ``solver_info`` holds ``words``, ``letters``,
            ``playable_words``, ``word_classes``, ``lexicon`` and, with ``all_solutions``,
            ``optimal_solutions`` and ``n_optimal``. ``wall_time`` (s) excludes indexing the
            lexicon. Ctrl-C during the search returns what is known, with
            ``solver_info["interrupted"]``: UNKNOWN with ``bound = 1000 * min_words`` (the
            fewest words proven so far) before the optimum is known; with ``all_solutions``,
            the optimal solutions listed so far.

        Raises
        ------
        InputError
            Malformed box.

        Notes
        -----
        Layered dynamic programme over (letters still needed, current letter) on word classes
        (see the module docstring and ``models/letterboxed.md``): O(k * C * 2**n) for an optimum
        of k words and C classes, with the two-word layer done by a superset-minimum transform
        in O(n**2 * 2**n).

        References
        ----------
        B. Mattessich (writeasync), "Letter Boxed: an algorithmic solution", 2019.
        """
        t0 = time.perf_counter()
        box = as_box(box)
        classes = self.classes(box)
        return solve_classes(classes, all_solutions, t0, self)

    def solve_from(
        self,
        box: BoxLike,
        used: str = "",
        first: str | None = None,
        all_solutions: bool = False,
    ) -> SolveResult:
        """Proven fewest more words, then fewest letters, that finish a box from a position.

        The position is what plays leave: the letters already used and the letter the next
        word starts with (:func:`cpwords.letterboxed.spec.continue_box` reads it from the
        plays and checks them).

        Parameters
        ----------
        box : LetterBox, str or sequence of str
        used : str
            The box letters already used (any order; letters off the box are refused).
        first : str, optional
            The letter the next word must start with (the last letter of the last play);
            None: any letter.
        all_solutions : bool
            Also list every fewest-word finish in ``solver_info["optimal_solutions"]``.

        Returns
        -------
        SolveResult
            As :meth:`solve`, for the finish alone: ``solution`` the words still to play
            (``[]`` when ``used`` covers the box), ``objective = bound = 1000 * words +
            letters`` of those words; INFEASIBLE, with ``solver_info["reason"]``, when no
            chain finishes the box (proven by the exhaustive table).

        Raises
        ------
        InputError
            Malformed box, or a letter of ``used`` or ``first`` off the box.

        Examples
        --------
        >>> solver = LetterBoxedSolver(["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"])
        >>> r = solver.solve_from("abc-def-ghi-jkl", used="abde", first="d")
        >>> r.status.value, r.solution, r.objective
        ('OPTIMAL', ['dhl', 'lcfgjik'], 2010.0)
        """
        t0 = time.perf_counter()
        box = as_box(box)
        index = {ch: i for i, ch in enumerate(box.letters)}
        off = sorted({ch for ch in used if ch not in index})
        if first is not None and first not in index:
            off.append(first)
        if off:
            raise InputError(f"{', '.join(map(repr, off))} not in the box {box}")
        mask = 0
        for ch in used:
            mask |= 1 << index[ch]
        start = None if first is None else index[first]
        return solve_classes(self.classes(box), all_solutions, t0, self, mask, start)

    def count(
        self, box: BoxLike, max_words: int = 3, list_limit: int | None = 0
    ) -> LetterBoxedCount:
        """Count (and list) every solution of at most ``max_words`` words.

        See :func:`count_letterboxed`.
        """
        t0 = time.perf_counter()
        box = as_box(box)
        classes = self.classes(box)
        return count_classes(classes, max_words, list_limit, t0)


def count_letterboxed(
    box: BoxLike,
    lexicon: Lexicon | Iterable[str] | LetterBoxedSolver | None = None,
    max_words: int = 3,
    list_limit: int | None = 0,
) -> LetterBoxedCount:
    """Count, and optionally list, every solution with at most ``max_words`` words.

    Parameters
    ----------
    box : LetterBox, str or sequence of str
    lexicon : Lexicon, iterable of str, LetterBoxedSolver or None
        As in :meth:`LetterBoxedSolver.solve`.
    max_words : int
        K >= 1.
    list_limit : int or None
        How many solutions to list (fewest words first); 0 lists none, None lists all.

    Returns
    -------
    LetterBoxedCount
        Exact counts per word count (Python integers, no overflow) and the listed solutions.

    Notes
    -----
    A solution is a chain of playable words covering the box whose last word is the first to
    complete the cover (the game ends as soon as every letter is used); a word may be played
    again, as the rules allow. Cost O(K * C * 2**n) for C word classes.

    Examples
    --------
    >>> words = ["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]
    >>> c = count_letterboxed("abc-def-ghi-jkl", words, max_words=3, list_limit=None)
    >>> c.by_words, c.solutions
    ((0, 1, 1), (('bechfag', 'gjdkil'), ('bead', 'dhl', 'lcfgjik')))
    """
    solver = lexicon if isinstance(lexicon, LetterBoxedSolver) else LetterBoxedSolver(lexicon)
    return solver.count(box, max_words=max_words, list_limit=list_limit)
