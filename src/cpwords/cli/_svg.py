"""``--svg FILE``: write the drawing the ``cpwords serve`` page shows (shared renderers)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

import click

from cpwords.core.errors import InputError

F = TypeVar("F", bound=Callable[..., object])


def svg_option(what: str) -> Callable[[F], F]:
    """The ``--svg FILE`` option (``what``: the thing drawn, for the help)."""
    return click.option(
        "--svg",
        "svg_path",
        metavar="FILE",
        default=None,
        help=f"Also write {what} as an SVG picture to FILE (an existing FILE needs --force).",
    )


def check_svg_target(path: str | None, force: bool) -> None:
    """Refuse, before any solving, to overwrite a file without ``--force``.

    Raises
    ------
    InputError
        ``path`` exists and ``force`` is False, or it is a folder.
    """
    if path is None:
        return
    if os.path.isdir(path):
        raise InputError(f"--svg {path}: is a folder, give a file name")
    if os.path.exists(path) and not force:
        raise InputError(f"--svg {path}: the file exists (add --force to overwrite it)")


def write_svg(path: str, svg: str) -> None:
    """Write the drawing (UTF-8).

    Raises
    ------
    InputError
        The file cannot be written.
    """
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(svg)
    except OSError as exc:
        raise InputError(f"--svg {path}: cannot write it ({exc.strerror})") from None
