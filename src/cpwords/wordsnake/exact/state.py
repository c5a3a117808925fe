"""The state the default method's stages take and return.

:class:`FlowState` is what the flow stages share (the incumbent as an item sequence, the bound,
the best dual iterate, the Lagrangian multipliers, the running flow solves, the counters the
report prints); :class:`ProofState` is the policy's (the flow's state, the incumbent as words,
the bound, the deadline, the stages' log). :class:`Stage` names one step of the policy.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpwords.core.interrupts import StopFlag, held_here
from cpwords.core.result import SolveResult, TracePoint
from cpwords.wordsnake.bounds.cover_cuts import CoverCache
from cpwords.wordsnake.bounds.path_cover import PathCoverBound
from cpwords.wordsnake.primal.repair import CandidateIndex, PairScore, score_sequence
from cpwords.wordsnake.relaxation.assignment import Reoptimizer
from cpwords.wordsnake.relaxation.decode import Decoded
from cpwords.wordsnake.relaxation.flow import FORK_MIN_ARCS, FlowDual, FlowJob, FlowStopped
from cpwords.wordsnake.relaxation.sparse_flow import SparseFlow
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork
from cpwords.wordsnake.rules import WordsnakeInstance

#: ``piece_solver(instance, time_limit)``: an exact solve of a sub-list.
PieceSolver = Callable[[WordsnakeInstance, float | None], SolveResult]

#: Seconds the certificate and its check may take after a stop (Ctrl-C, SIGTERM, the page's
#: Stop): an ordering and its bound are owed within a second of the signal.
STOP_PROOF_SECONDS = 0.5

#: Arcs compared at a time when :meth:`FlowState.plain_cost_released` checks that the costs are
#: still the plain ones (its temporaries stay this size).
PLAIN_CHECK = 1 << 20

#: ``progress(elapsed, incumbent, bound, stage)``.
ProgressCallback = Callable[[float, float | None, float | None, str], None]


@dataclass
class Refinement:
    """What the additive bound and the neighbourhood search found on the first bound.

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


@dataclass
class FlowOutcome:
    """What the flow stages proved and found.

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
        What the additive bound and the neighbourhood search found, when they ran.
    """

    order: list[int] | None
    objective: int | None
    bound: int | None
    proven: bool
    stopped: str | None
    info: dict[str, Any]
    dual: FlowDual | None = None
    refined: Refinement | None = None


