"""Shortest superstrings: the exact method equals exhaustive search, every superstring holds
every word, certificates check and tampered ones are refused, greedy merging never beats the
optimum, the reduction and the checkers against brute force, the drawing, the CLI."""

from __future__ import annotations

import dataclasses
import doctest
import itertools
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cpwords
import cpwords.superstring.draw as draw
import cpwords.superstring.heuristics as heuristics
import cpwords.superstring.models.exact as exact
import cpwords.superstring.models.reduce as reduce
import cpwords.superstring.rules as rules
import cpwords.superstring.spec as spec
from cpwords.cli import main
from cpwords.cli._common import CHECK_KEYS, RESULT_KEYS
from cpwords.core.errors import CheckError, InputError
from cpwords.core.result import SolveResult, Status
from cpwords.superstring.models.reduce import reduce_by_trie, reduce_words
from cpwords.superstring.rules import (
    Superstring,
    substring_free_problem,
    superstring_instance,
    superstring_problems,
)
from cpwords.superstring.spec import (
    compare_superstring,
    random_kmers,
    solve_superstring,
    verify_superstring_certificate,
)
from cpwords.wordsnake.certificate import Certificate, CertificateError, write_certificate


def merged(order: Sequence[str]) -> str:
    """The words in ``order``, each overlapping the one before as much as it can (brute force)."""
    text = ""
    for w in order:
        k = max((j for j in range(min(len(text), len(w)) + 1) if text.endswith(w[:j])), default=0)
        text += w[k:]
    return text


def shortest(words: Sequence[str]) -> int:
    """The shortest superstring's length by exhaustive search: the contained words dropped
    (by a plain scan), every order of the others merged."""
    distinct = list(dict.fromkeys(words))
    kept = [w for w in distinct if not any(w in x for x in distinct if x != w)]
    return min(len(merged(p)) for p in itertools.permutations(kept))


word = st.text(alphabet="abc", min_size=1, max_size=5)
lists = st.lists(word, min_size=1, max_size=8).filter(
    lambda ws: sum(1 for w in set(ws) if not any(w in x for x in set(ws) if x != w)) <= 6
)


def test_doctests() -> None:
    for mod in (rules, heuristics, reduce, exact, spec, draw):
        assert doctest.testmod(mod).failed == 0, mod.__name__


def test_the_codegolf_example() -> None:
    res = solve_superstring(["cat", "atom", "a"])
    assert res.status is Status.OPTIMAL and res.solution.text == "catom"
    assert res.objective == res.bound == 5 and res.verified is True
    assert res.solver_info["contained"] == 1 and res.solver_info["proof"] == "certificate"


def _optimum_is_exhaustive_search(words: list[str]) -> None:
    res = solve_superstring(words, time_limit=60, workers=1)
    best = shortest(words)
    assert res.status is Status.OPTIMAL and res.objective == res.bound == best
    text = res.solution.text
    assert len(text) == best and all(w in text for w in words)  # a plain scan
    assert res.verified is True and res.solver_info["proof"] == "certificate"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists)
def test_the_optimum_equals_exhaustive_search_and_holds_every_word(words: list[str]) -> None:
    _optimum_is_exhaustive_search(words)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.text(alphabet="ab", min_size=1, max_size=7), min_size=1, max_size=9).filter(
        lambda ws: sum(1 for w in set(ws) if not any(w in x for x in set(ws) if x != w)) <= 6
    )
)
def test_many_more_lists_over_two_letters(words: list[str]) -> None:
    _optimum_is_exhaustive_search(words)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists)
def test_greedy_never_beats_the_optimum(words: list[str]) -> None:
    res = solve_superstring(words, "greedy")
    assert res.status is Status.FEASIBLE and res.bound is None and res.verified is True
    assert res.objective is not None and res.objective >= shortest(words)
    assert all(w in res.solution.text for w in words)


