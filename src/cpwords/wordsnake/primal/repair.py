"""Repair: patch the cycles of a successor map into one ordering by the best 2-exchanges.

Candidates are indexed by overlap string (longest first); pairs are scored from the strings.

Formulation card: ``models/wordsnake.md``.
"""

from __future__ import annotations

import itertools
import time
from array import array
from collections.abc import Callable, Iterator

import numpy as np

from cpwords.core.machine import give_back_freed_memory
from cpwords.core.pages import small_pages
from cpwords.wordsnake.primal.node_ranks import NodeRanks
from cpwords.wordsnake.primal.suffix_records import SuffixRecords
from cpwords.wordsnake.relaxation.decode import Decoded
from cpwords.wordsnake.relaxation.sorting import ramp, stable_order
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork


def overlap(a: str, b: str, proper: bool) -> int:
    """Maximal suffix-prefix overlap, model side (the checker has its own implementation).

    Parameters
    ----------
    a, b : str
    proper : bool
        Restrict to ``k < min(len(a), len(b))``.

    Returns
    -------
    int
        The largest ``k`` with ``a[-k:] == b[:k]``, in letters.

    Notes
    -----
    Short words: only positions where ``b``'s candidate last letter equals ``a``'s last letter
    are compared. Words longer than 48 letters: the Knuth-Morris-Pratt prefix function of
    ``b`` run along the tail of ``a``, O(len(a) + len(b)).

    Examples
    --------
    >>> overlap("seasick", "sickle", False), overlap("beret", "berets", True)
    (4, 0)
    """
    top = min(len(a), len(b)) - (1 if proper else 0)
    if top <= 0:
        return 0
    if top <= 48:
        # Candidate starts: the last letter of the overlap, b[k - 1], equals a's last letter.
        last = a[-1]
        k = b.rfind(last, 0, top)
        while k >= 0:
            if a[len(a) - k - 1 :] == b[: k + 1]:
                return k + 1
            k = b.rfind(last, 0, k)
        return 0
    # Prefix function of b[:top] matched along the tail of a.
    p = b[:top]
    pi = [0] * top
    j = 0
    for i in range(1, top):
        while j and p[i] != p[j]:
            j = pi[j - 1]
        if p[i] == p[j]:
            j += 1
        pi[i] = j
    j = 0
    for ch in a[len(a) - top :]:
        while j and ch != p[j]:
            j = pi[j - 1]
        if ch == p[j]:
            j += 1
    return j  # the text has top letters, so j reaches top only at its end


#: Pairs left on their failure chains that :meth:`PairScore.many` scores one by one.
FEW_PAIRS = 16


