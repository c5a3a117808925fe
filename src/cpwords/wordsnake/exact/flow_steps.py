"""Stages 2-5 of the default method: the greedy assignment, its proof, the flow, the repair.

The card's sections "The first bound without a flow solve" and "Repair and bound when the
support is disconnected" (``models/wordsnake.md``) give the measurements behind each step. Every
flow iterate (this module's and the Lagrangian's) goes through :func:`take_iterate` (its bound
and dual) and :func:`decode_and_repair` (its ordering).
"""

from __future__ import annotations

import time

import numpy as np

from cpwords.wordsnake.exact.state import FlowDual, FlowState
from cpwords.wordsnake.primal.patching import MIN_CYCLES, patch_pairwise
from cpwords.wordsnake.primal.repair import patch_cycles
from cpwords.wordsnake.relaxation.decode import decode_flow
from cpwords.wordsnake.relaxation.flow import FlowJob, give_back_between
from cpwords.wordsnake.relaxation.sparse_flow import SparseFlow, flow_support
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork
from cpwords.wordsnake.rules import WordsnakeInstance


def length_bound(instance: WordsnakeInstance) -> int:
    """An upper bound known from the words' lengths alone, before any network is built.

    Parameters
    ----------
    instance : WordsnakeInstance

    Returns
    -------
    int
        ``sum over words of (len(a) - p)**2`` (of ``len(a) - p`` with the linear score), less
        the smallest term for a linear snake (``p`` = 1 with proper overlaps, else 0): a joint
        ``a -> b`` overlaps at most ``len(a) - p`` letters, and a linear snake has one joint
        fewer than words. O(words).

    Examples
    --------
    >>> length_bound(WordsnakeInstance(("run", "nausea", "seasick")))
    85
    """
    p = 1 if instance.proper else 0
    terms = [instance.weight(max(len(w) - p, 0)) for w in instance.words]
    return sum(terms) - (0 if instance.cyclic else min(terms))


def trivial_bound(net: StringHubNetwork) -> int:
    """An upper bound computed from the network alone, before any flow.

    Parameters
    ----------
    net : StringHubNetwork

    Returns
    -------
    int
        ``sum over items of u(a) - (min over items of u(a) for a linear snake)``, with ``u(a)``
        the heaviest weight of an arc leaving ``a``'s exit: every joint ``a -> b`` scores at most
        ``u(a)`` (its route starts with one of those arcs), and a linear snake has one joint
        fewer than items. O(arcs).
    """
    W = net.num_words
    out_base = net.out_base
    is_out = (net.tail >= out_base) & (net.tail < out_base + W)
    best = np.zeros(W, dtype=np.int64)
    # The values in the array's own type: NumPy's fast loop (int32 weights into int64 take
    # its generic loop, 8 times slower on ENABLE).
    np.maximum.at(best, net.tail[is_out] - out_base, net.weight[is_out].astype(np.int64))
    total = int((best * net.mult).sum())
    if not net.instance.cyclic:
        total -= int(best.min())
    return total


def cold_solve(f: FlowState, stage: str) -> tuple[np.ndarray, int]:
    """The optimal flow for ``f.cost``, solved cold (in a child process on large networks).

    Returns
    -------
    (numpy.ndarray of int64, int)
        The flow, shape ``(m,)``, and its cost.
    """
    f.cold_solves += 1
    f.settled = None
    f.report(stage)
    f.job, f.cold_first = f.cold_first or FlowJob(f.net, f.cost), None
    try:
        return f.job.result(f.deadline)
    finally:
        f.job.close()


def flow_cost(cost: np.ndarray, flows: np.ndarray | SparseFlow) -> int:
    """The cost of a flow, ``sum of cost * flows``, in 64 bits over the arcs that carry flow.

    Parameters
    ----------
    cost : numpy.ndarray of int, shape (m,)
    flows : numpy.ndarray of int, or SparseFlow, shape (m,)
        Unit costs and flows (int32 each: their products, up to a weight times the items, may
        not fit in 32 bits, so they are taken in 64).

    Returns
    -------
    int
    """
    sup, units = flow_support(flows)
    return int(np.dot(cost[sup].astype(np.int64), units.astype(np.int64)))


def take_iterate(f: FlowState, flows: np.ndarray | SparseFlow, opt: int) -> None:
    """Read an iterate's bound (its Lagrangian value, floored), keep the best dual iterate, and
    end the flow stages when the incumbent meets the bound."""
    penalty = round(sum(f.scale * x for x in f.lam))  # multipliers are integral/SCALE
    value_scaled = -opt - penalty
    this_bound = value_scaled // f.scale
    if f.it == 0:
        f.info["flow_bound"] = this_bound
        f.info["flow_time"] = time.perf_counter() - f.t0
    f.stall = 0 if f.bound is None or this_bound < f.bound else f.stall + 1
    dual = f.dual
    if dual is None or value_scaled * dual.scale < dual.value_scaled * f.scale:
        units = [round(x * f.scale) for x in f.lam]
        f.dual = FlowDual(f.cost, flows, value_scaled, f.scale, list(f.cut_words), units, f.settled)
    f.bound = this_bound if f.bound is None else min(f.bound, this_bound)
    f.flows = flows
    f.value_scaled = value_scaled
    if f.proven:
        f.ended = True  # the incumbent meets the bound: no need to decode this flow


def decode_and_repair(f: FlowState, record: bool = True) -> None:
    """Decode ``f.flows`` into a cycle cover merged at its hubs, patch its cycles into one
    ordering and keep it if it scores more (``record``: report the first iterate's cycles)."""
    assert f.flows is not None
    net = f.net
    dec = decode_flow(net, f.flows, f.deadline)
    f.decoded = dec
    comps = record_components(f) if record else components(f)
    f.report("repairing" if comps > 1 else "reading the certificate")
    # Two cycles or more beside the depot's: joined to one another first, they may lose less
    # (a telomere's tandem repeats); the successors kept, as patch_cycles writes to them.
    succ = dec.succ.copy() if comps - 1 >= MIN_CYCLES else None
    give_back_between(net)  # the decoding's blocks: the candidate index comes on top
    f.consider(patch_cycles(net, dec, f.pair, f.index, deadline=f.deadline))
    if succ is not None and not f.proven:
        seq = patch_pairwise(net, succ, dec.comp, f.pair, f.index, deadline=f.deadline)
        if seq is not None:
            f.consider(seq)


def components(f: FlowState) -> int:
    """The number of support components of the decoded iterate (the depot's included)."""
    assert f.decoded is not None
    n, cyclic = f.net.instance.n, f.net.instance.cyclic
    labels = f.decoded.comp[: n + (0 if cyclic else 1)]  # small labels: counted, not sorted
    return int(np.count_nonzero(np.bincount(labels))) if labels.size else 0


def record_components(f: FlowState) -> int:
    """:func:`components`, recorded in ``f.info`` for the first iterate."""
    comps = components(f)
    if f.it == 0 and f.decoded is not None:
        f.info["flow_cycles"] = f.decoded.cycles
        f.info["flow_components"] = comps
    return comps
