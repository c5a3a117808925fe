"""A certificate's columns of integers: its values as Python integers or as the solver's
arrays, and the multiplicities of a list whose words are all distinct."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np


class EachOnce(list[int]):
    """The multiplicities of a list whose words are all distinct: a list of ones that says so
    (:func:`each_once` answers without counting them: the check asked three times, 5 ms each
    on a million words)."""


def each_once(mult: Sequence[int]) -> bool:
    """Whether every multiplicity is 1 (an :class:`EachOnce` is, unread).

    Examples
    --------
    >>> each_once(EachOnce([1] * 3)), each_once([1, 2]), each_once([])
    (True, False, True)
    """
    return isinstance(mult, EachOnce) or operator.countOf(mult, 1) == len(mult)


def int_list(values: Sequence[int]) -> list[int]:
    """A certificate's column of integers as a list of Python integers: an :class:`IntColumn`
    (the solver's) in one pass in C, a tuple (read from JSON) as it is.

    Parameters
    ----------
    values : IntColumn or sequence of int, length n
        A certificate's ``u``, ``v`` or ``order``.

    Returns
    -------
    list of int, length n
        A new list (the caller may change it).

    Examples
    --------
    >>> int_list(IntColumn(np.array([3, -1]))), int_list((5, 2**70))
    ([3, -1], [5, 1180591620717411303424])
    """
    return values.tolist() if isinstance(values, IntColumn) else list(values)


class IntColumn(Sequence[int]):
    """A read-only column of integers held in a NumPy array: a certificate's values or its
    ordering as the solver makes them, 8 bytes an entry (4 for word ids) where a tuple of
    Python integers takes about 40 (the whole Polish dictionary's ``u``, ``v`` and ordering,
    twice held: about 0.8 GB as tuples).

    It reads as the tuple of Python integers it stands for: indexing gives ``int``, a slice a
    tuple, iteration Python integers, and it equals (and hashes as) that tuple.
    ``numpy.asarray`` gets a writable copy of the array (the column itself never changes).

    Parameters
    ----------
    values : numpy.ndarray of int64 or int32, shape (n,)
        The integers (copied: the column's own, read-only).

    Examples
    --------
    >>> c = IntColumn(np.array([3, -1, 4]))
    >>> c[1], c[1:], list(c), c == (3, -1, 4), len(c)
    (-1, (-1, 4), [3, -1, 4], True, 3)
    """

    __slots__ = ("_a",)

    #: Entries converted to Python integers at a time while iterating.
    BLOCK = 1 << 16

    def __init__(self, values: np.ndarray) -> None:
        a = np.array(values, copy=True)  # its own: the caller's array may change
        if a.ndim != 1 or a.dtype.kind != "i":
            raise TypeError("an IntColumn holds a one-dimensional array of integers")
        a.flags.writeable = False
        self._a = a

    def __len__(self) -> int:
        return int(self._a.shape[0])

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return tuple(self._a[i].tolist())
        return int(self._a[operator.index(i)])

    def __iter__(self) -> Any:
        a, step = self._a, self.BLOCK
        for lo in range(0, a.shape[0], step):
            yield from a[lo : lo + step].tolist()

    def exact_sum(self) -> int:
        """The sum of the integers, exactly: in int64 when no partial sum can pass ``2 ** 63``
        (each below ``2 ** 62`` over their number in magnitude), else over Python's integers.

        Examples
        --------
        >>> IntColumn(np.array([3, -1, 4])).exact_sum()
        6
        >>> IntColumn(np.array([2**62] * 4)).exact_sum()  # past int64: Python's integers
        18446744073709551616
        """
        a = self._a
        if a.size == 0:
            return 0
        if max(int(a.max()), -int(a.min())) < (1 << 62) // a.size:
            return int(a.sum(dtype=np.int64))
        return sum(a.tolist())

    def tolist(self) -> list[int]:
        """The integers as a list of Python integers, in one pass in C."""
        out: list[int] = self._a.tolist()
        return out

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._a.astype(self._a.dtype if dtype is None else dtype, copy=True)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, IntColumn):
            return bool(np.array_equal(self._a, other._a))
        if isinstance(other, tuple):
            return len(other) == len(self) and all(map(operator.eq, self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"IntColumn({self._a!r})"
