"""What the exact Wordsnake methods share: the limits checked, the result built (OPTIMAL only
on a proven bound), the model-side score, progress adapters, and for the letter-hub formulations
(:mod:`~cpwords.wordsnake.formulations.mip`, :mod:`~cpwords.wordsnake.formulations.cpsat`) the
prepared instance, the scorer, repair of disconnected solutions and hints.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpwords.core.errors import InputError, ModelError
from cpwords.core.result import SolveResult, Status, TracePoint
from cpwords.wordsnake.formulations.letter_hub import (
    DEPOT,
    HubGraph,
    build_hub_graph,
    components_missing_root,
    decode_order,
)
from cpwords.wordsnake.primal.repair import overlap
from cpwords.wordsnake.rules import OverlapGraph, WordsnakeInstance, overlap_graph

ProgressCallback = Callable[[float, float | None, float | None], None]
"""Called as ``progress(elapsed_seconds, incumbent, bound)`` while a solve runs."""

MIP_BACKENDS = {"highs": "HIGHS", "scip": "SCIP", "cbc": "CBC"}

#: With a finite time limit, cut rounds are not attempted on letter-hub models with more arcs
#: than this: HiGHS did not honour a 60 s limit on a 1.1-million-arc model (n = 20,000 ENABLE
#: words; measured overruns of 40 s to several minutes), so the answer would come late. The
#: result is then FEASIBLE with the min-cost-flow bound (gap 0.007% on that instance).
MIP_MAX_ARCS = 300_000

#: A further cut round of the letter-hub MIP is not started with less time left than this
#: (seconds), nor with less than the previous round took: HiGHS under OR-Tools did not honour
#: short limits (1,000 random 'abc' strings: rounds of 7.4 and 7.8 s, then a round given 3.6 s
#: ran 8.1 s and a round given 0.3 s ran 4.1 s, so 10 s and 20 s limits ended at 13.6 and 24.7 s).
MIP_MIN_ROUND_SECONDS = 2.0


# ---------------------------------------------------------------------------------------------
# Shared pieces: scores from the overlap graph, repair of disconnected solutions, hints.
# ---------------------------------------------------------------------------------------------


class Scorer:
    """Scores orderings with the model's pair weights (the checker recomputes separately)."""

    def __init__(self, instance: WordsnakeInstance, hg: HubGraph) -> None:
        self.instance = instance
        self.hg = hg
        self.index: dict[str, list[int]] = {}
        for i, w in enumerate(instance.words):
            self.index.setdefault(w, []).append(i)

    def weight(self, a: int, b: int) -> int:
        return self.hg.pair_weight(self.instance.words, a, b)

    def items(self, order: Sequence[str]) -> list[int]:
        """Map words back to item indices (duplicates take their copies in turn)."""
        pools = {w: list(reversed(ix)) for w, ix in self.index.items()}
        return [pools[w].pop() for w in order]

    def score_items(self, items: Sequence[int]) -> int:
        pairs = list(itertools.pairwise(items))
        if self.instance.cyclic and len(items) > 1:
            pairs.append((items[-1], items[0]))
        return sum(self.weight(a, b) for a, b in pairs)


class PreparedInstance:
    """A Wordsnake instance prepared once per solve and passed down to every model.

    The overlap graphs, the letter-hub graph and the scorer are built on first use and then
    shared by the starting heuristic and the model of one solve, so a solve builds each at most
    once (before, a routes solve built the overlap graph three times: for its greedy start, its
    hub graph and its arcs).

    Parameters
    ----------
    instance : WordsnakeInstance
    """

    def __init__(self, instance: WordsnakeInstance) -> None:
        self.instance = instance

    @functools.cached_property
    def heavy_graph(self) -> OverlapGraph:
        """Pairs with overlap >= 2 (the explicit arcs of the letter-hub model)."""
        inst = self.instance
        return overlap_graph(inst.words, proper=inst.proper, min_overlap=2, score=inst.score)

    @functools.cached_property
    def graph(self) -> OverlapGraph:
        """Every pair with a positive overlap (the routes and naive models' arcs)."""
        return overlap_graph(
            self.instance.words, proper=self.instance.proper, score=self.instance.score
        )

    @functools.cached_property
    def hub(self) -> HubGraph:
        """The letter-hub graph (O(n + pairs of overlap >= 2) arcs)."""
        return build_hub_graph(self.instance, self.heavy_graph)

    @functools.cached_property
    def scorer(self) -> Scorer:
        """Scores orderings with the hub graph's pair weights."""
        return Scorer(self.instance, self.hub)


