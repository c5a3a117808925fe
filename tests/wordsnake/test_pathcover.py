"""Additive bounding (path cover of the subtours' neighbourhood) and the neighbourhood search:
every bound is checked VALID by the independent checker and is never below the brute-force optimum,
the search never loses score, and the whole pipeline with both stays exact on tiny lists."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.bounds.path_cover import (
    PathCoverBound,
    _cover,
    _displaced,
    _useful_arcs,
    neighbourhood,
    path_cover_bound,
)
from cpwords.wordsnake.certificate import Certificate, verify_certificate
from cpwords.wordsnake.exact import state as flow_state
from cpwords.wordsnake.exact.methods import solve_exact
from cpwords.wordsnake.exact.policy import solve_string_flow
from cpwords.wordsnake.primal import lns
from cpwords.wordsnake.primal.lns import reorder_pieces
from cpwords.wordsnake.primal.repair import PairScore
from cpwords.wordsnake.relaxation.decode import decode_flow
from cpwords.wordsnake.relaxation.dual_certificate import flow_certificate
from cpwords.wordsnake.relaxation.string_hub import (
    DeadlineReached,
    StringHubNetwork,
    build_string_network,
)
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score
from tests.wordsnake.checked import assert_optimum_found

word = st.text(alphabet="ab", min_size=1, max_size=5)
small = st.lists(word, min_size=2, max_size=7)


def brute_force(words: Sequence[str], cyclic: bool, proper: bool) -> int:
    return max(snake_score(p, cyclic, proper) for p in itertools.permutations(words))


def first_certificate(
    inst: WordsnakeInstance,
) -> tuple[StringHubNetwork, Certificate, list[int]]:
    """The relaxation's certificate and the words of its subtours (the path cover's seeds)."""
    net = build_string_network(inst)
    out = solve_string_flow(net, lagrangian_iterations=0)
    assert out.dual is not None and out.order is not None and out.objective is not None
    order = [inst.words[i] for i in out.order]
    bound = out.dual.value_scaled // out.dual.scale
    cert = flow_certificate(net, out.dual, order, out.objective, bound)
    dec = decode_flow(net, out.dual.flows)
    n = inst.n
    comp = dec.comp
    main = comp[n] if not inst.cyclic else Counter(comp[:n]).most_common(1)[0][0]
    seeds = sorted({int(net.item_word[i]) for i in range(n) if comp[i] != main})
    return net, cert, seeds


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=small,
    cyclic=st.booleans(),
    proper=st.booleans(),
    everything=st.booleans(),
    cap=st.sampled_from([0, 2, 50]),
    displaced=st.booleans(),
)
def test_path_cover_bound_is_valid_and_sound(
    words: list[str], cyclic: bool, proper: bool, everything: bool, cap: int, displaced: bool
) -> None:
    assume(len(set(words)) > 1)  # one distinct word is the pipeline's special case
    inst = WordsnakeInstance(tuple(words), cyclic, proper)
    net, cert, seeds = first_certificate(inst)
    if everything:  # every word in F: the strongest cover, the hardest test of validity
        seeds = list(range(len(net.words)))
    relaxed = relaxed_joints(net, inst) if displaced else None
    pc = path_cover_bound(cert, net.words, net.mult.tolist(), seeds, cap=cap, relaxed=relaxed)
    once = path_cover_bound(cert, net.words, net.mult.tolist(), seeds, cap=cap, grow=0)
    assert pc.bound <= once.bound  # growing F keeps the best round
    optimum = brute_force(inst.words, cyclic, proper)
    first = cert.dual_value(net.mult.tolist()) // cert.scale
    assert optimum <= pc.bound <= pc.lp_bound <= first
    check = verify_certificate(inst.words, pc.certificate)
    assert check.status in ("VALID", "PARTIAL"), check.message
    assert check.bound is not None and check.bound >= optimum
    assert check.bound == pc.lp_bound
    # PARTIAL exactly when the bound rests on branching beyond the certified relaxation.
    assert (check.status == "PARTIAL") == (pc.certificate.bound < pc.lp_bound)


def relaxed_joints(net: StringHubNetwork, inst: WordsnakeInstance) -> tuple[np.ndarray, np.ndarray]:
    """Word successors and predecessors of the relaxation's decoded flow (-1: the depot)."""
    out = solve_string_flow(net, lagrangian_iterations=0)
    assert out.dual is not None
    dec = decode_flow(net, out.dual.flows)
    succ = np.full(len(net.words), -1, dtype=np.int64)
    pred = np.full(len(net.words), -1, dtype=np.int64)
    for i in range(inst.n):
        j = dec.succ[i]
        a = int(net.item_word[i])
        b = int(net.item_word[j]) if j < inst.n else -1
        succ[a] = b
        if b >= 0:
            pred[b] = a
    return succ, pred


