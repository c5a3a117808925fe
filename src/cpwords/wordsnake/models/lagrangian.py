"""Wordsnake at dictionary scale: the string-hub flow, its certificate, repair and Lagrangian bound.

1. **Relaxation.** The min-cost flow of the string-hub network
   (:func:`~cpwords.wordsnake.models.string_hub.build_string_network`) is the assignment
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

Formulation card: ``models/wordsnake.md``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpwords.wordsnake.models.assignment import (
    WARM_CYCLES,
    WARM_ROUNDS,
    Reoptimizer,
    route_successors,
)
from cpwords.wordsnake.models.decode import Decoded, decode_flow, greedy_successors
from cpwords.wordsnake.models.flow import FORK_MIN_ARCS, SCALE, FlowJob, FlowStopped
from cpwords.wordsnake.models.repair import CandidateIndex, PairScore, patch_cycles, score_sequence
from cpwords.wordsnake.models.string_hub import (
    ROOTLINK,
    StringHubNetwork,
)

ProgressCallback = Callable[[float, float | None, float | None, str], None]


@dataclass
class FlowDual:
    """The flow iterate that gave the best bound, for reduced-cost fixing.

    Attributes
    ----------
    cost : numpy.ndarray of int64, shape ``(m,)``
        The arc costs of that iterate (``-scale * weight`` less the multipliers' bonus).
    flows : numpy.ndarray of int64, shape ``(m,)``
        Its optimal flow.
    value_scaled : int
        Its Lagrangian value in cost units: ``scale * bound <= value_scaled < scale * (bound + 1)``.
    scale : int
        Cost units per score point (1 for plain costs, ``SCALE`` for Lagrangian iterates).
    cut_words : list of numpy.ndarray of int64
        The distinct words of each cut priced into ``cost`` (the words whose entry lies in the
        cut's support component).
    cut_units : list of int
        Each cut's multiplier in cost units (``scale * lambda``).
    pi : numpy.ndarray of int64 or None
        Potentials that proved ``flows`` optimal, when the iterate was settled here (a warm
        start for the certificate's).
    """

    cost: np.ndarray
    flows: np.ndarray
    value_scaled: int
    scale: int
    cut_words: list[np.ndarray] = field(default_factory=list)
    cut_units: list[int] = field(default_factory=list)
    pi: np.ndarray | None = None


@dataclass
class Refinement:
    """What a refinement of the first bound found (see ``refine`` in :func:`solve_string_flow`).

    Attributes
    ----------
    order : list of int or None
        A better item sequence, or None.
    objective : int or None
        Its score.
    bound : int or None
        A proven bound, or None.
    certificate : object
        Its certificate (a :class:`~cpwords.wordsnake.certificate.Certificate`), or None.
    info : dict
        Sizes and times, reported in ``FlowOutcome.info["refinement"]``.
    """

    order: list[int] | None = None
    objective: int | None = None
    bound: int | None = None
    certificate: Any = None
    info: dict[str, Any] = field(default_factory=dict)


#: ``refine(dual, decoded, sequence, score)``: called once on the first bound's flow.
RefineCallback = Callable[[FlowDual, Decoded, list[int], int], Refinement | None]


@dataclass
class FlowOutcome:
    """What the string-hub pipeline proved and found.

    Attributes
    ----------
    order : list of int or None
        Best item sequence found (None when stopped before the first flow).
    objective : int or None
        Its model-side score.
    bound : int or None
        Best proven upper bound (floored).
    proven : bool
        ``objective == bound``.
    stopped : str or None
        ``"time"`` or ``"interrupt"`` when a limit stopped the pipeline.
    info : dict
        Sizes, iteration counts and stage times.
    dual : FlowDual or None
        The iterate with the best bound (None when stopped before the first flow).
    refined : Refinement or None
        What ``refine`` returned, when it was called.
    """

    order: list[int] | None
    objective: int | None
    bound: int | None
    proven: bool
    stopped: str | None
    info: dict[str, Any]
    dual: FlowDual | None = None
    refined: Refinement | None = None


def solve_string_flow(
    net: StringHubNetwork,
    *,
    deadline: float | None = None,
    start: float | None = None,
    progress: ProgressCallback | None = None,
    lagrangian_iterations: int = 50,
    stall_limit: int = 6,
    incumbent: list[int] | None = None,
    refine: RefineCallback | None = None,
) -> FlowOutcome:
    """Flow relaxation, certificate, repair and Lagrangian bound on a string-hub network.

    Parameters
    ----------
    net : StringHubNetwork
    deadline : float, optional
        ``time.perf_counter()`` value at which to stop with the best answer so far.
    start : float, optional
        Reference time for progress reports.
    progress : callable, optional
        ``progress(elapsed, incumbent, bound, stage)``.
    lagrangian_iterations : int
        Most flow solves spent on tightening the bound.
    stall_limit : int
        Stop tightening after this many iterations without a better bound.
    incumbent : list of int, optional
        A starting item sequence.
    refine : callable, optional
        ``refine(dual, decoded, sequence, score) -> Refinement or None``, called once when the
        first bound (the greedy assignment proven optimal) leaves a gap, with that iterate, its
        decoded flow and the best sequence: a stronger bound and a better sequence (the
        additive bound and the neighbourhood search of
        :func:`~cpwords.wordsnake.models.auto.solve_exact`).

    Returns
    -------
    FlowOutcome
        Never raises on a limit: Ctrl-C (KeyboardInterrupt) and the deadline end the pipeline
        with ``stopped`` set.

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
    t0 = time.perf_counter() if start is None else start
    N = net.instance.n
    cyclic = net.instance.cyclic
    pair = PairScore(net)
    info: dict[str, Any] = {"arcs": net.m, "nodes": net.num_nodes, "trie_nodes": net.trie.size}
    best_seq = incumbent
    best = score_sequence(incumbent, pair, cyclic) if incumbent is not None else None
    # A bound from the first moment: every item's best joint out (its heaviest arc out of its
    # exit), all summed; a linear snake's last item has none, so the smallest is left out.
    bound: int | None = trivial_bound(net)
    stopped: str | None = None
    dual: FlowDual | None = None
    cuts: list[np.ndarray] = []
    cut_words: list[np.ndarray] = []
    lam: list[float] = []
    refined: Refinement | None = None
    settled: list[np.ndarray | None] = [None]  # potentials of the flow just returned, if any
    base_cost = -SCALE * net.weight

    def report(stage: str) -> None:
        if progress is not None:
            progress(time.perf_counter() - t0, best, bound, stage)

    def consider(seq: list[int]) -> None:
        nonlocal best, best_seq
        value = score_sequence(seq, pair, cyclic)
        if best is None or value > best:
            best, best_seq = value, seq

    it = 0
    stall = 0
    job: FlowJob | None = None
    cold_first: FlowJob | None = None
    reopt: Reoptimizer | None = None
    warm = {"iterations": 0, "cold": 0}
    try:
        report("greedy assignment")
        # The first bound has plain costs (fewer cost-scaling phases than scaled ones); the
        # Lagrangian iterates scale them to carry fractional multipliers.
        scale = 1
        cost = -net.weight
        index_cache: list[CandidateIndex] = []

        def index() -> CandidateIndex:
            if not index_cache:
                index_cache.append(CandidateIndex(net))
            return index_cache[0]

        # Small networks solve the first costs cold at once (inline, milliseconds). Large ones
        # first route the greedy and prove it optimal by potentials; the cold solve (a child
        # process holding a copy of the network) starts only when that fails or when the
        # Lagrangian needs it: measured, the greedy's proof settles every whole dictionary but
        # one (Portuguese), and a child started at once doubled the peak memory of the process
        # tree (German: 4.4 GB) for a flow that was then killed unused.
        cold_first = FlowJob(net, cost) if net.m < FORK_MIN_ARCS else None
        greedy = greedy_successors(net, deadline)
        # The greedy's assignment as a flow, made optimal by cancelling negative cycles (none on
        # most real lists) and proven so by potentials: the first bound without a cold solve.
        # Small networks (solved inline, in milliseconds) keep the cold solve alone: the proof
        # by potentials doubled their median time in the hard suite (0.043 -> 0.086 s).
        routed = route_successors(net, greedy) if net.m >= FORK_MIN_ARCS else None
        consider(patch_cycles(net, greedy, pair, index, deadline=deadline))
        reopt = None if routed is None else Reoptimizer(net, routed)
        info["first_bound"] = "greedy assignment" if reopt is not None else "min-cost flow"

        def next_flow() -> tuple[np.ndarray, int]:
            """The optimal flow for ``cost``: the greedy's made optimal first, else cold.

            Only the first bound is warm-started: warm Lagrangian iterates were measured (French
            list: 5 of 6 settled, 28 s each against 43 s cold) but their optimal flows, other
            than the cold solver's, gave the subgradient worse cuts (a list of 120 ab strings:
            bound 5248 after 6 iterations against 5204 after 13), so they are solved cold.
            """
            nonlocal reopt, job, cold_first
            if reopt is not None:
                report("proving the greedy assignment optimal")
                pi = reopt.settle(
                    cost, max_rounds=WARM_ROUNDS, max_cycles=WARM_CYCLES, deadline=deadline
                )
                found, reopt = reopt, None
                info["cancelled_cycles"] = found.cycles
                if pi is not None:
                    warm["iterations"] += 1
                    settled[0] = pi
                    return found.flows, int((cost * found.flows).sum())
                info["first_bound"] = "min-cost flow"
            warm["cold"] += 1
            settled[0] = None
            report("solving the flow relaxation" if it == 0 else "bounding")
            job, cold_first = cold_first or FlowJob(net, cost), None
            try:
                return job.result(deadline)
            finally:
                job.close()

        asked = False

        def refine_with(decoded: Decoded) -> None:
            """Call ``refine`` once on the first iterate and take its ordering and bound."""
            nonlocal refined, asked, bound
            asked = True
            # Large networks only: the hard lists of the suites keep their measured policy.
            large = net.m >= FORK_MIN_ARCS
            if refine is None or not large or best_seq is None or best is None or dual is None:
                return
            report("additive bound")
            refined = refine(dual, decoded, best_seq, best)
            if refined is None:
                return
            if refined.order is not None:
                consider(refined.order)
            if refined.bound is not None and (bound is None or refined.bound < bound):
                bound = refined.bound
            info["refinement"] = dict(refined.info)
            if refined.info.get("interrupted"):
                raise KeyboardInterrupt  # Ctrl-C in its search: its ordering and bound are kept
            report("additive bound")

        while True:
            flows, opt = next_flow()
            penalty = round(sum(scale * x for x in lam))  # multipliers are integral/SCALE
            value_scaled = -opt - penalty
            this_bound = value_scaled // scale
            if it == 0:
                info["flow_bound"] = this_bound
                info["flow_time"] = time.perf_counter() - t0
            stall = 0 if bound is None or this_bound < bound else stall + 1
            if dual is None or value_scaled * dual.scale < dual.value_scaled * scale:
                units = [round(x * scale) for x in lam]
                dual = FlowDual(
                    cost, flows, value_scaled, scale, list(cut_words), units, settled[0]
                )
            bound = this_bound if bound is None else min(bound, this_bound)
            if best is not None and best >= bound:
                break  # the incumbent meets the bound: no need to decode this flow
            dec = None
            if it == 0 and warm["iterations"]:
                # The greedy's flow, merged at its hubs: often one component already.
                dec = decode_flow(net, flows, deadline)
                consider(patch_cycles(net, dec, pair, index, deadline=deadline))
                if best is not None and best >= bound:
                    break
                first = bound
                refine_with(dec)  # before any cold solve
                if best is not None and best >= bound:
                    break
                if bound < first:
                    # Measured on the nine language lists: no Lagrangian iterate (each a cold
                    # solve of 30-60 s and a child as large as the network) ever beat the
                    # additive bound, so it ends the flow stage.
                    break
            if it == 0 and warm["iterations"] and lagrangian_iterations > 0:
                # The cuts come from the components of the flow decoded here; the cold solver's
                # optimal flow (same value) gave the subgradient better ones than the greedy's
                # (measured: 40 abc strings proven at 408 against a stall at 410; 120 ab
                # strings 5204 against 5248), so the Lagrangian starts from it.
                report("solving the flow relaxation")
                warm["cold"] += 1
                job, cold_first = cold_first or FlowJob(net, cost), None
                try:
                    flows, _ = job.result(deadline)
                finally:
                    job.close()
                dec = None
            if dec is None:
                dec = decode_flow(net, flows, deadline)
            comps = len(set(dec.comp[: N + (0 if cyclic else 1)]))
            if it == 0:
                info["flow_cycles"] = dec.cycles
                info["flow_components"] = comps
            report("repairing" if comps > 1 else "reading the certificate")
            seq = patch_cycles(net, dec, pair, index, deadline=deadline)
            consider(seq)
            if it == 0 and not asked:
                refine_with(dec)
                if best is not None and best >= bound:
                    break
            report("bounding")
            if best is not None and best >= bound:
                break
            # After the additive bound the iterates rarely beat it (French, Spanish lists:
            # never): two that do not end the tightening.
            if it >= lagrangian_iterations or stall >= (
                stall_limit if refined is None else min(stall_limit, 2)
            ):
                break
            if deadline is not None and time.perf_counter() >= deadline:
                stopped = "time"
                break
            # New cuts from this iterate's components, then a subgradient step.
            # New cuts start at the loss their component's patch cost: if no cheaper way into
            # any of them exists, the next bound equals the incumbent (a proof in one step).
            losses = dec.extra.get("losses", {})
            for label, arcs, members in _component_cuts(net, dec, flows):
                cuts.append(arcs)
                cut_words.append(members)
                lam.append(float(losses.get(label, 0)))
            g = np.array([1 - int(flows[c].sum()) for c in cuts], dtype=float)
            norm = float((g * g).sum())
            if norm == 0:
                break
            step = 1.0 * (value_scaled / scale - float(best or 0)) / norm
            for i in range(len(cuts)):
                lam[i] = max(0.0, lam[i] + step * g[i])
                lam[i] = round(lam[i] * SCALE) / SCALE
            bonus = np.zeros(net.m, dtype=np.int64)
            for c, x in zip(cuts, lam, strict=True):
                if x > 0:
                    np.add.at(bonus, c, round(x * SCALE))
            scale = SCALE
            cost = base_cost - bonus
            it += 1
    except FlowStopped:
        stopped = "time"
    except KeyboardInterrupt:
        stopped = "interrupt"
    finally:
        for running in (job, cold_first):
            if running is not None:
                running.close()  # a child still solving is stopped at once
    info["lagrangian_iterations"] = it
    info["cuts"] = len(cuts)
    info["warm_solves"] = warm["iterations"]
    info["cold_solves"] = warm["cold"]
    proven = best is not None and bound is not None and best >= bound
    return FlowOutcome(best_seq, best, bound, proven, stopped, info, dual, refined)


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
    rep = dec.node_rep
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
    np.maximum.at(best, net.tail[is_out] - out_base, net.weight[is_out])
    total = int((best * net.mult).sum())
    if not net.instance.cyclic:
        total -= int(best.min())
    return total
