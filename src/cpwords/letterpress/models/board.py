"""The best Letterpress move on a real board: a CP-SAT model over the spellable words.

Objective, lexicographic: first the score swing (the change of my tiles minus the opponent's),
then my defended tiles minus the opponent's defended tiles after the move. The candidate words
come from the bitset index of :mod:`cpwords.letterpress.models.index` (bag = the board's letters).
See ``models/letterpress.md`` (section 2) for the card.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cpwords.core.errors import ModelError
from cpwords.core.result import SolveResult, Status
from cpwords.letterpress.models.index import LetterpressIndex
from cpwords.letterpress.rules import ME, NEUTRAL, OPPONENT, LetterpressBoard, defended, move_scores

__all__ = ["LetterpressMove", "solve_board_cpsat"]


@dataclass(frozen=True)
class LetterpressMove:
    """A move: the word, the tiles spelling it in order, and its two scores."""

    word: str
    tiles: tuple[int, ...]
    swing: int
    defence: int

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly rendering (tiles as row-major indices)."""
        return {
            "word": self.word,
            "tiles": list(self.tiles),
            "swing": self.swing,
            "defence": self.defence,
        }


def _playable(words: Sequence[str], played: Iterable[str]) -> list[str]:
    """Drop played words and their prefixes (the game refuses both)."""
    played = [p.strip().lower() for p in played]
    if not played:
        return list(words)
    return [w for w in words if not any(p.startswith(w) for p in played)]


def _gains(owners: Sequence[int], neighbours: Sequence[Sequence[int]]) -> list[int]:
    """Per tile, what taking it gains the player to move, ``owners`` seen from that player's
    side: 1 a neutral tile, 2 an opponent's undefended one (some orthogonal neighbour not the
    opponent's), else 0. ``neighbours[t]`` are tile ``t``'s orthogonal neighbours."""
    out = []
    for t, o in enumerate(owners):
        if o == NEUTRAL:
            out.append(1)
        elif o == OPPONENT and any(owners[s] != OPPONENT for s in neighbours[t]):
            out.append(2)
        else:
            out.append(0)
    return out


def _tile_gains(board: LetterpressBoard) -> list[int]:
    """Per tile, what taking it gains the player to move on ``board`` (see :func:`_gains`)."""
    return _gains(board.owners, [board.neighbours(t) for t in range(len(board.letters))])


def _ranked_gains(by_letter: dict[str, list[int]], gains: Sequence[int]) -> dict[str, list[int]]:
    """Per letter, the gains of its tiles, largest first: a word's best swing takes, for each
    letter, the first of them (the best swing is separable by letter)."""
    return {c: sorted((gains[t] for t in ts), reverse=True) for c, ts in by_letter.items()}


def _word_swing(word: str, ranked_gains: dict[str, list[int]]) -> int:
    """Best swing of one word: per letter, the largest gains among that letter's tiles."""
    return sum(sum(ranked_gains[c][:k]) for c, k in Counter(word).items())


