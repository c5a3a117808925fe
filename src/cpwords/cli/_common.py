"""Small helpers shared by the subcommands: JSON output and a progress display."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from ..result import _json_default


def echo_json(obj: Any) -> None:
    """Print ``obj`` as one JSON object on stdout."""
    click.echo(json.dumps(obj, default=_json_default))


@contextmanager
def progress_status(message: str, enabled: bool = True) -> Iterator[Any]:
    """A rich spinner on stderr while a long solve runs; silent when stderr is not a terminal.

    Yields an object with ``update(text)`` (or a no-op stand-in) so callers can report the
    incumbent and the bound as they improve.
    """
    if not enabled or not sys.stderr.isatty():

        class _Null:
            def update(self, *_: Any, **__: Any) -> None:
                pass

        yield _Null()
        return
    from rich.console import Console

    console = Console(stderr=True)
    with console.status(message) as status:
        yield status
