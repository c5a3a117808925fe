"""The core's HiGHS search in a forked child (issue 31: a time limit HiGHS cannot overrun).

HiGHS honours a cancel only at its own next check (32 s after Ctrl-C on a 392,786-column core),
so a large core is searched in a child process that the deadline or Ctrl-C kills. Properties:
the child's answer is the in-process answer; a child that never answers is killed at the time
limit (plus the stated grace) or at once on Ctrl-C, and its best ordering so far comes back.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

import pytest

from cpwords.wordsnake.closure import core_mip as core_module
from cpwords.wordsnake.closure.core import reduced_core
from cpwords.wordsnake.closure.core_mip import CHILD_GRACE, solve_core_mip
from cpwords.wordsnake.exact.policy import solve_string_flow
from cpwords.wordsnake.relaxation.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance, check_snake
from cpwords.wordsnake.spec import random_strings

fork = pytest.mark.skipif(
    "fork" not in __import__("multiprocessing").get_all_start_methods(),
    reason="needs fork (Linux or macOS)",
)


@pytest.fixture(autouse=True)
def _forked_children(monkeypatch: pytest.MonkeyPatch) -> None:
    """The child is forked, whatever this test process has grown to: a forked child sees the
    tests' monkeypatches, a child started afresh would not (the spawn tests ask for it)."""
    monkeypatch.setattr(core_module, "SPAWN_BASE", 2**62)


def gapped_core(below: int = 0) -> tuple[Any, Any, WordsnakeInstance]:
    """A list the flow stage leaves open (test_core's first), with the core at its incumbent
    less ``below``."""
    inst = WordsnakeInstance(tuple(random_strings("ab", 40, 25, 6, 12)))
    net = build_string_network(inst)
    out = solve_string_flow(net, lagrangian_iterations=3)
    assert out.dual is not None and out.objective is not None and not out.proven
    return net, reduced_core(net, out.dual, int(out.objective) - below), inst


@fork
@pytest.mark.parametrize("below", [0, 3])
def test_the_child_finds_what_the_search_in_this_process_finds(below: int) -> None:
    net, core, inst = gapped_core(below)
    here = solve_core_mip(net, core, time_limit=None, isolate=False)
    seen: list[float | None] = []
    there = solve_core_mip(
        net, core, time_limit=None, isolate=True, progress=lambda t, inc, b: seen.append(inc)
    )
    assert there.proven == here.proven and there.objective == here.objective
    assert there.bound == here.bound and there.arcs == here.arcs and not there.interrupted
    if here.objective is not None:
        assert there.order is not None
        assert check_snake(inst, [inst.words[i] for i in there.order], here.objective)
        assert seen and seen[-1] == here.objective  # the child's progress reached the parent


@fork
def test_a_child_started_afresh_finds_what_the_search_in_this_process_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A large parent hands the child its network and core pickled (spawn), not its pages.
    net, core, inst = gapped_core()
    here = solve_core_mip(net, core, time_limit=None, isolate=False)
    monkeypatch.setattr(core_module, "SPAWN_BASE", 0)
    monkeypatch.setattr("cpwords.core.procs.spawn_is_safe", lambda: True)
    assert core_module.child_start_method(net, core) == "spawn"
    there = solve_core_mip(net, core, time_limit=None, isolate=True)
    assert (there.proven, there.objective, there.bound) == (here.proven, here.objective, here.bound)
    if here.objective is not None:
        assert there.order is not None
        assert check_snake(inst, [inst.words[i] for i in there.order], here.objective)


def test_a_small_parent_or_an_unguarded_script_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    net, core, _ = gapped_core()
    monkeypatch.setattr(core_module, "SPAWN_BASE", 0)
    monkeypatch.setattr("cpwords.core.procs.spawn_is_safe", lambda: False)
    assert core_module.child_start_method(net, core) == "fork"  # the caller's own script
    monkeypatch.setattr("cpwords.core.procs.spawn_is_safe", lambda: True)
    monkeypatch.setattr(core_module, "SPAWN_RATIO", 10**9)  # this process small next to it
    assert core_module.child_start_method(net, core) == "fork"


def _finds_then(end: Any) -> Any:
    """A search for the child: it reports one model and one ordering, then ``end()``."""

    def search(net: Any, core: Any, time_limit: Any, report: Any) -> Any:
        report({"arcs": 7})
        report({"seconds": 0.0, "order": list(range(net.instance.n)), "objective": 1})
        end()

    return search


#: Ignores every limit after one ordering; killed as the out-of-memory killer would.
_finds_then_hangs = _finds_then(lambda: time.sleep(300))
_finds_then_dies = _finds_then(lambda: os.kill(os.getpid(), signal.SIGKILL))


@fork
def test_ctrl_c_kills_the_child_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    net, core, _ = gapped_core()
    monkeypatch.setattr(core_module, "_solve_core_mip", _finds_then_hangs)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    timer = threading.Timer(0.5, signal.raise_signal, (signal.SIGINT,))
    t0 = time.perf_counter()
    timer.start()
    try:
        found = solve_core_mip(net, core, time_limit=60, isolate=True)
    finally:
        timer.cancel()
    took = time.perf_counter() - t0
    assert took < 10  # not the 60 s limit
    assert found.interrupted and not found.proven and found.bound is None
    assert found.objective == 1


@fork
@pytest.mark.parametrize("dies", [False, True])
def test_a_child_that_overruns_or_dies_leaves_its_best_so_far(
    monkeypatch: pytest.MonkeyPatch, dies: bool
) -> None:
    """Overrunning: killed at the limit plus the grace. Dying: the error says why. Either way
    its last reported ordering comes back, unproven, with no bound."""
    net, core, _ = gapped_core()
    monkeypatch.setattr(
        core_module, "_solve_core_mip", _finds_then_dies if dies else _finds_then_hangs
    )
    t0 = time.perf_counter()
    found = solve_core_mip(net, core, time_limit=0.5, isolate=True)
    took = time.perf_counter() - t0
    if dies:
        assert found.error is not None and "died" in found.error
    else:
        assert found.error is None
        assert 0.5 + CHILD_GRACE <= took < 0.5 + CHILD_GRACE + 5
    assert not found.proven and found.bound is None and not found.interrupted
    assert found.order == list(range(net.instance.n)) and found.objective == 1
    assert found.arcs == 7


@fork
def test_the_solve_survives_a_core_search_whose_process_dies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pipeline keeps its incumbent and its checked bound, the stage log says why, no
    traceback; OPTIMAL only on the certificate's own proof (here its proof tree closes the gap
    the flow left)."""
    from cpwords.core.result import Status
    from cpwords.wordsnake.spec import solve_wordsnake

    inst = WordsnakeInstance(tuple(random_strings("ab", 40, 25, 6, 12)))

    def dies(*args: Any) -> Any:  # before any ordering
        os.kill(os.getpid(), signal.SIGKILL)

    monkeypatch.setattr(core_module, "CHILD_MIN_PAIRS", 0)
    monkeypatch.setattr(core_module, "_solve_core_mip", dies)
    res = solve_wordsnake(inst, time_limit=60)
    core_logs = [s for s in res.solver_info["stages"] if s.get("stage") == "core"]
    assert core_logs and "died" in core_logs[0]["error"]
    assert res.objective is not None and res.bound is not None
    info = res.solver_info
    if res.status is Status.OPTIMAL:
        assert info["proof"] == "certificate" and info["certificate_check"] == "VALID"
    else:
        assert res.status is Status.FEASIBLE and res.bound > res.objective
    assert res.verified and res.solution is not None
    assert check_snake(inst, list(res.solution), int(res.objective))