@dataclass
class FlowState:
    """What the flow stages share: incumbent, bound, best dual iterate, multipliers, solves.

    Attributes
    ----------
    net : StringHubNetwork
    deadline : float or None
        ``time.perf_counter()`` value at which the flow stages stop.
    first_deadline : float or None
        The end of the first incumbent (the greedy assignment and its repair): the end of the
        whole limit, later than ``deadline`` (an ordering is owed however short the limit).
    t0 : float
        Reference time of the progress reports.
    progress : callable or None
        ``progress(elapsed, incumbent, bound, stage)``.
    lagrangian_iterations, stall_limit : int
        Most flow solves spent tightening the bound; iterations without a better bound that
        end the tightening.
    best, best_seq : int or None, list of int or None
        The incumbent's score and item sequence.
    bound : int or None
        Best proven bound (floored).
    dual : FlowDual or None
        The iterate with the best bound.
    scale, cost : int, numpy.ndarray of int32 or int64, shape ``(m,)``
        Cost units per point and the arc costs of the next iterate (the network's weight
        type for the plain costs, ``-weight``; int64 for Lagrangian iterates).
    flows, decoded : the last iterate's optimal flow (an array, or its support after the
        greedy proof: :class:`~cpwords.wordsnake.relaxation.sparse_flow.SparseFlow`) and its
        decoding.
    value_scaled : int
        The last iterate's Lagrangian value in cost units.
    it, stall : int
        Lagrangian iterations done; iterations without a better bound.
    cuts, cut_words, lam : the connectivity cuts (arc ids), their words and multipliers.
    warm_first : bool
        Whether the first iterate is the greedy's flow proven optimal (no cold solve).
    ended : bool
        The flow stages end here (set by a stage).
    stopped : str or None
        ``"time"`` or ``"interrupt"``.
    refined : Refinement or None
    info : dict
        Sizes, counts and times (``FlowOutcome.info``).
    stop : StopFlag
        The solve's "stop asked" (:class:`~cpwords.core.interrupts.StopFlag`): the flow stages
        end at their next check once it is set.
    plain_released : bool
        Whether the plain costs are let go (:meth:`plain_cost_released`): ``cost`` and
        ``dual.cost`` are then empty, and the costs are ``-net.weight``.
    """

    net: StringHubNetwork
    deadline: float | None
    t0: float
    progress: ProgressCallback | None = None
    lagrangian_iterations: int = 50
    stall_limit: int = 6
    best: int | None = None
    best_seq: list[int] | None = None
    bound: int | None = None
    dual: FlowDual | None = None
    scale: int = 1
    cost: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    flows: np.ndarray | SparseFlow | None = None
    decoded: Decoded | None = None
    value_scaled: int = 0
    it: int = 0
    stall: int = 0
    cuts: list[np.ndarray] = field(default_factory=list)
    cut_words: list[np.ndarray] = field(default_factory=list)
    lam: list[float] = field(default_factory=list)
    settled: np.ndarray | None = None
    job: FlowJob | None = None
    cold_first: FlowJob | None = None
    reopt: Reoptimizer | None = None
    warm_first: bool = False
    ended: bool = False
    stopped: str | None = None
    refined: Refinement | None = None
    bound_before_refinement: int | None = None
    warm_solves: int = 0
    cold_solves: int = 0
    info: dict[str, Any] = field(default_factory=dict)
    first_deadline: float | None = None
    stop: StopFlag = field(default_factory=StopFlag)
    plain_released: bool = False
    _pair: PairScore | None = None
    _index: CandidateIndex | None = None

    @classmethod
    def begin(
        cls,
        net: StringHubNetwork,
        *,
        deadline: float | None,
        start: float | None,
        progress: ProgressCallback | None,
        lagrangian_iterations: int = 50,
        stall_limit: int = 6,
        incumbent: list[int] | None = None,
        first_deadline: float | None = None,
        stop: StopFlag | None = None,
    ) -> FlowState:
        """The state before the first flow stage (``incumbent``: a starting item sequence;
        ``first_deadline``: the end of the first incumbent, ``deadline`` when None; ``stop``:
        the solve's flag, a new one when None)."""
        state = cls(
            net,
            deadline,
            time.perf_counter() if start is None else start,
            progress,
            lagrangian_iterations,
            stall_limit,
        )
        state.info = {"arcs": net.m, "nodes": net.num_nodes, "trie_nodes": net.trie.size}
        state.stop = StopFlag() if stop is None else stop
        state.first_deadline = deadline if first_deadline is None else first_deadline
        state.cost = -net.weight
        state.best_seq = incumbent
        if incumbent is not None:
            state.best = score_sequence(incumbent, state.pair, net.instance.cyclic)
        return state

    @property
    def pair(self) -> PairScore:
        """The joint scorer of the network (built once)."""
        if self._pair is None:
            self._pair = PairScore(self.net)
        return self._pair

    def index(self) -> CandidateIndex:
        """The repair's candidate index (built on first use)."""
        if self._index is None:
            self._index = CandidateIndex(self.net)
        return self._index

    @contextmanager
    def plain_cost_released(self) -> Iterator[bool]:
        """Let the plain costs go while a stage that reads none peaks (the greedy matching and
        its repair, the greedy proof's and the neighbourhood search's residual networks, which
        read ``-net.weight`` a chunk at a time, the additive bound's path cover): a copy of the
        network's weights, 0.26 GB on 977,555 31-mers of C. elegans, 0.29 GB on the whole
        Polish dictionary. Yields whether they were let go: only while they are still the plain
        costs (no Lagrangian iterate yet), and the best iterate's, if any, the same array;
        meanwhile ``cost`` and ``dual.cost`` are empty, and they are made again on leaving (one
        negation of the weights, those of the network on leaving: the greedy proof lets them go
        and makes them again meanwhile).
        """
        dual, cost, weight = self.dual, self.cost, self.net.weight
        plain = (
            (dual is None or dual.cost is cost)
            and self.scale == 1
            and not self.lam
            and cost.dtype == weight.dtype
            and cost.shape == weight.shape
            # Before any iterate, the costs are those :meth:`begin` made: not compared.
            and (dual is None or _plain(cost, weight))
        )
        if not plain:
            yield False
            return
        with held_here():  # let go whole, or not at all
            self.cost = np.zeros(0, dtype=weight.dtype)
            if dual is not None:
                dual.cost = self.cost
            self.plain_released = True
        del cost, weight  # the weights themselves may be let go meanwhile (the greedy proof)
        try:
            yield True
        finally:
            with held_here():  # not cut half way by a stop: the answer's stages read them
                self.cost = -self.net.weight
                if dual is not None:
                    dual.cost = self.cost
                self.plain_released = False

    def drop_index(self) -> None:
        """Let the repair's candidate index go before a stage whose memory peaks without it
        (the greedy proof's residual network, the neighbourhood search's): the next repair
        builds it again (0.65 GB on 977,555 31-mers of C. elegans, built in 2.3 s; 0.4 GB on
        the whole Polish dictionary)."""
        self._index = None

    @property
    def large(self) -> bool:
        """Whether the network is solved in a child process (``FORK_MIN_ARCS`` arcs or more):
        the greedy proof and the additive bound run on such networks only."""
        return self.net.m >= FORK_MIN_ARCS

    @property
    def proven(self) -> bool:
        """Whether the incumbent meets the bound."""
        return self.best is not None and self.bound is not None and self.best >= self.bound

    def report(self, stage: str) -> None:
        """Report the incumbent and the bound under ``stage``."""
        if self.progress is not None:
            self.progress(time.perf_counter() - self.t0, self.best, self.bound, stage)

    def consider(self, seq: list[int]) -> None:
        """Keep ``seq`` as the incumbent if it scores more (a signal meanwhile only sets the
        stop, seen after: the score and its sequence change together)."""
        value = score_sequence(seq, self.pair, self.net.instance.cyclic)
        with self.stop.held():
            if self.best is None or value > self.best:
                self.best, self.best_seq = value, seq
        self.stop.check()

    def close_jobs(self) -> None:
        """Stop a flow solve still running in a child process."""
        for running in (self.job, self.cold_first):
            if running is not None:
                running.close()

    def outcome(self) -> FlowOutcome:
        """The flow stages' result."""
        self.info["lagrangian_iterations"] = self.it
        self.info["cuts"] = len(self.cuts)
        self.info["warm_solves"] = self.warm_solves
        self.info["cold_solves"] = self.cold_solves
        return FlowOutcome(
            self.best_seq,
            self.best,
            self.bound,
            self.proven,
            self.stopped,
            self.info,
            self.dual,
            self.refined,
        )


