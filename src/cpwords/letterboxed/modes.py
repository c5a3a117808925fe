"""The modes of ``cpwords letterboxed`` that help from where the player stands, as library
functions: one answer for the command and the page.

:func:`continue_box` (``--from``: whether the box is still solvable after the words played, and
the proven fewest words that finish it), :func:`hint_box` (``--hint``: the next word of a
fewest-word finish, revealed by :data:`HINT_LEVELS`), :func:`finish_box` (either one, a Ctrl-C
answered as a stop), :func:`continue_row` (their ``--json`` row), :func:`hint_text` and
:func:`position_lines` (the lines the command prints and the page shows). Every name is
importable from :mod:`cpwords.letterboxed.spec` too.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cpwords.core.errors import CheckError, InputError
from cpwords.core.lexicon import Lexicon
from cpwords.core.result import SolveResult, Status, counted
from cpwords.core.rows import result_row
from cpwords.letterboxed.models.dp import BoxLike, LetterBoxedSolver, as_box
from cpwords.letterboxed.rules import (
    LetterBox,
    letterboxed_problems,
    plays_problems,
    score,
    split_solution,
)

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
    solver = lexicon if isinstance(lexicon, LetterBoxedSolver) else LetterBoxedSolver(lexicon)
    box = as_box(box)
    played = split_solution(plays, lang, fold)
    lexicon_set = frozenset(solver.lexicon.as_set())
    problems = plays_problems(box, played, lexicon_set, f"the lexicon ({solver.source})")
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
    _check_finishes(box, played, [res.solution, *info.get("optimal_solutions", ())], lexicon_set)
    return dataclasses.replace(res, solver_info=info, verified=True)


def _check_finishes(
    box: LetterBox,
    played: list[str],
    finishes: Iterable[Sequence[str]],
    lexicon_set: frozenset[str],
) -> None:
    """Raise :class:`CheckError` unless the independent checker passes the words ``played``
    followed by each of the ``finishes`` (a bug otherwise)."""
    for finish in finishes:
        found = letterboxed_problems(box, played + list(finish), lexicon_set)
        if found:
            raise CheckError(f"{'-'.join(played + list(finish))}: {found[0]}")


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
