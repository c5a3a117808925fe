"""An array's memory pages given back to the kernel, or kept in small pages (Linux
``madvise``; elsewhere nothing is done): for the few arrays of the largest networks whose
stretches are read once and then let go.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import mmap
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


#: ``madvise``'s advice that lets a private anonymous mapping's pages go (``<sys/mman.h>``).
MADV_DONTNEED = 4

#: ``madvise``'s advice that keeps a mapping in small pages (no transparent huge pages).
MADV_NOHUGEPAGE = 15


@functools.cache
def _madvise() -> Callable[[int, int, int], int] | None:
    """The C library's ``madvise`` (None on another system)."""
    if not sys.platform.startswith("linux"):  # pragma: no cover - not Linux
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        advise = libc.madvise
    except (OSError, AttributeError):  # pragma: no cover
        return None
    advise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    advise.restype = ctypes.c_int
    return advise


def _advise(array: np.ndarray, lo: int, hi: int, advice: int) -> int:
    """``madvise`` the whole pages of ``array[lo:hi]`` (1-D, contiguous); the bytes advised."""
    advise = _madvise()
    if advise is None or array.ndim != 1 or not array.flags.c_contiguous:
        return 0
    lo, hi = max(0, lo), min(array.shape[0], hi)
    if hi <= lo:
        return 0
    page = mmap.PAGESIZE
    base = array.ctypes.data
    start = -(-(base + lo * array.itemsize) // page) * page  # the first whole page
    stop = (base + hi * array.itemsize) // page * page
    if stop <= start:
        return 0
    return stop - start if advise(start, stop - start, advice) == 0 else 0


def small_pages(array: np.ndarray) -> int:
    """Keep a fresh array, not yet written, in small pages (4 KiB), not in transparent huge
    pages (2 MiB): a page of it is then resident only once written, where one write made a
    whole huge page resident.

    Parameters
    ----------
    array : numpy.ndarray
        One-dimensional and contiguous.

    Returns
    -------
    int
        Bytes advised (0 on another system, or when the kernel refuses).

    Notes
    -----
    NumPy asks for huge pages for its large arrays (``madvise(MADV_HUGEPAGE)``, Linux). An
    array written a few entries at a time all over (the greedy proof's residual network: each
    of some 8,192 buckets of heads gets its next arcs, a block of network arcs at a time) then
    became resident whole at its first blocks, before the arrays it is built from could give
    their pages back (:func:`drop_pages`): 0.5 GB of 977,555 31-mers of C. elegans.

    Examples
    --------
    >>> import numpy as np
    >>> small_pages(np.empty(1 << 20, dtype=np.int64)) >= 0
    True
    """
    return _advise(array, 0, array.shape[0], MADV_NOHUGEPAGE)


def drop_pages(array: np.ndarray, lo: int, hi: int) -> int:
    """Give back to the kernel the whole memory pages of ``array[lo:hi]``, an array that will
    not be read there again (a stretch already consumed of an array about to be let go).

    Parameters
    ----------
    array : numpy.ndarray
        One-dimensional and contiguous, owning or viewing memory of this process's heap or of
        an anonymous mapping (NumPy's own allocations).
    lo, hi : int
        The stretch of entries (clipped to the array).

    Returns
    -------
    int
        Bytes given back (0 on another system, or for a stretch within fewer than two pages).

    Notes
    -----
    ``madvise(MADV_DONTNEED)`` on the pages wholly inside the stretch: their memory is freed at
    once, and reading them again gives zeros (a fresh page), so the entries there are lost; the
    pages at either end, shared with the entries around (or the allocator's own words), are
    kept. An array consumed a block at a time so leaves no more than a block of itself resident
    beside what is built from it (the greedy proof's residual network from the network's arcs).

    Examples
    --------
    >>> import numpy as np
    >>> a = np.ones(1 << 20, dtype=np.int64)
    >>> dropped = drop_pages(a, 0, a.size)
    >>> bool(dropped == 0 or (a[1024:2048] == 0).all())
    True
    """
    return _advise(array, lo, hi, MADV_DONTNEED)
