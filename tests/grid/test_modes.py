"""``cpwords grid``'s modes as library calls (:mod:`cpwords.grid.modes`): the command prints
the rows these functions build, key for key (issue 47, item 2: one answer everywhere)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cpwords.core.blocklist import load_blocklist
from cpwords.grid.modes import (
    check_grid,
    count_grid,
    grid_check_row,
    grid_count_row,
    grid_list_row,
    list_grid,
    load_grid,
)
from cpwords.grid.rules import load_board, parse_fill
from cpwords.grid.spec import GridLexicon
from tests.conftest import grid_example, run_cli

#: Keys that differ between two runs of the same mode (times, the solver's own statistics).
TIMED = {"wall_time", "stats", "solver_info", "trace"}


def _same(row: dict[str, Any], cli: dict[str, Any]) -> None:
    """The library's row and the command's, but for their timings."""
    assert row.keys() == cli.keys()
    mine = {k: v for k, v in json.loads(json.dumps(row)).items() if k not in TIMED}
    assert mine == {k: v for k, v in cli.items() if k not in TIMED}


def test_count_row_is_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    quadruple, _, _ = grid_example()
    game = load_grid(load_board(None), GridLexicon(5000))
    counted = count_grid(game, quadruple)
    assert counted.verified is True and counted.status == "FEASIBLE"
    code, out, _ = run_cli(["grid", "--top", "5000", "--count", quadruple, "--json"], capsys)
    assert code == 0
    _same(grid_count_row(game, counted), json.loads(out))


def test_check_row_is_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, full = grid_example()
    game = load_grid(load_board(None), GridLexicon(5000))
    fill = parse_fill(full, "the board")
    broken = dict(fill, n=fill["c"])
    for board in (fill, broken):
        problems = check_grid(game.board, game.tokens, board)
        assert bool(problems) == (board is broken)
        text = ",".join(f"{slot}={token}" for slot, token in board.items())
        code, out, _ = run_cli(["grid", "--top", "5000", "--check-text", text, "--json"], capsys)
        assert code == int(board is broken)
        _same(grid_check_row(game, board, problems), json.loads(out))


def test_list_row_is_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    game = load_grid(load_board(None), GridLexicon(5000), load_blocklist())
    res = list_grid(game)
    assert res.verified and res.solution.complete
    code, out, _ = run_cli(["grid", "--top", "5000", "--limit", "5", "--json"], capsys)
    assert code == 0
    _same(grid_list_row(game, res, 5), json.loads(out))
