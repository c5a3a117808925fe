"""Letter Boxed's spec: its methods (the exact DP, the CP-SAT set cover, the seed's pair search).

The CLI (``cpwords letterboxed``), the API (:func:`solve_letterboxed`, ``cpwords.solve``) and the
study all run a method through :func:`cpwords.core.spec.solve` on a :class:`LetterBoxedCase`.

Instance tables (keys):

* ``dataset`` (a JSON-lines file of puzzles, e.g. ``"shared:letterboxed/nyt-2024.jsonl"``) with
  optional ``limit`` (first N puzzles), ``every`` (every k-th puzzle) and ``dates`` (a list):
  expanded into one instance per puzzle, named ``nyt-<date>`` (``<name>-nyt-<date>`` when the
  table has a ``name``). The word list is the day's own
  accepted ``dictionary`` unless ``lexicon`` names another one.
* ``box`` (``"abc-def-ghi-jkl"``) with ``lexicon`` (see
  :func:`cpwords.bench.sources.lexicon_words`).

The objective is the exact model's ``1000 * words + letters`` (minimised); each row also stores
``measures = {"words": ..., "letters": ...}`` and the newspaper's ``par`` (in words) as its
reference, so the report compares the proven fewest words with the par.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cpwords.core.errors import InputError
from cpwords.core.lexicon import Lexicon
from cpwords.core.result import SolveResult, Status
from cpwords.core.sources import lexicon_words, read_dictionary, resolve_path
from cpwords.core.spec import MethodInfo, PuzzleSpec, call_method, solve
from cpwords.letterboxed.heuristics import build_trie, seed_baseline
from cpwords.letterboxed.models.dp import (
    BoxLike,
    LetterBoxedSolver,
    as_box,
    default_lexicon,
    whole_lexicon,
)
from cpwords.letterboxed.modes import (
    HINT_LEVELS,
    BoxHint,
    continue_box,
    continue_row,
    finish_box,
    hint_box,
    hint_text,
    position_lines,
)
from cpwords.letterboxed.rules import (
    WORD_WEIGHT,
    LetterBox,
    letterboxed_problems,
    objective_value,
    parse_box,
)


@dataclass(frozen=True)
class LetterBoxedCase:
    """A box, its word list and the newspaper's par (when it is a real puzzle).

    Parameters
    ----------
    box : LetterBox
    words : tuple of str
        The lexicon's words (ignored when ``indexed`` is given).
    par : int, optional
        The newspaper's par, in words.
    date : str, optional
        The puzzle's date.
    indexed : LetterBoxedSolver, optional
        A lexicon already indexed (the CLI and :func:`solve_letterboxed` reuse one).
    """

    box: LetterBox
    words: tuple[str, ...] = ()
    par: int | None = None
    date: str | None = None
    indexed: LetterBoxedSolver | None = None

    @classmethod
    def of(
        cls, box: BoxLike, lexicon: Lexicon | Iterable[str] | LetterBoxedSolver | None = None
    ) -> LetterBoxedCase:
        """A case for ``box`` over a lexicon, word list or indexed solver (None: the default).

        Raises
        ------
        InputError
            Malformed box, or a lexicon with no word of 3 or more letters.
        """
        solver = lexicon if isinstance(lexicon, LetterBoxedSolver) else LetterBoxedSolver(lexicon)
        return cls(as_box(box), indexed=solver)

    @functools.cached_property
    def solver(self) -> LetterBoxedSolver:
        """The exact solver with this word list indexed (built once per case)."""
        return self.indexed if self.indexed is not None else LetterBoxedSolver(self.words)

    @functools.cached_property
    def lexicon_set(self) -> frozenset[str]:
        """The lexicon as a set, for the checker's membership test."""
        return frozenset(self.solver.lexicon.as_set())

    @functools.cached_property
    def trie(self) -> Any:
        """The seed's trie of the word list (built once per case)."""
        return build_trie(self.solver.lexicon.words)

    @functools.cached_property
    def playable(self) -> int:
        """Number of playable words of the box (the instance size)."""
        return len(self.solver.playable(self.box))


