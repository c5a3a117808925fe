"""Letter Boxed drawn in SVG: the box, its letters, and a solution's path word by word.

One renderer shared by ``cpwords letterboxed --svg FILE`` and the ``cpwords serve`` page. It
imports only the rules (no solver): it draws what it is given.

The drawing is plain SVG 1.1 with no script: the box is a regular polygon (a square for the
newspaper's 4 sides), each side's letters evenly spaced along it, and each word of the solution
one ``<path class="word">`` with one straight segment per pair of consecutive letters
(``len(word) - 1`` segments), so a test can count them against the solution.
"""

from __future__ import annotations

import math
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
from cpwords.letterboxed.rules import LetterBox

#: Stroke colours of the words, in order (a colour-blind-safe qualitative palette).
WORD_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")

_SIZE = 360.0
_MARGIN = 60.0
_PAD = 12.0
_LETTER = (
    'class="letter" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-weight="bold"'
)


def _corners(k: int, size: float) -> list[tuple[float, float]]:
    """Corners of a regular k-gon centred on the canvas, side 1 (corners 0-1) on top."""
    centre = size / 2
    radius = (size - 2 * _MARGIN) / 2 / math.cos(math.pi / k)
    start = -math.pi / 2 - math.pi / k  # a square's corners at 45 degrees: axis-aligned
    return [
        (
            centre + radius * math.cos(start + 2 * math.pi * i / k),
            centre + radius * math.sin(start + 2 * math.pi * i / k),
        )
        for i in range(k)
    ]


def letter_positions(box: LetterBox, size: float = _SIZE) -> dict[str, tuple[float, float]]:
    """Where each letter sits: evenly along its side of a regular polygon.

    Parameters
    ----------
    box : LetterBox
    size : float
        Width of the drawing's square canvas, in SVG user units (pixels).

    Returns
    -------
    dict of str to (float, float)
        Letter -> (x, y); the polygon is centred on the canvas, side 1 on top, then clockwise.

    Examples
    --------
    >>> from cpwords.letterboxed.rules import parse_box
    >>> pos = letter_positions(parse_box("abc-def-ghi-jkl"))
    >>> pos["a"][1] == pos["c"][1] < pos["d"][1]  # side 1 is the top edge
    True
    """
    corners = _corners(len(box.sides), size)
    out: dict[str, tuple[float, float]] = {}
    for i, side in enumerate(box.sides):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % len(corners)]
        for j, ch in enumerate(side):
            t = (j + 1) / (len(side) + 1)
            out[ch] = (round(x0 + t * (x1 - x0), 2), round(y0 + t * (y1 - y0), 2))
    return out


def path_data(word: str, positions: dict[str, tuple[float, float]]) -> str:
    """SVG path data of one word: ``M`` at its first letter, one ``L`` per following letter."""
    pts = [positions[ch] for ch in word]
    head = f"M {pts[0][0]:g} {pts[0][1]:g}"
    return " ".join([head, *(f"L {x:g} {y:g}" for x, y in pts[1:])])


