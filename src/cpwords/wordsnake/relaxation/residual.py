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

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

import numpy as np

from cpwords.core.native import give_back_free_memory
from cpwords.wordsnake.relaxation.sorting import ramp
from cpwords.wordsnake.relaxation.string_hub import HANDOVER, SELF, ZERO, StringHubNetwork

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

#: Added to every residual arc's reduced cost: the shortest-path routine takes a stored zero for
#: a missing arc, and among paths of equal cost the one with fewer arcs is preferred.
_EPSILON = 1e-6

#: Most arcs followed back along one path (a guard; real paths have a few hundred at most).
_MAX_HOPS = 100_000

#: Most network arcs for which both directions of the residual network are kept (the
#: transpose is then SciPy's, built once): above, one direction at a time, the other built again
#: from the network when a search needs it (about 1 GB a direction on the whole Polish
#: dictionary's 71.7 million arcs; 16 million arcs take about 0.25 GB a direction).
KEEP_BOTH_ARCS = 16_000_000


class ResidualPaths:
    """The residual network of an optimal flow, for shortest augmenting paths between hubs.

    Parameters
    ----------
    net : StringHubNetwork
    cost : numpy.ndarray of int, shape (m,), or None
        Arc costs the flow is optimal for; None: the plain costs ``-net.weight``, read from the
        network a chunk at a time (no copy of them held: 0.29 GB on the whole Polish dictionary).
    flows : numpy.ndarray of int64, shape (m,)
        An optimal flow.
    pi : numpy.ndarray of int64, shape (num_nodes,)
        Potentials proving it optimal with the capacities the supplies imply lifted (as
        :func:`~cpwords.wordsnake.relaxation.dual_certificate.dual_potentials` returns them): the
        reduced cost ``cost + pi[tail] - pi[head]`` is ``>= 0`` on every arc but the copy-to-copy
        ones.

    Attributes
    ----------
    graph : scipy.sparse.csr_matrix
        The residual network (``reversed`` False) or its transpose (True): one of the two at a
        time, as the last search needed it.
    reversed : bool

    Notes
    -----
    Forward residual arcs: every arc but a saturated copy-to-copy arc (the other capacities
    are implied by the supplies and never bind); backward ones: every arc carrying flow. The
    network has no pair of opposite arcs (word exits only leave, entries only receive, and the
    hubs form a DAG), so no two residual arcs join the same ordered pair of nodes. Memory: one
    float and a 32-bit integer per residual arc, for one direction at a time (the other is
    built again from the network when a search needs it, after this one is let go: the whole
    Polish dictionary's two directions took about 1 GB each).
    """

    def __init__(
        self, net: StringHubNetwork, cost: np.ndarray | None, flows: np.ndarray, pi: np.ndarray
    ) -> None:
        self.net = net
        self.flows = flows
        self._cost, self._pi = cost, pi
        self._held: dict[bool, csr_matrix] = {}
        self.graph: csr_matrix | None = None
        self.reversed = False
        self._direction(reverse=False)

    def _plus(self, node: int) -> int:
        """The node a whole word's trie node hands over from: its word's own hub
        (``T + word``) at a word's node, the node itself elsewhere (read from
        ``trie.node_word``, where an array of every node took 54 MB on the whole Polish
        dictionary)."""
        trie = self.net.trie
        word = int(trie.node_word[node])
        return node if word < 0 else trie.size + word

    def _direction(self, reverse: bool) -> csr_matrix:
        """The residual network (``reverse``: its transpose): a network of at most
        :data:`KEEP_BOTH_ARCS` arcs keeps both (the transpose SciPy's of the first), a larger
        one builds the direction asked for from the network once the other is let go."""
        from scipy.sparse import csr_matrix

        graph = self._held.get(reverse)
        if graph is None:
            other = self._held.get(not reverse)
            if self.net.m > KEEP_BOTH_ARCS:
                self.graph = other = None
                self._held.clear()
            give_back_free_memory()  # the heap's free blocks cannot hold the arrays below
            if other is not None and reverse:  # SciPy's transpose, as it always was
                graph = other.T.tocsr()
            else:
                n = self.net.num_nodes
                csr = _residual_csr(self.net, self._cost, self.flows, self._pi, reverse=reverse)
                graph = csr_matrix(csr, shape=(n, n))
                del csr
                give_back_free_memory()  # the build's chunks: the search comes on top of it
            self._held[reverse] = graph
        self.graph, self.reversed = graph, reverse
        return graph

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

        moves = list(moves)
        # The arcs of the moved words' exits and entries, found for them alone (a list of every
        # word's took 0.3 GB on the whole Polish dictionary, for the few hundred words moved).
        moved = [w for w, _, _ in moves]
        exits = arcs_of_words(net.tail, net.out_base, moved)
        entries = arcs_of_words(net.head, net.in_base, moved)
        for w, d_out, d_in in moves:
            if net.mult[w] != 1:
                continue
            if d_out >= 0:
                arcs = exits[w]
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
                    feeder = self._plus(node)
                arcs = entries[w]
                used = [a for a in arcs.tolist() if x[a] > 0]
                if used and int(net.tail[used[0]]) != feeder:
                    add(int(net.tail[used[0]]), 1)
                    add(feeder, -1)
        return {v: k for v, k in out.items() if k}

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
        transpose, the direction held first: O(arcs log nodes) each, and one build of the other
        direction (:meth:`_direction`).
        """
        from scipy.sparse.csgraph import dijkstra

        sources = [v for v, k in excess.items() if k > 0]
        sinks = [v for v, k in excess.items() if k < 0]
        if not sources or not sinks:
            return [], []
        found: dict[bool, list[list[int]]] = {}
        for reverse in (self.reversed, not self.reversed):  # the other direction is built
            starts, ends = (sinks, sources) if reverse else (sources, sinks)
            _, pred, _ = dijkstra(
                self._direction(reverse),
                directed=True,
                indices=starts,
                min_only=True,
                return_predecessors=True,
            )
            walked = _walk(pred, ends, set(starts))
            del pred
            found[reverse] = walked if reverse else [p[::-1] for p in walked]
        return found[False], found[True]

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


#: Arcs a pass of the residual network's build takes at once: its temporaries (about 25 bytes an
#: arc) stay this size whatever the network's (the whole Polish dictionary's 71.7 million arcs
#: took 3 GB of temporaries in whole-network passes, 0.1 GB in chunks of 4 million).
CHUNK = 1 << 20

#: The chunks of an array of keys (the first pass) or of keys and values (the second).
_Chunks = Callable[[bool], Iterator[tuple[np.ndarray, ...]]]


def group_by(
    n: int, chunks: _Chunks, dtypes: tuple[type[np.generic], ...]
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Items grouped stably by their keys, from 0 to ``n - 1`` (a counting sort a chunk at a time).

    Parameters
    ----------
    n : int
        The number of keys.
    chunks : callable
        ``chunks(False)`` yields ``(keys,)`` and ``chunks(True)`` ``(keys, *values)`` for the
        same items in the same order (keys: integers in ``0 .. n - 1``).
    dtypes : tuple of numpy scalar types
        The type of each value array returned.

    Returns
    -------
    indptr : numpy.ndarray of int32 (int64 when the items do not fit), shape (n + 1,)
        The CSR offsets: key ``k``'s items are ``indptr[k] .. indptr[k + 1] - 1``.
    values : list of numpy.ndarray
        Each value array in key order (the items of one key in their order).

    Notes
    -----
    Memory: the output and a chunk's temporaries, where one stable sort of the whole took
    several copies of it.
    """
    counts = np.zeros(n, dtype=np.int64)
    for (keys,) in chunks(False):
        _count_into(counts, keys)
    total = int(counts.sum())
    fits = total <= np.iinfo(np.int32).max
    # indptr[k + 1] starts as key k's first place and serves as its cursor (each key's next free
    # place): once every item is placed it is key k's end, the CSR offset (no cursor array of
    # its own: 76 MB on the whole Polish dictionary).
    indptr: np.ndarray = np.zeros(n + 1, dtype=np.int32 if fits else np.int64)
    if n > 1:
        np.cumsum(counts[:-1], out=indptr[2:])
    del counts
    cursor = indptr[1:]
    outs = [np.empty(total, dtype=dtype) for dtype in dtypes]
    for keys, *values in chunks(True):
        order = np.argsort(keys, kind="stable")
        ks = keys[order]
        first = np.ones(ks.size, dtype=bool)
        first[1:] = ks[1:] != ks[:-1]
        starts = np.flatnonzero(first)
        runs = np.diff(starts, append=ks.size)
        place = ramp(runs)  # the rank within its key
        place += cursor[ks]
        for out, vals in zip(outs, values, strict=True):
            out[place] = vals[order]
        cursor[ks[starts]] += runs
    return indptr, outs


