"""Where a residual network's arcs go
(:func:`~cpwords.wordsnake.relaxation.sweeps.build_residual`): each class's buffers with room
past its arcs, and the places of arcs at their buckets' cursors.
"""

from __future__ import annotations

import numpy as np

from cpwords.core.pages import small_pages


def positions(code: np.ndarray, cursor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where arcs go (in ascending names), each at its bucket's cursor.

    Parameters
    ----------
    code : numpy.ndarray of uint16, shape (k,)
        Each arc's bucket.
    cursor : numpy.ndarray of int64, shape (buckets,)
        Where each bucket's next arc goes; advanced past the arcs placed.

    Returns
    -------
    order : numpy.ndarray of int64, shape (k,)
        The arcs in the order of their buckets (stably, by a radix sort).
    pos : numpy.ndarray of int64, shape (k,)
        Their positions in that order (ascending: each bucket's stretch in turn, so that the
        writes are in memory order).

    Examples
    --------
    >>> cursor = np.array([0, 10])
    >>> order, pos = positions(np.array([1, 0, 1], dtype=np.uint16), cursor)
    >>> order.tolist(), pos.tolist(), cursor.tolist()
    ([1, 0, 2], [0, 10, 11], [1, 12])
    """
    count = np.bincount(code, minlength=cursor.shape[0])
    order = np.argsort(code, kind="stable")
    first = np.cumsum(count)
    first -= count  # the k-th arc of a bucket goes k places past its cursor
    in_order = code.take(order)
    pos = np.arange(order.shape[0])
    pos -= first.take(in_order)
    pos += cursor.take(in_order)
    cursor += count
    return order, pos


#: The room left past each class's arrays for the residual arcs that cancelling a cycle adds
#: (:func:`~cpwords.wordsnake.relaxation.residual_update.update_residual` appends them there):
#: this share of their size more. Never written unless used, it takes no memory until then,
#: where the first cancellation copied a whole class (977,555 31-mers of C. elegans: 40 million
#: arcs, 0.36 GB of keys held twice, the greedy proof's peak).
ROOM_SHARE = 8


def with_room(size: int, dtype: type[np.signedinteger], small: bool = False) -> np.ndarray:
    """An uninitialised array with room past its entries (:data:`ROOM_SHARE`).

    Parameters
    ----------
    size : int
        Its entries.
    dtype : numpy scalar type
    small : bool
        Its buffer in small pages (:func:`~cpwords.core.pages.small_pages`: resident as
        written, where its arrays are built from others given back meanwhile).

    Returns
    -------
    numpy.ndarray, shape (size,)
        A view of the first ``size`` entries of the buffer.
    """
    buffer = np.empty(size + size // ROOM_SHARE, dtype=dtype)
    if small:
        small_pages(buffer)
    return buffer[:size]
