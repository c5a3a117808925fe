"""Chain certificates: the relaxation's duals, checked independently of the solver."""

from __future__ import annotations

import gzip
import itertools
import json
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.chain import certificate as cc
from cpwords.chain.certificate import (
    ChainCertificate,
    ChainCertificateError,
    ChainCut,
    chain_certificate_from_json,
    chain_certificate_to_json,
    read_chain_certificate,
    verify_chain_certificate,
    write_chain_certificate,
)
from cpwords.chain.rules import ChainInstance
from cpwords.chain.spec import chain_instance, solve_chain
from cpwords.core.result import Status
from tests.chain.test_chain import CASES, _cli, brute_force

#: Two disjoint cycles of words (k = 1): the relaxation needs a cut to be tight.
TWO_CYCLES = ["ab", "ba", "cd", "dc", "de", "ec", "efg"]


def check(inst: ChainInstance, cert: ChainCertificate) -> cc.ChainCertificateCheck:
    return verify_chain_certificate(
        inst.words,
        cert,
        overlap=inst.overlap,
        maximise=inst.objective,
        start=inst.start,
        end=inst.end,
    )


def test_doctests() -> None:
    import doctest

    assert doctest.testmod(cc).failed == 0


@pytest.mark.parametrize("inst", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_every_certificate_checks_and_bounds_the_brute_force_optimum(inst: ChainInstance) -> None:
    best = brute_force(inst)
    res = solve_chain(inst)
    cert = res.solver_info.get("certificate")
    if best is None or (inst.start is not None and inst.start == inst.end):
        return  # INFEASIBLE, or the one-word chain: nothing to certify
    assert cert is not None
    found = check(inst, cert)
    assert found.status == "VALID", found.message
    assert found.bound is not None and found.bound >= best
    assert found.objective == best
    # OPTIMAL rests on the certificate when it proves the optimum, else on HiGHS's word.
    assert res.solver_info["proof"] == ("certificate" if found.optimal else "highs")


def test_most_small_lists_are_proven_by_the_certificate_alone() -> None:
    proven = [
        solve_chain(inst).solver_info["proof"] == "certificate"
        for inst in CASES
        if brute_force(inst) is not None and not (inst.start and inst.start == inst.end)
    ]
    assert sum(proven) >= 0.8 * len(proven)


def test_a_cut_is_needed_and_dropping_it_loses_the_proof() -> None:
    inst = chain_instance(TWO_CYCLES, 1)
    res = solve_chain(inst)
    cert = res.solver_info["certificate"]
    assert res.status is Status.OPTIMAL and res.solver_info["proof"] == "certificate"
    assert cert.cuts  # the connectivity cut carries part of the proof
    found = check(inst, replace(cert, cuts=()))
    assert found.status == "VALID" and found.bound is not None and res.objective is not None
    assert found.bound > res.objective and not found.optimal


def test_a_cut_whose_set_misses_its_group_is_refused() -> None:
    inst = chain_instance(TWO_CYCLES, 1)
    cert = solve_chain(inst).solver_info["certificate"]
    cut = cert.cuts[0]
    outside = next(v for v in ("a", "b", "c", "d", "e", "g") if v not in cut.nodes)
    for nodes in (tuple(v for v in cut.nodes if v != cut.group[0]), (*cut.nodes, "zz")):
        bad = replace(cert, cuts=(replace(cut, nodes=nodes), *cert.cuts[1:]))
        found = check(inst, bad)
        assert found.status == "INVALID" and "cut 0" in found.message
    bad = replace(cert, cuts=(replace(cut, group=(outside, outside, 1)), *cert.cuts[1:]))
    assert check(inst, bad).status == "INVALID"


def test_a_chain_that_breaks_a_rule_is_refused() -> None:
    inst = chain_instance(TWO_CYCLES, 1)
    cert = solve_chain(inst).solver_info["certificate"]
    for chain, what in (
        ((*cert.chain, cert.chain[0]), "repeats"),
        (("ab", "cd"), "share"),
        (("ab", "zz"), "not a word"),
    ):
        found = check(inst, replace(cert, chain=chain))
        assert found.status == "INVALID" and what in found.message
    shorter = check(inst, replace(cert, chain=cert.chain[:1]))
    assert shorter.status == "VALID" and not shorter.optimal


def test_another_list_or_variant_is_one_line() -> None:
    inst = chain_instance(TWO_CYCLES, 1)
    cert = solve_chain(inst).solver_info["certificate"]
    with pytest.raises(ChainCertificateError, match="another word list"):
        verify_chain_certificate([*TWO_CYCLES, "xy"], cert, overlap=1)
    with pytest.raises(ChainCertificateError, match="overlap 1"):
        verify_chain_certificate(TWO_CYCLES, cert, overlap=2)
    with pytest.raises(ChainCertificateError, match="maximising words"):
        verify_chain_certificate(TWO_CYCLES, cert, overlap=1, maximise="letters")


# Any values are sound (weak duality): whatever is changed, a VALID bound never falls below the
# brute-force optimum; only a cut that is not a valid inequality could, and those are refused.
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(CASES) - 1), st.data())
def test_perturbed_values_never_prove_less_than_the_optimum(case: int, data: st.DataObject) -> None:
    inst = CASES[case]
    best = brute_force(inst)
    cert = solve_chain(inst).solver_info.get("certificate")
    if cert is None or best is None:
        return
    k = inst.overlap
    free = [w for w in inst.usable() if w not in (inst.start, inst.end)]
    ends = {w for w in (inst.start and inst.start[-k:], inst.end and inst.end[:k]) if w}
    nodes: list[str] = sorted({w[:k] for w in free} | {w[-k:] for w in free} | ends)
    D = cert.scale
    delta = st.integers(-3 * D, 3 * D)
    pot = dict(cert.potentials)
    for v in data.draw(st.lists(st.sampled_from(nodes), max_size=3)):
        pot[v] = pot.get(v, 0) + data.draw(delta)
    groups: list[tuple[str, str, int]] = sorted(
        {
            (w[: inst.overlap], w[-inst.overlap :], len(w) if inst.objective == "letters" else 1)
            for w in inst.usable()
            if w not in (inst.start, inst.end)
        }
    )
    cuts = list(cert.cuts)
    add_cut: bool = data.draw(st.booleans())
    if groups and add_cut:  # a valid cut: its group's ends inside the set
        g = data.draw(st.sampled_from(groups))
        extra = data.draw(st.lists(st.sampled_from(nodes), max_size=3))
        inside = tuple(dict.fromkeys([g[0], g[1], *extra]))
        side = data.draw(st.sampled_from(["in", "out"]))
        cuts.append(ChainCut(inside, g, side, data.draw(st.integers(0, 3 * D))))
    tampered = replace(
        cert,
        potentials=tuple(pot.items()),
        cuts=tuple(cuts),
        one_start=cert.one_start + data.draw(delta),
        one_end=cert.one_end + data.draw(delta),
    )
    found = check(inst, tampered)
    assert found.status == "VALID", found.message
    assert found.bound is not None and found.bound >= best


