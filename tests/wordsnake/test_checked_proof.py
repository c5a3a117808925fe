"""OPTIMAL means checked (issue 31): the default method's status comes from its certificate,
checked by the independent checker, never from a search the certificate does not cover."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cpwords.core.result import Status
from cpwords.wordsnake.certificate import verify_certificate
from cpwords.wordsnake.closure.core import CoreOutcome
from cpwords.wordsnake.closure.core_mip import solve_core_mip
from cpwords.wordsnake.exact.stages import core_search
from cpwords.wordsnake.rules import WordsnakeInstance
from cpwords.wordsnake.spec import random_strings, solve_wordsnake
from tests.conftest import run_cli


def gapped() -> WordsnakeInstance:
    """A list whose flow stage leaves a gap the core search closes (test_core's first)."""
    return WordsnakeInstance(tuple(random_strings("ab", 40, 25, 6, 12)))


def test_a_proof_by_a_search_the_certificate_does_not_cover_is_not_optimal() -> None:
    inst = gapped()
    res = solve_wordsnake(inst, time_limit=None, certificate=True)
    info = res.solver_info
    check = verify_certificate(inst.words, info["certificate"])
    assert info["certificate_check"] == check.status
    assert res.bound == check.bound is not None
    if check.optimal:
        assert res.status is Status.OPTIMAL and info["proof"] == "certificate"
    else:
        assert res.status is Status.FEASIBLE and info["proof"] is None
        assert res.objective is not None and res.bound is not None
        assert res.bound > res.objective
        assert res.gap is not None and res.gap > 0


def test_a_core_search_that_lies_cannot_make_the_answer_optimal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A test double of the MIP core search that reports its bound one point too low (and so
    claims the incumbent optimal): the answer is FEASIBLE with the certified bound."""
    # The flow stage ends at 2,272, two points below the optimum the core search finds.
    inst = WordsnakeInstance(tuple(random_strings("ab", 60, 18, 6, 12)))
    honest = solve_wordsnake(inst, "mip", time_limit=None)
    assert honest.is_optimal and honest.objective is not None
    lies: list[int] = []

    def lying(net, core, **kwargs):  # type: ignore[no-untyped-def]
        found = solve_core_mip(net, core, **kwargs)
        low = (core.target - 1) if found.objective is None else found.objective - 1
        lies.append(low)
        return CoreOutcome(None, None, True, low, found.arcs, False)

    monkeypatch.setattr(core_search, "solve_core_mip", lying)
    res = solve_wordsnake(inst, time_limit=None, certificate=True)
    assert lies, "the core search ran"
    check = verify_certificate(inst.words, res.solver_info["certificate"])
    assert res.status is Status.FEASIBLE and res.solver_info["proof"] is None
    assert res.bound == check.bound and res.bound is not None
    assert res.bound >= honest.objective  # the certified bound bounds the true optimum
    assert res.objective is not None and res.objective < honest.objective  # the lie was one
    assert res.solver_info["solver_bound"] < res.bound


@pytest.mark.slow
def test_repeated_words_whose_snakes_enter_a_root_cut_twice_get_a_tree() -> None:
    """`abc` n=1,000 seed 3 (132 repeated words): the root values bound it 3 points above the
    optimum, the gap of cuts entered more than once; the proof tree with the root's cuts
    re-priced closes it, and the independent checker agrees."""
    inst = WordsnakeInstance(tuple(random_strings("abc", 1000, 3)))
    assert len(set(inst.words)) < len(inst.words)
    res = solve_wordsnake(inst, time_limit=None, certificate=True)
    cert = res.solver_info["certificate"]
    check = verify_certificate(inst.words, cert)
    assert cert.tree and check.status == "VALID" and check.optimal, check.message
    assert res.status is Status.OPTIMAL and res.objective == check.bound


def test_every_method_says_what_its_optimal_rests_on() -> None:
    inst = WordsnakeInstance(("run", "nausea", "seasick", "sickle", "lemon"))
    expected = {"exact": "certificate", "mip": "highs", "cpsat": "cp-sat", "greedy": None}
    for method, proof in expected.items():
        res = solve_wordsnake(inst, method, time_limit=60, workers=1)
        assert res.solver_info["proof"] == (proof if res.is_optimal else None), method
    assert solve_wordsnake(inst, "exact", time_limit=60).is_optimal


def test_the_checker_reads_the_values_not_the_claimed_bound() -> None:
    """The checker reads the values, not the claim: a certificate whose claimed bound is
    lowered to the ordering's score still proves only what its values prove."""
    inst = gapped()
    res = solve_wordsnake(inst, time_limit=None, certificate=True)
    cert = res.solver_info["certificate"]
    forged = replace(cert, bound=cert.objective, core_pairs=None)
    check = verify_certificate(inst.words, forged)
    assert check.bound == verify_certificate(inst.words, cert).bound


def test_the_command_line_names_the_proof(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lst = tmp_path / "words.txt"
    lst.write_text("run\nnausea\nseasick\nsickle\nlemon\n")
    code, out, _ = run_cli(["snake", str(lst), "--json"], capsys)
    row = json.loads(out)
    assert code == 0 and row["status"] == "OPTIMAL" and row["proof"] == "certificate"
    code, out, _ = run_cli(["snake", str(lst)], capsys)
    assert code == 0 and "checked VALID by the independent checker" in out
    code, out, _ = run_cli(["snake", str(lst), "--method", "mip", "--json"], capsys)
    assert code == 0 and json.loads(out)["proof"] == "highs"
    code, out, _ = run_cli(["snake", str(lst), "--method", "greedy", "--json"], capsys)
    assert code == 0 and json.loads(out)["proof"] is None


def test_the_text_output_says_when_the_solvers_bound_is_not_covered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inst = gapped()
    lst = tmp_path / "words.txt"
    lst.write_text("\n".join(inst.words) + "\n")
    code, out, _ = run_cli(["snake", str(lst), "--json"], capsys)
    row = json.loads(out)
    assert code == 0
    if row["status"] == "FEASIBLE":
        assert row["proof"] is None and row["bound"] > row["objective"]
        code, out, _ = run_cli(["snake", str(lst)], capsys)
        assert "rests on a search it does not cover" in out
        assert "gap         0.00%" not in out
    else:
        assert row["proof"] == "certificate"
