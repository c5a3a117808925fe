"""Large neighbourhood search: re-order the pieces of a snake around its hard words exactly.

Given an ordering and a set ``F`` of words (the assignment relaxation's subtours and the words that
overlap them, :func:`~cpwords.wordsnake.bounds.path_cover.neighbourhood`), the ordering is cut
before and after every item of ``F``: the items of ``F`` become pieces of one word and the runs
between them pieces of their own, kept as they are. A run scores the same wherever it goes, and
its joints with other pieces depend only on its first word (what may precede it) and its last word
(what may follow it). So a run is written as its first word, a *separator* letter that occurs in
no word, and its last word: no overlap can cross the separator, and its overlaps with every word
are exactly those of its ends. The best ordering of the pieces is then a Wordsnake instance of
about ``2 |F|`` items, solved exactly; it is never worse than the ordering it came from (which is
one of its orderings).

Formulation card: ``models/wordsnake.md`` (section "Large neighbourhood search").

References
----------
P. Shaw, "Using constraint programming and local search methods to solve vehicle routing
problems", CP 1998 (large neighbourhood search).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpwords.core.alphabet import is_letter
from cpwords.wordsnake.rules import WordsnakeInstance

#: Letters tried as the separator of a run's two ends (no case, unchanged by NFC).
SEPARATORS = "ǂǁǀǃ丨"


@dataclass
class Reordered:
    """The outcome of :func:`reorder_pieces`.

    Attributes
    ----------
    order : list of int
        Item sequence (the given one when nothing better was found).
    objective : int
        Its score.
    info : dict
        ``pieces``, the sub-instance's ``status`` and ``time``.
    """

    order: list[int]
    objective: int
    info: dict[str, Any] = field(default_factory=dict)


def separator(words: Sequence[str]) -> str | None:
    """The separator of the pieces' written forms for a list of words.

    Parameters
    ----------
    words : sequence of str
        The instance's words.

    Returns
    -------
    str or None
        The first of :data:`SEPARATORS` that is a letter and occurs in none of ``words``;
        None when each occurs.

    Notes
    -----
    O(letters): the neighbourhood search finds it once for a list, not once a family.

    Examples
    --------
    >>> separator(["ab", "ba"])
    'ǂ'
    """
    alphabet = set("".join(set(words)))
    return next((c for c in SEPARATORS if c not in alphabet and is_letter(c)), None)


def reorder_pieces(
    instance: WordsnakeInstance,
    order: Sequence[int],
    focus: set[int],
    pair: Callable[[int, int], int],
    solve: Callable[[WordsnakeInstance, float | None], tuple[list[str] | None, bool]],
    *,
    time_limit: float | None = None,
    current: int | None = None,
    positions: np.ndarray | None = None,
    sep: str | None = None,
) -> Reordered:
    """Cut ``order`` around the items of ``focus`` and re-order the pieces exactly.

    Parameters
    ----------
    instance : WordsnakeInstance
    order : sequence of int
        A snake of the instance (item ids; a cycle for a cyclic snake).
    focus : set of int
        Item ids that become pieces of their own.
    pair : callable
        ``pair(a, b)``: the score of the joint ``a -> b`` of two items.
    solve : callable
        ``solve(sub_instance, time_limit) -> (ordering or None, proven)``: an exact Wordsnake
        method for the sub-instance.
    time_limit : float, optional
        Seconds for the sub-instance.
    current : int, optional
        The score of ``order`` when the caller knows it (else counted here, O(items)): the
        new score is counted from the joints between pieces only.
    positions : numpy.ndarray of int, shape (items,), optional
        Each item's position in ``order`` when the caller knows them (else found here,
        O(items)): with them and ``current``, the pieces are found in O(focus) and only an
        ordering that gains is written out in O(items).
    sep : str, optional
        :func:`separator` of the instance's words when the caller knows it (else found here,
        O(letters)).

    Returns
    -------
    Reordered
        Never scores below ``order``. A ``proper`` instance is returned as it is (a run's written
        form would allow an overlap as long as its end word, which ``proper`` forbids).
    """
    seq = order if isinstance(order, list) else list(order)
    cyclic = instance.cyclic
    words = instance.words
    if current is None:
        current = _joints(seq, [(x, x) for x in range(instance.n)], pair, cyclic)
    if instance.proper or not focus or not seq:
        return Reordered(seq, current, {"pieces": 0})
    sep = sep or separator(words)
    if sep is None:  # pragma: no cover - every separator is a letter of the list
        return Reordered(seq, current, {"pieces": 0})
    if positions is None:
        positions = np.empty(len(seq), dtype=np.int64)
        positions[np.asarray(seq, dtype=np.int64)] = np.arange(len(seq))
    pieces = _cut(len(seq), np.sort(positions[np.fromiter(focus, np.int64, len(focus))]), cyclic)
    ends = [(seq[p[0][0]], seq[p[-1][1] - 1]) for p in pieces]
    written = [_written(p, words[a], words[b], sep) for p, (a, b) in zip(pieces, ends, strict=True)]
    sub = WordsnakeInstance(
        tuple(written), cyclic=cyclic, proper=False, name="pieces", score=instance.score
    )
    found, proven = solve(sub, time_limit)
    info: dict[str, Any] = {"pieces": len(pieces), "proven": proven}
    if found is None or len(found) != len(pieces):
        return Reordered(seq, current, info)
    chosen = _pieces_of(found, written)
    if chosen is None:  # pragma: no cover - not an ordering of the pieces
        return Reordered(seq, current, info)
    value = (
        current
        + _joints(chosen, ends, pair, cyclic)
        - _joints(range(len(pieces)), ends, pair, cyclic)
    )
    if value <= current:
        return Reordered(seq, current, info)
    new = [x for k in chosen for lo, hi in pieces[k] for x in seq[lo:hi]]
    return Reordered(new, value, info)


def _written(piece: list[tuple[int, int]], first: str, last: str, sep: str) -> str:
    """A piece as a word: its one word, or its first word, the separator and its last."""
    return first if len(piece) == 1 and piece[0][1] - piece[0][0] == 1 else f"{first}{sep}{last}"


def _joints(
    ps: Sequence[int], ends: list[tuple[int, int]], pair: Callable[[int, int], int], cyclic: bool
) -> int:
    """The score of the joints between consecutive pieces ``ps`` (their first and last items
    in ``ends``; runs score the same anywhere)."""
    total = sum(pair(ends[i][1], ends[j][0]) for i, j in itertools.pairwise(ps))
    if cyclic and len(ps) > 1:
        total += pair(ends[ps[-1]][1], ends[ps[0]][0])
    return total


def _cut(size: int, at: np.ndarray, cyclic: bool) -> list[list[tuple[int, int]]]:
    """The pieces of an ordering of ``size`` items cut around the positions ``at`` (sorted,
    at least one): each position alone, each run between two of them as it is; a piece is
    its position ranges ``[lo, hi)`` (two for a cyclic snake's run through the end). A cyclic
    snake's pieces start at the first of ``at``."""
    cuts = at.tolist()
    pieces: list[list[tuple[int, int]]] = []
    if not cyclic and cuts[0] > 0:
        pieces.append([(0, cuts[0])])
    for q, nxt in zip(cuts, [*cuts[1:], None], strict=True):
        pieces.append([(q, q + 1)])
        if nxt is not None:
            if nxt > q + 1:
                pieces.append([(q + 1, nxt)])
            continue
        tail = [(q + 1, size)] if q + 1 < size else []  # after the last cut
        if cyclic and cuts[0] > 0:
            tail.append((0, cuts[0]))  # on through the start, to the first cut
        if tail:
            pieces.append(tail)
    return pieces


def _pieces_of(found: list[str], written: list[str]) -> list[int] | None:
    """The pieces (their indices) in the order of ``found`` (their written forms, as many as
    there are pieces), or None when ``found`` is not an ordering of them."""
    slots: dict[str, list[int]] = {}
    for k, w in enumerate(written):
        slots.setdefault(w, []).append(k)
    chosen: list[int] = []
    try:
        for w in found:
            chosen.append(slots[w].pop())
    except (KeyError, IndexError):  # pragma: no cover - not an ordering of the pieces
        return None
    # Every piece once (one slot popped per written piece, as many as there are pieces).
    return chosen
