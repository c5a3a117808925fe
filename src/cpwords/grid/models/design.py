"""Prefix/suffix grid design: which suffix quadruples make puzzles with a unique answer.

A puzzle is a suffix quadruple; it is a good puzzle when exactly one full board completes it, up
to the board's symmetries. :func:`design_grid_puzzles` enumerates every feasible class of
quadruples (:func:`~cpwords.grid.models.listing.enumerate_quadruples`, exact) and counts the
completions of each class representative exactly
(:func:`~cpwords.grid.models.listing.count_matchings` on the prefix slots' candidate sets). A
completion of a suffix assignment can only be mapped onto another completion of the *same*
assignment by an automorphism that fixes every suffix slot (the kernel ``K``; the suffixes are
distinct), so the count up to symmetry is ``count / |K|`` (``|K| = 1`` on the default board).

Difficulty (:class:`GridDifficulty`) of a unique puzzle: the number of partial fills
(search nodes) a plain solver visits to find the answer and prove that there is no other -- a
depth-first search over the prefix slots, always filling the slot with the fewest remaining
candidates, removing a placed prefix from the other slots -- and the commonness of the board's
words (wordfreq Zipf frequency). The search is written here from the token strings; its
solution count is compared with the matching count, so every listed puzzle is counted twice by
two independent paths.

References
----------
P. Baillehache, "Solving a word puzzle game for the OKWDDM community", 2023.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cpwords.core.errors import CheckError, InputError
from cpwords.grid.models.index import GridIndex, build_index
from cpwords.grid.models.listing import CountStopped, count_matchings, enumerate_quadruples
from cpwords.grid.rules import Board, GridQuadruple, GridTokens, board_words
from cpwords.grid.symmetry import BoardSymmetry, board_symmetry

__all__ = [
    "GridDesign",
    "GridDifficulty",
    "GridPuzzle",
    "design_grid_puzzles",
    "fill_search",
]


@dataclass(frozen=True)
class GridDifficulty:
    """How hard a grid puzzle is to solve.

    Attributes
    ----------
    search_nodes : int
        Partial fills visited by :func:`fill_search` (fewest-candidates-first depth-first
        search over the prefix slots) to find every completion.
    candidates : tuple of int
        Prefix tokens each prefix slot could hold given its suffixes, in board order.
    min_zipf, mean_zipf : float
        Least and mean wordfreq Zipf frequency of the words of the (example) board.
    score : float
        ``log2(search_nodes)``, rounded to 2 decimals.
    """

    search_nodes: int
    candidates: tuple[int, ...]
    min_zipf: float
    mean_zipf: float
    score: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly row."""
        return {
            "difficulty": self.score,
            "search_nodes": self.search_nodes,
            "candidates": list(self.candidates),
            "min_zipf": self.min_zipf,
            "mean_zipf": self.mean_zipf,
        }


@dataclass(frozen=True)
class GridPuzzle:
    """One class of suffix quadruples with its exact number of completions.

    Attributes
    ----------
    suffixes : tuple of str
        The lex-leader of the class, in suffix-slot order.
    count : int
        Full boards with exactly these suffixes on these slots (``count_limit`` when the count
        stopped there: see ``count_exact``).
    count_up_to_symmetry : int
        ``count / |K|``.
    count_exact : bool
        False when counting stopped at the limit (the true count is at least ``count``).
    example : dict
        One full board (slot -> token).
    difficulty : GridDifficulty or None
        For unique puzzles only.
    """

    suffixes: tuple[str, ...]
    count: int
    count_up_to_symmetry: int
    example: dict[str, str]
    difficulty: GridDifficulty | None = None
    count_exact: bool = True

    @property
    def unique(self) -> bool:
        """Exactly one answer up to the board's symmetries."""
        return self.count_up_to_symmetry == 1

    def to_dict(self, board: Board) -> dict[str, Any]:
        """JSON-friendly row."""
        ex = {v: self.example[v] for v in board.slots}
        row: dict[str, Any] = {
            "suffixes": list(self.suffixes),
            "count": self.count,
            "count_up_to_symmetry": self.count_up_to_symmetry,
            "count_exact": self.count_exact,
            "unique": self.unique,
            "board": ex,
            "words": board_words(board, ex),
        }
        if self.difficulty is not None:
            row |= self.difficulty.to_dict()
        return row