def solve_board_cpsat(
    board: LetterpressBoard,
    index: LetterpressIndex,
    played: Iterable[str] = (),
    time_limit: float = 20.0,
    workers: int = 2,
    seed: int = 0,
) -> SolveResult:
    """The move with the largest score swing, ties broken by the defence after the move.

    The ``cpsat`` method of :func:`cpwords.letterpress.board_spec.best_letterpress_move`, which
    loads the index and re-checks the move with the independent checker.

    Parameters
    ----------
    board : LetterpressBoard
        The position, from the mover's point of view.
    index : LetterpressIndex
        The dictionary's index (:func:`cpwords.letterpress.models.index.load_letterpress_index`).
    played : iterable of str
        Words already played; they and their prefixes are not playable.
    time_limit : float
        CP-SAT time limit in seconds.
    workers : int
        CP-SAT search workers.

    Returns
    -------
    SolveResult
        ``objective`` = swing (tiles), ``bound`` CP-SAT's bound on it, ``solution`` a
        :class:`LetterpressMove`, ``solver_info["defence"]`` the tie-break value. INFEASIBLE
        when no playable word can be spelled.

    Raises
    ------
    ModelError
        When CP-SAT rejects the model.

    Notes
    -----
    Variables: ``y_w`` (word chosen), ``x_t`` (tile used), ``me_t``/``opp_t`` (owner after),
    ``dm_t``/``do_t`` (defended after). Constraints: one word; per letter, used tiles = letters
    of the chosen word. Objective ``51 * swing + defence`` (defence lies in [-25, 25]).
    Preprocessing: the best swing of a word is separable by letter (take the best-gain tiles of
    each letter), so only words attaining the maximum swing can be optimal; the model keeps just
    those words, which is exact for the lexicographic objective.

    References
    ----------
    S. H. Eskildsen, "Letterpress Cheater Algorithm" (2013), for the word listing.
    """
    t0 = time.perf_counter()
    words, _ = index.query(board.letters)
    words = _playable(words, played)
    gains = _tile_gains(board)
    by_letter = _tiles_by_letter(board)
    info: dict[str, object] = {"candidates": len(words), "solver": "CP-SAT", "workers": workers}
    if not words:
        return SolveResult(
            Status.INFEASIBLE,
            None,
            None,
            time.perf_counter() - t0,
            None,
            "cpsat-board",
            solver_info=info,
        )
    top, keep = _max_swing_words(words, gains, by_letter)
    info["kept_after_swing_bound"] = len(keep)
    model = _board_model(board, keep, by_letter, gains)
    return _solve_swing_model(board, keep, top, model, (time_limit, workers, seed), t0, info)


def _solve_swing_model(
    board: LetterpressBoard,
    keep: list[str],
    top: int,
    model: tuple[Any, list[Any], list[Any]],
    limits: tuple[float, int, int],
    t0: float,
    info: dict[str, object],
) -> SolveResult:
    """Solve the board ``model`` of :func:`solve_board_cpsat` (:func:`_board_model`) over the
    words ``keep`` that reach the largest swing ``top``, within ``limits`` (the time limit of the
    call begun at ``t0``, workers, seed); ``info`` is its ``solver_info``."""
    from cpwords.core.cpsat_status import Task, cpsat_status, new_solver
    from cpwords.core.cpsat_stop import solve as solve_interruptibly

    m, y, x = model
    # The limit covers the whole call: the candidate scan and model building included.
    time_limit, workers, seed = limits
    solver = new_solver(time_limit - (time.perf_counter() - t0), workers, seed)
    code, stopped = solve_interruptibly(solver, m)
    wall = time.perf_counter() - t0
    info["cpsat_status"] = solver.status_name(code)
    status = cpsat_status(code, Task.OPTIMISE, m, "Letterpress board model")
    if stopped:
        info["interrupted"] = True
    if status not in (Status.OPTIMAL, Status.FEASIBLE):
        return SolveResult(Status.UNKNOWN, None, None, wall, None, "cpsat-board", solver_info=info)
    move = _checked_move(board, keep, solver, y, x, top, status is Status.OPTIMAL, info)
    # The swing is optimal whatever CP-SAT proves (only max-swing words are in the model);
    # OPTIMAL also claims the defence tie-break is proven.
    return SolveResult(
        status,
        float(move.swing),
        float(top),
        wall,
        move,
        "cpsat-board",
        solver_info=info,
    )


def _tiles_by_letter(board: LetterpressBoard) -> dict[str, list[int]]:
    """The tiles of each letter, in board order."""
    by_letter: dict[str, list[int]] = {}
    for t in range(len(board.letters)):
        by_letter.setdefault(board.letters[t], []).append(t)
    return by_letter


def _max_swing_words(
    words: Sequence[str], gains: Sequence[int], by_letter: dict[str, list[int]]
) -> tuple[int, list[str]]:
    """The largest swing of any word and the words attaining it (the only ones kept)."""
    ranked = _ranked_gains(by_letter, gains)
    swings = [_word_swing(w, ranked) for w in words]
    top = max(swings)
    keep = [w for w, s in zip(words, swings, strict=True) if s == top]
    return top, keep


