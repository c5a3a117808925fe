"""The default exact method's policy: its named stages, in the order of the card, and the loop
that runs them.

Adding or reordering a stage is a line in :data:`FLOW_STAGES` or :data:`SEARCH_STAGES` (and the
stage's own module); :data:`STAGES` lists them all, one to one with the card's list
(``models/wordsnake.md``, "The default `exact` method: its stages"; a test asserts it).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from cpwords.core.errors import InputError
from cpwords.core.interrupts import StopFlag, stop_scope
from cpwords.core.machine import available_memory
from cpwords.core.result import SolveResult
from cpwords.wordsnake.exact.flow_steps import length_bound
from cpwords.wordsnake.exact.stages.bound_descent import bound_descent, descent_wanted
from cpwords.wordsnake.exact.stages.certificate import certificate
from cpwords.wordsnake.exact.stages.checked_proof import checked_proof, proof_reserve
from cpwords.wordsnake.exact.stages.core_search import (
    core_search,
    core_search_wanted,
    search_log_start,
    search_wanted,
)
from cpwords.wordsnake.exact.stages.greedy_assignment import greedy_assignment
from cpwords.wordsnake.exact.stages.greedy_proof import greedy_proof
from cpwords.wordsnake.exact.stages.lagrangian_relaxation import lagrangian_relaxation
from cpwords.wordsnake.exact.stages.min_cost_flow import min_cost_flow
from cpwords.wordsnake.exact.stages.proof_tree import early_tree, early_tree_wanted
from cpwords.wordsnake.exact.stages.reduced_cost_fixing import reduced_cost_fixing
from cpwords.wordsnake.exact.stages.repair import repair
from cpwords.wordsnake.exact.stages.string_hub_network import build_network, first_deadline
from cpwords.wordsnake.exact.state import (
    STOP_PROOF_SECONDS,
    FlowOutcome,
    FlowState,
    PieceSolver,
    ProofState,
    Stage,
    flow_limits,
)
from cpwords.wordsnake.exact.state import ProgressCallback as StageProgress
from cpwords.wordsnake.formulations.common import (
    ProgressCallback,
    backend_info,
    check_limits,
    finish_result,
    items_of,
    score_order,
    stage_progress,
)
from cpwords.wordsnake.relaxation.flow import give_back_between
from cpwords.wordsnake.relaxation.string_hub import (
    DeadlineReached,
    StringHubNetwork,
    estimate_memory,
)
from cpwords.wordsnake.rules import WordsnakeInstance


# The stages that tighten a bound the greedy proof left open import their modules (the path
# cover bound, the large-neighbourhood search) when they are asked: a list the greedy proof
# settles, as all of ENABLE, never loads them (tests/wordsnake/test_imports.py).
def _additive() -> ModuleType:
    """The additive bound's module, imported when first asked."""
    from cpwords.wordsnake.exact.stages import additive_bound

    return additive_bound


def _neighbourhood() -> ModuleType:
    """The neighbourhood search's module, imported when first asked."""
    from cpwords.wordsnake.exact.stages import neighbourhood_search

    return neighbourhood_search


#: The network, built before the flow stages.
NETWORK = Stage("string-hub network", build_network)

#: The flow stages: the first bound and its ordering, then the bound tightened. They run on the
#: flow's state until one ends them (the incumbent meets the bound, or a limit).
FLOW_STAGES = (
    Stage("greedy assignment", lambda s: greedy_assignment(s.flow)),
    Stage("greedy proof", lambda s: greedy_proof(s.flow), lambda s: s.flow.reopt is not None),
    Stage("min-cost flow", lambda s: min_cost_flow(s.flow), lambda s: s.flow.flows is None),
    Stage("repair", lambda s: repair(s.flow)),
    Stage(
        "additive bound",
        lambda s: _additive().additive_bound(s),
        lambda s: _additive().additive_wanted(s),
    ),
    Stage(
        "neighbourhood search",
        lambda s: _neighbourhood().neighbourhood_search(s),
        lambda s: _neighbourhood().neighbourhood_wanted(s),
    ),
    Stage("Lagrangian relaxation", lambda s: lagrangian_relaxation(s.flow)),
)

#: The exact search of what the flow stages leave open.
SEARCH_STAGES = (
    Stage("reduced-cost fixing", reduced_cost_fixing),
    Stage("proof tree", early_tree, early_tree_wanted),
    Stage("core search", core_search, core_search_wanted),
    Stage("bound descent", bound_descent, descent_wanted),
)

