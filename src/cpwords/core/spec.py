"""One seam for every puzzle: its spec (instances, methods, checker) and :func:`solve`.

Each puzzle has one *spec*, a :class:`PuzzleSpec` defined as ``SPEC`` in
``cpwords.specs.<puzzle>``: how to build an instance (from a benchmark suite's table), the
registry of its methods with their kind (exact, heuristic or the seed's baseline), the direction
of its objective, how to run a named method, and how to re-check a solution with the puzzle's
independent checker (``cpwords.puzzles``, which shares no code with the models).

:func:`solve` is the only place a method is dispatched and a solution verified. The CLI
subcommands, the Python API (``cpwords.solve``, :func:`cpwords.solve_wordsnake`, ...) and
``cpwords bench`` all call it, so a method has exactly one name everywhere: the name in the
spec's registry is the one the CLI's ``--method`` takes, the one a suite lists and the one in
``SolveResult.method`` and every JSON row.

>>> from cpwords.core.spec import get_spec, solve
>>> from cpwords.wordsnake.rules import WordsnakeInstance
>>> sorted(get_spec("letterboxed").methods)
['cpsat', 'dp', 'dp-cold', 'seed-best', 'seed-first']
>>> res = solve("wordsnake", WordsnakeInstance(("seasick", "run", "nausea")), "auto")
>>> res.status.value, res.objective, res.method, res.verified
('OPTIMAL', 10.0, 'auto', True)

The design follows PyVRP (one ``solve()`` returning one ``Result``) and networkx, which keeps the
checker beside each algorithm (``min_edge_cover`` / ``is_edge_cover``).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from cpwords.core.errors import CheckError, InputError
from cpwords.core.interrupts import current_stop, stop_scope
from cpwords.core.result import SolveResult, Status

_T = TypeVar("_T")

#: Kinds of method. Only ``exact`` results may prove an optimum or supply a dual bound.
KINDS = ("exact", "heuristic", "baseline")


@dataclass(frozen=True)
class MethodInfo:
    """A method a puzzle offers.

    Attributes
    ----------
    kind : {"exact", "heuristic", "baseline"}
        ``exact`` methods may prove optimality; the others are scored against them
        (``baseline``: the seed article's own algorithm).
    seeded : bool
        Whether the seed changes the outcome (a suite may then list several seeds).
    description : str
        One line for ``--help`` and ``cpwords bench --list``.
    """

    kind: str
    seeded: bool = False
    description: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {self.kind!r}")


RunFn = Callable[..., SolveResult]


@dataclass(frozen=True)
class PuzzleSpec:
    """Everything the pipeline needs to know about one puzzle.

    Parameters
    ----------
    puzzle : str
        The puzzle's name (``"wordsnake"``, the name suites and :func:`solve` use).
    sense : {"max", "min"}
        Direction of the objective.
    methods : Mapping[str, MethodInfo]
        The registry: every method's one name, in the order ``--help`` lists them.
    default_method : str
        The method used when none is named.
    make_instance : callable ``(table, base_dir) -> instance``
        Build an instance from one concrete instance table of a benchmark suite (a JSON-like
        dict); relative paths are resolved against ``base_dir``, the suite's folder. Raises
        :class:`~cpwords.core.errors.InputError` for a bad table.
    run : callable ``(instance, method, *, seed, time_limit, workers, params) -> SolveResult``
        Run one method (the only dispatch on method names). ``time_limit`` in seconds or None,
        ``workers`` solver threads, ``params`` the method's extra keyword arguments.
    problems : callable ``(instance, result) -> list of str``
        The puzzle's independent checker applied to a result that holds a solution (and to any
        further solutions it lists, e.g. every optimal chain); empty when valid.
    objective : callable ``(instance, solution) -> float``
        The objective recomputed from a decoded solution by the puzzle's own rules.
    size : callable ``(instance) -> int``
        The instance size plotted on the x axis (e.g. number of words).
    size_label : str
        What ``size`` counts, for axis labels.
    spec_keys : frozenset of str
        Keys an instance table may hold (besides ``name``, ``puzzle`` and ``sweep``).
    expand : callable ``(table, base_dir) -> list of table``, optional
        Turn one instance table into several (e.g. one per puzzle of a data file).
    reference : callable ``(instance) -> dict``, optional
        Published reference values stored with each row (e.g. the newspaper's par).
    solution_json : callable ``(solution) -> Any``, optional
        A JSON-friendly rendering of a solution for a study row.
    measures : callable ``(instance, result) -> dict``, optional
        Named parts of a result's objective stored with its row (e.g. words and letters).
    certify : callable ``(instance, result) -> dict or None``, optional
        Check the certificate a result carries with the puzzle's certificate checker; returns
        ``{"status": "VALID" | "PARTIAL" | "INVALID", ...}`` (a study's ``certified`` column),
        or None when the result carries none.
    objective_label : str
        What the objective measures, for axis labels.
    aliases : Mapping[str, str]
        Other names accepted for a method (e.g. ``"exact"`` for the default exact one); the
        result always carries the registry name.
    """

    puzzle: str
    sense: str
    methods: Mapping[str, MethodInfo]
    default_method: str
    make_instance: Callable[[Mapping[str, Any], Path], Any]
    run: RunFn
    problems: Callable[[Any, SolveResult], list[str]]
    objective: Callable[[Any, Any], float]
    size: Callable[[Any], int]
    size_label: str = "size"
    spec_keys: frozenset[str] = frozenset()
    expand: Callable[[Mapping[str, Any], Path], list[dict[str, Any]]] | None = None
    reference: Callable[[Any], dict[str, Any]] | None = None
    solution_json: Callable[[Any], Any] | None = None
    measures: Callable[[Any, SolveResult], dict[str, float]] | None = None
    certify: Callable[[Any, SolveResult], dict[str, Any] | None] | None = None
    objective_label: str = "objective"
    aliases: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.sense not in ("max", "min"):
            raise ValueError(f"sense must be 'max' or 'min', not {self.sense!r}")
        if self.default_method not in self.methods:
            raise ValueError(f"default method {self.default_method!r} is not in the registry")

    def method_name(self, method: str | None) -> str:
        """The registry name of ``method`` (None: the default; an alias: its target).

        Parameters
        ----------
        method : str or None
            A registry name, an alias, or None.

        Returns
        -------
        str
            A key of ``methods``.

        Raises
        ------
        InputError
            When the puzzle has no such method.
        """
        if method is None:
            return self.default_method
        name = self.aliases.get(method, method)
        if name not in self.methods:
            raise InputError(
                f"unknown {self.puzzle} method {method!r}; choose one of "
                f"{', '.join([*self.methods, *self.aliases])}"
            )
        return name

    def names(self, kind: str | None = None) -> tuple[str, ...]:
        """Registry names, all or those of one kind, in registry order.

        Parameters
        ----------
        kind : {"exact", "heuristic", "baseline"}, optional
            Only the methods of this kind (default: all).

        Returns
        -------
        tuple of str
        """
        return tuple(m for m, i in self.methods.items() if kind is None or i.kind == kind)


#: Built-in puzzles: name -> module defining ``SPEC``.
BUILTIN: dict[str, str] = {
    "wordsnake": "cpwords.wordsnake.spec",
    "letterboxed": "cpwords.letterboxed.spec",
    "truncate": "cpwords.truncate.spec",
    "grid": "cpwords.grid.spec",
    "grid-fill": "cpwords.grid.fill_spec",
    "letterpress": "cpwords.letterpress.spec",
    "letterpress-board": "cpwords.letterpress.board_spec",
    "chain": "cpwords.chain.spec",
    "superstring": "cpwords.superstring.spec",
}

_REGISTERED: dict[str, PuzzleSpec] = {}


def register_spec(spec: PuzzleSpec) -> None:
    """Register a spec under ``spec.puzzle`` for this process (tests, plug-ins).

    Worker processes forked afterwards inherit it; a suite can also name a spec by import path
    (``puzzle = "package.module:SPEC"``), which works in any worker.

    Parameters
    ----------
    spec : PuzzleSpec
    """
    _REGISTERED[spec.puzzle] = spec


def known_puzzles() -> list[str]:
    """Names of the built-in and registered puzzles.

    Returns
    -------
    list of str
        Sorted.
    """
    return sorted(set(BUILTIN) | set(_REGISTERED))


def get_spec(puzzle: str | PuzzleSpec) -> PuzzleSpec:
    """The spec of ``puzzle``: a registered or built-in name, ``module:ATTR``, or a spec.

    Parameters
    ----------
    puzzle : str or PuzzleSpec
        ``"wordsnake"``, ..., a registered name, ``"package.module:ATTR"``, or a spec (returned
        as it is).

    Returns
    -------
    PuzzleSpec
        Imported on first use and cached for the process.

    Raises
    ------
    InputError
        When no such puzzle is known.
    """
    if isinstance(puzzle, PuzzleSpec):
        return puzzle
    if puzzle in _REGISTERED:
        return _REGISTERED[puzzle]
    if puzzle in BUILTIN:
        target = BUILTIN[puzzle] + ":SPEC"
    elif ":" in puzzle:
        target = puzzle
    else:
        raise InputError(
            f"unknown puzzle {puzzle!r} (known: {', '.join(known_puzzles())}; "
            "or give a spec as 'module:ATTR')"
        )
    modname, _, attr = target.partition(":")
    try:
        module = importlib.import_module(modname)
    except ImportError as exc:
        raise InputError(f"cannot import the spec for {puzzle!r}: {exc}") from None
    spec = getattr(module, attr, None)
    if not isinstance(spec, PuzzleSpec):
        raise InputError(f"{target} is not a cpwords.core.spec.PuzzleSpec")
    _REGISTERED[puzzle] = spec
    return spec


def call_method(fn: Callable[..., _T], *args: Any, params: Mapping[str, Any], **fixed: Any) -> _T:
    """Call ``fn(*args, **fixed, **params)`` after checking ``params`` against its signature.

    The keyword arguments ``fixed`` that ``fn`` does not accept (e.g. ``time_limit`` for a
    heuristic without one) are dropped; an unknown name in ``params`` is an error.

    Parameters
    ----------
    fn : callable
        The method's function.
    *args
        Its positional arguments.
    params : mapping
        The caller's keyword arguments for ``fn`` (a suite's ``params``, an API's options).
    **fixed
        Keyword arguments passed only where ``fn`` accepts them.

    Returns
    -------
    Any
        What ``fn`` returns.

    Raises
    ------
    InputError
        A name in ``params`` that ``fn`` does not accept, or that ``fixed`` already sets; the
        message names the accepted ones.
    """
    sig = inspect.signature(fn)
    accepted = {
        n for n, p in sig.parameters.items() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    }
    name = getattr(fn, "__name__", "method")
    for k in params:
        if k not in accepted or k in fixed:
            raise InputError(
                f"{name} has no parameter {k!r} "
                f"(accepted: {', '.join(sorted(accepted - set(fixed))) or 'none'})"
            )
    kwargs = {k: v for k, v in fixed.items() if k in accepted}
    kwargs.update(params)
    return fn(*args, **kwargs)


def no_params(puzzle: str, params: Mapping[str, Any]) -> None:
    """Refuse extra parameters for a puzzle whose methods take none.

    Raises
    ------
    InputError
        When ``params`` is not empty.
    """
    if params:
        raise InputError(f"{puzzle} methods take no params (got {', '.join(params)})")


def verify(spec: PuzzleSpec, instance: Any, result: SolveResult) -> tuple[bool, str | None]:
    """Re-check ``result`` with the spec's independent checker and recomputed objective.

    Parameters
    ----------
    spec : PuzzleSpec
    instance : Any
        The instance the result answers.
    result : SolveResult
        A result holding a solution and an objective.

    Returns
    -------
    (bool, str or None)
        Whether the solution (and every further solution the result lists) is valid and its
        objective, recomputed from the decoded solution, equals ``result.objective``; and the
        first problem found.
    """
    problems = list(spec.problems(instance, result))
    if problems:
        return False, problems[0]
    value = spec.objective(instance, result.solution)
    claimed = result.objective
    if claimed is None or not math.isclose(float(value), float(claimed), abs_tol=1e-6):
        return False, f"objective recomputed as {value}, claimed {claimed}"
    return True, None


def _stopped_by_limit(kind: str, res: SolveResult, time_limit: float | None) -> bool:
    """Whether an exact method ended unproven because its time limit ran out, without saying
    so itself (``solver_info["stopped"]``): FEASIBLE (no proof), or UNKNOWN at the limit."""
    info = res.solver_info
    if kind != "exact" or time_limit is None or "stopped" in info or info.get("interrupted"):
        return False
    if res.status is Status.FEASIBLE:
        return True
    return res.status is Status.UNKNOWN and res.wall_time >= 0.95 * time_limit


def solve(
    puzzle: str | PuzzleSpec,
    instance: Any,
    method: str | None = None,
    *,
    time_limit: float | None = None,
    workers: int = 1,
    seed: int = 0,
    strict: bool = True,
    check: bool = True,
    **params: Any,
) -> SolveResult:
    """Solve ``instance`` of ``puzzle`` with a named method and verify the answer.

    Parameters
    ----------
    puzzle : str or PuzzleSpec
        ``"wordsnake"``, ``"letterboxed"``, ``"truncate"``, ``"grid"``, ``"letterpress"``, a
        registered name or a spec.
    instance : Any
        The puzzle's instance (e.g. a :class:`~cpwords.wordsnake.rules.WordsnakeInstance`,
        a :class:`cpwords.letterboxed.spec.LetterBoxedCase`).
    method : str, optional
        A name from ``get_spec(puzzle).methods`` (or an alias); default the spec's default.
    time_limit : float, optional
        Seconds for the whole call (positive); None for no limit.
    workers : int
        Solver threads (CP-SAT workers).
    seed : int
        Random seed of solvers and heuristics.
    strict : bool
        True: a solution that fails the checker raises :class:`~cpwords.core.errors.CheckError`.
        False: it is returned with ``verified=False`` (the benchmark harness records it).
    check : bool
        False: return the result unchecked (``verified`` None). The harness times a method by
        repeating it and checks only the answer it keeps, the last one.
    **params
        The method's own keyword arguments (e.g. ``hint`` or ``progress`` for Wordsnake,
        ``all_solutions`` for Letter Boxed's ``dp``); unknown names raise InputError.

    Returns
    -------
    SolveResult
        ``method`` is the registry name; the model's own label, when it differs, is kept in
        ``solver_info["model"]``. An exact method stopped unproven by ``time_limit`` has
        ``solver_info["stopped"] = "time_limit"``. ``verified`` is True when a solution
        passed the checker (False only with ``strict=False``); None when there is no solution
        to check. Ctrl-C, SIGTERM and SIGHUP (in the main thread; SIGTERM and SIGHUP where the
        command line made them stop as Ctrl-C does) set the call's stop
        (:func:`~cpwords.core.interrupts.stop_scope`): the method returns its best answer so
        far, and one that arrives after it answered, or during the check, is held until the
        check ends; either way ``solver_info["interrupted"]`` is True.

    Raises
    ------
    InputError
        Unknown puzzle or method, bad limits or parameters, bad input for the method.
    CheckError
        With ``strict``, a solution that fails the independent checker (a bug in cpwords).
    """
    spec = get_spec(puzzle)
    name = spec.method_name(method)
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise InputError(f"the time limit must be a positive number of seconds, got {time_limit}")
    if workers < 1:
        raise InputError(f"workers must be at least 1, got {workers}")
    with stop_scope() as stop, stop.held():
        with stop.raising():  # the methods stop on KeyboardInterrupt, or look at the flag
            stop.check()  # a stop asked before (held between a comparison's methods)
            res = spec.run(
                instance, name, seed=seed, time_limit=time_limit, workers=workers, params=params
            )
        return _checked(spec, name, instance, res, time_limit, strict=strict, check=check)


def _checked(
    spec: PuzzleSpec,
    name: str,
    instance: Any,
    res: SolveResult,
    time_limit: float | None,
    *,
    strict: bool,
    check: bool,
) -> SolveResult:
    """:func:`solve`'s answer named, marked and checked by the independent checker, with
    Ctrl-C, SIGTERM and SIGHUP held (the check is linear in the answer, under a second on whole
    dictionaries): a signal that arrives after the method answered, or during the check, does
    not throw the answer away; it is marked interrupted."""
    stop = current_stop()
    if res.method != name:
        res = dataclasses.replace(
            res, method=name, solver_info={**res.solver_info, "model": res.method}
        )
    if _stopped_by_limit(spec.methods[name].kind, res, time_limit):
        res = dataclasses.replace(res, solver_info={**res.solver_info, "stopped": "time_limit"})
    if check and res.solution is not None and res.objective is not None:
        ok, problem = verify(spec, instance, res)
    else:
        ok, problem = None, None  # not asked, or nothing claimed: nothing to check
    if stop is not None and stop.interrupted and not res.solver_info.get("interrupted"):
        # Ctrl-C after the method answered, or during the check: the answer, marked interrupted
        res = dataclasses.replace(res, solver_info={**res.solver_info, "interrupted": True})
    if ok is None:
        return res
    if not ok and strict:
        raise CheckError(
            f"{spec.puzzle} method {name} returned a solution that fails the independent "
            f"checker: {problem}"
        )
    return res.with_verified(ok)
