"""A word chain drawn in SVG as a path: one row per word, each link's shared letters marked.

Shared by ``cpwords chain --svg FILE`` (and ``--png``). It imports only the rules (no solver):
it draws what it is given, after checking each link with
:func:`~cpwords.chain.rules.chain_problems`.

Word ``i`` is row ``i`` (top to bottom), one ``<g class="word">`` holding one ``<rect
class="cell">`` and one glyph per letter. A word stands under the one before with its first
``k`` letters under that word's last ``k`` (a staircase), so a link reads straight down; when
the staircase would leave the picture, the next word starts again at the left edge and an
arrow joins the two. The shared letters' cells are ``<rect class="cell shared">``: a chain of
``n`` words has ``n - 1`` links and ``2 k (n - 1)`` shared cells (fewer when a word of fewer
than ``2 k`` letters shares the same cell with both its neighbours).
"""

from __future__ import annotations

from collections.abc import Sequence

from cpwords.chain.rules import chain_problems
from cpwords.core.svg import (
    MONO,
    caption,
    caption_height,
    caption_lines,
    escape,
    glyph,
    plural,
    quoteattr,
)

_CELL = 26.0
_ROW = 34.0
_PAD = 16.0
_MAX_COLS = 32  # a staircase wider than this starts again at the left edge
_MIN_INNER = 240.0  # room for the caption under a short chain
_SHARED = "#ffd24d"
_LETTER = f'class="letter" font-family="{MONO}" font-weight="bold" fill="#222"'
#: Words drawn at most (a longer chain: its first words, the caption says how many in all).
MAX_DRAWN = 300


def chain_layout(chain: Sequence[str], overlap: int) -> list[int]:
    """The column of each word's first letter in the staircase.

    Parameters
    ----------
    chain : sequence of str
        The words in order.
    overlap : int
        ``k``: the letters each link shares.

    Returns
    -------
    list of int
        One column per word, 0 at the left edge; a word that would end past
        :data:`_MAX_COLS` starts again at 0.

    Examples
    --------
    >>> chain_layout(["seasick", "kiln", "nausea"], 1)
    [0, 6, 9]
    """
    cols: list[int] = []
    for i, word in enumerate(chain):
        col = 0 if i == 0 else cols[-1] + len(chain[i - 1]) - overlap
        cols.append(col if col + len(word) <= _MAX_COLS else 0)
    return cols


def chain_svg(chain: Sequence[str], overlap: int = 1, *, note: str | None = None) -> str:
    """A word chain as an SVG staircase.

    Parameters
    ----------
    chain : sequence of str
        The words, in order (every link shares ``overlap`` letters).
    overlap : int
        ``k``.
    note : str, optional
        What the caller knows of the chain (its status), in the caption.

    Returns
    -------
    str
        A standalone SVG document; the caption gives the number of words and letters and
        ``note``. A chain longer than :data:`MAX_DRAWN` words draws its first ones.

    Raises
    ------
    ValueError
        The chain is empty or a link does not share ``overlap`` letters.

    Examples
    --------
    >>> svg = chain_svg(["seasick", "kiln", "nausea"])
    >>> svg.count('class="word"'), svg.count('class="cell shared"'), svg.count('class="letter"')
    (3, 4, 17)
    """
    words = list(chain)
    if not words:
        raise ValueError("nothing to draw: the chain is empty")
    links = [p for p in chain_problems(words, set(words), overlap) if p.startswith("link")]
    if links:
        raise ValueError(links[0])
    drawn = words[:MAX_DRAWN]
    cols = chain_layout(drawn, overlap)
    inner = max(c + len(w) for c, w in zip(cols, drawn, strict=True)) * _CELL
    w = 2 * _PAD + max(inner, _MIN_INNER)
    bottom = _PAD + len(drawn) * _ROW
    letters = sum(map(len, words))
    shown = "" if len(drawn) == len(words) else f" (the first {len(drawn):,} drawn)"
    parts = [
        f"{plural(len(words), 'word')}, {letters:,} letters{shown}, each link sharing "
        f"{plural(overlap, 'letter')}" + (f" · {note}" if note else ""),
    ]
    lines = caption_lines(parts, w - 2 * _PAD)
    h = bottom + caption_height(lines) + _PAD
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chain" width="{w:g}" height="{h:g}" '
        f'viewBox="0 0 {w:g} {h:g}" role="img" data-words="{len(words)}">',
        f"<title>{escape(' -> '.join(drawn[:20]))}</title>",
        f'<rect width="{w:g}" height="{h:g}" fill="#fff"/>',
    ]
    for i, (word, col) in enumerate(zip(drawn, cols, strict=True)):
        stair = cols[i - 1] + len(drawn[i - 1]) - overlap if i else 0
        if col != stair:  # the staircase started again at the left edge
            out.append(_arrow(stair, i))
        out += _word(word, col, i, overlap, i > 0, i < len(drawn) - 1)
    out.append(caption(lines, _PAD, bottom))
    out.append("</svg>")
    return "\n".join(out)


def _word(word: str, col: int, row: int, k: int, after: bool, before: bool) -> list[str]:
    """One row: the word's cells and letters, its first ``k`` (``after`` a link) and last
    ``k`` (``before`` one) marked shared."""
    y = _PAD + row * _ROW + (_ROW - _CELL) / 2
    shared = set(range(k)) if after else set()
    shared |= set(range(len(word) - k, len(word))) if before else set()
    out = [f'<g class="word" data-index="{row}" data-word={quoteattr(word)}>']
    for j, ch in enumerate(word):
        x = _PAD + (col + j) * _CELL
        cls, fill = ("cell shared", _SHARED) if j in shared else ("cell", "#f4f4f4")
        out.append(
            f'<rect class="{cls}" x="{x:g}" y="{y:g}" width="{_CELL:g}" height="{_CELL:g}" '
            f'fill="{fill}" stroke="#888"/>'
        )
        out.append(glyph(ch, x + _CELL / 2, y + _CELL / 2, 15, _LETTER))
    out.append("</g>")
    return out


def _arrow(col: int, row: int) -> str:
    """A link whose next word starts again at the left edge: a line from the shared letters
    above back to the row's start."""
    x1 = _PAD + col * _CELL + _CELL / 2
    y1 = _PAD + (row - 1) * _ROW + (_ROW + _CELL) / 2
    x2 = _PAD + _CELL / 2
    y2 = _PAD + row * _ROW + (_ROW - _CELL) / 2
    return (
        f'<line class="wrap" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
        'stroke="#b08d57" stroke-width="2" stroke-dasharray="4 3"/>'
    )
