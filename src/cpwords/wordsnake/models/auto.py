"""The default exact Wordsnake method (``exact``/``auto``): a measured policy over the formulations.

:func:`solve_exact` runs the string-hub flow (:mod:`~cpwords.wordsnake.models.lagrangian`), then
reduced-cost fixing
and the core search (:mod:`~cpwords.wordsnake.models.core`), then, for small lists whose core is
too large, the
routes model (:mod:`~cpwords.wordsnake.models.cpsat`). The other formulations are re-exported here
so that
``cpwords.wordsnake.models.auto`` stays the one import for every exact Wordsnake method.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from cpwords.core.errors import InputError
from cpwords.core.machine import available_memory
from cpwords.core.result import SolveResult, TracePoint
from cpwords.wordsnake.certificate import Certificate
from cpwords.wordsnake.models.certify import (
    dual_potentials,
    flow_certificate,
    single_word_certificate,
)
from cpwords.wordsnake.models.common import (
    MIP_BACKENDS,
    MIP_MAX_ARCS,
    ProgressCallback,
    _check_limits,
    _finish,
    _items_of,
    _solver_info,
    _stage_progress,
    assignment_relaxation,
    order_to_arcs,
    score_order,
)
from cpwords.wordsnake.models.core import CoreTooLarge, reduced_core, solve_core, solve_core_mip
from cpwords.wordsnake.models.decode import Decoded
from cpwords.wordsnake.models.lagrangian import (
    FlowDual,
    RefineCallback,
    Refinement,
    solve_string_flow,
)
from cpwords.wordsnake.models.lns import reorder_pieces
from cpwords.wordsnake.models.pathcover import path_cover_bound
from cpwords.wordsnake.models.repair import PairScore, overlap
from cpwords.wordsnake.models.residual import ResidualPaths
from cpwords.wordsnake.models.string_hub import (
    DeadlineReached,
    StringHubNetwork,
    build_string_network,
    estimate_memory,
)
from cpwords.wordsnake.rules import WordsnakeInstance

if TYPE_CHECKING:
    from cpwords.wordsnake.models.cpsat import (
        solve_hub_cpsat,
        solve_naive_circuit,
        solve_routes_cpsat,
    )
    from cpwords.wordsnake.models.mip import solve_hub_mip

__all__ = [
    "CORE_MAX_PAIRS",
    "FALLBACK_MAX_ITEMS",
    "MIP_BACKENDS",
    "MIP_MAX_ARCS",
    "ROUTES_MAX_ARCS",
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
    "solve_hub_cpsat": "cpwords.wordsnake.models.cpsat",
    "solve_naive_circuit": "cpwords.wordsnake.models.cpsat",
    "solve_routes_cpsat": "cpwords.wordsnake.models.cpsat",
    "solve_hub_mip": "cpwords.wordsnake.models.mip",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------------------------------------
# The default exact method: a measured policy over the formulations above.
# ---------------------------------------------------------------------------------------------

#: Above this many positive-overlap arcs the routes model is not tried (its model alone is
#: then larger than the letter-hub MIP by two orders of magnitude).
ROUTES_MAX_ARCS = 400_000


def positive_arc_count_bound(instance: WordsnakeInstance) -> int:
    """Upper bound on the number of positive-overlap arcs: pairs with last(a) == first(b)."""
    shortest = 2 if instance.proper else 1
    ends: dict[str, int] = {}
    starts: dict[str, int] = {}
    for w in instance.words:
        if len(w) >= shortest:
            ends[w[-1]] = ends.get(w[-1], 0) + 1
            starts[w[0]] = starts.get(w[0], 0) + 1
    return sum(c * starts.get(k, 0) for k, c in ends.items())


#: When the string-hub flow leaves a gap, lists of at most this many items (and at most
#: ``ROUTES_MAX_ARCS`` positive arcs) go on to the routes model; larger ones end FEASIBLE with
#: the Lagrangian bound.
FALLBACK_MAX_ITEMS = 20_000


#: Reduced-cost fixing hands the core to the exact search when it keeps at most this many word
#: pairs, and stops collecting beyond it (the hard lists measured keep 8,000 to 20,000 of
#: 500,000 to 640,000; ab n = 30,000 keeps 398,184).
CORE_MAX_PAIRS = 400_000


#: Most seconds the neighbourhood search's exact solve of the pieces may take.
LNS_TIME = 60.0

#: The neighbourhood search's passes over the families: items beside each focus item in the
#: ordering that join it (the first pass also builds the augmenting paths).
FAMILY_RADII = (1, 2, 4)

#: Rounds of the wider growth of the additive bound's set when the search leaves a gap (each
#: round takes every partner of the cover's paths and the words they displace; F roughly
#: doubles a round: 3,451 -> 16,339 words in 4 rounds on the Dutch list).
WIDE_GROWTH = 4

#: Most seconds for the pieces around one family of the path cover (they take well under one:
#: 25-100 pieces on the Spanish list).
FAMILY_TIME = 10.0

#: Seconds that must be left to search each family's own augmenting paths (searches that cannot
#: be interrupted: about 0.5 s each on the Portuguese list, up to 3 s on the union of three).
OWN_PATHS_TIME = 10.0


def _share(most: float, left: float | None) -> float:
    """Seconds for a solve of the pieces: at most ``most`` and three quarters of what is left
    (measured: a 970-piece solve given the 24 s left ended 5 s late, its MIP past its limit)."""
    return most if left is None else max(0.1, min(most, 0.75 * left))


def _word_joints(net: StringHubNetwork, dec: Decoded) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct word's successor and predecessor (word ids, -1: the depot) in a decoded
    flow (for a word listed more than once, those of one of its items)."""
    N = net.instance.n
    W = net.num_words
    word = np.append(net.item_word, -1)  # the depot (item N) has no word
    nxt = np.asarray(dec.succ[:N], dtype=np.int64)
    succ = np.full(W, -1, dtype=np.int64)
    pred = np.full(W, -1, dtype=np.int64)
    succ[word[:N]] = word[nxt]
    real = nxt < N
    pred[word[nxt[real]]] = word[:N][real]
    return succ, pred