#: The certificate of the bound: always computed (in memory when no file was asked for).
CERTIFICATE = Stage("certificate", certificate)

#: The certificate checked by the independent checker: its verdict sets the status.
CHECKED_PROOF = Stage("checked proof", checked_proof)

#: Most of the time limit the certificate and its check keep at its end (the stages keep the
#: rest, however large the list: a limit too short for the check still gets an ordering).
PROOF_SHARE = 0.5

#: A small list (at most this many items and :data:`SMALL_MAX_ARCS` positive arcs) gives its
#: flow stages at most :data:`SMALL_FLOW_SHARE` of the limit: the rest is the exact search's.
SMALL_MAX_ITEMS = 20_000

#: Most positive-overlap arcs of a small list (:func:`positive_arc_count_bound`).
SMALL_MAX_ARCS = 400_000

#: The share of the limit the flow stages of a small list may take.
SMALL_FLOW_SHARE = 0.4

#: Every stage of the default method, in order (the card's list).
STAGES = (NETWORK, *FLOW_STAGES, *SEARCH_STAGES, CERTIFICATE, CHECKED_PROOF)


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
    checked: bool = True,
) -> SolveResult:
    """The default exact method: the stages of :data:`STAGES`, in order (:func:`run` says what
    each step does). The dual bound reported is the best of the bounds proven along the way.

    Parameters
    ----------
    instance : WordsnakeInstance
    time_limit : float or None
        Seconds for the whole policy, counted from ``start``.
    workers : int
        Solver threads.
    seed : int
    hint : sequence of str, optional
        A starting ordering (the initial incumbent).
    progress : callable, optional
        ``progress(elapsed, incumbent, bound[, stage])``.
    start : float, optional
        ``time.perf_counter()`` at which the time limit started (default: now).
    lagrangian_iterations : int
        Most flow solves spent tightening the bound (0: the relaxation's bound only).
    core_search : {"mip", "cpsat"}
        How the core left by reduced-cost fixing is searched: HiGHS branch-and-cut with
        repeated words as one node of multiplicity k
        (:func:`~cpwords.wordsnake.closure.core.solve_core_mip`, the default: measured faster),
        or CP-SAT's routes constraint over the items
        (:func:`~cpwords.wordsnake.closure.core.solve_core`).
    certificate : bool
        Also return the certificate of the bound in ``solver_info["certificate"]``
        (:func:`~cpwords.wordsnake.relaxation.dual_certificate.flow_certificate`; None with
        ``solver_info["certificate_error"]`` when stopped before the first flow bound or by the
        time limit). It is computed and checked in any case (``pipeline.checked``) unless
        ``checked`` is False (the neighbourhood search's own solves of pieces: the solver's word).
    neighbourhood_search : bool
        On large lists whose first bound leaves a gap: the additive bound
        (:func:`~cpwords.wordsnake.bounds.path_cover.path_cover_bound`) and the exact
        re-ordering of the pieces around it (:func:`~cpwords.wordsnake.primal.lns.reorder_pieces`);
        False skips both (the pieces' own solve uses it so).

    Returns
    -------
    SolveResult
        OPTIMAL only when the certificate checks VALID (``proof``: ``"certificate"``), else
        FEASIBLE with the checked bound (``solver_bound``: the solver's). ``method`` names the
        stage that finished (``exact/flow`` or ``exact/core``);
        ``solver_info["stages"]`` logs the flow and core stages;
        ``solver_info["interrupted"]`` is True after Ctrl-C, SIGTERM or SIGHUP: the best
        ordering so far, FEASIBLE unless checked optimal (:func:`run_stage`).

    Raises
    ------
    InputError
        Non-positive limits, or an instance too large for the memory available.
    """
    options = {
        "time_limit": time_limit,
        "workers": workers,
        "seed": seed,
        "hint": hint,
        "progress": progress,
        "lagrangian_iterations": lagrangian_iterations,
        "core_search": core_search,
        "certificate": certificate,
        "neighbourhood_search": neighbourhood_search,
        "checked": checked,
    }
    return _solve(instance, options, start)


