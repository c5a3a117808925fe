"""A stop during the greedy proof, while the network's arc ends are away: the network whole."""

from __future__ import annotations

import signal
from typing import Any

import numpy as np
import pytest

from cpwords.core.interrupts import stop_scope
from cpwords.wordsnake.relaxation import held_trie, residual_update
from cpwords.wordsnake.relaxation.assignment import Reoptimizer, route_successors
from cpwords.wordsnake.relaxation.decode import greedy_successors
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork, build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance


def _greedy(seed: int) -> tuple[StringHubNetwork, np.ndarray]:
    """A random list of 60 words over ``ab`` and its greedy's flow (seed 0: 6 cycles to
    cancel before it is optimal)."""
    rng = np.random.default_rng(seed)
    words = tuple("".join(rng.choice(list("ab"), size=rng.integers(1, 7))) for _ in range(60))
    net = build_string_network(WordsnakeInstance(words, False))
    flows = route_successors(net, greedy_successors(net))
    assert flows is not None
    return net, flows


def _settle(net: StringHubNetwork, flows: np.ndarray) -> Reoptimizer:
    reopt = Reoptimizer(net, flows)
    reopt.settle(None, max_rounds=10_000, max_cycles=10_000, release=True)
    return reopt


@pytest.mark.parametrize("at", [1, 2, 4])
def test_a_signal_in_a_cycles_cancellation_leaves_the_network_whole(at: int) -> None:
    # Ctrl-C on 977,555 31-mers of C. elegans, 34 s in, ended "an arc is missing from the
    # residual network" (exit 2, no answer): the signal came in the residual network's update
    # after a cycle's cancellation, between an arc's forward residual arc let go and its reverse
    # one added, and the ends made again from it missed the arc. Now the signal (sent here at
    # the ``at``-th such addition) only sets the stop, the sweeps leave at their next range, and
    # the network's ends and weights are made again whole.
    net, flows = _greedy(0)
    assert _settle(net, flows.copy()).cycles >= at  # each adds residual arcs
    before = {name: getattr(net, name).copy() for name in ("tail", "head", "weight")}
    calls = []
    real = residual_update._append

    def append_after_a_signal(*args: Any) -> None:
        calls.append(1)
        if len(calls) == at:
            signal.raise_signal(signal.SIGINT)
        real(*args)

    reopt = Reoptimizer(net, flows.copy())
    with pytest.MonkeyPatch.context() as mp, stop_scope() as stop:
        mp.setattr(residual_update, "_append", append_after_a_signal)
        with stop.raising(), pytest.raises(KeyboardInterrupt):  # as the stages run
            reopt.settle(None, max_rounds=10_000, max_cycles=10_000, release=True)
    assert stop.interrupted and len(calls) >= at  # the update the signal came in ran whole
    for name, array in before.items():
        assert np.array_equal(getattr(net, name), array), name
    # The flow is still a flow of the network: the whole proof from it settles as before.
    want = _settle(*_greedy(0))
    got = Reoptimizer(net, np.asarray(reopt.flows, dtype=flows.dtype).copy())
    pi = got.settle(None, max_rounds=10_000, max_cycles=10_000, release=True)
    assert pi is not None
    assert int(-net.weight @ got.flows) == int(-net.weight @ want.flows)


def test_a_signal_while_the_trie_is_made_again_leaves_it_whole() -> None:
    # The greedy proof holds the network's trie small while its sweeps peak: a signal while
    # the trie is made again only sets the stop, and the trie comes back whole.
    net, _ = _greedy(0)
    trie = net.trie
    before = {name: getattr(trie, name).copy() for name in ("parent", "end", "node_word", "depth")}
    real = held_trie.by_levels

    def levels_after_a_signal(*args: Any) -> Any:
        signal.raise_signal(signal.SIGINT)
        return real(*args)

    with pytest.MonkeyPatch.context() as mp, stop_scope() as stop, stop.raising():
        mp.setattr(held_trie, "by_levels", levels_after_a_signal)
        with held_trie.trie_held_small(trie):
            assert trie.parent.size == 0
    assert stop.interrupted
    for name, array in before.items():
        got = getattr(trie, name)
        assert got.dtype == array.dtype and np.array_equal(got, array), name


def test_a_stop_with_the_ends_left_unmade_raises_it_and_leaves_them_empty() -> None:
    # For a caller after whose stop nothing reads the network (a list too large to answer a
    # stop with a certificate), the sweeps' stop leaves the ends as they were meanwhile.
    from cpwords.core.interrupts import LeftUnmade

    net, flows = _greedy(0)
    real = residual_update._append

    def append_after_a_signal(*args: Any) -> None:
        signal.raise_signal(signal.SIGINT)
        real(*args)

    reopt = Reoptimizer(net, flows.copy())
    with pytest.MonkeyPatch.context() as mp, stop_scope() as stop:
        mp.setattr(residual_update, "_append", append_after_a_signal)
        with stop.raising(), pytest.raises(LeftUnmade):
            reopt.settle(
                None, max_rounds=10_000, max_cycles=10_000, release=True, leave_unmade=True
            )
    assert stop.interrupted
    assert net.tail.size == 0 and net.head.size == 0


def test_a_stop_in_a_large_lists_greedy_proof_answers_without_making_the_network_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 977,555 31-mers of C. elegans answered 8 s after a Ctrl-C in the greedy proof, 5 of them
    # making the network's ends and trie again, which nothing read after the stop (no
    # certificate fits in what a stop leaves on such a list). As if this list were that large:
    # the answer is the greedy's repaired ordering, checked, and nothing is made again.
    from cpwords.wordsnake.exact import state as flow_state
    from cpwords.wordsnake.exact.stages import greedy_proof
    from cpwords.wordsnake.relaxation import released_ends
    from cpwords.wordsnake.spec import solve_wordsnake

    net, _ = _greedy(0)
    inst = net.instance
    remade: list[int] = []
    real_ends = released_ends.ends_from_residual
    real_append = residual_update._append

    def ends(*args: Any, **kw: Any) -> Any:
        remade.append(1)
        return real_ends(*args, **kw)

    signalled: list[int] = []

    def append_after_a_signal(*args: Any) -> None:
        signalled.append(1)
        signal.raise_signal(signal.SIGINT)
        real_append(*args)

    monkeypatch.setattr(flow_state, "FORK_MIN_ARCS", 0)
    monkeypatch.setattr(greedy_proof, "GIVE_BACK_ARCS", 0)  # the trie held small too
    monkeypatch.setattr(greedy_proof, "certificate_after_stop", lambda instance: False)
    monkeypatch.setattr(released_ends, "ends_from_residual", ends)
    monkeypatch.setattr(residual_update, "_append", append_after_a_signal)
    res = solve_wordsnake(inst, time_limit=60)
    assert signalled, "the signal came in the greedy proof's sweeps"
    assert res.solver_info["interrupted"] is True and not remade
    assert res.verified is True and res.solution is not None
    assert sorted(res.solution) == sorted(inst.words)
    assert res.bound is not None and res.objective is not None and res.bound >= res.objective
