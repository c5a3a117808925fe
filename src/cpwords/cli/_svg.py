"""``--svg FILE`` and ``--png FILE``: write the drawing the ``cpwords serve`` page shows (shared
renderers), as SVG or as a PNG image rendered from it by CairoSVG (the ``png`` extra)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from cpwords.core.errors import InputError
from cpwords.core.files import check_output, write_output
from cpwords.core.svg import PNG_HINT, png_problem, svg_to_png

F = TypeVar("F", bound=Callable[..., object])


def svg_option(what: str) -> Callable[[F], F]:
    """The ``--svg FILE`` option (``what``: the thing drawn, for the help)."""
    return click.option(
        "--svg",
        "svg_path",
        metavar="FILE",
        default=None,
        help=f"Also write {what} as an SVG picture to FILE (an existing FILE needs --force; "
        "a device or pipe such as /dev/stdout is written through).",
    )


def png_option(what: str) -> Callable[[F], F]:
    """The ``--png FILE`` option (``what``: the thing drawn, for the help)."""
    return click.option(
        "--png",
        "png_path",
        metavar="FILE",
        default=None,
        help=f"Also write {what} as a PNG image to FILE: the --svg picture rendered by CairoSVG "
        f"({PNG_HINT}); --force and devices as for --svg.",
    )


def puzzle_option(what: str) -> Callable[[F], F]:
    """The ``--puzzle`` flag: ``--svg`` and ``--png`` draw the puzzle to hand out, without its
    answer (``what``: the picture, for the help), the drawing the page's puzzle export serves."""
    return click.option(
        "--puzzle",
        is_flag=True,
        help=f"With --svg/--png: draw the puzzle to hand out, not its answer: {what}; the "
        "picture of the cpwords serve page's puzzle link.",
    )


def check_svg_target(
    path: str | None, force: bool, png_path: str | None = None, puzzle: bool = False
) -> None:
    """Refuse, before any solving, an SVG or PNG path that cannot be written or must not be
    replaced, ``--png`` without CairoSVG, and ``--puzzle`` (``puzzle``) with no picture.

    Raises
    ------
    InputError
        ``path`` or ``png_path`` is a folder, an existing file without ``force``, in a
        missing or unwritable folder (see :func:`cpwords.core.files.check_output`);
        ``png_path`` is given and CairoSVG or the cairo library is missing; or ``puzzle``
        is set with neither path.
    """
    if puzzle and path is None and png_path is None:
        raise InputError("--puzzle draws the picture: give --svg FILE or --png FILE")
    if path is not None:
        check_output(path, "--svg", force)
    if png_path is not None:
        problem = png_problem()
        if problem is not None:
            raise InputError(problem)
        if path is not None and _same(path, png_path):
            raise InputError("--svg and --png name the same file")
        check_output(png_path, "--png", force)


def _same(a: str, b: str) -> bool:
    import os

    return os.path.realpath(a) == os.path.realpath(b)


def write_svg(path: str | None, svg: str, png_path: str | None = None) -> None:
    """Write the drawing (UTF-8) to ``path`` and its PNG rendering to ``png_path`` (either may
    be None): each a temporary file renamed over the target, or written through a device or
    pipe (:func:`cpwords.core.files.open_output`).

    Raises
    ------
    InputError
        A file cannot be written (an existing one is left as it was).
    """
    if path is not None:
        write_output(path, svg, "--svg")
    if png_path is not None:
        write_output(png_path, svg_to_png(svg), "--png")
