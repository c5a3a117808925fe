"""The grid's boards: a bipartite graph between prefix and suffix slots, read from JSON, and the
seed's default board (``okwddm``, shipped in ``cpwords/data/boards``)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from cpwords.core.errors import InputError, excerpt

_SLOT = re.compile(r"[A-Za-z0-9_]+")


@dataclass(frozen=True)
class Board:
    """A board graph: prefix slots, suffix slots and the prefix-suffix edges between them.

    Parameters
    ----------
    name : str
        A label.
    suffix_slots, prefix_slots : tuple of str
        Slot names, in the board's order (the order of the lex-leader and of the output).
    edges : tuple of (str, str)
        ``(prefix_slot, suffix_slot)`` pairs, each a word on a filled board; no duplicates.
    layout : mapping str -> (int, int)
        Optional ``(row, column)`` of each slot, used by :func:`draw_grid`.
    description : str
        Free text.

    Raises
    ------
    InputError
        When the slots are not distinct, an edge names an unknown slot, an edge joins two slots
        of the same kind (the board must be bipartite), an edge is repeated or a slot has no edge.
    """

    name: str
    suffix_slots: tuple[str, ...]
    prefix_slots: tuple[str, ...]
    edges: tuple[tuple[str, str], ...]
    layout: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    description: str = ""

    def __post_init__(self) -> None:
        where = f"board {self.name!r}"
        if not self.suffix_slots or not self.prefix_slots:
            raise InputError(f"{where}: needs at least one prefix slot and one suffix slot")
        seen: set[str] = set()
        for s in (*self.suffix_slots, *self.prefix_slots):
            if s in seen:
                raise InputError(f"{where}: slot {s!r} is declared twice")
            seen.add(s)
        kinds = self.kinds
        pairs: set[tuple[str, str]] = set()
        for p, s in self.edges:
            for end in (p, s):
                if end not in kinds:
                    raise InputError(f"{where}: edge {p}-{s} names an unknown slot {end!r}")
            if kinds[p] == kinds[s]:
                raise InputError(
                    f"{where}: edge {p}-{s} joins two {kinds[p]} slots; the board must be "
                    "bipartite (every edge joins a prefix slot to a suffix slot)"
                )
            if kinds[p] != "prefix":
                raise InputError(f"{where}: edge {p}-{s} must be written [prefix, suffix]")
            if (p, s) in pairs:
                raise InputError(f"{where}: edge {p}-{s} is listed twice")
            pairs.add((p, s))
        lonely = [v for v in kinds if self.degree(v) == 0]
        if lonely:
            raise InputError(f"{where}: slot {lonely[0]!r} has no edge")
        cells: dict[tuple[int, int], str] = {}
        for v, rc in self.layout.items():
            if v not in kinds:
                raise InputError(f"{where}: layout names an unknown slot {v!r}")
            if rc in cells:
                raise InputError(f"{where}: slots {cells[rc]!r} and {v!r} share a layout cell")
            cells[rc] = v

    @property
    def kinds(self) -> dict[str, str]:
        """Slot name -> ``"prefix"`` or ``"suffix"``."""
        out = {s: "suffix" for s in self.suffix_slots}
        out.update({p: "prefix" for p in self.prefix_slots})
        return out

    @property
    def slots(self) -> tuple[str, ...]:
        """All slots, suffix slots first (the order used for the lex-leader)."""
        return (*self.suffix_slots, *self.prefix_slots)

    def neighbours(self, slot: str) -> tuple[str, ...]:
        """The slots joined to ``slot``, in the board's order."""
        nb = {s for p, s in self.edges if p == slot} | {p for p, s in self.edges if s == slot}
        return tuple(v for v in self.slots if v in nb)

    def degree(self, slot: str) -> int:
        """Number of edges at ``slot`` (words through it on a filled board)."""
        return sum(slot in e for e in self.edges)

    def to_dict(self) -> dict[str, Any]:
        """The board in the JSON board-file format."""
        d: dict[str, Any] = {
            "name": self.name,
            "suffix_slots": list(self.suffix_slots),
            "prefix_slots": list(self.prefix_slots),
            "edges": [list(e) for e in self.edges],
        }
        if self.description:
            d["description"] = self.description
        if self.layout:
            d["layout"] = {v: list(rc) for v, rc in self.layout.items()}
        return d


