"""Wordsnake certificates: the checker is sound, the fast check equals the pairwise one, and the
solver's certificates check VALID (never claiming more than they prove)."""

from __future__ import annotations

import dataclasses
import gzip
import itertools
import json
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cpwords.cli import main
from cpwords.core.result import SolveResult
from cpwords.wordsnake.certificate import (
    Certificate,
    CertificateError,
    certificate_to_json,
    duals,
    read_certificate,
    verify_certificate,
    verify_pairwise,
    word_fingerprint,
    write_certificate,
)
from cpwords.wordsnake.exact.methods import solve_exact
from cpwords.wordsnake.exact.policy import solve_string_flow
from cpwords.wordsnake.relaxation import dual_certificate
from cpwords.wordsnake.relaxation.assignment import potentials
from cpwords.wordsnake.relaxation.dual_certificate import (
    _repaired,
    dual_potentials,
    flow_certificate,
)
from cpwords.wordsnake.relaxation.flow import FlowDual
from cpwords.wordsnake.relaxation.int_types import narrowed
from cpwords.wordsnake.relaxation.string_hub import SELF, StringHubNetwork, build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score
from cpwords.wordsnake.spec import solve_wordsnake
from tests.wordsnake.checked import ab_cases

word = st.text(alphabet="abc", min_size=1, max_size=4)
small = st.lists(word, min_size=1, max_size=6)


def brute_force(words: Sequence[str], cyclic: bool, proper: bool) -> int:
    return max(snake_score(p, cyclic, proper) for p in itertools.permutations(words))


def certified(
    words: Sequence[str], cyclic: bool = False, proper: bool = False, **kw: Any
) -> tuple[WordsnakeInstance, SolveResult, Certificate]:
    inst = WordsnakeInstance(tuple(words), cyclic, proper)
    res = solve_wordsnake(inst, certificate=True, time_limit=60, workers=1, **kw)
    return inst, res, res.solver_info["certificate"]


def perturbed(cert: Certificate, rng: random.Random) -> Certificate:
    """A certificate with a few values moved by small amounts (down more often than up)."""
    u, v = list(cert.u), list(cert.v)
    for _ in range(rng.randint(1, 3)):
        vals = rng.choice((u, v))
        vals[rng.randrange(len(vals))] += rng.choice((-3, -2, -1, -1, 1))
    depot = cert.depot
    if depot is not None and rng.random() < 0.3:
        depot = (depot[0] + rng.choice((-1, 1)), depot[1])
    cuts = list(cert.cuts)
    if rng.random() < 0.4:
        ids = tuple(sorted(rng.sample(range(len(u)), rng.randint(1, max(1, len(u) - 1)))))
        cuts.append((ids, rng.randint(0, 3) * cert.scale))
    if rng.random() < 0.4:  # a one-word cut, as the copies of a repeated word get
        i = rng.randrange(len(u))
        lam = rng.randint(0, 3)
        cuts.append(((i,), lam))
        v[i] += rng.choice((lam, lam, lam - 1))  # usually as the producer does, sometimes short
    return dataclasses.replace(cert, u=tuple(u), v=tuple(v), depot=depot, cuts=tuple(cuts))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small, st.booleans(), st.booleans(), st.integers(0, 10**6))
def test_a_valid_certificate_never_proves_less_than_the_optimum(
    words: list[str], cyclic: bool, proper: bool, seed: int
) -> None:
    """Soundness, on the solver's certificates and on random perturbations of them: whenever
    the checker says VALID, its bound is at least the brute-force optimum."""
    inst, _res, cert = certified(words, cyclic, proper)
    optimum = brute_force(inst.words, cyclic, proper)
    rng = random.Random(seed)
    for c in [cert] + [perturbed(cert, rng) for _ in range(5)]:
        try:
            found = verify_certificate(inst.words, c)
        except CertificateError:
            continue  # refused (a cyclic cut holding every word): proves nothing
        if found.status in ("VALID", "PARTIAL"):
            assert found.bound is not None and found.bound >= optimum


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*ab_cases(2, 14))
def test_the_fast_check_equals_the_pairwise_check(
    words: list[str], cyclic: bool, proper: bool, seed: int
) -> None:
    inst, _, cert = certified(words, cyclic, proper)
    rng = random.Random(seed)
    # The values' check; a proof tree (whose core the perturbations change) is checked, and
    # tampered with, in test_proof_tree.py.
    root = replace(cert, tree=(), core=None, target=None)
    for c in [cert] + [perturbed(root, rng) for _ in range(8)]:
        if c.cyclic and any(len(ids) == len(c.u) for ids, _ in c.cuts):
            continue  # refused before any check
        fast, slow = verify_certificate(inst.words, c), verify_pairwise(inst.words, c)
        assert (fast.status, fast.bound) == (slow.status, slow.bound)
        if fast.status == "INVALID":
            assert fast.pair is not None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*ab_cases(2, 10), st.sampled_from([2**31, 2**31 - 8, 2**33, -(2**31) - 3, 2**40]))
