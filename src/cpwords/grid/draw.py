"""The prefix/suffix grid drawn in SVG: its slots, the edges between them, a (partial) fill.

One renderer shared by ``cpwords grid --svg FILE`` and the ``cpwords serve`` page. It imports
only the rules (no solver): it draws what it is given. :func:`puzzle_svg` draws a puzzle to hand
out (the suffixes alone), for ``--puzzle`` and the page's ``puzzle.svg``.

Each slot is one ``<g class="slot prefix">`` or ``<g class="slot suffix">`` (``data-slot``, and
``data-token`` when filled) placed by the board's ``layout`` (prefix slots in a row above the
suffix slots when the board has none); each edge one ``<line class="edge">`` between the two
slots (``data-word`` when both ends are filled), ``<line class="edge bad">`` when the caller
marks it wrong (e.g. a word the checker refused). A drawing of a board has as many slots and
edges as the board.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from xml.sax.saxutils import escape, quoteattr

from cpwords.core.svg import MONO, caption, caption_height, caption_lines, glyph, plural
from cpwords.grid.rules import Board

_CELL_W = 92.0
_CELL_H = 64.0
_BOX_W = 76.0
_BOX_H = 40.0
_PAD = 12.0
_MIN_WIDTH = 260.0  # room for the caption under a small board
_FILL = {"prefix": "#e8f1fb", "suffix": "#fff3c4"}
_STROKE = {"prefix": "#0072b2", "suffix": "#b07d00"}


def slot_positions(board: Board) -> dict[str, tuple[float, float]]:
    """Centre of each slot, in SVG pixels.

    Parameters
    ----------
    board : Board

    Returns
    -------
    dict of str to (float, float)
        Slot -> (x, y): the ``layout`` cell (row, column) when every slot has one, else the
        prefix slots on row 0 and the suffix slots on row 1.

    Examples
    --------
    >>> from cpwords.grid.rules import default_board
    >>> pos = slot_positions(default_board())
    >>> pos["n"][1] < pos["s1"][1] < pos["c"][1], pos["n"][0] == pos["c"][0]
    (True, True)
    """
    if board.layout and all(v in board.layout for v in board.slots):
        cells = dict(board.layout)
    else:
        cells = {p: (0, i) for i, p in enumerate(board.prefix_slots)}
        cells |= {s: (2, i) for i, s in enumerate(board.suffix_slots)}
    return {
        v: (_PAD + (c + 0.5) * _CELL_W, _PAD + (r + 0.5) * _CELL_H) for v, (r, c) in cells.items()
    }


def grid_svg(
    board: Board,
    fill: Mapping[str, str] | None = None,
    *,
    bad_edges: Collection[tuple[str, str]] = (),
    bad_slots: Collection[str] = (),
    title: str | None = None,
    note: str | None = None,
) -> str:
    """A board as an SVG document, with the tokens of ``fill`` on its slots.

    Parameters
    ----------
    board : Board
    fill : mapping slot -> token, optional
        The tokens placed (a partial fill leaves slots empty; an empty slot shows its name).
    bad_edges : collection of (prefix slot, suffix slot)
        Edges to draw as wrong (``class="edge bad"``), e.g. words not in the lexicon.
    bad_slots : collection of str
        Slots to draw as wrong (``class="slot ... bad"``), e.g. a token placed twice.
    title : str, optional
        The drawing's ``<title>`` (default: the board's name).
    note : str, optional
        What the caller knows of the fill (the status, the count), in the caption.

    Returns
    -------
    str
        A standalone SVG document, the caption (the board, the slots filled, the words spelled
        and the marks, ``note``) under the board.

    Raises
    ------
    ValueError
        ``fill``, ``bad_edges`` or ``bad_slots`` name a slot or an edge the board lacks.

    Examples
    --------
    >>> from cpwords.grid.rules import default_board
    >>> svg = grid_svg(default_board(), {"s1": "er", "c": "ov"})
    >>> svg.count('class="slot '), svg.count('<line class="edge'), svg.count("data-word=")
    (13, 24, 1)
    """
    fill = {v: t.lower() for v, t in (fill or {}).items()}
    _check_marks(board, fill, bad_edges, bad_slots)
    pos = slot_positions(board)
    w = max(max(x for x, _ in pos.values()) + _CELL_W / 2, _MIN_WIDTH) + _PAD
    top = max(y for _, y in pos.values()) + _CELL_H / 2
    bad_e = {tuple(e) for e in bad_edges}
    label = title or f"grid board {board.name}"
    lines = caption_lines(_caption_parts(board, fill, bad_edges, bad_slots, note), w - 2 * _PAD)
    h = top + caption_height(lines) + _PAD
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="grid" width="{w:g}" height="{h:g}" '
        f'viewBox="0 0 {w:g} {h:g}" role="img" data-board={quoteattr(board.name)} '
        f'data-filled="{len(fill)}">',
        f"<title>{escape(label)}</title>",
        f'<rect width="{w:g}" height="{h:g}" fill="#fff"/>',
        '<g class="edges">',
    ]
    out.extend(_edge_line(p, s, pos, fill, (p, s) in bad_e) for p, s in board.edges)
    out.append("</g>")
    kinds = board.kinds
    for v in board.slots:
        out.extend(_slot_group(v, kinds[v], pos[v], fill.get(v), v in bad_slots))
    out.append(caption(lines, _PAD, top))
    out.append("</svg>")
    return "\n".join(out) + "\n"


#: The caption's note on a puzzle to hand out (:func:`puzzle_svg`).
PUZZLE_NOTE = "find the prefixes"


def puzzle_svg(board: Board, fill: Mapping[str, str] | None = None) -> str:
    """A puzzle to hand out: the board with the suffixes of ``fill`` placed and every prefix
    slot empty (the picture of ``cpwords grid --puzzle --svg`` and of the page's
    ``/grid/puzzle.svg``).

    Parameters
    ----------
    board : Board
    fill : mapping slot -> token, optional
        A (partial or full) board: its suffixes are the puzzle; its prefixes, the answer, are
        left out, as are slots the board lacks.

    Returns
    -------
    str
        :func:`grid_svg`'s document of the suffixes alone, no wrong mark, the caption saying
        "find the prefixes".

    Examples
    --------
    >>> from cpwords.grid.rules import default_board
    >>> svg = puzzle_svg(default_board(), {"s1": "er", "c": "ov"})
    >>> 'data-token="er"' in svg, 'data-token="ov"' in svg, "data-word=" in svg
    (True, False, False)
    """
    fill = fill or {}
    suffixes = {v: fill[v] for v in board.suffix_slots if v in fill}
    return grid_svg(board, suffixes, note=PUZZLE_NOTE)


def _caption_parts(
    board: Board,
    fill: Mapping[str, str],
    bad_edges: Collection[tuple[str, str]],
    bad_slots: Collection[str],
    note: str | None,
) -> list[str]:
    """The caption: the board and how much of it is filled, the words spelled, the marks."""
    spelled = [fill[p] + fill[s] for p, s in board.edges if p in fill and s in fill]
    head = f"board {board.name}: {len(fill)} of {len(board.slots)} slots filled"
    marks = [
        f"{plural(n, what)} wrong (red)"
        for n, what in ((len(bad_edges), "word"), (len(bad_slots), "token"))
        if n
    ]
    words = plural(len(spelled), "word") + ": " + " ".join(w.upper() for w in spelled)
    return [head + (f" · {note}" if note else ""), words if spelled else "", ", ".join(marks)]


def _check_marks(
    board: Board,
    fill: Mapping[str, str],
    bad_edges: Collection[tuple[str, str]],
    bad_slots: Collection[str],
) -> None:
    """Raise ValueError when the fill or the marks name a slot or an edge the board lacks."""
    kinds = board.kinds
    unknown = [v for v in [*fill, *bad_slots] if v not in kinds]
    if unknown:
        raise ValueError(f"board {board.name!r} has no slot {unknown[0]!r}")
    edges = set(board.edges)
    stray = [e for e in bad_edges if tuple(e) not in edges]
    if stray:
        raise ValueError(f"board {board.name!r} has no edge {stray[0][0]}-{stray[0][1]}")


def _edge_line(
    p: str,
    s: str,
    pos: Mapping[str, tuple[float, float]],
    fill: Mapping[str, str],
    bad: bool,
) -> str:
    """The ``<line>`` of edge ``p``-``s``, with its word when both ends are filled."""
    (x1, y1), (x2, y2) = pos[p], pos[s]
    cls = "edge bad" if bad else "edge"
    colour, width = ("#b00020", 4) if bad else ("#8a8a8a", 2)
    word = f" data-word={quoteattr(fill[p] + fill[s])}" if p in fill and s in fill else ""
    return (
        f'<line class="{cls}" data-prefix="{p}" data-suffix="{s}"{word} x1="{x1:g}" '
        f'y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{colour}" stroke-width="{width}"/>'
    )


def _slot_group(
    v: str, kind: str, centre: tuple[float, float], tok: str | None, bad: bool
) -> list[str]:
    """The lines of slot ``v``'s ``<g>``: its box and its token (or its name when empty)."""
    x, y = centre
    data = f" data-token={quoteattr(tok)}" if tok is not None else ""
    rect = (
        f'<rect x="{x - _BOX_W / 2:g}" y="{y - _BOX_H / 2:g}" width="{_BOX_W:g}" '
        f'height="{_BOX_H:g}" rx="{_BOX_H / 2 if kind == "suffix" else 6:g}" '
        f'fill="{_FILL[kind]}" stroke="{"#b00020" if bad else _STROKE[kind]}" '
        f'stroke-width="{3 if bad else 2}"/>'
    )
    if tok is None:
        text = glyph(v, x, y, 13, f'class="name" font-family="{MONO}" fill="#999"')
    else:
        shown = f"-{tok}" if kind == "suffix" else f"{tok}-"
        attrs = f'class="token" font-family="{MONO}" font-weight="bold" fill="#222"'
        text = glyph(shown.upper(), x, y, 18, attrs)
    return [
        f'<g class="slot {kind}{" bad" if bad else ""}" data-slot="{v}"{data}>',
        rect,
        text,
        "</g>",
    ]


