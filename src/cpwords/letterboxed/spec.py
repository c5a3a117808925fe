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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cpwords.core.errors import CheckError, InputError
from cpwords.core.lexicon import Lexicon
from cpwords.core.result import SolveResult, Status, counted
from cpwords.core.rows import result_row
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
from cpwords.letterboxed.rules import (
    WORD_WEIGHT,
    LetterBox,
    letterboxed_problems,
    objective_value,
    parse_box,
    plays_problems,
    score,
    split_solution,
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


# ---- Help from where the player stands -------------------------------------------------------

#: What each hint level reveals of the next word of a fewest-word finish.
HINT_LEVELS: dict[int, str] = {1: "its first letter", 2: "its first letter and length", 3: "it"}


def continue_box(
    box: BoxLike,
    plays: str | Sequence[str],
    lexicon: Lexicon | Iterable[str] | LetterBoxedSolver | None = None,
    *,
    all_solutions: bool = False,
    lang: str | None = None,
    fold: bool = False,
) -> SolveResult:
    """Whether a box is still solvable after the words played, and the proven fewest that
    finish it.

    The plays leave a position: the letters used and the letter the next word starts with
    (the last letter of the last play). The exact DP of
    :meth:`~cpwords.letterboxed.models.dp.LetterBoxedSolver.solve_from` finds, from there, the
    fewest more words, then the fewest letters, or proves that no chain finishes the box.

    Parameters
    ----------
    box : LetterBox, str or sequence of str
        The box (``"abc-def-ghi-jkl"``).
    plays : str or sequence of str
        The words played so far, in order (``"bead dhl"``, ``"BEAD,DHL"`` or a list); empty:
        the start of the game (then the result is the box's own optimum).
    lexicon : Lexicon, iterable of str or LetterBoxedSolver, optional
        The word list (default: the built-in frequency list), or a solver that indexed it.
        The plays must be words of it.
    all_solutions : bool
        Also list every fewest-word finish in ``solver_info["optimal_solutions"]``.
    lang : str, optional
        ISO 639-1 code, for the case rules of the plays.
    fold : bool
        Fold the plays' accents.

    Returns
    -------
    SolveResult
        ``method="dp"``, ``sense="min"``. OPTIMAL: ``solution`` the words still to play
        (``[]`` when the plays used every letter), ``objective = bound = 1000 * words +
        letters`` of those words. INFEASIBLE: no chain finishes the box (proven), the reason in
        ``solver_info["reason"]``. ``solver_info`` also holds ``plays``, ``used`` and ``left``
        (the box letters used and still to use) and ``next_letter`` (None before the first
        play). ``verified`` is True: the plays followed by the finish (and by every listed
        finish) passed the independent checker
        :func:`~cpwords.letterboxed.rules.letterboxed_problems`.

    Raises
    ------
    InputError
        Malformed box, empty lexicon, or plays that break a rule (one line: the first
        problem :func:`~cpwords.letterboxed.rules.plays_problems` finds).
    CheckError
        A finish fails the independent checker (a bug).

    Examples
    --------
    >>> words = ["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]
    >>> r = continue_box("abc-def-ghi-jkl", "bead", words)
    >>> r.status.value, r.solution, r.solver_info["left"], r.verified
    ('OPTIMAL', ['dhl', 'lcfgjik'], 'cfghijkl', True)
    >>> continue_box("abc-def-ghi-jkl", "bechfag gjdkil", words).solution
    []
    """
    case = LetterBoxedCase.of(box, lexicon)
    solver, box = case.solver, case.box
    played = split_solution(plays, lang, fold)
    problems = plays_problems(box, played, case.lexicon_set, f"the lexicon ({solver.source})")
    if problems:
        raise InputError(problems[0])
    used = "".join(ch for ch in box.letters if any(ch in w for w in played))
    first = played[-1][-1] if played else None
    res = solver.solve_from(box, used, first, all_solutions=all_solutions)
    info = dict(res.solver_info)
    left = "".join(ch for ch in box.letters if ch not in used)
    info |= {"plays": played, "used": used, "left": left, "next_letter": first}
    if res.solution is None:
        return dataclasses.replace(res, solver_info=info)
    finishes = [res.solution, *info.get("optimal_solutions", ())]
    for finish in finishes:
        found = letterboxed_problems(box, played + list(finish), case.lexicon_set)
        if found:
            raise CheckError(f"{'-'.join(played + list(finish))}: {found[0]}")
    return dataclasses.replace(res, solver_info=info, verified=True)


@dataclass(frozen=True)
class BoxHint:
    """A graded hint: the next word of a proven fewest-word finish, revealed by level.

    Attributes
    ----------
    level : int
        1 reveals the next word's first letter, 2 its length too, 3 the word (see
        :data:`HINT_LEVELS`).
    words_left : int or None
        The proven fewest more words that finish the box (0: the plays used every letter);
        None when no chain finishes it.
    first_letter : str or None
        The next word's first letter (None when there is no next word).
    length : int or None
        Its length, from level 2.
    word : str or None
        The word, at level 3.
    result : SolveResult
        The :func:`continue_box` answer the hint is taken from (its ``solution`` is the
        whole finish: not for the player's eyes).
    """

    level: int
    words_left: int | None
    first_letter: str | None
    length: int | None
    word: str | None
    result: SolveResult

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly: the revealed fields only (what the level does not reveal is None)."""
        return {
            "level": self.level,
            "words_left": self.words_left,
            "first_letter": self.first_letter,
            "length": self.length,
            "word": self.word,
        }


def hint_box(
    box: BoxLike,
    plays: str | Sequence[str] = (),
    level: int = 1,
    lexicon: Lexicon | Iterable[str] | LetterBoxedSolver | None = None,
    *,
    lang: str | None = None,
    fold: bool = False,
) -> BoxHint:
    """A graded hint from where the player stands: the next word of a fewest-word finish.

    The word is the first word of :func:`continue_box`'s finish (fewest words, then fewest
    letters), the same at every level, so a higher level reveals more of the same word.

    Parameters
    ----------
    box : LetterBox, str or sequence of str
    plays : str or sequence of str
        The words played so far (none: a hint for the first word).
    level : {1, 2, 3}
        1: the next word's first letter; 2: its length too; 3: the word.
    lexicon : Lexicon, iterable of str or LetterBoxedSolver, optional
        As in :func:`continue_box`.
    lang : str, optional
    fold : bool
        As in :func:`continue_box`.

    Returns
    -------
    BoxHint
        With ``words_left`` None (and nothing revealed) when no chain finishes the box, 0
        when the plays used every letter.

    Raises
    ------
    InputError
        A level other than 1, 2, 3, or as :func:`continue_box`.

    Examples
    --------
    >>> words = ["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]
    >>> [hint_box("abc-def-ghi-jkl", "bead", level, words).to_dict() for level in (1, 3)]
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'level': 1, 'words_left': 2, 'first_letter': 'd', 'length': None, 'word': None},
     {'level': 3, 'words_left': 2, 'first_letter': 'd', 'length': 3, 'word': 'dhl'}]
    """
    if level not in HINT_LEVELS:
        raise InputError(f"a hint level is 1, 2 or 3, not {level!r}")
    res = continue_box(box, plays, lexicon, lang=lang, fold=fold)
    if res.solution is None:
        return BoxHint(level, None, None, None, None, res)
    if not res.solution:
        return BoxHint(level, 0, None, None, None, res)
    word = str(res.solution[0])
    return BoxHint(
        level,
        len(res.solution),
        word[0],
        len(word) if level >= 2 else None,
        word if level >= 3 else None,
        res,
    )


def finish_box(
    box: LetterBox,
    plays: str,
    solver: LetterBoxedSolver,
    *,
    hint: int | None = None,
    all_solutions: bool = False,
    lang: str | None = None,
    fold: bool = False,
) -> tuple[SolveResult, BoxHint | None]:
    """``--from`` and ``--hint``: the proven finish from the plays, or a hint of its next word,
    a Ctrl-C answered as a stop.

    Parameters
    ----------
    box : LetterBox
    plays : str
        The words played so far, as typed (empty: from the start).
    solver : LetterBoxedSolver
        The indexed lexicon.
    hint : {1, 2, 3}, optional
        A hint of this level (:func:`hint_box`) instead of the finish (:func:`continue_box`).
    all_solutions : bool
        Without ``hint``: every fewest finish too.
    lang : str, optional
    fold : bool
        How the plays are read.

    Returns
    -------
    (SolveResult, BoxHint or None)
        The finish (a hint's :attr:`BoxHint.result`) and the hint. When interrupted: UNKNOWN
        (method ``dp``, ``sense="min"``) with ``solver_info`` ``interrupted``, ``box``,
        ``plays`` and ``playable_words``, and no hint.

    Raises
    ------
    InputError
        As :func:`continue_box` and :func:`hint_box`.
    """
    t0 = time.perf_counter()
    try:
        if hint is not None:
            given = hint_box(box, plays, hint, solver, lang=lang, fold=fold)
            return given.result, given
        res = continue_box(box, plays, solver, all_solutions=all_solutions, lang=lang, fold=fold)
        return res, None
    except KeyboardInterrupt:
        info = {
            "interrupted": True,
            "box": str(box),
            "plays": split_solution(plays, lang, fold),
            "playable_words": len(solver.playable(box)),
        }
        wall = time.perf_counter() - t0
        stopped = SolveResult(
            Status.UNKNOWN, None, None, wall, None, "dp", sense="min", solver_info=info
        )
        return stopped, None


def continue_row(
    result: SolveResult,
    solver: LetterBoxedSolver,
    hint: BoxHint | None = None,
    *,
    lang: str = "en",
    fold: bool = False,
    limit: int | None = None,
) -> dict[str, Any]:
    """The JSON object of ``cpwords letterboxed BOX --from PLAYS [--hint N] --json`` (the
    ``cpwords serve`` API answers with it too).

    Parameters
    ----------
    result : SolveResult
        A :func:`continue_box` answer (or :attr:`BoxHint.result`).
    solver : LetterBoxedSolver
        The solver it used (its lexicon is named).
    hint : BoxHint, optional
        A hint: the finish is left out (``solution`` None) and the hint added.
    lang : str
    fold : bool
        How the plays were read.
    limit : int, optional
        Most fewest finishes to list (with ``all_solutions``).

    Returns
    -------
    dict
        The :data:`~cpwords.core.rows.RESULT_KEYS` first (``solution``: the finish), then
        ``num_words``, ``num_letters`` (the finish's), ``box``, ``lexicon``, ``lexicon_size``,
        ``lexicon_size_3plus``, ``lang``, ``fold_accents``, ``playable_words``, ``plays``,
        ``letters_used``, ``letters_left``, ``next_letter``, ``solvable`` (None when
        interrupted), and ``reason``, ``n_optimal``, ``optimal_solutions``, ``hint`` when
        there are.
    """
    info = dict(result.solver_info)
    finish = result.solution
    row = {k: v for k, v in result.to_dict().items() if k not in ("solver_info", "trace")}
    n_words, n_letters = score(finish) if finish is not None else (None, None)
    row |= {
        "num_words": n_words,
        "num_letters": n_letters,
        "box": info.get("box"),
        "lexicon": solver.source,
        "lexicon_size": len(solver.lexicon),
        "lexicon_size_3plus": solver.size,
        "lang": lang,
        "fold_accents": fold,
        "playable_words": info.get("playable_words"),
        "plays": info.get("plays", []),
        "letters_used": info.get("used"),
        "letters_left": info.get("left"),
        "next_letter": info.get("next_letter"),
        "solvable": {"OPTIMAL": True, "INFEASIBLE": False}.get(result.status.value),
        "interrupted": bool(info.get("interrupted")),
    }
    if "reason" in info:
        row["reason"] = info["reason"]
    if "optimal_solutions" in info:
        finishes = [list(f) for f in info["optimal_solutions"]]
        row["n_optimal"] = len(finishes)
        row["optimal_solutions"] = finishes[:limit] if limit is not None else finishes
    if hint is not None:
        row["solution"] = None  # a hint keeps the finish hidden
        row["hint"] = hint.to_dict()
    return result_row(row)


def hint_text(hint: Mapping[str, Any]) -> str:
    """What a hint reveals, as a sentence (the ``hint`` line of ``cpwords letterboxed --hint``).

    Parameters
    ----------
    hint : mapping
        :meth:`BoxHint.to_dict` (the ``hint`` of :func:`continue_row`).

    Returns
    -------
    str

    Examples
    --------
    >>> hint_text({"level": 2, "first_letter": "d", "length": 3, "word": None})
    'the next word starts with D and has 3 letters'
    """
    if hint["word"] is not None:
        return f"the next word is {hint['word'].upper()}"
    start = f"the next word starts with {hint['first_letter'].upper()}"
    if hint["length"] is not None:
        return f"{start} and has {hint['length']} letters"
    return start


def position_lines(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Where the player stands, as ``cpwords letterboxed --from PLAYS [--hint N]`` prints it
    (the pages show the same lines).

    Parameters
    ----------
    row : mapping
        A :func:`continue_row` object.

    Returns
    -------
    list of (str, str)
        ``(key, text)`` lines: ``plays`` (with the letters left), ``solvable`` (solved, yes in
        the proven fewest more words, no and why, or unknown), then with a hint ``hint``, else
        ``finish`` and ``score`` when there is one.

    Examples
    --------
    >>> words = ["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]
    >>> solver = LetterBoxedSolver(words)
    >>> row = continue_row(continue_box("abc-def-ghi-jkl", "bead", solver), solver)
    >>> position_lines(row)[0]
    ('plays', 'BEAD (8 letters left: C, F, G, H, I, J, K, L)')
    >>> position_lines(row)[1]
    ('solvable', 'yes, in 2 more words at fewest (proven)')
    """
    plays = "-".join(w.upper() for w in row["plays"]) or "none yet"
    left = row["letters_left"]
    if left:
        plays += f" ({counted(len(left), 'letter')} left: {', '.join(left.upper())})"
    lines = [("plays", plays)]
    status, hint = row["status"], row.get("hint")
    if status == Status.OPTIMAL.value and row["num_words"] == 0:
        lines.append(("solvable", "solved: the plays used every letter"))
    elif status == Status.OPTIMAL.value:
        more = counted(row["num_words"], "more word")
        lines.append(("solvable", f"yes, in {more} at fewest (proven)"))
        if hint is not None:
            lines.append(("hint", hint_text(hint)))
        elif row["solution"]:
            lines.append(("finish", "-".join(w.upper() for w in row["solution"])))
            size = f"{counted(row['num_words'], 'word')}, {counted(row['num_letters'], 'letter')}"
            lines.append(("score", f"{size} (proven fewest words, then fewest letters)"))
    elif status == Status.INFEASIBLE.value:
        lines.append(("solvable", f"no: {row.get('reason', 'no finish exists')}"))
    else:
        lines.append(("solvable", f"unknown ({row.get('reason', status)})"))
    return lines


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
