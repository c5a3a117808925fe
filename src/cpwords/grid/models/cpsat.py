"""CP-SAT model of the prefix/suffix board CSP, and the public API of the grid puzzle.

Formulation (see ``models/grid.md``): one integer variable per slot whose value is a token id
(prefix ids for prefix slots, suffix ids for suffix slots, ids in alphabetical order); one table
constraint per edge (the pair must be a word); ``AllDifferent`` over the prefix slots and over the
suffix slots; and the lex-leader rules of the board's automorphism group (``x[u] < x[v]``).

The fast enumeration of quadruples lives in :mod:`cpwords.grid.models.listing` (search over the
suffix slots + matching); this model solves partial boards, counts completions and cross-checks
the enumeration.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from cpwords.core.cpsat_status import Task, cpsat_status, listing_complete, new_solver
from cpwords.core.cpsat_stop import solve as solve_interruptibly
from cpwords.core.errors import InputError
from cpwords.core.result import SolveResult, Status
from cpwords.grid.models.index import GridIndex, build_index
from cpwords.grid.models.listing import (
    CountStopped,
    count_matchings,
    enumerate_quadruples,
    match_slots,
)
from cpwords.grid.rules import Board, GridEnumeration, GridQuadruple, GridTokens
from cpwords.grid.symmetry import BoardSymmetry, board_symmetry

__all__ = [
    "GridCount",
    "GridModel",
    "build_grid_model",
    "complete_grid_cpsat",
    "count_completions",
    "cpsat_all_boards",
    "cpsat_quadruples",
    "enumerate_quadruples",
    "find_grid_quadruples",
    "grid_tokens",
]


@dataclass
class GridModel:
    """A built CP-SAT model with its slot variables.

    Attributes
    ----------
    model : cp_model.CpModel
    x : dict slot -> IntVar
        Token id on each slot.
    index : GridIndex
    feasible : bool
        False when a fixed token is not a token of the (preprocessed) index: no solution.
    """

    model: cp_model.CpModel
    x: dict[str, cp_model.IntVar]
    index: GridIndex
    feasible: bool = True


def build_grid_model(
    board: Board,
    index: GridIndex,
    fixed: Mapping[str, str] | None = None,
    rules: Sequence[tuple[str, str]] = (),
) -> GridModel:
    """Build the CP-SAT model of the board CSP.

    Parameters
    ----------
    board : Board
    index : GridIndex
        Token ids and pairs (see :func:`~cpwords.grid.models.index.build_index`).
    fixed : mapping slot -> token, optional
        Tokens placed in advance (a partial board).
    rules : sequence of (u, v)
        Lex-leader comparisons ``token[u] < token[v]`` to post.

    Returns
    -------
    GridModel

    Raises
    ------
    InputError
        When ``fixed`` names an unknown slot.
    """
    fixed = {v: t.lower() for v, t in (fixed or {}).items()}  # case does not matter
    kinds = board.kinds
    for v in fixed:
        if v not in kinds:
            raise InputError(f"unknown slot {v!r} (board {board.name!r} has {', '.join(kinds)})")
    m = cp_model.CpModel()
    pid, sid = index.prefix_id, index.suffix_id
    pdeg = [0] * len(index.prefixes)
    sdeg = [0] * len(index.suffixes)
    for pi, si in index.pairs:
        pdeg[pi] += 1
        sdeg[si] += 1
    x: dict[str, cp_model.IntVar] = {}
    feasible = True
    for v in board.slots:
        d = board.degree(v)
        if kinds[v] == "prefix":
            ids, tokmap = [i for i, k in enumerate(pdeg) if k >= d], pid
        else:
            ids, tokmap = [i for i, k in enumerate(sdeg) if k >= d], sid
        if v in fixed:
            t = tokmap.get(fixed[v])
            ids = [t] if t is not None and t in set(ids) else []
        if not ids:
            feasible = False
            ids = [0]
        x[v] = m.new_int_var_from_domain(cp_model.Domain.from_values(ids), v)
    table = [list(pr) for pr in index.pairs]
    for p, s in board.edges:
        m.add_allowed_assignments([x[p], x[s]], table)
    m.add_all_different([x[v] for v in board.prefix_slots])
    m.add_all_different([x[v] for v in board.suffix_slots])
    for u, v in rules:
        m.add(x[u] < x[v])
    gm = GridModel(m, x, index, feasible)
    return gm


def _decode(board: Board, gm: GridModel, values: Mapping[str, int]) -> dict[str, str]:
    kinds = board.kinds
    return {
        v: (gm.index.prefixes if kinds[v] == "prefix" else gm.index.suffixes)[values[v]]
        for v in board.slots
    }


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, gm: GridModel, keep: int | None) -> None:
        super().__init__()
        self.gm = gm
        self.keep = keep
        self.count = 0
        self.values: list[dict[str, int]] = []

    def on_solution_callback(self) -> None:
        self.count += 1
        if self.keep is None or len(self.values) < self.keep:
            self.values.append({v: self.value(var) for v, var in self.gm.x.items()})


def _enumerate(
    gm: GridModel, keep: int | None, time_limit: float | None
) -> tuple[int, list, bool, bool]:
    """All solutions of ``gm`` (count, kept value dicts, finished?, stopped by Ctrl-C?)."""
    if not gm.feasible:
        return 0, [], True, False
    solver = new_solver(time_limit, workers=1)
    solver.parameters.enumerate_all_solutions = True
    cb = _Collector(gm, keep)
    code, stopped = solve_interruptibly(solver, gm.model, cb)
    cpsat_status(code, Task.LIST, gm.model, "grid model")
    return cb.count, cb.values, listing_complete(code), stopped


def complete_grid_cpsat(
    board: Board,
    tokens: GridTokens,
    partial: Mapping[str, str] | None = None,
    break_symmetry: bool | None = None,
    time_limit: float = 60.0,
    workers: int = 2,
    preprocess: bool = True,
    seed: int = 0,
) -> SolveResult:
    """Complete a (partially filled) board with CP-SAT.

    The ``cpsat`` method of :func:`cpwords.grid.fill_spec.solve_grid`, which re-checks the
    board with the independent checker.

    Parameters
    ----------
    board : Board
    tokens : GridTokens
    partial : mapping slot -> token, optional
        Tokens already placed.
    break_symmetry : bool, optional
        Post the lex-leader rules; by default only when nothing is placed (a placed token pins
        the orientation, and the rules could then exclude every completion).
    time_limit : float
        Seconds for the whole call (indexing and model building included).
    workers : int
        CP-SAT search workers.
    preprocess : bool
        Sound degree preprocessing.
    seed : int
        CP-SAT random seed.

    Returns
    -------
    SolveResult
        ``solution`` is the filled board (slot -> token) or None; ``objective`` = number of
        words on the board when solved, with no bound. A satisfaction problem: FEASIBLE = a
        board was found (never OPTIMAL; ``solver_info["stopped"]`` None: the search finished),
        INFEASIBLE = proven that no completion exists, UNKNOWN = time limit.

    Raises
    ------
    InputError
        Unknown slot in ``partial``.
    ModelError
        When CP-SAT rejects the model (a bug).
    """
    t0 = time.perf_counter()
    partial = {v: t.lower() for v, t in (partial or {}).items()}  # case does not matter
    if break_symmetry is None:
        break_symmetry = not partial
    idx = build_index(tokens, board, preprocess)
    sym = board_symmetry(board, break_symmetry)
    gm = build_grid_model(board, idx, partial, sym.rules)
    info: dict[str, Any] = {
        "solver": "cp-sat",
        "workers": workers,
        "time_limit": time_limit,
        "seed": seed,
        "group_order": sym.order,
        "symmetry_breaking": break_symmetry,
    }
    if not gm.feasible:
        info["reason"] = "a placed token cannot be on any full board"
        wall = time.perf_counter() - t0
        return SolveResult(
            Status.INFEASIBLE, None, None, wall, None, "cpsat-table", solver_info=info
        )
    # The limit covers the whole call: indexing and model building included.
    return _complete(board, gm, time_limit - (time.perf_counter() - t0), workers, seed, t0, info)


def _complete(
    board: Board,
    gm: GridModel,
    time_left: float,
    workers: int,
    seed: int,
    t0: float,
    info: dict[str, Any],
) -> SolveResult:
    """Solve the grid model ``gm`` of :func:`complete_grid_cpsat` in ``time_left`` seconds (the
    call began at ``t0``); ``info`` is its ``solver_info``, told of a stop."""
    method = "cpsat-table"
    solver = new_solver(time_left, workers, seed)
    code, stopped = solve_interruptibly(solver, gm.model)
    wall = time.perf_counter() - t0
    status = cpsat_status(code, Task.SATISFY, gm.model, "grid model")
    if stopped:
        info["interrupted"] = True
    if status is Status.FEASIBLE:
        # A satisfaction search ends at its first board: found is finished, not stopped by the
        # limit (the pipeline reads an exact method's FEASIBLE as unproven otherwise).
        info["stopped"] = None
        fill = _decode(board, gm, {v: solver.value(var) for v, var in gm.x.items()})
        n = float(len(board.edges))
        return SolveResult(status, n, None, wall, fill, method, solver_info=info)
    return SolveResult(status, None, None, wall, None, method, solver_info=info)


@dataclass(frozen=True)
class GridCount:
    """How many full boards complete a suffix assignment.

    Attributes
    ----------
    suffixes : tuple of str
        The suffix tokens in slot order.
    count : int
        Number of distinct full boards with exactly these suffixes on these slots.
    count_up_to_symmetry : int
        ``count / |K|``: boards counted once per orbit of the automorphisms that fix every
        suffix slot (equal to ``count`` on the default board, whose K is trivial).
    example : dict or None
        One completion.
    wall_time : float
        Seconds.
    method : str
    stopped : {None, "time_limit", "interrupted"}
        Why the count stopped early; then ``count`` and ``count_up_to_symmetry`` are lower
        bounds (the boards counted so far).
    """

    suffixes: tuple[str, ...]
    count: int
    count_up_to_symmetry: int
    example: dict[str, str] | None
    wall_time: float
    method: str
    stopped: str | None = None

    @property
    def complete(self) -> bool:
        """True when the count is exact (it was not stopped early)."""
        return self.stopped is None

    @property
    def unique(self) -> bool | None:
        """True when the puzzle has exactly one answer (up to symmetry); None when a stopped
        count cannot tell yet (it has found at most one)."""
        if not self.complete and self.count_up_to_symmetry < 2:
            return None
        return self.count_up_to_symmetry == 1


def count_completions(
    board: Board,
    tokens: GridTokens,
    suffixes: Sequence[str],
    method: str = "matching",
    preprocess: bool = True,
    time_limit: float | None = None,
    index: GridIndex | None = None,
    symmetry: BoardSymmetry | None = None,
    limit: int | None = None,
) -> GridCount:
    """Count the full boards with the given suffixes.

    Parameters
    ----------
    board : Board
    tokens : GridTokens
    suffixes : sequence of str
        One token per suffix slot, in the board's order.
    method : {"matching", "cpsat"}
        Count the systems of distinct representatives of the prefix slots' candidate sets
        directly (bitset search, default), or enumerate all CP-SAT solutions of the board model
        with the suffixes fixed (the cross-check; slower on large counts).
    preprocess : bool
        Sound degree preprocessing.
    time_limit : float, optional
        Seconds; when reached the count stops and the result is a lower bound with
        ``stopped = "time_limit"`` (Ctrl-C likewise, ``stopped = "interrupted"``).
    index, symmetry : optional
        Precomputed :func:`build_index` / :func:`board_symmetry` results (for many counts).
    limit : int, optional
        Matching only: stop at this many boards (``count = min(count, limit)``); ``limit=2``
        decides uniqueness fast when the board has no kernel symmetry.

    Returns
    -------
    GridCount
        A designer's puzzle has a unique answer iff ``count_up_to_symmetry == 1``.

    Raises
    ------
    InputError
        Wrong number of suffixes or unknown method.
    """
    t0 = time.perf_counter()
    suffixes = [s.lower() for s in suffixes]  # case does not matter, as on the command line
    if len(suffixes) != len(board.suffix_slots):
        raise InputError(f"expected {len(board.suffix_slots)} suffixes, got {len(suffixes)}")
    idx = index if index is not None else build_index(tokens, board, preprocess)
    sym = symmetry if symmetry is not None else board_symmetry(board)
    k = sym.kernel_order
    fixed = dict(zip(board.suffix_slots, suffixes, strict=True))
    deadline = None if time_limit is None else t0 + time_limit
    if method == "matching":
        n, example, stopped = _count_by_matching(board, idx, fixed, limit, deadline)
        label = "matching-count"
    elif method == "cpsat":
        n, example, stopped = _count_by_cpsat(board, idx, fixed, deadline)
        label = "cpsat-enumerate"
    else:
        raise InputError(f"unknown counting method {method!r} (matching, cpsat)")
    wall = time.perf_counter() - t0
    return GridCount(tuple(suffixes), n, n // k, example, wall, label, stopped)


def _count_by_matching(
    board: Board,
    idx: GridIndex,
    fixed: dict[str, str],
    limit: int | None,
    deadline: float | None,
) -> tuple[int, dict[str, str] | None, str | None]:
    """The ``matching`` count of :func:`count_completions`: the systems of distinct
    representatives of the prefix slots' candidate sets, with the suffix slots ``fixed``.
    Returns the count, one completion (None when there is none) and why it stopped early."""
    suffixes = list(fixed.values())
    sid = idx.suffix_id
    cands: list[int] = []
    n = 0
    stopped: str | None = None
    if len(set(suffixes)) == len(suffixes) and all(t in sid for t in suffixes):
        for p in board.prefix_slots:
            c = -1
            for s in board.neighbours(p):
                c &= idx.bits_of_suf[sid[fixed[s]]]
            cands.append(c)
        try:
            n = count_matchings(cands, limit, deadline, partial_on_interrupt=True)
        except CountStopped as stop:
            n, stopped = stop.count, stop.reason
    example = None
    if n:
        m = match_slots(cands)
        assert m is not None
        example = fixed | {p: idx.prefixes[j] for p, j in zip(board.prefix_slots, m, strict=True)}
    return n, example, stopped


def _count_by_cpsat(
    board: Board, idx: GridIndex, fixed: dict[str, str], deadline: float | None
) -> tuple[int, dict[str, str] | None, str | None]:
    """The ``cpsat`` count of :func:`count_completions`: every CP-SAT solution of the board
    model with the suffix slots ``fixed``. Returns as :func:`_count_by_matching`."""
    gm = build_grid_model(board, idx, fixed, ())
    left = None if deadline is None else max(0.01, deadline - time.perf_counter())
    n, vals, done, interrupted = _enumerate(gm, 1, left)
    stopped = None if done else ("interrupted" if interrupted else "time_limit")
    example = _decode(board, gm, vals[0]) if vals else None
    return n, example, stopped


def cpsat_all_boards(
    board: Board,
    tokens: GridTokens,
    break_symmetry: bool = True,
    preprocess: bool = True,
    fixed: Mapping[str, str] | None = None,
) -> list[dict[str, str]]:
    """Every full board (CP-SAT, all solutions), one per orbit when ``break_symmetry``.

    Meant for small lexicons (tests and cross-checks): the list can be long.
    """
    idx = build_index(tokens, board, preprocess)
    sym = board_symmetry(board, break_symmetry)
    gm = build_grid_model(board, idx, fixed, sym.rules)
    _, vals, _, _ = _enumerate(gm, None, None)
    return [_decode(board, gm, v) for v in vals]


def cpsat_quadruples(
    board: Board,
    tokens: GridTokens,
    break_symmetry: bool = True,
    preprocess: bool = True,
    workers: int = 1,
) -> GridEnumeration:
    """Suffix assignments with a full board, by CP-SAT alone: re-solve with a no-good per find.

    Exact but slow (one solve per class); kept as the cross-check of
    :func:`~cpwords.grid.models.listing.enumerate_quadruples` on small lexicons.
    """
    t0 = time.perf_counter()
    idx = build_index(tokens, board, preprocess)
    sym = board_symmetry(board, break_symmetry)
    gm = build_grid_model(board, idx, None, sym.rules)
    found: list[GridQuadruple] = []
    solves = 0
    if gm.feasible:
        m = gm.model
        while True:
            solver = new_solver(workers=workers)
            code = solver.solve(m)
            solves += 1
            if cpsat_status(code, Task.SATISFY, m, "grid model") is not Status.FEASIBLE:
                break
            vals = {v: solver.value(var) for v, var in gm.x.items()}
            fill = _decode(board, gm, vals)
            found.append(GridQuadruple(tuple(fill[s] for s in board.suffix_slots), fill))
            lits = []
            for s in board.suffix_slots:
                b = m.new_bool_var("")
                m.add(gm.x[s] != vals[s]).only_enforce_if(b)
                lits.append(b)
            m.add_bool_or(lits)
    found.sort(key=lambda q: q.suffixes)
    return GridEnumeration(
        board,
        tuple(found),
        sym.order,
        sym.suffix_orbit_size,
        time.perf_counter() - t0,
        "cpsat-nogood",
        {"solves": solves, "suffix_tokens": len(idx.suffixes)},
    )


def grid_tokens(
    top: int = 10000,
    suffix_length: int = 2,
    min_prefix: int = 2,
    lexicon: Sequence[str] | None = None,
    plurals: bool = False,
) -> GridTokens:
    """Tokens from the ``top`` most common English words, or from ``lexicon`` when given.

    Raises
    ------
    InputError
        Options out of range or an empty lexicon.
    """
    from cpwords.grid.rules import common_tokens, cut_words

    if lexicon is not None:
        return cut_words(lexicon, suffix_length, min_prefix, "<lexicon>", plurals)
    return common_tokens(top, suffix_length, min_prefix, plurals)


def find_grid_quadruples(
    top: int = 10000,
    suffix_length: int = 2,
    min_prefix: int = 2,
    board: Board | None = None,
    method: str = "matching",
    break_symmetry: bool = True,
) -> GridEnumeration:
    """Every suffix quadruple (one per symmetry class) that admits a full board.

    Parameters
    ----------
    top : int
        Lexicon = the ``top`` most common English words (wordfreq), plurals dropped.
    suffix_length, min_prefix : int
        The cutting rule (letters).
    board : Board, optional
        Default: the seed's board (:func:`~cpwords.grid.rules.default_board`).
    method : {"matching", "cpsat", "backtrack"}
        The suffix search + matching (fast, default), CP-SAT with no-goods (slow, a
        cross-check), or the seed's centre-out backtracking (baseline).
    break_symmetry : bool
        One assignment per orbit of the automorphism group when True.

    Returns
    -------
    GridEnumeration

    Raises
    ------
    InputError
        Options out of range, empty lexicon, unknown method.

    References
    ----------
    P. Baillehache, "Solving a word puzzle game for the OKWDDM community" (2023).

    Examples
    --------
    >>> e = find_grid_quadruples(5000)
    >>> e.group_order, e.orbit_size, len(e.quadruples[0].suffixes)
    (8, 8, 4)
    """
    from cpwords.grid.rules import default_board

    b = board if board is not None else default_board()
    tokens = grid_tokens(top, suffix_length, min_prefix)
    if method == "matching":
        return enumerate_quadruples(b, tokens, break_symmetry)
    if method == "cpsat":
        return cpsat_quadruples(b, tokens, break_symmetry)
    if method == "backtrack":
        from cpwords.grid.heuristics import backtrack_quadruples

        return backtrack_quadruples(b, tokens, break_symmetry)
    raise InputError(f"unknown method {method!r} (matching, cpsat, backtrack)")
