"""Augmenting paths in the residual network of the relaxation's flow: what a family's change moves.

The additive bound (:mod:`~cpwords.wordsnake.bounds.path_cover`) prices a path cover of each
family of subtour words as if the words around it were free to take their best joints. On the
string-hub network that freedom is a flow question: when a family word hands over at another
string than in the relaxation's optimal flow, the hub it now hands over to has a unit too many and
the one it left a unit too few (likewise for the hub a word is now delivered from). The rest of
the snake absorbs the change along an *augmenting path* of the residual network from the first
hub to the second: each word on it is re-joined, and the path costs the reduced costs of its arcs
(zero on the degenerate relaxation of a whole dictionary, almost everywhere).

:class:`ResidualPaths` finds the shortest such paths (Dijkstra on the reduced costs, which are
non-negative on every residual arc of an optimal flow: Ahuja, Magnanti and Orlin, *Network
Flows*, 1993, theorem 9.4 and section 9.7 on successive shortest paths) and returns the words on
them: the neighbourhood search (:mod:`~cpwords.wordsnake.primal.lns`) frees those words besides
the family, which lets it carry out changes whose re-joining runs far from the family in the
ordering.

Formulation card: ``models/wordsnake.md`` (section "Additive bound and neighbourhood search").
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from cpwords.wordsnake.relaxation.string_hub import HANDOVER, SELF, ZERO, StringHubNetwork

#: Added to every residual arc's reduced cost: the shortest-path routine takes a stored zero for
#: a missing arc, and among paths of equal cost the one with fewer arcs is preferred.
_EPSILON = 1e-6

#: Most arcs followed back along one path (a guard; real paths have a few hundred at most).
_MAX_HOPS = 100_000


class ResidualPaths:
    """The residual network of an optimal flow, for shortest augmenting paths between hubs.

    Parameters
    ----------
    net : StringHubNetwork
    cost : numpy.ndarray of int64, shape (m,)
        Arc costs the flow is optimal for.
    flows : numpy.ndarray of int64, shape (m,)
        An optimal flow.
    pi : numpy.ndarray of int64, shape (num_nodes,)
        Potentials proving it optimal with the capacities the supplies imply lifted (as
        :func:`~cpwords.wordsnake.relaxation.dual_certificate.dual_potentials` returns them): the
        reduced cost ``cost + pi[tail] - pi[head]`` is ``>= 0`` on every arc but the copy-to-copy
        ones.

    Notes
    -----
    Forward residual arcs: every arc but a saturated copy-to-copy arc (the other capacities
    are implied by the supplies and never bind); backward ones: every arc carrying flow. The
    network has no pair of opposite arcs (word exits only leave, entries only receive, and the
    hubs form a DAG), so no two residual arcs join the same ordered pair of nodes. Memory: one
    float and two 32-bit integers per residual arc.
    """

    def __init__(
        self, net: StringHubNetwork, cost: np.ndarray, flows: np.ndarray, pi: np.ndarray
    ) -> None:
        from scipy.sparse import csr_matrix

        self.net = net
        self.flows = flows
        rc = cost + pi[net.tail] - pi[net.head]
        fw = np.nonzero((net.role != SELF) | (flows < net.cap))[0]
        bw = np.nonzero(flows > 0)[0]
        tails = np.concatenate([net.tail[fw], net.head[bw]]).astype(np.int32)
        heads = np.concatenate([net.head[fw], net.tail[bw]]).astype(np.int32)
        weights = np.concatenate([rc[fw], -rc[bw]]).astype(np.float64)
        del rc, fw, bw
        if (weights < 0).any():
            raise ValueError("the potentials do not prove the flow optimal")
        weights += _EPSILON
        n = net.num_nodes
        order = np.argsort(tails, kind="stable")
        indptr = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(np.bincount(tails, minlength=n), out=indptr[1:])
        self.graph = csr_matrix((weights[order], heads[order], indptr), shape=(n, n))
        self._transpose: csr_matrix | None = None  # built on first use
        del order, tails, heads, weights
        W = net.num_words
        # The arcs of every word's exit and entry (CSR by word), for the hub it uses.
        self._out = _by_word(net.tail - net.out_base, W)
        self._in = _by_word(net.head - net.in_base, W)
        trie = net.trie
        T = trie.size
        self._plus = np.arange(T, dtype=np.int64)
        self._plus[trie.word_node] = T + np.arange(W)

    def excess(self, moves: Iterable[tuple[int, int, int]]) -> dict[int, int]:
        """The hub imbalances that moving words to other joints leaves in the flow.

        Parameters
        ----------
        moves : iterable of (int, int, int)
            ``(word, out_overlap, in_overlap)``: the word now hands over at its suffix of
            ``out_overlap`` letters (0: a zero-overlap joint or the snake's end) and is delivered
            from the hub of its prefix of ``in_overlap`` letters; -1 leaves a side unchanged.
            Words listed more than once are left alone.

        Returns
        -------
        dict
            Node id -> units too many (positive) or too few (negative) arriving there.
        """
        net = self.net
        x = self.flows
        trie = net.trie
        depth, parent, wn = trie.depth, trie.parent, trie.word_node
        out: dict[int, int] = {}

        def add(node: int, units: int) -> None:
            out[node] = out.get(node, 0) + units

        for w, d_out, d_in in moves:
            if net.mult[w] != 1:
                continue
            if d_out >= 0:
                arcs = self._out[1][self._out[0][w] : self._out[0][w + 1]]
                want = [
                    a
                    for a in arcs.tolist()
                    if int(net.weight[a]) == net.instance.weight(d_out)
                    and int(net.role[a]) in ((ZERO,) if d_out == 0 else (HANDOVER,))
                ]
                used = [a for a in arcs.tolist() if x[a] > 0]
                if want and used and want[0] != used[0]:
                    add(int(net.head[want[0]]), 1)
                    add(int(net.head[used[0]]), -1)
            if d_in >= 0:
                node = int(wn[w])
                while int(depth[node]) > d_in:
                    node = int(parent[node])
                if d_in == 0:
                    feeder = 0
                elif node == int(wn[w]):
                    feeder = node  # a whole-word overlap: the word's own hub delivers it
                else:
                    feeder = int(self._plus[node])
                arcs = self._in[1][self._in[0][w] : self._in[0][w + 1]]
                used = [a for a in arcs.tolist() if x[a] > 0]
                if used and int(net.tail[used[0]]) != feeder:
                    add(int(net.tail[used[0]]), 1)
                    add(feeder, -1)
        return {v: k for v, k in out.items() if k}

    def paths(self, excess: dict[int, int]) -> list[list[int]]:
        """Shortest augmenting paths between the hubs with units too many and too few.

        Parameters
        ----------
        excess : dict
            As :meth:`excess` returns it.

        Returns
        -------
        list of list of int
            Node sequences, source first: :meth:`paths_by_end`'s two lists, concatenated.
        """
        into, out_of = self.paths_by_end(excess)
        return into + out_of

    def paths_by_end(self, excess: dict[int, int]) -> tuple[list[list[int]], list[list[int]]]:
        """Shortest augmenting paths, grouped by the imbalanced hub they were searched for.

        Parameters
        ----------
        excess : dict
            As :meth:`excess` returns it.

        Returns
        -------
        into : list of list of int
            For every hub short of units that some hub with units too many reaches, a shortest
            path (by reduced cost) from the nearest such hub (node ids, source first).
        out_of : list of list of int
            For every hub with units too many that reaches some hub short of units, a shortest
            path to the nearest one. So every imbalanced hub that can be balanced is on a path
            (one search from the sources alone would leave out a source that is nobody's
            nearest). Both are empty when either side is.

        Notes
        -----
        Two multi-source Dijkstra searches (SciPy), one on the residual network and one on its
        transpose: O(arcs log nodes) each.
        """
        from scipy.sparse.csgraph import dijkstra

        sources = [v for v, k in excess.items() if k > 0]
        sinks = [v for v, k in excess.items() if k < 0]
        if not sources or not sinks:
            return [], []
        _, pred, _ = dijkstra(
            self.graph, directed=True, indices=sources, min_only=True, return_predecessors=True
        )
        into = [p[::-1] for p in _walk(pred, sinks, set(sources))]
        if self._transpose is None:
            self._transpose = self.graph.T.tocsr()
        _, nxt, _ = dijkstra(
            self._transpose, directed=True, indices=sinks, min_only=True, return_predecessors=True
        )
        return into, _walk(nxt, sources, set(sinks))

    def words_on(self, path: list[int]) -> set[int]:
        """Distinct-word ids whose exit or entry lies on ``path`` (node ids)."""
        net = self.net
        W = net.num_words
        lo_out, lo_in = net.out_base, net.in_base
        found: set[int] = set()
        for v in path:
            if lo_out <= v < lo_out + W:
                found.add(v - lo_out)
            elif lo_in <= v < lo_in + W:
                found.add(v - lo_in)
        return found

    def words_between(self, excess: dict[int, int]) -> set[int]:
        """The words on the shortest augmenting paths of :meth:`paths`.

        Parameters
        ----------
        excess : dict
            As :meth:`excess` returns it.

        Returns
        -------
        set of int
            Distinct-word ids whose exit or entry lies on one of the paths.
        """
        found: set[int] = set()
        for path in self.paths(excess):
            found |= self.words_on(path)
        return found


def _walk(pred: np.ndarray, starts: list[int], ends: set[int]) -> list[list[int]]:
    """Follow ``pred`` from each start to a node of ``ends`` (the paths that get there)."""
    out: list[list[int]] = []
    for t in starts:
        path = [t]
        v = t
        for _ in range(_MAX_HOPS):
            if v in ends or pred[v] < 0:
                break
            v = int(pred[v])
            path.append(v)
        if v in ends:
            out.append(path)
    return out


def _by_word(word_of_arc: np.ndarray, W: int) -> tuple[np.ndarray, np.ndarray]:
    """CSR (``indptr``, arc ids) of the arcs whose ``word_of_arc`` lies in ``0..W-1``."""
    mine = np.nonzero((word_of_arc >= 0) & (word_of_arc < W))[0]
    keys = word_of_arc[mine]
    order = np.argsort(keys, kind="stable")
    indptr = np.zeros(W + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys, minlength=W), out=indptr[1:])
    return indptr, mine[order].astype(np.int64)
