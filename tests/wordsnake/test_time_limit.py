"""The time limit covers the whole default method (issue 31): the stages end early enough to
leave the certificate and its check their time, nothing is given time past the limit, and no
certificate is computed once the limit has passed.

The clock is a test double (``time.perf_counter`` plus an offset the doubles of slow steps
advance), so nothing here depends on how fast the machine is.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from cpwords.core.result import Status
from cpwords.wordsnake.exact import state as state_module
from cpwords.wordsnake.exact.stages import certificate as certificate_stage
from cpwords.wordsnake.exact.stages import checked_proof as checked
from cpwords.wordsnake.exact.stages import core_search
from cpwords.wordsnake.exact.stages import neighbourhood_search as neighbourhood
from cpwords.wordsnake.exact.stages.checked_proof import proof_reserve
from cpwords.wordsnake.rules import WordsnakeInstance
from cpwords.wordsnake.spec import random_strings, solve_wordsnake

LIMIT = 60.0


class Clock:
    """``time.perf_counter`` with an offset that the doubles of slow steps advance."""

    def __init__(self) -> None:
        self.real = time.perf_counter
        self.offset = 0.0

    def __call__(self) -> float:
        return self.real() + self.offset

    def jump_to(self, when: float) -> None:
        """Make the clock read ``when`` now (a step that took until then)."""
        self.offset += when - self()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(time, "perf_counter", fake)
    return fake


def gapped() -> WordsnakeInstance:
    """A list whose flow stage leaves a gap the core search closes (test_core's first)."""
    return WordsnakeInstance(tuple(random_strings("ab", 40, 25, 6, 12)))


def slow_core_search(
    monkeypatch: pytest.MonkeyPatch, clock: Clock, ends_at: Callable[[float], float]
) -> list[float]:
    """The core search, as if it ended at ``ends_at(start + LIMIT)`` (it overran its own time)."""
    real = core_search.solve_core_mip
    ran: list[float] = []

    def slow(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        clock.jump_to(ends_at(START[0] + LIMIT))
        ran.append(clock())
        return found

    monkeypatch.setattr(core_search, "solve_core_mip", slow)
    return ran


START = [0.0]


def spy_check(monkeypatch: pytest.MonkeyPatch, clock: Clock) -> list[tuple[float, float | None]]:
    """Record when the independent check was called and the time it was given."""
    real = checked.verify_certificate
    calls: list[tuple[float, float | None]] = []

    def spy(*args: Any, time_limit: float | None = None, **kwargs: Any) -> Any:
        calls.append((clock(), time_limit))
        return real(*args, time_limit=time_limit, **kwargs)

    monkeypatch.setattr(checked, "verify_certificate", spy)
    return calls


def test_the_check_is_never_given_time_past_the_limit(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    """A search that ends 0.3 s before the limit leaves the check those 0.3 s, not more (it had
    been given at least 0.5 s, past the limit)."""
    inst = gapped()
    ran = slow_core_search(monkeypatch, clock, lambda end: end - 0.3)
    calls = spy_check(monkeypatch, clock)
    monkeypatch.setattr(checked.gc, "collect", lambda: 0)  # its time depends on the heap
    START[0] = clock()
    res = solve_wordsnake(inst, time_limit=LIMIT, start=START[0])
    assert ran, "the core search ran"
    assert calls, "the certificate was computed (the limit had not passed) and checked"
    for called, given in calls:
        assert given is not None and called + given <= START[0] + LIMIT
    assert res.objective is not None and res.bound is not None
    assert res.bound >= res.objective


def test_no_certificate_is_computed_once_the_limit_has_passed(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    """A search that overran the limit: the answer is FEASIBLE with the solver's bound, marked
    unchecked, and neither a certificate nor its check is started after the limit."""
    inst = gapped()
    ran = slow_core_search(monkeypatch, clock, lambda end: end + 5.0)
    calls = spy_check(monkeypatch, clock)
    computed: list[float] = []
    real = certificate_stage.solve_certificate

    def spy(state: Any) -> Any:
        computed.append(clock())
        return real(state)

    monkeypatch.setattr(certificate_stage, "solve_certificate", spy)
    START[0] = clock()
    res = solve_wordsnake(inst, time_limit=LIMIT, start=START[0])
    assert ran and not computed and not calls
    info = res.solver_info
    assert res.status is Status.FEASIBLE and info["proof"] is None
    assert info["bound_checked"] is False
    assert "time limit" in info["certificate_unchecked"]
    assert res.objective is not None and res.bound is not None and res.bound >= res.objective


def test_the_stages_leave_the_certificate_and_its_check_their_reserve(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    """The core search (the last stage) is given time up to the limit less the reserve."""
    inst = gapped()
    real = core_search.solve_core_mip
    given: list[tuple[float, float | None]] = []

    def spy(*args: Any, time_limit: float | None = None, **kwargs: Any) -> Any:
        given.append((clock(), time_limit))
        return real(*args, time_limit=time_limit, **kwargs)

    monkeypatch.setattr(core_search, "solve_core_mip", spy)
    START[0] = clock()
    solve_wordsnake(inst, time_limit=LIMIT, start=START[0])
    assert given
    reserve = proof_reserve(inst)
    for called, seconds in given:
        assert seconds is not None and called + seconds <= START[0] + LIMIT - reserve


def test_a_slow_augmenting_path_search_leaves_the_pieces_only_what_is_left(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    """The neighbourhood search's augmenting paths cannot be interrupted: when they end 3 s
    before the stages' deadline, the exact solve of the pieces gets less than those 3 s (it got
    the 10 s counted before the paths: on the union of three wordfreq lists the flow stages
    ended 28 s past their deadline so)."""
    # On small lists the additive bound and the neighbourhood search run only when told to.
    monkeypatch.setattr(state_module, "FORK_MIN_ARCS", 0)
    search = neighbourhood.FamilySearch
    real_paths, real_reorder = search._augmenting_paths, search.reorder
    given: list[tuple[float, float, float | None]] = []

    def slow_paths(self: Any) -> None:
        real_paths(self)
        clock.jump_to(self.deadline - 3.0)

    def spy(self: Any, focus: set[int], seconds: float) -> Any:
        given.append((clock(), seconds, self.deadline))
        return real_reorder(self, focus, seconds)

    monkeypatch.setattr(search, "_augmenting_paths", slow_paths)
    monkeypatch.setattr(search, "reorder", spy)
    res = solve_wordsnake(gapped(), time_limit=LIMIT)
    assert "neighbourhood_search" in res.solver_info["refinement"], "the search ran"
    assert given, "the pieces were re-ordered"
    for called, seconds, deadline in given:
        assert deadline is not None and called + seconds <= deadline


def test_a_large_lists_first_incumbent_leaves_its_scoring_time(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    """On a large list the greedy matching may run past the flow stages' deadline, but not to
    the end of the limit: its ordering, and the input order it is weighed against when it was
    cut short, are scored after it (977,555 31-mers of C. elegans with ``--time-limit 25``:
    4.5 s of scoring after a matching cut at the end, the command ending at 28-30 s)."""
    from cpwords.wordsnake.exact import policy
    from cpwords.wordsnake.exact.stages import greedy_assignment as greedy_stage
    from cpwords.wordsnake.exact.stages.string_hub_network import ANSWER_SECONDS_PER_LETTER
    from cpwords.wordsnake.runners import check_reserve

    inst = WordsnakeInstance(tuple(random_strings("abc", 3000, 11, 4, 9)))
    given: list[float | None] = []
    real = greedy_stage.greedy_successors

    def spy(net: Any, deadline: float | None = None) -> Any:
        given.append(deadline)
        return real(net, deadline)

    monkeypatch.setattr(policy, "small_list", lambda instance: False)
    monkeypatch.setattr(greedy_stage, "greedy_successors", spy)
    START[0] = clock()
    res = solve_wordsnake(inst, time_limit=LIMIT, start=START[0])
    end = START[0] + LIMIT - check_reserve(inst)  # the method's own end
    assert given and given[0] is not None
    letters = sum(len(w) for w in inst.words)
    keep = ANSWER_SECONDS_PER_LETTER * letters
    assert given[0] == pytest.approx(end - keep, rel=0, abs=1e-7)
    assert res.objective is not None and res.bound is not None and res.bound >= res.objective
