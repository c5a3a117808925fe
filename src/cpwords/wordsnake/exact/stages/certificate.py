"""Stage "certificate": a dual certificate of the bound of a finished solve.

The additive bound's certificate when it proved the bound, else the best flow iterate's
(:func:`~cpwords.wordsnake.relaxation.dual_certificate.flow_certificate`); when the solver proved
more than the values do (a core search closed the gap), a proof tree on the core makes it a
version 2 certificate (:mod:`~cpwords.wordsnake.closure.proof_tree`). A version 1
certificate whose values still prove more than the ordering scores gets Hungarian dual steps on Hall
sets of its zero-slack joints (:func:`~cpwords.wordsnake.bounds.hall_step.hall_step`). A certificate
without a tree claims only what its values prove (the solver's bound and the search's size kept in
its ``producer``): it checks VALID with the gap open, never PARTIAL. An answer left open whose bound
is the path cover's integer bound gets a tree on the cover at that bound, which certifies it. Format
and checker: card, "Certificates: a bound anyone can check".
"""

from __future__ import annotations

import time
import weakref
from collections import Counter
from dataclasses import replace

import numpy as np

from cpwords.wordsnake.bounds.path_cover import PathCoverBound
from cpwords.wordsnake.certificate import Certificate, IntColumn
from cpwords.wordsnake.exact.stages.checked_proof import fits_after_stop, proof_reserve
from cpwords.wordsnake.exact.state import ProofState
from cpwords.wordsnake.relaxation.dual_certificate import (
    flow_certificate,
    id_column,
    single_word_certificate,
    word_ids,
)
from cpwords.wordsnake.relaxation.string_hub import DeadlineReached

#: Seconds the proof tree may take at least (when the time limit leaves them).
TREE_MIN_SECONDS = 5.0

#: The proof tree may take this many times the solve so far (within the limit): the tree is
#: the only way to OPTIMAL once the solver has proved more than its values. `abc` n=1,000
#: seed 3 needs about 1.5x its 6.5 s solve (a root of complete cuts, then 3 nodes).
TREE_SOLVE_RATIO = 2.0

#: When the core's tree does not close within :data:`TREE_SOLVE_RATIO`, a tree by strong
#: branching may take this many times the solve so far, within the limit: the default method
#: does not give up with time left (issue 46: `l545`, 73 {a,b} words, ended FEASIBLE with a gap
#: of 6 after 5.5 s of a 60 s limit while ``--method mip`` proves it; the strong tree closes
#: it in 9 nodes).
STRONG_TREE_RATIO = 20.0

#: The share of :func:`~cpwords.wordsnake.exact.stages.checked_proof.proof_reserve` the check
#: keeps when a proof tree is built (the rest is the certificate's: the check measured at 8-26
#: us a word against the reserve's 10 us a word and 1.5 us a letter).
CHECK_SHARE = 0.8

#: The share of the reserve kept for checking an open answer's tree on the cover: a tree's
#: check takes up to about twice the root-only check (``benchmarks/check_ratio.py``).
TREE_CHECK_SHARE = 2.0


def certificate(state: ProofState) -> None:
    """Stage "certificate": ``solver_info["certificate"]`` (None with
    ``solver_info["certificate_error"]`` when none can be given) and its time.

    After a stop (``state.stop``), only the certificate of the values, and only when it and
    its check fit in the time left (:func:`~.checked_proof.fits_after_stop`): no proof tree
    and no Hall step, which are searches too; a stop during one ends it with what it has.
    """
    t_cert = time.perf_counter()
    left = state.left_in_limit()
    if state.stop.asked and not fits_after_stop(state):
        state.info["certificate"] = None
        state.info["certificate_error"] = "stopped before the certificate could be computed"
        return
    if left is not None and left <= 0:  # it could not be checked: none is computed
        state.info["certificate"] = None
        state.info["certificate_error"] = (
            "the time limit passed before the certificate was computed"
        )
        return
    # The stage "proof tree" proved the ordering optimal (nothing after it changes a proven
    # ordering): its certificate, not the flow's again.
    cert = state.early_certificate or solve_certificate(state)
    tree = state.options.get("checked", True) and state.proven and not state.stop.asked
    covered = None  # an open answer's tree at the cover's bound
    if cert is not None and tree and not cert.tree and values_bound(state, cert) > cert.objective:
        cert = _with_tree(state, cert)
    elif cert is not None and not state.proven and not cert.tree:
        covered = _with_cover_bound_tree(state, cert)
    # After a stop, no Hall step: it is a search too.
    stepping = (
        cert is not None and not cert.tree and not state.stop.asked and not _hall_done(state, cert)
    )
    if stepping and cert is not None and values_bound(state, cert) > cert.objective:
        # Hall steps may prove less than the cover's tree, or more (the Chinese list's last
        # point): the lower bound is kept, and the steps leave a tree's check its time.
        keep = CHECK_SHARE if covered is None or not covered.tree else TREE_CHECK_SHARE
        cert = _with_hall_steps(state, cert, keep)
        if covered is not None and covered.tree:
            if values_bound(state, cert) > covered.bound:
                cert = covered
            state.info["proof_tree_kept"] = cert is covered
    elif covered is not None and covered.tree:
        cert = covered  # stopped after the cover's tree: it proves more than the values
    if cert is not None and cert.core_pairs is not None and not cert.tree:
        cert = _values_claim(state, cert)
    state.info["certificate"] = cert
    state.info["certificate_time"] = time.perf_counter() - t_cert


