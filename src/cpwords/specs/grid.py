"""The prefix/suffix grid's spec: enumerate every suffix class that admits a full board.

Instance tables (keys): ``top`` (tokens from the ``top`` most frequent English words),
optional ``suffix_length``, ``min_prefix``, ``plurals``, and ``board`` (a board file; default
the seed's ``okwddm``). The objective is the number of suffix classes (one per symmetry orbit)
that admit a full board. All three methods are exhaustive, so each proves the count; the study
compares their times (the seed's backtracking against the matching enumeration and CP-SAT).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..heuristics.grid import backtrack_quadruples
from ..models.grid import cpsat_quadruples
from ..models.grid_enum import enumerate_quadruples
from ..puzzles.grid import (
    Board,
    GridEnumeration,
    GridTokens,
    default_board,
    grid_problems,
    load_board,
    wordfreq_tokens,
)
from ..result import SolveResult, Status
from ..spec import MethodInfo, PuzzleSpec, no_params
from .sources import resolve_path


@dataclass(frozen=True)
class GridCase:
    """A board and its tokens."""

    board: Board
    tokens: GridTokens


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> GridCase:
    """Build a :class:`GridCase` from one instance table."""
    if "top" not in spec or not isinstance(spec["top"], int):
        raise InputError("a grid instance needs an integer 'top' (most frequent words)")
    kwargs = {k: spec[k] for k in ("suffix_length", "min_prefix", "plurals") if k in spec}
    tokens = wordfreq_tokens(int(spec["top"]), **kwargs)
    board = (
        load_board(resolve_path(str(spec["board"]), base_dir))
        if "board" in spec
        else default_board()
    )
    return GridCase(board, tokens)


def _as_result(e: GridEnumeration) -> SolveResult:
    n = float(e.count)
    # The raw example boards, so the checker (not a KeyError) judges an incomplete one.
    sol = [{"suffixes": list(q.suffixes), "board": dict(q.example)} for q in e.quadruples]
    info = {"group_order": e.group_order, "orbit_size": e.orbit_size, **e.stats}
    return SolveResult(Status.OPTIMAL, n, n, e.wall_time, sol, e.method, solver_info=info)


def run(
    case: GridCase,
    method: str,
    *,
    seed: int,
    time_limit: float | None,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """``matching``, ``cpsat`` or ``backtrack`` (see the module docstring)."""
    no_params("grid", params)
    if method == "matching":
        return _as_result(enumerate_quadruples(case.board, case.tokens))
    if method == "cpsat":
        return _as_result(cpsat_quadruples(case.board, case.tokens, workers=workers))
    return _as_result(backtrack_quadruples(case.board, case.tokens))


def problems(case: GridCase, result: SolveResult) -> list[str]:
    """Every listed class is distinct and its example board passes the grid checker."""
    sols = list(result.solution)
    if len({tuple(q["suffixes"]) for q in sols}) != len(sols):
        return ["a suffix class is listed twice"]
    t = case.tokens
    for q in sols:
        found = grid_problems(case.board, q["board"], t.words, t.suffix_length, t.min_prefix)
        if found:
            return [f"class {'/'.join(q['suffixes'])}: {found[0]}"]
    return []


def objective(case: GridCase, solution: Any) -> float:
    """Suffix classes listed."""
    return float(len(list(solution)))


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
    },
    make_instance=make_instance,
    run=run,
    size=lambda case: len(case.tokens.words),
    size_label="lexicon words",
    spec_keys=frozenset({"top", "suffix_length", "min_prefix", "plurals", "board"}),
    objective_label="suffix classes with a full board",
)