def test_greedy_is_sometimes_longer_and_compare_says_so() -> None:
    """A list where merging the largest overlap first loses (Blum et al.'s pattern): the
    comparison puts greedy above the proven optimum, never below."""
    words = ["cabab", "baba", "ababc"]
    results = compare_superstring(words, time_limit=60)
    opt, greedy = results
    assert opt.is_optimal and opt.objective == shortest(words)
    assert greedy.objective is not None and opt.objective is not None
    assert greedy.objective > opt.objective


def test_a_greedy_below_a_proven_optimum_is_a_check_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = spec.solve_superstring

    def lying(instance: Any, method: str = "exact", **kw: Any) -> SolveResult:
        res = real(instance, method, **kw)
        if method == "greedy":
            return dataclasses.replace(res, objective=1.0)
        return res

    monkeypatch.setattr(spec, "solve_superstring", lying)
    with pytest.raises(CheckError, match="below the proven optimum"):
        compare_superstring(["cat", "atom", "tomb"])


@settings(max_examples=200, deadline=None)
@given(st.lists(word, min_size=1, max_size=10))
def test_the_reduction_drops_exactly_the_contained_words_and_places_every_word(
    words: list[str],
) -> None:
    distinct = list(dict.fromkeys(words))
    red = reduce_words(distinct)
    assert red.kept == tuple(w for w in distinct if not any(w in x for x in distinct if x != w))
    order = list(red.kept)
    random.Random(len(words)).shuffle(order)
    found = red.place(order)
    assert found.text == merged(order)
    for w, at in zip(distinct, found.starts, strict=True):
        assert found.text[at : at + len(w)] == w


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 5).flatmap(lambda k: st.sets(st.text("ab", min_size=k, max_size=k))))
def test_words_of_one_length_are_all_kept_as_the_trie_finds(kmers: set[str]) -> None:
    """k-mers: distinct words of one length hold none of each other; the reduction skips its
    trie for them and agrees with it."""
    words = sorted(kmers, key=lambda w: w[::-1])
    red = reduce_words(words)
    assert red == reduce_by_trie(words)
    assert red.kept == tuple(words) and all(h == -1 for h in red.holder)


@settings(max_examples=200, deadline=None)
@given(st.lists(word, min_size=1, max_size=10, unique=True))
def test_the_substring_free_check_agrees_with_a_plain_scan(words: list[str]) -> None:
    expected = any(w in x for w in words for x in words if x != w)
    assert (substring_free_problem(words) is not None) is expected


def test_the_checker_finds_missing_words_whatever_the_claimed_starts() -> None:
    words = ["cat", "atom", "a"]
    assert superstring_problems(words, Superstring("catom", ("cat", "atom"), (0, 1, 1))) == []
    # Wrong claims cost a search, never a wrong answer.
    assert superstring_problems(words, Superstring("catom", ("cat", "atom"), (3, 0, 2))) == []
    assert superstring_problems(words, Superstring("cato", ("cat", "atom"), (0, 1, 1))) == [
        "atom is not in the superstring"
    ]
    many = [f"w{'a' * i}" for i in range(30)]
    out = superstring_problems(many, "x")
    assert len(out) == 21 and out[-1].startswith("... 10 more")