def test_file_round_trip_plain_gzip_and_bom(tmp_path: Path) -> None:
    inst = chain_instance(TWO_CYCLES, 1)
    cert = solve_chain(inst).solver_info["certificate"]
    for name in ("c.json", "c.json.gz"):
        write_chain_certificate(cert, tmp_path / name)
        assert read_chain_certificate(tmp_path / name) == cert
    with pytest.raises(Exception, match="exists"):
        write_chain_certificate(cert, tmp_path / "c.json")
    text = json.dumps(chain_certificate_to_json(cert))
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert read_chain_certificate(tmp_path / "bom.json") == cert
    (tmp_path / "bomb.gz").write_bytes(gzip.compress(b" " * 200_000))
    with pytest.raises(ChainCertificateError, match="more than"):
        read_chain_certificate(tmp_path / "bomb.gz", max_bytes=100_000)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 2}, "version"),
        ({"version": True}, "version"),
        ({"format": "x"}, "not a chain certificate"),
        ({"scale": 0}, "scale"),
        ({"cuts": [{"nodes": ["a"], "group": ["a", "a", 1], "side": "in", "mu": -1}]}, "mu"),
        ({"cuts": [{"nodes": ["a"], "group": ["a", "a"], "side": "in", "mu": 1}]}, "group"),
        ({"potentials": [["a"]]}, "pairs"),
        ({"bound": 1.5}, "bound"),
        ({"maximise": "both"}, "maximise"),
    ],
)
def test_malformed_certificates_are_one_line(change: dict, message: str) -> None:
    inst = chain_instance(TWO_CYCLES, 1)
    obj = chain_certificate_to_json(solve_chain(inst).solver_info["certificate"])
    with pytest.raises(ChainCertificateError, match=message):
        chain_certificate_from_json({**obj, **change})
    with pytest.raises(ChainCertificateError, match="missing"):
        chain_certificate_from_json({k: v for k, v in obj.items() if k != "chain"})


