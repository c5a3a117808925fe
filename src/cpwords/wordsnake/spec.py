"""Wordsnake's spec: its methods (exact models, heuristics, outside peers) and instances.

Instance tables (keys): ``file`` (a word list), ``words`` (inline list), or ``lexicon`` alone
(the whole lexicon) or with ``n``, ``seed`` and optional ``min_len`` / ``max_len`` (a seeded
sample, see :func:`cpwords.bench.sources.sample_words`); plus ``cyclic``, ``proper`` and
``score`` (``"squared"``, the default, or ``"linear"``).
Two generated families where heuristics are tested harder:

* ``alphabet`` with ``n``, ``seed`` and optional ``min_len`` / ``max_len`` (default 3 and 8):
  ``n`` random strings over a small alphabet (long overlaps, many ties, repeats), see
  :func:`~cpwords.wordsnake.instances.random_strings`;
* ``lexicon`` with ``distinct = k``: ``n`` items drawn with replacement from ``k`` sampled words
  (a list with many repeats), see :func:`~cpwords.wordsnake.instances.repeated_sample`.

The Wordsnake job's Python entry points live here too (:func:`solve_wordsnake`,
:func:`compare_wordsnake`):

>>> from cpwords.wordsnake.spec import solve_wordsnake, WordsnakeInstance
>>> res = solve_wordsnake(WordsnakeInstance(("seasick", "run", "nausea")))
>>> res.status.value, res.objective, res.solution
('OPTIMAL', 10.0, ['run', 'nausea', 'seasick'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cpwords.core.errors import CheckError, InputError
from cpwords.core.result import SolveResult, Status
from cpwords.core.result import gap_to_optimum as relative_gap
from cpwords.core.rows import sequence_json
from cpwords.core.spec import MethodInfo, PuzzleSpec, call_method, solve
from cpwords.wordsnake.instances import builtin_instance as builtin_instance
from cpwords.wordsnake.instances import load_instance as load_instance
from cpwords.wordsnake.instances import make_instance as make_instance
from cpwords.wordsnake.instances import random_strings as random_strings
from cpwords.wordsnake.instances import repeated_sample as repeated_sample
from cpwords.wordsnake.rules import WordsnakeInstance, snake_problems, snake_score
from cpwords.wordsnake.runners import RUNNERS, remaining_clock
from cpwords.wordsnake.runners import check_reserve as check_reserve

#: The registry (``cpwords snake --method``, suites, ``SolveResult.method``); ``exact`` is an
#: alias of ``auto``, the default.
METHODS: dict[str, MethodInfo] = {
    "auto": MethodInfo(
        "exact",
        description="the default: string-hub flow, repair, Lagrangian bound, core search, checked",
    ),
    "cpsat-routes": MethodInfo("exact", description="path cover with CP-SAT's routes constraint"),
    "mip": MethodInfo(
        "exact", description="letter-hub model: min-cost-flow relaxation, then MIP cuts (HiGHS)"
    ),
    "mip-scip": MethodInfo("exact", description="the same, with SCIP for the cut rounds"),
    "cpsat": MethodInfo("exact", description="CP-SAT on the letter-hub model with lazy cuts"),
    "naive": MethodInfo("exact", description="CP-SAT AddCircuit over the complete n x n graph"),
    "layered": MethodInfo("heuristic", seeded=True, description="the seed's layered greedy"),
    "greedy": MethodInfo("heuristic", seeded=True, description="nearest-neighbour greedy"),
    "local": MethodInfo("heuristic", seeded=True, description="nearest neighbour + local search"),
    "ortools-routing": MethodInfo(
        "heuristic",
        description="peer: OR-Tools routing, guided local search until it converges (no better "
        "tour for as long as its best took, at least 1 s) or the limit",
    ),
    "lkh": MethodInfo(
        "heuristic", seeded=True, description="peer: LKH-3 through elkai (cpwords[peers])"
    ),
}


#: The outside solvers among the heuristics (on the ATSP form; FEASIBLE, no bound).
PEERS = ("ortools-routing", "lkh")


def run(
    instance: WordsnakeInstance,
    method: str,
    *,
    seed: int,
    time_limit: float | None,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """Run one named method (see ``SPEC.methods``): the only dispatch on Wordsnake methods.

    ``params`` may hold ``iterations`` (layered greedy), ``hint`` (a starting ordering for the
    exact models), ``progress``, ``start`` and ``core_search`` (see
    :func:`cpwords.wordsnake.spec.solve_wordsnake`).
    """
    check_explicit_memory(instance, method)
    result = call_method(
        RUNNERS[method],
        instance,
        method,
        params=params,
        seed=seed,
        time_limit=time_limit,
        workers=workers,
    )
    return with_proof(result, method)


#: What an OPTIMAL answer of each exact method rests on: the default method's certificate,
#: checked by the independent checker (set by the method itself), or the solver's word.
PROOF_OF = {
    "mip": "highs", "mip-scip": "scip", "cpsat": "cp-sat", "cpsat-routes": "cp-sat",
    "naive": "cp-sat",
}  # fmt: skip


def with_proof(result: SolveResult, method: str) -> SolveResult:
    """The result with ``solver_info["proof"]``: what its OPTIMAL rests on.

    Parameters
    ----------
    result : SolveResult
    method : str
        The registry name of the method that gave it.

    Returns
    -------
    SolveResult
        ``proof`` is ``"certificate"`` (the default method: its certificate checked VALID),
        ``"highs"``, ``"scip"`` or ``"cp-sat"`` (the solver's own proof, not checked here), or
        None when the result is not OPTIMAL (heuristics never are).

    Examples
    --------
    >>> from cpwords.core.result import SolveResult, Status
    >>> r = SolveResult(Status.OPTIMAL, 3.0, 3.0, 0.1, ["ab", "bc"], "mip")
    >>> with_proof(r, "mip").solver_info["proof"]
    'highs'
    """
    info = dict(result.solver_info)
    if not result.is_optimal:
        info["proof"] = None
    elif method == "auto":
        info["proof"] = info.get("proof")
    else:
        info["proof"] = PROOF_OF.get(method)
    return replace(result, solver_info=info)


#: Methods that build the explicit overlap graph: the smallest overlap they keep as an arc, and
#: the memory of what they build on it as a multiple of the graph's (a MIP or CP-SAT model holds
#: the arcs again, twice at least: ENABLE's letter-hub MIP, estimated at 19.8 GiB for the graph
#: alone, was killed by the kernel after 6 minutes on this 23 GiB machine). The heuristics
#: (greedy, layered, local) work on :class:`~cpwords.wordsnake.heuristics.overlaps.OverlapIndex`,
#: linear in the letters, instead. ``cpsat-routes`` keeps every positive arc (overlap >= 1) and
#: CP-SAT holds each several times (one copy per worker): measured peaks of ``--method
#: cpsat-routes --time-limit 20`` on random ``abc`` strings, less 150 MB of interpreter and
#: libraries, were 15x (1,000 strings: 0.85 GB) and 11x (2,000: 1.9 GB) the graph at overlap >= 1.
EXPLICIT_GRAPH_METHODS = {
    "mip": (2, 2.5), "mip-scip": (2, 2.5), "cpsat": (2, 2.5), "cpsat-routes": (1, 16.0),
}  # fmt: skip

#: Share of the available memory a method may plan to use (the rest: the interpreter, the
#: checker, other processes).
MEMORY_HEADROOM = 0.8


def check_explicit_memory(instance: WordsnakeInstance, method: str) -> None:
    """Refuse, in one line and before building anything, a method that cannot fit in memory.

    Parameters
    ----------
    instance : WordsnakeInstance
    method : str
        A method of :data:`EXPLICIT_GRAPH_METHODS` (others are not checked here: the default
        method checks its own network, the peers their cost matrix).

    Raises
    ------
    InputError
        When the explicit overlap graph the method builds, and its model, would need more than
        ``MEMORY_HEADROOM`` of the memory available
        (:func:`cpwords.wordsnake.formulations.common.explicit_graph_bytes`).
    """
    entry = EXPLICIT_GRAPH_METHODS.get(method)
    if entry is None or instance.n < 2:
        return
    from cpwords.core.machine import available_memory
    from cpwords.wordsnake.formulations.common import explicit_graph_bytes

    lo, factor = entry
    need, have = factor * explicit_graph_bytes(instance, lo), available_memory()
    if need > MEMORY_HEADROOM * have:
        raise InputError(
            f"--method {method} builds the explicit overlap graph of these {instance.n:,} words, "
            f"about {need / 2**30:,.1f} GiB, more than the {have / 2**30:.1f} GiB available; the "
            "default method (exact) works on the string-hub network instead"
        )


def problems(instance: WordsnakeInstance, result: SolveResult) -> list[str]:
    """The puzzle's independent checker on a returned snake (every item exactly once)."""
    return snake_problems(instance, list(result.solution))


def objective(instance: WordsnakeInstance, solution: Any) -> float:
    """The snake's score recomputed from the strings (sum of squared overlaps, or of overlaps
    with ``score="linear"``)."""
    return float(snake_score(list(solution), instance.cyclic, instance.proper, instance.score))


def solution_json(solution: Any) -> Any:
    """A study row's copy of an ordering: :func:`cpwords.core.rows.sequence_json` (the words,
    or for more than 1,000 a summary with their count, the first 20 and a SHA-256 digest)."""
    return sequence_json(solution)


def certify(instance: WordsnakeInstance, result: SolveResult) -> dict[str, Any] | None:
    """Check the certificate a result carries (``solver_info["certificate"]``) for a study row.

    Parameters
    ----------
    instance : WordsnakeInstance
    result : SolveResult

    Returns
    -------
    dict or None
        ``status`` (VALID, PARTIAL or INVALID, or ``"not written"`` with ``reason``),
        ``bound``, ``check_time`` (s), ``write_time`` (s), ``gzip_bytes`` (the certificate's
        file, gzip) and ``list_gzip_bytes`` (the word list, one a line, gzip); None when no
        certificate was asked for.
    """
    import gzip
    import json

    from cpwords.wordsnake.certificate import certificate_to_json, verify_certificate

    info = result.solver_info
    if "certificate" not in info:
        return None
    cert = info["certificate"]
    if cert is None:
        return {"status": "not written", "reason": info.get("certificate_error")}
    found = verify_certificate(instance.words, cert)
    body = json.dumps(certificate_to_json(cert), separators=(",", ":")).encode("utf-8")
    listing = "\n".join(instance.words).encode("utf-8")
    return {
        "status": found.status,
        "bound": found.bound,
        "check_time": found.check_time,
        "write_time": info.get("certificate_time"),
        "gzip_bytes": len(gzip.compress(body, 6, mtime=0)),
        "list_gzip_bytes": len(gzip.compress(listing, 6, mtime=0)),
        "message": found.message,
    }


SPEC = PuzzleSpec(
    puzzle="wordsnake",
    sense="max",
    methods=METHODS,
    default_method="auto",
    aliases={"exact": "auto"},
    make_instance=make_instance,
    run=run,
    problems=problems,
    objective=objective,
    size=lambda inst: inst.n,
    solution_json=solution_json,
    size_label="words",
    spec_keys=frozenset(
        {"file", "words", "lexicon", "n", "seed", "min_len", "max_len", "cyclic", "proper"}
        | {"alphabet", "distinct", "score"}
    ),
    objective_label="sum of squared overlaps",
    certify=certify,
)


ProgressCallback = Callable[..., None]

#: Method names by kind, from the one registry (:data:`METHODS`).
EXACT_METHODS = SPEC.names("exact")
HEURISTIC_METHODS = tuple(m for m in SPEC.names("heuristic") if m not in PEERS)
#: Outside solvers on the ATSP form (FEASIBLE, no bound): see cpwords.wordsnake.heuristics.peers.
PEER_METHODS = PEERS
#: ``exact`` resolves to this backend (the fastest in benchmarks/results/study/report.md).
DEFAULT_EXACT = SPEC.default_method
METHOD_NAMES = ("exact", *EXACT_METHODS, *HEURISTIC_METHODS, *PEER_METHODS)

__all__ = [
    "DEFAULT_EXACT",
    "METHOD_NAMES",
    "PEER_METHODS",
    "Comparison",
    "WordsnakeInstance",
    "builtin_instance",
    "compare_wordsnake",
    "load_instance",
    "solve_wordsnake",
]


def solve_wordsnake(
    instance: WordsnakeInstance,
    method: str = "exact",
    *,
    time_limit: float | None = 600.0,
    workers: int = 2,
    seed: int = 0,
    iterations: int = 100,
    hint: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
    start: float | None = None,
    core_search: str = "mip",
    certificate: bool = False,
) -> SolveResult:
    """Solve a Wordsnake instance with an exact model or a heuristic, and verify the answer.

    This is :func:`cpwords.core.spec.solve` for ``"wordsnake"`` with Wordsnake's own parameters.

    Parameters
    ----------
    instance : WordsnakeInstance
    method : str
        ``"exact"`` (= ``DEFAULT_EXACT``, ``"auto"``: the string-hub min-cost flow with its
        certificate, repair and Lagrangian bound, then reduced-cost fixing and an exact search
        of the joints that remain, see :func:`cpwords.wordsnake.exact.methods.solve_exact`),
        ``"mip"`` (letter-hub integer program in HiGHS), ``"mip-scip"`` (the same in SCIP),
        ``"cpsat"`` (letter-hub model in CP-SAT), ``"cpsat-routes"`` (path cover with CP-SAT's
        routes constraint), ``"naive"`` (CP-SAT circuit over the complete digraph), or a
        heuristic: ``"layered"`` (the seed's randomised layered greedy), ``"local"`` (nearest
        neighbour + local search), ``"greedy"`` (nearest neighbour); or an outside solver on
        the ATSP form: ``"ortools-routing"`` (OR-Tools routing, guided local search until it
        converges or the time limit), ``"lkh"`` (LKH-3 through the optional ``elkai``).
    time_limit : float or None
        Seconds for the whole call, heuristic start and the check of the answer included,
        counted from ``start``. A method that its limit stops before it found an ordering
        returns the input order (FEASIBLE, its score; ``solver_info["answer"]`` says so).
    workers : int
        Solver threads / CP-SAT workers.
    seed : int
        Random seed (solvers and heuristics).
    iterations : int
        Iterations of the layered greedy (at least 1).
    hint : sequence of str, optional
        A starting ordering for the exact models. When omitted, the letter-hub and routes models
        start from one iteration of the layered greedy; ``exact`` makes its own greedy start.
    progress : callable, optional
        ``progress(elapsed, incumbent, bound)`` during exact solves; a callback taking a fourth
        argument also receives the stage name.
    start : float, optional
        ``time.perf_counter()`` at which the limit started (a CLI passes the time before it read
        the input, so the limit covers the whole command); default: now.
    core_search : {"mip", "cpsat"}
        ``exact`` only: how the core left by reduced-cost fixing is searched (HiGHS
        branch-and-cut with repeated words as one node, or CP-SAT's routes constraint over the
        items).
    certificate : bool
        ``exact`` only: also compute a certificate of the bound
        (:class:`~cpwords.wordsnake.certificate.Certificate`, in
        ``solver_info["certificate"]``, None with ``solver_info["certificate_error"]`` when
        stopped before the first bound); check it with
        :func:`~cpwords.wordsnake.certificate.verify_certificate`.

    Returns
    -------
    SolveResult
        ``solution``: the ordered words, ``verified`` True, ``method`` the registry name
        (``"exact"`` gives ``"auto"``); after Ctrl-C, ``solver_info["interrupted"]``.

    Raises
    ------
    InputError
        Unknown method, bad limits, or an instance too large for the memory available;
        ``"lkh"`` without ``elkai`` installed.
    CheckError
        A solution fails the independent checker (a bug).
    """
    params = _method_params(method, iterations, hint, progress, start, core_search, certificate)
    return solve(
        SPEC, instance, method, time_limit=time_limit, workers=workers, seed=seed, **params
    )


def _method_params(
    method: str,
    iterations: int,
    hint: Sequence[str] | None,
    progress: ProgressCallback | None,
    start: float | None,
    core_search: str,
    certificate: bool,
) -> dict[str, Any]:
    """The parameters of :func:`solve_wordsnake` that ``method`` takes, checked: at least one
    iteration, a known method, a certificate only from the default exact method."""
    if iterations < 1:
        raise InputError(f"the number of iterations must be at least 1, got {iterations}")
    name = SPEC.method_name(method)
    params: dict[str, Any] = {}
    if SPEC.methods[name].kind == "exact":
        params = {"hint": hint, "progress": progress, "start": start}
        if name == "auto":
            params["core_search"] = core_search
            params["certificate"] = certificate
    elif name == "layered":
        params = {"iterations": iterations, "start": start}
    else:
        params = {"start": start}
    if certificate and name != "auto":
        raise InputError(
            f"certificates come from the default exact method; drop --method {method} "
            "(or use --method exact)"
        )
    return params


@dataclass(frozen=True)
class Comparison:
    """Results of several methods on one instance, with gaps to the proven optimum.

    Attributes
    ----------
    results : tuple of SolveResult
        One per method, in the order asked.
    optimum : float or None
        The proven optimum when some exact method proved it, else None.
    best_bound : float or None
        The smallest dual bound seen (an upper bound on every score).
    interrupted : bool
        Ctrl-C stopped the comparison: ``results`` holds the methods that ran (the one that
        was stopped with its best answer so far, when it had one).
    """

    results: tuple[SolveResult, ...]
    optimum: float | None
    best_bound: float | None
    interrupted: bool = False

    def gap_to_optimum(self, result: SolveResult) -> float | None:
        """``(optimum - score) / max(1, optimum)``, only against a proven optimum."""
        return relative_gap(result.objective, self.optimum, "max")

    def gap_to_bound(self, result: SolveResult) -> float | None:
        """``(best_bound - score) / max(1, best_bound)``: at least the gap to the optimum, and
        what can be said of a method when no optimum is proven."""
        return relative_gap(result.objective, self.best_bound, "max")


#: The share of a comparison's time limit the first (exact) method may take.
COMPARE_FIRST_SHARE = 0.5


def _time_shares(
    time_limit: float | None, start: float | None, n: int
) -> Callable[[int], float | None]:
    """Seconds for the ``k``-th of ``n`` methods sharing ``time_limit`` (see
    :func:`compare_wordsnake`); None without a limit."""
    left = remaining_clock(start, time_limit)  # what is left of the whole comparison's limit

    def share(k: int) -> float | None:
        remaining = left()
        if remaining is None or time_limit is None:
            return None
        first = remaining - (1 - COMPARE_FIRST_SHARE) * time_limit  # its share, less the time gone
        return max(0.05, min(first if k == 0 else remaining / (n - k), remaining))

    return share


def compare_wordsnake(
    instance: WordsnakeInstance,
    methods: Sequence[str] = ("exact", "layered", "local", "greedy"),
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
    **kwargs: Any,
) -> Comparison:
    """Run several methods on one instance and measure each against the proven optimum.

    Parameters
    ----------
    instance : WordsnakeInstance
    methods : sequence of str
        Methods as in :func:`solve_wordsnake`.
    overrides : mapping, optional
        Per-method keyword arguments that replace ``kwargs`` for that method (e.g. a shorter
        ``time_limit`` for the peers).
    **kwargs
        Passed to :func:`solve_wordsnake`.

    Returns
    -------
    Comparison

    Raises
    ------
    CheckError
        A heuristic beats a proven optimum (a bug in the exact model).

    Notes
    -----
    ``time_limit`` (in ``kwargs``) is the whole comparison's: the first method has
    :data:`COMPARE_FIRST_SHARE` of it, counted from ``start`` when given; each method after it
    an equal part of what is left (a peer's own limit in ``overrides`` caps its part).
    """
    over = overrides or {}
    runs = []
    interrupted = False
    share = _time_shares(kwargs.get("time_limit"), kwargs.get("start"), len(methods))
    for k, m in enumerate(methods):
        kw = {**kwargs, **over.get(m, {})}
        if k:  # ``start`` (the command's start) times the first method; the others get their own
            kw.pop("start", None)
        if kwargs.get("time_limit") is not None:
            own = over.get(m, {}).get("time_limit")  # a peer's own limit, within its share
            kw["time_limit"] = share(k) if own is None else min(own, share(k))
        try:
            runs.append(solve_wordsnake(instance, m, **kw))
        except KeyboardInterrupt:
            interrupted = True  # keep what the methods before it found
            break
        except InputError as exc:
            if not k:
                raise
            # A method that cannot run on this list (too large for memory) is reported as such,
            # and the answers already found are kept.
            runs.append(
                SolveResult(
                    Status.UNKNOWN,
                    None,
                    None,
                    0.0,
                    None,
                    SPEC.method_name(m),
                    solver_info={"reason": str(exc)},
                )
            )
        if runs[-1].solver_info.get("interrupted"):
            interrupted = True  # Ctrl-C stopped this method: the others are not started
            break
    results = tuple(runs)
    proven = [r.objective for r in results if r.is_optimal and r.objective is not None]
    bounds = [r.bound for r in results if r.bound is not None]
    optimum = proven[0] if proven else None
    if optimum is not None:
        for r in results:
            if r.objective is not None and r.objective > optimum + 1e-9:
                raise CheckError(
                    f"{r.method} scored {r.objective} above the proven optimum {optimum}"
                )
    return Comparison(results, optimum, min(bounds) if bounds else None, interrupted)
