"""The plug a puzzle offers the study harness, and the registry that finds it.

A puzzle joins the heuristics-versus-optima study with one small module under
``cpwords.bench.adapters`` defining ``ADAPTER = PuzzleAdapter(...)``: how to build an instance
from a suite's instance table, how to run a named method on it, how big it is, and how to check a
returned solution with the puzzle's independent checker. The runner, the result file and the
report know nothing else about any puzzle.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..result import SolveResult

#: Kinds of method. Only ``exact`` results may prove an optimum or supply a dual bound.
KINDS = ("exact", "heuristic", "baseline")


@dataclass(frozen=True)
class MethodInfo:
    """A method the adapter can run.

    Attributes
    ----------
    kind : {"exact", "heuristic", "baseline"}
        ``exact`` methods may prove optimality; the others are scored against them.
    seeded : bool
        Whether the seed changes the outcome (a suite may then list several seeds).
    description : str
        One line for ``cpwords bench --list``.
    """

    kind: str
    seeded: bool = False
    description: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {self.kind!r}")


RunFn = Callable[..., SolveResult]


@dataclass(frozen=True)
class PuzzleAdapter:
    """Everything the harness needs to know about one puzzle.

    Parameters
    ----------
    puzzle : str
        The name suites use (``puzzle = "wordsnake"``).
    sense : {"max", "min"}
        Direction of the objective.
    methods : Mapping[str, MethodInfo]
        The method names a suite may list.
    make_instance : callable ``(spec, base_dir) -> instance``
        Build the instance from one concrete instance table of a suite (a JSON-like dict);
        relative paths are resolved against ``base_dir``, the suite's folder. Raises
        :class:`~cpwords.errors.InputError` for a bad spec.
    run : callable ``(instance, method, *, seed, time_limit, workers, params) -> SolveResult``
        Run one method. ``time_limit`` in seconds, ``workers`` solver threads, ``params`` the
        method table's extra parameters.
    size : callable ``(instance) -> int``
        The instance size plotted on the x axis (e.g. number of words).
    check : callable ``(instance, result) -> bool``
        The puzzle's independent checker applied to a result that holds a solution.
    size_label : str
        What ``size`` counts, for axis labels.
    spec_keys : frozenset of str
        Keys an instance table may hold (besides ``name``, ``puzzle`` and ``sweep``).
    expand : callable ``(spec, base_dir) -> list of spec``, optional
        Turn one instance table into several (e.g. one per puzzle of a data file).
    reference : callable ``(instance) -> dict``, optional
        Published reference values stored with each row (e.g. the newspaper's par).
    solution_json : callable ``(solution) -> Any``, optional
        A JSON-friendly rendering of a solution.
    measures : callable ``(instance, result) -> dict``, optional
        Named parts of a result's objective stored with its row (e.g. words and letters), so
        a reference such as ``{"par": 5, "par_measure": "words"}`` can be compared with them.
    objective_label : str
        What the objective measures, for axis labels.
    """

    puzzle: str
    sense: str
    methods: Mapping[str, MethodInfo]
    make_instance: Callable[[Mapping[str, Any], Path], Any]
    run: RunFn
    size: Callable[[Any], int]
    check: Callable[[Any, SolveResult], bool]
    size_label: str = "size"
    spec_keys: frozenset[str] = frozenset()
    expand: Callable[[Mapping[str, Any], Path], list[dict[str, Any]]] | None = None
    reference: Callable[[Any], dict[str, Any]] | None = None
    solution_json: Callable[[Any], Any] | None = None
    measures: Callable[[Any, SolveResult], dict[str, float]] | None = None
    objective_label: str = "objective"
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.sense not in ("max", "min"):
            raise ValueError(f"sense must be 'max' or 'min', not {self.sense!r}")


#: Built-in puzzles: name -> module defining ``ADAPTER``. A puzzle whose API is not in the
#: package is simply absent here.
BUILTIN: dict[str, str] = {
    "wordsnake": "cpwords.bench.adapters.wordsnake",
    "letterboxed": "cpwords.bench.adapters.letterboxed",
    "truncate": "cpwords.bench.adapters.truncate",
    "grid": "cpwords.bench.adapters.grid",
    "letterpress": "cpwords.bench.adapters.letterpress",
}

_REGISTERED: dict[str, PuzzleAdapter] = {}


def register_adapter(adapter: PuzzleAdapter) -> None:
    """Register an adapter under ``adapter.puzzle`` for this process (tests, plug-ins).

    Worker processes forked afterwards inherit it; a suite can also name an adapter by import
    path (``puzzle = "package.module:ADAPTER"``), which works in any worker.
    """
    _REGISTERED[adapter.puzzle] = adapter


def known_puzzles() -> list[str]:
    """Names of the built-in and registered puzzles."""
    return sorted(set(BUILTIN) | set(_REGISTERED))


def get_adapter(puzzle: str) -> PuzzleAdapter:
    """The adapter for ``puzzle``: a registered or built-in name, or ``module:ATTR``.

    Raises
    ------
    InputError
        When no such puzzle is known.
    """
    if puzzle in _REGISTERED:
        return _REGISTERED[puzzle]
    if puzzle in BUILTIN:
        target = BUILTIN[puzzle] + ":ADAPTER"
    elif ":" in puzzle:
        target = puzzle
    else:
        raise InputError(
            f"unknown puzzle {puzzle!r} (known: {', '.join(known_puzzles())}; "
            "or give an adapter as 'module:ATTR')"
        )
    modname, _, attr = target.partition(":")
    try:
        module = importlib.import_module(modname)
    except ImportError as exc:
        raise InputError(f"cannot import the adapter for {puzzle!r}: {exc}") from None
    adapter = getattr(module, attr, None)
    if not isinstance(adapter, PuzzleAdapter):
        raise InputError(f"{target} is not a cpwords.bench.PuzzleAdapter")
    _REGISTERED[puzzle] = adapter
    return adapter


def call_method(
    fn: Callable[..., SolveResult], *args: Any, params: Mapping[str, Any], **fixed: Any
) -> SolveResult:
    """Call ``fn(*args, **fixed, **params)`` after checking ``params`` against its signature.

    The keyword arguments ``fixed`` that ``fn`` does not accept (e.g. ``time_limit`` for a
    heuristic without one) are dropped; an unknown name in ``params`` (a suite's ``params``
    table) is an :class:`~cpwords.errors.InputError` naming the accepted ones.
    """
    import inspect

    sig = inspect.signature(fn)
    accepted = {
        n for n, p in sig.parameters.items() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    }
    name = getattr(fn, "__name__", "method")
    for k in params:
        if k not in accepted or k in fixed:
            raise InputError(
                f"{name} has no parameter {k!r} for a suite to set "
                f"(accepted: {', '.join(sorted(accepted - set(fixed))) or 'none'})"
            )
    kwargs = {k: v for k, v in fixed.items() if k in accepted}
    kwargs.update(params)
    return fn(*args, **kwargs)