@dataclass
class SolveContext:
    """What every exact Wordsnake model starts from: limits, clock, prepared data, incumbent.

    Built by :func:`open_context` at the top of each model (the one shared preamble).

    Attributes
    ----------
    prepared : PreparedInstance
    time_limit : float or None
        Seconds for the model, from ``start``.
    start : float
        ``time.perf_counter()`` when the model started.
    best_order : list of str or None
        The incumbent (the hint, if one was given).
    best : int or None
        Its score.
    """

    prepared: PreparedInstance
    time_limit: float | None
    # The clock read at each start (a factory bound at import kept a test's clock double for
    # every later solve: negative times in the tests that came after).
    start: float = field(default_factory=lambda: time.perf_counter())
    best_order: list[str] | None = None
    best: int | None = None

    @property
    def deadline(self) -> float | None:
        """``time.perf_counter()`` value at which the limit is reached, or None."""
        return None if self.time_limit is None else self.start + self.time_limit

    def remaining(self) -> float | None:
        """Seconds left (never negative), or None without a limit."""
        end = self.deadline
        return None if end is None else max(0.0, end - time.perf_counter())


def open_context(
    instance: WordsnakeInstance,
    *,
    time_limit: float | None,
    workers: int,
    hint: Sequence[str] | None = None,
    prepared: PreparedInstance | None = None,
) -> SolveContext:
    """Check the limits, start the clock, and score the hint as the first incumbent.

    Parameters
    ----------
    instance : WordsnakeInstance
    time_limit : float or None
        Seconds for the model.
    workers : int
        Solver threads (checked here, used by the model).
    hint : sequence of str, optional
        A starting ordering of the items.
    prepared : PreparedInstance, optional
        Graphs already built for ``instance`` in the same solve; built on first use otherwise.

    Returns
    -------
    SolveContext

    Raises
    ------
    InputError
        A non-positive time limit or fewer than one worker.
    """
    check_limits(time_limit, workers)
    ctx = SolveContext(prepared or PreparedInstance(instance), time_limit)
    if hint is not None:
        ctx.best_order = list(hint)
        scorer = ctx.prepared.scorer
        ctx.best = scorer.score_items(scorer.items(ctx.best_order))
    return ctx


def repair_order(hg: HubGraph, chosen: np.ndarray, scorer: Scorer) -> list[str]:
    """Turn a possibly disconnected integer solution into a valid ordering.

    Each connected part is an Eulerian multigraph; its Euler circuit, cut at its weakest
    word-to-word transition (parts without the depot), gives paths that are concatenated.
    """
    words = scorer.instance.words
    import networkx as nx

    multi = nx.MultiDiGraph()
    multi.add_edges_from(zip(hg.tail[chosen].tolist(), hg.head[chosen].tolist(), strict=True))
    multi.add_nodes_from(range(1, hg.n + 1))
    pieces: list[list[int]] = []
    for comp in nx.weakly_connected_components(multi):
        sub = multi.subgraph(comp)
        items_here = [v - 1 for v in comp if 1 <= v <= hg.n]
        if sub.number_of_edges() == 0 or not nx.is_eulerian(sub):
            pieces.extend([i] for i in items_here)
            continue
        start = DEPOT if DEPOT in comp else min(items_here) + 1
        seq = [u - 1 for u, _ in nx.eulerian_circuit(sub, source=start) if 1 <= u <= hg.n]
        if DEPOT not in comp and len(seq) > 1:
            # Cut the cycle where the transition is weakest.
            trans = [scorer.weight(seq[k], seq[(k + 1) % len(seq)]) for k in range(len(seq))]
            k = int(np.argmin(trans))
            seq = seq[k + 1 :] + seq[: k + 1]
        pieces.append(seq)
    return [words[i] for p in pieces for i in p]


