"""Each hub node's representative item, held as the nodes that have one (a flow's support).

A decoded flow names one item whose unit passed each node, -1 where none did: read by the
Lagrangian's cuts only, and most nodes carry no flow (977,555 31-mers of C. elegans: 26 M nodes,
a 0.1 GB array held through the repair and the proof). Held here as the nodes that have an item
and their items; the whole array is made when asked for.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpwords.wordsnake.relaxation.int_types import id_type


@dataclass(frozen=True)
class NodeReps:
    """A node-indexed array of items, -1 almost everywhere, held as its other entries.

    Attributes
    ----------
    size : int
        Entries of the whole array (the network's nodes).
    nodes : numpy.ndarray of int32 (int64 past 2**31 nodes), shape (k,)
        The entries other than -1, ascending.
    items : numpy.ndarray, shape (k,)
        Their values, of the whole array's type.
    """

    size: int
    nodes: np.ndarray
    items: np.ndarray

    @classmethod
    def of(cls, full: np.ndarray) -> NodeReps:
        """The entries of ``full`` other than -1.

        Parameters
        ----------
        full : numpy.ndarray of int, shape (n,)
            A node-indexed array of items, -1 where a node has none.

        Returns
        -------
        NodeReps
            ``full``, whose :meth:`array` equals it (values and type).
        """
        nodes = np.flatnonzero(full != -1).astype(id_type(full.size))
        return cls(full.size, nodes, full[nodes])

    @classmethod
    def written(
        cls,
        size: int,
        dtype: type[np.signedinteger],
        nodes: np.ndarray,
        items: np.ndarray,
        block: tuple[int, np.ndarray],
    ) -> NodeReps:
        """The array of ``size`` entries, all -1, after ``array[nodes] = items`` and then
        ``array[lo : lo + len(over)] = over`` for ``block = (lo, over)``, as :meth:`of` would
        hold it: made without the whole array (977,555 31-mers of C. elegans: 0.1 GB held
        through the decoding's cycle merging, its peak).

        Parameters
        ----------
        size : int
        dtype : numpy scalar type
            The whole array's type.
        nodes : numpy.ndarray of int, shape (k,)
            Distinct nodes, ascending.
        items : numpy.ndarray of int, shape (k,)
        block : tuple of (int, numpy.ndarray)
            The first node of a run of nodes written last, and their items.

        Returns
        -------
        NodeReps
            Equal to ``NodeReps.of`` of the array so written.
        """
        lo, over = block
        hi = lo + over.shape[0]
        below, above = nodes < lo, nodes >= hi
        at = np.concatenate([nodes[below], np.arange(lo, hi, dtype=np.int64), nodes[above]])
        values = np.concatenate([items[below], over, items[above]]).astype(dtype)
        kept = values != -1
        return cls(size, at[kept].astype(id_type(size)), values[kept])

    @classmethod
    def none(cls, size: int, dtype: type[np.signedinteger]) -> NodeReps:
        """An array of ``size`` entries, all -1, of type ``dtype``."""
        return cls(size, np.zeros(0, dtype=np.int32), np.zeros(0, dtype=dtype))

    def array(self) -> np.ndarray:
        """The whole array (made anew at each call).

        Returns
        -------
        numpy.ndarray, shape (size,)
            The items' type; -1 at the nodes not in :attr:`nodes`.
        """
        out = np.full(self.size, -1, dtype=self.items.dtype)
        out[self.nodes] = self.items
        return out
