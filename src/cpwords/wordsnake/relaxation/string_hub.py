"""The string-hub network: Wordsnake's assignment relaxation in O(total letters) arcs.

Every joint ``a -> b`` with overlap ``k`` passes a *string hub*: the prefix-trie node of the
overlap string ``s = a[-k:] = b[:k]``. A unit of flow leaves the exit of ``a`` by a *hand-over*
arc to ``H(s)`` (weight ``|s|^2``; ``|s|`` for the linear score) and goes on to the entry of a
word below ``s`` in the trie. The hand-over strings of ``a`` are exactly its suffixes that are
trie nodes: the failure chain of ``a``'s node in the Aho-Corasick automaton of the list. Hubs
link straight to the entries below them (a *flat* layout, at most one arc per letter of each
word), so the network has O(total letters) nodes and arcs instead of one arc per pair with a
positive overlap. Its min-cost flow is the assignment relaxation (a cycle cover of the overlap
graph) with the explicit model's value.

Traps closed here (proofs in ``models/wordsnake.md``):

* *full overlaps*: a whole word ``a`` hands over to ``H+(a)``, the words that strictly
  extend ``a``;
* *borders*: a suffix ``s`` of ``a`` that is also its prefix (``alfalfa``, ``mahimahi``) would
  lead back to ``a``; for ``|s| >= 2`` the hand-over goes to a private chain along the trie path
  from ``s`` to ``a`` that reaches every word with prefix ``s`` except ``a`` (one-letter borders
  keep the shared hub, as the letter-hub model does, and are left to subtour elimination);
* *repeated words*: a word listed ``k`` times is one node pair with supply ``k`` and an arc to
  itself of capacity ``k - 1`` carrying the copy-to-copy overlap;
* ``proper`` overlaps hand over to ``H+(s)``; a linear snake's ends pass one depot unit through
  the root hub (the root is split into an entry ``R_in`` with demand 1 and the trie root with
  supply 1).

No solver is imported here: :mod:`~cpwords.wordsnake.exact.stages.lagrangian_relaxation` solves the
network.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from cpwords.core.errors import InputError
from cpwords.wordsnake.relaxation.sorting import (
    common_prefix,
    dense_table,
    lookup_sorted,
    rows_without,
    stable_order,
    walk_by_level,
)
from cpwords.wordsnake.rules import WordsnakeInstance


class DeadlineReached(Exception):
    """A time limit passed while building or solving (the caller returns its best so far)."""


def _check(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() >= deadline:
        raise DeadlineReached


#: Arc roles (``StringHubNetwork.role``).
TRIE, SPLIT, DELIVER, HANDOVER, SELF, ZERO, ROOTLINK, PRIVATE = range(8)

#: Peak memory of a whole exact solve (the process tree): a base plus bytes per letter of input
#: and per word, used to refuse inputs that cannot fit. Fitted on 36 measured peaks
#: (2026-11-27: the 13 curated dictionaries of benchmarks/results/wordsnake-dictionaries/, the 21
#: wordfreq lists of wordsnake-languages and -more, and the whole Polish dictionary, 4,017,624
#: words and 50.1 million letters, 11.66 GB): every peak is at most 0.98 of the estimate
#: (Chinese, short words), median 0.68; Polish 0.68 (17.1 GB estimated).
BYTES_BASE = 500_000_000
BYTES_PER_LETTER = 220
BYTES_PER_WORD = 1400


def estimate_memory(instance: WordsnakeInstance) -> int:
    """Estimated peak memory in bytes of a string-hub solve of ``instance``.

    Parameters
    ----------
    instance : WordsnakeInstance

    Returns
    -------
    int
        ``BYTES_BASE + BYTES_PER_LETTER * letters + BYTES_PER_WORD * words``: linear in the
        input, calibrated on whole dictionaries (see the module constants).
    """
    letters = sum(map(len, instance.words))
    return BYTES_BASE + BYTES_PER_LETTER * letters + BYTES_PER_WORD * instance.n


@dataclass(frozen=True)
class Trie:
    """Prefix trie of a sorted list of distinct words, with Aho-Corasick failure links.

    Node ids are assigned in preorder (insertion of sorted words), so the subtree of node ``v``
    is the id range ``[v, end[v]]``. Node 0 is the root (the empty string).

    Attributes
    ----------
    depth, parent, char, end, fail : numpy.ndarray of int32, shape (T,)
        String length of each node, parent (-1 for the root), last letter (its index in
        ``alphabet``), last id of its subtree, and failure link (the longest proper suffix of the
        node's string that is a node).
    word_node : numpy.ndarray of int32, shape (W,)
        Node of each distinct word (increasing, since the words are sorted).
    node_word : numpy.ndarray of int32, shape (T,)
        Word id of each node, -1 where the node is not a word.
    child_key, child_id : numpy.ndarray of int64, shape (T - 1,)
        ``parent * radix + letter`` sorted, and the child with that key.
    alphabet : str
        The letters that occur in the words, in code-point order (any script).
    """

    depth: np.ndarray
    parent: np.ndarray
    char: np.ndarray
    end: np.ndarray
    fail: np.ndarray
    word_node: np.ndarray
    node_word: np.ndarray
    child_key: np.ndarray
    child_id: np.ndarray
    alphabet: str = ""

    @property
    def radix(self) -> int:
        """Number of distinct letters (at least 1): the base of ``child_key``."""
        return max(1, len(self.alphabet))

    @property
    def size(self) -> int:
        """Number of nodes, root included."""
        return int(self.depth.shape[0])

    def child(self, nodes: np.ndarray, letters: np.ndarray) -> np.ndarray:
        """Child of each node by each letter, -1 where there is none (vectorised)."""
        keys = nodes.astype(np.int64) * self.radix + letters
        pos = lookup_sorted(self.child_key, keys)
        pos_c = np.minimum(pos, max(0, self.child_key.shape[0] - 1))
        ok = (pos < self.child_key.shape[0]) & (self.child_key[pos_c] == keys)
        return np.where(ok, self.child_id[pos_c], -1)

    def suffix_nodes(self) -> tuple[np.ndarray, np.ndarray]:
        """Every (word, node) pair where the node's string is a proper suffix of the word.

        Returns
        -------
        words, nodes : numpy.ndarray of int64, shape (k,)
            Word ids and trie nodes (root excluded): the failure chain of each word's node,
            nearest (longest suffix) first per word. ``k <= total letters``.
        """
        wid = np.arange(self.word_node.shape[0], dtype=np.int64)
        cur = self.fail[self.word_node].astype(np.int64)
        rec_w: list[np.ndarray] = []
        rec_s: list[np.ndarray] = []
        while True:
            live = cur > 0
            if not live.any():
                break
            wid, cur = wid[live], cur[live]
            if wid.size < SMALL_LEVEL:  # a few long chains: one step a link, not an array pass
                which, node = walk_by_level(self.fail, cur.tolist())
                keep = node > 0
                rec_w.append(wid[which[keep]])
                rec_s.append(node[keep])
                break
            rec_w.append(wid)
            rec_s.append(cur)
            cur = self.fail[cur].astype(np.int64)
        if not rec_w:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        return np.concatenate(rec_w), np.concatenate(rec_s)

    def children(self, node: int) -> np.ndarray:
        """Children of one node, in letter order."""
        r = self.radix
        lo, hi = np.searchsorted(self.child_key, [node * r, node * r + r])
        return self.child_id[lo:hi]


def build_trie(words: Sequence[str], deadline: float | None = None) -> Trie:
    """Build the prefix trie and failure links of sorted distinct lower-case words.

    Parameters
    ----------
    words : sequence of str
        Sorted (by code point), distinct, in any alphabet.
    deadline : float, optional
        ``time.perf_counter()`` value after which the build stops.

    Returns
    -------
    Trie

    Raises
    ------
    DeadlineReached
        The deadline passed.

    Notes
    -----
    Insertion of sorted words: each word shares its longest common prefix with the previous one
    and creates one node per further letter, O(total letters), vectorised
    (:func:`_insert_sorted`). Failure links are computed level by level (vectorised per depth)
    as in Aho and Corasick's construction, amortised O(total letters).

    References
    ----------
    A. V. Aho, M. J. Corasick, "Efficient string matching: an aid to bibliographic search",
    Communications of the ACM 18(6), 1975.
    """
    alphabet, dep, par, ch, wn = _insert_sorted(words, deadline)
    radix = max(1, len(alphabet))
    size = dep.shape[0]
    keys = par[1:].astype(np.int64) * radix + ch[1:]
    order = np.argsort(keys)  # distinct keys (one child per letter): any sort gives this
    child_key = keys[order]
    child_id = (order + 1).astype(np.int64)
    node_word = np.full(size, -1, dtype=np.int32)
    node_word[wn] = np.arange(wn.shape[0], dtype=np.int32)

    # Levels: nodes grouped by depth.
    by_depth = stable_order(dep)
    cuts = np.searchsorted(dep[by_depth], np.arange(int(dep.max(initial=0)) + 2))
    levels = [by_depth[cuts[d] : cuts[d + 1]] for d in range(len(cuts) - 1)]
    end = _subtree_ends(par, levels)
    fail = np.zeros(size, dtype=np.int32)
    trie = Trie(
        dep, par, ch.astype(np.int32), end, fail, wn, node_word, child_key, child_id, alphabet
    )
    _failure_links(trie, levels, ch, deadline)
    return trie


#: A level of the trie with fewer nodes than this is done in a plain loop: array operations
#: cost about a microsecond each whatever their size, and a word of 100,000 letters makes
#: 100,000 levels of one node.
SMALL_LEVEL = 64


def _subtree_ends(par: np.ndarray, levels: list[np.ndarray]) -> np.ndarray:
    """The last id of each node's subtree (ids in preorder), deepest level first."""
    end = np.arange(par.shape[0], dtype=np.int32)
    for level in reversed(levels[1:]):
        if level.size >= SMALL_LEVEL:
            np.maximum.at(end, par[level], end[level])
            continue
        for v in level.tolist():
            p = int(par[v])
            if end[v] > end[p]:
                end[p] = end[v]
    return end


def _failure_links(
    trie: Trie, levels: list[np.ndarray], ch: np.ndarray, deadline: float | None
) -> None:
    """Aho and Corasick's failure links, level by level (as arrays on large levels, in a loop
    on small ones); fills ``trie.fail``."""
    fail, par = trie.fail, trie.parent
    child_of: dict[int, int] | None = None  # parent * radix + letter -> child, for small levels
    # Each node's child by each letter in one flat table, where the alphabet is small.
    dense = dense_table(trie.child_key, trie.child_id, trie.size * trie.radix, 16 * trie.size)
    for level in levels[2:]:
        _check(deadline)
        if level.size < SMALL_LEVEL:
            if child_of is None:
                child_of = dict(zip(trie.child_key.tolist(), trie.child_id.tolist(), strict=True))
            _links_in_a_loop(trie, level, ch, child_of)
            continue
        letters = ch[level]
        f = fail[par[level]].astype(np.int64)
        result = np.zeros(level.shape[0], dtype=np.int64)
        active = np.arange(level.shape[0])
        while active.size:
            if dense is None:
                found = trie.child(f[active], letters[active])
            else:
                found = dense[f[active] * trie.radix + letters[active]]
            hit = found >= 0
            result[active[hit]] = found[hit]
            rest = active[~hit]
            rest = rest[f[rest] != 0]  # at the root with no child: the failure link is the root
            f[rest] = fail[f[rest]]
            active = rest
        fail[level] = result


def _links_in_a_loop(
    trie: Trie, level: np.ndarray, ch: np.ndarray, child_of: dict[int, int]
) -> None:
    """The failure links of one small level, node by node (``child_of``: each child by its
    key ``parent * radix + letter``)."""
    fail, par, radix = trie.fail, trie.parent, trie.radix
    for v in level.tolist():
        node, letter = int(fail[par[v]]), int(ch[v])
        link = child_of.get(node * radix + letter, -1)
        while link < 0 and node != 0:
            node = int(fail[node])
            link = child_of.get(node * radix + letter, -1)
        fail[v] = max(link, 0)


def _insert_sorted(
    words: Sequence[str], deadline: float | None
) -> tuple[str, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The trie's nodes in insertion order (the root first, then each word's new letters, word
    by word): the alphabet, and each node's depth, parent and letter code, and each word's node.

    Word ``i`` shares ``lcp_i`` letters with word ``i - 1`` and creates the nodes of its letters
    ``lcp_i .. len_i - 1`` (at least one: the words are sorted and distinct), numbered in a row
    from ``start_i``. The parent of its first new node is the node of its first ``lcp_i``
    letters, created by the last word ``k < i`` with ``lcp_k < lcp_i`` (the words between share
    those letters and created nothing up to there). All of it in array operations: the letter
    columns for the common prefixes, one pass per prefix length for the parents. Measured on
    the Ukrainian dictionary (1,468,397 words, 15.7 million letters): 6.2 s in a Python loop of
    appends, which this replaces.
    """
    n = len(words)
    lens = np.fromiter(map(len, words), dtype=np.int64, count=n)
    points = np.frombuffer("".join(words).encode("utf-32-le"), dtype=np.uint32)
    letters = np.unique(points)
    alphabet = "".join(map(chr, letters.tolist()))
    codes = np.searchsorted(letters, points).astype(np.int64)
    del points
    offsets = np.zeros(n, dtype=np.int64)
    np.cumsum(lens[:-1], out=offsets[1:])
    _check(deadline)
    # The common prefix of each word with the one before, one letter column at a time.
    lcp = np.zeros(n, dtype=np.int64)
    shorter = np.minimum(lens[:-1], lens[1:])
    pairs = np.arange(n - 1, dtype=np.int64)  # pair p: words p and p + 1
    d = 0
    while pairs.size and pairs.size >= SMALL_LEVEL:
        pairs = pairs[shorter[pairs] > d]
        pairs = pairs[codes[offsets[pairs] + d] == codes[offsets[pairs + 1] + d]]
        lcp[pairs + 1] += 1
        d += 1
    for p in pairs.tolist():  # a few long common prefixes (a word of 100,000 letters)
        lcp[p + 1] = common_prefix(words[p], words[p + 1], d)
    _check(deadline)
    new = lens - lcp
    start = np.ones(n, dtype=np.int64)
    np.cumsum(new[:-1], out=start[1:])
    start[1:] += 1
    size = 1 + int(new.sum())
    owner = np.repeat(np.arange(n, dtype=np.int64), new)
    ids = np.arange(1, size, dtype=np.int64)
    letter_at = lcp[owner] + ids - start[owner]  # the letter index each node stands for
    dep = np.empty(size, dtype=np.int32)
    dep[0] = 0
    dep[1:] = letter_at + 1
    ch = np.zeros(size, dtype=np.int64)
    ch[1:] = codes[offsets[owner] + letter_at]
    par = np.empty(size, dtype=np.int32)
    par[0] = -1
    par[1:] = ids - 1
    first = start[lcp == 0]
    par[first] = 0
    needs = np.nonzero(lcp > 0)[0]
    if needs.size:
        at = lcp[needs] - 1  # the letter index of the parent node
        everyone = np.arange(n, dtype=np.int64)
        for t in np.unique(at).tolist():
            _check(deadline)
            last = np.maximum.accumulate(np.where(lcp <= t, everyone, -1))
            sel = needs[at == t]
            maker = last[sel - 1]
            par[start[sel]] = start[maker] + (t - lcp[maker])
    wn = (start + new - 1).astype(np.int32)
    return alphabet, dep, par, ch, wn


@dataclass(frozen=True)
class StringHubNetwork:
    """The string-hub flow network of an instance (see the module docstring).

    Node ids: trie nodes ``H(v)`` are ``0..T-1`` (0 is the root); ``H+`` of word ``w`` is
    ``T + w``; the exit of word ``w`` is ``T + W + w`` and its entry ``T + 2W + w``; ``R_in`` is
    ``T + 3W`` (linear snakes); private border chains follow.

    Attributes
    ----------
    instance : WordsnakeInstance
    words : tuple of str
        The distinct words, sorted.
    mult : numpy.ndarray of int64, shape (W,)
        How many items each distinct word stands for.
    item_word : numpy.ndarray of int64, shape (N,)
        Distinct-word id of each item of the instance.
    trie : Trie
    num_nodes : int
    tail, head : numpy.ndarray of int64, shape (m,)
    cap : numpy.ndarray of int64, shape (m,)
    weight : numpy.ndarray of int64, shape (m,)
        ``|s|^2`` on hand-over arcs, the copy-to-copy score on self arcs, 0 elsewhere.
    role : numpy.ndarray of int8, shape (m,)
        ``TRIE``, ``SPLIT``, ``DELIVER``, ``HANDOVER``, ``SELF``, ``ZERO``, ``ROOTLINK`` or
        ``PRIVATE``.
    supply : numpy.ndarray of int64, shape (num_nodes,)
    topo : numpy.ndarray of int64
        The hub nodes (trie, ``H+``, ``R_in``, private) in a topological order of the network
        without the word nodes.
    chains : dict
        ``{word: (top, c_nodes, c_plus)}`` for every word with a private border chain: the
        chain's nodes for the trie depths ``top .. len(word) - 1`` along the word's path (``c_plus``
        equals ``c_nodes`` where the path node is not a word). Used to route a given assignment
        through the network (:mod:`~cpwords.wordsnake.relaxation.assignment`).
    """

    instance: WordsnakeInstance
    words: tuple[str, ...]
    mult: np.ndarray
    item_word: np.ndarray
    trie: Trie
    num_nodes: int
    tail: np.ndarray
    head: np.ndarray
    cap: np.ndarray
    weight: np.ndarray
    role: np.ndarray
    supply: np.ndarray
    topo: np.ndarray
    chains: dict[int, tuple[int, list[int], list[int]]] = field(default_factory=dict)

    @property
    def m(self) -> int:
        """Number of arcs."""
        return int(self.tail.shape[0])

    @property
    def num_words(self) -> int:
        """Number of distinct words W."""
        return len(self.words)

    @property
    def out_base(self) -> int:
        """Node id of the exit of word 0."""
        return self.trie.size + self.num_words

    @property
    def in_base(self) -> int:
        """Node id of the entry of word 0."""
        return self.trie.size + 2 * self.num_words

    @property
    def r_in(self) -> int:
        """Node id of ``R_in`` (linear snakes; unused for cyclic ones)."""
        return self.trie.size + 3 * self.num_words


def build_string_network(
    instance: WordsnakeInstance, deadline: float | None = None
) -> StringHubNetwork:
    """Build the string-hub network of an instance.

    Parameters
    ----------
    instance : WordsnakeInstance
        At least two items.
    deadline : float, optional
        ``time.perf_counter()`` value after which the build stops.

    Returns
    -------
    StringHubNetwork
        O(total letters) nodes and arcs (linear memory).

    Raises
    ------
    InputError
        An instance of one item (it has no joint to route).
    DeadlineReached
        The deadline passed.
    """
    if instance.n < 2:
        raise InputError("the string-hub network needs at least two items")
    counts = Counter(instance.words)
    words = tuple(sorted(counts))
    index = {w: i for i, w in enumerate(words)}
    mult = np.array([counts[w] for w in words], dtype=np.int64)
    item_word = np.array([index[w] for w in instance.words], dtype=np.int64)
    del index
    trie = build_trie(words, deadline)
    _check(deadline)
    ids = _node_ids(trie, len(words), instance.cyclic)
    arcs = _Arcs()
    pw, ps = _add_word_arcs(arcs, trie, ids, mult, instance)
    private = _private_chains(trie, ids, mult, pw, ps, instance.proper, deadline)
    _add_private_arcs(arcs, private, instance)
    _add_flat_arcs(arcs, trie, ids, mult)
    num_nodes = private.next_id
    supply = _supply(ids, mult, num_nodes, instance.cyclic)
    topo = _topo_order(trie, ids, private.topo, instance.cyclic)
    return StringHubNetwork(
        instance=instance,
        words=words,
        mult=mult,
        item_word=item_word,
        trie=trie,
        num_nodes=num_nodes,
        tail=np.concatenate(arcs.tails),
        head=np.concatenate(arcs.heads),
        cap=np.concatenate(arcs.caps),
        weight=np.concatenate(arcs.weights),
        role=np.concatenate(arcs.roles),
        supply=supply,
        topo=topo,
        chains=private.chains,
    )


@dataclass(frozen=True)
class _NodeIds:
    """Node ids of the network (see :class:`StringHubNetwork`) and per-word trie facts."""

    T: int
    W: int
    wn: np.ndarray  # each word's trie node (int64)
    depth: np.ndarray  # each trie node's depth (int64)
    has_desc: np.ndarray  # whether a word strictly extends each word
    plus: np.ndarray  # H+(v) for word nodes, v itself otherwise
    out_n: np.ndarray
    in_n: np.ndarray
    r_in: int
    root_sink: int  # where chain ends go: the root (cyclic) or R_in


def _node_ids(trie: Trie, W: int, cyclic: bool) -> _NodeIds:
    """The node ids of the hubs and word nodes of a network over ``trie``."""
    T = trie.size
    wn = trie.word_node.astype(np.int64)
    depth = trie.depth.astype(np.int64)
    has_desc = trie.end[wn] > wn
    plus = np.arange(T, dtype=np.int64)
    plus[wn] = T + np.arange(W)
    out_n = T + W + np.arange(W)
    in_n = T + 2 * W + np.arange(W)
    r_in = T + 3 * W
    return _NodeIds(T, W, wn, depth, has_desc, plus, out_n, in_n, r_in, 0 if cyclic else r_in)


@dataclass
class _Arcs:
    """Arc arrays in the order they are added (concatenated once, at the end)."""

    tails: list[np.ndarray] = field(default_factory=list)
    heads: list[np.ndarray] = field(default_factory=list)
    caps: list[np.ndarray] = field(default_factory=list)
    weights: list[np.ndarray] = field(default_factory=list)
    roles: list[np.ndarray] = field(default_factory=list)

    def add(
        self, t: np.ndarray, h: np.ndarray, c: np.ndarray | int, w: np.ndarray | int, r: int
    ) -> None:
        """Append the arcs ``t -> h`` with capacities ``c``, weights ``w`` and role ``r``."""
        t = np.asarray(t, dtype=np.int64)
        self.tails.append(t)
        self.heads.append(np.asarray(h, dtype=np.int64))
        self.caps.append(np.broadcast_to(np.asarray(c, dtype=np.int64), t.shape).copy())
        self.weights.append(np.broadcast_to(np.asarray(w, dtype=np.int64), t.shape).copy())
        self.roles.append(np.full(t.shape, r, dtype=np.int8))


def _add_word_arcs(
    arcs: _Arcs, trie: Trie, ids: _NodeIds, mult: np.ndarray, instance: WordsnakeInstance
) -> tuple[np.ndarray, np.ndarray]:
    """Add the split, delivery, zero, root-link, shared hand-over and self arcs.

    Returns the (word, suffix node) pairs of the borders of two letters or more, which hand over
    to private chains instead.
    """
    T, W = ids.T, ids.W
    wn, depth, out_n, in_n = ids.wn, ids.depth, ids.out_n, ids.in_n
    proper, cyclic = instance.proper, instance.cyclic
    big = int(instance.n)
    arcs.add(wn, T + np.arange(W), big, 0, SPLIT)
    arcs.add(wn, in_n, mult, 0, DELIVER)
    arcs.add(out_n, np.full(W, ids.root_sink), mult, 0, ZERO)
    if not cyclic:
        arcs.add(np.array([ids.r_in]), np.array([0]), big, 0, ROOTLINK)
    if not proper:
        full = np.nonzero(ids.has_desc)[0]
        arcs.add(out_n[full], T + full, mult[full], instance.weight(depth[wn[full]]), HANDOVER)

    # Hand-over strings: the failure chain of each word's node.
    hw, hs = trie.suffix_nodes()
    border = (hs <= wn[hw]) & (wn[hw] <= trie.end[hs])
    private = border & (depth[hs] >= 2)
    shared = ~private
    target = ids.plus[hs[shared]] if proper else hs[shared]
    gain = instance.weight(depth[hs[shared]])
    arcs.add(out_n[hw[shared]], target, mult[hw[shared]], gain, HANDOVER)

    # Repeated words: copy-to-copy joints (a word followed by a copy of itself).
    if (mult > 1).any():
        self_ov = np.zeros(W, dtype=np.int64)
        if proper:
            # Copies of a word overlap by its longest proper border.
            np.maximum.at(self_ov, hw[border], depth[hs[border]])
        else:
            self_ov = depth[wn]
        many = np.nonzero((mult > 1) & (self_ov > 0))[0]
        arcs.add(out_n[many], in_n[many], mult[many] - 1, instance.weight(self_ov[many]), SELF)
    return hw[private], hs[private]


@dataclass
class _PrivateChains:
    """The private border chains: their nodes, arcs (lists of ints, in creation order) and
    each chained word's ``(top, c_nodes, c_plus)`` (:attr:`StringHubNetwork.chains`)."""

    next_id: int  # the first node id not used
    priv_t: list[int] = field(default_factory=list)
    priv_h: list[int] = field(default_factory=list)
    priv_c: list[int] = field(default_factory=list)
    priv_r: list[int] = field(default_factory=list)
    ho_t: list[int] = field(default_factory=list)
    ho_h: list[int] = field(default_factory=list)
    ho_c: list[int] = field(default_factory=list)
    ho_w: list[int] = field(default_factory=list)
    topo: list[int] = field(default_factory=list)
    chains: dict[int, tuple[int, list[int], list[int]]] = field(default_factory=dict)


def _private_chains(
    trie: Trie,
    ids: _NodeIds,
    mult: np.ndarray,
    pw: np.ndarray,
    ps: np.ndarray,
    proper: bool,
    deadline: float | None,
) -> _PrivateChains:
    """Private chains for the borders ``ps`` (of two letters or more) of the words ``pw``."""
    out = _PrivateChains(ids.r_in + 1)
    if not pw.size:
        return out
    order = np.lexsort((ids.depth[ps], pw))
    pw, ps = pw[order], ps[order]
    starts = np.nonzero(np.r_[True, pw[1:] != pw[:-1]])[0]
    stops = np.r_[starts[1:], pw.size]
    # Each node's children: a range of the sorted child keys (one search for all nodes).
    first_child = np.searchsorted(
        trie.child_key, np.arange(trie.size + 1, dtype=np.int64) * trie.radix
    )
    for a, b in zip(starts.tolist(), stops.tolist(), strict=True):
        _check(deadline)
        _chain_of_word(out, trie, ids, mult, first_child, int(pw[a]), ps[a:b], proper)
    return out


def _chain_of_word(
    out: _PrivateChains,
    trie: Trie,
    ids: _NodeIds,
    mult: np.ndarray,
    first_child: np.ndarray,
    w: int,
    borders: np.ndarray,
    proper: bool,
) -> None:
    """Word ``w``'s private chain from its shortest border (``borders``, by depth) down to the
    word: a node a letter (and a ``+`` node where a word ends there), the other children
    left at each node, and the hand-overs from ``w``'s exit into the chain."""
    T, wn, depth, par = ids.T, ids.wn, ids.depth, trie.parent
    k, u = mult.item(w), wn.item(w)
    top, lw = depth.item(borders[0]), depth.item(u)
    path = [u]
    for _ in range(lw - top):
        path.append(par.item(path[-1]))
    path.reverse()  # nodes at depths top .. lw
    c_node: dict[int, int] = {}
    cplus: dict[int, int] = {}
    for d, pword in zip(range(top, lw), trie.node_word[path[:-1]].tolist(), strict=True):
        c_node[d] = out.next_id
        out.topo.append(out.next_id)
        out.next_id += 1
        if pword >= 0:
            cplus[d] = out.next_id
            out.topo.append(out.next_id)
            out.next_id += 1
            out.priv_t += [c_node[d], c_node[d]]
            out.priv_h += [ids.in_n.item(pword), cplus[d]]
            out.priv_c += [mult.item(pword), k]
            out.priv_r += [DELIVER, PRIVATE]
        else:
            cplus[d] = c_node[d]
    # Each path node's children but the next node of the path, in letter order.
    nodes = np.array(path, dtype=np.int64)
    others = rows_without(trie.child_id, first_child, nodes[:-1], nodes[1:])
    for d, heads in zip(range(top, lw), others, strict=True):
        if d + 1 < lw:
            heads.append(c_node[d + 1])
        elif bool(ids.has_desc[w]):
            heads.append(T + w)
        out.priv_t += [cplus[d]] * len(heads)
        out.priv_h += heads
        out.priv_c += [k] * len(heads)
        out.priv_r += [PRIVATE] * len(heads)
    out.chains[w] = (top, [c_node[d] for d in range(top, lw)], [cplus[d] for d in range(top, lw)])
    for s in borders.tolist():
        d = int(depth[s])
        out.ho_t.append(int(ids.out_n[w]))
        out.ho_h.append(cplus[d] if proper else c_node[d])
        out.ho_c.append(k)
        out.ho_w.append(d)  # the overlap; _add_private_arcs weighs it


def _add_private_arcs(arcs: _Arcs, private: _PrivateChains, instance: WordsnakeInstance) -> None:
    """Add the arcs of the private chains, then the hand-overs into them (each weighted by
    the instance's score of its overlap)."""
    if private.priv_t:
        t = np.array(private.priv_t, dtype=np.int64)
        arcs.tails.append(t)
        arcs.heads.append(np.array(private.priv_h, dtype=np.int64))
        arcs.caps.append(np.array(private.priv_c, dtype=np.int64))
        arcs.weights.append(np.zeros(t.shape, dtype=np.int64))
        arcs.roles.append(np.array(private.priv_r, dtype=np.int8))
    if private.ho_t:
        arcs.add(
            np.array(private.ho_t),
            np.array(private.ho_h),
            np.array(private.ho_c),
            instance.weight(np.array(private.ho_w, dtype=np.int64)),
            HANDOVER,
        )


def _add_flat_arcs(arcs: _Arcs, trie: Trie, ids: _NodeIds, mult: np.ndarray) -> None:
    """Add the arcs from every hub that receives units to the entries of the words below it."""
    # Flat layout: every hub that receives units links straight to the entries of the words
    # below it (at most one arc per letter of each word). Paths have two arcs instead of one
    # per trie level, which push-relabel solves several times faster.
    T, W, wn, plus, in_n = ids.T, ids.W, ids.wn, ids.plus, ids.in_n
    target = np.zeros(T, dtype=bool)
    target[0] = True
    for h in arcs.heads:
        target[h[h < T]] = True
        hp = h[(h >= T) & (h < T + W)]
        target[wn[hp - T]] = True  # H+(w) reached: treat the word's node as a target
    src_l: list[np.ndarray] = []
    dst_l: list[np.ndarray] = []
    word_ids = np.arange(W, dtype=np.int64)
    cur = wn.copy()
    live = cur > 0
    while live.any():
        word_ids, cur = word_ids[live], trie.parent[cur[live]].astype(np.int64)
        few = word_ids.size < SMALL_LEVEL  # a few long words: one step a letter, not a pass
        if few:
            which, cur = walk_by_level(trie.parent, cur.tolist())
            word_ids = word_ids[which]
        hit = target[cur]
        src_l.append(plus[cur[hit]])
        dst_l.append(in_n[word_ids[hit]])
        if few:
            break
        live = cur > 0
    dst = np.concatenate(dst_l)
    arcs.add(np.concatenate(src_l), dst, mult[dst - in_n[0]], 0, TRIE)


def _supply(ids: _NodeIds, mult: np.ndarray, num_nodes: int, cyclic: bool) -> np.ndarray:
    """Node supplies: each word's copies leave its exit and arrive at its entry (and a linear
    snake's depot unit goes from the root to ``R_in``)."""
    supply = np.zeros(num_nodes, dtype=np.int64)
    supply[ids.out_n] = mult
    supply[ids.in_n] = -mult
    if not cyclic:
        supply[0] += 1
        supply[ids.r_in] -= 1
    return supply


def _topo_order(trie: Trie, ids: _NodeIds, topo_private: list[int], cyclic: bool) -> np.ndarray:
    """Topological order of the hub nodes: ``R_in``, private chains, then the trie in preorder
    with ``H+(v)`` right after ``H(v)``."""
    T, W = ids.T, ids.W
    shared_order = np.arange(T, dtype=np.int64)
    is_word = trie.node_word >= 0
    slot = np.arange(T, dtype=np.int64) * 2
    plus_slot = slot[ids.wn] + 1
    merged = np.empty(T + W, dtype=np.int64)
    keys = np.concatenate([slot, plus_slot])
    vals = np.concatenate([shared_order, T + np.arange(W)])
    merged[:] = vals[stable_order(keys)]
    del is_word
    head_part = [] if cyclic else [ids.r_in]
    return np.concatenate(
        [np.array(head_part, dtype=np.int64), np.array(topo_private, dtype=np.int64), merged]
    )