@contextmanager
def flow_limits(f: FlowState) -> Iterator[None]:
    """Run flow stages under the limits: the flow solver's deadline (``FlowStopped``) and
    Ctrl-C end them with ``f.stopped`` set (Ctrl-C also sets the stop), and a child still
    solving is stopped at once."""
    try:
        yield
    except FlowStopped:
        f.stopped = "time"
    except KeyboardInterrupt:
        f.stop.ask("interrupt")
    finally:
        if f.stop.interrupted:
            f.stopped = "interrupt"
        f.close_jobs()


@dataclass
class ProofState:
    """The default method's state: what every stage reads and updates.

    Attributes
    ----------
    instance : WordsnakeInstance
    options : dict
        ``workers``, ``seed``, ``hint``, ``lagrangian_iterations``, ``core_search``,
        ``neighbourhood_search``, ``certificate``, ``time_limit``.
    start, entered : float
        ``time.perf_counter()`` at which the time limit started, and at which the method did.
    deadline, flow_deadline : float or None
        The end of the stages (the time limit less what the certificate and its check keep:
        :func:`~cpwords.wordsnake.exact.stages.checked_proof.proof_reserve`), and of the flow
        stages (40% of the limit on small lists:
        :data:`~cpwords.wordsnake.exact.policy.SMALL_FLOW_SHARE`).
    end : float or None
        The end of the whole time limit: the certificate and its check stop there.
    small : bool
        Whether the list is small (:func:`~cpwords.wordsnake.exact.policy.small_list`): its
        flow stages keep 40% of the limit, the network and the first incumbent too.
    net : StringHubNetwork or None
    flow : FlowState or None
        The flow stages' state (None until the network is built).
    out : FlowOutcome or None
        The flow stages' result (None when the deadline stopped them inside a decoding or a
        repair: their result is then not used).
    order : list of str
        The incumbent.
    objective : float
        Its score.
    bound : float or None
        The best proven bound.
    proven : bool
    stop : StopFlag
        "Stop asked" (:class:`~cpwords.core.interrupts.StopFlag`, the solve's): every stage
        returns at its next check once it is set, the later ones are skipped, and the
        certificate and its check get at most :data:`STOP_PROOF_SECONDS`.
    method : str
        The stage that finished (``exact/flow``, ``exact/core``).
    additive : AdditiveBound or None
        What the additive bound proved (:mod:`~cpwords.wordsnake.exact.stages.additive_bound`).
    core : object
        The core left by reduced-cost fixing, or None.
    core_pairs : int or None
        The size of the exact search that closed the gap (for the certificate).
    piece_solver : callable or None
        ``piece_solver(instance, time_limit) -> SolveResult``: the default method without the
        neighbourhood search and unchecked, for the pieces the neighbourhood search re-orders
        (set by the policy, so that no stage imports it).
    early_certificate : Certificate or None
        The version 2 certificate the stage "proof tree" proved the incumbent optimal with.
    flow_order : tuple of (list of str, list of int) or None
        The flow stages' ordering as the incumbent list it became and its items: while that
        list is still ``order`` (the same object), its word ids are read from the items.
    stages : list of dict
        Each stage's log (``solver_info["stages"]``).
    info : dict
        ``solver_info``.
    trace : list of TracePoint
    report : callable
        ``report(elapsed, incumbent, bound, stage)``, to the caller's progress callback.
    """

    instance: WordsnakeInstance
    options: dict[str, Any]
    start: float
    entered: float
    deadline: float | None
    flow_deadline: float | None
    small: bool
    report: Callable[..., None]
    info: dict[str, Any]
    end: float | None = None
    net: StringHubNetwork | None = None
    flow: FlowState | None = None
    out: FlowOutcome | None = None
    order: list[str] = field(default_factory=list)
    objective: float = 0.0
    bound: float | None = None
    proven: bool = False
    stop: StopFlag = field(default_factory=StopFlag)
    method: str = "exact/flow"
    additive: Any = None
    core: Any = None
    core_pairs: int | None = None
    early_certificate: Any = None
    flow_order: tuple[list[str], list[int]] | None = None
    piece_solver: PieceSolver | None = None
    stages: list[dict[str, Any]] = field(default_factory=list)
    trace: list[TracePoint] = field(default_factory=list)

    @property
    def interrupted(self) -> bool:
        """Whether an interrupt asked the stop."""
        return self.stop.interrupted

    @interrupted.setter
    def interrupted(self, value: bool) -> None:
        if value:
            self.stop.ask("interrupt")

    def elapsed(self) -> float:
        """Seconds since the time limit started."""
        return time.perf_counter() - self.start

    def remaining(self) -> float | None:
        """Seconds left for the stages (None: no limit)."""
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def left_in_limit(self) -> float | None:
        """Seconds left of the whole time limit, for the certificate and its check (None: no
        limit)."""
        return None if self.end is None else self.end - time.perf_counter()

    def on_progress(self, elapsed: float, inc: float | None, bnd: float | None, stage: str) -> None:
        """Record a trace point and report it."""
        self.trace.append(TracePoint(elapsed, inc, bnd))
        self.report(elapsed, inc, bnd, stage)


