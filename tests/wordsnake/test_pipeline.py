"""The default method's stages: the card's list and the policy's, and what each stage keeps."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from cpwords.core.result import SolveResult
from cpwords.wordsnake.exact.methods import STAGES, solve_exact
from cpwords.wordsnake.exact.policy import solve_string_flow
from cpwords.wordsnake.relaxation.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score

CARD = Path(__file__).resolve().parents[2] / "models" / "wordsnake.md"


def card_stages() -> list[str]:
    """The bold names of the numbered list under the card's "its stages" heading."""
    text = CARD.read_text(encoding="utf-8")
    section = text.split("## The default `exact` method: its stages", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\d+\. \*\*(.+?)\*\*", section, flags=re.MULTILINE)


def test_the_policy_runs_the_cards_stages_in_the_cards_order() -> None:
    names = [stage.name for stage in STAGES]
    assert names == card_stages()
    assert len(set(names)) == len(names) == 14


def stage_module(name: str) -> str:
    """The module a stage's name gives: ``"min-cost flow"`` is ``min_cost_flow``."""
    return re.sub(r"[^a-z]+", "_", name.lower()).strip("_")


def test_every_stage_has_its_own_module_named_like_it() -> None:
    """``exact/stages/`` holds one module per entry of ``STAGES`` and nothing else, and each
    stage's function is defined in the module named like the stage."""
    import importlib
    import inspect

    from cpwords.wordsnake.exact import stages

    folder = Path(stages.__file__).parent
    modules = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    assert modules == sorted(stage_module(stage.name) for stage in STAGES)
    for stage in STAGES:
        module = importlib.import_module(f"{stages.__name__}.{stage_module(stage.name)}")
        run = stage.run
        if run.__name__ == "<lambda>":  # the flow stages take the flow's state
            run = next(
                v for k, v in vars(module).items() if k in run.__code__.co_names and callable(v)
            )
        assert inspect.getmodule(run) is module, stage.name


def test_the_flow_stages_alone_give_a_sound_bound_and_a_checked_ordering() -> None:
    rng = random.Random(3)
    words = tuple("".join(rng.choice("abc") for _ in range(rng.randint(2, 6))) for _ in range(30))
    inst = WordsnakeInstance(words)
    out = solve_string_flow(build_string_network(inst), lagrangian_iterations=5)
    assert out.order is not None and out.bound is not None and out.objective is not None
    ordering = [words[i] for i in out.order]
    assert sorted(ordering) == sorted(words)
    assert snake_score(ordering, False, False) == out.objective <= out.bound
    best = solve_exact(inst, time_limit=60, workers=1)
    assert best.is_optimal and best.objective is not None
    assert out.objective <= best.objective <= out.bound
    assert best.solver_info["stages"][0]["stage"] == "flow"


def test_a_stop_before_any_flow_bound_reports_the_length_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stopped while the network is built: the answer still carries a proven bound, the words'
    lengths' (issue 34: it was null), at least the brute-force optimum."""
    import itertools

    from cpwords.wordsnake.exact import flow_steps as first_bound
    from cpwords.wordsnake.exact import policy

    rng = random.Random(5)
    words = tuple(
        sorted({"".join(rng.choice("abc") for _ in range(rng.randint(2, 5))) for _ in range(7)})
    )
    inst = WordsnakeInstance(words)

    def stopped(state: object) -> None:
        raise policy.DeadlineReached

    monkeypatch.setattr(policy, "NETWORK", policy.Stage("string-hub network", stopped))
    res = solve_exact(inst)
    best = max(snake_score(p) for p in itertools.permutations(words))
    assert res.bound == first_bound.length_bound(inst) >= best
    assert res.objective is not None and res.objective <= best
    assert res.solver_info["length_bound"] == res.bound


def _shuffled_words(seed: int, n: int) -> tuple[str, ...]:
    rng = random.Random(seed)
    return tuple(
        {"".join(rng.choice("abc") for _ in range(rng.randint(2, 7))): 0 for _ in range(n)}
    )


def test_a_greedy_matching_stopped_at_its_deadline_still_gives_every_word_once() -> None:
    """Issue 34, item 22: the greedy matching is anytime: stopped at once, the free ends are
    joined through the depot, a cover all the same, and its repair an ordering of every word."""
    import time

    from cpwords.wordsnake.primal.repair import PairScore, patch_cycles
    from cpwords.wordsnake.relaxation.decode import greedy_successors

    words = _shuffled_words(11, 200)
    net = build_string_network(WordsnakeInstance(words))
    dec = greedy_successors(net, deadline=time.perf_counter() - 1.0)
    assert dec.extra.get("stopped") is True
    n = len(words)
    assert sorted(dec.succ) == list(range(n + 1))  # a permutation of the items and the depot
    seq = patch_cycles(net, dec, PairScore(net), deadline=time.perf_counter() - 1.0)
    assert sorted(seq) == list(range(n))
    full = greedy_successors(net)
    assert "stopped" not in full.extra


def test_a_greedy_matching_past_its_deadline_makes_no_candidates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The candidates (3 s on 977,555 31-mers of C. elegans) were made past the deadline, the
    clock read only between the matching's depths: the command ended 1.5 s past its limit."""
    import time

    from cpwords.wordsnake.relaxation import decode

    def unwanted(*args: object) -> None:
        raise AssertionError("candidates sorted past the deadline")

    words = _shuffled_words(13, 200)
    net = build_string_network(WordsnakeInstance(words))
    monkeypatch.setattr(decode, "_deepest_first", unwanted)
    dec = decode.greedy_successors(net, deadline=time.perf_counter() - 1.0)
    assert dec.extra.get("stopped") is True
    assert sorted(dec.succ) == list(range(len(words) + 1))


def test_a_limit_that_ends_the_flow_stages_early_still_answers_the_greedy_assignment() -> None:
    """Issue 34, item 22: the French wordfreq list at --time-limit 5 returned its input order
    (4,868,119) where the greedy assignment scores 7,375,786: the first incumbent may now run
    past the flow stages' deadline to the end of the limit, then the flow stages stop."""
    import time

    from cpwords.wordsnake.exact.stages.greedy_assignment import greedy_assignment
    from cpwords.wordsnake.exact.state import FlowState
    from cpwords.wordsnake.primal.repair import PairScore, patch_cycles, score_sequence
    from cpwords.wordsnake.relaxation.decode import greedy_successors
    from cpwords.wordsnake.relaxation.flow import FlowStopped

    words = _shuffled_words(12, 300)
    inst = WordsnakeInstance(words)
    net = build_string_network(inst)
    now = time.perf_counter()
    f = FlowState.begin(
        net, deadline=now - 1.0, start=now, progress=None, first_deadline=now + 600.0
    )
    with pytest.raises(FlowStopped):
        greedy_assignment(f)
    pair = PairScore(net)
    greedy = score_sequence(patch_cycles(net, greedy_successors(net), pair), pair, False)
    assert f.best == greedy > snake_score(words)
    assert f.best_seq is not None
    assert snake_score([words[i] for i in f.best_seq]) == f.best
    assert f.bound is not None and f.bound >= f.best  # the trivial bound came with it


@pytest.mark.parametrize("at_depth", [1, 3])
def test_ctrl_c_in_the_greedy_matching_keeps_its_ordering(
    monkeypatch: pytest.MonkeyPatch, at_depth: int
) -> None:
    """Issue 34, items 21-22: a SIGTERM 8 s into the French wordfreq list (the machine loaded)
    answered the input order, 4,868,119: Ctrl-C in the matching dropped it. Now the matching so
    far is joined into a cover, patched at once, kept, and the interrupt goes on."""
    import time

    from cpwords.wordsnake.exact.stages.greedy_assignment import greedy_assignment
    from cpwords.wordsnake.exact.state import FlowState
    from cpwords.wordsnake.relaxation import decode, level_matching

    words = _shuffled_words(13, 300)
    net = build_string_network(WordsnakeInstance(words))
    real = level_matching.LevelMatching._record
    seen = []

    def interrupted(self: level_matching.LevelMatching, found: list) -> None:
        real(self, found)  # Ctrl-C after a depth (the depths are matched whole)
        seen.append(1)
        if len(seen) == at_depth:
            raise KeyboardInterrupt

    monkeypatch.setattr(level_matching.LevelMatching, "_record", interrupted)
    dec = decode.greedy_successors(net)
    assert dec.extra.get("interrupted") is True
    assert sorted(dec.succ) == list(range(len(words) + 1))
    seen.clear()
    now = time.perf_counter()
    f = FlowState.begin(net, deadline=now + 600.0, start=now, progress=None)
    with pytest.raises(KeyboardInterrupt):
        greedy_assignment(f)
    assert f.best_seq is not None and sorted(f.best_seq) == list(range(len(words)))
    assert snake_score([words[i] for i in f.best_seq]) == f.best


def _needs_the_core() -> WordsnakeInstance:
    """`ab` n=40 seed 25: the flow stages leave 48 points to the core (its values too)."""
    from cpwords.wordsnake.spec import random_strings

    return WordsnakeInstance(tuple(random_strings("ab", 40, 25, 6, 12)))


def _exact(inst: WordsnakeInstance) -> SolveResult:
    from cpwords.wordsnake.spec import solve_wordsnake

    return solve_wordsnake(inst, "auto", time_limit=60, workers=1, certificate=True)


def test_the_proof_tree_stage_proves_a_large_core_before_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cpwords.core.result import Status
    from cpwords.wordsnake.certificate import verify_certificate
    from cpwords.wordsnake.exact.stages import proof_tree as stage

    inst = _needs_the_core()
    reference = _exact(inst)  # the search, then the tree after it
    assert reference.status is Status.OPTIMAL
    assert "arcs" in reference.solver_info["stages"][-1]  # the core search ran
    monkeypatch.setattr(stage, "EARLY_TREE_PAIRS", 0)  # every core counts as large
    res = _exact(inst)
    assert res.status is Status.OPTIMAL and res.objective == reference.objective == res.bound
    log = res.solver_info["stages"][-1]
    assert "proof_tree_time" in log and "arcs" not in log  # the tree, and no core search
    cert = res.solver_info["certificate"]
    assert cert.tree and verify_certificate(inst.words, cert).optimal


def test_ctrl_c_in_the_proof_tree_stage_ends_the_solve_without_the_core_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cpwords.core.result import Status
    from cpwords.wordsnake.closure import proof_tree
    from cpwords.wordsnake.exact.stages import proof_tree as stage

    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt  # as Ctrl-C inside one of the tree's LP solves

    inst = _needs_the_core()
    monkeypatch.setattr(stage, "EARLY_TREE_PAIRS", 0)
    monkeypatch.setattr(proof_tree, "tree_certificate", interrupted)
    res = _exact(inst)
    log = res.solver_info["stages"][-1]
    assert res.solver_info["interrupted"] and "proof_tree_time" in log
    assert "arcs" not in log  # the core search did not start after Ctrl-C
    assert res.status is Status.FEASIBLE and res.objective is not None and res.bound is not None
    assert res.bound > res.objective


def test_a_core_too_large_for_the_search_goes_to_the_bound_descent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A core too large for the search: no search; the stage "bound descent" proves the
    optimum by a tree the checker reads. With no tree possible (every core above the
    descent's cap), the incumbent and the flow's bound, FEASIBLE on a certificate that checks
    VALID at that bound, the gap open ("exhausted": no target left to try)."""
    from cpwords.core.result import Status
    from cpwords.wordsnake.certificate import verify_certificate
    from cpwords.wordsnake.exact.stages import bound_descent, reduced_cost_fixing

    inst = _needs_the_core()
    optimum = _exact(inst).objective
    assert optimum is not None
    monkeypatch.setattr(reduced_cost_fixing, "CORE_MAX_PAIRS", 10)  # too large for the search
    res = _exact(inst)
    log = res.solver_info["stages"][-1]
    assert log.get("too_large") and "arcs" not in log and log["descent"]
    assert res.status is Status.OPTIMAL and res.objective == res.bound == optimum
    monkeypatch.setattr(bound_descent, "DESCENT_MAX_PAIRS", 0)  # no tree either
    res = _exact(inst)
    log = res.solver_info["stages"][-1]
    assert log.get("too_large") and "arcs" not in log
    tried = log["descent"]  # the bound's target, then again with more nodes
    assert len(tried) >= 2 and {t["nodes"] for t in tried} == {None}
    assert res.status is Status.FEASIBLE and res.objective is not None and res.bound is not None
    assert res.objective <= optimum < res.bound
    assert res.solver_info["stopped"] == "exhausted"
    check = verify_certificate(inst.words, res.solver_info["certificate"])
    assert check.status == "VALID" and check.bound == res.bound