def test_values_beyond_32_bits_get_the_same_verdict(
    words: list[str], cyclic: bool, proper: bool, seed: int, shift: int
) -> None:
    """The u moved up and the v down by as much (every u + v the same), by about ``2 ** 31``
    or more: the checker holds the prefixes' smallest values in 32 bits only when they fit,
    and gives the same verdict, bound and pair as the pairwise check, on the certificate and
    on perturbations of it."""
    inst, _, cert = certified(words, cyclic, proper)
    rng = random.Random(seed)
    root = replace(cert, tree=(), core=None, target=None)
    for c in [root] + [perturbed(root, rng) for _ in range(3)]:  # no proof tree: its leaves'
        if c.cyclic and any(len(ids) == len(c.u) for ids, _ in c.cuts):  # values are not moved
            continue  # refused before any check
        moved = replace(c, u=tuple(x + shift for x in c.u), v=tuple(x - shift for x in c.v))
        fast, slow = verify_certificate(inst.words, moved), verify_pairwise(inst.words, moved)
        assert (fast.status, fast.bound) == (slow.status, slow.bound)
        if moved.depot is None:  # the bound is the sum of the u and v (and the cuts')
            same = verify_certificate(inst.words, c)
            assert (fast.status, fast.bound, fast.pair) == (same.status, same.bound, same.pair)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*ab_cases(2, 14))
def test_tables_cut_down_to_the_words_near_their_queries_answer_as_the_whole(
    words: list[str], cyclic: bool, proper: bool, seed: int
) -> None:
    """Every table cut down to the words near its queries (duals.near_words, which the check
    applies only to a table far larger than its queries' suffixes: a cut of a few words in a
    dictionary): the verdict, the bound and the pair named are the whole tables'."""
    inst, _, cert = certified(words, cyclic, proper)
    rng = random.Random(seed)
    root = replace(cert, tree=(), core=None, target=None)
    for c in [cert] + [perturbed(root, rng) for _ in range(8)]:
        if c.cyclic and any(len(ids) == len(c.u) for ids, _ in c.cuts):
            continue  # refused before any check
        whole = verify_certificate(inst.words, c)
        with patch.object(duals, "NEAR_SHARE", 0):  # every table cut down
            near = verify_certificate(inst.words, c)
        assert (near.status, near.bound, near.pair) == (whole.status, whole.bound, whole.pair)
        assert near.message == whole.message


@pytest.mark.slow
def test_certificates_with_lagrangian_cuts_are_valid_and_tight() -> None:
    """Lists whose flow support falls apart: the bound comes from Lagrangian iterates with cut
    sets and multipliers in units of 1/64; the certificate proves the same bound."""
    rng = random.Random(7)
    seen_cuts = 0
    for _ in range(12):
        words = ["".join(rng.choice("ab") for _ in range(rng.randint(1, 7))) for _ in range(80)]
        inst = WordsnakeInstance(tuple(words), cyclic=rng.random() < 0.5)
        res = solve_exact(inst, time_limit=60, certificate=True, workers=1)
        cert = res.solver_info["certificate"]
        found = verify_certificate(inst.words, cert)
        assert found.status in ("VALID", "PARTIAL")
        root = verify_certificate(inst.words, replace(cert, tree=(), core=None, target=None))
        assert root.bound == cert.producer["flow_bound"]  # the values prove the flow's bound
        if cert.tree:  # and a proof tree the optimum
            assert found.optimal and found.bound == res.objective
        else:
            assert found.bound == root.bound
        assert verify_pairwise(inst.words, cert).bound == found.bound
        seen_cuts += len(cert.cuts)
    assert seen_cuts > 0  # the test exercises cuts


