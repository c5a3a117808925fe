"""Letter Boxed difficulty: how few solutions of at most 3 *common* words a box has.

The score (:func:`box_difficulty`) counts the solutions of at most 3 words made of common words
(wordfreq Zipf frequency >= :data:`COMMON_ZIPF`, about once per million words of text) with the
exact counting tables of :mod:`cpwords.letterboxed.models.dp`:
``difficulty = max(0, 6 - log10(1 + C))``. Fewer common solutions, harder box. On the 332 NYT
puzzles of 2024 its Spearman correlation with the newspaper's par is +0.62 (see
``benchmarks/results/design/report.md``). The generation (:mod:`cpwords.letterboxed.models.design`)
keeps the boxes of a band (:data:`DIFFICULTY_BANDS`).

References
----------
R. Speer, *wordfreq* (PyPI), Zipf frequencies.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cpwords.core.errors import InputError
from cpwords.core.lexicon import Lexicon, zipf
from cpwords.letterboxed.models.dp import (
    BoxLike,
    LetterBoxedSolver,
    as_box,
    build_classes,
    count_tables,
)
from cpwords.letterboxed.rules import LetterBox

#: A word is *common* when its wordfreq Zipf frequency is at least this (once per 10**6 words).
COMMON_ZIPF = 3.0

#: Offset of the difficulty scale: a box with no common solution of <= 3 words scores this.
DIFFICULTY_MAX = 6.0

#: Solutions are counted up to this many words for the report and the difficulty.
COUNT_WORDS = 3


@dataclass(frozen=True)
class BoxDifficulty:
    """How hard a box is, from its solution space restricted to common words.

    Attributes
    ----------
    score : float
        ``max(0, DIFFICULTY_MAX - log10(1 + C))`` with ``C = sum(common_solutions)``; 0 (very
        easy) to 6 (no solution of <= 3 common words). Rounded to 2 decimals.
    common_words : int
        Playable words with Zipf frequency >= ``zipf_threshold``.
    common_solutions : tuple of int, length 3
        Solutions of exactly 1, 2, 3 words using common words only.
    zipf_threshold : float
    """

    score: float
    common_words: int
    common_solutions: tuple[int, ...]
    zipf_threshold: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly row."""
        return {
            "difficulty": self.score,
            "common_words": self.common_words,
            "common_solutions": {str(j + 1): c for j, c in enumerate(self.common_solutions)},
            "zipf_threshold": self.zipf_threshold,
        }


def zipf_values(words: Iterable[str], lang: str = "en") -> dict[str, float]:
    """The wordfreq Zipf frequency of each word (:func:`cpwords.core.lexicon.zipf`).

    Parameters
    ----------
    words : iterable of str
    lang : str
        ISO 639-1 code.

    Returns
    -------
    dict of str to float
        Word -> Zipf frequency (0 for a word wordfreq does not know).
    """
    return {w: zipf(w, lang) for w in words}


def playable_difficulty(
    box: LetterBox,
    playable: Sequence[tuple[str, int]],
    zipf_threshold: float,
    lang: str = "en",
    deadline: float | None = None,
) -> BoxDifficulty:
    """The difficulty of :func:`box_difficulty` from the box's playable words.

    Parameters
    ----------
    box : LetterBox
    playable : sequence of (str, int)
        The playable words with their letter masks
        (:meth:`~cpwords.letterboxed.models.dp.LetterBoxedSolver.playable`).
    zipf_threshold : float
        Zipf frequency of a *common* word.
    lang : str
        ISO 639-1 code of the words.
    deadline : float, optional
        ``time.perf_counter()`` past which the count stops.

    Returns
    -------
    BoxDifficulty

    Raises
    ------
    cpwords.letterboxed.models.counting.CountStopped
        The deadline passed during the count.
    """
    z = zipf_values((w for w, _ in playable), lang)
    common = [(w, m) for w, m in playable if z[w] >= zipf_threshold]
    counts: tuple[int, ...] = (0,) * COUNT_WORDS
    if common:
        by_words, _ = count_tables(build_classes(box, common), COUNT_WORDS, deadline)
        counts = tuple(by_words)
    total = sum(counts)
    score = max(0.0, DIFFICULTY_MAX - math.log10(1 + total))
    return BoxDifficulty(round(score, 2), len(common), counts, zipf_threshold)


def box_difficulty(
    box: BoxLike,
    lexicon: Lexicon | Iterable[str] | LetterBoxedSolver | None = None,
    zipf_threshold: float = COMMON_ZIPF,
) -> BoxDifficulty:
    """Difficulty of a box: how few solutions of at most 3 common words it has.

    Parameters
    ----------
    box : LetterBox, str or sequence of str
    lexicon : Lexicon, iterable of str, LetterBoxedSolver or None
        The accepted words (None: the built-in wordfreq list); only those with a Zipf
        frequency >= ``zipf_threshold`` count.
    zipf_threshold : float
        Zipf frequency (log10 of occurrences per 10**9 words) of a *common* word.

    Returns
    -------
    BoxDifficulty
        ``score = max(0, 6 - log10(1 + C))``, C the exact number of solutions of 1 to 3
        common words (counted by the DP's counting tables on the common playable words).

    Raises
    ------
    InputError
        Malformed box or empty lexicon.

    Notes
    -----
    Calibrated on the 332 NYT puzzles of 2024 with each day's own dictionary: Spearman
    correlation with the newspaper's par +0.62 (``benchmarks/bench_design.py``). The par is
    higher for harder boxes, so a higher score goes with a higher par.

    Examples
    --------
    >>> d = box_difficulty("abc-def-ghi-jkl", ["bechfag", "gjdkil", "bead"])
    >>> d.common_solutions, d.score
    ((0, 0, 0), 6.0)
    """
    solver = lexicon if isinstance(lexicon, LetterBoxedSolver) else LetterBoxedSolver(lexicon)
    b = as_box(box)
    return playable_difficulty(b, solver.playable(b), zipf_threshold)


#: Difficulty bands of a generated box (:func:`box_difficulty`'s score, 0 to 6): of 40 boxes
#: drawn from the default lexicon (seed 1), about half were easy, a third medium, one in six hard.
DIFFICULTY_BANDS: dict[str, tuple[float, float]] = {
    "easy": (0.0, 2.0), "medium": (2.0, 3.0), "hard": (3.0, 99.0),
}  # fmt: skip


def difficulty_band(difficulty: str | tuple[float, float] | None) -> tuple[float, float] | None:
    """The score band of a difficulty name or ``(low, high)`` pair (None: every box).

    Raises
    ------
    InputError
        An unknown name (the known ones are listed), or ``low >= high``.

    Examples
    --------
    >>> difficulty_band("medium")
    (2.0, 3.0)
    """
    if difficulty is None:
        return None
    if isinstance(difficulty, str):
        if difficulty not in DIFFICULTY_BANDS:
            raise InputError(
                f"unknown difficulty {difficulty!r}: choose from {', '.join(DIFFICULTY_BANDS)}"
            )
        return DIFFICULTY_BANDS[difficulty]
    low, high = (float(x) for x in difficulty)
    if not low < high:
        raise InputError(f"a difficulty band needs low < high, got ({low:g}, {high:g})")
    return low, high
