"""Wordsnake: the rules, the overlap graph, the scorer and an independent checker.

Order all given words to maximise the sum, over consecutive pairs, of the squared maximal
suffix-prefix overlap (Shasha, "Wordsnakes", Dr Dobb's Journal, July 2000). In the *cyclic*
variant the pair last -> first counts too (the scoring of J. Burkardt's ``wordsnake`` program).

No solver is imported here. The overlap graph built by :func:`overlap_graph` feeds the models;
the checker (:func:`snake_score`, :func:`check_snake`) recomputes everything from the strings
with its own naive comparison, sharing no code with the graph builder or the models.
"""

from __future__ import annotations

import operator
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from cpwords.core.alphabet import is_word, normalize_word, normalize_words, word_flags, word_problem
from cpwords.core.codepoints import ordering_overlaps, overlap_of
from cpwords.core.errors import InputError, excerpt

#: What a joint of overlap ``k`` scores: ``"squared"``, ``k ** 2`` (Shasha's Wordsnake, the
#: default), or ``"linear"``, ``k`` (the sum of overlaps: the shortest common superstring's
#: objective, see ``models/superstring.md``).
SCORES = ("squared", "linear")

_Weighable = TypeVar("_Weighable", int, np.ndarray)


def joint_weight(k: _Weighable, score: str = "squared") -> _Weighable:
    """The score of a joint of overlap ``k``: ``k ** 2`` or, with ``score="linear"``, ``k``.

    Parameters
    ----------
    k : int or numpy.ndarray of int
        Overlap lengths (>= 0).
    score : {"squared", "linear"}
        The instance's score (:data:`SCORES`).

    Returns
    -------
    int or numpy.ndarray
        The same shape as ``k``.

    Examples
    --------
    >>> joint_weight(3), joint_weight(3, "linear")
    (9, 3)
    """
    return k if score == "linear" else k * k


#: Letters ``a`` to ``z`` and line feeds only. With no empty line (no line feed first, last or
#: twice in a row) they are words of ``a`` to ``z``, one a line: normalised and valid as they
#: stand. One repeated class, without the group ``[a-z]+(?:\n[a-z]+)*``, whose repetition keeps
#: a state per word (20 MB at the peak for ENABLE's 172,823 words).
_PLAIN = re.compile(r"[a-z\n]+")


def _plain_lower_case(words: Sequence[object]) -> bool:
    """Whether every word is a string of ``a`` to ``z`` (one regular-expression match over the
    joined list instead of a normalisation and a check a word)."""
    try:
        joined = "\n".join(words)  # type: ignore[arg-type]
    except TypeError:  # not every word is a string
        return False
    return (
        _PLAIN.fullmatch(joined) is not None
        and joined[0] != "\n"
        and joined[-1] != "\n"
        and "\n\n" not in joined
    )


@dataclass(frozen=True)
class WordsnakeInstance:
    """A Wordsnake instance.

    Parameters
    ----------
    words : sequence of str
        The items: words in any alphabet and any case, normalised as on the command line
        (NFC, lower case; see :mod:`cpwords.core.alphabet`); a repeated word is two items.
        One string is refused, not split into letters.
    cyclic : bool
        Whether the pair last -> first also scores.
    proper : bool
        Restrict overlaps to ``k < min(len(a), len(b))`` (default: ``k <= min``).
    name : str
        A label for reports.
    score : {"squared", "linear"}
        What a joint of overlap ``k`` scores: ``k ** 2`` (the default, Shasha's) or ``k``
        (:func:`joint_weight`).

    Raises
    ------
    InputError
        When ``words`` is one string, is empty, or holds something that is not a word (a
        digit, punctuation, a space: see :func:`cpwords.core.alphabet.word_problem`); an
        unknown ``score``.
    """

    words: tuple[str, ...]
    cyclic: bool = False
    proper: bool = False
    name: str = "wordsnake"
    score: str = "squared"

    def __post_init__(self) -> None:
        if isinstance(self.words, str):
            raise InputError(
                f"give the words as a sequence, e.g. ({self.words[:20]!r},), not one string"
            )
        if not self.words:
            raise InputError("a Wordsnake needs at least one word")
        if self.score not in SCORES:
            raise InputError(f"score must be one of {', '.join(SCORES)}, not {self.score!r}")
        if _plain_lower_case(self.words):
            object.__setattr__(self, "words", tuple(self.words))
            return  # already normalised words of a to z: nothing to change or refuse
        if set(map(type, self.words)) == {str}:
            # One normalisation and one check of the joined words (a French list: 0.1 s less).
            words = tuple(normalize_words(self.words))  # the same words when already so
            object.__setattr__(self, "words", words)
            if word_flags(words) is None:
                return
        else:
            words = tuple(normalize_word(w) if isinstance(w, str) else w for w in self.words)
            object.__setattr__(self, "words", words)
        for w in self.words:
            if not isinstance(w, str):
                raise InputError(f"{excerpt(str(w))!r} is not a word (a string)")
            if not is_word(w):
                raise InputError(f"{excerpt(w)!r} is not a word: {word_problem(w)}")

    @property
    def n(self) -> int:
        """Number of items."""
        return len(self.words)

    def weight(self, k: _Weighable) -> _Weighable:
        """The score of a joint of overlap ``k`` (:func:`joint_weight` of :attr:`score`)."""
        return joint_weight(k, self.score)

    def duplicates(self) -> dict[str, int]:
        """Words listed more than once, with their multiplicity."""
        return {w: c for w, c in Counter(self.words).items() if c > 1}


