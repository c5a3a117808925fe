"""Letterpress drawn in SVG: the board with its colours, and a word's tiles joined in order.

One renderer shared by ``cpwords letterpress --svg FILE`` and the ``cpwords serve`` page. It
imports only the rules (no solver, no index): it draws what it is given.

Each tile is one ``<rect class="tile">`` (``data-owner`` = ``me``, ``neutral`` or ``opponent``,
``data-defended`` = ``1`` for a defended tile), its letter one ``<text class="letter">``. A move
(or a word spelled from a bag) is one ``<path class="move">`` through the centres of its tiles
in spelling order, one straight segment per pair of consecutive letters (``len(word) - 1``),
each used tile ringed (``<rect class="used">``) and numbered (``<text class="order">``), so a
test can count them against the move.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from cpwords.letterpress.rules import ME, OPPONENT, LetterpressBoard, defended, play

#: Tile fills: (undefended, defended) per owner, the game's blue and red, and a neutral grey.
COLOURS = {ME: ("#7cc4f2", "#1f8fe0"), OPPONENT: ("#f5a3a0", "#e2453c"), 0: ("#ecebe6", "#ecebe6")}
_OWNER_NAMES = {ME: "me", OPPONENT: "opponent", 0: "neutral"}
_MOVE = "#222"
_CELL = 64.0
_PAD = 8.0


def spell_tiles(word: str, letters: str) -> tuple[int, ...]:
    """Tiles of a bag that spell ``word``: for each letter, its first unused tile.

    Parameters
    ----------
    word : str
    letters : str
        The bag (or a board's letters, row-major).

    Returns
    -------
    tuple of int
        One tile index per letter of ``word``, in spelling order.

    Raises
    ------
    ValueError
        The bag cannot spell the word.

    Examples
    --------
    >>> spell_tiles("tact", "tacos t")
    (0, 1, 2, 6)
    """
    used: set[int] = set()
    out = []
    for ch in word:
        t = next((i for i, c in enumerate(letters) if c == ch and i not in used), None)
        if t is None:
            raise ValueError(f"{letters!r} cannot spell {word!r}")
        used.add(t)
        out.append(t)
    return tuple(out)


def _centre(t: int, cols: int) -> tuple[float, float]:
    r, c = divmod(t, cols)
    return (_PAD + (c + 0.5) * _CELL, _PAD + (r + 0.5) * _CELL)


def move_path(tiles: Sequence[int], cols: int = 5) -> str:
    """SVG path data of a move: ``M`` at its first tile's centre, one ``L`` per next tile.

    Examples
    --------
    >>> move_path([0, 1, 6])
    'M 40 40 L 104 40 L 104 104'
    """
    pts = [_centre(t, cols) for t in tiles]
    head = f"M {pts[0][0]:g} {pts[0][1]:g}"
    return " ".join([head, *(f"L {x:g} {y:g}" for x, y in pts[1:])])


def _tiles_svg(
    letters: str,
    owners: Sequence[int],
    shield: Sequence[bool],
    cols: int,
    tiles: Sequence[int],
    word: str | None,
    label: str,
    kind: str,
) -> str:
    n = len(letters)
    rows = -(-n // cols)
    w, h = 2 * _PAD + cols * _CELL, 2 * _PAD + rows * _CELL
    order = {t: i for i, t in enumerate(tiles)}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="letterpress {kind}" width="{w:g}" '
        f'height="{h:g}" viewBox="0 0 {w:g} {h:g}" role="img" data-rows="{rows}" '
        f'data-cols="{cols}" data-word={quoteattr(word or "")}>',
        f"<title>{escape(label)}</title>",
    ]
    for t, ch in enumerate(letters):
        r, c = divmod(t, cols)
        x, y = _PAD + c * _CELL, _PAD + r * _CELL
        fill = COLOURS[owners[t]][int(shield[t])]
        out.append(
            f'<rect class="tile" data-index="{t}" data-owner="{_OWNER_NAMES[owners[t]]}" '
            f'data-defended="{int(shield[t])}" x="{x:g}" y="{y:g}" width="{_CELL:g}" '
            f'height="{_CELL:g}" fill="{fill}" stroke="#fff" stroke-width="2"/>'
        )
        out.append(
            f'<text class="letter" data-index="{t}" x="{x + _CELL / 2:g}" y="{y + _CELL / 2:g}" '
            f'text-anchor="middle" dominant-baseline="central" '
            f'font-family="Helvetica, Arial, sans-serif" font-size="30" font-weight="bold" '
            f'fill="#222">{ch.upper()}</text>'
        )
    if tiles:
        for t in tiles:
            r, c = divmod(t, cols)
            x, y = _PAD + c * _CELL + 4, _PAD + r * _CELL + 4
            out.append(
                f'<rect class="used" data-index="{t}" x="{x:g}" y="{y:g}" '
                f'width="{_CELL - 8:g}" height="{_CELL - 8:g}" rx="6" fill="none" '
                f'stroke="{_MOVE}" stroke-width="3"/>'
            )
        out.append(
            f'<path class="move" d="{move_path(tiles, cols)}" fill="none" stroke="{_MOVE}" '
            f'stroke-opacity="0.55" stroke-width="5" stroke-linecap="round" '
            f'stroke-linejoin="round"/>'
        )
        for t in tiles:
            r, c = divmod(t, cols)
            x, y = _PAD + c * _CELL + 8, _PAD + r * _CELL + 15
            out.append(
                f'<text class="order" data-index="{t}" x="{x:g}" y="{y:g}" '
                f'font-family="Helvetica, Arial, sans-serif" font-size="12" '
                f'fill="#222">{order[t] + 1}</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _check_tiles(word: str | None, tiles: Sequence[int], letters: str) -> None:
    if len(set(tiles)) != len(tiles):
        raise ValueError("a tile is used twice")
    bad = [t for t in tiles if not 0 <= t < len(letters)]
    if bad:
        raise ValueError(f"tile {bad[0]} is off the board")
    if word is not None and "".join(letters[t] for t in tiles) != word:
        raise ValueError(f"the tiles spell {''.join(letters[t] for t in tiles)!r}, not {word!r}")


def board_svg(
    board: LetterpressBoard,
    tiles: Sequence[int] = (),
    *,
    word: str | None = None,
    after: bool = False,
    title: str | None = None,
) -> str:
    """A Letterpress position as an SVG document, with a move's tiles joined in order.

    Parameters
    ----------
    board : LetterpressBoard
        The position, seen by the player to move (blue).
    tiles : sequence of int
        The move's tiles (row-major indices) in spelling order; empty draws the bare board.
    word : str, optional
        The word the tiles spell (checked against them).
    after : bool
        Colour the tiles as they are after the move (:func:`cpwords.letterpress.rules.play`),
        defended tiles included, instead of before.
    title : str, optional
        The drawing's ``<title>``.

    Returns
    -------
    str
        A standalone SVG document, ``64 * cols + 16`` pixels wide.

    Raises
    ------
    ValueError
        A tile off the board or used twice, or tiles that do not spell ``word``.

    Examples
    --------
    >>> from cpwords.letterpress.rules import parse_board
    >>> b = parse_board("abcde/fghij/klmno/pqrst/uvwxy", "bb.../...../...../...../....r")
    >>> svg = board_svg(b, [0, 1, 6], word="abg")
    >>> svg.count('class="tile"'), svg.count('class="used"'), svg.count(" L ")
    (25, 3, 2)
    """
    _check_tiles(word, tiles, board.letters)
    owners = play(board, tiles) if after else board.owners
    shield = defended(owners, board)
    spelled = word or "".join(board.letters[t] for t in tiles)
    label = title or (
        f"Letterpress board {board.letters}" + (f": {spelled.upper()}" if tiles else "")
    )
    kind = "after" if after else "board"
    return _tiles_svg(
        board.letters, owners, shield, board.cols, tiles, spelled or None, label, kind
    )


def bag_svg(letters: str, word: str | None = None, *, cols: int = 5) -> str:
    """A bag of letters as neutral tiles (rows of ``cols``), with a word's tiles joined.

    Parameters
    ----------
    letters : str
        The bag, a-z.
    word : str, optional
        A word the bag spells; its tiles are picked by :func:`spell_tiles`.
    cols : int
        Tiles per row.

    Returns
    -------
    str
        A standalone SVG document.

    Raises
    ------
    ValueError
        The bag cannot spell the word.

    Examples
    --------
    >>> svg = bag_svg("tacos", "coat")
    >>> svg.count('class="tile"'), svg.count(" L ")
    (5, 3)
    """
    tiles = spell_tiles(word, letters) if word else ()
    neutral = [0] * len(letters)
    label = f"the bag {letters}" + (f": {word.upper()}" if word else "")
    return _tiles_svg(letters, neutral, [False] * len(letters), cols, tiles, word, label, "bag")
