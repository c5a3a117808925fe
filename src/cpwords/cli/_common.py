"""Small helpers shared by the subcommands: JSON output and a progress display."""

from __future__ import annotations

import json
import sys
import time
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


class SolveProgress:
    """State of a long solve shown on a ticking status line.

    The incumbent only ever improves and the bound only ever tightens on the display, whatever
    order the stages report them in; the elapsed time is computed at every refresh, so it ticks
    even while a solver is busy.

    Parameters
    ----------
    label : str
        Initial stage text.
    sense : {"max", "min"}
        Direction of optimisation (which incumbent is better, which bound is tighter).
    """

    def __init__(self, label: str, sense: str = "max") -> None:
        self.start = time.perf_counter()
        self.stage = label
        self.sense = sense
        self.incumbent: float | None = None
        self.bound: float | None = None

    def update(
        self,
        incumbent: float | None = None,
        bound: float | None = None,
        stage: str | None = None,
    ) -> None:
        """Record a new incumbent, bound or stage (worse values are ignored)."""
        better = max if self.sense == "max" else min
        tighter = min if self.sense == "max" else max
        if incumbent is not None:
            old = self.incumbent
            self.incumbent = incumbent if old is None else better(old, incumbent)
        if bound is not None:
            self.bound = bound if self.bound is None else tighter(self.bound, bound)
        if stage:
            self.stage = stage

    def text(self) -> str:
        """The status line: stage, elapsed seconds, incumbent and bound."""

        def fmt(x: float | None) -> str:
            if x is None:
                return "-"
            return str(int(x)) if float(x).is_integer() else f"{x:.6g}"

        elapsed = time.perf_counter() - self.start
        return f"{self.stage}: {elapsed:.1f} s, best {fmt(self.incumbent)}, bound {fmt(self.bound)}"

    def __rich__(self) -> str:
        return self.text()


@contextmanager
def solve_progress(label: str, sense: str = "max", enabled: bool = True) -> Iterator[SolveProgress]:
    """A ticking status line on stderr (rich ``Live``), silent when stderr is not a terminal.

    Yields
    ------
    SolveProgress
        Call ``update(incumbent=..., bound=..., stage=...)`` as the solve goes.
    """
    state = SolveProgress(label, sense)
    if not enabled or not sys.stderr.isatty():
        yield state
        return
    from rich.console import Console
    from rich.live import Live
    from rich.spinner import Spinner

    with Live(
        Spinner("dots", text=state), console=Console(stderr=True), refresh_per_second=4,
        transient=True,
    ):  # fmt: skip
        yield state
