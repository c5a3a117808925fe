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
from .puzzles.wordsnake import WordsnakeInstance
from .result import SolveResult
from .spec import solve
from .specs.wordsnake import PEERS, SPEC

ProgressCallback = Callable[..., None]

#: Method names by kind, from the one registry (:data:`cpwords.specs.wordsnake.METHODS`).
EXACT_METHODS = SPEC.names("exact")
HEURISTIC_METHODS = tuple(m for m in SPEC.names("heuristic") if m not in PEERS)
#: Outside solvers on the ATSP form (FEASIBLE, no bound): see cpwords.heuristics.wordsnake_peers.
PEER_METHODS = PEERS
#: ``exact`` resolves to this backend (the fastest in benchmarks/results/study/report.md).
DEFAULT_EXACT = SPEC.default_method
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
    start: float | None = None,
    core_search: str = "mip",
) -> SolveResult:
    """Solve a Wordsnake instance with an exact model or a heuristic, and verify the answer.

    This is :func:`cpwords.spec.solve` for ``"wordsnake"`` with Wordsnake's own parameters.

    Parameters
    ----------
    instance : WordsnakeInstance
    method : str
        ``"exact"`` (= ``DEFAULT_EXACT``, ``"auto"``: the string-hub min-cost flow with its
        certificate, repair and Lagrangian bound, then reduced-cost fixing and an exact search
        of the joints that remain, see :func:`cpwords.models.wordsnake.solve_exact`),
        ``"mip"`` (letter-hub integer program in HiGHS), ``"mip-scip"`` (the same in SCIP),
        ``"cpsat"`` (letter-hub model in CP-SAT), ``"cpsat-routes"`` (path cover with CP-SAT's
        routes constraint), ``"naive"`` (CP-SAT circuit over the complete digraph), or a
        heuristic: ``"layered"`` (the seed's randomised layered greedy), ``"local"`` (nearest
        neighbour + local search), ``"greedy"`` (nearest neighbour); or an outside solver on
        the ATSP form: ``"ortools-routing"`` (OR-Tools routing, guided local search until the
        time limit), ``"lkh"`` (LKH-3 through the optional ``elkai``).
    time_limit : float or None
        Seconds for the whole call, heuristic start included, counted from ``start``.
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

    Returns
    -------
    SolveResult
        ``solution`` is the ordered list of words; ``verified`` is True; ``method`` is the
        registry name (``"exact"`` gives ``"auto"``). ``solver_info["interrupted"]`` is True
        when Ctrl-C stopped an exact solve (the best ordering so far is returned with its
        bound).

    Raises
    ------
    InputError
        Unknown method, bad limits, or an instance too large for the memory available;
        ``"lkh"`` without ``elkai`` installed.
    CheckError
        A solution fails the independent checker (a bug).
    """
    if iterations < 1:
        raise InputError(f"the number of iterations must be at least 1, got {iterations}")
    name = SPEC.method_name(method)
    params: dict[str, Any] = {}
    if SPEC.methods[name].kind == "exact":
        params = {"hint": hint, "progress": progress, "start": start}
        if name == "auto":
            params["core_search"] = core_search
    elif name == "layered":
        params = {"iterations": iterations, "start": start}
    elif name != "greedy":
        params = {"start": start}
    return solve(
        SPEC, instance, method, time_limit=time_limit, workers=workers, seed=seed, **params
    )


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
    runs = []
    for k, m in enumerate(methods):
        kw = {**kwargs, **over.get(m, {})}
        if k:  # ``start`` (the command's start) times the first method; the others get their own
            kw.pop("start", None)
        runs.append(solve_wordsnake(instance, m, **kw))
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
    return Comparison(results, optimum, min(bounds) if bounds else None)
