"""Letterpress drawn in SVG: the board with its colours, and a word's tiles marked in order.

One renderer shared by ``cpwords letterpress --svg FILE`` and the ``cpwords serve`` page. It
imports only the rules (no solver, no index): it draws what it is given. :func:`puzzle_svg`
draws a puzzle to hand out (no move), for ``--puzzle`` and the page's ``puzzle.svg``.

Each tile is one ``<rect class="tile">`` (``data-owner`` = ``me``, ``neutral`` or ``opponent``,
``data-defended`` = ``1`` for a defended tile), its letter one ``<text class="letter">``. A move
(or a word spelled from a bag) rings each of its tiles (``<rect class="used">``) and numbers
them in spelling order (``<text class="order">``, 1 to ``len(word)``), so a test can count them
against the move. The tiles are not joined: the game has no path (any tiles may spell a word).
A caption under the board gives the letters row by row, the word, the caller's note (the
swing, the status) and the key of the colours.
"""

from __future__ import annotations

from collections.abc import Sequence

from cpwords.core.svg import MONO, caption, caption_height, caption_lines, escape, glyph, quoteattr
from cpwords.letterpress.rules import ME, OPPONENT, LetterpressBoard, defended, play

#: Tile fills: (undefended, defended) per owner, the game's blue and red, and a neutral grey.
COLOURS = {ME: ("#7cc4f2", "#1f8fe0"), OPPONENT: ("#f5a3a0", "#e2453c"), 0: ("#ecebe6", "#ecebe6")}
_OWNER_NAMES = {ME: "me", OPPONENT: "opponent", 0: "neutral"}
_MOVE = "#222"
_CELL = 64.0
_PAD = 8.0
_MIN_WIDTH = 300.0  # room for the caption under a small bag
_LETTER = (
    'class="letter" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" '
    'font-weight="bold" fill="#222"'
)
#: The caption's key to the colours and marks of a board.
KEY = "blue: yours, red: the opponent's, darker: defended; 1, 2, ...: the word's tiles in order"


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


def _tile_svg(t: int, ch: str, cols: int, owner: int, shielded: bool) -> list[str]:
    """Tile ``t``: its square in its owner's colour and its letter."""
    r, c = divmod(t, cols)
    x, y = _PAD + c * _CELL, _PAD + r * _CELL
    fill = COLOURS[owner][int(shielded)]
    return [
        f'<rect class="tile" data-index="{t}" data-owner="{_OWNER_NAMES[owner]}" '
        f'data-defended="{int(shielded)}" x="{x:g}" y="{y:g}" width="{_CELL:g}" '
        f'height="{_CELL:g}" fill="{fill}" stroke="#fff" stroke-width="2"/>',
        glyph(ch.upper(), x + _CELL / 2, y + _CELL / 2, 30, _LETTER + f' data-index="{t}"'),
    ]


def _used_svg(t: int, rank: int, cols: int) -> list[str]:
    """The ring round tile ``t`` of a word and its rank in the word (from 1)."""
    r, c = divmod(t, cols)
    x, y = _PAD + c * _CELL, _PAD + r * _CELL
    return [
        f'<rect class="used" data-index="{t}" x="{x + 4:g}" y="{y + 4:g}" '
        f'width="{_CELL - 8:g}" height="{_CELL - 8:g}" rx="6" fill="none" '
        f'stroke="{_MOVE}" stroke-width="3"/>',
        f'<text class="order" data-index="{t}" x="{x + 10:g}" y="{y + 22:g}" '
        f'font-family="{MONO}" font-size="13" font-weight="bold" text-anchor="start" '
        f'fill="{_MOVE}">{rank}</text>',
    ]


