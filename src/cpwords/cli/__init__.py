"""The ``cpwords`` command line: a thin click layer over the Python API.

Every subcommand lives in its own module of this package and is registered below. Errors that
cpwords raises on purpose (:class:`~cpwords.errors.CpwordsError`) and click's usage errors are
printed as one line on stderr with exit status 2, never as a traceback.
"""

from __future__ import annotations

import time

#: When the command started (before the solvers were imported): time limits count from here.
STARTED = time.perf_counter()

import sys  # noqa: E402
from collections.abc import Sequence  # noqa: E402

import click  # noqa: E402

from .. import __version__  # noqa: E402
from ..errors import CpwordsError  # noqa: E402


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cpwords")
def cli() -> None:
    """Solve word puzzles exactly, prove the optimum, and measure the heuristics against it."""


def _register() -> None:
    from .bench import bench
    from .grid import grid
    from .letterboxed import letterboxed
    from .letterpress import letterpress
    from .report import report
    from .snake import snake
    from .truncate import truncate

    for command in (snake, letterboxed, truncate, letterpress, grid, bench, report):
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
    except CpwordsError as exc:
        click.echo(f"cpwords: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("cpwords: interrupted", err=True)
        sys.exit(130)
    sys.exit(rv if isinstance(rv, int) else 0)