def _count_into(counts: np.ndarray, keys: np.ndarray) -> None:
    """Add each key's occurrences in ``keys`` to ``counts`` (a chunk of the first pass of
    :func:`group_by`): a count over the chunk's own span of keys, where one over ``0 .. max``
    made a block that grew with the chunk's largest key, each too large for the heap's free
    blocks of the chunks before (the whole Polish dictionary's first build peaked at
    4,733-4,835 MiB with them, 4,537 MiB without); keys spread over more than four places a key
    are added one by one.
    """
    if not keys.size:
        return
    lo = int(keys.min())
    span = int(keys.max()) - lo + 1
    if span <= 4 * keys.size:
        counts[lo : lo + span] += np.bincount(keys - lo, minlength=span)
    else:
        np.add.at(counts, keys, 1)


def _residual_csr(
    net: StringHubNetwork,
    cost: np.ndarray | None,
    flows: np.ndarray,
    pi: np.ndarray,
    reverse: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The residual arcs as CSR arrays (``data``, ``indices``, ``indptr``): by tail, stably
    (forward arcs by arc id, then backward ones by arc id), reduced cost plus
    :data:`_EPSILON` in float64, heads and offsets in int32. ``reverse``: the transpose's
    arrays, by head and within a head by tail (as SciPy's ``csr.T.tocsr()`` gives them).
    ``cost`` None: the plain costs ``-net.weight``, negated a chunk at a time.

    Raises
    ------
    ValueError
        A residual arc of negative reduced cost.
    """
    m = net.m
    tail, head = net.tail, net.head

    def chunks(full: bool) -> Iterator[tuple[np.ndarray, ...]]:
        for backward in (False, True):
            for lo in range(0, m, CHUNK):
                part = slice(lo, lo + CHUNK)
                t, h = tail[part], head[part]
                if backward:
                    keep = flows[part] > 0
                else:
                    keep = (net.role[part] != SELF) | (flows[part] < net.cap[part])
                if backward != reverse:
                    t, h = h, t
                if not full:
                    yield (t[keep],)
                    continue
                rc = (-net.weight[part] if cost is None else cost[part]) + pi[tail[part]]
                rc -= pi[head[part]]
                rc = -rc[keep] if backward else rc[keep]
                if (rc < 0).any():
                    raise ValueError("the potentials do not prove the flow optimal")
                weights = rc.astype(np.float64)
                weights += _EPSILON
                yield t[keep], h[keep].astype(np.int32), weights

    indptr, (indices, data) = group_by(net.num_nodes, chunks, (np.int32, np.float64))
    if reverse:
        _sort_rows(indptr, indices, data)
    return data, indices, indptr.astype(np.int32, copy=False)


def _sort_rows(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray) -> None:
    """Sort each CSR row's entries by column in place (no row holds a column twice), rows of
    about :data:`CHUNK` entries at a time (the temporaries stay that size; one 64-bit key an
    entry sorted 3.3 x faster than a two-key lexsort)."""
    n = indptr.size - 1
    r0 = 0
    while r0 < n:
        r1 = int(np.searchsorted(indptr, indptr[r0] + CHUNK, side="right")) - 1
        r1 = min(n, max(r0 + 1, r1))
        lo, hi = int(indptr[r0]), int(indptr[r1])
        if hi - lo > 1:  # a key an entry, row then column (unique: no stable sort needed)
            key = np.repeat(np.arange(r1 - r0, dtype=np.int64) << 32, np.diff(indptr[r0 : r1 + 1]))
            key += indices[lo:hi]
            order = np.argsort(key)
            indices[lo:hi] = indices[lo:hi][order]
            data[lo:hi] = data[lo:hi][order]
        r0 = r1


def arcs_of_words(ends: np.ndarray, base: int, words: Iterable[int]) -> dict[int, np.ndarray]:
    """The arcs whose end in ``ends`` is node ``base + w``, for each of ``words``.

    Parameters
    ----------
    ends : numpy.ndarray of int, shape (m,)
        The network's tails (for the words' exits) or heads (entries).
    base : int
        The node id of word 0's exit or entry.
    words : iterable of int
        Distinct-word ids.

    Returns
    -------
    dict of int to numpy.ndarray of int64
        Each word's arc ids, ascending (empty for a word with none). One pass over ``ends``, a
        chunk of :data:`CHUNK` arcs at a time.

    Examples
    --------
    >>> arcs_of_words(np.array([5, 7, 5, 6]), 5, [0, 2, 1])[0].tolist()
    [0, 2]
    """
    wanted = np.unique(np.fromiter(words, dtype=np.int64))
    size = int(wanted[-1]) + 1 if wanted.size else 0
    is_wanted = np.zeros(size + 1, dtype=bool)  # the last place: every other node
    is_wanted[wanted] = True
    found: list[np.ndarray] = []
    keys: list[np.ndarray] = []
    for lo in range(0, ends.shape[0], CHUNK):
        word = ends[lo : lo + CHUNK].astype(np.int64)
        word -= base
        place = np.where((word >= 0) & (word < size), word, size)
        mine = np.flatnonzero(is_wanted[place])
        found.append(mine + lo)
        keys.append(word[mine])
    arcs = np.concatenate(found, dtype=np.int64) if found else np.zeros(0, dtype=np.int64)
    key = np.concatenate(keys, dtype=np.int64) if keys else np.zeros(0, dtype=np.int64)
    order = np.argsort(key, kind="stable")
    arcs, key = arcs[order], key[order]
    cuts = np.searchsorted(key, wanted, side="left").tolist()
    ends_at = np.searchsorted(key, wanted, side="right").tolist()
    return {w: arcs[a:b] for w, a, b in zip(wanted.tolist(), cuts, ends_at, strict=True)}
