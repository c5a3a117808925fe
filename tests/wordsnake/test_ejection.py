"""Local search on reduced costs (segment moves and ejection chains): every result is an
ordering of the items whose score, counted again from the words, is the old one plus the
reported gain, never above the brute-force optimum; each kind of move reaches the optimum
where it alone must; and the neighbourhood search keeps the pipeline exact with it."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cpwords.wordsnake.primal.local_search as ejection
from cpwords.wordsnake.exact import state as flow_state
from cpwords.wordsnake.exact.methods import solve_exact
from cpwords.wordsnake.exact.stages import neighbourhood_search as neighbourhood
from cpwords.wordsnake.primal.local_search import LocalSearchResult, reduced_cost_search
from cpwords.wordsnake.primal.repair import PairScore
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score
from tests.wordsnake import local_search_reference
from tests.wordsnake.checked import assert_optimum_found
from tests.wordsnake.test_pathcover import brute_force, first_certificate

Prices = tuple[np.ndarray, np.ndarray, tuple[int, int], int]


def relaxation_prices(inst: WordsnakeInstance) -> tuple[StringHubNetwork, Prices]:
    """The assignment relaxation's dual values, cut multipliers held as the search holds them."""
    net, cert, _ = first_certificate(inst)
    v = np.asarray(cert.v, dtype=np.int64).copy()
    for ids, lam in cert.cuts:
        v[list(ids)] -= lam
    depot = cert.depot if cert.depot is not None else (0, 0)
    return net, (np.asarray(cert.u, dtype=np.int64), v, depot, cert.scale)


def _shuffled_case(
    words: list[str], seed: int, random_prices: bool
) -> tuple[WordsnakeInstance, StringHubNetwork, Prices, list[int]]:
    """The instance, its network, the relaxation's prices (or, with ``random_prices``, random
    ones in 0..29: more joints of positive slack, more chains) and a shuffled ordering."""
    inst = WordsnakeInstance(tuple(words))
    net, prices = relaxation_prices(inst)
    if random_prices:
        rng = np.random.default_rng(seed)
        k = len(net.words)
        prices = (rng.integers(0, 30, k), rng.integers(0, 30, k), (0, 0), 1)
    order = list(range(inst.n))
    random.Random(seed).shuffle(order)
    return inst, net, prices, order


def search(
    net: StringHubNetwork, order: Sequence[int], prices: Prices, **kw: object
) -> LocalSearchResult:
    u, v, depot, scale = prices
    return reduced_cost_search(PairScore(net), net.words, order, u, v, depot, scale, **kw)  # type: ignore[arg-type]


def score(inst: WordsnakeInstance, order: Sequence[int]) -> int:
    return snake_score([inst.words[i] for i in order])


word = st.text(alphabet="abc", min_size=1, max_size=4)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(word, min_size=2, max_size=7),
    seed=st.integers(0, 10**6),
    random_prices=st.booleans(),
)
def test_the_search_never_loses_and_its_gain_is_the_words(
    words: list[str], seed: int, random_prices: bool
) -> None:
    inst = WordsnakeInstance(tuple(words))
    net, prices = relaxation_prices(inst)
    if random_prices:  # any prices: they only guide the search
        rng = np.random.default_rng(seed)
        k = len(net.words)
        scale = int(rng.integers(1, 5))
        depot = (int(rng.integers(-9, 9)), int(rng.integers(-9, 9)))
        prices = (rng.integers(-20, 20, k), rng.integers(-20, 20, k), depot, scale)
    order = list(range(inst.n))
    random.Random(seed).shuffle(order)
    done = search(net, order, prices)
    assert sorted(done.order) == list(range(inst.n))
    assert done.gain >= 0
    assert score(inst, done.order) == score(inst, order) + done.gain
    assert score(inst, done.order) <= brute_force(inst.words, False, False)
    if done.gain == 0:
        assert done.order == order


#: A list whose shuffled orders score 1 to 3 and whose optimum is 16 (chains reach it).
SEVEN = ("ca", "abb", "cbaa", "abbc", "c", "bcac", "b")


def seven_words_shuffled() -> tuple[WordsnakeInstance, StringHubNetwork, Prices, list[int]]:
    """:data:`SEVEN`, its relaxation's prices and the order ``random.Random(1)`` shuffles."""
    inst = WordsnakeInstance(SEVEN)
    net, prices = relaxation_prices(inst)
    order = list(range(inst.n))
    random.Random(1).shuffle(order)
    return inst, net, prices, order


