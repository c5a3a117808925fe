"""Why a partial board cannot be completed: a minimal set of conflicting slots (CP-SAT cores).

The *constraints of a set S of slots* are those of the sub-board that S induces: every slot of S
holds a token of its kind (a prefix or suffix of a word of the lexicon: every slot of a board is
on an edge), a placed token stays on its slot, every edge between two slots of S spells a word,
the prefix tokens on S are pairwise distinct and so are its suffix tokens. S *conflicts* when
they cannot all hold. S = every slot is the whole board (the model of
:func:`~cpwords.grid.models.cpsat.complete_grid_cpsat` less its symmetry rules and its degree
preprocessing, neither of which changes whether a board exists), so a board is unfillable
exactly when the set of all its slots conflicts.

The model has one literal per slot, ``on[v]``, that switches on the slot's constraints: an edge's
table holds when both its ends are on; ``on[v]`` false gives the slot a value of its own (a
"wildcard" id, distinct per slot, so that ``AllDifferent`` ignores it). Every literal is an
assumption (``AddAssumptions``; the slots left out are assumed off, a relaxation that spares
the search from finding it); on an infeasible solve, CP-SAT's
``SufficientAssumptionsForInfeasibility`` gives a conflicting set (a core), shrunk to a minimal
one by deletion: drop one slot, re-solve, keep it dropped when the rest still conflicts. Tokens
with the same partners are interchangeable, so at most as many of them as the board has slots
of their kind are kept (an exact reduction).

*Minimal* means that dropping any one slot leaves a set that can be filled (each such solve is a
proof); it is not necessarily the fewest slots of any conflicting set. A deletion solve stopped
by the time limit keeps its slot and the answer says it is not proven minimal.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from cpwords.core.cpsat_status import Task, cpsat_status, new_solver
from cpwords.core.cpsat_stop import solve as solve_interruptibly
from cpwords.core.errors import InputError
from cpwords.core.result import Status
from cpwords.grid.models.index import GridIndex, build_index
from cpwords.grid.rules import Board, GridTokens

__all__ = ["GridConflict", "grid_conflict", "slots_conflict"]


@dataclass(frozen=True)
class GridConflict:
    """The answer of :func:`grid_conflict`.

    Attributes
    ----------
    status : Status
        INFEASIBLE: the board cannot be completed and ``slots`` conflict; FEASIBLE: it can
        (``slots`` is empty); UNKNOWN: stopped before either was proven.
    slots : tuple of str
        The conflicting slots, in the board's order (empty unless INFEASIBLE).
    placed : dict slot -> token
        The tokens placed on those slots (the others of ``slots`` are empty on the board).
    minimal : bool
        Every one-slot deletion of ``slots`` was proven fillable (False when a deletion solve
        was stopped, or when not INFEASIBLE).
    solves : int
        CP-SAT solves made.
    wall_time : float
        Seconds.
    stopped : {None, "time_limit", "interrupted"}
        Why the search stopped early.
    """

    status: Status
    slots: tuple[str, ...]
    placed: dict[str, str]
    minimal: bool
    solves: int
    wall_time: float
    stopped: str | None = None


def _representatives(
    pairs: Sequence[tuple[str, str]], placed: set[str], cap: int, side: int
) -> list[tuple[str, str]]:
    """Keep at most ``cap`` tokens of ``side`` (0 prefix, 1 suffix) with the same partners.

    Exact for the question "can these slots be filled": tokens with the same partners are
    interchangeable, and a board holds at most ``cap`` tokens of a side (its slots of that
    kind), so any fill maps one-to-one onto the kept tokens. Placed tokens are all kept.
    """
    partners: dict[str, set[str]] = {}
    for pair in pairs:
        partners.setdefault(pair[side], set()).add(pair[1 - side])
    seen: dict[frozenset[str], int] = {}
    kept = set(placed)
    for tok in sorted(partners):
        key = frozenset(partners[tok])
        if tok not in placed and seen.get(key, 0) < cap:
            seen[key] = seen.get(key, 0) + 1
            kept.add(tok)
    return [pair for pair in pairs if pair[side] in kept]


class _SlotModel:
    """The board CSP with one assumption literal per slot (see the module docstring)."""

    def __init__(self, board: Board, index: GridIndex, partial: Mapping[str, str]) -> None:
        self.board = board
        m = self.model = cp_model.CpModel()
        kinds = board.kinds
        placed = {k: {t for v, t in partial.items() if kinds[v] == k} for k in ("prefix", "suffix")}
        words = [(index.prefixes[i], index.suffixes[j]) for i, j in index.pairs]
        words = _representatives(words, placed["prefix"], len(board.prefix_slots), 0)
        words = _representatives(words, placed["suffix"], len(board.suffix_slots), 1)
        ids = {
            "prefix": {t: i for i, t in enumerate(sorted({p for p, _ in words}))},
            "suffix": {t: i for i, t in enumerate(sorted({s for _, s in words}))},
        }
        wild = {v: -1 - i for i, v in enumerate(board.slots)}  # one "off" value per slot
        self.on: dict[str, cp_model.IntVar] = {}
        x: dict[str, cp_model.IntVar] = {}
        for v in board.slots:
            on = self.on[v] = m.new_bool_var(f"on_{v}")
            dom = cp_model.Domain.from_values([wild[v], *range(len(ids[kinds[v]]))])
            x[v] = m.new_int_var_from_domain(dom, v)
            m.add(x[v] == wild[v]).only_enforce_if(~on)
            m.add(x[v] != wild[v]).only_enforce_if(on)
            if v in partial:
                t = ids[kinds[v]].get(partial[v])
                if t is None:  # on no word of the lexicon: the slot conflicts on its own
                    m.add_bool_or([~on])
                else:
                    m.add(x[v] == t).only_enforce_if(on)
        table = [[ids["prefix"][p], ids["suffix"][s]] for p, s in words]
        for p, s in board.edges:  # a word where both ends are on
            m.add_allowed_assignments([x[p], x[s]], table).only_enforce_if([self.on[p], self.on[s]])
        m.add_all_different([x[v] for v in board.prefix_slots])
        m.add_all_different([x[v] for v in board.suffix_slots])

    def solve(
        self, slots: Sequence[str], time_limit: float | None, workers: int, seed: int
    ) -> tuple[Status, tuple[str, ...], bool]:
        """Solve with the constraints of ``slots`` on: (status, a core when INFEASIBLE, stopped
        by Ctrl-C). The core is CP-SAT's sufficient assumptions, in the board's order."""
        m = self.model
        m.clear_assumptions()
        # The other slots are off: only a relaxation, but the search need not find that.
        chosen = set(slots)
        m.add_assumptions([self.on[v] if v in chosen else ~self.on[v] for v in self.board.slots])
        solver = new_solver(time_limit, workers, seed)
        # Measured on the default board (10,000 words): presolve, symmetry detection and
        # probing took about 1 s of each solve; without them a solve takes about 0.2 s.
        solver.parameters.cp_model_presolve = False
        solver.parameters.symmetry_level = 0
        solver.parameters.cp_model_probing_level = 0
        code, interrupted = solve_interruptibly(solver, m)
        status = cpsat_status(code, Task.SATISFY, m, "grid conflict model")
        core: tuple[str, ...] = ()
        if status is Status.INFEASIBLE:
            names = {self.on[v].index: v for v in slots}
            got = {names.get(i) for i in solver.sufficient_assumptions_for_infeasibility()}
            core = tuple(v for v in slots if v in got) or tuple(slots)
        return status, core, interrupted


def _checked_partial(board: Board, partial: Mapping[str, str] | None) -> dict[str, str]:
    """The placed tokens in lower case; an unknown slot is bad input."""
    kinds = board.kinds
    out = {v: t.lower() for v, t in (partial or {}).items()}
    for v in out:
        if v not in kinds:
            raise InputError(f"unknown slot {v!r} (board {board.name!r} has {', '.join(kinds)})")
    return out


def grid_conflict(
    board: Board,
    tokens: GridTokens,
    partial: Mapping[str, str] | None = None,
    *,
    time_limit: float | None = None,
    workers: int = 1,
    seed: int = 0,
) -> GridConflict:
    """Whether a partial board can be completed, and if not, a minimal set of conflicting slots.

    Parameters
    ----------
    board : Board
    tokens : GridTokens
        The lexicon's tokens (every pair is used: no degree preprocessing, which is sound only
        for the whole board).
    partial : mapping slot -> token, optional
        Tokens already placed (case does not matter).
    time_limit : float, optional
        Seconds for the whole search (None: no limit).
    workers, seed : int
        CP-SAT search workers and random seed.

    Returns
    -------
    GridConflict
        INFEASIBLE with the conflicting slots (dropping any one of them leaves a set that can be
        filled when ``minimal``), FEASIBLE when the board can be completed, UNKNOWN when stopped
        before the first answer.

    Raises
    ------
    InputError
        Unknown slot in ``partial``.

    Examples
    --------
    >>> from cpwords.grid.rules import Board, cut_words
    >>> b = Board("tiny", ("s1", "s2"), ("p1", "p2"), (("p1", "s1"), ("p1", "s2"), ("p2", "s1")))
    >>> t = cut_words(["ball", "bale", "tall"], 2, 2, "<words>")
    >>> grid_conflict(b, t).status.value
    'FEASIBLE'
    >>> c = grid_conflict(b, t, {"p1": "ta"})
    >>> c.status.value, c.slots, c.minimal
    ('INFEASIBLE', ('s1', 's2', 'p1'), True)
    """
    t0 = time.perf_counter()
    placed = _checked_partial(board, partial)
    sm = _SlotModel(board, build_index(tokens, board, preprocess=False), placed)

    def left() -> float | None:
        return None if time_limit is None else time_limit - (time.perf_counter() - t0)

    status, core, interrupted = sm.solve(board.slots, left(), workers, seed)
    if status is Status.INFEASIBLE:
        core, minimal, stop, solves = _shrink(sm, core, left, workers, seed)
    else:
        minimal, solves = False, 1
        stop = (
            "interrupted" if interrupted else ("time_limit" if status is Status.UNKNOWN else None)
        )
    on = {v: placed[v] for v in core if v in placed}
    return GridConflict(status, core, on, minimal, solves, time.perf_counter() - t0, stop)


def _shrink(
    sm: _SlotModel,
    core: tuple[str, ...],
    left: Callable[[], float | None],
    workers: int,
    seed: int,
) -> tuple[tuple[str, ...], bool, str | None, int]:
    """Shrink a conflicting set by deletion: (the set, minimal?, why stopped, solves made,
    counting the first)."""
    i, minimal, stop, solves = 0, True, None, 1
    while i < len(core):
        rest = core[:i] + core[i + 1 :]
        remaining = left()
        if stop is not None or (remaining is not None and remaining <= 0):
            return core, False, stop or "time_limit", solves
        st, sub, interrupted = sm.solve(rest, remaining, workers, seed)
        solves += 1
        if interrupted:
            stop = "interrupted"
        if st is Status.INFEASIBLE:
            core = sub  # a subset of ``rest``: the slots already kept stay necessary
            continue
        if st is not Status.FEASIBLE:  # stopped: the slot stays, unproven
            minimal = False
        i += 1
    return core, minimal, stop, solves


def slots_conflict(
    board: Board,
    tokens: GridTokens,
    slots: Sequence[str],
    partial: Mapping[str, str] | None = None,
    *,
    time_limit: float | None = None,
    workers: int = 1,
) -> Status:
    """Whether the constraints of ``slots`` alone can hold (see the module docstring).

    Parameters
    ----------
    board : Board
    tokens : GridTokens
    slots : sequence of str
        The slots whose constraints are on.
    partial : mapping slot -> token, optional
        Tokens already placed.
    time_limit : float, optional
        Seconds (None: no limit).
    workers : int
        CP-SAT search workers.

    Returns
    -------
    Status
        INFEASIBLE when they conflict, FEASIBLE when they can hold, UNKNOWN when stopped.

    Raises
    ------
    InputError
        Unknown slot in ``slots`` or ``partial``.
    """
    placed = _checked_partial(board, partial)
    unknown = [v for v in slots if v not in board.kinds]
    if unknown:
        raise InputError(f"unknown slot {unknown[0]!r} (board {board.name!r})")
    sm = _SlotModel(board, build_index(tokens, board, preprocess=False), placed)
    return sm.solve(list(dict.fromkeys(slots)), time_limit, workers, 0)[0]
