"""What interrupted a command: Ctrl-C, or a signal sent to it (``kill``: SIGTERM; a closed
terminal: SIGHUP), so that its output says which.

The command line stops on SIGTERM and SIGHUP as on Ctrl-C (the best answer so far, marked
interrupted, exit 130) through :func:`stop_as_interrupt`, which remembers the signal before it
raises :class:`KeyboardInterrupt`; a handler that holds signals for a while (the independent
check of a proven answer) records what arrived with :func:`note_signal`. Messages then name it
with :func:`interrupt_name` (``interrupted (SIGTERM)``); the JSON key stays ``"interrupted"``.
"""

from __future__ import annotations

import signal
from types import FrameType
from typing import Any

#: The last stopping signal received (None: none, or Ctrl-C).
_last: list[int | None] = [None]


def note_signal(signum: int) -> None:
    """Remember that ``signum`` arrived (the name :func:`interrupt_name` gives).

    Parameters
    ----------
    signum : int
        ``signal.SIGINT`` (Ctrl-C), ``signal.SIGTERM``, ``signal.SIGHUP``...
    """
    _last[0] = signum


def reset() -> None:
    """Forget the signals received (a new command in the same process)."""
    _last[0] = None


def stop_as_interrupt(signum: int, frame: FrameType | None) -> None:
    """A signal handler that stops the command as Ctrl-C does, remembering the signal.

    Raises
    ------
    KeyboardInterrupt
        Always, as :func:`signal.default_int_handler` does.
    """
    note_signal(signum)
    raise KeyboardInterrupt


def is_interrupt_handler(handler: Any) -> bool:
    """Whether ``handler`` stops the command as Ctrl-C does (Python's own SIGINT handler or
    :func:`stop_as_interrupt`): a signal a critical step may hold until it ends."""
    return handler is signal.default_int_handler or handler is stop_as_interrupt


def interrupt_name() -> str:
    """What interrupted the command, for messages: ``Ctrl-C``, or the signal's name.

    Examples
    --------
    >>> reset(); interrupt_name()
    'Ctrl-C'
    >>> note_signal(signal.SIGTERM); interrupt_name()
    'SIGTERM'
    >>> reset()
    """
    signum = _last[0]
    if signum is None or signum == signal.SIGINT:
        return "Ctrl-C"
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"
