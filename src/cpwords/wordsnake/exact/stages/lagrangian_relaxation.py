"""Wordsnake at dictionary scale: the string-hub flow, its certificate, repair and Lagrangian bound.

1. **Relaxation.** The min-cost flow of the string-hub network
   (:func:`~cpwords.wordsnake.relaxation.string_hub.build_string_network`) is the assignment
   relaxation: a valid dual
   bound, computed on O(total letters) arcs.
2. **Certificate.** The flow is decoded into an item successor map (a cycle cover, plus the depot
   for a linear snake). Two units of flow that pass the same hub can exchange their destinations
   at no loss, which merges their cycles; done bottom-up over the hub DAG this leaves exactly one
   cycle per connected component of the flow's support. One cycle is an ordering scoring the
   bound: OPTIMAL without any MIP.
3. **Repair.** Otherwise each remaining cycle is patched into the main one by the best 2-exchange
   among candidates indexed by overlap string (longest first).
4. **Bound.** Each component ``S`` that misses the root yields the connectivity cut
   ``x(delta_in(S)) >= 1``. Lagrangian relaxation prices the cuts into the arc costs; every iterate
   is the same min-cost flow with new integer costs, decoded and repaired too.

Here: the Lagrangian stage of the default method (:func:`lagrangian_relaxation`); the flow
stages run alone are :func:`~cpwords.wordsnake.exact.policy.solve_string_flow`.

Formulation card: ``models/wordsnake.md``.
"""

from __future__ import annotations

import time

import numpy as np

from cpwords.wordsnake.exact.flow_steps import (
    cold_solve,
    decode_and_repair,
    record_components,
    take_iterate,
)
from cpwords.wordsnake.exact.state import FlowState
from cpwords.wordsnake.relaxation.decode import Decoded
from cpwords.wordsnake.relaxation.flow import SCALE
from cpwords.wordsnake.relaxation.sparse_flow import dense_flows
from cpwords.wordsnake.relaxation.string_hub import ROOTLINK, StringHubNetwork


def lagrangian_relaxation(f: FlowState) -> None:
    """Stage "Lagrangian relaxation": price the connectivity cuts of each iterate's components
    into the arc costs, solve the flow again, repair it, until the bound stalls.

    Notes
    -----
    Lagrangian relaxation of the cuts ``x(delta_in(S)) >= 1``: with multipliers
    ``lambda_S >= 0``, ``L(lambda) = max_x sum_a (w_a + sum_{S: a in delta_in(S)} lambda_S) x_a -
    sum_S lambda_S`` over the flow polytope is an upper bound for every ``lambda``; its floor is
    a bound on the integer scores. Subgradient steps ``lambda_S += t (1 - x(delta_in(S)))``
    (Polyak step to the incumbent), costs scaled by ``SCALE`` to stay integral.

    References
    ----------
    M. Held, R. M. Karp, "The traveling-salesman problem and minimum spanning trees: Part II",
    Mathematical Programming 1 (1971) (Lagrangian relaxation, subgradient optimisation).
    """
    if f.warm_first and not _start_from_cold_flow(f):
        return
    f.report("bounding")
    if f.proven:
        return
    while not _tightening_done(f):
        if not _subgradient_step(f):
            return
        flows, opt = cold_solve(f, "bounding")
        take_iterate(f, flows, opt)
        if f.proven:
            return
        decode_and_repair(f)
        f.report("bounding")
        if f.proven:
            return


def _start_from_cold_flow(f: FlowState) -> bool:
    """After a greedy proof, whether the Lagrangian runs: it then starts from the cold
    solver's optimal flow (same value), whose components gave the subgradient better cuts than
    the greedy's (card: "Warm Lagrangian iterates, measured and not used"). An additive bound
    below the first bound ends the flow stages instead (card: no Lagrangian iterate ever beat
    it on the nine language lists)."""
    before = f.bound_before_refinement
    if before is not None and f.bound is not None and f.bound < before:
        return False
    if f.lagrangian_iterations <= 0:
        record_components(f)
        return False
    f.flows, _ = cold_solve(f, "solving the flow relaxation")
    decode_and_repair(f)
    return True


