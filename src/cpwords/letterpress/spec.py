"""Letterpress's spec: every word a bag of letters spells, by the index and the seed's ways.

Instance tables (keys): ``lexicon`` (``letterpress``, ``enable1``, ``wordfreq:N`` or a path, see
:func:`cpwords.bench.sources.lexicon_words`) and ``letters`` (the bag). All three methods are
exhaustive, so the study compares their query times (the index and the trie are built before the
clock starts, as the seed measures them) and checks that every listing is complete.

Below the spec, the Python API behind ``cpwords letterpress`` without ``--board``:
:func:`letterpress_words` (the board drawn when no letters are given, then the listing) and
:func:`letterpress_words_row` (its ``--json`` object); the best move is
:mod:`cpwords.letterpress.board_spec`'s.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cpwords.core.alphabet import foreign_letters
from cpwords.core.errors import InputError
from cpwords.core.lexicon import Lexicon, draw_letters, letter_frequencies, lexicon_from_words
from cpwords.core.result import SolveResult, Status
from cpwords.core.rows import result_row
from cpwords.core.sources import lexicon_words
from cpwords.core.spec import MethodInfo, PuzzleSpec, no_params, solve
from cpwords.letterpress.heuristics import Trie, naive_scan
from cpwords.letterpress.models.index import (
    LetterpressIndex,
    build_letterpress_index,
    load_letterpress_index,
    query_letterpress_index,
)
from cpwords.letterpress.rules import letterpress_problems, parse_letters, spellable_count


@dataclass(frozen=True)
class LetterpressQuery:
    """One bag of letters against one dictionary, and how to list the words.

    Parameters
    ----------
    lexicon : Lexicon or None
        The dictionary (None when ``index`` is given).
    letters : str
        The bag, normalised (letters of any script).
    index : LetterpressIndex, optional
        A built (or cached) index of the dictionary; the ``index`` method uses it as is,
        otherwise it builds one from ``lexicon`` once per case (the query alone is timed).
    min_length : int
        Shortest word to list (``index`` only).
    limit : int, optional
        List at most this many words; the objective still counts all (``index`` only).
    longest_first : bool
        Longest words first (``index`` only).
    """

    lexicon: Lexicon | None
    letters: str
    index: LetterpressIndex | None = None
    min_length: int = 1
    limit: int | None = None
    longest_first: bool = False

    @functools.cached_property
    def dictionary(self) -> frozenset[str]:
        """The dictionary's words (for the checker)."""
        if self.index is not None:
            return self.index.as_set()
        assert self.lexicon is not None
        return frozenset(self.lexicon.as_set())

    @functools.cached_property
    def built_index(self) -> LetterpressIndex:
        """``index``, or one built from ``lexicon`` once (repeats of a query reuse it)."""
        return self.index or build_letterpress_index(self.word_list.words)

    @functools.cached_property
    def word_list(self) -> Lexicon:
        """The dictionary as a :class:`~cpwords.core.lexicon.Lexicon` (for the seed's methods)."""
        if self.lexicon is not None:
            return self.lexicon
        return lexicon_from_words(sorted(self.dictionary), "<index>", alphabet="any")


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> LetterpressQuery:
    """The dictionary and the bag of one instance table."""
    if "lexicon" not in spec or "letters" not in spec:
        raise InputError("a letterpress instance needs a 'lexicon' and 'letters'")
    name = str(spec["lexicon"])
    lexicon = lexicon_from_words(lexicon_words(name, str(base_dir)), name, alphabet="any")
    return LetterpressQuery(lexicon, parse_letters(str(spec["letters"])))


