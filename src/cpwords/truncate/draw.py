"""A Truncate sequence drawn in SVG as a ladder: one rung per word, the added letter marked.

One renderer shared by ``cpwords truncate --svg FILE`` and the ``cpwords serve`` page. It
imports only the rules (no solver): it draws what it is given, after checking each step with
:func:`~cpwords.truncate.rules.truncate_step_ok`.

Word ``i`` is rung ``i`` (top to bottom, shortest first), one ``<g class="rung">`` holding one
``<rect class="cell">`` and one ``<text class="letter">`` per letter. The letters line up: each
word stands under the word it grew from, shifted one cell left when its new letter was added at
the front. The new letter's cell is ``<rect class="cell added">`` (``data-side`` ``front`` or
``back``), so a drawing of ``k`` words has ``k`` rungs and ``k - 1`` added cells.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from cpwords.core.svg import (
    caption,
    caption_height,
    caption_lines,
    escape,
    glyph,
    plural,
    quoteattr,
)
from cpwords.truncate.rules import truncate_step_ok

_CELL = 30.0
_ROW = 40.0
_PAD = 16.0
_RAIL = 18.0
_ADDED = ("#ffd24d", "#9be3c1")  # front, back
_MIN_INNER = 220.0  # room for the caption under a short ladder
_LETTER = 'class="letter" font-family="DejaVu Sans Mono, monospace" font-weight="bold" fill="#222"'


def ladder_layout(sequence: Sequence[str]) -> list[tuple[int, str | None]]:
    """Column of each word's first letter, and the side its new letter was added on.

    Parameters
    ----------
    sequence : sequence of str
        A Truncate sequence, shortest word first.

    Returns
    -------
    list of (int, str or None)
        ``(column, side)`` per word; ``side`` is ``"front"``, ``"back"`` or None for the first
        word. The leftmost column is 0. When both sides fit (``aa`` -> ``aaa``), ``back``.

    Raises
    ------
    ValueError
        Two neighbours are not one Truncate play apart.

    Examples
    --------
    >>> ladder_layout(["a", "la", "lap", "laps"])
    [(1, None), (0, 'front'), (0, 'back'), (0, 'back')]
    """
    cols = [0]
    sides: list[str | None] = [None]
    for prev, word in itertools.pairwise(sequence):
        if not truncate_step_ok(prev, word):
            raise ValueError(f"{word!r} is not {prev!r} with one letter added at an end")
        if word[:-1] == prev:
            cols.append(cols[-1])
            sides.append("back")
        else:
            cols.append(cols[-1] - 1)
            sides.append("front")
    low = min(cols)
    return [(c - low, s) for c, s in zip(cols, sides, strict=True)]


def ladder_svg(
    sequence: Sequence[str], *, title: str | None = None, note: str | None = None
) -> str:
    """A Truncate sequence as an SVG ladder.

    Parameters
    ----------
    sequence : sequence of str
        The words, shortest first (each one play longer than the previous).
    title : str, optional
        The drawing's ``<title>`` and the caption's first line (default: the sequence).
    note : str, optional
        What the caller knows of the sequence (the status), in the caption.

    Returns
    -------
    str
        A standalone SVG document, the caption (the sequence, its length, ``note``) under the
        ladder.

    Raises
    ------
    ValueError
        The sequence is empty, or two neighbours are not one play apart.

    Examples
    --------
    >>> svg = ladder_svg(["a", "la", "lap", "laps", "lapse"])
    >>> svg.count('class="rung"'), svg.count('class="cell added"'), svg.count('class="letter"')
    (5, 4, 15)
    """
    words = [w.lower() for w in sequence]
    if not words:
        raise ValueError("nothing to draw: the sequence is empty")
    lay = ladder_layout(words)
    width_cells = max(c + len(w) for (c, _), w in zip(lay, words, strict=True))
    inner = width_cells * _CELL
    w = 2 * (_PAD + _RAIL) + max(inner, _MIN_INNER)
    left = _PAD + _RAIL + max(0.0, (_MIN_INNER - inner) / 2)  # a short ladder is centred
    bottom = _PAD + len(words) * _ROW  # the rails' end; the caption is below
    label = title or " -> ".join(words)
    parts = [label, plural(len(words), "word") + (f" · {note}" if note else "")]
    lines = caption_lines(parts, w - 2 * _PAD)
    h = bottom + caption_height(lines) + _PAD
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ladder" width="{w:g}" height="{h:g}" '
        f'viewBox="0 0 {w:g} {h:g}" role="img" data-words="{len(words)}">',
        f"<title>{escape(label)}</title>",
        f'<rect width="{w:g}" height="{h:g}" fill="#fff"/>',
        # The two rails of the ladder.
        f'<line class="rail" x1="{_PAD + 4:g}" y1="{_PAD:g}" x2="{_PAD + 4:g}" '
        f'y2="{bottom:g}" stroke="#b08d57" stroke-width="5"/>',
        f'<line class="rail" x1="{w - _PAD - 4:g}" y1="{_PAD:g}" x2="{w - _PAD - 4:g}" '
        f'y2="{bottom:g}" stroke="#b08d57" stroke-width="5"/>',
    ]
    for i, (word, (col, side)) in enumerate(zip(words, lay, strict=True)):
        out += _rung(i, word, col, side, left, w)
    out.append(caption(lines, _PAD, bottom))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _rung(i: int, word: str, col: int, side: str | None, left: float, w: float) -> list[str]:
    """The SVG of rung ``i`` of a ladder ``w`` wide: ``word`` in cells from column ``col`` (the
    first at ``left``), the letter added on ``side`` ("front", "back" or None) marked."""
    out = []
    y = _PAD + i * _ROW + (_ROW - _CELL) / 2
    out.append(
        f'<g class="rung" data-index="{i}" data-word={quoteattr(word)} data-side="{side or ""}">'
    )
    out.append(
        f'<line class="step" x1="{_PAD + 4:g}" y1="{y + _CELL / 2:g}" x2="{w - _PAD - 4:g}" '
        f'y2="{y + _CELL / 2:g}" stroke="#b08d57" stroke-width="3"/>'
    )
    new = {"front": 0, "back": len(word) - 1}.get(side or "")
    for j, ch in enumerate(word):
        x = left + (col + j) * _CELL
        if j == new:
            cls, fill = "cell added", _ADDED[0 if side == "front" else 1]
            extra = f' data-side="{side}"'
        else:
            cls, fill, extra = "cell", "#fff", ""
        out.append(
            f'<rect class="{cls}"{extra} x="{x + 1:g}" y="{y:g}" width="{_CELL - 2:g}" '
            f'height="{_CELL:g}" rx="3" fill="{fill}" stroke="#555" stroke-width="1.5"/>'
        )
        out.append(glyph(ch.upper(), x + _CELL / 2, y + _CELL / 2, 18, _LETTER))
    out.append("</g>")
    return out