@pytest.mark.slow
def test_displaced_words_are_the_relaxations_lost_partners() -> None:
    # A word outside F that the relaxation joins to a word of F, which the cover joins to
    # another word, must re-join too: the growth takes it into F (the cover assumed it free).
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        words = tuple("".join(rng.choice("ab") for _ in range(rng.randint(1, 5))) for _ in range(7))
        inst = WordsnakeInstance(words)
        if len(set(words)) < 2:
            continue
        net, cert, seeds = first_certificate(inst)
        if not seeds:
            continue
        relaxed = relaxed_joints(net, inst)
        pc = path_cover_bound(cert, net.words, net.mult.tolist(), seeds, cap=0, grow=0)
        F = pc.neighbourhood.tolist()
        at = {w: i for i, w in enumerate(F)}
        expected = set()
        for w in F:
            for mine, cover in (
                (relaxed[0][w], pc.cover_next[at[w]]),
                (relaxed[1][w], pc.cover_prev[at[w]]),
            ):
                if mine >= 0 and mine != cover and mine not in at:
                    expected.add(int(mine))
        assert set(_displaced(pc, relaxed).tolist()) == expected
        found += len(expected)
        grown = path_cover_bound(cert, net.words, net.mult.tolist(), seeds, cap=0, relaxed=relaxed)
        assert brute_force(inst.words, False, False) <= grown.bound <= pc.bound
    assert found > 0  # some lists displace words: the comparison above was not vacuous


def test_path_cover_closes_a_subtour_gap() -> None:
    # The relaxation scores 35 with a subtour; the best snake scores 32, and so does the cover.
    inst = WordsnakeInstance(("aa", "aaabb", "abab", "abbb", "bbaa", "bbba"))
    net, cert, seeds = first_certificate(inst)
    assert seeds
    optimum = brute_force(inst.words, False, False)
    first = cert.dual_value(net.mult.tolist()) // cert.scale
    pc = path_cover_bound(cert, net.words, net.mult.tolist(), seeds)
    assert (first, optimum) == (35, 32)
    assert pc.bound == optimum
    assert verify_certificate(inst.words, pc.certificate).status == "VALID"


def test_cover_of_a_two_cycle_with_a_tail() -> None:
    # 0 <-> 1 at slack 0, 1 -> 2 at slack 1; starting costs 5, 7, 3; ending 6, 4, 2.
    nodes = np.arange(3)
    res = _cover(
        nodes,
        np.array([0, 1, 1]),
        np.array([1, 0, 2]),
        np.array([0, 0, 1]),
        np.array([5, 7, 3]),
        np.array([6, 4, 2]),
    )
    # The cycle is cut: the best cover is the path 0 -> 1 -> 2 (5 + 0 + 1 + 2).
    assert res["lp"] == pytest.approx(8.0)
    assert res["int"] == pytest.approx(8.0)
    assert res["cuts"] and sorted(res["cuts"][0][0]) == [0, 1]
    assert res["starts"].tolist() == [0] and res["ends"].tolist() == [2]


def test_the_cover_keeps_the_deadline() -> None:
    # A deadline already past stops the cover (it used to give HiGHS a fixed 30 s per MIP and
    # no limit per LP: a wide neighbourhood ran 9.6 s past a 150 s limit on a whole language).
    import time

    inst = WordsnakeInstance(("aa", "aaabb", "abab", "abbb", "bbaa", "bbba"))
    net, cert, seeds = first_certificate(inst)
    with pytest.raises(DeadlineReached):
        path_cover_bound(cert, net.words, net.mult.tolist(), seeds, deadline=time.perf_counter())
    with pytest.raises(DeadlineReached):
        _cover(
            np.arange(3),
            np.array([0, 1, 1]),
            np.array([1, 0, 2]),
            np.array([0, 0, 1]),
            np.array([5, 7, 3]),
            np.array([6, 4, 2]),
            deadline=time.perf_counter() - 1.0,
        )
    # With time left the same cover is solved as before.
    pc = path_cover_bound(
        cert, net.words, net.mult.tolist(), seeds, deadline=time.perf_counter() + 60.0
    )
    assert pc.bound == 32


