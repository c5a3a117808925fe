"""Wordsnake in every alphabet: normalisation, non-Latin scripts, brute force and the relaxation."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.core.errors import InputError
from cpwords.core.lexicon import parse_word_lines
from cpwords.wordsnake.exact.policy import solve_string_flow
from cpwords.wordsnake.relaxation.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance, check_snake
from cpwords.wordsnake.spec import EXACT_METHODS, solve_wordsnake

from .test_string_hub import brute_force, explicit_relaxation, string_relaxation

#: Small alphabets of other scripts: Greek, Cyrillic, CJK, and letters with combining marks
#: that have no precomposed form (so a mark is a letter of its own after NFC).
ALPHABETS = ["αβγ", "жщя", "東京都", "a\u0301b", "ק\u05b8ש"]


def words_over(alphabet: str) -> st.SearchStrategy[str]:
    letters = [c for c in alphabet if not unicodedata.category(c).startswith("M")]
    marks = [c for c in alphabet if unicodedata.category(c).startswith("M")]
    first = st.sampled_from(letters)
    rest = st.lists(st.sampled_from(list(alphabet)), max_size=4).map("".join)
    del marks
    return st.builds(lambda a, b: unicodedata.normalize("NFC", a + b), first, rest)


lists = st.sampled_from(ALPHABETS).flatmap(
    lambda a: st.lists(words_over(a), min_size=2, max_size=6).filter(lambda ws: len(set(ws)) > 1)
)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists, st.booleans(), st.booleans())
def test_relaxation_equals_the_explicit_model_in_other_scripts(
    ws: list[str], cyclic: bool, proper: bool
) -> None:
    words = tuple(ws)
    inst = WordsnakeInstance(words, cyclic, proper)
    value = string_relaxation(inst)
    reference = explicit_relaxation(inst.words, cyclic, proper)
    if len(set(inst.words)) == len(inst.words):
        assert value == reference
    else:
        assert value <= reference
    assert value >= brute_force(inst.words, cyclic, proper)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists, st.booleans(), st.booleans())
def test_the_optimum_equals_brute_force_in_other_scripts(
    ws: list[str], cyclic: bool, proper: bool
) -> None:
    inst = WordsnakeInstance(tuple(ws), cyclic, proper)
    res = solve_wordsnake(inst, "exact", time_limit=20)
    assert res.status.value == "OPTIMAL"
    assert res.objective == brute_force(inst.words, cyclic, proper)
    assert check_snake(inst, list(res.solution), int(res.objective))
    out = solve_string_flow(build_string_network(inst), lagrangian_iterations=5)
    assert out.objective is not None and out.bound is not None
    assert out.objective <= res.objective <= out.bound


@pytest.mark.parametrize("method", [m for m in EXACT_METHODS if m != "naive"])
def test_every_exact_method_reads_any_alphabet(method: str) -> None:
    inst = WordsnakeInstance(("σοφία", "ίαση", "ασήμι", "μισός", "όσο"))
    res = solve_wordsnake(inst, method, time_limit=30)
    assert res.status.value == "OPTIMAL" and res.verified
    assert res.objective == brute_force(inst.words, False, False)


def test_nfc_and_nfd_spellings_and_case_give_the_same_optimum() -> None:
    words = ["café", "éclair", "airé", "Réseau", "ÉTÉ", "tégé"]
    nfd = [unicodedata.normalize("NFD", w) for w in words]
    upper = [w.upper() for w in words]
    results = [
        solve_wordsnake(WordsnakeInstance(tuple(ws)), "exact", time_limit=20)
        for ws in (words, nfd, upper)
    ]
    assert {r.objective for r in results} == {results[0].objective}
    assert results[0].objective == brute_force(WordsnakeInstance(tuple(words)).words, False, False)
    assert WordsnakeInstance(tuple(nfd)).words == WordsnakeInstance(tuple(words)).words


def test_sharp_s_stays_one_letter_and_turkish_i_follows_the_language() -> None:
    assert parse_word_lines("STRAßE\nFUẞ\n") == ["straße", "fuß"]
    assert parse_word_lines("KIŞ\nİLK\n", lang="tr") == ["kış", "ilk"]
    assert parse_word_lines("KIŞ\n") == ["kiş"]  # Unicode's default mapping without --lang


@pytest.mark.parametrize(
    ("line", "char"), [("fo3o", "'3'"), ("o'clock", '"\'"'), ("ice cream", "' '"), ("a-b", "'-'")]
)
def test_a_word_that_is_not_letters_is_refused_naming_line_and_character(
    line: str, char: str
) -> None:
    with pytest.raises(InputError) as err:
        parse_word_lines(f"ok\n{line}\n", "list.txt")
    msg = str(err.value)
    assert "list.txt: 1 line that is not a word: line 2" in msg and char in msg
    assert "\n" not in msg and "--skip-invalid" in msg


def test_the_cli_reads_a_german_list_and_proves_it(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cpwords.cli import cli

    f = tmp_path / "de.txt"
    f.write_text("Straße\nßen\ngrüßen\nenorm\nörmlich\n", encoding="utf-8")
    res = CliRunner().invoke(cli, ["snake", str(f), "--json"])
    assert res.exit_code == 0, res.output
    import json

    out = json.loads(res.output)
    assert out["status"] == "OPTIMAL" and out["verified"]
    words = WordsnakeInstance(tuple(f.read_text(encoding="utf-8").split())).words
    assert out["objective"] == brute_force(words, False, False)


def test_folding_accents_is_the_players_choice(tmp_path: Path) -> None:
    from cpwords.wordsnake.spec import load_instance

    p = tmp_path / "fr.txt"
    p.write_text("café\nete\n", encoding="utf-8")
    plain = solve_wordsnake(load_instance(str(p)))
    folded = solve_wordsnake(load_instance(str(p), fold=True))
    # é and e are two letters: café and ete do not overlap; folded, cafe -> ete overlaps by 1
    assert (plain.objective, folded.objective) == (0.0, 1.0)
    assert folded.solution == ["cafe", "ete"] and folded.verified