def _tiles_svg(
    letters: str,
    owners: Sequence[int],
    shield: Sequence[bool],
    cols: int,
    tiles: Sequence[int],
    kind: str,
    texts: tuple[str, list[str]],
) -> str:
    """The tiles, the word's tiles ringed and numbered, and the caption (``texts``: the
    ``<title>`` and the caption's parts)."""
    label, parts = texts
    rows = -(-len(letters) // cols)
    w = 2 * _PAD + max(cols * _CELL, _MIN_WIDTH)
    lines = caption_lines(parts, w - 2 * _PAD)
    top = _PAD + rows * _CELL
    h = top + caption_height(lines) + _PAD
    word = "".join(letters[t] for t in tiles)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="letterpress {kind}" width="{w:g}" '
        f'height="{h:g}" viewBox="0 0 {w:g} {h:g}" role="img" data-rows="{rows}" '
        f'data-cols="{cols}" data-word={quoteattr(word)}>',
        f"<title>{escape(label)}</title>",
        f'<rect width="{w:g}" height="{h:g}" fill="#fff"/>',
    ]
    for t, ch in enumerate(letters):
        out.extend(_tile_svg(t, ch, cols, owners[t], shield[t]))
    for rank, t in enumerate(tiles, 1):
        out.extend(_used_svg(t, rank, cols))
    out.append(caption(lines, _PAD, top))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _rows_text(letters: str, cols: int) -> str:
    """The letters row by row, upper case, rows separated by a space."""
    return " ".join(letters[i : i + cols].upper() for i in range(0, len(letters), cols))


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
    note: str | None = None,
) -> str:
    """A Letterpress position as an SVG document, a move's tiles ringed and numbered in order.

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
    note : str, optional
        What the caller knows of the move (the swing, the status), in the caption.

    Returns
    -------
    str
        A standalone SVG document, ``64 * cols + 16`` pixels wide (at least 316), the caption
        (the board's rows, the word, ``note``, the key of the colours) under the board.

    Raises
    ------
    ValueError
        A tile off the board or used twice, or tiles that do not spell ``word``.

    Examples
    --------
    >>> from cpwords.letterpress.rules import parse_board
    >>> b = parse_board("abcde/fghij/klmno/pqrst/uvwxy", "bb.../...../...../...../....r")
    >>> svg = board_svg(b, [0, 1, 6], word="abg", note="swing +3")
    >>> svg.count('class="tile"'), svg.count('class="used"'), svg.count('class="order"')
    (25, 3, 3)
    >>> "<path" in svg, "ABCDE FGHIJ KLMNO PQRST UVWXY" in svg, "ABG · swing +3" in svg
    (False, True, True)
    """
    _check_tiles(word, tiles, board.letters)
    owners = play(board, tiles) if after else board.owners
    shield = defended(owners, board)
    spelled = word or "".join(board.letters[t] for t in tiles)
    label = title or (
        f"Letterpress board {board.letters}" + (f": {spelled.upper()}" if tiles else "")
    )
    kind = "after" if after else "board"
    head = "after the move" if after else "board"
    parts = [
        f"{head} {_rows_text(board.letters, board.cols)}",
        " · ".join(x for x in (spelled.upper() if tiles else "", note or "") if x),
        KEY if tiles else KEY.split(";")[0],
    ]
    return _tiles_svg(board.letters, owners, shield, board.cols, tiles, kind, (label, parts))


def bag_svg(
    letters: str, word: str | None = None, *, cols: int = 5, note: str | None = None
) -> str:
    """A bag of letters as neutral tiles (rows of ``cols``), a word's tiles numbered.

    Parameters
    ----------
    letters : str
        The bag, a-z.
    word : str, optional
        A word the bag spells; its tiles are picked by :func:`spell_tiles`.
    cols : int
        Tiles per row.
    note : str, optional
        What the caller knows of the word (e.g. the longest of how many), in the caption.

    Returns
    -------
    str
        A standalone SVG document, the caption (the bag, the word, ``note``) under the tiles.

    Raises
    ------
    ValueError
        The bag cannot spell the word.

    Examples
    --------
    >>> svg = bag_svg("tacos", "coat")
    >>> svg.count('class="tile"'), svg.count('class="order"'), "<path" in svg
    (5, 4, False)
    """
    tiles = spell_tiles(word, letters) if word else ()
    neutral = [0] * len(letters)
    label = f"the bag {letters}" + (f": {word.upper()}" if word else "")
    parts = [
        f"bag {_rows_text(letters, cols)}",
        " · ".join(x for x in ((word or "").upper(), note or "") if x),
    ]
    shield = [False] * len(letters)
    return _tiles_svg(letters, neutral, shield, cols, tiles, "bag", (label, parts))


#: The captions' notes on a puzzle to hand out (:func:`puzzle_svg`): a board, a bag.
PUZZLE_NOTES = {"board": "find the best move", "bag": "find the words"}


def puzzle_svg(puzzle: LetterpressBoard | str) -> str:
    """A puzzle to hand out, no move or word on it (the picture of ``cpwords letterpress
    --puzzle --svg`` and of the page's ``/letterpress/puzzle.svg``).

    Parameters
    ----------
    puzzle : LetterpressBoard or str
        A position (find the best move) or a bag of letters (find the words).

    Returns
    -------
    str
        :func:`board_svg`'s bare board, or :func:`bag_svg`'s bag with no word, the caption
        saying what to find.

    Examples
    --------
    >>> from cpwords.letterpress.rules import parse_board
    >>> b = parse_board("abcde/fghij/klmno/pqrst/uvwxy", "bb.../...../...../...../....r")
    >>> svg = puzzle_svg(b)
    >>> svg.count('class="tile"'), 'class="used"' in svg, "find the best move" in svg
    (25, False, True)
    >>> bag = puzzle_svg("tacos")
    >>> bag.count('class="tile"'), 'class="order"' in bag, "find the words" in bag
    (5, False, True)
    """
    if isinstance(puzzle, str):
        return bag_svg(puzzle, note=PUZZLE_NOTES["bag"])
    return board_svg(puzzle, note=PUZZLE_NOTES["board"])
