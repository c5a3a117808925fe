"""Stage "additive bound": the path cover of the subtours' neighbourhood on the first bound.

Large lists only (at least ``FORK_MIN_ARCS`` network arcs), when the first iterate's support is
not connected. The card's section "Additive bound and neighbourhood search (large lists)"
(``models/wordsnake.md``) gives the bound, its soundness and the measurements.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from cpwords.wordsnake.bounds.cover_cuts import CoverCache
from cpwords.wordsnake.bounds.path_cover import PathCoverBound, path_cover_bound
from cpwords.wordsnake.exact.stages.certificate import TREE_CHECK_SHARE, TREE_MIN_SECONDS
from cpwords.wordsnake.exact.stages.checked_proof import proof_reserve
from cpwords.wordsnake.exact.state import AdditiveBound, FlowState, ProofState, publish
from cpwords.wordsnake.relaxation.decode import Decoded
from cpwords.wordsnake.relaxation.dual_certificate import dual_potentials, flow_certificate
from cpwords.wordsnake.relaxation.string_hub import DeadlineReached, StringHubNetwork


def additive_wanted(state: ProofState) -> bool:
    """On large networks, with the neighbourhood search on, once the first bound has a dual."""
    f = state.flow
    return (
        f is not None
        and bool(state.options["neighbourhood_search"])
        and f.large
        and f.best_seq is not None
        and f.best is not None
        and f.dual is not None
    )


def additive_bound(state: ProofState) -> None:
    """Stage "additive bound": bound the subtours' neighbourhood by a path cover priced with the
    first bound's certificate (:func:`~cpwords.wordsnake.bounds.path_cover.path_cover_bound`).

    Sets ``state.additive`` and lowers the flow's bound; nothing when the first iterate is one
    component or the deadline passes first.
    """
    f = state.flow
    assert f is not None and f.dual is not None and f.decoded is not None
    assert f.best_seq is not None and f.best is not None
    f.bound_before_refinement = f.bound
    f.report("additive bound")
    t0 = time.perf_counter()
    net, dec = f.net, f.decoded
    seeds = _subtour_words(net, dec)
    if not seeds:
        return
    deadline = f.deadline
    try:
        first = f.dual.value_scaled // f.dual.scale
        pi = dual_potentials(net, f.dual, deadline)
        _settle_on(f, pi)
        # The incumbent's word ids by its items' words (one gather: looking its words up one
        # by one took 0.3 s of the Letterpress command's 0.7 s stage).
        items = np.fromiter(f.best_seq, dtype=np.int64, count=len(f.best_seq))
        cert = flow_certificate(
            net,
            f.dual,
            (),
            f.best,
            first,
            deadline=deadline,
            potentials=pi,
            order_ids=net.item_word[items],
        )
        relaxed = _word_joints(net, dec)
        cache = CoverCache()  # the neighbourhood search's wider bounds take its components
        with f.plain_cost_released():  # the cover's peak reads no arc cost
            pc = path_cover_bound(
                cert,
                net.words,
                net.mult,
                seeds,
                deadline=deadline,
                relaxed=relaxed,
                cache=cache,
            )
    except DeadlineReached:
        return
    info: dict[str, Any] = {
        "path_cover": pc.info,
        "bound": pc.bound,
        "lp_bound": pc.lp_bound,
        "first_bound": first,
    }
    state.additive = AdditiveBound(
        t0, f.best_seq, f.best, seeds, pi, cert, relaxed, pc, info, cache
    )
    _keep_tree_time(state, f, pc)
    publish(state, None, None)


#: Seconds a word that the stages between the flow stages and the certificate take at most
#: before the cover's tree (reduced-cost fixing: 4.4 s on the union of the Czech and German
#: wordfreq lists, 1,136,346 words, 3.9 us a word).
TREE_LEAD_SECONDS_PER_WORD = 5.0e-6


def _keep_tree_time(state: ProofState, f: FlowState, pc: PathCoverBound) -> None:
    """When the cover's bound rests on its branch-and-cut (below what its linear relaxation
    proves), the certificate stage proves it by a tree on the cover, checked within
    :data:`~cpwords.wordsnake.exact.stages.certificate.TREE_CHECK_SHARE` times the check's
    reserve: the flow stages end early enough to leave that, the stages before the
    certificate (:data:`TREE_LEAD_SECONDS_PER_WORD`) and the tree's
    :data:`~cpwords.wordsnake.exact.stages.certificate.TREE_MIN_SECONDS`.

    Notes
    -----
    The union of the Czech and German wordfreq lists (300 s, 28.4 s of reserve): the
    neighbourhood search ran until 240 s of the flow stages' 271.6 s, past the 243.2 s by
    which the tree's check had to start, and the answer carried the values' bound 43,635,945
    instead of the cover's 43,635,941 (in one run of three with the same code).
    """
    if state.end is None or f.deadline is None or not pc.bound < pc.lp_bound:
        return
    n = state.instance.n
    keep = TREE_CHECK_SHARE * proof_reserve(state.instance) + TREE_MIN_SECONDS
    f.deadline = min(f.deadline, state.end - keep - TREE_LEAD_SECONDS_PER_WORD * n)


def _settle_on(f: FlowState, pi: np.ndarray) -> None:
    """Keep ``pi`` (the potentials with the implied capacities lifted) as the first iterate's
    warm potentials in place of those that settled it: :func:`dual_potentials` repairs them
    into themselves (no arc left to raise or lower, the same value), so the certificate's
    potentials stay the same, and the settled ones (0.16 GB on the whole Polish dictionary)
    are let go before the path cover and the neighbourhood search peak."""
    dual = f.dual
    if dual is None or dual.pi is None:
        return
    if f.settled is dual.pi:
        f.settled = pi
    dual.pi = pi


def _subtour_words(net: StringHubNetwork, dec: Decoded) -> list[int]:
    """The distinct words of the items outside the decoded flow's main component."""
    instance = net.instance
    N = instance.n
    comp = np.asarray(dec.comp)[:N]
    if not instance.cyclic:
        main = int(dec.comp[N])
    else:
        labels: list[int] = comp.tolist()
        main = max(set(labels), key=labels.count)
    outside = np.asarray(net.item_word)[:N][comp != main]
    return np.unique(outside).tolist()


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