@dataclass(frozen=True)
class GridDesign:
    """Every feasible puzzle class of a board and lexicon, counted.

    Attributes
    ----------
    board : Board
    puzzles : tuple of GridPuzzle
        Every class with a full board, sorted by suffixes.
    group_order, orbit_size : int
        ``|G|`` and the quadruples per class ``|G| / |K|``.
    wall_time : float
        Seconds in all (enumeration, counting, difficulty).
    stats : dict
        ``enumerate_time``, ``count_time`` (s) and the enumeration's statistics.
    stopped : {None, "time_limit", "interrupted"}
        Why the design stopped early; ``puzzles`` then holds the classes fully counted
        before it (their counts and uniqueness are exact; other classes are missing).
    """

    board: Board
    puzzles: tuple[GridPuzzle, ...]
    group_order: int
    orbit_size: int
    wall_time: float
    stats: dict[str, Any] = field(default_factory=dict)
    stopped: str | None = None

    @property
    def complete(self) -> bool:
        """True when every class was enumerated and counted."""
        return self.stopped is None

    @property
    def unique(self) -> tuple[GridPuzzle, ...]:
        """The puzzles with exactly one answer up to symmetry."""
        return tuple(p for p in self.puzzles if p.unique)


def fill_search(candidates: Sequence[frozenset[str]]) -> tuple[int, int]:
    """Count the completions of a prefix-slot CSP by a plain forward-checking search.

    Parameters
    ----------
    candidates : sequence of frozenset of str
        The prefix tokens each prefix slot may hold; the tokens must be pairwise distinct.

    Returns
    -------
    (nodes, solutions) : (int, int)
        Partial fills visited (each placement of one token is one node) and the number of
        complete fills with distinct tokens.

    Notes
    -----
    Always branches on the unfilled slot with the fewest remaining candidates (ties: lowest
    slot index), and removes a placed token from every other slot. Exponential in the worst
    case; meant for the candidate sets of single puzzles.

    Examples
    --------
    >>> fill_search([frozenset("ab"), frozenset("a"), frozenset("bc")])
    (3, 1)
    """
    nodes = 0

    def rec(domains: dict[int, frozenset[str]]) -> int:
        nonlocal nodes
        if not domains:
            return 1
        slot = min(domains, key=lambda i: (len(domains[i]), i))
        total = 0
        for t in sorted(domains[slot]):
            nodes += 1
            rest = {i: d - {t} for i, d in domains.items() if i != slot}
            if all(rest.values()):
                total += rec(rest)
        return total

    solutions = rec(dict(enumerate(candidates)))
    return nodes, solutions


def _candidates(board: Board, tokens: GridTokens, fixed: dict[str, str]) -> list[frozenset[str]]:
    """Per prefix slot, the prefixes that spell a word with every suffix around it."""
    by_suffix: dict[str, set[str]] = {}
    for p, s in tokens.pairs:
        by_suffix.setdefault(s, set()).add(p)
    out = []
    for v in board.prefix_slots:
        sets = [by_suffix.get(fixed[s], set()) for s in board.neighbours(v)]
        out.append(frozenset(set.intersection(*sets)) if sets else frozenset())
    return out