def _values_claim(state: ProofState, cert: Certificate) -> Certificate:
    """``cert`` claiming what its values prove: a bound that also rests on a search no tree
    covers is the solver's word, not the certificate's. The solver's bound and the search's
    size are kept in ``producer`` (``solver_bound``, ``searched_core_pairs``): the file checks VALID
    with the gap left open instead of PARTIAL."""
    producer = {**cert.producer, "solver_bound": cert.bound, "searched_core_pairs": cert.core_pairs}
    return replace(cert, bound=values_bound(state, cert), core_pairs=None, producer=producer)


def values_bound(state: ProofState, cert: Certificate) -> int:
    """The bound the certificate's values prove (the checker's, without the check), computed
    once a certificate (the stage asks up to three times).

    Parameters
    ----------
    state : ProofState
    cert : Certificate
        Of ``state``'s list.

    Returns
    -------
    int
        The values' dual bound, in score points.
    """
    last = _LAST_VALUES[0]
    if last is not None and last[0]() is cert:
        return last[1]
    value = cert.dual_value(_multiplicities(state)) // cert.scale
    _LAST_VALUES[0] = (weakref.ref(cert), value)
    return value


#: The last certificate whose values' bound was computed (held weakly), and that bound.
_LAST_VALUES: list[tuple[weakref.ref[Certificate], int] | None] = [None]


def _multiplicities(state: ProofState) -> list[int]:
    """The multiplicity of each distinct word in code-point order (no copy of the words)."""
    if state.net is not None:
        return state.net.mult.tolist()
    return _distinct(state)[1]


def _distinct(state: ProofState) -> tuple[list[str], list[int]]:
    """The distinct words in code-point order and their multiplicities: the network's when it
    is built (counting and sorting the items again took 0.07 s a call on ENABLE)."""
    if state.net is not None:
        return list(state.net.words), state.net.mult.tolist()
    counts = Counter(state.instance.words)
    words = sorted(counts)
    return words, [counts[w] for w in words]


def _with_tree(state: ProofState, cert: Certificate) -> Certificate:
    """The solver proved more than the values do: the version 2 certificate with a proof tree,
    on the path cover when the proof rests on the additive bound's branch-and-cut
    (:func:`~cpwords.wordsnake.closure.cover_tree.cover_tree_certificate`), else on the core
    (a core search: :func:`~cpwords.wordsnake.closure.proof_tree.tree_certificate`), within
    the time left and at most :data:`TREE_SOLVE_RATIO` times the solve so far, and leaving the
    check its share of the reserve; ``cert`` when none is found."""
    from cpwords.wordsnake.closure.cover_tree import cover_tree_certificate
    from cpwords.wordsnake.closure.proof_tree import tree_certificate

    until = _until(state, TREE_SOLVE_RATIO)
    t0 = time.perf_counter()
    cover = _cover_behind(state, cert)
    try:
        if cover is not None and cover.data is not None and cover.bound <= cert.objective:
            # The solver's bound rests on the cover: its integer cover meets the ordering.
            tree = cover_tree_certificate(cert, cover.data, *_distinct(state), deadline=until)
            state.info["proof_tree_kind"] = "path cover"
        else:
            tree = tree_certificate(state.instance, cert, deadline=until)
            state.info["proof_tree_kind"] = core_tree_kind(tree)
    except KeyboardInterrupt:  # Ctrl-C inside a tree: the values' certificate, no other tree
        state.interrupted = True
        tree = None
    if tree is None and not state.interrupted and state.info["proof_tree_kind"].startswith("core"):
        tree = _strong_tree(state, cert)
    state.info["proof_tree_time"] = time.perf_counter() - t0
    state.info["proof_tree_nodes"] = None if tree is None else len(tree.tree)
    return cert if tree is None else tree


