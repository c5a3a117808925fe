"""The connected components of a set of word pairs, as the proof tree on the core reads them
(:mod:`~cpwords.wordsnake.closure.proof_tree`): the subtour cuts of a node's assignment.
"""

from __future__ import annotations

import numpy as np


def word_labels(a: np.ndarray, b: np.ndarray, W: int) -> tuple[np.ndarray, int]:
    """The connected components of the words the edges ``a[i] - b[i]`` join: a label per
    word (-1 for a word on no edge) and the number of labels."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    graph = csr_matrix((np.ones(len(a), dtype=np.int8), (a, b)), shape=(W, W))
    _, label = connected_components(graph, directed=False)
    present = np.zeros(W, dtype=bool)
    present[a] = True
    present[b] = True
    used, label = np.unique(label[present], return_inverse=True)
    out = np.full(W, -1, dtype=np.int64)
    out[present] = label
    return out, len(used)


def label_groups(label: np.ndarray, which: np.ndarray) -> list[list[int]]:
    """The words of each label in ``which`` (ascending ids), by ascending label."""
    if not len(which):
        return []
    words = np.nonzero(np.isin(label, which))[0]
    order = np.argsort(label[words], kind="stable")
    words, labs = words[order], label[words][order]
    cuts = np.nonzero(np.diff(labs))[0] + 1
    return [part.tolist() for part in np.split(words, cuts)]


def components(edges: list[tuple[int, int]], W: int) -> list[set[int]]:
    """The connected components of the words the edges join (among ``W`` words)."""
    if not edges:
        return []
    a = np.array([e[0] for e in edges], dtype=np.int64)
    b = np.array([e[1] for e in edges], dtype=np.int64)
    label, n = word_labels(a, b, W)
    return [set(part) for part in label_groups(label, np.arange(n))]


def closed_components(
    chosen: list[tuple[int, int]], ends: set[int], W: int, linear: bool
) -> list[set[int]]:
    """The closed components of the chosen word pairs, smallest first: those with no chain end
    (linear), or every one of several (cyclic)."""
    parts = sorted(components(chosen, W), key=len)
    if not linear:
        return [] if len(parts) == 1 and len(parts[0]) == W else parts
    return [p for p in parts if not p & ends]
