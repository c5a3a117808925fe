"""Pieces every drawing shares, written so that every renderer draws them alike.

Chromium, librsvg (``rsvg-convert``, GNOME's viewers, ImageMagick) and CairoSVG (``--png``)
agree on a ``<text>`` element with one ``x`` and one ``y`` and a ``text-anchor``; they disagree
on a list of ``x`` (one per glyph) combined with ``text-anchor="middle"`` (librsvg centres the
whole word on its first ``x``) and on ``dominant-baseline`` (librsvg 2.54 ignores it). So every
glyph the drawings place is one ``<text>`` with one ``x`` and its baseline computed here
(:func:`glyph`), and every caption is a few ``<text>`` lines anchored at their start
(:func:`caption`), wrapped by display width (``wcwidth``: a CJK character is two columns wide).
``tests/core/test_pictures.py`` renders every drawing with librsvg and CairoSVG."""

from __future__ import annotations

from cpwords.core.errors import InputError

#: The monospace stack of the drawings' letters and captions.
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"
#: Width of a monospace column, in em (DejaVu Sans Mono and its peers: 0.6 em).
MONO_EM = 0.6
#: The caption's font size and line height, in pixels.
CAPTION_SIZE = 13.0
CAPTION_LINE = 18.0


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` escaped for XML character data:
    :func:`xml.sax.saxutils.escape`, imported when first needed (importing
    :mod:`xml.sax.saxutils` loads ``urllib.request``, ``http.client``, ``email`` and ``ssl``,
    40 ms that a command drawing nothing need not pay).

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    str
        ``&`` -> ``&amp;``, ``>`` -> ``&gt;``, ``<`` -> ``&lt;``.

    Examples
    --------
    >>> escape("a<b & c>d")
    'a&lt;b &amp; c&gt;d'
    """
    from xml.sax.saxutils import escape as xml_escape

    return xml_escape(text)


def quoteattr(text: str) -> str:
    """``text`` escaped and quoted as an XML attribute value, quotes included:
    :func:`xml.sax.saxutils.quoteattr`, imported when first needed (as :func:`escape`).

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    str
        The quoted value, to write after ``name=``.

    Examples
    --------
    >>> print(quoteattr("cat"), quoteattr('say "hi"'), quoteattr("it's \\"x\\""))
    "cat" 'say "hi"' "it's &quot;x&quot;"
    """
    from xml.sax.saxutils import quoteattr as xml_quoteattr

    return xml_quoteattr(text)


def char_width(ch: str) -> int:
    """Display columns of one character: 2 for wide (CJK) ones, else 1.

    Examples
    --------
    >>> char_width("a"), char_width("ß"), char_width("語"), char_width("ש")
    (1, 1, 2, 1)
    """
    from wcwidth import wcwidth  # a drawing's import: the solve commands do not load it

    w = wcwidth(ch)
    return 2 if w == 2 else 1


def text_width(text: str) -> int:
    """Display columns of ``text`` (wide characters count 2, combining marks 0).

    Examples
    --------
    >>> text_width("grüßen"), text_width("しりとり")
    (6, 8)
    """
    from wcwidth import wcswidth  # a drawing's import: the solve commands do not load it

    w = wcswidth(text)
    return w if w >= 0 else sum(char_width(c) for c in text)


def baseline(centre_y: float, size: float) -> float:
    """The baseline that centres a line of letters of ``size`` pixels on ``centre_y``.

    (``dominant-baseline="central"`` says the same, but librsvg 2.54 ignores it where
    browsers and CairoSVG honour it.)

    Examples
    --------
    >>> baseline(100, 20)
    107.0
    """
    return round(centre_y + 0.35 * size, 2)


def glyph(ch: str, x: float, centre_y: float, size: float, attrs: str = "") -> str:
    """One glyph as its own ``<text>``, centred on ``(x, centre_y)``.

    Parameters
    ----------
    ch : str
        The glyph (escaped here).
    x, centre_y : float
        The centre of the glyph's cell.
    size : float
        Font size in pixels.
    attrs : str
        More attributes (class, font, fill), written as they are.

    Returns
    -------
    str

    Examples
    --------
    >>> glyph("<", 10, 20, 10, 'class="g"')
    '<text class="g" x="10" y="23.5" font-size="10" text-anchor="middle">&lt;</text>'
    """
    head = f"<text {attrs} " if attrs else "<text "
    return (
        f'{head}x="{x:g}" y="{baseline(centre_y, size):g}" font-size="{size:g}" '
        f'text-anchor="middle">{escape(ch)}</text>'
    )


def plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, with an ``s`` unless ``n`` is 1.

    Examples
    --------
    >>> plural(1, "word"), plural(2, "word"), plural(1_000, "word")
    ('1 word', '2 words', '1,000 words')
    """
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def wrap(text: str, columns: int) -> list[str]:
    """``text`` in lines of at most ``columns`` display columns, broken at spaces (a word
    longer than a line is cut).

    Examples
    --------
    >>> wrap("one two three four", 9)
    ['one two', 'three', 'four']
    >>> wrap("abcdefghij", 4)
    ['abcd', 'efgh', 'ij']
    """
    columns = max(1, columns)
    lines: list[str] = []
    line = ""
    for word in text.split():
        while text_width(word) > columns:
            if line:
                lines.append(line)
                line = ""
            cut = 0
            while text_width(word[: cut + 1]) <= columns:
                cut += 1
            lines.append(word[: max(1, cut)])
            word = word[max(1, cut) :]
        if line and text_width(line) + 1 + text_width(word) <= columns:
            line += " " + word
        elif word:
            if line:
                lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def caption_lines(parts: list[str], width: float) -> list[str]:
    """The caption's lines: each part on its own line(s), wrapped to ``width`` pixels."""
    columns = int(width / (CAPTION_SIZE * MONO_EM))
    return [line for part in parts if part for line in wrap(part, columns)]


def caption_height(lines: list[str]) -> float:
    """Height of a caption of ``lines`` (0 without lines)."""
    return len(lines) * CAPTION_LINE + (6.0 if lines else 0.0)


def caption(lines: list[str], x: float, top: float) -> str:
    """A caption: one ``<text class="caption">`` per line, anchored at its start.

    Parameters
    ----------
    lines : list of str
        From :func:`caption_lines` (escaped here).
    x, top : float
        Left edge and top of the caption.

    Returns
    -------
    str
        ``<g class="caption">`` holding the lines (empty without lines).

    Examples
    --------
    >>> caption(["score 30"], 12, 100).count('class="caption-line"')
    1
    """
    if not lines:
        return ""
    out = [f'<g class="caption" font-family="{MONO}" font-size="{CAPTION_SIZE:g}" fill="#333">']
    for i, line in enumerate(lines):
        y = baseline(top + 6 + (i + 0.5) * CAPTION_LINE, CAPTION_SIZE)
        out.append(
            f'<text class="caption-line" x="{x:g}" y="{y:g}" text-anchor="start">'
            f"{escape(line)}</text>"
        )
    out.append("</g>")
    return "".join(out)


#: The one line that says how to get ``--png`` (CairoSVG is the ``png`` extra).
PNG_HINT = "pip install -e '.[png]' in the cpwords checkout"


def png_problem() -> str | None:
    """Why :func:`svg_to_png` cannot run here, or None when it can.

    Returns
    -------
    str or None
        One line naming what is missing: CairoSVG (the ``png`` extra) or the system's cairo
        library it loads.
    """
    try:
        import cairosvg  # noqa: F401
    except ImportError:
        return f"--png needs CairoSVG: {PNG_HINT}"
    except OSError:  # cairocffi found no libcairo
        return "--png needs the cairo library (libcairo2 on Debian), which CairoSVG loads"
    return None


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """A drawing as a PNG image on white, rendered by CairoSVG.

    Parameters
    ----------
    svg : str
        A standalone SVG document (any of the drawings).
    scale : float
        Pixels per SVG pixel.

    Returns
    -------
    bytes
        The PNG file, as wide and high as the SVG's ``width`` and ``height`` times ``scale``.

    Raises
    ------
    InputError
        CairoSVG or the cairo library is missing (see :func:`png_problem`).
    """
    problem = png_problem()
    if problem is not None:
        raise InputError(problem)
    import cairosvg

    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), background_color="white", scale=scale)
    assert isinstance(png, bytes)
    return png
