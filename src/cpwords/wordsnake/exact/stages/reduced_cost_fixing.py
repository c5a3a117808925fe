"""Stage "reduced-cost fixing": the word pairs an ordering scoring above the incumbent may use,
against the best dual iterate (card: "Reduced-cost fixing and the core search").
"""

from __future__ import annotations

from cpwords.wordsnake.exact.state import ProofState

#: Reduced-cost fixing hands the core to the exact search when it keeps at most this many word
#: pairs, and stops collecting beyond it (the hard lists measured keep 8,000 to 20,000 of
#: 500,000 to 640,000; ab n = 30,000 keeps 398,184, seed 3 702,841: the stage "bound descent"
#: takes a core too large).
CORE_MAX_PAIRS = 400_000


def reduced_cost_fixing(state: ProofState) -> None:
    """Stage "reduced-cost fixing": keep the word pairs whose reduced cost against the best
    dual iterate leaves room above the incumbent (past ``CORE_MAX_PAIRS``, no core: the log
    says ``too_large`` and the stage "bound descent" takes the time left)."""
    # The closure's modules load when a gap is left (not on a list the greedy proof settles).
    from cpwords.wordsnake.closure.core import CoreTooLarge, reduced_core

    assert state.out is not None and state.out.dual is not None and state.net is not None
    log = state.stages[-1]
    state.report(state.elapsed(), state.objective, state.bound, "reduced-cost fixing")
    try:
        core = reduced_core(
            state.net,
            state.out.dual,
            int(state.objective),
            state.deadline,
            max_pairs=CORE_MAX_PAIRS,
        )
    except CoreTooLarge:
        log["too_large"] = True
        return
    log["pairs"] = core.num_pairs
    state.core_pairs = core.num_pairs
    log["budget"] = core.budget / core.scale
    state.core = core
