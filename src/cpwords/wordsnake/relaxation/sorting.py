"""Sorting and searching whole arrays faster than NumPy's defaults where the data allow it: searches
in sorted order, stable sorts of small integers by 16-bit radix passes, distinct values by a sort,
and the common prefix of two long sorted words.

Both give exactly what :func:`numpy.searchsorted` and ``numpy.argsort(kind="stable")`` give.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np


def lookup_sorted(haystack: np.ndarray, needles: np.ndarray, side: str = "left") -> np.ndarray:
    """``numpy.searchsorted(haystack, needles, side)``, with the needles searched in sorted order.

    Parameters
    ----------
    haystack : numpy.ndarray, shape (n,)
        Sorted ascending.
    needles : numpy.ndarray, shape (q,)
    side : {"left", "right"}

    Returns
    -------
    numpy.ndarray of intp, shape (q,)
        The insertion points, as :func:`numpy.searchsorted` gives them.

    Notes
    -----
    A binary search per needle in random order misses the cache at almost every step; sorted
    needles walk the haystack in order (NumPy starts each search from the previous one). On a
    million needles into two million keys: 0.35 s in random order, 0.09 s sorted (the sort
    included).
    """
    if needles.size < 4096:
        return np.searchsorted(haystack, needles, side=side)  # type: ignore[call-overload]
    order = np.argsort(needles)
    out = np.empty(needles.size, dtype=np.intp)
    out[order] = np.searchsorted(haystack, needles[order], side=side)  # type: ignore[call-overload]
    return out


def stable_order(keys: np.ndarray, compact: bool = False) -> np.ndarray:
    """``numpy.argsort(keys, kind="stable")``, by radix passes on 16-bit digits where they apply.

    Parameters
    ----------
    keys : numpy.ndarray of int, shape (n,)
    compact : bool
        Give the permutation in 32 bits (``n < 2**31``), its passes holding one 64-bit array
        of ``n`` at a time.

    Returns
    -------
    numpy.ndarray of intp (int32 when ``compact``), shape (n,)
        The stable sorting permutation.

    Notes
    -----
    NumPy sorts 16-bit integers stably by radix sort and wider ones by timsort; keys in
    ``[0, 2**32)`` are sorted by their low digit, then stably by their high one (least
    significant digit first). Measured on 2.1 M node ids: 0.24 s by timsort, 0.045 s in two
    passes. ``compact``: the greedy proof's residual arcs (2.1 M on ENABLE) were the solve's
    memory peak, three permutations of 17 MB at once.
    """
    dtype = np.int32 if compact else np.intp
    if keys.size < 4096:
        return np.argsort(keys, kind="stable").astype(dtype, copy=False)
    low, high = int(keys.min()), int(keys.max())
    if low < 0 or high >= 1 << 32:
        return np.argsort(keys, kind="stable").astype(dtype, copy=False)
    if high < 1 << 16:
        return np.argsort(keys.astype(np.uint16), kind="stable").astype(dtype, copy=False)
    order = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable").astype(dtype, copy=False)
    return order[np.argsort((keys[order] >> 16).astype(np.uint16), kind="stable")]


def distinct(x: np.ndarray) -> np.ndarray:
    """The distinct values of an array, ascending: ``numpy.unique(x)``, by a sort.

    Parameters
    ----------
    x : numpy.ndarray, shape (n,)

    Returns
    -------
    numpy.ndarray, shape (k,)
        In ``x``'s type.

    Notes
    -----
    NumPy 2.4's ``numpy.unique`` finds the distinct values of an integer array with a hash
    table, then sorts them: 0.5 s for a million 64-bit ids out of five million, against 7 ms
    sorted and compared with their neighbours.

    Examples
    --------
    >>> distinct(np.array([3, 1, 3, 2, 1])).tolist()
    [1, 2, 3]
    """
    y = np.sort(x)
    return y.compress(_run_starts(y))


def distinct_counts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of an array, ascending, and how many times each occurs:
    ``numpy.unique(x, return_counts=True)``, by a sort (see :func:`distinct`).

    Parameters
    ----------
    x : numpy.ndarray, shape (n,)

    Returns
    -------
    values : numpy.ndarray, shape (k,)
        In ``x``'s type.
    counts : numpy.ndarray of int64, shape (k,)

    Examples
    --------
    >>> values, counts = distinct_counts(np.array([3, 1, 3, 2, 1, 3]))
    >>> values.tolist(), counts.tolist()
    ([1, 2, 3], [2, 1, 3])
    """
    y = np.sort(x)
    at = np.flatnonzero(_run_starts(y))
    return y.take(at), np.diff(at, append=y.shape[0])


