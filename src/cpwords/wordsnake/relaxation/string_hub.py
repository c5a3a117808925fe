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

import itertools
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from cpwords.core.errors import InputError
from cpwords.core.machine import give_back_freed_memory
from cpwords.wordsnake.relaxation.arc_parts import ArcParts as _Arcs
from cpwords.wordsnake.relaxation.chain_arcs import ChainPositions, chain_arcs
from cpwords.wordsnake.relaxation.chain_table import ChainTable
from cpwords.wordsnake.relaxation.compact_caps import CompactCaps
from cpwords.wordsnake.relaxation.held_roles import HeldRoles
from cpwords.wordsnake.relaxation.int_types import INT32_MAX, id_type, signed_type
from cpwords.wordsnake.relaxation.sorting import (
    level_starts,
    rows_without,
    walk_by_level,
)
from cpwords.wordsnake.relaxation.trie import SMALL_LEVEL, Trie, build_trie, check_deadline
from cpwords.wordsnake.relaxation.trie import DeadlineReached as DeadlineReached  # re-exported
from cpwords.wordsnake.rules import WordsnakeInstance

#: Arc roles (``StringHubNetwork.role``).
TRIE, SPLIT, DELIVER, HANDOVER, SELF, ZERO, ROOTLINK, PRIVATE = range(8)

#: Peak memory of a whole exact solve (the process tree): a base plus bytes per letter of input
#: and per word, used to refuse inputs that cannot fit. Recalibrated 2026-12-06 (evening) on the
#: peaks measured that day (``/usr/bin/time``, the command line): the slope is set by *C.
#: elegans*' 977,555 31-mers (30.3 M letters, 6.46 GB: the most bytes a letter; the estimate is
#: 1.23 x), the base by the lists of short words whose neighbourhood search is large: the
#: Japanese wordfreq list (209,187 words, 844,568 letters, 1.0 GB with a 300 s limit; 1.29 x)
#: and the Chinese one (332,191 words, 968,897 letters, 1.07 GB; 1.23 x). The whole Polish
#: dictionary (50.1 M letters, 4.0 M words, 7.06 GB) gets 1.75 x, every 2nd Polish word (3.39
#: GB) 2.1 x; the small lists get the base above their peak (ENABLE 0.24 GB: 1.45 GB). A cost a
#: word (1,400 bytes covered the Chinese list without the base) asked 17.1 GB for the whole
#: Polish dictionary. Recalibrated again 2026-12-06 (late evening) after the memory round
#: (32-bit flows, released trie and index, array certificates), on the process trees' peaks of
#: that evening's suite rows and side-by-side runs: *C. elegans* 4.99 GB (1.22 x), the whole
#: Polish dictionary 5.51 GB (1.70 x: 9.37 GB asked, 12.4 before), every 2nd Polish word
#: 2.62 GB.
BYTES_BASE = 1_100_000_000
BYTES_PER_LETTER = 165
BYTES_PER_WORD = 0


def estimated_bytes(letters: int, words: int) -> int:
    """Estimated peak memory in bytes of a string-hub solve of ``words`` words of ``letters``
    letters in all.

    Parameters
    ----------
    letters : int
    words : int

    Returns
    -------
    int
        ``BYTES_BASE + BYTES_PER_LETTER * letters + BYTES_PER_WORD * words`` (see the module
        constants for the peaks they were calibrated on).

    Examples
    --------
    >>> round(estimated_bytes(50_100_000, 4_017_624) / 1e9, 1)  # the whole Polish dictionary
    9.4
    """
    return BYTES_BASE + BYTES_PER_LETTER * letters + BYTES_PER_WORD * words


def estimate_memory(instance: WordsnakeInstance) -> int:
    """Estimated peak memory in bytes of a string-hub solve of ``instance``.

    Parameters
    ----------
    instance : WordsnakeInstance

    Returns
    -------
    int
        :func:`estimated_bytes` of its letters and words: linear in the input, calibrated on
        measured peaks from 0.11 to 7.06 GB (see the module constants).
    """
    return estimated_bytes(sum(map(len, instance.words)), instance.n)