def test_repeated_words_get_a_copy_cut() -> None:
    inst, _res, cert = certified(["abab", "abab", "abab", "ba", "b"])
    found = verify_certificate(inst.words, cert)
    assert found.status == "VALID" and found.optimal
    assert found.bound == brute_force(inst.words, False, False)


@pytest.mark.parametrize("words", [["solo"], ["aa", "aa", "aa"], ["ab", "ab"]])
@pytest.mark.parametrize("cyclic", [False, True])
def test_one_distinct_word(words: list[str], cyclic: bool) -> None:
    inst, _res, cert = certified(words, cyclic)
    found = verify_certificate(inst.words, cert)
    assert found.status == "VALID" and found.optimal
    assert found.bound == brute_force(inst.words, cyclic, False)


def test_a_value_lowered_by_one_fails_naming_the_pair() -> None:
    inst, _, cert = certified(["alpha", "phase", "sea", "ease", "seal", "alps"])
    assert verify_certificate(inst.words, cert).status == "VALID"
    broken = 0
    distinct = sorted(set(inst.words))
    for side in ("u", "v"):
        for i in range(len(cert.u)):
            vals = list(getattr(cert, side))
            vals[i] -= 1
            changed: dict[str, Any] = {side: tuple(vals)}
            bad = dataclasses.replace(cert, **changed)
            found = verify_certificate(inst.words, bad)
            slow = verify_pairwise(inst.words, bad)
            assert found.status == slow.status
            if found.status == "INVALID":
                broken += 1
                assert found.pair is not None and distinct[i] in found.pair
                assert "INVALID: u(" in found.message
    assert broken > 0  # shortest-path potentials are tight somewhere


def test_a_certificate_for_another_list_or_variant_is_refused() -> None:
    inst, _, cert = certified(["alpha", "phase", "sea"])
    with pytest.raises(CertificateError, match="another word list"):
        verify_certificate(["alpha", "phase", "seal"], cert)
    with pytest.raises(CertificateError, match="another word list"):
        verify_certificate(["alpha", "phase", "sea", "sea"], cert)
    with pytest.raises(CertificateError, match="cyclic"):
        verify_certificate(inst.words, cert, cyclic=True)


