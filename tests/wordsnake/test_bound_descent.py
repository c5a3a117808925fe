"""The stage "bound descent": proof trees at targets above the incumbent's score + 1, each a
version 2 certificate of ``target - 1`` that the independent checker reads; the default method
with every core too large for the search still proves the optimum."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.core.result import Status
from cpwords.wordsnake.certificate import CertificateError, verify_certificate
from cpwords.wordsnake.closure.proof_tree import tree_certificate
from cpwords.wordsnake.exact.policy import solve_string_flow
from cpwords.wordsnake.relaxation.dual_certificate import flow_certificate
from cpwords.wordsnake.relaxation.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score

from .test_proof_tree import CLOSED_BY_THE_TREE, L545, best

# Lists with repeated words (two to four copies of a few short {a,b} words).
repeated = st.lists(
    st.tuples(st.text(alphabet="ab", min_size=1, max_size=4), st.integers(1, 3)),
    min_size=2,
    max_size=4,
).map(lambda ps: [w for w, k in ps for _ in range(k)][:7])


def verdict(words: tuple[str, ...], cert: object) -> tuple[str, int | None]:
    """The checker's status and bound (a certificate the reader refuses: INVALID)."""
    try:
        check = verify_certificate(words, cert)  # type: ignore[arg-type]
    except CertificateError:
        return "INVALID", None
    return check.status, check.bound


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(repeated, st.booleans())
def test_a_tree_at_any_target_never_proves_less_than_the_brute_force_optimum(
    ws: list[str], cyclic: bool
) -> None:
    inst = WordsnakeInstance(tuple(ws), cyclic)
    if len(set(inst.words)) < 2:
        return
    optimum, _ = best(inst.words, cyclic, False)
    worst = min(snake_score(inst.words[i:] + inst.words[:i], cyclic, False) for i in range(inst.n))
    net = build_string_network(inst)
    out = solve_string_flow(net, lagrangian_iterations=0)
    assert out.dual is not None
    # The root's ordering is any one (here the input's): the targets above it are the descent's.
    root = flow_certificate(net, out.dual, list(inst.words), worst, optimum)
    top = verdict(inst.words, root)[1]
    assert top is not None and top >= optimum
    for target in range(worst + 1, top + 2):
        tree = tree_certificate(inst, root, target=target)
        if tree is None:
            continue
        status, bound = verdict(inst.words, tree)
        assert status == "VALID" and bound is not None
        assert bound == target - 1 >= optimum  # a tree below the optimum cannot close
        if tree.tree:  # tampered: the same tree claiming a lower target never proves less
            for lower in (target - 1, target - 2):
                status, bound = verdict(inst.words, replace(tree, target=lower, bound=lower - 1))
                assert status != "VALID" or (bound is not None and bound >= optimum)


@pytest.mark.parametrize(("words", "cyclic", "proper"), [*CLOSED_BY_THE_TREE, (L545, False, False)])
def test_the_default_method_with_every_core_too_large_descends_to_the_optimum(
    words: tuple[str, ...], cyclic: bool, proper: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cpwords.wordsnake.exact.stages import reduced_cost_fixing
    from cpwords.wordsnake.spec import solve_wordsnake

    monkeypatch.setattr(reduced_cost_fixing, "CORE_MAX_PAIRS", 0)  # any core: too large
    inst = WordsnakeInstance(words, cyclic, proper)
    optimum = 1614 if words == L545 else best(words, cyclic, proper)[0]
    res = solve_wordsnake(inst, "auto", time_limit=120, workers=1, certificate=True)
    core = res.solver_info["stages"][-1]
    assert core["too_large"] and core["descent"]
    assert res.status is Status.OPTIMAL and res.objective == res.bound == optimum
    assert res.solver_info["proof_tree_kind"] == "core, bound descent"
    check = verify_certificate(inst.words, res.solver_info["certificate"])
    assert check.status == "VALID" and check.optimal and check.bound == optimum


def test_ctrl_c_in_the_descent_keeps_the_last_trees_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    from cpwords.wordsnake.closure import proof_tree
    from cpwords.wordsnake.exact.stages import reduced_cost_fixing
    from cpwords.wordsnake.spec import solve_wordsnake

    monkeypatch.setattr(reduced_cost_fixing, "CORE_MAX_PAIRS", 0)
    real = proof_tree.tree_certificate
    calls: list[int] = []

    def first_then_stop(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(proof_tree, "tree_certificate", first_then_stop)
    res = solve_wordsnake(WordsnakeInstance(L545), "auto", time_limit=60, workers=1)
    tried = res.solver_info["stages"][-1]["descent"]
    assert res.solver_info["interrupted"] is True and len(tried) == 1
    assert res.status is Status.FEASIBLE
    assert res.objective is not None and res.objective <= 1614
    assert res.bound is not None and res.bound >= 1614
    if tried[0]["nodes"]:  # the first tree closed: its bound is the answer's
        assert res.bound == tried[0]["target"] - 1