@dataclass(frozen=True)
class ArcLayout:
    """Where each part of a network's arcs starts (arc ids), in the order
    :func:`build_string_network` adds them, to read an arc off its ends by arithmetic and
    searches within a part (:mod:`~cpwords.wordsnake.relaxation.assignment`).

    The first parts need no field: the split arcs ``H(w) -> H+(w)`` are arcs ``0 .. W - 1``,
    the deliveries ``H(w) -> entry(w)`` ``W .. 2W - 1``, the zero arcs ``exit(w) -> root``
    (or ``R_in``) ``2W .. 3W - 1`` and a linear snake's root link ``R_in -> root`` arc ``3W``.

    Attributes
    ----------
    full : int
        The full-overlap hand-overs ``exit(w) -> H+(w)`` (``w`` ascending; none when proper).
    shared : int
        The shared hand-overs ``exit(w) -> H(s)`` (``H+(s)`` when proper), step by step along
        the failure chains (:meth:`~cpwords.wordsnake.relaxation.trie.Trie.suffix_chain`),
        ``w`` ascending within a step.
    shared_steps : numpy.ndarray of int64, shape (steps + 1,)
        The first arc of each step, then the end of the part.
    self_arcs : int
        The self arcs ``exit(w) -> entry(w)`` (``w`` ascending).
    private : int
        The private chains' arcs, then the hand-overs into them, up to ``flat``.
    flat : int
        The arcs from the hubs to the entries below them, level by level (the word's parent
        first, then its grandparent ...), words ascending within a level, up to the last arc.
    flat_levels : numpy.ndarray of int64, shape (levels + 1,)
        The first arc of each level (level ``j`` links the hubs ``j`` letters above a word's
        node), then the end.
    """

    full: int
    shared: int
    shared_steps: np.ndarray
    self_arcs: int
    private: int
    flat: int
    flat_levels: np.ndarray


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
    trie : cpwords.wordsnake.relaxation.trie.Trie
    num_nodes : int
    tail, head : numpy.ndarray of int32 (int64 past 2**31 - 1 nodes), shape (m,)
    cap : cpwords.wordsnake.relaxation.compact_caps.CompactCaps, shape (m,)
        Read as an array of int32 (int64 past 2**31 - 1 items) by slices, arc ids or masks;
        held in 8 bits an arc (16 on lists of many repeated words), the few larger capacities
        (the split arcs') aside.
    weight : numpy.ndarray of int8, int16, int32 or int64, shape (m,)
        ``|s|^2`` on hand-over arcs, the copy-to-copy score on self arcs, 0 elsewhere: as narrow
        as the best joint's score fits (:func:`arc_dtypes`), int8 for a k-mer list's linear
        scores, int16 for a dictionary's squared ones.
    role : cpwords.wordsnake.relaxation.held_roles.HeldRoles, shape (m,)
        ``TRIE``, ``SPLIT``, ``DELIVER``, ``HANDOVER``, ``SELF``, ``ZERO``, ``ROOTLINK`` or
        ``PRIVATE``: read as an int8 array by slices, arc ids or masks (``role == r``: a mask
        of every arc), held by parts of one role each (the private chains' arcs their own).
    supply : numpy.ndarray, shape (num_nodes,)
        int8 (int16, int32 or int64 for words listed more than 126 times).
    layout : ArcLayout
        Where each part of the arcs starts.
    chains : ChainTable
        ``chains.get(word)``: ``(top, c_nodes, c_plus)`` for every word with a private border
        chain (None for the others): the chain's nodes for the trie depths
        ``top .. len(word) - 1`` along the word's path (``c_plus`` equals ``c_nodes`` where the
        path node is not a word). Used to route a given assignment through the network
        (:mod:`~cpwords.wordsnake.relaxation.assignment`).

    Notes
    -----
    The arc arrays are as narrow as the instance allows (:func:`arc_dtypes`): 14 bytes an arc
    with 8-bit weights instead of 33 in 64 bits, the network being the solve's largest
    structure. Sums over arcs (``cost * flow``, supplies times potentials) are to be taken in
    64 bits: the arrays' products are not widened by NumPy when both factors are 32-bit, and
    8- or 16-bit weights keep their type against a Python int (NEP 50: ``weight * scale`` may
    wrap), so they are widened first.
    """

    instance: WordsnakeInstance
    words: tuple[str, ...]
    mult: np.ndarray
    item_word: np.ndarray
    trie: Trie
    num_nodes: int
    tail: np.ndarray
    head: np.ndarray
    cap: CompactCaps
    weight: np.ndarray
    role: HeldRoles
    supply: np.ndarray
    layout: ArcLayout
    chains: ChainTable = field(default_factory=ChainTable.empty)

    @property
    def m(self) -> int:
        """Number of arcs."""
        return int(self.tail.shape[0])

    @property
    def num_words(self) -> int:
        """Number of distinct words W."""
        return len(self.words)

    @property
    def topo(self) -> np.ndarray:
        """The hub nodes (trie, ``H+``, ``R_in``, private) in a topological order of the
        network without the word nodes, in the type of ``tail`` (made on each call from the
        trie: a decoding reads it once, where an array held with the network was 92 MB through
        the whole solve of 977,555 31-mers of C. elegans)."""
        private = np.arange(self.r_in + 1, self.num_nodes, dtype=np.int64)
        order = _topo_order(self.trie, self.r_in, private, self.instance.cyclic)
        return order.astype(self.tail.dtype, copy=False)

    def topo_places(self, dtype: type[np.signedinteger]) -> np.ndarray:
        """Each hub's place in :attr:`topo` (``places[topo] == arange``).

        Written straight from the trie, a block of nodes at a time: the order and its inverse
        made from it were 0.3 GB of the decoding's peak on 977,555 31-mers of C. elegans.

        Parameters
        ----------
        dtype : type of numpy.signedinteger
            The places' type (one that holds :attr:`num_nodes`).

        Returns
        -------
        numpy.ndarray of dtype, shape (num_nodes,)
            The hubs' places; the word nodes' entries are left unset (not in :attr:`topo`).
        """
        T, W, first = self.trie.size, self.num_words, self.r_in + 1
        places = np.empty(self.num_nodes, dtype=dtype)
        lead = 0 if self.instance.cyclic else 1  # R_in first on a linear snake
        if lead:
            places[self.r_in] = 0
        places[first:] = np.arange(lead, lead + self.num_nodes - first, dtype=dtype)
        at = lead + self.num_nodes - first  # the trie's nodes and H+ hubs after the chains
        # A trie node's place: the nodes and the H+ hubs (one a word node) before it.
        is_word = self.trie.node_word >= 0
        np.cumsum(is_word, dtype=dtype, out=places[:T])
        for lo in range(0, T, 1 << 20):
            hi = min(T, lo + (1 << 20))
            places[lo:hi] -= is_word[lo:hi]
            places[lo:hi] += np.arange(at + lo, at + hi, dtype=dtype)
        del is_word
        # H+(w) right after its word's node.
        places[T : T + W] = self.trie.word_node + np.arange(at + 1, at + 1 + W, dtype=np.int64)
        return places

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
    words, mult, item_word = distinct_words(instance.words)
    trie = build_trie(words, deadline)
    check_deadline(deadline)
    ids = _node_ids(trie, len(words), instance.cyclic)
    arcs = _Arcs(*arc_dtypes(instance, trie))
    pw, ps, layout = _add_word_arcs(arcs, trie, ids, mult, instance)
    private = _private_chains(trie, ids, mult, pw, ps, instance.proper, deadline)
    del pw, ps
    # The table of children only built the chains: no later step reads it (0.23 GB of the
    # build's peak on 977,555 31-mers of C. elegans).
    trie = trie.without_children()
    layout["private"] = arcs.size
    _add_private_arcs(arcs, private, instance)
    layout["flat"] = arcs.size
    flat_levels = _add_flat_arcs(arcs, trie, ids, mult)
    flat_levels += layout["flat"]
    num_nodes, chains = private.next_id, private.chains
    supply = _supply(ids, mult, num_nodes, instance.cyclic)
    # The node ids and the chains' arrays (held by the parts too) let go before the parts are
    # written into the arrays, the build's peak.
    del ids, private
    tail, head, cap, weight, role = arcs.arrays()
    del arcs
    return StringHubNetwork(
        instance=instance,
        words=words,
        mult=mult,
        item_word=item_word,
        trie=trie,
        num_nodes=num_nodes,
        tail=tail,
        head=head,
        cap=cap,
        weight=weight,
        role=role,
        supply=supply,
        chains=chains,
        layout=ArcLayout(flat_levels=flat_levels, **layout),
    )


def distinct_words(items: Sequence[str]) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """The distinct words of a list, how many times each is listed, and each item's word.

    Parameters
    ----------
    items : sequence of str

    Returns
    -------
    words : tuple of str
        The distinct words in code-point order.
    mult : numpy.ndarray of int64, shape (len(words),)
        How many items each word stands for.
    item_word : numpy.ndarray of int64, shape (len(items),)
        Each item's index in ``words``.

    Notes
    -----
    A list already strictly increasing is its own answer (one pass of comparisons). Else the
    items' positions are sorted by word (Timsort: a few milliseconds for a list already
    in order) and each word told from the one before in C (``map(operator.ne, ...)``): no
    dictionary of the words, whose building and look-ups took 0.18 s on Debian's French list,
    and no set, whose hash order took 0.11 s to sort on ENABLE.

    Examples
    --------
    >>> words, mult, item_word = distinct_words(["run", "nab", "run"])
    >>> words, mult.tolist(), item_word.tolist()
    (('nab', 'run'), [1, 2], [1, 0, 1])
    >>> distinct_words(["nab", "run"])[2].tolist()
    [0, 1]
    """
    n = len(items)
    if all(map(operator.lt, items, itertools.islice(items, 1, None))):
        # Strictly increasing (a dictionary as distributed): one pass of comparisons in C,
        # no sort (ENABLE: 7 ms instead of 28).
        ids = np.arange(n, dtype=np.int64)
        return tuple(items), np.ones(n, dtype=np.int64), ids
    order = sorted(range(n), key=items.__getitem__)
    ordered = list(map(items.__getitem__, order))
    fresh = np.ones(n, dtype=bool)  # the first item of each word in sorted order
    fresh[1:] = np.fromiter(map(operator.ne, ordered[1:], ordered[:-1]), dtype=bool, count=n - 1)
    rank = np.cumsum(fresh, dtype=np.int64)
    rank -= 1
    item_word = np.empty(n, dtype=np.int64)
    item_word[np.fromiter(order, dtype=np.int64, count=n)] = rank
    if fresh.all():
        return tuple(ordered), np.ones(n, dtype=np.int64), item_word
    words = tuple(itertools.compress(ordered, fresh.tolist()))
    return words, np.bincount(rank, minlength=len(words)).astype(np.int64), item_word


@dataclass(frozen=True)
class _NodeIds:
    """Node ids of the network (see :class:`StringHubNetwork`) and per-word trie facts."""

    T: int
    W: int
    wn: np.ndarray  # each word's trie node (int64)
    depth: np.ndarray  # each trie node's depth (the trie's own array: read by ``depth_of``)
    has_desc: np.ndarray  # whether a word strictly extends each word
    plus: np.ndarray  # H+(v) for word nodes, v itself otherwise
    out_n: np.ndarray
    in_n: np.ndarray
    r_in: int
    root_sink: int  # where chain ends go: the root (cyclic) or R_in

    def depth_of(self, nodes: np.ndarray) -> np.ndarray:
        """The depths of some trie nodes in 64 bits (the trie's 32-bit array is read: a 64-bit
        copy of every node's was 0.16 GB of the build's peak on 977,555 31-mers of C. elegans)."""
        return self.depth[nodes].astype(np.int64)


def _node_ids(trie: Trie, W: int, cyclic: bool) -> _NodeIds:
    """The node ids of the hubs and word nodes of a network over ``trie``."""
    T = trie.size
    wn = trie.word_node.astype(np.int64)
    has_desc = trie.end[wn] > wn
    small = id_type(T + W)  # a trie node's H+: 4 bytes, not 8
    plus = np.arange(T, dtype=small)
    plus[wn] = T + np.arange(W, dtype=small)
    out_n = T + W + np.arange(W)
    in_n = T + 2 * W + np.arange(W)
    r_in = T + 3 * W
    return _NodeIds(T, W, wn, trie.depth, has_desc, plus, out_n, in_n, r_in, 0 if cyclic else r_in)


def arc_dtypes(
    instance: WordsnakeInstance, trie: Trie
) -> tuple[type[np.signedinteger], type[np.signedinteger], type[np.signedinteger]]:
    """The narrowest integer types of a network's node ids, capacities and weights.

    Parameters
    ----------
    instance : WordsnakeInstance
    trie : cpwords.wordsnake.relaxation.trie.Trie
        The trie of the instance's distinct words.

    Returns
    -------
    ids, cap, weight : type
        ``numpy.int32`` each where its largest possible value fits, else ``numpy.int64`` (the
        weights ``numpy.int8`` or ``numpy.int16`` where they fit, and their negations): node
        ids below ``T + 3W + 1 + 2 * letters`` (a private chain has at most two nodes a letter
        of its word), capacities at most the number of items, weights at most the score of
        the longest word's overlap.

    Examples
    --------
    >>> from cpwords.wordsnake.relaxation.trie import build_trie
    >>> inst = WordsnakeInstance(("ab", "ba"))
    >>> [t.__name__ for t in arc_dtypes(inst, build_trie(["ab", "ba"]))]
    ['int32', 'int32', 'int8']
    >>> long = WordsnakeInstance(("a" * 50_000, "a"))
    >>> [t.__name__ for t in arc_dtypes(long, build_trie(["a", "a" * 50_000]))]
    ['int32', 'int32', 'int64']
    """
    W = int(trie.word_node.shape[0])
    depths = trie.depth[trie.word_node]
    letters = int(depths.sum(dtype=np.int64))
    longest = int(depths.max(initial=0))
    nodes = trie.size + 3 * W + 1 + 2 * letters

    def fit(top: int) -> type[np.signedinteger]:
        return np.int32 if top <= INT32_MAX else np.int64

    # Weights 8 bits for a k-mer list's linear scores, 16 for a dictionary's squared ones.
    return fit(nodes), fit(instance.n), signed_type(int(instance.weight(longest)))


def _add_word_arcs(
    arcs: _Arcs, trie: Trie, ids: _NodeIds, mult: np.ndarray, instance: WordsnakeInstance
) -> tuple[np.ndarray, np.ndarray, dict]:
    """Add the split, delivery, zero, root-link, shared hand-over and self arcs.

    Returns the (word, suffix node) pairs of the borders of two letters or more, which hand over
    to private chains instead, and where the parts start (:class:`ArcLayout`'s fields so far).
    """
    T, W = ids.T, ids.W
    wn, out_n, in_n = ids.wn, ids.out_n, ids.in_n
    proper, cyclic = instance.proper, instance.cyclic
    big = int(instance.n)
    arcs.add(wn, T + np.arange(W), big, 0, SPLIT)
    arcs.add(wn, in_n, mult, 0, DELIVER)
    arcs.add(out_n, np.full(W, ids.root_sink), mult, 0, ZERO)
    if not cyclic:
        arcs.add(np.array([ids.r_in]), np.array([0]), big, 0, ROOTLINK)
    layout: dict = {"full": arcs.size}
    many_copies = bool((mult > 1).any())
    if not proper:
        full = np.nonzero(ids.has_desc)[0]
        arcs.add(
            out_n[full], T + full, mult[full], instance.weight(ids.depth_of(wn[full])), HANDOVER
        )

    # Hand-over strings: the failure chain of each word's node (in the trie's 32-bit types: a
    # pair a letter of the list, 1.5 M for the 48,472 DNA reads of lambda31).
    hw, hs, steps = trie.suffix_chain()
    if hw.shape[0] >= GIVE_BACK_PAIRS:
        give_back_freed_memory()  # the chain's steps, freed into the heap's holes (0.23 GB)
    whw, dhs = trie.word_node[hw], trie.depth[hs]  # each word's node and each string's length
    border = (hs <= whw) & (whw <= trie.end[hs])
    del whw
    private = border & (dhs >= 2)
    shared = ~private
    sw, ss, ds = hw[shared], hs[shared], dhs[shared]
    target = ids.plus[ss] if proper else ss
    layout["shared"] = arcs.size
    # Each step's first shared hand-over: the shared pairs before it.
    # (Each step's pairs less its private ones, few: a sum of the mask by steps made a 64-bit
    # copy of it, 0.23 GB of the build's peak on 977,555 31-mers of C. elegans.)
    kept = np.zeros(steps.shape[0], dtype=np.int64)
    if steps.shape[0] > 1:
        lost = np.searchsorted(steps, np.flatnonzero(private), side="right") - 1
        counts = np.diff(steps) - np.bincount(lost, minlength=steps.shape[0] - 1)
        np.cumsum(counts, out=kept[1:])
    layout["shared_steps"] = kept + arcs.size
    tails = sw.astype(arcs.ids)
    tails += T + W  # the words' exits
    caps = mult[sw] if many_copies else 1
    arcs.add(tails, target, caps, instance.weight(ds.astype(arcs.weights)), HANDOVER)
    del sw, ss, ds, target, shared, tails
    layout["self_arcs"] = arcs.size

    # Repeated words: copy-to-copy joints (a word followed by a copy of itself).
    if many_copies:
        self_ov = np.zeros(W, dtype=np.int64)
        if proper:
            # Copies of a word overlap by its longest proper border.
            np.maximum.at(self_ov, hw[border], dhs[border])
        else:
            self_ov = ids.depth_of(wn)
        many = np.nonzero((mult > 1) & (self_ov > 0))[0]
        arcs.add(out_n[many], in_n[many], mult[many] - 1, instance.weight(self_ov[many]), SELF)
    return hw[private], hs[private], layout


#: From this many hand-over pairs, the heap's freed blocks go back to the kernel once the
#: failure chains are gathered (977,555 31-mers of C. elegans: 30 million pairs, their steps'
#: arrays 0.23 GB of the network build's peak).
GIVE_BACK_PAIRS = 1 << 23


@dataclass
class _PrivateChains:
    """The private border chains: their nodes (ids ``first`` .. ``next_id - 1``, in a
    topological order), their arcs and the hand-overs into them (arrays, in creation order:
    :func:`_private_chains`), and each chained word's ``(top, c_nodes, c_plus)``
    (:attr:`StringHubNetwork.chains`)."""

    first: int
    next_id: int  # the first node id not used
    arcs: tuple[np.ndarray, ...] = ()  # tails, heads, capacities, roles
    handovers: tuple[np.ndarray, ...] = ()  # tails, heads, capacities, overlaps
    chains: ChainTable = field(default_factory=ChainTable.empty)

    @property
    def topo(self) -> np.ndarray:
        """The chains' nodes in a topological order (their ids, in creation order)."""
        return np.arange(self.first, self.next_id, dtype=np.int64)


def _private_chains(
    trie: Trie,
    ids: _NodeIds,
    mult: np.ndarray,
    pw: np.ndarray,
    ps: np.ndarray,
    proper: bool,
    deadline: float | None,
) -> _PrivateChains:
    """Private chains for the borders ``ps`` (of two letters or more) of the words ``pw``.

    Each chained word ``w`` (ascending) has a chain along its trie path from its shortest
    border (depth ``top``) down to its node: a *position* a depth ``top .. len(w) - 1``, each
    a node ``c`` and, where the path node is a word, a ``+`` node after it. Its arcs, word
    after word: first the deliveries and links of its ``+`` nodes (position by position),
    then each position's arcs to the path node's other children (in letter order) and on
    to the next position (the last one to ``H+(w)`` when a word extends ``w``). All of it in
    array passes over the positions (a Python loop per position took 0.9 s of a quarter of
    the Polish dictionary's build, 18,114 chains, 2 M arcs).
    """
    out = _PrivateChains(ids.r_in + 1, ids.r_in + 1)
    if not pw.size:
        return out
    order = np.lexsort((ids.depth_of(ps), pw))
    pw, ps = pw[order], ps[order]
    fresh = np.r_[True, pw[1:] != pw[:-1]]
    rank = np.cumsum(fresh) - 1  # each border's word, as its rank among the chained words
    starts = np.flatnonzero(fresh)
    words = pw[starts]
    top = ids.depth_of(ps[starts])
    npos = ids.depth_of(ids.wn[words]) - top  # positions: depths top .. len - 1 (at least one)
    pos_start = np.cumsum(npos) - npos
    last = pos_start + npos - 1
    check_deadline(deadline)
    node = _chain_paths(trie.parent, ids.wn[words], npos, last)
    below = np.empty_like(node)  # the next node of each path
    below[:-1] = node[1:]
    below[last] = ids.wn[words]
    pos_word = np.repeat(np.arange(words.size), npos)
    pword = trie.node_word[node].astype(np.int64)
    is_word = pword >= 0
    c_node = out.first + np.cumsum(1 + is_word) - (1 + is_word)
    c_plus = c_node + is_word
    out.next_id = out.first + node.size + int(is_word.sum())
    check_deadline(deadline)
    k = mult[words]  # each chained word's copies
    nxt = np.empty_like(c_node)  # each position's next: the next position, or H+(w)
    nxt[:-1] = c_node[1:]
    nxt[last] = ids.T + words
    has_next = np.ones(node.size, dtype=bool)
    has_next[last] = ids.has_desc[words]
    first_child = np.zeros(trie.size + 1, dtype=id_type(trie.size + 1))
    np.cumsum(np.bincount(trie.parent[1:], minlength=trie.size), out=first_child[1:])
    others, row = rows_without(trie.child_id, first_child, node, below)
    del first_child, node, below
    columns = ChainPositions(is_word, pword, pos_word, c_node, c_plus, nxt, has_next)
    del pword, pos_word, nxt, has_next  # let go in the arcs' assembly as it reads them
    tails, heads, caps, deliver = chain_arcs(ids.in_n, mult, k, columns, others, row)
    out.arcs = (tails, heads, caps, np.where(deliver, DELIVER, PRIVATE).astype(np.int8))
    # Hand-overs: each border's position (its depth less the chain's top).
    overlaps = ids.depth_of(ps)
    pos = pos_start[rank] + overlaps - top[rank]
    out.handovers = (ids.out_n[pw], (c_plus if proper else c_node)[pos], mult[pw], overlaps)
    out.chains = ChainTable.of(words, top, pos_start, npos, c_node, c_plus)
    return out


def _chain_paths(
    parent: np.ndarray, word_nodes: np.ndarray, npos: np.ndarray, last: np.ndarray
) -> np.ndarray:
    """The trie node at each position of the chains (a path of ``npos`` nodes above each
    word's node, deepest at ``last``): a level a pass, then one step a node for a few long
    chains (a word of 100,000 letters)."""
    node = np.empty(int(npos.sum()), dtype=np.int64)
    at, cur, left = last.copy(), parent[word_nodes].astype(np.int64), npos.copy()
    while at.size and at.size >= SMALL_LEVEL:
        node[at] = cur
        keep = left > 1
        at, cur, left = at[keep] - 1, parent[cur[keep]].astype(np.int64), left[keep] - 1
    for a, c, n in zip(at.tolist(), cur.tolist(), left.tolist(), strict=True):
        path: list[int] = []
        for _ in range(n):
            path.append(c)
            c = parent.item(c)
        node[a - n + 1 : a + 1] = path[::-1]
    return node


def _add_private_arcs(arcs: _Arcs, private: _PrivateChains, instance: WordsnakeInstance) -> None:
    """Add the arcs of the private chains, then the hand-overs into them (each weighted by
    the instance's score of its overlap)."""
    if private.arcs and private.arcs[0].size:
        tails, heads, caps, roles = private.arcs
        arcs.add(tails, heads, caps, 0, roles)
    if private.handovers:
        tails, heads, caps, overlaps = private.handovers
        arcs.add(tails, heads, caps, instance.weight(overlaps), HANDOVER)


def _add_flat_arcs(arcs: _Arcs, trie: Trie, ids: _NodeIds, mult: np.ndarray) -> np.ndarray:
    """Add the arcs from every hub that receives units to the entries of the words below it;
    returns the first arc of each level (counted from the first of these arcs), then the end
    (:attr:`ArcLayout.flat_levels`)."""
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
    # The hub each trie node's arcs leave (-1: none), and the words, in the network's ids.
    source = np.where(target, plus, -1).astype(arcs.ids)
    del target
    src_l: list[np.ndarray] = []
    word_l: list[np.ndarray] = []
    sizes: list[np.ndarray] = []  # the arcs of each level
    # The words' ancestors, a level a pass (every word's parent, then grandparent, ...).
    word_ids = np.arange(W, dtype=arcs.ids)
    cur = trie.parent[wn]
    while True:
        few = word_ids.size < SMALL_LEVEL  # a few long words: one step a letter, not a pass
        if few:
            which, cur = walk_by_level(trie.parent, cur.tolist())
            word_ids = word_ids[which]
        src = source[cur]
        hit = src >= 0
        src_l.append(src[hit])
        word_l.append(word_ids[hit])
        if not few:
            sizes.append(np.array([src_l[-1].size], dtype=np.int64))
        elif which.size:
            sizes.append(np.add.reduceat(hit, level_starts(which), dtype=np.int64))
        live = cur > 0
        if few or not live.any():
            break
        word_ids, cur = word_ids[live], trie.parent[cur[live]]
    del source, word_ids, cur
    words = np.concatenate(word_l)
    del word_l
    # One capacity for all where no word is repeated (a column of ones was 0.12 GB of C.
    # elegans' build peak).
    caps = mult.astype(arcs.caps)[words] if bool((mult > 1).any()) else 1
    words += int(in_n[0])  # now the entries
    src = np.concatenate(src_l)
    del src_l
    arcs.add(src, words, caps, 0, TRIE)
    levels = np.zeros(1 + sum(s.size for s in sizes), dtype=np.int64)
    np.cumsum(np.concatenate(sizes), out=levels[1:])
    return levels


def _supply(ids: _NodeIds, mult: np.ndarray, num_nodes: int, cyclic: bool) -> np.ndarray:
    """Node supplies: each word's copies leave its exit and arrive at its entry (and a linear
    snake's depot unit goes from the root to ``R_in``), in the narrowest type that holds a
    word's copies and the depot's unit (int8 on lists of words listed at most 126 times: the
    capacities' int32 was 0.1 GB on 977,555 31-mers of C. elegans, held through the solve)."""
    top = int(mult.max()) + 1 if mult.size else 1
    supply = np.zeros(num_nodes, dtype=signed_type(top))
    supply[ids.out_n] = mult
    supply[ids.in_n] = -mult
    if not cyclic:
        supply[0] += 1
        supply[ids.r_in] -= 1
    return supply


def _topo_order(trie: Trie, r_in: int, topo_private: np.ndarray, cyclic: bool) -> np.ndarray:
    """Topological order of the hub nodes: ``R_in``, private chains, then the trie in preorder
    with ``H+(v)`` right after ``H(v)``.

    Trie node ``v`` goes after the ``H+`` of the words whose nodes come before it, and the
    ``H+`` of word ``w`` (nodes ``wn`` increasing with ``w``) after its node and ``w`` others.
    """
    T, wn = trie.size, trie.word_node
    W = wn.shape[0]
    # Node ids in the network's id type (int32 below 2**31 nodes): five arrays a trie node in
    # 64 bits were 0.8 GB of fresh memory for 977,555 31-mers.
    dtype: type[np.signedinteger] = np.int32
    if r_in + topo_private.size >= INT32_MAX:
        dtype = np.int64
    is_word = trie.node_word >= 0
    place: np.ndarray = np.cumsum(is_word, dtype=dtype)  # the words up to each node
    np.subtract(place, is_word, out=place)  # the words before it
    nodes = np.arange(T, dtype=dtype)
    np.add(place, nodes, out=place)  # its place: the nodes and H+ hubs before it
    merged = np.empty(T + W, dtype=dtype)
    merged[place] = nodes
    del place, nodes
    merged[wn + np.arange(1, W + 1, dtype=np.int64)] = T + np.arange(W, dtype=dtype)
    head_part = [] if cyclic else [r_in]
    return np.concatenate([np.array(head_part, dtype=dtype), topo_private.astype(dtype), merged])
