"""The ``cpwords`` command line: a thin click layer over the Python API.

Every subcommand lives in its own module of this package and is registered below. Errors that
cpwords raises on purpose (:class:`~cpwords.errors.CpwordsError`) and click's usage errors are
printed as one line on stderr with exit status 2, never as a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import click

from .. import __version__
from ..errors import CpwordsError
from ._common import TimeLimitReached


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cpwords")
def cli() -> None:
    """Solve word puzzles exactly, prove the optimum, and measure the heuristics against it."""


def _register() -> None:
    from .bench import bench
    from .cache import cache
    from .grid import grid
    from .letterboxed import letterboxed
    from .letterpress import letterpress
    from .report import report
    from .snake import snake
    from .truncate import truncate

    for command in (snake, letterboxed, truncate, letterpress, grid, bench, report, cache):
        cli.add_command(command)


_register()


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point: run the click group, mapping errors to one stderr line."""
    try:
        rv = cli.main(args=list(argv) if argv is not None else None, standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("cpwords: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"cpwords: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except TimeLimitReached as exc:
        click.echo(f"cpwords: {exc} before any answer was found", err=True)
        # Skip freeing a huge lexicon word by word: the limit is about the user's wall time.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1)
    except CpwordsError as exc:
        click.echo(f"cpwords: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("cpwords: interrupted", err=True)
        sys.exit(130)
    sys.exit(rv if isinstance(rv, int) else 0)