def test_neighbourhood_holds_the_seeds_and_the_overlapping_words() -> None:
    words = sorted(["haha", "hahaha", "ahoy", "hat", "zebra", "aha"])
    seeds = [words.index("haha")]
    chosen = {words[i] for i in neighbourhood(words, seeds, cap=50).tolist()}
    assert {"haha", "hahaha", "aha", "hat"} <= chosen  # strings "ha", "aha", "haha"
    assert "zebra" not in chosen
    assert {words[i] for i in neighbourhood(words, seeds, cap=0).tolist()} == {"haha"}


def _best_order(sub: WordsnakeInstance, _limit: float | None) -> tuple[list[str] | None, bool]:
    best = max(itertools.permutations(sub.words), key=lambda p: snake_score(p, sub.cyclic, False))
    return list(best), True


@pytest.mark.parametrize("cyclic", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_reorder_pieces_never_loses_and_recounts(seed: int, cyclic: bool) -> None:
    rng = random.Random(seed)
    words = tuple("".join(rng.choice("ab") for _ in range(rng.randint(1, 5))) for _ in range(8))
    inst = WordsnakeInstance(words, cyclic=cyclic)
    net = build_string_network(inst)
    pair = PairScore(net)
    order = list(range(inst.n))
    rng.shuffle(order)
    focus = set(rng.sample(range(inst.n), 3))
    done = reorder_pieces(inst, order, focus, pair, _best_order)
    assert sorted(done.order) == list(range(inst.n))
    assert done.objective == snake_score([inst.words[i] for i in done.order], cyclic, False)
    assert done.objective >= snake_score([inst.words[i] for i in order], cyclic, False)
    # The runs between focus items are kept whole.
    assert done.info["pieces"] <= 2 * len(focus) + 1


@pytest.mark.parametrize("seed", range(8))
def test_reorder_pieces_of_every_item_is_the_optimum(seed: int) -> None:
    rng = random.Random(100 + seed)
    words = tuple("".join(rng.choice("abc") for _ in range(rng.randint(1, 4))) for _ in range(6))
    inst = WordsnakeInstance(words)
    net = build_string_network(inst)
    order = list(range(inst.n))
    done = reorder_pieces(inst, order, set(order), PairScore(net), _best_order)
    assert done.objective == brute_force(words, False, False)


@settings(max_examples=200, deadline=None)
@given(
    size=st.integers(1, 12),
    data=st.data(),
    cyclic=st.booleans(),
)
def test_the_pieces_are_the_focus_items_alone_and_the_runs_between(
    size: int, data: st.DataObject, cyclic: bool
) -> None:
    # Written out in order, the pieces are the ordering (a cyclic one from its first focus
    # item on); each focus item is a piece alone, every other piece a maximal run without one.
    order = data.draw(st.permutations(range(size)))
    focus = data.draw(st.sets(st.sampled_from(range(size)), min_size=1))
    pos = {x: i for i, x in enumerate(order)}
    pieces = lns._cut(size, np.array(sorted(pos[x] for x in focus)), cyclic)
    items = [[order[i] for lo, hi in p for i in range(lo, hi)] for p in pieces]
    first = min(pos[x] for x in focus) if cyclic else 0
    assert [x for p in items for x in p] == order[first:] + order[:first]
    for a, b in itertools.pairwise(items):
        assert a[0] in focus or b[0] in focus  # two runs are never side by side
    for p in items:
        assert (len(p) == 1 and p[0] in focus) or not set(p) & focus


def test_reorder_pieces_leaves_proper_snakes_alone() -> None:
    inst = WordsnakeInstance(("abc", "bcd", "cde"), proper=True)
    net = build_string_network(inst)
    done = reorder_pieces(inst, [2, 1, 0], {0, 1, 2}, PairScore(net), _best_order)
    assert done.order == [2, 1, 0] and done.info["pieces"] == 0


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=small, cyclic=st.booleans())
def test_pipeline_with_the_refinement_stays_exact(words: list[str], cyclic: bool) -> None:
    # The refinement runs on large networks only; with the threshold at 0 it runs on these.
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(flow_state, "FORK_MIN_ARCS", 0)
        inst = WordsnakeInstance(tuple(words), cyclic)
        res = solve_exact(inst, time_limit=60, workers=1, certificate=True)
    optimum = brute_force(inst.words, cyclic, False)
    assert_optimum_found(res, optimum)
    cert = res.solver_info["certificate"]
    if cert is not None:
        check = verify_certificate(inst.words, cert)
        assert check.status in ("VALID", "PARTIAL") and check.bound is not None
        assert check.bound >= optimum and res.bound == check.bound


