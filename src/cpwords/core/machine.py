"""Facts about the machine cpwords runs on (no solver imports): memory still available, the
versions of the packages installed.

Used to refuse, in one line, an input whose solve would not fit before anything is built.
"""

from __future__ import annotations

import functools
import os
import re
import sys


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


#: The folders of an installed distribution's metadata.
_INFO = (".dist-info", ".egg-info")


@functools.cache
def installed_version(name: str) -> str:
    """The version of the installed distribution ``name``, as ``importlib.metadata.version``.

    Read off the name of its ``NAME-VERSION.dist-info`` folder (the first entry of
    ``sys.path`` holding one, as :mod:`importlib.metadata` searches): importing
    :mod:`importlib.metadata` loads the :mod:`email` package, 15-20 ms of every solve's
    start-up. Any other case (an ``.egg-info``, two folders in one entry) asks
    :func:`importlib.metadata.version` (tests/core/test_machine.py compares them).

    Parameters
    ----------
    name : str
        A distribution's name (any case, ``-``, ``_`` and ``.`` alike, as PEP 503 compares).

    Returns
    -------
    str
        Its version.

    Raises
    ------
    importlib.metadata.PackageNotFoundError
        No such distribution is installed.

    Examples
    --------
    >>> import importlib.metadata
    >>> installed_version("NumPy") == importlib.metadata.version("numpy")
    True
    """
    wanted = _normalised(name)
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        found = [
            n for n in names if n.endswith((".dist-info", ".egg-info")) and _owner(n) == wanted
        ]
        if len(found) == 1 and found[0].endswith(".dist-info"):
            return found[0][: -len(".dist-info")].rpartition("-")[2]
        if found:
            break
    from importlib.metadata import version

    return version(name)


def _normalised(name: str) -> str:
    """A distribution's name as PEP 503 compares it."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _owner(folder: str) -> str:
    """The normalised distribution name of a ``NAME-VERSION.dist-info`` (or egg-info) folder."""
    return _normalised(folder.rpartition(".")[0].partition("-")[0])
