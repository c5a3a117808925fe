"""Facts about the machine cpwords runs on (no solver imports): memory still available.

Used to refuse, in one line, an input whose solve would not fit before anything is built.
"""

from __future__ import annotations

import os


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