def test_pipeline_proves_a_subtour_list_by_the_additive_bound() -> None:
    words = ("aa", "aaabb", "abab", "abbb", "bbaa", "bbba")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(flow_state, "FORK_MIN_ARCS", 0)
        res = solve_exact(
            WordsnakeInstance(words),
            time_limit=60,
            workers=1,
            certificate=True,
            lagrangian_iterations=0,
        )
    assert res.is_optimal and res.objective == 32
    refinement = res.solver_info["refinement"]
    assert refinement["first_bound"] == 35 and refinement["bound"] == 32
    check = verify_certificate(words, res.solver_info["certificate"])
    assert check.status == "VALID" and check.optimal and check.bound == 32


def test_ctrl_c_in_the_neighbourhood_search_keeps_the_best_ordering() -> None:
    # Ctrl-C inside a pieces' solve stops the search and the flow stage (it used to go on to
    # the next family): the result is marked interrupted and keeps a checked ordering.
    from cpwords.wordsnake.exact.stages import additive_bound as additive
    from cpwords.wordsnake.exact.stages import neighbourhood_search as neighbourhood

    words = ("aa", "aaabb", "abab", "abbb", "bbaa", "bbba")

    def interrupted(*_args: object, **_kwargs: object) -> object:
        raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(flow_state, "FORK_MIN_ARCS", 0)
        mp.setattr(neighbourhood, "reorder_pieces", interrupted)
        weaker = _weaker_bound(additive.path_cover_bound)
        mp.setattr(additive, "path_cover_bound", weaker)
        mp.setattr(neighbourhood, "path_cover_bound", weaker)
        res = solve_exact(WordsnakeInstance(words), time_limit=60, workers=1)
    assert res.solver_info["interrupted"] is True
    assert res.solver_info["refinement"]["interrupted"] is True
    assert res.objective == snake_score(res.solution, False, False)
    assert res.bound is not None and res.objective <= res.bound
    # The additive bound is kept (the checked certificate may prove less than it claims).
    assert res.solver_info["solver_bound"] == res.solver_info["refinement"]["bound"]
    assert res.bound <= res.solver_info["refinement"]["bound"]


def test_a_hall_step_on_the_incumbent_closes_the_cover_gap() -> None:
    # The cover's certificate loosened by one point (one word's u raised by a whole point, the
    # bound with it): the neighbourhood search's Hall step on the incumbent lowers it back, and
    # the answer is proven by that certificate, checked VALID, at the brute-force optimum.
    from cpwords.wordsnake.exact.stages import additive_bound as additive
    from cpwords.wordsnake.exact.stages import neighbourhood_search as neighbourhood

    words = ("aa", "aaabb", "abab", "abbb", "bbaa", "bbba")
    best = max(snake_score(p, False, False) for p in itertools.permutations(words))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(flow_state, "FORK_MIN_ARCS", 0)
        looser = _looser_certificate(additive.path_cover_bound)
        mp.setattr(additive, "path_cover_bound", looser)
        mp.setattr(neighbourhood, "path_cover_bound", looser)
        res = solve_exact(WordsnakeInstance(words), time_limit=60, workers=1, certificate=True)
    refinement = res.solver_info["refinement"]
    assert refinement["hall_bound"] == best
    assert res.is_optimal and res.objective == best
    search = refinement["neighbourhood_search"]
    assert search["hall_steps"][0]["steps"] >= 1 and search["hall_steps"][0]["bound"] == best
    # Each step's end, score and bound as the search went: times and scores never fall, the
    # bound never rises, and the last mark is the answer.
    marks = search["steps"]
    assert [m["step"] for m in marks][:3] == ["families", "local search", "hall steps"]
    assert all(a["end"] <= b["end"] and a["score"] <= b["score"] for a, b in pairwise(marks))
    assert all(a["bound"] >= b["bound"] for a, b in pairwise(marks))
    assert marks[-1]["score"] == marks[-1]["bound"] == best
    check = verify_certificate(words, res.solver_info["certificate"])
    assert check.status == "VALID" and check.optimal and check.bound == best


