"""Truncate's spec: the longest sequence by the DP and by the seed's two searches.

Instance tables (keys): ``lexicon`` (``truncate``, ``enable1``, ``letterpress``, ``wordfreq:N``
or a path), optionally with ``n`` and ``seed`` for a seeded sample of ``n`` of its words, and
``prebuilt = true`` to build the word DAG before the clock starts (the DP's sweep alone). All
three methods are exact (the seed's two searches are exhaustive, only slower), so the study
compares their solve times; the seeds' searches have no time limit of their own and are stopped
by the harness (status ``TIMEOUT``) when they run far past the suite's limit.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from cpwords.core.alphabet import normalize_word
from cpwords.core.errors import CheckError, InputError
from cpwords.core.languages import language_lexicon
from cpwords.core.lexicon import Lexicon, lexicon_from_words, zipf_floor
from cpwords.core.result import SolveResult
from cpwords.core.rows import result_row
from cpwords.core.sources import lexicon_words, read_dictionary, sample_words
from cpwords.core.spec import MethodInfo, PuzzleSpec, call_method, no_params, solve
from cpwords.truncate.heuristics import extend_search, shrink_search
from cpwords.truncate.models.dp import TruncateDag, truncate_dag, truncate_dp
from cpwords.truncate.rules import (
    TruncateSolution,
    truncate_sequence_problems,
    truncate_solution_problems,
    truncate_step_ok,
)

#: The English default: the game's own dictionary (shipped with cpwords, MIT).
DEFAULT_DICTIONARY = "truncate"


def truncate_dictionary(
    dictionary: str | None = None,
    lang: str = "en",
    fold: bool = False,
    proper: bool = False,
    min_zipf: float = 0.0,
) -> Lexicon:
    """The dictionary ``cpwords truncate`` and the Truncate page read.

    Parameters
    ----------
    dictionary : str, optional
        What ``--dict`` names: a file or a lexicon name
        (:func:`cpwords.core.sources.read_dictionary`). None: the default of ``lang``: for
        English the game's own list (:data:`DEFAULT_DICTIONARY`, 112,774 words, shipped with
        cpwords), for another language its curated dictionary (``wfrench``, ...) or
        wordfreq's whole list where it has none (:func:`cpwords.core.languages.language_lexicon`).
    lang : str
        ISO 639 code: the default list and the case rules of a file's words.
    fold : bool
        Fold accents.
    proper : bool
        Keep the proper nouns of a dictionary that marks them by a capital.
    min_zipf : float
        Keep only the words with a wordfreq Zipf frequency of at least this in ``lang``
        (:func:`cpwords.core.lexicon.zipf_floor`; 0: every word).

    Returns
    -------
    Lexicon
        In any alphabet, named after its file or lexicon (``truncate``, ``wfrench``; ``truncate,
        Zipf >= 3`` with a floor).

    Raises
    ------
    InputError
        A bad file, an unknown name, a dictionary that is not installed (one line with the
        command that installs it), or a floor not from 0 to 8.

    Examples
    --------
    >>> lex = truncate_dictionary()
    >>> lex.source, len(lex), "relapsed" in lex
    ('truncate', 112774, True)
    """
    if dictionary is not None:
        lex = read_dictionary(dictionary, lang=lang, fold=fold, proper=proper)
    elif lang == "en":
        lex = read_dictionary(DEFAULT_DICTIONARY, lang=lang, fold=fold)
    else:
        lex = language_lexicon(lang, fold=fold, proper=proper)
    return zipf_floor(lex, lang, min_zipf)


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> Lexicon | TruncateDag:
    """The dictionary of one instance table.

    With ``prebuilt = true`` the instance is the dictionary's word DAG, built before any method
    runs, so ``dp`` times its sweep alone (the seed's searches get the words).
    """
    if "lexicon" not in spec:
        raise InputError("a truncate instance needs a 'lexicon'")
    name = str(spec["lexicon"])
    if "n" in spec:
        words = sample_words(name, int(spec["n"]), int(spec.get("seed", 0)), base_dir)
        lexicon = lexicon_from_words(words, f"{name} sample n={spec['n']}", alphabet="any")
    else:
        lexicon = lexicon_from_words(lexicon_words(name, str(base_dir)), name, alphabet="any")
    if spec.get("prebuilt", False):
        return truncate_dag(lexicon)
    return lexicon


def _size(words: Lexicon | TruncateDag) -> int:
    return len(words.words) if isinstance(words, TruncateDag) else len(words)


def _sequence(solution: Any) -> list[str]:
    seq = getattr(solution, "sequence", solution)
    return [str(w) for w in seq]


def run(
    words: Lexicon | TruncateDag,
    method: str,
    *,
    seed: int,
    time_limit: float | None,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """Run one named method (see ``SPEC.methods``): the only dispatch on Truncate methods.

    ``dp`` takes ``starting``, ``ending``, ``all_sequences`` and ``max_sequences`` (see
    :func:`solve_truncate`); ``time_limit`` bounds its listing. The seed's searches take none.
    """
    if method == "dp":
        return call_method(truncate_dp, words, params=params, time_limit=time_limit)
    no_params("truncate", params)
    plain = words.words if isinstance(words, TruncateDag) else words
    if method == "seed-shrink":
        return shrink_search(plain)
    return extend_search(plain)


def _dictionary(words: Lexicon | TruncateDag) -> frozenset[str]:
    return frozenset(words.as_set() if isinstance(words, Lexicon) else words.words)


def problems(words: Lexicon | TruncateDag, result: SolveResult) -> list[str]:
    """The puzzle's independent checker: valid sequences of dictionary words.

    A :class:`~cpwords.truncate.rules.TruncateSolution` is checked whole (restrictions,
    count and every listed sequence); a bare sequence (the seed's searches) as a sequence.
    """
    if isinstance(result.solution, TruncateSolution):
        return truncate_solution_problems(result.solution, _dictionary(words))
    return list(truncate_sequence_problems(_sequence(result.solution), _dictionary(words)))


def objective(words: Lexicon | TruncateDag, solution: Any) -> float:
    """Words in the sequence."""
    return float(len(_sequence(solution)))


def solve_truncate(
    words: Lexicon | Iterable[str] | TruncateDag,
    starting: str | None = None,
    ending: str | None = None,
    all_sequences: bool = False,
    max_sequences: int | None = None,
    time_limit: float | None = None,
    lang: str | None = None,
    fold: bool = False,
    min_zipf: float = 0.0,
) -> SolveResult:
    """Find a longest Truncate sequence, count them, prove it longest, and verify it.

    This is :func:`cpwords.core.spec.solve` for ``"truncate"`` with the ``dp`` method
    (:func:`cpwords.truncate.models.dp.truncate_dp`); the parameters and the result are that
    function's, and ``verified`` is True once the independent checker of
    :mod:`cpwords.truncate.rules` accepted the sequence, the restrictions, the count and
    every listed sequence. ``lang`` (ISO 639-1, for its case rules) and ``fold`` (fold
    accents) normalise ``starting``, ``ending`` and a plain word list (see
    :mod:`cpwords.core.alphabet`); words of any alphabet are read. ``min_zipf`` keeps only the
    words with a wordfreq Zipf frequency of at least it in ``lang`` (English when None;
    :func:`cpwords.core.lexicon.zipf_floor`; 0: every word), so a chain is made of words a
    player knows.

    Raises
    ------
    InputError
        Bad dictionary or restrictions.
    CheckError
        A reported sequence fails the independent checker (a bug).

    Examples
    --------
    >>> r = solve_truncate(["a", "la", "lap", "laps", "clap", "claps", "lapse"])
    >>> r.status.value, r.objective, r.solution.sequence, r.solution.count, r.verified
    ('OPTIMAL', 5.0, ('a', 'la', 'lap', 'clap', 'claps'), 3, True)
    >>> solve_truncate(["a", "la", "lap", "laps", "clap", "claps", "lapse"], min_zipf=3.5).objective
    4.0
    """
    words = _with_floor(words, lang, fold, min_zipf)
    if starting is not None:
        starting = normalize_word(starting.strip(), lang, fold)
    if ending is not None:
        ending = normalize_word(ending.strip(), lang, fold)
    params: dict[str, Any] = {
        "starting": starting,
        "ending": ending,
        "all_sequences": all_sequences,
        "max_sequences": max_sequences,
    }
    return solve(SPEC, words, "dp", time_limit=time_limit, **params)


def _with_floor(
    words: Lexicon | Iterable[str] | TruncateDag, lang: str | None, fold: bool, min_zipf: float
) -> Lexicon | TruncateDag:
    """The dictionary as a Lexicon (or the DAG given), less the words under the Zipf floor."""
    if isinstance(words, TruncateDag):
        if not min_zipf:
            return words
        words = Lexicon(tuple(words.words), "<words>")
    if not isinstance(words, Lexicon):
        words = lexicon_from_words(words, "<words>", lang=lang, alphabet="any", fold=fold)
    return zipf_floor(words, lang or "en", min_zipf)


def continue_truncate(
    words: Lexicon | Iterable[str] | TruncateDag,
    word: str,
    all_sequences: bool = False,
    max_sequences: int | None = None,
    time_limit: float | None = None,
    lang: str | None = None,
    fold: bool = False,
    min_zipf: float = 0.0,
) -> SolveResult:
    """Help from where the player stands: the longest continuation from a word, and whether
    it is a dead end.

    The longest Truncate sequence that starts at ``word`` (:func:`solve_truncate` with
    ``starting=word``: the exhaustive DP, so the continuation is proven longest), with the
    plays one letter on from ``word``.

    Parameters
    ----------
    words : Lexicon, iterable of str or TruncateDag
        The dictionary (see :func:`solve_truncate`).
    word : str
        Where the player stands: a word of the dictionary.
    all_sequences, max_sequences, time_limit, lang, fold, min_zipf
        As in :func:`solve_truncate`.

    Returns
    -------
    SolveResult
        OPTIMAL, as :func:`solve_truncate`'s: ``solution.sequence`` starts at ``word`` (only
        ``word`` at a dead end), ``objective`` its number of words. ``solver_info`` also holds
        ``from`` (the word, normalised), ``plays_left`` (the proven most plays after it: 0 at
        a dead end, None when Ctrl-C stopped the DP), ``dead_end`` (no word is ``word`` plus
        one letter at either end) and ``next_words`` (those words, sorted). ``verified`` is
        True: the sequence passed the independent checker and every next word is one play
        from ``word``. ``wall_time`` (s) includes building the word DAG unless one was passed.

    Raises
    ------
    InputError
        ``word`` is not in the dictionary, or as :func:`solve_truncate`.

    Examples
    --------
    >>> words = ["a", "la", "lap", "laps", "clap", "claps", "lapse"]
    >>> r = continue_truncate(words, "lap")
    >>> r.solution.sequence, r.solver_info["plays_left"], r.solver_info["next_words"]
    (('lap', 'clap', 'claps'), 2, ['clap', 'laps'])
    >>> continue_truncate(words, "lapse").solver_info["dead_end"]
    True
    """
    t0 = time.perf_counter()
    words = _with_floor(words, lang, fold, min_zipf)
    if not isinstance(words, TruncateDag):
        words = truncate_dag(words)
    here = normalize_word(word.strip(), lang, fold)
    i = words.index(here)
    if i < 0:
        raise InputError(f"{word!r} is not in the dictionary")
    res = solve_truncate(
        words,
        here,
        None,
        all_sequences,
        max_sequences,
        time_limit=time_limit,
        lang=lang,
        fold=fold,
    )
    nxt = [words.words[j] for j in words.successors(i)]
    wrong = [w for w in nxt if not truncate_step_ok(here, w)]
    if wrong:
        raise CheckError(f"{wrong[0]!r} is not one play from {here!r}")
    left = res.solution.length - 1 if res.solution is not None else None
    if left is not None and (left > 0) == (not nxt):
        raise CheckError(f"{left} plays from {here!r}, yet {len(nxt)} next words")
    info = dict(res.solver_info)
    info |= {"from": here, "plays_left": left, "dead_end": not nxt, "next_words": nxt}
    return dataclasses.replace(res, solver_info=info, wall_time=time.perf_counter() - t0)


#: How many of the next plays the lines of a continuation name (the JSON lists them all).
NEXT_SHOWN = 10


def continuation_lines(info: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Where the player stands, as ``cpwords truncate --from WORD`` prints it (the page shows
    the same lines).

    Parameters
    ----------
    info : mapping
        A :func:`continue_truncate` answer's ``solver_info`` (or its :func:`truncate_row`).

    Returns
    -------
    list of (str, str)
        ``("from", word)``, then ``("dead end", ...)`` when no play extends the word, else
        ``("next plays", ...)``: how many, and the first :data:`NEXT_SHOWN` of them.

    Examples
    --------
    >>> r = continue_truncate(["a", "la", "lap", "laps", "lapse"], "lapse")
    >>> continuation_lines(r.solver_info)
    [('from', 'lapse'), ('dead end', 'yes: no word is it plus one letter at either end')]
    >>> continuation_lines({"from": "la", "dead_end": False, "next_words": ["lap"]})
    [('from', 'la'), ('next plays', '1: lap')]
    """
    lines = [("from", str(info["from"]))]
    nxt = list(info["next_words"])
    if info["dead_end"]:
        lines.append(("dead end", "yes: no word is it plus one letter at either end"))
    else:
        shown = ", ".join(nxt[:NEXT_SHOWN]) + (", ..." if len(nxt) > NEXT_SHOWN else "")
        lines.append(("next plays", f"{len(nxt)}: {shown}"))
    return lines


def truncate_query(
    words: Lexicon | Iterable[str] | TruncateDag,
    *,
    starting: str | None = None,
    ending: str | None = None,
    from_word: str | None = None,
    all_sequences: bool = False,
    max_sequences: int | None = None,
    time_limit: float | None = None,
    lang: str | None = None,
    fold: bool = False,
) -> SolveResult:
    """``cpwords truncate``'s answer: the longest sequence, or the continuation from a word.

    :func:`continue_truncate` from ``from_word`` when it is given, else :func:`solve_truncate`
    with ``starting`` and ``ending``.

    Parameters
    ----------
    words : Lexicon, iterable of str or TruncateDag
        The dictionary (its Zipf floor already applied: see :func:`truncate_dictionary`).
    starting, ending : str, optional
        The first and last word (not with ``from_word``).
    from_word : str, optional
        Where the player stands (:func:`continue_truncate`).
    all_sequences, max_sequences, time_limit, lang, fold
        As in :func:`solve_truncate`.

    Returns
    -------
    SolveResult
        As :func:`continue_truncate` or :func:`solve_truncate` returns it.

    Raises
    ------
    InputError
        ``from_word`` with ``starting`` or ``ending``, or as the function called.

    Examples
    --------
    >>> words = ["a", "la", "lap", "laps", "clap", "claps", "lapse"]
    >>> truncate_query(words, from_word="lap").solution.sequence
    ('lap', 'clap', 'claps')
    >>> truncate_query(words, ending="lapse").solution.sequence
    ('a', 'la', 'lap', 'laps', 'lapse')
    """
    if from_word is not None and (starting is not None or ending is not None):
        raise InputError("--from is where the sequence starts: drop --start and --end")
    if from_word is not None:
        return continue_truncate(
            words,
            from_word,
            all_sequences,
            max_sequences,
            time_limit=time_limit,
            lang=lang,
            fold=fold,
        )
    return solve_truncate(
        words,
        starting,
        ending,
        all_sequences,
        max_sequences,
        time_limit=time_limit,
        lang=lang,
        fold=fold,
    )


def truncate_row(
    result: SolveResult,
    lexicon: Lexicon,
    *,
    lang: str = "en",
    fold: bool = False,
    min_zipf: float = 0.0,
) -> dict[str, Any]:
    """The JSON object of ``cpwords truncate --json``.

    Parameters
    ----------
    result : SolveResult
        A :func:`truncate_query` answer.
    lexicon : Lexicon
        The dictionary it read (named, with its size and skipped lines).
    lang : str
    fold : bool
    min_zipf : float
        How the dictionary was read (reported as given).

    Returns
    -------
    dict
        The :data:`~cpwords.core.rows.RESULT_KEYS` first (``counts``: ``longest_sequences``),
        then ``lexicon``, ``lexicon_size``, ``lexicon_skipped``, ``lang``, ``fold_accents``,
        ``min_zipf``, ``sequence``, ``count``, ``length``; ``sequences`` and ``complete`` when
        the sequences were listed; ``from``, ``plays_left``, ``dead_end`` and ``next_words``
        for a continuation.

    Examples
    --------
    >>> lex = lexicon_from_words(["a", "la", "lap", "laps"], "four")
    >>> row = truncate_row(truncate_query(lex), lex)
    >>> row["sequence"], row["length"], row["count"], row["lexicon"]
    (['a', 'la', 'lap', 'laps'], 4, 1, 'four')
    """
    sol = result.solution
    info = result.solver_info
    row = result_row(
        result.to_dict(solution=sol.to_dict() if sol is not None else None),
        counts={"longest_sequences": sol.count if sol is not None else 0},
        interrupted=bool(info.get("interrupted")),
    )
    row.update(lexicon=lexicon.source, lexicon_size=len(lexicon), lexicon_skipped=lexicon.skipped)
    row.update(lang=lang, fold_accents=fold, min_zipf=min_zipf)
    row["sequence"] = list(sol.sequence) if sol is not None else []
    row["count"] = sol.count if sol is not None else 0
    row["length"] = sol.length if sol is not None else 0
    if sol is not None and sol.sequences is not None:
        row["sequences"] = [list(s) for s in sol.sequences]
        row["complete"] = info.get("stopped") is None
    if "from" in info:
        row.update({k: info.get(k) for k in ("from", "plays_left", "dead_end", "next_words")})
    return row


SPEC = PuzzleSpec(
    puzzle="truncate",
    sense="max",
    default_method="dp",
    problems=problems,
    objective=objective,
    methods={
        "dp": MethodInfo("exact", description="DP over the truncation DAG (counts too)"),
        "seed-shrink": MethodInfo("exact", description="the seed's exhaustive shrink search"),
        "seed-extend": MethodInfo("exact", description="the seed's exhaustive extend search"),
    },
    make_instance=make_instance,
    run=run,
    size=_size,
    size_label="dictionary words",
    spec_keys=frozenset({"lexicon", "n", "seed", "prebuilt"}),
    solution_json=_sequence,
    objective_label="words in the sequence",
)