def test_cli_writes_a_certificate_and_checks_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = tmp_path / "w.txt"
    words.write_text("\n".join(TWO_CYCLES) + "\n", encoding="utf-8")
    cert = tmp_path / "c.json"
    code, out, _ = _cli(["chain", str(words), "--certificate", str(cert), "--json"], capsys)
    row = json.loads(out)
    assert code == 0 and row["status"] == "OPTIMAL" and row["proof"] == "certificate"
    assert row["certificate"]["path"] == str(cert) and cert.exists()
    code, out, _ = _cli(["chain", str(words), "--verify-certificate", str(cert), "--json"], capsys)
    row = json.loads(out)
    assert code == 0 and list(row)[:4] == ["valid", "problems", "solution", "objective"]
    assert row["valid"] and row["optimal"] and row["bound"] == row["objective"]
    code, out, _ = _cli(["chain", str(words), "--verify-certificate", str(cert)], capsys)
    assert code == 0 and out.startswith("VALID")
    # Another overlap: one line, exit 2; a chain that breaks the rules: exit 1.
    code, _, err = _cli(
        ["chain", str(words), "--overlap", "2", "--verify-certificate", str(cert)], capsys
    )
    assert code == 2 and len(err.strip().splitlines()) == 1
    obj = json.loads(cert.read_text(encoding="utf-8"))
    obj["chain"] = ["ab", "cd"]
    cert.write_text(json.dumps(obj), encoding="utf-8")
    code, out, _ = _cli(["chain", str(words), "--verify-certificate", str(cert)], capsys)
    assert code == 1 and out.startswith("INVALID")
    # Refused before solving: with the search, or an existing file without --force.
    for args in (["--method", "random-dfs"], ["--compare"]):
        code, _, err = _cli(
            ["chain", str(words), "--certificate", str(tmp_path / "x.json"), *args], capsys
        )
        assert code == 2 and "certificate" in err
    code, _, err = _cli(["chain", str(words), "--certificate", str(cert)], capsys)
    assert code == 2 and "exists" in err


def test_a_random_letters_chain_with_fixed_ends_is_certified() -> None:
    rng = random.Random(7)
    words = list(
        dict.fromkeys(
            "".join(rng.choice("abc") for _ in range(rng.randint(2, 4))) for _ in range(14)
        )
    )
    inst = chain_instance(words, 1, "letters", start=words[0], end=words[1])
    res = solve_chain(inst)
    if res.status is Status.INFEASIBLE:
        assert brute_force(inst) is None
        return
    found = check(inst, res.solver_info["certificate"])
    assert found.status == "VALID" and found.bound is not None
    assert found.bound >= (brute_force(inst) or 0)


# ---------------------------------------------------------------------------------------------
# Issue 48: every case of fixed ends, with values of any size.


def _best_chain(
    words: Sequence[str], k: int, letters: bool, start: str | None, end: str | None
) -> tuple[int, tuple[str, ...]] | None:
    """The best chain by trying every sequence of distinct words (None: there is none)."""
    usable = [w for w in words if len(w) >= k]
    best: list[tuple[int, tuple[str, ...]]] = []

    def grow(path: tuple[str, ...]) -> None:
        if end is None or path[-1] == end:
            value = sum(len(w) if letters else 1 for w in path)
            if not best or value > best[0][0]:
                best[:] = [(value, path)]
            if end is not None:
                return
        for w in usable:
            if w not in path and w[:k] == path[-1][len(path[-1]) - k :]:
                grow((*path, w))

    for w in usable:
        if start is None or w == start:
            grow((w,))
    return best[0] if best else None


