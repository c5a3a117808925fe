"""Letter Boxed, exact counts: the number of solutions of exactly 1, 2, ... words, by layers of
sums over the word classes (:mod:`cpwords.letterboxed.models.classes`), and their listing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cpwords.core.errors import InputError
from cpwords.letterboxed.models.classes import WordClasses, superset_sum
from cpwords.letterboxed.rules import LetterBox

_INT64_SAFE = float(1 << 62)


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
    superset_sum(n1, n)
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


def count_classes(
    c: WordClasses, max_words: int, list_limit: int | None, t0: float
) -> LetterBoxedCount:
    """Count (and list) every solution of at most ``max_words`` words from a box's classes.

    Parameters
    ----------
    c : WordClasses
        The box's playable words, as classes.
    max_words : int
        Count the solutions of 1 to ``max_words`` words.
    list_limit : int or None
        List up to this many solutions (None: all of them; 0: none).
    t0 : float
        ``time.perf_counter()`` when the count began (the wall time counts from it).

    Returns
    -------
    LetterBoxedCount

    Raises
    ------
    InputError
        ``max_words < 1``.
    """
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
