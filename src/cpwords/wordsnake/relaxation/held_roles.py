"""A network's arc roles held by parts: one role for each part of its arcs that has one.

The string-hub network's arcs come in parts, most of one role each (the split arcs, the
deliveries, the hand-overs, the flat arcs ...; :class:`~.string_hub.ArcLayout`); only the private
chains' arcs mix roles. So the roles are held as the parts' bounds and roles, and the roles of
the mixed parts as they are (:class:`HeldRoles`): on 977,555 31-mers of C. elegans, a few bytes
instead of 68 million (65 MiB held through the whole solve).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cpwords.wordsnake.relaxation.int_types import as_ids

#: The role type.
ROLE_TYPE = np.int8


class HeldRoles:
    """Arc roles by parts, read as an int8 array of them.

    Parameters
    ----------
    sizes : sequence of int
        The arcs of each part, in arc order.
    roles : sequence of int or numpy.ndarray
        Each part's role (one for all its arcs), or its arcs' roles.

    Attributes
    ----------
    dtype : numpy.dtype
        int8.

    Notes
    -----
    Indexing by a slice, an array of arc ids or a mask returns the roles (int8) an array of
    them would; ``roles == r`` and ``roles != r`` the masks of every arc. The ``shape``
    attribute is ``(m,)``, the arcs, as an array's.

    Examples
    --------
    >>> roles = HeldRoles([2, 3, 2], [5, np.array([1, 2, 1]), 7])
    >>> roles[:].tolist(), roles[np.array([6, 3, 0])].tolist(), (roles == 1).tolist()
    ([5, 5, 1, 2, 1, 7, 7], [7, 2, 5], [False, False, True, False, True, False, False])
    """

    def __init__(self, sizes: Any, roles: Any) -> None:
        starts = np.zeros(len(sizes) + 1, dtype=np.int64)
        np.cumsum(np.asarray(sizes, dtype=np.int64), out=starts[1:])
        self.shape = (int(starts[-1]),)
        self.dtype = np.dtype(ROLE_TYPE)
        self._starts = starts
        self._one = np.array([r if np.isscalar(r) else -1 for r in roles], dtype=np.int64)
        explicit = [np.asarray(r, dtype=ROLE_TYPE) for r in roles if not np.isscalar(r)]
        self._mixed = np.concatenate(explicit) if explicit else np.zeros(0, dtype=ROLE_TYPE)
        sizes_mixed = np.where(self._one < 0, np.diff(starts), 0)
        self._mixed_at = np.cumsum(sizes_mixed) - sizes_mixed  # each part's first in _mixed

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            lo, hi, step = key.indices(self.shape[0])
            if step != 1:
                return self[np.arange(lo, hi, step)]
            return self._range(lo, max(lo, hi))
        if isinstance(key, (int, np.integer)):
            return self[np.array([key])][0]
        arcs = as_ids(key)
        part = np.searchsorted(self._starts, arcs, side="right") - 1
        out = self._one[part].astype(ROLE_TYPE)
        mixed = self._one[part] < 0
        if mixed.any():
            p = part[mixed]
            out[mixed] = self._mixed[self._mixed_at[p] + arcs[mixed] - self._starts[p]]
        return out

    def _range(self, lo: int, hi: int) -> np.ndarray:
        """The roles of the arcs ``lo .. hi - 1``."""
        out = np.empty(hi - lo, dtype=ROLE_TYPE)
        first = int(np.searchsorted(self._starts, lo, side="right")) - 1
        for p in range(max(first, 0), self._one.shape[0]):
            a, b = max(int(self._starts[p]), lo), min(int(self._starts[p + 1]), hi)
            if a >= hi:
                break
            if a >= b:
                continue
            if self._one[p] >= 0:
                out[a - lo : b - lo] = self._one[p]
            else:
                at = int(self._mixed_at[p]) - int(self._starts[p])
                out[a - lo : b - lo] = self._mixed[at + a : at + b]
        return out

    def __eq__(self, role: object) -> np.ndarray:  # type: ignore[override]
        value = np.asarray(role)
        out = np.empty(self.shape[0], dtype=bool)
        for p in range(self._one.shape[0]):
            a, b = int(self._starts[p]), int(self._starts[p + 1])
            if self._one[p] >= 0:
                out[a:b] = self._one[p] == value
            else:
                at = int(self._mixed_at[p])
                np.equal(self._mixed[at : at + b - a], value, out=out[a:b])
        return out

    def __ne__(self, role: object) -> np.ndarray:  # type: ignore[override]
        return ~(self == role)

    __hash__ = None  # type: ignore[assignment]

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        """Every role as an array (for NumPy's functions)."""
        full = self._range(0, self.shape[0])
        return full if dtype is None else full.astype(dtype, copy=False)
