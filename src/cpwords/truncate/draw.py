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
from xml.sax.saxutils import escape, quoteattr

from cpwords.truncate.rules import truncate_step_ok

_CELL = 30.0
_ROW = 40.0
_PAD = 16.0
_RAIL = 18.0
_ADDED = ("#ffd24d", "#9be3c1")  # front, back


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


def ladder_svg(sequence: Sequence[str], *, title: str | None = None) -> str:
    """A Truncate sequence as an SVG ladder.

    Parameters
    ----------
    sequence : sequence of str
        The words, shortest first (each one play longer than the previous).
    title : str, optional
        The drawing's ``<title>`` (default: the sequence).

    Returns
    -------
    str
        A standalone SVG document.

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
    left = _PAD + _RAIL
    w = left + width_cells * _CELL + _RAIL + _PAD
    h = 2 * _PAD + len(words) * _ROW
    label = title or " -> ".join(words)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ladder" width="{w:g}" height="{h:g}" '
        f'viewBox="0 0 {w:g} {h:g}" role="img" data-words="{len(words)}">',
        f"<title>{escape(label)}</title>",
        # The two rails of the ladder.
        f'<line class="rail" x1="{_PAD + 4:g}" y1="{_PAD:g}" x2="{_PAD + 4:g}" y2="{h - _PAD:g}" '
        f'stroke="#b08d57" stroke-width="5"/>',
        f'<line class="rail" x1="{w - _PAD - 4:g}" y1="{_PAD:g}" x2="{w - _PAD - 4:g}" '
        f'y2="{h - _PAD:g}" stroke="#b08d57" stroke-width="5"/>',
    ]
    for i, (word, (col, side)) in enumerate(zip(words, lay, strict=True)):
        y = _PAD + i * _ROW + (_ROW - _CELL) / 2
        out.append(
            f'<g class="rung" data-index="{i}" data-word={quoteattr(word)} '
            f'data-side="{side or ""}">'
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
            out.append(
                f'<text class="letter" x="{x + _CELL / 2:g}" y="{y + _CELL / 2:g}" '
                f'text-anchor="middle" dominant-baseline="central" '
                f'font-family="ui-monospace, DejaVu Sans Mono, monospace" font-size="18" '
                f'font-weight="bold" fill="#222">{escape(ch.upper())}</text>'
            )
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
