"""``--svg FILE``: write the drawing the ``cpwords serve`` page shows (shared renderers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from cpwords.core.files import check_output, write_output

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


def check_svg_target(path: str | None, force: bool) -> None:
    """Refuse, before any solving, an SVG path that cannot be written or must not be replaced.

    Raises
    ------
    InputError
        ``path`` is a folder, an existing file without ``force``, in a missing or unwritable
        folder (see :func:`cpwords.core.files.check_output`).
    """
    if path is not None:
        check_output(path, "--svg", force)


def write_svg(path: str, svg: str) -> None:
    """Write the drawing (UTF-8): a temporary file renamed over the target, or written
    through a device or pipe (:func:`cpwords.core.files.open_output`).

    Raises
    ------
    InputError
        The file cannot be written (an existing one is left as it was).
    """
    write_output(path, svg, "--svg")
