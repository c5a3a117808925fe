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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

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


def reorder_pieces(
    instance: WordsnakeInstance,
    order: Sequence[int],
    focus: set[int],
    pair: Callable[[int, int], int],
    solve: Callable[[WordsnakeInstance, float | None], tuple[list[str] | None, bool]],
    *,
    time_limit: float | None = None,
    current: int | None = None,
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

    Returns
    -------
    Reordered
        Never scores below ``order``. A ``proper`` instance is returned as it is (a run's written
        form would allow an overlap as long as its end word, which ``proper`` forbids).
    """
    seq = list(order)
    cyclic = instance.cyclic
    words = instance.words

    def joints(ps: Sequence[list[int]]) -> int:
        """The score of the joints between consecutive pieces (runs score the same anywhere)."""
        total = sum(pair(ps[i][-1], ps[i + 1][0]) for i in range(len(ps) - 1))
        if cyclic and len(ps) > 1:
            total += pair(ps[-1][-1], ps[0][0])
        return total

    if current is None:
        current = joints([[x] for x in seq])
    if instance.proper or not focus or not seq:
        return Reordered(seq, current, {"pieces": 0})
    alphabet = set("".join(set(words)))
    sep = next((c for c in SEPARATORS if c not in alphabet and is_letter(c)), None)
    if sep is None:  # pragma: no cover - every separator is a letter of the list
        return Reordered(seq, current, {"pieces": 0})
    if cyclic:  # start at a focus item so that no run wraps around
        first = next(i for i, x in enumerate(seq) if x in focus)
        seq = seq[first:] + seq[:first]
    pieces = _cut(seq, focus)
    written = [words[p[0]] if len(p) == 1 else f"{words[p[0]]}{sep}{words[p[-1]]}" for p in pieces]
    sub = WordsnakeInstance(
        tuple(written), cyclic=cyclic, proper=False, name="pieces", score=instance.score
    )
    found, proven = solve(sub, time_limit)
    info: dict[str, Any] = {"pieces": len(pieces), "proven": proven}
    if found is None or len(found) != len(pieces):
        return Reordered(list(order), current, info)
    chosen = _pieces_of(found, written, pieces)
    if chosen is None:  # pragma: no cover - not an ordering of the pieces
        return Reordered(list(order), current, info)
    value = current + joints(chosen) - joints(pieces)
    if value <= current:
        return Reordered(list(order), current, info)
    new = [x for piece in chosen for x in piece]
    return Reordered(new, value, info)


def _cut(seq: list[int], focus: set[int]) -> list[list[int]]:
    """The pieces of ``seq``: each item of ``focus`` alone, each run between them as it is."""
    pieces: list[list[int]] = []
    run: list[int] = []
    for x in seq:
        if x in focus:
            if run:
                pieces.append(run)
                run = []
            pieces.append([x])
        else:
            run.append(x)
    if run:
        pieces.append(run)
    return pieces


def _pieces_of(
    found: list[str], written: list[str], pieces: list[list[int]]
) -> list[list[int]] | None:
    """The pieces in the order of ``found`` (their written forms, as many as there are pieces),
    or None when ``found`` is not an ordering of them."""
    slots: dict[str, list[int]] = {}
    for k, w in enumerate(written):
        slots.setdefault(w, []).append(k)
    chosen: list[list[int]] = []
    try:
        for w in found:
            chosen.append(pieces[slots[w].pop()])
    except (KeyError, IndexError):  # pragma: no cover - not an ordering of the pieces
        return None
    # Every piece once (one slot popped per written piece, as many as there are pieces).
    return chosen
