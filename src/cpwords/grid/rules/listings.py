"""The grid's listings: the suffix assignments that admit a full board."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cpwords.grid.rules.boards import Board


@dataclass(frozen=True)
class GridQuadruple:
    """A suffix assignment that admits a full board.

    Attributes
    ----------
    suffixes : tuple of str
        One token per suffix slot, in the board's suffix-slot order (``s1..s4``).
    example : dict
        One full board (slot -> token) with these suffixes.
    """

    suffixes: tuple[str, ...]
    example: dict[str, str]

    def to_dict(self, board: Board) -> dict[str, Any]:
        """JSON form: suffixes, the example board in slot order and its words."""
        ex = {v: self.example[v] for v in board.slots}
        words = [ex[p] + ex[s] for p, s in board.edges]
        return {"suffixes": list(self.suffixes), "board": ex, "words": words}


@dataclass(frozen=True)
class GridEnumeration:
    """All feasible suffix assignments of a board, one per symmetry class.

    Attributes
    ----------
    board : Board
    quadruples : tuple of GridQuadruple
        Sorted by suffixes; each the lex-leader of its class.
    group_order : int
        ``|G|``, the number of automorphisms used (1 without symmetry breaking).
    orbit_size : int
        Suffix assignments per class, ``|G| / |K|`` (K fixes every suffix slot).
    wall_time : float
        Seconds, indexing included.
    method : str
    stats : dict
        Token counts and search nodes.
    """

    board: Board
    quadruples: tuple[GridQuadruple, ...]
    group_order: int
    orbit_size: int
    wall_time: float
    method: str
    stats: dict[str, Any] = field(default_factory=dict)
    #: None when the search finished (the listing is complete); else why it stopped early
    #: ("time_limit" or "interrupted"), and ``quadruples`` holds those found so far.
    stopped: str | None = None

    @property
    def complete(self) -> bool:
        """Whether the listing is exhaustive."""
        return self.stopped is None

    @property
    def count(self) -> int:
        """Number of classes found."""
        return len(self.quadruples)

    def suffix_set(self) -> set[tuple[str, ...]]:
        """The suffix tuples found."""
        return {q.suffixes for q in self.quadruples}
