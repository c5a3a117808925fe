"""Letter Boxed, exact: the fewest words, then the fewest letters, by the layered DP.

The DP runs over the states (letters still needed, current letter) of the word classes
(:mod:`cpwords.letterboxed.models.classes`), one layer per word, vectorised with NumPy; it stops
at the first layer that covers the box, so the answer is proven optimal by the exhaustive table
itself. :func:`solve_classes` turns it into a :class:`~cpwords.core.result.SolveResult`; the
indexed lexicon (:class:`~cpwords.letterboxed.models.dp.LetterBoxedSolver`) calls it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from cpwords.core.errors import CheckError
from cpwords.core.result import SolveResult, Status
from cpwords.letterboxed.models.classes import WordClasses, superset_min
from cpwords.letterboxed.rules import WORD_WEIGHT

if TYPE_CHECKING:
    from cpwords.letterboxed.models.dp import LetterBoxedSolver

_INF = np.int32(1 << 29)


def _undominated(c: WordClasses) -> NDArray[np.int64]:
    """Indices of the classes not dominated within their (first, last) pair.

    Class B is dominated when another class with the same first and last letters covers a
    strict superset of B's letters with a word no longer than B's shortest word: swapping it in
    keeps any chain valid, covers at least as much and costs no more letters, so the minimum of
    the tables is unchanged (it is NOT used for enumeration or counting).
    """
    n = c.box.n
    size = 1 << n
    pair = c.first * n + c.last
    best = np.full((n * n, size), _INF, dtype=np.int32)
    np.minimum.at(best, (pair, c.mask), c.minlen)
    superset_min(best, n)
    strict = np.full(c.n_classes, _INF, dtype=np.int32)
    for b in range(n):
        bit = np.int64(1 << b)
        has = (c.mask & bit) != 0
        cand = best[pair, c.mask | bit]
        strict = np.where(has, strict, np.minimum(strict, cand))
    return np.flatnonzero(strict > c.minlen)


def _layer_min(
    prev: NDArray[np.int32], c: WordClasses, idx: NDArray[np.int64]
) -> NDArray[np.int32]:
    """One more word in front: ``min(prev, min_B len_B + prev[last_B, r & ~mask_B])``."""
    n = c.box.n
    size = 1 << n
    rr = np.arange(size, dtype=np.int64)
    out = prev.copy()
    first = c.first[idx]
    order = np.argsort(first, kind="stable")
    idx = idx[order]
    cuts = np.searchsorted(first[order], np.arange(n + 1))
    chunk = max(1, (1 << 22) // size)
    for f in range(n):
        group = idx[cuts[f] : cuts[f + 1]]
        for s in range(0, len(group), chunk):
            g = group[s : s + chunk]
            rest = rr[None, :] & ~c.mask[g][:, None]
            vals = prev[c.last[g][:, None], rest] + c.minlen[g][:, None]
            np.minimum(out[f], vals.min(axis=0), out=out[f])
    np.minimum(out, _INF, out=out)
    return out


def fewest_words(
    c: WordClasses, floor: list[int] | None = None
) -> tuple[int, int, list[NDArray[np.int32]]] | None:
    """Proven lexicographic minimum (words, letters) over all solutions, or None if none.

    :func:`fewest_from` from the start of the game (no letter used, any first letter).
    ``floor``, when given, holds in ``floor[0]`` the fewest words a solution can have as far
    as the layers have gone (a proven lower bound, for a search stopped by Ctrl-C).

    Returns
    -------
    (k, letters, T) or None
        ``T[j]`` for ``j < k``, shape (n, 2**n): ``T[j][l, r]`` is the fewest letters of a chain
        of at most j words starting with letter l whose letters include the set r
        (``T[0][l, 0] = 0``, else infinite); needed to rebuild or enumerate the optimal chains.

    Notes
    -----
    ``best_k = min_B len_B + T[k-1][last_B, full & ~mask_B]``; the first k with a finite
    ``best_k`` is the fewest words, and ``best_k`` the fewest letters among chains of k words
    (a chain of fewer words would have made an earlier layer finite). The layers stop without a
    solution when the set of finite entries of ``T`` stops growing (a fixpoint: no longer chain
    can cover anything new), which proves that the box has no solution.
    """
    return fewest_from(c, 0, None, floor)


def fewest_from(
    c: WordClasses, used: int, first: int | None, floor: list[int] | None = None
) -> tuple[int, int, list[NDArray[np.int32]]] | None:
    """Proven fewest more words, then fewest letters, that finish the box from a position.

    A position is what a player's plays leave: the letters already used and the letter the
    next word must start with (the last letter of the last play).

    Parameters
    ----------
    c : WordClasses
        The box's playable words, in classes.
    used : int
        The letters already used, as a mask over ``c.box.letters`` (0 at the start).
    first : int or None
        Index in ``c.box.letters`` of the letter the next word starts with; None: any letter
        (no word played yet).
    floor : list of int, optional
        ``floor[0]`` is kept at the fewest more words a finish can have as far as the layers
        have gone (a proven lower bound, for a search stopped by Ctrl-C).

    Returns
    -------
    (k, letters, T) or None
        ``k`` more words of ``letters`` letters in all, lexicographically fewest; ``(0, 0,
        [T[0]])`` when ``used`` covers the box already. ``T[j]`` for ``j < k`` as in
        :func:`fewest_words`. None when no chain finishes the box (proven).

    Notes
    -----
    The layers of :func:`fewest_words`, read at one state: with ``need = full & ~used`` and
    ``B`` over the classes starting with ``first``, ``best_k = min_B len_B + T[k-1][last_B,
    need & ~mask_B]``; the first finite ``best_k`` gives the fewest words and letters. No
    finish exists when some needed letter is in no playable word, when no playable word
    starts with ``first``, or when the finite entries of ``T`` reach a fixpoint (nothing new
    is coverable by longer chains). O(k * C * 2**n), as a solve.
    """
    n = c.box.n
    size = 1 << n
    full = size - 1
    need = full & ~used
    t0 = np.full((n, size), _INF, dtype=np.int32)
    t0[:, 0] = 0
    tables = [t0]
    if need == 0:
        return 0, 0, tables
    cands = np.arange(c.n_classes) if first is None else c.by_first()[first]
    if cands.size == 0 or need & ~int(np.bitwise_or.reduce(c.mask)):
        return None  # no word starts there, or some needed letter is in no playable word
    rest = need & ~c.mask[cands]
    kept: NDArray[np.int64] | None = None
    k = 1
    while True:
        if floor is not None:
            floor[0] = k  # no finish of fewer than k words
        prev = tables[-1]
        lo = int((prev[c.last[cands], rest] + c.minlen[cands]).min())
        if lo < _INF:
            return k, lo, tables
        if k == 1:
            nxt = np.full((n, size), _INF, dtype=np.int32)
            np.minimum.at(nxt, (c.first, c.mask), c.minlen)
            superset_min(nxt, n)
            np.minimum(nxt, t0, out=nxt)
        else:
            if kept is None:
                kept = _undominated(c)
            nxt = _layer_min(prev, c, kept)
        if np.array_equal(nxt < _INF, prev < _INF):
            return None  # fixpoint: nothing new is coverable, so the letters left never will be
        tables.append(nxt)
        k += 1


def _optimal_chains(
    c: WordClasses,
    k: int,
    letters: int,
    tables: list[NDArray[np.int32]],
    limit: int | None,
    out: list[list[str]] | None = None,
    used: int = 0,
    first: int | None = None,
) -> list[list[str]]:
    """Every chain of ``k`` words and ``letters`` letters covering the box (at most ``limit``),
    appended to ``out`` (a new list by default; given, it keeps the chains found so far when
    the search is interrupted). From a position (:func:`fewest_from`): the chains that cover
    the letters not in ``used``, starting with letter ``first`` (None: any); ``k = 0`` is the
    empty chain.

    Depth-first over (current letter, letters still needed, words left, letters left); a branch
    is entered only when the table's lower bound fits the budget, and the bound is exact, so
    every branch entered ends in a solution (output-sensitive enumeration).
    """
    full = (1 << c.box.n) - 1
    by_first = c.by_first()
    if out is None:
        out = []
    stack: list[str] = []

    def rec(cands: NDArray[np.int64], r: int, j: int, budget: int) -> bool:
        below = tables[j - 1]
        for b in cands.tolist():
            r2 = r & ~int(c.mask[b])
            last = int(c.last[b])
            rest = int(below[last, r2])
            for w in c.words[b]:
                if len(w) + rest > budget:
                    break
                stack.append(w)
                if j == 1:
                    if r2 == 0 and len(w) == budget:
                        out.append(list(stack))
                elif r2 != 0 and rec(by_first[last], r2, j - 1, budget - len(w)):
                    return True
                stack.pop()
                if limit is not None and len(out) >= limit:
                    return True
        return False

    if k == 0:
        out.append([])
        return out
    cands = np.arange(c.n_classes) if first is None else by_first[first]
    rec(cands, full & ~used, k, letters)
    return out


def _no_finish_reason(c: WordClasses, used: int, first: int | None) -> str:
    """Why no chain finishes the box from a position (:func:`fewest_from` returned None)."""
    if c.n_classes == 0:
        return "no playable word"
    if used == 0 and first is None:
        return "exhaustive search: no chain of playable words covers the box"
    letters = c.box.letters
    if first is not None and c.by_first()[first].size == 0:
        return f"no playable word starts with {letters[first]!r}"
    start = "" if first is None else f" starting with {letters[first]!r}"
    return f"exhaustive search: no chain of playable words{start} uses every letter left"


def solve_classes(
    c: WordClasses,
    all_solutions: bool,
    t0: float,
    solver: LetterBoxedSolver | None,
    used: int = 0,
    first: int | None = None,
) -> SolveResult:
    """Solve a box from its word classes: the proven fewest words, then the fewest letters.

    Parameters
    ----------
    c : WordClasses
        The box's playable words, as classes.
    all_solutions : bool
        Also list every optimal chain (``solver_info["optimal_solutions"]``).
    t0 : float
        ``time.perf_counter()`` when the solve began (the wall time counts from it).
    solver : LetterBoxedSolver or None
        The indexed lexicon the classes come from, named in ``solver_info`` (None: not named).
    used : int
        Mask of the box letters already used (a finish from a position; 0: the whole box).
    first : int, optional
        Index of the box letter the next word must start with (None: any).

    Returns
    -------
    SolveResult
        ``method="dp"``, ``sense="min"``: OPTIMAL with ``objective = bound = 1000 * words +
        letters`` and the first optimal chain; INFEASIBLE (``solver_info["reason"]``) when no
        chain covers the letters left; UNKNOWN after Ctrl-C, with ``bound`` the proven fewest
        words when the DP has not finished, or the proven optimum when the listing was stopped.

    Raises
    ------
    CheckError
        An optimum of 1000 letters or more (the objective's weights would mix: a bug).
    """
    info = _solve_info(c, solver)
    full = (1 << c.box.n) - 1
    floor = [0 if used == full else 1]
    try:
        found = fewest_from(c, used, first, floor)
    except KeyboardInterrupt:  # Ctrl-C: no answer yet, but a proven fewest number of words
        info |= {"interrupted": True, "min_words": floor[0]}
        return SolveResult(
            Status.UNKNOWN,
            None,
            float(WORD_WEIGHT * floor[0]),
            time.perf_counter() - t0,
            None,
            "dp",
            sense="min",
            solver_info=info,
        )
    if found is None:
        info["reason"] = _no_finish_reason(c, used, first)
        return SolveResult(
            status=Status.INFEASIBLE,
            objective=None,
            bound=None,
            wall_time=time.perf_counter() - t0,
            solution=None,
            method="dp",
            sense="min",
            solver_info=info,
        )
    return _optimal(c, found, all_solutions, t0, used, first, info)


def _solve_info(c: WordClasses, solver: LetterBoxedSolver | None) -> dict[str, Any]:
    """The ``solver_info`` a solve of :func:`solve_classes` starts from: the box and its classes,
    and the lexicon when ``solver`` is given."""
    info: dict[str, Any] = {
        "box": str(c.box),
        "playable_words": c.n_words,
        "word_classes": c.n_classes,
    }
    if solver is not None:
        info["lexicon"] = solver.source
        info["lexicon_size"] = len(solver.lexicon)
        info["lexicon_size_3plus"] = solver.size
    return info


def _optimal(
    c: WordClasses,
    found: tuple[int, int, list[NDArray[np.int32]]],
    all_solutions: bool,
    t0: float,
    used: int,
    first: int | None,
    info: dict[str, Any],
) -> SolveResult:
    """The result of :func:`solve_classes` once the DP has ``found`` the fewest words and letters
    (with its tables): the optimal chains rebuilt (all of them when ``all_solutions``)."""
    k, letters, tables = found
    if letters >= WORD_WEIGHT:
        raise CheckError(f"{letters} letters exceed the word weight {WORD_WEIGHT}")
    objective = float(WORD_WEIGHT * k + letters)
    chains: list[list[str]] = []
    try:
        limit = None if all_solutions else 1
        _optimal_chains(c, k, letters, tables, limit, chains, used, first)
    except KeyboardInterrupt:  # Ctrl-C: the optimum is proven; the listing may be partial
        info["interrupted"] = True
    info["words"] = k
    info["letters"] = letters
    if not chains:
        return SolveResult(
            Status.UNKNOWN,
            None,
            objective,
            time.perf_counter() - t0,
            None,
            "dp",
            sense="min",
            solver_info=info,
        )
    if all_solutions:
        info["optimal_solutions"] = chains
        info["n_optimal"] = len(chains)
    return SolveResult(
        status=Status.OPTIMAL,
        objective=objective,
        bound=objective,
        wall_time=time.perf_counter() - t0,
        solution=chains[0],
        method="dp",
        sense="min",
        solver_info=info,
    )
