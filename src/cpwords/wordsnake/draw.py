"""A Wordsnake drawn in SVG: the words as a staircase, each overlap highlighted in both words.

One renderer shared by ``cpwords snake --svg FILE`` and the ``cpwords serve`` page. It imports
only the rules (no solver) and recomputes every overlap with the independent checker's
:func:`~cpwords.wordsnake.rules.pair_overlap`.

Layout: word ``i`` is on row ``i``, shifted right so that the letters it shares with word
``i - 1`` stand under the same letters of that word; a word that would run past ``columns``
starts again at the left margin. Every letter sits in its own fixed-width cell (one ``x`` per
glyph), so the columns line up whatever the font. Each positive overlap of ``k`` letters is one
``<rect class="overlap">`` behind the end of the earlier word and one behind the start of the
later word (the pair share ``data-pair``).
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from cpwords.wordsnake.rules import pair_overlap

#: Words drawn at most (a whole dictionary is listed in the JSON, not drawn).
MAX_DRAWN = 400

_CELL_W = 14.0
_ROW_H = 24.0
_PAD = 12.0
_HIGHLIGHT = ("#ffd24d", "#9be3c1")
_FONT = 'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="17"'


def layout(
    order: Sequence[str], proper: bool = False, columns: int = 64
) -> list[tuple[int, int, int]]:
    """Row, column and overlap with the previous word, for each word of the staircase.

    Parameters
    ----------
    order : sequence of str
        The snake, in order.
    proper : bool
        Overlaps shorter than both words (the instance's variant).
    columns : int
        Width of the drawing in letter cells; a word past it starts again at column 0.

    Returns
    -------
    list of (row, column, overlap)
        ``overlap`` is the overlap of the word with the previous one (0 for the first).

    Examples
    --------
    >>> layout(["run", "nausea", "seasick"])
    [(0, 0, 0), (1, 2, 1), (2, 5, 3)]
    """
    out: list[tuple[int, int, int]] = []
    col = 0
    for i, w in enumerate(order):
        ov = pair_overlap(order[i - 1], w, proper) if i else 0
        if i:
            col += len(order[i - 1]) - ov
            if col + len(w) > columns:
                col = 0
        out.append((i, col, ov))
    return out


def snake_svg(
    order: Sequence[str],
    cyclic: bool = False,
    proper: bool = False,
    *,
    columns: int = 64,
    max_words: int = MAX_DRAWN,
    title: str | None = None,
) -> str:
    """The snake as an SVG document, overlaps highlighted.

    Parameters
    ----------
    order : sequence of str
        The snake's words in order.
    cyclic : bool
        Also mark the overlap of the last word with the first (Burkardt's variant).
    proper : bool
        Overlaps must be shorter than both words.
    columns : int
        Width in letter cells (at least the longest word drawn).
    max_words : int
        Draw the first ``max_words`` words only; a note says how many are left out.
    title : str, optional
        The drawing's ``<title>``.

    Returns
    -------
    str
        A standalone SVG document: one ``<g class="word">`` per word drawn (its letters in one
        ``<text>``), one ``<rect class="overlap">`` per word end that overlaps.

    Examples
    --------
    >>> svg = snake_svg(["run", "nausea", "seasick", "sickle", "lemon"])
    >>> svg.count('class="word"'), svg.count('class="overlap')
    (5, 8)
    """
    words = list(order[:max_words])
    if words:
        columns = max(columns, max(len(w) for w in words))
    rows = layout(words, proper, columns)
    n_rows = len(rows) + (1 if len(order) > len(words) else 0) + (1 if cyclic else 0)
    width = 2 * _PAD + columns * _CELL_W
    height = 2 * _PAD + max(1, n_rows) * _ROW_H
    score = sum(ov * ov for _, _, ov in rows)
    label = title or f"Wordsnake of {len(order):,} words"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="wordsnake" width="{width:g}" '
        f'height="{height:g}" viewBox="0 0 {width:g} {height:g}" role="img" '
        f'data-words="{len(words)}" data-score="{score}">',
        f"<title>{escape(label)}</title>",
        f'<rect width="{width:g}" height="{height:g}" fill="#fff"/>',
    ]
    for i, (row, col, _) in enumerate(rows):
        before = rows[i][2]
        after = rows[i + 1][2] if i + 1 < len(rows) else 0
        out.append(_word_group(i, words[i], row, col, before, after))
    y = len(rows)
    if len(order) > len(words):
        left_out = len(order) - len(words)
        out.append(_note("note", y, f"... and {left_out:,} more words (see the JSON)"))
        y += 1
    if cyclic and len(order) > 1:
        ov = pair_overlap(order[-1], order[0], proper)
        out.append(_note("note cyclic", y, f"back to the first word: overlap {ov}"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _cell_x(col: int) -> float:
    """Left edge of letter column ``col``."""
    return _PAD + col * _CELL_W


def _row_y(row: int) -> float:
    """Top edge of row ``row``."""
    return _PAD + row * _ROW_H


def _overlap_rect(row: int, col: int, k: int, pair: int, end: str) -> str:
    """The highlight behind ``k`` letters from column ``col`` (``end``: "head" or "tail")."""
    colour = _HIGHLIGHT[pair % len(_HIGHLIGHT)]
    return (
        f'<rect class="overlap {end}" data-pair="{pair}" data-length="{k}" '
        f'x="{_cell_x(col):g}" y="{_row_y(row) + 2:g}" width="{k * _CELL_W:g}" '
        f'height="{_ROW_H - 4:g}" rx="3" fill="{colour}"/>'
    )


def _word_group(i: int, w: str, row: int, col: int, before: int, after: int) -> str:
    """Word ``i`` as one ``<g>``: its overlaps with the words before and after, then its letters."""
    parts = [f'<g class="word" data-index="{i}" data-word={quoteattr(w)}>']
    if before:
        parts.append(_overlap_rect(row, col, before, i - 1, "head"))
    if after:
        parts.append(_overlap_rect(row, col + len(w) - after, after, i, "tail"))
    xs = " ".join(f"{_cell_x(col + j) + _CELL_W / 2:g}" for j in range(len(w)))
    parts.append(
        f'<text x="{xs}" y="{_row_y(row) + _ROW_H / 2:g}" text-anchor="middle" '
        f'dominant-baseline="central" {_FONT} fill="#222">{escape(w)}</text>'
    )
    parts.append("</g>")
    return "".join(parts)


def _note(cls: str, y: int, text: str) -> str:
    """A grey line of text on row ``y`` (``text`` is not escaped)."""
    return (
        f'<text class="{cls}" x="{_PAD:g}" y="{_row_y(y) + _ROW_H / 2:g}" '
        f'dominant-baseline="central" font-family="sans-serif" font-size="14" fill="#666">'
        f"{text}</text>"
    )
