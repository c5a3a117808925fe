"""A flow held as the arcs that carry it: the best iterate's flow through the repair, the
certificate and its check.

An optimal flow of the string-hub network carries units on a few arcs a word (its hand-over,
the hub's arc to the next entry, a zero arc): 977,555 31-mers of C. elegans, 68 million arcs,
have some 3 million arcs with flow. The decoding and the flow's cost read only those arcs, and
the certificate reads none (its potentials repaired from the settled ones), so the greedy
proof's flow is held as its support (:class:`SparseFlow`, 4 + 4 bytes an arc with flow)
instead of a whole array (4 bytes an arc: 0.26 GB through the repair and the certificate).
The stages that read the whole flow (a Bellman-Ford of its residual network, the Lagrangian
cuts) make it whole (:func:`dense_flows`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cpwords.wordsnake.relaxation.int_types import as_ids, id_type

#: Arcs read at a time while the support is gathered (the temporaries stay this size).
SUPPORT_BLOCK = 1 << 22


class SparseFlow:
    """A flow as the arcs that carry units, ascending, and their units.

    Parameters
    ----------
    arcs : numpy.ndarray of int32 or int64, shape (k,)
        Ascending arc ids, each with a positive flow.
    units : numpy.ndarray, shape (k,)
        Their flows, in ``dtype``.
    m : int
        Number of arcs of the network.

    Attributes
    ----------
    dtype : numpy.dtype
        The flow's type (``units``'): what indexing returns.

    Notes
    -----
    Indexing by a slice, an array of arc ids or a mask returns the flows there, 0 off the
    support (as the whole array would); :meth:`copy` and ``numpy.asarray`` make the whole
    array, and the ``shape`` attribute is the whole array's, ``(m,)`` (not listed above: the
    documentation's many "shape" would name it).
    """

    def __init__(self, arcs: np.ndarray, units: np.ndarray, m: int) -> None:
        self.arcs = arcs
        self.units = units
        self.dtype = units.dtype
        self.shape = (int(m),)

    @classmethod
    def of(cls, flows: Any) -> SparseFlow:
        """The support of a whole flow (an array, or anything indexed by slices as one).

        Parameters
        ----------
        flows : numpy.ndarray or CompactCaps, shape (m,)
            Non-negative flows.

        Returns
        -------
        SparseFlow

        Examples
        --------
        >>> s = SparseFlow.of(np.array([0, 2, 0, 1], dtype=np.int32))
        >>> s.arcs.tolist(), s.units.tolist(), s[1:4].tolist()
        ([1, 3], [2, 1], [2, 0, 1])
        """
        if isinstance(flows, SparseFlow):
            return flows
        m = int(flows.shape[0])
        ids = id_type(m)
        arcs: list[np.ndarray] = []
        units: list[np.ndarray] = []
        for lo in range(0, m, SUPPORT_BLOCK):
            block = flows[lo : lo + SUPPORT_BLOCK]
            at = np.flatnonzero(block > 0)
            units.append(block[at])
            arcs.append((at + lo).astype(ids))
        dtype = np.asarray(flows[0:0]).dtype
        return cls(
            np.concatenate(arcs) if arcs else np.zeros(0, dtype=ids),
            np.concatenate(units) if units else np.zeros(0, dtype=dtype),
            m,
        )

    def support(self) -> tuple[np.ndarray, np.ndarray]:
        """The arcs that carry units and their flows.

        Returns
        -------
        arcs : numpy.ndarray of int64, shape (k,)
            Ascending arc ids.
        units : numpy.ndarray of ``dtype``, shape (k,)
            Their flows (positive).
        """
        return self.arcs.astype(np.int64), self.units

    def __getitem__(self, key: Any) -> np.ndarray:
        if isinstance(key, slice):
            lo, hi, step = key.indices(self.shape[0])
            if step != 1:
                return self[np.arange(lo, hi, step)]
            out = np.zeros(max(0, hi - lo), dtype=self.dtype)
            a, b = np.searchsorted(self.arcs, [lo, hi])
            out[self.arcs[a:b].astype(np.int64) - lo] = self.units[a:b]
            return out
        ids = as_ids(key)
        out = np.zeros(ids.shape, dtype=self.dtype)
        if self.arcs.size:
            at = np.minimum(np.searchsorted(self.arcs, ids), self.arcs.size - 1)
            hit = self.arcs[at] == ids
            out[hit] = self.units[at[hit]]
        return out

    def full(self) -> np.ndarray:
        """The whole flow.

        Returns
        -------
        numpy.ndarray of ``dtype``, shape (m,)
            A new array, 0 off the support.
        """
        out = np.zeros(self.shape[0], dtype=self.dtype)
        out[self.arcs] = self.units
        return out

    def copy(self) -> np.ndarray:
        """The whole flow as a new array (what ``array.copy()`` gives: it may be changed)."""
        return self.full()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        """The whole flow (:meth:`full`), for NumPy's functions."""
        return self.full() if dtype is None else self.full().astype(dtype, copy=False)


def dense_flows(flows: np.ndarray | SparseFlow) -> np.ndarray:
    """A flow as a whole array (itself when it is one).

    Parameters
    ----------
    flows : numpy.ndarray or SparseFlow, shape (m,)

    Returns
    -------
    numpy.ndarray, shape (m,)
    """
    return flows.full() if isinstance(flows, SparseFlow) else flows


def flow_support(flows: np.ndarray | SparseFlow) -> tuple[np.ndarray, np.ndarray]:
    """The arcs with a positive flow (int64, ascending) and their flows.

    Parameters
    ----------
    flows : numpy.ndarray or SparseFlow, shape (m,)

    Returns
    -------
    arcs : numpy.ndarray of int64, shape (k,)
    units : numpy.ndarray of the flow's type, shape (k,)

    Examples
    --------
    >>> arcs, units = flow_support(np.array([0, 3, 1], dtype=np.int32))
    >>> arcs.tolist(), units.tolist()
    ([1, 2], [3, 1])
    """
    if isinstance(flows, SparseFlow):
        return flows.support()
    sup = np.flatnonzero(flows > 0)
    return sup, flows[sup]
