"""What interrupted a command: Ctrl-C, or a signal sent to it (``kill``: SIGTERM; a closed
terminal: SIGHUP), so that its output says which.

The command line stops on SIGTERM and SIGHUP as on Ctrl-C (the best answer so far, marked
interrupted, exit 130) through :func:`stop_as_interrupt`, which remembers the signal before it
raises :class:`KeyboardInterrupt`; a handler that holds signals for a while (the independent
check of a proven answer) records what arrived with :func:`note_signal`. Messages then name it
with :func:`interrupt_name` (``interrupted (SIGTERM)``); the JSON key stays ``"interrupted"``.

A solve records "stop asked" in one place, a :class:`StopFlag`: :func:`stop_scope`, opened once
at the entry of a solve (:func:`cpwords.core.spec.solve`, the default Wordsnake method), makes
Ctrl-C, SIGTERM and SIGHUP set it. Where the solve is *held* (its own bookkeeping, the
certificate's bounded check, the independent check of the answer) a signal only sets the flag,
and the stages see it at their next check and return with what they have; elsewhere (inside a
stage whose code cannot look at the flag: a native solve, a NumPy pass) it also raises
:class:`KeyboardInterrupt` there, which the stage turns into its return.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    return (
        handler is signal.default_int_handler
        or handler is stop_as_interrupt
        or handler is _on_signal
    )


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


class LeftUnmade(KeyboardInterrupt):
    """A stop after which nothing reads what a stretch let go: the arrays it let go meanwhile
    are not made again on the way out (a stop that cannot be answered with a certificate, as
    on a list too large to check one in :data:`~cpwords.wordsnake.exact.state.STOP_PROOF_SECONDS`).

    Raised by a stretch that was told so, where it leaves on a stop; caught, as any
    ``KeyboardInterrupt``, by the stage around, whose state is then read only for its
    incumbent and bounds.
    """


class StopFlag:
    """The solve's "stop asked", with its reason: the one place its stages look at to end early.

    Attributes
    ----------
    reason : str or None
        ``"interrupt"`` (Ctrl-C, SIGTERM, SIGHUP, or a ``KeyboardInterrupt`` caught), or None
        while no stop was asked.
    asked_at : float or None
        ``time.perf_counter()`` at the first stop asked.
    signals : int
        Stopping signals received while the flag was the one in force.

    Examples
    --------
    >>> stop = StopFlag()
    >>> stop.asked, stop.interrupted
    (False, False)
    >>> stop.ask("interrupt")
    >>> stop.asked, stop.reason
    (True, 'interrupt')
    """

    def __init__(self) -> None:
        self.reason: str | None = None
        self.asked_at: float | None = None
        self.signals = 0
        self._held: list[bool] = []

    def ask(self, reason: str = "interrupt") -> None:
        """Ask the solve to stop (the first reason is kept)."""
        if self.reason is None:
            self.reason = reason
            self.asked_at = time.perf_counter()

    @property
    def asked(self) -> bool:
        """Whether a stop was asked."""
        return self.reason is not None

    @property
    def interrupted(self) -> bool:
        """Whether an interrupt asked the stop."""
        return self.reason == "interrupt"

    @property
    def holding(self) -> bool:
        """Whether a signal now only sets the flag (see :meth:`held`)."""
        return bool(self._held) and self._held[-1]

    @contextmanager
    def held(self) -> Iterator[None]:
        """Inside: a stopping signal only sets the flag (code that looks at it, and short steps
        that must not be cut: the answer's bookkeeping and its check)."""
        self._held.append(True)
        try:
            yield
        finally:
            self._held.pop()

    @contextmanager
    def raising(self) -> Iterator[None]:
        """Inside: a stopping signal sets the flag and raises ``KeyboardInterrupt`` (code that
        cannot look at the flag: the stage around it turns the exception into its return)."""
        self._held.append(False)
        try:
            yield
        finally:
            self._held.pop()

    def leave_if_asked(self) -> None:
        """At a safe point of a :meth:`held` stretch: leave it when a stop was asked.

        For a stretch that must not be cut anywhere but at its own points (the greedy proof
        while the network's arc ends are away): the signal only set the flag, and the stretch's
        cleanup runs, still held, as the exception leaves it.

        Raises
        ------
        KeyboardInterrupt
            When a stop was asked, held or not (the stage around turns it into its return).
        """
        if self.asked:
            raise KeyboardInterrupt

    def check(self) -> None:
        """A stage's check: where it may stop, stop if asked.

        Raises
        ------
        KeyboardInterrupt
            When a stop was asked and the flag is not :attr:`holding` (the stage around turns
            it into its return, as it does a signal's).
        """
        if self.asked and not self.holding:
            raise KeyboardInterrupt

    def signalled(self, signum: int) -> None:
        """A stopping signal arrived: note it and set the flag.

        Raises
        ------
        KeyboardInterrupt
            Unless the flag is :attr:`holding`.
        """
        note_signal(signum)
        self.signals += 1
        self.ask("interrupt")
        if not self.holding:
            raise KeyboardInterrupt


#: The flag in force in each thread (None outside :func:`stop_scope`).
_scope = threading.local()

#: The signals that stop a solve as Ctrl-C does.
STOPPING_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


def current_stop() -> StopFlag | None:
    """The flag of the :func:`stop_scope` open in this thread, or None."""
    return getattr(_scope, "flag", None)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """The handler :func:`stop_scope` installs: the main thread's flag takes the signal."""
    flag = current_stop()
    if flag is None:  # pragma: no cover - the scope restores the handlers before it closes
        stop_as_interrupt(signum, frame)
        return
    flag.signalled(signum)


@contextmanager
def stop_scope() -> Iterator[StopFlag]:
    """A solve's :class:`StopFlag`, set by Ctrl-C, SIGTERM and SIGHUP while the scope is open.

    Opened once at the entry of a solve: a scope opened inside another (the default Wordsnake
    method inside :func:`cpwords.core.spec.solve`, its solves of pieces inside it) yields the
    same flag. In the main thread, the signals whose handler stops as Ctrl-C does
    (:func:`is_interrupt_handler`: Python's own SIGINT handler, the command line's SIGTERM and
    SIGHUP) are taken over until the scope closes; a program's own handler is left alone. In
    another thread no handler can be set: the flag is set only by the code that catches a
    ``KeyboardInterrupt``.

    Yields
    ------
    StopFlag
        Raising by default (a signal sets it and raises ``KeyboardInterrupt``); see
        :meth:`StopFlag.held`.

    Examples
    --------
    >>> with stop_scope() as stop, stop_scope() as inner:
    ...     inner is stop is current_stop()
    True
    >>> current_stop() is None
    True
    """
    outer = current_stop()
    if outer is not None:
        yield outer
        return
    flag = StopFlag()
    previous: dict[int, Any] = {}
    _scope.flag = flag
    try:
        if threading.current_thread() is threading.main_thread():
            for sig in STOPPING_SIGNALS:
                if is_interrupt_handler(signal.getsignal(sig)):
                    previous[sig] = signal.signal(sig, _on_signal)
        yield flag
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        _scope.flag = None


@contextmanager
def held_here() -> Iterator[StopFlag | None]:
    """Inside: the flag of the :func:`stop_scope` open in this thread, if any, is
    :meth:`~StopFlag.held` (a stopping signal only sets it; the code inside looks at it with
    :meth:`~StopFlag.leave_if_asked`).

    Yields
    ------
    StopFlag or None
        The flag held, or None outside a scope (a signal then raises as it would anyway).

    Examples
    --------
    >>> with stop_scope() as stop, held_here() as held:
    ...     held is stop and stop.holding
    True
    """
    stop = current_stop()
    if stop is None:
        yield None
        return
    with stop.held():
        yield stop


@contextmanager
def made_again(remake: Callable[[], None]) -> Iterator[None]:
    """Inside: arrays let go; on leaving, ``remake()`` makes them again, on every exit but a
    :class:`LeftUnmade` stop, after which nothing reads them.

    Parameters
    ----------
    remake : callable
        Makes again what was let go (holding the signals itself where it must not be cut).

    Examples
    --------
    >>> made = []
    >>> with made_again(lambda: made.append("whole")):
    ...     pass
    >>> try:
    ...     with made_again(lambda: made.append("after a stop")):
    ...         raise LeftUnmade
    ... except LeftUnmade:
    ...     pass
    >>> made
    ['whole']
    """
    try:
        yield
    except LeftUnmade:
        raise
    except BaseException:
        remake()
        raise
    remake()


@contextmanager
def signals_blocked() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP kept pending in this thread while an answer is written.

    A write to a pipe that a signal interrupts loses data when the handler returns instead of
    raising (CPython's buffered text writer reports the partial write as whole: 65,536 of
    1,000,000 bytes written, no error), so a held answer is printed with the signals blocked
    (``pthread_sigmask``, the main thread, POSIX); they are delivered when the block ends.
    Elsewhere it does nothing.
    """
    block = getattr(signal, "pthread_sigmask", None)
    if block is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = block(signal.SIG_BLOCK, STOPPING_SIGNALS)
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, old)