def _looser_certificate(real: Callable[..., PathCoverBound]) -> Callable[..., PathCoverBound]:
    """The real bound with its certificate one point looser: the first word's ``u`` raised by
    ``scale`` (every inequality still holds), the bound one point higher."""

    def bound(*args: object, **kwargs: object) -> PathCoverBound:
        pc = real(*args, **kwargs)
        cert = pc.certificate
        u = list(cert.u)
        u[0] += cert.scale
        pc.certificate = replace(cert, u=tuple(u), bound=cert.bound + 1)
        pc.bound += 1
        pc.lp_bound += 1
        return pc

    return bound


def _weaker_bound(real: Callable[..., PathCoverBound]) -> Callable[..., PathCoverBound]:
    """The real bound, one point higher: the search then has a gap to close and runs."""

    def bound(*args: object, **kwargs: object) -> PathCoverBound:
        pc = real(*args, **kwargs)
        pc.bound += 1
        return pc

    return bound


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=small, cyclic=st.booleans(), everything=st.booleans())
def test_the_reported_cover_is_a_path_cover_of_its_cost(
    words: list[str], cyclic: bool, everything: bool
) -> None:
    # cover_next / cover_prev describe paths through F (no cycle, every word once) whose joints,
    # starts and ends cost exactly the integer cover's slack.
    assume(len(set(words)) > 1)
    inst = WordsnakeInstance(tuple(words), cyclic)
    net, cert, seeds = first_certificate(inst)
    if everything:
        seeds = list(range(len(net.words)))
    pc = path_cover_bound(cert, net.words, net.mult.tolist(), seeds, grow=0)
    F = pc.neighbourhood.tolist()
    assume(F)
    # A cyclic snake with every word in F has no word outside to start a path: no cover.
    assume(not (cyclic and len(F) == len(net.words)))
    at = {w: i for i, w in enumerate(F)}
    u = np.array(cert.u, dtype=np.int64)
    held = np.zeros(len(net.words), dtype=np.int64)
    for ids, lam in cert.cuts:
        held[list(ids)] += lam
    v = np.array(cert.v, dtype=np.int64) - held
    du, dv = cert.depot if cert.depot is not None else (None, None)

    def slack(a: int, b: int) -> int:
        if a < 0:
            assert du is not None
            return int(du + v[b])
        if b < 0:
            assert dv is not None
            return int(u[a] + dv)
        k = overlap_of(net.words[a], net.words[b])
        return int(u[a] + v[b] - cert.scale * k * k)

    total = 0
    for i, w in enumerate(F):
        nxt, prv = int(pc.cover_next[i]), int(pc.cover_prev[i])
        if nxt in at:
            assert int(pc.cover_prev[at[nxt]]) == w  # a joint is seen from both ends
            total += slack(w, nxt)
        else:
            total += slack(w, nxt)  # the path ends: at a word outside F or the depot
        if prv not in at:
            total += slack(prv, w)
    assert total == round(pc.info["slack"] * cert.scale)
    # Following the joints from every path start visits each word of F once: no cycle.
    seen: list[int] = []
    for w in F:
        if int(pc.cover_prev[at[w]]) not in at:
            x = w
            while x in at and len(seen) <= len(F):
                seen.append(x)
                x = int(pc.cover_next[at[x]])
    assert sorted(seen) == sorted(F)