def test_every_returned_superstring_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A superstring that misses a word is a bug the seam refuses (CheckError)."""
    real = reduce.Reduction.place

    def short(self: reduce.Reduction, order: Sequence[str]) -> Superstring:
        found = real(self, order)
        return Superstring(found.text[:-1], found.order, found.starts)

    monkeypatch.setattr(reduce.Reduction, "place", short)
    with pytest.raises(CheckError, match="not in the superstring"):
        solve_superstring(["cat", "atom", "tomb"], "greedy")


def _certified(words: Sequence[str]) -> tuple[tuple[str, ...], Certificate]:
    res = solve_superstring(words, certificate=True, time_limit=60, workers=1)
    return superstring_instance(words).words, res.solver_info["certificate"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists)
def test_certificates_check_valid_with_the_optimum(words: list[str]) -> None:
    inst_words, cert = _certified(words)
    assert cert.score == "linear"
    found = verify_superstring_certificate(inst_words, cert)
    assert found.status == "VALID" and found.optimal
    assert found.bound == found.length == shortest(words)


def test_tampered_certificates_are_refused(tmp_path: Path) -> None:
    words = ["alpha", "phase", "sea", "seal", "sealion", "ionic", "nice", "has"]
    inst_words, cert = _certified(words)
    assert verify_superstring_certificate(inst_words, cert).optimal
    optimum = shortest(words)
    refused = 0
    for side in ("u", "v"):
        for i in range(len(cert.u)):
            vals = list(getattr(cert, side))
            vals[i] -= 1
            changed: dict[str, Any] = {side: tuple(vals)}
            found = verify_superstring_certificate(inst_words, dataclasses.replace(cert, **changed))
            if found.status == "INVALID":
                refused += 1
                assert found.bound is None and not found.optimal
            else:  # a value with slack: still a proof, never of more than the optimum
                assert found.bound is not None and found.bound <= optimum
    assert refused > 0
    # The squared score's checker refuses it in one line; so does another list.
    path = tmp_path / "c.json"
    write_certificate(cert, path)
    squared = json.loads(path.read_text())
    squared["variant"]["score"] = "squared"
    path.write_text(json.dumps(squared))
    with pytest.raises(CertificateError, match="squared score and the one asked for is the linear"):
        verify_superstring_certificate(inst_words, path)
    with pytest.raises(CertificateError, match="another word list"):
        verify_superstring_certificate([*inst_words, "zebra"], cert)


def test_the_bound_needs_the_kept_words_substring_free(monkeypatch: pytest.MonkeyPatch) -> None:
    """If the reduction left a contained word among the kept ones, the certificate's bound
    would not hold ({abc, b}: 4 > 3): the independent check refuses to claim it."""
    real = reduce.reduce_words

    def keeps_all(words: Sequence[str], deadline: float | None = None) -> reduce.Reduction:
        red = real(words, deadline)
        n = len(red.words)
        return reduce.Reduction(red.words, red.words, (-1,) * n, (0,) * n)

    monkeypatch.setattr(exact, "reduce_words", keeps_all)
    res = solve_superstring(["abc", "b"])
    assert res.status is Status.FEASIBLE and res.bound is None
    assert "b is contained in abc" in res.solver_info["bound_problem"]


@pytest.mark.parametrize("beside", [False, True])
def test_the_substring_free_check_in_a_child_process(
    monkeypatch: pytest.MonkeyPatch, beside: bool
) -> None:
    """Large lists check their kept words in a child process while the Wordsnake runs: the
    same verdicts as in this process."""
    monkeypatch.setattr(exact, "SIDE_CHECK_LETTERS", 0 if beside else 10**9)
    res = solve_superstring(["cat", "atom", "tomb", "bat"])
    assert res.is_optimal and res.objective == shortest(["cat", "atom", "tomb", "bat"])
    real = reduce.reduce_words

    def keeps_all(words: Sequence[str], deadline: float | None = None) -> reduce.Reduction:
        red = real(words, deadline)
        n = len(red.words)
        return reduce.Reduction(red.words, red.words, (-1,) * n, (0,) * n)

    monkeypatch.setattr(exact, "reduce_words", keeps_all)
    res = solve_superstring(["abc", "b"])
    assert res.bound is None and "b is contained in abc" in res.solver_info["bound_problem"]


def test_kmers_of_a_random_genome() -> None:
    kmers = random_kmers(5, 300, seed=2)
    assert len(set(kmers)) == len(kmers) and all(len(k) == 5 for k in kmers)
    res = solve_superstring(kmers, time_limit=60)
    # The genome itself holds them all: the optimum is at most its length.
    assert res.status is Status.OPTIMAL and res.objective is not None and res.objective <= 300
    greedy = solve_superstring(kmers, "greedy").objective
    assert greedy is not None and greedy >= res.objective


def test_bad_lists_are_refused() -> None:
    with pytest.raises(InputError, match="empty"):
        solve_superstring([])
    with pytest.raises(InputError, match="not one string"):
        solve_superstring("catom")
    with pytest.raises(InputError, match="not a word"):
        solve_superstring(["ca7"])
    with pytest.raises(InputError, match="certificates come from the exact method"):
        solve_superstring(["cat"], "greedy", certificate=True)


def test_the_api_is_exported() -> None:
    res = cpwords.solve_superstring(["Cat", "ATOM"])
    assert res.solution.text == "catom"
    assert cpwords.solve("superstring", superstring_instance(["cat"]), "greedy").objective == 3
    assert [r.method for r in cpwords.compare_superstring(["cat", "atom"])] == ["exact", "greedy"]
    assert cpwords.verify_superstring_certificate is verify_superstring_certificate


@settings(max_examples=60, deadline=None)
@given(st.lists(word, min_size=1, max_size=12))
def test_the_drawing_underlines_every_word_once_per_row_it_spans(words: list[str]) -> None:
    res = solve_superstring(words, "greedy")
    found = res.solution
    distinct = superstring_instance(words).words
    svg = draw.superstring_svg(distinct, found, note="X")
    assert svg.count('class="letter"') == len(found.text)  # one glyph per <text>
    bars = svg.count('class="under kept"') + svg.count('class="under"')
    spans = draw.spans(distinct, found)
    assert len(spans) == len(distinct)  # every word found where it sits
    rows = [(e - 1) // draw.COLUMNS - s // draw.COLUMNS + 1 for s, e, _ in spans]
    lanes = draw.lanes(spans)
    assert bars == sum(r for r, lane in zip(rows, lanes, strict=True) if lane >= 0)
    assert "X" in svg


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


@pytest.fixture()
def listfile(tmp_path: Path) -> Path:
    f = tmp_path / "w.txt"
    f.write_text("cat\natom\na\nCat\ntomb\n", encoding="utf-8")
    return f


def test_cli_json_has_the_shared_keys(listfile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(["superstring", str(listfile), "--json"], capsys)
    row = json.loads(out)
    assert code == 0 and list(row)[: len(RESULT_KEYS)] == list(RESULT_KEYS)
    assert row["status"] == "OPTIMAL" and row["gap"] == 0 and row["verified"] is True
    assert row["solution"] == row["superstring"] == "catomb" and row["length"] == 6
    assert row["objective"] == row["bound"] == 6 and row["proof"] == "certificate"
    assert (row["list_size"], row["repeated"], row["contained"], row["kept"]) == (4, 1, 1, 3)
    assert row["letters"] == 12 and row["kept_letters"] == 11 and row["overlap"] == 5
    assert row["order"] == ["cat", "atom", "tomb"]


def test_cli_text_compare_and_svg(
    listfile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "s.svg"
    code, out, _ = _cli(["superstring", str(listfile), "--compare", "--svg", str(svg)], capsys)
    assert code == 0 and out.startswith("catomb\n")
    assert "1 inside another, 3 kept" in out and "OPTIMAL" in out and "greedy" in out
    assert "checked VALID by the independent checker" in out
    assert svg.read_text().count('class="letter"') == 6


def test_cli_certificate_round_trip(
    listfile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cert = tmp_path / "c.json.gz"
    code, out, _ = _cli(["superstring", str(listfile), "--certificate", str(cert)], capsys)
    assert code == 0 and "certified" in out
    code, out, _ = _cli(["superstring", str(listfile), "--verify-certificate", str(cert)], capsys)
    assert code == 0 and out.startswith("VALID") and "at least 6 letters" in out
    code, out, _ = _cli(
        ["superstring", str(listfile), "--verify-certificate", str(cert), "--json"], capsys
    )
    row = json.loads(out)
    assert list(row)[:4] == list(CHECK_KEYS) and row["valid"] is True and row["bound"] == 6
    other = tmp_path / "o.txt"
    other.write_text("cat\natom\nzebra\n")
    code, _, err = _cli(["superstring", str(other), "--verify-certificate", str(cert)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "another word list" in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--cyclic"], "--cyclic is not supported"),
        (["--proper"], "--proper changes nothing"),
        (["--method", "greedy", "--certificate", "x.json"], "certificates come from the exact"),
        (["--method", "greedy", "--workers", "2"], "does nothing"),
        (["--check-text", "catomb", "--compare"], "give one of"),
        (["--verify-certificate", "missing.json"], "certificate not found"),
        (["--time-limit", "0"], "positive"),
    ],
)
def test_cli_bad_options_are_one_line_exit_2(
    listfile: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    code, out, err = _cli(["superstring", str(listfile), *extra], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize(("lines", "message"), [("", "empty"), ("cat\nca7\n", "line 2")])
def test_cli_bad_lists_are_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: str, message: str
) -> None:
    f = tmp_path / "w.txt"
    f.write_text(lines)
    code, out, err = _cli(["superstring", str(f)], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err


def test_cli_check_exit_statuses(listfile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(["superstring", str(listfile), "--check-text", "CAT tomb"], capsys)
    assert code == 1 and "atom is not in the superstring" in out
    code, out, _ = _cli(["superstring", str(listfile), "--check-text", "catomb", "--json"], capsys)
    row = json.loads(out)
    assert code == 0 and row["valid"] is True and row["objective"] == 6


def test_cli_ctrl_c_prints_the_best_so_far_marked_interrupted(
    listfile: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C in the Wordsnake's stages: its best ordering, marked interrupted, exit 130."""
    from cpwords.wordsnake.exact import policy

    def interrupted(state: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(policy, "NETWORK", policy.Stage("string-hub network", interrupted))
    code, out, _ = _cli(["superstring", str(listfile), "--json"], capsys)
    row = json.loads(out)
    assert code == 130 and row["interrupted"] is True and row["stopped"] == "interrupted"
    assert row["status"] == "FEASIBLE" and all(w in row["superstring"] for w in ["cat", "tomb"])


def test_cli_ctrl_c_before_any_answer(
    listfile: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: Any, **kw: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(spec, "load_superstring_instance", interrupted)
    code, out, err = _cli(["superstring", str(listfile), "--json"], capsys)
    assert code == 130 and json.loads(out)["status"] == "UNKNOWN" and "interrupted" in err


def test_a_stopped_solve_keeps_a_checked_superstring(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time limit that stops the Wordsnake before any bound: the superstring of the order it
    had, FEASIBLE without a bound, and said to be stopped."""
    from cpwords.wordsnake.exact import policy

    def late(state: Any) -> None:
        raise policy.DeadlineReached

    monkeypatch.setattr(policy, "NETWORK", policy.Stage("string-hub network", late))
    words = ["cat", "atom", "tomb", "bat"]
    res = solve_superstring(words, time_limit=5)
    assert res.status is Status.FEASIBLE and res.verified is True
    assert res.solver_info["stopped"] in ("time", "time_limit")
    assert all(w in res.solution.text for w in words)
    # The bound the words' lengths give (the longest overlaps they could have) still holds.
    assert res.bound is not None and res.objective is not None
    assert res.bound <= shortest(words) <= res.objective


def test_cli_no_answer_in_time_is_unknown_exit_1(
    listfile: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped while the contained words are found (no superstring yet): UNKNOWN, exit 1,
    the JSON keys all there."""
    from cpwords.wordsnake.relaxation.string_hub import DeadlineReached

    def late(words: Sequence[str], deadline: float | None = None) -> reduce.Reduction:
        raise DeadlineReached

    monkeypatch.setattr(exact, "reduce_words", late)
    code, out, _ = _cli(["superstring", str(listfile), "--json", "--time-limit", "5"], capsys)
    row = json.loads(out)
    assert code == 1 and list(row)[: len(RESULT_KEYS)] == list(RESULT_KEYS)
    assert row["status"] == "UNKNOWN" and row["solution"] is None and row["superstring"] is None
    assert row["stopped"] == "time_limit" and row["interrupted"] is False
    code, out, _ = _cli(["superstring", str(listfile), "--time-limit", "5"], capsys)
    assert code == 1 and "stopped before any superstring was found" in out
