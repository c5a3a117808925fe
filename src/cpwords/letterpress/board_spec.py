"""The Letterpress board's spec: the best move on a position (largest swing, then defence).

The CLI (``cpwords letterpress LETTERS --board COLOURS``), the API
(:func:`best_letterpress_move`, ``cpwords.solve``) and the study run the ``cpsat`` method
through :func:`cpwords.core.spec.solve` on a :class:`LetterpressPosition`; the move is re-checked by
:func:`~cpwords.letterpress.rules.letterpress_move_problems` and its swing recomputed by
:func:`~cpwords.letterpress.rules.move_scores`.

Instance tables (keys): ``letters`` and ``colours`` (the board, as ``cpwords letterpress
--board`` takes them), ``lexicon`` (see :func:`cpwords.core.sources.lexicon_words`) and
optional ``played`` (a list of words already played).

Below the spec, the Python API behind ``cpwords letterpress --board`` (the command parses,
calls these and prints; the Letterpress page calls :func:`letterpress_move` too):
:func:`letterpress_position` (the board, drawn or given, its letters checked against the
dictionary's), :func:`letterpress_move` (the best move, or one ply ahead) and
:func:`letterpress_move_row` (its ``--json`` object).
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cpwords.core.errors import CheckError, InputError
from cpwords.core.lexicon import Lexicon, lexicon_from_words
from cpwords.core.result import SolveResult
from cpwords.core.rows import result_row
from cpwords.core.sources import lexicon_words
from cpwords.core.spec import MethodInfo, PuzzleSpec, no_params, solve
from cpwords.letterpress.models.board import solve_board_cpsat
from cpwords.letterpress.models.index import (
    LetterpressIndex,
    build_letterpress_index,
    load_letterpress_index,
)
from cpwords.letterpress.models.lookahead import LookaheadMove, lookahead_move
from cpwords.letterpress.rules import (
    LetterpressBoard,
    letterpress_move_problems,
    move_scores,
    parse_board,
    play,
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


def lookahead_problems(
    board: LetterpressBoard, move: LookaheadMove, dictionary: Collection[str], played: Iterable[str]
) -> list[str]:
    """Everything wrong with a one-ply answer (empty when right), by the rules alone: the move
    and the reply are legal, the reply is on the board the move leaves (from the opponent's
    side), is neither a played word nor a prefix of one (the move's word included), and
    every score is what the boards give.

    Parameters
    ----------
    board : LetterpressBoard
    move : LookaheadMove
    dictionary : collection of str
    played : iterable of str
        Words played before the move.

    Returns
    -------
    list of str
    """
    found = letterpress_move_problems(board, move.word, move.tiles, dictionary)
    before = [p.strip().lower() for p in played]
    if any(p.startswith(move.word) for p in before):
        found.append(f"{move.word!r} was played, or is a prefix of a played word")
    if found:
        return found
    if move_scores(board, move.tiles) != (move.swing, move.defence):
        found.append("the move's swing or defence differs from the board's")
    after = play(board, move.tiles)
    theirs = LetterpressBoard(board.letters, tuple(-o for o in after), board.rows, board.cols)
    if move.reply_word is None:
        if move.reply_swing != 0:
            found.append("no reply, but a reply swing")
        return found
    reply = letterpress_move_problems(theirs, move.reply_word, move.reply_tiles, dictionary)
    found += [f"reply: {p}" for p in reply]
    if any(p.startswith(move.reply_word) for p in [*before, move.word]):
        found.append(f"reply {move.reply_word!r} was played, or is a prefix of a played word")
    if not found and move_scores(theirs, move.reply_tiles)[0] != move.reply_swing:
        found.append("the reply's swing differs from the board's")
    return found


def lookahead_letterpress_move(
    board: LetterpressBoard,
    dictionary: str | os.PathLike[str] | Lexicon | Iterable[str] | LetterpressIndex | None = None,
    played: Iterable[str] = (),
    time_limit: float | None = 20.0,
) -> SolveResult:
    """The move that leaves the opponent the weakest best reply: its swing minus the best reply
    swing, maximised over every move (one ply ahead), re-checked by the rules.

    See :mod:`cpwords.letterpress.models.lookahead` for what is proven: OPTIMAL means every move
    (word and tiles) was tried or proven worse by the bound; a search stopped by the time limit
    is FEASIBLE (the best of the moves tried), with ``bound`` an upper bound on the value.

    Parameters
    ----------
    board : LetterpressBoard
        The position, from the mover's point of view.
    dictionary : path, Lexicon, iterable of str, LetterpressIndex, or None
        See :func:`cpwords.letterpress.models.index.load_letterpress_index`.
    played : iterable of str
        Words already played; they and their prefixes are playable by neither player.
    time_limit : float, optional
        Seconds for the whole call (loading the index included); None: no limit.

    Returns
    -------
    SolveResult
        ``objective`` the value, ``solution`` a
        :class:`~cpwords.letterpress.models.lookahead.LookaheadMove` (with the reply),
        ``verified`` True once :func:`lookahead_problems` found nothing.

    Raises
    ------
    InputError
        Bad dictionary.
    CheckError
        The answer breaks a rule (a bug).

    Examples
    --------
    The largest swing (TACOS, +8) leaves a neutral tile, so the opponent replies; ASCOT (+7)
    colours the last neutral tile and ends the game:

    >>> from cpwords.letterpress.rules import parse_board
    >>> b = parse_board("cat/soa", ".r./rr.", rows=2, cols=3)
    >>> words = ["cat", "cats", "taco", "tacos", "oat", "oats", "coat", "coats", "ascot"]
    >>> best_letterpress_move(b, words, workers=1).solution.word
    'tacos'
    >>> r = lookahead_letterpress_move(b, words)
    >>> m = r.solution
    >>> r.status.value, m.word, m.swing, m.reply_word, m.reply_swing, r.objective, r.verified
    ('OPTIMAL', 'ascot', 7, None, 0, 7.0, True)
    """
    t0 = time.perf_counter()
    index = (
        dictionary
        if isinstance(dictionary, LetterpressIndex)
        else load_letterpress_index(dictionary)
    )
    left = None if time_limit is None else max(0.05, time_limit - (time.perf_counter() - t0))
    res = lookahead_move(board, index, played, left)
    verified = None
    if res.solution is not None:
        found = lookahead_problems(board, res.solution, index.as_set(), played)
        if found:
            raise CheckError(f"the one-ply move fails the checker: {found[0]}")
        verified = True
    return dataclasses.replace(res, wall_time=time.perf_counter() - t0, verified=verified)


# ---- The Python API of ``cpwords letterpress --board`` ----------------------------------------


def letterpress_position(
    letters: str | None,
    colours: str,
    index: LetterpressIndex,
    *,
    seed: int = 0,
    lang: str = "en",
    fold: bool = False,
) -> LetterpressBoard:
    """The board of ``--board COLOURS``: the given letters, or letters drawn from the
    dictionary's frequencies, checked against the dictionary's letters.

    Parameters
    ----------
    letters : str, optional
        The 25 letters, row-major (``/`` allowed); None draws them
        (:func:`~cpwords.letterpress.spec.random_letterpress_board`, with ``seed``).
    colours : str
        The owners: ``b`` mine (to move), ``r`` the opponent's, ``.`` neutral.
    index : LetterpressIndex
    seed : int
    lang : str
    fold : bool

    Returns
    -------
    LetterpressBoard

    Raises
    ------
    InputError
        Bad letters or colours, or a letter the dictionary has not (``board: ...``).
    """
    from cpwords.core.alphabet import foreign_letters
    from cpwords.letterpress.spec import random_letterpress_board

    if letters is None:
        letters = random_letterpress_board(index, seed=seed)
    board = parse_board(letters, colours, lang=lang, fold=fold)
    problem = foreign_letters(board.letters, index.letters, index.source)
    if problem is not None:
        raise InputError(f"board: {problem}")
    return board


def letterpress_move(
    board: LetterpressBoard,
    index: LetterpressIndex,
    played: Iterable[str] = (),
    *,
    lookahead: int = 0,
    time_limit: float | None = 20.0,
    workers: int = 2,
    seed: int = 0,
) -> SolveResult:
    """``cpwords letterpress --board``'s answer: the best move, or one ply ahead.

    Parameters
    ----------
    board : LetterpressBoard
    index : LetterpressIndex
    played : iterable of str
        Words already played.
    lookahead : {0, 1}
        0: the largest swing (:func:`best_letterpress_move`); 1: the largest swing minus the
        opponent's best reply swing (:func:`lookahead_letterpress_move`).
    time_limit : float, optional
        Seconds (None: 20 s for the best move, no limit one ply ahead).
    workers, seed : int
        CP-SAT's search workers and seed (the best move).

    Returns
    -------
    SolveResult
        As the function called returns it.

    Examples
    --------
    >>> from cpwords.letterpress.models.index import build_letterpress_index
    >>> index = build_letterpress_index(["cat", "at"])
    >>> board = parse_board("catxx" * 5, "....." * 5)
    >>> move = letterpress_move(board, index, time_limit=10).solution
    >>> move.word, move.swing
    ('cat', 3)
    """
    if lookahead:
        return lookahead_letterpress_move(board, index, played, time_limit)
    left = time_limit or 20.0
    return best_letterpress_move(board, index, played, left, workers=workers, seed=seed)


def reply_lines(result: SolveResult) -> list[tuple[str, str]]:
    """One ply ahead, as ``cpwords letterpress --board --lookahead 1`` prints it (the page
    shows the same lines): the opponent's best reply to the move, and its net value.

    Parameters
    ----------
    result : SolveResult
        A :func:`letterpress_move` answer with ``lookahead=1`` and a move.

    Returns
    -------
    list of (str, str)
        ``("reply", ...)``: the reply word and its swing for the opponent, or why there is
        none; ``("net", ...)``: the swing less the reply's, and whether it is proven best.
    """
    move, info = result.solution, result.solver_info
    if move.game_over:
        reply = "none: the move colours the last neutral tile (the game ends)"
    elif move.reply_word is None:
        reply = "none: no word is left to play (a pass)"
    else:
        reply = (
            f"{move.reply_word.upper()}  (the opponent's best: swing +{move.reply_swing} for them)"
        )
    if result.status.value == "OPTIMAL":
        proof = f"proven best of all {info['moves']:,} moves (every word and its tiles)"
    else:
        proof = (
            f"best of the {info['examined']:,} of {info['moves']:,} moves tried (largest swing "
            f"first), not proven; no move scores more than {result.bound:+.0f}"
        )
    return [("reply", reply), ("net", f"{move.net:+d} (swing - the best reply's): {proof}")]


def letterpress_move_row(
    result: SolveResult,
    board: LetterpressBoard,
    index: LetterpressIndex,
    *,
    lang: str = "en",
    fold: bool = False,
    seed: int | None = None,
    lookahead: int = 0,
) -> dict[str, Any]:
    """The JSON object of ``cpwords letterpress --board --json``.

    Parameters
    ----------
    result : SolveResult
        A :func:`letterpress_move` answer.
    board : LetterpressBoard
    index : LetterpressIndex
    lang : str
    fold : bool
        How the dictionary was read (reported as given).
    seed : int, optional
        The seed of a drawn board (None: the letters were given).
    lookahead : int

    Returns
    -------
    dict
        The result's keys (``solution``: the move), then ``word``, ``lexicon``,
        ``lexicon_size``, ``lang``, ``fold_accents``, ``letters``, ``random_board``, ``seed``
        and ``lookahead``.
    """
    move = result.solution
    return result_row(
        result.to_dict(solution=move.to_dict() if move is not None else None),
        interrupted=bool(result.solver_info.get("interrupted")),
        word=move.word if move is not None else None,
        lexicon=index.source,
        lexicon_size=index.n,
        lang=lang,
        fold_accents=fold,
        letters=board.letters,
        random_board=seed is not None,
        seed=seed,
        lookahead=lookahead,
    )


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
