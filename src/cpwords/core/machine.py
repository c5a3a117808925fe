"""Facts about the machine cpwords runs on (no solver imports): memory still available, and
freed memory given back (an array's pages: :mod:`cpwords.core.pages`).

Used to refuse, in one line, an input whose solve would not fit before anything is built.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import sys
from collections.abc import Callable


def available_memory() -> int:
    """Bytes this process may still use: free physical memory, capped by its address-space limit.

    Returns
    -------
    int
        ``MemAvailable`` of ``/proc/meminfo`` (else the free physical pages), or the
        ``RLIMIT_AS`` soft limit when that is smaller.

    Examples
    --------
    >>> available_memory() > 0
    True
    """
    avail: int | None = None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    break
    except OSError:  # pragma: no cover - not Linux
        pass
    if avail is None:  # pragma: no cover - not Linux
        avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            avail = min(avail, soft)
    except (ImportError, ValueError):  # pragma: no cover
        pass
    return int(avail)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """GNU libc's ``malloc_trim`` (None on another C library or system)."""
    if not sys.platform.startswith("linux"):  # pragma: no cover - not Linux
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # pragma: no cover - musl and others
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def give_back_freed_memory() -> bool:
    """Give the pages of this process's freed heap blocks back to the kernel.

    GNU libc keeps the memory of freed blocks below its mmap threshold in its heap for the next
    allocations (the command line raises that threshold to 64 MiB:
    :mod:`cpwords.cli._allocator`), and counts it in the resident set until it is reused. A
    step that builds one large array out of many smaller ones and frees them as it goes (the
    string-hub network's arcs) otherwise holds both at its end: on 977,555 31-mers of
    C. elegans the network's 0.9 GB of arc parts stayed resident beside the 0.9 GB of arcs made
    from them.

    Returns
    -------
    bool
        Whether anything was given back (False on another C library or system: nothing is
        done there).

    Notes
    -----
    ``malloc_trim(0)`` of the GNU C library (``malloc_trim(3)``): since glibc 2.8 it releases
    every whole free page of every arena, not only the top of the heap. It takes milliseconds
    (it walks the free blocks), and the kernel zeroes each page again when the heap reuses it,
    so it is called once tens of MiB have been freed (every 64 MiB in the network's build: 8%
    more CPU on C. elegans' 977,555 31-mers, 0.2 GB less at the peak), not after every block.

    Examples
    --------
    >>> give_back_freed_memory() in (True, False)
    True
    """
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False