def read_round(
    hg: HubGraph, chosen: np.ndarray, scorer: Scorer
) -> tuple[list[list[int]], list[str], int]:
    """Components that miss the root, the ordering read (or repaired) from ``chosen``, its score."""
    missing = components_missing_root(hg, chosen)
    words = scorer.instance.words
    order = repair_order(hg, chosen, scorer) if missing else decode_order(hg, chosen, words)
    return missing, order, scorer.score_items(scorer.items(order))


def order_to_arcs(hg: HubGraph, items: Sequence[int], scorer: Scorer) -> np.ndarray:
    """Arc indicator of the letter-hub formulation for an ordering given as item indices.

    Parameters
    ----------
    hg : HubGraph
    items : sequence of int, length n
        A permutation of ``range(n)``.

    Returns
    -------
    numpy.ndarray of int, shape (m,)
        How often each arc is used (0/1; hub arcs of a word are used at most once).
    """
    index = {
        (t, h): a for a, (t, h) in enumerate(zip(hg.tail.tolist(), hg.head.tolist(), strict=True))
    }
    hub_of = {c: v for v, c in hg.hub_letter.items()}
    words = scorer.instance.words
    use = np.zeros(hg.m, dtype=np.int64)
    seq = list(items)
    pairs = list(itertools.pairwise(seq))
    if hg.cyclic and len(seq) > 1:
        pairs.append((seq[-1], seq[0]))
    else:
        use[index[(DEPOT, seq[0] + 1)]] += 1
        use[index[(seq[-1] + 1, DEPOT)]] += 1
    for a, b in pairs:
        w = scorer.weight(a, b)
        if w >= 4:
            use[index[(a + 1, b + 1)]] += 1
        elif w == 1 and words[a][-1] in hub_of:
            h = hub_of[words[a][-1]]
            use[index[(a + 1, h)]] += 1
            use[index[(h, b + 1)]] += 1
        else:
            use[index[(a + 1, DEPOT)]] += 1
            use[index[(DEPOT, b + 1)]] += 1
    return use


def integral_bound(new: float, old: float | None) -> float:
    """Tighten a dual bound: scores are integers, so floor(bound) is still a valid bound."""
    tightened = float(np.floor(new + 1e-6))
    return tightened if old is None else min(old, tightened)


def backend_info(backend: str, **params: Any) -> dict[str, Any]:
    # The package's own version string (the package itself is a few lines): importlib.metadata
    # cost 15 to 30 ms of every solve's start-up.
    import ortools

    return {"ortools": ortools.__version__, "backend": backend, **params}


def hub_info(
    backend: str, hg: HubGraph, workers: int, seed: int, time_limit: float | None, **more: Any
) -> dict[str, Any]:
    """:func:`backend_info` of a letter-hub model: the formulation, the workers, the seed, the
    graph's size and the time limit, then ``more``."""
    return backend_info(
        backend,
        formulation="letter-hub",
        workers=workers,
        seed=seed,
        arcs=hg.m,
        nodes=hg.num_nodes,
        time_limit=time_limit,
        **more,
    )


def check_limits(time_limit: float | None, workers: int) -> None:
    if time_limit is not None and time_limit <= 0:
        raise InputError(f"the time limit must be positive, got {time_limit}")
    if workers < 1:
        raise InputError(f"the number of workers must be at least 1, got {workers}")


