"""How each Wordsnake method runs under the command's limit: the time left for it and for the
check of its answer, the input order when a limit ends before any answer, Ctrl-C, and the
dispatch to the exact models, the heuristics and the outside peers (:data:`RUNNERS`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cpwords.core.errors import InputError
from cpwords.core.result import SolveResult, Status
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score


def check_reserve(instance: WordsnakeInstance) -> float:
    """Seconds kept, out of a time limit, for the independent check of the answer and the
    report: ``0.05 + 1.5e-7`` per letter ``+ 1e-6`` per word, about three times the check
    measured on 2026-12-07 (0.12 s for the French wordfreq list's 2.3 million letters, 0.33 s
    for the German one's 6.6 million, 0.57 s for the 10.1 million letters of the union of the
    German, French and Spanish ones; a list of short words costs more a letter: 0.15 s for the
    Chinese list's 968,897 letters in 332,191 words). The values kept before (0.6 us a letter,
    1.5 us a word, measured before the checker's arrays) kept 7.7 s on that union.

    The letters counted leave out the longest word: the check compares each joint's two words
    over the shorter one's letters at most, so a list of one word (no joint) costs nothing more
    however long it is (a word of 200 million letters was given 126 s).

    Parameters
    ----------
    instance : WordsnakeInstance

    Returns
    -------
    float
        Seconds.

    Examples
    --------
    >>> round(check_reserve(WordsnakeInstance(("ab", "bc"))), 6)
    0.050002
    >>> round(check_reserve(WordsnakeInstance(("a" * 10**8,))), 6)
    0.050001
    """
    lengths = [len(w) for w in instance.words]
    letters = sum(lengths) - max(lengths, default=0)
    return 0.05 + 1.5e-7 * letters + 1e-6 * instance.n


def _heuristic_limit(
    instance: WordsnakeInstance, start: float | None, time_limit: float | None
) -> float | None:
    """Seconds a heuristic or a peer may search: what is left of ``time_limit`` counted from
    ``start``, less the time its answer's score and independent check take
    (:func:`check_reserve`); at least 0.01 s (a limit already spent: the input order)."""
    left = remaining_clock(start, time_limit)()
    return None if left is None else max(0.01, left - check_reserve(instance))


def remaining_clock(start: float | None, time_limit: float | None) -> Callable[[], float | None]:
    """Seconds left of ``time_limit`` counted from ``start`` (None: no limit)."""
    t0 = time.perf_counter() if start is None else start

    def left() -> float | None:
        if time_limit is None:
            return None
        return max(0.01, time_limit - (time.perf_counter() - t0))

    return left


def _run_auto(
    instance: WordsnakeInstance,
    method: str,
    *,
    seed: int = 0,
    time_limit: float | None = None,
    workers: int = 2,
    hint: Sequence[str] | None = None,
    progress: Callable[..., None] | None = None,
    start: float | None = None,
    core_search: str = "mip",
    certificate: bool = False,
    ordering_checked: bool = True,
) -> SolveResult:
    """The default exact method within the limit less the time its ordering's check takes
    (:func:`check_reserve`; none with ``ordering_checked`` False: the caller checks its own
    answer)."""
    from cpwords.wordsnake.exact.methods import solve_exact

    # The model keeps a quarter of the limit at least (half, before: 1,037,915 words of 10.1M
    # letters with --time-limit 10 then ended at 15.5 s). Nothing is kept for a check that
    # will not run (``cpwords superstring`` checks its superstring instead, and keeps its own
    # time for that: 977,555 31-mers of C. elegans kept 19.7 s twice over, and with
    # --time-limit 25 the network was cut at 4.7 s, the answer the input order).
    reserve = check_reserve(instance) if ordering_checked else 0.0
    limit = None if time_limit is None else max(0.25 * time_limit, time_limit - reserve)
    if limit is not None and start is not None and time.perf_counter() >= start + limit:
        spent = _limit_spent(instance, hint, start, certificate)
        if spent is not None:
            return spent
    return solve_exact(
        instance,
        time_limit=limit,
        workers=workers,
        seed=seed,
        hint=hint,
        progress=progress,
        start=start,
        core_search=core_search,
        certificate=certificate,
    )


def _limit_spent(
    instance: WordsnakeInstance, hint: Sequence[str] | None, start: float, certificate: bool
) -> SolveResult | None:
    """The default method's answer when its limit was spent before it began (reading the list
    took it): the hint or the input order, FEASIBLE with its score and the bound of the words'
    lengths, as the method itself returns it once it stops before any ordering of its own, but
    without building the network first (the French wordfreq list with ``--time-limit 1``:
    0.4 s of network, then the input order). None when that order is optimal by the lengths
    (one word: the method says so itself, at once).
    """
    from cpwords.wordsnake.exact.flow_steps import length_bound

    t0 = time.perf_counter()
    order = list(hint) if hint is not None else list(instance.words)
    score = snake_score(order, instance.cyclic, instance.proper, instance.score)
    bound = length_bound(instance)
    if score >= bound:
        return None
    info: dict[str, Any] = {
        "stopped": "time",
        "answer": "the given ordering" if hint is not None else "the input order",
        "length_bound": bound,
        "solve_time": time.perf_counter() - t0,
    }
    if certificate:
        info.update(certificate=None, certificate_error="stopped before the first flow bound")
    return SolveResult(
        Status.FEASIBLE,
        float(score),
        float(bound),
        time.perf_counter() - start,
        order,
        "auto",
        solver_info=info,
    )


def _run_exact(
    instance: WordsnakeInstance,
    method: str,
    *,
    seed: int = 0,
    time_limit: float | None = None,
    workers: int = 2,
    hint: Sequence[str] | None = None,
    progress: Callable[..., None] | None = None,
    start: float | None = None,
) -> SolveResult:
    from cpwords.wordsnake.formulations.common import PreparedInstance
    from cpwords.wordsnake.heuristics.baselines import layered_greedy

    left = remaining_clock(start, time_limit)
    t0 = time.perf_counter()
    # Built once for this solve: the overlap graphs and the scorer of the model.
    prepared = PreparedInstance(instance)
    if hint is None and method != "naive":
        # One pass of the layered greedy is the starting incumbent; when a limit stops a solve,
        # the answer is never worse than it. Its time counts against the limit (a limit that
        # ends it before the words are indexed: the input order).
        first = _indexed(
            lambda: layered_greedy(instance, iterations=1, seed=seed, time_limit=left()),
            instance,
            "layered",
        )
        if first.solver_info.get("interrupted"):  # Ctrl-C: its chains so far are the answer
            return _interrupted_start(instance, method, first.solution, t0)
        hint = first.solution
    try:
        return _dispatch_exact(
            instance,
            method,
            {
                "time_limit": left(),
                "seed": seed,
                "hint": hint,
                "progress": progress,
                "workers": workers,
                "prepared": prepared,
            },
        )
    except KeyboardInterrupt:
        # Ctrl-C while the model is built (a model interrupted in its search answers itself)
        if hint is None:
            raise
        return _interrupted_start(instance, method, hint, t0)


def _interrupted_start(
    instance: WordsnakeInstance, method: str, order: Sequence[str] | None, t0: float
) -> SolveResult:
    """The starting ordering as the answer of a solve stopped by Ctrl-C before the model's own
    (it printed only 'cpwords: interrupted': 20,000 ENABLE words, --method mip, at 3 s)."""
    if order is None:
        raise KeyboardInterrupt
    return SolveResult(
        Status.FEASIBLE,
        float(snake_score(list(order), instance.cyclic, instance.proper, instance.score)),
        None,
        time.perf_counter() - t0,
        list(order),
        method,
        solver_info={"interrupted": True, "answer": "the layered greedy's start"},
    )


def _dispatch_exact(
    instance: WordsnakeInstance, method: str, common: dict[str, Any]
) -> SolveResult:
    from cpwords.wordsnake.exact import methods as exact

    if method == "mip":
        return exact.solve_hub_mip(instance, backend="highs", **common)
    if method == "mip-scip":
        return exact.solve_hub_mip(instance, backend="scip", **common)
    if method == "cpsat":
        return exact.solve_hub_cpsat(instance, **common)
    if method == "cpsat-routes":
        return exact.solve_routes_cpsat(instance, **common)
    return exact.solve_naive_circuit(instance, **common)


def _run_layered(
    instance: WordsnakeInstance,
    method: str,
    *,
    seed: int = 0,
    time_limit: float | None = None,
    iterations: int = 100,
    start: float | None = None,
) -> SolveResult:
    from cpwords.wordsnake.heuristics.baselines import layered_greedy

    if iterations < 1:
        raise InputError(f"the number of iterations must be at least 1, got {iterations}")
    return _indexed(
        lambda: layered_greedy(
            instance,
            iterations=iterations,
            seed=seed,
            time_limit=_heuristic_limit(instance, start, time_limit),
        ),
        instance,
        "layered",
    )


def _run_local(
    instance: WordsnakeInstance,
    method: str,
    *,
    seed: int = 0,
    time_limit: float | None = None,
    start: float | None = None,
) -> SolveResult:
    from cpwords.wordsnake.heuristics.baselines import local_search

    return _indexed(
        lambda: local_search(
            instance, seed=seed, time_limit=_heuristic_limit(instance, start, time_limit)
        ),
        instance,
        "local",
    )


def _run_greedy(
    instance: WordsnakeInstance,
    method: str,
    *,
    seed: int = 0,
    time_limit: float | None = None,
    start: float | None = None,
) -> SolveResult:
    from cpwords.wordsnake.heuristics.baselines import nearest_neighbour

    return _indexed(
        lambda: nearest_neighbour(
            instance, seed=seed, time_limit=_heuristic_limit(instance, start, time_limit)
        ),
        instance,
        "greedy",
    )


def _indexed(
    heuristic: Callable[[], SolveResult], instance: WordsnakeInstance, method: str
) -> SolveResult:
    """Run a heuristic on the words' index; a list of one word is answered at once (its one
    ordering: an index of a word of 200 million letters would not fit in memory), and a limit
    that passes before the words are indexed gives the input order."""
    from cpwords.wordsnake.heuristics.overlaps import IndexStopped

    t0 = time.perf_counter()
    if instance.n < 2:
        return _input_order(instance, method, t0, {"answer": "the only ordering"})
    try:
        return heuristic()
    except IndexStopped as exc:
        why = f"{exc}: the answer is the input order"
        return _input_order(instance, method, t0, {"stopped": "time_limit", "reason": why})


def _input_order(
    instance: WordsnakeInstance, method: str, t0: float, info: Mapping[str, Any]
) -> SolveResult:
    """The list's own order as a method's answer, FEASIBLE with its score: what every method
    returns when its limit ends before it found an ordering of its own.

    Parameters
    ----------
    instance : WordsnakeInstance
    method : str
        The method's registry name.
    t0 : float
        ``time.perf_counter()`` when the method started (for ``wall_time``).
    info : mapping
        The result's ``solver_info`` (``answer`` is set to ``"the input order"`` unless given).

    Returns
    -------
    SolveResult

    Examples
    --------
    >>> r = _input_order(WordsnakeInstance(("run", "nausea")), "local", time.perf_counter(), {})
    >>> r.status.value, r.objective, r.solution, r.solver_info["answer"]
    ('FEASIBLE', 1.0, ['run', 'nausea'], 'the input order')
    """
    order = list(instance.words)
    score = snake_score(order, instance.cyclic, instance.proper, instance.score)
    return SolveResult(
        Status.FEASIBLE,
        float(score),
        None,
        time.perf_counter() - t0,
        order,
        method,
        solver_info={"answer": "the input order", **info},
    )


def _run_peer(
    instance: WordsnakeInstance,
    method: str,
    *,
    seed: int = 0,
    time_limit: float | None = None,
    start: float | None = None,
) -> SolveResult:
    from cpwords.wordsnake.heuristics import peers

    t0 = time.perf_counter()
    peer = peers.ortools_routing if method == "ortools-routing" else peers.lkh
    found = peer(instance, time_limit=_heuristic_limit(instance, start, time_limit), seed=seed)
    if found.solution is not None:
        return found
    # Stopped before its first tour: the input order (said in ``reason``).
    info = dict(found.solver_info)
    info["reason"] = f"{info.get('reason', 'no tour')}: the answer is the input order"
    return _input_order(instance, method, t0, info)


#: The runner of every method of :data:`METHODS` (its keywords are the method's params).
RUNNERS: dict[str, Callable[..., SolveResult]] = {
    "auto": _run_auto,
    **{m: _run_exact for m in ("mip", "mip-scip", "cpsat", "cpsat-routes", "naive")},
    "layered": _run_layered,
    "local": _run_local,
    "greedy": _run_greedy,
    "ortools-routing": _run_peer,
    "lkh": _run_peer,
}
