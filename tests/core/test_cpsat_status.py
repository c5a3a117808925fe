"""The one CP-SAT status translation: the table per task, MODEL_INVALID, satisfaction results."""

from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

from cpwords.core.cpsat_status import STATUS_TABLE, Task, cpsat_status, listing_complete, new_solver
from cpwords.core.errors import ModelError
from cpwords.core.result import Status, listing_status
from cpwords.grid.fill_spec import solve_grid
from cpwords.grid.rules import cut_words, default_board

CODES = (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE, cp_model.UNKNOWN)


@pytest.mark.parametrize(
    ("task", "expected"),
    [
        (Task.OPTIMISE, [Status.OPTIMAL, Status.FEASIBLE, Status.INFEASIBLE, Status.UNKNOWN]),
        (Task.SATISFY, [Status.FEASIBLE, Status.FEASIBLE, Status.INFEASIBLE, Status.UNKNOWN]),
        (Task.LIST, [Status.FEASIBLE, Status.FEASIBLE, Status.INFEASIBLE, Status.UNKNOWN]),
    ],
)
def test_status_table(task: Task, expected: list[Status]) -> None:
    model = cp_model.CpModel()
    assert [cpsat_status(c, task, model) for c in CODES] == expected
    assert set(STATUS_TABLE[task]) == set(CODES)


def test_only_an_optimisation_is_ever_optimal() -> None:
    optimal = [
        (t, c) for t, row in STATUS_TABLE.items() for c, s in row.items() if s.value == "OPTIMAL"
    ]
    assert optimal == [(Task.OPTIMISE, cp_model.OPTIMAL)]


def test_model_invalid_raises_with_the_validation_text() -> None:
    model = cp_model.CpModel()
    model.new_int_var(0, -1, "empty_domain")
    code = cp_model.CpSolver().solve(model)
    assert code == cp_model.MODEL_INVALID
    for task in Task:
        with pytest.raises(ModelError, match=r"CP-SAT rejected the toy model: .*empty_domain"):
            cpsat_status(code, task, model, "toy model")


def test_real_solves_of_each_task() -> None:
    model = cp_model.CpModel()
    x = model.new_int_var(0, 3, "x")
    solver = new_solver(10.0, workers=1, seed=0)
    assert cpsat_status(solver.solve(model), Task.SATISFY, model) is Status.FEASIBLE
    model.maximize(x)
    assert cpsat_status(solver.solve(model), Task.OPTIMISE, model) is Status.OPTIMAL
    model.add(x > 5)
    code = solver.solve(model)
    assert cpsat_status(code, Task.OPTIMISE, model) is Status.INFEASIBLE
    assert listing_complete(code) and not listing_complete(cp_model.FEASIBLE)
    assert solver.parameters.num_workers == 1 and solver.parameters.max_time_in_seconds == 10.0


def test_listing_status_is_never_optimal() -> None:
    assert {listing_status(n, c) for n in (0, 1, 5) for c in (True, False)} == {
        Status.FEASIBLE,
        Status.INFEASIBLE,
        Status.UNKNOWN,
    }


def test_a_found_grid_board_is_feasible_not_optimal() -> None:
    # a dense lexicon (every prefix with every suffix): many full boards, CP-SAT finds one
    board = default_board()
    prefixes = [f"{a}{b}" for a in "bcdfg" for b in "aeiou"][: 2 * len(board.prefix_slots)]
    suffixes = ["st", "nd", "ll", "ck", "mp", "rt", "ng", "sh"]
    tokens = cut_words([p + s for p in prefixes for s in suffixes], 2, 2, "<dense>")
    res = solve_grid(board, tokens, time_limit=30.0, workers=1)
    assert res.status is Status.FEASIBLE and res.bound is None and res.gap is None
    assert res.objective == len(board.edges) and res.verified