def test_a_bound_resting_on_a_core_search_is_the_solvers_not_the_certificates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without Lagrangian iterations a disconnected flow leaves the proof to the core search:
    without a proof tree the certificate claims only what its values prove (above the optimum)
    and checks VALID with the gap open, the solver's bound kept in its producer; the answer is
    FEASIBLE with that bound. With a tree (version 2) it proves the optimum."""
    from cpwords.wordsnake.closure import proof_tree

    rng = random.Random(3)
    for _ in range(40):
        words = ["".join(rng.choice("ab") for _ in range(rng.randint(1, 4))) for _ in range(7)]
        inst = WordsnakeInstance(tuple(words))
        with monkeypatch.context() as mp:
            mp.setattr(proof_tree, "tree_certificate", lambda *_a, **_k: None)
            res = solve_exact(inst, lagrangian_iterations=0, certificate=True, workers=1)
        cert = res.solver_info["certificate"]
        if "searched_core_pairs" not in cert.producer:
            continue
        optimum = brute_force(inst.words, False, False)
        assert cert.core_pairs is None and cert.producer["searched_core_pairs"] > 0
        assert cert.producer["solver_bound"] == optimum == res.objective  # HiGHS's word
        found = verify_certificate(inst.words, cert)
        assert found.status == "VALID" and not found.optimal and found.bound is not None
        assert found.bound == cert.bound > optimum and "gap" in found.message
        assert not res.is_optimal and res.bound == found.bound
        treed = solve_exact(inst, lagrangian_iterations=0, certificate=True, workers=1)
        again = verify_certificate(inst.words, treed.solver_info["certificate"])
        assert treed.is_optimal == again.optimal
        assert again.status == "VALID"
        return
    pytest.fail("no list needed the core search")


def test_file_round_trip_gzip_and_plain(tmp_path: Path) -> None:
    _inst, _, cert = certified(["alpha", "phase", "sea"])
    for name in ("c.json", "c.json.gz"):
        path = tmp_path / name
        write_certificate(cert, path)
        assert read_certificate(path) == cert
        with pytest.raises(Exception, match="exists"):
            write_certificate(cert, path)
        write_certificate(cert, path, force=True)
    assert (tmp_path / "c.json.gz").read_bytes()[:2] == b"\x1f\x8b"


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{",
        b"[]",
        b'{"format": "something else"}',
        json.dumps({"format": "cpwords-wordsnake-certificate", "version": 99}).encode(),
        # mtime fixed: an id holding the time would differ between pytest-xdist's workers
        gzip.compress(b'{"format": "cpwords-wordsnake-certificate", "ver', mtime=0)[:-6],
    ],
    ids=["empty", "brace", "list", "other-format", "version-99", "truncated-gzip"],
)
def test_malformed_files_are_one_line_errors(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(CertificateError) as err:
        read_certificate(path)
    assert "\n" not in str(err.value)


def test_missing_keys_and_wrong_types_are_refused(tmp_path: Path) -> None:
    _, _, cert = certified(["alpha", "phase", "sea"])
    good = certificate_to_json(cert)
    for key, value in [("u", "x"), ("scale", 0), ("cuts", [{"words": [0], "lambda": -1}])]:
        bad = {**good, key: value}
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(bad))
        with pytest.raises(CertificateError):
            read_certificate(path)
    del good["order"]
    path.write_text(json.dumps(good))
    with pytest.raises(CertificateError, match="order"):
        read_certificate(path)


def test_fingerprint_is_of_the_multiset() -> None:
    assert word_fingerprint(["a", "b"]) == word_fingerprint(["b", "a"])
    assert word_fingerprint(["a", "b"]) != word_fingerprint(["a", "b", "b"])


def test_an_ordering_that_is_not_a_snake_of_the_list_is_invalid() -> None:
    inst, _, cert = certified(["alpha", "phase", "sea"])
    bad = dataclasses.replace(cert, order=(0, 0, 1))
    assert verify_certificate(inst.words, bad).status == "INVALID"


def test_other_methods_refuse_to_certify() -> None:
    inst = WordsnakeInstance(("alpha", "phase"))
    with pytest.raises(Exception, match="default exact method"):
        solve_wordsnake(inst, "mip", certificate=True)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[Any, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_cli_writes_and_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lst = tmp_path / "words.txt"
    lst.write_text("alpha\nphase\nsea\nease\nseal\n")
    cert = tmp_path / "c.json.gz"
    code, out, _ = run(["snake", str(lst), "--certificate", str(cert)], capsys)
    assert code == 0 and "certified" in out
    code, _, err = run(["snake", str(lst), "--certificate", str(cert)], capsys)
    assert code == 2 and "exists" in err
    code, out, _ = run(["snake", str(lst), "--verify-certificate", str(cert)], capsys)
    assert code == 0 and out.startswith("VALID")
    code, out, _ = run(["snake", str(lst), "--verify-certificate", str(cert), "--json"], capsys)
    row = json.loads(out)
    assert code == 0 and row["status"] == "VALID" and row["optimal"] is True
    # The checking modes' keys first (tests/cli/test_conventions.py): the ordering it carries.
    assert list(row)[:4] == ["valid", "problems", "solution", "objective"]
    assert row["valid"] is True and row["problems"] == []
    assert sorted(row["solution"]) == sorted(lst.read_text().split())
    assert row["objective"] == snake_score(row["solution"], False, False)
    # Tampered: one u lowered well below anything valid.
    data = json.loads(gzip.decompress(cert.read_bytes()))
    data["u"][0] -= 10**6
    cert.write_bytes(gzip.compress(json.dumps(data).encode()))
    code, out, _ = run(["snake", str(lst), "--verify-certificate", str(cert)], capsys)
    assert code == 1 and out.startswith("INVALID")
    code, out, _ = run(["snake", str(lst), "--verify-certificate", str(cert), "--json"], capsys)
    row = json.loads(out)
    assert code == 1 and row["valid"] is False and row["problems"] == [row["message"]]
    # Another list: one line, exit 2.
    other = tmp_path / "other.txt"
    other.write_text("alpha\nphase\n")
    code, _, err = run(["snake", str(other), "--verify-certificate", str(cert)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "another word list" in err
    x = str(tmp_path / "x.json")
    code, _, err = run(["snake", str(lst), "--method", "mip", "--certificate", x], capsys)
    assert code == 2 and "default exact method" in err


@pytest.mark.slow
def test_settled_potentials_are_repaired_locally_and_keep_the_bound() -> None:
    """Large lists hand the certificate the potentials that settled the greedy's flow (capacities
    as built); lifting the implied capacities is repaired at exits, entries and private chains
    without a new Bellman-Ford, and the certified bound stays the flow's."""
    rng = random.Random(11)
    for _ in range(60):
        words = [
            "".join(rng.choice("abc") for _ in range(rng.randint(1, 6)))
            for _ in range(rng.randint(5, 60))
        ]
        inst = WordsnakeInstance(tuple(words), rng.random() < 0.3, rng.random() < 0.3)
        net = build_string_network(inst)
        out = solve_string_flow(net)
        assert out.dual is not None and out.order is not None and out.objective is not None
        assert out.bound is not None
        pi = potentials(net, out.dual.cost, np.asarray(out.dual.flows))
        dual = dataclasses.replace(out.dual, pi=pi)
        assert _repaired(net, dual, pi) is not None
        order = [inst.words[i] for i in out.order]
        cert = flow_certificate(net, dual, order, out.objective, out.bound)
        found = verify_certificate(inst.words, cert)
        assert found.status == "VALID"
        assert found.bound == out.dual.value_scaled // out.dual.scale