def _refiner(
    instance: WordsnakeInstance,
    net: StringHubNetwork,
    deadline: float | None,
    workers: int,
    seed: int,
) -> RefineCallback:
    """The refinement of the first bound: additive bound, then neighbourhood search."""
    words = instance.words
    N = instance.n

    def refine(dual: FlowDual, dec: Decoded, seq: list[int], value: int) -> Refinement | None:
        t0 = time.perf_counter()
        comp = dec.comp
        main = comp[N] if not instance.cyclic else max(set(comp[:N]), key=comp[:N].count)
        item_word = net.item_word
        seeds = sorted({int(item_word[i]) for i in range(N) if comp[i] != main})
        if not seeds:
            return None
        try:
            first = dual.value_scaled // dual.scale
            pi = dual_potentials(net, dual, deadline)
            cert = flow_certificate(
                net, dual, [words[i] for i in seq], value, first, deadline=deadline,
                potentials=pi,
            )  # fmt: skip
            relaxed = _word_joints(net, dec)
            pc = path_cover_bound(
                cert, net.words, net.mult.tolist(), seeds, deadline=deadline, relaxed=relaxed
            )  # fmt: skip
        except DeadlineReached:
            return None
        info: dict[str, Any] = {
            "path_cover": pc.info,
            "bound": pc.bound,
            "lp_bound": pc.lp_bound,
            "first_bound": first,
        }
        order: list[int] | None = None
        objective: int | None = None
        best = pc  # the bound proven so far (the search keeps the families of ``pc``)
        remaining = None if deadline is None else deadline - time.perf_counter()
        if value < pc.bound and (remaining is None or remaining > 1.0):

            def solve_pieces(
                sub: WordsnakeInstance, limit: float | None
            ) -> tuple[list[str] | None, bool]:
                found = solve_exact(
                    sub, time_limit=limit, workers=workers, seed=seed,
                    neighbourhood_search=False,
                )  # fmt: skip
                if found.solver_info.get("interrupted"):
                    raise KeyboardInterrupt  # Ctrl-C reached the pieces' solve: stop searching
                return (list(found.solution) if found.solution else None), found.is_optimal

            t_lns = time.perf_counter()
            pair = PairScore(net)
            cur_seq, cur = list(seq), value
            searched: dict[str, Any] = {"families": 0, "family_gain": 0}
            items_of: dict[int, list[int]] = {}
            for i, w in enumerate(item_word[:N].tolist()):
                items_of.setdefault(int(w), []).append(i)
            # 1. Each costly family of the cover, with the words where its cover's paths start
            # and end, and the words on the augmenting paths that carry its change through the
            # rest of the relaxation's flow (re-joined far from the family in the ordering:
            # without them the Spanish and Portuguese lists stopped 5 and 2 points short).
            in_f = {int(w): i for i, w in enumerate(pc.neighbourhood.tolist())}
            proper = instance.proper
            plain = net.words
            focus_of: dict[int, set[int]] = {}
            excess_of: dict[int, dict[int, int]] = {}
            residual: list[ResidualPaths] = []  # while the own paths may be searched

            def family_words(k: int, own: bool = False) -> set[int]:
                """The words family ``k``'s change touches.

                The first call finds the augmenting paths of every family in one pair of
                shortest-path searches (two per family took 113 s of the union's 242 s of search,
                41 s of the German list's 56 s); a path's words go to the families whose
                imbalance it was searched for. Such a path can start at another family's surplus
                (or end at another's shortage); ``own=True`` adds family ``k``'s own paths, searched
                for it alone (the Portuguese list's last 2 points needed those: 64 of 66 points
                without, in 72 family searches).
                """
                if not focus_of:
                    t_paths = time.perf_counter()
                    paths = ResidualPaths(net, dual.cost, dual.flows, pi)
                    residual.append(paths)
                    owners: dict[int, set[int]] = {}  # imbalanced node -> the families there
                    total: dict[int, int] = {}
                    for j, fam in enumerate(pc.families):
                        chosen = {int(w) for w in fam.tolist()}
                        moves = []
                        for w in fam.tolist():
                            i = in_f[int(w)]
                            nxt, prv = int(pc.cover_next[i]), int(pc.cover_prev[i])
                            d_out = 0 if nxt < 0 else overlap(plain[w], plain[nxt], proper)
                            d_in = 0 if prv < 0 else overlap(plain[prv], plain[w], proper)
                            moves.append((int(w), d_out, d_in))
                            chosen.update(x for x in (nxt, prv) if x >= 0)
                        excess_of[j] = paths.excess(moves)
                        for v, units in excess_of[j].items():
                            owners.setdefault(v, set()).add(j)
                            total[v] = total.get(v, 0) + units
                        focus_of[j] = chosen
                    before = sum(len(f) for f in focus_of.values())
                    into, out_of = paths.paths_by_end({v: u for v, u in total.items() if u})
                    for path, end in [(p, p[-1]) for p in into] + [(p, p[0]) for p in out_of]:
                        on_path = paths.words_on(path)
                        for j in owners.get(end, set()):
                            focus_of[j] |= on_path
                    searched["path_words"] = sum(len(f) for f in focus_of.values()) - before
                    searched["paths_time"] = time.perf_counter() - t_paths
                if not own:
                    return focus_of[k]
                t_own = time.perf_counter()
                mine = focus_of[k] | residual[0].words_between(excess_of[k])
                searched["own_paths_time"] = searched.get("own_paths_time", 0.0) + (
                    time.perf_counter() - t_own
                )
                return mine

            u_cert = np.asarray(cert.u, dtype=np.int64)
            v_cert = np.asarray(cert.v, dtype=np.int64)
            for cut_ids, lam in cert.cuts:  # as the cover counts it: cut multipliers held
                v_cert[list(cut_ids)] -= lam
            depot_u, depot_v = cert.depot if cert.depot is not None else (0, 0)
            family_slack = pc.info.get("family_slack", [])

            def family_open(k: int, pos: np.ndarray) -> bool:
                """Whether the ordering's joints at family ``k``'s words cost more slack (reduced
                cost of the certificate) than the cover's paths of the family: if not, the
                family is already as good as the bound lets it be (on the union of three lists,
                one family of 41 was left, and each family's own paths cost 2.5 s)."""
                at: set[int] = set()  # positions p of the joints (cur_seq[p-1], cur_seq[p])
                for w in pc.families[k].tolist():
                    for x in items_of.get(int(w), []):
                        at.update((int(pos[x]), int(pos[x]) + 1))
                total = 0
                for p in at:
                    if instance.cyclic:
                        a, b = cur_seq[(p - 1) % N], cur_seq[p % N]
                    elif p == 0 or p == N:
                        a, b = (-1, cur_seq[0]) if p == 0 else (cur_seq[-1], -1)
                    else:
                        a, b = cur_seq[p - 1], cur_seq[p]
                    wa = -1 if a < 0 else int(item_word[a])
                    wb = -1 if b < 0 else int(item_word[b])
                    if wa < 0:
                        total += depot_u + int(v_cert[wb])
                    elif wb < 0:
                        total += int(u_cert[wa]) + depot_v
                    else:
                        ov = overlap(plain[wa], plain[wb], proper)
                        total += int(u_cert[wa]) + int(v_cert[wb]) - cert.scale * ov * ov
                return total > cert.scale * family_slack[k] + 1e-9

            def family_pass(radius: int, own: bool = False) -> None:
                nonlocal cur_seq, cur
                for k in range(len(pc.families)):
                    left = None if deadline is None else deadline - time.perf_counter()
                    if cur >= best.bound or (left is not None and left <= 2.0):
                        return
                    pos = np.empty(N, dtype=np.int64)
                    pos[np.asarray(cur_seq)] = np.arange(N)
                    if not family_open(k, pos):
                        searched["closed"] = searched.get("closed", 0) + 1
                        continue
                    focus = {x for w in family_words(k, own) for x in items_of.get(w, [])}
                    for x in list(focus):
                        p = int(pos[x])
                        focus.update(cur_seq[max(0, p - radius) : p + radius + 1])
                    done = reorder_pieces(
                        instance, cur_seq, focus, pair, solve_pieces,
                        time_limit=_share(FAMILY_TIME, left),
                        current=cur,
                    )  # fmt: skip
                    searched["families"] += 1
                    if done.objective > cur:
                        searched["family_gain"] += done.objective - cur
                        cur_seq, cur = done.order, done.objective

            def all_families() -> None:
                """Every family's words at once: changes that need two families together."""
                nonlocal cur_seq, cur
                left = None if deadline is None else deadline - time.perf_counter()
                if cur >= best.bound or (left is not None and left <= 2.0):
                    return
                words_f: set[int] = set()
                for k in range(len(pc.families)):
                    words_f |= family_words(k)
                focus = {x for w in words_f for x in items_of.get(w, [])}
                done = reorder_pieces(
                    instance, cur_seq, focus, pair, solve_pieces,
                    time_limit=_share(LNS_TIME, left),
                    current=cur,
                )  # fmt: skip
                searched.update(done.info)
                searched["items"] = len(focus)
                searched["pieces_gain"] = searched.get("pieces_gain", 0) + done.objective - cur
                if done.objective > cur:
                    cur_seq, cur = done.order, done.objective

            def wider_bound() -> None:
                """F grows by every partner of the cover's paths and the words they displace
                (measured on the Dutch list: the bound fell from 9,649,941 to the incumbent's
                9,649,936 in 4 such rounds from the subtours, F 16,339 words, 11 s; the narrow
                growth kept 9,649,941 with F up to 5,211 words)."""
                nonlocal best
                t_wide = time.perf_counter()
                try:
                    wide = path_cover_bound(
                        cert, net.words, net.mult.tolist(), seeds, deadline=deadline,
                        relaxed=relaxed, every_partner=True, grow=WIDE_GROWTH,
                    )  # fmt: skip
                except DeadlineReached:
                    return
                info["wider_bound"] = {
                    "bound": wide.bound, "lp_bound": wide.lp_bound,
                    "words": wide.info["words"], "time": time.perf_counter() - t_wide,
                }  # fmt: skip
                if wide.bound < best.bound:
                    best = wide
                    info["bound"] = best.bound
                    info["lp_bound"] = best.lp_bound

            def time_for(seconds: float) -> bool:
                """Whether a gap is left and more than ``seconds`` of the time limit."""
                left = None if deadline is None else deadline - time.perf_counter()
                return cur < best.bound and (left is None or left > seconds)

            try:
                family_pass(FAMILY_RADII[0])
                # 2. The wider bound, when the first pass leaves a gap (the Dutch list's first
                # pass found the optimum, which only the wider bound proves; the later passes
                # had spent 60 s before it).
                if time_for(2.0):
                    wider_bound()
                # 3. Each family's own augmenting paths (the Portuguese list's last 2 points).
                if time_for(OWN_PATHS_TIME):
                    family_pass(FAMILY_RADII[0], own=True)
                residual.clear()  # a float and two integers per residual arc, and its transpose
                # 4. Wider neighbourhoods of each family while time is left (the Portuguese list
                # was proven by the pass with 4 neighbours, before the augmenting paths).
                for radius in FAMILY_RADII[1:]:
                    if not time_for(2.0):
                        break
                    family_pass(radius)
                # 5. Every family's words at once, with the time left (measured: the Russian
                # list's last 3 points, 956 pieces proven in 20 s; unproven, it takes its 60 s,
                # so it comes last).
                all_families()
            except KeyboardInterrupt:
                # Ctrl-C: the best ordering found so far goes back with the flag, and the
                # flow stage stops there (solve_string_flow re-raises it).
                info["interrupted"] = True
            searched["gain"] = cur - value
            searched["time"] = time.perf_counter() - t_lns
            info["neighbourhood_search"] = searched
            if cur > value:
                order, objective = cur_seq, cur
        info["time"] = time.perf_counter() - t0
        return Refinement(order, objective, best.bound, best.certificate, info)

    return refine


