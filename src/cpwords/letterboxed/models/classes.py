"""Letter Boxed word classes: the playable words of a box compressed to (first letter, last letter,
letter set), and the superset transforms over the masks of the box letters.

The exact DP (:mod:`cpwords.letterboxed.models.fewest`) and the counting
(:mod:`cpwords.letterboxed.models.counting`) apply the transforms to their tables.

Every word of a class acts the same on the DP's state (letters still needed, current letter), so a
class keeps its shortest length (for the optimum) and its number of words (for counting).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cpwords.letterboxed.rules import LetterBox, parse_box

#: A box: a :class:`~cpwords.letterboxed.rules.LetterBox`, ``"abc-def-ghi-jkl"`` or its sides.
BoxLike = LetterBox | str | Sequence[str]


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


def superset_min(table: NDArray[Any], n: int) -> None:
    """In place: ``table[..., r] = min over masks m >= r (superset) of table[..., m]``.

    Parameters
    ----------
    table : ndarray, shape (..., 2**n)
        Indexed by a mask of the ``n`` box letters in its last axis; overwritten.
    n : int
        The number of box letters.
    """
    _superset(table, n, np.minimum)


def superset_sum(table: NDArray[Any], n: int) -> None:
    """In place: ``table[..., r] = sum over masks m >= r (superset) of table[..., m]``.

    Parameters
    ----------
    table : ndarray, shape (..., 2**n)
        Indexed by a mask of the ``n`` box letters in its last axis; overwritten.
    n : int
        The number of box letters.
    """
    _superset(table, n, np.add)


def _superset(table: NDArray[Any], n: int, combine: np.ufunc) -> None:
    """In place: each mask's entry combined (``combine``, a binary ufunc) with every superset's,
    one letter at a time (the zeta transform over supersets: ``n`` passes of ``2**n``)."""
    lead = table.shape[:-1]
    for b in range(n):
        v = table.reshape((*lead, -1, 2, 1 << b))
        combine(v[..., 0, :], v[..., 1, :], out=v[..., 0, :])