def _str_list(obj: Any, key: str, where: str) -> tuple[str, ...]:
    val = obj.get(key)
    if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
        raise InputError(f"{where}: {key!r} must be a list of slot names")
    for x in val:
        if not _SLOT.fullmatch(x):
            raise InputError(f"{where}: {x!r} is not a slot name (letters, digits, _)")
    return tuple(val)


def parse_board(text: str, source: str = "<board>") -> Board:
    """Parse a board file (JSON).

    The format is an object with ``suffix_slots`` and ``prefix_slots`` (lists of names),
    ``edges`` (a list of ``[prefix_slot, suffix_slot]``), and optionally ``name``,
    ``description`` and ``layout`` (slot -> ``[row, column]`` for the drawing).

    Raises
    ------
    InputError
        Malformed JSON, missing or ill-typed keys, or a board rejected by :class:`Board`.
    """
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{source}: not a JSON board file (line {exc.lineno}: {exc.msg})"
        ) from None
    if not isinstance(obj, dict):
        raise InputError(f"{source}: a board file must hold one JSON object")
    suffix_slots = _str_list(obj, "suffix_slots", source)
    prefix_slots = _str_list(obj, "prefix_slots", source)
    raw_edges = obj.get("edges")
    if not isinstance(raw_edges, list):
        raise InputError(f"{source}: 'edges' must be a list of [prefix_slot, suffix_slot]")
    edges = []
    for e in raw_edges:
        if not (isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e)):
            raise InputError(f"{source}: edge {e!r} is not a pair of slot names")
        edges.append((e[0], e[1]))
    raw_layout = obj.get("layout", {})
    if not isinstance(raw_layout, dict):
        raise InputError(f"{source}: 'layout' must map slots to [row, column]")
    layout: dict[str, tuple[int, int]] = {}
    for v, rc in raw_layout.items():
        if not (
            isinstance(rc, list)
            and len(rc) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in rc)
        ):
            raise InputError(f"{source}: layout of {v!r} must be [row, column], integers >= 0")
        layout[v] = (rc[0], rc[1])
    name = obj.get("name", Path(source).stem)
    description = obj.get("description", "")
    if not isinstance(name, str) or not isinstance(description, str):
        raise InputError(f"{source}: 'name' and 'description' must be strings")
    try:
        return Board(name, suffix_slots, prefix_slots, tuple(edges), layout, description)
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None


def load_board(path: str | os.PathLike[str] | None = None) -> Board:
    """Load a board file (``-``: standard input), or the default board when ``path`` is None.

    Raises
    ------
    InputError
        Missing, unreadable, non-UTF-8 or malformed file (see :func:`parse_board`).
    """
    if path is None:
        return default_board()
    from cpwords.core.lexicon import read_file_bytes

    source = "<stdin>" if str(path) == "-" else str(path)
    try:
        text = read_file_bytes(path, "board file").decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"board file {excerpt(source)} is not UTF-8 text") from None
    return parse_board(text, source)


def default_board() -> Board:
    """The seed's board (``okwddm``): 9 prefix slots, 4 suffix slots, 24 edges.

    Examples
    --------
    >>> b = default_board()
    >>> len(b.prefix_slots), len(b.suffix_slots), len(b.edges)
    (9, 4, 24)
    >>> [b.degree(v) for v in ("s1", "c", "ne", "n")]
    [6, 4, 2, 3]
    """
    text = resources.files("cpwords").joinpath("data/boards/okwddm.json").read_text("utf-8")
    return parse_board(text, "okwddm.json")
