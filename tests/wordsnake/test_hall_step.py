"""The Hungarian dual step on a certificate (models/hall_step.py): every certificate it returns
is checked VALID by the independent checker and bounds the brute-force optimum, it never
raises the bound, and without cuts its steps reach the assignment relaxation's optimum."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from cpwords.wordsnake.bounds.hall_step import hall_step
from cpwords.wordsnake.certificate import Certificate, verify_certificate, word_fingerprint
from cpwords.wordsnake.rules import pair_overlap, snake_score

word = st.text(alphabet="abc", min_size=1, max_size=4)
distinct = st.lists(word, min_size=2, max_size=6, unique=True)


def _gain(k: int, score: str) -> int:
    return k * k if score == "squared" else k


def loose_certificate(
    words: Sequence[str],
    rng: random.Random,
    cuts: bool,
    score: str = "squared",
    mult: Sequence[int] | None = None,
) -> Certificate:
    """A valid certificate built from random ``v`` and cuts, ``u`` the smallest that keeps
    every inequality: usually far above the optimum. The ordering is random; ``mult``: the
    copies of each word (a word to itself is then a joint too)."""
    W = len(words)
    mult = [1] * W if mult is None else list(mult)
    D = rng.choice((1, 3, 64))
    cut_sets: list[tuple[tuple[int, ...], int]] = []
    if cuts:
        for _ in range(rng.randint(0, 2)):
            ids = tuple(sorted(rng.sample(range(W), rng.randint(1, W - 1))))
            cut_sets.append((ids, rng.randint(0, 3) * D + rng.randint(0, D)))
    v = [rng.randint(-2 * D, 4 * D) for _ in range(W)]
    vd = rng.randint(-2 * D, 2 * D)

    def term(a: int, b: int) -> int:
        return sum(lam for ids, lam in cut_sets if b in ids and a not in ids)

    u = []
    for a in range(W):
        need = [
            D * _gain(pair_overlap(words[a], words[b]), score) + term(a, b) - v[b]
            for b in range(W)
            if b != a or mult[a] > 1
        ]
        u.append(max([*need, -vd]) + rng.choice((0, 0, 0, 1, D)))
    ud = max(term(-1, b) - v[b] for b in range(W))
    order = [i for i in range(W) for _ in range(mult[i])]
    rng.shuffle(order)
    objective = snake_score([words[i] for i in order], False, False, score=score)
    return Certificate(
        fingerprint=word_fingerprint([words[i] for i in order]),
        items=len(order),
        cyclic=False,
        proper=False,
        scale=D,
        u=tuple(u),
        v=tuple(v),
        depot=(ud, vd),
        cuts=tuple(cut_sets),
        order=tuple(order),
        bound=10**9,
        objective=objective,
        score=score,
    )


def brute_force(words: Sequence[str], score: str = "squared") -> int:
    return max(snake_score(p, False, False, score=score) for p in itertools.permutations(words))


def assignment_optimum(words: Sequence[str], score: str) -> int:
    """The assignment relaxation with the depot: every item (a word's copies are items) one
    successor and predecessor."""
    W = len(words)
    big = 10**6
    w = np.zeros((W + 1, W + 1), dtype=np.int64)
    for a, b in itertools.product(range(W), repeat=2):  # two copies of a word are a joint
        w[a, b] = -big if a == b else _gain(pair_overlap(words[a], words[b]), score)
    w[W, W] = -big
    rows, cols = linear_sum_assignment(w, maximize=True)
    return int(w[rows, cols].sum())


def values_bound(cert: Certificate) -> int:
    return cert.dual_value([1] * len(cert.u)) // cert.scale


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(distinct, st.integers(0, 10**6), st.booleans(), st.sampled_from(["squared", "linear"]))
def test_a_stepped_certificate_is_valid_and_bounds_the_optimum(
    words: list[str], seed: int, cuts: bool, score: str
) -> None:
    words = sorted(words)
    cert = loose_certificate(words, random.Random(seed), cuts, score)
    assert verify_certificate(words, cert).status == "VALID"
    new = hall_step(cert, words)
    optimum = brute_force(words, score)
    if new is None:
        return
    found = verify_certificate(words, new)
    assert found.status == "VALID", found.message
    assert found.bound is not None and found.bound >= optimum
    assert new.dual_value([1] * len(words)) < cert.dual_value([1] * len(words))
    assert new.bound == found.bound  # the claim is the values' (the input claimed more)
    assert new.producer["hall_steps"] >= 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(distinct, st.integers(0, 10**6), st.sampled_from(["squared", "linear"]))
def test_without_cuts_the_steps_reach_the_assignment_optimum(
    words: list[str], seed: int, score: str
) -> None:
    """Hungarian steps until the zero-slack joints match perfectly: the duals are then optimal
    for the assignment relaxation (or the bound met the ordering, which the optimum bounds)."""
    words = sorted(words)
    cert = loose_certificate(words, random.Random(seed), cuts=False, score=score)
    new = hall_step(cert, words)
    final = cert if new is None else new
    assert values_bound(final) == assignment_optimum(words, score)


def test_steps_happen_and_a_gap_can_close() -> None:
    """The step is not idle: on seeded lists it lowers loose bounds, and on some of them down
    to the ordering (a VALID certificate of an optimal ordering)."""
    rng = random.Random(7)
    lowered = closed = 0
    for _ in range(60):
        words = sorted(
            set(rng.choice(("a", "b", "ab", "ba", "abc", "ca", "bca", "cab")) for _ in range(5))
        )
        if len(words) < 2:
            continue
        cert = loose_certificate(words, rng, cuts=False)
        new = hall_step(cert, words)
        if new is None:
            continue
        lowered += 1
        found = verify_certificate(words, new)
        assert found.status == "VALID"
        closed += found.optimal
    assert lowered >= 20 and closed >= 1


def test_steps_with_a_cut_set_as_one_node_are_valid() -> None:
    """Seeded lists with random cuts: the steps that move a cut's multiplier (a cut set taken as
    one node) happen, and every stepped certificate checks VALID above the optimum."""
    rng = random.Random(3)
    moved = 0
    pool = ("a", "b", "ab", "ba", "abc", "ca", "bca", "cab", "bb", "aab")
    for _ in range(150):
        words = sorted(set(rng.choice(pool) for _ in range(rng.randint(3, 7))))
        if len(words) < 2:
            continue
        cert = loose_certificate(words, rng, cuts=True)
        new = hall_step(cert, words)
        if new is None:
            continue
        found = verify_certificate(words, new)
        assert found.status == "VALID", found.message
        assert found.bound is not None and found.bound >= brute_force(words)
        assert new.dual_value([1] * len(words)) < cert.dual_value([1] * len(words))
        moved += [lam for _, lam in new.cuts] != [lam for _, lam in cert.cuts]
    assert moved >= 5


listed = st.lists(word, min_size=2, max_size=6).filter(lambda ws: len(set(ws)) >= 2)


def _distinct_and_copies(items: list[str]) -> tuple[list[str], list[int]]:
    words = sorted(set(items))
    return words, [items.count(w) for w in words]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(listed, st.integers(0, 10**6), st.booleans(), st.sampled_from(["squared", "linear"]))
def test_with_repeated_words_a_stepped_certificate_is_valid_and_bounds_the_optimum(
    items: list[str], seed: int, cuts: bool, score: str
) -> None:
    """A word listed several times is one node of capacity its copies: every stepped
    certificate checks VALID and bounds the brute-force optimum of the items."""
    words, mult = _distinct_and_copies(items)
    cert = loose_certificate(words, random.Random(seed), cuts, score, mult)
    assert verify_certificate(items, cert).status == "VALID"
    new = hall_step(cert, words)
    if new is None:
        return
    found = verify_certificate(items, new)
    assert found.status == "VALID", found.message
    assert found.bound is not None and found.bound >= brute_force(items, score)
    assert new.dual_value(mult) < cert.dual_value(mult)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(listed, st.integers(0, 10**6), st.sampled_from(["squared", "linear"]))
def test_with_repeated_words_the_steps_reach_the_assignment_optimum(
    items: list[str], seed: int, score: str
) -> None:
    """Without cuts, the b-matching steps end where the assignment relaxation of the items
    (every copy its own row and column) has its optimum."""
    words, mult = _distinct_and_copies(items)
    cert = loose_certificate(words, random.Random(seed), False, score, mult)
    new = hall_step(cert, words)
    final = cert if new is None else new
    assert final.dual_value(mult) // final.scale == assignment_optimum(sorted(items), score)


def test_steps_happen_on_repeated_words() -> None:
    """Seeded lists with copies: the step lowers loose bounds there too."""
    rng = random.Random(11)
    lowered = 0
    for _ in range(60):
        items = [rng.choice(("a", "ab", "ba", "bab", "aa")) for _ in range(rng.randint(3, 6))]
        words, mult = _distinct_and_copies(items)
        if len(words) < 2 or max(mult) < 2:
            continue
        cert = loose_certificate(words, rng, cuts=False, mult=mult)
        new = hall_step(cert, words)
        if new is not None:
            lowered += 1
            assert verify_certificate(items, new).status == "VALID"
    assert lowered >= 10


def test_refused_cases_return_none() -> None:
    words = ["ab", "ba", "bc"]
    cert = loose_certificate(words, random.Random(1), cuts=False)
    from dataclasses import replace

    assert hall_step(replace(cert, cyclic=True, depot=None), words) is None
    assert hall_step(replace(cert, proper=True), words) is None
    assert hall_step(replace(cert, order=(0, 0, 1), items=3), words) is None  # a word missing
    # a certificate whose bound already meets the ordering: nothing to do
    assert hall_step(replace(cert, objective=values_bound(cert)), words) is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(distinct, st.integers(0, 10**6))
def test_the_smallest_slacks_in_and_out_equal_the_pairwise_ones(
    words: list[str], seed: int
) -> None:
    """The range queries of the step size (cut mates counted exactly) against every pair."""
    from cpwords.wordsnake.bounds import hall_step as hs

    words = sorted(words)
    rng = random.Random(seed)
    duals = hs._Duals(loose_certificate(words, rng, cuts=True), words, [1] * len(words))
    W = len(words)
    leave = set(rng.sample(range(W), rng.randint(0, W - 1)))
    tree = hs._MinTree([hs._INF if b in leave else duals.vp(b) for b in range(W)])
    for x in range(W):
        others = [y for y in range(W) if y != x and y not in leave]
        expect = min((duals.slack(x, y) for y in others), default=hs._INF)
        assert hs._out_min(duals, tree, x, leave) == expect
        expect = min((duals.slack(y, x) for y in others), default=hs._INF)
        assert hs._in_min(duals, x, leave) == expect


def test_the_certificate_stage_does_not_search_hall_steps_again() -> None:
    # The neighbourhood search's Hall steps ran to their end without a step from these values
    # and this ordering: the certificate stage skips them; any other values or ordering, or
    # none recorded, and it searches.
    from types import SimpleNamespace
    from typing import Any

    from cpwords.wordsnake.exact.stages.certificate import _hall_done

    def cert(order: tuple[int, ...], u: tuple[int, ...] = (3, 1, 2)) -> Any:
        return SimpleNamespace(u=u, v=(0, 2, 1), depot=(0, 0), scale=1, cuts=(), order=order)

    done = cert((2, 0, 1))
    state: Any = SimpleNamespace(additive=SimpleNamespace(hall_done=(done, np.array([2, 0, 1]))))
    assert _hall_done(state, cert((2, 0, 1)))
    assert not _hall_done(state, cert((0, 2, 1)))
    assert not _hall_done(state, cert((2, 0, 1), u=(3, 1, 3)))
    for other in (SimpleNamespace(hall_done=None), None):
        assert not _hall_done(SimpleNamespace(additive=other), done)  # type: ignore[arg-type]
