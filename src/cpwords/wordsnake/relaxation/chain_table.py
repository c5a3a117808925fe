"""The private border chains of a string-hub network as arrays, each chain read when asked.

:attr:`~cpwords.wordsnake.relaxation.string_hub.StringHubNetwork.chains` lists, for every word
with a private chain, the chain's nodes along the word's trie path. Held as Python lists (two
integers a position) they took 105 MB of the 391,751 31-mers of C. elegans (1.3 million
positions); as two arrays in the network's id type, 10 MB, and the few chains a route goes
through are made lists when read.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class ChainTable:
    """Each chained word's chain: ``get(word)`` is ``(top, c_nodes, c_plus)``.

    Attributes
    ----------
    words : numpy.ndarray of int64, shape (k,)
        The chained words, ascending.
    top : numpy.ndarray of int64, shape (k,)
        The trie depth of each chain's first position (its word's shortest border).
    start : numpy.ndarray of int64, shape (k + 1,)
        Where each chain's positions start in ``c_node`` and ``c_plus`` (one position a depth
        ``top .. len(word) - 1``), then where the last one ends.
    c_node, c_plus : numpy.ndarray of int32 or int64, shape (positions,)
        The chain's node at each position, and the ``+`` node after it (``c_node`` where the
        path node is not a word).

    Examples
    --------
    >>> t = ChainTable.of(
    ...     np.array([4]), np.array([2]), np.array([0]), np.array([2]),
    ...     np.array([10, 11]), np.array([10, 12]),
    ... )
    >>> t.get(4), t.get(3), len(t)
    ((2, [10, 11], [10, 12]), None, 1)
    """

    words: np.ndarray
    top: np.ndarray
    start: np.ndarray
    c_node: np.ndarray
    c_plus: np.ndarray

    @classmethod
    def of(
        cls,
        words: np.ndarray,
        top: np.ndarray,
        start: np.ndarray,
        size: np.ndarray,
        c_node: np.ndarray,
        c_plus: np.ndarray,
    ) -> ChainTable:
        """The table of chains given by their words (ascending), tops, first positions and
        sizes (positions ``start .. start + size - 1`` of ``c_node`` and ``c_plus``, one chain
        after another); the node ids kept in 32 bits where they fit.

        Parameters
        ----------
        words, top : numpy.ndarray of int, shape (chains,)
            Each chain's word (distinct-word id, ascending) and the trie depth of its first
            position.
        start, size : numpy.ndarray of int, shape (chains,)
            Each chain's first position in ``c_node`` / ``c_plus`` and its length (the chains
            one after another: ``start[k + 1] == start[k] + size[k]``).
        c_node, c_plus : numpy.ndarray of int, shape (>= start[-1] + size[-1],)
            The chains' nodes and their ``+`` nodes, position by position (node ids).

        Returns
        -------
        ChainTable
            Its ``start`` the chains' boundaries (``chains + 1`` entries, the last one the end
            of the last chain), the node ids in int32 when every id is below 2**31, else int64.
        """
        ends = np.append(start, start[-1:] + size[-1:]) if size.size else np.zeros(1, np.int64)
        last = int(ends[-1])
        top_id = max(int(c_node[:last].max(initial=0)), int(c_plus[:last].max(initial=0)))
        ids = np.int32 if top_id < 1 << 31 else np.int64
        return cls(
            np.asarray(words, dtype=np.int64),
            np.asarray(top, dtype=np.int64),
            np.asarray(ends, dtype=np.int64),
            np.asarray(c_node[:last], dtype=ids),
            np.asarray(c_plus[:last], dtype=ids),
        )

    @classmethod
    def empty(cls) -> ChainTable:
        """No chain."""
        none = np.zeros(0, dtype=np.int64)
        return cls(none, none, np.zeros(1, dtype=np.int64), none, none)

    def __eq__(self, other: object) -> bool:
        """The same chains (the same values, whatever the arrays' types)."""
        if not isinstance(other, ChainTable):
            return NotImplemented
        return all(
            np.array_equal(getattr(self, k), getattr(other, k))
            for k in ("words", "top", "start", "c_node", "c_plus")
        )

    __hash__ = None  # type: ignore[assignment]

    def __len__(self) -> int:
        return int(self.words.shape[0])

    def as_dict(self) -> dict[int, tuple[int, list[int], list[int]]]:
        """``{word: get(word)}`` for every chained word."""
        out: dict[int, tuple[int, list[int], list[int]]] = {}
        for w in self.words.tolist():
            chain = self.get(w)
            assert chain is not None
            out[w] = chain
        return out

    def get(self, word: int) -> tuple[int, list[int], list[int]] | None:
        """The chain of ``word`` (``(top, c_nodes, c_plus)``, as lists), or None."""
        i = int(np.searchsorted(self.words, word))
        if i >= self.words.shape[0] or int(self.words[i]) != word:
            return None
        a, b = int(self.start[i]), int(self.start[i + 1])
        return int(self.top[i]), self.c_node[a:b].tolist(), self.c_plus[a:b].tolist()
