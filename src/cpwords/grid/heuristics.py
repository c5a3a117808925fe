"""The seed's search for the prefix/suffix grid: backtracking from the centre outward.

The seed article fills the board slot by slot, the centre prefix first, then the suffix ring
around it, then the outer slots, keeping for every slot the tokens still compatible with its
placed neighbours (hash tables prefix -> suffixes and suffix -> prefixes) and backtracking on an
empty domain. This module reproduces that search over any board (the "centre" is the prefix slot
of highest degree, the outer slots follow by decreasing degree), with the same lex-leader rule
as the exact models so that its counts are comparable. It is exhaustive, hence exact; it is the
baseline the enumeration of :mod:`cpwords.grid.models.listing` is measured against.

References
----------
P. Baillehache, "Solving a word puzzle game for the OKWDDM community" (2023),
https://baillehachepascal.dev/2023/okwddm_word_puzzle.php
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Mapping, Sequence

from cpwords.grid.rules import Board, GridEnumeration, GridQuadruple, GridTokens
from cpwords.grid.symmetry import board_symmetry


def centre_out_order(board: Board) -> list[str]:
    """Search order: the highest-degree prefix slot, the suffix slots, then the other prefix
    slots by decreasing degree (board order on ties).

    Examples
    --------
    >>> from cpwords.grid.rules import default_board
    >>> centre_out_order(default_board())
    ['c', 's1', 's2', 's3', 's4', 'n', 'e', 's', 'w', 'ne', 'se', 'sw', 'nw']
    """
    pre = sorted(board.prefix_slots, key=lambda p: -board.degree(p))
    return [pre[0], *board.suffix_slots, *pre[1:]]


class _Backtracker:
    """Slot-by-slot search with forward checking, hash-set domains."""

    def __init__(
        self,
        board: Board,
        tokens: GridTokens,
        rules: Sequence[tuple[str, str]],
        fixed: Mapping[str, str],
    ) -> None:
        self.board = board
        self.kinds = board.kinds
        self.partners: dict[str, set[str]] = defaultdict(set)
        for p, s in tokens.pairs:
            # prefixes and suffixes may share spellings; keep the two tables apart
            self.partners["P" + p].add(s)
            self.partners["S" + s].add(p)
        self.all = {
            "prefix": {p for p, _ in tokens.pairs},
            "suffix": {s for _, s in tokens.pairs},
        }
        order = [v for v in centre_out_order(board) if v not in fixed]
        self.order = order
        self.nb = {v: board.neighbours(v) for v in board.slots}
        self.less: dict[str, list[str]] = defaultdict(list)  # v must be < each listed slot
        self.more: dict[str, list[str]] = defaultdict(list)  # v must be > each listed slot
        for u, v in rules:
            self.less[u].append(v)
            self.more[v].append(u)
        self.fill: dict[str, str] = dict(fixed)
        self.nodes = 0

    def domain(self, v: str) -> list[str]:
        kind = self.kinds[v]
        tag = "P" if kind == "suffix" else "S"  # the neighbours are of the other kind
        dom: set[str] | None = None
        for u in self.nb[v]:
            if u in self.fill:
                part = self.partners.get(tag + self.fill[u], set())
                dom = set(part) if dom is None else dom & part
                if not dom:
                    return []
        if dom is None:
            dom = set(self.all[kind])
        used = {self.fill[u] for u in self.fill if self.kinds[u] == kind}
        lo = max((self.fill[u] for u in self.more[v] if u in self.fill), default=None)
        hi = min((self.fill[u] for u in self.less[v] if u in self.fill), default=None)
        return sorted(t for t in dom - used if (lo is None or t > lo) and (hi is None or t < hi))

    def forward_ok(self, v: str) -> bool:
        """Every empty neighbour of ``v`` keeps a non-empty domain."""
        return all(u in self.fill or self.domain(u) for u in self.nb[v])


def backtrack_quadruples(
    board: Board, tokens: GridTokens, break_symmetry: bool = True
) -> GridEnumeration:
    """All suffix assignments with a full board, by the seed's centre-out backtracking.

    Parameters
    ----------
    board : Board
    tokens : GridTokens
    break_symmetry : bool
        Apply the lex-leader rules of the board's automorphism group (one per class).

    Returns
    -------
    GridEnumeration
        Same classes as :func:`~cpwords.grid.models.listing.enumerate_quadruples`.

    Notes
    -----
    Every quadruple is met once per centre token that fits it; the first full board found
    records it and later visits skip it. Exponential in the worst case.
    """
    t0 = time.perf_counter()
    sym = board_symmetry(board, break_symmetry)
    bt = _Backtracker(board, tokens, sym.rules, {})
    order = bt.order
    last_suffix = max(i for i, v in enumerate(order) if bt.kinds[v] == "suffix")
    found: dict[tuple[str, ...], dict[str, str]] = {}
    complete: list[dict[str, str]] = []  # the full board, copied before the search unwinds

    def rec(i: int) -> bool:
        bt.nodes += 1
        if i == len(order):
            complete.append(dict(bt.fill))
            return True
        v = order[i]
        for t in bt.domain(v):
            bt.fill[v] = t
            if bt.forward_ok(v):
                if i == last_suffix:
                    key = tuple(bt.fill[s] for s in board.suffix_slots)
                    if key not in found and rec(i + 1):
                        found[key] = complete.pop()
                elif rec(i + 1) and i > last_suffix:
                    del bt.fill[v]
                    return True  # one full board per quadruple is enough
            del bt.fill[v]
        return False

    rec(0)
    quads = tuple(GridQuadruple(k, found[k]) for k in sorted(found))
    return GridEnumeration(
        board,
        quads,
        sym.order,
        sym.suffix_orbit_size,
        time.perf_counter() - t0,
        "backtrack-centre-out",
        {"nodes": bt.nodes},
    )


def backtrack_count(
    board: Board, tokens: GridTokens, suffixes: Sequence[str], limit: int | None = None
) -> int:
    """Number of full boards with the given suffixes (slot order), by backtracking.

    ``limit`` stops the search once that many boards are found (2 decides uniqueness).

    Examples
    --------
    >>> from cpwords.grid.rules import cut_words
    >>> b = Board("tiny", ("s",), ("p", "q"), (("p", "s"), ("q", "s")))
    >>> backtrack_count(b, cut_words(["hello", "jello", "cello"], 2, 2), ["lo"])
    6
    """
    fixed = dict(zip(board.suffix_slots, suffixes, strict=True))
    if len(set(suffixes)) < len(suffixes):
        return 0  # suffix tokens must be pairwise distinct
    bt = _Backtracker(board, tokens, (), fixed)
    order = bt.order
    count = 0

    def rec(i: int) -> None:
        nonlocal count
        if i == len(order):
            count += 1
            return
        v = order[i]
        for t in bt.domain(v):
            if count == limit:
                return
            bt.fill[v] = t
            if bt.forward_ok(v):
                rec(i + 1)
            del bt.fill[v]

    rec(0)
    return count