def _solve(
    instance: WordsnakeInstance, options: dict[str, Any], start: float | None
) -> SolveResult:
    """:func:`solve_exact` on its gathered options: they are checked, a list of one distinct
    word is answered at once, any other has its memory checked and the stages run, under the
    solve's stop (:func:`~cpwords.core.interrupts.stop_scope`: Ctrl-C, SIGTERM and SIGHUP set
    it; a stage sees it at its next check and returns with what it has)."""
    time_limit = options["time_limit"]
    check_limits(time_limit, options["workers"])
    if options["core_search"] not in ("mip", "cpsat"):
        raise InputError(f"core_search must be 'mip' or 'cpsat', got {options['core_search']!r}")
    with stop_scope() as stop, stop.held():
        state = _begin(instance, options, start, stop)
        if instance.n == 1 or len(set(instance.words)) == 1:
            state.order = list(instance.words)
            state.objective = state.bound = float(score_order(instance, state.order))
            state.proven = True
            return _finish_state(state)
        check_memory(instance)
        state.small = small_list(instance)
        if state.small and time_limit is not None and state.deadline is not None:
            state.flow_deadline = min(state.deadline, state.start + SMALL_FLOW_SHARE * time_limit)
        run(state)
        return _finish_state(state)


def positive_arc_count_bound(instance: WordsnakeInstance) -> int:
    """Upper bound on the number of positive-overlap arcs: pairs with last(a) == first(b).

    Parameters
    ----------
    instance : WordsnakeInstance

    Returns
    -------
    int
        The sum over letters ``c`` of (words ending in ``c``) x (words starting with ``c``);
        O(n) from the first- and last-letter histograms.

    Examples
    --------
    >>> positive_arc_count_bound(WordsnakeInstance(("run", "nausea", "seasick")))
    1
    """
    shortest = 2 if instance.proper else 1
    ends: dict[str, int] = {}
    starts: dict[str, int] = {}
    for w in instance.words:
        if len(w) >= shortest:
            ends[w[-1]] = ends.get(w[-1], 0) + 1
            starts[w[0]] = starts.get(w[0], 0) + 1
    return sum(c * starts.get(k, 0) for k, c in ends.items())


def small_list(instance: WordsnakeInstance) -> bool:
    """Whether the flow stages keep at most :data:`SMALL_FLOW_SHARE` of the limit (a list of at
    most :data:`SMALL_MAX_ITEMS` items and :data:`SMALL_MAX_ARCS` positive arcs)."""
    return instance.n <= SMALL_MAX_ITEMS and positive_arc_count_bound(instance) <= SMALL_MAX_ARCS


def run_stage(state: ProofState, stage: Stage, after_stop: bool = False) -> bool:
    """Run ``stage`` on ``state`` unless a stop was asked (``after_stop``: even then, as the
    certificate is); whether no stop was asked after it.

    Ctrl-C, SIGTERM and SIGHUP set the solve's stop (``state.stop``), the one place the stages
    look at. Inside a stage a signal also raises ``KeyboardInterrupt`` (the check of code that
    cannot look at the stop: a native solve, a NumPy pass); the stage keeps what it has, and
    an interrupt that leaves it asks the stop here. Outside, in the policy's own bookkeeping,
    signals only set the stop, and the stages after it are skipped. After a stop the
    certificate and its check run only when they fit in
    :data:`~cpwords.wordsnake.exact.state.STOP_PROOF_SECONDS` (else the solver's bound is
    reported, ``bound_checked`` False).
    """
    stop = state.stop
    if stop.asked and not after_stop:
        return False
    # The heap's freed blocks of the stages before go back to the kernel: the stage's own
    # arrays seldom fit in their holes, and they counted in its peak (977,555 31-mers of C.
    # elegans: the certificate's 2,394 -> 2,094 MiB, the repair's 2,399 -> 2,329).
    give_back_between(state.net)
    try:
        with stop.raising():
            stage.run(state)
    except KeyboardInterrupt:
        stop.ask("interrupt")
    return not stop.asked


def run(state: ProofState) -> None:
    """Run the stages on ``state``: the network, the flow stages, the search.

    1. The string-hub network, then the flow stages: the greedy assignment proven optimal by
       potentials (or the min-cost flow solved cold), its cycles repaired into an ordering,
       on large lists the additive bound and the neighbourhood search, then the Lagrangian
       relaxation of the connectivity cuts. A connected support is an ordering scoring the
       bound: OPTIMAL with no MIP (all of ENABLE and of web2, measured).
    2. If a gap remains, reduced-cost fixing keeps only the joints an ordering scoring above the
       incumbent may use, and an exact search of that core takes the rest of the time: a proof
       that nothing in the core beats the incumbent is a proof for the whole list. A core too
       large for the search goes to the bound descent instead: proof trees at targets
       descending from the bound, each lowering it by a certificate, until the incumbent is
       proven optimal or the time runs out.

    After a stop (Ctrl-C, SIGTERM, SIGHUP), every stage still to run is skipped.
    """
    _run_network_and_flow(state)
    _take_flow_result(state)
    if search_wanted(state):
        _run_search(state)
    else:
        state.method = "exact/flow"