@st.composite
def _puzzle_and_values(draw: st.DrawFn) -> tuple[ChainInstance, ChainCertificate, str]:
    """A small list, one of the five cases of fixed ends, and a certificate with arbitrary
    values (potentials, the two ones, valid cuts) carrying the best chain (or any word when
    there is no chain)."""
    k = draw(st.sampled_from([1, 2]))
    letters = draw(st.booleans())
    words = draw(
        st.lists(st.text("abc", min_size=k, max_size=4), min_size=1, max_size=6, unique=True)
    )
    case = draw(st.sampled_from(["none", "start", "end", "both", "same"]))
    start = end = None
    if case in ("start", "both", "same"):
        start = draw(st.sampled_from(words))
    if case in ("end", "both"):
        end = draw(st.sampled_from(words))
    if case == "same":
        end = start
    inst = chain_instance(words, k, "letters" if letters else "words", start, end)
    fixed = {start, end} - {None}
    groups = sorted(
        {(w[:k], w[len(w) - k :], len(w) if letters else 1) for w in words if w not in fixed}
    )
    ends = {w for w in (start and start[len(start) - k :], end and end[:k]) if w}
    nodes = sorted({g[0] for g in groups} | {g[1] for g in groups} | ends)
    scale = draw(st.sampled_from([1, 3, 1 << 32]))
    value = st.integers(-4 * scale, 4 * scale)
    chosen = draw(st.lists(st.sampled_from(nodes), unique=True)) if nodes else []
    potentials = tuple((v, draw(value)) for v in chosen)
    cuts = []
    for _ in range(draw(st.integers(0, 3)) if groups else 0):
        g = draw(st.sampled_from(groups))
        extra = draw(st.lists(st.sampled_from(nodes), max_size=2))
        inside = tuple(dict.fromkeys([g[0], g[1], *extra]))
        side = draw(st.sampled_from(["in", "out"]))
        cuts.append(ChainCut(inside, g, side, draw(st.integers(0, 4 * scale))))
    found = _best_chain(words, k, letters, start, end)
    chain = found[1] if found else (words[0],)
    cert = ChainCertificate(
        cc.list_fingerprint(words),
        k,
        inst.objective,
        start,
        end,
        scale,
        potentials,
        draw(value),
        draw(value),
        tuple(cuts),
        chain,
        draw(st.integers(-5, 20)),
    )
    return inst, cert, case


@settings(max_examples=400, deadline=None)
@given(_puzzle_and_values())
def test_a_valid_bound_is_never_below_the_brute_force_optimum_in_every_case(
    drawn: tuple[ChainInstance, ChainCertificate, str],
) -> None:
    inst, cert, case = drawn
    letters = inst.objective == "letters"
    best = _best_chain(inst.words, inst.overlap, letters, inst.start, inst.end)
    found = check(inst, cert)
    if case == "same":  # one word as both ends: refused, whatever the values
        assert found.status == "INVALID" and "both ends" in found.message
    if best is None:  # no chain: the certificate's chain cannot be one
        assert found.status == "INVALID"
    if found.status == "VALID":
        assert best is not None and found.bound is not None and found.bound >= best[0]
        assert found.objective == best[0] and found.optimal == (found.bound == best[0])


@settings(max_examples=100, deadline=None)
@given(_puzzle_and_values(), st.sampled_from(["fingerprint", "overlap", "maximise", "ends"]))
def test_a_certificate_of_another_puzzle_is_refused(
    drawn: tuple[ChainInstance, ChainCertificate, str], what: str
) -> None:
    inst, cert, _ = drawn
    other = {
        "fingerprint": replace(cert, fingerprint=cc.list_fingerprint([*inst.words, "zz"])),
        "overlap": replace(cert, overlap=cert.overlap + 1),
        "maximise": replace(cert, maximise="words" if inst.objective == "letters" else "letters"),
        "ends": replace(cert, start=None if cert.start else inst.words[0]),
    }[what]
    with pytest.raises(ChainCertificateError):
        check(inst, other)


@settings(max_examples=100, deadline=None)
@given(_puzzle_and_values(), st.data())
def test_a_chain_that_is_not_one_is_refused_whatever_the_values(
    drawn: tuple[ChainInstance, ChainCertificate, str], data: st.DataObject
) -> None:
    inst, cert, _ = drawn
    chain = data.draw(st.lists(st.sampled_from([*inst.words, "zz"]), max_size=4))
    k = inst.overlap
    is_chain = (
        bool(chain)
        and len(set(chain)) == len(chain)
        and all(w in inst.words and len(w) >= k for w in chain)
        and all(a[len(a) - k :] == b[:k] for a, b in itertools.pairwise(chain))
        and inst.start in (None, chain[0])
        and inst.end in (None, chain[-1])
    )
    found = check(inst, replace(cert, chain=tuple(chain)))
    if not is_chain:
        assert found.status == "INVALID" and found.bound is None