def _repaired_at_once(net: StringHubNetwork, dual: FlowDual, pi0: np.ndarray) -> np.ndarray | None:
    """The local repair as it was written before it read the arcs in blocks: every arc of
    each pass at once (the reference of the test below)."""
    pi = pi0.copy()
    cost, tail, head = dual.cost, net.tail, net.head
    lifted = net.role != SELF
    is_entry = np.zeros(net.num_nodes, dtype=bool)
    is_entry[net.in_base : net.in_base + net.num_words] = True
    upward = lifted & ~is_entry[head]
    up_t, up_h, up_c = tail[upward], head[upward], cost[upward]
    for _ in range(net.num_nodes + 1):
        bad = up_c + pi[up_t] - pi[up_h] < 0
        if not bad.any():
            break
        np.maximum.at(pi, up_t[bad], pi[up_h[bad]] - up_c[bad])
    else:
        return None
    into = lifted & is_entry[head]
    np.minimum.at(pi, head[into], pi[tail[into]] + cost[into])
    self_arcs = net.role == SELF
    rc_self = cost[self_arcs] + pi[tail[self_arcs]] - pi[head[self_arcs]]
    value = int((net.supply * pi).sum()) - int((net.cap[self_arcs] * np.minimum(rc_self, 0)).sum())
    return pi if value - sum(dual.cut_units) == dual.value_scaled else None


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.text(alphabet="ab\u00e9\u0628", min_size=1, max_size=5), min_size=2, max_size=12),
    st.booleans(),
    st.booleans(),
    st.integers(1, 40),
    st.integers(0, 2**31 - 1),
)
def test_the_repair_by_blocks_gives_the_repair_of_every_arc_at_once(
    words: list[str], cyclic: bool, proper: bool, block: int, seed: int
) -> None:
    """The local repair reads the arcs a block at a time and, after its first pass, only the
    arcs into raised nodes: the same potentials (or None) as every arc of every pass at once,
    whatever the block, from the settled potentials or from potentials shifted at random
    (which break arcs anywhere); any alphabet, repeated words, words inside others."""
    assume(len(set(words)) >= 2)
    inst = WordsnakeInstance(tuple(words), cyclic, proper)
    net = build_string_network(inst)
    out = solve_string_flow(net)
    assert out.dual is not None
    pi = potentials(net, out.dual.cost, np.asarray(out.dual.flows))
    rng = np.random.default_rng(seed)
    start = pi if seed % 2 else pi + rng.integers(-3, 4, pi.shape[0])
    dual = dataclasses.replace(out.dual, pi=start)
    want = _repaired_at_once(net, dual, start)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dual_certificate, "REPAIR_BLOCK", block)
        got = _repaired(net, dual, start)
    assert (got is None) == (want is None)
    if got is not None and want is not None:
        assert got.dtype == np.int64 and np.array_equal(got, want)
    # Held in 32 bits (as the greedy proof holds them): read in 64, the same repair.
    narrow = narrowed(start)
    assert narrow.dtype == np.int32 and narrow.tolist() == start.tolist()
    got32 = _repaired(net, dataclasses.replace(dual, pi=narrow), narrow)
    assert (got32 is None) == (got is None)
    if got32 is not None and got is not None:
        assert got32.dtype == np.int64 and np.array_equal(got32, got)
    assert dual_potentials(net, dataclasses.replace(dual, pi=narrow)).tolist() == (
        dual_potentials(net, dual).tolist()
    )
    if seed % 2:
        assert got is not None  # the settled potentials are always repaired