def test_ejection_chains_alone_reach_the_optimum() -> None:
    # No segment may move: the chains give the ordering its tight joints, opening the cycles
    # they close (the shuffled orders score 1 to 3, the optimum 16).
    inst = WordsnakeInstance(SEVEN)
    net, prices = relaxation_prices(inst)
    assert brute_force(SEVEN, False, False) == 16
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ejection, "SEGMENT", 0)
        for seed in range(6):
            order = list(range(inst.n))
            random.Random(seed).shuffle(order)
            done = search(net, order, prices)
            assert score(inst, order) <= 3
            assert done.info["chains"] > 0 and done.info["segment_moves"] == 0
            assert score(inst, done.order) == 16


def test_segment_moves_alone_rebuild_a_chain_of_words() -> None:
    words = ("ab", "bc", "cd", "de", "ef", "fg")
    inst = WordsnakeInstance(words)
    net, prices = relaxation_prices(inst)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ejection._Search, "chain", lambda self, a, b: 0)
        for seed in range(10):
            order = list(range(inst.n))
            random.Random(seed).shuffle(order)
            done = search(net, order, prices)
            assert done.info["chains"] == 0
            assert [words[i] for i in done.order] == list(words)  # the only order scoring 5


def test_the_search_stops_at_its_target_and_its_deadline() -> None:
    inst, net, prices, order = seven_words_shuffled()
    done = search(net, order, prices, target=0)
    assert done.info["stopped"] == "target" and done.info["rounds"] == 1
    late = search(net, order, prices, deadline=time.perf_counter() - 1.0)
    assert late.info["stopped"] == "deadline" and late.order == order and late.gain == 0
    free = search(net, order, prices)
    assert free.info["stopped"] == "local optimum" and score(inst, free.order) == 16


def test_repeated_words_are_items_of_their_own() -> None:
    words = ("aba", "aba", "bab", "bab", "ab", "ba")
    inst = WordsnakeInstance(words)
    net, prices = relaxation_prices(inst)
    for seed in range(10):
        order = list(range(inst.n))
        random.Random(seed).shuffle(order)
        done = search(net, order, prices)
        assert sorted(done.order) == list(range(inst.n))
        assert score(inst, done.order) == score(inst, order) + done.gain
        assert score(inst, done.order) <= brute_force(words, False, False)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.text(alphabet="ab", min_size=1, max_size=5), min_size=2, max_size=7))
def test_the_pipeline_stays_exact_when_the_local_search_does_the_searching(
    words: list[str],
) -> None:
    # The refinement runs on large networks only (threshold at 0 here); with the pieces'
    # searches off, what the neighbourhood search gains is the local search's.
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(flow_state, "FORK_MIN_ARCS", 0)
        mp.setattr(neighbourhood.FamilySearch, "family_pass", lambda self, *a, **k: None)
        mp.setattr(neighbourhood.FamilySearch, "all_families", lambda self: None)
        inst = WordsnakeInstance(tuple(words))
        res = solve_exact(inst, time_limit=60, workers=1, certificate=True)
    assert_optimum_found(res, brute_force(inst.words, False, False))
    refinement = res.solver_info.get("refinement") or {}
    for run in refinement.get("neighbourhood_search", {}).get("local_search", []):
        assert run["gain"] >= 0 and run["stopped"] in ("target", "deadline", "local optimum")


def test_every_item_pair_is_priced_as_the_words_score() -> None:
    # The slack of a joint is its tail's u, its head's v, less the scaled score: summed over a
    # snake (with the depot's joints) it is the same constant less the scaled score.
    words = ("abc", "bca", "cab", "ab", "ca")
    inst = WordsnakeInstance(words)
    net, (u, v, depot, scale) = relaxation_prices(inst)
    prices = ejection._Prices(PairScore(net), u, v, depot, scale)
    totals = set()
    for perm in itertools.permutations(range(inst.n)):
        chain = [inst.n, *perm, inst.n]
        slack = sum(prices(a, b) for a, b in itertools.pairwise(chain))
        totals.add(slack + scale * score(inst, perm))
    assert len(totals) == 1


