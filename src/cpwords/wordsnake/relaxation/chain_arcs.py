"""The private border chains' arcs, assembled in array passes (for
:func:`~cpwords.wordsnake.relaxation.string_hub.build_string_network`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpwords.wordsnake.relaxation.sorting import stable_order


@dataclass
class ChainPositions:
    """The private chains' positions (one a depth of each chain, chains word after word):
    whether the path node is a word, that word (-1: none), each position's chained word (its
    rank), its node and ``+`` node, its next node and whether it has one.

    Attributes
    ----------
    is_word, has_next : numpy.ndarray of bool, shape (P,)
    pword, pos_word, c_node, c_plus, nxt : numpy.ndarray of int64, shape (P,)
    """

    is_word: np.ndarray
    pword: np.ndarray
    pos_word: np.ndarray
    c_node: np.ndarray
    c_plus: np.ndarray
    nxt: np.ndarray
    has_next: np.ndarray


def chain_arcs(
    in_n: np.ndarray,
    mult: np.ndarray,
    k: np.ndarray,
    p: ChainPositions,
    others: np.ndarray,
    row: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The private chains' arcs, word after word: its ``+`` nodes' deliveries and links
    (block 0), then each position's arcs on (block 1), the other children of its path node in
    letter order, then the next position.

    Parameters
    ----------
    in_n : numpy.ndarray of int, shape (W,)
        Each word's entry node.
    mult : numpy.ndarray of int, shape (W,)
        Each word's copies.
    k : numpy.ndarray of int, shape (C,)
        Each chained word's copies.
    p : ChainPositions
        Its arrays are let go as they are read (``p`` is spent after).
    others : numpy.ndarray of int, shape (O,)
        The other children of the positions' path nodes, in letter order, position after
        position.
    row : numpy.ndarray of int, shape (O,)
        The position of each.

    Returns
    -------
    tails, heads, caps : numpy.ndarray, shape (A,)
    deliver : numpy.ndarray of bool, shape (A,)
        The deliveries (the others: chain arcs).

    Notes
    -----
    Each array is let go once read: on 977,555 31-mers of C. elegans (3.2 million positions,
    6 million arcs) the temporaries held to the end were 0.35 GB of the network build's peak.
    """
    plus_at = np.repeat(np.flatnonzero(p.is_word), 2)
    deliver = np.tile(np.array([True, False]), plus_at.size // 2)  # then the link to c_plus
    plus_heads = np.where(deliver, in_n[np.maximum(p.pword[plus_at], 0)], p.c_plus[plus_at])
    rows = row.size
    on_at = np.concatenate([row, np.flatnonzero(p.has_next)])
    del row
    on_order = stable_order(2 * on_at + (np.arange(on_at.size) >= rows), compact=True)
    on_at = on_at[on_order]
    on_heads = np.concatenate([others, p.nxt[p.has_next]])[on_order]
    del on_order, others
    p.nxt = p.has_next = p.is_word = np.zeros(0, dtype=bool)
    at = np.concatenate([plus_at, on_at])
    block = np.repeat(np.array([0, 1], dtype=np.int8), [plus_at.size, on_at.size])
    ons = on_at.size
    del on_at, plus_at
    arc_order = stable_order(2 * p.pos_word[at] + block, compact=True)
    at, block = at[arc_order], block[arc_order]
    heads = np.concatenate([plus_heads, on_heads])[arc_order]
    del plus_heads, on_heads
    deliver = np.concatenate([deliver, np.zeros(ons, dtype=bool)])[arc_order]
    del arc_order
    tails = np.where(block == 0, p.c_node[at], p.c_plus[at])
    del block
    caps = np.where(deliver, mult[np.maximum(p.pword[at], 0)], k[p.pos_word[at]])
    return tails, heads, caps, deliver