class PairScore:
    """Squared overlaps of item pairs: ``pair(a, b) = overlap(words[a], words[b]) ** 2``
    (the overlap itself with the instance's linear score).

    Item ``N`` (the depot) and an item with itself score 0.

    Parameters
    ----------
    net : StringHubNetwork
        Gives the words, their number ``N`` and the ``proper`` rule.
    """

    def __init__(self, net: StringHubNetwork) -> None:
        self.words = net.instance.words
        self.n = net.instance.n
        self.proper = net.instance.proper
        self.weight = net.instance.weight
        self.trie = net.trie
        self.item_word = net.item_word

    def __call__(self, a: int, b: int) -> int:
        if a == b or a >= self.n or b >= self.n:
            return 0
        return self.weight(overlap(self.words[a], self.words[b], self.proper))

    def many(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Squared overlaps of many pairs at once, by the trie's failure links.

        Parameters
        ----------
        a, b : numpy.ndarray of int, shape (p,)
            Items (``N``: the depot).

        Returns
        -------
        numpy.ndarray of int64, shape (p,)
            ``pair(a[i], b[i])`` for each ``i``.

        Notes
        -----
        The overlap of ``a`` and ``b`` is the longest suffix of ``a`` that is a prefix of
        ``b``: the deepest node on the failure chain of ``a``'s node (the node itself first,
        a whole-word overlap) whose subtree holds ``b``'s node (node ids are in preorder). One
        vectorised step per link of the longest chain, instead of one string comparison loop
        per pair (web2: 0.05 s instead of 0.8 s for a whole ordering). The last few pairs of a
        long chain (fewer than :data:`FEW_PAIRS`) are scored one by one, in O(shorter word) each:
        a word of 100,000 letters has a chain of 100,000 links (0.76 s of array steps).
        """
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        out = np.zeros(a.shape[0], dtype=np.int64)
        live = np.nonzero((a != b) & (a < self.n) & (b < self.n))[0]
        if live.size == 0:
            return out
        trie = self.trie
        # The trie's arrays read in their own type (a copy in 64 bits took O(nodes) a call);
        # what is gathered from them is widened.
        depth = trie.depth
        na = trie.word_node[self.item_word[a[live]]].astype(np.int64)
        nb = trie.word_node[self.item_word[b[live]]].astype(np.int64)
        top = np.minimum(depth[na], depth[nb]).astype(np.int64) - (1 if self.proper else 0)
        cur = na
        while live.size:
            if live.size < FEW_PAIRS:
                for i in live.tolist():
                    out[i] = self(int(a[i]), int(b[i]))
                break
            inside = (cur <= nb) & (nb <= trie.end[cur]) & (depth[cur] <= top)
            hit = inside & (cur > 0)
            out[live[hit]] = self.weight(depth[cur[hit]].astype(np.int64))
            keep = ~inside & (cur > 0)
            live, cur, nb, top = (
                live[keep],
                trie.fail[cur[keep]].astype(np.int64),
                nb[keep],
                top[keep],
            )
        return out


#: Successor maps of fewer items than this are read in a plain walk (array passes cost a few
#: microseconds each whatever their size).
WALK_ITEMS = 4096


def order_from_succ(succ: np.ndarray | list[int], n: int, cyclic: bool) -> list[int]:
    """The item sequence of a single-cycle successor map.

    Parameters
    ----------
    succ : numpy.ndarray of int64 or list of int, length n + 1
        Successors (a permutation); index ``n`` is the depot of a linear snake.
    n : int
        Number of items.
    cyclic : bool
        Read from item 0 (cyclic) or from the depot's successor (linear).

    Returns
    -------
    list of int
        The items in snake order: from the start along ``succ`` until the start or the depot
        comes back.

    Notes
    -----
    Large maps by pointer doubling (list ranking, Wyllie 1979): each item learns how many
    steps it lies before the next stop (the start or the depot), its place counted from the
    end, in ``log2(n)`` whole-array rounds instead of a walk item by item (French list: 0.1 s
    in a walk).

    Examples
    --------
    >>> order_from_succ([2, 3, 1, 0], 3, False)
    [0, 2, 1]
    """
    start = int(succ[n]) if not cyclic else 0
    if n < WALK_ITEMS:
        seq = [start]
        j = int(succ[start])
        while j != start and j != n:
            seq.append(j)
            j = int(succ[j])
        return seq
    size = n + 1
    s = np.asarray(succ).astype(np.int32)
    stop = np.zeros(size, dtype=bool)
    stop[[start, n]] = True
    first = int(s[start])
    if stop[first]:
        return [start]
    nxt = np.where(stop, np.arange(size, dtype=np.int32), s)
    dist = (~stop).astype(np.int32)  # steps to the next stop (ever more, where none comes)
    spare = np.empty_like(nxt)
    for _ in range(size.bit_length()):
        dist += np.take(dist, nxt)
        np.take(nxt, nxt, out=spare)
        nxt, spare = spare, nxt
    # The path: the items not a stop that reach first's stop no sooner than first.
    on = np.flatnonzero(~stop & (nxt == nxt[first]) & (dist <= dist[first]))
    seq_a = np.empty(on.size + 1, dtype=np.int64)
    seq_a[0] = start
    seq_a[1 + dist[first] - dist[on]] = on
    return seq_a.tolist()


def score_sequence(seq: list[int], pair: PairScore, cyclic: bool) -> int:
    """Model-side score of an item sequence (the checker recomputes it independently).

    Parameters
    ----------
    seq : list of int
        Items in snake order.
    pair : PairScore
    cyclic : bool
        Whether the pair last -> first scores too.

    Returns
    -------
    int
        Sum of squared overlaps.
    """
    if len(seq) < 2:
        return 0
    arr = np.asarray(seq, dtype=np.int64)
    s = int(pair.many(arr[:-1], arr[1:]).sum())
    if cyclic:
        s += pair(seq[-1], seq[0])
    return s


# ---------------------------------------------------------------------------------------------
# Repair: patch the remaining cycles into the main one.
# ---------------------------------------------------------------------------------------------


def int_array(values: np.ndarray) -> array[int]:
    """``values`` as a 64-bit ``array.array``: read and sliced as Python ints, like a list, in
    8 bytes an item.

    Parameters
    ----------
    values : numpy.ndarray of int, shape (n,)

    Returns
    -------
    array.array of typecode ``"q"``, length n

    Examples
    --------
    >>> int_array(np.array([3, 1])).tolist()
    [3, 1]
    """
    out = array("q")
    out.frombytes(np.ascontiguousarray(values, dtype=np.int64).tobytes())
    return out


#: Records counted at a time by :func:`_count_into` (``numpy.bincount`` copies them to 64 bits).
COUNT_BLOCK = 1 << 23

#: Values counted at a time by :func:`_count_into` (its 64-bit counts: 32 MB).
VALUE_BLOCK = 1 << 22


def _count_into(keys: np.ndarray, out: np.ndarray) -> None:
    """Add how many times each value ``0 .. out.size - 1`` occurs in ``keys`` into ``out``,
    :data:`COUNT_BLOCK` keys at a time and, on more values than :data:`VALUE_BLOCK`, those of
    a block of values at a time (the whole count of 977,555 31-mers of C. elegans' 29 million
    records at once was 0.4 GB of fresh memory: their 64-bit copy and a 64-bit count of every
    trie node, the repair's peak; a block of records at a time, the count of every node was
    still 0.16 GB, the repair's peak again, where a block of values takes no longer)."""
    for lo in range(0, out.shape[0], VALUE_BLOCK):
        part = out[lo : lo + VALUE_BLOCK]
        hi = lo + part.shape[0]
        for a in range(0, keys.shape[0], COUNT_BLOCK):
            k = keys[a : a + COUNT_BLOCK]
            if lo or hi < out.shape[0]:
                k = k.compress((k >= lo) & (k < hi))
                k -= lo
            part += np.bincount(k, minlength=part.shape[0])


#: From this many trie nodes, the candidate index gives the heap's freed blocks back once its
#: records are counted.
GIVE_BACK_NODES = 1 << 23


class CandidateIndex:
    """Candidate joints by overlap string: words below a trie node, words ending with a node."""

    def __init__(self, net: StringHubNetwork) -> None:
        trie = net.trie
        self.net = net
        # Each word's items (ascending) as a range of one array, not a list a word (the
        # French list's 341,000 lists took 0.18 s of the index's 0.33 s).
        self._copy_items = int_array(stable_order(net.item_word))
        self._copy_start = int_array(np.concatenate([[0], np.cumsum(net.mult)]))
        self.word_node = trie.word_node.astype(np.int64)
        # Words having each trie node as a suffix: the failure chains (hand-over records).
        # The records in arc order, put in node order only for the nodes asked for
        # (:meth:`prepare`): a repair asks a few hundred of 700,000 (the sort of all the
        # French list's 1.3 M records and their copy as Python ints took 0.03 s).
        self._records = SuffixRecords(net, self.word_node)
        T = trie.size
        # Each node's ranges, found for all nodes at once: the repair asks one node at a time,
        # hundreds of thousands of times (phage lambda's 31-mers: 0.78 M array searches of one
        # value each cost 7 s of a 25 s profile, 0.78 M bisections 2.7 s).
        # As counts, not searches: the word nodes before each node (preorder ids) and up to
        # the end of its subtree; the suffix records of each node, in node order.
        # The word nodes before each node in about a byte a node (:class:`NodeRanks`), the
        # records' counts in 32 bits (the trie's ids are), held with the index.
        # ``before(v)`` = searchsorted(word_node, v); ``before(end[v] + 1)`` the same,
        # side="right" (read through the trie's ``end``: no third array of a node each).
        self._before, self._end = NodeRanks(T, self.word_node), trie.end
        ending = np.zeros(T + 1, dtype=np.int32)  # records: hand-over arcs, int32-indexed
        for _, nodes, _ in self._records.blocks(COUNT_BLOCK):
            _count_into(nodes, ending[1:])
        np.cumsum(ending[1:], out=ending[1:])
        if T >= GIVE_BACK_NODES:
            give_back_freed_memory()  # the counting's blocks, under the index's arrays
        self._ending_lo = ending[:T]  # = searchsorted(suf_node, nodes)
        self._ending_hi = ending[1:]  # = searchsorted(suf_node, nodes + 1)
        # A 32-bit array (word ids), not a list: 4 bytes each instead of about 36 (the French
        # list's 1.5 M suffix words took 53 MB as a list, held through the proof). Filled node
        # by node (``_ready``) as :meth:`prepare` sorts their records; its pages untouched
        # until then take no memory (a repair asks a few hundred nodes: an ``array`` of zeros
        # was 0.11 GB written on 977,555 31-mers of C. elegans, at the repair's peak).
        # Its pages written a node's records at a time, all over it: kept out of huge pages
        # (each write made 2 MiB resident: 0.1 GB of C. elegans' repair at its peak).
        self._suf_word = np.zeros(self._records.size, dtype=np.int32)
        small_pages(self._suf_word)
        self._ready = np.zeros(T, dtype=bool)
        self._node_word = trie.node_word
        self.item_node = int_array(self.word_node[net.item_word])  # each item's word's node
        self.fail = trie.fail
        self.parent = trie.parent

    def copies(self, word: int) -> array[int]:
        """The items of a distinct word, ascending."""
        return self._copy_items[self._copy_start[word] : self._copy_start[word + 1]]

    def words_below(self, node: int, limit: int) -> range:
        """Up to ``limit`` words (ids) that start with the node's string."""
        lo = self._before.before(node)
        return range(lo, min(self._before.before(self._end.item(node) + 1), lo + limit))

    @property
    def suf_node(self) -> np.ndarray:
        """The trie node of every suffix record (a word ending with the node's string), in
        node order (records of one node in arc order)."""
        lo, hi = self._ending_lo, self._ending_hi
        return np.repeat(np.arange(lo.size, dtype=lo.dtype), hi - lo)

    @property
    def suf_word(self) -> np.ndarray:
        """The word of every suffix record, in the order of :attr:`suf_node`."""
        return self._suf_word if self._ready.all() else self._in_node_order()

    def _in_node_order(self) -> np.ndarray:
        """The records' words in node order, the records of a node in arc order (int32): each
        record placed at its node's next free place, a block of records at a time
        (a stable sort of them all, 29 million on 977,555 31-mers of C. elegans, made an order
        and sorted copies of them, 0.7 GB at the repair's peak)."""
        cursor = self._ending_lo.astype(np.int64)
        out = np.empty(self._records.size, dtype=np.int32)
        for _, node, words in self._records.blocks():
            order = stable_order(node)
            ns = node[order]
            first = np.flatnonzero(np.append(True, ns[1:] != ns[:-1]))
            runs = np.diff(np.append(first, ns.size))
            place = ramp(runs)  # the rank within its node
            place += cursor[ns]
            out[place] = words[order]
            cursor[ns[first]] += runs
        return out

    def prepare(self, nodes: np.ndarray) -> None:
        """Put the suffix records of ``nodes`` in order for :meth:`words_ending`.

        Parameters
        ----------
        nodes : numpy.ndarray of int, shape (k,)
            Trie nodes (repeats allowed).

        Notes
        -----
        One pass over the records picks those of the nodes not yet ready and sorts them
        alone; when they are more than an eighth of all, every record is sorted at once.
        """
        want = np.zeros(self._ready.size, dtype=bool)
        want[np.asarray(nodes, dtype=np.int64)] = True
        want &= ~self._ready
        fresh = np.flatnonzero(want)
        if not fresh.size:
            return
        count = int((self._ending_hi[fresh] - self._ending_lo[fresh]).sum())
        if 8 * count > self._records.size:
            self._suf_word = self._in_node_order()
            self._ready[:] = True
            # Every node ready: the records in arc order are read no more.
            self._records.release()
            return
        # Their records, in arc order, then by node (stably).
        picked = [(a, np.flatnonzero(want[nodes])) for a, nodes, _ in self._records.blocks()]
        sel = np.concatenate([p + a for a, p in picked]) if picked else np.zeros(0, np.int64)
        node, words = self._records.at(sel)
        order = stable_order(node)
        node, words = node[order], words[order]
        first = np.flatnonzero(np.append(True, node[1:] != node[:-1]))
        rank = ramp(np.diff(np.append(first, sel.size)))
        self._suf_word[self._ending_lo[node] + rank] = words
        self._ready[fresh] = True

    def words_ending(self, node: int, limit: int) -> list[int]:
        """Up to ``limit`` words that end with the node's string, and the node's own word
        (the node's records put in order first if :meth:`prepare` was not asked for it)."""
        if not self._ready.item(node):
            self.prepare(np.array([node]))
        lo = self._ending_lo.item(node)
        out: list[int] = self._suf_word[lo : min(self._ending_hi.item(node), lo + limit)].tolist()
        word = self._node_word.item(node)
        if word >= 0:
            out.append(word)
        return out


def patch_cycles(
    net: StringHubNetwork,
    dec: Decoded,
    pair: PairScore,
    index: CandidateIndex | Callable[[], CandidateIndex] | None = None,
    limit: int = 24,
    deadline: float | None = None,
) -> list[int]:
    """Join every cycle into the main one by the best 2-exchange found; return the item order.

    Parameters
    ----------
    net : StringHubNetwork
    dec : Decoded
        Successors after merging (modified in place).
    pair : PairScore
    index : CandidateIndex or callable, optional
        Candidate index, or a function returning it (called only when a cycle must be patched);
        built when omitted.
    limit : int
        Candidate items examined per overlap string (a word's copies counted).
    deadline : float, optional
        After it, remaining cycles are joined at the depot (cut at their weakest joint).

    Returns
    -------
    list of int
        The item sequence.

    Notes
    -----
    For a cycle ``C`` and a joint ``u -> v`` of ``C``, the exchange with a joint ``x -> y`` of the
    main cycle gives ``x -> v`` and ``u -> y``. Candidates ``y`` are the words below the suffixes of
    ``u`` in the trie and ``x`` the words that end with a prefix of ``v``, longest overlaps first;
    the depot joints (both ends of a linear snake) are always candidates.
    """
    N = net.instance.n
    cyclic = net.instance.cyclic
    comp_a = np.asarray(dec.comp)
    main, groups = outside_main(comp_a, N, cyclic)
    if not groups:
        return order_from_succ(dec.succ, N, cyclic)
    # Past the deadline only the depot's joints are tried: no index (0.5 s on a dictionary).
    late = deadline is not None and time.perf_counter() >= deadline
    built: CandidateIndex | None = None
    # Read at a few items below: Python ints from 64-bit arrays and flags from bytes, not
    # lists of every item (three lists of the French list's 341,728 items: 0.03 s a repair).
    succ_a = np.asarray(dec.succ)
    succ = int_array(succ_a)  # written to both
    pred_a = np.zeros(N + 1, dtype=np.int64)
    pred_a[succ_a] = np.arange(N + 1)
    pred = int_array(pred_a)
    main_mask = comp_a == main
    if cyclic:
        main_mask[N] = False
    in_main = bytearray(main_mask.view(np.uint8).tobytes())
    main_items = np.flatnonzero(main_mask).tolist() if not cyclic else None
    for members in sorted(groups.values(), key=len):
        if main_items is not None and len(main_items) <= SMALL_MAIN:
            # Every joint of the main cycle is a candidate: the index could only find these.
            best = _best_of(members, main_items, succ, pair, None)
        else:
            if built is None and not late:  # built when a cycle first needs it
                built = prepared_index(net, index, succ_a[:N][comp_a[:N] != main])
            best = _best_exchange(net, members, succ, pred, in_main, pair, built, limit, deadline)
        if best is None:  # cyclic, no candidate: join anywhere
            u = members[0]
            x = next(i for i in range(N) if in_main[i])
            best = (0, u, x)
        gain, u, x = best
        dec.extra.setdefault("losses", {})[int(comp_a[members[0]])] = max(0, -gain)
        v, y = succ[u], succ[x]
        succ[x], succ[u] = v, y
        dec.succ[x], dec.succ[u] = v, y
        pred[v], pred[y] = x, u
        for i in members:
            in_main[i] = True
        if main_items is not None:
            main_items.extend(members)
    return order_from_succ(dec.succ, N, cyclic)


def _ending_nodes(net: StringHubNetwork, index: CandidateIndex, heads: np.ndarray) -> np.ndarray:
    """The nodes whose words :func:`add_candidates` asks for to precede ``heads`` (the items
    after the members of the cycles to patch): each head's word's node and up to 7 of its
    ancestors."""
    p = index.word_node[net.item_word[heads[heads < net.instance.n]]]
    found = []
    for _ in range(8):
        p = p[p > 0]
        found.append(p)
        p = index.parent[p]
    return np.concatenate(found)


def outside_main(comp: np.ndarray, n: int, cyclic: bool) -> tuple[int, dict[int, list[int]]]:
    """The main component's label and the items of each other component.

    Parameters
    ----------
    comp : numpy.ndarray of int64, shape (n + 1,)
        Each item's component label (index ``n``: the depot of a linear snake).
    n : int
        The number of items.
    cyclic : bool
        Whether the snake is cyclic: its main component is then the largest (ties to the first
        the set of labels yields), else the depot's.

    Returns
    -------
    main : int
        The main component's label.
    groups : dict of int to list of int
        The items of each other component, by label in the order of their smallest item.

    Examples
    --------
    >>> outside_main(np.array([0, 1, 1, 0]), 3, False)
    (0, {1: [1, 2]})
    """
    if cyclic:
        labels = comp[:n].tolist()
        count = np.bincount(comp[:n]).tolist()  # ``labels.count`` of every label at once
        main = max(set(labels), key=count.__getitem__)
    else:
        main = int(comp[n])
    outside = np.flatnonzero(comp[:n] != main)
    groups: dict[int, list[int]] = {}
    for i, c in zip(outside.tolist(), comp[outside].tolist(), strict=True):
        groups.setdefault(c, []).append(i)
    return main, groups


def prepared_index(
    net: StringHubNetwork,
    index: CandidateIndex | Callable[[], CandidateIndex] | None,
    heads: np.ndarray,
) -> CandidateIndex:
    """The candidate index given, made by the function given, or built, prepared for the
    joints into ``heads``.

    Parameters
    ----------
    net : StringHubNetwork
    index : CandidateIndex or callable or None
        The index, a function returning it, or None to build one.
    heads : numpy.ndarray of int, shape (k,)
        The successors of the items to patch.

    Returns
    -------
    CandidateIndex
    """
    if not isinstance(index, CandidateIndex):
        index = CandidateIndex(net) if index is None else index()
    index.prepare(_ending_nodes(net, index, heads))
    return index


#: A main cycle of at most this many items (the depot's, before any cycle joined it: phage
#: lambda's 48,472 31-mers make one cycle and the depot) is searched whole for the best joint
#: to exchange with: the candidate index could only propose these, at a cost per member.
SMALL_MAIN = 16


def _best_of(
    members: list[int],
    main_items: list[int],
    succ: array[int],
    pair: PairScore,
    best: tuple[int, int, int] | None,
) -> tuple[int, int, int] | None:
    """The best 2-exchange ``(gain, u, x)`` of a joint ``u -> succ[u]`` of the cycle with a
    joint ``x -> succ[x]`` of the main cycle, every pair tried, or ``best`` if no better."""
    for u in members:
        v = succ[u]
        base = pair(u, v)
        for x in main_items:
            y = succ[x]
            gain = pair(x, v) + pair(u, y) - pair(x, y) - base
            if best is None or gain > best[0]:
                best = (gain, u, x)
    return best


def _best_exchange(
    net: StringHubNetwork,
    members: list[int],
    succ: array[int],
    pred: array[int],
    in_main: bytearray,
    pair: PairScore,
    index: CandidateIndex | None,
    limit: int,
    deadline: float | None,
) -> tuple[int, int, int] | None:
    """The best 2-exchange ``(gain, u, x)`` joining the cycle ``members`` to the main one
    (None: no candidate; without ``index``, or past ``deadline``, the depot's joints only).

    The candidates of :data:`EXCHANGE_PAIRS` exchanges at a time are scored by
    :meth:`PairScore.many` (the first of equal gains kept, in the members' order and each
    member's candidates' set order)."""
    N = net.instance.n
    cyclic = net.instance.cyclic
    best: tuple[int, int, int] | None = None  # (gain, u, x)
    us: list[int] = []
    xs: list[int] = []
    for u in members:
        cands: set[int] = set()
        if not cyclic:
            cands.update((pred[N], N))
        if index is not None and (deadline is None or time.perf_counter() < deadline):
            add_candidates(index, u, succ[u], limit, pred, in_main, cands)
        for x in cands:
            if x == N or in_main[x]:
                us.append(u)
                xs.append(x)
        if len(us) >= EXCHANGE_PAIRS:
            best = _better(best, _scored(us, xs, succ, pair))
            us, xs = [], []
    if us:
        best = _better(best, _scored(us, xs, succ, pair))
    return best


#: Exchanges scored in one batch of array passes by :func:`_best_exchange` (its arrays: about
#: 100 bytes an exchange).
EXCHANGE_PAIRS = 1 << 18


def _scored(
    us: list[int], xs: list[int], succ: array[int], pair: PairScore
) -> tuple[int, int, int]:
    """The best exchange ``(gain, u, x)`` of the joints ``u -> succ[u]`` and ``x -> succ[x]``
    listed (the first of equal gains)."""
    s = np.frombuffer(succ, dtype=np.int64)
    u = np.asarray(us, dtype=np.int64)
    x = np.asarray(xs, dtype=np.int64)
    v, y = s[u], s[x]
    gain = pair.many(x, v) + pair.many(u, y) - pair.many(x, y) - pair.many(u, v)
    k = int(np.argmax(gain))
    return int(gain[k]), us[k], xs[k]


def _better(best: tuple[int, int, int] | None, found: tuple[int, int, int]) -> tuple[int, int, int]:
    """``found`` when it gains more than ``best`` (the earlier of equal gains kept)."""
    return found if best is None or found[0] > best[0] else best


def add_candidates(
    index: CandidateIndex,
    u: int,
    v: int,
    limit: int,
    pred: array[int],
    in_main: bytearray,
    cands: set[int],
) -> None:
    """Add to ``cands`` the joints ``x -> y`` worth exchanging with ``u -> v``.

    Candidates are ``y`` below a suffix of ``u`` (up to 8 of its failure chain) and ``x``
    ending with a prefix of ``v`` (up to 8 of its ancestors), among the items marked in
    ``in_main``: at most ``limit`` items an overlap string, the words longest overlaps first
    and each word's copies in turn (a list of distinct words: ``limit`` words).

    Parameters
    ----------
    index : CandidateIndex
    u, v : int
        The joint's items.
    limit : int
        Candidate items examined per overlap string.
    pred : array.array of int, length N + 1
        Each item's predecessor.
    in_main : bytearray, length N
        Nonzero for the items whose joints may be candidates.
    cands : set of int
        Updated in place with the candidates ``x``.

    Notes
    -----
    The copies of a word overlap every other word alike: on 10,000 random ``ab`` strings of 3-8
    letters (504 distinct words, about 20 copies each), ``limit`` words and all their copies
    made about 2,450 candidates a joint, and the patching of one cycle of 6,902 items took the
    whole time limit.
    """
    fail, parent, copies = index.fail, index.parent, index.copies
    node = index.item_node[u]
    chain = [node]
    f = fail.item(node)
    while f > 0 and len(chain) < 8:
        chain.append(f)
        f = fail.item(f)
    for s in chain:
        _take(
            cands,
            (pred[y] for w in index.words_below(s, limit) for y in copies(w) if in_main[y]),
            limit,
        )
    p = index.item_node[v]
    steps = 0
    while p > 0 and steps < 8:
        _take(
            cands, (x for w in index.words_ending(p, limit) for x in copies(w) if in_main[x]), limit
        )
        p = parent.item(p)
        steps += 1


def _take(cands: set[int], items: Iterator[int], limit: int) -> None:
    """Add the first ``limit`` of ``items`` to ``cands``."""
    cands.update(itertools.islice(items, limit))


# ---------------------------------------------------------------------------------------------
# The whole pipeline.
# ---------------------------------------------------------------------------------------------