def _tightening_done(f: FlowState) -> bool:
    """Whether the Lagrangian stops: its iterations spent, the bound stalled (after the
    additive bound, two iterates that do not beat it), or the deadline passed."""
    stall_limit = f.stall_limit if f.refined is None else min(f.stall_limit, 2)
    if f.it >= f.lagrangian_iterations or f.stall >= stall_limit:
        return True
    if f.deadline is not None and time.perf_counter() >= f.deadline:
        f.stopped = "time"
        return True
    return False


def _subgradient_step(f: FlowState) -> bool:
    """New cuts from the last iterate's components, then a subgradient step on every
    multiplier; False when the step is zero (every cut is met).

    A new cut starts at the loss its component's patch cost: if no cheaper way into any of them
    exists, the next bound equals the incumbent (a proof in one step).
    """
    assert f.decoded is not None and f.flows is not None
    losses = f.decoded.extra.get("losses", {})
    for label, arcs, members in _component_cuts(f.net, f.decoded, dense_flows(f.flows)):
        f.cuts.append(arcs)
        f.cut_words.append(members)
        f.lam.append(float(losses.get(label, 0)))
    g = np.array([1 - int(f.flows[c].sum()) for c in f.cuts], dtype=float)
    norm = float((g * g).sum())
    if norm == 0:
        return False
    step = 1.0 * (f.value_scaled / f.scale - float(f.best or 0)) / norm
    for i in range(len(f.cuts)):
        f.lam[i] = max(0.0, f.lam[i] + step * g[i])
        f.lam[i] = round(f.lam[i] * SCALE) / SCALE
    bonus = np.zeros(f.net.m, dtype=np.int64)
    for c, x in zip(f.cuts, f.lam, strict=True):
        if x > 0:
            np.add.at(bonus, c, round(x * SCALE))
    f.scale = SCALE
    bonus += np.multiply(f.net.weight, SCALE, dtype=np.int64)  # 64 bits: the weights may be 32
    f.cost = np.negative(bonus, out=bonus)
    f.it += 1
    return True


def _component_cuts(
    net: StringHubNetwork, dec: Decoded, flows: np.ndarray
) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """Arcs entering each support component that misses the root, and its words, by label.

    A component's words are the distinct words whose entry node lies in it: every route from
    the exit of a word outside (its exit lies outside too) to one of them enters the component.
    """
    N = net.instance.n
    cyclic = net.instance.cyclic
    comp = np.array(dec.comp, dtype=np.int64)
    root_comp = comp[N] if not cyclic else np.bincount(comp[:N]).argmax()
    node_comp = np.full(net.num_nodes, -1, dtype=np.int64)
    rep = dec.node_rep.array()
    has = rep >= 0
    node_comp[has] = comp[rep[has]]
    # Only nodes that carry flow belong to a component (word nodes always do).
    used = np.zeros(net.num_nodes, dtype=bool)
    sup = flows > 0
    used[net.tail[sup]] = True
    used[net.head[sup]] = True
    node_comp[~used] = -1
    node_comp[node_comp == root_comp] = -1
    hc = node_comp[net.head]
    tc = node_comp[net.tail]
    entering = (hc >= 0) & (tc != hc) & (net.role != ROOTLINK)
    arcs = np.nonzero(entering)[0]
    labels = hc[arcs]
    order = np.argsort(labels, kind="stable")
    arcs, labels = arcs[order], labels[order]
    splits = np.nonzero(np.diff(labels))[0] + 1
    W = net.num_words
    entry_comp = node_comp[net.in_base : net.in_base + W]
    out = []
    for a in np.split(arcs, splits):
        if a.size:
            label = int(hc[a[0]])
            out.append((label, a, np.nonzero(entry_comp == label)[0]))
    return out
