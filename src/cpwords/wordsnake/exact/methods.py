"""The one import for every exact Wordsnake method.

The default method (``exact``/``auto``) is :func:`solve_exact`, a list of named stages run by
:mod:`~cpwords.wordsnake.exact.policy` (string-hub network, greedy assignment, greedy
proof, min-cost flow, repair, additive bound, neighbourhood search, Lagrangian relaxation,
reduced-cost fixing, proof tree, core search, certificate, checked proof). The other
formulations are re-exported here so that ``cpwords.wordsnake.exact.methods`` stays the one
import for every exact Wordsnake method.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cpwords.wordsnake.exact.policy import (
    SMALL_MAX_ARCS,
    SMALL_MAX_ITEMS,
    STAGES,
    check_memory,
    positive_arc_count_bound,
    solve_exact,
)
from cpwords.wordsnake.exact.stages.reduced_cost_fixing import CORE_MAX_PAIRS
from cpwords.wordsnake.formulations.common import (
    MIP_BACKENDS,
    MIP_MAX_ARCS,
    assignment_relaxation,
    order_to_arcs,
    score_order,
)

if TYPE_CHECKING:
    from cpwords.wordsnake.formulations.cpsat import solve_hub_cpsat, solve_naive_circuit
    from cpwords.wordsnake.formulations.mip import solve_hub_mip
    from cpwords.wordsnake.formulations.routes import solve_routes_cpsat

__all__ = [
    "CORE_MAX_PAIRS",
    "MIP_BACKENDS",
    "MIP_MAX_ARCS",
    "SMALL_MAX_ARCS",
    "SMALL_MAX_ITEMS",
    "STAGES",
    "assignment_relaxation",
    "check_memory",
    "order_to_arcs",
    "positive_arc_count_bound",
    "score_order",
    "solve_exact",
    "solve_hub_cpsat",
    "solve_hub_mip",
    "solve_naive_circuit",
    "solve_routes_cpsat",
]

#: The formulations re-exported here, imported on first use (PEP 562): CP-SAT and the MIP
#: wrapper cost 0.6 s and 100 MB at import, and the default method on a whole dictionary
#: never calls them.
_LAZY = {
    "solve_hub_cpsat": "cpwords.wordsnake.formulations.cpsat",
    "solve_naive_circuit": "cpwords.wordsnake.formulations.cpsat",
    "solve_routes_cpsat": "cpwords.wordsnake.formulations.routes",
    "solve_hub_mip": "cpwords.wordsnake.formulations.mip",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
