"""A network's capacities held narrow, and a greedy proof's flow held so while its residual
network peaks.

Most arcs of a network carry a word's copies (1 for a list without repeats); only the split arcs
and the root link have the number of items as their capacity. The capacities are read a block at
a time (a residual network's build) or for a few arcs (a cancelled cycle's, an arc's end), so
the network holds them as the narrowest type most of them fit, the others kept aside by arc id
(:class:`CompactCaps`, written so by the network's build): 977,555 31-mers of C. elegans, 68
million arcs, hold 8 bits an arc and a million exceptions instead of 32 bits an arc (0.26 ->
0.08 GB through the whole solve). The flow a greedy proof makes optimal is held the same way
while its residual network is built and swept (:func:`compacted_flows`: the most units an arc
carries is its capacity), its few changed arcs written with :meth:`CompactCaps.put`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from cpwords.core.interrupts import made_again
from cpwords.wordsnake.relaxation.int_types import as_ids

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
    Indexing by a slice, an array of arc ids or a mask returns the capacities in ``cap``'s
    type, equal to ``cap``'s (those left aside looked up by a binary search of their ids); the
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

    @classmethod
    def held(
        cls, narrow: np.ndarray, ids: np.ndarray, values: np.ndarray, dtype: np.dtype
    ) -> CompactCaps:
        """Capacities already split: ``narrow`` (at most its type's largest value each), the
        arcs left aside (ascending) and their values in ``dtype``. A ``narrow`` of one value
        throughout is held as that value (a read-only view: made whole on a first :meth:`put`).

        Parameters
        ----------
        narrow : numpy.ndarray, shape (m,)
        ids : numpy.ndarray of int64, shape (k,)
        values : numpy.ndarray of ``dtype``, shape (k,)
        dtype : numpy.dtype

        Returns
        -------
        CompactCaps
        """
        out = cls.__new__(cls)
        out.dtype, out.shape = np.dtype(dtype), narrow.shape
        out._narrow, out._ids, out._values = narrow, ids.astype(np.int64), values.astype(dtype)
        out._narrow = _one_value(narrow, out._ids)
        return out

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

        def over(top: int) -> int:
            return sum(
                int(np.count_nonzero(cap[lo : lo + CAP_BLOCK] > top))
                for lo in range(0, cap.shape[0], CAP_BLOCK)
            )

        return narrowest(cap.dtype, cap.shape[0], over)

    def __getitem__(self, key: Any) -> np.ndarray:
        if isinstance(key, slice):
            lo, hi, step = key.indices(self.shape[0])
            if step != 1:
                return self[np.arange(lo, hi, step)]
            out = self._narrow[lo:hi].astype(self.dtype)
            a, b = np.searchsorted(self._ids, [lo, hi])
            out[self._ids[a:b] - lo] = self._values[a:b]
            return out
        arcs = as_ids(key)
        out = self._narrow[arcs].astype(self.dtype)
        if self._ids.size:
            at = np.minimum(np.searchsorted(self._ids, arcs), self._ids.size - 1)
            hit = self._ids[at] == arcs
            out[hit] = self._values[at[hit]]
        return out

    def put(self, arcs: np.ndarray, values: np.ndarray) -> None:
        """Set the values of some arcs (distinct ids), as ``array[arcs] = values`` would.

        Parameters
        ----------
        arcs : numpy.ndarray of int, shape (k,)
            Distinct arc ids.
        values : numpy.ndarray of int, shape (k,)
            Non-negative values, within ``dtype``.

        Notes
        -----
        A value past the narrow type joins the arcs left aside (a new sorted copy of their ids
        and values: a few arcs a cycle cancelled); an arc left aside keeps its place there.
        """
        arcs = np.asarray(arcs, dtype=np.int64)
        values = np.asarray(values, dtype=np.int64)
        if not self._narrow.flags.writeable:  # one value for all (:func:`_one_value`)
            self._narrow = np.array(self._narrow)
        top = int(np.iinfo(self._narrow.dtype).max)
        self._narrow[arcs] = np.minimum(values, top)
        at = np.minimum(np.searchsorted(self._ids, arcs), max(self._ids.size - 1, 0))
        kept = self._ids[at] == arcs if self._ids.size else np.zeros(arcs.size, dtype=bool)
        self._values[at[kept]] = values[kept]
        new = ~kept & (values > top)
        if new.any():
            ids = np.concatenate([self._ids, arcs[new]])
            order = np.argsort(ids, kind="stable")
            self._ids = ids[order]
            self._values = np.concatenate([self._values, values[new].astype(self.dtype)])[order]

    def add_at(self, arcs: np.ndarray, delta: int) -> None:
        """Add ``delta`` to the value of each arc, once a time it is named (``numpy.add.at``).

        Parameters
        ----------
        arcs : numpy.ndarray of int, shape (k,)
            Arc ids, maybe repeated.
        delta : int
            Negative to subtract; no value may fall below 0 nor leave ``dtype``.
        """
        ids, times = np.unique(np.asarray(arcs, dtype=np.int64), return_counts=True)
        if ids.size:
            self.put(ids, self[ids].astype(np.int64) + times * int(delta))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        """Every capacity as an array (:meth:`full`; for NumPy's functions, where a network's
        whole capacities are wanted at once)."""
        return self.full() if dtype is None else self.full().astype(dtype, copy=False)

    def full(self) -> np.ndarray:
        """Every capacity, in ``cap``'s type (a new array)."""
        m = self.shape[0]
        out = np.empty(m, dtype=self.dtype)
        for lo in range(0, m, CAP_BLOCK):
            out[lo : lo + CAP_BLOCK] = self._narrow[lo : lo + CAP_BLOCK]
        out[self._ids] = self._values
        return out


def _one_value(narrow: np.ndarray, aside: np.ndarray) -> np.ndarray:
    """``narrow`` itself, or, when every entry but those of the arcs ``aside`` (ascending: read
    from their own values) is the same, that value as a read-only view of the whole shape (no
    memory a value: a list without repeated words has the capacity 1 on every arc but the
    split arcs and the root link, 68 MB through the whole solve of 977,555 31-mers of C.
    elegans)."""
    m = narrow.shape[0]
    free = np.ones(min(m, aside.shape[0] + 1), dtype=bool)
    free[aside[aside < free.shape[0]]] = False
    if not free.any():  # the first arc not aside is among the first ones
        return narrow
    first = narrow[int(np.argmax(free)) : int(np.argmax(free)) + 1].copy()
    for lo in range(0, m, CAP_BLOCK):
        other = np.flatnonzero(narrow[lo : lo + CAP_BLOCK] != first[0]) + lo
        at = np.minimum(np.searchsorted(aside, other), max(aside.shape[0] - 1, 0))
        if other.size and not (aside.size and (aside[at] == other).all()):
            return narrow
    return np.broadcast_to(first, narrow.shape)


@contextmanager
def compacted_flows(holder: Any) -> Iterator[Any]:
    """Hold ``holder.units`` narrow (:class:`CompactCaps`) meanwhile, where it pays; made
    again on leaving, with the changes made meanwhile.

    Parameters
    ----------
    holder : object
        An object whose ``units`` attribute is a flow (a
        :class:`~cpwords.wordsnake.relaxation.assignment.Reoptimizer` in its greedy proof): it
        reads and changes the compact flow meanwhile (:meth:`CompactCaps.put`), and holds the
        new array after.

    Yields
    ------
    numpy.ndarray or CompactCaps
        The flow meanwhile (the array itself when no narrow type pays).

    Notes
    -----
    The array is not changed in place meanwhile: whoever else holds it reads the flow as it
    was (and keeps it alive: nothing is saved then). A stop that leaves by
    :class:`~cpwords.core.interrupts.LeftUnmade` leaves the compact flow in place.
    """
    flows = holder.units
    narrow = CompactCaps.narrow_type(flows) if isinstance(flows, np.ndarray) else None
    if narrow is None:
        yield flows
        return
    compact = CompactCaps(flows, narrow)
    del flows
    holder.units = compact
    del compact  # the holder's alone: let go as the flow is made whole again

    def remake() -> None:
        holder.units = holder.units.full()

    with made_again(remake):
        yield holder.units


def narrowest(
    dtype: np.dtype | type, m: int, over: Callable[[int], int]
) -> type[np.signedinteger] | None:
    """The narrowest type (int8 or int16) narrower than ``dtype`` past whose largest value at
    most :data:`EXCEPTION_SHARE` of ``m`` values lie, or None.

    Parameters
    ----------
    dtype : numpy.dtype or type
        The values' type.
    m : int
        How many values.
    over : callable
        ``over(top)``: how many values lie above ``top``.

    Returns
    -------
    type or None

    Examples
    --------
    >>> values = np.array([1, 2, 300, 1] * 8, dtype=np.int32)
    >>> narrowest(values.dtype, 32, lambda top: int((values > top).sum())).__name__
    'int16'
    """
    for narrow in (np.int8, np.int16):
        if np.dtype(narrow).itemsize >= np.dtype(dtype).itemsize:
            return None
        if over(int(np.iinfo(narrow).max)) <= EXCEPTION_SHARE * m:
            return narrow
    return None