def _run_starts(y: np.ndarray) -> np.ndarray:
    """Where each run of equal values of the sorted ``y`` starts (bool, ``y``'s shape)."""
    new = np.empty(y.shape[0], dtype=bool)
    new[:1] = True
    np.not_equal(y[1:], y[:-1], out=new[1:])
    return new


def common_prefix(a: str, b: str, known: int) -> int:
    """The length of the longest common prefix of ``a`` and ``b``, which share ``known``
    letters (a binary search on slices: O(length log length) in C, no loop per letter)."""
    lo, hi = known, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def rows_without(
    values: np.ndarray, starts: np.ndarray, rows: np.ndarray, skip: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Rows of a compressed sparse layout, each without one value, in one gather.

    Parameters
    ----------
    values : numpy.ndarray of int, shape (m,)
    starts : numpy.ndarray of int, shape (n + 1,)
        Row ``r`` is ``values[starts[r]:starts[r + 1]]``.
    rows : numpy.ndarray of int, shape (k,)
        The rows wanted.
    skip : numpy.ndarray of int, shape (k,)
        The value left out of each.

    Returns
    -------
    picked : numpy.ndarray, shape (p,)
        Each row's values but ``skip`` of it, in order, row after row.
    row_of : numpy.ndarray of int64, shape (p,)
        The place in ``rows`` of each value's row.

    Examples
    --------
    >>> picked, row_of = rows_without(np.array([5, 6, 7, 8]), np.array([0, 3, 4]),
    ...                               np.array([0, 1, 0]), np.array([6, 8, 9]))
    >>> picked.tolist(), row_of.tolist()
    ([5, 7, 5, 6, 7], [0, 0, 2, 2, 2])
    """
    lo, hi = starts[rows], starts[rows + 1]
    count = hi - lo
    at = np.repeat(lo - np.cumsum(count) + count, count) + np.arange(int(count.sum()))
    picked = values[at]
    keep = picked != np.repeat(skip, count)
    row_of = np.repeat(np.arange(count.size), count)[keep]
    return picked[keep], row_of


def walk_by_level(step: np.ndarray, starts: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The paths from a few nodes to the root (node 0) along ``step``, level by level.

    Parameters
    ----------
    step : numpy.ndarray of int, shape (nodes,)
        Each node's next node towards the root (a trie's parents or failure links);
        ``step[0]`` is never read.
    starts : list of int
        The first node of each path (node ids).

    Returns
    -------
    which, node : numpy.ndarray of int64, shape (k,)
        Each entry's path (an index into ``starts``) and node: every path's first nodes, then
        every path's second nodes, and so on (paths in the order of ``starts`` within a level),
        each path from its start to the root, both included.

    Notes
    -----
    One plain loop step a node: for a few long paths (a word of 100,000 letters has a chain
    of 100,000 links), an array pass a level costs a few microseconds whatever its size. The
    entries come out in the order a level-by-level array walk gives them.

    Examples
    --------
    >>> parent = np.array([0, 0, 1, 2, 0])
    >>> which, node = walk_by_level(parent, [3, 4])
    >>> which.tolist(), node.tolist()
    ([0, 1, 0, 1, 0, 0], [3, 4, 2, 0, 1, 0])
    """
    nodes: list[int] = []
    lengths: list[int] = []
    for c in starts:
        first = len(nodes)
        nodes.append(c)
        while c > 0:
            c = step.item(c)
            nodes.append(c)
        lengths.append(len(nodes) - first)
    count = np.array(lengths, dtype=np.int64)
    which = np.repeat(np.arange(count.size, dtype=np.int64), count)
    order = np.argsort(ramp(count), kind="stable")
    return which[order], np.array(nodes, dtype=np.int64)[order]


def level_starts(which: np.ndarray) -> np.ndarray:
    """Where each level of a :func:`walk_by_level` walk starts.

    Parameters
    ----------
    which : numpy.ndarray of int, shape (k,), k >= 1
        The walk's path of each entry (the paths ascending within a level).

    Returns
    -------
    numpy.ndarray of intp, shape (levels,)
        The first entry of each level (0 first).

    Notes
    -----
    A level's paths are among the level before's (a path that goes on was on the level before),
    so the first path of a level is at most the last one of the level before: a level starts
    where the path does not grow.

    Examples
    --------
    >>> level_starts(np.array([0, 1, 0, 1, 0, 0])).tolist()
    [0, 2, 4, 5]
    """
    starts = np.flatnonzero(which[1:] <= which[:-1])
    starts += 1
    return np.concatenate([np.zeros(1, dtype=starts.dtype), starts])


def ramp(sizes: np.ndarray) -> np.ndarray:
    """Each entry's place in its run, for runs of ``sizes`` entries.

    For each size ``s``, the places from 0 to ``s - 1``, the runs concatenated.

    Parameters
    ----------
    sizes : numpy.ndarray of int, shape (k,)
        Non-negative run lengths.

    Returns
    -------
    numpy.ndarray of int64, shape (sizes.sum(),)

    Examples
    --------
    >>> ramp(np.array([2, 0, 3])).tolist()
    [0, 1, 0, 1, 2]
    """
    total = int(sizes.sum())
    return np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(sizes) - sizes, sizes)


