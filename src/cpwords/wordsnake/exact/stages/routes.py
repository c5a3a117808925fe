"""Stage "routes": CP-SAT's routes model takes over a small list whose core was too large.

Card: ``models/wordsnake.md``, "The default `exact` method", step 3.
"""

from __future__ import annotations

from cpwords.wordsnake.exact.state import ProofState
from cpwords.wordsnake.rules import WordsnakeInstance

#: Above this many positive-overlap arcs the routes model is not tried (its model alone is
#: then larger than the letter-hub MIP by two orders of magnitude).
ROUTES_MAX_ARCS = 400_000

#: When the string-hub flow leaves a gap, lists of at most this many items (and at most
#: ``ROUTES_MAX_ARCS`` positive arcs) go on to the routes model; larger ones end FEASIBLE with
#: the Lagrangian bound.
FALLBACK_MAX_ITEMS = 20_000


def positive_arc_count_bound(instance: WordsnakeInstance) -> int:
    """Upper bound on the number of positive-overlap arcs: pairs with last(a) == first(b).

    Parameters
    ----------
    instance : WordsnakeInstance

    Returns
    -------
    int
        The sum over letters ``c`` of (words ending in ``c``) x (words starting with ``c``);
        O(n) from the first- and last-letter histograms.
    """
    shortest = 2 if instance.proper else 1
    ends: dict[str, int] = {}
    starts: dict[str, int] = {}
    for w in instance.words:
        if len(w) >= shortest:
            ends[w[-1]] = ends.get(w[-1], 0) + 1
            starts[w[0]] = starts.get(w[0], 0) + 1
    return sum(c * starts.get(k, 0) for k, c in ends.items())


def routes_fallback(instance: WordsnakeInstance) -> bool:
    """Whether the routes model may take over this list (small enough)."""
    return (
        instance.n <= FALLBACK_MAX_ITEMS and positive_arc_count_bound(instance) <= ROUTES_MAX_ARCS
    )


def routes_wanted(state: ProofState) -> bool:
    """When a gap is left on a small list, uninterrupted, with time left."""
    remaining = state.remaining()
    return not (
        state.proven
        or state.interrupted
        or not state.fallback
        or (remaining is not None and remaining <= 0.05)
    )


def routes(state: ProofState) -> None:
    """Stage "routes": :func:`~cpwords.wordsnake.formulations.routes.solve_routes_cpsat` with the
    rest of the time, hinted with the incumbent; its bound and ordering are taken when better.
    """
    from cpwords.wordsnake.formulations.routes import solve_routes_cpsat

    # The first import of CP-SAT (with pandas) took seconds on a loaded machine: the time left
    # is read after it (a negative limit stopped a whole solve with an error, issue 31's runs).
    seconds = state.remaining()
    if seconds is not None and seconds <= 0.05:
        return
    opts = state.options
    try:
        second = solve_routes_cpsat(
            state.instance,
            time_limit=seconds,
            workers=opts["workers"],
            seed=opts["seed"],
            hint=state.order,
            progress=opts["progress"],
        )
    except KeyboardInterrupt:
        state.interrupted = True
        state.proven, state.method = False, "exact/flow"
        return
    state.stages.append(
        {"stage": "routes", "status": second.status.value, "wall_time": second.wall_time}
    )
    state.core_pairs = positive_arc_count_bound(state.instance)
    if second.solver_info.get("interrupted"):
        state.interrupted = True
    if second.objective is not None and second.objective > state.objective:
        state.order, state.objective = list(second.solution), float(second.objective)
    if second.bound is not None:
        state.bound = second.bound if state.bound is None else min(state.bound, second.bound)
    state.proven = second.is_optimal or (state.bound is not None and state.objective >= state.bound)
    state.info["routes"] = dict(second.solver_info)
    state.method = "exact/routes"
    state.trace.extend(second.trace)
