"""Exact Wordsnake models against brute force, each other, and the heuristics."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.core.errors import InputError
from cpwords.core.lexicon import load_lexicon
from cpwords.core.result import Status
from cpwords.wordsnake.certificate import verify_certificate
from cpwords.wordsnake.rules import WordsnakeInstance, check_snake, snake_score
from cpwords.wordsnake.spec import (
    EXACT_METHODS,
    HEURISTIC_METHODS,
    builtin_instance,
    compare_wordsnake,
    solve_wordsnake,
)
from tests.wordsnake.checked import assert_optimum_found


def brute_force(words: tuple[str, ...], cyclic: bool, proper: bool) -> int:
    return max(snake_score(p, cyclic, proper) for p in itertools.permutations(words))


# Small alphabets make long overlaps and ties frequent, which is where models go wrong.
word = st.text(alphabet="abc", min_size=1, max_size=4)
instances = st.builds(
    lambda ws, c, p: WordsnakeInstance(tuple(ws), cyclic=c, proper=p),
    st.lists(word, min_size=1, max_size=7),
    st.booleans(),
    st.booleans(),
)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances)
def test_every_exact_method_equals_brute_force(inst):
    expected = brute_force(inst.words, inst.cyclic, inst.proper)
    for method in EXACT_METHODS:
        cert = method == "auto"
        res = solve_wordsnake(inst, method, time_limit=30, workers=1, certificate=cert)
        assert res.status is Status.OPTIMAL, method
        assert res.objective == expected, (method, inst)
        assert res.bound == expected and res.gap == 0
        assert res.verified is True
        assert check_snake(inst, res.solution, expected)
        if cert:
            # OPTIMAL means checked: the certificate proves the optimum.
            found = verify_certificate(inst.words, res.solver_info["certificate"])
            assert found.objective == expected
            assert found.status == "VALID" and found.bound == expected and found.optimal


@settings(max_examples=40, deadline=None)
@given(instances, st.integers(0, 10))
def test_heuristics_never_beat_the_optimum(inst, seed):
    optimum = brute_force(inst.words, inst.cyclic, inst.proper)
    for method in HEURISTIC_METHODS:
        res = solve_wordsnake(inst, method, seed=seed, iterations=5)
        assert res.status is Status.FEASIBLE and res.bound is None
        assert res.objective is not None and res.objective <= optimum
        assert res.verified is True


# Hand-solved lists: (words, cyclic, proper, optimum), each worked out on paper.
HAND_SOLVED = [
    (("run", "nausea", "seasick"), False, False, 10),  # 1 + 9
    (("seasick", "nausea", "run"), False, False, 10),  # input order does not matter
    (("beret", "berets"), False, False, 25),  # the whole of "beret" overlaps
    (("beret", "berets"), False, True, 0),  # ... which --proper forbids
    (("test", "street"), False, False, 4),  # test -> street (2) beats street -> test (1)
    (("test", "street"), True, False, 5),  # cyclic: both pairs count
    (("word",), False, False, 0),  # a single word is a valid list
    (("aa", "aa"), False, False, 4),  # a repeated word is two items
    (("aa", "aa"), True, False, 8),
    (("aa", "aa"), False, True, 1),
    (("ab", "ba", "ab"), False, False, 5),  # ab -> ab overlaps fully (4), then ab -> ba (1)
    (("abc", "bca", "cab"), True, False, 12),  # a ring of overlaps 2: 4 + 4 + 4
    (("abc", "bca", "cab"), False, False, 8),
]


@pytest.mark.parametrize("words,cyclic,proper,optimum", HAND_SOLVED)
@pytest.mark.parametrize("method", EXACT_METHODS)
def test_hand_solved_table(words, cyclic, proper, optimum, method):
    assert brute_force(words, cyclic, proper) == optimum  # the table itself is right
    res = solve_wordsnake(WordsnakeInstance(words, cyclic, proper), method, workers=1)
    assert res.status is Status.OPTIMAL and res.objective == optimum


@pytest.mark.slow
def test_builtin_instance_backends_agree():
    for cyclic in (False, True):
        inst = builtin_instance(cyclic=cyclic)
        values = {m: solve_wordsnake(inst, m, workers=1).objective for m in EXACT_METHODS}
        assert len(set(values.values())) == 1, values
        comp = compare_wordsnake(inst, ["exact", *HEURISTIC_METHODS])
        assert comp.optimum == values["mip"]
        assert all(comp.gap_to_optimum(r) >= 0 for r in comp.results)


def test_cyclic_optimum_at_least_linear():
    inst = builtin_instance()
    lin = solve_wordsnake(inst).objective
    cyc = solve_wordsnake(builtin_instance(cyclic=True)).objective
    assert cyc >= lin


@pytest.mark.parametrize("bad", [{"method": "nope"}, {"time_limit": 0}, {"time_limit": -3}])
def test_bad_parameters(bad):
    with pytest.raises(InputError):
        solve_wordsnake(builtin_instance(), **bad)


@pytest.mark.slow
@pytest.mark.parametrize("cyclic", [False, True])
def test_real_sample_backends_agree(shared_data, cyclic):
    """Seeded 300-word ENABLE samples: the three letter-hub backends prove the same optimum."""
    lex = load_lexicon(shared_data / "enable1.txt")
    words = tuple(random.Random(7).sample(lex.words, 300))
    inst = WordsnakeInstance(words, cyclic=cyclic)
    results = [solve_wordsnake(inst, m, time_limit=120) for m in ("mip", "mip-scip", "cpsat")]
    assert all(r.status is Status.OPTIMAL and r.verified for r in results)
    assert len({r.objective for r in results}) == 1
    for m in HEURISTIC_METHODS:
        assert solve_wordsnake(inst, m, iterations=10).objective <= results[0].objective


def test_time_limit_never_claims_optimal_without_proof(shared_data):
    """The naive complete-graph circuit cannot prove 150 words in 0.5 s: FEASIBLE or UNKNOWN,
    and whatever comes back is consistent (bound above objective, verified)."""
    lex = load_lexicon(shared_data / "enable1.txt")
    inst = WordsnakeInstance(tuple(random.Random(3).sample(lex.words, 150)))
    res = solve_wordsnake(inst, "naive", time_limit=0.5, workers=1)
    if res.status is Status.OPTIMAL:
        assert res.bound == res.objective
    else:
        assert res.status in (Status.FEASIBLE, Status.UNKNOWN)
        if res.objective is not None:
            assert res.bound >= res.objective and res.verified


def test_cut_loop_runs_when_the_relaxation_is_disconnected():
    """abc -> bca -> cab -> abc is a ring of overlap-2 arcs: the assignment relaxation takes the
    whole ring (12) and leaves the depot out, so a linear snake needs a connectivity cut."""
    from cpwords.wordsnake.exact.methods import solve_hub_mip

    res = solve_hub_mip(WordsnakeInstance(("abc", "bca", "cab")))
    assert res.solver_info["flow_bound"] == 12
    assert res.status is Status.OPTIMAL and res.objective == 8
    assert res.solver_info["cuts"] >= 1 and res.solver_info["rounds"] >= 1


@pytest.mark.parametrize("cyclic", [False, True])
def test_small_alphabet_closes_a_disconnected_relaxation_and_formulations_agree(cyclic):
    """Random 'abc' strings have many long overlap cycles: the flow relaxation is disconnected
    (its bound is above the optimum), the default policy still finds the optimum (Lagrangian
    bound, or the core search without it; OPTIMAL only when its certificate checks VALID), and
    five formulations agree."""
    from cpwords.wordsnake.exact.methods import solve_exact

    rng = random.Random(5)
    words = tuple("".join(rng.choice("abc") for _ in range(rng.randint(3, 6))) for _ in range(40))
    inst = WordsnakeInstance(words, cyclic=cyclic)
    reference = solve_wordsnake(inst, "mip")
    assert reference.is_optimal and reference.solver_info["proof"] == "highs"
    optimum = reference.objective
    auto = solve_wordsnake(inst, "exact")
    assert_optimum_found(auto, optimum)
    assert auto.solver_info["flow_bound"] > auto.objective
    forced = solve_exact(inst, lagrangian_iterations=0)
    assert forced.method == "exact/core"
    assert_optimum_found(forced, optimum)
    assert [s["stage"] for s in forced.solver_info["stages"]] == ["flow", "core"]
    for method in ("cpsat", "cpsat-routes"):
        res = solve_wordsnake(inst, method)
        assert res.is_optimal and res.objective == optimum, method
        assert res.solver_info["proof"] == "cp-sat", method


def test_cyclic_routes_with_a_word_outside_every_overlap():
    """'b' overlaps nothing, so no Hamiltonian cycle of positive arcs exists; the cycle phase of
    the routes model must not return the 2-cycle a -> a -> a that leaves 'b' out."""
    inst = WordsnakeInstance(("a", "a", "b"), cyclic=True)
    res = solve_wordsnake(inst, "cpsat-routes")
    assert res.is_optimal and res.objective == brute_force(inst.words, True, False) == 1


@pytest.mark.slow
@pytest.mark.parametrize("method", ["cpsat", "cpsat-routes", "naive", "mip", "mip-scip"])
def test_stopped_solves_never_report_a_false_bound(method):
    """Stopped by a tiny limit, a solve may be FEASIBLE or UNKNOWN, but a dual bound it reports
    must be at least the proven optimum. On these 'ab' strings the layered-greedy start scores
    below the optimum (1014 < 1036), so a bound copied from the incumbent would be caught (CP-SAT
    stopped without a solution reports a bound of 0, which once leaked out as bound = incumbent).
    """
    rng = random.Random(0)
    words = tuple("".join(rng.choice("ab") for _ in range(rng.randint(3, 7))) for _ in range(60))
    inst = WordsnakeInstance(words)
    optimum = solve_wordsnake(inst, "exact").objective
    assert solve_wordsnake(inst, "cpsat-routes").objective == optimum  # two formulations agree
    res = solve_wordsnake(inst, method, time_limit=0.001, workers=1)
    assert res.bound is None or res.bound >= optimum
    assert res.objective is None or res.objective <= optimum
    assert res.status is not Status.OPTIMAL or res.objective == optimum


@pytest.mark.slow
def test_highs_left_by_an_exception_is_stopped_and_the_next_solve_runs() -> None:
    # The benchmark harness stops an overrunning task by raising from a SIGALRM handler; HiGHS
    # solves in its own thread, and was once left running, so that the next task in the same
    # worker process failed with "Solver is already running".
    import signal

    from cpwords.wordsnake.spec import random_strings

    inst = WordsnakeInstance(tuple(random_strings("ab", 400, 1, 6, 12)))

    class Stop(Exception):
        pass

    def stop(*_: object) -> None:
        raise Stop

    old = signal.signal(signal.SIGALRM, stop)
    try:
        signal.setitimer(signal.ITIMER_REAL, 1.5)
        with pytest.raises(Stop):
            solve_wordsnake(inst, "mip", time_limit=60, workers=1)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    again = solve_wordsnake(inst, "mip", time_limit=3, workers=1)
    assert again.objective is not None and again.verified


@pytest.mark.parametrize("method", ["mip", "cpsat-routes", "cpsat", "mip-scip"])
def test_a_method_whose_explicit_graph_cannot_fit_is_refused_in_one_line(method, monkeypatch):
    # Issue 23, item 8: --method mip on ENABLE grew to 7.5 GB and died with a MemoryError.
    import cpwords.wordsnake.formulations.common as common

    monkeypatch.setattr(common, "explicit_graph_bytes", lambda instance, lo: 10**15)
    with pytest.raises(InputError, match="explicit overlap graph") as err:
        solve_wordsnake(WordsnakeInstance(("run", "nausea", "seasick", "sickle")), method)
    assert "\n" not in str(err.value)


def test_compare_keeps_the_answers_found_when_a_method_cannot_fit(monkeypatch):
    import cpwords.wordsnake.formulations.common as common

    inst = WordsnakeInstance(("run", "nausea", "seasick", "sickle"))
    monkeypatch.setattr(common, "explicit_graph_bytes", lambda instance, lo: 10**15)
    cmp = compare_wordsnake(inst, ("exact", "mip"))
    assert cmp.optimum == 26  # run-nausea-seasick-sickle: 1 + 9 + 16
    skipped = cmp.results[1]
    assert skipped.status is Status.UNKNOWN
    assert "explicit overlap graph" in skipped.solver_info["reason"]


@pytest.mark.slow
def test_the_explicit_graph_estimate_is_above_what_the_graph_uses() -> None:
    import tracemalloc

    from cpwords.wordsnake.formulations.common import explicit_graph_bytes
    from cpwords.wordsnake.rules import overlap_graph

    rng = __import__("random").Random(4)
    words = tuple("".join(rng.choice("abcd") for _ in range(rng.randint(3, 9))) for _ in range(800))
    inst = WordsnakeInstance(words)
    tracemalloc.start()
    overlap_graph(inst.words, min_overlap=1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert explicit_graph_bytes(inst, 1) >= peak


def test_ctrl_c_during_a_compared_heuristic_keeps_the_answers_found(monkeypatch):
    # Issue 23, item 6: Ctrl-C after the optimum was proven printed only "interrupted".
    import cpwords.wordsnake.spec as spec

    inst = WordsnakeInstance(("run", "nausea", "seasick", "sickle"))
    real = spec.solve_wordsnake

    def interrupted_heuristics(instance, method="exact", **kw):
        if method != "exact":
            raise KeyboardInterrupt
        return real(instance, method, **kw)

    monkeypatch.setattr(spec, "solve_wordsnake", interrupted_heuristics)
    cmp = spec.compare_wordsnake(inst, ("exact", "layered", "greedy"))
    assert cmp.interrupted and len(cmp.results) == 1
    assert cmp.optimum == 26 and cmp.results[0].verified


def test_cpsat_routes_answers_its_incumbent_when_the_model_cannot_be_built_in_time(monkeypatch):
    """Issue 23, item 5: 3,000 {a,b,c} strings, --method cpsat-routes --time-limit 5 took
    54.6-156.8 s and 5.0 GB (3.96M arcs built, then loaded by CP-SAT beyond its limit). A model
    that cannot be built and loaded in the time left is not built: the answer is the start."""
    import cpwords.wordsnake.formulations.routes as routes
    from cpwords.wordsnake.heuristics.baselines import layered_greedy
    from cpwords.wordsnake.spec import random_strings

    inst = WordsnakeInstance(tuple(random_strings("abc", 300, 1)))

    def no_model() -> None:
        raise AssertionError("the model was built")

    monkeypatch.setattr(routes.cp_model, "CpModel", no_model)
    monkeypatch.setattr(routes, "ROUTES_SECONDS_PER_ARC", 1.0)
    res = solve_wordsnake(inst, "cpsat-routes", time_limit=5)
    assert res.status is Status.FEASIBLE and res.verified and res.bound is None
    assert res.objective == layered_greedy(inst, iterations=1).objective
    assert "arcs would take about" in res.solver_info["skipped"]


def test_the_routes_fallback_does_not_build_a_graph_it_cannot_build_in_time(monkeypatch):
    """Issue 23, item 5: three words of 120,000 letters with --time-limit 1 reached the routes
    model (the default method's fallback), whose explicit overlap graph stores every prefix of
    every word: 5.2 s, and a MemoryError after 15-26 s under a 10 GB cap. Now the graph is
    not built when it cannot be built in the time left; the answer is the incumbent."""
    import cpwords.wordsnake.formulations.common as common
    from cpwords.wordsnake.formulations.routes import solve_routes_cpsat

    rng = random.Random(5)
    words = tuple("".join(rng.choice("ab") for _ in range(20_000)) for _ in range(3))
    inst = WordsnakeInstance(words)

    def no_graph(*args: object, **kwargs: object) -> None:
        raise AssertionError("the explicit overlap graph was built")

    monkeypatch.setattr(common, "overlap_graph", no_graph)
    res = solve_routes_cpsat(inst, time_limit=0.5, hint=words)
    assert res.status is Status.FEASIBLE and res.bound is None
    assert list(res.solution) == list(words)
    assert "explicit overlap graph would take about" in res.solver_info["skipped"]


def test_the_default_method_leaves_time_for_the_check_of_a_long_list(monkeypatch):
    """Issue 23, item 5: a list of 1,037,915 words (10.1M letters) with --time-limit 10 ended at
    14.6-15.5 s: the model kept half the limit however long the check would take. It now keeps
    a quarter at least, the rest for the check (0.15 us a letter, the longest word's left out:
    it has no shorter partner to be compared over; 1 us a word)."""
    import cpwords.wordsnake.exact.methods as auto
    import cpwords.wordsnake.runners as runners

    seen = {}

    def fake(instance, *, time_limit, **kw):
        seen["limit"] = time_limit
        raise KeyboardInterrupt

    monkeypatch.setattr(auto, "solve_exact", fake)
    inst = WordsnakeInstance(tuple("ab" * 500 for _ in range(1000)))  # 1,000,000 letters
    with pytest.raises(KeyboardInterrupt):
        runners._run_auto(inst, "auto", time_limit=1.0)
    assert seen["limit"] == pytest.approx(1.0 - (0.05 + 0.15 * 0.999 + 1000 * 1e-6))
    # A caller that checks its own answer (cpwords superstring) keeps nothing for this check.
    with pytest.raises(KeyboardInterrupt):
        runners._run_auto(inst, "auto", time_limit=1.0, ordering_checked=False)
    assert seen["limit"] == 1.0


def test_the_letter_hub_cpsat_model_is_not_built_when_it_cannot_be_in_time(monkeypatch):
    """Issue 23, item 5: --method cpsat on 20,000 ENABLE words with --time-limit 5 ended at
    24.5 s (1.19M arcs built as Python expressions, then loaded by CP-SAT)."""
    import cpwords.wordsnake.formulations.cpsat as cpsat
    from cpwords.wordsnake.heuristics.baselines import layered_greedy
    from cpwords.wordsnake.spec import random_strings

    def no_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("CP-SAT was called")

    inst = WordsnakeInstance(tuple(random_strings("abc", 300, 2)))
    monkeypatch.setattr(cpsat, "solve_interruptibly", no_solve)
    monkeypatch.setattr(cpsat, "HUB_SECONDS_PER_ARC", 1.0)
    res = solve_wordsnake(inst, "cpsat", time_limit=5)
    assert res.status is Status.FEASIBLE and res.verified and res.bound is None
    assert res.objective == layered_greedy(inst, iterations=1).objective
    assert "letter-hub model of" in res.solver_info["skipped"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(1, 6), min_size=1, max_size=6), min_size=1, max_size=6))
def test_the_euler_circuit_uses_every_arc_once(cycles: list[list[int]]) -> None:
    """decode_order read the snake with networkx's eulerian_circuit, O(degree) a step: 8 s of
    --method mip on 20,000 ENABLE words, which ended at 10.5 s under --time-limit 5."""
    from collections import Counter

    from cpwords.wordsnake.formulations.letter_hub import euler_circuit

    tails, heads = [], []
    for cyc in cycles:  # closed walks through node 0: connected and Eulerian
        nodes = [0, *cyc, 0]
        tails += nodes[:-1]
        heads += nodes[1:]
    walk = euler_circuit(tails, heads, 0)
    assert walk[0] == 0 and len(walk) == len(tails)
    used = Counter(zip(walk, [*walk[1:], walk[0]], strict=True))
    assert used == Counter(zip(tails, heads, strict=True))


@pytest.mark.parametrize("method", ["mip", "cpsat", "cpsat-routes"])
def test_ctrl_c_before_the_model_answers_gives_the_start(method, monkeypatch):
    """Issue 23: Ctrl-C at 3 s on 20,000 ENABLE words with --method mip (or cpsat, cpsat-routes)
    printed only 'cpwords: interrupted', though the layered greedy's start was known."""
    import cpwords.wordsnake.exact.methods as auto
    from cpwords.wordsnake.heuristics.baselines import layered_greedy

    def ctrl_c(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    for name in ("solve_hub_mip", "solve_hub_cpsat", "solve_routes_cpsat"):
        monkeypatch.setattr(auto, name, ctrl_c)
    inst = WordsnakeInstance(("run", "nausea", "seasick", "sickle", "lease", "easel"))
    res = solve_wordsnake(inst, method)
    assert res.status is Status.FEASIBLE and res.verified and res.bound is None
    assert res.solver_info["interrupted"] is True
    assert res.objective == layered_greedy(inst, iterations=1).objective


def test_ctrl_c_during_the_layered_start_ends_an_explicit_solve(monkeypatch):
    """The layered greedy reads Ctrl-C as a flag and returns its chains so far: the solve ends
    there with them (it must not swallow Ctrl-C and go on to build the model)."""
    import dataclasses

    import cpwords.wordsnake.exact.methods as auto
    import cpwords.wordsnake.heuristics.baselines as baselines

    real = baselines.layered_greedy

    def stopped_start(*args, **kwargs):
        res = real(*args, **kwargs)
        return dataclasses.replace(res, solver_info={**res.solver_info, "interrupted": True})

    def no_model(*args: object, **kwargs: object) -> None:
        raise AssertionError("the model was started after Ctrl-C")

    monkeypatch.setattr(baselines, "layered_greedy", stopped_start)
    monkeypatch.setattr(auto, "solve_hub_mip", no_model)
    inst = WordsnakeInstance(("run", "nausea", "seasick", "sickle"))
    res = solve_wordsnake(inst, "mip")
    assert res.solver_info["interrupted"] is True and res.verified


@pytest.mark.slow
@pytest.mark.parametrize("method", ["cpsat", "cpsat-routes"])
def test_cpsat_is_given_the_limit_less_its_load_time(method, monkeypatch):
    """--method cpsat on 20,000 ENABLE words with --time-limit 30 ended at 34.2 s: CP-SAT reads
    its own limit only after loading 1.19M arcs. Its limit now leaves that time."""
    import cpwords.wordsnake.formulations.cpsat as cpsat
    import cpwords.wordsnake.formulations.routes as routes
    from cpwords.wordsnake.spec import random_strings

    given: list[float] = []
    real = cpsat.cpsat_solver

    def spy(workers, seed, limit):
        given.append(limit)
        return real(workers, seed, limit)

    for module in (cpsat, routes):
        monkeypatch.setattr(module, "cpsat_solver", spy)
        monkeypatch.setattr(module, "CPSAT_LOAD_SECONDS_PER_ARC", 1e-4)
    monkeypatch.setattr(cpsat, "HUB_SECONDS_PER_ARC", 1e-9)
    monkeypatch.setattr(routes, "ROUTES_SECONDS_PER_ARC", 1e-9)
    inst = WordsnakeInstance(tuple(random_strings("abc", 200, 3)))
    res = solve_wordsnake(inst, method, time_limit=30)
    arcs = res.solver_info["arcs"]
    assert given and given[0] <= 30 - 1e-4 * arcs + 1e-6


def test_the_routes_model_estimate_counts_one_letter_overlaps(monkeypatch):
    """cpsat-routes keeps every positive arc: a list whose overlaps are all one letter has no
    arc of overlap >= 2, yet its routes model is refused when memory is short."""
    import cpwords.core.machine as machine
    from cpwords.wordsnake.formulations.common import explicit_graph_bytes

    words = [a + b for a in "abcdefgh" for b in "abcdefgh" if a != b]
    inst = WordsnakeInstance(tuple(words))
    two, one = explicit_graph_bytes(inst, 2), explicit_graph_bytes(inst, 1)
    assert 3 * two < one  # the one-letter overlaps are most of the graph
    # Enough memory for 2.5 x the overlap->=2 graph, not for the routes model of every arc.
    monkeypatch.setattr(machine, "available_memory", lambda: int(4 * one))
    with pytest.raises(InputError, match="cpsat-routes"):
        solve_wordsnake(inst, "cpsat-routes", time_limit=5)


def test_an_unproven_comparison_reports_gaps_to_the_bound(capsys):
    """Stopped before its proof, the exact method leaves a bound: every heuristic's gap to it
    is reported, and is at least its gap to the brute-force optimum."""
    rng = random.Random(5)
    words = tuple("".join(rng.choice("ab") for _ in range(rng.randint(2, 4))) for _ in range(7))
    inst = WordsnakeInstance(words)
    comp = compare_wordsnake(inst, ["exact", *HEURISTIC_METHODS])
    optimum = brute_force(words, False, False)
    unproven = type(comp)(comp.results, None, optimum + 3)
    for r in comp.results:
        gb = unproven.gap_to_bound(r)
        assert gb is not None and gb >= (optimum - r.objective) / max(1, optimum) - 1e-12
    from cpwords.cli.snake import _print_comparison

    _print_comparison(
        comp.results, unproven.gap_to_optimum, None, unproven.gap_to_bound, optimum + 3
    )
    out = capsys.readouterr().out
    assert "gaps to the best bound" in out and "gap to bound" in out