#: Keys placed at a time by :func:`stable_places` (its 64-bit temporaries stay this size).
PLACE_BLOCK = 1 << 20


def stable_places(keys: Callable[[int, int], np.ndarray], n: int, top: int) -> np.ndarray:
    """Where each of ``n`` items goes in the stable sort by their keys: the inverse of
    ``stable_order`` (``places[stable_order(k)] == arange(n)``), in 32 bits, with the keys
    read a block at a time.

    Parameters
    ----------
    keys : callable
        ``keys(lo, hi)``: the keys of items ``lo .. hi - 1``, integers in ``0 .. top``.
    n : int
        The number of items (below ``2**31``).
    top : int
        The largest key (below ``2**16``: each block is sorted by radix passes).

    Returns
    -------
    numpy.ndarray of int32, shape (n,)

    Notes
    -----
    Two passes over the keys: their counts, then each block's items stably sorted and placed
    after the items of the same key in the blocks before. Where a whole permutation of the
    items (``numpy.argsort``: 64 bits an item) and its 16-bit keys were held at once: on
    977,555 31-mers of C. elegans, 30 million hand-over candidates sorted by depth, 0.29 GB
    less at the greedy matching's peak.

    Examples
    --------
    >>> k = np.array([2, 0, 2, 1, 0])
    >>> stable_places(lambda lo, hi: k[lo:hi], 5, 2).tolist()
    [3, 0, 4, 2, 1]
    """
    places = np.empty(n, dtype=np.int32)
    for items, at in _placed_blocks(keys, n, top):
        places[items] = at
    return places


def stable_order_small(keys: Callable[[int, int], np.ndarray], n: int, top: int) -> np.ndarray:
    """``stable_order`` of small keys read a block at a time, in 32 bits (the items in the
    order of :func:`stable_places`, with no 64-bit permutation of them all: the trie's 20
    million nodes by depth on 977,555 31-mers of C. elegans, 0.15 GB less).

    Parameters
    ----------
    keys : callable
        ``keys(lo, hi)``: the keys of items ``lo .. hi - 1``, integers in ``0 .. top``.
    n : int
        The number of items (below ``2**31``).
    top : int
        The largest key (below ``2**16``).

    Returns
    -------
    numpy.ndarray of int32, shape (n,)

    Examples
    --------
    >>> k = np.array([2, 0, 2, 1, 0])
    >>> stable_order_small(lambda lo, hi: k[lo:hi], 5, 2).tolist()
    [1, 4, 3, 0, 2]
    """
    order = np.empty(n, dtype=np.int32)
    for items, at in _placed_blocks(keys, n, top):
        order[at] = items
    return order


def _placed_blocks(
    keys: Callable[[int, int], np.ndarray], n: int, top: int
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Each block's items and their places in the stable sort by ``keys`` (two passes: the
    keys' counts, then each block stably sorted and placed after the same keys of the blocks
    before)."""
    counts = np.zeros(top + 1, dtype=np.int64)
    for lo in range(0, n, PLACE_BLOCK):
        counts += np.bincount(keys(lo, min(n, lo + PLACE_BLOCK)), minlength=top + 1)
    at = np.cumsum(counts) - counts  # the first place of each key
    for lo in range(0, n, PLACE_BLOCK):
        k = keys(lo, min(n, lo + PLACE_BLOCK)).astype(np.uint16)
        order = np.argsort(k, kind="stable")
        ranked = k[order]
        block = np.bincount(k, minlength=top + 1)
        first = np.cumsum(block) - block  # each key's first rank in the block's sort
        yield order + lo, at[ranked] + (np.arange(k.shape[0]) - first[ranked])
        at += block