def core_tree_kind(tree: Certificate | None) -> str:
    """The ``proof_tree_kind`` of a tree on the core: ``"core, strong branching"`` when its
    producer says it was built so (:func:`~cpwords.wordsnake.closure.proof_tree.tree_certificate`
    tries a strong tree on a small core), else ``"core"``.

    Parameters
    ----------
    tree : Certificate or None

    Returns
    -------
    str

    Examples
    --------
    >>> core_tree_kind(None)
    'core'
    """
    strong = tree is not None and tree.producer.get("branching") == "strong"
    return "core, strong branching" if strong else "core"


def _strong_tree(state: ProofState, cert: Certificate) -> Certificate | None:
    """The core's tree did not close in its time: the time left (less the check's share of the
    reserve, at most :data:`STRONG_TREE_RATIO` times the solve so far) goes to a tree by strong
    branching (:data:`~cpwords.wordsnake.closure.proof_tree.STRONG_CANDIDATES`), which the
    certificate carries like any tree; None when it does not close either, or after a stop."""
    from cpwords.wordsnake.closure.proof_tree import STRONG_CANDIDATES, tree_certificate

    if state.interrupted or state.stop.asked:
        return None
    until = _until(state, STRONG_TREE_RATIO)
    if until - time.perf_counter() < TREE_MIN_SECONDS:
        return None
    try:
        tree = tree_certificate(state.instance, cert, deadline=until, strong=STRONG_CANDIDATES)
    except KeyboardInterrupt:
        state.interrupted = True
        return None
    if tree is not None:
        state.info["proof_tree_kind"] = "core, strong branching"
    return tree


def _with_cover_bound_tree(state: ProofState, cert: Certificate) -> Certificate:
    """An answer left open whose bound is the path cover's integer bound (its branch-and-cut):
    a proof tree on the cover at that bound + 1
    (:func:`~cpwords.wordsnake.closure.cover_tree.cover_tree_certificate`) certifies it, the gap
    to the ordering left open. Within the time left less :data:`TREE_CHECK_SHARE` times the
    check's reserve and at most :data:`TREE_SOLVE_RATIO` times the solve so far; ``cert`` when
    no tree is found.

    Notes
    -----
    The Japanese wordfreq list at 300 s: 11 nodes in 0.19 s, checked VALID in 3.8 s at the
    cover's 1,197,674 (its values alone prove 1,197,681).
    """
    from cpwords.wordsnake.closure.cover_tree import cover_tree_certificate

    if not state.options.get("checked", True) or state.interrupted:
        return cert
    cover = _cover_behind(state, cert)
    if cover is None or cover.data is None:
        return cert
    if not cert.objective <= cover.bound < values_bound(state, cert):
        return cert
    now = time.perf_counter()
    until = _until(state, TREE_SOLVE_RATIO, TREE_CHECK_SHARE)
    if until <= now:
        return cert
    try:
        tree = cover_tree_certificate(
            cert, cover.data, *_distinct(state), deadline=until, target=cover.bound + 1
        )
    except KeyboardInterrupt:
        state.interrupted = True
        tree = None
    state.info.update(
        proof_tree_kind="path cover (its bound)",
        proof_tree_time=time.perf_counter() - now,
        proof_tree_nodes=None if tree is None else len(tree.tree),
    )
    return cert if tree is None else tree


#: Seconds a Hall step takes a word (the Chinese wordfreq list: 6.3-7.0 s for 332,191 words).
#: A step is not started with less time than this: its searches check the clock every 256
#: nodes, and one over-ran 0.5 s of time to 2.3 s on that list.
HALL_SECONDS_PER_WORD = 2.5e-5


def _with_hall_steps(
    state: ProofState, cert: Certificate, keep: float = CHECK_SHARE
) -> Certificate:
    """A gap is left under the values: Hungarian dual steps on Hall sets of the zero-slack
    joints (:func:`~cpwords.wordsnake.bounds.hall_step.hall_step`) lower the bound when they
    can, at most as long again as the solve so far and leaving the check ``keep`` times the
    reserve; ``cert`` when no step is made."""
    from cpwords.wordsnake.bounds.hall_step import hall_step

    now = time.perf_counter()
    until = _until(state, 1.0, keep)
    if until - now < HALL_SECONDS_PER_WORD * state.instance.n:
        return cert  # not time for one step: its searches look at the clock only now and then
    t0 = time.perf_counter()
    try:
        stepped = hall_step(cert, _distinct(state)[0], deadline=until)
    except KeyboardInterrupt:
        state.interrupted = True
        stepped = None
    state.info["hall_step_time"] = time.perf_counter() - t0
    state.info["hall_steps"] = 0 if stepped is None else stepped.producer["hall_steps"]
    return cert if stepped is None else stepped