def test_ctrl_c_keeps_the_moves_made_before_it() -> None:
    inst, net, prices, order = seven_words_shuffled()
    real = ejection._Search.chain
    gains: list[int] = []

    def interrupted_after_a_gain(self: ejection._Search, a: int, b: int) -> int:
        if any(gains):
            raise KeyboardInterrupt
        gains.append(real(self, a, b))
        return gains[-1]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ejection, "SEGMENT", 0)
        mp.setattr(ejection._Search, "chain", interrupted_after_a_gain)
        done = search(net, order, prices)
    assert done.info["stopped"] == "interrupted"
    assert sorted(done.order) == list(range(inst.n))
    assert done.gain > 0 and score(inst, done.order) == score(inst, order) + done.gain


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.text(alphabet="abc", min_size=1, max_size=5), min_size=3, max_size=30),
    seed=st.integers(0, 10**6),
    cached=st.sampled_from([0, 3, ejection.CACHED_TIGHT]),
    random_prices=st.booleans(),
)
def test_the_tight_joints_kept_change_no_move(
    words: list[str], seed: int, cached: int, random_prices: bool
) -> None:
    # The answers of _Search.tight kept (any cap: emptied when full) give the search the same
    # moves as asking anew each time (the cache off: the cap at -1 empties it before each).
    inst, net, prices, order = _shuffled_case(words, seed, random_prices)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(ejection, "CACHED_TIGHT", -1)
        m.setattr(ejection._Search, "tight", _tight_anew)
        anew = search(net, order, prices)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(ejection, "CACHED_TIGHT", cached)
        kept = search(net, order, prices)
    assert kept.order == anew.order and kept.gain == anew.gain
    assert {k: kept.info[k] for k in ("segment_moves", "chains", "rounds")} == {
        k: anew.info[k] for k in ("segment_moves", "chains", "rounds")
    }
    # Every item's tight joints, both ways, asked twice in a shuffled order: as asked anew.
    with pytest.MonkeyPatch.context() as m:
        m.setattr(ejection, "CACHED_TIGHT", cached)
        kept_search, anew_search = _a_search(net, order, prices), _a_search(net, order, prices)
        asks = [(p, f) for p in range(inst.n + 1) for f in (True, False)] * 2
        random.Random(seed).shuffle(asks)
        for p, f in asks:
            assert np.array_equal(kept_search.tight(p, f), _tight_anew(anew_search, p, f))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.text(alphabet="abé", min_size=1, max_size=5), min_size=2, max_size=25),
    seed=st.integers(0, 10**6),
)
def test_the_tight_joints_are_those_of_the_definition(words: list[str], seed: int) -> None:
    # Items y with a joint p -> y of slack at most 0 at some overlap k >= 1 (y starts with p's
    # last k letters and v(y) <= scale * weight(k) - u(p)); backwards the same with y -> p.
    inst = WordsnakeInstance(tuple(words))
    net, _ = relaxation_prices(inst)
    rng = np.random.default_rng(seed)
    k = len(net.words)
    prices = (rng.integers(0, 30, k), rng.integers(0, 30, k), (0, 0), int(rng.integers(1, 3)))
    found = _a_search(net, list(range(inst.n)), prices)
    u, v, _, scale = prices
    word_of = np.asarray(PairScore(net).item_word)
    for p in range(inst.n):
        w = inst.words[p]
        for forward in (True, False):
            want = set()
            for y in range(inst.n):
                x = inst.words[y]
                for j in range(1, len(w) + 1):
                    fits = x.startswith(w[-j:]) if forward else x.endswith(w[:j])
                    own, its = (
                        (u[word_of[p]], v[word_of[y]])
                        if forward
                        else (v[word_of[p]], u[word_of[y]])
                    )
                    if y != p and fits and its <= scale * inst.weight(j) - own:
                        want.add(y)
            got = found.tight(p, forward)
            assert sorted(got.tolist()) == sorted(want) and len(set(got.tolist())) == got.size


def _a_search(net: StringHubNetwork, order: Sequence[int], prices: Prices) -> ejection._Search:
    """The search :func:`reduced_cost_search` would run (before its first round)."""
    u, v, depot, scale = prices
    pair = PairScore(net)
    price = ejection._Prices(pair, u, v, depot, scale)
    cand = ejection._Candidates(net.words, u, v, np.asarray(pair.item_word)[: pair.n])
    return ejection._Search(pair, price, cand, ejection._Snake(order, pair.n), None)


_tight_kept = ejection._Search.tight


def _tight_anew(self: ejection._Search, p: int, forward: bool) -> np.ndarray:
    """:meth:`_Search.tight` with nothing kept."""
    self._tight.clear()
    self._tight_size = 0
    return _tight_kept(self, p, forward)


def _random_search(words: list[str], seed: int) -> tuple[StringHubNetwork, Prices, list[int]]:
    """A list's network, random prices (more joints of positive slack) and a shuffled order."""
    inst = WordsnakeInstance(tuple(words))
    net, _ = relaxation_prices(inst)
    rng = np.random.default_rng(seed)
    k = len(net.words)
    prices = (rng.integers(0, 30, k), rng.integers(0, 30, k), (0, 0), 1)
    order = list(range(inst.n))
    random.Random(seed).shuffle(order)
    return net, prices, order


