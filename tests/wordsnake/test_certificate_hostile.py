"""Issue 34, hostile certificates ("anyone can check" means anyone can send one): a gzip bomb is
refused after at most the list's cap is decompressed; deep nesting and huge integers are one-line
refusals (exit 2), never a traceback; a cut set of thousands of words is checked in linear time,
and --time-limit bounds the check."""

from __future__ import annotations

import dataclasses
import gzip
import json
import random
import tracemalloc
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from cpwords.cli import main
from cpwords.wordsnake import certificate
from cpwords.wordsnake.certificate import (
    INT_LIMIT,
    Certificate,
    CertificateError,
    certificate_cap,
    certificate_to_json,
    read_certificate,
    verify_certificate,
    verify_pairwise,
    word_fingerprint,
)
from cpwords.wordsnake.rules import WordsnakeInstance
from cpwords.wordsnake.spec import solve_wordsnake
from tests.wordsnake.checked import ab_cases

WORDS = ["alpha", "phase", "sea", "ease", "seal"]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[Any, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.fixture(scope="module")
def good() -> dict[str, Any]:
    res = solve_wordsnake(WordsnakeInstance(tuple(WORDS)), certificate=True, time_limit=60)
    return certificate_to_json(res.solver_info["certificate"])


@pytest.fixture
def words(tmp_path: Path) -> Path:
    path = tmp_path / "five.txt"
    path.write_text("\n".join(WORDS) + "\n")
    return path


def bomb(path: Path, megabytes: int) -> None:
    """A valid start of a certificate, then ``megabytes`` MB of spaces, gzip-compressed."""
    block = b" " * (1 << 20)
    with gzip.open(path, "wb", compresslevel=9) as gz:
        gz.write(b'{"format": "cpwords-wordsnake-certificate", "version": 1, "producer": "')
        for _ in range(megabytes):
            gz.write(block)
        gz.write(b'"}')


def test_a_gzip_bomb_is_refused_past_the_lists_cap(
    words: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bomb.json.gz"
    bomb(path, 64)
    assert path.stat().st_size < 200_000  # 64 MB of JSON in well under 0.2 MB
    cap = certificate_cap(len(WORDS))
    tracemalloc.start()
    try:
        with pytest.raises(CertificateError, match="decompresses to more than") as err:
            verify_certificate(WORDS, path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "\n" not in str(err.value)
    assert peak < 4 * cap  # never the whole 64 MB
    code, out, err_text = run(["snake", str(words), "--verify-certificate", str(path)], capsys)
    assert code == 2 and out == "" and err_text.count("\n") == 1 and "Traceback" not in err_text


def test_the_cap_holds_a_real_certificate_with_room(good: dict[str, Any]) -> None:
    size = len(json.dumps(good))
    assert size < certificate_cap(len(WORDS))
    # The cap grows with the list: every word adds room for u, v, its place in the ordering and
    # cut sets, in the longest notation of a 64-bit integer.
    per_word = certificate_cap(1001) - certificate_cap(1000)
    assert per_word >= 3 * len(str(-INT_LIMIT)) + 3


def test_a_plain_file_over_the_cap_is_refused_from_its_size(
    good: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "padded.json"
    path.write_text(json.dumps(good) + " " * certificate_cap(len(WORDS)))
    with pytest.raises(CertificateError, match="more than"):
        verify_certificate(WORDS, path)


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deep_nesting_is_a_one_line_refusal(
    depth: int, words: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text(
        '{"format": "cpwords-wordsnake-certificate", "version": 1, "producer": '
        + "[" * depth
        + "]" * depth
        + "}"
    )
    with pytest.raises(CertificateError, match="nested too deep"):
        read_certificate(path)
    code, out, err = run(["snake", str(words), "--verify-certificate", str(path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("key", ["u", "v", "scale", "bound", "depot", "lambda"])
def test_integers_beyond_64_bits_are_refused(
    key: str,
    good: dict[str, Any],
    words: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    huge = 9 * 10**4299  # 4,300 digits: Python parses it; sums of two cannot be printed
    data = json.loads(json.dumps(good))
    if key in ("u", "v", "depot"):
        data[key] = [huge] * len(data[key])
    elif key == "lambda":
        data["cuts"] = [{"words": [0, 1], "lambda": huge}]
    else:
        data[key] = huge
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CertificateError, match="64"):
        read_certificate(path)
    code, out, err = run(["snake", str(words), "--verify-certificate", str(path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_the_largest_64_bit_values_are_checked_not_refused(
    good: dict[str, Any], tmp_path: Path
) -> None:
    data = json.loads(json.dumps(good))
    data["u"] = [INT_LIMIT - 1] * len(data["u"])  # valid (huge u), a huge bound
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data))
    found = verify_certificate(WORDS, path)
    assert found.status == "VALID" and found.bound is not None and found.bound > INT_LIMIT


def test_a_byte_order_mark_is_accepted(good: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(good).encode())
    assert verify_certificate(WORDS, path).status == "VALID"


# ---------------------------------------------------------------------------------------------
# Item 13: cut sets of any size are checked in linear time; --time-limit bounds the check


def one_cut_certificate(n: int, in_cut: int) -> tuple[list[str], Certificate]:
    """A valid certificate of ``n`` random words with one cut of ``in_cut`` of them."""
    rng = random.Random(n)
    pool = {"".join(rng.choice("abcde") for _ in range(rng.randint(3, 9))) for _ in range(3 * n)}
    words = sorted(pool)[:n]
    lam = 5
    cert = Certificate(
        word_fingerprint(words),
        n,
        False,
        False,
        1,
        u=tuple(len(w) ** 2 + lam for w in words),
        v=(0,) * n,
        depot=(lam, 0),
        cuts=((tuple(range(in_cut)), lam),),
        order=tuple(range(n)),
        bound=0,
        objective=0,
    )
    return words, cert


def test_a_cut_of_thousands_of_words_is_checked_without_enumerating_its_pairs(
    monkeypatch: Any,
) -> None:
    words, cert = one_cut_certificate(3000, 2500)
    calls = [0]
    real = certificate.duals.suffix_prefix_overlap

    def counted(a: str, b: str, proper: bool) -> int:
        calls[0] += 1
        return real(a, b, proper)

    for part in (certificate.duals, certificate.tree, certificate.leaves):
        monkeypatch.setattr(part, "suffix_prefix_overlap", counted)
    found = verify_certificate(words, cert)
    assert found.status == "VALID"
    assert calls[0] <= len(words)  # the ordering's joints, not the 6 million pairs of the cut


def overlapping_cuts(cert: Certificate, rng: random.Random) -> Certificate:
    """Several overlapping cuts of two words or more, each usually paid for by the words outside
    it (``u + lambda``, so the values stay valid), sometimes one unit short or not at all."""
    W = len(cert.u)
    u, cuts, depot = list(cert.u), list(cert.cuts), cert.depot
    for _ in range(rng.randint(2, 4) if W > 1 else 0):
        ids = tuple(sorted(rng.sample(range(W), rng.randint(2, W))))
        lam = rng.randint(1, 3) * cert.scale
        cuts.append((ids, lam))
        pay = rng.choice((lam, lam, lam, lam - 1, 0))
        u = [x + (0 if i in ids else pay) for i, x in enumerate(u)]
        if depot is not None:
            depot = (depot[0] + lam, depot[1])
    return dataclasses.replace(cert, u=tuple(u), cuts=tuple(cuts), depot=depot)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*ab_cases(3, 12))
def test_overlapping_cuts_are_checked_as_the_pairwise_check_does(
    words: list[str], cyclic: bool, proper: bool, seed: int
) -> None:
    inst = WordsnakeInstance(tuple(words), cyclic, proper)
    res = solve_wordsnake(inst, certificate=True, time_limit=60, workers=1)
    cert = res.solver_info["certificate"]
    # The values' check (a proof tree, whose core the new cuts change, is checked elsewhere).
    cert = replace(cert, tree=(), core=None, target=None)
    rng = random.Random(seed)
    for _ in range(6):
        c = overlapping_cuts(cert, rng)
        if c.cyclic and any(len(ids) == len(c.u) for ids, _ in c.cuts):
            continue  # refused before any check
        fast, slow = verify_certificate(inst.words, c), verify_pairwise(inst.words, c)
        assert (fast.status, fast.bound) == (slow.status, slow.bound)


def test_time_limit_bounds_the_check(
    words: Path, tmp_path: Path, good: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    big_words, cert = one_cut_certificate(300, 200)
    with pytest.raises(TimeoutError):
        verify_certificate(big_words, cert, time_limit=0.0)
    path = tmp_path / "c.json"
    path.write_text(json.dumps(good))
    code, out, err = run(
        ["snake", str(words), "--verify-certificate", str(path), "--time-limit", "60"], capsys
    )
    assert code == 0 and out.startswith("VALID"), err


@pytest.mark.parametrize("version", [True, 1.0, "1", None, [1]])
def test_a_version_that_is_not_the_integer_1_is_refused_naming_it(
    version: Any, good: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "v.json"
    path.write_text(json.dumps({**good, "version": version}))
    with pytest.raises(CertificateError, match="is not supported") as err:
        read_certificate(path)
    assert json.dumps(version) in str(err.value)


def test_a_missing_certificate_names_no_option_that_does_not_exist(
    words: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.json"
    code, out, err = run(["snake", str(words), "--verify-certificate", str(missing)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "certificate not found: " in err and "-text" not in err
