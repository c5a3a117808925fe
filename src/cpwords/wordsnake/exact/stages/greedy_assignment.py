"""Stage "greedy assignment": the trivial bound, then the longest-overlap-first greedy matching
(its cycles patched into the first incumbent) and, on large networks, its routing as a flow.
"""

from __future__ import annotations

import math
import time
from contextlib import nullcontext

from cpwords.wordsnake.exact.flow_steps import trivial_bound
from cpwords.wordsnake.exact.state import FlowState
from cpwords.wordsnake.primal.repair import patch_cycles
from cpwords.wordsnake.relaxation.assignment import Reoptimizer, route_support
from cpwords.wordsnake.relaxation.decode import greedy_successors
from cpwords.wordsnake.relaxation.flow import FlowJob, FlowStopped, give_back_between


def greedy_assignment(f: FlowState) -> None:
    """Stage "greedy assignment": the trivial bound, then the longest-overlap-first greedy
    (its cycles patched: the first incumbent) and, on large networks, its routing as a flow.

    The greedy and its repair may run to ``f.first_deadline`` (the end of the whole limit),
    past the flow stages' deadline: the answer is then that ordering, with the trivial bound.
    Small networks solve the first costs cold at once (inline, milliseconds); large ones first
    try to prove the greedy optimal, and start the cold solve (a child process holding a copy
    of the network) only when that fails (card: "Only where it pays").
    """
    net = f.net
    f.bound = trivial_bound(net)
    f.report("greedy assignment")
    f.cold_first = FlowJob(net, f.cost) if not f.large else None
    # The plain costs, read by no one until the greedy proof, let go while the matching and
    # its repair peak (0.26 GB of 977,555 31-mers of C. elegans).
    with f.plain_cost_released() if f.large else nullcontext():
        return _greedy_and_repair(f)


def _greedy_and_repair(f: FlowState) -> None:
    """The greedy matching, its routing as a flow and its repair (:func:`greedy_assignment`)."""
    net = f.net
    greedy = greedy_successors(net, f.first_deadline)
    interrupted = bool(greedy.extra.get("interrupted"))
    if greedy.extra.get("stopped"):
        f.info["greedy_cut"] = True  # the matching was cut short: the policy weighs the input
    late = interrupted or (f.deadline is not None and time.perf_counter() >= f.deadline)
    routed = None
    if f.large and not late:
        try:
            # Before the patch; held as its support while the patch's index peaks (977,555
            # 31-mers of C. elegans: 0.24 GB less), whole again for the greedy proof.
            routed = route_support(net, greedy)
        except KeyboardInterrupt:
            interrupted = True  # the matching is whole: its ordering is kept as below
    # Interrupted: the cycles are joined at the depot at once (no candidate search).
    patch_by = -math.inf if interrupted else f.first_deadline
    give_back_between(net)  # the matching's and routing's blocks: the index comes on top
    f.consider(patch_cycles(net, greedy, f.pair, f.index, deadline=patch_by))
    if interrupted:
        raise KeyboardInterrupt  # Ctrl-C in the matching: its ordering is kept
    if late:
        raise FlowStopped  # the first incumbent took the flow stages' time (and no more)
    f.reopt = None
    if routed is not None:  # the greedy proof lets the index go at once: not held while the
        f.drop_index()  # costs are made again (977,555 31-mers of C. elegans: 0.5 GB)
        give_back_between(net)  # the index's blocks: the flow made whole comes on top
        f.reopt = Reoptimizer(net, routed.full())
    f.info["first_bound"] = "greedy assignment" if f.reopt is not None else "min-cost flow"