@dataclass(frozen=True)
class Stage:
    """One named step of the default method.

    Attributes
    ----------
    name : str
        The stage's name, as in the formulation card's list.
    run : callable
        ``run(state)``: updates the state.
    wanted : callable
        ``wanted(state) -> bool``: whether the stage runs on this state.
    """

    name: str
    run: Callable[[Any], None]
    wanted: Callable[[Any], bool] = lambda _state: True


@dataclass
class AdditiveBound:
    """What the additive bound proved, and what the neighbourhood search starts from.

    Attributes
    ----------
    t0 : float
        ``time.perf_counter()`` at which the stage started.
    seq, value : list of int, int
        The incumbent (item sequence) and its score when the stage started.
    seeds : list of int
        The words (ids) of the first iterate's components that miss the main one.
    pi : numpy.ndarray
        The first iterate's potentials.
    cert : Certificate
        The first bound's certificate (its dual values price the cover's joints).
    relaxed : (numpy.ndarray, numpy.ndarray)
        Each word's successor and predecessor in the first iterate.
    cover : PathCoverBound
        The best bound proven so far (the neighbourhood search may replace it by a wider one).
    info : dict
        ``solver_info["refinement"]``.
    cache : CoverCache
        The path covers' components solved so far on ``cert`` (the wider bounds take them).
    hall_done : (Certificate, numpy.ndarray of int64) or None
        The certificate and ordering (word ids) from which the neighbourhood search's last
        Hall steps ran to their end without a step (the certificate stage does not search
        them again).
    """

    t0: float
    seq: list[int]
    value: int
    seeds: list[int]
    pi: np.ndarray
    cert: Any
    relaxed: tuple[np.ndarray, np.ndarray]
    cover: PathCoverBound
    info: dict[str, Any]
    cache: CoverCache = field(default_factory=CoverCache)
    hall_done: tuple[Any, np.ndarray] | None = None


def publish(state: ProofState, order: list[int] | None, objective: int | None) -> None:
    """Hand the refinement (the best cover's bound and certificate, and a better ordering if
    one was found) to the flow stages, as the card's pipeline takes it."""
    f, add = state.flow, state.additive
    assert f is not None and add is not None
    add.info["time"] = time.perf_counter() - add.t0
    best = add.cover
    f.refined = Refinement(order, objective, best.bound, best.certificate, add.info)
    if order is not None:
        f.consider(order)
    if f.bound is None or best.bound < f.bound:
        f.bound = best.bound
    f.info["refinement"] = dict(add.info)
    if add.info.get("interrupted"):
        raise KeyboardInterrupt  # Ctrl-C in the search: its ordering and bound are kept
    f.report("additive bound")
    if f.proven:
        f.ended = True


def _plain(cost: np.ndarray, weight: np.ndarray) -> bool:
    """Whether ``cost`` is ``-weight``, compared :data:`PLAIN_CHECK` arcs at a time."""
    return all(
        np.array_equal(cost[lo : lo + PLAIN_CHECK], -weight[lo : lo + PLAIN_CHECK])
        for lo in range(0, cost.shape[0], PLAIN_CHECK)
    )
