"""The solve's stop (issue 48, items 2-3): one flag a solve, set by Ctrl-C, SIGTERM and SIGHUP
while its scope is open; held sections only set it; an answer is written with the signals
blocked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from cpwords.core.interrupts import (
    current_stop,
    signals_blocked,
    stop_as_interrupt,
    stop_scope,
)


def test_the_scope_takes_the_interrupt_handlers_over_and_gives_them_back() -> None:
    before = signal.getsignal(signal.SIGINT)
    assert before is signal.default_int_handler
    term = signal.signal(signal.SIGTERM, stop_as_interrupt)  # as the command line sets it
    try:
        with stop_scope() as stop:
            assert signal.getsignal(signal.SIGINT) is not before
            with stop.held():
                os.kill(os.getpid(), signal.SIGTERM)  # held: noted, not raised
                time.sleep(0.01)
            assert stop.interrupted and stop.signals == 1
            with pytest.raises(KeyboardInterrupt):
                os.kill(os.getpid(), signal.SIGINT)  # not held: raised too
                time.sleep(1.0)
        assert signal.getsignal(signal.SIGINT) is before
        assert signal.getsignal(signal.SIGTERM) is stop_as_interrupt
        assert current_stop() is None
    finally:
        signal.signal(signal.SIGTERM, term)


def test_a_programs_own_handler_is_left_alone() -> None:
    mine = signal.signal(signal.SIGINT, lambda *_: None)
    try:
        with stop_scope():
            assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
            assert signal.getsignal(signal.SIGINT) is not None
            os.kill(os.getpid(), signal.SIGINT)  # the program's handler: nothing happens
            time.sleep(0.01)
            assert not current_stop().asked  # type: ignore[union-attr]
    finally:
        signal.signal(signal.SIGINT, mine)


def test_outside_the_main_thread_the_scope_sets_no_handler() -> None:
    seen: list[object] = []

    def solve() -> None:
        with stop_scope() as stop:
            seen.append(signal.getsignal(signal.SIGINT))
            seen.append(current_stop() is stop)

    worker = threading.Thread(target=solve)
    worker.start()
    worker.join()
    assert seen == [signal.default_int_handler, True]


WRITER = """
import signal, sys
from cpwords.core.interrupts import signals_blocked, stop_scope
with stop_scope() as stop, stop.held():
    with signals_blocked():
        sys.stdout.write("x" * 1_000_000)
        sys.stdout.flush()
    sys.stderr.write(f"{stop.signals}")
"""


def test_an_answer_written_while_a_signal_comes_is_written_whole() -> None:
    """A held signal in a write to a full pipe lost all but 65,536 of 1,000,000 bytes (no
    error): the answer is written with the signals blocked, then the flag is set."""
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    time.sleep(0.5)  # the pipe is full: the write waits for this reader
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and len(out) == 1_000_000 and err == b"1"


def test_signals_blocked_does_nothing_outside_the_main_thread() -> None:
    done: list[bool] = []

    def write() -> None:
        with signals_blocked():
            done.append(True)

    worker = threading.Thread(target=write)
    worker.start()
    worker.join()
    assert done == [True]