def finish_result(
    *,
    instance: WordsnakeInstance,
    proven: bool,
    order: list[str] | None,
    objective: float | None,
    bound: float | None,
    start: float,
    method: str,
    info: dict[str, Any],
    trace: list[TracePoint],
) -> SolveResult:
    if order is None or objective is None:
        return SolveResult(
            Status.UNKNOWN,
            None,
            bound,
            time.perf_counter() - start,
            None,
            method,
            solver_info=info,
            trace=tuple(trace),
        )
    if bound is not None and bound < objective:
        # A valid dual bound is never below a feasible score (bounds are floored integers, so
        # there is no rounding slack): report none rather than a false one.
        info = {**info, "bound_dropped": bound}
        bound = None
    status = (
        Status.OPTIMAL if proven and bound is not None and bound <= objective else Status.FEASIBLE
    )
    if status is Status.OPTIMAL:
        bound = objective
    return SolveResult(
        status,
        objective,
        bound,
        time.perf_counter() - start,
        order,
        method,
        solver_info=info,
        trace=tuple(trace),
    )


def one_word_result(
    instance: WordsnakeInstance, start: float, method: str, info: dict[str, Any]
) -> SolveResult:
    """The result of a list of one word: that word, scoring 0, proven."""
    return finish_result(
        instance=instance,
        proven=True,
        order=list(instance.words),
        objective=0.0,
        bound=0.0,
        start=start,
        method=method,
        info=info,
        trace=[],
    )


def assignment_relaxation(hg: HubGraph) -> tuple[np.ndarray, int]:
    """Solve the letter-hub model without connectivity cuts as a min-cost circulation.

    Without the cuts the constraints are flow conservation: split each word v into an entry
    node (demand 1) and an exit node (supply 1); depot and hubs conserve flow. The matrix is a
    network matrix, hence totally unimodular, so the min-cost flow optimum is the optimum of
    the integer program *and* of its LP relaxation: it is a valid dual bound.

    Parameters
    ----------
    hg : HubGraph

    Returns
    -------
    chosen : numpy.ndarray of bool, shape (m,)
        Arcs carrying flow.
    value : int
        Total weight of the chosen arcs (the assignment bound).

    Raises
    ------
    ModelError
        When the flow solver does not report an optimum (the circulation is always feasible).

    References
    ----------
    R. K. Ahuja, T. L. Magnanti, J. B. Orlin, *Network Flows*, Prentice Hall, 1993.
    """
    words = hg.n

    # Flow node numbering: depot and hubs keep their ids, word v is its exit node v, and its
    # entry node is num_nodes + v - 1.
    def entry(v: np.ndarray) -> np.ndarray:
        is_word = (v >= 1) & (v <= words)
        return np.where(is_word, hg.num_nodes + v - 1, v)

    from ortools.graph.python import min_cost_flow

    flow = min_cost_flow.SimpleMinCostFlow()
    arcs = flow.add_arcs_with_capacity_and_unit_cost(
        hg.tail.astype(np.int32),
        entry(hg.head).astype(np.int32),
        np.ones(hg.m, dtype=np.int64),
        -hg.weight,
    )
    nodes = np.arange(1, words + 1)
    flow.set_nodes_supplies(
        np.concatenate([nodes, hg.num_nodes + nodes - 1]).astype(np.int32),
        np.concatenate([np.ones(words), -np.ones(words)]).astype(np.int64),
    )
    status = flow.solve()
    if status != flow.OPTIMAL:
        raise ModelError(f"min-cost flow failed on the assignment relaxation (status {status})")
    chosen = flow.flows(arcs) > 0
    return chosen, int(-flow.optimal_cost())


# ---------------------------------------------------------------------------------------------
# Letter-hub formulation, CP-SAT backend.
# ---------------------------------------------------------------------------------------------


