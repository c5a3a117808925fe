"""Interrupts as a stage boundary (issue 48, items 2-3): Ctrl-C, SIGTERM or the page's Stop
set the solve's stop; every stage returns at its next check with what it has, and the best
ordering so far comes out with its bound (checked when the check fits, else the solver's,
marked unchecked), from the Python API, the command line and the page's worker.

The fast tests send the signal from inside a stage (``os.kill`` to this process: the handler
runs at once, in the main thread); the slow ones send SIGINT to a command at random moments
and time its answer.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cpwords.core.interrupts import StopFlag, stop_scope
from cpwords.core.result import Status
from cpwords.wordsnake.exact import policy
from cpwords.wordsnake.exact.stages import checked_proof
from cpwords.wordsnake.exact.state import ProofState, Stage
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score
from cpwords.wordsnake.spec import solve_wordsnake


def _words(n: int, seed: int) -> tuple[str, ...]:
    rng = random.Random(seed)
    letters = "etaoinshrdlucmfwypvbgkqjxz"
    return tuple("".join(rng.choices(letters, k=rng.randint(3, 12))) for _ in range(n))


def _ctrl_c() -> None:
    """The user presses Ctrl-C now (the handler runs before the next line)."""
    os.kill(os.getpid(), signal.SIGINT)


@pytest.fixture(autouse=True)
def _python_sigint_handler() -> Iterator[None]:
    """Each test starts with Python's own SIGINT handler, as a command started from a terminal
    has, whatever an earlier test in this worker or the launching shell left; restored after."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _spy(monkeypatch: pytest.MonkeyPatch, *names: str) -> list[str]:
    """Record the calls of the policy's stage functions ``names`` (still run)."""
    calls: list[str] = []

    def spy(name: str) -> Any:
        real = getattr(policy, name)

        def called(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return real(*args, **kwargs)

        return called

    for name in names:
        monkeypatch.setattr(policy, name, spy(name))
    return calls


def _ctrl_c_after_the_flow(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C as the stage "min-cost flow" ends: the first bound is in, no ordering from it."""
    real = policy.min_cost_flow

    def flow_then_ctrl_c(f: Any) -> None:
        real(f)
        _ctrl_c()
        raise AssertionError("the signal stops the stage at once")

    monkeypatch.setattr(policy, "min_cost_flow", flow_then_ctrl_c)


def _assert_an_answer(inst: WordsnakeInstance, res: Any) -> None:
    """An ordering of every word, its score, a bound above it, verified, marked interrupted."""
    assert res.solution is not None and sorted(res.solution) == sorted(inst.words)
    assert res.objective == snake_score(res.solution) and res.verified is True
    assert res.bound is not None and res.bound >= res.objective
    assert res.solver_info["interrupted"] is True
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # handed back


def test_ctrl_c_in_a_stage_returns_the_incumbent_feasible_with_its_checked_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The stages after the stop are skipped; a small list's certificate and check fit in
    the time a stop leaves them (half a second; 30 here, so that a loaded machine running the
    tests in parallel cannot push the check past it), so the bound is the checked one."""
    monkeypatch.setattr(policy, "STOP_PROOF_SECONDS", 30.0)
    inst = WordsnakeInstance(_words(1000, 1))
    _ctrl_c_after_the_flow(monkeypatch)
    later = _spy(monkeypatch, "repair", "lagrangian_relaxation")
    res = solve_wordsnake(inst, time_limit=60)
    _assert_an_answer(inst, res)
    assert not later  # the stop ended the flow stages
    assert res.bound is not None and res.objective is not None
    assert res.status is Status.FEASIBLE and res.bound > res.objective  # the greedy's ordering
    assert res.solver_info["bound_checked"] is True
    assert res.solver_info["certificate_check"] == "VALID"


def test_after_a_stop_a_check_that_does_not_fit_leaves_the_solvers_bound_unchecked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(policy, "STOP_PROOF_SECONDS", 0.0)  # as on a whole dictionary
    inst = WordsnakeInstance(_words(1000, 1))
    _ctrl_c_after_the_flow(monkeypatch)
    res = solve_wordsnake(inst, time_limit=60)
    _assert_an_answer(inst, res)
    info = res.solver_info
    assert res.status is Status.FEASIBLE and info["bound_checked"] is False
    assert res.bound == info["solver_bound"] == info["flow_bound"]
    assert "stopped" in info["certificate_error"]


def test_a_late_ctrl_c_during_the_check_keeps_the_ordering(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 2: the certificate's check was not held, so Ctrl-C there ended the command with no
    ordering (ENABLE, SIGINT 3.0-4.4 s in: 7 of 9). The ordering proven by the solver comes
    out, FEASIBLE: OPTIMAL needs the check."""
    inst = WordsnakeInstance(_words(1000, 1))
    real = checked_proof.verify_certificate

    def ctrl_c_in_the_check(*args: Any, **kwargs: Any) -> Any:
        _ctrl_c()
        return real(*args, **kwargs)

    monkeypatch.setattr(checked_proof, "verify_certificate", ctrl_c_in_the_check)
    res = solve_wordsnake(inst, time_limit=60)
    _assert_an_answer(inst, res)
    info = res.solver_info
    assert res.status is Status.FEASIBLE and res.bound == res.objective == info["solver_bound"]
    assert info["bound_checked"] is False and "stopped" in info["certificate_unchecked"]


def test_a_second_ctrl_c_ends_the_bounded_check_and_still_gives_the_ordering(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    inst = WordsnakeInstance(_words(1000, 1))
    _ctrl_c_after_the_flow(monkeypatch)
    real = checked_proof.verify_certificate

    def second_ctrl_c(*args: Any, **kwargs: Any) -> Any:
        _ctrl_c()
        return real(*args, **kwargs)

    monkeypatch.setattr(checked_proof, "verify_certificate", second_ctrl_c)
    res = solve_wordsnake(inst, time_limit=60)
    _assert_an_answer(inst, res)
    assert res.status is Status.FEASIBLE and res.solver_info["bound_checked"] is False


def test_a_stage_that_swallows_the_interrupt_still_ends_the_solve(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Item 3: stages caught ``KeyboardInterrupt`` and went on (under load 10 of 10 SIGINTs to
    the French list ended OPTIMAL, exit 0, ``interrupted: false``). The stop is the flag, not
    the exception: the stages after it are skipped whoever caught it."""
    inst = WordsnakeInstance(_words(1000, 1))
    real = policy.min_cost_flow

    def swallowing(f: Any) -> None:
        try:
            _ctrl_c()
            time.sleep(1.0)
        except KeyboardInterrupt:
            pass  # as a solver's own loop might
        real(f)

    monkeypatch.setattr(policy, "min_cost_flow", swallowing)
    later = _spy(monkeypatch, "repair")
    res = solve_wordsnake(inst, time_limit=60)
    _assert_an_answer(inst, res)
    assert not later and res.status is Status.FEASIBLE


def test_a_greedy_cut_short_never_answers_worse_than_the_input_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The French wordfreq list stopped 4.7 s in answered 27,203 (a matching cut at once, its
    free ends joined through the depot) where its input order scores 4,868,119."""
    from cpwords.wordsnake.exact.stages import greedy_assignment

    rng = random.Random(4)
    text = "".join(rng.choices("abcdefgh", k=600))
    words = tuple(text[i : i + 8] for i in range(0, 590, 2))  # in order: 6 letters a joint
    real = greedy_assignment.greedy_successors

    def cut_at_once(net: Any, deadline: float | None = None) -> Any:
        found = real(net, -1.0)  # no match made
        found.extra["interrupted"] = True  # as Ctrl-C at its first chunk
        return found

    monkeypatch.setattr(greedy_assignment, "greedy_successors", cut_at_once)
    res = solve_wordsnake(WordsnakeInstance(words), time_limit=60)
    assert res.solution == list(words) and res.objective == 36 * (len(words) - 1)
    assert res.status is Status.FEASIBLE and res.solver_info["interrupted"] is True


def _state(words: tuple[str, ...]) -> ProofState:
    instance = WordsnakeInstance(words)
    return ProofState(instance, {}, 0.0, 0.0, None, None, False, lambda *_: None, {})


def test_a_stage_sees_the_stop_at_its_check_and_the_next_is_skipped() -> None:
    state = _state(("run", "nausea"))
    ran: list[str] = []

    def asks_then_checks(s: ProofState) -> None:
        ran.append("first")
        s.stop.ask("interrupt")  # as a signal while its state was held
        s.stop.check()  # its next check: it returns here
        ran.append("past its check")

    assert not policy.run_stage(state, Stage("first", asks_then_checks))
    assert not policy.run_stage(state, Stage("second", lambda s: ran.append("second")))
    assert ran == ["first"] and state.interrupted
    policy.run_stage(state, Stage("certificate", lambda s: ran.append("cert")), after_stop=True)
    assert ran == ["first", "cert"]


def test_a_signal_inside_a_stage_is_its_check() -> None:
    def loops(s: ProofState) -> None:
        _ctrl_c()
        end = time.monotonic() + 30
        while time.monotonic() < end:  # code that never looks at the stop: the signal ends it
            time.sleep(0.01)
        raise AssertionError("the signal did not end the stage")

    with stop_scope() as stop, stop.held():  # the policy's bookkeeping: signals set the flag
        state = _state(("run", "nausea"))
        state.stop = stop
        assert not policy.run_stage(state, Stage("loops", loops))
        _ctrl_c()  # a second one, held: noted, not raised
    assert state.stop.signals == 2 and state.interrupted
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_outside_the_main_thread_a_keyboard_interrupt_is_the_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No signal handler can be set there: the interrupt a stage raises is caught as the stop."""
    inst = WordsnakeInstance(_words(1000, 1))
    real = policy.min_cost_flow

    def flow_then_interrupt(f: Any) -> None:
        real(f)
        raise KeyboardInterrupt

    monkeypatch.setattr(policy, "min_cost_flow", flow_then_interrupt)
    found: list[Any] = []
    worker = threading.Thread(target=lambda: found.append(solve_wordsnake(inst, time_limit=60)))
    worker.start()
    worker.join(60)
    (res,) = found
    _assert_an_answer(inst, res)
    assert res.status is Status.FEASIBLE


def test_the_stop_flag_holds_raises_and_checks() -> None:
    stop = StopFlag()
    stop.check()  # nothing asked: nothing raised
    with stop.held():
        stop.signalled(signal.SIGTERM)  # held: only the flag
        stop.check()
        with stop.raising(), pytest.raises(KeyboardInterrupt):
            stop.check()
    assert stop.interrupted and stop.signals == 1 and stop.asked_at is not None
    with pytest.raises(KeyboardInterrupt):
        stop.signalled(signal.SIGINT)  # not held: the exception too
    assert stop.reason == "interrupt" and stop.signals == 2


# -- the commands, SIGINT at random moments ----------------------------------------------------

#: Seconds from the signal to the answer: the issue's target, 1 s on a quiet machine; the
#: slow suite runs two tests at once on two cores.
ANSWER_WITHIN = 1.0
LOADED = 1.0


def _moments(k: int, low: float, high: float, seed: int) -> list[float]:
    """``k`` signal moments drawn uniformly (seeded: the same in every run)."""
    rng = random.Random(seed)
    return sorted(round(rng.uniform(low, high), 2) for _ in range(k))


def _limits_and_moments(k: int, seed: int) -> list[tuple[float, float]]:
    """``k`` time limits (1.5-5 s) and signal moments (0-6 s: before or after the limit)."""
    rng = random.Random(seed)
    return [(round(rng.uniform(1.5, 5.0), 2), round(rng.uniform(0.0, 6.0), 2)) for _ in range(k)]


@pytest.fixture(scope="module")
def words_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """30,000 random words: about 6 s of the default method (the flow stages' Lagrangian)."""
    path = tmp_path_factory.mktemp("stop") / "words.txt"
    path.write_text("\n".join(_words(30_000, 2)) + "\n")
    return path


def _start(command: list[str], stdin: Any = None, stderr: Any = subprocess.PIPE) -> Any:
    env = {**os.environ, "CPWORDS_PROGRESS": "lines"}
    return subprocess.Popen(
        command,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        env=env,
        start_new_session=True,
    )


def _wait_for(stream: Any, marker: str, timeout: float = 60.0) -> None:
    """Read ``stream`` until a line holds ``marker``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = stream.readline()
        assert line, f"ended before {marker!r}"
        if marker in line:
            return
    raise AssertionError(f"no {marker!r} in {timeout} s")


def _signal_and_wait(proc: subprocess.Popen[str], delay: float) -> tuple[float | None, str]:
    """SIGINT to the process group ``delay`` seconds from now (unless it ended first); the
    seconds from the signal to the exit (None: it ended first) and standard output (read as
    it comes, as a terminal takes it)."""
    out: list[str] = []
    stdout = proc.stdout
    assert stdout is not None
    reader = threading.Thread(target=lambda: out.append(stdout.read()))
    reader.start()
    try:
        proc.wait(delay)
        sent = None
    except subprocess.TimeoutExpired:
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
    proc.wait(120)
    after = None if sent is None else time.monotonic() - sent
    reader.join(60)
    proc.communicate(timeout=60)
    return after, out[0]


def _answer(row: dict[str, Any], n: int) -> None:
    assert row["status"] in ("FEASIBLE", "OPTIMAL") and len(row["solution"]) == n
    assert row["bound"] is not None and row["bound"] >= row["objective"]
    assert row["verified"] is True


@pytest.mark.slow
@pytest.mark.parametrize("delay", _moments(5, 0.0, 6.0, seed=1))
def test_ctrl_c_at_any_moment_of_the_command_prints_an_ordering_within_a_second(
    words_file: Path, delay: float
) -> None:
    proc = _start([sys.executable, "-m", "cpwords", "snake", str(words_file), "--json"])
    _wait_for(proc.stderr, "building the string-hub network")
    after, out = _signal_and_wait(proc, delay)
    row = json.loads(out)
    _answer(row, 30_000)
    if after is not None:  # interrupted, unless the answer was in (then printed whole)
        assert proc.returncode == (130 if row["interrupted"] else 0)
        assert after <= ANSWER_WITHIN + LOADED, after
        assert row["status"] == "FEASIBLE" or row["solver_info"]["bound_checked"] is True


@pytest.mark.slow
@pytest.mark.parametrize(("limit", "delay"), _limits_and_moments(4, seed=2))
def test_a_time_limit_and_a_ctrl_c_whichever_comes_first(
    words_file: Path, limit: float, delay: float
) -> None:
    """The command ends within 1 s of the signal, or 10% + 0.5 s past its limit."""
    t0 = time.monotonic()
    command = [sys.executable, "-m", "cpwords", "snake", str(words_file), "--json"]
    proc = _start([*command, "--time-limit", f"{limit:.3f}"])
    _wait_for(proc.stderr, "building the string-hub network")
    after, out = _signal_and_wait(proc, max(0.0, delay - (time.monotonic() - t0)))
    wall = time.monotonic() - t0
    _answer(json.loads(out), 30_000)
    latest = 1.1 * limit + 0.5 + LOADED
    if after is not None:
        latest = min(latest, wall - after + ANSWER_WITHIN + LOADED)
    assert wall <= latest, (wall, limit, after)


API = """
import json, sys
from cpwords import WordsnakeInstance, solve_wordsnake
words = tuple(open(sys.argv[1]).read().split())
instance = WordsnakeInstance(words)
print("ready", file=sys.stderr, flush=True)
print(solve_wordsnake(instance, time_limit=600).to_json())
"""


@pytest.mark.slow
@pytest.mark.parametrize("delay", _moments(2, 0.0, 6.0, seed=4))
def test_ctrl_c_through_the_python_api_returns_the_ordering(words_file: Path, delay: float) -> None:
    """Item 3: SIGINTs 4, 8 and 12 s into a French-dictionary ``solve_wordsnake`` were
    swallowed."""
    proc = _start([sys.executable, "-c", API, str(words_file)])
    _wait_for(proc.stderr, "ready")
    after, out = _signal_and_wait(proc, delay)
    row = json.loads(out)
    _answer(row, 30_000)
    if after is not None:
        assert row["solver_info"]["interrupted"] is True and after <= ANSWER_WITHIN + LOADED


@pytest.mark.slow
@pytest.mark.parametrize("delay", _moments(2, 1.0, 5.0, seed=5))
def test_the_pages_stop_gets_the_best_result_so_far(words_file: Path, delay: float) -> None:
    """Item 2: the page's Stop 3-4.5 s into ENABLE left "no result yet" (4 of 4). Its worker
    answers the SIGINT the server sends with the result, within the server's grace."""
    from cpwords.serve.settings import Settings

    job = {"words": words_file.read_text().split(), "name": "list", "cyclic": False}
    job.update(proper=False, method="exact", time_limit=600, workers=1, seed=0)
    worker = [sys.executable, "-m", "cpwords.serve.worker"]
    proc = _start(worker, stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc.stdin.write(json.dumps(job) + "\n")
    proc.stdin.flush()
    time.sleep(delay)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)  # as cpwords.serve.jobs stops a solve
    kind, data = "progress", None
    while kind == "progress":
        message = json.loads(proc.stdout.readline())
        kind, data = message["kind"], message["data"]
    after = time.monotonic() - sent
    proc.stdin.close()
    proc.wait(60)
    assert kind == "result" and isinstance(data, dict), kind
    _answer(data, 30_000)
    assert after <= Settings().grace
