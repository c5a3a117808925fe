"""The narrowest NumPy integer types that hold a network's values (ids, capacities, weights).

NumPy 2 wraps around silently on overflow in fixed-width arithmetic, so each narrow column is
chosen from the largest value it may hold, and sums of them are widened first by their callers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: The largest value of a 32-bit signed integer.
INT32_MAX = int(np.iinfo(np.int32).max)


def signed_type(top: int, top32: int | None = None) -> type[np.signedinteger]:
    """The narrowest signed integer type holding every value from ``-top`` to ``top``.

    Parameters
    ----------
    top : int
        The largest absolute value (at least 0).
    top32 : int, optional
        The largest ``top`` given 32 bits or fewer (default :data:`INT32_MAX`; a caller that
        adds two such values keeps a margin).

    Returns
    -------
    type
        ``numpy.int64`` above ``top32``, else ``numpy.int8`` or ``numpy.int16`` where ``top``
        fits, else ``numpy.int32``.

    Examples
    --------
    >>> [signed_type(t).__name__ for t in (127, 128, 2**15, 2**31)]
    ['int8', 'int16', 'int32', 'int64']
    """
    if top > (INT32_MAX if top32 is None else top32):
        return np.int64
    return next(t for t in (np.int8, np.int16, np.int32) if top <= int(np.iinfo(t).max))


def id_type(n: int) -> type[np.signedinteger]:
    """The type of ids from -1 (none) to ``n`` (items, words or nodes).

    Parameters
    ----------
    n : int
        The largest id (the depot's, or the number of nodes).

    Returns
    -------
    type
        ``numpy.int32`` below :data:`INT32_MAX`, else ``numpy.int64``.

    Examples
    --------
    >>> id_type(10).__name__, id_type(2**31).__name__
    ('int32', 'int64')
    """
    return np.int32 if n < INT32_MAX else np.int64


def as_ids(key: Any) -> np.ndarray:
    """Ids from an index: an array of ids as int64, a mask as the ids where it is true.

    Parameters
    ----------
    key : array_like of int or bool, shape (k,)
        Ids, or a mask of every id.

    Returns
    -------
    numpy.ndarray of int64, shape (k,) or (true entries,)

    Examples
    --------
    >>> as_ids([3, 1]).tolist(), as_ids(np.array([True, False, True])).tolist()
    ([3, 1], [0, 2])
    """
    ids = np.asarray(key)
    return np.flatnonzero(ids) if ids.dtype == bool else ids.astype(np.int64, copy=False)


def narrowed(values: np.ndarray) -> np.ndarray:
    """``values`` in 32 bits when every one fits, else as they are (to be held, read widened).

    Parameters
    ----------
    values : numpy.ndarray of int

    Returns
    -------
    numpy.ndarray
        An int32 copy of ``values`` when all lie within int32 (and they are wider), else
        ``values`` itself.

    Examples
    --------
    >>> narrowed(np.array([-5, 2**31 - 1])).dtype.name
    'int32'
    >>> narrowed(np.array([2**31])).dtype.name
    'int64'
    """
    if values.dtype.itemsize <= 4:
        return values
    if values.size and (int(values.min()) < -INT32_MAX - 1 or int(values.max()) > INT32_MAX):
        return values
    return values.astype(np.int32)


def held_small(values: np.ndarray) -> np.ndarray:
    """``values`` in the narrowest signed type that holds them all (to be held, read widened).

    Parameters
    ----------
    values : numpy.ndarray of int

    Returns
    -------
    numpy.ndarray
        A copy in :func:`signed_type` of the largest absolute value when that is narrower
        than ``values``' type, else ``values`` itself.

    Examples
    --------
    >>> held_small(np.array([-5, 300])).dtype.name
    'int16'
    >>> held_small(np.array([-5, 2**31], dtype=np.int64)).dtype.name
    'int64'
    """
    if not values.size:
        return values
    top = max(-int(values.min()), int(values.max()))
    kind = signed_type(top)
    return values.astype(kind) if np.dtype(kind).itemsize < values.itemsize else values