@functools.lru_cache(maxsize=4)
def _dataset(path: str) -> tuple[dict[str, Any], ...]:
    rows = []
    with open(path, encoding="utf-8") as fh:
        for i, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                raise InputError(f"{path}, line {i}: not a JSON object") from None
    return tuple(rows)


def expand(spec: Mapping[str, Any], base_dir: Path) -> list[dict[str, Any]]:
    """One instance table per puzzle of a ``dataset`` (others pass through)."""
    if "dataset" not in spec or "date" in spec:
        return [dict(spec)]
    puzzles = _dataset(str(resolve_path(str(spec["dataset"]), base_dir)))
    dates = spec.get("dates")
    if dates is not None:
        wanted = set(dates)
        puzzles = tuple(p for p in puzzles if p.get("date") in wanted)
        missing = wanted - {p.get("date") for p in puzzles}
        if missing:
            raise InputError(f"dates not in {spec['dataset']}: {', '.join(sorted(missing))}")
    every = int(spec.get("every", 1))
    if every < 1:
        raise InputError("'every' must be at least 1")
    puzzles = puzzles[::every]
    if "limit" in spec:
        puzzles = puzzles[: int(spec["limit"])]
    base = {k: v for k, v in spec.items() if k not in ("limit", "every", "dates", "name")}
    prefix = f"{spec['name']}-" if "name" in spec else ""  # tells word lists apart
    return [dict(base, date=p["date"], name=f"{prefix}nyt-{p['date']}") for p in puzzles]


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> LetterBoxedCase:
    """Build a :class:`LetterBoxedCase` from one (expanded) instance table."""
    if "dataset" in spec:
        if "date" not in spec:
            raise InputError("a dataset instance needs a 'date'")
        path = str(resolve_path(str(spec["dataset"]), base_dir))
        match = [p for p in _dataset(path) if p.get("date") == spec["date"]]
        if not match:
            raise InputError(f"no puzzle dated {spec['date']} in {spec['dataset']}")
        p = match[0]
        box = parse_box(p["sides"])
        if "lexicon" in spec:
            words = lexicon_words(str(spec["lexicon"]), str(base_dir))
        else:
            words = tuple(sorted(set(p["dictionary"])))
        return LetterBoxedCase(box, words, int(p["par"]), str(p["date"]))
    if "box" not in spec or "lexicon" not in spec:
        raise InputError("a letterboxed instance needs 'dataset', or 'box' with 'lexicon'")
    box = parse_box(str(spec["box"]))
    return LetterBoxedCase(box, lexicon_words(str(spec["lexicon"]), str(base_dir)))