def overlap_of(a: str, b: str) -> int:
    """Longest suffix of ``a`` that is a prefix of ``b`` (no longer than either), by hand."""
    return max(k for k in range(min(len(a), len(b)) + 1) if a.endswith(b[:k]))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.text(alphabet="ab", min_size=1, max_size=6), min_size=2, max_size=14),
    proper=st.booleans(),
    data=st.data(),
)
def test_useful_arcs_match_every_pair(words: list[str], proper: bool, data: st.DataObject) -> None:
    # The suffix-range search (longest suffix first) finds exactly the pairs a check of every
    # pair with the plain overlap finds, with the same slacks.
    distinct = sorted(set(words))
    n = len(distinct)
    F = np.array(sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1))), dtype=np.int64)
    ints = st.integers(-30, 30)
    u = np.array(data.draw(st.lists(ints, min_size=n, max_size=n)), dtype=np.int64)
    vp = np.array(data.draw(st.lists(ints, min_size=n, max_size=n)), dtype=np.int64)
    in_min = np.array(data.draw(st.lists(ints, min_size=F.size, max_size=F.size)), np.int64)
    out_min = np.array(data.draw(st.lists(ints, min_size=F.size, max_size=F.size)), np.int64)
    sc = data.draw(st.sampled_from([1, 3]))
    far_zero = data.draw(st.sampled_from([0, 5]))
    t, h, s = _useful_arcs(distinct, F, u, vp, in_min, out_min, sc, proper, far_zero, None)
    got = {(int(a), int(b)): int(x) for a, b, x in zip(t, h, s, strict=True)}
    assert len(got) == t.size  # no pair twice
    want = {}
    for i, a in enumerate(F.tolist()):
        for k, b in enumerate(F.tolist()):
            if i == k:
                continue
            x, y = distinct[a], distinct[b]
            top = min(len(x), len(y)) - (1 if proper else 0)
            ov = max(j for j in range(top + 1) if j == 0 or x.endswith(y[:j]))
            slack = int(u[a] + vp[b] - sc * ov * ov)
            if slack < out_min[i] + in_min[k] and (ov > 0 or far_zero > 0):
                want[(i, k)] = slack
    assert got == want


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=small, cyclic=st.booleans())
def test_the_growth_stops_once_the_bound_meets_the_target(words: list[str], cyclic: bool) -> None:
    """``target`` (the incumbent's score) ends the growth of F at the first round whose bound
    meets it, and changes nothing when no round does; every bound holds the optimum."""
    assume(len(set(words)) > 1)
    inst = WordsnakeInstance(tuple(words), cyclic)
    net, cert, seeds = first_certificate(inst)
    mult = net.mult.tolist()
    once = path_cover_bound(cert, net.words, mult, seeds, grow=0, every_partner=True)
    wide = path_cover_bound(cert, net.words, mult, seeds, grow=6, every_partner=True)
    met = path_cover_bound(
        cert, net.words, mult, seeds, grow=6, every_partner=True, target=once.bound
    )
    assert (met.bound, met.info["words"]) == (once.bound, once.info["words"])
    optimum = brute_force(inst.words, cyclic, False)
    never = path_cover_bound(
        cert, net.words, mult, seeds, grow=6, every_partner=True, target=optimum - 1
    )
    assert (never.bound, never.info["words"]) == (wide.bound, wide.info["words"])
    assert optimum <= wide.bound <= once.bound


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 9).flatmap(
        lambda k: st.tuples(
            st.just(k),
            st.lists(
                st.tuples(
                    st.integers(0, k - 1),
                    st.integers(0, k - 1),
                    st.sampled_from([0.0, 0.25, 0.5, 1.0]),
                ),
                max_size=20,
            ),
            st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=k, max_size=k),
        )
    ),
    st.booleans(),
)
def test_the_violated_components_are_those_entered_less_than_once(
    case: tuple[int, list[tuple[int, int, float]], list[float]], integral: bool
) -> None:
    """The components found at once (by label counts) are exactly those of the definition:
    two words or more, entered (arcs from outside plus path starts) less than once."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    from cpwords.wordsnake.bounds.cover_cuts import violated_cuts

    k, arcs, starts = case
    arcs = [(a, b, w) for a, b, w in arcs if a != b]
    t = np.array([a for a, _, _ in arcs], dtype=np.int64)
    h = np.array([b for _, b, _ in arcs], dtype=np.int64)
    x = np.array([w for _, _, w in arcs], dtype=float)
    y = np.array(starts, dtype=float)
    found = violated_cuts(k, t, h, x, y, integral)
    want: list[list[int]] = []
    sup = x > 1e-9
    if sup.any():
        g = csr_matrix((np.ones(int(sup.sum())), (t[sup], h[sup])), shape=(k, k))
        how = "strong" if integral else "weak"
        _, lab = connected_components(g, directed=True, connection=how)
        for comp in sorted(set(lab.tolist())):
            members = [i for i in range(k) if lab[i] == comp]
            inside = set(members)
            entering = sum(w for a, b, w in arcs if b in inside and a not in inside)
            entering += sum(starts[i] for i in members)
            if len(members) >= 2 and entering < 1 - 1e-7:
                want.append(members)
    assert sorted(sorted(f.tolist()) for f in found) == sorted(want)


def test_the_minimum_cut_separation_keeps_the_deadline() -> None:
    """One maximum flow a word: past the deadline the separation stops (Japanese's widest
    bound ran 11.7 s past a 900 s limit in this part of the cover)."""
    import time

    from cpwords.wordsnake.bounds.cover_cuts import min_cuts

    # Two 2-cycles at one half each; a path starts at word 0 only: {2, 3} is never entered.
    t, h = np.array([0, 1, 2, 3]), np.array([1, 0, 3, 2])
    x, y = np.full(4, 0.5), np.array([1.0, 0.0, 0.0, 0.0])
    found = min_cuts(t, h, x, y, 4, set())
    assert found
    for members in found:  # each a violated subtour cut: entered less than once
        inside = np.isin(np.arange(4), members)
        assert x[inside[h] & ~inside[t]].sum() + y[members].sum() < 1
    with pytest.raises(DeadlineReached):
        min_cuts(t, h, x, y, 4, set(), deadline=time.perf_counter() - 1.0)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.text(alphabet="abc", min_size=1, max_size=6), min_size=2, max_size=12))
def test_the_subtours_words_are_those_a_loop_over_the_items_finds(words: list[str]) -> None:
    # Any lists (repeated words, words inside others, linear or cyclic): the seeds of the
    # additive bound are the distinct words of the items outside the main component.
    from cpwords.wordsnake.exact.stages.additive_bound import _subtour_words

    for cyclic in (False, True):
        inst = WordsnakeInstance(tuple(words), cyclic)
        if len(set(inst.words)) < 2:
            return
        net = build_string_network(inst)
        out = solve_string_flow(net, lagrangian_iterations=0)
        assert out.dual is not None
        dec = decode_flow(net, out.dual.flows)
        n = inst.n
        comp = dec.comp.tolist()
        main = comp[n] if not cyclic else max(set(comp[:n]), key=comp[:n].count)
        want = sorted({int(net.item_word[i]) for i in range(n) if comp[i] != main})
        assert _subtour_words(net, dec) == want


def test_a_cover_that_branched_leaves_its_tree_the_time_it_needs() -> None:
    # A cover whose bound rests on branching (below its linear relaxation's) ends the flow
    # stages early enough for the certificate's tree on it and that tree's longer check; a
    # cover its relaxation proves, or no time limit, leaves the deadline as it was.
    from types import SimpleNamespace
    from typing import Any

    from cpwords.wordsnake.exact.stages import additive_bound as additive
    from cpwords.wordsnake.exact.stages.certificate import TREE_CHECK_SHARE, TREE_MIN_SECONDS
    from cpwords.wordsnake.exact.stages.checked_proof import proof_reserve

    instance = WordsnakeInstance(("aa", "aaabb", "abab", "abbb", "bbaa", "bbba"))
    keep = TREE_CHECK_SHARE * proof_reserve(instance) + TREE_MIN_SECONDS
    keep += additive.TREE_LEAD_SECONDS_PER_WORD * instance.n
    state: Any = SimpleNamespace(end=1000.0, instance=instance)
    for bound, lp_bound, deadline, expected in (
        (5, 6, 999.0, 1000.0 - keep),  # branched: the tree's time kept
        (5, 6, 900.0, 900.0),  # an earlier deadline stays
        (6, 6, 999.0, 999.0),  # the relaxation proves the cover: no tree
    ):
        f: Any = SimpleNamespace(deadline=deadline)
        cover: Any = SimpleNamespace(bound=bound, lp_bound=lp_bound)
        additive._keep_tree_time(state, f, cover)
        assert f.deadline == pytest.approx(expected)
    f = SimpleNamespace(deadline=None)
    no_limit: Any = SimpleNamespace(end=None, instance=instance)
    additive._keep_tree_time(no_limit, f, None)  # type: ignore[arg-type]
    assert f.deadline is None
