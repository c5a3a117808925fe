"""The letter-hub graph behind cpwords' exact Wordsnake models (backend independent).

An overlap-1 transition a -> b exists exactly when the last letter of a is the first letter of b,
so the ~95% of positive arcs that have overlap 1 are aggregated through 26 *letter hubs* that may
be visited any number of times; only arcs with overlap >= 2 stay explicit. A *depot* stands for
zero-overlap joints (and for the two ends of a linear snake). A snake is then a connected, balanced
(Eulerian) multigraph on depot, words and hubs in which every word has in- and out-degree one; its
Euler circuit read from the depot is the ordering. Formulation card: ``models/wordsnake.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from cpwords.wordsnake.rules import OverlapGraph, WordsnakeInstance, overlap_graph

DEPOT = 0


@dataclass(frozen=True)
class HubGraph:
    """Arc lists of the letter-hub formulation.

    Node numbering: 0 is the depot, ``1..n`` the words (item ``i`` is node ``i + 1``), then one
    node per letter hub that has both an entering and a leaving arc.

    Attributes
    ----------
    n : int
        Number of words.
    num_nodes : int
        Depot + words + hubs.
    tail, head : numpy.ndarray of int64, shape (m,)
        Arc endpoints.
    weight : numpy.ndarray of int64, shape (m,)
        Score of each arc: ``overlap ** 2`` on explicit arcs, 1 on word -> hub arcs, 0 otherwise.
    hub_letter : dict
        ``{node: letter}`` for the hub nodes.
    cyclic : bool
        Whether the last -> first pair scores (the depot is then optional).
    """

    n: int
    num_nodes: int
    tail: np.ndarray
    head: np.ndarray
    weight: np.ndarray
    hub_letter: dict[int, str]
    cyclic: bool
    heavy: dict[tuple[int, int], int]
    eligible: tuple[bool, ...]

    def pair_weight(self, words: tuple[str, ...], a: int, b: int) -> int:
        """Squared maximal overlap of item ``a`` followed by item ``b`` (model side)."""
        if a == b:
            return 0
        w = self.heavy.get((a, b))
        if w is not None:
            return w
        return int(self.eligible[a] and self.eligible[b] and words[a][-1] == words[b][0])

    @property
    def m(self) -> int:
        """Number of arcs."""
        return int(self.tail.shape[0])

    @property
    def root(self) -> int:
        """Node every component must reach: the depot (linear) or the first word (cyclic)."""
        return 1 if self.cyclic else DEPOT

    def out_arcs(self) -> list[np.ndarray]:
        """Arc indices leaving each node."""
        order = np.argsort(self.tail, kind="stable")
        bounds = np.searchsorted(self.tail[order], np.arange(self.num_nodes + 1))
        return [order[bounds[v] : bounds[v + 1]] for v in range(self.num_nodes)]

    def in_arcs(self) -> list[np.ndarray]:
        """Arc indices entering each node."""
        order = np.argsort(self.head, kind="stable")
        bounds = np.searchsorted(self.head[order], np.arange(self.num_nodes + 1))
        return [order[bounds[v] : bounds[v + 1]] for v in range(self.num_nodes)]


def build_hub_graph(instance: WordsnakeInstance, graph: OverlapGraph | None = None) -> HubGraph:
    """Build the letter-hub arc lists of an instance.

    Parameters
    ----------
    instance : WordsnakeInstance
    graph : OverlapGraph, optional
        The instance's pairs with overlap >= 2, when already built.

    Returns
    -------
    HubGraph
        ``2n`` depot arcs, one explicit arc per ordered pair with overlap >= 2, and at most
        ``2n`` word-hub arcs: O(n + number of overlap->=2 pairs) arcs in all.
    """
    words = instance.words
    n = len(words)
    if graph is None:
        graph = overlap_graph(words, proper=instance.proper, min_overlap=2, score=instance.score)
    g = graph
    heavy = g.overlap >= 2
    tails: list[np.ndarray] = [np.zeros(n, np.int64), np.arange(1, n + 1)]
    heads: list[np.ndarray] = [np.arange(1, n + 1), np.zeros(n, np.int64)]
    weights: list[np.ndarray] = [np.zeros(n, np.int64), np.zeros(n, np.int64)]
    tails.append(g.tail[heavy].astype(np.int64) + 1)
    heads.append(g.head[heavy].astype(np.int64) + 1)
    weights.append(g.weight[heavy].astype(np.int64))

    # An overlap of 1 needs k = 1 <= min(len) (always) or, for proper overlaps, 1 < min(len).
    # A single word has no pair at all (not even with itself in a cyclic snake).
    eligible = [i for i, w in enumerate(words) if len(w) >= (2 if instance.proper else 1)]
    if n == 1:
        eligible = []
    enders = {words[i][-1] for i in eligible}
    starters = {words[i][0] for i in eligible}
    letters = sorted(enders & starters)
    hub_node = {c: n + 1 + k for k, c in enumerate(letters)}
    into, out_of = [], []
    for i in eligible:
        w = words[i]
        if w[-1] in hub_node:
            into.append((i + 1, hub_node[w[-1]]))
        if w[0] in hub_node:
            out_of.append((hub_node[w[0]], i + 1))
    if into:
        tails.append(np.array([t for t, _ in into], np.int64))
        heads.append(np.array([h for _, h in into], np.int64))
        weights.append(np.ones(len(into), np.int64))
    if out_of:
        tails.append(np.array([t for t, _ in out_of], np.int64))
        heads.append(np.array([h for _, h in out_of], np.int64))
        weights.append(np.zeros(len(out_of), np.int64))
    return HubGraph(
        n=n,
        num_nodes=n + 1 + len(letters),
        tail=np.concatenate(tails),
        head=np.concatenate(heads),
        weight=np.concatenate(weights),
        hub_letter={v: c for c, v in hub_node.items()},
        cyclic=instance.cyclic,
        heavy={
            (t, h): w
            for t, h, w in zip(
                g.tail[heavy].tolist(),
                g.head[heavy].tolist(),
                g.weight[heavy].tolist(),
                strict=True,
            )
        },
        eligible=tuple(np.isin(np.arange(n), eligible).tolist()),
    )


def entering_arcs(hg: HubGraph, nodes: list[int], ins: Sequence[Iterable[int]]) -> list[int]:
    """The arcs entering a node set S from outside: the support of the subtour elimination cut
    ``x(delta_in(S)) >= 1`` (the one cut builder of the letter-hub MIP and CP-SAT models).

    Parameters
    ----------
    hg : HubGraph
    nodes : list of int
        The node set S (e.g. a component from :func:`components_missing_root`).
    ins : sequence of arrays of int
        ``hg.in_arcs()`` (the arcs into each node), computed once by the caller.

    Returns
    -------
    list of int
        Arc indices ``a`` with ``head(a)`` in S and ``tail(a)`` outside S.
    """
    in_s = set(nodes)
    return [a for v in nodes for a in ins[v] if int(hg.tail[a]) not in in_s]


def components_missing_root(hg: HubGraph, chosen: np.ndarray) -> list[list[int]]:
    """Connected parts of a chosen arc set that do not reach the root.

    Parameters
    ----------
    hg : HubGraph
    chosen : numpy.ndarray of bool, shape (m,)
        Arcs selected by an integer solution.

    Returns
    -------
    list of list of int
        Node sets S, each the vertex set of a weakly connected component without the root; each
        yields the violated connectivity cut ``x(delta_in(S)) >= 1``.
    """
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(range(1, hg.n + 1))
    graph.add_edges_from(zip(hg.tail[chosen].tolist(), hg.head[chosen].tolist(), strict=True))
    if hg.root not in graph:
        graph.add_node(hg.root)
    return [sorted(c) for c in nx.connected_components(graph) if hg.root not in c]


def decode_order(hg: HubGraph, chosen: np.ndarray, words: tuple[str, ...]) -> list[str]:
    """Read the ordering off a connected Eulerian arc set (its Euler circuit).

    Parameters
    ----------
    hg : HubGraph
    chosen : numpy.ndarray of bool, shape (m,)
        Arcs of a solution with every component reaching the root.
    words : tuple of str

    Returns
    -------
    list of str
        The words in snake order (for a linear snake, the depot visits are the joints between
        paths, so the circuit read from the depot is a valid order).
    """
    tails, heads = hg.tail[chosen].tolist(), hg.head[chosen].tolist()
    if not tails:
        return list(words)
    source = hg.root if hg.root in tails else tails[0]
    return [words[v - 1] for v in euler_circuit(tails, heads, source) if 1 <= v <= hg.n]


def euler_circuit(tails: list[int], heads: list[int], source: int) -> list[int]:
    """The nodes of an Euler circuit of a connected Eulerian multigraph, from ``source``.

    Hierholzer's algorithm on adjacency lists, O(arcs). (networkx's ``eulerian_circuit`` asks
    a multigraph view for a node's out-degree at every step, O(degree): 8 s on 20,000 ENABLE
    words, whose letter hubs and depot have thousands of arcs.)

    Parameters
    ----------
    tails, heads : list of int
        The arcs.
    source : int
        A node with an arc.

    Returns
    -------
    list of int
        The tail of each arc of the circuit, in order (as many as arcs).

    Examples
    --------
    >>> euler_circuit([0, 1, 2, 0, 3], [1, 2, 0, 3, 0], 0)
    [0, 3, 0, 1, 2]
    """
    out: dict[int, list[int]] = {}
    for t, h in zip(tails, heads, strict=True):
        out.setdefault(t, []).append(h)
    stack, circuit = [source], []
    while stack:
        arcs = out.get(stack[-1])
        if arcs:
            stack.append(arcs.pop())
        else:
            circuit.append(stack.pop())
    circuit.reverse()
    return circuit[:-1]