#: CP-SAT subsolvers in the order they are given workers. The letter-hub relaxation is an
#: assignment-type LP whose bound is nearly tight, so the LP-heavy workers come first: with the
#: default 2-worker portfolio CP-SAT did not close a 300-word instance in 30 s, with ``max_lp``
#: it proves 1,000 words in under a second (measured on ENABLE samples, 2026-11-22).
def score_order(instance: WordsnakeInstance, order: Sequence[str]) -> int:
    """Model-side score of an ordering of words (the checker recomputes it independently).

    Parameters
    ----------
    instance : WordsnakeInstance
        Gives the ``cyclic`` and ``proper`` rules.
    order : sequence of str

    Returns
    -------
    int
        Sum of squared overlaps of consecutive words (and last -> first when cyclic); of the
        overlaps with the linear score.
    """
    seq = list(order)
    weight = instance.weight
    total = sum(weight(overlap(a, b, instance.proper)) for a, b in itertools.pairwise(seq))
    if instance.cyclic and len(seq) > 1:
        total += weight(overlap(seq[-1], seq[0], instance.proper))
    return total


def items_of(instance: WordsnakeInstance, order: Sequence[str]) -> list[int]:
    pools: dict[str, list[int]] = {}
    for i, w in enumerate(instance.words):
        pools.setdefault(w, []).append(i)
    for v in pools.values():
        v.reverse()
    return [pools[w].pop() for w in order]


def stage_progress(progress: ProgressCallback | None) -> Callable[..., None]:
    """Adapt a 3- or 4-argument progress callback to ``(elapsed, incumbent, bound, stage)``."""
    if progress is None:
        return lambda *_: None
    try:
        params = inspect.signature(progress).parameters
        four = len(params) >= 4 or any(p.kind is p.VAR_POSITIONAL for p in params.values())
    except (TypeError, ValueError):  # pragma: no cover - builtins
        four = False
    if four:
        return progress
    return lambda el, inc, bnd, _stage: progress(el, inc, bnd)


#: Bytes per (word, overlap string, successor) triple of an explicit overlap graph, measured with
#: tracemalloc on ENABLE samples of 5,000 and 20,000 words (124-181 bytes), with room for the
#: model built on it.
EXPLICIT_BYTES_PER_TRIPLE = 250


@functools.lru_cache(maxsize=4)  # --compare asks once per heuristic about the same list
def explicit_graph_bytes(instance: WordsnakeInstance, min_overlap: int) -> int:
    """Estimated peak memory of a method that builds the explicit overlap graph.

    Parameters
    ----------
    instance : WordsnakeInstance
    min_overlap : int
        The smallest overlap the method keeps as an arc (1 for the heuristics, 2 for the
        letter-hub models).

    Returns
    -------
    int
        Bytes: ``EXPLICIT_BYTES_PER_TRIPLE`` per (word, overlap string, successor) triple with an
        overlap string of ``min_overlap`` letters or more (an upper bound on the arcs), plus the
        prefix index (every distinct prefix is stored as a string: quadratic in a word's length).
        Counted on the prefix trie in O(total letters), without building anything quadratic.
    """
    from cpwords.wordsnake.relaxation.string_hub import build_trie

    trie = build_trie(sorted(set(instance.words)))
    depth = trie.depth.astype(np.int64)
    wn = trie.word_node.astype(np.int64)
    _, hs = trie.suffix_nodes()
    strings = np.concatenate([hs, wn])
    strings = strings[depth[strings] >= max(1, min_overlap)]
    below = np.searchsorted(wn, trie.end[strings], side="right") - np.searchsorted(wn, strings)
    triples = int(below.sum()) * max(1, instance.n // max(1, len(wn)))
    prefixes = int(depth.sum()) + 80 * trie.size
    letters = sum(map(len, instance.words))
    return EXPLICIT_BYTES_PER_TRIPLE * triples + prefixes + 16 * letters