def _hall_done(state: ProofState, cert: Certificate) -> bool:
    """Whether the neighbourhood search's Hall steps already ran to their end without a step
    from ``cert``'s values and ordering (the same search again would find none: the union of
    the Czech and German wordfreq lists spent 34.5 s on it after the search's 31.8 s)."""
    add = state.additive
    if add is None or add.hall_done is None:
        return False
    done, ids = add.hall_done
    same = done.u == cert.u and done.v == cert.v and done.depot == cert.depot
    same = same and done.scale == cert.scale and done.cuts == cert.cuts
    return bool(same and np.array_equal(np.asarray(cert.order), ids))


def _until(state: ProofState, ratio: float, keep: float = CHECK_SHARE) -> float:
    """When a certificate step that follows the solve must end: ``ratio`` times the solve so
    far (:data:`TREE_MIN_SECONDS` at least), within the limit less ``keep`` times the check's
    reserve (the stages left it the reserve)."""
    now = time.perf_counter()
    until = now + max(TREE_MIN_SECONDS, ratio * (now - state.start))
    if state.end is not None:
        until = min(until, state.end - proof_reserve(state.instance) * keep)
    return until


def _cover_behind(state: ProofState, cert: Certificate) -> PathCoverBound | None:
    """The additive bound's cover when ``cert`` is its certificate, else None."""
    add = state.additive
    if add is None or "additive_bound" not in cert.producer:
        return None
    return add.cover if add.cover.certificate.u == cert.u else None


def solve_certificate(state: ProofState) -> Certificate | None:
    """The certificate of the finished solve, or None (the reason in ``state.info``); it too
    stops at the solve's deadline (the time limit covers the whole command)."""
    info, instance = state.info, state.instance
    if not state.order:
        info["certificate_error"] = "no ordering to certify"
        return None
    objective = int(state.objective)
    if (len(set(instance.words)) if state.net is None else state.net.num_words) == 1:
        return single_word_certificate(instance, state.order, objective)
    net, out = state.net, state.out
    if net is None or out is None or out.dual is None:
        info["certificate_error"] = "stopped before the first flow bound"
        return None
    flow_bound = out.dual.value_scaled // out.dual.scale
    claimed = _claimed(state, flow_bound)
    refined = out.refined
    if refined is not None and refined.certificate is not None:
        proved = int(refined.info.get("lp_bound", flow_bound))
        if proved <= flow_bound:
            # The additive bound's certificate: its values prove ``proved``.
            core = None
            if claimed < proved:
                core = state.core_pairs or refined.certificate.core_pairs
            return replace(
                refined.certificate,
                order=_order_ids(state),
                objective=objective,
                bound=claimed,
                core_pairs=core,
                producer={
                    "method": state.method,
                    "flow_bound": flow_bound,
                    "additive_bound": proved,
                },
            )
    return _flow_certificate(state, claimed, flow_bound)


def _order_ids(state: ProofState) -> IntColumn:
    """The incumbent's word ids in the network: its items' words (one gather) while the
    incumbent is the flow stages' ordering (``state.flow_order``: the same list object), else
    looked up word by word (:func:`~cpwords.wordsnake.relaxation.dual_certificate.word_ids`:
    0.06 s on ENABLE, whose strings lie all over memory)."""
    net = state.net
    assert net is not None
    if state.flow_order is not None and state.flow_order[0] is state.order:
        items = state.flow_order[1]
        ids = net.item_word[np.fromiter(items, dtype=np.int64, count=len(items))]
        return id_column(ids, net.num_words)
    return word_ids(net, state.order)


def _claimed(state: ProofState, flow_bound: int) -> int:
    """The bound the certificate claims: the optimum when proven, else the reported bound."""
    if state.proven and state.bound is not None:
        return int(state.objective)
    if state.bound is not None:
        return int(state.bound)
    return flow_bound


def _flow_certificate(state: ProofState, claimed: int, flow_bound: int) -> Certificate | None:
    """The best flow iterate's certificate of ``claimed`` (a core search named by its size
    when the claim is below the flow's bound)."""
    assert state.net is not None and state.out is not None and state.out.dual is not None
    core_pairs = state.core_pairs if claimed < flow_bound else None
    try:
        return flow_certificate(
            state.net,
            state.out.dual,
            state.order,
            int(state.objective),
            claimed,
            core_pairs=core_pairs,
            producer={"method": state.method, "flow_bound": flow_bound},
            deadline=state.end,
            order_ids=_order_ids(state),
        )
    except KeyboardInterrupt:
        state.interrupted = True
        state.info["certificate_error"] = "interrupted while computing the certificate"
        return None
    except DeadlineReached:
        error = "the time limit passed before the certificate was computed"
        state.info["certificate_error"] = error
        return None
