"""The seed's two algorithms for the longest Truncate sequence, ported to Python.

G. Hogg-Blake, "Longest valid Truncate sequence - algorithm comparison" (2024), compares:

* **extend** (the author's): from every word, try adding each letter on both sides (a-z: 52
  candidates; other alphabets: the lexicon's letters too), recurse into every candidate that
  is a word, keep the longest path;
* **shrink** (his brother's, an order of magnitude faster): from every word, remove its first or
  its last letter while the result is a word, recursing into both, to find the longest descent
  to a root; keep the longest over all words.

Both are exhaustive searches without memoisation, so both return a longest sequence; neither
counts the longest sequences. They are kept as published (one depth-first search per word) to be
measured against :func:`cpwords.truncate.models.dp.truncate_dp`, not to be used.
"""

from __future__ import annotations

import string
import sys
import time
from collections.abc import Iterable

from cpwords.core.lexicon import Lexicon, lexicon_from_words
from cpwords.core.result import SolveResult, Status

_LETTERS = string.ascii_lowercase


def _word_list(words: Lexicon | Iterable[str]) -> tuple[str, ...]:
    if isinstance(words, Lexicon):
        return words.words
    return lexicon_from_words(words, alphabet="any").words


def _letters(words: Iterable[str]) -> str:
    """The letters to try: a-z (in that order, as the seed) then the lexicon's others."""
    extra = sorted({ch for w in words for ch in w} - set(_LETTERS))
    return _LETTERS + "".join(extra)


def _result(best: list[str], t0: float, method: str, n: int) -> SolveResult:
    # Both searches are exhaustive, so the length they return is the optimum; they prove it by
    # enumeration, like the DP, only slower.
    k = float(len(best))
    return SolveResult(
        Status.OPTIMAL,
        k,
        k,
        time.perf_counter() - t0,
        tuple(best),
        method,
        solver_info={"words": n, "source": "seed port"},
    )


def extend_search(words: Lexicon | Iterable[str]) -> SolveResult:
    """The seed's "extend" search: grow each word by every letter on both sides.

    Parameters
    ----------
    words : Lexicon or iterable of str
        The dictionary.

    Returns
    -------
    SolveResult
        ``solution`` is one longest sequence (tuple of words, smallest first); the first found
        in dictionary order wins ties, as in the seed.

    Notes
    -----
    ``O(sum over words of 52 * (number of upward paths))`` set look-ups, no memoisation.
    """
    t0 = time.perf_counter()
    ws = _word_list(words)
    valid = frozenset(ws)
    letters = _LETTERS if all(w.isascii() for w in ws) else _letters(ws)

    def longest_from(path: list[str]) -> list[str]:
        head = path[-1]
        best = path
        for ch in letters:
            for ext in (ch + head, head + ch):
                if ext in valid:
                    cand = longest_from([*path, ext])
                    if len(cand) > len(best):
                        best = cand
        return best

    best: list[str] = []
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for w in ws:
            seq = longest_from([w])
            if len(seq) > len(best):
                best = seq
    finally:
        sys.setrecursionlimit(limit)
    return _result(best, t0, "seed-extend", len(ws))


def shrink_search(words: Lexicon | Iterable[str]) -> SolveResult:
    """The seed's "shrink" search: reduce each word to its smallest root.

    Parameters
    ----------
    words : Lexicon or iterable of str
        The dictionary.

    Returns
    -------
    SolveResult
        ``solution`` is one longest sequence (tuple of words, smallest first).

    Notes
    -----
    At most ``2 ** (len(w) - 1)`` descents per word, no memoisation.
    """
    t0 = time.perf_counter()
    ws = _word_list(words)
    valid = frozenset(ws)

    def longest_down(word: str) -> list[str]:
        # the longest chain from `word` down to a root, largest word first
        best: list[str] = []
        if len(word) > 1:
            for shorter in (word[1:], word[:-1]):
                if shorter in valid:
                    cand = longest_down(shorter)
                    if len(cand) > len(best):
                        best = cand
        return [word, *best]

    best: list[str] = []
    for w in ws:
        seq = longest_down(w)
        if len(seq) > len(best):
            best = seq
    best.reverse()
    return _result(best, t0, "seed-shrink", len(ws))
