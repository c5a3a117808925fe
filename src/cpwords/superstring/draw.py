"""A superstring drawn in SVG: its letters in rows, each word underlined where it sits.

Shared by ``cpwords superstring --svg FILE`` (and ``--png``). It imports only the rules (no
solver, no model): it draws what it is given, each word at the place the superstring claims
for it when the word is there, else at its first occurrence (searched for).

The letters run in rows of :data:`COLUMNS` cells, one glyph per ``<text>``; under each row,
*lanes* of bars: each word is one ``<rect class="under">`` per row it spans (``data-word``),
in the first lane free over its whole span (first fit by start, so a word keeps its lane from
row to row and two bars of one lane never overlap). The kept words (contained in no other)
are drawn darker than the words they contain. The caption gives the letters, the words, how
many dropped out and what the caller knows (the status).
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from cpwords.core.svg import MONO, caption, caption_height, caption_lines, glyph, plural
from cpwords.superstring.rules import Superstring

_CELL = 22.0
_LANE = 6.0
_PAD = 16.0
_GAP = 10.0
_MIN_INNER = 300.0
#: Letters a row holds.
COLUMNS = 40
#: Letters drawn at most (a longer superstring: its start, the caption says so).
MAX_LETTERS = 800
#: Lanes of underlines at most (a word that finds no free lane among them is not underlined,
#: and the caption says how many).
MAX_LANES = 24
_KEPT = "#2b6cb0"
_HELD = "#9ec5ee"
_LETTER = f'class="letter" font-family="{MONO}" font-weight="bold" fill="#222"'


def spans(words: Sequence[str], found: Superstring) -> list[tuple[int, int, str]]:
    """``(start, end, word)`` for every word, at its claimed start or its first occurrence.

    Parameters
    ----------
    words : sequence of str
        The instance's words (the order of ``found.starts``).
    found : Superstring

    Returns
    -------
    list of (int, int, str)
        Sorted by start, then by decreasing length; a word not in the text is left out.

    Examples
    --------
    >>> spans(["cat", "atom"], Superstring("catom", ("cat", "atom"), (0, 9)))
    [(0, 3, 'cat'), (1, 5, 'atom')]
    """
    text = found.text
    starts = found.starts if len(found.starts) == len(words) else [-1] * len(words)
    out = []
    for w, s in zip(words, starts, strict=True):
        at = s if s >= 0 and text.startswith(w, s) else text.find(w)
        if at >= 0:
            out.append((at, at + len(w), w))
    out.sort(key=lambda t: (t[0], -(t[1] - t[0])))
    return out


def lanes(intervals: Sequence[tuple[int, int, str]], most: int = MAX_LANES) -> list[int]:
    """First-fit lanes: the lane of each interval (sorted by start), -1 when none of ``most``
    is free over it.

    Examples
    --------
    >>> lanes([(0, 3, "cat"), (1, 5, "atom"), (3, 5, "om")])
    [0, 1, 0]
    """
    free_at: list[int] = []  # where each lane's last bar ends
    out = []
    for start, end, _ in intervals:
        lane = next((i for i, e in enumerate(free_at) if e <= start), -1)
        if lane < 0 and len(free_at) < most:
            free_at.append(0)
            lane = len(free_at) - 1
        if lane >= 0:
            free_at[lane] = end
        out.append(lane)
    return out


def superstring_svg(
    words: Sequence[str],
    found: Superstring,
    *,
    note: str | None = None,
    contained: int | None = None,
) -> str:
    """A superstring as SVG, each word underlined where it sits.

    Parameters
    ----------
    words : sequence of str
        The instance's words.
    found : Superstring
        The superstring, the kept words' order and the claimed starts.
    note : str, optional
        What the caller knows of it (its status), in the caption.
    contained : int, optional
        How many words dropped out (contained in others), for the caption.

    Returns
    -------
    str
        A standalone SVG document. A superstring longer than :data:`MAX_LETTERS` draws its
        start and the words that lie in it.

    Raises
    ------
    ValueError
        The superstring is empty.

    Examples
    --------
    >>> svg = superstring_svg(["cat", "atom", "a"], Superstring("catom", ("cat", "atom"),
    ...                                                         (0, 1, 1)))
    >>> svg.count('class="letter"'), svg.count('class="under kept"'), svg.count('class="under"')
    (5, 2, 1)
    """
    text = found.text
    if not text:
        raise ValueError("nothing to draw: the superstring is empty")
    shown = text[:MAX_LETTERS]
    drawn = [s for s in spans(words, found) if s[1] <= len(shown)]
    lane = lanes(drawn)
    depth = max([x + 1 for x in lane], default=0)
    rows = (len(shown) + COLUMNS - 1) // COLUMNS
    row_h = _CELL + 4 + depth * _LANE + _GAP
    w = 2 * _PAD + max(min(len(shown), COLUMNS) * _CELL, _MIN_INNER)
    bottom = _PAD + rows * row_h
    kept = set(found.order)
    missed = sum(1 for x in lane if x < 0)
    parts = [
        f"{plural(len(text), 'letter')}, {plural(len(words), 'word')}"
        + (f" ({contained:,} inside others)" if contained else "")
        + (f"; the first {len(shown):,} letters drawn" if len(shown) < len(text) else "")
        + (f"; {missed:,} not underlined (more than {MAX_LANES} deep)" if missed else "")
        + (f" · {note}" if note else ""),
    ]
    lines = caption_lines(parts, w - 2 * _PAD)
    h = bottom + caption_height(lines) + _PAD
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="superstring" width="{w:g}" '
        f'height="{h:g}" viewBox="0 0 {w:g} {h:g}" role="img" data-letters="{len(text)}">',
        f"<title>{escape(shown[:80])}</title>",
        f'<rect width="{w:g}" height="{h:g}" fill="#fff"/>',
    ]
    for i, ch in enumerate(shown):
        r, c = divmod(i, COLUMNS)
        x, y = _PAD + c * _CELL, _PAD + r * row_h
        out.append(
            f'<rect class="cell" x="{x:g}" y="{y:g}" width="{_CELL:g}" height="{_CELL:g}" '
            'fill="#f4f4f4" stroke="#ccc"/>'
        )
        out.append(glyph(ch, x + _CELL / 2, y + _CELL / 2, 14, _LETTER))
    for (start, end, word), k in zip(drawn, lane, strict=True):
        if k >= 0:
            out += _bars(start, end, word, k, row_h, word in kept)
    out.append(caption(lines, _PAD, bottom))
    out.append("</svg>")
    return "\n".join(out)


def _bars(start: int, end: int, word: str, lane: int, row_h: float, kept: bool) -> list[str]:
    """A word's underline in ``lane``: one bar per row its letters ``[start, end)`` span."""
    cls, fill = ("under kept", _KEPT) if kept else ("under", _HELD)
    out = []
    at = start
    while at < end:
        r, c = divmod(at, COLUMNS)
        stop = min(end, (r + 1) * COLUMNS)
        x = _PAD + c * _CELL + 2
        y = _PAD + r * row_h + _CELL + 4 + lane * _LANE
        width = (stop - at) * _CELL - 4
        out.append(
            f'<rect class="{cls}" x="{x:g}" y="{y:g}" width="{width:g}" height="{_LANE - 2:g}" '
            f'rx="2" fill="{fill}" data-word={quoteattr(word)}/>'
        )
        at = stop
    return out
