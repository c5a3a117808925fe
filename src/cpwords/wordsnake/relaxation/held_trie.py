"""A network's trie held small while a stage that reads only its size peaks.

The greedy proof's sweeps read the network's trie for its number of nodes alone, and its
residual network is the solve's largest structure: the trie's parents, subtree ends and each
node's word are let go meanwhile and its depths held in their narrowest type
(:func:`trie_held_small`), all made again after from the depths and the words' nodes, as the
trie's build made them (977,555 31-mers of C. elegans: 20 million nodes, 0.29 GB less at the
greedy proof's peak for about 1.3 s of CPU).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from cpwords.core.interrupts import held_here, made_again
from cpwords.core.machine import give_back_freed_memory
from cpwords.wordsnake.relaxation.int_types import signed_type
from cpwords.wordsnake.relaxation.sorting import stable_order, stable_order_small
from cpwords.wordsnake.relaxation.trie import Trie


@contextmanager
def trie_held_small(trie: Trie) -> Iterator[None]:
    """Let ``trie.parent``, ``trie.end`` and ``trie.node_word`` go and hold ``trie.depth`` in
    its narrowest type meanwhile; made again, equal and of their own types, on leaving.

    Parameters
    ----------
    trie : Trie
        Its arrays are replaced in place (the network's trie is shared by every stage's state):
        meanwhile ``parent``, ``end`` and ``node_word`` are empty, of their own types, and
        ``depth`` holds the same values (so ``trie.size`` is unchanged).

    Notes
    -----
    Whoever holds those arrays elsewhere keeps them alive: nothing is saved then, and the arrays
    made again are equal to them. Ids are in preorder, so a node's parent is the node one
    level up with the largest id below its own (:func:`parents_from_depths`), and its subtree
    ends where its deepest last descendant does (:func:`subtree_ends`). A stop that leaves by
    :class:`~cpwords.core.interrupts.LeftUnmade` leaves them empty.
    """
    depth, kinds = trie.depth, (trie.parent.dtype, trie.end.dtype, trie.node_word.dtype)
    narrow = signed_type(int(depth.max(initial=0)))
    held = depth.astype(narrow) if np.dtype(narrow).itemsize < depth.itemsize else depth
    with held_here():  # a stop cut into neither the letting go nor the making again
        _put(trie, depth=held, parent=np.zeros(0, kinds[0]), end=np.zeros(0, kinds[1]))
        _put(trie, node_word=np.zeros(0, kinds[2]))
    del depth

    def remake() -> None:
        # What the stage freed into the heap's holes goes back first: the arrays made again
        # come on top of it otherwise (C. elegans: the greedy proof's residual network's
        # smaller arrays, 0.15 GB of its end's peak under the command line's allocator).
        give_back_freed_memory()
        with held_here():  # a stop does not cut into the making again
            node_word = np.full(held.shape[0], -1, dtype=kinds[2])
            node_word[trie.word_node] = np.arange(trie.word_node.shape[0], dtype=kinds[2])
            levels = by_levels(held)  # one sort for both
            parent = parents_from_depths(held, levels).astype(kinds[0], copy=False)
            end = subtree_ends(held, parent, levels).astype(kinds[1], copy=False)
            del levels
            _put(trie, depth=held.astype(kinds[0]), parent=parent, end=end, node_word=node_word)

    with made_again(remake):  # not on a stop nothing reads it after (2 s of C. elegans)
        yield


def _put(trie: Trie, **arrays: np.ndarray) -> None:
    """Replace some of a (frozen) trie's arrays in place."""
    for name, array in arrays.items():
        object.__setattr__(trie, name, array)


def parents_from_depths(depth: np.ndarray, levels: list[np.ndarray] | None = None) -> np.ndarray:
    """Each node's parent in a trie numbered in preorder, from the nodes' depths.

    Parameters
    ----------
    depth : numpy.ndarray of int, shape (T,)
        The depths of the nodes in preorder (the root first, at 0).
    levels : list of numpy.ndarray, optional
        :func:`by_levels` of ``depth`` (made here when not given).

    Returns
    -------
    numpy.ndarray of int32 (int64 from ``2**31`` nodes), shape (T,)
        -1 for the root; else the node of depth one less with the largest id below the node's.

    Examples
    --------
    >>> parents_from_depths(np.array([0, 1, 2, 2, 1, 2])).tolist()  # a(b, c), d(e)
    [-1, 0, 1, 1, 0, 4]
    """
    ids = np.int32 if depth.shape[0] < 1 << 31 else np.int64
    parent = np.full(depth.shape[0], -1, dtype=ids)
    for up, level in itertools.pairwise(by_levels(depth) if levels is None else levels):
        parent[level] = up[np.searchsorted(up, level) - 1]
    return parent


def subtree_ends(
    depth: np.ndarray, parent: np.ndarray, levels: list[np.ndarray] | None = None
) -> np.ndarray:
    """The last id of each node's subtree in a trie numbered in preorder.

    Parameters
    ----------
    depth : numpy.ndarray of int, shape (T,)
    parent : numpy.ndarray of int, shape (T,)
        As :func:`parents_from_depths` gives them.
    levels : list of numpy.ndarray, optional
        :func:`by_levels` of ``depth`` (made here when not given).

    Returns
    -------
    numpy.ndarray of int32 (int64 from ``2**31`` nodes), shape (T,)

    Examples
    --------
    >>> depth = np.array([0, 1, 2, 2, 1, 2])
    >>> subtree_ends(depth, parents_from_depths(depth)).tolist()
    [5, 3, 2, 3, 5, 5]
    """
    end = np.arange(depth.shape[0], dtype=np.int32 if depth.shape[0] < 1 << 31 else np.int64)
    for level in reversed((by_levels(depth) if levels is None else levels)[1:]):
        # A level's parents ascend with it (preorder), and a node's subtree ends with its
        # last child's: each run of one parent's children gives its last end.
        up = parent[level]
        last = np.flatnonzero(up[1:] != up[:-1])
        end[up[last]] = end[level[last]]
        if level.shape[0]:
            end[up[-1]] = end[level[-1]]
    return end


def by_levels(depth: np.ndarray) -> list[np.ndarray]:
    """The node ids of each depth, ascending (views of one 32-bit sort of the ids by depth).

    Parameters
    ----------
    depth : numpy.ndarray of int, shape (T,)

    Returns
    -------
    list of numpy.ndarray of int32 (int64 from ``2**31`` nodes)
        Level ``d``'s ids at place ``d`` (one a depth from 0 to the largest).

    Examples
    --------
    >>> [level.tolist() for level in by_levels(np.array([0, 1, 2, 2, 1, 2]))]
    [[0], [1, 4], [2, 3, 5]]
    """
    n, top = depth.shape[0], int(depth.max(initial=0))
    if n < 1 << 31 and top < 1 << 16:  # 32 bits throughout (no 64-bit order of every node)
        order = stable_order_small(lambda lo, hi: depth[lo:hi], n, top)
    else:
        order = stable_order(depth, compact=n < 1 << 31)
    cuts = np.searchsorted(depth[order], np.arange(int(depth.max(initial=0)) + 2)).tolist()
    return [order[lo:hi] for lo, hi in itertools.pairwise(cuts)]
