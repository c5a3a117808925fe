"""``cpwords superstring --time-limit`` covers the whole command (issue 48, item 4: ENABLE with
``--time-limit 1`` took 1.3-1.7 s): when finding the contained words leaves the Wordsnake no time,
the kept words are placed in input order at once, and a signal is named in the messages."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import cpwords.superstring.models.exact as exact
from cpwords.core import interrupts
from cpwords.superstring.rules import superstring_instance
from cpwords.superstring.spec import random_kmers

WORDS = superstring_instance(["cat", "atom", "tomb", "bat", "a", "tom"])


def test_no_wordsnake_when_the_reduction_spent_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Wordsnake built its network with no time left (0.5 s on ENABLE), to return the
    input order."""
    real = exact.reduce_words

    def slow(words: Sequence[str], deadline: float | None = None) -> Any:
        found = real(words, None)
        time.sleep(0.3)  # the reduction ended past the Wordsnake's share
        return found

    def unwanted(*args: Any, **kw: Any) -> None:
        raise AssertionError("the Wordsnake ran with no time left")

    monkeypatch.setattr(exact, "reduce_words", slow)
    monkeypatch.setattr(exact, "solve", unwanted)
    res = exact.solve_exact(WORDS, time_limit=0.2)
    assert res.status.value == "FEASIBLE" and res.bound is None
    assert res.solver_info["stopped"] == "time"
    assert res.solver_info["answer"] == "the kept words in input order"
    assert res.solution.order == ("cat", "atom", "tomb", "bat")
    assert all(w in res.solution.text for w in WORDS.words)
    assert res.objective == len(res.solution.text)


def test_the_wordsnake_keeps_no_time_for_an_ordering_check_it_does_not_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Wordsnake kept time for its ordering's check, which the superstring does not run,
    beside the superstring's own reserve: 977,555 31-mers of C. elegans with --time-limit 25
    gave the Wordsnake 4.7 s, too little to build its network (the input order)."""
    import cpwords.wordsnake.exact.methods as methods
    from cpwords.wordsnake.runners import check_reserve

    given: list[float | None] = []
    real = methods.solve_exact

    def spy(instance: Any, **kw: Any) -> Any:
        given.append(kw["time_limit"])
        return real(instance, **kw)

    monkeypatch.setattr(methods, "solve_exact", spy)
    # Many words, so that the ordering's check would keep a visible share of the limit.
    words = [f"{a}{b}{c}{d}x" for a in "abcdefgh" for b in "abcdefgh" for c in "abcd" for d in "ab"]
    inst = superstring_instance(words)
    t0 = time.perf_counter()
    res = exact.solve_exact(inst, time_limit=30.0, start=t0)
    assert res.status.value == "OPTIMAL"
    red = exact.reduce_words(inst.words)
    own = exact.assembly_reserve(red)
    snake = exact.snake_instance(red, inst.source)
    assert given == [pytest.approx(30.0 - own, rel=0, abs=1e-9)]
    assert given[0] is not None and given[0] > 30.0 - own - check_reserve(snake) + 1e-9


def _kmer_words() -> list[str]:
    """The distinct 6-mers of a seeded random genome of 400 bases (a small k-mer set), sorted:
    not in the genome's order, which is already a short superstring."""
    return sorted(random_kmers(6, 400, 7))