def _begin(
    instance: WordsnakeInstance, options: dict[str, Any], start: float | None, stop: StopFlag
) -> ProofState:
    """The state before the first stage: the stages end early enough to leave the certificate
    and its check their time (:func:`~cpwords.wordsnake.exact.stages.checked_proof.proof_reserve`,
    at most :data:`PROOF_SHARE` of the limit), all of it within the limit; ``stop`` is the
    solve's."""
    entered = time.perf_counter()
    start = entered if start is None else start
    limit = options["time_limit"]
    end = deadline = None if limit is None else start + limit
    if limit is not None and (options["checked"] or options["certificate"]):
        deadline = start + limit - min(proof_reserve(instance), PROOF_SHARE * limit)
    info = backend_info(
        "min-cost-flow",
        formulation="string-hub",
        workers=options["workers"],
        seed=options["seed"],
    )
    return ProofState(
        instance,
        options,
        start,
        entered,
        deadline,
        deadline,
        False,
        stage_progress(options["progress"]),
        info,
        end,
        piece_solver=_piece_solver(options["workers"], options["seed"]),
        stop=stop,
    )


def _piece_solver(workers: int, seed: int) -> PieceSolver:
    """The neighbourhood search's solve of its pieces: this method without that search, and
    unchecked (the pieces' answers are the search's, the whole list is checked)."""

    def solve(sub: WordsnakeInstance, limit: float | None) -> SolveResult:
        return solve_exact(
            sub,
            time_limit=limit,
            workers=workers,
            seed=seed,
            neighbourhood_search=False,
            checked=False,
        )

    return solve


def _run_network_and_flow(state: ProofState) -> None:
    """The network, then the flow stages until one ends them or a stop is asked. A stop while
    building the network leaves no flow; the deadline inside the flow stages drops their
    result."""
    stop = state.stop
    try:
        if not run_stage(state, NETWORK):
            return
        assert state.net is not None
        hint = state.options["hint"]
        state.flow = FlowState.begin(
            state.net,
            deadline=state.flow_deadline,
            start=state.start,
            first_deadline=first_deadline(state),
            progress=state.on_progress,
            lagrangian_iterations=state.options["lagrangian_iterations"],
            incumbent=None if hint is None else items_of(state.instance, hint),
            stop=stop,
        )
        f = state.flow
        with flow_limits(f):
            for stage in FLOW_STAGES:
                if f.ended or stop.asked:
                    break
                if stage.wanted(state):
                    give_back_between(state.net)  # as :func:`run_stage` does
                    with stop.raising():
                        stage.run(state)
        state.out = f.outcome()
        # No repair after the flow stages: the certificate peaks without the candidate index
        # (0.6 GB on 977,555 31-mers of C. elegans).
        f.drop_index()
    except DeadlineReached:
        state.info["stopped"] = "time"


def _take_flow_result(state: ProofState) -> None:
    """The incumbent and the bound the flow stages left (the hint, or the input order, when
    they gave none), and the flow stage's log."""
    out, info, words = state.out, state.info, state.instance.words
    info.update(out.info if out is not None else {})
    info["time_limit"] = state.options["time_limit"]
    hint = state.options["hint"]
    start = list(hint) if hint is not None else list(words)  # the given ordering, or the input's
    if out is not None and out.order is not None:
        state.order = [words[i] for i in out.order]
        state.flow_order = (state.order, out.order)
        state.objective = float(out.objective or 0)
        if out.info.get("greedy_cut") and out.dual is None and hint is None:
            # A greedy matching cut short (a stop, a limit), its free ends joined through the
            # depot, may score less than the input order (the French wordfreq list's matching
            # stopped 4.7 s in: 27,203 against 4,868,119).
            given = float(score_order(state.instance, start))
            if given > state.objective:
                state.order, state.objective = start, given
    else:  # stopped before any ordering
        state.order = start
        state.objective = float(score_order(state.instance, state.order))
    if out is None or out.bound is None:  # stopped before any flow bound: the words' lengths
        state.bound = float(length_bound(state.instance))
        info["length_bound"] = int(state.bound)
    else:
        state.bound = float(out.bound)
    state.proven = state.objective >= state.bound
    state.stages.append({"stage": "flow", "wall_time": state.elapsed(), "proven": state.proven})
    info["stages"] = state.stages