def problem_marks(
    board: Board,
    fill: Mapping[str, str],
    words: Collection[str],
    suffix_length: int,
    min_prefix: int,
) -> tuple[set[tuple[str, str]], set[str]]:
    """Where a (partial) fill breaks the rules, to draw it: the wrong edges and slots.

    An edge is wrong when its word is not in ``words`` or is spelled twice; a slot when its
    token has the wrong length for its kind or stands on two slots of that kind. (The
    messages themselves come from :func:`cpwords.grid.rules.grid_problems`.)

    Parameters
    ----------
    board : Board
    fill : mapping slot -> token
    words : collection of str
        The lexicon.
    suffix_length, min_prefix : int
        The cutting rule (letters).

    Returns
    -------
    (set of (str, str), set of str)
        The bad edges and the bad slots.

    Examples
    --------
    >>> from cpwords.grid.rules import Board
    >>> b = Board("tiny", ("s",), ("p", "q"), (("p", "s"), ("q", "s")))
    >>> edges, slots = problem_marks(b, {"s": "lo", "p": "hel", "q": "hel"}, {"hello"}, 2, 2)
    >>> sorted(edges), sorted(slots)
    ([('p', 's'), ('q', 's')], ['p', 'q'])
    """
    fill = {v: t.lower() for v, t in fill.items()}
    kinds = board.kinds
    bad_slots: set[str] = set()
    for v, tok in fill.items():
        if v not in kinds:
            continue
        size_ok = len(tok) == suffix_length if kinds[v] == "suffix" else len(tok) >= min_prefix
        same = [u for u in fill if u in kinds and kinds[u] == kinds[v] and fill[u] == tok]
        if not size_ok or len(same) > 1:
            bad_slots.add(v)
    spelled: dict[str, list[tuple[str, str]]] = {}
    for p, s in board.edges:
        if p in fill and s in fill:
            spelled.setdefault(fill[p] + fill[s], []).append((p, s))
    bad_edges = {e for w, es in spelled.items() for e in es if w not in words or len(es) > 1}
    return bad_edges, bad_slots
