"""The prefix/suffix grid's spec: enumerate every suffix class that admits a full board.

Instance tables (keys): ``top`` (tokens from the ``top`` most frequent English words),
optional ``suffix_length``, ``min_prefix``, ``plurals``, and ``board`` (a board file; default
the seed's ``okwddm``). The objective is the number of suffix classes (one per symmetry orbit)
that admit a full board. All three methods are exhaustive listings (FEASIBLE with ``complete``
when they finish, never OPTIMAL); the study compares their times (the seed's backtracking
against the matching enumeration and CP-SAT).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cpwords.core.errors import InputError
from cpwords.core.result import SolveResult, listing_status
from cpwords.core.sources import resolve_path
from cpwords.core.spec import MethodInfo, PuzzleSpec, call_method, no_params
from cpwords.grid.heuristics import backtrack_quadruples
from cpwords.grid.models.cpsat import cpsat_quadruples
from cpwords.grid.models.design import design_grid_puzzles
from cpwords.grid.models.listing import enumerate_quadruples
from cpwords.grid.rules import (
    Board,
    CheckerLexicon,
    GridEnumeration,
    GridQuadruple,
    GridTokens,
    default_board,
    grid_problems,
    load_board,
    wordfreq_tokens,
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
    if "top" not in spec or not isinstance(spec["top"], int):
        raise InputError("a grid instance needs an integer 'top' (most frequent words)")
    keys = ("suffix_length", "min_prefix", "plurals", "lang", "fold")
    kwargs = {k: spec[k] for k in keys if k in spec}
    tokens = wordfreq_tokens(int(spec["top"]), **kwargs)
    board = (
        load_board(resolve_path(str(spec["board"]), base_dir))
        if "board" in spec
        else default_board()
    )
    return GridCase(board, tokens)


def _as_result(e: GridEnumeration) -> SolveResult:
    """A listing: FEASIBLE (never OPTIMAL), complete or not (``solver_info["complete"]``);
    INFEASIBLE when it finished with nothing. The solution is the enumeration itself (also
    when empty, for its statistics; the objective is then None)."""
    n = float(e.count)
    info = {
        "group_order": e.group_order, "orbit_size": e.orbit_size, "complete": e.complete,
        "stopped": e.stopped, **e.stats,
    }  # fmt: skip
    return SolveResult(
        listing_status(e.count, e.complete), n if e.count else None,
        n if e.complete and e.count else None, e.wall_time, e, e.method,
        solver_info=info,
    )  # fmt: skip


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
                enumerate_quadruples, case.board, case.tokens, case.break_symmetry,
                params=params, symmetry=case.symmetry, time_limit=time_limit,
            )
        )  # fmt: skip
    if method == "unique":  # the listing of cpwords grid --unique: each class counted too
        d = call_method(
            design_grid_puzzles, case.board, case.tokens, params=params, symmetry=case.symmetry,
            unique_only=False, time_limit=time_limit,
        )  # fmt: skip
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
