"""The prefix/suffix grid's spec: enumerate every suffix class that admits a full board.

Instance tables (keys): ``top`` (tokens from the ``top`` most frequent English words),
optional ``suffix_length``, ``min_prefix``, ``plurals``, and ``board`` (a board file; default
the seed's ``okwddm``). The objective is the number of suffix classes (one per symmetry orbit)
that admit a full board. All three methods are exhaustive listings (FEASIBLE with ``complete``
when they finish, never OPTIMAL); the study compares their times (the seed's backtracking
against the matching enumeration and CP-SAT).

Below the spec, the Python API behind ``cpwords grid`` (the command parses, calls these and
prints): :class:`GridLexicon` (the tokens of a lexicon, blocked words left out),
:func:`grid_suffixes` (a puzzle's suffixes, checked against the tokens),
:func:`complete_board` (``--solve``, which falls back to the whole lexicon rather than call a
board with no unblocked completion infeasible) and :func:`unique_grid_puzzles` (``--unique``,
designs that show a blocked word withheld); :mod:`cpwords.grid.modes` reads a board's tokens
once for every mode, counts, lists and builds each mode's ``--json`` row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cpwords.core.blocklist import Blocklist
from cpwords.core.errors import CheckError, InputError
from cpwords.core.result import SolveResult, Status, listing_status
from cpwords.core.spec import MethodInfo, PuzzleSpec, call_method, no_params
from cpwords.grid.heuristics import backtrack_quadruples
from cpwords.grid.models.conflict import GridConflict, grid_conflict
from cpwords.grid.models.cpsat import cpsat_quadruples
from cpwords.grid.models.design import GridDesign, GridPuzzle, design_grid_puzzles
from cpwords.grid.models.listing import enumerate_quadruples
from cpwords.grid.rules import (
    DEFAULT_MIN_PREFIX,
    DEFAULT_SUFFIX_LENGTH,
    DEFAULT_TOP,
    Board,
    CheckerLexicon,
    GridEnumeration,
    GridQuadruple,
    GridTokens,
    board_and_tokens,
    board_words,
    common_tokens,
    cut_words,
    grid_problems,
    parse_suffixes,
    validate_cut_options,
)
from cpwords.grid.symmetry import BoardSymmetry


@dataclass(frozen=True)
class GridCase:
    """A board, its tokens, and how to list the suffix classes.

    Parameters
    ----------
    board : Board
    tokens : GridTokens
    break_symmetry : bool
        One suffix assignment per class of rotations/reflections (True) or every orientation.
    symmetry : BoardSymmetry, optional
        The board's automorphism group, when already computed (``matching`` only).
    """

    board: Board
    tokens: GridTokens
    break_symmetry: bool = True
    symmetry: BoardSymmetry | None = None


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> GridCase:
    """Build a :class:`GridCase` from one instance table."""
    return GridCase(*board_and_tokens(spec, base_dir))


def _as_result(e: GridEnumeration) -> SolveResult:
    """A listing: FEASIBLE (never OPTIMAL), complete or not (``solver_info["complete"]``);
    INFEASIBLE when it finished with nothing. The solution is the enumeration itself (also
    when empty, for its statistics; the objective is then None)."""
    n = float(e.count)
    info = {
        "group_order": e.group_order,
        "orbit_size": e.orbit_size,
        "complete": e.complete,
        "stopped": e.stopped,
        **e.stats,
    }
    return SolveResult(
        listing_status(e.count, e.complete),
        n if e.count else None,
        n if e.complete and e.count else None,
        e.wall_time,
        e,
        e.method,
        solver_info=info,
    )


def run(
    case: GridCase,
    method: str,
    *,
    seed: int,
    time_limit: float | None,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """Run one named method (see ``SPEC.methods``): the only dispatch on grid listings.

    ``matching`` takes ``on_progress`` (``(nodes, found)`` callback) and honours the time
    limit (what it listed is kept); ``unique`` (the listing of ``cpwords grid --unique``, every
    class's completions counted too) takes ``count_limit`` and honours the time limit;
    ``cpsat`` and ``backtrack`` run to the end.
    """
    if method == "matching":
        return _as_result(
            call_method(
                enumerate_quadruples,
                case.board,
                case.tokens,
                case.break_symmetry,
                params=params,
                symmetry=case.symmetry,
                time_limit=time_limit,
            )
        )
    if method == "unique":  # the listing of cpwords grid --unique: each class counted too
        d = call_method(
            design_grid_puzzles,
            case.board,
            case.tokens,
            params=params,
            symmetry=case.symmetry,
            unique_only=False,
            time_limit=time_limit,
        )
        quads = tuple(GridQuadruple(p.suffixes, p.example) for p in d.puzzles)
        stats = {k: v for k, v in d.stats.items() if k != "counts"}
        stats["unique_puzzles"] = [" ".join(p.suffixes) for p in d.unique]
        return _as_result(
            GridEnumeration(
                d.board, quads, d.group_order, d.orbit_size, d.wall_time, method, stats, d.stopped
            )
        )
    no_params("grid", params)
    if method == "cpsat":
        return _as_result(
            cpsat_quadruples(case.board, case.tokens, case.break_symmetry, workers=workers)
        )
    return _as_result(backtrack_quadruples(case.board, case.tokens, case.break_symmetry))


def problems(case: GridCase, result: SolveResult) -> list[str]:
    """Every listed class is distinct and its example board passes the grid checker."""
    quads = list(result.solution.quadruples)
    if len({q.suffixes for q in quads}) != len(quads):
        return ["a suffix class is listed twice"]
    t = case.tokens
    lex = CheckerLexicon.of(t.words)  # normalised once for every class's board
    for q in quads:
        found = grid_problems(case.board, q.example, lex, t.suffix_length, t.min_prefix)
        if found:
            return [f"class {'/'.join(q.suffixes)}: {found[0]}"]
        if tuple(q.example[v] for v in case.board.suffix_slots) != q.suffixes:
            return [f"class {'/'.join(q.suffixes)}: its example board has other suffixes"]
    return []


def objective(case: GridCase, solution: Any) -> float:
    """Suffix classes listed."""
    return float(len(solution.quadruples))


def solution_json(solution: Any) -> Any:
    """A study row's copy of a listing: each class's suffixes and example board."""
    return [{"suffixes": list(q.suffixes), "board": dict(q.example)} for q in solution.quadruples]


SPEC = PuzzleSpec(
    puzzle="grid",
    sense="max",
    default_method="matching",
    problems=problems,
    objective=objective,
    methods={
        "matching": MethodInfo("exact", description="suffix enumeration + bipartite matching"),
        "cpsat": MethodInfo("exact", description="CP-SAT re-solved with a no-good per class"),
        "backtrack": MethodInfo("exact", description="the seed's centre-out backtracking"),
        "unique": MethodInfo(
            "exact", description="matching enumeration + a completion count per class (--unique)"
        ),
    },
    make_instance=make_instance,
    run=run,
    size=lambda case: len(case.tokens.words),
    solution_json=solution_json,
    size_label="lexicon words",
    spec_keys=frozenset({"top", "suffix_length", "min_prefix", "plurals", "board", "lang", "fold"}),
    objective_label="suffix classes with a full board",
)


# ---- The Python API of ``cpwords grid`` ------------------------------------------------------


@dataclass(frozen=True)
class GridLexicon:
    """Where a grid's tokens come from: a word list, cut into prefix and suffix tokens.

    Parameters
    ----------
    top : int
        The ``top`` most common words of ``lang`` (its curated dictionary ranked by wordfreq,
        or wordfreq's list; see :func:`cpwords.core.languages.language_words`), when ``path``
        is None.
    path : str, optional
        A dictionary file or a lexicon name (``cpwords grid --dict``:
        :func:`cpwords.core.sources.read_dictionary`) instead of the ``top`` common words.
    suffix_length : int
        Letters of a suffix token (the last ``suffix_length`` letters of a word).
    min_prefix : int
        Least letters of a prefix token.
    plurals : bool
        Keep plural forms.
    lang : str
        ISO 639-1 code of the language.
    fold : bool
        Fold accents.
    proper : bool
        Keep the language dictionary's proper nouns (``--proper-nouns``).

    Examples
    --------
    >>> GridLexicon(top=500).tokens().suffix_length
    2
    """

    top: int = DEFAULT_TOP
    path: str | None = None
    suffix_length: int = DEFAULT_SUFFIX_LENGTH
    min_prefix: int = DEFAULT_MIN_PREFIX
    plurals: bool = False
    lang: str = "en"
    fold: bool = False
    proper: bool = False

    def tokens(self, block: Blocklist | None = None) -> GridTokens:
        """The tokens of the lexicon; with ``block``, its blocked words left out first.

        Parameters
        ----------
        block : Blocklist, optional
            Words to leave out (the source then says how many were).

        Returns
        -------
        GridTokens
        """
        L, P = self.suffix_length, self.min_prefix
        if self.path is None and not block:
            return common_tokens(self.top, L, P, self.plurals, self.lang, self.fold, self.proper)
        from cpwords.core.sources import read_dictionary

        if self.path is None:
            validate_cut_options(L, P)
            base = common_tokens(
                self.top, L, P, True, self.lang, self.fold, self.proper
            )  # uncut words
            words, source = list(base.words), base.source
        else:
            lex = read_dictionary(self.path, lang=self.lang, fold=self.fold, proper=self.proper)
            words, source = list(lex.words), lex.source
        if block:
            kept = [w for w in words if not block.blocks(w)]
            if len(kept) < len(words):
                source += f" less {len(words) - len(kept)} blocked words"
            words = kept
        return cut_words(words, L, P, source, self.plurals, self.lang, self.fold)


def grid_suffixes(
    text: str, board: Board, tokens: GridTokens, lang: str | None = None, fold: bool = False
) -> tuple[str, ...]:
    """A puzzle's suffix tokens in slot order, each as long as the tokens' suffixes.

    Parameters
    ----------
    text : str
        The suffixes, ``"er,al,ly,on"`` (commas or spaces).
    board : Board
    tokens : GridTokens
    lang : str, optional
    fold : bool

    Returns
    -------
    tuple of str
        One suffix per suffix slot of ``board``.

    Raises
    ------
    InputError
        Wrong number of suffixes, a suffix that is not letters, or one of another length than
        ``tokens.suffix_length`` (no board can hold it: bad input, not "no answer").
    """
    sufs = parse_suffixes(text, board, lang, fold)
    wrong = [t for t in sufs if len(t) != tokens.suffix_length]
    if wrong:
        raise InputError(
            f"suffix {wrong[0]!r} has {len(wrong[0])} letters, not the "
            f"{tokens.suffix_length} of --suffix-length"
        )
    return sufs


@dataclass(frozen=True)
class GridCompletion:
    """A completed board (``cpwords grid --solve``).

    Attributes
    ----------
    result : SolveResult
        The fill's result (see :func:`cpwords.grid.fill_spec.solve_grid`).
    tokens : GridTokens
        The tokens it was solved on (the whole lexicon when every completion is blocked).
    every_completion_blocked : bool
        Only the blocked words complete the board, and ``result`` shows one.
    conflict : GridConflict, optional
        When the board is unfillable (``result`` INFEASIBLE) and ``explain`` was asked: a
        minimal set of conflicting slots (:func:`~cpwords.grid.models.conflict.grid_conflict`).
    """

    result: SolveResult
    tokens: GridTokens
    every_completion_blocked: bool = False
    conflict: GridConflict | None = None


def complete_board(
    board: Board,
    tokens: GridTokens,
    partial: Mapping[str, str],
    lexicon: GridLexicon | GridTokens,
    block: Blocklist | None = None,
    *,
    time_left: Callable[[], float | None] = lambda: None,
    workers: int = 2,
    seed: int = 0,
    explain: bool = True,
) -> GridCompletion:
    """Complete a partial board from ``tokens`` (the lexicon less the blocked words).

    Parameters
    ----------
    board : Board
    tokens : GridTokens
        The tokens to fill from (``lexicon.tokens(block)``).
    partial : mapping slot -> token
        Tokens already placed.
    lexicon : GridLexicon or GridTokens
        Where ``tokens`` came from: its whole tokens are tried when ``tokens`` has no completion
        (or those whole tokens, already read).
    block : Blocklist, optional
        The words left out of ``tokens``.
    time_left : callable
        Seconds left for a solve (None: 60 s), asked before each solve.
    workers, seed : int
        CP-SAT search workers and random seed.
    explain : bool
        On an unfillable board, name a minimal set of conflicting slots (``conflict``).

    Returns
    -------
    GridCompletion

    Raises
    ------
    InputError
        Unknown slot in ``partial``.
    CheckError
        A completion fails the checker, or the conflict search finds the board fillable (a
        bug: the two models disagree).

    Notes
    -----
    "No completion" must stay a proof on the whole lexicon: when no completion avoids the
    blocked words, the board is solved again on every word, and a completion found then is
    returned with ``every_completion_blocked``; the conflicting slots are those of the whole
    lexicon too.
    """
    from cpwords.grid.fill_spec import solve_grid

    res = solve_grid(
        board, tokens, partial, time_limit=time_left() or 60.0, workers=workers, seed=seed
    )
    blocked = False
    if block and res.status is Status.INFEASIBLE:
        tokens = lexicon.tokens(None) if isinstance(lexicon, GridLexicon) else lexicon
        res = solve_grid(
            board, tokens, partial, time_limit=time_left() or 60.0, workers=workers, seed=seed
        )
        blocked = res.solution is not None
    if not (explain and res.status is Status.INFEASIBLE):
        return GridCompletion(res, tokens, blocked)
    conflict = grid_conflict(
        board, tokens, partial, time_limit=time_left() or 60.0, workers=workers, seed=seed
    )
    if conflict.status is Status.FEASIBLE:
        raise CheckError("the conflict search filled a board the solve proved unfillable")
    return GridCompletion(res, tokens, blocked, conflict)


@dataclass(frozen=True)
class UniqueGridPuzzles:
    """The puzzles whose full board is unique up to symmetry (``cpwords grid --unique``).

    Attributes
    ----------
    design : GridDesign
        Every puzzle class, with its completion count.
    unique : tuple of GridPuzzle
        The unique ones, less those withheld.
    others : list of GridPuzzle
        The classes with other than one completion.
    withheld : int
        Unique puzzles left out because their answer shows a blocked word.
    """

    design: GridDesign
    unique: tuple[GridPuzzle, ...]
    others: list[GridPuzzle] = field(default_factory=list)
    withheld: int = 0

    @property
    def status(self) -> str:
        """Complete: the unique puzzles are all of them (FEASIBLE; none: INFEASIBLE); stopped:
        those found in the classes counted so far (FEASIBLE, or UNKNOWN when none yet)."""
        return listing_status(len(self.unique), self.design.complete).value


def unique_grid_puzzles(
    board: Board,
    tokens: GridTokens,
    symmetry: BoardSymmetry | None = None,
    count_limit: int | None = None,
    time_limit: float | None = None,
    block: Blocklist | None = None,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> UniqueGridPuzzles:
    """Every puzzle class counted; the unique ones kept unless their answer shows a blocked word.

    Parameters
    ----------
    board : Board
    tokens : GridTokens
        The whole lexicon's tokens (uniqueness is proven on every word).
    symmetry : BoardSymmetry, optional
        The board's automorphism group, when already computed.
    count_limit : int, optional
        Stop counting a class at this many boards.
    time_limit : float, optional
        Seconds; the classes counted so far are kept.
    block : Blocklist, optional
        Withhold the unique puzzles whose answer shows one of its words.
    on_progress : callable ``(stage, done, of)``, optional
        The enumeration's and the counting's progress
        (:func:`~cpwords.grid.models.design.design_grid_puzzles`).

    Returns
    -------
    UniqueGridPuzzles
    """
    d = design_grid_puzzles(
        board,
        tokens,
        symmetry=symmetry,
        count_limit=count_limit,
        time_limit=time_limit,
        on_progress=on_progress,
    )
    uniq = d.unique
    others = [p for p in d.puzzles if not p.unique]
    if not block:
        return UniqueGridPuzzles(d, uniq, others)
    clean = [p for p in uniq if not block.any_blocked(board_words(board, p.example))]
    return UniqueGridPuzzles(d, tuple(clean), others, len(uniq) - len(clean))
