"""The Letterpress board's spec: the best move on a position (largest swing, then defence).

The CLI (``cpwords letterpress LETTERS --board COLOURS``), the API
(:func:`best_letterpress_move`, ``cpwords.solve``) and the study run the ``cpsat`` method
through :func:`cpwords.core.spec.solve` on a :class:`LetterpressPosition`; the move is re-checked by
:func:`~cpwords.letterpress.rules.letterpress_move_problems` and its swing recomputed by
:func:`~cpwords.letterpress.rules.move_scores`.

Instance tables (keys): ``letters`` and ``colours`` (the board, as ``cpwords letterpress
--board`` takes them), ``lexicon`` (see :func:`cpwords.core.sources.lexicon_words`) and
optional ``played`` (a list of words already played).
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cpwords.core.errors import InputError
from cpwords.core.lexicon import Lexicon, lexicon_from_words
from cpwords.core.result import SolveResult
from cpwords.core.sources import lexicon_words
from cpwords.core.spec import MethodInfo, PuzzleSpec, no_params, solve
from cpwords.letterpress.models.board import solve_board_cpsat
from cpwords.letterpress.models.index import (
    LetterpressIndex,
    build_letterpress_index,
    load_letterpress_index,
)
from cpwords.letterpress.rules import (
    LetterpressBoard,
    letterpress_move_problems,
    move_scores,
    parse_board,
)


@dataclass(frozen=True)
class LetterpressPosition:
    """A board, the dictionary's index, and the words already played.

    Parameters
    ----------
    board : LetterpressBoard
        The position, from the mover's point of view.
    index : LetterpressIndex
    played : tuple of str
        Words already played; they and their prefixes are not playable.
    """

    board: LetterpressBoard
    index: LetterpressIndex
    played: tuple[str, ...] = ()

    @functools.cached_property
    def dictionary(self) -> frozenset[str]:
        """The dictionary's words (for the checker)."""
        return self.index.as_set()


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> LetterpressPosition:
    """The position of one instance table."""
    for key in ("letters", "colours", "lexicon"):
        if key not in spec:
            raise InputError(f"a letterpress-board instance needs {key!r}")
    name = str(spec["lexicon"])
    words = lexicon_from_words(lexicon_words(name, str(base_dir)), name)
    board = parse_board(str(spec["letters"]), str(spec["colours"]))
    played = tuple(str(w) for w in spec.get("played", ()))
    return LetterpressPosition(board, build_letterpress_index(words.words), played)


def run(
    position: LetterpressPosition,
    method: str,
    *,
    seed: int,
    time_limit: float | None,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """``cpsat``: the lexicographic CP-SAT model over the words of maximum swing."""
    no_params("letterpress-board", params)
    limit = 20.0 if time_limit is None else time_limit
    return solve_board_cpsat(
        position.board, position.index, position.played, limit, workers=workers, seed=seed
    )


def problems(position: LetterpressPosition, result: SolveResult) -> list[str]:
    """The move is legal (a dictionary word spelled by distinct tiles), not a played word or a
    prefix of one, and its defence is what the board gives."""
    move = result.solution
    found = letterpress_move_problems(position.board, move.word, move.tiles, position.dictionary)
    if any(p.strip().lower().startswith(move.word) for p in position.played):
        found.append(f"{move.word!r} was played, or is a prefix of a played word")
    if not found and move_scores(position.board, move.tiles) != (move.swing, move.defence):
        found.append("the move's swing or defence differs from the board's")
    return found


def objective(position: LetterpressPosition, solution: Any) -> float:
    """The swing recomputed from the tiles."""
    return float(move_scores(position.board, solution.tiles)[0])


def best_letterpress_move(
    board: LetterpressBoard,
    dictionary: str | os.PathLike[str] | Lexicon | Iterable[str] | LetterpressIndex | None = None,
    played: Iterable[str] = (),
    time_limit: float = 20.0,
    workers: int = 2,
    seed: int = 0,
) -> SolveResult:
    """The move with the largest score swing, ties broken by the defence after the move.

    This is :func:`cpwords.core.spec.solve` for ``"letterpress-board"`` with the ``cpsat`` method
    (:func:`cpwords.letterpress.models.board.solve_board_cpsat`) after loading the index.

    Parameters
    ----------
    board : LetterpressBoard
        The position, from the mover's point of view.
    dictionary : path, Lexicon, iterable of str, LetterpressIndex, or None
        See :func:`cpwords.letterpress.models.index.load_letterpress_index` (default web2).
    played : iterable of str
        Words already played; they and their prefixes are not playable.
    time_limit : float
        Seconds for the whole call (loading the index included).
    workers, seed : int
        CP-SAT search workers and random seed.

    Returns
    -------
    SolveResult
        ``objective`` = swing (tiles), ``bound`` CP-SAT's bound on it, ``solution`` a
        :class:`~cpwords.letterpress.models.board.LetterpressMove`; INFEASIBLE when no
        playable word can be spelled. ``verified`` is True once the move passed the checker.

    Raises
    ------
    InputError
        Bad dictionary or limits.
    CheckError
        The move fails the independent checker (a bug).
    """
    t0 = time.perf_counter()
    index = (
        dictionary
        if isinstance(dictionary, LetterpressIndex)
        else load_letterpress_index(dictionary)
    )
    position = LetterpressPosition(board, index, tuple(played))
    left = max(0.05, time_limit - (time.perf_counter() - t0))
    res = solve(SPEC, position, "cpsat", time_limit=left, workers=workers, seed=seed)
    return dataclasses.replace(res, wall_time=time.perf_counter() - t0)


#: The registry (``cpwords letterpress --board``, suites, ``SolveResult.method``).
METHODS: dict[str, MethodInfo] = {
    "cpsat": MethodInfo("exact", description="CP-SAT over the words of maximum swing"),
}

SPEC = PuzzleSpec(
    puzzle="letterpress-board",
    sense="max",
    methods=METHODS,
    default_method="cpsat",
    make_instance=make_instance,
    run=run,
    problems=problems,
    objective=objective,
    size=lambda position: position.index.n,
    size_label="dictionary words",
    spec_keys=frozenset({"letters", "colours", "lexicon", "played"}),
    solution_json=lambda move: move.to_dict(),
    objective_label="score swing (tiles)",
)