def box_svg(
    box: LetterBox,
    solution: Sequence[str] = (),
    *,
    reveal: int | None = None,
    title: str | None = None,
    size: float = _SIZE,
    note: str | None = None,
) -> str:
    """The box as an SVG document, with the first ``reveal`` words of ``solution`` drawn.

    Parameters
    ----------
    box : LetterBox
    solution : sequence of str
        The chain of words (each made of box letters); empty draws the bare box.
    reveal : int, optional
        Draw only the first ``reveal`` words (hint mode); None draws them all.
    title : str, optional
        The drawing's ``<title>`` (default: the box and the solution).
    size : float
        Width of the drawing (and height of the box's square, the caption below it).
    note : str, optional
        What the caller knows of the solution (the status), in the caption.

    Returns
    -------
    str
        A standalone SVG document. Letters used by the drawn words are filled in; the caption
        under the box gives the box, the words drawn and ``note``.

    Raises
    ------
    ValueError
        A word holds a letter that is not in the box (the caller checks solutions first).

    Examples
    --------
    >>> from cpwords.letterboxed.rules import parse_box
    >>> svg = box_svg(parse_box("abc-def-ghi-jkl"), ["bechfag", "gjdkil"])
    >>> svg.count('class="word"'), svg.count(" L ")
    (2, 11)
    >>> "BECHFAG-GJDKIL: 2 words" in svg
    True
    """
    pos = letter_positions(box, size)
    words = [w.lower() for w in solution]
    for w in words:
        bad = sorted(set(w) - set(pos))
        if bad:
            raise ValueError(f"{w!r}: {', '.join(bad)} not in the box {box}")
    shown = words if reveal is None else words[: max(0, reveal)]
    used = {ch for w in shown for ch in w}
    label = title or (str(box) + (": " + "-".join(w.upper() for w in shown) if shown else ""))
    corners = _corners(len(box.sides), size)
    poly = " ".join(f"{x:.2f},{y:.2f}" for x, y in corners)
    s = f"{size:g}"
    lines = caption_lines(_caption_parts(box, shown, len(words), note), size - 2 * _PAD)
    h = f"{size + caption_height(lines) + _PAD:g}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="letterbox" width="{s}" height="{h}" '
        f'viewBox="0 0 {s} {h}" role="img" data-box="{box}" data-words="{len(shown)}">',
        f"<title>{escape(label)}</title>",
        f'<rect width="{s}" height="{h}" fill="#fff"/>',
        f'<polygon class="box" points="{poly}" fill="#fff" stroke="#222" stroke-width="3"/>',
    ]
    out.extend(_words_svg(shown, pos))
    out.extend(_letters_svg(box, pos, corners, used))
    out.append(caption(lines, _PAD, size))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _words_svg(shown: Sequence[str], pos: dict[str, tuple[float, float]]) -> list[str]:
    """The SVG of the drawn words: a path per word through its letters' positions ``pos`` (one
    colour each, every other one dashed), then the first letter of each ringed in its colour."""
    out = ['<g class="words" fill="none" stroke-linecap="round" stroke-linejoin="round">']
    for i, w in enumerate(shown):
        colour = WORD_COLOURS[i % len(WORD_COLOURS)]
        dash = ' stroke-dasharray="10 6"' if i % 2 else ""
        out.append(
            f'<path class="word" data-index="{i}" data-word={quoteattr(w)} '
            f'd="{path_data(w, pos)}" stroke="{colour}" stroke-width="4"{dash}/>'
        )
    out.append("</g>")
    # The first letter of each drawn word, ringed in the word's colour.
    for i, w in enumerate(shown):
        x, y = pos[w[0]]
        colour = WORD_COLOURS[i % len(WORD_COLOURS)]
        out.append(
            f'<circle class="start" cx="{x:g}" cy="{y:g}" r="13" fill="none" '
            f'stroke="{colour}" stroke-width="3"/>'
        )
    return out


def puzzle_svg(box: LetterBox, words: int | None = None, *, size: float = _SIZE) -> str:
    """A box to play: its letters on its sides, no word drawn (a generated puzzle without its
    answer).

    Parameters
    ----------
    box : LetterBox
    words : int, optional
        The proven fewest words, said in the caption as the puzzle's target ("in 2 words").
    size : float
        Width of the drawing.

    Returns
    -------
    str
        A standalone SVG document: the box, its letters, and a caption that names the box and
        the target, never a word of an answer.

    Examples
    --------
    >>> from cpwords.letterboxed.rules import parse_box
    >>> svg = puzzle_svg(parse_box("abc-def-ghi-jkl"), 2)
    >>> svg.count('class="word"'), 'data-words="0"' in svg, "solve it in 2 words" in svg
    (0, True, True)
    """
    note = f"solve it in {plural(words, 'word')}" if words else "a puzzle"
    return box_svg(box, (), title=f"{box}: {note}", size=size, note=note)


def _letters_svg(
    box: LetterBox,
    pos: dict[str, tuple[float, float]],
    corners: list[tuple[float, float]],
    used: set[str],
) -> list[str]:
    """Each letter's dot on its side (filled when ``used``) and its label outside the box."""
    side_of = box.side_of
    normals = []
    for i in range(len(corners)):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % len(corners)]
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        normals.append(((y1 - y0) / length, -(x1 - x0) / length))
    out = []
    for ch, (x, y) in pos.items():
        fill = "#222" if ch in used else "#fff"
        out.append(
            f'<circle class="letter-dot" cx="{x:g}" cy="{y:g}" r="7" fill="{fill}" '
            f'stroke="#222" stroke-width="2"/>'
        )
        # Labels sit outside the polygon, along the outward normal of the letter's side.
        nx, ny = normals[side_of[ch]]
        lx, ly = x + 28 * nx, y + 28 * ny
        colour = "#222" if ch in used else "#666"
        out.append(glyph(ch.upper(), round(lx, 2), round(ly, 2), 24, _LETTER + f' fill="{colour}"'))
    return out


def _caption_parts(box: LetterBox, shown: Sequence[str], n: int, note: str | None) -> list[str]:
    """The caption: the box, then the words drawn (of how many) and ``note``."""
    if not shown:
        words = "no words drawn" if not n else f"0 of {plural(n, 'word')} drawn"
    else:
        more = f": the first {len(shown)} of {plural(n, 'word')}" if len(shown) < n else ""
        more = more or f": {plural(n, 'word')}"
        words = "-".join(w.upper() for w in shown) + more
    return [f"box {str(box).upper()}", words + (f" · {note}" if note else "")]
