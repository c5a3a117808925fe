"""A Wordsnake drawn in SVG (the words as a staircase, each overlap highlighted in both words)
and as a text table (the overlaps in brackets or colour).

The SVG renderer is shared by ``cpwords snake --svg FILE`` and the ``cpwords serve`` page; the
table (:func:`snake_table`, :func:`table_lines`) is ``cpwords snake``'s listing. It imports
only the rules (no solver) and recomputes every overlap with the independent checker's
:func:`~cpwords.wordsnake.rules.pair_overlap`.

Layout: word ``i`` is on row ``i``, shifted right so that the letters it shares with word
``i - 1`` stand under the same letters of that word; a word that would run past ``columns``
starts again at the left margin. Every letter is its own ``<text>`` centred in a fixed-width
cell, so the columns line up whatever the font and every renderer (browsers, librsvg, CairoSVG)
places it alike (:mod:`cpwords.core.svg`). Each positive overlap of ``k`` letters is one
``<rect class="overlap">`` behind the end of the earlier word and one behind the start of the
later word (the pair share ``data-pair``). A caption under the drawing gives the number of
words, the score and the status.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from cpwords.core.svg import (
    MONO,
    MONO_EM,
    baseline,
    caption,
    caption_height,
    caption_lines,
    char_width,
    escape,
    glyph,
    plural,
    quoteattr,
    text_width,
)
from cpwords.wordsnake.rules import joint_weight, pair_overlap

#: Words drawn at most (a whole dictionary is listed in the JSON, not drawn).
MAX_DRAWN = 400

_CELL_W = 14.0
_ROW_H = 24.0
_MIN_WIDTH = 240.0  # room for the caption under a short snake
_NOTE_SIZE = 14.0
_PAD = 12.0
_HIGHLIGHT = ("#ffd24d", "#9be3c1")
_FONT_SIZE = 17.0
_GLYPH = f'class="glyph" font-family="{MONO}" fill="#222"'


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
    note: str | None = None,
    score: str = "squared",
) -> str:
    """The snake as an SVG document, overlaps highlighted, with a caption.

    Parameters
    ----------
    order : sequence of str
        The snake's words in order.
    cyclic : bool
        Also mark the overlap of the last word with the first (Burkardt's variant).
    proper : bool
        Overlaps must be shorter than both words.
    columns : int
        Wrap the staircase at this many letter cells (at least the longest word drawn); the
        picture is as wide as the cells used (at least 240 pixels, for the caption).
    max_words : int
        Draw the first ``max_words`` words only; a note says how many are left out.
    title : str, optional
        The drawing's ``<title>`` and the caption's first line.
    note : str, optional
        What the caller knows of the snake (the solve's status: ``OPTIMAL``, ``FEASIBLE``...),
        after the score in the caption.
    score : {"squared", "linear"}
        The instance's score (a joint of overlap ``k`` scores ``k ** 2`` or ``k``).

    Returns
    -------
    str
        A standalone SVG document: one ``<g class="word">`` per word drawn holding one
        ``<text class="glyph">`` per letter (each with its own ``x``, so every renderer places
        it alike), one ``<rect class="overlap">`` per word end that overlaps, and a
        ``<g class="caption">`` (the number of words, the score of the whole snake, ``note``).
        A picture with a double-width (CJK) letter has double-width cells.

    Examples
    --------
    >>> svg = snake_svg(["run", "nausea", "seasick", "sickle", "lemon"], note="OPTIMAL")
    >>> svg.count('class="word"'), svg.count('class="overlap'), svg.count('class="glyph"')
    (5, 8, 27)
    >>> "score 30 · OPTIMAL" in svg
    True
    """
    words = list(order[:max_words])
    if words:
        columns = max(columns, max(len(w) for w in words))
    cell = _CELL_W * max((char_width(c) for w in words for c in w), default=1)
    rows = layout(words, proper, columns)
    notes = _notes(order, len(words), cyclic, proper)
    used = max((col + len(w) for (_, col, _), w in zip(rows, words, strict=True)), default=1)
    wide = max((text_width(t) * _NOTE_SIZE * MONO_EM for _, t in notes), default=0.0)
    width = 2 * _PAD + math.ceil(max(used * cell, _MIN_WIDTH, wide))
    label = title or f"Wordsnake of {plural(len(order), 'word')}"
    total = sum(joint_weight(ov, score) for _, _, ov in rows)
    caption_parts = [label, _score_line(order, cyclic, proper, note, score)]
    lines = caption_lines(caption_parts, width - 2 * _PAD)
    top = _PAD + max(1, len(rows) + len(notes)) * _ROW_H
    height = top + caption_height(lines) + _PAD
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="wordsnake" width="{width:g}" '
        f'height="{height:g}" viewBox="0 0 {width:g} {height:g}" role="img" '
        f'data-words="{len(words)}" data-score="{total}" data-cell="{cell:g}">',
        f"<title>{escape(label)}</title>",
        f'<rect width="{width:g}" height="{height:g}" fill="#fff"/>',
    ]
    out.extend(_word_groups(words, rows, cell))
    out.extend(_note(cls, len(rows) + k, text) for k, (cls, text) in enumerate(notes))
    out.append(caption(lines, _PAD, top))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _notes(order: Sequence[str], drawn: int, cyclic: bool, proper: bool) -> list[tuple[str, str]]:
    """The grey lines under the staircase (class, text): the words left out, the way back."""
    out = []
    if len(order) > drawn:
        out.append(("note", f"... and {len(order) - drawn:,} more words (see the JSON)"))
    if cyclic and len(order) > 1:
        ov = pair_overlap(order[-1], order[0], proper)
        out.append(("note cyclic", f"back to the first word: overlap {ov}"))
    return out


def _score_line(
    order: Sequence[str], cyclic: bool, proper: bool, note: str | None, score: str = "squared"
) -> str:
    """The caption's second line: the score of the whole snake, then ``note``."""
    pairs = list(itertools.pairwise(order))
    if cyclic and len(order) > 1:
        pairs.append((order[-1], order[0]))
    total = sum(joint_weight(pair_overlap(a, b, proper), score) for a, b in pairs)
    kind = " (linear)" if score == "linear" else ""
    return f"score{kind} {total:,}" + (f" · {note}" if note else "")


def _row_y(row: int) -> float:
    """Top edge of row ``row``."""
    return _PAD + row * _ROW_H


def _overlap_rect(row: int, x: float, width: float, k: int, pair: int, end: str) -> str:
    """The highlight behind ``k`` letters from ``x`` (``end``: "head" or "tail")."""
    colour = _HIGHLIGHT[pair % len(_HIGHLIGHT)]
    return (
        f'<rect class="overlap {end}" data-pair="{pair}" data-length="{k}" '
        f'x="{x:g}" y="{_row_y(row) + 2:g}" width="{width:g}" '
        f'height="{_ROW_H - 4:g}" rx="3" fill="{colour}"/>'
    )


def _word_groups(words: list[str], rows: list[tuple[int, int, int]], cell: float) -> list[str]:
    """One ``<g>`` per word drawn (:func:`_word_group`), at its place in ``rows``."""
    out = []
    for i, (row, col, _) in enumerate(rows):
        before = rows[i][2]
        after = rows[i + 1][2] if i + 1 < len(rows) else 0
        out.append(_word_group(i, words[i], (row, col), (before, after), cell))
    return out


def _word_group(i: int, w: str, at: tuple[int, int], overlaps: tuple[int, int], cell: float) -> str:
    """Word ``i`` as one ``<g>``: its overlaps with the words before and after (``overlaps``),
    then one ``<text>`` per letter, centred in its cell (``at``: row and first column)."""
    row, col = at
    before, after = overlaps
    left = _PAD + col * cell
    parts = [f'<g class="word" data-index="{i}" data-word={quoteattr(w)}>']
    if before:
        parts.append(_overlap_rect(row, left, before * cell, before, i - 1, "head"))
    if after:
        x = left + (len(w) - after) * cell
        parts.append(_overlap_rect(row, x, after * cell, after, i, "tail"))
    centre_y = _row_y(row) + _ROW_H / 2
    parts.extend(
        glyph(ch, left + (j + 0.5) * cell, centre_y, _FONT_SIZE, _GLYPH) for j, ch in enumerate(w)
    )
    parts.append("</g>")
    return "".join(parts)


def _note(cls: str, y: int, text: str) -> str:
    """A grey line of text on row ``y``."""
    return (
        f'<text class="{cls}" x="{_PAD:g}" y="{baseline(_row_y(y) + _ROW_H / 2, _NOTE_SIZE):g}" '
        f'font-family="{MONO}" font-size="{_NOTE_SIZE:g}" fill="#666">{escape(text)}</text>'
    )


# ---- The text table (cpwords snake's listing) --------------------------------------------------

#: The legends of the table's two ways of marking the letters a word shares with its neighbours.
LEGEND = {
    "brackets": "[abc]: letters shared with the previous or the next word (the overlap)",
    "colour": "highlighted: letters shared with the previous or the next word (the overlap)",
}

#: One piece of a table line: its text and whether it is shared with a neighbouring word.
Segment = tuple[str, bool]


def _shared_runs(w: str, before: int, after: int) -> list[Segment]:
    """``w`` cut into runs of letters shared with a neighbour (its first ``before`` and last
    ``after`` letters) and runs of its own letters: at most three slices (a run grown letter by
    letter took minutes on a word of 200 million letters).

    Examples
    --------
    >>> _shared_runs("nausea", 1, 3), _shared_runs("sea", 3, 2)
    ([('n', True), ('au', False), ('sea', True)], [('sea', True)])
    """
    n = len(w)
    head, tail = min(before, n), max(min(before, n), n - after)
    runs = [(w[:head], True), (w[head:tail], False), (w[tail:], True)]
    out: list[Segment] = []
    for text, shared in runs:
        if not text:
            continue
        if out and out[-1][1] == shared:
            out[-1] = (out[-1][0] + text, shared)
        else:
            out.append((text, shared))
    return out


def _marked_width(runs: list[Segment], brackets: bool) -> int:
    """Display columns of a word's runs, with the brackets round the shared ones."""
    return sum(text_width(t) + (2 if brackets and s else 0) for t, s in runs)


def table_lines(
    order: Sequence[str],
    cyclic: bool = False,
    proper: bool = False,
    *,
    brackets: bool = True,
    score: str = "squared",
) -> list[list[Segment]]:
    """The snake as a table: rank, word, overlap with the previous word, running score.

    The letters a word shares with the previous word (at its start) or the next one (at its
    end) are segments marked shared: in brackets when ``brackets`` (shown as they are
    otherwise, for the caller to colour). Columns are padded by display width (``wcwidth``),
    so double-width (CJK) letters line up; no letter changes case (``ß``, scripts without case).

    Parameters
    ----------
    order : sequence of str
        The snake's words in order (at least one).
    cyclic, proper : bool
        The variant (a cyclic snake ends with a line back to word 1).
    brackets : bool
        Put the shared letters in brackets (``[abc]``).
    score : {"squared", "linear"}
        What the running score adds for a joint of overlap ``k``: ``k ** 2`` or ``k``.

    Returns
    -------
    list of list of (str, bool)
        One list of segments per line (the header first); ``True`` marks shared letters.

    Examples
    --------
    >>> lines = table_lines(["grüßen", "ßen"])
    >>> ["".join(t for t, _ in line).rstrip() for line in lines[1:]]
    ['    1  grü[ßen]        -        0', '    2  [ßen]           3        9']
    """
    n = len(order)
    ov = [pair_overlap(a, b, proper) for a, b in itertools.pairwise(order)]
    if cyclic and n > 1:
        ov.append(pair_overlap(order[-1], order[0], proper))
    runs = []
    for i, w in enumerate(order):
        before = ov[i - 1] if i > 0 else (ov[-1] if cyclic and n > 1 else 0)
        runs.append(_shared_runs(w, before, ov[i] if i < len(ov) else 0))
    back = "(back to #1)" if cyclic and n > 1 else ""
    width = max(4, len(back), *(_marked_width(r, brackets) for r in runs))
    out: list[list[Segment]] = [
        [(f"{'#':>5}  {'word'.ljust(width)}  {'overlap':>7}  {'score':>7}", False)]
    ]
    running = 0
    for i, word_runs in enumerate(runs):
        running += joint_weight(ov[i - 1], score) if i > 0 else 0
        line: list[Segment] = [(f"{i + 1:>5}  ", False)]
        for text, shared in word_runs:
            line.append((f"[{text}]" if brackets and shared else text, shared))
        pad = " " * (width - _marked_width(word_runs, brackets))
        shown = str(ov[i - 1]) if i > 0 else "-"
        line.append((f"{pad}  {shown:>7}  {running:>7}", False))
        out.append(line)
    if cyclic and n > 1:
        running += joint_weight(ov[-1], score)
        out.append([(f"{'':>5}  {back.ljust(width)}  {ov[-1]:>7}  {running:>7}", False)])
    return out


def snake_table(
    order: Sequence[str], cyclic: bool = False, proper: bool = False, score: str = "squared"
) -> str:
    """The snake as a plain-text table, shared letters in brackets, the legend last.

    Parameters
    ----------
    order : sequence of str
        The snake's words in order (at least one).
    cyclic, proper : bool
        The variant.
    score : {"squared", "linear"}
        The score of a joint (``k ** 2`` or ``k``).

    Returns
    -------
    str
        The lines of :func:`table_lines` (brackets) and the legend, without a final newline.

    Examples
    --------
    >>> print(snake_table(["run", "nausea", "seasick"]))
        #  word        overlap    score
        1  ru[n]             -        0
        2  [n]au[sea]        1        1
        3  [sea]sick         3       10
    [abc]: letters shared with the previous or the next word (the overlap)
    """
    table = table_lines(order, cyclic, proper, score=score)
    lines = ["".join(t for t, _ in line).rstrip() for line in table]
    return "\n".join([*lines, LEGEND["brackets"]])