def _difficulty(
    board: Board, tokens: GridTokens, fill: dict[str, str]
) -> tuple[GridDifficulty, int]:
    """The difficulty of the puzzle of ``fill``'s suffixes, and its number of completions."""
    from cpwords.core.lexicon import zipf

    fixed = {s: fill[s] for s in board.suffix_slots}
    cands = _candidates(board, tokens, fixed)
    nodes, solutions = fill_search(cands)
    z = [zipf(w, tokens.lang) for w in board_words(board, fill)]
    diff = GridDifficulty(
        search_nodes=nodes,
        candidates=tuple(len(c) for c in cands),
        min_zipf=min(z),
        mean_zipf=round(sum(z) / len(z), 2),
        score=round(math.log2(max(nodes, 1)), 2),
    )
    return diff, solutions


def _count_classes(
    board: Board,
    idx: GridIndex,
    quadruples: Sequence[GridQuadruple],
    limit: int | None,
    deadline: float | None,
    counted: list[tuple[Any, int]],
    on_progress: Callable[[str, int, int], None] | None = None,
) -> str | None:
    """Append ``(quadruple, completions)`` to ``counted`` per class, by matching counts
    (``on_progress("counting", counted, classes)`` after each).

    Returns why the counting stopped early (the class being counted is left out), or None.
    """
    sid = idx.suffix_id
    bits = idx.bits_of_suf
    # per prefix slot, the positions (in suffix-slot order) of its suffix neighbours: the
    # board's adjacency, computed once rather than once per class
    spos = {s: i for i, s in enumerate(board.suffix_slots)}
    around = [tuple(spos[s] for s in board.neighbours(p)) for p in board.prefix_slots]
    for q in quadruples:
        ids = [sid[s] for s in q.suffixes]
        cands = []
        for nb in around:
            c = -1
            for j in nb:
                c &= bits[ids[j]]
            cands.append(c)
        try:
            counted.append((q, count_matchings(cands, limit, deadline, True)))
        except CountStopped as stop:  # this class is not counted; the earlier ones are
            return stop.reason
        if on_progress is not None:
            on_progress("counting", len(counted), len(quadruples))
    return None


