"""Child processes that can always be stopped (cpwords.core.procs)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cpwords.core.errors import InputError
from cpwords.core.procs import run_stoppable, spawn_is_safe

linux = pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="needs Linux /proc")


def _square(report: Any, x: int) -> int:
    report(x)
    return x * x


def _refuse(report: Any) -> None:
    raise InputError("no such thing")


def _report_then_hang(report: Any, value: Any) -> None:
    report(value)
    time.sleep(300)


def test_the_value_comes_back_and_exceptions_are_raised_in_the_parent() -> None:
    run = run_stoppable(_square, 7)
    assert (run.value, run.last_report, run.stopped) == (49, 7, None)
    with pytest.raises(InputError, match="no such thing"):
        run_stoppable(_refuse)


def test_the_deadline_kills_the_child_and_keeps_its_last_report() -> None:
    run = run_stoppable(_report_then_hang, [3, 1, 2], deadline=time.perf_counter() + 0.3)
    assert run.stopped == "time_limit" and run.value is None and run.last_report == [3, 1, 2]


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


SCRIPT = """
import os, sys, time
from cpwords.core.procs import run_stoppable

def hang(report, mark):
    with open(mark, "w") as f:
        f.write(str(os.getpid()))
    time.sleep(300)

run_stoppable(hang, sys.argv[1])
"""


@linux
def test_the_child_dies_with_its_parent_even_on_sigkill(tmp_path: Path) -> None:
    mark = tmp_path / "child.pid"
    parent = subprocess.Popen([sys.executable, "-c", SCRIPT, str(mark)])
    child = 0
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (mark.is_file() and mark.read_text()):
            assert parent.poll() is None
            time.sleep(0.05)
        child = int(mark.read_text())
        assert _alive(child)
        parent.kill()  # SIGKILL: no finally, no atexit in the parent
        parent.wait()
        for _ in range(100):  # the kernel's SIGKILL arrives at once; the exit a moment later
            if not _alive(child):
                break
            time.sleep(0.05)
        assert not _alive(child), "the child outlived its parent"
    finally:
        if parent.poll() is None:
            parent.kill()
        if child and _alive(child):
            os.kill(child, signal.SIGKILL)


def test_a_child_started_afresh_answers_and_reports() -> None:
    seen: list[int] = []
    run = run_stoppable(_square, 7, start_method="spawn", on_report=seen.append)
    assert run.value == 49 and run.stopped is None and seen == [7]
    with pytest.raises(ValueError, match="start_method"):
        run_stoppable(_square, 7, start_method="thread")


@pytest.mark.parametrize(
    ("spec", "path", "safe"),
    [
        (None, "/venv/bin/cpwords", True),  # cpwords' own console script
        ("cpwords.__main__", "/src/cpwords/__main__.py", True),  # python -m cpwords
        (None, None, True),  # an interactive session or a notebook
        (None, "/home/user/my_script.py", False),  # a caller's script, perhaps unguarded
        ("mypackage.tool", "/src/mypackage/tool.py", False),  # python -m mypackage.tool
    ],
)
def test_spawn_is_safe_only_where_no_code_of_the_callers_runs_again(
    monkeypatch: pytest.MonkeyPatch, spec: str | None, path: str | None, safe: bool
) -> None:
    import types

    main = types.ModuleType("__main__")
    main.__spec__ = None if spec is None else types.SimpleNamespace(name=spec)  # type: ignore[assignment]
    if path is not None:
        main.__file__ = path
    monkeypatch.setitem(sys.modules, "__main__", main)
    assert spawn_is_safe() is safe
