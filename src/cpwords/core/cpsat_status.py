"""One translation of CP-SAT's answer into a :class:`~cpwords.core.result.Status`.

CP-SAT says OPTIMAL both when it proved an objective optimal and when it merely found a solution
of a model without an objective, and, when enumerating all solutions, when the list is complete.
Only the first is a proof of optimality, so the translation depends on the task
(one table per task, as CPMpy keeps one table per backend):

============  ===========  ============  ==========  ============
CP-SAT        OPTIMISE     SATISFY       LIST        (meaning)
============  ===========  ============  ==========  ============
OPTIMAL       OPTIMAL      FEASIBLE      FEASIBLE    search finished with a solution
FEASIBLE      FEASIBLE     FEASIBLE      FEASIBLE    a solution, search stopped by a limit
INFEASIBLE    INFEASIBLE   INFEASIBLE    INFEASIBLE  proven: no solution
UNKNOWN       UNKNOWN      UNKNOWN       UNKNOWN     stopped by a limit before any solution
============  ===========  ============  ==========  ============

``MODEL_INVALID`` is a bug in cpwords, never an answer: it raises :class:`ModelError` with the
model's own validation text. Whether a listing is complete is :func:`listing_complete`.
"""

from __future__ import annotations

import enum
from typing import Any

from ortools.sat.python import cp_model

from cpwords.core.errors import ModelError
from cpwords.core.result import Status

__all__ = ["Task", "cpsat_status", "listing_complete", "new_solver"]


class Task(enum.Enum):
    """What a CP-SAT solve is asked for: the best solution, any solution, or all solutions."""

    OPTIMISE = "optimise"
    SATISFY = "satisfy"
    LIST = "list"


_COMMON = {
    cp_model.FEASIBLE: Status.FEASIBLE,
    cp_model.INFEASIBLE: Status.INFEASIBLE,
    cp_model.UNKNOWN: Status.UNKNOWN,
}

#: CP-SAT status -> cpwords status, per task (see the module docstring).
STATUS_TABLE: dict[Task, dict[Any, Status]] = {
    Task.OPTIMISE: {cp_model.OPTIMAL: Status.OPTIMAL, **_COMMON},
    Task.SATISFY: {cp_model.OPTIMAL: Status.FEASIBLE, **_COMMON},
    Task.LIST: {cp_model.OPTIMAL: Status.FEASIBLE, **_COMMON},
}


def cpsat_status(code: Any, task: Task, model: cp_model.CpModel, what: str = "model") -> Status:
    """Translate the status ``code`` that ``CpSolver.solve(model)`` returned.

    Parameters
    ----------
    code : CpSolverStatus
        What ``CpSolver.solve`` returned.
    task : Task
        OPTIMISE when the model has an objective; SATISFY when any solution answers;
        LIST when CP-SAT enumerates all solutions.
    model : CpModel
        The solved model, validated again for the error message on ``MODEL_INVALID``.
    what : str
        Name of the model in that message.

    Returns
    -------
    Status
        OPTIMAL only for a proven optimum of an OPTIMISE task.

    Raises
    ------
    ModelError
        When CP-SAT rejected the model (``MODEL_INVALID``), with its validation text.

    Examples
    --------
    >>> m = cp_model.CpModel()
    >>> x = m.new_int_var(0, 3, "x")
    >>> code = cp_model.CpSolver().solve(m)
    >>> cpsat_status(code, Task.SATISFY, m), cpsat_status(code, Task.OPTIMISE, m)
    (<Status.FEASIBLE: 'FEASIBLE'>, <Status.OPTIMAL: 'OPTIMAL'>)
    """
    if code == cp_model.MODEL_INVALID:
        raise ModelError(f"CP-SAT rejected the {what}: {model.validate() or 'no reason given'}")
    try:
        return STATUS_TABLE[task][code]
    except KeyError:
        raise ModelError(f"unexpected CP-SAT status {code!r} for the {what}") from None


def listing_complete(code: Any) -> bool:
    """Whether an enumeration of all solutions that returned ``code`` found every solution."""
    return code in (cp_model.OPTIMAL, cp_model.INFEASIBLE)


def new_solver(
    time_limit: float | None = None, workers: int = 1, seed: int | None = None
) -> cp_model.CpSolver:
    """A ``CpSolver`` with a time limit (seconds, at least 0.01), workers and random seed.

    Parameters
    ----------
    time_limit : float, optional
        Seconds; None for no limit.
    workers : int
        ``num_workers`` (search workers).
    seed : int, optional
        ``random_seed``; None keeps CP-SAT's default.
    """
    solver = cp_model.CpSolver()
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(0.01, time_limit)
    solver.parameters.num_workers = workers
    if seed is not None:
        solver.parameters.random_seed = seed
    return solver
