"""Invariants of the shared result type."""

import json
from typing import Any

import pytest

from cpwords.core.result import SolveResult, Status


def test_gap_is_cpsat_definition() -> None:
    r = SolveResult(Status.FEASIBLE, 90.0, 100.0, 1.0, [], "m")
    assert r.gap == pytest.approx(10 / 90)
    assert SolveResult(Status.FEASIBLE, 0.0, 0.5, 1.0, [], "m").gap == pytest.approx(0.5)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"status": Status.OPTIMAL, "objective": 5.0, "bound": 6.0},  # OPTIMAL with a gap
        {"status": Status.OPTIMAL, "objective": None, "bound": None},  # OPTIMAL, no solution
        {"status": Status.FEASIBLE, "objective": 5.0, "bound": 4.0},  # bound below a max objective
    ],
)
def test_invariants_refuse_false_claims(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        SolveResult(wall_time=0.1, solution=None, method="m", **kwargs)


def test_min_sense_bound_side() -> None:
    with pytest.raises(ValueError):
        SolveResult(Status.FEASIBLE, 3.0, 4.0, 0.0, [], "m", sense="min")
    assert SolveResult(Status.FEASIBLE, 3.0, 2.0, 0.0, [], "m", sense="min").gap == pytest.approx(
        1 / 3
    )


def test_to_dict_is_json() -> None:
    r = SolveResult(Status.OPTIMAL, 10.0, 10.0, 0.25, ["a", "b"], "m", verified=True)
    row = json.loads(r.to_json())
    assert row["status"] == "OPTIMAL" and row["gap"] == 0 and row["solution"] == ["a", "b"]
    assert "verified" in r.summary()


def test_a_gap_that_is_not_zero_never_prints_as_zero() -> None:
    # Issue 23, item 9: 9,772,166 against a bound of 9,772,190 printed "gap 0.00%".
    from cpwords.core.result import SolveResult, Status, format_gap

    res = SolveResult(Status.FEASIBLE, 9772166.0, 9772190.0, 60.0, [], "auto")
    assert "0.00%" not in res.summary() and "0.00025%" in res.summary()
    assert format_gap(0.0) == "0.00%" and format_gap(0.5) == "50.00%"
    assert format_gap(1e-12) != "0.00%"


def test_whole_objectives_and_bounds_are_json_integers_as_in_the_checking_modes() -> None:
    r = SolveResult(Status.OPTIMAL, 30.0, 30.0, 0.1, solution=None, method="m")
    row = json.loads(r.to_json())
    assert type(row["objective"]) is int and type(row["bound"]) is int and row["objective"] == 30
    half = SolveResult(Status.FEASIBLE, 2.5, 3.0, 0.1, solution=None, method="m")
    assert json.loads(half.to_json())["objective"] == 2.5
