"""The string-hub network's capacities held narrow while a greedy proof's residual network peaks.

Most arcs of a network carry a word's copies (1 for a list without repeats); only the split arcs
and the root link have the number of items as their capacity. While the greedy proof's sweeps
run, the capacities are read for the residual network's build (a block at a time) and for the
few arcs of each cancelled cycle, so they are held as the narrowest type most of them fit, the
others kept aside by arc id (:class:`CompactCaps`), and made again in their own type when the
sweeps end (:func:`compacted_caps`): 977,555 31-mers of C. elegans, 68 million arcs, hold 8 bits
an arc and a million exceptions instead of 32 bits an arc (0.26 -> 0.08 GB).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork

#: Arcs read or written at a time (the temporaries stay this size).
CAP_BLOCK = 1 << 20

#: Most arcs a narrow type may leave aside, as a share of all arcs: past it, the next type.
EXCEPTION_SHARE = 1 / 16


class CompactCaps:
    """Capacities as a narrow array and the arcs whose capacity does not fit it.

    Parameters
    ----------
    cap : numpy.ndarray of int, shape (m,)
        Non-negative capacities.
    narrow : numpy scalar type
        The type the most capacities are held in (they fit below its largest value).

    Attributes
    ----------
    dtype : numpy.dtype
        ``cap``'s type: what indexing returns.

    Notes
    -----
    Indexing by a slice or by an array of arc ids returns the capacities in ``cap``'s type,
    equal to ``cap``'s (those left aside looked up by a binary search of their ids); the
    ``shape`` attribute is ``cap``'s, as an array's.
    """

    def __init__(self, cap: np.ndarray, narrow: type[np.signedinteger]) -> None:
        m, top = cap.shape[0], int(np.iinfo(narrow).max)
        self.dtype = cap.dtype
        self.shape = cap.shape
        self._narrow = np.empty(m, dtype=narrow)
        ids: list[np.ndarray] = []
        values: list[np.ndarray] = []
        for lo in range(0, m, CAP_BLOCK):
            part = cap[lo : lo + CAP_BLOCK]
            big = np.flatnonzero(part > top)
            ids.append(big + lo)
            values.append(part[big])
            np.minimum(part, top, out=self._narrow[lo : lo + CAP_BLOCK], casting="unsafe")
        self._ids = np.concatenate(ids) if ids else np.zeros(0, dtype=np.int64)
        self._values = np.concatenate(values) if values else np.zeros(0, dtype=cap.dtype)

    @staticmethod
    def narrow_type(cap: np.ndarray) -> type[np.signedinteger] | None:
        """The narrowest type (int8 or int16) whose largest value all but
        :data:`EXCEPTION_SHARE` of the capacities stay below, or None (no gain).

        Parameters
        ----------
        cap : numpy.ndarray of int, shape (m,)

        Returns
        -------
        type or None
        """
        m = cap.shape[0]
        for narrow in (np.int8, np.int16):
            if np.dtype(narrow).itemsize >= cap.dtype.itemsize:
                return None
            top = int(np.iinfo(narrow).max)
            over = sum(
                int(np.count_nonzero(cap[lo : lo + CAP_BLOCK] > top))
                for lo in range(0, m, CAP_BLOCK)
            )
            if over <= EXCEPTION_SHARE * m:
                return narrow
        return None

    def __getitem__(self, key: Any) -> np.ndarray:
        if isinstance(key, slice):
            lo, hi, step = key.indices(self.shape[0])
            if step != 1:
                return self[np.arange(lo, hi, step)]
            out = self._narrow[lo:hi].astype(self.dtype)
            a, b = np.searchsorted(self._ids, [lo, hi])
            out[self._ids[a:b] - lo] = self._values[a:b]
            return out
        arcs = np.asarray(key, dtype=np.int64)
        out = self._narrow[arcs].astype(self.dtype)
        if self._ids.size:
            at = np.minimum(np.searchsorted(self._ids, arcs), self._ids.size - 1)
            hit = self._ids[at] == arcs
            out[hit] = self._values[at[hit]]
        return out

    def full(self) -> np.ndarray:
        """Every capacity, in ``cap``'s type (a new array)."""
        m = self.shape[0]
        out = np.empty(m, dtype=self.dtype)
        for lo in range(0, m, CAP_BLOCK):
            out[lo : lo + CAP_BLOCK] = self._narrow[lo : lo + CAP_BLOCK]
        out[self._ids] = self._values
        return out


@contextmanager
def compacted_caps(net: StringHubNetwork, holder: Any) -> Iterator[Any]:
    """Hold ``net.cap`` narrow (:class:`CompactCaps`) meanwhile, where it pays; made again on
    leaving.

    Parameters
    ----------
    net : StringHubNetwork
        Its ``cap`` is replaced in place (an empty array of its type meanwhile).
    holder : object
        An object whose ``cap`` attribute is ``net.cap`` (a
        :class:`~cpwords.wordsnake.relaxation.assignment.Reoptimizer`): it reads the compact
        capacities meanwhile, and the new array after.

    Yields
    ------
    numpy.ndarray or CompactCaps
        The capacities to read meanwhile (``net.cap`` itself when no narrow type pays).

    Notes
    -----
    Whoever else holds ``net.cap`` keeps it alive: nothing is saved then, and the array made
    again is equal to it.
    """
    cap = net.cap
    narrow = CompactCaps.narrow_type(cap) if holder.cap is cap else None
    if narrow is None:
        yield cap
        return
    compact = CompactCaps(cap, narrow)
    dtype = cap.dtype
    del cap
    holder.cap = compact
    object.__setattr__(net, "cap", np.zeros(0, dtype=dtype))
    try:
        yield compact
    finally:
        full = compact.full()
        del compact
        object.__setattr__(net, "cap", full)
        holder.cap = full
