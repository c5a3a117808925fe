"""Telling a CP-SAT solve stopped by Ctrl-C from one stopped by its time limit.

CP-SAT catches SIGINT itself (``catch_sigint_signal``, on by default) and ends the search
gracefully, returning its best solution as if a limit had been reached; Python never sees a
KeyboardInterrupt. The only limit cpwords sets is the time limit, so a FEASIBLE or UNKNOWN
answer returned clearly before that limit means the user interrupted the solve.
"""

from __future__ import annotations

from typing import Any

#: Seconds before the time limit after which an early stop still counts as the limit.
SLACK = 0.25


def interrupted(solver: Any, code: Any) -> bool:
    """Whether a finished ``CpSolver.solve`` returning ``code`` was stopped by Ctrl-C."""
    from ortools.sat.python import cp_model

    if code not in (cp_model.FEASIBLE, cp_model.UNKNOWN):
        return False
    limit = float(solver.parameters.max_time_in_seconds)
    return float(solver.wall_time) < limit - SLACK
