"""The linear score (a joint of overlap k scores k, the shortest superstring's objective):
every method against brute force, its certificates checked and tampered with, the score
carried by the certificate file and refused when it is not the one asked for."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.core.errors import InputError
from cpwords.core.result import Status
from cpwords.wordsnake.certificate import (
    Certificate,
    CertificateError,
    certificate_to_json,
    read_certificate,
    verify_certificate,
    verify_pairwise,
    write_certificate,
)
from cpwords.wordsnake.rules import WordsnakeInstance, check_snake, joint_weight, snake_score
from cpwords.wordsnake.spec import EXACT_METHODS, HEURISTIC_METHODS, solve_wordsnake

word = st.text(alphabet="abc", min_size=1, max_size=4)
instances = st.builds(
    lambda ws, c, p: WordsnakeInstance(tuple(ws), cyclic=c, proper=p, score="linear"),
    st.lists(word, min_size=1, max_size=6),
    st.booleans(),
    st.booleans(),
)


def brute_force(words: Sequence[str], cyclic: bool, proper: bool) -> int:
    return max(snake_score(p, cyclic, proper, "linear") for p in itertools.permutations(words))


def test_the_linear_score_counts_overlaps() -> None:
    order = ["run", "nausea", "seasick", "sickle"]
    assert snake_score(order, score="linear") == 1 + 3 + 4
    assert snake_score(order) == 1 + 9 + 16
    assert joint_weight(4, "linear") == 4 and joint_weight(4) == 16
    with pytest.raises(InputError, match="score must be one of"):
        WordsnakeInstance(("ab",), score="cubed")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances)
def test_the_default_method_proves_the_brute_force_optimum(inst: WordsnakeInstance) -> None:
    _proven_with_a_valid_certificate(inst)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances)
def test_many_more_lists(inst: WordsnakeInstance) -> None:
    _proven_with_a_valid_certificate(inst)


def _proven_with_a_valid_certificate(inst: WordsnakeInstance) -> None:
    expected = brute_force(inst.words, inst.cyclic, inst.proper)
    res = solve_wordsnake(inst, time_limit=30, workers=1, certificate=True)
    assert res.status is Status.OPTIMAL and res.objective == expected == res.bound
    assert res.solver_info["proof"] == "certificate"
    assert check_snake(inst, res.solution, expected)
    cert = res.solver_info["certificate"]
    assert cert.score == "linear"
    found = verify_certificate(inst.words, cert, score="linear")
    assert found.status == "VALID" and found.optimal and found.bound == expected
    assert verify_pairwise(inst.words, cert).bound == expected


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances)
def test_every_exact_method_equals_brute_force(inst: WordsnakeInstance) -> None:
    expected = brute_force(inst.words, inst.cyclic, inst.proper)
    for method in EXACT_METHODS:
        res = solve_wordsnake(inst, method, time_limit=30, workers=1)
        assert res.status is Status.OPTIMAL and res.objective == expected, (method, inst)


@settings(max_examples=30, deadline=None)
@given(instances, st.integers(0, 10))
def test_heuristics_never_beat_the_optimum(inst: WordsnakeInstance, seed: int) -> None:
    optimum = brute_force(inst.words, inst.cyclic, inst.proper)
    for method in HEURISTIC_METHODS:
        res = solve_wordsnake(inst, method, seed=seed, iterations=3)
        assert res.objective is not None and res.objective <= optimum and res.verified


def test_a_larger_list_is_proven_with_a_valid_certificate() -> None:
    """Random strings over {a, b} (long overlaps, borders, repeats), the fast check against
    the pairwise one."""
    rng = random.Random(5)
    for _ in range(6):
        words = tuple(
            "".join(rng.choice("ab") for _ in range(rng.randint(1, 7))) for _ in range(40)
        )
        inst = WordsnakeInstance(words, score="linear")
        res = solve_wordsnake(inst, time_limit=60, workers=1, certificate=True)
        cert = res.solver_info["certificate"]
        found = verify_certificate(words, cert)
        assert found.status in ("VALID", "PARTIAL") and found.objective == res.objective
        assert (found.status, found.bound) == (
            verify_pairwise(words, cert).status,
            verify_pairwise(words, cert).bound,
        )
        if res.is_optimal:
            assert found.optimal


def _certified(words: Sequence[str]) -> tuple[tuple[str, ...], Certificate]:
    inst = WordsnakeInstance(tuple(words), score="linear")
    res = solve_wordsnake(inst, time_limit=30, workers=1, certificate=True)
    return inst.words, res.solver_info["certificate"]


def test_tampered_linear_certificates_are_refused() -> None:
    words, cert = _certified(["alpha", "phase", "sea", "ease", "seal", "alps", "sealpha"])
    assert verify_certificate(words, cert).status == "VALID"
    broken = 0
    for side in ("u", "v"):
        for i in range(len(cert.u)):
            vals = list(getattr(cert, side))
            vals[i] -= 1
            changed: dict[str, Any] = {side: tuple(vals)}
            bad = dataclasses.replace(cert, **changed)
            found = verify_certificate(words, bad)
            assert found.status == verify_pairwise(words, bad).status
            if found.status == "INVALID":
                broken += 1
                assert "overlap times" in found.message
    assert broken > 0
    # A larger claimed score for the ordering: recounted, so the claim changes nothing.
    claimed = dataclasses.replace(cert, objective=cert.objective + 5)
    assert verify_certificate(words, claimed).objective == cert.objective


def test_the_score_is_in_the_file_and_a_mismatch_is_refused_in_one_line(tmp_path: Path) -> None:
    words, cert = _certified(["run", "nausea", "seasick", "sickle", "lemon"])
    path = tmp_path / "c.json"
    write_certificate(cert, path)
    data = json.loads(path.read_text())
    assert data["variant"] == {"cyclic": False, "proper": False, "score": "linear"}
    back = read_certificate(path)
    assert back.score == "linear"
    assert verify_certificate(words, path, score="linear").optimal
    with pytest.raises(CertificateError, match="linear score and the one asked for is the squared"):
        verify_certificate(words, path, score="squared")
    # The same values read as a squared certificate prove nothing about the squared score.
    data["variant"]["score"] = "squared"
    path.write_text(json.dumps(data))
    assert verify_certificate(words, path).status == "INVALID"
    data["variant"]["score"] = "cubed"
    path.write_text(json.dumps(data))
    with pytest.raises(CertificateError, match=r"variant\.score must be one of"):
        read_certificate(path)


def test_a_file_without_a_score_is_a_squared_certificate(tmp_path: Path) -> None:
    inst = WordsnakeInstance(("run", "nausea", "seasick"))
    res = solve_wordsnake(inst, certificate=True, workers=1)
    data = certificate_to_json(res.solver_info["certificate"])
    del data["variant"]["score"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    assert read_certificate(path).score == "squared"
    assert verify_certificate(inst.words, path, score="squared").optimal
    with pytest.raises(CertificateError, match="squared score"):
        verify_certificate(inst.words, path, score="linear")


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from cpwords.cli import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def test_snake_score_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`cpwords snake --score linear`: the table's running score and the objective count the
    overlaps; `--score squared` is the default, accepted explicitly; the certificate written
    with one score is refused in one line when checked with the other."""
    f = tmp_path / "five.txt"
    f.write_text("run\nnausea\nseasick\nsickle\nlemon\n")
    code, out, _ = _cli(["snake", str(f), "--score", "linear", "--json"], capsys)
    row = json.loads(out)
    assert code == 0 and row["objective"] == 10 and row["score"] == "linear"
    assert row["status"] == "OPTIMAL" and row["proof"] == "certificate"
    code, out, _ = _cli(["snake", str(f), "--score", "squared", "--json"], capsys)
    assert (
        code == 0 and json.loads(out)["objective"] == 30 and json.loads(out)["score"] == "squared"
    )
    code, out, _ = _cli(["snake", str(f), "--score", "linear"], capsys)
    assert "    5  [le]mon           2       10" in out and "overlaps not squared" in out
    cert = tmp_path / "c.json"
    code, out, _ = _cli(["snake", str(f), "--score", "linear", "--certificate", str(cert)], capsys)
    assert code == 0
    code, out, _ = _cli(
        ["snake", str(f), "--score", "linear", "--verify-certificate", str(cert)], capsys
    )
    assert code == 0 and out.startswith("VALID") and "at most 10" in out
    code, out, err = _cli(["snake", str(f), "--verify-certificate", str(cert)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "linear score" in err
    code, out, err = _cli(
        ["snake", str(f), "--score", "linear", "--export-tsplib", str(tmp_path / "x.atsp")], capsys
    )
    assert code == 2 and "squared score only" in err
    code, out, _ = _cli(
        ["snake", str(f), "--score", "linear", "--check-text", "lemon run nausea seasick sickle"],
        capsys,
    )
    assert code == 0 and "score        8" in out  # 0 + 1 + 3 + 4 (lemon -> run: 0)