def check_memory(instance: WordsnakeInstance) -> None:
    """Refuse, in one line, an instance whose exact solve would not fit in memory.

    Raises
    ------
    InputError
        When :func:`~cpwords.wordsnake.models.string_hub.estimate_memory` exceeds
        :func:`cpwords.core.machine.available_memory`.
    """
    need = estimate_memory(instance)
    have = available_memory()
    if need > have:
        letters = sum(len(w) for w in instance.words)
        raise InputError(
            f"{instance.n:,} words ({letters:,} letters) need about {need / 1e9:.1f} GB to solve "
            f"exactly, more than the {have / 1e9:.1f} GB available"
        )


def _certificate(
    instance: WordsnakeInstance,
    held: dict[str, Any],
    result: dict[str, Any],
    info: dict[str, Any],
    deadline: float | None = None,
) -> Certificate | None:
    """The certificate of a finished solve, or None (the reason in ``info``); it too stops at
    the solve's deadline (the time limit covers the whole command)."""
    order = result.get("order")
    objective = result.get("objective")
    if order is None or objective is None:
        info["certificate_error"] = "no ordering to certify"
        return None
    if len(set(instance.words)) == 1:
        return single_word_certificate(instance, order, int(objective))
    net, out = held["net"], held["out"]
    if net is None or out is None or out.dual is None:
        info["certificate_error"] = "stopped before the first flow bound"
        return None
    proven = result.get("proven") and result.get("bound") is not None
    claimed = int(objective) if proven else result.get("bound")
    if claimed is None:
        claimed = out.dual.value_scaled // out.dual.scale
    flow_bound = out.dual.value_scaled // out.dual.scale
    refined = out.refined
    if refined is not None and refined.certificate is not None:
        proved = int(refined.info.get("lp_bound", flow_bound))
        if proved <= flow_bound:
            # The additive bound's certificate: its values prove ``proved``.
            word_id = {w: i for i, w in enumerate(net.words)}
            core = None
            if int(claimed) < proved:
                core = held["core_pairs"] or refined.certificate.core_pairs
            return replace(
                refined.certificate,
                order=tuple(word_id[w] for w in order),
                objective=int(objective),
                bound=int(claimed),
                core_pairs=core,
                producer={
                    "method": result.get("method"),
                    "flow_bound": flow_bound,
                    "additive_bound": proved,
                },
            )
    core_pairs = held["core_pairs"] if int(claimed) < flow_bound else None
    try:
        return flow_certificate(
            net, out.dual, order, int(objective), int(claimed), core_pairs=core_pairs,
            producer={"method": result.get("method"), "flow_bound": flow_bound},
            deadline=deadline,
        )  # fmt: skip
    except KeyboardInterrupt:
        info["certificate_error"] = "interrupted while computing the certificate"
        return None
    except DeadlineReached:
        info["certificate_error"] = "the time limit passed before the certificate was computed"
        return None


