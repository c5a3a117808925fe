"""Stage "min-cost flow": the assignment relaxation of the string-hub network solved cold."""

from __future__ import annotations

from cpwords.wordsnake.exact.flow_steps import cold_solve, take_iterate
from cpwords.wordsnake.exact.state import FlowState


def min_cost_flow(f: FlowState) -> None:
    """Stage "min-cost flow": the assignment relaxation solved cold (when the greedy proof did
    not settle, or at once on small networks)."""
    flows, opt = cold_solve(f, "solving the flow relaxation")
    take_iterate(f, flows, opt)
