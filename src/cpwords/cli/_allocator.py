"""Let a command line's allocator keep the memory of freed arrays for the next ones.

GNU libc gives each freed block above its *mmap threshold* (at most 32 MiB when left to itself)
back to the kernel at once, and trims its heap's top above its *trim threshold*. A solve builds
and drops arrays of tens or hundreds of MiB one after another (the network's arcs, the flow's
passes, the check's tables), so each new one is fresh memory, which the kernel must zero page by
page: on this project's 2-core virtual machine a page touched for the first time costs about
2 ms a MiB, and that system time was up to a third of a dictionary's Wordsnake. Raising both
thresholds keeps such memory in the heap for the next array. Measured with ``/usr/bin/time`` on
``cpwords snake`` (minor page faults, system CPU, peak resident set): Debian's French list
93,436 -> 75,041 faults; every 4th word of the Polish dictionary 355,696 -> 249,005 faults,
system CPU 10.5 -> 5.5 s, peak 1.44 -> 1.55 GB; every 2nd word 1,447,575 -> 645,122 faults,
system CPU 25.8 -> 18.0 s, peak 3.10 -> 3.39 GB. A threshold of 256 MiB saved a little more
time but raised the half list's peak by 22% (the heap's holes): blocks above 64 MiB are still
mapped and given back.

Only the command line does this, and only for commands that end when their answer is printed:
a program that imports cpwords keeps its own allocator's settings, and so does a long-lived
``cpwords serve``. A user who sets any ``MALLOC_*`` variable of glibc's keeps those instead.
"""

from __future__ import annotations

import ctypes
import os
import sys

#: glibc's ``mallopt`` parameters (``<malloc.h>``).
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3

#: Blocks up to this size (bytes) come from the heap and are kept there when freed.
MMAP_THRESHOLD = 64 << 20

#: The heap's free top is given back to the kernel only above this size (bytes).
TRIM_THRESHOLD = 256 << 20


def keep_freed_memory(environ: dict[str, str] | None = None) -> bool:
    """Raise glibc's mmap and trim thresholds (:data:`MMAP_THRESHOLD`, :data:`TRIM_THRESHOLD`)
    for this process.

    Parameters
    ----------
    environ : dict of str to str, optional
        The environment to read (default ``os.environ``): any ``MALLOC_*`` variable (glibc's
        own tunables) leaves the allocator as the user set it.

    Returns
    -------
    bool
        Whether both thresholds were set: False on another C library or system (nothing is
        changed there) or when the user set the allocator's variables.

    Notes
    -----
    ``mallopt(3)`` from the GNU C library manual; each fixed threshold also turns off glibc's
    dynamic mmap threshold.

    Examples
    --------
    >>> keep_freed_memory({"MALLOC_ARENA_MAX": "2"})
    False
    """
    env = os.environ if environ is None else environ
    if not sys.platform.startswith("linux") or any(k.startswith("MALLOC_") for k in env):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )
