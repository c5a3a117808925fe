"""The Wordsnake job: one entry point for exact models and heuristics, with verification.

>>> from cpwords.wordsnake import solve_wordsnake, WordsnakeInstance
>>> res = solve_wordsnake(WordsnakeInstance(("seasick", "run", "nausea")))
>>> res.status.value, res.objective, res.solution
('OPTIMAL', 10.0, ['run', 'nausea', 'seasick'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .errors import CheckError, InputError
from .lexicon import parse_word_lines, read_word_list
from .puzzles.wordsnake import WordsnakeInstance, check_snake
from .result import SolveResult

ProgressCallback = Callable[[float, float | None, float | None], None]

EXACT_METHODS = ("auto", "mip", "mip-scip", "cpsat", "cpsat-routes", "naive")
HEURISTIC_METHODS = ("layered", "local", "greedy")
#: Outside solvers on the ATSP form (FEASIBLE, no bound): see cpwords.heuristics.wordsnake_peers.
PEER_METHODS = ("ortools-routing", "lkh")
#: ``exact`` resolves to this backend (the fastest in benchmarks/results/wordsnake.md).
DEFAULT_EXACT = "auto"
METHODS = ("exact", *EXACT_METHODS, *HEURISTIC_METHODS, *PEER_METHODS)

__all__ = [
    "DEFAULT_EXACT",
    "METHODS",
    "PEER_METHODS",
    "Comparison",
    "WordsnakeInstance",
    "builtin_instance",
    "compare_wordsnake",
    "load_instance",
    "solve_wordsnake",
    "verify",
]


def builtin_instance(cyclic: bool = False, proper: bool = False) -> WordsnakeInstance:
    """The built-in demonstration list (``cpwords snake`` without a file).

    Returns
    -------
    WordsnakeInstance
        The words of ``cpwords/data/wordsnake_demo.txt`` (written for this project).
    """
    text = resources.files("cpwords.data").joinpath("wordsnake_demo.txt").read_text("utf-8")
    return WordsnakeInstance(
        tuple(parse_word_lines(text, "wordsnake_demo.txt")), cyclic, proper, "builtin-demo"
    )


def load_instance(path: str, cyclic: bool = False, proper: bool = False) -> WordsnakeInstance:
    """Read a Wordsnake instance from a word-list file.

    Raises
    ------
    InputError
        Missing, unreadable or non-UTF-8 file, a line that is not a-z letters, an empty list.
    """
    return WordsnakeInstance(tuple(read_word_list(path)), cyclic, proper, str(path))


def verify(instance: WordsnakeInstance, result: SolveResult) -> SolveResult:
    """Re-check a result with the independent checker and set ``verified``.

    Raises
    ------
    CheckError
        When the solution is not a permutation of the items or its recomputed score differs
        from ``result.objective`` (always a bug in cpwords).
    """
    if result.solution is None:
        return result.with_verified(False)
    if not check_snake(instance, result.solution, result.objective or 0):
        raise CheckError(
            f"{result.method} returned a snake that fails the independent checker "
            f"(claimed score {result.objective})"
        )
    return result.with_verified(True)


def solve_wordsnake(
    instance: WordsnakeInstance,
    method: str = "exact",
    *,
    time_limit: float | None = 60.0,
    workers: int = 2,
    seed: int = 0,
    iterations: int = 100,
    hint: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
) -> SolveResult:
    """Solve a Wordsnake instance with an exact model or a heuristic, and verify the answer.

    Parameters
    ----------
    instance : WordsnakeInstance
    method : str
        ``"exact"`` (= ``DEFAULT_EXACT``, ``"auto"``: min-cost-flow relaxation, then the routes
        model or the MIP cut loop, see :func:`cpwords.models.wordsnake.solve_exact`),
        ``"mip"`` (letter-hub integer program in HiGHS), ``"mip-scip"`` (the same in SCIP),
        ``"cpsat"`` (letter-hub model in CP-SAT), ``"cpsat-routes"`` (path cover with CP-SAT's
        routes constraint), ``"naive"`` (CP-SAT circuit over the complete digraph), or a
        heuristic:
        ``"layered"`` (the seed's randomised layered greedy), ``"local"`` (nearest neighbour +
        local search), ``"greedy"`` (nearest neighbour); or an outside solver on the ATSP
        form: ``"ortools-routing"`` (OR-Tools routing, guided local search until the time
        limit), ``"lkh"`` (LKH-3 through the optional ``elkai``).
    time_limit : float or None
        Seconds.
    workers : int
        Solver threads / CP-SAT workers.
    seed : int
        Random seed (solvers and heuristics).
    iterations : int
        Iterations of the layered greedy.
    hint : sequence of str, optional
        A starting ordering for the exact models. When omitted, one iteration of the layered
        greedy is used (all exact methods except ``naive``).
    progress : callable, optional
        ``progress(elapsed, incumbent, bound)`` during exact solves.

    Returns
    -------
    SolveResult
        ``solution`` is the ordered list of words; ``verified`` is True.

    Raises
    ------
    InputError
        Unknown method or bad limits; ``"lkh"`` without ``elkai`` installed.
    CheckError
        A solution fails the independent checker (a bug).
    """
    from .heuristics import wordsnake as heur
    from .models import wordsnake as exact

    if method == "exact":
        method = DEFAULT_EXACT
    if method in PEER_METHODS:
        from .heuristics import wordsnake_peers as peers

        peer = peers.ortools_routing if method == "ortools-routing" else peers.lkh
        return verify(instance, peer(instance, time_limit=time_limit, seed=seed))
    if method not in EXACT_METHODS and method not in HEURISTIC_METHODS:
        raise InputError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if time_limit is not None and time_limit <= 0:
        raise InputError(f"the time limit must be positive, got {time_limit}")
    if method in HEURISTIC_METHODS:
        if method == "layered":
            res = heur.layered_greedy(
                instance, iterations=iterations, seed=seed, time_limit=time_limit
            )
        elif method == "local":
            res = heur.local_search(instance, seed=seed, time_limit=time_limit)
        else:
            res = heur.nearest_neighbour(instance, seed=seed)
        return verify(instance, res)
    if hint is None and method != "naive":
        # One pass of the layered greedy (a fraction of a second even for 10,000 words) is the
        # starting incumbent; when a limit stops a solve, the answer is never worse than it.
        hint = heur.layered_greedy(instance, iterations=1, seed=seed).solution
    common: dict[str, Any] = {
        "time_limit": time_limit,
        "seed": seed,
        "hint": hint,
        "progress": progress,
    }
    if method == "auto":
        res = exact.solve_exact(instance, workers=workers, **common)
    elif method == "mip":
        res = exact.solve_hub_mip(instance, backend="highs", workers=workers, **common)
    elif method == "mip-scip":
        res = exact.solve_hub_mip(instance, backend="scip", workers=workers, **common)
    elif method == "cpsat":
        res = exact.solve_hub_cpsat(instance, workers=workers, **common)
    elif method == "cpsat-routes":
        res = exact.solve_routes_cpsat(instance, workers=workers, **common)
    else:
        res = exact.solve_naive_circuit(instance, workers=workers, **common)
    return verify(instance, res)


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
    """

    results: tuple[SolveResult, ...]
    optimum: float | None
    best_bound: float | None

    def gap_to_optimum(self, result: SolveResult) -> float | None:
        """``(optimum - score) / max(1, optimum)``, only against a proven optimum."""
        if self.optimum is None or result.objective is None:
            return None
        return (self.optimum - result.objective) / max(1.0, abs(self.optimum))


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
        ``time_limit`` for the peers, whose local search runs until the limit).
    **kwargs
        Passed to :func:`solve_wordsnake`.

    Returns
    -------
    Comparison

    Raises
    ------
    CheckError
        A heuristic beats a proven optimum (a bug in the exact model).
    """
    over = overrides or {}
    results = tuple(solve_wordsnake(instance, m, **{**kwargs, **over.get(m, {})}) for m in methods)
    proven = [r.objective for r in results if r.is_optimal and r.objective is not None]
    bounds = [r.bound for r in results if r.bound is not None]
    optimum = proven[0] if proven else None
    if optimum is not None:
        for r in results:
            if r.objective is not None and r.objective > optimum + 1e-9:
                raise CheckError(
                    f"{r.method} scored {r.objective} above the proven optimum {optimum}"
                )
    return Comparison(results, optimum, min(bounds) if bounds else None)