def test_compare_certifies_the_main_method_and_runs_the_heuristics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cert = tmp_path / "c.json"
    code, out, _ = run(["snake", "--compare", "--certificate", str(cert), "--json"], capsys)
    row = json.loads(out)
    assert code == 0 and row["certificate"]["path"] == str(cert)
    assert all(r["status"] != "UNKNOWN" for r in row["comparison"])
    found = verify_certificate(
        [w for w in row["solution"]], read_certificate(cert), cyclic=False, proper=False
    )
    assert found.status == "VALID" and found.optimal


def test_verify_mode_refuses_solving_options_and_missing_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cert = tmp_path / "c.json"
    assert run(["snake", "--certificate", str(cert)], capsys)[0] == 0
    code, _, err = run(["snake", "--verify-certificate", str(cert), "--method", "mip"], capsys)
    assert code == 2 and "--method" in err
    code, _, err = run(["snake", "--verify-certificate", str(tmp_path / "none.json")], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    trunc = tmp_path / "t.json"
    trunc.write_bytes(cert.read_bytes()[:40])
    code, _, err = run(["snake", "--verify-certificate", str(trunc)], capsys)
    assert code == 2 and "truncated" in err and len(err.strip().splitlines()) == 1


def test_the_certificate_keeps_the_time_limit() -> None:
    """A deadline already passed: no certificate, and the reason, instead of running on."""
    import time

    from cpwords.wordsnake.exact.stages.certificate import certificate
    from cpwords.wordsnake.exact.state import ProofState

    inst = WordsnakeInstance(("alpha", "phase", "sea", "ease", "seal", "alps", "sealpha"))
    net = build_string_network(inst)
    out = solve_string_flow(net)
    assert out.order is not None and out.dual is not None and out.dual.pi is None
    assert out.objective is not None and out.bound is not None
    order, objective, bound = [inst.words[i] for i in out.order], out.objective, out.bound

    def finished(deadline: float | None) -> ProofState:
        return ProofState(
            inst,
            {},
            0.0,
            0.0,
            deadline,
            deadline,
            False,
            lambda *_: None,
            {},
            end=deadline,
            net=net,
            out=out,
            order=order,
            objective=float(objective),
            bound=float(bound),
            proven=True,
            method="exact/flow",
        )

    late = finished(time.perf_counter() - 1)
    certificate(late)
    assert late.info["certificate"] is None
    assert "time limit" in late.info["certificate_error"]
    on_time = finished(None)
    certificate(on_time)
    assert on_time.info["certificate"] is not None


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.text(alphabet="ab", max_size=5), st.integers(-9, 9)),
        min_size=1,
        max_size=12,
        unique_by=lambda kv: kv[0],
    ),
    st.lists(
        st.tuples(st.text(alphabet="ab", max_size=4), st.integers(-12, 12), st.booleans()),
        min_size=1,
        max_size=30,
    ),
    st.integers(-1, 12),
    st.text(alphabet="ab", max_size=6),
    st.lists(st.integers(-12, 12), min_size=7, max_size=7),
)
def test_the_checkers_range_search_finds_the_same_strings_with_its_prefix_minima(
    entries: list[tuple[str, int]],
    queries: list[tuple[str, int, bool]],
    other: int,
    string: str,
    gains: list[int],
) -> None:
    from cpwords.wordsnake.certificate.leaves import SortedStrings, prefix_minima

    entries.sort()
    keys, values = [k for k, _ in entries], [v for _, v in entries]
    ids = list(range(len(keys)))
    second = [(3 * i) % 7 - 3 for i in range(len(keys))]  # a second value each, by id
    plain = SortedStrings(keys, ids, values, 0, second)
    fast = SortedStrings(keys, ids, values, len(keys), second)  # prefix minima at once
    assert fast.least is not None
    plain.calls = -(10**9)  # never builds them
    for prefix, limit, longer in queries:
        want = sorted(
            i
            for i, k in enumerate(keys)
            if k.startswith(prefix) and (not longer or k != prefix) and values[i] <= limit
        )
        assert sorted(plain.below(prefix, limit, longer)) == want
        assert sorted(fast.below(prefix, limit, longer)) == want
    # The suffixes of one string at once, one string left out: the minima skip only searches
    # finding nothing.
    count = len(string) + 1
    prefixes = [string[len(string) - k :] for k in range(count)]
    limits = gains[:count]
    for longer in (False, True):
        want_ids: list[int] = []
        for prefix, limit in zip(prefixes, limits, strict=True):
            want_ids += [
                i
                for i in sorted(plain.below(prefix, limit, longer))
                if i != other and i not in want_ids
            ]
        got, searches = fast.search(string, count, gains, 0, longer, other)
        assert sorted(got) == sorted(want_ids) and len(got) == len(set(got))
        assert searches <= count
        assert sorted(plain.search(string, count, gains, 0, longer, other)[0]) == sorted(want_ids)
        # A shift lowers every limit by as much.
        lower = {
            i
            for k, prefix in enumerate(prefixes)
            for i in plain.below(prefix, limits[k] - 3, longer)
            if i != other
        }
        assert set(fast.search(string, count, gains, 3, longer, other)[0]) == lower
        # A second condition: an id failing it for one prefix is still found for a later one.
        want_both = {
            i
            for k, (prefix, limit) in enumerate(zip(prefixes, limits, strict=True))
            for i in plain.below(prefix, limit, longer)
            if i != other and second[i] <= limit - 9
        }
        both = SortedStrings(keys, ids, values, len(keys), second)
        both.second_minima = prefix_minima(keys, second)  # as after many searches
        for table in (plain, fast, both):
            got, _ = table.search(string, count, gains, 0, longer, other, -9)
            assert sorted(got) == sorted(want_both)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.text(alphabet="ab\u00e9\u0628", min_size=1, max_size=5), min_size=2, max_size=14),
    st.booleans(),
    st.integers(0, 2**31 - 1),
)
def test_the_incumbents_ids_from_the_flow_stages_items_are_its_words_ids(
    words: list[str], cyclic: bool, seed: int
) -> None:
    """The certificate stage reads the incumbent's word ids from the items of the flow stages'
    ordering while the incumbent is that list, else word by word: the ids of its words either
    way (repeated words, an incumbent replaced by another list of the same words or by another
    ordering); the fingerprint from the network's distinct words is the items'."""
    from types import SimpleNamespace
    from typing import cast

    from cpwords.wordsnake.certificate import word_fingerprint
    from cpwords.wordsnake.exact.stages.certificate import _order_ids
    from cpwords.wordsnake.exact.state import ProofState
    from cpwords.wordsnake.relaxation.dual_certificate import network_fingerprint, word_ids

    assume(len(set(words)) >= 2)
    inst = WordsnakeInstance(tuple(words), cyclic, False)
    net = build_string_network(inst)
    assert network_fingerprint(net) == word_fingerprint(inst.words)
    rng = np.random.default_rng(seed)
    items = rng.permutation(inst.n).tolist()
    flow_order = [inst.words[i] for i in items]
    for order in (
        flow_order,
        [inst.words[i] for i in items],  # the same words, another list: looked up
        [inst.words[i] for i in rng.permutation(inst.n).tolist()],  # another incumbent
        flow_order[:-1],
    ):
        state = SimpleNamespace(net=net, flow_order=(flow_order, items), order=order)
        assert _order_ids(cast(ProofState, state)) == word_ids(net, order)
    state = SimpleNamespace(net=net, flow_order=None, order=flow_order)
    assert _order_ids(cast(ProofState, state)) == word_ids(net, flow_order)