def _rate_class(
    board: Board,
    tokens: GridTokens,
    q: GridQuadruple,
    n: int,
    k: int,
    limit: int | None,
    unique_only: bool,
) -> GridPuzzle | None:
    """The puzzle of one counted class (rated and re-counted when unique), or None to skip it."""
    diff = None
    if n // k == 1:
        diff, again = _difficulty(board, tokens, q.example)
        if again != n:
            raise CheckError(
                f"quadruple {q.suffixes}: matching count {n}, forward-checking search {again}"
            )
    elif unique_only:
        return None
    exact = limit is None or n < limit
    return GridPuzzle(q.suffixes, n, n // k, dict(q.example), diff, exact)


def design_grid_puzzles(
    board: Board,
    tokens: GridTokens,
    symmetry: BoardSymmetry | None = None,
    unique_only: bool = False,
    count_limit: int | None = None,
    time_limit: float | None = None,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> GridDesign:
    """Every feasible suffix quadruple class with its exact number of completions.

    Parameters
    ----------
    board : Board
    tokens : GridTokens
    symmetry : BoardSymmetry, optional
        Precomputed :func:`~cpwords.grid.symmetry.board_symmetry` (with lex-leader
        rules).
    unique_only : bool
        Keep only the unique puzzles in ``puzzles`` (all are counted either way).
    count_limit : int, optional
        Stop counting a class at this many boards (>= 2 so uniqueness is still decided); None
        counts exactly (at N = 20,000 about 2 minutes for 21,874 classes, some with 10**8
        boards).
    time_limit : float, optional
        Seconds; when reached (or on Ctrl-C) the classes counted so far are returned, with
        ``stopped`` set.
    on_progress : callable ``(stage, done, of)``, optional
        Called as the work advances (a progress line): ``("enumerating", nodes, classes
        found)`` during the enumeration, then ``("counting", classes counted, classes)``.

    Returns
    -------
    GridDesign
        Unique puzzles carry a :class:`GridDifficulty`.

    Raises
    ------
    InputError
        ``count_limit < 2``.
    CheckError
        When the independent forward-checking search disagrees with the matching count of a
        unique puzzle (a bug, never a silent answer).

    Notes
    -----
    One exact enumeration (suffix search + matching), then one exact matching count per
    class; each unique puzzle is re-solved by :func:`fill_search`, whose solution count must
    be ``|K|`` (one board per kernel automorphism).

    Examples
    --------
    >>> from cpwords.grid.rules import Board, cut_words
    >>> b = Board("tiny", ("s", "t"), ("p",), (("p", "s"), ("p", "t")))
    >>> d = design_grid_puzzles(b, cut_words(["bean", "beer", "dean", "deer", "seer"], 2, 2))
    >>> [(p.suffixes, p.count) for p in d.puzzles]
    [(('an', 'er'), 2)]
    """
    _check_count_limit(count_limit)
    t0 = time.perf_counter()
    sym = symmetry if symmetry is not None else board_symmetry(board)
    idx = build_index(tokens, board)
    said = (lambda n, f: on_progress("enumerating", n, f)) if on_progress else None
    e = enumerate_quadruples(
        board, tokens, True, index=idx, symmetry=sym, time_limit=time_limit, on_progress=said
    )
    stopped = e.stopped
    deadline = None if time_limit is None else t0 + time_limit
    t1 = time.perf_counter()
    k = sym.kernel_order
    # a limit below 2|K| could not tell one board per kernel orbit from two
    limit = None if count_limit is None else max(count_limit, 2 * k)
    counted: list[tuple[Any, int]] = []
    if stopped is None:
        stopped = _count_classes(board, idx, e.quadruples, limit, deadline, counted, on_progress)
    t2 = time.perf_counter()
    puzzles, stopped = _rate_classes(board, tokens, counted, k, limit, unique_only, stopped)
    stats = _design_stats(e.count, e.stats, counted, k, count_limit, (t1 - t0, t2 - t1))
    wall = time.perf_counter() - t0
    return GridDesign(board, tuple(puzzles), sym.order, sym.suffix_orbit_size, wall, stats, stopped)


def _check_count_limit(count_limit: int | None) -> None:
    """Refuse a count limit below 2, which could not tell one board from two."""
    if count_limit is not None and count_limit < 2:
        raise InputError(
            f"the count limit must be at least 2 to decide uniqueness, got {count_limit}"
        )


def _design_stats(
    classes: int,
    listing: dict[str, Any],
    counted: Sequence[tuple[Any, int]],
    k: int,
    count_limit: int | None,
    times: tuple[float, float],
) -> dict[str, Any]:
    """The design's ``stats``: the classes enumerated, the unique ones, each class's count up
    to symmetry, the count limit, the times (enumerating, counting) and the listing's own."""
    return {
        "classes": classes,
        "unique": sum(1 for _, n in counted if n // k == 1),
        "counts": [n // k for _, n in counted],
        "count_limit": count_limit,
        "enumerate_time": times[0],
        "count_time": times[1],
        **listing,
    }


def _rate_classes(
    board: Board,
    tokens: GridTokens,
    counted: Sequence[tuple[Any, int]],
    k: int,
    limit: int | None,
    unique_only: bool,
    stopped: str | None,
) -> tuple[list[GridPuzzle], str | None]:
    """Each counted class as a :class:`GridPuzzle` (:func:`_rate_class`), and why the design
    stopped: ``stopped``, or ``"interrupted"`` when Ctrl-C cut the rating short (the classes
    rated by then are kept)."""
    puzzles: list[GridPuzzle] = []
    try:
        for q, n in counted:
            puzzle = _rate_class(board, tokens, q, n, k, limit, unique_only)
            if puzzle is not None:
                puzzles.append(puzzle)
    except KeyboardInterrupt:
        return puzzles, "interrupted"
    return puzzles, stopped
