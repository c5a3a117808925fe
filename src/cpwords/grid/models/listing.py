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
    memo: dict[tuple[int, int], int] = {}
    calls = 0

    def rec(i: int, used: int) -> int:
        nonlocal calls
        if i == k - 2:
            a = order[i] & ~used
            b = order[i + 1] & ~used
            return a.bit_count() * b.bit_count() - (a & b).bit_count()
        key = (i, used & later[i])
        got = memo.get(key)
        if got is not None:
            return got
        total = 0
        rest = order[i] & ~used
        try:
            while rest:
                calls += 1
                if deadline is not None and calls & 1023 == 0 and time.perf_counter() > deadline:
                    raise CountStopped("time_limit")
                bit = rest & -rest
                rest ^= bit
                total += rec(i + 1, used | bit)
                if limit is not None and total >= limit:
                    break
        except CountStopped as stop:
            stop.count += total  # the finished subtrees of this level
            raise
        except KeyboardInterrupt:
            if not partial_on_interrupt:
                raise
            raise CountStopped("interrupted", total) from None
        memo[key] = total
        return total

    n = rec(0, 0)
    return min(n, limit) if limit is not None else n


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
    order = _suffix_order(board)
    pslots = list(board.prefix_slots)
    pos = {s: i for i, s in enumerate(order)}
    # for each depth: prefix-slot indices adjacent to the suffix slot placed at that depth
    touch = [[pslots.index(p) for p in board.neighbours(s)] for s in order]
    # rule (u, v): token[u] < token[v]; at depth d the bounds come from earlier depths
    lower: list[list[int]] = [[] for _ in order]
    upper: list[list[int]] = [[] for _ in order]
    for u, v in sym.suffix_rules:
        if pos[u] < pos[v]:
            lower[pos[v]].append(pos[u])
        else:
            upper[pos[u]].append(pos[v])
    bits = idx.bits_of_suf
    n_suf = len(idx.suffixes)
    depth_max = len(order)
    found: list[GridQuadruple] = []
    assign = [0] * depth_max
    nodes = 0
    deadline = None if time_limit is None else t0 + time_limit
    next_check = time.perf_counter() + 0.1
    steps = 0

    def dfs(d: int, cand: list[int]) -> None:
        nonlocal nodes, steps, next_check
        nodes += 1
        lo = max((assign[e] + 1 for e in lower[d]), default=0)
        hi = min((assign[e] for e in upper[d]), default=n_suf)
        taken = set(assign[:d])
        for t in range(lo, hi):
            steps += 1
            if steps & 255 == 0 and time.perf_counter() >= next_check:
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    raise _Stopped("time_limit")
                next_check = now + 0.1
                if on_progress is not None:
                    on_progress(nodes, len(found))
            if t in taken:
                continue
            bt = bits[t]
            nc = cand.copy()
            ok = True
            for i in touch[d]:
                x = nc[i] & bt
                if not x:
                    ok = False
                    break
                nc[i] = x
            if not ok:
                continue
            m = match_slots([c for c in nc if c != -1])
            if m is None:
                continue
            assign[d] = t
            if d + 1 < depth_max:
                dfs(d + 1, nc)
            else:
                sufs = {order[e]: idx.suffixes[assign[e]] for e in range(depth_max)}
                ex = {p: idx.prefixes[j] for p, j in zip(pslots, m, strict=True)} | sufs
                found.append(GridQuadruple(tuple(sufs[s] for s in board.suffix_slots), ex))

    stopped: str | None = None
    try:
        if n_suf >= depth_max:
            dfs(0, [-1] * len(pslots))  # -1 = all ones: no constraint yet
    except _Stopped as stop:
        stopped = stop.reason
    except KeyboardInterrupt:
        stopped = "interrupted"
    found.sort(key=lambda q: q.suffixes)
    return GridEnumeration(
        board,
        tuple(found),
        sym.order,
        sym.suffix_orbit_size,
        time.perf_counter() - t0,
        "dfs-matching" + ("+lexleader" if break_symmetry else ""),
        {
            "pairs": idx.n_pairs_before,
            "pairs_after_preprocessing": len(idx.pairs),
            "prefix_tokens": len(idx.prefixes),
            "suffix_tokens": len(idx.suffixes),
            "nodes": nodes,
        },
        stopped,
    )


class _Stopped(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
