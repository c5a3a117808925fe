"""The repair's suffix records: each hand-over arc from a word's exit to the hub of one of its
suffixes, as (trie node of the suffix, word), in arc order
(:class:`~cpwords.wordsnake.primal.repair.CandidateIndex`).

They are the network's full and shared hand-overs, a stretch of its arcs
(:class:`~cpwords.wordsnake.relaxation.string_hub.ArcLayout`): read off its arc ends a block at a
time instead of copied (two 32-bit arrays a record, 0.22 GB held through the repair on 977,555
31-mers of C. elegans' 29 million records). A network whose records are not that stretch has
them copied, as they were.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from cpwords.wordsnake.relaxation.string_hub import HANDOVER, StringHubNetwork

#: Arcs (records) read at a time (the masks and gathers stay this small).
RECORD_BLOCK = 1 << 20


class SuffixRecords:
    """The suffix records of a network, in arc order.

    Parameters
    ----------
    net : StringHubNetwork
    word_node : numpy.ndarray of int64, shape (W,)
        Each word's trie node.

    Attributes
    ----------
    size : int
        The number of records.

    Notes
    -----
    A record is a hand-over arc from an exit whose head is a trie node ``H(s)`` (the node
    ``s``) or a word's hub ``H+(w)`` (the word's node), not the root; hand-overs into private
    chains are left out.
    """

    def __init__(self, net: StringHubNetwork, word_node: np.ndarray) -> None:
        self.net = net
        self._word_node = word_node
        self._span = _record_span(net, word_node)
        self._nodes: np.ndarray | None = None
        self._words: np.ndarray | None = None
        if self._span is None:
            self._nodes, self._words = _copied_records(net, word_node)
            self.size = int(self._nodes.size)
        else:
            self.size = self._span[1] - self._span[0]

    def at(self, sel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The trie nodes and words of the records ``sel`` (positions).

        Parameters
        ----------
        sel : numpy.ndarray of int

        Returns
        -------
        nodes, words : numpy.ndarray of int32 (the network's id type)
        """
        if self._span is None:
            assert self._nodes is not None and self._words is not None
            return self._nodes[sel], self._words[sel]
        arcs = np.asarray(sel, dtype=np.int64) + self._span[0]
        net = self.net
        return _head_nodes(net, net.head[arcs], self._word_node), net.tail[arcs] - net.out_base

    def blocks(self, size: int | None = None) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        """The records a block at a time: its first position, nodes and words.

        Parameters
        ----------
        size : int, optional
            Records a block (:data:`RECORD_BLOCK` when None).

        Yields
        ------
        tuple of (int, numpy.ndarray, numpy.ndarray)
        """
        step = RECORD_BLOCK if size is None else size
        for a in range(0, self.size, step):
            b = min(a + step, self.size)
            if self._span is None:
                yield (a, *self.at(np.arange(a, b)))
                continue
            lo, net = self._span[0], self.net
            h, t = net.head[lo + a : lo + b], net.tail[lo + a : lo + b]
            yield a, _head_nodes(net, h, self._word_node), t - net.out_base

    def release(self) -> None:
        """Let the records go (none is read after)."""
        self.size = 0
        self._span = None
        self._nodes = np.zeros(0, dtype=np.int32)
        self._words = np.zeros(0, dtype=np.int32)


def _head_nodes(net: StringHubNetwork, h: np.ndarray, word_node: np.ndarray) -> np.ndarray:
    """The trie node each hand-over head stands for: ``H(s)`` is ``s``, ``H+(w)`` the word's
    node, any other -1."""
    T, W = net.trie.size, net.num_words
    node = np.where(h < T, h, -1)
    plus = (h >= T) & (h < T + W)
    node[plus] = word_node[h[plus] - T]
    return node


def _is_record(net: StringHubNetwork, a: int, b: int, word_node: np.ndarray) -> np.ndarray:
    """Which of the arcs ``a .. b - 1`` are records."""
    t = net.tail[a:b]
    mask = (net.role[a:b] == HANDOVER) & (t >= net.out_base) & (t < net.in_base)
    mask &= _head_nodes(net, net.head[a:b], word_node) > 0
    return mask


def _record_span(net: StringHubNetwork, word_node: np.ndarray) -> tuple[int, int] | None:
    """``(lo, hi)`` when the records are exactly the arcs ``lo .. hi - 1`` (the full and
    shared hand-overs), else None; one pass over the arcs, a block at a time."""
    lo, hi = net.layout.full, net.layout.self_arcs
    for a in range(0, net.m, RECORD_BLOCK):
        b = min(a + RECORD_BLOCK, net.m)
        mask = _is_record(net, a, b, word_node)
        inside = (np.arange(a, b) >= lo) & (np.arange(a, b) < hi)
        if not np.array_equal(mask, inside):
            return None
    return lo, hi


def _copied_records(net: StringHubNetwork, word_node: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The records as two arrays (nodes, words), :data:`RECORD_BLOCK` arcs at a time."""
    nodes, words = [], []
    for a in range(0, net.m, RECORD_BLOCK):
        sel = np.flatnonzero(_is_record(net, a, a + RECORD_BLOCK, word_node)) + a
        nodes.append(_head_nodes(net, net.head[sel], word_node))
        words.append(net.tail[sel] - net.out_base)
    if not nodes:
        return np.zeros(0, dtype=net.head.dtype), np.zeros(0, dtype=net.tail.dtype)
    return np.concatenate(nodes), np.concatenate(words)