def _hints_given(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The starting orderings (``hint``) the superstring gives the Wordsnake, as it solves."""
    given: list[Any] = []
    real = exact.solve

    def spy(*args: Any, **kw: Any) -> Any:
        given.append(kw["hint"])
        return real(*args, **kw)

    monkeypatch.setattr(exact, "solve", spy)
    return given


def test_a_short_limit_starts_from_the_greedy_superstring(monkeypatch: pytest.MonkeyPatch) -> None:
    """A limit too short for the Wordsnake's first ordering of a large list (977,555 31-mers of
    C. elegans with --time-limit 15 to 30 answered the input order, 29,847,043 letters) starts
    it from the greedy superstring: the answer is never longer than greedy merging's, and it
    still proves the optimum of a small list."""
    from cpwords.superstring.heuristics import greedy_order

    inst = superstring_instance(_kmer_words())
    red = exact.reduce_words(inst.words)
    greedy = len(red.place(greedy_order(red.kept)).text)
    proven = exact.solve_exact(inst, time_limit=60.0)
    assert proven.status.value == "OPTIMAL" and "greedy_start" not in proven.solver_info
    given = _hints_given(monkeypatch)
    monkeypatch.setattr(exact, "FIRST_ORDERING_SECONDS_PER_LETTER", 1.0)  # every list "large"
    res = exact.solve_exact(inst, time_limit=60.0)
    assert res.solver_info["greedy_start"] is True
    assert given[0] == greedy_order(red.kept)
    assert all(w in res.solution.text for w in inst.words)
    assert res.objective is not None and res.objective == len(res.solution.text) <= greedy
    assert res.status.value == "OPTIMAL" and res.objective == proven.objective


def test_a_short_limit_answers_the_greedy_start_when_the_wordsnake_has_no_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Wordsnake stopped before its first ordering answers the greedy start, not the input
    order."""
    from cpwords.superstring.heuristics import greedy_order

    inst = superstring_instance(_kmer_words())
    red = exact.reduce_words(inst.words)
    real = exact.solve

    def no_time(*args: Any, **kw: Any) -> Any:
        kw["time_limit"] = 1e-9  # stopped before its network
        return real(*args, **kw)

    monkeypatch.setattr(exact, "solve", no_time)
    monkeypatch.setattr(exact, "FIRST_ORDERING_SECONDS_PER_LETTER", 1.0)
    res = exact.solve_exact(inst, time_limit=60.0)
    assert res.status.value == "FEASIBLE"
    assert list(res.solution.order) == greedy_order(red.kept)
    assert res.objective is not None and res.objective < len(red.place(list(red.kept)).text)


def test_a_share_too_short_for_greedy_merging_answers_the_input_order_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """977,555 31-mers of C. elegans with --time-limit 8: the Wordsnake given 2 s stopped in its
    network, then scored the input order; the command ended after 11.4 s."""

    def unwanted(*args: Any, **kw: Any) -> None:
        raise AssertionError("the Wordsnake or greedy merging ran with no time for it")

    monkeypatch.setattr(exact, "solve", unwanted)
    monkeypatch.setattr(exact, "greedy_order", unwanted)
    monkeypatch.setattr(exact, "FIRST_ORDERING_SECONDS_PER_LETTER", 2.0)
    monkeypatch.setattr(exact, "GREEDY_SECONDS_PER_LETTER", 1.0)
    inst = superstring_instance(_kmer_words())
    res = exact.solve_exact(inst, time_limit=60.0)
    assert res.status.value == "FEASIBLE" and res.bound is None
    assert res.solver_info["answer"] == "the kept words in input order"
    assert res.solver_info["stopped"] == "time"
    assert all(w in res.solution.text for w in inst.words)


def test_ctrl_c_in_the_greedy_start_answers_the_input_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def interrupted(*args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(exact, "greedy_order", interrupted)
    monkeypatch.setattr(exact, "FIRST_ORDERING_SECONDS_PER_LETTER", 1.0)
    inst = superstring_instance(_kmer_words())
    res = exact.solve_exact(inst, time_limit=60.0)
    assert res.status.value == "FEASIBLE" and res.solver_info["interrupted"] is True
    assert res.solver_info["answer"] == "the kept words in input order"
    assert "stopped" not in res.solver_info
    assert all(w in res.solution.text for w in inst.words)


def test_words_of_several_lengths_start_from_the_wordsnakes_own_ordering(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Greedy merging of a dictionary is slower than the Wordsnake's first ordering (ENABLE with
    --time-limit 2: the greedy start answered 846,580 letters, the Wordsnake its optimum
    831,792): only a k-mer set starts from it."""
    given = _hints_given(monkeypatch)
    monkeypatch.setattr(exact, "FIRST_ORDERING_SECONDS_PER_LETTER", 100.0)
    res = exact.solve_exact(WORDS, time_limit=60.0)
    assert given == [None] and "greedy_start" not in res.solver_info
    assert res.status.value == "OPTIMAL"


def test_a_signal_during_the_substring_check_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """It said "(Ctrl-C)" for any signal."""

    def interrupted(*args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(exact, "substring_free_problem", interrupted)
    red = exact.reduce_words(WORDS.words)
    info: dict[str, Any] = {}
    interrupts.note_signal(signal.SIGTERM)
    try:
        problem = exact._kept_problem(red, None, info, None)
    finally:
        interrupts.reset()
    assert problem is not None and "interrupted (SIGTERM)" in problem and info["interrupted"]


@pytest.mark.slow
def test_enable_ends_within_its_limit(shared_data: Path) -> None:
    words = str(shared_data / "enable1.txt")
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "cpwords", "superstring", words, "--time-limit", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    seconds = time.perf_counter() - t0
    assert done.returncode in (0, 1), done.stderr  # 1: stopped while reducing (UNKNOWN)
    assert seconds <= 1.1 * 1 + 0.5, seconds
