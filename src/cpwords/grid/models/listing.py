"""Exact enumeration of the suffix quadruples that admit a full board (one per symmetry class).

Division of labour with the CP-SAT model (:mod:`cpwords.grid.models.cpsat`): once the suffix tokens
are placed, the rest of the board CSP is a *system of distinct representatives*. Prefix slot
``p`` may hold exactly the prefix tokens that form a word with every suffix on its neighbours
(the intersection of the per-suffix prefix sets); the prefix tokens must be pairwise distinct;
and pair uniqueness then holds by itself (distinct prefixes and distinct suffixes give distinct
``(prefix, suffix)`` pairs, and the fixed cut maps a word to one pair). So a suffix assignment is
feasible iff a matching saturates the prefix slots in the bipartite graph slot -> candidate
prefixes (Hall). The enumeration is a depth-first search over the suffix slots only, with
bitset intersections and an augmenting-path matching at every node (a sound prune: the slots
whose neighbours are partly placed have candidate supersets), and the lex-leader rules of the
board's automorphism group on the suffix slots, so each class of rotated/reflected quadruples is
visited once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from cpwords.grid.models.index import GridIndex, build_index
from cpwords.grid.rules import Board, GridEnumeration, GridQuadruple, GridTokens
from cpwords.grid.symmetry import BoardSymmetry, board_symmetry


def match_slots(cands: Sequence[int]) -> list[int] | None:
    """A system of distinct representatives for bitset candidate sets, or None.

    Parameters
    ----------
    cands : sequence of int
        Candidate set of every slot as a bitset.

    Returns
    -------
    list of int or None
        The chosen element (bit index) for each slot, or None when no matching saturates
        the slots (Hall's condition fails).

    Notes
    -----
    Kuhn's augmenting paths: greedy choice of a free element first, then an alternating-path
    search. O(k * m) bit operations for k slots and m candidate elements.

    Examples
    --------
    >>> match_slots([0b011, 0b001, 0b110])
    [1, 0, 2]
    >>> match_slots([0b1, 0b1]) is None
    True
    """
    k = len(cands)
    chosen = [0] * k  # chosen bit (1 << id) per slot
    owner: dict[int, int] = {}  # bit -> slot, accurate for the bits in `used`
    used = 0
    seen = 0

    def augment(j: int) -> bool:
        nonlocal seen
        cj = cands[j]
        free = cj & ~used
        if free:
            b = free & -free
            chosen[j] = b
            owner[b] = j
            return True
        rest = cj & ~seen
        while rest:
            b = rest & -rest
            rest ^= b
            if seen & b:
                continue
            seen |= b
            if augment(owner[b]):
                chosen[j] = b
                owner[b] = j
                return True
        return False

    for i in range(k):
        free = cands[i] & ~used
        if free:
            b = free & -free
            chosen[i] = b
            owner[b] = i
            used |= b
            continue
        seen = 0
        if not augment(i):
            return None
        used = 0
        for b in chosen:
            used |= b
    return [b.bit_length() - 1 for b in chosen]


class CountStopped(Exception):
    """A count stopped before the end (time limit or Ctrl-C), with what it had counted.

    Attributes
    ----------
    reason : {"time_limit", "interrupted"}
    count : int
        The systems counted so far: a lower bound on the exact count (whole subtrees only).
    """

    def __init__(self, reason: str, count: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.count = count


def count_matchings(
    cands: Sequence[int],
    limit: int | None = None,
    deadline: float | None = None,
    partial_on_interrupt: bool = False,
) -> int:
    """Number of systems of distinct representatives of bitset candidate sets.

    Parameters
    ----------
    cands : sequence of int
        Candidate set of every slot as a bitset.
    limit : int, optional
        Stop counting once this many are found (e.g. 2 to decide uniqueness).
    deadline : float, optional
        A :func:`time.perf_counter` value: past it the count stops with :class:`CountStopped`.
    partial_on_interrupt : bool
        Turn Ctrl-C (KeyboardInterrupt) into :class:`CountStopped` with the count so far.

    Returns
    -------
    int
        The exact count (or ``limit`` when reached).

    Raises
    ------
    CountStopped
        When ``deadline`` passes (or Ctrl-C with ``partial_on_interrupt``); its ``count`` is
        a lower bound: the sum over the finished subtrees.

    Notes
    -----
    Depth-first over the slots, fewest candidates first, memoised on the used tokens that a
    later slot could still take; the last two slots are counted in closed form,
    ``|A'| * |B'| - |A' & B'|`` with ``A' = A - used``, ``B' = B - used``.

    Examples
    --------
    >>> count_matchings([0b011, 0b011, 0b111])
    2
    >>> count_matchings([0b11, 0b11, 0b11])
    0
    """
    order = sorted(cands, key=lambda c: c.bit_count())
    k = len(order)
    if k == 0:
        return 1
    if k == 1:
        n = order[0].bit_count()
        return min(n, limit) if limit is not None else n
    # Only the used tokens that later slots could still take matter: memoise on them.
    later = [0] * (k + 1)  # later[i]: tokens slots i.. could take
    for i in range(k - 1, -1, -1):
        later[i] = later[i + 1] | order[i]
    n = _MatchingCounter(order, later, limit, deadline, partial_on_interrupt).count(0, 0)
    return min(n, limit) if limit is not None else n


class _MatchingCounter:
    """The memoised depth-first count of :func:`count_matchings`, its state held explicitly."""

    def __init__(
        self,
        order: Sequence[int],
        later: Sequence[int],
        limit: int | None,
        deadline: float | None,
        partial_on_interrupt: bool,
    ) -> None:
        self.order = order
        self.k = len(order)
        self.later = later  # later[i]: tokens slots i.. could take
        self.limit = limit
        self.deadline = deadline
        self.partial_on_interrupt = partial_on_interrupt
        self.memo: dict[tuple[int, int], int] = {}
        self.calls = 0

    def count(self, i: int, used: int) -> int:
        """Systems for slots ``i..`` avoiding the tokens ``used`` (the last two in closed form)."""
        order = self.order
        if i == self.k - 2:
            a = order[i] & ~used
            b = order[i + 1] & ~used
            return a.bit_count() * b.bit_count() - (a & b).bit_count()
        key = (i, used & self.later[i])
        got = self.memo.get(key)
        if got is not None:
            return got
        total = self._branch(i, used)
        self.memo[key] = total
        return total

    def _branch(self, i: int, used: int) -> int:
        """Sum over the free tokens of slot ``i``; a stop carries the finished subtrees' sum."""
        total = 0
        rest = self.order[i] & ~used
        try:
            while rest:
                self.calls += 1
                if (
                    self.deadline is not None
                    and self.calls & 1023 == 0
                    and time.perf_counter() > self.deadline
                ):
                    raise CountStopped("time_limit")
                bit = rest & -rest
                rest ^= bit
                total += self.count(i + 1, used | bit)
                if self.limit is not None and total >= self.limit:
                    break
        except CountStopped as stop:
            stop.count += total  # the finished subtrees of this level
            raise
        except KeyboardInterrupt:
            if not self.partial_on_interrupt:
                raise
            raise CountStopped("interrupted", total) from None
        return total


def _suffix_order(board: Board) -> list[str]:
    """Suffix slots in search order: each next slot shares the most prefix slots with those
    already placed (ties by board order), so intersections shrink early."""
    nb = {s: set(board.neighbours(s)) for s in board.suffix_slots}
    order = [board.suffix_slots[0]]
    while len(order) < len(board.suffix_slots):
        placed = set().union(*(nb[s] for s in order))
        rest = [s for s in board.suffix_slots if s not in order]
        order.append(max(rest, key=lambda s: (len(nb[s] & placed), -board.suffix_slots.index(s))))
    return order


def enumerate_quadruples(
    board: Board,
    tokens: GridTokens,
    break_symmetry: bool = True,
    preprocess: bool = True,
    index: GridIndex | None = None,
    symmetry: BoardSymmetry | None = None,
    time_limit: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> GridEnumeration:
    """Every suffix assignment (one per symmetry class) that admits a full board.

    Parameters
    ----------
    board : Board
    tokens : GridTokens
    break_symmetry : bool
        Keep only the lex-leader of each orbit of the board's automorphism group; when False,
        every feasible suffix assignment is listed.
    preprocess : bool
        Apply the sound degree preprocessing (:func:`~cpwords.grid.models.index.reduce_pairs`).
    index, symmetry : optional
        Precomputed :func:`build_index` / :func:`board_symmetry` results.
    time_limit : float, optional
        Seconds (indexing included); when reached the search stops and the result holds the
        quadruples found so far with ``stopped = "time_limit"``. Ctrl-C likewise returns the
        partial listing with ``stopped = "interrupted"``.
    on_progress : callable ``(nodes, found) -> None``, optional
        Called about every 0.1 s of search.

    Returns
    -------
    GridEnumeration
        Exact: the search is exhaustive and each leaf is decided by a maximum matching
        (unless ``stopped`` says otherwise).

    Notes
    -----
    One class = one orbit of suffix assignments under the automorphism group ``G`` restricted
    to the suffix slots; it holds ``|G| / |K|`` assignments, where ``K`` is the subgroup fixing
    every suffix slot. The listed member is the alphabetically smallest assignment in slot
    order (the lex-leader). Feasibility is a class property: an automorphism maps a full board
    with suffixes ``x`` to one with suffixes ``x o g``.

    References
    ----------
    P. Baillehache, "Solving a word puzzle game for the OKWDDM community" (2023).

    Examples
    --------
    >>> from cpwords.grid.rules import Board, cut_words
    >>> b = Board("tiny", ("s", "t"), ("p",), (("p", "s"), ("p", "t")))
    >>> e = enumerate_quadruples(b, cut_words(["bean", "beer", "dean", "deer"], 2, 2))
    >>> [q.suffixes for q in e.quadruples], e.orbit_size
    ([('an', 'er')], 2)
    """
    t0 = time.perf_counter()
    idx = index if index is not None else build_index(tokens, board, preprocess)
    sym = symmetry if symmetry is not None else board_symmetry(board, break_symmetry)
    deadline = None if time_limit is None else t0 + time_limit
    search = _QuadrupleSearch(board, idx, sym, deadline, on_progress)
    stopped = search.run()
    found = search.found
    nodes = search.nodes
    found.sort(key=lambda q: q.suffixes)
    return GridEnumeration(
        board,
        tuple(found),
        sym.order,
        sym.suffix_orbit_size,
        time.perf_counter() - t0,
        "dfs-matching" + ("+lexleader" if break_symmetry else ""),
        _search_stats(idx, nodes),
        stopped,
    )


def _search_stats(idx: GridIndex, nodes: int) -> dict[str, int]:
    """The listing's figures: the pairs before and after the preprocessing, the tokens and the
    search nodes."""
    return {
        "pairs": idx.n_pairs_before,
        "pairs_after_preprocessing": len(idx.pairs),
        "prefix_tokens": len(idx.prefixes),
        "suffix_tokens": len(idx.suffixes),
        "nodes": nodes,
    }


def _lex_bounds(
    order: Sequence[str], rules: Sequence[tuple[str, str]]
) -> tuple[list[list[int]], list[list[int]]]:
    """Per depth, the earlier depths whose tokens bound this depth's token from below and above.

    A rule ``(u, v)`` means token[u] < token[v]; at depth d the bounds come from earlier depths.
    """
    pos = {s: i for i, s in enumerate(order)}
    lower: list[list[int]] = [[] for _ in order]
    upper: list[list[int]] = [[] for _ in order]
    for u, v in rules:
        if pos[u] < pos[v]:
            lower[pos[v]].append(pos[u])
        else:
            upper[pos[u]].append(pos[v])
    return lower, upper


class _QuadrupleSearch:
    """The depth-first suffix search of :func:`enumerate_quadruples`, its state held explicitly."""

    def __init__(
        self,
        board: Board,
        idx: GridIndex,
        sym: BoardSymmetry,
        deadline: float | None,
        on_progress: Callable[[int, int], None] | None,
    ) -> None:
        self.board = board
        self.idx = idx
        self.order = _suffix_order(board)
        self.pslots = list(board.prefix_slots)
        # for each depth: prefix-slot indices adjacent to the suffix slot placed at that depth
        self.touch = [[self.pslots.index(p) for p in board.neighbours(s)] for s in self.order]
        self.lower, self.upper = _lex_bounds(self.order, sym.suffix_rules)
        self.bits = idx.bits_of_suf
        self.n_suf = len(idx.suffixes)
        self.depth_max = len(self.order)
        self.found: list[GridQuadruple] = []
        self.assign = [0] * self.depth_max
        self.nodes = 0
        self.deadline = deadline
        self.on_progress = on_progress
        self.next_check = time.perf_counter() + 0.1
        self.steps = 0

    def run(self) -> str | None:
        """Search from the empty board; why it stopped early (``"time_limit"``, ...) or None."""
        try:
            if self.n_suf >= self.depth_max:
                self.dfs(0, [-1] * len(self.pslots))  # -1 = all ones: no constraint yet
        except _Stopped as stop:
            return stop.reason
        except KeyboardInterrupt:
            return "interrupted"
        return None

    def dfs(self, d: int, cand: list[int]) -> None:
        """Try each token (within the lex-leader bounds) on the suffix slot of depth ``d``."""
        self.nodes += 1
        assign = self.assign
        lo = max((assign[e] + 1 for e in self.lower[d]), default=0)
        hi = min((assign[e] for e in self.upper[d]), default=self.n_suf)
        taken = set(assign[:d])
        for t in range(lo, hi):
            self.steps += 1
            if self.steps & 255 == 0 and time.perf_counter() >= self.next_check:
                self._checkpoint()
            if t in taken:
                continue
            nc = self._narrow(d, t, cand)
            if nc is None:
                continue
            m = match_slots([c for c in nc if c != -1])
            if m is None:
                continue
            assign[d] = t
            if d + 1 < self.depth_max:
                self.dfs(d + 1, nc)
            else:
                self._record(m)

    def _checkpoint(self) -> None:
        """About every 0.1 s: stop at the deadline, else report progress."""
        now = time.perf_counter()
        if self.deadline is not None and now >= self.deadline:
            raise _Stopped("time_limit")
        self.next_check = now + 0.1
        if self.on_progress is not None:
            self.on_progress(self.nodes, len(self.found))

    def _narrow(self, d: int, t: int, cand: list[int]) -> list[int] | None:
        """The prefix candidates with token ``t`` on depth ``d``'s slot; None if one empties."""
        bt = self.bits[t]
        nc = cand.copy()
        for i in self.touch[d]:
            x = nc[i] & bt
            if not x:
                return None
            nc[i] = x
        return nc

    def _record(self, m: list[int]) -> None:
        """Keep the full assignment, with the matching ``m`` as its example board."""
        idx, order = self.idx, self.order
        sufs = {order[e]: idx.suffixes[self.assign[e]] for e in range(self.depth_max)}
        ex = {p: idx.prefixes[j] for p, j in zip(self.pslots, m, strict=True)} | sufs
        self.found.append(GridQuadruple(tuple(sufs[s] for s in self.board.suffix_slots), ex))


class _Stopped(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