def _attack(tmp_path: Path, maximise: str) -> tuple[Path, Path]:
    """The audit's forged certificate: one word as both ends, values that prove any bound."""
    words = tmp_path / "chain2.txt"
    words.write_text("ab\ncd\n", encoding="utf-8")
    D = 2**32
    M = 5 * D if maximise == "words" else 1_000_000 * D
    attack = tmp_path / "attack.json"
    attack.write_text(
        json.dumps(
            {
                "format": "cpwords-chain-certificate",
                "version": 1,
                "fingerprint": cc.list_fingerprint(["ab", "cd"]),
                "overlap": 1,
                "maximise": maximise,
                "start": "ab",
                "end": "ab",
                "scale": D,
                "potentials": [["b", M], ["a", 0]],
                "one_start": 0,
                "one_end": M,
                "cuts": [],
                "chain": ["ab"],
                "bound": 1,
                "producer": {},
            }
        ),
        encoding="utf-8",
    )
    return words, attack


@pytest.mark.parametrize("maximise", ["words", "letters"])
def test_the_audits_forged_certificate_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], maximise: str
) -> None:
    words, attack = _attack(tmp_path, maximise)
    args = ["chain", str(words), "--start", "ab", "--end", "ab", "--maximise", maximise]
    code, out, _ = _cli([*args, "--verify-certificate", str(attack)], capsys)
    assert code == 1 and out.startswith("INVALID") and "both ends" in out
    code, out, _ = _cli([*args, "--verify-certificate", str(attack), "--json"], capsys)
    row = json.loads(out)
    assert code == 1 and not row["valid"] and row["bound"] is None


def test_two_fixed_words_meeting_directly_are_a_point_of_the_relaxation() -> None:
    # The empty trail between them (σ = τ = "b"): whatever the values, at least the chain.
    inst = chain_instance(["ab", "bc"], 1, start="ab", end="bc")
    D = 2**32
    for one_start, pot in ((-5 * D, 0), (0, 7 * D), (3 * D, -7 * D)):
        cert = ChainCertificate(
            cc.list_fingerprint(inst.words),
            1,
            "words",
            "ab",
            "bc",
            D,
            (("b", pot),),
            one_start,
            -one_start,
            (),
            ("ab", "bc"),
            2,
        )
        found = check(inst, cert)
        assert found.status == "VALID" and found.bound is not None and found.bound >= 2


def test_values_proving_less_than_their_own_chain_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The last guard: were a case of the relaxation wrong, a bound below the carried chain.
    inst = chain_instance(TWO_CYCLES, 1)
    cert = solve_chain(inst).solver_info["certificate"]
    assert check(inst, cert).status == "VALID"
    monkeypatch.setattr(cc, "_proven_bound", lambda cert, distinct: (len(cert.chain) - 1, None))
    found = check(inst, cert)
    assert found.status == "INVALID" and "less than the chain" in found.message


def test_cut_sets_asking_for_more_work_than_the_cap_are_refused() -> None:
    # A node ("aa", a loop) that 676 groups enter: every small set holding it costs 676 visits
    # for a few names. 3,000 such sets ask for about 2 million visits, over the cap.
    k = 2
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["aaa"] + [x + y + "aa" for x in letters for y in letters if x + y != "aa"]
    words += [f"{x}{y}" for x in "bcdefgh" for y in letters]  # more nodes
    inst = chain_instance(words, k)
    others = sorted({w[:k] for w in words} - {"aa"})
    sets = itertools.islice(itertools.combinations(others, 2), 3000)
    cuts = tuple(ChainCut(("aa", a, b), ("aa", "aa", 1), "in", 1) for a, b in sets)
    cert = ChainCertificate(
        cc.list_fingerprint(words),
        k,
        "words",
        None,
        None,
        1,
        (),
        0,
        0,
        (),
        ("aaa",),
        1,
    )
    assert check(inst, replace(cert, cuts=cuts[:10])).status == "VALID"
    with pytest.raises(ChainCertificateError, match="visits"):
        check(inst, replace(cert, cuts=cuts))
    # The same number of cuts on one set is one set's visits: checked.
    same = tuple(replace(c, nodes=cuts[0].nodes) for c in cuts)
    assert check(inst, replace(cert, cuts=same)).status == "VALID"
