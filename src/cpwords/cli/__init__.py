"""The ``cpwords`` command line: a thin click layer over the Python API.

Every subcommand lives in its own module of this package, named below with its one-line summary:
the module is imported only when its command runs or shows its help (:mod:`cpwords.cli._lazy`),
so ``cpwords --help`` imports no puzzle, NumPy or OR-Tools. Errors that cpwords raises on
purpose (:class:`~cpwords.core.errors.CpwordsError`), click's usage errors and an
operating-system error on a named file (a folder the user cannot write) are printed as one line
on stderr with exit status 2, never as a traceback. A Ctrl-C is exit 130 with one line,
also during the imports that precede :func:`main` (:mod:`cpwords._startup` holds it until then).
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import Sequence

import click

from cpwords import __version__
from cpwords._startup import release_interrupt
from cpwords.cli._allocator import keep_freed_memory
from cpwords.cli._common import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    EXIT_NONE,
    TimeLimitReached,
    begin_command,
    echo_json,
    result_row,
    started,
)
from cpwords.cli._lazy import LazyCommands, LazyGroup
from cpwords.core.errors import CpwordsError
from cpwords.core.interrupts import interrupt_name
from cpwords.core.interrupts import reset as reset_interrupts

#: Each subcommand (defined in the module ``cpwords.cli.<name>`` as an attribute of its name) and
#: the first line of its docstring, which ``cpwords --help`` prints without importing the module.
SUMMARIES = {
    "bench": "Run a study suite, resumably and in parallel.",
    "cache": "See or clear the Letterpress index cache.",
    "chain": "Find the longest word chain of a list and prove it.",
    "grid": "List, count, solve or check prefix/suffix grid puzzles.",
    "letterboxed": "Solve a Letter Boxed puzzle with the fewest words.",
    "letterpress": "Find every word some letters spell, or the best move.",
    "lexicons": "List every lexicon cpwords knows and how to install it.",
    "report": "Write the study report from results files.",
    "serve": "Serve the puzzles as web pages on this machine.",
    "snake": "Find the best Wordsnake of a word list and prove it.",
    "superstring": "Find the shortest superstring of a list and prove it.",
    "truncate": "Find the longest Truncate sequence and prove it.",
}


@click.group(
    cls=LazyGroup,
    commands=LazyCommands({n: (f"cpwords.cli.{n}", h) for n, h in SUMMARIES.items()}),
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="cpwords")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Solve word puzzles exactly, prove the optimum, and measure the heuristics against it."""
    # Time limits count from here, or from the process's start-up when main() says so.
    begin_command((ctx.obj or {}).get("start"))
    _print_notes()


class _NoteHandler(logging.Handler):
    """The ``cpwords`` logger's warnings (lines left out of a list) as ``cpwords: note: ...``
    on the command's stderr (the current one: tests swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(f"cpwords: note: {record.getMessage()}", err=True)


def _print_notes() -> None:
    """Route the ``cpwords`` logger to stderr, once per process."""
    log = logging.getLogger("cpwords")
    if not any(isinstance(h, _NoteHandler) for h in log.handlers):
        log.addHandler(_NoteHandler(logging.WARNING))
        log.propagate = False


#: Commands that manage their own worker processes and signals (process pools, dask, uvicorn).
_OWN_SIGNALS = {"bench", "serve", "report"}


def _terminate_as_interrupt() -> None:
    """SIGTERM and SIGHUP (``kill``, a closed terminal, ``docker stop``) stop a command as
    Ctrl-C does: the best answer so far, with its bound, marked interrupted (exit 130)."""
    from cpwords.core.interrupts import stop_as_interrupt

    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None and signal.getsignal(sig) is signal.SIG_DFL:
            signal.signal(sig, stop_as_interrupt)  # KeyboardInterrupt, the signal remembered


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point: run the click group, mapping errors to one stderr line.

    A time limit or a Ctrl-C that stops a command before it has any answer still prints one
    JSON object with ``--json`` (status UNKNOWN, ``interrupted`` for Ctrl-C), so a script
    always gets the same keys.
    """
    global _first
    # A Ctrl-C during the imports (held by cpwords._startup) is a Ctrl-C before any answer.
    early_interrupt = release_interrupt()
    args = list(argv) if argv is not None else sys.argv[1:]
    # A real command line (the process's first, from sys.argv) counts its start-up (the
    # imports) against --time-limit; a call from Python (tests, scripts) counts from now.
    start = started() if _first and argv is None else None
    if _first and argv is None and not (args and args[0] in _OWN_SIGNALS):
        _terminate_as_interrupt()
        keep_freed_memory()
    _first = False
    reset_interrupts()
    try:
        if early_interrupt:
            raise KeyboardInterrupt
        rv = cli.main(args=args, standalone_mode=False, obj={"start": start})
    except click.exceptions.NoArgsIsHelpError as exc:  # a bare `cpwords`: the help, as click does
        exc.show()
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        click.echo(f"cpwords: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except TimeLimitReached as exc:
        _nothing_found(args, reason=f"{exc} before any answer was found")
        click.echo(f"cpwords: {exc} before any answer was found", err=True)
        # Skip freeing a huge lexicon word by word: the limit is about the user's wall time.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(EXIT_NONE)
    except CpwordsError as exc:
        click.echo(f"cpwords: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except OSError as exc:
        if exc.filename is None:  # not about a file the user named: a bug, keep its traceback
            raise
        # A file or folder this user cannot write (or read): bench --out, report --out,
        # cache clear... One line, as for every other bad input.
        why = (exc.strerror or type(exc).__name__).lower()
        click.echo(f"cpwords: error: {why}: {exc.filename}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except (KeyboardInterrupt, click.exceptions.Abort):
        why = interrupt_name()
        _nothing_found(args, reason=f"interrupted ({why}) before any answer was found")
        click.echo(f"cpwords: interrupted ({why})", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except SystemExit as exc:  # a command's own exit status (0 found, 1 none, 130 Ctrl-C)
        status = exc.code
        _exit(status if isinstance(status, int) else (0 if status is None else 1), argv)
    _exit(rv if isinstance(rv, int) else 0, argv)


def _exit(code: int, argv: Sequence[str] | None) -> None:
    """End the process with ``code``. A real command line has printed its answer, so it skips
    freeing a whole dictionary's network object by object (measured 1-2 s after a German
    Wordsnake, 1.6 s after the French list's): the time limit is about the user's wall time."""
    if argv is None:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except OSError:  # a reader that closed the pipe early (``| head``)
            pass
        os._exit(code)
    sys.exit(code)


_first = True


def _nothing_found(args: list[str], reason: str) -> None:
    """With ``--json``, the answer of a solving command stopped before it had any."""
    if "--json" not in args or not args or args[0] in ("bench", "report", "cache", "lexicons"):
        return
    interrupted = "interrupted" in reason
    stopped = "interrupted" if interrupted else "time_limit"
    echo_json(
        result_row({}, status="UNKNOWN", interrupted=interrupted, stopped=stopped, reason=reason)
    )
