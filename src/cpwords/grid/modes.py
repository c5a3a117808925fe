"""The modes of ``cpwords grid`` as library functions: one answer for the command and the page.

:func:`load_grid` reads a board's tokens and symmetry (:class:`GridGame`); then each mode is a
function and its ``--json`` row: :func:`check_grid` and :func:`grid_check_row` (``--check``),
:func:`~cpwords.grid.spec.complete_board` and :func:`grid_solve_row` (``--solve``),
:func:`count_grid` and :func:`grid_count_row` (``--count``), :func:`list_grid` and
:func:`grid_list_row` (the listing), :func:`~cpwords.grid.spec.unique_grid_puzzles` and
:func:`grid_unique_row` (``--unique``). The command line parses, calls them and prints; the
grid page calls the same functions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cpwords.core.blocklist import Blocklist
from cpwords.core.errors import CheckError
from cpwords.core.result import SolveResult, listing_status
from cpwords.core.rows import check_row, result_row
from cpwords.grid.models.conflict import GridConflict
from cpwords.grid.models.cpsat import GridCount
from cpwords.grid.rules import Board, GridEnumeration, GridTokens, board_words, grid_problems
from cpwords.grid.spec import GridCompletion, GridLexicon, UniqueGridPuzzles, grid_suffixes
from cpwords.grid.symmetry import BoardSymmetry

__all__ = [
    "GridGame",
    "GridPuzzleCount",
    "check_grid",
    "count_grid",
    "grid_check_row",
    "grid_count_row",
    "grid_list_row",
    "grid_solve_row",
    "grid_unique_row",
    "list_grid",
    "load_grid",
]


@dataclass(frozen=True)
class GridGame:
    """A board with its tokens and symmetry: what every mode of ``cpwords grid`` starts from.

    Attributes
    ----------
    board : Board
    tokens : GridTokens
        The lexicon's tokens (less the blocked words, unless read for ``--unique`` or a count).
    symmetry : BoardSymmetry
        The board's automorphism group (with lex-leader rules when ``break_symmetry``).
    source : GridLexicon
        Where the tokens come from.
    block : Blocklist, optional
        The blocklist of a mode that generates boards (a listing, ``--solve``, ``--unique``).
    break_symmetry : bool
        One suffix class per orbit of rotations/reflections (False: every orientation).
    """

    board: Board
    tokens: GridTokens
    symmetry: BoardSymmetry
    source: GridLexicon
    block: Blocklist | None = None
    break_symmetry: bool = True

    def base_row(self) -> dict[str, Any]:
        """The keys every mode's ``--json`` row starts with: the board, the lexicon and how it
        was cut, the group's order, the blocklist's source (a new dict at each call)."""
        source = self.source
        base: dict[str, Any] = {
            "board": self.board.name,
            "top": source.top if source.path is None else None,
            "lexicon": self.tokens.source,
            "lexicon_size": len(self.tokens.words),
            "lang": source.lang,
            "fold_accents": source.fold,
            "suffix_length": source.suffix_length,
            "min_prefix": source.min_prefix,
            "group_order": self.symmetry.order,
        }
        if self.block is not None:
            base["blocklist"] = {"source": self.block.source}
        return base


def load_grid(
    board: Board,
    source: GridLexicon | None = None,
    block: Blocklist | None = None,
    *,
    unique: bool = False,
    all_orientations: bool = False,
    on_stage: Callable[[str], None] | None = None,
) -> GridGame:
    """Read the tokens of ``source`` and the symmetry group of ``board``.

    Parameters
    ----------
    board : Board
    source : GridLexicon, optional
        Where the tokens come from (default: ``GridLexicon()``, the English default's 10,000
        most common words).
    block : Blocklist, optional
        Words left out of the tokens (a listing's example boards and a ``--solve`` completion
        are fit to print), unless ``unique``.
    unique : bool
        For ``--unique``: the whole lexicon is read (uniqueness is proven on every word; the
        designs that show a blocked word are withheld afterwards).
    all_orientations : bool
        No symmetry breaking: every orientation is listed.
    on_stage : callable ``(stage)``, optional
        Told each stage as it starts (``"loading the lexicon"``, ``"symmetry"``).

    Returns
    -------
    GridGame

    Raises
    ------
    InputError
        Cutting options out of range, an empty lexicon, or a dictionary not installed.
    """
    from cpwords.grid.symmetry import board_symmetry

    source = GridLexicon() if source is None else source
    if on_stage is not None:
        on_stage("loading the lexicon")
    tokens = source.tokens(None if unique else block)
    if on_stage is not None:
        on_stage("symmetry")
    sym = board_symmetry(board, not all_orientations)
    return GridGame(board, tokens, sym, source, block, not all_orientations)


def check_grid(board: Board, tokens: GridTokens, fill: Mapping[str, str]) -> list[str]:
    """What is wrong with a filled board (``cpwords grid --check``; the page's check).

    Parameters
    ----------
    board : Board
    tokens : GridTokens
        The lexicon's tokens: its words, suffix length and least prefix.
    fill : mapping slot -> token

    Returns
    -------
    list of str
        The independent checker's problems (empty: a valid board).

    Examples
    --------
    >>> from cpwords.grid.rules import cut_words
    >>> b = Board("tiny", ("s", "t"), ("p",), (("p", "s"), ("p", "t")))
    >>> tokens = cut_words(["bean", "beer", "dean", "deer"], 2, 2)
    >>> check_grid(b, tokens, {"p": "be", "s": "an", "t": "er"})
    []
    """
    t = tokens
    return grid_problems(board, dict(fill), t.words, t.suffix_length, t.min_prefix)


def grid_check_row(game: GridGame, fill: Mapping[str, str], problems: Sequence[str]) -> dict:
    """The ``--check --json`` row: valid, the problems, the board and its words.

    Parameters
    ----------
    game : GridGame
    fill : mapping slot -> token
        The board checked.
    problems : sequence of str
        :func:`check_grid`'s answer.

    Returns
    -------
    dict
        :func:`~cpwords.core.rows.check_row`, then :meth:`GridGame.base_row`'s keys and
        ``words_on_board``.
    """
    words = board_words(game.board, dict(fill))
    row = game.base_row()
    return check_row(not problems, list(problems), dict(fill), None, **row, words_on_board=words)


def _quadruple_row(board: Board, suffixes: Iterable[str], fill: dict[str, str]) -> dict[str, Any]:
    """One quadruple of a JSON row: its suffixes, the board they fill and its words."""
    return {"suffixes": list(suffixes), "board": fill, "words": board_words(board, fill)}


def _conflict_row(c: GridConflict) -> dict[str, Any]:
    """The ``conflict`` of ``--solve --json``: the conflicting slots and how they were found."""
    return {
        "slots": list(c.slots),
        "placed": c.placed,
        "minimal": c.minimal,
        "solves": c.solves,
        "wall_time": c.wall_time,
        "stopped": c.stopped,
    }


def grid_solve_row(game: GridGame, done: GridCompletion) -> dict[str, Any]:
    """The ``--solve --json`` row of a :func:`~cpwords.grid.spec.complete_board` answer.

    Parameters
    ----------
    game : GridGame
    done : GridCompletion

    Returns
    -------
    dict
        The result's row (the blocklist's ``every_completion_blocked`` when only blocked
        words complete the board), ``conflict`` (an unfillable board's conflicting slots, else
        None), the completed board as the one quadruple, ``count``.
    """
    res, board, sol = done.result, game.board, done.result.solution
    base = game.base_row()
    if done.every_completion_blocked:
        base["blocklist"]["every_completion_blocked"] = True
    row = result_row(base | res.to_dict(), interrupted=bool(res.solver_info.get("interrupted")))
    row["conflict"] = None if done.conflict is None else _conflict_row(done.conflict)
    row["quadruples"] = []
    if sol:
        suffixes = [sol[s] for s in board.suffix_slots]
        row["quadruples"].append(_quadruple_row(board, suffixes, sol))
    row["count"] = len(row["quadruples"])
    return row


@dataclass(frozen=True)
class GridPuzzleCount:
    """The full boards of one puzzle (``cpwords grid --count``).

    Attributes
    ----------
    count : GridCount
        The count (a lower bound when stopped), its example board.
    suffixes : tuple of str
        The puzzle: one suffix per suffix slot.
    verified : bool, optional
        The example board passed the independent checker (None: no example).
    """

    count: GridCount
    suffixes: tuple[str, ...]
    verified: bool | None

    @property
    def status(self) -> str:
        """FEASIBLE when a board was counted (the count exact or a lower bound), INFEASIBLE
        when the finished count found none, UNKNOWN when stopped with none: never OPTIMAL."""
        return listing_status(self.count.count, self.count.complete).value


def count_grid(game: GridGame, quadruple: str, time_limit: float | None = None) -> GridPuzzleCount:
    """Count the full boards of one puzzle, its example board re-checked.

    Parameters
    ----------
    game : GridGame
    quadruple : str
        The suffixes in slot order, ``"ck,ll,nd,ss"`` (commas or spaces).
    time_limit : float, optional
        Seconds; the count stops there (or on Ctrl-C) and is then a lower bound.

    Returns
    -------
    GridPuzzleCount

    Raises
    ------
    InputError
        Wrong suffixes (:func:`~cpwords.grid.spec.grid_suffixes`).
    CheckError
        The example board fails the checker (a defect of the model, never of the input).
    """
    from cpwords.grid.models.cpsat import count_completions
    from cpwords.grid.symmetry import board_symmetry

    board, source = game.board, game.source
    sufs = grid_suffixes(quadruple, board, game.tokens, source.lang, source.fold)
    cnt = count_completions(
        board, game.tokens, sufs, symmetry=board_symmetry(board), time_limit=time_limit
    )
    verified = None
    if cnt.example is not None:
        problems = check_grid(board, game.tokens, cnt.example)
        if problems:
            raise CheckError(f"the counted example board fails the checker: {problems[0]}")
        verified = True
    return GridPuzzleCount(cnt, sufs, verified)


def grid_count_row(game: GridGame, counted: GridPuzzleCount) -> dict[str, Any]:
    """The ``--count --json`` row: the count as a result (objective: the boards).

    Parameters
    ----------
    game : GridGame
    counted : GridPuzzleCount

    Returns
    -------
    dict
        The result's keys (bound and gap 0 when the count is exact and not zero), then
        ``complete``, ``stopped``, ``suffixes``, ``count``, ``count_up_to_symmetry``,
        ``unique``, ``quadruples`` (the example board).
    """
    cnt, sufs = counted.count, counted.suffixes
    qs = [] if cnt.example is None else [_quadruple_row(game.board, sufs, cnt.example)]
    n = float(cnt.count)
    exact = cnt.complete and cnt.count > 0
    return result_row(
        game.base_row(),
        status=counted.status,
        objective=n if cnt.count else None,
        bound=n if exact else None,
        gap=0.0 if exact else None,
        method=cnt.method,
        wall_time=cnt.wall_time,
        solution=cnt.example,
        verified=counted.verified,
        counts={"boards": cnt.count, "boards_up_to_symmetry": cnt.count_up_to_symmetry},
        interrupted=cnt.stopped == "interrupted",
        complete=cnt.complete,
        stopped=cnt.stopped,
        suffixes=list(sufs),
        count=cnt.count,
        count_up_to_symmetry=cnt.count_up_to_symmetry,
        unique=cnt.unique,
        quadruples=qs,
    )


def list_grid(
    game: GridGame,
    time_limit: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> SolveResult:
    """Every suffix quadruple that admits a full board, with an example board each.

    Parameters
    ----------
    game : GridGame
        One quadruple per symmetry class when ``game.break_symmetry``.
    time_limit : float, optional
        Seconds; what was listed by then is kept (``complete`` False).
    on_progress : callable ``(nodes, found)``, optional
        The enumeration's progress.

    Returns
    -------
    SolveResult
        The ``matching`` method's listing (its solution a
        :class:`~cpwords.grid.rules.GridEnumeration`), re-checked: FEASIBLE when it found
        something, INFEASIBLE when it finished with nothing, UNKNOWN when stopped with nothing.
    """
    from cpwords.core.spec import solve
    from cpwords.grid.spec import SPEC, GridCase

    case = GridCase(game.board, game.tokens, game.break_symmetry, game.symmetry)
    return solve(SPEC, case, "matching", time_limit=time_limit, on_progress=on_progress)


def grid_list_row(game: GridGame, res: SolveResult, limit: int | None = None) -> dict[str, Any]:
    """The listing's ``--json`` row (objective: the quadruples).

    Parameters
    ----------
    game : GridGame
    res : SolveResult
        :func:`list_grid`'s answer.
    limit : int, optional
        The most quadruples listed (None: all).

    Returns
    -------
    dict
        The result's keys, then ``complete``, ``stopped``, ``orbit_size``, ``count``,
        ``stats`` and ``quadruples`` (each: suffixes, board, words).
    """
    e: GridEnumeration = res.solution
    n = float(e.count)
    return result_row(
        game.base_row(),
        status=res.status.value,
        objective=n if e.count else None,
        bound=n if e.complete and e.count else None,
        gap=0.0 if e.complete and e.count else None,
        method=res.method,
        verified=res.verified,
        wall_time=e.wall_time,
        solution=[list(q.suffixes) for q in e.quadruples[:limit]],
        counts={"quadruples": e.count},
        interrupted=e.stopped == "interrupted",
        complete=e.complete,
        stopped=e.stopped,
        orbit_size=e.orbit_size,
        count=e.count,
        stats=e.stats,
        quadruples=[q.to_dict(game.board) for q in e.quadruples[:limit]],
    )


def grid_unique_row(
    game: GridGame,
    u: UniqueGridPuzzles,
    count_limit: int | None = None,
    limit: int | None = None,
) -> dict[str, Any]:
    """The ``--unique --json`` row: the unique puzzles as a result, the other classes' counts.

    Parameters
    ----------
    game : GridGame
    u : UniqueGridPuzzles
        :func:`~cpwords.grid.spec.unique_grid_puzzles`'s answer on ``game``.
    count_limit : int, optional
        The count limit it was given (reported).
    limit : int, optional
        The most puzzles and other classes listed (None: all).

    Returns
    -------
    dict
        The result's keys, then ``complete``, ``stopped``, ``orbit_size``, ``classes``,
        ``unique_count``, ``count_limit``, ``wall_time``, ``stats``, ``quadruples`` and
        ``others``; the blocklist says how many designs it ``withheld``.
    """
    d, uniq = u.design, u.unique
    base = game.base_row()
    if game.block:  # unique on the whole lexicon, but not to be printed
        base["blocklist"] = {"source": game.block.source, "withheld": u.withheld}
    n = float(len(uniq))
    exact = d.complete and bool(uniq)
    row = result_row(
        base,
        status=u.status,
        objective=n if uniq else None,
        bound=n if exact else None,
        gap=0.0 if exact else None,
        method="grid-design",
        solution=[list(p.suffixes) for p in uniq[:limit]],
        counts={"classes": len(d.puzzles), "unique": len(uniq)},
        verified=True if uniq else None,  # re-solved independently, else CheckError
        interrupted=d.stopped == "interrupted",
    )
    others = [
        {
            "suffixes": list(p.suffixes),
            "count": p.count_up_to_symmetry,
            "count_exact": p.count_exact,
        }
        for p in u.others[:limit]
    ]
    row |= {
        "complete": d.complete,
        "stopped": d.stopped,
        "orbit_size": d.orbit_size,
        "classes": len(d.puzzles),
        "unique_count": len(uniq),
        "count_limit": count_limit,
        "wall_time": d.wall_time,
        "stats": {k: v for k, v in d.stats.items() if k != "counts"},
        "quadruples": [p.to_dict(game.board) for p in uniq[:limit]],
        "others": others,
    }
    return row
