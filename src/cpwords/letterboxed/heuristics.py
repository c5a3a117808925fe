"""The seed's Letter Boxed solver, ported to Python as a baseline.

The seed finds the playable words by walking a trie of the lexicon along the box graph (from
each letter, only to the nine letters of the other sides), remembering the set of box vertices
each word visits, and then searches *two-word* solutions only: pairs (w1, w2) where w2 starts
with the last letter of w1 and the two visited sets cover the twelve vertices. It proves
nothing: it cannot see a one-word solution, nor tell a box with no two-word solution from an
unsolvable one.

References
----------
B. Mattessich (writeasync), "Letter Boxed: an introduction" and "Letter Boxed: an algorithmic
solution", 2019 (C#, a ``StringTrie`` and a recursive depth-first search).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import Any

from cpwords.core.result import SolveResult, Status
from cpwords.letterboxed.rules import WORD_WEIGHT, LetterBox, letterboxed_problems

_END = ""  # key of the end-of-word mark in a trie node (no letter is the empty string)

Trie = dict[str, Any]


def build_trie(words: Iterable[str]) -> Trie:
    """A trie of ``words`` as nested dicts; a node holding ``""`` ends a word."""
    root: Trie = {}
    for w in words:
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[_END] = w
    return root


def seed_find_words(trie: Trie, box: LetterBox) -> list[tuple[str, int]]:
    """The seed's word search: depth-first along the box graph inside the trie.

    Returns
    -------
    list of (str, int)
        Words of at least 3 letters in the order the walk finds them, each with the bit mask
        of the box vertices it visits (bit i = ``box.letters[i]``).
    """
    letters = box.letters
    side = [box.side_of[ch] for ch in letters]
    adjacent = [[j for j in range(len(letters)) if side[j] != side[i]] for i in range(len(letters))]
    found: list[tuple[str, int]] = []

    def walk(node: Trie, v: int, visited: int, depth: int) -> None:
        word = node.get(_END)
        if word is not None and depth >= 3:
            found.append((word, visited))
        for u in adjacent[v]:
            child = node.get(letters[u])
            if child is not None:
                walk(child, u, visited | (1 << u), depth + 1)

    for v, ch in enumerate(letters):
        child = trie.get(ch)
        if child is not None:
            walk(child, v, 1 << v, 1)
    return found


def seed_two_word_pairs(trie: Trie, box: LetterBox) -> Iterator[tuple[str, str]]:
    """The seed's two-word search: every pair (w1, w2) chaining and covering the box.

    Yields pairs in the seed's order (w1 in the order the walk finds words).
    """
    words = seed_find_words(trie, box)
    full = (1 << box.n) - 1
    starting: dict[str, list[tuple[str, int]]] = {}
    for w, m in words:
        starting.setdefault(w[0], []).append((w, m))
    for w1, m1 in words:
        for w2, m2 in starting.get(w1[-1], ()):
            if m1 | m2 == full:
                yield w1, w2


def seed_baseline(
    box: LetterBox,
    words: Iterable[str] | None = None,
    *,
    trie: Trie | None = None,
    pick: str = "first",
) -> SolveResult:
    """The seed's two-word pair search as a :class:`~cpwords.core.result.SolveResult` (sense "min").

    Parameters
    ----------
    box : LetterBox
    words : iterable of str, optional
        The lexicon (ignored when ``trie`` is given).
    trie : dict, optional
        A trie from :func:`build_trie`, to reuse one lexicon across boxes.
    pick : {"first", "fewest-letters"}
        Report the first pair the seed finds, or the pair with fewest letters among all pairs
        (the best the seed's search can give).

    Returns
    -------
    SolveResult
        FEASIBLE with ``objective = 1000 * 2 + letters`` (the scale of
        :func:`~cpwords.letterboxed.models.dp.solve_letterboxed`) and ``bound=None``, or UNKNOWN
        when no pair exists (the seed cannot tell whether a longer solution exists).
        ``solver_info["pairs"]`` counts the pairs found.
    """
    if pick not in ("first", "fewest-letters"):
        raise ValueError(f"pick must be 'first' or 'fewest-letters', not {pick!r}")
    t0 = time.perf_counter()
    if trie is None:
        trie = build_trie(words if words is not None else ())
    best: tuple[str, str] | None = None
    n_pairs = 0
    for pair in seed_two_word_pairs(trie, box):
        n_pairs += 1
        if best is None or (
            pick == "fewest-letters"
            and (len(pair[0]) + len(pair[1]), pair) < (len(best[0]) + len(best[1]), best)
        ):
            best = pair
        if pick == "first":
            break
    wall = time.perf_counter() - t0
    info: dict[str, Any] = {"pick": pick, "pairs": n_pairs if pick != "first" else None}
    method = f"seed-two-word-{pick}"
    if best is None:
        return SolveResult(Status.UNKNOWN, None, None, wall, None, method, "min", info)
    solution = list(best)
    letters = len(best[0]) + len(best[1])
    result = SolveResult(
        Status.FEASIBLE, float(2 * WORD_WEIGHT + letters), None, wall, solution, method, "min", info
    )
    return result.with_verified(not letterboxed_problems(box, solution))