def _run_search(state: ProofState) -> None:
    """Reduced-cost fixing, the proof tree, the core search and the bound descent, logged as one
    stage ``core``, until a stop is asked (a core too large for the search goes to the bound
    descent, its log saying ``too_large``)."""
    t_core = search_log_start(state)
    log = state.stages[-1]
    try:
        for stage in SEARCH_STAGES:
            if stage.wanted(state) and not run_stage(state, stage):
                break
    except DeadlineReached:
        state.info["stopped"] = "time"
    log["wall_time"] = time.perf_counter() - t_core
    log["proven"] = state.proven
    state.method = "exact/core"


def _finish_state(state: ProofState) -> SolveResult:
    """The result: the stop reason, the certificate when asked for, the checked answer.

    After a stop, the certificate and its check are bounded: they must end within
    :data:`~cpwords.wordsnake.exact.state.STOP_PROOF_SECONDS` (or the limit, if sooner), else
    the solver's bound is reported, marked unchecked (FEASIBLE, never OPTIMAL unchecked).
    """
    info = state.info
    info["solve_time"] = time.perf_counter() - state.entered  # without start-up and reading
    early = state.deadline is None or time.perf_counter() < state.deadline - 1.0
    if not state.proven and early and not state.interrupted:
        # Every stage ended before the limit with the gap open (a bound descent with no target
        # left to try, say): not stopped by the limit, and said so.
        info.setdefault("stopped", "exhausted")
    if state.options["checked"] or state.options["certificate"]:
        _stop_bounds_the_proof(state)
        run_stage(state, CERTIFICATE, after_stop=True)
    if state.options["checked"]:
        _stop_bounds_the_proof(state)  # a stop during the certificate bounds its check
        CHECKED_PROOF.run(state)  # its check stops on a signal
    if not state.options["certificate"]:
        info.pop("certificate", None)
    info["interrupted"] = state.interrupted
    return finish_result(
        instance=state.instance,
        proven=state.proven,
        order=state.order,
        objective=state.objective,
        bound=state.bound,
        start=state.start,
        method=state.method,
        info=info,
        trace=state.trace,
    )


def _stop_bounds_the_proof(state: ProofState) -> None:
    """After a stop, the certificate and its check end within
    :data:`~cpwords.wordsnake.exact.state.STOP_PROOF_SECONDS` from now (or the limit)."""
    if state.stop.asked:
        soon = time.perf_counter() + STOP_PROOF_SECONDS
        state.end = soon if state.end is None else min(state.end, soon)


def check_memory(instance: WordsnakeInstance) -> None:
    """Refuse, in one line, an instance whose exact solve would not fit in memory.

    Raises
    ------
    InputError
        When :func:`~cpwords.wordsnake.relaxation.string_hub.estimate_memory` exceeds
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


def solve_string_flow(
    net: StringHubNetwork,
    *,
    deadline: float | None = None,
    start: float | None = None,
    progress: StageProgress | None = None,
    lagrangian_iterations: int = 50,
    stall_limit: int = 6,
    incumbent: list[int] | None = None,
) -> FlowOutcome:
    """Flow relaxation, certificate, repair and Lagrangian bound on a string-hub network.

    The flow stages of the default method without the additive bound and the neighbourhood
    search: greedy assignment, greedy proof, min-cost flow, repair, Lagrangian relaxation
    (:mod:`~cpwords.wordsnake.models.pipeline`).

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

    Returns
    -------
    FlowOutcome
        Never raises on the flow solver's deadline or Ctrl-C: they end the stages with
        ``stopped`` set (a ``DeadlineReached`` of the decoding is raised).
    """
    f = FlowState.begin(
        net,
        deadline=deadline,
        start=start,
        progress=progress,
        lagrangian_iterations=lagrangian_iterations,
        stall_limit=stall_limit,
        incumbent=incumbent,
    )
    with flow_limits(f):
        greedy_assignment(f)
        if f.reopt is not None:
            greedy_proof(f)
        if f.flows is None:
            min_cost_flow(f)
        for stage in (repair, lagrangian_relaxation):
            if f.ended:
                break
            stage(f)
    return f.outcome()
