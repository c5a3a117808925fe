"""A network's arcs gathered part by part as its build adds them, written into its arrays at
the end (:func:`~cpwords.wordsnake.relaxation.string_hub.build_string_network`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cpwords.core.machine import give_back_freed_memory
from cpwords.wordsnake.relaxation.compact_caps import CompactCaps, narrowest
from cpwords.wordsnake.relaxation.held_roles import HeldRoles

#: Bytes of arc parts let go by :meth:`ArcParts.arrays` between two returns of their pages to the
#: kernel (:func:`~cpwords.core.machine.give_back_freed_memory`).
GIVE_BACK_BYTES = 64 << 20

#: Arcs added together: tails, heads, capacities, weights and roles (each of the last three an
#: array or one number for all).
_ArcPart = tuple[np.ndarray, np.ndarray, np.ndarray | int, np.ndarray | int, np.ndarray | int]


@dataclass
class ArcParts:
    """Arc arrays in the order they are added, each part narrowed to the network's types as it
    comes (written once into the network's arrays, at the end: a capacity, weight or role
    given as one number is not expanded before).

    Attributes
    ----------
    ids, caps, weights : type
        The network's types of node ids, capacities and weights (:func:`~.string_hub.arc_dtypes`).
    parts : list of tuple
        Each part's tails, heads, capacities, weights and roles (the last three an array or one
        number for all).
    size : int
        The arcs added so far.
    """

    ids: type[np.signedinteger]
    caps: type[np.signedinteger]
    weights: type[np.signedinteger]
    parts: list[_ArcPart] = field(default_factory=list)
    size: int = 0  # the arcs added so far

    def add(
        self,
        t: np.ndarray,
        h: np.ndarray,
        c: np.ndarray | int,
        w: np.ndarray | int,
        r: np.ndarray | int,
    ) -> None:
        """Append the arcs ``t -> h`` with capacities ``c``, weights ``w`` and roles ``r``."""
        t = np.asarray(t).astype(self.ids, copy=False)
        h = np.asarray(h).astype(self.ids, copy=False)
        if isinstance(c, np.ndarray):
            c = c.astype(self.caps, copy=False)
        if isinstance(w, np.ndarray):
            w = w.astype(self.weights, copy=False)
        self.parts.append((t, h, c, w, r))
        self.size += t.shape[0]

    @property
    def heads(self) -> list[np.ndarray]:
        """The heads of each part."""
        return [part[1] for part in self.parts]

    def arrays(self) -> tuple[np.ndarray, np.ndarray, CompactCaps, np.ndarray, HeldRoles]:
        """Tails, heads, capacities (held narrow: :class:`CompactCaps`), weights and roles
        (held by parts: :class:`HeldRoles`) of every arc; the parts are let go column by
        column as they are written (the network's peak: the arrays and the parts not written;
        the whole Polish dictionary's flat arcs are 0.3 GB a column)."""
        m = sum(part[0].shape[0] for part in self.parts)
        narrow = narrowest(self.caps, m, self._caps_over) or self.caps
        top = int(np.iinfo(narrow).max)
        types = (self.ids, self.ids, narrow, self.weights)
        out = [np.empty(m, dtype=dtype) for dtype in types]
        big: list[tuple[np.ndarray, np.ndarray]] = []  # the capacities past ``narrow``
        sizes: list[int] = []  # each part's arcs and roles (held by parts: HeldRoles)
        roles: list[np.ndarray | int] = []
        at = freed = 0
        self.parts.reverse()
        while self.parts:
            part = self.parts.pop()
            k = part[0].shape[0]
            columns: list[np.ndarray | int | None] = list(part)
            del part
            big.append(_capped(columns[2], out[2][at : at + k], at, top, self.caps))
            sizes.append(k)
            role = columns[4]
            assert role is not None
            roles.append(role if isinstance(role, np.ndarray) else int(role))
            for i, column in enumerate(out):
                if i != 2:  # the capacities: written by ``_capped``
                    column[at : at + k] = columns[i]
                freed += getattr(columns[i], "nbytes", 0)
                columns[i] = None  # let this column go before the next is written
            at += k
            if freed >= GIVE_BACK_BYTES:  # the parts' pages, held by the allocator otherwise
                give_back_freed_memory()
                freed = 0
        give_back_freed_memory()
        tail, head, narrow_cap, weight = out
        ids = np.concatenate([b[0] for b in big] or [np.zeros(0, dtype=np.int64)])
        values = np.concatenate([b[1] for b in big] or [np.zeros(0, dtype=self.caps)])
        return (
            tail,
            head,
            CompactCaps.held(narrow_cap, ids, values, np.dtype(self.caps)),
            weight,
            HeldRoles(sizes, roles),
        )

    def _caps_over(self, top: int) -> int:
        """How many arcs have a capacity above ``top``."""
        return sum(
            int(np.count_nonzero(c > top)) if isinstance(c, np.ndarray) else t.shape[0] * (c > top)
            for t, _, c, _, _ in self.parts
        )


def _capped(
    c: np.ndarray | int | None, out: np.ndarray, at: int, top: int, dtype: type
) -> tuple[np.ndarray, np.ndarray]:
    """Write the capacities ``c`` (an array, or one for all) of the arcs from ``at`` on into
    ``out`` (their narrow column), each at most ``top``; return the arcs whose capacity is
    above (ids) and those capacities in ``dtype``."""
    k = out.shape[0]
    if isinstance(c, np.ndarray):
        np.minimum(c, top, out=out, casting="unsafe")
        over = np.flatnonzero(c > top)
        return over + at, c[over].astype(dtype)
    assert c is not None
    out[:] = min(c, top)
    n = k if c > top else 0
    return np.arange(at, at + n, dtype=np.int64), np.full(n, c, dtype=dtype)
