"""Puzzles to hand out: a page's puzzle drawn without its answer, as SVG or PNG.

``GET /letterboxed/puzzle.svg?box=BOX`` (the box, no word drawn), ``GET
/grid/puzzle.svg?t_s1=..&t_s4=..`` (the board with its suffixes placed, no prefix) and ``GET
/letterpress/puzzle.svg?letters=..&colours=..`` (the board, no move; without colours the bag);
each also as ``puzzle.png``. The pictures are the wings' puzzle drawings, the ones the
commands' ``--puzzle --svg`` write (:func:`cpwords.letterboxed.draw.puzzle_svg`,
:func:`cpwords.grid.draw.puzzle_svg`, :func:`cpwords.letterpress.draw.puzzle_svg`), the PNG
rendered from them as ``--png`` renders it (:func:`cpwords.core.svg.svg_to_png`). None solves
anything: a drawing takes milliseconds, so they answer GET. A bad query is a 400 with the page's
one-line error as JSON.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cpwords.core.errors import CpwordsError, InputError
from cpwords.core.svg import png_problem, svg_to_png
from cpwords.serve import views
from cpwords.serve.messages import page_error
from cpwords.serve.routes.common import Web

#: A drawing of a page's puzzle: the query to the SVG document.
Drawing = Callable[[Mapping[str, str]], str]

#: Most words a Letter Boxed target may name (the caption's "solve it in N words").
MAX_TARGET = 20


def routes(web: Web) -> list[Route]:
    """The puzzle pictures of the Letter Boxed, grid and Letterpress pages (SVG and PNG)."""
    out = []
    for page, draw in (
        ("letterboxed", letterboxed_puzzle),
        ("grid", grid_puzzle),
        ("letterpress", letterpress_puzzle),
    ):
        for kind in ("svg", "png"):
            handler = functools.partial(picture, draw, kind, page)
            out.append(Route(f"/{page}/puzzle.{kind}", handler, name=f"{page}_puzzle_{kind}"))
    return out


async def picture(draw: Drawing, kind: str, page: str, request: Request) -> Response:
    """The puzzle of the query drawn as ``kind`` (``svg`` or ``png``), or the 400 that says
    why the query is wrong (a 501 when this server cannot render PNG)."""
    q = request.query_params
    try:
        svg = draw(q)
    except CpwordsError as exc:
        return JSONResponse({"error": page_error(exc)}, status_code=400)
    headers = {"Content-Disposition": f'attachment; filename="{page}-puzzle.{kind}"'}
    if kind == "svg":
        return Response(svg, media_type="image/svg+xml", headers=headers)
    problem = png_problem()
    if problem is not None:
        return JSONResponse({"error": page_error(problem)}, status_code=501)
    png = await run_in_threadpool(svg_to_png, svg)
    return Response(png, media_type="image/png", headers=headers)


def letterboxed_puzzle(q: Mapping[str, str]) -> str:
    """The box of ``box`` with no word drawn; ``words`` (optional) is the target the caption
    names ("solve it in 2 words").

    Raises
    ------
    InputError
        No box, a malformed box (the command line's line), or a target that is not a whole
        number from 1 to :data:`MAX_TARGET`.
    """
    from cpwords.letterboxed.draw import puzzle_svg
    from cpwords.letterboxed.rules import parse_box

    text = q.get("box", "").strip()
    if not text:
        raise InputError("give the box, like abc-def-ghi-jkl or abc def ghi jkl")
    box = parse_box(text)
    words = q.get("words", "").strip()
    if words and not (words.isdigit() and 1 <= int(words) <= MAX_TARGET):
        raise InputError(f"words must be a whole number from 1 to {MAX_TARGET}, got {words!r}")
    return puzzle_svg(box, int(words) if words else None)


def grid_puzzle(q: Mapping[str, str]) -> str:
    """The board to fill: the suffixes of the query (``t_s1``...) placed, every prefix slot
    empty (a prefix in the query is left out: it is the answer).

    Raises
    ------
    InputError
        Bad lexicon options, a malformed token, or a suffix whose length is not the suffix
        length (``L``, 2 by default).
    """
    from cpwords.grid.draw import puzzle_svg
    from cpwords.grid.rules import default_board, parse_fill

    board = default_board()
    opts = views.grid_tokens_options(q)
    fill: dict[str, str] = {}
    for v in board.suffix_slots:
        typed = q.get(f"t_{v}", "").strip()
        one = parse_fill(f"{v}={typed}", "the board", opts["lang"]) if typed else {}
        if typed and list(one) != [v]:  # a comma or '=' in the token: not one token
            raise InputError(f"the suffix at {v} is not one token of letters: {typed[:40]!r}")
        fill |= one
    for v, token in fill.items():
        if len(token) != opts["suffix_length"]:
            raise InputError(
                f"the suffix {token!r} at {v} has {len(token)} letters: the suffix length "
                f"is {opts['suffix_length']}"
            )
    return puzzle_svg(board, fill)


def letterpress_puzzle(q: Mapping[str, str]) -> str:
    """The board of ``letters`` and ``colours`` with no move on it (find the best move); with
    no colours, the bag of ``letters`` with no word (find the words).

    Raises
    ------
    InputError
        The command line's messages for bad letters or colours.
    """
    from cpwords.letterpress.draw import puzzle_svg
    from cpwords.letterpress.rules import parse_board, parse_letters

    letters = q.get("letters", "")
    colours = q.get("colours", "").strip()
    if not "".join(letters.split()):
        raise InputError("give the letters: the bag, or the board's 25 letters")
    if colours:
        return puzzle_svg(parse_board(letters, colours))
    return puzzle_svg(parse_letters("".join(letters.split()).replace("/", "")))