def _segment_move_one_place_at_a_time(self: ejection._Search, a: int, b: int) -> int:
    """:meth:`_Search.segment_move` as first written: each place priced in a loop."""
    nxt, prv, n = self.snake.nxt, self.snake.prv, self.n
    best = (0, -1, -1, -1)
    runs: list[tuple[int, int]] = []
    last = b
    while last != n and len(runs) < ejection.SEGMENT:
        runs.append((b, last))
        last = nxt[last]
    first = a
    for _ in range(ejection.SEGMENT):
        if first == n:
            break
        runs.append((first, a))
        first = prv[first]
    for f, ll in runs:
        p0, q0 = prv[f], nxt[ll]
        out = self.joint[p0] + self.joint[ll] - self.s(p0, q0)
        if out <= best[0]:
            continue
        inside = self._run_items(f, ll)
        for p in self._places(f, ll):
            q = nxt[p]
            if p in inside or q in inside or p == p0:
                continue
            gain = out - (self.s(p, f) + self.s(ll, q) - self.joint[p])
            if gain > best[0]:
                best = (gain, f, ll, p)
    gain, f, ll, p = best
    if gain <= 0:
        return 0
    p0, q0, q = prv[f], nxt[ll], nxt[p]
    self.snake.link(p0, q0)
    self.snake.link(p, f)
    self.snake.link(ll, q)
    self._relinked((p0, p, ll))
    return gain


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.text(alphabet="abc", min_size=1, max_size=5), min_size=3, max_size=30),
    seed=st.integers(0, 10**6),
)
def test_segment_moves_priced_at_once_are_those_priced_one_at_a_time(
    words: list[str], seed: int
) -> None:
    # Every place of a run priced in one array pass makes the moves, in the same order, that
    # pricing one place at a time makes (any prices: more joints of positive slack).
    net, prices, order = _random_search(words, seed)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(ejection._Search, "chain", lambda self, a, b: 0)
        at_once = search(net, order, prices)
        m.setattr(ejection._Search, "segment_move", _segment_move_one_place_at_a_time)
        one_by_one = search(net, order, prices)
    assert at_once.order == one_by_one.order and at_once.gain == one_by_one.gain
    assert at_once.info["segment_moves"] == one_by_one.info["segment_moves"]


def _splice_one_place_at_a_time(
    self: ejection._Search, cycle: list[int], on_path: Any, saved: dict[int, Any]
) -> int:
    """:meth:`_Search._splice` as first written: each exchange priced in a loop."""
    snake, s = self.snake, self.s
    best = None
    for c1 in cycle:
        c2 = snake.nxt[c1]
        here = s(c1, c2)
        for q in self._successor_places(c1):
            if not on_path(q):
                continue
            p = snake.prv[q]
            cost = s(p, c2) + s(c1, q) - here - s(p, q)
            if best is None or cost < best[0]:
                best = (cost, c1, c2, p, q)
        if best is not None and best[0] <= 0:
            break
    assert best is not None
    cost, c1, c2, p, q = best
    for x in (c1, c2, p, q):
        saved.setdefault(x, (snake.nxt[x], snake.prv[x]))
    snake.link(p, c2)
    snake.link(c1, q)
    return int(cost)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.text(alphabet="abc", min_size=1, max_size=5), min_size=3, max_size=40),
    seed=st.integers(0, 10**6),
    batch=st.sampled_from([1, 3, ejection.SPLICE_BATCH]),
)
def test_cycles_opened_at_once_are_those_opened_one_place_at_a_time(
    words: list[str], seed: int, batch: int
) -> None:
    # The exchanges of a batch of a cycle's items priced in one array pass open every cycle
    # a chain closed where pricing one exchange at a time opens it.
    net, prices, order = _random_search(words, seed)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(ejection, "SPLICE_BATCH", batch)
        m.setattr(ejection._Search, "segment_move", lambda self, a, b: 0)
        at_once = search(net, order, prices)
        m.setattr(ejection._Search, "_splice", _splice_one_place_at_a_time)
        one_by_one = search(net, order, prices)
    assert at_once.order == one_by_one.order and at_once.gain == one_by_one.gain
    assert at_once.info["chains"] == one_by_one.info["chains"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.text(alphabet="abé", min_size=1, max_size=6), min_size=2, max_size=30),
    seed=st.integers(0, 10**6),
    random_prices=st.booleans(),
)
def test_the_search_on_arrays_makes_the_moves_of_the_search_on_lists(
    words: list[str], seed: int, random_prices: bool
) -> None:
    # Links, prices and slacks in machine-integer arrays, each word's items in two arrays: the
    # same ordering, gain and moves as the search on lists (any words: repeated, inside others).
    _, net, prices, order = _shuffled_case(words, seed, random_prices)
    u, v, depot, scale = prices
    got = search(net, order, prices)
    want = local_search_reference.reduced_cost_search(
        PairScore(net),
        net.words,
        order,
        u,
        v,
        depot,
        scale,
    )
    assert got.order == want.order and got.gain == want.gain
    keys = ("segment_moves", "chains", "rounds", "stopped")
    assert {k: got.info[k] for k in keys} == {k: want.info[k] for k in keys}
