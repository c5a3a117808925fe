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

References
----------
B. Mattessich (writeasync), "Letter Boxed: an algorithmic solution", 2019 (the seed; its
two-word pair search is ported in :mod:`cpwords.letterboxed.heuristics`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cpwords.core.errors import CheckError, InputError
from cpwords.core.languages import language_lexicon
from cpwords.core.lexicon import Lexicon, lexicon_from_words
from cpwords.core.result import SolveResult, Status
from cpwords.letterboxed.rules import WORD_WEIGHT, LetterBox, parse_box

#: How many of a language's most common dictionary words form the built-in lexicon.
DEFAULT_LEXICON_SIZE = 100_000

_INF = np.int32(1 << 29)
_REPEAT = re.compile(r"(.)\1")
_INT64_SAFE = float(1 << 62)

BoxLike = LetterBox | str | Sequence[str]


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


def as_box(box: BoxLike) -> LetterBox:
    """Accept a :class:`LetterBox`, ``"abc-def-ghi-jkl"`` or four side strings."""
    return box if isinstance(box, LetterBox) else parse_box(box)


@dataclass(frozen=True)
class WordClasses:
    """The playable words of one box, compressed to classes (first, last, letter set).

    Attributes
    ----------
    box : LetterBox
    first, last : numpy.ndarray of int64, shape (C,)
        Index (in ``box.letters``) of the first and last letter of the class's words.
    mask : numpy.ndarray of int64, shape (C,)
        Letter set as a bit mask over ``box.letters`` (bit ``i`` is ``box.letters[i]``).
    minlen : numpy.ndarray of int32, shape (C,)
        Length of the shortest word of the class.
    count : numpy.ndarray of int64, shape (C,)
        Number of words in the class.
    words : tuple of tuple of str, length C
        The words of each class, shortest first (ties alphabetical).
    """

    box: LetterBox
    first: NDArray[np.int64]
    last: NDArray[np.int64]
    mask: NDArray[np.int64]
    minlen: NDArray[np.int32]
    count: NDArray[np.int64]
    words: tuple[tuple[str, ...], ...]

    @property
    def n_classes(self) -> int:
        """Number of classes C."""
        return len(self.words)

    @property
    def n_words(self) -> int:
        """Number of playable words."""
        return int(self.count.sum())

    def by_first(self) -> list[NDArray[np.int64]]:
        """For each letter index, the classes whose words start with it."""
        cached = self.__dict__.get("_by_first")
        if cached is None:
            order = np.argsort(self.first, kind="stable")
            cuts = np.searchsorted(self.first[order], np.arange(self.box.n + 1))
            cached = [order[cuts[i] : cuts[i + 1]] for i in range(self.box.n)]
            object.__setattr__(self, "_by_first", cached)
        return cached


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
        return _solve_classes(classes, all_solutions, t0, self)

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
        return _solve_classes(self.classes(box), all_solutions, t0, self, mask, start)

    def count(
        self, box: BoxLike, max_words: int = 3, list_limit: int | None = 0
    ) -> LetterBoxedCount:
        """Count (and list) every solution of at most ``max_words`` words.

        See :func:`count_letterboxed`.
        """
        t0 = time.perf_counter()
        box = as_box(box)
        classes = self.classes(box)
        return _count_classes(classes, max_words, list_limit, t0)


def build_classes(box: LetterBox, playable: Iterable[tuple[str, int]]) -> WordClasses:
    """Group playable words (with their masks) into classes (first, last, letter set)."""
    index = {ch: i for i, ch in enumerate(box.letters)}
    groups: dict[tuple[int, int, int], list[str]] = {}
    for w, m in playable:
        groups.setdefault((index[w[0]], index[w[-1]], m), []).append(w)
    keys = list(groups)
    words = tuple(tuple(sorted(groups[k], key=lambda w: (len(w), w))) for k in keys)
    arr = np.array(keys, dtype=np.int64).reshape(-1, 3)
    return WordClasses(
        box=box,
        first=arr[:, 0].copy(),
        last=arr[:, 1].copy(),
        mask=arr[:, 2].copy(),
        minlen=np.array([len(ws[0]) for ws in words], dtype=np.int32),
        count=np.array([len(ws) for ws in words], dtype=np.int64),
        words=words,
    )


# --------------------------------------------------------------------------- fewest words


def _superset_min(table: NDArray[Any], n: int) -> None:
    """In place: ``table[..., r] = min over masks m >= r (superset) of table[..., m]``."""
    lead = table.shape[:-1]
    for b in range(n):
        v = table.reshape((*lead, -1, 2, 1 << b))
        np.minimum(v[..., 0, :], v[..., 1, :], out=v[..., 0, :])


def _superset_sum(table: NDArray[Any], n: int) -> None:
    """In place: ``table[..., r] = sum over masks m >= r (superset) of table[..., m]``."""
    lead = table.shape[:-1]
    for b in range(n):
        v = table.reshape((*lead, -1, 2, 1 << b))
        v[..., 0, :] += v[..., 1, :]


def _undominated(c: WordClasses) -> NDArray[np.int64]:
    """Indices of the classes not dominated within their (first, last) pair.

    Class B is dominated when another class with the same first and last letters covers a
    strict superset of B's letters with a word no longer than B's shortest word: swapping it in
    keeps any chain valid, covers at least as much and costs no more letters, so the minimum of
    the tables is unchanged (it is NOT used for enumeration or counting).
    """
    n = c.box.n
    size = 1 << n
    pair = c.first * n + c.last
    best = np.full((n * n, size), _INF, dtype=np.int32)
    np.minimum.at(best, (pair, c.mask), c.minlen)
    _superset_min(best, n)
    strict = np.full(c.n_classes, _INF, dtype=np.int32)
    for b in range(n):
        bit = np.int64(1 << b)
        has = (c.mask & bit) != 0
        cand = best[pair, c.mask | bit]
        strict = np.where(has, strict, np.minimum(strict, cand))
    return np.flatnonzero(strict > c.minlen)


def _layer_min(
    prev: NDArray[np.int32], c: WordClasses, idx: NDArray[np.int64]
) -> NDArray[np.int32]:
    """One more word in front: ``min(prev, min_B len_B + prev[last_B, r & ~mask_B])``."""
    n = c.box.n
    size = 1 << n
    rr = np.arange(size, dtype=np.int64)
    out = prev.copy()
    first = c.first[idx]
    order = np.argsort(first, kind="stable")
    idx = idx[order]
    cuts = np.searchsorted(first[order], np.arange(n + 1))
    chunk = max(1, (1 << 22) // size)
    for f in range(n):
        group = idx[cuts[f] : cuts[f + 1]]
        for s in range(0, len(group), chunk):
            g = group[s : s + chunk]
            rest = rr[None, :] & ~c.mask[g][:, None]
            vals = prev[c.last[g][:, None], rest] + c.minlen[g][:, None]
            np.minimum(out[f], vals.min(axis=0), out=out[f])
    np.minimum(out, _INF, out=out)
    return out


def fewest_words(
    c: WordClasses, floor: list[int] | None = None
) -> tuple[int, int, list[NDArray[np.int32]]] | None:
    """Proven lexicographic minimum (words, letters) over all solutions, or None if none.

    :func:`fewest_from` from the start of the game (no letter used, any first letter).
    ``floor``, when given, holds in ``floor[0]`` the fewest words a solution can have as far
    as the layers have gone (a proven lower bound, for a search stopped by Ctrl-C).

    Returns
    -------
    (k, letters, T) or None
        ``T[j]`` for ``j < k``, shape (n, 2**n): ``T[j][l, r]`` is the fewest letters of a chain
        of at most j words starting with letter l whose letters include the set r
        (``T[0][l, 0] = 0``, else infinite); needed to rebuild or enumerate the optimal chains.

    Notes
    -----
    ``best_k = min_B len_B + T[k-1][last_B, full & ~mask_B]``; the first k with a finite
    ``best_k`` is the fewest words, and ``best_k`` the fewest letters among chains of k words
    (a chain of fewer words would have made an earlier layer finite). The layers stop without a
    solution when the set of finite entries of ``T`` stops growing (a fixpoint: no longer chain
    can cover anything new), which proves that the box has no solution.
    """
    return fewest_from(c, 0, None, floor)


def fewest_from(
    c: WordClasses, used: int, first: int | None, floor: list[int] | None = None
) -> tuple[int, int, list[NDArray[np.int32]]] | None:
    """Proven fewest more words, then fewest letters, that finish the box from a position.

    A position is what a player's plays leave: the letters already used and the letter the
    next word must start with (the last letter of the last play).

    Parameters
    ----------
    c : WordClasses
        The box's playable words, in classes.
    used : int
        The letters already used, as a mask over ``c.box.letters`` (0 at the start).
    first : int or None
        Index in ``c.box.letters`` of the letter the next word starts with; None: any letter
        (no word played yet).
    floor : list of int, optional
        ``floor[0]`` is kept at the fewest more words a finish can have as far as the layers
        have gone (a proven lower bound, for a search stopped by Ctrl-C).

    Returns
    -------
    (k, letters, T) or None
        ``k`` more words of ``letters`` letters in all, lexicographically fewest; ``(0, 0,
        [T[0]])`` when ``used`` covers the box already. ``T[j]`` for ``j < k`` as in
        :func:`fewest_words`. None when no chain finishes the box (proven).

    Notes
    -----
    The layers of :func:`fewest_words`, read at one state: with ``need = full & ~used`` and
    ``B`` over the classes starting with ``first``, ``best_k = min_B len_B + T[k-1][last_B,
    need & ~mask_B]``; the first finite ``best_k`` gives the fewest words and letters. No
    finish exists when some needed letter is in no playable word, when no playable word
    starts with ``first``, or when the finite entries of ``T`` reach a fixpoint (nothing new
    is coverable by longer chains). O(k * C * 2**n), as a solve.
    """
    n = c.box.n
    size = 1 << n
    full = size - 1
    need = full & ~used
    t0 = np.full((n, size), _INF, dtype=np.int32)
    t0[:, 0] = 0
    tables = [t0]
    if need == 0:
        return 0, 0, tables
    cands = np.arange(c.n_classes) if first is None else c.by_first()[first]
    if cands.size == 0 or need & ~int(np.bitwise_or.reduce(c.mask)):
        return None  # no word starts there, or some needed letter is in no playable word
    rest = need & ~c.mask[cands]
    kept: NDArray[np.int64] | None = None
    k = 1
    while True:
        if floor is not None:
            floor[0] = k  # no finish of fewer than k words
        prev = tables[-1]
        lo = int((prev[c.last[cands], rest] + c.minlen[cands]).min())
        if lo < _INF:
            return k, lo, tables
        if k == 1:
            nxt = np.full((n, size), _INF, dtype=np.int32)
            np.minimum.at(nxt, (c.first, c.mask), c.minlen)
            _superset_min(nxt, n)
            np.minimum(nxt, t0, out=nxt)
        else:
            if kept is None:
                kept = _undominated(c)
            nxt = _layer_min(prev, c, kept)
        if np.array_equal(nxt < _INF, prev < _INF):
            return None  # fixpoint: nothing new is coverable, so the letters left never will be
        tables.append(nxt)
        k += 1


def _optimal_chains(
    c: WordClasses,
    k: int,
    letters: int,
    tables: list[NDArray[np.int32]],
    limit: int | None,
    out: list[list[str]] | None = None,
    used: int = 0,
    first: int | None = None,
) -> list[list[str]]:
    """Every chain of ``k`` words and ``letters`` letters covering the box (at most ``limit``),
    appended to ``out`` (a new list by default; given, it keeps the chains found so far when
    the search is interrupted). From a position (:func:`fewest_from`): the chains that cover
    the letters not in ``used``, starting with letter ``first`` (None: any); ``k = 0`` is the
    empty chain.

    Depth-first over (current letter, letters still needed, words left, letters left); a branch
    is entered only when the table's lower bound fits the budget, and the bound is exact, so
    every branch entered ends in a solution (output-sensitive enumeration).
    """
    full = (1 << c.box.n) - 1
    by_first = c.by_first()
    if out is None:
        out = []
    stack: list[str] = []

    def rec(cands: NDArray[np.int64], r: int, j: int, budget: int) -> bool:
        below = tables[j - 1]
        for b in cands.tolist():
            r2 = r & ~int(c.mask[b])
            last = int(c.last[b])
            rest = int(below[last, r2])
            for w in c.words[b]:
                if len(w) + rest > budget:
                    break
                stack.append(w)
                if j == 1:
                    if r2 == 0 and len(w) == budget:
                        out.append(list(stack))
                elif r2 != 0 and rec(by_first[last], r2, j - 1, budget - len(w)):
                    return True
                stack.pop()
                if limit is not None and len(out) >= limit:
                    return True
        return False

    if k == 0:
        out.append([])
        return out
    cands = np.arange(c.n_classes) if first is None else by_first[first]
    rec(cands, full & ~used, k, letters)
    return out


def _no_finish_reason(c: WordClasses, used: int, first: int | None) -> str:
    """Why no chain finishes the box from a position (:func:`fewest_from` returned None)."""
    if c.n_classes == 0:
        return "no playable word"
    if used == 0 and first is None:
        return "exhaustive search: no chain of playable words covers the box"
    letters = c.box.letters
    if first is not None and c.by_first()[first].size == 0:
        return f"no playable word starts with {letters[first]!r}"
    start = "" if first is None else f" starting with {letters[first]!r}"
    return f"exhaustive search: no chain of playable words{start} uses every letter left"


def _solve_classes(
    c: WordClasses,
    all_solutions: bool,
    t0: float,
    solver: LetterBoxedSolver | None,
    used: int = 0,
    first: int | None = None,
) -> SolveResult:
    info: dict[str, Any] = {
        "box": str(c.box),
        "playable_words": c.n_words,
        "word_classes": c.n_classes,
    }
    if solver is not None:
        info["lexicon"] = solver.source
        info["lexicon_size"] = len(solver.lexicon)
        info["lexicon_size_3plus"] = solver.size
    full = (1 << c.box.n) - 1
    floor = [0 if used == full else 1]
    try:
        found = fewest_from(c, used, first, floor)
    except KeyboardInterrupt:  # Ctrl-C: no answer yet, but a proven fewest number of words
        info |= {"interrupted": True, "min_words": floor[0]}
        return SolveResult(
            Status.UNKNOWN,
            None,
            float(WORD_WEIGHT * floor[0]),
            time.perf_counter() - t0,
            None,
            "dp",
            sense="min",
            solver_info=info,
        )
    if found is None:
        info["reason"] = _no_finish_reason(c, used, first)
        return SolveResult(
            status=Status.INFEASIBLE,
            objective=None,
            bound=None,
            wall_time=time.perf_counter() - t0,
            solution=None,
            method="dp",
            sense="min",
            solver_info=info,
        )
    k, letters, tables = found
    if letters >= WORD_WEIGHT:
        raise CheckError(f"{letters} letters exceed the word weight {WORD_WEIGHT}")
    objective = float(WORD_WEIGHT * k + letters)
    chains: list[list[str]] = []
    try:
        limit = None if all_solutions else 1
        _optimal_chains(c, k, letters, tables, limit, chains, used, first)
    except KeyboardInterrupt:  # Ctrl-C: the optimum is proven; the listing may be partial
        info["interrupted"] = True
    info["words"] = k
    info["letters"] = letters
    if not chains:
        return SolveResult(
            Status.UNKNOWN,
            None,
            objective,
            time.perf_counter() - t0,
            None,
            "dp",
            sense="min",
            solver_info=info,
        )
    if all_solutions:
        info["optimal_solutions"] = chains
        info["n_optimal"] = len(chains)
    return SolveResult(
        status=Status.OPTIMAL,
        objective=objective,
        bound=objective,
        wall_time=time.perf_counter() - t0,
        solution=chains[0],
        method="dp",
        sense="min",
        solver_info=info,
    )


# --------------------------------------------------------------------------- counting


@dataclass(frozen=True)
class LetterBoxedCount:
    """Exact number of solutions with at most ``max_words`` words.

    A solution is a chain of playable words (a word may be played again) covering the box,
    whose last word is the first to complete the cover (the game ends there).

    Attributes
    ----------
    box : LetterBox
    max_words : int
    by_words : tuple of int, length max_words
        ``by_words[j - 1]`` solutions of exactly j words.
    playable_words : int
    wall_time : float
        Seconds.
    solutions : tuple of tuple of str
        Listed solutions (fewest words first), at most the requested limit.
    """

    box: LetterBox
    max_words: int
    by_words: tuple[int, ...]
    playable_words: int
    wall_time: float
    solutions: tuple[tuple[str, ...], ...] = ()

    @property
    def total(self) -> int:
        """All solutions of at most ``max_words`` words."""
        return sum(self.by_words)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly row."""
        return {
            "box": str(self.box),
            "max_words": self.max_words,
            "counts": {str(j + 1): c for j, c in enumerate(self.by_words)},
            "count_total": self.total,
            "playable_words": self.playable_words,
            "wall_time": self.wall_time,
            "solutions": [list(s) for s in self.solutions],
        }


class CountStopped(Exception):
    """A count passed its deadline (:func:`count_tables`); nothing of it is kept."""


def _check_deadline(deadline: float | None) -> None:
    """Raise :class:`CountStopped` once ``time.perf_counter()`` has passed ``deadline``."""
    if deadline is not None and time.perf_counter() >= deadline:
        raise CountStopped


def _count_layer(prev: NDArray[Any], c: WordClasses, deadline: float | None) -> NDArray[Any]:
    """``N[f, r] = sum_B count_B * prev[last_B, r & ~mask_B]`` (r != 0), column 0 kept 0;
    the deadline is read between chunks of classes."""
    n = c.box.n
    size = 1 << n
    rr = np.arange(size, dtype=np.int64)
    # int64 unless the float estimate says it could overflow; then exact Python integers.
    est = np.zeros((n, size), dtype=np.float64)
    by_first = c.by_first()
    prev_f = prev.astype(np.float64)
    chunk = max(1, (1 << 22) // size)
    for f in range(n):
        group = by_first[f]
        for s in range(0, len(group), chunk):
            _check_deadline(deadline)
            g = group[s : s + chunk]
            rest = rr[None, :] & ~c.mask[g][:, None]
            est[f] += (prev_f[c.last[g][:, None], rest] * c.count[g][:, None]).sum(axis=0)
    dtype: Any = np.int64 if est.max() < _INT64_SAFE and prev.dtype != object else object
    src = prev.astype(dtype)
    out = np.zeros((n, size), dtype=dtype)
    for f in range(n):
        group = by_first[f]
        for s in range(0, len(group), chunk):
            _check_deadline(deadline)
            g = group[s : s + chunk]
            rest = rr[None, :] & ~c.mask[g][:, None]
            out[f] += (src[c.last[g][:, None], rest] * c.count[g].astype(dtype)[:, None]).sum(
                axis=0
            )
    out[:, 0] = 0
    return out


def count_tables(
    c: WordClasses, max_words: int, deadline: float | None = None
) -> tuple[list[int], list[NDArray[Any]]]:
    """Exact counts of solutions with exactly j words, j = 1..max_words.

    Parameters
    ----------
    c : WordClasses
        The box's playable words, grouped by (first letter, last letter, letters covered).
    max_words : int
        Count solutions of up to this many words.
    deadline : float, optional
        A ``time.perf_counter()`` instant: past it, :class:`CountStopped` is raised (a box of
        16 letters on one side takes a minute to count to three words).

    Returns
    -------
    (by_words, N)
        ``N[j][l, r]`` (j >= 1, r != 0) counts chains of exactly j words starting with letter l
        that cover r, completed by their last word and not before; ``N[j][:, 0] = 0``.

    Notes
    -----
    ``N[1]`` is a superset-sum transform of the class counts; ``N[j] = sum_B count_B *
    N[j-1][last_B, r & ~mask_B]`` where ``r & ~mask_B != 0`` (the cover must not be complete
    before the last word). The number of j-word solutions is ``sum_B count_B *
    N[j-1][last_B, full & ~mask_B]``. Exact integers: int64 while a float estimate stays
    below 2**62, Python integers beyond.
    """
    n = c.box.n
    size = 1 << n
    full = size - 1
    if max_words < 1:
        raise InputError(f"max_words must be at least 1, got {max_words}")
    by_words = [int(c.count[c.mask == full].sum())]
    tables: list[NDArray[Any]] = [np.zeros((n, size), dtype=np.int64)]
    if max_words == 1 or c.n_classes == 0:
        return by_words + [0] * (max_words - 1), tables
    n1 = np.zeros((n, size), dtype=np.int64)
    np.add.at(n1, (c.first, c.mask), c.count)
    _superset_sum(n1, n)
    n1[:, 0] = 0
    tables.append(n1)
    rest_all = full & ~c.mask
    for j in range(2, max_words + 1):
        prev = tables[j - 1]
        top = prev[c.last, rest_all]
        if prev.dtype == object:
            by_words.append(int(sum(int(a) * int(b) for a, b in zip(top, c.count, strict=True))))
        else:
            by_words.append(int(sum(int(x) for x in (top.astype(object) * c.count.astype(object)))))
        if j < max_words:
            tables.append(_count_layer(prev, c, deadline))
    return by_words, tables


def _list_solutions(
    c: WordClasses, max_words: int, tables: list[NDArray[Any]], limit: int | None
) -> list[tuple[str, ...]]:
    """Solutions of at most ``max_words`` words, fewest words first (at most ``limit``)."""
    full = (1 << c.box.n) - 1
    by_first = c.by_first()
    out: list[tuple[str, ...]] = []
    stack: list[str] = []

    def rec(cands: NDArray[np.int64], r: int, j: int) -> bool:
        for b in cands.tolist():
            r2 = r & ~int(c.mask[b])
            last = int(c.last[b])
            if j == 1:
                if r2 != 0:
                    continue
            elif r2 == 0 or tables[j - 1][last, r2] == 0:
                continue
            for w in c.words[b]:
                stack.append(w)
                if j == 1:
                    out.append(tuple(stack))
                elif rec(by_first[last], r2, j - 1):
                    return True
                stack.pop()
                if limit is not None and len(out) >= limit:
                    return True
        return False

    for j in range(1, max_words + 1):
        if rec(np.arange(c.n_classes), full, j):
            break
    return out


def _count_classes(
    c: WordClasses, max_words: int, list_limit: int | None, t0: float
) -> LetterBoxedCount:
    by_words, tables = count_tables(c, max_words)
    listed: list[tuple[str, ...]] = []
    if list_limit is None or list_limit > 0:
        listed = _list_solutions(c, max_words, tables, list_limit)
    return LetterBoxedCount(
        box=c.box,
        max_words=max_words,
        by_words=tuple(by_words),
        playable_words=c.n_words,
        wall_time=time.perf_counter() - t0,
        solutions=tuple(listed),
    )


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
