"""``cpwords serve``: a local web application over the public API (the ``web`` extra).

Pages draw the puzzles with the wings' SVG renderers (the same drawings ``--svg FILE`` writes)
and answer through the calls a Python user makes; a Wordsnake solve runs in a child process
that the page can stop. See :mod:`cpwords.serve.app` and :mod:`cpwords.serve.jobs`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "run"]


def create_app(*args: Any, **kwargs: Any) -> Any:
    """Build the ASGI application (see :func:`cpwords.serve.app.create_app`)."""
    from cpwords.serve.app import create_app as _create

    return _create(*args, **kwargs)


def run(*args: Any, **kwargs: Any) -> None:
    """Run the server until Ctrl-C (see :func:`cpwords.serve.server.run`)."""
    from cpwords.serve.server import run as _run

    _run(*args, **kwargs)
