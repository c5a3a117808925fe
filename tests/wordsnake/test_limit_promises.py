"""Limits are promises in every mode, heuristics and peers included (issue 48, items 4, 6, 9):
every method answers at least the input order when its limit ends first, the heuristics look at
the clock often enough, OR-Tools routing stops once converged, a one-word list is answered at
once, and a MIP round skipped as too large says so instead of ``time_limit``.

The subprocess tests time the whole command against the audit's rule: a limit is met when the
command ends within 10 % + 0.5 s of it.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cpwords.core import interrupts
from cpwords.core.rows import result_row
from cpwords.wordsnake import spec
from cpwords.wordsnake.draw import _shared_runs
from cpwords.wordsnake.heuristics import baselines, overlaps, peers
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score
from cpwords.wordsnake.spec import random_strings, solve_wordsnake

FIVE = WordsnakeInstance(("run", "nausea", "seasick", "sickle", "lemon"))
HEURISTICS = ("layered", "local", "greedy")


def met(seconds: float, limit: float) -> bool:
    """The audit's rule: the whole command within 10 % + 0.5 s of its limit."""
    return seconds <= 1.1 * limit + 0.5


def cli(args: list[str], timeout: float = 120) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Run ``cpwords ARGS`` as a user would (start-up included): seconds and the process."""
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "cpwords", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return time.perf_counter() - t0, done


def long_words(n: int, letters: int, seed: int = 1) -> list[str]:
    """``n`` random words over ``ab`` of ``letters`` letters each (the audit's LONGWORDS)."""
    rng = random.Random(seed)
    return ["".join(rng.choice("ab") for _ in range(letters)) for _ in range(n)]


# --- every method answers at least the input order ------------------------------------------


@pytest.mark.parametrize("method", HEURISTICS)
def test_a_heuristic_stopped_before_its_index_answers_the_input_order(
    monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    """The French list with 5 s: no ordering at all (UNKNOWN); now the input order, scored."""

    def spent(deadline: float | None) -> None:
        raise overlaps.IndexStopped("the time limit passed while indexing the words")

    monkeypatch.setattr(overlaps, "_check", spent)
    res = solve_wordsnake(FIVE, method, time_limit=5)
    assert res.status.value == "FEASIBLE" and res.verified is True
    assert res.solution == list(FIVE.words)
    assert res.objective == snake_score(FIVE.words)
    assert res.solver_info["answer"] == "the input order"
    assert res.solver_info["stopped"] == "time_limit"
    assert result_row(res.to_dict())["stopped"] == "time_limit"


def test_a_peer_stopped_before_its_first_tour_answers_the_input_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def silent(report: Any, sm: Any, time_limit: float | None, start: float) -> None:
        time.sleep(300)  # no tour reported, the limit ignored: killed

    monkeypatch.setattr(peers, "_routing_search", silent)
    res = solve_wordsnake(FIVE, "ortools-routing", time_limit=0.3)
    assert res.status.value == "FEASIBLE" and res.solution == list(FIVE.words)
    assert res.objective == snake_score(FIVE.words)
    assert "before it reported a tour" in res.solver_info["reason"]


def test_the_exact_models_start_from_the_input_order_when_the_index_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--method mip``'s starting ordering (one layered pass) had no time limit at all."""
    seen: list[float | None] = []

    def spy(instance: WordsnakeInstance, **kw: Any) -> Any:
        seen.append(kw.get("time_limit"))
        raise overlaps.IndexStopped("the time limit passed while indexing the words")

    monkeypatch.setattr(baselines, "layered_greedy", spy)
    res = solve_wordsnake(FIVE, "mip", time_limit=20)
    assert seen and seen[0] is not None and seen[0] <= 20
    assert res.status.value == "OPTIMAL" and res.verified is True


@pytest.mark.parametrize("method", HEURISTICS)
def test_a_heuristic_counts_its_limit_from_the_start_of_the_command(
    monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    """``start`` (the command's start, reading included) was not passed to greedy, and no
    heuristic kept time for the check of its answer."""
    given: list[float | None] = []
    name = {"layered": "layered_greedy", "local": "local_search", "greedy": "nearest_neighbour"}
    real = getattr(baselines, name[method])

    def spy(instance: WordsnakeInstance, **kw: Any) -> Any:
        given.append(kw["time_limit"])
        return real(instance, **kw)

    monkeypatch.setattr(baselines, name[method], spy)
    solve_wordsnake(FIVE, method, time_limit=1.0, start=time.perf_counter() - 5)
    assert given == [0.01]  # the limit was spent: the least time, then the input order
    inst = WordsnakeInstance(tuple(random_strings("abc", 1000, 7, 3, 8)))
    solve_wordsnake(inst, method, time_limit=1.0)
    assert given[1] is not None and given[1] <= 1.0 - spec.check_reserve(inst)


def test_the_default_method_answers_at_once_when_reading_spent_its_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The French list with --time-limit 1: reading took the limit, then 0.4 s of network
    before the first look at the clock, for the input order."""
    import cpwords.wordsnake.exact.methods as exact

    def unwanted(*args: Any, **kw: Any) -> None:
        raise AssertionError("the network was built with no time left")

    monkeypatch.setattr(exact, "solve_exact", unwanted)
    res = solve_wordsnake(FIVE, "exact", time_limit=1.0, start=time.perf_counter() - 5)
    assert res.status.value == "FEASIBLE" and res.verified is True
    assert res.solution == list(FIVE.words) and res.objective == snake_score(FIVE.words)
    assert res.bound is not None and res.bound >= res.objective
    assert result_row(res.to_dict())["stopped"] == "time_limit"


# --- the clock is read often enough ---------------------------------------------------------


def test_indexing_long_words_stops_at_its_deadline() -> None:
    """500 words of 10,000 letters: indexed for 9 s past a 2 s limit (the clock was read
    every 16,384 words)."""
    words = long_words(40, 10_000)
    t0 = time.perf_counter()
    with pytest.raises(overlaps.IndexStopped):
        overlaps.OverlapIndex(words, deadline=t0 + 0.1)
    assert time.perf_counter() - t0 < 0.6


def test_the_local_search_reads_the_clock_at_every_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """A step may list 40,000 candidates on ENABLE: read every 16 steps, the clock let a 5 s
    search run 2.5 s past its limit."""
    inst = WordsnakeInstance(tuple(random_strings("abc", 60, 3, 3, 6)))
    ix = overlaps.OverlapIndex(inst.words)
    search = baselines._LocalSearch(ix, list(range(inst.n)))
    steps = [0]
    clock = [0.0]
    real_inn = ix.inn

    def counted(b: int) -> list[int]:
        steps[0] += 1
        clock[0] = 20.0  # the deadline passes during the first step
        return real_inn(b)

    monkeypatch.setattr(ix, "inn", counted)
    monkeypatch.setattr(baselines.time, "perf_counter", lambda: clock[0])
    search.deadline = 10.0
    with pytest.raises(baselines._Stopped):
        search.try_block_moves(1)
    assert steps[0] == 1  # stopped at the second step (the 17th, before)


def test_a_nearest_neighbour_walk_stopped_still_orders_every_word() -> None:
    inst = WordsnakeInstance(tuple(random_strings("abc", 3000, 4, 3, 6)))
    ix = overlaps.OverlapIndex(inst.words)
    seq = baselines._nearest_neighbour_seq(ix, random.Random(0), deadline=0.0)
    assert sorted(seq) == list(range(inst.n))


def test_ortools_routing_stops_once_it_has_converged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Five words ran to the command's default limit, 600 s: guided local search has no
    stopping rule of its own."""
    monkeypatch.setattr(peers, "STALL_SECONDS", 0.2)  # the peer's process is forked after
    t0 = time.perf_counter()
    res = peers.ortools_routing(FIVE, time_limit=20)
    assert time.perf_counter() - t0 < 5
    assert res.solver_info.get("converged") is True and "stopped" not in res.solver_info
    assert res.objective == 30
    assert result_row(res.to_dict())["stopped"] is None


@pytest.mark.slow
def test_ortools_routing_on_five_words_ends_at_once_by_default(tmp_path: Path) -> None:
    words = tmp_path / "five.txt"
    words.write_text("\n".join(FIVE.words) + "\n", encoding="utf-8")
    seconds, done = cli(["snake", str(words), "--method", "ortools-routing", "--json"])
    assert done.returncode == 0, done.stderr
    assert seconds < 10  # the default limit is 600 s; the search converges in about 1 s
    assert json.loads(done.stdout)["solver_info"]["converged"] is True


# --- a list of one word ---------------------------------------------------------------------


def test_the_check_reserve_of_one_long_word_is_small() -> None:
    """One word of 200 million letters was given 126 s for a check that has no joint."""
    assert spec.check_reserve(WordsnakeInstance(("a" * 10**7,))) < 0.1


@pytest.mark.parametrize("method", (*HEURISTICS, "ortools-routing"))
def test_one_long_word_is_answered_at_once(method: str) -> None:
    """(The default method checks its certificate letter by letter, within its limit.)"""
    word = "ab" * 500_000
    t0 = time.perf_counter()
    res = solve_wordsnake(WordsnakeInstance((word,)), method, time_limit=30)
    assert time.perf_counter() - t0 < 1.5  # an index of its million letters took seconds
    assert res.solution == [word] and res.objective == 0 and res.verified is True


def test_the_runs_of_a_long_word_are_cut_at_once() -> None:
    """The snake's table grew a run letter by letter: minutes on a word of 200M letters."""
    word = "a" * 1_000_000
    t0 = time.perf_counter()
    runs = _shared_runs(word, 3, 4)
    assert time.perf_counter() - t0 < 0.5
    assert runs == [("aaa", True), ("a" * 999_993, False), ("aaaa", True)]


def test_a_long_word_is_not_listed_in_the_text_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.conftest import run_cli

    words = tmp_path / "one.txt"
    words.write_text("ab" * 150_000 + "\n", encoding="utf-8")
    code, out, err = run_cli(["snake", str(words), "--time-limit", "20"], capsys)
    assert code == 0, err
    assert "(ordering of 1 word, 300,000 letters, not listed: use --json)" in out


@pytest.mark.slow
def test_a_file_of_one_huge_word_is_answered_within_its_limit(tmp_path: Path) -> None:
    """The audit's 200 MB word with --time-limit 5 ran past 60 s and 1.9 GB; here 20 MB."""
    words = tmp_path / "one.txt"
    words.write_text("a" * (20 << 20) + "\n", encoding="ascii")
    seconds, done = cli(["snake", str(words), "--time-limit", "5"])
    assert done.returncode == 0, done.stderr
    assert met(seconds, 5.0) and "not listed" in done.stdout


# --- whole commands within their limits -----------------------------------------------------


@pytest.mark.slow
def test_compare_on_long_words_ends_within_its_limit(tmp_path: Path) -> None:
    """The audit's 500 words of 10,000 letters with --compare --time-limit 10: 19.95 s."""
    words = tmp_path / "long.txt"
    words.write_text("\n".join(long_words(150, 10_000)) + "\n", encoding="utf-8")
    seconds, done = cli(["snake", str(words), "--compare", "--time-limit", "6", "--json"])
    assert done.returncode == 0, done.stderr
    assert met(seconds, 6.0), seconds
    rows = json.loads(done.stdout)["comparison"]
    assert all(r["objective"] is not None for r in rows)  # the input order at least


@pytest.mark.slow
def test_compare_on_enable_ends_within_its_limit(shared_data: Path) -> None:
    """The audit: 22-23 s for --time-limit 20 (the heuristics kept no time for their check,
    the local search read the clock every 16 steps)."""
    seconds, done = cli(
        ["snake", str(shared_data / "enable1.txt"), "--compare", "--time-limit", "20", "--json"]
    )
    assert done.returncode == 0, done.stderr
    assert met(seconds, 20.0), seconds


# --- the reasons a solve stopped ------------------------------------------------------------


def test_a_mip_skipped_as_too_large_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """It said ``stopped: time_limit``: the gap was left open by the model's size."""
    from cpwords.wordsnake.formulations import mip
    from tests.conftest import run_cli

    monkeypatch.setattr(mip, "MIP_MAX_ARCS", 0)
    inst = WordsnakeInstance(tuple(random_strings("ab", 40, 25, 6, 12)))
    res = solve_wordsnake(inst, "mip", time_limit=20)
    assert res.status.value == "FEASIBLE" and res.solver_info["mip_skipped"] is True
    assert res.solver_info["stopped"] == "model_too_large"
    assert result_row(res.to_dict())["stopped"] == "model_too_large"
    words = tmp_path / "gap.txt"
    words.write_text("\n".join(inst.words) + "\n", encoding="utf-8")
    args = ["snake", str(words), "--method", "mip", "--time-limit", "20"]
    code, out, _ = run_cli([*args, "--json"], capsys)
    assert code == 0 and json.loads(out)["stopped"] == "model_too_large"
    code, out, _ = run_cli(args, capsys)
    assert "too large to stop on time" in out and "time limit" not in out


def test_a_peer_stopped_by_a_signal_names_it() -> None:
    """It said "(Ctrl-C)" for any signal."""
    sm = peers.snake_matrix(FIVE)
    interrupts.note_signal(signal.SIGTERM)
    try:
        res = peers._stopped(FIVE, sm, None, "interrupted", time.perf_counter(), "lkh", {})
    finally:
        interrupts.reset()
    assert "SIGTERM" in res.solver_info["reason"] and "Ctrl-C" not in res.solver_info["reason"]