@dataclass(frozen=True)
class OverlapGraph:
    """The overlap digraph restricted to its positive-overlap arcs.

    Attributes
    ----------
    n : int
        Number of nodes (items of the instance, in input order).
    tail, head : numpy.ndarray of int32, shape (m,)
        Arc endpoints; no self-loops.
    overlap : numpy.ndarray of int32, shape (m,)
        Maximal suffix-prefix overlap of each arc, >= 1.
    weight : numpy.ndarray of int64, shape (m,)
        The score of the arc: ``overlap ** 2`` (``overlap`` with ``score="linear"``).
    """

    n: int
    tail: np.ndarray
    head: np.ndarray
    overlap: np.ndarray
    weight: np.ndarray = field(repr=False)

    @property
    def m(self) -> int:
        """Number of positive arcs."""
        return int(self.tail.shape[0])


def overlap_graph(
    words: Sequence[str], proper: bool = False, min_overlap: int = 1, score: str = "squared"
) -> OverlapGraph:
    """Build the positive-overlap arcs of the overlap digraph.

    Parameters
    ----------
    words : sequence of str
        The n items.
    proper : bool
        Restrict overlaps to ``k < min(len(a), len(b))``.
    min_overlap : int
        Keep only arcs whose maximal overlap is at least this (the letter-hub models need
        only overlaps >= 2, which are far fewer).
    score : {"squared", "linear"}
        The arcs' weight (:func:`joint_weight`).

    Returns
    -------
    OverlapGraph
        Only arcs with overlap >= ``min_overlap`` (>= 1), so the formulations grow with the
        number of positive arcs rather than with n^2.

    Raises
    ------
    InputError
        Words so long and so many that neither way below fits (more than
        :data:`PAIRWISE_LETTERS` letters to compare pair by pair).

    Notes
    -----
    Every prefix of every word is indexed once; each suffix of each word is then looked up,
    and the largest matching length per ordered pair is kept. The cost is
    O(sum of word lengths + number of (suffix, prefix) matches) lookups, but the index holds
    every prefix as a string: sum over the words of ``len(w)^2 / 2`` characters. Beyond
    :data:`PREFIX_INDEX_CHARS` (a list of very long words: three words of 200,000 letters would
    need 40 GB) the pairs are compared one by one with the Knuth-Morris-Pratt failure function
    instead, in memory linear in the longest word.

    Examples
    --------
    >>> g = overlap_graph(["run", "nausea", "seasick"])
    >>> sorted(zip(g.tail.tolist(), g.head.tolist(), g.overlap.tolist()))
    [(0, 1, 1), (1, 2, 3)]
    """
    lo = max(1, min_overlap)
    if sum(len(w) * (len(w) + 1) // 2 for w in words) > PREFIX_INDEX_CHARS:
        return _pairwise_overlap_graph(words, proper, lo, score)
    by_prefix: dict[str, list[int]] = defaultdict(list)
    for j, w in enumerate(words):
        for k in range(lo, len(w) + 1):
            by_prefix[w[:k]].append(j)
    best: dict[tuple[int, int], int] = {}
    for i, a in enumerate(words):
        la = len(a)
        for k in range(lo, la + 1):
            for j in by_prefix.get(a[la - k :], ()):
                if j == i:
                    continue
                if proper and k >= min(la, len(words[j])):
                    continue
                best[(i, j)] = k  # k grows, so the last hit is the maximal overlap
    m = len(best)
    tail = np.fromiter((i for i, _ in best), dtype=np.int32, count=m)
    head = np.fromiter((j for _, j in best), dtype=np.int32, count=m)
    ov = np.fromiter(best.values(), dtype=np.int32, count=m)
    return OverlapGraph(len(words), tail, head, ov, joint_weight(ov.astype(np.int64), score))


#: Characters the prefix index of :func:`overlap_graph` may hold (about 60 bytes each with the
#: dictionary's keys): past it, the pairs are compared one by one.
PREFIX_INDEX_CHARS = 50_000_000

#: Letters the pairwise comparison may read in all (``(n - 1) * sum of lengths``; Python reads
#: about 5 million a second): past it the explicit overlap graph is refused in one line, before
#: it starts (the default method's string-hub network is linear in the letters).
PAIRWISE_LETTERS = 200_000_000


def _pairwise_overlap_graph(
    words: Sequence[str], proper: bool, lo: int, score: str = "squared"
) -> OverlapGraph:
    """:func:`overlap_graph` by comparing every ordered pair (KMP), for lists of long words."""
    n = len(words)
    total = (n - 1) * sum(map(len, words))
    if total > PAIRWISE_LETTERS:
        raise InputError(
            f"the explicit overlap graph of these {n:,} words (up to {max(map(len, words)):,} "
            f"letters each) means comparing {total:,} letters pair by pair; the default method "
            "(exact) works on the string-hub network instead"
        )
    arcs = []
    for j, b in enumerate(words):
        fail = _failure(b)
        for i, a in enumerate(words):
            top = min(len(a), len(b)) - (1 if proper else 0)
            if i != j and top >= lo:
                k = _capped(a, b, fail, top)
                if k >= lo:
                    arcs.append((i, j, k))
    tail = np.array([i for i, _, _ in arcs], dtype=np.int32)
    head = np.array([j for _, j, _ in arcs], dtype=np.int32)
    ov = np.array([k for _, _, k in arcs], dtype=np.int32)
    return OverlapGraph(n, tail, head, ov, joint_weight(ov.astype(np.int64), score))


def _failure(b: str) -> list[int]:
    """The KMP failure function of ``b``: ``f[q]`` = longest proper border of ``b[:q + 1]``."""
    f = [0] * len(b)
    k = 0
    for q in range(1, len(b)):
        while k and b[q] != b[k]:
            k = f[k - 1]
        if b[q] == b[k]:
            k += 1
        f[q] = k
    return f


def _suffix_prefix(a: str, b: str, fail: list[int]) -> int:
    """The longest suffix of ``a`` that is a prefix of ``b`` (``fail``: :func:`_failure` of b),
    reading only the last ``len(b)`` letters of ``a``."""
    k = 0
    for ch in a[max(0, len(a) - len(b)) :]:
        while k and (k == len(b) or ch != b[k]):
            k = fail[k - 1]
        if ch == b[k]:
            k += 1
    return k


def _capped(a: str, b: str, fail: list[int], top: int) -> int:
    """The longest suffix-prefix match of at most ``top`` letters (a border of a longer one)."""
    k = _suffix_prefix(a, b, fail)
    while k > top:
        k = fail[k - 1]
    return k


# --------------------------------------------------------------------------------------------
# Independent checker: recomputes from the strings, shares no code with the graph or the models.
# --------------------------------------------------------------------------------------------


def pair_overlap(a: str, b: str, proper: bool = False) -> int:
    """Maximal k such that the last k letters of ``a`` equal the first k letters of ``b``.

    Parameters
    ----------
    a, b : str
    proper : bool
        Restrict to ``k < min(len(a), len(b))``.

    Examples
    --------
    >>> [pair_overlap(*p) for p in [("beret", "berets"), ("street", "test"), ("test", "street")]]
    [5, 1, 2]
    """
    top = min(len(a), len(b)) - (1 if proper else 0)
    if top <= 0:
        return 0
    if top > 64:
        return overlap_of(a, b, proper)  # the prefix function: O(len), not O(len^2)
    # An overlap of k starts at position len(a) - k of a, where b's first letter must stand:
    # try those positions from the left (longest overlap first).
    i = a.find(b[0], len(a) - top)
    while i >= 0:
        if a.endswith(b[: len(a) - i]):
            return len(a) - i
        i = a.find(b[0], i + 1)
    return 0


def snake_score(
    order: Sequence[str], cyclic: bool = False, proper: bool = False, score: str = "squared"
) -> int:
    """Score of an ordering: sum of squared overlaps of consecutive words.

    With ``score="linear"``, the sum of the overlaps themselves.

    Examples
    --------
    >>> snake_score(["run", "nausea", "seasick"]), snake_score(["run", "nausea", "seasick"],
    ...                                                        score="linear")
    (10, 4)
    """
    k = ordering_overlaps(tuple(order), cyclic, proper)
    if k.size and int(k.max()) >= 1 << 20:  # past what int64 sums safely: Python's integers
        overlaps = k.tolist()
        return sum(overlaps) if score == "linear" else sum(map(operator.mul, overlaps, overlaps))
    return int(k.sum() if score == "linear" else np.dot(k, k))


def snake_overlaps(order: Sequence[str], cyclic: bool = False, proper: bool = False) -> list[int]:
    """Overlap of each consecutive pair of an ordering (and last -> first when cyclic).

    Parameters
    ----------
    order : sequence of str
    cyclic, proper : bool
        The instance's rules.

    Returns
    -------
    list of int, length ``len(order) - 1`` (``len(order)`` when cyclic)
        Letters shared by each pair.

    Notes
    -----
    The last ordering asked about is remembered
    (:func:`~cpwords.core.codepoints.ordering_overlaps`): the check of a returned snake, the
    certificate checker's recount and the report of its lengths read the same overlaps (a
    whole dictionary's pairs cost 0.05 s to compare).

    Examples
    --------
    >>> snake_overlaps(["run", "nausea", "seasick"])
    [1, 3]
    """
    overlaps: list[int] = ordering_overlaps(tuple(order), cyclic, proper).tolist()
    return overlaps


def snake_problems(instance: WordsnakeInstance, order: Sequence[str]) -> list[str]:
    """Independent checker: what is wrong with ``order`` as a snake of ``instance``.

    Parameters
    ----------
    instance : WordsnakeInstance
    order : sequence of str
        A proposed snake.

    Returns
    -------
    list of str
        Empty when ``order`` uses every item exactly as often as the instance holds it.

    Examples
    --------
    >>> snake_problems(WordsnakeInstance(("run", "nausea")), ["run", "run"])
    ['nausea is missing', 'run appears 2 times, the list holds it 1 time']
    """
    # The usual case, distinct words, by sets (C): the snake holds as many words as the list,
    # all distinct, and the same ones (two counters and their comparison took twice as long).
    if len(order) == instance.n:
        listed = set(instance.words)
        if len(listed) == instance.n and listed == set(order):
            return []
    have, want = Counter(order), Counter(instance.words)
    # Without sorting a million words (2.5 s); dict's own comparison (C), as Counter's (which
    # reads missing keys as 0, in Python) took 1.0 s on 300,000 words.
    if dict.__eq__(have, want):
        return []
    out = []
    for w in sorted(set(have) | set(want)):
        if have[w] == want[w]:
            continue
        if not have[w]:
            out.append(f"{excerpt(w)} is missing")
        elif not want[w]:
            out.append(f"{excerpt(w)} is not in the list")
        else:
            out.append(
                f"{excerpt(w)} appears {have[w]} times, the list holds it {want[w]} "
                f"time{'s' if want[w] > 1 else ''}"
            )
    return out


def check_snake(instance: WordsnakeInstance, order: Sequence[str], objective: float) -> bool:
    """Independent checker: ``order`` uses every item exactly once and scores ``objective``.

    Parameters
    ----------
    instance : WordsnakeInstance
    order : sequence of str
        A proposed snake.
    objective : float
        The score claimed for it.

    Returns
    -------
    bool
    """
    if Counter(order) != Counter(instance.words):
        return False
    return snake_score(order, instance.cyclic, instance.proper, instance.score) == objective


def snake_lengths(
    order: Sequence[str], cyclic: bool = False, proper: bool = False
) -> tuple[int, int]:
    """Total characters of the words and characters of the merged snake (overlaps counted once)."""
    total = sum(map(len, order))
    return total, total - sum(snake_overlaps(order, cyclic, proper))
