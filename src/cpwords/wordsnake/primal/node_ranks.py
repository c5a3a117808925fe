"""How many marked nodes come before each node, held in about a byte a node.

The repair's candidate index asks, hundreds of thousands of times, how many word nodes of the
trie come before a node (preorder ids): a count of every node in 32 bits was 0.1 GB held through
the repair on 977,555 31-mers of C. elegans (23 million trie nodes). Held here as the count at
every :data:`RANK_BLOCK`-th node and, for each node, the count since its block's first (a byte).
"""

from __future__ import annotations

import numpy as np

#: Nodes a block: the count within a block fits a byte.
RANK_BLOCK = 256

#: Nodes counted at a time while building (their 32-bit counts stay small).
BUILD_CHUNK = RANK_BLOCK << 12


class NodeRanks:
    """The number of marked nodes before each node (nodes ``0`` to ``size``, both included).

    Parameters
    ----------
    size : int
        The number of nodes.
    marked : numpy.ndarray of int, shape (k,)
        The marked nodes (distinct, ``0 <= v < size``).

    Examples
    --------
    >>> ranks = NodeRanks(6, np.array([1, 4]))
    >>> [ranks.before(v) for v in range(7)]
    [0, 0, 1, 1, 1, 2, 2]
    """

    def __init__(self, size: int, marked: np.ndarray) -> None:
        step = np.zeros(size + 1, dtype=np.uint8)  # step[v + 1]: v is marked
        step[np.asarray(marked, dtype=np.int64) + 1] = 1
        self._block = np.zeros((size + RANK_BLOCK) // RANK_BLOCK, dtype=np.int64)
        carry = 0
        for lo in range(0, size + 1, BUILD_CHUNK):
            part = step[lo : lo + BUILD_CHUNK]
            counts = np.cumsum(part, dtype=np.int64)
            counts += carry
            carry = int(counts[-1])
            firsts = counts[::RANK_BLOCK]
            self._block[lo // RANK_BLOCK : lo // RANK_BLOCK + firsts.shape[0]] = firsts
            counts -= np.repeat(firsts, RANK_BLOCK)[: counts.shape[0]]
            part[:] = counts  # below RANK_BLOCK: the count since the block's first node
        self._local = step

    def before(self, v: int) -> int:
        """The number of marked nodes below ``v`` (``0 <= v <= size``).

        Parameters
        ----------
        v : int

        Returns
        -------
        int
        """
        return self._block.item(v // RANK_BLOCK) + self._local.item(v)