def solve_exact(
    instance: WordsnakeInstance,
    *,
    time_limit: float | None = 60.0,
    workers: int = 2,
    seed: int = 0,
    hint: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
    start: float | None = None,
    lagrangian_iterations: int = 50,
    core_search: str = "mip",
    certificate: bool = False,
    neighbourhood_search: bool = True,
) -> SolveResult:
    """The default exact method: string-hub flow, certificate, repair, bound, core search.

    1. The string-hub assignment relaxation (O(total letters) arcs) as a min-cost flow, with a
       longest-overlap-first greedy start computed meanwhile
       (:func:`~cpwords.wordsnake.models.lagrangian.solve_string_flow`). When the flow's support is
       connected, its
       Euler circuit is an ordering scoring the bound: OPTIMAL with no MIP (all of ENABLE and
       of web2, measured). Otherwise the remaining cycles are patched; on large lists the
       additive bound (:func:`~cpwords.wordsnake.models.pathcover.path_cover_bound`) and the
       neighbourhood search (:func:`~cpwords.wordsnake.models.lns.reorder_pieces`) follow, and
       elsewhere a Lagrangian relaxation of the connectivity cuts tightens the bound.
    2. If a gap remains, reduced-cost fixing on the iterate with the best bound keeps only the
       joints an ordering scoring above the incumbent may use
       (:func:`~cpwords.wordsnake.models.core.reduced_core`), and an exact search of that core
       takes the
       rest of the time (:func:`~cpwords.wordsnake.models.core.solve_core_mip`): a proof that
       nothing in the
       core beats the incumbent, or the better ordering it finds, is a proof for the whole list.
    3. If the core is too large (more than ``CORE_MAX_PAIRS`` word pairs) on a list of at most
       ``FALLBACK_MAX_ITEMS`` items and ``ROUTES_MAX_ARCS`` positive arcs, CP-SAT's routes model
       (:func:`solve_routes_cpsat`) takes over with the best ordering as its hint.

    The dual bound reported is the best of the bounds proven along the way.

    Parameters
    ----------
    instance : WordsnakeInstance
    time_limit : float or None
        Seconds for the whole policy, counted from ``start``.
    workers : int
        Solver threads.
    seed : int
        Solver seed.
    hint : sequence of str, optional
        A starting ordering (the initial incumbent).
    progress : callable, optional
        ``progress(elapsed, incumbent, bound)`` or, when it takes a fourth argument,
        ``progress(elapsed, incumbent, bound, stage)``.
    start : float, optional
        ``time.perf_counter()`` at which the time limit started (default: now).
    lagrangian_iterations : int
        Most flow solves spent tightening the bound (0: the relaxation's bound only).
    core_search : {"mip", "cpsat"}
        How the core left by reduced-cost fixing is searched: HiGHS branch-and-cut with
        repeated words as one node of multiplicity k
        (:func:`~cpwords.wordsnake.models.core.solve_core_mip`,
        the default: measured faster), or CP-SAT's routes constraint over the items
        (:func:`~cpwords.wordsnake.models.core.solve_core`).
    neighbourhood_search : bool
        On large lists whose first bound leaves a gap: strengthen it by the path cover of the
        subtours' neighbourhood (:func:`~cpwords.wordsnake.models.pathcover.path_cover_bound`,
        additive bounding) and re-order the pieces around them exactly
        (:func:`~cpwords.wordsnake.models.lns.reorder_pieces`); False skips both (the pieces'
        own solve uses it so).
    certificate : bool
        Also compute a certificate of the bound in ``solver_info["certificate"]``
        (:func:`~cpwords.wordsnake.models.certify.flow_certificate`; None with
        ``solver_info["certificate_error"]`` when stopped before the first flow bound or by the
        time limit).

    Returns
    -------
    SolveResult
        ``method`` names the stage that finished (``exact/flow``, ``exact/core`` or
        ``exact/routes``);
        ``solver_info["stages"]`` lists each stage; ``solver_info["interrupted"]`` is True after
        Ctrl-C (the best ordering so far is returned, FEASIBLE unless proven).

    Raises
    ------
    InputError
        Non-positive limits, or an instance too large for the memory available.
    """
    _check_limits(time_limit, workers)
    if core_search not in ("mip", "cpsat"):
        raise InputError(f"core_search must be 'mip' or 'cpsat', got {core_search!r}")
    entered = time.perf_counter()
    start = entered if start is None else start
    deadline = None if time_limit is None else start + time_limit
    words = instance.words
    info = _solver_info("min-cost-flow", formulation="string-hub", workers=workers, seed=seed)

    # What a certificate needs: the network, the flow outcome, the size of a core search.
    held: dict[str, Any] = {"net": None, "out": None, "core_pairs": None}

    def finish(**kwargs: Any) -> SolveResult:
        info["solve_time"] = time.perf_counter() - entered  # without start-up and reading
        early = deadline is None or time.perf_counter() < deadline - 1.0
        if not kwargs.get("proven") and early and not info.get("interrupted"):
            # Every stage ended before the limit with the gap open (a core too large for the
            # search, say): not stopped by the limit, and said so.
            info.setdefault("stopped", "exhausted")
        if certificate:
            t_cert = time.perf_counter()
            info["certificate"] = _certificate(instance, held, kwargs, info, deadline)
            info["certificate_time"] = time.perf_counter() - t_cert
        return _finish(**kwargs)

    if instance.n == 1 or len(set(words)) == 1:
        value = score_order(instance, list(words))
        return finish(
            instance=instance, proven=True, order=list(words), objective=float(value),
            bound=float(value), start=start, method="exact/flow", info=info, trace=[],
        )  # fmt: skip
    check_memory(instance)
    fallback = (
        instance.n <= FALLBACK_MAX_ITEMS and positive_arc_count_bound(instance) <= ROUTES_MAX_ARCS
    )
    flow_deadline = deadline
    if fallback and time_limit is not None:
        flow_deadline = start + 0.4 * time_limit
    report = _stage_progress(progress)
    trace: list[TracePoint] = []

    def on_progress(elapsed: float, inc: float | None, bnd: float | None, stage: str) -> None:
        trace.append(TracePoint(elapsed, inc, bnd))
        report(elapsed, inc, bnd, stage)

    interrupted = False
    out = None
    try:
        report(time.perf_counter() - start, None, None, "building the string-hub network")
        net = build_string_network(instance, flow_deadline)
        held["net"] = net
        hint_items = None if hint is None else _items_of(instance, hint)
        out = solve_string_flow(
            net,
            deadline=flow_deadline,
            start=start,
            progress=on_progress,
            incumbent=hint_items,
            lagrangian_iterations=lagrangian_iterations,
            refine=_refiner(instance, net, flow_deadline, workers, seed)
            if neighbourhood_search
            else None,
        )
        interrupted = out.stopped == "interrupt"
        held["out"] = out
    except KeyboardInterrupt:
        interrupted = True
    except DeadlineReached:
        info["stopped"] = "time"
    info.update(out.info if out is not None else {})
    info["time_limit"] = time_limit
    if out is not None and out.order is not None:
        order = [words[i] for i in out.order]
        objective = float(out.objective or 0)
    else:  # stopped before any ordering: the given one (or the input order)
        order = list(hint) if hint is not None else list(words)
        objective = float(score_order(instance, order))
    bound = None if out is None or out.bound is None else float(out.bound)
    proven = bound is not None and objective >= bound
    stages: list[dict[str, Any]] = [
        {"stage": "flow", "wall_time": time.perf_counter() - start, "proven": proven}
    ]
    info["stages"] = stages
    info["interrupted"] = interrupted
    remaining = None if deadline is None else deadline - time.perf_counter()
    if (
        not (proven or interrupted)
        and out is not None
        and out.dual is not None
        and (remaining is None or remaining > 0.05)
    ):
        # Reduced-cost fixing, then an exact search of the joints that remain.
        t_core = time.perf_counter()
        core_stage: dict[str, Any] = {"stage": "core"}
        stages.append(core_stage)
        try:
            report(t_core - start, objective, bound, "reduced-cost fixing")
            core = reduced_core(net, out.dual, int(objective), deadline, max_pairs=CORE_MAX_PAIRS)
            core_stage["pairs"] = core.num_pairs
            held["core_pairs"] = core.num_pairs
            core_stage["budget"] = core.budget / core.scale
            report(time.perf_counter() - start, objective, bound, "searching the core")
            seconds = None if deadline is None else deadline - time.perf_counter()

            def core_progress(_t: float, inc: float | None, _b: float | None) -> None:
                better = objective if inc is None else max(objective, inc)
                on_progress(time.perf_counter() - start, better, bound, "searching the core")

            if core_search == "cpsat":
                found = solve_core(
                    net, core, time_limit=seconds, workers=workers, seed=seed,
                    progress=core_progress,
                )  # fmt: skip
            else:
                found = solve_core_mip(net, core, time_limit=seconds, progress=core_progress)
            core_stage["arcs"] = found.arcs
            interrupted = interrupted or found.interrupted
            better = found.objective is not None and found.objective > objective
            if better and found.order is not None and found.objective is not None:
                order = [words[i] for i in found.order]
                objective = float(found.objective)
            if found.proven:
                bound = objective  # nothing in the core beats it: optimal
                proven = True
            elif found.bound is not None and bound is not None:
                bound = min(bound, max(float(found.bound), objective))
            on_progress(time.perf_counter() - start, objective, bound, "searching the core")
        except CoreTooLarge:
            core_stage["too_large"] = True  # the routes model may take over below
        except DeadlineReached:
            info["stopped"] = "time"
        except KeyboardInterrupt:
            interrupted = True
        core_stage["wall_time"] = time.perf_counter() - t_core
        core_stage["proven"] = proven
        info["interrupted"] = interrupted
        method_name = "exact/core"
    else:
        method_name = "exact/flow"
    remaining = None if deadline is None else deadline - time.perf_counter()
    if proven or interrupted or not fallback or (remaining is not None and remaining <= 0.05):
        return finish(
            instance=instance, proven=proven, order=order, objective=objective, bound=bound,
            start=start, method=method_name, info=info, trace=trace,
        )  # fmt: skip
    try:
        from cpwords.wordsnake.models.cpsat import solve_routes_cpsat

        second = solve_routes_cpsat(
            instance, time_limit=remaining, workers=workers, seed=seed, hint=order,
            progress=progress,
        )  # fmt: skip
    except KeyboardInterrupt:
        info["interrupted"] = True
        return finish(
            instance=instance, proven=False, order=order, objective=objective, bound=bound,
            start=start, method="exact/flow", info=info, trace=trace,
        )  # fmt: skip
    stages.append({"stage": "routes", "status": second.status.value, "wall_time": second.wall_time})
    held["core_pairs"] = positive_arc_count_bound(instance)
    if second.solver_info.get("interrupted"):
        info["interrupted"] = True
    if second.objective is not None and second.objective > objective:
        order, objective = list(second.solution), float(second.objective)
    if second.bound is not None:
        bound = second.bound if bound is None else min(bound, second.bound)
    proven = second.is_optimal or (bound is not None and objective >= bound)
    info["routes"] = dict(second.solver_info)
    return finish(
        instance=instance, proven=proven, order=order, objective=objective, bound=bound,
        start=start, method="exact/routes", info=info, trace=[*trace, *second.trace],
    )  # fmt: skip