def run(
    query: LetterpressQuery,
    method: str,
    *,
    seed: int,
    time_limit: float | None,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """Run one named method (see ``SPEC.methods``): the only dispatch on Letterpress methods.

    ``index``: the bitset index (built from the lexicon when the query holds none); ``trie`` /
    ``naive``: the seed's trie and frequency-map scan (whole listings only).
    """
    no_params("letterpress", params)
    if method == "index":  # the query alone is timed; the index is built once per case
        index = query.built_index
        return query_letterpress_index(
            query.letters, index, query.min_length, query.limit, query.longest_first
        )
    if method in ("index-build", "index-load"):
        # The setup a user waits for once per dictionary, timed with the query: a cold build
        # (the cache is not used), or a load from the on-disk cache (written first if absent).
        if method == "index-load":
            load_letterpress_index(query.word_list)  # makes sure the cache holds it
        t0 = time.perf_counter()
        index = (
            build_letterpress_index(query.word_list.words)
            if method == "index-build"
            else load_letterpress_index(query.word_list)
        )
        res = query_letterpress_index(
            query.letters, index, query.min_length, query.limit, query.longest_first
        )
        return dataclasses.replace(res, wall_time=time.perf_counter() - t0)
    if (query.min_length, query.limit, query.longest_first) != (1, None, False):
        raise InputError(f"letterpress method {method} lists every word, shortest first")
    structure: Any = Trie(query.word_list) if method == "trie" else None
    start = time.perf_counter()
    words = (
        structure.query(query.letters)
        if method == "trie"
        else naive_scan(query.word_list, query.letters)
    )
    elapsed = time.perf_counter() - start
    return SolveResult(Status.FEASIBLE, float(len(words)), None, elapsed, words, method)


def problems(query: LetterpressQuery, result: SolveResult) -> list[str]:
    """Every listed word is in the dictionary, spellable, long enough, once, in order; and
    the listing holds every word (or the first ``limit``) of the total claimed."""
    words = list(result.solution)
    found = letterpress_problems(
        words, query.letters, query.dictionary, query.min_length, query.longest_first
    )
    if found:
        return list(found)
    total = int(result.objective or 0)
    expected = total if query.limit is None else min(query.limit, total)
    if len(words) != expected:
        return [f"{len(words)} words listed for a claimed total of {total}"]
    return []


def objective(query: LetterpressQuery, solution: Any) -> float:
    """The total number of spellable words, recounted by a plain scan of the dictionary."""
    return float(spellable_count(query.dictionary, query.letters, query.min_length))


def find_letterpress_words(
    letters: str,
    dictionary: str | os.PathLike[str] | Lexicon | Iterable[str] | LetterpressIndex | None = None,
    min_length: int = 1,
    limit: int | None = None,
    longest_first: bool = False,
    use_cache: bool = True,
    lang: str = "en",
    fold: bool = False,
) -> SolveResult:
    """Every dictionary word that a bag of letters can spell, verified.

    This is :func:`cpwords.core.spec.solve` for ``"letterpress"`` with the ``index`` method
    (:func:`cpwords.letterpress.models.index.query_letterpress_index`) after loading the index.

    Parameters
    ----------
    letters : str
        The bag (about 25 letters of any script; a letter given twice may be used twice).
    dictionary : path, Lexicon, iterable of str, LetterpressIndex, or None
        See :func:`cpwords.letterpress.models.index.load_letterpress_index`; an index is used as is.
    min_length : int
        Shortest word to list, in letters (>= 1).
    limit : int, optional
        List at most this many words (``objective`` still counts all of them).
    longest_first : bool
        Longest words first (default: shortest first; ties alphabetical).
    use_cache : bool
        Use the on-disk index cache.
    lang : str
        ISO 639-1 code: the default word list and the case rules of the bag and the
        dictionary (see :mod:`cpwords.core.alphabet`).
    fold : bool
        Fold accents in the bag and the dictionary.

    Returns
    -------
    SolveResult
        ``objective == bound`` the number of spellable words, ``solution`` the listed words,
        ``wall_time`` the query time in seconds (index loading is in
        ``solver_info["index_seconds"]``); ``verified`` is True: every word passed the checker
        and a plain scan recounted the total.

    Raises
    ------
    InputError
        A character that is not a letter, a letter of a script the dictionary does not write,
        or an empty bag; ``min_length < 1``; ``limit < 0``; bad dictionary; unknown language.
    CheckError
        The listing fails the independent checker (a bug).

    Examples
    --------
    >>> r = find_letterpress_words("tacos", ["cat", "act", "coats", "taco", "tact", "a"])
    >>> r.solution, r.objective, r.verified
    (['a', 'act', 'cat', 'taco', 'coats'], 5.0, True)
    """
    letters = parse_letters(letters, lang, fold)
    t0 = time.perf_counter()
    if isinstance(dictionary, LetterpressIndex):
        index = dictionary
    else:
        index = load_letterpress_index(dictionary, use_cache=use_cache, lang=lang, fold=fold)
    index_seconds = time.perf_counter() - t0
    problem = foreign_letters(letters, index.letters, index.source)
    if problem is not None:
        raise InputError(problem)
    query = LetterpressQuery(None, letters, index, min_length, limit, longest_first)
    res = solve(SPEC, query, "index")
    return dataclasses.replace(res, solver_info={**res.solver_info, "index_seconds": index_seconds})


#: Tiles of a Letterpress board (5 x 5).
BOARD_TILES = 25


def random_letterpress_board(
    dictionary: str | os.PathLike[str] | Lexicon | Iterable[str] | LetterpressIndex | None = None,
    size: int = BOARD_TILES,
    seed: int | np.random.Generator = 0,
    use_cache: bool = True,
    lang: str = "en",
    fold: bool = False,
) -> str:
    """A random Letterpress board: letters drawn by the dictionary's own letter frequencies.

    Each tile is drawn independently (a letter may come several times) with probability the
    letter's share of all the letters of the dictionary's words
    (:func:`cpwords.core.lexicon.letter_frequencies`, drawn by
    :func:`cpwords.core.lexicon.draw_letters`, as Letter Boxed's generator draws its boxes),
    so a French list gives French boards, accents included unless ``fold``.

    Parameters
    ----------
    dictionary : path, Lexicon, iterable of str, LetterpressIndex, or None
        See :func:`cpwords.letterpress.models.index.load_letterpress_index` (None: web2 for
        English, wordfreq's whole list for another ``lang``); an index is used as is.
    size : int
        Tiles to draw (>= 1; 25 for the game's 5 x 5 board).
    seed : int or numpy.random.Generator
        Seed of a new ``numpy.random.default_rng``, or a generator to draw from (its state
        advances); the same seed and dictionary give the same board.
    use_cache : bool
        Use the on-disk index cache.
    lang : str
        ISO 639-1 code: the default word list and the case rules of the dictionary.
    fold : bool
        Fold accents in the dictionary (then no drawn letter carries one).

    Returns
    -------
    str
        The ``size`` letters, row by row (a bag for :func:`find_letterpress_words`).

    Raises
    ------
    InputError
        ``size < 1``, a negative seed, a dictionary without words, bad dictionary, unknown
        language.

    Examples
    --------
    >>> board = random_letterpress_board(["tacos", "taco", "cat"], size=10, seed=3)
    >>> len(board), set(board) <= set("tacos")
    (10, True)
    >>> board == random_letterpress_board(["tacos", "taco", "cat"], size=10, seed=3)
    True
    """
    if size < 1:
        raise InputError(f"a board needs at least 1 tile, got {size}")
    if not isinstance(seed, np.random.Generator) and seed < 0:
        raise InputError(f"the seed must be >= 0, got {seed}")
    if isinstance(dictionary, LetterpressIndex):
        index = dictionary
    else:
        index = load_letterpress_index(dictionary, use_cache=use_cache, lang=lang, fold=fold)
    if not index.words:
        raise InputError(f"{index.source}: no words to draw letters from")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return "".join(draw_letters(rng, letter_frequencies(index.words), size))


# ---- The Python API of ``cpwords letterpress`` (a word listing) -------------------------------


def letterpress_words(
    index: LetterpressIndex,
    letters: str | None = None,
    *,
    seed: int = 0,
    min_length: int = 1,
    limit: int | None = None,
    longest_first: bool = False,
    lang: str = "en",
    fold: bool = False,
    on_stage: Callable[[str], None] | None = None,
) -> SolveResult:
    """``cpwords letterpress``'s listing: every word of ``index`` the letters spell, the letters
    drawn first when none are given.

    Parameters
    ----------
    index : LetterpressIndex
        The dictionary's index (:func:`~cpwords.letterpress.models.index.load_letterpress_index`).
    letters : str, optional
        The bag; None draws a board of :data:`BOARD_TILES` letters by the dictionary's letter
        frequencies (:func:`random_letterpress_board`, with ``seed``).
    seed : int
        The drawn board's seed.
    min_length, limit, longest_first, lang, fold
        As in :func:`find_letterpress_words`.
    on_stage : callable ``(stage)``, optional
        Told each stage as it starts (``"drawing the board"``, ``"listing"``).

    Returns
    -------
    SolveResult
        :func:`find_letterpress_words`'s listing (``solver_info["letters"]``: the bag read).

    Raises
    ------
    InputError
        Bad letters or options.

    Examples
    --------
    >>> index = build_letterpress_index(["cat", "act", "tac", "dog"])
    >>> letterpress_words(index, "tac").solution
    ['act', 'cat', 'tac']
    """
    if letters is None:
        if on_stage is not None:
            on_stage("drawing the board")
        letters = random_letterpress_board(index, seed=seed)
    if on_stage is not None:
        on_stage("listing")
    return find_letterpress_words(
        letters,
        index,
        min_length=min_length,
        limit=limit,
        longest_first=longest_first,
        lang=lang,
        fold=fold,
    )


def letterpress_words_row(
    result: SolveResult, *, lang: str = "en", fold: bool = False, seed: int | None = None
) -> dict[str, Any]:
    """The JSON object of ``cpwords letterpress --json`` (a word listing).

    Parameters
    ----------
    result : SolveResult
        A :func:`letterpress_words` answer (``solver_info["index_seconds"]``: the index's load).
    lang : str
    fold : bool
        How the dictionary was read (reported as given).
    seed : int, optional
        The seed of a drawn board (None: the letters were given).

    Returns
    -------
    dict
        The result's keys (``counts``: ``words``), then ``letters``, ``count``, ``returned``,
        ``complete``, ``lexicon``, ``lexicon_size``, ``lang``, ``fold_accents``, ``index``
        (from_cache, seconds), ``random_board`` and ``seed``.
    """
    info = result.solver_info
    count = int(result.objective or 0)
    return result_row(
        result.to_dict(),
        counts={"words": count},
        letters=info["letters"],
        count=count,
        returned=len(result.solution),
        complete=info.get("complete", True),
        lexicon=info["source"],
        lexicon_size=info["words"],
        lang=lang,
        fold_accents=fold,
        index={"from_cache": info["index_from_cache"], "seconds": info["index_seconds"]},
        random_board=seed is not None,
        seed=seed,
    )


SPEC = PuzzleSpec(
    puzzle="letterpress",
    sense="max",
    default_method="index",
    problems=problems,
    objective=objective,
    methods={
        "index": MethodInfo("exact", description="bitset index, one bitset per letter and count"),
        "index-build": MethodInfo("exact", description="the index built cold, then the query"),
        "index-load": MethodInfo("exact", description="the index loaded from its cache + query"),
        "trie": MethodInfo("baseline", description="the seed's trie (built before timing)"),
        "naive": MethodInfo("baseline", description="the seed's frequency-map scan"),
    },
    make_instance=make_instance,
    run=run,
    size=lambda q: len(q.dictionary),
    size_label="dictionary words",
    spec_keys=frozenset({"lexicon", "letters"}),
    # A listing can hold 57,000 words; the row keeps its size and its longest words (the full
    # listing is checked for soundness and completeness in the worker before it is dropped).
    solution_json=lambda words: {"count": len(words), "longest": list(words)[-10:]},
    objective_label="words spelled",
)
