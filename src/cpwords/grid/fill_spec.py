"""The grid fill's spec: complete a partially filled prefix/suffix board (a satisfaction task).

The CLI (``cpwords grid --solve FILL``), the API (:func:`solve_grid`, ``cpwords.solve``) and the
study run the ``cpsat`` method through :func:`cpwords.core.spec.solve` on a :class:`GridFill`; the
board is re-checked by :func:`~cpwords.grid.rules.grid_problems` and must keep every placed
token. A completion answers the task: FEASIBLE, never OPTIMAL.

Instance tables (keys): as for ``grid`` (``top``, ``suffix_length``, ``min_prefix``,
``plurals``, ``board``), plus ``fill`` (placed tokens, ``"s1=ck,s2=ll"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cpwords.core.result import SolveResult
from cpwords.core.spec import MethodInfo, PuzzleSpec, no_params, solve
from cpwords.grid.models.cpsat import complete_grid_cpsat
from cpwords.grid.rules import Board, GridTokens, board_and_tokens, grid_problems, parse_fill


@dataclass(frozen=True)
class GridFill:
    """A board, its tokens, and the tokens already placed (slot -> token)."""

    board: Board
    tokens: GridTokens
    partial: Mapping[str, str] = field(default_factory=dict)


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> GridFill:
    """The board, tokens and placed tokens of one instance table."""
    board, tokens = board_and_tokens(spec, base_dir)
    partial = parse_fill(str(spec["fill"]), "fill") if "fill" in spec else {}
    return GridFill(board, tokens, partial)


def run(
    fill: GridFill,
    method: str,
    *,
    seed: int,
    time_limit: float | None,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """``cpsat``: the table model of the board (see ``models/grid.md``)."""
    no_params("grid-fill", params)
    limit = 60.0 if time_limit is None else time_limit
    return complete_grid_cpsat(
        fill.board, fill.tokens, fill.partial, time_limit=limit, workers=workers, seed=seed
    )


def problems(fill: GridFill, result: SolveResult) -> list[str]:
    """Every edge spells a word of the lexicon, and every placed token is where it was put."""
    board, t = fill.board, fill.tokens
    found = grid_problems(board, result.solution, t.words, t.suffix_length, t.min_prefix)
    moved = [v for v, tok in fill.partial.items() if result.solution.get(v) != tok.lower()]
    if moved:
        found.append(f"placed tokens changed at {', '.join(sorted(moved))}")
    return found


def objective(fill: GridFill, solution: Any) -> float:
    """Words on the full board (one per edge)."""
    return float(len(fill.board.edges))


def solve_grid(
    board: Board,
    tokens: GridTokens,
    partial: Mapping[str, str] | None = None,
    time_limit: float = 60.0,
    workers: int = 2,
    seed: int = 0,
) -> SolveResult:
    """Complete a (partially filled) board, verified.

    This is :func:`cpwords.core.spec.solve` for ``"grid-fill"`` with the ``cpsat`` method
    (:func:`cpwords.grid.models.cpsat.complete_grid_cpsat`).

    Parameters
    ----------
    board : Board
    tokens : GridTokens
    partial : mapping slot -> token, optional
        Tokens already placed (case does not matter).
    time_limit : float
        Seconds for the whole call.
    workers, seed : int
        CP-SAT search workers and random seed.

    Returns
    -------
    SolveResult
        ``solution`` the filled board (slot -> token) or None; FEASIBLE when a board was found
        (a satisfaction task is never OPTIMAL), INFEASIBLE when no completion exists, UNKNOWN
        at the time limit. ``verified`` is True once the board passed the checker.

    Raises
    ------
    InputError
        Unknown slot in ``partial``.
    CheckError
        The board fails the independent checker (a bug).
    """
    placed = {v: tok.lower() for v, tok in (partial or {}).items()}
    return solve(
        SPEC,
        GridFill(board, tokens, placed),
        "cpsat",
        time_limit=time_limit,
        workers=workers,
        seed=seed,
    )


SPEC = PuzzleSpec(
    puzzle="grid-fill",
    sense="max",
    methods={"cpsat": MethodInfo("exact", description="CP-SAT table model of the board")},
    default_method="cpsat",
    make_instance=make_instance,
    run=run,
    problems=problems,
    objective=objective,
    size=lambda fill: len(fill.tokens.words),
    size_label="lexicon words",
    spec_keys=frozenset({"top", "suffix_length", "min_prefix", "plurals", "board", "fill"}),
    objective_label="words on the board",
)