def run(
    case: LetterBoxedCase,
    method: str,
    *,
    seed: int,
    time_limit: float | None,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """Run one named method (see ``SPEC.methods``): the only dispatch on Letter Boxed methods.

    ``params`` may hold ``all_solutions`` (``dp``: list every optimal solution).
    """
    if method == "dp":
        return call_method(case.solver.solve, case.box, params=params)
    if method == "dp-cold":  # indexing the word list counts: what one box costs from scratch
        t0 = time.perf_counter()
        res = call_method(LetterBoxedSolver(case.solver.lexicon).solve, case.box, params=params)
        return dataclasses.replace(res, wall_time=time.perf_counter() - t0)
    if params:
        raise InputError(f"letterboxed method {method} takes no params (got {', '.join(params)})")
    if method == "cpsat":
        from cpwords.letterboxed.models.setcover import solve_letterboxed_setcover

        playable = [w for w, _ in case.solver.playable(case.box)]
        return solve_letterboxed_setcover(
            case.box,
            playable,
            time_limit=60.0 if time_limit is None else time_limit,
            workers=workers,
            seed=seed,
        )
    pick = {"seed-first": "first", "seed-best": "fewest-letters"}[method]
    return seed_baseline(case.box, trie=case.trie, pick=pick)


def problems(case: LetterBoxedCase, result: SolveResult) -> list[str]:
    """The puzzle's independent checker on the solution and on every listed optimal one."""
    chains = [list(result.solution)]
    chains += [list(c) for c in result.solver_info.get("optimal_solutions", ())]
    for chain in chains:
        found = letterboxed_problems(case.box, chain, case.lexicon_set)
        if found:
            return [f"{'-'.join(chain)}: {found[0]}"]
    return []


def objective(case: LetterBoxedCase, solution: Any) -> float:
    """``1000 * words + letters`` recomputed from the words."""
    return float(objective_value(list(solution)))


def reference(case: LetterBoxedCase) -> dict[str, Any]:
    """The newspaper's par (words), for real puzzles."""
    if case.par is None:
        return {}
    return {"par": case.par, "par_measure": "words", "date": case.date}


def measures(case: LetterBoxedCase, result: SolveResult) -> dict[str, float]:
    """Words and letters of a solution (the two parts of the lexicographic objective)."""
    obj = float(result.objective or 0)
    return {"words": obj // WORD_WEIGHT, "letters": obj % WORD_WEIGHT}


#: The registry (``cpwords letterboxed --method``, suites, ``SolveResult.method``).
METHODS: dict[str, MethodInfo] = {
    "dp": MethodInfo("exact", description="layered DP over (letters needed, last letter)"),
    "dp-cold": MethodInfo("exact", description="the same DP, indexing the word list included"),
    "cpsat": MethodInfo("exact", description="CP-SAT set-cover model with chained word slots"),
    "seed-first": MethodInfo("baseline", description="the seed's first two-word pair"),
    "seed-best": MethodInfo("baseline", description="the seed's fewest-letter pair"),
}


def solve_letterboxed(
    box: BoxLike,
    lexicon: Lexicon | Iterable[str] | LetterBoxedSolver | None = None,
    *,
    method: str = "dp",
    all_solutions: bool = False,
    time_limit: float | None = None,
    workers: int = 1,
    seed: int = 0,
) -> SolveResult:
    """Proven fewest-words, then fewest-letters solution of a Letter Boxed puzzle, verified.

    This is :func:`cpwords.core.spec.solve` for ``"letterboxed"`` on :meth:`LetterBoxedCase.of`.

    Parameters
    ----------
    box : LetterBox or str
        The box (``"abc-def-ghi-jkl"``).
    lexicon : Lexicon, iterable of str or LetterBoxedSolver, optional
        The word list (default: the built-in frequency list), or a solver that indexed it.
    method : {"dp", "cpsat", "seed-first", "seed-best"}
        See :data:`METHODS`: ``dp`` (:meth:`cpwords.letterboxed.models.dp.LetterBoxedSolver.solve`)
        and ``cpsat`` (:func:`cpwords.letterboxed.models.setcover.solve_letterboxed_setcover`)
        are exact; the seed's pair searches prove nothing.
    all_solutions : bool
        ``dp`` only: also list every optimal solution in ``solver_info["optimal_solutions"]``.
    time_limit : float, optional
        Seconds (``cpsat`` only; default 60).
    workers, seed : int
        CP-SAT workers and random seed (``cpsat`` only).

    Returns
    -------
    SolveResult
        ``sense="min"``, ``objective = bound = 1000 * words + letters`` when OPTIMAL;
        ``verified`` is True: the solution and every listed optimal one passed
        :func:`~cpwords.letterboxed.rules.letterboxed_problems`.

    Raises
    ------
    InputError
        Malformed box, empty lexicon, unknown method.
    CheckError
        A solution fails the independent checker (a bug).

    Examples
    --------
    >>> words = ["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]
    >>> r = solve_letterboxed("abc-def-ghi-jkl", words)
    >>> r.status.value, r.solution, r.objective, r.solver_info["letters"], r.method
    ('OPTIMAL', ['bechfag', 'gjdkil'], 2013.0, 13, 'dp')
    """
    params = {"all_solutions": True} if all_solutions else {}
    return solve(
        SPEC,
        LetterBoxedCase.of(box, lexicon),
        method,
        time_limit=time_limit,
        workers=workers,
        seed=seed,
        **params,
    )


def letterboxed_lexicon(
    dictionary: str | None = None,
    *,
    lang: str = "en",
    fold: bool = False,
    proper: bool = False,
    whole: bool = False,
) -> Lexicon:
    """The word list ``cpwords letterboxed`` reads: ``--dict``, else the language's own.

    Parameters
    ----------
    dictionary : str, optional
        A dictionary name or file (:func:`cpwords.core.sources.read_dictionary`); None or
        empty: the built-in lexicon of ``lang``.
    lang : str
        ISO 639-1 code (the case rules, and the built-in lexicon's language).
    fold : bool
        Fold accents.
    proper : bool
        Keep a dictionary's proper nouns.
    whole : bool
        Without ``dictionary``: the language's whole dictionary
        (:func:`~cpwords.letterboxed.models.dp.whole_lexicon`, what ``--generate`` proves a
        box's uniqueness against) rather than its most common words
        (:func:`~cpwords.letterboxed.models.dp.default_lexicon`).

    Returns
    -------
    Lexicon

    Raises
    ------
    InputError
        An unreadable dictionary, an unknown language, or its dictionary not installed.
    """
    if dictionary:
        return read_dictionary(dictionary, lang=lang, fold=fold, proper=proper)
    return (whole_lexicon if whole else default_lexicon)(lang, fold, proper)


def solve_box_stoppable(
    box: BoxLike,
    solver: LetterBoxedSolver,
    *,
    method: str = "dp",
    all_solutions: bool = False,
    time_limit: float | None = None,
    workers: int = 1,
    seed: int = 0,
) -> SolveResult:
    """:func:`solve_letterboxed`, a Ctrl-C answered as a stop rather than an exception.

    The DP returns what it knows on Ctrl-C by itself; a Ctrl-C that reaches here (another
    method, or while the case is built) gives UNKNOWN with ``solver_info["interrupted"]``.

    Parameters
    ----------
    box : LetterBox or str
    solver : LetterBoxedSolver
        The indexed lexicon.
    method, all_solutions, time_limit, workers, seed
        As in :func:`solve_letterboxed`.

    Returns
    -------
    SolveResult
        :func:`solve_letterboxed`'s answer, or UNKNOWN (``sense="min"``, method ``method``,
        the wall time until the stop) when interrupted.
    """
    t0 = time.perf_counter()
    try:
        return solve_letterboxed(
            box,
            solver,
            method=method,
            all_solutions=all_solutions,
            time_limit=time_limit,
            workers=workers,
            seed=seed,
        )
    except KeyboardInterrupt:
        wall = time.perf_counter() - t0
        info = {"interrupted": True}
        return SolveResult(
            Status.UNKNOWN, None, None, wall, None, method, sense="min", solver_info=info
        )


SPEC = PuzzleSpec(
    puzzle="letterboxed",
    sense="min",
    methods=METHODS,
    default_method="dp",
    make_instance=make_instance,
    run=run,
    problems=problems,
    objective=objective,
    size=lambda case: case.playable,
    size_label="playable words",
    spec_keys=frozenset({"dataset", "limit", "every", "dates", "date", "box", "lexicon"}),
    expand=expand,
    reference=reference,
    measures=measures,
    objective_label="1000 * words + letters",
)

#: The names of the module, with the modes that help from where the player stands
#: (:mod:`cpwords.letterboxed.modes`) re-exported.
__all__ = [
    "HINT_LEVELS",
    "METHODS",
    "SPEC",
    "BoxHint",
    "LetterBoxedCase",
    "continue_box",
    "continue_row",
    "expand",
    "finish_box",
    "hint_box",
    "hint_text",
    "letterboxed_lexicon",
    "make_instance",
    "measures",
    "objective",
    "position_lines",
    "problems",
    "reference",
    "run",
    "solve_box_stoppable",
    "solve_letterboxed",
]