def _board_model(
    board: LetterpressBoard, keep: Sequence[str], by_letter: dict[str, list[int]], gains: list[int]
) -> tuple[Any, list[Any], list[Any]]:
    """The CP-SAT model over the kept words: ``(model, y word chosen, x tile used)``."""
    from ortools.sat.python import cp_model

    n = len(board.letters)
    m = cp_model.CpModel()
    y = [m.new_bool_var(f"y[{w}]") for w in keep]
    x = [m.new_bool_var(f"x[{t}]") for t in range(n)]
    m.add_exactly_one(y)
    for c in sorted(set(board.letters) | {ch for w in keep for ch in w}):  # the same model each run
        need = [(Counter(w)[c], y[i]) for i, w in enumerate(keep) if c in w]
        m.add(sum(x[t] for t in by_letter.get(c, [])) == sum(k * v for k, v in need))
    me, opp = _owners_after(board, x)
    dm, do = _defended_after(m, board, me, opp)
    swing = sum(gains[t] * x[t] for t in range(n))
    defence = sum(dm) - sum(do)
    m.maximize(51 * swing + defence)
    return m, y, x


def _owners_after(board: LetterpressBoard, x: list[Any]) -> tuple[list[Any], list[Any]]:
    """Per tile, whether I and the opponent own it after the move (constants or expressions)."""
    shield = defended(board.owners, board)
    me: list[Any] = []  # constants or CP-SAT expressions
    opp: list[Any] = []
    for t, o in enumerate(board.owners):
        if o == ME:
            me.append(1)
            opp.append(0)
        elif o == OPPONENT and shield[t]:
            me.append(0)
            opp.append(1)
        elif o == OPPONENT:
            me.append(x[t])
            opp.append(1 - x[t])
        else:
            me.append(x[t])
            opp.append(0)
    return me, opp


def _defended_after(
    m: Any, board: LetterpressBoard, me: list[Any], opp: list[Any]
) -> tuple[list[Any], list[Any]]:
    """Per tile, Booleans: defended for me (``dm``) and for the opponent (``do``) after the move."""
    dm, do = [], []
    for t in range(len(board.letters)):
        closed = [t, *board.neighbours(t)]
        a = m.new_bool_var(f"dm[{t}]")
        b = m.new_bool_var(f"do[{t}]")
        for s in closed:
            m.add(a <= me[s])  # maximised: a = AND(me)
        m.add(b >= sum(opp[s] for s in closed) - (len(closed) - 1))  # minimised: b = AND(opp)
        dm.append(a)
        do.append(b)
    return dm, do


def _checked_move(
    board: LetterpressBoard,
    keep: Sequence[str],
    solver: Any,
    y: list[Any],
    x: list[Any],
    top: int,
    proven: bool,
    info: dict[str, object],
) -> LetterpressMove:
    """Decode the solver's move, check its scores against the bound and the objective.

    Records the defence and its bound in ``info``; raises ModelError on a mismatch.
    """
    n = len(board.letters)
    word = next(w for i, w in enumerate(keep) if solver.value(y[i]))
    used = [t for t in range(n) if solver.value(x[t])]
    pool: dict[str, list[int]] = {}
    for t in used:
        pool.setdefault(board.letters[t], []).append(t)
    tiles = tuple(pool[c].pop(0) for c in word)
    s, d = move_scores(board, tiles)
    if s != top:
        raise ModelError(f"swing {s} of the decoded move differs from the bound {top}")
    info["defence"] = d
    info["defence_bound"] = int(solver.best_objective_bound) - 51 * top
    if proven and 51 * s + d != round(solver.objective_value):
        raise ModelError("the decoded move's scores differ from CP-SAT's objective")
    return LetterpressMove(word, tiles, s, d)
