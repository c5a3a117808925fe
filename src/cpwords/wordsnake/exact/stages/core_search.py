"""Stage "core search": an exact search of the joints reduced-cost fixing kept
(:mod:`~cpwords.wordsnake.exact.stages.reduced_cost_fixing`).

The card's section "Reduced-cost fixing and the core search" (``models/wordsnake.md``) gives the
argument (a proof that nothing in the core beats the incumbent is a proof for the whole list)
and the measurements.
"""

from __future__ import annotations

import time
from typing import Any

from cpwords.wordsnake.exact.state import ProofState


def solve_core(*args: Any, **kwargs: Any) -> Any:
    """:func:`cpwords.wordsnake.closure.core.solve_core`, its module imported when a gap is left
    (a list the greedy proof settles never loads the closure)."""
    from cpwords.wordsnake.closure.core import solve_core as solve

    return solve(*args, **kwargs)


def solve_core_mip(*args: Any, **kwargs: Any) -> Any:
    """:func:`cpwords.wordsnake.closure.core_mip.solve_core_mip`, imported when a gap is left."""
    from cpwords.wordsnake.closure.core_mip import solve_core_mip as solve

    return solve(*args, **kwargs)


def search_wanted(state: ProofState) -> bool:
    """When the flow stages left a gap, were not interrupted, gave a dual, and time is left."""
    out, remaining = state.out, state.remaining()
    return (
        not (state.proven or state.interrupted)
        and out is not None
        and out.dual is not None
        and (remaining is None or remaining > 0.05)
    )


def core_search_wanted(state: ProofState) -> bool:
    """Whether the stage "core search" runs: :func:`search_wanted`, on a core reduced-cost
    fixing left (none when too large for the search: the stage "bound descent" takes that gap).

    Parameters
    ----------
    state : ProofState
        After reduced-cost fixing and the stage "proof tree".

    Returns
    -------
    bool
    """
    return state.core is not None and search_wanted(state)


def core_search(state: ProofState) -> None:
    """Stage "core search": HiGHS branch-and-cut (``core_search="mip"``) or CP-SAT's routes
    constraint (``"cpsat"``) over the core, with the incumbent's score to beat."""
    assert state.net is not None and state.core is not None
    state.report(state.elapsed(), state.objective, state.bound, "searching the core")
    seconds = state.remaining()
    opts = state.options

    def core_progress(_t: float, inc: float | None, _b: float | None) -> None:
        better = state.objective if inc is None else max(state.objective, inc)
        state.on_progress(state.elapsed(), better, state.bound, "searching the core")

    if opts["core_search"] == "cpsat":
        found = solve_core(
            state.net,
            state.core,
            time_limit=seconds,
            workers=opts["workers"],
            seed=opts["seed"],
            progress=core_progress,
        )
    else:
        found = solve_core_mip(state.net, state.core, time_limit=seconds, progress=core_progress)
    state.stages[-1]["arcs"] = found.arcs
    if found.error is not None:  # the search's process died: the incumbent and bound stand
        state.stages[-1]["error"] = found.error
    state.interrupted = state.interrupted or found.interrupted
    better = found.objective is not None and found.objective > state.objective
    if better and found.order is not None and found.objective is not None:
        state.order = [state.instance.words[i] for i in found.order]
        state.objective = float(found.objective)
    if found.proven:
        state.bound = state.objective  # nothing in the core beats it: optimal
        state.proven = True
    elif found.bound is not None and state.bound is not None:
        state.bound = min(state.bound, max(float(found.bound), state.objective))
    state.on_progress(state.elapsed(), state.objective, state.bound, "searching the core")


def search_log_start(state: ProofState) -> float:
    """Open the core stages' log entry; returns their start time."""
    state.stages.append({"stage": "core"})
    return time.perf_counter()
